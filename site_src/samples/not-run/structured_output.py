"""Ask a model for its answer as structured claims, then check the reply before using it.

Not run by the build: it needs an API key and a network connection. It uses OpenAI's Chat
Completions API with a JSON schema (structured outputs); other providers offer the same
idea under other names. The prompt and the citation check are the samples of "Building the
prompt" and "Checking citations in code", which sit one folder up.
"""

import json
import os
import sys
import urllib.request

# The reply we ask for: an answer, and every claim in it with the id of its source and an
# exact quote. strict mode wants every property required and no others allowed.
REPLY_SCHEMA = {
    "type": "object",
    "properties": {
        "answer": {"type": "string"},
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "source_id": {"type": "string"},
                    "quote": {"type": "string"},
                },
                "required": ["text", "source_id", "quote"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["answer", "claims"],
    "additionalProperties": False,
}


def request_body(prompt):
    return {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": prompt}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "cited_answer", "strict": True, "schema": REPLY_SCHEMA},
        },
        "temperature": 0,
    }


def ask(body):
    request = urllib.request.Request(
        "https://api.openai.com/v1/chat/completions",
        data=json.dumps(body).encode("utf-8"),
        headers={"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}",
                 "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def read_reply(response):
    """The reply as a dict, or ValueError saying why it cannot be used."""
    choice = response["choices"][0]
    # 1. Why did the model stop? Only "stop" means it finished: "length" means the JSON was
    #    cut off mid-way, "content_filter" that it was withheld.
    if choice["finish_reason"] != "stop":
        raise ValueError(f"the model did not finish: finish_reason={choice['finish_reason']!r}")
    if choice["message"].get("refusal"):
        raise ValueError(f"the model refused: {choice['message']['refusal']}")
    # 2. Parse it.
    try:
        reply = json.loads(choice["message"]["content"])
    except (TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"the reply is not JSON: {error}") from None
    # 3. Validate it: the rest of the code relies on this shape, whatever was promised.
    if not (isinstance(reply, dict) and isinstance(reply.get("answer"), str)
            and isinstance(reply.get("claims"), list)):
        raise ValueError("the reply has no answer text or no list of claims")
    for claim in reply["claims"]:
        if not (isinstance(claim, dict) and set(claim) == {"text", "source_id", "quote"}
                and all(isinstance(value, str) for value in claim.values())):
            raise ValueError(f"a claim is not exactly text, source_id and quote: {claim!r}")
    return reply


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from citations_check import check                                    # Checking citations in code
    from prompt_builder import QUESTION, RULES, SOURCES, build_prompt    # Building the prompt

    reply = read_reply(ask(request_body(build_prompt(QUESTION, SOURCES, RULES))))
    # 4. Only now check the citations, against the sources that were sent.
    sent = {source["id"]: source["text"] for source in SOURCES}
    print(reply["answer"])
    for claim in reply["claims"]:
        print("-", claim["text"], check(claim, sent) or "ok")
