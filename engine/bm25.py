"""BM25 keyword scoring with Lucene's IDF, over an inverted index.

    IDF(t)        = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))
    score(q, d)   = sum over distinct terms t of q:
                    IDF(t) * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avgLen))

where N is the number of texts, n_t how many contain t, f how often t occurs in d.
Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond" (2009);
the IDF is Lucene's, which never goes negative. Lucene itself, since version 8, leaves the
(k1 + 1) out of the numerator: its scores are these divided by k1 + 1, in the same order.

Twin: site_src/engine/bm25.js (uniqueTerms, BM25 and its methods), proven equal by tests/twins/ (to 1e-12: the
logarithm may differ in its last bit between C and JavaScript).

Example: BM25(["qb 4021 file limit", "qb"]).scores("QB-4021") -> [0.7029..., 0.2416...]
"""

import math
from dataclasses import dataclass

from engine.settings import BM25_B, BM25_K1
from engine.tokenize import tokenize


@dataclass(frozen=True)
class TermContribution:
    """One query term's share of one text's score, with the parts it is made of."""

    term: str
    idf: float
    tf: int
    tf_part: float  # f * (k1 + 1) / (f + k1 * (1 - b + b * len / avgLen))
    score: float  # idf * tf_part


def unique_terms(query: str) -> list[str]:
    """The query's terms, each once, in the order they first appear."""
    return list(dict.fromkeys(tokenize(query)))


class BM25:
    def __init__(self, texts: list[str], k1: float = BM25_K1, b: float = BM25_B):
        self.k1 = k1
        self.b = b
        docs = [tokenize(text) for text in texts]
        self.lengths = [len(doc) for doc in docs]
        self.n_docs = len(docs)
        self.avg_len = sum(self.lengths) / self.n_docs if self.n_docs else 0.0
        # term -> list of (text index, term frequency), in text order
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for index, doc in enumerate(docs):
            counts: dict[str, int] = {}
            for term in doc:
                counts[term] = counts.get(term, 0) + 1
            for term, count in counts.items():
                self.postings.setdefault(term, []).append((index, count))

    def extend(self, other: "BM25") -> "BM25":
        """Append the texts `other` indexes (they follow this index's texts) to this index, which
        is then the one a single call over all the texts builds: the same postings, in the same
        order, and the same lengths and average. So a long run of texts can be indexed a part at a
        time (the reader's documents are, between the page's frames). Returns this index.

        Example: BM25(["qb 4021 file limit"]).extend(BM25(["qb"])).scores("QB-4021") -> [0.7029..., 0.2416...]
        """
        if (other.k1, other.b) != (self.k1, self.b):
            raise ValueError(f"BM25.extend: k1 and b differ ({other.k1}, {other.b} against {self.k1}, {self.b})")
        for term, postings in other.postings.items():
            self.postings.setdefault(term, []).extend((index + self.n_docs, count) for index, count in postings)
        self.lengths += other.lengths
        self.n_docs = len(self.lengths)
        self.avg_len = sum(self.lengths) / self.n_docs if self.n_docs else 0.0
        return self

    def doc_freq(self, term: str) -> int:
        return len(self.postings.get(term, ()))

    def idf(self, term: str) -> float:
        n = self.doc_freq(term)
        return math.log(1 + (self.n_docs - n + 0.5) / (n + 0.5))

    def tf_part(self, tf: int, length: int) -> float:
        norm = self.k1 * (1 - self.b + self.b * length / self.avg_len)
        return tf * (self.k1 + 1) / (tf + norm)

    def scores(self, query: str) -> list[float]:
        """One score per text, in text order; 0.0 where no query term occurs."""
        totals = [0.0] * self.n_docs
        for term in unique_terms(query):
            idf = self.idf(term)
            for index, tf in self.postings.get(term, ()):
                totals[index] += idf * self.tf_part(tf, self.lengths[index])
        return totals

    def explain(self, query: str, index: int) -> list[TermContribution]:
        """How each distinct query term adds to the score of text `index` (0 where absent)."""
        parts = []
        for term in unique_terms(query):
            tf = dict(self.postings.get(term, ())).get(index, 0)
            idf = self.idf(term)
            tf_part = self.tf_part(tf, self.lengths[index]) if tf else 0.0
            parts.append(TermContribution(term, idf, tf, tf_part, idf * tf_part))
        return parts
