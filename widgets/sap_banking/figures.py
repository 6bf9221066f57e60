"""The SAP Banking chapter's figures: one model, three surfaces.

Every curve takes ``(x, scenario)``: :meth:`widgets.figure.Figure.evaluate` makes the scenario with
:func:`calibration.scenario` (slider values -> model inputs), and the curves apply the functions of
:mod:`model`; the published points come from Table 3 with their citations.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..figure import Axis, Figure, Param
from . import calibration as cal
from . import model
from . import published as pub

STUDY = "sap_banking"
COLORS = {
    "USL at the sliders": "#4c78a8", "Amdahl, fitted": "#f58518", "linear from 2 processors": "#9d755d",
    "published: DB ITR": "#222222", "published: DB ITR per processor": "#222222",
    "USL at the sliders x the mean CPU busy": "#4c78a8", "published: ETR": "#222222",
    "CF2 (lock structures)": "#e45756", "CF1 (group buffer pools)": "#4c78a8",
    "published: CF2": "#e45756", "published: CF1": "#4c78a8",
    "every work process busy (N = WPs)": "#9d755d", "N = X R at the slider R": "#4c78a8",
    "published: ETR x response time": "#222222",
    "database I/O at the slider I/Os per step": "#4c78a8", "published: database I/O": "#222222",
    "log at the slider KB per step": "#54a24b", "published: log MB/s": "#222222",
}
_figure = partial(Figure, STUDY, colors=COLORS)
D = cal.defaults()
MEASURED = cal.PROCESSORS_MEASURED_MAX

#: The extrapolation line on the scaling figures: the largest measured run.
_BEYOND = pd.DataFrame([{"x": float(MEASURED), "label": "extrapolation →",
                         "source": pub.cite(pub.POSTING, "S10624V2", "cp_total")}])


# --- sliders -------------------------------------------------------------------------------------------

# Each slider's positions are round steps from its first; a fitted value that no round grid holds
# opens at the nearest position (``calibrated`` keeps the exact value, which the ledger uses).
SIGMA = Param("sigma", "Contention σ", "", 0.0, 0.08, 0.0175, 0.0005, 0.0025, static_min=0.005, static_max=0.04,
              calibrated=D["sigma"], help="the share of the work that waits for something only one can hold (fitted)")
KAPPA = Param("kappa_e4", "Coherency κ", "x 10⁻⁴", 0.0, 5.0, D["kappa_e4"], 0.01, 0.5, static_max=2.0,
              help="a cost per pair of processors that must agree (fitted: 0, at its bound)",
              end="the fit puts κ at 0, its bound: a cost for processors to agree cannot be negative.")
# the CF exercise's answer (about 1.35 times the capacity) is a position: steps of 0.05
CF_CAPACITY = Param("cf_capacity", "CF capacity", "x the measured CF", 0.5, 4.0, D["cf_capacity"], 0.05, 0.05,
                    static_max=3.0, help="a faster CF, or more CF engines, divides the busy")
RESPONSE = Param("response_s", "Response time R", "s", 0.25, 4.0, D["response_s"], 0.05, 0.25, static_max=3.0,
                 help="the mean time a dialog step spends in the system (the brief: usually one to two seconds)")
IO_PER_DS = Param("io_per_ds", "Database I/Os per dialog step", "", 20.0, 200.0, 87.0, 0.5, 1.0,
                  static_min=40.0, static_max=110.0, calibrated=D["io_per_ds"])
LOG_PER_DS = Param("log_kb_per_ds", "Log per dialog step", "KB", 10.0, 150.0, 49.0, 0.5, 1.0,
                   static_min=20.0, static_max=90.0, calibrated=D["log_kb_per_ds"])
PROCESSORS = Param("processors", "Processors for the readout", "CPs", 2.0, 120.0, D["processors"], 1.0, 10.0,
                   static_min=10.0, help="beyond 60 the readout is an extrapolation",
                   flat="it moves the readout under the chart, not the lines.")


def _runs() -> pd.DataFrame:
    return pub.posting_runs()


def _points(y: np.ndarray, x: np.ndarray, src: pd.Series, series: str, model_series: str = "",
            what: str = "") -> pd.DataFrame:
    runs = _runs()
    return pd.DataFrame({"x": x, "y": y, "series": series, "source": list(src),
                         "condition": [f"2WDS {int(p)}CP ({r}){what}"
                                       for p, r in zip(runs["processors"], runs["run_id"])],
                         "model_series": model_series})


# --- 1. DB ITR against processors ------------------------------------------------------------------------

PROCESSOR_GRID = np.unique(np.r_[1.0, 2.0, 4.0, np.arange(8.0, 121.0, 4.0), 60.0])


def _laws(cps, s: cal.Scenario, per_processor: bool):
    p = np.asarray(cps, dtype=float)
    runs = _runs()
    base = float(runs.loc[runs["processors"] == 2, "itr_ds_per_s"].iloc[0]) / 2  # published, per processor
    # (the fitted Amdahl law is the USL at its defaults, κ = 0: a line of its own would sit on it)
    out = {"USL at the sliders": s.scaling.itr(p), "linear from 2 processors": base * p}
    if per_processor:
        out = {k: v / p for k, v in out.items()}
    return out


def itr_curves(cps, s: cal.Scenario):
    """DB ITR (DS/s) against processors: the USL at the sliders (at the defaults, the fitted Amdahl law)
    and a straight line through the published 2-processor ITR (what "scales linearly" would mean)."""
    return _laws(cps, s, per_processor=False)


def per_processor_curves(cps, s: cal.Scenario):
    """DB ITR per processor (DS/s per CP) against processors, the same two laws."""
    return _laws(cps, s, per_processor=True)


def _itr_points(per_processor: bool) -> pd.DataFrame:
    runs = _runs()
    p = runs["processors"].to_numpy(dtype=float)
    y = runs["itr_ds_per_s"].to_numpy() / (p if per_processor else 1)
    name = "published: DB ITR per processor" if per_processor else "published: DB ITR"
    return _points(y, p, runs["src_itr_ds_per_s"], name, "USL at the sliders",
                   " ÷ processors" if per_processor else "")


ITR = _figure(
    "itr", "How far one database scales: DB ITR against processors",
    Axis("processors", "Processors (CPs, two LPARs)", format=".0f"),
    Axis("itr", "DB ITR (dialog steps/s)", format=",.0f"),
    PROCESSOR_GRID, itr_curves, (SIGMA, KAPPA), live_params=(PROCESSORS,), published=_itr_points(False), marks=_BEYOND,
    regenerates="Figure 5 of the brief",
    subtitle="Fitted: κ = 0, so the USL is Amdahl's law. Right of the dashed rule at 60 processors (the largest run), "
             "every line is an extrapolation.")

PER_PROCESSOR = _figure(
    "per_processor", "What each processor delivers: DB ITR per processor",
    Axis("processors", "Processors (CPs, two LPARs)", format=".0f"),
    Axis("itr_per_cp", "DB ITR per processor (dialog steps/s)", format=".0f"),
    PROCESSOR_GRID, per_processor_curves, (SIGMA, KAPPA), published=_itr_points(True), marks=_BEYOND,
    subtitle="From 56 to 28 dialog steps/s per processor between 2 and 60 processors. Right of the dashed "
             "rule: extrapolation.")


def etr_curves(cps, s: cal.Scenario):
    """ETR (DS/s) against processors: the USL's DB ITR at the sliders, at the six runs' mean CPU busy."""
    return {"USL at the sliders x the mean CPU busy": s.scaling.itr(np.asarray(cps, dtype=float))
            * cal.mean_cpu_busy()}


def _etr_points() -> pd.DataFrame:
    runs = _runs()
    return _points(runs["etr_ds_per_s"].to_numpy(), runs["processors"].to_numpy(dtype=float),
                   runs["src_etr_ds_per_s"], "published: ETR", "USL at the sliders x the mean CPU busy")


ETR = _figure(
    "etr", "The throughput measured: ETR against processors",
    Axis("processors", "Processors (CPs, two LPARs)", format=".0f"),
    Axis("etr", "ETR (dialog steps/s)", format=",.0f"),
    PROCESSOR_GRID, etr_curves, (SIGMA, KAPPA), published=_etr_points(), marks=_BEYOND,
    regenerates="Figure 4 of the brief (its throughput)",
    subtitle=f"The runs were {_runs()['cpu_util_pct'].min():.0f}% to {_runs()['cpu_util_pct'].max():.0f}% busy; the "
             "brief's ITR figure is \"basically the same graph as the throughput\" because \"the utilizations of the "
             "measurements were very similar to each other\" (brief, p. 18). Figure 4's response times (Table 3) "
             "are read in the Little's-law figure, not redrawn here.")


# --- 2. the coupling facilities ----------------------------------------------------------------------------


def cf_curves(etr, s: cal.Scenario):
    """Each CF's busy (%) against throughput (DS/s): its fitted cost per dialog step over its capacity."""
    return {name: model.cf_busy_pct(etr, s.cf_cost[metric], s.cf_capacity)
            for metric, name in reversed(cal.CF_STRUCTURES.items())}


