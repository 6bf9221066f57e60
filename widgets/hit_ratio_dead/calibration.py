"""Every fitted constant of the hit-ratio chapter, and the stack distances the sliders move.

The deck gives one model-worthy data set, the IMS subpool simulation: five pool sizes, their
hit ratios and read rates. The stack-distance model is fitted to its hit ratios here (two numbers
through three points above the threshold); the best independent-reference (Zipf) curve is fitted
to the same points, to show what it cannot do. The bridge to the large-memory chapter is anchored
on that study's smallest run, read through the same citation interface as every table.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Mapping

import numpy as np

from .. import fitting
from . import model
from . import published as pub

#: The data put the loop's working set between the 370- and 450-buffer runs; the chapter's
#: default is the middle of that bracket (any value inside fits identically).
THRESHOLD_BRACKET = (370.0, 450.0)
THRESHOLD_DEFAULT = sum(THRESHOLD_BRACKET) / 2


def ims_hit_ratio() -> tuple[np.ndarray, np.ndarray]:
    """(pool sizes in buffers, hit ratios as fractions) of the IMS simulation, from hits / get blocks.

    The unrounded ratio from the printed counts, rather than the one-decimal percentage.
    """
    t = pub.ims()
    return t["pool_buffers"].to_numpy(float), (t["hits"] / t["get_blocks"]).to_numpy(float)


@lru_cache(maxsize=None)
def threshold_fit(loop_pages: float = THRESHOLD_DEFAULT) -> model.StackDistances:
    """The stack-distance model fitted to the IMS hit ratios, for a given threshold."""
    pools, hits = ims_hit_ratio()
    return model.fit_stack_distances(pools, hits, loop_pages)


def get_block_rate() -> float:
    """Get blocks per second of the IMS workload, measured at the smallest pool (per s)."""
    t = pub.ims().iloc[0]
    return float(t["get_blocks"] / t["elapsed_s"])


@lru_cache(maxsize=None)
def zipf_fit() -> tuple[float, float, float]:
    """(catalogue pages, skew, worst error in points) of the best independent-reference curve.

    Least squares over a grid of catalogue sizes and skews, then refined; the worst error is
    what no choice of the two parameters can remove.
    """
    from scipy.optimize import least_squares

    pools, hits = ims_hit_ratio()

    def residual(p):
        return model.zipf_hit_ratio(pools, np.exp(p[0]), p[1]) - hits

    starts = [(np.log(n), s) for n in np.geomspace(400, 100_000, 12) for s in (0.1, 0.3, 0.5, 0.7, 0.9)]
    best = min((least_squares(residual, x0, bounds=([np.log(50), 0.01], [np.log(1e7), 0.99]))
                for x0 in starts), key=lambda r: r.cost)
    pages, skew = float(np.exp(best.x[0])), float(best.x[1])
    return pages, skew, float(100 * np.max(np.abs(residual(best.x))))


@dataclass(frozen=True)
class Scenario(model.StackDistances):
    """Every slider of the chapter: the fitted stack distances (a Scenario is a
    :class:`model.StackDistances`: the sliders move ``loop_pages`` and ``loop_share``, the spread width stays
    fitted) and the hit-ratio builder's, the scan's and the bridge's settings (defaults: the chapter's)."""

    sequential_share: float = 0.6  # share of getpages that are sequential (prefetched)
    random_miss: float = 0.3  # share of random getpages that miss
    pages_per_prefetch: float = 32.0  # pages one prefetch I/O reads (32: the most)
    scan_share: float = 0.5  # the scan's share of getpages
    random_ratio: float = 2.0  # pages the random objects touch, per pool buffer
    skew: float = 0.7  # popularity skew of the random pages
    getpage_rate: float = 400.0  # thousand getpages per s


def scenario(values: Mapping[str, float]) -> Scenario:
    """The fitted stack distances (:func:`threshold_fit`) with the fields the sliders name replaced; any
    other name is a ValueError."""
    return fitting.scenario(Scenario(**asdict(threshold_fit())), {k: float(v) for k, v in values.items()})


def anchor_getpage_rate() -> float:
    """Getpages per second that put the bridge's curve through the smallest large-memory run."""
    first = pub.large_memory_runs().iloc[0]
    return float(first["sync_reads_per_s"] / (1 - first["hit_ratio_pct"] / 100))
