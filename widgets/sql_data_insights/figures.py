"""The SQL Data Insights chapter's figures (one model, three surfaces).

Figures 6-1 to 6-9 of the Redbook are images; their data are Tables 6-1, 6-2 and 6-5, so each is
regenerated from the tables with the model's lines through (or past) the printed points. The
query-cost figure is a labelled reconstruction: the per-query results (Figures 6-12 to 6-22)
are images only, and the text quotes ranges.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from .. import validation as v
from ..citations import study_document
from ..figure import Axis, Figure, Param, printed_number
from . import calibration as cal
from . import model, planner
from . import published as pub

STUDY = "sql_data_insights"
BLUE, ORANGE, GREEN, RED, TEAL, PURPLE, GREY, BLACK = (
    "#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d", "#222222")
COLORS = {
    "model: training text": BLUE, "published: Table 6-1 (rows)": BLACK, "published: Table 6-2 (columns)": ORANGE,
    "published: Table 6-3 (Table_1)": GREEN,
    "elapsed time": BLUE, "SQL DI CPU": ORANGE, "Db2 CPU": GREEN,
    "published: elapsed time": BLUE, "published: SQL DI CPU": ORANGE, "published: Db2 CPU": GREEN,
    "peak memory": RED, "zFS space": TEAL, "published: peak memory": RED, "published: zFS space": TEAL,
    "model file (ZLOAD)": BLUE, "IBM rule: 3,300 bytes per word": GREY,
    "Heaps law, no repeats": GREY, "with repeated rows": BLUE, "published: vocabulary": BLACK,
    "run together": BLUE, "one after another": ORANGE, "published: one run": BLACK,
    "published: together": BLUE, "published: back to back": ORANGE,
    "CPU cut (BiF vs UDF)": ORANGE, "elapsed cut (BiF vs UDF)": BLUE, "zIIP share of a BiF query": GREEN,
}
_figure = partial(Figure, STUDY, colors=COLORS)

ROWS_X = np.round(np.geomspace(3e5, 2e8, 20), -3)  # rows in the AI object
COLUMNS_X = np.arange(1.0, 61.0)  # columns selected
VOCAB_X = np.round(np.geomspace(5e4, 2e7, 25), -2)  # vocabulary words
VIEWS = ("view_1", "view_2", "view_3", "view_4", "view_5", "view_6")
COLUMN_VIEWS = ("cols_10", "cols_20", "cols_30", "cols_60")
TABLE_6_1_COLUMNS = 29.0  # 14 numeric + 15 categorical, every view of Table 6-1
H = cal.heaps_calibration()
C = cal.concurrency_calibration()
Q = cal.query_defaults()
CAL = planner.calibration()
V0, D_FIT = cal.column_vocabulary_fit()

# --- sliders (defaults: the calibrated values, rounded so a slider can sit on them) -------------

# Each slider's positions are round steps from its first. A fitted value that no round grid holds opens
# at the nearest position (``calibrated`` keeps the exact value, which the ledger uses); a published
# count (29 columns) or an argued value (6.2, 0.08) is kept exactly, on a grid stepped from it.
COLUMNS = Param("columns", "Columns selected", "columns", 1, 100, TABLE_6_1_COLUMNS, 1, 5, static_min=9, static_max=59,
                help="numeric + categorical columns trained; each adds one word per row")
BYTES = Param("bytes_per_word", "Text bytes per word", "bytes", 5, 60, 22.7, 0.01, 3, static_min=10.7, static_max=35,
              calibrated=cal.text_fit(), help="fitted on Table 6-1; Table 6-2's views have 18.2 to 22.7")
ROWS_K = Param("rows_k", "Rows", "thousand rows", 1, 200_000, 500, 1, 100, static_min=100, static_max=1000,
               calibrated=500.734, help="Table 6-2's views have 500,734 rows")
# live only (the static cost figures carry one slider each): rounded to the nearest hundredth
ELAPSED_RATE = Param("elapsed_per_mword", "Elapsed time per million words", "min", 0.05, 2.0,
                     0.32, 0.01, 0.04, static_min=0.08, calibrated=cal.cost_fit("elapsed_min")[1],
                     help="fitted on Table 6-1; the 11 data sets span "
                          f"{CAL.elapsed_min_per_mword * CAL.elapsed_range[0]:.2f} to "
                          f"{CAL.elapsed_min_per_mword * CAL.elapsed_range[1]:.2f}")
CPU_RATE = Param("sqldi_cpu_per_mword", "SQL DI CPU per million words", "min", 0.2, 10.0,
                 2.08, 0.01, 0.4, static_min=0.48, calibrated=cal.cost_fit("sqldi_cpu_min")[1],
                 help="fitted on Table 6-1; the 11 data sets span "
                      f"{CAL.sqldi_cpu_min_per_mword * CAL.sqldi_cpu_range[0]:.2f} to "
                      f"{CAL.sqldi_cpu_min_per_mword * CAL.sqldi_cpu_range[1]:.2f}")
REPEAT = Param("repeat_share", "Share of new rows that repeat old values", "", 0.0, 0.99, H["repeat_share"], 0.001,
               0.05, static_min=0.528, help="beyond VIEW_4's 10.8 million rows; VIEW_5 implies the default")
BETA = Param("beta", "Heaps exponent β", "", 0.3, 1.0, 0.89, 0.01, 0.05, static_min=0.59, calibrated=H["beta"],
             help="fitted on VIEW_1 to VIEW_4; K is refitted for each β")
# in powers of ten: Table 6-2's ~27 values per added column, up to tens of thousands
DISTINCT = Param("distinct_log10", "Distinct values per added column (log10)", "", 0, 4.7, 1.5, 0.01, 0.5,
                 static_max=4.5, calibrated=float(np.log10(D_FIT)),
                 help=f"Table 6-2's added columns bring about {D_FIT:.0f} each (10^1.43); 3 is a thousand")
# the fit as the title prints it, 3,287 bytes, in steps of 100 (3,300, IBM's rule, is the subtitle's)
BYTES_VEC = Param("bytes_per_vector", "Model bytes per vocabulary word", "bytes", 100, 10_000,
                  round(cal.vector_fit()), 1, 100, static_min=187, static_max=8000, calibrated=cal.vector_fit(),
                  help=f"fitted on Table 6-1: {CAL.model_bytes_per_vector:,.0f} bytes in every one of the 11 data sets")
ENGINES = Param("engines", "Processors for training", "engines", 1, 32, C["engines"], 1, 2, static_min=2,
                static_max=16, help="the measurement LPAR had eight CPs")
# a run's threads beyond the engines would only queue: the slider stops at the measured eight
THREADS = Param("threads", "Training threads per run", "threads", 1, C["threads"], C["threads"], 1, 2,
                static_min=2, help="eight in the measurements; IBM: no more than the active cores",
                end="8, as measured: IBM advises no more threads than active cores (Redbook §6.1.4).")
FIXED = Param("fixed_min", "Part of a run the model lets overlap freely", "min", 0, 20,
              C["fixed"], 0.01, 1, static_min=0.42,  # live only
              help="fitted through 5.52 min alone and 8.62 min for two together")
OVERHEAD = Param("udf_overhead", "UDF overhead per call", "x a built-in call", 0, 15, Q["udf_overhead"], 0.1, 1,
                 static_min=0.2, static_max=12, help="a CPU cut of up to 86% needs at least 6.2")
OTHER = Param("other_work", "Other SQL work per query", "x a built-in call", 0, 5, Q["other_work"], 0.01, 0.04,
              static_max=0.6, help="runs on general processors; 0.08 lets four calls reach 98% zIIP")
WAIT = Param("udf_wait", "Extra UDF wait per call (elapsed only)", "x a built-in call", 0, 10, Q["udf_wait"], 0.1, 1,
             static_min=0.9,  # live only
             help="our guess, e.g. a switch to a WLM address space; an elapsed cut of up to 89% needs 1.9 more")


def _points(names, quantity: str, x_of, series: str, scale: float = 1.0) -> list[dict]:
    d = pub.datasets()
    out = []
    for n in names:
        row = d.loc[n]
        note = f"{row['label']}: {row['rows']:,.0f} rows, {row['n_columns']:.0f} columns"
        if n == "view_4":
            note += f"; words corrected to {pub.VIEW_4_WORDS:,} (printed 342,540,150)"
        y = float(row[quantity]) * scale
        point = {"x": float(x_of(row)), "y": y, "series": series, "condition": note,
                 "source": pub.cite_quantity(n, quantity)}
        if scale == 1 / 60:  # printed in seconds, drawn in minutes: both, not a quotient's every digit
            point["y_printed"] = f"{y:.3g} ({printed_number(float(row[quantity]))} s)"
        out.append(point)
    return out


def _by_family(names, quantity: str, x_of) -> pd.DataFrame:
    d = pub.datasets()
    rows = []
    for n in names:
        rows += _points([n], quantity, x_of, f"published: {d.loc[n, 'family']}")
    return pd.DataFrame(rows)


# --- 1. training text (Figures 6-1 and 6-5) -------------------------------------------------------


def text_rows_curves(rows, s: cal.Scenario):
    """Training text (MB) against rows: bytes per word x rows x (columns + 1)."""
    return {"model: training text": model.text_mb(model.words(rows, s.columns), s.bytes_per_word)}


TEXT_ROWS = _figure(
    "text_rows", "Figure 6-1, regenerated: the training text grows with the rows",
    Axis("rows", "Rows in the AI object", scale="log", format=".2~s"),
    Axis("text", "Training text (MB)", scale="log", format=",.0f"), ROWS_X, text_rows_curves, (COLUMNS, BYTES),
    published=_by_family(VIEWS, "text_mb", lambda r: r["rows"]),
    subtitle=f"Words = rows x (columns + 1); text = {CAL.text_bytes_per_word:.2f} bytes per word, "
             "fitted on the six views of Table 6-1.")


def text_columns_curves(columns, s: cal.Scenario):
    """Training text (MB) against the number of columns, at a number of rows."""
    return {"model: training text": model.text_mb(model.words(s.rows_k * 1000.0, columns), s.bytes_per_word)}


TEXT_COLUMNS = _figure(
    "text_columns", "Figure 6-5, regenerated: the training text grows with the columns",
    Axis("columns", "Columns selected", format=".0f"), Axis("text", "Training text (MB)", format=",.0f"), COLUMNS_X,
    text_columns_curves, (BYTES,), live_params=(ROWS_K,),
    published=_by_family(COLUMN_VIEWS, "text_mb", lambda r: r["n_columns"]),
    subtitle=f"500,734 rows. The narrow added columns make shorter words: 18 to 22 bytes, not "
             f"{CAL.text_bytes_per_word:.1f}.")

# --- 2. training cost (Figures 6-2 and 6-6) ----------------------------------------------------------


def _costs(n_words, elapsed_per_mword, sqldi_cpu_per_mword):
    d_fixed, d_per = cal.cost_fit("db2_cpu_s")
    return {"elapsed time": model.linear_cost(n_words, 0.0, elapsed_per_mword),
            "SQL DI CPU": model.linear_cost(n_words, 0.0, sqldi_cpu_per_mword),
            "Db2 CPU": model.linear_cost(n_words, d_fixed, d_per) / 60.0}


def cost_rows_curves(rows, s: cal.Scenario):
    """Elapsed time, SQL DI CPU and Db2 CPU (all in minutes) against rows."""
    return _costs(model.words(rows, s.columns), s.elapsed_per_mword, s.sqldi_cpu_per_mword)


def _cost_points(names, x_of) -> pd.DataFrame:
    rows = (_points(names, "elapsed_min", x_of, "published: elapsed time")
            + _points(names, "sqldi_cpu_min", x_of, "published: SQL DI CPU")
            + _points(names, "db2_cpu_s", x_of, "published: Db2 CPU", scale=1 / 60))
    return pd.DataFrame(rows)


COST_ROWS = _figure(
    "cost_rows", "Figure 6-2, regenerated: elapsed time and CPU against rows",
    Axis("rows", "Rows in the AI object", scale="log", format=".2~s"),
    Axis("minutes", "Minutes (Db2 CPU: seconds / 60)", scale="log", format=",.2~f"), ROWS_X, cost_rows_curves,
    (COLUMNS,), live_params=(ELAPSED_RATE, CPU_RATE), published=_cost_points(VIEWS, lambda r: r["rows"]),
    subtitle="One cost per word, fitted on Table 6-1 (Db2 CPU: plus a fixed part). Other tables: 0.6 to 1.5 times.")


def cost_columns_curves(columns, s: cal.Scenario):
    """Elapsed time, SQL DI CPU and Db2 CPU (minutes) against columns, at a number of rows."""
    return _costs(model.words(s.rows_k * 1000.0, columns), s.elapsed_per_mword, s.sqldi_cpu_per_mword)


COST_COLUMNS = _figure(
    "cost_columns", "Figure 6-6, regenerated: elapsed time and CPU against columns",
    Axis("columns", "Columns selected", format=".0f"),
    Axis("minutes", "Minutes (Db2 CPU: seconds / 60)", scale="log", format=",.2~f"), COLUMNS_X, cost_columns_curves,
    (ROWS_K,), live_params=(ELAPSED_RATE, CPU_RATE), published=_cost_points(COLUMN_VIEWS, lambda r: r["n_columns"]),
    subtitle="The Table 6-1 costs per word predict Table 6-2: within 14% for 20 and 60 columns, "
             "18-64% off for 10 and 30.")

# --- 3. memory and zFS (Figures 6-3 and 6-7) ------------------------------------------------------------


def vocabulary_curve(rows, repeat_share, beta):
    """Vocabulary against rows: Heaps' law through VIEW_1-VIEW_4, repeats beyond VIEW_4."""
    d = pub.datasets()
    names = list(cal.HEAPS_ROWS)
    k = model.heaps_k(d.loc[names, "rows"].to_numpy(), d.loc[names, "vocabulary"].to_numpy(), beta)
    return model.vocabulary_with_repeats(rows, H["base_rows"], k, beta, repeat_share)


