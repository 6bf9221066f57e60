"""The figure pipeline: one model function, three surfaces.

A :class:`Figure` couples a pure, vectorised model (``curves``) with a description of its
parameters (:class:`Param`) and the published points it is compared with. From it:

* :func:`static_chart` builds an Altair chart whose sliders are Vega-Lite parameters. The model
  is evaluated in Python over the slider grid once, at build time, and the chart only filters
  that table, so the static page shows exactly the numbers the Python model gives for the
  slider setting (rounded to :data:`SIGNIFICANT_DIGITS` significant digits).
* :func:`chart_at` builds the same chart for one parameter setting, with no sliders; the live
  explorer (:mod:`widgets.explorer`) renders it on every slider move.

Chapters declare figures; they never rebuild this machinery. A study's figures are found by name
through :mod:`widgets.studies` (``study(slug).figure(name)``), which imports the figures module
when asked; declaring a figure registers nothing.
"""
from __future__ import annotations

import importlib
import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Callable, Mapping

import altair as alt
import numpy as np
import pandas as pd

from . import render as _render
from .numbers import on_grid, readable

# The chart renderer for this surface, chosen where charts are made (not when ``widgets`` is imported,
# so that a kernel that only needs a model or an exercise does not pay for Altair).
_render.enable()

SIGNIFICANT_DIGITS = 4  # what the page carries; the tests compare at this precision
MAX_STATIC_ROWS = 2500
WIDTH, HEIGHT = 520, 300
PUBLISHED_SHAPES = ("square", "triangle-up", "diamond", "circle", "cross", "triangle-down")
FALLBACK_COLORS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d", "#bab0ac")

#: Names a slider param must not take: Vega's built-in signals (a param named ``background`` sets
#: the chart's background colour from the slider: the chart turns black) and the names Vega's
#: expression language reserves. Checked when a :class:`Param` is declared, so a build fails early.
VEGA_RESERVED_NAMES = frozenset({
    "background", "width", "height", "padding", "autosize", "cursor", "config", "view", "events", "description",
    "title", "datum", "event", "item", "parent", "group", "this", "undefined", "NaN", "Infinity",
})


@dataclass(frozen=True)
class Param:
    """A model parameter that a reader can move.

    ``step`` is the live slider's step (fine); ``static_step`` the static page's (coarse: the
    page carries a precomputed grid). A slider's positions are ``first + k * step`` (a browser's
    range input snaps to them), so the static grid is ``static_min`` (or ``min``) plus whole
    steps, and the ``default`` the page and the explorer open at must be one of its positions:
    a reader who moves the slider can always drag it back.

    A fitted or published value that no round grid holds (σ = 0.017693, 10,560 users) is shown
    rounded: ``default`` is the nearest position, ``calibrated`` the exact value, which stays in the
    model's calibration and the ledger; the chart says both. ``end`` says, for the reader, why the
    default sits at an end of its range (one direction is closed); ``flat`` why moving the slider
    may leave the chart as it is (it drives a readout, not the lines).
    """

    name: str
    label: str
    unit: str
    min: float
    max: float
    default: float
    step: float
    static_step: float
    help: str = ""
    static_min: float | None = None  # the static page may carry a narrower range than the live one
    static_max: float | None = None
    calibrated: float | None = None  # the exact value that ``default`` shows rounded to the grid
    end: str = ""  # why the default is at an end of the range (shown with the chart)
    flat: str = ""  # why a step of this slider may change nothing on the chart

    def __post_init__(self):
        if self.name in VEGA_RESERVED_NAMES or self.name.startswith("vega") or not self.name.isidentifier():
            raise ValueError(
                f"Param name {self.name!r} shadows a Vega built-in signal or is not an identifier; "
                f"rename it (reserved: {', '.join(sorted(VEGA_RESERVED_NAMES))})")
        if not (self.min <= self.default <= self.max):
            raise ValueError(f"Param {self.name}: default {self.default} outside [{self.min}, {self.max}]")
        if self.step <= 0 or self.static_step <= 0:
            raise ValueError(f"Param {self.name}: steps must be positive")
        first, last = self.static_range()
        if not first <= self.default <= last or not on_grid(self.default, first, self.static_step):
            raise ValueError(f"Param {self.name}: default {self.default:g} is not a position of the static slider "
                             f"({first:g} to {last:g} in steps of {self.static_step:g}); round it to one and give "
                             f"the exact value as calibrated=")
        if self.calibrated is not None and abs(self.calibrated - self.default) > self.static_step / 2 + 1e-12:
            raise ValueError(f"Param {self.name}: default {self.default:g} is not the position nearest to the "
                             f"calibrated {self.calibrated:g} (steps of {self.static_step:g})")

    def static_range(self) -> tuple[float, float]:
        """The static slider's ends: ``static_min`` (or ``min``), and the last whole step from it
        inside ``static_max`` (or ``max``)."""
        first = self.min if self.static_min is None else max(self.min, self.static_min)
        high = self.max if self.static_max is None else min(self.max, self.static_max)
        last = first + math.floor((high - first) / self.static_step + 1e-9) * self.static_step
        return round(first, 10), round(last, 10)

    def static_values(self) -> np.ndarray:
        """The grid the static page carries: every position of its slider, ``first + k * static_step``."""
        first, last = self.static_range()
        n = math.floor((last - first) / self.static_step + 1e-9)
        return np.round(first + self.static_step * np.arange(n + 1), 10)

    def static_tolerance(self) -> float:
        """Half a step: how near a slider value picks a grid row."""
        return self.static_step / 2

    def notes(self) -> list[str]:
        """What the chart says about this slider: why it starts at an end, and the exact value it rounds."""
        out = []
        if self.calibrated is not None:
            unit = f" {self.unit}" if self.unit else ""
            out.append(f"{self.label}: the slider opens at {readable(self.default)}{unit}; the calibration uses "
                       f"{readable(self.calibrated)}{unit}.")
        if self.end:
            out.append(f"{self.label}: {self.end}")
        if self.flat:
            out.append(f"{self.label}: {self.flat}")
        return out

    @property
    def title(self) -> str:
        """The slider's label with its unit: "Cache-miss read (µs, assumed)"."""
        if not self.unit:
            return self.label
        if self.label.endswith(")"):  # "Extra wait (elapsed only)" + unit: one bracket, not two
            return f"{self.label[:-1]}, {self.unit})"
        return f"{self.label} ({self.unit})"


