"""The reading path's build side: deep dives written by {% aside %} (builder/page/asides.py),
and reading times counted from the page's words (builder/page/reading_time.py)."""

import pytest

from builder.page import practice, reading_time
from builder.page.claims import ClaimRegistry
from builder.page.errors import ProseError
from builder.page.glossary import GlossaryLinks
from builder.page.prose import prose_environment, render_section
from builder.page.reading_time import CODE_WPM, LAB_MINUTES, PROSE_WPM, Words, minutes, section_time, spoken


def render(tmp_path, body):
    path = tmp_path / "05-dense-sparse.md"
    path.write_text("# Dense and sparse\n" + body)
    return render_section(path, prose_environment(ClaimRegistry({})), {}, GlossaryLinks([]), lambda f: {})


def test_an_aside_is_an_open_deep_dive_whose_body_is_markdown(tmp_path):
    section = render(tmp_path, 'Before.\n\n{% aside "How FTS5 ranks" %}\nInside, with *emphasis*.\n\n### A heading\n{% endaside %}\n\nAfter.\n')
    html = section.html
    assert '<details class="deep-dive" id="deep-dive-how-fts5-ranks" open>' in html
    assert '<span class="deep-dive-title">How FTS5 ranks</span>' in html
    assert "<em>emphasis</em>" in html and '<h3 id="a-heading">A heading</h3>' in html
    assert html.index("Before.") < html.index("<details") < html.index("</details>") < html.index("After.")


def test_asides_do_not_nest(tmp_path):
    with pytest.raises(ProseError, match="an aside inside an aside"):
        render(tmp_path, '{% aside "Outer" %}\n{% aside "Inner" %}x{% endaside %}\n{% endaside %}\n')


def test_two_asides_of_one_title_in_a_section_are_refused(tmp_path):
    with pytest.raises(ProseError, match="two asides titled 'Same'"):
        render(tmp_path, '{% aside "Same" %}a{% endaside %}\n\n{% aside "Same" %}b{% endaside %}\n')


def test_minutes_count_prose_code_and_labs_at_their_rates():
    assert minutes(Words(prose=PROSE_WPM)) == 1
    assert minutes(Words(code=CODE_WPM)) == 1
    assert minutes(Words(prose=PROSE_WPM * 2, code=CODE_WPM, labs=2)) == 2 + 1 + 2 * LAB_MINUTES


def test_spoken_rounds_to_whole_minutes_and_hours():
    assert [spoken(x) for x in (0.2, 1.49, 1.5, 59.4, 64.4, 125)] == ["1 min", "1 min", "2 min", "59 min", "1 h 04 min",
                                                                     "2 h 05 min"]


def test_a_sections_time_leaves_out_its_deep_dives_on_the_essential_path():
    words = lambda n: " ".join(["word"] * n)  # noqa: E731
    html = (f"<p>{words(460)}</p>"
            f'<details class="deep-dive" id="deep-dive-x" open><summary>Deep dive</summary><p>{words(230)}</p>'
            f"<pre>{words(120)}</pre></details>"
            f'<section class="lab" data-lab="y"><p class="lab-intro">{words(230)}</p><ol><li>{words(999)}</li></ol>'
            f'<svg><text>{words(999)}</text></svg></section>'
            f'<p><span class="visually-hidden">{words(999)}</span><math>{words(999)}</math></p>')
    time = section_time(html)
    summary_words = 2  # "Deep dive"
    assert time.dives == {"deep-dive-x": pytest.approx((230 + summary_words) / PROSE_WPM + 1)}
    assert time.everything == pytest.approx((460 + 230 + summary_words + 230) / PROSE_WPM + 1 + LAB_MINUTES)
    assert time.essentials == pytest.approx(460 / PROSE_WPM + 230 / PROSE_WPM + LAB_MINUTES)


def test_a_practice_question_counts_its_question_and_choices_and_not_its_answer():
    """A reader reads the question and its choices; the answer and the reasons are read only
    once they have answered (and they are most of the block's words)."""
    q = {"id": "trash", "section": "chunking", "question": "How long do deleted notes stay in the Trash?",  # 9 words
         "choices": ["30 days", "60 more days", "until you empty it"],                                 # 2 + 3 + 4 words
         "answer": 0, "why": ["reason " * 150, "reason " * 150, "reason " * 150]}
    prose = "<p>" + "word " * 460 + "</p>"
    time = section_time(prose + str(practice.practice_block("chunking", [q])))
    heading = 1  # "Practice"
    read = 460 + heading + 9 + (2 + 3 + 4)
    assert time.everything == pytest.approx(read / PROSE_WPM), f"{time.everything * PROSE_WPM:.0f} words counted, not {read}"
    assert time.essentials == time.everything and spoken(time.everything) == "2 min"


def test_each_deep_dive_says_its_time_in_its_summary(tmp_path):
    section = render(tmp_path, '{% aside "Long" %}\n' + "word " * 460 + "\n{% endaside %}\n")
    time = section_time(section.html)
    assert "2 min</span></summary>" in reading_time.fill_dives(section.html, time)
