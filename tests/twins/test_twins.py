"""One engine in two languages: every pair of tests/twins/pairs.py (a Python function of
engine/ and its JavaScript twin of site_src/engine/) run on the same fixtures
(tests/twins/fixtures.py), each result equal. The JavaScript side is the joined engine the page
loads, run in one Node process for the session (tests/twins/node.py).

Also here: that no twin is left out (every function a site_src/engine/*.js file exports has a
pair; every twin file is joined, names its Python module and is named by it); how the old
rounding of live.js failed; that the JavaScript twins take their settings from the caller; and
the count of pairs, fixtures and cases, written to test-artifacts/twins.json.
"""

import json
import math
import re

import numpy as np
import pytest

from builder.page import assets
from builder.sources import SITE_SRC
from support.paths import ROOT
from twins.fixtures import NUMBER_TEXTS, Fixture, Ref, fixtures, near_ties
from twins.node import NodeEngine
from twins.pairs import CLASSES, CONSTANTS, PAIRS, Pair, python_module, python_name

ENGINE_DIR = SITE_SRC / "engine"
ARTIFACT = ROOT / "test-artifacts" / "twins.json"


@pytest.fixture(scope="module")
def node():
    engine = NodeEngine()
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def inputs(data) -> dict[str, Fixture]:
    return fixtures(data)


# ------------------------------------------------------------------------------- running a pair

def on_the_wire(fixture: Fixture) -> list[list]:
    """A fixture's cases as the driver reads them: a Ref (only ever a whole argument) as {"$ref": name}."""
    if not fixture.objects:
        return fixture.cases
    return [[{"$ref": arg.name} if isinstance(arg, Ref) else arg for arg in case] for case in fixture.cases]


BUILT: dict[int, dict] = {}  # a fixture's objects, built once for every pair that reads it


def python_objects(fixture: Fixture) -> dict:
    if id(fixture) not in BUILT:
        BUILT[id(fixture)] = {name: CLASSES[new.kind](*new.args) for name, new in fixture.objects.items()}
    return BUILT[id(fixture)]


