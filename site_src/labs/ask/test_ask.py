"""Ask your own question (site_src/labs/ask/; scripts embedder.js, embed-worker.js,
model-files.js, wordpiece.js and live-search.js): the build's own embedding model run in Chromium
by onnxruntime-web, in a worker.

- In Node, the view: a preset question's every stage with the build's numbers and the prompt
  Python builds; a typed one before the model, BM25 alone as Python ranks it; typed markup stays
  text. The model's scripts and the lab read no global data.
- For every preset question, the vector computed in the browser against the build's (the largest
  difference is written to test-artifacts/live-agreement.json), and the dense, BM25 and fused
  rankings identical to the build's.
- The JavaScript WordPiece tokenizer gives the Python tokenizer's ids on hard strings.
- A typed question goes through every stage: the prompt is the one Python builds from the same
  passages, its size the Python tokenizer's count; before the model is loaded, BM25 alone.
- Downloads: a truncated model is fetched again once; a file damaged twice is refused with a
  message; a damaged cached copy is never used; the runtime module too is checked, fetched again
  once and refused; a second visit reads the browser's cache (measured); cancelling keeps nothing
  half-loaded.
The worker itself (batches, the mask, the page's thread left free, the runtime run from its
checked bytes) is tested in tests/site/test_embedder.py.
- From file://, the control says why it cannot start and how to serve the folder; in a browser
  without Web Workers or WebAssembly, it says which is missing.
- Hostile typed input stays text and the page keeps responding; nothing leaves the origin.
"""

import json
import re
import time

import numpy as np
import pytest
from playwright.sync_api import expect

from site_src.labs.ask import data as ask
from builder import live_model
from builder.live_model import COSINE_TOLERANCE
from engine import settings
from engine.access import pre_filter
from engine.bm25 import BM25
from engine.dense import resolve_model
from engine.prompt import Source, build_prompt, escape
from engine.ranking import places, round_score
from support.caches import build_vectors
from support.labs import lab, open_page
from support.paths import ARTIFACTS, ROOT
from support.views import markup, text as text_of

CACHE_NAME = "rag-explainer-live-model-v1"   # model-files.js's CACHE
LOAD_TIMEOUT_MS = 120_000
# How often a wait on a model's download and load looks again. Playwright's default looks at every
# animation frame, which keeps the page drawing frames for as long as the load takes: 0.07 CPU
# seconds a second, against 0.005 at 100 ms (measured on a page waiting for nothing); a load takes
# seconds, more on a busy machine, and a tenth of a second more to notice it costs nothing.
POLL_MS = 100


# ------------------------------------------------------------------ the data step


def test_each_preset_sends_the_fused_passages_a_customer_may_read(data):
    own = data["labs"]["ask"]
    acl = {p["id"]: p["acl"] for p in data["passages"]}
    assert own["reader"]["role"] == ask.READER
    for q in data["questions"]:
        fused = [pid for pid, _ in data["runs"][q["id"]]["hybrid"]]
        sent = own["presets"][q["id"]]["sent"]
        assert sent == pre_filter(fused, acl, own["reader"]["groups"], settings.PROMPT_PASSAGES)
        assert all(set(acl[pid]) & set(own["reader"]["groups"]) for pid in sent)
        assert own["presets"][q["id"]]["tokens"] > 0
    assert any(len(own["presets"][q["id"]]["sent"]) < len(data["runs"][q["id"]]["hybrid"][:settings.PROMPT_PASSAGES])
               or any("staff" in acl[pid] for pid, _ in data["runs"][q["id"]]["hybrid"][:settings.PROMPT_PASSAGES])
               for q in data["questions"]), "no preset shows the filter at work"


def test_the_cosine_floor_is_recomputed_from_the_runs_and_the_unanswerable_file(data):
    """The lowest first cosine among golden questions dense search answers at rank 1, and the
    highest among the questions of corpus/unanswerable.yaml, recomputed here from the runs."""
    import yaml
    unanswerable = yaml.safe_load((ROOT / "corpus" / "unanswerable.yaml").read_text("utf-8"))
    by_text = {q["text"]: q for q in data["questions"]}
    assert all(by_text[u["question"]]["set"] == "unanswerable" for u in unanswerable)
    first = {q["id"]: data["runs"][q["id"]]["dense"][0] for q in data["questions"]}
    answered = sorted((first[q["id"]][1], q["id"]) for q in data["questions"]
                      if q["set"] == "golden" and first[q["id"]][0] in q["answers"])
    nothing = sorted((first[by_text[u["question"]]["id"]][1], by_text[u["question"]]["id"]) for u in unanswerable)
    floor = data["labs"]["ask"]["floor"]
    assert (floor["answered"]["cosine"], floor["answered"]["question"]) == answered[0]
    assert (floor["unanswerable"]["cosine"], floor["unanswerable"]["question"]) == nothing[-1]
    assert floor["unanswerable"]["passage"] == first[nothing[-1][1]][0]
    assert (floor["answered"]["count"], floor["unanswerable"]["count"]) == (len(answered), len(unanswerable))
    assert floor["separates"] is (answered[0][0] > nothing[-1][0])


def test_the_lab_opens_on_a_question_the_build_searched(data):
    assert any(q["text"] == ask.STATE["text"] for q in data["questions"])


# ------------------------------------------------------------------ the view, in Node


def drawn_stages(html):
    node = markup(html)
    return node, {stage.attributes["data-stage"]: stage for stage in node.css(".ask-stage")}


def ids_in(stage):
    return [li.attributes["data-pid"] for li in stage.css("li.result[data-pid]")]


def scores_in(stage):
    return [text_of(li.css_first(".score")) for li in stage.css("li.result[data-pid]")]


def python_prompt(question, sent, data):
    by_id = {p["id"]: p for p in data["passages"]}
    return build_prompt(question, [Source(pid, by_id[pid]["title"], by_id[pid]["updated"], by_id[pid]["text"]) for pid in sent])


def test_a_preset_is_drawn_with_the_builds_numbers_at_every_stage(views, data):
    own = data["labs"]["ask"]
    updated = {p["id"]: p["updated"] for p in data["passages"]}
    shown = [q for q in data["questions"] if q["set"] == "tracer"] + [q for q in data["questions"] if q["set"] == "golden"][:3]
    for q, drawing in zip(shown, views.draw_many("ask", [{"text": q["text"]} for q in shown])):
        node, stage = drawn_stages(drawing.html)
        run = data["runs"][q["id"]]
        status = f"“{q['text']}” is a question the page follows: every number below was computed by the build."
        assert text_of(node.css_first(".lab-status")) == status
        assert drawing.summary == f"{status} {text_of(node.css_first('.ask-floor'))}"
        for key, name, digits in (("dense", "dense", 3), ("bm25", "bm25", 3), ("fused", "hybrid", 5)):
            assert ids_in(stage[key]) == [pid for pid, _ in run[name][:5]], (q["id"], key)
            assert scores_in(stage[key]) == [f"{score:.{digits}f}" for _, score in run[name][:5]]
            assert text_of(stage[key].css_first(".ask-source")) == "computed by the build"
        sent = own["presets"][q["id"]]["sent"]
        assert ids_in(stage["filter"]) == sent and scores_in(stage["filter"]) == [updated[pid] for pid in sent]
        assert text_of(stage["filter"].css_first(".ask-source")) == (
            f"A customer may read these {len(sent)} of the fused list's best; the filter runs before the top "
            f"{settings.PROMPT_PASSAGES} are taken.")
        assert stage["prompt"].css_first("pre.ask-prompt").text() == python_prompt(q["text"], sent, data)
        assert text_of(stage["prompt"].css_first(".ask-source")) == (
            f"{own['presets'][q['id']]['tokens']} tokens ({data['tokens']['tokenizer']}), counted by the build.")
        for quiet in ("answer", "check"):
            assert not stage[quiet].css("li")
        assert "No language model runs on this page." in text_of(stage["answer"])


def floor_said(top, floor):
    """What the lab says of a top cosine, written here from the floor's figures (whether a floor
    separates the two sets is the prose's sentence, said once: test_the_floor_is_said_once...)."""
    low, high = floor["answered"]["cosine"], floor["unanswerable"]["cosine"]
    assert not floor["separates"], "the corpus's floor now separates the sets: write that case here too"
    if top < low:
        return (f"Top cosine {top:.3f}: below every golden question answered at rank 1 (they start at {low:.3f}): "
                "the help center may not answer this.")
    if top > high:
        return f"Top cosine {top:.3f}: above every question the help center cannot answer (they reach {high:.3f})."
    return f"Top cosine {top:.3f}: between {low:.3f} and {high:.3f}, where answered and unanswerable questions both fall."


def badge_texts(p, rights):
    return [name for name, on in (("right passage", p["id"] in rights), ("outdated", p["superseded"]),
                                  ("forum post", p["kind"] == "forum"), ("staff only", "staff" in p["acl"])) if on]


def test_each_stage_says_why_origins_badges_removals_and_the_floor(views, data):
    """Fused rows name the positions RRF read; rows carry the tracer's badges; the filter names what
    it removed; the top cosine is set against the floor. All written here from the build's data."""
    own, depth = data["labs"]["ask"], settings.FUSION_DEPTH
    by_id = {p["id"]: p for p in data["passages"]}
    staff_above = lambda q: any("staff" in by_id[i]["acl"] for i, _ in data["runs"][q["id"]]["hybrid"][:settings.PROMPT_PASSAGES])
    shown = [q for q in data["questions"] if q["set"] != "golden" or staff_above(q)]
    saw = {"removed": 0, "staff": 0, "below": 0}
    for q, drawing in zip(shown, views.draw_many("ask", [{"text": q["text"]} for q in shown])):
        node, stage = drawn_stages(drawing.html)
        run, rights = data["runs"][q["id"]], q["answers"]
        assert text_of(node.css_first(".ask-floor")) == floor_said(run["dense"][0][1], own["floor"])
        saw["below"] += run["dense"][0][1] < own["floor"]["answered"]["cosine"]
        for li in stage["fused"].css("li.result[data-pid]"):
            pid = li.attributes["data-pid"]
            assert text_of(li.css_first(".ask-origin")) == origin_said(run, pid, depth), (q["id"], pid)
        for key in ("dense", "bm25", "fused", "filter"):
            for li in stage[key].css("li.result[data-pid]"):
                p = by_id[li.attributes["data-pid"]]
                assert [text_of(b) for b in li.css(".badge")] == badge_texts(p, rights), (q["id"], key, p["id"])
                saw["staff"] += "staff" in p["acl"]
        fused, sent = [i for i, _ in run["hybrid"]], own["presets"][q["id"]]["sent"]
        removed = [i for i in fused[:fused.index(sent[-1]) + 1] if i not in sent]
        said = text_of(stage["filter"].css_first(".ask-removed"))
        if removed:
            saw["removed"] += 1
            assert said == (f"It removed {len(removed)} passage{'s' if len(removed) > 1 else ''} a customer may not read: "
                            + ", ".join(f"{i} ({', '.join(by_id[i]['acl'])} only)" for i in removed) + ".")
        else:
            assert said == "It removed nothing: a customer may read every passage above the last one sent."
    assert saw["removed"] and saw["staff"], saw


