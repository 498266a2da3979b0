"""The citation checker: one claim of a traced answer (text, source id, quote) checked against
the passages that answer's prompt carried. The build checked every traced claim with
engine/citations.py (data.tracers[i].sent_problems); its data step sorts those problems into
the lab's three checks and finds each quote in its passage, for the template. The browser's
twin checks every edit the reader makes.

Example: quote_span("Paid plans are  refundable", "plans ARE refundable") -> [5, 26]
"""

import re

STATE = {"q": "refund-three-weeks", "c": 0}  # the state the page opens on: a tracer and one of its claims
SCRIPTS = ("engine",)  # the browser's twin of engine/citations.py
BUILD_ONLY = ("checks",)  # what the template draws of each traced claim; the browser checks for itself


def quote_span(text: str, quote: str) -> list[int] | None:
    """Where a quote sits in a passage, matched word by word ignoring case and spacing, for
    highlighting it; lab.js finds it the same way. None when it is not there.

    Example: quote_span("Paid plans are  refundable", "plans ARE refundable") -> [5, 26]
    """
    words = quote.split()
    if not words:
        return None
    match = re.search(r"\s+".join(re.escape(w) for w in words), text, re.IGNORECASE)
    return [match.start(), match.end()] if match else None


def by_check(problems: list[str]) -> dict:
    """engine/citations.py's problems sorted into its three checks (the lab shows one row each)."""
    return {"source": [p for p in problems if p.startswith("unknown source id")],
            "numbers": [p for p in problems if p.startswith("number ")],
            "quote": [p for p in problems if not p.startswith(("unknown source id", "number "))]}


def claim_view(claim: dict, problems: list[str], texts: dict) -> dict:
    """What the lab draws of one claim checked against the passages sent (`texts`: id -> text):
    its problems by check, and where its quote sits in the passage it cites (None when that
    passage was not sent or the quote is not in it).

    Example: claim_view({"source": "a", "quote": "b c"}, [], {"a": "x B  c"})
             -> {"by_check": {"source": [], "numbers": [], "quote": []}, "mark": [2, 6]}
    """
    groups = by_check(problems)
    cited = texts.get(claim["source"])
    mark = quote_span(cited, claim["quote"]) if cited is not None and not groups["quote"] else None
    return {"by_check": groups, "mark": mark}


def data(build) -> dict:
    by_id = build.corpus.by_id
    return {"checks": {tracer["id"]: [claim_view(claim, problems, {pid: by_id[pid].text for pid in tracer["sent"]})
                                      for claim, problems in zip(tracer["claims"], tracer["sent_problems"])]
                       for tracer in build.data["tracers"]}}
