"""Every fit of the SAP Banking chapter, and the one map from slider values to model inputs.

All fits are least squares on the brief's Table 3 (six Posting runs, 2 to 60 processors, the same
database and parameters). Nothing is pinned to make one number come out:

* the scaling laws (Amdahl, USL) on DB ITR against processors, by *relative* least squares (each
  run's error counts as a share of its own ITR, so the 2-processor run weighs as much as the
  60-processor one), and once more without each run in turn (leave-one-out) to predict it;
* each coupling facility's busy as a cost per dialog step (a line through the origin), by least
  squares in points of busy, the unit the chapter judges it in; leave-one-out again;
* database I/Os, log megabytes and dialog steps per work process, each a constant per dialog step
  (relative least squares), to set the sliders' calibrated defaults.

Each fit is cached (``functools.lru_cache``): the data do not change within a session.
:func:`scenario` is the only place slider names become model inputs; the figures' curves and the
explorer's readouts both call it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

import numpy as np

from .. import fitting
from ..fitting import relative_nonlinear_least_squares, relative_linear_least_squares, through_origin
from ..validation import non_negative, positive
from . import model as m
from . import published as pub

PROCESSORS_MEASURED_MAX = 60


# --- the scaling laws --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scaling:
    """A scaling law's terms: ``lam`` DB ITR of one processor (DS/s), ``sigma`` contention, ``kappa`` coherency."""

    lam: float
    sigma: float
    kappa: float = 0.0

    def itr(self, processors):
        """DB ITR (DS/s) on ``processors``."""
        return m.usl(processors, self.lam, self.sigma, self.kappa)


def _usl(p, lam, sigma, kappa):
    return lam * p / (1 + sigma * (p - 1) + kappa * p * (p - 1))


def fit_usl(processors, itr_ds_per_s) -> Scaling:
    """The USL fitted by relative least squares, with sigma and kappa kept in [0, 1]."""
    lam, sigma, kappa = relative_nonlinear_least_squares(_usl, processors, itr_ds_per_s, [50.0, 0.01, 1e-5],
                                               ([1e-3, 0.0, 0.0], [1e4, 1.0, 1.0]))
    return Scaling(lam, sigma, kappa)


def fit_amdahl(processors, itr_ds_per_s) -> Scaling:
    """Amdahl's law fitted by relative least squares (kappa fixed at 0)."""
    lam, sigma = relative_nonlinear_least_squares(lambda p, lam, s: _usl(p, lam, s, 0.0), processors, itr_ds_per_s,
                                        [50.0, 0.01], ([1e-3, 0.0], [1e4, 1.0]))
    return Scaling(lam, sigma, 0.0)


def _posting():
    runs = pub.posting_runs()
    return runs, runs["processors"].to_numpy(dtype=float), runs["itr_ds_per_s"].to_numpy()


@lru_cache(maxsize=None)
def usl_fit() -> Scaling:
    """The USL on all six Posting runs (Table 3's DB ITR)."""
    _, p, x = _posting()
    return fit_usl(p, x)


@lru_cache(maxsize=None)
def amdahl_fit() -> Scaling:
    """Amdahl's law on all six Posting runs."""
    _, p, x = _posting()
    return fit_amdahl(p, x)


@lru_cache(maxsize=None)
def usl_absolute_fit() -> Scaling:
    """The USL by *absolute* least squares (errors in DS/s, so the big runs dominate): for comparison
    only, to show how little six points up to 60 processors say about the coherency term."""
    from scipy.optimize import least_squares

    _, p, x = _posting()
    res = least_squares(lambda q: _usl(p, *q) - x, [50.0, 0.01, 1e-5], bounds=([1e-3, 0, 0], [1e4, 1, 1]),
                        x_scale="jac")
    return Scaling(*(float(v) for v in res.x))


