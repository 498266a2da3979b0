"""'Try it on your documents' (site_src/labs/docs-try) in Chromium, on the built page served by
tests/docs/server.py (which records every request), one page for the module, the tests in order:

- before the reader brings anything, nothing of the documents' scripts (docs.js) is downloaded;
- opened from file://: the sample set is chunked, searched by BM25 and measured (BM25's recall
  equal to the engine's count), and embedding is explained with the command that serves the folder;
- served, with this browser's store holding the Python engine's vectors of the sample set: loading
  it searches by meaning at once, embeds nothing and loads no model; recall@1, 3, 5 for dense, BM25
  and hybrid equal engine/evaluate.py's on the same vectors; every chunker side by side, and the
  best one named, equal to the engine's;
- a pasted document and a new chunking: only the chunks the store lacks go through the model, and
  no request carries the documents' text; a typed question gets the hybrid view, the map (PCA)
  and the prompt's size in wordpieces; at 390 px nothing of it is cut off (screenshots at 1280
  and 390 px, light and dark, in test-artifacts/screenshots/lab-docs-try-*.png);
- a reload embeds nothing; "Forget my documents" deletes everything stored and says how much;
- a result's id opens the passage card, with the terms BM25 matched (engine/bm25.py's);
- bad files are refused in the lab with their reasons;
"""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from builder.labs import BY_NAME
from docs.engine_figures import expected_measure, quote_marks
from docs.fixtures import make_fixtures
from docs.sample_set import embedded, engine_runs, plain, questions
from docs.server import DocsServer
from support.browser import PageGuard, element_screenshot

pytestmark = pytest.mark.browser
LAB_DATA = BY_NAME["docs-try"].module
CHUNKERS, setting_label = LAB_DATA.CHUNKERS, LAB_DATA.setting_label

LAB = '[data-lab="docs-try"]'
# How often a wait on the lab's indexing (the model's load and embedding among it) looks again:
# Playwright's default looks at every animation frame, keeping the page drawing frames for as long
# as it waits (0.07 CPU seconds a second, against 0.005 at 100 ms, on a page waiting for nothing).
POLL_MS = 100
LOCAL = "() => RAG.labContext('docs-try').local"
PASTED = ("Quarterly key rotation. The vault key is rotated every quarter by the agent, "
          "and old keys are kept sealed so that older snapshots can still be opened. "
          "Rotation never rewrites the packs themselves: only the key file changes.")


def cell(found: dict) -> str:
    """A recall cell as the lab writes it: hits (a range where a tie straddles k) of n, and the
    Wilson interval in whole percent."""
    low, high = found["hits"]
    hits = f"{low}" if low == high else f"{low}\u2013{high}"
    return f"{hits}/{found['n']} ({found['wilson'][0][0] * 100:.0f}\u2013{found['wilson'][1][1] * 100:.0f}%)"


def table_of(page, selector: str) -> dict:
    return page.evaluate("""(sel) => Object.fromEntries([...document.querySelectorAll(sel + ' tbody tr')].map((tr) =>
        [tr.dataset.retriever || tr.dataset.setting, [...tr.querySelectorAll('td')].map((td) => td.textContent)]))""", selector)


def expected_for(chunks: list[dict], vectors_of) -> dict:
    asked = questions()
    runs = plain(engine_runs(chunks, asked, vectors_of([c["text"] for c in chunks]), vectors_of([q["question"] for q in asked])))
    return expected_measure(chunks, runs, quote_marks(chunks, asked))


def stand_in(texts):
    """Vectors for the dense list these tests do not compare (BM25 alone is measured from file://)."""
    return np.ones((len(texts), 384)) / np.sqrt(384)


@pytest.fixture(scope="module")
def server(built_site):
    running = DocsServer(built_site).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.fixture(scope="module")
