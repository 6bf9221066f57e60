"""Every fitted constant of the zHyperLink chapter, and the read path the sliders move.

The text prints percentages only, so each model has as many unknowns as published points, or
more: the latencies it cannot determine are *assumptions* (:data:`ASSUMED`, sliders), and what is
solved from the printed numbers is solved here, once, from ``data/zhyperlink``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from typing import Mapping

import numpy as np

from .. import fitting
from ..lru import lru_miss_ratio
from . import model
from . import published as pub

ASSUMED = model.ReadPath()  # hit ratio 0.95 (the text), miss 1.5 ms, zHyperLink 20 us, try 10 us
POOLS_GB = {"db_read_10gb_pool": 10.0, "db_read_70gb_pool": 70.0}  # total buffer pool size of each read run


@lru_cache(maxsize=None)
def read_calibration(t_miss_us: float = ASSUMED.t_miss_us, hit_ratio: float = ASSUMED.hit_ratio):
    """(time outside reads in us, zHPF cache-hit read in us) through the two elapsed-time points."""
    path = replace(ASSUMED, t_miss_us=t_miss_us, hit_ratio=hit_ratio)
    n1 = pub.value("db_read_10gb_pool", "random_reads_per_tx_count")
    n2 = pub.value("db_read_70gb_pool", "random_reads_per_tx_count")
    r1 = -pub.value("db_read_10gb_pool", "elapsed_change_pct") / 100
    r2 = -pub.value("db_read_70gb_pool", "elapsed_change_pct") / 100
    return model.fit_read_model(n1, r1, n2, r2, path)


def calibrated_path() -> model.ReadPath:
    """The assumed read path with the zHPF cache-hit read time fitted (us)."""
    other, t_hit = read_calibration()
    return replace(ASSUMED, t_hit_us=t_hit)


@dataclass(frozen=True)
class Scenario(model.ReadPath):
    """Every slider of the chapter: the read path (a Scenario is a :class:`model.ReadPath`), and the
    CPU, options, latency and memory figures' own settings (defaults: the measured or argued values)."""

    reads: float = 28.0  # random reads per transaction (the 10 GB pool run)
    break_even_speed: float = 0.6  # processor speed (x the z14) where spinning costs what a task switch does
    background_factor: float = 1.5  # task-switch cost with background work, x clean
    database_cut: float = 25.9  # the DATABASE option's elapsed-time cut (%), as measured
    latch_share: float = 0.29  # latch wait share of commit latency
    skew: float = 0.7  # popularity skew of the pages read


def scenario(values: Mapping[str, float]) -> Scenario:
    """The scenario at the sliders' values: :func:`calibrated_path` with the fields they name replaced;
    any other name is a ValueError."""
    return fitting.scenario(Scenario(**asdict(calibrated_path())), values)


def log_share() -> float:
    """Share of commit latency that is log wait, from -54% log wait giving -24% latency."""
    return pub.value("log_write", "latency_change_pct") / pub.value("log_write", "log_wait_change_pct")


def latch_cut_per_wait_cut() -> float:
    """How far the latch wait falls per unit of log-wait cut with index splits: 41/63 (printed)."""
    return pub.value("log_write_index_split", "latch_time_change_pct") / pub.value(
        "log_write_index_split", "log_wait_change_pct")


def cpu_shares(break_even_speed: float) -> tuple[float, float]:
    """(spin, switch) CPU shares per read that give +13.8% at 28 reads on the z14 and break even
    at ``break_even_speed`` (x the z14)."""
    n = pub.value("db_read_10gb_pool", "random_reads_per_tx_count")
    change = pub.value("cpu_clean_lpar_10gb_pool", "cpu_change_pct") / 100
    spin = change / n / (1 - break_even_speed)
    return spin, spin * break_even_speed


@lru_cache(maxsize=None)
def reads_fit(skew: float) -> tuple[float, float]:
    """(amplitude in reads per transaction, re-referenced data in GB) of the LRU miss curve through
    the two read runs (28 reads at 10 GB, 7.5 at 70 GB) for a popularity ``skew``.

    The same miss-curve shape as the large-memory chapter (:mod:`widgets.lru`); solved once per skew.
    """
    from scipy.optimize import brentq

    (gb1, gb2) = POOLS_GB.values()
    n1, n2 = (pub.value(run, "random_reads_per_tx_count") for run in POOLS_GB)

    def ratio_gap(ws):
        return lru_miss_ratio(gb2 / ws, skew) / lru_miss_ratio(gb1 / ws, skew) - n2 / n1

    ws = brentq(ratio_gap, gb2 + 0.5, 1e6)
    return n1 / float(lru_miss_ratio(gb1 / ws, skew)), ws


def reads_per_transaction(pool_gb, skew: float) -> np.ndarray:
    """Random reads per transaction against total pool size (GB), through both read runs."""
    amplitude, ws = reads_fit(skew)
    return amplitude * lru_miss_ratio(np.asarray(pool_gb, dtype=float) / ws, skew)
