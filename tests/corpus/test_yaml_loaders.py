"""engine/corpus_files.py reads YAML with libyaml's parser and falls back to PyYAML's own for a
file it refuses (whose words the corpus's errors quote): the two give the same values and lines."""

import yaml

from engine import corpus_files
from support.paths import ROOT


def test_both_loaders_read_every_corpus_file_alike():
    files = sorted((ROOT / "corpus").rglob("*.yaml")) + sorted((ROOT / "tests" / "corpus" / "fixtures").rglob("*.yaml"))
    assert len(files) > 15
    for path in files:
        text = path.read_text("utf-8")
        try:
            fast = yaml.load(text, Loader=corpus_files._FastLineLoader)
        except yaml.YAMLError:
            continue  # a fixture meant to be invalid: read by the fallback, test_validation.py
        assert fast == yaml.load(text, Loader=corpus_files._LineLoader), path


def test_dates_stay_strings_and_lines_are_counted_from_the_file_start():
    text = "\n- id: g1\n  updated: 2026-06-15\n- id: g2\n  updated: 2024-02-01\n"
    for loader in (corpus_files._FastLineLoader, corpus_files._LineLoader):
        assert yaml.load(text, Loader=loader) == [{"id": "g1", "updated": "2026-06-15", "__line__": 2},
                                                  {"id": "g2", "updated": "2024-02-01", "__line__": 4}]
