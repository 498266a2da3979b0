"""What every reader gets, whatever the labs do: a small first load that stays on this machine,
a table of contents that follows the reader, glossary terms that open by keyboard, links that
land, no accessibility fault axe can find (with every lab started), no sideways scrolling on a
phone, the whole text without JavaScript, a copy that works from file://, and screenshots of
the page and of every lab to look at.

Read-only tests share a page per module: one at 1280 px; one without JavaScript (at 1280 px,
and set to 360 px for the phone's overflow check: with no script of the page's, its layout is
the stylesheet's alone); and one for each size and theme with every section laid out
(laid_out), opened once for all the tests that read it: axe with every lab started, the
phone's overflow check, the screenshots. Opening and laying out the page and starting every lab
is most of what each of those costs (some 4 CPU-seconds a page), so a page that one test has
started every lab on serves the next as it is (its screenshot of the page then shows the labs
started). A theme sets colours only (styles/tokens.css), so the dark theme's axe run is axe's
colour rules (colour_rules), on a page opened dark.
"""

import pytest
from selectolax.lexbor import LexborHTMLParser
from playwright.sync_api import expect

from support.browser import VIEWPORTS, colour_rules, element_screenshots, run_axe, screenshot
from support.labs import (LAB_NAMES, SCROLLS_ON_PURPOSE_JS, draw_a_frame, kept_page, lab, open_again, open_deep_dive,
                           open_page, render_everything)

pytestmark = pytest.mark.browser


def chapter_ids(page) -> list[str]:
    return page.eval_on_selector_all("main section.chapter", "els => els.map(e => e.id)")


def scroll_to(page, selector: str) -> None:
    page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'start', behavior: 'instant'})")


AXE_ALL = ("wcag2a", "wcag2aa", "wcag21aa", "best-practice")


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    """One page the read-only tests share."""
    return open_page(make_page_module, site_url)


@pytest.fixture(scope="module")
def tab(make_page_module):
    """One tab at 1280x900 (support.labs.kept_page) that tests needing a page of their own at that
    size load the page in again, each a fresh document (open_again). For tests whose page keeps
    nothing in storage (the sample tabs' language and the reading path are kept in localStorage:
    those tests keep their own)."""
    return kept_page(make_page_module)


@pytest.fixture(scope="module")
def laid_out(make_page_module, site_url):
    """laid_out(device, scheme) -> the module's page at that size (VIEWPORTS) and theme, opened in
    that theme (a theme switched on a loaded page can leave an element the old theme's colour,
    test_axe_finds_nothing_with_every_lab_started), every section laid out; opened on first use,
    then shared. Tests only start labs on it (every_lab_started) and look."""
    pages = {}

    def get(device: str, scheme: str = "light"):
        if (device, scheme) not in pages:
            pages[device, scheme] = open_page(make_page_module, site_url, viewport=VIEWPORTS[device], render_all=True,
                                              color_scheme=scheme)
        return pages[device, scheme]

    return get


def every_lab_started(page):
    """The page with every lab started (each already started is left as it is)."""
    for name in LAB_NAMES:
        lab(page, name)
    page.evaluate("() => RAG.markScrollers()")
    return page


@pytest.fixture(scope="module")
def started_for_axe(laid_out):
    """1280x900, light, every section laid out and every lab started: read by axe (the dark
    theme's run reads the page opened dark, test_axe_finds_nothing_with_every_lab_started)."""
    return every_lab_started(laid_out("desktop"))


@pytest.fixture(scope="module")
def without_javascript(make_page_module, site_url):
    """1280x900 with JavaScript off, every section laid out."""
    return open_page(make_page_module, site_url, java_script_enabled=False, render_all=True)


# ----------------------------------------------------------------- loading


