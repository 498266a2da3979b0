"""The build's stages in order: load -> embed -> search -> chunk lab -> evaluate -> tokens
-> assemble data -> render -> write. Each stage is a call into engine/ or builder/."""

import importlib
import pkgutil
import sys
from pathlib import Path

import numpy as np

import builder
from engine.bm25 import BM25
from engine.corpus import load_corpus
from engine.dense import model_fingerprint, resolve_model

from builder import chunk_lab
from builder.claims import claim_report
from builder.data import page_data, questions_of
from builder.embed_cache import EmbeddingCache, text_key
from builder.minify import minify_css, minify_js
from builder.output import StagedOutput, to_json
from builder.render_corpus import render_corpus_page
from builder.render_page import RenderedPage, render_page
from builder.report import build_report, changed_figures, previous_data
from builder.reranking import rerank_data
from builder.retrieval import answer_ranks, recall_table, run_question, Question
from builder.rewriting import rewrite_record, rewrite_texts
from builder.stages import StageLog
from builder.templates import SITE_SRC
from builder.tokens import cached_token_counts, token_counts
from builder.worked_example import worked_example


def compute(corpus_dir: Path, cache_dir: Path, log: StageLog, strict: bool = True):
    """(corpus, page data, what was embedded anew): everything the page shows, from the corpus.
    `strict=False` turns hand-written data that no longer matches the numbers into warnings."""
    with cached_token_counts(cache_dir):  # token counts by text hash: no encoding load on a no-op
        return _compute(corpus_dir, cache_dir, log, strict)


def _compute(corpus_dir: Path, cache_dir: Path, log: StageLog, strict: bool = True):
    with log.stage("load corpus") as stage:
        corpus = load_corpus(corpus_dir)
        stage.summary = (f"{len(corpus.passages)} passages, {len(corpus.golden)} golden, "
                         f"{len(corpus.tracers)} tracers, {len(corpus.glossary)} terms")
    questions = questions_of(corpus)
    lab = corpus.chunking_lab
    chunks = chunk_lab.all_chunks(lab.markdown)

    with log.stage("embed") as stage:
        cache = EmbeddingCache(cache_dir, model_fingerprint())
        passage_texts = [p.text for p in corpus.passages]
        chunk_texts = [text for setting_chunks in chunks.values() for text in setting_chunks]
        query_texts = ([q.text for q in questions] + [q.question for q in lab.questions]
                       + rewrite_texts(corpus.rewrites))
        every_text = passage_texts + query_texts + chunk_texts
        matrix = cache.embed(every_text, progress=log.progress("embedding"))
        cache.save(keep={text_key(t) for t in every_text})
        vector_of = dict(zip(every_text, matrix))
        stage.summary = f"{len(vector_of)} texts, {cache.stats.computed} newly embedded"
        names = {p.text: p.id for p in corpus.passages} | {q.text: q.id for q in questions}
        embedded = [names.get(text, f"“{text[:30]}…”") for text in cache.stats.computed_texts]

    with log.stage("search") as stage:
        ids = [p.id for p in corpus.passages]
        index = BM25(passage_texts)
        passage_vectors = matrix[:len(passage_texts)]

        def search(text: str) -> dict:
            return run_question(Question("", text, ""), ids, index, passage_vectors, vector_of[text])

        runs = {q.id: search(q.text) for q in questions}
        rewrites = [rewrite_record(r, search) for r in corpus.rewrites]
        stage.summary = (f"{len(questions)} questions + {len(rewrite_texts(corpus.rewrites))} rewrites "
                         f"x dense, BM25, hybrid over {len(ids)} passages")

    with log.stage("rerank") as stage:
        rerank = rerank_data(corpus, questions, runs, strict=strict)
        stage.summary = f"{len(rerank['by_question'])} questions, {rerank['model'] or 'illustrative scores'}"

    with log.stage("chunking lab") as stage:
        chunk_vectors = {setting: [vector_of[t] for t in texts] for setting, texts in chunks.items()}
        lab_vectors = {q.id: vector_of[q.question] for q in lab.questions}
        lab_settings = chunk_lab.lab_data(lab.markdown, lab.facts, chunks,
                                          {s: np.asarray(v) for s, v in chunk_vectors.items()},
                                          lab_vectors)
        stage.summary = f"{len(lab_settings)} settings, {len(chunk_texts)} chunks, {len(lab.questions)} questions"

    with log.stage("evaluate") as stage:
        golden = [q for q in questions if q.set == "golden"]
        recall = recall_table(answer_ranks(runs, golden))
        stage.summary = "recall@1 " + ", ".join(f"{name} {hits}/{total}" for name, (hits, total)
                                                 in ((n, r["1"]) for n, r in recall.items()))

    with log.stage("tokens") as stage:
        tokens = token_counts(corpus.passages)
        stage.summary = f"help center {tokens['help_center']['o200k']:,} tokens ({tokens['tokenizer']})"

    _, how = resolve_model()
    model = {"name": "all-MiniLM-L6-v2", "source": how, "dimensions": 384, "normalized": True}
    data = page_data(corpus, questions, runs, lab_settings, tokens, model)
    data.update(rerank=rerank, rewrites=rewrites, worked_example=worked_example(corpus.worked_example))
    for name, extra in extra_data(corpus, data).items():
        if name in data:
            raise ValueError(f"builder/extra_*.py: key '{name}' is already in the page's data")
        data[name] = extra
    # `embedded` stays out of the data: it differs between a cold and a warm build.
    return corpus, data, embedded


