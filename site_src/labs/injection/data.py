"""The prompt-injection demo: the retrieved forum post with its hidden instruction marked, two
illustrative answers (corpus/injection.yaml: one ignored the instruction, one obeyed it) with
the real output guardrail's verdicts, and an editor where the browser's twin of
engine/guardrail.py re-checks any answer the reader writes. The view (lab.js) draws all of it
from what this step gives it; the question is only in the lab's introduction (lab.html).

Example: marked("mail a@b.example now", [Finding("email", "a@b.example")])
         -> [["mail ", None], ["a@b.example", "email"], [" now", None]]
"""

import re
from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_mapping
from engine.fields import required_str
from engine.guardrail import Finding, check_output  # noqa: F401 (Finding: the docstring's example)
from engine.problems import ProblemLog

STATE = {"base": "obeyed"}  # the answer the editor starts from; {base, text} once the reader edits it
SCRIPTS = ("engine",)       # the browser's twin of engine/guardrail.py
BUILD_ONLY = ("question", "note")  # the introduction's question (the frame's); the answers' note, which nothing shows
# What a marked finding says when pointed at (its title), by the guardrail's kind of finding.
LABELS = {"link": "outside link", "email": "e-mail address", "credentials": "asks for credentials"}


@dataclass(frozen=True)
class InjectionAnswers:
    question: str
    ignored: str
    obeyed: str
    note: str


def load_answers(path: Path, out: ProblemLog) -> InjectionAnswers | None:
    data = yaml_mapping(path, out, "question:, ignored:, obeyed: and note:")
    if data is None:
        return None
    values = [required_str(data, key, path, None, out) for key in ("question", "ignored", "obeyed", "note")]
    return None if None in values else InjectionAnswers(*values)


def load_content(root: Path, out: ProblemLog) -> InjectionAnswers | None:
    return load_answers(root / "injection.yaml", out)


def marked(text: str, findings) -> list[list]:
    """`text` cut into [piece, kind or None] where each finding's match is its own piece,
    for highlighting. lab.js cuts the text of the editor the same way.

    Example: marked("mail a@b.example now", [Finding("email", "a@b.example")])
             -> [["mail ", None], ["a@b.example", "email"], [" now", None]]
    """
    spans: list[tuple[int, int, str]] = []
    for finding in findings:
        start = text.find(finding.match)
        while start >= 0:
            end = start + len(finding.match)
            if all(end <= s or start >= e for s, e, _ in spans):
                spans.append((start, end, finding.kind))
                break
            start = text.find(finding.match, start + 1)
    pieces, at = [], 0
    for start, end, kind in sorted(spans):
        if start > at:
            pieces.append([text[at:start], None])
        pieces.append([text[start:end], kind])
        at = end
    if at < len(text):
        pieces.append([text[at:], None])
    return pieces


def injected_passages(corpus) -> list[dict]:
    """Passages the output guardrail would flag if they were an answer: where an instruction
    hides. Each with its sentences marked: True for a sentence holding a finding."""
    flagged = []
    for p in corpus.passages:
        findings = check_output(p.text)
        if not findings:
            continue
        sentences = re.split(r"(?<=[.!?])\s+", p.text)
        flagged.append({"id": p.id, "findings": [str(f) for f in findings],
                        "sentences": [[s, any(f.match in s for f in findings)] for s in sentences]})
    return flagged


def data(build) -> dict:
    answers = build.content.labs["injection"]
    texts = {"ignored": answers.ignored, "obeyed": answers.obeyed}
    return {
        "question": answers.question, "note": answers.note,
        "answers": {name: {"text": text, "guardrail": [str(f) for f in check_output(text)],
                           "marked": marked(text, check_output(text))} for name, text in texts.items()},
        "injected": injected_passages(build.corpus),
        "labels": LABELS,
    }