def test_before_the_model_a_typed_question_gets_bm25_alone_ranked_as_python_ranks_it(views, data):
    typed = "why does my export to markdown lose images"
    drawing = views.draw("ask", {"text": typed})
    node, stage = drawn_stages(drawing.html)
    index = BM25([p["text"] for p in data["passages"]], data["settings"]["bm25"]["k1"], data["settings"]["bm25"]["b"])
    scores = index.scores(typed)
    order = [i for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i)) if scores[i] > 0]
    ranked = [data["passages"][i]["id"] for i in order]
    assert ids_in(stage["bm25"]) == ranked[:5]
    assert scores_in(stage["bm25"]) == [f"{scores[i]:.3f}" for i in order[:5]]
    assert text_of(stage["bm25"].css_first(".ask-source")) == "computed live in your browser"
    assert text_of(node.css_first(".lab-status")) == (
        f"“{typed}”: BM25 alone, computed live in your browser. Dense search and fusion need the embedding model: "
        "load it above (search by meaning runs in your browser, never on a server).")
    for waiting in ("dense", "fused"):
        assert ids_in(stage[waiting]) == []
        assert text_of(stage[waiting].css_first(".ask-source")) == "waiting for the model"
        assert text_of(stage[waiting].css_first(".ask-waiting")) == "Needs the model: load it above."
    acl = {p["id"]: p["acl"] for p in data["passages"]}
    sent = pre_filter(ranked, acl, data["labs"]["ask"]["reader"]["groups"], settings.PROMPT_PASSAGES)
    assert ids_in(stage["filter"]) == sent
    assert "of the BM25 list's best" in text_of(stage["filter"].css_first(".ask-source"))
    assert stage["prompt"].css_first("pre.ask-prompt").text() == python_prompt(typed, sent, data)
    assert text_of(stage["prompt"].css_first(".ask-source")) == "Its size is counted once the model's tokenizer is loaded."


def test_an_empty_field_asks_for_a_question_and_typed_markup_stays_text(views):
    node, stage = drawn_stages(views.draw("ask", {"text": "   "}).html)
    assert text_of(node.css_first(".lab-status")) == "Type a question above."
    assert all(text_of(stage[key].css_first(".ask-source")) == "waiting for a question" for key in ("dense", "bm25", "fused"))
    hostile = '<img src="x" onerror="alert(1)"> </bdi>\u202eevil'
    node, _ = drawn_stages(views.draw("ask", {"text": hostile}).html)
    assert not node.css("img") and node.css_first(".lab-status bdi").text() == hostile


MODEL_SCRIPTS = ("embedder.js", "embed-worker.js", "model-files.js", "wordpiece.js", "live-search.js")


def test_the_model_in_the_browser_and_the_lab_read_no_global_data():
    # What they need comes as arguments (RAG.embedder.load(info, …), RAG.liveSearch.runs(text,
    # vector, passageVectors, corpus)).
    for path in [f"site_src/scripts/{name}" for name in MODEL_SCRIPTS] + ["site_src/labs/ask/lab.js"]:
        assert "RAG.data" not in (ROOT / path).read_text("utf-8"), path


def test_what_runs_in_the_worker_never_reads_the_window():
    # A worker has no window nor document: what runs there reads globalThis (or self).
    for name in ("embed-worker.js", "model-files.js", "wordpiece.js"):
        source = (ROOT / "site_src" / "scripts" / name).read_text("utf-8")
        code = re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", source, flags=re.S))  # comments may say the words
        assert not re.search(r"\b(window|document)\b", code), name


# ------------------------------------------------------------------ helpers


def python_ids(texts: list[str], limit: int | None = settings.MAX_WORDPIECES) -> list[list[int]]:
    """The ids the build's tokenizer gives (tokenizer.json, cut where sentence-transformers cuts)."""
    from tokenizers import Tokenizer

    location, _ = resolve_model()
    tokenizer = Tokenizer.from_file(f"{location}/tokenizer.json")
    tokenizer.no_padding()
    if limit:
        tokenizer.enable_truncation(limit)
    else:
        tokenizer.no_truncation()
    return [encoding.ids for encoding in tokenizer.encode_batch(texts)]


def load_model(page, timeout=LOAD_TIMEOUT_MS) -> dict:
    section = lab(page, "ask")
    section.locator('button[name="ask-load"]').click()
    page.wait_for_function("() => RAG.embedder.state === 'ready' || RAG.embedder.state === 'failed'", timeout=timeout, polling=POLL_MS)
    assert page.evaluate("RAG.embedder.state") == "ready", section.locator(".live-note").text_content()
    return page.evaluate("RAG.embedder.pool.timings")


# A question as the lab searches it: embedded alone in the worker, then searched on the page.
LIVE_SEARCH_JS = """async (text) => {
    const pool = RAG.embedder.pool;
    const { vectors: [vector], wordpieces: [wordpieces] } = await pool.embed([text]);
    const corpus = { passages: RAG.data.passages, settings: RAG.data.settings };
    return { vector: Array.from(vector), wordpieces, runs: RAG.liveSearch.runs(text, vector, pool.passageVectors, corpus) };
}"""


