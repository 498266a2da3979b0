"""Check yourself (site_src/labs/quiz/) and the practice blocks at the ends of the sections: the
quiz's view draws every practice question, unanswered or answered, with the same answer and
reasons as the section's block (checked in Node); in the browser a pick shows at once whether it
is right and why each other choice is wrong, by mouse or keyboard (the arrow keys wait for Space,
Enter or leaving the question), announced politely; answers given along the way show in the
quiz; the quiz's answers live in its link; and the blocks fit a phone, read in dark mode and pass
axe."""

from types import SimpleNamespace

import pytest
from playwright.sync_api import expect
from selectolax.lexbor import LexborHTMLParser

from builder.practice_source import Choice, PracticeQuestion
from builder.sources import section_index
from site_src.labs.quiz import data as quiz
from support.browser import element_screenshots, load_axe, run_axe
from support.labs import hash_of, kept_page, lab, link_of, open_again, open_deep_dive, open_page, sticking_out
from support.views import markup, text

# ------------------------------------------------------------------ the data step


def practice_question(qid, section):
    return PracticeQuestion(qid, section, 3, "Q?", (Choice("a", "why a", True, 4), Choice("b", "why b", False, 6)), "True")


def test_the_data_step_keeps_the_questions_as_written_in_page_order_for_the_render_step():
    questions = (practice_question("late", "measuring"), practice_question("early", "chunking"),
                 practice_question("early-too", "chunking"))
    got = quiz.data(SimpleNamespace(content=SimpleNamespace(labs={"quiz": quiz.QuizContent(questions)})))
    assert [q["id"] for q in got["source"]] == ["early", "early-too", "late"]
    assert got["source"][0] == {"id": "early", "section": "chunking", "line": 3, "question": "Q?", "check": "True",
                                "let": [], "choices": [{"text": "a", "why": "why a", "right": True, "line": 4},
                                                       {"text": "b", "why": "why b", "right": False, "line": 6}]}
    assert got["sections"] == section_index()
    assert quiz.STATE == {}, "the page opens with nothing answered"
    assert got["prediction_source"] == [], "a corpus without predictions.yaml asks none"
    assert quiz.BUILD_ONLY == ("source", "prediction_source"), \
        "the browser gets the questions rendered, not their templates and checks"


def test_the_browser_gets_the_rendered_questions_not_their_source(dist_dir, data):
    shipped = (dist_dir / "assets" / "labs" / "quiz.js").read_text("utf-8")
    assert '"source"' not in shipped and "{{" not in shipped and '"check"' not in shipped
    assert all(f'"id":"{q["id"]}"' in shipped for q in data["labs"]["quiz"]["questions"])


# ------------------------------------------------------------------ the view, in Node


def questions(data):
    return data["labs"]["quiz"]["questions"]


def plain(text_):
    return text_.replace("`", "")


def back_link(data, q):
    s = next(s for s in data["labs"]["quiz"]["sections"] if s["slug"] == q["section"])
    return f"Back to section {s['number']}: {s['title']}"


def test_unanswered_every_question_shows_its_choices_and_the_way_back_to_its_section(views, data):
    drawing = markup(views.draw("quiz", {}).html)
    items = drawing.css("ol.quiz > li.practice-q")
    assert [li.attributes["data-practice"] for li in items] == [q["id"] for q in questions(data)]
    for q, li in zip(questions(data), items):
        assert text(li.css_first("legend")) == plain(q["question"])
        assert [text(label) for label in li.css("label.practice-choice")] == [plain(c) for c in q["choices"]]
        assert [r.attributes["name"] for r in li.css("input[type=radio]")] == [f"quiz-{q['id']}"] * len(q["choices"])
        assert li.css("input[checked]") == [] and li.css("details") == [] and li.css(".practice-verdict") == []
        link = li.css_first(".quiz-back a")
        assert link.attributes["href"] == f"#practice-{q['id']}" and text(link) == back_link(data, q)
    assert text(drawing.css_first(".lab-status")) == f"0 of {len(questions(data))} answered."


