"""Try it on your documents (site_src/labs/docs-try/): the data step reads the limits the browser
applies (site_src/docs/limits.js, run in Node) and names each chunker setting as the page's
chunk-documents.js does; the build draws the empty lab (what a reader without JavaScript sees) and
the section states the same limits. The lab in Chromium: tests/docs/test_docs_lab.py."""

import pytest

from builder.labs import BY_NAME
from docs.node import DocsNode

LAB = BY_NAME["docs-try"].module


@pytest.fixture(scope="module")
def node():
    process = DocsNode()
    yield process
    process.close()


def test_the_limits_are_the_ones_the_browser_applies(node):
    assert LAB.limits_of(LAB.LIMITS_JS.read_text("utf-8")) == node.run("async (RAG) => ({ ...RAG.docs.LIMITS })", None)


def test_a_limit_written_another_way_stops_the_build_with_the_file_named():
    with pytest.raises(ValueError, match=r"limits\.js: the limit 'chunks: 2e3'"):
        LAB.limits_of("docs.LIMITS = Object.freeze({ files: 200, chunks: 2e3 });")


def test_each_chunker_is_named_as_chunk_documents_js_names_it(node):
    names = node.run("async (RAG, settings) => settings.map((s) => RAG.docs.settingLabel(s))", list(LAB.CHUNKERS))
    assert [LAB.setting_label(s) for s in LAB.CHUNKERS] == names
    assert len(set(names)) == len(names)


def test_the_build_draws_the_empty_lab_and_the_section_states_the_limits(built_site):
    html = (built_site / "index.html").read_text("utf-8")
    lab = html.split('id="lab-docs-try"', 1)[1].split("</section>", 1)[0]
    assert "No documents yet: load the sample set, or bring your own." in lab
    assert 'data-act="sample"' in lab and 'name="docs-files"' in lab
    limits = LAB.limits_of(LAB.LIMITS_JS.read_text("utf-8"))
    section = html.split('id="your-documents"', 1)[1].split('id="failures"', 1)[0]
    for figure in (f"{limits['files']:,} files", f"{limits['fileBytes'] // 1048576} MB", f"{limits['textChars']:,} characters",
                   f"{limits['chunks']:,} chunks"):
        assert figure in section, figure
