"""The labs of sections 7-9 in Chromium: the prompt builder, the citation checker and the
tracer. What the reader sees must equal what the Python engine computes, for every question
and setting; each lab works by mouse and by keyboard, restores its state from a shared link,
passes axe, and fits a phone."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder.extra_answer import HOSTILE
from engine.citations import Claim, check_claim
from engine.prompt import Source, build_prompt

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "test-artifacts" / "screenshots"
LABS = ("prompt", "checker", "tracer")
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 780}}


@pytest.fixture(scope="module")
def data(dist_dir):
    return json.loads((dist_dir / "data" / "rag.json").read_text("utf-8"))


def passages(data) -> dict:
    return {p["id"]: p for p in data["passages"]}


def question(data, qid) -> dict:
    return next(q for q in data["questions"] if q["id"] == qid)


def expected_prompt(data, qid: str, n: int, demo: bool = False) -> str:
    by_id = passages(data)
    sources = [Source(pid, by_id[pid]["title"], by_id[pid]["updated"], by_id[pid]["text"])
               for pid, _ in data["runs"][qid]["hybrid"][:n]]
    return build_prompt(question(data, qid)["text"], sources + ([HOSTILE] if demo else []))


def open_lab(page, site_url, name, state: str = ""):
    page.goto(site_url + f"index.html#lab-{name}" + (f"?{state}" if state else ""))
    page.wait_for_load_state("load")
    lab = page.locator(f"#lab-{name}")
    expect(lab).to_have_attribute("data-lab-state", "ready")
    return lab


def hash_state(page) -> str:
    return page.evaluate("() => decodeURIComponent(location.hash)")


# --------------------------------------------------------------- prompt builder


def prompt_text(lab) -> str:
    return lab.locator("pre.prompt-text").evaluate("el => el.textContent")


def test_prompt_default_is_the_engines_prompt_even_without_javascript(make_page, site_url, data):
    page = make_page(java_script_enabled=False)
    page.goto(site_url + "index.html")
    lab = page.locator("#lab-prompt")
    default = data["answer"]["prompt_default"]
    assert prompt_text(lab) == expected_prompt(data, default["q"], default["n"])
    tokens = data["prompt_tokens"][default["q"]][str(default["n"])]
    expect(lab.locator(".lab-status")).to_contain_text(f"{tokens} tokens ({data['tokens']['tokenizer']})")
    assert lab.locator(".prompt-sources > li").count() == default["n"]


def test_prompt_equals_the_engines_for_every_question_and_size(page, site_url, data):
    lab = open_lab(page, site_url, "prompt")
    select = lab.locator('select[name="prompt-q"]')
    sizes = range(data["answer"]["prompt_sizes"][0], data["answer"]["prompt_sizes"][1] + 1)
    checked = 0
    for q in data["questions"]:
        select.select_option(q["id"])
        # Each radio changes as a click would change it (mouse and keyboard: tests below), all
        # sizes in one round trip, so every question x size stays quick.
        shown = lab.evaluate("""(lab, sizes) => sizes.map(n => {
            const input = lab.querySelector('input[name="prompt-n"][value="' + n + '"]');
            input.checked = true;
            input.dispatchEvent(new Event('change', {bubbles: true}));
            return {text: lab.querySelector('pre.prompt-text').textContent,
                    ids: [...lab.querySelectorAll('.prompt-sources > li .pid code')].map(c => c.textContent),
                    status: lab.querySelector('.lab-status').textContent};
        })""", list(sizes))
        for n, got in zip(sizes, shown):
            assert got["text"] == expected_prompt(data, q["id"], n), (q["id"], n)
            assert got["ids"] == [pid for pid, _ in data["runs"][q["id"]]["hybrid"][:n]]
            tokens = data["prompt_tokens"][q["id"]][str(n)]
            assert f"the whole prompt is {tokens} tokens" in got["status"]
            checked += 1
    assert checked == len(data["questions"]) * len(sizes)


def test_escaping_demo_keeps_the_hostile_source_inside_one_block(page, site_url, data):
    lab = open_lab(page, site_url, "prompt")
    default = data["answer"]["prompt_default"]
    lab.locator('input[name="prompt-demo"] + span').click()
    text = prompt_text(lab)
    assert text == expected_prompt(data, default["q"], default["n"], demo=True)
    # One opening and one closing tag per source: the hostile </source> did not end a block.
    assert text.count("\n</source>") == default["n"] + 1
    assert text.count('<source id="') == default["n"] + 1
    assert "&lt;/source&gt;" in text and '<source id="refund-new" date=' not in text
    marks = lab.locator("mark.prompt-escaped").all_inner_texts()
    assert marks and set(marks) <= {"&lt;", "&gt;", "&quot;", "&amp;"}
    tokens = data["answer"]["hostile_tokens"][default["q"]][str(default["n"])]
    expect(lab.locator(".lab-status")).to_contain_text(f"{tokens} tokens")
    expect(lab.locator(".prompt-sources > li.is-demo")).to_have_count(1)
    assert "demo=1" in hash_state(page)
    for q in data["questions"]:  # the demo source is added the same way for every question
        lab.locator('select[name="prompt-q"]').select_option(q["id"])
        assert prompt_text(lab) == expected_prompt(data, q["id"], default["n"], demo=True), q["id"]


def test_prompt_lab_by_keyboard(page, site_url, data):
    lab = open_lab(page, site_url, "prompt")
    default = data["answer"]["prompt_default"]
    lab.locator('input[name="prompt-n"]:checked').focus()
    page.keyboard.press("ArrowRight")
    n = default["n"] + 1
    expect(lab.locator(f'input[name="prompt-n"][value="{n}"]')).to_be_checked()
    assert prompt_text(lab) == expected_prompt(data, default["q"], n)
    select = lab.locator('select[name="prompt-q"]')
    select.focus()
    page.keyboard.press("ArrowDown")
    q = select.input_value()
    assert q != default["q"]
    assert prompt_text(lab) == expected_prompt(data, q, n)
    lab.locator('input[name="prompt-demo"]').focus()
    page.keyboard.press("Space")
    assert prompt_text(lab) == expected_prompt(data, q, n, demo=True)
    assert hash_state(page) == f"#lab-prompt?q={q}&n={n}&demo=1"


def test_prompt_state_restores_from_a_link(page, site_url, data):
    golden = next(q for q in data["questions"] if q["set"] == "golden")
    lab = open_lab(page, site_url, "prompt", f"q={golden['id']}&n=8&demo=1")
    expect(lab.locator('select[name="prompt-q"]')).to_have_value(golden["id"])
    expect(lab.locator('input[name="prompt-n"][value="8"]')).to_be_checked()
    expect(lab.locator('input[name="prompt-demo"]')).to_be_checked()
    assert prompt_text(lab) == expected_prompt(data, golden["id"], 8, demo=True)
    # A later link on the same page (section 9 links here) switches the lab without a reload.
    page.evaluate("() => { location.hash = '#lab-prompt?q=okta-login&n=3'; }")
    expect(lab.locator('select[name="prompt-q"]')).to_have_value("okta-login")
    assert prompt_text(lab) == expected_prompt(data, "okta-login", 3)


# --------------------------------------------------------------- citation checker

HOSTILE_CASES = [
    ("Paid plans are refundable within 14 days of the payment.", "refund-new", "refundable within 14 days"),
    ("Refunds within 14 days.", "refund-new", "REFUNDABLE   within\n14 days"),
    ("Refunds within 14 days.", "refund-new", "refundable\u00a0within 14\tdays"),
    ("Refunds within 21 days.", "refund-new", "refundable within 14 days"),
    ("Refunds within 14 days.", "refund-new", "refunds within 14 days"),
    ("Refunds within 14 days.", "refund-annual", "refundable within 14 days"),
    ("Refunds within 14 days.", "mobile-notify", "refundable within 14 days"),
    ("Refunds within 14 days.", "refund-new ", "refundable within 14 days"),
    ("Refunds within 14 days.", "REFUND-NEW", "refundable within 14 days"),
    ("", "", ""),
    ("No numbers here.", "refund-new", ""),
    ("No numbers here.", "refund-new", "   "),
    ("14, 14 and 2,000 and 3.5", "refund-new", "those 14 days"),
    ("<b>14</b> days", "refund-new", "<b>14</b> days"),
    ('Quote "marks" 14', 'refund-new" onmouseover="alert(1)', '"14 days"'),
    ("<script>window.__pwned=1</script>", "<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
    ("Inherited ids are not sources", "__proto__", "x"),
    ("Inherited ids are not sources", "constructor", "x"),
    ("Inherited ids are not sources", "toString", "x"),
    ("\u202eevil\u202c 14", "refund-old", "\u202eevil\u202c"),
    ("Unicode İstanbul 14", "refund-new", "14 DAYS OF THE PAYMENT"),
    ("after those 14 days", "refund-new", "After those 14 days, cancelling stops all future charges"),
]


def checker_result(lab) -> dict:
    return {"status": lab.locator(".lab-status").inner_text(),
            "problems": lab.locator(".checker-checks .checker-problem").all_inner_texts()}


def fill_claim(lab, text, source, quote):
    lab.locator('textarea[name="checker-text"]').fill(text)
    lab.locator('input[name="checker-source"]').fill(source)
    lab.locator('textarea[name="checker-quote"]').fill(quote)


def sent_sources(data, tracer_id) -> dict:
    by_id = passages(data)
    return {pid: by_id[pid]["text"] for pid in data["answer"]["tracer_checks"][tracer_id]["sent"]}


def test_checker_equals_python_on_a_table_of_cases_including_hostile_ones(page, site_url, data):
    lab = open_lab(page, site_url, "checker")
    q = data["answer"]["checker_default"]["q"]
    sources = sent_sources(data, q)
    for text, source, quote in HOSTILE_CASES:
        fill_claim(lab, text, source, quote)
        expected = check_claim(Claim(text, source, quote), sources)
        got = checker_result(lab)
        assert got["problems"] == expected.problems, (text, source, quote)
        assert got["status"] == ("Passes every check." if expected.ok else
                                 f"Fails: {len(expected.problems)} problem{'' if len(expected.problems) == 1 else 's'}.")
    # Typed markup stayed text: nothing was parsed into elements or run.
    assert lab.locator("script, img, b").count() == 0
    assert page.evaluate("() => window.__pwned") is None


def test_checker_every_traced_claim_as_python_checks_it(page, site_url, data):
    lab = open_lab(page, site_url, "checker")
    for tracer in data["tracers"]:
        lab.locator('select[name="checker-q"]').select_option(tracer["id"])
        sources = sent_sources(data, tracer["id"])
        sent = data["answer"]["tracer_checks"][tracer["id"]]["sent"]
        assert lab.locator(".checker-sources > li .pid code").all_inner_texts() == sent
        for index, claim in enumerate(tracer["claims"]):
            lab.locator('select[name="checker-c"]').select_option(str(index))
            expect(lab.locator('textarea[name="checker-text"]')).to_have_value(claim["text"])
            expected = check_claim(Claim(claim["text"], claim["source"], claim["quote"]), sources)
            assert checker_result(lab)["problems"] == expected.problems
            assert expected.problems == data["answer"]["tracer_checks"][tracer["id"]]["problems"][index]
            if expected.ok:  # the quote is marked inside its passage
                cited = lab.locator(".checker-sources > li.is-winner")
                expect(cited.locator(".pid code")).to_have_text(claim["source"])
                mark = cited.locator("mark").inner_text()
                assert " ".join(mark.lower().split()) == " ".join(claim["quote"].lower().split())


def test_checker_buttons_by_mouse_break_each_check(page, site_url, data):
    lab = open_lab(page, site_url, "checker")
    q = data["answer"]["checker_default"]["q"]
    sent = data["answer"]["tracer_checks"][q]["sent"]
    unsent = next(pid for pid, _ in data["runs"][q]["hybrid"] if pid not in sent)
    expect(lab.locator(".lab-status")).to_have_text("Passes every check.")
    lab.get_by_role("button", name="Cite a passage that was not sent").click()
    assert checker_result(lab)["problems"] == [f"unknown source id '{unsent}': it was not sent to the model"]
    lab.get_by_role("button", name="Reset").click()
    expect(lab.locator(".lab-status")).to_have_text("Passes every check.")
    lab.get_by_role("button", name="Change a number in the claim").click()
    problems = checker_result(lab)["problems"]
    assert len(problems) == 1 and problems[0].startswith("number ")
    lab.get_by_role("button", name="Reset").click()
    lab.get_by_role("button", name="Drop a word from the quote").click()
    assert any(p.startswith("quote not found") for p in checker_result(lab)["problems"])
    state = page.evaluate("() => RAG.readHashState('checker')")
    claim = next(t for t in data["tracers"] if t["id"] == q)["claims"][0]
    text, source, quote = (lab.locator(f'[name="checker-{k}"]').input_value() for k in ("text", "source", "quote"))
    expected = check_claim(Claim(text, source, quote), sent_sources(data, q))
    assert checker_result(lab)["problems"] == expected.problems and not expected.ok
    assert state.get("quote") == quote and "text" not in state and quote != claim["quote"]


def test_checker_by_keyboard(page, site_url, data):
    lab = open_lab(page, site_url, "checker")
    q = data["answer"]["checker_default"]["q"]
    source = lab.locator('input[name="checker-source"]')
    source.focus()
    page.keyboard.press("End")
    page.keyboard.type("-2024")
    expect(lab.locator(".lab-status")).to_have_text("Fails: 1 problem.")
    claim = next(t for t in data["tracers"] if t["id"] == q)["claims"][0]
    assert checker_result(lab)["problems"] == [
        f"unknown source id '{claim['source']}-2024': it was not sent to the model"]
    # Tab on to the buttons and press Reset with the keyboard.
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.action") == "reset":
            break
    else:
        pytest.fail("Tab never reached the Reset button")
    page.keyboard.press("Enter")
    expect(lab.locator(".lab-status")).to_have_text("Passes every check.")
    expect(source).to_have_value(claim["source"])


def test_checker_state_restores_from_a_link(page, site_url, data):
    tracer = data["tracers"][2]
    claim = tracer["claims"][1]
    lab = open_lab(page, site_url, "checker", f"q={tracer['id']}&c=1&text=Up+to+61+a+minute")
    expect(lab.locator('select[name="checker-q"]')).to_have_value(tracer["id"])
    expect(lab.locator('select[name="checker-c"]')).to_have_value("1")
    expect(lab.locator('textarea[name="checker-text"]')).to_have_value("Up to 61 a minute")
    expect(lab.locator('input[name="checker-source"]')).to_have_value(claim["source"])
    expected = check_claim(Claim("Up to 61 a minute", claim["source"], claim["quote"]), sent_sources(data, tracer["id"]))
    assert checker_result(lab)["problems"] == expected.problems and not expected.ok


# --------------------------------------------------------------------- tracer

STAGES = ["dense", "bm25", "fused", "rerank", "prompt", "answer", "check"]
DIGITS = {"dense": 3, "bm25": 3, "fused": 4, "rerank": 2}


def expected_rows(ranking, answer, depth, digits):
    rows = [(str(i + 1), pid, f"{score:.{digits}f}") for i, (pid, score) in enumerate(ranking[:depth])]
    at = next((i for i, (pid, _) in enumerate(ranking) if pid == answer), None)
    if at is None:
        rows.append(("–", answer, "–"))
    elif at >= depth:
        rows.append((str(at + 1), answer, f"{ranking[at][1]:.{digits}f}"))
    return rows


def shown_rows(stage):
    return stage.locator("ol.trace-list > li").evaluate_all(
        "lis => lis.map(li => [li.querySelector('.rank').textContent, li.querySelector('.pid code').textContent,"
        " li.querySelector('.score').textContent])")


def check_tracer(lab, data, tracer):
    q, answer, depth = tracer["id"], tracer["answer"], data["answer"]["trace_depth"]
    runs = data["runs"][q]
    rerank = data["rerank"]["by_question"].get(q, tracer["rerank"])
    for key, ranking in (("dense", runs["dense"]), ("bm25", runs["bm25"]), ("fused", runs["hybrid"]),
                         ("rerank", rerank)):
        stage = lab.locator(f'.trace-stage[data-stage="{key}"]')
        assert [tuple(r) for r in shown_rows(stage)] == expected_rows(ranking, answer, depth, DIGITS[key]), (q, key)
        answer_rows = stage.locator("li.is-answer .pid code").all_inner_texts()
        assert answer_rows == [answer], (q, key)
    sent = data["answer"]["tracer_checks"][q]["sent"]
    assert sent == [pid for pid, _ in runs["hybrid"][:data["answer"]["sent"]]]
    prompt = lab.locator('.trace-stage[data-stage="prompt"]')
    assert prompt.locator(".trace-sent > li .pid code").all_inner_texts() == sent
    assert prompt.locator(".trace-sent > li .score").all_inner_texts() == [f"{s:.4f}" for _, s in runs["hybrid"][:len(sent)]]
    expect(prompt.locator(".trace-note")).to_contain_text(f"{data['prompt_tokens'][q][str(len(sent))]} tokens")
    answer_stage = lab.locator('.trace-stage[data-stage="answer"]')
    assert answer_stage.locator(".illustrative p").inner_text() == tracer["answer_text"]
    cites = answer_stage.locator("a.trace-cite")
    markers = [part.split("]")[0] for part in tracer["answer_text"].split("[")[1:]]
    assert cites.all_inner_texts() == [f"[{pid}]" for pid in markers]
    assert [cites.nth(i).get_attribute("href") for i in range(cites.count())] == [f"#tracer-src-{pid}" for pid in markers]
    rows = lab.locator(".trace-claims tbody tr")
    assert rows.count() == len(tracer["claims"])
    for i, claim in enumerate(tracer["claims"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == claim["text"] and cells[1] == claim["source"] and cells[2] == f"“{claim['quote']}”"
        assert cells[3].split()[0] == ("pass" if claim["ok"] else "fail")
        assert rows.nth(i).locator(".checker-problem").all_inner_texts() == claim["problems"]
    readout = lab.locator(".trace-readout").inner_text()
    assert f"dense rank {next(i + 1 for i, (p, _) in enumerate(runs['dense']) if p == answer)}" in readout
    passed = sum(c["ok"] for c in tracer["claims"])
    assert f"Citations: {passed} of {len(tracer['claims'])} pass" in readout


def test_tracer_default_without_javascript_shows_every_stage(make_page, site_url, data):
    page = make_page(java_script_enabled=False)
    page.goto(site_url + "index.html")
    lab = page.locator("#lab-tracer")
    for key in STAGES:
        expect(lab.locator(f'.trace-stage[data-stage="{key}"]')).to_be_visible()
    check_tracer(lab, data, data["tracers"][0])


def test_tracer_numbers_equal_the_builds_for_all_five_questions(page, site_url, data):
    lab = open_lab(page, site_url, "tracer")
    assert len(data["tracers"]) == 5
    for tracer in data["tracers"]:
        lab.locator('select[name="tracer-q"]').select_option(tracer["id"])
        check_tracer(lab, data, tracer)


def visible_stages(lab) -> list[str]:
    return lab.locator(".trace-stage:visible").evaluate_all("els => els.map(e => e.dataset.stage)")


def test_tracer_steps_by_mouse(page, site_url, data):
    lab = open_lab(page, site_url, "tracer")
    assert visible_stages(lab) == STAGES
    previous, following = lab.get_by_role("button", name="Previous stage"), lab.get_by_role("button", name="Next stage")
    expect(previous).to_be_disabled()
    for index, key in enumerate(STAGES):
        following.click()
        assert visible_stages(lab) == [key]
        expect(lab.locator(".lab-status")).to_contain_text(f"Stage {index + 1} of {len(STAGES)}")
    expect(following).to_be_disabled()
    previous.click()
    assert visible_stages(lab) == [STAGES[-2]]
    assert RAG_state(page) == {"q": data["tracers"][0]["id"], "stage": STAGES[-2]}
    lab.locator('input[name="tracer-stage"][value="answer"] + span').click()
    cite = lab.locator("a.trace-cite").first
    pid = cite.get_attribute("href").split("tracer-src-")[1]
    cite.click()
    assert visible_stages(lab) == ["prompt"]
    expect(page.locator(f"#tracer-src-{pid}")).to_be_focused()
    assert hash_state(page).startswith("#lab-tracer?")  # the lab's link survived the jump


def RAG_state(page):
    return page.evaluate("() => RAG.readHashState('tracer')")


def test_tracer_steps_by_keyboard(page, site_url, data):
    lab = open_lab(page, site_url, "tracer")
    lab.locator('input[name="tracer-stage"]:checked').focus()
    page.keyboard.press("ArrowRight")
    assert visible_stages(lab) == ["dense"]
    page.keyboard.press("ArrowRight")
    assert visible_stages(lab) == ["bm25"]
    lab.get_by_role("button", name="Next stage").focus()
    page.keyboard.press("Enter")
    assert visible_stages(lab) == ["fused"]
    page.keyboard.press("Space")
    assert visible_stages(lab) == ["rerank"]
    select = lab.locator('select[name="tracer-q"]')
    select.focus()
    page.keyboard.press("ArrowDown")
    second = data["tracers"][1]
    expect(select).to_have_value(second["id"])
    assert visible_stages(lab) == ["rerank"]
    lab.locator('input[name="tracer-stage"][value="all"] + span').click()
    check_tracer(lab, data, second)


def test_tracer_state_restores_from_a_link(page, site_url, data):
    tracer = data["tracers"][3]
    lab = open_lab(page, site_url, "tracer", f"q={tracer['id']}&stage=rerank")
    expect(lab.locator('select[name="tracer-q"]')).to_have_value(tracer["id"])
    assert visible_stages(lab) == ["rerank"]
    lab.locator('input[name="tracer-stage"][value="all"] + span').click()
    check_tracer(lab, data, tracer)


def test_section_links_open_each_trace(page, site_url, data):
    page.goto(site_url + "index.html")
    lab = page.locator("#lab-tracer")
    for tracer in data["tracers"]:
        link = page.locator(f'#every-stage a[href="#lab-tracer?q={tracer["id"]}"]')
        expect(link).to_have_count(1)
        link.click()
        expect(lab.locator('select[name="tracer-q"]')).to_have_value(tracer["id"])


# ------------------------------------------------------------ accessibility, layout


def axe_labs(page) -> list[dict]:
    if not AXE_JS.is_file():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` (make deps)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text("utf-8") + "\n;true")
    return page.evaluate("""async (labs) => {
        const result = await axe.run({include: labs.map(name => ['#lab-' + name])},
            {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}, resultTypes: ['violations']});
        return result.violations.map(v => v.id + ': ' + v.help + ' :: ' + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | '));
    }""", list(LABS))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_in_these_labs_in_any_state(make_page, site_url, scheme):
    page = make_page(color_scheme=scheme)
    page.goto(site_url + "index.html#lab-prompt?q=export-pdf&n=6&demo=1")
    page.wait_for_load_state("load")
    assert axe_labs(page) == []
    checker = page.locator("#lab-checker")
    fill_claim(checker, "Refunds for 21 days", "refund-old", "made-up words")
    page.locator("#lab-tracer").get_by_role("button", name="Next stage").click()
    assert axe_labs(page) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_labs_fit_a_phone(make_page, site_url, javascript):
    page = make_page(viewport=VIEWPORTS["phone"], java_script_enabled=javascript)
    page.goto(site_url + "index.html#lab-prompt?q=g01&n=10&demo=1")
    page.wait_for_load_state("load")
    outside = page.evaluate("""(labs) => labs.flatMap(name => [...document.querySelectorAll('#lab-' + name + ' *')]
        .filter(el => el.getBoundingClientRect().right > innerWidth + 1 && !el.closest('.table-scroll, pre'))
        .slice(0, 3).map(el => name + ': ' + el.tagName.toLowerCase() + '.' + el.className))""", list(LABS))
    assert outside == []


def save_lab(page, name: str, path: Path) -> Path:
    """A screenshot of one lab: the viewport is made as tall as the lab, then clipped to it
    (a full-page capture of this long page is too tall for Chromium)."""
    height = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().height", f"lab-{name}")
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": int(height) + 40})
    page.evaluate("(id) => document.getElementById(id).scrollIntoView({block: 'start', behavior: 'instant'})", f"lab-{name}")
    page.wait_for_timeout(100)
    box = page.evaluate("(id) => { const b = document.getElementById(id).getBoundingClientRect();"
                        " return {x: b.left, y: b.top, width: b.width, height: b.height}; }", f"lab-{name}")
    page.screenshot(path=str(path), clip=box)
    return path


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots_of_the_labs(make_page, site_url, device, scheme):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = make_page(viewport=VIEWPORTS[device], color_scheme=scheme, reduced_motion="reduce")
    states = {"prompt": "q=export-pdf&n=4&demo=1", "checker": "q=api-rate-limit&c=2&text=Over+the+limit:+QB-4291",
              "tracer": "q=refund-three-weeks"}
    for name in LABS:
        page.set_viewport_size(VIEWPORTS[device])
        page.goto(site_url + f"index.html#lab-{name}?{states[name]}")
        page.wait_for_load_state("load")
        path = save_lab(page, name, SHOTS / f"answer-{name}-{device}-{scheme}.png")
        assert path.stat().st_size > 10_000
