"""The large-memory chapter's rows of the fidelity ledger, and where their tolerances come from.

A tolerance is what the data can tell apart (see :mod:`widgets.ledger`):

* **spread** for sync reads at 161 and 638 GB: the study ran the same consolidated pools twice, on the
  zEC12 (Table 6) and on the z13 (Table 23), and sync reads per dialog step depend on the pools and the
  workload, not on the processor (we read). Their difference at the same size, ``|a - b| / min(a, b)``, is
  the spread; where it is wider than 25% (32K pages at 638 GB, a fraction of a read per step) the row
  states it absolutely, in reads per second at that run's ETR;
* **rounding** for everything else: half a unit of the last printed digit of the published number (and of
  the printed inputs an identity or a per-step quantity uses).

No other repeated measurement is printed, so a fitted curve through runs printed to five or six digits is
held to those digits; rows outside them are known misses, each with its reason in words.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .. import identities
from ..ledger import LedgerRow
from . import model as m
from . import published
from .calibration import (CALIBRATED, LAYOUT_FIT_RUNS, Calibration, layout_reads_per_ds, night_fit,
                          predict_data_sharing, predict_single, printed_hit_share)

CHAPTER = "Large memory"

INDICATORS = {  # published column -> (chain output, label)
    "sync_reads_per_s": ("reads_per_s", "DB2 sync reads (per s)"),
    "itr_ds_per_s": ("itr", "ITR (DS/s)"),
    "etr_ds_per_s": ("etr", "ETR (DS/s)"),
    "db_request_time_s": ("request_s", "DB request time (s)"),
}
#: The repeated runs: the same consolidated pools on the zEC12 and on the z13, by total size (GB).
REPEATS = {161.0: ("S31114B1", "S41103B1"), 638.0: ("S31118B1", "S41102B1")}


def _up(x: float) -> float:
    """``x`` rounded *up* to three significant digits, as the page shows an absolute tolerance."""
    scale = 10.0 ** (math.floor(math.log10(abs(x))) - 2)
    return math.ceil(x / scale - 1e-9) * scale


def rounding(filename: str, run_id: str, metric: str) -> dict:
    """Tolerance fields for one printed cell held to its printed digits: half a unit of its last digit."""
    c = identities.cell(published.STUDY, filename, run_id, metric)
    half = identities.half_unit(c["printed"])
    return {"tolerance": half / abs(c["value"]), "basis": "rounding",
            "basis_note": f"printed {c['printed']}: \u00b1{half:g}"}


@lru_cache(maxsize=None)
def repeat_spread(total_gb: float, page: str = "total") -> tuple[float, float]:
    """(relative, absolute per DS) spread of sync reads per dialog step between the zEC12 and z13 runs of the
    same consolidated pools at ``total_gb`` (161 or 638 GB), for one page size or the ``total``."""
    if float(total_gb) not in REPEATS:
        raise ValueError(f"total_gb={total_gb!r}: the study repeats only {sorted(REPEATS)} GB")
    if page == "total":
        ss = published.single_system().set_index("run_id")["sync_reads_per_ds"]
    else:
        pr = published.page_size_reads()
        ss = pr[pr["page"] == page].set_index("run_id")["reads_per_ds"]
    a, b = (float(ss[r]) for r in REPEATS[float(total_gb)])
    return abs(a - b) / min(a, b), abs(a - b)


def sync_read_tolerance(filename: str, run_id: str, metric: str, total_gb: float, etr: float,
                        page: str = "total") -> dict:
    """Tolerance fields of a sync-read row: the zEC12/z13 spread at 161 and 638 GB, else the printed digits."""
    if float(total_gb) not in REPEATS:
        return rounding(filename, run_id, metric)
    rel, per_ds = repeat_spread(total_gb, page)
    runs = " and ".join(REPEATS[float(total_gb)])
    what = "" if page == "total" else f"{page.upper()} "
    note = f"zEC12/z13 repeat, {runs}: {what}reads per step"
    if rel <= 0.25:
        return {"tolerance": rel, "basis": "spread", "basis_note": f"{note}: {100 * rel:.1f}%"}
    return {"tolerance": None, "absolute": _up(per_ds * etr), "unit": "reads/s", "basis": "spread",
            "basis_note": f"{note} {per_ds:.3f} apart, x ETR"}


#: The closed loop's ETR misses: the loop holds one time per dialog step outside DB2.
ETR_LOOP_MISS = ("the loop holds the time outside DB2 fixed; the printed runs give 14.2 s at 161 GB and 10.6 s at "
                 "638 GB, a gain from outside the DB request time that the study does not measure")
#: Why a fitted link misses its printed digits (no repeated run prints a wider spread for these quantities).
FIT_MISS = {
    "sync_reads_per_s": "one LRU pool sees only the total size, so both layouts get the same reads (the per-pool "
                        "rows see the layout)",
    "itr_ds_per_s": "one CPU line through eight runs printed to 0.01 DS/s; the layouts alone differ by 3.4% at 638 GB",
    "db_request_time_s": "a three-parameter curve through eight runs printed to the millisecond",
    "etr_ds_per_s": ETR_LOOP_MISS,
}


def _miss_if(row: LedgerRow, reason: str) -> LedgerRow:
    """The row, marked a known miss with ``reason`` when it falls outside its tolerance."""
    from dataclasses import replace

    if row.passed or not reason:
        return row
    return replace(row, miss=reason, tolerance=None) if row.absolute is not None else replace(row, miss=reason)


def _single_rows(cal: Calibration) -> list[LedgerRow]:
    ss = published.single_system()
    rows = []
    for run in ss.itertuples():
        pred = predict_single(run.bp_size_total_gb, run.machine, cal)
        for metric, (key, label) in INDICATORS.items():
            tol = (sync_read_tolerance(run.file, run.run_id, metric, run.bp_size_total_gb, run.etr_ds_per_s)
                   if metric == "sync_reads_per_s" else rounding(run.file, run.run_id, metric))
            rows.append(_miss_if(LedgerRow(
                chapter=CHAPTER, source=getattr(run, f"src_{metric}"), quantity=label,
                condition=f"{run.run_id}: {run.series}, {run.bp_size_total_gb:g} GB, {run.machine}",
                published=float(getattr(run, metric)), model=float(pred[key][()]), role="fitted",
                cell=(published.STUDY, run.file, run.run_id, metric), **tol), FIT_MISS[metric]))
    return rows


def _layout_rows() -> list[LedgerRow]:
    """The per-pool model: sync reads of each page size, fitted on the consolidated runs (Tables 6, 23), the
    isolated runs (Table 4) held out; and the isolated runs' totals, held out."""
    pr = published.page_size_reads()
    rows = []
    for r in pr.itertuples():
        fitted = r.run_id in LAYOUT_FIT_RUNS
        model_ds = layout_reads_per_ds(r.run_id)[r.page]
        how = "fitted" if fitted else "held out"
        rows.append(_miss_if(LedgerRow(
            chapter=CHAPTER, source=r.source, quantity=f"{r.page.upper()} sync reads (per s), per-pool model",
            condition=f"{r.run_id}: {r.series}, {r.bp_size_total_gb:g} GB; {how}",
            published=r.reads_per_s, model=model_ds * r.etr_ds_per_s, role="fitted" if fitted else "predicted",
            cell=(published.STUDY, r.file, r.run_id, r.metric),
            **sync_read_tolerance(r.file, r.run_id, r.metric, r.bp_size_total_gb, r.etr_ds_per_s, r.page)),
            LAYOUT_MISS.get((r.run_id, r.page), (LAYOUT_FIT_MISS_320 if r.bp_size_total_gb == 320 else LAYOUT_FIT_MISS)
                            if fitted else "")))
    ss = published.single_system()
    for run in ss[ss["series"] == "isolated"].itertuples():
        rows.append(_miss_if(LedgerRow(
            chapter=CHAPTER, source=run.src_sync_reads_per_s, quantity="DB2 sync reads (per s), per-pool model",
            condition=f"{run.run_id}: isolated, {run.bp_size_total_gb:g} GB; held out",
            published=float(run.sync_reads_per_s), model=layout_reads_per_ds(run.run_id)["total"] * run.etr_ds_per_s,
            role="predicted", cell=(published.STUDY, run.file, run.run_id, "sync_reads_per_s"),
            **sync_read_tolerance(run.file, run.run_id, "sync_reads_per_s", run.bp_size_total_gb,
                                  run.etr_ds_per_s)),
            LAYOUT_MISS.get((run.run_id, "total"), "")))
    return rows


