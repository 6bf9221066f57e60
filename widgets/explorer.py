"""The live explorer: ipywidgets sliders that call the Python model on every move.

It draws the very chart the static page draws (:func:`widgets.figure.chart_at`), rendered to
SVG in the kernel with ``vl-convert``, so it works in JupyterLab, a class JupyterHub, Binder and
Voila alike, with no JavaScript extension and no internet. Its sliders are continuous (the
parameter's fine ``step``) and can never leave the parameter's valid range.
"""
from __future__ import annotations

import html
import time
from typing import Callable, Sequence

import ipywidgets as w
import vl_convert

from .figure import Figure, chart_at


def chart_svg(chart) -> str:
    """Any Altair chart as SVG, drawn in the kernel (no JavaScript needed in the front end)."""
    return vl_convert.vegalite_to_svg(chart.to_dict())


def render_svg(fig: Figure, **values: float) -> str:
    """SVG text of ``fig`` at one parameter setting."""
    return chart_svg(chart_at(fig, **values))


def live_step(p) -> float:
    """The live slider's step, refined until the default lies on the slider's grid.

    A browser slider snaps its value to ``min + k * step``; were the calibrated default off that
    grid, the explorer would open at a slightly different setting than the model's.
    """
    step = p.step
    for _ in range(6):  # at most a millionth of the declared step
        if abs((p.default - p.min) / step - round((p.default - p.min) / step)) <= 1e-6:
            return step
        step /= 10
    raise ValueError(f"Param {p.name}: default {p.default!r} is off every grid finer than its step {p.step!r}")


def _slider(p) -> w.FloatSlider:
    return w.FloatSlider(
        value=p.default, min=p.min, max=p.max, step=live_step(p), description=p.label,
        continuous_update=True, readout_format=".5g",
        style={"description_width": "initial"}, layout=w.Layout(width="460px"),
        tooltip=p.help or p.title,
    )


class Explorer(w.VBox):
    """Sliders for each parameter of one or more figures, and their charts.

    Figures that share a parameter name share one slider. ``readout(values)`` may return an
    HTML string of key numbers to show under the charts. With ``tabs=True`` each figure gets a
    tab holding its own sliders, and only the visible tab is redrawn: a hidden tab whose
    parameters changed is redrawn when it is opened.
    """

    def __init__(self, figures: Sequence[Figure], readout: Callable[[dict], str] | None = None,
                 title: str = "", tabs: bool = False):
        self.figures = list(figures)
        self.readout = readout
        params = {}
        for fig in self.figures:
            for p in fig.all_params:
                params.setdefault(p.name, p)
        self.params = params
        self.sliders = {name: _slider(p) for name, p in params.items()}
        rows = {name: w.HBox([s, w.HTML(f"<span style='color:#555'>{html.escape(params[name].unit)}</span>")])
                for name, s in self.sliders.items()}
        self.charts = [w.HTML() for _ in self.figures]
        for box, fig in zip(self.charts, self.figures):
            box.add_class("db2book-chart-live")
            box.add_class(f"figure-{fig.name}")
        self.info = w.HTML()
        self.status = w.HTML()
        self._stale: set[int] = set(range(len(self.figures)))
        header = [w.HTML(f"<h3>{html.escape(title)}</h3>")] if title else []
        if tabs:
            pages = [w.VBox([rows[p.name] for p in fig.all_params] + [chart])
                     for fig, chart in zip(self.figures, self.charts)]
            self.tabs = w.Tab(children=pages, titles=[fig.name.replace("_", " ") for fig in self.figures])
            self.tabs.observe(lambda _: self.update(changed=None, only_stale=True), names="selected_index")
            body = [self.tabs]
        else:
            self.tabs = None
            body = list(rows.values()) + self.charts
        super().__init__(header + body + [self.info, self.status])
        self.add_class("db2book-explorer")
        for s in self.sliders.values():
            s.observe(self._on_change, names="value")
        self.last_update_ms = float("nan")
        self.update()

    def values(self) -> dict[str, float]:
        return {name: float(s.value) for name, s in self.sliders.items()}

    def _visible(self, index: int) -> bool:
        return self.tabs is None or self.tabs.selected_index == index

    def update(self, changed: str | None = None, only_stale: bool = False) -> None:
        """Redraw the visible figures that use ``changed`` (all of them when None)."""
        start = time.perf_counter()
        values = self.values()
        try:
            for i, (fig, box) in enumerate(zip(self.figures, self.charts)):
                names = [p.name for p in fig.all_params]
                if changed is not None and changed not in names:
                    continue
                if only_stale and i not in self._stale:
                    continue
                if not self._visible(i):
                    self._stale.add(i)
                    continue
                box.value = render_svg(fig, **{n: values[n] for n in names})
                self._stale.discard(i)
            if self.readout is not None and not only_stale:
                self.info.value = self.readout(values)
            self.status.value = ""
        except ValueError as exc:  # sliders cannot reach invalid values; this is a safety net
            self.status.value = f"<b style='color:#b00'>{html.escape(str(exc))}</b>"
        self.last_update_ms = (time.perf_counter() - start) * 1000

    def _on_change(self, change) -> None:
        name = next(n for n, s in self.sliders.items() if s is change["owner"])
        self.update(changed=name)
