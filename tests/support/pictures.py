"""Screenshots of one picture of a lab at both widths and in both themes, taken on one page
(the viewport and the colour scheme changed in place, so a module loads the page once), saved
with the page's other screenshots (test-artifacts/screenshots/)."""

from pathlib import Path

from support.browser import VIEWPORTS
from support.paths import SCREENSHOTS

SCHEMES = ("light", "dark")
HEADER = 90  # px kept free above the picture for the page's sticky bars


def shoot_everywhere(page, selector: str, name: str, check=None) -> list[Path]:
    """<name>-<device>-<scheme>.png for the phone (360 px) and the desktop (1280 px), light and
    dark. One resize per width (taller if the element needs it: Chromium's shots of an element
    taller than the viewport time out on this long page), then `check(page, device)`; each shot
    must hold a drawing (more than 5 KB) and nothing of the page may stick out sideways.

    Example: shoot_everywhere(page, "#lab-angles figure", "picture-angles") -> [..., picture-angles-phone-dark.png]
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = []
    size = page.viewport_size
    element = page.locator(selector).first
    try:
        for turn, (device, viewport) in enumerate(VIEWPORTS.items()):
            page.set_viewport_size(viewport)
            tall = element.evaluate("el => Math.ceil(el.getBoundingClientRect().height)")
            if tall + HEADER + 20 > viewport["height"]:
                page.set_viewport_size({"width": viewport["width"], "height": tall + HEADER + 20})
            # Below the page's sticky bars (a phone's contents bar would cover the picture's top).
            element.evaluate(f"el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - {HEADER})")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"], device
            if check:
                check(page, device)
            # light, dark, then dark, light: one change of scheme fewer (each restyles the whole page)
            for scheme in SCHEMES[::-1] if turn % 2 else SCHEMES:
                page.emulate_media(color_scheme=scheme)
                shot = SCREENSHOTS / f"{name}-{device}-{scheme}.png"
                element.screenshot(path=str(shot))
                assert shot.stat().st_size > 5_000, shot
                shots.append(shot)
    finally:
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(size)
    return shots
