"""Sample data to compress, made deterministically on the spot (nothing is downloaded).

Two kinds, because a compression ratio belongs to the data, not to the compressor:

* :func:`smf_like_records`: binary records shaped like SMF activity records (a record descriptor
  word, a record type, a time stamp that advances, a system and job name from a small set, and
  counters). Synthetic: the layout is SMF's in spirit only, and the ratio it gives is a property of
  this generator, not of any installation's SMF data.
* :func:`book_tables`: the book's own published tables (the CSV files in ``data/``), as text.
  Real data, of the kind the deck calls "text data".
"""
from __future__ import annotations

import struct

import numpy as np

from ..data import data_dir

#: The largest sample made here: enough to time zlib over several levels in a second or two.
MAX_SAMPLE_MB = 64.0

_SYSTEMS = (b"SYSA", b"SYSB", b"SYSC", b"SYSD")
_JOBS = tuple(f"{p}{n:04d}".encode().ljust(8) for p in ("PAYROLL", "DB2M", "CICSP", "BATCH") for n in range(12))
_TYPES = (30, 70, 72, 74, 101, 110)  # job activity, RMF processor, workload, device, Db2 accounting, CICS


def smf_like_records(megabytes: float = 4.0, seed: int = 2014) -> bytes:
    """About ``megabytes`` MB (decimal) of SMF-like binary records; the same bytes for the same seed.

    Each record: a 4-byte descriptor (length), a 1-byte type, an 8-byte time stamp in hundredths of a
    second since midnight that advances by a few seconds per record, the system name, a job name,
    then 16 to 48 four-byte counters, most small, some zero, a few large.
    """
    if not isinstance(megabytes, (int, float)) or not 0 < megabytes <= MAX_SAMPLE_MB:
        raise ValueError(f"megabytes={megabytes!r} is out of range; valid range is (0, {MAX_SAMPLE_MB:g}] MB")
    rng = np.random.default_rng(seed)
    target = int(megabytes * 1e6)
    parts, size, clock = [], 0, 8 * 360000  # 08:00 in hundredths of a second
    while size < target:
        n = int(rng.integers(16, 49))
        counters = rng.poisson(rng.choice([0.0, 3.0, 40.0, 2000.0], p=[0.3, 0.3, 0.3, 0.1]), size=n)
        counters[rng.random(n) < 0.05] = rng.integers(0, 2**31 - 1)  # the odd large counter (bytes moved)
        clock += int(rng.integers(0, 400))
        body = (struct.pack(">BQ", _TYPES[int(rng.integers(len(_TYPES)))], clock)
                + _SYSTEMS[int(rng.integers(len(_SYSTEMS)))] + _JOBS[int(rng.integers(len(_JOBS)))]
                + counters.astype(">u4").tobytes())
        record = struct.pack(">HH", len(body) + 4, 0) + body
        parts.append(record)
        size += len(record)
    return b"".join(parts)[:target]


def book_tables() -> bytes:
    """Every published table of the book (``data/*/*.csv``, sorted by path), concatenated as text."""
    paths = sorted(data_dir().glob("*/*.csv"))
    if not paths:
        raise ValueError(f"no CSV tables under {data_dir()}")
    return b"".join(p.read_bytes() for p in paths)
