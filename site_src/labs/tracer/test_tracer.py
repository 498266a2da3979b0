"""The tracer (site_src/labs/tracer/): its view draws, for each of the five tracer questions,
every stage with the build's numbers (the ranked lists and their scores, the passages the
prompt carries, its token count, the illustrative answer with its citations, the real citation
check), and one stage at a time with the buttons that step to its neighbours (checked in
Node); in the browser, the stages are stepped through by mouse and keyboard, a citation jumps to
its passage, a shared link and the section's own links open a trace, and nothing sticks out on
a phone."""

from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from engine.citations import answer_sentences
from engine.ranking import places, rank_label
from site_src.labs.tracer import data as tracer_lab
from support.browser import VIEWPORTS
from support.labs import draw_a_frame, hash_of, kept_page, lab, open_again, open_page, sticking_out
from support.views import markup, text

STAGES = ["dense", "bm25", "fused", "rerank", "prompt", "answer", "check"]
LABELS = ["Dense", "BM25", "Fused", "Rerank", "Prompt", "Answer", "Check"]
DIGITS = {"dense": 3, "bm25": 3, "fused": 4, "rerank": 2}
PICKER = 'select[data-picker="question"]'


# ------------------------------------------------------------------ the data step


def test_the_lab_opens_on_the_first_tracer_with_every_stage(data):
    assert tracer_lab.STATE == {"q": data["tracers"][0]["id"], "stage": "all"}
    assert data["labs"]["tracer"] == {"depth": tracer_lab.DEPTH, "cutoff": data["labs"]["rerank"]["control"]["threshold"],
                                      "stages": [[key, label] for key, label in zip(STAGES, LABELS)],
                                      "unbacked": "no claim backs this sentence"}


def test_its_cut_off_is_the_rerank_labs_default_threshold():
    illustrative = SimpleNamespace(data={"rerank": {"source": "illustrative", "by_question": {}}})
    assert tracer_lab.data(illustrative) == {"depth": tracer_lab.DEPTH, "cutoff": 0.5,
                                             "stages": tracer_lab.STAGES, "unbacked": "no claim backs this sentence"}
    # A real cross-encoder's scores are logits around 0: the cut-off is 0.
    model = SimpleNamespace(data={"rerank": {"source": "model", "by_question": {"q": [["a", 3.2], ["b", -4.1]]}}})
    assert tracer_lab.data(model)["cutoff"] == 0.0


def test_its_questions_are_the_five_tracer_questions(data):
    tracers = [q for q in data["questions"] if q["set"] == "tracer"]
    assert [t["id"] for t in data["tracers"]] == [q["id"] for q in tracers]
    assert [t["question"] for t in data["tracers"]] == [q["text"] for q in tracers]
    assert len(tracers) == 5


# ------------------------------------------------------------------ what the view draws (Node)


def expected_rows(ranking, answer, depth, digits):
    """The list's top `depth`, each rank as the page writes it (ties shared, engine.ranking.places),
    then the right passage where it ranked below them, or a dash where the list lacks it."""
    labels = [rank_label(place) for place in places(ranking)]
    rows = [(labels[i], pid, f"{score:.{digits}f}") for i, (pid, score) in enumerate(ranking[:depth])]
    at = next((i for i, (pid, _) in enumerate(ranking) if pid == answer), None)
    if at is None:
        rows.append(("–", answer, "–"))
    elif at >= depth:
        rows.append((labels[at], answer, f"{ranking[at][1]:.{digits}f}"))
    return rows


def rank_in(ranking, pid):
    return next((i for i, (other, _) in enumerate(ranking, 1) if other == pid), None)


def expected_readout(data, tracer):
    q, answer, sent = tracer["id"], tracer["answer"], tracer["sent"]
    runs = data["runs"][q]
    rerank = data["rerank"]["by_question"].get(q, tracer["rerank"])
    illustrative = " (illustrative)" if data["rerank"]["source"] == "illustrative" else ""
    where = (f"sent to the model at position {sent.index(answer) + 1} of {len(sent)}" if answer in sent
             else "not sent to the model")
    passed = sum(c["ok"] for c in tracer["claims"])
    sentences = answer_sentences(tracer["answer_text"], [c["in_answer"] for c in tracer["claims"]])
    unbacked = sum(not s.backed for s in sentences)
    return (f"Right passage {answer}: dense rank {rank_in(runs['dense'], answer) or '–'}, "
            f"BM25 rank {rank_in(runs['bm25'], answer) or 'none (not in the list)'}, "
            f"fused rank {rank_in(runs['hybrid'], answer) or 'none'}, rerank {rank_in(rerank, answer) or 'none'}"
            f"{illustrative}; {where}. Citations: {passed} of {len(tracer['claims'])} pass every check; "
            f"{unbacked} sentence{'' if unbacked == 1 else 's'} of {len(sentences)} backed by no claim.")


