"""The live explorer: ipywidgets sliders that call the Python model on every move.

It draws the very chart the static page draws (:func:`widgets.figure.chart_at`), rendered to
SVG in the kernel with ``vl-convert``, so it works in JupyterLab, a class JupyterHub, Binder and
Voila alike, with no JavaScript extension and no internet. Its sliders are continuous (the
parameter's fine ``step``) and can never leave the parameter's valid range.
"""
from __future__ import annotations

import hashlib
import html
import json
import math
import os
import time
from pathlib import Path
from typing import Callable, Sequence

import ipywidgets as w
import traitlets

from .figure import Figure, chart_at
from .svgserver import SERVER_ENV, render_remote


#: A folder shared by every kernel of a class server (``make voila`` sets it): a chart already drawn
#: for one student, at the same settings, is read back instead of drawn again. The first render at
#: the calibrated defaults is the same for the whole class, so it is drawn once, not thirty times.
SVG_CACHE_ENV = "DB2BOOK_SVG_CACHE"


def draw_svg(spec: dict) -> str:
    """SVG of a Vega-Lite spec: by the class server's chart service when there is one
    (:mod:`widgets.svgserver`, one chart engine for the whole class), else by ``vl-convert`` here."""
    url = os.environ.get(SERVER_ENV)
    if url:
        try:
            return render_remote(spec, url)
        except OSError:
            pass  # the service is gone: draw here, at the cost of this kernel holding its own engine
    import vl_convert

    return vl_convert.vegalite_to_svg(spec)


