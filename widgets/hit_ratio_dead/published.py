"""The numbers the deck prints, from ``data/hit_ratio_dead`` (one long CSV per screen)."""
from __future__ import annotations

import pandas as pd

from ..citations import citing
from ..data import load_long, number, wide

STUDY = "hit_ratio_dead"
IMS = "ims_subpool_simulation.csv"
QUOTED = "quoted.csv"
OBJECTS = "object_screens.csv"
#: The Pool Info screens in the deck's order, by the collection date they show.
SCREENS = {
    "2002-03-28": "pool_info_2002_03_28.csv",
    "2003-06-04": "pool_info_2003_06_04.csv",
    "2003-07-02": "pool_info_2003_07_02.csv",
    "2003-10-06": "pool_info_2003_10_06.csv",
    "undated": "pool_info_undated.csv",
    "2004-03-01": "pool_info_2004_03_01.csv",
    "2004-08-09": "pool_info_2004_08_09.csv",
}


def value(filename: str, run_id: str, metric: str) -> float:
    """One printed number (in its unit)."""
    return number(STUDY, filename, run_id, metric)


#: ``cite(filename, run_id, metric)``: document, screen or slide of one printed number.
cite = citing(STUDY)


def ims() -> pd.DataFrame:
    """The IMS subpool simulation, one row per pool size (buffers, get blocks, hits, ratio, rates)."""
    table = wide(load_long(STUDY, IMS))
    table = table[table.index.str.startswith("spool_")]
    return pd.DataFrame({
        "pool_buffers": table["spool_size_buffers"], "get_blocks": table["getb_used"], "hits": table["hits"],
        "hit_ratio_pct": table["hit_ratio_pct"], "elapsed_s": table["elapsed_s"],
        "blocks_read_per_s": table["blocks_read_per_s"]}).reset_index(names="run_id")


def screen_pools(screen: str) -> pd.DataFrame:
    """One Pool Info screen's pools (one row per pool, one column per printed metric)."""
    table = wide(load_long(STUDY, SCREENS[screen]))
    return table.drop(index=[r for r in ("screen", "total") if r in table.index])


def screen_value(screen: str, run_id: str, metric: str) -> float:
    """A number of one screen: a pool's cell, a ``total`` cell or a ``screen`` fact."""
    return value(SCREENS[screen], run_id, metric)


def screen_cite(screen: str, run_id: str, metric: str) -> str:
    return cite(SCREENS[screen], run_id, metric)


#: The large-memory study's isolated-pool runs at 161, 320 and 638 GB (its Table 4), for the bridge.
LARGE_MEMORY_TABLE = "t04_isolated_results.csv"
LARGE_MEMORY_RUNS = ("S30801B1", "S30802B1", "S30906B2")
#: The large-memory study's ``cite(filename, run_id, metric)``: its cells cited as its own chapter cites them.
cite_large_memory = citing("large_memory")


def large_memory_runs() -> pd.DataFrame:
    """Pool size (GB), total hit ratio (%), sync reads per s and ETR (DS/s) of each run, with the source."""
    rows = []
    for run in LARGE_MEMORY_RUNS:
        def cell(metric, run=run):
            return number("large_memory", LARGE_MEMORY_TABLE, run, metric)

        rows.append({"run": run, "pool_gb": cell("bp_size_total_gb"), "hit_ratio_pct": cell("hit_ratio_pct"),
                     "sync_reads_per_s": cell("sync_reads_per_s"), "etr_ds_per_s": cell("etr_ds_per_s"),
                     "source": cite_large_memory(LARGE_MEMORY_TABLE, run, "sync_reads_per_s")})
    return pd.DataFrame(rows)
