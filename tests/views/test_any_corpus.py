"""The views draw any corpus (site_src/views/): the hybrid, BM25, map and prompt views drawn in
Node, from the built site's own files, over a small made-up corpus (tests/support/made_up_corpus.py:
six chunks with hand-made vectors, dense ranking by the engine's twin), and what they show held
to the Python engine run on the same chunks: every list, score and tied rank, the fused floats,
the status, the map's plane and the prompt. Each drawing is also redrawn over the one before by
Preact and must leave the tree its HTML parses to. The same views, with the same code, draw the
help center in the labs (site_src/labs/*/test_*.py)."""

import re

import numpy as np
import pytest

from engine.bm25 import BM25, unique_terms
from engine.fusion import rrf
from engine.projection import principal_axes, project
from engine.prompt import Source, build_prompt
from engine.ranking import bm25_ranking, dense_ranking, hybrid_ranking, places, rank_label, round_score
from site_src.labs.map.data import fit, to_drawing
from support import made_up_corpus as made_up
from support.views import draw_chunks, markup, text

IDS = [chunk["id"] for chunk in made_up.CHUNKS]
BY_ID = {chunk["id"]: chunk for chunk in made_up.CHUNKS}
VECTORS = np.asarray(made_up.VECTORS, dtype=np.float64)
QUESTION = {q["id"]: q for q in made_up.QUESTIONS}


def runs_by_python(settings, qid):
    """engine/: the question's dense, BM25 and fused rankings over the made-up chunks."""
    q = QUESTION[qid]
    index = BM25([chunk["text"] for chunk in made_up.CHUNKS], settings["bm25"]["k1"], settings["bm25"]["b"])
    dense = dense_ranking(IDS, VECTORS, np.asarray(q["vector"], dtype=np.float64))
    bm25 = bm25_ranking(IDS, index, q["text"])
    return {"dense": dense, "bm25": bm25, "hybrid": hybrid_ranking(dense, bm25, settings["fusion_depth"], settings["rrf_k"])}


def labels(ranking):
    """Each item's rank as the page writes it, ties shared ("2="), from engine.ranking.places."""
    return [rank_label(place) for place in places([(pid, round_score(score)) for pid, score in ranking])]


def rows(node):
    return [{"id": li.attributes["data-pid"], "rank": text(li.css_first(".rank")), "score": li.css_first(".score")}
            for li in node.css("li.result[data-pid]")]


@pytest.fixture(scope="module")
def corpus(data):
    return made_up.corpus(data["settings"])


# ------------------------------------------------------------------ the hybrid view

SETTINGS = [(60, 8), (1, 1), (2, 3), (100, 20), (10, 4)]


def test_the_hybrid_view_ranks_the_made_up_corpus_as_pythons_engine_does(dist_dir, data, corpus):
    sliders = data["labs"]["hybrid"]["sliders"]
    states = [{"q": qid, "k": k, "depth": depth} for qid in QUESTION for k, depth in SETTINGS]
    drawings = draw_chunks(dist_dir, corpus, [{"view": "hybrid", "input": {"sliders": sliders, "prefix": "bikes"}, "state": s}
                                              for s in states])
    settings = data["settings"]
    for state, drawing in zip(states, drawings, strict=True):
        qid, k, depth = state["q"], state["k"], state["depth"]
        assert drawing.state == state and drawing.redrawn, state
        python = runs_by_python(settings, qid)
        assert drawing.runs == {name: [list(pair) for pair in ranking] for name, ranking in python.items()}
        shown = markup(drawing.html)
        lists = {col.attributes["data-list"]: rows(col) for col in shown.css(".lab-col[data-list]")}
        for name in ("dense", "bm25"):
            want = python[name][:depth]
            assert [r["id"] for r in lists[name]] == [pid for pid, _ in want], (state, name)
            assert [text(r["score"]) for r in lists[name]] == [f"{score:.3f}" for _, score in want]
            assert [r["rank"] for r in lists[name]] == labels(python[name])[:depth]
        fused = rrf([[pid for pid, _ in python[name][:depth]] for name in ("dense", "bm25")], k=k)
        assert [(r["id"], float(r["score"].attributes["value"])) for r in lists["hybrid"]] == fused[:depth]  # exact floats
        assert [r["rank"] for r in lists["hybrid"]] == labels(fused)[:depth]
        ranks = [next((i for i, (pid, _) in enumerate(ranking, 1) if pid == QUESTION[qid]["answers"][0]), None)
                 for ranking in (python["dense"], python["bm25"], fused)]
        assert text(shown.css_first(".lab-status")) == (
            f"The right passage, {QUESTION[qid]['answers'][0]}: dense rank {ranks[0] or 'none'}, BM25 rank {ranks[1] or 'none'}, "
            f"fused rank {ranks[2] or 'none'}.")
        assert drawing.summary == f"k = {k}, top {depth}. " + text(shown.css_first(".lab-status"))
        own = (k, depth) == (settings["rrf_k"], settings["fusion_depth"])
        assert text(shown.css_first(".hybrid-settings")).startswith(f"RRF with k = {k} over each list's top {depth}"
                                                                    + (": the page's settings." if own else ";"))
        ids = [node.attributes["id"] for node in shown.css(".view [id]")]
        assert ids == ["bikes-dense-title", "bikes-bm25-title", "bikes-fused-title"], "the view's ids come from its prefix"
        assert shown.css_first("div.view").attributes["data-view"] == "hybrid"


