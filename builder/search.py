"""Search every question the page shows with both retrievers, fuse, and measure.

The runs the page shows (data.runs) search every passage. The golden set is measured as
production would answer it: each question under its reader's permissions (a pre-filter: the
reader's readable passages only, fused from what is left), ties counted as ties
(engine/evaluate.py hit_place: the best right passage's place, first..last).

Example: recall_table({"q1": {"bm25": (2, 2), "dense": (1, 1), "hybrid": (1, 2)}})["hybrid"]["1"]
         -> {"hits": 0, "with_ties": 1, "of": 1}

Pure functions over the corpus and precomputed vectors: no model here. How scores become
ranked lists (the rounding, the ties) is engine/ranking.py's.
"""

from dataclasses import dataclass

from engine.access import as_reader
from engine.bm25 import BM25
from engine.evaluate import hit_place, hits_at_k, share_found
from engine.ranking import bm25_ranking, dense_ranking, hybrid_ranking
from engine.settings import RECALL_KS

RETRIEVERS = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    set: str  # "golden", "tracer", "unanswerable", "lab" or "probe"
    answers: tuple[str, ...] = ()  # every passage that answers it; none for a question nothing answers
    group: str = ""                # a golden question's group: words, paraphrase or typed
    reader: str = "customer"       # whose permissions the search runs under when it is measured

    @property
    def answer_id(self) -> str | None:
        return self.answers[0] if self.answers else None

    @property
    def paraphrase(self) -> bool:
        return self.group == "paraphrase"


def run_question(question: Question, ids, index: BM25, passage_vectors, query_vector) -> dict:
    dense = dense_ranking(ids, passage_vectors, query_vector)
    bm25 = bm25_ranking(ids, index, question.text)
    return {"dense": dense, "bm25": bm25, "hybrid": hybrid_ranking(dense, bm25)}


def golden_runs(runs: dict, golden: list[Question], acl: dict, readers: dict[str, list[str]]) -> dict:
    """question id -> its run as its reader gets it (readers: role -> ACL groups; engine/access.py as_reader)."""
    return {q.id: as_reader(runs[q.id], acl, readers[q.reader]) for q in golden}


def answer_places(runs: dict[str, dict], golden: list[Question]) -> dict[str, dict[str, list[int] | None]]:
    """question id -> retriever -> [first, last]: the place of its best-ranked right passage in the
    run given (ties spanning first..last), or None when no right passage is in the list."""
    def place(ranking, question):
        found = hit_place([tuple(pair) for pair in ranking], question.answers)
        return list(found) if found else None
    return {q.id: {name: place(runs[q.id][name], q) for name in RETRIEVERS} for q in golden}


def recall_table(places: dict[str, dict], ks=RECALL_KS) -> dict[str, dict[str, dict]]:
    """retriever -> str(k) -> {hits: sure hits, with_ties: hits if every tie at k went the right
    passage's way, of: questions}."""
    table = {}
    for name in RETRIEVERS:
        found = [tuple(by[name]) if by[name] else None for by in places.values()]
        table[name] = {str(k): dict(zip(("hits", "with_ties", "of"), hits_at_k(found, k))) for k in ks}
    return table


def share_table(runs: dict[str, dict], golden: list[Question], ks=RECALL_KS) -> dict[str, dict[str, dict]]:
    """retriever -> str(k) -> recall as the share of right passages found, over the questions that
    have several: {found, of (passages), questions}."""
    several = [q for q in golden if len(q.answers) > 1]
    table = {}
    for name in RETRIEVERS:
        table[name] = {}
        for k in ks:
            counts = [share_found([tuple(p) for p in runs[q.id][name]], q.answers, k) for q in several]
            table[name][str(k)] = {"found": sum(f for f, _ in counts), "of": sum(n for _, n in counts),
                                   "questions": len(several)}
    return table


def hits_text(entry: dict) -> str:
    """A recall table's hits as the page writes them: "26", or "26–27" when ties at k leave it open.

    Example: [hits_text({"hits": 26, "with_ties": 27, "of": 30}), hits_text({"hits": 9, "with_ties": 9, "of": 30})]
             -> ['26–27', '9']
    """
    return str(entry["hits"]) if entry["with_ties"] == entry["hits"] else f"{entry['hits']}\u2013{entry['with_ties']}"
