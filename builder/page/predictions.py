"""Predict, then look: before a lab, a question about what it will show once the reader sets a
control (corpus/predictions.yaml). The reader picks a choice, sets the control, and the page says
whether they were right, once the lab's live state is the one the question names.

The right choice is never marked by hand: each choice says, as a Python expression over the
page's helpers (builder/page/facts.py, with `let`), when it would be right, and the build
evaluates them on its own data; exactly one must hold. So a corpus edit that moves the numbers
moves the answer, or stops the build when no choice (or two) would then be right.

    - id: hybrid-depth
      lab: hybrid
      when: {depth: 4}                  # the lab's state the question is about (part of it)
      let: {at: "fused_place('q-upload', 'err-1', depth=4)"}
      question: With depth {{ when.depth }}, where does `err-1` go?
      task: Drag depth to {{ when.depth }}.
      shows: At depth {{ when.depth }}, fusion puts `err-1` at {{ at }}.
      choices:
        - text: It stays first
          is: at == '1'
        - text: It drops out of the fused list
          is: at is None

The predictions as written are read by builder/practice_source.py; this module renders them.

Example: render_predictions([prediction.as_source()], env, namespace) -> ([{"id": "hybrid-depth", "answer": 1, ...}], [])
"""

import json
import re

from markupsafe import Markup

from engine.bm25 import BM25
from engine.problems import Problem
from engine.ranking import bm25_ranking, hybrid_ranking, places, rank_label
from engine.settings import BM25_B, BM25_K1, FUSION_DEPTH, RRF_K

from builder.page.claims import BUILTINS
from builder.page.errors import ProseError
from builder.page.practice import evaluate_let, form_giveaways, inline, plain, render_text
from builder.practice_source import PREDICTIONS_FILE


# ------------------------------------------------------------------ what a lab shows at other settings


def helpers(facts) -> dict:
    """Names a prediction's expressions may use besides the prose's: the engine run at the
    settings the reader will set, over the build's own rankings and passages (the labs' twins of
    the same functions, proven equal, redraw it in the browser).

    Example: helpers(facts)["fused_place"]('q-upload', 'err-1', depth=4) -> '1='
    """
    def fused(question: str, depth: int = FUSION_DEPTH, k: int = RRF_K) -> list[tuple[str, float]]:
        return hybrid_ranking(facts.run(question, "dense"), facts.run(question, "bm25"), depth, k)

    def place_in(ranking: list[tuple[str, float]], passage: str) -> str | None:
        ids = [pid for pid, _ in ranking]
        return rank_label(places(ranking)[ids.index(passage)]) if passage in ids else None

    def fused_place(question: str, passage: str, depth: int = FUSION_DEPTH, k: int = RRF_K) -> str | None:
        """How the hybrid lab writes the passage's place at that depth and k ("1=" in a tie), or None."""
        return place_in(fused(question, depth, k), passage)

    def bm25_at(text: str, k1: float = BM25_K1, b: float = BM25_B) -> list[tuple[str, float]]:
        """BM25 over the passages with k1 and b set, as the BM25 explorer's sliders set them."""
        passages = facts.data["passages"]
        return bm25_ranking([p["id"] for p in passages], BM25([p["text"] for p in passages], k1, b), text)

    return {"fused": fused, "fused_place": fused_place, "bm25_at": bm25_at, "place_in": place_in}


# ------------------------------------------------------------------ rendering and checking


def right_choice(prediction: dict, scope: dict) -> tuple[int | None, list[int]]:
    """The choices whose `is` holds on the build's data: (the one, or None; all that hold)."""
    holding = []
    for i, choice in enumerate(prediction["choices"]):
        where = f"{PREDICTIONS_FILE}:{choice['line']}: {prediction['id']}: is"
        try:
            if eval(compile(choice["is"], where, "eval"), {"__builtins__": BUILTINS, **scope}):
                holding.append(i)
        except Exception as error:
            raise ProseError(f"{where}: {type(error).__name__}: {error} (fix: the expression names something the "
                             "build's data does not have)") from None
    return (holding[0] if len(holding) == 1 else None), holding