def _resources(n_words, vocab):
    text = model.text_mb(n_words, cal.text_fit())
    vectors = model.model_mb(vocab, cal.vector_fit())
    return {"peak memory": model.peak_memory_mb(n_words, vocab, *cal.memory_fit()),
            "zFS space": model.zfs_mb(text, vectors, cal.zfs_fit())}


def resources_rows_curves(rows, s: cal.Scenario):
    """Peak memory and zFS space (MB) against rows of a 29-column view, vocabulary from Heaps' law."""
    return _resources(model.words(rows, TABLE_6_1_COLUMNS), vocabulary_curve(rows, s.repeat_share, s.beta))


def _resource_points(names, x_of) -> pd.DataFrame:
    return pd.DataFrame(_points(names, "memory_mb", x_of, "published: peak memory")
                        + _points(names, "zfs_mb", x_of, "published: zFS space"))


RESOURCES_ROWS = _figure(
    "resources_rows", "Figure 6-3, regenerated: memory and zFS against rows",
    Axis("rows", "Rows in the AI object", scale="log", format=".2~s"),
    Axis("mb", "MB", scale="log", format=",.0f"), ROWS_X, resources_rows_curves, (REPEAT, BETA),
    published=_resource_points(VIEWS, lambda r: r["rows"]),
    subtitle="zFS = 1.03 x (text + model file); memory = fixed + per word + per vocabulary word.")