def test_the_first_load_is_the_page_its_stylesheet_and_the_runtime_only(make_page, site_url):
    page = open_page(make_page, site_url)
    page.wait_for_timeout(300)
    expect(page.locator("html")).to_have_class("js")
    loaded = sorted({url.removeprefix(site_url).split("?")[0] for url in page.rag_guard.requests})
    assert loaded == ["assets/app.js", "assets/favicon.svg", "assets/site.css", "index.html"]
    assert page.evaluate("() => window.RAG.data === undefined"), "the data loads with the first lab, not before"


def test_the_data_arrives_with_the_first_lab_and_nothing_leaves_the_machine(tab, site_url):
    page = open_again(tab, site_url)
    lab(page, LAB_NAMES[0])
    assert page.evaluate("() => window.RAG.data.schema") == int(page.get_attribute("html", "data-schema"))
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(300)
    assert page.rag_guard.foreign == []


# ------------------------------------------------------- table of contents


def test_toc_marks_the_current_section_while_scrolling(desktop):
    ids = chapter_ids(desktop)
    assert len(ids) >= 2, "expected at least two sections"
    current = desktop.locator('nav.toc a[aria-current="true"]')
    for slug in (ids[1], ids[-1], ids[0]):
        scroll_to(desktop, f"section.chapter#{slug}")
        expect(current).to_have_count(1)
        expect(current).to_have_attribute("href", f"#{slug}")


def test_toc_is_a_bar_that_opens_on_a_phone_and_a_rail_on_a_desktop(make_page, site_url, desktop):
    expect(desktop.locator("nav.toc ol a").first).to_be_visible()
    page = open_page(make_page, site_url, viewport=VIEWPORTS["phone"])
    summary = page.locator("nav.toc summary")
    first_link = page.locator("nav.toc ol a").first
    expect(first_link).to_be_hidden()
    summary.click()
    expect(first_link).to_be_visible()
    slug = chapter_ids(page)[-1]
    page.locator(f'nav.toc a[href="#{slug}"]').click()
    expect(first_link).to_be_hidden()
    expect(page.locator(f'nav.toc a[href="#{slug}"]')).to_have_attribute("aria-current", "true")


def test_without_javascript_the_contents_are_open_on_a_desktop(without_javascript):
    expect(without_javascript.locator("nav.toc ol a").first).to_be_visible()


