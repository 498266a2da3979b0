"""The page's figures, each drawn from the build's data. A section names one with
{{ figure("name") }}; FIGURES lists them all.

Diagrams and bar charts are inline SVG drawn by builder/page/draw.py; two figures are code:
a request shown but not run, and the illustrative reply it asks for.

Example: FIGURES["pipeline"](facts) -> '<figure class="figure" id="fig-pipeline">…'
"""

import json

from markupsafe import Markup

from builder.page.draw import flow, score_bars
from builder.page.errors import SampleError
from builder.page.highlight import JsonLexer, PythonLexer, highlight
from builder.page.samples import SAMPLES

SCALES_SHOWN = 4            # each retriever's best few, on one axis
MISMATCH_SHOWN = 4          # BM25's best few, drawn above the right passage
# Shown, compiled, never run (it needs an API key): a subfolder, so the sample runner and
# tests/site/test_samples.py, which take only site_src/samples/*.py, never execute it.
NOT_RUN = SAMPLES / "not-run"


def followed(facts, field: str) -> str:
    """The question or passage the corpus's page.yaml names for `field` (builder/page/page_config.py):
    showcase (the pipeline figures), score_scales, vocabulary_mismatch, structured_reply."""
    value = facts.data["page"].get(field)
    if value is None:
        raise KeyError(f"the corpus's page.yaml names no {field} (fix: add '{field}: <id>' to it, "
                       "see corpus/README.md)")
    return value


def term_link(slug: str, shown: str) -> Markup:
    """A glossary link, as the prose's [[term]] makes one (builder/page/glossary.py)."""
    return Markup('<a class="term" href="#term-{0}">{1}</a>').format(slug, shown)


def three_steps(facts) -> str:
    preview = followed(facts, "showcase")
    q = facts.question(preview)
    top3 = facts.ids(preview, "hybrid", 3)
    return flow(
        "fig-three-steps", "RAG in three steps",
        f"A question, '{q['text']}', is searched for in the help center; the best passages "
        f"({', '.join(top3)}) go into the prompt; the model answers from them and cites them.",
        [("", [("1 · Search", [f"the question against {facts.namespace()['n_passages']} help passages"]),
               ("2 · Pick", ["the best few:", ", ".join(top3)]),
               ("3 · Answer", ["from those passages only, citing each by its id"])])],
        Markup("Searching first, then answering from what was found. The passages in step 2 are the real "
               "top three of the {} for “{}”.").format(term_link("hybrid-search", "hybrid search"), q["text"]))


def pipeline(facts) -> str:
    preview = followed(facts, "showcase")
    q = facts.question(preview)
    ns = facts.namespace()
    dense_top, bm25_top, hybrid_top = (facts.top(preview, r) for r in ("dense", "bm25", "hybrid"))
    return flow(
        "fig-pipeline", "The RAG pipeline: indexing offline, querying online",
        "Indexing: load each page with its source, chunk it, index every chunk twice (keywords and vectors), "
        "store text, vector and metadata. Querying: know who asks, optionally rewrite the question, retrieve "
        "with both indexes, fuse and rerank, build the prompt, generate, check the citations. "
        f"For the question '{q['text']}', dense search ranks {dense_top} first, BM25 ranks {bm25_top} first, "
        f"and the fused list starts with {hybrid_top}.",
        [("Indexing · offline, whenever the help center changes",
          [("Load", ["each page with its URL, date, owner"]),
           ("Chunk", [f"cut pages into {ns['n_passages']} passages"]),
           ("Index twice", [f"BM25 terms, and {ns['data']['model']['dimensions']}-number vectors"]),
           ("Store", ["text + vector + metadata (ACL, date)"])]),
         ("Querying · online, for every question",
          [("Who asks", ["their groups decide what may be searched"]),
           ("Retrieve", [f"dense: {dense_top};", f"BM25: {bm25_top}"]),
           ("Fuse, rerank", [f"RRF: {hybrid_top} first, then rerank"]),
           ("Prompt", ["rules, sources best first, the question"]),
           ("Generate, check", ["an answer citing ids; code checks the quotes"])])],
        f"The two halves of a RAG system. The querying row shows where “{q['text']}” really goes: "
        f"the first passage each retriever returned in this build.")


