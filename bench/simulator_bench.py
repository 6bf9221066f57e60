"""Benchmark of the Buffer Pool Tool (widgets/hit_ratio_dead): Mattson curve time, simulator
throughput, and libcachesim's Python binding on the same trace.

One seeded trace of 1,000,000 getpages (a Zipf-like random tablespace, a big looping scan, an index
scanned in 200-page runs). Measured, each the median of ``repeats`` runs:

* the full pure-LRU miss-ratio curve (every pool size from 1 page to the number of distinct
  pages) from Mattson's stack distances, in seconds - goal <= 1 s;
* the simulator's getpages per second in pure-LRU mode (VPSEQT 100, no prefetch) and in DB2 mode
  (VPSEQT 80, 32-page prefetch), including its set-up (keys, prefetch triggers, counts);
* libcachesim 0.3.5's LRU (C) on the same keys and pool size, three ways: a new ``Request`` per
  getpage and ``cache.get`` (how a student writes it), one ``Request`` reused with its ``obj_id``
  changed, and its bulk path (``TraceReader`` over an oracleGeneral binary file +
  ``process_trace``, the file written beforehand and not timed); each with the default hash
  table (``hashpower=24``, 2**24 buckets, which costs it a fixed ~0.1 s and cache misses) and
  with one sized to the pool (``hashpower=16`` for 20,000 pages), which is much faster;
* the ratios simulator / libcachesim - goal >= 3 against the student's way (new Request per
  getpage, default cache); the other ratios are reported without a goal.

``run()`` returns a dict: the numbers by key and ``rows`` (name, value, unit, goal, met) for
``bench/run.py``. ``python bench/simulator_bench.py`` prints a table (``--json`` for JSON).
"""
from __future__ import annotations

import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from widgets.hit_ratio_dead import simulator as S  # noqa: E402
from widgets.hit_ratio_dead import stack_distance as SD  # noqa: E402

N_GETPAGES = 1_000_000
SEED = 20240601
POOL_PAGES = 20_000  # 80 MB of 4 KB buffers; the trace touches about 190,000 distinct pages
CURVE_GOAL_S = 1.0
RATIO_GOAL = 3.0


def workload(n_getpages: int = N_GETPAGES, seed: int = SEED) -> S.Trace:
    """The benchmark trace: random, scanning and index-scanning getpages, interleaved."""
    return S.generate_trace([
        S.ObjectSpec("TSRAND", 200_000, "random", rate=800, skew=0.9),
        S.ObjectSpec("TSSCAN", 50_000, "sequential", rate=200),
        S.ObjectSpec("IXSCAN", 3_000, "sequential", rate=100, scan_pages=200),
    ], n_getpages=n_getpages, seed=seed)


def _median_time(fn, repeats: int) -> tuple[float, list[float], object]:
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times, out


