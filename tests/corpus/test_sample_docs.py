"""The sample documents of "Try it on your documents" (corpus/sample-docs/): the set a reader
loads with one click when they have no documents of their own, and its six questions.

The fast tests keep the set honest before the feature reads it: every file is UTF-8, every
document is 150 to 700 words and the set 2,000 to 3,500, there are six questions of the kinds
corpus/README.md lists and each is of the kind it says, every quote is in its own document's
visible text and in no other, the HTML's <script>, <style> and <nav> hold words that appear
nowhere in the visible text (so a reader that leaks them can be caught), and nothing of
Quillbox, of a real company or of a real host is in it.

The slow test cuts every document by heading, ranks the chunks for each question with BM25 and
with the real all-MiniLM-L6-v2 (its vectors kept by text hash, tests/support/reference.py: a warm
run loads no model), writes the ranks to test-artifacts/sample-docs-recall.json, and requires a
fair contest: neither retriever finds all six at rank 1, each finds two or more in its top 3.

What "visible text" means here (a reader may extract more carefully, but every quote lies
within one paragraph, list item, heading or table row, so any reader that keeps those whole
finds it):
- a Markdown or plain-text file is its text as written;
- an HTML file is the text of its elements outside <head>, <script>, <style>, <nav> and
  <template>, entities decoded, one line per block element (paragraph, list item, heading,
  table row, ...), white space inside a line collapsed, and each heading written as a Markdown
  heading (`## ` for an <h2>) so the heading chunker sees where sections start.
"""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from engine.chunking import chunk_headings
from engine.tokenize import tokenize
from support.paths import ARTIFACTS, ROOT
from support.reference import reference_vectors, wordpieces