def test_on_the_made_up_corpus_the_views_show_a_tie_as_a_shared_place(dist_dir, data, corpus):
    """'spongy': dense scores chain-oil and chain-wear 0.5 each, so both are 3rd."""
    python = runs_by_python(data["settings"], "spongy")
    assert [pair for pair in python["dense"] if pair[1] == 0.5] == [("chain-oil", 0.5), ("chain-wear", 0.5)]
    [drawing] = draw_chunks(dist_dir, corpus, [{"view": "hybrid", "input": {"sliders": data["labs"]["hybrid"]["sliders"],
                                                                            "prefix": "bikes"}, "state": {"q": "spongy"}}])
    dense = markup(drawing.html).css_first('.lab-col[data-list="dense"]')
    tied = {li.attributes["data-pid"]: (text(li.css_first(".rank")), li.css_first(".rank").attributes.get("title"))
            for li in dense.css("li.result") if li.attributes["data-pid"] in ("chain-oil", "chain-wear")}
    assert tied == {"chain-oil": ("3=", "tied for 3rd with chain-wear"), "chain-wear": ("3=", "tied for 3rd with chain-oil")}


# ------------------------------------------------------------------ the BM25 view

TYPED = ["chain wear cassette", "brake brake pads", "nothing here matches", ""]


def test_the_bm25_view_scores_the_made_up_corpus_as_pythons_engine_does(dist_dir, data, corpus):
    own = data["labs"]["bm25"]
    given = {"sliders": own["sliders"], "depth": own["depth"], "countAxis": own["count_axis"], "prefix": "bikes"}
    states = ([{"q": qid, "text": "", "k1": k1, "b": b} for qid in QUESTION for k1, b in ((1.2, 0.75), (0.0, 0.0), (3.0, 1.0))]
              + [{"q": "", "text": typed, "k1": 1.2, "b": 0.75} for typed in TYPED])
    drawings = draw_chunks(dist_dir, corpus, [{"view": "bm25", "input": given, "state": s} for s in states])
    for state, drawing in zip(states, drawings, strict=True):
        assert drawing.state == state and drawing.redrawn, state
        query = QUESTION[state["q"]]["text"] if state["q"] else state["text"]
        engine = BM25([chunk["text"] for chunk in made_up.CHUNKS], state["k1"], state["b"])
        scores = engine.scores(query)
        found = [(IDS[i], scores[i]) for i in sorted(range(len(IDS)), key=lambda i: -scores[i]) if scores[i] > 0]
        shown = markup(drawing.html)
        got = [{"id": li.attributes["data-pid"], "exact": float(li.attributes["data-score"]), "rank": text(li.css_first(".rank")),
                "terms": [text(t) for t in li.css("ul.terms li")], "title": text(li.css_first(".title"))}
               for li in shown.css("ol.bm25-results li.result")]
        assert [r["id"] for r in got] == [pid for pid, _ in found][:own["depth"]], state
        for row, (pid, score) in zip(got, found):
            assert abs(row["exact"] - score) <= 1e-9
            parts = engine.explain(query, IDS.index(pid))
            assert row["terms"] == [f"{c.term} +{c.score:.3f}" for c in parts if c.score > 0]
            assert row["title"] == f"{BY_ID[pid]['title']} › {BY_ID[pid]['section']}"
        assert [r["rank"] for r in got] == labels(found)[:own["depth"]]
        status = text(shown.css_first(".lab-status"))
        assert status.startswith(f"{len(found)} of {len(IDS)} passages share a term with the query; ")
        if state["q"]:
            answer = QUESTION[state["q"]]["answers"][0]
            dense = runs_by_python(data["settings"], state["q"])["dense"]
            # Each place as the lists write it: "1=" where the passage shares its score (k1 = 0 ties often).
            bm25_rank = dict(zip([pid for pid, _ in found], labels(found))).get(answer)
            dense_rank = dict(zip([pid for pid, _ in dense], labels(dense)))[answer]
            assert f" The right passage, {answer}, is at BM25 rank {bm25_rank or 'none'} and dense rank {dense_rank}." in status
        assert [text(t) for t in shown.css(".query-terms li")] == (
            [f"{t} in {engine.doc_freq(t)} · IDF {engine.idf(t):.3f}" if engine.doc_freq(t) else f"{t} in no passage"
             for t in unique_terms(query)] or ["no terms: BM25 needs letters or digits"])
        assert {node.attributes["id"] for node in shown.css(".view [id]")} == {
            "bikes-count-title", "bikes-count-note", "bikes-length-title", "bikes-length-note"}


# ------------------------------------------------------------------ the map view


