"""Check yourself: every practice question of corpus/quiz.yaml, in page order, each pointing
back to the section whose end it is practised at. The questions are loaded here and rendered,
like the prose, by the render step (builder/page/practice.py), which adds them to this lab's
data as "questions": {id, section, question, choices, answer, why}.

Example: data(build)["source"][0]["id"] -> 'chunk-split'; data(build)["sections"][0]["slug"] -> 'short-version'
"""

from pathlib import Path

from engine.problems import ProblemLog

from builder.page.practice import PracticeQuestion, load_quiz
from builder.sources import section_index, section_slugs

STATE = {}  # nothing answered yet
BUILD_ONLY = ("source",)  # the questions as written (Jinja, checks): the browser gets them rendered


def load_content(root: Path, out: ProblemLog) -> tuple[PracticeQuestion, ...]:
    """corpus/quiz.yaml, each question's section one of the page's."""
    return tuple(load_quiz(root / "quiz.yaml", out, section_slugs()))


def data(build) -> dict:
    """The questions in page order (a section's questions in the file's order), and the sections."""
    order = {slug: number for number, slug in enumerate(section_slugs())}
    questions = sorted(build.content.labs["quiz"], key=lambda q: order[q.section])
    return {"source": [q.as_source() for q in questions], "sections": section_index()}
