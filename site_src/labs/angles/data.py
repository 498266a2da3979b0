"""Cosine as an angle: a question and three passages drawn as arrows from one point, each passage
at its true angle to the question, arccos(cosine). For each preset question the three are the
right passage, the near miss (the passage dense search ranks highest among the wrong ones) and
the passage least like the question (the lowest cosine).

Any two arrows lie in one flat plane, so each passage's angle to the question is drawn exactly.
The angles between the passages cannot all be: on paper an angle between two arrows is the
difference of their angles to the question (drawn on the same side of it) or their sum (on
opposite sides), while in 384 dimensions it can be anything between those two. Each passage's
side is chosen so that the drawn angles between passages come as close to the true ones as
they can; the data keeps both, for the page to show what the drawing loses.

Example: drawn_angle(50.0, 1, 65.0, -1) -> 115.0
"""

import math
from itertools import product

import numpy as np

STATE = {"q": "upload-4021"}
ROLES = ("right", "near", "far")   # the right passage, the near miss, the least alike
DIGITS = 6


def angle(cosine: float) -> float:
    """Degrees between two unit vectors whose cosine this is.

    Example: angle(0.5) -> 60.00000000000001
    """
    return math.degrees(math.acos(max(-1.0, min(1.0, cosine))))


def chosen(dense: list, answer: str) -> list[str]:
    """[right passage, near miss, least alike] from a question's dense ranking (best first).

    Example: chosen([["b", 0.7], ["a", 0.6], ["c", 0.1]], "a") -> ['a', 'b', 'c']
    """
    ranked = [pid for pid, _ in dense]
    near = next(pid for pid in ranked if pid != answer)
    far = next(pid for pid in reversed(ranked) if pid not in (answer, near))
    return [answer, near, far]


def drawn_angle(a: float, side_a: int, b: float, side_b: int) -> float:
    """The angle the drawing shows between two arrows at angles a and b (degrees) from the
    question, each above (+1) or below (-1) it."""
    if side_a == side_b:
        return abs(a - b)
    both = a + b
    return min(both, 360.0 - both)


def best_sides(angles: list[float], true: dict[tuple[int, int], float]) -> list[int]:
    """The sides (+1 above the question, -1 below; the first passage above) whose drawn angles
    between passages are furthest from the true ones by the least (then by the least in sum);
    ties keep the earlier candidate, all above first.

    Example: best_sides([30.0, 40.0], {(0, 1): 70.0}) -> [1, -1]
    """
    def errors(sides):
        gaps = [abs(drawn_angle(angles[i], sides[i], angles[j], sides[j]) - value) for (i, j), value in true.items()]
        return max(gaps), sum(gaps)

    candidates = [(1, *rest) for rest in product((1, -1), repeat=len(angles) - 1)]
    return list(min(candidates, key=errors))


def question_angles(dense: list, answer: str, vector_of_passage: dict[str, np.ndarray]) -> dict:
    ids = chosen(dense, answer)
    cosine = dict(dense)
    angles = [angle(cosine[pid]) for pid in ids]
    vectors = [np.asarray(vector_of_passage[pid], dtype=np.float64) for pid in ids]
    between = {(i, j): round(float(vectors[i] @ vectors[j]), DIGITS) for i in range(len(ids)) for j in range(i + 1, len(ids))}
    true = {pair: angle(value) for pair, value in between.items()}
    sides = best_sides(angles, true)
    pairs = [{"a": ids[i], "b": ids[j], "cosine": between[(i, j)], "angle": round(true[(i, j)], DIGITS),
              "drawn": round(drawn_angle(angles[i], sides[i], angles[j], sides[j]), DIGITS)} for i, j in between]
    gaps = [abs(pair["drawn"] - pair["angle"]) for pair in pairs]
    return {
        "passages": [{"role": role, "id": pid, "cosine": cosine[pid], "angle": round(a, DIGITS), "side": side}
                     for role, pid, a, side in zip(ROLES, ids, angles, sides)],
        "pairs": pairs,
        "worst": gaps.index(max(gaps)),  # the pair the drawing gets most wrong
    }


def data(build) -> dict:
    core = build.data
    vector_of_passage = {p["id"]: build.vector_of[p["text"]] for p in core["passages"]}
    return {"questions": {q["id"]: question_angles(core["runs"][q["id"]]["dense"], q["answer"], vector_of_passage)
                          for q in core["questions"] if q.get("answer")}}
