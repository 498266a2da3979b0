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

from builder.templates import SITE_SRC

# Golden questions added to the permission demo (beyond the tracers of data.permissions)
# because a staff-only runbook ranks near the top of their dense list.
PERMISSION_EXTRA = ("g11", "g04")
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


def misses(ranks: dict, retriever: str, k: int) -> list[str]:
    """Golden question ids whose right passage is not in `retriever`'s top k, in set order."""
    return [qid for qid, by in ranks.items() if by[retriever] is None or by[retriever] > k]


def permission_extra(corpus, data: dict, ks: list[int]) -> dict:
    """role -> question id -> str(k) -> {pre, post}: the same shape as data.permissions, for
    the extra questions, over the dense list as the core demo uses."""
    acl = {p.id: list(p.acl) for p in corpus.passages}
    return {reader.role: {qid: {str(k): {"pre": pre_filter(ranked, acl, list(reader.groups), k),
                                         "post": post_filter(ranked, acl, list(reader.groups), k)}
                                for k in ks}
                          for qid, ranked in ((q, [pid for pid, _ in data["runs"][q]["dense"]])
                                              for q in PERMISSION_EXTRA)}
            for reader in corpus.readers}


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
    ks = [int(k) for k in next(iter(next(iter(data["permissions"].values()))["runs"].values()))]
    retrievers = list(data["recall"])
    paraphrase = {q["id"]: q["paraphrase"] for q in data["questions"]}
    missed = {name: {str(k): misses(ranks, name, k) for k in data["settings"]["recall_ks"]} for name in retrievers}
    return {"measure": {
        "misses": missed,
        "paraphrase_misses": {name: {k: sum(paraphrase[q] for q in ids) for k, ids in by_k.items()}
                              for name, by_k in missed.items()},
        "wilson": {name: {k: list(wilson(*hits)) for k, hits in by_k.items()}
                   for name, by_k in data["recall"].items()},
        "permission_questions": [t["id"] for t in data["tracers"]] + list(PERMISSION_EXTRA),
        "permission_ks": ks,
        "permissions_extra": permission_extra(corpus, data, ks),
        "hidden_from": {r.role: [p.id for p in corpus.passages if not can_read(list(p.acl), list(r.groups))]
                        for r in corpus.readers},
        "sections": section_index(),
    }}