def _write_oracle_general(keys: np.ndarray, path: Path) -> None:
    """libcachesim's oracleGeneral binary records: uint32 time, uint64 id, uint32 size, int64 next."""
    rec = np.zeros(keys.size, dtype=[("t", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
    rec["t"] = np.arange(keys.size)
    rec["id"] = keys + 1
    rec["size"] = 1  # one byte per page: a cache of POOL_PAGES bytes holds POOL_PAGES pages
    rec["next"] = -1
    rec.tofile(path)


def _libcachesim(keys: np.ndarray, pool: int, repeats: int) -> dict:
    """libcachesim's LRU three ways, with its default hash table (``hashpower=24``: 2**24 buckets,
    what ``lcs.LRU(cache_size=...)`` gives) and with one sized to the pool (``tuned``)."""
    from importlib.metadata import version

    import libcachesim as lcs

    ids = (keys + 1).tolist()
    n = len(ids)
    tuned = max(10, math.ceil(math.log2(pool)) + 1)  # buckets >= 2 x the objects the cache holds
    out = {"libcachesim_version": version("libcachesim"), "lcs_tuned_hashpower": tuned}

    def make(hashpower):
        return lcs.LRU(cache_size=pool) if hashpower is None else lcs.LRU(cache_size=pool, hashpower=hashpower)

    with tempfile.TemporaryDirectory(prefix="bpsim-bench-") as tmp:
        path = Path(tmp) / "trace.oracleGeneral.bin"
        _write_oracle_general(keys, path)
        for label, hashpower in (("", None), ("tuned_", tuned)):

            def new_request(hp=hashpower):
                cache = make(hp)
                hits = 0
                for k in ids:
                    hits += cache.get(lcs.Request(obj_size=1, obj_id=k))
                return 1 - hits / n

            def reused_request(hp=hashpower):
                cache = make(hp)
                req = lcs.Request(obj_size=1)
                hits = 0
                for k in ids:
                    req.obj_id = k
                    hits += cache.get(req)
                return 1 - hits / n

            def bulk(hp=hashpower):
                reader = lcs.TraceReader(str(path), lcs.TraceType.ORACLE_GENERAL_TRACE)
                return make(hp).process_trace(reader)[0]

            for way, fn in (("new_request", new_request), ("reused_request", reused_request), ("bulk", bulk)):
                t, samples, miss = _median_time(fn, repeats)
                out[f"lcs_{label}{way}_gps"] = n / t
                out[f"lcs_{label}{way}_samples"] = samples
                out[f"lcs_{label}{way}_miss_ratio"] = miss
    return out


def run(n_getpages: int = N_GETPAGES, repeats: int = 3) -> dict:
    """Measure everything on one seeded trace; see the module docstring. Never raises for a
    missing libcachesim (its rows then carry an ``error``)."""
    trace = workload(n_getpages)
    keys = trace.keys
    distinct = int(np.unique(keys).size)
    sizes = np.arange(1, distinct + 1)
    res: dict = {"getpages": len(trace), "distinct_pages": distinct, "pool_pages": POOL_PAGES}

    t, samples, curve = _median_time(lambda: SD.miss_ratio_curve(keys, sizes), repeats)
    res.update(mattson_curve_s=t, mattson_curve_samples=samples)
    mattson_miss = float(curve[POOL_PAGES - 1])

    t, samples, lru = _median_time(
        lambda: S.simulate(trace, POOL_PAGES, vpseqt_pct=100, prefetch_quantity=0), repeats)
    res.update(sim_lru_gps=len(trace) / t, sim_lru_samples=samples)
    sim_miss = 1 - lru.application_hit_ratio
    t, samples, db2 = _median_time(lambda: S.simulate(trace, POOL_PAGES), repeats)
    res.update(sim_prefetch_gps=len(trace) / t, sim_prefetch_samples=samples,
               sim_prefetch_application_hit_ratio=db2.application_hit_ratio,
               sim_prefetch_system_hit_ratio=db2.system_hit_ratio)
    res.update(mattson_miss_ratio=mattson_miss, sim_lru_miss_ratio=sim_miss)

    try:
        res.update(_libcachesim(keys, POOL_PAGES, repeats))
        theirs = [v for k, v in res.items() if k.startswith("lcs_") and k.endswith("_miss_ratio")]
        res["lru_miss_ratio_max_abs_diff"] = max(abs(a - b) for a in theirs for b in (mattson_miss, sim_miss))
        for mode in ("lru", "prefetch"):
            for way in LCS_WAYS:
                res[f"ratio_sim_{mode}_vs_lcs_{way}"] = res[f"sim_{mode}_gps"] / res[f"lcs_{way}_gps"]
    except Exception as exc:  # noqa: BLE001 - report, never crash
        res["lcs_error"] = f"{type(exc).__name__}: {exc}"
    res["rows"] = _rows(res)
    return res


def _row(name, value, unit, goal="report only", samples=None, error=None) -> dict:
    met = None
    if value is not None and goal != "report only":
        op, limit = goal.split()[:2]
        met = value <= float(limit) if op == "<=" else value >= float(limit)
    row = {"name": name, "value": None if value is None else round(float(value), 3), "unit": unit,
           "goal": goal, "met": met}
    if samples is not None:
        row["samples"] = [round(float(x), 4) for x in samples]
    if error is not None:
        row["error"] = error
    return row


LCS_WAYS = {  # key -> label; the goal applies to the first (the student's way, defaults)
    "new_request": "new Request each",
    "reused_request": "Request reused",
    "bulk": "bulk process_trace",
    "tuned_new_request": "new Request each, sized hash",
    "tuned_reused_request": "Request reused, sized hash",
    "tuned_bulk": "bulk process_trace, sized hash",
}


def _rows(r: dict) -> list[dict]:
    n = f"{r['getpages'] / 1e6:g}M getpages"
    rows = [
        _row(f"bp tool: Mattson full LRU curve, {n}", r["mattson_curve_s"], "s",
             f"<= {CURVE_GOAL_S:g} s", r["mattson_curve_samples"]),
        _row("bp tool: simulator, pure LRU", r["sim_lru_gps"] / 1e6, "M getpages/s",
             samples=r["sim_lru_samples"]),
        _row("bp tool: simulator, VPSEQT 80 + prefetch 32", r["sim_prefetch_gps"] / 1e6, "M getpages/s",
             samples=r["sim_prefetch_samples"]),
    ]
    err = r.get("lcs_error")
    for key, label in LCS_WAYS.items():
        gps = r.get(f"lcs_{key}_gps")
        rows.append(_row(f"bp tool: libcachesim LRU, {label}", None if gps is None else gps / 1e6,
                         "M getpages/s", samples=r.get(f"lcs_{key}_samples"), error=err if gps is None else None))
    for mode, label in (("lru", "LRU"), ("prefetch", "prefetch")):
        for i, (key, way) in enumerate(LCS_WAYS.items()):
            ratio = r.get(f"ratio_sim_{mode}_vs_lcs_{key}")
            goal = f">= {RATIO_GOAL:g}" if i == 0 else "report only"
            rows.append(_row(f"bp tool: sim {label} / lcs {way}", ratio, "x", goal,
                             error=err if ratio is None else None))
    diff = r.get("lru_miss_ratio_max_abs_diff")
    rows.append(_row("bp tool: LRU miss ratio, max |ours - libcachesim|", diff, "",
                     error=err if diff is None else None))
    return rows


def table(r: dict) -> str:
    lines = [f"Buffer Pool Tool benchmark: {r['getpages']:,} getpages, {r['distinct_pages']:,} distinct pages, "
             f"pool {r['pool_pages']:,} pages", ""]
    width = max(len(row["name"]) for row in r["rows"])
    for row in r["rows"]:
        value = "-" if row["value"] is None else f"{row['value']:g}"
        met = {True: "met", False: "NOT met", None: ""}[row["met"]]
        goal = "" if row["goal"] == "report only" else f"goal {row['goal']}"
        extra = f"  ({row['error']})" if "error" in row else ""
        lines.append(f"{row['name']:<{width}}  {value:>10} {row['unit']:<13} {goal:<10} {met}{extra}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    result = run()
    print(json.dumps(result, indent=1) if "--json" in argv else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
