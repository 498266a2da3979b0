"""Permissions: who may read a passage, applied before or after ranking.

A pre-filter drops unreadable passages before the top k is cut, so the reader still gets
k results. A post-filter cuts the top k first and then drops what the reader may not see,
so the reader silently gets fewer, which is how most vector stores behave when a filter
is bolted on after an approximate search.

Twin: site_src/engine/access.js (canRead, preFilter, postFilter), proven equal by tests/twins/.

Example: post_filter(["a", "s", "b"], {"a": ["public"], "s": ["staff"], "b": ["public"]},
                     ["public"], k=2) -> ["a"]
"""


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
