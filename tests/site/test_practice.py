"""Practice along the way (builder/page/practice.py, corpus/quiz.yaml): a question or two at the
end of each core section, every number in them rendered from the build and proven by a check, the
quiz refused when a check is false or when it gives its answers away, and each section's block
placed by one line. Browser behaviour (picking, keyboard, announcements) is tested with the quiz
lab, site_src/labs/quiz/test_quiz.py."""

import json
import re
import shutil
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

import build as build_cli
from builder import practice_source
from builder.page import practice, predictions, render
from builder.page.claims import ClaimRegistry
from builder.page.errors import ProseError
from builder.page.facts import Facts, TiedRank
from builder.page.prose import prose_environment
from builder.sources import section_index
from engine.problems import ProblemLog
from support.caches import copy_warm_cache
from support.paths import ROOT

CORE = ("chunking", "dense-sparse", "hybrid", "prompt", "citations", "every-stage", "failures", "measuring")


# ------------------------------------------------------------------ loading corpus/quiz.yaml


def load(tmp_path, text: str, sections=("hybrid", "failures")):
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "quiz.yaml").write_text(text, "utf-8")
    out = ProblemLog(corpus)
    return practice_source.load_quiz(corpus / "quiz.yaml", out, sections), [str(p) for p in out.problems]


GOOD = """\
- id: fused
  section: hybrid
  let:
    d: rank('q', 'dense')
  question: Dense ranks it {{ d }}. Where does fusion put `err-4021`?
  check: rank('q', 'hybrid') < d
  choices:
    - text: rank {{ d }}
      why: that is dense's own rank.
    - text: rank {{ rank('q', 'hybrid') }}
      right: true
      why: two shares beat one.
    - text: rank {{ rank('q', 'bm25') }}
      why: that is BM25's.
"""


def test_a_question_loads_with_its_choices_its_right_one_and_its_lines(tmp_path):
    quiz, problems = load(tmp_path, GOOD)
    assert problems == []
    q, = quiz
    assert (q.id, q.section, q.line, q.answer, q.let) == ("fused", "hybrid", 1, 1, (("d", "rank('q', 'dense')"),))
    assert [(c.text, c.right, c.line) for c in q.choices] == [
        ("rank {{ d }}", False, 8), ("rank {{ rank('q', 'hybrid') }}", True, 10), ("rank {{ rank('q', 'bm25') }}", False, 13)]
    assert q.as_source()["choices"][1] == {"text": "rank {{ rank('q', 'hybrid') }}", "why": "two shares beat one.",
                                           "right": True, "line": 10}


@pytest.mark.parametrize("old, new, line, field, message", [
    ("      right: true\n", "", 1, "choices", "marks 0 choices right"),
    ("      why: that is BM25's.\n", "      why: that is BM25's.\n      right: true\n", 1, "choices", "marks 2 choices right"),
    ("    - text: rank {{ rank('q', 'bm25') }}\n      why: that is BM25's.\n", "", 1, "choices", "has 2 choices"),
    ("      why: that is dense's own rank.\n", "", 8, "why", "is missing or empty"),
    ("  check: rank('q', 'hybrid') < d\n", "  check: rank('q', 'hybrid') <\n", 1, "check", "is not a Python expression"),
    ("  check: rank('q', 'hybrid') < d\n", "", 1, "check", "is missing or empty"),
    ("  section: hybrid\n", "  section: staff\n", 1, "section", "is 'staff'"),
    ("    d: rank('q', 'dense')\n", "    D: rank('q', 'dense')\n", 4, "let.D", "is not a name and a Python expression"),
    ("      why: two shares beat one.\n", "      why: two shares beat one, 2 of them.\n", 10, "why", "types the number 2"),
    ("  question: Dense ranks it {{ d }}.", "  question: Dense ranks it 7.", 1, "question", "types the number 7"),
    ("      right: true\n", "      right: yes please\n", 10, "right", "is 'yes please'"),
])
def test_each_mistake_is_named_with_its_file_line_question_field_and_fix(tmp_path, old, new, line, field, message):
    assert GOOD.count(old) == 1
    quiz, problems = load(tmp_path, GOOD.replace(old, new))
    assert quiz == []
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"corpus/quiz.yaml:{line}: fused: {field}: {message}"), problems[0]
    assert "(fix: " in problems[0]


def test_two_questions_with_one_id_are_refused(tmp_path):
    _, problems = load(tmp_path, GOOD + GOOD.replace("section: hybrid", "section: failures"))
    assert problems == ["corpus/quiz.yaml:1: fused: id: 'fused' appears 2 times (fix: give each practice question its own id)"]


@pytest.mark.parametrize("text, number", [
    ("rank {{ d }} of {{ n }}", None), ("BM25 and QB-4021 in `err-4021`, `4021` and recall@k", None),
    ("adds 1/(k + rank)", "1"), ("at 0.645, the best", "0.645"), ("about 1,000,000 tokens", "1,000,000"),
    ("{% if x %}3{% endif %} and `g01`", "3"),
])
def test_a_number_typed_by_hand_is_found_and_identifiers_are_not_numbers(text, number):
    assert practice_source.typed_number(text) == number


# ------------------------------------------------------------------ rendering and checking


NAMESPACE = {"rank": lambda question, retriever: {"dense": 7, "bm25": 1, "hybrid": 2}[retriever]}


def rendered(source, namespace=NAMESPACE):
    return practice.render_quiz(source, prose_environment(ClaimRegistry(namespace)), namespace)


def source_of(tmp_path, text=GOOD):
    quiz, problems = load(tmp_path, text)
    assert problems == []
    return [q.as_source() for q in quiz]


def test_texts_are_rendered_over_the_helpers_and_let_and_the_check_holds(tmp_path):
    quiz = rendered(source_of(tmp_path))
    assert quiz.questions == [{"id": "fused", "section": "hybrid", "question": "Dense ranks it 7. Where does fusion put `err-4021`?",
                               "choices": ["rank 7", "rank 2", "rank 1"], "answer": 1,
                               "why": ["that is dense's own rank.", "two shares beat one.", "that is BM25's."]}]
    assert [r.held for r in quiz.results] == [True]
    # One position and one question: nothing to spread, nothing given away.
    assert quiz.problems == []


def test_a_question_on_a_rank_the_corpus_has_tied_is_left_out_and_named(tmp_path):
    """An edit that ties the asked passage with another makes its rank the corpus's order: the
    question is a problem (a strict build stops on it), not a crash of every other build."""
    def rank(question, retriever):
        if retriever == "dense":
            raise TiedRank("rank('q', 'dense'): err-4021 shares its score with 1 other passage(s)")
        return {"bm25": 1, "hybrid": 2}[retriever]
    quiz = rendered(source_of(tmp_path), {"rank": rank})
    assert quiz.questions == []
    problem, = quiz.problems
    assert problem.startswith("corpus/quiz.yaml:1: fused: let.d: TiedRank: rank('q', 'dense'): err-4021 shares")


def test_a_false_check_names_the_file_line_question_and_the_numbers_now(tmp_path):
    namespace = {"rank": lambda question, retriever: {"dense": 7, "bm25": 1, "hybrid": 9}[retriever]}
    quiz = rendered(source_of(tmp_path), namespace)
    problem, = quiz.problems
    assert problem.startswith("corpus/quiz.yaml:1: [FAILED] fused: Dense ranks it 7. Where does fusion put `err-4021`?")
    assert "check: rank('q', 'hybrid') < d" in problem
    assert "now: rank('q', 'hybrid') = 9" in problem and "now: d = 7" in problem
    message = str(practice.PracticeFailed(quiz.problems))
    assert message.startswith("1 problem(s) with the practice questions of corpus/quiz.yaml")
    assert "corpus/quiz.yaml:1: [FAILED] fused" in message


def test_an_expression_naming_missing_data_fails_whatever_the_setting_and_names_its_field(tmp_path):
    text = GOOD.replace("why: that is BM25's.", "why: that is {{ rank('q', 'rerank') }}.")
    with pytest.raises(ProseError, match=r"^corpus/quiz\.yaml:13: fused: why: KeyError: 'rerank' \(fix: "):
        rendered(source_of(tmp_path, text))
    with pytest.raises(ProseError, match=r"^corpus/quiz\.yaml:1: fused: let\.d: NameError"):
        rendered(source_of(tmp_path, GOOD.replace("d: rank('q', 'dense')", "d: ranks('q', 'dense')")))


