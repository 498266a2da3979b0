"""The BM25 explorer (site_src/labs/bm25/): its data step on a hand-made
help center (each term's document frequency and IDF, each result's per-term shares), and in a
real browser BM25 run live on every preset question, on typed golden questions and on odd
input, scoring exactly as the Python engine does; typing, the picker, the keyboard and shared
links; and the template's drawing of a preset question equal to the script's."""

import math
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from site_src.labs.bm25 import data as bm25
from site_src.labs.bm25.data import bm25_explain
from builder.page.facts import Facts
from builder.page.render import render_lab
from engine.bm25 import BM25, unique_terms
from support.labs import drawn, hash_of, lab, open_page, outline

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
    lab = bm25.data(build)
    assert lab["depth"] == bm25.DEPTH
    assert lab["explain"]["q"]["top"][0]["id"] == "sync"


def test_the_default_is_a_preset_question_and_the_explanations_stay_out_of_the_browser(data, dist_dir):
    lab = data["labs"]["bm25"]
    assert bm25.STATE == {"q": bm25.STATE["q"], "text": ""} and bm25.STATE["q"] in lab["explain"]
    depth = lab["depth"]
    for q in data["questions"]:
        assert [r["id"] for r in lab["explain"][q["id"]]["top"]] == [pid for pid, _ in data["runs"][q["id"]]["bm25"][:depth]]
    bundle = (dist_dir / "assets" / "labs" / "bm25.js").read_text("utf-8")
    assert '"explain"' not in bundle and '"depth"' in bundle


# ------------------------------------------------------------------ in the browser


@pytest.fixture(scope="module")
def engine(data):
    """The Python engine over the same passages: what the browser must equal."""
    return BM25([p["text"] for p in data["passages"]], data["settings"]["bm25"]["k1"], data["settings"]["bm25"]["b"])


def presets(data):
    return [q for q in data["questions"] if q["set"] in ("tracer", "golden")]


def golden(data):
    return [q for q in data["questions"] if q["set"] == "golden"]


def expected_bm25(engine, data, text):
    scores = engine.scores(text)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    return [(data["passages"][i]["id"], scores[i], engine.explain(text, i)) for i in order if scores[i] > 0]


def shown_bm25(section):
    return section.evaluate("""s => ({
        rows: [...s.querySelectorAll('ol.bm25-results li.result')].map(li => ({
            id: li.dataset.pid, score: li.querySelector('.score').textContent,
            rank: li.querySelector('.rank').textContent, answer: li.classList.contains('is-answer'),
            terms: [...li.querySelectorAll('ul.terms li')].map(t => t.textContent),
            detail: li.querySelector('.detail') ? li.querySelector('.detail').textContent : null})),
        terms: [...s.querySelectorAll('.query-terms li')].map(t => t.textContent),
        status: s.querySelector('.lab-status').textContent,
        results: RAG.labContext('bm25').results,
    })""")


def check_bm25(section, engine, data, text, q=None):
    depth = data["labs"]["bm25"]["depth"]
    found = expected_bm25(engine, data, text)
    expected = found[:depth]
    shown = shown_bm25(section)
    # Every passage the browser's BM25 found, in order, with its exact score.
    assert [pid for pid, _ in shown["results"]] == [pid for pid, _, _ in found]
    for (pid, score), (_, want, _) in zip(shown["results"], found):
        assert score == pytest.approx(want, rel=1e-12, abs=1e-12), pid
    assert [r["id"] for r in shown["rows"]] == [pid for pid, _, _ in expected]
    for row, (pid, score, parts) in zip(shown["rows"], expected):
        assert row["score"] == f"{score:.3f}"
        assert row["terms"] == [f"{c.term} +{c.score:.3f}" for c in parts if c.score > 0]
    assert [r["rank"] for r in shown["rows"]] == [str(i) for i in range(1, len(expected) + 1)]
    terms = unique_terms(text)
    assert shown["terms"] == ([f"{t} in {engine.doc_freq(t)} · IDF {engine.idf(t):.3f}" if engine.doc_freq(t)
                               else f"{t} in no passage" for t in terms] or ["no terms: BM25 needs letters or digits"])
    n = len(data["passages"])
    assert shown["status"].startswith(f"{len(found)} of {n} passages share a term with the query; " +
                                      (f"the best {len(expected)} below." if found else "BM25 has nothing to rank."))
    if q is not None:
        answer = q["answer"]
        run = data["runs"][q["id"]]
        # The browser's ranking equals the build's, score for score (rounded as stored).
        assert [(pid, round(s, 6)) for pid, s, _ in expected] == [tuple(p) for p in run["bm25"][:depth]]
        dense = [pid for pid, _ in run["dense"]]
        cosine = dict(map(tuple, run["dense"]))
        for row in shown["rows"]:
            assert row["detail"] == f"dense search: rank {dense.index(row['id']) + 1}, cosine {cosine[row['id']]:.3f}"
            assert row["answer"] == (row["id"] == answer)
        bm25_rank = next((i for i, (pid, _) in enumerate(run["bm25"], 1) if pid == answer), None)
        assert shown["status"].endswith(f" The right passage, {answer}, is at BM25 rank {bm25_rank or 'none'} "
                                        f"and dense rank {dense.index(answer) + 1}.")
    else:
        assert all(r["detail"] is None and not r["answer"] for r in shown["rows"])
        assert "right passage" not in shown["status"]


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-bm25")


