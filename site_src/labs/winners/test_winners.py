"""Who wins where (site_src/labs/winners/): its data step on hand-made places (who surely wins, a
passage never returned, a tie across ranks, the counts per group of questions); its view, in Node, for every state its
controls offer (each sort, each order, each filter) against the build's data, and the scatter:
each dot in the cells of its two ranks (read back from the drawn axis labels), past the depth in
the band, its group's shape, no dot on another; and in a real browser what needs one: a tap that
names a question, sorting by mouse and keyboard, the filter, shared links, the table on a phone,
and screenshots of the scatter at 360 and 1280 px in both themes."""

import collections
import itertools
import re

import pytest
from playwright.sync_api import expect

from site_src.labs.winners import data as winners
from site_src.labs.winners.data import who_wins
from support.labs import hash_of, lab, open_again, open_page
from support.pictures import shoot_everywhere
from support.views import markup, text

SORTS = ("id", "dense", "bm25", "winner")
STATES = [{"sort": sort, "dir": direction, "show": show}
          for sort, direction, show in itertools.product(SORTS, ("asc", "desc"), ("all", "words", "paraphrase", "typed"))]
NOUNS = {"all": "questions", "words": "questions in the help center's words", "paraphrase": "paraphrases",
         "typed": "questions typed the way people type"}
NAMES = {"dense": "dense", "bm25": "BM25", "tie": "tie"}


# ------------------------------------------------------------------ the data step


def golden(qid, group):
    return {"id": qid, "set": "golden", "text": f"question {qid}", "answers": [f"p-{qid}"], "group": group}


def test_the_retriever_that_surely_ranks_the_right_passage_higher_wins():
    questions = [golden("g1", "words"), golden("g2", "paraphrase"), golden("g3", "words"), golden("g4", "paraphrase"),
                 golden("g5", "paraphrase"), golden("g6", "typed"),
                 {"id": "t1", "set": "tracer", "text": "traced", "answers": ["p"], "group": ""}]
    ranks = {"g1": {"dense": [1, 1], "bm25": [1, 1], "hybrid": [1, 1]},
             "g2": {"dense": [2, 2], "bm25": None, "hybrid": [3, 3]},      # BM25 never returns it: dense wins
             "g3": {"dense": None, "bm25": [3, 3], "hybrid": [5, 5]},
             "g4": {"dense": [4, 4], "bm25": [4, 4], "hybrid": [2, 2]},
             "g5": {"dense": None, "bm25": None, "hybrid": None},          # neither returns it: a tie
             "g6": {"dense": [1, 2], "bm25": [2, 2], "hybrid": [1, 1]},    # dense 1 or 2 (a tie): not surely higher
             "t1": {"dense": [1, 1], "bm25": [2, 2], "hybrid": [1, 1]}}
    result = who_wins(questions, ranks)
    assert [(r["id"], r["winner"]) for r in result["rows"]] == [
        ("g1", "tie"), ("g2", "dense"), ("g3", "bm25"), ("g4", "tie"), ("g5", "tie"), ("g6", "tie")]
    # Only what the view reads.
    assert result["rows"][1] == {"id": "g2", "text": "question g2", "group": "paraphrase", "dense": [2, 2], "bm25": None,
                                 "winner": "dense"}
    assert result["counts"] == {
        "words": {"dense": 0, "bm25": 1, "tie": 1, "both_first": 1, "total": 2},
        "paraphrase": {"dense": 1, "bm25": 0, "tie": 2, "both_first": 0, "total": 3},
        "typed": {"dense": 0, "bm25": 0, "tie": 1, "both_first": 0, "total": 1},
        "all": {"dense": 1, "bm25": 1, "tie": 4, "both_first": 1, "total": 6},
    }


