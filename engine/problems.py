"""Problems found in the corpus, each naming the place and the fix, and the error that
carries all of them at once.

Example: str(Problem("corpus/help/billing.md", 12, "refund-new", "updated",
                     "is '2026-6-15', not a date", "write it as YYYY-MM-DD"))
         -> "corpus/help/billing.md:12: refund-new: updated: is '2026-6-15', not a date (fix: write it as YYYY-MM-DD)"
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    id: str | None
    field: str | None
    message: str
    fix: str

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}" if self.line else self.file
        subject = ": ".join(part for part in (self.id, self.field) if part)
        return f"{place}: {subject + ': ' if subject else ''}{self.message} (fix: {self.fix})"


class CorpusError(Exception):
    """Raised with every problem found, so an author can fix them all in one go."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        super().__init__(f"the corpus has {count}:\n" + "\n".join(f"  {p}" for p in problems))