def question(qid, choices, answer, line=1):
    """A rendered question and its source, for the fairness checks."""
    shown = {"id": qid, "section": "hybrid", "question": "Q?", "choices": choices, "answer": answer,
             "why": ["because."] * len(choices)}
    source = {"id": qid, "line": line, "choices": [{"line": line + 1 + i} for i in range(len(choices))]}
    return source, shown


def fairness(*questions):
    return [str(p) for p in practice.fairness([s for s, _ in questions], [q for _, q in questions])]


def test_a_right_choice_much_longer_than_the_others_gives_itself_away():
    # 20% + 2 characters over the longest wrong choice (20 characters): 26 is the most allowed.
    fine = question("a", ["x" * 20, "y" * 26, "z" * 18], 1)
    assert fairness(fine) == []
    long = question("b", ["x" * 20, "y" * 27, "z" * 18], 1, line=10)
    problem, = fairness(long)
    assert problem.startswith("corpus/quiz.yaml:12: b: text: the right choice, “" + "y" * 27 + "” (27 characters), is "
                              "longer than the longest wrong one (20) by more than 20% + 2")
    assert "(fix: shorten it, or make a wrong choice as specific and as long)" in problem


def test_a_right_choice_of_another_length_than_the_wrong_ones_gives_itself_away():
    """Issue 24's two examples, as they stood: the short right choice among longer wrong ones, and the
    one long setting among short ones."""
    ranks = question("error-code", ["Dense search, at rank 7", "BM25, at rank 1", "Both, tied at rank 1",
                                    "Neither lists it in its top 8"], 1, line=20)
    problem, = fairness(ranks)
    assert problem == ("corpus/quiz.yaml:22: error-code: text: the right choice, “BM25, at rank 1” (15 characters), "
                       "is not of the wrong ones' length (their median is 23; allowed 15.3 to 34.5): a choice of "
                       "another form gives itself away (fix: write the choices in one form and about one length, e.g. "
                       "four settings named alike, four reasons of a line each)")
    fixed = question("chunk-split", ["Sentences, up to 40 words, 1 overlap", "By heading", "Fixed, 25 words, 10 overlap",
                                     "Whole page"], 2, line=30)
    problem, = fairness(fixed)
    assert problem.startswith("corpus/quiz.yaml:33: chunk-split: text: the right choice, “Fixed, 25 words, 10 overlap” "
                              "(27 characters), is not of the wrong ones' length (their median is 10; allowed 6.7 to 15.0)")
    # Within 1.5 times the median, either way, the form is the wrong ones'.
    def own(q):
        return [str(p) for p in practice.question_giveaways(*q)]
    assert own(question("a", ["x" * 20, "y" * 14, "z" * 20], 1)) == own(question("b", ["x" * 10, "y" * 15, "z" * 10, "w" * 40], 1)) == []
    assert len(own(question("c", ["x" * 20, "y" * 13, "z" * 20], 1))) == 1
    assert len(own(question("d", ["x" * 10, "y" * 16, "z" * 10, "w" * 40], 1))) == 1, "the old rule allows 50 here"


def test_a_right_choice_alone_in_its_opening_word_gives_itself_away():
    odd = question("pdf-forum", ["No: the groups keep it out", "No: the guardrail removes it", "No: forums rank lower",
                                 "Yes: the prompt takes the top 5"], 3, line=40)
    problem, = fairness(odd)
    assert problem == ("corpus/quiz.yaml:44: pdf-forum: text: the right choice, “Yes: the prompt takes the top 5”, is "
                       "the only one opening with “yes”, while every wrong one shares its opening with another (fix: "
                       "open the choices alike, or give the right one's opening to a wrong choice too)")
    balanced = question("b", ["No: the groups keep it out", "No: the guardrail removes it", "Yes, but stripped of it",
                              "Yes: the prompt takes the top 5"], 3)
    every_opening_its_own = question("c", ["Cut every 12 words", "Sentences of 40", "By heading, each", "Whole page only"], 1)
    assert fairness(balanced, every_opening_its_own) == []


def stated(prose: str, choices: list[str], answer: int) -> list[str]:
    source, shown = question("one-question", choices, answer, line=50)
    shown["section"] = "measuring"
    body = f'<p>{prose}</p><section class="practice" id="measuring-practice"><h3>Practice</h3></section>'
    return practice.stated_above([shown], [source], {"measuring": body})


