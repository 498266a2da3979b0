"""The documents' engine room in Chromium, on a test page that loads the site's own scripts
(assets/scripts/engine.js and docs.js, as built) under the built page's own Content-Security-
Policy, served by tests/docs/server.py, which records every request:

- PDF.js and mammoth load only once a PDF or a DOCX is chosen, each once, checked before they
  run; a PDF's text comes page by page with its page numbers; a scanned, a locked, a cut-short
  and a damaged PDF are refused, and so are a damaged DOCX and a 50 MB file (unread);
- a changed byte in PDF.js's module, its worker's module or mammoth's script: refused, not run;
- hostile HTML and Markdown read on a page with no policy at all cause no request and run nothing;
- no request carries a document's text, and every one is a GET of a file the site ships;
- 10,000 tiny files: the limit refuses them at once; with the limit raised they are read in
  slices, the page's longest task under 200 ms;
- the vector store (IndexedDB): a reload finds the vectors, another model's fingerprint does not,
  forget() deletes everything and says what; where IndexedDB is refused, memory, and it says so;
- the sample documents read, chunked, kept, searched, measured, exported, turned into SQL and
  imported back: no request at all, and nothing embedded twice.
"""

import numpy as np
import pytest
from playwright.sync_api import expect

from builder.page import docs_assets
from docs.fixtures import (DOCX_HEADING, DOCX_PARAGRAPH, DOCX_TABLE_CELL, HOSTILE_PROBE, HOSTILE_VISIBLE, PDF_PAGES,
                           RAW_MARKDOWN_VISIBLE, make_fixtures)
from docs.server import DocsServer, docs_page_html
from support.browser import PageGuard

pytestmark = pytest.mark.browser

READ = """async (options) => {
  const found = await RAG.docs.read(document.getElementById('files').files, options || {});
  return found;
}"""
LONG_TASKS = """() => { window.longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: false }); }"""


@pytest.fixture(scope="module")
def server(built_site):
    running = DocsServer(built_site).start()
    running.page("/docs-test.html", docs_page_html(built_site))
    running.page("/docs-test-no-policy.html", docs_page_html(built_site, policy=False))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    return make_fixtures(tmp_path_factory.mktemp("docs-fixtures"))


@pytest.fixture(scope="module")
def open_page(browser, server, request):
    """open_page(path) -> a page in a context of its own, guarded like every page of the suite
    (a console error, or a request that leaves the server, fails the test that caused it)."""
    contexts, guards = [], []
    request.module.rag_module_guards = guards

    def opened(path="docs-test.html"):
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        contexts.append(context)
        guard = PageGuard(server.url)
        guards.append(guard)
        context.route("**/*", guard.route)
        context.on("request", guard.on_request)
        page = context.new_page()
        page.on("console", guard.on_console)
        page.on("pageerror", guard.on_page_error)
        page.rag_guard = guard
        page.goto(server.url + path)
        page.wait_for_function("() => window.RAG && RAG.docs && RAG.docs.read && RAG.engine.readDocument")
        return page

    yield opened
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def page(open_page):
    return open_page()


def choose(page, fixtures, *names):
    page.set_input_files("#files", [str(fixtures[name]) for name in names])


def vendor(name: str) -> str:
    return "/" + docs_assets.vendor_path(name)


def test_nothing_of_pdfjs_or_mammoth_loads_until_a_pdf_or_docx_is_chosen(page, server, fixtures):
    start = len(server.requests)
    choose(page, fixtures, "scripts.md", "hostile.html", "big.txt")
    found = page.evaluate(READ)
    assert sorted(d["source"] for d in found["documents"]) == ["hostile.html", "scripts.md"]
    assert found["refused"] == [{"source": "big.txt", "reason": (
        "is 50.0 MB, more than the 20.0 MB one file may have here; it was not read. Split it, or keep the part you need.")}]
    assert page.evaluate("() => RAG.docs.vendor.loaded()") == []
    assert server.paths_since(start) == [], "reading text asks the server for nothing"
    assert not [p for _, p in server.requests if "/vendor/" in p or "pdf-worker" in p]