# Each text searched as the lab searches it (alone, one after the other), in one call from the
# test: fifty round trips to the page, each carrying a vector back, cost more than the searches.
EACH_LIVE_SEARCH_JS = f"""async (texts) => {{
    const search = {LIVE_SEARCH_JS};
    const found = [];
    for (const text of texts) found.push(await search(text));
    return found;
}}"""


def ask_text(section, text):
    section.locator('input[name="ask-text"]').fill(text)


# The status once the model has searched (before, BM25's status says "computed live in your browser" too).
SEARCHED_LIVE = "every number below was computed live in your browser"


def stage_ids(section, stage):
    return section.locator(f'[data-stage="{stage}"] li.result[data-pid]').evaluate_all("els => els.map(e => e.dataset.pid)")


def live_files(requests, data, name):
    path = data["live"]["files"][name]["url"].split("?")[0]
    return [url for url in requests if path in url]


@pytest.fixture(scope="module")
def live_page(make_page_module, site_url):
    page = open_page(make_page_module, site_url, "#lab-ask")
    timings = load_model(page)
    page.rag_timings = timings
    return page


# ------------------------------------------------------------------ agreement with the build


@pytest.mark.browser
def test_every_preset_searched_live_matches_the_build(live_page, data):
    questions = data["questions"]
    found = live_page.evaluate(EACH_LIVE_SEARCH_JS, [q["text"] for q in questions])
    build = build_vectors([q["text"] for q in questions])
    report, problems = [], []
    for q, live, expected in zip(questions, found, build):
        runs = data["runs"][q["id"]]
        vector = np.asarray(live["vector"], dtype=np.float64)
        cosine_diff = max(abs(a[1] - b[1]) for a, b in zip(sorted(live["runs"]["dense"]), sorted(runs["dense"])))
        same = {name: [pid for pid, _ in live["runs"][name]] == [pid for pid, _ in runs[name]]
                for name in ("dense", "bm25", "hybrid")}
        # Dense: the same order but for passages the build itself scores within the tolerance of
        # each other, a tie at the precision the page promises (builder/live_model.py alike).
        same["dense"] = live_model.alike([pid for pid, _ in live["runs"]["dense"]], [pid for pid, _ in runs["dense"]],
                                         dict(runs["dense"]), COSINE_TOLERANCE)
        report.append({"id": q["id"], "max_abs_diff": float(np.abs(vector - expected).max()), "max_cosine_diff": cosine_diff,
                       "top": live["runs"]["dense"][0][0], **{f"{name}_identical": ok for name, ok in same.items()}})
        problems += [f"{q['id']}: the live {name} ranking is not the build's" for name, ok in same.items() if not ok]
        if live["runs"]["bm25"] != runs["bm25"]:
            problems.append(f"{q['id']}: the live BM25 scores are not the build's")
        # Same ranks in, same fused scores out: RRF's score depends on nothing else, so a live
        # constant that is not the build's (k + 1 gives 0.031754 where the build has 0.032266)
        # shows here even when the order stays the same.
        fused_diff = max((abs(a[1] - b[1]) for a, b in zip(live["runs"]["hybrid"], runs["hybrid"])), default=0.0)
        if fused_diff > 2e-6:
            problems.append(f"{q['id']}: a live fused score is {fused_diff:.1e} off the build's")
        if cosine_diff > COSINE_TOLERANCE:
            problems.append(f"{q['id']}: a live cosine is {cosine_diff:.1e} off the build's")
    summary = {"questions": len(report), "max_abs_diff": max(r["max_abs_diff"] for r in report),
               "max_cosine_diff": max(r["max_cosine_diff"] for r in report),
               "precision": data["live"]["precision"], "per_question": report}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "live-agreement.json").write_text(json.dumps(summary, indent=1), "utf-8")
    assert not problems, "\n".join(problems)
    assert summary["max_abs_diff"] < 1e-3, summary["max_abs_diff"]


HARD_STRINGS = [
    "Crème brûlée, café naïve, Ångström, façade, Øresund",
    "快速的棕色狐狸 and 日本語のテキスト, 한국어",
    "👍🏽 great 🎉 done 🇫🇷 👩‍💻",
    "tab\there\r\nnew line\x00nul\x07bell\u200bzero-width\u00adsoft\x7fdel",
    "x" * 100,
    "y" * 101,
    "short " + "z" * 100 + " " + "w" * 101 + " end",
    "[MASK] what is [CLS] this [SEP] [UNK] [PAD] [mask]",
    "ΣΊΣΥΦΟΣ ΟΔΟΣ ΌΣΟΣ",
    "İstanbul ǅemal STRASSE ß ﬁne Ⅻ",
    "don't can't U.S.A. e-mail $10.99 #tag @user 50% QB-4021",
    "((nested)) ...!!! ??? --- ___ ~~~",
    ("QB-4021 upload limit 25 MB; naïve café 快速 👍 [MASK] " * 120)[:5000],
]