def test_the_built_table_has_every_golden_question_and_counts_that_add_up(data):
    table = data["labs"]["winners"]
    golden_ids = [q["id"] for q in data["questions"] if q["set"] == "golden"]
    assert [r["id"] for r in table["rows"]] == golden_ids
    for row in table["rows"]:
        assert (row["dense"], row["bm25"]) == (data["ranks"][row["id"]]["dense"], data["ranks"][row["id"]]["bm25"])
    counts = table["counts"]
    for key in ("dense", "bm25", "tie", "both_first", "total"):
        assert counts["all"][key] == counts["words"][key] + counts["paraphrase"][key] + counts["typed"][key]
    assert counts["all"]["total"] == len(golden_ids) == counts["all"]["dense"] + counts["all"]["bm25"] + counts["all"]["tie"]
    assert winners.STATE == {"sort": "id", "dir": "asc", "show": "all"}


# ------------------------------------------------------------------ the view, in Node


def expected_order(data, sort="id", direction="asc", show="all"):
    """Golden-set order among equal keys (reversed with the rest when descending), like
    reverse=True on a stable sort of the reversed rows; a passage never returned sorts last."""
    rows = [r for r in data["labs"]["winners"]["rows"] if show == "all" or r["group"] == show]
    missing = len(data["passages"]) + 1
    key = {"id": lambda r: 0, "dense": lambda r: (r["dense"] or [missing])[0], "bm25": lambda r: (r["bm25"] or [missing])[0],
           "winner": lambda r: {"dense": 0, "bm25": 1, "tie": 2}[r["winner"]]}[sort]
    if direction == "desc":
        return sorted(rows[::-1], key=key, reverse=True)
    return sorted(rows, key=key)


def expected_status(data, show):
    c = data["labs"]["winners"]["counts"][show]
    return (f"{c['total']} {NOUNS[show]}: dense search ranks the right passage higher on {c['dense']}, BM25 on "
            f"{c['bm25']}, and neither surely ranks it higher on {c['tie']} ({c['both_first']} of them with both at rank 1).")


def shown(html):
    """What the drawing shows: each row, the sorted header, the status."""
    drawing = markup(html)
    rows = [{"id": tr.attributes["data-qid"], "question": text(tr.css_first("th")),
             "cells": [text(td) for td in tr.css("td")],
             "marked": [i for i, td in enumerate(tr.css("td")) if "is-winner" in (td.attributes.get("class") or "").split()],
             "group": next((g for g in ("paraphrase", "typed") if tr.css_first(f".badge-{g}") is not None), "words")}
            for tr in drawing.css("tbody tr")]
    sorted_by = [(th.attributes["data-sort"], th.attributes["aria-sort"]) for th in drawing.css("th[aria-sort]")]
    headers = [(th.attributes["data-sort"], text(th.css_first("button.sort-button"))) for th in drawing.css("thead th")]
    return rows, sorted_by, headers, text(drawing.css_first(".lab-status"))


def label(place):
    """A place as the table writes it, worked by hand: "3", "1=" for a rank shared by a tie."""
    if place is None:
        return "not found"
    return f"{place[0]}=" if place[1] > place[0] else str(place[0])


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
        group = questions[row["id"]]["group"]
        assert got["question"] == f"{row['id']} {questions[row['id']]['text']}" + ("" if group == "words" else f" {group}")
        assert got["group"] == group
        assert got["cells"] == [label(ranks["dense"]), label(ranks["bm25"]), NAMES[row["winner"]]]
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


