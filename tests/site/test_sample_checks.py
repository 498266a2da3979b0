"""The two code samples that carry copies of the help center and of the engine's rules
(prompt_builder.py, citations_check.py) cannot drift from them: the build checks each copy
(builder/page/sample_checks.py) and stops, naming both files, when one differs."""

import shutil
from pathlib import Path

import pytest

from builder.page import sample_checks
from builder.page.errors import SampleError
from builder.page.samples import SAMPLES
from builder.site import load_site
from support.paths import ROOT


@pytest.fixture(scope="module")
def corpus():
    """The real corpus (this module's, not the small fixture corpus)."""
    return load_site(ROOT / "corpus").corpus


@pytest.fixture
def samples(tmp_path, monkeypatch):
    """A copy of the two samples the build checks, which a test may then edit."""
    folder = tmp_path / "site_src" / "samples"
    folder.mkdir(parents=True)
    for name in ("prompt_builder.py", "citations_check.py"):
        shutil.copy(SAMPLES / name, folder / name)
    monkeypatch.setattr(sample_checks, "SAMPLES", folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1), "utf-8")


# ---------------------------------------------------------------- samples vs corpus


def test_the_samples_as_they_are_agree_with_corpus_and_engine(samples, corpus):
    assert sample_checks.prompt_sample(corpus)["sources"] == ["refund-old", "refund-new"]
    checked = sample_checks.checker_sample(corpus)
    assert [c["ok"] for c in checked["claims"]] == [True, False, False, False, True]


def test_a_passage_copied_wrong_stops_the_build_and_names_both_files(samples, corpus):
    edit(samples / "prompt_builder.py", "within 14 days of the payment", "within 15 days of the payment")
    with pytest.raises(SampleError, match=r"prompt_builder\.py: its copy of the text of 'refund-new' differs "
                                          r"from .*billing\.md:\d+"):
        sample_checks.prompt_sample(corpus)


def test_a_copied_date_or_title_is_checked_too(samples, corpus):
    edit(samples / "prompt_builder.py", '"date": "2024-02-01"', '"date": "2024-02-02"')
    with pytest.raises(SampleError, match="date of 'refund-old'"):
        sample_checks.prompt_sample(corpus)


def test_the_checker_samples_copy_is_checked(samples, corpus):
    edit(samples / "citations_check.py", "no questions asked", "no question asked")
    with pytest.raises(SampleError, match=r"citations_check\.py: its copy of the text of 'refund-old'"):
        sample_checks.checker_sample(corpus)


def test_rules_that_drift_from_the_engine_stop_the_build(samples, corpus):
    edit(samples / "prompt_builder.py", "say you don't know", "say so")
    with pytest.raises(SampleError, match="RULES differ"):
        sample_checks.prompt_sample(corpus)


def test_a_checker_that_drifts_from_the_engine_stops_the_build(samples, corpus):
    edit(samples / "citations_check.py", 'problems.append(f"number {number} in the claim is not in the quote")',
         'problems.append(f"number {number} in the claim is missing from the quote")')
    with pytest.raises(SampleError, match="claim 4: check"):
        sample_checks.checker_sample(corpus)


def test_the_hostile_demo_source_is_the_samples(samples, corpus):
    edit(samples / "prompt_builder.py", "Great news!", "Good news!")
    with pytest.raises(SampleError, match="HOSTILE differs"):
        sample_checks.prompt_sample(corpus)
