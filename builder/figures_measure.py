"""Figures of sections 10-12, drawn from the build's data by builder/figures.py.

Example: {{ figure("vocab-mismatch") }} in site_src/sections/10-failures.md.
"""

from markupsafe import Markup

from builder.figures import score_bars

MISMATCH = "g30"  # the golden question that shares (almost) no word with its passage
SHOWN = 4         # BM25's best few, drawn above the right passage


def vocab_mismatch(facts) -> str:
    q = facts.question(MISMATCH)
    answer = q["answer"]
    bm25 = facts.run(MISMATCH, "bm25")
    rank = facts.rank(MISMATCH, "bm25")
    rows = [(f"{i} · {pid}", score, pid == answer) for i, (pid, score) in enumerate(bm25[:SHOWN], start=1)]
    if rank is None or rank > SHOWN:
        rows.append((f"{rank} · {answer}" if rank else f"– · {answer}", facts.score(MISMATCH, "bm25", answer), True))
    return score_bars(
        "fig-vocab-mismatch", f"BM25 scores for “{q['text']}”",
        rows,
        Markup("BM25's first {} results for “{}” and, highlighted, the passage that answers it, "
               "<code>{}</code>, at rank {} of the {} passages that share a word with the question. "
               "Dense search ranks it {}.").format(SHOWN, q["text"], answer, rank, len(bm25),
                                                  facts.rank(MISMATCH, "dense")), digits=3)


FIGURES = {"vocab-mismatch": vocab_mismatch}
