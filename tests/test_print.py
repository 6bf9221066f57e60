"""The book on paper: the print edition (``make pdf``, tools/pdf.py) and every page's print stylesheet.

The edition is built once, by ``make pdf`` in a fresh clone's files (``git ls-files``: what a clone holds) beside
this tree's built site and environment (``make book``'s products, which test_build checks; rebuilding every
notebook here would take most of ten minutes). Its text must hold every chapter's title and no slider's label,
one numbered caption per chart of its pages, its fonts embedded, and the site must link it (marked slow: it
prints the book). Every page of the site, printed from the browser, must fit the paper and show no control.
"""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import unicodedata

import pytest

from tools import pdf as edition
from tools.site import ROOT, SITE, browser, clone_files, serve

sys.path.insert(0, str(ROOT / "book" / "_ext"))
import print_edition  # noqa: E402  (book/_ext: the Sphinx extension)


TOC_PAGES = sorted(str(p.relative_to(SITE).with_suffix("")) for p in (SITE / "book").glob("*.html")) + \
    sorted(str(p.relative_to(SITE).with_suffix("")) for p in (SITE / "chapters").glob("*.html"))
#: A compiled chart's slider: its opening value, and its label (the ``name`` of its range binding).
SLIDER = re.compile(r'"value":(-?[0-9.e+-]+),"bind":\{"input":"range"[^}]*?"name":"((?:[^"\\]|\\.)*)"')
#: JavaScript: the controls a page still shows in print (none may: paper can't be clicked).
JS_VISIBLE_CONTROLS = """() => [...document.querySelectorAll(
    'input, select, textarea, button, .vega-bindings, .db2book-live-links, details.hide > summary')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => e.outerHTML.slice(0, 120))"""
FIGURE_NUMBER = re.compile(r'<p class="db2book-chart-title" data-figure-number="([0-9.]+)"')


def _words(text: str) -> str:
    """Text with every run of white space one space (a PDF's text breaks lines where the page did) and its
    ligatures spelled out (the PDF's fonts draw "ff" and "fi" as one glyph)."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``make pdf`` run in a fresh clone's files, with this tree's built site and environment."""
    if not (SITE / "book" / "intro.html").exists():
        pytest.skip("the site is not built: run `make book`")
    repo = tmp_path_factory.mktemp("print") / "clone"
    clone_files(repo)
    for name in (".venv", "node_modules"):
        (repo / name).symlink_to(ROOT / name)
    for part in ("html", ".doctrees", "jupyter_execute", ".jupyter_cache"):
        if (ROOT / "_build" / part).exists():
            shutil.copytree(ROOT / "_build" / part, repo / "_build" / part, symlinks=True)
    for key in (ROOT / "_build").glob(".jupyter_cache.*"):
        shutil.copy2(key, repo / "_build" / key.name)
    (repo / "_build" / "html" / "db2-performance-retraced.pdf").unlink(missing_ok=True)
    done = subprocess.run(["make", "-o", ".venv/.installed", "-o", "node_modules/.installed", "-o", "book", "pdf"],
                          cwd=repo, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"make pdf failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return repo


@pytest.fixture(scope="module")
def reader(built):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO((built / "_build" / "pdf" / "db2-performance-retraced.pdf").read_bytes()))


@pytest.fixture(scope="module")
def text(reader) -> str:
    return _words(" ".join(page.extract_text() or "" for page in reader.pages))


def _site_page(built, path: str) -> str:
    return (built / "_build" / "html" / f"{path}.html").read_text(encoding="utf-8")


@pytest.mark.browser
@pytest.mark.slow
def test_the_site_links_the_edition(built):
    intro = _site_page(built, "book/intro")
    assert (built / "_build" / "html" / "db2-performance-retraced.pdf").is_file()
    assert 'href="../db2-performance-retraced.pdf"' in intro, "the root page does not link the print edition"
    assert (built / "_build" / "pdf" / "db2-performance-retraced.pdf").read_bytes() == \
        (built / "_build" / "html" / "db2-performance-retraced.pdf").read_bytes()


