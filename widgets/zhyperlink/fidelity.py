"""Ledger rows of the zHyperLink chapter (its fits are in :mod:`.calibration`), and their tolerances.

The text prints percentages only. Each model therefore has as many unknowns as published
points, or more, and the latencies it cannot determine are *assumptions* (sliders). Rows that a
fit reproduces by construction say so. The combination of ZHYPERLINK options is an additivity
test: two printed cuts of one baseline predict the third (one equation, a + b - ENABLE = 0, shown
against each of the three cuts), to within a borrowed stand-in for the noise of a benchmark measured once.

Tolerances come from the data (issue 25). The cuts are percentages, some of them small (1.9%), so
every tolerance that is not exact is stated in points of the baseline: the printed rounding (half a
unit of the last digit) or, for the options, the spread of an elapsed time the Redbook prints twice for
another workload, the low end of the noise levels the Redbook states in words (:data:`STATED_NOISE`).
"""
from __future__ import annotations

from dataclasses import replace

from .. import identities
from ..data import number
from ..ledger import LedgerRow
from . import model
from . import published as pub
from .calibration import calibrated_path, log_share, read_calibration

CHAPTER = "zHyperLink"

#: The Redbook's own words on its measurement noise (SG24-8536, seed 004): (per cent, line, quotation). Each is a
#: difference between two runs of *another* workload and another quantity (CPU time, group ITR), so they bracket
#: the noise of a brokerage elapsed time rather than measure it: 0.7% is "within" the noise, 3.3% "barely above".
STATED_NOISE = (
    (0.7, 10861, "Class 2 CPU time has a slight increase of 0.7%, which is within the measurement noise level"),
    (3.3, 2701, "a mere 3.3% difference and barely above the measurement noise level"),
)


def run_to_run_noise() -> float:
    """Relative difference of an elapsed time the Redbook prints twice (a fraction): a borrowed stand-in.

    The Redbook repeats no brokerage run. SQL Data Insights' Table_1 training run is printed twice,
    5.48 min in Table 6-3 and 5.52 min in Table 6-5 (0.73%); it is another workload (a Spark training
    run on z16, not OLTP on z15), and the Redbook does not say the two runs had the same conditions.
    We take it as the low end of the noise of one elapsed time (an argued value, not a fitted one):
    the same pair differs by far more in Db2 CPU and peak memory, and the Redbook calls differences of
    0.7% to 3.3% "within" or "barely above" its noise (:data:`STATED_NOISE`). One pair is one degree
    of freedom, so the true spread could be several times larger or smaller.
    """
    first = number("sql_data_insights", "t6_3_shapes.csv", "table_1", "total_elapsed_min")
    second = number("sql_data_insights", "t6_5_concurrent_runs.csv", "single", "total_elapsed_min")
    return abs(second / first - 1)


def option_noise_points(noise: float | None = None) -> float:
    """Uncertainty, in points of the baseline, of a + b - ENABLE from four noisy runs.

    The three cuts come from four elapsed times (baseline, DATABASE, ACTIVELOG, ENABLE), each with
    relative noise ``noise`` (a fraction; the borrowed :func:`run_to_run_noise` unless given); the
    combination's spread is noise * sqrt(sum of (T_i / T_0)^2), in points.
    """
    e = run_to_run_noise() if noise is None else noise
    if not 0 <= e < 1:
        raise ValueError(f"noise={e!r} must be a fraction in [0, 1)")
    ratios = [1.0] + [1 - _cut(run) for run in ("option_database", "option_activelog", "option_enable")]
    return 100 * e * sum(r * r for r in ratios) ** 0.5


#: Half a unit (0.05 point) of each of the three printed cuts, in points.
OPTION_ROUNDING_POINTS = 3 * 0.05


def option_tolerance_points() -> float:
    """The tolerance the option rows use, in points: the borrowed noise through four runs plus the rounding."""
    return round(option_noise_points() + OPTION_ROUNDING_POINTS, 2)


def stated_noise_points() -> tuple[float, float]:
    """The Redbook's stated noise levels (0.7% and 3.3%, :data:`STATED_NOISE`) carried through four runs, in points."""
    return tuple(option_noise_points(pct / 100) for pct, _, _ in STATED_NOISE)


#: The basis note of a row a fit reproduces by construction.
EXACT_FIT = "as many unknowns as printed points: the fit passes through this number by construction"


def _points(row: LedgerRow, note: str) -> LedgerRow:
    """An identity row held, in points, to the printed rounding of its cells (its slack, made absolute); a
    number printed in words on both sides ("reduced by half", "a minimum of 20%") is compared exactly."""
    slack = row.tolerance * abs(row.published)
    if slack < 1e-6:
        return replace(row, basis="exact", basis_note="both numbers printed in words or as the same whole percent; "
                                                      "compared exactly")
    return replace(row, tolerance=None, absolute=slack, unit="points", basis="rounding", basis_note=note)


