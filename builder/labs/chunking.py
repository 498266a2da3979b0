"""The chunking lab: cut one page six ways and score every chunk against the lab questions."""

import re

import numpy as np

from engine.chunking import chunk_fixed, chunk_headings, chunk_sentences, split_sentences, words
from engine.citations import normalize

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


def lab_data(markdown: str, facts: dict[str, str], chunks: dict[str, list[str]],
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