def test_an_answer_stated_word_for_word_in_the_200_words_before_the_question_is_refused():
    choices = ["10.0 percentage points", "3.3 percentage points", "6.7 percentage points"]
    problem, = stated("One question moves recall by <b>3.3</b> percentage\npoints, a small gain.", choices, 1)
    assert problem == ("corpus/quiz.yaml:52: one-question: text: the right choice, “3.3 percentage points”, stands word "
                       "for word in the 200 words before the question: the page has just said it (fix: ask about "
                       "something the reader works out (another question, another setting), or rewrite the choices so "
                       "that none is a sentence of the prose)")
    assert stated("One question moves recall by 3.3 percentage points." + " word" * 198, choices, 1) == [], \
        "further back than 200 words: the reader has read on"
    assert len(stated("One question moves recall by 3.3 percentage points." + " word" * 197, choices, 1)) == 1
    assert stated("Fusion puts `err-4021` first.", ["`err-4021`", "`err-4090`", "`api-limits`"], 0) == [], \
        "an answer of one word, an identifier, is named all over the prose"


def test_the_pages_prose_states_no_answer_and_would_be_refused_if_it_did(dist_dir, data):
    """The built page passes; put the one-question answer in the sentence before its block and it is refused."""
    page = (dist_dir / "index.html").read_text("utf-8")
    source = data["labs"]["quiz"].get("source") or [
        {"id": q["id"], "line": 0, "choices": [{"line": 0} for _ in q["choices"]]} for q in data["labs"]["quiz"]["questions"]]
    shown = data["labs"]["quiz"]["questions"]
    bodies = {slug: page for slug in dict.fromkeys(q["section"] for q in shown)}
    assert practice.stated_above(shown, source, bodies) == []
    q = next(q for q in shown if q["id"] == "one-question")
    block = 'id="measuring-practice"'
    told = page.replace(block, block.replace("id=", f"data-told='{practice.plain(q['choices'][q['answer']])}' id="), 1)
    told = told.replace("<section class=\"practice\" data-told", f"<p>So one question is {practice.plain(q['choices'][q['answer']])}.</p><section class=\"practice\" data-told", 1)
    problem, = practice.stated_above(shown, source, {**bodies, "measuring": told})
    assert ": one-question: text: the right choice, “" in problem and "stands word for word" in problem


def test_the_longest_choice_may_be_right_in_at_most_a_third_of_the_questions():
    right_longest = [question(f"q{i}", ["aa", "b", "c"][i % 3:] + ["aa", "b", "c"][:i % 3], (3 - i % 3) % 3) for i in range(6)]
    assert [q["choices"][q["answer"]] for _, q in right_longest] == ["aa"] * 6
    problems = fairness(*right_longest)
    assert any("the right choice is the longest in 6 of 6 questions" in p for p in problems), problems
    two_of_six = right_longest[:2] + [question(f"r{i}", ["aa", "b", "c"], 1 + i % 2) for i in range(4)]
    assert not any("is the longest in" in p for p in fairness(*two_of_six))


def test_the_right_choices_position_must_be_spread_across_the_quiz():
    crowded = [question(f"q{i}", ["a", "b", "c"], 0 if i < 5 else i % 3) for i in range(10)]
    problem, = [p for p in fairness(*crowded) if "position" in p]
    assert problem == ("corpus/quiz.yaml: choices: the right choice's position is not spread: first 7, second 1, "
                       "third 2 of 10 questions (at most 4 at one position) (fix: move some right choices to another position)")
    never_third = [question(f"q{i}", ["a", "b", "c"], i % 2) for i in range(6)]
    problem, = [p for p in fairness(*never_third) if "position" in p]
    assert problem.endswith("first 3, second 3, third 0 of 6 questions; never third (fix: move some right choices "
                            "to another position)")
    spread = [question(f"q{i}", ["a", "b", "c"], i % 3) for i in range(6)]
    assert fairness(*spread) == []


