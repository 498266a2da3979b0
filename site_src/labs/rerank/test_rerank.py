"""Rerank, then cut off (site_src/labs/rerank/): the threshold control's
range follows where the scores came from; in the browser, every question with rerank scores
and every threshold shows the fused candidates, the reranked list and what the cut keeps, as
the build's data has them, by mouse, by keyboard and from a shared link."""

from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from site_src.labs.rerank import data as rerank
from support.labs import hash_of, lab, open_page

PICKER = 'select[data-picker="question"]'
RANGE = 'input[name="rerank-threshold"]'


# ------------------------------------------------------------------ the data step


def test_illustrative_scores_get_a_0_to_1_control_cut_in_the_middle():
    assert rerank.threshold_control({"source": "illustrative", "by_question": {"q": [["a", 7.5]]}}) == {
        "min": 0.0, "max": 1.0, "step": 0.05, "threshold": rerank.THRESHOLD, "digits": 2}


def test_a_cross_encoders_logits_that_cross_zero_are_cut_at_zero_in_steps_of_a_tenth():
    control = rerank.threshold_control({"source": "model", "by_question": {
        "q1": [["a", 7.3], ["b", -2.4]], "q2": [["c", 0.5]]}})
    # floor(-2.4) = -3 and ceil(7.3) = 8: a range of 8 - (-3) = 11 > 5 moves in tenths.
    assert control == {"min": -3.0, "max": 8.0, "step": 0.1, "threshold": 0.0, "digits": 3}


def test_positive_logits_are_cut_halfway_on_the_controls_steps():
    control = rerank.threshold_control({"source": "model", "by_question": {"q": [["a", 2.6], ["b", 1.2]]}})
    # floor(1.2) = 1, ceil(2.6) = 3: a range of 2 <= 5 moves in steps of 0.05; halfway is 1 + (3 - 1) / 2.
    assert control == {"min": 1.0, "max": 3.0, "step": 0.05, "threshold": 1 + (3 - 1) / 2, "digits": 3}


def test_a_range_of_one_value_still_spans_one_unit():
    assert rerank.threshold_control({"source": "model", "by_question": {"q": [["a", 2.0]]}})[
        "max"] == 2.0 + 1
    empty = rerank.threshold_control({"source": "model", "by_question": {}})
    assert (empty["min"], empty["max"], empty["threshold"]) == (0.0, 0.0 + 1, (0.0 + 1) / 2)


def test_the_data_step_is_the_control_of_the_builds_scores():
    scores = {"source": "illustrative", "by_question": {"q": [["a", 0.9]]}}
    assert rerank.data(SimpleNamespace(data={"rerank": scores})) == {"control": rerank.threshold_control(scores)}


def test_the_page_opens_on_a_question_with_rerank_scores(data):
    assert rerank.STATE["q"] in data["rerank"]["by_question"]
    assert rerank.STATE["t"] is None, "the threshold the page opens on is the control's (it depends on the scores)"
    assert data["labs"]["rerank"] == {"control": rerank.threshold_control(data["rerank"])}


# ------------------------------------------------------------------ in the browser


def check(section, data, qid, threshold):
    """The lab shows question `qid` cut at `threshold` exactly as the build's data has it."""
    scores = data["rerank"]
    control = data["labs"]["rerank"]["control"]
    answer = next(q["answer"] for q in data["questions"] if q["id"] == qid)
    candidates = [pid for pid, _ in data["runs"][qid]["hybrid"][:scores["depth"]]]
    scored = [(pid, s) for pid, s in scores["by_question"][qid] if pid in candidates]
    unscored = [pid for pid in candidates if pid not in dict(scored)]
    shown = section.evaluate("""s => ({
        inputs: [...s.querySelectorAll('ol.rerank-in li')].map(li => li.dataset.pid),
        out: [...s.querySelectorAll('ol.rerank-out li')].map(li => ({id: li.dataset.pid,
            score: li.querySelector('.score').textContent, flag: li.querySelector('.flag').textContent,
            cut: li.classList.contains('is-removed'), detail: li.querySelector('.detail').textContent})),
        status: s.querySelector('.lab-status').textContent,
        shown: s.querySelector('output').textContent,
        range: s.querySelector('input[name="rerank-threshold"]').value})""")
    assert shown["inputs"] == candidates
    assert [r["id"] for r in shown["out"]] == [pid for pid, _ in scored] + unscored
    kept = [pid for pid, s in scored if s >= threshold]
    for row, (pid, score) in zip(shown["out"], scored):
        assert row["score"] == f"{score:.{control['digits']}f}"
        assert row["cut"] == (score < threshold)
        assert row["flag"] == ("cut" if score < threshold else "right passage" if pid == answer else "kept")
        assert row["detail"] == f"fused rank {candidates.index(pid) + 1}"
    for row in shown["out"][len(scored):]:
        assert row["flag"] == "no score written" and row["score"] == "–"
        assert row["detail"] == f"fused rank {candidates.index(row['id']) + 1}"
    assert shown["shown"] == f"{threshold:.2f}"
    assert float(shown["range"]) == pytest.approx(threshold)
    assert shown["status"].startswith(f"Kept {len(kept)} of {len(candidates)} candidates at threshold {threshold:.2f}.")
    if answer in kept:
        at, was = kept.index(answer) + 1, candidates.index(answer) + 1
        assert shown["status"].endswith(f"stays at rank {at}." if at == was else f"moves from fused rank {was} to rank {at}.")
    elif answer in dict(scored):
        assert shown["status"].endswith(f"The right passage, {answer}, is cut.")


