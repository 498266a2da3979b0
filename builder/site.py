"""Load everything the page is built from: the engine's corpus (help center, readers, golden
set, tracers) and the page's own content, which the engine never reads (page.yaml: the ids the
figures and examples follow; the glossary, the query rewrites, the BM25 worked example, and each
lab's own files: a lab's data.py reads them with load_content, see builder/labs.py). Every problem in any file is reported at once, as one CorpusError.

A folder of documents (engine/folder_corpus.py) needs none of the page's files: each is read
when present. Without one, there are no rewrites and no worked example, a lab without its own
file has no content (its data step is left out), and the glossary is the page's own
(PAGE_GLOSSARY): it defines the terms the prose uses, not the corpus's.

Example: load_site("corpus").content.glossary[0].term -> 'ACL'
"""

from dataclasses import dataclass
from pathlib import Path

from engine.corpus import Corpus, corpus_root, read_corpus
from engine.problems import ProblemLog
from engine.validate import check_unique, missing_passage

from builder import labs, rewriting, worked_example
from builder.sources import ROOT
from builder.page import glossary
from builder.page.page_config import PageConfig, load_page_config


@dataclass(frozen=True)
class Content:
    glossary: tuple
    rewrites: tuple
    worked_example: object
    labs: dict  # lab name -> what its load_content read (only labs that read files of their own)
    page: PageConfig = PageConfig()  # page.yaml: the ids the figures and examples follow


PAGE_GLOSSARY = ROOT / "corpus" / "glossary.yaml"


@dataclass(frozen=True)
class Site:
    corpus: Corpus
    content: Content


def optional_content(lab, root: Path, out: ProblemLog):
    """A lab's content in a folder of documents: None when all it lacks is its own files."""
    found = ProblemLog(root)
    content = lab.load_content(root, found)
    if found.problems and all(problem.message == "file is missing" for problem in found.problems):
        return None
    out.problems += found.problems
    out.warnings += found.warnings
    out.invalid_yaml |= found.invalid_yaml
    out.broken_ids |= found.broken_ids
    return content


def read_content(root: Path, corpus: Corpus, out: ProblemLog) -> Content:
    if corpus.layout == "documents":
        def present(name: str) -> bool:
            return (root / name).is_file()
        content = Content(
            glossary=tuple(glossary.load_glossary(root / "glossary.yaml" if present("glossary.yaml") else PAGE_GLOSSARY, out)),
            rewrites=tuple(rewriting.load_rewrites(root / "rewrites.yaml", out)) if present("rewrites.yaml") else (),
            worked_example=worked_example.load_worked_example(root / "worked-example.yaml", out)
            if present("worked-example.yaml") else None,
            labs={lab.name: optional_content(lab, root, out) for lab in labs.LABS if lab.has_content},
            page=load_page_config(root, corpus, out),
        )
    else:
        content = Content(
            glossary=tuple(glossary.load_glossary(root / "glossary.yaml", out)),
            rewrites=tuple(rewriting.load_rewrites(root / "rewrites.yaml", out)),
            worked_example=worked_example.load_worked_example(root / "worked-example.yaml", out),
            labs={lab.name: lab.load_content(root, out) for lab in labs.LABS if lab.has_content},
            page=load_page_config(root, corpus, out),
        )
    for rewrite in content.rewrites:
        missing_passage(corpus, out, root / "rewrites.yaml", rewrite.line, rewrite.id, "answer", rewrite.answer_id)
    check_unique(out, root / "glossary.yaml", [(g.slug, None, g.slug) for g in content.glossary],
                 "slug", "give each glossary term its own slug")
    return content


def load_site(path: str | Path) -> Site:
    """The corpus and the page's content under `path`; raises CorpusError listing every problem."""
    root = corpus_root(path)
    out = ProblemLog(root)
    corpus = read_corpus(root, out)
    content = read_content(root, corpus, out)
    out.raise_if_any()
    return Site(corpus, content)
