"""A real engine beside ours: the golden questions through SQLite's FTS5 and its own bm25(),
over the same passages, with Python's own sqlite3, at build time (data.fts5). Section 'dense-sparse' shows
FTS5's rank of each right passage next to this page's and explains every difference.

What FTS5 does (https://sqlite.org/fts5.html, section 5.1.1; ext/fts5/fts5_aux.c):
- the textbook BM25 term, k1 = 1.2 and b = 0.75, the (k1 + 1) factor kept, as here;
- its own IDF, ln((N - n + 0.5) / (n + 0.5)), without Lucene's "1 +". For a term in half the
  rows or more that is zero or negative, and FTS5 raises it to 1e-6 (IDF_FLOOR);
- bm25() returns the score times -1, so the best match sorts first in ascending order;
- its default tokenizer, unicode61, folds case and also removes diacritics ("é" -> "e");
- a query's words are joined by AND unless told otherwise: match_query() asks for OR, as
  BM25 does, and names each distinct term once, as this page's engine counts it.

FTS5's raw results (its rankings, its vocabulary, how it tokenizes PROBE) are cached in
.cache/fts5/ by a hash of the passages, the questions, the SQLite version and the code that
runs the queries (CODE), like the code samples' outputs: a rebuild with nothing new opens no
database, and an edit of that code runs them again.

Example: fts5_idf(1, 4) -> ln(3.5 / 1.5) = 0.847...;  fts5_idf(2, 4) -> 1e-06 (ln 1 = 0, floored)
"""

import hashlib
import json
import math
import sqlite3
from pathlib import Path

from builder.cache_file import write_atomically
from builder.code_key import code_key, module_file
from engine.bm25 import BM25, unique_terms
from engine.evaluate import rank_of
from engine.tokenize import tokenize

SCHEMA = 1
IDF_FLOOR = 1e-6  # fts5_aux.c: "if( idf<=0.0 ) idf = 1e-6;"
PROBE = "Café résumé: QB-4021"  # a text on which the two tokenizers part ways
REPEATED = "4021"  # a term asked once, then twice, to see how FTS5 counts a repeat
CLOSE = 1e-9  # "the same score": FTS5 works in double precision, as Python does
# The code that fills the cache: this module (the queries) and the engine's query terms.
CODE = (Path(__file__).resolve(), module_file("engine.bm25"), module_file("engine.tokenize"))


def fts5_idf(n: int, total: int) -> float:
    """FTS5's IDF of a term in `n` of `total` rows, with its floor.

    Example: fts5_idf(20, 40) -> 1e-06, where Lucene's ln(1 + 20.5 / 20.5) is ln 2 = 0.693...
    """
    return max(IDF_FLOOR, math.log((total - n + 0.5) / (n + 0.5)))


def lucene_idf(n: int, total: int) -> float:
    """This page's IDF (Lucene's), as engine/bm25.py computes it, for a term in `n` of `total` rows.

    Example: lucene_idf(20, 40) -> ln(1 + 20.5 / 20.5) = ln 2 = 0.693...
    """
    return math.log(1 + (total - n + 0.5) / (n + 0.5))


