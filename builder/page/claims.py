"""Claims: sentences of the prose that state something about the numbers, each backed by a
check the build evaluates. A false check fails the build and names the sentence.

In a section's Markdown:

    {% claim "rank('q-upload', 'dense') > rank('q-upload', 'bm25')" %}
    Dense search puts the right passage lower than BM25 does.
    {% endclaim %}

The check is a Python expression over the same helpers the prose uses for numbers
(builder/page/facts.py). When it is false, the error shows each part of it with its value now.
"""

import ast
import re
import sys
from dataclasses import dataclass, field

from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup, escape


@dataclass
class ClaimResult:
    id: str
    section: str
    line: int
    sentence: str
    check: str
    held: bool
    seen: list[tuple[str, str]] = field(default_factory=list)
    error: str = ""

    def describe(self) -> str:
        status = "held" if self.held else "FAILED"
        text = f"{self.section}:{self.line}: [{status}] {self.sentence}\n      check: {self.check}"
        if not self.held:
            if self.error:
                text += f"\n      error: {self.error}"
            for expression, value in self.seen:
                text += f"\n      now: {expression} = {value}"
        return text


class ClaimFailed(Exception):
    def __init__(self, failures: list[ClaimResult]):
        self.failures = failures
        lines = "\n".join("  " + f.describe() for f in failures)
        super().__init__(f"{len(failures)} claim(s) on the page no longer hold; rewrite each sentence to match "
                         f"the numbers (or fix the corpus):\n{lines}")


def _scoped(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside a comprehension or a lambda that only make sense there (they
    read its own names); a comprehension's first iterable is evaluated outside it, so it stays."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            parts = [getattr(node, name) for name in ("elt", "key", "value") if hasattr(node, name)]
            for at, generator in enumerate(node.generators):
                parts += [generator.target, *generator.ifs] + ([generator.iter] if at else [])
        elif isinstance(node, ast.Lambda):
            parts = [node.body]
        else:
            continue
        inside.update(id(inner) for part in parts for inner in ast.walk(part))
    return inside


def parts_of(check: str) -> list[str]:
    """The sub-expressions worth showing when a check fails: the sides of every comparison
    and every call, outermost first, without repeats; not those inside a comprehension or a
    lambda that read its own names (pid in `sum(1 for pid in ids(...) if pid.startswith(...))`),
    which have no value outside it.

    Example: parts_of("sum(1 for p in ids('q') if p.startswith('err-')) > 2") -> ["sum(1 for p in ids('q') if p.startswith('err-'))", "ids('q')"]
    """
    tree = ast.parse(check, mode="eval")
    inside = _scoped(tree)
    seen: list[str] = []
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        candidates = []
        if isinstance(node, ast.Compare):
            candidates = [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            candidates = [node]
        for candidate in candidates:
            if isinstance(candidate, ast.Constant):
                continue
            source = ast.get_source_segment(check, candidate)
            if source and source not in seen:
                seen.append(source)
    return seen


# What a check may call besides the page's helpers.
BUILTINS = {"len": len, "all": all, "any": any, "min": min, "max": max, "sum": sum, "abs": abs, "round": round,
            "sorted": sorted, "set": set, "None": None, "dict": dict, "list": list, "zip": zip, "enumerate": enumerate}


def plain_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def running_template() -> tuple[str, int]:
    """(where, line) of the Jinja template now running: a section's file and its line (prose.py
    renders a section from "\n" + body with _section, so template lines are the file's), or ("?", 0)."""
    frame = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            context = frame.f_locals.get("context")  # a section is rendered with _section=its file
            where = (context.get("_section") if context is not None else None) or template.name or "?"
            return where, template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return "?", 0


class ClaimRegistry:
    def __init__(self, namespace: dict, left_out=None):
        self.namespace = namespace
        self.results: list[ClaimResult] = []
        # For a page built from another corpus (builder/page/left_out.py): (result, body) -> a
        # mark in place of a claim that does not hold there, or None to keep it.
        self.left_out = left_out

    def evaluate(self, check: str, section: str, line: int, body: str) -> ClaimResult:
        scope = {"__builtins__": BUILTINS}
        result = ClaimResult(self.next_id(section), section, line, plain_text(body), check, False)
        try:
            # One dict as globals, so comprehensions and lambdas in a check can see the helpers too.
            result.held = bool(eval(compile(check, f"{section}:{line}", "eval"), {**scope, **self.namespace}))
        except Exception as error:  # an author's typo in a check is reported like a false claim
            result.error = f"{type(error).__name__}: {error}"
        if not result.held:
            for part in parts_of(check) if not result.error.startswith("SyntaxError") else []:
                try:
                    value = eval(compile(part, "part", "eval"), {**scope, **self.namespace})
                except Exception as error:
                    value = f"<{type(error).__name__}: {error}>"
                result.seen.append((part, repr(value)))
        self.results.append(result)
        return result

    def untrue_elsewhere(self, statement: str) -> ClaimResult:
        """A statement of the prose outside a {% claim %} that does not hold (a tied rank written
        as a rank, in a build whose prose may be untrue): reported like a false claim, where the
        template running now stands, and kept with its section's claims, so that a strict build
        reusing the section still stops on it."""
        section, line = running_template()
        result = ClaimResult(self.next_id(section), section, line, statement, "a rank of its own", False,
                             error="TiedRank: " + statement)
        self.results.append(result)
        return result

    def next_id(self, section: str) -> str:
        """claim-05-3: the third claim of section 05, whatever the sections before it hold (so a
        section's HTML, cached, keeps its ids). Outside a numbered section: claim-<n> page-wide."""
        number = re.match(r"(?:.*/)?(\d+)-", section)
        if not number:
            return f"claim-{len(self.results) + 1}"
        return f"claim-{number.group(1)}-{sum(r.section == section for r in self.results) + 1}"

    def failures(self) -> list[ClaimResult]:
        return [r for r in self.results if not r.held]


class ClaimExtension(Extension):
    """{% claim "python expression" %}sentence{% endclaim %}"""

    tags = {"claim"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        check = parser.parse_expression()
        body = parser.parse_statements(("name:endclaim",), drop_needle=True)
        call = self.call_method("_render", [check, nodes.Const(lineno), nodes.Name("_section", "load")])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render(self, check: str, lineno: int, section: str, caller) -> Markup:
        body = caller().strip()
        registry: ClaimRegistry = self.environment.globals["_claims"]
        result = registry.evaluate(check, section, lineno, body)
        left_out = registry.left_out(result, body) if registry.left_out else None
        if left_out is not None:
            return left_out
        title = "Checked by the build against the numbers on this page"
        return Markup('<span class="claim" data-claim="{}" title="{}">{}</span>').format(
            result.id, title, Markup(body))


def claim_report(results: list[ClaimResult]) -> str:
    held = sum(r.held for r in results)
    return "\n".join(r.describe() for r in results) + f"\n{held}/{len(results)} claims hold"


__all__ = ["ClaimExtension", "ClaimRegistry", "ClaimFailed", "ClaimResult", "claim_report", "escape"]
