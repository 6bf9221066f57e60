"""Ledger rows and known misses of the fast-index-traversal chapter (its fits are in :mod:`.calibration`).

The getpage theory is a real test: from the index levels and data pages the section prints,
the model predicts the measured getpage cuts. The getpage-to-CPU share ``f`` has one measurement
per environment, so each fit is exact by construction and is shown as such.

Every tolerance is the printed digits (``basis="rounding"``), or exact by construction for the fitted
shares: the Redbook prints no repeat runs and states no error for these tests. A change in percent is
judged in points (``absolute``), the interval its printed cells allow. Rows outside it are known misses,
with the reason in words (:data:`KNOWN_MISSES`, :func:`_miss`).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import re

from .. import identities
from ..ledger import LedgerRow
from . import model
from . import published as pub
from .calibration import ENVIRONMENTS, SELECTS, cpu_share

CHAPTER = "Fast index traversal"


def select_counts(run: str) -> tuple[float, float, float]:
    """(index getpages without FTB, index getpages with FTB, data getpages) as printed."""
    before = pub.value(run, "index_getpages_no_ftb_count")
    after = pub.value(run, "index_getpages_ftb_count")
    data = (pub.value(run, "tablespace_getpages_no_ftb_count") if run != "select_100_rows_per_key"
            else pub.value(run, "tablespace_getpages_count"))
    return before, after, data


def predicted_select_cut(run: str) -> float:
    """Getpage cut (%) from the levels model: (L - 1) / (L + extra leaf + data pages).

    Uses 4 levels, the printed data pages, and the extra leaf pages printed without FTB
    (4.2 - 4 = 0.2 for 100 rows per key).
    """
    before, _, data = select_counts(run)
    levels = pub.value(run, "index_levels_count")
    extra = before - levels
    return 100 * float(model.getpage_reduction(SELECTS[run], levels, data, extra))


def select_tolerance(run: str) -> float:
    """Tolerance of a select row, in points of getpage cut: half a unit of the printed cut (0.05 points) and
    what the printed counts' rounding can move the model (the extra leaf pages of 4.2, printed to 0.1)."""
    before, _, data = select_counts(run)
    levels = pub.value(run, "index_levels_count")
    half = _half(_cell(run, "index_getpages_no_ftb_count"))
    extra = before - levels
    moved = max(abs(100 * float(model.getpage_reduction(SELECTS[run], levels, data, max(extra + d, 0.0)))
                    - predicted_select_cut(run)) for d in (-half, half))
    return math.ceil(round(100 * (0.05 + moved), 6)) / 100  # to the hundredth of a point, up


#: Why each select row misses its printed digits (the source's own theory, our reading of the gap).
SELECT_MISSES = {
    "select_1_row_per_key": "0.6 points under the 60% that the Redbook's own theory gives; the Redbook reads the "
                            "gap as agreement (\"verifies the theory\"). We read it as getpages outside the 200 "
                            "selects of a commit, which the theory leaves out",
    "select_10_rows_per_key": "0.6 points under the theory's 30%; the Redbook again says it \"verifies the "
                              "theory\". A dilution that explains the 1-row gap (about 10 getpages a commit) "
                              "would leave 0.45 points here, so more than one thing is missing",
    "select_100_rows_per_key": "the model keeps the 0.2 extra leaf pages the printed 4.2 implies, so with FTB it "
                               "counts 1.2 index getpages where the Redbook prints 1.5: its own counts disagree "
                               "by 0.3 getpages, and the measured 2.7% sits between the two readings",
}


def _cell(run_id: str, metric: str, filename: str = pub.S26) -> dict:
    return identities.cell(pub.STUDY, filename, run_id, metric)


def select_rows() -> list[LedgerRow]:
    """The getpage cut of each random select, predicted from the printed levels and data pages (no fit)."""
    rows = []
    for run, r in SELECTS.items():
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.RESULTS, run, "getpage_change_pct"),
            quantity="getpage cut per random select (%)",
            condition=f"{r} row(s) per key, 4-level non-unique index: (L-1)/(L+extra+data)",
            published=-pub.value(run, "getpage_change_pct"), model=predicted_select_cut(run),
            tolerance=None, absolute=select_tolerance(run), unit="points", role="predicted",
            basis="rounding", basis_note="the cut is printed to 0.1 point (half a unit: 0.05), and the index "
            "getpages to 0.1 getpage; the Redbook prints one run of each select and states no error",
            miss=SELECT_MISSES[run], cell=(pub.STUDY, pub.S26, run, "getpage_change_pct")))
    return rows


