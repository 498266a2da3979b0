"""Deep dives: the depth a first reader may skip, kept in the page as asides the reader opens.
In a section's Markdown:

    {% aside "How SQLite's FTS5 ranks the same questions" %}
    ...Markdown, samples, figures...
    {% endaside %}

becomes a <details class="deep-dive" open> whose summary names it and says how long it takes to
read (builder/page/reading_time.py fills that in). It is open in the HTML, so it reads without
JavaScript and prints; the page's reading path (site_src/runtime/path.js) closes it on the
essential path, and a link to anything inside opens it. Browsers search closed details with
find-in-page. Asides do not nest.

Example: {% aside "The code" %}…{% endaside %} -> <details class="deep-dive" id="deep-dive-the-code" open>…
"""

import re

from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup, escape

from builder.page.errors import ProseError


def slug_of(title: str) -> str:
    """'Inverted indexes, and stemming' -> 'inverted-indexes-and-stemming' (headings' ids too)."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def time_mark(dive_id: str) -> str:
    """Where the aside's reading time goes, once the page is whole."""
    return f"<!--reading-time:{dive_id}-->"


def deep_dive(dive_id: str, title: str, body: str, classes: str = "") -> Markup:
    """A deep dive's markup: written open (the reading path closes it), its time to be filled in.

    Example: deep_dive("deep-dive-x", "X", "<p>y</p>").startswith('<details class="deep-dive" id="deep-dive-x" open>') -> True
    """
    return Markup(
        f'<details class="deep-dive{" " + classes if classes else ""}" id="{dive_id}" open>\n'
        f'<summary><span class="deep-dive-label">Deep dive</span> <span class="deep-dive-title">{escape(title)}</span>'
        f' <span class="deep-dive-time">{time_mark(dive_id)}</span></summary>\n\n'
        f"{body}\n\n</details>")


class AsideExtension(Extension):
    """{% aside "title" %}Markdown{% endaside %}"""

    tags = {"aside"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        title = parser.parse_expression()
        body = parser.parse_statements(("name:endaside",), drop_needle=True)
        call = self.call_method("_render", [title, nodes.Const(lineno), nodes.Name("_section", "load")])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render(self, title: str, lineno: int, section: str, caller) -> Markup:
        body = caller()
        if 'class="deep-dive"' in body or "{% aside" in body:
            raise ProseError(f"{section}:{lineno}: an aside inside an aside (fix: close the first with "
                             "{% endaside %} before opening the next)")
        dive_id = "deep-dive-" + slug_of(title)
        seen = self.environment.globals.setdefault("_asides", set())
        if (section, dive_id) in seen:
            raise ProseError(f"{section}:{lineno}: two asides titled '{title}' (fix: give each its own title)")
        seen.add((section, dive_id))
        # Blank lines around the body: Markdown renders it, and leaves the two tags as HTML blocks.
        return Markup("\n\n") + deep_dive(dive_id, title, body) + Markup("\n\n")
