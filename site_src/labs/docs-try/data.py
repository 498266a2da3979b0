"""Try it on your documents: the reader's own files (or the sample set) read, chunked, indexed,
searched and measured in the browser, by the engine room of site_src/docs/ (RAG.docs) and the
model's workers (RAG.embedder). The data step ships what the browser cannot know by itself:

    limits     RAG.docs.LIMITS, read from site_src/docs/limits.js, so the page states the very
               limits the reader's browser applies (the prose renders them; none is typed)
    sample     the sample set, corpus/sample-docs/: its eight documents and six questions, each
               with the quotes that answer it (marks.fromQuotes makes the marks of any chunking)
    chunkers   the chunker settings the lab offers (the chunking lab's presets, and how
               build.py --corpus cuts a folder), tried side by side by "Which way to split"
    sliders    the hybrid view's k and depth ranges (the hybrid lab's), nearest (the map's K)
    window     the model's window in wordpieces, [CLS] and [SEP] included (engine/settings.py)
    reproduce  site_src/docs/reproduce.py, downloaded as it is

Everything here is built into the lab's own file (assets/labs/docs-try.js), loaded when the lab
comes near; RAG.docs (assets/scripts/docs.js) loads only when the reader brings documents.

Example: limits_of("docs.LIMITS = Object.freeze({ files: 200, fileBytes: 20 * MB });")
         -> {'files': 200, 'fileBytes': 20971520}
"""

import re

import yaml

from builder.sources import ROOT
from engine.settings import MAX_WORDPIECES
from builder.view_settings import HYBRID_SLIDERS as SLIDERS
from builder.view_settings import MAP_NEIGHBOURS as NEAREST

STATE = {}  # everything the lab shows is the reader's, kept out of the link
SCRIPTS = ("engine", "embedder", "live-search")
VIEWS = ("hybrid", "map")
BUILD_ONLY = ()

LIMITS_JS = ROOT / "site_src" / "docs" / "limits.js"
SAMPLE = ROOT / "corpus" / "sample-docs"
REPRODUCE = ROOT / "site_src" / "docs" / "reproduce.py"
LIMITS_LINE = re.compile(r"docs\.LIMITS = Object\.freeze\(\{([^}]*)\}\)")
LIMIT = re.compile(r"^\s*(\w+):\s*(\d+)(?:\s*\*\s*MB)?\s*$")
MB = 1024 * 1024
CHUNKERS = (
    {"chunker": "sections", "maxWords": 120},
    {"chunker": "fixed", "size": 25, "overlap": 0},
    {"chunker": "fixed", "size": 25, "overlap": 10},
    {"chunker": "sentences", "limit": 40, "repeat": 1},
    {"chunker": "headings"},
    {"chunker": "page"},
)


def setting_label(setting: dict) -> str:
    """A chunker setting as the page names it: chunk-documents.js settingLabel's words (a test compares).

    Example: setting_label({"chunker": "fixed", "size": 25, "overlap": 10}) -> 'Fixed, 25 words, 10 overlap'
    """
    kind = setting["chunker"]
    if kind == "fixed":
        return f"Fixed, {setting['size']} words" + (f", {setting['overlap']} overlap" if setting["overlap"] else "")
    if kind == "sentences":
        return f"Sentences, up to {setting['limit']} words" + (f", {setting['repeat']} repeated" if setting["repeat"] else "")
    return {"headings": "By heading", "page": "Whole document"}.get(kind) or f"By heading, up to {setting['maxWords']} words"


def limits_of(source: str) -> dict[str, int]:
    """The limits written in limits.js: `name: 200` or `name: 20 * MB`, nothing else."""
    found = LIMITS_LINE.search(source)
    if not found:
        raise ValueError(f"{LIMITS_JS}: no line `docs.LIMITS = Object.freeze({{...}})` (fix: keep the limits on that one line)")
    limits = {}
    for part in found.group(1).split(","):
        match = LIMIT.match(part)
        if not match:
            raise ValueError(f"{LIMITS_JS}: the limit {part.strip()!r} is not `name: digits` or `name: digits * MB` "
                             "(fix: write it so, or teach site_src/labs/docs-try/data.py to read it)")
        limits[match.group(1)] = int(match.group(2)) * (MB if "MB" in part else 1)
    return limits


def sample_set() -> dict:
    files = [[path.name, path.read_text("utf-8")] for path in sorted(SAMPLE.iterdir()) if path.name != "questions.yaml"]
    questions = yaml.safe_load((SAMPLE / "questions.yaml").read_text("utf-8"))
    return {"files": files, "questions": [{"id": q["id"], "text": q["question"], "answers": q["answers"]} for q in questions]}


def data(build) -> dict:
    return {"limits": limits_of(LIMITS_JS.read_text("utf-8")), "sample": sample_set(), "chunkers": [{"setting": s, "label": setting_label(s)} for s in CHUNKERS],
            "sliders": SLIDERS, "nearest": NEAREST, "window": MAX_WORDPIECES, "reproduce": REPRODUCE.read_text("utf-8")}


def summary(found: dict) -> str:
    return f"{len(found['sample']['files'])} sample documents"
