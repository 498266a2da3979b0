"""The BM25 explorer (site_src/labs/bm25/): its data step on a hand-made help center (each
term's document frequency and IDF, each result's per-term shares); its view, in Node, for every
preset question, typed golden questions and odd input, scoring exactly as the Python engine
does, and the rules that turn a candidate state (typing, the picker, a link) into the state it
draws; in a real browser, what needs one: typing, the picker, the keyboard, announcements,
shared links, and a phone's width."""

import math
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from site_src.labs.bm25 import data as bm25
from site_src.labs.bm25.data import bm25_explain
from engine.bm25 import BM25, unique_terms
from support.labs import hash_of, lab, open_page
from support.views import markup, text as text_of

ODD_INPUTS = ["", "?!-- ... ---", "x" * 500, ("refund policy " * 40)[:500], "Как экспортировать заметку в PDF?",
              "导出 PDF 文件", "QB-4021 QB-4021 qb 4021", "naïve café Größe", "İstanbul ΣΊΣΥΦΟΣ", "emoji 🙂 test"]
K1, B = 1.2, 0.75


# ------------------------------------------------------------------ the data step

PASSAGES = [{"id": "limit", "text": "QB-4021: file over the limit"},  # qb 4021 file over the limit: 6 terms
            {"id": "sync", "text": "QB sync"},                        # qb sync: 2
            {"id": "files", "text": "Files are big"}]                 # files are big: 3; avgLen (6 + 2 + 3) / 3


def test_explain_gives_each_terms_df_and_idf_and_each_results_shares():
    questions = [{"id": "q", "set": "golden", "text": "QB-4021 file limit"},
                 {"id": "t", "set": "tracer", "text": "qb qb"},
                 {"id": "other", "set": "rewrite", "text": "qb"}]
    runs = {"q": {"bm25": [["limit", 4.5], ["sync", 0.4]]}, "t": {"bm25": [["sync", 0.5], ["limit", 0.4]]}}
    explain = bm25_explain(PASSAGES, questions, runs, depth=1)
    assert set(explain) == {"q", "t"}, "only the questions the build searched for"
    idf = lambda n: math.log(1 + (3 - n + 0.5) / (n + 0.5))  # noqa: E731
    avg = (6 + 2 + 3) / 3
    share = lambda n, length: idf(n) * 1 * (K1 + 1) / (1 + K1 * (1 - B + B * length / avg))  # noqa: E731
    q = explain["q"]
    assert q["terms"] == [{"term": "qb", "df": 2, "idf": pytest.approx(idf(2))},
                          {"term": "4021", "df": 1, "idf": pytest.approx(idf(1))},
                          {"term": "file", "df": 1, "idf": pytest.approx(idf(1))},   # "files" is another word
                          {"term": "limit", "df": 1, "idf": pytest.approx(idf(1))}]
    assert q["matched"] == 2
    assert [r["id"] for r in q["top"]] == ["limit"] and q["top"][0]["score"] == 4.5  # the run's, cut at depth 1
    assert q["top"][0]["terms"] == [["qb", pytest.approx(share(2, 6))], ["4021", pytest.approx(share(1, 6))],
                                    ["file", pytest.approx(share(1, 6))], ["limit", pytest.approx(share(1, 6))]]
    assert explain["t"]["terms"] == [{"term": "qb", "df": 2, "idf": pytest.approx(idf(2))}]  # de-duplicated
    assert explain["t"]["top"][0]["terms"] == [["qb", pytest.approx(share(2, 2))]]


def test_the_data_step_lists_the_depth_and_explains_the_builds_runs():
    build = SimpleNamespace(data={"passages": PASSAGES, "questions": [{"id": "q", "set": "golden", "text": "sync"}],
                                  "runs": {"q": {"bm25": [["sync", 1.0]]}}})
    lab_ = bm25.data(build)
    assert lab_["depth"] == bm25.DEPTH
    assert lab_["explain"]["q"]["top"][0]["id"] == "sync"


def test_the_default_is_a_preset_question_and_the_explanations_stay_out_of_the_browser(data, dist_dir):
    lab_ = data["labs"]["bm25"]
    assert bm25.STATE == {"q": bm25.STATE["q"], "text": ""} and bm25.STATE["q"] in lab_["explain"]
    depth = lab_["depth"]
    for q in data["questions"]:
        assert [r["id"] for r in lab_["explain"][q["id"]]["top"]] == [pid for pid, _ in data["runs"][q["id"]]["bm25"][:depth]]
    bundle = (dist_dir / "assets" / "labs" / "bm25.js").read_text("utf-8")
    assert '"explain"' not in bundle and '"depth"' in bundle


