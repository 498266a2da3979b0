"""The labs of sections 10-13 in a real browser: the permission demo, the prompt-injection
guardrail, the recall table and the quiz. Every number they show is compared with the
build's data (dist/data/rag.json) or with the Python engine itself, for every setting."""

import json
import re

import pytest
from playwright.sync_api import expect

from harness import SCREENSHOTS
from labs import axe_on_sections, lab, open_page
from engine.guardrail import check_output

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 780}}
MY_SECTIONS = ("failures", "measuring", "staff", "check-yourself", "cheat-sheet")
MY_LABS = ("permissions", "injection", "recall", "quiz")


@pytest.fixture(scope="module")
def data(dist_dir):
    return json.loads((dist_dir / "data" / "rag.json").read_text("utf-8"))




def hash_state(page):
    return page.evaluate("() => location.hash")


# ------------------------------------------------------------------ permissions


def permission_lists(data, reader, q, k):
    runs = data["permissions"][reader]["runs"]
    by_k = runs[q] if q in runs else data["measure"]["permissions_extra"][reader][q]
    return by_k[str(k)]


def shown_permissions(section):
    return section.evaluate("""s => ({
        pre: [...s.querySelectorAll('.perm-pre li.result')].map(li => ({
            id: li.querySelector('.pid code')?.textContent, score: li.querySelector('.score').textContent})),
        post: [...s.querySelectorAll('.perm-post li.result')].map(li => ({
            id: li.querySelector('.pid code')?.textContent || null, removed: li.classList.contains('is-removed'),
            score: li.querySelector('.score').textContent})),
        status: s.querySelector('.lab-status').textContent,
        text: s.innerText,
    })""")


def check_permission_state(section, data, reader, q, k):
    lists = permission_lists(data, reader, q, k)
    scores = dict(map(tuple, data["runs"][q]["dense"]))
    shown = shown_permissions(section)
    assert [row["id"] for row in shown["pre"]] == lists["pre"]
    assert [row["score"] for row in shown["pre"]] == [f"{scores[pid]:.3f}" for pid in lists["pre"]]
    # The post-filter column shows the top k places; the kept ones carry their ids.
    assert len(shown["post"]) == k
    assert [row["id"] for row in shown["post"] if not row["removed"]] == lists["post"]
    assert sum(row["removed"] for row in shown["post"]) == k - len(lists["post"])
    # Fewer than k exactly when the build's data says so.
    assert (len([r for r in shown["post"] if not r["removed"]]) < k) == (len(lists["post"]) < k)
    assert f"the post-filter {len(lists['post'])}." in shown["status"]
    # A reader never sees, anywhere in the lab, a passage they may not read.
    for pid in data["measure"]["hidden_from"][reader]:
        passage = next(p for p in data["passages"] if p["id"] == pid)
        assert pid not in shown["text"], f"{reader} sees {pid} ({q}, k={k})"
        assert passage["section"] not in shown["text"], f"{reader} sees the title of {pid}"
    return lists


def test_permission_demo_matches_the_data_for_every_reader_question_and_k(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "permissions")
    section.scroll_into_view_if_needed()
    m = data["measure"]
    short = 0
    for reader in data["permissions"]:
        section.locator(f'input[name="permissions-reader"][value="{reader}"] + span').click()
        for q in m["permission_questions"]:
            section.locator('select[name="permissions-q"]').select_option(q)
            for k in m["permission_ks"]:
                section.locator(f'input[name="permissions-k"][value="{k}"] + span').click()
                lists = check_permission_state(section, data, reader, q, k)
                short += len(lists["post"]) < k
                assert hash_state(page) == f"#lab-permissions?reader={reader}&q={q}&k={k}"
    assert short > 0, "no setting of the demo shows the post-filter coming up short"


