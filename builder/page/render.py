"""Render dist/index.html: every section's prose (builder/page/prose.py) with its claims,
samples, figures and labs, the glossary, and the links to the assets the runtime loads.

A lab placed with {{ lab("name", **state) }} renders its frame, site_src/labs/<name>/lab.html,
with the page's helpers and: name, lab (its data, data.labs[name]), state (STATE of its data.py,
updated by the options), scripts (the shared scripts it needs), drawing (a mark where its view
goes). Once the page's scripts are built, every placed lab's view is drawn by the lab's own
script in Node (builder/page/lab_views.py) and put in place of its mark.

{{ practice() }} at the end of a section draws that section's practice questions
(builder/page/practice.py), rendered and checked before any section, and handed to the labs that
ask for them (PRACTICE in a lab's data.py: the Check yourself lab).

Built from a corpus the prose was not written for, `left_out` (builder/page/left_out.py) makes
the prose lenient: what names data that corpus lacks is left out and noted, and the page opens
with a banner that says so.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from jinja2 import pass_context
from markupsafe import Markup

from builder import labs
from builder.page import assets, figures, lab_controls, lab_views, left_out as leaving, practice, predictions, reading_time, scroll_boxes, \
    section_cache
from builder.page.claims import ClaimFailed, ClaimRegistry
from builder.page.errors import ProseError
from builder.page.facts import Facts, boxed
from builder.page.glossary import GlossaryLinks, alphabetical
from builder.page.output import to_json
from builder.page.prose import prose_environment, render_section
from builder.page.samples import SAMPLES, SampleRun, cache_key, render_sample, run_python
from builder.page.templates import environment
from builder.sources import section_files

TITLE = "RAG, explained on a help center whose every score is real"
DESCRIPTION = ("An interactive explainer of retrieval-augmented generation: chunking, BM25, "
               "embeddings, fusion, prompts and citation checks, run for real on a small help center.")


@dataclass
class RenderedPage:
    html: str
    assets: list[tuple[str, str | bytes]]
    claims: list
    samples: list[SampleRun]
    quiz: practice.RenderedQuiz | None = None  # the practice questions, rendered and checked
    reading: dict | None = None  # minutes on each path, and the essential path's own prose in words


def samples_to_run(cache_dir: Path, samples_dir: Path = SAMPLES) -> int:
    """How many sample programs have no cached output (each is a Python process to run)."""
    return sum(not (cache_dir / f"{cache_key(p.read_text('utf-8'))}.out").is_file()
               for p in samples_dir.glob("*.py"))


def render_lab(name: str, namespace: dict, options: dict, views: lab_views.LabViews | None = None,
               fit=None) -> Markup:
    """`fit(state)`, on a page built from another corpus, fits the state to what that corpus has."""
    if name not in labs.BY_NAME:
        raise ProseError(f"no lab '{name}' (fix: use one of {', '.join(labs.BY_NAME)}, or add a folder "
                         "site_src/labs/<name>/, see site_src/README.md)")
    lab = labs.BY_NAME[name]
    unknown = sorted(set(options) - set(lab.state))
    if unknown:
        raise ProseError(f"lab '{name}' has no setting {', '.join(unknown)} (fix: use {', '.join(lab.state) or 'none'})")
    state = {**lab.state, **{key: value for key, value in options.items() if key in lab.state}}
    state = fit(state) if fit else state
    views = views or lab_views.LabViews()
    html = environment().get_template(f"{name}/lab.html").render(
        **namespace, name=name, lab=namespace["data"]["labs"][name], state=state, scripts=" ".join(lab.scripts),
        drawing=views.place(name, state), outcome=Markup(views.outcome_mark(name, state)),
        **{k: v for k, v in options.items() if k not in lab.state})
    return Markup(html)


def render_page(data: dict, cache_dir: Path, strict_claims: bool = True, progress=None,
                left_out: leaving.LeftOut | None = None) -> RenderedPage:
    """`progress(done, total)`, if given, is told as each uncached sample program finishes."""
    # A tied rank written as a rank stops a strict build; with claims as warnings it is reported as
    # one that does not hold (the registry is made just below, from the facts' namespace).
    facts = Facts(data, on_tie=None if strict_claims else lambda statement: claims.untrue_elsewhere(statement))
    namespace = facts.namespace()
    if left_out is not None:
        namespace = leaving.lenient_namespace(namespace, left_out)
    claims = ClaimRegistry(namespace, left_out.claim_left_out if left_out else None)
    env = prose_environment(claims, left_out)
    quiz = prepare_practice(data, facts, env, namespace)
    # Another corpus's page asks no predictions: they name Quillbox's passages and settings.
    frames, predicted = prepare_predictions(data, facts, env, namespace) if left_out is None else ({}, [])
    if quiz is not None:
        quiz.giveaways.extend(predicted)
    if left_out is not None:
        quiz = leaving.checked_quiz(quiz, data, facts.data, left_out)
    glossary = GlossaryLinks(data["glossary"], left_out)
    samples: list[SampleRun] = []
    views = lab_views.LabViews()
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
            if left_out is not None:
                return fragments.block(leaving.figure_or_nothing(name, lambda: figures.FIGURES[name](facts, **options),
                                                                 left_out))
            return fragments.block(figures.FIGURES[name](facts, **options))

        def lab(name: str, **options) -> Markup:
            if left_out is not None:
                return fragments.block(leaving.lab_or_note(name, data, left_out, lambda fit: render_lab(
                    name, namespace, options, views, fit=fit), views))
            drawn = render_lab(name, namespace, options, views)
            return fragments.block(prediction_before(name, frames, options, drawn, facts.questions) + drawn)

        def block(html) -> Markup:
            return fragments.block(Markup(html))

        def reading_total(path: str) -> Markup:
            """The page's reading time on a path ("essentials" or "everything"), known once it is whole."""
            if path not in ("essentials", "everything"):
                raise ProseError(f"reading_total('{path}'): the paths are 'essentials' and 'everything'")
            return Markup(reading_time.total_mark(path))

        @pass_context
        def practice_here(context) -> Markup:
            if left_out is not None and (quiz is None or not any(
                    q["section"] == practice.section_slug(context["_section"]) for q in quiz.questions)):
                return Markup("")  # another corpus's page: no practice questions here (noted with the quiz)
            return fragments.block(practice.block_for(context["_section"], quiz.questions if quiz else []))

        return {"sample": sample, "figure": figure, "lab": lab, "block": block, "reading_total": reading_total,
                "practice": practice_here}

    def rendered(path: Path, shared: str):
        """The section, from the cache when nothing that shapes it changed; its claims, samples
        and labs are counted either way."""
        key = section_cache.section_key(path, shared)
        # Another corpus's page is not cached: what it leaves out is noted as it renders.
        cached = section_cache.load(cache_dir, key) if left_out is None else None
        if cached is None:
            before = (len(claims.results), len(samples), len(views.placed))
            if left_out is None:
                section = render_section(path, env, namespace, glossary, block_helpers)
            else:
                section = leaving.section_or_note(path, lambda: render_section(path, env, namespace, glossary,
                                                                              block_helpers), left_out)
            cached = section_cache.CachedSection(section, claims.results[before[0]:],
                                                 [run.name for run in samples[before[1]:]], views.placed[before[2]:])
            if left_out is None:
                section_cache.save(cache_dir, key, cached)
            return section
        claims.results.extend(cached.claims)
        samples.extend(SampleRun(name, "", cached=True) for name in cached.samples)
        for placed in cached.labs:
            views.place(placed["lab"], placed["state"])
        return cached.section

    shared = section_cache.page_key(to_json(data))
    sections = [rendered(path, shared) for path in section_files()]
    if progress and pending and sum(not r.cached for r in samples) < pending:
        progress(pending, pending)  # a sample file no section uses: close the bar
    problems = quiz.problems if quiz else []
    if strict_claims and problems:
        raise practice.PracticeFailed(problems, claims.failures())
    if strict_claims and claims.failures():
        raise ClaimFailed(claims.failures())
    files = assets.files(data)
    drawings = lab_views.draw(views.placed, dict(files), assets.SHARED, data["schema"], cache_dir,
                              lenient=left_out is not None)
    bodies = [views.fill(s.html, drawings) for s in sections]
    if left_out is not None:
        bodies = [leaving.drop_failed_labs(body, views.placed, drawings, left_out) for body in bodies]
    if quiz is not None and left_out is None:
        stated = practice.stated_above(quiz.questions, practice_written(data)[0]["source"],
                                       {s.slug: body for s, body in zip(sections, bodies)})
        quiz.giveaways.extend(stated)
        if strict_claims and stated:
            raise practice.PracticeFailed(stated, claims.failures())
    times = reading_time.page_times(bodies, cache_dir)
    totals = {"everything": sum(t.everything for t in times), "essentials": sum(t.essentials for t in times)}
    # Read above with their controls (the practice's giveaways, the reading times skip templates).
    bodies, controls = lab_controls.take_out_of(bodies)
    files.append(("assets/controls.js", assets.provide("controls", controls)))
    links = assets.manifest(files)
    html = environment().get_template("page.html").render(
        title=TITLE, description=DESCRIPTION, totals={path: reading_time.spoken(value) for path, value in totals.items()},
        sections=[{"slug": s.slug, "number": s.number, "title": s.title, "html": Markup(reading_time.fill_dives(body, t)),
                   "time": reading_time.spoken(t.everything), "essentials": reading_time.spoken(t.essentials),
                   "optional": t.essentials < 0.5}
                  for s, body, t in zip(sections, bodies, times)],
        glossary=alphabetical(data["glossary"]), schema=data["schema"], assets=links, live=bool(data.get("live")),
        another_corpus=left_out.counts() if left_out is not None else None,
        assets_json=Markup(json.dumps({k: links[k] for k in ("data", "labs", "scripts", "styles", "samples", "controls")}, sort_keys=True)
                           .replace("<", "\\u003c")))
    html = scroll_boxes.keyboard_reachable(reading_time.fill_totals(html, totals))
    if left_out is not None:
        leaving.check_nothing_marked(html)
    reading = {**totals, "essential_words": sum(t.essential_words for t in times)}
    return RenderedPage(html, files, claims.results, samples, quiz, reading)