@pytest.mark.browser
def test_the_javascript_tokenizer_gives_pythons_ids_on_hard_strings(live_page, data):
    url = data["live"]["files"]["vocab"]["url"]
    # The tokenizer runs in the model's worker; the same file runs in the page here, to be asked for ids.
    got = live_page.evaluate("""async ([url, texts, limit]) => {
        await RAG.loadScript(RAG.assets().scripts.wordpiece);
        const words = await (await fetch(url)).text();
        const cut = new RAG.WordPiece(words, limit), whole = new RAG.WordPiece(words, Infinity);
        return texts.map(t => [cut.encode(t), whole.encode(t).length]);
    }""", [url, HARD_STRINGS, settings.MAX_WORDPIECES])
    for text, (ids, whole), expected, expected_whole in zip(HARD_STRINGS, got, python_ids(HARD_STRINGS),
                                                            python_ids(HARD_STRINGS, limit=None)):
        assert ids == expected, f"{text[:40]!r}"
        assert whole == len(expected_whole), f"{text[:40]!r}"
    assert len(got[-1][0]) == settings.MAX_WORDPIECES  # the 5,000 characters were cut where the model cuts


@pytest.mark.browser
def test_the_pages_own_tokenizer_cuts_a_long_question_where_the_model_does(live_page):
    # The tokenizer test above builds its own tokenizers; this asks the ones the worker embeds and counts with.
    text = HARD_STRINGS[-1]
    wordpieces = live_page.evaluate("(t) => RAG.embedder.pool.embed([t]).then(r => r.wordpieces[0])", text)
    assert wordpieces == 256, "all-MiniLM-L6-v2 reads 256 wordpieces ([CLS] and [SEP] included)"
    assert wordpieces == len(python_ids([text])[0]) == settings.MAX_WORDPIECES
    assert live_page.evaluate("(t) => RAG.embedder.pool.countWordpieces([t])", text) == [len(python_ids([text], limit=None)[0])]


# ------------------------------------------------------------------ a question through every stage


@pytest.mark.browser
def test_a_typed_question_goes_through_every_stage_with_the_same_prompt_python_builds(live_page, data):
    section = lab(live_page, "ask")
    text = "can I get my money back after a month"
    ask_text(section, text)
    expect(section.locator(".lab-status")).to_contain_text(SEARCHED_LIVE)
    found = live_page.evaluate(LIVE_SEARCH_JS, text)["runs"]
    assert stage_ids(section, "dense") == [pid for pid, _ in found["dense"][:5]]
    assert stage_ids(section, "bm25") == [pid for pid, _ in found["bm25"][:5]]
    assert stage_ids(section, "fused") == [pid for pid, _ in found["hybrid"][:5]]

    python_bm25 = BM25([p["text"] for p in data["passages"]], data["settings"]["bm25"]["k1"], data["settings"]["bm25"]["b"])
    scores = python_bm25.scores(text)
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    assert [data["passages"][i]["id"] for i in order if scores[i] > 0] == [pid for pid, _ in found["bm25"]]

    reader = data["labs"]["ask"]["reader"]
    acl = {p["id"]: p["acl"] for p in data["passages"]}
    sent = pre_filter([pid for pid, _ in found["hybrid"]], acl, reader["groups"], settings.PROMPT_PASSAGES)
    assert stage_ids(section, "filter") == sent
    by_id = {p["id"]: p for p in data["passages"]}
    prompt = build_prompt(text, [Source(pid, by_id[pid]["title"], by_id[pid]["updated"], by_id[pid]["text"]) for pid in sent])
    assert section.locator("pre.ask-prompt").text_content() == prompt
    wordpieces = len(python_ids([prompt], limit=None)[0])
    assert section.locator('[data-stage="prompt"] .ask-source').text_content().startswith(f"{wordpieces} wordpieces")
    for stage in ("answer", "check"):
        assert "No language model runs" in section.locator(".lab-output").text_content()
        assert section.locator(f'[data-stage="{stage}"] li').count() == 0


def origin_said(run, pid, depth):
    """'from dense 5 + BM25 1': the positions RRF read in each list's top `depth`, ties noted."""
    parts = []
    for name, key in (("dense", "dense"), ("BM25", "bm25")):
        ids = [i for i, _ in run[key]]
        if pid in ids[:depth]:
            first, last = places([[i, round_score(s)] for i, s in run[key]])[ids.index(pid)]
            parts.append(f"{name} {ids.index(pid) + 1}" + (f" (tied for {first})" if last > first else ""))
    return "from " + " + ".join(parts)


# The three questions: a paraphrase of refunds, an error code in a staff runbook's
# neighbourhood, and one nothing in the help center answers.
TYPED = ("How do I get my money back?", "My phone app keeps saying QB-4031", "share a notebook with someone outside my company")


@pytest.mark.browser
def test_three_typed_questions_say_where_each_passage_came_from_what_was_removed_and_where_the_cosine_falls(live_page, data):
    section = lab(live_page, "ask")
    by_id = {p["id"]: p for p in data["passages"]}
    floor, said = data["labs"]["ask"]["floor"], {}
    for text in TYPED:
        ask_text(section, text)
        expect(section.locator(".lab-status")).to_contain_text(SEARCHED_LIVE)
        run = live_page.evaluate(LIVE_SEARCH_JS, text)["runs"]
        expect(section.locator(".ask-floor")).to_have_text(floor_said(run["dense"][0][1], floor))
        fused = section.locator('[data-stage="fused"] li.result[data-pid]')
        rows = []
        for li in fused.all():
            pid = li.get_attribute("data-pid")
            assert li.locator(".ask-origin").text_content() == origin_said(run, pid, settings.FUSION_DEPTH), (text, pid)
            assert li.locator(".badge").all_text_contents() == badge_texts(by_id[pid], []), (text, pid)
            rows.append(f"{li.locator('.rank').text_content()} {pid}: {li.locator('.ask-origin').text_content()}"
                        + "".join(f" [{b}]" for b in li.locator(".badge").all_text_contents()))
        ranked = [pid for pid, _ in run["hybrid"]]
        sent = stage_ids(section, "filter")
        removed = [pid for pid in ranked[:ranked.index(sent[-1]) + 1] if pid not in sent]
        removal = section.locator(".ask-removed").text_content()
        assert all(pid in removal for pid in removed) and (bool(removed) != removal.startswith("It removed nothing"))
        said[text] = {"floor": section.locator(".ask-floor").text_content(), "fused": rows, "filter": removal}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "ask-typed.json").write_text(json.dumps(said, indent=1, ensure_ascii=False), "utf-8")


