"""The two code samples that carry copies of the help center and of the engine's rules
(prompt_builder.py, citations_check.py) cannot drift from them: the build checks each copy
(builder/page/sample_checks.py) and stops, naming both files, when one differs."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from builder.page import sample_checks
from builder.page.errors import SampleError
from builder.page.samples import SAMPLES
from builder.site import load_site
from engine.citations import Claim, check_claim
from support.citation_cases import CLAIM_CASES, EXTRA_SOURCES
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
    # The five classic cases, then five of real model output, then a quote cut inside a number
    # (site_src/samples/citations_check.py).
    assert [c["ok"] for c in checked["claims"]] == [True, False, False, False, True, True, False, False, True, True, False]


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
    edit(samples / "citations_check.py", 'problems.append(f"number {shown} in the claim is not in the quote")',
         'problems.append(f"number {shown} in the claim is missing from the quote")')
    with pytest.raises(SampleError, match="claim 4: check"):
        sample_checks.checker_sample(corpus)


def test_the_hostile_demo_source_is_the_samples(samples, corpus):
    edit(samples / "prompt_builder.py", "Great news!", "Good news!")
    with pytest.raises(SampleError, match="HOSTILE differs"):
        sample_checks.prompt_sample(corpus)


# ---------------------------------------------------------------- the checker sample vs the engine


def test_the_checker_sample_in_python_checks_every_case_as_the_engine_does(corpus):
    """Beyond its own ten claims (which the build compares), the sample's check() on the whole
    table of tricky cases the engine's JavaScript twin is held to."""
    sample = sample_checks._load_sample("citations_check")
    sources = {p.id: p.text for p in corpus.passages} | EXTRA_SOURCES
    for text, source, quote in CLAIM_CASES:
        claim = {"text": text, "source_id": source, "quote": quote}
        assert sample.check(claim, sources) == check_claim(Claim(text, source, quote), sources).problems, claim


def test_the_checker_sample_in_javascript_checks_every_case_as_the_engine_does(corpus):
    """The JavaScript twin, run as written in a Node sandbox (its printing silenced), then its
    check() on the same table."""
    node = shutil.which("node")
    assert node, "node is needed (make test installs it)"
    program = ("const vm = require('vm'); const fs = require('fs');"
               "const input = JSON.parse(fs.readFileSync(0, 'utf8'));"
               "const box = {console: {log() {}}}; vm.createContext(box);"
               "vm.runInContext(fs.readFileSync(input.path, 'utf8'), box);"
               "console.log(JSON.stringify(input.claims.map((c) => box.check(c, input.sources))));")
    sources = {p.id: p.text for p in corpus.passages} | EXTRA_SOURCES
    claims = [{"text": t, "source_id": s, "quote": q} for t, s, q in CLAIM_CASES]
    out = subprocess.run([node, "-e", program], capture_output=True, text=True, check=True,
                         input=json.dumps({"path": str(SAMPLES / "citations_check.js"), "claims": claims, "sources": sources}))
    assert json.loads(out.stdout) == [check_claim(Claim(*case), sources).problems for case in CLAIM_CASES]
