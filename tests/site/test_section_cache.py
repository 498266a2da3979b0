"""Rendered sections are kept between builds (builder/page/section_cache.py): a rebuild with
nothing new renders no section and writes the same page, claims report and labs; an edited
section, or changed data, is rendered again, and so is a section after an edit of a template, a
lab's frame or a code sample it includes (built from a copy of site_src/). (The pages are
rendered from data/rag.json, whose keys are sorted; a claim that reads a dict's order may not
hold there, so claims only warn.)"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.page import prose, render, section_cache
from support.caches import copy_warm_cache
from support.paths import ROOT


def fresh_cache(folder: Path) -> Path:
    """A cache with the project's sample outputs and lab drawings (so no program runs), no sections."""
    cache = folder / "cache"
    for name in ("samples", "lab-views"):
        if (ROOT / ".cache" / name).is_dir():
            shutil.copytree(ROOT / ".cache" / name, cache / name)
    return cache


@pytest.fixture
def cache_dir(tmp_path):
    return fresh_cache(tmp_path)


def counting(monkeypatch):
    """Count the sections render_page renders itself."""
    rendered = []
    real = prose.render_section

    def spy(path, *args, **kwargs):
        rendered.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(render, "render_section", spy)
    return rendered


@pytest.fixture(scope="module")
def two_renders(data, tmp_path_factory):
    """A fresh cache, the page rendered into it twice: (cache, [sections rendered, page] of each)."""
    cache = fresh_cache(tmp_path_factory.mktemp("two-renders"))
    renders = []
    with pytest.MonkeyPatch.context() as monkeypatch:
        rendered = counting(monkeypatch)
        for _ in range(2):
            page = render.render_page(data, cache, strict_claims=False)
            renders.append((list(rendered), page))
            rendered.clear()
    return cache, renders


@pytest.fixture
def warm_cache(two_renders, tmp_path):
    """A copy of a cache that holds every section (the second of two_renders read them all)."""
    cache, renders = two_renders
    assert renders[1][0] == [], "the cache the tests start from renders nothing again"
    return shutil.copytree(cache, tmp_path / "warm-cache")


def test_a_second_render_with_nothing_new_renders_no_section_and_the_same_page(two_renders):
    _, [(rendered, first), (again, second)] = two_renders
    assert len(rendered) == len(list((ROOT / "site_src" / "sections").glob("*.md")))
    assert again == []
    assert second.html == first.html
    assert [(c.id, c.held, c.sentence) for c in second.claims] == [(c.id, c.held, c.sentence) for c in first.claims]
    assert sorted(run.name for run in second.samples) == sorted(run.name for run in first.samples)


def test_changed_data_renders_every_section_again(data, warm_cache, monkeypatch):
    rendered = counting(monkeypatch)
    changed = json.loads(json.dumps(data))
    changed["tokens"]["help_center"]["o200k"] += 1
    render.render_page(changed, warm_cache, strict_claims=False)
    assert len(rendered) == len(list((ROOT / "site_src" / "sections").glob("*.md")))


def test_an_edited_section_is_rendered_again_and_only_it(data, warm_cache, monkeypatch, tmp_path):
    sections = tmp_path / "sections"  # a copy: the same names and bytes, so the same keys (section_cache.section_key)
    shutil.copytree(ROOT / "site_src" / "sections", sections)
    monkeypatch.setattr(render, "section_files", lambda: sorted(sections.glob("*.md")))
    rendered = counting(monkeypatch)
    edited = sections / "02-why-not-paste.md"
    edited.write_text(edited.read_text("utf-8") + "\nOne sentence more.\n", "utf-8")
    page = render.render_page(data, warm_cache, strict_claims=False)
    assert rendered == ["02-why-not-paste.md"]
    assert "One sentence more." in page.html


