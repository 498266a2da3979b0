"""The printed page: the cheat sheet fits on one A4 page, the labs print their default state
without their controls, and every practice question prints with its answer and reasons."""

import pytest
from playwright.sync_api import expect

from support.browser import element_screenshot
from support.labs import open_page

pytestmark = pytest.mark.browser


def test_cheat_sheet_prints_on_one_page(make_page, site_url):
    # An A4 page at 96 px per inch, less 1.5 cm margins on every side.
    page = open_page(make_page, site_url, viewport={"width": 680, "height": 1000}, render_all=True)
    page.emulate_media(media="print")
    sheet = page.locator("#cheat-sheet")
    expect(sheet.locator(".cheatsheet > div")).to_have_count(7)
    height = sheet.evaluate("s => s.getBoundingClientRect().height")
    assert height < 1010, f"the cheat sheet is {height:.0f}px tall in print: more than one page"
    assert sheet.evaluate("s => s.scrollWidth <= s.clientWidth + 1")
    table = sheet.locator(".table-scroll")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1"), "the failure table is cut off in print"
    expect(page.locator("#lab-recall .lab-controls")).to_be_hidden()
    expect(page.locator("section.practice details.practice-answer .practice-right").first).to_be_visible()
    element_screenshot(page, "#cheat-sheet", "cheat-sheet-print")