LAYOUT_FIT_MISS = "the fit sits between the zEC12 and z13 runs of the same pools, outside their spread"
LAYOUT_FIT_MISS_320 = "the fit passes within 0.2% of the 320 GB point, not within its printed hundredth"
_UNIFORM = ("every group gets the same getpages per GB of its 638 GB pool, but the study kept pools small where "
            "objects were re-read less (BP28: 6.9 of 38 GB at 320 GB)")
_8K = "isolated 8K pools read less than consolidated ones; the model gives them about the same"
_FLOOR = "the floor is fitted on the consolidated runs; the isolated run's differs by more than the spread"
#: The held-out isolated rows outside the zEC12/z13 spread (or the printed digits at 320 GB), with the reason.
LAYOUT_MISS = {
    ("S30801B1", "4k"): _UNIFORM, ("S30802B1", "4k"): _UNIFORM, ("S30802B1", "total"): _UNIFORM,
    ("S30801B1", "total"): _UNIFORM, ("S30801B1", "8k"): _8K, ("S30802B1", "8k"): _8K,
    ("S30801B1", "32k"): "the 32K weights come from 638 GB; at 161 GB the curve is extrapolated",
    ("S30802B1", "32k"): "at 320 GB the 32K curve is interpolated between three sizes, far coarser than the digits",
    ("S30906B2", "32k"): "1.89 reads/s isolated, 205 consolidated, for the same memory and objects: an LRU over "
                         "independent references gives both the same (a scan or prefetch in the pool, perhaps)",
    ("S30906B2", "total"): "the 32K pools: 1.89 reads/s isolated, 205 consolidated; the model gives both the same",
    ("S30906B2", "8k"): _FLOOR, ("S30906B2", "4k"): _FLOOR,
}


