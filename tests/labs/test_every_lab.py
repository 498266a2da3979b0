"""What every lab owes the page, checked for each of them by name (builder/labs/LABS): it is one
unit whose files are where its name says; it draws, when its script starts, exactly what its
template drew for readers without JavaScript; it starts only when the reader reaches it or a
link targets it; a link to one of its states lands at once and stays put on a slow phone; and
whatever goes wrong in it shows in it."""

import difflib
import json
import re

import pytest
from playwright.sync_api import expect

from builder.labs import LABS
from support.labs import LAB_NAMES, drawn, lab, open_page, outline
from support.paths import ROOT

LAB_FILE = re.compile(r"/assets/labs/([a-z0-9-]+)\.js")


# ------------------------------------------------------------ one unit, one name


@pytest.mark.parametrize("name", LAB_NAMES)
def test_a_lab_is_one_unit_found_by_its_name(name):
    module = next(lab for lab in LABS if lab.NAME == name)
    assert module.__name__ == f"builder.labs.{name}"
    assert callable(module.data) and isinstance(module.STATE, dict)
    folder = ROOT / "site_src" / "labs" / name
    assert (folder / "lab.html").is_file() and (folder / "lab.js").is_file()
    assert f'RAG.lab("{name}"' in (folder / "lab.js").read_text("utf-8"), "lab.js must define the lab by its name"
    assert '{% extends "_lab.html" %}' in (folder / "lab.html").read_text("utf-8")
    assert (ROOT / "tests" / "labs" / f"test_{name}.py").is_file()


def test_every_lab_folder_is_a_listed_lab():
    folders = {p.name for p in (ROOT / "site_src" / "labs").iterdir() if p.is_dir()}
    assert folders == set(LAB_NAMES), "a folder in site_src/labs/ that builder/labs/LABS does not list, or the reverse"


def test_the_page_places_every_lab_once(dist_dir):
    html = (dist_dir / "index.html").read_text("utf-8")
    assert re.findall(r'<section class="lab[^"]*" data-lab="([a-z0-9-]+)"', html) == list(LAB_NAMES)
    for name in LAB_NAMES:
        assert (dist_dir / "assets" / "labs" / f"{name}.js").is_file()


# ------------------------------------------------- the same drawing, with and without JavaScript


@pytest.fixture(scope="module")
def two_pages(make_page_module, site_url):
    """The page without JavaScript (the templates' drawings) and with it (the scripts')."""
    return (open_page(make_page_module, site_url, java_script_enabled=False),
            open_page(make_page_module, site_url))


@pytest.mark.browser
@pytest.mark.parametrize("name", LAB_NAMES)
def test_the_script_starts_by_drawing_exactly_what_the_template_drew(two_pages, name):
    static, live = two_pages
    template = drawn(static.locator(f"#lab-{name}"))
    script = drawn(lab(live, name))
    if template != script:
        diff = "\n".join(difflib.unified_diff(outline(template), outline(script), "template (no JavaScript)",
                                              "script (when it started)", lineterm="", n=2))
        pytest.fail(f"lab {name}: the script's first drawing differs from the template's:\n{diff[:6000]}",
                    pytrace=False)


# --------------------------------------------------------------- lazy start


@pytest.mark.browser
def test_no_lab_starts_at_load_and_each_starts_when_the_reader_reaches_it(make_page, site_url):
    page = open_page(make_page, site_url)
    page.wait_for_timeout(300)
    assert page.evaluate("() => [...document.querySelectorAll('section.lab[data-lab-state]')].length") == 0
    assert not [url for url in page.rag_guard.requests if LAB_FILE.search(url) or "/assets/data.js" in url]
    for name in LAB_NAMES:
        lab(page, name)  # scrolls to it, as a reader would, and waits for it to be ready
    started = [LAB_FILE.search(url).group(1) for url in page.rag_guard.requests if LAB_FILE.search(url)]
    assert sorted(started) == sorted(LAB_NAMES), "each lab's file is loaded once"


