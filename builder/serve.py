"""`make serve`: build, serve dist/ on loopback, rebuild on every edit, reload the open page.

    python -m builder.serve [--port 8000] [--corpus corpus] [--out dist] [--claims fail|warn]

One process does everything, so what is slow to load is loaded once: the embedding model
(warmed up right after the first build), the token encoding, the compiled templates. An edit
to a passage then costs one embedding and a rebuild of the page data, well under a second.

- Watching: corpus/ and site_src/ are polled a few times a second (no extra dependency);
  files whose name starts with "." or ends with "~" (editor temp files) are ignored. Code
  under builder/ and engine/ is not reloaded: restart serve after editing it.
- Reloading: the server rewrites each HTML page *as it serves it* to add /__dev/reload.js and
  /__dev/dev.css and to let the page connect back to this server (connect-src 'self'). The
  files in dist/ keep the page's strict Content-Security-Policy. The script listens to
  /__dev/events (Server-Sent Events) and reloads when a new build is in; the reader's place
  and the lab states in the URL hash survive the reload.
- A failed build (a corpus error, a claim that no longer holds, a broken template) prints its
  error here and shows it as a banner on the page, while the last good build stays served.
"""

import argparse
import functools
import html
import json
import os
import re
import secrets
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
# The types dist/ needs, whatever the machine's mimetypes table holds: browsers refuse a module
# script (.mjs) or streamed WebAssembly (.wasm) served as anything else.
SITE_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
              ".svg": "image/svg+xml", ".json": "application/json"}
DEFAULT_PORT = 8000
POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 15

RELOAD_JS = r"""/* Dev server only (builder/serve.py): reload on a new build, show a failed build's error. */
(function () {
  "use strict";
  var script = document.currentScript;
  var shown = script ? script.getAttribute("data-build") : "";
  var banner = null;

  function showError(text) {
    if (!banner) {
      banner = document.createElement("div");
      banner.className = "dev-banner";
      banner.setAttribute("role", "alert");
      var head = document.createElement("p");
      head.className = "dev-banner-title";
      head.textContent = "Build failed: this page is the last good build. Fix the error and save; the page reloads by itself.";
      var hide = document.createElement("button");
      hide.type = "button";
      hide.className = "dev-banner-hide";
      hide.textContent = "Hide";
      hide.addEventListener("click", function () { banner.hidden = true; });
      var pre = document.createElement("pre");
      pre.className = "dev-banner-error";
      banner.appendChild(head);
      banner.appendChild(hide);
      banner.appendChild(pre);
      document.body.insertBefore(banner, document.body.firstChild);
    }
    banner.hidden = false;
    banner.querySelector("pre").textContent = text;
  }

  function hideError() {
    if (banner) banner.remove();
    banner = null;
  }

  function onState(state) {
    if (state.build && state.build !== shown) {
      window.location.reload();
      return;
    }
    if (state.error) showError(state.error);
    else hideError();
  }

  var events = new EventSource("/__dev/events");
  events.onmessage = function (event) { onState(JSON.parse(event.data)); };
})();
"""

DEV_CSS = """/* Dev server only (builder/serve.py): the failed-build banner. */
.dev-banner { position: sticky; top: 0; z-index: 1000; margin: 0; padding: 0.75rem 1rem;
  background: #fbe8e5; color: #5c1108; border-bottom: 3px solid #ad2416;
  font: 0.9rem/1.4 system-ui, sans-serif; display: grid; grid-template-columns: 1fr auto; gap: 0.5rem; }
.dev-banner[hidden] { display: none; }
.dev-banner-title { margin: 0; font-weight: 700; }
.dev-banner-hide { font: inherit; padding: 0.1rem 0.6rem; border: 1px solid currentColor; border-radius: 4px;
  background: transparent; color: inherit; cursor: pointer; }
.dev-banner-hide:focus-visible { outline: 3px solid #1d5ba6; outline-offset: 2px; }
.dev-banner-error { grid-column: 1 / -1; margin: 0; max-height: 40vh; overflow: auto; white-space: pre-wrap;
  overflow-wrap: anywhere; font: 0.8rem/1.45 ui-monospace, monospace; color: inherit; background: transparent; }
@media (prefers-color-scheme: dark) {
  .dev-banner { background: #3a1410; color: #ffd9d3; border-bottom-color: #ff8a7a; }
  .dev-banner-hide:focus-visible { outline-color: #8ab4ff; }
}
"""

