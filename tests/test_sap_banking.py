"""The SAP Banking chapter: models, calibration, ledger rows, figures, explorer and exercises."""
from __future__ import annotations

import dataclasses

import math

import numpy as np
import pytest

import test_figures as shared_figure_tests
from widgets import ledger
from widgets.figure import grid_table
from widgets.studies import study
from widgets.sap_banking import calibration as cal
from widgets.sap_banking import exercises, fidelity, model
from widgets.sap_banking import figures as F
from widgets.sap_banking import published as pub
from widgets.sap_banking.explorer import dashboard, explorer

RUNS = pub.posting_runs()


# --- the model: bad input names the parameter and its range -----------------------------------------------


@pytest.mark.parametrize("call, says", [
    (lambda: model.usl(0, 56, 0.02, 0), "processors"),
    (lambda: model.usl(np.array([2, np.nan]), 56, 0.02, 0), "processors"),
    (lambda: model.usl(4, -1, 0.02, 0), "lam"),
    (lambda: model.usl(4, 56, 1.5, 0), "sigma"),
    (lambda: model.usl(4, 56, 0.02, -1e-4), "kappa"),
    (lambda: model.itr(100, 0), "cpu_busy"),
    (lambda: model.itr(100, 85), "cpu_busy"),  # percent where a fraction is meant
    (lambda: model.itr(-1, 0.8), "etr"),
    (lambda: model.postings_per_hour(float("nan")), "ds_per_s"),
    (lambda: model.littles_law(100, -1), "response_s"),
    (lambda: model.cf_busy_pct(100, 0.02, 0), "capacity"),
    (lambda: model.balancing_etr(150e6, 0), "longest_job_s"),
    (lambda: model.processors_for(4000, 56.4, 0.0177), "target"),  # above Amdahl's ceiling
    (lambda: model.itrr(100, 0), "itr_reference"),
    (lambda: model.rate_per_step("many", 10), "rate"),
])
def test_bad_input_names_the_parameter_and_range(call, says):
    with pytest.raises(ValueError, match=says) as err:
        call()
    assert "valid range" in str(err.value) or "must be" in str(err.value)


def test_usl_is_amdahl_at_zero_kappa_and_peaks_where_it_says():
    p = np.arange(1.0, 200.0)
    assert np.allclose(model.usl(p, 50, 0.02, 0), model.amdahl(p, 50, 0.02))
    x = model.usl(p, 50, 0.02, 1e-4)
    assert p[np.argmax(x)] == pytest.approx(model.usl_peak_processors(0.02, 1e-4), abs=1)
    assert model.usl_peak_processors(0.02, 0) == math.inf
    assert model.amdahl(1e9, 50, 0.02) == pytest.approx(model.amdahl_ceiling(50, 0.02), rel=1e-6)


def test_processors_for_inverts_amdahl():
    p = model.processors_for(1500.0, 56.4, 0.0177)
    assert model.amdahl(p, 56.4, 0.0177) == pytest.approx(1500.0)


# --- the identities, from the printed cells ----------------------------------------------------------------


def test_postings_per_hour_is_the_printed_etr_row():
    # 93.53 DS/s x 3600 x 175 / 15 = 3,928,260 exactly (Table 3, 2 CP)
    assert model.postings_per_hour(93.53) == pytest.approx(3_928_260, abs=1e-6)
    assert np.allclose(model.postings_per_hour(RUNS["etr_ds_per_s"]), RUNS["etr_postings_per_hour"], rtol=1e-9)


def test_db_itr_is_etr_over_cpu_busy():
    itr = model.itr(RUNS["etr_ds_per_s"].to_numpy(), RUNS["cpu_util_pct"].to_numpy() / 100)
    assert np.allclose(itr, RUNS["itr_ds_per_s"], rtol=1e-4)
    assert not np.allclose(RUNS["etr_ds_per_s"], RUNS["itr_ds_per_s"], rtol=0.1)  # the check can fail


def test_identity_rows_hold_and_would_catch_a_wrong_formula():
    rows = fidelity.identity_rows()
    assert len(rows) == 46 and all(r.role == "identity" and r.passed and r.basis == "rounding" for r in rows)
    c = fidelity._c(fidelity.T3, "S10722V4", "etr_postings_per_hour")
    wrong = fidelity.formula_row("x", "y", c, [fidelity._c(fidelity.T3, "S10722V4", "etr_ds_per_s")],
                                 lambda x: x * 3600 * 175 / 16, "S10722V4")  # 16 steps per cycle: wrong
    assert not wrong.passed