def set_threshold(section, value):
    """Move the range as a drag does: set its value and let it say so."""
    section.locator(RANGE).evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }", value)


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-rerank")


@pytest.mark.browser
def test_every_question_and_threshold_shows_the_builds_scores_and_cut(desktop, data):
    section = lab(desktop, "rerank")
    control = data["labs"]["rerank"]["control"]
    if data["rerank"]["source"] == "illustrative":
        expect(section.locator(".illustrative")).to_contain_text("written by hand")
    check(section, data, section.locator(PICKER).input_value(), control["threshold"])
    for qid in data["rerank"]["by_question"]:
        section.locator(PICKER).select_option(qid)
        for threshold in (control["min"], control["threshold"], round(control["max"] - control["step"], 2), control["max"]):
            set_threshold(section, threshold)
            check(section, data, qid, threshold)
            assert hash_of(desktop) == f"#lab-rerank?q={qid}&t={threshold:g}"


@pytest.mark.browser
def test_the_picker_lists_only_the_questions_with_rerank_scores(desktop, data):
    section = lab(desktop, "rerank")
    options = section.locator(f"{PICKER} option").evaluate_all("os => os.map(o => o.value)")
    assert sorted(options) == sorted(data["rerank"]["by_question"])


@pytest.mark.browser
def test_the_threshold_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    qid = next(q["id"] for q in data["questions"] if q["id"] in data["rerank"]["by_question"])
    step = data["labs"]["rerank"]["control"]["step"]
    page = open_page(make_page, site_url, f"#lab-rerank?q={qid}&t=0.20")
    section = lab(page, "rerank")
    expect(section.locator(PICKER)).to_have_value(qid)
    check(section, data, qid, 0.2)
    section.locator(RANGE).focus()
    page.keyboard.press("ArrowRight")
    check(section, data, qid, round(0.2 + step, 2))
    assert hash_of(page) == f"#lab-rerank?q={qid}&t={0.2 + step:.2f}"
    page.keyboard.press("Shift+Tab")
    expect(section.locator(PICKER)).to_be_focused()
    options = section.locator(f"{PICKER} option").evaluate_all("os => os.map(o => o.value)")
    page.keyboard.press("ArrowDown")
    after = options[options.index(qid) + 1] if options.index(qid) + 1 < len(options) else qid
    expect(section.locator(PICKER)).to_have_value(after)
    check(section, data, after, round(0.2 + step, 2))


@pytest.mark.browser
def test_a_link_is_held_to_the_controls_range_and_questions(desktop, data):
    section = lab(desktop, "rerank")
    control = data["labs"]["rerank"]["control"]
    qid = next(iter(data["rerank"]["by_question"]))
    desktop.evaluate("(q) => { location.hash = '#lab-rerank?q=' + q + '&t=' + 99; }", qid)
    expect(section.locator("output")).to_have_text(f"{control['max']:.2f}")
    check(section, data, qid, control["max"])
    # Between steps: onto the nearest step, as the range itself would put it.
    desktop.evaluate("(q) => { location.hash = '#lab-rerank?q=' + q + '&t=0.33'; }", qid)
    snapped = round(control["min"] + round((0.33 - control["min"]) / control["step"]) * control["step"], 6)
    expect(section.locator("output")).to_have_text(f"{snapped:.2f}")
    check(section, data, qid, snapped)
    # A question without rerank scores is refused: the lab keeps what it showed.
    unscored = next(q["id"] for q in data["questions"] if q["id"] not in data["rerank"]["by_question"])
    desktop.evaluate("(q) => { location.hash = '#lab-rerank?q=' + q + '&t=0.5'; }", unscored)
    desktop.wait_for_timeout(100)
    expect(section.locator(PICKER)).to_have_value(qid)
    check(section, data, qid, snapped)


@pytest.mark.browser
def test_on_a_phone_the_two_lists_stay_side_by_side(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-rerank", viewport={"width": 360, "height": 780},
                     is_mobile=True, has_touch=True)
    section = lab(page, "rerank")
    firsts = section.evaluate("""s => ['ol.rerank-in', 'ol.rerank-out'].map(list =>
        s.querySelector(list + ' > li').getBoundingClientRect()).map(r => ({top: r.top, left: r.left, right: r.right}))""")
    assert round(firsts[0]["top"]) == round(firsts[1]["top"]), "the first rows of the two lists share one line"
    assert firsts[0]["right"] <= firsts[1]["left"]
    lists = section.locator(".rerank-columns").bounding_box()
    assert lists["height"] < page.viewport_size["height"], "both lists fit on one phone screen"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    outside = section.evaluate("""s => [...s.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > innerWidth + 1)
        .map(el => el.tagName.toLowerCase() + '.' + el.className)""")
    assert outside == []
    # A cut row still says so to a screen reader, and shows it struck through.
    set_threshold(section, data["labs"]["rerank"]["control"]["max"])
    cut = section.locator("ol.rerank-out li.is-cut").first
    expect(cut.locator(".flag")).to_have_text("cut")
    assert cut.locator(".pid code").evaluate("el => getComputedStyle(el).textDecorationLine") == "line-through"
