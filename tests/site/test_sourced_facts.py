"""Figures about the world that the prose states come from site_src/facts.yaml, each with what it
says and its source (builder/page/sourced_facts.py); none is typed into a section."""

import re

import pytest

from builder.page.sourced_facts import FACTS_FILE, fact_value, load_facts
from builder.sources import SECTIONS


def test_every_fact_has_a_source_and_the_page_shows_each_where_its_section_names_it(built_site):
    facts = load_facts()
    page = (built_site / "index.html").read_text("utf-8")
    for name, fact in facts.items():
        assert fact.url.startswith("https://"), name
        named_in = [p.name for p in SECTIONS.glob("*.md") if f"fact('{name}')" in p.read_text("utf-8")]
        assert named_in, f"{name} in {FACTS_FILE.name} is named by no section"
        assert fact.value in page, f"{name}: {fact.value} is not on the page"


def test_a_fact_without_its_source_stops_the_build_naming_it(tmp_path):
    path = tmp_path / "facts.yaml"
    path.write_text("cap:\n  value: '1.25'\n  says: a price multiple\n  url: https://example.org\n  as_of: 2026\n", "utf-8")
    with pytest.raises(ValueError, match=r"fact 'cap' has no source"):
        load_facts(path)


def test_an_unknown_fact_names_the_file_to_add_it_to():
    with pytest.raises(KeyError, match="facts.yaml"):
        fact_value(load_facts(), "no_such_fact")


def test_the_two_sourced_figures_are_not_typed_into_their_sections():
    # The sentences that state them name them through fact() instead.
    staff = (SECTIONS / "13-staff.md").read_text("utf-8")
    hybrid = (SECTIONS / "06-hybrid.md").read_text("utf-8")
    assert not re.search(r"\b1\.25 times the input price", staff)
    assert not re.search(r"since version 1\.24\b", hybrid)
