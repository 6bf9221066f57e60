"""The capacity planner of the SQL Data Insights chapter: rows, columns and distinct values in;
training time, CPU, memory, zFS and model size out, with the range the eleven published data sets
support. Its constants are the Table 6-1 fits of :mod:`.calibration`.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from . import model
from .calibration import cost_fit, errors, memory_fit, text_fit, vector_fit, zfs_fit


def _ratio_range(quantity: str) -> tuple[float, float]:
    """Smallest and largest measured / model over the 11 data sets (never excluding 1)."""
    e = errors(quantity)
    ratio = 1.0 / (1.0 + e)
    return (min(1.0, float(ratio.min())), max(1.0, float(ratio.max())))


@lru_cache(maxsize=None)
def calibration() -> model.Calibration:
    """The planner's constants (fitted on Table 6-1) and ranges (over all 11 data sets)."""
    _, e_per = cost_fit("elapsed_min")
    _, c_per = cost_fit("sqldi_cpu_min")
    d_fixed, d_per = cost_fit("db2_cpu_s")
    m_fixed, m_w, m_v = memory_fit()
    return model.Calibration(
        text_bytes_per_word=text_fit(), text_range=_ratio_range("text_mb"),
        model_bytes_per_vector=vector_fit(),
        elapsed_min_per_mword=e_per, elapsed_range=_ratio_range("elapsed_min"),
        sqldi_cpu_min_per_mword=c_per, sqldi_cpu_range=_ratio_range("sqldi_cpu_min"),
        db2_cpu_fixed_s=d_fixed, db2_cpu_s_per_mword=d_per, db2_cpu_range=_ratio_range("db2_cpu_s"),
        memory_fixed_mb=m_fixed, memory_mb_per_mword=m_w, memory_mb_per_mvocab=m_v,
        memory_range=_ratio_range("memory_mb"),
        zfs_overhead=zfs_fit(), zfs_range=_ratio_range("zfs_mb"))


PLAN_LABELS = {"words": ("words in the text", "", 1), "vocabulary": ("vocabulary", "words", 1),
               "text_mb": ("training text", "GB", 1e3), "model_mb": ("model file (ZLOAD)", "GB", 1e3),
               "elapsed_min": ("elapsed time", "hours", 60),
               "sqldi_cpu_min": ("SQL DI CPU (zIIP-eligible)", "hours", 60),
               "db2_cpu_s": ("Db2 CPU", "s", 1), "memory_mb": ("peak memory", "GB", 1024),
               "zfs_mb": ("zFS space", "GB", 1e3)}


def plan_table(rows, numeric_columns, categorical_columns, distinct_values) -> pd.DataFrame:
    """The capacity plan as a table: quantity, low, central, high, unit (ValueError on bad input)."""
    p = model.plan(rows, numeric_columns, categorical_columns, distinct_values, calibration())
    out = []
    for key, (lo, c, hi) in p.items():
        label, unit, scale = PLAN_LABELS[key]
        out.append({"quantity": label, "low": lo / scale, "central": c / scale, "high": hi / scale, "unit": unit})
    return pd.DataFrame(out)


EXAMPLES = {  # name -> (rows, numeric columns, categorical columns, distinct categorical values)
    "Table_1 (measured: 5.5 min, 80,194 words)": (1_371_968, 1, 7, 80_174),
    "VIEW_1 (measured: 4.9 min, 272,271 words)": (500_734, 14, 15, 271_991),
    "customers: 5 M rows, 6 + 14 columns": (5_000_000, 6, 14, 400_000),
    "transactions: 50 M rows, 4 + 8 columns": (50_000_000, 4, 8, 2_000_000),
    "claims: 200 M rows, 10 + 30 columns": (200_000_000, 10, 30, 20_000_000),
}


def plan_examples() -> pd.DataFrame:
    """The planner for a few example tables (the static page's precomputed table)."""
    out = []
    for name, args in EXAMPLES.items():
        p = model.plan(*args, calibration())
        fmt = {k: p[k] for k in ("elapsed_min", "sqldi_cpu_min", "memory_mb", "zfs_mb", "model_mb")}
        out.append({
            "table": name, "words (M)": p["words"][1] / 1e6,
            "elapsed (min)": "{:,.0f} – {:,.0f} – {:,.0f}".format(*fmt["elapsed_min"]),
            "SQL DI CPU (min)": "{:,.0f} – {:,.0f} – {:,.0f}".format(*fmt["sqldi_cpu_min"]),
            "peak memory (GB)": "{:,.1f} – {:,.1f} – {:,.1f}".format(*(x / 1024 for x in fmt["memory_mb"])),
            "zFS (GB)": "{:,.1f} – {:,.1f} – {:,.1f}".format(*(x / 1e3 for x in fmt["zfs_mb"])),
            "model (GB)": "{:,.2f} – {:,.2f} – {:,.2f}".format(*(x / 1e3 for x in fmt["model_mb"])),
        })
    return pd.DataFrame(out)
