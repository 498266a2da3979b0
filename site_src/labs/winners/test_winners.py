"""Who wins where (site_src/labs/winners/): its data step on hand-made ranks (who wins, a passage
never returned, the counts per kind of question); its view, in Node, for every state its
controls offer (each sort, each order, each filter) against the build's data; and in a real
browser what needs one: sorting by mouse and keyboard, the filter, shared links, and the table
on a phone."""

import itertools

import pytest
from playwright.sync_api import expect

from site_src.labs.winners import data as winners
from site_src.labs.winners.data import who_wins
from support.labs import hash_of, lab, open_page
from support.views import markup, text

SORTS = ("id", "dense", "bm25", "winner")
STATES = [{"sort": sort, "dir": direction, "show": show}
          for sort, direction, show in itertools.product(SORTS, ("asc", "desc"), ("all", "paraphrase", "literal"))]
NOUNS = {"all": "questions", "paraphrase": "paraphrases", "literal": "questions that share words with their passage"}
NAMES = {"dense": "dense", "bm25": "BM25", "tie": "tie"}


# ------------------------------------------------------------------ the data step


def golden(qid, paraphrase):
    return {"id": qid, "set": "golden", "text": f"question {qid}", "answer": f"p-{qid}", "paraphrase": paraphrase}


def test_the_retriever_that_ranks_the_right_passage_higher_wins():
    questions = [golden("g1", False), golden("g2", True), golden("g3", False), golden("g4", True), golden("g5", True),
                 {"id": "t1", "set": "tracer", "text": "traced", "answer": "p", "paraphrase": False}]
    ranks = {"g1": {"dense": 1, "bm25": 1, "hybrid": 1},
             "g2": {"dense": 2, "bm25": None, "hybrid": 3},      # BM25 never returns it: dense wins
             "g3": {"dense": None, "bm25": 3, "hybrid": 5},
             "g4": {"dense": 4, "bm25": 4, "hybrid": 2},
             "g5": {"dense": None, "bm25": None, "hybrid": None},  # neither returns it: a tie
             "t1": {"dense": 1, "bm25": 2, "hybrid": 1}}
    result = who_wins(questions, ranks)
    assert [(r["id"], r["winner"]) for r in result["rows"]] == [
        ("g1", "tie"), ("g2", "dense"), ("g3", "bm25"), ("g4", "tie"), ("g5", "tie")]
    # Only what the view reads.
    assert result["rows"][1] == {"id": "g2", "text": "question g2", "paraphrase": True, "dense": 2, "bm25": None,
                                 "winner": "dense"}
    assert result["counts"] == {
        "paraphrase": {"dense": 1, "bm25": 0, "tie": 2, "both_first": 0, "total": 3},
        "literal": {"dense": 0, "bm25": 1, "tie": 1, "both_first": 1, "total": 2},
        "all": {"dense": 1, "bm25": 1, "tie": 3, "both_first": 1, "total": 5},
    }


def test_the_built_table_has_every_golden_question_and_counts_that_add_up(data):
    table = data["labs"]["winners"]
    golden_ids = [q["id"] for q in data["questions"] if q["set"] == "golden"]
    assert [r["id"] for r in table["rows"]] == golden_ids
    for row in table["rows"]:
        assert (row["dense"], row["bm25"]) == (data["ranks"][row["id"]]["dense"], data["ranks"][row["id"]]["bm25"])
    counts = table["counts"]
    for key in ("dense", "bm25", "tie", "both_first", "total"):
        assert counts["all"][key] == counts["paraphrase"][key] + counts["literal"][key]
    assert counts["all"]["total"] == len(golden_ids) == counts["all"]["dense"] + counts["all"]["bm25"] + counts["all"]["tie"]
    assert winners.STATE == {"sort": "id", "dir": "asc", "show": "all"}


# ------------------------------------------------------------------ the view, in Node


def expected_order(data, sort="id", direction="asc", show="all"):
    """Golden-set order among equal keys (reversed with the rest when descending), like
    reverse=True on a stable sort of the reversed rows; a passage never returned sorts last."""
    rows = [r for r in data["labs"]["winners"]["rows"] if show == "all" or r["paraphrase"] == (show == "paraphrase")]
    missing = len(data["passages"]) + 1
    key = {"id": lambda r: 0, "dense": lambda r: r["dense"] or missing, "bm25": lambda r: r["bm25"] or missing,
           "winner": lambda r: {"dense": 0, "bm25": 1, "tie": 2}[r["winner"]]}[sort]
    if direction == "desc":
        return sorted(rows[::-1], key=key, reverse=True)
    return sorted(rows, key=key)


def expected_status(data, show):
    c = data["labs"]["winners"]["counts"][show]
    return (f"{c['total']} {NOUNS[show]}: dense search ranks the right passage higher on {c['dense']}, BM25 on "
            f"{c['bm25']}, and both give it the same rank on {c['tie']} ({c['both_first']} of them at rank 1).")


def shown(html):
    """What the drawing shows: each row, the sorted header, the status."""
    drawing = markup(html)
    rows = [{"id": tr.attributes["data-qid"], "question": text(tr.css_first("th")),
             "cells": [text(td) for td in tr.css("td")],
             "marked": [i for i, td in enumerate(tr.css("td")) if "is-winner" in (td.attributes.get("class") or "").split()],
             "paraphrase": tr.css_first(".badge-paraphrase") is not None}
            for tr in drawing.css("tbody tr")]
    sorted_by = [(th.attributes["data-sort"], th.attributes["aria-sort"]) for th in drawing.css("th[aria-sort]")]
    headers = [(th.attributes["data-sort"], text(th.css_first("button.sort-button"))) for th in drawing.css("thead th")]
    return rows, sorted_by, headers, text(drawing.css_first(".lab-status"))


