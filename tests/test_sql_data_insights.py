"""SQL Data Insights: the models' arithmetic and physics, their clear errors, every figure's static
grid against the model, the ledger, the explorer, the dashboard, the query box and the planner."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from widgets.citations import reader_facing
from widgets.explorer import Explorer
from widgets.figure import SIGNIFICANT_DIGITS, grid_table, static_chart
from widgets.sql_data_insights import calibration, exercises, fidelity, miniature, model, planner
from widgets.sql_data_insights import figures as F
from widgets.sql_data_insights import published as pub
from widgets.studies import study
from widgets.sql_data_insights.explorer import Planner, QueryBox, dashboard, explorer

RTOL = 10 ** (1 - SIGNIFICANT_DIGITS)
counts = st.floats(min_value=1.0, max_value=1e10, allow_nan=False, allow_infinity=False)
shares = st.floats(min_value=0.0, max_value=1.0)
bad_counts = st.sampled_from([0.0, -1.0, -1e-9, math.nan, math.inf, -math.inf])


# --- the published data, as the models read it ---------------------------------------------------


def test_eleven_data_sets_with_the_corrected_view_4():
    d = pub.datasets()
    assert len(d) == 11 and set(d["family"].str[:9]) == {"Table 6-1", "Table 6-2", "Table 6-3"}
    assert d.loc["view_4", "words"] == 324_540_150 and d.loc["view_4", "words_printed"] == 342_540_150
    assert d.loc["table_1", "memory_mb"] == pytest.approx(4.74 * 1024)


def test_words_are_rows_times_columns_plus_one_everywhere_but_the_typo():
    d = pub.datasets()
    exact = d[d["family"] != "Table 6-1 (rows)"]
    assert (exact["rows"] * (exact["n_columns"] + 1) == exact["words"]).all()
    views = d[d["family"] == "Table 6-1 (rows)"]
    assert ((views["words"] / 30).round() / 1000).round().mul(1000).equals(views["rows"])
    assert abs(d.loc["view_4", "words_printed"] / 30 - d.loc["view_4", "rows"]) > 500_000


def test_table_1_measured_twice_gives_the_repeatability():
    twice = pub.table_1_twice().set_index("quantity")["spread"]
    assert twice["elapsed_min"] == pytest.approx(0.04 / 5.50) and twice["sqldi_cpu_min"] == pytest.approx(0.22 / 37.71)
    assert twice["db2_cpu_s"] == pytest.approx(0.467 / ((1.710 + 2.177) / 2))
    assert twice["memory_mb"] == pytest.approx(abs(5669 - 4.74 * 1024) / ((5669 + 4.74 * 1024) / 2))
    assert twice["sqldi_ziip_pct"] == 0


def test_the_repeat_is_one_configuration_and_view_1_is_a_reprint_not_a_repeat():
    """Table_1 of Table 6-3 and of Table 6-4 (the concurrency test's tables) print the same object and the same
    training outputs, so Table 6-5's single run repeats Table 6-3's; Table 6-3's VIEW_1 prints Table 6-1's CPU
    cells to every digit, so it is the same run printed twice, no spread."""
    from widgets.data import load_long, wide
    shapes, objects, views = (wide(load_long(pub.STUDY, f)) for f in (pub.SHAPES, "t6_4_concurrent_objects.csv",
                                                                       pub.ROWS))
    for metric in objects.columns:
        assert objects.loc["table_1", metric] == objects.loc["table_2", metric] == shapes.loc["table_1", metric]
    for metric in ("db2_cpu_s", "sqldi_cpu_min", "preprocess_elapsed_min", "train_load_elapsed_min",
                   "db2_ziip_eligible_pct", "sqldi_ziip_eligible_pct", "vocabulary_count", "words_count"):
        assert shapes.loc["view_1", metric] == views.loc["view_1", metric], metric


# --- models: valid inputs give finite, sensible results -----------------------------------------


@settings(max_examples=60, deadline=None)
@given(rows=counts, columns=st.floats(1, 500), b=st.floats(1, 100))
def test_text_is_proportional_to_words(rows, columns, b):
    w = model.words(rows, columns)
    assert w == pytest.approx(rows * (columns + 1))
    assert model.text_mb(2 * w, b) == pytest.approx(2 * model.text_mb(w, b))


@settings(max_examples=60, deadline=None)
@given(n0=st.floats(1e3, 1e8), factor=st.floats(1.0, 100.0), beta=st.floats(0.05, 1.0), r1=shares, r2=shares)
def test_more_repeats_never_more_vocabulary(n0, factor, beta, r1, r2):
    lo, hi = sorted([r1, r2])
    n = n0 * factor
    v_lo = model.vocabulary_with_repeats(n, n0, 2.0, beta, lo)
    v_hi = model.vocabulary_with_repeats(n, n0, 2.0, beta, hi)
    assert v_hi <= v_lo * (1 + 1e-12)
    assert model.vocabulary_with_repeats(n, n0, 2.0, beta, 1.0) == pytest.approx(model.heaps(n0, 2.0, beta))
    assert model.vocabulary_with_repeats(n, n0, 2.0, beta, 0.0) == pytest.approx(model.heaps(n, 2.0, beta))


def test_the_repeat_share_solves_view_5_exactly():
    h = calibration.heaps_calibration()
    d = pub.datasets()
    share = model.repeat_share_for(h["base_rows"], d.loc["view_5", "rows"], d.loc["view_5", "vocabulary"],
                                   h["k"], h["beta"])
    v5 = model.vocabulary_with_repeats(d.loc["view_5", "rows"], h["base_rows"], h["k"], h["beta"], share)
    assert v5 == pytest.approx(d.loc["view_5", "vocabulary"])
    assert 0.9 < h["repeat_share"] < 0.95 and abs(h["repeat_share"] - share) < 0.001
    ratios = fidelity.vocabulary_ratios()
    assert ratios["rows_x"] == pytest.approx(4.24, abs=0.005) and ratios["vocabulary_growth"] == pytest.approx(0.08,
                                                                                                              abs=0.001)


@settings(max_examples=60, deadline=None)
@given(runs=st.integers(1, 50), engines=st.floats(1, 64), threads=st.integers(1, 64), fixed=st.floats(0, 30))
def test_together_is_never_slower_than_back_to_back(runs, engines, threads, fixed):
    args = (fixed, 24.8, engines, threads)
    together = model.concurrent_elapsed(runs, *args)
    apart = model.sequential_elapsed(runs, *args)
    assert np.isfinite(together) and together <= apart * (1 + 1e-12)


def test_concurrency_fit_goes_through_table_6_5():
    c = calibration.concurrency_calibration()
    assert c["fixed"] == pytest.approx(2.42) and c["work"] == pytest.approx(24.8)
    assert float(model.concurrency_saving(2, c["fixed"], c["work"], 8, 8)) == pytest.approx(1 - 8.62 / 11.04)
    # with twice the engines and enough threads, two runs cost no more than one
    assert model.concurrent_elapsed(2, c["fixed"], c["work"], 16, 8) == pytest.approx(5.52)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 100), o=st.floats(0, 50), s=st.floats(0, 50))
def test_query_cut_is_bounded_by_the_overhead(n, o, s):
    cut = float(model.query_cut(n, o, s))
    assert 0 <= cut <= o / (1 + o) + 1e-12
    assert 0 < float(model.ziip_share(n, s)) <= 1


def test_query_defaults_reach_the_quoted_bounds():
    q = calibration.query_defaults()
    assert q["udf_overhead"] / (1 + q["udf_overhead"]) >= 0.86
    total = q["udf_overhead"] + q["udf_wait"]
    assert total / (1 + total) >= 0.89
    assert float(model.ziip_share(4, q["other_work"])) >= 0.98


def test_the_rule_of_thumb_example_is_exact():
    assert float(model.vocabulary_rule(5, 272_273)) == 272_373
    assert float(model.rule_of_thumb_mb(5, 272_273)) * 1e6 == pytest.approx(898_830_900)
    assert 3286.5 < calibration.vector_fit() < 3287.5


# --- every public model function, driven with random valid and invalid arrays -------------------

# The public model functions' property tests (valid -> finite, invalid -> named) are in test_models.py.


# --- models: bad input is refused, naming the parameter and the range ----------------------------


@pytest.mark.parametrize("call,match", [
    (lambda: model.words(0, 29), r"rows=0\b.*\[1, inf\)"),
    (lambda: model.words(-10, 29), "rows="),
    (lambda: model.words(1000, 0), r"columns=0\b.*\[1, inf\)"),
    (lambda: model.columns_total(0, 0), r"numeric_columns \+ categorical_columns = 0 .*\[1, inf\)"),
    (lambda: model.columns_total(-1, 5), "numeric_columns="),
    (lambda: model.text_mb(1e6, 0), "bytes_per_word="),
    (lambda: model.concurrent_elapsed(2, 2.4, 24.8, 8, 0), r"threads=0\b.*\[1, 1024\]"),
    (lambda: model.concurrent_elapsed(2, 2.4, 24.8, 0, 8), r"engines=0\b"),
    (lambda: model.concurrent_elapsed(0, 2.4, 24.8, 8, 8), r"runs=0\b"),
    (lambda: model.concurrency_fit(5.52, 8.62, 16, 8), "cannot be told apart"),
    (lambda: model.vocabulary_with_repeats(1e6, 1e5, 2, 0.8, 1.5), r"repeat_share=1.5 .*\[0, 1\]"),
    (lambda: model.heaps(1e6, 2, 1.5), r"beta=1.5"),
    (lambda: model.query_cut(0, 6, 0.1), r"invocations=0\b"),
    (lambda: model.plan(0, 5, 5, 100, planner.calibration()), r"rows=0\b"),
    (lambda: model.plan(1e6, 0, 0, 100, planner.calibration()), "at least one column"),
    (lambda: model.plan(1e6, 2, 3, -5, planner.calibration()), "distinct_values="),
    (lambda: model.plan(10, 2, 3, 1e6, planner.calibration()), r"distinct_values=1e\+06 is out of range"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@settings(max_examples=30, deadline=None)
@given(bad=bad_counts)
def test_bad_rows_columns_and_threads_are_refused(bad):
    for call in (lambda: model.words(bad, 10), lambda: model.words(1e6, bad),
                 lambda: model.concurrent_elapsed(2, 2.4, 24.8, 8, bad)):
        with pytest.raises(ValueError):
            call()


# --- the capacity planner -------------------------------------------------------------------------


def test_the_planner_brackets_every_published_training_run():
    cal = planner.calibration()
    d = pub.datasets()
    for name, row in d.iterrows():
        clusters = row["numeric"] * model.CLUSTERS_PER_NUMERIC_COLUMN
        p = model.plan(row["rows"], row["numeric"], row["categorical"], max(row["vocabulary"] - clusters, 0), cal)
        for quantity in ("elapsed_min", "sqldi_cpu_min", "memory_mb"):
            lo, _, hi = p[quantity]
            assert lo * (1 - 1e-9) <= row[quantity] <= hi * (1 + 1e-9) * 1.002, (name, quantity)


def test_plan_tables_are_finite():
    table = planner.plan_table(1e7, 5, 15, 1e6)
    assert np.isfinite(table[["low", "central", "high"]].to_numpy(dtype=float)).all()
    assert (table["low"] <= table["central"]).all() and (table["central"] <= table["high"]).all()
    examples = planner.plan_examples()
    # every range reads low - central - high, rising, and never shows nan
    for column in ("elapsed (min)", "SQL DI CPU (min)", "peak memory (GB)", "zFS (GB)", "model (GB)"):
        for cell in examples[column]:
            low, central, high = (float(x.replace(",", "")) for x in cell.split(" – "))
            assert low <= central <= high, (column, cell)


# --- the figures: static grid = the model, finite, small ------------------------------------------


@pytest.mark.parametrize("fig", F.ALL, ids=lambda f: f.key)
def test_static_grid_is_the_model_at_every_slider_setting(fig):
    table = grid_table(fig)
    names = [p.name for p in fig.params]
    assert len(table) <= 2500
    assert np.isfinite(table.drop(columns=names + ["x"]).to_numpy(dtype=float)).all()
    for setting, block in table.groupby(names):
        setting = dict(zip(names, setting if isinstance(setting, tuple) else (setting,)))
        curves = fig.evaluate(**setting)
        for series, values in curves.items():
            assert np.allclose(block[series].to_numpy(), values, rtol=RTOL), (fig.key, setting, series)


@pytest.mark.parametrize("fig", F.ALL, ids=lambda f: f.key)
def test_static_chart_is_small_and_registered(fig):
    spec = static_chart(fig).to_dict()
    assert len(json.dumps(spec)) < 200 * 1024
    assert [p["name"] for p in spec["params"]] == [p.name for p in fig.params]
    assert study(fig.study).figure(fig.name) is fig  # found by name through the registry
    if fig.reconstruction:
        assert fig.marks["source"].map(reader_facing).all()
    else:
        pts = fig.published
        assert pts["source"].str.contains(r"(?:Table|Figure) [\d.-]+|§[\d.]+").all()
        assert pts["source"].map(reader_facing).all()
        assert np.isfinite(pts[["x", "y"]].to_numpy(dtype=float)).all()


@pytest.mark.parametrize("fig", F.ALL, ids=lambda f: f.key)
def test_live_sliders_sit_on_the_calibrated_defaults(fig):
    from widgets.numbers import live_step

    for p in fig.all_params:
        step = live_step(p)
        k = (p.default - p.min) / step
        assert abs(k - round(k)) < 1e-6, p.name


def test_the_query_figure_is_labelled_a_reconstruction():
    assert F.QUERY_COST.reconstruction and all(not f.reconstruction for f in F.ALL if f is not F.QUERY_COST)


# --- the ledger and the misses ---------------------------------------------------------------------


def test_every_ledger_row_passes_or_is_a_marked_miss():
    rows = fidelity.ledger_rows()
    assert len(rows) > 50
    failed = [r for r in rows if not r.ok]
    assert not failed, failed


def test_rows_cite_table_or_section_and_no_line():
    for r in fidelity.ledger_rows():
        assert any(k in r.source for k in ("Table", "Figure", "§", "Appendix")) and reader_facing(r.source), r.source


def test_every_data_set_is_a_row_and_every_view_is_also_held_out():
    rows = fidelity.ledger_rows()
    for quantity, label in fidelity.FITTED.items():
        mine = [r for r in rows if r.quantity == label]
        assert sum(r.role == "fitted" for r in mine) == 6, quantity  # Table 6-1
        assert sum(r.role == "predicted" and "leave-one-out" not in r.condition for r in mine) == 5, quantity
        assert sum("leave-one-out" in r.condition for r in mine) == 6, quantity


def test_the_single_cost_model_fits_poorly_and_says_so():
    missed = {m["condition"]: m for m in fidelity.misses()}
    assert any("all 11 data sets" in c for c in missed)
    view4 = [r for r in fidelity.ledger_rows()
             if r.quantity == "words in the training text" and "VIEW_4" in r.condition]
    assert len(view4) == 1 and view4[0].status == "known miss" and view4[0].published == 342_540_150
    errors = calibration.errors("sqldi_cpu_min")
    assert errors.abs().max() > 0.3  # a per-word cost from Table 6-1 misses other data sets badly


def test_tolerances_are_the_printed_rounding_or_the_repeat_spread_never_the_fit():
    """Every fitted quantity's row is held to its cell's printed rounding (plus its inputs'), or, for a quantity
    Table_1's two runs repeat, to their spread where it is wider, resolved and at most 25%; never to the fit's
    scatter. The rows within it are exactly those listed by hand; every other one is a known miss with a reason."""
    spreads = {q: fidelity.repeat_spread(q) for q in fidelity.FITTED}
    assert {q for q, v in spreads.items() if v is not None} == {"elapsed_min", "sqldi_cpu_min", "db2_cpu_s",
                                                                 "memory_mb"}  # zFS: 0.53 GB vs 540 MB, unresolved
    for quantity in fidelity.FITTED:
        for r in fidelity.fit_rows(quantity) + fidelity.held_out_rows(quantity):
            name = r.cell[2]
            rounding = fidelity.cell_tolerance(name, quantity)[0]
            assert rounding < 0.01, r  # the printed digits of a cell, far below any fit's scatter
            if r.basis == "spread":
                assert spreads[quantity] is not None  # never a spread for a quantity that was not repeated
                assert r.tolerance == pytest.approx(spreads[quantity]) and rounding < r.tolerance <= 0.25
                assert "Table 6-3" in r.basis_note and "Table 6-5" in r.basis_note
            else:
                assert r.basis == "rounding" and r.tolerance == pytest.approx(rounding), r
                assert spreads[quantity] is None or spreads[quantity] <= rounding
            kind = "held out" if "leave-one-out" in r.condition else r.role
            within = fidelity.WITHIN_ROUNDING if r.basis == "rounding" else fidelity.WITHIN_SPREAD
            assert r.passed == ((quantity, name, kind) in within), (quantity, name, kind)
            assert r.passed or len(r.miss) > 40, r


def test_two_runs_together_are_held_to_the_single_runs_repeat():
    rows = {r.quantity: r for r in fidelity.concurrency_rows() if r.quantity.endswith(", two runs together")}
    assert len(rows) == 3 and all(r.basis == "spread" for r in rows.values())
    assert {q for q, r in rows.items() if r.passed} == {"Db2 CPU (s), two runs together"}
    assert all(r.known_miss and "repeat" in r.miss for r in rows.values() if not r.passed)


def test_the_ziip_share_is_all_but_a_fixed_cp_part_per_run():
    c = calibration.ineligible_fit()
    assert 5 / 60 < c < 15 / 60  # about ten CPU seconds per run on general processors
    rows = [r for r in fidelity.ziip_rows()]
    # half a unit of each printed share: a tenth ("99.5%") or a whole point ("100%")
    assert all(r.unit == "points" and r.absolute == (0.05 if r.published % 1 else 0.5) for r in rows)
    assert sum(r.absolute == 0.5 for r in rows) == 3  # VIEW_4 to VIEW_6, printed "100%"
    assert all(r.passed for r in rows if r.role == "fitted")
    assert sum(r.passed for r in rows if r.role == "predicted") == 2  # the 30- and 60-column views


def test_the_query_bounds_are_rows_and_the_low_ends_miss():
    rows = {r.quantity: r for r in fidelity.query_rows()}
    assert len(rows) == 7 and all(r.absolute == 0.5 for r in rows.values())
    assert all(r.passed for r in rows.values() if r.role == "fitted")
    low = [r for q, r in rows.items() if "smallest" in q]
    assert len(low) == 2 and all(r.known_miss and r.model > r.published for r in low)


# --- the explorer, the dashboard, the query box, the planner -------------------------------------


def test_explorer_recomputes_and_reads_out():
    ex = explorer("vocabulary", "concurrency")
    before = ex.charts[1].value
    ex.sliders["engines"].value = 16
    assert ex.charts[1].value != before and ex.charts[1].value.startswith("<svg")
    assert "Two trainings of Table_1" in ex.info.value and "VIEW_5" in ex.info.value
    s = ex.sliders["threads"]
    s.value = -4
    assert s.value == s.min == 1


def test_dashboard_has_the_figures_in_tabs_and_both_tools():
    d = dashboard()
    assert isinstance(d, Explorer) and d.tabs is not None
    assert d.charts[0].value.startswith("<svg") and not d.charts[-1].value  # the open tab only
    assert "db2book-readout" in d.info.value
    query, planner = d.children[-1].children[0].children  # the tools, after the charts
    assert isinstance(query, QueryBox) and isinstance(planner, Planner)
    assert "<table" in query.result.value and "<table" in planner.result.value


def test_query_box_shows_the_out_of_vocabulary_message_not_a_traceback():
    box = QueryBox()
    shown = box.ask("similar region:Nort product")
    assert "not in the vocabulary" in shown and "region:North" in shown and "Traceback" not in shown
    box.text.value = "analogy region:North product:snow_boots region:South"
    assert "sandals" in box.result.value
    assert "unknown query" in box.ask("simlar region:North")


def test_planner_rejects_a_table_without_columns():
    p = Planner()
    p.numeric.value, p.categorical.value = 0, 0
    assert "at least one column" in p.result.value
    shown = p.result.value
    for typed in ("-5", "nan", "lots", "2e12"):  # a student's bad entry: a message by the box, nothing else moves
        p.rows.text.value = typed
        assert "Rows" in p.rows.error and "1 to 1,000,000,000,000" in p.rows.error, p.rows.error
        assert p.rows.value == 10_000_000 and p.result.value == shown
    with pytest.raises(ValueError, match="Rows"):
        p.rows.value = -5
    p.rows.text.value = "1"
    assert p.rows.error == "" and p.rows.value == 1
    p.categorical.value = 3
    assert "distinct_values=" in p.result.value  # a million values cannot fit in one row
    p.rows.value = 1e7
    assert "<table" in p.result.value


def test_the_miniature_examples_answer_as_planted():
    emb = miniature.enable_ai_query(miniature.make_table())
    examples = miniature.example_queries(emb)
    assert examples[-1][2]["token"].iloc[0] == "product:sandals"


def test_generators_are_seeded_and_checkable(capsys):
    assert len(exercises.KINDS) >= 6
    assert {exercises.problem(seed).kind for seed in range(60)} == set(exercises.KINDS)  # a seed reaches each kind
    for kind in exercises.KINDS:
        for seed in (0, 5, 9):
            p = exercises.problem(seed, kind)
            assert p == exercises.problem(seed, kind)
            assert all(np.isfinite(v) and abs(v) < 1e12 for v in p.answers.values())
            assert all(exercises.check(seed, kind, **p.answers).values())
            wrong = {k: v * 1.5 + 1 for k, v in p.answers.items()}
            assert not any(exercises.check(seed, kind, **wrong).values())
    assert exercises.main(["-s", "7", "-c"]) == 0
    assert "Answers" in capsys.readouterr().out