def cpu_rows() -> list[LedgerRow]:
    """CPU cut = f x getpage cut, with f fitted on the same environment's one pair: exact by construction."""
    rows = []
    for env, (table, gp, cpu) in ENVIRONMENTS.items():
        printed = -pub.value("delta", cpu, table)
        model_cut = 100 * float(model.cpu_reduction(-pub.value("delta", gp, table) / 100, cpu_share(env)))
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(table, "delta", cpu), quantity="Db2 CPU cut, Db2 12 -> 13 (%)",
            condition=f"{env}: f = {cpu_share(env):.3f} of the CPU falls with the getpages; one pair, one "
                      "parameter: exact by construction", published=printed, model=model_cut, tolerance=0.001,
            role="fitted", basis="exact", basis_note="one printed pair per environment and one parameter: "
            "f = CPU cut / getpage cut reproduces the pair by construction",
            cell=(pub.STUDY, table, "delta", cpu)))
    return rows


def _members(table: str, metric: str, release: str) -> list[dict]:
    """The member cells of one release in a table (two members in two-way data sharing, else one)."""
    if table in (pub.T42, pub.T45):
        return [_cell(f"{release}_mem{i}", metric, table) for i in (1, 2)]
    return [_cell(release, metric, table)]


BEFORE, AFTER = "db2_12_fl510", "db2_13_fl501"
RELEASES = {BEFORE: "Db2 12 FL 510", AFTER: "Db2 13 FL 501"}
TABLE_NAMES = {pub.T42: "Table 4-2, two-way data sharing", pub.T43: "Table 4-3, one-way data sharing",
               pub.T44: "Table 4-4, non-data sharing", pub.T45: "Table 4-5, two-way data sharing"}
#: Deltas outside the rounding of the table's own cells (flagged in data/): the judgement, made by hand.
#: The notify deltas (+800% printed, +700% from the cells) are flagged too, but cells printed as 0.01 and
#: 0.00 allow anything from +250% to +1,700%, and +800% lies inside that interval: the cells cannot rule it out.
KNOWN_MISSES = {
    (pub.T42, "class2_cpu_change_pct"): "printed +1.4% without its minus sign: the cells fall from 1.726 to 1.701 ms",
}


def _half(c: dict) -> float:
    """Half a unit of a printed cell's last digit: ``0.00`` -> 0.005 (a zero printed to two decimals is a
    rounded number, not an exact count), ``4.2 getpages`` -> 0.05; a count printed in words is exact."""
    number = re.search(r"\d[\d,]*(?:\.(\d+))?", c["printed"])
    if number is None:
        return 0.0
    if number.group(1):
        return 0.5 * 10 ** -len(number.group(1))
    return identities.half_unit(number.group(0), c.get("unit", ""))


def change_interval(before: list[dict], after: list[dict], what: str) -> tuple[float, float]:
    """The lowest and highest change (%) the printed cells allow: each cell anywhere in its half-unit interval,
    never below 0 (``what`` names the row in the error when the cells before allow 0)."""
    lows = [sum(max(c["value"] - _half(c), 0.0) for c in cells) for cells in (before, after)]
    highs = [sum(c["value"] + _half(c) for c in cells) for cells in (before, after)]
    if lows[0] <= 0:
        raise ValueError(f"{what}: the printed cells before allow 0, so no change is bounded")
    changes = [100 * (x / y - 1) for x, y in itertools.product((lows[1], highs[1]), (lows[0], highs[0]))]
    return min(changes), max(changes)


def notify_interval() -> tuple[float, float]:
    """The interval of Table 4-5's notify-sent change (%) that its printed cells allow (the chapter prints it)."""
    metric = "notify_sent_per_commit_count"
    return change_interval(_members(pub.T45, metric, BEFORE), _members(pub.T45, metric, AFTER), "notify sent")


