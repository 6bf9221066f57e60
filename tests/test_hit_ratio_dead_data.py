"""Goldstein's "The Buffer Pool Hit Ratio is Dead!!" deck: provenance, printed text, and each screen's own arithmetic.

The two identities every Pool Info screen is checked against:

* I/O rate = I/Os / elapsed seconds, for every pool and for the total (on the RIO/WIO screens the rate is
  RIO/s + WIO/s). Tolerance: half a unit in the last printed digit of each printed rate (two halves when the rate is
  the sum of RIO/s and WIO/s), plus the effect of the elapsed time being printed to the second: the true interval is
  taken to lie in [E - 0.5 s, E + 1 s], which covers both rounding and truncation of the seconds.
* Overall system hit ratio = getpage-weighted mean of the pools' hit ratios. Each pool ratio is printed to 0.1, so
  the weighted mean is uncertain by +-0.05; the overall is printed to 0.01 (+-0.005). Pools that are not visible on
  the screen (total getpages minus the visible pools' getpages), and visible pools whose ratio is illegible, may have
  any ratio in [H_MIN, H_MAX] = [-100, 105]: the deck's printed per-pool ratios run from -76.9 to 103.3.

An identity that fails must be explained by a ``contradiction`` flag on one of the cells involved; nothing is skipped.
"""
from __future__ import annotations

import csv
import math
import re

import pytest

from tools import seeds
from widgets.citations import flagged
from widgets.data import data_dir, load_long, printed_table, sources, wide

STUDY = "hit_ratio_dead"
SEED_NAME = "002_0dd9d95ee22b6422.txt"
SEED = seeds.path(SEED_NAME)
NO_SEED = seeds.missing_reason(SEED_NAME)
SRC = sources(STUDY)
FILES = list(SRC["file"])
SCREENS = [f for f in FILES if f.startswith("pool_info_")]
# screens on which every pool is visible (pool I/O, getpages and updates add up to the printed totals)
COMPLETE = {"pool_info_2003_07_02.csv", "pool_info_2003_10_06.csv", "pool_info_undated.csv",
            "pool_info_2004_03_01.csv", "pool_info_2004_08_09.csv"}
H_MIN, H_MAX = -100.0, 105.0
POOL_HR_HALF = 0.05


def _norm(text: str) -> str:
    return " ".join(text.split())


def _raw_values(filename: str) -> dict[tuple[str, str], str]:
    """The value column as written (so the printed number of decimals is kept)."""
    with (data_dir() / STUDY / filename).open(newline="", encoding="utf-8") as handle:
        return {(r["run_id"], r["metric"]): r["value"] for r in csv.DictReader(handle)}


def _half_unit(text: str) -> float:
    return 0.5 * 10 ** -(len(text.split(".")[1]) if "." in text else 0)


def _pools(table):
    return [r for r in table.index if r not in ("screen", "total")]


def _flag(frame, run_id, metrics):
    hit = frame[(frame["run_id"] == run_id) & frame["metric"].isin(metrics)]
    return set(hit["flag"].str.strip())


# --- (a) every file loads and has provenance ----------------------------------------------------------


def test_every_csv_in_the_folder_has_a_provenance_row():
    on_disk = {p.name for p in (data_dir() / STUDY).glob("*.csv")} - {"sources.csv"}
    assert on_disk == set(FILES)
    assert len(SCREENS) == 7


@pytest.mark.parametrize("filename", FILES)
def test_file_loads_with_provenance_and_unique_cells(filename):
    frame = load_long(STUDY, filename)
    row = SRC[SRC["file"] == filename].iloc[0]
    assert row["seed"] == SEED_NAME and row["table"].strip() and row["caption"].strip()
    lo, hi = (int(x) for x in row["lines"].split("-"))
    assert frame["line"].between(lo, hi).all(), frame.loc[~frame["line"].between(lo, hi), ["run_id", "metric", "line"]]
    assert not frame.duplicated(["run_id", "metric"]).any()
    assert set(frame["flag"].str.strip()) <= {"", "reconstructed", "contradiction"}
    texts = frame[frame["unit"] == "text"]
    assert texts["value"].isna().all() and (texts["printed"].str.strip() != "").all()


@pytest.mark.parametrize("filename", SCREENS + ["ims_subpool_simulation.csv"])
def test_unflagged_table_cells_keep_the_printed_digits(filename):
    """Outside the flagged cells, a value is only a re-punctuation of what was printed (no digit added or dropped)."""
    frame = load_long(STUDY, filename)
    raw = _raw_values(filename)
    for row in frame.itertuples():
        if row.run_id in ("screen", "simulation") or row.unit == "text" or row.metric == "elapsed_s" or row.flag:
            continue
        digits = re.sub(r"[^0-9-]", "", row.printed)
        assert digits == re.sub(r"[^0-9-]", "", raw[(row.run_id, row.metric)]), (filename, row.run_id, row.metric)


