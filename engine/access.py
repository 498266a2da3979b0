"""Permissions: who may read a passage, applied before or after ranking.

A pre-filter drops unreadable passages before the top k is cut, so the reader still gets
k results. A post-filter cuts the top k first and then drops what the reader may not see,
so the reader silently gets fewer, which is how most vector stores behave when a filter
is bolted on after an approximate search.

as_reader applies the pre-filter to a whole run: each retriever's list keeps only what the
reader may read, and the fused list is made again from those, as a search that filters inside
itself would return it.

Twin: site_src/engine/access.js (canRead, preFilter, postFilter, asReader), proven equal by tests/twins/.

Example: post_filter(["a", "s", "b"], {"a": ["public"], "s": ["staff"], "b": ["public"]},
                     ["public"], k=2) -> ["a"]
"""

from engine.ranking import hybrid_ranking
from engine.settings import FUSION_DEPTH, RRF_K


def can_read(passage_groups: list[str], reader_groups: list[str]) -> bool:
    return not set(passage_groups).isdisjoint(reader_groups)


def pre_filter(ranked_ids: list[str], acl: dict[str, list[str]], reader_groups: list[str],
               k: int) -> list[str]:
    """Filter inside the search: the top k of what the reader may read."""
    return [pid for pid in ranked_ids if can_read(acl[pid], reader_groups)][:k]


def post_filter(ranked_ids: list[str], acl: dict[str, list[str]], reader_groups: list[str],
                k: int) -> list[str]:
    """Filter after the search: the top k of everything, minus what the reader may not read."""
    return [pid for pid in ranked_ids[:k] if can_read(acl[pid], reader_groups)]


def as_reader(run: dict, acl: dict[str, list[str]], reader_groups: list[str], depth: int = FUSION_DEPTH,
              k: int = RRF_K) -> dict:
    """A question's run ({dense, bm25, hybrid} lists of [id, score]) as one reader gets it: each
    retriever's list without the passages the reader may not read, then fused again.

    Example: as_reader({"dense": [["s", .9], ["a", .8]], "bm25": [["a", 2.0]], "hybrid": []},
                       {"s": ["staff"], "a": ["public"]}, ["public"])["dense"] -> [['a', 0.8]]
    """
    dense = [list(pair) for pair in run["dense"] if can_read(acl[pair[0]], reader_groups)]
    bm25 = [list(pair) for pair in run["bm25"] if can_read(acl[pair[0]], reader_groups)]
    return {"dense": dense, "bm25": bm25, "hybrid": [list(pair) for pair in hybrid_ranking(dense, bm25, depth, k)]}
