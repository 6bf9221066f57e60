"""The print edition: one PDF of the whole book, made from the built site by the Chromium the tests use.

``python -m tools.pdf`` (``make pdf``) writes ``_build/pdf/db2-performance-retraced.pdf`` and a copy at the root of
the built site, which the root page then links (``book/_ext/print_edition.py``; ``make pdf`` rebuilds that page).

How: each page of the edition (:func:`edition_pages`: the preface, the chapters and notes of ``_toc.yml``, the
fidelity ledger, the glossary and the references) opens in Chromium with print media, 680 px wide (the printed
line), so that its charts draw at their calibrated defaults as SVG at paper width. ``tools/pdf_page.js`` then
takes its article as paper wants it (controls gone, the solutions gathered at the chapter's end, ids prefixed,
links inside the book turned into links inside the PDF with a page reference). The articles go one after another
into one document after a cover and a table of contents, laid out by the print stylesheet
(``book/_static/db2book/print.css``), and printed with page numbers in the footer and the headings as the PDF's
outline. The page numbers of the contents and of the references come from the PDF itself (Chromium names a
destination for every link target, ``pypdf`` reads on which page each is): printed once with placeholders, then
again with the numbers, until they agree.
"""
from __future__ import annotations

import argparse
import datetime
import html
import io
import shutil
import sys
import time
from pathlib import Path

import yaml

from tools.site import JS_CHARTS_DRAWN, ROOT, SITE, browser, serve

sys.path.insert(0, str(ROOT / "book" / "_ext"))
from print_edition import PDF_NAME  # noqa: E402  (the name the site links: book/_ext/print_edition.py)

OUT = ROOT / "_build" / "pdf" / "db2-performance-retraced.pdf"
PAGE_JS = Path(__file__).with_name("pdf_page.js")
FRONT, BACK = ("book/intro",), ("book/fidelity", "book/glossary", "book/references")
BODY_PARTS = ("The studies", "Notes")
#: The printed line of an A4 page with 15 mm margins, in CSS px (96 per inch): print.css's @page.
LINE_PX = round((210 - 2 * 15) / 25.4 * 96)
PDF_OPTIONS = {"format": "A4", "margin": {"top": "15mm", "bottom": "18mm", "left": "15mm", "right": "15mm"},
               "display_header_footer": True, "header_template": "<span></span>",
               "footer_template": ('<div style="width:100%;font-size:8pt;text-align:center;color:#333;'
                                   'font-family:sans-serif"><span class="pageNumber"></span></div>'),
               "outline": True, "tagged": True}
MAX_PASSES = 4


def edition_pages(toc_file: Path = ROOT / "_toc.yml") -> list[str]:
    """The pages the print edition holds, in its order: preface, studies and notes (as ``_toc.yml`` orders
    them), then the fidelity ledger, the glossary and the references."""
    toc = yaml.safe_load(toc_file.read_text(encoding="utf-8"))
    body = [c["file"] for part in toc["parts"] if part.get("caption") in BODY_PARTS for c in part["chapters"]]
    return [*FRONT, *body, *BACK]


def prefix(path: str) -> str:
    """The id prefix of a page in the one document: ``chapters/zhyperlink`` -> ``p-chapters-zhyperlink``."""
    return "p-" + path.replace("/", "-")


def _config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def front_matter(pages: list[dict]) -> str:
    """The cover and the table of contents (its page numbers are filled in like every page reference)."""
    config = _config()
    title, url = html.escape(config["title"]), html.escape(config["repository"]["url"])
    today = datetime.date.today().isoformat()
    rows = []
    for page in pages:
        label = f"{html.escape(page['number'])} " if page["number"] else ""
        name = "Introduction" if page["path"] == FRONT[0] else page["title"]  # the intro's title is the book's
        rows.append(f'<li><a href="#{page["prefix"]}"><span class="db2book-toc-title">{label}'
                    f'{html.escape(name)}</span></a>'
                    f'<span class="db2book-toc-page" data-target="{page["prefix"]}">000</span></li>')
    return (f'<section class="db2book-print-cover"><p class="db2book-print-title">{title}</p>'
            '<p class="db2book-print-subtitle">Published studies of IBM Db2 for z/OS performance, retold, with '
            'their figures rebuilt from small analytic models.</p>'
            '<p class="db2book-print-note">The print edition. The online book draws the same charts with '
            'sliders that move its models; here every chart stands at its calibrated defaults, each chapter\'s '
            'solutions follow its exercises at its end, and a link within the book prints the page it leads '
            f'to. The book\'s sources: {url}.</p>'
            f'<p class="db2book-print-note">Printed from the built site on {today}.</p></section>'
            '<nav class="db2book-print-toc" aria-label="Contents"><p class="db2book-print-toc-head">Contents</p>'
            f'<ol>{"".join(rows)}</ol></nav>')