def _itr_ratio_rows(cal: Calibration) -> list[LedgerRow]:
    rows = []
    for name, printed, source in published.itr_ratios().itertuples(index=False):
        itr = predict_single(np.array([161.0, 638.0]), name, cal)["itr"]
        rows.append(_miss_if(LedgerRow(
            chapter=CHAPTER, source=source,
            quantity="ITR ratio 638 GB / 161 GB", condition=f"consolidated pools, {name}",
            published=float(printed), model=float(itr[1] / itr[0]), role="fitted",
            **rounding(published.ITR_RATIOS, name, "itr_ratio_638_vs_161_gb")), FIT_MISS["itr_ds_per_s"]))
    return rows


def _data_sharing_rows(cal: Calibration) -> list[LedgerRow]:
    ds = published.data_sharing()
    rows = []
    for run in ds.itertuples():
        pred = predict_data_sharing(run.lbp_per_member_gb, run.gbp_gb, cal)
        cond = f"{run.run_id}: LBP {run.lbp_per_member_gb:g} GB/member, GBP {run.gbp_gb:g} GB"
        rows.append(_miss_if(LedgerRow(
            chapter=CHAPTER, source=run.src_sync_reads_per_s,
            quantity="DB2 sync reads (per s), 2-way data sharing", condition=cond,
            published=float(run.sync_reads_per_s),
            # no ETR model for data sharing: per-DS reads are scaled by the measured ETR
            model=float(pred["reads_per_ds"]) * float(run.etr_ds_per_s), role="fitted",
            cell=(published.STUDY, run.file, run.run_id, "sync_reads_per_s"),
            **rounding(run.file, run.run_id, "sync_reads_per_s")), DS_READS_MISS))
        rows.append(_miss_if(LedgerRow(
            chapter=CHAPTER, source=run.src_itr_ds_per_s,
            quantity="ITR (DS/s), 2-way data sharing", condition=cond,
            published=float(run.itr_ds_per_s), model=float(pred["itr"]), role="fitted",
            cell=(published.STUDY, run.file, run.run_id, "itr_ds_per_s"),
            **rounding(run.file, run.run_id, "itr_ds_per_s")), DS_ITR_MISS))
        rows.append(_miss_if(LedgerRow(
            chapter=CHAPTER, source=run.src_gbp_hit_ratio_pct,
            quantity="group buffer pool hit ratio (%)", condition=cond + "; fitted, held to the printed whole percent",
            published=float(run.gbp_hit_ratio_pct), model=100 * float(pred["gbp_hit"]), tolerance=None,
            absolute=0.5, unit="points", basis="rounding", basis_note="printed to a whole percent: \u00b10.5 points",
            role="fitted", cell=(published.STUDY, run.file, run.run_id, "gbp_hit_ratio_pct")), GBP_MISS))
    return rows


