"""The dev server (builder/serve.py): pages rewritten only as served, the reload channel,
rebuilds on change that keep the last good build when one fails; and, in Chromium, an edit
that reloads the open page and a broken edit that shows its error as a banner."""

import http.client
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from builder.serve import (DevState, Watcher, changed_files, dev_html, make_server, snapshot_files)
from support.caches import copy_warm_cache

ROOT = Path(__file__).resolve().parents[2]
PAGE = ('<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src '
        "'self'; script-src 'self'; connect-src 'none'; object-src 'none'\">\n<title>t</title></head>"
        "<body><p>build one</p>\n<script src=\"assets/app.js\"></script></body></html>\n")


# ------------------------------------------------------------------ rewriting


def test_served_copy_lets_the_reload_script_in_and_nothing_else():
    served = dev_html(PAGE, "abc-2")
    assert "connect-src 'self'" in served and "connect-src 'none'" not in served
    assert "script-src 'self'" in served and "object-src 'none'" in served  # the rest stays strict
    assert '<script src="/__dev/reload.js" data-build="abc-2"></script>\n</body>' in served
    assert '<link rel="stylesheet" href="/__dev/dev.css">\n</head>' in served
    assert "<script>" not in served  # still no inline script: the CSP would refuse it


def test_rewriting_escapes_the_build_id_and_copes_without_head_or_csp():
    served = dev_html("<p>bare</p>", 'x"><script>')
    assert 'data-build="x&quot;&gt;&lt;script&gt;"' in served
    assert served.count("/__dev/reload.js") == 1 and served.count("/__dev/dev.css") == 1


# ------------------------------------------------------------------ watching


def test_snapshot_sees_edits_and_ignores_editor_temp_files(tmp_path):
    (tmp_path / "help").mkdir()
    (tmp_path / "help" / "a.md").write_text("one")
    before = snapshot_files([tmp_path])
    (tmp_path / "help" / ".a.md.swp").write_text("x")
    (tmp_path / "help" / "a.md~").write_text("x")
    assert changed_files(before, snapshot_files([tmp_path])) == []
    (tmp_path / "help" / "a.md").write_text("one, longer")
    (tmp_path / "b.yaml").write_text("new")
    assert sorted(Path(p).name for p in changed_files(before, snapshot_files([tmp_path]))) == ["a.md", "b.yaml"]


class FakeSite:
    """A build that writes a one-line page, or fails with the error it is given."""

    def __init__(self, out: Path):
        self.out = out
        self.calls = 0
        self.fail_with: Exception | None = None

    def build(self):
        self.calls += 1
        if self.fail_with:
            raise self.fail_with
        self.out.mkdir(exist_ok=True)
        (self.out / "index.html").write_text(PAGE.replace("build one", f"build {self.calls}"))


def test_a_failed_rebuild_keeps_the_last_good_build_and_reports_its_error(tmp_path, capsys):
    watched = tmp_path / "corpus"
    watched.mkdir()
    (watched / "p.md").write_text("v1")
    site = FakeSite(tmp_path / "dist")
    state = DevState(has_build=False)
    watcher = Watcher(site.build, [watched], state, log=lambda *_: None)
    assert watcher.rebuild("first build") and state.snapshot().build.endswith("-1")
    assert not watcher.check()  # nothing changed: no build
    assert site.calls == 1

    from engine.problems import CorpusError, Problem
    site.fail_with = CorpusError([Problem("corpus/help/p.md", 3, "p-1", "updated", "is 'soon', not a date",
                                          "write it as YYYY-MM-DD")])
    (watched / "p.md").write_text("v2, broken")
    assert watcher.check()
    snapshot = state.snapshot()
    assert snapshot.build.endswith("-1"), "the last good build must stay the one served"
    assert "corpus/help/p.md:3: p-1: updated: is 'soon', not a date" in snapshot.error
    assert "build failed: the corpus has 1 problem" in capsys.readouterr().err
    assert (tmp_path / "dist" / "index.html").read_text().count("build 1") == 1

    site.fail_with = None
    (watched / "p.md").write_text("v3, fixed")
    assert watcher.check()
    snapshot = state.snapshot()
    assert snapshot.error is None and snapshot.build.endswith("-2")


def test_an_unexpected_error_is_reported_with_where_it_happened(tmp_path, capsys):
    site = FakeSite(tmp_path / "dist")
    site.fail_with = KeyError("g31")
    state = DevState(has_build=False)
    watcher = Watcher(site.build, [tmp_path], state, log=lambda *_: None)
    assert not watcher.rebuild("first build")
    assert "KeyError: 'g31'" in state.snapshot().error and state.snapshot().build is None
    assert "Nothing to serve yet" in capsys.readouterr().err


# ------------------------------------------------------------------ HTTP


@pytest.fixture
def dev_server(tmp_path):
    out = tmp_path / "dist"
    out.mkdir()
    (out / "index.html").write_text(PAGE)
    (out / "data.json").write_text('{"a": 1}')
    state = DevState(has_build=True)
    server = make_server(out, state, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], state, out
    state.close()
    server.shutdown()
    server.server_close()


