"""The numbers section 3.10 prints, from ``data/zhyperlink`` (reductions are stored negative)."""
from __future__ import annotations

from functools import lru_cache

from ..data import load_long, source_text, wide

STUDY = "zhyperlink"
DOC = "IBM Redbooks SG24-8536 (2022)"
RESULTS = "s3_10_results.csv"
LIMITS = "s3_10_limits.csv"


@lru_cache(maxsize=None)
def value(run_id: str, metric: str, filename: str = RESULTS) -> float:
    """One printed number (in its unit; reductions negative)."""
    table = wide(load_long(STUDY, filename))
    if run_id not in table.index or metric not in table.columns or table.loc[run_id, metric] != table.loc[run_id, metric]:
        raise ValueError(f"{filename}: no number for run {run_id!r}, metric {metric!r}")
    return float(table.loc[run_id, metric])


def cite(run_id: str, metric: str, filename: str = RESULTS) -> str:
    """Document, section, page and line of one printed number."""
    long = load_long(STUDY, filename)
    row = long[(long["run_id"] == run_id) & (long["metric"] == metric)]
    if row.empty:
        raise ValueError(f"{filename}: no cell for run {run_id!r}, metric {metric!r}")
    return f"{DOC}, " + source_text(STUDY, filename, int(row["line"].iloc[0])).split(", ", 1)[1]
