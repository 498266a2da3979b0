"""Every jump inside the page lands, as a reader gets it: far sections are left skipped
(content-visibility), as they are on a first visit; nothing here lays them out in advance.

A jump is a click on the table of contents (in a shuffled order), on a glossary term (a second
tap on a phone: the first one opens its definition), on a cross-reference, Back, Forward, or a
hash set by a script. Each is watched every frame from the click (or the popstate) until the
page's late work is over (support/navigation.py, WATCHER_JS: sections drawn, labs reached and
started, their scripts loaded, every timer the page set; quiet for 500 ms, and 800 ms at least):
a frame must have been painted by 300 ms, and from then on (the frame on the screen at 300 ms,
and every later one) the target's top must be within 120 px of the top of the screen, and must
not move. (A fixed 3.3 s watch saw no work of the page after that point in 84 jumps.) That holds at 1280 px with motion allowed and at 390 px (touch) with reduced motion,
with the CPU four times slower (the page never animates a jump, whatever the preference). Back
must put back what was on the screen before the link was followed, where it was.

A wrong frame fails at once. A first frame later than 300 ms, with every frame right, starts the
reading again on a fresh page, up to three runs, and the best run is judged: the other test
worker's load only ever adds time (support/navigation.py, on_fresh_pages).

Particular cases (a link into a closed <details>, a reload, the contents without JavaScript, a
page growing above a landed target) are in tests/page/test_navigation_cases.py.
The measurements are written to test-artifacts/navigation-<width>-<motion>.json. The phone's run is in
tests/page/test_navigation_phone.py, so the two runs go to the two test workers; the scenario
and the reader are in tests/support/navigation.py.
"""

import pytest

from support.navigation import every_jump_lands

pytestmark = [pytest.mark.browser, pytest.mark.timing]


def test_every_jump_lands_within_300ms_and_stays_on_a_wide_screen(make_page, site_url):
    """The phone's run is tests/page/test_navigation_phone.py, so the two run side by side."""
    every_jump_lands(make_page, site_url, 1280, "smooth")
