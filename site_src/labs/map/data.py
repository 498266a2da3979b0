"""Where questions land: the 40 passages and every preset question drawn on a plane. Three
projections are tried (site_src/labs/map/projection.py: PCA, classical MDS, t-SNE); each is
drawn, and the map shows the one that keeps the largest share of each passage's true nearest
neighbours, a share measured here on the drawing itself. The shares of all three are in the data
for the page to state.

A question is placed as the winner allows: projected onto the same plane (PCA), or, for a
projection that fits only the passages it was given, at the cosine-weighted mean of the
positions of its K nearest passages (MDS, t-SNE), both engine/projection.py's. The browser
places a question asked live the same way, with its twin (RAG.engine.project, byNeighbours). The nearest passages listed beside the map are ranked by the full 384-number cosine.

The projections are cached in .cache/map/ by the passages' vectors, the source of projection.py
and of engine/projection.py (whose PCA it uses), and scikit-learn's own __init__.py (which names
its version), so a build with nothing new recomputes (and imports) nothing.

Example: placed_by_neighbours([["a", 0.5], ["b", 0.25]], {"a": [0.0, 0.0], "b": [30.0, 0.0]}) -> [10.0, 0.0]
"""

import hashlib
import importlib.util
import json
import os
from pathlib import Path

import numpy as np

from builder.code_key import code_key
from engine import projection as plane
from engine.projection import by_neighbours, project
from site_src.labs.map import projection
from site_src.labs.map.projection import K, METHODS, NAMES

STATE = {"q": "upload-4021"}
SCRIPTS = ("engine",)  # the twins of engine/projection.py place a question asked live
VIEWS = ("map",)       # site_src/views/map.js draws it
WIDTH, HEIGHT, PAD = 640, 440, 16   # the drawing, in SVG units
DIGITS = 6                          # decimals kept of a linear projection's numbers
BUILD_ONLY = ("variance", "chance", "tsne", "same_document")
CACHE_SCHEMA = 1
CODE = (Path(projection.__file__), Path(plane.__file__))  # the code that fills the cache


def fit(points: np.ndarray) -> tuple[float, float, float]:
    """(x0, y0, scale) that centre the points in the WIDTH x HEIGHT drawing at one scale for
    both axes (so the drawing's distances are the plane's, times the scale), y growing down:
    x = x0 + scale * px, y = y0 - scale * py.

    Example: fit(np.array([[0.0, 0.0], [2.0, 1.0]])) -> (16.0, 377.0, 304.0)
    """
    low, high = points.min(axis=0), points.max(axis=0)
    spread = np.maximum(high - low, 1e-12)
    scale = float(min((WIDTH - 2 * PAD) / spread[0], (HEIGHT - 2 * PAD) / spread[1]))
    middle = (low + high) / 2
    return WIDTH / 2 - scale * float(middle[0]), HEIGHT / 2 + scale * float(middle[1]), scale


def to_drawing(points: np.ndarray, frame: tuple[float, float, float]) -> list[list[float]]:
    """Plane coordinates -> SVG units, each rounded to 0.1 as round() and the page's RAG.fixed
    round (the decimal nearest the number, ties to even).

    Example: to_drawing(np.array([[1.0, 1.0]]), (10.0, 20.0, 2.5)) -> [[12.5, 17.5]]
    """
    x0, y0, scale = frame
    return [[round(x0 + scale * float(x), 1), round(y0 - scale * float(y), 1)] for x, y in points]


def placed_by_neighbours(nearest: list, xy_of: dict[str, list[float]]) -> list[float]:
    """A question's place on a plane that has no projection for it: the mean of its nearest
    passages' places, each weighted by its cosine with the question (engine/projection.py
    by_neighbours, which the page's script calls as RAG.engine.byNeighbours), in the
    drawing's tenths."""
    return [round(v, 1) for v in by_neighbours(nearest, xy_of)]


