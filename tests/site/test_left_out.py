"""A page built from another corpus (builder/page/left_out.py): the sentence, table row, list
item or claim that names data the corpus lacks is left out, never shown with a broken number,
and each one is a one-line warning naming the section, the line and the sentence. The corpus the
prose was written for stays strict: there the same expression still stops the build."""

from types import SimpleNamespace

import pytest
from markupsafe import Markup

from builder.page.claims import ClaimRegistry
from builder.page.errors import ProseError
from builder.page.glossary import GlossaryLinks
from builder.page.left_out import (LAB_NOTE, WRAP_CLOSE, WRAP_OPEN, LeftOut, drop_failed_labs, fit_state,
                                   lenient_namespace)
from builder.page.prose import prose_environment, render_section

RANKS = {"q1": 2, "q2": 7}


def rank(question):
    return RANKS[question]  # a KeyError for a question this corpus lacks, as builder/page/facts.py raises


NAMESPACE = {"rank": rank, "top": lambda question: None, "n_golden": 2, "n_paraphrases": 1, "data": {"x": 1}}
SECTION = "site_src/sections/05-dense-sparse.md"


def render(tmp_path, body, left_out=None, namespace=NAMESPACE):
    path = tmp_path / "05-dense-sparse.md"
    path.write_text("# Dense and sparse\n" + body)
    names = lenient_namespace(namespace, left_out) if left_out else namespace
    claims = ClaimRegistry(names, left_out.claim_left_out if left_out else None)
    glossary = GlossaryLinks([{"term": "BM25", "slug": "bm25", "definition": "d", "aliases": []}], left_out)
    return render_section(path, prose_environment(claims, left_out), names, glossary, lambda f: {}).html


def test_a_sentence_naming_a_missing_question_goes_and_its_neighbours_stay(tmp_path):
    left = LeftOut("other")
    html = render(tmp_path, "First {{ rank('q1') }}. The gone one ranks {{ rank('gone') }}, so\n"
                            "it wraps. Last.\n", left)
    assert html == "<p>First 2. Last.</p>\n"
    note, = left.notes
    assert str(note) == (f"{SECTION}:2: left out a sentence “The gone one ranks …, so it wraps.” "
                         "(rank() names what this corpus lacks: 'gone')")


def test_tags_the_sentence_opens_or_closes_beyond_its_edges_stay(tmp_path):
    left = LeftOut("other")
    html = render(tmp_path, '<span class="x">One. Two {{ rank(\'gone\') }}.</span> Three <em>{{ rank(\'gone\') }}\n'
                            'here</em>, <b>in</b> a wrap. Four.\n', left)
    assert html == '<p><span class="x">One. </span>Four.</p>\n'  # the em pair went with its sentence
    assert [n.text for n in left.notes] == ["Two ….", "Three … here, in a wrap."]


def test_what_cannot_be_computed_never_shows_as_a_number(tmp_path):
    left = LeftOut("other")
    body = ("A {{ (rank('gone') * 2)|num(1) }}. B {{ rank('gone')|int }}. C {{ top('q1') }}. "
            "D {{ data.missing.deeper }}. F {{ n_golden }}. Kept.\n\n"
            "{% if rank('gone') > 1 %}High.{% else %}Low.{% endif %}\n")
    # |int would read a missing value as 0 and top() finds nothing: neither shows.
    assert render(tmp_path, body, left) == "<p>F 2. Kept.</p>\n<p>Low.</p>\n"
    chosen = LeftOut("other")
    html = render(tmp_path, "| field | value |\n|---|---|\n| a | {{ 'yes' if data.gone.flag else 'no' }} |\n"
                            "| b | {{ data.x }} |\n\nIt {{ rank('gone') or 'never' }} counts.\n", chosen)
    assert "<td>a</td>" not in html and "<td>b</td>" in html, "the row whose value a missing flag chose goes"
    assert "never" not in html and [n.what for n in chosen.notes] == ["a table row", "a sentence"]
    assert [note.text for note in left.notes] == ["A ….", "B ….", "C ….", "D ….", ""]
    assert "top() finds nothing for 'q1'" in left.notes[2].reason
    # The condition took its false branch: its words stay, and the condition is a warning of its own.
    assert str(left.notes[-1]) == (f"{SECTION}:4: took as false a condition (it tests what this corpus lacks: the "
                                   "words of its other branch stay and may not hold)")


