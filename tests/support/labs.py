"""Helpers the lab tests share: open the page the way a test wants it, start a lab the way a
reader does (by reaching it) and wait until it is ready, and read what a lab drew in a form
that two drawings can be compared in."""

import json
from contextlib import contextmanager

from playwright.sync_api import expect

from builder.labs import LABS

LAB_NAMES = tuple(lab.name for lab in LABS)


# How every test page opens: with reduced motion, so scrolls are instant (smooth ones would make
# screenshots and scroll checks wait), in the light scheme on a screen; `emulated` puts a page back so.
PAGE_MEDIA = {"reduced_motion": "reduce", "color_scheme": "light", "media": "screen"}


def open_page(make_page, site_url, hash_="", render_all=False, **options):
    """index.html in a new guarded page, scrolling instantly.

    The page skips far sections and labs until the reader nears them (content-visibility), which leaves
    their text out of innerText; a test that reads far text (or runs axe over the whole page)
    passes render_all=True to lay out every section at once. lab() lays out its own section."""
    options.setdefault("reduced_motion", PAGE_MEDIA["reduced_motion"])
    return arrive(make_page(**options), site_url, hash_, render_all)


def kept_page(make_page_module, **options):
    """A page a test module keeps (make_page_module), opened as open_page opens one, for tests that
    load the page afresh in it (open_again) or follow a link on it (follow_link) rather than open
    a new browser context each. Measured on this machine (CPU-seconds of Chromium's processes, the
    page loaded and left one second): a new context 0.63, a load in a kept tab 0.42 (before the
    address bar's popup was switched off, tests/support/chromium.py: 1.7 and 0.6). Only for tests
    whose page keeps nothing in storage or in its context that the next test would find.

    Example: tab = kept_page(make_page_module, viewport={"width": 360, "height": 780}, is_mobile=True)"""
    options.setdefault("reduced_motion", PAGE_MEDIA["reduced_motion"])
    return make_page_module(**options)


def open_again(page, site_url, hash_="", render_all=False):
    """index.html loaded afresh at `hash_` in a kept page (kept_page): a new document, as a reader
    opens a shared link, its labs started anew from the link alone.

    Through about:blank, since a change of the hash alone would be a same-document navigation
    (the lab's hashchange path, not a link opened). The page's options (viewport, JavaScript,
    motion) stay as the module opened it; a test that needs others opens a page of its own.

    Example: section = lab(open_again(shared, site_url, "#lab-bm25?q=g30"), "bm25")"""
    page.goto("about:blank")
    return arrive(page, site_url, hash_, render_all)


def arrive(page, site_url, hash_="", render_all=False):
    """index.html<hash_> loaded in `page`, every section laid out when render_all."""
    page.goto(site_url + "index.html" + hash_)
    page.wait_for_load_state("load")
    if render_all:
        render_everything(page)
    return page


@contextmanager
def emulated(page, **media):
    """The page with these media features emulated (page.emulate_media's: reduced_motion,
    color_scheme, media) for the block, put back as every test page opens (PAGE_MEDIA) after it:
    for a page the module's other tests share.

    Example: with emulated(desktop, color_scheme="dark"): colours = read(desktop)"""
    page.emulate_media(**media)
    try:
        yield page
    finally:
        page.emulate_media(**{key: PAGE_MEDIA[key] for key in media})


# A link followed on the open page, once every lab has written its last state into the link (a
# link equal to the one still standing is no change); done when the page's hashchange handlers
# have run (runtime/labs.js applies a lab's state in its own, which was added first).
FOLLOW_JS = """async (link) => {
    await RAG.linksSettled();
    if (location.hash === link) return;
    await new Promise((done) => { addEventListener("hashchange", done, { once: true }); location.hash = link; });
}"""


def follow_link(page, link: str) -> None:
    """Follow a link (#lab-x?state, written as location.hash holds it) on the open page, as a
    reader does who clicks one: the lab takes the state it names, and the page is not loaded
    again. For tests that share a page and set the state each needs.

    Example: follow_link(desktop, "#lab-chunking?chunker=fixed&size=25&overlap=0&limit=40&repeat=1&q=q1")"""
    page.evaluate(FOLLOW_JS, link)


