"""The browser test harness: dist/ served on a loopback port, Debian's Chromium driven by
Playwright, and pages that fail their test on any console error or any request that leaves
the loopback server.

Fixtures
    site_url      "http://127.0.0.1:<port>/", serving dist/ (session)
    browser       headless Chromium (session)
    make_page     make_page(**context_options) -> a guarded page in a new context
    page          make_page() at 1280x900
    run_axe       run_axe(page, tags=...) -> axe-core violations (list of dicts)
    screenshot    screenshot(page, name) -> path of a full-page PNG in test-artifacts/screenshots/

A guard's record is `page.rag_guard` (console_errors, requests, foreign); a test that
triggers a console error on purpose calls `page.rag_guard.allow_console_error("substring")`.
The module skips only when dist/index.html is missing (run `python build.py` first).
"""

import functools
import threading
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from harness import AXE_JS, AXE_TAGS, CHROMIUM_ARGS, DIST, SCREENSHOTS, QuietHandler, chromium_path

LOCAL_SCHEMES = ("data", "file", "about", "blob")


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    if not (DIST / "index.html").is_file():
        pytest.skip(f"{DIST / 'index.html'} does not exist: build the site first (python build.py)")
    return DIST


@pytest.fixture(scope="session")
def site_url(dist_dir):
    handler = functools.partial(QuietHandler, directory=str(dist_dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="dist-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# ----------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser(dist_dir):
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if not Path(executable).exists():
        pytest.fail(f"Chromium not found at {executable}: install it (bash scripts/install-system-deps.sh)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class PageGuard:
    """What one page did: console errors, every request, and requests that left the site."""

    origin: str
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
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

    def route(self, route) -> None:
        # Nothing leaves the machine even when a test is about to fail for it.
        if self.is_local(route.request.url):
            route.continue_()
        else:
            route.abort()

    def allow_console_error(self, substring: str) -> None:
        self.allowed_errors.append(substring)

    def problems(self) -> list[str]:
        errors = [e for e in self.console_errors if not any(a in e for a in self.allowed_errors)]
        found = [f"console error: {e}" for e in errors]
        found += [f"request left the loopback server: {url}" for url in self.foreign]
        return found


@pytest.fixture
def make_page(browser, site_url, request):
    """make_page(**context_options): a new context and page, guarded (see PageGuard)."""
    contexts = []
    guards = []
    request.node.rag_guards = guards

    def make(**options):
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(**options)
        contexts.append(context)
        guard = PageGuard(site_url)
        guards.append(guard)
        context.route("**/*", guard.route)
        context.on("request", guard.on_request)
        page = context.new_page()
        page.on("console", guard.on_console)
        page.on("pageerror", guard.on_page_error)
        page.rag_guard = guard
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(make_page):
    return make_page()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail the test itself (not its teardown) when a guarded page misbehaved."""
    result = yield
    problems = [p for guard in getattr(item, "rag_guards", []) for p in guard.problems()]
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)
    return result


# ----------------------------------------------------------------- helpers


def run_axe(page, tags=AXE_TAGS) -> list[dict]:
    """axe-core's violations for the page as it is now: [{id, impact, help, nodes}, ...].

    axe is evaluated through DevTools (page.evaluate), which the page's CSP does not block,
    unlike an injected inline <script>.
    """
    if not AXE_JS.is_file():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` (make deps)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text("utf-8") + "\n;true")
    return page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                                    resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 8).map(n => n.target.join(" ") + " :: " +
                                                   (n.failureSummary || "").replace(/\\s+/g, " "))}));
        }""", list(tags))


FULL_PAGE_LIMIT = 16_000  # px; a full-page capture of the whole explainer takes Chromium minutes


def screenshot(page, name: str) -> Path:
    """Save a full-page PNG as test-artifacts/screenshots/<name>.png and return its path.

    A page taller than FULL_PAGE_LIMIT is captured from its top down to that height, through a
    viewport that tall, instead of in full.
    """
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


@pytest.fixture(name="run_axe")
def run_axe_fixture():
    return run_axe


@pytest.fixture(name="screenshot")
def screenshot_fixture():
    return screenshot