def column_vocabulary(columns, distinct_per_column):
    """Vocabulary of a 500,734-row view against its columns: V0 + d x columns (Table 6-2's fit)."""
    c = model.columns_total(columns, 0)
    return V0 + v.non_negative("distinct_per_column", distinct_per_column, unit="values") * c


def resources_columns_curves(columns, s: cal.Scenario):
    """Peak memory and zFS space (MB) against columns, for a number of distinct values per added column."""
    return _resources(model.words(s.rows_k * 1000.0, columns), column_vocabulary(columns, 10.0 ** s.distinct_log10))


RESOURCES_COLUMNS = _figure(
    "resources_columns", "Figure 6-7, regenerated: memory and zFS against columns",
    Axis("columns", "Columns selected", format=".0f"), Axis("mb", "MB", scale="log", format=",.0f"), COLUMNS_X,
    resources_columns_curves, (DISTINCT,), live_params=(ROWS_K,),
    published=_resource_points(COLUMN_VIEWS, lambda r: r["n_columns"]),
    subtitle="Narrow added columns barely grow the vocabulary, so zFS grows slowly. Memory at 60 columns is the miss.")

# --- 4. model size (Figures 6-4 and 6-8) ---------------------------------------------------------------------


def model_size_curves(vocab, s: cal.Scenario):
    """Model file size (MB) against the vocabulary. (IBM's 3,300-byte rule is the fit within 0.4%: a line
    of its own would sit on the model's, so the subtitle gives it.)"""
    return {"model file (ZLOAD)": model.model_mb(vocab, s.bytes_per_vector)}


