"""Fitting helpers shared by every study's ``calibration.py`` (pure numpy, no plotting).

* :func:`relative_linear_least_squares`: a model linear in its coefficients (a design matrix), fitted on
  relative residuals in closed form (numpy);
* :func:`relative_nonlinear_least_squares`: any model ``f(x, *params)`` with bounds, fitted on relative
  residuals iteratively (scipy);
* :func:`through_origin`: the slope of a line through the origin, by ordinary least squares;
* :func:`rms`: root-mean-square of relative errors; :func:`band`: the tolerance band a fit argues;
* :func:`scenario`: a calibrated default with the fields a set of slider values names replaced.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Callable, Iterable, Mapping, TypeVar

import numpy as np

T = TypeVar("T")


def relative_linear_least_squares(x, y) -> np.ndarray:
    """Coefficients c minimising sum((X c / y - 1)^2): least squares on relative residuals.

    ``x`` is the design (one row per point, one column per coefficient, or a vector for one
    coefficient); ``y`` the published values, in any unit (the coefficients come out in the units
    that make ``X c`` that unit).
    """
    x = np.atleast_2d(np.asarray(x, dtype=float).T).T
    y = np.asarray(y, dtype=float)
    coef, *_ = np.linalg.lstsq(x / y[:, None], np.ones_like(y), rcond=None)
    return coef


def through_origin(x, y) -> float:
    """Slope ``c`` of y = c x by ordinary least squares: minimises sum((c x - y)^2), so each point's
    error counts in the unit of ``y`` (use :func:`relative_linear_least_squares` to weigh each as a share of
    its own value). The slope is in units of ``y`` per unit of ``x`` (percent busy per DS/s, say)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.size == 0:
        raise ValueError(f"through_origin: x and y must be non-empty and of one shape, got {x.shape} and {y.shape}")
    denominator = float((x * x).sum())
    if denominator == 0:
        raise ValueError("through_origin: every x is 0, so no line through the origin is defined")
    return float((x * y).sum() / denominator)


def rms(errors) -> float:
    """Root-mean-square of relative errors (fractions in, a fraction out)."""
    e = np.asarray(errors, dtype=float)
    return float(np.sqrt(np.mean(e ** 2)))


def band(fit_rms: float) -> float:
    """Twice the RMS relative residual, rounded up to two significant digits (a fraction)."""
    x = 2.0 * fit_rms
    if x <= 0:
        return 1e-9
    scale = 10 ** (math.floor(math.log10(x)) - 1)
    return math.ceil(x / scale - 1e-9) * scale


def known_names(values: Mapping[str, float], names: Iterable[str], owner: str) -> None:
    """A ValueError naming ``owner`` and the valid ``names`` when ``values`` names anything else: a slider
    name is never silently ignored."""
    names = set(names)
    unknown = sorted(set(values) - names)
    if unknown:
        raise ValueError(f"{owner}: no field named {', '.join(map(repr, unknown))}; "
                         f"the fields are {', '.join(sorted(names))}")


def scenario(default: T, values: Mapping[str, float]) -> T:
    """``default`` (a dataclass: the calibrated scenario) with the fields that ``values`` names replaced;
    a name that is not a field is an error naming the valid fields (:func:`known_names`)."""
    known_names(values, (f.name for f in dataclasses.fields(default)), type(default).__name__)
    return dataclasses.replace(default, **values)


def relative_nonlinear_least_squares(f: Callable[..., np.ndarray], x: np.ndarray, y: np.ndarray, start, bounds):
    """Parameters of ``f(x, *params)`` that minimise sum((f(x) / y - 1)^2): each point's error as a
    share of its own value. ``bounds`` = (lower, upper) sequences. Returns a tuple of floats."""
    from scipy.optimize import least_squares  # imported here: only a fit needs scipy

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if np.any(y == 0):
        raise ValueError("relative least squares: a published value of 0 has no relative error")
    res = least_squares(lambda q: f(x, *q) / y - 1, start, bounds=bounds, x_scale="jac")
    return tuple(float(v) for v in res.x)
