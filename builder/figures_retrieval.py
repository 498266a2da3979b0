"""Figures of sections 4-6, drawn from the build's data by builder/figures.py.

Example: {{ figure("score-scales") }} in site_src/sections/06-hybrid.md.
"""

from markupsafe import Markup

from builder.figures import score_bars

SCALES_QUESTION = "upload-4021"
SCALES_SHOWN = 4  # each retriever's best few


def score_scales(facts) -> str:
    """Dense and BM25 scores of one question on one axis: the two scales side by side."""
    q = facts.question(SCALES_QUESTION)
    answer = q["answer"]
    rows = [(f"dense {i} · {pid}", score, pid == answer)
            for i, (pid, score) in enumerate(facts.run(SCALES_QUESTION, "dense")[:SCALES_SHOWN], start=1)]
    rows += [(f"BM25 {i} · {pid}", score, pid == answer)
             for i, (pid, score) in enumerate(facts.run(SCALES_QUESTION, "bm25")[:SCALES_SHOWN], start=1)]
    return score_bars(
        "fig-score-scales", f"Dense and BM25 scores for “{q['text']}” on one axis", rows,
        Markup("Each retriever's top {} for “{}”, drawn to the same scale. Cosine similarities "
               "stay below 1; BM25 scores have no upper bound. The right passage, <code>{}</code>, "
               "is highlighted where it appears.").format(SCALES_SHOWN, q["text"], answer),
        digits=3)


FIGURES = {"score-scales": score_scales}