def test_a_section_link_scrolls_to_its_section(tab, site_url, desktop):
    ids = chapter_ids(desktop)
    slug = ids[len(ids) // 2]
    page = open_again(tab, site_url, f"#{slug}")
    page.wait_for_function(
        "slug => Math.abs(document.getElementById(slug).getBoundingClientRect().top) < 120", arg=slug)


def test_lab_state_round_trips_through_the_link_without_new_history(desktop):
    before = desktop.evaluate("() => history.length")
    desktop.evaluate("() => RAG.hash.write('probe', {setting: 'fixed-12', q: 'two words & more'})")
    assert desktop.evaluate("() => location.hash") == "#lab-probe?setting=fixed-12&q=two+words+%26+more"
    assert desktop.evaluate("() => RAG.hash.read('probe')") == {"setting": "fixed-12", "q": "two words & more"}
    assert desktop.evaluate("() => RAG.hash.read('other')") == {}
    assert desktop.evaluate("() => history.length") == before


@pytest.mark.parametrize("name", [LAB_NAMES[0], LAB_NAMES[-1]])
def test_a_shared_lab_link_with_a_state_it_refuses_still_lands_on_the_lab(tab, site_url, name):
    page = open_again(tab, site_url, f"#lab-{name}?unknown=1&q=no-such-question")
    section = lab(page, name)
    page.wait_for_function(
        "id => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 120", arg=f"lab-{name}")
    expect(section.locator(".lab-error")).to_have_count(0)


def test_el_never_parses_markup(desktop):
    result = desktop.evaluate("""() => {
        const node = RAG.el('p', {class: ['a', 'b'], dataset: {id: 'x'}}, '<img src=x onerror=alert(1)>', 3);
        return {text: node.textContent, children: node.children.length, cls: node.className, id: node.dataset.id};
    }""")
    assert result == {"text": "<img src=x onerror=alert(1)>3", "children": 0, "cls": "a b", "id": "x"}


def test_numbers_format_like_python(desktop):
    cases = [(0.125, 2), (0.375, 2), (2.5, 0), (-0.125, 2), (0.1234567, 3), (1.0005, 3), (12.0, 3)]
    got = desktop.evaluate("cases => cases.map(([x, d]) => RAG.fixed(x, d))", cases)
    assert got == [f"{x:.{d}f}" for x, d in cases]


# ---------------------------------------------------------------- glossary


def test_glossary_term_opens_on_keyboard_focus_and_closes_with_escape(tab, site_url):
    page = open_again(tab, site_url, render_all=True)
    assert page.locator("main a.term").count() > 0, "no glossary terms in the prose"
    for _ in range(400):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('a.term')"):
            break
    else:
        pytest.fail("Tab never reached a glossary term")
    term = page.locator("a.term:focus")
    slug = term.get_attribute("href").removeprefix("#term-")
    assert term.get_attribute("aria-describedby") == f"term-def-{slug}"  # the glossary's own definition
    popup = page.locator(f"#term-popup-{slug}")
    expect(popup).to_be_visible()
    definition = page.locator(f"#term-def-{slug}").inner_text().split()
    assert popup.locator(".term-popup-text").inner_text().split() == definition
    page.keyboard.press("Escape")
    expect(popup).to_be_hidden()
    assert page.evaluate("() => document.activeElement.matches('a.term')"), "Escape moved the focus"
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == f"#term-{slug}"


def test_glossary_popup_is_hoverable_and_a_tap_opens_it(make_page, site_url, desktop):
    term = desktop.locator("main a.term").first
    term.scroll_into_view_if_needed()
    term.hover()
    popup = desktop.locator(f"#term-popup-{term.get_attribute('href').removeprefix('#term-')}")
    expect(popup).to_be_visible()
    popup.hover()
    desktop.wait_for_timeout(400)
    expect(popup).to_be_visible()
    desktop.mouse.move(2, 2)
    expect(popup).to_be_hidden()
    phone = open_page(make_page, site_url, viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True)
    term = phone.locator("main a.term").first
    term.scroll_into_view_if_needed()
    term.tap()
    slug = term.get_attribute("href").removeprefix("#term-")
    popup = phone.locator(f"#term-popup-{slug}")
    expect(popup).to_be_visible()
    assert phone.evaluate("() => location.hash") == "", "the first tap opens the definition, it does not follow the link"
    # On a phone the popover's own link is the way to the glossary's entry.
    more = popup.get_by_role("link", name="In the glossary")
    box = more.bounding_box()
    assert box["height"] >= 24, f"the glossary link is a {box['height']:.0f} px tap target"
    more.tap()
    expect(popup).to_be_hidden()
    assert phone.evaluate("() => location.hash") == f"#term-{slug}"
    expect(phone.locator(f"#term-{slug}")).to_be_in_viewport()


def test_the_glossary_is_in_alphabetical_order(built_site):
    html = (built_site / "index.html").read_text("utf-8")
    glossary = LexborHTMLParser(html).css_first("#glossary dl.glossary")
    terms = [" ".join(dt.text().split()) for dt in glossary.css("dt")]
    assert len(terms) > 20
    assert terms == sorted(terms, key=str.casefold), [t for t, s in zip(terms, sorted(terms, key=str.casefold)) if t != s][:5]


# ----------------------------------------------------------- accessibility


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_with_every_lab_started(started_for_axe, laid_out, scheme):
    """Every rule in the light theme; in the dark one, the rules a theme can change (colours), on
    a page opened dark: switched on a page with every lab started (emulate_media), Chromium
    sometimes leaves an element its old theme's inherited colour (the byline's <em> kept the
    light theme's --muted in about half the runs, an old-theme colour no reader's page opened
    in that theme has), and axe reports the stale colour."""
    page = started_for_axe if scheme == "light" else every_lab_started(laid_out("desktop", "dark"))
    rules = colour_rules(page, AXE_ALL) if scheme == "dark" else None
    assert rules is None or "color-contrast" in rules
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    violations = run_axe(page, tags=AXE_ALL, rules=rules)
    assert not violations, "axe found:\n" + "\n".join(violations)


AT_LOAD = {"390px": {"width": 390, "height": 844}, "1280px": {"width": 1280, "height": 900}}


# Width, theme and runtime, two values each: four runs that hold every pair of values (each
# width in both themes, with and without the runtime; each theme both ways), not all eight.
AT_LOAD_RUNS = [("390px", "light", True), ("390px", "dark", False), ("1280px", "light", False), ("1280px", "dark", True)]


@pytest.mark.parametrize("width,scheme,javascript", AT_LOAD_RUNS,
                         ids=[f"{w}-{s}-{'js' if j else 'no-js'}" for w, s, j in AT_LOAD_RUNS])
def test_axe_finds_nothing_at_load(make_page, site_url, width, scheme, javascript):
    """The page as it opens, far sections still skipped and no lab started: every box that
    scrolls sideways is already keyboard-reachable (scrollable-region-focusable), with the
    runtime and without it. Without it means app.js never arrives: axe itself needs JavaScript,
    so the page cannot simply have it turned off."""
    page = make_page(viewport=AT_LOAD[width], color_scheme=scheme)
    if not javascript:
        page.route("**/assets/app.js*", lambda route: route.fulfill(status=200, content_type="text/javascript", body=""))
    open_page(lambda **_: page, site_url)
    assert ("js" in (page.get_attribute("html", "class") or "").split()) == javascript
    violations = run_axe(page, tags=AXE_ALL)
    assert not violations, "axe found:\n" + "\n".join(violations)


def test_a_scroll_box_keeps_its_tab_stop_only_while_it_can_scroll(make_page, site_url):
    """Focusable from the start (the build's boxes and, at once, a lab's); measured near the
    screen, a box that scrolls nothing at this width loses its tab stop, and a box that stops or
    starts scrolling when the width changes follows (the staff section's wide table scrolls on a
    desktop and becomes cards on a phone).

    A scroll into a page that is reflowing for a new width can land short (sections above grow
    after it); the reader would scroll on, and so does this test, until the box is on screen.
    The runtime measures a box when its observer sees it near the screen, which it does at a
    frame: each box is kept on screen until it is measured before the next is scrolled to (two
    scrolls with no frame between, as a loaded machine gave, leave the first never seen, so
    never measured, and rightly still focusable: the cheat sheet's box kept tabindex=0)."""
    page = open_page(make_page, site_url, render_all=True)

    def bring_to_screen(box, width):
        page.wait_for_function("w => innerWidth === w", arg=width)
        page.wait_for_function("""el => {
            el.scrollIntoView({block: 'center'});
            const rect = el.getBoundingClientRect();
            return rect.bottom > 0 && rect.top < innerHeight;
        }""", arg=box.element_handle(), polling=100)

    fits = page.locator("#cheat-sheet div.table-scroll[data-scroll-box]").first
    wide = page.locator("#staff div.table-scroll[data-scroll-box]").first
    in_lab = page.locator("#lab-tracer div.table-scroll").first
    for box in (fits, wide):
        expect(box).to_have_attribute("tabindex", "0")
    expect(in_lab).to_have_attribute("tabindex", "0")
    expect(in_lab).to_have_attribute("data-rag-scroller", "")
    page.evaluate("() => document.querySelectorAll('details.deep-dive').forEach(d => { d.open = true; })")
    bring_to_screen(fits, 1280)
    expect(fits).not_to_have_attribute("tabindex", "0")
    bring_to_screen(wide, 1280)
    expect(wide).to_have_attribute("tabindex", "0")
    assert fits.evaluate("el => el.scrollWidth <= el.clientWidth + 1") and wide.evaluate("el => el.scrollWidth > el.clientWidth")
    page.set_viewport_size({"width": 390, "height": 844})
    bring_to_screen(wide, 390)
    expect(wide).not_to_have_attribute("tabindex", "0")
    assert wide.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "on a phone the table is cards, and fits"
    page.set_viewport_size({"width": 1280, "height": 900})
    bring_to_screen(wide, 1280)
    expect(wide).to_have_attribute("tabindex", "0")


BOXES_JS = r"""overflows => {
    const boxes = overflows.map((extra) => {
        const box = document.createElement('div');
        box.className = 'table-scroll';
        box.style.width = '300px';
        box.style.padding = '0';
        const wide = document.createElement('div');
        wide.style.width = (300 + extra) + 'px';
        wide.textContent = 'wide';
        box.append(wide);
        return box;
    });
    document.querySelector('main section.chapter p').after(...boxes);
    // Whatever the stylesheet adds around the content, each box overflows by exactly its share.
    boxes.forEach((box, i) => {
        const wide = box.firstChild;
        wide.style.width = (parseFloat(wide.style.width) - (box.scrollWidth - box.clientWidth - overflows[i])) + 'px';
    });
    // Drawn again as they now are, as a lab redraws.
    const at = boxes[0].previousElementSibling;
    boxes.forEach((box) => box.remove());
    setTimeout(() => at.after(...boxes), 50);
}"""


def test_a_box_that_scrolls_a_little_keeps_its_tab_stop(tab, site_url):
    """A few pixels of overflow hide content as surely as many: only a box that scrolls nothing
    (or a pixel, rounding) is taken out of the tab order. Boxes a lab draws, near the screen."""
    page = open_again(tab, site_url)
    overflows = [0, 1, 12, 60, 400]
    page.evaluate(BOXES_JS, overflows)
    want = [[0, None], [1, None], [12, "0"], [60, "0"], [400, "0"]]
    for _ in range(30):  # measured once the observer sees them near the screen
        page.wait_for_timeout(100)
        found = page.evaluate("""overflows => [...document.querySelectorAll('main section.chapter p + div.table-scroll,'
            + ' main section.chapter div.table-scroll + div.table-scroll')].slice(0, overflows.length)
            .map(box => [box.scrollWidth - box.clientWidth, box.getAttribute('tabindex')])""", overflows)
        if found == want:
            break
    assert found == want, "[overflow in px, tabindex] of each box: " + repr(found)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_no_horizontal_scroll_at_360px(laid_out, without_javascript, javascript):
    """With the runtime, on the 360 px page with every lab started; without it, on the page
    without JavaScript set to 360 px (and back: the stylesheet alone lays it out, as it would a
    page opened at that width), once a frame is drawn at the new width (see render_everything)."""
    if javascript:
        every_lab_started(laid_out("phone"))
        no_horizontal_scroll(laid_out("phone"))
        return
    page = without_javascript
    size = page.viewport_size
    page.set_viewport_size(VIEWPORTS["phone"])
    try:
        draw_a_frame(page)
        assert page.evaluate("() => innerWidth") == 360
        no_horizontal_scroll(page)
    finally:
        page.set_viewport_size(size)


def no_horizontal_scroll(page) -> None:
    wide = page.evaluate("""() => { const onPurpose = """ + SCROLLS_ON_PURPOSE_JS + """;
        return [...document.querySelectorAll('body *')]
        .filter(el => el.getBoundingClientRect().right > innerWidth + 1 && !el.closest(
            '.table-scroll, pre, .figure-scroll, figure.figure, math, .math-block, .sample-tabs') && !onPurpose(el))
        .slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                        (typeof el.className === 'string' && el.className ? '.' + el.className : '') +
                        ' right ' + Math.round(el.getBoundingClientRect().right) +
                        (el.closest('[id]') ? ' in #' + el.closest('[id]').id : '')); }""")
    assert wide == [], f"elements sticking out of the page at 360px: {wide}"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width}px wide at 360px: something does not scroll inside its box"


