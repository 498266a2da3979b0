"""Every function of the engine the browser runs, beside its JavaScript twin in RAG.engine
(site_src/engine/<module>.js), and the fixtures (tests/twins/fixtures.py) both are run on.
tests/twins/test_twins.py runs each pair and requires the same results, bit for bit unless the
pair says how close (`same`); it also fails when a function a site_src/engine/*.js file exports
has no pair here, so a twin cannot be forgotten.

A pair's `call`, where given, is how the Python function is called with a case's arguments when
the two signatures differ (a dataclass for a plain object, a setting Python keeps as a
constant), and how its result is written as the JavaScript one is. A JavaScript name
"Class#method" is a method, called on the case's first argument (an object of fixtures.New).

Example: [p.js for p in PAIRS][:3] -> ['tokenize', 'uniqueTerms', 'BM25#docFreq']
"""

from dataclasses import dataclass
from typing import Callable

import numpy as np

from dataclasses import asdict

from engine import (access, bm25, chunking, citations, documents, evaluate, fusion, guardrail, projection, prompt,
                    ranking, significance, text_key, tokenize)


@dataclass(frozen=True)
class Close:
    """Floats equal to within rel (relative) or abs (absolute), for arithmetic that may differ in
    the last bit (Math.log against C's log) or is computed another way (the PCA fit)."""
    rel: float = 0.0
    abs: float = 0.0


@dataclass(frozen=True)
class Pair:
    python: Callable
    js: str
    fixtures: tuple[str, ...]
    call: Callable | None = None
    same: Close | None = None   # None: equal, floats bit for bit


# How a result differs from its Python dataclass, or an argument from its JavaScript object.

def claim_result(check_claim, claim, sources):
    result = check_claim(citations.Claim(**claim), sources)
    return {"ok": result.ok, "problems": result.problems}


def claim_results(check_citations, claims, sources):
    return [{"ok": r.ok, "problems": r.problems} for r in check_citations([citations.Claim(**c) for c in claims], sources)]


def sentences_read(answer_sentences, answer, located):
    return [{"text": s.text, "claims": list(s.claims)} for s in answer_sentences(answer, located)]


def utf16_position(find_whole, text, piece, start):
    """Python counts code points, JavaScript UTF-16 code units: the same place, counted as JavaScript does."""
    js_start = len(text[:start].encode("utf-16-le", "surrogatepass")) // 2
    assert start == 0 or js_start == start, "fixtures start the search at 0 or in the BMP"
    found = find_whole(text, piece, start)
    return found if found < 0 else len(text[:found].encode("utf-16-le", "surrogatepass")) // 2


def as_dicts(read, *args):
    """documents.py's dataclasses as the plain objects the twin returns."""
    found = read(*args)
    return [asdict(item) for item in found] if isinstance(found, (list, tuple)) else asdict(found)


def of_document(passages, document, max_words):
    """The twin takes a document as a plain object; Python, as its dataclass."""
    blocks = tuple(documents.Block(**block) for block in document["blocks"])
    return [asdict(p) for p in passages(documents.Document(**{**document, "blocks": blocks}), max_words)]


def contributions(explain, index, query, at):
    return [{"term": c.term, "idf": c.idf, "tf": c.tf, "tfPart": c.tf_part, "score": c.score} for c in explain(index, query, at)]


def index_state(extend, index, other):
    """An index as the twin's object travels: its own fields, the postings as lists."""
    joined = extend(index, other)
    return {"k1": joined.k1, "b": joined.b, "lengths": joined.lengths,
            "postings": {term: [list(p) for p in postings] for term, postings in joined.postings.items()},
            "nDocs": joined.n_docs, "avgLen": joined.avg_len}


def as_source(source_block, source):
    return source_block(prompt.Source(**source))


def with_rules(build_prompt, question, sources, rules):
    assert rules == [rule.text for rule in prompt.RULES], "the rules are engine/prompt.py's RULES (data.prompt.rules)"
    return build_prompt(question, [prompt.Source(**s) for s in sources])