def page(context, server):
    guard = PageGuard(server.url)
    context.route("**/*", guard.route)
    context.on("request", guard.on_request)
    page = context.new_page()
    page.on("console", guard.on_console)
    page.on("pageerror", guard.on_page_error)
    page.goto(server.url + "index.html#lab-docs-try")
    page.wait_for_selector(f'{LAB}[data-lab-state="ready"]')
    return page


def wait_idle(page):
    page.wait_for_function("""() => { const l = RAG.labContext('docs-try').local;
        return !l.working && !(l.index && l.index.running); }""", timeout=120_000, polling=POLL_MS)
    busy = page.evaluate("() => RAG.labContext('docs-try').local.busy")
    assert not busy.startswith("Something went wrong"), busy


def sample_vectors(page) -> dict:
    """Every text the sample set gives under every chunker the lab offers, with the Python engine's vectors."""
    texts = page.evaluate("""async (settings) => {
        const own = RAG.labContext('docs-try').input.own;
        await RAG.loadScript(RAG.assets().scripts.docs);
        const read = await RAG.docs.read(own.sample.files.map(([name, text]) => ({ name, text })));
        const texts = new Set(own.sample.questions.map((q) => q.text));
        for (const s of settings) for (const c of (await RAG.docs.chunk(read.documents, s)).chunks) texts.add(c.text);
        return [...texts];
    }""", list(CHUNKERS))
    return dict(zip(texts, embedded(texts)))


def test_nothing_of_the_documents_scripts_loads_before_the_reader_brings_documents(page, server):
    assert not [p for _, p in server.requests if "/assets/scripts/docs.js" in p]
    assert page.evaluate("() => !(window.RAG.docs && RAG.docs.read)")


def test_from_a_file_chunking_bm25_and_its_recall_work_and_embedding_says_how_to_serve(browser, built_site):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        local = context.new_page()
        local.goto((built_site / "index.html").as_uri() + "#lab-docs-try")
        local.wait_for_selector(f'{LAB}[data-lab-state="ready"]')
        local.click(f'{LAB} [data-act="sample"]')
        local.wait_for_function("() => RAG.labContext('docs-try').local.measured")
        expect(local.locator(f"{LAB} .docs-file")).to_contain_text("python3 -m http.server")
        expect(local.locator(f'{LAB} [data-act="embed"]')).to_be_disabled()
        chunks = local.evaluate(LOCAL)["chunks"]
        expected = expected_for(chunks, stand_in)["recall"]["bm25"]
        assert table_of(local, f"{LAB} .docs-recall") == {"bm25": [cell(expected[str(k)]) for k in (1, 3, 5)]}
        assert len(chunks) > 20
    finally:
        context.close()


def test_a_store_that_holds_the_vectors_searches_by_meaning_at_once_and_measures_like_the_engine(page, server):
    vectors = sample_vectors(page)
    page.evaluate("""async (pairs) => {
        const store = await RAG.docs.store.open({ fingerprint: RAG.docs.store.fingerprint(RAG.data.live) });
        await store.put(pairs.map(([text, v]) => [text, Float32Array.from(v)]));
        store.close();
    }""", [[t, v.tolist()] for t, v in vectors.items()])
    start = len(server.requests)
    page.click(f'{LAB} [data-act="sample"]')
    page.wait_for_function("() => { const l = RAG.labContext('docs-try').local; return l.measured && l.retrievers.length === 3; }")
    expect(page.locator(f"{LAB} .docs-index")).to_have_text(re.compile(r"^All \d+ texts \(chunks and questions\) found in this browser's store: nothing to embed\.$"))
    assert not [p for _, p in server.requests[start:] if "/live/" in p], "no model was loaded"
    chunks = page.evaluate(LOCAL)["chunks"]
    expected = expected_for(chunks, lambda texts: np.asarray([vectors[t] for t in texts]))["recall"]
    assert table_of(page, f"{LAB} .docs-recall") == {r: [cell(expected[r][str(k)]) for k in (1, 3, 5)] for r in ("dense", "bm25", "hybrid")}
    expect(page.locator("#docs-hybrid-k")).to_be_visible()
    expect(page.locator(f'.docs-views [data-mount="map"] figcaption').first).to_contain_text("PCA")