def test_an_answer_is_marked_and_every_other_choice_explained(views, data):
    qs = questions(data)
    states = [{q["id"]: pick} for q in qs for pick in (q["answer"], (q["answer"] + 1) % len(q["choices"]))]
    for state, drawing in zip(states, views.draw_many("quiz", states)):
        (qid, pick), = state.items()
        q = next(q for q in qs if q["id"] == qid)
        li = markup(drawing.html).css_first(f"li#quiz-{qid}")
        assert "is-answered" in li.attributes["class"].split()
        labels = li.css("label.practice-choice")
        assert [set(label.attributes["class"].split()) - {"practice-choice"} for label in labels] == [
            {"is-right"} if i == q["answer"] else {"is-wrong"} if i == pick else set() for i in range(len(labels))]
        assert [r.attributes["value"] for r in li.css("input[checked]")] == [str(pick)]
        assert text(li.css_first(".practice-verdict")) == ("Right." if pick == q["answer"] else "Not quite.")
        assert "open" in li.css_first("details.practice-answer").attributes
        assert text(li.css_first(".practice-right")) == f"right {plain(q['choices'][q['answer']])}: {plain(q['why'][q['answer']])}"
        assert [text(w) for w in li.css(".practice-wrong > li")] == [
            f"wrong {plain(c)}: {plain(q['why'][i])}" for i, c in enumerate(q["choices"]) if i != q["answer"]]
        assert [w.attributes["data-choice"] for w in li.css(".practice-wrong > li.is-picked")] == (
            [] if pick == q["answer"] else [str(pick)])
        right = int(pick == q["answer"])
        assert text(markup(drawing.html).css_first(".lab-status")) == f"1 of {len(qs)} answered, {right} right."


def test_the_answer_and_reasons_are_drawn_exactly_as_the_sections_block_shows_them(views, data, dist_dir):
    """One markup for the reasons: the build's block (builder/page/practice.py) and the quiz's view (lab.js)."""
    page = LexborHTMLParser((dist_dir / "index.html").read_text("utf-8"))
    states = [{q["id"]: q["answer"]} for q in questions(data)]
    for state, drawing in zip(states, views.draw_many("quiz", states)):
        (qid, _), = state.items()
        block = page.css_first(f"section.practice li#practice-{qid} details.practice-answer")
        drawn = markup(drawing.html).css_first(f"li#quiz-{qid} details.practice-answer")
        assert drawn.html.replace(' open=""', "") == block.html, qid


def test_a_link_keeps_only_real_choices_of_real_questions(views, data):
    first, second, third = questions(data)[:3]
    drawing = views.draw("quiz", {first["id"]: len(first["choices"]), "constructor": 0, "nope": 1, second["id"]: "0",
                                  third["id"]: "-1", "__proto__": 1})
    assert drawing.state == {second["id"]: 0}


# ------------------------------------------------------------------ in the browser


@pytest.fixture(scope="module")
def tab(make_page_module):
    """One tab at 1280x900 (support.labs.kept_page) that the browser tests at that size load the
    page in again, each a fresh document (open_again). Nothing these tests do outlives the
    document: the quiz keeps its answers in the page and its link, not in storage."""
    return kept_page(make_page_module)


def block_item(page, qid):
    """A question at the end of its section, reached as a reader does: its section laid out and,
    for a question past the section's first, its closed "More practice" deep dive opened by its
    summary."""
    item = page.locator(f"section.practice li#practice-{qid}")
    item.evaluate("li => { li.closest('.chapter').style.contentVisibility = 'visible'; }")
    open_deep_dive(item)
    return item


def reasons(q, pick):
    """What a screen reader hears after a pick: the verdict, the reason for the pick, the answer's."""
    right = f"right {plain(q['choices'][q['answer']])}: {plain(q['why'][q['answer']])}"
    if pick == q["answer"]:
        return f"Right. {right}"
    return f"Not quite. wrong {plain(q['choices'][pick])}: {plain(q['why'][pick])} {right}"


@pytest.mark.browser
def test_a_pick_at_the_end_of_a_section_shows_at_once_whether_it_is_right_and_why(tab, site_url, data):
    page = open_again(tab, site_url)
    q = questions(data)[0]
    wrong = (q["answer"] + 1) % len(q["choices"])
    item = block_item(page, q["id"])
    expect(item.locator("details.practice-answer")).not_to_have_attribute("open", "")
    item.locator("label.practice-choice").nth(wrong).click()
    expect(item.locator(".practice-verdict")).to_have_text("Not quite.")
    expect(item.locator("details.practice-answer")).to_have_attribute("open", "")
    expect(item.locator("label.practice-choice.is-wrong")).to_have_text(plain(q["choices"][wrong]))
    expect(item.locator("label.practice-choice.is-right")).to_have_text(plain(q["choices"][q["answer"]]))
    expect(item.locator(f'.practice-wrong > li.is-picked[data-choice="{wrong}"]')).to_have_count(1)
    expect(page.locator("#rag-status")).to_have_text(reasons(q, wrong))
    # Another pick counts at once too, now that the reasons are out.
    item.locator("label.practice-choice").nth(q["answer"]).click()
    expect(item.locator(".practice-verdict")).to_have_text("Right.")
    expect(item.locator("label.practice-choice.is-wrong")).to_have_count(0)
    expect(item.locator(".practice-wrong > li.is-picked")).to_have_count(0)
    expect(page.locator("#rag-status")).to_have_text(reasons(q, q["answer"]))
    assert page.evaluate("() => location.hash") == "", "a pick along the way leaves the link alone"


