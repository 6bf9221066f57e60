"""The SHARE deck's zEDC numbers, from ``data/zedc/claims.csv``, each with a citation a reader can follow.

The deck's slides carry no numbers in the text extraction, so a claim is cited by the document and
the title of its slide (``System z Performance: More Than You Think, SHARE session 15709 (2014),
slide "SMF using zEDC"``); the extraction's line stays in ``data/`` for maintainers.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from ..citations import document_name
from ..data import DataError, load_long, sources

STUDY = "zedc"
CLAIMS = "claims.csv"
#: The three kinds of row, as ``basis`` names them in the CSV file.
CLAIM = 'vendor claim, "up to": a best case with no table behind it in the deck'
LIMIT = "vendor recommendation or product limit, not a measurement"
SETUP = "test setup described on the slide, not a result"


def slide_citation(slide_title: str) -> str:
    """Document and slide, e.g. ``... SHARE session 15709 (2014), slide "SMF using zEDC"``."""
    seed = sources(STUDY).set_index("file").loc[CLAIMS, "seed"]
    where = "an untitled slide" if slide_title.strip("()") == "untitled slide" else f'slide "{slide_title}"'
    return f"{document_name(seed)}, {where}"


@lru_cache(maxsize=None)
def claims() -> pd.DataFrame:
    """Every row of ``claims.csv`` (checked on load) with ``source``: document and slide."""
    frame = load_long(STUDY, CLAIMS)
    for column in ("slide_title", "slide_line", "basis"):
        if column not in frame.columns:
            raise DataError(f"data/{STUDY}/{CLAIMS}: missing column {column}")
    unknown = sorted(set(frame["basis"]) - {CLAIM, LIMIT, SETUP})
    if unknown:
        raise DataError(f"data/{STUDY}/{CLAIMS}: unknown basis {unknown}; expected one of {[CLAIM, LIMIT, SETUP]}")
    frame["source"] = [slide_citation(t) for t in frame["slide_title"]]
    return frame


def value(run_id: str, metric: str) -> float:
    """One printed number of the deck (in its unit: ``pct``, ``x``, ``GB_per_s``, ``count``, ``min``)."""
    frame = claims()
    hit = frame[(frame["run_id"] == run_id) & (frame["metric"] == metric)]
    if hit.empty:
        raise DataError(f"data/{STUDY}/{CLAIMS}: no row for run {run_id!r}, metric {metric!r}")
    return float(hit["value"].iloc[0])


def cite(run_id: str, metric: str) -> str:
    """Document and slide of one printed number."""
    frame = claims()
    hit = frame[(frame["run_id"] == run_id) & (frame["metric"] == metric)]
    if hit.empty:
        raise DataError(f"data/{STUDY}/{CLAIMS}: no row for run {run_id!r}, metric {metric!r}")
    return hit["source"].iloc[0]


#: The performance claims as the note shows them: (run_id, metric, what is claimed, against what).
SHOWN = (
    ("bsam_qsam", "disk_reduction_vs_uncompressed_x", "less disk space", "uncompressed BSAM/QSAM data sets"),
    ("bsam_qsam", "disk_reduction_vs_existing_compression_x",
     "the reduction in disk space (§: double of what, unstated; read here as half the size)",
     "the existing DFSMS compression (generic, tailored)"),
    ("bsam_qsam", "compression_cpu_reduction_pct", "less CPU for compression and decompression",
     "the existing DFSMS compression (generic, tailored), which the deck calls hardware compression; not zlib"),
    ("java_gzip", "cpu_reduction_vs_zlib_pct", "less CPU, compressing (GZIPOutputStream writes)",
     "Java GZIPOutputStream on zlib in software"),
    ("java_gzip", "elapsed_reduction_vs_zlib_pct", "less elapsed time (the deck: \"not shown\")",
     "Java GZIPOutputStream on zlib in software"),
    ("encryption_facility", "cpu_reduction_with_compression_pct", "less CPU",
     "Encryption Facility, already compressing"),
    ("encryption_facility", "elapsed_reduction_with_compression_pct", "less elapsed time",
     "Encryption Facility, already compressing"),
    ("encryption_facility", "cpu_reduction_without_compression_pct", "less CPU",
     "Encryption Facility, not compressing before"),
    ("encryption_facility", "elapsed_reduction_without_compression_pct", "less elapsed time",
     "Encryption Facility, not compressing before"),
    ("smf_logstreams", "logger_data_reduction_x", "less data in System Logger", "uncompressed SMF log streams"),
    ("smf_logstreams", "ifasmfdl_elapsed_reduction_pct", "less elapsed time to extract with IFASMFDL",
     "uncompressed SMF log streams"),
    ("zedc_feature", "throughput_gb_per_s_max", "compression and decompression throughput",
     "four zEDC Express features (the recommended configuration)"),
)


def claims_table() -> pd.DataFrame:
    """The vendor's "up to" claims for readers: the number as printed, what it is, against what, and the
    slide it is on (the page names the document once, above the table; ``claims()`` has both per row)."""
    frame = claims().set_index(["run_id", "metric"])
    rows = []
    for run, metric, what, against in SHOWN:
        row = frame.loc[(run, metric)]
        if row["basis"] != CLAIM:
            raise DataError(f"data/{STUDY}/{CLAIMS}: {run}/{metric} is not a vendor claim ({row['basis']})")
        rows.append({"claim: up to": row["printed"].removeprefix("up to ").removeprefix("Up to ")
                     .removeprefix("by up to "), "what": what, "against": against,
                     "slide": "untitled (Encryption Facility)" if row["slide_title"] == "(untitled slide)"
                     else row["slide_title"]})
    return pd.DataFrame(rows)