def prepare_predictions(data: dict, facts: Facts, env, namespace: dict) -> tuple[dict[str, dict], list[str]]:
    """The predictions rendered over the data, each right choice found from it: {lab: prediction},
    and the problems (no right choice, or one of another form)."""
    written = practice_written(data)[0]
    if not written or not written["predictions"]:
        return {}, []
    shown, problems = predictions.render_predictions(written["predictions"], env,
                                                     {**namespace, **predictions.helpers(facts)})
    return {p["lab"]: p for p in shown}, problems


def prediction_before(name: str, frames: dict[str, dict], options: dict, lab_html: str = "",
                      question_ids=()) -> Markup:
    """The frame of the lab's prediction, if it has one: refused when the lab opens on the very
    state the prediction asks about (the reader would have nothing to set), or when its controls
    cannot set it (the reader could never see the verdict)."""
    p = frames.get(name)
    if p is None or p["answer"] is None:
        return Markup("")
    opens = {**labs.BY_NAME[name].state, **options}
    if all(opens.get(key) == value for key, value in p["when"].items()):
        raise ProseError(f"{predictions.PREDICTIONS_FILE}:{p['line']}: {p['id']}: when: the lab '{name}' opens on {p['when']} "
                         "already (fix: ask about a setting the reader must change)")
    missing = predictions.unreachable(lab_html, p["when"], question_ids) if lab_html else []
    if missing:
        raise ProseError(f"{predictions.PREDICTIONS_FILE}:{p['line']}: {p['id']}: when: the lab '{name}' has no control that sets "
                         f"{', '.join(missing)} (fix: ask about a value its sliders, buttons or lists offer)")
    return predictions.frame(p, environment().get_template("_prediction.html"))