def change_row(quantity: str, condition: str, delta: dict, before: list[dict], after: list[dict],
               miss: str = "") -> LedgerRow:
    """Identity: a printed change (%) against the one from the printed cells, judged in points against the
    interval of changes the cells' rounding allows (each cell anywhere in its half-unit interval, never below
    0), widened by half a unit of the printed change. The interval need not be symmetric about the cells'
    change (0.01 -> 0.04 allows +250% to +1,700% around +700%), and a row's tolerance is one number, so the
    row takes the side the printed change lies on: the distance from the cells' change to that end. A printed
    change passes exactly when it lies inside the interval, and one on the narrow side is not excused by the
    wide one."""
    b, a = sum(c["value"] for c in before), sum(c["value"] for c in after)
    model_value = round(100 * (a / b - 1), 9)  # no floating-point dust on an exact change
    lo, hi = change_interval(before, after, f"{quantity} ({condition})")
    half = _half(delta)
    flag = f" (flagged in the data: {delta['flag']})" if delta["flag"] else ""
    above = delta["value"] >= model_value
    side = (hi - model_value) if above else (model_value - lo)
    return LedgerRow(chapter=CHAPTER, source=pub.cite(*_where(delta)), quantity=quantity, condition=condition + flag,
                     published=delta["value"], model=model_value, tolerance=None,
                     absolute=math.ceil(round(100 * (side + half), 6)) / 100,
                     unit="points", role="identity",
                     basis="rounding", basis_note=f"the printed cells allow {lo:+.2f}% to {hi:+.2f}%; the change "
                     f"is printed to {2 * half:g} point (half a unit: {half:g}); judged against the "
                     f"{'upper' if above else 'lower'} end, the side the printed change lies on",
                     miss=miss, cell=delta["key"])


def _where(c: dict) -> tuple[str, str, str]:
    """(file, run, metric) of a cell, for :func:`pub.cite`."""
    return c["key"][1], c["key"][2], c["key"][3]


def _rounding(row: LedgerRow, note: str, points: bool = False, absolute: float | None = None) -> LedgerRow:
    """A row from :mod:`widgets.identities` with its basis (the printed digits) stated; ``points``: a change
    or a percentage judged in points, the same tolerance in the quantity's unit (or ``absolute`` points, where
    the number is printed in words that :func:`widgets.identities.half_unit` does not read)."""
    if points:
        points_wide = math.ceil(round(100 * row.tolerance * abs(row.published), 6)) / 100  # hundredths, up
        return dataclasses.replace(row, tolerance=None, unit="points", basis="rounding", basis_note=note,
                                   absolute=absolute or points_wide)
    return dataclasses.replace(row, basis="rounding", basis_note=note)