def _cf_points() -> pd.DataFrame:
    runs = _runs()
    x = runs["etr_ds_per_s"].to_numpy()
    return pd.concat([
        _points(runs["cf2_util_pct"].to_numpy(), x, runs["src_cf2_util_pct"], "published: CF2",
                "CF2 (lock structures)"),
        _points(runs["cf1_util_pct"].to_numpy(), x, runs["src_cf1_util_pct"], "published: CF1",
                "CF1 (group buffer pools)")], ignore_index=True)


CF = _figure(
    "cf", "The coupling facilities: busy against throughput",
    Axis("etr", "ETR (dialog steps/s)", format=",.0f"), Axis("busy", "CF busy (%)", format=".0f"),
    np.arange(0.0, 3201.0, 100.0), cf_curves, (CF_CAPACITY,), published=_cf_points(),
    regenerates="Figure 6 of the brief (against throughput, not configuration)",
    subtitle="Each line: a fitted cost per dialog step. Measured up to 1,408 DS/s; beyond, extrapolation.")


# --- 3. Little's law --------------------------------------------------------------------------------------


def little_curves(wps, s: cal.Scenario):
    """Dialog steps in the system (count) against dialog work processes configured: every work process
    busy (N = WPs), and Little's law N = X R with X the fitted DS/s per work process and R the slider."""
    w = np.asarray(wps, dtype=float)
    return {"every work process busy (N = WPs)": w,
            "N = X R at the slider R": model.littles_law(s.etr_per_wp * w, s.response_s)}


