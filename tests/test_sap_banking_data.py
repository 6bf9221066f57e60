"""SAP Banking at 150 million accounts (IBM brief v1.10, 2012) and the SHARE deck's zEDC claims:
provenance, printed precision, and the brief's own arithmetic.

Every identity the brief implies is checked on its printed numbers, each printed number standing
for the interval it rounds from. An identity that fails must be explained by a ``contradiction``
flag on one of its cells, and every ``contradiction`` flag must be needed by a failing identity;
likewise every ``unstated`` flag must sit on a cell whose unit or meaning the text leaves unsaid,
and every such cell must carry one.

The source texts are looked up in ``$DB2BOOK_SEEDS`` (default: ``../shared/seeds`` next to the
repository); the tests that read them are skipped when they are not there.
"""
from __future__ import annotations

import csv
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from widgets.citations import flagged
from widgets.data import FLAGS, LONG_COLUMNS, data_dir, load_long, printed_table, sources, wide
from widgets.sap_banking import published

STUDY, ZEDC = "sap_banking", "zedc"
SEED_NAMES = {STUDY: "003_e5c21d25dc7d78e3.txt", ZEDC: "001_73aad4a1b5a8db65.txt"}
SEEDS = Path(os.environ.get("DB2BOOK_SEEDS", Path(__file__).resolve().parents[1].parent / "shared" / "seeds"))
NO_SEEDS = not all((SEEDS / name).is_file() for name in SEED_NAMES.values())
needs_seeds = pytest.mark.skipif(NO_SEEDS, reason=f"source texts not found in {SEEDS} (set DB2BOOK_SEEDS)")

T3, T4, T5, T6, T7, T8 = ("t3_posting_results.csv", "t4_balancing_results.csv", "t5_posting_db_growth.csv",
                          "t6_balancing_db_growth.csv", "t7_buffer_pools.csv", "t8_pool_assignments.csv")
SETUP, QUOTED = "s1_s7_setup.csv", "s9_s12_quoted.csv"
ACCOUNTS = 150e6
POSTINGS_PER_DS = 175 / 15  # section 6.1: 175 postings in one cycle of 15 dialog steps
WORDS = {"one": 1, "two": 2, "four": 4, "five": 5, "six": 6, "eight": 8, "sixteen": 16, "double": 2}


def _header(study: str, filename: str) -> list[str]:
    with (data_dir() / study / filename).open(newline="", encoding="utf-8") as handle:
        return next(csv.reader(handle))


def _long_files(study: str) -> list[str]:
    return [f for f in sources(study)["file"] if set(LONG_COLUMNS) <= set(_header(study, f))]


def _seed_lines(study: str) -> list[str]:
    return (SEEDS / SEED_NAMES[study]).read_text(encoding="utf-8").splitlines()


def _range(study: str, filename: str) -> tuple[int, int]:
    lo, hi = sources(study).set_index("file").loc[filename, "lines"].split("-")
    return int(lo), int(hi)


LONG = {(s, f): load_long(s, f) for s in (STUDY, ZEDC) for f in _long_files(s)}


def _cell(filename: str, run: str, metric: str, study: str = STUDY) -> pd.Series:
    frame = LONG[(study, filename)]
    hit = frame[(frame["run_id"] == run) & (frame["metric"] == metric)]
    assert len(hit) == 1, (filename, run, metric)
    return hit.iloc[0]


def _interval(printed: str) -> tuple[float, float]:
    """The true values that print as ``printed``: plus or minus half a unit of its last digit."""
    t = printed.strip().replace(",", "").rstrip("%")
    decimals = len(t.split(".")[1]) if "." in t else 0
    half = 0.5 * 10 ** (-decimals)
    return float(t) - half, float(t) + half


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[1] >= b[0] and a[0] <= b[1]


# --- files and provenance -------------------------------------------------------------------------


@pytest.mark.parametrize("study", [STUDY, ZEDC])
def test_every_csv_has_provenance_and_the_readme_names_the_document(study):
    folder = data_dir() / study
    src = sources(study)
    assert {p.name for p in folder.glob("*.csv")} - {"sources.csv"} == set(src["file"])
    for row in src.itertuples():
        assert row.seed == SEED_NAMES[study] and row.document.startswith(row.seed), row.file
        assert row.table and row.section and row.caption, row.file
        lo, hi = _range(study, row.file)
        assert 0 < lo < hi, row.file
    readme = (folder / "README.md").read_text(encoding="utf-8")
    # no machine's path: tests/test_standalone.py checks every file of the repository
    assert SEED_NAMES[study] in readme
    title, date = {STUDY: ("150 Million Accounts Measurements", "22 February 2012"),
                   ZEDC: ("System z Performance: More Than You Think", "6 August 2014")}[study]
    assert title in readme and date in readme


