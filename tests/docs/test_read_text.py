"""Reading the reader's text files (site_src/docs/read-files.js, sniff.js, decode-text.js), in Node
on the page's own scripts: what is read equals the engine's reading of the same file
(engine/documents.py), what is refused says why, nothing past a limit is read, duplicates are read
once. PDF and DOCX, the requests a page makes and its responsiveness are in Chromium
(test_read_browser.py)."""

import base64

import pytest

from engine import documents
from docs.fixtures import (DUPLICATE_TEXT, HOSTILE_VISIBLE, LONG_LINE_CHARS, RAW_MARKDOWN_VISIBLE, make_fixtures,
                           png_bytes)

# Files as Node's File objects (Node 20 has File), each from base64 bytes.
READ = """async (RAG, input) => {
  const files = input.files.map(([name, b64]) => new File([Buffer.from(b64, "base64")], name));
  const found = await RAG.docs.read(files, input.options || {});
  return found;
}"""


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    return make_fixtures(tmp_path_factory.mktemp("docs-fixtures"))


def files_of(fixtures, *names):
    return [[name, base64.b64encode(fixtures[name].read_bytes()).decode()] for name in names]


def read(node, fixtures, *names, options=None):
    return node.run(READ, {"files": files_of(fixtures, *names), "options": options})


def engine_blocks(source: str, text: str) -> list[dict]:
    return [{"level": b.level, "text": b.text} for b in documents.read_document(source, text).blocks]


def test_text_in_any_script_and_a_100000_character_line_read_as_the_engine_reads_them(node, fixtures):
    found = read(node, fixtures, "scripts.md", "long-line.txt")
    assert not found["refused"] and not found["stopped"]
    by_source = {d["source"]: d for d in found["documents"]}
    for name in ("scripts.md", "long-line.txt"):
        text = fixtures[name].read_text("utf-8")
        assert by_source[name]["blocks"] == engine_blocks(name, text)
    assert any("גיבוי מלא נשמר" in b["text"] for b in by_source["scripts.md"]["blocks"])  # right to left, kept as written
    assert any("العربية" in b["text"] for b in by_source["scripts.md"]["blocks"])
    assert len(by_source["long-line.txt"]["blocks"][0]["text"]) == LONG_LINE_CHARS
    assert by_source["scripts.md"]["sha256"] == __import__("hashlib").sha256(fixtures["scripts.md"].read_bytes()).hexdigest()


def test_hostile_html_and_markdown_with_raw_html_keep_their_text_and_lose_their_markup(node, fixtures):
    found = read(node, fixtures, "hostile.html", "raw-html.md")
    by_source = {d["source"]: d for d in found["documents"]}
    for name in ("hostile.html", "raw-html.md"):
        assert by_source[name]["blocks"] == engine_blocks(name, fixtures[name].read_text("utf-8"))
    hostile = by_source["hostile.html"]["text"]
    assert HOSTILE_VISIBLE in hostile and "A scripted link" in hostile
    for piece in ("__docsHostileRan", "fetch(", "javascript:", "attacker.invalid", "<", "onerror", "Hostile page"):
        assert piece not in hostile, piece
    raw = by_source["raw-html.md"]["text"]
    assert RAW_MARKDOWN_VISIBLE in raw and "A div's text is kept." in raw
    assert "__docsHostileRan" not in raw and "<script" not in raw


def test_each_bad_file_is_refused_alone_and_says_why(node, fixtures):
    found = read(node, fixtures, "empty.txt", "blank.md", "utf16.txt", "latin1.txt", "nul.txt", "picture.md", "scripts.md")
    reasons = {r["source"]: r["reason"] for r in found["refused"]}
    assert [d["source"] for d in found["documents"]] == ["scripts.md"]
    assert reasons["empty.txt"].startswith("is empty (0 bytes)")
    assert reasons["blank.md"].startswith("holds only white space")
    assert reasons["utf16.txt"].startswith("is UTF-16 text") and "Save it as UTF-8" in reasons["utf16.txt"]
    assert reasons["latin1.txt"] == ("is not UTF-8: byte 4 (0xE9) starts no UTF-8 character (Latin-1 or Windows-1252?). "
                                     "Save it as UTF-8 and choose it again.")
    assert reasons["nul.txt"].startswith("holds a NUL byte (byte 13)")
    assert reasons["picture.md"].startswith("an image (PNG)"), "known by its bytes, not its name"


@pytest.mark.parametrize("name, head, expected", [
    ("notes.txt", b"%PDF-1.7\n", {"kind": "pdf"}),                     # a PDF by its bytes, whatever its name
    ("notes.pdf", b"# Not a PDF", "named .pdf, but its bytes are not a PDF's"),
    ("notes.docx", b"# Not a zip", "named .docx, but it is not one"),
    ("archive.zip", b"PK\x03\x04rest", "a ZIP archive"),
    ("sheet.xlsx", b"PK\x03\x04rest", "a spreadsheet (.xlsx)"),
    ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "an old Office file"),
    ("photo.txt", b"\xff\xd8\xff\xe0rest", "an image (JPEG)"),
    ("drawing.md", b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">', "an image (SVG)"),
    ("letter.rtf", b"{\\rtf1\\ansi hello}", "a Rich Text (.rtf) file"),
    ("bmw.md", b"BMW owners keep their manuals here.", {"kind": "text"}),  # "BM", but no BMP header
])
def test_a_file_is_known_by_its_bytes(node, name, head, expected):
    found = node.run("async (RAG, input) => RAG.docs.sniff(new Uint8Array(input.bytes), input.name)",
                     {"bytes": list(head), "name": name})
    if isinstance(expected, dict):
        assert found == expected
    else:
        assert found["refused"].startswith(expected), found


