"""engine/documents.py and its twin site_src/engine/documents.js give the same blocks, titles,
passages, prose, page text and chunks, character for character, on: the corpus's Markdown (and
the page's own), the chunking lab's page, Unicode-heavy text, hostile HTML, Markdown with raw
HTML, empty input and huge input (lines of 100,000 characters), each read as Markdown, HTML and
plain text, and cut by every chunker. The JavaScript runs in Node over site_src/scripts/engine.js
(the chunkers it calls through RAG.engine), loaded first, as the page loads them."""

import json
import shutil
import subprocess
from dataclasses import asdict

import pytest

from engine.documents import (BLOCK, HEADINGS, HIDDEN, RAW, chunk_with, html_blocks, html_tokens, inline_text, markdown_blocks, markdown_html,
                              page_text, passages, prose_of, read_document, text_blocks)
from site_src.labs.chunking.data import grid_settings
from support.paths import ROOT

ENGINE_JS = ROOT / "site_src" / "scripts" / "engine.js"
DOCUMENTS_JS = ROOT / "site_src" / "engine" / "documents.js"
KINDS = ("markdown", "html", "text")

# Every chunker, at the ends of its sliders and in between (the lab's whole grid runs on the lab's page).
SETTINGS = [{"chunker": "fixed", "size": size, "overlap": overlap} for size, overlap in ((5, 0), (5, 2), (12, 0), (25, 10), (40, 20))]
SETTINGS += [{"chunker": "sentences", "limit": limit, "repeat": repeat} for limit, repeat in ((5, 0), (12, 2), (40, 1), (80, 2))]
SETTINGS += [{"chunker": "headings"}, {"chunker": "page"}]