def check_tracer(html, data, tracer):
    """Every stage of the drawing against the build's data for this tracer question."""
    drawing = markup(html)
    stage = lambda key: drawing.css_first(f'.trace-stage[data-stage="{key}"]')  # noqa: E731
    q, answer, depth = tracer["id"], tracer["answer"], data["labs"]["tracer"]["depth"]
    runs = data["runs"][q]
    rerank = data["rerank"]["by_question"].get(q, tracer["rerank"])
    for key, ranking in (("dense", runs["dense"]), ("bm25", runs["bm25"]), ("fused", runs["hybrid"]),
                         ("rerank", rerank)):
        rows = [(text(li.css_first(".rank")), text(li.css_first(".pid code")), text(li.css_first(".score")))
                for li in stage(key).css("ol.trace-list > li")]
        assert rows == expected_rows(ranking, answer, depth, DIGITS[key]), (q, key)
        assert [text(code) for code in stage(key).css("li.is-answer .pid code")] == [answer], (q, key)
    sent = tracer["sent"]
    assert sent == [pid for pid, _ in runs["hybrid"][:data["settings"]["prompt_passages"]]]
    prompt = stage("prompt")
    assert [text(code) for code in prompt.css(".trace-sent > li .pid code")] == sent
    assert [text(score) for score in prompt.css(".trace-sent > li .score")] == \
        [f"{s:.4f}" for _, s in runs["hybrid"][:len(sent)]]
    assert f"{data['prompt_tokens'][q][str(len(sent))]} tokens ({data['tokens']['tokenizer']})" in \
        text(prompt.css_first(".trace-note"))
    # The prompt takes the fused list; the rerank stage's cut-off says which of its passages a
    # reranking pipeline would have dropped.
    cutoff = data["labs"]["tracer"]["cutoff"]
    kept = [pid for pid, score in rerank if score >= cutoff]
    dropped = [pid for pid in sent if pid not in kept]
    assert text(stage("rerank").css_first(".trace-cutoff")) == (
        f"A cut-off at {cutoff:.2f} keeps {len(kept)}: {', '.join(kept)}." if kept
        else f"A cut-off at {cutoff:.2f} keeps none of them.")
    which = prompt.css_first(".trace-which")
    assert "The prompt takes the fused list, not the rerank" in text(which)
    assert text(which).endswith(
        f"The cut-off at {cutoff:.2f} would have dropped {len(dropped)} of these {len(sent)}: {', '.join(dropped)}."
        if dropped else f"All {len(sent)} pass the cut-off at {cutoff:.2f}.")
    assert [text(code) for code in which.css("code")] == dropped
    assert prompt.css_first("a.trace-open-prompt").attributes["href"] == f"#lab-prompt?q={q}&n={len(sent)}"
    answer_stage = stage("answer")
    assert answer_stage.css_first(".illustrative p").text() == tracer["answer_text"]
    markers = [part.split("]")[0] for part in tracer["answer_text"].split("[")[1:]]
    assert [text(cite) for cite in answer_stage.css(".trace-cite")] == [f"[{pid}]" for pid in markers]
    assert [a.attributes["href"] for a in answer_stage.css("a.trace-cite")] == \
        [f"#tracer-src-{pid}" for pid in markers if pid in sent]
    assert [text(m) for m in answer_stage.css("mark.trace-cite.is-unsent")] == \
        [f"[{pid}]" for pid in markers if pid not in sent]
    rows = drawing.css(".trace-claims tbody tr")
    assert len(rows) == len(tracer["claims"])
    for row, claim in zip(rows, tracer["claims"]):
        cells = [text(td) for td in row.css("td")]
        assert cells[0] == claim["text"] and cells[1] == claim["source"] and cells[2] == f"“{claim['quote']}”"
        assert cells[3].split()[0] == ("pass" if claim["ok"] else "fail")
        assert [text(p) for p in row.css(".checker-problem")] == claim["problems"]
    # The answer read sentence by sentence, as engine/citations.py reads it.
    expected = [(s.text, [f"claim {i + 1} · {'pass' if tracer['claims'][i]['ok'] else 'fail'}" for i in s.claims]
                 or ["no claim backs this sentence"])
                for s in answer_sentences(tracer["answer_text"], [c["in_answer"] for c in tracer["claims"]])]
    assert sentences_read(stage("check")) == expected
    assert [text(th) for th in drawing.css(".trace-claims tbody th")] == [f"claim {i}" for i in range(1, len(rows) + 1)]
    guardrail = "; ".join(tracer["guardrail"]) or "no links, e-mail addresses or requests for credentials found."
    assert text(drawing.css_first(".trace-guardrail")) == f"Output guardrail on the answer: {guardrail}"
    assert text(drawing.css_first(".trace-readout")) == expected_readout(data, tracer)


