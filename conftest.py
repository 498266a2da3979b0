"""The fixtures every test shares, in tests/ and in each lab folder (the one conftest.py of the project; helpers are
plain modules in tests/support/).

    built_site     the site, built once per session from the current sources into
                   .cache/test-site/, in the background from collection on (tests/support/
                   session_site.py); fails, with the build's own message, when it can't be
    dist_dir       its folder;  data: its data/rag.json
    site_url       "http://127.0.0.1:<port>/", serving it (session)
    browser        headless Debian Chromium (session)
    make_page      make_page(**context_options) -> a guarded page in a new context
    page           make_page() at 1280x900
    corpus         a fresh copy of the small valid corpus (tests/corpus/fixtures/valid/)
    views          the labs' views in Node, drawing any state from the built site's files (session)

A guarded page fails its test on any console error, any request that leaves the loopback
server, or any request the server answers with an error (a missing file); a test that causes a console error on purpose calls
page.rag_guard.allow_console_error("substring").
"""

import functools
import json
import os
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from support import run_order, session_site
from support.browser import PageGuard, QuietHandler
from support.chromium import CHROMIUM_ARGS, chromium_path
from support.mini_corpus import MiniCorpus
from support.paths import ROOT, TEST_SITE

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# One thread for torch's kernels in each test process and each build a test starts: `make test`
# runs two workers on two cores, and a model that takes both starves the other worker's
# CPU-throttled browser, whose frames some tests time. (Embedding runs each pass on one thread
# anyway, engine/models.py; onnxruntime is given one too.)
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site built from the current sources for this run (tests/support/session_site.py: started
    in the background once the session has collected, so the tests that need no site run
    meanwhile), with the project's caches: a warm build takes a second or two and loads no
    model. Tests only read it."""
    try:
        return session_site.ready(session_site.run_id())
    except session_site.BuildFailed as failure:
        pytest.fail(f"the site does not build, so the tests that need it cannot run.\n"
                    f"Run `python build.py` and fix what it says:\n{failure}", pytrace=False)


@pytest.fixture(scope="session")
def dist_dir(built_site) -> Path:
    return built_site


@pytest.fixture(scope="session")
def data(built_site) -> dict:
    return json.loads((built_site / "data" / "rag.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def views(built_site):
    from support.views import LabViews

    renderer = LabViews(built_site)
    yield renderer
    renderer.close()


@pytest.fixture
def corpus(tmp_path) -> MiniCorpus:
    return MiniCorpus(tmp_path / "corpus")


# ----------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def site_url(dist_dir):
    handler = functools.partial(QuietHandler, directory=str(dist_dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
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


class PageMaker:
    """make(**context_options): a new browser context and page, guarded (see PageGuard)."""

    def __init__(self, browser, site_url):
        self.browser, self.site_url = browser, site_url
        self.contexts, self.guards = [], []

    def __call__(self, **options):
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = self.browser.new_context(**options)
        self.contexts.append(context)
        guard = PageGuard(self.site_url)
        self.guards.append(guard)
        context.route("**/*", guard.route)
        context.on("request", guard.on_request)
        context.on("response", guard.on_response)
        page = context.new_page()
        page.on("console", guard.on_console)
        page.on("pageerror", guard.on_page_error)
        page.rag_guard = guard
        return page

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def make_page(browser, site_url, request):
    """make_page(**context_options) -> a guarded page, closed after the test."""
    maker = PageMaker(browser, site_url)
    request.node.rag_guards = maker.guards
    yield maker
    maker.close()


@pytest.fixture(scope="module")
def make_page_module(browser, site_url, request):
    """The same, for pages a module's tests share (opened once, closed after the module). Their
    guards are checked after every test of the module."""
    maker = PageMaker(browser, site_url)
    request.module.rag_module_guards = maker.guards
    yield maker
    maker.close()


@pytest.fixture
def page(make_page):
    return make_page()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail the test itself (not its teardown) when a guarded page misbehaved."""
    result = yield
    guards = getattr(item, "rag_guards", []) + getattr(item.module, "rag_module_guards", [])
    problems = [p for guard in guards for p in guard.problems()]
    for guard in getattr(item.module, "rag_module_guards", []):
        guard.console_errors.clear()  # a shared page's fault is reported once, by the test it happened in
        guard.foreign.clear()
        guard.failed.clear()
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)
    return result


# ----------------------------------------------------------------- order

DURATIONS = ROOT / "tests" / "durations.json"


def pytest_addoption(parser):
    parser.addoption("--write-durations", action="store_true",
                     help=f"write each test file's seconds in this run to {DURATIONS.relative_to(ROOT)}, "
                          "which orders the files of later runs")


def pytest_collection_modifyitems(items):
    """The files that need no site first, then the navigation readings, then the rest, longest
    first (tests/support/run_order.py)."""
    run_order.order(items, json.loads(DURATIONS.read_text("utf-8")) if DURATIONS.is_file() else {}, ROOT)


_BACKGROUND_BUILD: list = []
_NEIGHBOURS = run_order.Neighbours(TEST_SITE, session_site.run_id(), os.environ.get("PYTEST_XDIST_WORKER", "main"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A navigation reading (marked `timing`) starts once no other worker runs a test that loads
    the model or builds (tests/support/run_order.py Neighbours); those say so while they run."""
    heavy = run_order.is_heavy(item)
    if item.get_closest_marker("timing"):
        _NEIGHBOURS.wait_for_quiet()
    if heavy:
        _NEIGHBOURS.running(True)
    try:
        return (yield)
    finally:
        if heavy:
            _NEIGHBOURS.running(False)


def pytest_collection_finish(session):
    """Start the site's build in the background once a test that needs it is collected (the first
    worker to get here starts it; tests/support/session_site.py)."""
    if any(run_order.needs_site(item) for item in session.items):
        process = session_site.start_in_background(session_site.run_id())
        if process is not None:
            _BACKGROUND_BUILD.append(process)


def pytest_unconfigure(config):
    for process in _BACKGROUND_BUILD:
        session_site.stop(process)


# ----------------------------------------------------------------- time per folder and file

_FOLDER_SECONDS: dict[str, float] = {}
_FILE_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report):
    path = report.nodeid.split("::")[0]
    folder = path.rsplit("/", 1)[0]
    _FOLDER_SECONDS[folder] = _FOLDER_SECONDS.get(folder, 0.0) + report.duration
    _FILE_SECONDS[path] = _FILE_SECONDS.get(path, 0.0) + report.duration


def pytest_sessionfinish(session):
    if session.config.getoption("--write-durations") and _FILE_SECONDS and not hasattr(session.config, "workerinput"):
        DURATIONS.write_text(json.dumps({path: round(seconds, 1) for path, seconds in sorted(_FILE_SECONDS.items())},
                                        indent=1) + "\n", "utf-8")


def pytest_terminal_summary(terminalreporter):
    """How long each test folder took (set-up, call and tear-down), to keep `make test` fast."""
    if not _FOLDER_SECONDS:
        return
    terminalreporter.section("time per test folder")
    for folder, seconds in sorted(_FOLDER_SECONDS.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{seconds:8.1f} s  {folder}")
