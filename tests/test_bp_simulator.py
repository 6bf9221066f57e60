"""The Buffer Pool Tool: trace generation and files, Mattson stack distances, the DB2 pool simulator.

The LRU results are checked three independent ways: against a brute-force LRU stack (hypothesis),
against each other (Mattson's one-pass curve vs the simulator's loop), and against libcachesim's
LRU (a C implementation, test-only dependency). Expected numbers are derived by hand, never
copied from a run.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from widgets.hit_ratio_dead import simulator as S
from widgets.hit_ratio_dead import stack_distance as SD

# --- reference implementations ------------------------------------------------------------------


def brute_stack_distances(keys) -> list[int]:
    """Mattson's definition, literally: position in an LRU stack (1 = top), -1 if not there."""
    stack: list = []
    out = []
    for k in keys:
        if k in stack:
            i = stack.index(k)
            out.append(i + 1)
            stack.pop(i)
        else:
            out.append(-1)
        stack.insert(0, k)
    return out


def brute_lru_misses(keys, size: int) -> int:
    """Misses of an LRU cache of ``size`` entries, with a plain list as the recency order."""
    order: list = []
    misses = 0
    for k in keys:
        if k in order:
            order.remove(k)
        else:
            misses += 1
            if len(order) >= size:
                order.pop(0)
        order.append(k)
    return misses


def random_trace(n=20_000, pages=3000, skew=0.8, seed=3) -> S.Trace:
    return S.generate_trace([S.ObjectSpec("TSZIPF", pages, "random", rate=1.0, skew=skew)],
                            n_getpages=n, seed=seed)


def loop_trace(w=1000, n=20_000, seed=4, pages=None) -> S.Trace:
    return S.generate_trace([S.ObjectSpec("TSLOOP", pages or w, "sequential", rate=1.0,
                                          working_set_pages=w)], n_getpages=n, seed=seed)


def mixed_trace(n=30_000, seed=5) -> S.Trace:
    return S.generate_trace([
        S.ObjectSpec("TSRAND", 5000, "random", rate=600, skew=0.9),
        S.ObjectSpec("TSSCAN", 40_000, "sequential", rate=300),
        S.ObjectSpec("IXLOOP", 800, "sequential", rate=100, scan_pages=200),
    ], n_getpages=n, seed=seed)


# --- the stack distances -------------------------------------------------------------------------

small_traces = st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=300)


@settings(max_examples=200, deadline=None)
@given(small_traces)
def test_stack_distances_equal_a_brute_force_lru_stack(keys):
    assert SD.stack_distances(np.array(keys)).tolist() == brute_stack_distances(keys)


