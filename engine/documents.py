"""Documents -> passages: a Markdown, HTML or plain-text file read as headings and paragraphs,
then cut into passages by heading. A pure text transform: nothing is fetched or run, and no
attribute of any tag is read. The browser's twin, site_src/engine/documents.js, follows the
rules below character for character (tests/twins/test_documents.py holds the two equal).

Common rules
- White space is Python's (str.isspace, SPACE below); a text's words are str.split()'s;
  "collapsed" is " ".join(text.split()); lines are str.splitlines()'s. A leading U+FEFF is dropped.
- A document is a list of blocks: a heading (level 1 to 6) or a paragraph (level 0), each
  with collapsed, non-empty text (a block that would be empty is dropped).
- Entities are decoded by engine/citations.py decode_entities (its named ENTITIES and numeric
  references; anything else stays as written), once.
- The kind of a file is its name's ending: .md, .markdown -> markdown; .html, .htm -> html;
  anything else -> text.

Plain text: paragraphs are runs of lines that are not blank (blank: only white space). No headings.

HTML, as a tokenizer reads it from left to right:
- `<!--` starts a comment, ending after the next `-->`; `<![CDATA[` a section ending after the
  next `]]>`; any other `<!` or `<?` a declaration ending after the next `>`. Each is dropped;
  one that never ends drops the rest of the text.
- `</` and an ASCII letter start an end tag, ending after the next `>` (or at the end); its name
  is the ASCII letters, digits and `-` that follow, in lower case. `</` and anything else start a
  bogus comment, dropped up to the next `>`.
- `<` and an ASCII letter start a start tag: a name as above, then anything up to a `>` that is
  not inside "…" or '…'. With no such `>`, the rest of the text is the tag.
- Any other `<`, and everything between tags, is text, whose entities are decoded.
- RAW elements (script, style, title, textarea, xmp, iframe, noembed, noframes) are dropped with
  everything up to the next end tag of the same name, which is never parsed as markup.
  HIDDEN elements (template, noscript, svg, math, object, canvas, select) are dropped with
  everything inside them, up to the end tag that closes the first one (its own start tags
  nested inside it are counted; a start tag ending in `/>` opens nothing); unclosed, to the end.
- A start or end tag of a BLOCK element ends the block being read; a start tag h1 to h6 starts
  a heading of that level, and their end tags end it. br adds a space. Every other tag is
  removed without a trace (`a<b>c</b>` reads "ac"). Attributes (event handlers, links'
  targets, styles) are never read.

Markdown (a practical subset of CommonMark), line by line:
- Front matter: when the first line is `---` (white space around it aside), the lines up to
  the next such line (if one follows) are front matter, not text. Its first `title:` line (at the line's
  start) gives the document's title: the value stripped, and one pair of matching quotes
  ("…" or '…') around it removed. The rest of it is not read here.
- Fenced code: a line of up to three spaces then three or more ``` or ~~~ opens a fence; a
  line of up to three spaces, at least as many of the same character, then only white space,
  closes it (else the end does). The lines inside are one paragraph, collapsed, as written:
  no markup removed, no entity decoded.
- Raw HTML, in each run of lines between fences (joined with "\\n"): comments, CDATA,
  declarations (`<!` and a letter), processing instructions (`<?` … `?>`), RAW and HIDDEN
  elements are dropped as in HTML; a BLOCK element's tag becomes a blank line, h1 to h6's start
  tag "\\n\\n" + that many "#" + " " and their end tag "\\n\\n", br a space, any other tag nothing.
  Only well-formed tags count here (CommonMark's open and closing tags: attribute names and
  values as HTML writes them, then `>` or `/>`); a `<` that starts none of these is text, as is
  an unterminated comment or declaration. An autolink `<scheme:…>` or `<name@host>` is replaced
  by its address. An unclosed RAW or HIDDEN element drops the rest of the run.
- Then each line, after any `>` blockquote markers (up to three spaces, `>`, one optional space
  or tab, repeated) are removed:
  - a blank line ends the paragraph;
  - an ATX heading (up to three spaces, one to six `#`, then a space, a tab or the line's end)
    is a heading of that level, its text the rest of the line, spaces and tabs at its end
    removed, then a closing run of `#` (at its start, or after a space or tab);
  - a line of `=` (level 1) or `-` (level 2), with up to three spaces before and white space
    after, under an open paragraph makes that paragraph a heading;
  - a thematic break (three or more of one of `*`, `-`, `_`, spaces and tabs between) ends
    the paragraph;
  - a link reference definition (`[label]: …` after up to three spaces) and a table's
    delimiter row (only `|`, `:`, `-`, spaces and tabs, with a `|` and a `-`) are dropped;
  - a list item (indentation, then `-`, `*`, `+`, or one to nine digits and `.` or `)`, then a
    space or tab) starts a new paragraph with the rest of the line (the marker is dropped);
  - any other line continues the open paragraph, or starts one.
- Inline, on a paragraph's or heading's text (its lines joined with spaces), in this order,
  each rule applied once over the whole text: a backslash before ASCII punctuation is dropped;
  a code span (a whole run of backticks, text without backticks, the same run) becomes its
  text; an image ![alt](…) its alt text; a link [text](…) or [text][label] its text (no
  brackets inside the text, no parentheses inside the address); **x** and __x__, then *x* and _x_
  (x neither starting nor ending with white space; an `_` not touching an ASCII letter or digit
  outside) become x. Then entities are decoded and the text collapsed.
- The title is the front matter's, else the first heading's text, else the file's name.

Passages: each heading starts a section under the path of headings above it (a heading of
level L closes the open headings of level L or more); a section's paragraphs, joined with a
space, are one passage (a heading with no paragraph under it makes none). With max_words, a
passage longer than that is cut into whole sentences packed up to max_words
(engine/chunking.py chunk_sentences, no overlap).

Example: [p.headings for p in passages(read_document("trash.md", "# Trash\\n\\nIn it.\\n\\n## After\\n\\nGone."))]
         -> [('Trash',), ('Trash', 'After')]
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from engine.chunking import chunk_fixed, chunk_headings, chunk_sentences, split_sentences, words
from engine.citations import decode_entities

# Python's white space (str.isspace), as the inside of a character class: the twin spells the same.
SPACE = "\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

RAW = frozenset({"script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes"})
HIDDEN = frozenset({"template", "noscript", "svg", "math", "object", "canvas", "select"})
HEADINGS = {f"h{level}": level for level in range(1, 7)}
BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "html", "legend", "li", "main",
    "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
KINDS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}


@dataclass(frozen=True)
class Block:
    level: int  # 0: a paragraph; 1 to 6: a heading of that level
    text: str


@dataclass(frozen=True)
class Document:
    source: str                # the file's name, e.g. "trash.md"
    kind: str                  # "markdown", "html" or "text"
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Passage:
    title: str                 # the document's title
    headings: tuple[str, ...]  # the path of headings it sits under, e.g. ("Trash", "Recovering after the Trash")
    source: str                # the document's file name
    text: str


def collapse(text: str) -> str:
    """Example: collapse("  a\\u00a0 b\\n") -> 'a b'"""
    return " ".join(text.split())


def kind_of(source: str) -> str:
    """Example: kind_of("Notes.MD") -> 'markdown'"""
    dot = source.rfind(".")
    return KINDS.get(source[dot:].lower(), "text") if dot >= 0 else "text"


# ---------------------------------------------------------------------------- HTML tokens

_END_TAG = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)[^>]*>?")
_START_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_NAME_START = re.compile(r"</?[A-Za-z]")
_RAW_END = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)")
# CommonMark's open and closing tags, for tags inside Markdown.
_ATTRIBUTE = (r"(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*"
              r"(?:[ \t\n]*=[ \t\n]*(?:[^ \t\n\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)")
_MD_START_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)(" + _ATTRIBUTE + r"*[ \t\n]*/?)>")
_MD_END_TAG = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)[ \t\n]*>")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\x00-\x20]*|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+)>")
# (opening, closing) of what markup drops: comments, CDATA, processing instructions, declarations.
_SKIPPED = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", ">"), ("<!", ">"))
_MD_SKIPPED = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"))
_MD_DECLARATION = re.compile(r"<![A-Za-z][^<>]*>")


def _closes_itself(attributes: str) -> bool:
    return attributes.rstrip("\t\n\x0c\r ").endswith("/")


def _after_raw(text: str, start: int, name: str) -> int:
    """Where a RAW element's content ends: after the next end tag of its name, or the end."""
    for match in _RAW_END.finditer(text, start):
        if match.group(1).lower() == name:
            close = text.find(">", match.end())
            return len(text) if close < 0 else close + 1
    return len(text)