def _cell(run_id: str, metric: str) -> dict:
    return identities.cell(pub.STUDY, pub.RESULTS, run_id, metric)


def _cut(run_id: str, metric: str = "elapsed_change_pct") -> float:
    """A printed reduction as a positive fraction."""
    return -pub.value(run_id, metric) / 100


def read_rows() -> list[LedgerRow]:
    """The read model through both elapsed-time points: exact by construction."""
    rows = []
    other, _ = read_calibration()
    path = calibrated_path()
    for run in ("db_read_10gb_pool", "db_read_70gb_pool"):
        n = pub.value(run, "random_reads_per_tx_count")
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.RESULTS, run, "elapsed_change_pct"),
            quantity="elapsed-time reduction (%)",
            condition=f"{n:g} random reads per transaction; read model through both points: exact by construction",
            published=-pub.value(run, "elapsed_change_pct"),
            model=100 * float(model.elapsed_reduction(n, other, path)), tolerance=0.001, role="fitted",
            basis="exact", basis_note=EXACT_FIT, cell=(pub.STUDY, pub.RESULTS, run, "elapsed_change_pct")))
    return rows


def option_rows() -> list[LedgerRow]:
    """One additivity check (no fit), shown against each of the three ZHYPERLINK option cuts.

    DATABASE and ACTIVELOG each remove their own part of the same baseline, so ENABLE = a + b. The
    three rows are one equation, a + b - ENABLE = 0, so they count as one test: the ENABLE row is the
    prediction, the other two restate it (role ``identity``, the same residual). The tolerance is the
    borrowed noise carried through the four runs involved (:func:`option_noise_points`, the low end of
    what the Redbook calls noise) plus the printed rounding (0.05 point for each of three cuts): the
    test can tell additivity from a gross error, not from the product rule, which lies 0.5 point away.
    """
    a, b, e = _cut("option_database"), _cut("option_activelog"), _cut("option_enable")
    cases = (  # (run, published cut, model cut, how, role)
        ("option_enable", e, float(model.combined_reduction(a, b)), "predicted by additivity from DATABASE 25.9% "
         "+ ACTIVELOG 1.9% (the one additivity test)", "predicted"),
        ("option_database", a, e - b, "the same equation restated, ENABLE 27.4% - ACTIVELOG 1.9%: not a second "
         "test", "identity"),
        ("option_activelog", b, e - a, "the same equation restated, ENABLE 27.4% - DATABASE 25.9%: not a second "
         "test", "identity"),
    )
    first = number("sql_data_insights", "t6_3_shapes.csv", "table_1", "total_elapsed_min")
    second = number("sql_data_insights", "t6_5_concurrent_runs.csv", "single", "total_elapsed_min")
    low, high = stated_noise_points()
    note = (f"a borrowed stand-in from another workload: the Redbook repeats no brokerage run, and prints one "
            f"elapsed time twice (SQL Data Insights' Table_1 training run: {first:g} min in Table 6-3, {second:g} min "
            f"in Table 6-5, {100 * run_to_run_noise():.2f}% apart), carried through the four runs (baseline, "
            f"DATABASE, ACTIVELOG, ENABLE) to {option_noise_points():.2f} points, plus half a unit (0.05 point) of "
            f"each of the three printed cuts. It is the low end: the Redbook calls a 0.7% difference \"within the "
            f"measurement noise level\" and a 3.3% one \"barely above\" it (CPU time, group ITR), "
            f"{low:.1f} to {high:.1f} points through four runs")
    return [LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.RESULTS, run, "elapsed_change_pct"),
        quantity=f"elapsed-time reduction (%), ZHYPERLINK={run.split('_')[1].upper()}",
        condition=f"{how}; tolerance: borrowed noise", published=100 * printed,
        model=100 * modelled, tolerance=None, absolute=option_tolerance_points(), unit="points", basis="spread",
        basis_note=note, role=role,
        cell=(pub.STUDY, pub.RESULTS, run, "elapsed_change_pct"))
        for run, printed, modelled, how, role in cases]


