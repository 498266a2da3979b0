"""What every lab owes the page, checked for each of them by name (builder/labs.py LABS): it is
one folder whose files are where its name says; every state its controls offer is drawn the same
by the build (for readers without JavaScript) and by the browser (Preact redrawing the same
view), proven for all of them in Node and for a sample in Chromium; when its script starts it
changes nothing the build drew; it starts only when the reader reaches it or a link targets it;
a link to one of its states lands at once and stays put on a slow phone; and whatever goes
wrong in it shows in it."""

import difflib
import json
import random
import re

import pytest
from playwright.sync_api import expect

from builder.labs import BY_NAME, LABS
from support.browser import SLOW_NETWORK
from support.labs import LAB_NAMES, drawn, kept_page, lab, open_again, open_deep_dive, open_page, outline
from support.paths import ROOT
from support.views import built_controls, check_views, control_axes, preset_states, range_keys


LAB_FILE = re.compile(r"/assets/labs/([a-z0-9-]+)\.js")


# ------------------------------------------------------------ one unit, one name


@pytest.mark.parametrize("name", LAB_NAMES)
def test_a_lab_is_one_folder_found_by_its_name(name):
    lab_ = next(lab for lab in LABS if lab.name == name)
    folder = ROOT / "site_src" / "labs" / name
    assert lab_.folder == folder and lab_.module.__name__ == f"site_src.labs.{name}.data"
    assert callable(lab_.module.data) and isinstance(lab_.state, dict)
    assert f'RAG.lab("{name}"' in (folder / "lab.js").read_text("utf-8"), "lab.js must define the lab by its name"
    assert '{% extends "_lab.html" %}' in (folder / "lab.html").read_text("utf-8")
    assert (folder / f"test_{name}.py").is_file()


def rules(css: str):
    """(enclosing at-rules, selector list) of every top-level style rule of a stylesheet, those
    inside @media, @container or @supports included (a rule nested in a rule is inside its parent)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found, stack, prelude = [], [], ""
    for char in css:
        if char == "{":
            stack.append(prelude.strip())
            prelude = ""
        elif char == "}":
            header = stack.pop()
            if header and not header.startswith("@") and all(h.startswith("@") and not h.startswith("@keyframes")
                                                              for h in stack):
                found.append((tuple(stack), header))
            prelude = ""
        elif char == ";":
            prelude = ""
        else:
            prelude += char
    return found


def selectors(selector_list: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside :is(), :not() ...)."""
    parts, depth, current = [], 0, ""
    for char in selector_list:
        depth += char == "(" or char == "["
        depth -= char == ")" or char == "]"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return parts + [current.strip()]


def scoped(path, scope: str, prefix: str) -> list[str]:
    """What a stylesheet breaks of its scope: each selector that does not start with `scope`, each
    @keyframes not named `prefix`-…, each container query that asks a container other than a view's."""
    css = path.read_text("utf-8") if path.is_file() else ""
    problems = [f"selector {selector}" for _, listed in rules(css) for selector in selectors(listed)
                if not selector.startswith(scope)]
    problems += [f"@keyframes {name}" for name in re.findall(r"@keyframes\s+([\w-]+)", css) if not name.startswith(f"{prefix}-")]
    return problems


@pytest.mark.parametrize("name", LAB_NAMES)
def test_a_labs_style_stays_in_its_lab(name):
    problems = scoped(BY_NAME[name].folder / "lab.css", f'[data-lab="{name}"]', name)
    assert not problems, (f"site_src/labs/{name}/lab.css: every selector must start with [data-lab=\"{name}\"] "
                          f"and every @keyframes be named {name}-…; these do not: {problems}")


VIEW_NAMES = tuple(dict.fromkeys(view for lab in LABS for view in lab.views))


@pytest.mark.parametrize("view", VIEW_NAMES)
def test_a_views_style_stays_in_its_view(view):
    """A view is drawn anywhere (site_src/views/): its style is scoped to its root, not to a lab,
    and its container queries ask its own root (container "view"), not the lab's output."""
    path = ROOT / "site_src" / "views" / f"{view}.css"
    problems = scoped(path, f'[data-view="{view}"]', view)
    problems += [f"@container {name}" for name in re.findall(r"@container\s+([\w-]+)\s*\(", path.read_text("utf-8"))
                 if name != "view"]
    assert not problems, (f"site_src/views/{view}.css: every selector must start with [data-view=\"{view}\"], every "
                          f"@keyframes be named {view}-…, every container query ask `view`; these do not: {problems}")