def html_tokens(text: str, markdown: bool = False) -> list[tuple[str, str]]:
    """("text", raw text), ("start", name) and ("end", name), left to right, with comments,
    declarations, RAW and HIDDEN elements left out; `markdown` reads tags as inside Markdown.

    Example: html_tokens('a<b onclick="x()">c</b><script>d</script>')
             -> [('text', 'a'), ('start', 'b'), ('text', 'c'), ('end', 'b')]
    """
    tokens: list[tuple[str, str]] = []
    hidden, depth = "", 0  # the HIDDEN element being dropped, and how many of it are open
    unclosed: set[str] = set()  # closings (`-->`, `]]>`, `?>`, `>`) known to be absent from here on

    def emit(kind: str, value: str) -> None:
        if not hidden:
            tokens.append((kind, value))

    at, size = 0, len(text)
    while at < size:
        lt = text.find("<", at)
        lt = size if lt < 0 else lt
        if lt > at:
            emit("text", text[at:lt])
        at = lt
        if at >= size:
            break
        skipped = next((pair for pair in (_MD_SKIPPED if markdown else _SKIPPED) if text.startswith(pair[0], at)), None)
        if skipped:
            # Once a closing is not found, it is not found further on either: not looked for again.
            close = -1 if skipped[1] in unclosed else text.find(skipped[1], at + len(skipped[0]))
            if close < 0:
                unclosed.add(skipped[1])
            if close >= 0:
                at = close + len(skipped[1])
            elif markdown:  # unterminated: text, in Markdown
                emit("text", "<")
                at += 1
            else:
                at = size
            continue
        if markdown:
            declaration = _MD_DECLARATION.match(text, at)
            if declaration:
                at = declaration.end()
                continue
            link = _AUTOLINK.match(text, at)
            if link:
                emit("text", link.group(1))
                at = link.end()
                continue
        closing = text.startswith("</", at)
        if not _NAME_START.match(text, at):
            if closing and not markdown:  # a bogus comment
                close = text.find(">", at)
                at = size if close < 0 else close + 1
            else:
                emit("text", "<")
                at += 1
            continue
        tag = (_MD_END_TAG if closing else _MD_START_TAG) if markdown else (_END_TAG if closing else _START_TAG)
        match = tag.match(text, at)
        if match is None:
            if not markdown:
                break  # an unclosed start tag: the rest of the text is the tag
            emit("text", "<")
            at += 1
            continue
        name = match.group(1).lower()
        at = match.end()
        if closing:
            if not hidden:
                tokens.append(("end", name))
            elif name == hidden:
                depth -= 1
                hidden = hidden if depth else ""
        elif name in RAW:
            at = _after_raw(text, at, name)
        elif hidden:
            if name == hidden and not _closes_itself(match.group(2)):
                depth += 1
        elif name in HIDDEN:
            if not _closes_itself(match.group(2)):
                hidden, depth = name, 1
        else:
            tokens.append(("start", name))
    return tokens


