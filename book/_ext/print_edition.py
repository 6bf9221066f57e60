"""Sphinx extension: the book on paper.

* Every page links the print stylesheet (``book/_static/db2book/print.css``) with ``media="print"``: a
  screen never waits for it, a browser's Print uses it.
* Every chart gets its figure number, ``data-figure-number="4.2"`` (chapter 4, its second chart; a page
  without a chapter number counts from 1), which the print stylesheet writes before the chart's title.
* The root page links the print edition, ``db2-performance-retraced.pdf`` at the site's root, when that file is
  there (``make pdf`` writes it, tools/pdf.py, and then rebuilds the root page): the site never links a file it
  does not hold.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT_CSS = ROOT / "book" / "_static" / "db2book" / "print.css"
#: Served from a folder of its own: theme_weight purges the root ``_static/*.css`` of rules no page's HTML names,
#: and print rules name classes that scripts add (the solutions' ``toggle-hidden``).
PRINT_CSS_NAME = "print/db2book-print.css"
#: The print edition's file name, at the root of the built site (tools/pdf.py writes it).
PDF_NAME = "db2-performance-retraced.pdf"

_FIGURE = re.compile(r'<figure class="db2book-figure"([^>]*>\s*)(<p class="db2book-chart-title")?')
_FIRST_HEADING_END = re.compile(r"</h1>")


def number_figures(body: str, chapter: str) -> str:
    """The page's body with each chart numbered in page order: ``chapter.k``, or ``k`` with no chapter, on the
    chart's figure and on its title (which print.css prefixes with "Figure 4.2.")."""
    count = 0

    def number(match):
        nonlocal count
        count += 1
        label = f"{chapter}.{count}" if chapter else str(count)
        title = f'<p class="db2book-chart-title" data-figure-number="{label}"' if match.group(2) else ""
        return f'<figure class="db2book-figure" data-figure-number="{label}"{match.group(1)}{title}'

    return _FIGURE.sub(number, body)


def pdf_state(outdir: Path) -> tuple[int, int] | None:
    """The print edition's size (bytes) and modification time (ns) in the built site, or None when absent."""
    path = Path(outdir) / PDF_NAME
    if not path.is_file():
        return None
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def pdf_link_html(href: str, size_bytes: int) -> str:
    """The paragraph that offers the print edition (hidden on paper by print.css)."""
    return (f'<p class="db2book-pdf-link"><a href="{href}">The print edition (PDF, '
            f'{size_bytes / 1e6:.1f} MB)</a>: the whole book laid out for paper, with page numbers, a table of '
            "contents and each chapter’s solutions at its end.</p>")


def _chapter_number(app, pagename: str) -> str:
    numbers = app.env.toc_secnumbers.get(pagename, {})
    top = numbers.get("") or (min(numbers.values(), key=len) if numbers else ())
    return str(top[0]) if top else ""


def _page_context(app, pagename, templatename, context, doctree):
    body = context.get("body", "")
    if "db2book-figure" in body:
        context["body"] = number_figures(body, _chapter_number(app, pagename))
    state = pdf_state(app.outdir)
    if pagename == app.config.root_doc and state is not None:
        link = pdf_link_html(context["pathto"](PDF_NAME, 1), state[0])
        context["body"] = _FIRST_HEADING_END.sub(lambda m: m.group(0) + "\n" + link, context["body"], count=1)


def _outdated(app, env, *_changes):
    """The root page is written again when the print edition appeared, changed or went since the last build."""
    state = pdf_state(app.outdir)
    if getattr(env, "db2book_pdf_state", None) != state:
        env.db2book_pdf_state = state
        return [app.config.root_doc]
    return []


def _builder_inited(app):
    app.add_css_file(PRINT_CSS_NAME, media="print")


def _build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / PRINT_CSS_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(PRINT_CSS.read_text(encoding="utf-8"), encoding="utf-8")


def setup(app):
    app.connect("builder-inited", _builder_inited)
    app.connect("env-get-outdated", _outdated)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
