"""Imports run one way: a lab (site_src/labs/<name>/) may import the core (engine/, builder/) and
its own modules, never another lab's nor the page layer (builder/page/, which renders the labs);
the core never imports a lab. A stage that needs a lab's figures asks the lab through
builder/labs.py, and what several labs share lives in the core (builder/view_settings.py for the
views' settings)."""

import ast
from pathlib import Path

from support.paths import ROOT

LABS = ROOT / "site_src" / "labs"


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in a Python file, at any depth (a late import counts too)."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def lab_named(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["site_src", "labs"] and len(parts) > 2 else None


def test_no_lab_imports_another_lab():
    crossings = []
    for path in sorted(LABS.glob("*/*.py")):
        own = path.parent.name
        for line, module in imported_modules(path):
            other = lab_named(module)
            if other and other != own.replace("-", "_") and other != own:
                crossings.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not crossings, ("a lab imports another lab; move what they share into the core "
                           "(builder/view_settings.py for a view's settings):\n" + "\n".join(crossings))


def test_no_lab_imports_the_page_layer():
    """The page layer (builder/page/) renders the labs' data; a lab's data step reads the corpus
    through the core (builder/practice_source.py for the practice questions), never through it."""
    crossings = [f"{path.relative_to(ROOT)}:{line} imports {module}"
                 for path in sorted(LABS.glob("*/*.py")) if not path.name.startswith("test_")
                 for line, module in imported_modules(path) if module.split(".")[:2] == ["builder", "page"]]
    assert not crossings, ("a lab imports the page layer; read what it needs through the core "
                           "(builder/practice_source.py, builder/sources.py):\n" + "\n".join(crossings))


def test_the_core_imports_no_lab():
    crossings = []
    for folder in ("engine", "builder"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            crossings += [f"{path.relative_to(ROOT)}:{line} imports {module}"
                          for line, module in imported_modules(path) if lab_named(module)]
    assert not crossings, "the core imports a lab; have the lab hand it what it needs (builder/labs.py):\n" + "\n".join(crossings)


def test_the_check_sees_an_import_of_another_lab(tmp_path):
    sample = tmp_path / "data.py"
    sample.write_text("def data(build):\n    from site_src.labs.hybrid.data import SLIDERS\n    return SLIDERS\n", "utf-8")
    assert [lab_named(module) for _, module in imported_modules(sample)] == ["hybrid"]
