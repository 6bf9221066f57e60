"""The large-memory chapter's rows of the fidelity ledger, and the rule for their tolerances.

The tolerance rule. The models see only the *total* pool size, not how it is split among
pools. The study ran the same workload on the same memory with two layouts (isolated and
consolidated pools, Tables 4 and 6), and the layouts alone moved every indicator. So for each
indicator the tolerance is the largest relative difference between the two layouts at the same
total size, ``max |iso - cons| / min(iso, cons)``, rounded up to a whole percent: a model that
matched one layout exactly would be that far from the other. Data-sharing rows take the
tolerance of the same indicator. The rule is computed from the data, never tuned.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ..ledger import LedgerRow
from . import model as m
from . import published
from .calibration import (CALIBRATED, Calibration, night_fit, predict_data_sharing, predict_single,
                          printed_hit_share)

CHAPTER = "Large memory"

INDICATORS = {  # published column -> (chain output, label)
    "sync_reads_per_s": ("reads_per_s", "DB2 sync reads (per s)"),
    "itr_ds_per_s": ("itr", "ITR (DS/s)"),
    "etr_ds_per_s": ("etr", "ETR (DS/s)"),
    "db_request_time_s": ("request_s", "DB request time (s)"),
}


@lru_cache(maxsize=None)
def tolerance(metric: str) -> float:
    """Relative tolerance of an indicator by the layout rule (see the module docstring)."""
    ss = published.single_system()
    iso = ss[ss["series"] == "isolated"].set_index("bp_size_total_gb")[metric]
    con = ss[ss["series"] == "consolidated"].set_index("bp_size_total_gb")[metric]
    spread = max(abs(iso[b] - con[b]) / min(iso[b], con[b]) for b in iso.index if b in con.index)
    return math.ceil(100 * spread) / 100


#: The closed loop's ETR misses, judged by hand: the same six runs miss fitted (the chain from pool size)
#: and held out (the loop refitted without the run, from its measured request time).
ETR_LOOP_MISS_RUNS = ("S30801B1", "S30906B2", "S31114B1", "S31118B1", "S41103B1", "S41102B1")
ETR_LOOP_MISS = ("the closed loop assumes one time per dialog step outside DB2, but the printed runs give 14.2 s at "
                 "161 GB falling to 10.6 s at 638 GB (the identity rows): the throughput gain comes mostly from "
                 "outside the DB request time, likely queueing for SAP work processes, "
                 "which the study does not measure")


def _single_rows(cal: Calibration) -> list[LedgerRow]:
    ss = published.single_system()
    rows = []
    for run in ss.itertuples():
        pred = predict_single(run.bp_size_total_gb, run.machine, cal)
        for metric, (key, label) in INDICATORS.items():
            rows.append(LedgerRow(
                chapter=CHAPTER, source=getattr(run, f"src_{metric}"), quantity=label,
                condition=f"{run.run_id}: {run.series}, {run.bp_size_total_gb:g} GB, {run.machine}",
                published=float(getattr(run, metric)), model=float(pred[key][()]),
                tolerance=tolerance(metric), role="fitted",
                cell=(published.STUDY, run.file, run.run_id, metric),
                miss=ETR_LOOP_MISS if metric == "etr_ds_per_s" and run.run_id in ETR_LOOP_MISS_RUNS else ""))
    return rows


def _itr_ratio_rows(cal: Calibration) -> list[LedgerRow]:
    rows = []
    for name, printed, source in published.itr_ratios().itertuples(index=False):
        itr = predict_single(np.array([161.0, 638.0]), name, cal)["itr"]
        rows.append(LedgerRow(
            chapter=CHAPTER, source=source,
            quantity="ITR ratio 638 GB / 161 GB", condition=f"consolidated pools, {name}",
            published=float(printed), model=float(itr[1] / itr[0]), tolerance=tolerance("itr_ds_per_s"),
            role="fitted"))
    return rows


def _data_sharing_rows(cal: Calibration) -> list[LedgerRow]:
    ds = published.data_sharing()
    rows = []
    for run in ds.itertuples():
        pred = predict_data_sharing(run.lbp_per_member_gb, run.gbp_gb, cal)
        cond = f"{run.run_id}: LBP {run.lbp_per_member_gb:g} GB/member, GBP {run.gbp_gb:g} GB"
        rows.append(LedgerRow(
            chapter=CHAPTER, source=run.src_sync_reads_per_s,
            quantity="DB2 sync reads (per s), 2-way data sharing", condition=cond,
            published=float(run.sync_reads_per_s),
            # no ETR model for data sharing: per-DS reads are scaled by the measured ETR
            model=float(pred["reads_per_ds"]) * float(run.etr_ds_per_s),
            tolerance=tolerance("sync_reads_per_s"), role="fitted",
            cell=(published.STUDY, run.file, run.run_id, "sync_reads_per_s")))
        rows.append(LedgerRow(
            chapter=CHAPTER, source=run.src_itr_ds_per_s,
            quantity="ITR (DS/s), 2-way data sharing", condition=cond,
            published=float(run.itr_ds_per_s), model=float(pred["itr"]),
            tolerance=tolerance("itr_ds_per_s"), role="fitted",
            cell=(published.STUDY, run.file, run.run_id, "itr_ds_per_s")))
        rows.append(LedgerRow(
            chapter=CHAPTER, source=run.src_gbp_hit_ratio_pct,
            quantity="group buffer pool hit ratio (%)", condition=cond + "; fitted, held to the printed whole percent",
            published=float(run.gbp_hit_ratio_pct), model=100 * float(pred["gbp_hit"]),
            tolerance=0.5 / float(run.gbp_hit_ratio_pct), role="fitted",
            cell=(published.STUDY, run.file, run.run_id, "gbp_hit_ratio_pct"), miss=GBP_MISS))
    return rows


GBP_MISS = ("the model gives the group pool no dependence on the local pools, while Table 10's hit ratio falls "
            "from 37% to 30% and then jumps to 53% as they grow")
#: Leave-one-out rows whose error exceeds the layout tolerance: judged by hand, with the reason.
LOO_MISSES = {
    ("S30906B2", "itr_ds_per_s"): "held out, the CPU fit leans on the consolidated 638 GB run, "
                                  "whose ITR is 3.4% lower: "
                                  "the layout difference the model cannot see, plus the fit's own scatter",
    ("S31115B1", "itr_ds_per_s"): "held out, the CPU fit leans on the isolated 320 GB run at the same size: the layout "
                                  "difference the model cannot see, plus the fit's own scatter",
}
LOO_MISSES.update({(run_id, "etr_ds_per_s"): ETR_LOOP_MISS for run_id in ETR_LOOP_MISS_RUNS})


def _held_out_rows() -> list[LedgerRow]:
    """Leave-one-out: each run's ITR, request time and ETR from links refitted without that run."""
    from .calibration import LINKS, held_out_links

    rows = []
    for run in published.single_system().itertuples():
        pred = held_out_links(run.run_id)
        for metric, how in LINKS.items():
            rows.append(LedgerRow(
                chapter=CHAPTER, source=getattr(run, f"src_{metric}"), quantity=INDICATORS[metric][1],
                condition=f"{run.run_id}: {run.series}, {run.bp_size_total_gb:g} GB, {run.machine}; leave-one-out: "
                          f"{how}, fitted on the other 7 runs",
                published=float(getattr(run, metric)), model=pred[metric], tolerance=tolerance(metric),
                role="predicted", cell=(published.STUDY, run.file, run.run_id, metric),
                miss=LOO_MISSES.get((run.run_id, metric), "")))
    return rows


