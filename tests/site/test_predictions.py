"""Predictions before the labs (builder/page/predictions.py, corpus/predictions.yaml,
site_src/templates/_prediction.html, site_src/runtime/predict.js): each mistake in the file is
named with its file, line, prediction, field and fix; the right choice is the one whose `is`
holds on the build's data (none or two is refused, and so is one of another form); a lab that
opens on the state a prediction asks about is refused; on the page, a pick, then the lab set
as the task says, gives the verdict from the lab's live state."""

import json
import re

import pytest
from playwright.sync_api import expect
from selectolax.lexbor import LexborHTMLParser

from builder import labs
from builder import practice_source
from builder.page import predictions, render
from builder.page.claims import ClaimRegistry
from builder.page.errors import ProseError
from builder.page.facts import Facts
from builder.page.prose import prose_environment
from engine.problems import ProblemLog
from support.labs import lab, open_page
from support.views import page_with_controls

STATES = {"hybrid": {"q": "upload-4021", "k": 60, "depth": 8}, "bm25": {"q": "upload-4021", "text": "", "k1": 1.2, "b": 0.75}}

GOOD = """\
- id: depth
  lab: hybrid
  when: {depth: 4}
  let:
    at: fused_place('upload-4021', 'err-4021', depth=4)
  question: With depth {{ when.depth }}, where does `err-4021` go?
  task: Drag depth to {{ when.depth }}.
  shows: It is {{ at }}.
  choices:
    - text: It stays first, and first alone
      is: at == '1'
    - text: It shares first place with another
      is: at == '1='
    - text: It drops out of the fused list
      is: at is None
"""


def load(tmp_path, text):
    (tmp_path / "corpus").mkdir(exist_ok=True)
    path = tmp_path / "corpus" / "predictions.yaml"
    path.write_text(text, "utf-8")
    out = ProblemLog(tmp_path / "corpus")
    return practice_source.load_predictions(path, out, STATES), [str(p) for p in out.problems]


def test_a_prediction_loads_with_its_lab_its_setting_and_its_choices(tmp_path):
    (p,), problems = load(tmp_path, GOOD)
    assert problems == []
    assert (p.id, p.lab, p.line, p.when) == ("depth", "hybrid", 1, (("depth", 4),))
    assert [(c.holds, c.line) for c in p.choices] == [("at == '1'", 10), ("at == '1='", 12), ("at is None", 14)]


@pytest.mark.parametrize("old, new, line, field, message", [
    ("  lab: hybrid\n", "  lab: hybird\n", 1, "lab", "is 'hybird'"),
    ("  when: {depth: 4}\n", "  when: {deep: 4}\n", 1, "when.deep", "is not a setting of this lab"),
    ("  when: {depth: 4}\n", "  when: {depth: four}\n", 1, "when.depth", "is 'four', not of the setting's type (int)"),
    ("  when: {depth: 4}\n", "", 1, "when", "is not a mapping of the lab's settings"),
    ("      is: at is None\n", "", 14, "is", "is missing or empty"),
    ("      is: at is None\n", "      is: at is\n", 14, "is", "is not a Python expression"),
    ("      is: at is None\n", "      is: at is None\n      right: true\n", 14, "right", "marks a choice right by hand"),
    ("  task: Drag depth to {{ when.depth }}.\n", "  task: Drag depth to 4.\n", 1, "task", "types the number 4"),
])
def test_each_mistake_is_named_with_its_file_line_prediction_field_and_fix(tmp_path, old, new, line, field, message):
    assert old in GOOD
    loaded, problems = load(tmp_path, GOOD.replace(old, new))
    assert loaded == []
    assert any(p.startswith(f"corpus/predictions.yaml:{line}: depth: {field}: {message}") and "(fix: " in p for p in problems), problems


def rendered(data, text, tmp_path):
    (p,), problems = load(tmp_path, text)
    assert problems == []
    facts = Facts(data)
    namespace = facts.namespace()
    return predictions.render_predictions([p.as_source()], prose_environment(ClaimRegistry(namespace)),
                                          {**namespace, **predictions.helpers(facts)})


def test_the_right_choice_is_the_one_that_holds_on_the_builds_data(data, tmp_path):
    (shown,), problems = rendered(data, GOOD, tmp_path)
    assert problems == [] and shown["answer"] == 1 and shown["shows"] == "It is 1=."
    assert shown["when"] == {"depth": 4} and shown["choices"][1] == "It shares first place with another"


