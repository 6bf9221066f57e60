"""Seeded problem generators for the System Recovery Boost chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers,
computed by the chapter's models; ``check(seed, part=value)`` marks a student's answers (1%).
Shell: ``python -m widgets.system_recovery_boost.exercises -s 7 [-c]``.
"""
from __future__ import annotations

import numpy as np

from ..exercise_kit import Generator, Part, Problem, diagnosis
from . import model
from . import published as P



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


def boost_decision(facts: dict) -> dict:
    """The rule the worked solution states, applied to a diagnosis problem's ``facts`` (times in minutes after
    IPL, work in minutes of normal capacity).

    The chapter's fluid queue without contention: work waits from the outage until Db2 is back, then the
    engines online serve it at ``(base + boost) / base`` times normal capacity while the boost lasts and at
    1 after. The boost clears the backlog when the clearing time falls inside the window; otherwise Db2
    must be back by ``latest_start_min`` = (window (c - λ) - λ outage) / c.
    """
    lam, window = facts["arrival_ratio"], facts["window_min"]
    boosted = (facts["base_engines"] + facts["boost_engines"]) / facts["base_engines"]
    start = facts["db2_start_min"]
    backlog = lam * (facts["outage_min"] + start)
    in_window = start + backlog / (boosted - lam)
    if in_window <= window:
        clear = in_window
    else:  # what the boost leaves, cleared at normal capacity
        clear = window + (backlog - (boosted - lam) * (window - start)) / (1.0 - lam)
    return {"backlog_min": backlog, "capacity_boosted": boosted, "clear_min": clear,
            "clears_in_window": bool(clear <= window),
            "latest_start_min": (window * (boosted - lam) - lam * facts["outage_min"]) / boosted}


def _diagnose(rng, seed):
    cps, ziips = int(rng.integers(2, 9)), int(rng.integers(1, 7))
    facts = {"cps": cps, "ziips": ziips, "base_engines": cps + ziips,
             "boost_engines": int(rng.integers(1, cps + ziips + 1)),
             "outage_min": int(rng.integers(5, 61)), "db2_start_min": int(rng.integers(5, 31)),
             "arrival_ratio": round(float(rng.uniform(0.5, 0.9)), 2),
             "window_min": P.quoted("configuration", "boost_duration_after_ipl_min")}
    d = boost_decision(facts)
    text = (f"An LPAR with {cps} CPs and {ziips} zIIPs went down unplanned; it was "
            f"{facts['outage_min']} min before the "
            "IPL started,\nand the Db2 restart messages show Db2 open for work "
            f"{facts['db2_start_min']} min after IPL. "
            f"The RMF BOOST column shows\n'I' (a zIIP boost), and message IEA675I says the boost brought "
            f"{facts['boost_engines']} transient zIIP cores online for\n{facts['window_min']:g} min after IPL. "
            f"On a normal day at this hour the work arriving keeps "
            f"{facts['arrival_ratio']:.0%} of the normal capacity busy.\nTreat the work as a fluid "
            "that any online engine "
            "can serve, with no contention (the chapter's queue with κ = 0).")
    parts = [Part("backlog_min", d["backlog_min"], "min",
                  "the work waiting when Db2 is back, in minutes of normal capacity"),
             Part("clear_min", d["clear_min"], "min after IPL", "minutes after IPL when the backlog is cleared"),
             Part("clears_in_window", d["clears_in_window"], "", "1 if that is inside the boost window, 0 if not"),
             Part("latest_start_min", d["latest_start_min"], "min after IPL",
                  "the latest Db2 restart (minutes after IPL) that still clears inside the window\n"
                  "      (negative if even an instant restart would not)")]
    return diagnosis(seed, text, "Will the boost clear the backlog, and if not, what must change?", parts, facts, d,
                     _boost_solution(facts, d))


