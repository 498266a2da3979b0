"""Claims: a sentence about the numbers is checked when the page is built; a false one
fails the build and names the sentence, its section and the numbers now seen."""

import pytest
from markupsafe import Markup

from builder.claims import ClaimFailed, ClaimRegistry, parts_of
from builder.prose import Fragments, GlossaryLinks, ProseError, prose_environment, render_section

NAMESPACE = {"rank": lambda question, retriever: {"dense": 3, "bm25": 1}[retriever], "n": 30}


def render(tmp_path, body, namespace=NAMESPACE):
    path = tmp_path / "05-dense-sparse.md"
    path.write_text("# Dense and sparse\n" + body)
    claims = ClaimRegistry(namespace)
    glossary = GlossaryLinks([{"term": "BM25", "slug": "bm25", "definition": "d", "aliases": []}])
    section = render_section(path, prose_environment(claims), namespace, glossary, lambda f: {})
    return section, claims


def test_a_true_claim_is_marked_and_held(tmp_path):
    section, claims = render(tmp_path, '{% claim "rank(\'q\', \'bm25\') < rank(\'q\', \'dense\')" %}BM25 wins.{% endclaim %}\n')
    assert [r.held for r in claims.results] == [True]
    assert '<span class="claim" data-claim="claim-1"' in section.html and "BM25 wins." in section.html


def test_a_false_claim_names_section_line_sentence_and_numbers(tmp_path):
    _, claims = render(tmp_path, "Intro.\n\n"
                       '{% claim "rank(\'q\', \'dense\') == 1" %}Dense puts the *right* passage first.{% endclaim %}\n')
    failure, = claims.failures()
    assert failure.section.endswith("05-dense-sparse.md") and failure.line == 4
    assert failure.sentence == "Dense puts the *right* passage first."
    assert ("rank('q', 'dense')", "3") in failure.seen
    message = str(ClaimFailed(claims.failures()))
    assert "05-dense-sparse.md:4" in message and "Dense puts" in message and "rank('q', 'dense') = 3" in message


def test_a_check_that_raises_is_reported_not_crashed(tmp_path):
    _, claims = render(tmp_path, '{% claim "rank(\'q\', \'hybrid\') == 1" %}Hybrid wins.{% endclaim %}\n')
    failure, = claims.failures()
    assert "KeyError" in failure.error


def test_parts_of_lists_both_sides_of_each_comparison():
    assert parts_of("rank('q', 'dense') > rank('q', 'bm25') and n >= 12") == [
        "rank('q', 'dense')", "rank('q', 'bm25')", "n"]


def test_glossary_terms_become_links_and_unknown_terms_fail(tmp_path):
    section, _ = render(tmp_path, "Scored by [[BM25]] and [[bm25|the formula]].\n")
    assert section.html.count('class="term" href="#term-bm25"') == 2
    with pytest.raises(ProseError, match="glossary term 'BM99'"):
        render(tmp_path, "Scored by [[BM99]].\n")


def test_numbers_are_escaped_and_blocks_survive_markdown(tmp_path):
    fragments = Fragments()
    marker = fragments.block(Markup("<figure>\n\n<pre>a\n\nb</pre></figure>"))
    assert fragments.restore(f"<p>x</p>{marker}") == "<p>x</p>\n\n<figure>\n\n<pre>a\n\nb</pre></figure>\n\n"
    section, _ = render(tmp_path, "{{ '<b>' }} and a table:\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n")
    assert "&lt;b&gt;" in section.html and '<div class="table-scroll"><table>' in section.html
    assert 'class="num"' in section.html and "style=" not in section.html


def test_an_expression_naming_missing_data_fails_with_section_and_line(tmp_path):
    with pytest.raises(ProseError, match=r"05-dense-sparse\.md:3: KeyError: 'hybrid'"):
        render(tmp_path, "Fine line.\n{{ rank('q', 'hybrid') }}\n")


def test_a_template_syntax_error_names_section_and_line(tmp_path):
    with pytest.raises(ProseError, match=r"05-dense-sparse\.md:4: .*\(fix: check the"):
        render(tmp_path, "One.\n\n{{ rank('q', }}\n")
