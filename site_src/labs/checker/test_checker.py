"""The citation checker (site_src/labs/checker/): the data step sorts
each traced claim's problems into the lab's three checks and finds its quote in its passage;
in the browser, every claim the reader edits is checked exactly as engine/citations.py checks
it, hostile input included, only ever shown as text; the buttons break each check; the lab
works by keyboard and from a shared link."""

from types import SimpleNamespace
from urllib.parse import parse_qsl

import pytest
from playwright.sync_api import expect

from site_src.labs.checker import data as checker
from engine.citations import Claim, check_claim
from support.labs import hash_of, lab, open_page

# ------------------------------------------------------------------ the data step


def test_quote_span_marks_the_quote_whatever_its_case_and_spacing():
    text = "Paid plans are  refundable\nwithin 14 days."
    start, end = checker.quote_span(text, "ARE refundable within")
    assert text[start:end] == "are  refundable\nwithin"
    assert checker.quote_span(text, "refundable for 14") is None
    assert checker.quote_span(text, "   ") is None
    assert checker.quote_span("a (b) c", "(b)") == [2, 5], "the quote's words are matched as text, not as a pattern"


def test_problems_are_sorted_into_the_three_checks():
    problems = ["unknown source id 'x': it was not sent to the model", "quote not found in source 'a'",
                "the quote is empty", "number 21 in the claim is not in the quote"]
    assert checker.by_check(problems) == {"source": problems[:1], "numbers": problems[3:], "quote": problems[1:3]}
    assert checker.by_check([]) == {"source": [], "numbers": [], "quote": []}


def test_a_claims_quote_is_marked_only_in_a_sent_passage_that_holds_it():
    texts = {"a": "Refunds: paid plans are refundable within 14 days."}
    good = checker.claim_view({"source": "a", "quote": "REFUNDABLE within"}, [], texts)
    assert good["mark"] == [len("Refunds: paid plans are "), len("Refunds: paid plans are refundable within")]
    unsent = checker.claim_view({"source": "b", "quote": "refundable within"},
                                ["unknown source id 'b': it was not sent to the model"], texts)
    assert unsent["mark"] is None and unsent["by_check"]["source"]
    missing = checker.claim_view({"source": "a", "quote": "refundable for"}, ["quote not found in source 'a'"], texts)
    assert missing["mark"] is None and missing["by_check"]["quote"] == ["quote not found in source 'a'"]


def test_the_data_step_checks_every_claim_of_every_tracer_against_its_sent_passages():
    by_id = {"a": SimpleNamespace(text="Uploads stop at 100 MB on Free."), "b": SimpleNamespace(text="Other.")}
    tracer = {"id": "t1", "sent": ["a"], "claims": [{"text": "100 MB", "source": "a", "quote": "100 MB"},
                                                    {"text": "100 MB", "source": "b", "quote": "Other."}],
              "sent_problems": [[], ["unknown source id 'b': it was not sent to the model"]]}
    got = checker.data(SimpleNamespace(corpus=SimpleNamespace(by_id=by_id), data={"tracers": [tracer]}))
    assert got == {"checks": {"t1": [
        {"by_check": {"source": [], "numbers": [], "quote": []}, "mark": [len("Uploads stop at "), len("Uploads stop at 100 MB")]},
        {"by_check": {"source": tracer["sent_problems"][1], "numbers": [], "quote": []}, "mark": None}]}}
    assert checker.BUILD_ONLY == ("checks",), "the browser checks for itself"


def test_the_builds_checks_are_the_engines_on_the_sent_passages(data):
    assert checker.STATE["q"] in {t["id"] for t in data["tracers"]}
    texts = {p["id"]: p["text"] for p in data["passages"]}
    checks = data["labs"]["checker"]["checks"]
    assert set(checks) == {t["id"] for t in data["tracers"]}
    for tracer in data["tracers"]:
        sent = {pid: texts[pid] for pid in tracer["sent"]}
        for claim, view in zip(tracer["claims"], checks[tracer["id"]], strict=True):
            problems = check_claim(Claim(claim["text"], claim["source"], claim["quote"]), sent).problems
            assert [p for group in ("source", "quote", "numbers") for p in view["by_check"][group]] == problems
            if not problems:
                start, end = view["mark"]
                assert " ".join(texts[claim["source"]][start:end].lower().split()) == " ".join(claim["quote"].lower().split())