def _boost_solution(facts: dict, d: dict) -> str:
    """The worked solution of a diagnosis problem, in words, citing the Redbook."""
    lam, c, start = facts["arrival_ratio"], d["capacity_boosted"], facts["db2_start_min"]
    table = P.restart(P.UNPLANNED)
    forward = table.loc["boost", "forward_log_recovery_s"] / table.loc["no_boost", "forward_log_recovery_s"]
    steps = [f"Work piles up from the outage until Db2 is back: {lam} x ({facts['outage_min']} + {start}) = "
             f"{d['backlog_min']:.1f} minutes of normal capacity.",
             f"While the boost lasts the engines online are ({facts['base_engines']} + {facts['boost_engines']}) / "
             f"{facts['base_engines']} = {c:.2f} times normal, so the backlog drains at {c:.2f} - "
             f"{lam} = {c - lam:.2f} "
             f"per minute: cleared at {d['clear_min']:.1f} min after IPL."]
    if d["clears_in_window"]:
        steps.append(f"Decision: yes, inside the {facts['window_min']:g}-minute window (the zIIP boost lasts an hour: "
                     f"{P.cite(P.QUOTED, 'configuration', 'boost_duration_after_ipl_min')}). Db2 could even have "
                     f"come back as late as {d['latest_start_min']:.1f} min after IPL.")
    else:
        late = (f"Db2 would have to be open by {d['latest_start_min']:.1f} min after IPL, not {start}"
                if d["latest_start_min"] > 0 else "even a Db2 open at the moment of IPL would not be enough")
        steps.append(f"Decision: no. The window ends first, and the rest drains at only {1 - lam:.2f} per minute once "
                     f"the boost is gone. {late}. What to change: bring Db2 back sooner (restart automation; and, as "
                     "general Db2 practice the Redbook did not measure, more frequent checkpoints so forward log "
                     "recovery has less to re-apply, and no long-running units of recovery so backward recovery has "
                     "less to back out), hold back deferrable work until the backlog is gone, or have more zIIP "
                     "capacity available to the boost (reserved zIIPs that physical zIIPs can back: unused zIIPs "
                     "in the CPC's shared pool or a temporary upgrade record, by z/OS's documentation, not the "
                     "Redbook).")
    steps.append("Three cautions. During the boost any work may run on the zIIPs (the zIIP boost makes "
                 "\"general-purpose work available to run on zIIP processors\", SG24-8536, §3.5); once it ends, work "
                 "that is not zIIP-eligible is back on the CPs alone, so the post-boost drain of CP-bound work is "
                 "slower than the fluid's 'normal capacity' (CPs + zIIPs) suggests. The boost can shorten the "
                 "restart itself too: in the Redbook's test (2 CPs + 2 zIIPs, 4 reserved zIIPs) forward log recovery "
                 f"took {forward:.2f} of its unboosted time in "
                 f"{P.cite(P.UNPLANNED, 'boost', 'forward_log_recovery_s')}; a system that adds capacity in another "
                 "proportion will gain another share. "
                 "And κ = 0 is the optimist's answer: if contention grows with the backlog, as our model's κ "
                 "assumes (the Redbook does not say it does), then with the chapter's "
                 f"assumed κ = {model.Outage.contention:g} the model clears it "
                 + _with_contention(facts) + ".")
    return "\n\n".join(steps)


def _with_contention(facts: dict) -> str:
    """When the chapter's model (with its default contention) clears the same backlog, in words."""
    o = model.Outage(outage_min=facts["outage_min"], db2_start_min=facts["db2_start_min"],
                     arrival_ratio=facts["arrival_ratio"], base_engines=facts["base_engines"],
                     boost_engines=facts["boost_engines"], boost_window_min=facts["window_min"])
    t = model.time_to_clear(o)
    return f"at {t:.0f} min after IPL" if np.isfinite(t) else f"not within {o.horizon_min:.0f} min"


_BUILDERS = {"amdahl": _amdahl, "min_tasks": _min_tasks, "boost_capacity": _boost_capacity,
             "middleware_budget": _middleware_budget, "diagnose": _diagnose}


KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded System Recovery Boost problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
