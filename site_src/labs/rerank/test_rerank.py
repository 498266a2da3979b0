"""Rerank, then cut off (site_src/labs/rerank/): the threshold control's range follows where the
scores came from; its view draws, for every question with rerank scores and every threshold the
control offers, the fused candidates, the reranked list and what the cut keeps, as the build's
data has them (checked in Node); a link is held to the control's range and questions; in the
browser, the threshold moves by drag and keyboard and goes into the link, and on a phone the two
lists stay side by side."""

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from engine.ranking import places, rank_label
from site_src.labs.rerank import data as rerank
from support.labs import hash_of, lab, open_page, sticking_out
from support.views import built_controls, markup, text

PICKER = 'select[data-picker="question"]'
RANGE = 'input[name="rerank-threshold"]'


# ------------------------------------------------------------------ the frame


def test_hand_written_scores_say_what_they_are_and_how_to_run_a_real_cross_encoder(built_site, data):
    """Labelled illustrative like the answers, never an excuse about a download, and the way to a
    real model named (engine/rerank.py reads RAG_EXPLAINER_RERANKER)."""
    from selectolax.lexbor import LexborHTMLParser

    from engine.rerank import RERANKER_ENV

    if data["rerank"]["source"] != "illustrative":
        pytest.skip("this build ran a real cross-encoder")
    frame = LexborHTMLParser((built_site / "index.html").read_text("utf-8")).css_first("#lab-rerank .rerank-source")
    words = text(frame)
    assert "Illustrative" in words and "written by hand" in words
    assert RERANKER_ENV in words
    assert "download" not in words.lower()


# ------------------------------------------------------------------ the data step


def test_illustrative_scores_get_a_0_to_1_control_cut_in_the_middle():
    assert rerank.threshold_control({"source": "illustrative", "by_question": {"q": [["a", 7.5]]}}) == {
        "min": 0.0, "max": 1.0, "step": 0.05, "threshold": 0.5, "digits": 2}


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


# ------------------------------------------------------------------ what the view draws (Node)


def thresholds(control):
    """Every value the range offers, min to max by step."""
    count = round((control["max"] - control["min"]) / control["step"])
    return [round(control["min"] + i * control["step"], 6) for i in range(count + 1)]


def check(html, data, qid, threshold):
    """The drawing shows question `qid` cut at `threshold` exactly as the build's data has it."""
    scores = data["rerank"]
    control = data["labs"]["rerank"]["control"]
    answer = next(q["answer"] for q in data["questions"] if q["id"] == qid)
    fused = data["runs"][qid]["hybrid"][:scores["depth"]]
    candidates = [pid for pid, _ in fused]
    scored = [(pid, s) for pid, s in scores["by_question"][qid] if pid in candidates]
    unscored = [pid for pid in candidates if pid not in dict(scored)]
    drawing = markup(html)
    inputs = drawing.css("ol.rerank-in > li")
    assert [li.attributes["data-pid"] for li in inputs] == candidates
    assert [text(li.css_first(".score")) for li in inputs] == [f"{s:.5f}" for _, s in fused]
    # Ranks show ties (scores equal to 6 decimals share a place): engine.ranking.places
    assert [text(li.css_first(".rank")) for li in inputs] == [rank_label(p) for p in places(data["runs"][qid]["hybrid"])][:len(candidates)]
    assert [li.attributes["data-pid"] for li in drawing.css("ol.rerank-in > li.is-answer")] == \
        ([answer] if answer in candidates else [])
    out = drawing.css("ol.rerank-out > li")
    assert [li.attributes["data-pid"] for li in out] == [pid for pid, _ in scored] + unscored
    kept = [pid for pid, s in scored if s >= threshold]
    for index, (row, (pid, score), place) in enumerate(zip(out, scored, places(scored))):
        classes = row.attributes["class"].split()
        assert text(row.css_first(".rank")) == rank_label(place)
        assert text(row.css_first(".score")) == f"{score:.{control['digits']}f}"
        assert ("is-cut" in classes) == ("is-removed" in classes) == (score < threshold)
        assert ("is-winner" in classes) == (index == 0 and score >= threshold)
        assert text(row.css_first(".flag")) == ("cut" if score < threshold else "right passage" if pid == answer else "kept")
        assert text(row.css_first(".detail")) == f"fused rank {candidates.index(pid) + 1}"
        assert float(row.css_first("meter").attributes["value"]) == score
    for row in out[len(scored):]:
        assert "is-unscored" in row.attributes["class"].split()
        assert text(row.css_first(".flag")) == "no score written" and text(row.css_first(".score")) == "–"
        assert text(row.css_first(".detail")) == f"fused rank {candidates.index(row.attributes['data-pid']) + 1}"
    status = text(drawing.css_first(".lab-status"))
    assert status.startswith(f"Kept {len(kept)} of {len(candidates)} candidates at threshold {threshold:.2f}. "
                             f"The right passage, {answer}, ")
    was = candidates.index(answer) + 1 if answer in candidates else None
    if answer in kept:
        at = [pid for pid, _ in scored].index(answer) + 1
        assert status.endswith(f"stays at rank {at}." if at == was else f"moves from fused rank {was} to rank {at}.")
    elif answer in dict(scored):
        assert status.endswith("is cut.")
    else:
        assert status.endswith("has no score." if was else "is not among the candidates.")


def test_every_question_and_threshold_is_drawn_as_the_builds_scores_and_cut(views, data):
    control = data["labs"]["rerank"]["control"]
    states = [{"q": qid, "t": t} for qid in data["rerank"]["by_question"] for t in thresholds(control)]
    assert len(states) == len(data["rerank"]["by_question"]) * (round((control["max"] - control["min"]) / control["step"]) + 1)
    for state, drawing in zip(states, views.draw_many("rerank", states)):
        assert drawing.state == state
        check(drawing.html, data, state["q"], state["t"])


