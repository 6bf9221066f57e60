"""The published tables: schema, provenance, printed precision, and the study's own arithmetic."""
from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tools import seeds
from widgets.citations import flagged
from widgets.data import DataError, data_dir, load_long, printed_table, sources, wide

STUDY = "large_memory"
SEED_NAME = "000_146de95091e26057.txt"
SEED = seeds.path(SEED_NAME)
NO_SEED = seeds.missing_reason(SEED_NAME)
SRC = sources(STUDY)
LONG_FILES = [f for f in SRC["file"] if not f.startswith(("t01", "t02", "t03"))]
IMPROVEMENT_FILES = [f for f in LONG_FILES if re.search(r"improvements|summary", f)]
RESULT_FILES = [f for f in LONG_FILES if f.endswith("_results.csv")]


def test_all_24_tables_have_files_and_provenance():
    tables = [t for t in SRC["table"] if t.startswith("Table ")]
    assert sorted(tables, key=lambda t: int(t.split()[1])) == [f"Table {i}" for i in range(1, 25)]
    assert sorted(set(SRC["table"]) - set(tables)) == ["text of Figure 18"]  # its two ITR ratios
    for f in SRC["file"]:
        assert (data_dir() / STUDY / f).is_file(), f


@pytest.mark.parametrize("filename", LONG_FILES)
def test_long_table_loads_and_keeps_printed_text(filename):
    frame = load_long(STUDY, filename)
    assert len(frame) > 0
    # every numeric value can be read back from what was printed (unless rebuilt from arithmetic)
    for row in frame.itertuples():
        if row.flag.strip() == "reconstructed" or not row.printed or math.isnan(row.value):
            continue
        assert math.isclose(_parse_printed(row.printed, row.unit), row.value, rel_tol=1e-9, abs_tol=1e-9), \
            f"{filename} line {row.csv_line}: printed {row.printed!r} vs value {row.value}"


@pytest.mark.skipif(NO_SEED is not None, reason=NO_SEED or "")
@pytest.mark.parametrize("filename", LONG_FILES)
def test_printed_cells_appear_on_their_cited_source_line(filename):
    lines = SEED.read_text(encoding="utf-8").splitlines()
    frame = load_long(STUDY, filename)
    for row in frame.itertuples():
        printed = row.printed.strip()
        if not printed or row.flag.strip() == "reconstructed":
            continue
        needle = printed.split()[0] if row.unit in ("GB",) else printed
        window = " ".join(lines[max(0, row.line - 2): row.line + 1])
        assert needle.replace(",", "") in window.replace(",", ""), f"{filename}: {printed!r} not near line {row.line}"


def _parse_printed(text: str, unit: str) -> float:
    t = text.strip().replace(",", "")
    if unit == "GB" and t.endswith("M"):  # group pool sizes printed in MB ("977M")
        return float(t[:-1]) / 1024
    t = re.sub(r"\s*(GB|G)$", "", t)
    if t.endswith("%"):
        return float(t[:-1])
    scale = {"K": 1e3, "M": 1e6}.get(t[-1:], 1.0)
    return float(t[:-1]) * scale if scale != 1.0 else float(t)


def _interval(text: str, unit: str) -> tuple[float, float]:
    """The range of true values that print as ``text`` (half a unit of the last printed digit)."""
    t = text.strip().replace(",", "").rstrip("%")
    scale = {"K": 1e3, "M": 1e6}.get(t[-1:], 1.0)
    digits = t[:-1] if scale != 1.0 else t
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    value = float(digits) * scale
    half = 0.5 * 10 ** (-decimals) * scale
    return value - half, value + half


DELTA_OF = {"itr_delta_pct": "itr_ds_per_s", "etr_delta_pct": "etr_ds_per_s",
            "db_request_time_delta_pct": "db_request_time_s", "sync_reads_delta_pct": "sync_reads_per_s",
            "cpu_util_delta_pct": "cpu_util_pct", "max_elapsed_time_delta_pct": "max_elapsed_time_s"}


def _delta_checks(filename):
    frame = load_long(STUDY, filename)
    runs = list(dict.fromkeys(frame["run_id"]))
    base = runs[0]
    for row in frame[frame["metric"].isin(DELTA_OF)].itertuples():
        if row.run_id == base or math.isnan(row.value):
            continue
        absolute = DELTA_OF[row.metric]
        if absolute == "etr_ds_per_s" and absolute not in set(frame["metric"]):
            absolute = "throughput_accounts_per_hour"
        a = frame[(frame["run_id"] == base) & (frame["metric"] == absolute)].iloc[0]
        b = frame[(frame["run_id"] == row.run_id) & (frame["metric"] == absolute)].iloc[0]
        a_lo, a_hi = _interval(a.printed, a.unit)
        b_lo, b_hi = _interval(b.printed, b.unit)
        lo, hi = 100 * (b_lo / a_hi - 1), 100 * (b_hi / a_lo - 1)
        d_lo, d_hi = _interval(f"{row.value:g}" if row.flag == "reconstructed" else row.printed, "pct")
        yield row, (lo, hi), (d_lo, d_hi)


