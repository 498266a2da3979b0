"""The browser harness: a static server for the built site, Debian's Chromium driven by
Playwright (never a browser of its own), pages that fail their test on any console error or
any request that leaves the loopback server, axe-core, and screenshots.

The fixtures that use these are in the root conftest.py.
"""

import time
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from builder.serve import SITE_TYPES
from support.paths import AXE_JS, SCREENSHOTS

AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21aa")
LOCAL_SCHEMES = ("data", "file", "about", "blob")
SLOW_NETWORK = "slow-network"
PAUSE_AT = "pause-at"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 780}}


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves a folder without logging every request to stderr. A page asked for with the query
    SLOW_NETWORK (index.html?slow-network#...) arrives as on a slow network: in pieces of
    TRICKLE_BYTES every TRICKLE_PAUSE seconds, so the browser reads and paints it while the rest
    is still coming. One asked for with PAUSE_AT (index.html?pause-at=N#...) arrives in two
    parts: its first N bytes, then, PAUSE seconds later, the rest."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **SITE_TYPES}
    TRICKLE_BYTES = 4 * 1024
    TRICKLE_PAUSE = 0.01
    PAUSE = 1.5

    def copyfile(self, source, outputfile):
        query = urlsplit(self.path).query
        if query.startswith(f"{PAUSE_AT}="):
            outputfile.write(source.read(int(query.split("=", 1)[1])))
            outputfile.flush()
            time.sleep(self.PAUSE)
            return super().copyfile(source, outputfile)
        if query != SLOW_NETWORK:
            return super().copyfile(source, outputfile)
        while piece := source.read(self.TRICKLE_BYTES):
            outputfile.write(piece)
            outputfile.flush()
            time.sleep(self.TRICKLE_PAUSE)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


@dataclass
class PageGuard:
    """What one page did: console errors, every request, and requests that left the site."""

    origin: str
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    allowed_errors: list[str] = field(default_factory=list)

    def is_local(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme in LOCAL_SCHEMES:
            return True
        return f"{parts.scheme}://{parts.netloc}/" == self.origin

    def on_console(self, message) -> None:
        if message.type == "error":
            where = message.location or {}
            self.console_errors.append(f"{message.text} ({where.get('url', '?')}:{where.get('lineNumber', '?')})")

    def on_page_error(self, error) -> None:
        self.console_errors.append(f"uncaught exception: {error}")

    def on_request(self, request) -> None:
        self.requests.append(request.url)
        if not self.is_local(request.url):
            self.foreign.append(request.url)

    def on_response(self, response) -> None:
        # A file the page asks for that is not there (a favicon a template links and the build
        # never wrote) shows no console error in headless Chromium: only its status tells.
        if response.status >= 400 and self.is_local(response.url):
            self.failed.append(f"{response.status} {response.url}")

    def route(self, route) -> None:
        # Nothing leaves the machine even when a test is about to fail for it.
        if self.is_local(route.request.url):
            route.continue_()
        else:
            route.abort()

    def allow_console_error(self, substring: str) -> None:
        """A console error, or a failed request, whose text holds `substring` is expected."""
        self.allowed_errors.append(substring)

    def problems(self) -> list[str]:
        errors = [e for e in self.console_errors if not any(a in e for a in self.allowed_errors)]
        found = [f"console error: {e}" for e in errors]
        found += [f"request left the loopback server: {url}" for url in self.foreign]
        found += [f"request failed: {failure}" for failure in self.failed
                  if not any(a in failure for a in self.allowed_errors)]
        return found


def load_axe(page) -> None:
    """axe-core, evaluated through DevTools (page.evaluate), which the page's CSP does not
    block, unlike an injected inline <script>."""
    if not AXE_JS.is_file():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` (make deps)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text("utf-8") + "\n;true")


def colour_rules(page, tags=AXE_TAGS) -> list[str]:
    """The ids of axe's rules among `tags` that judge colours (its category cat.color: text
    contrast, links told from text by colour): all a change of theme can change, since a theme
    sets colours only (styles/tokens.css)."""
    load_axe(page)
    return page.evaluate("tags => axe.getRules(['cat.color']).filter(r => r.tags.some(t => tags.includes(t)))"
                         ".map(r => r.ruleId)", list(tags))


def run_axe(page, tags=AXE_TAGS, include: list[str] | None = None, rules: list[str] | None = None) -> list[str]:
    """axe-core's violations for the page as it is now (or only inside the elements with the
    given ids; only the rules named in `rules`, when given), one line each: 'rule: help :: where'."""
    load_axe(page)
    return page.evaluate("""async ([tags, ids, rules]) => {
        const context = ids ? {include: ids.filter(id => document.getElementById(id)).map(id => ['#' + id])} : document;
        const only = rules ? {type: 'rule', values: rules} : {type: 'tag', values: tags};
        const result = await axe.run(context, {runOnly: only, resultTypes: ['violations']});
        return result.violations.map(v => v.id + ': ' + v.help + ' :: ' +
            v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(' | '));
    }""", [list(tags), include, rules])


FULL_PAGE_LIMIT = 8_000  # px: the top of the page (every lab has a shot of its own); all of it takes Chromium minutes


def screenshot(page, name: str) -> Path:
    """A PNG of the page from its top, test-artifacts/screenshots/<name>.png (at most
    FULL_PAGE_LIMIT px tall: the whole page is far taller)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if page.evaluate("() => document.documentElement.scrollHeight") <= FULL_PAGE_LIMIT:
        page.screenshot(path=str(path), full_page=True)
        return path
    size = page.viewport_size
    page.evaluate("() => window.scrollTo(0, 0)")
    page.set_viewport_size({"width": size["width"], "height": FULL_PAGE_LIMIT})
    try:
        page.screenshot(path=str(path))
    finally:
        page.set_viewport_size(size)
    return path


def element_screenshot(page, selector: str, name: str) -> Path:
    """A PNG of one element, test-artifacts/screenshots/<name>.png (see element_screenshots)."""
    return element_screenshots(page, {selector: name})[0]


SHOT_LIMIT = 4_000  # px: an element's shot shows at most its top this tall


def element_screenshots(page, shots: dict[str, str]) -> list[Path]:
    """PNGs of elements ({selector: name} -> test-artifacts/screenshots/<name>.png each), with
    one change of the viewport for all: it grows to the tallest element's height first (at most
    SHOT_LIMIT), since Chromium's element screenshots of elements taller than the viewport time
    out on this long page, and each change of size lays the whole page out again (the labs' shots
    once took two resizes each). An element taller than SHOT_LIMIT is shot from its top to the
    limit: the quiz answered at 360 px is 19,000 px tall, an image nobody reads whole, which took
    a 19,000 px viewport and about a CPU-second a shot.

    Example: element_screenshots(page, {"#lab-bm25": "lab-bm25-desktop-dark"})"""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    heights = [page.locator(selector).first.evaluate("el => Math.ceil(el.getBoundingClientRect().height)")
               for selector in shots]
    tallest = min(SHOT_LIMIT, max(heights + [0]))
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], tallest + 40)})
    paths = []
    try:
        for (selector, name), height in zip(shots.items(), heights):
            path = SCREENSHOTS / f"{name}.png"
            element = page.locator(selector).first
            if height <= SHOT_LIMIT:
                element.screenshot(path=str(path))
            else:
                box = element.evaluate("""el => { el.scrollIntoView({block: 'start'});
                    const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, width: r.width}; }""")
                page.screenshot(path=str(path), clip={**box, "height": SHOT_LIMIT})
            paths.append(path)
    finally:
        page.set_viewport_size(size)
    return paths


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]


def main_thread_tasks(trace) -> list[dict]:
    """The page's main-thread tasks in a Chromium trace: wall time and CPU time, in ms. A drag's
    budget ("no task over 50 ms") is read in CPU time: this machine is shared, and the time another
    process holds the CPU lengthens a task's wall time without being the page's work."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    return [{"wall": e["dur"] / 1000, "cpu": e.get("tdur", e["dur"]) / 1000} for e in events
            if e.get("name") == "RunTask" and e.get("ph") == "X" and (e["pid"], e["tid"]) in mains]

