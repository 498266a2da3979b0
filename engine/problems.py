"""Problems found in the corpus, each naming the place and the fix, and the error that
carries all of them at once.

Example: str(Problem("corpus/help/billing.md", 12, "refund-new", "updated",
                     "is '2026-6-15', not a date", "write it as YYYY-MM-DD"))
         -> "corpus/help/billing.md:12: refund-new: updated: is '2026-6-15', not a date (fix: write it as YYYY-MM-DD)"
"""

from dataclasses import dataclass
from pathlib import Path


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


class ProblemLog:
    """Problems found so far while reading a corpus folder, each named relative to it.

    Readers of different files add to one log, so an author sees every problem at once;
    `raise_if_any()` ends the reading. Warnings (a stray file, say) are kept apart: they are
    printed by the build and stop nothing.
    """

    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []
        self.warnings: list[str] = []
        self.invalid_yaml: set[Path] = set()
        # Ids of passages that exist but have a problem of their own: references to them
        # are not reported again as "no passage".
        self.broken_ids: set[str] = set()

    def name(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)

    def add(self, path: Path, line: int | None, item_id: str | None, field_name: str | None,
            message: str, fix: str) -> None:
        self.problems.append(Problem(self.name(path), line, item_id, field_name, message, fix))

    def warn(self, path: Path, message: str) -> None:
        self.warnings.append(f"{self.name(path)}: {message}")

    def raise_if_any(self) -> None:
        if self.problems:
            raise CorpusError(self.problems)