NO_BUILD_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No build yet</title></head>
<body><main><h1>No build yet</h1>
<p>The first build failed and there is no earlier one to show. Fix the error and save: this page reloads by itself.</p>
</main></body></html>
"""

CSP_META = re.compile(r'<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"', re.I)


def dev_html(page: str, build: str) -> str:
    """The served copy of a page: connect-src 'self' so the reload script can listen to this
    server, plus the dev stylesheet and script. The file on disk is never changed."""
    def relax(match: re.Match) -> str:
        policy = re.sub(r"connect-src\s+'none'", "connect-src 'self'", match.group(1))
        return match.group(0).replace(match.group(1), policy)

    page = CSP_META.sub(relax, page, count=1)
    link = '<link rel="stylesheet" href="/__dev/dev.css">\n'
    script = f'<script src="/__dev/reload.js" data-build="{html.escape(build, quote=True)}"></script>\n'
    page = page.replace("</head>", link + "</head>", 1) if "</head>" in page else link + page
    return page.replace("</body>", script + "</body>", 1) if "</body>" in page else page + script


# ------------------------------------------------------------------ state


@dataclass(frozen=True)
class Snapshot:
    version: int          # bumps on every change of anything below
    build: str | None     # id of the build being served; None before the first good one
    error: str | None     # the last build's error, None when it succeeded
    building: bool
    ready: bool           # warm-up done: the model is loaded

    def as_json(self) -> str:
        return json.dumps({"version": self.version, "build": self.build, "error": self.error,
                           "building": self.building, "ready": self.ready})


class DevState:
    """What the page should know, with a condition that SSE listeners wait on."""

    def __init__(self, has_build: bool):
        self.session = secrets.token_hex(3)  # a restarted server makes every open page reload
        self.builds = 1 if has_build else 0
        self.error: str | None = None
        self.building = False
        self.ready = False
        self.version = 0
        self.closed = False
        self.listeners = 0
        self._condition = threading.Condition()

    def _change(self, **fields) -> None:
        with self._condition:
            for name, value in fields.items():
                setattr(self, name, value)
            self.version += 1
            self._condition.notify_all()

    def started(self) -> None:
        self._change(building=True)

    def succeeded(self) -> None:
        self._change(builds=self.builds + 1, error=None, building=False)

    def failed(self, message: str) -> None:
        self._change(error=message, building=False)

    def warmed(self) -> None:
        self._change(ready=True)

    def close(self) -> None:
        self._change(closed=True)

    def listening(self, delta: int) -> None:
        with self._condition:
            self.listeners += delta

    def snapshot(self) -> Snapshot:
        with self._condition:
            build = f"{self.session}-{self.builds}" if self.builds else None
            return Snapshot(self.version, build, self.error, self.building, self.ready)

    def wait(self, seen: int, timeout: float) -> Snapshot:
        """The state once its version differs from `seen` (or after `timeout`)."""
        with self._condition:
            self._condition.wait_for(lambda: self.version != seen or self.closed, timeout)
        return self.snapshot()


# ------------------------------------------------------------------ HTTP


class DevHandler(SimpleHTTPRequestHandler):
    """dist/ as files, HTML pages rewritten on the way out, and the /__dev/ endpoints."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **SITE_TYPES}
    state: DevState  # set by make_server

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self):
        path = unquote(urlsplit(self.path).path)
        if path == "/__dev/reload.js":
            return self._send(RELOAD_JS, "text/javascript")
        if path == "/__dev/dev.css":
            return self._send(DEV_CSS, "text/css")
        if path == "/__dev/status":
            return self._send(self.state.snapshot().as_json(), "application/json")
        if path == "/__dev/events":
            return self._events()
        if path.endswith("/"):
            path += "index.html"
        if path.endswith(".html"):
            return self._page(path)
        return super().do_GET()

    def _send(self, text: str, content_type: str, status: int = 200) -> None:
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", f"{content_type}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _page(self, path: str) -> None:
        file = Path(self.translate_path(path))
        snapshot = self.state.snapshot()
        if file.is_file():
            return self._send(dev_html(file.read_text("utf-8"), snapshot.build or ""), "text/html")
        if snapshot.build is None and path == "/index.html":
            return self._send(dev_html(NO_BUILD_HTML, ""), "text/html", 503)
        self.send_error(404, "File not found")

    def _events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        seen = -1
        self.state.listening(+1)
        try:
            self.wfile.write(b"retry: 500\n\n")
            while not self.state.closed:
                snapshot = self.state.wait(seen, KEEPALIVE_SECONDS) if seen >= 0 else self.state.snapshot()
                if snapshot.version == seen:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    seen = snapshot.version
                    self.wfile.write(f"data: {snapshot.as_json()}\n\n".encode("utf-8"))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.state.listening(-1)


