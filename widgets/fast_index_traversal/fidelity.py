"""Ledger rows and known misses of the fast-index-traversal chapter (its fits are in :mod:`.calibration`).

The getpage theory is a real test: from the index levels and data pages the section prints,
the model predicts the measured getpage cuts. The getpage-to-CPU share ``f`` has one measurement
per environment, so each fit is exact by construction and is shown as such, not in the ledger.
"""
from __future__ import annotations

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
    """Tolerance of a select row: a 1-point dilution (getpages outside the selects, as the
    1-row case shows) or, where larger, the printed index counts' own disagreement."""
    before, after, data = select_counts(run)
    levels = pub.value(run, "index_levels_count")
    mismatch = abs((after - 1) - (before - levels)) / (before + data)  # extra leaf pages counted differently
    cut = -pub.value(run, "getpage_change_pct") / 100
    return max(0.025, round(mismatch / cut + 0.005, 2))


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
            tolerance=select_tolerance(run), role="predicted", cell=(pub.STUDY, pub.S26, run, "getpage_change_pct")))
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
            role="fitted", cell=(pub.STUDY, table, "delta", cpu)))
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
#: The notify deltas (+800% printed, +700% from the cells) are flagged too, but cells printed as 0.01
#: allow anything from +433% to +1,500%, so they stay within their tolerance.
KNOWN_MISSES = {
    (pub.T42, "class2_cpu_change_pct"): "printed +1.4% without its minus sign: the cells fall from 1.726 to 1.701 ms",
}


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
            rows.append(identities.change_row(
                CHAPTER, pub.cite(table, "delta", delta), labels[delta],
                f"{TABLE_NAMES[table]}: Db2 12 FL 510 -> Db2 13 FL 501, {how}", _cell("delta", delta, table),
                before, after, miss=KNOWN_MISSES.get((table, delta), "")))
    for table in (pub.T43, pub.T44):
        for release in (BEFORE, AFTER):
            rows.append(identities.sum_row(
                CHAPTER, pub.cite(table, release, "total_db2_cpu_ms"), "total Db2 CPU (ms per commit)",
                f"{TABLE_NAMES[table]}, {RELEASES[release]}: class 2 + MSTR + "
                "DBM1 + IRLM", _cell(release, "total_db2_cpu_ms", table),
                [_cell(release, m, table) for m in ("class2_cpu_ms", "mstr_cpu_ms", "dbm1_cpu_ms", "irlm_cpu_ms")]))
    for release in (BEFORE, AFTER):
        rows.append(identities.sum_row(
            CHAPTER, pub.cite(pub.T42, release, "total_db2_cpu_group_ms"), "total Db2 CPU, group (ms per commit)",
            f"{TABLE_NAMES[pub.T42]}, {RELEASES[release]}: mean of the two member totals",
            _cell(release, "total_db2_cpu_group_ms", pub.T42), _members(pub.T42, "total_db2_cpu_member_ms", release),
            scale=0.5))
    return rows


def prose_rows() -> list[LedgerRow]:
    """Numbers the prose repeats or derives: the theoretical cuts, the maxima, the summaries, the memory."""
    rows = []
    for run in ("select_1_row_per_key", "select_10_rows_per_key"):
        rows.append(identities.change_row(
            CHAPTER, pub.cite(pub.RESULTS, run, "theoretical_getpage_change_pct"),
            "theoretical getpage cut per select (%)",
            f"{SELECTS[run]} row(s) per key: (index + table space getpages) without FTB -> with FTB",
            _cell(run, "theoretical_getpage_change_pct"),
            [_cell(run, "index_getpages_no_ftb_count"), _cell(run, "tablespace_getpages_no_ftb_count")],
            [_cell(run, "index_getpages_ftb_count"), _cell(run, "tablespace_getpages_ftb_count")]))
    rows.append(identities.repeat_row(
        CHAPTER, pub.cite(pub.RESULTS, "select_results", "getpage_change_pct"),
        "largest getpage cut of the random selects (%)",
        "'up to 59.4%': the largest of the three select results", _cell("select_results", "getpage_change_pct"),
        _cell("select_1_row_per_key", "getpage_change_pct")))
    for env, table, cpu in (("two_way", pub.T42, "total_db2_cpu_group_change_pct"),
                            ("one_way", pub.T43, "total_db2_cpu_change_pct"),
                            ("non_ds", pub.T44, "total_db2_cpu_change_pct")):
        for prose, metric in (("getpage_change_pct", "getpage_per_commit_change_pct"), ("cpu_change_pct", cpu)):
            rows.append(identities.repeat_row(
                CHAPTER, pub.cite(pub.S43, f"brokerage_v1_{env}", prose),
                "getpage change (%)" if prose.startswith("getpage") else "Db2 CPU change (%)",
                f"section 4.3's text against {TABLE_NAMES[table]}", _cell(f"brokerage_v1_{env}", prose, pub.S43),
                _cell("delta", metric, table)))
    before = _cell("brokerage_v1_db2_12_fl510", "ftb_total_memory_mb", pub.S43)
    after = _cell("brokerage_v1_db2_13_fl501", "ftb_total_memory_mb", pub.S43)
    per_member = _cell("brokerage_v1_storage", "ftb_storage_increase_per_member_gb", pub.S43)
    rows.append(LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.S43, "brokerage_v1_storage", "ftb_storage_increase_per_member_gb"),
        quantity="FTB memory added per member (GB)",
        condition="'about 1.5 GB' (half a unit: 0.05 GB): 1,900 MB - 427 MB FTB allocation, "
                  "Db2 12 FL 510 -> Db2 13 FL 501, at 1,000 MB per GB",
        published=per_member["value"], model=(after["value"] - before["value"]) / 1000,
        tolerance=(0.05 + 0.001) / per_member["value"], role="identity",
        cell=per_member["key"]))
    return rows


def ledger_rows() -> list[LedgerRow]:
    return select_rows() + cpu_rows() + table_rows() + prose_rows()


def misses() -> list[dict]:
    """What the simple models do not reproduce, or fit only by construction."""
    out = []
    naive = float(model.index_levels(2e7, 96, 4096, 0.1, 1.0))
    out.append({"quantity": "index levels, 20M rows, 96-byte keys (full keys in non-leaf pages)",
                "published": pub.value("nds_96_byte_results", "index_levels_count"), "model": naive,
                "note": "the naive model needs 5 levels; 4 levels imply a non-leaf fan-out of at least "
                        f"{model.implied_nonleaf_fanout(2e7, 96, 4)}, i.e. truncated non-leaf keys"})
    return out
