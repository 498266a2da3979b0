"""A page built from another corpus: what it leaves out, and why, said by the build and on the page.

The prose, the figures, the samples and the labs were written for the corpus whose page.yaml says
`strict: true` (Quillbox's). Built from a corpus whose page.yaml does not (or that has none), the
page keeps what still follows from the data and leaves out what does not, never showing a number
it could not compute:

- A `{{ … }}` that names a question, a passage, a lab or anything else this corpus's data lacks
  (or that comes to nothing, None) renders as a mark; after Jinja, the sentence holding the mark
  is removed (a table row, a heading or a list item that holds one goes whole; a table left
  without rows goes too; HTML tags the sentence opens or closes across its edges are kept).
- A `{% claim %}` whose check does not hold for this corpus, or names what it lacks, is removed
  the same way, as whole sentences.
- A figure, a lab, a block or a glossary term that needs what the corpus lacks, a lab whose data
  step fails on it, a sample whose copied corpus text differs from it: left out.
- A condition (`{% if %}`, `… if … else …`, `or`) on what the corpus lacks is false. A value
  shown on the line of that test (`{{ "yes" if p.superseded else "no" }}`) is a mark too; words
  a block's other branch writes stay, and the condition is a warning with its line.
Each thing left out is one Note, printed by the build as one warning line that names the file,
the line and the sentence, and counted in the banner at the top of the page.

Example: left = LeftOut(); left.remove_marked(f"One. Two is {left.mark('no x')}. Three.", "s.md") -> 'One. Three.'
"""

import re
import sys
from dataclasses import dataclass, field

from jinja2 import ChainableUndefined, Undefined
from markupsafe import Markup

from builder.page.claims import running_template

OPEN, CLOSE = "\ue000", "\ue001"  # private-use characters around a mark's number: never in prose
MARK = re.compile(OPEN + r"(\d+)" + CLOSE)
# Where a sentence ends: . ! or ?, then closing quotes, brackets, emphasis or tags, then white space.
SENTENCE_END = re.compile(r"[.!?](?:[)\]\"”’'*_`]|</[a-z0-9]+>)*(?=\s|$)")
TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*?(/?)>")
VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "source", "area", "col", "embed"})
ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]", re.M)


@dataclass
class Note:
    """One thing the page leaves out: where (file:line), what (a sentence, a lab…), and why."""
    where: str
    what: str
    text: str
    reason: str

    def __str__(self) -> str:
        """One line, whatever the sentence or the error held."""
        shown = f" “{' '.join(self.text.split())}”" if self.text else ""
        done = "took as false" if self.what == "a condition" else "left out"
        return f"{self.where}: {done} {self.what}{shown} ({' '.join(self.reason.split())})"


@dataclass
class Mark:
    reason: str
    line: str
    whole: bool = False  # a claim made of whole sentences: removed as it is, not with its neighbours
    text: str = ""       # what it stands for, when known (a claim's sentence), for the warning


def template_line() -> str:
    """The line of the Jinja template now running, or '?' (claims.py running_template)."""
    line = running_template()[1]
    return str(line) if line else "?"


