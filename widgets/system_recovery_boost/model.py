"""Models of System Recovery Boost (IBM Redbooks SG24-8536, section 3.5): pure numpy.

Three small models:

* **Parallel restart.** Forward log recovery runs fast-log-apply tasks in parallel, so its time
  on ``N`` engines follows Amdahl's law, ``T(N) = s + p / N``, or, with at most ``k`` tasks,
  ``T(N) = s + W / min(k, N)``.
* **The backlog after an outage.** A fluid queue: work arrives at ``lambda`` while the system is
  down and after; once Db2 is back it is served at the capacity of the engines online, which is
  boosted during the window after IPL and shrinks as the backlog's contention grows.
* **Closed-loop response time.** Users with think time against a pool of engines, by exact
  mean-value analysis with a load-dependent multi-server station.

Units: seconds for restart phases, minutes for the backlog timeline (minutes since IPL),
throughput as a fraction of the normal capacity of the un-boosted LPAR (2 CPs + 2 zIIPs).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import validation as v

#: The zIIP boost lasts one hour after IPL (SG24-8536, section 3.5); a longer window is refused.
MAX_BOOST_WINDOW_MIN = 60.0


# --- 1. parallel restart ---------------------------------------------------------------------


def amdahl_time(engines, serial_s, parallel_s) -> np.ndarray:
    """Elapsed time (s) of work with a serial part and a perfectly parallel part on ``engines``."""
    n = v.positive("engines", engines)
    s = v.non_negative("serial_s", serial_s, unit="s")
    p = v.non_negative("parallel_s", parallel_s, unit="s")
    return s + p / n


def task_capped_time(engines, serial_s, work_s, tasks) -> np.ndarray:
    """Elapsed time (s) when at most ``tasks`` apply tasks run at once: s + W / min(k, N)."""
    n = v.positive("engines", engines)
    k = v.positive("tasks", tasks)
    s = v.non_negative("serial_s", serial_s, unit="s")
    w = v.non_negative("work_s", work_s, unit="s")
    return s + w / np.minimum(k, n)


def amdahl_through_two_points(n1: float, t1: float, n2: float, t2: float) -> tuple[float, float]:
    """The (serial, parallel) seconds of the Amdahl curve through two measurements.

    Two points fix two parameters exactly: the fit itself validates nothing. Raises when the
    points need a negative serial or parallel part (the hypothesis cannot explain them).
    """
    n1, n2 = float(v.positive("n1", n1)), float(v.positive("n2", n2))
    t1, t2 = float(v.positive("t1", t1, unit="s")), float(v.positive("t2", t2, unit="s"))
    if n1 == n2:
        raise ValueError(f"n1 and n2 must differ (both {n1:g}): one engine count cannot fix two parameters")
    parallel = (t1 - t2) / (1 / n1 - 1 / n2)
    serial = t1 - parallel / n1
    if parallel < 0 or serial < 0:
        raise ValueError(f"no Amdahl curve through ({n1:g}, {t1:g} s) and ({n2:g}, {t2:g} s) has "
                         f"non-negative parts (serial {serial:.3g} s, parallel {parallel:.3g} s)")
    return serial, parallel


def min_tasks_for_speedup(speedup: float, engines_before: float, engines_after: float) -> int:
    """Fewest parallel tasks k for which s + W/min(k, N) can speed up by ``speedup`` (s >= 0)."""
    sp = float(v.in_range("speedup", speedup, 1.0, np.inf))
    a = float(v.positive("engines_before", engines_before))
    b = float(v.positive("engines_after", engines_after))
    if sp > b / a + 1e-12:
        raise ValueError(f"speedup={sp:g} exceeds engines_after / engines_before = {b / a:g}; no k can give it")
    k = 1
    while min(k, b) / min(k, a) < sp - 1e-12:
        k += 1
    return k


# --- 2. the backlog after an outage ----------------------------------------------------------


@dataclass(frozen=True)
class Outage:
    """The scenario of the backlog (defaults: the measured set-up, other values argued)."""

    outage_min: float = 20.0  # system down before IPL starts, min (not published: a slider)
    db2_start_min: float = 10.0  # Db2 restarted this long after IPL (quoted: about 10 min)
    arrival_ratio: float = 0.8  # arrivals as a fraction of the normal capacity (not published)
    base_engines: float = 4.0  # 2 CPs + 2 zIIPs
    boost_engines: float = 4.0  # reserved zIIPs brought online by the boost (measured: 4)
    boost_window_min: float = 60.0  # the zIIP boost lasts 1 hour after IPL
    contention: float = 0.01  # extra cost per transaction per minute of backlog (latch waits)
    horizon_min: float = 240.0  # how far the timeline runs


def check_outage(o: Outage) -> Outage:
    """Validate every field of an :class:`Outage`, naming the field and its range."""
    v.non_negative("outage_min", o.outage_min, unit="min")
    v.non_negative("db2_start_min", o.db2_start_min, unit="min")
    v.positive("arrival_ratio", o.arrival_ratio)
    v.positive("base_engines", o.base_engines)
    v.non_negative("boost_engines", o.boost_engines)
    v.in_range("boost_window_min", o.boost_window_min, 0.0, MAX_BOOST_WINDOW_MIN, unit="min")
    v.non_negative("contention", o.contention, unit="per minute of backlog")
    v.in_range("horizon_min", o.horizon_min, 1.0, 24 * 60.0, unit="min")
    return o


def backlog_timeline(o: Outage, dt_min: float = 0.25) -> dict[str, np.ndarray]:
    """Integrate the fluid backlog from IPL to the horizon (explicit Euler, step ``dt_min``).

    Returns arrays over ``t_min`` (minutes since IPL): ``backlog`` (minutes of arrivals
    waiting), ``etr`` (throughput, fraction of normal capacity), ``capacity``, ``utilisation``
    (share of online engines busy) and ``wait_min`` (how long a transaction arriving then
    waits, by Little's law: backlog / throughput; before Db2 starts, the time to its start plus
    the backlog over the first capacity).
    """
    check_outage(o)
    dt = float(v.in_range("dt_min", dt_min, 1e-3, 5.0, unit="min"))
    t = np.arange(0.0, o.horizon_min + dt / 2, dt)
    lam = o.arrival_ratio
    q = lam * o.outage_min  # arrivals while the system was down, in "minutes of normal capacity"
    backlog, etr, capacity, util = (np.zeros_like(t) for _ in range(4))
    for i, now in enumerate(t):
        engines = o.base_engines + (o.boost_engines if now < o.boost_window_min else 0.0)
        cost = 1.0 + o.contention * (q / lam)  # CPU per transaction grows with the backlog
        cap = (engines / o.base_engines) / cost if now >= o.db2_start_min else 0.0
        served = min(cap, lam + q / dt) if cap > 0 else 0.0
        backlog[i], etr[i], capacity[i] = q, served, cap
        util[i] = served / cap if cap > 0 else 0.0
        q = max(0.0, q + (lam - served) * dt)
    # before Db2 is back, a transaction waits for the restart and then behind the backlog
    start = int(np.searchsorted(t, o.db2_start_min))
    first_capacity = capacity[min(start, len(t) - 1)]
    with np.errstate(divide="ignore", invalid="ignore"):
        served = np.where(etr > 0, backlog / np.where(etr > 0, etr, 1.0), 0.0)
        before = (o.db2_start_min - t) + backlog / first_capacity if first_capacity > 0 else np.zeros_like(t)
    wait = np.where(t < o.db2_start_min, before, served)
    return {"t_min": t, "backlog": backlog, "etr": etr, "capacity": capacity, "utilisation": util,
            "wait_min": wait}


def time_to_clear(o: Outage, dt_min: float = 0.25) -> float:
    """Minutes after IPL when the backlog first empties after Db2 starts; ``inf`` if it never
    does within the horizon (arrivals exceed the capacity that the contention leaves)."""
    tl = backlog_timeline(o, dt_min)
    after = (tl["t_min"] > o.db2_start_min) & (tl["backlog"] <= 1e-9)
    return float(tl["t_min"][after][0]) if after.any() else float("inf")


# --- 3. closed-loop response time (mean-value analysis) ---------------------------------------


def mva_closed_loop(users, think_s: float, demand_s: float, engines: int) -> dict[str, np.ndarray]:
    """Exact MVA for ``users`` with think time against one station of ``engines`` servers.

    ``demand_s`` is the CPU seconds per transaction. Returns, for every population up to the
    largest asked, ``response_s`` and ``throughput`` (transactions/s), picked at ``users``.
    """
    n_users = v.in_range("users", users, 1, 5000)
    z = float(v.non_negative("think_s", think_s, unit="s"))
    d = float(v.positive("demand_s", demand_s, unit="s"))
    m = int(v.in_range("engines", engines, 1, 256))
    top = int(np.max(n_users))
    # marginal queue-length probabilities of the multi-server station (Reiser & Lavenberg)
    probs = np.zeros(top + 1)
    probs[0] = 1.0
    rates = np.minimum(np.arange(1, top + 1), m)  # service rate multiplier with j jobs present
    resp = np.zeros(top + 1)
    thru = np.zeros(top + 1)
    for n in range(1, top + 1):
        j = np.arange(1, n + 1)
        r = d * np.sum(j / rates[:n] * probs[:n])
        x = n / (z + r)
        new = np.zeros_like(probs)
        new[1:n + 1] = x * d / rates[:n] * probs[:n]
        new[0] = max(0.0, 1.0 - new[1:n + 1].sum())
        probs = new
        resp[n], thru[n] = r, x
    idx = np.asarray(n_users).astype(int)
    return {"response_s": resp[idx], "throughput": thru[idx]}
