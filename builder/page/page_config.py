"""A corpus's page.yaml: which of its questions and passages the page's figures, worked examples
and samples follow, and whether the page's prose was written for it. The builder names no
passage or question of any corpus; it reads them here.

    strict: true                  # the prose was written for this corpus: a sentence that no
                                  # longer holds stops the build (else: a warning, left out)
    showcase: <question id>       # the question the pipeline figures follow
    score_scales: <question id>   # the question whose dense and BM25 scores share one axis
    vocabulary_mismatch: <golden id>  # a golden question that shares (almost) no word with its passage
    rrf_example: <question id>    # the question whose top lists the RRF example fuses by hand
    two_passages: <tracer id>     # a traced question whose answer cites two passages
    prompt_example: <passage id>  # the passage whose source block the prompt section shows
    structured_reply: <tracer id> # the traced answer shown as a structured reply
    stale_claim: {text: …, source: <passage id>, quote: …}  # illustrative: quotes an outdated passage
    checker_limits:               # illustrative claims showing what the citation checker cannot see
      <name>: {text: …, source: <passage id>, quote: …}

Every field is optional. Without the file, or a field: not strict; showcase is the first tracer
(or else the first golden question); score_scales and rrf_example are the showcase; the others
are none, and what needs them is left out. Each id is checked against the corpus; a problem
names the file, the line, the field and the fix.

Example: load_page_config(Path("my-corpus"), corpus, log).showcase -> the first tracer's id, when
my-corpus/ has no page.yaml
"""

from dataclasses import dataclass, field
from pathlib import Path

from engine.citations import Claim
from engine.corpus_files import yaml_mapping
from engine.fields import check_bool, required_str
from engine.problems import ProblemLog

QUESTION_FIELDS = ("showcase", "score_scales", "rrf_example")
FIELDS = ("strict", *QUESTION_FIELDS, "vocabulary_mismatch", "two_passages", "prompt_example", "structured_reply",
          "stale_claim", "checker_limits")


@dataclass(frozen=True)
class PageConfig:
    strict: bool = False
    showcase: str | None = None
    score_scales: str | None = None
    vocabulary_mismatch: str | None = None
    rrf_example: str | None = None
    two_passages: str | None = None
    prompt_example: str | None = None
    structured_reply: str | None = None
    stale_claim: Claim | None = None
    checker_limits: dict[str, Claim] = field(default_factory=dict)
    found: bool = False  # whether the corpus has a page.yaml

    def as_data(self) -> dict:
        """What the figures and the prose read (data["page"])."""
        return {"strict": self.strict, "showcase": self.showcase, "score_scales": self.score_scales,
                "vocabulary_mismatch": self.vocabulary_mismatch, "rrf_example": self.rrf_example,
                "two_passages": self.two_passages, "prompt_example": self.prompt_example,
                "structured_reply": self.structured_reply}


def default_showcase(corpus) -> str | None:
    """The first tracer, else the first golden question, else none."""
    return next((q.id for q in (*corpus.tracers, *corpus.golden)), None)


def load_page_config(root: Path, corpus, out: ProblemLog) -> PageConfig:
    path = root / "page.yaml"
    if not path.is_file():
        showcase = default_showcase(corpus)
        return PageConfig(showcase=showcase, score_scales=showcase, rrf_example=showcase)
    data = yaml_mapping(path, out, "'strict:', 'showcase:' and the other fields of corpus/README.md")
    if data is None:
        return PageConfig(found=True)
    line = data.get("__line__", 1)
    for key in data:
        if key != "__line__" and key not in FIELDS:
            out.add(path, line, None, str(key), "is not a page field", f"use only {', '.join(FIELDS)}")
    questions = {q.id: q for q in (*corpus.golden, *corpus.tracers)}
    golden = {q.id for q in corpus.golden}
    tracers = {t.id for t in corpus.tracers}

    def named(key: str, known, what: str, fix: str) -> str | None:
        if data.get(key) is None:
            return None
        value = str(data[key]).strip()
        if value in known or value in out.broken_ids:
            return value
        out.add(path, line, None, key, f"no {what} '{value}'", fix)
        return None

    any_question = "name a golden question (its id: g, then its place in golden.yaml in two digits) or a tracer of tracers.yaml"
    values = {key: named(key, questions, "question", any_question) for key in QUESTION_FIELDS}
    if data.get("showcase") is None:
        values["showcase"] = default_showcase(corpus)
    for key in ("score_scales", "rrf_example"):
        if data.get(key) is None:
            values[key] = values["showcase"]
    strict = check_bool(data.get("strict", False), path, line, None, "strict", out)
    return PageConfig(
        strict=bool(strict), **values,
        vocabulary_mismatch=named("vocabulary_mismatch", golden, "golden question",
                                  "name a golden question (its id: g, then its place in golden.yaml in two digits)"),
        two_passages=named("two_passages", tracers, "tracer", "name a tracer id of tracers.yaml"),
        prompt_example=named("prompt_example", corpus.by_id, "passage", "name a passage id of the corpus"),
        structured_reply=named("structured_reply", tracers, "tracer", "name a tracer id of tracers.yaml"),
        stale_claim=illustrative_claim(data.get("stale_claim"), "stale_claim", path, line, corpus, out),
        checker_limits=named_claims(data.get("checker_limits"), path, line, corpus, out),
        found=True)


def illustrative_claim(spec, where: str, path: Path, line: int, corpus, out: ProblemLog) -> Claim | None:
    """An illustrative claim, its source a passage of the corpus (its quote need not be in it:
    some of these claims show what the checker refuses); None, and a problem, when it is not one."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        out.add(path, line, None, where, "is not a claim", "write {text: …, source: <passage id>, quote: …}")
        return None
    values = [required_str(spec, key, path, where, out) for key in ("text", "source", "quote")]
    if None in values:
        return None
    if values[1] not in corpus.by_id and values[1] not in out.broken_ids:
        out.add(path, spec["__line__"], where, "source", f"no passage '{values[1]}'", "name a passage id of the corpus")
        return None
    return Claim(*values)


def named_claims(raw, path: Path, line: int, corpus, out: ProblemLog) -> dict[str, Claim]:
    """checker_limits: name -> an illustrative claim."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        out.add(path, line, None, "checker_limits", "is not a set of named claims",
                "write '<name>: {text: …, source: <passage id>, quote: …}' lines under it")
        return {}
    claims = {str(name): illustrative_claim(spec, f"checker_limits.{name}", path, raw["__line__"], corpus, out)
              for name, spec in raw.items() if name != "__line__"}
    return {name: claim for name, claim in claims.items() if claim is not None}