def test_the_style_check_finds_a_selector_that_leaks_out_of_its_lab():
    css = """[data-lab="x"] .a, .b { color: red; }
             @media (max-width: 40rem) { [data-lab="x"] :is(.c, .d) { margin: 0; } .e { margin: 0; } }"""
    found = [s for _, listed in rules(css) for s in selectors(listed)]
    assert found == ['[data-lab="x"] .a', ".b", '[data-lab="x"] :is(.c, .d)', ".e"]


def test_the_page_places_every_lab_once(dist_dir):
    html = (dist_dir / "index.html").read_text("utf-8")
    assert re.findall(r'<section class="lab[^"]*" data-lab="([a-z0-9-]+)"', html) == list(LAB_NAMES)
    for name in LAB_NAMES:
        assert (dist_dir / "assets" / "labs" / f"{name}.js").is_file()


# ------------------------------------------------- the same drawing, with and without JavaScript


# What has started once the page has loaded and gone idle: the labs with a state, and the lab
# files and data asked for (none of either, test_no_lab_starts_at_load_... says).
AT_LOAD_JS = """() => new Promise((done) => requestIdleCallback(() => requestAnimationFrame(() => requestAnimationFrame(() =>
    done([...document.querySelectorAll('section.lab[data-lab-state]')].map((s) => s.dataset.lab))))))"""


@pytest.fixture(scope="module")
def two_pages(make_page_module, site_url):
    """The page without JavaScript (the templates' drawings) and with it (the scripts'). The
    second is opened at its top, as a reader opens it: what had started once it loaded and went
    idle is kept in its `at_load` (started labs, requests for a lab's file or the data)."""
    static = open_page(make_page_module, site_url, java_script_enabled=False)
    live = open_page(make_page_module, site_url)
    live.at_load = {"started": live.evaluate(AT_LOAD_JS),
                    "asked": [url for url in live.rag_guard.requests if LAB_FILE.search(url) or "/assets/data.js" in url]}
    return static, live


@pytest.mark.browser
@pytest.mark.parametrize("name", LAB_NAMES)
def test_the_script_starts_by_drawing_exactly_what_the_template_drew(two_pages, dist_dir, name):
    static, live = two_pages
    controls = built_controls(dist_dir)
    template = drawn(static.locator(f"#lab-{name}"), controls)
    script = drawn(lab(live, name), controls)
    if template != script:
        diff = "\n".join(difflib.unified_diff(outline(template), outline(script), "template (no JavaScript)",
                                              "script (when it started)", lineterm="", n=2))
        pytest.fail(f"lab {name}: the script's first drawing differs from the template's:\n{diff[:6000]}",
                    pytrace=False)


# ------------------------------------------- every state: the build's drawing is the browser's


@pytest.fixture(scope="module")
def states(dist_dir, data):
    """lab -> the states its controls offer (every combination, or a seeded sample), default first."""
    controls = built_controls(dist_dir)
    return {name: preset_states(controls, name, data, BY_NAME[name].state) for name in LAB_NAMES}


def test_the_states_cover_every_combination_of_the_controls_or_a_sample_of_at_least_50(dist_dir, data, states):
    """A sample holds every value of each picker, radio, select and checkbox, and both ends of
    each range: a value only one state has is drawn, and so is each slider's first and last stop."""
    controls = built_controls(dist_dir)
    for name in LAB_NAMES:
        axes = control_axes(controls, name, data)
        combinations = 1
        for values in axes.values():
            combinations *= len(values)
        assert len(states[name]) >= min(combinations, 50), name
        assert states[name][0] == BY_NAME[name].state
        ranges = range_keys(controls, name)
        for key, values in axes.items():
            drawn = {state[key] for state in states[name]}
            wanted = {values[0], values[-1]} if key in ranges else set(values)
            assert wanted <= drawn, f"lab {name}: no state draws {key} = {sorted(wanted - drawn, key=str)}"


def test_every_state_is_drawn_the_same_by_the_build_and_by_the_browsers_renderer(dist_dir, states):
    """In Node: each state's HTML from the build's renderer, parsed, against the DOM Preact leaves
    after redrawing that state over the previous one (the first over the build's HTML)."""
    report = check_views(dist_dir, states)
    assert not report["errors"], "\n".join(f"{e['lab']} {e['state']}: {e['error']}" for e in report["errors"][:5])
    problems = []
    for mismatch in report["mismatches"]:
        build, browser = json.loads(mismatch["build"]), json.loads(mismatch["browser"])
        diff = "\n".join(difflib.unified_diff(outline(build), outline(browser), "build", "browser", lineterm="", n=2))
        problems.append(f"lab {mismatch['lab']}, state {mismatch['state']}:\n{diff[:3000]}")
    assert not problems, "\n\n".join(problems)
    assert report["checked"] == {name: len(each) for name, each in states.items()}