@dataclass
class LeftOut:
    corpus: str = ""                      # the corpus's folder name, for the banner
    notes: list[Note] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    missing_made: int = 0                 # how many Missing values were made
    conditions: list[str] = field(default_factory=list)  # lines where a Missing was a condition, not yet noted
    tested_line: str | None = None        # the line of the last such test: what it shows there is a mark

    # ------------------------------------------------------------ marks and missing values

    def mark(self, reason: str, line: str = "?", whole: bool = False, text: str = "") -> str:
        self.marks.append(Mark(reason, line, whole, text))
        return f"{OPEN}{len(self.marks) - 1}{CLOSE}"

    def missing(self, reason: str):
        """A value that stands for data this corpus lacks: any use of it is missing too, and
        shown, it is a mark."""
        self.missing_made += 1
        return self.missing_class()(hint=reason)

    def missing_class(self):
        if not hasattr(self, "_missing"):
            self._missing = missing_class(self)
        return self._missing

    def marks_in(self, text: str) -> Markup:
        """The marks a text holds (a formula built from a missing value), to stand in for it."""
        return Markup("".join(match.group(0) for match in MARK.finditer(str(text))))

    def note(self, where: str, what: str, text: str, reason: str) -> None:
        self.notes.append(Note(where, what, text, reason))

    # ------------------------------------------------------------ the prose

    def claim_left_out(self, result, body: str) -> Markup | None:
        """For builder/page/claims.py: a mark in place of a claim that does not hold or that
        names what this corpus lacks; None to keep it."""
        if result.held and OPEN not in body:
            return None
        lacks = OPEN in body or any(value == repr(Undefined()) for _, value in result.seen)
        reason = ("it names what this corpus lacks" if lacks else
                  f"its check fails here: {result.error}" if result.error else "its check does not hold for this corpus")
        plain = " ".join(re.sub(r"<[^>]+>", "", MARK.sub("…", body)).split())
        whole = bool(re.search(r"[.!?][)\]\"”’'*_`]*$", plain))
        return Markup(self.mark(reason, str(result.line), whole=whole, text=plain))

    def remove_marked(self, text: str, where: str) -> str:
        """The section's text (Markdown and HTML, after Jinja) without the sentences, rows,
        headings and items that hold a mark; each removal noted once."""
        if OPEN not in text:
            self._note_conditions(where)
            return self._drop_empty_tables(text, where)
        cuts: list[tuple[int, int, list[int]]] = []
        for match in MARK.finditer(text):
            start, end = self._unit(text, match)
            cuts.append((start, end, [int(match.group(1))]))
        merged: list[list] = []
        for start, end, marks in sorted(cuts):
            if merged and start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
                merged[-1][2] += marks
            else:
                merged.append([start, end, marks])
        for start, end, marks in merged:
            removed = text[start:end]
            shown = MARK.sub(lambda m: self.marks[int(m.group(1))].text or "…", removed)
            sentence = " ".join(re.sub(r"<[^>]+>", "", shown).split())
            what = "a table row" if removed.lstrip().startswith("|") else "a heading" if removed.lstrip().startswith("#") \
                else "a claim" if any(self.marks[m].whole for m in marks) else "a sentence"
            self.note(f"{where}:{self.marks[marks[0]].line}", what, sentence[:160] + ("…" if len(sentence) > 160 else ""),
                      "; ".join(dict.fromkeys(self.marks[m].reason for m in marks)))
        for start, end, _ in reversed(merged):
            text = text[:start] + kept_tags(text[start:end]) + text[end:]
        self._note_conditions(where, {self.marks[m].line for _, _, marks in merged for m in marks})
        return self._drop_empty_tables(drop_empty_items(text), where)

    def _drop_empty_tables(self, text: str, where: str) -> str:
        kept, dropped = drop_empty_tables(text)
        for header in dropped:
            self.note(where, "a table", " ".join(header.replace("|", " ").split()),
                      "no row of it is left for this corpus")
        return kept

    def condition(self) -> None:
        """A Missing was asked whether it is true (it is not): noted with the template's line, for
        the file whose rendering comes to an end next (a section: remove_marked)."""
        self.tested_line = template_line()
        self.conditions.append(self.tested_line)

    def shown(self, value):
        """Jinja's finalize on another corpus's page: None, and a value chosen on the line where a
        missing value was just tested, are missing too."""
        if value is None:
            return self.missing("it comes to nothing here (None)")
        if self.tested_line is not None and not is_missing(value) and template_line() == self.tested_line:
            return self.missing("it was chosen by testing what this corpus lacks")
        return value

    def _note_conditions(self, where: str, cut: set[str] = frozenset()) -> None:
        """The conditions met since the last file, as notes of `where` (one a line, none on a
        line whose sentence or claim was cut already: a claim's check asks too)."""
        noted = {note.where for note in self.notes}
        for line in sorted(set(self.conditions) - set(cut), key=lambda x: (len(x), x)):
            if f"{where}:{line}" not in noted:
                self.note(f"{where}:{line}", "a condition", "", "it tests what this corpus lacks: the words of "
                                                               "its other branch stay and may not hold")
        self.conditions.clear()

    def _unit(self, text: str, match: re.Match) -> tuple[int, int]:
        """The span to remove for one mark: its line (a table row or a heading), or its sentence."""
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        line = text[line_start:line_end].lstrip()
        if line.startswith(("|", "#")):
            return line_start, min(line_end + 1, len(text))
        region_start, region_end = paragraph(text, line_start, line_end)
        mark = self.marks[int(match.group(1))]
        ends = [m.end() for m in SENTENCE_END.finditer(text, region_start, region_end)]
        before = [e for e in ends if e <= match.start()]
        start = before[-1] if before else region_start
        item = ITEM.match(text, start) if start == region_start else None
        start = item.end() if item else start  # an item's marker stays until the item is empty
        while start < match.start() and text[start] in " \t\n":
            start += 1
        if mark.whole and not re.sub(r"<[^>]+>|\s", "", text[start:match.start()]):
            end = match.end()
        else:
            after = [e for e in ends if e >= match.end()]
            end = after[0] if after else region_end
        while end < region_end and text[end] in " \t":
            end += 1
        return start, end

    # ------------------------------------------------------------ what the banner says

    def counts(self) -> dict:
        kinds = {"sentences": ("a sentence", "a claim", "a table row", "a heading"), "labs": ("a lab",),
                 "figures": ("a figure",)}  # "other": tables, sections, glossary links, examples, steps
        found = {name: sum(n.what in whats for n in self.notes) for name, whats in kinds.items()}
        conditions = sum(n.what == "a condition" for n in self.notes)  # not left out: their other branch shows
        return found | {"other": len(self.notes) - sum(found.values()) - conditions, "corpus": self.corpus}

    def print_notes(self, stream=sys.stderr) -> None:
        for note in self.notes:
            print(f"warning: {note}", file=stream)
        if self.notes:
            print(f"warning: built from another corpus ({self.corpus}): {len(self.notes)} thing(s) written for the "
                  "page's own corpus left out, listed above; the page says so at its top", file=stream)


