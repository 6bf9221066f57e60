"""Seeded problem generators for the SAP Banking chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's models; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.sap_banking.exercises -s 7 [-c]``.
"""
from __future__ import annotations

from ..exercise_kit import Generator, Problem
from . import model

#: Slider values the chapter asks the reader to set: (figure, slider, value, exercise label or "text"
#: for the prose, "static" or "live" surface[, the glue name when the text glues the value from the model
#: instead of typing it]). tests/test_sliders.py checks each is a slider position.
SLIDER_VALUES = (
    ("cf", "cf_capacity", 1.35, "sap-ex-cf", "static", "sap_ceiling_cf2_capacity"),  # "Use the CF figure's slider"
)


def _throughput(rng, seed):
    ds = round(float(rng.uniform(80, 2000)), 2)
    busy = round(float(rng.uniform(60, 95)), 2)
    text = (f"A Posting run delivers {ds:,} dialog steps per second with the database server {busy}% busy.\n"
            "One Posting cycle is 15 dialog steps and posts 175 items.\n"
            "  (a) etr_postings_per_hour: the ETR in postings per hour;\n"
            "  (b) itr_ds_per_s: the DB ITR in dialog steps per second;\n"
            "  (c) itr_postings_per_hour: the DB ITR in postings per hour.")
    itr = model.itr(ds, busy / 100)
    return Problem(seed, "throughput", text,
                   {"etr_postings_per_hour": model.postings_per_hour(ds), "itr_ds_per_s": itr,
                    "itr_postings_per_hour": model.postings_per_hour(itr)},
                   {"etr_postings_per_hour": "postings/h", "itr_ds_per_s": "DS/s",
                    "itr_postings_per_hour": "postings/h"})


def _scaling(rng, seed):
    lam = round(float(rng.uniform(40, 70)), 1)
    sigma = round(float(rng.uniform(0.005, 0.04)), 4)
    kappa = float(rng.choice([0.0, 0.00002, 0.00005, 0.0001]))
    p = int(rng.choice([24, 48, 64, 80, 100, 120]))
    text = (f"A database's ITR follows the Universal Scalability Law with lam = {lam} DS/s per processor,\n"
            f"sigma = {sigma} and kappa = {kappa:g}.\n"
            f"  (a) itr_ds_per_s: its ITR on {p} processors;\n"
            "  (b) per_processor: that ITR per processor;\n"
            "  (c) itrr: the ITRR of that configuration against 2 processors;\n"
            "  (d) peak_processors: where the ITR peaks (enter 0 if it never does, kappa = 0).")
    itr = model.usl(p, lam, sigma, kappa)
    peak = model.usl_peak_processors(sigma, kappa)
    return Problem(seed, "scaling", text,
                   {"itr_ds_per_s": itr, "per_processor": itr / p,
                    "itrr": model.itrr(itr, model.usl(2, lam, sigma, kappa)),
                    "peak_processors": 0.0 if peak == float("inf") else peak},
                   {"itr_ds_per_s": "DS/s", "per_processor": "DS/s per CP", "itrr": "x", "peak_processors": "CPs"})


def _sizing(rng, seed):
    lam = round(float(rng.uniform(45, 65)), 1)
    sigma = round(float(rng.uniform(0.01, 0.03)), 4)
    ceiling = model.amdahl_ceiling(lam, sigma)
    target = round(float(rng.uniform(0.3, 0.8)) * ceiling, -1)
    text = (f"Amdahl's law fits a database's ITR with lam = {lam} DS/s per processor and sigma = {sigma}.\n"
            f"  (a) processors: how many processors give an ITR of {target:,.0f} DS/s (a fraction is fine);\n"
            "  (b) ceiling_ds_per_s: the ITR no number of processors reaches;\n"
            "  (c) per_processor: the ITR per processor at the answer to (a).")
    p = model.processors_for(target, lam, sigma)
    return Problem(seed, "sizing", text, {"processors": p, "ceiling_ds_per_s": ceiling, "per_processor": target / p},
                   {"processors": "CPs", "ceiling_ds_per_s": "DS/s", "per_processor": "DS/s per CP"})


def _little(rng, seed):
    wps = int(rng.integers(10, 160)) * 8
    etr = round(float(wps * rng.uniform(1.0, 1.5)), 2)
    response = round(float(rng.uniform(0.6, 2.8)), 3)
    text = (f"An SAP system runs {wps} dialog work processes; it completes {etr:,} dialog steps per second with\n"
            f"a mean response time of {response} s.\n"
            "  (a) in_system: dialog steps in the system, by Little's law;\n"
            "  (b) per_work_process: dialog steps in the system per work process;\n"
            "  (c) outside_s: the least time a dialog step spends outside a work process (queued), in seconds,\n"
            "      if every work process were busy all the time (enter 0 if none need be).")
    n = model.littles_law(etr, response)
    return Problem(seed, "little", text,
                   {"in_system": n, "per_work_process": n / wps, "outside_s": max(response - wps / etr, 0.0)},
                   {"in_system": "dialog steps", "per_work_process": "x", "outside_s": "s"})


def _coupling(rng, seed):
    etr = round(float(rng.uniform(300, 1500)), 1)
    busy = round(float(rng.uniform(5, 40)), 1)
    factor = round(float(rng.uniform(1.2, 2.5)), 2)
    text = (f"A lock-structure CF is {busy}% busy at {etr:,} dialog steps per second, and its busy grows in\n"
            "proportion to the dialog steps.\n"
            f"  (a) busy_pct: its busy at {factor} times the throughput;\n"
            "  (b) etr_at_50: the throughput (DS/s) at which it reaches 50% busy;\n"
            "  (c) capacity_needed: how many times the CF's capacity keeps it at 50% at the throughput of (a).")
    cost = busy / etr
    new = model.cf_busy_pct(etr * factor, cost)
    return Problem(seed, "coupling", text,
                   {"busy_pct": new, "etr_at_50": 50 / cost, "capacity_needed": max(new / 50, 1.0)},
                   {"busy_pct": "%", "etr_at_50": "DS/s", "capacity_needed": "x"})


def _balancing(rng, seed):
    accounts = int(rng.integers(20, 200)) * 1_000_000
    hours = round(float(rng.uniform(2, 8)), 2)
    spread = round(float(rng.uniform(0.2, 3.0)), 1)
    longest = hours * 3600
    text = (f"A Balancing batch processes {accounts:,} accounts in parallel jobs; the last job finishes after\n"
            f"{longest:,.0f} s, the average job {spread}% sooner.\n"
            "  (a) accounts_per_s and (b) accounts_per_hour: the batch's ETR (set by the longest job);\n"
            "  (c) if_all_average: the accounts per hour had every job taken the average time.")
    etr = model.balancing_etr(accounts, longest)
    avg = model.balancing_etr(accounts, longest * (1 - spread / 100))
    return Problem(seed, "balancing", text,
                   {"accounts_per_s": etr, "accounts_per_hour": 3600 * etr, "if_all_average": 3600 * avg},
                   {"accounts_per_s": "accounts/s", "accounts_per_hour": "accounts/h", "if_all_average": "accounts/h"})


_BUILDERS = {"throughput": _throughput, "scaling": _scaling, "sizing": _sizing, "little": _little,
             "coupling": _coupling, "balancing": _balancing}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded SAP Banking problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