@settings(max_examples=60, deadline=None)
@given(small_traces, st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=6))
def test_miss_ratio_curve_equals_brute_force_lru(keys, sizes):
    curve = SD.miss_ratio_curve(np.array(keys), sizes)
    expected = [brute_lru_misses(keys, s) / len(keys) for s in sizes]
    assert curve.tolist() == pytest.approx(expected, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(small_traces, st.integers(min_value=1, max_value=50))
def test_simulator_pure_lru_equals_brute_force(keys, size):
    trace = S.Trace(np.zeros(len(keys), dtype=np.int32), np.array(keys), np.zeros(len(keys), bool), ("T",))
    result = S.simulate(trace, size)
    assert result.total.sync_ios == brute_lru_misses(keys, size)


@settings(max_examples=40, deadline=None)
@given(small_traces, st.integers(min_value=1, max_value=50))
def test_general_loop_with_sequential_pages_but_no_prefetch_is_lru(keys, size):
    """Sequential getpages, no prefetch, VPSEQT = 100: the two-chain loop must reduce to LRU."""
    seq = np.array([k % 3 == 0 for k in keys])
    trace = S.Trace(np.zeros(len(keys), dtype=np.int32), np.array(keys), seq, ("T",))
    # vpseqt 100 - tiny epsilon keeps the general loop, with a cap of the whole pool when size < 1e4
    result = S.simulate(trace, size, vpseqt_pct=99.9999, prefetch_quantity=0)
    assert result.total.sync_ios == brute_lru_misses(keys, size)


def test_stack_distances_by_hand():
    # a b c a b b d a : a's second reference sees a, b, c -> 3; b's: b, c, a -> 3; b again -> 1;
    # a's third: a, d, b -> 3
    keys = [1, 2, 3, 1, 2, 2, 4, 1]
    assert SD.stack_distances(keys).tolist() == [-1, -1, -1, 3, 3, 1, -1, 3]


def test_stack_distances_of_a_large_trace_match_the_definition_at_sample_points():
    """The radix-partition counting at 200,000 references: spot-check against a direct count."""
    rng = np.random.default_rng(11)
    keys = rng.integers(0, 5000, 200_000) * 7919
    d = SD.stack_distances(keys)
    prev = SD.previous_reference(keys)
    for i in rng.choice(np.flatnonzero(prev >= 0), 200, replace=False):
        assert d[i] == np.unique(keys[prev[i]:i]).size  # distinct keys since (and incl.) the last use


def test_miss_ratio_curve_is_non_increasing_and_ends_at_the_cold_misses():
    trace = random_trace()
    sizes = np.arange(1, 3200, 7)
    curve = SD.miss_ratio_curve(trace, sizes)
    assert np.all(np.diff(curve) <= 0)  # LRU's inclusion property
    distinct = np.unique(trace.keys).size
    assert SD.miss_ratio_curve(trace, [distinct])[0] == pytest.approx(distinct / len(trace))


# --- the simulator in pure-LRU mode agrees with Mattson ---------------------------------------


@pytest.mark.parametrize("make", [random_trace, loop_trace, mixed_trace], ids=["zipf", "loop", "mixed"])
def test_simulator_without_prefetch_equals_mattson(make):
    trace = make()
    sizes = [1, 50, 400, 999, 1000, 1001, 2500, 10_000]
    curve = SD.miss_ratio_curve(trace, sizes)
    for size, expected in zip(sizes, curve):
        r = S.simulate(trace, size, vpseqt_pct=100, prefetch_quantity=0)
        assert r.total.sync_ios == round(expected * len(trace))


def test_sweep_in_lru_mode_equals_simulating_each_size():
    trace = mixed_trace(n=10_000)
    sizes = [10, 300, 1500, 6000]
    swept = S.sweep(trace, sizes, vpseqt_pct=100, prefetch_quantity=0)
    for size, r in zip(sizes, swept):
        one = S.simulate(trace, size, vpseqt_pct=100, prefetch_quantity=0)
        assert r.pool_pages == size
        assert r.objects == one.objects and r.total == one.total


def test_sweep_with_prefetch_simulates_each_size():
    trace = mixed_trace(n=8000)
    swept = S.sweep(trace, [200, 2000])
    assert [r.total for r in swept] == [S.simulate(trace, s).total for s in (200, 2000)]


# --- libcachesim, an independent LRU ------------------------------------------------------------


def _lcs_bulk_miss_ratio(lcs, keys, size, tmp_path) -> float:
    """libcachesim's LRU on ``keys`` through its C trace reader (oracleGeneral binary records)."""
    rec = np.zeros(keys.size, dtype=[("t", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
    rec["t"] = np.arange(keys.size)
    rec["id"] = keys + 1  # ids from 1
    rec["size"] = 1  # one byte per page, so a cache of `size` bytes holds `size` pages
    rec["next"] = -1
    path = tmp_path / "trace.oracleGeneral.bin"
    rec.tofile(path)
    reader = lcs.TraceReader(str(path), lcs.TraceType.ORACLE_GENERAL_TRACE)
    miss_ratio, _ = lcs.LRU(cache_size=int(size)).process_trace(reader)
    return miss_ratio


def _lcs_per_request_miss_ratio(lcs, keys, size) -> float:
    cache = lcs.LRU(cache_size=int(size))
    hits = sum(cache.get(lcs.Request(obj_size=1, obj_id=int(k) + 1)) for k in keys)
    return 1.0 - hits / keys.size


@pytest.mark.parametrize("make", [random_trace, loop_trace, mixed_trace], ids=["zipf", "loop", "mixed"])
def test_lru_agrees_with_libcachesim(make, tmp_path):
    lcs = pytest.importorskip("libcachesim")
    trace = make()
    keys = trace.keys
    sizes = [16, 250, 999, 1000, 1700, 4000]
    ours = SD.miss_ratio_curve(keys, sizes)
    for size, mattson in zip(sizes, ours):
        theirs = _lcs_bulk_miss_ratio(lcs, keys, size, tmp_path)
        simulated = 1.0 - S.simulate(trace, size, vpseqt_pct=100, prefetch_quantity=0).application_hit_ratio
        assert mattson == pytest.approx(theirs, rel=0.005), size
        assert simulated == pytest.approx(theirs, rel=0.005), size


def test_libcachesim_per_request_path_agrees_too():
    lcs = pytest.importorskip("libcachesim")
    trace = mixed_trace(n=20_000)
    for size in (100, 1200):
        theirs = _lcs_per_request_miss_ratio(lcs, trace.keys, size)
        assert SD.miss_ratio_curve(trace, [size])[0] == pytest.approx(theirs, rel=0.005)


# --- the critical threshold of a looping scan -----------------------------------------------------


@pytest.mark.parametrize("w", [100, 1000])
def test_looping_scan_has_no_hits_below_the_loop_and_only_cold_misses_at_it(w):
    trace = loop_trace(w=w, n=10 * w)
    below = S.simulate(trace, w - 1, vpseqt_pct=100, prefetch_quantity=0)
    at = S.simulate(trace, w, vpseqt_pct=100, prefetch_quantity=0)
    assert below.total.sync_ios == 10 * w  # LRU always stole the page needed next
    assert at.total.sync_ios == w  # the first pass only
    assert SD.miss_ratio_curve(trace, [w - 1, w]).tolist() == [1.0, 0.1]


def test_looping_scan_with_prefetch_reads_every_pass_until_the_pool_holds_the_blocks():
    w, q, passes = 1000, 32, 10
    trace = loop_trace(w=w, n=passes * w, pages=4 * w)  # the object is bigger than the loop
    blocks = math.ceil(w / q)  # 32 blocks; the last one runs past page 999 to page 1023
    fits = S.simulate(trace, blocks * q, vpseqt_pct=100, prefetch_quantity=q)
    assert fits.total.prefetched_pages == blocks * q  # read once, on the first pass
    assert fits.total.prefetch_ios == blocks
    assert fits.total.sync_ios == 0
    assert fits.system_hit_ratio == pytest.approx(1 - blocks * q / (passes * w))
    small = S.simulate(trace, w // 2, vpseqt_pct=100, prefetch_quantity=q)
    assert small.total.prefetch_ios == blocks * passes  # every block again on every pass
    assert small.total.sync_ios == 0  # prefetch stays ahead: one I/O per block the application waits on ...
    assert small.application_hit_ratio == pytest.approx(1 - blocks * passes / (passes * w))
    assert small.system_hit_ratio < 0  # ... the system read more pages than were asked for


def test_a_restarted_scan_prefetches_its_block_again():
    """A loop over all 10 pages of an object, Q = 32, pool of 5, VPSEQT 100. By hand:
    pass 1: one prefetch reads pages 0-9, the pool keeps 5-9, so all 10 getpages are sync I/Os
    (each steals a page needed later) and the pass ends with 5-9 resident; every later pass starts
    again at page 0, which triggers a prefetch of the 5 missing pages 0-4 (hits), then 5-9 miss."""
    passes = 6
    trace = loop_trace(w=10, n=10 * passes, pages=10)
    r = S.simulate(trace, 5, vpseqt_pct=100, prefetch_quantity=32)
    assert r.total.prefetch_ios == passes
    assert r.total.prefetched_pages == 10 + 5 * (passes - 1)
    assert r.total.sync_ios == 10 + 5 * (passes - 1)


def test_a_random_touch_takes_a_buffer_off_the_sequential_chain():
    """Pool of 2, VPSEQT 10% (cap 0 sequential buffers), no prefetch. Getpages: b (random),
    a (sequential), a (random), c (random), a (random). The random touch of a takes it off the
    SLRU, so c steals the oldest buffer, b, and the last getpage of a hits: 3 sync I/Os. Were a
    still sequential, c would steal a (over VPSEQT) and a would miss again: 4."""
    trace = S.Trace(np.zeros(5, np.int32), np.array([1, 0, 0, 2, 0]),
                    np.array([False, True, False, False, False]), ("T",))
    r = S.simulate(trace, 2, vpseqt_pct=10, prefetch_quantity=0)
    assert r.total.sync_ios == 3


# --- simulator invariants -------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(pool=st.integers(min_value=1, max_value=6000), vpseqt=st.sampled_from([0, 10, 50, 80, 100]),
       quantity=st.sampled_from([0, 1, 8, 32, 64]), seed=st.integers(min_value=0, max_value=2**16))
def test_counts_are_consistent(pool, vpseqt, quantity, seed):
    trace = mixed_trace(n=4000, seed=seed)
    r = S.simulate(trace, pool, vpseqt_pct=vpseqt, prefetch_quantity=quantity)
    for stats in [r.total, *r.objects.values()]:
        assert stats.pages_read >= stats.sync_ios
        assert stats.prefetched_pages >= stats.prefetch_ios
        assert stats.prefetched_pages <= max(quantity, 1) * stats.prefetch_ios
        if stats.getpages:
            assert stats.system_hit_ratio <= stats.application_hit_ratio
            # at most one prefetch I/O and one sync I/O per getpage: a prefetched page stolen
            # before its getpage costs two I/Os, so the ratio can dip below 0, never below -1
            assert -1 <= stats.application_hit_ratio <= 1
            if stats.prefetch_ios == 0:
                assert stats.application_hit_ratio >= 0
    assert r.total == S.combined([S.PoolResult(0, 0, 0, s) for s in r.objects.values()])
    assert r.total.getpages == len(trace)
    assert r.objects["TSRAND"].prefetch_ios == 0  # random getpages never prefetch
    if quantity == 0 or vpseqt == 0:
        assert r.total.prefetch_ios == 0
        assert r.application_hit_ratio == r.system_hit_ratio
    # a getpage can only hit a page some earlier getpage or prefetch brought in
    assert r.total.sync_ios >= np.unique(trace.keys).size - r.total.prefetched_pages


def test_io_rate_is_ios_per_second_of_the_interval():
    trace = mixed_trace(n=6000)
    r = S.simulate(trace, 500)
    assert r.io_per_s == pytest.approx((r.total.sync_ios + r.total.prefetch_ios) / trace.interval_s)
    r2 = S.simulate(trace, 500, interval_s=2.0)
    assert r2.io_per_s == pytest.approx((r.total.sync_ios + r.total.prefetch_ios) / 2.0)


def test_lower_vpseqt_protects_the_random_object_from_a_big_scan():
    trace = S.generate_trace([
        S.ObjectSpec("TSRAND", 3000, "random", rate=300, skew=0.5),
        S.ObjectSpec("TSBIG", 500_000, "sequential", rate=700),
    ], n_getpages=60_000, seed=8)
    random_sync = [S.simulate(trace, 4000, vpseqt_pct=p).objects["TSRAND"].sync_ios for p in (90, 50, 20)]
    assert random_sync[0] > random_sync[1] > random_sync[2]
    # at 20% (800 buffers): once the pool is full, the random pages (at most 3000) leave the scan
    # at least 1000 buffers, always over its threshold, so only sequential buffers are stolen and
    # the random pages miss on their first reference only
    first_refs = np.unique(trace.page[trace.object_id == 0]).size
    assert random_sync[2] == first_refs


def test_split_pools_by_access_type():
    trace = S.generate_trace([
        S.ObjectSpec("TSRAND", 3000, "random", rate=300, skew=0.5),
        S.ObjectSpec("IXRAND", 1000, "random", rate=200, skew=0.8),
        S.ObjectSpec("TSBIG", 500_000, "sequential", rate=500),
    ], n_getpages=50_000, seed=9)
    split = S.split_pools(trace, {"TSRAND": "BP1", "IXRAND": "BP1", "TSBIG": "BP2"},
                          {"BP1": 4000, "BP2": 1000})
    assert list(split) == ["BP1", "BP2"]
    assert split["BP1"].total.getpages + split["BP2"].total.getpages == len(trace)
    assert set(split["BP1"].objects) == {"TSRAND", "IXRAND"}
    # the random pool holds both random objects (4000 pages): first references only
    random_keys = trace.keys[trace.object_id != 2]
    assert split["BP1"].total.sync_ios == np.unique(random_keys).size
    one = S.simulate(trace, 5000, vpseqt_pct=100)  # one big pool the scan may fill
    assert one.objects["TSRAND"].sync_ios + one.objects["IXRAND"].sync_ios > split["BP1"].total.sync_ios
    total = S.combined(split)
    assert total.getpages == len(trace)
    assert total.sync_ios == split["BP1"].total.sync_ios + split["BP2"].total.sync_ios


def test_split_pools_rejects_incomplete_assignments():
    trace = mixed_trace(n=2000)
    with pytest.raises(ValueError, match="assignment.*IXLOOP"):
        S.split_pools(trace, {"TSRAND": "BP1", "TSSCAN": "BP2"}, {"BP1": 10, "BP2": 10})
    with pytest.raises(ValueError, match="sizes.*BP2"):
        S.split_pools(trace, {"TSRAND": "BP1", "TSSCAN": "BP2", "IXLOOP": "BP1"}, {"BP1": 10})
    with pytest.raises(ValueError, match="assignment.*NOPE"):
        S.split_pools(trace, {"TSRAND": "BP1", "TSSCAN": "BP1", "IXLOOP": "BP1", "NOPE": "BP1"}, {"BP1": 10})


# --- the generator ------------------------------------------------------------------------------


def test_generated_traces_are_seeded_and_proportional_to_rate():
    a, b, c = (mixed_trace(n=10_000, seed=s) for s in (1, 1, 2))
    assert np.array_equal(a.keys, b.keys) and np.array_equal(a.sequential, b.sequential)
    assert not np.array_equal(a.keys, c.keys)
    counts = np.bincount(a.object_id)
    assert counts.tolist() == [6000, 3000, 1000]  # rates 600 : 300 : 100
    assert a.interval_s == pytest.approx(10_000 / 1000)
    assert a.sequential.tolist() == (a.object_id != 0).tolist()
    by_seconds = S.generate_trace([S.ObjectSpec("A", 10, rate=12.5), S.ObjectSpec("B", 10, rate=0)], seconds=4)
    assert len(by_seconds) == 50 and by_seconds.interval_s == 4


def test_scans_read_pages_in_order():
    trace = mixed_trace(n=10_000)
    scan = trace.page[trace.object_id == 1]
    assert scan.tolist() == list(range(scan.size))  # one looping scan, from page 0
    ix = trace.page[trace.object_id == 2]  # scans of 200 pages from random starts in 800 pages
    runs = ix.reshape(-1, 200)
    assert np.all(np.diff(runs, axis=1) == 1)
    assert runs[:, 0].max() <= 600


def test_random_pages_follow_the_skew():
    flat = random_trace(n=50_000, pages=1000, skew=0.0)
    hot = random_trace(n=50_000, pages=1000, skew=1.2)
    top = lambda t: np.sort(np.bincount(t.page, minlength=1000))[::-1][:10].sum() / len(t)  # noqa: E731
    assert top(flat) < 0.02  # 10 of 1000 pages: about 1%
    assert top(hot) > 0.3
    ws = S.generate_trace([S.ObjectSpec("A", 10_000, skew=0.5, working_set_pages=100)], n_getpages=5000)
    assert np.unique(ws.page).size <= 100 and ws.page.max() < 10_000


# --- trace files ----------------------------------------------------------------------------------


def test_trace_file_round_trip(tmp_path):
    trace = mixed_trace(n=3000)
    path = tmp_path / "t.csv"
    S.write_trace(trace, path)
    back = S.read_trace(path)
    assert back.names == trace.names
    assert back.object_pages == trace.object_pages
    assert back.interval_s == trace.interval_s
    assert np.array_equal(back.keys, trace.keys) and np.array_equal(back.sequential, trace.sequential)
    assert S.simulate(back, 700).total == S.simulate(trace, 700).total


def test_trace_file_without_metadata(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("# hand-written\nobject,page,seq\nA,0,1\nA,1,1\n\nB,5,0\n")
    trace = S.read_trace(path)
    assert trace.names == ("A", "B") and trace.interval_s is None
    assert trace.sizes().tolist() == [2, 6]
    assert math.isnan(S.simulate(trace, 10).io_per_s)


@pytest.mark.parametrize("line, problem", [
    ("TS1,12", "3 comma-separated fields"),
    ("TS1,12,0,9", "3 comma-separated fields"),
    ("TS1,twelve,0", "page 'twelve'"),
    ("TS1,-3,0", "page '-3'"),
    ("TS1,1.5,0", "page '1.5'"),
    ("TS1,12,2", "seq '2'"),
    ("TS1,12,", "seq ''"),
    (",12,0", "object name ''"),
    ("TS 1,12,0", "object name"),
])
def test_malformed_trace_line_names_file_and_line(tmp_path, line, problem):
    path = tmp_path / "bad.csv"
    path.write_text(f"# interval_s=10\nobject,page,seq\nTS1,0,0\nTS1,1,1\n{line}\nTS1,2,0\n")
    with pytest.raises(ValueError) as err:
        S.read_trace(path)
    msg = str(err.value)
    assert str(path) in msg and "line 5" in msg and problem in msg


@pytest.mark.parametrize("text, problem", [
    ("TS1,0,0\n", "line 1: expected the header"),
    ("# interval_s=soon\nobject,page,seq\nA,0,0\n", "line 1: interval_s='soon'"),
    ("# interval_s=-2\nobject,page,seq\nA,0,0\n", "line 1: interval_s=-2"),
    ("# pages=A:0\nobject,page,seq\nA,0,0\n", "line 1: pages=0"),
    ("# pages=A:3\nobject,page,seq\nA,0,0\nA,3,1\n", "line 4: page 3 is beyond object A's 3 pages"),
    ("", "no header line"),
    ("object,page,seq\n", "no getpages"),
])
def test_malformed_trace_file(tmp_path, text, problem):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=problem):
        S.read_trace(path)


# --- guards ---------------------------------------------------------------------------------------

TINY = S.Trace(np.zeros(3, dtype=np.int32), np.array([0, 1, 0]), np.zeros(3, bool), ("T",))


@pytest.mark.parametrize("call, name", [
    (lambda: S.ObjectSpec("A", 10, rate=-1.0), "rate"),
    (lambda: S.ObjectSpec("A", 10, rate=math.nan), "rate"),
    (lambda: S.ObjectSpec("A", 10, rate=math.inf), "rate"),
    (lambda: S.ObjectSpec("A", 0), "pages"),
    (lambda: S.ObjectSpec("A", 10.5), "pages"),
    (lambda: S.ObjectSpec("A", 10, skew=-0.1), "skew"),
    (lambda: S.ObjectSpec("A", 10, access="diagonal"), "access"),
    (lambda: S.ObjectSpec("A", 10, working_set_pages=11), "working_set_pages"),
    (lambda: S.ObjectSpec("A", 10, "sequential", scan_pages=0), "scan_pages"),
    (lambda: S.ObjectSpec("A,B", 10), "name"),
    (lambda: S.generate_trace([], n_getpages=10), "objects"),
    (lambda: S.generate_trace([S.ObjectSpec("A", 10, rate=0)], n_getpages=10), "rate"),
    (lambda: S.generate_trace([S.ObjectSpec("A", 10)], seconds=-1), "seconds"),
    (lambda: S.generate_trace([S.ObjectSpec("A", 10)], seconds=math.nan), "seconds"),
    (lambda: S.generate_trace([S.ObjectSpec("A", 10)], n_getpages=0), "n_getpages"),
    (lambda: S.generate_trace([S.ObjectSpec("A", 10)], n_getpages=S.MAX_GETPAGES + 1), "n_getpages"),
    (lambda: S.generate_trace([S.ObjectSpec("A", 10, rate=1e6)], seconds=1e3), "MAX_GETPAGES"),
    (lambda: S.simulate(TINY, 0), "pool_pages"),
    (lambda: S.simulate(TINY, -5), "pool_pages"),
    (lambda: S.simulate(TINY, math.nan), "pool_pages"),
    (lambda: S.simulate(TINY, 2.5), "pool_pages"),
    (lambda: S.simulate(TINY, S.MAX_POOL_PAGES + 1), "pool_pages"),
    (lambda: S.simulate(TINY, 10, vpseqt_pct=-1), "vpseqt_pct"),
    (lambda: S.simulate(TINY, 10, vpseqt_pct=100.5), "vpseqt_pct"),
    (lambda: S.simulate(TINY, 10, vpseqt_pct=math.inf), "vpseqt_pct"),
    (lambda: S.simulate(TINY, 10, prefetch_quantity=-1), "prefetch_quantity"),
    (lambda: S.simulate(TINY, 10, prefetch_quantity=S.MAX_PREFETCH_QUANTITY + 1), "prefetch_quantity"),
    (lambda: S.simulate(TINY, 10, interval_s=0), "interval_s"),
    (lambda: S.simulate(TINY, 10, max_getpages=S.MAX_GETPAGES + 1), "max_getpages"),
    (lambda: S.sweep(TINY, [10, 0]), "sizes"),
    (lambda: S.sweep(TINY, list(range(1, S.MAX_SWEEP_SIZES + 2))), "MAX_SWEEP_SIZES"),
    (lambda: S.Trace(np.zeros(0, np.int32), np.zeros(0), np.zeros(0, bool), ("T",)), "empty"),
    (lambda: S.Trace(np.zeros(S.MAX_GETPAGES + 1, np.int8), np.zeros(S.MAX_GETPAGES + 1, np.int8),
                     np.zeros(S.MAX_GETPAGES + 1, bool), ("T",)), "MAX_GETPAGES"),
    (lambda: S.Trace(np.zeros(2, np.int32), np.array([0, -1]), np.zeros(2, bool), ("T",)), "page"),
    (lambda: SD.miss_ratio_curve([], [1]), "keys"),
    (lambda: SD.miss_ratio_curve([1, 2], [0]), "sizes"),
    (lambda: SD.miss_ratio_curve([1, 2], [math.nan]), "sizes"),
    (lambda: SD.stack_distances(np.zeros(SD.MAX_REFERENCES + 1, np.int8)), "MAX_REFERENCES"),
])
def test_guards_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_range_guards_state_the_valid_range():
    with pytest.raises(ValueError, match=r"valid range is \[0, 100\]"):
        S.simulate(TINY, 10, vpseqt_pct=120)
    with pytest.raises(ValueError, match=r"rate.*valid range is \[0, inf\)"):
        S.ObjectSpec("A", 10, rate=-2)


def test_simulator_refuses_traces_over_its_limit_and_says_the_limit():
    trace = mixed_trace(n=1000)
    with pytest.raises(ValueError, match="over max_getpages = 500") as err:
        S.simulate(trace, 100, max_getpages=500)
    assert f"{S.MAX_GETPAGES:,}" in str(err.value)


def test_a_repeated_getpage_of_the_same_page_does_not_prefetch_again():
    """Object of 2 pages, Q = 2, pool of 1; sequential getpages of page 0 twice. The first
    prefetches pages 0-1 (page 1 steals page 0), so the getpage is a sync I/O (stealing page 1);
    the second finds page 0: no new prefetch, a hit."""
    trace = S.Trace(np.zeros(2, np.int32), np.array([0, 0]), np.ones(2, bool), ("T",), object_pages=(2,))
    r = S.simulate(trace, 1, vpseqt_pct=100, prefetch_quantity=2)
    assert (r.total.prefetch_ios, r.total.prefetched_pages, r.total.sync_ios) == (1, 2, 1)
