"""The helpers prose and claims use to name numbers: every figure on the page is one of
these calls over the build's data, never a number typed by hand.

    {{ rank('q-upload', 'dense') }}          rank of the best-ranked right passage under dense
    {{ rank('q-upload', 'bm25', 'err-9') }}  rank of any passage
    {{ place('q-upload', 'bm25') }}          the same as the page writes it: "2", or "2=" in a tie
    {{ span('q-upload', 'bm25') }}           [first, last], the ranks a tied place spans
    {{ score('q-upload', 'dense', 'err-1')|num(3) }}
    {{ score('q-upload', 'hybrid', 'err-1')|sig }}   the same at three significant digits, as prose writes a score
    {{ top('q-login', 'bm25') }}             the id ranked first
    {{ recall('hybrid', 3) }}                   sure hits out of the golden set at k = 3
    {{ recall_text('hybrid', 1) }}              the same as the page writes it: "26", or "26–27" when ties at k leave it open
    {{ tracer('q-limits').sent }}         a traced question's record: the passages its prompt carries…
    {{ data.labs.winners.counts.all.dense }}    anything else the build computed, by its key in the data
    {{ sec('measuring') }}                      "section 11", a link to it: sections are named by slug, so
                                                a section added or moved renumbers every reference
    {{ fact('weaviate_relative_score_default') }}  a figure about the world, from site_src/facts.yaml with its source

Example: Facts(data).rank('q-upload', 'bm25') -> 1
"""

import math
from functools import partial

from markupsafe import Markup

from engine.evaluate import rank_of
from engine.ranking import places, rank_label
from engine.settings import SIGNIFICANCE

from builder.page.sourced_facts import fact_value, load_facts
from builder.search import hits_text
from builder.sources import section_index


# What the prose's words mean when a claim checks them: the one place such numbers are set.
WORDS = {
    "one_in_twenty": SIGNIFICANCE,  # "more than one time in twenty": the usual significance level
    "almost_entirely": 0.75,    # two intervals "overlap almost entirely": by 3/4 of the narrower one
    "by_a_hair": 0.0001,        # "by a hair": fused scores closer than this
    "only": 0.5,                # a share the prose calls "only" so much: less than half
}


def significant(value: float, digits: int = 3) -> str:
    """A number as prose writes it: rounded to `digits` significant digits, never rounding away
    a digit before the decimal point (labs and tables keep the build's digits).

    Example: [significant(x) for x in (0.031319, 0.6449, 3.1048, 48.2, 1234.5, 0)] -> ['0.0313', '0.645', '3.10', '48.2', '1,234', '0']
    """
    if digits < 1:
        raise ValueError(f"significant(): digits={digits}, need 1 or more")
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f}"


class TiedRank(ValueError):
    """A rank asked of a passage that is tied: the order between the tied passages is not the
    retriever's."""