def template_drawing(page, data, q):
    """What lab.html draws for a preset question, in a page of its own."""
    page.set_content(render_lab("bm25", Facts(data).namespace(), {"q": q}))
    return drawn(page.locator("section.lab"))


@pytest.mark.browser
def test_every_preset_question_scores_as_python_and_as_the_template_drew_it(desktop, data, engine, make_page_module):
    section = lab(desktop, "bm25")
    blank = make_page_module()
    select = section.locator('select[data-picker="question"]')
    for q in presets(data):
        select.select_option(q["id"])
        expect(section.locator('input[name="bm25-text"]')).to_have_value(q["text"])
        check_bm25(section, engine, data, q["text"], q)
        assert hash_of(desktop) == f"#lab-bm25?q={q['id']}"
        script, template = drawn(section)[1:], template_drawing(blank, data, q["id"])[1:]
        assert script == template, "\n".join(outline(["section", *template]))


@pytest.mark.browser
def test_typed_golden_questions_and_odd_inputs_score_like_python(desktop, data, engine):
    section = lab(desktop, "bm25")
    box = section.locator('input[name="bm25-text"]')
    select = section.locator('select[data-picker="question"]')
    for q in golden(data):
        box.fill(q["text"])
        expect(select).to_have_value(q["id"])
        check_bm25(section, engine, data, q["text"], q)
    for text in ODD_INPUTS:
        box.fill(text)
        expect(select).to_have_value("")
        check_bm25(section, engine, data, text)
    assert box.input_value() == ODD_INPUTS[-1]


@pytest.mark.browser
def test_results_follow_every_keystroke_and_the_picker_works_by_keyboard(desktop, data, engine):
    section = lab(desktop, "bm25")
    box = section.locator('input[name="bm25-text"]')
    box.fill("")
    box.press_sequentially("refund")
    check_bm25(section, engine, data, "refund")
    box.press_sequentially("able plan")
    check_bm25(section, engine, data, "refundable plan")
    assert hash_of(desktop) == "#lab-bm25?text=refundable plan"
    select = section.locator('select[data-picker="question"]')
    select.focus()
    desktop.keyboard.press("ArrowDown")  # from "your own words" to the first preset question
    first = next(q for q in data["questions"] if q["set"] == "tracer")
    expect(select).to_have_value(first["id"])
    check_bm25(section, engine, data, first["text"], first)


@pytest.mark.browser
def test_typed_text_is_kept_as_typed_and_your_own_words_keep_the_questions_text(desktop, data, engine):
    section = lab(desktop, "bm25")
    box = section.locator('input[name="bm25-text"]')
    select = section.locator('select[data-picker="question"]')
    q = golden(data)[0]
    box.fill(f"  {q['text'].upper()} ")  # the question in other case and spacing is that question
    expect(select).to_have_value(q["id"])
    expect(box).to_have_value(f"  {q['text'].upper()} ")
    check_bm25(section, engine, data, q["text"], q)
    box.fill("")  # emptied (as the search box's clear button does): stays empty
    expect(box).to_have_value("")
    check_bm25(section, engine, data, "")
    select.select_option(q["id"])
    select.select_option("")  # "your own words": the question's text stays, to edit
    expect(box).to_have_value(q["text"])
    check_bm25(section, engine, data, q["text"])
    assert hash_of(desktop) == f"#lab-bm25?text={q['text']}"


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
    check_bm25(section, engine, data, "QB-4290 rate limit")
    q = next(q for q in data["questions"] if q["id"] == "g30")
    page.evaluate("() => { location.hash = '#lab-bm25?q=g30'; }")  # a link followed on the open page
    expect(section.locator('select[data-picker="question"]')).to_have_value("g30")
    check_bm25(section, engine, data, q["text"], q)
    page.evaluate("() => { location.hash = '#lab-bm25?text=refund'; }")  # text, while a question is shown
    expect(section.locator('select[data-picker="question"]')).to_have_value("")
    check_bm25(section, engine, data, "refund")
    other = open_page(make_page, site_url, "#lab-bm25?q=g30")
    check_bm25(lab(other, "bm25"), engine, data, q["text"], q)


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