@pytest.mark.browser
@pytest.mark.slow
def test_text_holds_every_title_and_no_slider_label(built, text):
    titles, labels, own_text = [], set(), []
    for path in edition.edition_pages():
        page = _site_page(built, path)
        h1 = re.search(r"<h1>(?:<span class=\"section-number\">[^<]*</span>)?(.*?)<a class=\"headerlink\"", page)
        titles.append(_words(re.sub(r"<[^>]+>", "", h1.group(1))).replace("&amp;", "&"))
        labels.update((_words(label.encode().decode("unicode_escape")), value)
                      for value, label in SLIDER.findall(page))
        # the page's own words (its tables and prose; no chart, so no slider): "Users 10560" is a table's row
        own_text.append(_words(re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ", page, flags=re.S))))
    missing = [t for t in titles if t not in text]
    assert not missing, f"titles not in the PDF's text: {missing}"
    assert len(labels) > 10, f"only {len(labels)} slider labels found on the site: is the pattern stale?"
    # a slider prints as its label and then its value: the PDF may hold that no more often than the pages' words
    own = " ".join(own_text)
    printed = []
    for label, value in sorted(labels):
        shown = re.compile(re.escape(label) + r"\s*" + re.escape(value) + r"(?![0-9])")
        if len(shown.findall(text)) > len(shown.findall(own)):
            printed.append(f"{label} {value}")
    assert not printed, f"sliders printed in the PDF: {printed}"
    for control in ("Reset to the calibrated", "Show code cell source", "Open the dashboard on Binder"):
        assert control not in text, f"a control printed: {control!r}"


@pytest.mark.browser
@pytest.mark.slow
def test_one_numbered_chart_per_chart_of_the_site(built, text):
    expected = [n for path in edition.edition_pages() for n in FIGURE_NUMBER.findall(_site_page(built, path))]
    charts = sum(_site_page(built, path).count('class="db2book-chart"') for path in edition.edition_pages())
    assert len(expected) == charts > 40, "every chart on the site carries a figure number"
    printed = re.findall(r"Figure ([0-9]+(?:\.[0-9]+)?)\. ", text)
    assert sorted(printed) == sorted(expected), "the PDF's figure captions differ from the site's charts"


@pytest.mark.browser
@pytest.mark.slow
def test_charts_are_vector(reader):
    """No raster image in the edition: every chart is drawn as paths and text."""
    images = [i for i, page in enumerate(reader.pages, 1) for _ in page.images]
    assert not images, f"raster images on pages {images[:10]}"


def _fonts(resources, seen: set) -> list:
    """Every font a page's resources use, through nested forms."""
    out = []
    if not resources:
        return out
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        out.append(font.get_object())
    for xobject in (resources.get("/XObject") or {}).values():
        ref = getattr(xobject, "idnum", None)
        obj = xobject.get_object()
        if ref in seen or obj.get("/Subtype") != "/Form":
            continue
        seen.add(ref)
        out += _fonts(obj.get("/Resources"), seen)
    return out


@pytest.mark.browser
@pytest.mark.slow
def test_fonts_are_embedded(reader):
    fonts, seen = {}, set()
    for page in reader.pages:
        for font in _fonts(page.get("/Resources"), seen):
            fonts[str(font.get("/BaseFont", "Type3"))] = font
    assert fonts
    bare = []
    for name, font in fonts.items():
        if font.get("/Subtype") == "/Type3":  # its glyphs are drawings inside the file
            assert font.get("/CharProcs"), f"{name}: a Type 3 font without glyphs"
            continue
        if font.get("/Subtype") == "/Type0":
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font.get("/FontDescriptor")
        if descriptor is None or not any(k in descriptor.get_object() for k in ("/FontFile", "/FontFile2",
                                                                                 "/FontFile3")):
            bare.append(name)
    assert not bare, f"fonts not embedded: {bare}"


@pytest.mark.browser
@pytest.mark.slow
def test_pages_numbered_and_contents(reader, text):
    assert len(reader.pages) > 50
    contents = reader.pages[1].extract_text()
    assert "Contents" in contents and "Glossary" in contents
    last = _words(reader.pages[-1].extract_text())
    assert last.endswith(str(len(reader.pages))), "the last page's footer shows its number"
    assert re.search(r"\(p\. [0-9]+\)", text), "no page reference printed"
    assert "(p. 000)" not in text, "a page reference left unfilled"
    assert reader.outline, "the PDF has no outline (bookmarks)"


@pytest.mark.browser
@pytest.mark.parametrize("path", TOC_PAGES)
def test_no_element_is_wider_than_the_paper(path):
    """In Chromium's print emulation, as wide as an A4 page's printed line, nothing runs off the page."""
    with serve() as base, browser() as b:
        ctx = b.new_context(viewport={"width": edition.LINE_PX, "height": 1100})
        page = ctx.new_page()
        page.emulate_media(media="print")
        page.goto(f"{base}/{path}.html", wait_until="networkidle")
        page.wait_for_function(edition.JS_CHARTS_DRAWN, timeout=60_000)
        too_wide = edition.overflowing(page)
        controls = page.evaluate(JS_VISIBLE_CONTROLS)
        ctx.close()
    assert not too_wide, f"{len(too_wide)} elements run off the paper: {too_wide[:8]}"
    assert not controls, f"controls printed: {controls[:5]}"


@pytest.mark.browser
def test_a_chapter_printed_from_the_browser():
    """A teacher's handout: one chapter printed as a browser prints it, with the print stylesheet alone."""
    from pypdf import PdfReader

    with serve() as base, browser() as b:
        page = b.new_page()
        page.goto(f"{base}/chapters/zhyperlink.html", wait_until="networkidle")
        page.wait_for_function(edition.JS_CHARTS_DRAWN, timeout=60_000)
        solution = _words(page.text_content(".solution .admonition-title ~ *"))
        pdf = page.pdf(prefer_css_page_size=True)
    words = _words(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert "Figure 4.1. " in words and "Figure 4.6. " in words
    assert solution[:60] in words, "a hidden solution did not print"
    for control in ("Reset to the calibrated", "Show code cell source", "Open the dashboard on Binder"):
        assert control not in words, f"a control printed: {control!r}"


def test_charts_are_numbered_by_chapter_on_their_titles():
    body = ('<figure class="db2book-figure" style="max-width: 610px"><p class="db2book-chart-title">A</p>'
            '<figure class="db2book-figure">\n<div class="db2book-chart"></div>')
    numbered = print_edition.number_figures(body, "4")
    assert numbered.count('data-figure-number="4.1"') == 2  # the figure and its title
    assert '<figure class="db2book-figure" data-figure-number="4.2">' in numbered
    assert 'data-figure-number="1"' in print_edition.number_figures(body, "")  # a page with no chapter number


class _App:
    """The little of a Sphinx application the extension's page hook reads."""

    def __init__(self, outdir):
        self.outdir = str(outdir)
        self.config = type("Config", (), {"root_doc": "book/intro"})()
        self.env = type("Env", (), {"toc_secnumbers": {}})()


def test_the_root_page_links_the_edition_only_when_the_site_holds_it(tmp_path):
    """The built site never links a PDF it does not hold: make book alone writes no link."""
    def page(pagename="book/intro"):
        context = {"body": "<h1>Db2 Performance, Retraced</h1><p>text</p>", "pathto": lambda name, _: "../" + name}
        print_edition._page_context(_App(tmp_path), pagename, "page.html", context, None)
        return context["body"]

    assert print_edition.PDF_NAME not in page()
    (tmp_path / print_edition.PDF_NAME).write_bytes(b"%PDF-1.4 " + b"x" * 1_500_000)
    assert '<a href="../db2-performance-retraced.pdf">The print edition (PDF, 1.5 MB)</a>' in page()
    assert print_edition.PDF_NAME not in page("chapters/zhyperlink")
