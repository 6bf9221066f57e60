"""Ledger rows and misses of the SQL Data Insights chapter (its fits are in :mod:`.calibration`).

One policy for every fitted constant: it is fitted by least squares on the **six views of
Table 6-1** (29 columns; only the number of rows changes), minimising *relative* residuals so
that a 5-minute run counts as much as a 17-hour one. The other five data sets (the four views of
Table 6-2 and Table_1 of Table 6-3) are then **predictions**, not fits.

A fitted row's tolerance is twice the root-mean-square relative residual of its fit on Table
6-1 (a band that holds about 95% of the points if the scatter were normal), rounded up to two
significant digits, and never less than half a unit of the last printed digit. A prediction is
held to the same band: inside it, it is a ledger row; outside it, it is a miss, listed by
:func:`misses` and discussed in the chapter. No tolerance is widened to let a point pass.
Arithmetic rows (words, the rule of thumb, the 22%) are held to the printed rounding.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd

from ..data import load_long
from ..fitting import band, relative_linear_least_squares, rms
from ..identities import half_unit
from ..ledger import LedgerRow
from . import calibration as fit
from . import model
from . import published as pub
from .calibration import (HEAPS_ROWS, fit_set, concurrency_calibration, errors, heaps_calibration, predict,
                          vector_fit)

CHAPTER = "SQL Data Insights"
FIT_FAMILY = fit.FIT_FAMILY
#: the quantities of the training cost, their unit and whether the model has a fixed part
COSTS = {"elapsed_min": ("total elapsed time (min)", False), "sqldi_cpu_min": ("SQL DI CPU (min)", False),
         "db2_cpu_s": ("Db2 CPU (s)", True)}


# --- fitting helpers ----------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _long(filename: str) -> pd.DataFrame:
    return load_long(pub.STUDY, filename)


def printed_cell(dataset: str, quantity: str) -> str:
    """The printed text of a data set's quantity."""
    filename = pub.DATASETS[dataset][0]
    long = _long(filename)
    row = long[(long["run_id"] == dataset) & (long["metric"] == pub.metric_of(dataset, quantity))]
    return str(row["printed"].iloc[0])


def rounding(dataset: str, quantity: str) -> float:
    """Relative half-unit of the printed cell (Table 6-3's GB converted at 1024 MB)."""
    unit = half_unit(printed_cell(dataset, quantity))
    if pub.metric_of(dataset, quantity).endswith("_gb"):
        unit *= pub.MB_PER_GB
    return unit / float(pub.datasets().loc[dataset, quantity])


@lru_cache(maxsize=None)
def tolerance(quantity: str) -> float:
    """The band of a fitted quantity: 2 x RMS of its relative residuals on Table 6-1."""
    return band(rms(errors(quantity, fit_set().index)))


FITTED = {"text_mb": "text size (MB)", "zload_mb": "model size, ZLOAD (MB)", "memory_mb": "peak memory (MB)",
          "zfs_mb": "zFS space (MB)", **{q: label for q, (label, _) in COSTS.items()}}
FIT_NOTES = {
    "text_mb": "bytes per word x words",
    "zload_mb": "bytes per vector x vocabulary",
    "elapsed_min": "per-word cost, no fixed part",
    "sqldi_cpu_min": "per-word cost, no fixed part",
    "db2_cpu_s": "fixed part + per-word cost",
    "memory_mb": "fixed + per word + per vocabulary word",
    "zfs_mb": "overhead x (text + model file)",
}


def fit_rows(quantity: str) -> list[LedgerRow]:
    """Ledger rows of one fitted quantity for all 11 data sets: Table 6-1 fitted, the others predicted.

    Which rows miss is decided by hand in :data:`KNOWN_MISSES`; a test checks that exactly those
    rows are outside their band.
    """
    d = pub.datasets()
    label, note = FITTED[quantity], FIT_NOTES[quantity]
    rows = []
    for name in d.index:
        fitted = name in fit_set().index
        tol = max(tolerance(quantity), rounding(name, quantity))
        how = f"fitted on {FIT_FAMILY}" if fitted else f"predicted from the {FIT_FAMILY} fit"
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite_quantity(name, quantity), quantity=label,
            condition=f"{d.loc[name, 'label']} ({d.loc[name, 'family']}); {note}, {how}",
            published=float(d.loc[name, quantity]), model=predict(name, quantity), tolerance=tol,
            role="fitted" if fitted else "predicted", cell=_cell_key(name, quantity),
            miss=KNOWN_MISSES.get((quantity, name), "")))
    return rows


