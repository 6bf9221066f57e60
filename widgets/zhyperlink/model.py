"""Models of zHyperLink I/O (IBM Redbooks SG24-8536, section 3.10): pure numpy.

The source prints no absolute latencies; every latency here is an *assumption* with a slider,
and the calibrated values are fitted to the percentages the text quotes.

* **Elapsed time.** A transaction spends ``T0`` outside random reads and makes ``n`` reads; a
  fraction ``h`` hit the disk-controller cache. With zHPF a hit waits ``t_hit`` (device time
  plus the interrupt and re-dispatch of asynchronous I/O) and a miss ``t_miss``. With
  zHyperLink a hit is a synchronous spin of ``t_zhl``; a miss first tries zHyperLink
  (``t_try``) and then goes the zHPF way.
* **CPU.** The spin burns ``t_zhl`` of CPU per read whatever the processor speed; the
  asynchronous path it replaces costs a fixed number of instructions, so its CPU time shrinks
  as the processor gets faster. Relative to a transaction's CPU (which also shrinks with speed),
  the change is ``n (u s - v)``: linear in the processor speed ``s``, with a break-even speed.
* **Log writes.** Commit latency = other time + log wait (+ latch wait held during the write);
  zHyperLink writes at most two tracks per I/O, so a large log write takes several.
* **Combining options.** Cuts of separate parts of one baseline's elapsed time add.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import validation as v

TRACK_BYTES = 56_664  # a 3390 track
RECORD_BYTES = 4096  # one 4 K log record
ZHL_MAX_TRACKS = 2  # z/OS IOS limits a zHyperLink write to two tracks


# --- 1. elapsed time of a transaction ---------------------------------------------------------


@dataclass(frozen=True)
class ReadPath:
    """Per-read latencies (us) and the disk-cache hit ratio."""

    hit_ratio: float = 0.95  # share of random reads that hit the controller cache
    t_hit_us: float = 500.0  # zHPF read of a cache hit, as Db2 waits for it (incl. re-dispatch)
    t_miss_us: float = 1500.0  # read that misses the cache (assumed: flash back end)
    t_zhl_us: float = 20.0  # zHyperLink synchronous read (assumed; the link is "up to 10x" faster)
    t_try_us: float = 10.0  # a zHyperLink attempt that finds a miss, before falling back (assumed)


def check_path(p: ReadPath, allow_slower_link: bool = False) -> ReadPath:
    """Validate a :class:`ReadPath`.

    A zHyperLink read slower than the zHPF hit it replaces would only cost time; it is refused
    unless ``allow_slower_link`` (the chapter uses that to show the loss).
    """
    v.ratio("hit_ratio", p.hit_ratio)
    v.positive("t_hit_us", p.t_hit_us, unit="us")
    v.positive("t_miss_us", p.t_miss_us, unit="us")
    v.positive("t_zhl_us", p.t_zhl_us, unit="us")
    v.non_negative("t_try_us", p.t_try_us, unit="us")
    if not allow_slower_link and p.t_zhl_us > p.t_hit_us:
        raise ValueError(f"t_zhl_us={p.t_zhl_us:g} is above t_hit_us={p.t_hit_us:g}; valid range is "
                         f"(0, {p.t_hit_us:g}] us (a slower link only adds time; pass allow_slower_link=True)")
    return p


def read_time_us(p: ReadPath, zhyperlink: bool) -> float | np.ndarray:
    """Mean wait per random read (us), without or with zHyperLink (vectorised over ``hit_ratio``)."""
    check_path(p, allow_slower_link=True)
    h = p.hit_ratio
    if zhyperlink:
        return h * p.t_zhl_us + (1 - h) * (p.t_miss_us + p.t_try_us)
    return h * p.t_hit_us + (1 - h) * p.t_miss_us


def elapsed_us(reads, other_us, p: ReadPath, zhyperlink: bool) -> np.ndarray:
    """Transaction elapsed time (us): time outside random reads plus the reads' waits."""
    n = v.non_negative("reads", reads, unit="reads per transaction")
    t0 = v.non_negative("other_us", other_us, unit="us")
    return t0 + n * read_time_us(p, zhyperlink)


def elapsed_reduction(reads, other_us, p: ReadPath) -> np.ndarray:
    """Fractional cut in elapsed time from zHyperLink reads (negative = a loss)."""
    before = elapsed_us(reads, other_us, p, zhyperlink=False)
    return 1.0 - elapsed_us(reads, other_us, p, zhyperlink=True) / before


