"""Figures of sections 7-9 that are not drawings: code shown but not run, and an
illustrative structured reply. A section names one with {{ figure("name") }}.

- "structured-request": site_src/samples/not-run/structured_output.py, highlighted, marked
  "not run". It sits in a subfolder so the sample runner and tests/site/test_samples.py
  (which take only site_src/samples/*.py) never execute it: it needs an API key. The build
  still compiles it, and tests/site/test_prompt_lab.py tests its functions offline.
- "structured-reply": the reply that request asks for, filled with the hand-written answer
  and claims of a tracer question (corpus/tracers.yaml), labelled illustrative.
"""

import json

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import JsonLexer, PythonLexer

from builder.samples import SAMPLES, SampleError

NOT_RUN = SAMPLES / "not-run"
REPLY_TRACER = "refund-three-weeks"


def structured_request(facts) -> Markup:
    path = NOT_RUN / "structured_output.py"
    source = path.read_text("utf-8")
    try:
        compile(source, str(path), "exec")
    except SyntaxError as error:
        raise SampleError(f"{path}:{error.lineno}: {error.msg} (it is shown on the page, though not run)") from error
    code = Markup(highlight(source, PythonLexer(), HtmlFormatter(nowrap=True)))
    base = "sample-structured-output"
    return Markup(
        '<figure class="sample sample-not-run" id="{0}" aria-label="Code sample: a structured-output request, not run">'
        '<p class="sample-caption"><span class="not-run-label">Not run: needs an API key</span> '
        'Asking for structured claims, and checking the reply before reading it.</p>'
        '<div class="sample-bar"><div class="sample-tabs" role="tablist" aria-label="Language">'
        '<button type="button" role="tab" id="{0}-py-tab" aria-controls="{0}-py" aria-selected="true" tabindex="0" '
        'data-lang="py">Python</button></div>'
        '<button type="button" class="copy" aria-label="Copy the code">Copy</button></div>'
        '<div class="sample-code" role="tabpanel" id="{0}-py" aria-labelledby="{0}-py-tab" data-lang="py">'
        '<pre tabindex="0"><code>{1}</code></pre></div>'
        '<figcaption class="sample-output"><p class="not-run-label">Not run</p>'
        '<p class="not-run-text">The build compiles this program but never sends the request: no language model '
        'runs for this page. Its checks are tested offline on made-up responses.</p></figcaption></figure>'
    ).format(base, code)


def structured_reply(facts) -> Markup:
    tracer = next(t for t in facts.data["tracers"] if t["id"] == REPLY_TRACER)
    reply = {"answer": tracer["answer_text"],
             "claims": [{"text": c["text"], "source_id": c["source"], "quote": c["quote"]} for c in tracer["claims"]]}
    text = json.dumps(reply, indent=2, ensure_ascii=False)
    return Markup(
        '<div class="illustrative structured-reply"><p class="illustrative-label">Illustrative · a reply in that shape, '
        'written by hand</p><pre class="highlight" tabindex="0"><code>{}</code></pre></div>'
    ).format(Markup(highlight(text, JsonLexer(), HtmlFormatter(nowrap=True))))


FIGURES = {"structured-request": structured_request, "structured-reply": structured_reply}