# ------------------------------------------------------------------ the view, in Node


@pytest.fixture(scope="module")
def engine(data):
    """The Python engine over the same passages, with the build's settings: what the view must equal."""
    return BM25([p["text"] for p in data["passages"]], data["settings"]["bm25"]["k1"], data["settings"]["bm25"]["b"])


def presets(data):
    return [q for q in data["questions"] if q["set"] in ("tracer", "golden")]


def golden(data):
    return [q for q in data["questions"] if q["set"] == "golden"]


def question(data, qid):
    return next(q for q in data["questions"] if q["id"] == qid)


def expected_bm25(engine, data, text):
    """Every passage that shares a term with `text`, best first (equal scores in corpus order)."""
    scores = engine.scores(text)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    return [(data["passages"][i]["id"], scores[i], engine.explain(text, i)) for i in order if scores[i] > 0]


def shown(html):
    """What the drawing shows: its rows, the query's terms, the status."""
    drawing = markup(html)
    return {
        "rows": [{"id": li.attributes["data-pid"], "rank": text_of(li.css_first(".rank")), "score": text_of(li.css_first(".score")),
                  "title": text_of(li.css_first(".title")), "answer": "is-answer" in li.attributes["class"].split(),
                  "flag": li.css_first(".flag") is not None,
                  "terms": [text_of(t) for t in li.css("ul.terms li")],
                  "detail": text_of(li.css_first(".detail")) if li.css_first(".detail") else None}
                 for li in drawing.css("ol.bm25-results li.result")],
        "terms": [text_of(t) for t in drawing.css(".query-terms li")],
        "zero": [t.attributes.get("class") == "is-zero" for t in drawing.css(".query-terms li")],
        "status": text_of(drawing.css_first(".lab-status")),
    }


def check_drawing(drawing, engine, data, text, q=None):
    """A drawing against the Python engine (and, for a preset question, the build's runs)."""
    depth = data["labs"]["bm25"]["depth"]
    found = expected_bm25(engine, data, text)
    expected = found[:depth]
    got = shown(drawing.html)
    passages = {p["id"]: p for p in data["passages"]}
    assert [r["id"] for r in got["rows"]] == [pid for pid, _, _ in expected]
    for row, (pid, score, parts) in zip(got["rows"], expected):
        assert row["score"] == f"{score:.3f}"
        assert row["terms"] == [f"{c.term} +{c.score:.3f}" for c in parts if c.score > 0]
        assert row["title"] == f"{passages[pid]['title']} › {passages[pid]['section']}"
    assert [r["rank"] for r in got["rows"]] == [str(i) for i in range(1, len(expected) + 1)]
    terms = unique_terms(text)
    assert got["terms"] == ([f"{t} in {engine.doc_freq(t)} · IDF {engine.idf(t):.3f}" if engine.doc_freq(t)
                             else f"{t} in no passage" for t in terms] or ["no terms: BM25 needs letters or digits"])
    assert got["zero"] == ([not engine.doc_freq(t) for t in terms] or [True])
    n = len(data["passages"])
    status = (f"{len(found)} of {n} passages share a term with the query; "
              + (f"the best {len(expected)} below." if found else "BM25 has nothing to rank."))
    if q is None:
        assert got["status"] == status
        assert all(r["detail"] is None and not r["answer"] and not r["flag"] for r in got["rows"])
        return
    answer = q["answer"]
    run = data["runs"][q["id"]]
    # The view's ranking equals the build's, score for score (as the data stores them).
    assert [(pid, round(s, 6)) for pid, s, _ in expected] == [tuple(p) for p in run["bm25"][:depth]]
    dense = [pid for pid, _ in run["dense"]]
    cosine = dict(map(tuple, run["dense"]))
    for row in got["rows"]:
        assert row["detail"] == f"dense search: rank {dense.index(row['id']) + 1}, cosine {cosine[row['id']]:.3f}"
        assert row["answer"] == row["flag"] == (row["id"] == answer)
    bm25_rank = next((i for i, (pid, _, _) in enumerate(found, 1) if pid == answer), None)
    assert got["status"] == (f"{status} The right passage, {answer}, is at BM25 rank {bm25_rank or 'none'} "
                             f"and dense rank {dense.index(answer) + 1}.")
    assert drawing.summary == got["status"]