def fit_read_model(n1: float, r1: float, n2: float, r2: float, p: ReadPath) -> tuple[float, float]:
    """The (other_us, t_hit_us) that give reductions r1 at n1 reads and r2 at n2 reads.

    With the other latencies assumed, two published points fix the two unknowns exactly.
    """
    n1, n2 = float(v.positive("n1", n1)), float(v.positive("n2", n2))
    r1, r2 = float(v.in_range("r1", r1, 0, 1, low_inclusive=False, high_inclusive=False)), \
        float(v.in_range("r2", r2, 0, 1, low_inclusive=False, high_inclusive=False))
    check_path(p, allow_slower_link=True)
    if n1 == n2:
        raise ValueError("n1 and n2 must differ")
    # r(n) = n d / (x + n) with d = saving / a and x = other / a (a = zHPF time per read)
    d = (r1 * r2 * (n1 - n2)) / (r2 * n1 - r1 * n2) if (r2 * n1 - r1 * n2) != 0 else np.nan
    x = n1 * d / r1 - n1
    h, m, z, t = p.hit_ratio, p.t_miss_us, p.t_zhl_us, p.t_try_us
    # d = [h (t_hit - z) - (1 - h) t] / [h t_hit + (1 - h) m]  ->  solve for t_hit
    denom = h * (1 - d)
    if not np.isfinite(d) or x < 0 or denom <= 0:
        raise ValueError(f"no model with these latencies gives {r1:.0%} at {n1:g} reads and {r2:.0%} at {n2:g}")
    t_hit = (d * (1 - h) * m + h * z + (1 - h) * t) / denom
    return float(x * (h * t_hit + (1 - h) * m)), float(t_hit)


# --- 2. CPU: spin against task switch ---------------------------------------------------------


def cpu_change(reads, speed, spin_share, switch_share) -> np.ndarray:
    """Fractional change in CPU per transaction from zHyperLink reads.

    ``speed`` is the processor speed relative to the measured z14 (1.0). ``spin_share`` is one
    read's spin as a fraction of the transaction's CPU at speed 1; ``switch_share`` is the
    asynchronous path it replaces, likewise. Spin time is fixed wall time, so relative to a
    CPU that shrinks as 1/speed it grows with speed: change = n (spin_share * speed - switch_share).
    """
    n = v.non_negative("reads", reads, unit="reads per transaction")
    s = v.positive("speed", speed, unit="x the z14")
    u = v.non_negative("spin_share", spin_share)
    w = v.non_negative("switch_share", switch_share)
    return n * (u * s - w)


def break_even_speed(spin_share: float, switch_share: float) -> float:
    """Processor speed (x the z14) at which spinning costs exactly what switching did."""
    u = float(v.positive("spin_share", spin_share))
    return float(v.non_negative("switch_share", switch_share)) / u


# --- 3. log writes and commit latency ----------------------------------------------------------


def log_write_ios(records, zhyperlink: bool) -> np.ndarray:
    """I/O requests for one log write of ``records`` 4 K records (zHPF: one; zHyperLink: per 2 tracks)."""
    r = v.in_range("records", records, 1, 128, unit="4 K records")
    if not zhyperlink:
        return np.ones_like(r)
    return np.ceil(r * RECORD_BYTES / (ZHL_MAX_TRACKS * TRACK_BYTES))


def commit_latency_reduction(log_share, wait_reduction, latch_share=0.0, latch_reduction=0.0) -> np.ndarray:
    """Fractional cut in transaction latency when the log wait (and the latch it holds) shrink."""
    ls = v.ratio("log_share", log_share)
    wr = v.ratio("wait_reduction", wait_reduction)
    la = v.ratio("latch_share", latch_share)
    lr = v.ratio("latch_reduction", latch_reduction)
    if np.any(ls + la > 1 + 1e-12):
        raise ValueError("log_share + latch_share must not exceed 1 (they are shares of the latency)")
    return ls * wr + la * lr


# --- 4. combining options ------------------------------------------------------------------------


def combined_reduction(first, second, multiplicative: bool = False) -> np.ndarray:
    """Elapsed-time cut (fraction of the baseline) when two options are switched on together.

    Each printed cut is a fraction of the *same* baseline run (everything over zHPF). If each option
    removes its own, separate part of that time (reads, log writes), the two cuts add: ``a + b``.
    ``multiplicative=True`` gives ``1 - (1 - a)(1 - b)``, which would hold only if the second cut
    were a fraction of the time the first one left; it is kept for comparison.
    """
    a = v.ratio("first", first)
    b = v.ratio("second", second)
    if not multiplicative and np.any(a + b > 1):
        raise ValueError(f"first + second = {np.max(a + b):.3g} removes more than the whole baseline; "
                         "two cuts of one baseline must add up to at most 1")
    return 1 - (1 - a) * (1 - b) if multiplicative else a + b
