"""Bad and hostile input through the command line, the way an author meets it: every broken
corpus stops `build.py` with problems that name file, id and field and say how to fix them,
no Python traceback, exit status 1, and the previous output left byte for byte as it was.

The cases are every validation case of tests/support/corpus_mistakes.py plus the file-level accidents
and hostile ids below."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import build as build_cli

from support.corpus_mistakes import CASES

REPO = Path(__file__).resolve().parents[2]


def truncate(name, keep_fraction=0.5):
    def apply(corpus):
        data = corpus.path(name).read_bytes()
        corpus.write_bytes(name, data[:int(len(data) * keep_fraction)])
    return apply


def copy_file(name, new_name):
    return lambda corpus: corpus.write_bytes(new_name, corpus.path(name).read_bytes())


def edit(name, old, new):
    return lambda corpus: corpus.edit(name, old, new)


def append(name, text):
    return lambda corpus: corpus.write_bytes(name, corpus.path(name).read_bytes() + text.encode())


def passage_block(pid, text):
    return f"\n## {pid} | Hostile\n\n{text}\n"


# (how to break it, fragments that must all be in one problem line)
EXTRA = {
    "truncated help document": (truncate("help/errors.md", 0.03), ["corpus/help/errors.md", "front matter"]),
    "truncated YAML list": (truncate("golden.yaml", 0.6), ["corpus/golden.yaml"]),
    "document copied under another name": (copy_file("help/errors.md", "help/errors-copy.md"),
                                           ["corpus/help/errors-copy.md", "err-4021", "is used twice"]),
    "golden question pointing at a removed passage": (
        edit("help/errors.md", "## err-4021 | QB-4021: file too large", "## err-4022 | QB-4021: file too large"),
        ["corpus/golden.yaml", "no passage 'err-4021'", "similar ids: err-4022"]),
    "a result typed into a definition": (
        edit("glossary.yaml", "that scores passages by the query terms they share.",
             "that finds 12 of 30 paraphrases, 40% of the set."),
        ["corpus/glossary.yaml", "bm25", "definition", "types the figure '12 of 3", "define the term in words"]),
    "id with a space": (append("help/errors.md", passage_block("err 1", "Some text that is long enough.")),
                        ["corpus/help/errors.md", "is not a valid id"]),
    "id with quotes": (append("help/errors.md", passage_block('err-"1"', "Some text.")),
                       ["corpus/help/errors.md", "is not a valid id"]),
    "id with markup": (append("help/errors.md", passage_block("<script>alert(1)</script>", "Some text.")),
                       ["corpus/help/errors.md", "is not a valid id", "<script>"]),
    "very long text": (append("help/errors.md", passage_block("err-long", "word " * 400)),
                       ["corpus/help/errors.md", "err-long", "text", "wordpieces"]),
    "5 MB file": (lambda corpus: corpus.write_bytes("help/huge.md", b"---\ntitle: Huge\n---\n" + b"a" * 5_000_000),
                  ["corpus/help/huge.md", "over the 1,000,000-byte limit"]),
    "URL with a data: scheme": (edit("help/errors.md", "url: https://help.quillbox.example/errors",
                                     "url: data:text/html,<script>alert(1)</script>"),
                                ["corpus/help/errors.md", "url", "is not an http(s) or relative URL"]),
    "protocol-relative URL": (edit("help/errors.md", "url: https://help.quillbox.example/errors",
                                   "url: //evil.example/errors"),
                              ["corpus/help/errors.md", "url"]),
    "Latin-1 file": (lambda corpus: corpus.write_bytes("glossary.yaml", "- term: café\n".encode("latin-1")),
                     ["corpus/glossary.yaml", "is not UTF-8"]),
}


def run_build(corpus_dir: Path, out: Path) -> subprocess.CompletedProcess:
    """build.py in a new process, as an author runs it."""
    return subprocess.run([sys.executable, "build.py", "--corpus", str(corpus_dir), "--out", str(out),
                           "--cache", str(out.parent / "cache")], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, HF_HUB_OFFLINE="1"))


def run_main(corpus_dir: Path, out: Path, capsys) -> subprocess.CompletedProcess:
    """build.py's main() in this process: the same exit code and messages as the command, without
    the second of start-up that a new process costs for each of the many cases. An exception
    main() does not turn into a message propagates, and fails the test like a traceback would."""
    code = build_cli.main(["--corpus", str(corpus_dir), "--out", str(out), "--cache", str(out.parent / "cache")])
    printed = capsys.readouterr()
    return subprocess.CompletedProcess([], code, printed.out, printed.err)


def check_refused(corpus, tmp_path, fragment_sets, capsys=None):
    """The build refuses the corpus (exit 1, no traceback, the old site kept), and for each list of
    fragments one problem line holds all of them."""
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("the previous build")
    result = run_main(corpus.root, dist, capsys) if capsys else run_build(corpus.root, dist)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    problem_lines = [line for line in result.stderr.splitlines() if line.startswith("  corpus/")]
    assert problem_lines, result.stderr
    assert all("(fix: " in line for line in problem_lines), problem_lines
    for fragments in fragment_sets:
        assert any(all(fragment in line for fragment in fragments) for line in problem_lines), (fragments, problem_lines)
    assert [p.name for p in dist.iterdir()] == ["index.html"]
    assert (dist / "index.html").read_text() == "the previous build"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dist.")]


def case_params():
    for name, case in CASES.items():
        case = case.values[0] if hasattr(case, "values") else case
        yield pytest.param(case.break_it, [case.file, case.message], id=f"validation: {name}")
    for name, (break_it, fragments) in EXTRA.items():
        yield pytest.param(break_it, fragments, id=name)


@pytest.mark.parametrize("break_it, fragments", list(case_params()))
def test_a_broken_corpus_is_refused_with_a_clear_error(corpus, tmp_path, break_it, fragments, capsys):
    break_it(corpus)
    check_refused(corpus, tmp_path, [fragments], capsys)


def test_the_command_itself_refuses_a_broken_corpus(corpus, tmp_path):
    """Three of the cases at once through one real `python build.py` process (each is also a case
    of its own above, in this process): exit code 1, no traceback, and each one's message (the
    loader reports every problem it finds; once three processes, one a case)."""
    names = ["5 MB file", "Latin-1 file", "URL with a data: scheme"]
    for name in names:
        EXTRA[name][0](corpus)
    check_refused(corpus, tmp_path, [EXTRA[name][1] for name in names])


def test_there_are_at_least_25_cases():
    assert len(list(case_params())) >= 25