# ------------------------------------------------------------- without JS


def test_without_javascript_every_section_and_lab_default_is_there(without_javascript):
    page = without_javascript
    assert "js" not in (page.get_attribute("html", "class") or "").split()
    chapters = page.locator("main section.chapter")
    assert chapters.count() >= 14
    for chapter in chapters.all():
        heading = chapter.locator("h2").inner_text()
        body = chapter.inner_text()
        assert len(body.strip()) > len(heading.strip()) + 20, f"section {chapter.get_attribute('id')} has no text"
    assert page.eval_on_selector_all("section.lab", "els => els.map(e => e.dataset.lab)") == list(LAB_NAMES)
    for name in LAB_NAMES:
        output = page.locator(f"#lab-{name} .lab-output")
        expect(output).to_have_count(1)
        assert output.inner_text().strip(), f"lab {name} has no default output"


# ---------------------------------------------------------------- file://


def test_labs_and_sample_tabs_work_from_file_url(page, dist_dir):
    page.goto((dist_dir / "index.html").as_uri() + "#lab-hybrid?q=g05")
    expect(page.locator("html")).to_have_class("js")
    expect(page.locator("#lab-hybrid")).to_have_attribute("data-lab-state", "ready")
    expect(page.locator('#lab-hybrid select[data-picker="question"]')).to_have_value("g05")
    samples = page.locator("figure.sample")
    assert samples.count() >= 8
    first = samples.first
    open_deep_dive(first)
    tabs = first.locator('[role="tab"]')
    assert tabs.count() >= 2
    second = tabs.nth(1)
    second.scroll_into_view_if_needed()
    second.click()
    language = second.get_attribute("data-lang")
    expect(second).to_have_attribute("aria-selected", "true")
    expect(page.locator("#" + second.get_attribute("aria-controls"))).to_be_visible()
    expect(page.locator("#" + tabs.nth(0).get_attribute("aria-controls"))).to_be_hidden()
    # Every sample follows the reader's choice.
    expect(page.locator(f'figure.sample [role="tab"][data-lang="{language}"][aria-selected="false"]')).to_have_count(0)
    # Arrow keys move between tabs (the ARIA tabs pattern).
    second.focus()
    page.keyboard.press("ArrowLeft")
    expect(tabs.nth(0)).to_be_focused()
    expect(tabs.nth(0)).to_have_attribute("aria-selected", "true")


