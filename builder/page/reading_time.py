"""How long the page takes to read, computed from the words it holds: each section's time for
everything and for the essential path (everything but its deep dives), each deep dive's own time,
and the page's totals, which the reading-path control and section 'short-version' state.

The model (README, "Reading times"): prose at PROSE_WPM words a minute; code and program output
at CODE_WPM; a lab, its own sentences (introduction, status, lesson, caption: LAB_PROSE) at
PROSE_WPM, and LAB_MINUTES for trying it and looking at what it draws, one minute more for each
control past LAB_CONTROLS, at most LAB_MINUTES_MAX (its lists and tables are looked at, not read
word by word); a practice question PRACTICE_MINUTES, counted once on the page (the quiz asks the
sections' questions again). Formulas, figures' drawings and text only a screen reader hears are
not counted. Times are rounded to whole minutes (at least one). Besides the minutes, the counter
keeps the essential path's own prose: the sections' words outside deep dives, labs, code and
practice and the
predictions before labs (the issue's budget: at most ESSENTIAL_WORDS).

Example: minutes(Words(prose=360)) -> 2.0; lab_minutes(5) -> 5; spoken(64.4) -> '1 h 04 min'
"""

import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from builder.cache_file import write_atomically
from builder.code_key import code_key
from builder.page.asides import time_mark
from builder.page.errors import ProseError

