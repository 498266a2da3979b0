"""The errors that stop a build in the page layer. Each message names the file and line to fix.

(A corpus problem is engine.problems.CorpusError; a sentence the numbers no longer support is
builder.page.claims.ClaimFailed.)
"""


class ProseError(Exception):
    """A section of the prose that cannot be rendered."""


class SampleError(Exception):
    """A code sample that does not run, or no longer agrees with the engine or the corpus."""