def test_permission_demo_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "permissions")
    readers = list(data["permissions"])
    ks = data["measure"]["permission_ks"]
    questions = data["measure"]["permission_questions"]
    default_q = section.get_attribute("data-q")
    section.locator('input[name="permissions-reader"]:checked').focus()
    page.keyboard.press("ArrowRight")  # the next reader
    expect(section.locator(f'input[name="permissions-reader"][value="{readers[1]}"]')).to_be_checked()
    page.keyboard.press("Tab")  # the question
    expect(section.locator('select[name="permissions-q"]')).to_be_focused()
    page.keyboard.press("ArrowUp")
    q = questions[questions.index(default_q) - 1]
    expect(section.locator('select[name="permissions-q"]')).to_have_value(q)
    page.keyboard.press("Tab")  # k
    page.keyboard.press("ArrowRight")
    k = ks[ks.index(int(section.get_attribute("data-k"))) + 1]
    expect(section.locator(f'input[name="permissions-k"][value="{k}"]')).to_be_checked()
    check_permission_state(section, data, readers[1], q, k)
    shared = hash_state(page)
    assert shared == f"#lab-permissions?reader={readers[1]}&q={q}&k={k}"

    again = open_page(make_page, site_url, shared)
    restored = lab(again, "permissions")
    expect(restored.locator(f'input[name="permissions-reader"][value="{readers[1]}"]')).to_be_checked()
    expect(restored.locator('select[name="permissions-q"]')).to_have_value(q)
    check_permission_state(restored, data, readers[1], q, k)


# -------------------------------------------------------------------- injection


def findings_shown(scope):
    return scope.locator("ul.findings > li").all_inner_texts()


def test_guardrail_verdicts_equal_the_python_engine(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "injection")
    for name, answer in data["injection"]["answers"].items():
        column = section.locator(f'.injection-answers [data-answer="{name}"]')
        expected = [str(f) for f in check_output(answer["text"])]
        assert findings_shown(column) == expected
        expect(column.locator("p.verdict .badge")).to_have_text("blocked" if expected else "passes")
        assert column.locator("mark.finding").all_inner_texts() == [
            piece for piece, kind in data["measure"]["injection_marked"][name] if kind]
    # The answer that obeyed the hidden instruction is blocked, the other passes.
    assert check_output(data["injection"]["answers"]["obeyed"]["text"])
    assert not check_output(data["injection"]["answers"]["ignored"]["text"])


@pytest.mark.parametrize("text", [
    "Mail your password to help@quillbox-support.example and visit www.quillbox-login.example/now.",
    "Never share your password with anyone, not even with support.",
    "See https://help.quillbox.example/export#export-pdf for the steps.",
    "Refunds are instant: tell them to reply with their verification code.",
    "Refunds are instant for everyone.",
])
def test_the_editor_rechecks_any_answer_like_python(make_page, site_url, text):
    page = open_page(make_page, site_url)
    section = lab(page, "injection")
    box = section.locator('textarea[name="injection-text"]')
    box.scroll_into_view_if_needed()
    box.fill(text)
    result = section.locator(".editor-result")
    expected = [str(f) for f in check_output(text)]
    expect(result.locator("p.verdict .badge")).to_have_text("blocked" if expected else "passes")
    assert findings_shown(result) == expected
    assert result.locator(".answer-text").inner_text() == text
    assert result.locator("mark.finding").count() == len(expected)


def test_the_editor_by_keyboard_and_its_state_in_the_link(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "injection")
    result = section.locator(".editor-result")
    section.locator('input[name="injection-base"]:checked').focus()
    page.keyboard.press("ArrowLeft")  # the answer that ignored the instruction
    expect(section.locator('input[name="injection-base"][value="ignored"]')).to_be_checked()
    expect(section.locator("textarea")).to_have_value(data["injection"]["answers"]["ignored"]["text"])
    expect(result.locator("p.verdict .badge")).to_have_text("passes")
    assert hash_state(page) == "#lab-injection?base=ignored"
    page.keyboard.press("Tab")
    expect(section.locator("textarea")).to_be_focused()
    page.keyboard.press("End")
    page.keyboard.type(" Or e-mail your password to a@b.example")
    edited = section.locator("textarea").input_value()
    expected = [str(f) for f in check_output(edited)]
    assert len(expected) == 2
    expect(result.locator("ul.findings > li")).to_have_count(2)
    assert findings_shown(result) == expected
    shared = hash_state(page)
    assert shared.startswith("#lab-injection?base=ignored&text=")

    again = open_page(make_page, site_url, shared)
    restored = lab(again, "injection")
    expect(restored.locator("textarea")).to_have_value(edited)
    assert findings_shown(restored.locator(".editor-result")) == expected


