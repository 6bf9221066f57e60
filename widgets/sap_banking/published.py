"""The brief's measured runs, gathered from ``data/sap_banking`` into tidy frames.

Table 3 (Posting: six runs, 2 to 60 processors, two-way data sharing) and Table 4 (Balancing:
one run at 48 processors). Every frame keeps, next to each value, its unit, the cell as printed,
its flag and ``source``: document, table and page. Loading only; no model here.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from .. import citations
from ..citations import citing
from ..data import load_long, wide

STUDY = "sap_banking"
POSTING = "t3_posting_results.csv"
BALANCING = "t4_balancing_results.csv"
POSTINGS_PER_CYCLE = 175  # section 6.1, line 170
DIALOG_STEPS_PER_CYCLE = 15  # section 6.1, line 168


#: ``cite(filename, run_id, metric)``: document, table, section and page of one printed cell.
cite = citing(STUDY)


def _cite_line(filename: str, line: int) -> str:
    """The reader's citation of a cell known by its extraction line (the tidy loader's rows)."""
    return citations.cite(STUDY, filename, line=line)


def _tidy(filename: str) -> pd.DataFrame:
    """One row per numeric cell: run, processors, metric, unit, value, printed, flag, note, source."""
    long = load_long(STUDY, filename)
    cps = wide(long)["cp_total"]
    numeric = long[long["value"].notna()].copy()
    numeric.insert(1, "processors", [int(cps[run]) for run in numeric["run_id"]])
    numeric["flag"] = numeric["flag"].str.strip()
    numeric["source"] = [_cite_line(filename, line) for line in numeric["line"]]
    return numeric[["run_id", "processors", "metric", "unit", "value", "printed", "flag", "note", "source"]] \
        .reset_index(drop=True)


@lru_cache(maxsize=None)
def posting_results() -> pd.DataFrame:
    """Table 3, tidy: the Posting runs' numbers (dialog steps/s, postings/hour, %, s, MB ...)."""
    return _tidy(POSTING)


@lru_cache(maxsize=None)
def balancing_results() -> pd.DataFrame:
    """Table 4, tidy: the Balancing run's numbers (accounts/s, accounts/hour, s, min, % ...)."""
    return _tidy(BALANCING)


def runs(tidy: pd.DataFrame, metrics: list[str]) -> pd.DataFrame:
    """One row per run, sorted by processors: each metric's value and ``src_<metric>`` its citation.

    Raises ``ValueError`` naming the metric when a run lacks one of ``metrics``.
    """
    out = []
    for (run, cps), cells in tidy.groupby(["run_id", "processors"], sort=False):
        row = {"run_id": run, "processors": cps}
        by_metric = cells.set_index("metric")
        for metric in metrics:
            if metric not in by_metric.index:
                raise ValueError(f"run {run}: no printed value for metric {metric!r}; "
                                 f"available: {', '.join(by_metric.index)}")
            row[metric] = float(by_metric.loc[metric, "value"])
            row[f"src_{metric}"] = by_metric.loc[metric, "source"]
        out.append(row)
    return pd.DataFrame(out).sort_values("processors", kind="stable").reset_index(drop=True)


def posting_runs() -> pd.DataFrame:
    """The six Posting runs with the numbers the chapter's models use (Table 3)."""
    return runs(posting_results(), [
        "etr_ds_per_s", "etr_postings_per_hour", "itr_ds_per_s", "itr_postings_per_hour", "cpu_util_pct",
        "cf1_util_pct", "cf2_util_pct", "response_time_s", "db_io_rate", "log_io_per_s", "log_mb_per_s",
        "dbm1_below_bar_mb", "sap_dv_instances", "dialog_wps"])


PROSE = "s9_s12_quoted.csv"
#: Where each run_id of the prose file sits: the brief's section and its first page (table of contents).
PROSE_SECTIONS = {"s9_analysis": ("§9", 15), "s9_1_posting": ("§9.1", 17), "s9_2_balancing": ("§9.2", 20),
                  "s10_conclusions": ("§10", 24), "s12_buffer_pools": ("§12", 28)}


def prose_cite(run_id: str) -> str:
    """A number quoted in the prose of sections 9 to 12, cited by its section and the page it starts on."""
    from ..citations import document_name
    from ..data import sources

    if run_id not in PROSE_SECTIONS:
        raise ValueError(f"run_id={run_id!r} is not one of {', '.join(PROSE_SECTIONS)}")
    section, page = PROSE_SECTIONS[run_id]
    seed = sources(STUDY).set_index("file").loc[PROSE, "seed"]
    return f"{document_name(seed)}, {section} (prose), p. {page}"