@lru_cache(maxsize=None)
def leave_one_out(law: str = "usl") -> tuple[tuple[str, int, Scaling, float], ...]:
    """For each run: (run id, processors, the law fitted without it, its predicted DB ITR in DS/s)."""
    fitter = {"usl": fit_usl, "amdahl": fit_amdahl}.get(law)
    if fitter is None:
        raise ValueError(f"law={law!r} is not 'usl' or 'amdahl'")
    runs, p, x = _posting()
    out = []
    for i, run in enumerate(runs["run_id"]):
        keep = np.arange(len(p)) != i
        fit = fitter(p[keep], x[keep])
        out.append((run, int(p[i]), fit, float(fit.itr(p[i]))))
    return tuple(out)


# --- the coupling facilities ---------------------------------------------------------------------------------

#: Table 3's two CF rows: CF1 held the group buffer pools, CF2 the lock structures (section 9.1).
CF_STRUCTURES = {"cf1_util_pct": "CF1 (group buffer pools)", "cf2_util_pct": "CF2 (lock structures)"}


def _check_structure(metric: str) -> None:
    if metric not in CF_STRUCTURES:
        raise ValueError(f"structure={metric!r} is not one of {', '.join(CF_STRUCTURES)}")


@lru_cache(maxsize=None)
def cf_cost(metric: str) -> float:
    """A CF's busy per DS/s (percent per dialog step per second), fitted on all six runs."""
    _check_structure(metric)
    runs = pub.posting_runs()
    return through_origin(runs["etr_ds_per_s"], runs[metric])


@lru_cache(maxsize=None)
def cf_leave_one_out(metric: str) -> tuple[tuple[str, float, float], ...]:
    """For each run: (run id, the cost fitted without it, its predicted CF busy in percent)."""
    _check_structure(metric)
    runs = pub.posting_runs()
    etr, busy = runs["etr_ds_per_s"].to_numpy(), runs[metric].to_numpy()
    out = []
    for i, run in enumerate(runs["run_id"]):
        keep = np.arange(len(etr)) != i
        cost = through_origin(etr[keep], busy[keep])
        out.append((run, cost, float(m.cf_busy_pct(etr[i], cost))))
    return tuple(out)


# --- per dialog step, and Little's law --------------------------------------------------------------------


@lru_cache(maxsize=None)
def per_step(metric: str) -> float:
    """One Table 3 rate as a constant per dialog step (relative least squares over the six runs):
    ``db_io_rate`` gives database I/Os per DS, ``log_mb_per_s`` log MB per DS, ``log_io_per_s`` log
    writes per DS, ``dialog_wps`` work processes per DS/s."""
    runs = pub.posting_runs()
    if metric not in runs.columns or metric.startswith("src_"):
        raise ValueError(f"metric={metric!r} is not a Table 3 rate the chapter uses")
    return float(relative_linear_least_squares(runs["etr_ds_per_s"], runs[metric])[0])


def mean_cpu_busy() -> float:
    """The six Posting runs' mean CPU busy (a fraction): the ETR of a scaling law's ITR at the runs' load."""
    return float(np.mean(pub.posting_runs()["cpu_util_pct"])) / 100


def etr_per_work_process() -> float:
    """Dialog steps per second per dialog work process configured (DS/s), the inverse of :func:`per_step`."""
    return 1.0 / per_step("dialog_wps")


def in_system(runs=None) -> np.ndarray:
    """Dialog steps in the system in each run by Little's law: ETR x response time (count)."""
    runs = pub.posting_runs() if runs is None else runs
    return np.asarray(m.littles_law(runs["etr_ds_per_s"].to_numpy(), runs["response_time_s"].to_numpy()))


# --- the sliders -> the model's inputs --------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """What the figures and readouts evaluate: the scaling law, the CF costs and capacity, the
    per-step volumes, the response time for Little's law, and the processors of a readout."""

    scaling: Scaling
    cf_cost: Mapping[str, float]  # % busy per DS/s, by Table 3 metric
    cf_capacity: float            # x the measured CF
    io_per_ds: float              # database I/Os per dialog step
    log_kb_per_ds: float          # log KB per dialog step
    response_s: float             # s, for Little's law
    etr_per_wp: float             # DS/s per dialog work process
    processors: float             # for the readout; > 60 is extrapolation