#: ITR identities outside the printed rounding: judged by hand, with the reason.
ITR_IDENTITY_MISSES = {
    "S40225B1": "601.46 / 0.7986 = 753.14, printed 753.05: 0.09 DS/s more than the printed digits allow "
                "(Tables 13 and 15 print the same three numbers)",
}


def _itr_identity_rows() -> list[LedgerRow]:
    """ITR = ETR / CPU utilisation, for every run of the single-system and data-sharing tables."""
    from .. import identities

    rows = []
    for frame, label in ((published.single_system(), "single system"),
                         (published.data_sharing(), "2-way data sharing")):
        for run in frame.itertuples():
            cells = {m: identities.cell(published.STUDY, run.file, run.run_id, m)
                     for m in ("itr_ds_per_s", "etr_ds_per_s", "cpu_util_pct")}
            slack = sum(identities.half_unit(c["printed"]) / c["value"] for c in cells.values())
            rows.append(LedgerRow(
                chapter=CHAPTER, source=run.src_itr_ds_per_s, quantity="ITR (DS/s): ETR / CPU utilisation",
                condition=f"{run.run_id}, {label}: {run.etr_ds_per_s:,.2f} DS/s at {run.cpu_util_pct:g}% busy",
                published=float(run.itr_ds_per_s), model=float(run.etr_ds_per_s) / (float(run.cpu_util_pct) / 100),
                tolerance=slack, role="identity", cell=cells["itr_ds_per_s"]["key"],
                miss=ITR_IDENTITY_MISSES.get(run.run_id, "")))
    return rows


