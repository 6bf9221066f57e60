"""The shared fitting helpers of ``widgets/fitting.py`` that the studies' calibrations call."""
from __future__ import annotations

import numpy as np
import pytest

from widgets import fitting


def test_through_origin_is_the_least_squares_slope_in_the_unit_of_y():
    x = np.array([100.0, 500.0, 1000.0])  # DS/s
    y = np.array([1.0, 6.0, 9.0])  # % busy
    c = fitting.through_origin(x, y)
    assert c == pytest.approx((100 + 3000 + 9000) / (1e4 + 25e4 + 1e6))
    # no other slope has a smaller sum of squared errors (in points of y)
    sse = lambda k: float(((k * x - y) ** 2).sum())  # noqa: E731
    assert sse(c) < min(sse(c * 1.01), sse(c * 0.99))
    # the relative fit weighs the small point more, and so gives another slope
    assert fitting.relative_linear_least_squares(x, y)[0] != pytest.approx(c, rel=1e-3)


def test_through_origin_refuses_what_has_no_slope():
    with pytest.raises(ValueError, match="one shape"):
        fitting.through_origin([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="every x is 0"):
        fitting.through_origin([0.0, 0.0], [1.0, 2.0])


def test_relative_linear_least_squares_with_one_coefficient_is_the_constant_ratio():
    """y = k x with each point's error a share of its own y: k = sum(x/y) / sum((x/y)^2)."""
    x, y = np.array([2.0, 4.0, 10.0]), np.array([1.1, 1.9, 5.2])
    r = x / y
    assert fitting.relative_linear_least_squares(x, y)[0] == pytest.approx(r.sum() / (r * r).sum())
