"""The citation checker (site_src/labs/checker/): its cases (corpus/checker-cases.yaml) are read
with errors that name file, line and field, and the build stops, naming the case, when the checker
says of one anything but what it must; the view (in Node) checks every traced claim, every case
and a table of hostile edits exactly as engine/citations.py does, shows a case's lesson while the
state is that case, and marks each piece of a quote the checker found where it stands in the
passage; in the browser, the buttons break each check and apply each case, the controls follow
the state whoever changed it, and the lab works by keyboard, from a shared link and on a phone."""

import json
import subprocess
from types import SimpleNamespace
from urllib.parse import parse_qsl, quote, urlencode

import pytest
from playwright.sync_api import expect

from engine.citations import Claim, check_claim, normalize, quote_pieces
from engine.problems import CorpusError, ProblemLog
from site_src.labs.checker import data as checker
from support.labs import lab, link_of, open_page, sticking_out
from support.paths import ROOT
from support.views import dist_sources, markup, text

# ------------------------------------------------------------------ the cases file


def load(tmp_path, body: str):
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "checker-cases.yaml").write_text(body, "utf-8")
    out = ProblemLog(corpus)
    return checker.load_content(corpus, out), [str(p) for p in out.problems]


GOOD = """\
- id: entity
  rule: HTML entities
  label: "&nbsp; in the quote"
  tracer: upload-4021
  claim: 1
  quote: 100&nbsp;MB for Free
  problems: []
  note: Decoded once.
- id: false-unit
  rule: What code cannot check
  label: MB became GB
  tracer: upload-4021
  claim: 1
  text: "100\\u00a0GB"
  problems: ["one", "two"]
  claim_true: false
  note: Not compared.
"""


def test_the_cases_file_is_read_with_each_cases_edits(tmp_path):
    cases, problems = load(tmp_path, GOOD)
    assert problems == []
    assert cases == (
        checker.CheckerCase("entity", "HTML entities", "&nbsp; in the quote", "upload-4021", 1, {"quote": "100&nbsp;MB for Free"},
                            (), True, "Decoded once.", "corpus/checker-cases.yaml", 1),
        checker.CheckerCase("false-unit", "What code cannot check", "MB became GB", "upload-4021", 1, {"text": "100\u00a0GB"},
                            ("one", "two"), False, "Not compared.", "corpus/checker-cases.yaml", 9))


@pytest.mark.parametrize("edit, expected", [
    (("claim: 1", "claim: 0"), "corpus/checker-cases.yaml:1: entity: claim: is '0', not a claim's number (fix: write which "
                               "claim of the tracer the case edits, counted from 1 (claim: 2))"),
    (("claim: 1", "claim: two"), "corpus/checker-cases.yaml:1: entity: claim: is 'two', not a claim's number"),
    (("quote: 100&nbsp;MB for Free", "quote: [100]"), "corpus/checker-cases.yaml:1: entity: quote: must be text"),
    (("quote: 100&nbsp;MB for Free", "source_id: err-4021"), "corpus/checker-cases.yaml:1: entity: edits nothing"),
    (("problems: []", "problems: passes"), "corpus/checker-cases.yaml:1: entity: problems: is not a list of the checker's problems"),
    (("  note: Decoded once.\n", ""), "corpus/checker-cases.yaml:1: entity: note: is missing or empty"),
    (("tracer: upload-4021", "tracer: Upload 4021"), "corpus/checker-cases.yaml:1: Upload 4021: tracer: 'Upload 4021' is not a valid id"),
    (("- id: false-unit", "- id: entity"), "corpus/checker-cases.yaml:1: entity: id: 'entity' appears 2 times"),
])
def test_a_broken_case_is_named_with_its_file_line_and_field(tmp_path, edit, expected):
    old, new = edit
    assert old in GOOD
    cases, problems = load(tmp_path, GOOD.replace(old, new, 1))  # in the first case
    assert len(problems) == 1 and problems[0].startswith(expected), problems
    assert "(fix: " in problems[0]


def test_a_file_that_is_no_list_is_refused(tmp_path):
    assert load(tmp_path, "id: entity\n")[1] == [
        "corpus/checker-cases.yaml:1: is not a list of entries (fix: write each entry as '- field: value' lines)"]


# ------------------------------------------------------------------ the cases against the engine

SOURCES = {"a": "Uploads stop at 100 MB on Free.", "b": "Another passage."}
TRACERS = {"t1": {"id": "t1", "sent": ["a"], "claims": [{"text": "Free stops at 100 MB.", "source": "a",
                                                         "quote": "stop at 100 MB on Free"}]}}


