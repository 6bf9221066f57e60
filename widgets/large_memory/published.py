"""The study's published runs, gathered from ``data/large_memory`` into tidy frames.

Each frame has one row per measured run and the columns the models need, plus ``source``
(document, section, table, page) for tooltips and the ledger.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
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


# --- the layouts: which objects each pool holds, and each pool's size (Tables 2, 3, 5, 7) -------------

PAGE_SIZES = ("4k", "8k", "32k")
#: Object groups as the isolated layout separates them (Table 2), with the consolidated pool that holds each
#: (Table 3): (group, page size, isolated pool, consolidated pool). Table pools go to BP2 / BP8K1 / BP32K1,
#: index pools to BP3 / BP8K2 / BP32K2. Isolated BP8K1 holds 8K tables and one index (Table 2), so it is
#: two groups. The catalog pools (BP0, BP8K0 in Table 3, BP32K) are alike in both layouts and not modelled.
#: Table 2's extraction lost the objects of BP32K2 and BP32K3; Table 7's sizes place them: consolidated
#: BP32K1 minus isolated BP32K4 is isolated BP32K2 at every size, and BP32K2 is BP32K3 + BP32K5 + 0.092 GB.
LAYOUT_GROUPS = (
    *((g, "4k", g, "bp2") for g in ("bp2", "bp4", "bp8", "bp10", "bp20", "bp24", "bp28", "bp32", "bp34", "bp42",
                                    "bp44")),
    *((g, "4k", g, "bp3") for g in ("bp3", "bp5", "bp7", "bp9", "bp11", "bp21", "bp25", "bp29", "bp33", "bp35",
                                    "bp37", "bp43", "bp45")),
    ("bp8k0", "8k", "bp8k0", "bp8k1"), ("bp8k1 tables", "8k", "bp8k1", "bp8k1"),
    ("bp8k1 index", "8k", "bp8k1", "bp8k2"), ("bp8k2", "8k", "bp8k2", "bp8k2"),
    ("bp32k2", "32k", "bp32k2", "bp32k1"), ("bp32k4", "32k", "bp32k4", "bp32k1"),
    ("bp32k3", "32k", "bp32k3", "bp32k2"), ("bp32k5", "32k", "bp32k5", "bp32k2"),
)
#: The run whose isolated pool sizes weigh the object groups: the largest, where the study grew every pool
#: that "could benefit" until nearly nothing was read (hit ratio 99.84%, Table 4).
WEIGHT_RUN = ("S30906B2", "S31118B1")  # (isolated, consolidated) at 638 GB
#: The pool sizes each run used: Table 5 (isolated), Table 7 (consolidated); the z13 runs repeat Table 7's
#: 161 and 638 GB allocations (the processor was the only change, text line 1156).
SIZES_OF = {"S30801B1": "S30801B1", "S30802B1": "S30802B1", "S30906B2": "S30906B2", "S31114B1": "S31114B1",
            "S31115B1": "S31115B1", "S31118B1": "S31118B1", "S41103B1": "S31114B1", "S41102B1": "S31118B1"}
POOL_SIZES = {"isolated": "t05_isolated_pool_sizes.csv", "consolidated": "t07_consolidated_pool_sizes.csv"}


@lru_cache(maxsize=None)
def pool_sizes(layout: str) -> pd.DataFrame:
    """Pool sizes in GB of one layout (``isolated``: Table 5, ``consolidated``: Table 7), one row per run."""
    if layout not in POOL_SIZES:
        raise ValueError(f"layout={layout!r} is not one of {sorted(POOL_SIZES)}")
    table = wide(load_long(STUDY, POOL_SIZES[layout]))
    return table[[c for c in table.columns if c.startswith("size_gb_bp")]].rename(columns=lambda c: c[8:])


@lru_cache(maxsize=None)
def group_weights() -> dict[str, float]:
    """GB of weight of each object group: its isolated pool at 638 GB (Table 5); isolated BP8K1's two groups
    take what consolidation moved from it to the 8K table and index pools at 638 GB (Table 7)."""
    iso, con = (pool_sizes(k).loc[r] for k, r in zip(("isolated", "consolidated"), WEIGHT_RUN))
    split = {"bp8k1 tables": con["bp8k1"] - iso["bp8k0"], "bp8k1 index": con["bp8k2"] - iso["bp8k2"]}
    return {g: float(split.get(g, iso.get(ip, 0.0))) for g, _, ip, _ in LAYOUT_GROUPS}


def layout_of(run_id: str) -> str:
    """``isolated`` or ``consolidated``: the layout of a single-system Day Posting run (Tables 4, 6, 23)."""
    ss = single_system()
    if run_id not in set(ss["run_id"]):
        raise ValueError(f"run_id={run_id!r} is not one of {sorted(ss['run_id'])}")
    return "isolated" if ss.set_index("run_id").loc[run_id, "series"] == "isolated" else "consolidated"


@lru_cache(maxsize=None)
def layout_pools(run_id: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{page size: (capacity GB, weight GB)} over the pools of that page size the run used, one entry a pool."""
    layout = layout_of(run_id)
    sizes = pool_sizes(layout).loc[SIZES_OF[run_id]]
    weights = group_weights()
    out = {}
    for page in PAGE_SIZES:
        pools: dict[str, float] = {}
        for group, p, iso_pool, con_pool in LAYOUT_GROUPS:
            if p == page:
                pool = iso_pool if layout == "isolated" else con_pool
                pools[pool] = pools.get(pool, 0.0) + weights[group]
        out[page] = (np.array([float(sizes[k]) for k in pools]), np.array(list(pools.values())))
    return out


@lru_cache(maxsize=None)
def page_size_reads() -> pd.DataFrame:
    """Sync reads per second and per dialog step of each page size, every single-system Day Posting run:
    columns run_id, series, layout, bp_size_total_gb, page, reads_per_s, reads_per_ds, etr_ds_per_s, file,
    source (Tables 4, 6, 23)."""
    rows = []
    for filename, (series, _) in SINGLE_SYSTEM.items():
        table = wide(load_long(STUDY, filename))
        for run in table.index:
            for page in PAGE_SIZES:
                metric = f"sync_reads_per_s_{page}"
                rows.append({"run_id": run, "series": series, "layout": "isolated" if series == "isolated"
                             else "consolidated", "bp_size_total_gb": float(table.loc[run, "bp_size_total_gb"]),
                             "page": page, "reads_per_s": float(table.loc[run, metric]),
                             "etr_ds_per_s": float(table.loc[run, "etr_ds_per_s"]), "file": filename,
                             "metric": metric, "source": cite(filename, run, metric)})
    out = pd.DataFrame(rows)
    out["reads_per_ds"] = out["reads_per_s"] / out["etr_ds_per_s"]
    return out
