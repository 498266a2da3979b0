"""Every `Example:` in the engine's docstrings is run, so the examples a reader trusts stay true.

The syntax and how an example is checked: tests/support/examples.py. Examples that load the
embedding model run in test_dense.py, so the model loads in one process.
"""

import pytest

from support.examples import EXAMPLE, MODULES, check_example, examples


@pytest.mark.parametrize("module_name, expression, expected", list(examples(model=False)))
def test_the_example_is_true(module_name, expression, expected, monkeypatch):
    check_example(module_name, expression, expected, monkeypatch)


def test_every_engine_module_teaches_by_example():
    documented = {param.values[0] for param in examples()}
    missing = sorted(set(MODULES) - documented)
    assert not missing, f"engine modules without an Example: line: {missing}"


def test_the_pattern_reads_a_continued_example():
    doc = "Purpose.\n\nExample: f(1,\n           2)\n         -> [3]\n"
    assert " ".join(EXAMPLE.search(doc).group(1).split()) == "f(1, 2) -> [3]"
