"""The passage card (site_src/views/card.js, opened by runtime/kit.js): a click or Enter on a
passage id opens it in place, in the BM25, hybrid, Ask and permissions labs. It shows each matched
term's part of the score as the BM25 view's row shows it (also after k1 moves), the metadata of
the corpus's data, the passage's ranks as the lab's lists write them, and its text with every
occurrence of a matched term marked; Escape closes it and gives the focus back. It loads with the
first opening, not with the page. Screenshots of an open card at 360 and 1280 px, light and dark,
go to test-artifacts/card-*.png. In Node, the same view over a made-up corpus (six chunks about a
bicycle, tests/support/made_up_corpus.py) shows the shares and marks Python's BM25 gives."""

import re

import pytest
from playwright.sync_api import expect

from engine.bm25 import BM25
from engine.tokenize import tokenize
from support.labs import lab, lay_out_every_section, open_page
from support import made_up_corpus as made_up
from support.paths import ARTIFACTS
from support.views import draw_chunks, markup, text as text_of

browser = pytest.mark.browser


def test_over_a_made_up_corpus_the_card_shows_pythons_shares_and_marks(dist_dir, data):
    """Any corpus: chunks without dates, kinds or readers get a card with no metadata rows."""
    corpus = made_up.corpus(data["settings"])
    query, k1, b = "how often should I oil the chain", 1.6, 0.5
    index = BM25([c["text"] for c in made_up.CHUNKS], k1, b)
    states = [{"pid": c["id"], "text": query, "k1": k1, "b": b, "ranks": [{"list": "BM25", "rank": "1"}]} for c in made_up.CHUNKS]
    drawings = draw_chunks(dist_dir, corpus, [{"view": "card", "input": {"prefix": "made"}, "state": s} for s in states],
                           scripts=("card",))
    for at, (chunk, drawing) in enumerate(zip(made_up.CHUNKS, drawings)):
        node = markup(drawing.html)
        shares = [(c.term, c.score) for c in index.explain(query, at) if c.score > 0]
        total = sum(s for _, s in shares)
        assert [text_of(li) for li in node.css(".card-shares li")] == [f"{t} +{s:.3f} {100 * s / total:.0f}%" for t, s in shares]
        matched = {t for t, _ in shares}
        assert [m.text().lower() for m in node.css("mark.card-term")] == [t for t in tokenize(chunk["text"]) if t in matched]
        assert node.css_first(".card-text").text() == chunk["text"]
        assert not node.css(".card-meta dt") and text_of(node.css_first(".card-ranks")) == "In this lab: BM25 1"
        assert drawing.redrawn
    assert any(node.css(".card-shares li") for node in (markup(d.html) for d in drawings))


@pytest.fixture(scope="module")
def card_page(make_page_module, site_url):
    return open_page(make_page_module, site_url)


def meta_of(card):
    return dict(zip(card.locator(".card-meta dt").all_text_contents(), card.locator(".card-meta dd").all_text_contents()))


def expected_meta(p):
    kinds = {"help": "help-center page", "forum": "forum post", "runbook": "staff runbook"}
    who = "everyone (public)" if p["acl"] == ["public"] else ", ".join(p["acl"]) + (" only" if len(p["acl"]) == 1 else "")
    return {"Updated": p["updated"], "Source": kinds[p["kind"]], "Who may read it": who,
            "Superseded": "yes: a newer page replaces it" if p["superseded"] else "no"}


def python_shares(data, text, pid, k1, b):
    index = BM25([p["text"] for p in data["passages"]], k1, b)
    at = [p["id"] for p in data["passages"]].index(pid)
    return [(c.term, c.score) for c in index.explain(text, at) if c.score > 0]


@browser
def test_the_card_loads_with_the_first_opening_not_with_the_page(card_page):
    assert card_page.evaluate("() => !!document.querySelector('script[src*=\"scripts/card.js\"]')") is False
    assert card_page.evaluate("() => !!document.querySelector('link[href*=\"card.css\"]')") is False


