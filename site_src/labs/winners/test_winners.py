"""Who wins where (site_src/labs/winners/): its data step on hand-made
ranks (who wins, a passage never returned, the counts per kind of question); the template's
sorting and filtering for every state; and in a real browser the table equal to the build's
data, sorted and filtered by mouse, keyboard and shared link, as the template draws it."""

import itertools
import re

import pytest
from playwright.sync_api import expect

from site_src.labs.winners import data as winners
from site_src.labs.winners.data import who_wins
from builder.page.facts import Facts
from builder.page.render import render_lab
from support.labs import drawn, hash_of, lab, open_page, outline

SORTS = ("id", "dense", "bm25", "winner")
STATES = [{"sort": sort, "dir": direction, "show": show}
          for sort, direction, show in itertools.product(SORTS, ("asc", "desc"), ("all", "paraphrase", "literal"))]


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
    assert result["rows"][1] == {"id": "g2", "text": "question g2", "answer": "p-g2", "paraphrase": True,
                                 "dense": 2, "bm25": None, "hybrid": 3, "winner": "dense"}
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


@pytest.mark.parametrize("state", STATES, ids=lambda s: "-".join(s.values()))
def test_the_template_draws_any_state_sorted_and_filtered(data, state):
    html = render_lab("winners", Facts(data).namespace(), state)
    assert re.findall(r'<tr data-qid="([^"]+)"', html) == [r["id"] for r in expected_order(data, state["sort"], state["dir"], state["show"])]
    assert re.findall(r'data-sort="([a-z0-9]+)" aria-sort="([a-z]+)"', html) == [
        (state["sort"], "ascending" if state["dir"] == "asc" else "descending")]
    counts = data["labs"]["winners"]["counts"][state["show"]]
    assert f'<p class="lab-status">{counts["total"]} ' in html


# ------------------------------------------------------------------ in the browser


def shown_winners(section):
    return section.evaluate("""s => [...s.querySelectorAll('tbody tr')].map(tr => ({
        id: tr.dataset.qid, dense: tr.cells[1].textContent, bm25: tr.cells[2].textContent,
        winner: tr.cells[3].textContent, paraphrase: !!tr.querySelector('.badge-paraphrase'),
        marked: [...tr.querySelectorAll('td.is-winner')].map(td => td.cellIndex)}))""")


NOUNS = {"all": "questions", "paraphrase": "paraphrases", "literal": "questions that share words with their passage"}


def check_winners(section, data, sort="id", direction="asc", show="all"):
    ordered = expected_order(data, sort, direction, show)
    shown = shown_winners(section)
    assert [r["id"] for r in shown] == [r["id"] for r in ordered]
    names = {"dense": "dense", "bm25": "BM25", "tie": "tie"}
    for got, want in zip(shown, ordered):
        ranks = data["ranks"][want["id"]]
        assert got["dense"] == str(ranks["dense"] or "not found") and got["bm25"] == str(ranks["bm25"] or "not found")
        assert got["winner"] == names[want["winner"]]
        assert got["paraphrase"] == next(q["paraphrase"] for q in data["questions"] if q["id"] == want["id"])
        assert got["marked"] == {"dense": [1], "bm25": [2], "tie": []}[want["winner"]]
    counts = data["labs"]["winners"]["counts"][show]
    expect(section.locator(".lab-status")).to_have_text(
        f"{counts['total']} {NOUNS[show]}: dense search ranks the right passage higher on {counts['dense']}, BM25 on "
        f"{counts['bm25']}, and both give it the same rank on {counts['tie']} ({counts['both_first']} of them at rank 1).")
    header = section.locator(f'th[data-sort="{sort}"]')
    expect(header).to_have_attribute("aria-sort", "ascending" if direction == "asc" else "descending")
    expect(section.locator("th[aria-sort]")).to_have_count(1)


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-winners")


@pytest.mark.browser
def test_the_table_equals_the_data_sorted_and_filtered_by_mouse_as_the_template_draws_it(desktop, data,
                                                                                        make_page_module):
    section = lab(desktop, "winners")
    blank = make_page_module()

    def same_as_template(state):
        blank.set_content(render_lab("winners", Facts(data).namespace(), state))
        template = drawn(blank.locator("section.lab"))[1:]
        assert drawn(section)[1:] == template, "\n".join(outline(["section", *template]))

    check_winners(section, data)
    for column in ("dense", "bm25", "winner"):
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "asc")
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "desc")
        same_as_template({"sort": column, "dir": "desc", "show": "all"})
    for show in ("paraphrase", "literal", "all"):
        section.locator(f'label:has(input[name="winners-show"][value="{show}"])').click()
        check_winners(section, data, "winner", "desc", show)
        same_as_template({"sort": "winner", "dir": "desc", "show": show})
    assert hash_of(desktop) == "#lab-winners?sort=winner&dir=desc&show=all"


@pytest.mark.browser
def test_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-winners?sort=bm25&dir=desc&show=paraphrase")
    section = lab(page, "winners")
    check_winners(section, data, "bm25", "desc", "paraphrase")
    section.locator('input[name="winners-show"][value="paraphrase"]').focus()
    page.keyboard.press("ArrowRight")
    check_winners(section, data, "bm25", "desc", "literal")
    page.keyboard.press("Tab")  # the first sort button
    expect(section.locator('th[data-sort="id"] button')).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    check_winners(section, data, "dense", "asc", "literal")
    page.keyboard.press("Space")
    check_winners(section, data, "dense", "desc", "literal")
    assert hash_of(page) == "#lab-winners?sort=dense&dir=desc&show=literal"
    # A link that names something unknown keeps the default.
    other = open_page(make_page, site_url, "#lab-winners?sort=constructor&dir=up&show=all")
    check_winners(lab(other, "winners"), data)


@pytest.mark.browser
def test_on_a_phone_the_ranks_stay_beside_each_question(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-winners", viewport={"width": 360, "height": 780},
                     is_mobile=True, has_touch=True)
    section = lab(page, "winners")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    table = section.locator(".table-scroll")
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table fits without scrolling sideways"
    right = section.evaluate("""s => Math.max(...[...s.querySelectorAll('tbody td')].map(td => td.getBoundingClientRect().right))""")
    assert right <= 360, "both ranks and the winner in view beside each question"