def make_server(out_dir: Path, state: DevState, port: int) -> ThreadingHTTPServer:
    handler = type("BoundDevHandler", (DevHandler,), {"state": state})
    server = ThreadingHTTPServer((HOST, port), functools.partial(handler, directory=str(out_dir)))
    server.daemon_threads = True
    return server


# ------------------------------------------------------------------ watching


def ignored(name: str) -> bool:
    return name.startswith((".", "#")) or name.endswith(("~", ".swp", ".tmp"))


def snapshot_files(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """path -> (mtime in ns, size) for every file under `folders`, editor temp files left out."""
    seen: dict[str, tuple[int, int]] = {}
    stack = [Path(f) for f in folders]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            if ignored(entry.name) or entry.name == "__pycache__":
                continue
            try:
                if entry.is_dir():
                    stack.append(Path(entry.path))
                elif entry.is_file():
                    info = entry.stat()
                    seen[entry.path] = (info.st_mtime_ns, info.st_size)
            except FileNotFoundError:
                continue
    return seen


def changed_files(before: dict, after: dict) -> list[str]:
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


def describe_error(error: BaseException) -> str:
    """The error as an author needs it: known build errors as their message, others with
    the last lines of their traceback (a template error names its file and line there)."""
    from builder.page.claims import ClaimFailed
    from builder.page.errors import ProseError, SampleError
    from engine.problems import CorpusError

    if isinstance(error, (CorpusError, ClaimFailed, ProseError, SampleError)):
        return str(error)
    frames = traceback.format_exception(type(error), error, error.__traceback__)
    return "".join(frames[-3:]).rstrip()


class Watcher:
    """Rebuild whenever a watched file changes; one build at a time, in this thread."""

    def __init__(self, build: Callable[[], None], folders: list[Path], state: DevState,
                 poll: float = POLL_SECONDS, log=print):
        self.build = build
        self.folders = folders
        self.state = state
        self.poll = poll
        self.log = log
        self.stop = threading.Event()
        self.files = snapshot_files(folders)

    def rebuild(self, reason: str) -> bool:
        self.files = snapshot_files(self.folders)  # edits made during the build trigger another
        self.state.started()
        started = time.perf_counter()
        self.log(f"\n{reason}: building")
        try:
            self.build()
        except Exception as error:  # noqa: BLE001 (any failure keeps the last good build served)
            message = describe_error(error)
            print(f"build failed: {message}", file=sys.stderr, flush=True)
            served = self.state.snapshot().build
            print("Still serving the last good build." if served else "Nothing to serve yet.",
                  file=sys.stderr, flush=True)
            self.state.failed(message)
            return False
        self.state.succeeded()
        pages = self.state.listeners
        self.log(f"Built in {time.perf_counter() - started:.2f} s"
                 + (f"; reloading {pages} open page{'s' if pages != 1 else ''}." if pages else "."))
        return True

    def settle(self) -> dict:
        """The files once they stop changing for a moment (editors write in several steps)."""
        current = snapshot_files(self.folders)
        for _ in range(20):
            time.sleep(0.05)
            later = snapshot_files(self.folders)
            if later == current:
                break
            current = later
        return current

    def check(self) -> bool:
        """Rebuild if anything changed since the last look; True if a build ran."""
        current = snapshot_files(self.folders)
        if current == self.files:
            return False
        current = self.settle()
        changes = changed_files(self.files, current)
        if not changes:
            self.files = current
            return False
        names = [os.path.relpath(path, ROOT) if path.startswith(str(ROOT)) else path for path in changes]
        reason = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "") + " changed"
        self.rebuild(reason)
        return True

    def run(self) -> None:
        while not self.stop.is_set():
            self.check()
            self.stop.wait(self.poll)