@pytest.mark.parametrize("filename", IMPROVEMENT_FILES)
def test_printed_deltas_agree_with_printed_values_or_are_flagged(filename):
    checked = 0
    for row, (lo, hi), (d_lo, d_hi) in _delta_checks(filename):
        checked += 1
        agrees = hi >= d_lo and lo <= d_hi
        if not agrees:
            assert row.flag == "contradiction", (
                f"{filename} {row.run_id} {row.metric}: printed {row.printed!r} but the table's own values give "
                f"{lo:.2f}% to {hi:.2f}%; flag it")
        elif row.flag == "reconstructed":
            pass  # rebuilt from this very arithmetic
    assert checked > 0


def test_known_contradictions_are_flagged():
    flags = flagged(STUDY)
    lost_sign = flags[(flags["table"] == "Table 15") & (flags["metric"] == "sync_reads_delta_pct")]
    assert list(lost_sign["printed"]) == ["8%"], "Table 15's sync-read delta lost its minus sign"
    assert set(flags["flag"]) <= {"reconstructed", "contradiction"}
    assert flags["why"].str.len().min() > 10


@pytest.mark.parametrize("filename", RESULT_FILES)
def test_itr_is_etr_over_cpu_busy(filename):
    table = wide(load_long(STUDY, filename))
    if "itr_ds_per_s" not in table.columns:
        pytest.skip("batch table: no ITR")
    implied = table["etr_ds_per_s"] / (table["cpu_util_pct"] / 100)
    assert np.allclose(implied, table["itr_ds_per_s"], rtol=2e-3), (implied, table["itr_ds_per_s"])


def test_pool_size_tables_match_pages_times_page_size():
    table = load_long(STUDY, "t07_consolidated_pool_sizes.csv")
    pages = table[table["metric"].str.startswith("pages_k_")]
    for row in pages.itertuples():
        pool = row.metric.removeprefix("pages_k_")
        size_kb = 4 if "k" not in pool[2:] else int(re.search(r"(\d+)k", pool).group(1))
        gb = table[(table["run_id"] == row.run_id) & (table["metric"] == f"size_gb_{pool}")].iloc[0]
        assert math.isclose(row.value * 1000 * size_kb * 1024 / 2**30, gb.value, abs_tol=0.002), (pool, row.run_id)


def test_printed_table_marks_flagged_cells():
    shown = printed_table(STUDY, "t15_gbp_scaling_improvements.csv")
    assert shown.loc["sync_reads_delta_pct", "S40218B1"].endswith("‡")


# --- the loader's clear errors -------------------------------------------------------------------


@pytest.fixture
def scratch(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(data_dir() / STUDY, root / STUDY)
    sources.cache_clear()
    yield root
    sources.cache_clear()


def _edit(path: Path, old: str, new: str):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_missing_file_names_the_file(scratch):
    (scratch / STUDY / "t04_isolated_results.csv").unlink()
    with pytest.raises(DataError, match="t04_isolated_results.csv: file not found"):
        load_long(STUDY, "t04_isolated_results.csv", root=str(scratch))


def test_non_numeric_cell_names_file_line_and_column(scratch):
    _edit(scratch / STUDY / "t04_isolated_results.csv", "S30801B1,users,count,10560", "S30801B1,users,count,lots")
    with pytest.raises(DataError, match=r"t04_isolated_results.csv, line \d+, column value: 'lots' is not a number"):
        load_long(STUDY, "t04_isolated_results.csv", root=str(scratch))


def test_missing_column_is_named(scratch):
    path = scratch / STUDY / "t06_consolidated_results.csv"
    pd.read_csv(path, dtype=str, keep_default_na=False).drop(columns=["printed"]).to_csv(path, index=False)
    with pytest.raises(DataError, match="missing column"):
        load_long(STUDY, "t06_consolidated_results.csv", root=str(scratch))


def test_missing_provenance_is_refused(scratch):
    src = scratch / STUDY / "sources.csv"
    src.write_text("\n".join(line for line in src.read_text().splitlines() if not line.startswith("t23_")) + "\n")
    with pytest.raises(DataError, match="no provenance entry"):
        load_long(STUDY, "t23_z13_results.csv", root=str(scratch))


def test_empty_file_is_refused(scratch):
    (scratch / STUDY / "t24_z13_improvements.csv").write_text("")
    with pytest.raises(DataError, match="empty file"):
        load_long(STUDY, "t24_z13_improvements.csv", root=str(scratch))


def test_flag_without_reason_is_refused(scratch):
    path = scratch / STUDY / "t04_isolated_results.csv"
    _edit(path, "S30801B1,users,count,10560,10560,", "S30801B1,users,count,10560,10560,")
    text = path.read_text().splitlines()
    text = [line if not line.startswith("S30801B1,users,") else line.rsplit(",", 2)[0] + ",contradiction,"
            for line in text]
    path.write_text("\n".join(text) + "\n")
    with pytest.raises(DataError, match="flagged cell must say why"):
        load_long(STUDY, "t04_isolated_results.csv", root=str(scratch))
