"""Sections 7-9 off the browser: the samples' copies of the help center cannot drift from the
corpus, the not-run structured-output program reads replies the way the page says, and the
citation checks of the traced answers hold against only the passages sent."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from builder import extra_answer
from builder.claims import ClaimRegistry
from builder.samples import SAMPLES, SampleError
from engine.citations import Claim, check_citations
from engine.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[2]
RAG_JSON = ROOT / "dist" / "data" / "rag.json"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "corpus")


@pytest.fixture
def samples(tmp_path, monkeypatch):
    """A copy of the two samples the build checks, which a test may then edit."""
    folder = tmp_path / "site_src" / "samples"
    folder.mkdir(parents=True)
    for name in ("prompt_builder.py", "citations_check.py"):
        shutil.copy(SAMPLES / name, folder / name)
    monkeypatch.setattr(extra_answer, "SAMPLES", folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1), "utf-8")


# ---------------------------------------------------------------- samples vs corpus


def test_the_samples_as_they_are_agree_with_corpus_and_engine(samples, corpus):
    assert extra_answer.prompt_sample(corpus)["sources"] == ["refund-old", "refund-new"]
    checked = extra_answer.checker_sample(corpus)
    assert [c["ok"] for c in checked["claims"]] == [True, False, False, False, True]


def test_a_passage_copied_wrong_stops_the_build_and_names_both_files(samples, corpus):
    edit(samples / "prompt_builder.py", "within 14 days of the payment", "within 15 days of the payment")
    with pytest.raises(SampleError, match=r"prompt_builder\.py: its copy of the text of 'refund-new' differs "
                                          r"from .*billing\.md:\d+"):
        extra_answer.prompt_sample(corpus)


def test_a_copied_date_or_title_is_checked_too(samples, corpus):
    edit(samples / "prompt_builder.py", '"date": "2024-02-01"', '"date": "2024-02-02"')
    with pytest.raises(SampleError, match="date of 'refund-old'"):
        extra_answer.prompt_sample(corpus)


def test_the_checker_samples_copy_is_checked(samples, corpus):
    edit(samples / "citations_check.py", "no questions asked", "no question asked")
    with pytest.raises(SampleError, match=r"citations_check\.py: its copy of the text of 'refund-old'"):
        extra_answer.checker_sample(corpus)


def test_rules_that_drift_from_the_engine_stop_the_build(samples, corpus):
    edit(samples / "prompt_builder.py", "say you don't know", "say so")
    with pytest.raises(SampleError, match="RULES differ"):
        extra_answer.prompt_sample(corpus)


def test_a_checker_that_drifts_from_the_engine_stops_the_build(samples, corpus):
    edit(samples / "citations_check.py", 'problems.append(f"number {number} in the claim is not in the quote")',
         'problems.append(f"number {number} in the claim is missing from the quote")')
    with pytest.raises(SampleError, match="claim 4: check"):
        extra_answer.checker_sample(corpus)


def test_the_hostile_demo_source_is_the_samples(samples, corpus):
    edit(samples / "prompt_builder.py", "Great news!", "Good news!")
    with pytest.raises(SampleError, match="HOSTILE differs"):
        extra_answer.prompt_sample(corpus)


def test_quote_span_marks_the_quote_whatever_its_case_and_spacing():
    text = "Paid plans are  refundable\nwithin 14 days."
    start, end = extra_answer.quote_span(text, "ARE refundable within")
    assert text[start:end] == "are  refundable\nwithin"
    assert extra_answer.quote_span(text, "refundable for 14") is None
    assert extra_answer.quote_span(text, "   ") is None
    assert extra_answer.quote_span("a (b) c", "(b)") == [2, 5]


# ------------------------------------------------------- the structured-output program


@pytest.fixture(scope="module")
def structured():
    path = SAMPLES / "not-run" / "structured_output.py"
    spec = importlib.util.spec_from_file_location("structured_output", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines names only; the request is sent under __main__
    return module


def response(content, finish_reason="stop", refusal=None):
    return {"choices": [{"finish_reason": finish_reason,
                         "message": {"role": "assistant", "content": content, "refusal": refusal}}]}


def test_the_not_run_program_is_outside_the_sample_runner():
    assert "structured_output" not in {p.stem for p in SAMPLES.glob("*.py")}


def test_the_schema_is_strict_everywhere(structured):
    def objects(schema):
        if schema.get("type") == "object":
            yield schema
            for child in schema["properties"].values():
                yield from objects(child)
        elif schema.get("type") == "array":
            yield from objects(schema["items"])

    found = list(objects(structured.REPLY_SCHEMA))
    assert len(found) == 2
    for schema in found:
        assert schema["additionalProperties"] is False
        assert sorted(schema["required"]) == sorted(schema["properties"])
    body = structured.request_body("the prompt")
    assert body["messages"][-1]["content"] == "the prompt"
    assert body["response_format"]["json_schema"]["schema"] is structured.REPLY_SCHEMA


def test_read_reply_accepts_every_traced_answer_in_that_shape(structured, corpus):
    for tracer in corpus.tracers:
        reply = {"answer": tracer.answer_text,
                 "claims": [{"text": c.text, "source_id": c.source_id, "quote": c.quote} for c in tracer.claims]}
        assert structured.read_reply(response(json.dumps(reply))) == reply


@pytest.mark.parametrize("bad, reason", [
    (response('{"answer": "Paid plans are refundable wi', finish_reason="length"), "did not finish"),
    (response(None, finish_reason="content_filter"), "did not finish"),
    (response(None, refusal="I can't help with that."), "refused"),
    (response("Sure! Here is the JSON: {}"), "not JSON"),
    (response(None), "not JSON"),
    (response('["answer", "claims"]'), "no answer text"),
    (response('{"answer": "Yes.", "claims": {}}'), "no answer text"),
    (response('{"answer": "Yes.", "claims": [{"text": "x", "source_id": "refund-new"}]}'), "not exactly"),
    (response('{"answer": "Yes.", "claims": [{"text": "x", "source_id": 7, "quote": "q"}]}'), "not exactly"),
    (response('{"answer": "Yes.", "claims": [{"text": "x", "source_id": "a", "quote": "q", "extra": 1}]}'),
     "not exactly"),
])
def test_read_reply_refuses_what_cannot_be_used(structured, bad, reason):
    with pytest.raises(ValueError, match=reason):
        structured.read_reply(bad)


# ------------------------------------------------------------------ the built data


@pytest.fixture(scope="module")
def data():
    if not RAG_JSON.is_file():
        pytest.skip("dist/data/rag.json does not exist: build the site first (python build.py)")
    return json.loads(RAG_JSON.read_text("utf-8"))


def test_traced_citations_hold_against_only_the_passages_sent(data):
    by_id = {p["id"]: p["text"] for p in data["passages"]}
    for tracer in data["tracers"]:
        sent = data["answer"]["tracer_checks"][tracer["id"]]["sent"]
        assert sent == [pid for pid, _ in data["runs"][tracer["id"]]["hybrid"][:data["answer"]["sent"]]]
        claims = [Claim(c["text"], c["source"], c["quote"]) for c in tracer["claims"]]
        narrow = check_citations(claims, {pid: by_id[pid] for pid in sent})
        assert [r.problems for r in narrow] == [c["problems"] for c in tracer["claims"]], tracer["id"]


def test_the_prompt_default_in_the_data_is_the_engines(data):
    from engine.prompt import Source, build_prompt

    default = data["answer"]["prompt_default"]
    by_id = {p["id"]: p for p in data["passages"]}
    question = next(q for q in data["questions"] if q["id"] == default["q"])
    sources = [Source(pid, by_id[pid]["title"], by_id[pid]["updated"], by_id[pid]["text"])
               for pid, _ in data["runs"][default["q"]]["hybrid"][:default["n"]]]
    assert default["text"] == build_prompt(question["text"], sources)


def test_a_claim_check_can_use_helpers_inside_a_comprehension():
    registry = ClaimRegistry({"rank": lambda q: {"a": 1, "b": 3}[q], "qs": ["a", "b"]})
    held = registry.evaluate("all(rank(q) <= 3 for q in qs) and sorted(qs, key=lambda q: -rank(q)) == ['b', 'a']",
                             "test", 1, "body")
    assert held.held, held.error
