"""What every reader gets, whatever the labs do: a page that loads cleanly and stays on this
machine, a table of contents that follows the reader, glossary terms that open by keyboard,
no accessibility violations axe can find, no sideways scrolling on a phone, the whole text
without JavaScript, and a copy that works from file://.
"""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 780}}


def format_violations(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        lines += [f"    {node}" for node in v["nodes"]]
    return "\n".join(lines)


def open_page(page, url):
    page.goto(url)
    page.wait_for_load_state("load")
    return page


def chapter_ids(page) -> list[str]:
    return page.eval_on_selector_all("main section.chapter", "els => els.map(e => e.id)")


def scroll_to(page, selector: str) -> None:
    page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'start', behavior: 'instant'})")


# ----------------------------------------------------------------- loading


def test_loads_without_console_errors_and_the_runtime_has_its_data(page, site_url):
    open_page(page, site_url + "index.html")
    expect(page.locator("html")).to_have_class("js")
    assert page.evaluate("() => typeof window.RAG === 'object'"), "window.RAG is missing: is app.js loaded?"
    assert page.evaluate("() => window.RAG.dataError") is None
    assert page.evaluate("() => window.RAG.data.schema") == int(page.get_attribute("html", "data-schema"))
    # Scroll the whole page so anything lazy gets its chance to misbehave; the guard checks.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)


def test_no_request_leaves_the_loopback_server(page, site_url):
    open_page(page, site_url + "index.html")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    guard = page.rag_guard
    assert guard.foreign == []
    loaded = {url.removeprefix(site_url) for url in guard.requests}
    assert {"index.html", "assets/site.css", "assets/app.js"} <= loaded, sorted(loaded)


def test_labs_start_without_errors(page, site_url):
    open_page(page, site_url + "index.html")
    for lab in page.locator("section.lab").all():
        name = lab.get_attribute("data-lab")
        expect(lab.locator(".lab-error:visible")).to_have_count(0)
        assert lab.get_attribute("data-lab-state") in (None, "ready"), f"lab {name} failed to start"


# ------------------------------------------------------- table of contents


def test_toc_marks_the_current_section_while_scrolling(page, site_url):
    open_page(page, site_url + "index.html")
    ids = chapter_ids(page)
    assert len(ids) >= 2, "expected at least two sections"
    current = page.locator('nav.toc a[aria-current="true"]')
    for slug in (ids[1], ids[-1], ids[0]):
        scroll_to(page, f"section.chapter#{slug}")
        expect(current).to_have_count(1)
        expect(current).to_have_attribute("href", f"#{slug}")


def test_toc_is_a_bar_that_opens_on_a_phone(make_page, site_url):
    page = make_page(viewport=VIEWPORTS["phone"])
    open_page(page, site_url + "index.html")
    summary = page.locator("nav.toc summary")
    first_link = page.locator("nav.toc ol a").first
    expect(first_link).to_be_hidden()
    summary.click()
    expect(first_link).to_be_visible()
    slug = chapter_ids(page)[-1]
    page.locator(f'nav.toc a[href="#{slug}"]').click()
    expect(first_link).to_be_hidden()
    expect(page.locator(f'nav.toc a[href="#{slug}"]')).to_have_attribute("aria-current", "true")


