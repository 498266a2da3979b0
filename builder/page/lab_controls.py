"""The labs' controls, out of index.html and into assets/controls.js, which the runtime loads
when a lab starts or when a link lands on one (site_src/runtime/labs.js, RAG.showControls).

Without JavaScript the controls would do nothing and are not shown (each waits, inert, in a
<template data-lab-controls>), so no reader without scripts misses them; a reader with scripts
gets them from one small file, fetched once, instead of in the page's first download (about
4 KiB gzipped of index.html for fifteen labs). Each template stays in the page, empty, where its
controls go, numbered within its lab (a view's controls that the lab mounts itself, in a
<template data-controls="view">, are taken out the same way, under "lab/view", and stay a
template); the file holds their markup, lab by lab, in that order:

    RAG.provide("controls", {"bm25": ["<div class=\\"lab-controls\\">…</div>"], …})

Example: take_out('<section class="lab" data-lab="x"><template data-lab-controls><b>k</b></template></section>')
         -> ('<section class="lab" data-lab="x"><template data-lab-controls="0"></template></section>', {'x': ['<b>k</b>']})
"""

import re

from builder.page.errors import ProseError

# A lab's opening tag, or one of its controls' templates (a template holds no other template).
# A view's controls a lab mounts itself (<template data-controls="hybrid">) stay a template: its
# markup goes in when the lab's controls do, and the lab clones it from there.
LAB_OR_TEMPLATE = re.compile(r'<section class="lab\b[^"]*" data-lab="([^"]+)"'
                             r'|<template (data-lab-controls|data-controls="[a-z0-9-]+")>(.*?)</template>', re.S)


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
        view = match.group(2)[len('data-controls="'):-1] if match.group(2) != "data-lab-controls" else None
        own = controls.setdefault(f"{lab}/{view}" if view else lab, [])
        kept = f" {match.group(2)}" if view else ""
        out += [html[position:match.start()], f'<template{kept} data-lab-controls="{len(own)}"></template>']
        own.append(match.group(3))
        position = match.end()
    out.append(html[position:])
    return "".join(out), controls


def take_out_of(bodies: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """take_out over the page's sections, in order (the markup as the templates wrote it: the file is
    not part of the first download)."""
    controls: dict[str, list[str]] = {}
    emptied = []
    for body in bodies:
        body, found = take_out(body)
        emptied.append(body)
        for lab, markup in found.items():
            controls.setdefault(lab, []).extend(markup)
    return emptied, controls
