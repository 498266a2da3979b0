"""Render dist/index.html: every section's prose through builder/prose.py, the labs' default
states, the glossary, the embedded data, and the runtime concatenated into one classic script."""

import json
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from builder import page_figures
from builder.claims import ClaimFailed, ClaimRegistry
from builder.facts import Facts
from builder.output import to_json
from builder.prose import GlossaryLinks, ProseError, prose_environment, render_section
from builder.samples import SAMPLES, SampleRun, cache_key, render_sample, run_python
from builder.templates import SITE_SRC, environment


@dataclass
class RenderedPage:
    html: str
    app_js: str
    claims: list
    samples: list[SampleRun]


# Keys of the data that only the build reads (prose, figures, lab default states); the page's
# runtime never does, so they stay in dist/data/rag.json and out of the page's download.
BUILD_ONLY_KEYS = frozenset({"bm25_explain", "glossary", "worked_example", "rewrites", "rrf_example",
                             "near_misses"})


def compact_runs(data: dict) -> dict:
    """Each ranked list as [passage index, score] pairs; site_src/js/core.js turns them back."""
    index = {passage["id"]: number for number, passage in enumerate(data["passages"])}
    return {question: {retriever: [[index[pid], score] for pid, score in ranking]
                       for retriever, ranking in run.items()}
            for question, run in data["runs"].items()}


def runtime_data(data: dict) -> dict:
    """What the page's runtime reads: the data without the build-only keys, lists compacted."""
    kept = {key: value for key, value in data.items() if key not in BUILD_ONLY_KEYS}
    return kept | {"runs": compact_runs(data), "runs_format": "passage-index"}


def embed_json(data: dict) -> str:
    """JSON that is safe inside a <script> element: no '<', '>' or '&' at all."""
    return to_json(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def runtime_js(js_dir: Path = SITE_SRC / "js") -> str:
    """core.js first, then each lab's file in name order, as one classic script."""
    files = [js_dir / "core.js"] + sorted(p for p in js_dir.glob("*.js") if p.name != "core.js")
    return "".join(f"/* {p.name} */\n{p.read_text('utf-8').rstrip()}\n\n" for p in files if p.is_file())


def samples_to_run(cache_dir: Path, samples_dir: Path = SAMPLES) -> int:
    """How many sample programs have no cached output (each is a Python process to run)."""
    return sum(not (cache_dir / f"{cache_key(p.read_text('utf-8'))}.out").is_file()
               for p in samples_dir.glob("*.py"))


def render_page(data: dict, cache_dir: Path, strict_claims: bool = True, progress=None) -> RenderedPage:
    """`progress(done, total)`, if given, is told as each uncached sample program finishes."""
    facts = Facts(data)
    namespace = facts.namespace()
    claims = ClaimRegistry(namespace)
    env = prose_environment(claims)
    glossary = GlossaryLinks(data["glossary"])
    samples: list[SampleRun] = []
    templates = environment()
    pending = samples_to_run(cache_dir / "samples") if progress else 0

    def block_helpers(fragments):
        def sample(name: str, caption: str = "") -> Markup:
            run = run_python(name, cache_dir / "samples")
            samples.append(run)
            if progress and not run.cached:
                progress(min(sum(not r.cached for r in samples), pending), pending)
            return fragments.block(render_sample(name, run, caption))

        def figure(name: str, **options) -> Markup:
            if name not in page_figures.FIGURES:
                raise ProseError(f"no figure '{name}' (fix: use one of {', '.join(page_figures.FIGURES)})")
            return fragments.block(page_figures.FIGURES[name](facts, **options))

        def lab(name: str, **options) -> Markup:
            return fragments.block(Markup(templates.get_template(f"lab-{name}.html").render(
                **namespace, **options)))

        def block(html) -> Markup:
            return fragments.block(Markup(html))

        return {"sample": sample, "figure": figure, "lab": lab, "block": block}

    sections = [render_section(path, env, namespace, glossary, block_helpers)
                for path in sorted((SITE_SRC / "sections").glob("*.md"))]
    if progress and pending and sum(not r.cached for r in samples) < pending:
        progress(pending, pending)  # a sample file no section uses: close the bar
    if strict_claims and claims.failures():
        raise ClaimFailed(claims.failures())
    used_terms = [g for g in data["glossary"]]
    html = templates.get_template("page.html").render(
        title="RAG, explained on a help center whose every score is real",
        description=("An interactive explainer of retrieval-augmented generation: chunking, BM25, "
                     "embeddings, fusion, prompts and citation checks, run for real on a small help center."),
        sections=[{"slug": s.slug, "number": s.number, "title": s.title, "html": Markup(s.html)} for s in sections],
        glossary=used_terms, data_json=Markup(embed_json(runtime_data(data))), schema=data["schema"])
    return RenderedPage(html, runtime_js(), claims.results, samples)


def claims_as_json(results) -> str:
    return json.dumps([{"id": r.id, "section": r.section, "line": r.line, "sentence": r.sentence,
                        "check": r.check, "held": r.held} for r in results], indent=1)
