"""Check yourself (site_src/labs/quiz/): without JavaScript every answer
sits in a details element; with it the reader picks a choice and presses Check, by keyboard or
mouse, before the explanation and the link back to its section appear; what was picked and
checked lives in the link; screen readers hear each verdict."""

from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from site_src.labs.quiz import data as quiz
from site_src.labs.quiz.data import QuizQuestion
from builder.sources import section_index
from support.labs import link_of, hash_of, lab, open_page


# ------------------------------------------------------------------ the data step


def test_the_data_step_lists_the_questions_and_the_sections_they_point_back_to():
    question = QuizQuestion(id="why-rrf", section="hybrid", question="Why ranks?", choices=("Scales differ", "Speed"),
                            answer=0, explanation="Scores on different scales cannot be added.")
    got = quiz.data(SimpleNamespace(content=SimpleNamespace(labs={"quiz": (question,)})))
    assert got["questions"] == [{"id": "why-rrf", "section": "hybrid", "question": "Why ranks?",
                                 "choices": ["Scales differ", "Speed"], "answer": 0,
                                 "explanation": "Scores on different scales cannot be added."}]
    assert got["sections"] == section_index()
    assert [s["number"] for s in got["sections"]] == list(range(1, len(got["sections"]) + 1))
    assert quiz.STATE == {}, "the page opens with nothing picked"


def test_every_question_of_the_build_points_back_to_a_section_of_the_page(data):
    own = data["labs"]["quiz"]
    slugs = {s["slug"] for s in own["sections"]}
    assert own["questions"], "the quiz has questions"
    for q in own["questions"]:
        assert q["section"] in slugs, q["id"]
        assert 0 <= q["answer"] < len(q["choices"])


# ------------------------------------------------------------------ in the browser


def questions(data):
    return data["labs"]["quiz"]["questions"]


def section_title(data, slug):
    s = next(s for s in data["labs"]["quiz"]["sections"] if s["slug"] == slug)
    return f"Back to section {s['number']}: {s['title']}"


@pytest.mark.browser
def test_quiz_by_keyboard(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "quiz")
    first, second = questions(data)[0], questions(data)[1]
    n = len(questions(data))
    expect(section.locator(".lab-status")).to_have_text(f"0 of {n} answered.")
    item = section.locator(f'li[data-quiz="{first["id"]}"]')
    feedback = item.locator(".quiz-feedback")
    # Check with nothing picked: a nudge, no explanation.
    item.locator(".quiz-check").focus()
    page.keyboard.press("Enter")
    expect(feedback).to_have_text("Pick one of the answers first.")
    expect(page.locator("#rag-status")).to_have_text(f"Pick one of the answers first. 0 of {n} answered.")
    # Back to the choices: Shift+Tab reaches the group; pick the right one with the arrow keys.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.type") == "radio"
    item.locator('input[type="radio"]').first.focus()
    for _ in range(first["answer"]):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    expect(item.locator(f'input[value="{first["answer"]}"]')).to_be_checked()
    expect(feedback).to_be_empty()  # a pick ends the nudge
    page.keyboard.press("Tab")
    expect(item.locator(".quiz-check")).to_be_focused()
    page.keyboard.press("Enter")
    expect(feedback).to_contain_text(first["explanation"])
    expect(feedback.locator(".badge")).to_have_text("right")
    expect(feedback.locator(".quiz-verdict")).to_have_text(f"right You chose: {first['choices'][first['answer']]}.")
    expect(feedback.locator("a.quiz-back")).to_have_attribute("href", f"#{first['section']}")
    expect(feedback.locator("a.quiz-back")).to_have_text(section_title(data, first["section"]))
    expect(item.locator(".quiz-check")).to_have_text("Try again")
    expect(item.locator('input[type="radio"]:disabled')).to_have_count(len(first["choices"]))
    expect(page.locator("#rag-status")).to_have_text(
        f"Right. You chose: {first['choices'][first['answer']]}. {first['explanation']} 1 of {n} answered, 1 right.")
    assert page.locator(f"section.chapter#{first['section']}").count() == 1
    # A wrong answer to the second question, by keyboard too.
    wrong = (second["answer"] + 1) % len(second["choices"])
    item2 = section.locator(f'li[data-quiz="{second["id"]}"]')
    item2.locator(f'input[value="{wrong}"]').focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(item2.locator(".quiz-feedback .badge")).to_have_text("not quite")
    expect(item2.locator(".quiz-feedback .quiz-verdict")).to_have_text(
        f"not quite You chose: {second['choices'][wrong]}. The answer: {second['choices'][second['answer']]}.")
    expect(item2.locator(f'label.quiz-choice.is-wrong:has(input[value="{wrong}"])')).to_have_count(1)
    expect(item2.locator(f'label.quiz-choice.is-right:has(input[value="{second["answer"]}"])')).to_have_count(1)
    expect(section.locator(".lab-status")).to_have_text(f"2 of {n} answered, 1 right.")
    assert hash_of(page) == f"#lab-quiz?{first['id']}={first['answer']}&{second['id']}={wrong}"
    # Try again clears the first question and puts the focus back on its choices.
    item.locator(".quiz-check").focus()
    page.keyboard.press("Space")
    expect(feedback).to_be_empty()
    expect(item.locator('input[type="radio"]').first).to_be_focused()
    expect(item.locator('input[type="radio"]:checked')).to_have_count(0)
    expect(item.locator(".quiz-check")).to_have_text("Check")
    assert hash_of(page) == f"#lab-quiz?{second['id']}={wrong}"


