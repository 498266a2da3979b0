"""Put vectors on a plane: the two directions of most variance (PCA), a vector projected onto
them, and, for a layout that has no projection, a place found from its neighbours' places.

    principal_axes(vectors)          (mean, two unit axes, the share of the variance each keeps)
    project(vector, mean, axes)      the vector's coordinates on the plane: axis . (vector - mean)
    by_neighbours(nearest, place_of) the mean of the nearest items' places, weighted by cosine

The fit is numpy's singular value decomposition of the centred vectors. An axis is only defined
up to its sign, so each is signed by a rule both languages apply: its largest component (by
absolute value; the first of equals) is positive. project and by_neighbours add one term at a
time in order, as the browser does (numpy's matmul, and Python's sum() from 3.12, add in
other orders), so a vector the browser places lands exactly where the build placed it.

Twin: site_src/engine/projection.js (principalAxes, project, byNeighbours), proven equal by
tests/twins/: bit for bit for project and by_neighbours; the fit, which the browser computes
another way (Jacobi's method on the smaller of the two Gram matrices), to 1e-9.

Example: project([3.0, 1.0], [1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]]) -> (2.0, 0.0)
"""

import numpy as np


def principal_axes(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, the two unit directions of most variance, the share of the variance each keeps).
    Each direction's sign is fixed so that its largest component is positive, so the map does
    not flip between builds.

    Example: principal_axes(np.array([[0.0, 1.0], [2.0, 1.0], [4.0, 1.0]]))[1][0] -> [1.0, 0.0]
    """
    vectors = np.asarray(vectors, dtype=np.float64)
    mean = vectors.mean(axis=0)
    _, singular, rows = np.linalg.svd(vectors - mean, full_matrices=False)
    axes = rows[:2]
    axes = axes * np.sign(axes[np.arange(2), np.abs(axes).argmax(axis=1)])[:, None]
    return mean, axes, (singular[:2] ** 2) / (singular ** 2).sum()


def project(vector, mean, axes) -> tuple[float, ...]:
    """The vector's coordinate along each axis: sum over d of axis[d] * (vector[d] - mean[d]).

    Example: project([1.0, 2.0], [0.0, 0.0], [[0.6, 0.8], [-0.8, 0.6]]) -> (2.2, 0.4)
    """
    coordinates = []
    for axis in axes:
        total = 0.0
        for a, v, m in zip(axis, vector, mean):
            total += float(a) * (float(v) - float(m))
        coordinates.append(total)
    return tuple(coordinates)


def by_neighbours(nearest: list, place_of: dict) -> tuple[float, float]:
    """A place for something a layout cannot project: the mean of its nearest items' places,
    each weighted by its cosine with it (a negative cosine by 0; all of them zero or less,
    equal weights). `nearest` is [(id, cosine)], `place_of` id -> (x, y).

    Example: by_neighbours([["a", 0.5], ["b", 0.25]], {"a": [0.0, 0.0], "b": [30.0, 0.0]}) -> (10.0, 0.0)
    """
    weights = [max(float(cosine), 0.0) for _, cosine in nearest]
    if not any(weight > 0 for weight in weights):
        weights = [1.0] * len(nearest)
    x = y = total = 0.0
    for (pid, _), weight in zip(nearest, weights):
        x += weight * place_of[pid][0]
        y += weight * place_of[pid][1]
        total += weight
    return x / total, y / total
