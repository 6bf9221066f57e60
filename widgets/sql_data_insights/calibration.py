"""Fitting the SQL Data Insights cost models, and refitting them without one data set.

Every constant is fitted by least squares on *relative* residuals over a set of data sets (by
default the six views of Table 6-1, see :mod:`.fidelity`). :func:`coefficients` fits one
quantity on any named subset, :func:`value` evaluates the fitted form for one data set, and
:func:`held_out` is leave-one-out cross-validation: refit without a view, then predict it.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ..fitting import relative_lsq
from . import model
from . import published as pub

FIT_FAMILY = "Table 6-1"
#: Training costs: whether the model has a fixed part besides the per-word cost.
HAS_FIXED = {"elapsed_min": False, "sqldi_cpu_min": False, "db2_cpu_s": True}
QUANTITIES = ("text_mb", "zload_mb", *HAS_FIXED, "memory_mb", "zfs_mb")


def fit_names() -> tuple[str, ...]:
    """The data sets every constant is fitted on: the six views of Table 6-1."""
    return tuple(pub.family(FIT_FAMILY).index)


def _design(quantity: str, d: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) of one quantity's fit; the coefficients come out in the units :func:`value` takes."""
    words, vocab = d["words"].to_numpy(float), d["vocabulary"].to_numpy(float)
    if quantity == "text_mb":  # bytes per word
        return words[:, None], d["text_mb"].to_numpy(float) * model.MB
    if quantity == "zload_mb":  # bytes per vocabulary word
        return vocab[:, None], d["zload_mb"].to_numpy(float) * model.MB
    if quantity in HAS_FIXED:  # (fixed,) per million words
        w = words / 1e6
        x = np.c_[np.ones_like(w), w] if HAS_FIXED[quantity] else w[:, None]
        return x, d[quantity].to_numpy(float)
    if quantity == "memory_mb":  # fixed MB, MB per million words, MB per million vocabulary words
        return np.c_[np.ones_like(words), words / 1e6, vocab / 1e6], d["memory_mb"].to_numpy(float)
    if quantity == "zfs_mb":  # overhead on text + model file
        return (d["text_mb"] + d["zload_mb"]).to_numpy(float)[:, None], d["zfs_mb"].to_numpy(float)
    raise ValueError(f"quantity={quantity!r} has no fit; choose from {', '.join(QUANTITIES)}")


@lru_cache(maxsize=None)
def coefficients(quantity: str, names: tuple[str, ...]) -> tuple[float, ...]:
    """One quantity's constants fitted on the named data sets (ValueError on an unknown name)."""
    d = pub.datasets()
    unknown = [n for n in names if n not in d.index]
    if unknown:
        raise ValueError(f"names={unknown} are not data sets; choose from {', '.join(d.index)}")
    x, y = _design(quantity, d.loc[list(names)])
    return tuple(float(c) for c in relative_lsq(x, y))


def value(quantity: str, dataset: str, coef: tuple[float, ...]) -> float:
    """The fitted form of one quantity evaluated for one data set, from its printed inputs."""
    row = pub.datasets().loc[dataset]
    if quantity == "text_mb":
        return float(model.text_mb(row["words"], coef[0]))
    if quantity == "zload_mb":
        return float(model.model_mb(row["vocabulary"], coef[0]))
    if quantity in HAS_FIXED:
        fixed, per = coef if HAS_FIXED[quantity] else (0.0, coef[0])
        return float(model.linear_cost(row["words"], fixed, per))
    if quantity == "memory_mb":
        return float(model.peak_memory_mb(row["words"], row["vocabulary"], *coef))
    if quantity == "zfs_mb":
        return float(model.zfs_mb(row["text_mb"], row["zload_mb"], coef[0]))
    raise ValueError(f"quantity={quantity!r} has no fit; choose from {', '.join(QUANTITIES)}")


def held_out(dataset: str, quantity: str) -> float:
    """Leave-one-out: refit ``quantity`` on Table 6-1 without ``dataset``, and predict it."""
    names = fit_names()
    if dataset not in names:
        raise ValueError(f"dataset={dataset!r} is not one of the fitted views {', '.join(names)}")
    return value(quantity, dataset, coefficients(quantity, tuple(n for n in names if n != dataset)))


def heaps_held_out(dataset: str, fitted: tuple[str, ...]) -> float:
    """Leave-one-out for Heaps' law: V = K n^beta fitted on ``fitted`` without ``dataset``, then predicted."""
    if dataset not in fitted:
        raise ValueError(f"dataset={dataset!r} is not one of the fitted views {', '.join(fitted)}")
    d = pub.datasets()
    rest = [n for n in fitted if n != dataset]
    k, beta = model.heaps_fit(d.loc[rest, "rows"].to_numpy(float), d.loc[rest, "vocabulary"].to_numpy(float))
    # K n^beta directly: on three points the refit beta can exceed 1 (the vocabulary growing faster than the
    # rows), which model.heaps rejects as a slider value; the prediction is what the refit says.
    return float(k * float(d.loc[dataset, "rows"]) ** beta)