def test_rows_items_headings_and_emptied_tables_go_whole(tmp_path):
    left = LeftOut("other")
    body = ("| question | rank |\n|---|--:|\n| q1 | {{ rank('q1') }} |\n| gone | {{ rank('gone') }} |\n\n"
            "| only | row |\n|---|---|\n| x | {{ rank('gone') }} |\n\n"
            "- kept item {{ rank('q2') }}.\n- gone item {{ rank('gone') }}.\n\n### Heading {{ rank('gone') }}\n\nText.\n")
    html = render(tmp_path, body, left)
    assert "<td>q1</td>" in html and "gone" not in html and "only" not in html  # the second table had one row
    assert "<li>kept item 7.</li>" in html and html.count("<li>") == 1
    assert "<h3" not in html and "<p>Text.</p>" in html
    assert [n.what for n in left.notes] == ["a table row", "a table row", "a sentence", "a heading", "a table"]
    assert left.notes[-1].text == "only row" and left.notes[-1].reason == "no row of it is left for this corpus"


def test_a_claim_that_does_not_hold_here_goes_as_whole_sentences(tmp_path):
    left = LeftOut("other")
    body = ('Before. {% claim "rank(\'q1\') == 9" %}The right passage is ninth.\nStill the claim.{% endclaim %} '
            'After.\n\n{% claim "rank(\'gone\') < 3" %}Gone is high.{% endclaim %} Also after.\n\n'
            '{% claim "rank(\'q1\') == 2" %}Q1 is second.{% endclaim %}\n')
    html = render(tmp_path, body, left)
    assert "<p>Before. After.</p>" in html and "<p>Also after.</p>" in html
    assert 'data-claim="claim-05-3"' in html and "Q1 is second." in html  # a claim that holds stays, checked
    assert [str(n) for n in left.notes] == [
        f"{SECTION}:2: left out a claim “The right passage is ninth. Still the claim.” (its check does not hold "
        "for this corpus)",
        f"{SECTION}:5: left out a claim “Gone is high.” (it names what this corpus lacks)"]


def test_a_formula_or_a_loop_over_what_is_missing_goes_with_its_sentence(tmp_path):
    left = LeftOut("other")
    body = ("Kept. Its rank is {{ math('r = %s' % rank('gone')) }} here. Kept too.\n\n"
            "{{ math('x = %s' % rank('gone'), display=True) }}\n\n"
            "| i |\n|---|\n{% for i in range(rank('gone')) %}| {{ i }} |\n{% endfor %}\n")
    html = render(tmp_path, body, left)
    assert html == "<p>Kept. Kept too.</p>\n" and [n.what for n in left.notes] == ["a sentence", "a sentence", "a table"]


def test_the_corpus_the_prose_was_written_for_still_stops_on_a_missing_id(tmp_path):
    with pytest.raises(ProseError, match=r"05-dense-sparse\.md:3: KeyError: 'gone'"):
        render(tmp_path, "Fine.\n{{ rank('gone') }}\n")


def test_a_glossary_term_this_corpus_lacks_is_plain_text_and_noted(tmp_path):
    left = LeftOut("other")
    assert render(tmp_path, "Scored by [[BM25]] and [[IDF|inverse document frequency]].\n", left) == (
        '<p>Scored by <a class="term" href="#term-bm25">BM25</a> and inverse document frequency.</p>\n')
    assert left.notes[0].what == "a glossary link" and left.notes[0].where == f"{SECTION}:~2"


def test_a_labs_state_is_fitted_to_the_corpus_and_a_lab_that_cannot_draw_becomes_a_note():
    data = {"questions": [{"id": "g01"}, {"id": "g02"}], "page": {"showcase": "g02"}}
    assert fit_state({"q": "gone", "k": 3}, data, {}) == {"q": "g02", "k": 3}
    assert fit_state({"q": "q1"}, data, {"questions": [{"id": "q1"}]}) == {"q": "q1"}  # the lab's own question
    assert fit_state({"reader": "customer"}, data, {"readers": {"reader": {}}}) == {"reader": "reader"}
    left = LeftOut("other")
    body = (f"<p>a</p>{WRAP_OPEN}<section><!--lab-view:bm25:1--></section>{WRAP_CLOSE}"
            f"{WRAP_OPEN}<section>drawn hybrid</section>{WRAP_CLOSE}")
    placed = [{"lab": "bm25", "state": {}}, {"lab": "hybrid", "state": {}}]
    drawings = [SimpleNamespace(error="accept() refused the state\nstack"), SimpleNamespace(error="")]
    assert drop_failed_labs(body, placed, drawings, left) == \
        "<p>a</p>" + str(LAB_NOTE.format("bm25")) + "<section>drawn hybrid</section>"
    assert str(left.notes[0]) == ("site_src/labs/bm25/lab.js: left out a lab “bm25” (its view cannot draw this "
                                  "corpus's data: accept() refused the state)")


def test_the_banner_counts_what_was_left_out_by_kind():
    left = LeftOut("plantry")
    for what in ("a sentence", "a claim", "a table row", "a lab", "a figure", "a glossary link", "a condition"):
        left.note("x", what, "", "why")
    assert left.counts() == {"sentences": 3, "labs": 1, "figures": 1, "other": 1, "corpus": "plantry"}
    assert isinstance(LAB_NOTE, Markup)
