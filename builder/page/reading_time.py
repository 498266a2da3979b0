"""How long the page takes to read, computed from the words it holds: each section's time for
everything and for the essential path (everything but its deep dives), each deep dive's own time,
and the page's totals, which the reading-path control and section 'short-version' state.

The model: prose at PROSE_WPM words a minute; code and program output at CODE_WPM; a lab, its
own sentences (introduction, status, lesson, caption: LAB_PROSE) at PROSE_WPM and LAB_MINUTES
for trying it and looking at what it draws (its lists and tables are looked at, not read word by
word). A practice question counts its question and choices; its answer, read once answered, is
not counted. Formulas, figures and text only a screen reader hears are not counted. Times are rounded
to whole minutes (at least one).

Example: minutes(Words(prose=460)) -> 2.0; spoken(64.4) -> '1 h 04 min'
"""

import math
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from builder.page.asides import time_mark
from builder.page.errors import ProseError

PROSE_WPM = 230   # a careful reader of technical English
CODE_WPM = 120    # code is read token by token, and its output checked against it
LAB_MINUTES = 1   # trying a lab: a control or two, and looking at what changed
LAB_PROSE = {"lab-intro", "lab-status", "lab-lesson", "lab-caption", "lab-note", "lab-kicker"}
SKIPPED = {"script", "style", "template", "svg", "math"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Words:
    prose: int = 0
    code: int = 0
    labs: int = 0

    def add(self, other: "Words") -> None:
        self.prose, self.code, self.labs = self.prose + other.prose, self.code + other.code, self.labs + other.labs


def minutes(words: Words) -> float:
    return words.prose / PROSE_WPM + words.code / CODE_WPM + words.labs * LAB_MINUTES


def shown(value: float) -> int:
    """Whole minutes, rounded, at least one."""
    return max(1, math.floor(value + 0.5))


def spoken(value: float) -> str:
    """A duration as the page writes it: "7 min", "1 h 05 min"."""
    whole = shown(value)
    return f"{whole} min" if whole < 60 else f"{whole // 60} h {whole % 60:02d} min"


@dataclass
class SectionTime:
    everything: float
    essentials: float
    dives: dict[str, float] = field(default_factory=dict)  # deep-dive id -> its minutes


class WordCounter(HTMLParser):
    """Counts a section's words by kind, and separately inside each deep dive."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []  # (tag, what it starts: "skip", "code", "lab", a dive id)
        self.total, self.dives = Words(), {}

    def context(self, kind: str) -> bool:
        return any(started == kind for _, started in self.stack)

    def dive(self) -> str | None:
        return next((started for _, started in self.stack if started and started.startswith("deep-dive-")), None)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        started = None
        if tag in SKIPPED or "visually-hidden" in classes or "practice-answer" in classes:
            started = "skip"
        elif tag == "pre":
            started = "code"
        elif tag == "section" and "lab" in classes:
            started = "lab"
        elif self.context("lab") and LAB_PROSE & set(classes):
            started = "lab-prose"
        elif tag == "details" and "deep-dive" in classes:
            if self.dive():
                raise ProseError(f"deep dive {attrs.get('id')} sits inside another one (fix: asides do not nest)")
            started = attrs.get("id")
            if started in self.dives:
                raise ProseError(f"two deep dives have the id {started} (fix: give the asides different titles)")
            self.dives[started] = Words()
        if started == "lab":
            self.count(Words(labs=1))
        if tag not in VOID:
            self.stack.append((tag, started))

    def handle_endtag(self, tag):
        for at in range(len(self.stack) - 1, -1, -1):
            if self.stack[at][0] == tag:
                del self.stack[at:]
                return

    def handle_data(self, data):
        if self.context("skip") or self.context("lab") and not self.context("lab-prose"):
            return
        n = len(data.split())
        if n:
            self.count(Words(code=n) if self.context("code") else Words(prose=n))

    def count(self, words: Words) -> None:
        self.total.add(words)
        dive = self.dive()
        if dive:
            self.dives[dive].add(words)


def section_time(html: str) -> SectionTime:
    counter = WordCounter()
    counter.feed(html)
    counter.close()
    dives = {dive: minutes(words) for dive, words in counter.dives.items()}
    everything = minutes(counter.total)
    return SectionTime(everything, everything - sum(dives.values()), dives)


def fill_dives(html: str, time: SectionTime) -> str:
    """Each deep dive's summary says how long it takes to read."""
    for dive, value in time.dives.items():
        html = html.replace(time_mark(dive), spoken(value))
    return html


def total_mark(path: str) -> str:
    return f"<!--reading-total:{path}-->"


def fill_totals(html: str, totals: dict[str, float]) -> str:
    """The page's totals where the prose names them ({{ reading_total('essentials') }})."""
    return re.sub(r"<!--reading-total:(essentials|everything)-->", lambda m: spoken(totals[m.group(1)]), html)