@pytest.mark.browser
def test_by_keyboard_the_arrow_keys_browse_and_space_enter_or_leaving_answers(tab, site_url, data):
    page = open_again(tab, site_url)
    first, second = [q for q in questions(data) if len(q["choices"]) == 4][:2]
    item = block_item(page, first["id"])
    radios = item.locator("input[type=radio]")
    radios.first.focus()
    page.keyboard.press("ArrowDown")
    expect(radios.nth(1)).to_be_checked()
    expect(radios.nth(1)).to_be_focused()
    expect(item.locator(".practice-verdict")).to_have_count(0)  # browsing, not answering yet
    page.keyboard.press("ArrowDown")
    expect(radios.nth(2)).to_be_checked()
    expect(item).not_to_have_class("practice-q is-answered")
    page.keyboard.press("Space")
    expect(item).to_have_class("practice-q is-answered")
    expect(page.locator("#rag-status")).to_have_text(reasons(first, 2))
    # Arrows, then Tab out of the choices: the choice reached is the answer.
    other = block_item(page, second["id"])
    other.locator("input[type=radio]").first.focus()
    page.keyboard.press("ArrowDown")
    expect(other.locator(".practice-verdict")).to_have_count(0)
    page.keyboard.press("Tab")
    expect(other.locator(".practice-verdict")).to_have_count(1)
    expect(other.locator('label.practice-choice:has(input[value="1"])')).to_have_class(
        "practice-choice is-right" if second["answer"] == 1 else "practice-choice is-wrong")
    # Enter answers with the choice that has the focus, even one never checked.
    third = block_item(page, questions(data)[-1]["id"])
    third.locator("input[type=radio]").first.focus()
    page.keyboard.press("Enter")
    expect(third.locator("input[type=radio]").first).to_be_checked()
    expect(third).to_have_class("practice-q is-answered")


@pytest.mark.browser
def test_answers_given_along_the_way_show_in_check_yourself(tab, site_url, data):
    page = open_again(tab, site_url)
    early, later = questions(data)[0], questions(data)[-1]
    block_item(page, early["id"]).locator("label.practice-choice").nth(early["answer"]).click()
    assert page.evaluate("() => document.getElementById('lab-quiz').dataset.labState || null") is None, \
        "answering along the way does not start the quiz"
    section = lab(page, "quiz")
    expect(section.locator(f"li#quiz-{early['id']} .practice-verdict")).to_have_text("Right.")
    expect(section.locator(".lab-status")).to_have_text(f"1 of {len(questions(data))} answered, 1 right.")
    # With the quiz started, a pick along the way shows there at once, still leaving the link alone.
    wrong = (later["answer"] + 1) % len(later["choices"])
    block_item(page, later["id"]).locator("label.practice-choice").nth(wrong).click()
    expect(section.locator(f"li#quiz-{later['id']} .practice-verdict")).to_have_text("Not quite.")
    expect(section.locator(f"li#quiz-{later['id']} input[value='{wrong}']")).to_be_checked()
    assert page.evaluate("() => RAG.linksSettled().then(() => location.hash)") == ""


@pytest.mark.browser
def test_answers_given_in_check_yourself_show_in_the_sections_blocks_after_back(tab, site_url, data):
    """Issue 24: an answer given in the quiz showed nowhere once the reader followed "Back to section N"."""
    page = open_again(tab, site_url)
    section = lab(page, "quiz")
    q = questions(data)[3]
    wrong = (q["answer"] + 1) % len(q["choices"])
    section.locator(f"li#quiz-{q['id']} label.practice-choice").nth(wrong).click()
    expect(section.locator(f"li#quiz-{q['id']} .practice-verdict")).to_have_text("Not quite.")
    section.locator(f"li#quiz-{q['id']} .quiz-back a").click()
    item = page.locator(f"section.practice li#practice-{q['id']}")
    expect(item.locator(".practice-verdict")).to_have_text("Not quite.")
    expect(item.locator(f"input[value='{wrong}']")).to_be_checked()
    expect(item.locator("label.practice-choice.is-wrong")).to_have_text(plain(q["choices"][wrong]))
    expect(item.locator("details.practice-answer")).to_have_attribute("open", "")
    # Answered again there, the quiz follows; cleared in the quiz, the block is clear too.
    item.locator("label.practice-choice").nth(q["answer"]).click()
    expect(section.locator(f"li#quiz-{q['id']} .practice-verdict")).to_have_text("Right.")
    other = questions(data)[0]
    block_item(page, other["id"]).locator("label.practice-choice").nth(other["answer"]).click()
    section.locator(".quiz-clear").click()
    expect(page.locator("section.practice .practice-verdict")).to_have_count(0)
    expect(page.locator("section.practice input[type=radio]:checked")).to_have_count(0)


