"""The structured-output program of section 7, shown on the page but never run (it needs an API
key): its schema is strict, and it reads a reply the way the page says, refusing what cannot be
used. Tested offline on made-up responses."""

import importlib.util
import json

import pytest

from builder.page.samples import SAMPLES
from builder.site import load_site
from support.paths import ROOT


@pytest.fixture(scope="module")
def corpus():
    """The real corpus (this module's, not the small fixture corpus)."""
    return load_site(ROOT / "corpus").corpus


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
