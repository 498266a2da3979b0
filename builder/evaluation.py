"""How much to trust the recall table: the questions each retriever misses, a 95% interval
for every recall figure, and paired sign tests between retrievers, all from the ranks of the
right passages (data.ranks). The prose of section 11 and the recall lab read it as
data.evaluation.

Example: wilson(29, 30) -> (0.833…, 0.994…): a 95% interval for a recall of 29/30.
"""

import math

from engine.tokenize import tokenize

Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval
PAIRS = (("hybrid", "dense"), ("hybrid", "bm25"), ("dense", "bm25"))


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


def evaluation(corpus, data: dict) -> dict:
    ranks, ks = data["ranks"], data["settings"]["recall_ks"]
    paraphrase = {q["id"]: q["paraphrase"] for q in data["questions"]}
    missed = {name: {str(k): misses(ranks, name, k) for k in ks} for name in data["recall"]}
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    return {
        "misses": missed,
        "paired": {f"{a}-{b}": {str(k): paired(ranks, a, b, k) for k in ks} for a, b in PAIRS},
        "shared_terms": {q["id"]: sorted(set(tokenize(q["text"])) & set(tokenize(corpus.by_id[q["answer"]].text)))
                         for q in golden},
        "paraphrase_misses": {name: {k: sum(paraphrase[q] for q in ids) for k, ids in by_k.items()}
                              for name, by_k in missed.items()},
        "wilson": {name: {k: list(wilson(*hits)) for k, hits in by_k.items()} for name, by_k in data["recall"].items()},
    }
