"""The harness's Node process: the joined engine (builder/page/assets.py engine_source(), as the
page loads it) run once, then asked for a pair's results, one JSON line per request
(tests/twins/driver.js says the protocol).

    engine = NodeEngine()                        # one process for the session
    engine.exports                               # file -> {functions, classes, constants}
    engine.call("tokenize", [["QB-4021"]])       # -> [["qb", "4021"]]

Numbers JSON cannot carry (-0.0, nan, the infinities) travel as {"$number": "-0"}, both ways, so
results are compared bit for bit.
"""

import json
import math
import shutil
import subprocess
from pathlib import Path

from builder.page import assets
from builder.sources import SITE_SRC

DRIVER = Path(__file__).with_name("driver.js")


def encoded(value):
    """`value` with every float JSON cannot write exactly replaced by its {"$number": …}."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value) or (value == 0 and math.copysign(1, value) < 0)):
        return {"$number": "-0" if value == 0 else "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")}
    if isinstance(value, dict):
        return {key: encoded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [encoded(item) for item in value]
    return value


def decoded(obj: dict):
    if len(obj) == 1 and "$number" in obj:
        return {"-0": -0.0, "NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[obj["$number"]]
    return obj


class NodeEngine:
    def __init__(self):
        node = shutil.which("node")
        assert node, "node is needed (make test installs it)"
        self.process = subprocess.Popen([node, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8")
        files = [{"name": f"site_src/engine/{name}", "code": (SITE_SRC / "engine" / name).read_text("utf-8")}
                 for name in assets.ENGINE]
        self.exports = self._ask({"files": files, "joined": assets.engine_source()})["exports"]

    def _ask(self, request: dict) -> dict:
        try:  # -0.0 travels as JSON writes it; only nan and the infinities need encoding
            line = json.dumps(request, allow_nan=False)
        except ValueError:
            line = json.dumps(encoded(request))
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline(), object_hook=decoded)
        assert "failed" not in reply, f"tests/twins/driver.js failed:\n{reply['failed']}"
        return reply

    def call(self, js: str, cases: list[list], objects: dict | None = None) -> list:
        """The twin `js` run on each case (its arguments); {"$error": message} where it throws."""
        return self._ask({"js": js, "cases": cases, "objects": objects or {}})["results"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)
