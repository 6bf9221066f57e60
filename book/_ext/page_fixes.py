"""The built pages, mended: defects of the theme and its extensions in the HTML they write, each fix for a
measured defect (a console error, an accessibility rule, weight a page does not use): :func:`fix_page`."""
from __future__ import annotations

import re
from pathlib import Path


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
HEAD_SCRIPT = re.compile(r'<script src="([^"]*)"></script>')
OPTIONS_SCRIPT = re.compile(r'<script src="[^"]*_static/documentation_options\.js[^"]*"></script>')


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


def defer_head_scripts(text: str, options_js: str) -> str:
    """The head's scripts loaded ``defer``: fetched while the page is parsed, run (in order) once it is, so that
    the text paints first (Lighthouse, mobile: six theme scripts and the Vega runtime blocked the first paint
    for about 4 s on a slow link). Every one of them starts its work on ``DOMContentLoaded`` or later, which
    deferred scripts still precede. ``documentation_options.js`` (a few hundred bytes, the same on every page)
    is written into the page instead: the inline scripts after it set ``DOCUMENTATION_OPTIONS.pagename``.
    """
    head_end = text.find("</head>")
    if head_end < 0:
        return text
    head = OPTIONS_SCRIPT.sub(lambda m: "<script>" + options_js.strip() + "</script>", text[:head_end], count=1)
    return HEAD_SCRIPT.sub(r'<script defer src="\1"></script>', head) + text[head_end:]


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


def fix_pages(outdir: Path) -> None:
    """Every page of the built site under ``outdir``, mended (:func:`fix_page`), its head's scripts deferred
    (:func:`defer_head_scripts`; not on the search page, whose search scripts load as Sphinx wrote them)."""
    options = outdir / "_static" / "documentation_options.js"
    options_js = options.read_text(encoding="utf-8") if options.exists() else None
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        is_search = page.relative_to(outdir).as_posix() == "search.html"
        new = fix_page(text, is_search_page=is_search)
        if options_js is not None and not is_search:
            new = defer_head_scripts(new, options_js)
        if new != text:
            page.write_text(new, encoding="utf-8")
