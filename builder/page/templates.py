"""The Jinja environment every page is rendered with: templates from site_src/templates,
HTML autoescaping always on, undefined names an error rather than an empty string."""

from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from builder.template_cache import bytecode_cache

SITE_SRC = Path(__file__).resolve().parent.parent / "site_src"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(SITE_SRC / "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, bytecode_cache=bytecode_cache())
    env.filters["score"] = lambda value, digits=3: f"{value:.{digits}f}"
    return env
