"""Every chart's spec and data, and every page's reader-facing text, from the built site, as canonical JSON.

A refactor that must not change what readers see is checked by running this before and after and
comparing the two files::

    python -m tools.chartspecs _build/html > before.json      # ... change the code, make book ...
    python -m tools.chartspecs _build/html > after.json
    python -m tools.chartspecs --compare before.json after.json

Charts are the specs each page holds as inert JSON blocks, one per chart (see :mod:`widgets.render`),
keyed by page and by the figure they draw (``usermeta.db2book.figure``) or their place on the page.
The chart's element id (it holds the build's process id) is left out; nothing else is. The text is
each page's visible text (scripts and styles removed), where a citation's wording would show.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

#: A chart's spec on a page: an inert JSON block (see :func:`widgets.render.embed_html`).
SPEC_BLOCK = re.compile(r'<script type="application/json" id="db2book-chart-[\w-]+-spec">(.*?)</script>', re.S)


def chart_specs(page: str) -> list[dict]:
    """The specs of every chart embedded in one page's HTML, in page order."""
    return [json.loads(m.group(1)) for m in SPEC_BLOCK.finditer(page)]


class _Text(HTMLParser):
    """Visible text of a page: everything outside <script>, <style> and <head>."""

    SKIP = {"script", "style", "head"}

    def __init__(self):
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth and data.strip():
            self.parts.append(" ".join(data.split()))


def page_text(page: str) -> list[str]:
    """The page's visible text, one entry per text node, whitespace collapsed."""
    parser = _Text()
    parser.feed(page)
    # element ids of charts carry the build's process id; they never show, but keep the text stable anyway
    return [re.sub(r"db2book-chart-\d+-\d+", "db2book-chart", p) for p in parser.parts]


def collect(site: Path) -> dict:
    """{"charts": {page: {key: spec}}, "text": {page: [text]}} for every HTML page under ``site``."""
    charts, text = {}, {}
    for path in sorted(site.rglob("*.html")):
        rel = str(path.relative_to(site))
        if rel.startswith(("_static", "_sources", "genindex", "search")):
            continue
        page = path.read_text(encoding="utf-8")
        specs = chart_specs(page)
        if specs:
            keyed = {}
            for n, spec in enumerate(specs):
                figure = (spec.get("usermeta") or {}).get("db2book", {}).get("figure") or "chart"
                keyed[f"{n:02d} {figure}"] = spec
            charts[rel] = keyed
        text[rel] = page_text(page)
    return {"charts": charts, "text": text}


def compare(before: dict, after: dict) -> list[str]:
    """Human-readable differences between two collections (empty when identical)."""
    out = []
    for part in ("charts", "text"):
        a, b = before.get(part, {}), after.get(part, {})
        for page in sorted(set(a) | set(b)):
            if page not in a or page not in b:
                out.append(f"{part}: page {page} only {'after' if page in b else 'before'}")
                continue
            if part == "charts":
                for key in sorted(set(a[page]) | set(b[page])):
                    if a[page].get(key) != b[page].get(key):
                        out.append(f"charts: {page} [{key}] differs")
            elif a[page] != b[page]:
                old, new = set(a[page]), set(b[page])
                for line in sorted(old - new):
                    out.append(f"text: {page} - {line[:200]}")
                for line in sorted(new - old):
                    out.append(f"text: {page} + {line[:200]}")
                if old == new:
                    out.append(f"text: {page}: same lines, in another order or number")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default="_build/html")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.compare)
        diffs = compare(before, after)
        print("\n".join(diffs) if diffs else "identical")
        return 1 if diffs else 0
    site = Path(args.site)
    if not site.is_dir():
        parser.error(f"site: {site} is not a folder; run `make book` first")
    json.dump(collect(site), sys.stdout, sort_keys=True, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