@pytest.fixture(scope="module")
def drawings(views):
    return dict(zip(map(lambda s: tuple(s.values()), STATES), views.draw_many("winners", STATES)))


@pytest.mark.parametrize("state", STATES, ids=lambda s: "-".join(s.values()))
def test_the_view_draws_any_state_sorted_and_filtered_as_the_data_says(drawings, data, state):
    drawing = drawings[tuple(state.values())]
    rows, sorted_by, headers, status = shown(drawing.html)
    want = expected_order(data, state["sort"], state["dir"], state["show"])
    assert [r["id"] for r in rows] == [r["id"] for r in want]
    questions = {q["id"]: q for q in data["questions"]}
    for got, row in zip(rows, want):
        ranks = data["ranks"][row["id"]]
        assert got["question"] == f"{row['id']} {questions[row['id']]['text']}" + (" paraphrase" if got["paraphrase"] else "")
        assert got["paraphrase"] == questions[row["id"]]["paraphrase"]
        assert got["cells"] == [str(ranks["dense"] or "not found"), str(ranks["bm25"] or "not found"), NAMES[row["winner"]]]
        assert got["marked"] == {"dense": [0], "bm25": [1], "tie": []}[row["winner"]]
    assert sorted_by == [(state["sort"], "ascending" if state["dir"] == "asc" else "descending")]
    assert headers == [("id", "Question"), ("dense", "Dense"), ("bm25", "BM25"), ("winner", "Higher")]
    assert status == expected_status(data, state["show"])
    column = {"id": "question", "dense": "dense rank", "bm25": "BM25 rank", "winner": "which ranks higher"}[state["sort"]]
    assert drawing.summary == f"{status} Sorted by {column}, {'ascending' if state['dir'] == 'asc' else 'descending'}."


@pytest.mark.parametrize("state", [{"sort": "constructor", "dir": "asc", "show": "all"},
                                   {"sort": "id", "dir": "up", "show": "all"},
                                   {"sort": "id", "dir": "asc", "show": "toString"}])
def test_the_view_refuses_a_state_it_does_not_know(views, state):
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("winners", state)


# ------------------------------------------------------------------ in the browser


def order_and_sort(section):
    return section.evaluate("""s => ({ids: [...s.querySelectorAll('tbody tr')].map(tr => tr.dataset.qid),
        sorted: [...s.querySelectorAll('th[aria-sort]')].map(th => th.dataset.sort + ' ' + th.getAttribute('aria-sort')),
        status: s.querySelector('.lab-status').textContent})""")


def check_winners(section, data, sort="id", direction="asc", show="all"):
    """The table the reader sees is the state's: its rows in order, its header, its status."""
    got = order_and_sort(section)
    assert got["ids"] == [r["id"] for r in expected_order(data, sort, direction, show)]
    assert got["sorted"] == [f"{sort} {'ascending' if direction == 'asc' else 'descending'}"]
    assert got["status"] == expected_status(data, show)


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-winners")


@pytest.mark.browser
def test_a_click_on_a_header_sorts_by_it_and_again_turns_the_order_round(desktop, data):
    section = lab(desktop, "winners")
    check_winners(section, data)
    for column in ("dense", "bm25", "winner"):
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "asc")
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "desc")
    for show in ("paraphrase", "literal", "all"):
        section.locator(f'label:has(input[name="winners-show"][value="{show}"])').click()
        check_winners(section, data, "winner", "desc", show)
    assert hash_of(desktop) == "#lab-winners?sort=winner&dir=desc&show=all"


@pytest.mark.browser
def test_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-winners?sort=bm25&dir=desc&show=paraphrase")
    section = lab(page, "winners")
    check_winners(section, data, "bm25", "desc", "paraphrase")
    expect(section.locator('input[name="winners-show"][value="paraphrase"]')).to_be_checked()
    section.locator('input[name="winners-show"][value="paraphrase"]').focus()
    page.keyboard.press("ArrowRight")
    check_winners(section, data, "bm25", "desc", "literal")
    page.keyboard.press("Tab")  # the first sort button
    expect(section.locator('th[data-sort="id"] button')).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    check_winners(section, data, "dense", "asc", "literal")
    expect(section.locator('th[data-sort="dense"] button')).to_be_focused()  # the redraw keeps the focus
    page.keyboard.press("Space")
    check_winners(section, data, "dense", "desc", "literal")
    assert hash_of(page) == "#lab-winners?sort=dense&dir=desc&show=literal"
    # A link that names something unknown keeps the default.
    other = open_page(make_page, site_url, "#lab-winners?sort=constructor&dir=up&show=all")
    check_winners(lab(other, "winners"), data)


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_on_a_phone_the_ranks_stay_beside_each_question(make_page, site_url, javascript):
    page = open_page(make_page, site_url, "#lab-winners", viewport={"width": 360, "height": 780},
                     is_mobile=True, has_touch=True, java_script_enabled=javascript)
    section = lab(page, "winners")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    table = section.locator(".table-scroll")
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table fits without scrolling sideways"
    right = section.evaluate("""s => Math.max(...[...s.querySelectorAll('tbody td')].map(td => td.getBoundingClientRect().right))""")
    assert right <= 360, "both ranks and the winner in view beside each question"


@pytest.mark.browser
def test_without_javascript_the_headers_are_plain_headings(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-winners", java_script_enabled=False)
    button = lab(page, "winners").locator('th[data-sort="id"] button')
    assert button.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    assert button.evaluate("b => getComputedStyle(b, '::after').content") == "none"
