"""Sphinx extension: make every page of the book work with no internet.

Two third-party bundles arrive through pip and are copied into the built site at build time
(never committed to the repository):

* the Vega / Vega-Lite / vega-embed bundle, produced by ``vl_convert.javascript_bundle`` for
  the Vega-Lite version that Altair writes, wrapped in a function scope so its minified globals
  cannot clash with Sphinx's own scripts. It is linked only from pages that draw a chart.
* Equations are converted to MathML at build time (``latex2mathml``), which browsers render
  natively: no MathJax, no script and no request for math at all.
"""
from __future__ import annotations

import hashlib
import re
import shutil

from docutils import nodes
from pathlib import Path

VEGA_DIR = "vega"
VEGA_FILE = "vega-bundle.js"
CHART_MARKER = "window.db2bookEmbed"


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


def _mathml(latex: str, display: str) -> str:
    from latex2mathml.converter import convert

    return convert(latex.strip(), display=display)


def _visit_inline_math(self, node):
    self.body.append(f'<span class="math notranslate">{_mathml(node.astext(), "inline")}</span>')
    raise nodes.SkipNode


def _visit_block_math(self, node):
    if node.get("number"):
        self.body.append(f'<div class="math notranslate math-numbered" id="{node["ids"][0] if node["ids"] else ""}">')
        self.body.append(f'<span class="eqno">({node["number"]})</span>')
    else:
        self.body.append('<div class="math notranslate">')
    self.body.append(_mathml(node.astext(), "block"))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _config_inited(app, config):
    config.html_math_renderer = "mathml"
    # An explicit colour mode: without it the theme logs "Got invalid theme mode" on every page.
    config.html_context = {**config.html_context, "default_mode": "light"}


BOOK_CSS = """
div.math { text-align: center; margin: 0.8em 0; overflow-x: auto; }
div.math math[display="block"] { display: block; margin: 0 auto; font-size: 1.1em; }
div.math-numbered { position: relative; }
div.math-numbered .eqno { position: absolute; right: 0; top: 50%; transform: translateY(-50%); }
.db2book-chart { margin: 1em 0; overflow-x: auto; }
.cell_output table { font-size: 0.82rem; }
.db2book-chart .vega-bindings { font-size: 0.9rem; margin-top: 0.4em; }
.db2book-chart .vega-bind { display: block; margin: 0.2em 0; }
.db2book-chart .vega-bind-name { display: inline-block; min-width: 16em; }
.db2book-chart .vega-bind input[type=range] { vertical-align: middle; width: 14em; }
"""


def _builder_inited(app):
    app.add_css_file("db2book.css")


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
    (static / "db2book.css").write_text(BOOK_CSS.lstrip(), encoding="utf-8")
    # pages without an icon link (the root redirect) make browsers ask for /favicon.ico
    (Path(app.outdir) / "favicon.ico").write_bytes(_favicon_ico())
    _drop_fontawesome_js(Path(app.outdir))


def _favicon_ico(size: int = 16, rgb: tuple[int, int, int] = (0x1F, 0x4E, 0x79)) -> bytes:
    """A one-colour square icon: a PNG wrapped in an ICO container (no image library needed)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes(rgb) * size for _ in range(size))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    header = struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(png), 22)
    return header + png


FONTAWESOME_JS = re.compile(r'<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?')


def _drop_fontawesome_js(outdir: Path) -> None:
    """Remove the theme's 1.5 MB FontAwesome *script* from every page.

    The theme also ships FontAwesome as a web font with its CSS, which draws the same icons;
    the script only converts them to inline SVG. Dropping it cuts every first page load by 1.5 MB.
    """
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = FONTAWESOME_JS.sub("", text)
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app):
    app.add_html_math_renderer("mathml", (_visit_inline_math, None), (_visit_block_math, None))
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