def render_everything(page) -> None:
    """Lay out every section now (through the CSSOM, which the page's CSP allows).

    Then have it draw a frame (a screenshot does that, with or without the page's JavaScript):
    in a section that was skipped, Chromium styles what sits inside a size container (a tracer
    stage, say) only when a frame is drawn, so a layout read before then is a stale one no
    reader sees (a badge at the browser's default 16 px stuck out of the tracer in one load of
    twelve; after a drawn frame, in none of forty)."""
    lay_out_every_section(page)
    page.screenshot()


# Every chapter, and every lab in one, laid out (true) or skipped again until near the screen
# (false: back to the stylesheet's content-visibility: auto). Through the CSSOM, which the
# page's CSP allows.
LAY_OUT_JS = """(laidOut) => document.querySelectorAll('.chapter, .chapter > section.lab')
    .forEach((c) => { c.style.contentVisibility = laidOut ? 'visible' : ''; })"""

# A lab's chapter and the lab laid out for good, and every deep dive holding it opened, as a reader would.
LAY_OUT_LAB_JS = """(s) => { const c = s.closest('.chapter'); if (c) c.style.contentVisibility = 'visible';
    s.style.contentVisibility = 'visible';
    for (let d = s.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"""


def lay_out_every_section(page, laid_out: bool = True) -> None:
    """Lay out every chapter and lab now (laid_out=False: leave them to be skipped again, as on
    a first visit). Example: lay_out_every_section(page)"""
    page.evaluate(LAY_OUT_JS, laid_out)


def lay_out_lab(section) -> None:
    """Lay out one lab's section (a locator) and its chapter, and open the deep dives around it.
    Example: lay_out_lab(page.locator("#lab-bm25"))"""
    section.evaluate(LAY_OUT_LAB_JS)


def draw_a_frame(page) -> None:
    """Have the page draw a frame now (a screenshot does, with or without the page's JavaScript):
    what sits in a size container of a section laid out late is styled only then (see
    render_everything). For a test that reads one lab, laid out by lab(), not the whole page."""
    page.screenshot()


def lab(page, name):
    """The lab's section. With JavaScript on, it is brought into view (which starts it, as
    reaching it does for a reader) and returned once its script has made it ready."""
    section = page.locator(f"section.lab#lab-{name}")
    expect(section).to_have_count(1)
    lay_out_lab(section)
    if page.evaluate("() => document.documentElement.classList.contains('js')"):
        if section.get_attribute("data-lab-state") != "ready":
            section.scroll_into_view_if_needed()
        expect(section).to_have_attribute("data-lab-state", "ready")
    return section


def open_deep_dive(locator) -> None:
    """Open the closed deep dive that holds `locator`, as a reader does: by its summary."""
    summary = locator.locator("xpath=ancestor::details[contains(@class, 'deep-dive')][1]/summary")
    if summary.count() and not summary.evaluate("s => s.parentElement.open"):
        summary.scroll_into_view_if_needed()
        summary.click()


# True for an element past the screen's edge only because it sits in a row that scrolls sideways
# by design: its nearest box with overflow-x auto or scroll fits on the screen itself, really
# scrolls, and lets a keyboard reach what is hidden (the box takes focus, or the element is or
# labels a control inside the box, which the browser scrolls into view when it takes focus).
# Anything else past the edge, the box included, still counts as sticking out.
SCROLLS_ON_PURPOSE_JS = r"""(el) => {
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        const overflow = getComputedStyle(box).overflowX;
        if (overflow !== 'auto' && overflow !== 'scroll') continue;
        const label = el.closest('label');
        const control = el.closest('button, a[href], input, select, textarea') || (label && label.control);
        const reachable = box.tabIndex >= 0 || (!!control && box.contains(control) && !control.disabled);
        return box.getBoundingClientRect().right <= innerWidth + 1 && box.scrollWidth > box.clientWidth + 1 && reachable;
    }
    return false;
}"""

STICKING_OUT_JS = r"""([section, inside]) => { const onPurpose = """ + SCROLLS_ON_PURPOSE_JS + r""";
    return [...section.querySelectorAll('*')]
    .filter(el => el.getBoundingClientRect().right > innerWidth + 1 && !(inside && el.closest(inside)) && !onPurpose(el))
    .slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + (el.getAttribute('class') || '')); }"""