def table_rows() -> list[LedgerRow]:
    """Every delta of Tables 4-2 to 4-5 recomputed from its printed cells, and the printed totals."""
    rows = []
    deltas = {pub.T42: ("class2_cpu_change_pct", "getpage_per_commit_change_pct", "total_db2_cpu_group_change_pct"),
              pub.T43: ("class2_cpu_change_pct", "getpage_per_commit_change_pct", "total_db2_cpu_change_pct"),
              pub.T44: ("class2_cpu_change_pct", "getpage_per_commit_change_pct", "total_db2_cpu_change_pct"),
              pub.T45: ("ftb_objects_change_pct", "notify_sent_change_pct", "notify_received_change_pct",
                        "irlm_cpu_change_pct")}
    labels = {"class2_cpu_change_pct": "class 2 CPU change (%)", "getpage_per_commit_change_pct":
              "getpages per commit change (%)", "total_db2_cpu_group_change_pct": "total Db2 CPU change, group (%)",
              "total_db2_cpu_change_pct": "total Db2 CPU change (%)", "ftb_objects_change_pct":
              "FTB objects change (%)", "notify_sent_change_pct": "notify messages sent change (%)",
              "notify_received_change_pct": "notify messages received change (%)",
              "irlm_cpu_change_pct": "IRLM CPU change (%)"}
    for table, metrics in deltas.items():
        for delta in metrics:
            base = delta.replace("_change_pct", "")
            base = {"class2_cpu": "class2_cpu_ms", "getpage_per_commit": "getpage_per_commit_count",
                    "total_db2_cpu_group": "total_db2_cpu_group_ms", "total_db2_cpu": "total_db2_cpu_ms",
                    "ftb_objects": "ftb_objects_count", "notify_sent": "notify_sent_per_commit_count",
                    "notify_received": "notify_received_per_commit_count", "irlm_cpu": "irlm_cpu_ms"}[base]
            if base == "total_db2_cpu_group_ms":
                before, after = [_cell(BEFORE, base, table)], [_cell(AFTER, base, table)]
                how = "from the printed group totals"
            else:
                before, after = _members(table, base, BEFORE), _members(table, base, AFTER)
                how = "members combined" if len(before) > 1 else "from the printed cells"
            rows.append(change_row(
                labels[delta], f"{TABLE_NAMES[table]}: Db2 12 FL 510 -> Db2 13 FL 501, {how}",
                _cell("delta", delta, table), before, after, miss=KNOWN_MISSES.get((table, delta), "")))
    for table in (pub.T43, pub.T44):
        for release in (BEFORE, AFTER):
            rows.append(_rounding(identities.sum_row(
                CHAPTER, pub.cite(table, release, "total_db2_cpu_ms"), "total Db2 CPU (ms per commit)",
                f"{TABLE_NAMES[table]}, {RELEASES[release]}: class 2 + MSTR + "
                "DBM1 + IRLM", _cell(release, "total_db2_cpu_ms", table),
                [_cell(release, m, table) for m in ("class2_cpu_ms", "mstr_cpu_ms", "dbm1_cpu_ms", "irlm_cpu_ms")]),
                "half a unit (0.0005 ms) of each of the four printed parts and of the printed total"))
    for release in (BEFORE, AFTER):
        rows.append(_rounding(identities.sum_row(
            CHAPTER, pub.cite(pub.T42, release, "total_db2_cpu_group_ms"), "total Db2 CPU, group (ms per commit)",
            f"{TABLE_NAMES[pub.T42]}, {RELEASES[release]}: mean of the two member totals",
            _cell(release, "total_db2_cpu_group_ms", pub.T42), _members(pub.T42, "total_db2_cpu_member_ms", release),
            scale=0.5), "half a unit (0.0005 ms) of the two printed member totals, halved, and of the group total"))
    return rows


def prose_rows() -> list[LedgerRow]:
    """Numbers the prose repeats or derives: the theoretical cuts, the maxima, the summaries, the memory."""
    rows = []
    for run in ("select_1_row_per_key", "select_10_rows_per_key"):
        rows.append(change_row(
            "theoretical getpage cut per select (%)",
            f"{SELECTS[run]} row(s) per key: (index + table space getpages) without FTB -> with FTB",
            _cell(run, "theoretical_getpage_change_pct"),
            [_cell(run, "index_getpages_no_ftb_count"), _cell(run, "tablespace_getpages_no_ftb_count")],
            [_cell(run, "index_getpages_ftb_count"), _cell(run, "tablespace_getpages_ftb_count")]))
    rows.append(_rounding(identities.repeat_row(
        CHAPTER, pub.cite(pub.RESULTS, "select_results", "getpage_change_pct"),
        "largest getpage cut of the random selects (%)",
        "'up to 59.4%': the largest of the three select results", _cell("select_results", "getpage_change_pct"),
        _cell("select_1_row_per_key", "getpage_change_pct")), "both printed to 0.1 point: half a unit each", True,
        absolute=0.1))
    rows.append(_rounding(identities.repeat_row(
        CHAPTER, pub.cite(pub.RESULTS, "key_size_summary", "cpu_change_pct"),
        "largest CPU cut of the 96-byte key tests (%)",
        "'Up to 13%' in section 2.6.2's summary: the largest of its results (the unique index in two-way data "
        "sharing)", _cell("key_size_summary", "cpu_change_pct"), _cell("ds_96_byte_unique_results", "cpu_change_pct")),
        "both printed as whole percents: half a point each", True, absolute=1.0))
    for env, table, cpu in (("two_way", pub.T42, "total_db2_cpu_group_change_pct"),
                            ("one_way", pub.T43, "total_db2_cpu_change_pct"),
                            ("non_ds", pub.T44, "total_db2_cpu_change_pct")):
        for prose, metric in (("getpage_change_pct", "getpage_per_commit_change_pct"), ("cpu_change_pct", cpu)):
            rows.append(_rounding(identities.repeat_row(
                CHAPTER, pub.cite(pub.S43, f"brokerage_v1_{env}", prose),
                "getpage change (%)" if prose.startswith("getpage") else "Db2 CPU change (%)",
                f"section 4.3's text against {TABLE_NAMES[table]}", _cell(f"brokerage_v1_{env}", prose, pub.S43),
                _cell("delta", metric, table)), "the text and the table both print the change to 0.1 point: "
                "half a unit each", True))
    before = _cell("brokerage_v1_db2_12_fl510", "ftb_total_memory_mb", pub.S43)
    after = _cell("brokerage_v1_db2_13_fl501", "ftb_total_memory_mb", pub.S43)
    per_member = _cell("brokerage_v1_storage", "ftb_storage_increase_per_member_gb", pub.S43)
    rows.append(LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.S43, "brokerage_v1_storage", "ftb_storage_increase_per_member_gb"),
        quantity="FTB memory added per member (GB)",
        condition="'about 1.5 GB' (half a unit: 0.05 GB): 1,900 MB - 427 MB FTB allocation, "
                  "Db2 12 FL 510 -> Db2 13 FL 501, at 1,000 MB per GB",
        published=per_member["value"], model=(after["value"] - before["value"]) / 1000,
        tolerance=None, absolute=0.05 + 0.001, unit="GB", role="identity", basis="rounding",
        basis_note="'about 1.5 GB' is printed to 0.1 GB (half a unit: 0.05 GB); the two allocations to 1 MB",
        cell=per_member["key"]))
    return rows


