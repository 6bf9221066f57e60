"""Seeded problem generators for the System Recovery Boost chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers,
computed by the chapter's models; ``check(seed, part=value)`` marks a student's answers (1%).
Shell: ``python -m widgets.system_recovery_boost.exercises -s 7 [-c]``.
"""
from __future__ import annotations

import numpy as np

from ..exercise_kit import Generator, Problem
from . import model



def _amdahl(rng, seed):
    n1 = int(rng.choice([2, 4, 6]))
    n2 = n1 * int(rng.choice([2, 3]))
    serial = float(rng.uniform(5, 60))
    parallel = float(rng.uniform(300, 1500))
    t1, t2 = (round(float(model.amdahl_time(n, serial, parallel)), 2) for n in (n1, n2))
    s, p = model.amdahl_through_two_points(n1, t1, n2, t2)
    text = (f"Forward log recovery took {t1} s on {n1} engines and {t2} s on {n2} engines.\n"
            "  (a) serial_s and (b) parallel_s: the Amdahl parts T(N) = s + p/N through both points;\n"
            "  (c) t_at_10: the predicted time on 10 engines;\n"
            "  (d) limit_speedup: the largest speed-up over the first run that any number of engines could give.")
    answers = {"serial_s": s, "parallel_s": p, "t_at_10": float(model.amdahl_time(10, s, p)),
               "limit_speedup": t1 / s}
    return Problem(seed, "amdahl", text, answers, {"serial_s": "s", "parallel_s": "s", "t_at_10": "s",
                                                   "limit_speedup": "x"})


def _min_tasks(rng, seed):
    a = int(rng.choice([2, 4, 6]))
    b = a * 2
    speedup = round(float(rng.uniform(1.1, 1.95)), 3)
    text = (f"Recovery ran {speedup}x faster on {b} engines than on {a}. With at most k parallel apply tasks,\n"
            "T(N) = s + W / min(k, N) with s >= 0.\n"
            "  (a) min_tasks: the fewest tasks k that can explain that speed-up.")
    return Problem(seed, "min_tasks", text, {"min_tasks": float(model.min_tasks_for_speedup(speedup, a, b))},
                   {"min_tasks": "tasks"})


def _boost_capacity(rng, seed):
    outage = float(rng.integers(10, 60))
    lam = round(float(rng.uniform(0.5, 0.9)), 2)
    start = float(rng.integers(5, 20))
    window = 60.0
    backlog = lam * (outage + start)  # minutes of normal capacity waiting when Db2 starts
    needed = lam + backlog / (window - start)
    text = (f"A system was down {outage:g} min before IPL and Db2 restarts {start:g} min after IPL. Work keeps\n"
            f"arriving at {lam} of the normal capacity. With no contention (a fluid queue):\n"
            "  (a) backlog: the work waiting when Db2 starts, in minutes of normal capacity;\n"
            "  (b) clear_unboosted: minutes after IPL when it is cleared at normal capacity (1.0);\n"
            "  (c) capacity_needed: the capacity (x normal) that clears it by the end of the 60-min boost window.")
    answers = {"backlog": backlog, "clear_unboosted": start + backlog / (1.0 - lam), "capacity_needed": needed}
    return Problem(seed, "boost_capacity", text, answers, {"backlog": "min", "clear_unboosted": "min",
                                                           "capacity_needed": "x normal"})


def _middleware_budget(rng, seed):
    restarts = int(rng.integers(3, 12))
    per_boost, budget = 5.0, 30.0
    text = (f"A z16 system restarts {restarts} started tasks a day that each trigger a middleware boost of\n"
            f"{per_boost:g} min; the limit is {budget:g} min of Recovery Boost per system per day.\n"
            "  (a) boosts_per_day: how many boosts fit in the daily budget;\n"
            "  (b) unboosted_restarts: how many of the day's restarts get no boost.")
    fit = budget // per_boost
    return Problem(seed, "middleware_budget", text,
                   {"boosts_per_day": fit, "unboosted_restarts": float(max(0, restarts - fit))},
                   {"boosts_per_day": "boosts", "unboosted_restarts": "restarts"})


_BUILDERS = {"amdahl": _amdahl, "min_tasks": _min_tasks, "boost_capacity": _boost_capacity,
             "middleware_budget": _middleware_budget}


KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded System Recovery Boost problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