def plain(value):
    """A Python result as JSON would carry it: tuples as lists, numpy's numbers as Python's."""
    if isinstance(value, (str, float, int)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def run_python(pair: Pair, fixture: Fixture) -> list:
    objects = python_objects(fixture)
    results = []
    for case in fixture.cases:
        args = [objects[arg.name] if isinstance(arg, Ref) else arg for arg in case]
        try:
            results.append(plain(pair.call(pair.python, *args) if pair.call else pair.python(*args)))
        except Exception as error:  # the twin must throw too, with the same message
            results.append({"$error": str(error)})
    return results


def difference(python, js, same, at="") -> str | None:
    """Where two results part ("" when equal), floats bit for bit unless `same` says how close."""
    if isinstance(python, bool) or isinstance(js, bool):
        return None if python is js else f"{at}: {python!r} != {js!r}"
    if isinstance(python, (int, float)) and isinstance(js, (int, float)):
        if math.isnan(python) or math.isnan(js):
            return None if math.isnan(python) and math.isnan(js) else f"{at}: {python!r} != {js!r}"
        if same is None:
            equal = python == js and math.copysign(1, python) == math.copysign(1, js)
        else:
            equal = math.isclose(python, js, rel_tol=same.rel, abs_tol=same.abs) or python == js
        return None if equal else f"{at}: {python!r} != {js!r}"
    if isinstance(python, list) and isinstance(js, list):
        if len(python) != len(js):
            return f"{at}: {len(python)} items != {len(js)} ({python!r:.300} != {js!r:.300})"
        for i, (a, b) in enumerate(zip(python, js)):
            found = difference(a, b, same, f"{at}[{i}]")
            if found:
                return found
        return None
    if isinstance(python, dict) and isinstance(js, dict):
        if python.keys() != js.keys():
            return f"{at}: keys {sorted(python)} != {sorted(js)}"
        for key in python:
            found = difference(python[key], js[key], same, f"{at}.{key}")
            if found:
                return found
        return None
    return None if python == js and type(python) is type(js) else f"{at}: {python!r:.300} != {js!r:.300}"


def shown(case) -> str:
    text = repr(case)
    return text if len(text) < 400 else text[:400] + f"… ({len(text)} characters)"


def pair_id(pair: Pair) -> str:
    return f"{python_name(pair.python)} ~ {pair.js}"


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_twins_return_the_same(pair, node, inputs):
    for name in pair.fixtures:
        fixture = inputs[name]
        objects = {key: {"new": new.kind, "args": list(new.args)} for key, new in fixture.objects.items()}
        js = node.call(pair.js, on_the_wire(fixture), objects)
        python = run_python(pair, fixture)
        assert len(js) == len(python) == len(fixture.cases)
        for number, (case, a, b) in enumerate(zip(fixture.cases, python, js)):
            found = difference(a, b, pair.same)
            assert not found, (f"{pair_id(pair)} differ on fixture '{name}', case {number}: {shown(case)}\n"
                               f"  where {found}\n  Python: {a!r:.500}\n  JavaScript: {b!r:.500}")


# ------------------------------------------------------------------------------- nothing forgotten

def test_every_function_a_twin_file_exports_has_its_pair(node):
    paired = {pair.js for pair in PAIRS}
    missing = []
    for file, found in node.exports.items():
        missing += [f"{file}: {name}" for name in found["functions"] if name not in paired]
        missing += [f"{file}: {cls}#{method}" for cls, methods in found["classes"].items() for method in methods
                    if f"{cls}#{method}" not in paired]
        missing += [f"{file}: {name} (a constant: name its pair in pairs.CONSTANTS)" for name in found["constants"]
                    if CONSTANTS.get(name) not in paired]
    assert not missing, "exported by the engine's JavaScript but run by no pair of tests/twins/pairs.py:\n" + "\n".join(missing)


def test_every_pair_names_a_twin_the_engine_exports_and_fixtures_that_exist(node, inputs):
    exported = set()
    for found in node.exports.values():
        exported |= set(found["functions"]) | {f"{c}#{m}" for c, methods in found["classes"].items() for m in methods}
    for pair in PAIRS:
        assert pair.js in exported, f"{pair_id(pair)}: RAG.engine has no {pair.js}"
        assert pair.fixtures and set(pair.fixtures) <= set(inputs), f"{pair_id(pair)}: unknown fixtures {pair.fixtures}"
        assert all(inputs[name].cases for name in pair.fixtures), f"{pair_id(pair)}: an empty fixture"
    assert len({pair.js for pair in PAIRS}) == len(PAIRS), "a twin is paired twice"


def test_each_pair_joins_a_python_module_to_the_twin_file_of_the_same_name(node):
    file_of = {}
    for file, found in node.exports.items():
        for name in found["functions"] + [f"{c}#{m}" for c, methods in found["classes"].items() for m in methods]:
            file_of[name] = file
    for pair in PAIRS:
        module, file = python_module(pair.python), file_of[pair.js]
        if module is None:  # Python's own (str.strip, round): the twin file's header names it
            header = (ROOT / file).read_text("utf-8").split("*/", 1)[0]
            assert pair.python.__qualname__.split(".")[-1] in header, f"{file} does not name Python's {pair.python.__qualname__}"
        else:
            assert file == f"site_src/engine/{module}.js", f"{pair_id(pair)}: engine/{module}.py's twin is in {file}"


def test_every_twin_file_is_joined_and_names_its_python_module_which_names_it():
    on_disk = sorted(path.name for path in ENGINE_DIR.glob("*.js"))
    assert sorted(assets.ENGINE) == on_disk, "builder/page/assets.py ENGINE must list every site_src/engine/*.js, once"
    for name in assets.ENGINE:
        module = name.removesuffix(".js")
        python = ROOT / "engine" / f"{module}.py"
        assert python.is_file(), f"site_src/engine/{name} has no engine/{module}.py to be the twin of"
        header = (ENGINE_DIR / name).read_text("utf-8").split("*/", 1)[0]
        assert f"the twin of engine/{module}.py" in header, f"site_src/engine/{name}: its header must say it is the twin of engine/{module}.py"
        docstring = python.read_text("utf-8").split('"""')[1]
        assert f"site_src/engine/{name}" in docstring, f"engine/{module}.py: its docstring must name its twin, site_src/engine/{name}"
    # And no engine module claims a twin that is not joined.
    for python in sorted((ROOT / "engine").glob("*.py")):
        named = re.findall(r"site_src/engine/(\w+)\.js", python.read_text("utf-8").split('"""')[1] if '"""' in python.read_text("utf-8") else "")
        for twin in named:
            assert f"{twin}.js" in assets.ENGINE, f"{python.name} names site_src/engine/{twin}.js, which ENGINE does not join"


def test_each_twin_file_works_alone_in_a_worker_and_in_node_through_globalthis():
    for name in assets.ENGINE:
        code = (ENGINE_DIR / name).read_text("utf-8")
        assert "window" not in re.sub(r"/\*.*?\*/|//[^\n]*", "", code, flags=re.S), f"site_src/engine/{name} names window: use globalThis"
        assert "globalThis.RAG" in code and "RAG.engine" in code, f"site_src/engine/{name} must add to globalThis.RAG.engine"


# ------------------------------------------------------------------------------- what the pairs pin

def test_the_number_words_read_the_same_way_in_both_languages_and_as_pinned(node):
    pinned = {"twenty-nine": [["29", "twenty-nine"]], "twenty nine": [["29", "twenty nine"]],
              "twentynine": [["29", "twentynine"]], "Twenty\u2011Nine": [["29", "twenty-nine"]],
              "twenty- nine": [["20", "twenty"], ["9", "nine"]], "twentyish": [],
              "fortytwo and sixtyone": [["42", "fortytwo"], ["61", "sixtyone"]]}
    from engine.citations import numbers_in

    assert set(pinned) <= set(NUMBER_TEXTS)
    js = node.call("numbersIn", [[text] for text in pinned])
    assert [[list(n) for n in numbers_in(text)] for text in pinned] == list(pinned.values())
    assert js == list(pinned.values())


def test_the_claims_reach_every_problem_the_checker_reports_and_pass_too(inputs):
    """So that checkClaim's pair holds each rule of the checker equal, not only the easy ones."""
    from engine.citations import Claim, check_claim

    results = [check_claim(Claim(**claim), sources) for claim, sources in inputs["claims"].cases]
    seen = [problem for result in results for problem in result.problems]
    assert "quote not found in source 'err-4021'" in seen
    for kind in ("unknown source id", "does not come after", "is not in it", "the quote is empty", "the quote is one word",
                 "is only a number", "has no words", "of the shortened quote", '("three")', "number 20 in", '("twentynine")',
                 'number 9 ("nine")'):
        assert any(kind in problem for problem in seen), kind
    assert sum(result.ok for result in results) >= 25


def test_the_old_rounding_of_live_js_is_not_pythons_round_near_ties(node):
    """Math.round(x * 1e6) / 1e6 rounds x * 1e6, already rounded, so values near a tie fall on
    the wrong side; roundTo (ranking.js) agrees with round(x, 6) on every one (the pair above)."""
    values = near_ties()
    old = node.call("old round6", [[x] for x in values])
    wrong = sum(1 for x, y in zip(values, old) if y != round(x, 6))
    record("old rounding wrong", {"of": len(values), "wrong": wrong})
    assert len(values) >= 200_000 and wrong > 0


def test_the_javascript_twins_take_their_settings_from_the_caller(node):
    refused = node.call("new", [["BM25", ["a"], None, 0.75], ["BM25", ["a"], 1.2]])
    refused += node.call("rrf", [[[["a"]]]]) + node.call("hybridRanking", [[[], []]]) + node.call("wilson", [[1, 2]])
    assert all("$error" in r and "give" in r["$error"] for r in refused), refused


# ------------------------------------------------------------------------------- the count

RECORD: dict = {}


def record(key, value):
    RECORD[key] = value
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    ARTIFACT.write_text(json.dumps(RECORD, indent=1, ensure_ascii=False) + "\n", "utf-8")


def test_the_harness_counts_its_pairs_and_fixtures(node, inputs, capsys):
    used = sorted({name for pair in PAIRS for name in pair.fixtures})
    summary = {
        "pairs": len(PAIRS),
        "fixtures": len(used),
        "cases": {name: len(inputs[name].cases) for name in used},
        "calls": sum(len(inputs[name].cases) for pair in PAIRS for name in pair.fixtures),
        "list": [{"python": python_name(pair.python), "javascript": f"RAG.engine.{pair.js}", "fixtures": list(pair.fixtures)}
                 for pair in PAIRS],
        "files": {file: found for file, found in node.exports.items()},
    }
    for key, value in summary.items():
        record(key, value)
    assert set(used) == set(inputs), f"fixtures no pair uses: {sorted(set(inputs) - set(used))}"
    with capsys.disabled():
        print(f"\ntwins: {summary['pairs']} pairs, {summary['fixtures']} fixtures, {sum(summary['cases'].values()):,} cases, "
              f"{summary['calls']:,} calls in each language ({ARTIFACT.relative_to(ROOT)})")
