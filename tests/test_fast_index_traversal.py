"""Fast index traversal: the data's arithmetic, the getpage theory, levels, eligibility, bad input."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from widgets.data import load_long, wide
from widgets.fast_index_traversal import fidelity, model
from widgets.fast_index_traversal import published as pub
from widgets.fast_index_traversal.explorer import EligibilityForm, dashboard, parse_columns


def test_totals_are_the_sum_of_their_parts():
    for filename in (pub.T43, pub.T44):
        t = wide(load_long("fast_index_traversal", filename))
        for run in ("db2_12_fl510", "db2_13_fl501"):
            parts = sum(t.loc[run, m] for m in ("class2_cpu_ms", "mstr_cpu_ms", "dbm1_cpu_ms", "irlm_cpu_ms"))
            assert parts == pytest.approx(t.loc[run, "total_db2_cpu_ms"], abs=0.0015)


def test_lost_minus_sign_in_table_4_2_is_flagged():
    long = load_long("fast_index_traversal", pub.T42)
    row = long[(long.run_id == "delta") & (long.metric == "class2_cpu_change_pct")].iloc[0]
    assert row.printed == "1.4%" and row.flag == "contradiction"


def test_theory_gives_60_and_30_percent():
    assert float(model.getpage_reduction(1, 4, 1)) == pytest.approx(0.6)
    assert float(model.getpage_reduction(10, 4, 6)) == pytest.approx(0.3)
    assert all(r.ok for r in fidelity.ledger_rows())


@settings(max_examples=40, deadline=None)
@given(r1=st.floats(1, 500), r2=st.floats(1, 500), levels=st.integers(2, 6), p=st.floats(0, 1))
def test_more_rows_per_key_smaller_cut(r1, r2, levels, p):
    lo, hi = sorted([r1, r2])
    cut = lambda r: float(model.getpage_reduction(r, levels, model.data_pages_for_rows(r, p)))  # noqa: E731
    assert 0 <= cut(hi) <= cut(lo) + 1e-12 <= (levels - 1) / levels + 1e-9


@settings(max_examples=40, deadline=None)
@given(k1=st.integers(1, 1000), k2=st.integers(1, 1000), rows=st.floats(1e3, 1e9))
def test_longer_keys_never_fewer_levels(k1, k2, rows):
    lo, hi = sorted([k1, k2])
    assert model.index_levels(rows, hi) >= model.index_levels(rows, lo)


def test_naive_model_misses_the_published_levels_and_truncation_explains_it():
    assert float(model.index_levels(2e7, 96, 4096, 0.1, 1.0)) == 5
    assert float(model.index_levels(2e7, 96, 4096, 0.1, 0.4)) == 4
    assert model.implied_nonleaf_fanout(2e7, 96, 4) == 83


def test_eligibility_by_level():
    cols = [model.Column("CUST", "CHAR", 40), model.Column("NAME", "VARCHAR", 30)]
    assert model.ftb_key_length(cols, unique=False) == 72
    assert not model.eligibility(cols, False, "Db2 12 FL 508").eligible
    assert model.eligibility(cols, False, "Db2 13 FL 500").eligible
    tz = model.eligibility([model.Column("TS", "TIMESTZ", 13)], True)
    assert not tz.eligible and "TIME ZONE" in tz.reasons[0]
    inc = [model.Column("K", "CHAR", 60), model.Column("I", "CHAR", 50, include=True)]
    assert not model.eligibility(inc, True, "Db2 12 GA").eligible  # INCLUDE counted at GA
    assert model.eligibility(inc, True, "Db2 12 FL 508").eligible


@pytest.mark.parametrize("call,match", [
    (lambda: model.getpages_per_select(0.5, 4, 1), "rows_per_key="),
    (lambda: model.getpages_per_select(1, 0, 1), "levels="),
    (lambda: model.index_levels(1e6, 0), "key_bytes="),
    (lambda: model.index_levels(1e6, 5000), "key_bytes="),
    (lambda: model.entries_per_page(100, 5000), "page_bytes="),
    (lambda: model.cpu_reduction(1.5, 0.1), "getpage_reduction_share="),
    (lambda: model.eligibility([], True), "at least one key column"),
    (lambda: model.eligibility([model.Column("K", "CHAR", 0)], True), "length=0"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_the_form_explains_and_never_crashes():
    form = EligibilityForm()
    assert "Db2 13 FL 500" in form.result.value
    for bad in ("", "X", "X NOPE 3", "X CHAR -1", "X CHAR 3 maybe"):
        form.columns.value = bad
        assert "color:#b00" in form.result.value, bad
    with pytest.raises(ValueError, match="line 1"):
        parse_columns("X CHAR abc")


def test_dashboard_has_tabs_and_the_form():
    d = dashboard()
    from widgets.explorer import Explorer

    assert any(isinstance(c, EligibilityForm) for c in d.children[-1].children)  # the tools, after the charts
    assert isinstance(d, Explorer) and d.tabs is not None


def test_every_row_is_judged_to_the_printed_digits():
    """Issue 25: a change in percent is judged in points against the range its printed cells allow, the select
    cuts to their printed tenth of a point (the Redbook states no error), and the fitted shares are exact."""
    rows = fidelity.ledger_rows()
    assert all(r.basis in ("rounding", "exact") and len(r.basis_note) >= 8 for r in rows)
    notify = next(r for r in rows if r.quantity.startswith("notify messages sent"))
    assert notify.unit == "points" and notify.absolute == pytest.approx(1000.5)  # cells allow +250% to +1,700%
    assert "+250.00% to +1700.00%" in notify.basis_note and notify.passed
    selects = [r for r in rows if r.quantity == "getpage cut per random select (%)"]
    assert len(selects) == 3 and all(r.known_miss and r.absolute <= 0.06 for r in selects)
    assert all(r.basis == "exact" for r in rows if r.role == "fitted")
    transferred = [r for r in rows if r.quantity == "CPU cut of random index access (%)"]
    assert len(transferred) == 4 and all(r.role == "predicted" and r.model < r.published for r in transferred)
