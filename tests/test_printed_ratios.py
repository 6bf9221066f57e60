"""Every printed ratio against its printed parts, across all of ``data/``: beyond rounding, it is flagged.

A ratio the sources print beside its own parts (ITR beside ETR and CPU busy, a hit ratio beside its
hits and its requests) can be recomputed from them. Each printed number stands for an interval (half
a unit of its last printed digit), so the parts give an interval for the ratio; when that interval
and the printed ratio's do not meet, the source contradicts itself, and the ratio cell must carry
the flag ``contradiction`` (the reader sees it in the chapter's flag table). The same goes for every
``identity`` row of the ledger that is outside its tolerance: the cell it checks is flagged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pytest

from widgets import ledger
from widgets.data import LONG_COLUMNS, data_dir, load_long

#: (ratio, numerator, denominator, scale): ratio = numerator / denominator x scale, within one run of one table.
RATIOS = (
    ("itr_ds_per_s", "etr_ds_per_s", "cpu_util_pct", 100.0),  # ITR = ETR / CPU busy
    ("itr_postings_per_hour", "etr_postings_per_hour", "cpu_util_pct", 100.0),
    ("hit_ratio_pct", "hits", "getb_used", 100.0),  # IMS subpool simulation: hits / get-blocks used
)

#: The ratios outside the rounding of their parts, found once by this test and each flagged by hand.
KNOWN = {
    ("large_memory", "t13_gbp_scaling_results.csv", "S40225B1", "itr_ds_per_s"),
    ("large_memory", "t15_gbp_scaling_improvements.csv", "S40225B1", "itr_ds_per_s"),
    ("share_deck", "large_memory_slides.csv", "S40225B1", "itr_ds_per_s"),
    ("hit_ratio_dead", "ims_subpool_simulation.csv", "spool_50", "hit_ratio_pct"),  # 91 / 150,119 printed 0.0%
}


def interval(printed: str, value: float) -> tuple[float, float]:
    """The true values that print as ``printed`` ("753.05", "79.86%", "38.4K", "1,234"): half a unit of
    the last printed digit either side. Text that is not one plain number gives ``value`` exactly."""
    text = printed.strip().replace(",", "").rstrip("%").strip()
    match = re.fullmatch(r"[-−]?(\d+(?:\.(\d+))?)\s*([KM]?)", text)
    if not match:
        return value, value
    scale = {"K": 1e3, "M": 1e6}.get(match.group(3), 1.0)
    half = 0.5 * 10 ** -len(match.group(2) or "") * scale
    number = float(text.rstrip("KM").replace("−", "-")) * scale
    return number - half, number + half


@dataclass(frozen=True)
class Check:
    key: tuple[str, str, str, str]  # study, file, run, ratio metric
    printed: tuple[float, float]
    implied: tuple[float, float]
    flag: str

    @property
    def agrees(self) -> bool:
        return self.implied[1] >= self.printed[0] and self.implied[0] <= self.printed[1]


def _long_files():
    for folder in sorted(p for p in data_dir().iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.csv")):
            header = path.read_text(encoding="utf-8").split("\n", 1)[0].strip().split(",")
            if path.name != "sources.csv" and set(LONG_COLUMNS) <= set(header):
                yield folder.name, path.name


def _cell(row) -> tuple[float, float]:
    """A part's interval over its printed rounding; a rebuilt cell over the rounding of its rebuilt value
    (as the CSV writes it: 81.2 stands for 81.15 to 81.25)."""
    return interval(f"{row.value:g}" if row.flag == "reconstructed" else row.printed, row.value)


@lru_cache(maxsize=1)
def checks() -> tuple[Check, ...]:
    out = []
    for study, filename in _long_files():
        frame = load_long(study, filename)
        group = ["run_id", "slide"] if "slide" in frame.columns else ["run_id"]
        for keys, run in frame.groupby(group, sort=False):
            cells = {r.metric: r for r in run.itertuples() if r.value == r.value}  # numbers only
            for ratio, num, den, scale in RATIOS:
                if not {ratio, num, den} <= set(cells):
                    continue
                (n_lo, n_hi), (d_lo, d_hi) = _cell(cells[num]), _cell(cells[den])
                run_id = keys[0] if isinstance(keys, tuple) else keys
                out.append(Check((study, filename, run_id, ratio), _cell(cells[ratio]),
                                 (n_lo / d_hi * scale, n_hi / d_lo * scale), cells[ratio].flag))
    return tuple(out)


def test_ratios_are_found_in_every_table_that_prints_them():
    found = {c.key[3] for c in checks()}
    assert found == {ratio for ratio, *_ in RATIOS}, found  # every family is printed somewhere
    assert len({c.key[0] for c in checks()}) >= 3  # the brief, the SHARE deck, the SAP brief, the IMS screens
    assert len(checks()) > 60


def test_every_ratio_agrees_with_its_parts_or_is_flagged():
    wrong = [f"{c.key}: printed {c.printed}, its parts give {c.implied[0]:.4f} to {c.implied[1]:.4f}"
             for c in checks() if not c.agrees and c.flag != "contradiction"]
    assert not wrong, "flag these as contradictions in data/:\n" + "\n".join(wrong)


def test_the_ratios_outside_rounding_are_exactly_the_known_ones():
    assert {c.key for c in checks() if not c.agrees} == KNOWN


def test_the_interval_is_half_a_printed_unit():
    assert interval("753.05", 753.05) == pytest.approx((753.045, 753.055))
    assert interval("79.86%", 79.86) == pytest.approx((79.855, 79.865))
    assert interval("38.4K", 38400) == pytest.approx((38350, 38450))
    assert interval("garbled 7 8%", -78) == (-78, -78)


def test_a_ratio_one_digit_off_is_caught():
    c = Check(("s", "f", "r", "itr_ds_per_s"), interval("753.05", 753.05),
              (601.455 / 79.865 * 100, 601.465 / 79.855 * 100), "")
    assert not c.agrees
    assert Check(c.key, interval("753.14", 753.14), c.implied, "").agrees


def test_identity_rows_outside_tolerance_point_at_flagged_cells():
    """A ledger identity that the source's own arithmetic fails is a contradiction in the data too."""
    unflagged = []
    for row in ledger.rows():
        if row.role != "identity" or not row.miss or row.cell is None:
            continue
        study, filename, run, metric = row.cell
        frame = load_long(study, filename)
        flags = set(frame[(frame["run_id"] == run) & (frame["metric"] == metric)]["flag"])
        if "contradiction" not in flags:
            unflagged.append(f"{row.chapter}: {row.quantity} | {row.condition} -> {row.cell}")
    assert not unflagged, "\n".join(unflagged)