def held_out_rows(quantity: str) -> list[LedgerRow]:
    """Leave-one-out on Table 6-1: each view predicted by the fit on the other five, in the fit's band."""
    d = pub.datasets()
    label, note = FITTED[quantity], FIT_NOTES[quantity]
    return [LedgerRow(
        chapter=CHAPTER, source=pub.cite_quantity(name, quantity), quantity=label,
        condition=f"{d.loc[name, 'label']} ({FIT_FAMILY}); {note}, leave-one-out: fitted on the other five views",
        published=float(d.loc[name, quantity]), model=fit.held_out(name, quantity),
        tolerance=max(tolerance(quantity), rounding(name, quantity)), role="predicted", cell=_cell_key(name, quantity),
        miss=HELD_OUT_MISSES.get((quantity, name), "")) for name in fit.fit_names()]


def _cell_key(dataset: str, quantity: str) -> tuple:
    """(study, file, run_id, metric) of a data set's printed quantity."""
    return (pub.STUDY, pub.DATASETS[dataset][0], dataset, pub.metric_of(dataset, quantity))


MISS_NOTES = {
    "text_mb": "bytes per word depend, we read, on how long the values and column names are; the Redbook "
               "says only that the added columns have few distinct values, and Table 6-2's bytes per word are "
               "not monotonic in the columns, so the cause is not isolated",
    "elapsed_min": "the per-word cost depends on the data: the text says resources cannot be planned "
                   "from rows or columns alone (Scenario 3)",
    "sqldi_cpu_min": "the per-word cost depends on the data: the text says resources cannot be planned "
                     "from rows or columns alone (Scenario 3)",
    ("sqldi_cpu_min", "table_1"): "the per-word cost depends on the data (Scenario 3): Table_1 costs 47% more "
                                  "per word than the views",
    ("text_mb", "table_1"): "bytes per word depend on how long the values and column names are: Table_1, a "
                            "different table, writes 5% less text per word than the views",
    ("db2_cpu_s", "table_1"): "Table_1's Db2 CPU is far below the views': 1.71 s here, 2.18 s when measured again "
                              "(Table 6-5), a 27% difference between two runs of the same table",
    "memory_mb": "peak memory does not follow words and vocabulary alone; Table_1's two measurements "
                 "differ by 17% (4,854 and 5,669 MB)",
}

#: The predictions outside their fit's band, listed by hand (quantity -> data sets); the reason is the
#: quantity's note unless the data set has its own. A test fails if any other row misses, or one of these
#: stops missing.
_MISSED = {"text_mb": ("cols_10", "cols_20", "cols_30", "table_1"),
           "elapsed_min": ("cols_10", "cols_30", "table_1"),
           "sqldi_cpu_min": ("cols_10", "cols_30", "table_1"),
           "db2_cpu_s": ("table_1",),
           "memory_mb": ("cols_10", "cols_60", "table_1")}
KNOWN_MISSES = {(q, n): MISS_NOTES.get((q, n), MISS_NOTES.get(q, "")) for q, names in _MISSED.items() for n in names}
#: Leave-one-out predictions outside the band (quantity, view) -> reason: judged by hand.
HELD_OUT_MISSES = {
    ("db2_cpu_s", "view_1"): "without the smallest view the fixed part is set by runs 4 to 200 times larger; "
                             "the line overshoots the 5-second run by half",
    ("db2_cpu_s", "view_6"): "without the largest view the slope is extrapolated to twice the words it saw; "
                             "the per-word Db2 CPU is not constant",
    ("memory_mb", "view_4"): "three constants on five points: peak memory does not follow words and vocabulary "
                             "alone, and the refit moves by more than the band",
    ("memory_mb", "view_5"): "three constants on five points: VIEW_5 repeats rows, so its vocabulary stops growing "
                             "while its memory does not",
    ("memory_mb", "view_6"): "three constants on five points, extrapolated to the largest view: peak memory is "
                             "not linear in words and vocabulary",
    ("vocabulary", "view_1"): "two constants on three points: without VIEW_1 the refit exponent exceeds 1 and "
                              "the curve undershoots the smallest view by half",
    ("vocabulary", "view_2"): "VIEW_2 has fewer distinct values than its neighbours imply (27% below even the "
                              "four-point curve): the views are not one growth process",
}