def case(**changes):
    fields = dict(id="c1", rule="Rule", label="Label", tracer="t1", claim=1, edits={"quote": "stop at 100\u00a0MB"},
                  problems=(), claim_true=True, note="Note.", file="corpus/checker-cases.yaml", line=7)
    return checker.CheckerCase(**(fields | changes))


def test_a_case_is_its_traced_claim_with_its_edits():
    assert checker.apply_case(case(), TRACERS) == Claim("Free stops at 100 MB.", "a", "stop at 100\u00a0MB")
    assert checker.apply_case(case(edits={"text": "x", "source": "b"}), TRACERS) == Claim("x", "b", "stop at 100 MB on Free")


@pytest.mark.parametrize("changes, expected", [
    ({}, []),
    ({"tracer": "t9"}, ["corpus/checker-cases.yaml:7: c1: tracer: no tracer has the id 't9' (fix: use one of t1)"]),
    ({"claim": 2}, ["corpus/checker-cases.yaml:7: c1: claim: tracer 't1' has 1 claims, not 2 (fix: use a number from 1 to 1)"]),
    ({"edits": {"quote": "stop at 100 MB on Free"}},
     ["corpus/checker-cases.yaml:7: c1: its edits leave the claim as it is (fix: change the claim's text, source or quote)"]),
    ({"edits": {"quote": "100"}, "problems": ("the quote is only a number: too short to support a claim",)}, []),
    ({"edits": {"quote": "100"}},
     ["corpus/checker-cases.yaml:7: c1: problems: the checker says ['the quote is only a number: too short to support a "
      "claim'], not [] (fix: write what the checker says, or change the edit so that it says what the case shows)"]),
    # Checked against the passages sent: "b" exists but was not sent with t1's answer.
    ({"edits": {"source": "b", "quote": "Another passage."}},
     ["corpus/checker-cases.yaml:7: c1: problems: the checker says [\"unknown source id 'b': it was not sent to the "
      "model\"], not [] (fix: write what the checker says, or change the edit so that it says what the case shows)"]),
    ({"problems": ("quote not found in source 'a'",)},
     ["corpus/checker-cases.yaml:7: c1: problems: the checker says nothing (the claim passes), not [\"quote not found in "
      "source 'a'\"] (fix: write what the checker says, or change the edit so that it says what the case shows)"]),
])
def test_a_case_must_exist_edit_something_and_get_the_verdict_it_says(changes, expected):
    assert [str(p) for p in checker.case_problems(case(**changes), TRACERS, SOURCES)] == expected


def build_of(cases, strict=True):
    return SimpleNamespace(content=SimpleNamespace(labs={"checker": cases}), data={"tracers": list(TRACERS.values())},
                           corpus=SimpleNamespace(passages=[SimpleNamespace(id=pid, text=t) for pid, t in SOURCES.items()]),
                           strict=strict)


def test_the_build_stops_naming_every_case_the_checker_disagrees_with():
    with pytest.raises(CorpusError) as raised:
        checker.data(build_of([case(), case(id="c2", edits={"quote": "100"}), case(id="c3", tracer="t9")]))
    assert [(p.id, p.field) for p in raised.value.problems] == [("c2", "problems"), ("c3", "tracer")]
    assert "c2: problems: the checker says" in str(raised.value)


def test_a_build_that_only_warns_names_the_cases_and_goes_on(capsys):
    got = checker.data(build_of([case(), case(id="c2", edits={"quote": "100"})], strict=False))
    assert [c["id"] for c in got["cases"]] == ["c1", "c2"]
    assert "c2: problems: the checker says" in capsys.readouterr().err


def test_the_data_step_gives_the_view_each_case_and_keeps_the_verdicts_for_the_tests():
    got = checker.data(build_of([case(claim_true=False)]))
    assert got == {"cases": [{"id": "c1", "rule": "Rule", "label": "Label", "q": "t1", "c": 0,
                              "edits": {"quote": "stop at 100\u00a0MB"}, "claim_true": False, "note": "Note."}],
                   "expected": {"c1": []}, "unbacked": "no claim backs this sentence"}
    assert checker.BUILD_ONLY == ("expected",)