def test_a_result_opens_its_passage_card_with_the_terms_the_engine_matched(page):
    """A click on a result's id, then Enter on it, opens the passage card over the reader's chunks:
    the chunk's id, and the question's terms that BM25 (engine/bm25.py over the same chunks)
    scores in it, each marked in its text; Escape closes it and gives the focus back."""
    from engine.bm25 import BM25

    local = page.evaluate(LOCAL)
    question = next(q["text"] for q in local["questions"] if q["id"] == local["q"])
    ids = [c["id"] for c in local["chunks"]]
    button = page.locator(f"{LAB} .docs-top li[data-pid] button.pid-open").first
    pid = button.evaluate("b => b.closest('[data-pid]').dataset.pid")
    expected = [c.term for c in BM25([c["text"] for c in local["chunks"]]).explain(question, ids.index(pid)) if c.score > 0]
    assert expected, "the first result shares a term with the question"
    card = page.locator(f"{LAB} .card-host [data-view='card']")
    for press in (button.click, lambda: (button.focus(), page.keyboard.press("Enter"))):
        press()
        expect(card).to_be_visible()
        assert card.locator(".card-title code").text_content() == pid
        assert card.locator(".card-shares li").evaluate_all("lis => lis.map((li) => li.dataset.term)") == expected
        assert {m.lower() for m in card.locator("mark.card-term").all_text_contents()} == set(expected)
        page.keyboard.press("Escape")
        expect(page.locator(f"{LAB} .card-host")).to_have_count(0)
        expect(button).to_be_focused()


def test_every_chunker_side_by_side_and_the_best_named_as_the_engine_counts(page):
    """By the keyboard, as a reader presses it: the button stays where it was on the screen (the
    steps above it redraw as each setting is cut, and once moved it 1,000 px down, the table off
    the screen), the table is drawn under it on the same screen, and the button has the focus back."""
    vectors = sample_vectors(page)
    button = page.locator(f'{LAB} [data-act="try-all"]')
    button.evaluate("b => b.scrollIntoView({block: 'center'})")
    top = button.bounding_box()["y"]
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => RAG.labContext('docs-try').local.best")
    wait_idle(page)
    assert abs(button.bounding_box()["y"] - top) <= 2, (top, button.bounding_box())
    table = page.locator(f"{LAB} .docs-compare").bounding_box()
    assert top < table["y"] < page.viewport_size["height"] - 100, (top, table)  # its head and first rows
    expect(button).to_be_focused()
    # On a phone its six columns are cards, not a table to scroll through sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        compare = page.locator(f"{LAB} .docs-compare")
        widths = compare.evaluate("t => [t.scrollWidth, t.clientWidth]")
        assert widths[0] <= widths[1] + 1, widths
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    shown = table_of(page, f"{LAB} .docs-compare")
    expected, scores = {}, {}
    for setting in CHUNKERS:
        chunks = page.evaluate("""async (s) => { const own = RAG.labContext('docs-try').input.own;
            const read = await RAG.docs.read(own.sample.files.map(([name, text]) => ({ name, text })));
            return (await RAG.docs.chunk(read.documents, s)).chunks; }""", setting)
        measured = expected_for(chunks, lambda texts: np.asarray([vectors[t] for t in texts]))
        hybrid = measured["recall"]["hybrid"]
        lost = sum(1 for hashes in quote_marks(chunks, questions()).values() if not hashes)
        expected[setting_label(setting)] = [str(len(chunks)), *(cell(hybrid[str(k)]) for k in (1, 3, 5)), str(lost)]
        scores[setting_label(setting)] = [hybrid[str(k)]["hits"][0] for k in (5, 3, 1)]
    assert shown == expected
    best = max(scores, key=lambda label: (scores[label], -list(scores).index(label)))
    expect(page.locator(f"{LAB} .docs-best")).to_have_text(f"Best for these questions: {best}.")