def sentences_read(node) -> list[tuple[str, list[str]]]:
    """The answer view's sentences: each one's text and its badges (its claims, or the flag)."""
    return [(text(li.css_first(".answer-sentence-text")), [text(b) for b in li.css(".answer-backing .badge")])
            for li in node.css('[data-view="answer"] li.answer-sentence')]


def test_the_sample_replys_unbacked_sentences_are_flagged(views, data):
    # Written by hand from corpus/tracers.yaml: its last sentence has no claim, nor has its first.
    got = sentences_read(markup(views.draw("tracer", {"q": "refund-three-weeks", "stage": "check"}).html))
    assert got == [
        ("Not for the current period.", ["no claim backs this sentence"]),
        ("Paid plans are refundable only within 14 days of the payment, and three weeks is past that [refund-new].",
         ["claim 1 · pass"]),
        ("You can still cancel: that stops all future charges, but the current billing period is not refunded "
         "[refund-new].", ["claim 2 · pass"]),
        ("An older page promising money back for longer has been superseded.", ["no claim backs this sentence"]),
    ]


def shown_stages(html) -> list[str]:
    return [div.attributes["data-stage"] for div in markup(html).css(".trace-stage") if "hidden" not in div.attributes]


def test_every_stage_of_all_five_questions_is_drawn_with_the_builds_numbers(views, data):
    states = [{"q": t["id"], "stage": "all"} for t in data["tracers"]]
    for tracer, drawing in zip(data["tracers"], views.draw_many("tracer", states)):
        check_tracer(drawing.html, data, tracer)
        assert text(markup(drawing.html).css_first(".lab-status")) == f"All 7 stages for “{tracer['question']}”."
        assert shown_stages(drawing.html) == STAGES


def test_one_stage_at_a_time_shows_that_stage_and_steps_to_its_neighbours(views, data):
    tracer = data["tracers"][0]
    states = [{"q": tracer["id"], "stage": key} for key in ["all"] + STAGES]
    for state, drawing in zip(states, views.draw_many("tracer", states)):
        drawing_ = markup(drawing.html)
        at = STAGES.index(state["stage"]) if state["stage"] != "all" else -1
        assert shown_stages(drawing.html) == (STAGES if at < 0 else [state["stage"]])
        assert text(drawing_.css_first(".lab-status")) == (
            f"All 7 stages for “{tracer['question']}”." if at < 0
            else f"Stage {at + 1} of 7, {LABELS[at]}, for “{tracer['question']}”.")
        assert drawing.summary == text(drawing_.css_first(".lab-status"))
        buttons = {b.attributes["data-step"]: "disabled" in b.attributes for b in drawing_.css(".trace-step button")}
        assert buttons == {"-1": at <= 0, "1": at == len(STAGES) - 1}
        assert "trace-stages " + ("is-all" if at < 0 else "is-one") == drawing_.css_first(".trace-stages").attributes["class"]


def test_a_link_to_a_question_without_a_trace_is_refused_and_an_unknown_stage_shows_all(views, data):
    golden = next(q["id"] for q in data["questions"] if q["set"] == "golden")
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("tracer", {"q": golden, "stage": "rerank"})
    assert views.draw("tracer", {"q": data["tracers"][2]["id"], "stage": "nonsense"}).state == \
        {"q": data["tracers"][2]["id"], "stage": "all"}


