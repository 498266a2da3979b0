"""The reading path in the browser (site_src/runtime/path.js): on the essential path, the
default, every deep dive is closed before the page paints; the choice of everything opens them
and is remembered; a link into a deep dive opens it, and it stays open when the reader switches
path and back; without JavaScript, and in print, every deep dive is open and the page says how
long each part takes."""

import re

import pytest
from playwright.sync_api import expect
from selectolax.lexbor import LexborHTMLParser

from support.labs import open_page

DIVES = "details.deep-dive"


def states(page) -> list[bool]:
    return page.evaluate("(s) => [...document.querySelectorAll(s)].map(d => d.open)", DIVES)


@pytest.mark.browser
def test_without_javascript_every_deep_dive_is_open_and_the_times_are_written(make_page, site_url, dist_dir):
    page = open_page(make_page, site_url, java_script_enabled=False)
    opened = states(page)
    assert len(opened) >= 10 and all(opened)
    expect(page.locator(".path-choice")).to_be_hidden()
    html = (dist_dir / "index.html").read_text("utf-8")
    assert len(re.findall(r'<p class="section-time">\d+ min to read', html)) == len(re.findall(r'<section class="chapter"', html)) - 1
    assert re.search(r'class="deep-dive-time">\d+ min</span>', html)
    expect(page.locator(".byline .no-js-only")).to_contain_text("Reading time:")


@pytest.mark.browser
def test_the_essentials_close_every_deep_dive_before_the_first_paint_and_nothing_moves(make_page, site_url):
    page = make_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.add_init_script("""window.__shifts = 0;
        new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value; })
          .observe({type: 'layout-shift', buffered: true});""")
    page.goto(site_url + "index.html")
    page.wait_for_load_state("load")
    assert not any(states(page))
    expect(page.locator('input[name="reading-path"][value="essentials"]')).to_be_checked()
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__shifts") < 0.01


@pytest.mark.browser
def test_everything_opens_every_deep_dive_and_is_remembered(make_page, site_url):
    page = open_page(make_page, site_url)
    page.locator(".path-choice label", has_text="Everything").click()
    assert all(states(page))
    assert page.evaluate("() => document.documentElement.dataset.path") == "everything"
    page.reload()
    page.wait_for_load_state("load")
    assert all(states(page))
    expect(page.locator('input[name="reading-path"][value="everything"]')).to_be_checked()
    page.locator(".path-choice label", has_text="The essentials").click()
    assert not any(states(page))


@pytest.mark.browser
def test_a_reader_opens_one_deep_dive_and_a_link_into_another_opens_it(make_page, site_url):
    page = open_page(make_page, site_url)
    first = page.locator(DIVES).first
    first.evaluate("d => d.closest('.chapter').style.contentVisibility = 'visible'")
    first.locator("summary").click()
    assert first.evaluate("d => d.open")
    dive, target = page.evaluate("""(s) => { const d = [...document.querySelectorAll(s)].slice(1)
        .find(d => d.querySelector('[id]')); return [d.id, d.querySelector('[id]').id]; }""", DIVES)
    linked = open_page(make_page, site_url, f"#{target}")
    assert linked.evaluate("(id) => document.getElementById(id).open", dive)


def a_target_inside_a_deep_dive(dist_dir) -> tuple[str, str]:
    """(the deep dive's id, the id of an element inside it): the first deep dive holding one, read
    from the built page (its markup, which no script changes before the reader acts)."""
    page = LexborHTMLParser((dist_dir / "index.html").read_text("utf-8"))
    for dive in page.css(DIVES):
        inside = [node.attributes["id"] for node in dive.css("[id]") if node.attributes["id"] != dive.attributes["id"]]
        if inside:  # (css() matches the deep dive itself too)
            return dive.attributes["id"], inside[0]
    raise AssertionError("no deep dive holds an element with an id")


@pytest.mark.browser
def test_a_deep_dive_holding_the_links_target_stays_open_when_the_reader_switches_path_and_back(make_page, site_url, dist_dir):
    """The reader followed a link into a deep dive, then tried the other path and came back to
    the essentials: every other deep dive closes again, the one they were sent to stays open, its
    target still on show."""
    dive, target = a_target_inside_a_deep_dive(dist_dir)
    page = open_page(make_page, site_url, f"#{target}")
    held = page.locator(f"#{dive}")
    assert held.evaluate("d => d.open"), "the link opened its deep dive"
    for path, all_open in (("Everything", True), ("The essentials", False), ("Everything", True),
                           ("The essentials", False)):
        page.locator(".path-choice label", has_text=path).click()
        opened = dict(zip(page.evaluate("(s) => [...document.querySelectorAll(s)].map(d => d.id)", DIVES), states(page)))
        assert opened.pop(dive), f"after choosing {path!r}, #{dive}, which holds the link's target #{target}, is closed"
        assert all(opened.values()) if all_open else not any(opened.values()), path
        expect(page.locator(f"#{target}")).to_be_visible()


@pytest.mark.browser
def test_print_shows_every_deep_dive(make_page, site_url):
    page = open_page(make_page, site_url)
    assert not any(states(page))
    page.emulate_media(media="print")
    hidden = page.evaluate("""(s) => [...document.querySelectorAll(s)].filter(d => {
        const body = d.querySelector(':scope > :not(summary)');
        return body && body.getBoundingClientRect().height === 0; }).length""", DIVES)
    assert hidden == 0