@pytest.mark.browser
def test_a_link_to_a_lab_starts_it_at_once_and_leaves_the_others_alone(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-recall?k=5")
    section = page.locator("#lab-recall")
    expect(section).to_have_attribute("data-lab-state", "ready")
    far = [name for name in ("chunking", "bm25", "quiz")]
    assert page.evaluate("(names) => names.map(n => document.getElementById('lab-' + n).dataset.labState || null)", far) \
        == [None, None, None]


# A phone's CPU, next to this machine's: Chromium's CPU throttling, as a slowdown factor. (The
# benchmark, scripts/bench.py, also reports the landing time with Lighthouse's factor of 4.)
PHONE_SLOWDOWN = 2

# Installed before the page's own scripts: after every frame is painted (a task posted from the
# frame's requestAnimationFrame callback), where the target is, once it exists.
FRAMES_JS = """(() => {
  const id = %s;
  const frames = window.__frames = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const el = document.getElementById(id);
    if (el) frames.push([performance.now(), el.getBoundingClientRect().top]);
  };
  const frame = () => { channel.port2.postMessage(0); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();"""


@pytest.mark.browser
@pytest.mark.parametrize("link", ["#lab-bm25?q=g05", "#lab-permissions?reader=staff&q=g11&k=5", "#glossary"])
def test_a_shared_link_lands_within_a_second_on_a_slow_phone_and_stays(make_page, site_url, link):
    """Every painted frame counts, from the runtime's "rag:landed" mark on: a target put 200 px
    low and corrected 100 ms later fails, as it would for the reader who saw it move."""
    page = make_page(viewport={"width": 390, "height": 844}, reduced_motion="reduce", is_mobile=True, has_touch=True)
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_SLOWDOWN})
    target = link.split("?")[0][1:]
    page.add_init_script(FRAMES_JS % json.dumps(target))
    page.goto(site_url + "index.html" + link, wait_until="commit")
    page.wait_for_timeout(3500)
    landed = page.evaluate("() => (performance.getEntriesByName('rag:landed')[0] || {}).startTime")
    assert landed is not None and landed <= 1000, f"{link}: the runtime put the reader at the target at {landed} ms"
    frames = [(round(t), round(top)) for t, top in page.evaluate("() => window.__frames") if t >= landed]
    assert frames and frames[-1][0] >= 3000, f"{link}: too few frames were painted to judge ({frames[-3:]})"
    off = [(t, top) for t, top in frames if not 0 <= top <= 120]
    assert not off, f"{link}: after landing at {landed:.0f} ms, frames (ms, top px) with the target off the top: {off[:8]}"
    moved = [(t, top) for t, top in frames if abs(top - frames[0][1]) > 1]
    assert not moved, f"{link}: landed at {frames[0][1]}px, then moved (ms, top px): {moved[:8]}"


# --------------------------------------------------------------- errors show in the lab


@pytest.mark.browser
def test_an_error_thrown_later_in_a_handler_shows_in_its_lab(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-hybrid")
    section = lab(page, "hybrid")
    page.rag_guard.allow_console_error("lab hybrid failed")
    page.evaluate("() => { RAG.fixed = () => { throw new Error('a deliberate fault'); }; }")
    section.locator('select[data-picker="question"]').select_option("g05")
    expect(section.locator(".lab-error")).to_be_visible()
    expect(section.locator(".lab-error")).to_contain_text("a deliberate fault")
    expect(section).to_have_attribute("data-lab-state", "error")


@pytest.mark.browser
def test_a_lab_whose_script_cannot_load_says_which_file(make_page, site_url):
    page = make_page(reduced_motion="reduce")
    page.route("**/assets/labs/recall.js*", lambda route: route.fulfill(status=404, body="gone"))
    page.rag_guard.allow_console_error("recall")
    page.rag_guard.allow_console_error("404")
    page.goto(site_url + "index.html#lab-recall")
    box = page.locator("#lab-recall .lab-error")
    expect(box).to_be_visible()
    expect(box).to_contain_text("assets/labs/recall.js could not be loaded")
    assert page.locator("#lab-recall .recall-table").count() == 1, "the default state stays"


@pytest.mark.browser
def test_data_of_another_schema_is_refused_in_every_lab_that_starts(make_page, site_url, dist_dir):
    page = make_page(reduced_motion="reduce")
    body = (dist_dir / "assets" / "data.js").read_text("utf-8")
    wrong = re.sub(r'"schema":\d+', '"schema":999', body, count=1)
    page.route("**/assets/data.js*", lambda route: route.fulfill(status=200, body=wrong, content_type="text/javascript"))
    page.rag_guard.allow_console_error("schema 999")
    page.goto(site_url + "index.html#lab-hybrid")
    for name in ("hybrid", "rerank"):
        page.locator(f"#lab-{name}").scroll_into_view_if_needed()
        expect(page.locator(f"#lab-{name} .lab-error")).to_contain_text("schema 999")