def test_sap_banking_has_tables_1_to_8_with_their_pages():
    src = sources(STUDY)
    tables = src[src["table"].str.startswith("Table")]
    assert list(tables["table"]) == [f"Table {i}" for i in range(1, 9)]
    # pages as the document's own list of tables prints them (source lines 78-85)
    assert list(tables["page"]) == ["p. 8", "p. 12", "p. 13", "p. 14", "p. 20", "p. 23", "p. 29", "p. 30"]


@pytest.mark.parametrize("study,filename", list(LONG))
def test_long_tables_load_with_known_flags_and_readable_values(study, filename):
    frame = LONG[(study, filename)]
    assert set(frame["flag"].str.strip()) <= set(FLAGS)
    for row in frame.itertuples():
        if row.unit == "text":
            assert math.isnan(row.value) and row.printed.strip(), (filename, row.csv_line)
            continue
        assert _read_printed(row.printed, row.metric, row.unit) == pytest.approx(row.value, rel=1e-12), \
            f"{filename} line {row.csv_line}: printed {row.printed!r}, value {row.value}"


def _read_printed(printed: str, metric: str, unit: str) -> float:
    """The number a printed cell says: digits or a number word; 'million' scales; '_high' takes a range's end."""
    tokens = re.findall(r"\d[\d,]*(?:\.\d+)?|[A-Za-z]+", printed)
    numbers = [float(t.replace(",", "")) if t[0].isdigit() else WORDS[t.lower()]
               for t in tokens if t[0].isdigit() or t.lower() in WORDS]
    assert numbers, printed
    value = numbers[-1] if metric.endswith("_high") or metric.endswith("_high_s") else numbers[0]
    if re.search(r"\bmillion\b", printed, re.I):
        value *= 1e6
    return value


@needs_seeds
@pytest.mark.parametrize("study,filename", list(LONG))
def test_printed_cells_are_on_their_cited_source_line(study, filename):
    lines = _seed_lines(study)
    lo, hi = _range(study, filename)
    for row in LONG[(study, filename)].itertuples():
        assert lo <= row.line <= hi, f"{filename} line {row.csv_line}: source line {row.line} outside {lo}-{hi}"
        assert row.printed.replace(",", "") in lines[row.line - 1].replace(",", ""), \
            f"{filename} line {row.csv_line}: {row.printed!r} not on source line {row.line}"


@needs_seeds
@pytest.mark.parametrize("filename,columns", [("t1_posting_steps.csv", ["step", "operation"]),
                                              ("t2_sap_application_levels.csv",
                                               ["component", "release", "level", "support_package", "description"])])
def test_text_tables_are_the_printed_rows(filename, columns):
    lines = _seed_lines(STUDY)
    frame = pd.read_csv(data_dir() / STUDY / filename, dtype=str)
    for row in frame.itertuples():
        assert lines[int(row.line) - 1].split("\t") == [getattr(row, c) for c in columns], row


@needs_seeds
@pytest.mark.parametrize("filename", [T3, T4, T5, T6, T7, T8])
def test_no_printed_cell_of_a_table_is_left_out(filename):
    """Each value on a table's tab-separated lines is one row: header rows and run ids aside, a
    short name ("2WDS 48CP") gives two rows (name, processors) and a count in a row label one more."""
    lines = _seed_lines(STUDY)
    per_line = LONG[(STUDY, filename)].groupby("line").size()
    extra = {T3: {272: 6, 295: 1}, T4: {306: 1, 336: 1}}.get(filename, {})
    lo, hi = _range(STUDY, filename)
    for n in range(lo, hi + 1):
        label, *cells = lines[n - 1].split("\t")
        cells = [c for c in cells if c.strip()]
        if not cells or label in ("Runid", "BP name", "Buffer Pool", "DB2 Table"):
            continue
        expected = 2 if filename == T8 else len(cells) + extra.get(n, 0)  # Table 8: pool and object
        assert per_line.get(n, 0) == expected, f"{filename}: source line {n} has {len(cells)} cells"


