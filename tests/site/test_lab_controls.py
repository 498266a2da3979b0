"""The labs' controls leave index.html for assets/controls.js (builder/page/lab_controls.py):
each template stays, empty and numbered within its lab, and the file holds what it held."""

import pytest

from builder.page.errors import ProseError
from builder.page.lab_controls import take_out, take_out_of

PAGE = ('<section class="lab" data-lab="a"><div class="lab-bar"><template data-lab-controls><input name="k"></template>'
        '</div><template data-lab-controls><select name="q"></select></template></section>'
        '<section class="lab lab-wide" data-lab="b"><template data-controls="hybrid"><input name="depth"></template>'
        '<template data-lab-controls><button>Reset</button></template></section>')


def test_each_template_is_emptied_in_place_and_its_markup_kept_in_page_order():
    html, controls = take_out(PAGE)
    assert controls == {"a": ['<input name="k">', '<select name="q"></select>'], "b/hybrid": ['<input name="depth">'],
                        "b": ["<button>Reset</button>"]}
    assert html == ('<section class="lab" data-lab="a"><div class="lab-bar"><template data-lab-controls="0"></template>'
                    '</div><template data-lab-controls="1"></template></section>'
                    '<section class="lab lab-wide" data-lab="b"><template data-controls="hybrid" data-lab-controls="0">'
                    '</template><template data-lab-controls="0"></template></section>')


def test_the_sections_of_the_page_are_read_in_order():
    first, second = PAGE.split('<section class="lab lab-wide"')
    bodies, controls = take_out_of([first, '<section class="lab lab-wide"' + second])
    assert bodies == list(take_out(first)[0:1]) + [take_out('<section class="lab lab-wide"' + second)[0]]
    assert controls == take_out(PAGE)[1]


def test_a_template_outside_any_lab_stops_the_build_naming_its_line():
    with pytest.raises(ProseError, match=r"^index\.html:2: a <template data-lab-controls> outside any lab"):
        take_out("<p>prose</p>\n<template data-lab-controls><input></template>")
