"""The labs' controls, out of index.html and into assets/controls.js, which the runtime loads
when a lab starts or when a link lands on one (site_src/runtime/labs.js, RAG.showControls).

Without JavaScript the controls would do nothing and are not shown (each waits, inert, in a
<template data-lab-controls>), so no reader without scripts misses them; a reader with scripts
gets them from one small file, fetched once, instead of in the page's first download (about
4 KiB gzipped of index.html for fifteen labs). Each template stays in the page, empty, where its
controls go, numbered within its lab; the file holds their markup, lab by lab, in that order:

    RAG.provide("controls", {"bm25": ["<div class=\\"lab-controls\\">…</div>"], …})

Example: take_out('<section class="lab" data-lab="x"><template data-lab-controls><b>k</b></template></section>')
         -> ('<section class="lab" data-lab="x"><template data-lab-controls="0"></template></section>', {'x': ['<b>k</b>']})
"""

import re

from builder.page.errors import ProseError
from builder.page.lean_html import lean_html

# A lab's opening tag, or one of its controls' templates (a template holds no other template).
LAB_OR_TEMPLATE = re.compile(r'<section class="lab\b[^"]*" data-lab="([^"]+)"|<template data-lab-controls>(.*?)</template>', re.S)


def take_out(html: str) -> tuple[str, dict[str, list[str]]]:
    """The page with every lab's controls template emptied, and {lab: [each template's markup]}."""
    controls: dict[str, list[str]] = {}
    lab = None
    out: list[str] = []
    position = 0
    for match in LAB_OR_TEMPLATE.finditer(html):
        if match.group(1) is not None:
            lab = match.group(1)
            continue
        if lab is None:
            line = html.count("\n", 0, match.start()) + 1
            raise ProseError(f"index.html:{line}: a <template data-lab-controls> outside any lab's <section> "
                             "(fix: call lab_controls() only inside a lab's lab.html)")
        own = controls.setdefault(lab, [])
        out += [html[position:match.start()], f'<template data-lab-controls="{len(own)}"></template>']
        own.append(match.group(2))
        position = match.end()
    out.append(html[position:])
    return "".join(out), controls


def take_out_of(bodies: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """take_out over the page's sections, in order, each lab's markup made lean as index.html is."""
    controls: dict[str, list[str]] = {}
    emptied = []
    for body in bodies:
        body, found = take_out(body)
        emptied.append(body)
        for lab, markup in found.items():
            controls.setdefault(lab, []).extend(lean_html(html) for html in markup)
    return emptied, controls