def _little_points() -> pd.DataFrame:
    runs = _runs()
    pts = _points(cal.in_system(runs), runs["dialog_wps"].to_numpy(), runs["src_response_time_s"],
                  "published: ETR x response time", "N = X R at the slider R", " ETR x response time")
    return pts


LITTLE = _figure(
    "little", "Little's law: dialog steps in the system against work processes",
    Axis("wps", "Dialog work processes configured", format=",.0f"),
    Axis("in_system", "Dialog steps in the system (N = X R)", format=",.0f"),
    np.arange(0.0, 1601.0, 50.0), little_curves, (RESPONSE,), published=_little_points(),
    subtitle="Points above the brown line: more dialog steps in the system than work processes to run them.")


# --- 4. I/O and log per dialog step ------------------------------------------------------------------------

ETR_GRID = np.arange(0.0, 3201.0, 100.0)


def io_curves(etr, s: cal.Scenario):
    """Database I/Os per second against throughput (DS/s), at the slider's I/Os per dialog step."""
    return {"database I/O at the slider I/Os per step": np.asarray(etr, dtype=float) * s.io_per_ds}


def log_curves(etr, s: cal.Scenario):
    """Log MB per second against throughput (DS/s), at the slider's KB per dialog step."""
    return {"log at the slider KB per step": np.asarray(etr, dtype=float) * s.log_kb_per_ds / 1000}


def _rate_points(metric: str, series: str, model_series: str) -> pd.DataFrame:
    runs = _runs()
    return _points(runs[metric].to_numpy(), runs["etr_ds_per_s"].to_numpy(), runs[f"src_{metric}"], series,
                   model_series)


IO = _figure(
    "io", "Database I/O: a constant per dialog step?",
    Axis("etr", "ETR (dialog steps/s)", format=",.0f"), Axis("io", "Database I/Os per second", format=",.0f"),
    ETR_GRID, io_curves, (IO_PER_DS,),
    published=_rate_points("db_io_rate", "published: database I/O", "database I/O at the slider I/Os per step"),
    subtitle="The unit of Table 3's I/O rate is not printed (read as per second: see the flags).")

LOG = _figure(
    "log", "Log volume: a constant per dialog step?",
    Axis("etr", "ETR (dialog steps/s)", format=",.0f"), Axis("log", "Log written (MB/s)", format=".0f"),
    ETR_GRID, log_curves, (LOG_PER_DS,),
    published=_rate_points("log_mb_per_s", "published: log MB/s", "log at the slider KB per step"),
    subtitle="The 2 and 4 processor runs write more log per dialog step than the four large ones.")

ALL = (ETR, ITR, PER_PROCESSOR, CF, LITTLE, IO, LOG)
