"""The hit-ratio chapter's models: definitions, threshold, builder, VPSEQT (the simulator has its own file)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from widgets.hit_ratio_dead import model as m

# --- definitions --------------------------------------------------------------------------------


def test_sequential_prefetch_gives_97_percent_application_and_zero_system():
    getpages = 32_000
    ios = getpages / 32  # every prefetch brings 32 pages, all touched
    assert m.application_hit_ratio(getpages, ios) == pytest.approx(1 - 1 / 32)
    assert m.system_hit_ratio(getpages, getpages) == 0.0
    assert m.prefetch_application_hit_ratio() == pytest.approx(0.96875)


def test_untouched_prefetched_pages_drive_the_system_ratio_negative():
    assert m.system_hit_ratio(106_000, 198_000) == pytest.approx(-92 / 106)
    assert m.system_hit_ratio(100, 200) == -1.0


def test_time_saved_chain_of_the_worked_example():
    ios = m.ios_avoided(72, 3489)
    assert ios == 251_208
    assert m.elapsed_saved_s(ios, 4) / 60 == pytest.approx(16.7472, abs=1e-4)


def test_overall_ratio_is_the_getpage_weighted_mean():
    g, h = np.array([100.0, 300.0]), np.array([0.5, -0.1])
    assert m.overall_hit_ratio(g, h) == pytest.approx((50 - 30) / 400)
    pages_read = g * (1 - h)
    assert m.overall_hit_ratio(g, h) == pytest.approx(1 - pages_read.sum() / g.sum())


@pytest.mark.parametrize("call, name", [
    (lambda: m.application_hit_ratio(0, 1), "getpages"),
    (lambda: m.system_hit_ratio(10, -1), "pages_read"),
    (lambda: m.io_rate(5, 0), "interval_s"),
    (lambda: m.io_rate(float("nan"), 3), "ios"),
    (lambda: m.elapsed_saved_s(10, -4), "sync_io_ms"),
    (lambda: m.prefetch_application_hit_ratio(64), "pages_per_io"),
    (lambda: m.overall_hit_ratio([0, 0], [0.5, 0.5]), "getpages"),
    (lambda: m.stack_hit_ratio(-1, m.StackDistances(400, 0.2, 600)), "pool_buffers"),
    (lambda: m.stack_hit_ratio(10, m.StackDistances(400, 1.2, 600)), "loop_share"),
    (lambda: m.stack_hit_ratio(10, m.StackDistances(400, 0.7, 600, 0.2, 0.3)),
     "loop_share + short_share + floor_share"),
    (lambda: m.mix_hit_ratios(m.PoolMix(0.5, 0.2, 0.0)), "touched_share"),
    (lambda: m.mix_hit_ratios(m.PoolMix(1.5, 0.2, 0.5)), "sequential_share"),
    (lambda: m.scan_hold_and_random_miss(m.SharedPool(1000, 2000, 0.7, 0.5), 120), "vpseqt_pct"),
    (lambda: m.scan_hold_and_random_miss(m.SharedPool(0, 2000, 0.7, 0.5), 50), "pool_buffers"),
    (lambda: m.scan_hold_and_random_miss(m.SharedPool(1000, 2000, 0.7, 1.0), 50), "scan_share"),
])
def test_bad_input_names_the_parameter_and_its_range(call, name):
    with pytest.raises(ValueError, match=re.escape(name)) as err:
        call()
    assert "valid range" in str(err.value)


# --- the threshold ---------------------------------------------------------------------------------

IMS_POOLS = np.array([50, 370, 450, 530, 610.0])
IMS_HITS = np.array([0.0, 0.5, 30.3, 40.1, 49.7]) / 100  # the deck's printed ratios (see data/ for lines)


def test_stack_model_is_flat_below_the_loop_and_jumps_at_it():
    sd = m.StackDistances(loop_pages=400, loop_share=0.25, spread_pages=600)
    below, at, above = m.stack_hit_ratio([399.0, 400.0, 700.0], sd)
    assert below == 0 and at == pytest.approx(0.25) and above == pytest.approx(0.25 + 0.75 * 0.5)
    assert m.stack_hit_ratio(10_000, sd) == pytest.approx(1.0)


@pytest.mark.parametrize("loop_pages", [371.0, 410.0, 450.0])
def test_threshold_fit_is_the_same_anywhere_between_370_and_450(loop_pages):
    sd = m.fit_stack_distances(IMS_POOLS, IMS_HITS, loop_pages)
    fitted = m.stack_hit_ratio(IMS_POOLS, sd)
    reference = m.stack_hit_ratio(IMS_POOLS, m.fit_stack_distances(IMS_POOLS, IMS_HITS, 410.0))
    assert np.allclose(fitted, reference, atol=1e-12)
    assert np.max(np.abs(fitted[2:] - IMS_HITS[2:])) < 0.002


def test_independent_references_cannot_make_the_jump():
    """The best Che/Zipf curve misses the IMS points by more than 15 points somewhere."""
    best = math.inf
    for pages in np.geomspace(300, 200_000, 60):
        for skew in np.linspace(0.05, 0.95, 19):
            err = np.max(np.abs(m.zipf_hit_ratio(IMS_POOLS, pages, skew) - IMS_HITS))
            best = min(best, err)
    assert best > 0.15


@settings(max_examples=60, deadline=None)
@given(st.floats(1, 5000), st.floats(0.05, 0.95))
def test_zipf_curve_is_concave_and_rising(pages, skew):
    c = np.linspace(0, pages, 41)
    h = m.zipf_hit_ratio(c, pages, skew)
    assert np.all(np.diff(h) >= -1e-9)
    assert np.all(np.diff(h, 2) <= 1e-4)  # the tabulated curve is concave to within its interpolation


# --- the builder -------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0.01, 1), st.floats(1, 32))
def test_system_ratio_never_exceeds_application_ratio(seq, miss, touched, q):
    app, system = m.mix_hit_ratios(m.PoolMix(seq, miss, touched, q))
    assert system <= app + 1e-12
    assert app <= 1 and system <= 1


def test_touched_share_inverts_the_builder():
    u = m.touched_share_for(-0.631, sequential_share=0.8, random_miss=0.3)
    _, system = m.mix_hit_ratios(m.PoolMix(0.8, 0.3, u))
    assert system == pytest.approx(-0.631)
    with pytest.raises(ValueError, match="system_ratio"):
        m.touched_share_for(0.95, sequential_share=0.8, random_miss=0.3)


# --- VPSEQT ------------------------------------------------------------------------------------------


def test_lowering_vpseqt_helps_the_random_objects_and_never_hurts_them():
    pool = m.SharedPool(pool_buffers=200_000, random_pages=400_000, skew=0.7, scan_share=0.5)
    vpseqt = np.arange(0, 101, 5.0)
    hold, miss = m.scan_hold_and_random_miss(pool, vpseqt)
    assert np.all(np.diff(miss) >= -1e-12) and miss[0] < miss[-1]
    assert np.all(hold <= vpseqt / 100 + 1e-12)
    assert hold[vpseqt == 50] == pytest.approx(0.5)  # at 50% one scan may take 100,000 of 200,000 buffers


def test_without_a_scan_the_pool_is_plain_lru():
    pool = m.SharedPool(pool_buffers=1000, random_pages=5000, skew=0.6, scan_share=0.0)
    hold, miss = m.scan_hold_and_random_miss(pool, 30.0)
    assert hold == pytest.approx(0.0, abs=1e-9)
    from widgets.lru import lru_miss_ratio
    assert miss == pytest.approx(float(lru_miss_ratio(0.2, 0.6)), rel=1e-3)


# --- what a screen's counts imply about prefetch --------------------------------------------------------


def test_prefetch_bound_by_hand():
    # 100 getpages, 10 sync reads, 5 prefetch I/Os of 32 pages: I = 15, P = 170
    assert m.prefetched_pages_at_least(100, 170, 15) == pytest.approx(155 * 32 / 31)
    assert m.prefetched_pages_at_least(100, 170, 15) <= 160
    assert m.touched_share_at_most(100, 170, 15) == pytest.approx(100 / (155 * 32 / 31))
    assert m.touched_share_at_most(100, 50, 50) == 1.0  # nothing prefetched: no bound


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("pool", [300, 2_000, 8_000])
def test_prefetch_bound_holds_on_simulated_pools(seed, pool):
    """The bound from the counts never exceeds what the simulator's prefetch really read."""
    from widgets.hit_ratio_dead import simulator as sim, workloads

    trace = sim.generate_trace(workloads.PRESET, seconds=20, seed=seed)
    result = sim.simulate(trace, pool, vpseqt_pct=80)
    for stats in [result.total, *result.objects.values()]:
        if not stats.getpages:
            continue
        ios = stats.sync_ios + stats.prefetch_ios
        assert m.prefetched_pages_at_least(stats.getpages, stats.pages_read, ios) <= stats.prefetched_pages + 1e-9
        # and with writes added to the I/Os (a screen that does not split them) it is weaker, still a bound
        assert m.prefetched_pages_at_least(stats.getpages, stats.pages_read, ios + 50) <= stats.prefetched_pages + 1e-9


def test_the_screens_negative_pools_left_prefetched_pages_untouched():
    from widgets.hit_ratio_dead import fidelity

    table = fidelity.negative_pools()
    assert sorted(table["system hit ratio (%)"]) == [-76.9, -63.1, -38.4, -18.6, -6.1]
    assert (table["prefetched pages per getpage, at least"] > 1).all()  # more pages read ahead than asked for
    bp6 = table[(table["screen"] == "2004-03-01") & (table["pool"] == "BP6")].iloc[0]
    assert bp6["share of prefetched pages touched, at most (%)"] < 80