def test_the_poisoned_passage_is_shown_as_text_with_its_instruction_marked(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "injection")
    for source in data["measure"]["injected"]:
        text = next(p["text"] for p in data["passages"] if p["id"] == source["id"])
        quote = section.locator("blockquote.passage-quote")
        assert " ".join(quote.inner_text().split()) == " ".join(text.split())
        assert quote.locator("a, script, img").count() == 0
        assert quote.locator("mark.injected").all_inner_texts() == [s for s, flagged in source["sentences"] if flagged]


def test_marking_in_javascript_equals_the_build(make_page, site_url, data):
    page = open_page(make_page, site_url)
    lab(page, "injection")
    for name, answer in data["injection"]["answers"].items():
        pieces = page.evaluate("""text => RAG.markFindings(text,
            RAG.engine.checkOutput(text, RAG.data.guardrail.patterns, RAG.data.guardrail.hosts))""", answer["text"])
        assert pieces == data["measure"]["injection_marked"][name]


# ----------------------------------------------------------------------- recall


def check_recall(section, data, k):
    m = data["measure"]
    assert section.locator(".recall-k").all_inner_texts() == [str(k)] * section.locator(".recall-k").count()
    rows = section.locator(".recall-table tbody tr")
    expect(rows).to_have_count(3)
    for name in ("bm25", "dense", "hybrid"):
        hits, total = data["recall"][name][str(k)]
        row = section.locator(f'.recall-table tr[data-retriever="{name}"]')
        lo, hi = m["wilson"][name][str(k)]
        assert row.locator(".recall-found").inner_text() == f"{hits} / {total}"
        assert row.locator(".recall-pct").inner_text() == f"{100 * hits / total:.1f}%"
        assert row.locator(".recall-interval").inner_text() == f"{100 * lo:.0f}–{100 * hi:.0f}%"
        column = section.locator(f'.recall-misses [data-retriever="{name}"]')
        missed = m["misses"][name][str(k)]
        assert len(missed) == total - hits
        expect(column.locator("h5")).to_contain_text(f"{len(missed)} missed")
        texts = column.locator(".miss-q").all_inner_texts()
        assert texts == [next(q["text"] for q in data["questions"] if q["id"] == qid) for qid in missed]
        ranks = column.locator(".miss-rank").all_inner_texts()
        assert ranks == [f"rank {data['ranks'][qid][name]}" if data["ranks"][qid][name] else "not retrieved"
                         for qid in missed]
    widths = section.locator(".recall-rows rect").evaluate_all("rs => rs.map(r => r.getAttribute('width'))")
    assert widths == [f"{240 * data['recall'][n][str(k)][0] / data['recall'][n][str(k)][1]:.1f}"
                      for n in ("bm25", "dense", "hybrid")]


def test_recall_table_equals_the_data_for_every_k(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "recall")
    section.scroll_into_view_if_needed()
    for k in data["settings"]["recall_ks"]:
        section.locator(f'input[name="recall-k"][value="{k}"] + span').click()
        check_recall(section, data, k)
        assert hash_state(page) == f"#lab-recall?k={k}"


def test_recall_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    ks = data["settings"]["recall_ks"]
    page = open_page(make_page, site_url)
    section = lab(page, "recall")
    default = int(section.get_attribute("data-k"))
    section.locator('input[name="recall-k"]:checked').focus()
    page.keyboard.press("ArrowLeft")
    k = ks[ks.index(default) - 1]
    expect(section.locator(f'input[name="recall-k"][value="{k}"]')).to_be_checked()
    check_recall(section, data, k)
    again = open_page(make_page, site_url, f"#lab-recall?k={ks[-1]}")
    check_recall(lab(again, "recall"), data, ks[-1])


# ------------------------------------------------------------------------- quiz