MODEL_SIZE = _figure(
    "model_size",
    f"Figure 6-4, regenerated: the model size is the vocabulary times {CAL.model_bytes_per_vector:,.0f} bytes",
    Axis("vocab", "Vocabulary (words)", scale="log", format=".2~s"),
    Axis("mb", "Model file (MB)", scale="log", format=",.0f"), VOCAB_X, model_size_curves, (BYTES_VEC,),
    published=_by_family(list(pub.DATASETS), "zload_mb", lambda r: r["vocabulary"]),
    subtitle="All eleven data sets lie on one line: 3,286.7 to 3,287.5 bytes per vocabulary word. "
             f"IBM's rule, {model.RULE_BYTES_PER_WORD:,.0f} bytes per word, is that line rounded up.")


def model_columns_curves(columns, s: cal.Scenario):
    """Model file size (MB) against columns (500,734 rows), for a number of distinct values per added column."""
    vocab = column_vocabulary(columns, 10.0 ** s.distinct_log10)
    return {"model file (ZLOAD)": model.model_mb(vocab, cal.vector_fit())}


MODEL_COLUMNS = _figure(
    "model_columns", "Figure 6-8, regenerated: more columns, hardly more model",
    Axis("columns", "Columns selected", format=".0f"), Axis("mb", "Model file (MB)", format=",.0f"), COLUMNS_X,
    model_columns_curves, (DISTINCT,), published=_by_family(COLUMN_VIEWS, "zload_mb", lambda r: r["n_columns"]),
    subtitle="The model follows the vocabulary, not the columns: Table 6-2's added columns bring ~27 values each.")