@pytest.mark.browser
def test_the_quiz_answers_live_in_its_link_and_clear_my_answers_clears_them(tab, make_page, site_url, data):
    page = open_again(tab, site_url)
    section = lab(page, "quiz")
    first, second = questions(data)[0], questions(data)[1]
    wrong = (second["answer"] + 1) % len(second["choices"])
    item = section.locator(f"li#quiz-{first['id']}")
    item.locator("input[type=radio]").first.focus()
    for _ in range(first["answer"]):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    expect(item.locator(".practice-verdict")).to_have_text("Right.")
    expect(page.locator("#rag-status")).to_have_text(reasons(first, first["answer"]))
    section.locator(f"li#quiz-{second['id']} label.practice-choice").nth(wrong).click()
    expect(section.locator(".lab-status")).to_have_text(f"2 of {len(questions(data))} answered, 1 right.")
    assert hash_of(page) == f"#lab-quiz?{first['id']}={first['answer']}&{second['id']}={wrong}"
    shared = link_of(page)
    again = open_page(make_page, site_url, shared)
    restored = lab(again, "quiz")
    expect(restored.locator(f"li#quiz-{second['id']} label.practice-choice.is-wrong")).to_have_text(plain(second["choices"][wrong]))
    expect(restored.locator(f"li#quiz-{first['id']} input[value='{first['answer']}']")).to_be_checked()
    restored.locator(".quiz-clear").click()
    expect(restored.locator(".lab-status")).to_have_text(f"0 of {len(questions(data))} answered.")
    expect(restored.locator("input[type=radio]:checked")).to_have_count(0)
    assert hash_of(again) == "#lab-quiz"


@pytest.mark.browser
def test_the_link_back_lands_on_the_question_at_the_end_of_its_section(tab, site_url, data):
    page = open_again(tab, site_url)
    section = lab(page, "quiz")
    q = questions(data)[2]
    section.locator(f"li#quiz-{q['id']} .quiz-back a").click()
    page.wait_for_timeout(300)
    top = page.evaluate(f"() => document.getElementById('practice-{q['id']}').getBoundingClientRect().top")
    assert 0 <= top <= 140, f"the question is {top}px from the top"


# Each practice block as it reads without JavaScript, in one round trip: its question, its
# details' summary, whether the answer shows before a click on the summary, and the answer's text
# once it does (a click on a summary opens its details natively, with or without the page's script).
NO_JS_BLOCKS = r"""ids => ids.map(id => {
    const item = document.querySelector(`section.practice li#practice-${id}`);
    for (let d = item && item.closest('details.deep-dive'); d; d = d.parentElement.closest('details')) d.open = true;
    const fold = (node) => node ? node.textContent.replace(/\s+/g, ' ').trim() : null;
    // As Playwright's to_be_visible judges (a closed details' content is laid out, but skipped).
    const shown = (node) => !!node && node.checkVisibility({visibilityProperty: true});
    const details = item && item.querySelector('details.practice-answer');
    if (!details) return {id, found: !!item};
    const right = details.querySelector('.practice-right');
    const before = shown(right);
    if (!details.open) details.querySelector('summary').click();
    return {id, found: true, legend: fold(item.querySelector('legend')), summary: fold(details.querySelector('summary')),
            shown_before: before, shown_after: shown(right), right: fold(right)};
})"""


