"""`python build.py trace "question"`: one question's path through every retrieval stage,
for authors tuning the corpus."""

from pathlib import Path

from engine.bm25 import BM25, unique_terms
from engine.corpus import load_corpus
from engine.dense import model_fingerprint
from engine.evaluate import rank_of
from engine.settings import BM25_B, BM25_K1, FUSION_DEPTH, MODEL_LABEL, RRF_K

from builder.embed_cache import EmbeddingCache
from builder.search import Question, run_question


def run(question: str, corpus_dir: Path, cache_dir: Path, top: int = 8) -> None:
    corpus = load_corpus(corpus_dir)
    cache = EmbeddingCache(cache_dir, model_fingerprint())
    texts = [p.text for p in corpus.passages]
    vectors = cache.embed(texts + [question])
    cache.save()
    ids = [p.id for p in corpus.passages]
    index = BM25(texts)
    runs = run_question(Question("trace", question, "probe"), ids, index, vectors[:-1], vectors[-1])
    golden = next((g for g in corpus.golden if g.question.strip().lower() == question.strip().lower()), None)
    tracer = next((t for t in corpus.tracers if t.question.strip().lower() == question.strip().lower()), None)
    answer = golden.answer_id if golden else tracer.answer_id if tracer else None

    print(f"Question: {question}")
    print(f"Terms: {' '.join(unique_terms(question))}")

    def mark(pid: str) -> str:
        return "  <- answer" if pid == answer else ""

    print(f"\nDense ({MODEL_LABEL}, cosine), top {top}:")
    for rank, (pid, score) in enumerate(runs["dense"][:top], start=1):
        print(f"  {rank:>2}. {score:7.4f}  {pid}{mark(pid)}")
    print(f"\nBM25 (k1={BM25_K1}, b={BM25_B}), top {top}, with each term's share:")
    for rank, (pid, score) in enumerate(runs["bm25"][:top], start=1):
        parts = ", ".join(f"{c.term} {c.score:.3f}" for c in index.explain(question, ids.index(pid)) if c.tf)
        print(f"  {rank:>2}. {score:7.4f}  {pid}{mark(pid)}   [{parts}]")
    if not runs["bm25"]:
        print("  (no passage shares a term with the question)")
    print(f"\nHybrid (RRF, k={RRF_K}, each retriever's top {FUSION_DEPTH}):")
    for rank, (pid, score) in enumerate(runs["hybrid"][:top], start=1):
        print(f"  {rank:>2}. {score:7.4f}  {pid}{mark(pid)}")
    if answer:
        where = golden.id if golden else f"tracer {tracer.id}"
        ranks = ", ".join(f"{name} {rank_of([pid for pid, _ in run], answer) or 'not found'}"
                          for name, run in runs.items())
        print(f"\nRight passage ({where}): {answer}: {ranks}")
