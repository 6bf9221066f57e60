"""The chapter dashboard served by Voila on loopback: it renders, and a slider move redraws it."""
from __future__ import annotations

from pathlib import Path

import pytest

from tools.site import ROOT, RequestLog, browser, voila
from widgets.studies import study

pytestmark = [pytest.mark.voila, pytest.mark.browser]
DASHBOARDS = sorted((ROOT / "dashboards").glob("*.ipynb"))  # every study's (test_studies checks each has one)
#: Voila's page template links FontAwesome from a CDN (cosmetic icons; offline it just fails).
VOILA_CDN = ("cdn.jsdelivr.net/npm/@fortawesome/",)
CHART = "() => { const e = document.querySelector('.db2book-chart-live'); return e ? e.innerHTML : ''; }"


@pytest.mark.parametrize("notebook", DASHBOARDS, ids=lambda p: p.stem)
def test_dashboard_renders_and_a_slider_updates_it(notebook: Path):
    with voila(notebook) as url, browser() as b:
        page = b.new_page()
        log = RequestLog(page)
        page.goto(url, wait_until="domcontentloaded", timeout=120_000)  # a loaded machine renders slowly
        page.wait_for_selector(".db2book-chart-live svg", timeout=90_000)
        assert page.query_selector_all(".db2book-chart-live svg"), "no chart drawn"
        assert page.inner_text(".db2book-readout").strip(), "the readout is empty"
        # the first tab (sync reads) is open; its sliders are the visible ones
        # (a study's own tools, in .db2book-tools after the charts, have controls of their own)
        figures_only = "e => !e.closest('.db2book-tools')"
        visible = ".db2book-explorer .widget-slider:visible"
        labels = [e.inner_text().strip() for e in page.query_selector_all(f"{visible} .widget-label")
                  if e.evaluate(figures_only)]
        boxes = ".db2book-explorer .db2book-number:visible input"
        readouts = [e for e in page.query_selector_all(boxes) if e.evaluate(figures_only)][:len(labels)]
        assert labels and len(labels) == len(readouts)
        # the dashboard opens at the calibrated setting, not at a value the slider snapped to
        params = {p.title: p for fig in study(notebook.stem).figures().values() for p in fig.all_params}
        for label, box in zip(labels, readouts):
            shown = float(box.input_value().replace(",", ""))
            assert shown == pytest.approx(params[label].default, rel=1e-4), (label, shown)
        # the first visible slider belongs to the first (visible) chart; move it to two other values
        p, box = params[labels[0]], readouts[0]
        targets = [p.default + 2 * p.step if p.default + 2 * p.step <= p.max else p.default - 2 * p.step, p.default]
        for value in (f"{t:g}" for t in targets):
            before = page.evaluate(CHART)
            box.click()
            page.keyboard.press("Control+A")
            page.keyboard.type(value)
            page.keyboard.press("Enter")
            page.wait_for_function(f"(b) => ({CHART})() !== b", arg=before, timeout=20_000)
            assert float(box.input_value().replace(",", "")) == float(value)
        # a student's bad entry: a short message by the box, the chart keeps its last good state
        message = "(box) => box.closest('.db2book-number').querySelector('.db2book-input-message').innerText"
        for bad, says in (("abc", "not a number"), ("nan", "finite"), (f"{-abs(p.max) - 1:g}", "out of range"),
                          (f"{p.max * 10 + 1:g}", "out of range"), (f"{p.default:g}", "")):
            before = page.evaluate(CHART)
            box.click()
            page.keyboard.press("Control+A")
            page.keyboard.type(bad)
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"([box, says]) => {{ const t = ({message})(box); return says ? t.includes(says) : t.trim() === ''; }}",
                arg=[box, says], timeout=20_000)
            text = box.evaluate(message)
            assert not says or (p.label in text and "enter" in text), text
            page.wait_for_timeout(300)
            assert page.evaluate(CHART) == before, f"the chart changed after {bad!r}"
        assert "Traceback" not in page.inner_text("body")
        outside = [u for u in log.outside() if not any(k in u for k in VOILA_CDN)]
        assert not outside, outside
        errors = [e for e in log.errors() if "ERR_NAME_NOT_RESOLVED" not in e]
        assert not errors, errors
