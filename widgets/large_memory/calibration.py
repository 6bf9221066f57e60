"""Calibrating the large-memory models by least squares on the published runs.

Every parameter below is *fitted*; none is pinned to make one number come out. The values in
:data:`CALIBRATED` are the fits of :func:`fit`, rounded to the precision shown, and a test
refits and checks that they still agree. Each link of the chain is fitted on the measured input
of that link (e.g. the CPU model on the measured sync reads), so a poor upstream link cannot
hide a poor downstream one; the ledger then evaluates the whole chain from pool size alone.

Fitted on (Beane, Chan & Lekkas 2015):
* the cache: Tables 4, 6, 23 (single system) and 10, 13, 16 (data sharing): sync reads per DS
  (log residuals) and group-buffer-pool hit ratios (absolute residuals);
* CPU: ITR of Tables 4, 6, 23 (one base cost per machine, one cost per read);
* DB request time and the closed loop: Tables 4, 6, 23 (the loop fits one number, the time per
  dialog step outside DB2; the DB request time is taken as printed, per dialog step, k = 1);
* data-sharing CPU: ITR of Tables 10, 13, 16.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Mapping

import numpy as np

from .. import fitting
from . import model as m
from . import published


@dataclass(frozen=True)
class Calibration:
    workload: m.Workload
    group: m.GroupPool
    cpu_zec12: tuple[float, float]  # (base CPU ms per DS, CPU us per sync read), 12 CPs
    cpu_z13: tuple[float, float]
    cpu_data_sharing: tuple[float, float]  # 2 x 6 CPs
    request_time: m.RequestTime
    loop: m.ClosedLoop  # single system, 10,560 users


CALIBRATED = Calibration(
    # 212 random getpages per DS that can miss, over a 367 GB re-referenced set (skew 0.763),
    # plus 1.07 sync reads per DS that no pool removes.
    workload=m.Workload(getpages_per_ds=212.0, skew=0.7625, working_set_gb=367.1, floor_reads_per_ds=1.066),
    # 79% of local misses fall on GBP-dependent objects; their changed pages span ~900 GB.
    group=m.GroupPool(gbp_dependent_fraction=0.792, changed_set_gb=903.0, skew=0.7625),
    # (base CPU ms per DS, CPU us per sync read): one read costs ~44 us on either machine.
    cpu_zec12=(9.957, 44.10),
    cpu_z13=(9.299, 44.10),
    cpu_data_sharing=(14.46, 33.68),
    request_time=m.RequestTime(base_s=0.1058, per_read_s=0.1237, exponent=0.4018),
    # 12.60 s per DS outside DB2, the printed DB request time taken per dialog step (k = 1, not fitted).
    loop=m.ClosedLoop(users=10560, think_s=12.60, requests_per_ds=1.0),
)

#: The linear I/O model of the DB request time, fitted the same way (exponent pinned to 1).
LINEAR_REQUEST_TIME = m.RequestTime(base_s=0.2349, per_read_s=0.009965, exponent=1.0)


# --- the fits -------------------------------------------------------------------------------


def _fit_cache(ss=None, ds=None):
    from scipy.optimize import least_squares  # imported here: only refitting needs scipy

    ss = published.single_system() if ss is None else ss
    ds = published.data_sharing() if ds is None else ds
    pool, reads = ss["bp_size_total_gb"].to_numpy(), ss["sync_reads_per_ds"].to_numpy()
    lbp, gbp = ds["lbp_per_member_gb"].to_numpy(), ds["gbp_gb"].to_numpy()
    reads_ds, gbp_hit = ds["sync_reads_per_ds"].to_numpy(), ds["gbp_hit_ratio_pct"].to_numpy() / 100

    def unpack(p):
        g, skew, ws, floor, frac, changed = p
        return m.Workload(g, skew, ws, floor), m.GroupPool(frac, changed, skew)

    def residuals(p):
        wl, gp = unpack(p)
        return np.concatenate([
            np.log(m.sync_reads_per_ds(pool, wl) / reads),
            np.log(m.sync_reads_per_ds_data_sharing(lbp, gbp, wl, gp) / reads_ds),
            m.gbp_hit_ratio(gbp, gp) - gbp_hit,
        ])

    best = None
    for start in ([200, 0.7, 700, 1, 0.6, 300], [300, 0.8, 500, 1, 0.6, 150], [100, 0.5, 650, 0.5, 0.6, 200]):
        res = least_squares(residuals, start, diff_step=1e-3,
                            bounds=([1, 0.01, 50, 0, 0, 10], [1e4, 0.99, 5000, 10, 1, 5000]))
        if best is None or res.cost < best.cost:
            best = res
    return unpack(best.x)


def _fit_cpu(ss=None):
    from scipy.optimize import least_squares

    ss = published.single_system() if ss is None else ss
    cpu_ms = ss["cp_count"].to_numpy() * 1e3 / ss["itr_ds_per_s"].to_numpy()
    reads = ss["sync_reads_per_ds"].to_numpy()
    z13 = (ss["machine"] == "z13").to_numpy()

    def residuals(p):
        base = np.where(z13, p[1], p[0])
        return (base + p[2] * 1e-3 * reads) / cpu_ms - 1

    p = least_squares(residuals, [10, 9, 40]).x
    return (p[0], p[2]), (p[1], p[2])


def _fit_cpu_data_sharing(ds=None):
    from scipy.optimize import least_squares

    ds = published.data_sharing() if ds is None else ds
    cpu_ms = ds["cp_count"].to_numpy() * 1e3 / ds["itr_ds_per_s"].to_numpy()
    reads = ds["sync_reads_per_ds"].to_numpy()
    p = least_squares(lambda p: (p[0] + p[1] * 1e-3 * reads) / cpu_ms - 1, [15, 30]).x
    return (p[0], p[1])


def _fit_request_time(ss=None):
    from scipy.optimize import least_squares

    ss = published.single_system() if ss is None else ss
    reads, r = ss["sync_reads_per_ds"].to_numpy(), ss["db_request_time_s"].to_numpy()
    p = least_squares(lambda p: (p[0] + p[1] * reads ** p[2]) / r - 1, [0.2, 0.01, 1.0],
                      bounds=([0, 0, 0.1], [1, 1, 2])).x
    return m.RequestTime(*p)


def linear_request_time() -> m.RequestTime:
    """The linear I/O model (exponent fixed at 1), fitted the same way, for comparison."""
    from scipy.optimize import least_squares

    ss = published.single_system()
    reads, r = ss["sync_reads_per_ds"].to_numpy(), ss["db_request_time_s"].to_numpy()
    p = least_squares(lambda p: (p[0] + p[1] * reads) / r - 1, [0.2, 0.01]).x
    return m.RequestTime(p[0], p[1], 1.0)


def _fit_loop(ss=None):
    """The time per dialog step outside DB2, Z in N = ETR (Z + R), with R the printed DB request time
    taken per dialog step (k = 1: the unit is not fitted). Least squares on the relative ETR errors."""
    from scipy.optimize import least_squares

    ss = published.single_system() if ss is None else ss
    users = float(ss["users"].iloc[0])
    etr, r = ss["etr_ds_per_s"].to_numpy(), ss["db_request_time_s"].to_numpy()
    think = least_squares(lambda p: users / (p[0] + r) / etr - 1, [10.0]).x[0]
    return m.ClosedLoop(users=users, think_s=float(think), requests_per_ds=1.0)


def per_request_loop(ss=None) -> m.ClosedLoop:
    """The other reading of the unit, for the chapter's prose only: N / ETR = Z + k R with both Z and
    k fitted by linear least squares, as if the printed request time were per DB request. Not the
    model: k is then a free parameter that absorbs whatever makes the time outside DB2 fall."""
    ss = published.single_system() if ss is None else ss
    users = float(ss["users"].iloc[0])
    design = np.column_stack([np.ones(len(ss)), ss["db_request_time_s"].to_numpy()])
    (think, k), *_ = np.linalg.lstsq(design, users / ss["etr_ds_per_s"].to_numpy(), rcond=None)
    return m.ClosedLoop(users=users, think_s=float(think), requests_per_ds=float(k))


def time_outside_db(ss=None) -> np.ndarray:
    """Time per dialog step outside DB2, s, of each printed run: users / ETR - DB request time
    (Little's law with the request time per dialog step), in the order of Tables 4, 6, 23."""
    ss = published.single_system() if ss is None else ss
    return (ss["users"] / ss["etr_ds_per_s"] - ss["db_request_time_s"]).to_numpy(dtype=float)


@lru_cache(maxsize=1)
def fit() -> Calibration:
    """Refit every parameter from the data (about a second)."""
    workload, group = _fit_cache()
    zec12, z13 = _fit_cpu()
    return Calibration(workload=workload, group=group, cpu_zec12=zec12, cpu_z13=z13,
                       cpu_data_sharing=_fit_cpu_data_sharing(), request_time=_fit_request_time(),
                       loop=_fit_loop())


#: The links refitted without each run, and what they then predict for it (see :func:`held_out_links`).
LINKS = {"itr_ds_per_s": "ITR from the measured sync reads (CPU costs)",
         "db_request_time_s": "DB request time from the measured sync reads",
         "etr_ds_per_s": "ETR from the measured DB request time (closed loop)"}


@lru_cache(maxsize=None)
def held_out_links(run_id: str) -> dict:
    """Leave-one-out: the CPU, request-time and closed-loop links refitted without one run of Tables
    4, 6 and 23, then evaluated on that run's own measured input. Returns {published column: value}.

    Nothing of ``run_id``'s ITR, request time or ETR enters the fits that predict them. The cache
    link (sync reads from pool size) is not refitted here: it is a nonlinear fit of six parameters
    on single-system and data-sharing runs together, a few seconds per refit. Raises ValueError
    for an unknown run.
    """
    ss = published.single_system()
    if run_id not in set(ss["run_id"]):
        raise ValueError(f"run_id={run_id!r} is not one of {sorted(ss['run_id'])}")
    rest, run = ss[ss["run_id"] != run_id], ss[ss["run_id"] == run_id].iloc[0]
    zec12, z13 = _fit_cpu(rest)
    base, per_read = z13 if run["machine"] == "z13" else zec12
    machine = m.Machine(cps=int(run["cp_count"]), base_cpu_ms_per_ds=base, cpu_us_per_sync_read=per_read)
    reads = float(run["sync_reads_per_ds"])
    return {"itr_ds_per_s": float(m.itr(reads, machine)),
            "db_request_time_s": float(m.db_request_time(reads, _fit_request_time(rest))),
            "etr_ds_per_s": float(m.etr(float(run["db_request_time_s"]), _fit_loop(rest)))}


def request_time_for_exponent(exponent: float) -> m.RequestTime:
    """Best base and scale of the DB request time for a given exponent (relative least squares).

    With the exponent fixed, R = base + scale * reads**exponent is linear in (base, scale), so
    the fit is one small linear solve; the figure's exponent slider calls it on every move.
    """
    from .. import validation as v

    exponent = float(v.in_range("exponent", exponent, 0.05, 2.0))
    return _request_time_fit(exponent)


@lru_cache(maxsize=None)
def _request_time_fit(exponent: float) -> m.RequestTime:
    reads, r = _request_data()
    base, scale = fitting.relative_linear_least_squares(np.column_stack([np.ones_like(reads), reads ** exponent]), r)
    return m.RequestTime(base_s=float(base), per_read_s=float(scale), exponent=exponent)


@lru_cache(maxsize=1)
def _request_data() -> tuple[np.ndarray, np.ndarray]:
    ss = published.single_system()
    return ss["sync_reads_per_ds"].to_numpy(), ss["db_request_time_s"].to_numpy()


# --- the GBP-dependent share from the printed GBP hit ratios ------------------------------------


@dataclass(frozen=True)
class PrintedHitShare:
    """The group-scaling runs (Table 13) refitted with the *printed* GBP hit ratios.

    ``reads = M * (1 - f * h)`` per dialog step, with ``h`` the printed GBP hit ratio of each run
    and the local pools fixed at 58 GB per member, so ``M`` (local-miss reads per DS) is one
    number. Two parameters on four runs, by least squares on relative errors.
    """

    local_miss_reads_per_ds: float  # M, sync reads per DS if the GBP found nothing
    gbp_dependent_fraction: float  # f, share of local misses on GBP-dependent objects
    errors: tuple[float, ...]  # relative error of each run's reads per DS, in Table 13's order
    errors_at_study_share: tuple[float, ...]  # the same with f pinned to the study's 58% (M refitted)


def _share_fit(reads: np.ndarray, hit: np.ndarray, share: float | None):
    """Least squares of reads = M (1 - f h) on relative errors; f fitted unless ``share`` is given."""
    if share is None:  # linear in (M, M f): solve on relative residuals, weights 1 / reads
        scale, scaled_share = fitting.relative_linear_least_squares(np.column_stack([np.ones_like(hit), -hit]), reads)
        return scale, scaled_share / scale
    basis = (1 - share * hit) / reads
    return float(basis @ np.ones_like(reads) / (basis @ basis)), share


@lru_cache(maxsize=None)
def printed_hit_share(study_share: float = 0.58) -> PrintedHitShare:
    """Fit ``f`` with the printed GBP hit ratios of the group-scaling runs (Table 13)."""
    ds = published.data_sharing()
    runs = ds[ds["series"] == published.DATA_SHARING["t13_gbp_scaling_results.csv"]]
    reads = runs["sync_reads_per_ds"].to_numpy(dtype=float)
    hit = runs["gbp_hit_ratio_pct"].to_numpy(dtype=float) / 100
    scale, share = _share_fit(reads, hit, None)
    scale_58, _ = _share_fit(reads, hit, study_share)
    return PrintedHitShare(
        local_miss_reads_per_ds=float(scale), gbp_dependent_fraction=float(share),
        errors=tuple(float(e) for e in scale * (1 - share * hit) / reads - 1),
        errors_at_study_share=tuple(float(e) for e in scale_58 * (1 - study_share * hit) / reads - 1))


# --- the calibrated chain, and the calibration the sliders move ----------------------------------


def machine(name: str, cal: Calibration = CALIBRATED) -> m.Machine:
    """The CPU model of one machine: ``"zEC12"``, ``"z13"`` or ``"data sharing"``."""
    costs = {"zEC12": cal.cpu_zec12, "z13": cal.cpu_z13, "data sharing": cal.cpu_data_sharing}
    if name not in costs:
        raise ValueError(f"machine={name!r} is not one of {sorted(costs)}")
    base, per_read = costs[name]
    return m.Machine(cps=12, base_cpu_ms_per_ds=base, cpu_us_per_sync_read=per_read)


def predict_single(pool_gb, machine_name: str = "zEC12", cal: Calibration = CALIBRATED) -> dict:
    """Every single-system indicator at ``pool_gb`` GB, from the calibrated chain."""
    return m.single_system(pool_gb, cal.workload, machine(machine_name, cal), cal.request_time, cal.loop)


def predict_data_sharing(lbp_gb, gbp_gb, cal: Calibration = CALIBRATED) -> dict:
    """Sync reads per DS, GBP hit ratio and ITR for 2-way data sharing (LBP per member, GBP)."""
    reads = m.sync_reads_per_ds_data_sharing(lbp_gb, gbp_gb, cal.workload, cal.group)
    return {"reads_per_ds": reads, "gbp_hit": m.gbp_hit_ratio(gbp_gb, cal.group),
            "itr": m.itr(reads, machine("data sharing", cal))}


@lru_cache(maxsize=None)
def night_fit(skew: float, working_set_gb: float) -> tuple[float, float]:
    """(floor, amplitude) in sync reads per s of Night Balancing's random reads (Table 18): the OLTP
    miss-curve shape at ``skew`` and ``working_set_gb``, its floor and amplitude fitted by linear
    least squares on the three runs. Solved once per shape."""
    night = published.night_single()
    miss = m.lru_miss_ratio(night["bp_size_total_gb"].to_numpy() / working_set_gb, skew)
    design = np.column_stack([np.ones_like(miss), miss])
    (floor, amp), *_ = np.linalg.lstsq(design, night["sync_reads_per_s"].to_numpy(), rcond=None)
    return float(floor), float(amp)


@dataclass(frozen=True)
class Scenario(Calibration):
    """The calibrated chain at the sliders' values (a Scenario is a :class:`Calibration`), and the data-sharing
    figures' pool sizes, which are settings, not calibrated values."""

    gbp_gb: float = 64.0  # group buffer pools, GB
    lbp_gb: float = 58.0  # local buffer pools per member, GB
    layout_skew: float = 0.6564  # the per-pool model's skew (LAYOUT.skew), the layout figure's slider


#: What each slider of the chapter sets in a :class:`Scenario`.
SLIDERS = {"skew": "workload", "working_set_gb": "workload", "cpu_us_per_sync_read": "cpu",
           "users": "loop", "think_s": "loop", "exponent": "request_time", "gbp_dependent_fraction": "group",
           "gbp_gb": "pools", "lbp_gb": "pools", "layout_skew": "pools"}


def scenario(values: Mapping[str, float], cal: Calibration = CALIBRATED) -> Scenario:
    """The calibration at the sliders' values (see :data:`SLIDERS`); an unknown name is a ValueError.

    The request-time exponent refits the request time's base and scale for that exponent
    (:func:`request_time_for_exponent`); the CPU cost per read is the one both machines' fits share
    (44.10 us on the zEC12 and the z13), so the slider moves both.
    """
    fitting.known_names(values, SLIDERS, "large_memory")
    part = {field: {k: v for k, v in values.items() if SLIDERS.get(k) == field} for field in set(SLIDERS.values())}
    changes = {"workload": fitting.scenario(cal.workload, part["workload"]),
               "loop": fitting.scenario(cal.loop, part["loop"]),
               "group": fitting.scenario(cal.group, part["group"]), **part["pools"]}
    if part["cpu"]:
        per_read = part["cpu"]["cpu_us_per_sync_read"]
        changes["cpu_zec12"] = (cal.cpu_zec12[0], per_read)
        changes["cpu_z13"] = (cal.cpu_z13[0], per_read)
    if part["request_time"]:
        changes["request_time"] = request_time_for_exponent(part["request_time"]["exponent"])
    whole = Scenario(**{f.name: getattr(cal, f.name) for f in fields(Calibration)})
    return replace(whole, **changes)


# --- the layout model: each pool its own LRU cache (fitted on the consolidated runs only) ----------------


@dataclass(frozen=True)
class LayoutCalibration:
    """The per-pool model of :func:`model.pooled_reads_per_ds`: one skew, and per page size the objects'
    getpages, working-set scale and floor. Fitted on the five consolidated runs (Tables 6 and 23, 15 sync-read
    points by page size); the three isolated runs (Table 4) are held out of the fit."""

    skew: float
    objects: Mapping[str, m.PageSizeObjects]  # page size ("4k", "8k", "32k") -> its objects


#: The fit of :func:`fit_layout`, rounded; a test refits and checks that they agree.
LAYOUT = LayoutCalibration(skew=0.6564, objects={
    "4k": m.PageSizeObjects(getpages_per_gb=0.6552, working_set_scale=0.6175, floor_reads_per_ds=0.8191),
    "8k": m.PageSizeObjects(getpages_per_gb=0.04378, working_set_scale=0.4203, floor_reads_per_ds=0.1386),
    "32k": m.PageSizeObjects(getpages_per_gb=0.08473, working_set_scale=0.7381, floor_reads_per_ds=0.1704),
})
#: The runs each role of the layout model uses.
LAYOUT_FIT_RUNS = ("S31114B1", "S31115B1", "S31118B1", "S41103B1", "S41102B1")
LAYOUT_HELD_OUT_RUNS = ("S30801B1", "S30802B1", "S30906B2")


def layout_reads_per_ds(run_id: str, layout: LayoutCalibration = LAYOUT) -> dict[str, float]:
    """Sync reads per dialog step of each page size, and ``total``, for one single-system run's pools."""
    out = {page: float(m.pooled_reads_per_ds(cap, weight, layout.objects[page], layout.skew))
           for page, (cap, weight) in published.layout_pools(run_id).items()}
    out["total"] = sum(out.values())
    return out


def _layout_vector(x) -> LayoutCalibration:
    return LayoutCalibration(skew=float(x[0]), objects={
        page: m.PageSizeObjects(float(np.exp(x[1 + 3 * i])), float(np.exp(x[2 + 3 * i])), float(x[3 + 3 * i]))
        for i, page in enumerate(published.PAGE_SIZES)})


def _layout_residuals(x, runs) -> np.ndarray:
    """Log residuals of each run's sync reads per DS by page size, in run order, then 4K, 8K, 32K."""
    layout = _layout_vector(x)
    reads = published.page_size_reads().set_index(["run_id", "page"])["reads_per_ds"]
    return np.array([np.log(layout_reads_per_ds(run, layout)[page] / reads[(run, page)])
                     for run in runs for page in published.PAGE_SIZES])


def _layout_start(layout: LayoutCalibration) -> np.ndarray:
    return np.array([layout.skew] + [v for page in published.PAGE_SIZES for v in (
        np.log(layout.objects[page].getpages_per_gb), np.log(layout.objects[page].working_set_scale),
        layout.objects[page].floor_reads_per_ds)])


_LAYOUT_BOUNDS = ([0.05] + [-10, -5, 0] * 3, [0.98] + [10, 5, 5] * 3)


def fit_layout(starts=None):
    """Refit the layout model by least squares on :data:`LAYOUT_FIT_RUNS`: (the fit, its cost). ``starts``
    (parameter vectors as :func:`_layout_start` makes them) default to a grid of nine (tens of seconds)."""
    from scipy.optimize import least_squares

    if starts is None:
        starts = [[skew] + [np.log(0.5), np.log(scale), 0.01] * 3 for skew in (0.5, 0.7, 0.85)
                  for scale in (0.5, 1.0, 2.0)]
    best = None
    for start in starts:
        res = least_squares(_layout_residuals, start, args=(LAYOUT_FIT_RUNS,), bounds=_LAYOUT_BOUNDS, diff_step=1e-3)
        if best is None or res.cost < best.cost:
            best = res
    return _layout_vector(best.x), float(best.cost)


@lru_cache(maxsize=1)
def layout_uncertainty() -> dict[str, dict[str, float]]:
    """The fit's uncertainty, carried to every run: {run_id: {page or "total": relative standard error}}.

    From the stored fit's Jacobian (log residuals on the 15 consolidated points): parameter covariance
    s^2 (J^T J)^+ with s^2 the residual variance on 15 - 10 = 5 degrees of freedom, then the delta method on
    each run's log reads. A wide band says the consolidated runs do not pin that prediction down.
    """
    x = _layout_start(LAYOUT)
    step = 1e-4

    def logs(v):
        return np.array([np.log(layout_reads_per_ds(run, _layout_vector(v))[k]) for run in _ALL_RUNS
                         for k in (*published.PAGE_SIZES, "total")])

    res = _layout_residuals(x, LAYOUT_FIT_RUNS)
    jac_fit = np.column_stack([(_layout_residuals(x + step * e, LAYOUT_FIT_RUNS) - res) / step
                               for e in np.eye(len(x))])
    base = logs(x)
    jac_all = np.column_stack([(logs(x + step * e) - base) / step for e in np.eye(len(x))])
    dof = max(len(res) - len(x), 1)
    cov = (res @ res / dof) * np.linalg.pinv(jac_fit.T @ jac_fit)
    sd = np.sqrt(np.einsum("ij,jk,ik->i", jac_all, cov, jac_all))
    keys = (*published.PAGE_SIZES, "total")
    return {run: {k: float(sd[i * len(keys) + j]) for j, k in enumerate(keys)} for i, run in enumerate(_ALL_RUNS)}


_ALL_RUNS = LAYOUT_FIT_RUNS + LAYOUT_HELD_OUT_RUNS


#: The runs of each layout at each total size (GB), zEC12: Tables 4 and 6.
LAYOUT_RUNS = {"isolated": {161.0: "S30801B1", 320.0: "S30802B1", 638.0: "S30906B2"},
               "consolidated": {161.0: "S31114B1", 320.0: "S31115B1", 638.0: "S31118B1"}}


def layout_totals(total_gb, layout_name: str, skew: float | None = None,
                  layout: LayoutCalibration = LAYOUT) -> np.ndarray:
    """Sync reads per dialog step (all page sizes) of one layout's pools at the study's sizes (161, 320, 638 GB),
    from the per-pool model; ``skew`` replaces the fitted skew (the other parameters held). ValueError for a
    layout or size the study did not run."""
    from dataclasses import replace as _replace

    if layout_name not in LAYOUT_RUNS:
        raise ValueError(f"layout_name={layout_name!r} is not one of {sorted(LAYOUT_RUNS)}")
    runs = LAYOUT_RUNS[layout_name]
    sizes = np.atleast_1d(np.asarray(total_gb, dtype=float))
    unknown = sorted(set(sizes.tolist()) - set(runs))
    if unknown:
        raise ValueError(f"total_gb={unknown} GB: the study ran the {layout_name} pools only at {sorted(runs)} GB")
    if skew is not None:
        from .. import validation as v

        layout = _replace(layout, skew=float(v.open_unit("skew", skew)))
    return np.array([layout_reads_per_ds(runs[float(x)], layout)["total"] for x in sizes])


def layout_comparison(layout: LayoutCalibration = LAYOUT):
    """The study's own experiment, page size by page size: sync reads per dialog step of the isolated and the
    consolidated pools at each size, published and modelled, with the fit's relative standard error. A DataFrame
    (one row per size and page size, then the totals); the isolated model values are held out of the fit."""
    import pandas as pd

    pr = published.page_size_reads().set_index(["run_id", "page"])["reads_per_ds"]
    totals = published.single_system().set_index("run_id")["sync_reads_per_ds"]
    band = layout_uncertainty()
    rows = []
    for size in (161.0, 320.0, 638.0):
        iso, con = LAYOUT_RUNS["isolated"][size], LAYOUT_RUNS["consolidated"][size]
        model_iso, model_con = layout_reads_per_ds(iso, layout), layout_reads_per_ds(con, layout)
        for page in (*published.PAGE_SIZES, "total"):
            pub = (lambda r: float(totals[r])) if page == "total" else (lambda r: float(pr[(r, page)]))
            rows.append({"total_gb": size, "page": page, "isolated": pub(iso), "isolated_model": model_iso[page],
                         "isolated_sd": band[iso][page], "consolidated": pub(con),
                         "consolidated_model": model_con[page]})
    return pd.DataFrame(rows)
