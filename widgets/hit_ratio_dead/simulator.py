"""The Buffer Pool Tool: a trace-driven simulator of one DB2 for z/OS buffer pool, pure Python/numpy.

A *trace* is a sequence of getpages, each naming an object (tablespace or index), a page number in
it and whether the access is sequential (prefetch-eligible). The pieces:

* :class:`ObjectSpec` and :func:`generate_trace` - a seeded synthetic workload: random objects with
  power-law page popularity, sequential objects that scan (looping scans give LRU's critical
  threshold: no hits until the pool holds the loop).
* :func:`read_trace` / :func:`write_trace` - the trace as a text file (format below).
* :func:`simulate` - one pool of ``pool_pages`` buffers: LRU with a sequential sub-chain capped by
  VPSEQT, and sequential prefetch of aligned blocks. :func:`sweep` for a what-if over pool sizes,
  :func:`split_pools` for objects assigned to several pools.
* Pure LRU curves in one pass are in :mod:`.stack_distance` (Mattson); the simulator agrees with
  them exactly when prefetch and VPSEQT play no part.

Definitions (per object and per pool; counts are over the trace, rates per second of the trace's
interval):

* application hit ratio = (getpages - read I/Os) / getpages, read I/Os = sync I/Os + prefetch I/Os
  (the deck's definition: a 32-page prefetch whose pages are all used gives 1 - 1/32 = 97%)
* system hit ratio = (getpages - pages read) / getpages, pages read = sync I/Os + prefetched pages;
  negative when prefetch reads pages that no getpage touches
* I/O rate = (sync I/Os + prefetch I/Os) / interval seconds

Trace file format (text, UTF-8, one getpage per line)::

    # interval_s=60                <- optional: seconds the trace covers (for I/O rates)
    # pages=TSORDER:100000         <- optional, one per object: object size in pages
    # any other line starting with # is a comment
    object,page,seq                <- the header, required, exactly this
    TSORDER,17,0                   <- object name, page number (0, 1, ...), 1 = sequential access
    TSORDER,18,1

Names are 1-64 characters without commas, spaces or control characters. Blank lines are skipped.
Without ``pages=`` lines, an object's size is taken as its highest page in the trace + 1 (prefetch
never reads past the end of an object).

Limits: at most :data:`MAX_GETPAGES` getpages per simulation or trace, pools of at most
:data:`MAX_POOL_PAGES` buffers, :data:`MAX_SWEEP_SIZES` sizes per sweep. Memory grows with the
pages resident in the pool (at most the pool size, at most the trace's distinct pages): about
120 bytes each, 210 for sequential pages (on both chains). Speed on a 2-core machine: about
4 million getpages/s as pure LRU, about 2 million with prefetch (``bench/simulator_bench.py``).
"""
from __future__ import annotations

import math
import os
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np

from .. import validation as v
from . import stack_distance as sd

#: Most getpages one trace may hold or one simulation may process (5 to 10 s of simulation).
MAX_GETPAGES = 20_000_000
#: Largest pool, in buffers (pages): 100 million 4 KB buffers = 400 GB.
MAX_POOL_PAGES = sd.MAX_POOL_PAGES
#: Largest object, in pages.
MAX_OBJECT_PAGES = 2**32
#: Most objects in one trace.
MAX_OBJECTS = 100_000
#: Largest prefetch quantity, in pages (DB2 reads 8 to 64 pages per prefetch I/O in 4 KB pools).
MAX_PREFETCH_QUANTITY = 256
#: Most pool sizes in one :func:`sweep`.
MAX_SWEEP_SIZES = 64
#: Largest power-law exponent for random page popularity.
MAX_SKEW = 10.0

PAGE_BITS = 40  # a page key is (object id << PAGE_BITS) | page number
_NAME = re.compile(r"[^\s,#\x00-\x1f\x7f][^\s,\x00-\x1f\x7f]{0,63}")
_ACCESS = ("random", "sequential")
TRACE_HEADER = "object,page,seq"


