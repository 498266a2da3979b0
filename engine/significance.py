"""How much to trust a measured share: the Wilson interval of a proportion, and the exact
two-sided sign test of two retrievers compared question by question.

    wilson(hits, total)    where the true proportion plausibly lies, 95% by default (Wilson, 1927)
    sign_test(wins, losses)  how likely a split at least this lopsided is if the two are equally
                           good, counting only the questions where they disagree

Both round to 6 decimals, as the build keeps its figures.

Twin: site_src/engine/significance.js (wilson, signTest), proven equal by tests/twins/.

Example: [wilson(29, 30), sign_test(6, 1)] -> [(0.833296, 0.994091), 0.125]
"""

import math

Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson(hits: int, total: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: where the true recall plausibly lies
    when `hits` of `total` questions were found (Wilson, 1927). Nothing measured: anything.

    Example: wilson(0, 0) -> (0.0, 1.0)
    """
    if total == 0:
        return 0.0, 1.0
    p = hits / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: how likely a split at least this lopsided is when two
    retrievers are equally good and only the questions where they disagree count. The sum of
    binomial coefficients is an exact integer, divided once (correctly rounded), so it holds
    for any n. Six wins to one: 2 * (C(7, 0) + C(7, 1)) / 2**7.

    Example: sign_test(6, 1) -> 0.125
    """
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2 ** n
    return round(min(1.0, 2 * tail), 6)
