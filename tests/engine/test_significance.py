"""engine/significance.py at its edges: nothing measured, all found, none found, and a sign test
over thousands of questions, exact where floats summed term by term would drift."""

from fractions import Fraction
from math import comb

from engine.significance import sign_test, wilson


def test_the_interval_of_nothing_measured_is_everything_and_stays_within_0_and_1():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(30, 30)
    assert high == 1.0 and 0 < low < 1
    low, high = wilson(0, 30)
    assert low == 0.0 and 0 < high < 1


def test_the_sign_test_is_exact_for_2000_questions():
    # 900 wins to 1,100 losses: both tails of Binomial(2000, 1/2) at least this lopsided, as a
    # fraction first and rounded once at the end.
    tail = Fraction(sum(comb(2000, i) for i in range(901)), 2**2000)
    assert sign_test(900, 1100) == round(float(2 * tail), 6) == 8e-06
    assert sign_test(1000, 1000) == 1.0            # an even split, capped at 1
    assert sign_test(0, 2000) == 0.0               # 2 / 2**2000, far below a millionth