def _whole(name: str, value, low: float, high: float, unit: str = "") -> int:
    """A whole number in [low, high], or ValueError naming ``name`` and the range."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, got the boolean {value!r}")
    arr = v.in_range(name, value, low, high, unit=unit)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number, got an array of shape {arr.shape}")
    x = float(arr)
    if x != math.floor(x):
        raise ValueError(f"{name}={x:g} must be a whole number in [{low:g}, {high:g}] {unit}".rstrip())
    return int(x)


def _number(name: str, value, low: float, high: float, unit: str = "", **kw) -> float:
    arr = v.in_range(name, value, low, high, unit=unit, **kw)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number, got an array of shape {arr.shape}")
    return float(arr)


def _check_name(name, what: str = "name") -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"{what}={name!r} is not a valid object name: 1-64 characters, no commas, spaces or "
            "control characters, not starting with #"
        )
    return name


# --- the workload ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ObjectSpec:
    """One object of a synthetic workload and how it is read.

    * ``random``: each getpage picks a page of the working set independently, the page of
      popularity rank r (1 = hottest) with probability proportional to the integral of
      x**-skew over [r, r+1) (a continuous power law: skew 0 = uniform, about 1 = Zipf). The
      ranks are scattered over the object's pages by a seeded permutation.
    * ``sequential``: the getpages read consecutive pages. With ``scan_pages=None`` one scan
      loops forever over pages 0 .. working_set_pages-1 (a looping scan); otherwise scans of
      ``scan_pages`` consecutive pages follow one another, each from a random start inside the
      working set.
    """

    name: str  # object name (tablespace or index), see the trace file format
    pages: int  # object size, pages
    access: str = "random"  # "random" or "sequential"
    rate: float = 100.0  # getpages per second
    skew: float = 0.0  # random access: power-law exponent of page popularity, 0 to MAX_SKEW
    working_set_pages: int | None = None  # pages ever referenced, from 1 to pages; None = all
    scan_pages: int | None = None  # sequential: pages per scan; None = one looping scan

    def __post_init__(self):
        _check_name(self.name)
        who = f"ObjectSpec({self.name!r})"
        _whole(f"{who}.pages", self.pages, 1, MAX_OBJECT_PAGES, "pages")
        if self.access not in _ACCESS:
            raise ValueError(f"{who}.access={self.access!r} must be 'random' or 'sequential'")
        _number(f"{who}.rate", self.rate, 0.0, math.inf, "getpages/s")
        _number(f"{who}.skew", self.skew, 0.0, MAX_SKEW)
        if self.working_set_pages is not None:
            _whole(f"{who}.working_set_pages", self.working_set_pages, 1, self.pages, "pages")
        if self.scan_pages is not None:
            if self.access != "sequential":
                raise ValueError(f"{who}.scan_pages applies to sequential access only (access='random')")
            _whole(f"{who}.scan_pages", self.scan_pages, 1, self.working_set, "pages (the working set)")

    @property
    def working_set(self) -> int:
        """Pages the object's getpages can reference."""
        return int(self.pages if self.working_set_pages is None else self.working_set_pages)


@dataclass(frozen=True, eq=False)
class Trace:
    """A getpage trace: parallel arrays, one element per getpage, in time order."""

    object_id: np.ndarray  # int32 index into ``names``
    page: np.ndarray  # int64 page number inside the object (0, 1, ...)
    sequential: np.ndarray  # bool: getpage of a sequential (prefetch-eligible) access
    names: tuple[str, ...]  # object names
    interval_s: float | None = None  # seconds the trace covers (for I/O rates); None = unknown
    object_pages: tuple[int, ...] | None = None  # object sizes, pages; None = highest page + 1

    def __post_init__(self):
        names = tuple(self.names)
        if not names:
            raise ValueError("names must list at least one object")
        if len(names) > MAX_OBJECTS:
            raise ValueError(f"names lists {len(names):,} objects; the limit is MAX_OBJECTS = {MAX_OBJECTS:,}")
        for n in names:
            _check_name(n, "names")
        if len(set(names)) != len(names):
            raise ValueError("names must be distinct")
        oid = np.asarray(self.object_id)
        page = np.asarray(self.page)
        seq = np.asarray(self.sequential)
        for label, arr in (("object_id", oid), ("page", page), ("sequential", seq)):
            if arr.ndim != 1:
                raise ValueError(f"{label} must be a 1-D array, got shape {arr.shape}")
        if not (oid.size == page.size == seq.size):
            raise ValueError(
                f"object_id, page and sequential must have one element per getpage, got lengths "
                f"{oid.size}, {page.size}, {seq.size}"
            )
        if oid.size == 0:
            raise ValueError("the trace is empty: it needs at least one getpage")
        if oid.size > MAX_GETPAGES:
            raise ValueError(f"the trace has {oid.size:,} getpages; the limit is MAX_GETPAGES = {MAX_GETPAGES:,}")
        if oid.dtype.kind not in "iu" or page.dtype.kind not in "iu":
            raise ValueError("object_id and page must be integer arrays")
        if seq.dtype.kind not in "biu" or (seq.dtype.kind != "b" and np.any((seq != 0) & (seq != 1))):
            raise ValueError("sequential must be a boolean array (or 0/1)")
        if oid.min() < 0 or oid.max() >= len(names):
            raise ValueError(f"object_id must be in [0, {len(names) - 1}] (one per name)")
        if page.min() < 0 or page.max() >= MAX_OBJECT_PAGES:
            raise ValueError(f"page must be in [0, {MAX_OBJECT_PAGES - 1}]")
        interval = self.interval_s
        if interval is not None:
            interval = _number("interval_s", interval, 0.0, math.inf, "s", low_inclusive=False)
        sizes = self.object_pages
        if sizes is not None:
            sizes = tuple(_whole("object_pages", s, 1, MAX_OBJECT_PAGES, "pages") for s in sizes)
            if len(sizes) != len(names):
                raise ValueError(f"object_pages must give one size per name ({len(names)}), got {len(sizes)}")
            top = np.zeros(len(names), dtype=np.int64)
            np.maximum.at(top, oid, page)
            over = np.flatnonzero(top >= np.asarray(sizes))
            if over.size:
                i = int(over[0])
                raise ValueError(
                    f"object_pages: object {names[i]!r} has {sizes[i]} pages but the trace reads page {int(top[i])}"
                )
        set_ = object.__setattr__
        set_(self, "names", names)
        set_(self, "object_id", oid.astype(np.int32, copy=False))
        set_(self, "page", page.astype(np.int64, copy=False))
        set_(self, "sequential", seq.astype(bool, copy=False))
        set_(self, "interval_s", interval)
        set_(self, "object_pages", sizes)

    def __len__(self) -> int:
        return int(self.object_id.size)

    @property
    def keys(self) -> np.ndarray:
        """One int64 key per getpage that names the page: (object id << 40) | page."""
        return (self.object_id.astype(np.int64) << PAGE_BITS) | self.page

    def sizes(self) -> np.ndarray:
        """Object sizes in pages: ``object_pages`` or, if unknown, the highest page read + 1."""
        if self.object_pages is not None:
            return np.asarray(self.object_pages, dtype=np.int64)
        top = np.full(len(self.names), -1, dtype=np.int64)
        np.maximum.at(top, self.object_id, self.page)
        return top + 1

    def subset(self, names: Iterable[str]) -> "Trace":
        """The getpages of the named objects only, in the same order (objects renumbered)."""
        wanted = list(dict.fromkeys(names))
        unknown = [n for n in wanted if n not in self.names]
        if unknown:
            raise ValueError(f"names: {unknown[0]!r} is not an object of the trace ({', '.join(self.names)})")
        old = np.array([self.names.index(n) for n in wanted])
        remap = np.full(len(self.names), -1, dtype=np.int32)
        remap[old] = np.arange(len(wanted), dtype=np.int32)
        keep = remap[self.object_id] >= 0
        sizes = None if self.object_pages is None else tuple(self.object_pages[i] for i in old)
        return Trace(remap[self.object_id[keep]], self.page[keep], self.sequential[keep],
                     tuple(wanted), self.interval_s, sizes)


