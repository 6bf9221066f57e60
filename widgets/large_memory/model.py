"""Models of the large-memory study (Beane, Chan, Lekkas 2015): pure, vectorised numpy.

The chain, one small function per link:

    pool size (GB) --LRU miss curve--> sync reads per dialog step
                   --CPU per sync read--> CPU per dialog step --> ITR
                   --time per sync read--> DB request time --closed loop--> ETR

and, for 2-way data sharing, a second cache level: a local pool (LBP) per member in front of
the group buffer pool (GBP), which only holds pages of GBP-dependent objects.

Units: pool sizes in GB (2**30 bytes, as the study's tables use), times in seconds unless a
name says ``_ms`` or ``_us``, rates per second, "DS" = an SAP dialog step (the study's
transaction). Every public function validates its inputs (see :mod:`widgets.validation`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import validation as v
from ..lru import che_curve, lru_miss_ratio  # noqa: F401  (the chain's first link; shared)

# The LRU miss curve (Che's approximation) is shared with other studies: see :mod:`widgets.lru`.


# --- the workload and the machine ----------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """How SAP Day Posting re-references pages (calibrated in :mod:`.calibration`)."""

    getpages_per_ds: float  # random getpages per dialog step that can miss the pool
    skew: float  # power-law skew of page popularity, 0 < skew < 1 (higher = hotter hot set)
    working_set_gb: float  # GB of data that is re-referenced at random
    floor_reads_per_ds: float  # sync reads per DS that no pool size removes (first touches)


@dataclass(frozen=True)
class Machine:
    """CPU and time costs on one processor (zEC12 or z13) and configuration."""

    cps: int  # general-purpose processors (all LPARs together)
    base_cpu_ms_per_ds: float  # CPU per dialog step with no sync reads, ms
    cpu_us_per_sync_read: float  # CPU per sync read, including its latch and switch costs, us


@dataclass(frozen=True)
class RequestTime:
    """DB request time R = base + per_read * reads**exponent (s; reads = sync reads per DS).

    exponent = 1 is the linear I/O model (a fixed time per read); the fitted exponent is
    below 1 (see the chapter for why).
    """

    base_s: float  # DB request time with no sync reads, s
    per_read_s: float  # scale of the sync-read term, s
    exponent: float  # 1 = linear


@dataclass(frozen=True)
class ClosedLoop:
    """The SAP users as a closed loop: each dialog step spends ``think_s`` outside DB2 and ``requests_per_ds``
    times the DB request time in it. The calibration takes the printed request time per dialog step
    (``requests_per_ds = 1``); other values are what-ifs for the other reading of the source's unit."""

    users: float  # simulated users (10,560 single system; 7,680 data sharing)
    think_s: float  # time per dialog step outside the DB requests (application server, network), s
    requests_per_ds: float = 1.0  # DB request times per dialog step (1: the printed time is per step)


def sync_reads_per_ds(pool_gb, workload: Workload) -> np.ndarray:
    """Synchronous reads per dialog step with ``pool_gb`` GB of buffer pools (one LRU pool)."""
    pool = v.positive("pool_gb", pool_gb, unit="GB")
    _check_workload(workload)
    miss = lru_miss_ratio(pool / workload.working_set_gb, workload.skew)
    return workload.floor_reads_per_ds + workload.getpages_per_ds * miss


def cpu_ms_per_ds(reads_per_ds, machine: Machine) -> np.ndarray:
    """CPU milliseconds per dialog step: a base path plus a cost per sync read."""
    reads = v.non_negative("reads_per_ds", reads_per_ds, unit="sync reads per DS")
    _check_machine(machine)
    return machine.base_cpu_ms_per_ds + machine.cpu_us_per_sync_read * 1e-3 * reads


def itr(reads_per_ds, machine: Machine) -> np.ndarray:
    """Internal throughput rate, DS/s: the ETR the CPs would carry at 100% busy."""
    return machine.cps * 1e3 / cpu_ms_per_ds(reads_per_ds, machine)


