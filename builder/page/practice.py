"""Practice along the way: the questions of corpus/quiz.yaml, a question or two at the end of
each core section ({{ practice() }}) and all of them again in "Check yourself" (the quiz lab).

A question is written like the prose: its texts may name numbers through the helpers of
builder/page/facts.py ({{ rank('q-upload', 'dense') }}), rendered by the build, and its
`check` is a Python expression over the same helpers (like a {% claim %}) that proves the right
choice right and, where it matters, the others wrong. `let` names expressions once for the
texts and the check. Text between backticks reads as code.

    - id: fused-rank
      section: hybrid
      let: {d: "rank('q-upload', 'dense')"}
      question: Dense search ranks `err-1` {{ d }}. Where does fusion put it?
      check: rank('q-upload', 'hybrid') == 1 < d
      choices:
        - text: rank {{ rank('q-upload', 'hybrid') }}
          right: true
          why: it is in both lists, and two shares beat one.
        - text: rank {{ d }}
          why: that is dense search's own rank.

The build fails (strict, like claims; `--claims warn` warns) when a check is false and when the
quiz gives its answers away (fairness() below). An expression that names data the build does not
have fails the build whatever the setting, as it does in a section.

The questions as written are read by builder/practice_source.py.

Example: render_quiz([question.as_source()], env, namespace).questions[0]["choices"] -> ["rank 1", "rank 7"]
"""

import html
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from engine.problems import Problem

from builder.page.claims import BUILTINS, ClaimFailed, ClaimRegistry, ClaimResult
from builder.page.asides import deep_dive
from builder.page.errors import ProseError
from builder.page.template_cache import from_string_cached
from builder.practice_source import QUIZ_FILE
from builder.sources import SECTION_FILE

# The giveaways a quiz is checked against (see fairness()):
LONGER_BY = 1.2        # the right choice may be at most 20% longer than the longest wrong one,
LONGER_SLACK = 2       # plus two characters, so "rank 10" may stand beside "rank 7"
LONGEST_SHARE = 1 / 3  # the right choice is the longest of its question in at most a third of the quiz (or once)
POSITION_SHARE = 0.4   # no position (first, second...) holds the right choice in more than 40% of the quiz
GIVEAWAY = re.compile(r"\b(all|none|both) of the above\b", re.I)
FORM_RATIO = 1.5       # the right choice's length is within 1.5x of the wrong ones' median, either way
STATED_WINDOW = 200    # words of the page before a question in which its answer may not stand word for word
STATED_MIN_WORDS = 2   # an answer of one word (an identifier, a term) is named all over the prose: not a giveaway


# ------------------------------------------------------------------ rendering and checking


@dataclass
class RenderedQuiz:
    questions: list[dict]        # what the page shows: {id, section, question, choices, answer, why}
    results: list[ClaimResult]   # each question's check, held or not
    giveaways: list[str]         # what would let a reader answer without knowing (fairness())

    @property
    def problems(self) -> list[str]:
        """False checks and giveaways, each naming the file, the line, the question and the fix."""
        return [result.describe() for result in self.results if not result.held] + self.giveaways


class PracticeFailed(ClaimFailed):
    """Practice questions that no longer hold, or give their answer away, with any claims of the
    prose that no longer hold either (a ClaimFailed, so the build and `make serve` report it the
    way they report a false claim)."""

    def __init__(self, problems: list[str], claim_failures: list[ClaimResult] = ()):
        self.failures = list(claim_failures)
        self.problems = problems
        claims = str(ClaimFailed(self.failures)) + "\n" if self.failures else ""
        Exception.__init__(self, f"{claims}{len(problems)} problem(s) with the practice questions of {QUIZ_FILE}; "
                                 "rewrite the question (or fix the corpus) so that it holds:\n"
                                 + "\n".join("  " + p.replace("\n", "\n  ") for p in problems))


def plain(text: str) -> str:
    """A rendered text as a reader measures it: backticks gone, white space folded."""
    return " ".join(text.replace("`", "").split())


def render_text(env, source: str, scope: dict, key: str, where: str) -> str:
    if "{" not in source:
        return " ".join(source.split())
    try:
        return " ".join(from_string_cached(env, source, key).render(**scope).split())
    except Exception as error:  # an expression naming data the build does not have
        raise ProseError(f"{where}: {type(error).__name__}: {error} (fix: the expression names something the "
                         "build's data does not have; check the ids it uses against the corpus)") from None


def evaluate_let(question: dict, namespace: dict) -> dict:
    scope = dict(namespace)
    for name, source in question["let"]:
        try:  # one dict as globals, so a comprehension sees the helpers too
            scope[name] = eval(compile(source, f"{QUIZ_FILE}:{question['line']}", "eval"), {"__builtins__": BUILTINS, **scope})
        except Exception as error:
            raise ProseError(f"{QUIZ_FILE}:{question['line']}: {question['id']}: let.{name}: {type(error).__name__}: "
                             f"{error} (fix: the expression names something the build's data does not have)") from None
    return scope


