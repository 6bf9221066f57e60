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


BOOK_CSS = """
/* Display equations: centred when they fit, scrolled sideways inside their own box when not
   (the theme lays div.math out right to left, which cut off an equation's left side on a phone). */
div.math { display: flex; flex-direction: row; justify-content: flex-start; margin: 0.8em 0; overflow-x: auto; overflow-y: hidden; max-width: 100%; }
div.math math[display="block"] { flex: none; margin: 0 auto; padding: 0.1em 0.3em; font-size: 1.1em; }
div.math-numbered { position: relative; padding-right: 2.5em; }
div.math-numbered .eqno { position: absolute; right: 0; top: 50%; transform: translateY(-50%); }

/* Charts take the width they are given, down to a phone's; their titles are text that wraps. */
figure.db2book-figure { margin: 1.4em 0; width: 100%; }
.db2book-chart-title { font-weight: 600; margin: 0 0 0.15em; line-height: 1.3; }
.db2book-chart-subtitle { font-size: 0.85rem; color: #3d3d3d; margin: 0; line-height: 1.35; }
.db2book-chart { margin: 0.5em 0 0.3em; width: 100%; max-width: 100%; }
.db2book-chart.vega-embed { display: block; width: 100%; }
.db2book-chart svg { max-width: 100%; height: auto; }
.db2book-chart .vega-bindings { font-size: 0.9rem; margin-top: 0.4em; }
.db2book-chart .vega-bind { display: flex; flex-wrap: wrap; align-items: center; gap: 0.1em 0.7em; margin: 0.35em 0; }
.db2book-chart .vega-bind-name { flex: 0 1 17em; }
.db2book-chart .vega-bind input[type=range] { flex: 1 1 9em; min-width: 8em; max-width: 16em; margin: 0; }
.db2book-chart .vega-bind .vega-bind-name + input + span, .db2book-chart .vega-bind span:last-child {
  font-variant-numeric: tabular-nums; min-width: 4em; }
details.db2book-data { font-size: 0.85rem; margin: 0.3em 0 0; }
details.db2book-data summary { cursor: pointer; color: #1f4e79; }
.db2book-data-scroll { overflow-x: auto; max-width: 100%; }
details.db2book-data table { border-collapse: collapse; margin: 0.4em 0; }
details.db2book-data th, details.db2book-data td { padding: 0.15em 0.6em; border-bottom: 1px solid #ddd;
  text-align: left; vertical-align: top; }

/* Tables as printed: text wraps in full, a wide table scrolls inside its own box. */
.cell_output table { font-size: 0.82rem; }
div.db2book-table { overflow-x: auto; max-width: 100%; margin: 0.4em 0 0.8em; }
table.db2book-table { border-collapse: collapse; }
table.db2book-table th, table.db2book-table td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd;
  vertical-align: top; white-space: normal; }
table.db2book-table td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.db2book-table td.text { text-align: left; min-width: 6em; max-width: 32em; overflow-wrap: anywhere; }
table.db2book-table thead th { text-align: left; vertical-align: bottom; }
p.db2book-table-note { font-size: 0.85rem; color: #3d3d3d; margin: 0.2em 0; }
.cell_output table td, .cell_output table th { white-space: normal; }
div.cell_output pre { white-space: pre-wrap; overflow-wrap: anywhere; }

/* The glossary's A-Z line. */
nav.db2book-az { display: flex; flex-wrap: wrap; gap: 0.2em 0.6em; margin: 0.5em 0 1em; font-weight: 600; }
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
    _fix_pages(Path(app.outdir))


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
SEARCH_BUTTON_LABEL = re.compile(r'(<button class="[^"]*search-button__button[^"]*"[^>]*?) aria-label="Search"')
TOGGLE_SUMMARY_LABEL = re.compile(r'<summary aria-label="Toggle hidden content">')
CITATION_ROLE = re.compile(r'(<div class="citation" id="[^"]*") role="doc-biblioentry"')
SCRIPT_LINE = re.compile(r"^\s*<script[^>]*>.*</script>\s*$")


def _drop_repeated_scripts(text: str) -> str:
    """Keep the first of identical script tags in a page's head.

    Jupyter Book 1.x registers sphinx-thebe and sphinx-togglebutton twice, so every page
    declared ``const THEBE_JS_URL`` twice: a console error ("has already been declared").
    """
    head_end = text.find("</head>")
    if head_end < 0:
        return text
    seen, lines = set(), []
    for line in text[:head_end].split("\n"):
        if SCRIPT_LINE.match(line):
            if line.strip() in seen:
                continue
            seen.add(line.strip())
        lines.append(line)
    return "\n".join(lines) + text[head_end:]


def fix_page(text: str) -> str:
    """One built page, mended for every reader (each fix is for a measured defect).

    * the theme's 1.5 MB FontAwesome *script* goes: the theme also ships FontAwesome as a web
      font with its CSS, which draws the same icons (the script only turns them into inline SVG);
    * script tags registered twice are kept once (the THEBE_JS_URL console error);
    * the search button and the "Show code cell source" toggles are named by the text they
      show, not by a different ``aria-label`` (axe: label-content-name-mismatch);
    * bibliography entries are list items of the citation list (axe: aria-required-children);
    * a code block can take the keyboard focus, so a reader can scroll it (axe: scrollable-region-focusable).
    """
    text = FONTAWESOME_JS.sub("", text)
    text = _drop_repeated_scripts(text)
    text = SEARCH_BUTTON_LABEL.sub(r"\1", text)
    text = TOGGLE_SUMMARY_LABEL.sub("<summary>", text)
    text = CITATION_ROLE.sub(r'\1 role="listitem"', text)
    text = text.replace("<pre>", '<pre tabindex="0">')  # a code block that scrolls is reachable by keyboard
    return text


def _fix_pages(outdir: Path) -> None:
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = fix_page(text)
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app):
    app.add_html_math_renderer("mathml", (_visit_inline_math, None), (_visit_block_math, None))
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _builder_inited)
    app.connect("doctree-read", _hide_chart_cells)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
