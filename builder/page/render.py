"""Render dist/index.html: every section's prose (builder/page/prose.py) with its claims,
samples, figures and labs, the glossary, and the links to the assets the runtime loads.

A lab placed with {{ lab("name", **state) }} renders site_src/labs/<name>/lab.html with the
page's helpers and: name, lab (its data, data.labs[name]), state (builder/labs/<name>.py
STATE, updated by the options), scripts (the shared scripts it needs).
"""

import json
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from builder import labs
from builder.page import assets, figures, scroll_boxes
from builder.page.claims import ClaimFailed, ClaimRegistry
from builder.page.errors import ProseError
from builder.page.facts import Facts
from builder.page.glossary import GlossaryLinks
from builder.page.prose import prose_environment, render_section
from builder.page.samples import SAMPLES, SampleRun, cache_key, render_sample, run_python
from builder.page.templates import environment, section_files

TITLE = "RAG, explained on a help center whose every score is real"
DESCRIPTION = ("An interactive explainer of retrieval-augmented generation: chunking, BM25, "
               "embeddings, fusion, prompts and citation checks, run for real on a small help center.")


@dataclass
class RenderedPage:
    html: str
    assets: list[tuple[str, str | bytes]]
    claims: list
    samples: list[SampleRun]


def samples_to_run(cache_dir: Path, samples_dir: Path = SAMPLES) -> int:
    """How many sample programs have no cached output (each is a Python process to run)."""
    return sum(not (cache_dir / f"{cache_key(p.read_text('utf-8'))}.out").is_file()
               for p in samples_dir.glob("*.py"))


def render_lab(name: str, namespace: dict, options: dict) -> Markup:
    if name not in labs.BY_NAME:
        raise ProseError(f"no lab '{name}' (fix: use one of {', '.join(labs.BY_NAME)}, or add it to builder/labs/)")
    lab = labs.BY_NAME[name]
    unknown = sorted(set(options) - set(lab.STATE) - {"lessons"})
    if unknown:
        raise ProseError(f"lab '{name}' has no setting {', '.join(unknown)} (fix: use {', '.join(lab.STATE) or 'none'})")
    state = {**lab.STATE, **{key: value for key, value in options.items() if key in lab.STATE}}
    html = environment().get_template(f"{name}/lab.html").render(
        **namespace, name=name, lab=namespace["data"]["labs"][name], state=state,
        scripts=" ".join(labs.scripts_of(lab)), **{k: v for k, v in options.items() if k not in lab.STATE})
    return Markup(html)


def render_page(data: dict, cache_dir: Path, strict_claims: bool = True, progress=None) -> RenderedPage:
    """`progress(done, total)`, if given, is told as each uncached sample program finishes."""
    facts = Facts(data)
    namespace = facts.namespace()
    claims = ClaimRegistry(namespace)
    env = prose_environment(claims)
    glossary = GlossaryLinks(data["glossary"])
    samples: list[SampleRun] = []
    pending = samples_to_run(cache_dir / "samples") if progress else 0

    def block_helpers(fragments):
        def sample(name: str, caption: str = "") -> Markup:
            run = run_python(name, cache_dir / "samples")
            samples.append(run)
            if progress and not run.cached:
                progress(min(sum(not r.cached for r in samples), pending), pending)
            return fragments.block(render_sample(name, run, caption))

        def figure(name: str, **options) -> Markup:
            if name not in figures.FIGURES:
                raise ProseError(f"no figure '{name}' (fix: use one of {', '.join(figures.FIGURES)})")
            return fragments.block(figures.FIGURES[name](facts, **options))

        def lab(name: str, **options) -> Markup:
            return fragments.block(render_lab(name, namespace, options))

        def block(html) -> Markup:
            return fragments.block(Markup(html))

        return {"sample": sample, "figure": figure, "lab": lab, "block": block}

    sections = [render_section(path, env, namespace, glossary, block_helpers) for path in section_files()]
    if progress and pending and sum(not r.cached for r in samples) < pending:
        progress(pending, pending)  # a sample file no section uses: close the bar
    if strict_claims and claims.failures():
        raise ClaimFailed(claims.failures())
    files = assets.files(data)
    links = assets.manifest(files)
    html = environment().get_template("page.html").render(
        title=TITLE, description=DESCRIPTION,
        sections=[{"slug": s.slug, "number": s.number, "title": s.title, "html": Markup(s.html)} for s in sections],
        glossary=data["glossary"], schema=data["schema"], assets=links, live=bool(data.get("live")),
        assets_json=Markup(json.dumps({k: links[k] for k in ("data", "labs", "scripts", "samples")}, sort_keys=True)
                           .replace("<", "\\u003c")))
    return RenderedPage(scroll_boxes.keyboard_reachable(html), files, claims.results, samples)
