"""Take full-page screenshots of built pages: python -m tools.screenshot book/intro chapters/large_memory ..."""
from __future__ import annotations

import sys
from pathlib import Path

from tools.site import RequestLog, browser, serve

OUT = Path("_build/screenshots")


def main(pages: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with serve() as base, browser() as b:
        for name in pages:
            page = b.new_page(viewport={"width": 1280, "height": 900})
            log = RequestLog(page)
            page.goto(f"{base}/{name}.html", wait_until="networkidle")
            page.wait_for_timeout(500)
            path = OUT / (name.replace("/", "_") + ".png")
            page.screenshot(path=str(path), full_page=True)
            for i, chart in enumerate(page.query_selector_all(".db2book-chart")):
                chart.screenshot(path=str(OUT / f"{name.replace('/', '_')}_chart{i}.png"))
            print(path, "errors:", log.errors(), "outside:", log.outside(), f"bytes: {log.bytes:,}")
            page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["chapters/large_memory"]))
