"""Claims: a sentence about the numbers is checked when the page is built; a false one
fails the build and names the sentence, its section and the numbers now seen."""

import shutil

import pytest
from markupsafe import Markup

import build as build_cli
from builder.page.claims import ClaimFailed, ClaimRegistry, parts_of
from builder.page.errors import ProseError
from builder.page.glossary import GlossaryLinks
from builder.page.prose import Fragments, prose_environment, render_section
from support.caches import copy_warm_cache
from support.paths import ROOT

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
    assert '<span class="claim" data-claim="claim-05-1"' in section.html and "BM25 wins." in section.html


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


def test_parts_of_leaves_out_what_only_a_comprehension_or_a_lambda_can_read():
    """Their names have no value outside them: an author once read `now: pid.startswith('err-') =
    <NameError ...>` under a failed claim. A comprehension's first iterable is read outside it, so
    it is shown."""
    check = "sum(1 for pid in ids('g01', 'dense', 4) if pid.startswith('err-')) > 2 and max(map(lambda t: t.n, rows)) < 3"
    assert parts_of(check) == ["sum(1 for pid in ids('g01', 'dense', 4) if pid.startswith('err-'))",
                               "max(map(lambda t: t.n, rows))", "map(lambda t: t.n, rows)", "ids('g01', 'dense', 4)"]


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


@pytest.fixture
def corpus_copy(tmp_path, built_site):
    """The real corpus and the project's warm caches (the session built the site with them),
    copied, so an edit costs a build without loading the model."""
    shutil.copytree(ROOT / "corpus", tmp_path / "corpus")
    copy_warm_cache(tmp_path / "cache", leave_out=("jinja",))
    return tmp_path


def swap_refund_scores(root):
    """Give the outdated refund page the higher illustrative rerank score: section 6 says the
    rerank puts the current page first."""
    path = root / "corpus" / "tracers.yaml"
    text = path.read_text("utf-8")
    assert text.count("    refund-new: 0.86\n    refund-old: 0.81\n") == 1
    path.write_text(text.replace("    refund-new: 0.86\n    refund-old: 0.81\n",
                                 "    refund-new: 0.81\n    refund-old: 0.86\n"), "utf-8")


def test_a_corpus_edit_that_makes_a_sentence_false_stops_the_build_and_names_it(corpus_copy, capsys):
    swap_refund_scores(corpus_copy)
    out = corpus_copy / "dist"
    code = build_cli.main(["--corpus", str(corpus_copy / "corpus"), "--out", str(out), "--cache", str(corpus_copy / "cache")])
    printed = capsys.readouterr().err
    assert code == 1
    assert "claim(s) on the page no longer hold" in printed
    assert "06-hybrid.md:" in printed and "[FAILED]" in printed
    assert "now: data.rerank.by_question['refund-three-weeks'][0][0] = 'refund-old'" in printed
    assert not out.exists(), "a build whose prose is false writes nothing"


def test_with_claims_as_warnings_the_same_edit_builds_and_says_what_is_false(corpus_copy, capsys):
    swap_refund_scores(corpus_copy)
    out = corpus_copy / "dist"
    code = build_cli.main(["--corpus", str(corpus_copy / "corpus"), "--out", str(out),
                           "--cache", str(corpus_copy / "cache"), "--claims", "warn"])
    printed = capsys.readouterr().err
    assert code == 0 and (out / "index.html").is_file()
    assert "claim(s) do not hold" in printed and "06-hybrid.md:" in printed


def test_a_claim_check_can_use_helpers_inside_a_comprehension():
    registry = ClaimRegistry({"rank": lambda q: {"a": 1, "b": 3}[q], "qs": ["a", "b"]})
    held = registry.evaluate("all(rank(q) <= 3 for q in qs) and sorted(qs, key=lambda q: -rank(q)) == ['b', 'a']",
                             "test", 1, "body")
    assert held.held, held.error


def tied_facts(on_tie=None):
    from builder.page.facts import Facts

    data = {"questions": [{"id": "g1", "text": "Where is my refund?", "answers": ["refund-new"]}],
            "passages": [{"id": "refund-old"}, {"id": "refund-new"}],
            "runs": {"g1": {"dense": [["refund-old", 0.5], ["refund-new", 0.5]], "bm25": [], "hybrid": []}}}
    return Facts(data, on_tie=on_tie)


def test_a_tied_rank_stops_a_strict_build_naming_its_line(tmp_path):
    with pytest.raises(ProseError, match=r"05-dense-sparse.md:4: rank\('g1', 'dense'\): refund-new shares its score"):
        render(tmp_path, "Intro.\n\nDense puts it at {{ rank('g1', 'dense') }}.\n", {"rank": tied_facts().rank})


def test_with_claims_as_warnings_a_tied_rank_is_a_statement_that_does_not_hold(tmp_path):
    """The build goes on, writing the first rank of the place; the tie is reported like a false
    claim, in its section and line, and kept with the section's claims (so a strict build that
    reuses the cached section still stops on it)."""
    registry = []
    facts = tied_facts(on_tie=lambda statement: registry[0].untrue_elsewhere(statement))
    path = tmp_path / "05-dense-sparse.md"
    path.write_text("# Dense and sparse\nIntro.\n\nDense puts it at {{ rank('g1', 'dense') }}.\n")
    claims = ClaimRegistry({"rank": facts.rank})
    registry.append(claims)
    glossary = GlossaryLinks([{"term": "BM25", "slug": "bm25", "definition": "d", "aliases": []}])
    section = render_section(path, prose_environment(claims), {"rank": facts.rank}, glossary, lambda f: {})
    assert "Dense puts it at 1." in section.html
    [failed] = claims.failures()
    assert (failed.section, failed.line, failed.id) == ("site_src/sections/05-dense-sparse.md", 4, "claim-05-1")
    assert "refund-new shares its score with 1 other passage(s), places 1 to 2" in failed.sentence
    assert "[FAILED]" in failed.describe() and "TiedRank" in failed.describe()
