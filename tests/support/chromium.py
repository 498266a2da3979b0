"""Debian's Chromium as the tests and `make bench` launch it: where it is, and its switches.

Playwright starts it headless with `executable_path` (never a browser of its own). The switches
keep it off the network (this workplace has none but its package mirrors) and skip work no test
needs. Each new browser context is a new window, and Chromium 156 loads the address bar's
suggestion popup into every window as a page of its own (chrome://omnibox-popup.top-chrome, about
200 scripts): 0.8 CPU-seconds a context on this machine, measured with a trace of an idle
about:blank. The two features below switch that off; the pages under test never see it.

Example: subprocess.run([chromium_path(), "--version"])
"""

import shutil

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]


def chromium_path() -> str:
    return shutil.which("chromium") or "/usr/bin/chromium"