# Each state set on a lab in Chromium and what its output then holds, beside the build's HTML of
# that state parsed, as nested lists (tests/support/drawing_tree.js, which
# tests/support/views_check.js compares with in Node): one round trip for all of a lab's states.
SAMPLE_TREES_JS = ("([name, states, htmls]) => {" + (ROOT / "tests" / "support" / "drawing_tree.js").read_text("utf-8")
                   + """
    const section = document.getElementById('lab-' + name);
    return states.map((state, i) => {
        const set = RAG.labContext(name).set(state, {replace: true, link: false});
        const built = document.createElement("div");
        built.innerHTML = htmls[i];
        return [set, JSON.stringify(drawingTree(built).slice(2)),
                JSON.stringify(drawingTree(section.querySelector(".lab-output")).slice(2))];
    });
}""")


@pytest.mark.browser
@pytest.mark.parametrize("name", LAB_NAMES)
def test_a_sample_of_states_is_drawn_in_chromium_as_the_build_draws_it(two_pages, views, states, name):
    live = two_pages[1]
    lab(live, name)
    chosen = random.Random(name).sample(states[name], min(6, len(states[name])))
    drawings = views.draw_many(name, chosen)
    shown = live.evaluate(SAMPLE_TREES_JS, [name, chosen, [drawing.html for drawing in drawings]])
    for state, (set_, built, drawn_) in zip(chosen, shown):
        assert set_, f"lab {name}: the lab refused the state {state}"
        if built != drawn_:
            diff = "\n".join(difflib.unified_diff(outline(["output", *json.loads(built)]),
                                                  outline(["output", *json.loads(drawn_)]), "build", "Chromium",
                                                  lineterm="", n=2))
            pytest.fail(f"lab {name}, state {state}: Chromium draws something else than the build:\n{diff[:4000]}",
                        pytrace=False)


# --------------------------------------------------------------- lazy start


@pytest.mark.browser
def test_no_lab_starts_at_load_and_each_starts_when_the_reader_reaches_it(two_pages):
    """On the page the tests above started every lab of (by reaching it, as lab() does: a lab
    they did not reach is reached here), what had started at load, and each lab's file asked for
    once in all."""
    page = two_pages[1]
    assert page.at_load == {"started": [], "asked": []}, "no lab starts, and nothing of one loads, until it is reached"
    for name in LAB_NAMES:
        lab(page, name)  # scrolls to it, as a reader would, and waits for it to be ready
    started = [LAB_FILE.search(url).group(1) for url in page.rag_guard.requests if LAB_FILE.search(url)]
    assert sorted(started) == sorted(LAB_NAMES), "each lab's file is loaded once"


@pytest.fixture(scope="module")
def spare_page(make_page_module):
    """A page (support.labs.kept_page) the tests below load afresh (open_again), one link each:
    the link, a fault or a broken file is each test's own."""
    return kept_page(make_page_module)


@pytest.fixture
def spare(spare_page):
    """The spare page, left as it was found: what a test routes and the errors it allows end
    with it."""
    yield spare_page
    spare_page.unroute_all()
    spare_page.rag_guard.allowed_errors.clear()


@pytest.mark.browser
def test_a_link_to_a_lab_starts_it_at_once_and_leaves_the_others_alone(spare, site_url):
    page = open_again(spare, site_url, "#lab-recall?k=5")
    section = page.locator("#lab-recall")
    expect(section).to_have_attribute("data-lab-state", "ready")
    far = [name for name in ("chunking", "bm25", "quiz")]
    assert page.evaluate("(names) => names.map(n => document.getElementById('lab-' + n).dataset.labState || null)", far) \
        == [None, None, None]


# A phone's CPU, next to this machine's: Chromium's CPU throttling, as a slowdown factor.
PHONE_SLOWDOWN = 2

# Installed before the page's own scripts: after every frame is painted (a task posted from the
# frame's requestAnimationFrame callback), where the target is, once it exists, and the scroll.
FRAMES_JS = """(() => {
  const id = %s;
  const frames = window.__frames = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const el = document.getElementById(id);
    if (el) frames.push([performance.now(), el.getBoundingClientRect().top, scrollY]);
  };
  const frame = () => { channel.port2.postMessage(0); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();"""