# ------------------------------------------------------------------ in the browser


def visible_stages(section) -> list[str]:
    return section.locator(".trace-stage:visible").evaluate_all("els => els.map(e => e.dataset.stage)")


def show_all(section, q):
    """Back to one question with every stage shown (tests share a page)."""
    section.locator(PICKER).select_option(q)
    section.locator('input[name="tracer-stage"][value="all"] + span').click()


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    """The page the tests with JavaScript share: each sets its state through the lab, or loads
    its link afresh in it (support.labs.open_again)."""
    return open_page(make_page_module, site_url, "#lab-tracer")


@pytest.fixture(scope="module")
def static(make_page_module):
    """The page the tests without JavaScript share, each loading it afresh at its size."""
    return kept_page(make_page_module, java_script_enabled=False)


@pytest.mark.browser
def test_without_javascript_the_default_shows_every_stage_and_no_buttons(static, site_url, data):
    static.set_viewport_size(VIEWPORTS["desktop"])
    page = open_again(static, site_url)
    section = lab(page, "tracer")  # its section laid out, the rest of the page left as a reader finds it
    draw_a_frame(page)
    for key in STAGES:
        expect(section.locator(f'.trace-stage[data-stage="{key}"]')).to_be_visible()
    expect(section.locator(".trace-step")).to_be_hidden()
    check_tracer(section.locator(".lab-output").inner_html(), data, data["tracers"][0])


@pytest.mark.browser
def test_the_check_stage_flags_the_sample_replys_sentence_no_claim_backs(desktop, data):
    section = lab(desktop, "tracer")
    section.locator(PICKER).select_option("refund-three-weeks")
    section.locator('input[name="tracer-stage"][value="check"] + span').click()
    sentence = section.locator('[data-view="answer"] li.answer-sentence', has_text="An older page promising money back")
    expect(sentence.locator(".answer-unbacked")).to_have_text("no claim backs this sentence")
    expect(sentence.locator(".answer-unbacked")).to_be_visible()
    expect(section.locator('[data-view="answer"] .illustrative-label')).to_be_visible()
    show_all(section, data["tracers"][0]["id"])


@pytest.mark.browser
def test_the_picker_lists_the_five_questions_and_each_goes_into_the_link(desktop, data):
    section = lab(desktop, "tracer")
    assert section.locator(f"{PICKER} option").evaluate_all("os => os.map(o => o.value)") == \
        [t["id"] for t in data["tracers"]]
    for tracer in data["tracers"]:
        section.locator(PICKER).select_option(tracer["id"])
        expect(section.locator(".lab-status")).to_have_text(f"All 7 stages for “{tracer['question']}”.")
        check_tracer(section.locator(".lab-output").inner_html(), data, tracer)
        assert hash_of(desktop) == f"#lab-tracer?q={tracer['id']}&stage=all"


@pytest.mark.browser
def test_the_stages_step_by_mouse_and_a_citation_jumps_to_its_passage(desktop, data):
    section = lab(desktop, "tracer")
    q = data["tracers"][0]["id"]
    show_all(section, q)
    assert visible_stages(section) == STAGES
    previous = section.get_by_role("button", name="Previous stage")
    following = section.get_by_role("button", name="Next stage")
    expect(previous).to_be_disabled()
    for index, key in enumerate(STAGES):
        following.click()
        assert visible_stages(section) == [key]
        expect(section.locator(".lab-status")).to_have_text(
            f"Stage {index + 1} of {len(STAGES)}, {LABELS[index]}, for “{data['tracers'][0]['question']}”.")
        expect(section.locator(f'input[name="tracer-stage"][value="{key}"]')).to_be_checked()
    expect(following).to_be_disabled()
    previous.click()
    assert visible_stages(section) == [STAGES[-2]]
    assert hash_of(desktop) == f"#lab-tracer?q={q}&stage={STAGES[-2]}"
    # With one stage shown, a citation switches to the prompt stage and focuses its passage.
    section.locator('input[name="tracer-stage"][value="answer"] + span').click()
    cite = section.locator("a.trace-cite").first
    pid = cite.get_attribute("href").split("tracer-src-")[1]
    cite.click()
    assert visible_stages(section) == ["prompt"]
    expect(desktop.locator(f"#tracer-src-{pid}")).to_be_focused()
    assert hash_of(desktop) == f"#lab-tracer?q={q}&stage=prompt"  # the lab's link survived the jump
    # With every stage shown, it only moves to the passage.
    show_all(section, q)
    section.locator("a.trace-cite").first.click()
    assert visible_stages(section) == STAGES
    expect(desktop.locator(f"#tracer-src-{pid}")).to_be_focused()
    assert hash_of(desktop) == f"#lab-tracer?q={q}&stage=all"


