"""The fast-index-traversal chapter's figures (one model, three surfaces), and its
precomputed eligibility examples for the static page."""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..figure import Axis, Figure, Param
from . import calibration as cal
from . import model
from . import published as pub

STUDY = "fast_index_traversal"
COLORS = {
    "model: 4-level index": "#4c78a8", "published: getpage cut": "#222222",
    "full keys in non-leaf pages": "#f58518", "truncated non-leaf keys": "#4c78a8",
    "published: 20M rows, 96-byte key": "#222222",
    "non-data sharing (f fitted)": "#4c78a8", "1-way data sharing (f fitted)": "#54a24b",
    "2-way data sharing (f fitted)": "#e45756", "your f": "#9d755d", "published: CPU cut": "#222222",
    "best-first within a budget": "#4c78a8", "as migrated (FL 100, then FL 500)": "#f58518",
    "published: getpages per commit": "#222222",
}
_figure = partial(Figure, STUDY, colors=COLORS)


def _point(run: str, metric: str, x: float, y: float, series: str, condition: str, filename: str = pub.S26) -> dict:
    return {"x": x, "y": y, "series": series, "condition": condition, "source": pub.cite(filename, run, metric)}


# --- 1. getpages per random select against rows per key ------------------------------------------

INDEX_LEVELS = Param("levels", "Index levels", "", 2, 6, 4, 1, 1)
NEW_PAGE = Param("new_page_share", "Rows of a key on a new data page", "", 0.0, 1.0, 0.55, 0.001, 0.15,
                 static_min=0.1, calibrated=5 / 9,
                 help="0 = all rows of a key on one page; 1 = every row on its own page (fitted: 5 of 9)")


def select_curves(rows_per_key, s: cal.Scenario):
    """Getpage cut (%) from FTB for one random select."""
    r = np.asarray(rows_per_key, dtype=float)
    data = model.data_pages_for_rows(r, s.new_page_share)
    extra = np.where(r > 1, 0.002 * (r - 1), 0.0)  # a long RID list spills into a second leaf page
    return {"model: 4-level index": 100 * model.getpage_reduction(r, np.full_like(r, s.levels), data, extra)}


SELECT = _figure(
    "select", "Getpages saved per random select, against rows per key",
    Axis("rows", "Rows per index key", scale="log", format=",.0f"), Axis("cut", "Getpage reduction (%)", format=".0f"),
    np.round(np.geomspace(1, 200, 30), 3), select_curves, (INDEX_LEVELS, NEW_PAGE),
    published=pd.DataFrame([_point(run, "getpage_change_pct", r, -pub.value(run, "getpage_change_pct"),
                                   "published: getpage cut", f"{r} row(s) per key")
                            for run, r in cal.SELECTS.items()]),
    regenerates="Figures 2-9, 2-10 and 2-11 of the Redbook (the random selects' getpage cuts)",
    subtitle="Without FTB: L index getpages + data pages; with FTB: the leaf + data pages.")

# --- 2. key size to index levels ------------------------------------------------------------------

# steps of a factor of 10 through the published index's 20 million rows: 20 thousand to 2 billion
LOG_ROWS = Param("log10_rows", "Rows in the index (log10)", "", 4, 10, 7.3, 0.001, 1, static_min=4.3,
                 calibrated=float(np.log10(2e7)))
TRUNCATION = Param("nonleaf_key_share", "Non-leaf key kept", "of the key", 0.1, 1.0, 0.4, 0.05, 0.2, static_min=0.2,
                   help="Db2 keeps in a non-leaf page only as much of a key as separates the pages below it")


def levels_curves(key_bytes, s: cal.Scenario):
    """Index levels against key length, with full and with truncated non-leaf keys (4 K pages)."""
    rows = 10.0 ** s.log10_rows
    k = np.asarray(key_bytes, dtype=float)
    return {"full keys in non-leaf pages": model.index_levels(rows, k, 4096, 0.1, 1.0),
            "truncated non-leaf keys": model.index_levels(rows, k, 4096, 0.1, s.nonleaf_key_share)}


