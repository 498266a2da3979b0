"""The citation checker: one claim of a traced answer (text, source id, quote) checked against
the passages that answer's prompt carried (data.tracers[i].sent). The view (lab.js) checks it
with engine/citations.py's JavaScript twin on every edit, and marks the quote in its passage.

Its own content is corpus/checker-cases.yaml: cases that each edit one traced claim so that the
checker meets one of its rules (a curly apostrophe, an entity, a number in words, a quote too
short, a quote shortened with "…", and what code cannot check), with what the checker must say.
The lab offers them as buttons. The build checks every case with engine/citations.py and stops,
naming the case, when the checker says anything else.

Example: apply_case(case, tracers) -> Claim('Paid plans are refundable within three weeks of the
         payment.', 'refund-new', 'Paid plans are refundable within 14 days of the payment')
"""

import sys
from dataclasses import dataclass
from pathlib import Path

from engine.citations import UNBACKED, Claim, check_claim
from engine.corpus_files import yaml_list
from engine.fields import check_bool, check_id, required_str
from engine.problems import CorpusError, Problem, ProblemLog
from engine.validate import check_unique

STATE = {"q": "refund-three-weeks", "c": 0}  # the state the page opens on: a tracer and one of its claims
SCRIPTS = ("engine",)  # the browser's twin of engine/citations.py
VIEWS = ("answer",)  # site_src/views/answer.js draws the answer sentence by sentence
BUILD_ONLY = ("expected",)  # what each case must make the checker say: proven by the build, read by the tests
FILE = "checker-cases.yaml"
EDITS = ("text", "source", "quote")  # the claim's fields a case may edit


@dataclass(frozen=True)
class CheckerCase:
    id: str
    rule: str             # the rule it tries: its group of buttons
    label: str            # the button's words
    tracer: str           # a tracer id
    claim: int            # which of its claims, counted from 1
    edits: dict           # field -> the field as edited (text, source, quote)
    problems: tuple       # what engine/citations.py must say, in order; () when the claim passes
    claim_true: bool      # False: the claim is false, whatever the checker says
    note: str             # what the lab says while the case is on
    file: str             # where it is written, for errors
    line: int


def _text_list(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def load_cases(path: Path, out: ProblemLog) -> tuple[CheckerCase, ...]:
    """The cases of `path`, each checked for its shape (its references and its verdict need the
    search, and are checked by the data step); a problem for each field that is wrong."""
    cases = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        case_id = check_id(record.get("id"), path, line, "id", out)
        rule, label, note = (required_str(record, key, path, case_id, out) for key in ("rule", "label", "note"))
        tracer = check_id(record.get("tracer"), path, line, "tracer", out)
        claim = record.get("claim")
        if isinstance(claim, bool) or not isinstance(claim, int) or claim < 1:
            out.add(path, line, case_id, "claim", f"is '{claim}', not a claim's number",
                    "write which claim of the tracer the case edits, counted from 1 (claim: 2)")
            claim = None
        edits = {key: record[key] for key in EDITS if key in record}
        wrong = [key for key, value in edits.items() if not isinstance(value, str)]
        for key in wrong:
            out.add(path, line, case_id, key, "must be text", f"write '{key}:' as the claim's {key} once edited, in quotes")
        if not edits:
            out.add(path, line, case_id, None, "edits nothing", "give the claim's text:, source: or quote: as the case edits it")
        problems = record.get("problems")
        if not _text_list(problems):
            out.add(path, line, case_id, "problems", "is not a list of the checker's problems",
                    "write what engine/citations.py says, one problem a line (problems: [] when the claim passes)")
        claim_true = check_bool(record.get("claim_true", True), path, line, case_id, "claim_true", out)
        if None not in (case_id, rule, label, note, tracer, claim, claim_true) and edits and not wrong and _text_list(problems):
            cases.append(CheckerCase(case_id, rule, label, tracer, claim, edits, tuple(problems), claim_true, note,
                                     out.name(path), line))
    check_unique(out, path, [(case.id, case.line, case.id) for case in cases], "id", "give each case its own id")
    return tuple(cases)


def load_content(root: Path, out: ProblemLog) -> tuple[CheckerCase, ...]:
    return load_cases(root / FILE, out)


def apply_case(case: CheckerCase, tracers: dict) -> Claim:
    """The traced claim the case starts from, with its edits."""
    claim = tracers[case.tracer]["claims"][case.claim - 1]
    fields = {key: case.edits.get(key, claim[key]) for key in EDITS}
    return Claim(fields["text"], fields["source"], fields["quote"])


def case_problems(case: CheckerCase, tracers: dict, texts: dict) -> list[Problem]:
    """What is wrong with a case against the built data: a tracer or claim that does not exist, an
    edit that changes nothing, or a verdict that is not what engine/citations.py says of the
    edited claim, checked against the passages that answer's prompt carried."""
    def problem(field, message, fix):
        return [Problem(case.file, case.line, case.id, field, message, fix)]
    if case.tracer not in tracers:
        return problem("tracer", f"no tracer has the id '{case.tracer}'", f"use one of {', '.join(tracers)}")
    claims = tracers[case.tracer]["claims"]
    if case.claim > len(claims):
        return problem("claim", f"tracer '{case.tracer}' has {len(claims)} claims, not {case.claim}",
                       f"use a number from 1 to {len(claims)}")
    original = claims[case.claim - 1]
    if all(original[key] == value for key, value in case.edits.items()):
        return problem(None, "its edits leave the claim as it is", "change the claim's text, source or quote")
    sent = {pid: texts[pid] for pid in tracers[case.tracer]["sent"]}
    said = check_claim(apply_case(case, tracers), sent).problems
    if said != list(case.problems):
        return problem("problems", f"the checker says {said or 'nothing (the claim passes)'}, not {list(case.problems)}",
                       "write what the checker says, or change the edit so that it says what the case shows")
    return []


def data(build) -> dict:
    cases = build.content.labs["checker"]
    tracers = {t["id"]: t for t in build.data["tracers"]}
    texts = {p.id: p.text for p in build.corpus.passages}
    wrong = [problem for case in cases for problem in case_problems(case, tracers, texts)]
    if wrong and build.strict:
        raise CorpusError(wrong)
    if wrong:  # a build that only warns (build.py --claims warn): the cases show what they show
        print(f"warning: {CorpusError(wrong)}", file=sys.stderr)
    return {
        "cases": [{"id": case.id, "rule": case.rule, "label": case.label, "q": case.tracer, "c": case.claim - 1,
                   "edits": case.edits, "claim_true": case.claim_true, "note": case.note} for case in cases],
        "expected": {case.id: list(case.problems) for case in cases},
        "unbacked": UNBACKED,
    }