def render_question(question: dict, env, namespace: dict) -> dict:
    scope = evaluate_let(question, namespace)
    where = f"{QUIZ_FILE}:{{}}: {question['id']}: {{}}"
    key = f"quiz/{question['id']}"
    choices = question["choices"]
    return {
        "id": question["id"], "section": question["section"],
        "question": render_text(env, question["question"], scope, f"{key}/question",
                                where.format(question["line"], "question")),
        "choices": [render_text(env, c["text"], scope, f"{key}/{i}/text", where.format(c["line"], "text"))
                    for i, c in enumerate(choices)],
        "why": [render_text(env, c["why"], scope, f"{key}/{i}/why", where.format(c["line"], "why"))
                for i, c in enumerate(choices)],
        "answer": next(i for i, c in enumerate(choices) if c["right"]),
    }


def check_question(question: dict, shown: dict, namespace: dict) -> ClaimResult:
    """The question's check, evaluated like a claim's (a false one shows each part's value now)."""
    checks = ClaimRegistry(evaluate_let(question, namespace))
    return checks.evaluate(question["check"], QUIZ_FILE, question["line"], f"{question['id']}: {shown['question']}")


def question_giveaways(question: dict, q: dict) -> list[Problem]:
    """One question's giveaways: choices that read the same, "none of the above", an unpaired
    backtick, a right choice much longer than the others (the most specific option)."""
    problems = []
    answer, texts = q["answer"], [plain(t) for t in q["choices"]]
    folded = [t.lower() for t in texts]
    for i, text in enumerate(texts):
        if folded.count(folded[i]) > 1 and folded.index(folded[i]) == i:
            problems.append(Problem(QUIZ_FILE, question["line"], q["id"], "choices", f"two choices read “{text}”",
                                    "make every choice say something different (a check of the numbers may be "
                                    "needed: they are rendered from the build)"))
        if GIVEAWAY.search(text):
            problems.append(Problem(QUIZ_FILE, question["choices"][i]["line"], q["id"], "text",
                                    f"“{text}” answers by elimination", "write a choice that stands on its own"))
    for field, text in [("question", q["question"])] + [("text", t) for t in q["choices"]] + [("why", w) for w in q["why"]]:
        if text.count("`") % 2:
            problems.append(Problem(QUIZ_FILE, question["line"], q["id"], field, f"has an unpaired backtick: “{text}”",
                                    "pair every ` (text between two backticks reads as code)"))
    problems += form_giveaways(question, q, texts)
    wrong = max(len(t) for i, t in enumerate(texts) if i != answer)
    if len(texts[answer]) > LONGER_BY * wrong + LONGER_SLACK:
        problems.append(Problem(
            QUIZ_FILE, question["choices"][answer]["line"], q["id"], "text",
            f"the right choice, “{texts[answer]}” ({len(texts[answer])} characters), is longer than the longest "
            f"wrong one ({wrong}) by more than {round(100 * (LONGER_BY - 1))}% + {LONGER_SLACK}: the most "
            "specific option gives itself away", "shorten it, or make a wrong choice as specific and as long"))
    return problems


def opening(text: str) -> str:
    """The first word of a choice, as a reader compares them: "Fixed, 25 words" -> "fixed"."""
    words = re.findall(r"[\w'’-]+", text.lower())
    return words[0] if words else ""


def form_giveaways(question: dict, q: dict, texts: list[str]) -> list[Problem]:
    """A right choice of another form than the wrong ones: its length far from theirs (more than
    FORM_RATIO times their median, or less than their median over it), or the only opening word
    in a question whose wrong choices all share theirs ("No: …", "No: …", "Yes: …")."""
    answer, problems = q["answer"], []
    line = question["choices"][answer]["line"]
    wrong = [t for i, t in enumerate(texts) if i != answer]
    median = statistics.median(len(t) for t in wrong)
    length = len(texts[answer])
    if length > FORM_RATIO * median or length * FORM_RATIO < median:
        problems.append(Problem(
            QUIZ_FILE, line, q["id"], "text",
            f"the right choice, “{texts[answer]}” ({length} characters), is not of the wrong ones' length (their "
            f"median is {median:g}; allowed {median / FORM_RATIO:.1f} to {median * FORM_RATIO:.1f}): a choice of another "
            "form gives itself away", "write the choices in one form and about one length, e.g. four settings "
            "named alike, four reasons of a line each"))
    openings = [opening(t) for t in texts]
    alone = openings.count(openings[answer]) == 1
    if alone and all(openings.count(word) > 1 for i, word in enumerate(openings) if i != answer):
        problems.append(Problem(
            QUIZ_FILE, line, q["id"], "text",
            f"the right choice, “{texts[answer]}”, is the only one opening with “{openings[answer]}”, while every wrong "
            "one shares its opening with another", "open the choices alike, or give the right one's opening to a wrong "
            "choice too"))
    return problems


