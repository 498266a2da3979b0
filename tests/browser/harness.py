"""What the browser tests share besides fixtures: paths, Chromium's flags, the quiet static
file handler. Tests import these from here, never from conftest.py: with several conftest.py
files in the tree, the module named "conftest" may be another folder's."""

import shutil
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21aa")


def chromium_path() -> str:
    return shutil.which("chromium") or "/usr/bin/chromium"


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves dist/ without logging every request to stderr."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".svg": "image/svg+xml", ".json": "application/json"}

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass
