"""A chapter's first paint on a phone: text first, charts when the reader comes to them, files sent compressed,
a description for search engines (bench/lighthouse.py measures the scores; these check the mechanisms).

* ``tools/serve.py`` sends the build's ``.br``/``.gz`` copy that the browser accepts, never a stale one;
* ``book/_ext/precompress.py`` writes copies that decompress to the original, and drops orphans;
* ``book/_ext/page_fixes.py`` defers the head's scripts and writes ``documentation_options.js`` into the page;
* ``book/_ext/meta_description.py`` takes the page's first paragraph of prose;
* on the built site: every chapter page has a description and no render-blocking script, every text file has
  fresh copies, and on a phone the Vega runtime loads only when a chart comes near the screen.
"""
from __future__ import annotations

import brotli
import gzip
import sys
import time
import urllib.request

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

from tools.serve import accepted, precompressed
from tools.site import ROOT, SITE, serve

sys.path.insert(0, str(ROOT / "book" / "_ext"))
import meta_description  # noqa: E402
import page_fixes  # noqa: E402
import precompress  # noqa: E402

from bench.lighthouse import PAGES  # noqa: E402

BUILT = pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")


def _get(url: str, encoding: str | None):
    req = urllib.request.Request(url, headers={"Accept-Encoding": encoding} if encoding else {})
    with urllib.request.urlopen(req) as r:
        return r.headers, r.read()


# --- the server ------------------------------------------------------------------------------------


def test_accept_encoding_is_read_with_its_refusals():
    assert accepted("gzip, deflate, br") == {"gzip", "deflate", "br"}
    assert accepted("br;q=0, gzip;q=0.5") == {"gzip"}
    assert accepted(None) == set() and accepted("") == set()


def test_the_server_sends_the_copy_the_browser_accepts_and_never_a_stale_one(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<p>" + "text " * 500 + "</p>", encoding="utf-8")
    assert precompress.precompress_site(tmp_path) == 1
    with serve(tmp_path) as base:
        headers, body = _get(f"{base}/page.html", "gzip, br")
        assert headers["Content-Encoding"] == "br" and headers["Vary"] == "Accept-Encoding"
        assert headers["Content-Type"].startswith("text/html") and brotli.decompress(body) == page.read_bytes()
        headers, body = _get(f"{base}/page.html", "gzip")
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == page.read_bytes()
        headers, body = _get(f"{base}/page.html", None)
        assert headers["Content-Encoding"] is None and body == page.read_bytes()
        time.sleep(0.05)
        page.write_text("<p>changed after the build</p>", encoding="utf-8")  # the copies are now stale
        assert precompressed(page, {"br", "gzip"}) is None
        headers, body = _get(f"{base}/page.html", "gzip, br")
        assert headers["Content-Encoding"] is None and body == page.read_bytes()
    with serve(tmp_path, compressed=False) as base:  # as python -m http.server does
        assert _get(f"{base}/page.html", "gzip, br")[0]["Content-Encoding"] is None


def test_precompress_skips_small_and_binary_files_and_drops_orphans(tmp_path):
    (tmp_path / "small.css").write_text("a{}", encoding="utf-8")
    (tmp_path / "font.woff2").write_bytes(b"\0" * 5000)
    big = tmp_path / "big.js"
    big.write_text("var x = 1;\n" * 500, encoding="utf-8")
    (tmp_path / "gone.html.gz").write_bytes(b"old")
    precompress.precompress_site(tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["big.js", "big.js.br", "big.js.gz", "font.woff2", "small.css"], names
    assert precompress.precompress_site(tmp_path) == 0  # up to date: nothing is compressed again


# --- the page fixes and the description -------------------------------------------------------------

HEAD = ('<html><head>\n<script src="../_static/documentation_options.js?v=1"></script>\n'
        '<script src="../_static/doctools.js?v=2"></script>\n<script async="async" src="x.js"></script>\n'
        "<script>DOCUMENTATION_OPTIONS.pagename = 'p';</script>\n</head><body>"
        '<script src="body.js"></script></body></html>')


def test_head_scripts_are_deferred_and_the_options_written_into_the_page():
    fixed = page_fixes.defer_head_scripts(HEAD, "const DOCUMENTATION_OPTIONS = {};\n")
    assert "<script>const DOCUMENTATION_OPTIONS = {};</script>" in fixed
    assert '<script defer src="../_static/doctools.js?v=2"></script>' in fixed
    assert '<script async="async" src="x.js"></script>' in fixed  # already not blocking: left alone
    assert '<script src="body.js"></script>' in fixed  # the body's scripts run where they stand
    assert page_fixes.defer_head_scripts(fixed, "const DOCUMENTATION_OPTIONS = {};") == fixed  # once only


def _doctree(rst: str) -> nodes.document:
    doc = new_document("test", get_default_settings(Parser))
    Parser().parse(rst, doc)
    return doc


def test_the_description_is_the_first_paragraph_of_prose_cut_at_a_word():
    tree = _doctree("Title\n=====\n\n.. note::\n\n   A note that is long enough to be a description of something.\n\n"
                    "Short.\n\n" + "The page's own first paragraph, " * 8 + "\n")
    tree.children[0].insert(0, nodes.paragraph("", "Open the dashboard on Binder: a link the book adds, long.",
                                               classes=["db2book-live-links"]))
    text = meta_description.page_description(tree)
    assert text.startswith("The page's own first paragraph,") and text.endswith("…")
    assert len(text) <= meta_description.MAX_CHARS and "  " not in text
    assert meta_description.page_description(tree, {"description": "Given."}) == "Given."
    assert meta_description.page_description(_doctree("Title\n=====\n\nToo short.\n")) is None


# --- the built site ---------------------------------------------------------------------------------


@BUILT
@pytest.mark.parametrize("page", PAGES)
def test_every_chapter_page_has_a_description_and_no_render_blocking_script(page):
    text = (SITE / f"{page}.html").read_text(encoding="utf-8")
    head = text[: text.index("</head>")]
    assert head.count('<meta name="description" content="') == 1
    blocking = [line.strip() for line in head.splitlines()
                if "<script src=" in line and "defer" not in line and "async" not in line]
    assert not blocking, blocking
    assert "vega-runtime.js" not in head.split("window.db2bookRuntime", 1)[0]  # no <script> tag: loaded lazily


@BUILT
def test_every_text_file_of_the_site_has_fresh_compressed_copies():
    stale = []
    for path in SITE.rglob("*"):
        if path.suffix in precompress.TEXT_SUFFIXES and path.is_file() and path.stat().st_size >= precompress.MIN_BYTES:
            if precompressed(path, {"br"}) is None or precompressed(path, {"gzip"}) is None:
                stale.append(path.relative_to(SITE).as_posix())
    assert not stale, stale[:10]


@BUILT
@pytest.mark.browser
def test_on_a_phone_the_chart_runtime_loads_only_when_a_chart_nears_the_screen():
    from tools.site import RequestLog, browser

    with serve() as base, browser() as b:
        ctx = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        try:
            page = ctx.new_page()
            log = RequestLog(page)
            page.goto(f"{base}/chapters/large_memory.html", wait_until="networkidle")
            page.wait_for_timeout(300)
            drawn = "[...document.querySelectorAll('.db2book-chart')].map(e => e.dataset.rendered === 'true')"
            assert not any(page.evaluate(drawn)) and not [u for u in log.urls if "vega-runtime" in u]
            page.evaluate("document.querySelectorAll('.db2book-chart')[2].scrollIntoView()")
            page.wait_for_function(f"{drawn}[2]", timeout=30_000)
            after = page.evaluate(drawn)
            assert after[2] and not after[-1], after  # the chart on screen drew; the last is still far below
            assert [u for u in log.urls if "vega-runtime" in u] and not log.errors() and not log.outside()
        finally:
            ctx.close()
