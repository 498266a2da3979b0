"""How much to trust the recall table: the questions each retriever misses, a 95% interval
for every recall figure, paired sign tests between retrievers and the bars they must clear
when several are run at once (Bonferroni's and Holm's), which questions' right passages reach
the prompt, how much fusion's two settings move recall, what a convex combination of scores
finds beside reciprocal rank fusion, and how recall and the hit rate part on a question that
needs two passages, all from the places of the right passages (data.ranks: [first, last], ties
spanning first..last) and each golden question's run as its reader gets it (data.golden_runs).
A question counts as found at k only when its place ends within k (a tie that straddles k is no
sure hit; data.recall's with_ties says how many it could be). Also every tie among the golden
questions' top 5, and how far the first passage leads the second where a retriever puts a right
passage first. The prose of sections 'hybrid' and 'measuring' and the recall lab read it as data.evaluation. The
interval and the sign test themselves are engine/significance.py's.

Example: paired({"q1": {"a": [1, 1], "b": [4, 4]}, "q2": {"a": [2, 2], "b": [1, 1]}}, "a", "b", 3)
         -> {"a_only": ["q1"], "b_only": [], "p": 1.0}: one question of difference is no evidence.
"""

import re

from engine.convex_fusion import convex_fusion
from engine.evaluate import hit_place, hits_at_k, passages_found, rank_of
from engine.ranking import hybrid_ranking, places, round_score
from engine.settings import FUSION_DEPTH, PROMPT_PASSAGES, RRF_K, SIGNIFICANCE
from engine.significance import sign_test, wilson
from engine.tokenize import tokenize

ALPHA = SIGNIFICANCE  # the significance level (engine/settings.py)
PAIRS = (("hybrid", "dense"), ("hybrid", "bm25"), ("dense", "bm25"))
SWEEP_KS = (1, 10, 30, 60, 100, 200)   # RRF constants tried, around the paper's 60
SWEEP_DEPTHS = (4, 8, 12, 20, 40)      # how deep each retriever's list goes into the fusion
CONVEX_ALPHAS = tuple(round(0.1 * i, 1) for i in range(1, 10))  # weights on dense tried, 0.1 to 0.9


def sure_hit(place, k: int) -> bool:
    """Is a right passage at this place ([first, last], or None) surely in the top k?"""
    return place is not None and place[1] <= k


def paired(ranks: dict, a: str, b: str, k: int) -> dict:
    """The questions only `a` surely finds in its top k, those only `b` does, and the sign test."""
    def hit(place):
        return sure_hit(place, k)
    a_only = [q for q, by in ranks.items() if hit(by[a]) and not hit(by[b])]
    b_only = [q for q, by in ranks.items() if hit(by[b]) and not hit(by[a])]
    return {"a_only": a_only, "b_only": b_only, "p": sign_test(len(a_only), len(b_only))}


def bonferroni(alpha: float, tests: int) -> float:
    """The bar each of `tests` comparisons must clear so that the chance of even one false
    alarm among them stays at most `alpha` (Bonferroni's correction: divide by the count).

    Example: bonferroni(0.05, 9) -> 0.00555… (= 0.05 / 9)
    """
    return alpha / tests


def holm(p_values: list[float], alpha: float) -> list[int]:
    """Holm's step-down correction (Holm, 1979): the positions of the p-values that clear it.
    Sorted smallest first, the i-th of m (from 1) must be below alpha / (m - i + 1); the first
    that is not stops the walk. It clears everything Bonferroni's bar clears, and sometimes more.

    Example: holm([0.3, 0.004, 0.02, 0.012], 0.05) -> [1, 3, 2]
    (0.004 < 0.05/4, 0.012 < 0.05/3, 0.02 < 0.05/2; 0.3 is not below 0.05)
    """
    cleared = []
    for step, position in enumerate(sorted(range(len(p_values)), key=lambda i: p_values[i])):
        if p_values[position] >= alpha / (len(p_values) - step):
            break
        cleared.append(position)
    return cleared


