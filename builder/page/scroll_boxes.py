"""Boxes that scroll sideways on a narrow screen (a wide table, code, a formula, a diagram) are
written keyboard-reachable: a keyboard scrolls a box only once it has the focus, and a reader
without JavaScript has no runtime to fix that later.

    <div class="table-scroll">      role="region" tabindex="0" aria-label="Table: <its header cells>"
    <pre> (code in the prose)       role="region" tabindex="0" aria-label="Code (<language>): <first line>"
    <math display="block">          tabindex="0" (a formula keeps its own role, read as mathematics)
    <figure class="figure"> whose   tabindex="0" (a figure is named by its figcaption); only the
      svg keeps a minimum width     diagrams and charts that keep a minimum width on a phone
      (svg.flow, .bars, .is-wide)   (figures.css) can overflow, the others never get a tab stop

Each also gets `data-scroll-box`: the runtime (site_src/runtime/scrollers.js) takes the tab stop
away from a box it has measured not to overflow at the reader's width, so a wide screen is not
left with dozens of stops that scroll nothing. A region's label is unique on the page (axe's
landmark-unique): a repeated one gets " (2)", " (3)".

Labs are left alone: a lab's markup is drawn by its own view, the same with and without
JavaScript, and the runtime marks its boxes.

Example: keyboard_reachable('<div class="table-scroll"><table><tr><th>rank</th><th>BM25</th></tr></table></div>')
  -> '<div class="table-scroll" role="region" tabindex="0" aria-label="Table: rank, BM25" data-scroll-box><table>…'
"""

import html as htmlib
import re

LABEL_CHARS = 60
TABLE = re.compile(r'<div class="table-scroll">(?=\s*<table\b(.*?)</table>)', re.S)
CODE = re.compile(r'<pre>(?=(?:<code(?: class="language-([\w-]+)")?>)?(.*?)</pre>)', re.S)
MATH = re.compile(r'<math\b(?![^>]*\btabindex=)([^>]*\bdisplay="block"[^>]*)>')
WIDE_FIGURE = re.compile(r'<figure class="figure"(?![^>]*\btabindex=)([^>]*)>(?=\s*<svg\b[^>]*\bclass="[^"]*\b(?:flow|bars|is-wide)\b)')
SECTION_TAG = re.compile(r'<section\b[^>]*>|</section>')
LAB_SECTION = re.compile(r'\bclass="lab[" ]')


def plain(fragment: str) -> str:
    """The text of a fragment of markup, on one line. Example: plain('<b>a</b>\\n b') -> 'a b'"""
    return " ".join(htmlib.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def shortened(text: str, limit: int = LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def table_label(table: str) -> str:
    """'Table: ' and the cells of the table's first header row. Example: -> 'Table: rank, BM25'"""
    row = re.search(r"<tr\b[^>]*>(.*?)</tr>", table, re.S)
    cells = [plain(cell) for cell in re.findall(r"<th\b[^>]*>(.*?)</th>", row.group(1), re.S)] if row else []
    return shortened("Table: " + ", ".join(cell for cell in cells if cell)) if any(cells) else "Table"


def code_label(language: str | None, code: str) -> str:
    """Example: code_label('sql', 'SELECT id\\nFROM passages') -> 'Code (sql): SELECT id'"""
    first = next((line.strip() for line in htmlib.unescape(re.sub(r"<[^>]+>", "", code)).splitlines() if line.strip()), "")
    return shortened(f"Code ({language}): {first}" if language else f"Code: {first}")


def lab_spans(html: str) -> list[tuple[int, int]]:
    """Where each lab's section starts and ends (section.lab, with any section inside it)."""
    spans, depth, start = [], 0, None
    for tag in SECTION_TAG.finditer(html):
        opening = not tag.group(0).startswith("</")
        if start is None:
            if opening and LAB_SECTION.search(tag.group(0)):
                start, depth = tag.start(), 1
            continue
        depth += 1 if opening else -1
        if depth == 0:
            spans.append((start, tag.end()))
            start = None
    return spans


class Labels:
    """Region labels, unique on the page."""

    def __init__(self):
        self.seen: dict[str, int] = {}

    def unique(self, label: str) -> str:
        self.seen[label] = self.seen.get(label, 0) + 1
        return label if self.seen[label] == 1 else f"{label} ({self.seen[label]})"


def region(labels: Labels, label: str) -> str:
    return f' role="region" tabindex="0" aria-label="{htmlib.escape(labels.unique(label), quote=True)}" data-scroll-box'


def mark_outside_labs(html: str, labels: Labels) -> str:
    html = TABLE.sub(lambda m: f'<div class="table-scroll"{region(labels, table_label(m.group(1)))}>', html)
    html = CODE.sub(lambda m: f"<pre{region(labels, code_label(m.group(1), m.group(2)))}>", html)
    html = MATH.sub(lambda m: f'<math{m.group(1)} tabindex="0" data-scroll-box>', html)
    return WIDE_FIGURE.sub(lambda m: f'<figure class="figure"{m.group(1)} tabindex="0" data-scroll-box>', html)


def keyboard_reachable(html: str) -> str:
    """The page with every scroll box outside the labs focusable (and named, where it is a region)."""
    labels, out, position = Labels(), [], 0
    for start, end in lab_spans(html):
        out += [mark_outside_labs(html[position:start], labels), html[start:end]]
        position = end
    out.append(mark_outside_labs(html[position:], labels))
    return "".join(out)