def run_node(program: str, payload):
    node = shutil.which("node")
    assert node, "node is needed (make test installs it)"
    script = (f"const E = require({json.dumps(str(ENGINE_JS))});\n"
              "globalThis.RAG = { engine: E };  // engine.js first, as the page loads it\n"
              f"const D = require({json.dumps(str(DOCUMENTS_JS))});\n"
              "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n" + program)
    result = subprocess.run([node, "-e", script], input=json.dumps(payload), capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


JS_EVERYTHING = """
const out = input.cases.map(([source, text]) => {
  const docs = input.kinds.map((kind) => E.readDocument(source, text, kind));
  return {
    docs, passages: docs.map((d) => E.documentPassages(d)), packed: docs.map((d) => E.documentPassages(d, 12)),
    byName: E.readDocument(source, text),
    prose: E.proseOf(text), page: E.pageText(text), chunks: input.settings.map((s) => E.chunkWith(s, text)),
  };
});
process.stdout.write(JSON.stringify(out));
"""


def python_everything(source: str, text: str) -> dict:
    docs = [read_document(source, text, kind) for kind in KINDS]
    return {"docs": [asdict(d) for d in docs], "passages": [[asdict(p) for p in passages(d)] for d in docs],
            "packed": [[asdict(p) for p in passages(d, 12)] for d in docs],
            "byName": asdict(read_document(source, text)),
            "prose": prose_of(text), "page": page_text(text), "chunks": [chunk_with(s, text) for s in SETTINGS]}


def listed(value):
    """Tuples as lists, as they come back from JSON."""
    return json.loads(json.dumps(value))


def assert_twins_agree(cases: list[tuple[str, str]]) -> None:
    js = run_node(JS_EVERYTHING, {"cases": cases, "kinds": KINDS, "settings": SETTINGS})
    assert len(js) == len(cases)
    for (source, text), theirs in zip(cases, js):
        ours = listed(python_everything(source, text))
        for key in ours:
            assert theirs[key] == ours[key], f"{source}: {key} differs for {text[:80]!r}"


# ------------------------------------------------------------------ the inputs

def corpus_markdown() -> list[tuple[str, str]]:
    paths = sorted((ROOT / "corpus").rglob("*.md")) + sorted((ROOT / "tests" / "corpus" / "fixtures").rglob("*.md"))
    paths += sorted((ROOT / "site_src" / "sections").glob("*.md")) + [ROOT / "README.md", ROOT / "site_src" / "README.md"]
    return [(str(p.relative_to(ROOT)), p.read_text("utf-8")) for p in paths]


UNICODE = [
    "# שלום עולם\n\nטקסט בעברית עם המספר 42. ועוד משפט!\n\n## مرحبا بالعالم\n\nنص عربي، مع علامات: ٤٢.",
    "Cafe\u0301 nai\u0308ve \u2014 re\u0301sume\u0301.\n\n# \u00cbmoji \U0001f642\U0001f44d\U0001f3fd \U0001f468\u200d\U0001f469\u200d\U0001f467 \U0001f1eb\U0001f1f7\n\n*\U0001f642* and _\U0001f642_ and **\u05e9**.",
    "a\u00a0b\u00a0\u00a0c\n\u2028d\u2029e\x85f\ufeffg\x1ch\x1di\x1ej\x1fk\u200bl\u3000m\u202fn\u205fo\u1680p",
    "\ufeff# A heading after a BOM\n\ntext \ufeff inside",
    "\u202eRTL override\u202c text. \u200fRLM.\n\n#\u00a0not a heading (NBSP after the mark)\n\n\u00a0# nor this",
    "## Line\u2028separator in a heading\n\npara\x85graph\x0bwith\x0cbreaks\r\nand CRLF\rand CR",
    "<p>\u05e2\u05d1\u05e8\u05d9\u05ea &amp; \u0627\u0644\u0639\u0631\u0628\u064a\u0629 &#x1F642; &#128077; &#0; &#xD800; &#x110000; &nbsp;\u00a0</p>",
    "\U0001d400\U0001d401 [\U0001f642](https://x.example/\U0001f642) `\U0001f642` ![\U0001f642](y.png)",
]

HOSTILE_HTML = [
    '<script>alert("x")</script><p onclick="steal()">Hello <b onmouseover=\'x()\'>world</b></p>',
    '<a href="javascript:alert(1)">click</a> <a href=\'JaVaScRiPt:evil()\'>here</a> <a href=javascript:x>bare</a>',
    '<img src=x onerror=alert(1)><svg onload=alert(2)><text>svg text</text></svg>after',
    "<div><p>unclosed <b>bold <i>italic<div>next",
    "<p title=\"a > b\">quoted gt</p><p title='c > d'>single</p><p title=\"unclosed>never",
    "before<!-- a comment <script>alert(1)</script> -->after<!-- unterminated <p>gone",
    "x<![CDATA[<script>alert(1)</script>]]>y<![CDATA[ never closed",
    "&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt; &#60;b&#62; &#x3C;i&#x3E; &copy; &unknown; &amp &#",
    "<style>p { color: red } </style><p>styled</p><STYLE>body{}</StYlE>text",
    "<template><p>in a template</p><template>nested</template>still hidden</template>shown",
    "<noscript><p>no script</p></noscript>visible<noscript>unclosed noscript to the end",
    "<scr<script>ipt>alert(1)</script>tail</script >done<SCRIPT>x</SCRIPT >end",
    "<script>document.write('</scri' + 'pt>')</script>safe<script>var s = '</script>';</script>after",
    "<textarea><b>not bold</b></textarea><title>A title</title><iframe src=x>fallback</iframe>body",
    '<h1 class="x">Main <em>title</em></h1><h2>Sub</h2>text<h3>Third</h3><p>para</p><h7>not</h7>',
    "<ul><li>one</li><li>two<li>three</ul><table><tr><td>a</td><td>b</td></tr></table><br>x<br/>y",
    "<!DOCTYPE html><?xml version='1.0'?><html><head><meta charset=utf-8></head><body>Body</body></html>",
    "</>bogus</ 3>end</a b='>'>tail<",
    "<object data=x><param name=a>object text</object><canvas>canvas text</canvas><math><mi>x</mi></math>end",
    "<svg/>self-closing svg keeps what follows<template/>but a self-closing template hides it",
    "<select><option>choice</option></select>after the select <p>&#8217;quote&#8217; &hellip;</p>",
    "<a onclick=\"a > b\" href='x'>tricky</a><div\nclass=\"multi\nline\">multi-line tag</div>",
    "<p>unclosed attribute <a href=\"never closed",
]

# Every element the rules name, each between two words, in a text of its own and all in one.
EVERY_ELEMENT = [f"a <{name}>b</{name}> c <{name.upper()} x=1>d</{name}> e" for name in
                 sorted(BLOCK | RAW | HIDDEN | set(HEADINGS) | {"br", "span", "a"})]
HOSTILE_HTML += EVERY_ELEMENT + [" ".join(EVERY_ELEMENT)]

MARKDOWN_WITH_HTML = [
    "# Title\n\nText with <b>bold</b> and <script>alert(1)</script> a script.\n\n<div>\nBlock **html**\n</div>\n\nAfter.",
    "Para <!-- hidden\nacross lines --> visible.\n\n<script>\nmulti\nline\n</script>\n\nNext para.",
    "```html\n<script>alert(1)</script>\n&amp; kept\n```\n\nOutside: &amp; decoded <i>x</i>.",
    "<h2>An HTML heading</h2>\n\nIts text.\n\n<p>A <a href=\"javascript:x()\" onclick=\"y()\">link</a></p>",
    "Autolinks: <https://example.com/a_b> and <mail@example.com> and <javascript:alert(1)>, math a < b > c, x<y.",
    "<style>\n# not a heading\n</style>\n\n<template>\n## hidden heading\n</template>\nvisible",
    "Unclosed <script> here\n\n# never shown\n\ntext",
    "- item <b>one</b>\n- item two<br>continued\n  lazy\n* star\n+ plus\n1. first\n2) second\n\n> quoted # not heading\n> > deeper",
    "Setext\n======\n\nSecond\n------\n\n---\n\n***\n_ _ _\n\n| a | b |\n|---|:-:|\n| 1 | 2 |",
    "[ref]: https://example.com\n\nSee [the ref][ref] and ![alt text](img.png \"t\") and [link](https://x.example).",
    "Escapes: \\*not em\\* \\_no\\_ \\# \\[x\\] `code *not em*` ``a`b`` **strong** __strong__ *em* _em_ snake_case_name 2 * 3 * 4",
    "---\ntitle: \"Quoted: title\"\nother: x\n---\n# Heading\n\nBody",
    "---\ntitle: 'Single'\n---\n\ntext",
    "---\ntitle: \"\"\n---\n# Empty quotes give way to the heading\n",
    "---\ntitle: 'x\"\n---\nmismatched quotes stay",
    "A <?pi a > b ?> processing instruction, <?unterminated and <!decl> text",
    "---\nno title here\n---\n## First heading\ntext",
    "## Closing hashes ##\n### Only hashes ###\n#### \n##### trailing spaces   \t",
    "~~~\nfence with tildes\n~~~~\nstill code? no: closed by a longer run\n````\nbackticks\n```\nnot closed by a shorter run\n````\nafter",
    "    indented code line\n\ttabbed line\n\n<!DOCTYPE x> <?php echo 1; ?> <![CDATA[ data ]]> end",
    "<div onclick=\"x()\"\n     class=\"a\">multi-line tag</div> <a href='x'\ntitle=y>ok</a>",
]

EMPTY = ["", "\n", "\ufeff", "   \n\t\n", "---\n---\n", "---\ntitle: x\n", "```", "<", "<!--", "<script>", "#",
         "######", "####### seven", "- ", "> ", "***", "[]()", "``", "**", "&", "<>", "</>", "\x85", "\u2028"]

HUGE = [
    "word " * 20000, "x" * 100000, "*" * 100000, "`" * 100000, "[" * 100000, "<" * 100000, "<a" * 50000,
    "<!--" * 25000, " " * 99999 + "x", "#" + " " * 99998 + "x", "- " * 50000, "&amp;" * 20000,
    "a" + " " * 99998 + "b", "[a](" * 25000, "_a" * 50000, "<!a" * 33333, "a. " * 33333,
    "# " + "heading " * 12500, "<p>" * 33333, "<template>" * 10000, "\n".join(["para line"] * 10000),
]


# ------------------------------------------------------------------ the twins, equal

def test_the_twins_read_the_corpus_markdown_alike():
    assert_twins_agree(corpus_markdown())


def test_the_twins_cut_the_chunking_labs_page_alike_at_every_point_of_the_lab_grid():
    markdown = (ROOT / "corpus" / "chunking-lab.md").read_text("utf-8")
    grid = grid_settings()
    js = run_node("process.stdout.write(JSON.stringify({blocks: E.markdownBlocks(input.markdown), "
                  "prose: E.proseOf(input.markdown), page: E.pageText(input.markdown), "
                  "chunks: input.grid.map((s) => E.chunkWith(s, input.markdown))}))",
                  {"markdown": markdown, "grid": grid})
    assert js["blocks"] == listed([asdict(b) for b in markdown_blocks(markdown)])
    assert js["prose"] == prose_of(markdown) and js["page"] == page_text(markdown)
    assert len(js["chunks"]) == len(grid) == 432 + 228 + 2  # fixed, sentences, headings and page
    for setting, cut in zip(grid, js["chunks"]):
        assert cut == chunk_with(setting, markdown), setting


@pytest.mark.parametrize("group", ["unicode", "hostile html", "markdown with html", "empty"])
def test_the_twins_agree_on_odd_and_hostile_input(group):
    texts = {"unicode": UNICODE, "hostile html": HOSTILE_HTML, "markdown with html": MARKDOWN_WITH_HTML,
             "empty": EMPTY}[group]
    assert_twins_agree([(f"case-{i}.md", text) for i, text in enumerate(texts)])


def test_the_twins_agree_on_huge_input_in_linear_time():
    assert all(len(text) >= 99999 for text in HUGE)
    assert_twins_agree([(f"huge-{i}.html", text) for i, text in enumerate(HUGE)])


def test_the_twins_tokens_raw_html_and_inline_text_agree():
    texts = HOSTILE_HTML + MARKDOWN_WITH_HTML + UNICODE + EMPTY
    js = run_node("process.stdout.write(JSON.stringify({html: input.texts.map((t) => E.htmlTokens(t, false)), "
                  "md: input.texts.map((t) => E.htmlTokens(t, true)), raw: input.texts.map(E.markdownHtml), "
                  "inline: input.texts.map(E.inlineText), htmlBlocks: input.texts.map(E.htmlBlocks), "
                  "textBlocks: input.texts.map(E.textBlocks)}))", {"texts": texts})
    assert js["html"] == listed([html_tokens(t) for t in texts])
    assert js["md"] == listed([html_tokens(t, markdown=True) for t in texts])
    assert js["raw"] == [markdown_html(t) for t in texts]
    assert js["inline"] == [inline_text(t) for t in texts]
    assert js["htmlBlocks"] == listed([[asdict(b) for b in html_blocks(t)] for t in texts])
    assert js["textBlocks"] == listed([[asdict(b) for b in text_blocks(t)] for t in texts])


def test_the_twin_adds_itself_to_an_existing_engine_and_makes_one_when_missing():
    found = run_node("""
        const before = Object.keys(E).length;
        const made = require('vm').runInNewContext(require('fs').readFileSync(input.path, 'utf8') +
          ';typeof RAG.engine.chunkWith + "," + typeof RAG.engine.readDocument', {});
        process.stdout.write(JSON.stringify({kept: typeof E.chunkFixed, added: typeof E.chunkWith, made}));""",
                     {"path": str(DOCUMENTS_JS)})
    assert found == {"kept": "function", "added": "function", "made": "function,function"}


def test_the_twin_names_a_chunker_it_does_not_have():
    message = run_node("""try { E.chunkWith({chunker: "words"}, "x"); process.stdout.write('"no error"'); }
                          catch (e) { process.stdout.write(JSON.stringify(e.message)); }""", None)
    with pytest.raises(ValueError) as raised:
        chunk_with({"chunker": "words"}, "x")
    assert message == str(raised.value) == "no chunker 'words' (use one of fixed, sentences, headings, page)"
