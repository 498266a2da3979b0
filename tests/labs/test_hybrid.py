"""The hybrid explorer (builder/labs/hybrid.py, site_src/labs/hybrid/): every preset question
shows the build's three lists with their real ranks and scores; one passage is marked across
the lists by mouse, keyboard and tap, and its three ranks are read out; a shared link restores
the question; on a phone the three lists stay side by side."""

import pytest
from playwright.sync_api import expect

from builder.labs import hybrid
from support.labs import hash_of, lab, open_page

DIGITS = {"dense": 3, "bm25": 3, "hybrid": 5}


def presets(data):
    return [q for q in data["questions"] if q["set"] in ("tracer", "golden")]


def question(data, qid):
    return next(q for q in data["questions"] if q["id"] == qid)


def test_the_default_question_is_a_preset_the_build_searched(data):
    assert hybrid.STATE["q"] in data["runs"]
    assert hybrid.data(None) == {}


def shown(section):
    return section.evaluate("""s => Object.fromEntries([...s.querySelectorAll('.lab-col[data-list]')].map(col => [
        col.dataset.list, [...col.querySelectorAll('li.result[data-pid]')].map(li => ({
            id: li.dataset.pid, rank: li.querySelector('.rank').textContent, score: li.querySelector('.score').textContent,
            detail: li.querySelector('.detail').textContent, answer: li.classList.contains('is-answer')}))]))""")


def check(section, data, q):
    depth = data["settings"]["hybrid_depth"]
    run = data["runs"][q["id"]]
    got = shown(section)
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
    assert section.locator(".lab-status").text_content() == (
        f"The right passage, {q['answer']}: dense rank {ranks[0] or 'none'}, BM25 rank {ranks[1] or 'none'}, "
        f"fused rank {ranks[2] or 'none'}.")


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-hybrid")


@pytest.mark.browser
def test_every_preset_question_shows_the_builds_lists(desktop, data):
    section = lab(desktop, "hybrid")
    for q in presets(data):
        section.locator('select[data-picker="question"]').select_option(q["id"])
        check(section, data, q)
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
    depth = data["settings"]["hybrid_depth"]
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
    check(section, data, question(data, "g30"))


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