def destinations(pdf: bytes) -> dict[str, int]:
    """Every named destination of the PDF (a link target: an element's id) and its page number, from 1."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    return {name.lstrip("/"): reader.get_destination_page_number(dest) + 1
            for name, dest in reader.named_destinations.items()}


FILL_JS = """(numbers) => {
  let missing = 0;
  document.querySelectorAll('.db2book-pageref').forEach((e) => {
    const n = numbers[e.dataset.target];
    if (n === undefined && Object.keys(numbers).length) { e.textContent = ''; missing++; }
    else e.textContent = ' (p.\\u00a0' + (n === undefined ? '000' : n) + ')';
  });
  document.querySelectorAll('.db2book-toc-page').forEach((e) => {
    const n = numbers[e.dataset.target];
    e.textContent = n === undefined ? '000' : String(n);
  });
  return missing;
}"""

ASSEMBLE_JS = """([parts, title]) => {
  document.querySelectorAll('#jb-print-docs-body, .bd-header-article, .bd-sidebar-primary, .bd-sidebar-secondary,'
    + ' .bd-footer, .bd-footer-content, .bd-footer-article, .prev-next-area, header, .bd-header, #pst-skip-link,'
    + ' .search-button__wrapper, dialog').forEach((e) => e.remove());
  const art = document.querySelector('article.bd-article');
  art.innerHTML = parts.join('\\n');
  document.body.classList.add('db2book-print-edition');
  document.title = title;
  return art.querySelectorAll('.db2book-chart svg').length;
}"""

#: JavaScript: every element shown on the page that reaches past the printed line (the viewport is as wide as
#: the line), or whose content is wider than its box (cut off, or in a scroll box paper can't scroll).
JS_OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth, bad = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  for (const e of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(e);
    if (style.display === 'none' || style.visibility === 'hidden' || style.position === 'fixed') continue;
    const box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right > width + 1 || box.left < -1) {
      bad.push(`${name(e)}: from ${Math.round(box.left)} to ${Math.round(box.right)} px of ${width}`);
    } else if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && !(e instanceof SVGElement)) {
      bad.push(`${name(e)}: holds ${e.scrollWidth} px in ${e.clientWidth} px`);
    }
  }
  return bad;
}"""


def overflowing(page) -> list[str]:
    """What on ``page`` (laid out :data:`LINE_PX` wide with print media) would run off the paper."""
    return page.evaluate(JS_OVERFLOWING)


TARGETS_JS = ("() => [...new Set([...document.querySelectorAll('.db2book-pageref, .db2book-toc-page')]"
              ".map((e) => e.dataset.target))]")


def _take_page(b, base: str, path: str, pages: dict[str, str]) -> dict:
    ctx = b.new_context(viewport={"width": LINE_PX, "height": 1100})
    try:
        page = ctx.new_page()
        page.emulate_media(media="print")
        page.goto(f"{base}/{path}.html", wait_until="networkidle")
        page.wait_for_function(JS_CHARTS_DRAWN, timeout=60_000)
        on_site = page.evaluate("() => document.querySelectorAll('article .db2book-chart').length")
        info = {"path": path, "prefix": pages[path], "pages": pages}
        taken = page.evaluate(PAGE_JS.read_text(encoding="utf-8"), info)
        if taken["charts"] != on_site:
            raise RuntimeError(f"{path}: {on_site} charts on the page, {taken['charts']} drawn for print")
        return {**taken, "path": path, "prefix": pages[path]}
    finally:
        ctx.close()


def build(site: Path = SITE, out: Path = OUT, publish: bool = True) -> dict:
    """Make the PDF from the built ``site``; with ``publish``, copy it to the site's root. Returns its numbers."""
    from pypdf import PdfReader

    if not (site / "book" / "intro.html").exists():
        raise FileNotFoundError(f"{site} holds no built book: run `make book` first")
    start = time.perf_counter()
    paths = edition_pages()
    pages = {p: prefix(p) for p in paths}
    with serve(site) as base, browser() as b:
        taken = [_take_page(b, base, path, pages) for path in paths]
        ctx = b.new_context(viewport={"width": LINE_PX, "height": 1100})
        page = ctx.new_page()
        page.emulate_media(media="print")
        page.goto(f"{base}/{FRONT[0]}.html", wait_until="networkidle")
        parts = [front_matter(taken)] + [t["html"] for t in taken]
        charts = page.evaluate(ASSEMBLE_JS, [parts, _config()["title"]])
        expected = sum(t["charts"] for t in taken)
        if charts != expected:
            raise RuntimeError(f"the edition holds {charts} charts, its pages {expected}")
        too_wide = overflowing(page)
        if too_wide:
            raise RuntimeError(f"{len(too_wide)} elements run off the paper, such as: {too_wide[:5]}")
        targets = set(page.evaluate(TARGETS_JS))
        numbers: dict[str, int] = {}
        for _ in range(MAX_PASSES):
            missing = page.evaluate(FILL_JS, numbers)
            pdf = page.pdf(**PDF_OPTIONS)
            found = {t: n for t, n in destinations(pdf).items() if t in targets}
            if numbers and found == numbers:
                break
            numbers = found
        else:
            print(f"warning: page references still moving after {MAX_PASSES} passes", file=sys.stderr)
        ctx.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pdf)
    if publish:
        shutil.copyfile(out, site / PDF_NAME)
    seconds = time.perf_counter() - start
    reader = PdfReader(io.BytesIO(pdf))
    return {"path": str(out), "pages": len(reader.pages), "bytes": len(pdf), "seconds": seconds, "charts": charts,
            "unresolved_references": missing}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (default: _build/html)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the PDF to write (default: {OUT.relative_to(ROOT)})")
    parser.add_argument("--no-publish", action="store_true", help="don't copy the PDF into the built site")
    args = parser.parse_args(argv)
    stats = build(args.site, args.out, publish=not args.no_publish)
    print(f"{stats['path']}: {stats['pages']} pages, {stats['bytes'] / 1e6:.2f} MB, {stats['charts']} charts, "
          f"built in {stats['seconds']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
