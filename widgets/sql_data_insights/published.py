"""The numbers chapter 6 and appendix B print, from ``data/sql_data_insights``.

:func:`datasets` gathers the eleven distinct training runs of Tables 6-1, 6-2 and 6-3 into one
tidy frame (one row per data set, one column per quantity, in the units the models use).
VIEW_4's word count is the corrected 324,540,150 (the printed 342,540,150 transposes two
digits; ``words_printed`` keeps what was printed). Table 6-3 repeats Table 6-1's VIEW_1, so
only its Table_1 is added; its GB columns are converted at 1024 MB per GB, as the data README
shows they were printed.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from ..citations import citing
from ..data import DataError, load_long, number, wide

STUDY = "sql_data_insights"
ROWS = "t6_1_rows.csv"  # Table 6-1: six views, 29 columns, 501 K to 101,396 K rows
COLUMNS = "t6_2_columns.csv"  # Table 6-2: 500,734 rows, 10 to 60 columns
SHAPES = "t6_3_shapes.csv"  # Table 6-3: VIEW_1 against Table_1
CONCURRENT = "t6_5_concurrent_runs.csv"  # Table 6-5: one run against two together
QUOTED = "s6_quoted.csv"  # the chapter's prose
#: VIEW_4's word count: rows x (29 + 1) = 10,818,005 x 30. The table prints 342,540,150.
VIEW_4_WORDS = 324_540_150
MB_PER_GB = 1024  # Table 6-3's GB are 1024 MB (7.19 GB = 7,366 MB / 1024)

#: data set -> (file, family label) in the order the chapter uses
DATASETS = {
    "view_1": (ROWS, "Table 6-1 (rows)"), "view_2": (ROWS, "Table 6-1 (rows)"),
    "view_3": (ROWS, "Table 6-1 (rows)"), "view_4": (ROWS, "Table 6-1 (rows)"),
    "view_5": (ROWS, "Table 6-1 (rows)"), "view_6": (ROWS, "Table 6-1 (rows)"),
    "cols_10": (COLUMNS, "Table 6-2 (columns)"), "cols_20": (COLUMNS, "Table 6-2 (columns)"),
    "cols_30": (COLUMNS, "Table 6-2 (columns)"), "cols_60": (COLUMNS, "Table 6-2 (columns)"),
    "table_1": (SHAPES, "Table 6-3 (Table_1)"),
}
LABELS = {"view_1": "VIEW_1", "view_2": "VIEW_2", "view_3": "VIEW_3", "view_4": "VIEW_4", "view_5": "VIEW_5",
          "view_6": "VIEW_6", "cols_10": "10 columns", "cols_20": "20 columns", "cols_30": "30 columns",
          "cols_60": "60 columns", "table_1": "Table_1"}
#: model quantity -> metric name in the tables (Table 6-3 prints memory and zFS in GB)
METRICS = {
    "rows": "rows_count", "numeric": "numeric_columns_count", "categorical": "categorical_columns_count",
    "object_mb": "object_size_mb", "text_mb": "text_size_mb", "words": "words_count",
    "vocabulary": "vocabulary_count", "preprocess_min": "preprocess_elapsed_min", "zload_mb": "zload_size_mb",
    "model_table_mb": "model_table_size_mb", "train_load_min": "train_load_elapsed_min",
    "elapsed_min": "total_elapsed_min", "db2_cpu_s": "db2_cpu_s", "db2_ziip_pct": "db2_ziip_eligible_pct",
    "sqldi_cpu_min": "sqldi_cpu_min", "sqldi_ziip_pct": "sqldi_ziip_eligible_pct",
    "memory_mb": "peak_memory_mb", "zfs_mb": "zfs_mb",
}


def value(filename: str, run_id: str, metric: str) -> float:
    """One printed number (in its unit; reductions negative)."""
    return number(STUDY, filename, run_id, metric)


def quoted(run_id: str, metric: str) -> float:
    """A number quoted in the chapter's prose."""
    return number(STUDY, QUOTED, run_id, metric)


#: ``cite(filename, run_id, metric)``: document, section, table and page of one printed cell.
cite = citing(STUDY)


def metric_of(dataset: str, quantity: str) -> str:
    """The printed metric behind a model quantity of a data set (Table 6-3 prints GB)."""
    metric = METRICS[quantity]
    if DATASETS[dataset][0] == SHAPES and quantity in ("memory_mb", "zfs_mb"):
        metric = metric.replace("_mb", "_gb")
    return metric


