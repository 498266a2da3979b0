"""Three ways to lay the passages' 384-number vectors on a plane, and one measure of what each
keeps: for every passage, how many of its K nearest passages by cosine (in all 384 dimensions)
are still among its K nearest on the plane (straight-line distance), averaged over the passages.

    pca    principal component analysis (engine/projection.py): the two directions of most
           variance. Linear, so any new vector projects onto the same plane exactly.
    mds    classical multidimensional scaling (scikit-learn's ClassicalMDS) of the cosine
           distances 1 - cosine: the plane whose distances best match them in the least-squares
           sense of their double-centred squares.
    tsne   t-SNE (scikit-learn's TSNE, exact gradients, a fixed seed): places neighbours near each
           other and lets far distances go. It fits the passages it is given and no others.

scikit-learn is imported only when a projection is computed; site_src/labs/map/data.py caches
the result, so a build with nothing new imports neither it nor this module's heavy parts.

Example: kept_share([[1, 2], [0, 2], [0, 1]], [[1, 2], [2, 0], [1, 0]]) -> 0.5
"""

import numpy as np

from builder.view_settings import MAP_NEIGHBOURS
from engine.projection import principal_axes, project

K = MAP_NEIGHBOURS
METHODS = ("pca", "mds", "tsne")   # tried in this order; a tie goes to the earlier (simpler) one
NAMES = {"pca": "PCA", "mds": "classical MDS", "tsne": "t-SNE"}
SEED = 0
# Perplexity is t-SNE's idea of how many neighbours each point has. scikit-learn's default, 30,
# is meant for sets of hundreds of points and would count three quarters of these 40 passages.
TSNE = {"perplexity": 10.0, "metric": "cosine", "init": "pca", "method": "exact", "random_state": SEED}


def nearest_by_cosine(vectors: np.ndarray, k: int = K) -> list[list[int]]:
    """Each row's k most similar other rows by cosine (unit vectors: the dot product), best
    first; equal cosines keep the earlier row first.

    Example: nearest_by_cosine(np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]]), 1) -> [[1], [0], [1]]
    """
    similar = vectors @ vectors.T
    np.fill_diagonal(similar, -np.inf)
    return np.argsort(-similar, axis=1, kind="stable")[:, :k].tolist()


def nearest_on_plane(points: np.ndarray, k: int = K) -> list[list[int]]:
    """Each point's k nearest other points by straight-line distance, nearest first.

    Example: nearest_on_plane(np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0]]), 1) -> [[1], [0], [1]]
    """
    squared = ((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(squared, np.inf)
    return np.argsort(squared, axis=1, kind="stable")[:, :k].tolist()


def kept_share(true: list[list[int]], found: list[list[int]]) -> float:
    """The mean, over points, of the share of each point's true neighbours found among its
    neighbours on the plane (order ignored)."""
    return float(np.mean([len(set(t) & set(f)) / len(t) for t, f in zip(true, found)]))


def upright(points: np.ndarray) -> np.ndarray:
    """The same layout, centred and turned so that its widest spread runs left to right, each
    axis signed so that its farthest point is on the positive side. Turning and mirroring change
    no distance, so no neighbour.

    Example: upright(np.array([[0.0, 0.0], [0.0, 4.0], [0.0, 2.0]]))[:, 0] -> [-2.0, 2.0, 0.0]
    """
    centred = points - points.mean(axis=0)
    _, _, rows = np.linalg.svd(centred, full_matrices=False)
    turned = centred @ rows.T
    far = np.abs(turned).argmax(axis=0)
    return turned * np.sign(turned[far, np.arange(2)])


def planes(vectors: np.ndarray) -> dict[str, np.ndarray]:
    """method -> the passages on its plane (n x 2), before any drawing."""
    import warnings

    from sklearn.manifold import TSNE as TSNEModel, ClassicalMDS

    mean, axes, _ = principal_axes(vectors)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # scikit-learn announcing future defaults
        mds = ClassicalMDS(n_components=2, metric="cosine").fit_transform(vectors)
        tsne = TSNEModel(n_components=2, **TSNE).fit_transform(vectors)
    pca = np.asarray([project(vector, mean, axes) for vector in vectors])
    return {"pca": pca, "mds": upright(mds), "tsne": upright(tsne)}
