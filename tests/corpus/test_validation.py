"""Corpus validation: each kind of mistake an author can make, made once in a copy of the
small valid corpus in fixtures/valid/, must stop load_corpus with a problem that names the
file, the line, the id and the field, and says how to fix it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from builder.pipeline import load
from builder.stages import StageLog
from engine.problems import CorpusError
from support.corpus_mistakes import CASES, LAB_QUESTIONS_NOT_A_LIST

REPO = Path(__file__).resolve().parents[2]

def test_the_fixture_is_valid(corpus):
    site = corpus.load()
    loaded = site.corpus
    assert [p.id for p in loaded.passages] == ["refund-new", "refund-old", "refund-staff", "err-4021", "err-4290"]
    by_id = loaded.by_id
    assert by_id["refund-new"].url == "https://help.quillbox.example/billing#refund-new"  # document URL + #id
    assert (by_id["refund-old"].updated, by_id["refund-old"].superseded) == ("2024-02-01", True)  # overrides
    assert (by_id["refund-staff"].kind, by_id["refund-staff"].acl) == ("runbook", ("staff",))
    assert (by_id["err-4290"].updated, by_id["err-4290"].superseded) == ("2026-05-02", False)  # defaults
    assert (len(loaded.golden), len(loaded.tracers), len(site.content.labs["quiz"].questions), len(site.content.glossary)) == (2, 1, 2, 2)
    assert loaded.groups == {"public", "staff"}
    assert loaded.warnings == ()


def test_a_stray_file_among_the_documents_is_named_in_a_warning(corpus, capsys):
    corpus.write_bytes("help/draft.txt", b"## err-9999 | A draft\n\nNot a document yet.\n")
    (corpus.root / "help" / "old").mkdir()
    site = corpus.load()
    assert [p.id for p in site.corpus.passages] == ["refund-new", "refund-old", "refund-staff", "err-4021", "err-4290"]
    assert site.corpus.warnings == (
        "corpus/help/draft.txt: this file is not read (only help/*.md documents are); "
        "rename it to .md to make it a document, or move it out of help/",
        "corpus/help/old: this folder is not read (only help/*.md documents are); "
        "rename it to .md to make it a document, or move it out of help/")
    load(corpus.root, StageLog())  # the build's load stage prints what the loader warns of
    printed = capsys.readouterr().err
    assert "warning: corpus/help/draft.txt: this file is not read" in printed
    assert "warning: corpus/help/old: this folder is not read" in printed


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
        f"  corpus/golden.yaml:{line}: g02: answers: no passage 'refund-nwe' "
        "(fix: point it at an existing passage id; similar ids: refund-new, refund-old, refund-staff)")


def test_all_problems_are_reported_at_once(corpus):
    CASES["golden answer that does not exist"].break_it(corpus)
    CASES["quiz question with two right choices"].break_it(corpus)
    problems = corpus.problems()
    assert sorted((p.file, p.field) for p in problems) == [("corpus/golden.yaml", "answers"), ("corpus/quiz.yaml", "choices")]
    with pytest.raises(CorpusError, match="the corpus has 2 problems:"):
        corpus.load()


def test_a_bom_and_windows_line_ends_load_like_the_clean_file(corpus):
    clean = corpus.load()
    for name in ("help/billing.md", "golden.yaml", "tracers.yaml", "chunking-lab.md"):
        text = corpus.path(name).read_text("utf-8")
        corpus.write_bytes(name, b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert corpus.path("help/billing.md").read_bytes().startswith(b"\xef\xbb\xbf---\r\n")
    windows = corpus.load()
    assert windows.corpus.passages == clean.corpus.passages
    assert windows.corpus.golden == clean.corpus.golden
    assert windows.corpus.tracers == clean.corpus.tracers
    assert windows.content.labs["chunking"] == clean.content.labs["chunking"]


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
    return f"corpus/golden.yaml:{line}: g02: answers: no passage 'refund-nwe' (fix: "


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
