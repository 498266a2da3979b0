"""Check yourself: the quiz of corpus/quiz.yaml, one question per big idea, each explanation
pointing back to its section. Without JavaScript every answer sits in a details element.

Example: data(build)["questions"][0]["answer"] -> the index of its right choice
"""

from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_list
from engine.fields import check_id, required_choice, required_str
from engine.problems import ProblemLog

from builder.sources import section_index, section_slugs
from engine.validate import check_unique

STATE = {}  # nothing chosen yet


@dataclass(frozen=True)
class QuizQuestion:
    id: str
    section: str
    question: str
    choices: tuple[str, ...]
    answer: int
    explanation: str


def load_quiz(path: Path, out: ProblemLog, sections: tuple[str, ...]) -> list[QuizQuestion]:
    quiz = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        quiz_id = check_id(record.get("id"), path, line, "id", out)
        section = required_choice(record, "section", sections, path, quiz_id, out)
        question = required_str(record, "question", path, quiz_id, out)
        explanation = required_str(record, "explanation", path, quiz_id, out)
        choices = record.get("choices")
        answer = record.get("answer")
        if not isinstance(choices, list) or len(choices) < 2:
            out.add(path, line, quiz_id, "choices", "needs at least two choices", "list them under 'choices:'")
            continue
        if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(choices):
            out.add(path, line, quiz_id, "answer", f"'{answer}' is not the index of a choice",
                    f"write the 0-based index of the right choice, 0 to {len(choices) - 1}")
            continue
        if None not in (quiz_id, section, question, explanation):
            quiz.append(QuizQuestion(quiz_id, section, question, tuple(map(str, choices)), answer, explanation))
    return quiz


def load_content(root: Path, out: ProblemLog) -> tuple[QuizQuestion, ...]:
    """corpus/quiz.yaml, each question's section one of the page's."""
    quiz = tuple(load_quiz(root / "quiz.yaml", out, section_slugs()))
    check_unique(out, root / "quiz.yaml", [(q.id, None, q.id) for q in quiz], "id", "give each quiz question its own id")
    return quiz


def data(build) -> dict:
    return {"questions": [{"id": q.id, "section": q.section, "question": q.question, "choices": list(q.choices),
                           "answer": q.answer, "explanation": q.explanation} for q in build.content.labs["quiz"]],
            "sections": section_index()}
