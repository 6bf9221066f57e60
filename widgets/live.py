"""The live explorer's charts: each figure compiled once, then only the model's rows swapped per setting.

Drawing flows one way: :mod:`widgets.explorer` (ipywidgets only) asks this module for a figure's SVG at
a setting; this module takes the chart from :mod:`widgets.figure`, and has :mod:`widgets.engine`
compile and draw it. Nothing here calls back into the explorer.

The chart of a setting is :func:`widgets.figure.chart_at`, the same chart as the static page's. Drawing it
from scratch on every slider move cost, per update (profiled in a Voila kernel, quiet machine): building
the Altair chart about 15 ms, ``to_dict()`` 15 ms (half of it ``jsonschema`` checking a spec the build has
already checked), compiling Vega-Lite to Vega in the chart engine, then drawing. Only the model's data
depend on the setting, so :func:`compiled` builds and validates the chart once per figure, at its
defaults, and compiles it to Vega; :func:`vega_at` puts the model's rows for a setting into a copy of
that Vega spec (a few milliseconds), and the engine only draws.

The legends are the same at every setting, and drawing them was about half of the engine's time for a
chart (the sync reads: 69 ms CPU with them, 32 ms without, on a loaded machine), so they are drawn once per
figure, as a key above the chart (:func:`heading_html`), and the chart is drawn without them.

The title and subtitle are taken out of the picture and shown as text above it (:func:`heading_html`),
as on the static page (:func:`widgets.render.embed_html`): text that wraps on a narrow screen and that a
screen reader reads as text, and less text for the engine to lay out on every update (text layout is
most of the drawing time): drawing 14 figures took a median 54 ms each without their titles, 76 ms with
them (interleaved, on a loaded machine). The SVG carries the chart's description as its accessible name.

``tests/test_live.py`` checks, for every figure of every study, that the swapped spec is exactly what
compiling ``chart_at`` at that setting gives.
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from . import engine
from .figure import Figure, chart_at, model_frame
from .render import clip_bars, describe, title_lines


@dataclass(frozen=True)
class CompiledFigure:
    """One figure's chart, compiled to Vega at the figure's defaults, with no title."""

    vega: dict  # the Vega spec, without its legends; never changed in place (vega_at copies what it replaces)
    model_data: int  # index in vega["data"] of the model's rows, the only part a setting changes
    title: str
    subtitle: tuple[str, ...]
    description: str  # the text alternative: title, subtitle
    key: dict | None  # the legends alone (no marks, no axes, no plot): the same at every setting
    key_labels: tuple[str, ...]  # what the legends name, for a screen reader


_COMPILED: dict[tuple[str, int], CompiledFigure] = {}


def compiled(fig: Figure) -> CompiledFigure:
    """``fig``'s chart at its defaults, validated against the Vega-Lite schema and compiled to Vega, once
    per figure and kernel."""
    key = (fig.key, id(fig))
    if key not in _COMPILED:
        spec = clip_bars(chart_at(fig, **fig.defaults()).to_dict())  # validated: a spec the schema refuses raises
        model = next(layer for layer in spec["layer"] if layer.get("name") == "model")
        name = (model.get("data") or spec["data"])["name"]  # Altair lifts a data set all layers share to the top
        title, subtitle = title_lines(spec)
        description = describe(spec)
        vega = for_drawing(engine.compile_vega(spec))
        index = next(i for i, d in enumerate(vega["data"]) if d.get("name") == name)
        legends = vega.pop("legends", [])
        key_spec = {**{k: v for k, v in vega.items() if k not in ("marks", "axes", "style")}, "legends": legends,
                    "height": 0} if legends else None
        _COMPILED[key] = CompiledFigure(vega, index, title, tuple(subtitle), description, key_spec,
                                        _legend_labels(vega, legends))
    return _COMPILED[key]


def _legend_labels(vega: dict, legends: list[dict]) -> tuple[str, ...]:
    """The entries the legends show: each legend's ``values``, or its scale's domain when that is a list."""
    scales = {s["name"]: s for s in vega.get("scales", [])}
    labels: list[str] = []
    for legend in legends:
        values = legend.get("values")
        if values is None:
            scale = next((scales[legend[c]] for c in ("fill", "stroke", "shape", "size") if legend.get(c) in scales),
                         {})
            values = scale.get("domain") if isinstance(scale.get("domain"), list) else []
        labels += [str(v) for v in values if str(v) not in labels]
    return tuple(labels)


def for_drawing(vega: dict) -> dict:
    """A compiled spec as the live explorer draws it: no title (it is text above the chart), no
    ``usermeta``, and no ARIA attributes on its marks, axes and legends. The drawn SVG is one image named
    by the chart's description (:func:`labelled`), so a screen reader never reads what is inside it, and
    the engine need not write them (median 51 against 54 ms over 14 figures, on a loaded machine)."""
    vega = {k: v for k, v in vega.items() if k not in ("title", "usermeta")}

    def undescribed(encode: dict) -> dict:
        """A mark's encoding without the per-item ``description`` (its ARIA label)."""
        return {stage: {k: v for k, v in channels.items() if k != "description"} if isinstance(channels, dict)
                else channels for stage, channels in encode.items()}

    def quiet(items: list) -> list:
        return [{**item, "aria": False, **({"encode": undescribed(item["encode"])} if "encode" in item else {}),
                 **{key: quiet(item[key]) for key in ("marks", "axes", "legends") if key in item}}
                for item in items]

    for key in ("marks", "axes", "legends"):
        if key in vega:
            vega[key] = quiet(vega[key])
    return vega