def findings(check_output, answer, patterns, hosts):
    assert patterns == guardrail.PATTERNS, "the patterns are engine/guardrail.py's PATTERNS (data.guardrail.patterns)"
    return [{"kind": f.kind, "match": f.match, "text": str(f)} for f in check_output(answer, tuple(hosts))]


def as_matrix(dense_ranking, ids, flat, query):
    return dense_ranking(ids, np.asarray(flat, dtype=np.float64).reshape(len(ids), len(query)), np.asarray(query, dtype=np.float64))


def plane(principal_axes, vectors):
    mean, axes, share = principal_axes(np.asarray(vectors, dtype=np.float64))
    return {"mean": mean.tolist(), "axes": axes.tolist(), "share": share.tolist()}


LOG = Close(rel=1e-12, abs=1e-15)

PAIRS = (
    # Python (engine/ unless Python's own)       JavaScript (RAG.engine.)   fixtures
    Pair(tokenize.tokenize,                     "tokenize",               ("texts", "every code point")),
    Pair(bm25.unique_terms,                     "uniqueTerms",            ("texts",)),
    Pair(bm25.BM25.extend,                      "BM25#extend",            ("bm25 parts",), index_state),
    Pair(bm25.BM25.doc_freq,                    "BM25#docFreq",           ("bm25 terms",)),
    Pair(bm25.BM25.idf,                         "BM25#idf",               ("bm25 terms",), same=LOG),
    Pair(bm25.BM25.tf_part,                     "BM25#tfPart",            ("bm25 tf parts",)),
    Pair(bm25.BM25.scores,                      "BM25#scores",            ("bm25 queries",), same=LOG),
    Pair(bm25.BM25.explain,                     "BM25#explain",           ("bm25 explained",), contributions, LOG),
    Pair(fusion.rrf,                            "rrf",                    ("rrf lists",)),
    Pair(round,                                 "roundTo",                ("rounding",)),
    Pair(ranking.round_score,                   "roundScore",             ("near ties",)),
    Pair(ranking.best_first,                    "bestFirst",              ("score lists",)),
    Pair(ranking.ranked,                        "ranked",                 ("ranked lists",)),
    Pair(ranking.dense_ranking,                 "denseRanking",           ("dense vectors",), as_matrix),
    Pair(ranking.bm25_ranking,                  "bm25Ranking",            ("bm25 rankings",)),
    Pair(ranking.hybrid_ranking,                "hybridRanking",          ("hybrid runs",)),
    Pair(ranking.places,                        "places",                 ("rankings",)),
    Pair(ranking.rank_label,                    "rankLabel",              ("places",)),
    Pair(str.isspace,                           "isSpace",                ("every code unit",)),
    Pair(str.strip,                             "strip",                  ("texts", "every code unit")),
    Pair(str.splitlines,                        "splitLines",             ("texts", "markdown pages")),
    Pair(chunking.words,                        "words",                  ("texts", "every code point")),
    Pair(chunking.split_sentences,              "splitSentences",         ("sentence texts", "texts")),
    Pair(chunking.chunk_fixed,                  "chunkFixed",             ("fixed windows",)),
    Pair(chunking.chunk_sentences,              "chunkSentences",         ("sentence packs",)),
    Pair(chunking.chunk_headings,               "chunkHeadings",          ("markdown pages",)),
    Pair(text_key.text_key,                     "textKey",                ("chunk texts", "every code point")),
    Pair(prompt.escape,                         "escapeText",             ("texts",)),
    Pair(prompt.source_block,                   "sourceBlock",            ("sources",), as_source),
    Pair(prompt.build_prompt,                   "buildPrompt",            ("prompts",), with_rules),
    Pair(citations.decode_entities,             "decodeEntities",         ("texts", "every code point")),
    Pair(citations.normalize,                   "normalize",              ("texts", "every code point")),
    Pair(citations.numbers_in,                  "numbersIn",              ("number texts",)),
    Pair(citations.quote_pieces,                "quotePieces",            ("texts",)),
    Pair(citations.too_short,                   "tooShort",               ("quote pieces",)),
    Pair(citations.find_whole,                  "findWhole",              ("whole quotes",), utf16_position),
    Pair(citations.quote_in,                    "quoteIn",                ("quotes in sources",)),
    Pair(citations.quote_problems,              "quoteProblems",          ("quote problems",)),
    Pair(citations.check_claim,                 "checkClaim",             ("claims",), claim_result),
    Pair(citations.check_citations,             "checkCitations",         ("claim lists",), claim_results),
    Pair(citations.answer_sentences,            "answerSentences",        ("answers read",), sentences_read),
    Pair(guardrail.host_of,                     "hostOf",                 ("urls",)),
    Pair(guardrail.check_output,                "checkOutput",            ("answers",), findings),
    Pair(access.can_read,                       "canRead",                ("groups",)),
    Pair(access.pre_filter,                     "preFilter",              ("acl",)),
    Pair(access.post_filter,                    "postFilter",             ("acl",)),
    Pair(access.as_reader,                      "asReader",               ("reader runs",)),
    Pair(documents.kind_of,                     "documentKind",           ("file names",)),
    Pair(documents.html_tokens,                 "htmlTokens",             ("html texts",)),
    Pair(documents.html_blocks,                 "htmlBlocks",             ("document texts",), as_dicts),
    Pair(documents.markdown_html,               "markdownHtml",           ("document texts",)),
    Pair(documents.inline_text,                 "inlineText",             ("document texts",)),
    Pair(documents.front_matter,                "frontMatter",            ("front matters",)),
    Pair(documents.markdown_blocks,             "markdownBlocks",         ("document texts", "huge documents"), as_dicts),
    Pair(documents.text_blocks,                 "textBlocks",             ("document texts",), as_dicts),
    Pair(documents.read_document,               "readDocument",           ("documents", "huge documents read"), as_dicts),
    Pair(documents.passages,                    "documentPassages",       ("documents read",), of_document),
    Pair(documents.prose_of,                    "proseOf",                ("document texts", "markdown pages")),
    Pair(documents.page_text,                   "pageText",               ("document texts", "markdown pages")),
    Pair(documents.heading_markdown,            "headingMarkdown",        ("document texts", "markdown pages")),
    Pair(documents.chunk_with,                  "chunkWith",              ("pages cut", "lab grid cuts")),
    Pair(evaluate.rank_of,                      "rankOf",                 ("golden rankings",)),
    Pair(evaluate.recall_at_k,                  "recallAtK",              ("golden ranks",)),
    Pair(evaluate.passages_found,               "passagesFound",          ("passages found",)),
    Pair(evaluate.hit_place,                    "hitPlace",               ("hit places",)),
    Pair(evaluate.hits_at_k,                    "hitsAtK",                ("places at k",)),
    Pair(evaluate.share_found,                  "shareFound",             ("shares found",)),
    Pair(significance.wilson,                   "wilson",                 ("intervals",)),
    Pair(significance.sign_test,                "signTest",               ("splits",)),
    Pair(projection.principal_axes,             "principalAxes",          ("point clouds",), plane, Close(abs=1e-9)),
    Pair(projection.project,                    "project",                ("projected vectors",)),
    Pair(projection.by_neighbours,              "byNeighbours",           ("neighbour places",)),
)

# The classes a fixture's New may name.
CLASSES = {"BM25": bm25.BM25}
# What a JavaScript file exports that is not a function, and the pair that proves it.
CONSTANTS = {"SPACE": "isSpace"}


def python_name(function) -> str:
    """Where a pair's Python side lives: 'engine/bm25.py BM25.scores', or "Python's str.strip"."""
    module = getattr(function, "__module__", None)
    if module and module.startswith("engine."):
        return f"engine/{module.split('.', 1)[1]}.py {function.__qualname__}"
    return f"Python's {function.__qualname__}"


def python_module(function) -> str | None:
    """The engine module ('bm25') a pair's Python function is from, None for Python's own."""
    module = getattr(function, "__module__", None)
    return module.split(".", 1)[1] if module and module.startswith("engine.") else None
