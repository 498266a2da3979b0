"""The chunking lab: one help page (corpus/chunking-lab.md) cut six ways, every chunk embedded
and scored against the lab's two questions, and what ranks first under each cut.

Example: chunk_page("fixed-12", "## Trash\nNotes stay in the Trash for 30 days.")
         -> ['Notes stay in the Trash for 30 days.']
"""

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.chunking import chunk_fixed, chunk_headings, chunk_sentences, split_sentences, words
from engine.citations import normalize
from engine.corpus_files import read_text, split_front_matter
from engine.fields import check_id, check_url, required_str
from engine.problems import ProblemLog

STATE = {"setting": "fixed-25", "q": "q1"}  # the state the page opens on
BUILD_ONLY = ("markdown",)  # the page as written: the chunks carry its text to the browser
# The facts each question needs (chunking-lab.md names them; corpus/README.md says which
# question needs which): a chunk holding all of them answers the question.
NEEDS = {"q1": ("safety_net", "extra_days"), "q2": ("extra_days",)}


@dataclass(frozen=True)
class LabQuestion:
    id: str
    question: str


@dataclass(frozen=True)
class ChunkingPage:
    title: str
    url: str
    questions: tuple[LabQuestion, ...]
    facts: dict[str, str]
    markdown: str


def load_page(path: Path, out: ProblemLog) -> ChunkingPage | None:
    text = read_text(path, out)
    if text is None:
        return None
    meta, body, body_line = split_front_matter(text, path, out)
    if meta is None:
        return None
    title = required_str(meta, "title", path, None, out)
    url = check_url(meta.get("url"), path, meta.get("__line__"), None, out)
    questions = []
    raw_questions = meta.get("questions") or []
    if not isinstance(raw_questions, list):
        out.add(path, meta.get("__line__"), None, "questions", "is not a list",
                "write each question as '- id: q1' then 'question: …' under 'questions:'")
        raw_questions = [None]  # reported: no "has no questions" on top
    for raw in raw_questions:
        if raw is None:
            continue
        if not isinstance(raw, dict):
            out.add(path, meta.get("__line__"), None, "questions", f"entry '{raw}' is not an id and a question",
                    "write each question as '- id: q1' then 'question: …'")
        else:
            qid = check_id(raw.get("id"), path, raw.get("__line__"), "questions.id", out)
            question = required_str(raw, "question", path, qid, out)
            if qid and question:
                questions.append(LabQuestion(qid, question))
    if not raw_questions and not questions:
        out.add(path, meta.get("__line__"), None, "questions", "has no questions",
                "list the lab's questions as '- id: q1' / 'question: …'")
    facts = meta.get("facts")
    if not isinstance(facts, dict) or not {"safety_net", "extra_days", "tempting"} <= set(facts):
        out.add(path, meta.get("__line__"), None, "facts", "needs safety_net, extra_days and tempting",
                "name the exact phrases the lab looks for in each chunk")
        facts = {}
    facts = {str(k): str(v) for k, v in facts.items() if k != "__line__"}
    for name, phrase in facts.items():
        if phrase.lower() not in " ".join(body.split()).lower():
            out.add(path, meta.get("__line__"), None, f"facts.{name}", f"phrase '{phrase}' is not in the page",
                    "copy the phrase exactly from the page text")
    if not re.search(r"^## ", body, re.MULTILINE):
        out.add(path, body_line, None, None, "the page has no '## ' sections", "write the page as '## ' sections")
    if title is None or url is None:
        return None
    return ChunkingPage(title, url, tuple(questions), facts, body.strip() + "\n")


SETTINGS = (
    ("fixed-12", "Fixed, 12 words"),
    ("fixed-25", "Fixed, 25 words"),
    ("fixed-25-overlap-10", "Fixed, 25 words, 10 overlap"),
    ("sentences-40", "Sentences, up to 40 words, 1 overlap"),
    ("headings", "By heading"),
    ("page", "Whole page"),
)


def prose_of(markdown: str) -> str:
    """The page's paragraphs without the heading lines, as a plain-text extractor gives them."""
    return " ".join(line.strip() for line in markdown.splitlines()
                    if line.strip() and not re.match(r"^#{1,6}\s", line))


def page_text(markdown: str) -> str:
    """The whole page as one text: headings kept as lines of their own."""
    return "\n".join(re.sub(r"^#{1,6}\s+", "", line).strip() for line in markdown.splitlines() if line.strip())


def chunk_page(setting: str, markdown: str) -> list[str]:
    prose = prose_of(markdown)
    return {
        "fixed-12": lambda: chunk_fixed(prose, 12),
        "fixed-25": lambda: chunk_fixed(prose, 25),
        "fixed-25-overlap-10": lambda: chunk_fixed(prose, 25, overlap=10),
        "sentences-40": lambda: chunk_sentences(split_sentences(prose), 40, overlap=1),
        "headings": lambda: chunk_headings(markdown),
        "page": lambda: [page_text(markdown)],
    }[setting]()


def all_chunks(markdown: str) -> dict[str, list[str]]:
    return {setting: chunk_page(setting, markdown) for setting, _ in SETTINGS}


def facts_in(text: str, facts: dict[str, str]) -> list[str]:
    """Names of the fact phrases this chunk holds whole."""
    return [name for name, phrase in facts.items() if normalize(phrase) in normalize(text)]


