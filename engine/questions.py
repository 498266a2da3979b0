"""The questions the engine is measured and traced with: the golden set (each question with
every passage that answers it, the group it belongs to and the reader it is asked as), the
questions the help center cannot answer, and the five tracer questions (with hand-written,
illustrative rerank scores and answers whose claims cite passages).

Example: [(g.id, g.answers, g.group) for g in load_golden(Path("corpus/golden.yaml"), log)][2]
         -> ('g03', ('err-4290', 'api-limits'), 'words')
"""

from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_list
from engine.fields import check_id, required_choice, required_str
from engine.problems import ProblemLog

GROUPS = ("words", "paraphrase", "typed")  # corpus/golden.yaml says what each means
DEFAULT_READER = "customer"


@dataclass(frozen=True)
class PartialAnswer:
    """A passage that answers only part of a question: it counts as no hit."""
    id: str
    note: str


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    question: str
    answers: tuple[str, ...]       # every passage that answers it fully; a hit is any of them
    group: str                     # one of GROUPS
    reader: str                    # the reader role whose permissions the search runs under
    line: int
    partial: tuple[PartialAnswer, ...] = ()
    note: str = ""

    @property
    def answer_id(self) -> str:
        """The first answer, the one the page names when it names one."""
        return self.answers[0]

    @property
    def paraphrase(self) -> bool:
        return self.group == "paraphrase"


@dataclass(frozen=True)
class UnanswerableQuestion:
    id: str
    question: str
    note: str
    line: int


def _id_list(record: dict, key: str, path: Path, item_id: str, out: ProblemLog) -> tuple[str, ...] | None:
    value = record.get(key)
    line = record.get("__line__")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        out.add(path, line, item_id, key, "is not a list of passage ids",
                f"write '{key}: [passage-id, ...]' with at least one id (see help/*.md)")
        return None
    if len(set(value)) != len(value):
        out.add(path, line, item_id, key, "names a passage twice", "name each answering passage once")
        return None
    return tuple(v.strip() for v in value)


def _partial(record: dict, path: Path, item_id: str, answers: tuple[str, ...], out: ProblemLog):
    found = []
    for raw in record.get("partial") or []:
        where = record.get("__line__")
        if not isinstance(raw, dict):
            out.add(path, where, item_id, "partial", "is not a list of {id, note}",
                    "write each as '- id: passage-id' with a 'note:' line saying what it leaves out")
            continue
        pid, note = required_str(raw, "id", path, item_id, out), required_str(raw, "note", path, item_id, out)
        if pid is not None and pid in answers:
            out.add(path, raw.get("__line__", where), item_id, "partial", f"'{pid}' is also one of the answers",
                    "a passage is a full answer or a partial one, not both")
        elif None not in (pid, note):
            found.append(PartialAnswer(pid, note))
    return tuple(found)


def load_golden(path: Path, out: ProblemLog, readers=(DEFAULT_READER, "staff")) -> list[GoldenQuestion]:
    golden = []
    for number, record in enumerate(yaml_list(path, out), start=1):
        line = record["__line__"]
        golden_id = f"g{number:02d}"
        if "answer" in record or "paraphrase" in record:
            out.add(path, line, golden_id, "answer" if "answer" in record else "paraphrase", "is the old format",
                    "write 'answers: [ids]' and 'group: words | paraphrase | typed' (corpus/README.md, golden.yaml)")
            continue
        question = required_str(record, "question", path, golden_id, out)
        answers = _id_list(record, "answers", path, golden_id, out)
        group = required_choice(record, "group", GROUPS, path, golden_id, out)
        reader = str(record.get("reader") or DEFAULT_READER)
        if reader not in readers:
            out.add(path, line, golden_id, "reader", f"is '{reader}'", f"use one of {', '.join(readers)} (readers.yaml)")
            reader = None
        partial = _partial(record, path, golden_id, answers or (), out)
        note = str(record.get("note") or "").strip()
        if None not in (question, answers, group, reader):
            golden.append(GoldenQuestion(golden_id, question, answers, group, reader, line, partial, note))
    return golden


def load_unanswerable(path: Path, out: ProblemLog) -> list[UnanswerableQuestion]:
    """corpus/unanswerable.yaml: questions no passage answers (optional: a corpus without it has none)."""
    if not path.is_file():
        return []
    found = []
    for number, record in enumerate(yaml_list(path, out), start=1):
        question_id = f"u{number:02d}"
        question = required_str(record, "question", path, question_id, out)
        note = required_str(record, "note", path, question_id, out)
        if None not in (question, note):
            found.append(UnanswerableQuestion(question_id, question, note, record["__line__"]))
    return found


@dataclass(frozen=True)
class TracerClaim:
    text: str
    source_id: str
    quote: str
    line: int
    in_answer: str = ""  # the words of the answer it stands for; "" when its own text is

    @property
    def located_by(self) -> str:
        """The span of the answer that places the claim in its sentence (engine/citations.py answer_sentences).

        Example: TracerClaim("Free allows 100 MB.", "err-4021", "100 MB for Free", 3, "100 MB on Free").located_by
                 -> "100 MB on Free"
        """
        return self.in_answer or self.text


@dataclass(frozen=True)
class Tracer:
    id: str
    question: str
    answer_id: str
    rerank: dict[str, float]
    answer_text: str
    claims: tuple[TracerClaim, ...]
    line: int


def load_tracers(path: Path, out: ProblemLog) -> list[Tracer]:
    tracers = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        tracer_id = check_id(record.get("id"), path, line, "id", out)
        question = required_str(record, "question", path, tracer_id, out)
        answer = required_str(record, "answer", path, tracer_id, out)
        answer_text = required_str(record, "answer_text", path, tracer_id, out)
        rerank = record.get("rerank")
        scores: dict[str, float] = {}
        if not isinstance(rerank, dict) or len(set(rerank) - {"__line__"}) < 2:
            out.add(path, line, tracer_id, "rerank", "needs illustrative scores for at least two passages",
                    "write 'rerank:' with 'passage-id: score' lines, scores from 0 to 1")
        else:
            for pid, score in rerank.items():
                if pid == "__line__":
                    continue
                if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1:
                    out.add(path, rerank["__line__"], tracer_id, f"rerank.{pid}", f"score '{score}' is not in 0..1",
                            "write a number from 0 to 1")
                else:
                    scores[str(pid)] = float(score)
        claims = []
        raw_claims = record.get("claims")
        if not isinstance(raw_claims, list) or not raw_claims:
            out.add(path, line, tracer_id, "claims", "is missing", "list the answer's claims with text, source and quote")
            raw_claims = []
        for number, raw in enumerate(raw_claims, start=1):
            where = f"{tracer_id} claim {number}"
            if not isinstance(raw, dict):
                out.add(path, line, where, None, "is not a claim", "write text:, source: and quote: lines")
                continue
            values = [required_str(raw, key, path, where, out) for key in ("text", "source", "quote")]
            in_answer = raw.get("in_answer", "")
            if not isinstance(in_answer, str):
                out.add(path, raw["__line__"], where, "in_answer", "must be text",
                        "copy the words of answer_text this claim stands for, in quotes")
                in_answer = ""
            if None not in values:
                claims.append(TracerClaim(*values, line=raw["__line__"], in_answer=in_answer))
        if None not in (tracer_id, question, answer, answer_text):
            tracers.append(Tracer(tracer_id, question, answer, scores, answer_text, tuple(claims), line))
    return tracers