@browser
def test_in_bm25_a_click_opens_the_card_with_the_views_shares_and_it_follows_k1(card_page, data):
    section = lab(card_page, "bm25")
    row = section.locator("li.result[data-pid]").nth(1)
    pid = row.get_attribute("data-pid")
    row.locator("button.pid-open").click()
    card = section.locator(".card-host [data-view='card']")
    expect(card).to_be_visible()
    by_id = {p["id"]: p for p in data["passages"]}
    assert card.locator(".card-title code").text_content() == pid
    assert meta_of(card) == expected_meta(by_id[pid])
    assert card.locator(".card-ranks strong").all_text_contents() == [row.locator(".rank").text_content()]
    # The shares are the row's own numbers (the BM25 view), and Python's.
    shown = [re.sub(r"\s+", " ", t).strip() for t in card.locator(".card-shares li").all_text_contents()]
    row_terms = [t.strip() for t in row.locator("ul.terms li").all_text_contents()]
    assert [s.rsplit(" ", 1)[0] for s in shown] == row_terms
    question = next(q for q in data["questions"] if q["id"] == "upload-4021")
    k1, b = data["settings"]["bm25"]["k1"], data["settings"]["bm25"]["b"]
    shares = python_shares(data, question["text"], pid, k1, b)
    total = sum(s for _, s in shares)
    assert shown == [f"{t} +{s:.3f} {100 * s / total:.0f}%" for t, s in shares]
    # Every occurrence of a matched term is marked, and nothing else.
    matched = {t for t, _ in shares}
    marks = [m.lower() for m in card.locator("mark.card-term").all_text_contents()]
    assert marks == [t for t in tokenize(by_id[pid]["text"]) if t in matched]
    assert card.locator(".card-text").text_content() == by_id[pid]["text"]
    # k1 moved by the keyboard: the card follows, still equal to the row.
    section.locator('input[data-key="k1"]').focus()
    card_page.keyboard.press("ArrowRight")
    k1_now = float(section.locator('input[data-key="k1"]').input_value())
    assert k1_now != k1
    shares = python_shares(data, question["text"], pid, k1_now, b)
    expect(card.locator(".card-shares li").first).to_contain_text(f"+{shares[0][1]:.3f}")
    row = section.locator(f'li.result[data-pid="{pid}"]')
    assert [s.rsplit(" ", 1)[0] for s in (re.sub(r"\s+", " ", t).strip() for t in card.locator(".card-shares li").all_text_contents())] \
        == [t.strip() for t in row.locator("ul.terms li").all_text_contents()]
    card.locator(".card-close").click()
    expect(section.locator(".card-host")).to_have_count(0)


@browser
def test_in_hybrid_enter_on_a_row_opens_it_with_its_three_ranks_and_escape_gives_the_focus_back(card_page, data):
    section = lab(card_page, "hybrid")
    row = section.locator('[data-list="dense"] li.result[tabindex="0"]')
    pid = row.get_attribute("data-pid")
    row.focus()
    card_page.keyboard.press("Enter")
    card = section.locator(".card-host [data-view='card']")
    expect(card).to_be_visible()
    expect(card.locator(".card-title")).to_be_focused()
    ranks = {}
    for li in section.locator(f'.lab-output li.result[data-pid="{pid}"]').all():
        heading = li.evaluate("li => document.getElementById(li.closest('ol').getAttribute('aria-labelledby')).textContent")
        ranks.setdefault(heading, li.locator(".rank").text_content())
    assert card.locator(".card-ranks").text_content() == "In this lab: " + "; ".join(f"{k} {v}" for k, v in ranks.items())
    assert len(ranks) >= 2
    assert meta_of(card) == expected_meta({p["id"]: p for p in data["passages"]}[pid])
    card_page.keyboard.press("Escape")
    expect(section.locator(".card-host")).to_have_count(0)
    expect(row).to_be_focused()


