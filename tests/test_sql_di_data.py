"""SQL Data Insights (Redbook SG24-8536, chapter 6 and appendix B): provenance, printed text, and the book's
arithmetic."""
from __future__ import annotations

import csv
import math
import re
from decimal import Decimal

import pandas as pd
import pytest

from tools import seeds
from widgets.citations import flagged
from widgets.data import LONG_COLUMNS, data_dir, documents, load_long, sources, wide

STUDY = "sql_data_insights"
SEED_NAME = "004_f768f5134630e6bd.txt"
SEED = seeds.path(SEED_NAME)
NO_SEED = seeds.missing_reason(SEED_NAME)
FOLDER = data_dir() / STUDY
SRC = sources(STUDY)


def _header(filename: str) -> list[str]:
    with (FOLDER / filename).open(newline="", encoding="utf-8") as handle:
        return next(csv.reader(handle))


LONG_FILES = [f for f in SRC["file"] if set(LONG_COLUMNS) <= set(_header(f))]
REF_FILES = [f for f in SRC["file"] if f not in LONG_FILES]
TABLE_FILES = ["t6_1_rows.csv", "t6_2_columns.csv", "t6_3_shapes.csv", "t6_4_concurrent_objects.csv"]
UNITS = {"count", "MB", "GB", "TB", "min", "s", "pct", "x", "bytes", "text"}
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "seven": 7, "eight": 8, "fifteen": 15, "half": 0.5}


def _lines() -> list[str]:
    return SEED.read_text(encoding="utf-8").splitlines()


def _range(filename: str) -> tuple[int, int]:
    lo, hi = SRC[SRC["file"] == filename]["lines"].iloc[0].split("-")
    return int(lo), int(hi)


def _cell(frame: pd.DataFrame, run: str, metric: str) -> pd.Series:
    hit = frame[(frame["run_id"] == run) & (frame["metric"] == metric)]
    assert len(hit) == 1, (run, metric)
    return hit.iloc[0]


def _interval(printed: str) -> tuple[float, float]:
    """The true values that print as ``printed`` (half a unit of the last printed digit, 'K' = thousands)."""
    t = printed.strip().replace(",", "").rstrip("%")
    scale = 1000.0 if t.endswith(" K") else 1.0
    t = t.removesuffix(" K")
    decimals = len(t.split(".")[1]) if "." in t else 0
    half = 0.5 * 10 ** (-decimals)
    return (float(t) - half) * scale, (float(t) + half) * scale


def _ratio(a: str, b: str) -> tuple[float, float]:
    """Range of a / b given the printed cells."""
    (alo, ahi), (blo, bhi) = _interval(a), _interval(b)
    return alo / bhi, ahi / blo


def _overlaps(lo: float, hi: float, target_lo: float, target_hi: float) -> bool:
    return hi >= target_lo and lo < target_hi


# --- files and provenance -------------------------------------------------------------------------


def test_every_csv_in_the_folder_has_a_provenance_row_and_back():
    on_disk = {p.name for p in FOLDER.glob("*.csv")} - {"sources.csv"}
    assert on_disk == set(SRC["file"])
    assert (FOLDER / "README.md").is_file()
    for row in SRC.itertuples():
        assert row.seed == SEED_NAME and "SG24-8536" in documents().loc[row.seed, "document"]
        assert row.table and row.caption and row.page
        lo, hi = _range(row.file)
        assert lo < hi


@pytest.mark.parametrize("filename", LONG_FILES)
def test_long_file_loads_with_units_values_and_lines_in_its_range(filename):
    frame = load_long(STUDY, filename)
    lo, hi = _range(filename)
    assert frame["line"].between(lo, hi).all(), frame[~frame["line"].between(lo, hi)]
    assert not frame.duplicated(["run_id", "metric"]).any()
    assert set(frame["unit"]) <= UNITS
    text = frame["unit"] == "text"
    assert frame.loc[text, "value"].isna().all() and frame.loc[~text, "value"].notna().all()
    assert (frame["printed"].str.strip() != "").all()