def _limit_marks() -> pd.DataFrame:
    rows = []
    for run, metric, label, filename in (
            ("db2_13_fl500", "non_unique_key_size_max_before_bytes", "56: non-unique, Db2 12", pub.S43),
            ("db2_13_fl500", "unique_key_size_max_before_bytes", "64: unique, Db2 12", pub.S43),
            ("db2_13_fl500", "non_unique_key_size_max_bytes", "120: non-unique, Db2 13", pub.S43),
            ("db2_13_fl500", "unique_key_size_max_bytes", "128: unique, Db2 13", pub.S43)):
        rows.append({"x": pub.value(run, metric, filename), "label": label, "source": pub.cite(filename, run, metric)})
    return pd.DataFrame(rows)


LEVELS = _figure(
    "levels", "Key length and index depth (our model)", Axis("key", "Key length (bytes)", format=".0f"),
    Axis("levels", "Index levels (4 K pages, 10% free)", format=".0f"), np.arange(8.0, 257.0, 8.0), levels_curves,
    (LOG_ROWS, TRUNCATION), marks=_limit_marks(),
    published=pd.DataFrame([_point("nds_96_byte_results", "index_levels_count", 96,
                                   pub.value("nds_96_byte_results", "index_levels_count"),
                                   "published: 20M rows, 96-byte key", "20 million rows, 96-byte key: 4 levels")]),
    subtitle="With full keys in non-leaf 4 K pages the published index needs 5 levels; it printed 4 (truncated "
             "keys, larger pages?).")

# --- 3. getpages saved against CPU saved -------------------------------------------------------------

YOUR_F = Param("your_f", "Your getpage-linked share f", "", 0.0, 0.5, 0.2, 0.005, 0.05,
               help="the share of CPU that falls with getpages in your environment; it starts at 0.2, twice "
                    "the largest fitted share, so that its line stands apart from the three fitted ones")


def cpu_curves(getpage_cut_pct, s: cal.Scenario):
    """CPU cut (%) against getpage cut (%), with each environment's fitted share f."""
    g = np.asarray(getpage_cut_pct, dtype=float) / 100
    out = {f"{env} (f fitted)": 100 * model.cpu_reduction(g, cal.cpu_share(env)) for env in cal.ENVIRONMENTS}
    out["your f"] = 100 * model.cpu_reduction(g, s.your_f)
    return out


def _cpu_points() -> pd.DataFrame:
    rows = []
    for env, (table, gp, cpu) in cal.ENVIRONMENTS.items():
        rows.append({**_point("delta", cpu, -pub.value("delta", gp, table), -pub.value("delta", cpu, table),
                              "published: CPU cut", f"{env} (Tables 4-2 to 4-4)", table),
                     "model_series": f"{env} (f fitted)"})  # drawn in its environment's line colour
    rows.append(_point("nds_results", "db2_total_cpu_change_pct", 72, 17, "published: CPU cut",
                       "non-unique index tests, maxima (section 2.6)"))
    return pd.DataFrame(rows)


CPU = _figure(
    "cpu", "A 50% getpage cut is a few percent of CPU", Axis("gp", "Getpage reduction (%)", format=".0f"),
    Axis("cpu", "Db2 CPU reduction (%)", format=".1f"), np.arange(0.0, 81.0, 2.0), cpu_curves, (YOUR_F,),
    published=_cpu_points(),
    subtitle="CPU cut = f x getpage cut. Each table fixes its f exactly; the 72%/17% point is a maximum, not a pair.")

# --- 4. memory spent against getpages saved ----------------------------------------------------------

DENSITY = Param("beyond_density", "Getpages saved per GB beyond 4.2 GB", "per commit", 0, 100, 20, 1, 10,
                help="what more FTB memory would buy past the measured 4,200 MB (an assumption)")


