"""Lighthouse on a phone: every chapter page's four scores and its paint and interactivity times (bench/README.md, 8).

The built site is served as ``make serve`` serves it (:mod:`tools.serve`: the build's compressed copies of text
files) and Lighthouse (npm, the version package-lock.json pins) loads each chapter page with its default mobile
profile: a phone's screen, a simulated slow 4G link and a CPU four times slower than this one. A page is run
``runs`` times, one run at a time; each number is the median of its runs (the runs are in the row's samples).
Lighthouse's simulated times scale with how busy the machine is, so every row's note gives the load average.

    .venv/bin/python -m bench.lighthouse [--runs 3] [--page chapters/large_memory] [--plain] [--site DIR]

``--plain`` serves the files as they are (as ``python -m http.server`` does), to compare.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import NO_GOAL, ROOT, Rows, loadavg, median
from tools.site import CHROMIUM, SITE, serve
from widgets.studies import NOTES, STUDIES

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
#: Every chapter page: the studies' chapters and the notes' pages (the zEDC note), in book order.
PAGES = tuple(f"chapters/{s.slug}" for s in STUDIES) + tuple(n.page or f"chapters/{n.slug}" for n in NOTES)
CATEGORIES = (("performance", ">= 90"), ("accessibility", ">= 100"), ("best-practices", ">= 100"), ("seo", ">= 100"))
#: The timings reported (Lighthouse audit id, row label, unit): simulated on the mobile profile.
TIMINGS = (("first-contentful-paint", "first contentful paint", "s"),
           ("largest-contentful-paint", "largest contentful paint", "s"),
           ("total-blocking-time", "total blocking time", "ms"),
           ("interactive", "time to interactive", "s"),
           ("cumulative-layout-shift", "cumulative layout shift", ""))
RUNS = int(os.environ.get("DB2BOOK_LIGHTHOUSE_RUNS", "3"))
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update " \
               "--disable-sync --no-first-run"


def run_once(url: str, timeout: float = 300.0) -> dict:
    """One Lighthouse run (mobile profile) on ``url``: its JSON report (Lighthouse's result object)."""
    if not LIGHTHOUSE.exists():
        raise FileNotFoundError(f"{LIGHTHOUSE} is missing: run `make node` (npm ci installs Lighthouse)")
    with tempfile.TemporaryDirectory(prefix="db2book-lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
               "--only-categories=" + ",".join(c for c, _ in CATEGORIES), f"--chrome-flags={CHROME_FLAGS}"]
        env = dict(os.environ, CHROME_PATH=CHROMIUM, TMPDIR=tmp)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)  # its own group: a timeout stops its Chromium too
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise RuntimeError(f"lighthouse took more than {timeout:.0f} s on {url}") from None
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"lighthouse exited {proc.returncode}: {(stderr or stdout)[-600:]}")
        report = json.loads(out.read_text(encoding="utf-8"))
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse: {report['runtimeError'].get('message')}")
    return report


def summary(report: dict) -> dict:
    """The numbers of one run: the four scores (0-100), the timings (s, ms, or unitless for the layout shift)
    and the opportunities Lighthouse names, largest estimated saving first."""
    out = {cat: round(100 * report["categories"][cat]["score"]) for cat, _ in CATEGORIES}
    for audit, _, unit in TIMINGS:
        value = report["audits"][audit].get("numericValue")
        out[audit] = None if value is None else value / 1000 if unit == "s" else value
    audits = report["audits"]
    savings = {a["id"]: (a.get("details") or {}).get("overallSavingsMs") or 0 for a in audits.values()}
    out["opportunities"] = [f"{k} ({v / 1000:.1f} s)" for k, v in sorted(savings.items(), key=lambda kv: -kv[1])
                            if v > 0]
    out["failing"] = [ref["id"] for cat, _ in CATEGORIES[1:] for ref in report["categories"][cat]["auditRefs"]
                      if ref.get("weight") and audits[ref["id"]].get("score") is not None
                      and audits[ref["id"]]["score"] < 1]
    return out


def measure(base: str, pages: tuple[str, ...] = PAGES, runs: int = RUNS) -> dict[str, list[dict]]:
    """Every page, ``runs`` times, one Lighthouse run at a time: page -> the summaries of its runs."""
    results: dict[str, list[dict]] = {}
    for page in pages:
        for _ in range(runs):
            results.setdefault(page, []).append(summary(run_once(f"{base}/{page}.html")))
            print(f"bench: lighthouse {page}: {results[page][-1]}", file=sys.stderr, flush=True)
    return results


def add_rows(rows: Rows, results: dict[str, list[dict]], note: str) -> None:
    """The rows of every page: the median of its runs for each score (with its goal) and timing."""
    for page, runs in results.items():
        named = [a for r in runs for a in r["opportunities"]] + sorted({a for r in runs for a in r["failing"]})
        named = list(dict.fromkeys(a.split(" (")[0] for a in named))
        for cat, goal in CATEGORIES:
            rows.measured(f"lighthouse (mobile): {page}: {cat.replace('-', ' ')}", median([r[cat] for r in runs]),
                          "score", goal, samples=[r[cat] for r in runs],
                          note=note + ("; Lighthouse names: " + ", ".join(named) if cat == "performance" and named
                                       else ""))
        for audit, label, unit in TIMINGS:
            values = [r[audit] for r in runs if r[audit] is not None]
            rows.measured(f"  lighthouse (mobile): {page}: {label}", median(values), unit, samples=values)


def bench_lighthouse(rows: Rows, site: Path = SITE, compressed: bool = True, pages: tuple[str, ...] = PAGES,
                     runs: int = RUNS) -> None:
    """Section 8 of the bench: Lighthouse's mobile profile on every chapter page of the built site."""
    missing = [p for p in pages if not (site / f"{p}.html").exists()]
    if missing:
        rows.failed([f"lighthouse (mobile): {p}: performance" for p in pages], "score", ">= 90",
                    f"the site is not built ({site} lacks {', '.join(missing)}): run `make book`")
        return
    start = loadavg()
    try:
        with serve(site, compressed=compressed) as base:
            results = measure(base, pages, runs)
    except Exception as exc:  # noqa: BLE001 - no Lighthouse or no Chromium: the rows say so
        rows.failed([f"lighthouse (mobile): {p}: performance" for p in pages], "score", ">= 90", exc)
        return
    add_rows(rows, results, f"median of {runs} runs, {'compressed' if compressed else 'uncompressed'} serving; "
                            f"1-min load average {start} at the start, {loadavg()} at the end")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--page", action="append", choices=PAGES, help="only these pages (repeatable)")
    ap.add_argument("--plain", action="store_true", help="serve files uncompressed, as python -m http.server does")
    ap.add_argument("--site", type=Path, default=SITE)
    args = ap.parse_args(argv)
    rows = Rows()
    bench_lighthouse(rows, args.site, not args.plain, tuple(args.page or PAGES), args.runs)
    for r in rows.rows:
        print(f"{r['name']:<75} {r['value'] if r['value'] is not None else '—':>8} {r['unit']:<5} "
              f"{'' if r['goal'] == NO_GOAL else r['goal']:<7} {r.get('samples', '')} {r.get('error', '')}")
    print(rows.rows[0].get("note", ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