# What the engineer who rewrote the checker specified, one case of each rule (the checker's words).
SPECIFIED = {
    "curly-apostrophe": ("okta-login", 3, [], True),
    "non-breaking-hyphen": ("api-rate-limit", 3, [], True),
    "entity": ("upload-4021", 1, [], True),
    "number-word-wrong": ("refund-three-weeks", 1, ['number 3 ("three") in the claim is not in the quote'], True),
    "number-word-right": ("refund-three-weeks", 1, [], True),
    "short-quote": ("upload-4021", 1, ["the quote is only a number: too short to support a claim"], True),
    # Every character is in the passage, but the quote stops inside "14": not found.
    "cut-inside-a-number": ("refund-three-weeks", 1, [
        "quote not found in source 'refund-new': it is there only as part of a longer word or number "
        "(a quote starts and ends on whole words)"], False),
    "elision-in-order": ("refund-three-weeks", 2, [], True),
    "elision-out-of-order": ("refund-three-weeks", 2, [
        "quote not found in source 'refund-new': the piece \"after those 14 days, cancelling stops all future charges\" "
        "does not come after \"the current billing period is not refunded\""], True),
    "elision-one-word": ("refund-three-weeks", 2, [
        'the piece "refunded" of the shortened quote is one word: too short to support a claim'], True),
    "dropped-negation": ("refund-three-weeks", 2, [], False),
    "wrong-unit": ("upload-4021", 1, [], False),
}


def sent_sources(data, tracer_id) -> dict:
    texts = {p["id"]: p["text"] for p in data["passages"]}
    return {pid: texts[pid] for pid in next(t for t in data["tracers"] if t["id"] == tracer_id)["sent"]}


def edited_claim(data, shown) -> Claim:
    claim = next(t for t in data["tracers"] if t["id"] == shown["q"])["claims"][shown["c"]]
    fields = {key: shown["edits"].get(key, claim[key]) for key in ("text", "source", "quote")}
    return Claim(fields["text"], fields["source"], fields["quote"])


def test_the_corpus_has_the_specified_case_of_each_rule_and_the_engine_agrees(data):
    own = data["labs"]["checker"]
    assert {c["id"]: (c["q"], c["c"] + 1, own["expected"][c["id"]], c["claim_true"]) for c in own["cases"]} == SPECIFIED
    assert list(dict.fromkeys(c["rule"] for c in own["cases"])) == [
        "Typography", "HTML entities", "Numbers in words", "Quotes too short", "Whole words and numbers",
        "Quotes shortened with “…”",
        "What code cannot check"]
    for shown in own["cases"]:
        said = check_claim(edited_claim(data, shown), sent_sources(data, shown["q"])).problems
        assert said == own["expected"][shown["id"]], shown["id"]


# ------------------------------------------------------------------ the view, in Node


def drawn(drawing) -> dict:
    out = markup(drawing.html)
    cited = out.css_first(".checker-sources > li.is-winner")
    note = out.css_first(".checker-case")
    return {
        "status": text(out.css_first(".lab-status")),
        "problems": [text(p) for p in out.css(".checker-checks .checker-problem")],
        "badges": [text(b) for b in out.css(".checker-checks > li > .badge")],
        "details": [text(d) for d in out.css(".checker-checks .checker-detail")],
        "claim": [text(dd) for dd in out.css("dl.checker-claim dd")],
        "sent": [text(code) for code in out.css(".checker-sources > li .pid code")],
        "scores": [text(score) for score in out.css(".checker-sources > li .score")],
        "heading": text(out.css_first("h4")),
        "cited": text(cited.css_first(".pid code")) if cited else None,
        "marks": [m.text() for m in cited.css("mark")] if cited else [],
        "snippet": cited.css_first(".snippet").text() if cited else None,
        "case": note and {"id": note.attributes["data-case"], "title": text(note.css_first(".checker-case-title")),
                          "note": text(note.css_first(".checker-case-note")),
                          "false": note.css_first(".badge-fail") is not None},
        "elements": sorted({n.tag for n in out.css(".checker-claim-text *, .checker-claim-source *, .checker-claim-quote *, .checker-problem *")}),
    }


def status_of(problems) -> str:
    return "Passes every check." if not problems else f"Fails: {len(problems)} problem{'' if len(problems) == 1 else 's'}."


def pieces_looked_for(passage: str, quote: str) -> list[str]:
    """The pieces engine/citations.py looks for: the whole quote when the passage holds it, else its pieces."""
    whole = normalize(quote)
    return ([whole] if quote_pieces(quote) else []) if whole in normalize(passage) else quote_pieces(quote)


def check_marks(got, passage, quote):
    """Each mark, normalized, is the piece the checker found there, in order, and starts and ends on a character."""
    assert [normalize(mark) for mark in got["marks"]] == pieces_looked_for(passage, quote)
    assert all(mark == mark.strip() for mark in got["marks"])
    assert got["snippet"] == passage, "the marks cut the passage, and add nothing to it"