class Box(dict):
    """A dict whose keys also read as attributes, so checks can say question('x').answer
    as the templates do."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no field '{name}' (has: {', '.join(sorted(self))})") from None


def boxed(value):
    if isinstance(value, dict):
        return Box({key: boxed(item) for key, item in value.items()})
    if isinstance(value, list):
        return [boxed(item) for item in value]
    return value


def section_ref(numbers: dict[str, int], *slugs: str, cap: bool = False, to: bool = False) -> Markup:
    """A reference to sections by slug, as the prose writes it, linked: "section 11"; two or more,
    "sections 8 and 10" (or "sections 4 to 11" with to=True); "Section" with cap=True.

    Example: section_ref({"citations": 8, "failures": 10}, "citations", "failures")
             -> 'sections <a href="#citations">8</a> and <a href="#failures">10</a>'
    """
    unknown = [slug for slug in slugs if slug not in numbers]
    if not slugs or unknown:
        raise ValueError(f"sec({', '.join(map(repr, slugs))}): no section {', '.join(map(repr, unknown)) or '(none named)'} "
                       f"(the sections are {', '.join(numbers)})")
    links = [Markup('<a href="#{}">{}</a>').format(slug, numbers[slug]) for slug in slugs]
    word = ("Section" if cap else "section") + ("s" if len(slugs) > 1 else "")
    if len(links) == 1:
        return Markup("{} {}").format(word, links[0])
    joined = Markup(" to ").join(links) if to else Markup(", ").join(links[:-1]) + Markup(" and ") + links[-1]
    return Markup("{} {}").format(word, joined)


class Facts:
    def __init__(self, data: dict, on_tie=None):
        """`on_tie(message)`: what a tied rank does when the prose may be untrue (claims as
        warnings): it is reported, and the rank written is the first of its place. None: a tied
        rank stops the build (TiedRank)."""
        self.on_tie = on_tie
        data = boxed(data)
        self.data = data
        self.questions = {q["id"]: q for q in data["questions"]}
        self.passages = {p["id"]: p for p in data["passages"]}

    def _question_id(self, question: str) -> str:
        if question in self.questions:
            return question
        for q in self.questions.values():
            if q["text"].lower() == question.lower():
                return q["id"]
        raise KeyError(f"no question '{question}' in the build's data (golden ids: g, then the place in golden.yaml "
                       "in two digits; tracer ids; or the exact text)")

    def run(self, question: str, retriever: str) -> list[tuple[str, float]]:
        if retriever not in ("dense", "bm25", "hybrid"):
            raise KeyError(f"retriever '{retriever}': use dense, bm25 or hybrid")
        return [tuple(pair) for pair in self.data["runs"][self._question_id(question)][retriever]]

    def ids(self, question: str, retriever: str, n: int | None = None) -> list[str]:
        return [pid for pid, _ in self.run(question, retriever)][:n]

    def _right_or(self, question: str, retriever: str, passage: str | None) -> str:
        """`passage`, or the question's best-ranked right passage in that run (its first answer
        when none is ranked)."""
        if passage:
            if passage not in self.passages:
                raise KeyError(f"no passage '{passage}'")
            return passage
        answers = self.questions[self._question_id(question)]["answers"]
        ranked = self.ids(question, retriever)
        return next((pid for pid in ranked if pid in answers), answers[0] if answers else None)

    def rank(self, question: str, retriever: str, passage: str | None = None) -> int | None:
        """1-based rank of `passage` (default: the question's best-ranked right passage); None if
        absent. A passage that shares its score with another has no rank of its own, only a place:
        asking for its rank is an error that says to write place() (and the sentence for a tie)."""
        pid = self._right_or(question, retriever, passage)
        ranking = self.run(question, retriever)
        at = rank_of([p for p, _ in ranking], pid)
        if at is not None:
            first, last = places(ranking)[at - 1]
            if last > first:
                message = (f"rank({question!r}, {retriever!r}{', ' + repr(passage) if passage else ''}): {pid} shares "
                           f"its score with {last - first} other passage(s), places {first} to {last}: its rank is "
                           f"only the corpus's order (fix: write place(...), \"{first}=\", and say it is a tie)")
                if self.on_tie is None:
                    raise TiedRank(message)
                self.on_tie(message)
                return first
        return at

    def span(self, question: str, retriever: str, passage: str | None = None) -> list[int] | None:
        """[first, last]: the ranks a passage's place spans ([r, r] when its score is its own)."""
        ranking = self.run(question, retriever)
        at = rank_of([pid for pid, _ in ranking], self._right_or(question, retriever, passage))
        return list(places(ranking)[at - 1]) if at else None

    def place(self, question: str, retriever: str, passage: str | None = None) -> str | None:
        """The rank as the page writes it: "2", or "2=" when the passage shares its score."""
        ranking = self.run(question, retriever)
        at = rank_of([pid for pid, _ in ranking], self._right_or(question, retriever, passage))
        return rank_label(places(ranking)[at - 1]) if at else None

    def score(self, question: str, retriever: str, passage: str) -> float:
        return dict(self.run(question, retriever)).get(passage, 0.0)

    def top(self, question: str, retriever: str) -> str | None:
        ranked = self.ids(question, retriever, 1)
        return ranked[0] if ranked else None

    def question(self, question: str) -> dict:
        return self.questions[self._question_id(question)]

    def passage(self, passage: str) -> dict:
        return self.passages[passage]

    def tracer(self, tracer_id: str) -> dict:
        for record in self.data["tracers"]:
            if record["id"] == tracer_id:
                return record
        raise KeyError(f"no tracer '{tracer_id}' (have: {', '.join(t['id'] for t in self.data['tracers'])})")

    def recall(self, retriever: str, k: int) -> int:
        """Sure hits at k: questions whose right passage is in the top k whichever way a tie goes."""
        return self.data["recall"][retriever][str(k)]["hits"]

    def recall_text(self, retriever: str, k: int) -> str:
        return hits_text(self.data["recall"][retriever][str(k)])

    def namespace(self) -> dict:
        """Names available in {{ … }} and in claim checks."""
        golden = [q for q in self.data["questions"] if q["set"] == "golden"]
        return {
            "data": self.data, "run": self.run, "ids": self.ids, "rank": self.rank, "score": self.score,
            "top": self.top, "question": self.question, "passage": self.passage, "recall": self.recall,
            "place": self.place, "span": self.span, "recall_text": self.recall_text,
            "tracer": self.tracer, "settings": self.data["settings"],
            "n_golden": len(golden), "n_paraphrases": sum(q["paraphrase"] for q in golden),
            "n_passages": len(self.passages), "tokens": self.data["tokens"], "words": Box(WORDS),
            "sec": partial(section_ref, {entry["slug"]: entry["number"] for entry in section_index()}),
            "fact": partial(fact_value, load_facts()),
        }