# ------------------------------------------------------------------ in the browser

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


def tracer_of(data, tracer_id) -> dict:
    return next(t for t in data["tracers"] if t["id"] == tracer_id)


def sent_sources(data, tracer_id) -> dict:
    texts = {p["id"]: p["text"] for p in data["passages"]}
    return {pid: texts[pid] for pid in tracer_of(data, tracer_id)["sent"]}


def result(section) -> dict:
    return {"status": section.locator(".lab-status").inner_text(),
            "problems": section.locator(".checker-checks .checker-problem").all_inner_texts()}


def status_of(problems) -> str:
    return "Passes every check." if not problems else \
        f"Fails: {len(problems)} problem{'' if len(problems) == 1 else 's'}."


def fill_claim(section, text, source, quote, before=None):
    """Type the three fields (those that differ from `before`, the last three typed)."""
    for (name, value), old in zip((("text", text), ("source", source), ("quote", quote)), before or (None,) * 3):
        if value != old:
            section.locator(f'[name="checker-{name}"]').fill(value)


def link_state(page) -> dict:
    return dict(parse_qsl(hash_of(page).partition("?")[2]))


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-checker")


@pytest.mark.browser
def test_the_checker_equals_python_on_a_table_of_cases_including_hostile_ones(desktop, data):
    section = lab(desktop, "checker")
    q = checker.STATE["q"]
    section.locator('select[name="checker-q"]').select_option(q)
    sources = sent_sources(data, q)
    before = None
    for text, source, quote in HOSTILE_CASES:
        fill_claim(section, text, source, quote, before)
        before = (text, source, quote)
        expected = check_claim(Claim(text, source, quote), sources)
        got = result(section)
        assert got["problems"] == expected.problems, (text, source, quote)
        assert got["status"] == status_of(expected.problems)
        expect(section.locator(".checker-claim-text")).to_have_text(text)
    # Typed markup stayed text: nothing was parsed into elements or run.
    assert section.locator("script, img, b").count() == 0
    assert desktop.evaluate("() => window.__pwned") is None


@pytest.mark.browser
def test_every_traced_claim_as_python_checks_it(desktop, data):
    section = lab(desktop, "checker")
    for tracer in data["tracers"]:
        section.locator('select[name="checker-q"]').select_option(tracer["id"])
        sources = sent_sources(data, tracer["id"])
        assert section.locator(".checker-sources > li .pid code").all_inner_texts() == tracer["sent"]
        fused = dict(data["runs"][tracer["id"]]["hybrid"])
        assert section.locator(".checker-sources > li .score").all_inner_texts() == [f"{fused[pid]:.4f}" for pid in tracer["sent"]]
        for index, claim in enumerate(tracer["claims"]):
            section.locator('select[name="checker-c"]').select_option(str(index))
            expect(section.locator('textarea[name="checker-text"]')).to_have_value(claim["text"])
            expected = check_claim(Claim(claim["text"], claim["source"], claim["quote"]), sources)
            assert result(section) == {"status": status_of(expected.problems), "problems": expected.problems}
            assert expected.problems == tracer["sent_problems"][index]
            assert link_state(desktop) == {"q": tracer["id"], "c": str(index)}, "an unedited claim's link is short"
            if expected.ok:  # the quote is marked inside its passage
                cited = section.locator(".checker-sources > li.is-winner")
                expect(cited.locator(".pid code")).to_have_text(claim["source"])
                mark = cited.locator("mark").inner_text()
                assert " ".join(mark.lower().split()) == " ".join(claim["quote"].lower().split())


