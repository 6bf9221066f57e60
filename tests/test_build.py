"""The strictly built site (make test builds it first with -W -n): pages, downloads, offline search."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
pytestmark = pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")


def _toc_pages():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    pages = [toc["root"]]
    for part in toc["parts"]:
        pages += [c["file"] for c in part["chapters"]]
    return pages


@pytest.mark.parametrize("page", _toc_pages())
def test_every_toc_page_is_built(page):
    html = (SITE / f"{page}.html").read_text(encoding="utf-8")
    assert "<h1" in html
    assert "https://cdn" not in html and "cdn.jsdelivr" not in html
    assert not re.search(r'<script[^>]+src="https?://', html), "no external scripts"
    assert not re.search(r'<link[^>]+href="https?://[^"]+\.css', html), "no external stylesheets"


def test_notebook_pages_offer_downloads_and_binder():
    html = (SITE / "chapters" / "large_memory.html").read_text(encoding="utf-8")
    assert "_sources/chapters/large_memory" in html  # download the source (.md)
    assert ".ipynb" in html  # download as a notebook
    assert "mybinder.org" in html  # the Binder launch button (a link; nothing loads from it)


def test_search_works_offline():
    assert (SITE / "searchindex.js").exists() and (SITE / "search.html").exists()
    assert "Large memory" in (SITE / "searchindex.js").read_text(encoding="utf-8")


def test_vega_bundle_is_generated_not_committed():
    assert (SITE / "_static" / "vega" / "vega-runtime.js").stat().st_size > 300_000
    # a build product: nothing the repository tracks is a Vega bundle (checked in git's index, not .gitignore)
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert not [f for f in tracked.splitlines() if re.search(r"(^|/)vega[^/]*\.js$", f)]


def test_no_symlinks_or_environments_are_tracked():
    """A worktree's `.venv` or `node_modules` symlink once reached `main` and broke every fresh clone."""
    staged = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    links = [line.split("\t", 1)[1] for line in staged.splitlines() if line.startswith("120000")]
    assert links == [], f"symlinks tracked by git (a fresh clone gets them dangling): {links}"
    tracked = [line.split("\t", 1)[1] for line in staged.splitlines()]
    environments = [f for f in tracked if f.split("/")[0] in (".venv", "node_modules")]
    assert environments == [], f"installed environments tracked by git: {environments[:5]}"


def test_math_is_mathml_not_mathjax():
    html = (SITE / "chapters" / "large_memory.html").read_text(encoding="utf-8")
    assert "<math" in html
    assert not re.search(r"<script[^>]*mathjax", html, re.I), "no MathJax download"


def test_root_favicon_exists():
    """Pages without an icon link (the root redirect) make browsers ask for /favicon.ico: no 404."""
    assert (SITE / "favicon.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
