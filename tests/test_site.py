"""The built site in a real browser (Debian's Chromium via Playwright), served on 127.0.0.1.

On every page: no console error, no request off the loopback,
every chart drawn; and moving each slider redraws the chart with the Python model's numbers.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from tools.site import JS_MODEL_MARKS, SITE, browser, open_page, serve
from widgets.figure import REGISTRY, SIGNIFICANT_DIGITS

import widgets.large_memory.figures  # noqa: F401  (registers the chapters' figures)
import widgets.system_recovery_boost.figures  # noqa: F401
import widgets.zhyperlink.figures  # noqa: F401
import widgets.fast_index_traversal.figures  # noqa: F401
import widgets.hit_ratio_dead.figures  # noqa: F401
import widgets.sql_data_insights.figures  # noqa: F401
import widgets.sap_banking.figures  # noqa: F401

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")]
CHAPTERS = {"chapters/large_memory": 8, "chapters/hit_ratio_dead": 5, "chapters/fast_index_traversal": 4, "chapters/zhyperlink": 6,
            "chapters/system_recovery_boost": 8,
            "chapters/sql_data_insights": 11, "chapters/sap_banking": 6}  # page -> slider figures
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
            assert len(charts) >= CHAPTERS[page_name]
            assert page.query_selector("math"), "equations render as MathML"
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
        slider_charts = [c for c in charts if c.get_attribute("data-figure") in REGISTRY]
        assert len(slider_charts) == CHAPTERS[page_name]
        for chart in slider_charts:
            fig = REGISTRY[chart.get_attribute("data-figure")]
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
                # The calibrated default need not be a round step of the slider, so set the signal.
                page.evaluate("([id, n, v]) => window.db2bookViews[id].signal(n, v).runAsync().then(() => true)",
                              [chart_id, param.name, float(param.default)])
                setting[param.name] = param.default
                page.wait_for_function(
                    "([id, n]) => { const v = window.db2bookViews[id]; return Math.abs(v.signal(n) - %r) < 1e-9; }"
                    % float(param.default), arg=[chart_id, param.name], timeout=5000)
        assert not log.errors(), log.errors()
    finally:
        page.context.close()