@pytest.mark.browser
def test_without_javascript_each_question_reads_whole_with_its_answer_in_a_details(make_page, site_url, data):
    page = open_page(make_page, site_url, java_script_enabled=False)
    # The sections that end in a practice block laid out (the page skips far ones until the reader nears them).
    page.evaluate("() => document.querySelectorAll('section.practice').forEach(p => { p.closest('.chapter').style.contentVisibility = 'visible'; })")
    # The first block by a reader's own click on its summary; every block, that one included, read in the page.
    first = page.locator(f"section.practice li#practice-{questions(data)[0]['id']} details.practice-answer")
    expect(first.locator(".practice-right")).to_be_hidden()
    first.locator("summary").click()
    expect(first.locator(".practice-right")).to_be_visible()
    first.locator("summary").click()
    expect(first.locator(".practice-right")).to_be_hidden()
    read = page.evaluate(NO_JS_BLOCKS, [q["id"] for q in questions(data)])
    assert read == [{"id": q["id"], "found": True, "legend": plain(q["question"]), "summary": "Show the answer",
                     "shown_before": False, "shown_after": True,
                     "right": f"right {plain(q['choices'][q['answer']])}: {plain(q['why'][q['answer']])}"}
                    for q in questions(data)]
    quiz_lab = page.locator("#lab-quiz")
    expect(quiz_lab.locator("ol.quiz > li")).to_have_count(len(questions(data)))
    expect(quiz_lab.locator(".lab-status")).to_be_hidden()
    note = quiz_lab.evaluate("s => getComputedStyle(s, '::after').content")
    assert note == '"Without JavaScript, each question\u2019s answer is in the \u201cShow the answer\u201d box at the end of its section."'


# The axe rules (of the tags the light scheme runs) whose outcome a colour scheme can change:
# contrast, and links told from the text around them by colour alone.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def colour_axe(page, include: list[str]) -> list[str]:
    """axe-core's violations of COLOUR_RULES inside the elements with these ids, as run_axe words them."""
    load_axe(page)
    return page.evaluate("""async ([rules, ids]) => {
        const context = {include: ids.filter(id => document.getElementById(id)).map(id => ['#' + id])};
        const result = await axe.run(context, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']});
        return result.violations.map(v => v.id + ': ' + v.help + ' :: ' +
            v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(' | '));
    }""", [list(COLOUR_RULES), include])


# Every block answered as a reader does, in one round trip: its chapter laid out, its closed
# "More practice" deep dive opened by its summary, then a click on the choice's label (the
# handlers a reader's click runs: runtime/practice.js). Wrongly where it can be: the most there is
# to lay out.
ANSWER_EVERY_BLOCK = r"""picks => picks.forEach(([id, pick]) => {
    const item = document.querySelector(`section.practice li#practice-${id}`);
    item.closest('.chapter').style.contentVisibility = 'visible';
    const dive = item.closest('details.deep-dive');
    if (dive && !dive.open) dive.querySelector(':scope > summary').click();
    item.querySelectorAll('label.practice-choice')[pick].click();
})"""

SCHEMES = ("light", "dark")
DEVICES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 780}}


@pytest.mark.browser
@pytest.mark.parametrize("scheme", SCHEMES)
def test_answered_blocks_and_the_quiz_fit_read_and_pass_axe(make_page, site_url, data, scheme):
    """One page a scheme, every block answered once, then each width in turn (a width changes on a
    page as a reader turns a tablet; runtime/lab-context.js and runtime/toc.js follow it). The
    scheme is the page's own from its load: switched on a loaded page, Chromium kept the old
    scheme's colours in two blocks far off screen, which axe then read."""
    page = open_page(make_page, site_url, viewport=DEVICES["desktop"], color_scheme=scheme)
    page.evaluate(ANSWER_EVERY_BLOCK, [[q["id"], (q["answer"] + 1) % len(q["choices"])] for q in questions(data)])
    expect(page.locator("section.practice .practice-verdict")).to_have_count(len(questions(data)))
    section = lab(page, "quiz")
    expect(section.locator(".practice-verdict")).to_have_count(len(questions(data)))
    ids = [f"{slug}-practice" for slug in dict.fromkeys(q["section"] for q in questions(data))] + ["lab-quiz"]
    for device, viewport in DEVICES.items():
        page.set_viewport_size(viewport)
        out = [el for block in page.locator("section.practice, #lab-quiz").all() for el in sticking_out(block)]
        assert out == [], f"at {viewport['width']}px these stick out: {out}"
        # Every rule in light; in dark only those a colour scheme can change (the rest read markup and
        # layout, which the scheme leaves alone), at one width: the stylesheet's colours that change
        # with the width are the phone's contents bar and stacked tables, and these blocks hold neither.
        if scheme == "light":
            assert run_axe(page, tags=("wcag2a", "wcag2aa", "wcag21aa", "best-practice"), include=ids) == [], device
        elif device == "desktop":
            assert page.locator("section.practice table, #lab-quiz table").count() == 0
            assert colour_axe(page, ids) == [], device
        page.locator("#hybrid-practice").scroll_into_view_if_needed()
        element_screenshots(page, {"#hybrid-practice": f"practice-hybrid-{device}-{scheme}",
                                   "#lab-quiz": f"practice-quiz-{device}-{scheme}"})
    expect(section.locator(".practice-verdict")).to_have_count(len(questions(data)))
