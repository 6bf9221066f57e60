"""Measuring software compression (Python's ``zlib``) on this machine.

The only timing code of the zEDC note. It measures CPU time of the process (``time.process_time``),
which other work on a shared machine inflates less than wall-clock time, and reports what the
deck's claims are stated in: a compression ratio, and the CPU a gigabyte costs.
"""
from __future__ import annotations

import time
import zlib

import pandas as pd

from . import model

LEVELS = (1, 6, 9)  # fastest, zlib's default, smallest


def compress_once(data: bytes, level: int) -> tuple[int, float, float]:
    """Compress ``data`` at zlib ``level``: (compressed bytes, CPU seconds, wall seconds)."""
    if not isinstance(level, int) or not 0 <= level <= 9:
        raise ValueError(f"level={level!r} is out of range; valid range is the integers 0 to 9")
    cpu, wall = time.process_time(), time.perf_counter()
    size = len(zlib.compress(data, level))
    return size, time.process_time() - cpu, time.perf_counter() - wall


def zlib_table(samples: dict[str, bytes], levels=LEVELS, repeats: int = 3) -> pd.DataFrame:
    """One row per sample and level: its size, the ratio, and the fastest of ``repeats`` runs as
    CPU seconds per GB and MB per CPU second (uncompressed MB, decimal)."""
    if not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats={repeats!r} is out of range; valid range is the integers >= 1")
    rows = []
    for name, data in samples.items():
        if not data:
            raise ValueError(f"sample {name!r} is empty; give it at least one byte")
        for level in levels:
            runs = [compress_once(data, level) for _ in range(repeats)]
            size = runs[0][0]
            cpu = max(min(r[1] for r in runs), 1e-6)  # a clock tick below the timer's resolution is not free
            rows.append({"sample": name, "zlib level": level, "MB in": len(data) / 1e6, "MB out": size / 1e6,
                         "ratio": float(model.ratio_from_sizes(len(data), size)),
                         "CPU s per GB": float(model.cpu_s_per_gb(cpu, len(data))),
                         "MB per CPU second": len(data) / 1e6 / cpu})
    return pd.DataFrame(rows)