def chart_svg(chart) -> str:
    """Any Altair chart as SVG, drawn on the server (no JavaScript needed in the front end)."""
    spec = chart.to_dict()
    folder = os.environ.get(SVG_CACHE_ENV)
    if not folder:
        return draw_svg(spec)
    key = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()
    path = Path(folder) / key[:2] / f"{key}.svg"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        pass
    svg = draw_svg(spec)
    try:  # write then rename, so that another kernel never reads half a file
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(svg, encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only or full cache only costs speed
    return svg


def render_svg(fig: Figure, **values: float) -> str:
    """SVG text of ``fig`` at one parameter setting."""
    return chart_svg(chart_at(fig, **values))


def live_step(p) -> float:
    """The live slider's step, refined until the default and every position of the static slider
    lie on the live slider's grid (``min + k * step``).

    A browser slider snaps its value to that grid; were the default or a value the page offers
    off it, the explorer would open, or land, at a slightly different setting than the page.
    """
    first = p.static_range()[0]
    step = p.step
    for _ in range(6):  # at most a millionth of the declared step
        ks = [(v - p.min) / step for v in (p.default, first, first + p.static_step)]
        if all(abs(k - round(k)) <= 1e-6 for k in ks):
            return step
        step /= 10
    raise ValueError(f"Param {p.name}: default {p.default!r} is off every grid finer than its step {p.step!r}")


def _slider(p) -> w.FloatSlider:
    return w.FloatSlider(
        value=p.default, min=p.min, max=p.max, step=live_step(p), description=p.label,
        continuous_update=True, readout=False,  # the NumberBox beside it is the readout, and checks what is typed
        style={"description_width": "initial"}, layout=w.Layout(width="380px"),
        tooltip=p.help or p.title,
    )


def _readable(x: float) -> str:
    """A number for a message: whole numbers in full with separators, others to 6 digits."""
    return f"{x:,.0f}" if float(x).is_integer() and abs(x) < 1e15 else f"{x:,.6g}"


def parse_number(text: str, name: str, low: float, high: float, integer: bool = False) -> float | int:
    """``text`` as a number in [low, high] (a whole number if ``integer``), or ValueError saying what is allowed.

    Thousands separators (``1,000`` or ``1_000``) are accepted; ``nan``, infinities and words are not.
    """
    span = f"{_readable(low)} to {_readable(high)}"
    cleaned = str(text).strip().replace(",", "").replace("_", "")
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(f"{name}: {str(text).strip()[:20]!r} is not a number; enter one from {span}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name}: enter a finite number from {span}")
    if integer and value != int(value):
        raise ValueError(f"{name}: enter a whole number from {span}")
    if not low <= value <= high:
        raise ValueError(f"{name}: {_readable(value)} is out of range; enter a number from {span}")
    return int(value) if integer else value


class NumberBox(w.VBox):
    """A box a student types a number into. ``value`` is the last good number; a bad entry gets a
    short message under the box and leaves ``value`` (and every chart drawn from it) as it was.

    Unlike ipywidgets' bounded boxes, which silently clamp or revert in the browser, every entry
    reaches Python, so an out-of-range value, a negative, ``nan`` or text is answered, not hidden.
    """

    value = traitlets.Any()

    def __init__(self, value: float, low: float, high: float, name: str, description: str = "",
                 integer: bool = False, width: str = "110px", fmt: str = ".5g"):
        self.low, self.high, self.name, self.integer, self.fmt = low, high, name, integer, fmt
        style = {"description_width": "initial"}
        self.text = w.Text(value="", description=description, continuous_update=False, style=style,
                           layout=w.Layout(width=width))
        self.message = w.HTML(layout=w.Layout(max_width="460px"))
        self.message.add_class("db2book-input-message")
        super().__init__([self.text, self.message])
        self.add_class("db2book-number")
        self.value = parse_number(str(value), name, low, high, integer)
        self.text.value = self.format(self.value)
        self.text.observe(self._typed, names="value")
        self.observe(self._shown, names="value")

    @traitlets.validate("value")
    def _check(self, proposal):
        """Code that sets ``value`` directly gets the same checks as a student typing it."""
        return parse_number(repr(proposal["value"]), self.name, self.low, self.high, self.integer)

    @property
    def error(self) -> str:
        """The message shown for the last bad entry ('' when the box holds a good number)."""
        return self._error if hasattr(self, "_error") else ""

    def format(self, value) -> str:
        """The number as the box shows it: whole numbers with thousands separators, others to 5 digits."""
        if self.integer or (float(value).is_integer() and abs(value) < 1e15):
            return f"{value:,.0f}"
        return format(value, self.fmt)

    def _typed(self, change) -> None:
        try:
            value = parse_number(change["new"], self.name, self.low, self.high, self.integer)
        except ValueError as exc:
            self._error = str(exc)
            self.message.value = f"<span style='color:#b00'>{html.escape(self._error)}</span>"
            return
        self._error = ""
        self.message.value = ""
        self.value = value

    def _shown(self, change) -> None:
        self._error = ""
        self.message.value = ""
        self.text.value = self.format(change["new"])


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
        self.boxes = {name: NumberBox(p.default, p.min, p.max, p.label) for name, p in params.items()}
        for name in params:
            w.link((self.boxes[name], "value"), (self.sliders[name], "value"))
        rows = {name: w.HBox([s, self.boxes[name],
                              w.HTML(f"<span style='color:#555'>{html.escape(params[name].unit)}</span>")])
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


def study_explorer(slug: str, names: Sequence[str] = (), readout: Callable[[dict], str] | None = None) -> Explorer:
    """The explorer of one study (:mod:`widgets.studies`): the named figures, or the study's defaults.

    Figures are found by name through the registry; an unknown name raises a ValueError listing
    the study's figures.
    """
    from .studies import study

    s = study(slug)
    return Explorer([s.figure(n) for n in (names or s.explore)], readout=readout, title=s.explorer_title)


def study_dashboard(slug: str, readout: Callable[[dict], str] | None = None) -> Explorer:
    """Every figure of one study (in tabs when the study says so), for a classroom projector (Voila)."""
    from .studies import study

    s = study(slug)
    return Explorer(list(s.figures().values()), readout=readout, tabs=s.tabs)