@browser
def test_in_ask_and_permissions_the_keyboard_reaches_an_id_and_opens_its_card(card_page, data):
    by_id = {p["id"]: p for p in data["passages"]}
    for name, stage in (("ask", '[data-stage="fused"] '), ("permissions", "")):
        section = lab(card_page, name)
        button = section.locator(f"{stage}li.result[data-pid] button.pid-open").first
        pid = button.evaluate("b => b.closest('[data-pid]').dataset.pid")
        button.focus()
        card_page.keyboard.press("Enter")
        card = section.locator(".card-host [data-view='card']")
        expect(card).to_be_visible()
        assert card.locator(".card-title code").text_content() == pid
        assert meta_of(card) == expected_meta(by_id[pid])
        assert card.locator("mark.card-term").count() > 0, name  # the lab's question has terms in its first passage
        card_page.keyboard.press("Escape")
        expect(button).to_be_focused()


@browser
def test_screenshots_of_an_open_card(card_page):
    """At 360 and 1280 px, light and dark: the card inside the screen's width (opened by a script's
    click on the id, which is what a tap does; the tests above use the pointer and the keyboard)."""
    ARTIFACTS.mkdir(exist_ok=True)
    # Only the BM25 lab's section laid out (the tests before laid out others): each width and
    # scheme then restyles one section, not five.
    lay_out_every_section(card_page, laid_out=False)
    section = lab(card_page, "bm25")
    for width in (360, 1280):
        card_page.set_viewport_size({"width": width, "height": 900})
        for scheme in ("light", "dark"):
            card_page.emulate_media(color_scheme=scheme)
            section.locator("li.result[data-pid] button.pid-open").first.evaluate("b => b.click()")
            card = section.locator(".card-host")
            expect(card).to_be_visible()
            card.evaluate("c => c.scrollIntoView({block: 'center'})")
            box = card.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
            card_page.screenshot(path=str(ARTIFACTS / f"card-{width}-{scheme}.png"))
            card.locator(".card-close").evaluate("b => b.click()")
    card_page.emulate_media(color_scheme="light")


# What of a lab's output lies under its open card: the rows of its lists, its lines and pictures,
# as the next painted frame shows them (a lab that redraws moves the card in its next frame, so a
# script run between the redraw and that frame could see a state no reader ever sees).
COVERED_JS = """async (section) => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const card = section.querySelector('.card-host').getBoundingClientRect();
    const under = (r) => r.width > 0 && r.height > 0 && r.left < card.right - 1 && r.right > card.left + 1
        && r.top < card.bottom - 1 && r.bottom > card.top + 1;
    return [...section.querySelectorAll('.lab-output :is(li.result, p, figure, h4)')]
        .filter((el) => under(el.getBoundingClientRect())).map((el) => el.dataset.pid || el.className || el.tagName);
}"""


@browser
def test_the_card_opens_in_place_pushing_the_rows_after_it_down_and_closing_gives_the_room_back(card_page):
    """At 1280 and 390 px, in the BM25 lab (a button on the id) and the hybrid lab (Enter on a row
    of three lists side by side on a desktop): no row, line or picture of the lab lies under the
    open card, the next row stands below the card, and Escape closes it, gives the focus back and
    puts the next row back where it was."""
    for width, height in ((1280, 900), (390, 844)):
        card_page.set_viewport_size({"width": width, "height": height})
        for name, rows in (("bm25", ".lab-output li.result[data-pid]"), ("hybrid", '[data-list="dense"] li.result[data-pid]')):
            section = lab(card_page, name)
            row, after = section.locator(rows).nth(1), section.locator(rows).nth(2)
            row.scroll_into_view_if_needed()
            trigger = row.locator("button.pid-open") if name == "bm25" else row
            before = after.bounding_box()["y"]
            trigger.focus()
            card_page.keyboard.press("Enter")
            card = section.locator(".card-host")
            expect(card.locator("[data-view='card']")).to_be_visible(timeout=15_000)  # the first opening loads card.js
            assert section.evaluate(COVERED_JS) == [], (width, name)
            box = card.bounding_box()
            assert after.bounding_box()["y"] >= box["y"] + box["height"], (width, name)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
            card_page.keyboard.press("Escape")
            expect(card).to_have_count(0)
            expect(trigger).to_be_focused()
            assert abs(after.bounding_box()["y"] - before) < 1, (width, name)
    card_page.set_viewport_size({"width": 1280, "height": 900})