def test_the_export_carries_chunks_vectors_questions_and_marks_and_imports_back_embedding_nothing(page, tmp_path):
    import json

    from builder.sources import ROOT

    with page.expect_download() as saved:
        page.click(f'{LAB} [data-act="export"]')
    path = tmp_path / "documents.json"
    saved.value.save_as(path)
    bundle = json.loads(path.read_text("utf-8"))
    chunks = page.evaluate(LOCAL)["chunks"]
    assert [c["hash"] for c in bundle["chunks"]] == [c["hash"] for c in chunks]
    assert all("vector" in c for c in bundle["chunks"]) and [q["id"] for q in bundle["questions"]] == [q["id"] for q in questions()]
    assert {q["id"]: q["marks"] for q in bundle["questions"]} == quote_marks(chunks, questions())
    with page.expect_download() as script:
        page.click(f'{LAB} [data-act="reproduce"]')
    script.value.save_as(tmp_path / "reproduce.py")
    assert (tmp_path / "reproduce.py").read_text("utf-8") == (ROOT / "site_src" / "docs" / "reproduce.py").read_text("utf-8")
    with page.expect_download() as sql:
        page.click(f'{LAB} [data-act="sql"]')
    sql.value.save_as(tmp_path / "documents.sql")
    assert "CREATE EXTENSION IF NOT EXISTS vector" in (tmp_path / "documents.sql").read_text("utf-8")
    page.set_input_files(f'{LAB} input[name="docs-import"]', str(path))
    expect(page.locator(f"{LAB} [data-step='6'] .docs-note")).to_have_text(
        f"Imported {len(chunks)} chunks and {len(bundle['questions'])} questions; 0 texts left to embed.")
    wait_idle(page)
    page.click(f'{LAB} [data-act="sample"]')
    wait_idle(page)