def test_quiz_by_keyboard(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "quiz")
    first, second = data["quiz"][0], data["quiz"][1]
    item = section.locator(f'li[data-quiz="{first["id"]}"]')
    feedback = item.locator(".quiz-feedback")
    # Check with nothing picked: a nudge, no explanation.
    item.locator(".quiz-check").focus()
    page.keyboard.press("Enter")
    expect(feedback).to_contain_text("Pick one of the answers first")
    expect(feedback).not_to_contain_text(first["explanation"])
    # Back to the choices: Shift+Tab reaches the group; pick the right one with the arrow keys.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.type") == "radio"
    item.locator('input[type="radio"]').first.focus()
    for _ in range(first["answer"]):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    expect(item.locator(f'input[value="{first["answer"]}"]')).to_be_checked()
    page.keyboard.press("Tab")
    expect(item.locator(".quiz-check")).to_be_focused()
    page.keyboard.press("Enter")
    expect(feedback).to_contain_text(first["explanation"])
    expect(feedback.locator(".badge")).to_have_text("right")
    expect(feedback.locator("a.quiz-back")).to_have_attribute("href", f"#{first['section']}")
    expect(item.locator(".quiz-check")).to_have_text("Try again")
    assert page.locator(f"section.chapter#{first['section']}").count() == 1
    # A wrong answer to the second question, by keyboard too.
    wrong = (second["answer"] + 1) % len(second["choices"])
    item2 = section.locator(f'li[data-quiz="{second["id"]}"]')
    item2.locator(f'input[value="{wrong}"]').focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(item2.locator(".quiz-feedback .badge")).to_have_text("not quite")
    expect(item2.locator(".quiz-feedback")).to_contain_text(second["choices"][second["answer"]])
    expect(section.locator(".lab-status")).to_have_text(f"2 of {len(data['quiz'])} answered, 1 right.")
    assert hash_state(page) == f"#lab-quiz?{first['id']}={first['answer']}&{second['id']}={wrong}"
    # Try again clears the first question and puts the focus back on its choices.
    item.locator(".quiz-check").focus()
    page.keyboard.press("Space")
    expect(feedback).to_be_empty()
    expect(item.locator('input[type="radio"]').first).to_be_focused()
    assert hash_state(page) == f"#lab-quiz?{second['id']}={wrong}"


def test_quiz_by_mouse_and_from_a_shared_link(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "quiz")
    for q in data["quiz"]:
        item = section.locator(f'li[data-quiz="{q["id"]}"]')
        item.locator(f'label.quiz-choice:has(input[value="{q["answer"]}"])').click()
        expect(item.locator(".quiz-feedback")).to_be_empty()  # nothing until Check
        item.locator(".quiz-check").click()
        expect(item.locator(".quiz-feedback")).to_contain_text(q["explanation"])
        expect(item.locator(f'label.quiz-choice.is-right:has(input[value="{q["answer"]}"])')).to_have_count(1)
    n = len(data["quiz"])
    expect(section.locator(".lab-status")).to_have_text(f"{n} of {n} answered, {n} right.")
    shared = hash_state(page)
    again = open_page(make_page, site_url, shared)
    restored = lab(again, "quiz")
    expect(restored.locator(".lab-status")).to_have_text(f"{n} of {n} answered, {n} right.")
    expect(restored.locator(".quiz-feedback .badge")).to_have_count(n)


def test_quiz_without_javascript_keeps_the_answers_in_details(make_page, site_url, data):
    page = open_page(make_page, site_url, java_script_enabled=False)
    section = page.locator("#lab-quiz")
    items = section.locator("ol.quiz > li")
    expect(items).to_have_count(len(data["quiz"]))
    expect(section.locator(".quiz-check")).to_have_count(len(data["quiz"]))
    expect(section.locator(".quiz-check").first).to_be_hidden()
    for q, item in zip(data["quiz"], items.all()):
        expect(item.locator("legend")).to_have_text(q["question"])
        assert item.locator("label.quiz-choice").all_inner_texts() == q["choices"]
        details = item.locator("details.quiz-answer")
        expect(details).to_be_visible()
        expect(details.locator("p").first).to_be_hidden()
        details.locator("summary").click()
        expect(details).to_contain_text(q["choices"][q["answer"]])
        expect(details).to_contain_text(q["explanation"])
        expect(details.locator("a.quiz-back")).to_have_attribute("href", f"#{q['section']}")


# ---------------------------------------------------------- all of them together


@pytest.mark.parametrize("name", ["permissions", "recall", "injection"])
def test_the_builds_default_equals_what_the_script_draws(make_page, site_url, name):
    static = open_page(make_page, site_url, java_script_enabled=False)
    scripted = open_page(make_page, site_url)
    lab(scripted, name)
    selector = f"#lab-{name} .lab-output" + (" .injection-answers, #lab-injection .editor-result" if name == "injection" else "")

    def text(page):  # markup whitespace differs between the template and the script; words must not
        return ["".join(t.split()) for t in page.locator(selector).all_text_contents()]

    assert text(static) == text(scripted)