@pytest.mark.parametrize("filename", REF_FILES)
def test_reference_file_has_lines_in_its_range(filename):
    frame = pd.read_csv(FOLDER / filename, dtype=str, keep_default_na=False)
    lo, hi = _range(filename)
    assert len(frame) > 0
    assert frame["line"].astype(int).between(lo, hi).all()


def test_the_expected_tables_and_files_are_there():
    assert list(SRC["table"][:5]) == [f"Table 6-{i}" for i in range(1, 6)]
    assert "Table B-1" in set(SRC["table"])
    assert len(load_long(STUDY, "t6_1_rows.csv")) == 6 * 18
    assert len(load_long(STUDY, "t6_2_columns.csv")) == 4 * 18
    assert len(load_long(STUDY, "t6_3_shapes.csv")) == 2 * 18
    assert len(load_long(STUDY, "t6_4_concurrent_objects.csv")) == 2 * 9
    assert len(load_long(STUDY, "t6_5_concurrent_runs.csv")) == 2 * 7
    assert len(load_long(STUDY, "tb_1_query_views.csv")) == 6 * 3


# --- printed text is on its line ------------------------------------------------------------------


@pytest.mark.skipif(NO_SEED is not None, reason=NO_SEED or "")
@pytest.mark.parametrize("filename", LONG_FILES)
def test_printed_text_appears_on_or_next_to_its_cited_line(filename):
    lines = _lines()
    for row in load_long(STUDY, filename).itertuples():
        if row.flag.strip() == "reconstructed":
            continue
        window = " ".join(lines[max(0, row.line - 2): row.line + 1])
        assert row.printed in window, f"{filename} csv line {row.csv_line}: {row.printed!r} not near line {row.line}"


@pytest.mark.skipif(NO_SEED is not None, reason=NO_SEED or "")
def test_reference_files_point_at_their_source_lines():
    lines = _lines()
    queries = pd.read_csv(FOLDER / "b_queries.csv", dtype=str, keep_default_na=False)
    for q in queries.itertuples():
        assert lines[int(q.line) - 1].strip() == q.query_id
        assert lines[int(q.end_line) - 1].strip().startswith("WITH UR;")
        calls = [int(n) for n in q.function_lines.split()]
        assert len(calls) == int(q.invocations_count)
        assert all(q.function in lines[n - 1] for n in calls)
        body = "\n".join(lines[int(q.line): int(q.end_line)])
        assert body.count(q.function) == len(calls)
        for obj in q.objects.split():
            assert obj in body
    figures = pd.read_csv(FOLDER / "f6_figures.csv", dtype=str, keep_default_na=False)
    for f in figures.itertuples():
        assert f"{f.figure}   {f.caption}" in lines[int(f.line) - 1]


# --- values read back from what was printed ------------------------------------------------------


def _candidates(printed: str) -> set[float]:
    t = printed.replace(",", "")
    out = set()
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*(K|million)?", t):
        out.add(float(m.group(1)) * {"K": 1e3, "million": 1e6, None: 1.0}[m.group(2)])
    for word, number in WORDS.items():
        if re.search(rf"\b{word}\b", t, re.IGNORECASE):
            out.add(float(number))
    return out


@pytest.mark.parametrize("filename", LONG_FILES)
def test_every_number_reads_back_from_its_printed_text(filename):
    for row in load_long(STUDY, filename).itertuples():
        if row.unit == "text" or row.flag.strip() == "reconstructed":
            continue
        got = _candidates(row.printed)
        if row.metric == "db2_ziip_eligible_pct" and not row.printed.endswith("%"):
            got = {100 * x for x in got}
        assert any(math.isclose(abs(row.value), c, rel_tol=1e-12) for c in got), (filename, row.run_id, row.metric,
                                                                                 row.printed, row.value)


