"""The chunking lab (site_src/labs/chunking/): its data step on small
hand-made pages and vectors (which chunker each setting runs, scores and ranks, what ranks first,
where the facts fall), the chunk counts of the real page pinned, and in a real browser every
setting and question showing the build's chunks, by mouse, keyboard and shared link, with the
template's drawing of every state equal to the script's."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
from markupsafe import Markup
from playwright.sync_api import expect

from site_src.labs.chunking import data as chunking
from site_src.labs.chunking.data import (SETTINGS, chunk_outcomes, chunk_page, fact_segments, facts_in, page_text, prose_of,
                                   score_chunks)
from builder.page.facts import Facts
from builder.page.render import render_lab
from support.labs import drawn, hash_of, lab, open_page, outline

FACTS = {"safety_net": "a second safety net", "extra_days": "60 more days", "tempting": "30 days"}


def numbered(first, last):
    """'w1 w2 … w40': words whose place in the page is their name."""
    return " ".join(f"w{i}" for i in range(first, last + 1))


# ------------------------------------------------------------------ the data step


def test_each_setting_runs_its_chunker_on_the_pages_prose():
    page = f"## A\n\n{numbered(1, 20)}\n\n## B\n\n{numbered(21, 40)}\n"  # 40 words, no sentence end
    assert prose_of(page) == numbered(1, 40)
    assert chunk_page("fixed-12", page) == [numbered(1, 12), numbered(13, 24), numbered(25, 36), numbered(37, 40)]
    assert chunk_page("fixed-25", page) == [numbered(1, 25), numbered(26, 40)]
    # Windows of 25 every 25 - 10 = 15 words: from w1 and from w16, which reaches the end.
    assert chunk_page("fixed-25-overlap-10", page) == [numbered(1, 25), numbered(16, 40)]
    assert chunk_page("sentences-40", page) == [numbered(1, 40)]  # one sentence of 40 words: it fits
    assert chunk_page("headings", page) == [f"A\n{numbered(1, 20)}", f"B\n{numbered(21, 40)}"]
    assert chunk_page("page", page) == [f"A\n{numbered(1, 20)}\nB\n{numbered(21, 40)}"] == [page_text(page)]


SENTENCES = [
    "When you delete a note it moves to the Trash.",            # 10 words
    "It waits there for thirty days before it goes away.",      # 10
    "Anyone who can edit the note can put it back.",            # 10
    "Free and Team plans lose the note after the Trash.",       # 10
    "Business plans add a second safety net, and workspace admins can still recover the note "
    "for sixty more days after it has left the Trash.",         # 25
    "Only an owner can delete a whole workspace, and its notes stay recoverable for seven more "
    "days after the deletion.",                                 # 20
]


def test_the_sentence_setting_packs_up_to_40_words_and_repeats_one_sentence():
    assert [len(s.split()) for s in SENTENCES] == [10, 10, 10, 10, 25, 20]
    page = (f"## The Trash\n\n{SENTENCES[0]} {SENTENCES[1]} {SENTENCES[2]}\n\n"
            f"## After the Trash\n\n{SENTENCES[3]}\n{SENTENCES[4]}\n\n## Workspaces\n\n{SENTENCES[5]}\n")
    assert chunk_page("sentences-40", page) == [
        # 10 + 10 + 10 + 10 = 40 words: four sentences fit.
        "When you delete a note it moves to the Trash. It waits there for thirty days before it goes away. "
        "Anyone who can edit the note can put it back. Free and Team plans lose the note after the Trash.",
        # Starts again at the last sentence only (overlap 1, not 2): 10 + 25 = 35; + 20 = 55 > 40.
        "Free and Team plans lose the note after the Trash. Business plans add a second safety net, and "
        "workspace admins can still recover the note for sixty more days after it has left the Trash.",
        # Repeats the 25-word sentence; 25 + 20 = 45 > 40: a chunk of only the overlap.
        "Business plans add a second safety net, and workspace admins can still recover the note for sixty "
        "more days after it has left the Trash.",
        "Only an owner can delete a whole workspace, and its notes stay recoverable for seven more days "
        "after the deletion.",
    ]


def test_a_chunk_holds_a_fact_only_whole_in_any_case_and_spacing():
    assert facts_in("Business plans add A second\nsafety net.", FACTS) == ["safety_net"]
    assert facts_in("a second safety", FACTS) == []
    assert facts_in("for 60 more days, not 30 days", FACTS) == ["extra_days", "tempting"]


def test_fact_segments_cut_the_text_around_each_phrase():
    assert fact_segments("Wait 30 days.", {"t": "30 days"}) == [["Wait ", None], ["30 days", "t"], [".", None]]
    assert fact_segments("60 More\n days or 30 days", FACTS) == [["60 More\n days", "extra_days"], [" or ", None],
                                                                  ["30 days", "tempting"]]
    assert fact_segments("no fact here", FACTS) == [["no fact here", None]]
    # Overlapping phrases: the one that starts first is marked.
    assert fact_segments("abc", {"x": "ab", "y": "bc"}) == [["ab", "x"], ["c", None]]


def test_every_chunk_is_scored_by_cosine_and_ranked_per_question():
    texts = ["Notes wait 30 days.", "Admins get 60 more days.", "Nothing here."]
    chunks = {setting: texts for setting, _ in SETTINGS}
    vectors = {setting: np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]) for setting, _ in SETTINGS}
    questions = {"q1": np.array([0.6, 0.8]), "q2": np.array([1.0, 0.0])}
    settings = score_chunks("", FACTS, chunks, vectors, questions)
    assert [(s["id"], s["label"]) for s in settings] == list(SETTINGS)
    assert settings[0]["chunks"] == [
        {"text": texts[0], "words": 4, "facts": ["tempting"],
         "scores": {"q1": 1.0 * 0.6 + 0.0 * 0.8, "q2": 1.0}, "ranks": {"q1": 3, "q2": 1}},
        {"text": texts[1], "words": 5, "facts": ["extra_days"],
         "scores": {"q1": round(0.6 * 0.6 + 0.8 * 0.8, 6), "q2": 0.6}, "ranks": {"q1": 1, "q2": 2}},
        {"text": texts[2], "words": 2, "facts": [],
         "scores": {"q1": 0.8, "q2": 0.0}, "ranks": {"q1": 2, "q2": 3}},
    ]


def chunk(words, facts, q1, q2):
    """A scored chunk: (score, rank) per question."""
    return {"text": f"{words} words", "words": words, "facts": facts,
            "scores": {"q1": q1[0], "q2": q2[0]}, "ranks": {"q1": q1[1], "q2": q2[1]}}


def test_outcomes_name_what_ranks_first_and_where_each_fact_is():
    lab = {"facts": FACTS, "questions": [{"id": "q1"}, {"id": "q2"}], "settings": [
        {"id": "three", "chunks": [chunk(10, ["tempting"], (0.9, 1), (0.5, 3)),
                                   chunk(12, ["safety_net", "extra_days"], (0.8, 2), (0.7, 1)),
                                   chunk(8, ["extra_days"], (0.1, 3), (0.6, 2))]},
        {"id": "one", "chunks": [chunk(5, [], (0.3, 1), (0.2, 1))]},
    ]}
    outcomes = chunk_outcomes(lab)
    three = outcomes["three"]
    assert (three["n_chunks"], three["min_words"], three["max_words"], three["split"]) == (3, 8, 12, [])
    assert three["q1"] == {
        "needs": ["safety_net", "extra_days"], "top_answers": False, "answer_rank": 2,
        "top": 0, "top_score": 0.9, "top_words": 10, "top_facts": ["tempting"], "top_text": "10 words",
        "second": 1, "second_facts": ["safety_net", "extra_days"], "second_text": "12 words",
        "fact_ranks": {"safety_net": 2, "extra_days": 2, "tempting": 1},
    }
    assert (three["q2"]["needs"], three["q2"]["top"], three["q2"]["top_answers"], three["q2"]["answer_rank"]) \
        == (["extra_days"], 1, True, 1)
    assert three["q2"]["fact_ranks"] == {"safety_net": 1, "extra_days": 1, "tempting": 3}
    one = outcomes["one"]
    assert one["split"] == ["safety_net", "extra_days", "tempting"]
    assert (one["q1"]["second"], one["q1"]["second_facts"], one["q1"]["second_text"]) == (None, [], "")
    assert one["q1"]["answer_rank"] is None and one["q1"]["fact_ranks"] == dict.fromkeys(FACTS)


def test_the_data_step_keeps_each_chunks_text_its_scores_and_its_marked_pieces():
    page = chunking.ChunkingPage("T", "https://example.test/t", (chunking.LabQuestion("q1", "How long?"),), FACTS,
                                 "## A\n\nNotes wait 30 days.\n\n## B\n\nAdmins get a second safety net for 60 more days.\n")
    close = np.array([0.0, 1.0])
    vector_of = {text: (close if "60" in text else np.array([1.0, 0.0])) for text in chunking.texts_to_embed(page)}
    vector_of["How long?"] = close
    build = SimpleNamespace(content=SimpleNamespace(labs={"chunking": page}), vector_of=vector_of)
    lab = chunking.data(build)
    assert set(lab) == {"title", "markdown", "facts", "questions", "settings", "outcomes", "segments"}
    assert lab["questions"] == [{"id": "q1", "text": "How long?"}]
    headings = next(s for s in lab["settings"] if s["id"] == "headings")
    assert [c["text"] for c in headings["chunks"]] == ["A\nNotes wait 30 days.",
                                                       "B\nAdmins get a second safety net for 60 more days."]
    assert [c["ranks"]["q1"] for c in headings["chunks"]] == [2, 1]
    assert lab["outcomes"]["headings"]["q1"]["top_answers"] is True
    for setting in lab["settings"]:
        assert ["".join(piece for piece, _ in cut) for cut in lab["segments"][setting["id"]]] \
            == [c["text"] for c in setting["chunks"]]


# ------------------------------------------------------------------ the built data


def test_the_real_page_is_cut_into_50_chunks_each_setting_its_own_count(data):
    lab = data["labs"]["chunking"]
    counts = {s["id"]: len(s["chunks"]) for s in lab["settings"]}
    words = len(prose_of(lab["markdown"]).split())
    assert words == 185
    assert counts == {
        "fixed-12": math.ceil(185 / 12),                   # 16
        "fixed-25": math.ceil(185 / 25),                   # 8
        "fixed-25-overlap-10": math.ceil((185 - 25) / 15) + 1,  # starts 0, 15, …, 165 (165 + 25 >= 185): 12
        "sentences-40": 9,  # 13 sentences, 2 or 3 a chunk, each chunk after the first repeating one
        "headings": 4,
        "page": 1,
    }
    assert sum(counts.values()) == 50
    assert {name: lab["outcomes"][name]["n_chunks"] for name in counts} == counts


def test_the_default_state_is_a_setting_and_question_of_the_lab(data):
    lab = data["labs"]["chunking"]
    assert chunking.STATE["setting"] in [s["id"] for s in lab["settings"]]
    assert chunking.STATE["q"] in [q["id"] for q in lab["questions"]]
    for setting in lab["settings"]:
        assert ["".join(p for p, _ in cut) for cut in lab["segments"][setting["id"]]] \
            == [c["text"] for c in setting["chunks"]]


def test_the_page_text_stays_out_of_the_browsers_copy(dist_dir):
    bundle = (dist_dir / "assets" / "labs" / "chunking.js").read_text("utf-8")
    assert '"markdown"' not in bundle and '"segments"' in bundle


# ------------------------------------------------------------------ in the browser


def shown_chunks(section):
    return section.evaluate("""s => ({
        chunks: [...s.querySelectorAll('ol.chunk-results li.result')].map(li => ({
            index: Number(li.dataset.chunk), rank: li.querySelector('.rank').textContent.trim(),
            score: li.querySelector('.score').textContent.trim(), words: li.querySelector('.pid .title').textContent,
            badges: [...li.querySelectorAll('.badges .badge')].map(b => b.textContent.trim()),
            marks: [...li.querySelectorAll('mark.fact')].map(m => m.textContent),
            text: li.querySelector('.chunk-text').textContent,
            winner: li.classList.contains('is-winner'), answer: li.classList.contains('is-answer')})),
        lessons: [...s.querySelectorAll('.lab-lesson')].filter(p => !p.hidden).map(p => p.dataset.setting + '/' + p.dataset.q),
        status: s.querySelector('.lab-status').textContent,
        question: s.querySelector('.lab-question-text').textContent,
    })""")


def check_chunking(section, data, setting_id, qid):
    lab = data["labs"]["chunking"]
    setting = next(s for s in lab["settings"] if s["id"] == setting_id)
    summary = lab["outcomes"][setting_id]
    outcome = summary[qid]
    facts = lab["facts"]
    shown = shown_chunks(section)
    order = sorted(range(len(setting["chunks"])), key=lambda i: setting["chunks"][i]["ranks"][qid])
    assert [c["index"] for c in shown["chunks"]] == order
    for row in shown["chunks"]:
        chunk_ = setting["chunks"][row["index"]]
        assert row["rank"] == str(chunk_["ranks"][qid])
        assert row["score"] == f"{chunk_['scores'][qid]:.3f}"
        assert row["words"] == f"{chunk_['words']} words"
        assert row["text"] == chunk_["text"]
        held = [("tempting: " if name == "tempting" else "") + facts[name] for name in facts if name in chunk_["facts"]]
        assert [b for b in row["badges"] if b not in ("ranked first", "answers it")] == (held or ["no key fact"])
        assert {m.lower() for m in row["marks"]} == {facts[name].lower() for name in chunk_["facts"]}
        assert row["winner"] == (chunk_["ranks"][qid] == 1) == ("ranked first" in row["badges"])
        answers = all(f in chunk_["facts"] for f in outcome["needs"])
        assert row["answer"] == answers == ("answers it" in row["badges"])
    assert shown["lessons"] == [f"{setting_id}/{qid}"]
    words = (str(summary["min_words"]) if summary["min_words"] == summary["max_words"]
             else f"{summary['min_words']} to {summary['max_words']}")
    n = summary["n_chunks"]
    assert shown["status"] == (f"{setting['label']}: {n} chunk{'s' if n != 1 else ''} of {words} words, "
                               "ranked by cosine similarity.")
    assert shown["question"] == next(q["text"] for q in lab["questions"] if q["id"] == qid)


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-chunking")


def template_drawing(page, data, **state):
    """What lab.html draws for a state (not only the default), in a page of its own."""
    html = render_lab("chunking", Facts(data).namespace(), {**state, "lessons": {
        s["id"]: {q["id"]: Markup("<span class=claim>lesson</span>") for q in data["labs"]["chunking"]["questions"]}
        for s in data["labs"]["chunking"]["settings"]}})
    page.set_content(html)
    return drawn(page.locator("section.lab"))


@pytest.mark.browser
def test_every_setting_and_question_shows_the_builds_chunks_by_mouse(desktop, data, make_page_module):
    section = lab(desktop, "chunking")
    blank = make_page_module()
    for question in data["labs"]["chunking"]["questions"]:
        section.locator(f'label:has(input[name="chunking-question"][value="{question["id"]}"])').click()
        for setting in data["labs"]["chunking"]["settings"]:
            section.locator(f'label:has(input[name="chunking-setting"][value="{setting["id"]}"])').click()
            check_chunking(section, data, setting["id"], question["id"])
            assert hash_of(desktop) == f"#lab-chunking?setting={setting['id']}&q={question['id']}"
            # The template draws this state as the script does (the lessons aside: the prose's).
            script = [child for child in drawn(section)[1:] if not str(child[0]).startswith("p class=lab-lesson")]
            template = [child for child in template_drawing(blank, data, setting=setting["id"], q=question["id"])[1:]
                        if not str(child[0]).startswith("p class=lab-lesson")]
            assert template == script, "\n".join(outline(["section", *template]))


@pytest.mark.browser
def test_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    settings = [s["id"] for s in data["labs"]["chunking"]["settings"]]
    page = open_page(make_page, site_url, f"#lab-chunking?setting={settings[3]}&q=q2")
    section = lab(page, "chunking")
    expect(section.locator(f'input[value="{settings[3]}"]')).to_be_checked()
    check_chunking(section, data, settings[3], "q2")
    section.locator(f'input[value="{settings[3]}"]').focus()
    page.keyboard.press("ArrowRight")
    expect(section.locator(f'input[value="{settings[4]}"]')).to_be_checked()
    check_chunking(section, data, settings[4], "q2")
    page.keyboard.press("Tab")  # into the question group, at its checked radio
    expect(section.locator('input[value="q2"]')).to_be_focused()
    page.keyboard.press("ArrowLeft")
    check_chunking(section, data, settings[4], "q1")
    assert hash_of(page) == f"#lab-chunking?setting={settings[4]}&q=q1"
    # A link that names nothing known keeps the default.
    other = open_page(make_page, site_url, "#lab-chunking?setting=nonsense&q=q9")
    check_chunking(lab(other, "chunking"), data, chunking.STATE["setting"], chunking.STATE["q"])


@pytest.mark.browser
def test_every_lesson_is_a_checked_claim(desktop, data):
    lessons = lab(desktop, "chunking").locator(".lab-lesson")
    expect(lessons).to_have_count(len(data["labs"]["chunking"]["settings"]) * len(data["labs"]["chunking"]["questions"]))
    for lesson in lessons.all():
        expect(lesson.locator("span.claim")).to_have_count(1)


@pytest.mark.browser
def test_on_a_phone_nothing_sticks_out_and_the_lesson_comes_up_under_the_controls(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-chunking?setting=fixed-12&q=q2", viewport={"width": 360, "height": 780},
                     is_mobile=True, has_touch=True)
    section = lab(page, "chunking")
    wide = section.evaluate("""s => [...s.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > innerWidth + 1)
        .slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + el.className)""")
    assert wide == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    controls = section.locator(".lab-controls").bounding_box()
    lesson = section.locator(".lab-lesson:not([hidden])").bounding_box()
    first = section.locator("ol.chunk-results li").first.bounding_box()
    assert controls["y"] + controls["height"] <= lesson["y"] < first["y"], "controls, then the lesson, then the chunks"
    assert lesson["y"] + lesson["height"] - controls["y"] < 780, "the controls and the lesson fit on one screen"