@dataclass(frozen=True)
class Axis:
    field: str
    title: str
    scale: str = "linear"  # "linear" or "log"
    format: str = ",.4~g"


@dataclass(frozen=True)
class Figure:
    """One figure of a chapter: a model, its sliders and its published points.

    ``curves(x, scenario)`` returns ``{series name: y values over x}``; it must be pure and
    vectorised over ``x``. ``scenario`` is what the study's ``calibration.scenario(values)`` makes of the
    sliders' values (a ``calibration.Scenario``): :meth:`evaluate` calls it, so a curve never maps slider
    values to model inputs itself (a figure outside a study passes its own ``scenario=``). ``published`` has
    the columns ``x``, ``y``, ``series``, ``source`` (document, table, line) and ``condition`` (what was measured).
    """

    study: str
    name: str
    title: str
    x: Axis
    y: Axis
    x_values: np.ndarray
    curves: Callable[..., Mapping[str, np.ndarray]]
    params: tuple[Param, ...]
    published: pd.DataFrame | None = None
    reconstruction: bool = False
    subtitle: str = ""
    colors: Mapping[str, str] = field(default_factory=dict)  # series -> colour, shared across a chapter
    live_params: tuple[Param, ...] = ()  # extra sliders in the live explorer only (static: defaults)
    marks: pd.DataFrame | None = None  # vertical rules at quoted times: columns x, label, source
    kind: str = "line"  # "line", or "bar" (stacked bars over categories x_labels)
    x_labels: tuple[str, ...] = ()  # category names of a bar figure, indexed by x_values
    scenario: Callable[[Mapping[str, float]], object] | None = None  # default: the study's calibration.scenario
    #: the source's figure or figures this chart regenerates, as the subtitle says it ("Figures 3 and 14 of the
    #: brief"); listed again in ``source_figures/<study>.csv`` (widgets.source_figures)
    regenerates: str = ""

    def __post_init__(self):
        if len(self.params) > 2:
            raise ValueError(f"{self.key}: a static chart carries at most two sliders")
        if self.kind not in ("line", "bar"):
            raise ValueError(f"{self.key}: kind={self.kind!r} is not 'line' or 'bar'")
        if self.kind == "bar" and len(self.x_labels) != len(self.x_values):
            raise ValueError(f"{self.key}: a bar figure needs one label per x value")

    @property
    def key(self) -> str:
        return f"{self.study}.{self.name}"

    @property
    def all_params(self) -> tuple[Param, ...]:
        return self.params + self.live_params

    def defaults(self) -> dict[str, float]:
        return {p.name: p.default for p in self.all_params}

    def scenario_at(self, **values: float):
        """The study's scenario at a parameter setting (missing ones take their defaults)."""
        scenario = self.scenario
        if scenario is None:
            scenario = importlib.import_module(f"widgets.{self.study}.calibration").scenario
        return scenario({**self.defaults(), **values})

    def evaluate(self, **values: float) -> dict[str, np.ndarray]:
        """The model's curves at a parameter setting (missing ones take their defaults)."""
        out = self.curves(np.asarray(self.x_values, dtype=float), self.scenario_at(**values))
        return {k: np.asarray(v, dtype=float) for k, v in out.items()}


