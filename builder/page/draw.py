"""Figures drawn at build time from the build's data, as HTML that reflows: a flow of steps
is an ordered list (a row of boxes on a wide screen, a column on a phone), a bar chart is a
list of rows each with a meter. Screen readers read them as the lists they are; colours come
from CSS classes (site_src/styles/figures.css), so both themes work, and nothing needs a
style attribute (the page's CSP forbids them).

Example: {{ figure("pipeline") }} in a section's prose.
"""

from markupsafe import Markup, escape

def flow(figure_id: str, title: str, description: str, rows: list[tuple[str, list[tuple[str, list[str]]]]],
         caption: str) -> Markup:
    """Rows of steps joined by arrows; each row has a label and (heading, detail lines) steps.
    `description` says in one sentence what the figure shows (its accessible description)."""
    parts = []
    for number, (label, steps) in enumerate(rows, start=1):
        row_id = f"{figure_id}-row-{number}"
        heading = Markup('<p class="flow-label" id="{}">{}</p>').format(row_id, label) if label else Markup("")
        items = Markup("").join(
            Markup('<li class="flow-step"><span class="flow-title">{}</span><span class="flow-detail">{}</span></li>')
            .format(name, " ".join(lines)) for name, lines in steps)
        labelled = Markup(' aria-labelledby="{}"').format(row_id) if label else Markup(' aria-label="{}"').format(title)
        parts.append(heading + Markup('<ol class="flow-steps"{}>{}</ol>').format(labelled, items))
    return Markup('<figure class="figure flow-figure" id="{0}" aria-labelledby="{0}-caption" aria-describedby="{0}-desc">'
                  '<div class="flow">{1}</div><p class="visually-hidden" id="{0}-desc">{2}</p>'
                  '<figcaption id="{0}-caption">{3}</figcaption></figure>').format(
        figure_id, Markup("").join(parts), description, caption)


def score_bars(figure_id: str, title: str, rows: list[tuple[str, float, bool]], caption: str,
               digits: int = 3) -> Markup:
    """Horizontal bars, one per (label, score, highlighted), scaled to the largest score."""
    top = max((score for _, score, _ in rows), default=1.0) or 1.0
    items = Markup("").join(
        Markup('<li class="{}"><span class="bar-label">{}</span>'
               '<meter class="score-bar" min="0" max="{}" value="{}" aria-hidden="true"></meter>'
               '<span class="bar-value">{}</span></li>').format(
            "bar-row is-hit" if hit else "bar-row", label, top, score, f"{score:.{digits}f}")
        for label, score, hit in rows)
    return Markup('<figure class="figure bars-figure" id="{0}" aria-labelledby="{0}-title">'
                  '<p class="figure-title" id="{0}-title">{1}</p><ol class="bar-rows">{2}</ol>'
                  '<figcaption>{3}</figcaption></figure>').format(figure_id, title, items, caption)


__all__ = ["flow", "score_bars", "escape"]