def test_reductions_are_stored_negative_and_printed_positive():
    quoted = load_long(STUDY, "s6_quoted.csv")
    cuts = quoted[quoted["metric"].str.contains("change") & quoted["metric"].str.endswith("_pct")]
    assert len(cuts) == 7
    assert (cuts["value"] < 0).all()
    assert not cuts["printed"].str.contains("-%|−", regex=True).any()
    assert _cell(quoted, "bif_vs_udf", "elapsed_change_high_pct").value == -89
    assert _cell(quoted, "bif_vs_udf", "cpu_change_low_pct").value == -58


# --- words = rows x (columns + 1) ----------------------------------------------------------------


def words_mismatches(frame: pd.DataFrame) -> list[str]:
    """Runs whose word count is not rows x (numeric + categorical columns + 1), at the printed precision of rows."""
    bad = []
    for run in dict.fromkeys(frame["run_id"]):
        rows = _cell(frame, run, "rows_count")
        cols = _cell(frame, run, "numeric_columns_count").value + _cell(frame, run, "categorical_columns_count").value
        words = int(_cell(frame, run, "words_count").value)
        per_row = int(cols) + 1
        # rows printed in thousands: words / (cols + 1) must be whole and print the same
        if rows.printed.endswith(" K"):
            ok = words % per_row == 0 and f"{round(words / per_row / 1000):,} K" == rows.printed
        else:
            ok = words == int(rows.value) * per_row
        if not ok:
            bad.append(run)
    return bad


@pytest.mark.parametrize("filename", TABLE_FILES)
def test_words_are_rows_times_columns_plus_one_except_the_flagged_transposition(filename):
    frame = load_long(STUDY, filename)
    bad = words_mismatches(frame)
    if filename == "t6_1_rows.csv":
        assert bad == ["view_4"]
        cell = _cell(frame, "view_4", "words_count")
        assert cell.printed == "342,540,150" and cell.flag == "contradiction"
        assert 10_818_005 * 30 == 324_540_150 and "324,540,150" in cell.note
    else:
        assert bad == []
    words = frame[frame["metric"] == "words_count"]
    assert set(words.loc[~words["run_id"].isin(bad), "flag"]) == {""}


def test_the_words_check_can_fail():
    frame = load_long(STUDY, "t6_2_columns.csv").copy()
    assert words_mismatches(frame) == []
    frame.loc[(frame["run_id"] == "cols_30") & (frame["metric"] == "words_count"), "value"] = 15_522_755
    assert words_mismatches(frame) == ["cols_30"]
    frame = load_long(STUDY, "t6_1_rows.csv").copy()
    frame.loc[(frame["run_id"] == "view_4") & (frame["metric"] == "words_count"), "value"] = 324_540_150
    assert words_mismatches(frame) == []


# --- totals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("filename", ["t6_1_rows.csv", "t6_2_columns.csv", "t6_3_shapes.csv"])
def test_total_elapsed_is_the_sum_of_its_parts_or_flagged(filename):
    frame = load_long(STUDY, filename)
    for run in dict.fromkeys(frame["run_id"]):
        total = _cell(frame, run, "total_elapsed_min")
        parts = [_cell(frame, run, m).printed for m in ("preprocess_elapsed_min", "train_load_elapsed_min")]
        diff = Decimal(total.printed.replace(",", "")) - sum(Decimal(p.replace(",", "")) for p in parts)
        if diff == 0:  # adds up: unflagged, unless flagged for another reason (Table_1 measured twice)
            assert total.flag == "" or "measured twice" in total.note, (filename, run)
        else:
            assert total.flag == "contradiction", (filename, run, diff)
            assert str(abs(diff)) in total.note or "1.00 min" in total.note


def test_view_5_total_is_exactly_one_minute_short_and_flagged():
    frame = load_long(STUDY, "t6_1_rows.csv")
    total = _cell(frame, "view_5", "total_elapsed_min")
    parts = Decimal(_cell(frame, "view_5", "preprocess_elapsed_min").printed) + \
        Decimal(_cell(frame, "view_5", "train_load_elapsed_min").printed)
    assert Decimal(total.printed) - parts == Decimal("-1.00")
    assert total.flag == "contradiction" and "1.00 min" in total.note


# --- zIIP shares printed as fractions ------------------------------------------------------------