def test_a_section_link_scrolls_to_its_section(page, site_url):
    ids = chapter_ids(open_page(page, site_url + "index.html"))
    slug = ids[len(ids) // 2]
    open_page(page, site_url + f"index.html#{slug}")
    page.wait_for_function(
        "slug => Math.abs(document.getElementById(slug).getBoundingClientRect().top) < 120", arg=slug)


def test_lab_state_round_trips_through_the_hash_without_new_history(page, site_url):
    open_page(page, site_url + "index.html")
    before = page.evaluate("() => history.length")
    page.evaluate("() => RAG.writeHashState('probe', {setting: 'fixed-12', q: 'two words & more'})")
    assert page.evaluate("() => location.hash") == "#lab-probe?setting=fixed-12&q=two+words+%26+more"
    assert page.evaluate("() => RAG.readHashState('probe')") == {"setting": "fixed-12", "q": "two words & more"}
    assert page.evaluate("() => RAG.readHashState('other')") == {}
    assert page.evaluate("() => history.length") == before


def test_a_shared_lab_link_scrolls_to_the_lab(page, site_url):
    open_page(page, site_url + "index.html")
    labs = page.eval_on_selector_all("section.lab[id]", "els => els.map(e => e.id)")
    if not labs:
        pytest.skip("no labs on the page yet")
    lab_id = labs[-1]
    open_page(page, site_url + f"index.html#{lab_id}?unknown=1")
    page.wait_for_function(
        "id => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 120", arg=lab_id)


def test_el_never_parses_markup(page, site_url):
    open_page(page, site_url + "index.html")
    result = page.evaluate("""() => {
        const node = RAG.el('p', {class: ['a', 'b'], dataset: {id: 'x'}}, '<img src=x onerror=alert(1)>', 3);
        return {text: node.textContent, children: node.children.length, cls: node.className, id: node.dataset.id};
    }""")
    assert result == {"text": "<img src=x onerror=alert(1)>3", "children": 0, "cls": "a b", "id": "x"}


def test_numbers_format_like_python(page, site_url):
    open_page(page, site_url + "index.html")
    cases = [(0.125, 2), (0.375, 2), (2.5, 0), (-0.125, 2), (0.1234567, 3), (1.0005, 3), (12.0, 3)]
    got = page.evaluate("cases => cases.map(([x, d]) => RAG.fixed(x, d))", cases)
    assert got == [f"{x:.{d}f}" for x, d in cases]


# ---------------------------------------------------------------- glossary


def test_glossary_term_opens_on_keyboard_focus_and_closes_with_escape(page, site_url):
    open_page(page, site_url + "index.html")
    assert page.locator("main a.term").count() > 0, "no glossary terms in the prose"
    for _ in range(400):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('a.term')"):
            break
    else:
        pytest.fail("Tab never reached a glossary term")
    term = page.locator("a.term:focus")
    slug = term.get_attribute("data-term")
    popup_id = term.get_attribute("aria-describedby")
    assert popup_id and f"term-popup-{slug}" in popup_id.split()
    popup = page.locator(f"#term-popup-{slug}")
    expect(popup).to_be_visible()
    definition = page.locator(f"#term-{slug} + dd").inner_text().split()
    assert popup.inner_text().split()[-len(definition):] == definition
    page.keyboard.press("Escape")
    expect(popup).to_be_hidden()
    assert page.evaluate("() => document.activeElement.matches('a.term')"), "Escape moved the focus"
    assert page.evaluate("() => document.activeElement.dataset.term") == slug


def test_glossary_popup_is_hoverable(page, site_url):
    open_page(page, site_url + "index.html")
    term = page.locator("main a.term").first
    term.scroll_into_view_if_needed()
    term.hover()
    popup = page.locator(f"#term-popup-{term.get_attribute('data-term')}")
    expect(popup).to_be_visible()
    popup.hover()
    page.wait_for_timeout(400)
    expect(popup).to_be_visible()
    page.mouse.move(2, 2)
    expect(popup).to_be_hidden()


# ----------------------------------------------------------- accessibility


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations(make_page, site_url, run_axe, scheme):
    page = make_page(color_scheme=scheme)
    open_page(page, site_url + "index.html")
    violations = run_axe(page)
    assert not violations, "axe found:\n" + format_violations(violations)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_no_horizontal_scroll_at_360px(make_page, site_url, javascript):
    page = make_page(viewport=VIEWPORTS["phone"], java_script_enabled=javascript)
    open_page(page, site_url + "index.html")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width}px wide at 360px: something does not scroll inside its box"
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(el => el.getBoundingClientRect().right > innerWidth + 1 && !el.closest(
            '.table-scroll, pre, .figure-scroll, figure.figure, math, .math-block, .sample-tabs'))
        .slice(0, 5).map(el => el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''))""")
    assert wide == [], f"elements sticking out of the page at 360px: {wide}"


# ------------------------------------------------------------- without JS


def test_without_javascript_every_section_and_lab_default_is_there(make_page, site_url):
    page = make_page(java_script_enabled=False)
    open_page(page, site_url + "index.html")
    assert "js" not in (page.get_attribute("html", "class") or "").split()
    chapters = page.locator("main section.chapter")
    assert chapters.count() >= 2
    for chapter in chapters.all():
        heading = chapter.locator("h2").inner_text()
        body = chapter.inner_text()
        assert len(body.strip()) > len(heading.strip()) + 20, f"section {chapter.get_attribute('id')} has no text"
    for lab in page.locator("section.lab").all():
        output = lab.locator(".lab-output")
        expect(output).to_have_count(1)
        assert output.inner_text().strip(), f"lab {lab.get_attribute('data-lab')} has no default output"


# ---------------------------------------------------------------- file://


def test_works_from_file_url(page, dist_dir):
    page.goto((dist_dir / "index.html").as_uri())
    assert page.evaluate("() => window.RAG && window.RAG.dataError") is None
    expect(page.locator("html")).to_have_class("js")


def test_sample_tabs_work_from_file_url(page, dist_dir):
    page.goto((dist_dir / "index.html").as_uri())
    samples = page.locator("figure.sample")
    if samples.count() == 0:
        pytest.skip("no code samples on the page yet")
    first = samples.first
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
    open_page(page, site_url + "index.html")
    sample = page.locator("figure.sample").first
    if page.locator("figure.sample").count() == 0:
        pytest.skip("no code samples on the page yet")
    button = sample.locator("button.copy")
    button.scroll_into_view_if_needed()
    button.click()
    expect(button).to_have_text("Copied")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    visible = sample.locator(".sample-code:visible pre").inner_text()
    assert copied.strip() == visible.strip()


def test_a_schema_mismatch_shows_an_error_in_every_lab(make_page, site_url):
    page = make_page()

    def wrong_schema(route):
        response = route.fetch()
        body = response.text().replace('data-schema="', 'data-schema="999', 1)
        route.fulfill(response=response, body=body)

    page.route("**/index.html", wrong_schema)
    open_page(page, site_url + "index.html")
    error = page.evaluate("() => RAG.dataError")
    assert error and "schema" in error
    for lab in page.locator("section.lab").all():
        alert = lab.locator('.lab-error[role="alert"]')
        expect(alert).to_be_visible()
        expect(lab.locator(".lab-output")).not_to_be_empty()


# ------------------------------------------------------------- screenshots


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots(make_page, site_url, screenshot, device, scheme):
    page = make_page(viewport=VIEWPORTS[device], color_scheme=scheme)
    open_page(page, site_url + "index.html")
    expect(page.locator("h1")).to_be_visible()
    path = screenshot(page, f"page-{device}-{scheme}")
    assert path.stat().st_size > 10_000
    corpus = open_page(page, site_url + "corpus.html")
    expect(corpus.locator("h1")).to_be_visible()
    screenshot(corpus, f"corpus-{device}-{scheme}")