@pytest.mark.browser
def test_a_preset_question_keeps_the_builds_numbers_with_the_model_loaded(live_page, data):
    section = lab(live_page, "ask")
    q = next(q for q in data["questions"] if q["set"] == "golden")
    ask_text(section, q["text"])
    expect(section.locator(".lab-status")).to_contain_text("computed by the build")
    assert section.locator('[data-stage="dense"] .ask-source').text_content() == "computed by the build"
    run = data["runs"][q["id"]]
    assert stage_ids(section, "dense") == [pid for pid, _ in run["dense"][:5]]
    scores = section.locator('[data-stage="fused"] .score').all_text_contents()
    assert scores == [f"{score:.5f}" for _, score in run["hybrid"][:5]]
    tokens = data["labs"]["ask"]["presets"][q["id"]]["tokens"]
    assert section.locator('[data-stage="prompt"] .ask-source').text_content().startswith(f"{tokens} tokens")


@pytest.mark.browser
def test_a_question_asked_live_reaches_every_lab_that_takes_a_question(live_page):
    section = lab(live_page, "ask")
    text = "where did my deleted notes go"
    ask_text(section, text)
    expect(section.locator(".lab-status")).to_contain_text(SEARCHED_LIVE)
    live = live_page.evaluate("() => RAG.corpus.page(RAG.data).question('live')")
    assert live["text"] == text and live["source"] == "live" and len(live["vector"]) == settings.DIMENSIONS
    dense = [pid for pid, _ in live["runs"]["dense"]]
    for name in ("bm25", "hybrid", "prompt", "map", "permissions"):
        other = lab(live_page, name)
        picker = other.locator('select[data-picker="question"]')
        assert picker.locator('optgroup[data-asked] option[value="live"]').text_content() == text, name
        picker.select_option("live")
        expect(other).to_contain_text(text)
    hybrid = lab(live_page, "hybrid")
    assert hybrid.locator('[data-list="dense"] li.result').evaluate_all("els => els.map(e => e.dataset.pid)") == dense[:8]
    assert "Asked live, so no right passage is known" in hybrid.locator(".lab-status").text_content()
    mapped = lab(live_page, "map")
    assert mapped.locator("ol.map-nearest li").evaluate_all("els => els.map(e => e.dataset.pid)") == dense[:5]
    assert "placed and ranked live in your browser" in mapped.locator(".map-shown").text_content()
    assert lab(live_page, "rerank").locator('option[value="live"]').count() == 0  # no rerank scores for it


@pytest.mark.browser
def test_hostile_typed_input_stays_text_and_the_page_keeps_responding(live_page):
    section = lab(live_page, "ask")
    markup = '<img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    for text in (markup, "\u202eevil\u202c and then more words", ("word " * 2000)[:10_000]):
        began = time.perf_counter()
        ask_text(section, text)
        live_page.wait_for_function("(t) => document.querySelector('#lab-ask .lab-status').textContent.includes(t.slice(0, 40))"
                                    " && document.querySelector('#lab-ask .lab-status').textContent.includes('live in your browser')"
                                    " && !document.querySelector('#lab-ask .lab-status').textContent.includes('searching')",
                                    arg=text, timeout=10_000)
        frame_ms = live_page.evaluate("() => new Promise(r => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); })")
        assert time.perf_counter() - began < 5 and frame_ms < 500, (text[:30], frame_ms)
        assert section.locator(".lab-output img, .lab-output script").count() == 0
        assert escape(text)[:40] in section.locator("pre.ask-prompt").text_content()  # escaped, as Python escapes it
    assert live_page.evaluate("window.__pwned") is None
    # The echoed question is isolated: an override typed into it does not turn the sentence around it.
    assert section.locator(".lab-status bdi").count() == 1


@pytest.mark.browser
def test_nothing_leaves_the_origin_and_the_model_came_from_this_site(live_page, data):
    guard = live_page.rag_guard
    assert guard.foreign == []
    for name in ("model", "wasm", "vocab", "passages", "runtime"):
        assert live_files(guard.requests, data, name), f"{name} was not requested from the site"


# ------------------------------------------------------------------ before the model


