"""The large-memory models: physics, validation, and property-based checks (hypothesis)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from widgets.large_memory import model as m
from widgets.large_memory.calibration import CALIBRATED as CAL
from widgets.large_memory.calibration import machine, predict_single
from widgets.sql_data_insights import model as sqldi

finite_pos = st.floats(min_value=1e-3, max_value=1e5, allow_nan=False, allow_infinity=False)
skews = st.floats(min_value=0.01, max_value=0.99)
bad_numbers = st.sampled_from([math.nan, math.inf, -math.inf, -1.0, 0.0, -1e-9])


# --- Che's approximation against a real LRU cache ------------------------------------------------


def _lru_simulation(n_pages: int, cache: int, skew: float, n_refs: int, seed: int = 1) -> float:
    """Miss ratio of an exact LRU cache under independent references with q(u) ~ u**-skew."""
    from collections import OrderedDict

    rng = np.random.default_rng(seed)
    ranks = np.arange(1, n_pages + 1)
    weights = ((ranks / n_pages) ** (1 - skew) - ((ranks - 1) / n_pages) ** (1 - skew))
    refs = rng.choice(n_pages, size=n_refs, p=weights / weights.sum())
    lru, misses = OrderedDict(), 0
    for i, page in enumerate(refs):
        if page in lru:
            lru.move_to_end(page)
        else:
            if i >= n_refs // 5:
                misses += 1
            lru[page] = True
            if len(lru) > cache:
                lru.popitem(last=False)
    return misses / (n_refs - n_refs // 5)


@pytest.mark.parametrize("skew,fraction", [(0.5, 0.1), (0.5, 0.5), (0.8, 0.05), (0.8, 0.3), (0.9, 0.6)])
def test_che_matches_an_exact_lru_simulation(skew, fraction):
    n = 4000
    simulated = _lru_simulation(n, int(fraction * n), skew, 120_000)
    assert float(m.lru_miss_ratio(fraction, skew)) == pytest.approx(simulated, abs=0.02)


def test_miss_curve_endpoints():
    assert float(m.lru_miss_ratio(0.0, 0.7)) == pytest.approx(1.0, abs=1e-6)
    assert float(m.lru_miss_ratio(1.0, 0.7)) == 0.0
    assert float(m.lru_miss_ratio(5.0, 0.7)) == 0.0


@settings(max_examples=60, deadline=None)
@given(skew=skews, a=st.floats(0, 3), b=st.floats(0, 3))
def test_a_bigger_lru_pool_never_misses_more(skew, a, b):
    small, large = sorted([a, b])
    miss = m.lru_miss_ratio(np.array([small, large]), skew)
    assert np.all(np.isfinite(miss)) and np.all((0 <= miss) & (miss <= 1))
    assert miss[1] <= miss[0] + 1e-12


@settings(max_examples=40, deadline=None)
@given(pools=st.lists(finite_pos, min_size=2, max_size=20))
def test_the_chain_is_finite_and_monotone_in_pool_size(pools):
    pools = np.sort(np.array(pools))
    out = predict_single(pools)
    for key, values in out.items():
        assert np.all(np.isfinite(values)), key
    assert np.all(np.diff(out["reads_per_ds"]) <= 1e-9)  # more memory, never more reads
    assert np.all(np.diff(out["itr"]) >= -1e-6)  # ... never less ITR
    assert np.all(np.diff(out["request_s"]) <= 1e-12)
    assert np.all(np.diff(out["etr"]) >= -1e-6)


@settings(max_examples=40, deadline=None)
@given(lbp=finite_pos, g1=finite_pos, g2=finite_pos, frac=st.floats(0, 1))
def test_data_sharing_more_gbp_never_more_reads(lbp, g1, g2, frac):
    from dataclasses import replace

    group = replace(CAL.group, gbp_dependent_fraction=frac)
    lo, hi = sorted([g1, g2])
    r = m.sync_reads_per_ds_data_sharing(np.array([lbp, lbp]), np.array([lo, hi]), CAL.workload, group)
    assert np.all(np.isfinite(r)) and r[1] <= r[0] + 1e-9


def test_gbp_dependent_fraction_zero_makes_the_gbp_useless():
    from dataclasses import replace

    group = replace(CAL.group, gbp_dependent_fraction=0.0)
    r = m.sync_reads_per_ds_data_sharing(np.array([58.0, 58.0]), np.array([52.0, 398.0]), CAL.workload, group)
    assert r[0] == pytest.approx(r[1])


def test_itr_is_cps_over_cpu_per_step():
    mach = machine("zEC12")
    assert float(m.itr(0.0, mach)) == pytest.approx(12e3 / mach.base_cpu_ms_per_ds)
    assert float(m.itr(10.0, mach)) < float(m.itr(0.0, mach))


def test_littles_law_closed_loop():
    loop = m.ClosedLoop(users=1000, think_s=9.0, requests_per_ds=5.0)
    assert float(m.etr(0.2, loop)) == pytest.approx(1000 / (9.0 + 1.0))


def test_memory_accounting_counts_gbp_twice():
    assert float(m.memory_needed_gb(230, 204, members=2)) == pytest.approx(2 * 230 + 2 * 204)
    assert float(m.memory_needed_gb(230, 204, members=4, gbp_copies=1)) == pytest.approx(4 * 230 + 204)


# --- invalid input: a clear ValueError naming the parameter and the range -------------------------


@settings(max_examples=30, deadline=None)
@given(bad=bad_numbers)
def test_bad_pool_size_names_parameter_and_range(bad):
    with pytest.raises(ValueError, match=r"pool_gb=.*valid range is \(0, inf\) GB"):
        m.sync_reads_per_ds(bad, CAL.workload)


@settings(max_examples=30, deadline=None)
@given(bad=st.one_of(st.floats(1.0001, 1e6), st.floats(-1e6, -1e-9), st.just(math.nan)))
def test_ratio_outside_unit_interval_is_refused(bad):
    from dataclasses import replace

    with pytest.raises(ValueError, match=r"gbp_dependent_fraction=.*valid range is \[0, 1\]"):
        m.gbp_hit_ratio(64.0, replace(CAL.group, gbp_dependent_fraction=bad))


@pytest.mark.parametrize("skew", [0.0, 1.0, -0.2, 1.5, math.nan])
def test_skew_must_be_inside_zero_one(skew):
    with pytest.raises(ValueError, match=r"skew=.*valid range is \(0, 1\)"):
        m.lru_miss_ratio(0.5, skew)


def test_nan_inside_an_array_is_found():
    with pytest.raises(ValueError, match=r"pool_gb=nan \(in array of shape \(3,\)\)"):
        m.sync_reads_per_ds(np.array([100.0, math.nan, 300.0]), CAL.workload)


def test_mismatched_shapes_are_refused():
    with pytest.raises(ValueError, match="array shapes do not match"):
        m.sync_reads_per_ds_data_sharing(np.ones(3), np.ones(4), CAL.workload, CAL.group)


def test_strings_and_empty_arrays_are_refused():
    with pytest.raises(ValueError, match="pool_gb must be a number"):
        m.sync_reads_per_ds("161 GB", CAL.workload)
    with pytest.raises(ValueError, match="pool_gb must not be empty"):
        m.sync_reads_per_ds(np.array([]), CAL.workload)


def test_bad_calibration_record_is_named():
    from dataclasses import replace

    with pytest.raises(ValueError, match="working_set_gb"):
        m.sync_reads_per_ds(100.0, replace(CAL.workload, working_set_gb=-5))
    with pytest.raises(ValueError, match="cpu_us_per_sync_read"):
        m.itr(1.0, m.Machine(12, 10.0, -1.0))


# --- every public model function, driven with random valid and invalid inputs --------------------

MACHINE = machine("zEC12")
PUBLIC = {  # name -> (call with one array argument, valid strategy for it, the parameter name)
    "lru_miss_ratio": (lambda a: m.lru_miss_ratio(a, 0.7), st.floats(0, 10), "cache_fraction"),
    "sync_reads_per_ds": (lambda a: m.sync_reads_per_ds(a, CAL.workload), finite_pos, "pool_gb"),
    "cpu_ms_per_ds": (lambda a: m.cpu_ms_per_ds(a, MACHINE), st.floats(0, 1e4), "reads_per_ds"),
    "itr": (lambda a: m.itr(a, MACHINE), st.floats(0, 1e4), "reads_per_ds"),
    "db_request_time": (lambda a: m.db_request_time(a, CAL.request_time), st.floats(0, 1e4), "reads_per_ds"),
    "etr": (lambda a: m.etr(a, CAL.loop), st.floats(0, 1e3), "request_s"),
    "cpu_utilisation": (lambda a: m.cpu_utilisation(a, np.full_like(a, 1000.0)), st.floats(0, 1e3), "etr_ds"),
    "gbp_hit_ratio": (lambda a: m.gbp_hit_ratio(a, CAL.group), finite_pos, "gbp_gb"),
    "sync_reads_per_ds_data_sharing": (
        lambda a: m.sync_reads_per_ds_data_sharing(a, np.full_like(a, 64.0), CAL.workload, CAL.group),
        finite_pos, "lbp_gb"),
    "memory_needed_gb": (lambda a: m.memory_needed_gb(a, 64.0), st.floats(0, 1e5), "lbp_gb_per_member"),
    "single_system": (lambda a: m.single_system(a, CAL.workload, MACHINE, CAL.request_time, CAL.loop)["etr"],
                      finite_pos, "pool_gb"),
}


# SQL Data Insights (chapter 6 of the Db2 13 Redbook)
sqldi_counts = st.floats(min_value=1.0, max_value=1e10, allow_nan=False, allow_infinity=False)
sqldi_pos = st.floats(min_value=1e-3, max_value=1e9, allow_nan=False, allow_infinity=False)
SQLDI_PUBLIC = {  # name -> (call with one array argument, valid strategy for it, the parameter name)
    "words(rows)": (lambda a: sqldi.words(a, 29), sqldi_counts, "rows"),
    "words(columns)": (lambda a: sqldi.words(1e6, a), st.floats(1, 1000), "columns"),
    "text_mb": (lambda a: sqldi.text_mb(a, 22.7), st.floats(0, 1e10), "words"),
    "model_mb": (lambda a: sqldi.model_mb(a, 3287.0), st.floats(0, 1e9), "vocabulary"),
    "linear_cost": (lambda a: sqldi.linear_cost(a, 2.0, 0.2), st.floats(0, 1e10), "words"),
    "peak_memory_mb": (lambda a: sqldi.peak_memory_mb(1e8, a, 5895.0, 31.7, 4304.6), st.floats(0, 1e9), "vocabulary"),
    "zfs_mb": (lambda a: sqldi.zfs_mb(a, 900.0, 1.03), st.floats(0, 1e6), "text_mb"),
    "vocabulary_with_repeats": (lambda a: sqldi.vocabulary_with_repeats(a, 1e7, 2.1, 0.887, 0.9), st.floats(0, 1e9),
                                "rows"),
    "concurrent_elapsed(threads)": (lambda a: sqldi.concurrent_elapsed(2, 2.42, 24.8, 8, a), st.floats(1, 64),
                                    "threads"),
    "concurrent_elapsed(engines)": (lambda a: sqldi.concurrent_elapsed(2, 2.42, 24.8, a, 8), sqldi_pos, "engines"),
    "query_cut": (lambda a: sqldi.query_cut(2, a, 0.1), st.floats(0, 100), "udf_overhead"),
    "ziip_share": (lambda a: sqldi.ziip_share(4, a), st.floats(0, 100), "other_work"),
}
PUBLIC.update({f"sql_data_insights.{k}": v for k, v in SQLDI_PUBLIC.items()})


@pytest.mark.parametrize("name", sorted(PUBLIC))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_public_function_valid_inputs_give_finite_results(name, data):
    call, valid, _ = PUBLIC[name]
    values = np.array(data.draw(st.lists(valid, min_size=1, max_size=8)), dtype=float)
    out = np.asarray(call(values), dtype=float)
    assert out.shape == values.shape and np.all(np.isfinite(out))


@pytest.mark.parametrize("name", sorted(PUBLIC))
@settings(max_examples=15, deadline=None)
@given(bad=st.sampled_from([math.nan, math.inf, -1.0, -1e-6]), data=st.data())
def test_public_function_invalid_inputs_name_the_parameter(name, bad, data):
    call, valid, param = PUBLIC[name]
    values = data.draw(st.lists(valid, min_size=0, max_size=4))
    values.insert(data.draw(st.integers(0, len(values))), bad)
    with pytest.raises(ValueError, match=rf"{param}=.*valid range is"):
        call(np.array(values, dtype=float))