def test_the_jobs_spread_is_judged_as_the_interval_its_bound_allows():
    """"less than 1%" is the interval 0% to 1%: Table 4's 0.61% passes, a deviation past 1% would not."""
    row = fidelity.spread_row("S10712V1", "s9_2_balancing")
    assert row.passed and row.model == pytest.approx(100 * (242.07 / 240.60 - 1), abs=1e-9)
    assert row.published - row.absolute == 0 and row.published + row.absolute == pytest.approx(1.0)
    assert not dataclasses.replace(row, model=1.01, tolerance=None).passed


# --- the fits ----------------------------------------------------------------------------------------------


def test_the_fitted_terms():
    fit = cal.usl_fit()
    assert fit.lam == pytest.approx(56.39, abs=0.05)
    assert fit.sigma == pytest.approx(0.01769, abs=5e-5)
    assert fit.kappa == pytest.approx(0.0, abs=1e-12)  # relative least squares lands on the bound
    amd = cal.amdahl_fit()
    assert amd.lam == pytest.approx(fit.lam, rel=1e-5) and amd.sigma == pytest.approx(fit.sigma, rel=1e-5)
    absolute = cal.usl_absolute_fit()
    assert absolute.kappa > 1e-5  # weighting the big runs finds a coherency term: six points cannot decide
    assert 100 < model.usl_peak_processors(absolute.sigma, absolute.kappa) < 250


def test_per_processor_itr_falls_from_56_to_28():
    per = (RUNS["itr_ds_per_s"] / RUNS["processors"]).to_numpy()
    assert per[0] == pytest.approx(56.1, abs=0.1) and per[-1] == pytest.approx(27.7, abs=0.1)


def test_leave_one_out_really_leaves_the_run_out():
    p = RUNS["processors"].to_numpy(dtype=float)
    x = RUNS["itr_ds_per_s"].to_numpy()
    for i, (run, cps, fit, predicted) in enumerate(cal.leave_one_out("usl")):
        assert run == RUNS["run_id"].iloc[i]
        moved = x.copy()
        moved[i] *= 1.5  # the held-out run's value cannot change its own prediction...
        keep = np.arange(len(p)) != i
        assert cal.fit_usl(p[keep], moved[keep]).itr(cps) == pytest.approx(predicted, rel=1e-6)
        # ...while refitting with it moves the curve there
        assert cal.fit_usl(p, moved).itr(cps) != pytest.approx(cal.usl_fit().itr(cps), rel=1e-3)


def test_cf_costs_are_per_structure_and_leave_one_out():
    lock, gbp = cal.cf_cost("cf2_util_pct"), cal.cf_cost("cf1_util_pct")
    assert lock > gbp > 0  # the lock structures' CF is the busier one, as the brief says
    for run, cost, predicted in cal.cf_leave_one_out("cf2_util_pct"):
        etr = RUNS.set_index("run_id").loc[run, "etr_ds_per_s"]
        assert predicted == pytest.approx(cost * etr)
    with pytest.raises(ValueError, match="structure"):
        cal.cf_cost("cf3_util_pct")


def test_littles_law_points_and_the_work_process_rate():
    n = cal.in_system()
    assert n[-1] == pytest.approx(1408.24 * 2.134)
    assert 1.1 < cal.etr_per_work_process() < 1.5


def test_scenario_is_the_one_map_and_refuses_unknown_names():
    s = cal.scenario({})
    assert s.scaling.sigma == pytest.approx(cal.usl_fit().sigma, rel=1e-4)
    assert cal.scenario({"sigma": 0.03}).scaling.sigma == 0.03
    with pytest.raises(ValueError, match="no field named 'sigmaa'; the fields are .*kappa_e4"):
        cal.scenario({"sigmaa": 0.03})
    assert set(cal.defaults()) == {f.name for f in dataclasses.fields(cal.Sliders)}  # one list of slider names
    with pytest.raises(ValueError, match="sigma"):
        cal.scenario({"sigma": 2.0})
    with pytest.raises(ValueError, match="cf_capacity"):
        cal.scenario({"cf_capacity": 0.0})


# --- the ledger ----------------------------------------------------------------------------------------------


