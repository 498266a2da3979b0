"""Numbers in prose carry three significant digits (builder/page/facts.py `significant`, the
prose's `sig` filter): decimals are cut to the digits the point needs, whole-number digits never."""

import pytest

from builder.page.facts import significant


@pytest.mark.parametrize("value, digits, shown", [
    (0.031319, 3, "0.0313"),    # an RRF score: six decimals in the data, three digits in prose
    (0.6449, 3, "0.645"),
    (3.1048, 3, "3.10"),        # a trailing zero is a digit the reader is told
    (48.25, 3, "48.2"),         # ties to even, as Python's format does
    (1234.5, 3, "1,234"),       # a count keeps its whole digits
    (-0.0051234, 2, "-0.0051"),
    (0.03126, 4, "0.03126"),    # where the point is the fourth digit, ask for four
    (0, 3, "0"),
])
def test_significant_digits(value, digits, shown):
    assert significant(value, digits) == shown


def test_no_digits_is_an_error_that_says_so():
    with pytest.raises(ValueError, match="digits=0"):
        significant(0.5, 0)
