"""Models of "The Buffer Pool Hit Ratio is Dead!!" (Goldstein, 2002-2004): pure, vectorised numpy.

Four small models, one per argument of the deck:

* **Definitions** - application and system hit ratios, the I/O rate, and the elapsed time an
  I/O cut saves. These are the formulas the chapter teaches; the deck's screens obey them.
* **The critical threshold** - an LRU pool's hit ratio is the distribution function of the
  workload's stack distances (Mattson 1970). A looping re-reference puts a lump of mass at one
  distance, so the curve stays flat until the pool holds the loop and then jumps. The
  independent-reference alternative (Che's approximation under a power-law popularity, the
  large-memory chapter's model) is concave and cannot jump.
* **The hit-ratio builder** - random getpages that miss, plus prefetched pages that may never be
  touched: the application ratio stays high while the system ratio goes negative.
* **Scans and VPSEQT** - Che's approximation for the random objects of a pool that a scan shares,
  with the sequential threshold capping what the scan may hold.

Units: pool sizes in buffers (pages), rates per second, times in seconds unless a name says
``_ms``; ratios are fractions in the functions and percentages only on figures. Every public
function validates its inputs (:mod:`widgets.validation`) and raises a ``ValueError`` naming the
parameter and its valid range.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import validation as v
from ..lru import che_curve, lru_miss_ratio

PREFETCH_QUANTITY = 32  # pages one sequential-prefetch I/O reads (4 KB pages, DB2 V6/V7)

# --- definitions ---------------------------------------------------------------------------


def application_hit_ratio(getpages, read_ios) -> np.ndarray:
    """Share of getpages that did not wait for a read I/O: 1 - read I/Os / getpages.

    This is the deck's "application" ratio: each read I/O (synchronous, or a prefetch request
    the application waited for) counts once, however many pages it brought in. Can be
    negative only if there are more I/Os than getpages.
    """
    g = v.positive("getpages", getpages)
    ios = v.non_negative("read_ios", read_ios)
    v.same_shape(getpages=g, read_ios=ios)
    return 1.0 - ios / g


def system_hit_ratio(getpages, pages_read) -> np.ndarray:
    """Share of getpages not matched by a page read into the pool: 1 - pages read / getpages.

    Every page read counts, by synchronous read or by prefetch, whether or not any getpage
    ever asks for it - which is why it goes negative when prefetch reads pages nobody touches.
    """
    g = v.positive("getpages", getpages)
    pages = v.non_negative("pages_read", pages_read)
    v.same_shape(getpages=g, pages_read=pages)
    return 1.0 - pages / g


def io_rate(ios, interval_s) -> np.ndarray:
    """I/Os per second over a measured interval (the number a tuner can act on)."""
    n = v.non_negative("ios", ios)
    t = v.positive("interval_s", interval_s, unit="s")
    v.same_shape(ios=n, interval_s=t)
    return n / t


def ios_avoided(io_rate_saved, interval_s) -> np.ndarray:
    """I/Os an interval no longer performs when its I/O rate falls by ``io_rate_saved`` per s."""
    r = v.non_negative("io_rate_saved", io_rate_saved, unit="I/O per s")
    t = v.positive("interval_s", interval_s, unit="s")
    v.same_shape(io_rate_saved=r, interval_s=t)
    return r * t


def elapsed_saved_s(ios, sync_io_ms) -> np.ndarray:
    """Elapsed seconds saved when ``ios`` synchronous I/Os of ``sync_io_ms`` ms each disappear.

    The chain the deck uses: I/Os avoided x the synchronous I/O time the application waited.
    A change in hit ratio has no unit of time; it becomes one only through this chain.
    """
    n = v.non_negative("ios", ios)
    ms = v.non_negative("sync_io_ms", sync_io_ms, unit="ms")
    v.same_shape(ios=n, sync_io_ms=ms)
    return n * ms / 1000.0


def prefetch_application_hit_ratio(pages_per_io=PREFETCH_QUANTITY) -> np.ndarray:
    """Application hit ratio of a purely sequential object: one I/O per ``pages_per_io`` getpages."""
    q = v.in_range("pages_per_io", pages_per_io, 1, PREFETCH_QUANTITY, unit="pages")
    return 1.0 - 1.0 / q


def overall_hit_ratio(getpages, hit_ratios) -> float:
    """A screen's overall ratio: the pools' hit ratios weighted by their getpages.

    Equal to 1 - (total pages read) / (total getpages), since each pool's pages read are
    getpages x (1 - its ratio). Hit ratios may be negative or above 1 (see the chapter).
    """
    g = v.non_negative("getpages", getpages)
    h = v.in_range("hit_ratios", hit_ratios, -50.0, 2.0)
    v.same_shape(getpages=g, hit_ratios=h)
    if g.sum() <= 0:
        raise ValueError("getpages must not all be zero; valid range is a total above 0")
    return float((g * h).sum() / g.sum())


# --- the critical threshold: stack distances -------------------------------------------------


@dataclass(frozen=True)
class StackDistances:
    """An LRU workload described by its stack-distance distribution (distances in buffers).

    A share ``loop_share`` of references is re-referenced at exactly ``loop_pages`` distinct
    pages (a loop, or a scan over a working set, repeated); ``short_share`` are spread
    uniformly over ``(0, loop_pages]`` (re-references inside a pass); ``floor_share`` never hit
    (first touches); the rest are spread uniformly over ``(loop_pages, loop_pages + spread_pages]``.
    """

    loop_pages: float  # the loop's working set: the critical threshold, buffers
    loop_share: float  # share of references at exactly loop_pages, [0, 1]
    spread_pages: float  # width of the spread above the loop, buffers (> 0)
    short_share: float = 0.0  # share of references closer than the loop, [0, 1]
    floor_share: float = 0.0  # share of references that no pool size turns into hits, [0, 1]

    @property
    def spread_share(self) -> float:
        """Share of references spread above the loop (what the other shares leave)."""
        return 1.0 - self.loop_share - self.short_share - self.floor_share


def _check_stack(sd: StackDistances) -> None:
    v.positive("loop_pages", sd.loop_pages, unit="buffers")
    v.ratio("loop_share", sd.loop_share)
    v.positive("spread_pages", sd.spread_pages, unit="buffers")
    v.ratio("short_share", sd.short_share)
    v.ratio("floor_share", sd.floor_share)
    total = sd.loop_share + sd.short_share + sd.floor_share
    if total > 1 + 1e-12:
        raise ValueError(f"loop_share + short_share + floor_share = {total:g} is out of range; valid range is [0, 1]")


def stack_hit_ratio(pool_buffers, sd: StackDistances) -> np.ndarray:
    """LRU hit ratio of a pool of ``pool_buffers`` buffers: P(stack distance <= pool size).

    Mattson's inclusion property: a reference hits in every LRU pool at least as large as its
    stack distance, so one distance distribution gives the whole curve.
    """
    c = v.non_negative("pool_buffers", pool_buffers, unit="buffers")
    _check_stack(sd)
    short = sd.short_share * np.clip(c / sd.loop_pages, 0.0, 1.0)
    above = np.clip((c - sd.loop_pages) / sd.spread_pages, 0.0, 1.0)
    hit = short + np.where(c >= sd.loop_pages, sd.loop_share + max(sd.spread_share, 0.0) * above, 0.0)
    return np.minimum(hit, 1.0)  # the shares sum to 1 up to rounding; never let rounding exceed it


def fit_stack_distances(pool_buffers, hit_ratios, loop_pages: float, spread_limit: float = 1e6) -> StackDistances:
    """Least-squares shares and spread for a given threshold ``loop_pages`` (three numbers).

    Below the threshold the model is a line through the origin (the short re-references); above
    it, a line in the pool size (short + loop share + density x buffers). Both are ordinary
    linear least squares: the short share on the points below the threshold, then the loop
    share and density on the points at or above it. Needs two points above.
    """
    c = v.positive("pool_buffers", pool_buffers, unit="buffers")
    h = v.ratio("hit_ratios", hit_ratios)
    v.same_shape(pool_buffers=c, hit_ratios=h)
    w = float(v.positive("loop_pages", loop_pages, unit="buffers"))
    above = c >= w
    if above.sum() < 2:
        raise ValueError(f"loop_pages={w:g} leaves {int(above.sum())} points at or above it; a fit needs 2")
    x_below = c[~above] / w
    short = float(x_below @ h[~above] / (x_below @ x_below)) if (~above).any() else 0.0
    short = min(max(short, 0.0), 1.0)
    design = np.column_stack([np.ones(above.sum()), c[above] - w])
    (share, density), *_ = np.linalg.lstsq(design, h[above] - short, rcond=None)
    share = float(np.clip(share, 0.0, 1.0 - short))
    density = float(max(density, 1.0 / spread_limit))
    return StackDistances(loop_pages=w, loop_share=share, spread_pages=(1.0 - share - short) / density,
                          short_share=short)


def zipf_hit_ratio(pool_buffers, catalogue_pages, skew) -> np.ndarray:
    """LRU hit ratio under independent references (Che's approximation, power-law popularity).

    The large-memory chapter's model, in buffers: the pool holds ``pool_buffers`` of the
    ``catalogue_pages`` pages the workload touches. Concave in the pool size: no threshold.
    """
    c = v.non_negative("pool_buffers", pool_buffers, unit="buffers")
    n = float(v.positive("catalogue_pages", catalogue_pages, unit="pages"))
    return 1.0 - lru_miss_ratio(c / n, skew)


def read_rate(request_rate, hit_ratio) -> np.ndarray:
    """Reads per second when ``request_rate`` getpages (or get blocks) per second hit ``hit_ratio``."""
    r = v.non_negative("request_rate", request_rate, unit="per s")
    h = v.ratio("hit_ratio", hit_ratio)
    return r * (1.0 - h)


# --- the hit-ratio builder: random misses plus prefetched pages -------------------------------


@dataclass(frozen=True)
class PoolMix:
    """A pool's getpages: random ones that may miss, sequential ones served by prefetch."""

    sequential_share: float  # share of getpages made by sequential access, [0, 1]
    random_miss: float  # share of random getpages that need a synchronous read, [0, 1]
    touched_share: float | np.ndarray  # share of prefetched pages that some getpage asks for, (0, 1]; may be an array
    pages_per_prefetch: float = PREFETCH_QUANTITY  # pages one prefetch I/O brings in, [1, 32]


def _check_mix(mix: PoolMix) -> None:
    v.ratio("sequential_share", mix.sequential_share)
    v.ratio("random_miss", mix.random_miss)
    v.in_range("touched_share", mix.touched_share, 0.0, 1.0, low_inclusive=False)
    v.in_range("pages_per_prefetch", mix.pages_per_prefetch, 1, PREFETCH_QUANTITY, unit="pages")


def pages_read_per_getpage(mix: PoolMix) -> np.ndarray:
    """Pages read into the pool per getpage: random misses plus every prefetched page.

    Vectorised over the fields (a figure passes an array of touched shares).
    """
    _check_mix(mix)
    return (1 - mix.sequential_share) * mix.random_miss + mix.sequential_share / mix.touched_share


def read_ios_per_getpage(mix: PoolMix) -> np.ndarray:
    """Read I/Os per getpage: one per random miss, one per prefetch request."""
    _check_mix(mix)
    prefetch_ios = mix.sequential_share / mix.touched_share / mix.pages_per_prefetch
    return (1 - mix.sequential_share) * mix.random_miss + prefetch_ios


def mix_hit_ratios(mix: PoolMix) -> tuple[np.ndarray, np.ndarray]:
    """(application, system) hit ratios of a pool with this mix, as fractions."""
    return 1.0 - read_ios_per_getpage(mix), 1.0 - pages_read_per_getpage(mix)


def touched_share_for(system_ratio: float, sequential_share: float, random_miss: float) -> float:
    """The touched share of prefetched pages that makes a pool show ``system_ratio``.

    Inverts :func:`pages_read_per_getpage`; raises if no share in (0, 1] does it (for
    instance a ratio too high for the random misses alone).
    """
    hr = float(v.in_range("system_ratio", system_ratio, -50.0, 1.0))
    s = float(v.in_range("sequential_share", sequential_share, 0.0, 1.0, low_inclusive=False))
    m = float(v.ratio("random_miss", random_miss))
    prefetched = (1.0 - hr) - (1.0 - s) * m  # prefetched pages per getpage
    if prefetched < s - 1e-12:
        raise ValueError(f"system_ratio={hr:g} needs fewer prefetched pages than sequential getpages "
                         f"(sequential_share={s:g}, random_miss={m:g}); valid touched share is (0, 1]")
    return min(1.0, s / prefetched)


def prefetched_pages_at_least(getpages, pages_read, read_ios, pages_per_prefetch=PREFETCH_QUANTITY) -> np.ndarray:
    """Fewest pages prefetch can have read, from a pool's counts (pages).

    With S synchronous reads and F prefetch I/Os of k pages each, read I/Os I = S + F and pages
    read P = S + kF, so P - I = (k - 1) F and the prefetched pages kF = (P - I) k / (k - 1),
    smallest when k takes its largest value. ``read_ios`` may be an upper bound (reads and
    writes together, when a screen does not split them): the result is then still a lower bound.
    """
    g = v.positive("getpages", getpages)
    p = v.non_negative("pages_read", pages_read)
    i = v.non_negative("read_ios", read_ios)
    v.same_shape(getpages=g, pages_read=p, read_ios=i)
    q = v.in_range("pages_per_prefetch", pages_per_prefetch, 2, PREFETCH_QUANTITY, unit="pages")
    return np.maximum(p - i, 0.0) * q / (q - 1)


def touched_share_at_most(getpages, pages_read, read_ios, pages_per_prefetch=PREFETCH_QUANTITY) -> np.ndarray:
    """Largest share of the prefetched pages that getpages can have asked for (at most 1).

    No more prefetched pages can be touched than there were getpages, and at least
    :func:`prefetched_pages_at_least` were read.
    """
    least = prefetched_pages_at_least(getpages, pages_read, read_ios, pages_per_prefetch)
    g = np.asarray(getpages, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(least > 0, np.minimum(1.0, g / np.where(least > 0, least, 1.0)), 1.0)


# --- scans and the sequential threshold (VPSEQT) ---------------------------------------------


@dataclass(frozen=True)
class SharedPool:
    """A pool whose random objects share it with a long scan (pages never re-read)."""

    pool_buffers: float  # buffers in the pool
    random_pages: float  # pages the random objects touch (their catalogue), > 0
    skew: float  # power-law skew of the random pages' popularity, (0, 1)
    scan_share: float  # share of the pool's getpages that are sequential scan pages, [0, 1)


def _check_shared(pool: SharedPool) -> None:
    v.positive("pool_buffers", pool.pool_buffers, unit="buffers")
    v.positive("random_pages", pool.random_pages, unit="pages")
    v.open_unit("skew", pool.skew)
    v.in_range("scan_share", pool.scan_share, 0.0, 1.0, high_inclusive=False)


def scan_hold_and_random_miss(pool: SharedPool, vpseqt_pct) -> tuple[np.ndarray, np.ndarray]:
    """(share of the pool the scan holds, miss ratio of the random getpages) at each VPSEQT.

    Che's approximation with one characteristic time T for both LRU chains while the scan is
    under its cap: a random page stays if re-referenced within T, a scan page (never re-read)
    stays exactly T, so the scan holds scan_rate x T buffers. When that exceeds VPSEQT% of the
    pool, DB2 steals from the sequential chain instead, and the random objects keep
    (1 - VPSEQT%) of the pool to themselves.
    """
    _check_shared(pool)
    cap = v.in_range("vpseqt_pct", vpseqt_pct, 0.0, 100.0, unit="%") / 100.0
    t, occupancy, miss = che_curve(round(float(pool.skew), 6))
    n, r, s = float(pool.pool_buffers), float(pool.random_pages), float(pool.scan_share)
    scan_per_t = s / (1.0 - s) * r  # scan pages arriving per unit of T (T in catalogue-size random requests)
    used = r * occupancy + scan_per_t * t  # buffers in use at each characteristic time
    if n >= r + scan_per_t * t[-1] or (s == 0 and n >= r):
        free_hold, free_miss = (0.0 if s == 0 else (n - r) / n), 0.0
    elif n <= used[0]:
        free_hold, free_miss = scan_per_t * t[0] / n, float(miss[0])
    else:
        t_star = float(np.exp(np.interp(np.log(n), np.log(used), np.log(t))))
        free_hold = scan_per_t * t_star / n
        free_miss = float(np.exp(np.interp(np.log(t_star), np.log(t), np.log(miss))))
    capped_miss = lru_miss_ratio(n * (1.0 - cap) / r, pool.skew)
    binding = free_hold > cap
    hold = np.where(binding, cap, free_hold)
    return hold, np.where(binding, capped_miss, free_miss)