def _power_law_ranks(rng: np.random.Generator, n: int, support: int, skew: float) -> np.ndarray:
    """``n`` ranks in [0, support): rank r with probability ~ integral of x**-skew over [r+1, r+2)."""
    u = rng.random(n)
    if skew == 0.0:
        x = u * support
        return np.minimum(x.astype(np.int64), support - 1)
    if abs(skew - 1.0) < 1e-12:
        x = np.exp(u * math.log(support + 1.0))
    else:
        e = 1.0 - skew
        top = (support + 1.0) ** e
        x = ((top - 1.0) * u + 1.0) ** (1.0 / e)
    return np.clip(np.floor(x).astype(np.int64) - 1, 0, support - 1)


def _scatter(rng: np.random.Generator, ranks: np.ndarray, pages: int) -> np.ndarray:
    """Map ranks to distinct pages of the object: page = (a * rank + b) mod pages, gcd(a, pages) = 1."""
    if pages == 1:
        return np.zeros_like(ranks)
    while True:
        a = int(rng.integers(1, pages))
        if math.gcd(a, pages) == 1:
            break
    b = int(rng.integers(0, pages))
    # a * rank can overflow int64 for objects over 2**31 pages: multiply by a in 16-bit pieces
    r = ranks % pages
    hi, lo = a >> 16, a & 0xFFFF
    return ((r * hi % pages) * 65536 % pages + r * lo + b) % pages


