"""site_src/runtime/kit.js, run in Node on its own: nearestDot, the one way a tap or click on a
scatter (who-wins) or a map names a dot: the nearest middle within a finger's width, else none."""

import json
import subprocess

from support.paths import ROOT

KIT = ROOT / "site_src" / "runtime" / "kit.js"

# Dots as a browser measures them (x, y, width, height), and taps: kit.js's answer for each.
PROBE = """
globalThis.window = { RAG: {} };
require(process.argv[1]);
const dot = (id, x, y, size = 8) => ({ id, getBoundingClientRect: () => ({ x, y, width: size, height: size }) });
const dots = [dot("a", 0, 0), dot("b", 30, 0), dot("c", 100, 100)];
const tap = (clientX, clientY, reach) => { const hit = window.RAG.kit.nearestDot(dots, { clientX, clientY }, reach); return hit ? hit.id : null; };
console.log(JSON.stringify([tap(4, 4), tap(20, 4), tap(17, 4), tap(60, 60), tap(104, 126), tap(104, 127), tap(70, 104), tap(70, 104, 40)]));
"""


def test_a_tap_names_the_nearest_dot_within_a_fingers_width_and_none_further():
    result = subprocess.run(["node", "-e", PROBE, str(KIT)], capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    # On a's middle; nearer b's middle (34, 4) than a's (4, 4); nearer a's; 62 px from c: nothing;
    # 22 px under c's middle (104, 104): c; 23 px: nothing; 34 px left of it: nothing, unless
    # the reach is 40 px.
    assert json.loads(result.stdout) == ["a", "b", "a", None, "c", None, None, "c"]
