"""The labs of sections 4-6 in a real browser: the chunking lab, the BM25 explorer, who wins
where, the hybrid explorer and the rerank lab. Every number they show is compared with the
build's data (dist/data/rag.json) or, for text the reader types, with the Python engine
itself; every lab is driven by mouse and by keyboard, and restored from a shared link."""

import json

import pytest
from playwright.sync_api import expect

from harness import SCREENSHOTS
from labs import axe_on_sections, lab, open_page
from engine.bm25 import BM25, unique_terms

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 780}}
MY_SECTIONS = ("chunking", "dense-sparse", "hybrid")
MY_LABS = ("chunking", "bm25", "winners", "hybrid", "rerank")
ODD_INPUTS = ["", "?!-- ... ---", "x" * 500, ("refund policy " * 40)[:500], "Как экспортировать заметку в PDF?",
              "导出 PDF 文件", "QB-4021 QB-4021 qb 4021", "naïve café Größe", "İstanbul ΣΊΣΥΦΟΣ", "emoji 🙂 test"]


@pytest.fixture(scope="module")
def data(dist_dir):
    return json.loads((dist_dir / "data" / "rag.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def engine(data):
    """The Python engine over the same passages: what the browser must equal."""
    return BM25([p["text"] for p in data["passages"]], data["settings"]["bm25"]["k1"], data["settings"]["bm25"]["b"])




def hash_of(page):
    return page.evaluate("() => decodeURIComponent(location.hash.replace(/\\+/g, ' '))")


def golden(data):
    return [q for q in data["questions"] if q["set"] == "golden"]


def presets(data):
    return [q for q in data["questions"] if q["set"] in ("tracer", "golden")]


# ------------------------------------------------------------------ chunking


def shown_chunks(section):
    return section.evaluate("""s => ({
        chunks: [...s.querySelectorAll('ol.chunk-results li.result')].map(li => ({
            index: Number(li.dataset.chunk), rank: li.querySelector('.rank').textContent.trim(),
            score: li.querySelector('.score').textContent.trim(), words: li.querySelector('.pid .title').textContent,
            badges: [...li.querySelectorAll('.badges .badge')].map(b => b.textContent.trim()),
            marks: [...li.querySelectorAll('mark.fact')].map(m => m.textContent),
            text: li.querySelector('.chunk-text').textContent,
            winner: li.classList.contains('is-winner'), answer: li.classList.contains('is-answer')})),
        lessons: [...s.querySelectorAll('.lab-lesson')].filter(p => !p.hidden).map(p => p.dataset.setting + '/' + p.dataset.q),
        status: s.querySelector('.lab-status').textContent,
        question: s.querySelector('.lab-question-text').textContent,
    })""")


def check_chunking(section, data, setting_id, qid):
    setting = next(s for s in data["chunking"]["settings"] if s["id"] == setting_id)
    outcome = data["chunk_outcomes"][setting_id][qid]
    facts = data["chunking"]["facts"]
    shown = shown_chunks(section)
    order = sorted(range(len(setting["chunks"])), key=lambda i: setting["chunks"][i]["ranks"][qid])
    assert [c["index"] for c in shown["chunks"]] == order
    for row in shown["chunks"]:
        chunk = setting["chunks"][row["index"]]
        assert row["rank"] == str(chunk["ranks"][qid])
        assert row["score"] == f"{chunk['scores'][qid]:.3f}"
        assert row["words"] == f"{chunk['words']} words"
        assert row["text"] == chunk["text"]
        held = [("tempting: " if name == "tempting" else "") + facts[name] for name in facts if name in chunk["facts"]]
        assert [b for b in row["badges"] if b not in ("ranked first", "answers it")] == (held or ["no key fact"])
        assert {m.lower() for m in row["marks"]} == {facts[name].lower() for name in chunk["facts"]}
        assert row["winner"] == (chunk["ranks"][qid] == 1) == ("ranked first" in row["badges"])
        answers = all(f in chunk["facts"] for f in outcome["needs"])
        assert row["answer"] == answers == ("answers it" in row["badges"])
    assert shown["lessons"] == [f"{setting_id}/{qid}"]
    summary = data["chunk_outcomes"][setting_id]
    assert shown["status"].startswith(f"{setting['label']}: {summary['n_chunks']} chunk")
    assert shown["question"] == next(q["text"] for q in data["chunking"]["questions"] if q["id"] == qid)


def test_chunking_lab_shows_the_data_for_every_setting_and_question_by_mouse(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "chunking")
    for question in data["chunking"]["questions"]:
        section.locator(f'fieldset:has(input[name="chunking-question"]) label:has(input[value="{question["id"]}"])').click()
        for setting in data["chunking"]["settings"]:
            section.locator(f'label:has(input[value="{setting["id"]}"])').click()
            check_chunking(section, data, setting["id"], question["id"])
            assert hash_of(page) == f"#lab-chunking?setting={setting['id']}&q={question['id']}"


def test_chunking_lab_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    settings = [s["id"] for s in data["chunking"]["settings"]]
    page = open_page(make_page, site_url, f"#lab-chunking?setting={settings[3]}&q=q2")
    section = lab(page, "chunking")
    expect(section.locator(f'input[value="{settings[3]}"]')).to_be_checked()
    check_chunking(section, data, settings[3], "q2")
    section.locator(f'input[value="{settings[3]}"]').focus()
    page.keyboard.press("ArrowRight")
    expect(section.locator(f'input[value="{settings[4]}"]')).to_be_checked()
    check_chunking(section, data, settings[4], "q2")
    page.keyboard.press("Tab")  # into the question group, at its checked radio
    expect(section.locator('input[value="q2"]')).to_be_focused()
    page.keyboard.press("ArrowLeft")
    check_chunking(section, data, settings[4], "q1")
    assert hash_of(page) == f"#lab-chunking?setting={settings[4]}&q=q1"
    # A link that names nothing known keeps the default.
    other = open_page(make_page, site_url, "#lab-chunking?setting=nonsense&q=q9")
    check_chunking(lab(other, "chunking"), data, "fixed-25", "q1")


def test_every_lesson_is_a_checked_claim(make_page, site_url, data):
    page = open_page(make_page, site_url)
    lessons = page.locator("#lab-chunking .lab-lesson")
    expect(lessons).to_have_count(len(data["chunking"]["settings"]) * len(data["chunking"]["questions"]))
    for lesson in lessons.all():
        expect(lesson.locator("span.claim")).to_have_count(1)


# ------------------------------------------------------------------ BM25 explorer


def expected_bm25(engine, data, text, depth):
    scores = engine.scores(text)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    found = [i for i in order if scores[i] > 0]
    return found, [(data["passages"][i]["id"], scores[i], engine.explain(text, i)) for i in found[:depth]]


def shown_bm25(section):
    return section.evaluate("""s => ({
        rows: [...s.querySelectorAll('ol.bm25-results li.result')].map(li => ({
            id: li.dataset.pid, exact: Number(li.dataset.score), score: li.querySelector('.score').textContent,
            rank: li.querySelector('.rank').textContent, answer: li.classList.contains('is-answer'),
            terms: [...li.querySelectorAll('ul.terms li')].map(t => t.textContent),
            detail: li.querySelector('.detail') ? li.querySelector('.detail').textContent : null})),
        terms: [...s.querySelectorAll('.query-terms li')].map(t => t.textContent),
        status: s.querySelector('.lab-status').textContent,
    })""")


def check_bm25(section, engine, data, text, q=None):
    depth = data["retrieval_view"]["explain_depth"]
    found, expected = expected_bm25(engine, data, text, depth)
    shown = shown_bm25(section)
    assert [r["id"] for r in shown["rows"]] == [pid for pid, _, _ in expected]
    for row, (pid, score, parts) in zip(shown["rows"], expected):
        assert row["exact"] == pytest.approx(score, rel=1e-12, abs=1e-12), pid
        assert row["score"] == f"{score:.3f}"
        assert row["terms"] == [f"{c.term} +{c.score:.3f}" for c in parts if c.score > 0]
    assert [r["rank"] for r in shown["rows"]] == [str(i) for i in range(1, len(expected) + 1)]
    terms = unique_terms(text)
    assert shown["terms"] == ([f"{t} in {engine.doc_freq(t)} · IDF {engine.idf(t):.3f}" if engine.doc_freq(t)
                               else f"{t} in no passage" for t in terms] or ["no terms: BM25 needs letters or digits"])
    assert shown["status"].startswith(f"{len(found)} of {len(data['passages'])} passages share a term")
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
        assert f"is at BM25 rank {bm25_rank or 'none'} and dense rank {dense.index(answer) + 1}." in shown["status"]
    else:
        assert all(r["detail"] is None and not r["answer"] for r in shown["rows"])


def test_bm25_explorer_equals_python_for_every_preset_question(make_page, site_url, data, engine):
    page = open_page(make_page, site_url)
    section = lab(page, "bm25")
    select = section.locator('select[name="bm25-question"]')
    for q in presets(data):
        select.select_option(q["id"])
        expect(section.locator('input[name="bm25-text"]')).to_have_value(q["text"])
        check_bm25(section, engine, data, q["text"], q)
        assert hash_of(page) == f"#lab-bm25?q={q['id']}"


def test_typed_golden_questions_and_odd_inputs_score_like_python(make_page, site_url, data, engine):
    page = open_page(make_page, site_url)
    section = lab(page, "bm25")
    box = section.locator('input[name="bm25-text"]')
    for q in golden(data):
        box.fill(q["text"])
        check_bm25(section, engine, data, q["text"], q)
    for text in ODD_INPUTS:
        box.fill(text)
        expect(section.locator('select[name="bm25-question"]')).to_have_value("")
        check_bm25(section, engine, data, text)
    assert len(box.input_value()) == len(ODD_INPUTS[-1])


def test_bm25_explorer_updates_as_you_type_and_by_keyboard(make_page, site_url, data, engine):
    page = open_page(make_page, site_url)
    section = lab(page, "bm25")
    box = section.locator('input[name="bm25-text"]')
    box.fill("")
    box.press_sequentially("refund")
    check_bm25(section, engine, data, "refund")
    box.press_sequentially("able plan")
    check_bm25(section, engine, data, "refundable plan")
    assert hash_of(page) == "#lab-bm25?text=refundable plan"
    select = section.locator('select[name="bm25-question"]')
    select.focus()
    page.keyboard.press("ArrowDown")  # the first preset question
    first = next(q for q in data["questions"] if q["set"] == "tracer")
    expect(select).to_have_value(first["id"])
    check_bm25(section, engine, data, first["text"], first)


def test_bm25_explorer_from_a_shared_link(make_page, site_url, data, engine):
    page = open_page(make_page, site_url, "#lab-bm25?text=" + "QB-4290%20rate%20limit")
    check_bm25(lab(page, "bm25"), engine, data, "QB-4290 rate limit")
    page = open_page(make_page, site_url, "#lab-bm25?q=g30")
    check_bm25(lab(page, "bm25"), engine, data, next(q for q in data["questions"] if q["id"] == "g30")["text"],
               next(q for q in data["questions"] if q["id"] == "g30"))


# ------------------------------------------------------------------ who wins where


def shown_winners(section):
    return section.evaluate("""s => [...s.querySelectorAll('tbody tr')].map(tr => ({
        id: tr.dataset.qid, dense: tr.cells[1].textContent, bm25: tr.cells[2].textContent,
        winner: tr.cells[3].textContent, paraphrase: !!tr.querySelector('.badge-paraphrase'),
        marked: [...tr.querySelectorAll('td.is-winner')].map(td => td.cellIndex)}))""")


def check_winners(section, data, sort="id", direction="asc", show="all"):
    rows = [r for r in data["who_wins"]["rows"] if show == "all" or r["paraphrase"] == (show == "paraphrase")]
    big = float("inf")
    key = {"id": lambda r: 0, "dense": lambda r: r["dense"] or big, "bm25": lambda r: r["bm25"] or big,
           "winner": lambda r: {"dense": 0, "bm25": 1, "tie": 2}[r["winner"]]}[sort]
    ordered = sorted(rows, key=key, reverse=direction == "desc")
    if direction == "desc":  # the lab keeps equal keys in reverse golden order, like reverse=True on a stable sort
        ordered = sorted(rows[::-1], key=key, reverse=True)
    shown = shown_winners(section)
    assert [r["id"] for r in shown] == [r["id"] for r in ordered]
    names = {"dense": "dense", "bm25": "BM25", "tie": "tie"}
    for got, want in zip(shown, ordered):
        ranks = data["ranks"][want["id"]]
        assert got["dense"] == str(ranks["dense"] or "not found") and got["bm25"] == str(ranks["bm25"] or "not found")
        assert got["winner"] == names[want["winner"]]
        assert got["paraphrase"] == next(q["paraphrase"] for q in data["questions"] if q["id"] == want["id"])
        assert got["marked"] == {"dense": [1], "bm25": [2], "tie": []}[want["winner"]]
    counts = data["who_wins"]["counts"][show]
    status = section.locator(".lab-status").text_content()
    assert status.startswith(f"{counts['total']} ")
    assert (f"higher on {counts['dense']}, BM25 on {counts['bm25']}, and both give it the same rank on "
            f"{counts['tie']} ({counts['both_first']} of them at rank 1).") in status
    header = section.locator(f'th[data-sort="{sort}"]')
    expect(header).to_have_attribute("aria-sort", "ascending" if direction == "asc" else "descending")
    expect(section.locator("th[aria-sort]")).to_have_count(1)


def test_winners_table_equals_the_data_sorted_and_filtered_by_mouse(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "winners")
    check_winners(section, data)
    for column in ("dense", "bm25", "winner"):
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "asc")
        section.locator(f'th[data-sort="{column}"] button').click()
        check_winners(section, data, column, "desc")
    for show in ("paraphrase", "literal", "all"):
        section.locator(f'label:has(input[name="winners-show"][value="{show}"])').click()
        check_winners(section, data, "winner", "desc", show)
    assert hash_of(page) == "#lab-winners?sort=winner&dir=desc&show=all"


def test_winners_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-winners?sort=bm25&dir=desc&show=paraphrase")
    section = lab(page, "winners")
    check_winners(section, data, "bm25", "desc", "paraphrase")
    section.locator('input[name="winners-show"][value="paraphrase"]').focus()
    page.keyboard.press("ArrowRight")
    check_winners(section, data, "bm25", "desc", "literal")
    page.keyboard.press("Tab")  # the first sort button
    expect(section.locator('th[data-sort="id"] button')).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    check_winners(section, data, "dense", "asc", "literal")
    page.keyboard.press("Space")
    check_winners(section, data, "dense", "desc", "literal")


# ------------------------------------------------------------------ hybrid explorer


def shown_hybrid(section):
    return section.evaluate("""s => Object.fromEntries([...s.querySelectorAll('.lab-col[data-list]')].map(col => [
        col.dataset.list, [...col.querySelectorAll('li.result[data-pid]')].map(li => ({
            id: li.dataset.pid, rank: li.querySelector('.rank').textContent, score: li.querySelector('.score').textContent,
            detail: li.querySelector('.detail') ? li.querySelector('.detail').textContent : null,
            answer: li.classList.contains('is-answer')}))]))""")


def check_hybrid(section, data, q):
    depth = data["settings"]["hybrid_depth"]
    run = data["runs"][q["id"]]
    shown = shown_hybrid(section)
    fused_ids = [pid for pid, _ in run["hybrid"]]
    tops = {name: [pid for pid, _ in run[name][:depth]] for name in ("dense", "bm25")}
    for name, digits in (("dense", 3), ("bm25", 3), ("hybrid", 5)):
        want = run[name][:depth]
        got = shown[name]
        assert [r["id"] for r in got] == [pid for pid, _ in want], name
        assert [r["score"] for r in got] == [f"{score:.{digits}f}" for _, score in want], name
        assert [r["rank"] for r in got] == [str(i) for i in range(1, len(want) + 1)]
        assert [r["answer"] for r in got] == [pid == q["answer"] for pid, _ in want]
        for r in got:
            if name == "hybrid":
                parts = [f"{label} {tops[key].index(r['id']) + 1}" for key, label in (("dense", "dense"), ("bm25", "BM25"))
                         if r["id"] in tops[key]]
                assert r["detail"] == "from " + " + ".join(parts)
            else:
                assert r["detail"] == f"fused rank {fused_ids.index(r['id']) + 1}"
    status = section.locator(".lab-status").text_content()
    ranks = [next((i for i, (pid, _) in enumerate(run[n], 1) if pid == q["answer"]), None) for n in ("dense", "bm25", "hybrid")]
    assert status == (f"The right passage, {q['answer']}: dense rank {ranks[0] or 'none'}, BM25 rank {ranks[1] or 'none'}, "
                      f"fused rank {ranks[2] or 'none'}.")


def test_hybrid_explorer_equals_the_data_for_every_question(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "hybrid")
    for q in presets(data):
        section.locator('select[name="hybrid-question"]').select_option(q["id"])
        check_hybrid(section, data, q)
        assert hash_of(page) == f"#lab-hybrid?q={q['id']}"


def linked(section):
    return section.evaluate("""s => [...s.querySelectorAll('li.is-linked')].map(li =>
        li.closest('.lab-col').dataset.list + ':' + li.dataset.pid)""")


def test_hybrid_marks_one_passage_across_the_lists_by_mouse_and_keyboard(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-hybrid?q=upload-4021")
    section = lab(page, "hybrid")
    q = next(q for q in data["questions"] if q["id"] == "upload-4021")
    check_hybrid(section, data, q)
    answer = q["answer"]
    section.locator(f'.lab-col[data-list="dense"] li[data-pid="{answer}"]').hover()
    depth = data["settings"]["hybrid_depth"]
    where = [name for name in ("dense", "bm25", "hybrid") if answer in [pid for pid, _ in data["runs"][q["id"]][name][:depth]]]
    assert sorted(linked(section)) == sorted(f"{name}:{answer}" for name in where)
    page.mouse.move(2, 2)
    assert linked(section) == []
    # Keyboard: one tab stop per list, arrows inside it.
    section.locator('select[name="hybrid-question"]').focus()
    page.keyboard.press("Tab")
    first_dense = data["runs"][q["id"]]["dense"][0][0]
    expect(section.locator(f'.lab-col[data-list="dense"] li[data-pid="{first_dense}"]')).to_be_focused()
    assert f"dense:{first_dense}" in linked(section)
    page.keyboard.press("ArrowDown")
    second = data["runs"][q["id"]]["dense"][1][0]
    expect(section.locator(f'.lab-col[data-list="dense"] li[data-pid="{second}"]')).to_be_focused()
    assert f"dense:{second}" in linked(section) and f"hybrid:{second}" in linked(section)
    page.keyboard.press("Tab")  # the next list
    first_bm25 = data["runs"][q["id"]]["bm25"][0][0]
    expect(section.locator(f'.lab-col[data-list="bm25"] li[data-pid="{first_bm25}"]')).to_be_focused()


def test_hybrid_explorer_from_a_shared_link(make_page, site_url, data):
    q = next(q for q in data["questions"] if q["id"] == "g30")
    page = open_page(make_page, site_url, "#lab-hybrid?q=g30")
    section = lab(page, "hybrid")
    expect(section.locator('select[name="hybrid-question"]')).to_have_value("g30")
    check_hybrid(section, data, q)


# ------------------------------------------------------------------ rerank


def check_rerank(section, data, qid, threshold):
    rerank = data["rerank"]
    view = data["retrieval_view"]["rerank"]
    answer = next(q["answer"] for q in data["questions"] if q["id"] == qid)
    candidates = [pid for pid, _ in data["runs"][qid]["hybrid"][:rerank["depth"]]]
    scored = [(pid, s) for pid, s in rerank["by_question"][qid] if pid in candidates]
    unscored = [pid for pid in candidates if pid not in dict(scored)]
    shown = section.evaluate("""s => ({
        inputs: [...s.querySelectorAll('ol.rerank-in li')].map(li => li.dataset.pid),
        out: [...s.querySelectorAll('ol.rerank-out li')].map(li => ({id: li.dataset.pid,
            score: li.querySelector('.score').textContent, flag: li.querySelector('.flag').textContent,
            cut: li.classList.contains('is-removed'), detail: li.querySelector('.detail').textContent})),
        status: s.querySelector('.lab-status').textContent,
        shown: s.querySelector('output').textContent})""")
    assert shown["inputs"] == candidates
    assert [r["id"] for r in shown["out"]] == [pid for pid, _ in scored] + unscored
    kept = [pid for pid, s in scored if s >= threshold]
    for row, (pid, score) in zip(shown["out"], scored):
        assert row["score"] == f"{score:.{view['digits']}f}"
        assert row["cut"] == (score < threshold)
        assert row["flag"] == ("cut" if score < threshold else "right passage" if pid == answer else "kept")
        assert row["detail"] == f"fused rank {candidates.index(pid) + 1}"
    for row in shown["out"][len(scored):]:
        assert row["flag"] == "no score written" and row["score"] == "–"
    assert shown["shown"] == f"{threshold:.2f}"
    assert shown["status"].startswith(f"Kept {len(kept)} of {len(candidates)} candidates at threshold {threshold:.2f}.")
    if answer in kept:
        at, was = kept.index(answer) + 1, candidates.index(answer) + 1
        assert shown["status"].endswith(f"stays at rank {at}." if at == was else f"moves from fused rank {was} to rank {at}.")


def set_threshold(section, value):
    section.locator('input[name="rerank-threshold"]').evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }", value)


def test_rerank_lab_equals_the_data_for_every_question_and_threshold(make_page, site_url, data):
    page = open_page(make_page, site_url)
    section = lab(page, "rerank")
    view = data["retrieval_view"]["rerank"]
    if data["rerank"]["source"] == "illustrative":
        expect(section.locator(".illustrative")).to_contain_text("written by hand")
    check_rerank(section, data, section.locator("select").input_value(), view["threshold"])
    for qid in data["rerank"]["by_question"]:
        section.locator('select[name="rerank-question"]').select_option(qid)
        for threshold in (view["min"], view["threshold"], round(view["max"] - view["step"], 2), view["max"]):
            set_threshold(section, threshold)
            check_rerank(section, data, qid, threshold)
    assert hash_of(page).startswith(f"#lab-rerank?q={qid}&t=")


def test_rerank_threshold_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    qid = next(q["id"] for q in data["questions"] if q["id"] in data["rerank"]["by_question"])
    view = data["retrieval_view"]["rerank"]
    page = open_page(make_page, site_url, f"#lab-rerank?q={qid}&t=0.20")
    section = lab(page, "rerank")
    expect(section.locator("select")).to_have_value(qid)
    check_rerank(section, data, qid, 0.2)
    section.locator('input[name="rerank-threshold"]').focus()
    page.keyboard.press("ArrowRight")
    check_rerank(section, data, qid, round(0.2 + view["step"], 2))
    assert hash_of(page) == f"#lab-rerank?q={qid}&t={0.2 + view['step']:.2f}"
    page.keyboard.press("Shift+Tab")
    expect(section.locator("select")).to_be_focused()
    options = section.locator("select option").evaluate_all("os => os.map(o => o.value)")
    assert sorted(options) == sorted(data["rerank"]["by_question"])
    page.keyboard.press("ArrowDown")
    after = options[(options.index(qid) + 1) % len(options)] if options.index(qid) + 1 < len(options) else qid
    expect(section.locator("select")).to_have_value(after)
    check_rerank(section, data, after, round(0.2 + view["step"], 2))


# ------------------------------------------------------------------ all of them


@pytest.mark.parametrize("name", MY_LABS)
def test_the_builds_default_equals_what_the_script_draws(make_page, site_url, name):
    static = open_page(make_page, site_url, java_script_enabled=False)
    scripted = open_page(make_page, site_url)
    lab(scripted, name)

    def text(page):  # markup whitespace differs between the template and the script; words must not
        shown = page.locator(f"#lab-{name} .lab-output").inner_text()
        return "".join(shown.replace("\u25b2", "").replace("\u25bc", "").split())  # sort arrows are JS-only

    assert text(static) == text(scripted)
    expect(static.locator(f"#lab-{name} .lab-controls")).to_be_hidden()




@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_is_clean_on_these_sections(make_page, site_url, data, scheme):
    page = open_page(make_page, site_url, "#lab-chunking?setting=page&q=q2", color_scheme=scheme)
    lab(page, "chunking")
    page.locator('#lab-bm25 input[name="bm25-text"]').fill("Как экспортировать PDF?")
    page.locator('#lab-winners th[data-sort="bm25"] button').click()
    page.locator('#lab-hybrid li[data-pid]').first.hover()
    set_threshold(page.locator("#lab-rerank"), data["retrieval_view"]["rerank"]["threshold"] + 0.2)
    assert axe_on_sections(page, MY_SECTIONS) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_nothing_sticks_out_at_360px(make_page, site_url, javascript):
    page = open_page(make_page, site_url, viewport=VIEWPORTS["phone"], java_script_enabled=javascript)
    if javascript:
        page.locator('#lab-bm25 input[name="bm25-text"]').fill("x" * 500)
    wide = page.evaluate("""ids => ids.flatMap(id => [...document.querySelectorAll('#' + id + ' *')])
        .filter(el => el.getBoundingClientRect().right > innerWidth + 1 && !el.closest(
            '.table-scroll, pre, .figure-scroll, figure.figure, math, .math-block, .sample-tabs'))
        .slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + el.className)""", list(MY_SECTIONS))
    assert wide == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"]


def lab_screenshot(page, selector, path):
    """An element screenshot with the viewport at least as tall as the element (Chromium's
    element screenshots of elements taller than the viewport time out on this long page)."""
    size = page.viewport_size
    height = page.locator(selector).evaluate("el => Math.ceil(el.getBoundingClientRect().height)")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 40)})
    page.locator(selector).screenshot(path=str(path))
    page.set_viewport_size(size)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots(make_page, site_url, device, scheme):
    page = open_page(make_page, site_url, "#lab-chunking?setting=sentences-40&q=q1",
                     viewport=VIEWPORTS[device], color_scheme=scheme)
    lab(page, "chunking")
    page.locator('#lab-hybrid li[data-pid]').nth(6).hover()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for selector in [f"#lab-{name}" for name in MY_LABS] + ["#fig-score-scales"]:
        path = SCREENSHOTS / f"retrieval-{selector.strip('#')}-{device}-{scheme}.png"
        lab_screenshot(page, selector, path)
        assert path.stat().st_size > 5_000