def significance(pairs: dict, alpha: float = ALPHA) -> dict:
    """Every paired comparison at once: how many there are, the Bonferroni bar for that many,
    and which clear the usual bar, the Bonferroni bar and Holm's, as [pair, k]."""
    tests = [(pair, k, result["p"]) for pair, by_k in pairs.items() for k, result in by_k.items()]
    bar = bonferroni(alpha, len(tests)) if tests else alpha
    return {"alpha": alpha, "tests": len(tests), "bonferroni": bar,
            "below_alpha": [[pair, k] for pair, k, p in tests if p < alpha],
            "below_bonferroni": [[pair, k] for pair, k, p in tests if p < bar],
            "below_holm": [[tests[i][0], tests[i][1]] for i in sorted(holm([p for _, _, p in tests], alpha))]}


def prompt_reach(ranks: dict, retriever: str, depth: int) -> dict:
    """Golden questions whose right passage is among the `depth` passages a prompt carries
    ("sent") and those whose right passage is not: an "I can't find it" means something
    different in each group.

    Example: prompt_reach({"q1": {"hybrid": [2, 2]}, "q2": {"hybrid": None}}, "hybrid", 5)
             -> {"sent": ["q1"], "not_sent": ["q2"]}
    """
    sent = [q for q, by in ranks.items() if sure_hit(by[retriever], depth)]
    return {"sent": sent, "not_sent": [q for q in ranks if q not in sent]}


def fusion_sweep(runs: dict, answers: dict, ks=SWEEP_KS, depths=SWEEP_DEPTHS, cutoffs=(1, 3, 5)) -> dict:
    """Recall of RRF over the dense and BM25 runs for every constant k and depth tried:
    depth -> k -> cut-off -> sure hits, all as strings. `answers` maps question id -> its right passages.

    Example: fusion_sweep({"q": {"dense": [["a", .9], ["b", .8]], "bm25": [["b", 2.0]]}}, {"q": ["b"]},
                          ks=(60,), depths=(1, 2), cutoffs=(1,)) -> {"1": {"60": {"1": 0}}, "2": {"60": {"1": 1}}}
    (depth 1 fuses a and b, tied: no sure hit; depth 2 gives b both votes)
    """
    def fused_places(k, depth):
        return [hit_place(hybrid_ranking(runs[q]["dense"], runs[q]["bm25"], depth, k), right)
                for q, right in answers.items()]

    return {str(depth): {str(k): {str(c): hits_at_k(found, c)[0] for c in cutoffs}
                         for k, found in ((k, fused_places(k, depth)) for k in ks)}
            for depth in depths}


def sweep_summary(recall: dict, ks, depths, cutoffs, default_k: int = RRF_K) -> dict:
    """The sweep with what section 'hybrid' says of it: at each depth, the k that give the same recall
    as the default k at every cut-off ("agree"), and by how many questions recall varies over
    the whole sweep at each cut-off ("spread")."""
    cells = [by_cut for by_k in recall.values() for by_cut in by_k.values()]
    return {"ks": list(ks), "depths": list(depths), "cutoffs": list(cutoffs), "default_k": default_k,
            "recall": recall,
            "agree": {d: [k for k in ks if by_k[str(k)] == by_k[str(default_k)]] for d, by_k in recall.items()},
            "spread": {str(c): max(cell[str(c)] for cell in cells) - min(cell[str(c)] for cell in cells)
                       for c in cutoffs}}


