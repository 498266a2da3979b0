"""Adding a lab takes one folder and one line in a section (site_src/README.md, "Adding a lab"):
a copy of site_src/ gets a small lab, fixture/, and one line placing it; the build finds it, runs
its data step, draws its view into the page, ships its script and its scoped style, and in
Chromium the lab starts and redraws when its control changes."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from support.paths import ROOT

DATA_PY = '''"""A lab made by a test: the first passages of the help center, as many as the reader picks."""

STATE = {"n": 2}


def data(build) -> dict:
    return {"first": [p.id for p in build.corpus.passages[:3]]}
'''

LAB_HTML = '''{% extends "_lab.html" %}
{% from "_macros.html" import lab_controls %}
{% block title %}Fixture lab{% endblock %}
{% block intro %}<p class="lab-intro">The help center's first passages.</p>{% endblock %}
{% block controls %}
  {% call lab_controls() %}
  <div class="lab-controls">
    <fieldset class="segmented"><legend>How many</legend>
{% for value in (1, 2, 3) %}
      <label><input type="radio" name="fixture-n" data-key="n" value="{{ value }}"{% if value == state.n %} checked{% endif %}><span>{{ value }}</span></label>
{% endfor %}
    </fieldset>
  </div>
  {% endcall %}
{% endblock %}
'''

LAB_JS = '''RAG.lab("fixture", {
  accept(next, input) {
    const n = Number(next.n);
    return [1, 2, 3].includes(n) ? { n } : null;
  },
  props(state, input) {
    return { shown: input.own.first.slice(0, state.n) };
  },
  view(props) {
    const h = RAG.h;
    return [h("p", { class: "lab-status" }, `${RAG.plural(props.shown.length, "passage")} shown.`),
      h("ol", { class: "fixture-list" }, props.shown.map((id) => h("li", null, h("code", null, id))))];
  },
});
'''

LAB_CSS = '[data-lab="fixture"] .fixture-list code { font-weight: 700; }\n'


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    """site_src/ copied with the fixture lab added and placed at the end of section 01, built."""
    root = tmp_path_factory.mktemp("fixture-lab")
    source = root / "site_src"
    shutil.copytree(ROOT / "site_src", source, ignore=shutil.ignore_patterns("__pycache__"))
    folder = source / "labs" / "fixture"
    folder.mkdir()
    for name, text in (("data.py", DATA_PY), ("lab.html", LAB_HTML), ("lab.js", LAB_JS), ("lab.css", LAB_CSS)):
        (folder / name).write_text(text, "utf-8")
    first = sorted((source / "sections").glob("01-*.md"))[0]
    first.write_text(first.read_text("utf-8") + '\n{{ lab("fixture") }}\n', "utf-8")
    out = root / "dist"
    env = {**os.environ, "RAG_EXPLAINER_SITE_SRC": str(source), "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out), "--live-model", "off"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return out


@pytest.mark.slow
def test_the_build_finds_the_lab_runs_its_data_step_and_draws_it(fixture_site, data):
    html = (fixture_site / "index.html").read_text("utf-8")
    first = [p["id"] for p in data["passages"][:3]]
    built = json.loads((fixture_site / "data" / "rag.json").read_text("utf-8"))
    assert built["labs"]["fixture"] == {"first": first}
    placed = re.findall(r'<section class="lab[^"]*" data-lab="([a-z0-9_]+)"', html)
    assert placed[0] == "fixture", "placed at the end of section 01, it is the page's first lab"
    drawn = html.split('id="lab-fixture"', 1)[1].split("</section>", 1)[0]
    assert '<p class="lab-status">2 passages shown.</p>' in drawn
    # (the page is written lean: an </li> the parser implies may be left out, builder/page/lean_html.py)
    assert re.search(rf"<li><code>{first[0]}</code>(</li>)?<li><code>{first[1]}</code>(</li>)?</ol>", drawn)
    assert (fixture_site / "assets" / "labs" / "fixture.js").is_file()
    assert '[data-lab="fixture"] .fixture-list code' in (fixture_site / "assets" / "site.css").read_text("utf-8")


@pytest.mark.slow
@pytest.mark.browser
def test_the_lab_starts_and_redraws_in_the_browser(fixture_site, browser, data):
    import functools
    import threading
    from http.server import ThreadingHTTPServer

    from support.browser import QuietHandler

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(fixture_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html#lab-fixture")
        section = page.locator("#lab-fixture")
        expect(section).to_have_attribute("data-lab-state", "ready")
        section.locator("fieldset.segmented label", has_text="3").click()
        expect(section.locator(".lab-status")).to_have_text("3 passages shown.")
        expect(section.locator(".fixture-list li")).to_have_count(3)
        assert page.evaluate("() => location.hash") == "#lab-fixture?n=3"
        assert errors == []
    finally:
        context.close()
        server.shutdown()
