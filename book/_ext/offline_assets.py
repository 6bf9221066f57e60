"""Sphinx extension: make every page of the book work with no internet, and weigh little (the theme's weight is
cut by :mod:`theme_weight`, its pages mended by :mod:`page_fixes`).

Third-party code arrives through a package manager and is copied into the built site at build
time (never committed to the repository):

* the Vega runtime, ``vega.min.js`` from the npm package ``vega`` (``make node`` installs it, at
  the version package-lock.json pins), wrapped so that it always defines ``window.vega`` (a page
  with an AMD loader would otherwise take it as a module), followed by the book's own chart code
  (``book/_static/db2book/charts.js``). Charts arrive on the page already compiled from Vega-Lite to
  Vega (``widgets/render.py``), so the reader never downloads the Vega-Lite compiler. The file is
  one static file shared by every page that draws a chart: a reader's second chapter loads it
  from the cache. Only pages that draw a chart name it, and they load it when their first chart comes
  near the screen (``page.js``): the text paints first, and a phone loads no chart code for a reader
  still reading the introduction.
* Equations are converted to MathML at build time (``latex2mathml``), which browsers render
  natively: no MathJax, no script and no request for math at all.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re

from pathlib import Path

from docutils import nodes
from page_fixes import fix_pages  # book/_ext is on the path: Sphinx's local_extensions
from precompress import precompress_site
from theme_weight import purge_theme_css, slim_icon_font

VEGA_DIR = "vega"
VEGA_FILE = "vega-runtime.js"
CHART_MARKER = "window.db2bookEmbed"
ROOT = Path(__file__).resolve().parents[2]
VEGA_MIN_JS = ROOT / "node_modules" / "vega" / "build" / "vega.min.js"


def page_script() -> str:
    """The page script (:data:`PAGE_JS`) without its comment lines: the code a page carries inline."""
    lines = PAGE_JS.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))


def vega_runtime_text(vega_min_js: Path = VEGA_MIN_JS) -> str:
    """The chart runtime a page loads: Vega (from npm) in its own scope, then the book's chart code."""
    if not vega_min_js.exists():
        raise FileNotFoundError(f"{vega_min_js} is missing: run `make node` (npm ci installs the Vega runtime "
                                "that package-lock.json pins)")
    vega = vega_min_js.read_text(encoding="utf-8")
    # define/module/exports are undefined inside: the UMD wrapper then always sets window.vega
    own = CHARTS_JS.read_text(encoding="utf-8")
    return "(function (define, module, exports) {\n" + vega + "\n}).call(window);\n" + own


def _mathml(latex: str, display: str) -> str:
    from latex2mathml.converter import convert

    return convert(latex.strip(), display=display)


def _visit_inline_math(self, node):
    self.body.append(f'<span class="math notranslate">{_mathml(node.astext(), "inline")}</span>')
    raise nodes.SkipNode


def _visit_block_math(self, node):
    if node.get("number"):
        self.body.append(f'<div class="math notranslate math-numbered" tabindex="0" '
                         f'id="{node["ids"][0] if node["ids"] else ""}">')
        self.body.append(f'<span class="eqno">({node["number"]})</span>')
    else:
        self.body.append('<div class="math notranslate" tabindex="0">')
    self.body.append(_mathml(node.astext(), "block"))
    self.body.append("</div>\n")
    raise nodes.SkipNode


_IMPORT = re.compile(r"^\s*(?:from\s+\S+\s+)?import\s|^\s*#")


def _is_chart_call(code: str) -> bool:
    """A cell that only imports and makes one chart: the chart is the point, the code is noise."""
    statements = [line for line in code.splitlines() if line.strip() and not _IMPORT.match(line)]
    return len(statements) == 1 and statements[0].rstrip().endswith(")")


def _hide_chart_cells(app, doctree):
    """Drop the input of every cell whose output is a chart and whose code is one call.

    The notebook (and a reader who opens it) still has the cell; the static page shows the chart.
    """
    for cell in list(doctree.findall(nodes.container)):
        if "cell" not in cell.get("classes", []):
            continue
        inputs = [c for c in cell.children if "cell_input" in c.get("classes", [])]
        outputs = [c for c in cell.children if "cell_output" in c.get("classes", [])]
        if len(inputs) != 1 or not outputs:
            continue
        drawn = any(CHART_MARKER in raw.astext() for out in outputs for raw in out.findall(nodes.raw))
        if drawn and _is_chart_call(inputs[0].astext()):
            cell.remove(inputs[0])


def _config_inited(app, config):
    config.html_math_renderer = "mathml"
    # An explicit colour mode: without it the theme logs "Got invalid theme mode" on every page.
    config.html_context = {**config.html_context, "default_mode": "light"}





#: The book's own files, read at build time: its stylesheet, its chart code (after the Vega runtime, in
#: one file per site) and its page script (inline in every page's head: a few hundred bytes, no request).
#: Not the root ``_static/``: Jupyter Book would add every script there to every page a second time.
OWN = ROOT / "book" / "_static" / "db2book"
BOOK_CSS, CHARTS_JS, PAGE_JS = OWN / "book.css", OWN / "charts.js", OWN / "page.js"


def _builder_inited(app):
    app.add_css_file("db2book.css")
    app.add_js_file(None, body=page_script())


@functools.lru_cache(maxsize=1)
def runtime_version() -> str:
    """A digest of the chart runtime's text: its URL changes when the runtime does (no stale cached copy)."""
    return hashlib.sha256(vega_runtime_text().encode("utf-8")).hexdigest()[:8]


def _page_context(app, pagename, templatename, context, doctree):
    if CHART_MARKER in context.get("body", ""):
        # not a <script> tag: the page script (page.js) loads it when the first chart nears the screen
        url = context["pathto"](f"_static/{VEGA_DIR}/{VEGA_FILE}", 1) + "?v=" + runtime_version()
        app.add_js_file(None, body=f"window.db2bookRuntime = {json.dumps(url)};")


def _build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    (static / VEGA_DIR).mkdir(parents=True, exist_ok=True)
    (static / VEGA_DIR / VEGA_FILE).write_text(vega_runtime_text(), encoding="utf-8")
    (static / "db2book.css").write_text(BOOK_CSS.read_text(encoding="utf-8"), encoding="utf-8")
    # pages without an icon link (the root redirect) make browsers ask for /favicon.ico
    (Path(app.outdir) / "favicon.ico").write_bytes(_favicon_ico())
    fix_pages(Path(app.outdir))
    slim_icon_font(Path(app.outdir), skip=(VEGA_FILE,))
    purge_theme_css(Path(app.outdir))


def _precompress(app, exception):
    """The ``.br`` and ``.gz`` copies of the site's text files, as readers get them (after the theme rewrote
    ``pygments.css`` in its own build-finished handler)."""
    if exception is None and app.builder.format == "html":
        precompress_site(Path(app.outdir))


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


def setup(app):
    app.add_html_math_renderer("mathml", (_visit_inline_math, None), (_visit_block_math, None))
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _builder_inited)
    app.connect("doctree-read", _hide_chart_cells)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    app.connect("build-finished", _precompress, priority=900)  # after every extension wrote its files
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