# --- 5. vocabulary growth -------------------------------------------------------------------------------------


def vocabulary_curves(rows, s: cal.Scenario):
    """Vocabulary against rows: plain Heaps' law, and with a share of repeating rows beyond VIEW_4."""
    return {"Heaps law, no repeats": vocabulary_curve(rows, 0.0, s.beta),
            "with repeated rows": vocabulary_curve(rows, s.repeat_share, s.beta)}


def _vocab_marks() -> pd.DataFrame:
    return pd.DataFrame([
        {"x": pub.quoted("training_scenario_1_results", "view_4_rows_count"), "label": "VIEW_4 (10 million)",
         "source": pub.cite_prose("training_scenario_1_results", "view_4_rows_count", "6.1.2")},
        {"x": pub.quoted("training_scenario_1_results", "view_5_rows_count"), "label": "VIEW_5: mostly repeats",
         "source": pub.cite_prose("training_scenario_1_results", "view_5_rows_count", "6.1.2")}])


VOCABULARY = _figure(
    "vocabulary", "Vocabulary growth: Heaps' law, and what repeated rows do to it",
    Axis("rows", "Rows in the AI object", scale="log", format=".2~s"),
    Axis("vocab", "Vocabulary (words)", scale="log", format=".2~s"), ROWS_X, vocabulary_curves, (REPEAT, BETA),
    published=pd.DataFrame(_points(VIEWS, "vocabulary", lambda r: r["rows"], "published: vocabulary")),
    marks=_vocab_marks(),
    subtitle="V = K n^β fitted on VIEW_1-VIEW_4. Beyond VIEW_4 only the non-repeating share of new rows adds words.")