def cite_prose(run_id: str, metric: str, section: str) -> str:
    """Where a number in the chapter's prose is printed. ``section`` is its section number as the book
    names it (``"6.1.4"``), optionally with a detail (``"6.1.2, text of Figure 6-9"``); the number must be
    the section ``data/sections.csv`` places the cell in, or a DataError says where it is."""
    cited = cite(QUOTED, run_id, metric)
    number, _, detail = section.partition(", ")
    if f"§{number}" not in cited.split(", "):
        raise DataError(f"{QUOTED}: {run_id}/{metric} is cited as {cited!r}, not in section {number}")
    return f"{cited}, {detail}" if detail else cited


def cite_quantity(dataset: str, quantity: str) -> str:
    """Where a data set's quantity is printed."""
    filename = DATASETS[dataset][0]
    return cite(filename, dataset, metric_of(dataset, quantity))


@lru_cache(maxsize=None)
def _table(filename: str) -> pd.DataFrame:
    return wide(load_long(STUDY, filename))


@lru_cache(maxsize=None)
def datasets() -> pd.DataFrame:
    """The eleven training runs: one row per data set, columns as in :data:`METRICS` plus
    ``n_columns`` (numeric + categorical), ``words_printed``, ``family`` and ``label``."""
    rows = []
    for name, (filename, family) in DATASETS.items():
        table = _table(filename)
        rec = {}
        for quantity in METRICS:
            metric = metric_of(name, quantity)
            v = float(table.loc[name, metric])
            rec[quantity] = v * MB_PER_GB if metric.endswith("_gb") else v
        rec["words_printed"] = rec["words"]
        if name == "view_4":
            rec["words"] = float(VIEW_4_WORDS)
        rec["n_columns"] = rec["numeric"] + rec["categorical"]
        rec["family"], rec["label"] = family, LABELS[name]
        rows.append(pd.Series(rec, name=name))
    return pd.DataFrame(rows)


def family(label_start: str) -> pd.DataFrame:
    """The data sets of one family: ``"Table 6-1"``, ``"Table 6-2"`` or ``"Table 6-3"``."""
    d = datasets()
    return d[d["family"].str.startswith(label_start)]


@lru_cache(maxsize=None)
def concurrent() -> pd.DataFrame:
    """Table 6-5: rows ``single`` and ``two_concurrent``."""
    return _table(CONCURRENT)


#: quantity -> (Table 6-3 metric, Table 6-5 metric, MB per printed unit of Table 6-3): what Table_1's two runs print
TWICE = {"elapsed_min": ("total_elapsed_min", "total_elapsed_min", 1.0),
         "sqldi_cpu_min": ("sqldi_cpu_min", "sqldi_cpu_min", 1.0),
         "db2_cpu_s": ("db2_cpu_s", "db2_cpu_s", 1.0),
         "memory_mb": ("peak_memory_gb", "peak_memory_mb", MB_PER_GB),
         "zfs_mb": ("zfs_gb", "zfs_mb", MB_PER_GB),
         "db2_ziip_pct": ("db2_ziip_eligible_pct", "db2_ziip_eligible_pct", 1.0),
         "sqldi_ziip_pct": ("sqldi_ziip_eligible_pct", "sqldi_ziip_eligible_pct", 1.0)}


def table_1_twice() -> pd.DataFrame:
    """Table_1 measured twice: the training of Table 6-3 (scenario 3) and the single run of Table 6-5 (scenario 4,
    "First, AI Query was enabled on Table_1"). The same table (1,371,968 rows, 1 numeric / 7 categorical columns,
    all selected), the same text, words, vocabulary and model file (Tables 6-3 and 6-4 print them alike), on the
    same system (§6.1.1: eight training threads): the only repeated measurement the chapter prints.

    Columns: quantity, ``Table 6-3``, ``Table 6-5`` (in the model's units: MB, min, s, %), and ``spread``, the
    relative spread |a - b| / ((a + b) / 2), a fraction.
    """
    first, second = _table(SHAPES), _table(CONCURRENT)
    out = []
    for quantity, (m1, m2, scale) in TWICE.items():
        a, b = float(first.loc["table_1", m1]) * scale, float(second.loc["single", m2])
        out.append({"quantity": quantity, "Table 6-3": a, "Table 6-5": b, "spread": abs(a - b) / ((a + b) / 2)})
    return pd.DataFrame(out)