def test_db2_ziip_share_is_stored_in_percent_even_where_printed_as_a_fraction():
    fractions = 0
    for filename in ["t6_1_rows.csv", "t6_2_columns.csv", "t6_3_shapes.csv", "t6_5_concurrent_runs.csv"]:
        frame = load_long(STUDY, filename)
        for row in frame[frame["metric"].str.endswith("ziip_eligible_pct")].itertuples():
            assert row.unit == "pct" and 40 <= row.value <= 100, row
            if not row.printed.endswith("%"):
                fractions += 1
                assert row.metric == "db2_ziip_eligible_pct"
                assert math.isclose(row.value, 100 * float(row.printed))
                assert row.flag == "contradiction" and "fraction" in row.note
    assert fractions == 6  # Table 6-2 (4 cells) and Table 6-5 (2 cells)


# --- the same object measured in two tables ------------------------------------------------------


def _as_mb(row) -> tuple[float, float]:
    lo, hi = _interval(row.printed)
    return (lo * 1024, hi * 1024) if row.unit == "GB" else (lo, hi)


SHARED = [("total_elapsed_min", "total_elapsed_min"), ("db2_cpu_s", "db2_cpu_s"),
          ("db2_ziip_eligible_pct", "db2_ziip_eligible_pct"), ("sqldi_cpu_min", "sqldi_cpu_min"),
          ("sqldi_ziip_eligible_pct", "sqldi_ziip_eligible_pct"), ("peak_memory_gb", "peak_memory_mb"),
          ("zfs_gb", "zfs_mb")]


def test_table_1_measured_twice_differs_and_every_difference_is_flagged_on_both_sides():
    t63, t65 = load_long(STUDY, "t6_3_shapes.csv"), load_long(STUDY, "t6_5_concurrent_runs.csv")
    differing = []
    for m3, m5 in SHARED:
        a, b = _cell(t63, "table_1", m3), _cell(t65, "single", m5)
        if m3 == "db2_ziip_eligible_pct":
            (alo, ahi), (blo, bhi) = _interval(a.printed), tuple(100 * x for x in _interval(b.printed))
        else:
            (alo, ahi), (blo, bhi) = _as_mb(a), _as_mb(b)
        agree = ahi >= blo and bhi >= alo
        if not agree:
            differing.append(m3)
            assert a.flag == "contradiction" and "measured twice" in a.note
            assert b.flag == "contradiction" and "measured twice" in b.note
        else:
            assert a.flag == "" and "measured twice" not in b.note
    assert differing == ["total_elapsed_min", "db2_cpu_s", "db2_ziip_eligible_pct", "sqldi_cpu_min", "peak_memory_gb"]


def test_view_1_in_tables_6_1_and_6_3_agrees_except_the_flagged_total():
    t61, t63 = load_long(STUDY, "t6_1_rows.csv"), load_long(STUDY, "t6_3_shapes.csv")
    for metric in set(t63["metric"]):
        m61 = metric.replace("_gb", "_mb")
        a, b = _cell(t61, "view_1", m61), _cell(t63, "view_1", metric)
        if "/" in a.printed:  # the numeric / categorical column cell
            assert a.value == b.value
            continue
        if metric == "total_elapsed_min":  # same precision in both tables: the printed values must be equal
            assert a.printed == "4.89" and b.printed == "4.88" and b.flag == "contradiction"
            continue
        (alo, ahi), (blo, bhi) = _as_mb(a), _as_mb(b)
        agree = ahi >= blo and bhi >= alo
        assert agree, (metric, a.printed, b.printed)
    assert _cell(t63, "view_1", "total_elapsed_min").flag == "contradiction"


def test_tables_6_3_and_6_4_describe_the_same_table_1():
    t63, t64 = wide(load_long(STUDY, "t6_3_shapes.csv")), wide(load_long(STUDY, "t6_4_concurrent_objects.csv"))
    for metric in t64.columns:
        assert t64.loc["table_1", metric] == t64.loc["table_2", metric] == t63.loc["table_1", metric], metric


# --- ratios ----------------------------------------------------------------------------------------