def defaults() -> dict[str, float]:
    """The slider names :func:`scenario` understands, each with its default: the calibrated value
    (rounded to the sliders' precision: sigma to 6 decimals, the volumes to 0.01), or a quoted one
    where the model has nothing to fit."""
    fit = usl_fit()
    return {
        "sigma": round(fit.sigma, 6),
        # the fit lands on its bound, 0, up to the optimiser's last digits (1e-20): shown as 0
        "kappa_e4": round(fit.kappa * 1e4, 8),
        "cf_capacity": 1.0,
        "io_per_ds": round(per_step("db_io_rate"), 2),
        "log_kb_per_ds": round(1000 * per_step("log_mb_per_s"), 2),
        # the middle of the brief's "one to two second range" (section 9.1): quoted, not fitted
        "response_s": 1.5,
        "processors": float(PROCESSORS_MEASURED_MAX),
    }


@dataclass(frozen=True)
class Sliders:
    """The slider values :func:`scenario` reads, in the sliders' units (defaults: :func:`defaults`)."""

    sigma: float  # contention, a fraction
    kappa_e4: float  # coherency, in units of 1e-4
    cf_capacity: float  # CF capacity, x the measured CF
    io_per_ds: float  # database I/Os per dialog step
    log_kb_per_ds: float  # log KB per dialog step
    response_s: float  # response time per dialog step, s
    processors: float  # processors of the readout


def scenario(values: Mapping[str, float]) -> Scenario:
    """The one map from slider values (by name; missing ones take :func:`defaults`) to model inputs.

    Built on :func:`widgets.fitting.scenario` over :class:`Sliders`: a name that is not a field raises
    ValueError listing the fields; a value outside its range raises ValueError from the model function
    that checks it.
    """
    v = dataclasses.asdict(fitting.scenario(Sliders(**defaults()), {k: float(x) for k, x in values.items()}))
    fit = usl_fit()
    sigma = float(m.check_sigma(v["sigma"]))
    kappa = float(m.check_kappa(v["kappa_e4"] * 1e-4))
    capacity = float(positive("cf_capacity", v["cf_capacity"], "x the measured CF"))
    io = float(non_negative("io_per_ds", v["io_per_ds"], "I/Os per dialog step"))
    log = float(non_negative("log_kb_per_ds", v["log_kb_per_ds"], "KB per dialog step"))
    response = float(non_negative("response_s", v["response_s"], "s"))
    processors = float(m.check_processors(v["processors"]))
    return Scenario(scaling=Scaling(fit.lam, sigma, kappa),
                    cf_cost={k: cf_cost(k) for k in CF_STRUCTURES}, cf_capacity=capacity, io_per_ds=io,
                    log_kb_per_ds=log, response_s=response, etr_per_wp=etr_per_work_process(),
                    processors=processors)


def summary() -> dict[str, float]:
    """The fitted numbers the chapter quotes (rounded by the chapter, not here)."""
    usl, amd, absolute = usl_fit(), amdahl_fit(), usl_absolute_fit()
    return {
        "lam": usl.lam, "sigma": usl.sigma, "kappa": usl.kappa,
        "amdahl_lam": amd.lam, "amdahl_sigma": amd.sigma,
        "ceiling": m.amdahl_ceiling(usl.lam, usl.sigma),
        "abs_lam": absolute.lam, "abs_sigma": absolute.sigma, "abs_kappa": absolute.kappa,
        "abs_peak": m.usl_peak_processors(absolute.sigma, absolute.kappa),
        "itr_120": float(usl.itr(120)),
        "cf1_cost": cf_cost("cf1_util_pct"), "cf2_cost": cf_cost("cf2_util_pct"),
        "io_per_ds": per_step("db_io_rate"), "log_kb_per_ds": 1000 * per_step("log_mb_per_s"),
        "etr_per_wp": etr_per_work_process(),
    }