def test_a_png_is_refused_by_its_bytes_under_any_name(node):
    for name in ("scan.png", "notes.md", "readme"):
        found = node.run("async (RAG, input) => RAG.docs.sniff(new Uint8Array(input.bytes), input.name)",
                         {"bytes": list(png_bytes()), "name": name})
        assert found["refused"].startswith("an image (PNG)")


def test_utf8_is_checked_byte_for_byte(node):
    """decode-text.js's own finder of the first bad byte agrees with Python's decoder on each case."""
    cases = [b"ok", b"\xef\xbb\xbfwith a BOM", "caf\xe9".encode("latin-1"), b"\xc0\xaf", b"\xed\xa0\x80",
             b"\xf4\x90\x80\x80", b"a\xe2\x82", b"\xe2\x82\xac euro", "日本".encode()]
    found = node.run("async (RAG, input) => input.map((b) => [RAG.docs.firstInvalidUtf8(new Uint8Array(b)), RAG.docs.decodeText(new Uint8Array(b))])",
                     [list(c) for c in cases])
    for case, (at, decoded) in zip(cases, found):
        try:
            expected_text, expected_at = case.decode("utf-8"), -1
        except UnicodeDecodeError as error:
            expected_text, expected_at = None, error.start
        assert at == expected_at, case
        if expected_text is None:
            assert decoded["refused"].startswith("is not UTF-8")
        else:
            assert decoded == {"text": expected_text.removeprefix("\ufeff")}, case


def test_the_same_bytes_twice_are_read_once_and_named(node, fixtures):
    found = read(node, fixtures, "same-a.md", "same-b.md")
    assert [d["source"] for d in found["documents"]] == ["same-a.md"]
    assert found["duplicates"] == [{"source": "same-b.md", "sameAs": "same-a.md"}]
    assert found["documents"][0]["blocks"] == engine_blocks("same-a.md", DUPLICATE_TEXT)


# Files that count how often they are read: what is refused before reading is never opened.
COUNTED = """async (RAG, input) => {
  let opened = 0;
  const file = (name, size, text) => ({ name, size, arrayBuffer: async () => { opened += 1; return new TextEncoder().encode(text).buffer; } });
  const files = input.files.map(([name, size, text]) => file(name, size, text));
  const found = await RAG.docs.read(files, { limits: input.limits });
  return { found, opened };
}"""


def test_a_file_past_the_size_limit_is_refused_without_being_read(node):
    result = node.run(COUNTED, {"files": [["big.txt", 50 * 1024 * 1024, "x"], ["small.md", 5, "small"]]})
    assert result["opened"] == 1
    assert result["found"]["refused"] == [{"source": "big.txt", "reason": (
        "is 50.0 MB, more than the 20.0 MB one file may have here; it was not read. Split it, or keep the part you need.")}]
    assert [d["source"] for d in result["found"]["documents"]] == ["small.md"]


def test_too_many_files_stop_the_reading_before_any_is_read(node):
    files = [[f"note-{i}.md", 6, f"note {i}"] for i in range(10_000)]
    result = node.run(COUNTED, {"files": files})
    assert result["opened"] == 0
    assert result["found"]["documents"] == [] and result["found"]["stopped"].startswith(
        "10,000 files is more than the 200 one reading takes, so none was read.")


def test_too_much_text_in_all_keeps_nothing(node):
    files = [[f"part-{i}.txt", 30, f"words {i} " * 3] for i in range(5)]  # 23 characters each: 69 after three, 92 after four
    result = node.run(COUNTED, {"files": files, "limits": {"textChars": 70}})
    found = result["found"]
    assert found["documents"] == [] and found["refused"] == []
    assert found["stopped"].startswith("These files hold more than 70 characters of text (the limit was passed at part-3.txt)")
    assert result["opened"] == 4, "the reading stops at the file that passes the limit"


def test_the_limits_are_stated_in_one_place(node):
    assert node.run("async (RAG) => RAG.docs.LIMITS") == {
        "files": 200, "fileBytes": 20 * 1024 * 1024, "textChars": 5_000_000, "chunks": 2000, "pdfSeconds": 60}


def test_pasted_text_and_two_files_of_one_name(node):
    found = node.run("""async (RAG) => RAG.docs.read([{name: "pasted.md", text: "# Pasted\\n\\nA lone \\ud800 surrogate."},
                                                       new File(["one"], "notes.txt"), new File(["two"], "notes.txt")])""")
    assert [d["source"] for d in found["documents"]] == ["pasted.md", "notes.txt", "notes.txt (2)"]
    assert found["documents"][0]["blocks"] == [{"level": 1, "text": "Pasted"}, {"level": 0, "text": "A lone \ufffd surrogate."}]


def test_a_cancelled_reading_rejects_and_keeps_nothing(node):
    found = node.run("""async (RAG) => {
      const stop = new AbortController();
      const files = Array.from({ length: 50 }, (_, i) => ({ name: `n${i}.md`, size: 3,
        arrayBuffer: async () => { if (i === 5) stop.abort(); return new TextEncoder().encode("abc").buffer; } }));
      try { await RAG.docs.read(files, { signal: stop.signal }); return "resolved"; } catch (error) { return error.name; }
    }""")
    assert found == "AbortError"