def test_the_readout_declares_what_passes_through():
    """The readout hands every slider value to scenario(): a name that is no scenario input is an error,
    never silently dropped."""
    from widgets.sap_banking import explorer, figures

    sliders = {p.name for fig in figures.ALL for p in fig.all_params}
    assert sliders <= set(cal.defaults())
    text = explorer._readout({name: cal.defaults()[name] for name in sliders})
    assert "processors" in text and "nan" not in text.lower()
    with pytest.raises(ValueError, match="no field named 'typo'"):
        explorer._readout({**cal.defaults(), "typo": 1.0})


def test_ledger_roles_and_misses():
    rows = fidelity.ledger_rows()
    roles = {role: sum(r.role == role for r in rows) for role in ledger.ROLES}
    assert roles == {"predicted": 18, "fitted": 6, "identity": 46}
    assert all(r.ok for r in rows)
    # judged to the printed digits (the brief prints one run per configuration): every scaling-law row misses,
    # and every held-out CF row but CF1 at 4 processors, 0.01 point off
    passing = [(r.quantity.split(" ")[0], r.condition.split(",")[0]) for r in rows if r.role != "identity" and r.passed]
    assert passing == [("CF1", "2WDS 4CP (S10722V3)")]
    assert all(r.basis == "rounding" for r in rows)
    assert all((r.unit == "points") == r.quantity.startswith("CF") for r in rows if r.role != "identity")
    assert len(ledger.rows("sap_banking")) == len(rows)  # the book's ledger reads the study through widgets.studies


# --- figures and explorer --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fig", F.ALL, ids=lambda f: f.key)
def test_every_figure_is_finite_over_its_whole_grid_and_matches_the_model(fig):
    assert study("sap_banking").figure(fig.name) is fig  # found by name through the registry
    table = grid_table(fig)  # raises on a non-finite value anywhere on the grid
    assert len(table) > len(fig.x_values)
    shared_figure_tests.test_static_grid_is_the_model_at_every_slider_setting(fig)
    shared_figure_tests.test_static_chart_is_small_and_carries_its_sliders(fig)
    shared_figure_tests.test_published_points_name_their_source(fig)
    shared_figure_tests.test_static_sliders_sit_on_round_values_and_the_calibrated_default(fig)


@pytest.mark.parametrize("fig", F.ALL, ids=lambda f: f.key)
def test_both_directions_of_every_slider_change_the_figure(fig):
    base = fig.evaluate()
    for p in fig.params:
        values = p.static_values()
        for other in (values.min(), values.max()):
            if other == p.default:
                continue
            moved = fig.evaluate(**{p.name: other})
            assert any(not np.allclose(moved[k], base[k]) for k in base), (fig.key, p.name, other)


def test_the_scaling_figure_reaches_beyond_the_measured_range_and_says_so():
    assert F.ITR.x_values.max() >= 120 and F.PER_PROCESSOR.x_values.max() >= 120
    assert "extrapolation" in F.ITR.marks["label"].iloc[0] and "extrapolation" in F.ITR.subtitle
    assert F.PROCESSORS.max >= 120


def test_explorer_opens_every_figure_by_name_and_recomputes():
    for fig in F.ALL:
        ex = explorer(fig.name)
        assert ex.charts[0].value.startswith("<svg") and not ex.status.value, fig.name
    ex = explorer("itr")
    before = ex.charts[0].value
    ex.sliders["kappa_e4"].value = 1.0
    assert ex.charts[0].value != before
    ex.sliders["processors"].value = 100
    assert "extrapolation" in ex.info.value and "NaN" not in ex.info.value
    d = dashboard()  # only the open tab is drawn; opening another draws it
    assert d.charts[0].value.startswith("<svg") and not d.charts[-1].value
    d.tabs.selected_index = len(d.charts) - 1
    assert d.charts[-1].value.startswith("<svg")
    with pytest.raises(ValueError, match="itr"):
        explorer("no_such_figure")


# --- exercises ------------------------------------------------------------------------------------------------


def test_exercises_are_seeded_and_their_solutions_check(capsys):
    for seed in range(12):
        a, b = exercises.problem(seed), exercises.problem(seed)
        assert a == b
        assert all(np.isfinite(v) for v in a.answers.values())
        assert all(exercises.check(seed, **a.answers).values())
        wrong = {k: v * 1.1 + 1 for k, v in a.answers.items()}
        assert not any(exercises.check(seed, **wrong).values())
    assert {exercises.problem(s).kind for s in range(40)} == set(exercises.KINDS)
    assert exercises.problem(1).text != exercises.problem(2).text