def db_request_time(reads_per_ds, request: RequestTime) -> np.ndarray:
    """DB request time, s: a base time plus a sync-read term (linear when exponent = 1)."""
    reads = v.non_negative("reads_per_ds", reads_per_ds, unit="sync reads per DS")
    v.non_negative("base_s", request.base_s, unit="s")
    v.non_negative("per_read_s", request.per_read_s, unit="s")
    v.in_range("exponent", request.exponent, 0.05, 2.0)
    return request.base_s + request.per_read_s * reads ** request.exponent


def etr(request_s, loop: ClosedLoop) -> np.ndarray:
    """External throughput, DS/s, from Little's law for a closed loop: N = X (Z + k R)."""
    r = v.non_negative("request_s", request_s, unit="s")
    v.positive("users", loop.users)
    v.non_negative("think_s", loop.think_s, unit="s")
    v.positive("requests_per_ds", loop.requests_per_ds)
    return loop.users / (loop.think_s + loop.requests_per_ds * r)


def cpu_utilisation(etr_ds, itr_ds) -> np.ndarray:
    """Average CP busy fraction: ETR / ITR (must stay at or below 1)."""
    e = v.non_negative("etr_ds", etr_ds, unit="DS/s")
    i = v.positive("itr_ds", itr_ds, unit="DS/s")
    v.same_shape(etr_ds=e, itr_ds=i)
    return e / i


# --- data sharing: a local pool in front of the group buffer pool --------------------------


@dataclass(frozen=True)
class GroupPool:
    """The group buffer pool's view of the workload (calibrated on Tables 10, 13, 16)."""

    gbp_dependent_fraction: float  # share of local misses on GBP-dependent objects, [0, 1]
    changed_set_gb: float  # GB of changed pages of GBP-dependent objects worth caching
    skew: float  # popularity skew of those pages, 0 < skew < 1


def gbp_hit_ratio(gbp_gb, group: GroupPool) -> np.ndarray:
    """Fraction of GBP reads (local misses on GBP-dependent data) that find the page."""
    size = v.positive("gbp_gb", gbp_gb, unit="GB")
    _check_group(group)
    return 1.0 - lru_miss_ratio(size / group.changed_set_gb, group.skew)


def sync_reads_per_ds_data_sharing(lbp_gb, gbp_gb, workload: Workload, group: GroupPool) -> np.ndarray:
    """Disk sync reads per DS in data sharing: local misses not served by the GBP.

    reads = floor + g * miss_local(LBP) * (1 - f * hit_GBP(GBP)), where f is the
    GBP-dependent fraction. Each member's local pool sees the whole random working set.
    """
    lbp = v.positive("lbp_gb", lbp_gb, unit="GB per member")
    gbp = v.positive("gbp_gb", gbp_gb, unit="GB")
    v.same_shape(lbp_gb=lbp, gbp_gb=gbp)
    _check_workload(workload)
    local_miss = lru_miss_ratio(lbp / workload.working_set_gb, workload.skew)
    served = group.gbp_dependent_fraction * gbp_hit_ratio(gbp, group)
    return workload.floor_reads_per_ds + workload.getpages_per_ds * local_miss * (1.0 - served)


def memory_needed_gb(lbp_gb_per_member, gbp_gb, members: int = 2, gbp_copies: int = 2) -> np.ndarray:
    """Real memory a data-sharing configuration needs, GB: LBP x members + GBP x 2 (rebuild)."""
    lbp = v.non_negative("lbp_gb_per_member", lbp_gb_per_member, unit="GB")
    gbp = v.non_negative("gbp_gb", gbp_gb, unit="GB")
    v.in_range("members", members, 1, 32)
    v.in_range("gbp_copies", gbp_copies, 1, 2)
    return lbp * members + gbp * gbp_copies


# --- checks on the records ----------------------------------------------------------------


def _check_workload(wl: Workload) -> None:
    v.positive("getpages_per_ds", wl.getpages_per_ds)
    v.open_unit("skew", wl.skew)
    v.positive("working_set_gb", wl.working_set_gb, unit="GB")
    v.non_negative("floor_reads_per_ds", wl.floor_reads_per_ds)


