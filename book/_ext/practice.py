"""Sphinx extension: the "Practise" block under a chapter's exercises, with no kernel.

``:::{practice} <study>`` in a chapter places the block: a closed ``<details>`` whose form the page's
script (``book/_static/db2book/practice.js``) fills when the reader opens it. Only then does it fetch
the chapter's practice set, ``_static/practice/<study>.json``, which this extension writes at the end of
the build from the chapter's own seeded generator (:func:`widgets.practice.practice_set`): a build
product, never committed. The script and its stylesheet (``practice.css``) are linked only from pages
that hold a block, and load deferred, so a chapter's first load carries a few kilobytes for it.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from widgets.practice import generator, practice_set, practice_slugs

OWN = Path(__file__).resolve().parents[1] / "_static" / "db2book"
SCRIPT, STYLE = "practice.js", "practice.css"
SETS = "practice"  # _static/practice/<study>.json
MARKER = 'class="db2-practice"'


def block_html(slug: str, depth: int) -> str:
    """The block for study ``slug`` on a page ``depth`` folders below the site's root: a closed
    ``<details>`` naming its practice set, the kinds to pick from, and the form the script fills."""
    kinds = generator(slug).KINDS
    options = "".join(f'<option value="{html.escape(k)}">{html.escape(k.replace("_", " "))}</option>'
                      for k in kinds)
    src = "../" * depth + f"_static/{SETS}/{slug}.json"
    command = f"python -m widgets.{slug}.exercises"
    pid = f"practice-{slug.replace('_', '-')}"
    return f"""
<details class="db2-practice" id="{pid}" data-src="{src}" data-command="{command}">
<summary>Practise: a problem of your own, checked on this page</summary>
<div class="db2-practice-body">
<p>Problems from this chapter's seeded generator, the one the classroom grades with ({len(kinds)} kinds),
with their answers worked out when the book was built. Type your answers and press <em>Check</em>: a part is
right within the generator's own tolerance. Each problem names its seed, and <code>{command} -s SEED -c</code>
prints the same problem with its answers. The answers are in the page for anyone who looks: this is practice,
not a test.</p>
<noscript><p>The practice block needs JavaScript. Without it, run <code>{command} -s SEED</code> and
<code>-c</code> for the answers.</p></noscript>
<p class="db2-practice-status" role="status"></p>
<form class="db2-practice-form" hidden novalidate>
<div class="db2-practice-pick">
<label for="{pid}-kind">Kind of problem</label>
<select id="{pid}-kind" class="db2-practice-kind"><option value="">any kind</option>{options}</select>
<button type="button" class="db2-practice-another">Another problem</button>
</div>
<div class="db2-practice-problem"></div>
<fieldset class="db2-practice-answers">
<legend>Your answers</legend>
<p class="db2-practice-forms">Type numbers as you would write them: 1,234.5 or 1234.5; a part in % takes
12 or 12%; a part with no unit (a fraction) takes 0.12 or 12%; a yes/no part takes 1 or 0 (or yes or no).</p>
<div class="db2-practice-parts"></div>
</fieldset>
<div class="db2-practice-actions"><button type="submit" class="db2-practice-check">Check</button></div>
<div class="db2-practice-result" role="status" aria-live="polite"></div>
<details class="db2-practice-solution">
<summary>Show the answers and the worked solution</summary>
<div class="db2-practice-solution-body"></div>
</details>
</form>
</div>
</details>
"""


class PracticeDirective(SphinxDirective):
    """``:::{practice} <study>``: the practice block of a study with a seeded generator."""

    required_arguments = 1

    def run(self):
        slug = self.arguments[0]
        if slug not in practice_slugs():
            raise self.error(f"practice: study={slug!r} has no seeded generator; these do: "
                             f"{', '.join(practice_slugs())}")
        self.env.note_dependency(str(OWN / SCRIPT))
        depth = self.env.docname.count("/")
        return [nodes.raw("", block_html(slug, depth), format="html")]


def _page_context(app, pagename, templatename, context, doctree):
    if MARKER in context.get("body", ""):
        app.add_css_file(STYLE)
        app.add_js_file(SCRIPT, loading_method="defer")


def write_sets(static: Path) -> dict[str, int]:
    """Write every practice set to ``static/practice/<study>.json``; returns each file's size in bytes."""
    folder = static / SETS
    folder.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for slug in practice_slugs():
        text = json.dumps(practice_set(slug), ensure_ascii=False, separators=(",", ":"))
        (folder / f"{slug}.json").write_text(text, encoding="utf-8")
        sizes[slug] = len(text.encode("utf-8"))
    return sizes


def _build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    for name in (SCRIPT, STYLE):
        (static / name).write_text((OWN / name).read_text(encoding="utf-8"), encoding="utf-8")
    write_sets(static)


def setup(app):
    app.add_directive("practice", PracticeDirective)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
