"""Corpus validation: each kind of mistake an author can make, made once in a copy of the
small valid corpus in fixtures/valid/, must stop load_corpus with a problem that names the
file, the line, the id and the field, and says how to fix it."""

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from engine.corpus import MAX_FILE_BYTES
from engine.problems import CorpusError

REPO = Path(__file__).resolve().parents[2]

OLD_REFUND_TEXT = ("Ask for a full refund within 30 days of your payment and we will return the whole "
                   "amount, no questions asked.")
STAFF_REFUND_TEXT = ("\nSupport agents may approve a refund after the 14 days once per customer when a "
                     "payment failed twice. Record the exception in the billing console.\n")



@dataclass
class Case:
    break_it: Callable  # (MiniCorpus) -> None: the one edit
    file: str           # where the problem must point, relative to the corpus's parent
    line: Callable      # (MiniCorpus) -> int | None, read from the edited file
    id: str | None
    field: str | None
    message: str        # a fragment of the problem's message
    alone: bool = True  # the only problem reported (no knock-on problems elsewhere)


def at(name, marker):
    return lambda corpus: corpus.line_of(name, marker)


def no_line(corpus):
    return None


def edit(name, old, new):
    return lambda corpus: corpus.edit(name, old, new)


def delete(name):
    return lambda corpus: corpus.path(name).unlink()


def write(name, data: bytes):
    return lambda corpus: corpus.write_bytes(name, data)


def replace_bytes(name, old: bytes, new: bytes):
    def apply(corpus):
        data = corpus.path(name).read_bytes()
        assert data.count(old) == 1
        corpus.write_bytes(name, data.replace(old, new))
    return apply


LAB_QUESTIONS_NOT_A_LIST = edit(
    "chunking-lab.md",
    "questions:\n  - id: q1\n    question: How long can a Business admin still recover a deleted note?\n",
    "questions: 5\n")