def warm_up(cache_dir: Path, log=print) -> None:
    """Load what an edit would otherwise load: the embedding model, both tokenizers, and the ONNX
    sessions of the browser's model and of the int8 check (each checks an edited passage)."""
    started = time.perf_counter()
    from builder import live_model
    from builder.pipeline import model_files
    from engine.dense import embed
    from engine.tokens import count_o200k, count_wordpieces

    embed(["warm-up"])
    count_o200k("warm-up")
    count_wordpieces("warm-up")
    try:
        sessions = live_model.open_sessions(cache_dir, model_files())
    except live_model.LiveModelUnavailable:  # no browser model is built, so there is none to open
        sessions = 0
    log(f"Model loaded in {time.perf_counter() - started:.1f} s ({sessions} ONNX sessions open): an edited passage "
        "is re-embedded without loading it again.")


# ------------------------------------------------------------------ main


def bind(out_dir: Path, state: DevState, port: int | None) -> ThreadingHTTPServer:
    """Port `port`; with none given, 8000, or a free one when 8000 is taken."""
    try:
        return make_server(out_dir, state, DEFAULT_PORT if port is None else port)
    except OSError as error:
        if port is not None:
            raise SystemExit(f"serve: cannot listen on {HOST}:{port}: {error.strerror} "
                             "(fix: --port 0 picks a free port)") from None
        return make_server(out_dir, state, 0)


def _terminate(signum, frame):
    raise KeyboardInterrupt  # stop as Ctrl+C does: the build in progress writes nothing


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m builder.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=None,
                        help=f"port on {HOST} (default {DEFAULT_PORT}, or a free one if it is taken; 0: a free one)")
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default: corpus/)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache", help="cache folder (default: .cache/)")
    parser.add_argument("--claims", choices=("fail", "warn"), default="fail",
                        help="what a false claim does: fail the build (default) or only warn")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="do not load the model after the first build (it then loads on the first edit)")
    parser.add_argument("--poll", type=float, default=POLL_SECONDS, help="seconds between looks at the files")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    signal.signal(signal.SIGTERM, _terminate)

    from builder.pipeline import build_site  # after the environment is set

    out_dir = args.out.resolve()

    def build() -> None:
        print(f"Building {out_dir} from {args.corpus}", flush=True)
        build_site(args.corpus, out_dir, args.cache, strict_claims=args.claims == "fail")
        sys.stdout.flush()

    state = DevState(has_build=(out_dir / "index.html").is_file())
    watcher = Watcher(build, [args.corpus.resolve(), ROOT / "site_src"], state, poll=args.poll,
                      log=functools.partial(print, flush=True))
    server = bind(out_dir, state, args.port)
    serving = threading.Thread(target=server.serve_forever, name="dev-server", daemon=True)
    try:
        serving.start()
        print(f"Serving http://{HOST}:{server.server_address[1]}/  (watching {args.corpus} and site_src/; "
              "Ctrl+C stops)", flush=True)
        watcher.rebuild("first build")
        if not args.no_warm_up:
            try:
                warm_up(args.cache, log=functools.partial(print, flush=True))
            except Exception as error:  # noqa: BLE001 (serving goes on; the next edit tries again)
                print(f"warning: could not load the model now ({type(error).__name__}: {error}); "
                      "a build that needs it will try again", file=sys.stderr, flush=True)
        state.warmed()
        watcher.run()
    except KeyboardInterrupt:
        print("\nStopped.", flush=True)
    finally:
        watcher.stop.set()
        state.close()
        if serving.is_alive():
            server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
