"""The prompt builder: one question, the top n passages of its fused list, and the prompt
engine/prompt.py builds from them, with its size in tokens; a switch adds a hostile source to
show the escaping at work. The view (lab.js) builds the prompt with the engine's JavaScript
twin; the data step gives it the range of sizes, the hostile source, and the token counts of the
prompts with that source added (those without it are in the core data, data.prompt_tokens).

Example: [s.id for s in sources_for(by_id, [["refund-new", 0.03], ["refund-old", 0.02]], 1, demo=True)]
         -> ["refund-new", "forum-tip"]
"""

from engine.prompt import Source, build_prompt
from engine.settings import PROMPT_SIZES
from engine.tokens import count_o200k

from builder.core_data import source_of
from builder.prompt_examples import HOSTILE

STATE = {"q": "refund-three-weeks", "n": 5, "demo": False}  # the state the page opens on
SCRIPTS = ("engine",)  # the browser's twin of engine/prompt.py, which the view builds the prompt with
VIEWS = ("prompt",)    # site_src/views/prompt.js draws it


def sources_for(by_id: dict, ranking: list, n: int, demo: bool = False) -> list[Source]:
    """The prompt's sources: the top n of a fused ranking, best first, and with the demo the
    hostile source last (it is never searched, so it never ranks).

    Example: [s.id for s in sources_for(by_id, [["a", 0.03], ["b", 0.02]], 1, demo=True)] -> ["a", "forum-tip"]
    """
    return [source_of(by_id[pid]) for pid, _ in ranking[:n]] + ([HOSTILE] if demo else [])


def hostile_tokens(questions: list[dict], runs: dict, by_id: dict, count=count_o200k) -> dict:
    """question id -> passages sent -> tokens of the prompt with the hostile demo source added
    last (the prompts without it are counted in the core data, data.prompt_tokens)."""
    return {q["id"]: {str(n): count(build_prompt(q["text"], sources_for(by_id, runs[q["id"]]["hybrid"], n, demo=True)))
                      for n in PROMPT_SIZES} for q in questions}


def data(build) -> dict:
    corpus, core = build.corpus, build.data
    return {
        "sizes": [min(PROMPT_SIZES), max(PROMPT_SIZES)],
        "hostile": {"id": HOSTILE.id, "title": HOSTILE.title, "date": HOSTILE.date, "text": HOSTILE.text},
        "hostile_tokens": hostile_tokens(core["questions"], core["runs"], corpus.by_id),
    }
