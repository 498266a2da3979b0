"""Figures the prose states that are facts about the world (a price multiple, a version), kept in
site_src/facts.yaml with what each says and its source, so that no figure is typed into prose:
the build's own numbers come from the data (builder/page/facts.py), these from here.

Example: load_facts()["weaviate_relative_score_default"].value -> '1.24'
"""

from dataclasses import dataclass
from pathlib import Path

import yaml

from builder.sources import SITE_SRC

FACTS_FILE = SITE_SRC / "facts.yaml"
FIELDS = ("value", "says", "source", "url", "as_of")


@dataclass(frozen=True)
class SourcedFact:
    value: str
    says: str
    source: str
    url: str
    as_of: str


def load_facts(path: Path = FACTS_FILE) -> dict[str, SourcedFact]:
    """Every entry of facts.yaml; an entry without one of FIELDS stops the build, naming it."""
    raw = yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None
    facts = {}
    for name, entry in (raw or {}).items():
        missing = [f for f in FIELDS if not isinstance(entry, dict) or not str(entry.get(f, "")).strip()]
        if missing:
            raise ValueError(f"{path}: fact '{name}' has no {', '.join(missing)} "
                             f"(fix: give it {', '.join(FIELDS)}; a fact with no source does not belong on the page)")
        facts[name] = SourcedFact(**{f: str(entry[f]) for f in FIELDS})
    return facts


def fact_value(facts: dict[str, SourcedFact], name: str) -> str:
    """{{ fact('name') }}: the figure, as facts.yaml writes it."""
    if name not in facts:
        raise KeyError(f"no fact '{name}' in {FACTS_FILE} (its names: {', '.join(sorted(facts)) or 'none'}; "
                       f"add it there with {', '.join(FIELDS)})")
    return facts[name].value
