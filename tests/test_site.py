"""The built site in a real browser (Debian's Chromium via Playwright), served on 127.0.0.1.

On every page: no console error, no request off the loopback,
every chart drawn; and moving each slider redraws the chart with the Python model's numbers.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from tools.audit_pages import click_every_control
from tools.site import JS_MODEL_MARKS, SITE, browser, open_page, serve
from widgets.figure import SIGNIFICANT_DIGITS
from widgets.numbers import on_grid
from widgets.studies import NOTES, STUDIES, all_figures

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")]
CHAPTERS = {s.page_path: s.slug for s in STUDIES + NOTES}  # page with figures -> study or note
FIGURES = all_figures(notes=True)  # "<study>.<figure>" -> Figure
PAGES = ["index", "book/intro", "book/how_to_use", "book/glossary", *CHAPTERS, "book/fidelity",
         "book/teachers_guide", "book/references", "search", "genindex"]
RTOL = 2 * 10 ** (1 - SIGNIFICANT_DIGITS)


@pytest.fixture(scope="module")
def site():
    with serve() as base, browser() as b:
        yield base, b


def _open(site, page_name):
    base, b = site
    _, page, log = open_page(b, f"{base}/{page_name}.html", timeout_ms=20_000)
    return page, log


@pytest.mark.parametrize("page_name", PAGES)
def test_page_is_clean_and_offline(site, page_name):
    page, log = _open(site, page_name)
    try:
        assert not log.outside(), f"requests left the loopback: {log.outside()}"
        assert not log.failed, f"failed requests: {log.failed}"
        assert not log.errors(), f"console errors: {log.errors()}"
        charts = page.query_selector_all(".db2book-chart")
        for chart in charts:
            assert chart.query_selector("svg"), "a chart did not draw"
            assert chart.query_selector("svg .mark-line, svg .mark-rect, svg .mark-symbol"), "chart has no marks"
        if page_name in CHAPTERS:
            assert len(charts) >= len([k for k in FIGURES if k.startswith(CHAPTERS[page_name] + ".")])
            assert page.query_selector("math"), "equations render as MathML"
        # a reader clicks: an "Exercise N" link in a solution's title, the solutions, tabs, the
        # "data" and code disclosures, the reset buttons; none may throw
        clicked = click_every_control(page, page.url.split("#")[0])
        assert not log.errors(), f"console errors after clicking {clicked} controls: {log.errors()}"
        if page_name in CHAPTERS:
            assert clicked, "a chapter has controls to click"
    finally:
        page.context.close()


def _model_lines(page) -> dict[str, dict[str, list[tuple[float, float]]]]:
    raw = page.evaluate(JS_MODEL_MARKS)
    out = {}
    for chart_id, items in raw.items():
        series = defaultdict(list)
        for d in items:
            series[d["series"]].append((d["x"], d["y"]))
        out[chart_id] = {k: sorted(v) for k, v in series.items()}
    return out


def _compare(fig, shown: dict[str, list[tuple[float, float]]], setting: dict[str, float]):
    expected = fig.evaluate(**setting)
    assert set(shown) == set(expected), (fig.key, set(shown), set(expected))
    x = np.asarray(fig.x_values, dtype=float)
    for series, points in shown.items():
        xs = np.array([p[0] for p in points])
        ys = np.array([p[1] for p in points])
        assert np.allclose(xs, x, rtol=1e-6), (fig.key, series)
        assert np.allclose(ys, expected[series], rtol=RTOL), (fig.key, series, setting)


@pytest.mark.parametrize("page_name", list(CHAPTERS))
def test_every_slider_moves_its_chart_to_the_models_values(site, page_name):
    page, log = _open(site, page_name)
    try:
        charts = page.query_selector_all(".db2book-chart[data-figure]")
        slider_charts = [c for c in charts if c.get_attribute("data-figure") in FIGURES]
        declared = sorted(k for k in FIGURES if k.startswith(CHAPTERS[page_name] + "."))
        assert sorted(c.get_attribute("data-figure") for c in slider_charts) == declared  # each figure, once
        for chart in slider_charts:
            fig = FIGURES[chart.get_attribute("data-figure")]
            chart_id = chart.get_attribute("id")
            # at the page's defaults, the chart shows the calibrated model
            _compare(fig, _model_lines(page)[chart_id], fig.defaults())
            # Vega may lay the bindings out in any order: find each slider by its label
            binds = {b.query_selector(".vega-bind-name").inner_text().strip(): b.query_selector("input[type=range]")
                     for b in chart.query_selector_all(".vega-bindings .vega-bind")}
            assert sorted(binds) == sorted(p.title for p in fig.params), (fig.key, list(binds))
            setting = fig.defaults()
            for param in fig.params:
                box = binds[param.title]
                grid = param.static_values()
                target = float(grid[1] if grid[0] == param.default else grid[0])
                before = _model_lines(page)[chart_id]
                box.fill(repr(target))
                setting[param.name] = target
                page.wait_for_function(
                    "([id, n]) => { const v = window.db2bookViews[id]; return Math.abs(v.signal(n) - %r) < 1e-9; }"
                    % target, arg=[chart_id, param.name], timeout=5000)
                page.wait_for_timeout(50)
                after = _model_lines(page)[chart_id]
                assert after != before, f"{fig.key}: moving {param.name} did not change the chart"
                _compare(fig, after, setting)
                # back to the default, so each slider is tested with the others at their defaults
                # (a slider may rightly do nothing at another's extreme, e.g. threads at 2 engines).
                # A calibrated default off the slider's steps can't be dragged back to: the chart
                # offers a reset button, which the reader (and this test) uses.
                reset = chart.query_selector("button.db2book-reset")
                if not on_grid(param.default, param.static_range()[0], param.static_step):
                    assert reset, f"{fig.key}: {param.name} opens off its slider's steps and offers no reset"
                    assert str(param.default).rstrip("0").rstrip(".") in reset.inner_text(), reset.inner_text()
                    reset.click()
                else:
                    box.fill(repr(float(param.default)))
                setting[param.name] = param.default
                page.wait_for_function(
                    "([id, n]) => { const v = window.db2bookViews[id]; return Math.abs(v.signal(n) - %r) < 1e-9; }"
                    % float(param.default), arg=[chart_id, param.name], timeout=5000)
        assert not log.errors(), log.errors()
    finally:
        page.context.close()
