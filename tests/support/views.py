"""Lab views in Node, for the tests: draw any state of any lab from the built site's own files
(builder/page/lab_views.js, the build's renderer), list the states a lab's controls offer, and
check that the build's drawing and the browser's are the same (tests/support/views_check.js).

    views = LabViews(dist_dir)            # one Node process, kept for the session
    drawing = views.draw("hybrid", {"q": "g05"})
    markup(drawing.html).css_first(".lab-status").text()
    draw_chunks(dist_dir, corpus, [{"view": "hybrid", "input": {...}, "state": {...}}])  # a view over other chunks

A view's own tests read its markup this way: in Node, without a browser.
"""

import hashlib
import json
import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from builder.page import assets, lab_views
from support.paths import ROOT

CHECKER = ROOT / "tests" / "support" / "views_check.js"
OF_CHUNKS = ROOT / "tests" / "support" / "views_of_chunks.js"


def dist_sources(dist_dir: Path) -> list[dict]:
    """What the build's renderer runs, read back from a built site's assets."""
    built = {f"assets/{path.relative_to(dist_dir / 'assets').as_posix()}": path.read_text("utf-8")
             for path in (dist_dir / "assets").rglob("*.js")}
    return lab_views.sources(built, assets.SHARED)


def schema_of(dist_dir: Path) -> int:
    return json.loads((dist_dir / "data" / "rag.json").read_text("utf-8"))["schema"]


@dataclass(frozen=True)
class Drawing:
    html: str
    summary: str
    state: dict
    outcome: str = ""  # the one-line outcome under the lab's controls (builder/page/lab_views.py Drawing)