def test_the_view_checks_every_traced_claim_as_the_build_did_and_marks_its_quote(views, data):
    states = [{"q": t["id"], "c": i} for t in data["tracers"] for i in range(len(t["claims"]))]
    assert len(states) == 14
    texts = {p["id"]: p["text"] for p in data["passages"]}
    for state, drawing in zip(states, views.draw_many("checker", states), strict=True):
        tracer = next(t for t in data["tracers"] if t["id"] == state["q"])
        claim = tracer["claims"][state["c"]]
        got = drawn(drawing)
        assert got["problems"] == tracer["sent_problems"][state["c"]] == []
        assert got["status"] == drawing.summary == "Passes every check."
        assert got["claim"] == [claim["text"], claim["source"], claim["quote"]]
        assert got["sent"] == tracer["sent"]
        fused = dict(map(tuple, data["runs"][tracer["id"]]["hybrid"]))
        assert got["scores"] == [f"{fused[pid]:.4f}" for pid in tracer["sent"]]
        assert got["heading"] == f"The {len(tracer['sent'])} passages sent with this answer"
        assert got["cited"] == claim["source"]
        check_marks(got, texts[claim["source"]], claim["quote"])
        assert got["details"][0] == f"{claim['source']} is one of the {len(tracer['sent'])} passages sent."
        assert got["details"][1] == ("Found, ignoring case, spacing, typographic quotes and dashes, and HTML entities; "
                                     "a quote shortened with “…” is looked for piece by piece, in order.")
        assert got["case"] is None


def case_state(shown) -> dict:
    return {"q": shown["q"], "c": shown["c"], **shown["edits"]}


def test_the_view_shows_each_case_with_the_verdict_it_must_have_and_its_lesson(views, data):
    own = data["labs"]["checker"]
    texts = {p["id"]: p["text"] for p in data["passages"]}
    for shown, drawing in zip(own["cases"], views.draw_many("checker", [case_state(c) for c in own["cases"]]), strict=True):
        expected = own["expected"][shown["id"]]
        got = drawn(drawing)
        assert got["problems"] == expected, shown["id"]
        assert got["status"] == status_of(expected)
        assert got["case"] == {"id": shown["id"], "title": f"{shown['rule']} · {shown['label']}"
                               + ("" if shown["claim_true"] else " the claim is false"),
                               "note": " ".join(shown["note"].split()), "false": not shown["claim_true"]}
        claim = edited_claim(data, shown)
        if not expected:  # the quote is found: marked piece by piece in the passage it cites
            check_marks(got, texts[claim.source_id], claim.quote)
    by_id = {c["id"]: drawn(d) for c, d in zip(own["cases"], views.draw_many("checker", [case_state(c) for c in own["cases"]]))}
    # A shortened quote found is said to be found in its pieces, each marked where it stands.
    assert by_id["elision-in-order"]["details"][1] == (
        "Found as 2 pieces, each after the one before (“…” marks words left out), ignoring case, spacing, typographic "
        "quotes and dashes, and HTML entities.")
    assert by_id["elision-in-order"]["marks"] == ["After those 14 days, cancelling stops all future charges",
                                                  "the current billing period is not refunded"]
    # The limit: the pieces are marked on either side of the "not" the quote left out.
    assert by_id["dropped-negation"]["marks"] == ["the current billing period is", "refunded and the workspace keeps its paid features"]
    # A quote the checker normalized is marked as the passage writes it.
    assert by_id["curly-apostrophe"]["marks"] == ["An owner adds the provider's details under Settings, Security"]
    assert by_id["non-breaking-hyphen"]["marks"] == ["Going over the limit returns error QB-4290"]
    assert by_id["entity"]["marks"] == ["100 MB for Free"]
    assert by_id["short-quote"]["badges"] == ["pass", "fail", "pass"] and by_id["short-quote"]["marks"] == []


def sentences_read(node) -> list[tuple[str, list[str]]]:
    """The answer view's sentences: each one's text and its badges (its claims, or the flag)."""
    return [(text(li.css_first(".answer-sentence-text")), [text(b) for b in li.css(".answer-backing .badge")])
            for li in node.css('[data-view="answer"] li.answer-sentence')]