def test_choices_that_read_alike_or_answer_by_elimination_are_refused():
    same = question("a", ["rank 4", "Rank  4", "rank 7"], 2)
    above = question("b", ["rank 1", "none of the above", "rank 7"], 0)
    problems = fairness(same, above)
    assert "corpus/quiz.yaml:1: a: choices: two choices read “rank 4”" in problems[0]
    assert problems[1].startswith("corpus/quiz.yaml:3: b: text: “none of the above” answers by elimination")


def test_an_unpaired_backtick_is_refused():
    source, shown = question("a", ["`err-4021", "err-4090", "err-4011"], 1)
    problem, = fairness((source, shown))
    assert problem.startswith("corpus/quiz.yaml:1: a: text: has an unpaired backtick: “`err-4021”")


# ------------------------------------------------------------------ the practice block of a section


def test_a_practice_block_reads_whole_without_javascript_and_escapes_its_text():
    q = {"id": "fused", "section": "hybrid", "question": "Where does `err-4021` go <now>?", "choices": ["rank 7", "rank 1"],
         "answer": 1, "why": ["dense's & only.", "two shares."]}
    assert practice.practice_block("hybrid", [q]) == (
        '<section class="practice" id="hybrid-practice"><h3 class="practice-title">Practice</h3><ol class="quiz practice-list">'
        '<li class="practice-q" id="practice-fused" data-practice="fused" data-answer="1">'
        '<fieldset class="practice-choices"><legend class="practice-question">Where does <code>err-4021</code> go &lt;now&gt;?'
        '</legend><label class="practice-choice"><input type="radio" name="practice-fused" value="0"><span>rank 7</span>'
        '</label><label class="practice-choice"><input type="radio" name="practice-fused" value="1"><span>rank 1</span>'
        '</label></fieldset><details class="practice-answer"><summary>Show the answer</summary>'
        '<p class="practice-right"><span class="badge badge-ok">right</span> <strong>rank 1</strong>: two shares.</p>'
        '<ul class="practice-wrong"><li data-choice="0"><span class="badge badge-fail">wrong</span> <strong>rank 7</strong>: '
        "dense&#39;s &amp; only.</li></ul></details></li></ol></section>")


def test_the_practice_line_shows_its_sections_questions_or_says_what_is_missing():
    questions = [{"id": "a", "section": "hybrid"}, {"id": "b", "section": "prompt"}]
    with pytest.raises(ProseError, match=r"^site_src/sections/07-failures\.md: practice\(\) shows this section's questions, "
                                         r"and corpus/quiz\.yaml has none for section 'failures' \(fix: add a question "
                                         r"with section: failures, or remove the line\)"):
        practice.block_for("site_src/sections/07-failures.md", questions)


def test_a_question_whose_section_has_no_practice_line_is_named(tmp_path):
    sections = tmp_path / "sections"
    sections.mkdir()
    (sections / "06-hybrid.md").write_text("# Hybrid\n\nProse.\n\n{{ practice() }}\n", "utf-8")
    (sections / "12-staff.md").write_text("# Staff\n\nProse.\n", "utf-8")
    shown = [{"id": "a", "section": "hybrid"}, {"id": "b", "section": "staff"}]
    assert practice.unplaced(shown, [{"line": 1}, {"line": 20}], sorted(sections.glob("*.md"))) == [
        "corpus/quiz.yaml:20: b: section: section 'staff' has no {{ practice() }} line (fix: add one at the end of that "
        "section, or move the question to a section that has one)"]


# ------------------------------------------------------------------ the page's own quiz


def test_every_core_section_ends_with_its_practice_line_and_no_other_section_has_one():
    for path in sorted((ROOT / "site_src" / "sections").glob("*.md")):
        lines = [line for line in path.read_text("utf-8").splitlines() if line.strip()]
        slug = re.fullmatch(r"\d+-(.+)\.md", path.name).group(1)
        placed = [line for line in lines if practice.PRACTICE_LINE.search(line)]
        if slug in CORE:
            assert lines[-1] == "{{ practice() }}" and len(placed) == 1, f"{path.name} must end with its practice line"
        else:
            assert placed == [], f"{path.name} is not a core section"


