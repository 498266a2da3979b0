"""Section 7's examples of what a prompt is made of: one passage as the tagged source block the
prompt carries, and what its id costs in tokens next to its URL (data.prompt_examples).

Example: prompt_examples(corpus)["id_tokens"]["id"] -> 'refund-new'
"""

from engine.prompt import source_block
from engine.tokens import count_o200k

from builder.core_data import source_of

EXAMPLE = "refund-new"  # the passage whose block is shown and whose id and URL are counted


def prompt_examples(corpus) -> dict:
    example = corpus.by_id[EXAMPLE]
    return {"block": source_block(source_of(example)),
            "id_tokens": {"id": example.id, "url": example.url, "id_tokens": count_o200k(example.id),
                          "url_tokens": count_o200k(example.url)}}