def test_the_whole_answer_is_read_and_its_unbacked_sentences_flagged(views):
    # Written by hand from corpus/tracers.yaml: the claim checked is marked, and the sample reply's
    # last sentence ("An older page ...") and first have no claim behind them.
    got = markup(views.draw("checker", {"q": "refund-three-weeks", "c": 1}).html)
    assert sentences_read(got) == [
        ("Not for the current period.", ["no claim backs this sentence"]),
        ("Paid plans are refundable only within 14 days of the payment, and three weeks is past that [refund-new].",
         ["claim 1 · pass"]),
        ("You can still cancel: that stops all future charges, but the current billing period is not refunded "
         "[refund-new].", ["claim 2 · pass · checked above"]),
        ("An older page promising money back for longer has been superseded.", ["no claim backs this sentence"]),
    ]
    assert text(got.css_first(".answer-tally")) == "No claim backs 2 of the 4 sentences: no check ran on them."
    assert text(got.css_first('[data-view="answer"] .illustrative-label')) == "Illustrative · sentence by sentence"
    # A claim edited to fail is shown failing where it backs its sentence.
    broken = markup(views.draw("checker", {"q": "refund-three-weeks", "c": 0, "quote": "refundable within 1"}).html)
    assert sentences_read(broken)[1] == (sentences_read(got)[1][0], ["claim 1 · fail · checked above"])
    okta = markup(views.draw("checker", {"q": "okta-login", "c": 0}).html)
    assert [badges for _, badges in sentences_read(okta)] == [
        ["no claim backs this sentence"], ["claim 1 · pass · checked above", "claim 2 · pass"], ["claim 3 · pass"]]


def test_an_edit_that_is_no_case_shows_no_case(views, data):
    own = data["labs"]["checker"]
    shown = next(c for c in own["cases"] if c["id"] == "number-word-right")
    got = drawn(views.draw("checker", case_state(shown) | {"text": shown["edits"]["text"] + " "}))
    assert got["case"] is None and got["problems"] == []


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
    ("Fourteen days", "refund-new", "refundable within fourteen days"),
    ("Refunds", "refund-new", "Paid plans … 14 days … payment"),
    ("Refunds", "refund-new", "payment … Paid plans are refundable"),
    ("Refunds", "refund-new", "Paid plans are refundable within 14 days [...] all future charges"),
]


def test_the_view_checks_any_edit_as_python_does_and_shows_it_as_text(views, data):
    q = checker.STATE["q"]
    sources = sent_sources(data, q)
    states = [{"q": q, "c": 0, "text": t, "source": s, "quote": quote} for t, s, quote in HOSTILE_CASES]
    for (claim_text, source, quote), drawing in zip(HOSTILE_CASES, views.draw_many("checker", states), strict=True):
        expected = check_claim(Claim(claim_text, source, quote), sources)
        got = drawn(drawing)
        assert got["problems"] == expected.problems, (claim_text, source, quote)
        assert got["status"] == status_of(expected.problems)
        assert got["claim"] == [" ".join(claim_text.split()), " ".join(source.split()), " ".join(quote.split())]
        assert got["elements"] == [], "typed markup is text"
        if expected.ok:
            check_marks(got, sources[source], quote)
        if any(p.startswith("unknown source id") for p in expected.problems):
            assert got["badges"] == ["fail", "not run", "not run"]


