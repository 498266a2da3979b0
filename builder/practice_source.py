"""Practice as the author writes it: the questions of corpus/quiz.yaml and the predictions of
corpus/predictions.yaml, read and checked field by field (every problem named by file, line and
field, with how to fix it), and kept as written (Jinja sources, Python expressions) for the
render step, which renders and checks them over the build's data (builder/page/practice.py,
builder/page/predictions.py). A lab reads them here (site_src/labs/quiz/data.py); the page layer
never has to be imported to load a corpus.

Example: load_quiz(Path("corpus/quiz.yaml"), out, ("hybrid",))[0].choices[0].right -> True
"""

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_list
from engine.fields import check_id, required_choice, required_str
from engine.problems import ProblemLog
from engine.validate import check_unique

QUIZ_FILE = "corpus/quiz.yaml"
PREDICTIONS_FILE = "corpus/predictions.yaml"
CHOICES = (3, 4)   # how many choices a question offers: two would be a coin toss
NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass(frozen=True)
class Choice:
    text: str   # Jinja source
    why: str    # Jinja source: why this choice is right, or why it is wrong
    right: bool
    line: int


@dataclass(frozen=True)
class PracticeQuestion:
    id: str
    section: str
    line: int
    question: str                  # Jinja source
    choices: tuple[Choice, ...]
    check: str                     # a Python expression over the facts (and `let`)
    let: tuple[tuple[str, str], ...] = ()

    @property
    def answer(self) -> int:
        return next(i for i, choice in enumerate(self.choices) if choice.right)

    def as_source(self) -> dict:
        """As the data keeps it (JSON), for the render step."""
        return {"id": self.id, "section": self.section, "line": self.line, "question": self.question,
                "check": self.check, "let": [list(pair) for pair in self.let],
                "choices": [{"text": c.text, "why": c.why, "right": c.right, "line": c.line} for c in self.choices]}


# ------------------------------------------------------------------ loading corpus/quiz.yaml


def is_expression(source: str) -> str | None:
    """None if `source` parses as one Python expression, else why not."""
    try:
        ast.parse(source, mode="eval")
        return None
    except SyntaxError as error:
        return f"{error.msg} (column {error.offset})"