def dots_drawn(html):
    """Each dot of the scatter: its question, shape, centre, and the axis labels nearest its centre."""
    drawing = markup(html)
    svg = drawing.css_first("svg.winners-scatter")
    across = [(float(t.attributes["x"]), text(t)) for t in svg.css("text.winners-tick-bm25")]
    down = [(float(t.attributes["y"]) - 4, text(t)) for t in svg.css("text.winners-tick-dense")]
    found = {}
    for dot in svg.css("g.winners-dot"):
        body = dot.css_first("circle, rect")
        if body.tag == "circle":
            x, y, r = (float(body.attributes[a]) for a in ("cx", "cy", "r"))
        else:
            x, y = float(body.attributes["x"]) + float(body.attributes["width"]) / 2, float(body.attributes["y"]) + float(body.attributes["height"]) / 2
            r = float(body.attributes["width"]) / 2
        found[dot.attributes["data-qid"]] = {
            "tag": body.tag, "x": x, "y": y, "r": r, "class": dot.attributes["class"].split(),
            "bm25": min(across, key=lambda tick: abs(tick[0] - x))[1], "dense": min(down, key=lambda tick: abs(tick[0] - y))[1],
            # how far from the tick: within half a cell
            "off": (min(abs(tick[0] - x) for tick in across), min(abs(tick[0] - y) for tick in down)),
            "cell": (across[1][0] - across[0][0])}
    return found


def axis_label(place, depth):
    """Where a place belongs on an axis, worked by hand: its rank up to the depth, else the band."""
    return str(place[0]) if place and place[0] <= depth else f"> {depth}"


def test_each_dot_sits_at_its_two_ranks_past_the_depth_in_the_band_and_in_its_groups_shape(views, data):
    depth = data["settings"]["fusion_depth"]
    drawn = dots_drawn(views.draw("winners", winners.STATE).html)
    rows = data["labs"]["winners"]["rows"]
    assert sorted(drawn) == sorted(r["id"] for r in rows), "one dot per golden question"
    banded = 0
    for row in rows:
        dot = drawn[row["id"]]
        ranks = data["ranks"][row["id"]]
        assert (dot["bm25"], dot["dense"]) == (axis_label(ranks["bm25"], depth), axis_label(ranks["dense"], depth)), row["id"]
        assert max(dot["off"]) < dot["cell"] / 2, row["id"]
        banded += "> " in dot["bm25"] + dot["dense"]
        shape = {"words": ("circle", False), "paraphrase": ("circle", True), "typed": ("rect", False)}[row["group"]]
        assert (dot["tag"], f"winners-{row['group']}" in dot["class"]) == (shape[0], True), row["id"]
        # A dot above the diagonal is one dense ranks higher, and below it one BM25 ranks higher.
        cells = {label: i for i, label in enumerate([str(n) for n in range(1, depth + 1)] + [f"> {depth}"])}
        if row["winner"] == "dense":
            assert cells[dot["bm25"]] >= cells[dot["dense"]], row["id"]
        if row["winner"] == "bm25":
            assert cells[dot["dense"]] >= cells[dot["bm25"]], row["id"]
    assert banded >= 1, "no rank past the depth: the band is not tested"
    assert {drawn[r["id"]]["r"] for r in rows if r["group"] == "paraphrase"} != {drawn[r["id"]]["r"] for r in rows if r["group"] == "words"}
    # Ties drawn honestly: questions on the same two ranks each have a dot, and none covers another.
    centres = [(d["x"], d["y"], d["r"]) for d in drawn.values()]
    for i, (x, y, r) in enumerate(centres):
        for x2, y2, r2 in centres[i + 1:]:
            assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 >= r + r2, "two dots overlap"


def test_the_filter_fades_the_other_groups_dots(views):
    drawn = dots_drawn(views.draw("winners", {**winners.STATE, "show": "paraphrase"}).html)
    assert {qid for qid, d in drawn.items() if "is-muted" not in d["class"]} == \
        {qid for qid, d in drawn.items() if "winners-paraphrase" in d["class"]}


# ------------------------------------------------------------------ in the browser


def open_table(section):
    section.locator("details.winners-details").evaluate("d => { d.open = true; }")


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
    """The page the desktop tests share; the shared links are loaded afresh in it
    (support.labs.open_again)."""
    return open_page(make_page_module, site_url, "#lab-winners")