SAMPLE_DIR = ROOT / "corpus" / "sample-docs"
QUESTIONS_FILE = SAMPLE_DIR / "questions.yaml"
DOCUMENT_SUFFIXES = (".md", ".txt", ".html")
KINDS = ("paraphrase", "identifier", "table", "split", "keyword", "typo")
DOCUMENT_WORDS = (150, 700)
SET_WORDS = (2000, 3500)
QUOTE_WORDS = (4, 15)
HIDDEN_TAGS = ("head", "script", "style", "nav", "template")
BLOCK_TAGS = ("address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
              "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
              "main", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul")
# The names a writer of backup-tool documentation reaches for first: platforms, clouds, storage
# vendors, tools and the people behind them. The set invents its product and names no one real.
REAL_NAMES = ("amazon", "aws", "s3", "google", "gcp", "microsoft", "azure", "onedrive", "windows", "apple",
              "macos", "icloud", "linux", "ubuntu", "debian", "red hat", "fedora", "canonical", "docker",
              "kubernetes", "backblaze", "dropbox", "synology", "qnap", "hetzner", "digitalocean",
              "cloudflare", "wasabi", "github", "gitlab", "slack", "okta", "raspberry", "restic", "borg",
              "rclone", "duplicati", "veeam", "acronis", "openai", "facebook", "torvalds", "linus")
# The words a question shares with any text about anything: a paraphrase may share only these.
FUNCTION_WORDS = {"a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "have", "how",
                  "i", "if", "in", "is", "it", "my", "no", "not", "of", "on", "or", "s", "so", "that", "the", "there",
                  "this", "to", "what", "when", "why", "with", "you", "your"}
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://(?:[^@/\s\"'<>]+@)?([^/:\s\"'<>]+)")
LOCAL_HOSTS = (".example", ".lan")  # reserved for examples (RFC 2606) / a home network's own names


class VisibleText(HTMLParser):
    """The visible text of an HTML page, as the module docstring defines it, and the text of each
    hidden element (`hidden`: (tag, text) pairs in document order).

    Example: VisibleText.of("<nav>Home</nav><h2>Limits</h2><p>Up to <b>4</b> uploads</p>")
             -> "## Limits\\nUp to 4 uploads"
    """

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.hidden: list[tuple[str, list[str]]] = []
        self.open_hidden: list[int] = []  # indices into `hidden` of the hidden elements now open

    @classmethod
    def parse(cls, markup: str) -> "VisibleText":
        parser = cls()
        parser.feed(markup)
        parser.close()
        parser.end_line()
        return parser

    @classmethod
    def of(cls, markup: str) -> str:
        return "\n".join(cls.parse(markup).lines)

    def end_line(self):
        line = " ".join("".join(self.current).split())
        if line.strip("# "):
            self.lines.append(line)
        self.current = []

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN_TAGS:
            self.hidden.append((tag, []))
            self.open_hidden.append(len(self.hidden) - 1)
        elif not self.open_hidden and tag in BLOCK_TAGS:
            self.end_line()
            if re.fullmatch(r"h[1-6]", tag):
                self.current.append("#" * int(tag[1]) + " ")

    def handle_endtag(self, tag):
        if self.open_hidden and self.hidden[self.open_hidden[-1]][0] == tag:
            self.open_hidden.pop()
        elif not self.open_hidden and tag in BLOCK_TAGS:
            self.end_line()

    def handle_data(self, data):
        if self.open_hidden:
            self.hidden[self.open_hidden[-1]][1].append(data)
        else:
            self.current.append(data)


# ----------------------------------------------------------------- reading the set

def documents() -> list[Path]:
    return sorted(p for p in SAMPLE_DIR.iterdir() if p.suffix in DOCUMENT_SUFFIXES)


def visible_text(path: Path) -> str:
    text = path.read_text("utf-8")
    return VisibleText.of(text) if path.suffix == ".html" else text


def words(text: str) -> list[str]:
    """White-space separated pieces that hold a letter or a digit (a table's `|` is no word)."""
    return [piece for piece in text.split() if any(char.isalnum() for char in piece)]


def load_questions() -> list[dict]:
    return yaml.safe_load(QUESTIONS_FILE.read_text("utf-8"))


def quotes(questions: list[dict]) -> list[tuple[str, str, str]]:
    """(question id, document name, quote) for every quote of every question."""
    return [(q["id"], name, quote) for q in questions for name, listed in q["answers"].items() for quote in listed]


def folded(text: str) -> str:
    return " ".join(text.split()).lower()


TEXTS = {path.name: visible_text(path) for path in documents()}
QUESTIONS = load_questions()


# ----------------------------------------------------------------- the files

def test_visible_text_of_html_leaves_out_head_script_style_and_nav():
    page = ("<html><head><title>Tab title</title><style>p { color: red }</style></head><body>"
            "<nav><a href='/'>Home</a></nav><h1>Limits</h1><p>Up to <b>4</b>\n  uploads &amp; more</p>"
            "<ul><li>one</li><li>two</li></ul><script>track('x')</script><footer>End</footer></body></html>")
    parsed = VisibleText.parse(page)
    assert "\n".join(parsed.lines) == "# Limits\nUp to 4 uploads & more\none\ntwo\nEnd"
    assert [(tag, "".join(text)) for tag, text in parsed.hidden] == [
        ("head", "Tab title"), ("style", "p { color: red }"), ("nav", "Home"), ("script", "track('x')")]


def test_every_file_is_utf8_text_and_the_set_mixes_formats():
    names = sorted(p.name for p in SAMPLE_DIR.iterdir())
    assert names == sorted([p.name for p in documents()] + [QUESTIONS_FILE.name]), \
        f"{SAMPLE_DIR}: only .md, .txt and .html documents and questions.yaml belong here, found {names}"
    for path in SAMPLE_DIR.iterdir():
        text = path.read_bytes().decode("utf-8")  # raises on anything else
        assert "\0" not in text and "\r" not in text and "\ufeff" not in text, f"{path.name}: NUL, CR or BOM"
        assert text.endswith("\n"), f"{path.name}: end the file with a line break"
    suffixes = [p.suffix for p in documents()]
    assert 5 <= len(suffixes) <= 8, suffixes
    assert suffixes.count(".md") > len(suffixes) / 2 and 1 <= suffixes.count(".html") <= 2 and suffixes.count(".txt") == 1


def test_word_counts():
    counts = {name: len(words(text)) for name, text in TEXTS.items()}
    low, high = DOCUMENT_WORDS
    assert all(low <= n <= high for n in counts.values()), f"each document needs {low}-{high} words: {counts}"
    low, high = SET_WORDS
    assert low <= sum(counts.values()) <= high, f"the set needs {low}-{high} words, has {sum(counts.values())}"


def test_markdown_is_cut_by_headings_and_one_document_is_one_paragraph():
    """The set's shapes, which make chunkers disagree: many short sections, one long paragraph."""
    sections = {name: len(chunk_headings(text)) for name, text in TEXTS.items()}
    assert max(sections.values()) >= 8, sections
    paragraphs = {name: max(len(words(line)) for line in text.splitlines()) for name, text in TEXTS.items()}
    assert max(paragraphs.values()) >= 300, f"one document should be one long paragraph: {paragraphs}"


# ----------------------------------------------------------------- the questions

def test_six_questions_of_the_listed_kinds():
    assert len(QUESTIONS) == 6
    assert len({q["id"] for q in QUESTIONS}) == 6
    for q in QUESTIONS:
        assert set(q) == {"id", "kind", "question", "answers", "note"}, q
        assert re.fullmatch(r"[a-z0-9-]+", q["id"]) and q["kind"] in KINDS, q
        assert q["question"].strip() and q["note"].strip() and "\n" not in q["note"], q
        assert q["answers"] and all(name in TEXTS and listed for name, listed in q["answers"].items()), q
    kinds = sorted("identifier or typo" if q["kind"] in ("identifier", "typo") else q["kind"] for q in QUESTIONS)
    assert kinds == ["identifier or typo", "keyword", "paraphrase", "paraphrase", "split", "table"]


@pytest.mark.parametrize("question_id, name, quote", quotes(QUESTIONS), ids=lambda v: v[:30])
def test_each_quote_is_in_one_line_of_its_document_and_in_no_other(question_id, name, quote):
    low, high = QUOTE_WORDS
    assert low <= len(words(quote)) <= high, f"{question_id}: a quote has {low}-{high} words: {quote!r}"
    assert quote == " ".join(quote.split()), f"{question_id}: single spaces only: {quote!r}"
    assert not re.search(r"[`*#<>\[\]]", quote), f"{question_id}: no Markdown or HTML markup in a quote: {quote!r}"
    lines = [line for line in TEXTS[name].splitlines() if quote in line]
    assert len(lines) == 1, f"{question_id}: {quote!r} must be in exactly one line of {name}'s visible text"
    elsewhere = [other for other, text in TEXTS.items() if other != name and folded(quote) in folded(text)]
    assert not elsewhere, f"{question_id}: {quote!r} is also in {elsewhere}"


def test_each_quote_survives_the_heading_chunker():
    """One chunk of its document holds each quote whole, so the slow test can find the answers."""
    for question_id, name, quote in quotes(QUESTIONS):
        holding = [chunk for chunk in chunk_headings(TEXTS[name]) if quote in " ".join(chunk.split())]
        assert len(holding) == 1, (question_id, name, quote)


def holding_chunks(question: dict) -> list[tuple[str, int]]:
    """(document, chunk number) of each heading chunk that holds one of the question's quotes."""
    return [(name, number) for name, listed in question["answers"].items()
            for number, chunk in enumerate(chunk_headings(TEXTS[name]), start=1)
            if any(quote in " ".join(chunk.split()) for quote in listed)]


def by_kind(kind: str) -> list[dict]:
    return [q for q in QUESTIONS if q["kind"] == kind]


def test_each_kind_is_what_its_name_says():
    """paraphrase: no word in common with an answering section but function words; identifier
    and keyword: a term of the question that leads to the answer, found in at most two sections
    of the set; table: the quote is a row of a Markdown table; split: a quote for each part, in
    one section (adjacent sentences) or in two adjacent sections."""
    sections = [chunk for text in TEXTS.values() for chunk in chunk_headings(text)]
    for q in by_kind("paraphrase"):
        for name, number in holding_chunks(q):
            shared = set(tokenize(q["question"])) & set(tokenize(chunk_headings(TEXTS[name])[number - 1]))
            assert shared <= FUNCTION_WORDS, f"{q['id']} shares {sorted(shared - FUNCTION_WORDS)} with {name}"
    for q in by_kind("identifier") + by_kind("keyword"):
        answer_terms = {term for name, number in holding_chunks(q) for term in tokenize(chunk_headings(TEXTS[name])[number - 1])}
        rare = [term for term in set(tokenize(q["question"])) & answer_terms
                if sum(term in tokenize(section) for section in sections) <= 2]
        assert rare, f"{q['id']}: no rare term of the question leads to its answer"
    for q in by_kind("table"):
        assert all(line.startswith("|") for name, listed in q["answers"].items() for quote in listed
                   for line in TEXTS[name].splitlines() if quote in line), q["id"]
    for q in by_kind("split"):
        places = sorted(set(holding_chunks(q)))
        assert sum(map(len, q["answers"].values())) >= 2, f"{q['id']}: a split answer has a quote for each part"
        assert len(places) == 1 or (len(places) == 2 and places[0][0] == places[1][0]
                                    and places[1][1] == places[0][1] + 1), (q["id"], places)


# ----------------------------------------------------------------- what must not be in it

def hidden_elements() -> list[tuple[str, str, str]]:
    """(document, tag, text) of every <head>, <script>, <style>, <nav> and <template> of the set."""
    return [(path.name, tag, "".join(text)) for path in documents() if path.suffix == ".html"
            for tag, text in VisibleText.parse(path.read_text("utf-8")).hidden]


def test_hidden_markup_holds_words_the_visible_text_never_uses():
    """A reader that leaks a <script>, <style> or <nav> into the text will show these words."""
    seen = {term for text in TEXTS.values() for term in tokenize(text)}
    elements = hidden_elements()
    for name in (p.name for p in documents() if p.suffix == ".html"):
        assert {tag for doc, tag, _ in elements if doc == name} >= {"script", "style", "nav"}, name
    for name, tag, text in elements:
        if tag in ("script", "style", "nav"):
            unseen = sorted({term for term in tokenize(text) if not term.isdigit()} - seen)
            assert len(unseen) >= 3, f"{name} <{tag}>: only {unseen} appear nowhere in the visible text"


def test_nothing_of_quillbox_is_in_the_set():
    help_ids = [match.group(1) for path in sorted((ROOT / "corpus" / "help").glob("*.md"))
                for match in re.finditer(r"^## ([a-z0-9-]+) \|", path.read_text("utf-8"), re.M)]
    assert len(help_ids) >= 30  # the help center's passages were found
    for path in documents() + [QUESTIONS_FILE]:
        text = path.read_text("utf-8")
        assert "quillbox" not in text.lower() and not re.search(r"\bQB-\d", text), path.name
        found = [pid for pid in help_ids if re.search(rf"(?<![\w-]){re.escape(pid)}(?![\w-])", text, re.I)]
        assert not found, f"{path.name} holds Quillbox passage ids {found}"


def test_no_real_company_person_or_host_is_named():
    for path in documents() + [QUESTIONS_FILE]:
        text = path.read_text("utf-8")
        terms = " " + " ".join(tokenize(text)) + " "
        named = [name for name in REAL_NAMES if f" {name} " in terms]
        assert not named, f"{path.name} names {named}: the sample set invents its world"
        hosts = [host for host in URL.findall(text) if not host.endswith(LOCAL_HOSTS)]
        assert not hosts, f"{path.name} links to {hosts}: use a host under .example"


# ----------------------------------------------------------------- a fair contest (loads the model)

RECALL_FILE = ARTIFACTS / "sample-docs-recall.json"


def heading_chunks() -> list[dict]:
    """Every document cut by heading: id `<document>#<n>`, the document, the section's heading."""
    chunks = []
    for name, text in TEXTS.items():
        for number, chunk in enumerate(chunk_headings(text), start=1):
            chunks.append({"id": f"{name}#{number}", "document": name, "heading": chunk.split("\n")[0],
                           "words": len(words(chunk)), "text": chunk})
    return chunks


def answering_ids(question: dict, chunks: list[dict]) -> list[str]:
    return [c["id"] for c in chunks if first_quote(question, c) is not None]


def first_quote(question: dict, chunk: dict) -> str | None:
    """The first of the question's quotes that `chunk` holds (None: it answers nothing)."""
    flat = " ".join(chunk["text"].split())
    return next((quote for quote in question["answers"].get(chunk["document"], ()) if quote in flat), None)


def quote_wordpiece(chunk: dict, quote: str) -> int:
    """Where the quote starts in what the model reads of the chunk, [CLS] being wordpiece 0: past
    MAX_WORDPIECES - 1 the model never sees it."""
    flat = " ".join(chunk["text"].split())
    return 1 + wordpieces([flat[:flat.index(quote)]], special=False)[0]


@pytest.mark.slow
def test_bm25_and_dense_each_win_some_and_lose_some():
    from builder.search import RETRIEVERS, bm25_ranking, dense_ranking, hybrid_ranking
    from engine.bm25 import BM25
    from engine.evaluate import recall_at_k
    from engine.settings import MAX_WORDPIECES, RECALL_KS

    chunks = heading_chunks()
    ids = [c["id"] for c in chunks]
    by_id = {c["id"]: c for c in chunks}
    index = BM25([c["text"] for c in chunks])
    chunk_vectors = reference_vectors([c["text"] for c in chunks])
    question_vectors = reference_vectors([q["question"] for q in QUESTIONS])
    found = []
    for q, vector in zip(QUESTIONS, question_vectors):
        dense = dense_ranking(ids, chunk_vectors, vector)
        bm25 = bm25_ranking(ids, index, q["question"])
        runs = {"bm25": bm25, "dense": dense, "hybrid": hybrid_ranking(dense, bm25)}
        right = answering_ids(q, chunks)
        assert right, f"{q['id']}: no heading chunk holds a quote"
        ranks = {name: next((rank for rank, (cid, _) in enumerate(runs[name], start=1) if cid in right), None)
                 for name in RETRIEVERS}
        starts = {cid: quote_wordpiece(by_id[cid], first_quote(q, by_id[cid])) for cid in right}
        found.append({"id": q["id"], "kind": q["kind"], "question": q["question"], "answers": right,
                      "quote_starts_at_wordpiece": starts, "ranks": ranks,
                      "top3": {name: [[cid, score] for cid, score in runs[name][:3]] for name in RETRIEVERS}})
    recall = {name: {str(k): list(recall_at_k([f["ranks"][name] for f in found], k)) for k in RECALL_KS}
              for name in RETRIEVERS}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    RECALL_FILE.write_text(json.dumps({
        "schema": 1, "chunker": "headings", "model_window_wordpieces": MAX_WORDPIECES, "documents": list(TEXTS),
        "chunks": [{key: c[key] for key in ("id", "document", "heading", "words")} for c in chunks],
        "questions": found, "recall": recall}, indent=1, ensure_ascii=False) + "\n", "utf-8")

    table = "\n".join(f"  {f['id']:16} " + "  ".join(f"{name} {f['ranks'][name]}" for name in RETRIEVERS) for f in found)
    for name in ("bm25", "dense"):
        ranks = [f["ranks"][name] for f in found]
        assert recall_at_k(ranks, 1)[0] < len(QUESTIONS), f"{name} finds every answer first: no contest\n{table}"
        assert recall_at_k(ranks, 3)[0] >= 2, f"{name} finds fewer than two answers in its top 3\n{table}"