def test_the_map_view_draws_the_made_up_corpus_on_its_plane_of_most_variance(dist_dir, data, corpus):
    """No projection of the build's: the view computes the plane (the engine's twin of
    principal_axes and project), fits passages and questions into the drawing as
    site_src/labs/map/data.py fits them, and says the share of the variance it keeps."""
    mean, axes, variance = principal_axes(VECTORS)
    asked = [project(q["vector"], mean, axes) for q in made_up.QUESTIONS]
    on_plane = [project(vector, mean, axes) for vector in VECTORS]
    frame = fit(np.asarray(on_plane + asked))
    places_ = to_drawing(np.asarray(on_plane), frame)
    questions = to_drawing(np.asarray(asked), frame)
    drawings = draw_chunks(dist_dir, corpus, [{"view": "map", "input": {"nearest": 3, "prefix": "bikes"}, "state": {"q": qid}}
                                              for qid in QUESTION])
    for (qid, q), at, drawing in zip(QUESTION.items(), questions, drawings, strict=True):
        assert drawing.redrawn
        shown = markup(drawing.html)
        dots = [(float(c.attributes["cx"]), float(c.attributes["cy"])) for c in shown.css("circle.map-passage")]
        assert dots == [tuple(xy) for xy in places_]
        square = shown.css_first("rect.map-question.is-shown")
        assert (float(square.attributes["x"]) + 7, float(square.attributes["y"]) + 7) == pytest.approx(tuple(at), abs=1e-9)
        caption = text(shown.css_first("figcaption"))
        assert caption.startswith(f"Drawn by PCA of the 6 passages' vectors: the plane keeps {100 * variance.sum():.1f}% of "
                                  f"their variance in 8 dimensions ({100 * variance[0]:.1f}% on its first axis, "
                                  f"{100 * variance[1]:.1f}% on its second).")
        dense = runs_by_python(data["settings"], qid)["dense"]
        listed = rows(shown.css_first("ol.map-nearest"))
        assert [r["id"] for r in listed] == [pid for pid, _ in dense[:3]]
        assert [r["rank"] for r in listed] == labels(dense)[:3]
        assert [text(r["score"]) for r in listed] == [f"{score:.3f}" for _, score in dense[:3]]
        legend = [text(li) for li in shown.css(".map-legend li")]
        assert legend == ["Tyres", "Chain", "Brakes"]
        assert re.search(r"Nearest by cosine, in 8 dimensions", text(shown)), "the corpus's own dimensions"


# ------------------------------------------------------------------ the prompt view


def test_the_prompt_view_builds_the_engines_prompt_from_the_made_up_corpus(dist_dir, data, corpus):
    rules = data["prompt"]["rules"]
    given = {"rules": rules, "sizes": [1, 6], "hostile": data["labs"]["prompt"]["hostile"], "prefix": "bikes",
             "tokens": {"tokenizer": data["tokens"]["tokenizer"], "plain": {}, "hostile": {}}}
    states = [{"q": qid, "n": n, "demo": False} for qid in QUESTION for n in (1, 3, 6)]
    drawings = draw_chunks(dist_dir, corpus, [{"view": "prompt", "input": given, "state": s} for s in states])
    for state, drawing in zip(states, drawings, strict=True):
        assert drawing.redrawn
        fused = runs_by_python(data["settings"], state["q"])["hybrid"][:state["n"]]
        sources = [Source(id=pid, title=BY_ID[pid]["title"], date="", text=BY_ID[pid]["text"]) for pid, _ in fused]
        shown = markup(drawing.html)
        assert shown.css_first("pre.prompt-text").text(deep=True, separator="", strip=False) == build_prompt(
            QUESTION[state["q"]]["text"], sources)
        assert [text(code) for code in shown.css(".prompt-sources .pid code")] == [pid for pid, _ in fused]
        assert text(shown.css_first(".lab-status")) == f"{state['n']} passages for “{QUESTION[state['q']]['text']}”."


def test_with_a_tolerance_the_hybrid_view_shows_cosines_that_close_as_one_place(dist_dir, data, corpus):
    """The reader's documents are embedded by the browser's model, whose cosines are known to a
    tolerance: the corpus carries it, and the dense list writes scores that close as a shared
    place, as the engine's places(ranking, tolerance) does."""
    tolerance = 0.3  # wide, so the made-up corpus's quarter-step cosines fall inside it
    python = runs_by_python(data["settings"], "spongy")["dense"]
    assert places(python, tolerance) != places(python)  # the tolerance changes something here
    [drawing] = draw_chunks(dist_dir, {**corpus, "denseTolerance": tolerance},
                            [{"view": "hybrid", "input": {"sliders": data["labs"]["hybrid"]["sliders"], "prefix": "bikes"},
                              "state": {"q": "spongy"}}])
    dense = markup(drawing.html).css_first('.lab-col[data-list="dense"]')
    shown = {li.attributes["data-pid"]: text(li.css_first(".rank")) for li in dense.css("li.result")}
    expected = {pid: rank_label(place) for (pid, _), place in zip(python, places(python, tolerance))}
    assert shown == {pid: expected[pid] for pid in shown}
