"""The documents the twins of engine/documents.py are read on (tests/twins/fixtures.py makes them
fixtures): every Markdown file of the repository, Unicode-heavy text, hostile HTML (every element
the rules name among them), Markdown with raw HTML, empty inputs and huge ones.

Example: len(HUGE[0]) >= 99999 -> True
"""

from engine.documents import BLOCK, HEADINGS, HIDDEN, RAW
from support.paths import ROOT


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