def score_chunks(markdown: str, facts: dict[str, str], chunks: dict[str, list[str]],
             chunk_vectors: dict[str, np.ndarray], question_vectors: dict[str, np.ndarray]) -> list[dict]:
    settings = []
    for setting, label in SETTINGS:
        texts = chunks[setting]
        scores = {qid: chunk_vectors[setting] @ vector for qid, vector in question_vectors.items()}
        ranks = {qid: _ranks(s) for qid, s in scores.items()}
        settings.append({
            "id": setting,
            "label": label,
            "chunks": [{"text": text, "words": len(words(text)), "facts": facts_in(text, facts),
                        "scores": {qid: round(float(scores[qid][i]), 6) for qid in scores},
                        "ranks": {qid: ranks[qid][i] for qid in ranks}}
                       for i, text in enumerate(texts)],
        })
    return settings


def _ranks(scores: np.ndarray) -> list[int]:
    order = sorted(range(len(scores)), key=lambda i: -float(scores[i]))
    ranks = [0] * len(scores)
    for position, index in enumerate(order, start=1):
        ranks[index] = position
    return ranks


def chunk_outcomes(chunking: dict) -> dict:
    """setting -> {"n_chunks", "min_words", "max_words", "split", qid -> outcome}.

    An outcome names the facts the question needs, whether the top chunk holds them all
    ("top_answers") and the best rank of a chunk that does ("answer_rank"); the top chunk
    (index in page order) with its score, words, facts and text; the runner-up; and for each
    fact the best rank of a chunk that holds it whole (None when the cuts leave no chunk
    holding it whole: those facts are also listed under "split").
    """
    facts = list(chunking["facts"])
    result = {}
    for setting in chunking["settings"]:
        chunks = setting["chunks"]
        summary = {"n_chunks": len(chunks), "min_words": min(c["words"] for c in chunks),
                   "max_words": max(c["words"] for c in chunks),
                   "split": [f for f in facts if not any(f in c["facts"] for c in chunks)]}
        for question in chunking["questions"]:
            qid = question["id"]
            by_rank = sorted(range(len(chunks)), key=lambda i: chunks[i]["ranks"][qid])
            top, second = by_rank[0], (by_rank[1] if len(by_rank) > 1 else None)
            needs = NEEDS.get(qid, ())
            summary[qid] = {
                "needs": list(needs),
                "top_answers": bool(needs) and all(f in chunks[top]["facts"] for f in needs),
                "answer_rank": min((c["ranks"][qid] for c in chunks if needs and all(f in c["facts"] for f in needs)),
                                   default=None),
                "top": top, "top_score": chunks[top]["scores"][qid], "top_words": chunks[top]["words"],
                "top_facts": list(chunks[top]["facts"]), "top_text": chunks[top]["text"],
                "second": second, "second_facts": list(chunks[second]["facts"]) if second is not None else [],
                "second_text": chunks[second]["text"] if second is not None else "",
                "fact_ranks": {f: min((c["ranks"][qid] for c in chunks if f in c["facts"]), default=None)
                               for f in facts},
            }
        result[setting["id"]] = summary
    return result


def fact_segments(text: str, facts: dict[str, str]) -> list[list]:
    """The text cut into [piece, fact name or None], so a fact's phrase can be marked.

    Phrases match case-insensitively, across any run of white space, as the lab's fact
    check does. Example: fact_segments("Wait 30 days.", {"t": "30 days"})
    -> [["Wait ", None], ["30 days", "t"], [".", None]]
    """
    patterns = [(name, re.compile(r"\s+".join(map(re.escape, phrase.split())), re.I)) for name, phrase in facts.items()]
    spans = sorted((m.start(), m.end(), name) for name, pattern in patterns for m in pattern.finditer(text))
    segments, at = [], 0
    for start, end, name in spans:
        if start < at:
            continue  # overlapping phrases: the first one wins
        if start > at:
            segments.append([text[at:start], None])
        segments.append([text[start:end], name])
        at = end
    if at < len(text):
        segments.append([text[at:], None])
    return segments


def load_content(root: Path, out: ProblemLog) -> ChunkingPage | None:
    return load_page(root / "chunking-lab.md", out)


def texts_to_embed(page: ChunkingPage) -> list[str]:
    """The lab's questions and every chunk of every setting: the embed stage embeds them."""
    return [q.question for q in page.questions] + [text for texts in all_chunks(page.markdown).values() for text in texts]


def data(build) -> dict:
    page = build.content.labs["chunking"]
    chunks = all_chunks(page.markdown)
    vectors = {setting: np.asarray([build.vector_of[t] for t in texts]) for setting, texts in chunks.items()}
    question_vectors = {q.id: build.vector_of[q.question] for q in page.questions}
    settings = score_chunks(page.markdown, page.facts, chunks, vectors, question_vectors)
    lab = {"title": page.title, "markdown": page.markdown, "facts": page.facts,
           "questions": [{"id": q.id, "text": q.question} for q in page.questions], "settings": settings}
    return lab | {"outcomes": chunk_outcomes(lab),
                  "segments": {s["id"]: [fact_segments(c["text"], page.facts) for c in s["chunks"]] for s in settings}}
