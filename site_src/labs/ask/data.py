"""Ask your own question: a question the reader types goes through every stage. A preset question
(golden or traced) shows what the build computed; any other text gets BM25 at once in the
browser, and dense search and fusion once the reader loads the build's embedding model
(builder/live_model.py; scripts embedder.js, which runs it in a worker, and live-search.js).
Then, as for the traced questions: the permission filter for a customer, the prompt and its
size; no language model answers. The cosine floor (builder/cosine_floor.py) says whether a
question's top cosine can tell that the help center may not answer it. A question searched live
is drawn by the hybrid view too, with the view's sliders (SLIDERS, builder/view_settings.py).

Example: data(build)["presets"]["upload-4021"]["sent"][0] -> 'err-4021'
"""

from engine.access import pre_filter
from engine.prompt import build_prompt
from engine.settings import PROMPT_PASSAGES
from engine.tokens import count_o200k

from builder.core_data import source_of
from builder.cosine_floor import cosine_floor
from builder.sources import section_index
from builder.view_settings import HYBRID_SLIDERS as SLIDERS  # the hybrid view's ranges, as every lab shows it

STATE = {"text": "Getting QB-4021 when uploading"}  # the traced question the lab opens on
SCRIPTS = ("engine", "embedder", "live-search")
VIEWS = ("hybrid",)  # drawn for a question searched live, under the stages (RAG.mountView)
READER = "customer"  # whose permissions filter the passages the prompt carries
CHECK_SECTION = "citations"  # the section whose checker the last stage points to, by slug


def sent_passages(fused: list[str], acl: dict[str, list[str]], groups: list[str]) -> list[str]:
    """The passages a prompt carries: the fused list's best PROMPT_PASSAGES the reader may read.

    Example: sent_passages(["s", "a", "b"], {"s": ["staff"], "a": ["public"], "b": ["public"]}, ["public"])
             -> ['a', 'b']
    """
    return pre_filter(fused, acl, groups, PROMPT_PASSAGES)


def data(build) -> dict:
    corpus, core = build.corpus, build.data
    reader = next(r for r in corpus.readers if r.role == READER)
    acl = {p.id: list(p.acl) for p in corpus.passages}
    presets = {}
    for q in core["questions"]:
        sent = sent_passages([pid for pid, _ in core["runs"][q["id"]]["hybrid"]], acl, list(reader.groups))
        prompt = build_prompt(q["text"], [source_of(corpus.by_id[pid]) for pid in sent])
        presets[q["id"]] = {"sent": sent, "tokens": count_o200k(prompt)}
    if not any(q["text"] == STATE["text"] for q in core["questions"]):
        raise ValueError(f"site_src/labs/ask/data.py: STATE's text {STATE['text']!r} is no preset question's "
                         "(fix: copy a golden or tracer question's text exactly)")
    check_section = next(s["number"] for s in section_index() if s["slug"] == CHECK_SECTION)
    return {"reader": {"role": reader.role, "label": reader.label, "groups": list(reader.groups)}, "presets": presets,
            "check_section": {"slug": CHECK_SECTION, "number": check_section},
            "floor": cosine_floor(core["questions"], core["runs"]), "sliders": SLIDERS}
