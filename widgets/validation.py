"""Input checks shared by every model function.

Each check raises :class:`ValueError` whose message names the parameter, the offending value
and the valid range, so that a student who passes ``pool_gb=-5`` learns exactly what is wrong.
Nothing is ever clamped silently.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np


def _describe(value: Any) -> str:
    arr = np.asarray(value)
    if arr.ndim == 0:
        return repr(arr.item()) if arr.dtype.kind in "biuf" else repr(value)
    return f"array of shape {arr.shape}"


def as_float_array(name: str, value: Any) -> np.ndarray:
    """Convert ``value`` to a float array, or raise naming ``name``."""
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be a number or an array of numbers, got the string {value!r}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a number or an array of numbers, got {value!r}") from exc
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    return arr


def in_range(
    name: str,
    value: Any,
    low: float = -math.inf,
    high: float = math.inf,
    *,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    unit: str = "",
) -> np.ndarray:
    """Return ``value`` as a float array after checking it is finite and inside the range.

    The range is ``[low, high]`` (or open at either end). Raises ``ValueError`` naming the
    parameter, the first bad value and the valid range.
    """
    arr = as_float_array(name, value)
    bad_nan = ~np.isfinite(arr)
    too_low = arr < low if low_inclusive else arr <= low
    too_high = arr > high if high_inclusive else arr >= high
    bad = bad_nan | too_low | too_high
    if np.any(bad):
        first = arr[bad].flat[0] if arr.ndim else arr.item()
        left = "[" if low_inclusive and low != -math.inf else "("
        right = "]" if high_inclusive and high != math.inf else ")"
        lo = "-inf" if low == -math.inf else f"{low:g}"
        hi = "inf" if high == math.inf else f"{high:g}"
        unit_txt = f" {unit}" if unit else ""
        what = "is not a finite number" if not np.isfinite(first) else "is out of range"
        shown = _describe(value) if arr.ndim == 0 else f"{float(first):g} (in {_describe(value)})"
        raise ValueError(
            f"{name}={shown} {what}; "
            f"valid range is {left}{lo}, {hi}{right}{unit_txt}"
        )
    return arr


def positive(name: str, value: Any, unit: str = "") -> np.ndarray:
    """A strictly positive, finite quantity (sizes, rates, times)."""
    return in_range(name, value, 0.0, math.inf, low_inclusive=False, unit=unit)


def non_negative(name: str, value: Any, unit: str = "") -> np.ndarray:
    """A finite quantity that may be zero (counts, costs)."""
    return in_range(name, value, 0.0, math.inf, unit=unit)


def ratio(name: str, value: Any) -> np.ndarray:
    """A fraction in [0, 1] (hit ratios, GBP-dependent share)."""
    return in_range(name, value, 0.0, 1.0)


def open_unit(name: str, value: Any) -> np.ndarray:
    """A fraction strictly inside (0, 1) (Zipf skew of the continuous popularity model)."""
    return in_range(name, value, 0.0, 1.0, low_inclusive=False, high_inclusive=False)


def same_shape(**arrays: np.ndarray) -> tuple[int, ...]:
    """Check that the non-scalar arrays broadcast to one shape; return that shape."""
    shapes = {k: np.shape(v) for k, v in arrays.items()}
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError as exc:
        listed = ", ".join(f"{k} {s}" for k, s in shapes.items())
        raise ValueError(f"array shapes do not match: {listed}") from exc