PROSE_WPM = 180        # a reader new to the subject, reading technical English with care
CODE_WPM = 120         # code is read token by token, and its output checked against it
LAB_MINUTES = 3        # trying a lab: moving its controls, and looking at what changed
LAB_CONTROLS = 3       # the controls LAB_MINUTES covers; each one more adds a minute
LAB_MINUTES_MAX = 5
PRACTICE_MINUTES = 1   # a practice question: reading it, thinking, answering, reading why
ESSENTIAL_WORDS = 9_000  # the essential path's own prose, at most
TEXT_INPUTS = {"range", "text", "search", "number", "checkbox", "file"}
LAB_PROSE = {"lab-intro", "lab-status", "lab-lesson", "lab-caption", "lab-note", "lab-kicker"}
SKIPPED = {"script", "style", "template", "svg", "math"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Words:
    prose: int = 0
    code: int = 0
    labs: float = 0       # the labs' minutes (lab_minutes)
    practice: int = 0     # practice questions
    apart: int = 0        # of prose, the words of labs and practice boxes (not the path's own prose)

    def add(self, other: "Words") -> None:
        for name in ("prose", "code", "labs", "practice", "apart"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def minus(self, other: "Words") -> "Words":
        return Words(*(getattr(self, n) - getattr(other, n) for n in ("prose", "code", "labs", "practice", "apart")))


def minutes(words: Words) -> float:
    return words.prose / PROSE_WPM + words.code / CODE_WPM + words.labs + words.practice * PRACTICE_MINUTES


def lab_minutes(controls: int) -> float:
    """A lab's minutes by its controls (a slider, a menu, a text box, a group of radio buttons):
    a lab without a control of its own (the quiz, whose controls are practice questions) adds none.

    Example: [lab_minutes(n) for n in (0, 1, 3, 4, 9)] -> [0, 3, 3, 4, 5]
    """
    if controls == 0:
        return 0
    return min(LAB_MINUTES_MAX, LAB_MINUTES + max(0, controls - LAB_CONTROLS))


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
    essential_words: int = 0  # the essential path's own prose (outside deep dives, labs, code, practice)


class WordCounter(HTMLParser):
    """Counts a section's words by kind, and separately inside each deep dive. `seen`: the
    practice questions counted already (one set for the whole page)."""

    def __init__(self, seen: set[str] | None = None):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []  # (tag, what it starts: "skip", "code", "lab", a dive id)
        self.total, self.dives = Words(), {}
        self.seen = set() if seen is None else seen
        self.controls: list[int] = []    # per open lab: its controls so far
        self.radio_groups: set[str] = set()

    def context(self, kind: str) -> bool:
        return any(started == kind for _, started in self.stack)

    def dive(self) -> str | None:
        return next((started for _, started in self.stack if started and started.startswith("deep-dive-")), None)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        started = None
        if tag == "template":
            started = "template"  # not read; a lab's controls wait in one for its script
        elif (tag in SKIPPED or "visually-hidden" in classes or "practice-answer" in classes or "hidden" in attrs
              or "no-js-only" in classes):
            started = "skip"  # not read, or not by a reader whose page runs (the answers' reasons: once answered)
        elif "practice-q" in classes:
            started = "skip"
            question = attrs.get("data-practice")
            if question not in self.seen:
                self.seen.add(question)
                self.count(Words(practice=1))
        elif tag == "pre":
            started = "code"
        elif "practice" in classes or "prediction" in classes:
            started = "practice"  # read, and part of the time, but not the path's own prose
        elif tag == "section" and "lab" in classes:
            started = "lab"
            self.controls.append(0)
        elif self.context("lab") and LAB_PROSE & set(classes):
            started = "lab-prose"
        elif tag == "details" and "deep-dive" in classes:
            if self.dive():
                raise ProseError(f"deep dive {attrs.get('id')} sits inside another one (fix: asides do not nest)")
            started = attrs.get("id")
            if started in self.dives:
                raise ProseError(f"two deep dives have the id {started} (fix: give the asides different titles)")
            self.dives[started] = Words()
        if self.controls and not self.context("skip") and started != "skip":
            self.count_control(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, started))

    def count_control(self, tag: str, attrs: dict) -> None:
        kind = (attrs.get("type") or "text").lower()
        if tag == "input" and kind == "radio":
            group = attrs.get("name") or ""
            if group not in self.radio_groups:
                self.radio_groups.add(group)
                self.controls[-1] += 1
        elif tag in ("select", "textarea") or tag == "input" and kind in TEXT_INPUTS:
            self.controls[-1] += 1

    def handle_endtag(self, tag):
        for at in range(len(self.stack) - 1, -1, -1):
            if self.stack[at][0] == tag:
                closed = [started for _, started in self.stack[at:]]
                del self.stack[at:]
                for _ in range(closed.count("lab")):
                    self.count(Words(labs=lab_minutes(self.controls.pop())))
                return

    def handle_data(self, data):
        if self.context("skip") or self.context("template") or self.context("lab") and not self.context("lab-prose"):
            return
        n = len(data.split())
        if n:
            self.count(Words(code=n) if self.context("code")
                       else Words(prose=n, apart=n if self.context("lab") or self.context("practice") else 0))

    def count(self, words: Words) -> None:
        self.total.add(words)
        dive = self.dive()
        if dive:
            self.dives[dive].add(words)


def section_time(html: str, seen: set[str] | None = None) -> SectionTime:
    """`seen`: the practice questions earlier sections counted (a question asked again adds nothing)."""
    counter = WordCounter(seen)
    counter.feed(html)
    counter.close()
    dives = {dive: minutes(words) for dive, words in counter.dives.items()}
    everything = minutes(counter.total)
    essential = counter.total
    for words in counter.dives.values():
        essential = essential.minus(words)
    return SectionTime(everything, everything - sum(dives.values()), dives, essential.prose - essential.apart)


def page_times(bodies: list[str], cache_dir: Path | None = None) -> list[SectionTime]:
    """section_time of each section's body, in page order (a practice question the quiz asks
    again counts once), kept in cache_dir/reading-times.json by the bodies and this module's
    code: a rebuild with nothing new reads them rather than parse the page's HTML again (a tenth
    of such a build's time)."""
    digest = hashlib.sha256(code_key([Path(__file__)]).encode())
    for body in bodies:
        digest.update(b"\0" + body.encode("utf-8"))
    path = cache_dir / "reading-times.json" if cache_dir else None
    if path and path.is_file():
        try:
            kept = json.loads(path.read_text("utf-8"))
            if kept["key"] == digest.hexdigest():
                return [SectionTime(**time) for time in kept["times"]]
        except (ValueError, KeyError, TypeError):
            pass  # written by other code, or damaged: count again
    seen: set[str] = set()
    times = [section_time(body, seen) for body in bodies]
    if path:
        write_atomically(path, json.dumps({"key": digest.hexdigest(), "times": [asdict(t) for t in times]}))
    return times


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
