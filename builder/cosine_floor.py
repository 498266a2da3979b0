"""Does a cosine floor tell a question the help center answers from one it cannot? The lowest top
cosine among the golden questions whose right passage dense search puts first (answered, and
found), against the highest top cosine among the questions no passage answers
(corpus/unanswerable.yaml, set "unanswerable"). When the first is above the second, any cosine
between them separates the two sets here, and a typed question whose top cosine falls below the
answered ones' lowest may not be answered; when they overlap, no floor separates them, and the
Ask lab says so.

Example: cosine_floor([{"id": "g1", "set": "golden", "answers": ["a"]}, {"id": "u1", "set": "unanswerable", "answers": []}],
                      {"g1": {"dense": [["a", 0.61]]}, "u1": {"dense": [["b", 0.42]]}})
         -> {"answered": {"question": "g1", "passage": "a", "cosine": 0.61, "count": 1},
             "unanswerable": {"question": "u1", "passage": "b", "cosine": 0.42, "count": 1}, "separates": True}
"""


def top_of(runs: dict, question_id: str) -> tuple[str, float]:
    """The passage dense search ranks first for a question, and its cosine."""
    pid, cosine = runs[question_id]["dense"][0]
    return pid, cosine


def extreme(questions: list[dict], runs: dict, pick) -> dict:
    """The question whose top cosine is pick()'s (min or max) among `questions`, with the count."""
    tops = [(q["id"], *top_of(runs, q["id"])) for q in questions]
    qid, pid, cosine = pick(tops, key=lambda top: top[2])
    return {"question": qid, "passage": pid, "cosine": cosine, "count": len(tops)}


def cosine_floor(questions: list[dict], runs: dict) -> dict | None:
    """The answered questions' lowest top cosine, the unanswerable ones' highest, and whether the
    first lies above the second; None when either set is empty (a corpus without unanswerable
    questions, or one where dense search never puts a right passage first)."""
    answered = [q for q in questions if q["set"] == "golden" and runs[q["id"]]["dense"]
                and top_of(runs, q["id"])[0] in q["answers"]]
    unanswerable = [q for q in questions if q["set"] == "unanswerable" and runs[q["id"]]["dense"]]
    if not answered or not unanswerable:
        return None
    low, high = extreme(answered, runs, min), extreme(unanswerable, runs, max)
    return {"answered": low, "unanswerable": high, "separates": low["cosine"] > high["cosine"]}
