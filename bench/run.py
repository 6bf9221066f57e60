"""Benchmark of the book: build time, page weight, time to interactive, redraw and Voila latency,
model speed, chart data weight, and Lighthouse's scores on a phone.

Run with ``make bench`` (builds the site first) or ``.venv/bin/python bench/run.py [--json]``
from the repository root. Prints a table (or, with ``--json``, the JSON) and always writes the
JSON to ``bench/results/latest.json``. Every measurement is its own function; one that fails
gives a row with ``value: null`` and its error, and the others still run. See bench/README.md.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import (build_times, chart_weight, class_load, dashboard_widgets, lighthouse, model_speed,  # noqa: E402
                   pages, print_edition, static_slider, voila_latency)
from bench.common import NO_GOAL, RESULTS, Rows, loadavg  # noqa: E402
from tools.site import browser, serve  # noqa: E402  (needs ROOT on sys.path)


def bench_site(rows: Rows) -> None:
    """Rows 2 and 3: they need the built site and a browser."""
    missing = pages.site_missing()
    if missing:
        print(f"bench: {missing}", file=sys.stderr)
        for name in pages.PAGES:
            n_cold, n_warm, n_tti, goal_warm = pages.page_rows(name)
            rows.failed(n_cold, "KB", NO_GOAL, missing)
            rows.failed(n_tti, "ms", NO_GOAL, missing)
            rows.failed(n_warm, "KB", goal_warm, missing)
        rows.failed("static slider -> redraw, median of 20 (next frame)", "ms", "<= 16 ms", missing)
        return
    try:
        with serve() as base, browser() as b:
            pages.bench_pages(rows, b, base)
            pages.bench_practice_sets(rows)
            static_slider.bench_static_slider(rows, b, base)
    except Exception as exc:  # noqa: BLE001 - no browser, for instance
        rows.failed("site: browser", "", NO_GOAL, exc)


# --- 7. the Buffer Pool Tool: Mattson curve, simulator and libcachesim on one 1M-getpage trace ----


def bench_simulator(rows: Rows) -> None:
    try:
        from bench import simulator_bench  # numpy and libcachesim: a failure is this section's row

        result = simulator_bench.run()
    except Exception as exc:  # noqa: BLE001
        rows.failed("bp tool: (section)", "", NO_GOAL, exc)
        return
    rows.rows.extend(result["rows"])


# --- the table ------------------------------------------------------------------------------


def _fmt(value) -> str:
    if value is None:
        return "—"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def table(report: dict) -> str:
    rows = report["rows"]
    heads = ("measurement", "value", "unit", "goal", "met")
    body = []
    for r in rows:
        met = {True: "yes", False: "NO", None: "—"}[r["met"]]
        goal = "—" if r["goal"] == NO_GOAL else r["goal"]
        body.append((r["name"], _fmt(r["value"]), r["unit"], goal, met))
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(heads)]
    align = ("<", ">", "<", "<", "<")
    line = lambda cells: "  ".join(f"{c:{a}{w}}" for c, a, w in zip(cells, align, widths)).rstrip()  # noqa: E731
    out = [line(heads), line(["-" * w for w in widths])]
    out += [line(b) for b in body]
    errors = [r for r in rows if r.get("error")]
    if errors:
        out.append("")
        out.append("errors:")
        previous = None
        for r in errors:
            out.append(f"  {r['name']}: {'(the same)' if r['error'] == previous else r['error']}")
            previous = r["error"]
    g = report["summary"]
    load = report["machine"]["load_average_1min"]
    busy = [x for x in (load["start"], load["end"]) if x is not None and x > 0.5 * (report["machine"]["cpus"] or 1)]
    if busy:
        out.append("")
        out.append(f"warning: the machine was busy (1-min load average {load['start']} at the start, "
                   f"{load['end']} at the end, {report['machine']['cpus']} CPUs): timings are inflated")
    out.append("")
    out.append(f"{g['goals_met']} of {g['goals']} goals met"
               + (f" ({g['goals_unmeasured']} not measured)" if g["goals_unmeasured"] else "")
               + f"; JSON in {os.path.relpath(RESULTS, Path.cwd())}")
    return "\n".join(out)


SECTIONS = {
    "build": build_times.bench_build,
    "site": bench_site,
    "voila": voila_latency.bench_voila_rows,
    "classload": class_load.bench_class_load,
    "widgets": dashboard_widgets.bench_dashboard_widgets,
    "model": model_speed.bench_model,
    "weight": chart_weight.bench_chart_weight,
    "simulator": bench_simulator,
    "pdf": print_edition.bench_print_edition,
    "lighthouse": lighthouse.bench_lighthouse,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the JSON to stdout instead of the table")
    ap.add_argument("--only", action="append", choices=sorted(SECTIONS),
                    help="run only these sections (repeatable; default: all)")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    rows = Rows()
    load_start = loadavg()
    for key, fn in SECTIONS.items():
        if args.only and key not in args.only:
            continue
        print(f"bench: {key} ...", file=sys.stderr, flush=True)
        try:
            fn(rows)
        except Exception as exc:  # noqa: BLE001 - the last safety net
            traceback.print_exc(file=sys.stderr)
            rows.failed(f"{key}: (section)", "", NO_GOAL, exc)
    with_goal = [r for r in rows.rows if r["goal"] != NO_GOAL]
    report = {
        "generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(),
                    "load_average_1min": {"start": load_start, "end": loadavg()}},
        "units": "1 KB = 1000 bytes; ms and s are wall-clock",
        "rows": rows.rows,
        "summary": {"goals": len(with_goal), "goals_met": sum(r["met"] is True for r in with_goal),
                    "goals_missed": sum(r["met"] is False for r in with_goal),
                    "goals_unmeasured": sum(r["met"] is None for r in with_goal)},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