def html_blocks(html: str) -> tuple[Block, ...]:
    """An HTML document's headings and paragraphs.

    Example: html_blocks("<h1>Trash</h1><p>Notes wait <b>30</b>&nbsp;days.<script>x()</script></p>")
             -> (Block(level=1, text='Trash'), Block(level=0, text='Notes wait 30 days.'))
    """
    blocks: list[Block] = []
    buffer: list[str] = []
    level = 0

    def flush() -> None:
        text = collapse("".join(buffer))
        if text:
            blocks.append(Block(level, text))
        buffer.clear()

    for kind, value in html_tokens(html.removeprefix("\ufeff")):
        if kind == "text":
            buffer.append(decode_entities(value))
        elif value in HEADINGS:
            flush()
            level = HEADINGS[value] if kind == "start" else 0
        elif value in BLOCK:
            flush()
            level = 0
        elif value == "br":
            buffer.append(" ")
    flush()
    return tuple(blocks)


def markdown_html(text: str) -> str:
    """Raw HTML inside Markdown turned into Markdown's own line structure (see the rules above).

    Example: markdown_html("A <b>bold</b> word.<div>Next</div><!-- note -->") -> 'A bold word.\\n\\nNext\\n\\n'
    """
    out = []
    for kind, value in html_tokens(text, markdown=True):
        if kind == "text":
            out.append(value)
        elif value in HEADINGS:
            out.append("\n\n" + "#" * HEADINGS[value] + " " if kind == "start" else "\n\n")
        elif value in BLOCK:
            out.append("\n\n")
        elif value == "br":
            out.append(" ")
    return "".join(out)