def prepare_practice(data: dict, facts: Facts, env, namespace: dict) -> practice.RenderedQuiz | None:
    """The practice questions rendered over the data and checked (what does not hold is in its
    problems); the quiz lab's part of the data (which its view, the browser and data/rag.json
    read) gets them, and so do the prose's helpers."""
    written, asking = practice_written(data)
    if not written:
        return None
    # A question may ask about a query or a setting the page does not show: the engine runs it here.
    namespace = {**namespace, **predictions.helpers(facts)}
    quiz = practice.render_quiz(written["source"], env, namespace)
    unplaced = practice.unplaced(quiz.questions, written["source"], section_files())
    if unplaced:
        raise ProseError("\n".join(unplaced))
    for lab in asking:  # each lab that asked gets them under the key it named
        data["labs"][lab.name][lab.practice["rendered"]] = quiz.questions
        facts.data["labs"][lab.name][lab.practice["rendered"]] = boxed(quiz.questions)
    return quiz


def practice_written(data: dict) -> tuple[dict | None, list]:
    """The page's practice as written, from the labs that ask for it (builder/labs.py
    Lab.practice): {"source": questions, "predictions": predictions} (None when no lab placed
    asks), and those labs. The render step names no lab: a lab says what it holds and wants.

    Example: practice_written(data)[0]["source"][0]["id"] -> 'chunk-split'
    """
    asking = [lab for lab in labs.LABS if lab.practice and lab.name in data["labs"]]
    if not asking:
        return None, []
    source = [q for lab in asking for q in data["labs"][lab.name][lab.practice["source"]]]
    written = [p for lab in asking for p in data["labs"][lab.name].get(lab.practice["predictions"]) or []]
    return {"source": source, "predictions": written}, asking