GBP_MISS = ("the group pool does not depend on the local pools in the model; Table 10's hit ratio goes 37%, 33%, "
            "30%, 53% as they grow")
DS_READS_MISS = "one LRU pool per member before the GBP: the nine runs scatter about it beyond their digits"
DS_ITR_MISS = "one CPU line through nine runs printed to 0.01 DS/s"
#: Leave-one-out rows outside the printed digits: judged by hand, with the reason.
LOO_MISS = {
    "itr_ds_per_s": "held out, the CPU line of the other seven runs misses by more than the printed digits",
    "db_request_time_s": "held out, the curve of the other seven runs misses by more than the printed millisecond",
    "etr_ds_per_s": ETR_LOOP_MISS,
}


def _held_out_rows() -> list[LedgerRow]:
    """Leave-one-out: each run's ITR, request time and ETR from links refitted without that run."""
    from .calibration import LINKS, held_out_links

    rows = []
    for run in published.single_system().itertuples():
        pred = held_out_links(run.run_id)
        for metric, how in LINKS.items():
            rows.append(_miss_if(LedgerRow(
                chapter=CHAPTER, source=getattr(run, f"src_{metric}"), quantity=INDICATORS[metric][1],
                condition=f"{run.run_id}: {run.series}, {run.bp_size_total_gb:g} GB, {run.machine}; {how}, "
                          "refitted without this run",
                published=float(getattr(run, metric)), model=pred[metric], role="predicted",
                cell=(published.STUDY, run.file, run.run_id, metric),
                **rounding(run.file, run.run_id, metric)), LOO_MISS[metric]))
    return rows


#: ITR identities outside the printed rounding: judged by hand, with the reason.
ITR_IDENTITY_MISSES = {
    "S40225B1": "601.46 / 0.7986 = 753.14, printed 753.05: 0.09 DS/s more than the printed digits allow "
                "(Tables 13 and 15 print the same three numbers)",
}


def _itr_identity_rows() -> list[LedgerRow]:
    """ITR = ETR / CPU utilisation, for every run of the single-system and data-sharing tables."""
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
                tolerance=slack, role="identity", cell=cells["itr_ds_per_s"]["key"], basis="rounding",
                basis_note="half a unit of the printed ITR, ETR and utilisation, added",
                miss=ITR_IDENTITY_MISSES.get(run.run_id, "")))
    return rows


NIGHT_MISS = "floor and amplitude on the OLTP curve's shape, through three batch runs printed to 0.01"


def _night_rows(cal: Calibration) -> list[LedgerRow]:
    """Night Balancing's sync reads: the miss curve's floor and amplitude fitted (2 numbers, 3 points)."""
    night = published.night_single()
    floor, amp = night_fit(cal.workload.skew, cal.workload.working_set_gb)  # the figure's fit, not a copy
    reads = floor + amp * m.lru_miss_ratio(night["bp_size_total_gb"].to_numpy() / cal.workload.working_set_gb,
                                           cal.workload.skew)
    name = "t18_night_single_results.csv"
    return [_miss_if(LedgerRow(
        chapter=CHAPTER, source=run.src_sync_reads_per_s, quantity="DB2 sync reads (per s), Night Balancing",
        condition=f"{run.run_id}: {run.bp_size_total_gb:g} GB, batch; floor + amplitude x the OLTP miss curve, "
                  "fitted on these 3 points", published=float(run.sync_reads_per_s), model=float(r), role="fitted",
        cell=(published.STUDY, name, run.run_id, "sync_reads_per_s"),
        **rounding(name, run.run_id, "sync_reads_per_s")), NIGHT_MISS)
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
            basis="rounding", basis_note="the hit ratio printed to a whole percent and the reads to 0.05K",
            cell=(published.STUDY, run.file, run.run_id, "sync_reads_per_s"),
            miss=SHARE_MISS if run.run_id in SHARE_MISSES else ""))
    return rows


#: The summary tables' deltas: file -> the results frame their runs come from (the first run is the base).
DELTA_TABLES = {"t08_isolated_improvements.csv": "single", "t09_consolidated_improvements.csv": "single",
                "t24_z13_improvements.csv": "single", "t12_lbp_scaling_improvements.csv": "sharing",
                "t15_gbp_scaling_improvements.csv": "sharing", "t17_lbp_gbp_improvements.csv": "sharing",
                "t19_night_single_summary.csv": "night"}