@pytest.mark.browser
def test_the_stages_step_by_keyboard(desktop, data):
    section = lab(desktop, "tracer")
    show_all(section, data["tracers"][0]["id"])
    section.locator('input[name="tracer-stage"]:checked').focus()
    desktop.keyboard.press("ArrowRight")
    assert visible_stages(section) == ["dense"]
    desktop.keyboard.press("ArrowRight")
    assert visible_stages(section) == ["bm25"]
    section.get_by_role("button", name="Next stage").focus()
    desktop.keyboard.press("Enter")
    assert visible_stages(section) == ["fused"]
    desktop.keyboard.press("Space")
    assert visible_stages(section) == ["rerank"]
    select = section.locator(PICKER)
    select.focus()
    desktop.keyboard.press("ArrowDown")
    second = data["tracers"][1]
    expect(select).to_have_value(second["id"])
    assert visible_stages(section) == ["rerank"]
    assert hash_of(desktop) == f"#lab-tracer?q={second['id']}&stage=rerank"
    section.locator('input[name="tracer-stage"][value="all"] + span').click()
    check_tracer(section.locator(".lab-output").inner_html(), data, second)


@pytest.mark.browser
def test_a_shared_link_restores_the_question_and_the_stage(desktop, site_url, data):
    tracer = data["tracers"][3]
    page = open_again(desktop, site_url, f"#lab-tracer?q={tracer['id']}&stage=rerank")
    section = lab(page, "tracer")
    expect(section.locator(PICKER)).to_have_value(tracer["id"])
    expect(section.locator('input[name="tracer-stage"][value="rerank"]')).to_be_checked()
    assert visible_stages(section) == ["rerank"]
    section.locator('input[name="tracer-stage"][value="all"] + span').click()
    check_tracer(section.locator(".lab-output").inner_html(), data, tracer)


@pytest.mark.browser
def test_a_link_to_a_question_without_a_trace_or_an_unknown_stage_is_not_followed(desktop, site_url, data):
    golden = next(q["id"] for q in data["questions"] if q["set"] == "golden")
    page = open_again(desktop, site_url, f"#lab-tracer?q={golden}&stage=rerank")
    section = lab(page, "tracer")
    expect(section.locator(PICKER)).to_have_value(data["tracers"][0]["id"])
    assert visible_stages(section) == STAGES
    page.evaluate("(q) => { location.hash = '#lab-tracer?q=' + q + '&stage=nonsense'; }", data["tracers"][2]["id"])
    expect(section.locator(PICKER)).to_have_value(data["tracers"][2]["id"])
    assert visible_stages(section) == STAGES
    expect(section.locator(".lab-status")).to_have_text(f"All 7 stages for “{data['tracers'][2]['question']}”.")


@pytest.mark.browser
def test_the_sections_links_open_each_trace(desktop, site_url, data):
    page = open_again(desktop, site_url)  # at the page's top, as a reader opens it
    section = page.locator("#lab-tracer")
    for tracer in reversed(data["tracers"]):
        link = page.locator(f'#every-stage a[href="#lab-tracer?q={tracer["id"]}"]')
        expect(link).to_have_count(1)
        link.click()
        expect(section.locator(PICKER)).to_have_value(tracer["id"])
        expect(section.locator(".lab-status")).to_have_text(f"All 7 stages for “{tracer['question']}”.")
        assert 0 <= page.evaluate("() => document.getElementById('lab-tracer').getBoundingClientRect().top") <= 120


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_nothing_sticks_out_on_a_phone(request, site_url, javascript):
    page = request.getfixturevalue("desktop" if javascript else "static")
    page.set_viewport_size(VIEWPORTS["phone"])
    try:
        open_again(page, site_url, "#lab-tracer?q=refund-three-weeks&stage=all" if javascript else "")
        assert sticking_out(lab(page, "tracer"), ".table-scroll, pre") == []
    finally:
        page.set_viewport_size(VIEWPORTS["desktop"])
