"""Debian's Chromium as the tests and `make bench` launch it: where it is, and its switches.

Playwright starts it headless with `executable_path` (never a browser of its own). The switches
keep it off the network (this workplace has none but its package mirrors) and skip work no test
needs. Each new browser context is a new window, and Chromium 156 loads the address bar's
suggestion popup into every window as a page of its own (chrome://omnibox-popup.top-chrome, about
200 scripts): 0.8 CPU-seconds a context on this machine, measured with a trace of an idle
about:blank. The two features below switch that off; the pages under test never see it.

Under `make test`, Chromium may still be installing (apt, when it is missing) as the first tests
run: make names the stamp it touches once it is in (CHROMIUM_INSTALLED_STAMP) and
chromium_path waits for it, or for the stamp's ".failed" beside it.

Example: subprocess.run([chromium_path(), "--version"])
"""

import os
import shutil
import time
from pathlib import Path

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]


INSTALLED_STAMP = "CHROMIUM_INSTALLED_STAMP"
INSTALL_WAIT_S = 1200


def chromium_path() -> str:
    """Debian's chromium; under `make test`, once make's install of it is over (a binary already
    there may be one apt has unpacked and not yet configured)."""
    stamp = os.environ.get(INSTALLED_STAMP)
    if stamp:
        end = time.monotonic() + INSTALL_WAIT_S
        while not (Path(stamp).exists() or Path(stamp + ".failed").exists()) and time.monotonic() < end:
            time.sleep(1)
    return shutil.which("chromium") or "/usr/bin/chromium"
