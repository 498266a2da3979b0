"""Each lab's view, drawn for the page by the lab's own script. A section places a lab; its
frame (lab.html) is Jinja, and what it shows is left as a mark. Once every section is rendered
and the page's scripts are built, builder/page/lab_views.js runs the lab scripts in Node (the
same files the browser loads) and renders each placed lab's state to HTML with
preact-render-to-string; the marks are replaced by those drawings. The browser redraws with
the same views, so a lab looks the same with and without JavaScript by construction.

Node runs only when something it reads changed: drawings are cached in .cache/lab-views/ by a
hash of the renderer, the scripts, the data and the states asked for.

Example: views = LabViews(); mark = views.place("hybrid", {"q": "q1"}); ... views.fill(html, drawings)
"""

import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from builder.cache_file import write_atomically
from builder.page.assets import DRAWING
from builder.page.errors import ProseError
from builder.sources import ROOT, SITE_SRC

RENDERER = Path(__file__).with_name("lab_views.js")
# The runtime's files a view may use (the rest of the runtime drives the page, not the drawing).
RUNTIME_FOR_VIEWS = ("format.js", "loader.js", "page-data.js", *DRAWING)
KEEP = 4  # cached drawings kept (one per recent build of different inputs)


class NodeMissing(ProseError):
    pass


@dataclass(frozen=True)
class Drawing:
    html: str      # the view's markup, the lab's .lab-output children
    summary: str   # what the lab announces for this state
    state: dict    # the state as the lab's accept() cleaned it
    error: str = ""  # drawn leniently (another corpus's page): why this one could not be drawn
    outcome: str = ""  # the one-line outcome under the lab's controls (its outcome(props)), or none


@dataclass
class LabViews:
    """The labs the page places, each with the state it opens on (each lab and state once)."""
    placed: list[dict] = field(default_factory=list)

    @staticmethod
    def mark(name: str, state: dict) -> str:
        """Where a lab's drawing goes: the same for the same lab and state, whichever section."""
        digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode("utf-8")).hexdigest()[:16]
        return f"<!--lab-view:{name}:{digest}-->"

    @classmethod
    def outcome_mark(cls, name: str, state: dict) -> str:
        """Where a lab's one-line outcome goes (the frame's p[data-outcome])."""
        return cls.mark(name, state).replace("<!--lab-view:", "<!--lab-outcome:")

    def place(self, name: str, state: dict) -> Markup:
        if {"lab": name, "state": state} not in self.placed:
            self.placed.append({"lab": name, "state": state})
        return Markup(self.mark(name, state))

    def fill(self, html: str, drawings: list[Drawing]) -> str:
        for placed, drawing in zip(self.placed, drawings):
            if not drawing.error:
                html = html.replace(self.mark(placed["lab"], placed["state"]), drawing.html)
            html = html.replace(self.outcome_mark(placed["lab"], placed["state"]), drawing.outcome)
        return html


def node() -> str:
    found = shutil.which("node")
    if not found:
        raise NodeMissing("the build draws each lab's view with Node.js, which is not installed (fix: install "
                          "Node.js 20 or newer, e.g. `apt-get install nodejs npm` on Debian, then `npm ci`; "
                          "`make build` does both)")
    if not (ROOT / "node_modules" / "preact-render-to-string").is_dir():
        raise NodeMissing("node_modules/ lacks preact-render-to-string, which draws the labs' views (fix: run `npm ci`)")
    return found


def sources(assets: dict[str, str | bytes], shared: tuple[str, ...]) -> list[dict]:
    """What the renderer runs, in the browser's order: the runtime's view files, the shared
    scripts, the data, then every lab's file, exactly as the build writes them."""
    runtime = [{"name": f"site_src/runtime/{name}", "code": (SITE_SRC / "runtime" / name).read_text("utf-8")}
               for name in RUNTIME_FOR_VIEWS]
    scripts = [{"name": f"assets/scripts/{name}.js", "code": assets[f"assets/scripts/{name}.js"]} for name in shared]
    labs = [{"name": path, "code": code} for path, code in assets.items() if path.startswith("assets/labs/")]
    return runtime + scripts + [{"name": "assets/data.js", "code": assets["assets/data.js"]}] + labs


def cache_key(request: dict) -> str:
    digest = hashlib.sha256(RENDERER.read_bytes())
    lock = ROOT / "package-lock.json"
    digest.update(lock.read_bytes() if lock.is_file() else b"")
    digest.update(json.dumps(request, sort_keys=True).encode("utf-8"))
    return digest.hexdigest()[:20]


def node_json(script: Path, request: dict, refused: str, error: type[Exception] = ProseError, timeout: int = 300,
              node_args: tuple[str, ...] = ()) -> dict:
    """The JSON a Node script answers to a JSON request on its standard input: the build's
    renderer, and the tests' scripts that draw views (tests/support/views.py). A script that
    fails raises `error` naming it with the end of its stderr; an answer {"error": ...} raises
    `error` with `refused` (what could not be done) and the script's words. `node_args` go to
    Node itself (a larger young generation for a script that parses many pages).

    Example: node_json(RENDERER, request, "a lab's view could not be drawn")["drawings"][0]["html"]
    """
    result = subprocess.run([node(), *node_args, str(script)], input=json.dumps(request), capture_output=True, text=True,
                            cwd=ROOT, timeout=timeout)
    if result.returncode != 0:
        name = script.relative_to(ROOT).as_posix() if script.is_relative_to(ROOT) else str(script)
        raise error(f"{name} failed:\n{result.stderr[-3000:]}")
    answer = json.loads(result.stdout)
    if isinstance(answer, dict) and "error" in answer:
        raise error(f"{refused}:\n{answer['error']}")
    return answer


def run_renderer(request: dict) -> list[Drawing]:
    answer = node_json(RENDERER, request, "a lab's view could not be drawn")
    return [Drawing(**drawing) for drawing in answer["drawings"]]


def draw(placed: list[dict], assets: dict[str, str | bytes], shared: tuple[str, ...], schema: int,
         cache_dir: Path, lenient: bool = False) -> list[Drawing]:
    """Every placed lab's drawing, from the cache or from one run of Node. `lenient` (another
    corpus's page): a view that cannot draw gives a Drawing with its error, not a failed build."""
    if not placed:
        return []
    request = {"schema": schema, "sources": sources(assets, shared), "drawings": placed}
    if lenient:
        request["lenient"] = True
    folder = cache_dir / "lab-views"
    path = folder / f"{cache_key(request)}.json"
    if path.is_file():
        return [Drawing(**drawing) for drawing in json.loads(path.read_text("utf-8"))]
    drawings = run_renderer(request)
    write_atomically(path, json.dumps([drawing.__dict__ for drawing in drawings]))
    for old in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)[:-KEEP]:
        old.unlink(missing_ok=True)
    return drawings
