"""System Recovery Boost: the data's own arithmetic, the models' physics, and their clear errors."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from widgets.data import load_long, wide
from widgets.system_recovery_boost import calibration, fidelity, model
from widgets.system_recovery_boost import published as pub
from widgets.system_recovery_boost.explorer import dashboard, explorer

STUDY = "system_recovery_boost"


@pytest.mark.parametrize("filename", [pub.UNPLANNED, pub.PLANNED])
def test_phases_add_up_or_the_total_is_flagged(filename):
    long = load_long(STUDY, filename)
    table = wide(long)
    for run in ("no_boost", "boost"):
        total = sum(table.loc[run, ph] for ph in pub.PHASES)
        printed = table.loc[run, "db2_restart_s"]
        flag = long[(long.run_id == run) & (long.metric == "db2_restart_s")]["flag"].iloc[0]
        if abs(total - printed) > 0.005:
            assert flag == "contradiction", f"{filename} {run}: phases {total:.2f} vs printed {printed}"
        assert abs(total - printed) <= 0.02  # never more than the rounding of four phases


@pytest.mark.parametrize("filename", [pub.UNPLANNED, pub.PLANNED])
def test_delta_is_boost_minus_no_boost(filename):
    table = wide(load_long(STUDY, filename))
    for metric in table.columns:
        assert table.loc["delta", metric] == pytest.approx(table.loc["boost", metric] - table.loc["no_boost", metric],
                                                           abs=1e-9)


def test_the_known_rounding_flag_is_there():
    long = load_long(STUDY, pub.UNPLANNED)
    row = long[(long.run_id == "no_boost") & (long.metric == "db2_restart_s")].iloc[0]
    assert row.flag == "contradiction" and "258.29" in row.note


def test_amdahl_fits_are_exact_and_differ():
    s_e, p_e = calibration.amdahl_fit(calibration.ENGINES)
    s_z, p_z = calibration.amdahl_fit(calibration.ZIIPS)
    assert model.amdahl_time(4, s_e, p_e) == pytest.approx(244.34)
    assert model.amdahl_time(8, s_e, p_e) == pytest.approx(135.83)
    assert model.amdahl_time(6, s_z, p_z) == pytest.approx(135.83)
    assert s_e == pytest.approx(27.32, abs=0.01) and s_z == pytest.approx(81.575, abs=0.01)
    # the fully parallel forms: engines 10% off, zIIPs 40% off
    assert calibration.fully_parallel_prediction(calibration.ENGINES) / 135.83 - 1 == pytest.approx(-0.10, abs=0.01)
    assert calibration.fully_parallel_prediction(calibration.ZIIPS) / 135.83 - 1 == pytest.approx(-0.40, abs=0.01)


def test_at_least_eight_tasks():
    assert model.min_tasks_for_speedup(244.34 / 135.83, 4, 8) == 8
    with pytest.raises(ValueError, match="exceeds"):
        model.min_tasks_for_speedup(2.5, 4, 8)


def test_two_points_that_no_amdahl_curve_fits_are_refused():
    with pytest.raises(ValueError, match="non-negative parts"):
        model.amdahl_through_two_points(4, 100.0, 8, 40.0)  # faster than linear: negative serial part
    with pytest.raises(ValueError, match="must differ"):
        model.amdahl_through_two_points(4, 100.0, 4, 90.0)


@settings(max_examples=40, deadline=None)
@given(n1=st.floats(1, 64), n2=st.floats(1, 64), s=st.floats(0, 100), p=st.floats(0, 1e4))
def test_more_engines_never_slower(n1, n2, s, p):
    lo, hi = sorted([n1, n2])
    assert model.amdahl_time(hi, s, p) <= model.amdahl_time(lo, s, p) + 1e-9
    assert model.task_capped_time(hi, s, p, 8) <= model.task_capped_time(lo, s, p, 8) + 1e-9


def test_backlog_is_conserved_and_boost_never_hurts():
    o = model.Outage(contention=0.0)
    tl = model.backlog_timeline(o, 0.25)
    served = tl["etr"][:-1].sum() * 0.25
    arrived = o.arrival_ratio * (o.outage_min + tl["t_min"][-1])
    assert served + tl["backlog"][-1] == pytest.approx(arrived, rel=0.01)
    assert model.time_to_clear(o) == pytest.approx(o.db2_start_min + o.arrival_ratio * 30 / (2 - o.arrival_ratio),
                                                   abs=0.5)
    plain = model.Outage(contention=0.0, boost_engines=0.0)
    assert model.time_to_clear(o) <= model.time_to_clear(plain)


def test_the_contention_trap_never_clears_and_says_so():
    trap = model.Outage(boost_engines=0.0, contention=0.02)
    assert math.isinf(model.time_to_clear(trap))
    tl = model.backlog_timeline(trap)
    after = tl["etr"][tl["t_min"] > 20]
    assert np.all(np.diff(after) <= 1e-12), "ETR keeps dropping in the trap"
    assert np.all(np.isfinite(tl["wait_min"]))
    ex = explorer("backlog_etr")
    ex.sliders["boost_engines"].value = 0
    ex.sliders["contention"].value = 0.02
    assert "never cleared" in ex.info.value


@pytest.mark.parametrize("field,value,match", [
    ("boost_window_min", 90.0, r"boost_window_min=90(\.0)? .*\[0, 60\] min"),
    ("outage_min", -5.0, "outage_min"),
    ("arrival_ratio", 0.0, "arrival_ratio"),
    ("base_engines", 0.0, "base_engines"),
    ("contention", math.nan, "contention"),
])
def test_bad_scenarios_name_the_field(field, value, match):
    from dataclasses import replace

    with pytest.raises(ValueError, match=match):
        model.backlog_timeline(replace(model.Outage(), **{field: value}))


def test_zero_engines_are_refused():
    with pytest.raises(ValueError, match=r"engines="):
        model.amdahl_time(0, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"engines="):
        model.mva_closed_loop(np.array([10]), 1.0, 0.1, 0)


def test_mva_matches_known_cases():
    one = model.mva_closed_loop(np.array([1, 2, 3]), 0.0, 1.0, 1)
    assert np.allclose(one["response_s"], [1, 2, 3]) and np.allclose(one["throughput"], 1)
    solo = model.mva_closed_loop(np.array([1]), 5.0, 0.2, 4)
    assert solo["response_s"][0] == pytest.approx(0.2)
    big = model.mva_closed_loop(np.array([400]), 1.0, 0.04, 8)
    assert big["throughput"][0] <= 8 / 0.04 + 1e-9 and big["throughput"][0] > 0.95 * 8 / 0.04


def test_ledger_rows_pass_or_are_marked_misses():
    rows = fidelity.ledger_rows()
    assert len(rows) >= 12 and all(r.ok for r in rows)
    assert sum(r.role == "fitted" for r in rows) == 2  # two points, two parameters


def test_dashboard_draws_a_tab_when_it_is_opened():
    d = dashboard()
    assert d.tabs is not None
    assert d.charts[0].value.startswith("<svg") and not d.charts[4].value  # only the visible tab drawn
    d.tabs.selected_index = 4  # the backlog's utilisation (the figure a name lookup once missed)
    assert d.charts[4].value.startswith("<svg") and "figure-backlog_utilisation" in d.charts[4]._dom_classes


def test_scenario_takes_the_sliders_and_refuses_an_unknown_name():
    o = calibration.scenario({"outage_min": 45.0, "contention": 0.02, "tasks": 16})  # tasks: another figure's slider
    assert (o.outage_min, o.contention, o.arrival_ratio, o.tasks) == (45.0, 0.02, calibration.DEFAULT.arrival_ratio, 16)
    with pytest.raises(ValueError, match="outage_minutes.*outage_min"):
        calibration.scenario({"outage_minutes": 45.0})