@pytest.mark.browser
def test_before_the_model_a_typed_question_gets_bm25_alone_and_says_why(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-ask")
    section = lab(page, "ask")
    button = section.locator('button[name="ask-load"]')
    megabytes = f"{data['live']['download_bytes'] / 1e6:.1f}"
    assert button.text_content() == f"Load the model ({megabytes} MB)"
    ask_text(section, "why does my export to markdown lose images")
    status = section.locator(".lab-status").text_content()
    assert "BM25 alone, computed live in your browser" in status and "need the embedding model" in status
    assert section.locator('[data-stage="dense"] .ask-source').text_content() == "waiting for the model"
    assert stage_ids(section, "dense") == [] and len(stage_ids(section, "bm25")) == 5
    assert not live_files(page.rag_guard.requests, data, "model")  # nothing heavy before the reader asks
    # nor the worker and the code that fetches, checks and runs the model: only the small client
    worker_scripts = ("embed-worker.js", "model-files.js", "wordpiece.js", "ort.wasm.bundle.min.mjs")
    assert [url for url in page.rag_guard.requests if any(f"/{name}" in url for name in worker_scripts)] == []
    assert any("/assets/scripts/embedder.js" in url for url in page.rag_guard.requests)


# ------------------------------------------------------------------ downloads


def damage(page, built_site, data, name, times):
    """Route the file's address: its first `times` responses are cut short (the first 64 KiB of
    the file, read from disk: routing the whole model through the test would take minutes);
    later requests pass. Returns the addresses requested."""
    path = data["live"]["files"][name]["url"].split("?")[0]
    with (built_site / path).open("rb") as handle:
        head = handle.read(64 * 1024 - 1)
    seen = []

    def handle(route):
        seen.append(route.request.url)
        if len(seen) > times:
            route.fallback()
        else:
            route.fulfill(status=200, body=head, headers={"content-type": "application/octet-stream"})

    page.route(f"**/{path}*", handle)
    return seen


@pytest.mark.browser
def test_a_file_damaged_twice_is_refused_with_a_message(make_page, site_url, built_site, data):
    page = open_page(make_page, site_url, "#lab-ask")
    seen = damage(page, built_site, data, "vocab", times=2)
    section = lab(page, "ask")
    section.locator('button[name="ask-load"]').click()
    page.wait_for_function("() => RAG.embedder.state === 'failed'", timeout=LOAD_TIMEOUT_MS, polling=POLL_MS)
    note = section.locator(".live-note").text_content()
    assert "vocab.txt arrived damaged twice" in note and "it was not used" in note
    assert len(seen) == 2
    assert section.locator('button[name="ask-load"]').is_visible()


@pytest.mark.browser
def test_a_damaged_runtime_module_is_fetched_again_once_then_refused_and_never_run(make_page, site_url, built_site, data):
    page = open_page(make_page, site_url, "#lab-ask")
    seen = damage(page, built_site, data, "runtime", times=2)
    section = lab(page, "ask")
    section.locator('button[name="ask-load"]').click()
    page.wait_for_function("() => RAG.embedder.state === 'failed'", timeout=LOAD_TIMEOUT_MS, polling=POLL_MS)
    note = section.locator(".live-note").text_content()
    assert "ort.wasm.bundle.min.mjs arrived damaged twice" in note and "it was not used" in note
    assert len(seen) == 2  # and never imported from its address, which would be a third request


@pytest.mark.browser
def test_cancelling_keeps_nothing_half_loaded_a_truncated_model_is_fetched_again_and_a_second_visit_reads_the_cache(
        make_page, site_url, built_site, data):
    """One reader's visits, in one browser context, with a full model load only where one is
    needed (three, where the three tests this was took five):
    1. cancelling while the model is on its way leaves the control as it was;
    2. loading again works, with the model's first response cut short: it is fetched again once,
       then runs, and nothing was kept from the cancelled or the cut load (the load is not cached);
    3. a second visit reads the cache, and a damaged cached copy (the vocabulary) is fetched again;
    4. a third visit reads every file from the cache."""
    first = open_page(make_page, site_url, "#lab-ask")
    held = []
    first.route("**/live/model.onnx*", lambda route: held.append(route))  # the model does not arrive until the reader has cancelled
    section = lab(first, "ask")
    section.locator('button[name="ask-load"]').click()
    first.wait_for_function("() => RAG.embedder.state === 'downloading'")
    expect(section.locator('button[name="ask-cancel"]')).to_be_visible()
    # Cancel only once the worker has asked for the model (it asks for the other files first, and
    # on a busy machine the reader's click could otherwise come before the request is held).
    for _ in range(200):
        if held:
            break
        first.wait_for_timeout(50)
    assert held, "the worker never asked for the model"
    section.locator('button[name="ask-cancel"]').click()
    expect(section.locator(".live-note")).to_contain_text("Cancelled")
    assert first.evaluate("RAG.embedder.state") == "idle"
    expect(section.locator('button[name="ask-load"]')).to_be_visible()
    first.unroute("**/live/model.onnx*")

    seen = damage(first, built_site, data, "model", times=1)
    fresh = load_model(first)
    assert len(seen) == 2, "the cut-short model was fetched again, once"
    assert fresh["cached"] is False
    context = first.context
    vocab = data["live"]["files"]["vocab"]["url"]
    first.evaluate("([name, url]) => caches.open(name).then(c => c.put(url, new Response('[PAD]')))", [CACHE_NAME, vocab])

    second = context.new_page()
    requests = []
    second.on("request", lambda request: requests.append(request.url))
    second.goto(site_url + "index.html#lab-ask")
    cached = load_model(second)
    assert cached["cached"] is False                       # the vocabulary had to be fetched again
    assert live_files(requests, data, "vocab") and not live_files(requests, data, "model")
    stored = second.evaluate("([name, url]) => caches.open(name).then(c => c.match(url)).then(r => r.arrayBuffer()).then(b => b.byteLength)",
                             [CACHE_NAME, vocab])
    assert stored == data["live"]["files"]["vocab"]["bytes"]

    third = context.new_page()
    requests.clear()
    third.on("request", lambda request: requests.append(request.url))
    third.goto(site_url + "index.html#lab-ask")
    again = load_model(third)
    assert again["cached"] is True
    assert not any(live_files(requests, data, name) for name in ("model", "wasm", "vocab", "passages"))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "live-cache.json").write_text(json.dumps({"first_visit": fresh, "cached_visit": again}, indent=1), "utf-8")


