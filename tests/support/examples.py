"""The engine's docstring examples, found and checked (tests/engine/test_docstring_examples.py
runs them; the few that load the embedding model run in tests/engine/test_dense.py, beside the
model's other tests, so the model loads once).

An example reads `Example: <expression> -> <expected>`, on one line or continued on indented
lines. The expression runs in its module's namespace, with the engine's modules, `np`, `Path`,
`load_corpus` and a fresh problem log `log` at hand, from the repository's root. The expected
value is a Python literal compared with ==, floats to 1e-9; where it holds `...` (0.7029...),
the result's repr must match it with `...` standing for more digits.
"""

import importlib
import inspect
import math
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest

import engine
from engine.corpus import load_corpus
from engine.problems import ProblemLog
from support.paths import ROOT

EXAMPLE = re.compile(r"(?:^|\n)\s*Example:\s*(.+?)(?:\n\s*\n|\n\(|\Z)", re.S)
MODULES = sorted(m.name for m in pkgutil.iter_modules(engine.__path__))


def docstrings(module):
    yield module.__doc__ or ""
    for _, member in inspect.getmembers(module, lambda m: inspect.isfunction(m) or inspect.isclass(m)):
        if member.__module__ == module.__name__:
            yield member.__doc__ or ""
            for _, method in inspect.getmembers(member, inspect.isfunction):
                yield method.__doc__ or ""


def loads_model(module_name: str, expression: str) -> bool:
    """engine/models.py loads models (that is all it does); elsewhere, an example that embeds."""
    return module_name == "models" or "embed(" in expression


def examples(model: bool | None = None):
    """pytest params (module, expression, expected): every example, or only those that load the
    model (model=True), or only those that do not (model=False)."""
    for name in MODULES:
        module = importlib.import_module(f"engine.{name}")
        for doc in docstrings(module):
            for match in EXAMPLE.finditer(doc):
                text = " ".join(match.group(1).split())
                expression, arrow, expected = text.partition(" -> ")
                if model is not None and loads_model(name, expression) != model:
                    continue
                yield pytest.param(name, expression, expected if arrow else None, id=f"{name}: {expression[:50]}")


def same(actual, expected) -> bool:
    if isinstance(actual, np.ndarray):
        actual = actual.tolist()
    if isinstance(expected, float) or isinstance(actual, float):
        return isinstance(actual, (int, float)) and math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(actual) == len(expected) and all(same(a, e) for a, e in zip(actual, expected))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return actual.keys() == expected.keys() and all(same(actual[k], expected[k]) for k in expected)
    return actual == expected


def check_example(module_name, expression, expected, monkeypatch):
    """Run one example from the repository's root and compare with what its docstring says."""
    assert expected is not None, f"engine/{module_name}.py: an Example without ' -> <expected value>': {expression}"
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(f"engine.{module_name}")
    scope = {**{name: importlib.import_module(f"engine.{name}") for name in MODULES}, **vars(module),
             "np": np, "Path": Path, "load_corpus": load_corpus, "log": ProblemLog(ROOT / "corpus")}
    actual = eval(expression, scope)
    if "..." in expected:
        pattern = ".*?".join(re.escape(part) for part in re.split(r"\.\.\.", expected))
        pattern = pattern.replace("'", "[\"']").replace('"', "[\"']")
        assert re.fullmatch(pattern, repr(actual)), f"{expression} gave {actual!r}, the docstring says {expected}"
    else:
        wanted = eval(expected, scope)
        assert same(actual, wanted), f"{expression} gave {actual!r}, the docstring says {expected}"
