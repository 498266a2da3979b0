"""The files the page downloads besides index.html, and in what order their sources join.

    assets/app.js           the runtime, loaded by every page: RUNTIME, in this order
    assets/site.css         the stylesheet: STYLES, each view's <view>.css (in the order the labs
                            first show them), then each lab's lab.css in page order
    assets/data.js          the build's data the labs read, loaded when the first lab starts
    assets/labs/<name>.js   one lab's data, the views it shows (site_src/views/<view>.js, its
                            VIEWS) and its script, loaded when that lab starts
    assets/scripts/<n>.js   a script some labs share (SHARED), loaded by the first that needs it:
                            assets/scripts/engine.js is site_src/engine/: ENGINE, in this order;
                            the others are site_src/scripts/<n>.js; assets/scripts/views.js
                            (Preact, DRAWING and LAB_RUNTIME, which draw and run every lab) by the first lab
                            that starts; the embedding model's worker and the scripts it imports
                            (WORKER), only once the reader asks for the model
    assets/scripts/answers.js   what a pick on a practice question or a prediction does (ANSWERS),
                            loaded the first time a reader picks (runtime/answers.js)
    assets/scripts/glossary.js   the glossary terms' popovers (POPOVERS), loaded the first time a
                            reader reaches a term (runtime/terms.js)
    assets/scripts/card.js, assets/card.css   the passage card (site_src/views/card.js, card.css),
                            loaded when a reader first opens a passage's card (runtime/kit.js)
    assets/corpus.css       corpus.html's own style, after site.css
    assets/samples.js       the code samples' JavaScript twins and what their tabs and copy buttons
                            do (runtime/samples-ui.js), loaded when a reader first uses one
    assets/controls.js      every lab's controls, out of index.html (builder/page/lab_controls.py),
                            loaded when a lab starts or a link lands on one; written by the render
                            step, which takes them out of the page
    assets/scripts/docs.js, pdf-worker.js, assets/vendor/   'Try it on your documents': DOCS, in this
                            order, and what reads PDF and DOCX (builder/page/docs_assets.py)

Every URL carries a hash of its content (?v=…), so a browser never mixes files of two builds.
index.html lists them in <script id="rag-assets"> for the runtime (site_src/runtime/loader.js).

Example: runtime_source().startswith("/* dom.js") -> True
"""

import hashlib
import json
from pathlib import Path

from builder.labs import LABS
from builder.page import docs_assets
from builder.page.minify import minify_css, minify_js
from builder.page.output import to_json
from builder.page.samples import twin_tokens
from builder.sources import ROOT, SITE_SRC, VIEWS as VIEWS_DIR

# What draws the labs' views, after Preact in assets/scripts/views.js (and run by the build's Node
# renderer, builder/page/lab_views.py): the views' runtime, the corpus they read, the kit they share.
DRAWING = ("views.js", "corpus.js", "kit.js")
# What a started lab needs besides its drawing, after DRAWING in assets/scripts/views.js: the build's
# data, checked (the Node renderer reads page-data.js on its own), and a lab's context (controls,
# state, link). Not in RUNTIME: no reader needs them before the first lab starts.
LAB_RUNTIME = ("page-data.js", "lab-context.js")
RUNTIME = ("dom.js", "format.js", "hash.js", "path.js", "navigate.js", "loader.js", "labs.js", "toc.js", "terms.js", "samples.js", "scrollers.js", "answers.js", "start.js")
# What a pick on a practice question or a prediction does, in assets/scripts/answers.js: loaded by
# runtime/answers.js (in RUNTIME) the first time a reader picks.
ANSWERS = ("practice.js", "predict.js")
# The glossary terms' popovers, assets/scripts/glossary.js: loaded by runtime/terms.js (in RUNTIME)
# the first time a reader reaches a term.
POPOVERS = ("glossary.js",)
STYLES = ("tokens.css", "base.css", "layout.css", "prose.css", "tables.css", "figures.css", "samples.css",
          "labs.css", "badges.css", "practice.css", "glossary.css", "asides.css", "utilities.css")