def test_no_choice_or_two_holding_is_refused_naming_file_line_and_fix(data, tmp_path):
    two = GOOD.replace("is: at is None", "is: at == '1='")
    (shown,), (problem,) = rendered(data, two.replace("It drops out of the fused list", "It shares first with one more"), tmp_path)
    assert shown["answer"] is None
    assert problem.startswith("corpus/predictions.yaml:1: depth: choices: exactly one choice must hold on the build's "
                              "data, and 2 do (“It shares first place with another”, “It shares first with one more”)")
    assert problem.endswith("(fix: make the choices exclude each other and cover what the lab can show)")
    (shown,), (problem,) = rendered(data, GOOD.replace("is: at == '1='", "is: at == '2'"), tmp_path)
    assert "and 0 do (none)" in problem


def test_a_right_choice_of_another_form_is_refused_as_in_the_quiz(data, tmp_path):
    short = GOOD.replace("It shares first place with another", "Tied first")
    _, (problem, opening) = rendered(data, short, tmp_path)
    assert "is the only one opening with “tied”" in opening
    assert problem.startswith("corpus/predictions.yaml:12: depth: text: the right choice, “Tied first” (10 characters), "
                              "is not of the wrong ones' length")


def test_a_lab_that_opens_on_the_state_asked_about_is_refused():
    frames = {"hybrid": {"id": "depth", "lab": "hybrid", "line": 3, "when": {"depth": 4}, "answer": 1}}
    with pytest.raises(ProseError, match=r"^corpus/predictions\.yaml:3: depth: when: the lab 'hybrid' opens on "
                                         r"\{'depth': 4\} already \(fix: ask about a setting the reader must change\)"):
        render.prediction_before("hybrid", frames, {"depth": 4})
    assert render.prediction_before("map", frames, {}) == ""


def test_a_setting_no_control_of_the_lab_can_reach_is_refused(dist_dir):
    """The prompt lab's radios offer 3 to 10 passages: a prediction about 2 would never be judged
    (the first draft of prompt-four asked about 2, and this is how the build caught it)."""
    html = page_with_controls(dist_dir)  # as the build read it: with the labs' controls
    prompt = html[html.index('<section class="lab" data-lab="prompt"'):]
    prompt = prompt[:prompt.index("</section>")]
    frames = {"prompt": {"id": "two", "lab": "prompt", "line": 7, "when": {"n": 2}, "answer": 0}}
    with pytest.raises(ProseError, match=r"^corpus/predictions\.yaml:7: two: when: the lab 'prompt' has no control "
                                         r"that sets n = 2 \(fix: ask about a value its sliders, buttons or lists offer\)"):
        render.prediction_before("prompt", frames, {}, prompt, ())
    assert predictions.unreachable(prompt, {"n": 4}, ()) == []
    hybrid = html[html.index('<section class="lab" data-lab="hybrid"'):]
    assert predictions.unreachable(hybrid[:hybrid.index("</section>")], {"depth": 21, "k": 60, "q": "g02"}, {"g02"}) == \
        ["depth = 21"], "the slider stops at 20; any question of the page's may be picked"


def test_the_helpers_run_the_engine_at_the_settings_the_reader_sets(data):
    """At the page's own settings they give the build's own rankings: the same engine, not a copy."""
    facts = Facts(data)
    helpers = predictions.helpers(facts)
    assert helpers["fused"]("upload-4021") == facts.run("upload-4021", "hybrid")
    q = facts.question("okta-login")
    assert helpers["bm25_at"](q["text"]) == facts.run("okta-login", "bm25")
    assert helpers["fused_place"]("upload-4021", "err-4021") == facts.place("upload-4021", "hybrid", "err-4021")


def frames_of(dist_dir):
    page = LexborHTMLParser((dist_dir / "index.html").read_text("utf-8"))
    return page.css("div.prediction[data-prediction]")


# Labs of sections 4 to 9 that ask no prediction, and why.
WITHOUT_PREDICTION = {
    "map": "its one control picks a question, and a dot's neighbours on a 2-D projection are not a ranking",
    "checker": "its controls edit the claim in place; its state holds only which claim is shown",
    "ask": "it runs the reader's own words through the model, so the build cannot know its outcome",
}


def labs_of_sections_4_to_9() -> list[str]:
    import re
    from builder.sources import section_files
    return [name for path in section_files() if 4 <= int(path.name[:2]) <= 9
            for name in re.findall(r'\{\{\s*lab\("([a-z0-9-]+)"', path.read_text("utf-8"))]


