"""How much to trust the recall table: the questions each retriever misses, a 95% interval
for every recall figure, paired sign tests between retrievers and the bar they must clear
when several are run at once, which questions' right passages reach the prompt, and how much
fusion's two settings move recall, all from the ranks of the right passages (data.ranks) and
the runs. The prose of sections 6 and 11 and the recall lab read it as data.evaluation.

Example: wilson(29, 30) -> (0.833…, 0.994…): a 95% interval for a recall of 29/30.
"""

import math

from engine.evaluate import rank_of, recall_at_k
from engine.fusion import rrf
from engine.settings import FUSION_DEPTH, PROMPT_PASSAGES, RRF_K
from engine.tokenize import tokenize

Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval
ALPHA = 0.05     # the usual significance level: a split "more than one time in twenty" is not evidence
PAIRS = (("hybrid", "dense"), ("hybrid", "bm25"), ("dense", "bm25"))
SWEEP_KS = (1, 10, 30, 60, 100, 200)   # RRF constants tried, around the paper's 60
SWEEP_DEPTHS = (4, 8, 12, 20, 40)      # how deep each retriever's list goes into the fusion


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


def bonferroni(alpha: float, tests: int) -> float:
    """The bar each of `tests` comparisons must clear so that the chance of even one false
    alarm among them stays at most `alpha` (Bonferroni's correction: divide by the count).

    Example: bonferroni(0.05, 9) -> 0.00555… (= 0.05 / 9)
    """
    return alpha / tests


def significance(pairs: dict, alpha: float = ALPHA) -> dict:
    """Every paired comparison at once: how many there are, the Bonferroni bar for that many,
    and which clear the usual bar and which the corrected one, as [pair, k]."""
    tests = [(pair, k, result["p"]) for pair, by_k in pairs.items() for k, result in by_k.items()]
    bar = bonferroni(alpha, len(tests)) if tests else alpha
    return {"alpha": alpha, "tests": len(tests), "bonferroni": bar,
            "below_alpha": [[pair, k] for pair, k, p in tests if p < alpha],
            "below_bonferroni": [[pair, k] for pair, k, p in tests if p < bar]}


def prompt_reach(ranks: dict, retriever: str, depth: int) -> dict:
    """Golden questions whose right passage is among the `depth` passages a prompt carries
    ("sent") and those whose right passage is not: an "I can't find it" means something
    different in each group.

    Example: prompt_reach({"q1": {"hybrid": 2}, "q2": {"hybrid": None}}, "hybrid", 5)
             -> {"sent": ["q1"], "not_sent": ["q2"]}
    """
    sent = [q for q, by in ranks.items() if by[retriever] is not None and by[retriever] <= depth]
    return {"sent": sent, "not_sent": [q for q in ranks if q not in sent]}


def fusion_sweep(runs: dict, answers: dict, ks=SWEEP_KS, depths=SWEEP_DEPTHS, cutoffs=(1, 3, 5)) -> dict:
    """Recall of RRF over the dense and BM25 runs for every constant k and depth tried:
    depth -> k -> cut-off -> hits, all as strings. `answers` maps question id -> right passage.

    Example: fusion_sweep({"q": {"dense": [["a", .9], ["b", .8]], "bm25": [["b", 2.0]]}}, {"q": "b"},
                          ks=(60,), depths=(1, 2), cutoffs=(1,)) -> {"1": {"60": {"1": 0}}, "2": {"60": {"1": 1}}}
    (depth 1 fuses a and b, tied, a read first; depth 2 gives b both votes)
    """
    def fused_ranks(k, depth):
        return [rank_of([pid for pid, _ in rrf([[pid for pid, _ in runs[q][name][:depth]] for name in ("dense", "bm25")],
                                               k)], answer)
                for q, answer in answers.items()]

    return {str(depth): {str(k): {str(c): recall_at_k(ranks, c)[0] for c in cutoffs}
                         for k, ranks in ((k, fused_ranks(k, depth)) for k in ks)}
            for depth in depths}


def sweep_summary(recall: dict, ks, depths, cutoffs, default_k: int = RRF_K) -> dict:
    """The sweep with what section 6 says of it: at each depth, the k that give the same recall
    as the default k at every cut-off ("agree"), and by how many questions recall varies over
    the whole sweep at each cut-off ("spread")."""
    cells = [by_cut for by_k in recall.values() for by_cut in by_k.values()]
    return {"ks": list(ks), "depths": list(depths), "cutoffs": list(cutoffs), "default_k": default_k,
            "recall": recall,
            "agree": {d: [k for k in ks if by_k[str(k)] == by_k[str(default_k)]] for d, by_k in recall.items()},
            "spread": {str(c): max(cell[str(c)] for cell in cells) - min(cell[str(c)] for cell in cells)
                       for c in cutoffs}}


def misses(ranks: dict, retriever: str, k: int) -> list[str]:
    """Golden question ids whose right passage is not in `retriever`'s top k, in set order."""
    return [qid for qid, by in ranks.items() if by[retriever] is None or by[retriever] > k]


def evaluation(corpus, data: dict) -> dict:
    ranks, ks = data["ranks"], data["settings"]["recall_ks"]
    paraphrase = {q["id"]: q["paraphrase"] for q in data["questions"]}
    missed = {name: {str(k): misses(ranks, name, k) for k in ks} for name in data["recall"]}
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    pairs = {f"{a}-{b}": {str(k): paired(ranks, a, b, k) for k in ks} for a, b in PAIRS}
    ks_tried, depths_tried = sorted({*SWEEP_KS, RRF_K}), sorted({*SWEEP_DEPTHS, FUSION_DEPTH})
    return {
        "misses": missed,
        "paired": pairs,
        "significance": significance(pairs),
        "prompt_reach": {**prompt_reach(ranks, "hybrid", PROMPT_PASSAGES), "retriever": "hybrid",
                         "depth": PROMPT_PASSAGES, "unanswerable": [q["id"] for q in golden if not q["answer"]]},
        "fusion_sweep": sweep_summary(fusion_sweep(data["runs"], {q["id"]: q["answer"] for q in golden if q["answer"]},
                                                   ks_tried, depths_tried, ks), ks_tried, depths_tried, ks),
        "shared_terms": {q["id"]: sorted(set(tokenize(q["text"])) & set(tokenize(corpus.by_id[q["answer"]].text)))
                         for q in golden},
        "paraphrase_misses": {name: {k: sum(paraphrase[q] for q in ids) for k, ids in by_k.items()}
                              for name, by_k in missed.items()},
        "wilson": {name: {k: list(wilson(*hits)) for k, hits in by_k.items()} for name, by_k in data["recall"].items()},
    }
