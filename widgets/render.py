"""How charts reach the reader, on each surface.

* **The static book.** ``make book`` sets ``DB2BOOK_BUILD=1``; charts are then emitted as a
  small ``text/html`` snippet that calls ``window.vegaEmbed`` from the bundle that the book's
  Sphinx extension (``book/_ext/offline_assets.py``) serves from the site itself. No CDN.
* **Live notebooks and Voila.** Charts are rendered to SVG in the kernel by ``vl-convert``
  (Altair's ``svg`` renderer). That works in JupyterLab, Notebook, VS Code and Voila with no
  JavaScript extension and no internet. Interactivity there comes from the ipywidgets explorer.
"""
from __future__ import annotations

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
    window.vegaEmbed('#' + id, spec, {actions: false, renderer: 'svg'}).then(function (result) {
      window.db2bookViews[id] = result.view;
      document.getElementById(id).setAttribute('data-rendered', 'true');
    }).catch(function (err) {
      document.getElementById(id).textContent = 'This chart could not be drawn: ' + err;
      console.error(err);
    });
  }
  if (window.vegaEmbed) { go(); } else { window.addEventListener('DOMContentLoaded', go); }
};
""".strip()


def embed_html(spec: dict) -> str:
    """HTML for one chart on the static site: a div and a call to the site's own vega-embed."""
    figure = (spec.get("usermeta") or {}).get("db2book", {}).get("figure", "")
    chart_id = f"db2book-chart-{os.getpid()}-{next(_counter)}"
    payload = json.dumps(spec, separators=(",", ":")).replace("</", "<\\/")
    return (
        f'<div class="db2book-chart" id="{chart_id}" data-figure="{figure}"></div>\n'
        f"<script>\n{_EMBED_JS}\nwindow.db2bookEmbed({json.dumps(chart_id)}, {payload});\n</script>"
    )


def _book_renderer(spec: dict, **_: object) -> dict:
    return {"text/html": embed_html(spec)}


alt.renderers.register(BOOK_RENDERER, _book_renderer)


def enable() -> str:
    """Pick the renderer for this surface and return its name."""
    name = BOOK_RENDERER if os.environ.get("DB2BOOK_BUILD") == "1" else "svg"
    alt.renderers.enable(name)
    return name