# --- (b) printed text is on its cited line --------------------------------------------------------------


@pytest.mark.skipif(NO_SEED is not None, reason=NO_SEED or "")
@pytest.mark.parametrize("filename", FILES)
def test_printed_text_appears_on_its_source_line(filename):
    lines = SEED.read_text(encoding="utf-8").splitlines()
    frame = load_long(STUDY, filename)
    checked = 0
    for row in frame.itertuples():
        if row.flag.strip() == "reconstructed" or not row.printed.strip():
            continue
        window = _norm(" ".join(lines[max(0, row.line - 2): row.line + 1]))
        assert _norm(row.printed) in window, f"{filename}: {row.printed!r} not within +-1 of line {row.line}"
        checked += 1
    assert checked > 0


@pytest.mark.skipif(NO_SEED is not None, reason=NO_SEED or "")
def test_reconstructed_cells_still_cite_the_garbled_text():
    lines = SEED.read_text(encoding="utf-8").splitlines()
    flags = flagged(STUDY)
    rec = flags[flags["flag"] == "reconstructed"]
    assert len(rec) >= 15
    for row in rec.itertuples():
        if row.printed:
            window = _norm(" ".join(lines[max(0, row.line - 2): row.line + 1]))
            assert _norm(row.printed) in window, (row.table, row.run, row.metric)
        assert re.search(r"\d", row.why), row  # the note shows the arithmetic


# --- (c) the screens' own arithmetic --------------------------------------------------------------------


def _rate_checks(filename):
    frame = load_long(STUDY, filename)
    table = wide(frame)
    raw = _raw_values(filename)
    elapsed = table.loc["screen", "elapsed_s"]
    split = "rio_per_s" in table.columns
    for run in _pools(table) + ["total"]:
        if run == "total":
            io, rate_metrics = table.loc[run, "total_read_write_io"], ["total_io_per_s"]
        else:
            io, rate_metrics = table.loc[run, "io"], (["rio_per_s", "wio_per_s"] if split else ["io_per_s"])
        rates = [table.loc[run, m] for m in rate_metrics]
        assert not math.isnan(io) and not any(math.isnan(r) for r in rates), (filename, run)
        rate = sum(rates)
        half = sum(_half_unit(raw[(run, m)]) for m in rate_metrics)
        lo, hi = io / (elapsed + 1.0) - half, io / (elapsed - 0.5) + half
        io_metric = "total_read_write_io" if run == "total" else "io"
        yield frame, run, [io_metric] + rate_metrics, io, rate, (lo, hi)


@pytest.mark.parametrize("filename", SCREENS)
def test_io_rate_is_io_over_elapsed_for_every_pool_and_the_total(filename):
    checked = 0
    for frame, run, metrics, io, rate, (lo, hi) in _rate_checks(filename):
        checked += 1
        if not lo <= rate <= hi:
            assert "contradiction" in _flag(frame, run, metrics), (
                f"{filename} {run}: {io:.0f} I/Os over the elapsed time give {lo:.4f}..{hi:.4f}/s, printed {rate}; "
                "fix the reading or flag the contradiction")
    assert checked >= 4


def test_first_column_is_the_io_count():
    """With the rate tolerance, the I/O column over the interval reproduces the printed rate on 79 of 79 pool rows."""
    rows = [c for f in SCREENS for c in _rate_checks(f) if c[1] != "total"]
    assert len(rows) == 79
    assert all(lo <= rate <= hi for _, _, _, _, rate, (lo, hi) in rows)
    # BP2 on 2002-03-28, the brief's example: 910,275 / 3,489 s = 260.9
    table = wide(load_long(STUDY, "pool_info_2002_03_28.csv"))
    assert table.loc["BP2", "io"] / table.loc["screen", "elapsed_s"] == pytest.approx(260.90, abs=0.005)


def _hit_ratio_check(filename):
    frame = load_long(STUDY, filename)
    table = wide(frame)
    raw = _raw_values(filename)
    pools = _pools(table)
    g = table.loc[pools, "getpages"]
    h = table.loc[pools, "hit_ratio_pct"]
    known = g.notna() & h.notna()
    unknown = float(g[g.notna() & h.isna()].sum())  # visible pool whose ratio is illegible
    total_g = table.loc["total", "total_getpages"]
    hidden = total_g - float(g.sum())
    assert hidden >= 0, (filename, "visible getpages exceed the total")
    s = float((g[known] * h[known]).sum())
    spread = POOL_HR_HALF * float(g[known].sum())
    overall = table.loc["total", "overall_sys_hit_ratio_pct"]
    half = _half_unit(raw[("total", "overall_sys_hit_ratio_pct")])
    lo = (s - spread + H_MIN * (hidden + unknown)) / total_g - half
    hi = (s + spread + H_MAX * (hidden + unknown)) / total_g + half
    return frame, pools, s / float(g[known].sum()), hidden + unknown, overall, (lo, hi)