@pytest.mark.browser
def test_from_a_file_the_control_says_how_to_serve_the_folder(make_page, built_site):
    page = make_page()
    page.goto((built_site / "index.html").as_uri() + "#lab-ask")
    section = lab(page, "ask")
    assert section.locator('button[name="ask-load"]').is_disabled()
    note = section.locator(".live-note").text_content()
    assert "only from a page served over http" in note and "python3 -m http.server" in note


@pytest.mark.browser
@pytest.mark.parametrize("missing, why", [("Worker", "this browser cannot run a script beside the page (no Web Workers)"),
                                          ("WebAssembly", "this browser has no WebAssembly")])
def test_without_workers_or_webassembly_the_control_says_what_is_missing(make_page, site_url, missing, why):
    page = make_page()
    page.add_init_script(f"delete window.{missing};")
    page.goto(site_url + "index.html#lab-ask")
    section = lab(page, "ask")
    assert section.locator('button[name="ask-load"]').is_disabled()
    assert section.locator(".live-note").text_content() == f"The model cannot run here: {why}."
    ask_text(section, "why does my export to markdown lose images")
    assert len(stage_ids(section, "bm25")) == 5  # BM25 still runs, as without the model


# ------------------------------------------------------------------ the hybrid view of a typed question


def chart_order(box) -> list[str]:
    """The hybrid view's chart, its passages in fused order (its nodes stand in the corpus's order)."""
    return box.locator(".slope-node").evaluate_all(
        "els => els.sort((a, b) => a.dataset.rank - b.dataset.rank).map((e) => e.dataset.pid)")


def fused_by_python(run, k, depth) -> list[str]:
    from engine.fusion import rrf
    return [pid for pid, _ in rrf([[pid for pid, _ in run[key][:depth]] for key in ("dense", "bm25")], k)]


@pytest.mark.browser
def test_a_question_searched_live_is_drawn_by_the_hybrid_view_whose_sliders_fuse_its_own_lists(live_page, data):
    """Under the stages, the hybrid view of the typed question: its chart is Python's RRF over the
    live dense and BM25 lists, at the page's k and depth, then at the depth the reader sets with
    the keyboard; the Ask lab's own redraws leave the view's sliders alone; a second question is
    drawn at the reader's depth; a preset hides it (the hybrid lab shows presets)."""
    section = lab(live_page, "ask")
    fusion = live_page.locator("#lab-ask + section.ask-fusion")
    first, second = "Can I edit notes on the plane without internet?", "How do I get my money back?"
    ask_text(section, first)
    expect(section.locator(".lab-status")).to_contain_text(SEARCHED_LIVE, timeout=20_000)  # the first search warms the worker
    expect(fusion).to_be_visible()
    run = live_page.evaluate(LIVE_SEARCH_JS, first)["runs"]
    assert chart_order(fusion) == fused_by_python(run, settings.RRF_K, settings.FUSION_DEPTH) == [p for p, _ in run["hybrid"]]
    expect(fusion.locator(".lab-status")).to_have_text(re.compile(r"^Asked live, so no right passage is known"))
    depth = fusion.locator('input[data-key="depth"]')
    depth.focus()
    live_page.keyboard.press("Home")
    live_page.keyboard.press("ArrowRight")
    expect(fusion.locator('output[data-shows="depth"]')).to_have_text("2")
    assert chart_order(fusion) == fused_by_python(run, settings.RRF_K, 2)
    ask_text(section, second)
    expect(section.locator(".lab-status")).to_contain_text(SEARCHED_LIVE)
    run = live_page.evaluate(LIVE_SEARCH_JS, second)["runs"]
    expect(fusion.locator(".slope-node")).to_have_count(len(fused_by_python(run, settings.RRF_K, 2)))
    assert chart_order(fusion) == fused_by_python(run, settings.RRF_K, 2)
    ask_text(section, first)  # searched before: drawn again from what the browser kept
    run = live_page.evaluate(LIVE_SEARCH_JS, first)["runs"]
    expect(fusion.locator(".slope-node")).to_have_count(len(fused_by_python(run, settings.RRF_K, 2)))
    assert chart_order(fusion) == fused_by_python(run, settings.RRF_K, 2)
    ask_text(section, ask.STATE["text"])
    expect(fusion).to_be_hidden()


def test_the_floor_is_said_once_by_the_prose_and_the_lab_places_the_question_under_its_dense_list(dist_dir, data):
    """That no cosine floor separates answered from unanswerable questions is the prose's checked
    sentence before the lab; the lab does not say it again, and its line on the top cosine stands
    in the dense stage, under the list whose first cosine it is."""
    page = markup((dist_dir / "index.html").read_text("utf-8"))
    assert text_of(page.css_first("#lab-ask").parent).count("floor separates") == 1
    assert "floor separates" not in text_of(page.css_first("#lab-ask"))
    floor = page.css_first('#lab-ask [data-stage="dense"] .ask-floor')
    assert floor is not None and len(page.css("#lab-ask .ask-floor")) == 1
    run = data["runs"][next(q["id"] for q in data["questions"] if q["text"] == ask.STATE["text"])]
    assert text_of(floor) == floor_said(run["dense"][0][1], data["labs"]["ask"]["floor"])
