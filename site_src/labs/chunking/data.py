"""The chunking lab: one help page (corpus/chunking-lab.md) cut by a chunker the reader sets,
every chunk scored against the lab's two questions by real MiniLM cosine, and what ranks first.

The sliders offer a grid of settings (GRID): fixed-size chunks of 5 to 40 words with an
overlap of up to half the size, and whole sentences up to a word limit with 0 to 2 sentences
repeated; plus one chunk per heading and the whole page. The page is read and cut by
engine/documents.py (prose_of, page_text, chunk_with, over engine/chunking.py's chunkers); the
browser cuts it itself with their JavaScript twins (site_src/engine/documents.js and
chunking.js); the build embeds every chunk
any point of the grid can produce and ships, per distinct chunk text, its cosine to each
question, keyed by a short hash of the text (text_key). The six settings the prose compares
(PRESETS) are points of that grid; their chunks, ranks and outcomes stay in the build's data
for the prose's claims.

Example: chunk_with({"chunker": "fixed", "size": 12, "overlap": 0}, "## Trash\nNotes stay in the Trash for 30 days.")
         -> ['Notes stay in the Trash for 30 days.']
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from engine.chunking import words
from engine.citations import normalize
from engine.corpus_files import read_text, split_front_matter
from engine.documents import chunk_with, page_text, prose_of  # noqa: F401 (the lab's cuts, read by its tests too)
from engine.fields import check_id, check_url, required_str
from engine.problems import ProblemLog
from engine.ranking import best_first
from engine.text_key import text_key as engine_text_key

# The state the page opens on: the chunker, the settings of each chunker's sliders (kept while
# another chunker is shown), and the question.
STATE = {"chunker": "fixed", "size": 25, "overlap": 0, "limit": 40, "repeat": 1, "q": "q1"}
# The browser's twins of engine/chunking.py and engine/documents.py cut the page for any setting.
SCRIPTS = ("engine",)
# For the prose's claims only: the presets' chunks and outcomes, and the sweep of the fixed-size grid.
BUILD_ONLY = ("settings", "outcomes", "sweep")
# The facts each question needs (chunking-lab.md names them; corpus/README.md says which
# question needs which): a chunk holding all of them answers the question.
NEEDS = {"q1": ("safety_net", "extra_days"), "q2": ("extra_days",)}

CHUNKERS = (("fixed", "Fixed size"), ("sentences", "Sentences"), ("headings", "By heading"), ("page", "Whole page"))
# Each slider's range, every whole number from low to high: fixed size and overlap in words
# (the overlap also at most half the size), the sentence chunker's word limit and the number
# of sentences it repeats.
GRID = {"size": (5, 40), "overlap": (0, 20), "limit": (5, 80), "repeat": (0, 2)}
SCORE_DIGITS = 4  # cosines as shipped, and as every rank (the view's and the prose's) reads them


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


PRESETS = (
    ("fixed-12", "Fixed, 12 words", {"chunker": "fixed", "size": 12, "overlap": 0}),
    ("fixed-25", "Fixed, 25 words", {"chunker": "fixed", "size": 25, "overlap": 0}),
    ("fixed-25-overlap-10", "Fixed, 25 words, 10 overlap", {"chunker": "fixed", "size": 25, "overlap": 10}),
    ("sentences-40", "Sentences, up to 40 words, 1 overlap", {"chunker": "sentences", "limit": 40, "repeat": 1}),
    ("headings", "By heading", {"chunker": "headings"}),
    ("page", "Whole page", {"chunker": "page"}),
)
SETTINGS = tuple((setting, label) for setting, label, _ in PRESETS)


def max_overlap(size: int) -> int:
    return min(size // 2, GRID["overlap"][1])


def chunk_page(setting_id: str, markdown: str) -> list[str]:
    """The page cut by one of the presets, by its id."""
    return chunk_with(next(state for setting, _, state in PRESETS if setting == setting_id), markdown)


def grid_settings() -> list[dict]:
    """Every setting the sliders offer (each chunker's own keys only), the presets among them."""
    low, high = GRID["size"]
    fixed = [{"chunker": "fixed", "size": size, "overlap": overlap}
             for size in range(low, high + 1) for overlap in range(GRID["overlap"][0], max_overlap(size) + 1)]
    sentences = [{"chunker": "sentences", "limit": limit, "repeat": repeat}
                 for limit in range(GRID["limit"][0], GRID["limit"][1] + 1)
                 for repeat in range(GRID["repeat"][0], GRID["repeat"][1] + 1)]
    return fixed + sentences + [{"chunker": "headings"}, {"chunker": "page"}]


@lru_cache(maxsize=8)  # the embed stage and the data step both ask
def grid_texts(markdown: str) -> tuple[str, ...]:
    """Every distinct chunk any setting of the grid makes, in the order first made."""
    return tuple(dict.fromkeys(text for setting in grid_settings() for text in chunk_with(setting, markdown)))


# The key of a chunk's text in the shipped scores (engine/text_key.py; the view computes the same
# with RAG.engine.textKey). Cached: the grid keys the same few hundred texts many times over.
text_key = lru_cache(maxsize=None)(engine_text_key)


def score_table(texts: list[str], vector_of, question_vectors: list[np.ndarray]) -> dict[str, list[float]]:
    """text_key -> the text's cosine to each question, rounded to SCORE_DIGITS.

    Two texts with one key would share scores: refused, naming both (an edit of the page can
    cause it; changing a word of either text clears it).
    """
    table, first = {}, {}
    for text in texts:
        key = text_key(text)
        if key in first and first[key] != text:
            raise ValueError(f"corpus/chunking-lab.md: two chunks of the sliders' grid share the key {key}: "
                             f"“{first[key][:60]}…” and “{text[:60]}…” (fix: reword either, or change "
                             "engine/text_key.py)")
        first[key] = text
        vector = np.asarray(vector_of[text])
        table[key] = [round(float(vector @ question), SCORE_DIGITS) for question in question_vectors]
    return table


def facts_in(text: str, facts: dict[str, str]) -> list[str]:
    """Names of the fact phrases this chunk holds whole."""
    return [name for name, phrase in facts.items() if normalize(phrase) in normalize(text)]


def score_chunks(facts: dict[str, str], chunks: dict[str, list[str]], question_ids: list[str],
                 table: dict[str, list[float]]) -> list[dict]:
    """The presets, each chunk with its words, the facts it holds, and its score and rank per
    question (ties keep page order, as the view's ranking does)."""
    settings = []
    for setting, label in SETTINGS:
        texts = chunks[setting]
        scores = {qid: [table[text_key(text)][column] for text in texts] for column, qid in enumerate(question_ids)}
        ranks = {qid: _ranks(s) for qid, s in scores.items()}
        settings.append({
            "id": setting,
            "label": label,
            "chunks": [{"text": text, "words": len(words(text)), "facts": facts_in(text, facts),
                        "scores": {qid: scores[qid][i] for qid in scores},
                        "ranks": {qid: ranks[qid][i] for qid in ranks}}
                       for i, text in enumerate(texts)],
        })
    return settings


def _ranks(scores: list[float]) -> list[int]:
    """Each chunk's rank, best first, ties in page order (engine/ranking.py best_first)."""
    ranks = [0] * len(scores)
    order = best_first(scores)
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


def fixed_sweep(markdown: str, facts: dict[str, str], question_ids: list[str], table: dict[str, list[float]]) -> dict:
    """Every fixed-size setting the sliders reach, and for each question those whose top chunk
    holds every fact it needs, as [size, overlap] pairs (for the prose's claims).

    Example: -> {"settings": 432, "q1": [[16, 0], ...], "q2": [...]}
    """
    fixed = [s for s in grid_settings() if s["chunker"] == "fixed"]
    sweep = {"settings": len(fixed)} | {qid: [] for qid in question_ids}
    for setting in fixed:
        texts = chunk_with(setting, markdown)
        for column, qid in enumerate(question_ids):
            scores = [table[text_key(text)][column] for text in texts]
            top = texts[_ranks(scores).index(1)]
            if NEEDS.get(qid) and set(NEEDS[qid]) <= set(facts_in(top, facts)):
                sweep[qid].append([setting["size"], setting["overlap"]])
    return sweep


def load_content(root: Path, out: ProblemLog) -> ChunkingPage | None:
    return load_page(root / "chunking-lab.md", out)


def texts_to_embed(page: ChunkingPage) -> list[str]:
    """The lab's questions and every chunk the sliders' grid can make: the embed stage embeds them."""
    return [q.question for q in page.questions] + list(grid_texts(page.markdown))


def data(build) -> dict:
    page = build.content.labs["chunking"]
    questions = [{"id": q.id, "text": q.question} for q in page.questions]
    table = score_table(grid_texts(page.markdown), build.vector_of, [build.vector_of[q.question] for q in page.questions])
    chunks = {setting: chunk_page(setting, page.markdown) for setting, _ in SETTINGS}
    settings = score_chunks(page.facts, chunks, [q["id"] for q in questions], table)
    lab = {"title": page.title, "markdown": page.markdown, "facts": page.facts, "questions": questions,
           "needs": {q["id"]: list(NEEDS.get(q["id"], ())) for q in questions},
           "chunkers": [{"id": chunker, "label": label} for chunker, label in CHUNKERS],
           "presets": [{"id": setting, "label": label, "state": state} for setting, label, state in PRESETS],
           "grid": GRID, "start": {key: STATE[key] for key in GRID}, "scores": table, "settings": settings}
    return lab | {"outcomes": chunk_outcomes(lab),
                  "sweep": fixed_sweep(page.markdown, page.facts, [q["id"] for q in questions], table)}


def summary(own: dict) -> str:
    """The build log's words for this lab's data. Example: summary({"settings": [{"chunks": [1, 2]}]}) -> '2 chunks'"""
    return f"{sum(len(setting['chunks']) for setting in own['settings'])} chunks"