def test_a_claims_id_does_not_depend_on_the_sections_before_it(data, cache_dir):
    """claim-NN-k: the k-th claim of section NN, counted from 1 again in every section, so a
    section kept in the cache keeps its ids whatever the sections before it hold; each sentence's
    span on the page carries its claim's id (data-claim)."""
    page = render.render_page(data, cache_dir, strict_claims=False)
    ids = [claim.id for claim in page.claims]
    assert len(ids) == len(set(ids))
    by_section = {}
    for claim in page.claims:
        by_section.setdefault(Path(claim.section).name[:2], []).append(claim.id)
    assert len([n for n, found in by_section.items() if len(found) >= 2]) >= 2, "two sections with claims, at least"
    for number, found in by_section.items():
        assert found == [f"claim-{number}-{k}" for k in range(1, len(found) + 1)], f"section {number}"
    assert re.findall(r'<span class="claim" data-claim="([^"]+)"', page.html) == ids


def test_a_cache_file_written_by_other_code_is_rendered_again(data, warm_cache, monkeypatch):
    for path in (warm_cache / "sections").glob("*.json"):
        path.write_text('{"section": {"slug": 1}}', "utf-8")
    rendered = counting(monkeypatch)
    render.render_page(data, warm_cache, strict_claims=False)
    assert rendered, "a cache entry that does not read as a section is ignored"
    assert section_cache.KEEP >= len(rendered)


# An author's edit of each kind of file a section includes but is not: (file in site_src/, the
# text there, what it becomes, what the rebuilt page must then show).
INCLUDED_EDITS = {
    "template": ("templates/_lab.html", "{% block kicker %}Lab{% endblock %}", "{% block kicker %}Lab to try{% endblock %}",
                 '<p class="lab-kicker">Lab to try</p>'),
    "lab frame": ("labs/bm25/lab.html", '<p class="lab-intro">BM25 over all',
                  '<p class="lab-intro">Newly written words. BM25 over all', "Newly written words. BM25 over all"),
    "lab data step": ("labs/hybrid/data.py", 'SCRIPTS = ("engine",)', 'SCRIPTS = ("engine", "live-search")',
                      'data-scripts="engine live-search"'),
    "sample": ("samples/rrf_fuse.py", '"""Reciprocal rank fusion of the real result lists',
               '"""Reciprocal rank fusion, newly commented, of the real result lists', "newly commented"),
}


class SiteCopy:
    """site_src/ copied, built by build.py in a new process with a copy of the warm caches."""

    def __init__(self, root: Path):
        self.root, self.source, self.cache = root, root / "site_src", root / "cache"
        shutil.copytree(ROOT / "site_src", self.source, ignore=shutil.ignore_patterns("__pycache__"))
        copy_warm_cache(self.cache, leave_out=("live-model", "int8", "sections"))

    def build(self) -> str:
        out = self.root / "dist"
        env = {**os.environ, "RAG_EXPLAINER_SITE_SRC": str(self.source), "HF_HUB_OFFLINE": "1"}
        result = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out), "--cache", str(self.cache),
                                 "--live-model", "off", "--claims", "warn"],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr[-3000:]
        return (out / "index.html").read_text("utf-8")


@pytest.fixture(scope="module")
def site_copy(tmp_path_factory, built_site):
    """A copy built once (with a copy of the project's caches, which the session's build left warm),
    so its sections are in its cache."""
    copy = SiteCopy(tmp_path_factory.mktemp("section-cache"))
    copy.first = copy.build()
    return copy


@pytest.mark.slow
@pytest.mark.parametrize("kind", INCLUDED_EDITS)
def test_an_edit_of_an_included_file_renders_the_sections_that_include_it_again(site_copy, kind):
    """The author edits one file a section includes (its own Markdown, the data and the code
    unchanged) and rebuilds: the page shows the edit, not the section the cache kept."""
    name, before, after, shown = INCLUDED_EDITS[kind]
    path = site_copy.source / name
    text = path.read_text("utf-8")
    assert text.count(before) == 1 and shown not in site_copy.first, f"site_src/{name} no longer reads as this test expects"
    path.write_text(text.replace(before, after), "utf-8")
    page = site_copy.build()
    assert shown in page, f"after an edit of site_src/{name} ({kind}), the rebuilt page still shows the section as it was"
