"""The reader's documents cut into chunks (site_src/docs/chunk-documents.js), in Node: the chunk
texts are the engine's (engine/documents.py chunk_with for a Markdown page, passages for the
folder corpus's cut), a PDF's chunks say the pages they start and end on, each chunk's hash is the
SHA-256 of its text, and past the chunk limit nothing is kept."""

import hashlib

import pytest

from engine import chunking, documents
from docs.sample_set import SETTINGS, chunked, sample_files


def engine_chunks(setting: dict, source: str, text: str) -> list[str]:
    """What the engine cuts: chunk_with for Markdown (the chunking lab's cut of a page), its rules
    over the blocks for HTML and text (chunk_with reads Markdown only), passages for 'sections'."""
    doc = documents.read_document(source, text)
    if setting["chunker"] == "sections":
        return [p.text for p in documents.passages(doc, setting["maxWords"])]
    if doc.kind == "markdown":
        return documents.chunk_with(setting, text)
    prose = " ".join(b.text for b in doc.blocks if not b.level)
    if setting["chunker"] == "fixed":
        return chunking.chunk_fixed(prose, setting["size"], setting["overlap"])
    if setting["chunker"] == "sentences":
        return chunking.chunk_sentences(chunking.split_sentences(prose), setting["limit"], setting["repeat"])
    if setting["chunker"] == "headings":
        return chunking.chunk_headings("\n".join(("#" * b.level + " " if b.level else " ") + b.text for b in doc.blocks))
    return ["\n".join(b.text for b in doc.blocks)]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_the_sample_documents_are_cut_as_the_engine_cuts_them(node, setting):
    chunks = chunked(node, setting)
    expected = [(source, text) for source, whole in sample_files() for text in engine_chunks(setting, source, whole)]
    assert [(c["source"], c["text"]) for c in chunks] == expected
    assert [c["id"] for c in chunks] == [f"c{i}" for i in range(1, len(chunks) + 1)]
    assert all(c["hash"] == hashlib.sha256(c["text"].encode("utf-8")).hexdigest() for c in chunks)


def test_a_chunk_keeps_the_headings_above_it(node):
    chunks = chunked(node, {"chunker": "sections", "maxWords": 120})
    by_engine = [(source, list(p.headings)) for source, text in sample_files()
                 for p in documents.passages(documents.read_document(source, text), 120)]
    assert [(c["source"], c["headings"]) for c in chunks] == by_engine
    headed = chunked(node, {"chunker": "headings"})
    retention = [c for c in headed if c["source"] == "retention.md"]
    assert all(c["text"].split("\n")[0] == c["headings"][-1] for c in retention if c["headings"])


PDF_LIKE = """async (RAG, input) => {
  const blocks = input.pages.map((text, i) => ({ level: 0, text, page: i + 1 }));
  const doc = { source: "report.pdf", kind: "pdf", title: "report.pdf", blocks };
  const cut = async (setting) => (await RAG.docs.chunk([doc], setting)).chunks.map((c) => [c.text, c.page, c.lastPage]);
  return { fixed: await cut({ chunker: "fixed", size: 4, overlap: 1 }), page: await cut({ chunker: "page" }),
           sentences: await cut({ chunker: "sentences", limit: 6, repeat: 0 }) };
}"""


def test_a_pdfs_chunks_say_which_pages_they_start_and_end_on(node):
    pages = ["one two three", "four five. six seven", "eight"]  # words 1-3 on page 1, 4-7 on 2, 8 on 3
    found = node.run(PDF_LIKE, {"pages": pages})
    # windows of 4 words every 3: words 1-4, 4-7, 7-8
    assert found["fixed"] == [["one two three four", 1, 2], ["four five. six seven", 2, 2], ["seven eight", 2, 3]]
    assert found["page"] == [["one two three\nfour five. six seven\neight", 1, 3]]
    assert found["sentences"] == [["one two three four five.", 1, 2], ["six seven eight", 2, 3]]


def test_past_the_chunk_limit_nothing_is_kept(node):
    found = node.run("""async (RAG, input) => {
      const read = await RAG.docs.read(input.files.map(([name, text]) => ({ name, text })));
      return RAG.docs.chunk(read.documents, { chunker: "fixed", size: 3, overlap: 0 }, { limits: { chunks: 100 } });
    }""", {"files": sample_files()})
    assert found["chunks"] == []
    assert found["stopped"].startswith("Fixed, 3 words cuts these documents into more than 100 chunks (")
    assert found["stopped"].endswith("more than this page holds, so none was kept. Choose larger chunks, or fewer documents.")


@pytest.mark.parametrize("setting, message", [
    ({"chunker": "fixed", "size": 10, "overlap": 10}, "fixed needs a whole size >= 1 and a whole overlap below it"),
    ({"chunker": "sentences", "limit": 0, "repeat": 0}, "sentences needs a whole limit >= 1"),
    ({"chunker": "paragraphs"}, "no chunker 'paragraphs' (use fixed, sentences, headings, sections or page)"),
])
def test_a_wrong_setting_is_refused_by_name(node, setting, message):
    found = node.run("async (RAG, input) => { try { await RAG.docs.chunk([], input); return ''; } catch (e) { return e.message; } }", setting)
    assert found.startswith(message)