def test_the_built_page_holds_a_block_of_one_or_two_questions_at_the_end_of_each_core_section(dist_dir, data):
    page = LexborHTMLParser((dist_dir / "index.html").read_text("utf-8"))
    quiz = data["labs"]["quiz"]["questions"]
    for slug in CORE:
        chapter = page.css_first(f"section.chapter#{slug}")
        block = chapter.css_first("section.practice")
        assert block is not None and block.attributes["id"] == f"{slug}-practice"
        ids = [li.attributes["data-practice"] for li in block.css("li.practice-q")]
        assert ids == [q["id"] for q in quiz if q["section"] == slug] and 1 <= len(ids) <= 2, slug
        after = [node for node in chapter.css("section.practice ~ *")]
        assert after == [], f"section {slug}: the practice block comes last"
    assert len(page.css("section.practice")) == len(CORE)
    assert sorted(li.attributes["data-practice"] for li in page.css("section.practice li.practice-q")) == sorted(q["id"] for q in quiz)


def test_the_quiz_is_in_page_order_and_every_answer_and_reason_in_the_page_is_the_datas(dist_dir, data):
    quiz = data["labs"]["quiz"]["questions"]
    order = [s["slug"] for s in section_index()]
    assert [order.index(q["section"]) for q in quiz] == sorted(order.index(q["section"]) for q in quiz)
    page = LexborHTMLParser((dist_dir / "index.html").read_text("utf-8"))
    for q in quiz:
        item = page.css_first(f"li#practice-{q['id']}")
        plain = [c.replace("`", "") for c in q["choices"]]
        assert [label.text() for label in item.css("label.practice-choice")] == plain
        assert item.attributes["data-answer"] == str(q["answer"])
        right = item.css_first(".practice-right").text()
        assert right == f"right {plain[q['answer']]}: {q['why'][q['answer']].replace('`', '')}"
        wrong = [li.text() for li in item.css(".practice-wrong > li")]
        assert wrong == [f"wrong {plain[i]}: {q['why'][i].replace('`', '')}" for i in range(len(plain)) if i != q["answer"]]


def test_the_pages_quiz_holds_and_gives_nothing_away(data):
    facts = Facts(data)
    namespace = {**facts.namespace(), **predictions.helpers(facts)}  # as the render step runs them
    quiz = practice.render_quiz(data["labs"]["quiz"]["source"], prose_environment(ClaimRegistry(namespace)), namespace)
    assert quiz.problems == []
    assert len(quiz.results) == len(quiz.questions) >= 2 * len(CORE) - 2
    assert quiz.questions == data["labs"]["quiz"]["questions"]


def test_when_the_numbers_move_the_build_refuses_the_question_and_names_it(data, tmp_path):
    """The hybrid question says fusion puts g23's passage first: with fusion's list changed, it is false."""
    changed = json.loads(json.dumps(data))
    fused = changed["runs"]["g23"]["hybrid"]
    fused[0], fused[1] = fused[1], fused[0]
    facts = Facts(changed)
    namespace = facts.namespace()
    quiz = render.prepare_practice(changed, facts, prose_environment(ClaimRegistry(namespace)), namespace)
    line = next(q["line"] for q in data["labs"]["quiz"]["source"] if q["id"] == "fused-rank")
    problem, *also = quiz.problems
    assert problem.startswith(f"corpus/quiz.yaml:{line}: [FAILED] fused-rank: ")
    assert [p.split(": ")[1] for p in also] == ["fused-rank"] * len(also), "fusion's rank 2 is dense's too: two choices read alike"
    assert "now: f = 2" in problem
    assert changed["labs"]["quiz"]["questions"][next(i for i, q in enumerate(quiz.questions) if q["id"] == "fused-rank")]["choices"][2] == "rank 2"


@pytest.fixture
def corpus_copy(tmp_path, built_site):
    """The real corpus and the project's warm caches, copied, so an edit costs a build without a model."""
    shutil.copytree(ROOT / "corpus", tmp_path / "corpus")
    copy_warm_cache(tmp_path / "cache", leave_out=("jinja",))
    return tmp_path


def unmark_the_old_refund_page(root: Path) -> None:
    """Drop the outdated refund page's superseded flag: the prompt questions say it is outdated."""
    path = root / "corpus" / "help" / "billing.md"
    text = path.read_text("utf-8")
    assert text.count("superseded: true\n") == 1
    path.write_text(text.replace("superseded: true\n", ""), "utf-8")


