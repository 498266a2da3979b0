"""Figures drawn at build time as inline SVG from the build's data, labelled for screen
readers. Colours come from CSS classes (.node, .edge, .bar, .label…), so both themes work.

Example: {{ figure("pipeline") }} in a section's prose.
"""

from markupsafe import Markup, escape

BOX_W, BOX_H, GAP = 150, 86, 26
LINE = 15


def _text_lines(x: float, y: float, lines: list[str], cls: str) -> Markup:
    spans = Markup("").join(Markup('<tspan x="{}" dy="{}">{}</tspan>').format(x, 0 if i == 0 else LINE, line)
                            for i, line in enumerate(lines))
    return Markup('<text class="{}" x="{}" y="{}" text-anchor="middle">{}</text>').format(cls, x, y, spans)


def flow(figure_id: str, title: str, description: str, rows: list[tuple[str, list[tuple[str, list[str]]]]],
         caption: str) -> Markup:
    """Rows of boxes joined by arrows; each row has a label and (heading, detail lines) boxes."""
    widest = max(len(boxes) for _, boxes in rows)
    width = widest * BOX_W + (widest - 1) * GAP + 20
    row_h = BOX_H + 48
    height = len(rows) * row_h + 6
    parts = [Markup('<defs><marker id="{}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                    'markerHeight="7" orient="auto-start-reverse"><path class="arrowhead" d="M0 0L10 5L0 10z"/>'
                    '</marker></defs>').format(figure_id)]
    for r, (label, boxes) in enumerate(rows):
        top = r * row_h + 26
        parts.append(Markup('<text class="row-label" x="10" y="{}">{}</text>').format(top - 10, label))
        for b, (heading, detail) in enumerate(boxes):
            x = 10 + b * (BOX_W + GAP)
            parts.append(Markup('<g class="node"><rect x="{}" y="{}" width="{}" height="{}" rx="8"/>').format(
                x, top, BOX_W, BOX_H))
            parts.append(_text_lines(x + BOX_W / 2, top + 22, [heading], "node-title"))
            parts.append(_text_lines(x + BOX_W / 2, top + 22 + LINE + 4, detail, "node-detail"))
            parts.append(Markup("</g>"))
            if b:
                parts.append(Markup('<line class="edge" x1="{}" y1="{}" x2="{}" y2="{}" marker-end="url(#{}-arrow)"/>')
                             .format(x - GAP + 2, top + BOX_H / 2, x - 3, top + BOX_H / 2, figure_id))
    svg = Markup('<svg role="img" aria-labelledby="{0}-title {0}-desc" viewBox="0 0 {1} {2}" '
                 'class="flow" preserveAspectRatio="xMidYMid meet"><title id="{0}-title">{3}</title>'
                 '<desc id="{0}-desc">{4}</desc>{5}</svg>').format(
        figure_id, width, height, title, description, Markup("").join(parts))
    return Markup('<figure class="figure" id="{}">{}<figcaption>{}</figcaption></figure>').format(
        figure_id, svg, caption)


def score_bars(figure_id: str, title: str, rows: list[tuple[str, float, bool]], caption: str,
               digits: int = 3) -> Markup:
    """Horizontal bars, one per (label, score, highlighted), scaled to the largest score."""
    top = max((score for _, score, _ in rows), default=1.0) or 1.0
    label_w, bar_w, row_h = 150, 330, 26
    parts = []
    for i, (label, score, hit) in enumerate(rows):
        y = i * row_h + 4
        width = max(2.0, bar_w * score / top)
        parts.append(Markup('<text class="label" x="{}" y="{}" text-anchor="end">{}</text>').format(
            label_w - 8, y + 15, label))
        parts.append(Markup('<rect class="{}" x="{}" y="{}" width="{:.1f}" height="18" rx="3"/>').format(
            "bar bar-hit" if hit else "bar", label_w, y + 2, width))
        parts.append(Markup('<text class="value" x="{:.1f}" y="{}">{}</text>').format(
            label_w + width + 6, y + 15, f"{score:.{digits}f}"))
    height = len(rows) * row_h + 8
    description = "; ".join(f"{label}: {score:.{digits}f}" for label, score, _ in rows)
    svg = Markup('<svg role="img" aria-labelledby="{0}-title {0}-desc" viewBox="0 0 {1} {2}" class="bars">'
                 '<title id="{0}-title">{3}</title><desc id="{0}-desc">{4}</desc>{5}</svg>').format(
        figure_id, label_w + bar_w + 60, height, title, description, Markup("").join(parts))
    return Markup('<figure class="figure" id="{}">{}<figcaption>{}</figcaption></figure>').format(
        figure_id, svg, caption)


__all__ = ["flow", "score_bars", "escape"]