def _pages_of(spec: ObjectSpec, count: int, rng: np.random.Generator) -> np.ndarray:
    """The page sequence of ``count`` getpages of one object."""
    ws = spec.working_set
    if spec.access == "random":
        return _scatter(rng, _power_law_ranks(rng, count, ws, float(spec.skew)), int(spec.pages))
    if spec.scan_pages is None:  # one looping scan over the working set
        return np.arange(count, dtype=np.int64) % ws
    length = int(spec.scan_pages)
    n_scans = -(-count // length)
    starts = rng.integers(0, ws - length + 1, size=n_scans)
    return (starts[:, None] + np.arange(length)).ravel()[:count]


def generate_trace(objects: Sequence[ObjectSpec], seconds: float | None = None,
                   n_getpages: int | None = None, seed: int = 0) -> Trace:
    """A seeded synthetic trace: the objects' getpages, randomly interleaved in proportion to rate.

    Give exactly one of ``seconds`` (each object gets round(rate * seconds) getpages) or
    ``n_getpages`` (split over the objects in proportion to rate; the interval is then
    n_getpages / total rate). The interleaving is a random shuffle, as independent Poisson streams
    would give; each object's own getpages keep their order (scans stay in page order).
    Deterministic for a given ``seed``.
    """
    objs = list(objects) if not isinstance(objects, ObjectSpec) else [objects]
    if not objs:
        raise ValueError("objects must list at least one ObjectSpec (the workload is empty)")
    if len(objs) > MAX_OBJECTS:
        raise ValueError(f"objects lists {len(objs):,} objects; the limit is MAX_OBJECTS = {MAX_OBJECTS:,}")
    for o in objs:
        if not isinstance(o, ObjectSpec):
            raise ValueError(f"objects must hold ObjectSpec records, got {type(o).__name__}")
    names = [o.name for o in objs]
    if len(set(names)) != len(names):
        raise ValueError("objects must have distinct names")
    rates = np.array([float(o.rate) for o in objs])
    total_rate = float(rates.sum())
    if total_rate <= 0:
        raise ValueError("rate: at least one object must have rate > 0 getpages/s (the workload is empty)")
    if (seconds is None) == (n_getpages is None):
        raise ValueError("give exactly one of seconds or n_getpages")
    if seconds is not None:
        interval = _number("seconds", seconds, 0.0, math.inf, "s", low_inclusive=False)
        wanted = rates * interval
        if wanted.sum() > MAX_GETPAGES:
            raise ValueError(f"seconds={interval:g} gives {wanted.sum():,.0f} getpages; the limit is "
                             f"MAX_GETPAGES = {MAX_GETPAGES:,}")
        counts = np.round(wanted).astype(np.int64)
    else:
        n = _whole("n_getpages", n_getpages, 1, MAX_GETPAGES, "getpages")
        share = rates / total_rate * n
        counts = np.floor(share).astype(np.int64)
        short = n - int(counts.sum())  # largest remainders get the leftover getpages
        if short:
            counts[np.argsort(-(share - counts), kind="stable")[:short]] += 1
        interval = n / total_rate
    if counts.sum() == 0:
        raise ValueError(f"seconds={interval:g} is too short: the workload has no getpages")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed={seed!r} must be a whole number >= 0")
    rng = np.random.default_rng(int(seed))
    pages = np.concatenate([_pages_of(o, int(c), rng) for o, c in zip(objs, counts)])
    labels = np.repeat(np.arange(len(objs), dtype=np.int32), counts)
    shuffled = rng.permutation(labels)
    slots = np.argsort(shuffled, kind="stable")  # object by object, each in time order
    page = np.empty_like(pages)
    page[slots] = pages
    seq_obj = np.array([o.access == "sequential" for o in objs])
    return Trace(shuffled, page, seq_obj[shuffled], tuple(names), float(interval),
                 tuple(int(o.pages) for o in objs))


# --- trace files -------------------------------------------------------------------------------


def write_trace(trace: Trace, path) -> None:
    """Write ``trace`` to ``path`` in the trace file format (see the module docstring)."""
    if not isinstance(trace, Trace):
        raise TypeError(f"trace must be a Trace, got {type(trace).__name__}")
    lines = ["# db2 buffer pool trace: one getpage per line (object, page number, 1 = sequential)"]
    if trace.interval_s is not None:
        lines.append(f"# interval_s={trace.interval_s!r}")
    if trace.object_pages is not None:
        lines.extend(f"# pages={n}:{p}" for n, p in zip(trace.names, trace.object_pages))
    lines.append(TRACE_HEADER)
    names = np.array(trace.names, dtype=object)[trace.object_id]
    body = map(",".join, zip(names, trace.page.astype(str), np.where(trace.sequential, "1", "0")))
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(lines))
        fh.write("\n")
        for row in body:
            fh.write(row)
            fh.write("\n")


