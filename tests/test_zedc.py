"""The zEDC note: the calculator's model, the claims table, the sample data and the zlib measurement."""
from __future__ import annotations

import math
import re
import zlib

import numpy as np
import pytest

from widgets.citations import LINE_REFERENCE, reader_facing
from widgets.figure import grid_table
from widgets.zedc import explorer, measure, model, sample
from widgets.zedc import figures as F
from widgets.zedc import published as pub

# --- the model: hand arithmetic -------------------------------------------------------------------


def test_disk_held_and_saved_by_hand():
    assert model.stored_tb(2.0, 30, 1.0) == pytest.approx(60.0)  # 2 TB a day for 30 days, uncompressed
    assert model.stored_tb(2.0, 30, 4.0) == pytest.approx(15.0)
    assert model.disk_saved_tb(2.0, 30, 4.0) == pytest.approx(45.0)
    # against a baseline that already compresses 2x, a 4x ratio saves half of the 30 TB it held
    assert model.disk_saved_tb(2.0, 30, 4.0, baseline_ratio=2.0) == pytest.approx(15.0)
    # a baseline that compresses better than the new ratio: a negative saving, not a clamp
    assert model.disk_saved_tb(1.0, 10, 2.0, baseline_ratio=4.0) == pytest.approx(-2.5)


def test_cpu_hours_by_hand():
    assert model.software_cpu_hours(1.0, 36.0) == pytest.approx(10.0)  # 1000 GB x 36 s = 36,000 s = 10 h
    assert model.cpu_hours_after_cut(1.0, 36.0, 80) == pytest.approx(2.0)
    assert model.cpu_hours_saved(1.0, 36.0, 90) == pytest.approx(9.0)
    assert model.engines_busy(36.0) == pytest.approx(1.5)


def test_adapter_busy_share_by_hand():
    assert model.adapter_busy_share(345.6, 4.0) == pytest.approx(1.0)  # 4 GB/s x 86,400 s = 345.6 TB
    assert model.adapter_busy_share(1.0, 4.0) == pytest.approx(1000 / 345600)


def test_measured_quantities_by_hand():
    assert model.ratio_from_sizes(4_000_000, 1_000_000) == pytest.approx(4.0)
    assert model.cpu_s_per_gb(0.5, 10_000_000) == pytest.approx(50.0)


def test_the_model_is_vectorised():
    ratios = np.array([1.0, 2.0, 4.0])
    assert np.allclose(model.stored_tb(1.0, 8, ratios), [8.0, 4.0, 2.0])


@pytest.mark.parametrize("call, name, valid", [
    (lambda: model.stored_tb(-1, 30, 2), "volume_tb_per_day", "(0, inf)"),
    (lambda: model.stored_tb(1, 0, 2), "retention_days", "(0, inf)"),
    (lambda: model.stored_tb(1, 30, 0.5), "ratio", "[1, 100]"),
    (lambda: model.stored_tb(1, 30, math.nan), "ratio", "[1, 100]"),
    (lambda: model.stored_tb(1, 30, [2, 200]), "ratio", "[1, 100]"),
    (lambda: model.disk_saved_tb(1, 30, 2, baseline_ratio=0), "baseline_ratio", "[1, 100]"),
    (lambda: model.software_cpu_hours(1, 0), "cpu_s_per_gb", "(0, inf)"),
    (lambda: model.cpu_hours_after_cut(1, 30, 100), "cut_pct", "[0, 100)"),
    (lambda: model.cpu_hours_saved(1, 30, -5), "cut_pct", "[0, 100)"),
    (lambda: model.engines_busy(-1), "engine_hours_per_day", "[0, inf)"),
    (lambda: model.adapter_busy_share(1, 0), "adapter_gb_per_s", "(0, inf)"),
    (lambda: model.ratio_from_sizes(10, 0), "compressed_bytes", "(0, inf)"),
    (lambda: model.stored_tb("1", 30, 2), "volume_tb_per_day", "string"),
])
def test_bad_input_names_the_parameter_and_its_range(call, name, valid):
    with pytest.raises(ValueError) as err:
        call()
    assert name in str(err.value) and valid in str(err.value), str(err.value)


# --- the claims: loaded, checked, cited ------------------------------------------------------------


