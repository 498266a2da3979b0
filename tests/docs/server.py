"""A loopback server for the documents' browser tests: the built site (dist/) as it ships, plus
test pages written here, every request it answers recorded (method, path), and, on request, a
file served with one byte changed (to see a check refuse it).

    server = DocsServer(dist).start()
    server.page("/docs-test.html", docs_page_html(dist))      # the site's own scripts under its own policy
    server.tamper("assets/vendor/mammoth-1.13.0/mammoth.browser.min.js")
    server.requests                                       # [("GET", "/assets/scripts/docs.js?v=…"), …]

Example: docs_page_html(dist).startswith("<!doctype html>") -> True
"""

import functools
import json
import re
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from support.browser import QuietHandler

CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')
ASSETS_JSON = re.compile(r'<script type="application/json" id="rag-assets">([^<]*)</script>')


def site_policy(dist: Path) -> str:
    """The built page's own <meta> Content-Security-Policy, as it ships."""
    return CSP_META.search((dist / "index.html").read_text("utf-8")).group(0)


def site_scripts(dist: Path) -> dict:
    return json.loads(ASSETS_JSON.search((dist / "index.html").read_text("utf-8")).group(1))["scripts"]


def docs_page_html(dist: Path, policy: bool = True) -> str:
    """A page that loads what a reader's documents need, as the page would: the engine and
    docs.js, under the built page's policy (or none: a page where anything markup asked for would
    run and load), with a file input to choose files with."""
    scripts = site_scripts(dist)
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            + (site_policy(dist) if policy else "")
            + "<title>Documents test page</title>"
            + f'<script src="{scripts["engine"]}"></script><script src="{scripts["docs"]}"></script>'
            + '</head><body><input type=file id=files multiple><p id=out></p></body></html>')


class DocsServer:
    def __init__(self, dist: Path):
        self.dist = dist
        self.pages: dict[str, bytes] = {}
        self.tampered: set[str] = set()
        self.requests: list[tuple[str, str]] = []
        server = self

        class Handler(QuietHandler):
            def do_GET(self):
                path = urlsplit(self.path).path
                server.requests.append(("GET", self.path))
                if path in server.pages:
                    return self.answer(server.pages[path], "text/html; charset=utf-8")
                if path.lstrip("/") in server.tampered:
                    content = bytearray((server.dist / path.lstrip("/")).read_bytes())
                    content[len(content) // 2] ^= 0x20  # one byte changed: still valid JavaScript, most likely
                    return self.answer(bytes(content), "text/javascript")
                return super().do_GET()

            def do_POST(self):
                server.requests.append(("POST", self.path))
                self.send_error(405)

            def answer(self, content: bytes, kind: str):
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(content)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(content)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(dist)))
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/"

    def start(self) -> "DocsServer":
        threading.Thread(target=self.http.serve_forever, name="docs-server", daemon=True).start()
        return self

    def page(self, path: str, html: str) -> str:
        self.pages[path] = html.encode("utf-8")
        return self.url + path.lstrip("/")

    def tamper(self, *paths: str) -> None:
        self.tampered = set(paths)

    def paths_since(self, start: int) -> list[str]:
        return [urlsplit(path).path for _, path in self.requests[start:]]

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()
