"""Sphinx extension: every page gets a ``<meta name="description">``, what a search engine shows under its title.

The description is the page's front matter ``description:`` when it has one, else its first paragraph of prose
(not a note, a cell's output, a table, a caption or the book's own links), cut at a word to at most
:data:`MAX_CHARS` characters.
Lighthouse's SEO audit asks for one on every page (it scored the chapters 90 without).
"""
from __future__ import annotations

import html
import re

from docutils import nodes

MAX_CHARS = 160  # about what a search result shows
MIN_CHARS = 40  # shorter paragraphs (a byline, a "See also") do not describe a page
#: A paragraph inside one of these is not the page's own prose.
NOT_PROSE = (nodes.Admonition, nodes.sidebar, nodes.topic, nodes.table, nodes.caption, nodes.footnote,
             nodes.citation, nodes.field_list, nodes.system_message)


def _is_prose(par: nodes.paragraph) -> bool:
    """A paragraph of the page's own text: not the book's furniture (a ``db2book-`` class, such as the Binder
    link under a chapter's title), nor inside a note, a cell, a table or a caption."""
    if any(c.startswith("db2book-") for c in par.get("classes", [])):
        return False
    node = par.parent
    while node is not None:
        if isinstance(node, NOT_PROSE) or any(c.startswith("cell") for c in node.get("classes", [])):
            return False
        node = node.parent
    return True


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` on one line, cut at the last whole word that fits in ``limit`` characters (with "…")."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:–—-")
    return cut + "…"


def page_description(doctree: nodes.document, metadata: dict | None = None) -> str | None:
    """The description of one page: its front matter's ``description``, else its first paragraph of prose."""
    given = (metadata or {}).get("description")
    if given:
        return shorten(str(given))
    for par in doctree.findall(nodes.paragraph):
        text = par.astext()
        if len(text.strip()) >= MIN_CHARS and _is_prose(par):
            return shorten(text)
    return None


def _page_context(app, pagename, templatename, context, doctree):
    if doctree is None:  # the generated pages (index, search)
        return
    description = page_description(doctree, app.env.metadata.get(pagename))
    if description:
        tag = f'<meta name="description" content="{html.escape(description, quote=True)}" />\n'
        context["metatags"] = context.get("metatags", "") + tag


def setup(app):
    app.connect("html-page-context", _page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