def read_trace(path) -> Trace:
    """Read a trace file (format in the module docstring).

    A malformed line raises ``ValueError`` naming the file, the line number (from 1) and what is
    wrong with it.
    """
    where = os.fspath(path)
    interval = None
    sizes: dict[str, int] = {}
    ids: dict[str, int] = {}
    oid: list[int] = []
    pg: list[int] = []
    sq: list[bool] = []
    header_seen = False

    def bad(lineno: int, what: str) -> ValueError:
        return ValueError(f"{where}, line {lineno}: {what}")

    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\r\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                if header_seen:
                    continue
                meta = line[1:].strip()
                if meta.startswith("interval_s="):
                    text = meta[len("interval_s="):].strip()
                    try:
                        interval = float(text)
                    except ValueError:
                        raise bad(lineno, f"interval_s={text!r} is not a number") from None
                    if not (math.isfinite(interval) and interval > 0):
                        raise bad(lineno, f"interval_s={text} must be a finite number of seconds > 0")
                elif meta.startswith("pages="):
                    name, sep, count = meta[len("pages="):].strip().rpartition(":")
                    if not sep or not _NAME.fullmatch(name) or not count.isdigit():
                        raise bad(lineno, f"expected '# pages=<object>:<pages>', got {line!r}")
                    if not 1 <= int(count) <= MAX_OBJECT_PAGES:
                        raise bad(lineno, f"pages={count} must be in [1, {MAX_OBJECT_PAGES}]")
                    sizes[name] = int(count)
                    ids.setdefault(name, len(ids))
                continue
            if not header_seen:
                if line.strip().replace(" ", "") != TRACE_HEADER:
                    raise bad(lineno, f"expected the header {TRACE_HEADER!r}, got {line!r}")
                header_seen = True
                continue
            fields = line.split(",")
            if len(fields) != 3:
                raise bad(lineno, f"expected 3 comma-separated fields (object,page,seq), got {len(fields)}: {line!r}")
            name, page_txt, seq_txt = (f.strip() for f in fields)
            i = ids.get(name)
            if i is None:
                if not _NAME.fullmatch(name):
                    raise bad(lineno, f"object name {name!r} is not valid (1-64 characters, no spaces or commas)")
                if len(ids) >= MAX_OBJECTS:
                    raise bad(lineno, f"more than MAX_OBJECTS = {MAX_OBJECTS:,} objects")
            if not page_txt.isdigit() or not page_txt.isascii():
                raise bad(lineno, f"page {page_txt!r} is not a whole number >= 0")
            page = int(page_txt)
            if page >= MAX_OBJECT_PAGES:
                raise bad(lineno, f"page {page} is beyond the largest object ({MAX_OBJECT_PAGES} pages)")
            if seq_txt not in ("0", "1"):
                raise bad(lineno, f"seq {seq_txt!r} must be 0 (random) or 1 (sequential)")
            if i is None:
                i = ids[name] = len(ids)
            if name in sizes and page >= sizes[name]:
                raise bad(lineno, f"page {page} is beyond object {name}'s {sizes[name]} pages (# pages= line)")
            oid.append(i)
            pg.append(page)
            sq.append(seq_txt == "1")
            if len(oid) > MAX_GETPAGES:
                raise bad(lineno, f"more than MAX_GETPAGES = {MAX_GETPAGES:,} getpages")
    if not header_seen:
        raise ValueError(f"{where}: no header line {TRACE_HEADER!r} (is the file empty?)")
    if not oid:
        raise ValueError(f"{where}: the trace has no getpages after the header")
    names = tuple(ids)
    obj = np.array(oid, dtype=np.int32)
    page_arr = np.array(pg, dtype=np.int64)
    object_pages = None
    if sizes:
        top = np.full(len(names), -1, dtype=np.int64)
        np.maximum.at(top, obj, page_arr)
        object_pages = tuple(sizes.get(n, int(top[i]) + 1) for i, n in enumerate(names))
        if min(object_pages) < 1:
            unused = names[object_pages.index(0)]
            raise ValueError(f"{where}: object {unused!r} has no getpages and no '# pages=' size")
    return Trace(obj, page_arr, np.array(sq, dtype=bool), names, interval, object_pages)


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolStats:
    """Counts for one object or one pool over a trace, and the ratios and rates they give."""

    getpages: int
    sync_ios: int  # synchronous read I/Os, one page each
    prefetch_ios: int  # sequential prefetch I/Os (each read 1 .. prefetch_quantity pages)
    prefetched_pages: int  # pages read by prefetch
    interval_s: float | None = None  # seconds the counts cover; None = unknown (no rates)

    @property
    def pages_read(self) -> int:
        """Pages read into the pool: sync I/Os + prefetched pages."""
        return self.sync_ios + self.prefetched_pages

    @property
    def application_hit_ratio(self) -> float:
        """(getpages - read I/Os) / getpages, read I/Os = sync + prefetch I/Os; NaN without getpages.

        Each read I/O counts once however many pages it brought (the deck's definition, and
        :func:`.model.application_hit_ratio`); the system ratio counts every page.
        """
        if not self.getpages:
            return math.nan
        return (self.getpages - self.sync_ios - self.prefetch_ios) / self.getpages

    @property
    def system_hit_ratio(self) -> float:
        """(getpages - pages read) / getpages; negative when prefetched pages go unused."""
        return (self.getpages - self.pages_read) / self.getpages if self.getpages else math.nan

    @property
    def io_per_s(self) -> float:
        """Read I/Os (sync + prefetch) per second of the interval; NaN if the interval is unknown."""
        return (self.sync_ios + self.prefetch_ios) / self.interval_s if self.interval_s else math.nan

    def __add__(self, other: "PoolStats") -> "PoolStats":
        if self.interval_s != other.interval_s:
            raise ValueError("cannot add counts over different intervals")
        return PoolStats(self.getpages + other.getpages, self.sync_ios + other.sync_ios,
                         self.prefetch_ios + other.prefetch_ios,
                         self.prefetched_pages + other.prefetched_pages, self.interval_s)

    def as_dict(self) -> dict:
        """The counts, ratios and rate as a flat dict (for tables)."""
        return {"getpages": self.getpages, "sync_ios": self.sync_ios,
                "prefetch_ios": self.prefetch_ios, "prefetched_pages": self.prefetched_pages,
                "pages_read": self.pages_read, "application_hit_ratio": self.application_hit_ratio,
                "system_hit_ratio": self.system_hit_ratio, "io_per_s": self.io_per_s}


@dataclass(frozen=True)
class PoolResult:
    """One simulated pool: its settings, the pool totals and the counts per object."""

    pool_pages: int  # buffers (pages)
    vpseqt_pct: float  # sequential steal threshold, % of the pool
    prefetch_quantity: int  # pages per prefetch I/O (0 = no prefetch)
    total: PoolStats
    objects: dict[str, PoolStats] = field(default_factory=dict)

    @property
    def application_hit_ratio(self) -> float:
        return self.total.application_hit_ratio

    @property
    def system_hit_ratio(self) -> float:
        return self.total.system_hit_ratio

    @property
    def io_per_s(self) -> float:
        return self.total.io_per_s

    def rows(self) -> list[dict]:
        """One dict per object and a last one for the pool (``object = "(pool)"``)."""
        out = [{"object": n, **s.as_dict()} for n, s in self.objects.items()]
        out.append({"object": "(pool)", **self.total.as_dict()})
        return out