# --- words, the rule of thumb, concurrency --------------------------------------------------------------


def word_rows() -> list[LedgerRow]:
    """words = rows x (columns + 1) for every data set; the printed VIEW_4 count is a known miss."""
    d = pub.datasets()
    rows = []
    for name in d.index:
        filename = pub.DATASETS[name][0]
        in_thousands = printed_cell(name, "rows").endswith("K")
        tol = max(rounding(name, "rows") if in_thousands else 0.0, 1e-9)  # Table 6-1 prints rows in thousands
        printed = float(d.loc[name, "words_printed"]) if name == "view_4" else float(d.loc[name, "words"])
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(filename, name, "words_count"), quantity="words in the training text",
            condition=f"{d.loc[name, 'label']}: rows x (columns + 1) = {d.loc[name, 'rows']:,.0f} x "
                      f"{d.loc[name, 'n_columns'] + 1:.0f}" + ("; rows printed in thousands" if in_thousands else
                                                             "; exact integer arithmetic"),
            published=printed, model=predict(name, "words"), tolerance=tol, role="identity",
            cell=(pub.STUDY, filename, name, "words_count"),
            miss=("printed 342,540,150; rows x 30 = 324,540,150 (two digits swapped); every model in the chapter "
                  "uses the corrected count") if name == "view_4" else ""))
    return rows


def rule_rows() -> list[LedgerRow]:
    """The rule-of-thumb example: its own arithmetic, and its estimate against the measured 895 MB."""
    n = pub.quoted("model_size_example", "numeric_columns_count")
    cat = pub.quoted("model_size_example", "categorical_unique_values_count")
    estimate = float(model.rule_of_thumb_mb(n, cat))
    printed = pub.quoted("model_size_example", "estimate_mb")
    measured = pub.value(pub.COLUMNS, "cols_10", "zload_size_mb")
    d = pub.datasets()
    clusters = float(d.loc["cols_10", "vocabulary"] - cat)
    bias = (model.RULE_BYTES_PER_WORD / vector_fit()) * (n * model.CLUSTERS_PER_NUMERIC_COLUMN + cat) / (
        clusters + cat) - 1
    return [
        LedgerRow(chapter=CHAPTER, source=pub.cite_prose("model_size_example", "estimate_mb", "6.1.4"),
                  quantity="rule-of-thumb model size (MB)",
                  condition=f"[(20 x {n:g}) + {cat:,.0f}] x 3,300 bytes; printed '~899 MB'",
                  published=printed, model=estimate, tolerance=half_unit("899") / printed, role="identity"),
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.COLUMNS, "cols_10", "zload_size_mb"),
                  quantity="model size, ZLOAD (MB): the rule against the measurement",
                  condition=f"Table 6-2's 10-column view; the rule's 3,300 B is {vector_fit():,.1f} B rounded up and "
                            f"counts 20 clusters per numeric column where the model has {clusters / n:.1f}: "
                            f"tolerance = that known bias, {bias:.2%}, rounded up to 0.5%",
                  published=measured, model=estimate, tolerance=max(math.ceil(bias * 200) / 200, 0.005),
                  role="predicted",
                  cell=(pub.STUDY, pub.COLUMNS, "cols_10", "zload_size_mb")),
    ]


