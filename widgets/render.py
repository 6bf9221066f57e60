"""How charts reach the reader, on each surface.

* **The static book.** ``make book`` sets ``DB2BOOK_BUILD=1``; each chart's Vega-Lite spec is
  then compiled to a Vega spec at build time (``vl_convert.vegalite_to_vega``) and emitted as a
  small ``text/html`` snippet that draws it with the Vega runtime alone, which the book's Sphinx
  extension (``book/_ext/offline_assets.py``) serves from the site itself: no CDN, and no
  Vega-Lite compiler (a third of the old bundle) sent to the reader.
* **Live notebooks and Voila.** Charts are rendered to SVG in the kernel by ``vl-convert``
  (Altair's ``svg`` renderer). That works in JupyterLab, Notebook, VS Code and Voila with no
  JavaScript extension and no internet. Interactivity there comes from the ipywidgets explorer.
"""
from __future__ import annotations

import html
import itertools
import json
import math
import os
import re

import altair as alt

from . import engine
from .numbers import on_grid


BOOK_RENDERER = "db2book"
_counter = itertools.count()

#: Top-level keys of a chart that lays out several views; such a chart keeps its fixed width.
_COMPOSITE = ("hconcat", "vconcat", "concat", "facet", "repeat")
#: The largest inline data set shown in a chart's "data" disclosure when the chart names no points.
MAX_DISCLOSED_ROWS = 40
#: The least height a drawn chart adds to its plot's (its x axis and title; measured on the book's charts at
#: 390 and 1280 px: 53 to 230 px more, with legend and sliders), px. An empty chart holds its plot's height
#: plus this, so that the text below moves little when the chart draws (the runtime loads after the text).
CHART_FRAME_PX = 50


def title_lines(spec: dict) -> tuple[str, list[str]]:
    title = spec.get("title") or ""
    if isinstance(title, dict):
        text, subtitle = title.get("text", ""), title.get("subtitle") or []
    else:
        text, subtitle = title, []
    text = " ".join(text) if isinstance(text, list) else str(text)
    subtitle = [subtitle] if isinstance(subtitle, str) else list(subtitle)
    return text, subtitle


def _data_table(spec: dict) -> tuple[str, list[str], list[list[str]]] | None:
    """What the "data" disclosure shows: the figure's published points, or a small inline data set."""
    meta = (spec.get("usermeta") or {}).get("db2book", {})
    if meta.get("points"):
        return meta.get("points_caption", "The published points drawn on this chart"), meta["points"]["columns"], \
            meta["points"]["rows"]
    for values in (spec.get("datasets") or {}).values():
        if isinstance(values, list) and 0 < len(values) <= MAX_DISCLOSED_ROWS and isinstance(values[0], dict):
            columns = list(values[0])
            rows = [[_cell(row.get(c)) for c in columns] for row in values]
            return "The values drawn on this chart", columns, rows
    return None


def _cell(value) -> str:
    from .tables import cell_text

    return cell_text(value)


