"""How charts reach the reader, on each surface.

* **The static book.** ``make book`` sets ``DB2BOOK_BUILD=1``; charts are then emitted as a
  small ``text/html`` snippet that calls ``window.vegaEmbed`` from the bundle that the book's
  Sphinx extension (``book/_ext/offline_assets.py``) serves from the site itself. No CDN.
* **Live notebooks and Voila.** Charts are rendered to SVG in the kernel by ``vl-convert``
  (Altair's ``svg`` renderer). That works in JupyterLab, Notebook, VS Code and Voila with no
  JavaScript extension and no internet. Interactivity there comes from the ipywidgets explorer.
"""
from __future__ import annotations

import html
import itertools
import json
import os

import altair as alt


BOOK_RENDERER = "db2book"
_counter = itertools.count()

_EMBED_JS = """
window.db2bookViews = window.db2bookViews || {};
window.db2bookEmbed = window.db2bookEmbed || function (id, spec) {
  function go() {
    var el = document.getElementById(id);
    // a legend of one column, labels never cut, on a screen too narrow for three
    var wide = el.clientWidth >= 560;
    spec.config = spec.config || {};
    spec.config.legend = Object.assign({columns: wide ? 3 : 1, labelLimit: Math.max(120, el.clientWidth - 60)},
                                       spec.config.legend || {});
    window.vegaEmbed('#' + id, spec, {actions: false, renderer: 'svg'}).then(function (result) {
      window.db2bookViews[id] = result.view;
      // the chart's text alternative: the picture is one image named by its description
      var svg = el.querySelector('svg');
      if (svg && spec.description) {
        svg.setAttribute('role', 'img');
        svg.setAttribute('aria-label', spec.description);
      }
      // a phone has no hover: a tap on a mark replays as a pointer move, which shows its tooltip
      el.addEventListener('pointerup', function (e) {
        if (e.pointerType !== 'touch') return;
        ['pointermove', 'mousemove'].forEach(function (type) {
          var Ev = type === 'pointermove' ? PointerEvent : MouseEvent;
          e.target.dispatchEvent(new Ev(type, {bubbles: true, clientX: e.clientX, clientY: e.clientY,
                                               pointerType: 'mouse'}));
        });
      });
      el.setAttribute('data-rendered', 'true');
    }).catch(function (err) {
      el.textContent = 'This chart could not be drawn: ' + err;
      console.error(err);
    });
  }
  if (window.vegaEmbed) { go(); } else { window.addEventListener('DOMContentLoaded', go); }
};
""".strip()

#: Top-level keys of a chart that lays out several views; such a chart keeps its fixed width.
_COMPOSITE = ("hconcat", "vconcat", "concat", "facet", "repeat")
#: The largest inline data set shown in a chart's "data" disclosure when the chart names no points.
MAX_DISCLOSED_ROWS = 40


def _title_lines(spec: dict) -> tuple[str, list[str]]:
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
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{int(value):,}" if value == int(value) and abs(value) < 1e15 else f"{value:,.10g}"
    return str(value)


def _table_html(caption: str, columns: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th scope=\"col\">{html.escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in rows)
    return (f'<details class="db2book-data"><summary>Data: {html.escape(caption.lower())}</summary>'
            f'<div class="db2book-data-scroll" tabindex="0"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            "</div></details>")


def describe(spec: dict) -> str:
    """The chart's text alternative: its title, subtitle and what its sliders are."""
    title, subtitle = _title_lines(spec)
    sliders = [p["bind"].get("name", p["name"]).strip() for p in spec.get("params", []) if "bind" in p]
    parts = [title] + subtitle
    if sliders:
        parts.append("Sliders: " + "; ".join(sliders) + ".")
    return " ".join(p.rstrip() if p.rstrip().endswith(".") else p.rstrip() + "." for p in parts if p.strip())


def embed_html(spec: dict) -> str:
    """HTML for one chart on the static site: its title as text, a div, the site's own vega-embed, its data.

    The chart is reshaped for every screen: a single view takes the width of its container
    (capped at the width it was designed for), the title and subtitle move out of the picture into
    text that wraps, and the chart carries a ``description`` that Vega reads out as the SVG's label.
    """
    spec = dict(spec)
    figure = (spec.get("usermeta") or {}).get("db2book", {}).get("figure", "")
    chart_id = f"db2book-chart-{os.getpid()}-{next(_counter)}"
    spec.setdefault("description", describe(spec))
    title, subtitle = _title_lines(spec)
    spec.pop("title", None)
    style = ""
    if isinstance(spec.get("width"), (int, float)) and not any(k in spec for k in _COMPOSITE):
        style = f' style="max-width: {int(spec["width"]) + 90}px"'
        spec["width"] = "container"
        spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    payload = json.dumps(spec, separators=(",", ":")).replace("</", "<\\/")
    caption = ""
    if title:
        caption += f'<p class="db2book-chart-title">{html.escape(title)}</p>'
    if subtitle:
        caption += "".join(f'<p class="db2book-chart-subtitle">{html.escape(line)}</p>' for line in subtitle)
    table = _data_table(spec)
    return (
        f'<figure class="db2book-figure"{style}>{caption}\n'
        f'<div class="db2book-chart" id="{chart_id}" data-figure="{figure}" role="figure" '
        f'aria-label="{html.escape(spec["description"])}"></div>\n'
        f"<script>\n{_EMBED_JS}\nwindow.db2bookEmbed({json.dumps(chart_id)}, {payload});\n</script>\n"
        + (_table_html(*table) if table else "") + "</figure>"
    )


def _book_renderer(spec: dict, **_: object) -> dict:
    return {"text/html": embed_html(spec)}


alt.renderers.register(BOOK_RENDERER, _book_renderer)


def enable() -> str:
    """Pick the renderer for this surface and return its name."""
    name = BOOK_RENDERER if os.environ.get("DB2BOOK_BUILD") == "1" else "svg"
    alt.renderers.enable(name)
    return name