def concurrency_rows() -> list[LedgerRow]:
    c = concurrency_calibration()
    args = (c["fixed"], c["work"], c["engines"], c["threads"])
    saving = 100 * float(model.concurrency_saving(2, *args))
    conc = pub.concurrent()
    return [
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.CONCURRENT, "single", "total_elapsed_min"),
                  quantity="elapsed time, one run (min)", condition="Table_1 alone; fixed + CPU part through both "
                  "points: exact by construction", published=c["single"],
                  model=float(model.concurrent_elapsed(1, *args)), tolerance=0.001, role="fitted"),
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.CONCURRENT, "two_concurrent", "total_elapsed_min"),
                  quantity="elapsed time, two runs together (min)", condition="Table_1 and Table_2; exact by "
                  "construction", published=c["two"], model=float(model.concurrent_elapsed(2, *args)),
                  tolerance=0.001, role="fitted"),
        LedgerRow(chapter=CHAPTER, source=pub.cite_prose("training_concurrency", "sequential_elapsed_min", "6.1.2"),
                  quantity="elapsed time, two runs back to back (min)",
                  condition="2 x one run; printed to 0.01 min", published=pub.quoted(
                      "training_concurrency", "sequential_elapsed_min"),
                  model=float(model.sequential_elapsed(2, *args)), tolerance=0.005 / 11.04, role="identity"),
        LedgerRow(chapter=CHAPTER,
                  source=pub.cite_prose("training_concurrency", "concurrent_vs_sequential_change_pct", "6.1.2"),
                  quantity="time saved by running together (%)",
                  condition="1 - together / back to back; printed as a whole percent ('22% less')",
                  published=-pub.quoted("training_concurrency", "concurrent_vs_sequential_change_pct"),
                  model=saving, tolerance=0.5 / 22, role="identity"),
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.CONCURRENT, "two_concurrent", "zfs_mb"),
                  quantity="zFS space, two runs together (MB)",
                  condition="2 x one run's zFS: each run writes its own text and model files",
                  published=float(conc.loc["two_concurrent", "zfs_mb"]),
                  model=2 * float(conc.loc["single", "zfs_mb"]), tolerance=0.5 / 1080, role="predicted",
                  cell=(pub.STUDY, pub.CONCURRENT, "two_concurrent", "zfs_mb")),
    ] + [LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.CONCURRENT, "two_concurrent", metric),
        quantity=f"{label}, two runs together",
        condition="Table_1 and Table_2 together = 2 x one run (Table 6-5), held to the printed rounding",
        published=float(conc.loc["two_concurrent", metric]), model=2 * float(conc.loc["single", metric]),
        tolerance=half_unit(printed_concurrent("two_concurrent", metric)) / float(conc.loc["two_concurrent", metric]),
        role="predicted", cell=(pub.STUDY, pub.CONCURRENT, "two_concurrent", metric),
        miss="running together used less than twice one run: the peaks do not coincide, and two runs share some work")
        for metric, label in (("sqldi_cpu_min", "SQL DI CPU (min)"), ("db2_cpu_s", "Db2 CPU (s)"),
                              ("peak_memory_mb", "peak memory (MB)"))]


def printed_concurrent(run_id: str, metric: str) -> str:
    """The printed text of one Table 6-5 cell."""
    long = _long(pub.CONCURRENT)
    return str(long[(long["run_id"] == run_id) & (long["metric"] == metric)]["printed"].iloc[0])


# --- vocabulary growth ----------------------------------------------------------------------------------


def vocabulary_ratios() -> dict:
    """VIEW_4 -> VIEW_5: rows x4.24 while the vocabulary grows 8%."""
    d = pub.datasets()
    return {"rows_x": float(d.loc["view_5", "rows"] / d.loc["view_4", "rows"]),
            "vocabulary_growth": float(d.loc["view_5", "vocabulary"] / d.loc["view_4", "vocabulary"] - 1),
            "words_x": float(d.loc["view_5", "words"] / d.loc["view_4", "words"])}


def heaps_rows() -> list[LedgerRow]:
    """Heaps' law V = K n^beta: fitted on VIEW_1-VIEW_4, VIEW_5's repeat share solved, VIEW_6 predicted.

    The fitted rows are held to twice the fit's RMS error (the chapter's band); VIEW_6 misses both ways.
    """
    h = heaps_calibration()
    d = pub.datasets()
    tol = band(h["rms"])
    rows = []
    cases = [(name, 0.0, "fitted", f"Heaps' law fitted on VIEW_1-VIEW_4 (K = {h['k']:.3g}, beta = {h['beta']})", "")
             for name in HEAPS_ROWS]
    cases += [
        ("view_5", 0.0, "predicted", "plain Heaps' law from the VIEW_1-VIEW_4 fit",
         "the extra rows of VIEW_5 mostly repeat VIEW_4's values (the text says so), so the vocabulary barely grows"),
        ("view_5", h["repeat_share"], "fitted", f"repeat share {h['repeat_share']:g} solved from this number: exact "
                                                "by construction (to its three printed decimals)", ""),
        ("view_6", 0.0, "predicted", "plain Heaps' law from the VIEW_1-VIEW_4 fit",
         "far above the measured vocabulary: VIEW_6's rows repeat values too"),
        ("view_6", h["repeat_share"], "predicted", f"with VIEW_5's repeat share {h['repeat_share']:g}",
         "VIEW_6 is built on a different, 101-million-row base table (Table B-1), so its rows bring new values again"),
    ]
    for name, share, role, how, miss in cases:
        vm = float(model.vocabulary_with_repeats(d.loc[name, "rows"], h["base_rows"], h["k"], h["beta"], share))
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite_quantity(name, "vocabulary"), quantity="vocabulary (words)",
            condition=f"{d.loc[name, 'label']}: {how}", published=float(d.loc[name, "vocabulary"]), model=vm,
            tolerance=tol if share == 0.0 or role == "predicted" else 0.001, role=role,
            cell=_cell_key(name, "vocabulary"), miss=miss))
    for name in HEAPS_ROWS:
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite_quantity(name, "vocabulary"), quantity="vocabulary (words)",
            condition=f"{d.loc[name, 'label']}: leave-one-out, Heaps' law fitted on the other three of VIEW_1-VIEW_4",
            published=float(d.loc[name, "vocabulary"]), model=fit.heaps_held_out(name, HEAPS_ROWS), tolerance=tol,
            role="predicted", cell=_cell_key(name, "vocabulary"), miss=HELD_OUT_MISSES.get(("vocabulary", name), "")))
    return rows


