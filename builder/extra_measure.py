"""Data for sections 10-13 (failures, measuring, staff level, check yourself) beyond the core:
the permission demo's extra questions, the misses behind every recall figure, how uncertain
a recall measured on a few questions is, and where each section of the page lives.

Everything here is computed from the corpus and the core data by engine/ functions; the
page's prose, templates and JavaScript read it as data.measure.

Example: wilson(29, 30) -> (0.8333, 0.9941): a 95% interval for a recall of 29/30.
"""

import math
import re

from engine.access import can_read, post_filter, pre_filter
from engine.guardrail import check_output
from engine.tokenize import tokenize

from builder.templates import SITE_SRC

EXTRA_QUESTIONS = 2  # golden questions added to the permission demo, beyond the tracers
Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson(hits: int, total: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: where the true recall plausibly lies
    when `hits` of `total` questions were found (Wilson, 1927)."""
    if total == 0:
        return 0.0, 1.0
    p = hits / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: how likely a split at least this lopsided is when two
    retrievers are equally good and only the questions where they disagree count.

    Example: sign_test(6, 1) -> 0.125 (= 2 * (1 + 7) / 2**7)
    """
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2 ** n
    return round(min(1.0, 2 * tail), 6)


def paired(ranks: dict, a: str, b: str, k: int) -> dict:
    """The questions only `a` finds in its top k, those only `b` finds, and the sign test."""
    def hit(rank):
        return rank is not None and rank <= k
    a_only = [q for q, by in ranks.items() if hit(by[a]) and not hit(by[b])]
    b_only = [q for q, by in ranks.items() if hit(by[b]) and not hit(by[a])]
    return {"a_only": a_only, "b_only": b_only, "p": sign_test(len(a_only), len(b_only))}


def misses(ranks: dict, retriever: str, k: int) -> list[str]:
    """Golden question ids whose right passage is not in `retriever`'s top k, in set order."""
    return [qid for qid, by in ranks.items() if by[retriever] is None or by[retriever] > k]


def restricted_questions(corpus, data: dict, depth: int, n: int = EXTRA_QUESTIONS) -> list[str]:
    """Golden questions whose dense list ranks a passage that some reader may not read within
    the top `depth`: the questions where a post-filter shows its cost. The best-ranked first,
    one per restricted passage, at most `n`.

    Example: a question whose dense list starts with a staff-only runbook comes first.
    """
    hidden = {p.id for p in corpus.passages for r in corpus.readers if not can_read(list(p.acl), list(r.groups))}
    found = []
    for q in (q for q in data["questions"] if q["set"] == "golden"):
        ranked = [pid for pid, _ in data["runs"][q["id"]]["dense"][:depth]]
        first = next(((i, pid) for i, pid in enumerate(ranked) if pid in hidden), None)
        if first:
            found.append((first[0], first[1], q["id"]))
    chosen, seen = [], set()
    for _, pid, qid in sorted(found, key=lambda item: item[0]):
        if pid not in seen and len(chosen) < n:
            chosen.append(qid)
            seen.add(pid)
    return chosen


def permission_extra(corpus, data: dict, questions: list[str], ks: list[int]) -> dict:
    """role -> question id -> str(k) -> {pre, post}: the same shape as data.permissions, for
    the extra questions, over the dense list as the core demo uses."""
    acl = {p.id: list(p.acl) for p in corpus.passages}
    return {reader.role: {qid: {str(k): {"pre": pre_filter(ranked, acl, list(reader.groups), k),
                                         "post": post_filter(ranked, acl, list(reader.groups), k)}
                                for k in ks}
                          for qid, ranked in ((q, [pid for pid, _ in data["runs"][q]["dense"]])
                                              for q in questions)}
            for reader in corpus.readers}


def marked(text: str, findings) -> list[list]:
    """`text` cut into [piece, kind or None] where each finding's match is its own piece,
    for highlighting. lab-injection.js cuts live text the same way.

    Example: marked("mail a@b.example now", [Finding("email", "a@b.example")])
             -> [["mail ", None], ["a@b.example", "email"], [" now", None]]
    """
    spans: list[tuple[int, int, str]] = []
    for finding in findings:
        start = text.find(finding.match)
        while start >= 0:
            end = start + len(finding.match)
            if all(end <= s or start >= e for s, e, _ in spans):
                spans.append((start, end, finding.kind))
                break
            start = text.find(finding.match, start + 1)
    pieces, at = [], 0
    for start, end, kind in sorted(spans):
        if start > at:
            pieces.append([text[at:start], None])
        pieces.append([text[start:end], kind])
        at = end
    if at < len(text):
        pieces.append([text[at:], None])
    return pieces


def injected_passages(corpus) -> list[dict]:
    """Passages the output guardrail would flag if they were an answer: where an instruction
    hides. Each with its sentences marked: True for a sentence holding a finding."""
    flagged = []
    for p in corpus.passages:
        findings = check_output(p.text)
        if not findings:
            continue
        sentences = re.split(r"(?<=[.!?])\s+", p.text)
        flagged.append({"id": p.id, "findings": [str(f) for f in findings],
                        "sentences": [[s, any(f.match in s for f in findings)] for s in sentences]})
    return flagged


def section_index(sections_dir=SITE_SRC / "sections") -> list[dict]:
    """[{slug, number, title}] of the page's sections, from their file names and first lines."""
    index = []
    for path in sorted(sections_dir.glob("*.md")):
        match = re.fullmatch(r"(\d+)-([a-z0-9-]+)\.md", path.name)
        if not match:
            continue
        first = path.read_text("utf-8").partition("\n")[0]
        index.append({"slug": match.group(2), "number": int(match.group(1)),
                      "title": first[2:].strip() if first.startswith("# ") else match.group(2)})
    return index


def extra(corpus, data: dict) -> dict:
    ranks = data["ranks"]
    ks = sorted({int(k) for reader in data["permissions"].values() for by_k in reader["runs"].values()
                 for k in by_k}) or [3, 5, 8]
    extra_questions = restricted_questions(corpus, data, max(ks))
    retrievers = list(data["recall"])
    paraphrase = {q["id"]: q["paraphrase"] for q in data["questions"]}
    missed = {name: {str(k): misses(ranks, name, k) for k in data["settings"]["recall_ks"]} for name in retrievers}
    by_id = {p.id: p for p in corpus.passages}
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    pairs = (("hybrid", "dense"), ("hybrid", "bm25"), ("dense", "bm25"))
    return {"measure": {
        "misses": missed,
        "paired": {f"{a}-{b}": {str(k): paired(ranks, a, b, k) for k in data["settings"]["recall_ks"]}
                   for a, b in pairs},
        "shared_terms": {q["id"]: sorted(set(tokenize(q["text"])) & set(tokenize(by_id[q["answer"]].text)))
                         for q in golden},
        "paraphrase_misses": {name: {k: sum(paraphrase[q] for q in ids) for k, ids in by_k.items()}
                              for name, by_k in missed.items()},
        "wilson": {name: {k: list(wilson(*hits)) for k, hits in by_k.items()}
                   for name, by_k in data["recall"].items()},
        "permission_questions": [t["id"] for t in data["tracers"]] + extra_questions,
        "permission_ks": ks,
        "permissions_extra": permission_extra(corpus, data, extra_questions, ks),
        "hidden_from": {r.role: [p.id for p in corpus.passages if not can_read(list(p.acl), list(r.groups))]
                        for r in corpus.readers},
        "sections": section_index(),
        "injected": injected_passages(corpus),
        "injection_marked": {name: marked(answer["text"], check_output(answer["text"]))
                             for name, answer in data["injection"]["answers"].items()},
    }}