# --- the simulator ------------------------------------------------------------------------------


def _check_trace(trace, max_getpages) -> int:
    if not isinstance(trace, Trace):
        raise TypeError(f"trace must be a Trace (see generate_trace, read_trace), got {type(trace).__name__}")
    limit = _whole("max_getpages", max_getpages, 1, MAX_GETPAGES, "getpages")
    if len(trace) > limit:
        raise ValueError(f"the trace has {len(trace):,} getpages, over max_getpages = {limit:,} "
                         f"(MAX_GETPAGES = {MAX_GETPAGES:,})")
    return limit


def _settings(pool_pages, vpseqt_pct, prefetch_quantity, interval_s, trace: Trace):
    pool = _whole("pool_pages", pool_pages, 1, MAX_POOL_PAGES, "pages")
    vpseqt = _number("vpseqt_pct", vpseqt_pct, 0.0, 100.0, "%")
    quantity = _whole("prefetch_quantity", prefetch_quantity, 0, MAX_PREFETCH_QUANTITY, "pages")
    if interval_s is None:
        interval = trace.interval_s
    else:
        interval = _number("interval_s", interval_s, 0.0, math.inf, "s", low_inclusive=False)
    return pool, vpseqt, quantity, interval


def _pure_lru(trace: Trace, vpseqt: float, quantity: int) -> bool:
    """True when the pool behaves as one LRU chain: no prefetch and no sequential cap applies."""
    no_prefetch = quantity == 0 or vpseqt == 0.0
    return not trace.sequential.any() or (no_prefetch and vpseqt == 100.0)


def _lru_misses(keys: list, pool: int) -> list:
    """Keys of the getpages that miss a pure LRU pool of ``pool`` pages (one OrderedDict)."""
    lru: OrderedDict = OrderedDict()
    touch, steal = lru.move_to_end, lru.popitem
    misses: list = []
    miss = misses.append
    stream = iter(keys)
    held = 0
    for k in stream:  # filling the pool: nothing to steal yet
        if k in lru:
            touch(k)
        else:
            miss(k)
            lru[k] = None
            held += 1
            if held >= pool:
                break
    for k in stream:  # the pool is full from here on and stays full
        if k in lru:
            touch(k)
        else:
            miss(k)
            steal(False)
            lru[k] = None
    return misses


_EVENT = -(1 << 62)  # stream codes <= _EVENT are prefetch requests; (_EVENT - code) indexes them


def _prefetch_triggers(trace: Trace, quantity: int) -> np.ndarray:
    """Indices of the sequential getpages that start a prefetch (the trigger rule of simulate).

    The rule depends on the trace only, not on the pool: a sequential getpage triggers when its
    block differs from the block of the object's previous sequential getpage, when its page is
    before that getpage's page (the scan started again), or when it is the object's first.
    """
    if quantity == 0:
        return np.zeros(0, dtype=np.int64)
    idx = np.flatnonzero(trace.sequential)
    if idx.size == 0:
        return idx
    obj = trace.object_id[idx]
    by_obj = idx[np.argsort(obj, kind="stable")]  # each object's sequential getpages, in time order
    o, page = trace.object_id[by_obj], trace.page[by_obj]
    block = page // quantity
    first = np.ones(by_obj.size, dtype=bool)
    first[1:] = o[1:] != o[:-1]
    trigger = first.copy()
    trigger[1:] |= (block[1:] != block[:-1]) | (page[1:] < page[:-1])
    return np.sort(by_obj[trigger])


def _db2_pool(stream: list, pool: int, seq_cap: int, blocks: list) -> tuple[list, list]:
    """The two-chain pool. ``stream`` holds, in time order: k >= 0 for a random getpage of key k,
    ~k for a sequential getpage, and ``_EVENT - j`` for prefetch request j, which reads the keys
    in ``blocks[j]`` (a range). Returns (keys of the sync I/Os, pages read by each prefetch).
    """
    lru: OrderedDict = OrderedDict()  # every buffer, least recently used first
    slru: OrderedDict = OrderedDict()  # the sequential buffers, least recently used first
    touch, steal_any = lru.move_to_end, lru.popitem
    seq_touch, steal_seq = slru.move_to_end, slru.popitem
    misses: list = []
    miss = misses.append
    prefetched: list = []
    done = prefetched.append
    event = _EVENT
    # "make room" is written out in each branch (a function call per miss costs ~15%):
    # over VPSEQT, steal the oldest sequential buffer, else the oldest buffer of either kind.
    for k in stream:
        if k >= 0:  # random getpage
            if k in lru:
                touch(k)
                if k in slru:  # a random touch takes the buffer off the sequential chain
                    del slru[k]
            else:
                miss(k)
                if len(lru) >= pool:
                    if len(slru) > seq_cap:
                        del lru[steal_seq(False)[0]]
                    else:
                        victim = steal_any(False)[0]
                        if victim in slru:
                            del slru[victim]
                lru[k] = None
        elif k > event:  # sequential getpage
            k = ~k
            if k in lru:
                touch(k)
                if k in slru:
                    seq_touch(k)
                else:
                    slru[k] = None
            else:  # never read, or prefetched and stolen before this getpage: a sync I/O
                miss(k)
                if len(lru) >= pool:
                    if len(slru) > seq_cap:
                        del lru[steal_seq(False)[0]]
                    else:
                        victim = steal_any(False)[0]
                        if victim in slru:
                            del slru[victim]
                lru[k] = None
                slru[k] = None
        else:  # a prefetch request: one I/O for the block's pages not in the pool when it starts
            missing = [p for p in blocks[event - k] if p not in lru]
            for p in missing:
                if len(lru) >= pool:
                    if len(slru) > seq_cap:
                        del lru[steal_seq(False)[0]]
                    else:
                        victim = steal_any(False)[0]
                        if victim in slru:
                            del slru[victim]
                lru[p] = None
                slru[p] = None
            done(len(missing))
    return misses, prefetched


