"""Seeded problem generators for the large-memory chapter (in the spirit of OSTEP's homework).

``generate(seed)`` prints a problem; the same seed always gives the same problem.
``generate(seed, answers=True)`` prints it with the answers, computed by the chapter's models.
``check(seed, part=value, ...)`` tells a student which parts are right (within 1%).

Run from a shell: ``python -m widgets.large_memory.exercises --seed 7 [--answers]``.
"""
from __future__ import annotations

import numpy as np

from ..exercise_kit import Generator, Problem
from . import model

#: Slider values the chapter asks the reader to set: (figure, slider, value, exercise label or "text"
#: for the prose, "static" or "live" surface). tests/test_sliders.py checks each is a slider position.
SLIDER_VALUES = (
    ("request_time", "exponent", 1.0, "text", "static"),
    ("request_time", "exponent", 1.0, "lm-ex-linear", "static"),
    ("group_scaling", "gbp_dependent_fraction", 0.59, "lm-ex-gbp", "static"),
)


def _io_not_ratio(rng: np.random.Generator, seed: int) -> Problem:
    getpages = float(rng.integers(150, 600)) * 1000  # per second
    h1 = round(float(rng.uniform(0.85, 0.93)), 4)
    h2 = round(float(rng.uniform(0.975, 0.999)), 4)
    cpu_us = float(rng.integers(20, 60))
    cps = int(rng.choice([6, 8, 12, 16]))
    avoided = getpages * (h2 - h1)  # every miss here is a synchronous read
    cpu_saved = avoided * cpu_us * 1e-6  # CPs
    text = (f"A system does {getpages:,.0f} random getpages per second. Growing its buffer pools raises the\n"
            f"hit ratio from {100 * h1:.2f}% to {100 * h2:.2f}%. Assume every miss is a synchronous read costing\n"
            f"{cpu_us:.0f} µs of CPU, on a machine with {cps} CPs.\n"
            "  (a) sync_reads_before: synchronous reads per second before;\n"
            "  (b) sync_reads_after: after;\n"
            "  (c) reduction_pct: the reduction in synchronous reads, in percent;\n"
            "  (d) cps_saved: CPU saved, in CPs (engines) of capacity;\n"
            "  (e) capacity_pct: that saving as a percent of the machine.")
    before, after = getpages * (1 - h1), getpages * (1 - h2)
    answers = {"sync_reads_before": before, "sync_reads_after": after,
               "reduction_pct": 100 * (1 - after / before), "cps_saved": cpu_saved,
               "capacity_pct": 100 * cpu_saved / cps}
    units = {"sync_reads_before": "/s", "sync_reads_after": "/s", "reduction_pct": "%", "cps_saved": "CPs",
             "capacity_pct": "%"}
    return Problem(seed, "io_not_ratio", text, answers, units)


def _memory_accounting(rng: np.random.Generator, seed: int) -> Problem:
    members = int(rng.choice([2, 3, 4, 6, 8]))
    lbp = float(rng.choice([29, 58, 115, 230, 300]))
    gbp = float(rng.choice([52, 64, 103, 204, 398]))
    added_lbp = float(rng.choice([50, 100, 172]))
    text = (f"A data-sharing group has {members} members, each with {lbp:g} GB of local buffer pools, and\n"
            f"{gbp:g} GB of group buffer pools. The group buffer pools must be able to be rebuilt in a second\n"
            "coupling facility.\n"
            "  (a) total_gb: real memory the pools need today;\n"
            f"  (b) extra_lbp_gb: the extra memory if every member's local pools grow by {added_lbp:g} GB;\n"
            f"  (c) extra_gbp_gb: the extra memory if instead the group buffer pools grow by {added_lbp:g} GB.")
    total = float(model.memory_needed_gb(lbp, gbp, members))
    answers = {"total_gb": total,
               "extra_lbp_gb": float(model.memory_needed_gb(lbp + added_lbp, gbp, members)) - total,
               "extra_gbp_gb": float(model.memory_needed_gb(lbp, gbp + added_lbp, members)) - total}
    return Problem(seed, "memory_accounting", text, answers, {k: "GB" for k in answers})


def _itr_vs_cpu(rng: np.random.Generator, seed: int) -> Problem:
    base_ms = round(float(rng.uniform(6, 14)), 2)
    cpu_us = float(rng.integers(25, 60))
    r1 = round(float(rng.uniform(30, 90)), 1)
    r2 = round(float(rng.uniform(0.5, 12)), 1)
    cps = 12
    machine = model.Machine(cps, base_ms, cpu_us)
    i1, i2 = model.itr(np.array([r1, r2]), machine)
    text = (f"A {cps}-CP system spends {base_ms} ms of CPU per transaction plus {cpu_us:.0f} µs per synchronous\n"
            f"read. Larger pools cut the sync reads per transaction from {r1} to {r2}.\n"
            "  (a) itr_before and (b) itr_after: the ITR, transactions per second at 100% busy;\n"
            "  (c) itr_gain_pct: the ITR gain, in percent;\n"
            "  (d) cpu_saving_pct: the saving in CPU per transaction, in percent.\n"
            "Why are (c) and (d) different numbers?")
    answers = {"itr_before": float(i1), "itr_after": float(i2), "itr_gain_pct": 100 * float(i2 / i1 - 1),
               "cpu_saving_pct": 100 * float(1 - i1 / i2)}
    units = {"itr_before": "/s", "itr_after": "/s", "itr_gain_pct": "%", "cpu_saving_pct": "%"}
    return Problem(seed, "itr_vs_cpu", text, answers, units)


def _closed_loop(rng: np.random.Generator, seed: int) -> Problem:
    users = float(rng.choice([4000, 7680, 10560, 15000]))
    think = round(float(rng.uniform(6, 14)), 2)
    r1 = round(float(rng.uniform(0.5, 0.8)), 3)
    r2 = round(float(rng.uniform(0.15, 0.3)), 3)
    loop = model.ClosedLoop(users, think)  # the DB request time per dialog step, as the chapter reads it
    x1, x2 = model.etr(np.array([r1, r2]), loop)
    text = (f"{users:,.0f} users each spend {think} s per dialog step outside the database. Larger pools cut\n"
            f"the DB request time per dialog step from {r1} s to {r2} s; the time outside stays the same.\n"
            "  (a) etr_before and (b) etr_after: dialog steps per second (Little's law, N = X (Z + R));\n"
            "  (c) etr_gain_pct: the throughput gain, in percent.")
    answers = {"etr_before": float(x1), "etr_after": float(x2), "etr_gain_pct": 100 * float(x2 / x1 - 1)}
    units = {"etr_before": "/s", "etr_after": "/s", "etr_gain_pct": "%"}
    return Problem(seed, "closed_loop", text, answers, units)


_BUILDERS = {"io_not_ratio": _io_not_ratio, "memory_accounting": _memory_accounting,
             "itr_vs_cpu": _itr_vs_cpu, "closed_loop": _closed_loop}


KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded large-memory problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