@pytest.mark.browser
def test_quiz_by_mouse_and_from_a_shared_link(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "quiz")
    for q in questions(data):
        item = section.locator(f'li[data-quiz="{q["id"]}"]')
        item.locator(f'label.quiz-choice:has(input[value="{q["answer"]}"])').click()
        expect(item.locator(".quiz-feedback")).to_be_empty()  # nothing until Check
        item.locator(".quiz-check").click()
        expect(item.locator(".quiz-feedback")).to_contain_text(q["explanation"])
        expect(item.locator(f'label.quiz-choice.is-right:has(input[value="{q["answer"]}"])')).to_have_count(1)
        expect(item.locator("label.quiz-choice.is-wrong")).to_have_count(0)
    n = len(questions(data))
    expect(section.locator(".lab-status")).to_have_text(f"{n} of {n} answered, {n} right.")
    shared = link_of(page)
    assert hash_of(page) == "#lab-quiz?" + "&".join(f"{q['id']}={q['answer']}" for q in questions(data))
    again = open_page(make_page, site_url, shared)
    restored = lab(again, "quiz")
    expect(restored.locator(".lab-status")).to_have_text(f"{n} of {n} answered, {n} right.")
    expect(restored.locator(".quiz-feedback .badge")).to_have_count(n)
    for q in questions(data):
        expect(restored.locator(f'li[data-quiz="{q["id"]}"] input[value="{q["answer"]}"]')).to_be_checked()


@pytest.mark.browser
def test_a_pick_lives_in_the_link_until_it_is_checked(make_page, site_url, data):
    q = questions(data)[2]
    pick = (q["answer"] + 1) % len(q["choices"])
    page = open_page(make_page, site_url)
    section = lab(page, "quiz")
    item = section.locator(f'li[data-quiz="{q["id"]}"]')
    item.locator(f'label.quiz-choice:has(input[value="{pick}"])').click()
    assert hash_of(page) == f"#lab-quiz?picked.{q['id']}={pick}"
    expect(section.locator(".lab-status")).to_have_text(f"0 of {len(questions(data))} answered.")

    again = open_page(make_page, site_url, f"#lab-quiz?picked.{q['id']}={pick}")
    restored = lab(again, "quiz")
    item = restored.locator(f'li[data-quiz="{q["id"]}"]')
    expect(item.locator(f'input[value="{pick}"]')).to_be_checked()
    expect(item.locator(".quiz-feedback")).to_be_empty()
    item.locator(".quiz-check").click()
    expect(item.locator(".quiz-feedback .badge")).to_have_text("not quite")
    assert hash_of(again) == f"#lab-quiz?{q['id']}={pick}"


@pytest.mark.browser
def test_a_link_keeps_only_real_choices_of_real_questions(make_page, site_url, data):
    first, second = questions(data)[0], questions(data)[1]
    link = (f"#lab-quiz?{first['id']}={len(first['choices'])}&constructor=0&nope=1&{second['id']}=0"
            f"&picked.{first['id']}=-1&nudge=nope")
    page = open_page(make_page, site_url, link)
    section = lab(page, "quiz")
    n = len(questions(data))
    expect(section.locator(".lab-status")).to_have_text(f"1 of {n} answered, {int(second['answer'] == 0)} right.")
    expect(section.locator(".quiz-feedback:not(:empty)")).to_have_count(1)
    expect(section.locator(f'li[data-quiz="{first["id"]}"] input:checked')).to_have_count(0)


@pytest.mark.browser
def test_quiz_without_javascript_keeps_the_answers_in_details(make_page, site_url, data):
    page = open_page(make_page, site_url, java_script_enabled=False, render_all=True)
    section = lab(page, "quiz")
    items = section.locator("ol.quiz > li")
    expect(items).to_have_count(len(questions(data)))
    expect(section.locator(".quiz-check")).to_have_count(len(questions(data)))
    expect(section.locator(".quiz-check").first).to_be_hidden()
    expect(section.locator(".lab-status")).to_be_hidden()
    for q, item in zip(questions(data), items.all()):
        expect(item.locator("legend")).to_have_text(q["question"])
        assert item.locator("label.quiz-choice").all_inner_texts() == q["choices"]
        details = item.locator("details.quiz-answer")
        expect(details).to_be_visible()
        expect(details.locator("p").first).to_be_hidden()
        details.locator("summary").click()
        expect(details.locator("p").first).to_have_text(f"{q['choices'][q['answer']]}. {q['explanation']}")
        expect(details.locator("a.quiz-back")).to_have_attribute("href", f"#{q['section']}")
        expect(details.locator("a.quiz-back")).to_have_text(section_title(data, q["section"]))
