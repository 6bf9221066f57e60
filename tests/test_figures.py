"""The figure pipeline: static grids equal the model, charts stay small, the explorer recomputes."""
from __future__ import annotations

import json

import numpy as np
import pytest

from widgets.citations import reader_facing
from widgets.explorer import Explorer
from widgets.figure import SIGNIFICANT_DIGITS, Axis, Figure, Param, grid_table, static_chart
from widgets.large_memory import figures as F
from widgets.large_memory.explorer import dashboard, explorer
from widgets.studies import all_figures

ALL_FIGURES = tuple(all_figures().values())  # every study's, through the registry

RTOL = 10 ** (1 - SIGNIFICANT_DIGITS)


@pytest.mark.parametrize("fig", ALL_FIGURES, ids=lambda f: f.key)
def test_static_grid_is_the_model_at_every_slider_setting(fig):
    table = grid_table(fig)
    names = [p.name for p in fig.params]
    for setting, block in table.groupby(names):
        setting = dict(zip(names, setting if isinstance(setting, tuple) else (setting,)))
        curves = fig.evaluate(**setting)
        for series, values in curves.items():
            assert np.allclose(block[series].to_numpy(), values, rtol=RTOL), (fig.key, setting, series)


@pytest.mark.parametrize("fig", ALL_FIGURES, ids=lambda f: f.key)
def test_static_chart_is_small_and_carries_its_sliders(fig):
    spec = static_chart(fig).to_dict()
    assert len(json.dumps(spec)) < 200 * 1024
    assert [p["name"] for p in spec["params"]] == [p.name for p in fig.params]
    for p, declared in zip(spec["params"], fig.params):
        assert p["value"] == pytest.approx(declared.default)
        assert declared.min <= p["bind"]["min"] and p["bind"]["max"] <= declared.max
    assert spec["usermeta"]["db2book"]["figure"] == fig.key


@pytest.mark.parametrize("fig", ALL_FIGURES, ids=lambda f: f.key)
def test_published_points_name_their_source(fig):
    if fig.reconstruction:  # no published data: the quoted times carry the sources instead
        assert fig.marks is None or fig.marks["source"].map(reader_facing).all(), list(fig.marks["source"])
        return
    pts = fig.published
    if pts is None:
        pytest.skip("a model-only figure (no published counterpart)")
    assert len(pts) > 0
    # a Redbook or brief cites its tables and figures; the slide deck its screens and slides
    assert pts["source"].str.contains(r"(?:Table|Figure) [\d.-]+|§[\d.]+|screen|[Ss]lide").all()
    assert pts["source"].map(reader_facing).all(), list(pts["source"])  # the document's coordinates, no line
    assert np.isfinite(pts[["x", "y"]].to_numpy(dtype=float)).all()


def test_a_model_that_returns_nan_is_refused():
    bad = Figure("test", "nan", "t", Axis("x", "x"), Axis("y", "y"), np.linspace(1, 2, 5),
                 lambda x, s: {"y": x * np.nan}, (Param("a", "a", "", 0, 1, 0.5, 0.1, 0.5),), scenario=dict)
    with pytest.raises(ValueError, match="non-finite"):
        grid_table(bad)


def test_param_default_must_be_inside_its_range():
    with pytest.raises(ValueError, match="outside"):
        Param("a", "a", "", 0, 1, 2, 0.1, 0.5)


def test_explorer_recomputes_on_every_slider_move():
    ex = explorer("sync_reads")
    before = ex.charts[0].value
    ex.sliders["working_set_gb"].value = 800.0
    after = ex.charts[0].value
    assert before != after and after.startswith("<svg")
    assert "zEC12, whole chain" in ex.info.value


def test_explorer_sliders_cannot_leave_the_valid_range():
    ex = explorer("itr")
    s = ex.sliders["cpu_us_per_sync_read"]
    s.value = 1e9
    assert s.value == s.max == F.CPU_PER_READ.max
    s.value = -5
    assert s.value == s.min == 0


def test_dashboard_readout_follows_every_slider_it_shows():
    """The readout reads the whole calibration through scenario(): a workload, CPU, loop or exponent
    slider on any tab moves it (the readout once rebuilt the calibration by hand, slider by slider)."""
    d = dashboard()
    assert isinstance(d, Explorer) and d.tabs is not None
    for name in ("skew", "cpu_us_per_sync_read", "users", "exponent"):
        before = d.info.value
        p = d.params[name]
        # a tab's sliders are made when it is opened: open the first tab that shows this one
        d.tabs.selected_index = next(i for i, f in enumerate(d.figures) if name in [q.name for q in f.all_params])
        d.sliders[name].value = p.max if p.default < p.max else p.min
        assert d.info.value != before, f"the readout ignored {name}"
        d.sliders[name].value = p.default


def test_itr_bars_chart_compiles():
    import vl_convert

    svg = vl_convert.vegalite_to_svg(F.itr_bars().to_dict())
    assert "<svg" in svg and "+18%" in svg


def test_live_sliders_open_at_the_calibrated_defaults():
    ex = dashboard()
    for name, slider in ex.sliders.items():
        p = ex.params[name]
        assert slider.value == p.default
        k = (p.default - slider.min) / slider.step
        assert abs(k - round(k)) < 1e-6, f"{name}: default {p.default} is off the slider's grid"


def test_series_names_that_vega_would_misread_are_refused():
    bad = Figure("test", "dots", "t", Axis("x", "x"), Axis("y", "y"), np.linspace(1, 2, 5),
                 lambda x, s: {"7.5 reads": x}, (Param("a", "a", "", 0, 1, 0.5, 0.1, 0.5),), scenario=dict)
    with pytest.raises(ValueError, match="rename them"):
        grid_table(bad)


@pytest.mark.parametrize("name", ["background", "width", "height", "padding", "autosize", "cursor", "datum"])
def test_a_param_named_like_a_vega_builtin_signal_is_refused(name):
    # a slider param named `background` set the chart's background colour: the chart went black
    with pytest.raises(ValueError, match=f"Param name '{name}' shadows a Vega built-in signal"):
        Param(name, "a", "", 0, 1, 0.5, 0.1, 0.5)


@pytest.mark.parametrize("fig", ALL_FIGURES, ids=lambda f: f.key)
def test_static_sliders_sit_on_round_values_and_the_calibrated_default(fig):
    """The page's slider snaps to first + k x step: its grid is exactly those positions, and the page
    opens at one of them (tests/test_sliders.py checks the positions are round, for every slider)."""
    spec = static_chart(fig).to_dict()
    for p in fig.params:
        values = p.static_values()
        assert p.default in values, (fig.key, p.name)  # the page opens at a position the reader can drag back to
        first, last = p.static_range()
        k = (values - first) / p.static_step
        assert np.allclose(k, np.arange(len(values)), atol=1e-6), (fig.key, p.name, values)
        bind = next(q["bind"] for q in spec["params"] if q["name"] == p.name)
        assert bind["min"] == first and bind["max"] == last and bind["step"] == p.static_step


def test_the_exponent_an_exercise_names_is_on_the_static_slider():
    # chapter 1 asks the reader to "set the exponent to 1"
    assert 1.0 in F.EXPONENT.static_values()
