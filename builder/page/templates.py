"""The Jinja environment every page is rendered with: the page's templates from
site_src/templates, each lab's from site_src/labs/<name>/lab.html (named "<name>/lab.html"),
HTML autoescaping always on, undefined names an error rather than an empty string.

Example: environment().get_template("hybrid/lab.html") is site_src/labs/hybrid/lab.html
"""

import re
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from builder.page.template_cache import bytecode_cache

SITE_SRC = Path(__file__).resolve().parents[2] / "site_src"
SECTIONS = SITE_SRC / "sections"
LABS = SITE_SRC / "labs"
SECTION_FILE = re.compile(r"(\d+)-([a-z0-9-]+)\.md")


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader([SITE_SRC / "templates", LABS]), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, bytecode_cache=bytecode_cache())
    env.filters["score"] = lambda value, digits=3: f"{value:.{digits}f}"
    return env


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