def memory_curves(memory_mb, s: cal.Scenario):
    """Getpages per commit against extra FTB memory (MB): as migrated, and best-first."""
    g0, g1, g2, m1, m2 = cal.waves()
    m = np.asarray(memory_mb, dtype=float)
    wave1 = ((g0 - g1) / m1, m1)  # non-unique indexes (the FTB_NON_UNIQUE_INDEX default)
    wave2 = ((g1 - g2) / (m2 - m1), m2 - m1)  # longer keys (FL 500)
    beyond = s.beyond_density / 1024.0

    def spend(order):
        saved, left = np.zeros_like(m), m.copy()
        for density, size in order:
            use = np.clip(left, 0, size)
            saved, left = saved + density * use, left - use
        return g0 - saved - beyond * np.clip(left, 0, None)

    return {"as migrated (FL 100, then FL 500)": spend([wave1, wave2]),
            "best-first within a budget": spend(sorted([wave1, wave2], reverse=True))}


def _memory_points() -> pd.DataFrame:
    g0, g1, g2, m1, m2 = cal.waves()
    return pd.DataFrame([
        _point("db2_12_fl510", "bp_getpage_per_commit_count", 0, g0, "published: getpages per commit",
               "Db2 12 FL 510", pub.S43),
        _point("db2_13_fl100", "bp_getpage_per_commit_count", m1, g1, "published: getpages per commit",
               "Db2 13 FL 100 (+2,300 MB)", pub.S43),
        _point("db2_13_fl500", "bp_getpage_per_commit_count", m2, g2, "published: getpages per commit",
               "Db2 13 FL 500 (+4,200 MB)", pub.S43)])


MEMORY = _figure(
    "memory", "Memory spent against getpages saved (brokerage workload, version 2)",
    Axis("mb", "Extra real storage (MB)", format=",.0f"), Axis("gp", "Buffer pool getpages per commit", format=".0f"),
    np.arange(0.0, 8001.0, 250.0), memory_curves, (DENSITY,), published=_memory_points(),
    subtitle="Per MB of real storage the FL 500 step saved 0.069 getpages/commit, the FL 100 step 0.030 (with "
             "look-aside's gains).")

ALL = (SELECT, LEVELS, CPU, MEMORY)


# --- 5. eligibility examples for the static page -------------------------------------------------------

EXAMPLES = [
    ("ACCOUNT_ID CHAR(12)", [model.Column("ACCOUNT_ID", "CHAR", 12)], True),
    ("(CUST CHAR(40), NAME VARCHAR(30))", [model.Column("CUST", "CHAR", 40), model.Column("NAME", "VARCHAR", 30)],
     False),
    ("(ISIN CHAR(12), TRADE_TS TIMESTAMP(10), SEQ INTEGER) INCLUDE (NOTE VARCHAR(100))",
     [model.Column("ISIN", "CHAR", 12), model.Column("TRADE_TS", "TIMESTAMP", 13), model.Column("SEQ", "INTEGER", 4),
      model.Column("NOTE", "VARCHAR", 100, include=True)], True),
    ("(REGION CHAR(8), BRANCH CHAR(8), ACCOUNT CHAR(80))",
     [model.Column("REGION", "CHAR", 8), model.Column("BRANCH", "CHAR", 8), model.Column("ACCOUNT", "CHAR", 80)], True),
    ("(EMAIL VARCHAR(100) nullable)", [model.Column("EMAIL", "VARCHAR", 100, nullable=True)], False),
    ("(EVENT_TS TIMESTAMP WITH TIME ZONE)", [model.Column("EVENT_TS", "TIMESTZ", 13)], True),
]


def eligibility_examples() -> pd.DataFrame:
    """Each example index at each Db2 level: eligible or not, and why (for the static page)."""
    rows = []
    for text, columns, unique in EXAMPLES:
        for level in model.LIMITS:
            v = model.eligibility(columns, unique, level)
            rows.append({"index key": text, "unique": "yes" if unique else "no", "Db2 level": level,
                         "key length": v.key_length, "FTB": "eligible" if v.eligible else "no",
                         "why not": "; ".join(v.reasons)})
    return pd.DataFrame(rows)