@pytest.mark.parametrize("filename", SCREENS)
def test_overall_hit_ratio_is_the_getpage_weighted_mean_of_the_pools(filename):
    frame, pools, mean, missing, overall, (lo, hi) = _hit_ratio_check(filename)
    if not lo <= overall <= hi:
        flags = _flag(frame, "total", ["overall_sys_hit_ratio_pct"])
        assert "contradiction" in flags, (
            f"{filename}: pools give {lo:.3f}..{hi:.3f}, overall printed {overall}; flag the contradiction")
    if missing == 0:  # every pool visible and legible: the tight form of the identity
        assert abs(mean - overall) <= POOL_HR_HALF + 0.005 or "contradiction" in _flag(
            frame, "total", ["overall_sys_hit_ratio_pct"])


def test_the_2002_screen_fails_the_hit_ratio_identity_and_says_so():
    frame, _, mean, missing, overall, (lo, hi) = _hit_ratio_check("pool_info_2002_03_28.csv")
    assert overall > hi  # 72.64 cannot be reached even if the hidden pools all hit 105%
    assert _flag(frame, "total", ["overall_sys_hit_ratio_pct"]) == {"contradiction"}
    assert _flag(frame, "BP14", ["getpages"]) == {"contradiction"}


def test_complete_screens_hold_the_identity_within_printed_rounding():
    for filename in ["pool_info_2003_10_06.csv", "pool_info_2004_03_01.csv", "pool_info_2004_08_09.csv"]:
        _, _, mean, missing, overall, _ = _hit_ratio_check(filename)
        assert missing == 0 and abs(mean - overall) <= 0.055, (filename, mean, overall)


@pytest.mark.parametrize("filename", SCREENS)
def test_pools_add_up_to_the_totals(filename):
    table = wide(load_long(STUDY, filename))
    pools = _pools(table)
    for metric, total in (("io", "total_read_write_io"), ("getpages", "total_getpages"),
                          ("updates", "total_updates")):
        parts = table.loc[pools, metric]
        assert parts.notna().all(), (filename, metric, "a pool cell is missing")
        if filename in COMPLETE:
            assert parts.sum() == table.loc["total", total], (filename, metric, parts.sum())
        else:
            assert parts.sum() < table.loc["total", total], (filename, metric)


def test_system_hit_ratio_above_100_is_exactly_one_negative_page_read():
    """(getpages - pages read) / getpages > 100% happens here only with pages read = -1 (a counter artefact)."""
    seen = []
    for filename in SCREENS:
        table = wide(load_long(STUDY, filename))
        for run in _pools(table):
            h, g = table.loc[run, "hit_ratio_pct"], table.loc[run, "getpages"]
            if h > 100:
                seen.append(h)
                assert 100 * (g + 1) / g == pytest.approx(h, abs=0.05), (filename, run)
    assert sorted(seen) == [100.2, 100.2, 101.6, 103.3]


def test_negative_system_hit_ratios_are_kept():
    printed = {float(v) for f in SCREENS for v in wide(load_long(STUDY, f))["hit_ratio_pct"].dropna() if v < 0}
    assert {-76.9, -63.1, -38.4, -18.6, -6.1} <= printed


# --- (d) the IMS subpool simulation ---------------------------------------------------------------------


def test_ims_hit_ratio_is_hits_over_get_blocks():
    frame = load_long(STUDY, "ims_subpool_simulation.csv")
    table = wide(frame)
    runs = [r for r in table.index if r.startswith("spool_")]
    assert [int(table.loc[r, "spool_size_buffers"]) for r in runs] == [50, 370, 450, 530, 610]
    failed = []
    for r in runs:
        if abs(100 * table.loc[r, "hits"] / table.loc[r, "getb_used"] - table.loc[r, "hit_ratio_pct"]) > 0.05:
            failed.append(r)
            assert "contradiction" in _flag(frame, r, ["hits", "hit_ratio_pct", "getb_used"]), r
    assert failed == ["spool_50"]  # 91 / 150,119 = 0.061% is printed 0.0 %


def test_ims_blocks_read_per_second_are_misses_over_elapsed():
    table = wide(load_long(STUDY, "ims_subpool_simulation.csv"))
    for r in [r for r in table.index if r.startswith("spool_")]:
        misses, e = table.loc[r, "getb_used"] - table.loc[r, "hits"], table.loc[r, "elapsed_s"]
        lo, hi = misses / (e + 1.0) - 0.05, misses / (e - 0.5) + 0.05
        assert lo <= table.loc[r, "blocks_read_per_s"] <= hi, r


