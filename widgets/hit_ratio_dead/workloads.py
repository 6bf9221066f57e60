"""Workloads for the Buffer Pool Tool, and the tables the chapter and dashboard show from it.

The preset is a miniature of the deck's BP2 (2002-03-28): two heavily scanned tables (BSIS and
COSP, which "monopolise" the pool) sharing one pool with random objects. Sizes are scaled down
about 10x so a simulation takes a fraction of a second; the shapes, not the sizes, carry over.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from . import simulator as sim
from .stack_distance import miss_ratio_curve

#: The deck's BP2, scaled: pages, access, getpages per s, skew, working set, pages per scan.
PRESET = (
    sim.ObjectSpec("BSIS", 60_000, "sequential", 300.0, working_set_pages=42_000, scan_pages=2_000),
    sim.ObjectSpec("COSP", 40_000, "sequential", 100.0, working_set_pages=31_000, scan_pages=500),
    sim.ObjectSpec("ORDERIX", 20_000, "random", 400.0, skew=0.9),
    sim.ObjectSpec("CUST", 50_000, "random", 200.0, skew=0.7),
    sim.ObjectSpec("LOOKUP", 500, "random", 100.0, skew=0.5),
)
#: Pool per object when the objects are grouped by access type.
BY_ACCESS = {spec.name: ("BPSEQ" if spec.access == "sequential" else "BPRAND") for spec in PRESET}
SECONDS = 200.0  # of simulated time: 220,000 getpages for the preset


def looping_workload(loop_pages: int = 4_000, random_pages: int = 20_000) -> tuple[sim.ObjectSpec, ...]:
    """A looping scan over ``loop_pages`` pages beside a skewed random object (the threshold case)."""
    return (sim.ObjectSpec("LOOP", loop_pages, "sequential", 300.0),
            sim.ObjectSpec("RANDOM", random_pages, "random", 100.0, skew=0.8))


def stats_row(name: str, stats: sim.PoolStats, buffers: int | None = None) -> dict:
    """One table row: counts, the two hit ratios (%) and the I/O rate (per s)."""
    return {"pool or object": name, "buffers": buffers, "getpages": stats.getpages, "sync I/Os": stats.sync_ios,
            "prefetch I/Os": stats.prefetch_ios, "pages read": stats.pages_read,
            "application hit ratio (%)": 100 * stats.application_hit_ratio,
            "system hit ratio (%)": 100 * stats.system_hit_ratio, "I/O per s": stats.io_per_s}


def compare_layouts(trace: sim.Trace, assignment: Mapping[str, str], sizes: Mapping[str, int],
                    vpseqt_pct: float = 80.0) -> pd.DataFrame:
    """Pools split as ``assignment``/``sizes`` against one pool of the same total size.

    Rows: each split pool, their sum, and the one big pool; then the objects of each layout.
    """
    split = sim.split_pools(trace, assignment, sizes, vpseqt_pct)
    total = int(sum(sizes.values()))
    big = sim.simulate(trace, total, vpseqt_pct)
    rows = [dict(stats_row(name, r.total, r.pool_pages), layout="split") for name, r in split.items()]
    rows.append(dict(stats_row("all split pools", sim.combined(split), total), layout="split"))
    rows.append(dict(stats_row("one big pool", big.total, total), layout="one pool"))
    for name, r in split.items():
        rows += [dict(stats_row(obj, s), layout=f"split: {name}") for obj, s in r.objects.items()]
    rows += [dict(stats_row(obj, s), layout="one pool") for obj, s in big.objects.items()]
    return pd.DataFrame(rows)


def size_sweep(trace: sim.Trace, sizes: Sequence[int], vpseqt_pct: float = 80.0) -> pd.DataFrame:
    """One pool at each size: hit ratios (%) and I/O rate (per s), the what-if curve."""
    return pd.DataFrame([stats_row("pool", r.total, r.pool_pages) for r in sim.sweep(trace, sizes, vpseqt_pct)])


def lru_curve(trace: sim.Trace, sizes: Sequence[int]) -> pd.DataFrame:
    """Pure LRU (no prefetch) hit ratio (%) at every size, from one Mattson pass over the trace."""
    sizes = np.asarray(sizes, dtype=np.int64)
    miss = miss_ratio_curve(trace.keys, sizes)
    return pd.DataFrame({"buffers": sizes, "LRU hit ratio (%)": 100 * (1 - miss)})
