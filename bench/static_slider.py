"""A static chart's slider: from a move to the redrawn chart, on the built site (bench/README.md, 3)."""
from __future__ import annotations



from bench.common import NO_GOAL, Rows, median
from bench.pages import CHAPTER, load

# --- 3. static slider -> redraw ------------------------------------------------------------

JS_SLIDER_INFO = """
() => {
  const chart = document.querySelector('.db2book-chart');
  const input = chart && chart.querySelector('.vega-bindings input[type=range]');
  if (!input) return null;
  return {chart: chart.id, figure: chart.dataset.figure, name: input.name,
          min: +input.min, max: +input.max, step: +input.step, value: +input.value};
}
"""

JS_SLIDER_MOVE = """
async (value) => {
  const chart = document.querySelector('.db2book-chart');
  const input = chart.querySelector('.vega-bindings input[type=range]');
  const svg = chart.querySelector('svg');
  let observer, timer, tMutation = null;
  const changed = new Promise((resolve) => {
    observer = new MutationObserver(() => { if (tMutation === null) tMutation = performance.now(); resolve(true); });
    observer.observe(svg, {subtree: true, childList: true, attributes: true, characterData: true});
    timer = setTimeout(() => resolve(false), 5000);
  });
  const t0 = performance.now();
  input.value = String(value);
  input.dispatchEvent(new Event('input', {bubbles: true}));
  input.dispatchEvent(new Event('change', {bubbles: true}));
  const ok = await changed;
  await new Promise((r) => requestAnimationFrame(() => r()));
  const t1 = performance.now();
  observer.disconnect();
  clearTimeout(timer);
  return {ok, frame: t1 - t0, mutation: tMutation === null ? null : tMutation - t0, value: +input.value};
}
"""


def bench_static_slider(rows: Rows, b, base: str) -> None:
    n_med = "static slider -> redraw, median of 20 (next frame)"
    n_max = "static slider -> redraw, max of 20 (next frame)"
    n_dom = "static slider -> SVG change, median of 20 (DOM only)"
    try:
        ctx = b.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = ctx.new_page()
            load(page, f"{base}/{CHAPTER}.html")
            info = page.evaluate(JS_SLIDER_INFO)
            if not info:
                raise RuntimeError("no `.vega-bindings input[type=range]` in the first .db2book-chart")
            lo, hi, step, v0 = info["min"], info["max"], info["step"], info["value"]
            # two values on the step grid: the opening value and one step away (up, else down)
            k = round((v0 - lo) / step)
            a = round(lo + k * step, 10)
            other = a + step if a + step <= hi + 1e-9 else a - step
            values = [round(other, 10), a] * 10
            frames, muts = [], []
            for v in values:
                res = page.evaluate(JS_SLIDER_MOVE, v)
                if not res["ok"]:
                    raise RuntimeError(f"the chart's SVG did not change within 5 s after setting {info['name']}={v}")
                frames.append(res["frame"])
                muts.append(res["mutation"])
                page.wait_for_timeout(50)
            note = f"{info['figure']}: {info['name']} {other:g} <-> {a:g}"
            rows.measured(n_med, median(frames), "ms", "<= 16 ms", note=note, samples=frames)
            rows.measured(n_max, max(frames), "ms", note=note)
            rows.measured(n_dom, median(muts), "ms", note=note, samples=muts)
        finally:
            ctx.close()
    except Exception as exc:  # noqa: BLE001
        rows.failed(n_med, "ms", "<= 16 ms", exc)
        rows.failed([n_max, n_dom], "ms", NO_GOAL, exc)
