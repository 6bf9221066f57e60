"""Mattson's LRU stack distances in one pass, and the whole LRU miss-ratio curve from them.

The *stack distance* of a reference is the number of distinct pages referenced since the previous
reference to the same page, counting the page itself: 1 means "the most recently used page". An
LRU pool of C pages hits exactly the references with distance <= C (Mattson et al., 1970), so one
pass over the trace gives the miss ratio of every pool size at once.

The algorithm, O(n log n) in vectorised numpy (no per-reference Python loop):

1. ``prev[i]``, the index of the previous reference to the same page (-1 for a first reference),
   from one stable sort of the keys.
2. For a re-reference i with p = prev[i], the distinct pages in the window (p, i) are the positions
   j in (p, i) that are not re-referenced before i. Every re-reference b inside (p, i) whose own
   previous reference is also inside (prev[b] > p) removes one such position, so
   ``distance = (i - p) - #{b < i : prev[b] > prev[i]}``: a per-element inversion count over the
   sequence of ``prev`` values of the re-references (their values are distinct).
3. The inversion counts come from a most-significant-bit-first radix partition: at bit level k,
   within each group of values sharing the bits above k (kept in time order), an element whose
   bit k is 0 counts the earlier elements whose bit k is 1 (a segmented cumulative sum); then each
   group is split stably by bit k. The last few levels are done by brute force in blocks of 16.

Measured on a 2-core machine: 1,000,000 references in about 0.5 s (see ``bench/simulator_bench.py``).
"""
from __future__ import annotations

import numpy as np

from .. import validation as v

#: Longest reference string accepted (the memory needed is about 60 bytes per reference).
MAX_REFERENCES = 20_000_000
#: Largest pool size (pages) a miss-ratio curve is asked for.
MAX_POOL_PAGES = 100_000_000

_BRUTE_BITS = 4  # the last 4 bit levels are counted by brute force in blocks of 2**4 values