def _table_html(caption: str, columns: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th scope=\"col\">{html.escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in rows)
    return (f'<details class="db2book-data"><summary>Data: {html.escape(caption.lower())}</summary>'
            f'<div class="db2book-data-scroll" tabindex="0">'
            f'<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            "</div></details>")


def describe(spec: dict) -> str:
    """The chart's text alternative: its title, subtitle and what its sliders are."""
    title, subtitle = title_lines(spec)
    sliders = [p["bind"].get("name", p["name"]).strip() for p in spec.get("params", []) if "bind" in p]
    parts = [title] + subtitle
    if sliders:
        parts.append("Sliders: " + "; ".join(sliders) + ".")
    return " ".join(p.rstrip() if p.rstrip().endswith(".") else p.rstrip() + "." for p in parts if p.strip())


def clip_bars(spec):
    """The spec with every bar clipped to its plot: a bar is drawn from its scale's zero, so on a
    scale that does not start at zero (ITR from 600 to 850) it ran below the axis, over the axis's
    labels and the legend. A bar never has anything to show outside its plot."""
    if isinstance(spec, list):
        return [clip_bars(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    out = {key: clip_bars(value) for key, value in spec.items()}
    mark = out.get("mark")
    if mark == "bar":
        out["mark"] = {"type": "bar", "clip": True}
    elif isinstance(mark, dict) and mark.get("type") == "bar":
        out["mark"] = {**mark, "clip": True}
    return out


def embed_html(spec: dict) -> str:
    """HTML for one chart on the static site: its title as text, a div, one call that draws it, its data.

    The chart is reshaped for every screen: a single view takes the width of its container
    (capped at the width it was designed for), the title and subtitle move out of the picture into
    text that wraps, and the chart carries a ``description`` that Vega reads out as the SVG's label.
    """
    spec = clip_bars(dict(spec))
    figure = (spec.get("usermeta") or {}).get("db2book", {}).get("figure", "")
    chart_id = f"db2book-chart-{os.getpid()}-{next(_counter)}"
    spec.setdefault("description", describe(spec))
    title, subtitle = title_lines(spec)
    spec.pop("title", None)
    style = ""
    if isinstance(spec.get("width"), (int, float)) and not any(k in spec for k in _COMPOSITE):
        style = f' style="max-width: {int(spec["width"]) + 90}px"'
        spec["width"] = "container"
        spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    table = _data_table(spec)
    vega = to_vega(spec)
    payload = spec_json(vega)
    hold = f' style="min-height: {int(vega["height"]) + CHART_FRAME_PX}px"' \
        if isinstance(vega.get("height"), (int, float)) else ""
    off = json.dumps(off_grid(vega))
    caption = ""
    if title:
        caption += f'<p class="db2book-chart-title">{html.escape(title)}</p>'
    if subtitle:
        caption += "".join(f'<p class="db2book-chart-subtitle">{html.escape(line)}</p>' for line in subtitle)
    return (
        f'<figure class="db2book-figure"{style}>{caption}\n'
        f'<div class="db2book-chart" id="{chart_id}" data-figure="{figure}" role="figure" '
        f'aria-label="{html.escape(spec["description"])}"{hold}></div>\n'
        f'<script type="application/json" id="{chart_id}-spec">{payload}</script>\n'
        f"<script>window.db2bookEmbed({json.dumps(chart_id)}, {off});</script>\n"
        + (_table_html(*table) if table else "") + "</figure>"
    )


def spec_json(vega: dict) -> str:
    """A compiled spec as the text of an inert ``<script type="application/json">`` block: compact JSON with
    every ``<`` written ``\\u003c`` (so no ``</script>`` or ``<!--`` can end or change the block; JSON.parse
    reads the same string). The browser does not run this text while it loads the page: the page script
    parses it with JSON.parse only when the chart is about to draw."""
    return json.dumps(vega, separators=(",", ":")).replace("<", "\\u003c")


def to_vega(spec: dict) -> dict:
    """A Vega-Lite spec compiled to the Vega spec the page's runtime draws (at build time, in vl-convert).

    The reader's browser then needs the Vega runtime only, not the Vega-Lite compiler. The
    ``usermeta`` block is dropped: what it carries (the figure's name, its published points) is
    already on the page as the chart's ``data-figure`` and its "data" disclosure.
    """
    vega = engine.compile_here(spec)  # at build time, in the build's own process
    vega.pop("usermeta", None)
    return compact_data(vega)


def off_grid(vega: dict) -> list[str]:
    """The sliders of a compiled chart whose opening value is off their steps (a calibrated value no round
    grid holds): dragging can't bring the reader back to it, so the page offers a button that does."""
    ranges = [s for s in vega.get("signals", []) if (s.get("bind") or {}).get("input") == "range"
              and isinstance(s.get("value"), (int, float))]
    return [s["name"] for s in ranges if not on_grid(s["value"], s["bind"]["min"], s["bind"]["step"])]


#: An inline data set smaller than this (characters of JSON) stays as it is.
MIN_COMPACTED = 2000


def _number(value: float) -> float | int:
    """A number as JSON writes it shortest: 1234.0 -> 1234; other floats keep their exact value."""
    return int(value) if float(value).is_integer() and abs(value) < 2 ** 53 else float(value)


def _column(values: list) -> dict:
    """One column, encoded: ``{"u": distinct values, "r": run}`` when it is its distinct values,
    each repeated ``r`` times, over and over (a slider's grid or the x grid of a precomputed table);
    ``{"u": distinct values, "k": index of each row's value}`` when it has few distinct values;
    ``{"v": values}`` otherwise."""
    n = len(values)
    distinct = list(dict.fromkeys(values))
    run = next((i for i, v in enumerate(values) if v != values[0]), n)
    period = len(distinct) * run
    if n % period == 0 and all(values[i] == distinct[(i // run) % len(distinct)] for i in range(n)):
        return {"u": distinct, "r": run}
    if len(distinct) <= n // 4:
        index = {v: k for k, v in enumerate(distinct)}
        return {"u": distinct, "k": [index[v] for v in values]}
    return {"v": values}


def _is_finite_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _csv_rows(text: str, parse: dict) -> tuple[list[str], list[list]]:
    import csv
    import io

    reader = csv.reader(io.StringIO(text))
    names = next(reader)
    rows = [row for row in reader if row]
    columns = []
    for j, name in enumerate(names):
        raw = [row[j] for row in rows]
        if parse.get(name) == "number" and all(_is_finite_number(v) for v in raw if v != ""):
            columns.append([None if v == "" else _number(float(v)) for v in raw])
        else:
            columns.append(raw)
    return names, columns


def _numbers_downstream(vega: dict, name: str | None) -> set[str]:
    """The CSV columns of data set ``name`` that every data set reading it turns into numbers first
    (Vega-Lite compiles a CSV's ``parse`` into ``toNumber`` formulas downstream), when nothing else
    reads it. Those columns can be sent as JSON numbers rather than as quoted text: the rows
    are the same once ``toNumber`` has run (an empty text and ``null`` both become ``null``)."""
    if not name:
        return set()
    readers = [d for d in vega.get("data", []) if d.get("source") == name]
    text = json.dumps({k: v for k, v in vega.items() if k != "data"})
    if not readers or f'"data": "{name}"' in text:  # a mark reads the rows as they are
        return set()
    converted = []
    for reader in readers:
        cols = set()
        for t in reader.get("transform", []):
            m = t.get("type") == "formula" and re.fullmatch(r'toNumber\(datum\["([^"]+)"\]\)', t.get("expr", ""))
            if not m or m.group(1) != t.get("as"):
                break  # only the leading run of toNumber formulas is sure to come before any use
            cols.add(m.group(1))
        converted.append(cols)
    return set.intersection(*converted)


def compact_data(vega: dict) -> dict:
    """The same chart with its inline tables sent as columns, not rows.

    A precomputed slider grid repeats every slider value and every x on each of its rows, as CSV
    (or as JSON objects that repeat every key). Here each column is sent once, and its repeats as
    a rule (:func:`_column`); the page rebuilds the very same rows (same fields, same numbers: a
    decimal text parses to the same double in Python and in JavaScript) with a Vega ``sequence``
    transform and one ``formula`` per column, reading the columns from a signal.
    """
    signals = vega.setdefault("signals", [])
    for k, data in enumerate(vega.get("data", [])):
        values = data.get("values")
        if values is None or len(json.dumps(values, separators=(",", ":"))) < MIN_COMPACTED:
            continue
        fmt = data.get("format") or {}
        if isinstance(values, str) and fmt.get("type") == "csv":
            parse = dict(fmt.get("parse") or {})
            parse.update({name: "number" for name in _numbers_downstream(vega, data.get("name"))})
            names, columns = _csv_rows(values, parse)
        elif isinstance(values, list) and values and all(isinstance(v, dict) for v in values):
            names = list(dict.fromkeys(key for row in values for key in row))
            columns = [[row.get(name) for row in values] for name in names]
        else:
            continue
        n = len(columns[0]) if columns else 0
        signal = f"db2book_table_{k}"
        encoded = [_column(col) for col in columns]
        signals.append({"name": signal, "value": encoded})
        formulas = []
        for j, (name, col) in enumerate(zip(names, encoded)):
            ref = f"{signal}[{j}]"
            if "r" in col:
                expr = f"{ref}.u[floor(datum.db2book_row / {col['r']}) % {len(col['u'])}]"
            elif "k" in col:
                expr = f"{ref}.u[{ref}.k[datum.db2book_row]]"
            else:
                expr = f"{ref}.v[datum.db2book_row]"
            formulas.append({"type": "formula", "as": name, "expr": expr})
        data.pop("values")
        data.pop("format", None)
        data["transform"] = ([{"type": "sequence", "start": 0, "stop": n, "as": "db2book_row"}] + formulas
                             + data.get("transform", []))
    return vega


def _book_renderer(spec: dict, **_: object) -> dict:
    return {"text/html": embed_html(spec)}


alt.renderers.register(BOOK_RENDERER, _book_renderer)


def enable() -> str:
    """Pick the renderer for this surface and return its name."""
    name = BOOK_RENDERER if os.environ.get("DB2BOOK_BUILD") == "1" else "svg"
    alt.renderers.enable(name)
    return name
