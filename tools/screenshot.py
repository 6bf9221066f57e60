"""Take full-page screenshots of built pages at desktop (1280 px) and phone (390 px, touch) size:
python -m tools.screenshot book/intro chapters/large_memory ...  (PNGs in _build/screenshots)."""
from __future__ import annotations

import sys
from pathlib import Path

from tools.site import RequestLog, browser, serve

OUT = Path("_build/screenshots")
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


def main(pages: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with serve() as base, browser() as b:
        for name in pages:
            for size, context in SIZES.items():
                ctx = b.new_context(**context)
                page = ctx.new_page()
                log = RequestLog(page)
                page.goto(f"{base}/{name}.html", wait_until="networkidle")
                page.wait_for_timeout(500)
                stem = f"{name.replace('/', '_')}_{size}"
                path = OUT / f"{stem}.png"
                page.screenshot(path=str(path), full_page=True)
                for i, chart in enumerate(page.query_selector_all("figure.db2book-figure, .db2book-chart")):
                    if chart.evaluate("e => e.matches('.db2book-chart') && !!e.closest('figure.db2book-figure')"):
                        continue  # the figure around it is shot
                    chart.screenshot(path=str(OUT / f"{stem}_chart{i}.png"))
                print(path, "errors:", log.errors(), "outside:", log.outside(), f"bytes: {log.bytes:,}")
                ctx.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["chapters/large_memory"]))