def test_rows_grow_202_times_from_view_1_to_view_6():
    t61 = load_long(STUDY, "t6_1_rows.csv")
    lo, hi = _ratio(_cell(t61, "view_6", "rows_count").printed, _cell(t61, "view_1", "rows_count").printed)
    assert _overlaps(lo, hi, 201.5, 202.5) and 202 <= lo
    exact = (3_041_876_340 / 30) / 500_734  # rows rebuilt from the word counts
    assert round(exact) == 202


def test_view_4_to_view_5_rows_times_4_24_and_vocabulary_plus_8_pct():
    t61 = load_long(STUDY, "t6_1_rows.csv")
    lo, hi = _ratio(_cell(t61, "view_5", "rows_count").printed, _cell(t61, "view_4", "rows_count").printed)
    assert _overlaps(lo, hi, 4.235, 4.245)
    v4, v5 = (_cell(t61, r, "vocabulary_count").value for r in ("view_4", "view_5"))
    assert round(100 * (v5 / v4 - 1)) == 8
    assert v5 / v4 < 1.1 < lo  # "did not increase by much" while the rows more than quadrupled


def test_two_concurrent_runs_take_22_pct_less_than_back_to_back():
    t65, quoted = load_long(STUDY, "t6_5_concurrent_runs.csv"), load_long(STUDY, "s6_quoted.csv")
    single, both = _cell(t65, "single", "total_elapsed_min"), _cell(t65, "two_concurrent", "total_elapsed_min")
    sequential = _cell(quoted, "training_concurrency", "sequential_elapsed_min")
    assert Decimal(sequential.printed.split()[0]) == 2 * Decimal(single.printed)
    (slo, shi), (blo, bhi) = _interval(single.printed), _interval(both.printed)
    lo, hi = 100 * (1 - bhi / (2 * slo)), 100 * (1 - blo / (2 * shi))
    saving = _cell(quoted, "training_concurrency", "concurrent_vs_sequential_change_pct")
    assert saving.value == -22 and _overlaps(lo, hi, 21.5, 22.5)
    assert _cell(quoted, "training_concurrency", "concurrent_elapsed_min").value == both.value
    assert _cell(quoted, "training_concurrency", "single_elapsed_min").value == single.value


def test_model_size_rule_of_thumb_example_recomputes():
    quoted = load_long(STUDY, "s6_quoted.csv")
    n = lambda metric: int(_cell(quoted, "model_size_example", metric).value)  # noqa: E731
    per_value = int(_cell(quoted, "model_size_rule", "bytes_per_unique_value").value)
    clusters = int(_cell(quoted, "model_size_rule", "clusters_per_numeric_column_count").value)
    assert (clusters * n("numeric_columns_count") + n("categorical_unique_values_count")
            == n("unique_values_total_count"))
    assert n("unique_values_total_count") * per_value == n("estimate_bytes") == 898_830_900
    assert round(n("estimate_bytes") / 1e6) == n("estimate_mb") == 899
    actual = _cell(quoted, "model_size_example_check", "actual_zload_mb").value
    t62 = wide(load_long(STUDY, "t6_2_columns.csv"))
    assert round(t62.loc["cols_10", "zload_size_mb"]) == actual == 895
    assert t62.loc["cols_10", "numeric_columns_count"] == n("numeric_columns_count")
    # ZLOAD bytes per vocabulary word sit just below 3300 in every data set, so the rule overestimates a little
    for filename in TABLE_FILES:
        w = wide(load_long(STUDY, filename))
        per_word = w["zload_size_mb"] * 1e6 / w["vocabulary_count"]
        assert per_word.between(3280, 3300).all(), per_word


# --- table B-1, queries, figures -------------------------------------------------------------------