@pytest.mark.browser
def test_the_buttons_break_each_check_by_mouse(desktop, data):
    section = lab(desktop, "checker")
    q = checker.STATE["q"]
    section.locator('select[name="checker-q"]').select_option(q)
    sent = tracer_of(data, q)["sent"]
    unsent = next(pid for pid, _ in data["runs"][q]["hybrid"] if pid not in sent)
    expect(section.locator(".lab-status")).to_have_text("Passes every check.")
    section.get_by_role("button", name="Cite a passage that was not sent").click()
    assert result(section)["problems"] == [f"unknown source id '{unsent}': it was not sent to the model"]
    assert [r.inner_text() for r in section.locator(".checker-checks .badge").all()] == ["fail", "not run", "not run"]
    section.get_by_role("button", name="Reset").click()
    expect(section.locator(".lab-status")).to_have_text("Passes every check.")
    section.get_by_role("button", name="Change a number in the claim").click()
    problems = result(section)["problems"]
    assert len(problems) == 1 and problems[0].startswith("number ")
    section.get_by_role("button", name="Reset").click()
    section.get_by_role("button", name="Drop a word from the quote").click()
    assert any(p.startswith("quote not found") for p in result(section)["problems"])
    claim = tracer_of(data, q)["claims"][0]
    text, source, quote = (section.locator(f'[name="checker-{k}"]').input_value() for k in ("text", "source", "quote"))
    expected = check_claim(Claim(text, source, quote), sent_sources(data, q))
    assert result(section)["problems"] == expected.problems and not expected.ok
    state = link_state(desktop)
    assert state.get("quote") == quote and "text" not in state and quote != claim["quote"]
    section.get_by_role("button", name="Reset").click()
    assert link_state(desktop) == {"q": q, "c": "0"}


@pytest.mark.browser
def test_the_checker_by_keyboard(desktop, data):
    section = lab(desktop, "checker")
    q = checker.STATE["q"]
    section.locator('select[name="checker-q"]').select_option(q)
    section.locator('select[name="checker-c"]').select_option("0")
    source = section.locator('input[name="checker-source"]')
    source.focus()
    desktop.keyboard.press("End")
    desktop.keyboard.type("-2024")
    expect(section.locator(".lab-status")).to_have_text("Fails: 1 problem.")
    claim = tracer_of(data, q)["claims"][0]
    assert result(section)["problems"] == [f"unknown source id '{claim['source']}-2024': it was not sent to the model"]
    assert link_state(desktop)["source"] == f"{claim['source']}-2024"
    # Tab on to the buttons and press Reset with the keyboard.
    for _ in range(10):
        desktop.keyboard.press("Tab")
        if desktop.evaluate("() => document.activeElement.dataset.action") == "reset":
            break
    else:
        pytest.fail("Tab never reached the Reset button")
    desktop.keyboard.press("Enter")
    expect(section.locator(".lab-status")).to_have_text("Passes every check.")
    expect(source).to_have_value(claim["source"])


@pytest.mark.browser
def test_the_state_restores_from_a_link(make_page, site_url, data):
    tracer = data["tracers"][2]
    claim = tracer["claims"][1]
    page = open_page(make_page, site_url, f"#lab-checker?q={tracer['id']}&c=1&text=Up+to+61+a+minute")
    section = lab(page, "checker")
    expect(section.locator('select[name="checker-q"]')).to_have_value(tracer["id"])
    expect(section.locator('select[name="checker-c"]')).to_have_value("1")
    expect(section.locator('textarea[name="checker-text"]')).to_have_value("Up to 61 a minute")
    expect(section.locator('input[name="checker-source"]')).to_have_value(claim["source"])
    expected = check_claim(Claim("Up to 61 a minute", claim["source"], claim["quote"]), sent_sources(data, tracer["id"]))
    assert result(section)["problems"] == expected.problems and not expected.ok


@pytest.mark.browser
def test_nothing_sticks_out_on_a_phone_whatever_the_reader_types(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-checker", viewport={"width": 360, "height": 780})
    section = lab(page, "checker")
    outside = """s => [...s.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > innerWidth + 1)
        .map(el => el.tagName.toLowerCase() + '.' + el.className)"""
    fill_claim(section, "x" * 300 + " 14", "refund-new-" + "y" * 80, "z" * 300)
    expect(section.locator(".lab-status")).to_have_text("Fails: 1 problem.")  # no such source: nothing else is run
    assert section.evaluate(outside) == []
    section.locator('input[name="checker-source"]').fill("refund-new")
    # the quote is one word, it is not in the source, and the number 14 is not in it
    expect(section.locator(".lab-status")).to_have_text("Fails: 3 problems.")
    assert section.evaluate(outside) == []
    quote = section.locator('textarea[name="checker-quote"]')
    assert quote.evaluate("el => el.scrollHeight <= el.clientHeight + 1"), "the whole quote shows in its box"