def get(port: int, path: str):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.getheader("Content-Type"), response.read().decode()


def test_pages_are_rewritten_as_served_while_the_files_keep_their_policy(dev_server):
    port, state, out = dev_server
    status, kind, body = get(port, "/")
    assert status == 200 and kind.startswith("text/html")
    assert f'data-build="{state.snapshot().build}"' in body and "connect-src 'self'" in body
    assert (out / "index.html").read_text() == PAGE  # dist/ itself is never touched
    assert get(port, "/data.json")[2] == '{"a": 1}'
    status, kind, body = get(port, "/__dev/reload.js")
    assert status == 200 and kind.startswith("text/javascript") and "EventSource" in body
    assert json.loads(get(port, "/__dev/status")[2])["build"] == state.snapshot().build
    assert get(port, "/../../etc/passwd")[0] == 404


def test_without_any_build_the_front_page_waits_for_one(tmp_path):
    state = DevState(has_build=False)
    server = make_server(tmp_path, state, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        status, _, body = get(server.server_address[1], "/")
        assert status == 503 and "No build yet" in body and "/__dev/reload.js" in body
    finally:
        server.shutdown()
        server.server_close()


def read_event(response) -> dict:
    while True:
        line = response.fp.readline().decode()
        if line.startswith("data: "):
            return json.loads(line[6:])


def test_open_pages_hear_of_every_build_and_every_failure(dev_server):
    port, state, _ = dev_server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/__dev/events")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    first = read_event(response)
    assert first["build"].endswith("-1") and first["error"] is None
    state.failed("build failed: a claim no longer holds")
    assert read_event(response)["error"] == "build failed: a claim no longer holds"
    state.succeeded()
    latest = read_event(response)
    assert latest["build"].endswith("-2") and latest["error"] is None
    connection.close()


# ------------------------------------------------------------------ in Chromium


def start_serve(corpus: Path, out: Path, cache: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "builder.serve", "--port", "0", "--no-warm-up",
                                "--corpus", str(corpus), "--out", str(out), "--cache", str(cache),
                                "--claims", "warn", "--poll", "0.1"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    deadline = time.time() + 120
    while time.time() < deadline:
        line = process.stdout.readline()
        lines.append(line)
        match = re.search(r"Serving (http://127\.0\.0\.1:\d+/)", line)
        if match:
            threading.Thread(target=lambda: [lines.append(x) for x in process.stdout], daemon=True).start()
            process.lines = lines
            return process, match.group(1)
        if process.poll() is not None:
            break
    process.kill()
    pytest.fail("serve did not start:\n" + "".join(lines))



@pytest.mark.browser
def test_an_edit_reloads_the_page_and_a_broken_edit_shows_a_banner(browser, tmp_path):
    # `browser` is the session's Chromium from conftest.py: a second Playwright in one process fails.
    corpus, cache = tmp_path / "corpus", tmp_path / "cache"
    shutil.copytree(ROOT / "corpus", corpus)
    copy_warm_cache(cache)  # embeddings, token counts, the exported live model: the first build loads no model
    process, url = start_serve(corpus, tmp_path / "dist", cache)
    page = browser.new_page()
    try:
        deadline = time.time() + 120
        while json.loads(get(int(url.split(":")[2].strip("/")), "/__dev/status")[2])["build"] is None:
            assert time.time() < deadline, "".join(process.lines)
            time.sleep(0.2)
        page.goto(url)
        page.wait_for_function("() => document.querySelector('script[src=\"/__dev/reload.js\"]')")

        glossary = corpus / "glossary.yaml"
        original = glossary.read_text("utf-8")
        first_definition = re.search(r"^  definition: (\w[^\n]*)$", original, re.M).group(1)
        edited = original.replace(first_definition, "Edited while serving. " + first_definition, 1)
        with page.expect_navigation(timeout=30000):
            glossary.write_text(edited, "utf-8")
        page.wait_for_function("() => document.body.textContent.includes('Edited while serving.')", timeout=10000)

        errors = corpus / "help" / "errors.md"
        good = errors.read_text("utf-8")
        errors.write_text(re.sub(r"updated: \d{4}-\d\d-\d\d", "updated: someday", good, count=1), "utf-8")
        banner = page.locator(".dev-banner[role=alert]")
        banner.wait_for(timeout=30000)
        assert "someday" in banner.inner_text() and "YYYY-MM-DD" in banner.inner_text()
        assert page.locator("body").text_content().count("Edited while serving.") >= 1  # the last good build

        with page.expect_navigation(timeout=30000):
            errors.write_text(good, "utf-8")
        page.wait_for_load_state()
        assert page.locator(".dev-banner").count() == 0
    finally:
        page.close()
        process.terminate()
        process.wait(timeout=10)
    assert "Stopped." in "".join(process.lines)