class LabViews:
    """A Node process that draws lab states on request (lab_views.js --lines)."""

    def __init__(self, dist_dir: Path):
        # The site's files go with the first request only: the process keeps their sandbox.
        self.base = {"schema": schema_of(dist_dir), "sources": dist_sources(dist_dir)}
        self.process = subprocess.Popen(["node", str(lab_views.RENDERER), "--lines"], cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def draw_many(self, lab: str, states: list[dict]) -> list[Drawing]:
        request = self.base | {"drawings": [{"lab": lab, "state": state} for state in states]}
        self.base = {"schema": self.base["schema"]}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise AssertionError(f"lab {lab} could not be drawn: {answer['error']}")
        return [Drawing(**drawing) for drawing in answer["drawings"]]

    def draw(self, lab: str, state: dict) -> Drawing:
        return self.draw_many(lab, [state])[0]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def markup(html: str):
    """A drawing's HTML parsed as a browser parses it; query it with .css(selector)."""
    return LexborHTMLParser(f"<div id='drawing'>{html}</div>").css_first("#drawing")


def text(node) -> str:
    """An element's text with white space folded, as a reader reads it."""
    return " ".join(node.text().split())


# ----------------------------------------------------------- the states a lab's controls offer


def built_controls(dist_dir: Path) -> dict[str, list[str]]:
    """The labs' controls as the build wrote them (assets/controls.js, out of index.html):
    {lab: [the markup of each of its <template data-lab-controls>, in page order]}."""
    script = (dist_dir / "assets" / "controls.js").read_text("utf-8")
    head = 'RAG.provide("controls",'
    assert script.startswith(head), f"{dist_dir}/assets/controls.js does not start with {head}"
    return json.loads(script[len(head):script.rindex(");")])


def page_with_controls(dist_dir: Path) -> str:
    """index.html with each lab's controls back in their templates, as the render step drew the
    page before it took them out (builder/page/lab_controls.py): for tests that read a lab's
    controls, or count them, in the page's own markup."""
    html, controls = (dist_dir / "index.html").read_text("utf-8"), built_controls(dist_dir)
    lab = None

    def filled(match: re.Match) -> str:
        nonlocal lab
        if match.group(1):
            lab = match.group(1)
            return match.group(0)
        if match.group(2):  # a view's controls the lab mounts, data-controls="view": under "lab/view"
            return f'<template data-controls="{match.group(2)}">{controls[lab + "/" + match.group(2)][int(match.group(3))]}</template>'
        return f"<template data-lab-controls>{controls[lab][int(match.group(3))]}</template>"

    # (a number as a value may be written without its quotes, builder/page/lean_html.py)
    return re.sub(r'<section class="lab\b[^"]*" data-lab="([^"]+)"'
                  r'|<template(?: data-controls="([^"]+)")? data-lab-controls="?(\d+)"?></template>', filled, html)


def control_axes(controls: dict[str, list[str]], lab: str, data: dict) -> dict[str, list]:
    """state key -> every value the lab's controls offer, read from the built controls
    (built_controls): radios and selects bound with data-key (their values), ranges (min to max
    by step), checkboxes (both), and the question picker (every preset question the page lists
    in it). Text fields offer no preset values."""
    axes: dict[str, list] = {}
    if not controls.get(lab):
        return axes
    controls = LexborHTMLParser("".join(controls[lab]))
    for node in controls.css("[data-key]"):
        key, tag, kind = node.attributes["data-key"], node.tag, node.attributes.get("type", "")
        values = axes.setdefault(key, [])
        if tag == "input" and kind == "radio":
            values.append(node.attributes["value"])
        elif tag == "input" and kind == "checkbox":
            values.extend([False, True])
        elif tag == "input" and kind == "range":
            low, high, step = (float(node.attributes[a]) for a in ("min", "max", "step"))
            count = round((high - low) / step)
            values.extend(round(low + i * step, 10) for i in range(count + 1))
        elif tag == "select" and "data-picker" not in node.attributes:
            values.extend(option.attributes["value"] for option in node.css("option"))
    picker = controls.css_first('select[data-picker="question"]')
    if picker is not None:
        if picker.attributes.get("data-options") == "presets":
            answered_only = "data-answered-only" in picker.attributes
            axes["q"] = [q["id"] for q in data["questions"] if not answered_only or q["answer"]]
        else:
            axes["q"] = [option.attributes["value"] for option in picker.css("option")]
    return {key: list(dict.fromkeys(values)) for key, values in axes.items() if values}


def preset_states(controls: dict[str, list[str]], lab: str, data: dict, default: dict, cap: int = 200, sample: int = 75,
                  seed: int = 17) -> list[dict]:
    """Every state the controls (built_controls) offer (each axis crossed with the others, over the lab's default
    state), or, when there are more than `cap`, a seeded sample of at least `sample` of them that
    holds every value a question picker, a radio, a select or a checkbox offers and both ends of
    every range (the states a bug of one value or one end would show in), the rest drawn at
    random; the default state first.

    Example: preset_states(built_controls(dist), "hybrid", data, {"q": "upload-4021", "k": 60, "depth": 8})[0] -> that state
    """
    axes = control_axes(controls, lab, data)
    count = 1
    for values in axes.values():
        count *= len(values)
    if count <= cap:
        states = [dict(default)]
        for key, values in axes.items():
            states = [state | {key: value} for state in states for value in values]
    else:
        states = covering_sample(controls, lab, axes, default, sample, random.Random(seed))
    unique = [json.loads(key) for key in dict.fromkeys(json.dumps(state, sort_keys=True) for state in states)]
    return [dict(default)] + [state for state in unique if state != default]


def covering_sample(controls: dict[str, list[str]], lab: str, axes: dict[str, list], default: dict, size: int, rng) -> list[dict]:
    """`size` states or more over `default`: the first ones cycle through every value of each axis
    that is not a range and through both ends of each range (each list shuffled, so no two axes
    keep step), the others random points of the whole grid."""
    ranges = range_keys(controls, lab)
    must = {key: rng.sample(values, len(values)) if key not in ranges else [values[0], values[-1]]
            for key, values in axes.items()}
    covering = max((len(values) for values in must.values()), default=0)
    states = [default | {key: must[key][i % len(must[key])] for key in axes} for i in range(covering)]
    while len(states) < size:
        states.append(default | {key: rng.choice(values) for key, values in axes.items()})
    return states


def range_keys(controls: dict[str, list[str]], lab: str) -> set[str]:
    """The state keys a lab's range inputs set, read from the built controls (built_controls)."""
    if not controls.get(lab):
        return set()
    markup = LexborHTMLParser("".join(controls[lab]))
    return {node.attributes["data-key"] for node in markup.css('input[type="range"][data-key]')}


def check_views(dist_dir: Path, labs: dict[str, list[dict]]) -> dict:
    """views_check.js over these states: {checked: {lab: n}, mismatches: [...], errors: [...]}."""
    request = {"schema": schema_of(dist_dir), "sources": dist_sources(dist_dir), "labs": labs}
    return lab_views.node_json(CHECKER, request, "the views could not be checked", AssertionError, timeout=600,
                               node_args=("--max-semi-space-size=64",))


# ----------------------------------------------------------- a view over a corpus of chunks


@dataclass(frozen=True)
class ChunkDrawing:
    html: str
    summary: str
    state: dict
    redrawn: bool   # Preact's redraw over the drawing before it left the same tree as the HTML
    runs: dict | None


def draw_chunks(dist_dir: Path, corpus: dict, drawings: list[dict], scripts: tuple[str, ...] = ()) -> list[ChunkDrawing]:
    """Views of site_src/views/ drawn over RAG.corpus.fromChunks(corpus["chunks"], corpus) from the
    built site's files (tests/support/views_of_chunks.js): each of `drawings` is {view, input
    (without its corpus), state}. `scripts`: files of assets/scripts/ that define a view no lab
    script holds (the passage card's "card")."""
    extra = [{"name": f"assets/scripts/{name}.js", "code": (dist_dir / "assets" / "scripts" / f"{name}.js").read_text("utf-8")}
             for name in scripts]
    sources = dist_sources(dist_dir) + extra
    request = {"schema": schema_of(dist_dir), "corpus": corpus, "drawings": drawings}
    answer = chunk_drawer(sources).answer(request)
    if "error" in answer:
        raise AssertionError(f"a view could not draw the chunks: {answer['error']}")
    return [ChunkDrawing(**drawing) for drawing in answer["drawings"]]


class ChunkDrawer:
    """One Node process (views_of_chunks.js --lines) for every draw_chunks over the same site's
    files: they go with its first request, and it keeps their sandbox."""

    def __init__(self, sources: list[dict]):
        self.sources = sources
        self.process = subprocess.Popen(["node", str(OF_CHUNKS), "--lines"], cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def answer(self, request: dict) -> dict:
        first, self.sources = self.sources, None
        self.process.stdin.write(json.dumps(request | ({"sources": first} if first else {})) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise AssertionError("tests/support/views_of_chunks.js stopped (its error is in the test's captured stderr)")
        return json.loads(line)


_drawers: dict[str, ChunkDrawer] = {}  # the sources' digest -> its process, for the test session


def chunk_drawer(sources: list[dict]) -> ChunkDrawer:
    key = hashlib.sha256(json.dumps(sources).encode("utf-8")).hexdigest()
    if key not in _drawers or _drawers[key].process.poll() is not None:
        _drawers[key] = ChunkDrawer(sources)
    return _drawers[key]