def test_the_default_threshold_is_the_controls_and_the_scores_source_is_said(views, data):
    drawing = views.draw("rerank", dict(rerank.STATE))
    assert drawing.state == {"q": rerank.STATE["q"], "t": data["labs"]["rerank"]["control"]["threshold"]}
    heading = text(markup(drawing.html).css_first("#rerank-out-title"))
    assert heading == ("Reranked · illustrative scores" if data["rerank"]["source"] == "illustrative"
                       else f"Reranked · {data['rerank']['label']}")


def test_a_link_is_held_to_the_controls_range_and_steps(views, data):
    control = data["labs"]["rerank"]["control"]
    qid = rerank.STATE["q"]
    between = control["min"] + 1.4 * control["step"]  # between two steps: onto the nearer, the lower
    asked = [{"q": qid, "t": "99"}, {"q": qid, "t": str(control["min"] - 5)}, {"q": qid, "t": str(between)},
             {"q": qid, "t": "a lot"}, {"q": qid}]
    got = [drawing.state["t"] for drawing in views.draw_many("rerank", asked)]
    assert got == [control["max"], control["min"], round(control["min"] + control["step"], 6),
                   control["threshold"], control["threshold"]]


def test_a_question_without_rerank_scores_is_refused(views, data):
    unscored = next(q["id"] for q in data["questions"] if q["id"] not in data["rerank"]["by_question"])
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("rerank", {"q": unscored, "t": 0.5})


def test_the_picker_lists_only_the_questions_with_rerank_scores(dist_dir, data):
    options = re.findall(r'<option value="([^"]+)"', "".join(built_controls(dist_dir)["rerank"]))
    assert options == [q["id"] for q in data["questions"] if q["id"] in data["rerank"]["by_question"]]


# ------------------------------------------------------------------ in the browser


def shown(section):
    """The lab's drawing and its threshold control as they stand."""
    return (section.locator(".lab-output").inner_html(), section.locator("output").text_content(),
            section.locator(RANGE).input_value())


def check_page(section, data, qid, threshold):
    html, output, value = shown(section)
    check(html, data, qid, threshold)
    assert output == f"{threshold:.2f}"
    assert float(value) == pytest.approx(threshold)


def set_threshold(section, value):
    """Move the range as a drag does: set its value and let it say so."""
    section.locator(RANGE).evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }", value)


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-rerank")


@pytest.mark.browser
def test_a_drag_and_the_picker_redraw_and_go_into_the_link(desktop, data):
    section = lab(desktop, "rerank")
    control = data["labs"]["rerank"]["control"]
    if data["rerank"]["source"] == "illustrative":
        expect(section.locator(".illustrative")).to_contain_text("written by hand")
    check_page(section, data, section.locator(PICKER).input_value(), control["threshold"])
    for qid in list(data["rerank"]["by_question"])[:2]:
        section.locator(PICKER).select_option(qid)
        for threshold in (control["min"], control["max"]):
            set_threshold(section, threshold)
            check_page(section, data, qid, threshold)
            assert hash_of(desktop) == f"#lab-rerank?q={qid}&t={threshold:g}"


@pytest.mark.browser
def test_the_threshold_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    qid = next(q["id"] for q in data["questions"] if q["id"] in data["rerank"]["by_question"])
    step = data["labs"]["rerank"]["control"]["step"]
    page = open_page(make_page, site_url, f"#lab-rerank?q={qid}&t=0.20")
    section = lab(page, "rerank")
    expect(section.locator(PICKER)).to_have_value(qid)
    check_page(section, data, qid, 0.2)
    section.locator(RANGE).focus()
    page.keyboard.press("ArrowRight")
    check_page(section, data, qid, round(0.2 + step, 2))
    assert hash_of(page) == f"#lab-rerank?q={qid}&t={0.2 + step:.2f}"
    page.keyboard.press("Shift+Tab")
    expect(section.locator(PICKER)).to_be_focused()
    options = section.locator(f"{PICKER} option").evaluate_all("os => os.map(o => o.value)")
    page.keyboard.press("ArrowDown")
    after = options[options.index(qid) + 1] if options.index(qid) + 1 < len(options) else qid
    expect(section.locator(PICKER)).to_have_value(after)
    check_page(section, data, after, round(0.2 + step, 2))


@pytest.mark.browser
def test_a_changed_link_moves_the_control_or_is_refused(desktop, data):
    section = lab(desktop, "rerank")
    control = data["labs"]["rerank"]["control"]
    qid = next(iter(data["rerank"]["by_question"]))
    desktop.evaluate("(q) => { location.hash = '#lab-rerank?q=' + q + '&t=' + 99; }", qid)
    expect(section.locator("output")).to_have_text(f"{control['max']:.2f}")
    check_page(section, data, qid, control["max"])
    # A question without rerank scores is refused: the lab keeps what it showed.
    unscored = next(q["id"] for q in data["questions"] if q["id"] not in data["rerank"]["by_question"])
    desktop.evaluate("(q) => { location.hash = '#lab-rerank?q=' + q + '&t=0.5'; }", unscored)
    desktop.wait_for_timeout(100)
    expect(section.locator(PICKER)).to_have_value(qid)
    check_page(section, data, qid, control["max"])


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
    assert sticking_out(section) == []
    # A cut row still says so to a screen reader, and shows it struck through.
    set_threshold(section, data["labs"]["rerank"]["control"]["max"])
    cut = section.locator("ol.rerank-out li.is-cut").first
    expect(cut.locator(".flag")).to_have_text("cut")
    assert cut.locator(".pid code").evaluate("el => getComputedStyle(el).textDecorationLine") == "line-through"