def cpu_rows() -> list[LedgerRow]:
    """CPU change = n x (cost per read): the cost fitted at 28 reads, the 70 GB run predicted (a known miss)."""
    n10, n70 = (pub.value(r, "random_reads_per_tx_count") for r in ("db_read_10gb_pool", "db_read_70gb_pool"))
    c10, c70 = (_cell(r, "cpu_change_pct") for r in ("cpu_clean_lpar_10gb_pool", "cpu_clean_lpar_70gb_pool"))
    per_read = c10["value"] / n10
    return [
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.RESULTS, "cpu_clean_lpar_10gb_pool", "cpu_change_pct"),
                  quantity="LPAR CPU increase (%), clean LPAR",
                  condition=f"10 GB pools, {n10:g} reads per transaction; cost per read = 13.8% / {n10:g}: exact by "
                            "construction", published=c10["value"], model=per_read * n10, tolerance=0.001,
                  role="fitted", basis="exact", basis_note=EXACT_FIT, cell=c10["key"]),
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.RESULTS, "cpu_clean_lpar_70gb_pool", "cpu_change_pct"),
                  quantity="LPAR CPU increase (%), clean LPAR",
                  condition=f"70 GB pools, {n70:g} reads per transaction; predicted with the 10 GB run's cost per read",
                  published=c70["value"], model=round(per_read * n70, 2), tolerance=None,  # to 0.01 point
                  absolute=round(identities.half_unit(c70["printed"])
                                 + n70 / n10 * identities.half_unit(c10["printed"]), 2),
                  unit="points", basis="rounding",
                  basis_note=f"half a unit of the printed {c70['printed']} (0.5 point) and of {c10['printed']} "
                             f"(0.05 point) scaled by {n70:g}/{n10:g} reads", role="predicted", cell=c70["key"],
                  miss="5% at 7.5 reads is 0.67% per read, 13.8% at 28 reads only 0.49%: either part of the CPU "
                       "cost does not scale with the reads, or the 70 GB baseline (fewer asynchronous reads) is "
                       "smaller; two points cannot tell"),
    ]


def log_rows() -> list[LedgerRow]:
    """Latency = log share x log-wait cut (+ latch share x latch cut with index splits)."""
    share = log_share()
    wait2, latch2 = _cut("log_write_index_split", "log_wait_change_pct"), _cut("log_write_index_split",
                                                                              "latch_time_change_pct")
    latency2 = _cut("log_write_index_split", "latency_change_pct")
    latch_share = (latency2 - share * wait2) / latch2  # one number, one unknown
    one_way = _cell("log_write", "latency_change_pct")
    two_way = _cell("log_write_index_split", "latency_change_pct")
    return [
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.RESULTS, "log_write", "latency_change_pct"),
                  quantity="transaction latency reduction (%)",
                  condition=f"one-way data sharing, log wait -54%; log share {share:.0%} = 24/54: "
                            "exact by construction",
                  published=-one_way["value"],
                  model=100 * float(model.commit_latency_reduction(share, _cut("log_write", "log_wait_change_pct"))),
                  tolerance=0.001, role="fitted", basis="exact", basis_note=EXACT_FIT, cell=one_way["key"]),
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.RESULTS, "log_write_index_split", "latency_change_pct"),
                  quantity="transaction latency reduction (%)",
                  condition=f"two-way data sharing with index splits, log wait -63%; predicted with the one-way log "
                            f"share {share:.0%} alone", published=-two_way["value"],
                  model=100 * float(model.commit_latency_reduction(share, wait2)),
                  tolerance=None, absolute=0.5, unit="points", basis="rounding",
                  basis_note="printed as a whole percent (40%): half a unit, 0.5 point", role="predicted",
                  cell=two_way["key"],
                  miss="index splits make Db2 hold a latch during the log write, and the latch wait (-41%) falls "
                       "too; the two-way test also differs in members, threads and indexes, so its log share is "
                       "unknown"),
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.RESULTS, "log_write_index_split", "latency_change_pct"),
                  quantity="transaction latency reduction (%)",
                  condition=f"two-way, index splits: log share {share:.0%} + latch share {latch_share:.0%} fitted to "
                            "this number (latch -41%): exact by construction", published=-two_way["value"],
                  model=100 * float(model.commit_latency_reduction(min(share, 1 - latch_share), wait2, latch_share,
                                                                   latch2)),
                  tolerance=0.001, role="fitted", basis="exact", basis_note=EXACT_FIT, cell=two_way["key"]),
    ]


def write_rows() -> list[LedgerRow]:
    """The two-way index-split log wait, predicted from the one-way test (no fit).

    The zHyperLink write is one device path, so the simplest model carries the one-way test's 54%
    log-wait cut over unchanged to the two-way index-split test: it tests only "same link, same
    cut", not the size of a cut, which no model here explains. Held to the printed rounding, it
    misses. The striped 128-record writes are not carried over here: the Redbook states beforehand
    that the gain shrinks as writes grow, so that comparison is an illustration of the model's
    missing write-size term (:func:`misses`), not a prediction.
    """
    one_wait = _cell("log_write", "log_wait_change_pct")
    two_wait = _cell("log_write_index_split", "log_wait_change_pct")
    return [
        LedgerRow(chapter=CHAPTER, source=pub.cite(pub.RESULTS, "log_write_index_split", "log_wait_change_pct"),
                  quantity="log write wait reduction (%)",
                  condition="two-way data sharing with index splits; predicted as the one-way test's cut (54%): "
                            "the same zHyperLink write", published=-two_wait["value"], model=-one_wait["value"],
                  tolerance=None, absolute=1.0, unit="points", basis="rounding",
                  basis_note="both printed as whole percents (63%, 54%): half a unit (0.5 point) of each",
                  role="predicted", cell=two_wait["key"],
                  miss="the two-way test's wait fell more; we read two causes the data cannot separate, one run "
                       "each: forced writes at index splits may be small, and the Redbook shows the gain shrinking "
                       "as writes grow, or more of the wait is queueing behind other writes, which a faster write "
                       "also removes (the summary prints 69%, not 63%)"),
    ]