def test_a_pdf_is_read_page_by_page_through_pdfjs_from_checked_files(page, server, fixtures):
    start = len(server.requests)
    choose(page, fixtures, "report.pdf")
    found = page.evaluate(READ)
    assert not found["refused"], found["refused"]
    [pdf] = found["documents"]
    assert pdf["kind"] == "pdf" and pdf["pages"] == 3
    assert [b["page"] for b in pdf["blocks"]] == [1, 2, 3]
    for number, (block, text) in enumerate(zip(pdf["blocks"], PDF_PAGES), 1):
        assert block["text"] == f"Page {number} {text}"
    assert page.evaluate("() => RAG.docs.pdfWorkerStarted()") == "blob", "the worker's module ran from the checked bytes"
    chunks = page.evaluate("async (doc) => (await RAG.docs.chunk([doc], {chunker: 'fixed', size: 12, overlap: 0})).chunks", pdf)
    words = [len(f"Page {n} {text}".split()) for n, text in enumerate(PDF_PAGES, 1)]  # each page's words, in order
    starts = [sum(words[:p]) for p in range(3)]
    page_of = lambda word: max(p for p in range(3) if starts[p] <= word) + 1  # noqa: E731
    assert [(c["page"], c["lastPage"]) for c in chunks] == [(page_of(12 * i), page_of(min(12 * i + 11, sum(words) - 1)))
                                                           for i in range(len(chunks))]
    fetched = server.paths_since(start)
    assert sorted(fetched) == sorted([vendor("pdfjs"), "/" + docs_assets.PDF_WORKER_SCRIPT,
                                      "/assets/scripts/model-files.js", vendor("pdfWorker")]), fetched


def test_scanned_locked_cut_short_and_damaged_pdfs_are_refused_whole(page, fixtures):
    choose(page, fixtures, "scan.pdf", "locked.pdf", "truncated.pdf", "damaged.pdf", "report.pdf")
    found = page.evaluate(READ)
    reasons = {r["source"]: r["reason"] for r in found["refused"]}
    assert [d["source"] for d in found["documents"]] == ["report.pdf"]
    assert reasons["scan.pdf"].startswith("has no text layer: its one page holds no text (a scan, or pictures of text). Run it through OCR")
    assert reasons["locked.pdf"].startswith("is protected by a password")
    assert reasons["truncated.pdf"].startswith("is cut short: a PDF ends with %%EOF and this one does not")
    assert reasons["damaged.pdf"].startswith(("is damaged", "could not be read by PDF.js")), reasons["damaged.pdf"]


def test_a_docx_is_read_through_mammoth_and_the_engines_html_reader(page, server, fixtures):
    start = len(server.requests)
    choose(page, fixtures, "guide.docx", "damaged.docx")
    found = page.evaluate(READ)
    [docx] = found["documents"]
    assert docx["kind"] == "docx" and docx["title"] == DOCX_HEADING
    assert docx["blocks"][:2] == [{"level": 1, "text": DOCX_HEADING}, {"level": 0, "text": DOCX_PARAGRAPH}]
    assert {"level": 2, "text": "Limits"} in docx["blocks"] and any(DOCX_TABLE_CELL in b["text"] for b in docx["blocks"])
    [refused] = found["refused"]
    assert refused["source"] == "damaged.docx" and refused["reason"].startswith("is damaged or is not a Word document (")
    assert server.paths_since(start) == [vendor("mammoth")]


def test_no_request_carries_a_documents_text_and_every_one_is_a_file_the_site_ships(page, server):
    shipped = {"/docs-test.html", "/docs-test-no-policy.html", "/" + docs_assets.PDF_WORKER_SCRIPT, "/assets/scripts/model-files.js",
               "/assets/scripts/engine.js", "/assets/scripts/docs.js", *(vendor(name) for name in docs_assets.VENDOR)}
    texts = [*PDF_PAGES, DOCX_PARAGRAPH, HOSTILE_VISIBLE, "Многоязычный"]
    for method, path in server.requests:
        assert method == "GET", path
        assert path.split("?")[0] in shipped, path
        assert not any(text.split()[0] in path for text in texts)
    assert page.evaluate("() => performance.getEntriesByType('resource').every(e => e.name.startsWith(location.origin))")


@pytest.mark.parametrize("name, fixture, refusal", [
    ("pdfjs", "report.pdf", "could not be read: PDF.js (pdf.min.mjs) did not arrive intact"),
    ("pdfWorker", "report.pdf", "could not be read: PDF.js's worker did not start (pdf.worker.min.mjs arrived damaged twice"),
    ("mammoth", "guide.docx", "could not be read: mammoth (mammoth.browser.min.js) did not arrive intact"),
])
def test_a_library_changed_by_one_byte_is_refused_and_not_run(open_page, server, fixtures, name, fixture, refusal):
    server.tamper(docs_assets.vendor_path(name))
    try:
        fresh = open_page()
        fresh.rag_guard.allow_console_error("integrity")  # Chromium reports the failed check itself
        fresh.rag_guard.allow_console_error("Failed to find a valid digest")
        choose(fresh, fixtures, fixture)
        found = fresh.evaluate(READ)
    finally:
        server.tamper()
    assert found["documents"] == []
    assert found["refused"][0]["reason"].startswith(refusal), found["refused"]
    assert fresh.evaluate("() => typeof globalThis.mammoth === 'undefined' && typeof globalThis.pdfjsWorker === 'undefined'")


