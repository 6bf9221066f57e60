"""The study's published runs, gathered from ``data/large_memory`` into tidy frames.

Each frame has one row per measured run and the columns the models need, plus ``source``
(document, section, table, page) for tooltips and the ledger.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from ..citations import citing
from ..data import load_long, wide

STUDY = "large_memory"
#: ``cite(filename, run_id, metric)``: document, section, table and page of one printed cell.
cite = citing(STUDY)
#: Figure 18's two ITR ratios, as the text beside the figure prints them (no table holds them).
ITR_RATIOS = "f18_itr_ratios.csv"

SINGLE_SYSTEM = {  # file -> (series, machine)
    "t04_isolated_results.csv": ("isolated", "zEC12"),
    "t06_consolidated_results.csv": ("consolidated", "zEC12"),
    "t23_z13_results.csv": ("z13 consolidated", "z13"),
}
DATA_SHARING = {
    "t10_lbp_scaling_results.csv": "LBP scaling (GBP 64 GB)",
    "t13_gbp_scaling_results.csv": "GBP scaling (LBP 58 GB)",
    "t16_lbp_gbp_results.csv": "large LBP + large GBP",
}
NIGHT = {"t18_night_single_results.csv": "single system"}


def _frame(filename: str, metrics: list[str]) -> pd.DataFrame:
    table = wide(load_long(STUDY, filename))
    missing = [m for m in metrics if m not in table.columns]
    if missing:
        raise ValueError(f"{filename}: missing metric(s) {missing}")
    return table[metrics].copy()


@lru_cache(maxsize=None)
def single_system() -> pd.DataFrame:
    """Day Posting, single system: Tables 4, 6 (zEC12) and 23 (z13)."""
    metrics = ["bp_size_total_gb", "users", "cp_count", "etr_ds_per_s", "cpu_util_pct", "itr_ds_per_s",
               "db_request_time_s", "sync_reads_per_s", "hit_ratio_pct"]
    frames = []
    for filename, (series, machine) in SINGLE_SYSTEM.items():
        table = _frame(filename, metrics)
        table["series"], table["machine"], table["file"] = series, machine, filename
        _add_sources(table, filename, metrics)
        frames.append(table)
    out = pd.concat(frames).rename_axis("run_id").reset_index()
    out["sync_reads_per_ds"] = out["sync_reads_per_s"] / out["etr_ds_per_s"]
    return out


def _add_sources(table: pd.DataFrame, filename: str, metrics: list[str]) -> None:
    """Add ``src_<metric>`` columns citing each cell, and ``source`` (the sync reads')."""
    for metric in metrics:
        table[f"src_{metric}"] = [cite(filename, run, metric) for run in table.index]
    table["source"] = table["src_sync_reads_per_s"]


@lru_cache(maxsize=None)
def data_sharing() -> pd.DataFrame:
    """Day Posting, 2-way data sharing: Tables 10, 13 and 16."""
    metrics = ["lbp_per_member_gb", "gbp_gb", "users", "etr_ds_per_s", "cpu_util_pct", "itr_ds_per_s",
               "db_request_time_s", "sync_reads_per_s", "hit_ratio_pct", "gbp_hit_ratio_pct"]
    frames = []
    for filename, series in DATA_SHARING.items():
        table = _frame(filename, metrics)
        table["series"], table["file"] = series, filename
        _add_sources(table, filename, metrics)
        frames.append(table)
    out = pd.concat(frames).rename_axis("run_id").reset_index()
    out["cp_count"] = 12  # 2 LPARs x 6 CPs (Tables 10, 13, 16)
    out["sync_reads_per_ds"] = out["sync_reads_per_s"] / out["etr_ds_per_s"]
    return out


@lru_cache(maxsize=None)
def itr_ratios() -> pd.DataFrame:
    """Figure 18: the ITR at 638 GB over the ITR at 161 GB, consolidated pools, one row per machine
    (``machine``: zEC12, z13), with ``itrr`` and its ``source``."""
    frame = load_long(STUDY, ITR_RATIOS)
    return pd.DataFrame({"machine": frame["run_id"], "itrr": frame["value"],
                         "source": [cite(ITR_RATIOS, r, m) for r, m in zip(frame["run_id"], frame["metric"])]})


def night_single() -> pd.DataFrame:
    """Night Balancing, single system: Table 18."""
    metrics = ["bp_size_total_gb", "cpu_util_pct", "max_elapsed_time_s", "throughput_accounts_per_hour",
               "sync_reads_per_s", "dyn_prefetch_pages_read_per_s", "hit_ratio_pct", "batch_jobs"]
    filename = "t18_night_single_results.csv"
    table = _frame(filename, metrics)
    _add_sources(table, filename, metrics)
    return table.rename_axis("run_id").reset_index()