def _as_keys(keys) -> np.ndarray:
    """``keys`` as a 1-D int64 array, or ValueError naming ``keys``."""
    if hasattr(keys, "keys") and hasattr(keys, "object_id"):  # a simulator Trace
        keys = keys.keys
    if isinstance(keys, (str, bytes)):
        raise ValueError(f"keys must be a 1-D array of integer page keys, got the string {keys!r}")
    arr = np.asarray(keys)
    if arr.ndim != 1:
        raise ValueError(f"keys must be a 1-D array of integer page keys, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError("keys must not be empty (a trace needs at least one reference)")
    if arr.size > MAX_REFERENCES:
        raise ValueError(f"keys has {arr.size:,} references; the limit is MAX_REFERENCES = {MAX_REFERENCES:,}")
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iu":
        raise ValueError(f"keys must hold integers (page keys), got dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise ValueError("keys must fit in a signed 64-bit integer")
    return arr.astype(np.int64, copy=False)


def previous_reference(keys) -> np.ndarray:
    """Index of the previous reference to the same key, per reference (-1 for a first reference)."""
    k = _as_keys(keys)
    order = np.argsort(k, kind="stable")  # equal keys stay in time order
    sorted_keys = k[order]
    same = sorted_keys[1:] == sorted_keys[:-1]
    prev = np.full(k.size, -1, dtype=np.int64)
    prev[order[1:][same]] = order[:-1][same]
    return prev


def _greater_before(a: np.ndarray) -> np.ndarray:
    """For distinct non-negative ints ``a``: ``out[k] = #{l < k : a[l] > a[k]}`` (int64)."""
    m = a.size
    if m == 0:
        return np.zeros(0, dtype=np.int64)
    nbits = int(a.max()).bit_length()
    low = min(_BRUTE_BITS, nbits)
    dt = np.int32 if m < 2**31 - 1 and int(a.max()) < 2**31 - 1 else np.int64
    vals = a.astype(dt)  # the values, arranged stably by their bits above the current level
    orig = np.arange(m, dtype=dt)  # time index of the element at each arranged position
    cnt = np.zeros(m, dtype=dt)  # counts so far, in the arranged order
    pos = np.arange(m, dtype=dt)
    gstart = np.zeros(m, dtype=dt)  # where each element's group (same high bits) starts
    for b in range(nbits - 1, low - 1, -1):
        q = vals >> b
        bit = q & 1
        ones_before = np.cumsum(bit, dtype=dt)
        ones_before -= bit  # ones strictly before, over the whole array ...
        ones_before -= ones_before[gstart]  # ... and within the group
        cnt += ones_before
        cnt -= ones_before * bit  # only elements with bit 0 count the earlier ones
        counts = np.bincount(q)
        starts = (np.cumsum(counts) - counts).astype(dt)
        new_start = starts[q]  # start of the element's group at the next level
        newpos = np.where(bit, ones_before, pos - gstart - ones_before)
        newpos += new_start
        nv = np.empty_like(vals)
        nv[newpos] = vals
        no = np.empty_like(orig)
        no[newpos] = orig
        nc = np.empty_like(cnt)
        nc[newpos] = cnt
        ng = np.empty_like(gstart)
        ng[newpos] = new_start
        vals, orig, cnt, gstart = nv, no, nc, ng
    if low > 0:  # groups now hold at most 2**low values: compare all pairs inside each group
        width = 1 << low
        rows = vals >> low
        rank = pos - gstart  # time rank inside the group
        table = np.zeros((int(rows.max()) + 1, width), dtype=dt)
        table[rows, rank] = vals & (width - 1)
        earlier = np.tril(np.ones((width, width), dtype=bool), -1)  # [k, l]: l before k
        extra = np.empty(table.shape, dtype=dt)
        chunk = max(1, (1 << 22) // (width * width))
        for s in range(0, table.shape[0], chunk):
            t = table[s:s + chunk]
            extra[s:s + chunk] = ((t[:, None, :] > t[:, :, None]) & earlier).sum(axis=2, dtype=dt)
        cnt += extra[rows, rank]
    out = np.empty(m, dtype=np.int64)
    out[orig] = cnt
    return out


def stack_distances(keys) -> np.ndarray:
    """LRU stack distance of every reference (int64; -1 for a first reference, a cold miss).

    ``keys`` is a 1-D integer array, one page key per reference (or a simulator ``Trace``).
    A pool of C pages under pure LRU hits reference i exactly when 1 <= distance[i] <= C.
    """
    k = _as_keys(keys)
    prev = previous_reference(k)
    reuse = np.flatnonzero(prev >= 0)
    p = prev[reuse]
    nested = _greater_before(p)
    dist = np.full(k.size, -1, dtype=np.int64)
    dist[reuse] = reuse - p - nested
    return dist


def _check_sizes(sizes) -> np.ndarray:
    arr = v.in_range("sizes", sizes, 1, MAX_POOL_PAGES, unit="pages")
    if np.any(arr != np.round(arr)):
        bad = arr[arr != np.round(arr)].flat[0]
        raise ValueError(f"sizes must be whole numbers of pages, got {bad:g}")
    return arr.astype(np.int64)


def hits_by_size(distances, sizes) -> np.ndarray:
    """Number of LRU hits for each pool size (pages), from precomputed stack distances."""
    d = np.asarray(distances, dtype=np.int64)
    s = _check_sizes(sizes)
    top = int(s.max())
    hist = np.bincount(np.clip(d[d > 0], 0, top + 1), minlength=top + 2)
    cum = np.cumsum(hist)  # cum[c] = references with 1 <= distance <= c
    return cum[s]


def miss_ratio_curve(keys, sizes) -> np.ndarray:
    """Pure-LRU miss ratio (misses / references, cold misses included) for each pool size.

    ``sizes`` are pool sizes in pages (whole numbers, 1 to MAX_POOL_PAGES); the result has the
    shape of ``sizes``. One pass over the trace gives every size: no re-simulation per size.
    """
    s = _check_sizes(sizes)
    d = stack_distances(keys)
    return (d.size - hits_by_size(d, s)) / d.size
