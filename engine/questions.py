"""The questions the engine is measured and traced with: the golden set (each question with
the passage that answers it) and the five tracer questions (with hand-written, illustrative
rerank scores and answers whose claims cite passages).

Example: load_golden(Path("corpus/golden.yaml"), log)[0].id -> 'g01'
"""

from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_list
from engine.fields import check_bool, check_id, required_str
from engine.problems import ProblemLog


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    question: str
    answer_id: str
    paraphrase: bool
    line: int


@dataclass(frozen=True)
class TracerClaim:
    text: str
    source_id: str
    quote: str
    line: int


@dataclass(frozen=True)
class Tracer:
    id: str
    question: str
    answer_id: str
    rerank: dict[str, float]
    answer_text: str
    claims: tuple[TracerClaim, ...]
    line: int


def load_golden(path: Path, out: ProblemLog) -> list[GoldenQuestion]:
    golden = []
    for number, record in enumerate(yaml_list(path, out), start=1):
        line = record["__line__"]
        golden_id = f"g{number:02d}"
        question = required_str(record, "question", path, golden_id, out)
        answer = required_str(record, "answer", path, golden_id, out)
        paraphrase = check_bool(record.get("paraphrase", False), path, line, golden_id, "paraphrase", out)
        if None not in (question, answer, paraphrase):
            golden.append(GoldenQuestion(golden_id, question, answer, paraphrase, line))
    return golden



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
            if None not in values:
                claims.append(TracerClaim(*values, line=raw["__line__"]))
        if None not in (tracer_id, question, answer, answer_text):
            tracers.append(Tracer(tracer_id, question, answer, scores, answer_text, tuple(claims), line))
    return tracers