def test_each_prediction_stands_just_before_its_lab_in_sections_4_to_9(dist_dir, data):
    frames = frames_of(dist_dir)
    source = data["labs"]["quiz"].get("prediction_source")
    placed = labs_of_sections_4_to_9()
    assert [f.attributes["data-for-lab"] for f in frames] == [name for name in placed if name not in WITHOUT_PREDICTION]
    assert set(WITHOUT_PREDICTION) <= set(placed), "a lab named as having none is one of those sections'"
    for frame in frames:
        after = frame.next
        while after is not None and after.tag == "-text":
            after = after.next
        assert after.tag == "section" and after.attributes["id"] == f"lab-{frame.attributes['data-for-lab']}"
        chapter = frame.parent
        while chapter.tag != "section" or "chapter" not in chapter.attributes.get("class", ""):
            chapter = chapter.parent
        number = int(chapter.css_first("h2 .num").text().strip().rstrip("."))
        assert 4 <= number <= 9, frame.attributes["id"]
        when = json.loads(frame.attributes["data-when"])
        assert set(when) <= set(labs.BY_NAME[frame.attributes["data-for-lab"]].state)
        assert frame.css_first("details.prediction-answer p").text() == frame.css_first(".prediction-shows").text()
    assert source, "the render step reads them as written"
    shipped = (dist_dir / "assets" / "labs" / "quiz.js").read_text("utf-8")
    assert "prediction_source" not in shipped and "fused_place" not in shipped, "the browser gets none of it"


def test_every_predictions_setting_is_a_state_its_lab_accepts_as_it_is(views, dist_dir):
    """The verdict waits for the lab's live state to hold `when`: a lab whose accept() changed the
    setting (a slider's step, a question it does not take) would never give it. Drawn in Node by
    the labs' own views, from the state each opens on."""
    html = (dist_dir / "index.html").read_text("utf-8")
    for frame in frames_of(dist_dir):
        name, when = frame.attributes["data-for-lab"], json.loads(frame.attributes["data-when"])
        at = html.index(f'data-lab="{name}" id="lab-{name}"')
        opens = json.loads(re.search(r"data-state='([^']*)'", html[at:at + 2000]).group(1).replace("&#34;", '"'))
        drawing = views.draw(name, {**opens, **when})
        assert {key: drawing.state[key] for key in when} == when, frame.attributes["data-prediction"]


# ------------------------------------------------------------------ in the browser


@pytest.mark.browser
def test_a_prediction_then_the_drag_then_the_verdict_from_the_labs_live_state(make_page, site_url, dist_dir):
    page = open_page(make_page, site_url)
    answers = {f.attributes["data-prediction"]: int(f.attributes["data-answer"]) for f in frames_of(dist_dir)}
    section = lab(page, "hybrid")
    frame = page.locator("#predict-hybrid-depth")
    task, verdict = frame.locator(".prediction-task"), frame.locator(".prediction-verdict")
    expect(task).to_be_hidden()
    wrong = (answers["hybrid-depth"] + 1) % 4
    frame.locator("label.prediction-choice").nth(wrong).click()
    expect(task).to_have_text("Now drag depth to 4 in the hybrid explorer.")
    expect(verdict).to_be_hidden()
    slider = section.locator('input[data-key="depth"]')
    slider.focus()
    for _ in range(3):  # 8 -> 5: not yet the depth asked about
        page.keyboard.press("ArrowLeft")
    expect(verdict).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    shows = frame.locator(".prediction-shows").text_content().strip()
    expect(verdict).to_have_text(f"Not what you predicted. {shows}")
    expect(frame.locator("label.prediction-choice.is-wrong")).to_have_count(1)
    expect(frame.locator("label.prediction-choice").nth(answers["hybrid-depth"])).to_have_class(
        "practice-choice prediction-choice is-right")
    expect(frame.locator("input[type=radio]").nth(answers["hybrid-depth"])).to_be_disabled()  # a prediction is made once
    expect(frame.locator(".prediction-status[role=status]")).to_have_text(f"Not what you predicted. {shows}")
    # What the verdict says is what the lab now draws: err-4021's place in the fused list.
    expect(section.locator('[data-list="hybrid"] li[data-pid="err-4021"] .rank')).to_have_text("1=")
    # A right pick, in another lab: the prompt's number of passages, 5 -> 4, by keyboard.
    prompt = lab(page, "prompt")
    other = page.locator("#predict-prompt-four")
    other.locator("label.prediction-choice").nth(answers["prompt-four"]).click()
    prompt.locator('input[data-key="n"]:checked').focus()
    page.keyboard.press("ArrowLeft")
    expect(prompt.locator('input[data-key="n"][value="4"]')).to_be_checked()
    expect(other.locator(".prediction-verdict")).to_have_text(
        f"You were right. {other.locator('.prediction-shows').text_content().strip()}")