@pytest.mark.browser
def test_a_click_on_a_header_sorts_by_it_and_again_turns_the_order_round(desktop, data):
    section = lab(desktop, "winners")
    check_winners(section, data)
    section.locator("details.winners-details > summary").click()
    for column in ("dense", "bm25", "winner"):
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "asc")
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "desc")
    for show in ("paraphrase", "typed", "all"):
        section.locator(f'label:has(input[name="winners-show"][value="{show}"])').click()
        check_winners(section, data, "winner", "desc", show)
    assert hash_of(desktop) == "#lab-winners?sort=winner&dir=desc&show=all"


@pytest.mark.browser
def test_by_keyboard_and_from_a_shared_link(desktop, site_url, data):
    page = open_again(desktop, site_url, "#lab-winners?sort=bm25&dir=desc&show=paraphrase")
    section = lab(page, "winners")
    check_winners(section, data, "bm25", "desc", "paraphrase")
    expect(section.locator('input[name="winners-show"][value="paraphrase"]')).to_be_checked()
    section.locator('input[name="winners-show"][value="paraphrase"]').focus()
    page.keyboard.press("ArrowRight")
    check_winners(section, data, "bm25", "desc", "typed")
    page.keyboard.press("Tab")  # the scatter's dots, one tab stop
    page.keyboard.press("Tab")  # the table's summary: Enter opens it
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # the first sort button
    expect(section.locator('th[data-sort="id"] button')).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    check_winners(section, data, "dense", "asc", "typed")
    expect(section.locator('th[data-sort="dense"] button')).to_be_focused()  # the redraw keeps the focus
    page.keyboard.press("Space")
    check_winners(section, data, "dense", "desc", "typed")
    assert hash_of(page) == "#lab-winners?sort=dense&dir=desc&show=typed"
    # A link that names something unknown keeps the default.
    other = open_again(desktop, site_url, "#lab-winners?sort=constructor&dir=up&show=all")
    check_winners(lab(other, "winners"), data)


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_on_a_phone_the_ranks_stay_beside_each_question(make_page, site_url, javascript):
    page = open_page(make_page, site_url, "#lab-winners", viewport={"width": 360, "height": 780},
                     is_mobile=True, has_touch=True, java_script_enabled=javascript)
    section = lab(page, "winners")
    open_table(section)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    table = section.locator(".table-scroll")
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table fits without scrolling sideways"
    right = section.evaluate("""s => Math.max(...[...s.querySelectorAll('tbody td')].map(td => td.getBoundingClientRect().right))""")
    assert right <= 360, "both ranks and the winner in view beside each question"


