"""Sphinx extension: make every page of the book work with no internet, and weigh little.

Third-party code arrives through a package manager and is copied into the built site at build
time (never committed to the repository):

* the Vega runtime, ``vega.min.js`` from the npm package ``vega`` (``make node`` installs it, at
  the version package-lock.json pins), wrapped so that it always defines ``window.vega`` (a page
  with an AMD loader would otherwise take it as a module), followed by the book's own chart code
  (``book/_static/db2book/charts.js``). Charts arrive on the page already compiled from Vega-Lite to
  Vega (``widgets/render.py``), so the reader never downloads the Vega-Lite compiler. The file is
  one static file shared by every page that draws a chart: a reader's second chapter loads it
  from the cache. It is linked only from pages that draw a chart.
* Equations are converted to MathML at build time (``latex2mathml``), which browsers render
  natively: no MathJax, no script and no request for math at all.
"""
from __future__ import annotations

import re

from docutils import nodes
from pathlib import Path

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


def _page_context(app, pagename, templatename, context, doctree):
    if CHART_MARKER in context.get("body", ""):
        app.add_js_file(f"{VEGA_DIR}/{VEGA_FILE}")


def _build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    (static / VEGA_DIR).mkdir(parents=True, exist_ok=True)
    (static / VEGA_DIR / VEGA_FILE).write_text(vega_runtime_text(), encoding="utf-8")
    (static / "db2book.css").write_text(BOOK_CSS.read_text(encoding="utf-8"), encoding="utf-8")
    # pages without an icon link (the root redirect) make browsers ask for /favicon.ico
    (Path(app.outdir) / "favicon.ico").write_bytes(_favicon_ico())
    _fix_pages(Path(app.outdir))
    _slim_icon_font(Path(app.outdir))
    _purge_theme_css(Path(app.outdir))


#: One FontAwesome icon rule of the theme's stylesheet: ``.fa-github:before{content:"\f09b"}``
#: (a rule may list several names for one glyph).
FA_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+::?before,?)+)\{content:"((?:\\[0-9a-fA-F]+ ?|[^"\\])+)"\}')
FA_NAME = re.compile(r"\bfa-[a-z0-9-]+")


def _glyph_codepoints(content: str) -> set[int]:
    """The code points of a CSS ``content`` string: ``\f09b`` escapes and plain characters."""
    return {int(m.group(1), 16) if m.group(1) else ord(m.group(2))
            for m in re.finditer(r"\\([0-9a-fA-F]+) ?|(.)", content)}


def prune_icon_css(css: str, used: set[str]) -> tuple[str, set[int]]:
    """The stylesheet with only the icon rules of the icons in ``used`` (``fa-...`` names), and
    the code points those icons draw. Every other rule is kept as it is."""
    codepoints: set[int] = set()

    def keep(match: re.Match) -> str:
        selectors = [sel for sel in match.group(1).rstrip(",").split(",")
                     if FA_NAME.search(sel).group(0) in used]
        if not selectors:
            return ""
        codepoints.update(_glyph_codepoints(match.group(2)))
        return ",".join(selectors) + "{content:\"" + match.group(2) + "\"}"

    return FA_RULE.sub(keep, css), codepoints


def _used_icons(outdir: Path) -> set[str]:
    """Every ``fa-...`` class name that a built page or a theme script names (scripts may add icons)."""
    names: set[str] = set()
    for path in list(outdir.rglob("*.html")) + list((outdir / "_static").rglob("*.js")):
        if path.name == VEGA_FILE:
            continue
        names.update(FA_NAME.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return names


def _slim_icon_font(outdir: Path) -> None:
    """Send the reader only the icons the book shows.

    The theme's stylesheet carries a rule for each of FontAwesome's ~1,900 icons (72 KB) and
    its web fonts hold every glyph (275 KB for the solid and brand fonts), for the 20 or so
    icons of the book's navigation bar. The built site keeps the rules of the icons that a page
    or a theme script names and subsets the ``.woff2`` fonts to their glyphs (fontTools). The
    ``.ttf`` fallbacks stay whole (a browser that reads WOFF2 never asks for them).
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    css_path = outdir / "_static" / "styles" / "pydata-sphinx-theme.css"
    fonts = sorted((outdir / "_static" / "vendor" / "fontawesome").rglob("*.woff2"))
    if not css_path.exists() or not fonts:
        return
    css, codepoints = prune_icon_css(css_path.read_text(encoding="utf-8"), _used_icons(outdir))
    if not codepoints:
        raise RuntimeError(f"{css_path}: no FontAwesome icon rule matched; the theme's CSS changed shape")
    css_path.write_text(css, encoding="utf-8")
    for path in fonts:
        font = TTFont(path)
        options = subset.Options()
        options.flavor = "woff2"
        options.ignore_missing_unicodes = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(codepoints))
        subsetter.subset(font)
        font.flavor = "woff2"
        font.save(path)


CSS_CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _split_selectors(prelude: str) -> list[str]:
    """A rule's selector list split at its top-level commas (not those inside ``:is(...)``)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return [p.strip() for p in parts if p.strip()]


def purge_css(css: str, words: set[str]) -> str:
    """The stylesheet without the rules that can match nothing on the site.

    A selector is kept when every class it names outside ``:is()``-like brackets is a word of some
    built page or script (or starts with a word that ends in "-": scripts build names such as
    ``bs-tooltip-`` + side). A
    rule loses the selectors that can't match and goes when none is left; rules with no class
    (elements, ids, ``:root``), ``@font-face`` and other at-rules stay, ``@media`` blocks are purged
    inside, and licence comments (``/*! ...``) stay.
    """
    import tinycss2

    prefixes = tuple(w for w in words if w.endswith("-"))

    def used(selector: str) -> bool:
        bare = re.sub(r'\[[^\]]*\]|"[^"]*"' + r"|'[^']*'", "", selector)
        while "(" in bare:  # :is(), :where(), :not(), :has(): their arguments never make a rule unusable
            stripped = re.sub(r"\([^()]*\)", "", bare)
            if stripped == bare:
                break
            bare = stripped
        return all(name in words or name.startswith(prefixes) for name in CSS_CLASS.findall(bare))

    def purge(rules) -> list[str]:
        out = []
        for rule in rules:
            if rule.type == "qualified-rule":
                keep = [sel for sel in _split_selectors(tinycss2.serialize(rule.prelude)) if used(sel)]
                if keep:
                    out.append(",".join(keep) + "{" + tinycss2.serialize(rule.content) + "}")
            elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports", "layer", "container") \
                    and rule.content is not None:
                inner = purge(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True))
                if inner:
                    out.append("@" + rule.at_keyword + tinycss2.serialize(rule.prelude) + "{" + "".join(inner) + "}")
            elif rule.type == "comment":
                if rule.value.startswith("!"):
                    out.append("/*" + rule.value + "*/\n")
            elif rule.type != "whitespace":
                out.append(rule.serialize())
        return out

    return "".join(purge(tinycss2.parse_stylesheet(css, skip_comments=False, skip_whitespace=True)))