#: The largest getpage cut of a probe that reads the index and one data page: 4 index getpages become 1.
PROBE_CUT = float(model.getpage_reduction(1, 4, 1))

#: The 96-byte key tests of section 2.6.2 (run, metric, the range's other end or None, environment whose f is
#: taken, what was measured). The non-unique non-data-sharing result is a range, "4 - 6%", judged as one.
KEY_SIZE_TESTS = (
    ("nds_96_byte_results", "unique_cpu_change_pct", None, "non-data sharing",
     "96-byte unique index, non-data sharing: 'approximately 8%' (class 2 CPU; f from total Db2 CPU, whose "
     "change in Table 4-4 equals the class 2 change)"),
    ("nds_96_byte_results", "non_unique_cpu_change_high_pct", "non_unique_cpu_change_low_pct", "non-data sharing",
     "96-byte non-unique index, non-data sharing: the range '4 - 6%', judged as its midpoint with half its width "
     "(class 2 CPU; f from total Db2 CPU, whose change in Table 4-4 equals the class 2 change)"),
    ("ds_96_byte_unique_results", "cpu_change_pct", None, "2-way data sharing",
     "96-byte unique index, two-way data sharing: 'Up to 13%' (Db2 CPU, as f)"),
    ("ds_96_byte_non_unique_results", "cpu_change_pct", None, "2-way data sharing",
     "96-byte non-unique index, two-way data sharing: 'Up to an 8%' (Db2 CPU, as f)"),
)

#: The 96-byte rows outside their printed digits, judged by hand: all but the range "4 - 6%", which the model's
#: 3.5% reaches only through the rounding of its ends and of the pair f is fitted on.
KEY_SIZE_MISSES = {("nds_96_byte_results", "unique_cpu_change_pct"), ("ds_96_byte_unique_results", "cpu_change_pct"),
                   ("ds_96_byte_non_unique_results", "cpu_change_pct")}

#: Why the release comparison's f falls short of section 2.6.2's cuts (our reading, for every such row).
F_NOT_FTB = ("f is not FTB's share of the CPU: it comes from a release migration to which, in the Redbook's words, "
             "\"many internal optimizations and enhancements\" contribute besides FTB, and with the brokerage "
             "workload held fixed it ranges from {lo:.3f} to {hi:.3f} across the three environments (our reading)")
#: Added to the two-way rows: the environments' order reverses between the two studies.
F_ORDER = ("; two-way data sharing has the smallest f of the three and the largest section 2.6.2 cut, so the "
           "order reverses, and its total includes the IRLM CPU that notify messages add (Table 4-5)")