def paragraph(text: str, line_start: int, line_end: int) -> tuple[int, int]:
    """The paragraph (or list item) around a line: up to a blank line, a heading, a table, a
    list item or a block of HTML on its own line."""
    def starts_block(line: str) -> bool:
        stripped = line.lstrip()
        return not stripped or stripped.startswith(("#", "|", "<!--fragment")) or bool(ITEM.match(line))

    start = line_start
    if not ITEM.match(text, line_start):
        while start > 0:
            previous = text.rfind("\n", 0, start - 1) + 1
            line = text[previous:start - 1]
            if not line.strip() or line.lstrip().startswith(("#", "|", "<!--fragment")):
                break
            start = previous
            if ITEM.match(line):
                break
    end = line_end
    while end < len(text):
        following = text.find("\n", end + 1)
        following = len(text) if following < 0 else following
        if starts_block(text[end + 1:following]):
            break
        end = following
    return start, end


def kept_tags(removed: str) -> str:
    """The tags of a removed span that open or close something outside it, in order (a pair
    that opens and closes inside it goes with it)."""
    tags = [(m.group(0), m.group(1) == "/", m.group(2).lower()) for m in TAG.finditer(removed)
            if m.group(2).lower() not in VOID and not m.group(3)]
    kept: list[tuple[str, bool, str]] = []
    for tag in tags:
        _, closing, name = tag
        if closing and kept and not kept[-1][1] and kept[-1][2] == name:
            kept.pop()
        else:
            kept.append(tag)
    return "".join(tag for tag, _, _ in kept)