def right_is_longest(q: dict) -> bool:
    texts = [plain(t) for t in q["choices"]]
    return all(len(texts[q["answer"]]) > len(t) for i, t in enumerate(texts) if i != q["answer"])


def quiz_giveaways(shown: list[dict]) -> list[Problem]:
    """The whole quiz's giveaways: the longest choice right too often, the right choice at one
    position too often (or never at one that every question offers)."""
    problems = []
    longest = [q["id"] for q in shown if right_is_longest(q)]
    if len(longest) > max(1, math.floor(LONGEST_SHARE * len(shown))):
        problems.append(Problem(QUIZ_FILE, None, None, "choices",
                                f"the right choice is the longest in {len(longest)} of {len(shown)} questions "
                                f"({', '.join(longest)}), more than {LONGEST_SHARE:.0%} of them: a reader can "
                                "guess by length", "make a wrong choice the longest in some of them"))
    positions = Counter(q["answer"] for q in shown)
    names = "first second third fourth".split()
    most = math.ceil(POSITION_SHARE * len(shown))
    crowded = [p for p, n in positions.items() if n > most]
    offered = min(len(q["choices"]) for q in shown)
    unused = [p for p in range(offered) if not positions[p]] if len(shown) >= 2 * offered else []
    if crowded or unused:
        spread = ", ".join(f"{names[p]} {positions[p]}" for p in range(max(len(q["choices"]) for q in shown)))
        problems.append(Problem(QUIZ_FILE, None, None, "choices",
                                f"the right choice's position is not spread: {spread} of {len(shown)} questions"
                                + (f" (at most {most} at one position)" if crowded else "")
                                + (f"; never {', '.join(names[p] for p in unused)}" if unused else ""),
                                "move some right choices to another position"))
    return problems


def fairness(source: list[dict], shown: list[dict]) -> list[Problem]:
    """What would let a reader answer without knowing the answer: each question's giveaways, then
    the whole quiz's."""
    if not shown:
        return []
    return [p for question, q in zip(source, shown) for p in question_giveaways(question, q)] + quiz_giveaways(shown)


def render_quiz(source: list[dict], env, namespace: dict) -> RenderedQuiz:
    """Every question rendered over the build's data, its check evaluated, the quiz checked for
    giveaways. `env` renders prose (builder/page/prose.py); quiz texts are plain text, so it is
    used without autoescaping (the page escapes them when it draws them)."""
    env = env.overlay(autoescape=False)
    kept, shown, tied = [], [], []
    for question in source:
        try:
            shown.append(render_question(question, env, namespace))
            kept.append(question)
        except ProseError as error:
            # A rank the corpus has tied: the question no longer holds, like a false check (a
            # strict build stops on it, another build leaves the question out and says so).
            if "TiedRank" not in str(error):
                raise
            tied.append(str(error))
    results = [check_question(question, q, namespace) for question, q in zip(kept, shown)]
    return RenderedQuiz(shown, results, tied + [str(problem) for problem in fairness(kept, shown)])


# ------------------------------------------------------------------ the practice block of a section


def inline(text: str) -> Markup:
    """Text whose `backticked` parts are code (site_src/labs/quiz/lab.js draws it the same way)."""
    return Markup("").join(Markup("<code>{}</code>").format(part) if i % 2 else escape(part)
                           for i, part in enumerate(text.split("`")))


def reasons(q: dict) -> Markup:
    """The answer and why each other choice is wrong: the same markup as the quiz lab's view draws
    once the reader has answered."""
    right = Markup('<p class="practice-right"><span class="badge badge-ok">right</span> <strong>{}</strong>: {}</p>').format(
        inline(q["choices"][q["answer"]]), inline(q["why"][q["answer"]]))
    wrong = Markup("").join(
        Markup('<li data-choice="{}"><span class="badge badge-fail">wrong</span> <strong>{}</strong>: {}</li>').format(
            i, inline(text), inline(q["why"][i])) for i, text in enumerate(q["choices"]) if i != q["answer"])
    return right + Markup('<ul class="practice-wrong">{}</ul>').format(wrong)


def question_item(q: dict) -> Markup:
    choices = Markup("").join(
        Markup('<label class="practice-choice"><input type="radio" name="practice-{}" value="{}"><span>{}</span></label>')
        .format(q["id"], i, inline(text)) for i, text in enumerate(q["choices"]))
    return Markup(
        '<li class="practice-q" id="practice-{id}" data-practice="{id}" data-answer="{answer}">'
        '<fieldset class="practice-choices"><legend class="practice-question">{question}</legend>{choices}</fieldset>'
        '<details class="practice-answer"><summary>Show the answer</summary>{reasons}</details></li>').format(
        id=q["id"], answer=q["answer"], question=inline(q["question"]), choices=choices, reasons=reasons(q))


