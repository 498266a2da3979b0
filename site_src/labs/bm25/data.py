"""The BM25 explorer: BM25 over every passage, with each query term's share of each score, for
a preset question or any text the reader types, at settings of k1 and b the reader drags (the
browser runs the engine's JavaScript twin live; tests prove the two score alike at every stop of
both sliders); and BM25's two curves, a term's weight against its count and against the length of
the passage, drawn for the settings shown.

Example: data(build)["explain"]["upload-4021"]["top"][0]["id"] -> 'err-4021'
"""

from decimal import Decimal

from engine.bm25 import BM25, unique_terms
from engine.settings import BM25_B, BM25_K1

# The state the page opens on: a question (or "" and typed text) at the engine's settings.
STATE = {"q": "upload-4021", "text": "", "k1": BM25_K1, "b": BM25_B}
DEPTH = 8                     # passages the explorer lists
SCRIPTS = ("engine",)         # the browser's twin of the engine (BM25 and the tokenizer)
VIEWS = ("bm25",)             # site_src/views/bm25.js draws it
BUILD_ONLY = ("explain",)     # read by the prose; the browser computes its own
# The sliders: the lab's own range and step (the settings' one home is engine/settings.py, and
# each default must be one of the slider's stops; the view puts a value from a link on a stop with
# the page's one policy, RAG.kit.onSlider). k1 = 0 scores a term present or absent;
# b = 0 ignores length, b = 1 divides it out in full.
SLIDERS = {"k1": {"min": 0.0, "max": 3.0, "step": 0.1}, "b": {"min": 0.0, "max": 1.0, "step": 0.05}}
COUNT_AXIS = 10               # the count curve runs from 0 to this many occurrences


def digits_of(step: float) -> int:
    """Decimal places a value on this step needs. Example: digits_of(0.05) -> 2"""
    return max(0, -Decimal(repr(step)).as_tuple().exponent)


def on_a_step(value: float, slider: dict) -> bool:
    """Whether the slider can show this value: within its ends, a whole number of steps from
    its min. Example: on_a_step(0.75, {"min": 0.0, "max": 1.0, "step": 0.05}) -> True"""
    steps = (value - slider["min"]) / slider["step"]
    return slider["min"] <= value <= slider["max"] and abs(steps - round(steps)) < 1e-9


def sliders(defaults: dict) -> dict:
    """name -> {min, max, step, digits}, refusing a default the slider cannot show."""
    shipped = {}
    for name, slider in SLIDERS.items():
        if not on_a_step(defaults[name], slider):
            raise ValueError(f"site_src/labs/bm25/data.py: SLIDERS[{name!r}] does not stop at {defaults[name]}, the "
                             f"engine's default (engine/settings.py); fix: choose a min and step that reach it")
        shipped[name] = {**slider, "digits": digits_of(slider["step"])}
    return shipped


def bm25_explain(passages: list[dict], questions: list[dict], runs: dict, depth: int = DEPTH) -> dict:
    """question -> {"terms": [{term, df, idf}], "matched": n, "top": [{id, score, terms: [[term, share]]}]}."""
    index = BM25([p["text"] for p in passages])
    position = {p["id"]: i for i, p in enumerate(passages)}
    result = {}
    for question in questions:
        if question["set"] not in ("golden", "tracer", "unanswerable"):
            continue
        ranking = runs[question["id"]]["bm25"]
        result[question["id"]] = {
            "terms": [{"term": t, "df": index.doc_freq(t), "idf": index.idf(t)} for t in unique_terms(question["text"])],
            "matched": len(ranking),
            "top": [{"id": pid, "score": score,
                     "terms": [[c.term, c.score] for c in index.explain(question["text"], position[pid])]}
                    for pid, score in ranking[:depth]],
        }
    return result


def data(build) -> dict:
    core = build.data
    return {"depth": DEPTH, "sliders": sliders(core["settings"]["bm25"]), "count_axis": COUNT_AXIS,
            "explain": bm25_explain(core["passages"], core["questions"], core["runs"])}
