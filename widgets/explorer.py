"""The live explorer: ipywidgets sliders that call the Python model on every move.

It draws the very chart the static page draws (:func:`widgets.figure.chart_at`, compiled once per
figure and fed the model's rows for each setting: :mod:`widgets.live`), rendered to SVG in the kernel
with ``vl-convert``, so it works in JupyterLab, a class JupyterHub, Binder and Voila alike, with no
JavaScript extension and no internet. Its sliders are continuous (the parameter's fine ``step``) and can
never leave the parameter's valid range.

A student's browser builds a view for every widget model a page holds, and every ipywidget brings a
``Layout`` model and most a ``Style`` model of their own: a dashboard of nine sliders was 194 models, 74 of
them layouts. Here widgets that look alike share one layout and one style (:func:`shared`), a slider's
label carries its unit, and a tab's sliders and chart are made when the tab is first opened.
"""
from __future__ import annotations

import html
import math
from typing import Callable, Sequence

import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from .figure import Figure
from .live import heading_html, render_svg
from .numbers import live_step, readable


_SHARED: dict[tuple, w.Widget] = {}


def shared(kind: type, **traits) -> w.Widget:
    """One ``Layout`` or ``Style`` (``kind``) per set of ``traits``, shared by every widget that asks for it:
    one model for the browser to build instead of one per widget. Never change a shared one in place."""
    key = (kind, tuple(sorted(traits.items())))
    made = _SHARED.get(key)
    if made is None or made.comm is None:  # first asked for, or closed since
        made = _SHARED[key] = kind(**traits)
    return made


def _html(value: str = "", **layout) -> w.HTML:
    """An HTML widget with a shared layout and style."""
    return w.HTML(value, layout=shared(w.Layout, **layout), style=shared(HTMLStyle))


def _slider(p) -> w.FloatSlider:
    return w.FloatSlider(
        value=p.default, min=p.min, max=p.max, step=live_step(p), description=p.title,  # the label, with its unit
        continuous_update=True, readout=False,  # the NumberBox beside it is the readout, and checks what is typed
        style=shared(w.SliderStyle, description_width="initial"),
        layout=shared(w.Layout, width="380px", max_width="100%"),
        tooltip=p.help or p.title,
    )


def parse_number(text: str, name: str, low: float, high: float, integer: bool = False) -> float | int:
    """``text`` as a number in [low, high] (a whole number if ``integer``), or ValueError saying what is allowed.

    Thousands separators (``1,000`` or ``1_000``) are accepted; ``nan``, infinities and words are not.
    """
    span = f"{readable(low)} to {readable(high)}"
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
        raise ValueError(f"{name}: {readable(value)} is out of range; enter a number from {span}")
    return int(value) if integer else value


class NumberBox(w.VBox):
    """A box a student types a number into. ``value`` is the last good number; a bad entry gets a
    short message under the box and leaves ``value`` (and every chart drawn from it) as it was.

    Unlike ipywidgets' bounded boxes, which silently clamp or revert in the browser, every entry
    reaches Python, so an out-of-range value, a negative, ``nan`` or text is answered, not hidden.
    """

    value = traitlets.Any()

    def __init__(self, value: float, low: float, high: float, name: str, description: str = "",
                 integer: bool = False, width: str = "110px", digits: int = 5):
        self.low, self.high, self.name, self.integer, self.digits = low, high, name, integer, digits
        self.text = w.Text(value="", description=description, continuous_update=False,
                           style=shared(TextStyle, description_width="initial"), layout=shared(w.Layout, width=width))
        self.message = _html(max_width="460px")
        self.message.add_class("db2book-input-message")
        super().__init__([self.text, self.message], layout=shared(w.Layout))
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
        return f"{value:,.0f}" if self.integer else readable(value, self.digits)

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
    tab holding its own sliders; a tab's sliders and chart are made when it is first opened, and
    only the visible tab is redrawn: a hidden tab whose parameters changed is redrawn when it is opened.
    ``sliders`` and ``boxes`` hold the controls made so far (every one, without tabs).
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
        self.sliders: dict[str, w.FloatSlider] = {}
        self.boxes: dict[str, NumberBox] = {}
        self._rows: dict[str, w.HBox] = {}
        self.charts = [_html() for _ in self.figures]
        for box, fig in zip(self.charts, self.figures):
            box.add_class("db2book-chart-live")
            box.add_class(f"figure-{fig.name}")
        self.info = _html()
        self.status = _html()
        self._stale: set[int] = set(range(len(self.figures)))
        header = [_html(f"<h3>{html.escape(title)}</h3>")] if title else []
        plain = shared(w.Layout)
        if tabs:
            self._pages = [w.VBox(layout=plain) for _ in self.figures]
            self.tabs = w.Tab(children=self._pages, titles=[fig.name.replace("_", " ") for fig in self.figures],
                              layout=plain)
            self._build_page(0)
            self.tabs.observe(self._on_tab, names="selected_index")
            body = [self.tabs]
        else:
            self.tabs = None
            self._pages = []
            rows = [self._row(name) for name in params]
            charts = [c for fig, chart in zip(self.figures, self.charts)
                      for c in (_html(heading_html(fig)), chart)]
            body = rows + charts
        super().__init__(header + body + [self.info, self.status], layout=plain)
        self.add_class("db2book-explorer")
        self.update()

    def add_tools(self, *tools: w.Widget) -> Explorer:
        """A study's own tools (a form, a simulator), shown after the charts and their readout, in a box of
        class ``db2book-tools`` (their controls are not the figures' sliders). Returns the explorer."""
        box = w.VBox(list(tools), layout=shared(w.Layout))
        box.add_class("db2book-tools")
        self.children = (*self.children, box)
        return self

    def _row(self, name: str) -> w.HBox:
        """The slider of parameter ``name`` and the box a value can be typed into, made on first use."""
        if name not in self._rows:
            p = self.params[name]
            slider, box = _slider(p), NumberBox(p.default, p.min, p.max, p.label)
            w.link((box, "value"), (slider, "value"))
            slider.observe(self._on_change, names="value")
            self.sliders[name], self.boxes[name] = slider, box
            # on a phone, the box goes below the slider
            self._rows[name] = w.HBox([slider, box], layout=shared(w.Layout, flex_flow="row wrap"))
        return self._rows[name]

    def _build_page(self, index: int) -> None:
        """Fill tab ``index`` with its sliders, its chart's heading and its chart (once)."""
        page, fig = self._pages[index], self.figures[index]
        if not page.children:
            heading = _html(heading_html(fig))
            page.children = [self._row(p.name) for p in fig.all_params] + [heading, self.charts[index]]

    def _on_tab(self, change) -> None:
        if change["new"] is not None:
            self._build_page(change["new"])
        self.update(changed=None, only_stale=True)

    def values(self) -> dict[str, float]:
        """The setting of every parameter (a parameter whose slider is not made yet is at its default)."""
        return {name: float(self.sliders[name].value) if name in self.sliders else p.default
                for name, p in self.params.items()}

    def _visible(self, index: int) -> bool:
        return self.tabs is None or self.tabs.selected_index == index

    def update(self, changed: str | None = None, only_stale: bool = False) -> None:
        """Redraw the visible figures that use ``changed`` (all of them when None)."""
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