def curve_points(total: int) -> list[int]:
    """Document frequencies at which to compare the two IDFs: one row, then an eighth, a
    quarter, half and three quarters of the rows.

    Example: curve_points(40) -> [1, 5, 10, 20, 30]
    """
    return sorted({1, total // 8, total // 4, total // 2, 3 * total // 4} - {0})


def match_query(text: str) -> str:
    """An FTS5 MATCH expression: each distinct term of `text`, quoted, joined by OR.

    Example: match_query("QB-4021: file? file!") -> '"qb" OR "4021" OR "file"'
    """
    return " OR ".join(f'"{term}"' for term in unique_terms(text))


class NoFTS5(RuntimeError):
    """This Python's SQLite was compiled without FTS5."""


def fts5_table(con: sqlite3.Connection, name: str) -> None:
    try:
        con.execute(f"CREATE VIRTUAL TABLE {name} USING fts5(body)")
    except sqlite3.OperationalError as error:
        raise NoFTS5(f"builder/fts5.py: Python's sqlite3 (SQLite {sqlite3.sqlite_version}) has no FTS5: {error} "
                     "(fix: build with a Python whose SQLite includes FTS5, as python.org's and Debian's do)") from None


def open_index(texts: list[str]) -> sqlite3.Connection:
    """An in-memory FTS5 table of `texts` (rowid = position) and its fts5vocab row table."""
    con = sqlite3.connect(":memory:")
    fts5_table(con, "passages")
    con.executemany("INSERT INTO passages(rowid, body) VALUES (?, ?)", list(enumerate(texts)))
    con.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(passages, 'row')")
    return con


def search(con: sqlite3.Connection, expression: str) -> list[tuple[int, float]]:
    """(rowid, bm25()) of every matching row, sorted as FTS5 sorts: ascending, best first
    (rowid breaks ties, as corpus order does here)."""
    if not expression:
        return []
    return con.execute("SELECT rowid, bm25(passages) FROM passages WHERE passages MATCH ? "
                       "ORDER BY bm25(passages), rowid", (expression,)).fetchall()


def vocabulary(con: sqlite3.Connection) -> dict[str, int]:
    """term -> the number of rows that hold it, as FTS5 indexed them."""
    return dict(con.execute("SELECT term, doc FROM vocab ORDER BY term"))


def fts5_tokens(text: str) -> list[str]:
    """The terms FTS5's default tokenizer makes of `text`, in order.

    Example: fts5_tokens("Café QB-4021") -> ['cafe', 'qb', '4021']
    """
    con = sqlite3.connect(":memory:")
    fts5_table(con, "t")
    con.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    con.execute("INSERT INTO t(body) VALUES (?)", (text,))
    return [term for term, in con.execute("SELECT term FROM v ORDER BY offset")]


def run_fts5(passages: list[tuple[str, str]], questions: list[tuple[str, str]]) -> dict:
    """What FTS5 says: each question's ranking as [[passage id, bm25()]], its vocabulary, how it
    tokenizes PROBE, and the score of one passage for REPEATED asked once and twice."""
    ids = [pid for pid, _ in passages]
    con = open_index([text for _, text in passages])
    rankings = {qid: [[ids[row], score] for row, score in search(con, match_query(text))] for qid, text in questions}
    once = search(con, match_query(REPEATED))
    twice = dict(search(con, f"{match_query(REPEATED)} OR {match_query(REPEATED)}"))
    return {"sqlite": sqlite3.sqlite_version, "rankings": rankings, "vocabulary": vocabulary(con),
            "probe": fts5_tokens(PROBE),
            "repeat": {"term": REPEATED, "id": ids[once[0][0]], "once": once[0][1], "twice": twice[once[0][0]]}
            if once else None}


def cache_key(passages, questions) -> str:
    blob = json.dumps([SCHEMA, sqlite3.sqlite_version, code_key(CODE), PROBE, REPEATED, passages, questions],
                      ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def cached_run(cache_dir: Path, passages: list[tuple[str, str]], questions: list[tuple[str, str]]) -> dict:
    """run_fts5, read from .cache/fts5/<hash>.json when the same inputs ran before."""
    path = Path(cache_dir) / "fts5" / f"{cache_key(passages, questions)}.json"
    if path.is_file():
        try:
            return json.loads(path.read_text("utf-8"))
        except ValueError:
            pass  # a torn file: run again and rewrite it
    result = run_fts5(passages, questions)
    write_atomically(path, json.dumps(result, ensure_ascii=False))
    return result


def rescored(index: BM25, query: str) -> list[float]:
    """This page's BM25 with FTS5's IDF put in: what FTS5 should say, sign aside."""
    totals = [0.0] * index.n_docs
    for term in unique_terms(query):
        idf = fts5_idf(index.doc_freq(term), index.n_docs)
        for row, tf in index.postings.get(term, ()):
            totals[row] += idf * index.tf_part(tf, index.lengths[row])
    return totals


def swap_example(index: BM25, ids: list[str], query: str, ours_top: str, fts5_top: str) -> dict:
    """Why two engines put different passages first: each top passage's score under both
    IDFs, and the term whose share of our top passage's score FTS5's IDF cuts the most."""
    def parts(pid):
        return [c for c in index.explain(query, ids.index(pid)) if c.tf]

    def fts5_share(c):
        return fts5_idf(index.doc_freq(c.term), index.n_docs) * c.tf_part

    lost = max(parts(ours_top), key=lambda c: c.score - fts5_share(c))
    return {
        "ours_top": ours_top, "fts5_top": fts5_top,
        "ours": {pid: sum(c.score for c in parts(pid)) for pid in (ours_top, fts5_top)},
        "fts5": {pid: sum(fts5_share(c) for c in parts(pid)) for pid in (ours_top, fts5_top)},
        "term": lost.term, "df": index.doc_freq(lost.term), "tf": lost.tf, "idf": lost.idf,
        "fts5_idf": fts5_idf(index.doc_freq(lost.term), index.n_docs),
        "share": lost.score, "fts5_share": fts5_share(lost),
        "fts5_top_terms": [[c.term, index.doc_freq(c.term)] for c in parts(fts5_top)],
    }


def compare(fts: dict, passages: list[tuple[str, str]], golden: list[dict], runs: dict, index: BM25) -> dict:
    """data.fts5: FTS5's rank of each golden question's right passage beside this page's BM25
    rank (`index`, the engine's index over the same passages), and the checks that explain
    every difference."""
    ids = [pid for pid, _ in passages]
    rows, gaps, lists_agree, example = [], [], True, None
    for q in golden:
        theirs = fts["rankings"][q["id"]]
        ours = [pid for pid, _ in runs[q["id"]]["bm25"]]
        lists_agree = lists_agree and sorted(ours) == sorted(pid for pid, _ in theirs)
        expected = rescored(index, q["text"])
        gaps += [abs(-score - expected[ids.index(pid)]) for pid, score in theirs]
        fts5_ids = [pid for pid, _ in theirs]
        row = {"q": q["id"], "answer": q["answer"], "ours": rank_of(ours, q["answer"]),
               "fts5": rank_of(fts5_ids, q["answer"]), "ours_top": ours[0] if ours else None,
               "fts5_top": fts5_ids[0] if fts5_ids else None}
        rows.append(row)
        if example is None and row["ours"] != row["fts5"] and row["ours_top"] != row["fts5_top"]:
            example = {"q": q["id"], **swap_example(index, ids, q["text"], row["ours_top"], row["fts5_top"])}
    scores = [score for ranking in fts["rankings"].values() for _, score in ranking]
    ours_vocabulary = {term: len(postings) for term, postings in index.postings.items()}
    asked = {term for q in golden for term in unique_terms(q["text"])}
    return {
        "sqlite": fts["sqlite"],
        "query": match_query(golden[0]["text"]) if golden else "",
        "rows": rows,
        "differ": [row["q"] for row in rows if row["ours"] != row["fts5"]],
        "same_lists": lists_agree,
        "negative": all(score < 0 for score in scores),
        "ascending": all(all(a[1] <= b[1] for a, b in zip(r, r[1:])) for r in fts["rankings"].values()),
        "idf_gap": max(gaps, default=0.0),
        "close": CLOSE,
        "close_exponent": round(math.log10(CLOSE)),
        "floor": IDF_FLOOR,
        "idf_curve": [{"n": n, "ours": lucene_idf(n, index.n_docs),
                       "fts5": fts5_idf(n, index.n_docs)} for n in curve_points(index.n_docs)],
        "floored": sorted(([term, n] for term, n in ours_vocabulary.items()
                           if term in asked and fts5_idf(n, index.n_docs) == IDF_FLOOR), key=lambda t: (-t[1], t[0])),
        "vocabulary": {"ours": len(ours_vocabulary), "fts5": len(fts["vocabulary"]),
                       "same": ours_vocabulary == fts["vocabulary"]},
        "probe": {"text": PROBE, "ours": tokenize(PROBE), "fts5": fts["probe"]},
        "repeat": fts["repeat"],
        "example": example,
    }


def fts5_comparison(corpus, data: dict, cache_dir: Path, index: BM25) -> dict:
    """data.fts5, from the corpus's passages and the page's golden questions and BM25 runs;
    `index` is the search stage's BM25 over the same passages."""
    passages = [(p.id, p.text) for p in corpus.passages]
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    fts = cached_run(cache_dir, passages, [(q["id"], q["text"]) for q in golden])
    return compare(fts, passages, golden, data["runs"], index)
