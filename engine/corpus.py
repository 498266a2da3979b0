"""Load the help center and the questions the engine is measured with, checking them as it goes.

A corpus folder holds help/*.md (the passages), readers.yaml (who may read what),
golden.yaml (the golden set) and tracers.yaml (the traced questions). A folder without a
help/ of `## <id> | <section>` passages is read as a folder of documents instead
(engine/folder_corpus.py: each file cut into passages by heading, the other files optional). Every problem found, in
any file, is collected and raised together as a CorpusError whose lines name the file, the
line, the id and the field, and say how to fix it. Nothing is computed from a corpus that has
a problem. The file formats are described in corpus/README.md.

Example: load_corpus("corpus").passages[0].id -> 'api-keys'
"""

from dataclasses import dataclass, field
from pathlib import Path

from engine.corpus_files import MAX_FILE_BYTES  # noqa: F401 (part of the loader's API)
from engine.folder_corpus import read_folder
from engine.help_center import PASSAGE_HEADING, Passage, load_help_center
from engine.problems import CorpusError, Problem, ProblemLog
from engine.questions import GoldenQuestion, Tracer, UnanswerableQuestion, load_golden, load_tracers, load_unanswerable
from engine.readers import Reader, load_readers
from engine.validate import cross_check


@dataclass(frozen=True)
class Corpus:
    passages: tuple[Passage, ...]
    golden: tuple[GoldenQuestion, ...]
    tracers: tuple[Tracer, ...]
    readers: tuple[Reader, ...]
    unanswerable: tuple[UnanswerableQuestion, ...] = ()
    root: str = ""
    layout: str = "help center"  # or "documents": a folder of documents (engine/folder_corpus.py)
    warnings: tuple[str, ...] = ()
    by_id: dict[str, Passage] = field(default_factory=dict, compare=False, repr=False)

    @property
    def groups(self) -> set[str]:
        return {group for reader in self.readers for group in reader.groups}


def is_help_center(root: Path) -> bool:
    """Whether `root` has the help-center layout: a help/ folder with `## <id> | <section>` passages."""
    folder = root / "help"
    if not folder.is_dir():
        return False
    for path in folder.glob("*.md"):
        with path.open("rb") as file:
            text = file.read(MAX_FILE_BYTES + 1).decode("utf-8", errors="replace")
        if any(PASSAGE_HEADING.match(line) for line in text.splitlines()):
            return True
    return not any(folder.iterdir())  # an empty help/ is a help center missing its documents


def read_corpus(root: Path, out: ProblemLog) -> Corpus:
    """Everything under `root`, with each problem added to `out` (nothing raised): for a caller
    that checks more files of the same folder and reports all problems at once."""
    if is_help_center(root):
        readers = load_readers(root / "readers.yaml", out)
        groups = {group for reader in readers for group in reader.groups}
        passages = load_help_center(root / "help", groups, out)
        golden = load_golden(root / "golden.yaml", out, tuple(r.role for r in readers))
        tracers, layout = load_tracers(root / "tracers.yaml", out), "help center"
    else:
        if (root / "help").is_dir():
            out.warn(root / "help", "holds no '## <id> | <section>' passages: the folder is read as documents, "
                                    "each file cut into passages by heading")
        passages, golden, tracers, readers = read_folder(root, out)
        layout = "documents"
    corpus = Corpus(
        passages=tuple(passages),
        golden=tuple(golden),
        tracers=tuple(tracers),
        readers=tuple(readers),
        unanswerable=tuple(load_unanswerable(root / "unanswerable.yaml", out)),
        root=str(root),
        layout=layout,
        warnings=tuple(out.warnings),
        by_id={p.id: p for p in passages},
    )
    cross_check(corpus, root, out)
    return corpus


def corpus_root(path: str | Path) -> Path:
    root = Path(path).resolve()
    if not root.is_dir():
        raise CorpusError([Problem(str(path), None, None, None, "is not a folder", "pass the corpus folder, e.g. corpus/")])
    return root


def load_corpus(path: str | Path) -> Corpus:
    """Everything under `path`, parsed and validated; raises CorpusError listing all problems."""
    root = corpus_root(path)
    out = ProblemLog(root)
    corpus = read_corpus(root, out)
    out.raise_if_any()
    return corpus
