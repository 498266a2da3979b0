"""The hybrid explorer (site_src/labs/hybrid/): its view draws, for every preset question, the
build's three lists with their real ranks and scores (checked in Node, against the data); in the
browser, one passage is marked across the lists by mouse, keyboard and tap and its three ranks
are read out, a shared link restores the question, and on a phone the three lists stay side by
side."""

import pytest
from playwright.sync_api import expect

from site_src.labs.hybrid import data as hybrid
from support.labs import hash_of, lab, open_page
from support.views import markup, text

DIGITS = {"dense": 3, "bm25": 3, "hybrid": 5}


def presets(data):
    return [q for q in data["questions"] if q["set"] in ("tracer", "golden")]


def question(data, qid):
    return next(q for q in data["questions"] if q["id"] == qid)


def test_the_default_question_is_a_preset_the_build_searched(data):
    assert hybrid.STATE["q"] in data["runs"]
    assert hybrid.data(None) == {}


def shown(html):
    """What the view drew: each list's rows (id, rank, score, detail, right passage?) and the status."""
    drawing = markup(html)
    lists = {col.attributes["data-list"]: [{
        "id": li.attributes["data-pid"], "rank": text(li.css_first(".rank")), "score": text(li.css_first(".score")),
        "detail": text(li.css_first(".detail")), "answer": "is-answer" in li.attributes["class"].split()}
        for li in col.css("li.result[data-pid]")] for col in drawing.css(".lab-col[data-list]")}
    return lists, text(drawing.css_first(".lab-status"))


def check(html, data, q):
    """The drawing against the build's data: every expected value is read from data["runs"]."""
    depth = data["settings"]["fusion_depth"]
    run = data["runs"][q["id"]]
    got, status = shown(html)
    fused_ids = [pid for pid, _ in run["hybrid"]]
    tops = {name: [pid for pid, _ in run[name][:depth]] for name in ("dense", "bm25")}
    for name, digits in DIGITS.items():
        want = run[name][:depth]
        rows = got[name]
        assert [r["id"] for r in rows] == [pid for pid, _ in want], name
        assert [r["score"] for r in rows] == [f"{score:.{digits}f}" for _, score in want], name
        assert [r["rank"] for r in rows] == [str(i) for i in range(1, len(want) + 1)]
        assert [r["answer"] for r in rows] == [pid == q["answer"] for pid, _ in want]
        for r in rows:
            if name == "hybrid":
                parts = [f"{label} {tops[key].index(r['id']) + 1}" for key, label in (("dense", "dense"), ("bm25", "BM25"))
                         if r["id"] in tops[key]]
                assert r["detail"] == "from " + " + ".join(parts)
            else:
                assert r["detail"] == f"fused rank {fused_ids.index(r['id']) + 1}"
    ranks = [next((i for i, (pid, _) in enumerate(run[n], 1) if pid == q["answer"]), None) for n in ("dense", "bm25", "hybrid")]
    assert status == (f"The right passage, {q['answer']}: dense rank {ranks[0] or 'none'}, BM25 rank {ranks[1] or 'none'}, "
                      f"fused rank {ranks[2] or 'none'}.")


def test_the_view_draws_every_preset_question_as_the_build_ranked_it(views, data):
    questions = presets(data)
    for q, drawing in zip(questions, views.draw_many("hybrid", [{"q": q["id"]} for q in questions])):
        check(drawing.html, data, q)


def test_the_view_refuses_a_question_nobody_searched(views):
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("hybrid", {"q": "no-such-question"})


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-hybrid")


@pytest.mark.browser
def test_the_picker_changes_the_question_and_the_link(desktop, data):
    section = lab(desktop, "hybrid")
    for q in presets(data)[:3]:
        section.locator('select[data-picker="question"]').select_option(q["id"])
        check(section.locator(".lab-output").inner_html(), data, q)
        assert hash_of(desktop) == f"#lab-hybrid?q={q['id']}"


def linked(section):
    return section.evaluate("""s => [...s.querySelectorAll('li.is-linked')].map(li =>
        li.closest('.lab-col').dataset.list + ':' + li.dataset.pid)""")


@pytest.mark.browser
def test_one_passage_is_marked_across_the_lists_by_mouse_and_keyboard(desktop, data):
    section = lab(desktop, "hybrid")
    section.locator('select[data-picker="question"]').select_option("upload-4021")
    q = question(data, "upload-4021")
    run = data["runs"][q["id"]]
    depth = data["settings"]["fusion_depth"]
    answer = q["answer"]
    section.locator(f'.lab-col[data-list="dense"] li[data-pid="{answer}"]').hover()
    where = [name for name in DIGITS if answer in [pid for pid, _ in run[name][:depth]]]
    assert sorted(linked(section)) == sorted(f"{name}:{answer}" for name in where)
    rank = {name: next((str(i) for i, (pid, _) in enumerate(run[name][:depth], 1) if pid == answer), "none")
            for name in DIGITS}
    expect(section.locator(".hybrid-readout")).to_have_text(
        f"{answer}: dense {rank['dense']}, BM25 {rank['bm25']}, fused {rank['hybrid']} (of the top {depth} each).")
    desktop.mouse.move(2, 2)
    assert linked(section) == []
    expect(section.locator(".hybrid-readout")).to_have_text("Point at or tap a passage to see its three ranks.")
    # Keyboard: one tab stop per list, the arrow keys inside it.
    section.locator('select[data-picker="question"]').focus()
    desktop.keyboard.press("Tab")
    first_dense = run["dense"][0][0]
    expect(section.locator(f'.lab-col[data-list="dense"] li[data-pid="{first_dense}"]')).to_be_focused()
    assert f"dense:{first_dense}" in linked(section)
    desktop.keyboard.press("ArrowDown")
    second = run["dense"][1][0]
    expect(section.locator(f'.lab-col[data-list="dense"] li[data-pid="{second}"]')).to_be_focused()
    assert f"dense:{second}" in linked(section) and f"hybrid:{second}" in linked(section)
    desktop.keyboard.press("Tab")
    first_bm25 = run["bm25"][0][0]
    expect(section.locator(f'.lab-col[data-list="bm25"] li[data-pid="{first_bm25}"]')).to_be_focused()


@pytest.mark.browser
def test_a_shared_link_restores_the_question(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-hybrid?q=g30")
    section = lab(page, "hybrid")
    expect(section.locator('select[data-picker="question"]')).to_have_value("g30")
    check(section.locator(".lab-output").inner_html(), data, question(data, "g30"))


@pytest.mark.browser
def test_on_a_phone_the_three_lists_stay_side_by_side_and_a_tap_names_the_ranks(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-hybrid", viewport={"width": 390, "height": 844},
                     is_mobile=True, has_touch=True)
    section = lab(page, "hybrid")
    firsts = section.evaluate("""s => [...s.querySelectorAll('.lab-col[data-list]')].map(col =>
        col.querySelector('li.result').getBoundingClientRect()).map(r => ({top: r.top, left: r.left, right: r.right}))""")
    assert len({round(box["top"]) for box in firsts}) == 1, "the first rows of the three lists share one line"
    assert firsts[0]["right"] <= firsts[1]["left"] <= firsts[1]["right"] <= firsts[2]["left"]
    lists = section.locator(".hybrid-columns").bounding_box()
    assert lists["height"] < page.viewport_size["height"], "all three lists fit on one phone screen"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    answer = question(data, "upload-4021")["answer"]
    section.locator(f'.lab-col[data-list="hybrid"] li[data-pid="{answer}"]').tap()
    expect(section.locator(".hybrid-readout")).to_contain_text(f"{answer}: dense ")