def convex_sweep(runs: dict, answers: dict, alphas=CONVEX_ALPHAS, depth: int = FUSION_DEPTH,
                 cutoffs=(1, 3, 5)) -> dict:
    """Recall of a convex combination of min-max scaled scores (engine/convex_fusion.py) over
    the dense and BM25 runs, at the same depth as the page's RRF, for each weight on dense:
    alpha -> cut-off -> sure hits, keys as strings ("0.5", "3").

    Example: convex_sweep({"q": {"dense": [["a", .9], ["b", .8]], "bm25": [["b", 4.0], ["c", 1.0]]}},
                          {"q": ["b"]}, alphas=(0.2, 0.8), cutoffs=(1,)) -> {"0.2": {"1": 1}, "0.8": {"1": 0}}
    (b scores 0.2 * 0 + 0.8 * 1 = 0.8 against a's 0.2 at 0.2, and 0.2 against a's 0.8 at 0.8)
    """
    def fused_places(alpha):
        return [hit_place([(pid, round_score(score)) for pid, score in convex_fusion(runs[q]["dense"], runs[q]["bm25"],
                                                                                    alpha, depth)], right)
                for q, right in answers.items()]

    return {f"{alpha:.1f}": {str(c): hits_at_k(found, c)[0] for c in cutoffs}
            for alpha, found in ((alpha, fused_places(alpha)) for alpha in alphas)}


def convex_summary(recall: dict, rrf_recall: dict, depth: int) -> dict:
    """The sweep beside the page's RRF at each cut-off (rrf_recall: cut-off -> hits), with the
    weights that find at least as many right passages as RRF at every cut-off ("match_rrf")
    and those that find more at one of them ("beat_rrf")."""
    cutoffs = list(rrf_recall)
    at_least = [a for a, by_cut in recall.items() if all(by_cut[c] >= rrf_recall[c] for c in cutoffs)]
    return {"alphas": list(recall), "depth": depth, "recall": recall, "rrf": rrf_recall, "match_rrf": at_least,
            "beat_rrf": [a for a in at_least if any(recall[a][c] > rrf_recall[c] for c in cutoffs)]}


def two_passage_recall(run: list, right_ids: list[str], cutoffs=(1, 3, 5)) -> dict:
    """For one question that needs several passages: at each cut-off, how many of them the run's
    top k holds and whether that counts as a hit (at least one found).

    Example: two_passage_recall([["a", 3.0], ["x", 2.0], ["b", 1.0]], ["a", "b"], cutoffs=(1, 3))
             -> {"1": {"found": 1, "of": 2, "hit": True}, "3": {"found": 2, "of": 2, "hit": True}}
    """
    ranked = [pid for pid, _ in run]
    return {str(c): {"found": found, "of": total, "hit": found > 0}
            for c, (found, total) in ((c, passages_found(ranked, right_ids, c)) for c in cutoffs)}


def cited_ids(answer_text: str, passage_ids) -> list[str]:
    """The passage ids an answer cites as [id], in order of first citation; bracketed words that
    are not passage ids are left out.

    Example: cited_ids("Limits apply [limits-1]. Retry [limits-1] [err-9] [sic].",
                       {"limits-1", "err-9"}) -> ["limits-1", "err-9"]
    """
    return list(dict.fromkeys(pid for pid in re.findall(r"\[([^\[\]\s]+)\]", answer_text) if pid in passage_ids))


def misses(ranks: dict, retriever: str, k: int) -> list[str]:
    """Golden question ids whose right passages are not surely in `retriever`'s top k, in set order."""
    return [qid for qid, by in ranks.items() if not sure_hit(by[retriever], k)]


TIE_DEPTH = 5  # ties listed among each golden question's top this many


def ties(runs: dict, golden: list[dict], depth: int = TIE_DEPTH) -> list[dict]:
    """Every tie among the golden questions' top `depth`, in each retriever's list as its reader
    gets it: the question, the retriever, the place shared, the passages sharing it, their score,
    and whether a right passage is among them."""
    found = []
    for q in golden:
        for name in ("dense", "bm25", "hybrid"):
            ranking = runs[q["id"]][name]
            seen = set()
            for (pid, score), (first, last) in zip(ranking[:depth], places(ranking)[:depth]):
                if last > first and first not in seen:
                    seen.add(first)
                    tied = [p for p, _ in ranking[first - 1:last]]
                    found.append({"q": q["id"], "retriever": name, "place": [first, last], "ids": tied, "score": score,
                                  "holds_answer": any(p in q["answers"] for p in tied)})
    return found


