"""Helpers the lab tests share: open the page the way a test wants it, find a lab once its
script has set it up."""

from playwright.sync_api import expect


def open_page(make_page, site_url, hash_="", **options):
    """index.html in a new guarded page, scrolling instantly (screenshots and scroll checks
    would otherwise wait for smooth scrolls)."""
    options.setdefault("reduced_motion", "reduce")
    page = make_page(**options)
    page.goto(site_url + "index.html" + hash_)
    page.wait_for_load_state("load")
    return page


def lab(page, name):
    """The lab's section; with JavaScript on, only once its script has made it ready."""
    section = page.locator(f"section.lab#lab-{name}")
    expect(section).to_have_count(1)
    if page.evaluate("() => document.documentElement.classList.contains('js')"):
        expect(section).to_have_attribute("data-lab-state", "ready")
    return section