def _result(trace: Trace, pool: int, vpseqt: float, quantity: int, interval,
            sync_per_obj, pf_ios, pf_pages) -> PoolResult:
    n_obj = len(trace.names)
    gp = np.bincount(trace.object_id, minlength=n_obj)
    objects = {
        name: PoolStats(int(gp[i]), int(sync_per_obj[i]), int(pf_ios[i]), int(pf_pages[i]), interval)
        for i, name in enumerate(trace.names)
    }
    total = PoolStats(int(gp.sum()), int(np.sum(sync_per_obj)), int(np.sum(pf_ios)), int(np.sum(pf_pages)), interval)
    return PoolResult(pool, vpseqt, quantity, total, objects)


def simulate(trace: Trace, pool_pages: int, vpseqt_pct: float = 80.0, prefetch_quantity: int = 32,
             interval_s: float | None = None, max_getpages: int = MAX_GETPAGES) -> PoolResult:
    """Replay ``trace`` through one buffer pool of ``pool_pages`` buffers; counts per object and pool.

    The pool (DB2's two chains):

    * Every buffer is on one LRU chain; buffers last touched by a sequential getpage (or read by
      prefetch) are also on the sequential sub-chain (SLRU). A random getpage takes a buffer off
      the SLRU; a sequential getpage puts it on.
    * A getpage that finds its page moves it to the most-recently-used end (a hit). Otherwise
      the page is read by a synchronous I/O (one page) - unless prefetch has just read it.
    * When a buffer is needed and the pool is full: if the SLRU holds more than VPSEQT% of the
      pool (``floor(vpseqt_pct/100 * pool_pages)`` buffers), the least recently used sequential
      buffer is stolen; otherwise the least recently used buffer of either kind.

    Sequential prefetch (``prefetch_quantity`` = Q pages, 0 = none; VPSEQT=0 also disables it, as
    in DB2): an object's pages form aligned blocks [bQ, bQ+Q). **Trigger rule**: a sequential
    getpage for page p starts one prefetch I/O for p's block when the object's previous
    sequential getpage was in another block (or there was none), or when p is before that
    getpage's page (the scan started again; a repeated getpage of the same page does not
    trigger). The prefetch reads the block's pages that are not in the pool when it starts (0 to
    Q of them, never past the end of the object) onto the sequential chain, in page order, each
    taking a buffer as above (in a pool smaller than a block, later pages of the block can steal
    earlier ones); if all are resident there is no I/O. Then the getpage proceeds as above: a
    page that prefetch read but the pool stole before this getpage is a sync I/O. Why this rule:
    it gives one prefetch I/O per block a scan passes through, as DB2's read-ahead does, and it
    depends on the trace alone (computed up front, vectorised). Time is not modelled: DB2 reads
    the next block while the scan works on this one, which changes waits, not these counts.

    With no sequential getpages, or with no prefetch and VPSEQT = 100, the pool is exactly one
    LRU chain: the results then equal :func:`.stack_distance.miss_ratio_curve`, and a faster loop
    is used. ``interval_s`` overrides the trace's interval for the I/O rates. Traces longer than
    ``max_getpages`` (at most MAX_GETPAGES) are refused.
    """
    _check_trace(trace, max_getpages)
    pool, vpseqt, quantity, interval = _settings(pool_pages, vpseqt_pct, prefetch_quantity, interval_s, trace)
    n_obj = len(trace.names)
    keys = trace.keys
    if _pure_lru(trace, vpseqt, quantity):
        misses = _lru_misses(keys.tolist(), pool)
        zeros = np.zeros(n_obj, dtype=np.int64)
        sync = np.bincount(np.asarray(misses, dtype=np.int64) >> PAGE_BITS, minlength=n_obj)
        return _result(trace, pool, vpseqt, quantity, interval, sync, zeros, zeros)
    quantity_used = 0 if vpseqt == 0.0 else quantity  # VPSEQT=0 turns sequential prefetch off
    seq_cap = int(math.floor(vpseqt / 100.0 * pool + 1e-9))
    stream = np.where(trace.sequential, ~keys, keys)
    at = _prefetch_triggers(trace, quantity_used)
    if at.size:
        first = trace.page[at] // quantity_used * quantity_used
        last = np.minimum(first + quantity_used, trace.sizes()[trace.object_id[at]])
        base = keys[at] - trace.page[at]
        blocks = list(map(range, (base + first).tolist(), (base + last).tolist()))
        stream = np.insert(stream, at, _EVENT - np.arange(at.size, dtype=np.int64))
    else:
        blocks = []
    misses, prefetched = _db2_pool(stream.tolist(), pool, seq_cap, blocks)
    sync = np.bincount(np.asarray(misses, dtype=np.int64) >> PAGE_BITS, minlength=n_obj)
    read = np.asarray(prefetched, dtype=np.int64)
    owner = trace.object_id[at]
    pf_ios = np.bincount(owner, weights=read > 0, minlength=n_obj).astype(np.int64)
    pf_pages = np.bincount(owner, weights=read, minlength=n_obj).astype(np.int64)
    return _result(trace, pool, vpseqt, quantity, interval, sync, pf_ios, pf_pages)