def test_copy_button_copies_the_visible_code(make_page, site_url):
    page = make_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url.rstrip("/"))
    open_page(lambda **_: page, site_url)
    sample = page.locator("figure.sample").first
    open_deep_dive(sample)
    button = sample.locator("button.copy")
    button.scroll_into_view_if_needed()
    button.click()
    expect(button).to_have_text("Copied")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    visible = sample.locator(".sample-code:visible pre").inner_text()
    assert copied.strip() == visible.strip()


# ------------------------------------------------------------- screenshots


# Every lab is shot at both widths and in both themes, two of the four pairs each: the page and
# corpus.html in all four.
LAB_SHOTS = {("desktop", "dark"), ("phone", "light")}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots_of_the_page_and_of_every_lab(laid_out, site_url, device, scheme):
    """On the module's page of that size and theme (laid_out: the labs the tests before started
    show started)."""
    page = laid_out(device, scheme)
    expect(page.locator("h1")).to_be_visible()
    assert screenshot(page, f"page-{device}-{scheme}").stat().st_size > 10_000
    if (device, scheme) in LAB_SHOTS:
        every_lab_started(page)
        # All with one change of the viewport (each change lays the whole page out again).
        shots = element_screenshots(page, {f"#lab-{name}": f"lab-{name}-{device}-{scheme}" for name in LAB_NAMES})
        small = [path.name for path in shots if path.stat().st_size <= 5_000]
        assert not small, f"nearly empty screenshots: {small}"
    corpus = page.context.new_page()
    try:
        corpus.goto(site_url + "corpus.html")
        expect(corpus.locator("h1")).to_be_visible()
        screenshot(corpus, f"corpus-{device}-{scheme}")
    finally:
        corpus.close()
