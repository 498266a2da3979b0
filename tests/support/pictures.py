"""Screenshots of one picture of a lab at both widths and in both themes, taken on one page
(the viewport and the colour scheme changed in place, so a module loads the page once), saved
with the page's other screenshots (test-artifacts/screenshots/)."""

from pathlib import Path

from support.browser import VIEWPORTS, element_screenshot

SCHEMES = ("light", "dark")


def shoot_everywhere(page, selector: str, name: str, before=None) -> list[Path]:
    """<name>-<device>-<scheme>.png for the phone (360 px) and the desktop (1280 px), light and
    dark; `before(page)` runs after each change of size (a lab that lays out again). Each shot
    must hold a drawing (more than 5 KB) and nothing of the page may stick out sideways.

    Example: shoot_everywhere(page, "#lab-angles figure", "picture-angles") -> [..., picture-angles-phone-dark.png]
    """
    shots = []
    size = page.viewport_size
    try:
        for device, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                if before:
                    before(page)
                assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"], (device, scheme)
                shot = element_screenshot(page, selector, f"{name}-{device}-{scheme}")
                assert shot.stat().st_size > 5_000, shot
                shots.append(shot)
    finally:
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(size)
    return shots
