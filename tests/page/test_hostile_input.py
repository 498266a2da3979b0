"""Hostile text in every corpus field that reaches the page: nothing executes, the text shows
literally, and the layout holds. The corpus is copied, laced with payloads, and built (in this
process, with a stand-in for the model)."""

import functools
import json
import shutil
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

import engine.dense
from builder.pipeline import build_site
from support.browser import QuietHandler
from support.caches import copy_warm_cache
from support.exercise import exercise_labs
from support.stand_in_model import stand_in_embed

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src="x" onerror="window.__pwned=2">'
LINK = '<a href="javascript:window.__pwned=3">click</a>'
MARKUP = f'{SCRIPT} {IMG} {LINK} "quoted" &amp; & </source> \u202eevil\u202c'
LONG_WORD = "Supercalifragilistic" * 6
PAYLOADS = [SCRIPT, IMG, LINK, "</source>", "\u202e", LONG_WORD]


def lace(corpus: Path) -> None:
    """Put payloads in text, title, section, URL, questions, quotes, answers, glossary, lab page."""
    forum = corpus / "help" / "forum.md"
    text = forum.read_text("utf-8")
    title_start = text.index("title: ") + len("title: ")
    title_end = text.index("\n", title_start)
    text = text[:title_start] + json.dumps(f"{SCRIPT} {text[title_start:title_end]}") + text[title_end:]
    heading = text.index("\n## ") + 1
    end_of_heading = text.index("\n", heading)
    text = text[:end_of_heading] + f" {IMG}" + text[end_of_heading:]
    body = text.index("\n\n", heading) + 2
    text = text[:body] + f"{MARKUP} {LONG_WORD} " + text[body:]
    forum.write_text(text, "utf-8")

    errors = corpus / "help" / "errors.md"
    errors.write_text(errors.read_text("utf-8").replace(
        "url: https://help.quillbox.example/errors", 'url: /errors?x="><script>window.__pwned=4</script>', 1), "utf-8")

    golden = corpus / "golden.yaml"
    lines = golden.read_text("utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("- question: "))
    lines[first] = lines[first] + " " + json.dumps(IMG)[1:-1].replace('\\"', "'")
    golden.write_text("\n".join(lines), "utf-8")

    tracers = corpus / "tracers.yaml"
    t = tracers.read_text("utf-8")
    t = t.replace("  answer_text: >-\n", f"  answer_text: >-\n    {SCRIPT} {LONG_WORD}\n", 1)
    tracers.write_text(t, "utf-8")

    glossary = corpus / "glossary.yaml"
    g = glossary.read_text("utf-8")
    g = g.replace("  definition: ", f"  definition: {json.dumps(IMG)[1:-1]} ", 1)
    glossary.write_text(g, "utf-8")

    injection = corpus / "injection.yaml"
    i = injection.read_text("utf-8")
    injection.write_text(i.replace("obeyed: ", f"obeyed: {json.dumps(SCRIPT)[1:-1]} ", 1)
                         if "obeyed: " in i and "obeyed: >" not in i and "obeyed: |" not in i
                         else i.replace("obeyed: >-\n", f"obeyed: >-\n  {SCRIPT}\n", 1), "utf-8")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory, built_site):  # built_site: it leaves the project's caches warm, copied below
    base = tmp_path_factory.mktemp("hostile")
    corpus = base / "corpus"
    shutil.copytree(ROOT / "corpus", corpus)
    lace(corpus)
    cache = base / "cache"
    copy_warm_cache(cache)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine.dense, "embed", stand_in_embed)
        build_site(corpus, base / "dist", cache, strict_claims=False,
                   live="off")  # (typed hostile input reaches the live model in test_ask.py)
    handler = functools.partial(QuietHandler, directory=str(base / "dist"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", base / "dist"
    server.shutdown()
    server.server_close()


def all_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from all_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_strings(item)


def open_guarded(browser, url, width=1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    events = {"dialogs": [], "errors": [], "foreign": []}
    page.on("dialog", lambda dialog: (events["dialogs"].append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: events["errors"].append(str(error)))
    origin = url.split("/")[2]

    def route(route):
        if route.request.url.split("/")[2] != origin and not route.request.url.startswith(("data:", "about:")):
            events["foreign"].append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", route)
    page.goto(url)
    return context, page, events


def test_the_payloads_reached_the_built_data(hostile_site):
    _, dist = hostile_site
    data = json.loads((dist / "data" / "rag.json").read_text())
    strings = list(all_strings(data))
    for payload in PAYLOADS:
        assert any(payload in text for text in strings), f"payload {payload!r} never reached the data"
    html = (dist / "index.html").read_text()
    assert "window.__pwned" in html  # present, escaped, in the labs' default states
    bundles = "".join(p.read_text() for p in (dist / "assets").rglob("*.js"))
    assert "window.__pwned" in bundles  # and in the data the labs load, as JSON strings


@pytest.mark.parametrize("page_name", ["index.html", "corpus.html"])
def test_nothing_executes_and_text_shows_literally(browser, hostile_site, page_name):
    url, _ = hostile_site
    context, page, events = open_guarded(browser, url + page_name)
    try:
        if page_name == "index.html":
            assert exercise_labs(page) > 0 or not page.locator("section.lab").count()
            for term in page.locator("a.term").all()[:5]:
                term.hover()
        page.wait_for_timeout(200)
        assert page.evaluate("window.__pwned") is None
        assert events["dialogs"] == [] and events["errors"] == [] and events["foreign"] == []
        assert page.locator("script:not([src]):not([type='application/json'])").count() == 0
        if page_name == "corpus.html":
            text = page.locator("body").inner_text()
            assert SCRIPT in text and IMG in text and LINK in text
            assert page.locator("a[href^='javascript:']").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("page_name", ["index.html", "corpus.html"])
def test_the_layout_holds_at_360_px(browser, hostile_site, page_name):
    url, _ = hostile_site
    context, page, events = open_guarded(browser, url + page_name, width=360)
    try:
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{page_name} scrolls sideways by {overflow} px at 360 px"
    finally:
        context.close()