def _round_sig(values: np.ndarray, digits: int = SIGNIFICANT_DIGITS) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.where(values == 0, 0, np.floor(np.log10(np.abs(values))))
    factor = 10.0 ** (digits - 1 - mag)
    return np.round(values * factor) / factor


def grid_table(fig: Figure) -> pd.DataFrame:
    """The model over the static slider grid: one row per (setting, x), one column per series."""
    names = [p.name for p in fig.params]
    frames = []
    for combo in itertools.product(*(p.static_values() for p in fig.params)):
        setting = dict(zip(names, combo))
        curves = fig.evaluate(**setting)
        frame = pd.DataFrame({"x": fig.x_values, **{s: _round_sig(v) for s, v in curves.items()}})
        for n, v in setting.items():
            frame.insert(0, n, v)
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True)
    odd = [c for c in table.columns if any(ch in str(c) for ch in ".[]\\'\"")]
    if odd:  # Vega-Lite reads these characters in a field name as a path into the datum
        raise ValueError(f"{fig.key}: series name(s) {odd} contain '.', '[', ']', '\\' or a quote; rename them")
    if len(table) > MAX_STATIC_ROWS:
        raise ValueError(f"{fig.key}: static grid has {len(table)} rows (> {MAX_STATIC_ROWS}); coarsen it")
    bad = ~np.isfinite(table.drop(columns=names + ["x"]).to_numpy())
    if bad.any():
        raise ValueError(f"{fig.key}: the model gave a non-finite value on the static grid")
    return table


