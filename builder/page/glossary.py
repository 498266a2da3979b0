"""The glossary: every term the page explains, from corpus/glossary.yaml, and the links the
prose makes to it. `[[term]]` or `[[term|shown words]]` in a section becomes a link to the
term's definition, which the runtime opens as a popover; a term missing from the glossary
stops the build, naming the section and the line.

Example: GlossaryLinks([{"term": "BM25", "slug": "bm25", "definition": "…", "aliases": []}])
         .replace("[[BM25|keyword search]]", "s.md") -> '<a class="term" href="#term-bm25">keyword search</a>'

The link names its term once, in its href (#term-<slug>): the runtime reads the slug there.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_list
from engine.fields import check_id, required_str
from engine.problems import ProblemLog

from builder.page.errors import ProseError

TERM = re.compile(r"\[\[([^\[\]|]+?)(?:\|([^\[\]]+?))?\]\]")


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    slug: str
    definition: str
    aliases: tuple[str, ...]


# A measured result written by hand: a percentage, or a count out of a total ("24 of 30").
# Definitions are not templates, so a figure in one could never follow the build.
TYPED_RESULT = re.compile(r"(?<![\w-])\d[\d.,]*\s?%|(?<![\w-])\d[\d,]* (?:out )?of (?:the )?\d")


def load_glossary(path: Path, out: ProblemLog) -> list[GlossaryEntry]:
    entries = []
    for record in yaml_list(path, out):
        term = required_str(record, "term", path, None, out)
        slug = check_id(record.get("slug"), path, record["__line__"], "slug", out)
        definition = required_str(record, "definition", path, slug, out)
        aliases = record.get("aliases") or []
        if not isinstance(aliases, list):
            out.add(path, record["__line__"], slug, "aliases", "is not a list", "write aliases: [first, second]")
            aliases = []
        typed = TYPED_RESULT.search(definition or "")
        if typed:
            out.add(path, record["__line__"], slug, "definition", f"types the figure '{typed.group()}': every "
                    "result on the page comes from the build, and a definition is not rendered with its data",
                    "define the term in words (a result belongs in a section, written with {{ … }})")
            definition = None
        if None not in (term, slug, definition):
            entries.append(GlossaryEntry(term, slug, definition, tuple(str(a) for a in aliases)))
    return entries


def alphabetical(glossary: list[dict]) -> list[dict]:
    """The entries as the page lists them: by term, ignoring case (the file keeps the order its
    authors chose to write them in).

    Example: [e["term"] for e in alphabetical([{"term": "RRF"}, {"term": "ACL"}, {"term": "bi-encoder"}])]
             -> ['ACL', 'bi-encoder', 'RRF']
    """
    return sorted(glossary, key=lambda entry: entry["term"].casefold())


class GlossaryLinks:
    def __init__(self, glossary: list[dict], left_out=None):
        self.left_out = left_out  # another corpus's page: a term its glossary lacks is plain text, noted
        self.by_name = {}
        for entry in glossary:
            for name in (entry["slug"], entry["term"], *entry["aliases"]):
                self.by_name[name.lower()] = entry
        self.used: set[str] = set()

    def replace(self, text: str, where: str) -> str:
        def link(match: re.Match) -> str:
            name, shown = match.group(1), match.group(2) or match.group(1)
            entry = self.by_name.get(name.strip().lower())
            if entry is None:
                line = text[:match.start()].count("\n") + 1
                if self.left_out is not None:
                    self.left_out.note(f"{where}:~{line}", "a glossary link", shown,
                                       f"this corpus's glossary.yaml has no term '{name}'; shown as plain text")
                    return shown
                raise ProseError(f"{where}:~{line}: glossary term '{name}' is not in corpus/glossary.yaml "
                                 f"(fix: add it there, or write [[existing term|{shown}]])")
            self.used.add(entry["slug"])
            return f'<a class="term" href="#term-{entry["slug"]}">{shown}</a>'

        return TERM.sub(link, text)
