"""The page's labs, found by their folders. A lab is one folder, site_src/labs/<name>/:

    data.py           its data step: data(build) -> dict, kept as data["labs"][<name>]; STATE, the
                      state the page opens on. Optional: SCRIPTS (shared scripts its view needs),
                      VIEWS (the views of site_src/views/ it shows), BUILD_ONLY (keys of its data
                      the browser never reads), PRACTICE (what it asks of the render step's
                      practice: where its questions as written are, where it wants them rendered), load_content(root, out) (its hand-written part of
                      corpus/), texts_to_embed(content) (texts the build must embed for it),
                      summary(data) (a few words for the build's log: what its data step made)
    lab.html          its frame: title, introduction, controls (extends templates/_lab.html)
    lab.js            its view, or the view it shows and the input it gives it, drawn by the build
                      and by the browser (site_src/runtime/views.js)
    lab.css           its style, every selector under [data-lab="<name>"]
    test_<name>.py    its tests

A view a lab shows is site_src/views/<view>.js (RAG.view: it draws any corpus, as many times as
a page wants) and <view>.css (every selector under [data-view="<view>"]).

A section places it with {{ lab("<name>") }}; the page's order of labs is the sections' order.

Example: BY_NAME["hybrid"].state -> the STATE of site_src/labs/hybrid/data.py
"""

import importlib
import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from builder.sources import LABS as LABS_DIR, ROOT, SECTIONS as SECTIONS_DIR, VIEWS as VIEWS_DIR

PLACED = re.compile(r"""\blab\(\s*["']([a-z0-9_-]+)["']""")


class LabError(Exception):
    """A lab folder that is not a whole lab."""


@dataclass(frozen=True)
class Lab:
    name: str
    folder: Path
    module: ModuleType  # its data.py

    @property
    def state(self) -> dict:
        return self.module.STATE

    @property
    def scripts(self) -> tuple[str, ...]:
        return tuple(getattr(self.module, "SCRIPTS", ()))

    @property
    def views(self) -> tuple[str, ...]:
        return tuple(getattr(self.module, "VIEWS", ()))

    @property
    def build_only(self) -> tuple[str, ...]:
        return tuple(getattr(self.module, "BUILD_ONLY", ()))

    @property
    def practice(self) -> dict | None:
        """What the lab asks of the render step, which renders the page's practice over the data
        after the labs (builder/page/practice.py): the keys of its data that hold the questions
        and predictions as written ("source", "predictions"), and the key it wants the rendered
        questions under ("rendered"). None: it asks for none.

        Example: BY_NAME["quiz"].practice -> {'source': 'source', 'predictions': 'prediction_source', 'rendered': 'questions'}
        """
        return getattr(self.module, "PRACTICE", None)

    def data(self, build) -> dict:
        return self.module.data(build)

    @property
    def has_content(self) -> bool:
        return hasattr(self.module, "load_content")

    def load_content(self, root: Path, out):
        return self.module.load_content(root, out)

    def texts_to_embed(self, content) -> list[str]:
        texts = getattr(self.module, "texts_to_embed", None)
        if content is None and self.has_content:
            return []  # a folder of documents without this lab's own files (builder/site.py)
        return list(texts(content)) if texts else []

    def summary(self, data: dict) -> str:
        """What the build's log says of this lab's data ("" for a lab with nothing to say)."""
        summary = getattr(self.module, "summary", None)
        return summary(data) if summary else ""

    def browser_data(self, data: dict) -> dict:
        """What the lab's script reads: its data without the keys only the build uses."""
        return {key: value for key, value in data.items() if key not in self.build_only}


def page_order(names, sections: Path = SECTIONS_DIR) -> list[str]:
    """`names` in the order the sections place them ({{ lab("name") }}), unplaced ones last.

    Example: with section 04 placing "chunking" and 05 "bm25": page_order(["bm25", "chunking"]) -> ["chunking", "bm25"]
    """
    placed = [name for path in sorted(sections.glob("*.md")) for name in PLACED.findall(path.read_text("utf-8"))]
    first = {name: placed.index(name) if name in placed else len(placed) for name in names}
    return sorted(names, key=lambda name: (first[name], name))


def load_lab(folder: Path) -> Lab:
    name = folder.name
    for part in ("data.py", "lab.html", "lab.js"):
        if not (folder / part).is_file():
            raise LabError(f"{folder}: a lab folder needs data.py, lab.html and lab.js; {part} is missing "
                           "(fix: add it, see site_src/README.md 'Adding a lab')")
    module = import_data_step(folder)
    if not isinstance(getattr(module, "STATE", None), dict) or not callable(getattr(module, "data", None)):
        raise LabError(f"{folder / 'data.py'}: define STATE (a dict, the state the page opens on) and data(build)")
    views_dir = folder.parent.parent / VIEWS_DIR.name
    for view in getattr(module, "VIEWS", ()):
        if not (views_dir / f"{view}.js").is_file():
            raise LabError(f"{folder / 'data.py'}: VIEWS names {view!r}, but {views_dir / (view + '.js')} does not exist "
                           "(fix: write the view there, or take it out of VIEWS)")
    return Lab(name, folder, module)


def import_data_step(folder: Path) -> ModuleType:
    """A lab's data.py: as the package site_src.labs.<name>.data when it is the project's own
    (so tests and other labs import the same module), else by its path (a copy of site_src/)."""
    if folder.parent == ROOT / "site_src" / "labs":
        return importlib.import_module(f"site_src.labs.{folder.name}.data")
    name = f"site_src_copy.labs.{folder.name}.data"
    spec = importlib.util.spec_from_file_location(name, folder / "data.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def discover(labs_dir: Path = LABS_DIR, sections: Path = SECTIONS_DIR) -> tuple[Lab, ...]:
    folders = {p.name: p for p in labs_dir.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
               and p.name != "__pycache__"}
    return tuple(load_lab(folders[name]) for name in page_order(folders, sections))


LABS = discover()
BY_NAME = {lab.name: lab for lab in LABS}


def log_line(found: dict) -> str:
    """The labs stage's line in the build's log: how many labs have data, and what each says of it.

    Example: log_line(every lab's data) -> '15 of 15 labs; chunking: 96 chunks'
    """
    notes = [f"{lab.name}: {note}" for lab in LABS if lab.name in found and (note := lab.summary(found[lab.name]))]
    return "; ".join([f"{len(found)} of {len(LABS)} labs"] + notes)


def lab_data(build, left_out=None) -> dict:
    """name -> what the lab's data step computed. With `left_out` (a page built from another
    corpus, builder/page/left_out.py), a data step that fails on that corpus is left out, noted."""
    if left_out is None:
        return {lab.name: lab.data(build) for lab in LABS}
    found = {}
    for lab in LABS:
        if lab.has_content and build.content.labs.get(lab.name) is None:
            left_out.note(f"site_src/labs/{lab.name}/data.py", "a lab", lab.name,
                          "this corpus has no file of the lab's own (its load_content reads it; see corpus/README.md)")
            continue
        try:
            found[lab.name] = lab.data(build)
        except Exception as error:  # whatever a data step trips on, in a corpus it was not written for
            left_out.note(f"site_src/labs/{lab.name}/data.py", "a lab", lab.name,
                          f"its data step needs what this corpus lacks: {type(error).__name__}: {error or repr(error)}")
    return found
