"""Seeded problem generators for the hit-ratio chapter (OSTEP-style pool statistics).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's formulas; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.hit_ratio_dead.exercises -s 7 [-c]``.
"""
from __future__ import annotations

import numpy as np

from ..exercise_kit import Generator, Problem
from . import model


def _pool_statistics(rng, seed):
    minutes = int(rng.integers(10, 90))
    interval = 60.0 * minutes
    getpages = int(rng.integers(200_000, 20_000_000))
    sync = int(getpages * rng.uniform(0.01, 0.3))
    prefetch_ios = int(getpages * rng.uniform(0.0, 0.05))
    pages_per_prefetch = float(rng.integers(8, 33))
    pages_read = sync + int(prefetch_ios * pages_per_prefetch)
    ms = round(float(rng.uniform(0.5, 12)), 1)
    text = (f"A pool's statistics over {minutes} minutes: {getpages:,} getpages, {sync:,} synchronous reads,\n"
            f"{prefetch_ios:,} prefetch read I/Os, and {pages_read:,} pages read in total (sync + prefetch).\n"
            f"A synchronous read takes {ms} ms on average.\n"
            "  (a) application_pct: the application hit ratio (each read I/O counts once);\n"
            "  (b) system_pct: the system hit ratio (every page read counts);\n"
            "  (c) io_per_s: read I/Os per second;\n"
            "  (d) minutes_saved: elapsed minutes saved if half of the synchronous reads disappeared.")
    ios = sync + prefetch_ios
    return Problem(seed, "pool_statistics", text, {
        "application_pct": 100 * float(model.application_hit_ratio(getpages, ios)),
        "system_pct": 100 * float(model.system_hit_ratio(getpages, pages_read)),
        "io_per_s": float(model.io_rate(ios, interval)),
        "minutes_saved": float(model.elapsed_saved_s(sync / 2, ms)) / 60},
        {"application_pct": "%", "system_pct": "%", "io_per_s": "per s", "minutes_saved": "min"})


def _garbled_cell(rng, seed):
    n = int(rng.integers(4, 8))
    names = [f"BP{k}" for k in sorted(rng.choice(40, n, replace=False))]
    getpages = rng.integers(10_000, 5_000_000, n)
    ratios = np.round(rng.uniform(-40, 99.9, n), 1)
    hidden = int(rng.integers(n))
    # a big enough pool with a ratio away from zero, so four printed decimals determine it to 1%
    getpages[hidden] = max(int(getpages[hidden]), int(0.3 * (getpages.sum() - getpages[hidden])))
    ratios[hidden] = round(float(rng.choice([-1, 1, 1, 1]) * rng.uniform(5, 99.9)), 1)
    overall = model.overall_hit_ratio(getpages, ratios / 100) * 100
    rows = "\n".join(f"  {name:5s} {g:>11,} getpages   hit ratio {'??' if k == hidden else f'{r:5.1f}'}"
                     for k, (name, g, r) in enumerate(zip(names, getpages, ratios)))
    text = (f"A Pool Info screen lost one cell to bad OCR:\n{rows}\n"
            f"  overall system hit ratio {overall:.4f}\n"
            f"  (a) missing_pct: rebuild {names[hidden]}'s hit ratio from the overall ratio (a getpage-weighted mean).")
    return Problem(seed, "garbled_cell", text, {"missing_pct": float(ratios[hidden])}, {"missing_pct": "%"})


def _time_saved(rng, seed):
    rate = int(rng.integers(5, 400))
    minutes, secs = int(rng.integers(5, 120)), int(rng.integers(0, 60))
    ms = round(float(rng.uniform(0.8, 20)), 1)
    gain = int(rng.integers(2, 15))
    text = (f"Adding buffers raises a pool's hit ratio by {gain} points and cuts its I/O rate by {rate} per second.\n"
            f"The interval measured lasted {minutes} min {secs} s; a synchronous I/O of this object took {ms} ms.\n"
            "  (a) ios_avoided: I/Os the interval would no longer do;\n"
            "  (b) minutes_saved: elapsed minutes saved, if every avoided I/O was one the application waited for.\n"
            f"  (Note what the {gain} points contributed to either answer.)")
    ios = float(model.ios_avoided(rate, 60 * minutes + secs))
    return Problem(seed, "time_saved", text, {"ios_avoided": ios,
                                               "minutes_saved": float(model.elapsed_saved_s(ios, ms)) / 60},
                   {"ios_avoided": "I/Os", "minutes_saved": "min"})


def _negative_ratio(rng, seed):
    getpages = int(rng.integers(50_000, 2_000_000))
    seq = round(float(rng.uniform(0.3, 0.95)), 2)
    miss = round(float(rng.uniform(0.05, 0.6)), 2)
    touched = round(float(rng.uniform(0.25, 0.9)), 2)
    mix = model.PoolMix(seq, miss, touched)
    app, system = model.mix_hit_ratios(mix)
    text = (f"A pool serves {getpages:,} getpages: {seq:.0%} sequential, read by 32-page prefetch, "
            "and the rest random,\n"
            f"of which {miss:.0%} miss. Only {touched:.0%} of the prefetched pages are ever asked for.\n"
            "  (a) pages_read: pages read into the pool;\n"
            "  (b) application_pct and (c) system_pct: the two hit ratios.")
    return Problem(seed, "negative_ratio", text, {
        "pages_read": getpages * model.pages_read_per_getpage(mix), "application_pct": 100 * app,
        "system_pct": 100 * system}, {"pages_read": "pages", "application_pct": "%", "system_pct": "%"})


def _scan_cap(rng, seed):
    buffers = int(rng.integers(10, 400)) * 1000
    vpseqt = int(rng.integers(10, 90))
    lowered = int(rng.integers(5, vpseqt))
    text = (f"A pool of {buffers:,} buffers has VPSEQT {vpseqt}%. A long scan runs through it.\n"
            "  (a) scan_buffers: the most buffers the scan's pages may hold;\n"
            f"  (b) freed_buffers: how many buffers lowering VPSEQT to {lowered}% keeps for random pages.")
    return Problem(seed, "scan_cap", text, {"scan_buffers": buffers * vpseqt / 100,
                                             "freed_buffers": buffers * (vpseqt - lowered) / 100},
                   {"scan_buffers": "buffers", "freed_buffers": "buffers"})


_BUILDERS = {"pool_statistics": _pool_statistics, "garbled_cell": _garbled_cell, "time_saved": _time_saved,
             "negative_ratio": _negative_ratio, "scan_cap": _scan_cap}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded buffer pool statistics problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