def sweep(trace: Trace, sizes: Sequence[int], vpseqt_pct: float = 80.0, prefetch_quantity: int = 32,
          interval_s: float | None = None, max_getpages: int = MAX_GETPAGES) -> list[PoolResult]:
    """What-if: :func:`simulate` for each pool size in ``sizes`` (pages), in the order given.

    When the pool is pure LRU (see :func:`simulate`), all sizes come from one Mattson pass (the
    stack distances), with results identical to simulating each size; otherwise each size is
    simulated. At most MAX_SWEEP_SIZES sizes.
    """
    _check_trace(trace, max_getpages)
    arr = v.as_float_array("sizes", sizes)
    if arr.ndim != 1:
        raise ValueError(f"sizes must be a 1-D list of pool sizes, got shape {arr.shape}")
    if arr.size > MAX_SWEEP_SIZES:
        raise ValueError(f"sizes lists {arr.size} pool sizes; the limit is MAX_SWEEP_SIZES = {MAX_SWEEP_SIZES}")
    pools = [_whole("sizes", s, 1, MAX_POOL_PAGES, "pages") for s in arr]
    settings = [_settings(p, vpseqt_pct, prefetch_quantity, interval_s, trace) for p in pools]
    _, vpseqt, quantity, interval = settings[0]
    if not _pure_lru(trace, vpseqt, quantity):
        return [simulate(trace, p, vpseqt, quantity, interval, max_getpages) for p in pools]
    dist = sd.stack_distances(trace.keys)
    n_obj = len(trace.names)
    zeros = np.zeros(n_obj, dtype=np.int64)
    out = []
    for p in pools:
        missed = (dist < 0) | (dist > p)
        sync = np.bincount(trace.object_id[missed], minlength=n_obj)
        out.append(_result(trace, p, vpseqt, quantity, interval, sync, zeros, zeros))
    return out


def split_pools(trace: Trace, assignment: Mapping[str, str], sizes: Mapping[str, int],
                vpseqt_pct: float | Mapping[str, float] = 80.0, prefetch_quantity: int = 32,
                interval_s: float | None = None, max_getpages: int = MAX_GETPAGES) -> dict[str, PoolResult]:
    """Objects assigned to separate pools: each pool replays its objects' getpages on its own.

    ``assignment`` maps every object of the trace to a pool name; ``sizes`` maps every pool to
    its size in pages; ``vpseqt_pct`` is one value for all pools or a value per pool. Returns
    the result per pool (pools in the order of ``sizes``). :func:`combined` adds them up, to
    compare with one big pool of the summed size.
    """
    _check_trace(trace, max_getpages)
    if not isinstance(assignment, Mapping) or not isinstance(sizes, Mapping):
        raise ValueError("assignment must map object -> pool and sizes pool -> pages (dicts)")
    missing = [n for n in trace.names if n not in assignment]
    if missing:
        raise ValueError(f"assignment: object {missing[0]!r} of the trace has no pool")
    extra = [n for n in assignment if n not in trace.names]
    if extra:
        raise ValueError(f"assignment: {extra[0]!r} is not an object of the trace ({', '.join(trace.names)})")
    unsized = sorted({p for p in assignment.values() if p not in sizes})
    if unsized:
        raise ValueError(f"sizes: pool {unsized[0]!r} has objects but no size")
    if not isinstance(vpseqt_pct, Mapping):
        vpseqt_pct = {p: vpseqt_pct for p in sizes}
    results = {}
    for pool_name, pages in sizes.items():
        members = [n for n in trace.names if assignment[n] == pool_name]
        if not members:
            raise ValueError(f"sizes: pool {pool_name!r} has no objects assigned")
        if pool_name not in vpseqt_pct:
            raise ValueError(f"vpseqt_pct: no value for pool {pool_name!r}")
        _whole(f"sizes[{pool_name!r}]", pages, 1, MAX_POOL_PAGES, "pages")
        results[pool_name] = simulate(trace.subset(members), pages, vpseqt_pct[pool_name],
                                      prefetch_quantity, interval_s, max_getpages)
    return results


def combined(results: Mapping[str, PoolResult] | Sequence[PoolResult]) -> PoolStats:
    """The counts of several pools added together (ratios and rate follow from the sums)."""
    items = list(results.values()) if isinstance(results, Mapping) else list(results)
    if not items:
        raise ValueError("results must hold at least one PoolResult")
    total = items[0].total
    for r in items[1:]:
        total = total + r.total
    return total