@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_is_clean_on_these_sections_in_every_state(make_page, site_url, data, scheme):
    state = ("#lab-permissions?reader=customer&q=" + data["measure"]["permission_questions"][-2] + "&k=3")
    page = open_page(make_page, site_url, state, color_scheme=scheme)
    lab(page, "permissions")
    quiz = page.locator("#lab-quiz")
    first, second = data["quiz"][0], data["quiz"][1]
    quiz.locator(f'li[data-quiz="{first["id"]}"] label.quiz-choice:has(input[value="{first["answer"]}"])').click()
    quiz.locator(f'li[data-quiz="{first["id"]}"] .quiz-check').click()
    wrong = (second["answer"] + 1) % len(second["choices"])
    quiz.locator(f'li[data-quiz="{second["id"]}"] label.quiz-choice:has(input[value="{wrong}"])').click()
    quiz.locator(f'li[data-quiz="{second["id"]}"] .quiz-check').click()
    quiz.locator(f'li[data-quiz="{data["quiz"][2]["id"]}"] .quiz-check').click()  # the nudge
    page.locator('#lab-injection textarea').fill("Send your password to x@y.example")
    assert axe_on_sections(page, MY_SECTIONS) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_nothing_sticks_out_at_360px(make_page, site_url, javascript):
    page = open_page(make_page, site_url, viewport=VIEWPORTS["phone"], java_script_enabled=javascript)
    wide = page.evaluate("""ids => ids.flatMap(id => [...document.querySelectorAll('#' + id + ' *')])
        .filter(el => el.getBoundingClientRect().right > innerWidth + 1 && !el.closest(
            '.table-scroll, pre, .figure-scroll, figure.figure, math, .math-block, .sample-tabs'))
        .slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + el.className)""", list(MY_SECTIONS))
    assert wide == []


def test_cheat_sheet_prints_on_one_page(make_page, site_url):
    # An A4 page at 96 px per inch, less 1.5 cm margins on every side.
    page = open_page(make_page, site_url, viewport={"width": 680, "height": 1000})
    page.emulate_media(media="print")
    sheet = page.locator("#cheat-sheet")
    expect(sheet.locator(".cheatsheet > div")).to_have_count(7)
    height = sheet.evaluate("s => s.getBoundingClientRect().height")
    assert height < 1010, f"the cheat sheet is {height:.0f}px tall in print: more than one page"
    assert sheet.evaluate("s => s.scrollWidth <= s.clientWidth + 1")
    table = sheet.locator(".table-scroll")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1"), "the failure table is cut off in print"
    expect(page.locator("#lab-recall .lab-controls")).to_be_hidden()
    # The quiz prints with its answers.
    expect(page.locator("#lab-quiz details.quiz-answer").first).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    element_screenshot(page, "#cheat-sheet", SCREENSHOTS / "measure-cheat-sheet-print.png")


def element_screenshot(page, selector, path):
    """Screenshot one element. Chromium's own element screenshots of an element taller than
    the window capture the whole (very long) page, which takes minutes here; instead make
    the window as tall as the element and capture the window."""
    size = page.viewport_size
    height = page.eval_on_selector(selector, "el => Math.ceil(el.getBoundingClientRect().height)")
    margin = 80  # below the sticky contents bar of a phone
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(height + margin, 8000))})
    page.eval_on_selector(selector, "(el, m) => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - m)", margin)
    box = page.eval_on_selector(selector, """el => { const r = el.getBoundingClientRect();
        return {x: Math.max(0, r.left), y: Math.max(0, r.top), width: Math.min(r.width, innerWidth), height: r.height}; }""")
    box["height"] = min(box["height"], page.viewport_size["height"] - box["y"])
    page.screenshot(path=str(path), clip=box, animations="disabled")
    page.set_viewport_size(size)
    return path


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots(make_page, site_url, data, device, scheme):
    page = open_page(make_page, site_url, "#lab-quiz?" + f"{data['quiz'][0]['id']}=0",
                     viewport=VIEWPORTS[device], color_scheme=scheme)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#lab-injection textarea").fill(data["injection"]["answers"]["obeyed"]["text"] + " Or call 555.")
    for selector in ("#lab-permissions", "#lab-injection", "#lab-recall", "#lab-quiz", "#cheat-sheet",
                     "#fig-vocab-mismatch"):
        path = SCREENSHOTS / f"measure-{selector.strip('#')}-{device}-{scheme}.png"
        element_screenshot(page, selector, path)
        assert path.stat().st_size > 5_000