def extra_data(corpus, data: dict) -> dict:
    """Data a lab needs beyond the core: each builder/extra_<topic>.py has extra(corpus, data) -> dict."""
    extras = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(builder.__path__) if m.name.startswith("extra_")):
        extras.update(importlib.import_module(f"builder.{module}").extra(corpus, data))
    return extras


def render(data: dict, cache_dir: Path, log: StageLog, strict_claims: bool = True) -> RenderedPage:
    with log.stage("render page") as stage:
        page = render_page(data, cache_dir, strict_claims=strict_claims,
                           progress=log.progress("running samples"))
        held = sum(result.held for result in page.claims)
        ran = sum(not run.cached for run in page.samples)
        stage.summary = (f"{len(page.claims)} claims ({held} held), {len(page.samples)} samples "
                         f"({ran} run, {len(page.samples) - ran} cached)")
    return page


def build_site(corpus_dir: Path, out_dir: Path, cache_dir: Path, strict_claims: bool = True) -> dict:
    log = StageLog()
    corpus, data, embedded = compute(corpus_dir, cache_dir, log, strict=strict_claims)
    page = render(data, cache_dir, log, strict_claims=strict_claims)
    failed = [result for result in page.claims if not result.held]
    if failed:
        print(f"warning: {len(failed)} claim(s) do not hold; the page says something the numbers don't:\n"
              + "\n".join("  " + result.describe() for result in failed), file=sys.stderr)
    previous = previous_data(out_dir)
    staged = StagedOutput(out_dir)
    try:
        with log.stage("write") as stage:
            staged.write("index.html", page.html)
            staged.write("assets/app.js", minify_js(page.app_js))
            for asset in sorted((SITE_SRC / "assets").iterdir()):
                if asset.suffix == ".css":
                    staged.write(f"assets/{asset.name}", minify_css(asset.read_text("utf-8")))
                elif asset.is_file():
                    staged.copy(asset, f"assets/{asset.name}")
            staged.write("data/rag.json", to_json(data))
            staged.write("corpus.html", render_corpus_page(corpus, data))
            stage.summary = "index.html, corpus.html, assets/, data/rag.json"
        staged.commit()
    except BaseException:
        staged.discard()
        raise
    print(build_report(embedded, [run.name for run in page.samples if not run.cached],
                       changed_figures(previous, data), first_build=previous is None))
    return data


def list_claims(corpus_dir: Path, cache_dir: Path) -> int:
    """`build.py claims`: every checked claim on the page, held or failed. Exit 1 if any failed."""
    log = StageLog()
    _, data, _ = compute(corpus_dir, cache_dir, log, strict=False)
    page = render(data, cache_dir, log, strict_claims=False)
    print(claim_report(page.claims))
    return 0 if all(result.held for result in page.claims) else 1