def test_every_preset_question_is_drawn_as_python_scores_it(views, data, engine):
    questions = presets(data)
    for q, drawing in zip(questions, views.draw_many("bm25", [{"q": q["id"], "text": ""} for q in questions])):
        assert drawing.state == {"q": q["id"], "text": ""}
        check_drawing(drawing, engine, data, q["text"], q)


def test_typed_golden_questions_become_those_questions_and_odd_inputs_score_like_python(views, data, engine):
    typed = [{"q": "", "text": q["text"], "typed": True} for q in golden(data)]
    for q, drawing in zip(golden(data), views.draw_many("bm25", typed)):
        assert drawing.state == {"q": q["id"], "text": ""}
        check_drawing(drawing, engine, data, q["text"], q)
    odd = [{"q": "", "text": text, "typed": True} for text in ODD_INPUTS]
    for text, drawing in zip(ODD_INPUTS, views.draw_many("bm25", odd)):
        assert drawing.state == {"q": "", "text": text}
        check_drawing(drawing, engine, data, text)


def test_a_question_in_other_case_and_spacing_is_that_question_kept_as_typed(views, data, engine):
    q = golden(data)[0]
    typed = f"  {q['text'].upper()} "
    drawing = views.draw("bm25", {"q": "", "text": typed, "typed": True})
    assert drawing.state == {"q": q["id"], "text": typed}
    check_drawing(drawing, engine, data, q["text"], q)


CANDIDATES = [
    # (candidate state, the state drawn): typing, the picker, links
    ({"q": "g05", "text": "refund", "typed": True}, {"q": "", "text": "refund"}),       # typed over a question
    ({"q": "upload-4021", "text": "refund"}, {"q": "", "text": "refund"}),              # a link naming text only
    ({"q": "", "text": "refund"}, {"q": "", "text": "refund"}),                         # your own words
    ({"q": "", "text": "What does QB-4021 mean?"}, {"q": "", "text": "What does QB-4021 mean?"}),  # kept, to edit
    ({"q": "g05", "text": ""}, {"q": "g05", "text": ""}),                               # a question
    ({"q": "g01", "text": "what  does qb-4021 MEAN?"}, {"q": "g01", "text": "what  does qb-4021 MEAN?"}),
    ({"q": "g01", "text": "What does QB-4021 mean?"}, {"q": "g01", "text": ""}),        # its own text: not repeated
    ({"q": "", "text": ""}, {"q": "", "text": ""}),                                     # an emptied box
]


@pytest.mark.parametrize("candidate, accepted", CANDIDATES, ids=lambda c: repr(c)[:60])
def test_a_candidate_state_becomes_the_state_drawn(views, data, candidate, accepted):
    assert question(data, "g01")["text"] == "What does QB-4021 mean?"  # the cases above use its text
    assert views.draw("bm25", candidate).state == accepted


def test_the_view_refuses_a_question_nobody_searched(views):
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("bm25", {"q": "no-such-question", "text": ""})


# ------------------------------------------------------------------ in the browser


def shown_in(section):
    """The section's output, drawn as the view draws it: markup for shown()."""
    return SimpleNamespace(html=section.locator(".lab-output").inner_html(),
                           summary=section.locator(".lab-status").text_content())


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-bm25")


@pytest.mark.browser
def test_the_picker_shows_a_question_its_text_and_its_link(desktop, data, engine):
    section = lab(desktop, "bm25")
    select = section.locator('select[data-picker="question"]')
    for q in presets(data)[:4]:
        select.select_option(q["id"])
        expect(section.locator('input[name="bm25-text"]')).to_have_value(q["text"])
        check_drawing(shown_in(section), engine, data, q["text"], q)
        assert hash_of(desktop) == f"#lab-bm25?q={q['id']}"


@pytest.mark.browser
def test_results_follow_every_keystroke_and_the_picker_works_by_keyboard(desktop, data, engine):
    section = lab(desktop, "bm25")
    box = section.locator('input[name="bm25-text"]')
    select = section.locator('select[data-picker="question"]')
    box.fill("")
    box.press_sequentially("refund")
    expect(select).to_have_value("")
    check_drawing(shown_in(section), engine, data, "refund")
    box.press_sequentially("able plan")
    check_drawing(shown_in(section), engine, data, "refundable plan")
    assert hash_of(desktop) == "#lab-bm25?text=refundable plan"
    q = golden(data)[2]
    box.fill(q["text"])
    expect(select).to_have_value(q["id"])
    check_drawing(shown_in(section), engine, data, q["text"], q)
    select.select_option("")
    select.focus()
    desktop.keyboard.press("ArrowDown")  # from "your own words" to the first preset question
    first = next(q for q in data["questions"] if q["set"] == "tracer")
    expect(select).to_have_value(first["id"])
    expect(box).to_have_value(first["text"])
    check_drawing(shown_in(section), engine, data, first["text"], first)