# --- query cost (a reconstruction) --------------------------------------------------------------------------


# --- the fit forms, for the chapter's argument ------------------------------------------------------------------


def fit_forms() -> pd.DataFrame:
    """Three forms for each training cost on Table 6-1: their parameters and RMS error."""
    d = fit_set()
    w = d["words"].to_numpy() / 1e6
    out = []
    for quantity, (label, _) in COSTS.items():
        y = d[quantity].to_numpy()
        per = relative_linear_least_squares(w, y)[0]
        fixed, slope = relative_linear_least_squares(np.c_[np.ones_like(w), w], y)
        k, beta = model.heaps_fit(w, y)  # a power law is the same log-log line
        out.append({"cost": label,
                    "per word: c": per, "RMS (per word)": rms(per * w / y - 1),
                    "fixed + per word: a": fixed, "c": slope,
                    "RMS (fixed + per word)": rms((fixed + slope * w) / y - 1),
                    "power law: exponent": beta, "RMS (power law)": rms(k * w ** beta / y - 1)})
    return pd.DataFrame(out)


def pooled_fits() -> list[dict]:
    """One per-word cost for all eleven data sets: how poorly one cost model fits them all."""
    d = pub.datasets()
    w = d["words"].to_numpy() / 1e6
    out = []
    for quantity, (label, _) in COSTS.items():
        y = d[quantity].to_numpy()
        per = relative_linear_least_squares(w, y)[0]
        e = per * w / y - 1
        out.append({"quantity": label, "condition": "one per-word cost fitted to all 11 data sets",
                    "published": None, "model": round(float(per), 4),
                    "error": f"RMS {rms(e):.0%}, worst {e[np.argmax(np.abs(e))]:+.0%}",
                    "tolerance": "none", "note": f"per million words; the measured per-word costs span "
                                                 f"{(y / w).min():.3g} to {(y / w).max():.3g}"})
    return out


def single_predictor_fits() -> pd.DataFrame:
    """One cost per unit of a single predictor (words, text MB, rows or columns), fitted by relative least
    squares to all eleven data sets: the RMS relative error of each, for elapsed time and SQL DI CPU."""
    d = pub.datasets()
    predictors = {"words": d["words"], "text MB": d["text_mb"], "rows": d["rows"], "columns": d["n_columns"]}
    out = {}
    for name, x in predictors.items():
        x = x.to_numpy(dtype=float)
        row = {}
        for quantity in ("elapsed_min", "sqldi_cpu_min"):
            y = d[quantity].to_numpy(dtype=float)
            per = relative_linear_least_squares(x, y)[0]
            row[quantity] = float(rms(per * x / y - 1))
        out[name] = row
    return pd.DataFrame(out).T


# --- the ledger ---------------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _all() -> tuple[LedgerRow, ...]:
    rows = word_rows()
    for quantity in ("text_mb", "zload_mb", "elapsed_min", "sqldi_cpu_min", "db2_cpu_s", "memory_mb", "zfs_mb"):
        rows += fit_rows(quantity)
        rows += held_out_rows(quantity)
    return tuple(rows + rule_rows() + concurrency_rows() + heaps_rows())


def ledger_rows() -> list[LedgerRow]:
    return list(_all())


def misses() -> list[dict]:
    """What is not a single published number: one per-word cost for all eleven data sets, shown rather than hidden."""
    return pooled_fits()
