"""Check yourself: every practice question of corpus/quiz.yaml, in page order, each pointing
back to the section whose end it is practised at. The questions are loaded here and rendered,
like the prose, by the render step (builder/page/practice.py), which this lab asks (PRACTICE)
for them as "questions": {id, section, question, choices, answer, why}. The predictions before the
labs (corpus/predictions.yaml, rendered by builder/page/predictions.py) are loaded here too,
being practice of the same kind, and rendered by the same step into the frames before their labs.
Both files are read by builder/practice_source.py: a lab never imports the page layer.

Example: data(build)["source"][0]["id"] -> 'chunk-split'; data(build)["sections"][0]["slug"] -> 'short-version'
"""

from dataclasses import dataclass
from pathlib import Path

from engine.problems import ProblemLog

from builder.practice_source import Prediction, PracticeQuestion, load_predictions, load_quiz
from builder.sources import section_index, section_slugs

STATE = {}  # nothing answered yet
# The questions and predictions as written (Jinja, checks): the browser gets them rendered.
BUILD_ONLY = ("source", "prediction_source")
# What this lab asks of the render step (builder/labs.py Lab.practice): it renders and checks the
# questions and predictions written here over the data, and hands this lab the questions rendered.
PRACTICE = {"source": "source", "predictions": "prediction_source", "rendered": "questions"}


@dataclass(frozen=True)
class QuizContent:
    questions: tuple[PracticeQuestion, ...]
    predictions: tuple[Prediction, ...] = ()


def load_content(root: Path, out: ProblemLog) -> QuizContent:
    """corpus/quiz.yaml, each question's section one of the page's; corpus/predictions.yaml when
    the corpus has one, each prediction naming a lab and its settings."""
    from builder.labs import BY_NAME  # here, not at the top: builder.labs imports this module
    questions = tuple(load_quiz(root / "quiz.yaml", out, section_slugs()))
    path = root / "predictions.yaml"
    predictions = tuple(load_predictions(path, out, {name: lab.state for name, lab in BY_NAME.items()})) \
        if path.is_file() else ()
    return QuizContent(questions, predictions)


def data(build) -> dict:
    """The questions in page order (a section's questions in the file's order), the sections, and
    the predictions as written."""
    order = {slug: number for number, slug in enumerate(section_slugs())}
    content = build.content.labs["quiz"]
    questions = sorted(content.questions, key=lambda q: order[q.section])
    return {"source": [q.as_source() for q in questions], "sections": section_index(),
            "prediction_source": [p.as_source() for p in content.predictions]}