TYPED_NUMBER = re.compile(r"(?<![\w-])\d(?:[\d.,]*\d)?")  # a number, not the digits of BM25 or QB-4021
NOT_PROSE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|`[^`]*`", re.S)  # expressions, and identifiers in backticks


def typed_number(text: str) -> str | None:
    """The first number written by hand in a quiz text (outside {{ … }} and `code`), or None."""
    found = TYPED_NUMBER.search(NOT_PROSE.sub(" ", text))
    return found.group(0) if found else None


def check_typed(text: str | None, path: Path, line: int, quiz_id: str, field: str, out: ProblemLog) -> str | None:
    number = typed_number(text) if text is not None else None
    if number is not None:
        out.add(path, line, quiz_id, field, f"types the number {number}: every number on the page comes from the build",
                "name it with {{ … }} over the build's data (as the prose does), or put an identifier in `backticks`")
        return None
    return text


def load_choices(record: dict, path: Path, quiz_id: str, out: ProblemLog) -> tuple[Choice, ...] | None:
    line = record["__line__"]
    raw = record.get("choices")
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        out.add(path, line, quiz_id, "choices", "is not a list of choices",
                "write each choice as '- text: …' with a 'why:' line under it")
        return None
    if len(raw) not in CHOICES:
        out.add(path, line, quiz_id, "choices", f"has {len(raw)} choices",
                f"offer {CHOICES[0]} or {CHOICES[-1]}: fewer is a guess, more is a chore")
        return None
    choices = []
    for item in raw:
        text = check_typed(required_str(item, "text", path, quiz_id, out), path, item["__line__"], quiz_id, "text", out)
        why = check_typed(required_str(item, "why", path, quiz_id, out), path, item["__line__"], quiz_id, "why", out)
        right = item.get("right", False)
        if not isinstance(right, bool):
            out.add(path, item["__line__"], quiz_id, "right", f"is '{right}'", "write right: true on the right choice only")
            return None
        if text is None or why is None:
            return None
        choices.append(Choice(text, why, right, item["__line__"]))
    marked = sum(choice.right for choice in choices)
    if marked != 1:
        out.add(path, line, quiz_id, "choices", f"marks {marked} choices right",
                "put 'right: true' on exactly one choice")
        return None
    return tuple(choices)


def load_let(record: dict, path: Path, quiz_id: str, out: ProblemLog) -> tuple[tuple[str, str], ...] | None:
    raw = record.get("let") or {}
    if not isinstance(raw, dict):
        out.add(path, record["__line__"], quiz_id, "let", "is not a mapping", "write 'let:' with 'name: expression' lines")
        return None
    pairs = []
    for name, source in raw.items():
        if name == "__line__":
            continue
        problem = is_expression(str(source)) if isinstance(source, str) else "it is not text"
        if not NAME.fullmatch(str(name)) or problem:
            out.add(path, raw.get("__line__", record["__line__"]), quiz_id, f"let.{name}",
                    f"is not a name and a Python expression: {problem or 'a name is lower-case letters, digits, _'}",
                    "write 'name: expression', e.g. d: rank('q-upload', 'dense')")
            return None
        pairs.append((str(name), source))
    return tuple(pairs)


def load_quiz(path: Path, out: ProblemLog, sections: tuple[str, ...]) -> list[PracticeQuestion]:
    quiz = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        quiz_id = check_id(record.get("id"), path, line, "id", out)
        section = required_choice(record, "section", sections, path, quiz_id, out)
        question = check_typed(required_str(record, "question", path, quiz_id, out), path, line, quiz_id, "question", out)
        check = required_str(record, "check", path, quiz_id, out)
        if check is not None and is_expression(check):
            out.add(path, line, quiz_id, "check", f"is not a Python expression: {is_expression(check)}",
                    "write one expression over the page's helpers, as in a {% claim %}")
            check = None
        let = load_let(record, path, quiz_id, out)
        choices = load_choices(record, path, quiz_id, out)
        if None not in (quiz_id, section, question, check, let, choices):
            quiz.append(PracticeQuestion(quiz_id, section, line, question, choices, check, let))
    check_unique(out, path, [(q.id, q.line, q.id) for q in quiz], "id", "give each practice question its own id")
    return quiz


@dataclass(frozen=True)
class PredictionChoice:
    text: str   # Jinja source
    holds: str  # a Python expression: true when this choice is what the lab will show
    line: int


@dataclass(frozen=True)
class Prediction:
    id: str
    lab: str
    line: int
    when: tuple[tuple[str, object], ...]  # the part of the lab's state the question is about
    question: str                         # Jinja source, like the rest
    task: str
    shows: str
    choices: tuple[PredictionChoice, ...]
    let: tuple[tuple[str, str], ...] = ()

    def as_source(self) -> dict:
        """As the data keeps it (JSON), for the render step."""
        return {"id": self.id, "lab": self.lab, "line": self.line, "when": dict(self.when), "question": self.question,
                "task": self.task, "shows": self.shows, "let": [list(pair) for pair in self.let],
                "choices": [{"text": c.text, "is": c.holds, "line": c.line} for c in self.choices]}


# ------------------------------------------------------------------ loading corpus/predictions.yaml


def load_when(record: dict, path: Path, pid: str, state: dict, out: ProblemLog) -> tuple | None:
    """The state the question is about: keys of the lab's state, each value of the default's type."""
    raw = record.get("when")
    line = record["__line__"]
    if not isinstance(raw, dict) or not [k for k in raw if k != "__line__"]:
        out.add(path, line, pid, "when", "is not a mapping of the lab's settings",
                "write e.g. 'when: {depth: 4}': the setting the reader moves, and where to")
        return None
    pairs = []
    for key, value in raw.items():
        if key == "__line__":
            continue
        if key not in state:
            out.add(path, line, pid, f"when.{key}", f"is not a setting of this lab (it has {', '.join(state)})",
                    "name a key of the lab's STATE (site_src/labs/<lab>/data.py)")
            return None
        default = state[key]
        same = isinstance(value, type(default)) or (isinstance(default, float) and isinstance(value, int))
        if isinstance(value, bool) != isinstance(default, bool) or (default is not None and not same):
            out.add(path, line, pid, f"when.{key}", f"is {value!r}, not of the setting's type ({type(default).__name__})",
                    f"write a value like the lab's default, {default!r}")
            return None
        pairs.append((key, value))
    return tuple(pairs)


def load_prediction_choices(record: dict, path: Path, pid: str, out: ProblemLog) -> tuple[PredictionChoice, ...] | None:
    raw = record.get("choices")
    line = record["__line__"]
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw) or len(raw) not in CHOICES:
        out.add(path, line, pid, "choices", f"is not a list of {CHOICES[0]} or {CHOICES[-1]} choices",
                "write each choice as '- text: …' with an 'is:' line under it (when that choice is right)")
        return None
    choices = []
    for item in raw:
        text = check_typed(required_str(item, "text", path, pid, out), path, item["__line__"], pid, "text", out)
        holds = required_str(item, "is", path, pid, out)
        if holds is not None and is_expression(holds):
            out.add(path, item["__line__"], pid, "is", f"is not a Python expression: {is_expression(holds)}",
                    "write when this choice is right, as an expression over the page's helpers")
            holds = None
        if "right" in item:
            out.add(path, item["__line__"], pid, "right", "marks a choice right by hand",
                    "remove it: the build finds the right choice from each choice's 'is:'")
            return None
        if text is None or holds is None:
            return None
        choices.append(PredictionChoice(text, holds, item["__line__"]))
    return tuple(choices)


def load_predictions(path: Path, out: ProblemLog, lab_states: dict[str, dict]) -> list[Prediction]:
    """corpus/predictions.yaml, each prediction naming a lab of the page and a part of its state."""
    found = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        pid = check_id(record.get("id"), path, line, "id", out)
        lab = required_choice(record, "lab", tuple(lab_states), path, pid, out)
        when = load_when(record, path, pid, lab_states[lab], out) if lab else None
        texts = {field: check_typed(required_str(record, field, path, pid, out), path, line, pid, field, out)
                 for field in ("question", "task", "shows")}
        let = load_let(record, path, pid, out)
        choices = load_prediction_choices(record, path, pid, out)
        if None not in (pid, lab, when, let, choices, *texts.values()):
            found.append(Prediction(pid, lab, line, when, texts["question"], texts["task"], texts["shows"], choices, let))
    check_unique(out, path, [(p.id, p.line, p.id) for p in found], "id", "give each prediction its own id")
    check_unique(out, path, [(p.lab, p.line, p.id) for p in found], "lab", "ask one prediction per lab")
    return found
