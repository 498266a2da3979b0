"""Keep two code samples honest. site_src/samples/prompt_builder.py and citations_check.py
carry their own copies of the refund pages and of the prompt rules (a sample is a standalone
program). The build imports them and stops, naming the file, when a copy differs from the
corpus or when a sample's result differs from the engine's; what they hold goes into the
page's data under "samples" for the prose.

The illustrative claims checked beside the checker sample (one quoting an outdated passage, and
those showing what the checker cannot see) are the corpus's, from page.yaml.

Example: sample_data(corpus, data, page)["prompt_builder"]["sources"] -> the ids of the sample's SOURCES
"""

import ast
import importlib.util
from pathlib import Path

from engine import settings
from engine.citations import Claim, check_citations
from engine.prompt import RULES, Source, build_prompt, source_block

from builder.page.errors import SampleError
from builder.page.samples import SAMPLES
from builder.prompt_examples import HOSTILE

def _load_sample(name: str):
    path = SAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"rag_sample_{name}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)  # the samples only define names; main() runs under __main__
    except Exception as error:
        raise SampleError(f"{path}: could not be imported to check it ({type(error).__name__}: {error})") from error
    return module


def _where(path: Path) -> str:
    return str(path.relative_to(SAMPLES.parent.parent))


def _check_copies(name: str, copies: dict[str, dict], corpus) -> None:
    """Each copy {id: {field: value}} must equal the corpus passage's field."""
    path = SAMPLES / f"{name}.py"
    for pid, fields in copies.items():
        passage = corpus.by_id.get(pid)
        if passage is None:
            raise SampleError(f"{_where(path)}: passage '{pid}' is not in the corpus "
                              f"(fix: copy a passage that exists, and its JavaScript twin too)")
        real = {"text": passage.text, "title": passage.title, "date": passage.updated}
        for field, value in fields.items():
            if value != real[field]:
                raise SampleError(
                    f"{_where(path)}: its copy of the {field} of '{pid}' differs from "
                    f"{passage.file}:{passage.line}\n  sample: {value!r}\n  corpus: {real[field]!r}\n"
                    f"  (fix: copy the corpus text into {name}.py and {name}.js)")


def prompt_sample(corpus) -> dict:
    """Check site_src/samples/prompt_builder.py against the corpus and the engine."""
    sample = _load_sample("prompt_builder")
    path = _where(SAMPLES / "prompt_builder.py")
    if list(sample.RULES) != [rule.text for rule in RULES]:
        raise SampleError(f"{path}: RULES differ from engine/prompt.py RULES (fix: copy them, and into the .js twin)")
    _check_copies("prompt_builder", {s["id"]: {"text": s["text"], "title": s["title"], "date": s["date"]}
                                     for s in sample.SOURCES}, corpus)
    sources = [Source(s["id"], s["title"], s["date"], s["text"]) for s in sample.SOURCES]
    if sample.build_prompt(sample.QUESTION, sample.SOURCES, sample.RULES) != build_prompt(sample.QUESTION, sources):
        raise SampleError(f"{path}: build_prompt() no longer builds what engine/prompt.py builds")
    if Source(**sample.HOSTILE) != HOSTILE:
        raise SampleError(f"{path}: HOSTILE differs from the escaping demo's source in builder/prompt_examples.py "
                          f"(fix: make them equal, in the .js twin too)")
    if sample.source_block(sample.HOSTILE) != source_block(HOSTILE):
        raise SampleError(f"{path}: source_block() no longer escapes what engine/prompt.py escapes")
    return {"question": sample.QUESTION, "sources": [s["id"] for s in sample.SOURCES]}


def with_hybrid_ranks(sample: dict, data: dict) -> dict:
    """The prompt sample's sources with their real ranks in the fused list of its question."""
    question = next(q for q in data["questions"] if q["text"] == sample["question"])
    ranked = [pid for pid, _ in data["runs"][question["id"]]["hybrid"]]
    return {**sample, "ranks": [ranked.index(pid) + 1 if pid in ranked else None for pid in sample["sources"]]}


def checker_sample(corpus, stale_claim: Claim | None = None, limit_claims: dict | None = None) -> dict:
    """Check site_src/samples/citations_check.py against the corpus and the engine; keep its
    claims and the engine's verdict on each for the prose, with page.yaml's illustrative claims:
    the stale one (checked against the sample's sources) and those of the checker's limits, each
    checked by the engine on every build so the prose cannot drift from what the checker does."""
    sample = _load_sample("citations_check")
    path = _where(SAMPLES / "citations_check.py")
    _check_copies("citations_check", {pid: {"text": text} for pid, text in sample.SOURCES.items()}, corpus)
    claims = [Claim(c["text"], c["source_id"], c["quote"]) for c in sample.CLAIMS]
    results = check_citations(claims, dict(sample.SOURCES))
    for n, (claim, result) in enumerate(zip(sample.CLAIMS, results), start=1):
        if sample.check(claim, sample.SOURCES) != result.problems:
            raise SampleError(f"{path}: claim {n}: check() says {sample.check(claim, sample.SOURCES)!r}, "
                              f"engine/citations.py says {result.problems!r}")
    stale = check_citations([stale_claim], dict(sample.SOURCES))[0] if stale_claim else None
    limits = {name: check_citations([claim], {claim.source_id: corpus.by_id[claim.source_id].text})[0]
              for name, claim in (limit_claims or {}).items()}
    return {"sources": list(sample.SOURCES),
            "claims": [{"text": c.text, "source_id": c.source_id, "quote": c.quote, "ok": r.ok,
                        "problems": r.problems} for c, r in zip(claims, results)],
            "stale": stale and {"text": stale.claim.text, "source_id": stale.claim.source_id, "quote": stale.claim.quote,
                                "ok": stale.ok, "problems": stale.problems},
            "limits": {name: {"text": r.claim.text, "source_id": r.claim.source_id, "quote": r.claim.quote,
                              "ok": r.ok, "problems": r.problems} for name, r in limits.items()}}


# The settings two samples carry as constants of their own: (sample, constant, setting's name).
SETTING_COPIES = (("bm25_scores", "K1", "BM25_K1"), ("bm25_scores", "B", "BM25_B"), ("rrf_fuse", "K", "RRF_K"))


def constants_of(path) -> dict:
    """The sample's top-level constants (`K = 60`, `K1, B = 1.2, 0.75`), read without running it."""
    found = {}
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            names = [target] if isinstance(target, ast.Name) else list(getattr(target, "elts", []))
            values = [value] if isinstance(target, ast.Name) else list(getattr(value, "elts", []))
            for name, item in zip(names, values):
                if isinstance(name, ast.Name) and isinstance(item, ast.Constant):
                    found[name.id] = item.value
    return found


def check_setting_copies() -> None:
    """A sample's copy of a setting equals engine/settings.py, or the build stops naming both.
    (Each JavaScript twin must print what its Python sample prints, so it follows.)"""
    for name, constant, setting in SETTING_COPIES:
        path, value = SAMPLES / f"{name}.py", getattr(settings, setting)
        copy = constants_of(path).get(constant)
        if copy != value:
            raise SampleError(f"{_where(path)}: {constant} = {copy!r}, but engine/settings.py has "
                              f"{setting} = {value!r} (fix: copy it, into {name}.js too)")


def sample_data(corpus, data: dict, page) -> dict:
    """`page`: the corpus's page.yaml (builder/page/page_config.py), for its illustrative claims."""
    check_setting_copies()
    return {"prompt_builder": with_hybrid_ranks(prompt_sample(corpus), data),
            "citations_check": checker_sample(corpus, page.stale_claim, page.checker_limits)}