def test_hostile_html_on_a_page_without_any_policy_runs_nothing_and_fetches_nothing(open_page, server, fixtures):
    bare = open_page("docs-test-no-policy.html")
    assert bare.evaluate("() => !document.querySelector('meta[http-equiv]')")
    start = len(server.requests)
    elements = bare.evaluate("() => document.querySelectorAll('*').length")
    choose(bare, fixtures, "hostile.html", "raw-html.md")
    found = bare.evaluate(READ)
    bare.wait_for_timeout(300)  # time for anything that had been started to ask for its file
    texts = {d["source"]: d["text"] for d in found["documents"]}
    assert HOSTILE_VISIBLE in texts["hostile.html"] and RAW_MARKDOWN_VISIBLE in texts["raw-html.md"]
    assert bare.evaluate("() => window.__docsHostileRan") is None
    assert server.paths_since(start) == [], "nothing was fetched, the probe least of all"
    assert not [p for _, p in server.requests if p.startswith(HOSTILE_PROBE)]
    assert bare.evaluate("() => document.querySelectorAll('*').length") == elements, "nothing was put into the page"


STORE = """async ({ fingerprint, texts, put }) => {
  const store = await RAG.docs.store.open({ fingerprint });
  if (put) await store.put(texts.map((text, i) => [text, Float32Array.from({ length: 384 }, (_, d) => (i + 1) / (d + 1))]));
  const found = await store.get(texts);
  store.close();
  return { where: store.where, note: store.note, found: found.map((v) => v && Array.from(v.slice(0, 3))) };
}"""
FORGET = """async ({ fingerprint }) => {
  const store = await RAG.docs.store.open({ fingerprint });
  const forgotten = await store.forget();
  const databases = (await indexedDB.databases()).map((d) => d.name);
  return { forgotten, databases, after: await store.get(["first chunk"]) };
}"""


def f32(x: float) -> float:
    return float(np.float32(x))


def test_kept_vectors_survive_a_reload_belong_to_their_model_and_are_forgotten(open_page):
    page = open_page()
    texts = ["first chunk", "second chunk", "third chunk"]
    kept = page.evaluate(STORE, {"fingerprint": "model:A", "texts": texts, "put": True})
    assert kept["where"] == "indexeddb" and kept["note"] == ""
    page.evaluate(STORE, {"fingerprint": "model:B", "texts": texts[:1], "put": True})
    page.reload()
    page.wait_for_function("() => window.RAG && RAG.docs && RAG.docs.store")
    again = page.evaluate(STORE, {"fingerprint": "model:A", "texts": texts + ["never kept"], "put": False})
    assert again["found"] == [[1.0, 0.5, f32(1 / 3)], [2.0, 1.0, f32(2 / 3)], [3.0, 1.5, 1.0], None]  # (i + 1) / (d + 1) as float32
    other = page.evaluate(STORE, {"fingerprint": "model:C", "texts": texts, "put": False})
    assert other["found"] == [None, None, None], "another model's fingerprint finds nothing"
    gone = page.evaluate(FORGET, {"fingerprint": "model:A"})
    per_record = 384 * 4 + 64
    assert gone["forgotten"] == {"vectors": 4, "bytes": 3 * (per_record + len("model:A")) + per_record + len("model:B"), "models": 2,
                                 "where": "indexeddb"}
    assert "rag-explainer-documents" not in gone["databases"] and gone["after"] == [None]


@pytest.mark.parametrize("refusal", [
    "indexedDB.open = () => { throw new DOMException('The user denied permission to access the database.', 'SecurityError'); }",
    "indexedDB.open = () => { const r = {}; setTimeout(() => { r.error = new DOMException('refused', 'UnknownError'); r.onerror(); }); return r; }",
])
def test_where_indexeddb_is_refused_the_vectors_stay_in_memory_and_it_says_so(browser, server, refusal):
    context = browser.new_context()
    try:
        context.add_init_script(f"(() => {{ {refusal} }})();")
        page = context.new_page()
        page.goto(server.url + "docs-test.html")
        page.wait_for_function("() => window.RAG && RAG.docs && RAG.docs.store")
        kept = page.evaluate(STORE, {"fingerprint": "model:A", "texts": ["a chunk"], "put": True})
        gone = page.evaluate(FORGET, {"fingerprint": "model:A"})
    finally:
        context.close()
    assert kept["where"] == "memory" and kept["found"] == [[1.0, 0.5, f32(1 / 3)]]
    assert kept["note"].startswith("The browser refused IndexedDB (") and kept["note"].endswith(
        "a private window?): the vectors are kept in memory until the page closes.")
    assert gone["forgotten"] == {"vectors": 0, "bytes": 0, "models": 0, "where": "memory"}, "a new page's memory holds nothing"