DELTA_OF = {"itr_delta_pct": "itr_ds_per_s", "etr_delta_pct": "etr_ds_per_s", "cpu_util_delta_pct": "cpu_util_pct",
            "db_request_time_delta_pct": "db_request_time_s", "sync_reads_delta_pct": "sync_reads_per_s",
            "max_elapsed_time_delta_pct": "max_elapsed_time_s"}
NIGHT_DELTA_OF = {"etr_delta_pct": "throughput_accounts_per_hour"}


def _delta_rows() -> list[LedgerRow]:
    """Every delta of the summary tables (Tables 8, 9, 12, 15, 17, 19, 24), recomputed from the printed results
    of the same runs: 100 (x / x_base - 1), held to the printed digits of the delta and of its two inputs."""
    from ..data import load_long

    frames = {"single": published.single_system(), "sharing": published.data_sharing(),
              "night": published.night_single()}
    rows = []
    for filename, kind in DELTA_TABLES.items():
        frame = frames[kind].set_index("run_id")
        table = load_long(published.STUDY, filename)
        base = table["run_id"].iloc[0]
        for cell in table[table["metric"].isin(list(DELTA_OF))].itertuples():
            if cell.value != cell.value or cell.run_id == base:  # "n/a", or a bound such as "<1%"
                continue
            metric = (NIGHT_DELTA_OF if kind == "night" else {}).get(cell.metric, DELTA_OF[cell.metric])
            now, then = float(frame.loc[cell.run_id, metric]), float(frame.loc[base, metric])
            src = {r: identities.cell(published.STUDY, frame.loc[r, "file"] if "file" in frame else
                                      "t18_night_single_results.csv", r, metric) for r in (cell.run_id, base)}
            slack = 100 * (now / then) * sum(identities.half_unit(c["printed"]) / c["value"] for c in src.values())
            flag = str(cell.flag) if cell.flag == cell.flag else ""
            # a reconstructed cell's printed text is garbled ("3.56 2%"): its digits are the value's
            printed = identities.half_unit(f"{cell.value:g}" if flag == "reconstructed" else str(cell.printed))
            rows.append(LedgerRow(
                chapter=CHAPTER, source=published.cite(filename, cell.run_id, cell.metric),
                quantity=f"{cell.metric.replace('_delta_pct', '').replace('_', ' ')} change (%)",
                condition=f"{cell.run_id} against {base}: 100 x ({src[cell.run_id]['printed']} / "
                          f"{src[base]['printed']} - 1)"
                          + (f" (flagged in the data: {flag})" if flag else ""),
                published=float(cell.value), model=100 * (now / then - 1), tolerance=None,
                absolute=_up(printed + slack), unit="points", role="identity", basis="rounding",
                basis_note=f"printed {cell.printed}, and the inputs' digits",
                miss=DELTA_MISSES.get((filename, cell.run_id, cell.metric), "")))
    return rows


#: Deltas outside their printed digits: judged by hand, with the reason.
DELTA_MISSES = {
    ("t08_isolated_improvements.csv", "S30906B2", "sync_reads_delta_pct"):
        "printed -97%; 939.34 / 38.4K gives -97.55%, which rounds to -98% (the table prints these reads as 0.9K)",
    ("t15_gbp_scaling_improvements.csv", "S40218B1", "sync_reads_delta_pct"):
        "printed +8%, but the reads fell from 44.0K to 40.3K per second, -8.4%: the minus sign was lost",
}


def ledger_rows(cal: Calibration = CALIBRATED) -> list[LedgerRow]:
    """Every published number of the study that the chapter's models reproduce."""
    return (_held_out_rows() + _layout_rows() + _single_rows(cal) + _itr_ratio_rows(cal) + _data_sharing_rows(cal)
            + _night_rows(cal) + _itr_identity_rows() + _delta_rows() + _printed_hit_share_rows())


def misses(cal: Calibration = CALIBRATED) -> "list[dict]":
    """The group-buffer-pool hit ratios, fitted but not followed: ledger rows marked as known misses."""
    return [r.as_dict() for r in _data_sharing_rows(cal) if r.known_miss and r.quantity.startswith("group")]
