"""Every jump inside the page lands on a phone (390 px, touch, reduced motion, the CPU four times
slower): the same scenario as tests/page/test_navigation.py's wide screen, in a file of its own
so the two runs go to the two test workers."""

import pytest

from support.navigation import every_jump_lands

pytestmark = [pytest.mark.browser, pytest.mark.timing]


def test_every_jump_lands_within_300ms_and_stays_on_a_phone(make_page, site_url):
    every_jump_lands(make_page, site_url, 390, "reduced")