def model_rows(fig: Figure, **values: float) -> list[dict]:
    """The model's rows at a setting, as Altair writes a data frame into a spec (NaN as null)."""
    from altair.utils.data import to_values

    return to_values(model_frame(fig, **values))["values"]


def vega_at(fig: Figure, **values: float) -> dict:
    """The Vega spec of ``fig`` at one setting: the compiled chart with the model's rows for it."""
    c = compiled(fig)
    data = list(c.vega["data"])
    data[c.model_data] = {**data[c.model_data], "values": model_rows(fig, **values)}
    return {**c.vega, "data": data}


def labelled(svg: str, description: str) -> str:
    """The SVG named by its description for a screen reader (one image, as on the static page), and
    scaled down to a screen narrower than the chart (it keeps its viewBox, so it shrinks, never cut)."""
    label = html.escape(description, quote=True)
    head = f'<svg role="img" aria-label="{label}" style="max-width:100%;height:auto" '
    return svg.replace("<svg ", head, 1) if svg.startswith("<svg ") else svg


def heading_html(fig: Figure) -> str:
    """What stays the same above the live chart at every setting: its title and subtitle as text, and its
    key (the legends, drawn once)."""
    c = compiled(fig)
    lines = [f'<p style="margin:0.6em 0 0.1em;font-weight:600;font-size:1.05em">{html.escape(c.title)}</p>']
    lines += [f'<p style="margin:0;color:#555;font-size:0.9em">{html.escape(s)}</p>' for s in c.subtitle]
    if c.key is not None:
        lines.append(labelled(engine.draw_svg(c.key), "Key: " + "; ".join(c.key_labels) + "."))
    return f'<div class="db2book-chart-heading">{"".join(lines)}</div>'


def render_svg(fig: Figure, **values: float) -> str:
    """SVG text of ``fig`` at one parameter setting, without its title and legends (:func:`heading_html`
    shows them above it, once), named for a screen reader by the chart's description."""
    return labelled(engine.draw_svg(vega_at(fig, **values)), compiled(fig).description)


def chart_svg(chart) -> str:
    """Any Altair chart as SVG, drawn by the chart engine (no JavaScript needed in the front end)."""
    return engine.draw_svg(chart.to_dict())