B = "corpus/help/billing.md"
CASES = {
    "duplicate id across two files": Case(
        edit("help/errors.md", "then try again.\n",
             "then try again.\n\n## refund-old | Old refunds\n\nA copy of the old refund page pasted here.\n"),
        "corpus/help/errors.md", at("help/errors.md", "## refund-old"), "refund-old", "id",
        "is used twice (first at corpus/help/billing.md:13)"),
    "missing title": pytest.param(Case(
        edit("help/errors.md", "title: Error codes\n", ""),
        "corpus/help/errors.md", lambda corpus: 2, None, "title", "is missing or empty",
        alone=False)),  # its passages are dropped, so references to them fail too
    "missing section": Case(
        edit("help/billing.md", "## refund-old | Refund policy (2024)", "## refund-old |"),
        B, at("help/billing.md", "## refund-old"), "refund-old", "section", "is empty"),
    "missing text": Case(
        edit("help/billing.md", STAFF_REFUND_TEXT, ""),
        B, at("help/billing.md", "## refund-staff"), "refund-staff", "text", "is empty"),
    "empty text": Case(
        edit("help/billing.md", OLD_REFUND_TEXT, "   \t  "),
        B, at("help/billing.md", "## refund-old"), "refund-old", "text", "is empty"),
    "heading without a '|'": Case(
        edit("help/billing.md", "## refund-old | Refund policy (2024)", "## refund-old Refund policy (2024)"),
        B, at("help/billing.md", "## refund-old"), None, None, "passage heading '## refund-old Refund policy (2024)' has no id"),
    "heading with an invalid id": Case(
        edit("help/billing.md", "## refund-old |", "## Refund_Old |"),
        B, at("help/billing.md", "## Refund_Old"), "Refund_Old", "id", "'Refund_Old' is not a valid id"),
    "unknown passage key": Case(
        edit("help/billing.md", "superseded: true\n", "superseded: true\nowner: billing-team\n"),
        B, at("help/billing.md", "owner:"), "refund-old", "owner", "is not a passage field"),
    "date not YYYY-MM-DD": Case(
        edit("help/billing.md", "updated: 2024-02-01", "updated: 2024-2-1"),
        B, at("help/billing.md", "updated: 2024-2-1"), "refund-old", "updated", "is '2024-2-1', not a date"),
    "impossible date": Case(
        edit("help/billing.md", "updated: 2024-02-01", "updated: 2026-02-30"),
        B, at("help/billing.md", "updated: 2026-02-30"), "refund-old", "updated", "'2026-02-30' is not a real date"),
    "unknown ACL group": Case(
        edit("help/billing.md", "acl: staff", "acl: staff, vip"),
        B, at("help/billing.md", "acl: staff, vip"), "refund-staff", "acl", "unknown group 'vip'"),
    "bad kind": Case(
        edit("help/billing.md", "kind: runbook", "kind: wiki"),
        B, at("help/billing.md", "kind: wiki"), "refund-staff", "kind", "is 'wiki'"),
    "javascript: URL": Case(
        edit("help/billing.md", "acl: staff\n", "acl: staff\nurl: javascript:alert(1)\n"),
        B, at("help/billing.md", "url: javascript"), "refund-staff", "url",
        "'javascript:alert(1)' is not an http(s) or relative URL"),
    "superseded not a boolean": Case(
        edit("help/billing.md", "superseded: true", "superseded: maybe"),
        B, at("help/billing.md", "superseded: maybe"), "refund-old", "superseded", "is 'maybe', not true or false"),
    "text over 256 wordpieces": Case(
        edit("help/billing.md", OLD_REFUND_TEXT, "note " * 300),
        # "note" is one wordpiece: 300 + [CLS] + [SEP] = 302 > 256
        B, at("help/billing.md", "## refund-old"), "refund-old", "text",
        f"is {300 + 2} wordpieces; the model reads only the first 256"),
    "golden answer that does not exist": Case(
        edit("golden.yaml", "answer: refund-new", "answer: refund-nwe"),
        "corpus/golden.yaml", at("golden.yaml", "How do I get my money back?"), "g02", "answer",
        "no passage 'refund-nwe'"),
    "rewrite answer that does not exist": Case(
        edit("rewrites.yaml", "answer: err-4021", "answer: err-402"),
        "corpus/rewrites.yaml", at("rewrites.yaml", "- id: follow-up"), "follow-up", "answer",
        "no passage 'err-402'"),
    "tracer claim source unknown": Case(
        edit("tracers.yaml", "source: err-4021", "source: err-4022"),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "source",
        "no passage 'err-4022'"),
    "tracer quote not in its source": Case(
        edit("tracers.yaml", "quote: 100 MB for Free", "quote: 100 MB on Free"),
        "corpus/tracers.yaml", at("tracers.yaml", "- text: Free plans"), "upload-4021 claim 1", "quote",
        "'100 MB on Free' is not in passage 'err-4021'"),
    "rerank score out of range": Case(
        edit("tracers.yaml", "err-4021: 0.97", "err-4021: 1.5"),
        "corpus/tracers.yaml", at("tracers.yaml", "err-4021: 1.5"), "upload-4021", "rerank.err-4021",
        "score '1.5' is not in 0..1"),
    "chunking-lab fact not in the page": pytest.param(Case(
        edit("chunking-lab.md", "tempting: 30 days", "tempting: 45 days"),
        "corpus/chunking-lab.md", lambda corpus: 2, None, "facts.tempting",
        "phrase '45 days' is not in the page")),
    "chunking-lab question id": pytest.param(Case(
        edit("chunking-lab.md", "- id: q1", "- id: Q 1"),
        "corpus/chunking-lab.md", at("chunking-lab.md", "- id: Q 1"), "Q 1", "questions.id",
        "'Q 1' is not a valid id", alone=False)),  # then it has no questions either
    "quiz answer index out of range": Case(
        edit("quiz.yaml", "answer: 1", "answer: 2"),  # two choices: indexes 0 and 1
        "corpus/quiz.yaml", at("quiz.yaml", "- id: quiz-hybrid"), "quiz-hybrid", "answer",
        "'2' is not the index of a choice"),
    "invalid YAML": Case(
        edit("golden.yaml", "  answer: err-4021\n", "  answer: err-4021: oops\n"),
        "corpus/golden.yaml", at("golden.yaml", "err-4021: oops"), None, None,
        "is not valid YAML: mapping values are not allowed here", alone=False),
    "missing file": Case(
        delete("glossary.yaml"), "corpus/glossary.yaml", no_line, None, None, "file is missing"),
    "empty file": Case(
        write("quiz.yaml", b""), "corpus/quiz.yaml", no_line, None, None, "file is empty"),
    "blank file": Case(
        write("quiz.yaml", b"\n  \n\t\n"), "corpus/quiz.yaml", no_line, None, None, "file is empty"),
    "bytes that are not UTF-8": Case(
        replace_bytes("golden.yaml", b"my money back", b"my m\xf6ney back"),  # Latin-1 for 'ö'
        "corpus/golden.yaml", at("golden.yaml", "How do I get my m"), None, None,
        "is not UTF-8 (byte 0xf6"),
    "NUL byte": Case(
        replace_bytes("glossary.yaml", b"A keyword", b"A key\0word"),
        "corpus/glossary.yaml", at("glossary.yaml", "A key"), None, None, "contains a NUL character"),
    "file over 1 MB": Case(
        write("help/huge.md", b"x" * (MAX_FILE_BYTES + 1)),
        "corpus/help/huge.md", no_line, None, None, "file is 1,000,001 bytes, over the 1,000,000-byte limit"),
    "duplicate golden question": Case(
        # Compared case-insensitively; reported where the question first appears.
        edit("golden.yaml", "How do I get my money back?", "HOW BIG can an upload be on the Free plan?"),
        "corpus/golden.yaml", at("golden.yaml", "How big can"), "g01", "question",
        "'how big can an upload be on the free plan?' appears 2 times"),
}