def _layers(fig: Figure, model_data, series_cols: list[str], filters: list[str],
            sliders: tuple[Param, ...] = ()) -> alt.LayerChart:
    scale_x = alt.Scale(type=fig.x.scale, nice=False)
    scale_y = alt.Scale(type=fig.y.scale, nice=True)
    domain = series_cols + _published_series(fig, series_cols)
    spare = iter(c for c in FALLBACK_COLORS if c not in fig.colors.values())
    colors = [fig.colors.get(s) or next(spare) for s in domain]
    # two legends that show the marks drawn: the model's lines (or bars) by colour, below, and the
    # published points by their shape, above (each point takes the colour of the line it belongs to)
    color = alt.Color("series:N", title=None, legend=alt.Legend(orient="bottom", values=series_cols),
                      scale=alt.Scale(domain=domain, range=colors))
    published = domain[len(series_cols):]
    shape = alt.Shape("series:N", title=None, legend=alt.Legend(orient="top", symbolStrokeColor="black"),
                      scale=alt.Scale(domain=published or ["-"],
                                      range=[PUBLISHED_SHAPES[i % len(PUBLISHED_SHAPES)]
                                             for i in range(len(published) or 1)]))
    line = alt.Chart(model_data, name="model")
    for expr in filters:
        line = line.transform_filter(expr)
    if fig.kind == "bar":
        labels = "[" + ",".join(repr(lab) for lab in fig.x_labels) + "][datum.value]"
        x_enc = alt.X("x:O", title=fig.x.title, axis=alt.Axis(labelExpr=labels, labelAngle=0, labelLimit=160))
        mark = {"type": "bar", "width": {"band": 0.6}}
        x_pts = "x:O"
    else:
        x_enc = alt.X("x:Q", title=fig.x.title, scale=scale_x, axis=_axis(fig.x))
        mark = {"type": "line", "strokeWidth": 2.5}
        x_pts = "x:Q"
    line = line.transform_fold(series_cols, as_=["series", "y"]).mark_line().encode(
        x=x_enc,
        y=alt.Y("y:Q", title=fig.y.title, scale=scale_y, axis=_axis(fig.y),
                stack="zero" if fig.kind == "bar" else None),
        color=color,
        tooltip=[alt.Tooltip("series:N", title="model"),
                 alt.Tooltip("x:Q", title=fig.x.title, format=_tooltip_format(fig.x.format)),
                 alt.Tooltip("y:Q", title=fig.y.title, format=_tooltip_format(fig.y.format))],
    )
    line.mark = mark
    layers = [line]
    if fig.marks is not None and len(fig.marks):
        rule = alt.Chart(fig.marks).encode(
            x=alt.X("x:Q"), tooltip=[alt.Tooltip("label:N", title="quoted"), alt.Tooltip("source:N", title="source")])
        layers.append(rule.mark_rule(strokeDash=[5, 4], color="#555", strokeWidth=1.5))
        labels = rule.transform_window(row="row_number()").transform_calculate(label_y="4 + 13 * (datum.row - 1)")
        # a label reads away from the nearer edge: right of its rule in the left half, left of it in
        # the right half, so that no label runs off the plot (and is cut) at the right edge
        middle = _middle(fig)
        # each label is drawn twice, first as a white halo, so that a neighbouring rule or a line
        # that crosses it passes under the words instead of through them
        for keep, align, dx in ((f"datum.x <= {middle!r}", "left", 4), (f"datum.x > {middle!r}", "right", -4)):
            for halo in ({"stroke": "white", "strokeWidth": 3, "strokeJoin": "round"}, {}):
                layers.append(labels.transform_filter(keep).mark_text(align=align, dx=dx, fontSize=11, color="#333",
                                                                      **halo)
                              .encode(text="label:N", y=alt.Y("label_y:Q", scale=None)))
    if fig.published is not None and len(fig.published):
        shown = published_points(fig)
        # a point that belongs to a model line takes that line's colour; the legend keeps its shape
        fill = alt.Color("colour_series:N", scale=alt.Scale(domain=domain, range=colors), legend=None)
        pts = alt.Chart(shown, name="published").mark_point(filled=True, size=110, opacity=0.95,
                                                            stroke="black", strokeWidth=0.8).encode(
            x=x_pts, y="y:Q", color=fill, shape=shape,
            tooltip=[alt.Tooltip("series:N", title="published"), alt.Tooltip("condition:N", title="run"),
                     alt.Tooltip("x_printed:N", title=fig.x.title),
                     alt.Tooltip("y_printed:N", title=fig.y.title),
                     alt.Tooltip("source:N", title="source")],
        )
        layers.append(pts)
    subtitle = [fig.subtitle] if fig.subtitle else []
    if fig.regenerates:
        subtitle.insert(0, f"Regenerates {fig.regenerates}.")
    what = "Bars" if fig.kind == "bar" else "Lines"
    if fig.published is not None and len(fig.published):
        subtitle.append(f"{what}: model. Points: published values (hover or tap for the source).")
    if fig.marks is not None and len(fig.marks):
        subtitle.append("Dashed rules: values quoted in the source (hover or tap for the line).")
    if fig.reconstruction:
        subtitle.insert(0, "RECONSTRUCTION: the source prints no data for this figure.")
    subtitle += [note for p in sliders for note in p.notes()]  # the sliders' ends and rounded values
    return alt.layer(*layers).properties(
        width=WIDTH, height=HEIGHT,
        title=alt.TitleParams(fig.title, subtitle=subtitle, anchor="start"),
    )


def _middle(fig: Figure) -> float:
    """The middle of the x axis (of its logarithm, on a log scale), in x's unit."""
    xs = np.asarray(fig.x_values, dtype=float)
    lo, hi = float(xs.min()), float(xs.max())
    return float(np.sqrt(lo * hi)) if fig.x.scale == "log" and lo > 0 else (lo + hi) / 2


def printed_number(value: float) -> str:
    """A published number as it reads in print: no binary noise, no exponent, thousands separated
    (a value worked out from printed cells shows four significant digits: :func:`widgets.tables.cell_text`)."""
    from .tables import cell_text

    return cell_text(float(value))