def test_ims_total_get_blocks_is_rebuilt_from_the_two_smallest_pools():
    frame = load_long(STUDY, "ims_subpool_simulation.csv")
    table = wide(frame)
    total = table.loc["simulation", "total_get_blocks"]
    for r in ("spool_50", "spool_370"):
        assert table.loc[r, "getb_used"] + table.loc[r, "spool_size_buffers"] == total
    assert _flag(frame, "simulation", ["total_get_blocks"]) == {"reconstructed"}


# --- the prose against the screens ----------------------------------------------------------------------


def _q(run, metric, filename="quoted.csv"):
    frame = load_long(STUDY, filename)
    return frame[(frame["run_id"] == run) & (frame["metric"] == metric)].iloc[0]


def test_prose_arithmetic_of_the_bp2_io_saving():
    assert _q("bp2_2002_io_saving", "interval_s").value == wide(
        load_long(STUDY, "pool_info_2002_03_28.csv")).loc["screen", "elapsed_s"] == 58 * 60 + 9
    ios = _q("bp2_2002_io_saving", "interval_s").value * _q("bp2_2002_io_saving", "io_saving_per_s").value
    assert ios == _q("bp2_2002_io_saving", "ios_saved").value
    minutes = ios * _q("bp2_2002_bsis", "avg_sync_io_ms").value / 1000 / 60
    assert 16 < minutes < _q("bp2_2002_io_saving", "elapsed_saving_min").value  # "almost 17 Minutes"


def test_prose_comparison_of_the_two_hnb1_screens():
    before = wide(load_long(STUDY, "pool_info_2003_07_02.csv")).loc["total"]
    after = wide(load_long(STUDY, "pool_info_2003_10_06.csv")).loc["total"]
    drop = before["total_io_per_s"] - after["total_io_per_s"]
    assert abs(drop - _q("hnb1_2003_07_to_10", "io_rate_drop_per_s").value) < 0.5
    growth = 100 * (after["total_getpages"] / before["total_getpages"] - 1)
    quoted = _q("hnb1_2003_07_to_10", "getpage_increase_pct")
    assert abs(growth - quoted.value) > 2 and quoted.flag == "contradiction"  # 39.1% printed as "about 42%"


def test_prose_share_of_bp0_and_ims_savings():
    c13a = wide(load_long(STUDY, "pool_info_2003_06_04.csv"))
    share = 100 * c13a.loc["BP0", "io"] / c13a.loc["total", "total_read_write_io"]
    assert round(share) == _q("c13a_bp0", "share_of_system_io_pct").value
    ims = wide(load_long(STUDY, "ims_subpool_simulation.csv"))["blocks_read_per_s"]
    for run, a, b in (("ims_370_to_450", "spool_370", "spool_450"), ("ims_450_to_530", "spool_450", "spool_530"),
                      ("ims_530_to_610", "spool_530", "spool_610")):
        assert abs(ims[a] - ims[b] - _q(run, "io_rate_saving_per_s").value) < 1, run


def test_buffers_to_megabytes_use_4k_buffers_and_1000k_megs():
    for run, buffers, mb in (("bp2_2002_sizing", "added_buffers", "added_memory_mb"),
                             ("bp2_2002_remove_bsis", "buffers_saved", "memory_saving_mb"),
                             ("c13a_bp20", "added_buffers", "added_memory_mb"),
                             ("nent_bp2_resize", "added_buffers", "added_memory_mb")):
        assert _q(run, buffers).value * 4 / 1000 == _q(run, mb).value, run


def test_the_35000_vs_55000_buffers_contradiction_is_flagged_on_both_sides():
    frame = load_long(STUDY, "quoted.csv")
    bp25 = frame[frame["run_id"].str.startswith("c13a_bp25") & (frame["metric"] == "pool_buffers")]
    assert sorted(bp25["value"]) == [35000, 55000, 55000]
    assert set(bp25["flag"]) == {"contradiction"}


# --- the loader's views ---------------------------------------------------------------------------------


@pytest.mark.parametrize("filename", SCREENS)
def test_printed_table_shows_every_pool(filename):
    shown = printed_table(STUDY, filename)
    table = wide(load_long(STUDY, filename))
    assert list(shown.columns) == list(dict.fromkeys(load_long(STUDY, filename)["run_id"]))
    assert set(_pools(table)) < set(shown.columns)


def test_flagged_lists_every_flag_with_a_reason():
    flags = flagged(STUDY)
    assert set(flags["flag"]) == {"reconstructed", "contradiction"}
    assert flags["why"].str.len().min() > 20