# --- 6. concurrency (Figure 6-9) -------------------------------------------------------------------------------


def concurrency_curves(runs, s: cal.Scenario):
    """Elapsed time (min) of identical trainings run together and one after another."""
    args = (s.fixed_min, C["work"], s.engines, s.threads)
    return {"run together": model.concurrent_elapsed(runs, *args),
            "one after another": model.sequential_elapsed(runs, *args)}


def _concurrency_points() -> pd.DataFrame:
    seq_source = pub.cite_prose("training_concurrency", "sequential_elapsed_min", "6.1.2, text of Figure 6-9")
    return pd.DataFrame([
        {"x": 1.0, "y": C["single"], "series": "published: one run", "condition": "Table_1 alone",
         "source": pub.cite(pub.CONCURRENT, "single", "total_elapsed_min")},
        {"x": 2.0, "y": C["two"], "series": "published: together", "condition": "Table_1 and Table_2 together",
         "source": pub.cite(pub.CONCURRENT, "two_concurrent", "total_elapsed_min")},
        {"x": 2.0, "y": pub.quoted("training_concurrency", "sequential_elapsed_min"),
         "series": "published: back to back", "condition": "2 x 5.52 min (computed in the text, not measured)",
         "source": seq_source}])


CONCURRENCY = _figure(
    "concurrency", "Figure 6-9, regenerated: two trainings together or one after the other",
    Axis("runs", "Identical trainings", format=".0f"), Axis("minutes", "Elapsed time until all finish (min)",
                                                            format=",.0f"),
    np.arange(1.0, 9.0), concurrency_curves, (ENGINES, THREADS), live_params=(FIXED,),
    published=_concurrency_points(),
    subtitle=f"T = fixed + runs x CPU work / min(engines, threads x runs): {C['fixed']:.2f} min + "
             f"{C['work']:.1f} engine-minutes per run.")

# --- 7. query cost: built-in functions against UDFs (a reconstruction) -------------------------------------------


def query_curves(invocations, s: cal.Scenario):
    """CPU and elapsed cut of a BiF over a UDF (%), and the zIIP share of the BiF query (%)."""
    return {"CPU cut (BiF vs UDF)": 100 * model.query_cut(invocations, s.udf_overhead, s.other_work),
            "elapsed cut (BiF vs UDF)": 100 * model.query_cut(invocations, s.udf_overhead + s.udf_wait, s.other_work),
            "zIIP share of a BiF query": 100 * model.ziip_share(invocations, s.other_work)}


def _query_marks() -> pd.DataFrame:
    # the listings (b_queries.csv, lines 20545 and 20751) are not a table of cells: cited by the query's name
    appendix = study_document(pub.STUDY) + ", Appendix B, query {q}"
    return pd.DataFrame([
        {"x": 1.0, "label": "T00SIMX, T01ANAX: one call", "source": appendix.format(q="T00SIMX")
         + "; " + pub.cite_prose("similarity_ziip", "t00simx_invocations_count", "6.2.2")},
        {"x": 4.0, "label": "T04SIMX: four calls", "source": appendix.format(q="T04SIMX")}])


QUERY_COST = _figure(
    "query_cost", "Built-in functions against UDFs, and the zIIP share of a query",
    Axis("calls", "AI function calls per query", format=".0f"), Axis("pct", "Percent", format=".0f"),
    np.arange(1.0, 9.0), query_curves, (OVERHEAD, OTHER), live_params=(WAIT,), reconstruction=True,
    marks=_query_marks(),
    subtitle="Set to reach the quoted bounds: CPU cut up to 86%, elapsed cut up to 89%, zIIP share up to 98%.")

ALL = (TEXT_ROWS, TEXT_COLUMNS, COST_ROWS, COST_COLUMNS, RESOURCES_ROWS, RESOURCES_COLUMNS, MODEL_SIZE, MODEL_COLUMNS,
       VOCABULARY, CONCURRENCY, QUERY_COST)
