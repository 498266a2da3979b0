"""The essential path, read from the built page: at most 9,000 words of its own prose and at most
90 minutes (labs and practice included, README "Reading times"), the times the page states are
the ones counted, and nothing on it leans on a closed deep dive: no link from it lands inside
one (but for a link that opens a lab), no practice or quiz question works in a lab that sits in
one, and no sentence sends the
reader to one for what it needs."""

import re

import pytest

from builder.page import reading_time
from builder.page.reading_time import ESSENTIAL_WORDS, section_time
from support.views import page_with_controls

ESSENTIAL_MINUTES = 90
CHAPTER = re.compile(r'<section class="chapter" id="([^"]+)"')
DIVE_START = re.compile(r'<details class="deep-dive[^"]*" id="([^"]+)"')
DETAILS = re.compile(r"<(/?)details\b")
# sentences that hand the reader to a deep dive for something they need
# (a pointer to more, "the program in the deep dive below", is fine: the sentence stands without it)
LEANING = re.compile(r"\b(?:the|a|this|that) deep dive (?:above |below |earlier )?(?:shows|showed|works|worked|explains)\b"
                     r"|\bshowed\b[^.]{0,80}\bdeep dive\b", re.I)


FRAME = re.compile(r'<h2 id="[^"]+-title">.*?</h2>\s*<p class="section-time">.*?</p>', re.S)


def chapters(html: str) -> dict[str, str]:
    """Each section's own HTML, as the build counted it: without the heading and time line the
    page wraps it in. The glossary is looked up, not read."""
    starts = [(m.start(), m.group(1)) for m in CHAPTER.finditer(html)]
    return {slug: FRAME.sub("", html[at:(starts[i + 1][0] if i + 1 < len(starts) else len(html))], count=1)
            for i, (at, slug) in enumerate(starts) if slug != "glossary"}


@pytest.fixture(scope="module")
def page(dist_dir) -> str:
    return page_with_controls(dist_dir)  # the reading times count a lab's controls


@pytest.fixture(scope="module")
def times(page) -> dict:
    seen: set[str] = set()
    return {slug: section_time(body, seen) for slug, body in chapters(page).items()}


def dives(html: str) -> list[tuple[str, int, int]]:
    """Each deep dive: its id, where it starts and ends (details nest inside it: practice answers)."""
    found = []
    for start in DIVE_START.finditer(html):
        depth = 0
        for tag in DETAILS.finditer(html, start.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                found.append((start.group(1), start.start(), tag.end()))
                break
    return found


def outside_dives(html: str) -> str:
    for _, start, end in reversed(dives(html)):
        html = html[:start] + html[end:]
    return html


def test_the_essential_prose_is_at_most_9000_words(times):
    words = {slug: t.essential_words for slug, t in times.items()}
    assert sum(words.values()) <= ESSENTIAL_WORDS, f"{sum(words.values()):,} words on the essential path: {words}"


def minutes_of(spoken: str) -> int:
    """'1 h 04 min' -> 64, '58 min' -> 58"""
    hours = re.search(r"(\d+) h", spoken)
    return (int(hours.group(1)) * 60 if hours else 0) + int(re.search(r"(\d+) min", spoken).group(1))


def test_the_essentials_take_at_most_90_minutes_and_the_page_says_what_was_counted(times, page):
    total = sum(t.essentials for t in times.values())
    assert total <= ESSENTIAL_MINUTES, {slug: round(t.essentials, 1) for slug, t in times.items()}
    stated = minutes_of(re.search(r"The essentials · ([^<]+)<", page).group(1))
    assert stated == reading_time.shown(total), (stated, round(total, 1))


def test_no_link_on_the_essential_path_lands_inside_a_deep_dive(page):
    inside = {i: dive for dive, start, end in dives(page) for i in re.findall(r'\bid="([^"]+)"', page[start:end])
              if i != dive}
    found = []
    for slug, body in chapters(page).items():
        for target in re.findall(r'<a [^>]*href="#([^"?]+)', outside_dives(body)):
            # a link that opens a lab ("open this prompt in the builder") is an invitation to
            # it, not a sentence that needs it: the lab's deep dive opens and the link lands
            if target in inside and not target.startswith("lab-"):
                found.append(f"{slug}: a link to #{target}, inside the closed deep dive #{inside[target]}")
    assert not found, "\n".join(found)


def test_no_practice_question_works_in_a_lab_inside_a_deep_dive(page):
    in_dives = {name for _, start, end in dives(page) for name in re.findall(r'data-lab="([^"]+)"', page[start:end])}
    found = []
    for question in re.finditer(r'<li class="practice-q" id="([^"]+)".*?<legend class="practice-question">(.*?)</legend>',
                                page, re.S):
        for name in in_dives:
            if re.search(rf"\bthe {re.escape(name)} lab\b", question.group(2), re.I):
                found.append(f"{question.group(1)}: works in the {name} lab, which sits in a deep dive")
    assert not found, "\n".join(sorted(set(found)))


def test_no_essential_sentence_sends_the_reader_into_a_deep_dive(page):
    found = [f"{slug}: …{m.group(0)}…" for slug, body in chapters(page).items()
             for m in LEANING.finditer(re.sub(r"<[^>]+>", "", outside_dives(body)))]
    assert not found, "\n".join(found)