@pytest.mark.browser
@pytest.mark.parametrize("link", ["#lab-bm25?q=g05", "#lab-permissions?reader=staff&q=g11&k=5", "#glossary"])
def test_a_shared_link_lands_at_once_on_a_slow_phone_and_stays(make_page, site_url, link):
    """"At once" is judged in frames, not in milliseconds, so that a busy machine cannot fail it
    and a slow runtime cannot pass it. The page arrives in pieces, as on a slow network. Until
    the runtime lands, the reader sees the top of the page, unscrolled; it lands while the page
    is still arriving (before DOMContentLoaded); and every frame from then on shows the target in
    place, unmoved. A target put 200 px low and corrected 100 ms later fails, and so does one
    landed while too little of the page below it had arrived to hold it at the top. How many
    milliseconds landing takes is a budget of the benchmark, on an idle machine (scripts/bench.py,
    step "land": 1 s at 4x)."""
    page = make_page(viewport={"width": 390, "height": 844}, reduced_motion="reduce", is_mobile=True, has_touch=True)
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_SLOWDOWN})
    target = link.split("?")[0][1:]
    page.add_init_script(FRAMES_JS % json.dumps(target))
    page.goto(f"{site_url}index.html?{SLOW_NETWORK}{link}", wait_until="commit")
    page.wait_for_function("""() => {
        const loaded = performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd;
        return loaded > 0 && window.__frames.length && __frames.at(-1)[0] > loaded + 2500;
    }""", timeout=30_000)
    landed, loaded = page.evaluate("""() => [(performance.getEntriesByName('rag:landed')[0] || {}).startTime,
                                              performance.getEntriesByType('navigation')[0].domContentLoadedEventStart]""")
    assert landed is not None, f"{link}: the runtime never put the reader at the target"
    assert landed < loaded, (f"{link}: the runtime landed at {landed:.0f} ms, after the page had arrived "
                             f"(DOMContentLoaded at {loaded:.0f} ms)")
    painted = [(round(t), round(top), round(y)) for t, top, y in page.evaluate("() => window.__frames")]
    early = [(t, y) for t, _, y in painted if t < landed and y != 0]
    assert not early, (f"{link}: before landing at {landed:.0f} ms, frames (ms, scroll px) showed the reader "
                       f"somewhere else than the top of the page: {early[:8]}")
    frames = [(t, top) for t, top, _ in painted if t >= landed]
    off = [(t, top) for t, top in frames if not 0 <= top <= 120]
    assert not off, f"{link}: after landing at {landed:.0f} ms, frames (ms, top px) with the target off the top: {off[:8]}"
    moved = [(t, top) for t, top in frames if abs(top - frames[0][1]) > 1]
    assert not moved, f"{link}: landed at {frames[0][1]}px, then moved (ms, top px): {moved[:8]}"


# --------------------------------------------------------------- errors show in the lab


@pytest.mark.browser
def test_an_error_thrown_later_in_a_handler_shows_in_its_lab(spare, site_url):
    page = open_again(spare, site_url, "#lab-hybrid")
    section = lab(page, "hybrid")
    page.rag_guard.allow_console_error("lab hybrid failed")
    page.evaluate("() => { RAG.fixed = () => { throw new Error('a deliberate fault'); }; }")
    section.locator('select[data-picker="question"]').select_option("g05")
    expect(section.locator(".lab-error")).to_be_visible()
    expect(section.locator(".lab-error")).to_contain_text("a deliberate fault")
    expect(section).to_have_attribute("data-lab-state", "error")


@pytest.mark.browser
def test_a_lab_whose_script_cannot_load_says_which_file(spare, site_url):
    page = spare
    page.route("**/assets/labs/recall.js*", lambda route: route.fulfill(status=404, body="gone"))
    page.rag_guard.allow_console_error("recall")
    page.rag_guard.allow_console_error("404")
    open_again(page, site_url, "#lab-recall")
    box = page.locator("#lab-recall .lab-error")
    expect(box).to_be_visible()
    expect(box).to_contain_text("assets/labs/recall.js could not be loaded")
    assert page.locator("#lab-recall .recall-table").count() == 1, "the default state stays"


@pytest.mark.browser
def test_data_of_another_schema_is_refused_in_every_lab_that_starts(spare, site_url, dist_dir):
    page = spare
    body = (dist_dir / "assets" / "data.js").read_text("utf-8")
    wrong = re.sub(r'"schema":\d+', '"schema":999', body, count=1)
    page.route("**/assets/data.js*", lambda route: route.fulfill(status=200, body=wrong, content_type="text/javascript"))
    page.rag_guard.allow_console_error("schema 999")
    open_again(page, site_url, "#lab-hybrid")
    for name in ("hybrid", "rerank"):  # rerank sits in a closed deep dive: opened first, as a reader does
        open_deep_dive(page.locator(f"#lab-{name}"))
        page.locator(f"#lab-{name}").scroll_into_view_if_needed()
        expect(page.locator(f"#lab-{name} .lab-error")).to_contain_text("schema 999")