def render_prediction(prediction: dict, env, namespace: dict) -> tuple[dict, list[str]]:
    """The prediction as the page shows it, and its problems: no choice or several holding, or a
    right choice of another form than the others (the quiz's rule)."""
    scope = evaluate_let({**prediction, "line": prediction["line"]}, {**namespace, "when": dict(prediction["when"])})
    key, pid = f"predict/{prediction['id']}", prediction["id"]
    where = f"{PREDICTIONS_FILE}:{{}}: {pid}: {{}}"
    text = {field: render_text(env, prediction[field], scope, f"{key}/{field}", where.format(prediction["line"], field))
            for field in ("question", "task", "shows")}
    choices = [render_text(env, c["text"], scope, f"{key}/{i}", where.format(c["line"], "text"))
               for i, c in enumerate(prediction["choices"])]
    answer, holding = right_choice(prediction, scope)
    shown = {"id": pid, "lab": prediction["lab"], "line": prediction["line"], "when": dict(prediction["when"]), **text,
             "choices": choices, "answer": answer}
    if answer is None:
        said = ", ".join(f"“{choices[i]}”" for i in holding) or "none"
        return shown, [str(Problem(PREDICTIONS_FILE, prediction["line"], pid, "choices",
                                   f"exactly one choice must hold on the build's data, and {len(holding)} do ({said})",
                                   "make the choices exclude each other and cover what the lab can show"))]
    problems = [str(p).replace("corpus/quiz.yaml", PREDICTIONS_FILE)
                for p in form_giveaways({"choices": prediction["choices"]}, {**shown, "id": pid}, [plain(c) for c in choices])]
    folded = [plain(c).lower() for c in choices]
    if len(set(folded)) < len(folded):
        problems.append(str(Problem(PREDICTIONS_FILE, prediction["line"], pid, "choices", "two choices read alike",
                                    "make every choice say something different")))
    return shown, problems


def render_predictions(source: list[dict], env, namespace: dict) -> tuple[list[dict], list[str]]:
    env = env.overlay(autoescape=False)
    shown, problems = [], []
    for prediction in source:
        one, found = render_prediction(prediction, env, namespace)
        shown.append(one)
        problems += found
    return shown, problems


# ------------------------------------------------------------------ the frame before a lab


ATTRIBUTE = re.compile(r'([a-z][\w-]*)(?:="([^"]*)")?')


def controls_of(lab_html: str, key: str) -> list[dict]:
    """The attributes of each control bound to state[key] in a lab's frame (data-key="key"; for
    q, the question picker), a select's with its options' values under "options"."""
    found = []
    for tag, attrs, rest in re.findall(r'<(input|select)\b([^>]*)>((?:(?!</select>).)*</select>)?', lab_html, re.S):
        attributes = {name: value for name, value in ATTRIBUTE.findall(attrs)}
        picker = key == "q" and attributes.get("data-picker") == "question"
        if attributes.get("data-key") != key and not picker:
            continue
        if tag == "select":
            attributes["options"] = re.findall(r'<option[^>]*value="([^"]*)"', rest)
        found.append(attributes | {"tag": tag})
    return found


def can_take(control: dict, value) -> bool:
    kind = control.get("type", control["tag"])
    if kind == "range":
        low, high, step = (float(control.get(name, default)) for name, default in (("min", 0), ("max", 100), ("step", 1)))
        steps = (float(value) - low) / step
        return low - 1e-9 <= float(value) <= high + 1e-9 and abs(steps - round(steps)) < 1e-6
    if kind == "radio":
        return control.get("value") == (str(value).lower() if isinstance(value, bool) else str(value))
    if kind == "select":
        # A picker of presets lists every question of the page once the lab starts.
        return control.get("data-options") == "presets" or str(value) in control["options"]
    if kind == "checkbox":
        return isinstance(value, bool)
    return True  # a text field takes any text


def unreachable(lab_html: str, when: dict, question_ids) -> list[str]:
    """The settings of `when` that the lab's controls cannot set: the reader could never see the
    verdict. A question (q) must be one of the page's, and one its picker offers."""
    missing = []
    for key, value in when.items():
        if key == "q" and value not in question_ids:
            missing.append(f"q = {value!r} (no such question)")
            continue
        controls = controls_of(lab_html, key)
        if not any(can_take(control, value) for control in controls):
            missing.append(f"{key} = {value!r}")
    return missing


def frame(p: dict, template) -> Markup:
    """The prediction's frame (site_src/templates/_prediction.html): the question and its choices,
    what to set in the lab, the verdict's place; without JavaScript the outcome waits in a details."""
    return Markup(template.render(p=p, when=json.dumps(p["when"], sort_keys=True), inline=inline))
