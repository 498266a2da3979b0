"""On a 360 px phone, every figure, table, display formula and block of code in the article fits
the screen, or scrolls inside its own box and shows that it does (a shadow at the edge where
more waits: utilities.css). A wide table becomes cards (tables.css, builder/page/prose.py).
Checked with every section laid out and every deep dive open, in light and dark."""

import pytest

from support.labs import lay_out_every_section, open_page

BOXES_JS = r"""() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const width = document.documentElement.clientWidth;
  const scroller = (el) => {
    for (let box = el; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (['auto', 'scroll'].includes(style.overflowX) && box.scrollWidth > box.clientWidth + 1) return box;
    }
    return null;
  };
  const found = [];
  for (const el of document.querySelectorAll('main figure, main table, main .math-block, main math[display=block], main pre')) {
    if (el.closest('section.lab')) continue;  // a lab's own layout is its tests' concern
    const box = scroller(el);
    const where = `${el.tagName.toLowerCase()}.${el.className} in #${el.closest('section.chapter').id}: ` +
      (el.textContent || '').trim().slice(0, 40);
    if (box) {
      const cue = getComputedStyle(box).backgroundAttachment.includes('local');
      const fits = box.getBoundingClientRect().right <= width + 1;
      found.push({where, scrolls: true, shows: cue && fits});
    } else {
      found.push({where, scrolls: false, shows: el.getBoundingClientRect().right <= width + 1});
    }
  }
  return {found, page: document.documentElement.scrollWidth - width};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_figure_table_formula_and_code_fits_a_phone_or_shows_it_scrolls(make_page, site_url, scheme):
    page = open_page(make_page, site_url, viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
                     color_scheme=scheme)
    lay_out_every_section(page)
    result = page.evaluate(BOXES_JS)
    assert result["page"] <= 0, f"the page itself scrolls sideways by {result['page']} px"
    bad = [box["where"] for box in result["found"] if not box["shows"]]
    assert not bad, "cut off at 360 px, or scrolling without saying so:\n  " + "\n  ".join(bad)
    kinds = {box["where"].split(".")[0] for box in result["found"]}
    assert {"figure", "table", "pre"} <= kinds, "the check saw the page's figures, tables and code"
    tables = [box for box in result["found"] if box["where"].startswith("table")]
    assert sum(not box["scrolls"] for box in tables) > len(tables) / 2, "most tables fit as they are, or as cards"
