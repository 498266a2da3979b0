"""engine/projection.py: a vector projected onto a plane, a place found from neighbours, and the
fitted plane's axes and their shares of the variance, on cases worked out by hand."""

import numpy as np
import pytest

from engine.projection import by_neighbours, principal_axes, project


def test_a_vector_is_projected_as_each_axis_dotted_with_its_offset_from_the_mean():
    # (1, 2) - (0, 0) along (0.6, 0.8): 0.6 + 1.6; along (-0.8, 0.6): -0.8 + 1.2.
    assert project([1.0, 2.0], [0.0, 0.0], [[0.6, 0.8], [-0.8, 0.6]]) == pytest.approx((2.2, 0.4))
    assert project([3.0, 1.0], [1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]]) == (2.0, 0.0)


def test_a_place_from_neighbours_weighs_each_by_its_cosine_and_none_below_zero():
    places = {"a": [0.0, 0.0], "b": [30.0, 0.0], "c": [0.0, 60.0]}
    assert by_neighbours([["a", 0.5], ["b", 0.25]], places) == (10.0, 0.0)          # (0.5 * 0 + 0.25 * 30) / 0.75
    assert by_neighbours([["a", 0.6], ["c", -0.2]], places) == (0.0, 0.0)
    assert by_neighbours([["b", -0.1], ["c", 0.0]], places) == (15.0, 30.0)         # no positive cosine: equal weights


def test_the_plane_of_a_flat_cloud_keeps_all_its_variance_and_each_axis_is_signed_by_its_largest_part():
    points = np.array([[0.0, 0.0, 1.0], [4.0, 0.0, 1.0], [0.0, -2.0, 1.0], [4.0, -2.0, 1.0]])
    mean, axes, share = principal_axes(points)
    assert mean.tolist() == [2.0, -1.0, 1.0]
    assert axes == pytest.approx(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), abs=1e-12)
    assert share.tolist() == pytest.approx([0.8, 0.2])                               # variances 4 and 1 (spreads of 4 and 2)