def test_the_fixture_is_valid(corpus):
    loaded = corpus.load()
    assert [p.id for p in loaded.passages] == ["refund-new", "refund-old", "refund-staff", "err-4021", "err-4290"]
    by_id = loaded.by_id
    assert by_id["refund-new"].url == "https://help.quillbox.example/billing#refund-new"  # document URL + #id
    assert (by_id["refund-old"].updated, by_id["refund-old"].superseded) == ("2024-02-01", True)  # overrides
    assert (by_id["refund-staff"].kind, by_id["refund-staff"].acl) == ("runbook", ("staff",))
    assert (by_id["err-4290"].updated, by_id["err-4290"].superseded) == ("2026-05-02", False)  # defaults
    assert (len(loaded.golden), len(loaded.tracers), len(loaded.quiz), len(loaded.glossary)) == (2, 1, 2, 2)
    assert loaded.groups == {"public", "staff"}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_each_mistake_names_its_place_and_fix(corpus, case):
    case.break_it(corpus)
    line = case.line(corpus)
    problems = corpus.problems()
    matching = [p for p in problems if p.file == case.file and p.field == case.field and case.message in p.message]
    assert len(matching) == 1, "\n".join(map(str, problems))
    problem = matching[0]
    assert (problem.file, problem.line, problem.id, problem.field) == (case.file, line, case.id, case.field)
    text = str(problem)
    assert text.startswith(f"{case.file}:{line}: " if line else f"{case.file}: ")
    assert "(fix: " in text and problem.fix
    if case.alone:
        assert problems == [problem], "\n".join(map(str, problems))


def test_the_error_lists_every_problem_with_its_fix(corpus):
    CASES["golden answer that does not exist"].break_it(corpus)
    with pytest.raises(CorpusError) as raised:
        corpus.load()
    line = corpus.line_of("golden.yaml", "How do I get my money back?")
    assert str(raised.value) == (
        "the corpus has 1 problem:\n"
        f"  corpus/golden.yaml:{line}: g02: answer: no passage 'refund-nwe' "
        "(fix: point it at an existing passage id; similar ids: refund-new, refund-old, refund-staff)")


def test_all_problems_are_reported_at_once(corpus):
    CASES["golden answer that does not exist"].break_it(corpus)
    CASES["quiz answer index out of range"].break_it(corpus)
    problems = corpus.problems()
    assert sorted((p.file, p.field) for p in problems) == [("corpus/golden.yaml", "answer"), ("corpus/quiz.yaml", "answer")]
    with pytest.raises(CorpusError, match="the corpus has 2 problems:"):
        corpus.load()


def test_a_bom_and_windows_line_ends_load_like_the_clean_file(corpus):
    clean = corpus.load()
    for name in ("help/billing.md", "golden.yaml", "tracers.yaml", "chunking-lab.md"):
        text = corpus.path(name).read_text("utf-8")
        corpus.write_bytes(name, b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert corpus.path("help/billing.md").read_bytes().startswith(b"\xef\xbb\xbf---\r\n")
    windows = corpus.load()
    assert windows.passages == clean.passages
    assert windows.golden == clean.golden
    assert windows.tracers == clean.tracers
    assert windows.chunking_lab == clean.chunking_lab


def test_a_tracer_needs_two_rerank_scores(corpus):
    corpus.edit("tracers.yaml", "    err-4290: 0.12\n", "")
    assert [(p.id, p.field) for p in corpus.problems()] == [("upload-4021", "rerank")]


def test_lab_questions_that_are_not_a_list(corpus):
    LAB_QUESTIONS_NOT_A_LIST(corpus)
    assert ("corpus/chunking-lab.md", "questions") in [(p.file, p.field) for p in corpus.problems()]


def test_invalid_yaml_is_reported_once(corpus):
    CASES["invalid YAML"].break_it(corpus)
    assert [p.message for p in corpus.problems()] == ["is not valid YAML: mapping values are not allowed here"]


# ------------------------------------------------------------------ the command line

def run_build(corpus_dir: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    return subprocess.run(
        [sys.executable, "build.py", "--corpus", str(corpus_dir), "--out", str(tmp_path / "dist"),
         "--cache", str(tmp_path / "cache")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def golden_answer_broken(corpus):
    CASES["golden answer that does not exist"].break_it(corpus)
    line = corpus.line_of("golden.yaml", "How do I get my money back?")
    return f"corpus/golden.yaml:{line}: g02: answer: no passage 'refund-nwe' (fix: "


def lab_questions_broken(corpus):
    LAB_QUESTIONS_NOT_A_LIST(corpus)
    return "corpus/chunking-lab.md:"


@pytest.mark.parametrize("break_it", [
    golden_answer_broken,
    lab_questions_broken,
])
def test_build_stops_on_a_broken_corpus_and_leaves_the_output_alone(corpus, tmp_path, break_it):
    expected = break_it(corpus)
    dist = tmp_path / "dist"
    (dist / "data").mkdir(parents=True)
    (dist / "index.html").write_text("<p>the previous build</p>\n")
    (dist / "data" / "page.json").write_bytes(b'{"schema": 1}')
    before = snapshot(dist)
    siblings = sorted(p.name for p in tmp_path.iterdir())

    result = run_build(corpus.root, tmp_path)

    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    assert "build failed: the corpus has 1 problem:" in result.stderr
    assert expected in result.stderr
    assert "Nothing was written; the previous output is untouched." in result.stderr
    assert snapshot(dist) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == siblings  # no half-built folder left beside it
