"""The Jinja environment every page is rendered with: the page's templates from
site_src/templates, each lab's from site_src/labs/<name>/lab.html (named "<name>/lab.html"),
HTML autoescaping always on, undefined names an error rather than an empty string.

Example: environment().get_template("hybrid/lab.html") is site_src/labs/hybrid/lab.html
"""

from functools import lru_cache

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from builder.page.template_cache import bytecode_cache
from builder.sources import LABS, SITE_SRC


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader([SITE_SRC / "templates", LABS]), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, bytecode_cache=bytecode_cache())
    env.filters["score"] = lambda value, digits=3: f"{value:.{digits}f}"
    return env
