"""Render one section of the page: Jinja over the build's data, then Markdown.

A section file is `sections/NN-slug.md`: its first line `# Title`, then prose. In the prose:
- `{{ … }}` names a number through builder/page/facts.py (escaped like any text);
- `{% claim "check" %}…{% endclaim %}` wraps a sentence whose check the build evaluates;
- `[[term]]` or `[[term|shown words]]` marks a glossary term (the wiki convention);
- `{{ math("latex") }}`, `{{ sample("name") }}`, `{{ figure("name") }}`, `{{ lab("name") }}`
  insert formulas, code samples, SVG figures and labs.
Blocks of HTML are swapped in after Markdown has run, so Markdown never sees inside them.
"""

import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import latex2mathml.converter
from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateSyntaxError
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from builder.page.asides import AsideExtension, slug_of
from builder.page.claims import ClaimExtension, ClaimFailed
from builder.page.facts import TiedRank, significant
from builder.page.errors import ProseError
from builder.page.glossary import GlossaryLinks
from builder.page.template_cache import bytecode_cache, from_string_cached
from builder.sources import SITE_SRC

FRAGMENT = re.compile(r"<!--fragment:(\d+)-->")


@dataclass
class Section:
    slug: str
    number: int
    title: str
    html: str
    file: str


def markdown_renderer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"])


class Fragments:
    """HTML blocks kept aside while Markdown runs, then put back."""

    def __init__(self):
        self.blocks: list[str] = []

    def block(self, html: str) -> Markup:
        self.blocks.append(str(html))
        return Markup(f"\n\n<!--fragment:{len(self.blocks) - 1}-->\n\n")

    def restore(self, html: str) -> str:
        html = re.sub(r"<p>\s*(<!--fragment:\d+-->)\s*</p>", r"\1", html)
        return FRAGMENT.sub(lambda m: self.blocks[int(m.group(1))], html)


def template_line(error: Exception) -> str:
    """The line of the section file where a Jinja expression raised, or '?'."""
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == "<template>"]
    return str(lines[-1]) if lines else "?"


# latex2mathml writes \mathrm{score} as one upright <mi> per letter; a name of several letters
# in one <mi> is upright by itself (MathML Core), and reads as one name to a screen reader.
UPRIGHT_LETTERS = re.compile(r'(?:<mi mathvariant="normal">[^<]</mi>){2,}')


def math(latex: str, display: bool = False) -> Markup:
    """LaTeX as MathML, each upright name one <mi>.

    Example: math("\\mathrm{TF}") -> '<math …><mrow><mi>TF</mi></mrow></math>'
    """
    mathml = latex2mathml.converter.convert(latex, display="block" if display else "inline")
    return Markup(UPRIGHT_LETTERS.sub(lambda m: "<mi>" + "".join(re.findall(r">([^<])<", m.group(0))) + "</mi>", mathml))


STACKED_FROM = 3    # columns: a prose table this wide becomes a stack of cards on a phone...
STACKED_UP_TO = 12  # ...unless it has more rows: a long table scrolls in its box (and shows it)


def labelled_cells(table: str) -> str:
    """A table of STACKED_FROM columns or more and at most STACKED_UP_TO rows is marked to stack
    into cards on a phone (tables.css): each body cell carries its column's heading (data-label),
    shown beside the value. A cell that holds elements (code, a link) wraps them in one
    span.cell, so that they flow as one line beside the heading; plain text needs no wrapper.
    Other tables are left as they are.

    Example: labelled_cells("<table><thead><tr><th>a</th><th>b</th><th>c</th></tr></thead><tbody><tr><td>1</td>…")
             -> '<table class="stack"><thead>…<td data-label="a">1</td>…'
    """
    head = re.search(r"<thead>(.*?)</thead>", table, flags=re.S)
    if not head:
        return table
    labels = [" ".join(re.sub(r"<[^>]+>", " ", cell).split())
              for cell in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), flags=re.S)]
    if len(labels) < STACKED_FROM or len(re.findall(r"<tr>", table[head.end():])) > STACKED_UP_TO:
        return table

    def row(match: re.Match) -> str:
        cells = iter(labels)

        def cell(td: re.Match) -> str:
            content = td.group(2) if "<" not in td.group(2) else f'<span class="cell">{td.group(2)}</span>'
            return f'<td data-label="{escape(next(cells, ""))}"{td.group(1)}>{content}</td>'
        return re.sub(r"<td([^>]*)>(.*?)</td>", cell, match.group(0), flags=re.S)

    body = re.sub(r"<tr>.*?</tr>", row, table[head.end():], flags=re.S)
    return '<table class="stack">' + table[len("<table>"):head.end()] + body