def score_scales(facts) -> str:
    """Dense and BM25 scores of one question on one axis: the two scales side by side."""
    scales = followed(facts, "score_scales")
    q = facts.question(scales)
    answer = q["answer"]
    rows = [(f"dense {i} · {pid}", score, pid == answer)
            for i, (pid, score) in enumerate(facts.run(scales, "dense")[:SCALES_SHOWN], start=1)]
    rows += [(f"BM25 {i} · {pid}", score, pid == answer)
             for i, (pid, score) in enumerate(facts.run(scales, "bm25")[:SCALES_SHOWN], start=1)]
    return score_bars(
        "fig-score-scales", f"Dense and BM25 scores for “{q['text']}” on one axis", rows,
        Markup("Each retriever's top {} for “{}”, drawn to the same scale. Cosine similarities "
               "stay below 1; BM25 scores have no upper bound. The right passage, <code>{}</code>, "
               "is highlighted where it appears.").format(SCALES_SHOWN, q["text"], answer),
        digits=3)


def vocab_mismatch(facts) -> str:
    mismatch = followed(facts, "vocabulary_mismatch")
    q = facts.question(mismatch)
    answer = q["answer"]
    bm25 = facts.run(mismatch, "bm25")
    rank = facts.rank(mismatch, "bm25")
    rows = [(f"{i} · {pid}", score, pid == answer) for i, (pid, score) in enumerate(bm25[:MISMATCH_SHOWN], start=1)]
    if rank is None or rank > MISMATCH_SHOWN:
        rows.append((f"{rank} · {answer}" if rank else f"– · {answer}", facts.score(mismatch, "bm25", answer), True))
    return score_bars(
        "fig-vocab-mismatch", f"BM25 scores for “{q['text']}”",
        rows,
        Markup("BM25's first {} results for “{}” and, highlighted, the passage that answers it, "
               "<code>{}</code>, at rank {} of the {} passages that share a word with the question. "
               "Dense search ranks it {}.").format(MISMATCH_SHOWN, q["text"], answer, rank, len(bm25),
                                                  facts.rank(mismatch, "dense")), digits=3)


def structured_request(facts) -> Markup:
    path = NOT_RUN / "structured_output.py"
    source = path.read_text("utf-8")
    try:
        compile(source, str(path), "exec")
    except SyntaxError as error:
        raise SampleError(f"{path}:{error.lineno}: {error.msg} (it is shown on the page, though not run)") from error
    code = highlight(source, PythonLexer())
    base = "sample-structured-output"
    return Markup(
        '<figure class="sample sample-not-run" id="{0}" aria-label="Code sample: a structured-output request, not run">'
        '<p class="sample-caption"><span class="not-run-label">Not run: needs an API key</span> '
        'Asking for structured claims, and checking the reply before reading it.</p>'
        '<div class="sample-bar"><div class="sample-tabs" role="tablist" aria-label="Language">'
        '<button type="button" role="tab" id="{0}-py-tab" aria-controls="{0}-py" aria-selected="true" tabindex="0" '
        'data-lang="py">Python</button></div>'
        '<button type="button" class="copy" aria-label="Copy the code">Copy</button></div>'
        '<div class="sample-code" role="tabpanel" id="{0}-py" aria-labelledby="{0}-py-tab" data-lang="py">'
        '<pre tabindex="0"><code>{1}</code></pre></div>'
        '<figcaption class="sample-output"><p class="not-run-label">Not run</p>'
        '<p class="not-run-text">The build compiles this program but never sends the request: no language model '
        'runs for this page. Its checks are tested offline on made-up responses.</p></figcaption></figure>'
    ).format(base, code)


def structured_reply(facts) -> Markup:
    tracer = facts.tracer(followed(facts, "structured_reply"))
    reply = {"answer": tracer["answer_text"],
             "claims": [{"text": c["text"], "source_id": c["source"], "quote": c["quote"]} for c in tracer["claims"]]}
    text = json.dumps(reply, indent=2, ensure_ascii=False)
    return Markup(
        '<div class="illustrative structured-reply"><p class="illustrative-label">Illustrative · a reply in that shape, '
        'written by hand</p><pre class="highlight" tabindex="0"><code>{}</code></pre></div>'
    ).format(highlight(text, JsonLexer()))


FIGURES = {
    "three-steps": three_steps,
    "pipeline": pipeline,
    "score-scales": score_scales,
    "vocab-mismatch": vocab_mismatch,
    "structured-request": structured_request,
    "structured-reply": structured_reply,
}
