"""builder/ builds any corpus: it names none of Quillbox's passages or questions. The ids the
figures, worked examples and samples follow are the corpus's own, in corpus/page.yaml
(builder/page/page_config.py). This test reads every file under builder/ and fails on any
passage id, golden question id or tracer id of corpus/, in code, comments or docstrings."""

import re

from engine.corpus import load_corpus
from support.paths import ROOT


def corpus_ids() -> set[str]:
    corpus = load_corpus(ROOT / "corpus")
    return ({p.id for p in corpus.passages} | {g.id for g in corpus.golden} | {t.id for t in corpus.tracers}
            | {u.id for u in corpus.unanswerable})


def test_the_ids_looked_for_are_the_corpus_s():
    ids = corpus_ids()
    # 40 passages, 40 golden questions, 5 tracers (export-pdf is a passage and a tracer), 5 unanswerable
    assert len(ids) == 40 + 40 + 5 - 1 + 5
    assert {"err-4021", "refund-new", "upload-4021", "g30", "api-rate-limit"} <= ids


def test_no_file_under_builder_names_a_corpus_passage_or_question():
    ids = corpus_ids()
    # An id as a whole word: not part of a longer id or name ("g30" in "g300", "sso-1" in "sso-12").
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")(?![\w-])")
    found = []
    for path in sorted((ROOT / "builder").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".js", ".json", ".html", ".md", ".yaml"):
            for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
                found += [f"{path.relative_to(ROOT)}:{number}: {m.group(1)}" for m in pattern.finditer(line)]
    assert not found, "builder/ names the corpus's ids (move them into corpus/page.yaml):\n" + "\n".join(found)