def published_points(fig: Figure) -> pd.DataFrame:
    """The published points as drawn: ``x``, ``y``, their printed text, and the colour they take.

    A published frame may carry a ``model_series`` column naming the model line a point belongs
    to; the point is then drawn in that line's colour. Otherwise it keeps its own series' colour.
    """
    pts = fig.published.copy()
    pts["x_printed"] = [printed_number(v) for v in pts["x"]] if fig.kind != "bar" else [
        fig.x_labels[list(fig.x_values).index(v)] if v in list(fig.x_values) else printed_number(v) for v in pts["x"]]
    # a study may say how a point's value reads (a cell printed in another unit); the others as printed
    own_text = pts["y_printed"] if "y_printed" in pts else pd.Series([None] * len(pts), index=pts.index)
    pts["y_printed"] = [t if isinstance(t, str) and t else printed_number(v) for t, v in zip(own_text, pts["y"])]
    own = pts["model_series"] if "model_series" in pts else pd.Series([""] * len(pts), index=pts.index)
    pts["colour_series"] = [m if isinstance(m, str) and m else s for m, s in zip(own, pts["series"])]
    return pts


def _axis(axis: Axis) -> alt.Axis:
    """An axis whose ticks never repeat a label: with a fixed-decimals format (".0f", "+.1f",
    ".0%"), ticks are at least one printed unit apart (no "1 2 2 3 3" from ticks at 1, 1.5, 2)."""
    fixed = re.search(r"\.(\d+)([f%])$", axis.format)
    if axis.scale != "linear" or not fixed:  # on a narrow chart, labels that would overlap are dropped
        return alt.Axis(format=no_exponent(axis.format), labelOverlap="greedy", labelSeparation=4)
    step = 10.0 ** -int(fixed.group(1)) / (100 if fixed.group(2) == "%" else 1)
    return alt.Axis(format=axis.format, tickMinStep=step, labelOverlap="greedy", labelSeparation=4)


def _tooltip_format(fmt: str) -> str:
    """A model value in a tooltip: three significant digits (not the axis's rounding), signed like the axis."""
    sign = "+" if fmt.startswith("+") else ""
    return sign + (".1~%" if fmt.endswith("%") else ",.3~r")


def no_exponent(fmt: str) -> str:
    """A d3 format that never prints an exponent: "g" (which prints 1000 as "1e+3") becomes "r",
    the same significant digits in plain decimals."""
    return re.sub(r"g$", "r", fmt)


def _published_series(fig: Figure, exclude: list[str]) -> list[str]:
    if fig.published is None:
        return []
    return [s for s in fig.published["series"].unique() if s not in exclude]


def static_chart(fig: Figure) -> alt.LayerChart:
    """The chart for the static page: sliders are Vega-Lite params over a precomputed grid."""
    table = grid_table(fig)
    series_cols = [c for c in table.columns if c not in {p.name for p in fig.params} | {"x"}]
    csv = table.to_csv(index=False, float_format="%.8g")
    data = alt.InlineData(values=csv, format=alt.DataFormat(type="csv", parse={c: "number" for c in table.columns}))
    sliders, filters = [], []
    for p in fig.params:
        first, last = p.static_range()
        sliders.append(alt.param(name=p.name, value=float(p.default), bind=alt.binding_range(
            min=first, max=last, step=p.static_step, name=p.title + " ")))
        filters.append(f"abs(datum['{p.name}'] - {p.name}) < {p.static_tolerance()!r}")
    chart = _layers(fig, data, series_cols, filters, fig.params).add_params(*sliders)
    return chart.properties(usermeta={"db2book": {"figure": fig.key, **_disclosure(fig)}})


def _disclosure(fig: Figure) -> dict:
    """The published points as a small table, for the chart's "data" disclosure on the static page."""
    if fig.published is None or not len(fig.published):
        return {}
    pts = published_points(fig)
    columns = ["Published series", "Run", fig.x.title, fig.y.title, "Source"]
    rows = [[str(r.series), str(r.condition), r.x_printed, r.y_printed, str(r.source)] for r in pts.itertuples()]
    return {"points": {"columns": columns, "rows": rows}}


def model_frame(fig: Figure, **values: float) -> pd.DataFrame:
    """The model's curves at one setting as the chart draws them: a column ``x`` and one per series."""
    return pd.DataFrame({"x": fig.x_values, **fig.evaluate(**values)})


def chart_at(fig: Figure, **values: float) -> alt.LayerChart:
    """The same chart at one parameter setting, with no sliders (the live explorer draws it,
    through :mod:`widgets.live`, which compiles it once and then swaps only this frame)."""
    frame = model_frame(fig, **values)
    series = [c for c in frame.columns if c != "x"]
    return _layers(fig, frame, series, [], fig.all_params).properties(usermeta={"db2book": {"figure": fig.key}})
