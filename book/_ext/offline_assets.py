"""Sphinx extension: make every page of the book work with no internet.

Two third-party bundles arrive through pip and are copied into the built site at build time
(never committed to the repository):

* the Vega / Vega-Lite / vega-embed bundle, produced by ``vl_convert.javascript_bundle`` for
  the Vega-Lite version that Altair writes, wrapped in a function scope so its minified globals
  cannot clash with Sphinx's own scripts. It is linked only from pages that draw a chart.
* MathJax 3 (the ``django-static-mathjax`` wheel), so that equations render offline.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

VEGA_DIR = "vega"
VEGA_FILE = "vega-bundle.js"
MATHJAX_DIR = "mathjax"
CHART_MARKER = "window.db2bookEmbed"
MATHJAX_PARTS = ("output/chtml", "input/tex", "ui", "a11y", "adaptors")


def _vega_bundle_text() -> str:
    import altair as alt
    import vl_convert

    major_minor = "v" + ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    bundle = vl_convert.javascript_bundle(vl_version=major_minor)
    return "(function () {\n" + bundle + "\n})();\n"


def _cached_bundle(cache_dir: Path) -> Path:
    import altair as alt
    import vl_convert

    key = hashlib.sha256(f"{alt.SCHEMA_VERSION}|{vl_convert.__version__}".encode()).hexdigest()[:12]
    path = cache_dir / f"vega-bundle-{key}.js"
    if not path.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(_vega_bundle_text(), encoding="utf-8")
        tmp.replace(path)
    return path


def _mathjax_es5() -> Path:
    import mathjax  # the django-static-mathjax wheel

    return Path(list(mathjax.__path__)[0]) / "static" / "mathjax" / "es5"


def _config_inited(app, config):
    config.mathjax_path = f"{MATHJAX_DIR}/tex-chtml.js"


def _page_context(app, pagename, templatename, context, doctree):
    if CHART_MARKER in context.get("body", ""):
        app.add_js_file(f"{VEGA_DIR}/{VEGA_FILE}")


def _build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    cache = Path(app.outdir).parent / ".offline-cache"
    (static / VEGA_DIR).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_cached_bundle(cache), static / VEGA_DIR / VEGA_FILE)
    target = static / MATHJAX_DIR
    if target.exists():
        shutil.rmtree(target)
    source = _mathjax_es5()
    target.mkdir(parents=True)
    shutil.copyfile(source / "tex-chtml.js", target / "tex-chtml.js")
    # Only what tex-chtml.js loads on demand: its fonts, TeX extensions and the menu's parts.
    for sub in MATHJAX_PARTS:
        shutil.copytree(source / sub, target / sub)


def setup(app):
    app.connect("config-inited", _config_inited)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