@pytest.mark.browser
def test_typed_text_is_kept_as_typed_and_your_own_words_keep_the_questions_text(desktop, data, engine):
    section = lab(desktop, "bm25")
    box = section.locator('input[name="bm25-text"]')
    select = section.locator('select[data-picker="question"]')
    q = golden(data)[0]
    box.fill(f"  {q['text'].upper()} ")  # the question in other case and spacing is that question
    expect(select).to_have_value(q["id"])
    expect(box).to_have_value(f"  {q['text'].upper()} ")
    check_drawing(shown_in(section), engine, data, q["text"], q)
    box.fill("")  # emptied (as the search box's clear button does): stays empty
    expect(box).to_have_value("")
    check_drawing(shown_in(section), engine, data, "")
    select.select_option(q["id"])
    expect(box).to_have_value(q["text"])
    select.select_option("")  # "your own words": the question's text stays, to edit
    expect(box).to_have_value(q["text"])
    check_drawing(shown_in(section), engine, data, q["text"])
    assert hash_of(desktop) == f"#lab-bm25?text={q['text']}"
    box.fill("refund")
    select.select_option(q["id"])  # a question picked over typed text replaces it
    expect(box).to_have_value(q["text"])
    check_drawing(shown_in(section), engine, data, q["text"], q)


@pytest.mark.browser
def test_typing_is_announced_once_the_reader_pauses(desktop, data):
    section = lab(desktop, "bm25")
    section.locator('select[data-picker="question"]').select_option(golden(data)[1]["id"])
    box = section.locator('input[name="bm25-text"]')
    box.fill("refund window")
    status = section.locator(".lab-status")
    region = desktop.locator("#rag-status")
    desktop.wait_for_timeout(200)
    assert region.text_content() != status.text_content(), "not on every key"
    expect(region).to_have_text(status.text_content(), timeout=2000)


@pytest.mark.browser
def test_a_shared_link_restores_typed_text_or_a_question(make_page, site_url, data, engine):
    page = open_page(make_page, site_url, "#lab-bm25?text=" + "QB-4290%20rate%20limit")
    section = lab(page, "bm25")
    expect(section.locator('input[name="bm25-text"]')).to_have_value("QB-4290 rate limit")
    expect(section.locator('select[data-picker="question"]')).to_have_value("")
    check_drawing(shown_in(section), engine, data, "QB-4290 rate limit")
    q = question(data, "g30")
    page.evaluate("() => { location.hash = '#lab-bm25?q=g30'; }")  # a link followed on the open page
    expect(section.locator('select[data-picker="question"]')).to_have_value("g30")
    expect(section.locator('input[name="bm25-text"]')).to_have_value(q["text"])
    check_drawing(shown_in(section), engine, data, q["text"], q)
    page.evaluate("() => { location.hash = '#lab-bm25?text=refund'; }")  # text, while a question is shown
    expect(section.locator('select[data-picker="question"]')).to_have_value("")
    expect(section.locator('input[name="bm25-text"]')).to_have_value("refund")
    check_drawing(shown_in(section), engine, data, "refund")
    page.evaluate("() => { location.hash = '#lab-bm25?text=REFUND'; }")  # the same drawing, other text
    expect(section.locator('input[name="bm25-text"]')).to_have_value("REFUND")
    other = open_page(make_page, site_url, "#lab-bm25?q=g30")
    expect(lab(other, "bm25").locator('input[name="bm25-text"]')).to_have_value(q["text"])


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_nothing_sticks_out_at_360px_even_for_a_500_letter_word(make_page, site_url, javascript):
    page = open_page(make_page, site_url, "#lab-bm25", viewport={"width": 360, "height": 780},
                     java_script_enabled=javascript)
    section = lab(page, "bm25")
    if javascript:
        section.locator('input[name="bm25-text"]').fill("x" * 500 + " refund")
        expect(section.locator(".query-terms li").first).to_contain_text("x" * 500)
    wide = section.evaluate("""s => [...s.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > innerWidth + 1)
        .slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + el.className)""")
    assert wide == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
