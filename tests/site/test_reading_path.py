"""The reading path's build side: deep dives written by {% aside %} (builder/page/asides.py),
and reading times counted from the page's words (builder/page/reading_time.py)."""

import pytest

from builder.page import practice, reading_time
from builder.page.claims import ClaimRegistry
from builder.page.errors import ProseError
from builder.page.glossary import GlossaryLinks
from builder.page.prose import prose_environment, render_section
from builder.page.reading_time import CODE_WPM, PROSE_WPM, Words, lab_minutes, minutes, section_time, spoken


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


def test_the_rates_are_the_ones_the_readme_states():
    # README, "Reading times": 180 words a minute of prose, 120 of code, a lab 3 minutes and one
    # more for each control past the third (at most 5), a practice question 1 minute.
    assert (PROSE_WPM, CODE_WPM) == (180, 120)
    assert [lab_minutes(n) for n in (0, 1, 2, 3, 4, 5, 6, 12)] == [0, 3, 3, 3, 4, 5, 5, 5]
    assert minutes(Words(prose=360, code=240, labs=4, practice=3)) == 2 + 2 + 4 + 3


def test_a_labs_minutes_follow_its_controls_wherever_its_script_keeps_them():
    """A slider and a menu in the lab's template, a group of three radio buttons (one control), a
    text box: 4 controls, 4 minutes; the lab's list is looked at, not read."""
    lab = ('<section class="lab" data-lab="x"><p class="lab-intro">' + "word " * 18 + "</p>"
           '<template data-lab-controls><input type="range" name="k"><select name="q"></select></template>'
           + "".join(f'<input type="radio" name="mode" value="{v}">' for v in "abc")
           + '<input type="text" name="ask"><button>Reset</button><ol><li>' + "id " * 500 + "</li></ol></section>")
    time = section_time(lab)
    assert time.everything == pytest.approx(18 / 180 + 4)
    assert time.essential_words == 0  # a lab's own sentences are not the essential path's prose


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
    assert time.dives == {"deep-dive-x": pytest.approx((230 + summary_words) / 180 + 1)}
    # the lab has no control: its own sentences only
    assert time.everything == pytest.approx((460 + 230 + summary_words + 230) / 180 + 1)
    assert time.essentials == pytest.approx(460 / 180 + 230 / 180)
    assert time.essential_words == 460


def test_a_practice_question_is_a_minute_once_on_the_page():
    """A question takes a minute, whatever its words (its answer and reasons are read once
    answered); the quiz asks it again and adds nothing."""
    q = {"id": "trash", "section": "chunking", "question": "How long do deleted notes stay in the Trash?",
         "choices": ["30 days", "60 more days", "until you empty it"],
         "answer": 0, "why": ["reason " * 150, "reason " * 150, "reason " * 150]}
    prose = "<p>" + "word " * 360 + "</p>"
    seen = set()
    time = section_time(prose + str(practice.practice_block("chunking", [q])), seen)
    heading = 1  # "Practice"
    assert time.everything == pytest.approx((360 + heading) / 180 + 1)
    assert time.essential_words == 360 and seen == {"trash"}
    again = section_time(str(practice.practice_block("chunking", [q])), seen)
    assert again.everything == pytest.approx(heading / 180)


def test_each_deep_dive_says_its_time_in_its_summary(tmp_path):
    section = render(tmp_path, '{% aside "Long" %}\n' + "word " * 360 + "\n{% endaside %}\n")
    time = section_time(section.html)
    assert "2 min</span></summary>" in reading_time.fill_dives(section.html, time)


def test_the_page_times_are_kept_between_builds_and_counted_again_when_a_body_changes(tmp_path, monkeypatch):
    """builder/page/reading_time.py page_times: a rebuild with the same section bodies reads the
    times it kept; a changed body is counted again; both as section_time counts them."""
    from builder.page import reading_time

    bodies = ["<p>" + "word " * 360 + "</p>", "<pre><code>" + "x " * 240 + "</code></pre>"]
    counted = []
    real = reading_time.section_time
    monkeypatch.setattr(reading_time, "section_time", lambda body, seen=None: counted.append(body) or real(body, seen))
    first = reading_time.page_times(bodies, tmp_path)
    assert [t.everything for t in first] == [2, 2] and len(counted) == 2
    assert reading_time.page_times(bodies, tmp_path) == first and len(counted) == 2  # read, not counted
    changed = reading_time.page_times([bodies[0], bodies[1] + "<p>one more</p>"], tmp_path)
    assert len(counted) == 4 and changed[1].everything > first[1].everything
    (tmp_path / "reading-times.json").write_text("{not json", "utf-8")
    assert reading_time.page_times(bodies, tmp_path) == first and len(counted) == 6  # a damaged file: counted again