def _f_moved(env: str) -> float:
    """How far the rounding of the printed pair f is fitted on (each change printed to 0.1 point) moves the
    probe's CPU cut, in points."""
    table, gp, cpu = ENVIRONMENTS[env]
    g, c = _cell("delta", gp, table), _cell("delta", cpu, table)
    base = 100 * PROBE_CUT * c["value"] / g["value"]
    return max(abs(100 * PROBE_CUT * (c["value"] + sc * _half(c)) / (g["value"] + sg * _half(g)) - base)
               for sc, sg in itertools.product((-1, 1), repeat=2))


def up_to_rows() -> list[LedgerRow]:
    """Section 2.6's results that a model here speaks to: the index levels of the 96-byte test index, and
    the 96-byte tests' CPU cuts against the shares f fitted on the release comparison (held out of that fit)."""
    run = "nds_96_byte_results"
    rows_in, key = pub.value(run, "rows_inserted_count"), pub.value(run, "key_size_bytes")
    levels = float(model.index_levels(rows_in, key, 4096, 0.1, 1.0))
    fanout = model.implied_nonleaf_fanout(rows_in, key, int(pub.value(run, "index_levels_count")))
    out = [LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.RESULTS, run, "index_levels_count"), quantity="index levels",
        condition=f"{rows_in / 1e6:.0f} million rows, {key:.0f}-byte keys: full keys in 4 K non-leaf pages, 10% free",
        published=pub.value(run, "index_levels_count"), model=levels, tolerance=None, absolute=0.5, unit="levels",
        role="predicted", basis="rounding", basis_note="levels are a whole count: half a level tells two apart",
        miss="a diagnostic, not a model the chapter holds: full keys need a fifth level; four levels need a non-leaf "
             f"fan-out of at least {fanout}, which full "
             "96-byte keys do not give: truncated non-leaf keys, larger pages or fewer distinct keys, which the "
             "Redbook does not say", cell=(pub.STUDY, pub.S26, run, "index_levels_count"))]
    shares = [cpu_share(e) for e in ENVIRONMENTS]
    for run, metric, other, env, what in KEY_SIZE_TESTS:
        predicted = 100 * float(model.cpu_reduction(PROBE_CUT, cpu_share(env)))
        ends = [-pub.value(run, metric)] + ([-pub.value(run, other)] if other else [])
        published, width = (max(ends) + min(ends)) / 2, (max(ends) - min(ends)) / 2
        moved = _f_moved(env)
        shown = f"{min(ends):.0f}% to {max(ends):.0f}%" if other else f"{published:.0f}%"
        out.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.RESULTS, run, metric), quantity="CPU cut of random index access (%)",
            condition=f"{what}; model: the {env} f ({cpu_share(env):.3f}, fitted on Tables 4-2 to 4-4) at the "
                      f"largest getpage cut such a probe allows ({100 * PROBE_CUT:.0f}%: 4 index getpages become 1, "
                      "at least one data page)",
            published=published, model=predicted, tolerance=None,
            absolute=math.ceil(round(100 * (width + 0.5 + moved), 6)) / 100, unit="points", role="predicted",
            basis="rounding", basis_note=("the range's half-width, " if other else "") + "half a point of each "
            f"printed whole percent, and {moved:.3f} point that the 0.1-point rounding of the pair f is fitted on "
            "moves the model; the Redbook states no error and prints one run",
            miss="" if (run, metric) not in KEY_SIZE_MISSES else
                 f"the release comparison's f gives at most {predicted:.1f}% against {shown}: "
                 + F_NOT_FTB.format(lo=min(shares), hi=max(shares)) + (F_ORDER if env.startswith("2-way") else ""),
            cell=(pub.STUDY, pub.S26, run, metric)))
    return out


def ledger_rows() -> list[LedgerRow]:
    return select_rows() + cpu_rows() + table_rows() + prose_rows() + up_to_rows()


def misses() -> list[dict]:
    """What the simple models do not reproduce, or fit only by construction."""
    out = []
    naive = float(model.index_levels(2e7, 96, 4096, 0.1, 1.0))
    out.append({"quantity": "index levels, 20M rows, 96-byte keys (full keys in non-leaf pages)",
                "published": pub.value("nds_96_byte_results", "index_levels_count"), "model": naive,
                "note": "the naive model needs 5 levels; 4 levels imply a non-leaf fan-out of at least "
                        f"{model.implied_nonleaf_fanout(2e7, 96, 4)}, i.e. truncated non-leaf keys"})
    return out