def test_new_text_and_a_new_chunking_embed_only_the_new_chunks_and_no_request_carries_text(page, server):
    start = len(server.requests)
    page.fill(f'{LAB} textarea[name="docs-paste"]', PASTED)
    page.click(f'{LAB} [data-act="paste"]')
    wait_idle(page)
    page.click(f'{LAB} [data-act="embed"]')
    page.wait_for_function("() => { const i = RAG.labContext('docs-try').local.index; return i && i.embedded !== undefined && !i.running; }",
                           timeout=120_000, polling=POLL_MS)
    first = page.evaluate(LOCAL)
    new_chunks = [c for c in first["chunks"] if c["source"] == "pasted-1.txt"]
    assert first["index"]["embedded"] == len({c["text"] for c in new_chunks}) >= 1
    fixed = next(i for i, c in enumerate(CHUNKERS) if c == {"chunker": "fixed", "size": 25, "overlap": 0})
    page.select_option(f'{LAB} select[name="docs-setting"]', str(fixed))
    page.wait_for_function("(n) => RAG.labContext('docs-try').local.chunkNote.startsWith(n)", arg=setting_label(CHUNKERS[fixed]))
    wait_idle(page)
    second = page.evaluate(LOCAL)
    pasted = {c["text"] for c in second["chunks"] if c["source"] == "pasted-1.txt"}
    assert second["index"]["embedded"] == len(pasted) > 1, "only the pasted document's new chunks went through the model"
    page.fill(f'{LAB} input[name="docs-question"]', "How often is the vault key rotated?")
    page.press(f'{LAB} input[name="docs-question"]', "Enter")
    page.wait_for_function("() => RAG.labContext('docs-try').local.promptPieces > 0")
    expect(page.locator(f"{LAB} .docs-prompt summary")).to_contain_text("wordpieces in the model's tokenizer")
    assert page.locator("#docs-hybrid-fused-title").count() == 1
    whole = next(i for i, c in enumerate(CHUNKERS) if c == {"chunker": "page"})
    page.select_option(f'{LAB} select[name="docs-setting"]', str(whole))
    wait_idle(page)
    heads = page.locator(f"{LAB} .docs-chunk.is-over .docs-chunk-head").all_text_contents()
    assert heads, "a whole document is longer than the model's window"
    for head in heads:
        pieces, over = int(re.search(r"([\d,]+) wordpieces", head).group(1).replace(",", "")), int(re.search(r"its last (\d+)", head).group(1))
        assert over == pieces - LAB_DATA.MAX_WORDPIECES > 0, head
    for method, path in server.requests[start:]:
        assert method == "GET", path
        assert not any(word in path.lower() for word in ("rotation", "quarter", "vault", "rotated")), path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_390_px_nothing_is_cut_off_and_the_screenshots(page, scheme):
    page.emulate_media(color_scheme=scheme)
    wait_idle(page)
    element_screenshot(page, LAB, f"lab-docs-try-desktop-{scheme}")
    element_screenshot(page, ".docs-views", f"lab-docs-try-views-desktop-{scheme}")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        wait_idle(page)
        cut = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].flatMap((lab) => { const edge = lab.getBoundingClientRect().right + 0.5;
            const scrollers = (el) => { for (let p = el.parentElement; p && p !== lab; p = p.parentElement) {
                const s = getComputedStyle(p); if (/(auto|scroll)/.test(s.overflowX)) return true; } return false; };
            return [...lab.querySelectorAll('*')].filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > edge && !scrollers(el))
              .map((el) => el.tagName + '.' + el.className).slice(0, 5); })""", f"{LAB}, .docs-views")
        assert cut == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        element_screenshot(page, LAB, f"lab-docs-try-390-{scheme}")
        element_screenshot(page, ".docs-views", f"lab-docs-try-views-390-{scheme}")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_reload_embeds_nothing_and_forget_deletes_everything_and_says_what(page, server):
    page.reload()
    page.wait_for_selector(f'{LAB}[data-lab-state="ready"]')
    start = len(server.requests)
    page.click(f'{LAB} [data-act="sample"]')
    expect(page.locator(f"{LAB} .docs-index")).to_contain_text("found in this browser's store: nothing to embed.", timeout=30_000)
    assert not [p for _, p in server.requests[start:] if "/live/" in p]
    stored = page.evaluate("""async () => { const store = await RAG.docs.store.open({ fingerprint: RAG.docs.store.fingerprint(RAG.data.live) });
        const db = store.database; const n = await new Promise((ok) => { const r = db.transaction('vectors').objectStore('vectors').count(); r.onsuccess = () => ok(r.result); });
        store.close(); return n; }""")
    page.click(f'{LAB} [data-act="forget"]')
    wait_idle(page)
    expect(page.locator(f"{LAB} .docs-forgot")).to_contain_text(f"Forgotten: {stored:,} vectors (")
    assert page.evaluate("async () => (await indexedDB.databases()).map((d) => d.name)") == []
    expect(page.locator(f"{LAB} > .lab-output > .lab-status")).to_have_text("No documents yet: load the sample set, or bring your own.")


def test_bad_files_are_refused_in_the_lab_with_their_reasons(page, tmp_path):
    files = make_fixtures(tmp_path)
    page.set_input_files(f'{LAB} input[name="docs-files"]', [str(files[n]) for n in ("empty.txt", "picture.md", "utf16.txt", "hostile.html")])
    expect(page.locator(f"{LAB} .docs-problems li")).to_have_count(3)
    problems = page.locator(f"{LAB} .docs-problems").inner_text()
    assert "empty.txt is empty (0 bytes)" in problems and "picture.md is" in problems and "utf16.txt" in problems
    expect(page.locator(f"{LAB} .docs-documents")).to_contain_text("hostile.html")
    assert page.evaluate("() => window.__docsHostileRan") is None