# --- the brief's arithmetic -----------------------------------------------------------------------


@dataclass
class Check:
    """One identity on printed numbers: whether it holds within printed rounding, and its cells."""
    name: str
    holds: bool
    cells: list[tuple[str, str, str]]  # (file, run, metric)
    detail: str


def _p(filename: str, run: str, metric: str) -> tuple[float, float]:
    return _interval(_cell(filename, run, metric)["printed"])


def _scaled(iv: tuple[float, float], k: float) -> tuple[float, float]:
    return (iv[0] * k, iv[1] * k) if k >= 0 else (iv[1] * k, iv[0] * k)


def _div(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return a[0] / b[1], a[1] / b[0]


def _posting_checks() -> list[Check]:
    checks = []
    table = wide(LONG[(STUDY, T3)])
    for run in table.index:
        cpu = _scaled(_p(T3, run, "cpu_util_pct"), 0.01)
        for kind in ("etr", "itr"):  # postings/hour = dialog steps/s x 3600 x 175/15
            ds, ph = f"{kind}_ds_per_s", f"{kind}_postings_per_hour"
            implied = _scaled(_p(T3, run, ds), 3600 * POSTINGS_PER_DS)
            checks.append(Check(f"T3 {run} {kind} postings/h = DS/s x 42,000", _overlaps(implied, _p(T3, run, ph)),
                                [(T3, run, ds), (T3, run, ph)], f"{implied[0]:,.0f}..{implied[1]:,.0f}"))
        for unit in ("ds_per_s", "postings_per_hour"):  # DB ITR = ETR / CPU utilisation
            implied = _div(_p(T3, run, f"etr_{unit}"), cpu)
            checks.append(Check(f"T3 {run} ITR = ETR / CPU ({unit})", _overlaps(implied, _p(T3, run, f"itr_{unit}")),
                                [(T3, run, f"etr_{unit}"), (T3, run, f"itr_{unit}"), (T3, run, "cpu_util_pct")],
                                f"{implied[0]:,.2f}..{implied[1]:,.2f}"))
        row = table.loc[run]
        checks.append(Check(f"T3 {run} processors = LPARs x LPAR size",
                            row["cp_total"] == row["lpar_count"] * row["lpar_cp_count"],
                            [(T3, run, "cp_total"), (T3, run, "lpar_cp_count")], ""))
        checks.append(Check(f"T3 {run} 8 dialog work processes per SAP instance",
                            row["dialog_wps"] == 8 * row["sap_dv_instances"],
                            [(T3, run, "dialog_wps"), (T3, run, "sap_dv_instances")], ""))
    return checks


def _balancing_checks() -> list[Check]:
    run = "S10712V1"
    checks = []
    cpu = _scaled(_p(T4, run, "cpu_util_pct"), 0.01)
    longest = _p(T4, run, "elapsed_max_s")
    implied = (ACCOUNTS / longest[1], ACCOUNTS / longest[0])  # ETR = 150 M accounts / longest job
    checks.append(Check("T4 ETR accounts/s = 150 M / longest elapsed",
                        _overlaps(implied, _p(T4, run, "etr_accounts_per_s")),
                        [(T4, run, "etr_accounts_per_s"), (T4, run, "elapsed_max_s")], f"{implied}"))
    implied_h = _scaled(implied, 3600)
    checks.append(Check("T4 ETR accounts/h = 150 M x 3600 / longest elapsed",
                        _overlaps(implied_h, _p(T4, run, "etr_accounts_per_hour")),
                        [(T4, run, "etr_accounts_per_hour"), (T4, run, "elapsed_max_s")], f"{implied_h}"))
    for kind in ("etr", "itr"):
        implied = _scaled(_p(T4, run, f"{kind}_accounts_per_s"), 3600)
        checks.append(Check(f"T4 {kind} accounts/h = accounts/s x 3600",
                            _overlaps(implied, _p(T4, run, f"{kind}_accounts_per_hour")),
                            [(T4, run, f"{kind}_accounts_per_s"), (T4, run, f"{kind}_accounts_per_hour")], ""))
    for unit in ("accounts_per_s", "accounts_per_hour", "postings_per_hour"):
        implied = _div(_p(T4, run, f"etr_{unit}"), cpu)
        checks.append(Check(f"T4 ITR = ETR / CPU ({unit})", _overlaps(implied, _p(T4, run, f"itr_{unit}")),
                            [(T4, run, f"etr_{unit}"), (T4, run, f"itr_{unit}"), (T4, run, "cpu_util_pct")],
                            f"{implied}"))
    for stat in ("avg", "max", "min"):
        implied = _scaled(_p(T4, run, f"elapsed_{stat}_s"), 1 / 60)
        checks.append(Check(f"T4 elapsed {stat}: minutes = seconds / 60",
                            _overlaps(implied, _p(T4, run, f"elapsed_{stat}_min")),
                            [(T4, run, f"elapsed_{stat}_s"), (T4, run, f"elapsed_{stat}_min")], ""))
    row = wide(LONG[(STUDY, T4)]).loc[run]
    checks.append(Check("T4 total jobs = instances x jobs per instance",
                        row["total_jobs"] == row["sap_batch_instances"] * row["jobs_per_instance"],
                        [(T4, run, "total_jobs")], ""))
    checks.append(Check("T4 min <= avg <= max elapsed",
                        row["elapsed_min_s"] <= row["elapsed_avg_s"] <= row["elapsed_max_s"],
                        [(T4, run, "elapsed_avg_s")], ""))
    checks.append(Check("T4 processors = LPARs x LPAR size",
                        row["cp_total"] == row["lpar_count"] * row["lpar_cp_count"],
                        [(T4, run, "cp_total")], ""))
    return checks


def _growth_checks() -> list[Check]:
    checks = []
    for filename, total_run in ((T5, "five tables (prose)"), (T6, "eight tables (prose)")):
        frame = LONG[(STUDY, filename)]
        tables = [r for r in dict.fromkeys(frame["run_id"]) if r != total_run]
        lo = hi = 0.0
        for t in tables:  # table + index = total, for each DB2 table
            implied = tuple(a + b for a, b in zip(_p(filename, t, "table_growth"), _p(filename, t, "index_growth")))
            checks.append(Check(f"{filename[:2].upper()} {t}: table + index = total",
                                _overlaps(implied, _p(filename, t, "total_growth")),
                                [(filename, t, m) for m in ("table_growth", "index_growth", "total_growth")],
                                f"{implied}"))
            t_lo, t_hi = _p(filename, t, "total_growth")
            lo, hi = lo + t_lo, hi + t_hi
        checks.append(Check(f"{filename[:2].upper()} sum of totals = the prose total",
                            _overlaps((lo, hi), _p(filename, total_run, "total_growth")),
                            [(filename, total_run, "total_growth")], f"{lo:.2f}..{hi:.2f}"))
        checks.append(Check(f"{filename[:2].upper()} the prose counts the tables",
                            len(tables) == {T5: 5, T6: 8}[filename],
                            [(QUOTED, {T5: "s9_1_posting", T6: "s9_2_balancing"}[filename], "growth_tables")], ""))
    for t in ("BCA_GL_PAYMITEM", "BCA_PAYMITEM", "BCA_TRANSFIG"):  # same table, same compression
        checks.append(Check(f"T5/T6 {t}: same PAGESAVE",
                            _cell(T5, t, "pagesave_pct")["value"] == _cell(T6, t, "pagesave_pct")["value"],
                            [(T5, t, "pagesave_pct"), (T6, t, "pagesave_pct")], ""))
    return checks


def _page_kb(pool: str) -> int:
    """Page size of a DB2 buffer pool from its name: BPn 4 KB, BP8Kn 8 KB, BP16Kn 16 KB, BP32Kn 32 KB."""
    match = re.fullmatch(r"BP(8|16|32)K\d*", pool)
    return int(match.group(1)) if match else 4


def _pool_checks() -> list[Check]:
    checks = []
    pools = wide(LONG[(STUDY, T7)])
    for pool, row in pools.iterrows():  # MB = thousands of pages x page size in KB
        checks.append(Check(f"T7 {pool}: MB = K pages x {_page_kb(pool)} KB",
                            row["bp_size_mb"] == row["vp_pages_k"] * _page_kb(pool),
                            [(T7, pool, "bp_size_mb"), (T7, pool, "vp_pages_k")], ""))
    total_gb = pools["bp_size_mb"].sum() / 1000
    checks.append(Check("T7 local pools total 'about 90 GB' per member (nearest ten)", round(total_gb, -1) == 90,
                        [(QUOTED, "s12_buffer_pools", "lbp_total_per_member_gb")], f"{total_gb:.3f} GB"))
    no_prefetch = int((pools["vpseqt_pct"] == 0).sum())
    checks.append(Check("T7 prefetch disabled (VPSEQT=0) for 'a few' pools", 1 < no_prefetch <= 5,
                        [(QUOTED, "s12_buffer_pools", "prefetch_disabled_vpseqt_pct")], f"{no_prefetch} pools"))
    assignments = _wide_text(T8)
    for run, pool in assignments["buffer_pool"].items():
        checks.append(Check(f"T8 {run}: {pool} is defined in Table 7", pool in pools.index,
                            [(T8, run, "buffer_pool")], assignments.loc[run, "object"]))
    return checks


def _wide_text(filename: str) -> pd.DataFrame:
    """A long table of text cells, one row per run and one column per metric (the printed text)."""
    frame = LONG[(STUDY, filename)]
    return frame.pivot(index="run_id", columns="metric", values="printed")


def _prose_checks() -> list[Check]:
    t3, t4 = wide(LONG[(STUDY, T3)]), wide(LONG[(STUDY, T4)]).iloc[0]
    setup = wide(LONG[(STUDY, SETUP)])
    quoted = wide(LONG[(STUDY, QUOTED)])
    q = lambda run, metric: quoted.loc[run, metric]  # noqa: E731
    checks = [
        Check("59.1 M postings/h = Table 3's best ETR", round(t3["etr_postings_per_hour"].max() / 1e6, 1)
              == q("s9_1_posting", "record_postings_per_hour") / 1e6,
              [(QUOTED, "s9_1_posting", "record_postings_per_hour")], ""),
        Check("37.2 M accounts/h = Table 4's ETR", round(t4["etr_accounts_per_hour"] / 1e6, 1)
              == q("s9_2_balancing", "record_accounts_per_hour") / 1e6,
              [(QUOTED, "s9_2_balancing", "record_accounts_per_hour")], ""),
        Check("164 MB below the bar = Table 3 at 60 CP", t3.loc["S10624V2", "dbm1_below_bar_mb"]
              == q("s9_1_posting", "dbm1_below_bar_mb_db2_10"),
              [(QUOTED, "s9_1_posting", "dbm1_below_bar_mb_db2_10")], ""),
        Check("CFs 23% and 33% busy = Table 3 at 48 CP, rounded",
              (round(t3.loc["S10718V1", "cf1_util_pct"]), round(t3.loc["S10718V1", "cf2_util_pct"]))
              == (q("s9_analysis", "posting_cf1_busy_48cp_pct"), q("s9_analysis", "posting_cf2_busy_48cp_pct")),
              [(QUOTED, "s9_analysis", "posting_cf1_busy_48cp_pct")], ""),
        Check("first and last job 239 and 242 minutes = Table 4, rounded",
              (round(t4["elapsed_min_min"]), round(t4["elapsed_max_min"]))
              == (q("s9_2_balancing", "first_job_min"), q("s9_2_balancing", "last_job_min")),
              [(QUOTED, "s9_2_balancing", "first_job_min")], ""),
        Check("less than 1% variance from the average",
              max(t4["elapsed_max_s"] / t4["elapsed_avg_s"] - 1, 1 - t4["elapsed_min_s"] / t4["elapsed_avg_s"]) * 100
              < q("s9_2_balancing", "variance_from_avg_max_pct"),
              [(QUOTED, "s9_2_balancing", "variance_from_avg_max_pct")], ""),
        Check("about four hours", round(t4["elapsed_max_s"] / 3600) == q("s9_2_balancing", "elapsed_h"),
              [(QUOTED, "s9_2_balancing", "elapsed_h")], ""),
        Check("about 86% of postings in the first step = 150 / 175",
              round(150 / setup.loc["s6_1_posting", "postings_per_cycle"] * 100)
              == setup.loc["s6_1_posting", "mass_postings_share_pct"],
              [(SETUP, "s6_1_posting", "mass_postings_share_pct")], ""),
        Check("tablespaces + indexspaces = the database's 12.5 TB",
              _overlaps(tuple(a + b for a, b in zip(_interval("6.4"), _interval("6.1"))), _interval("12.5")),
              [(SETUP, "s7_1_hardware", "db_allocated_tb")], ""),
        Check("65 blades less the ENQ blade = Table 4's 64 application servers",
              setup.loc["s7_1_hardware", "app_server_blades"] - 1 == t4["app_servers"],
              [(SETUP, "s7_1_hardware", "app_server_blades")], ""),
        Check("two LPARs of 30 CPs = Table 3's largest configuration",
              setup.loc["s7_1_hardware", "lpars"] * setup.loc["s7_1_hardware", "lpar_cps"] == t3["cp_total"].max(),
              [(SETUP, "s7_1_hardware", "lpar_cps")], ""),
    ]
    lpar = setup.loc["s7_1_hardware", "lpar_cps"]
    for sec in ("s9_1_posting", "s9_2_balancing"):
        regular, ziips, share = q(sec, "example_regular_cps"), q(sec, "example_ziips"), q(sec, "ziip_lpar_cpu_pct")
        checks.append(Check(f"{sec}: regular + zIIPs = an LPAR's 30 CPs", regular + ziips == lpar,
                            [(QUOTED, sec, "example_ziips")], ""))
        checks.append(Check(f"{sec}: zIIPs = LPAR CPU share x 30, to a whole processor",
                            round(share / 100 * lpar) == ziips,
                            [(QUOTED, sec, "example_ziips")], f"{share / 100 * lpar:.1f}"))
        log, db, overall = q(sec, "zhpf_log_pct"), q(sec, "zhpf_db_pct"), q(sec, "zhpf_overall_pct")
        checks.append(Check(f"{sec}: overall zHPF share lies between log and database",
                            min(log, db) <= overall <= max(log, db),
                            [(QUOTED, sec, "zhpf_overall_pct")], ""))
    # "The response time was usually in the one to two second range. The exception is ... 2WDS 2CP"
    low, high = q("s9_1_posting", "response_time_usual_low_s"), q("s9_1_posting", "response_time_usual_high_s")
    others = t3.drop(index="S10722V4")["response_time_s"]
    outside = others[(others < low) | (others > high)]
    checks.append(Check("response time 1-2 s except at 2 CP", outside.empty,
                        [(QUOTED, "s9_1_posting", "response_time_usual_low_s"),
                         (QUOTED, "s9_1_posting", "response_time_usual_high_s")],
                        ", ".join(f"{r}: {v} s" for r, v in outside.items())))
    return checks


def all_checks() -> list[Check]:
    """Every identity the brief implies, on its printed numbers."""
    return _posting_checks() + _balancing_checks() + _growth_checks() + _pool_checks() + _prose_checks()


CHECKS = all_checks()


def _flags(kind: str) -> set[tuple[str, str, str]]:
    return {(f, r.run_id, r.metric) for (s, f), frame in LONG.items() if s == STUDY
            for r in frame.itertuples() if r.flag.strip() == kind}


def test_enough_identities_are_checked():
    assert len(CHECKS) >= 100
    assert sum(c.holds for c in CHECKS) > 0.9 * len(CHECKS)


def test_every_failing_identity_is_flagged():
    flags = _flags("contradiction")
    unexplained = [f"{c.name} ({c.detail})" for c in CHECKS if not c.holds and not flags & set(c.cells)]
    assert not unexplained, "identities that fail with no contradiction flag on their cells: " + "; ".join(unexplained)


def test_every_contradiction_flag_is_needed():
    failing = {cell for c in CHECKS if not c.holds for cell in c.cells}
    needless = _flags("contradiction") - failing
    assert not needless, f"flagged as contradictions, but every identity on them holds: {sorted(needless)}"


def test_the_known_disagreements_are_the_ones_that_fail():
    failing = sorted(c.name for c in CHECKS if not c.holds)
    assert failing == ["T8 row_47: BP8K0 is defined in Table 7", "T8 row_48: BP8K0 is defined in Table 7",
                       "T8 row_49: BP8K0 is defined in Table 7", "response time 1-2 s except at 2 CP"], failing


# --- what the text leaves unsaid ------------------------------------------------------------------

UNIT_MARKS = ("/sec", "/hr", "(sec)", "(MB)", "(seconds)", "(minutes)", "%", "(K)", "(%)", "MB/sec", "per sec")


def _group_header(lines: dict[int, str], n: int) -> str:
    """The label of the nearest row above ``n`` with no values ("ETR", "Elapsed time (seconds)")."""
    for k in range(n - 1, max(n - 5, 0), -1):
        label, *cells = lines[k].split("\t")
        if not any(c.strip() for c in cells):
            return label
    return ""


def _needs_unstated() -> set[tuple[str, str, str]]:
    """Cells whose unit or meaning the brief does not print (needs the source text)."""
    lines = dict(enumerate(_seed_lines(STUDY), start=1))
    need = set()
    for filename in (T3, T4):  # a rate whose row label, and the label of its group, name no unit
        for r in LONG[(STUDY, filename)].itertuples():
            if r.unit in ("text", "count"):
                continue
            label = lines[r.line].split("\t")[0] + " " + _group_header(lines, r.line)
            if not any(m in label for m in UNIT_MARKS) and not r.printed.endswith(("%", "M")):
                need.add((filename, r.run_id, r.metric))
    t4 = wide(LONG[(STUDY, T4)]).iloc[0]
    ratio = f'{t4["etr_postings_per_hour"] / t4["etr_accounts_per_hour"]:.2f}'
    if ratio not in "\n".join(lines.values()):  # postings per account balanced: a ratio the text never gives
        need |= {(T4, "S10712V1", "etr_postings_per_hour"), (T4, "S10712V1", "itr_postings_per_hour")}
    if "(" not in lines[540].split("\t")[-1]:  # Table 7's header "GBpool Size" names no unit
        need |= {(T7, pool, "gbp_size") for pool in wide(LONG[(STUDY, T7)]).index}
    return need


@needs_seeds
def test_unstated_flags_sit_exactly_on_what_the_text_leaves_unsaid():
    assert _flags("unstated") == _needs_unstated()


def test_the_balancing_postings_per_account_ratio_is_3_05_and_table_6_uses_it():
    """Not explained in the brief: 3.05 postings per account balanced, and Table 6's PAYMITEM rows
    are Table 5's rows (per million postings) times the same 3.05."""
    t4 = wide(LONG[(STUDY, T4)]).iloc[0]
    assert t4["etr_postings_per_hour"] / t4["etr_accounts_per_hour"] == pytest.approx(3.05, abs=1e-8)
    assert t4["itr_postings_per_hour"] / t4["itr_accounts_per_hour"] == pytest.approx(3.05, abs=1e-8)
    for table in ("BCA_GL_PAYMITEM", "BCA_PAYMITEM"):
        for metric in ("table_growth", "index_growth", "total_growth"):
            implied = _scaled(_p(T5, table, metric), 3.05)
            assert _overlaps(implied, _p(T6, table, metric)), (table, metric)
    # ... but not the other table they share
    assert not _overlaps(_scaled(_p(T5, "BCA_TRANSFIG", "total_growth"), 3.05), _p(T6, "BCA_TRANSFIG", "total_growth"))


def test_the_gbp_sizes_fit_the_coupling_facilities_only_if_read_as_kb():
    pools = wide(LONG[(STUDY, T7)])
    setup = wide(LONG[(STUDY, SETUP)]).loc["s7_1_hardware"]
    cf_gib = setup["cfs"] * setup["cf_memory_gb"]
    as_kb = pools["gbp_size"].sum() / 2**20
    assert as_kb == pytest.approx(93.3, abs=0.05) and as_kb < cf_gib
    assert 4 * as_kb == pytest.approx(373.2, abs=0.05) and 4 * as_kb > cf_gib


def test_table_1_postings_add_up_to_175_only_with_the_payment_orders():
    steps = pd.read_csv(data_dir() / STUDY / "t1_posting_steps.csv")
    count = lambda pattern: sum(_read_printed(op, "", "count") for op in steps["operation"]  # noqa: E731
                                if re.search(pattern, op))
    postings, orders = count(r"^Create .*postings"), count(r"^Create .*payment orders")
    cycle = wide(LONG[(STUDY, SETUP)]).loc["s6_1_posting", "postings_per_cycle"]
    assert postings == 170 and postings + orders == cycle == 175


def test_flagged_lists_every_flag_with_a_reason():
    flags = flagged(STUDY)
    assert set(flags["flag"]) == {"contradiction", "unstated"}
    assert flags["why"].str.len().min() > 40
    counts = flags.groupby(["table", "flag"]).size().to_dict()
    assert counts == {("Table 3", "unstated"): 12, ("Table 4", "unstated"): 4, ("Table 7", "unstated"): 49,
                      ("Table 8", "contradiction"): 3, ("Sections 9, 10, 12 (prose)", "contradiction"): 2}


def _lines_named(text: str) -> set[int]:
    """Every source line a text names: "line 289", "lines 289 and 290", "lines 646, 647 and 648", "lines 541-564"."""
    named = set()
    for group in re.findall(r"lines? (\d+(?:(?:, | and |-)\d+)*)", text):
        for part in re.split(r", | and ", group):
            a, _, b = part.partition("-")
            named |= set(range(int(a), int(b or a) + 1))
    return named


@pytest.mark.parametrize("study", [STUDY, ZEDC])
def test_the_readme_lists_every_flagged_cell(study):
    """Each flagged cell's source line is named in the README, with the flag's kind."""
    readme = (data_dir() / study / "README.md").read_text(encoding="utf-8")
    named = _lines_named(readme)
    for row in flagged(study).itertuples():
        assert row.line in named, f"README does not name {row.table}, line {row.line} ({row.metric}, {row.flag})"
        assert f"`{row.flag}`" in readme
    if study == STUDY:
        assert f"{len(flagged(study))} cells are flagged" in readme


# --- zEDC claims ----------------------------------------------------------------------------------


def test_zedc_claims_are_labelled_as_the_vendors():
    frame = LONG[(ZEDC, "claims.csv")]
    assert set(frame["basis"]) <= {'vendor claim, "up to": a best case with no table behind it in the deck',
                                   "vendor recommendation or product limit, not a measurement",
                                   "test setup described on the slide, not a result"}
    # every "up to" on a reduction, a ratio or a rate is the vendor's claim; "up to 15 LPARs" is a product limit
    up_to = frame[frame["printed"].str.contains("up to", case=False) & frame["unit"].isin(["pct", "x", "GB_per_s"])]
    claims = frame[frame["basis"].str.startswith("vendor claim")]
    assert len(up_to) == 12 and set(up_to.index) == set(claims.index)
    assert frame["slide_title"].str.len().min() > 3


@needs_seeds
def test_every_up_to_claim_of_the_zedc_slides_is_transcribed():
    lines = _seed_lines(ZEDC)
    lo, hi = _range(ZEDC, "claims.csv")
    frame = LONG[(ZEDC, "claims.csv")]
    for n in range(lo, hi + 1):
        found = len(re.findall(r"up to", lines[n - 1], re.I))
        mine = frame[(frame["line"] == n) & frame["printed"].str.contains("up to", case=False)]
        assert len(mine) == found, f"source line {n}: {found} 'up to' claims, {len(mine)} transcribed"
    for row in frame.itertuples():
        assert lines[int(row.slide_line) - 1].strip() == row.slide_title or row.slide_title == "(untitled slide)", row


def test_zedc_unstated_flag_is_the_ratio_without_a_referent():
    frame = LONG[(ZEDC, "claims.csv")]
    unit_words = r"\d|x\b|%|GB/s|LPARs|features|jobs|minutes"
    for row in frame.itertuples():
        says = bool(re.search(unit_words, row.printed))
        assert (row.flag == "unstated") == (not says), row.printed


# --- the loading helpers --------------------------------------------------------------------------


def test_published_posting_runs_cite_each_value_and_scale_with_processors():
    runs = published.posting_runs()
    assert list(runs["processors"]) == [2, 4, 16, 32, 48, 60]
    assert runs["src_itr_ds_per_s"].str.endswith("Table 3, p. 13").all()
    assert not runs["src_itr_ds_per_s"].str.contains("line").any()  # readers get the brief's coordinates
    per_cp = runs["itr_ds_per_s"] / runs["processors"]
    assert round(per_cp.iloc[0]) == 56 and round(per_cp.iloc[-1]) == 28  # the 56 -> 28 per processor
    tidy = published.posting_results()
    assert tidy["source"].str.startswith("SAP Banking Services 7.0 150 Million Accounts").all()
    assert tidy["value"].notna().all()


def test_published_balancing_is_one_run_and_a_missing_metric_is_named():
    tidy = published.balancing_results()
    assert set(tidy["run_id"]) == {"S10712V1"} and set(tidy["processors"]) == {48}
    with pytest.raises(ValueError, match="etr_ds_per_s"):
        published.runs(tidy, ["etr_ds_per_s"])


def test_printed_table_marks_unstated_cells():
    shown = printed_table(STUDY, T3)
    assert shown.loc["db_io_rate", "S10624V2"] == "138,647 §"
    assert shown.loc["etr_ds_per_s", "S10624V2"] == "1,408.24"