def _site_words(outdir: Path) -> set[str]:
    """Every word of every built page and script: the class names the site can ever use."""
    words: set[str] = set()
    for path in list(outdir.rglob("*.html")) + list((outdir / "_static").rglob("*.js")):
        words.update(WORD.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return words


def _purge_theme_css(outdir: Path) -> None:
    """The theme's stylesheet (Bootstrap and pydata, 312 KB) holds rules for components the book
    never shows (carousels, toasts, accordions...); the extensions' stylesheets likewise (myst-nb's
    43 KB is mostly JupyterLab's widget and output classes, which a static page never has): each
    built copy keeps only the rules that can match. The book's own stylesheet is left whole."""
    static = outdir / "_static"
    paths = [static / "styles" / "pydata-sphinx-theme.css", static / "styles" / "sphinx-book-theme.css",
             *sorted(p for p in static.glob("*.css") if p.name != "db2book.css")]
    words = _site_words(outdir)
    for path in paths:
        if path.exists():
            path.write_text(purge_css(path.read_text(encoding="utf-8"), words), encoding="utf-8")


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
SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*'
                            r'(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)[^"]*"></script>')
DESIGN_ASSETS = re.compile(r'\s*<link rel="stylesheet" type="text/css" '
                           r'href="[^"]*_static/sphinx-design\.min\.css[^"]*" />'
                           r'|\s*<script [^>]*src="[^"]*_static/design-tabs\.js[^"]*"></script>')
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


def fix_page(text: str, is_search_page: bool = False) -> str:
    """One built page, mended for every reader (each fix is for a measured defect).

    * the theme's 1.5 MB FontAwesome *script* goes: the theme also ships FontAwesome as a web
      font with its CSS, which draws the same icons (the script only turns them into inline SVG);
    * script tags registered twice are kept once (the THEBE_JS_URL console error);
    * weight a page does not use goes: the search index and its scripts (135 KB and more) load
      only on the search page, where the theme's search box sends the reader; sphinx-design's
      stylesheet and tab script (63 KB) only on a page that has one of its components;
    * the search button and the "Show code cell source" toggles are named by the text they
      show, not by a different ``aria-label`` (axe: label-content-name-mismatch);
    * bibliography entries are list items of the citation list (axe: aria-required-children);
    * a code block can take the keyboard focus, so a reader can scroll it (axe: scrollable-region-focusable).
    """
    text = FONTAWESOME_JS.sub("", text)
    if not is_search_page:  # the search page loads the index; the others only link to it
        text = SEARCH_SCRIPTS.sub("", text)
    if not re.search(r'class="[^"]*\bsd-', text):  # no sphinx-design component on the page
        text = DESIGN_ASSETS.sub("", text)
    text = _drop_repeated_scripts(text)
    text = SEARCH_BUTTON_LABEL.sub(r"\1", text)
    text = TOGGLE_SUMMARY_LABEL.sub("<summary>", text)
    text = CITATION_ROLE.sub(r'\1 role="listitem"', text)
    text = text.replace("<pre>", '<pre tabindex="0">')  # a code block that scrolls is reachable by keyboard
    return text


def _fix_pages(outdir: Path) -> None:
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = fix_page(text, is_search_page=page.relative_to(outdir).as_posix() == "search.html")
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
