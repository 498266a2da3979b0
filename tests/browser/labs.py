"""Helpers the lab tests share: open the page the way a test wants it, find a lab once its
script has set it up."""

from playwright.sync_api import expect

from harness import AXE_JS


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


def axe_on_sections(page, section_ids) -> list[str]:
    """axe-core's WCAG 2.1 AA violations inside the given sections, one line each."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text("utf-8") + "\n;true")
    return page.evaluate("""async (ids) => {
        const include = ids.filter(id => document.getElementById(id)).map(id => ['#' + id]);
        const result = await axe.run({include}, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']},
                                                 resultTypes: ['violations']});
        return result.violations.map(v => v.id + ': ' + v.help + ' :: ' +
                                     v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(' | '));
    }""", list(section_ids))