WHOLE_WAY = """async ({ files, answers, asked, settings }) => {
  const read = await RAG.docs.read(files.map(([name, text]) => ({ name, text })));
  const setting = { chunker: "sentences", limit: 40, repeat: 1 };
  const { chunks } = await RAG.docs.chunk(read.documents, setting);
  const store = await RAG.docs.store.open({ fingerprint: "model:whole-way" });
  let sent = 0;
  const unit = (text) => { const v = Float32Array.from({ length: 384 }, (_, d) => Math.sin(d + text.length)); const n = Math.hypot(...v); return v.map((x) => x / n); };
  const embed = async (texts) => { sent += texts.length; return texts.map(unit); };
  const first = await RAG.docs.vectorsFor(chunks.map((c) => c.text), { store, embed });
  const second = await RAG.docs.vectorsFor(chunks.map((c) => c.text), { store, embed });
  const flat = new Float32Array(chunks.length * 384);
  first.vectors.forEach((v, i) => flat.set(v, i * 384));
  const index = new RAG.engine.BM25(chunks.map((c) => c.text), settings.bm25.k1, settings.bm25.b);
  const ids = chunks.map((c) => c.id);
  const runs = {};
  for (const q of asked) {
    const dense = RAG.engine.denseRanking(ids, flat, unit(q.question));
    const bm25 = RAG.engine.bm25Ranking(ids, index, q.question);
    runs[q.id] = { dense, bm25, hybrid: RAG.engine.hybridRanking(dense, bm25, settings.fusion_depth, settings.rrf_k) };
  }
  const marks = RAG.docs.marks.fromQuotes(chunks, answers);
  const measured = RAG.docs.measure({ chunks, runs, marks });
  const vectors = Object.fromEntries(chunks.map((c, i) => [c.hash, first.vectors[i]]));
  const bundle = RAG.docs.exportBundle({ chunks, setting, vectors, questions: asked.map((q) => ({ id: q.id, text: q.question, vector: unit(q.question) })),
                                         marks, fingerprint: "model:whole-way", settings });
  const sql = RAG.docs.toSql(bundle);
  const back = await RAG.docs.importBundle(JSON.stringify(bundle), { fingerprint: "model:whole-way" });
  await store.forget();
  return { chunks: chunks.length, sent, firstEmbedded: first.embedded, secondEmbedded: second.embedded, toEmbed: back.toEmbed.length,
           hits: measured.recall.hybrid[5].hits, sqlBytes: sql.length, questions: measured.questions.length };
}"""


def test_the_whole_way_asks_the_server_for_nothing_and_embeds_nothing_twice(page, server):
    from docs.sample_set import questions, sample_files
    from engine import settings

    asked = questions()
    start = len(server.requests)
    found = page.evaluate(WHOLE_WAY, {"files": sample_files(), "answers": {q["id"]: q["answers"] for q in asked},
                                      "asked": [{"id": q["id"], "question": q["question"]} for q in asked], "settings": settings.as_data()})
    assert server.paths_since(start) == [], "reading, chunking, keeping, searching, measuring, exporting: no request"
    distinct = found["sent"]
    assert found["firstEmbedded"] == distinct and found["secondEmbedded"] == 0 and found["toEmbed"] == 0
    assert found["questions"] == len(asked) and found["chunks"] >= distinct > 50


def test_ten_thousand_tiny_files_are_refused_at_once_or_read_in_slices(page):
    page.evaluate(LONG_TASKS)
    found = page.evaluate("""async () => {
      const files = Array.from({ length: 10000 }, (_, i) => new File([`# Note ${i}\\n\\nTiny note number ${i}.`], `note-${i}.md`));
      const refused = await RAG.docs.read(files);
      const began = performance.now();
      const read = await RAG.docs.read(files, { limits: { files: 10000 } });
      return { stopped: refused.stopped, documents: read.documents.length, last: read.documents[9999].blocks,
               ms: performance.now() - began };
    }""")
    assert found["stopped"].startswith("10,000 files is more than the 200 one reading takes, so none was read.")
    assert found["documents"] == 10_000
    assert found["last"] == [{"level": 1, "text": "Note 9999"}, {"level": 0, "text": "Tiny note number 9999."}]
    longest = max(page.evaluate("() => window.longTasks"), default=0)
    print(f"10,000 tiny files read in {found['ms']:.0f} ms; the page's longest task {longest:.0f} ms")
    assert longest < 200, f"a task of {longest:.0f} ms while reading"
