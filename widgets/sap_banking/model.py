"""The SAP Banking chapter's models: pure numpy, no data, no plotting.

Units: throughput in dialog steps per second (DS/s), processors as a count of z196 CPs, CPU and
coupling-facility utilisations as fractions or percent (each function says which), times in
seconds. Every function takes numbers or numpy arrays and raises ``ValueError`` naming the
parameter and its valid range on bad input; nothing is clamped.

* LSPR's throughput rates: ETR (what the system delivered), ITR = ETR / CPU busy (what it would
  deliver with its processors 100% busy) and ITRR (one ITR over another).
* Two scaling laws for ITR against processors: Amdahl's law (a serial share ``sigma``) and Gunther's
  Universal Scalability Law (``sigma`` plus a coherency term ``kappa`` that makes throughput peak).
* Little's law, N = X R, and the coupling facility's busy as a cost per dialog step times the rate.
"""
from __future__ import annotations

import math

import numpy as np

from ..validation import in_range, non_negative, positive

#: Postings per Posting cycle and dialog steps per cycle (the brief's section 6.1, Table 1).
POSTINGS_PER_CYCLE = 175
DIALOG_STEPS_PER_CYCLE = 15
SECONDS_PER_HOUR = 3600.0


def _out(x: np.ndarray):
    """A 0-d result as a Python float, an array as an array."""
    return float(x) if np.ndim(x) == 0 else x


def postings_per_hour(ds_per_s):
    """Postings per hour from dialog steps per second: DS/s x 3600 x 175 / 15 (one cycle is 15
    dialog steps that post 175 items)."""
    x = non_negative("ds_per_s", ds_per_s, "DS/s")
    return _out(x * SECONDS_PER_HOUR * POSTINGS_PER_CYCLE / DIALOG_STEPS_PER_CYCLE)


def itr(etr, cpu_busy):
    """Internal throughput rate (same unit as ``etr``): ETR / CPU busy, ``cpu_busy`` a fraction in (0, 1].

    LSPR's ITR is the rate the processors would deliver 100% busy; the brief computes it on the
    database server's utilisation only ("DB ITR").
    """
    x = non_negative("etr", etr)
    u = in_range("cpu_busy", cpu_busy, 0.0, 1.0, low_inclusive=False, unit="(a fraction; 85% is 0.85)")
    return _out(x / u)


def itrr(itr_value, itr_reference):
    """Internal throughput rate ratio (dimensionless): one configuration's ITR over a reference's."""
    a = non_negative("itr_value", itr_value)
    b = positive("itr_reference", itr_reference)
    return _out(a / b)


def check_processors(p):
    """Processors as a float array, at least one (ValueError otherwise)."""
    return in_range("processors", p, 1.0, math.inf, unit="processors (at least one)")


def check_sigma(sigma):
    """The contention share sigma, in [0, 1] (ValueError otherwise)."""
    return in_range("sigma", sigma, 0.0, 1.0, unit="(contention: a fraction of the work that serialises)")


def check_kappa(kappa):
    """The coherency cost kappa, in [0, 1] (ValueError otherwise)."""
    return in_range("kappa", kappa, 0.0, 1.0, unit="(coherency: a cost per pair of processors)")


def usl(processors, lam, sigma, kappa=0.0):
    """Throughput (unit of ``lam``) on ``processors`` by the Universal Scalability Law:

        X(p) = lam p / (1 + sigma (p - 1) + kappa p (p - 1))

    ``lam`` is the single-processor throughput (DS/s), ``sigma`` the contention share (0..1: waits
    for a resource only one user at a time can hold), ``kappa`` the coherency cost (0..1: work that
    grows with every pair of processors that must agree). ``kappa = 0`` is Amdahl's law.
    """
    p = check_processors(processors)
    lam_ = positive("lam", lam, "DS/s per processor")
    s, k = check_sigma(sigma), check_kappa(kappa)
    return _out(lam_ * p / (1 + s * (p - 1) + k * p * (p - 1)))


def amdahl(processors, lam, sigma):
    """Throughput on ``processors`` by Amdahl's law, X(p) = lam p / (1 + sigma (p - 1)) (unit of ``lam``)."""
    return usl(processors, lam, sigma, 0.0)


def amdahl_ceiling(lam, sigma):
    """Amdahl's limit as processors grow without bound, lam / sigma (unit of ``lam``; inf when sigma is 0)."""
    lam_ = float(positive("lam", lam, "DS/s per processor"))
    s = float(check_sigma(sigma))
    return math.inf if s == 0 else lam_ / s


def usl_peak_processors(sigma, kappa):
    """Processors at which the USL's throughput peaks, sqrt((1 - sigma) / kappa); inf when kappa is 0."""
    s, k = float(check_sigma(sigma)), float(check_kappa(kappa))
    return math.inf if k == 0 else math.sqrt((1 - s) / k)


def processors_for(target, lam, sigma):
    """Processors Amdahl's law needs to reach ``target`` throughput (unit of ``lam``):
    p = target (1 - sigma) / (lam - target sigma). Raises ValueError when the target is at or above
    the ceiling lam / sigma, which no number of processors reaches."""
    x = positive("target", target)
    lam_ = float(positive("lam", lam, "DS/s per processor"))
    s = float(check_sigma(sigma))
    ceiling = math.inf if s == 0 else lam_ / s
    if np.any(x >= ceiling):
        raise ValueError(f"target={float(np.max(x)):g} is out of range; valid range is (0, {ceiling:g}) "
                         f"(Amdahl's ceiling lam / sigma: no number of processors reaches it)")
    return _out(x * (1 - s) / (lam_ - x * s))


def littles_law(throughput, response_s):
    """Work in the system (count) by Little's law, N = X R: ``throughput`` per second times the
    mean time ``response_s`` (s) each unit spends in the system."""
    x = non_negative("throughput", throughput, "per second")
    r = non_negative("response_s", response_s, "s")
    return _out(x * r)


def cf_busy_pct(etr, cost_pct_per_ds, capacity=1.0):
    """A coupling facility's busy (percent) when each dialog step costs ``cost_pct_per_ds`` percent
    of the measured CF's capacity per DS/s, at ``etr`` DS/s, on a CF ``capacity`` times as fast."""
    x = non_negative("etr", etr, "DS/s")
    c = non_negative("cost_pct_per_ds", cost_pct_per_ds, "% per DS/s")
    cap = positive("capacity", capacity, "x the measured CF")
    return _out(x * c / cap)


def rate_per_step(rate, etr):
    """Any per-second rate (I/Os, MB, log writes) divided by the dialog-step rate: the amount per dialog step."""
    r = non_negative("rate", rate, "per second")
    x = positive("etr", etr, "DS/s")
    return _out(r / x)


def balancing_etr(accounts, longest_job_s):
    """Balancing throughput (accounts/s): all accounts over the elapsed time of the longest job (s)."""
    n = positive("accounts", accounts, "accounts")
    t = positive("longest_job_s", longest_job_s, "s")
    return _out(n / t)