def leads(runs: dict, golden: list[dict]) -> dict:
    """By how much each retriever's first passage leads its second, for every golden question
    (question id -> retriever -> {first, second, gap, right}; right: the first is a right
    passage): the margin a lesson built on a rank rests on. Kept where the first is wrong too, so
    that a sentence about a right passage's lead, after an edit takes the first place from it, is
    a claim that no longer holds (with what took the place), not a missing key.

    Example: leads({"g1": {"dense": [["a", 0.9], ["b", 0.7]]}}, [{"id": "g1", "answers": ["b"]}])
             -> {"g1": {"dense": {"first": "a", "second": "b", "gap": 0.2, "right": False}}}"""
    found = {}
    for q in golden:
        for name in ("dense", "bm25", "hybrid"):
            ranking = runs[q["id"]].get(name, [])
            if len(ranking) > 1:
                found.setdefault(q["id"], {})[name] = {"first": ranking[0][0], "second": ranking[1][0],
                                                       "gap": round_score(ranking[0][1] - ranking[1][1]),
                                                       "right": ranking[0][0] in q["answers"]}
    return found


def evaluation(corpus, data: dict, two_passages: str | None = None) -> dict:
    """Everything above, for the golden set; `two_passages` is page.yaml's traced question whose
    answer needs two passages (none: no such example)."""
    ranks, ks = data["ranks"], data["settings"]["recall_ks"]
    missed = {name: {str(k): misses(ranks, name, k) for k in ks} for name in data["recall"]}
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    group = {q["id"]: q["group"] for q in golden}
    pairs = {f"{a}-{b}": {str(k): paired(ranks, a, b, k) for k in ks} for a, b in PAIRS}
    ks_tried, depths_tried = sorted({*SWEEP_KS, RRF_K}), sorted({*SWEEP_DEPTHS, FUSION_DEPTH})
    answers = {q["id"]: q["answers"] for q in golden if q["answers"]}
    runs = data["golden_runs"]
    # A corpus without that traced question (or whose answer cites one passage) has no such example.
    needs_two = next((t for t in getattr(corpus, "tracers", ()) if t.id == two_passages), None)
    right_two = cited_ids(needs_two.answer_text, corpus.by_id) if needs_two else []
    return {
        "misses": missed,
        "paired": pairs,
        "significance": significance(pairs),
        "prompt_reach": {**prompt_reach(ranks, "hybrid", PROMPT_PASSAGES), "retriever": "hybrid",
                         "depth": PROMPT_PASSAGES, "unanswerable": [q["id"] for q in golden if not q["answers"]]},
        "fusion_sweep": sweep_summary(fusion_sweep(runs, answers, ks_tried, depths_tried, ks),
                                      ks_tried, depths_tried, ks),
        "convex": convex_summary(convex_sweep(runs, answers, cutoffs=ks),
                                 {str(k): data["recall"]["hybrid"][str(k)]["hits"] for k in ks}, FUSION_DEPTH),
        "two_passages": None if len(right_two) < 2 else {
            "q": two_passages, "right": right_two, "retriever": "hybrid",
            "ranks": {pid: rank_of([p for p, _ in data["runs"][two_passages]["hybrid"]], pid) for pid in right_two},
            "by_k": two_passage_recall(data["runs"][two_passages]["hybrid"], right_two, ks)},
        "shared_terms": {q["id"]: sorted(set(tokenize(q["text"])) & {t for pid in q["answers"]
                                                                     for t in tokenize(corpus.by_id[pid].text)})
                         for q in golden},
        "group_misses": {name: {k: {g: sum(group[q] == g for q in ids) for g in dict.fromkeys(group.values())}
                                for k, ids in by_k.items()} for name, by_k in missed.items()},
        "paraphrase_misses": {name: {k: sum(group[q] == "paraphrase" for q in ids) for k, ids in by_k.items()}
                              for name, by_k in missed.items()},
        "wilson": {name: {k: list(wilson(entry["hits"], entry["of"])) for k, entry in by_k.items()}
                   for name, by_k in data["recall"].items()},
        "ties": ties(runs, golden),
        "leads": leads(runs, golden),
    }