def sticking_out(section, inside: str = "") -> list[str]:
    """The first elements of a lab (or any element) past the screen's right edge, as tag.class,
    leaving out what sits inside `inside` (a CSS selector: boxes meant to scroll) and what a
    keyboard-reachable row that scrolls sideways by design holds (SCROLLS_ON_PURPOSE_JS)."""
    return section.page.evaluate(STICKING_OUT_JS, [section.element_handle(), inside])


def link_of(page) -> str:
    """location.hash as it stands once every lab has written its state, not decoded: a link to
    open in another page."""
    return page.evaluate("() => RAG.linksSettled().then(() => location.hash)")


def hash_of(page) -> str:
    """The link as it stands once every lab has written its state (a lab writes the state of
    typing or dragging when the reader pauses)."""
    return page.evaluate("() => RAG.linksSettled().then(() => decodeURIComponent(location.hash.replace(/\\+/g, ' ')))")


# What a lab drew, as nested lists a test can compare: every element with its tag, classes
# and attributes (numbers compared as numbers), the live value of every form control, and its
# text with white space folded. Left out: what the runtime adds around a drawing (the lab's
# own state attribute, an error box, keyboard access to scroll boxes, glossary descriptions, the
# list of a preset question picker but for the question it shows).
DRAWN_JS = r"""([section, controls]) => {
    const SKIP_ATTRS = new Set(["data-lab-state", "style", "aria-describedby", "data-rag-scroller", "value", "checked", "selected"]);
    const number = (v) => (v.trim() !== "" && !isNaN(Number(v)) ? String(Number(v)) : v);
    function walk(node) {
        if (node.nodeType === Node.TEXT_NODE) {
            const text = node.textContent.replace(/\s+/g, " ");
            return text.trim() ? text : null;
        }
        if (node.nodeType !== Node.ELEMENT_NODE) return null;
        if (node.classList.contains("lab-error")) return null;
        // Controls the HTML keeps a place for until the lab starts (their markup is in
        // assets/controls.js): drawn as they will stand.
        if (node.matches("template[data-lab-controls]:not([data-controls])")) {
            const markup = document.createElement("template");
            markup.innerHTML = (controls[node.closest("section.lab").dataset.lab] || [])[Number(node.dataset.labControls)] || "";
            return [...markup.content.childNodes].map(walk).find((c) => c !== null && typeof c !== "string") || null;
        }
        // A preset picker's list is the runtime's, filled from the data when the lab starts; the
        // drawing is the question it shows.
        if (node.closest("select[data-options=presets]") && node.matches("optgroup, option:not(:checked)")) {
            return node.matches("optgroup") ? [...node.childNodes].map(walk).find((c) => c !== null) || null : null;
        }
        const attrs = [...node.attributes]
            .filter((a) => !SKIP_ATTRS.has(a.name) && !(a.name === "tabindex" && node.hasAttribute("data-rag-scroller")))
            .map((a) => a.name === "class" ? "class=" + [...node.classList].sort().join(" ") : a.name + "=" + number(a.value))
            .sort();
        if (node.matches("input, select, textarea")) attrs.push("value=" + node.value);
        if (node.matches("input[type=radio], input[type=checkbox]")) attrs.push("checked=" + node.checked);
        if (node.matches("option")) attrs.push("selected=" + node.selected);
        const children = [];
        let text = "";
        for (const child of node.childNodes) {
            const drawn = walk(child);
            if (drawn === null) continue;
            if (typeof drawn === "string") { text += drawn; continue; }
            if (text.trim()) children.push(text.trim());
            text = "";
            children.push(drawn);
        }
        if (text.trim()) children.push(text.trim());
        return [node.tagName.toLowerCase() + (attrs.length ? " " + attrs.join(" ") : ""), ...children];
    }
    return walk(section);
}"""


def drawn(section, controls: dict[str, list[str]]):
    """What the lab's section shows, as nested [element, ...children] lists (see DRAWN_JS), its
    controls from `controls` (support.views.built_controls) where they have not gone in yet."""
    return section.evaluate(f"(section) => ({DRAWN_JS})([section, {json.dumps(controls)}])")


def outline(tree, depth=0) -> list[str]:
    """A drawing as indented lines, for a readable diff when two drawings differ."""
    if isinstance(tree, str):
        return ["  " * depth + repr(tree)]
    lines = ["  " * depth + tree[0]]
    for child in tree[1:]:
        lines += outline(child, depth + 1)
    return lines
