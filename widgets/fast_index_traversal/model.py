"""Models of fast index traversal (FTB; IBM Redbooks SG24-8536, sections 2.6, 4.2-4.3): pure numpy.

* **Getpages per random select.** Without FTB a probe walks every index level, one getpage each,
  then reads the data pages; with FTB the non-leaf levels are in memory and only the leaf (and
  any extra leaf pages a long RID list spills into) remains.
* **Key size to index levels.** Leaf and non-leaf pages hold as many entries as fit; the number
  of levels is one leaf level plus enough non-leaf levels to fan in to a single root.
* **Getpages to CPU.** A getpage-linked share ``f`` of the CPU falls with the getpages.
* **Eligibility.** Example 2-4's key-length arithmetic and the limits by Db2 level.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import validation as v

PAGE_SIZES = (4096, 8192, 16384, 32768)
PAGE_OVERHEAD = 40  # header and trailer bytes of an index page (argued, not printed)
RID_BYTES = 5  # a record ID in a leaf entry (5 bytes for most table spaces)
CHILD_POINTER_BYTES = 4  # a child page number in a non-leaf entry


# --- 1. getpages per random select ------------------------------------------------------------


def getpages_per_select(rows_per_key, levels, data_pages, extra_leaf_pages=0.0, ftb: bool = False) -> np.ndarray:
    """Getpages for one random select through an index (index pages + data pages)."""
    r = v.in_range("rows_per_key", rows_per_key, 1, math.inf)
    n = v.in_range("levels", levels, 1, 16)
    d = v.non_negative("data_pages", data_pages, unit="pages")
    extra = v.non_negative("extra_leaf_pages", extra_leaf_pages, unit="pages")
    v.same_shape(rows_per_key=r, data_pages=d)
    index = (1.0 + extra) if ftb else (n + extra)
    return index + d


def getpage_reduction(rows_per_key, levels, data_pages, extra_leaf_pages=0.0) -> np.ndarray:
    """Fractional getpage cut from FTB: (levels - 1) / (levels + extra + data pages)."""
    before = getpages_per_select(rows_per_key, levels, data_pages, extra_leaf_pages, ftb=False)
    after = getpages_per_select(rows_per_key, levels, data_pages, extra_leaf_pages, ftb=True)
    return 1.0 - after / before


def data_pages_for_rows(rows_per_key, new_page_share) -> np.ndarray:
    """Distinct data pages for the rows of one key: the first row, and a share of the others."""
    r = v.in_range("rows_per_key", rows_per_key, 1, math.inf)
    p = v.ratio("new_page_share", new_page_share)
    return 1.0 + (r - 1.0) * p


# --- 2. key size to index levels ---------------------------------------------------------------


def entries_per_page(entry_bytes, page_bytes=4096, free_share=0.1) -> np.ndarray:
    """Whole entries that fit in an index page left ``free_share`` empty (PCTFREE)."""
    e = v.positive("entry_bytes", entry_bytes, unit="bytes")
    if page_bytes not in PAGE_SIZES:
        raise ValueError(f"page_bytes={page_bytes!r} is not one of {PAGE_SIZES}")
    f = v.in_range("free_share", free_share, 0.0, 0.99)
    usable = (page_bytes - PAGE_OVERHEAD) * (1.0 - f)
    if np.any(e > usable):
        raise ValueError(f"entry_bytes up to {float(np.max(e)):g} do not fit a {page_bytes}-byte page; "
                         f"valid range is (0, {usable:.0f}] bytes")
    return np.floor(usable / e)


def index_levels(rows, key_bytes, page_bytes=4096, free_share=0.1, nonleaf_key_share=1.0) -> np.ndarray:
    """Levels of a B-tree index over ``rows`` unique keys of ``key_bytes`` bytes.

    Leaf entries hold the key and a RID; non-leaf entries hold ``nonleaf_key_share`` of the key
    (Db2 stores only as much of a non-leaf key as separates the pages) and a child pointer.
    """
    n = v.in_range("rows", rows, 1, 1e13)
    k = v.in_range("key_bytes", key_bytes, 1, page_bytes / 2, unit="bytes")
    s = v.in_range("nonleaf_key_share", nonleaf_key_share, 0.05, 1.0)
    n, k = np.broadcast_arrays(n, k)
    leaf_fanout = entries_per_page(k + RID_BYTES, page_bytes, free_share)
    nonleaf_fanout = entries_per_page(np.maximum(1.0, k * s) + CHILD_POINTER_BYTES, page_bytes, free_share)
    pages = np.ceil(n / leaf_fanout)
    levels = np.ones_like(pages)
    for _ in range(40):
        more = pages > 1
        if not more.any():
            break
        pages = np.where(more, np.ceil(pages / nonleaf_fanout), pages)
        levels = levels + more
    return levels


def implied_nonleaf_fanout(rows: float, key_bytes: float, levels: int, page_bytes: int = 4096,
                           free_share: float = 0.1) -> float:
    """Smallest non-leaf fan-out that fits ``rows`` keys into ``levels`` levels."""
    leaf_pages = float(np.ceil(v.positive("rows", rows) / entries_per_page(key_bytes + RID_BYTES, page_bytes,
                                                                             free_share)))
    nonleaf_levels = int(v.in_range("levels", levels, 2, 16)) - 1
    return math.ceil(leaf_pages ** (1.0 / nonleaf_levels))


# --- 3. getpages to CPU ---------------------------------------------------------------------


def cpu_reduction(getpage_reduction_share, getpage_linked_share) -> np.ndarray:
    """Fractional CPU cut when a getpage-linked share f of the CPU falls with the getpages."""
    g = v.ratio("getpage_reduction_share", getpage_reduction_share)
    f = v.ratio("getpage_linked_share", getpage_linked_share)
    return f * g


# --- 4. eligibility ------------------------------------------------------------------------------

LIMITS = {  # (Db2 level) -> (unique key limit, non-unique key limit or None when not supported)
    "Db2 12 GA": (64, None),
    "Db2 12 FL 508": (64, 56),
    "Db2 13 FL 500": (128, 120),
}


@dataclass(frozen=True)
class Column:
    """One key column as the catalog describes it."""

    name: str
    coltype: str  # e.g. CHAR, VARCHAR, INTEGER, DECIMAL, VARBIN, TIMESTZ
    length: int  # SYSCOLUMNS.LENGTH, bytes
    nullable: bool = False
    include: bool = False  # an INCLUDE column of a unique index


@dataclass(frozen=True)
class Verdict:
    eligible: bool
    key_length: int
    limit: int | None
    reasons: list[str] = field(default_factory=list)


def ftb_key_length(columns: list[Column], unique: bool, count_include: bool = False) -> int:
    """Example 2-4's key length: column lengths, +1 per nullable column, +2/+4 for varying ones.

    The unique-index query adds 2 bytes for VARBIN only and skips INCLUDE columns; the
    non-unique query adds 2 for VARCHAR and 4 for VARBIN. (The two queries differ; the chapter
    points it out.)
    """
    total = 0
    for c in columns:
        if c.length <= 0:
            raise ValueError(f"column {c.name}: length={c.length} is out of range; valid range is [1, 32704] bytes")
        if unique and c.include and not count_include:  # INCLUDE columns stopped counting at FL 508
            continue
        extra = {"VARBIN": 2}.get(c.coltype, 0) if unique else {"VARCHAR": 2, "VARBIN": 4}.get(c.coltype, 0)
        total += c.length + extra + (1 if c.nullable else 0)
    return total


def eligibility(columns: list[Column], unique: bool, level: str = "Db2 13 FL 500",
                non_unique_enabled: bool | None = None, catalog: bool = False,
                versions_pending: bool = False) -> Verdict:
    """Whether an index can get FTB structures at ``level``, and why not."""
    if level not in LIMITS:
        raise ValueError(f"level={level!r} is not one of {sorted(LIMITS)}")
    if not columns:
        raise ValueError("an index needs at least one key column")
    unique_limit, non_unique_limit = LIMITS[level]
    reasons = []
    length = ftb_key_length(columns, unique, count_include=(level == "Db2 12 GA"))
    if any(c.coltype == "TIMESTZ" for c in columns):
        reasons.append("a TIMESTAMP WITH TIME ZONE key column is excluded")
    if catalog:
        reasons.append("catalog and directory indexes (DBID 1-6) are excluded")
    if versions_pending:
        reasons.append("the index has pending versions (OLDEST_VERSION differs from CURRENT_VERSION)")
    if unique:
        limit = unique_limit
    else:
        limit = non_unique_limit
        if limit is None:
            reasons.append(f"non-unique indexes are not supported at {level}")
        else:
            enabled = (level.startswith("Db2 13")) if non_unique_enabled is None else non_unique_enabled
            if not enabled:
                reasons.append("FTB_NON_UNIQUE_INDEX is NO (the Db2 12 default)")
    if limit is not None and length > limit:
        reasons.append(f"key length {length} bytes is over the {limit}-byte limit at {level}")
    return Verdict(eligible=not reasons, key_length=length, limit=limit, reasons=reasons)
