"""Where questions land: the 40 passages and every preset question drawn on a plane, by the two
directions along which the passages' 384-number vectors vary most (principal component analysis,
computed here with numpy). A question asked live in the browser is placed through the same
projection. The plane distorts distances; the nearest passages listed beside it are ranked by
the full 384-dimension cosine.

Example: principal_axes(np.array([[0.0, 1.0], [2.0, 1.0], [4.0, 1.0]]))[1][0] -> [1.0, 0.0]
"""

import numpy as np

STATE = {"q": "upload-4021"}
WIDTH, HEIGHT, PAD = 640, 420, 24   # the drawing, in SVG units
NEAREST = 5                         # passages listed beside the map
DIGITS = 6                          # decimals kept of the projection's numbers


def principal_axes(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, the two unit directions of most variance, the share of the variance each keeps).
    Each direction's sign is fixed so that its largest component is positive, so the map does
    not flip between builds."""
    mean = vectors.mean(axis=0)
    _, singular, rows = np.linalg.svd(vectors - mean, full_matrices=False)
    axes = rows[:2]
    axes = axes * np.sign(axes[np.arange(2), np.abs(axes).argmax(axis=1)])[:, None]
    return mean, axes, (singular[:2] ** 2) / (singular ** 2).sum()


def project(vectors: np.ndarray, mean: np.ndarray, axes: np.ndarray) -> np.ndarray:
    return (vectors - mean) @ axes.T


def to_drawing(points: np.ndarray, frame: np.ndarray) -> list[list[float]]:
    """Plane coordinates -> SVG units of the WIDTH x HEIGHT drawing (y grows downwards), to 0.1.

    Example: to_drawing(np.array([[0.0, 0.0]]), np.array([0.0, 0.0, 1.0, 1.0])) -> [[24.0, 396.0]]
    """
    x = PAD + (points[:, 0] - frame[0]) / (frame[2] - frame[0]) * (WIDTH - 2 * PAD)
    y = HEIGHT - PAD - (points[:, 1] - frame[1]) / (frame[3] - frame[1]) * (HEIGHT - 2 * PAD)
    return np.round(np.stack([x, y], axis=1), 1).tolist()


def data(build) -> dict:
    core = build.data
    passages = np.asarray([build.vector_of[p["text"]] for p in core["passages"]], dtype=np.float64)
    questions = [q for q in core["questions"]]
    mean, axes, kept = principal_axes(passages)
    on_plane = project(passages, mean, axes)
    asked = project(np.asarray([build.vector_of[q["text"]] for q in questions], dtype=np.float64), mean, axes)
    both = np.vstack([on_plane, asked])
    low, high = both.min(axis=0), both.max(axis=0)
    margin = (high - low) * 0.05
    frame = np.round(np.concatenate([low - margin, high + margin]), DIGITS)
    documents = list(dict.fromkeys(p["document"] for p in core["passages"]))
    rounded = lambda array: np.round(array, DIGITS).tolist()  # noqa: E731
    return {
        "size": [WIDTH, HEIGHT, PAD], "nearest": NEAREST, "documents": documents, "frame": frame.tolist(),
        "kept": rounded(kept), "mean": rounded(mean), "axes": rounded(axes),
        "passages": to_drawing(on_plane, frame),
        "questions": {q["id"]: xy for q, xy in zip(questions, to_drawing(asked, frame))},
    }