def limit_rows() -> list[LedgerRow]:
    """The largest Db2 log write, printed in records and in K: 128 records of 4 K = 512 K."""
    records = identities.cell(pub.STUDY, pub.LIMITS, "write_limits", "db2_log_write_max_records_count")
    kilobytes = identities.cell(pub.STUDY, pub.LIMITS, "write_limits", "db2_log_write_max_kb")
    # built here, not with identities.formula_row: its rounding reads the printed "512 K" as thousands
    return [LedgerRow(chapter=CHAPTER, source=pub.cite(pub.LIMITS, "write_limits", "db2_log_write_max_kb"),
                      quantity="largest active log write (K)", condition="128 records of 4 K each, as printed",
                      published=kilobytes["value"], model=4 * records["value"], tolerance=1e-9, role="identity",
                      basis="exact", basis_note="whole numbers multiplied: exact to the printed digits",
                      cell=kilobytes["key"])]


def repeat_rows() -> list[LedgerRow]:
    """Numbers the summary of results prints again: each against the result it summarises."""
    pairs = (
        ("db_read_summary", "response_time_change_pct", "db_read_10gb_pool", "elapsed_change_pct",
         "response time 'up to 50%' against the 10 GB run's halving", ""),
        ("log_write_summary", "log_wait_change_pct", "log_write", "log_wait_change_pct",
         "one-way log wait, summary against results", ""),
        ("log_write_summary", "elapsed_change_pct", "log_write", "latency_change_pct",
         "one-way elapsed time (summary) against transaction latency (results)", ""),
        ("log_write_index_split_summary", "log_wait_change_pct", "log_write_index_split", "log_wait_change_pct",
         "two-way index-split log wait, summary (69%) against results (63%)",
         "the source prints 63% in the results and 69% in the summary for the same test (flagged)"),
        ("log_write_index_split_summary", "elapsed_change_pct", "log_write_index_split", "latency_change_pct",
         "two-way index-split elapsed time, summary against results", ""),
        ("log_write_large_summary", "elapsed_change_pct", "log_write_large", "avg_response_time_change_pct",
         "striped logs, 128-record writes: 'a minimum of 20%' against 'approximately 20%'", ""),
    )
    return [_points(identities.repeat_row(CHAPTER, pub.cite(pub.RESULTS, run, metric), "reduction as printed twice (%)",
                                          how, _cell(run, metric), _cell(other, other_metric), miss=miss),
                    "both printed as whole percents: half a unit (0.5 point) of each")
            for run, metric, other, other_metric, how, miss in pairs]


def ledger_rows() -> list[LedgerRow]:
    return option_rows() + cpu_rows() + log_rows() + write_rows() + read_rows() + repeat_rows() + limit_rows()


def misses() -> list[dict]:
    """What the simple models do not reproduce, shown rather than hidden."""
    a = -pub.value("option_database", "elapsed_change_pct")
    b = -pub.value("option_activelog", "elapsed_change_pct")
    enable = -pub.value("option_enable", "elapsed_change_pct")
    large = _cell("log_write_large", "avg_response_time_change_pct")
    small = -pub.value("log_write", "latency_change_pct")
    return [
        {"quantity": "ENABLE, product rule 1 - (1 - a)(1 - b) (the other combining rule; inside the noise, like a + b)",
         "published": enable,
         "model": round(100 * float(model.combined_reduction(a / 100, b / 100, multiplicative=True)), 2),
         "error": f"{float(model.combined_reduction(a / 100, b / 100, multiplicative=True)) * 100 / enable - 1:+.1%}"},
        {"quantity": "striped writes of 128 4-K records: the one-way small-write latency cut carried over (an "
                     "illustration of the missing write-size term, not a prediction: the Redbook states the outcome, "
                     "and striping and more inserts per commit also changed)",
         "published": -large["value"], "model": small,
         "error": f"{small - -large['value']:+.0f} points ('approximately 20%', read as a round figure: +/-2.5 "
                  "points; still outside)"},
    ]