@pytest.mark.slow
def test_a_corpus_edit_that_makes_a_practice_question_false_stops_the_build_or_warns(corpus_copy, capsys):
    unmark_the_old_refund_page(corpus_copy)
    args = ["--corpus", str(corpus_copy / "corpus"), "--out", str(corpus_copy / "dist"), "--cache", str(corpus_copy / "cache")]
    assert build_cli.main(args) == 1
    printed = capsys.readouterr().err
    lines = {text[len("- id: "):]: i for i, text in enumerate((ROOT / "corpus" / "quiz.yaml").read_text("utf-8").splitlines(), 1)
             if text.startswith("- id: ")}
    for qid in ("prompt-order", "prompt-dates", "stale-page"):
        assert f"corpus/quiz.yaml:{lines[qid]}: [FAILED] {qid}: " in printed, qid
    assert "'superseded': False" in printed, "the numbers now seen"
    assert "claim(s) on the page no longer hold" in printed and "07-prompt.md:" in printed, "false claims too, at once"
    assert not (corpus_copy / "dist").exists()
    assert build_cli.main(args + ["--claims", "warn"]) == 0
    printed = capsys.readouterr().err
    assert "3 problem(s) with the practice questions of corpus/quiz.yaml" in printed
    assert f"corpus/quiz.yaml:{lines['stale-page']}: [FAILED] stale-page" in printed


DISPUTED = {  # issue 26: the practice answers a practitioner disputed, as they read before
    "prompt-dates": "an id is only a label to cite",
    "pdf-forum": "the guardrail reads the answer, never the prompt",
    "one-word": "here even in a sentence that says the opposite",
    "why-rrf": "BM25's would decide alone",
    "chunk-page": "Its one vector averages every topic on the page",
}


def test_the_disputed_practice_answers_say_what_a_practitioner_would(data):
    """Each old sentence is gone (checked by putting each back: the test failed on it), and each new answer
    names what the old one missed."""
    by_id = {q["id"]: q for q in questions_of(data)}
    for qid, old in DISPUTED.items():
        assert old not in json.dumps(by_id[qid], ensure_ascii=False), qid
    right = {qid: by_id[qid]["why"][by_id[qid]["answer"]] for qid in DISPUTED}
    assert "refund-new" in right["prompt-dates"] and "rarely" in right["prompt-dates"]
    assert "at indexing" in " ".join(by_id["pdf-forum"]["why"])
    assert "“refunded”" in right["one-word"] and "“refundable” happens to stand in the sentence that backs" in right["one-word"]
    assert "needs a weight tuned" in right["why-rrf"] and "not on one scale" in right["why-rrf"]
    assert "wordpieces the model was fine-tuned on" in right["chunk-page"] and "noise" in right["chunk-page"]


def questions_of(data):
    return data["labs"]["quiz"]["questions"]


def test_the_render_step_hands_practice_to_the_labs_that_ask_and_names_none(monkeypatch):
    """A lab asks for the page's practice (PRACTICE in its data.py: where its questions as written
    are, and the key it wants them rendered under); the render step reads and hands them over by
    what each lab asked, never by a lab's name: a lab called otherwise that asks is served, one
    placed nowhere is not."""
    from types import SimpleNamespace
    from builder import labs
    from builder.page import render
    ask = {"source": "written", "predictions": "guesses", "rendered": "shown"}
    drill = labs.Lab("drill", ROOT, SimpleNamespace(STATE={}, PRACTICE=ask))
    absent = labs.Lab("elsewhere", ROOT, SimpleNamespace(STATE={}, PRACTICE=ask))
    plain = labs.Lab("plain", ROOT, SimpleNamespace(STATE={}))
    monkeypatch.setattr(labs, "LABS", (plain, drill, absent))
    data = {"labs": {"plain": {}, "drill": {"written": [{"id": "q1"}], "guesses": [{"id": "p1"}]}}}
    written, asking = render.practice_written(data)
    assert written == {"source": [{"id": "q1"}], "predictions": [{"id": "p1"}]} and asking == [drill]
    assert render.practice_written({"labs": {"plain": {}}}) == (None, [])
    assert not any(f'"{lab.name}"' in (ROOT / "builder" / "page" / name).read_text("utf-8")
                   for lab in labs.discover() for name in ("render.py", "practice.py"))