def drop_empty_items(text: str) -> str:
    """List items that removals left empty go."""
    return "\n".join(line for line in text.split("\n") if not re.fullmatch(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]*", line))


def drop_empty_tables(text: str) -> tuple[str, list[str]]:
    """(the text without the Markdown tables that have no row under their header (every row
    left out, or none written), the header lines of those tables)."""
    lines = text.split("\n")
    out, index, dropped = [], 0, []
    while index < len(lines):
        if lines[index].lstrip().startswith("|"):
            end = index
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            if end - index > 2 or not re.fullmatch(r"\s*\|[\s:|-]+\|?\s*", lines[min(index + 1, end - 1)]):
                out += lines[index:end]
            else:
                dropped.append(lines[index])
            index = end
        else:
            out.append(lines[index])
            index += 1
    return "\n".join(out), dropped


def missing_class(left_out: LeftOut):
    """The Undefined of a lenient page: chains, compares, counts and formats to itself, is false
    and empty, and shows as a mark (registered with the line of the template showing it)."""

    def itself(self, *args, **kwargs):
        return self

    def shown(self, *args) -> str:
        return left_out.mark(self._undefined_message, template_line())

    names = ("__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ "
             "__rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __lt__ __le__ __gt__ "
             "__ge__ __eq__ __ne__ __call__ __round__ __getitem__").split()
    members = {name: itself for name in names}
    def false(self) -> bool:
        left_out.condition()
        return False

    members.update(__str__=shown, __html__=shown, __format__=shown, __hash__=object.__hash__,
                   __bool__=false, __len__=lambda self: 0, __iter__=lambda self: iter(()),
                   __contains__=lambda self, item: False, __slots__=())
    return type("Missing", (ChainableUndefined,), members)


def is_missing(value) -> bool:
    return isinstance(value, Undefined)


def lenient_helpers(namespace: dict, left_out: LeftOut) -> dict:
    """The page's helpers for another corpus: a helper that fails on what this corpus lacks, or
    that finds nothing (None), gives a Missing; one given a Missing gives it back."""
    def wrapped(name, helper):
        def call(*args, **kwargs):
            for value in (*args, *kwargs.values()):
                if is_missing(value):
                    return value
            try:
                value = helper(*args, **kwargs)
            except (KeyError, IndexError, AttributeError, TypeError, ValueError, StopIteration) as error:
                return left_out.missing(f"{name}() names what this corpus lacks: {error}")
            return left_out.missing(f"{name}() finds nothing for {', '.join(map(repr, args))}") if value is None else value
        return call

    return {key: wrapped(key, value) if callable(value) and not isinstance(value, type) else value
            for key, value in namespace.items()}


def lenient_filters(filters: dict) -> dict:
    """Each filter gives back a Missing it is given, instead of a default that would look like a
    number (the `int` filter turns what it cannot read into 0)."""
    def wrapped(name, function):
        def call(*args, **kwargs):
            for value in (*args, *kwargs.values()):
                if is_missing(value):
                    return value
            return function(*args, **kwargs)
        # Jinja passes the environment or context to filters marked so: keep the mark.
        for attribute in ("jinja_pass_arg",):
            if hasattr(function, attribute):
                setattr(call, attribute, getattr(function, attribute))
        return call

    return {name: wrapped(name, function) for name, function in filters.items()}


# ---------------------------------------------------------------------------- the page's parts

LAB_NOTE = Markup('<aside class="note left-out" data-left-out="lab-{0}"><p class="note-title">A lab left out</p>'
                  "<p>The lab that stands here needs data this corpus does not have, so this build leaves it out; "
                  "the build's warnings say what it lacks.</p></aside>")
WRAP_OPEN, WRAP_CLOSE = "<!--lab-wrap-->", "<!--/lab-wrap-->"
WRAPPED = re.compile(re.escape(WRAP_OPEN) + r"(.*?)" + re.escape(WRAP_CLOSE), re.S)


def lenient_namespace(namespace: dict, left_out: LeftOut) -> dict:
    """The prose's names for another corpus: helpers that give a Missing (lenient_helpers), and
    no count of golden questions when there are none (no recall figure can be written then)."""
    found = lenient_helpers(namespace, left_out)
    if not found.get("n_golden"):
        found["n_golden"] = found["n_paraphrases"] = left_out.missing("this corpus has no golden set")
    return found


def fit_state(state: dict, data: dict, own) -> dict:
    """A lab's opening state, fitted to another corpus: a question it lacks becomes page.yaml's
    showcase, a reader it lacks its first reader."""
    fitted = dict(state)
    own = own if isinstance(own, dict) else {}
    questions = {q["id"] for q in data["questions"]}
    questions |= {q["id"] for q in own.get("questions", []) if isinstance(q, dict) and "id" in q}
    if "q" in fitted and fitted["q"] not in questions and data["page"].get("showcase"):
        fitted["q"] = data["page"]["showcase"]
    readers = own.get("readers")
    if "reader" in fitted and isinstance(readers, dict) and readers and fitted["reader"] not in readers:
        fitted["reader"] = next(iter(readers))
    return fitted


def lab_or_note(name: str, data: dict, left_out: LeftOut, render, views) -> Markup:
    """A lab placed on another corpus's page: drawn (its frame wrapped, so a drawing that fails
    can take it away), or a note where its data step was left out, or its frame needs more."""
    if name not in data["labs"]:
        return LAB_NOTE.format(name)  # its data step's note says why
    try:
        html = render(lambda state: fit_state(state, data, data["labs"][name]))
    except Exception as error:
        left_out.note(f"site_src/labs/{name}/lab.html", "a lab", name, f"its frame needs what this corpus lacks: "
                                                                      f"{type(error).__name__}: {error}")
        return LAB_NOTE.format(name)
    if OPEN in html:
        left_out.note(f"site_src/labs/{name}/lab.html", "a lab", name, "its frame names what this corpus lacks")
        return LAB_NOTE.format(name)
    return Markup(WRAP_OPEN) + html + Markup(WRAP_CLOSE)


def drop_failed_labs(body: str, placed: list[dict], drawings: list, left_out: LeftOut) -> str:
    """Labs whose view could not draw this corpus's data, each replaced by a note."""
    failed = {}
    for place, drawing in zip(placed, drawings):
        if drawing.error:
            failed[f"<!--lab-view:{place['lab']}:"] = (place["lab"], drawing.error)

    def kept(match: re.Match) -> str:
        for prefix, (name, error) in failed.items():
            if prefix in match.group(1):
                left_out.note(f"site_src/labs/{name}/lab.js", "a lab", name,
                              f"its view cannot draw this corpus's data: {error.splitlines()[0][:200]}")
                return LAB_NOTE.format(name)
        return match.group(1)

    return WRAPPED.sub(kept, body)


def figure_or_nothing(name: str, draw, left_out: LeftOut) -> Markup:
    try:
        html = draw()
    except Exception as error:
        left_out.note("builder/page/figures.py", "a figure", name, f"it needs what this corpus lacks: "
                                                                   f"{type(error).__name__}: {error}")
        return Markup("")
    if OPEN in str(html):
        left_out.note("builder/page/figures.py", "a figure", name, "it names what this corpus lacks")
        return Markup("")
    return html


def checked_quiz(quiz, data: dict, boxed_data: dict, left_out: LeftOut):
    """The practice questions on another corpus's page: kept when every check holds and no text
    names what the corpus lacks; else all left out (the quiz lab too), each problem noted."""
    left_out.conditions.clear()  # the quiz's checks ask their conditions here: each failing one is noted below
    if quiz is None:
        return None
    marked = [q["id"] for q in quiz.questions if OPEN in repr(q)]
    if not quiz.problems and not marked:
        return quiz
    for problem in quiz.problems:
        left_out.note("quiz.yaml", "a practice question", "", problem.splitlines()[0])
    for qid in marked:
        left_out.note("quiz.yaml", "a practice question", qid, "its text names what this corpus lacks")
    data["labs"].pop("quiz", None)
    boxed_data["labs"].pop("quiz", None)
    return None


def check_nothing_marked(html: str) -> None:
    """A mark that reached the page is a fault of this module, not of the corpus: stop."""
    if OPEN in html or CLOSE in html:
        at = html.find(OPEN) if OPEN in html else html.find(CLOSE)
        from builder.page.errors import ProseError

        raise ProseError(f"builder/page/left_out.py: a left-out mark reached the page near "
                         f"{html[max(0, at - 80):at + 20]!r} (a part of the page that leaves nothing out)")


SECTION_NOTE = Markup('<aside class="note left-out"><p class="note-title">This section is left out</p><p>What it '
                      "says was written for another corpus, and it cannot be shown for this one; the build's "
                      "warnings say why.</p></aside>")


def section_or_note(path, render, left_out: LeftOut):
    """A section of another corpus's page, or, when even leniently it cannot be rendered (an
    expression that fails in a way nothing can stand in for), a note in its place."""
    from builder.page.errors import ProseError
    from builder.page.prose import Section

    try:
        return render()
    except ProseError as error:
        match = re.fullmatch(r"(\d+)-([a-z0-9-]+)\.md", path.name)
        title = path.read_text("utf-8").partition("\n")[0].removeprefix("# ").strip()
        left_out.note(f"site_src/sections/{path.name}", "a section", title, str(error))
        left_out.conditions.clear()
        return Section(match.group(2), int(match.group(1)), title, str(SECTION_NOTE), f"site_src/sections/{path.name}")
