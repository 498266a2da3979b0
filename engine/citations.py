"""Check a model's citations with code: does the source exist, is the quote in it,
are the claim's numbers in the quote?

What code cannot check is whether a real quote supports the claim made from it; that
needs a judge model or a person.

Example: check_citations([Claim("Free allows 100 MB", "err-4021", "100 MB")],
                         {"err-4021": "... up to 100 MB on Free ..."})[0].ok -> True
"""

import re
from dataclasses import dataclass, field

# A number as people write it: 14, 2026, 20,000 or 2.5 (thousands separators dropped).
_NUMBER = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")
# JavaScript's \s, spelled out, so the browser's twin of this checker splits exactly the same.
_SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


@dataclass(frozen=True)
class Claim:
    text: str
    source_id: str
    quote: str


@dataclass(frozen=True)
class CitationResult:
    claim: Claim
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def normalize(text: str) -> str:
    """Lower-case, every run of white space as one space, trimmed."""
    return _SPACE.sub(" ", text.lower()).strip(" ")


def whole_numbers(text: str) -> list[str]:
    """Each number, once, in order: 'QB-4021: 100 MB, 20,000 rows' -> ['4021', '100', '20000']."""
    return list(dict.fromkeys(number.replace(",", "") for number in _NUMBER.findall(text)))


def check_claim(claim: Claim, sources: dict[str, str]) -> CitationResult:
    if claim.source_id not in sources:
        return CitationResult(claim, [f"unknown source id '{claim.source_id}': it was not sent to the model"])
    problems = []
    quote = normalize(claim.quote)
    if not quote:
        problems.append("the quote is empty")
    elif quote not in normalize(sources[claim.source_id]):
        problems.append(f"quote not found in source '{claim.source_id}'")
    quoted_numbers = set(whole_numbers(claim.quote))
    for number in whole_numbers(claim.text):
        if number not in quoted_numbers:
            problems.append(f"number {number} in the claim is not in the quote")
    return CitationResult(claim, problems)


def check_citations(claims: list[Claim], sources: dict[str, str]) -> list[CitationResult]:
    return [check_claim(claim, sources) for claim in claims]