LAST_STYLES = ("print.css",)  # after the labs' own styles, so print rules win
SHARED = ("engine", "embedder", "live-search")  # "engine" is ENGINE joined; the others site_src/scripts/<name>.js
WORKER = ("embed-worker", "wordpiece", "model-files")  # site_src/scripts/<name>.js, run only in the model's worker
# The engine's JavaScript twins, site_src/engine/<module>.js beside engine/<module>.py, each after
# the files whose functions it calls (through RAG.engine). tests/twins/ proves every pair equal.
ENGINE = (
    "tokenize.js", "bm25.js", "fusion.js", "ranking.js",   # ranking: fusion's rrf
    "chunking.js", "text_key.js",
    "prompt.js", "citations.js", "guardrail.js", "access.js",  # citations: tokenize
    "documents.js",                                           # documents: chunking, citations (entities)
    "evaluate.js", "significance.js", "projection.js",      # significance, projection: ranking
)
# 'Try it on your documents': site_src/docs/<name>.js joined into assets/scripts/docs.js in this
# order (each may call the functions of those before it, through RAG.docs, when called), loaded by
# the page once the reader brings documents, after the engine. site_src/docs/README.md says what each holds.
DOCS = (
    "limits.js", "slices.js", "refusal.js", "hash.js",
    "sniff.js", "decode-text.js", "load-vendor.js", "read-pdf.js", "read-docx.js", "read-files.js",
    "chunk-documents.js", "marks.js", "measure.js",
    "vector-store.js", "index-vectors.js", "index-bm25.js", "export.js", "pgvector-sql.js",
)
# Preact's browser build (package.json pins it; the build's Node renderer uses the same version).
PREACT = ROOT / "node_modules" / "preact" / "dist" / "preact.min.umd.js"
STATIC = ("favicon.svg",)     # site_src/assets/, copied as they are
# Keys of the data that only the build reads (prose, figures, templates); the browser's copy
# leaves them out. Each lab's part travels in that lab's own file.
BUILD_ONLY_KEYS = frozenset({"labs", "glossary", "worked_example", "rewrites", "rrf_example", "near_misses",
                             "samples", "prompt_examples", "fts5", "lucene_norms", "page",
                             "golden_runs"})


def joined(folder: Path, names) -> str:
    return "".join(f"/* {name} */\n{(folder / name).read_text('utf-8').rstrip()}\n\n" for name in names)


def runtime_source() -> str:
    return joined(SITE_SRC / "runtime", RUNTIME)


def engine_source() -> str:
    """The engine's twins joined, as the page, a worker (importScripts) and the tests run them."""
    return joined(SITE_SRC / "engine", ENGINE)


def shared_script(name: str) -> str:
    """One of SHARED, minified (each engine file on its own first, so an error names its line)."""
    if name != "engine":
        return minify_js((SITE_SRC / "scripts" / f"{name}.js").read_text("utf-8"), f"site_src/scripts/{name}.js")
    for file in ENGINE:
        minify_js((SITE_SRC / "engine" / file).read_text("utf-8"), f"site_src/engine/{file}")
    return minify_js(engine_source(), "site_src/engine")


def shown_views() -> list[str]:
    """Every view a lab shows, once, in the order the labs first show them."""
    return list(dict.fromkeys(view for lab in LABS for view in lab.views))


def stylesheet_source() -> str:
    views = "".join(f"/* views/{view}.css */\n{(VIEWS_DIR / f'{view}.css').read_text('utf-8').rstrip()}\n\n"
                    for view in shown_views() if (VIEWS_DIR / f"{view}.css").is_file())
    labs = "".join(f"/* labs/{lab.name}/lab.css */\n{(lab.folder / 'lab.css').read_text('utf-8').rstrip()}\n\n"
                   for lab in LABS if (lab.folder / "lab.css").is_file())
    return joined(SITE_SRC / "styles", STYLES) + views + labs + joined(SITE_SRC / "styles", LAST_STYLES)


def lab_script(lab) -> str:
    """A lab's script: the views it shows, then its lab.js, each minified on its own (an error names its file)."""
    views = "".join(minify_js((VIEWS_DIR / f"{view}.js").read_text("utf-8"), f"site_src/views/{view}.js") for view in lab.views)
    return views + minify_js((lab.folder / "lab.js").read_text("utf-8"), f"site_src/labs/{lab.name}/lab.js")


def compact_runs(data: dict) -> dict:
    """Each ranked list as [passage index, score] pairs; the runtime (page-data.js) turns them back."""
    index = {passage["id"]: number for number, passage in enumerate(data["passages"])}
    return {question: {retriever: [[index[pid], score] for pid, score in ranking] for retriever, ranking in run.items()}
            for question, run in data["runs"].items()}


def browser_core(data: dict) -> dict:
    """What every lab may read: the data without the build-only keys, ranked lists compacted."""
    return {key: value for key, value in data.items() if key not in BUILD_ONLY_KEYS} | {"runs": compact_runs(data)}


def provide(name: str, value) -> str:
    """A script that hands `value` to the runtime: RAG.provide(name, value)."""
    return f"RAG.provide({json.dumps(name)},{to_json(value)});\n"