def _night_rows(cal: Calibration) -> list[LedgerRow]:
    """Night Balancing's sync reads: the miss curve's floor and amplitude fitted (2 numbers, 3 points)."""
    night = published.night_single()
    floor, amp = night_fit(cal.workload.skew, cal.workload.working_set_gb)  # the figure's fit, not a copy
    reads = floor + amp * m.lru_miss_ratio(night["bp_size_total_gb"].to_numpy() / cal.workload.working_set_gb,
                                           cal.workload.skew)
    return [LedgerRow(
        chapter=CHAPTER, source=run.src_sync_reads_per_s, quantity="DB2 sync reads (per s), Night Balancing",
        condition=f"{run.run_id}: {run.bp_size_total_gb:g} GB, batch; floor + amplitude x the OLTP miss curve, "
                  "fitted on these 3 points", published=float(run.sync_reads_per_s), model=float(r),
        tolerance=tolerance("sync_reads_per_s"), role="fitted",
        cell=(published.STUDY, "t18_night_single_results.csv", run.run_id, "sync_reads_per_s"))
        for run, r in zip(night.itertuples(), reads)]


#: Judged by hand, run by run: these two miss their rounding band (0.62% against 0.50%, 0.79% against 0.64%).
SHARE_MISSES = ("S40201B1", "S40211B1")
SHARE_MISS = ("two parameters through four runs: the residual is beyond the printed rounding of the hit ratio "
              "and the reads, so something besides the GBP hit ratio changed between these runs")


def _printed_hit_share_rows() -> list[LedgerRow]:
    """Table 13's sync reads from reads = M (1 - f h), with h the *printed* GBP hit ratio (M and f fitted).

    The tolerance is what the printed inputs allow: the hit ratio to a whole percent moves the
    model by f * 0.005 / (1 - f h), and the reads are printed to 0.05 thousand.
    """
    fit = printed_hit_share()
    ds = published.data_sharing()
    runs = ds[ds["series"] == published.DATA_SHARING["t13_gbp_scaling_results.csv"]]
    rows = []
    for run in runs.itertuples():
        f, h = fit.gbp_dependent_fraction, float(run.gbp_hit_ratio_pct) / 100
        modelled = fit.local_miss_reads_per_ds * (1 - f * h) * float(run.etr_ds_per_s)
        tolerance_ = f * 0.005 / (1 - f * h) + 50 / float(run.sync_reads_per_s)
        rows.append(LedgerRow(
            chapter=CHAPTER, source=run.src_sync_reads_per_s,
            quantity="DB2 sync reads (per s), from the printed GBP hit ratio",
            condition=f"{run.run_id}: GBP {run.gbp_gb:g} GB, printed hit ratio {run.gbp_hit_ratio_pct:g}%; "
                      f"reads = M (1 - f h), f = {100 * f:.0f}% fitted on these four runs",
            published=float(run.sync_reads_per_s), model=modelled, tolerance=tolerance_, role="fitted",
            cell=(published.STUDY, run.file, run.run_id, "sync_reads_per_s"),
            miss=SHARE_MISS if run.run_id in SHARE_MISSES else ""))
    return rows


def ledger_rows(cal: Calibration = CALIBRATED) -> list[LedgerRow]:
    """Every published number of the study that the chapter's models reproduce."""
    return (_held_out_rows() + _single_rows(cal) + _itr_ratio_rows(cal) + _data_sharing_rows(cal)
            + _night_rows(cal) + _itr_identity_rows() + _printed_hit_share_rows())


def misses(cal: Calibration = CALIBRATED) -> "list[dict]":
    """The group-buffer-pool hit ratios, fitted but not followed: now ledger rows marked as known misses."""
    return [r.as_dict() for r in _data_sharing_rows(cal) if r.known_miss]