@pytest.mark.browser
def test_without_javascript_the_headers_are_plain_headings(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-winners", java_script_enabled=False)
    open_table(lab(page, "winners"))
    button = lab(page, "winners").locator('th[data-sort="id"] button')
    assert button.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    assert button.evaluate("b => getComputedStyle(b, '::after').content") == "none"


def tap_dot(section, qid) -> None:
    """Click the middle of a question's dot as a reader would: with the dot on the screen (the
    page's earlier tests may have scrolled it away) and nothing over it there (not the lab's
    sticky bar): what the point hits is the scatter itself."""
    dot = section.locator(f'g.winners-dot[data-qid="{qid}"]')
    dot.evaluate("d => d.scrollIntoView({block: 'center'})")
    box = dot.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    hit = section.page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('svg.winners-scatter')", [x, y])
    assert hit, f"the middle of {qid}'s dot, at {x:.0f}, {y:.0f}, is covered or off the screen"
    section.page.mouse.click(x, y)


@pytest.mark.browser
def test_a_tap_on_a_dot_names_its_question_and_the_scatter_is_shot_everywhere(desktop, data):
    section = lab(desktop, "winners")
    expect(section.locator(".winners-picked")).to_have_text("Tap or click a dot to name its question.")
    questions = {q["id"]: q for q in data["questions"]}
    depth = data["settings"]["fusion_depth"]
    rows = data["labs"]["winners"]["rows"]
    pair = lambda r: (tuple(r["dense"] or ()), tuple(r["bm25"] or ()))  # noqa: E731
    most = collections.Counter(map(pair, rows)).most_common(1)[0][0]
    crowded = [r["id"] for r in rows if pair(r) == most]
    far = next(r for r in rows if r["bm25"] and r["bm25"][0] > depth)
    for qid in (far["id"], crowded[len(crowded) // 2]):   # one in the band; one among many on the same two ranks
        tap_dot(section, qid)
        expect(section.locator(".winners-picked")).to_contain_text(f"{qid} “{questions[qid]['text']}”")
        expect(section.locator(f'g.winners-dot[data-qid="{qid}"]')).to_have_class(re.compile(r"\bis-picked\b"))
    tap_dot(section, far["id"])
    expect(section.locator(".winners-picked")).to_contain_text(f"BM25 rank {far['bm25'][0]}, past the top {depth}")
    shoot_everywhere(desktop, "#lab-winners .winners-figure", "picture-winners")


def dot_said(row, questions, depth):
    """What a question's dot says, written here from the lab's rows: its id, text and group, each
    rank (ties and places past the depth spelled out), and which retriever ranks it higher."""
    def place(p):
        if p is None:
            return "not returned"
        return (f"rank {label(p)}" + (f" (tied from {p[0]} to {p[1]})" if p[1] > p[0] else "")
                + (f", past the top {depth}" if p[0] > depth else ""))
    group = {"words": "in the help center's words", "paraphrase": "paraphrase", "typed": "typed"}[row["group"]]
    verdict = {"dense": "Dense search ranks it higher.", "bm25": "BM25 ranks it higher.",
               "tie": "Neither surely ranks it higher."}[row["winner"]]
    return f"{row['id']} “{questions[row['id']]['text']}” ({group}): dense {place(row['dense'])}, BM25 {place(row['bm25'])}. {verdict}"


@pytest.mark.browser
def test_the_dots_are_one_tab_stop_the_arrow_keys_move_between_them_and_each_is_named(desktop, data):
    """Tab from the lab's bar reaches the scatter (one tab stop for its dots); each dot is a list item named
    by its question, its two ranks and which retriever ranks it higher, also said under the
    scatter (aria-live) when it takes the focus; the arrow keys, Home and End move in golden-set order."""
    section = lab(desktop, "winners")
    rows, depth = data["labs"]["winners"]["rows"], data["settings"]["fusion_depth"]
    questions = {q["id"]: q for q in data["questions"]}
    dots = section.locator("g.winners-dot")
    expect(section.locator('g.winners-dot[tabindex="0"]')).to_have_count(1)
    section.locator(".lab-bar :is(input, select, button)").last.focus()
    for _ in range(4):
        desktop.keyboard.press("Tab")
        if desktop.evaluate("() => document.activeElement.classList.contains('winners-dot')"):
            break
    focused = lambda: desktop.evaluate("() => document.activeElement.dataset.qid")  # noqa: E731
    # Tab lands on the dot that last held the focus (a tapped dot takes it), the first one otherwise.
    stop = section.locator('g.winners-dot[tabindex="0"]').get_attribute("data-qid")
    assert focused() == stop
    for key, row in (("Home", rows[0]), ("ArrowRight", rows[1]), ("ArrowDown", rows[2]), ("ArrowLeft", rows[1]),
                     ("End", rows[-1]), ("ArrowUp", rows[-2])):
        desktop.keyboard.press(key)
        assert focused() == row["id"], key
        said = dot_said(row, questions, depth)
        assert dots.and_(section.locator(f'[data-qid="{row["id"]}"]')).get_attribute("aria-label") == said
        expect(section.locator(".winners-picked")).to_have_text(said)
    expect(section.get_by_role("listitem", name=dot_said(rows[1], questions, depth), exact=True)).to_have_count(1)
    desktop.keyboard.press("Tab")  # one tab stop for all the dots: Tab leaves the scatter
    assert not desktop.evaluate("() => document.activeElement.classList.contains('winners-dot')")
