"""The reader's files cut by the page's own scripts (read-files.js from the files' bytes, then
chunk-documents.js), in Node, give the engine's chunks (engine/documents.py read_document, then the
engine's chunkers: tests/docs/test_chunk.py engine_chunks) with every chunker setting, on the
inputs the twins are read on (tests/twins/document_inputs.py: Unicode-heavy text, right to left
included; hostile HTML; Markdown with raw HTML; empty and near-empty files; a few huge ones) and
on the documents' own fixtures (tests/docs/fixtures.py: text in many scripts, a 100,000-character
line, a hostile page, Markdown with raw HTML), each saved as Markdown, HTML and plain text.

What the twins prove already (each reading step, function by function) and test_chunk.py (the
sample documents) is not repeated: this is the whole way from a file's bytes to its chunks.
"""

import base64

import pytest

from docs.fixtures import HOSTILE_HTML as HOSTILE_PAGE, LONG_LINE_CHARS, RAW_MARKDOWN, SCRIPTS_TEXT
from engine import documents
from docs.sample_set import SETTINGS
from docs.test_chunk import engine_chunks
from twins.document_inputs import EMPTY, HOSTILE_HTML, HUGE, MARKDOWN_WITH_HTML, UNICODE

pytestmark = pytest.mark.slow  # about 5 s, 10 s on a busy machine: the reading of some 370 files, and six cuts

KINDS = ("md", "html", "txt")
HUGE_TAKEN = ["x" * 100000, "a. " * 33333, "# " + "heading " * 12500, "\n".join(["para line"] * 10000), "<p>" * 33333,
              "[a](" * 25000]
assert all(text in HUGE for text in HUGE_TAKEN)
FIXTURES = {"scripts.md": SCRIPTS_TEXT, "long-line.txt": ("word " * (LONG_LINE_CHARS // 5))[:-1] + ".",
            "hostile.html": HOSTILE_PAGE, "raw-html.md": RAW_MARKDOWN}  # as tests/docs/fixtures.py writes them

# Files as the reader's browser hands them over: bytes under a name; nothing of a file is refused
# for its size or the chunks' count here (the limits have tests of their own).
CUT = """async (RAG, input) => {
  const files = input.files.map(([name, b64]) => new File([Buffer.from(b64, "base64")], name));
  const limits = { files: 100000, textChars: 100000000, chunks: 1000000 };
  const read = await RAG.docs.read(files, { limits });
  const out = { refused: read.refused.map((r) => r.source), duplicates: read.duplicates.map((d) => d.source), stopped: read.stopped, cuts: [] };
  for (const setting of input.settings) {
    out.cuts.push((await RAG.docs.chunk(read.documents, setting, { limits })).chunks.map((c) => [c.source, c.text]));
  }
  return out;
}"""


@pytest.fixture(scope="module")
def files() -> list[tuple[str, bytes]]:
    """Every input under each kind's name, then the fixtures. The reader reads the same bytes
    once (a duplicate), so each kind's copy ends in one more newline than the one before."""
    texts = UNICODE + HOSTILE_HTML + MARKDOWN_WITH_HTML + EMPTY + HUGE_TAKEN
    found = [(f"input-{i:03d}.{kind}", (text + "\n" * n).encode("utf-8")) for i, text in enumerate(texts)
             for n, kind in enumerate(KINDS)]
    return found + [(name, text.encode("utf-8")) for name, text in FIXTURES.items()]


@pytest.fixture(scope="module")
def cut(node, files) -> dict:
    return node.run(CUT, {"files": [[name, base64.b64encode(data).decode()] for name, data in files], "settings": SETTINGS})


def test_a_file_is_refused_only_where_the_engine_reads_no_text_and_left_out_only_as_a_duplicate(cut, files):
    assert not cut["stopped"]
    for name, data in files:
        if name in cut["refused"]:
            blocks = documents.read_document(name, data.decode("utf-8")).blocks
            assert not any(b.text.strip() for b in blocks), f"{name} refused, but the engine reads text in it"
    seen = {}
    for name, data in files:
        seen.setdefault(data, name)
    assert all(seen[dict(files)[name]] != name for name in cut["duplicates"]), "a duplicate is the same bytes as a file before it"
    assert len(files) - len(cut["refused"]) - len(cut["duplicates"]) > 300


@pytest.mark.parametrize("at", range(len(SETTINGS)), ids=lambda at: "-".join(str(v) for v in SETTINGS[at].values()))
def test_every_file_is_cut_as_the_engine_cuts_it(cut, files, at):
    skipped = set(cut["refused"]) | set(cut["duplicates"])
    expected = [[name, text] for name, data in files if name not in skipped
                for text in engine_chunks(SETTINGS[at], name, data.decode("utf-8"))]
    found = cut["cuts"][at]
    first = next((i for i, (a, b) in enumerate(zip(found, expected)) if a != b), min(len(found), len(expected)))
    assert found == expected, f"chunk {first} differs: page {found[first:first + 1]!r}, engine {expected[first:first + 1]!r}"
    assert len({name for name, _ in found}) > 300  # most files give chunks: the comparison is not an empty one
    assert {name.rsplit(".", 1)[1] for name, _ in found} == set(KINDS)
