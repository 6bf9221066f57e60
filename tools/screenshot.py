"""Take full-page screenshots of built pages at desktop (1280 px) and phone (390 px, touch) size:
python -m tools.screenshot book/intro chapters/large_memory ...  (PNGs in _build/screenshots).

Each figure is also shot on its own (``..._chart<i>.png``); with ``--tables``, each printed table
and ledger box too (``..._table<i>.png``), which a full page shot shows too small to read."""
from __future__ import annotations

import sys
from pathlib import Path

from tools.site import JS_CHARTS_DRAWN, RequestLog, browser, serve

OUT = Path("_build/screenshots")
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


def main(pages: list[str], tables: bool = False) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with serve() as base, browser() as b:
        for name in pages:
            for size, context in SIZES.items():
                ctx = b.new_context(**context)
                page = ctx.new_page()
                log = RequestLog(page)
                page.goto(f"{base}/{name}.html", wait_until="networkidle")
                page.wait_for_function(JS_CHARTS_DRAWN, timeout=30_000)  # charts draw near the screen: all now
                page.wait_for_timeout(500)
                stem = f"{name.replace('/', '_')}_{size}"
                path = OUT / f"{stem}.png"
                page.screenshot(path=str(path), full_page=True)
                for i, chart in enumerate(page.query_selector_all("figure.db2book-figure, .db2book-chart")):
                    if chart.evaluate("e => e.matches('.db2book-chart') && !!e.closest('figure.db2book-figure')"):
                        continue  # the figure around it is shot
                    chart.screenshot(path=str(OUT / f"{stem}_chart{i}.png"))
                if tables:
                    for i, box in enumerate(page.query_selector_all("div.db2book-table, div.ledger-scroll")):
                        if box.is_visible():
                            box.screenshot(path=str(OUT / f"{stem}_table{i}.png"))
                print(path, "errors:", log.errors(), "outside:", log.outside(), f"bytes: {log.bytes:,}")
                ctx.close()
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--tables"]
    sys.exit(main(args or ["chapters/large_memory"], tables="--tables" in sys.argv[1:]))
