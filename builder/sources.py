"""Where the page is made from: site_src/ (its sections, labs, views, templates, runtime, styles
and samples), or the folder the environment variable RAG_EXPLAINER_SITE_SRC names (a test builds a
copy holding one more lab that way). Also the sections' index, read from their files.

Example: section_slugs()[:2] -> ('short-version', 'why-not-paste')
"""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE_SRC = Path(os.environ.get("RAG_EXPLAINER_SITE_SRC") or ROOT / "site_src").resolve()
SECTIONS = SITE_SRC / "sections"
LABS = SITE_SRC / "labs"
VIEWS = SITE_SRC / "views"
SECTION_FILE = re.compile(r"(\d+)-([a-z0-9-]+)\.md")


def section_files(sections_dir: Path = SECTIONS) -> list[Path]:
    """The page's sections in page order: sections/NN-slug.md."""
    return sorted(sections_dir.glob("*.md"))


def section_index(sections_dir: Path = SECTIONS) -> list[dict]:
    """[{slug, number, title}] of the page's sections, from their file names and first lines."""
    index = []
    for path in section_files(sections_dir):
        match = SECTION_FILE.fullmatch(path.name)
        if not match:
            continue
        first = path.read_text("utf-8").partition("\n")[0]
        index.append({"slug": match.group(2), "number": int(match.group(1)),
                      "title": first[2:].strip() if first.startswith("# ") else match.group(2)})
    return index


def section_slugs(sections_dir: Path = SECTIONS) -> tuple[str, ...]:
    return tuple(entry["slug"] for entry in section_index(sections_dir))
