"""Rendered sections, kept between builds. A section's HTML depends on its own file, the build's
data, and the code and templates that render it; when none of those changed, the build reuses
what it rendered last time, with the claims it checked, the code samples and the labs it placed
(so the claims report and the labs' drawings stay whole). A rebuild with nothing new renders no
section; an edit to one section renders that one.

Kept in .cache/sections/<key>.json, one file per section and inputs.

Example: key = section_key(path, page_key(data_json)); load(cache_dir, key) -> None on a first build
"""

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from builder.cache_file import write_atomically
from builder.code_key import code_key
from builder.page.claims import ClaimResult
from builder.page.prose import Section
from builder.sources import ROOT, SITE_SRC

# What shapes every section besides its own file: the code that renders prose, claims, facts,
# figures, samples and labs' frames, and the templates, lab frames (with their data steps) and sample programs it includes.
RENDERING_CODE = (*sorted((ROOT / "builder" / "page").glob("*.py")), ROOT / "builder" / "labs.py",
                  ROOT / "builder" / "sources.py")
KEEP = 60  # cached sections kept: a few builds' worth


@dataclass
class CachedSection:
    section: Section
    claims: list[ClaimResult]
    samples: list[str]      # the code samples it shows, by name
    labs: list[dict]        # the labs it places: {"lab", "state"}


def included_files() -> list[Path]:
    templates = sorted((SITE_SRC / "templates").glob("*.html"))
    # A lab's frame is drawn from its lab.html and from what its data step declares (SCRIPTS, STATE).
    frames = sorted((SITE_SRC / "labs").glob("*/lab.html")) + sorted((SITE_SRC / "labs").glob("*/data.py"))
    samples = sorted(p for p in (SITE_SRC / "samples").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return [*templates, *frames, *samples, SITE_SRC / "facts.yaml"]


def page_key(data_json: str) -> str:
    """What every section shares: the data (as written to data/rag.json), the rendering code and
    the files sections include."""
    digest = hashlib.sha256(data_json.encode("utf-8"))
    digest.update(code_key([*RENDERING_CODE, *included_files()]).encode())
    return digest.hexdigest()


def section_key(path: Path, shared: str) -> str:
    return hashlib.sha256(shared.encode() + b"\0" + path.name.encode() + b"\0" + path.read_bytes()).hexdigest()[:24]


def load(cache_dir: Path, key: str) -> CachedSection | None:
    path = cache_dir / "sections" / f"{key}.json"
    if not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text("utf-8"))
        return CachedSection(Section(**raw["section"]),
                             [ClaimResult(**{**c, "seen": [tuple(s) for s in c["seen"]]}) for c in raw["claims"]],
                             raw["samples"], raw["labs"])
    except (ValueError, KeyError, TypeError):
        return None  # written by other code: render again


def save(cache_dir: Path, key: str, cached: CachedSection) -> None:
    folder = cache_dir / "sections"
    write_atomically(folder / f"{key}.json", json.dumps({
        "section": asdict(cached.section), "claims": [asdict(c) for c in cached.claims],
        "samples": cached.samples, "labs": cached.labs}))
    for old in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)[:-KEEP]:
        old.unlink(missing_ok=True)
