"""The Voila dashboard: first chart, and a slider move to the redrawn chart (bench/README.md, 4)."""
from __future__ import annotations

import contextlib
import time
from pathlib import Path

from tools.site import browser, voila

from bench.common import NO_GOAL, Rows, median


# --- 4. Voila --------------------------------------------------------------------------------

JS_FIRST_SVG = """
() => {
  if (document.querySelector('.db2book-explorer svg')) return performance.now();
  // a notebook that raised shows its traceback instead (checked at most every 200 ms: it is long)
  const now = performance.now();
  if (now - (window.__benchChecked || 0) < 200) return false;
  window.__benchChecked = now;
  const text = document.body ? document.body.textContent : '';
  if (!text.includes('Traceback (most recent call last)')) return false;
  const found = [...text.matchAll(/([A-Za-z_][\\w.]*(?:Error|Exception)): ([^\\n]{0,300})/g)];
  return 'ERROR ' + (found.length ? found[found.length - 1][0] : 'the notebook raised an exception');
}
"""

JS_ARM = """
() => {
  const svgs = () => document.querySelectorAll('.db2book-explorer svg');
  const readout = () => (document.querySelector('.db2book-explorer .db2book-readout') || {}).outerHTML || '';
  const st = window.__bench = {t0: null, tChart: null, tReadout: null,
                               chart0: svgs()[0].outerHTML, readout0: readout()};
  if (!window.__benchKeys) {  // one listener for all moves: the time of the Enter that commits
    window.__benchKeys = true;
    document.addEventListener('keydown', (e) => {
      const b = window.__bench;
      if (e.key === 'Enter' && b && b.t0 === null) b.t0 = performance.now();
    }, {capture: true});
  }
  const root = document.querySelector('.db2book-explorer');
  const obs = new MutationObserver(() => {
    if (st.t0 === null) return;
    const now = performance.now();
    if (st.tChart === null && svgs()[0] && svgs()[0].outerHTML !== st.chart0) st.tChart = now;
    if (st.tReadout === null && readout() !== st.readout0) st.tReadout = now;
    if (st.tChart !== null && st.tReadout !== null) obs.disconnect();
  });
  obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
}
"""


def _voila_slider_move(page, readout, value: float, timeout_ms: float = 30_000) -> float:
    page.evaluate(JS_ARM)
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(f"{value:g}")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__bench.tChart !== null", polling="raf", timeout=timeout_ms)
    st = page.evaluate("() => window.__bench")
    # let the rest of the update (the other charts, the readout table) finish before the next move
    with contextlib.suppress(Exception):
        page.wait_for_function("() => window.__bench.tReadout !== null", polling=50, timeout=timeout_ms)
    page.wait_for_timeout(150)
    return st["tChart"] - st["t0"]


def bench_voila(rows: Rows, b) -> None:
    n_start = "voila: server start (until it answers)"
    n_first = "voila: first render, cold (page opened as the server answers)"
    n_hot = "voila: first render, pre-heated kernel (page opened 15 s after start)"
    n_med = "voila: slider -> first chart updated, median of 10"
    n_max = "voila: slider -> first chart updated, max of 10"
    n_warm = "voila: first slider move after the dashboard appears (not in the median)"
    from widgets.large_memory import figures as F

    notebook = Path("dashboards/large_memory.ipynb")
    start = time.perf_counter()
    try:
        with voila(notebook) as url:
            rows.measured(n_start, time.perf_counter() - start, "s")
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                try:
                    page.goto(url, wait_until="commit", timeout=120_000)
                    first = page.wait_for_function(JS_FIRST_SVG, polling="raf", timeout=120_000).json_value()
                    if isinstance(first, str):
                        raise RuntimeError(f"the dashboard notebook failed in Voila: {first[6:]}")
                    rows.measured(n_first, float(first) / 1000, "s")
                except Exception as exc:  # noqa: BLE001
                    rows.failed(n_first, "s", NO_GOAL, exc)
                    raise
                # wait until the whole dashboard is drawn (every chart and the readout table)
                page.wait_for_function(
                    "() => document.querySelector('.db2book-explorer .figure-sync_reads svg')"
                    " && document.querySelector('.db2book-explorer .db2book-readout')", timeout=120_000)
                page.wait_for_timeout(1000)
                p = F.SYNC_READS.params[0]  # the first slider drives the first chart
                readout = page.locator(".db2book-explorer .db2book-number input").first  # the slider's number box
                label = page.locator(".db2book-explorer .widget-slider").first.inner_text()
                if p.label not in label:
                    raise RuntimeError(f"first slider is {label!r}, expected {p.label!r}")
                # two values on the slider's grid (min + k * step; the front end snaps to it)
                a = round(p.min + round((p.default - p.min) / p.step) * p.step, 10)
                other = round(a + 10 * p.step if a + 10 * p.step <= p.max else a - 10 * p.step, 10)
                note = f"{p.name} {other:g} <-> {a:g}, typed into the slider's number box + Enter"
                # the first move right after the dashboard appears also waits for the kernel to finish
                # its start-up work; it is reported on its own, outside the steady-state median
                warm = _voila_slider_move(page, readout, a + 5 * p.step if a + 5 * p.step <= p.max else a - 5 * p.step)
                rows.measured(n_warm, warm, "ms", note="1 s after the whole dashboard is drawn")
                times = [_voila_slider_move(page, readout, v) for v in [other, a] * 5]
                rows.measured(n_med, median(times), "ms", "<= 150 ms", note=note, samples=times)
                rows.measured(n_max, max(times), "ms", note=note)
            finally:
                ctx.close()
            # `make voila` pre-heats a kernel per notebook (dashboards/jupyter-config/voila.json): a
            # class opening the dashboard after the server has warmed up gets that kernel
            time.sleep(max(0.0, 15 - (time.perf_counter() - start)))
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                page.goto(url, wait_until="commit", timeout=120_000)
                hot = page.wait_for_function(JS_FIRST_SVG, polling="raf", timeout=120_000).json_value()
                if isinstance(hot, str):
                    raise RuntimeError(f"the dashboard notebook failed in Voila: {hot[6:]}")
                rows.measured(n_hot, float(hot) / 1000, "s", "<= 3 s")
            finally:
                ctx.close()
    except Exception as exc:  # noqa: BLE001
        done = {r["name"] for r in rows.rows}
        if n_start not in done:
            rows.failed(n_start, "s", NO_GOAL, exc)
        if n_first not in done:
            rows.failed(n_first, "s", NO_GOAL, exc)
        if n_hot not in done:
            rows.failed(n_hot, "s", "<= 3 s", exc)
        if n_warm not in done:
            rows.failed(n_warm, "ms", NO_GOAL, exc)
        if n_med not in done:
            rows.failed(n_med, "ms", "<= 150 ms", exc)
            rows.failed(n_max, "ms", NO_GOAL, exc)


def bench_voila_rows(rows: Rows) -> None:
    try:
        with browser() as b:
            bench_voila(rows, b)
    except Exception as exc:  # noqa: BLE001
        rows.failed("voila: browser", "", NO_GOAL, exc)
