"""The print edition (bench/README.md, 8): how long ``make pdf``'s PDF step takes, and the PDF it makes."""
from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

from bench.build_times import _timed
from bench.common import KB, NO_GOAL, ROOT, Rows

SITE = ROOT / "_build" / "html"


def bench_print_edition(rows: Rows) -> None:
    """Time ``python -m tools.pdf`` on the built site (into a scratch file: the site's copy is left alone)."""
    build, size, pages = ("print edition: build (make pdf's PDF step, from the built site)",
                          "print edition: size", "print edition: pages")
    if not (SITE / "book" / "intro.html").exists():
        rows.failed([build, size, pages], "", NO_GOAL, "_build/html is missing: run `make book`")
        return
    try:
        from pypdf import PdfReader

        with tempfile.TemporaryDirectory(prefix="db2book-pdf-") as tmp:
            out = Path(tmp) / "edition.pdf"
            elapsed, cpu, _ = _timed([sys.executable, "-m", "tools.pdf", "--site", str(SITE), "--out", str(out),
                                      "--no-publish"], ROOT)
            data = out.read_bytes()
        rows.measured(build, elapsed, "s", note=f"CPU {cpu:.1f} s (this process's children: the browser's "
                                                "processes are counted as far as they are reaped)")
        rows.measured(size, len(data) / KB / KB, "MB")
        rows.measured(pages, len(PdfReader(io.BytesIO(data)).pages), "pages")
    except Exception as exc:  # noqa: BLE001 - report, never crash
        rows.failed([build, size, pages], "", NO_GOAL, exc)