def test_table_b1_model_rows_are_table_6_1_vocabularies_and_8_1_million_is_flagged():
    b1, t61 = wide(load_long(STUDY, "tb_1_query_views.csv")), wide(load_long(STUDY, "t6_1_rows.csv"))
    long = load_long(STUDY, "tb_1_query_views.csv")
    for run in b1.index:
        vocab = t61.loc[run, "vocabulary_count"]
        cell = _cell(long, run, "model_table_rows_count")
        digits = cell.printed.replace(",", "").split()[0]
        step = (10 ** -len(digits.split(".")[1]) if "." in digits else 1) * (1e6 if "million" in cell.printed else 1)
        step = 1000 if cell.printed.endswith(",000") else step
        rounds_ok = abs(vocab - cell.value) <= step / 2
        assert rounds_ok == (cell.flag == ""), (run, cell.printed, vocab)
        assert b1.loc[run, "view_rows_count"] <= t61.loc[run, "rows_count"] < 1.2 * b1.loc[run, "view_rows_count"]
    assert _cell(long, "view_6", "model_table_rows_count").flag == "contradiction"


def test_query_inventory_agrees_with_the_chapter():
    queries = pd.read_csv(FOLDER / "b_queries.csv", keep_default_na=False)
    quoted = load_long(STUDY, "s6_quoted.csv")
    assert len(queries) == 16
    assert set(queries["function"]) == {"AI_SIMILARITY", "AI_SEMANTIC_CLUSTER", "AI_ANALOGY"}
    first = queries.drop_duplicates("query_id").set_index("query_id")
    assert (first.loc["T00SIMX", "invocations_count"]
            == _cell(quoted, "similarity_ziip", "t00simx_invocations_count").value)
    assert first.loc["T01ANAX", "invocations_count"] == _cell(quoted, "analogy_ziip", "t01anax_invocations_count").value
    for q in ("T00SEM1", "T00SEM2", "T00SEM3"):
        assert (int(first.loc[q, "cluster_entities_count"])
                == _cell(quoted, "semantic_cluster_ziip", f"{q.lower()}_entities_count").value)
    assert (queries["function"] == "AI_ANALOGY").groupby(queries["scenario"]).sum()["1 and 2"] == \
        _cell(quoted, "analogy_ziip", "queries_count").value
    repeated = queries[queries["scenario"] == "3"]
    assert list(repeated["query_id"]) == ["T00SIMX", "T00SEM3", "T01ANAX"]
    assert repeated["note"].str.startswith("identical").all()


def test_figure_captions_are_all_22_and_images_only():
    figures = pd.read_csv(FOLDER / "f6_figures.csv", keep_default_na=False)
    assert list(figures["figure"]) == [f"Figure 6-{i}" for i in range(1, 23)]
    assert figures["note"].str.startswith("image only").all()


# --- every flag, as listed in the README -------------------------------------------------------


EXPECTED_FLAGS = {
    ("Table 6-1", "view_4", "words_count"), ("Table 6-1", "view_5", "total_elapsed_min"),
    ("Table 6-2", "cols_20", "total_elapsed_min"),
    *{("Table 6-2", r, "db2_ziip_eligible_pct") for r in ("cols_10", "cols_20", "cols_30", "cols_60")},
    ("Table 6-3", "view_1", "total_elapsed_min"),
    *{("Table 6-3", "table_1", m) for m in ("total_elapsed_min", "db2_cpu_s", "db2_ziip_eligible_pct", "sqldi_cpu_min",
                                            "peak_memory_gb")},
    *{("Table 6-5", "single", m) for m in ("total_elapsed_min", "db2_cpu_s", "db2_ziip_eligible_pct", "sqldi_cpu_min",
                                          "peak_memory_mb")},
    ("Table 6-5", "two_concurrent", "db2_ziip_eligible_pct"),
    ("Table B-1", "view_6", "model_table_rows_count"),
}


def test_flags_are_exactly_the_documented_ones():
    flags = flagged(STUDY)
    assert set(zip(flags["table"], flags["run"], flags["metric"])) == EXPECTED_FLAGS
    assert set(flags["flag"]) == {"contradiction"}
    assert flags["why"].str.len().min() > 80
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    for table, run, metric in EXPECTED_FLAGS:
        assert f"| {run} | {metric} |" in readme or f"| {run} | `{metric}` |" in readme, (table, run, metric)
