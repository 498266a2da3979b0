"""Control and effect on one screen: for every lab with controls, at 1280x900 and on a 390x844
phone, each control moved with the keyboard is in the viewport together with what it changed,
and the lab's bar (its controls and the one-line outcome under them, templates/_lab.html) stays
at the top of the screen while the lab is on it, below the contents bar a phone keeps there.

One page per screen size serves every test of the module. At 390 px each lab is photographed
with its bar and output (test-artifacts/screenshots/glance-<lab>.png)."""

import pytest

from support.browser import SCREENSHOTS
from support.labs import emulated, lab, lay_out_every_section, open_page

pytestmark = pytest.mark.browser

SCREENS = {"desktop": {"viewport": {"width": 1280, "height": 900}},
           "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}

# The labs whose outcome line this page's frame draws from the lab's own state (outcome(props)):
# every control of theirs is moved. The other labs' first control is (their outcome is their own).
WITH_OUTCOME = ("chunking", "bm25", "hybrid", "rerank", "permissions", "prompt")
# Labs left out: the quiz's one button clears answers, which changes nothing until some are given.
LEFT_OUT = ("quiz",)

# Every control of a lab's bar, moved the way a keyboard moves it, and what it changed. A range
# or a radio takes ArrowRight, a select ArrowDown (a closed select's next option), a checkbox
# Space, a button Enter, a text field one more letter. Each control is reached as a keyboard
# reaches it (focus() scrolls it into view), then its key is pressed; a MutationObserver on the
# lab collects what the press changed, and the test asks that the control, and something it
# changed, are both inside the viewport (and, for a lab with an outcome line, that line too).
MOVE_JS = r"""([name, index]) => {
  const section = document.getElementById('lab-' + name);
  window.__changed = [];
  window.__watch = new MutationObserver((records) => {
    for (const r of records) window.__changed.push(r.target.nodeType === 1 ? r.target : r.target.parentElement);
  });
  const controls = [...section.querySelectorAll('.lab-bar :is(input, select, textarea, button)')]
    .filter((c) => !c.disabled && c.getClientRects().length && !(c.type === 'radio' && !c.checked));
  if (index >= controls.length) return null;
  const control = controls[index];
  control.focus();
  window.__watch.observe(section, {subtree: true, childList: true, characterData: true, attributes: true,
                                   attributeFilter: ['class', 'value', 'aria-pressed']});
  return {count: controls.length, what: control.name || control.dataset.preset || control.textContent.trim().slice(0, 30),
          kind: control.tagName === 'INPUT' ? control.type : control.tagName.toLowerCase(), focused: document.activeElement === control};
}"""

SEEN_JS = r"""async ([name, tocBottom]) => {
  await new Promise(requestAnimationFrame);
  window.__watch.disconnect();
  const section = document.getElementById('lab-' + name);
  const inView = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > tocBottom && r.top < innerHeight && r.top >= tocBottom - 1 && r.bottom <= innerHeight + 1;
  };
  const control = document.activeElement;
  const outcome = section.querySelector('[data-outcome]');
  const changed = window.__changed.filter((el) => el && el.isConnected && !control.contains(el) && !el.contains(control));
  return {
    control: section.contains(control) && inView(control),
    outcome: outcome && outcome.textContent.trim() ? inView(outcome) : null,
    outcomeText: outcome ? outcome.textContent.trim() : '',
    changed: changed.length, changedInView: changed.some(inView),
  };
}"""

TOC_BOTTOM_JS = r"""() => {
  const toc = document.querySelector('.toc');
  const style = toc && getComputedStyle(toc);
  return style && style.position === 'sticky' && toc.getBoundingClientRect().height < innerHeight / 2
    ? toc.getBoundingClientRect().height : 0;
}"""

KEYS = {"range": "ArrowRight", "radio": "ArrowRight", "select": "ArrowDown", "checkbox": " ",
        "button": "Enter", "search": "s", "text": "s", "textarea": "s"}




@pytest.fixture(scope="module", params=list(SCREENS))
def screen(request, make_page_module, site_url):
    page = open_page(make_page_module, site_url, **SCREENS[request.param])
    page.screen = request.param
    return page


def labs_with_bars(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('section.lab:has(> .lab-bar)')].map(s => s.dataset.lab)")


def move_controls(page, name, every: bool) -> list[tuple[dict, dict]]:
    """[(control, what the test saw)] for the controls of the lab's bar (every one, or the
    first), each moved once, the lab having been scrolled to as a reader arrives at it."""
    section = lab(page, name)
    # From the lab's top; then, if its bar is not all on screen yet, scrolled on until it is.
    section.evaluate("""s => { s.scrollIntoView({block: 'start'});
      const bar = s.querySelector(':scope > .lab-bar');
      if (bar.getBoundingClientRect().bottom > innerHeight) bar.scrollIntoView({block: 'end'}); }""")
    toc = page.evaluate(TOC_BOTTOM_JS)
    found, index = [], 0
    while every or not found:
        control = page.evaluate(MOVE_JS, [name, index])
        if control is None:
            break
        page.keyboard.press(KEYS[control["kind"]])
        found.append((control, page.evaluate(SEEN_JS, [name, toc])))
        index += 1
    return found


STUCK_JS = r"""([name, tocBottom]) => {
  const section = document.getElementById('lab-' + name);
  const bar = section.querySelector(':scope > .lab-bar');
  const box = section.getBoundingClientRect();
  // Halfway down the lab (or as far as its end allows with the bar still inside it).
  window.scrollBy(0, box.top + Math.min(box.height / 2, box.height - innerHeight / 2));
  const top = bar.getBoundingClientRect().top;
  return {tall: getComputedStyle(bar).position !== 'sticky', top, tocBottom, height: bar.getBoundingClientRect().height};
}"""


def test_every_control_and_what_it_changed_are_on_one_screen(screen):
    names = [name for name in labs_with_bars(screen) if name not in LEFT_OUT]
    assert set(WITH_OUTCOME) <= set(names), "every lab with an outcome line has a bar"
    bad, outcome_moved = [], {}
    for name in names:
        lab(screen, name)
        texts = {screen.locator(f"#lab-{name}-outcome").text_content().strip()} if name in WITH_OUTCOME else set()
        moves = move_controls(screen, name, every=name in WITH_OUTCOME)
        assert moves, f"{name}: no control in its bar"
        for control, seen in moves:
            where = f"{screen.screen} {name} {control['what']} ({control['kind']})"
            if not seen["control"]:
                bad.append(f"{where}: the control is off screen once moved")
            if not seen["changedInView"]:
                bad.append(f"{where}: nothing it changed is on screen ({seen['changed']} changes)")
            if name in WITH_OUTCOME:
                if not seen["outcome"]:
                    bad.append(f"{where}: the outcome line is off screen or empty")
                texts.add(seen["outcomeText"])
        outcome_moved[name] = len(texts)
    assert not bad, "\n  ".join(["control and effect apart:"] + bad)
    # The line follows the state: some control of each lab changes what it says.
    assert all(outcome_moved[name] > 1 for name in WITH_OUTCOME), {name: outcome_moved[name] for name in WITH_OUTCOME}


def test_the_bar_stays_at_the_top_while_the_lab_is_on_screen(screen):
    toc = screen.evaluate(TOC_BOTTOM_JS)
    if screen.screen == "phone":
        assert toc > 40, "a phone keeps the contents bar at the top: the labs' bars stick under it"
    for name in WITH_OUTCOME:
        lab(screen, name)
        stuck = screen.evaluate(STUCK_JS, [name, toc])
        assert not stuck["tall"], f"{name}: its bar is {stuck['height']:.0f} px tall, too tall to stick at {screen.screen} size"
        assert abs(stuck["top"] - toc) <= 2, f"{name}: halfway down the lab its bar is at {stuck['top']:.0f} px, not {toc:.0f}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        screen.screenshot(path=str(SCREENSHOTS / f"glance-{screen.screen}-{name}.png"))
    if screen.screen == "phone":
        # The other labs' bars, halfway down each, for a person to look at (their outcome lines
        # are their own; a bar too tall to stick, the checker's, scrolls with the page).
        for name in labs_with_bars(screen):
            if name not in WITH_OUTCOME and name not in LEFT_OUT:
                lab(screen, name)
                screen.evaluate(STUCK_JS, [name, toc])
                screen.screenshot(path=str(SCREENSHOTS / f"glance-phone-{name}.png"))


def test_chunking_shows_the_page_and_the_ranking_side_by_side_on_a_wide_screen(screen):
    section = lab(screen, "chunking")
    figure = section.locator(".chunk-page-figure").bounding_box()
    ranking = section.locator(".chunk-results").bounding_box()
    if screen.screen == "desktop":
        assert ranking["x"] >= figure["x"] + figure["width"] - 1 and abs(ranking["y"] - figure["y"]) < 40
    else:
        assert ranking["y"] >= figure["y"] + figure["height"] - 1, "a phone keeps them one above the other"


# ------------------------------------------------------------------ small faults (issue 24)

CAPTION_GAP_JS = r"""() => [...document.querySelectorAll('figure.flow-figure')].map((figure) => {
  const caption = figure.querySelector(':scope > figcaption');
  const boxes = [...figure.querySelectorAll('*')].filter((el) => !caption.contains(el) && !el.closest('.visually-hidden')
    && el.getClientRects().length && getComputedStyle(el).borderBottomStyle !== 'none' && parseFloat(getComputedStyle(el).borderBottomWidth) > 0);
  const lowest = Math.max(...boxes.map((el) => el.getBoundingClientRect().bottom));
  return {section: figure.closest('section.chapter').id, boxes: boxes.length, gap: caption.getBoundingClientRect().top - lowest};
})"""


def test_the_flow_figures_captions_stand_clear_of_their_boxes(screen):
    """Sections 1 and 3 draw their flow as bordered boxes; the caption under them keeps a gap
    (it once sat on the last box's border when a stray brace dropped the figcaption rule)."""
    lay_out_every_section(screen)
    figures = screen.evaluate(CAPTION_GAP_JS)
    assert len(figures) == 2 and all(f["boxes"] for f in figures), figures
    assert all(f["gap"] >= 8 for f in figures), f"a caption within 8 px of its figure's boxes at {screen.screen} size: {figures}"


LINES_JS = r"""() => {
  const section = document.getElementById('lab-chunking');
  const style = getComputedStyle(section);
  const rgb = (colour) => { const probe = document.createElement('i'); probe.style.color = colour; section.append(probe);
    const found = getComputedStyle(probe).color.match(/[\d.]+/g).slice(0, 3).map(Number); probe.remove(); return found; };
  // The page's box (.chunk-page) is drawn on --paper-raised; read as the variable, which no
  // colour transition holds back after the theme changes.
  return {odd: rgb(style.getPropertyValue('--chunk-odd')), even: rgb(style.getPropertyValue('--chunk-even')),
          paper: rgb(style.getPropertyValue('--paper-raised')),
          oddLine: style.getPropertyValue('--chunk-odd-line'), evenLine: style.getPropertyValue('--chunk-even-line')};
}"""


def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def hue(rgb) -> float:
    import colorsys
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chunking_labs_two_underlines_are_easy_to_tell_apart(screen, scheme):
    """Each chunk's line stands out from the page (3:1, WCAG's bar for graphics) and the two
    differ in hue by 90 degrees or more, as well as in pattern (solid, dashed). In the dark
    theme they were once a blue and a violet of one lightness."""
    if screen.screen != "desktop":
        pytest.skip("colours do not depend on the width")
    # Only the chunking lab's section laid out (the tests before laid out the others): a change
    # of theme then restyles one section, not the whole page.
    lay_out_every_section(screen, laid_out=False)
    lab(screen, "chunking")
    with emulated(screen, color_scheme=scheme):
        lines = screen.evaluate(LINES_JS)
    for name in ("odd", "even"):
        assert contrast(lines[name], lines["paper"]) >= 3, f"{scheme}: the {name} chunks' line {lines[name]} on {lines['paper']}"
    apart = abs(hue(lines["odd"]) - hue(lines["even"]))
    assert min(apart, 360 - apart) >= 90, f"{scheme}: lines {lines['odd']} and {lines['even']} are {apart:.0f} degrees of hue apart"
    assert "repeating" in lines["evenLine"] and "repeating" not in lines["oddLine"], "one line solid, one dashed"


def test_the_permission_labs_keyword_columns_start_level_on_a_phone(screen):
    """'BM25, not filtered · 1 leaked' wraps at 390 px; the two lists still start side by side."""
    if screen.screen != "phone":
        pytest.skip("a phone's width")
    section = lab(screen, "permissions")
    tops = section.locator(".perm-keyword ol.results > li:first-child").evaluate_all(
        "items => items.map(li => li.getBoundingClientRect().top)")
    heads = section.locator(".perm-keyword h4").evaluate_all("hs => hs.map(h => h.textContent)")
    assert len(tops) == 2 and any("leaked" in head for head in heads)
    assert abs(tops[0] - tops[1]) <= 1, f"the keyword lists start {abs(tops[0] - tops[1]):.0f} px apart: {heads}"
