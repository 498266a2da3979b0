"""Syntax colouring for the code the page shows, as few elements as the colours need.

Pygments lexes the code; each token gets the one colour role it is drawn in (ROLES), names,
punctuation and white space get none (they take the code's own colour), and neighbours of one
role merge. The Python samples get 1,595 elements where Pygments' own HTML gives 3,670;
punctuation in a colour of its own would add about 1,300 more (1.3 KiB of the page gzipped).
Each run is a custom element named after its role, <t-k>for </t-k> ("t" for token): inline
and meaningless as a <span class="k"> is, in half the bytes (1.5 KiB of the page gzipped).
The same token lists feed the JavaScript twins, which the runtime draws only when a reader
asks for them.

Example: tokens("x = 1  # one", PythonLexer()) -> [["", "x "], ["o", "= "], ["m", "1  "], ["c", "# one\\n"]]
"""

from markupsafe import Markup, escape
from pygments.lexers import JavascriptLexer, JsonLexer, PythonLexer  # noqa: F401 (the lexers callers use)
from pygments.token import Comment, Error, Generic, Keyword, Name, Number, Operator, Punctuation, String

# Token type -> the class it is drawn with (site_src/styles/samples.css); a subtype takes its
# nearest listed parent's role. Unlisted types (names, white space, plain text) and punctuation
# ("" below) get no element.
ROLES = {
    Keyword: "k", Keyword.Constant: "kc", Operator.Word: "k", Name.Tag: "k",
    String: "s", String.Escape: "se", String.Interpol: "se", String.Affix: "k",
    Comment: "c", Number: "m", Operator: "o", Punctuation: "",
    Name.Function: "nf", Name.Function.Magic: "nf", Name.Class: "nc", Name.Namespace: "nc",
    Name.Exception: "nc", Name.Builtin: "nb", Name.Builtin.Pseudo: "nb", Name.Variable.Magic: "nb",
    Name.Decorator: "nd", Error: "err", Generic.Deleted: "gd", Generic.Inserted: "gi",
}


def role(token_type) -> str:
    while token_type is not None:
        if token_type in ROLES:
            return ROLES[token_type]
        token_type = token_type.parent
    return ""


def tokens(source: str, lexer) -> list[list[str]]:
    """[[role, text], …] in order, neighbours of one role merged ("" for no colour of its own).
    White space joins the run before it: it shows no colour either way."""
    merged: list[list[str]] = []
    for token_type, text in lexer.get_tokens(source):
        kind = role(token_type) if text.strip() else (merged[-1][0] if merged else "")
        if merged and merged[-1][0] == kind:
            merged[-1][1] += text
        else:
            merged.append([kind, text])
    return merged


def to_html(pieces: list[list[str]]) -> Markup:
    return Markup("").join(Markup('<t-{0}>{1}</t-{0}>').format(kind, text) if kind else escape(text)
                           for kind, text in pieces)


def highlight(source: str, lexer) -> Markup:
    """The code as HTML: text with <t-role> around each coloured run."""
    return to_html(tokens(source.rstrip("\n") + "\n", lexer))