def postprocess(html: str) -> str:
    """Markup the page's CSP and layout need: table alignment as classes (no inline styles),
    tables that scroll inside their box (or stack into cards on a phone), ids on subsection headings."""
    html = html.replace(' style="text-align:right"', ' class="num"').replace(
        ' style="text-align:center"', ' class="center"').replace(' style="text-align:left"', "")
    html = re.sub(r"<table>.*?</table>", lambda m: f'<div class="table-scroll">{labelled_cells(m.group(0))}</div>',
                  html, flags=re.S)
    return re.sub(r"<h3>(.*?)</h3>",
                  lambda m: f'<h3 id="{slug_of(re.sub("<[^>]+>", "", m.group(1)))}">{m.group(1)}</h3>', html)


def render_section(path: Path, env: Environment, namespace: dict, glossary: GlossaryLinks,
                   block_helpers) -> Section:
    """`block_helpers(fragments)` gives the helpers that insert HTML blocks (sample, figure, lab)."""
    match = re.fullmatch(r"(\d+)-([a-z0-9-]+)\.md", path.name)
    if not match:
        raise ProseError(f"{path}: a section file is named NN-slug.md (e.g. 05-dense-sparse.md)")
    source = path.read_text("utf-8")
    first, _, body = source.partition("\n")
    if not first.startswith("# "):
        raise ProseError(f"{path}:1: a section starts with '# Title'")
    fragments = Fragments()
    try:
        template = from_string_cached(env, "\n" + body, f"section/{path.name}")  # line numbers = the file's
    except TemplateSyntaxError as error:
        raise ProseError(f"site_src/sections/{path.name}:{error.lineno}: {error.message} "
                         "(fix: check the {{ … }} and {% … %} on that line)") from None
    where = f"site_src/sections/{path.name}"
    left_out = env.globals.get("_left_out")

    def formula(latex: str, display: bool = False) -> Markup:
        if left_out is not None and left_out.marks_in(latex):  # a formula of what this corpus lacks: its marks
            return left_out.marks_in(latex)
        return fragments.block(math(latex, True)) if display else math(latex)

    try:
        text = template.render(**namespace, **block_helpers(fragments), _section=where, math=formula)
    except (ProseError, ClaimFailed):
        raise
    except TiedRank as error:  # its message says the fix
        raise ProseError(f"{where}:{template_line(error)}: {error}") from None
    except Exception as error:  # an expression that names data the corpus no longer has
        raise ProseError(f"{where}:{template_line(error)}: {type(error).__name__}: {error} "
                         "(fix: the expression on that line names something the build's data does not have; "
                         "check the ids it uses against the corpus)") from None
    if left_out is not None:  # a page built from another corpus: sentences naming what it lacks go
        text = left_out.remove_marked(text, where)
    text = glossary.replace(text, where)
    html = postprocess(fragments.restore(markdown_renderer().render(text)))
    return Section(match.group(2), int(match.group(1)), first[2:].strip(), html, where)


_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(value: int) -> str:
    """A count as prose writes it: in words up to ninety-nine, in digits beyond.

    Example: [number_words(n) for n in (0, 11, 40, 42, 130)] -> ['zero', 'eleven', 'forty', 'forty-two', '130']
    """
    if not 0 <= value < 100 or value != int(value):
        return f"{value:,}"
    value = int(value)
    if value < 20:
        return _UNITS[value]
    tens, units = divmod(value, 10)
    return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")


def prose_environment(claims, left_out=None) -> Environment:
    """The prose's Jinja. With `left_out` (builder/page/left_out.py, a page built from another
    corpus), what the data lacks is a Missing that marks its sentence for removal, not an error."""
    env = Environment(loader=FileSystemLoader(str(SITE_SRC)),
                      autoescape=True, undefined=StrictUndefined if left_out is None else left_out.missing_class(),
                      extensions=[ClaimExtension, AsideExtension],
                      keep_trailing_newline=True, bytecode_cache=bytecode_cache())
    env.globals["_claims"] = claims
    env.filters["num"] = lambda value, digits=0: f"{value:,.{digits}f}"
    env.filters["sig"] = significant
    env.filters["words"] = number_words
    env.filters["pct"] = lambda fraction, digits=0: f"{100 * fraction:.{digits}f}%"
    if left_out is not None:
        from builder.page.left_out import is_missing, lenient_filters

        env.globals["_left_out"] = left_out
        env.finalize = left_out.shown
        env.filters = lenient_filters(env.filters)
        counted = env.globals["range"]  # range(a missing count) is empty, not an error
        env.globals["range"] = lambda *args: range(0) if any(map(is_missing, args)) else counted(*args)
    return env