def test_every_claim_row_loads_with_a_slide_citation():
    claims = pub.claims()
    assert len(claims) == 21
    assert (claims["basis"] == pub.CLAIM).sum() == 12
    for row in claims.itertuples():
        assert reader_facing(row.source), row.source
        assert not LINE_REFERENCE.search(row.source), row.source
        assert f'slide "{row.slide_title}"' in row.source or "untitled slide" in row.source, row.source


def test_every_vendor_claim_is_an_up_to_and_is_shown():
    claims = pub.claims()
    upto = claims[claims["basis"] == pub.CLAIM]
    assert all(re.search(r"\bup to\b", p, re.I) for p in upto["printed"]), list(upto["printed"])
    shown = {(r, m) for r, m, *_ in pub.SHOWN}
    assert shown == set(zip(upto["run_id"], upto["metric"])), "the table shows every claim, and only claims"


def test_claims_table_for_readers():
    table = pub.claims_table()
    assert len(table) == 12 and not table.isna().any().any()
    assert list(table["claim: up to"][:4]) == ["4x", "double", "80%", "90%"]
    assert table["slide"].iloc[9] == "SMF using zEDC" and table["slide"].iloc[5].startswith("untitled")
    assert set(table["slide"]) - {"untitled (Encryption Facility)"} <= set(pub.claims()["slide_title"])


def test_a_missing_claim_names_what_is_missing():
    with pytest.raises(ValueError, match="no_such_metric"):
        pub.value("bsam_qsam", "no_such_metric")


def test_the_figures_draw_the_claims_as_rules_at_their_printed_values():
    rules = {round(float(x)): src for fig in F.ALL for x, src in zip(fig.marks["x"], fig.marks["source"])}
    assert set(rules) == {4, 100 - 80, 100 - 90}  # the CPU chart puts a cut where it leaves the CPU
    assert 'slide "BSAM/QSAM Data Set Compression with zEDC"' in rules[4] and reader_facing(rules[4])
    assert 'slide "zEDC vs zlib Compression"' in rules[10]
    for fig in F.ALL:
        assert fig.published is None  # a claim is never drawn as a published point


@pytest.mark.parametrize("fig", F.ALL, ids=lambda f: f.key)
def test_the_static_grid_is_finite_and_matches_the_model(fig):
    table = grid_table(fig)
    assert len(table)
    at_default = fig.evaluate()
    mask = np.ones(len(table), bool)
    for p in fig.params:
        mask &= np.isclose(table[p.name], p.default)
    for series, values in at_default.items():
        assert np.allclose(table.loc[mask, series], values, rtol=1e-3), series


def test_the_readout_at_the_defaults():
    text = explorer.readout({p.name: p.default for p in (F.VOLUME, F.RETENTION, F.CPU_COST)})
    assert "nan" not in text.lower()
    assert "90 TB uncompressed" in text and "22 TB (68 TB saved)" in text  # 90 / 4 = 22.5, saved 67.5
    assert "8.3 engine-hours" in text  # 1000 GB x 30 s / 3600


# --- sample data and the zlib measurement ------------------------------------------------------------


def test_the_smf_like_sample_is_deterministic():
    a = sample.smf_like_records(megabytes=0.2)
    assert a == sample.smf_like_records(megabytes=0.2) and len(a) == 200_000
    assert a != sample.smf_like_records(megabytes=0.2, seed=1)


@pytest.mark.parametrize("bad", [0, -1, 1000, "4"])
def test_the_sample_refuses_a_bad_size(bad):
    with pytest.raises(ValueError, match="megabytes"):
        sample.smf_like_records(megabytes=bad)


def test_the_book_tables_sample_is_the_data_folders_csv():
    text = sample.book_tables()
    assert b"run_id,metric,unit,value,printed,line" in text and b"up to 4x" in text


def test_zlib_table_measures_what_zlib_does():
    data = sample.smf_like_records(megabytes=0.1)
    table = measure.zlib_table({"smf": data}, levels=(1, 6), repeats=1)
    assert list(table["zlib level"]) == [1, 6]
    for row in table.itertuples():
        assert row.ratio == pytest.approx(len(data) / len(zlib.compress(data, row._2)))
        assert row._6 > 0 and row._7 > 0  # CPU s per GB, MB per CPU second
    assert not table.isna().any().any()


@pytest.mark.parametrize("call, name", [
    (lambda: measure.compress_once(b"abc", 10), "level"),
    (lambda: measure.zlib_table({"x": b"abc"}, repeats=0), "repeats"),
    (lambda: measure.zlib_table({"empty": b""}), "empty"),
])
def test_measurement_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
