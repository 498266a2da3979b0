"""Checks that span files: ids unique across the corpus, every reference pointing at a
passage that exists, quotes present in their sources, texts inside the model's window.

Example: missing_passage(load_corpus("corpus"), log, Path("corpus/golden.yaml"), 14, "g05", "answer", "refund-nwe") -> True
(and the log now holds "corpus/golden.yaml:14: g05: answer: no passage 'refund-nwe' (fix: point it at an
existing passage id; similar ids: refund-new, refund-old, …)")
"""

from collections import Counter
from pathlib import Path

from engine.citations import answer_sentences, quote_in
from engine.settings import MAX_WORDPIECES
from engine.tokens import count_wordpieces


def cross_check(corpus, root: Path, out) -> None:
    check_unique_ids(corpus, root, out)
    check_references(corpus, root, out)
    check_window(corpus, out)
    check_unique(out, root / "golden.yaml", [(g.question.lower(), g.line, g.id) for g in corpus.golden],
                 "question", "each golden question once; reword or delete the copy")
    check_unique(out, root / "tracers.yaml", [(t.id, t.line, t.id) for t in corpus.tracers],
                 "id", "give each tracer its own id")


def check_unique_ids(corpus, root: Path, out) -> None:
    first_seen = {}
    for passage in corpus.passages:
        if passage.id in first_seen:
            earlier = first_seen[passage.id]
            out.add(Path(passage.file), passage.line, passage.id, "id",
                    f"is used twice (first at {out.name(Path(earlier.file))}:{earlier.line})",
                    "give one of them a new id; ids are unique across all documents")
        else:
            first_seen[passage.id] = passage


def missing_passage(corpus, out, path, line, item, field, passage_id) -> bool:
    """True (and a problem, unless the passage exists with a problem of its own) when no
    passage has this id; the fix names similar ids."""
    ids = corpus.by_id
    if passage_id in ids:
        return False
    if passage_id in out.broken_ids:
        return True  # it exists; its own problem is reported where it is written
    close = [pid for pid in ids if pid.split("-")[0] == passage_id.split("-")[0]][:3]
    hint = f"; similar ids: {', '.join(close)}" if close else ""
    out.add(path, line, item, field, f"no passage '{passage_id}'", f"point it at an existing passage id{hint}")
    return True


def check_references(corpus, root: Path, out) -> None:
    ids = corpus.by_id

    def missing(path, line, item, field, passage_id) -> bool:
        return missing_passage(corpus, out, path, line, item, field, passage_id)

    readers = {reader.role: reader.groups for reader in corpus.readers}
    for golden in corpus.golden:
        for pid in golden.answers:
            if not missing(root / "golden.yaml", golden.line, golden.id, "answers", pid) and golden.reader in readers \
                    and not set(ids[pid].acl) & set(readers[golden.reader]):
                out.add(root / "golden.yaml", golden.line, golden.id, "answers",
                        f"'{pid}' is not readable by its reader '{golden.reader}'",
                        "name a passage the reader may read, or set 'reader:' to one who may (readers.yaml)")
        for partial in golden.partial:
            missing(root / "golden.yaml", golden.line, golden.id, "partial", partial.id)
    for tracer in corpus.tracers:
        path = root / "tracers.yaml"
        missing(path, tracer.line, tracer.id, "answer", tracer.answer_id)
        for pid in tracer.rerank:
            missing(path, tracer.line, tracer.id, f"rerank.{pid}", pid)
        for number, claim in enumerate(tracer.claims, start=1):
            where = f"{tracer.id} claim {number}"
            check_placed(out, path, claim, where, tracer.answer_text)
            if missing(path, claim.line, where, "source", claim.source_id):
                continue
            if not quote_in(claim.quote, ids[claim.source_id].text):
                out.add(path, claim.line, where, "quote", f"'{claim.quote[:60]}' is not in passage '{claim.source_id}'",
                        "copy the quote exactly from the passage (case, spacing and typographic quotes may differ; mark a cut with ...)")


def check_placed(out, path: Path, claim, where: str, answer_text: str) -> None:
    """A tracer claim must stand for words of exactly one sentence of its answer: its `in_answer`,
    or its own text when it has none (engine/citations.py answer_sentences)."""
    holding = [n for n, s in enumerate(answer_sentences(answer_text, [claim.located_by]), start=1) if s.backed]
    field = "in_answer" if claim.in_answer else "text"
    if not holding:
        out.add(path, claim.line, where, field, f"'{claim.located_by[:60]}' is not in one sentence of the answer",
                "write in_answer: with the words of answer_text this claim stands for, all in one sentence")
    elif len(holding) > 1:
        out.add(path, claim.line, where, field,
                f"'{claim.located_by[:60]}' is in sentences {', '.join(map(str, holding))} of the answer",
                "write in_answer: with more of the words, enough to name one sentence")


def check_window(corpus, out) -> None:
    for passage in corpus.passages:
        pieces = count_wordpieces(passage.text)
        if pieces > MAX_WORDPIECES:
            out.add(Path(passage.file), passage.line, passage.id, "text",
                    f"is {pieces} wordpieces; the model reads only the first {MAX_WORDPIECES} and ignores the rest",
                    "shorten it or split it into two passages")


def check_unique(out, path: Path, keyed: list[tuple[str, int | None, str]], field: str, fix: str) -> None:
    counts = Counter(key for key, _, _ in keyed)
    reported = set()
    for key, line, item in keyed:
        if counts[key] > 1 and key not in reported:
            reported.add(key)
            out.add(path, line, item, field, f"'{key[:60]}' appears {counts[key]} times", fix)