def versioned(name: str, content: str | bytes) -> str:
    raw = content.encode("utf-8") if isinstance(content, str) else content
    return f"{name}?v={hashlib.sha256(raw).hexdigest()[:10]}"


def runtime_script() -> str:
    for name in RUNTIME:  # each file on its own, so an error names its line
        minify_js((SITE_SRC / "runtime" / name).read_text("utf-8"), f"site_src/runtime/{name}")
    return minify_js(runtime_source(), "site_src/runtime")


def later_script(names) -> str:
    """Runtime files loaded on first use (ANSWERS, POPOVERS) joined, each minified on its own first
    (an error names its line)."""
    for name in names:
        minify_js((SITE_SRC / "runtime" / name).read_text("utf-8"), f"site_src/runtime/{name}")
    return minify_js(joined(SITE_SRC / "runtime", names), "site_src/runtime")


def views_script() -> str:
    """What draws and runs every lab, loaded when the first one starts: Preact's minified browser
    build, as published (its source map is not shipped), then DRAWING (runtime/views.js, corpus.js,
    kit.js) and LAB_RUNTIME (runtime/page-data.js, lab-context.js)."""
    if not PREACT.is_file():
        raise FileNotFoundError(f"{PREACT} is missing: the labs are drawn with Preact (fix: run `npm ci`)")
    lines = PREACT.read_text("utf-8").splitlines()
    preact = "\n".join(line for line in lines if not line.startswith("//# sourceMappingURL=")) + "\n"
    for name in (*DRAWING, *LAB_RUNTIME):  # each file on its own, so an error names its line
        minify_js((SITE_SRC / "runtime" / name).read_text("utf-8"), f"site_src/runtime/{name}")
    return preact + minify_js(joined(SITE_SRC / "runtime", (*DRAWING, *LAB_RUNTIME)), "site_src/runtime")


def files(data: dict) -> list[tuple[str, str | bytes]]:
    """(path under dist/, content) of every asset."""
    found = [("assets/app.js", runtime_script()),
             ("assets/site.css", minify_css(stylesheet_source())),
             ("assets/data.js", provide("data", browser_core(data)))]
    for lab in LABS:
        if lab.name not in data["labs"]:  # left out of a page built from another corpus
            continue
        own = lab.browser_data(data["labs"][lab.name])
        found.append((f"assets/labs/{lab.name}.js", provide(f"lab:{lab.name}", own) + lab_script(lab)))
    found.append(("assets/scripts/views.js", views_script()))
    found.append(("assets/scripts/answers.js", later_script(ANSWERS)))
    found.append(("assets/scripts/glossary.js", later_script(POPOVERS)))
    found.append(("assets/scripts/card.js", minify_js((VIEWS_DIR / "card.js").read_text("utf-8"), "site_src/views/card.js")))
    found.append(("assets/card.css", minify_css((VIEWS_DIR / "card.css").read_text("utf-8"))))
    found.append(("assets/corpus.css", minify_css((SITE_SRC / "styles" / "corpus.css").read_text("utf-8"))))
    found.append(("assets/samples.js", provide("samples", twin_tokens()) + minify_js(
        (SITE_SRC / "runtime" / "samples-ui.js").read_text("utf-8"), "site_src/runtime/samples-ui.js")))
    for name in SHARED:
        found.append((f"assets/scripts/{name}.js", shared_script(name)))
    for name in WORKER:
        found.append((f"assets/scripts/{name}.js", minify_js((SITE_SRC / "scripts" / f"{name}.js").read_text("utf-8"),
                                                             f"site_src/scripts/{name}.js")))
    found += docs_assets.files(dict(found))
    for name in STATIC:
        found.append((f"assets/{name}", (SITE_SRC / "assets" / name).read_bytes()))
    return found


def manifest(assets: list[tuple[str, str | bytes]]) -> dict:
    """What page.html links and the runtime loads, each URL with its content's hash."""
    url = {name: versioned(name, content) for name, content in assets}
    return {"app": url["assets/app.js"], "css": url["assets/site.css"], "data": url["assets/data.js"],
            "samples": url["assets/samples.js"],
            **({"controls": url["assets/controls.js"]} if "assets/controls.js" in url else {}),
            "labs": {lab.name: url[f"assets/labs/{lab.name}.js"] for lab in LABS if f"assets/labs/{lab.name}.js" in url},
            "scripts": {name: url[f"assets/scripts/{name}.js"] for name in (*SHARED, *WORKER, "views", "docs", "card", "answers", "glossary")},
            "styles": {"card": url["assets/card.css"]}}