def same_document(documents: list[str], nearest: list[list[int]]) -> int:
    """How many passages have, as their very nearest passage, one of their own help document.

    Example: same_document(["a", "a", "b"], [[1], [0], [0]]) -> 2
    """
    return sum(documents[row[0]] == documents[i] for i, row in enumerate(nearest))


def library() -> Path:
    """scikit-learn's __init__.py, which names its version, found without importing it (or
    asking importlib.metadata, whose first call scans every installed package)."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.origin:
        raise ModuleNotFoundError("site_src/labs/map/data.py: the map's projections need scikit-learn "
                                  "(fix: install it, `pip install scikit-learn`, as requirements.txt lists)")
    return Path(spec.origin)


def cache_key(vectors: np.ndarray) -> str:
    digest = hashlib.sha256(np.ascontiguousarray(vectors, dtype="<f8").tobytes())
    digest.update(json.dumps([CACHE_SCHEMA, code_key((*CODE, library()))]).encode())
    return digest.hexdigest()[:20]


def cached_planes(vectors: np.ndarray, cache_dir: Path | None) -> dict[str, np.ndarray]:
    """projection.planes(vectors), read from .cache/map/ when the same inputs and code ran before."""
    path = Path(cache_dir) / "map" / f"{cache_key(vectors)}.json" if cache_dir else None
    if path and path.is_file():
        try:
            return {method: np.asarray(points) for method, points in json.loads(path.read_text("utf-8")).items()}
        except ValueError:
            pass  # a torn file: compute again and rewrite it
    found = projection.planes(vectors)
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".tmp-{os.getpid()}")
        temp.write_text(json.dumps({method: points.tolist() for method, points in found.items()}), "utf-8")
        os.replace(temp, path)
    return found


def data(build) -> dict:
    core = build.data
    ids = [p["id"] for p in core["passages"]]
    passages = np.asarray([build.vector_of[p["text"]] for p in core["passages"]], dtype=np.float64)
    questions = core["questions"]
    asked = np.asarray([build.vector_of[q["text"]] for q in questions], dtype=np.float64)
    mean, axes, variance = plane.principal_axes(passages)
    projected = np.asarray([project(vector, mean, axes) for vector in asked])  # the questions, if PCA draws the map
    true = projection.nearest_by_cosine(passages)
    planes = cached_planes(passages, build.cache_dir)

    drawings, frames, kept = {}, {}, {}
    for method in METHODS:
        # A projected question must fit in the drawing too; a neighbour-placed one always does.
        shown = np.vstack([planes[method], projected]) if method == "pca" else planes[method]
        frames[method] = fit(shown)
        drawings[method] = to_drawing(planes[method], frames[method])
        kept[method] = round(projection.kept_share(true, projection.nearest_on_plane(np.asarray(drawings[method]))), 6)
    method = max(METHODS, key=lambda m: (kept[m], -METHODS.index(m)))

    xy_of = dict(zip(ids, drawings[method]))
    own = {"size": [WIDTH, HEIGHT], "nearest": K, "documents": list(dict.fromkeys(p["document"] for p in core["passages"])),
           "method": method, "names": NAMES, "order": list(METHODS), "kept": kept,
           "placement": "projection" if method == "pca" else "neighbours", "passages": drawings[method]}
    if method == "pca":
        own["questions"] = {q["id"]: xy for q, xy in zip(questions, to_drawing(projected, frames["pca"]))}
        own["projection"] = {"mean": np.round(mean, DIGITS).tolist(), "axes": np.round(axes, DIGITS).tolist(),
                             "frame": list(frames["pca"])}
    else:
        own["questions"] = {q["id"]: placed_by_neighbours(core["runs"][q["id"]]["dense"][:K], xy_of) for q in questions}
    documents = [p["document"] for p in core["passages"]]
    own.update(variance=np.round(variance, DIGITS).tolist(), chance=round(K / (len(ids) - 1), 6),
               tsne={"perplexity": projection.TSNE["perplexity"], "seed": projection.SEED},
               same_document={"cosine": same_document(documents, true),
                              "plane": same_document(documents, projection.nearest_on_plane(np.asarray(drawings[method])))})
    return own