ON_THE_PATH = 1  # a section's questions on the essential path; the others wait in a deep dive


def practice_block(slug: str, questions: list[dict]) -> Markup:
    """The practice at the end of section `slug`: its first ON_THE_PATH questions on the essential
    path, the others in a deep dive, "More practice" (a question is a minute of the path's
    budget: README, "Reading times"); each answer in a details element (site_src/runtime/practice.js
    marks a pick right or wrong and opens it)."""
    first, more = questions[:ON_THE_PATH], questions[ON_THE_PATH:]
    items = Markup("").join(question_item(q) for q in first)
    later = Markup("")
    if more:
        listed = Markup('<ol class="quiz practice-list" start="{start}">{items}</ol>').format(
            start=len(first) + 1, items=Markup("").join(question_item(q) for q in more))
        later = deep_dive(f"deep-dive-{slug}-more-practice", "More practice", listed, classes="practice-more")
    # No accessible name on the section: eight regions all called "Practice" would be landmarks
    # a screen reader cannot tell apart; the heading is there to navigate by.
    return Markup('<section class="practice" id="{slug}-practice"><h3 class="practice-title">Practice</h3>'
                  '<ol class="quiz practice-list">{items}</ol>{later}</section>').format(slug=slug, items=items, later=later)


def section_slug(where: str) -> str:
    """site_src/sections/06-hybrid.md -> hybrid"""
    match = SECTION_FILE.fullmatch(Path(where).name)
    if not match:
        raise ProseError(f"{where}: practice() belongs in a section file, NN-slug.md")
    return match.group(2)


def block_for(where: str, questions: list[dict]) -> Markup:
    """{{ practice() }} in the section `where`: its questions, or an error naming the fix."""
    slug = section_slug(where)
    mine = [q for q in questions if q["section"] == slug]
    if not mine:
        raise ProseError(f"{where}: practice() shows this section's questions, and {QUIZ_FILE} has none for "
                         f"section '{slug}' (fix: add a question with section: {slug}, or remove the line)")
    return practice_block(slug, mine)


PRACTICE_LINE = re.compile(r"\{\{\s*practice\(\s*\)\s*\}\}")


def unplaced(questions: list[dict], source: list[dict], section_files: list[Path]) -> list[str]:
    """Questions whose section has no {{ practice() }} line: they would never be practised along the way."""
    placed = {section_slug(path.name) for path in section_files if PRACTICE_LINE.search(path.read_text("utf-8"))}
    return [str(Problem(QUIZ_FILE, question["line"], q["id"], "section",
                        f"section '{q['section']}' has no {{{{ practice() }}}} line",
                        "add one at the end of that section, or move the question to a section that has one"))
            for question, q in zip(source, questions) if q["section"] not in placed]


# ------------------------------------------------------------------ the answer stated just above


WORD = re.compile(r"\w+(?:[.,'’-]\w+)*")
TAG = re.compile(r"<[^>]+>")


def words_of(html_or_text: str) -> list[str]:
    """The words a reader reads, lower-case, tags and entities gone: 'The <b>3.3</b> points' -> ['the', '3.3', 'points']"""
    return WORD.findall(html.unescape(TAG.sub(" ", html_or_text)).lower())


def holds_run(words: list[str], run: list[str]) -> bool:
    return any(words[i:i + len(run)] == run for i in range(len(words) - len(run) + 1))


def stated_above(questions: list[dict], source: list[dict], bodies: dict[str, str]) -> list[str]:
    """Questions whose right choice stands word for word in the STATED_WINDOW words of the section
    before its practice block (`bodies`: slug -> the section's rendered HTML): the reader is told
    the answer just before being asked it."""
    problems = []
    for question, q in zip(source, questions):
        body = bodies.get(q["section"], "")
        at = body.find(f'id="{q["section"]}-practice"')
        if at < 0:
            continue
        before = words_of(body[:body.rfind("<", 0, at)])[-STATED_WINDOW:]
        answer = words_of(plain(q["choices"][q["answer"]]))
        if len(answer) >= STATED_MIN_WORDS and holds_run(before, answer):
            problems.append(str(Problem(
                QUIZ_FILE, question["choices"][q["answer"]]["line"], q["id"], "text",
                f"the right choice, “{plain(q['choices'][q['answer']])}”, stands word for word in the "
                f"{STATED_WINDOW} words before the question: the page has just said it",
                "ask about something the reader works out (another question, another setting), or rewrite the "
                "choices so that none is a sentence of the prose")))
    return problems