def _check_machine(m: Machine) -> None:
    v.in_range("cps", m.cps, 1, 256)
    v.positive("base_cpu_ms_per_ds", m.base_cpu_ms_per_ds, unit="ms")
    v.non_negative("cpu_us_per_sync_read", m.cpu_us_per_sync_read, unit="us")


def _check_group(g: GroupPool) -> None:
    v.ratio("gbp_dependent_fraction", g.gbp_dependent_fraction)
    v.positive("changed_set_gb", g.changed_set_gb, unit="GB")
    v.open_unit("skew", g.skew)


# --- the whole chain ------------------------------------------------------------------------


def single_system(pool_gb, workload: Workload, machine: Machine, request: RequestTime,
                  loop: ClosedLoop) -> dict[str, np.ndarray]:
    """Pool size (GB) -> every modelled indicator of a single-system Day Posting run.

    Returns arrays over ``pool_gb``: ``reads_per_ds``, ``itr`` (DS/s), ``request_s``,
    ``etr`` (DS/s: the closed loop's throughput, bounded by ITR since the CPs cannot be more
    than fully busy), ``reads_per_s`` (= reads_per_ds x ETR) and ``cpu_util`` (ETR / ITR).
    """
    reads = sync_reads_per_ds(pool_gb, workload)
    itr_ds = itr(reads, machine)
    request_s = db_request_time(reads, request)
    etr_ds = np.minimum(etr(request_s, loop), itr_ds)
    return {"reads_per_ds": reads, "itr": itr_ds, "request_s": request_s, "etr": etr_ds,
            "reads_per_s": reads * etr_ds, "cpu_util": cpu_utilisation(etr_ds, itr_ds)}


# --- the layout: each pool its own LRU cache over the objects assigned to it -------------------


@dataclass(frozen=True)
class PageSizeObjects:
    """How the objects of one page size (4K, 8K or 32K) re-reference their pages, for the per-pool model.

    Every object group's working set is ``working_set_scale`` times its *weight* (GB: the isolated pool that
    held it at 638 GB, Table 5), and it takes ``getpages_per_gb`` random getpages per dialog step per GB of
    weight; all groups share one popularity skew. Calibrated in :mod:`.calibration` (:data:`LAYOUT`).
    """

    getpages_per_gb: float  # random getpages per dialog step per GB of weight
    working_set_scale: float  # working set per GB of weight (dimensionless, GB / GB)
    floor_reads_per_ds: float  # sync reads per DS that no pool size removes


def pooled_reads_per_ds(capacity_gb, weight_gb, objects: PageSizeObjects, skew: float) -> np.ndarray:
    """Sync reads per dialog step of one page size's pools, each pool an LRU cache of its own.

    ``capacity_gb`` (GB) and ``weight_gb`` (GB of weight of the objects it holds) are arrays over the pools
    of one layout, shape (..., pools); pools with no weight are skipped. Each pool p misses at Che's
    ratio of C_p / (scale x A_p); reads = floor + getpages_per_gb x sum_p A_p x miss_p. A layout that
    splits the same memory differently among the same objects gives different reads: the model sees it.
    """
    cap = v.non_negative("capacity_gb", capacity_gb, unit="GB")
    weight = v.non_negative("weight_gb", weight_gb, unit="GB")
    v.same_shape(capacity_gb=cap, weight_gb=weight)
    v.positive("getpages_per_gb", objects.getpages_per_gb)
    v.positive("working_set_scale", objects.working_set_scale)
    v.non_negative("floor_reads_per_ds", objects.floor_reads_per_ds)
    v.open_unit("skew", skew)
    held = weight > 0
    fraction = np.divide(cap, objects.working_set_scale * weight, out=np.ones_like(cap), where=held)
    miss = np.where(held, lru_miss_ratio(fraction, skew), 0.0)
    return objects.floor_reads_per_ds + objects.getpages_per_gb * (weight * miss).sum(axis=-1)