def quote_marks_in_node(dist_dir, pairs) -> list:
    """The view's own quoteMarks(passage, quote), run in Node on the built site's files."""
    script = """
const { sandbox } = require("./builder/page/lab_views.js");
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; }).on("end", () => {
  const { sources, pairs } = JSON.parse(input);
  const { RAG } = sandbox(sources);
  process.stdout.write(JSON.stringify(pairs.map(([text, quote]) => RAG.labSpec("checker").quoteMarks(text, quote))));
});"""
    result = subprocess.run(["node", "-e", script], input=json.dumps({"sources": dist_sources(dist_dir), "pairs": pairs}),
                            capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    return json.loads(result.stdout)


def test_quote_marks_map_each_piece_back_to_the_passages_own_characters(dist_dir):
    provider = "An owner adds the provider&rsquo;s details"
    pairs = [
        (provider, "the provider's details"),                   # an entity in the passage is one character of it
        ("Loading\u2026 done", "loading... done"),                 # "…" is three dots, and one character to mark
        ("a re\u00adfused  upload", "refused upload"),              # a soft hyphen and two spaces, inside the mark
        ("  Leading space,\u00a0then text. ", "leading space, then"),
        ("Paid plans are refundable within 14 days.", "Paid plans … 14 days"),
        ("Paid plans are refundable within 14 days.", "14 days … Paid plans"),  # out of order: nothing to mark
        ("\U0001F642 emoji then words", "emoji then"),              # a character outside the BMP counts as two in JS
        ("\u0130stanbul office", "i\u0307stanbul"),                 # a capital whose lower case is two characters
        ("\u039f\u0394\u039f\u03a3 sign", "sign"),                  # a final sigma: its lower case needs its neighbours
    ]
    assert quote_marks_in_node(dist_dir, pairs) == [
        [[14, 42]], [[0, 13]], [[2, 18]], [[2, 21]], [[0, 10], [33, 40]], None, [[3, 13]], [[0, 8]], None]
    assert provider[14:42] == "the provider&rsquo;s details"
    assert "a re\u00adfused  upload"[2:18] == "re\u00adfused  upload"


# ------------------------------------------------------------------ in the browser


def result(section) -> dict:
    return {"status": section.locator(".lab-status").inner_text(),
            "problems": section.locator(".checker-checks .checker-problem").all_inner_texts()}


def link_state(page) -> dict:
    return dict(parse_qsl(link_of(page).partition("?")[2]))


def fields(section) -> list[str]:
    return [section.locator(f'[name="checker-{key}"]').input_value() for key in ("text", "source", "quote")]


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-checker")


@pytest.mark.browser
def test_the_buttons_break_each_check_by_mouse(desktop, data):
    section = lab(desktop, "checker")
    q = checker.STATE["q"]
    section.locator('select[name="checker-q"]').select_option(q)
    sent = next(t for t in data["tracers"] if t["id"] == q)["sent"]
    unsent = next(pid for pid, _ in data["runs"][q]["hybrid"] if pid not in sent)
    expect(section.locator(".lab-status")).to_have_text("Passes every check.")
    section.get_by_role("button", name="Cite an unsent passage").click()
    assert result(section)["problems"] == [f"unknown source id '{unsent}': it was not sent to the model"]
    expect(section.locator('input[name="checker-source"]')).to_have_value(unsent)
    section.get_by_role("button", name="Reset", exact=True).click()
    expect(section.locator(".lab-status")).to_have_text("Passes every check.")
    section.get_by_role("button", name="Change a claimed number").click()
    problems = result(section)["problems"]
    assert len(problems) == 1 and problems[0].startswith("number ")
    section.get_by_role("button", name="Reset", exact=True).click()
    section.get_by_role("button", name="Drop a quoted word").click()
    assert any(p.startswith("quote not found") for p in result(section)["problems"])
    text_, source, quote = fields(section)
    assert result(section)["problems"] == check_claim(Claim(text_, source, quote), sent_sources(data, q)).problems
    state = link_state(desktop)
    claim = next(t for t in data["tracers"] if t["id"] == q)["claims"][0]
    assert state.get("quote") == quote and "text" not in state and quote != claim["quote"]
    section.get_by_role("button", name="Reset", exact=True).click()
    assert link_state(desktop) == {"q": q, "c": "0"}


@pytest.mark.browser
def test_each_case_button_applies_its_edit_into_the_fields_and_the_link(desktop, data):
    section = lab(desktop, "checker")
    own = data["labs"]["checker"]
    for shown in own["cases"]:
        section.locator(f'button[data-case="{shown["id"]}"]').click()
        claim = edited_claim(data, shown)
        assert fields(section) == [claim.text, claim.source_id, claim.quote], shown["id"]
        expect(section.locator('select[name="checker-q"]')).to_have_value(shown["q"])
        expect(section.locator('select[name="checker-c"]')).to_have_value(str(shown["c"]))
        assert result(section) == {"status": status_of(own["expected"][shown["id"]]), "problems": own["expected"][shown["id"]]}
        expect(section.locator(".checker-case")).to_have_attribute("data-case", shown["id"])
        assert section.locator('button[data-case][aria-pressed="true"]').evaluate_all(
            "bs => bs.map(b => b.dataset.case)") == [shown["id"]]
        assert link_state(desktop) == {"q": shown["q"], "c": str(shown["c"]), **shown["edits"]}
    # Editing on from a case leaves it: no case is shown or pressed.
    section.locator('textarea[name="checker-text"]').fill("Something else entirely.")
    expect(section.locator(".checker-case")).to_have_count(0)
    expect(section.locator('button[data-case][aria-pressed="true"]')).to_have_count(0)


def in_viewport(locator) -> bool:
    box = locator.bounding_box()
    size = locator.page.viewport_size
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= size["height"] + 1  # a pixel for subpixel layout


@pytest.mark.browser
def test_a_case_says_it_moved_the_answer_and_reset_brings_back_the_readers_own_edits(desktop, data):
    """Issue 24's fault: after "A curly apostrophe" then Reset, the reader's refund edits were
    checked against sso-1, and the case's explanation started below the fold at 1280 x 900."""
    section = lab(desktop, "checker")
    section.locator('select[name="checker-q"]').select_option("refund-three-weeks")
    section.locator('textarea[name="checker-quote"]').fill("Paid plans are refundable within 21 days")
    mine = fields(section)
    section.evaluate("s => s.scrollIntoView({block: 'start'})")  # the lab read from its top, as a reader starts it
    section.locator('button[data-case="curly-apostrophe"]').click()
    note, moved = section.locator(".checker-case"), section.locator(".checker-moved")
    expect(note).to_have_attribute("data-case", "curly-apostrophe")
    expect(moved).to_have_text("The case moved the Answer menu to “How do I log in with Okta?” (claim 3), from “Can I get a "
                               "refund after three weeks?” (claim 1). Reset takes you back to your own, with your edits.")
    assert in_viewport(note) and in_viewport(moved), ("the case's explanation is off screen", note.bounding_box(), moved.bounding_box())
    section.get_by_role("button", name="Reset", exact=True).click()
    expect(section.locator('select[name="checker-q"]')).to_have_value("refund-three-weeks")
    expect(section.locator('select[name="checker-c"]')).to_have_value("0")
    assert fields(section) == mine
    expect(moved).to_have_count(0)
    # The reader edits on: checked against the refund answer's passages, not sso-1.
    section.locator('textarea[name="checker-quote"]').fill("Paid plans are refundable within 30 days")
    text_, source, quote = fields(section)
    expected = check_claim(Claim(text_, source, quote), sent_sources(data, "refund-three-weeks")).problems
    assert expected == ["quote not found in source 'refund-new'", "number 14 in the claim is not in the quote"]
    expect(section.locator(".checker-checks .checker-problem")).to_have_text(expected)
    # Reset with no case behind it: the claim as written.
    section.get_by_role("button", name="Reset", exact=True).click()
    claim = next(t for t in data["tracers"] if t["id"] == "refund-three-weeks")["claims"][0]
    assert fields(section) == [claim["text"], claim["source"], claim["quote"]]
    # And the answer read below the checks flags the sample reply's sentence that no claim backs.
    sentence = section.locator('[data-view="answer"] li.answer-sentence', has_text="An older page promising money back")
    expect(sentence.locator(".answer-unbacked")).to_have_text("no claim backs this sentence")
    expect(sentence.locator(".answer-unbacked")).to_be_visible()


@pytest.mark.browser
def test_another_answer_lists_its_claims_and_starts_from_its_first(desktop, data):
    section = lab(desktop, "checker")
    for tracer in data["tracers"]:
        section.locator('select[name="checker-q"]').select_option(tracer["id"])
        options = section.locator('select[name="checker-c"] option').all_inner_texts()
        assert options == [f"{i}. {c['text']}" for i, c in enumerate(tracer["claims"], 1)]
        expect(section.locator('select[name="checker-c"]')).to_have_value("0")
        assert fields(section) == [tracer["claims"][0][k] for k in ("text", "source", "quote")]
        assert link_state(desktop) == {"q": tracer["id"], "c": "0"}, "an unedited claim's link is short"
    last = data["tracers"][-1]
    section.locator('select[name="checker-c"]').select_option(str(len(last["claims"]) - 1))
    assert fields(section) == [last["claims"][-1][k] for k in ("text", "source", "quote")]


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
    claim = next(t for t in data["tracers"] if t["id"] == q)["claims"][0]
    assert result(section)["problems"] == [f"unknown source id '{claim['source']}-2024': it was not sent to the model"]
    assert link_state(desktop)["source"] == f"{claim['source']}-2024"
    # Tab on to the buttons and press Reset with the keyboard, then a case.
    for _ in range(10):
        desktop.keyboard.press("Tab")
        if desktop.evaluate("() => document.activeElement.dataset.action") == "reset":
            break
    else:
        pytest.fail("Tab never reached the Reset button")
    desktop.keyboard.press("Enter")
    expect(section.locator(".lab-status")).to_have_text("Passes every check.")
    expect(source).to_have_value(claim["source"])
    # The cases stand just above the bar: Shift+Tab from its first control reaches the last one.
    section.locator('select[name="checker-q"]').focus()
    desktop.keyboard.press("Shift+Tab")
    first = data["labs"]["checker"]["cases"][-1]
    assert desktop.evaluate("() => document.activeElement.dataset.case") == first["id"]
    desktop.keyboard.press("Space")
    expect(section.locator(f'button[data-case="{first["id"]}"]')).to_have_attribute("aria-pressed", "true")
    expect(section.locator(".checker-case")).to_have_attribute("data-case", first["id"])


@pytest.mark.browser
def test_a_link_restores_the_state_and_its_controls_and_a_later_link_changes_them(make_page, site_url, data):
    tracer = data["tracers"][2]
    claim = tracer["claims"][1]
    page = open_page(make_page, site_url, f"#lab-checker?q={tracer['id']}&c=1&text=Up+to+61+a+minute")
    section = lab(page, "checker")
    expect(section.locator('select[name="checker-q"]')).to_have_value(tracer["id"])
    expect(section.locator('select[name="checker-c"]')).to_have_value("1")
    assert section.locator('select[name="checker-c"] option').count() == len(tracer["claims"])
    expect(section.locator('textarea[name="checker-text"]')).to_have_value("Up to 61 a minute")
    expect(section.locator('input[name="checker-source"]')).to_have_value(claim["source"])
    expected = check_claim(Claim("Up to 61 a minute", claim["source"], claim["quote"]), sent_sources(data, tracer["id"]))
    assert result(section)["problems"] == expected.problems and not expected.ok
    # A case's link, followed on the same page, moves the controls and presses its button.
    shown = next(c for c in data["labs"]["checker"]["cases"] if c["id"] == "dropped-negation")
    page.evaluate("""(hash) => new Promise((done) => {
        addEventListener('hashchange', () => setTimeout(done), {once: true}); location.hash = hash; })""",
                  "#lab-checker?" + urlencode(case_state(shown), quote_via=quote))
    expect(section.locator('select[name="checker-q"]')).to_have_value(shown["q"])
    expect(section.locator('select[name="checker-c"]')).to_have_value(str(shown["c"]))
    assert fields(section)[::2] == [shown["edits"]["text"], shown["edits"]["quote"]]
    expect(section.locator('button[data-case="dropped-negation"]')).to_have_attribute("aria-pressed", "true")
    expect(section.locator(".checker-case .badge-fail")).to_have_text("the claim is false")


@pytest.mark.browser
def test_nothing_sticks_out_on_a_phone_whatever_the_reader_types(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-checker", viewport={"width": 360, "height": 780})
    section = lab(page, "checker")
    section.locator('[name="checker-text"]').fill("x" * 300 + " 14")
    section.locator('[name="checker-source"]').fill("refund-new-" + "y" * 80)
    section.locator('[name="checker-quote"]').fill("z" * 300)
    expect(section.locator(".lab-status")).to_have_text("Fails: 1 problem.")  # no such source: nothing else is run
    assert sticking_out(section) == []
    section.locator('input[name="checker-source"]').fill("refund-new")
    # the quote is one word, it is not in the source, and the number 14 is not in it
    expect(section.locator(".lab-status")).to_have_text("Fails: 3 problems.")
    assert sticking_out(section) == []
    quote = section.locator('textarea[name="checker-quote"]')
    assert quote.evaluate("el => el.scrollHeight <= el.clientHeight + 1"), "the whole quote shows in its box"
    section.locator('button[data-case="dropped-negation"]').click()
    expect(section.locator(".checker-case")).to_be_visible()
    assert sticking_out(section) == []


# The bar's height, whether it sticks, and what of the checks shows under it once the reader has
# scrolled into the lab's output.
BAR_JS = """(section) => {
    const bar = section.querySelector(':scope > .lab-bar').getBoundingClientRect();
    const shown = [...section.querySelectorAll('ul.checker-checks > li')].filter((li) => {
        const r = li.getBoundingClientRect();
        return r.top >= bar.bottom - 1 && r.bottom <= innerHeight + 1;
    });
    return { height: bar.height, top: bar.top, sticky: getComputedStyle(section.querySelector(':scope > .lab-bar')).position,
             checks: shown.length, screen: innerHeight };
}"""


# Scroll the output's top to just under the bar, as the bar stands once stuck.
TO_OUTPUT_JS = """(o) => {
    const bar = o.parentElement.querySelector(':scope > .lab-bar');
    const stuck = parseFloat(getComputedStyle(bar).top);
    window.scrollTo(0, o.getBoundingClientRect().top + scrollY - stuck - bar.getBoundingClientRect().height - 4);
}"""


@pytest.mark.browser
def test_the_bar_is_compact_enough_to_stick_and_leaves_the_checks_in_view(desktop):
    """The editor's bar holds at most a third of a 1280×900 screen and 42% of a 390×844 one, so it
    sticks (the runtime lets a bar taller than 45% scroll with the page: it stood 800 and 967 px
    tall), and scrolled into the output, it stays on top with a check whole under it. The cases
    stand above the bar, not in it."""
    section = lab(desktop, "checker")
    size = desktop.viewport_size
    try:
        for width, height, most in ((1280, 900, 1 / 3), (390, 844, 0.42)):
            desktop.set_viewport_size({"width": width, "height": height})
            section.locator(".lab-output").evaluate(TO_OUTPUT_JS)
            desktop.wait_for_function("() => getComputedStyle(document.querySelector('#lab-checker > .lab-bar')).position === 'sticky'",
                                      timeout=2_000)
            bar = section.evaluate(BAR_JS)
            assert bar["height"] <= most * bar["screen"], (width, bar)
            assert bar["top"] < 60 and bar["checks"] >= 1, (width, bar)
            assert section.locator(":scope > .lab-bar button[data-case]").count() == 0
    finally:
        desktop.set_viewport_size(size)
