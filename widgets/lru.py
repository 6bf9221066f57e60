"""Shared models: the LRU miss curve of a power-law ("Zipf-like") popularity, by Che's approximation.

Several studies use it (the large-memory chain, the hit-ratio chapter's independent-reference
curve, zHyperLink's pool sizes), so it lives here, in the shared layer of the package: a study
imports this module, never another study. Che's approximation (Che, Tung, Wang 2002; Fricker,
Robert, Roberts 2012): solve sum_i (1 - exp(-q_i T)) = C for T, then H = sum_i q_i (1 - exp(-q_i T)).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import validation as v

_U_EDGES = np.concatenate([[0.0], np.logspace(-14, 0, 701)])  # fractions of the catalogue
_U_MID = np.sqrt(_U_EDGES[1:] * np.maximum(_U_EDGES[:-1], 1e-16))
_U_WIDTH = np.diff(_U_EDGES)
_T_GRID = np.logspace(-6, 7, 1400)  # Che's characteristic time, in units of the mean inter-request time


@lru_cache(maxsize=256)
def che_curve(skew: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Che's approximation tabulated over the characteristic time T, for one skew.

    Returns ``(T, occupancy, miss)``: T in units of "catalogue-size" requests (T = 1 is as
    many requests as the catalogue has pages), the fraction of the catalogue an LRU cache with
    that characteristic time holds, and the request-weighted miss ratio. Only the points where
    both are strictly inside (0, 1) are kept, so their logs are finite.
    """
    s = float(v.open_unit("skew", skew))
    rate = (1.0 - s) * _U_MID ** (-s)  # request rate density; integrates to 1
    decay = np.exp(-np.outer(_T_GRID, rate))  # P(page not requested within T)
    occupancy = (_U_WIDTH * (1.0 - decay)).sum(axis=1)  # fraction of the catalogue in cache
    # request-weighted probability of a miss, normalised by the discretised total request rate
    miss = (_U_WIDTH * rate * decay).sum(axis=1) / (_U_WIDTH * rate).sum()
    keep = (occupancy > 1e-12) & (occupancy < 1 - 1e-9) & (miss > 0)
    return _T_GRID[keep], occupancy[keep], miss[keep]


def _che_table(skew: float) -> tuple[np.ndarray, np.ndarray]:
    """(log occupancy, log miss ratio) over Che's characteristic time, for one skew."""
    _, occupancy, miss = che_curve(skew)
    return np.log(occupancy), np.log(miss)


def lru_miss_ratio(cache_fraction, skew: float) -> np.ndarray:
    """Miss ratio of an LRU cache holding ``cache_fraction`` of a catalogue (dimensionless).

    Independent references with popularity density q(u) = (1-skew) u**(-skew) over the
    catalogue fraction u in (0, 1]; Che's approximation: find T with
    integral (1 - exp(-q T)) du = cache_fraction, then miss = integral q exp(-q T) du.
    A cache at least as large as the catalogue never misses (returns 0).
    """
    c = v.non_negative("cache_fraction", cache_fraction)
    s = float(v.open_unit("skew", skew))
    log_c, log_m = _che_table(round(s, 6))
    with np.errstate(divide="ignore"):
        lc = np.log(np.clip(c, 1e-300, None))
    miss = np.exp(np.interp(lc, log_c, log_m, left=0.0, right=-np.inf))
    miss = np.where(c <= np.exp(log_c[0]), 1.0 - c * (1 - np.exp(log_m[0])) / np.exp(log_c[0]), miss)
    return np.where(c >= 1.0, 0.0, miss)
