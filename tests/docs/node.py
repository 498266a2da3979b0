"""A Node process running the engine's twins and the documents' scripts (site_src/docs/) as the
page loads them (builder/page/assets.py engine_source() and DOCS, in order), for tests of what
needs no browser (tests/docs/driver.js says the protocol).

    node = DocsNode()
    node.run("async (RAG, input) => RAG.docs.sniff(new Uint8Array(input), 'a.png')", [137, 80])
"""

import json
import shutil
import subprocess
from pathlib import Path

from builder.page import assets
from builder.sources import SITE_SRC

DRIVER = Path(__file__).with_name("driver.js")


def docs_scripts() -> list[dict]:
    """The scripts a page runs for its documents: the engine, then site_src/docs/ in DOCS order."""
    return [{"name": "site_src/engine", "code": assets.engine_source()}] + [
        {"name": f"site_src/docs/{name}", "code": (SITE_SRC / "docs" / name).read_text("utf-8")} for name in assets.DOCS]


class DocsNode:
    def __init__(self):
        node = shutil.which("node")
        assert node, "node is needed (make test installs it)"
        self.process = subprocess.Popen([node, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8")
        assert self._ask({"scripts": docs_scripts()}) == {"ready": True}

    def _ask(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "tests/docs/driver.js stopped"
        return json.loads(line)

    def run(self, program: str, input=None):
        """The result of `program`, an async function (RAG, input) => JSON-able value."""
        reply = self._ask({"program": program, "input": input})
        assert "error" not in reply, f"the program failed in Node:\n{reply['error']}"
        return reply["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)