# ---------------------------------------------------------------------------- Markdown

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_QUOTE_MARKS = re.compile(r"^(?: {0,3}>[ \t]?)+")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?=[ \t]|$)(.*)")
_ATX_CLOSE = re.compile(r"(?:^|[ \t])#+$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[" + SPACE + r"]*$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:")
_DELIMITER_ROW = re.compile(r"^[|:\- \t]*$")
_ITEM = re.compile(r"^[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+")
_TITLE = re.compile(r"^title:(.*)$")

_INLINE = (
    (re.compile(r"\\([!-/:-@\[-`{-~])"), r"\1"),
    (re.compile(r"(?<!`)(`+)([^`]+)\1(?!`)"), r"\2"),
    (re.compile(r"!\[([^\[\]]*)\]\([^()]*\)"), r"\1"),
    (re.compile(r"\[([^\[\]]*)\]\([^()]*\)"), r"\1"),
    (re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]"), r"\1"),
    (re.compile(r"\*\*(?![" + SPACE + r"])([^*]+?)(?<![" + SPACE + r"])\*\*"), r"\1"),
    (re.compile(r"(?<![A-Za-z0-9])__(?![" + SPACE + r"])([^_]+?)(?<![" + SPACE + r"])__(?![A-Za-z0-9])"), r"\1"),
    (re.compile(r"\*(?![" + SPACE + r"])([^*]+?)(?<![" + SPACE + r"])\*"), r"\1"),
    (re.compile(r"(?<![A-Za-z0-9])_(?![" + SPACE + r"])([^_]+?)(?<![" + SPACE + r"])_(?![A-Za-z0-9])"), r"\1"),
)


def inline_text(text: str) -> str:
    """A paragraph's or heading's Markdown as plain text.

    Example: inline_text("See **[the Trash](/trash)** and `QB-4021` \\\\*now\\\\* &amp; later")
             -> 'See the Trash and QB-4021 now & later'
    """
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return collapse(decode_entities(text))


def front_matter(lines: list[str]) -> tuple[str, int]:
    """(the front matter's title or "", the index of the first line after it).

    Example: front_matter(["---", 'title: "Trash"', "---", "Text"]) -> ('Trash', 3)
    """
    if not lines or lines[0].strip() != "---":
        return "", 0
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            title = next((m.group(1).strip() for m in map(_TITLE.match, lines[1:index]) if m), "")
            if len(title) >= 2 and title[0] == title[-1] and title[0] in "\"'":
                title = title[1:-1]
            return title, index + 1
    return "", 0


def _fenced(lines: list[str]) -> list[tuple[bool, list[str]]]:
    """The lines as runs: (True, a fence's inside) or (False, lines outside fences)."""
    runs: list[tuple[bool, list[str]]] = []
    fence = ""
    for line in lines:
        if fence:
            stripped = line.lstrip(" ")
            if len(line) - len(stripped) <= 3 and stripped.startswith(fence) and \
                    not stripped.lstrip(fence[0]).strip():
                fence = ""
            else:
                runs[-1][1].append(line)
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
            runs.append((True, []))
        elif runs and not runs[-1][0]:
            runs[-1][1].append(line)
        else:
            runs.append((False, [line]))
    return runs


def _line_blocks(lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    paragraph: list[str] = []

    def flush(level: int = 0) -> None:
        if not paragraph:
            return
        text = inline_text(" ".join(paragraph))
        if text:
            blocks.append(Block(level, text))
        paragraph.clear()

    for raw in lines:
        line = _QUOTE_MARKS.sub("", raw)
        if not line.strip():
            flush()
            continue
        heading = _ATX.match(line)
        if heading:
            flush()
            text = inline_text(_ATX_CLOSE.sub("", heading.group(2).rstrip(" \t")))
            if text:
                blocks.append(Block(len(heading.group(1)), text))
            continue
        underline = _SETEXT.match(line)
        if underline and paragraph:
            flush(1 if underline.group(1)[0] == "=" else 2)
            continue
        if _BREAK.match(line):
            flush()
            continue
        if _REFERENCE.match(line) or ("|" in line and "-" in line and _DELIMITER_ROW.match(line)):
            continue
        item = _ITEM.match(line)
        if item:
            flush()
            paragraph.append(line[item.end():])
            continue
        paragraph.append(line)
    flush()
    return blocks


def _markdown(markdown: str) -> tuple[str, tuple[Block, ...]]:
    lines = markdown.removeprefix("\ufeff").splitlines()
    title, start = front_matter(lines)
    blocks: list[Block] = []
    for code, run in _fenced(lines[start:]):
        if code:
            text = collapse(" ".join(run))
            if text:
                blocks.append(Block(0, text))
        else:
            blocks += _line_blocks(markdown_html("\n".join(run)).splitlines())
    return title, tuple(blocks)


@lru_cache(maxsize=64)  # the chunking lab's grid reads one page hundreds of times
def markdown_blocks(markdown: str) -> tuple[Block, ...]:
    """A Markdown document's headings and paragraphs (front matter left out).

    Example: markdown_blocks("---\\ntitle: T\\n---\\n## The Trash\\nNotes wait\\n30 days.\\n- one\\n- two")
             -> (Block(level=2, text='The Trash'), Block(level=0, text='Notes wait 30 days.'),
                 Block(level=0, text='one'), Block(level=0, text='two'))
    """
    return _markdown(markdown)[1]


def text_blocks(text: str) -> tuple[Block, ...]:
    """A plain text's paragraphs: runs of lines that are not blank.

    Example: text_blocks("One\\ntwo\\n\\n three ") -> (Block(level=0, text='One two'), Block(level=0, text='three'))
    """
    blocks, paragraph = [], []
    for line in text.removeprefix("\ufeff").splitlines() + [""]:
        if line.strip():
            paragraph.append(line)
        elif paragraph:
            blocks.append(Block(0, collapse(" ".join(paragraph))))
            paragraph = []
    return tuple(blocks)


def read_document(source: str, text: str, kind: str | None = None) -> Document:
    """A file's text as a document; `kind` defaults to what the file's name says (kind_of).

    Example: read_document("a.txt", "Hello there.").title -> 'a.txt'
    """
    kind = kind or kind_of(source)
    title = ""
    if kind == "markdown":
        title, blocks = _markdown(text)
    elif kind == "html":
        blocks = html_blocks(text)
    elif kind == "text":
        blocks = text_blocks(text)
    else:
        raise ValueError(f"no kind of document '{kind}' (use markdown, html or text)")
    first_heading = next((block.text for block in blocks if block.level), "")
    return Document(source, kind, title or first_heading or source, blocks)


def passages(document: Document, max_words: int | None = None) -> list[Passage]:
    """The document cut by heading: one passage per section that has paragraphs (see above)."""
    found: list[Passage] = []
    path: list[tuple[int, str]] = []
    texts: list[str] = []

    def close() -> None:
        if texts:
            text = " ".join(texts)
            pieces = [text] if not max_words or len(words(text)) <= max_words else \
                chunk_sentences(split_sentences(text), max_words, 0)
            headings = tuple(heading for _, heading in path)
            found.extend(Passage(document.title, headings, document.source, piece) for piece in pieces)
        texts.clear()

    for block in document.blocks:
        if block.level:
            close()
            while path and path[-1][0] >= block.level:
                path.pop()
            path.append((block.level, block.text))
        else:
            texts.append(block.text)
    close()
    return found


# ---------------------------------------------------------------------------- the chunking lab's cuts

def prose_of(markdown: str) -> str:
    """A Markdown page's paragraphs without its headings, as a plain-text extractor gives them.

    Example: prose_of("## Trash\\nNotes wait.\\n\\n## After\\nGone.") -> 'Notes wait. Gone.'
    """
    return " ".join(block.text for block in markdown_blocks(markdown) if not block.level)


def page_text(markdown: str) -> str:
    """The whole page as one text: each heading and each paragraph on a line of its own.

    Example: page_text("## Trash\\nNotes wait.\\n\\n## After\\nGone.") -> 'Trash\\nNotes wait.\\nAfter\\nGone.'
    """
    return "\n".join(block.text for block in markdown_blocks(markdown))


def heading_markdown(markdown: str) -> str:
    """The page's blocks written back as Markdown for chunk_headings: a heading as `#`s and its
    text; a paragraph on one line led by a space, so no paragraph (a code comment, say) reads as one.

    Example: heading_markdown("## Trash\\n```\\n# not a heading\\n```") -> '## Trash\\n # not a heading'
    """
    return "\n".join(("#" * block.level + " " if block.level else " ") + block.text
                     for block in markdown_blocks(markdown))


CHUNKERS = ("fixed", "sentences", "headings", "page")


def chunk_with(setting: dict, markdown: str) -> list[str]:
    """A Markdown page cut by one setting: {"chunker": "fixed", "size", "overlap"}, {"chunker":
    "sentences", "limit", "repeat"}, {"chunker": "headings"} or {"chunker": "page"}. Fixed and
    sentence chunks cut the prose (prose_of); heading chunks keep each heading with its section.

    Example: chunk_with({"chunker": "fixed", "size": 12, "overlap": 0}, "## Trash\\nNotes stay in the Trash for 30 days.")
             -> ['Notes stay in the Trash for 30 days.']
    """
    chunker = setting["chunker"]
    if chunker == "fixed":
        return chunk_fixed(prose_of(markdown), setting["size"], setting["overlap"])
    if chunker == "sentences":
        return chunk_sentences(split_sentences(prose_of(markdown)), setting["limit"], setting["repeat"])
    if chunker == "headings":
        return chunk_headings(heading_markdown(markdown))
    if chunker == "page":
        return [page_text(markdown)]
    raise ValueError(f"no chunker '{chunker}' (use one of {', '.join(CHUNKERS)})")
