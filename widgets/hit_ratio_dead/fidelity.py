"""Ledger rows of the hit-ratio chapter (its fits are in :mod:`.calibration`).

The deck gives one model-worthy data set, the IMS subpool simulation: five pool sizes, their
hit ratios and read rates. The stack-distance model is fitted to its hit ratios (two numbers
through three points above the threshold); the read rates and the I/O savings the prose quotes
restate it through each run's own get-block rate. The other rows check the deck's own arithmetic with the chapter's
definitions: prefetch's 97%, the time-saved chain, each screen's overall ratio as the
getpage-weighted mean of its pools, and its total I/O rate as I/Os over the interval.

Every tolerance is the printed rounding (a ratio's tenth of a point, a rate's last digit, an elapsed
time printed to the second), in the quantity's unit where a relative one means little.
"""
from __future__ import annotations

import math

import pandas as pd

from ..data import load_long
from ..ledger import LedgerRow
from . import model
from . import published as pub
from .calibration import threshold_fit, zipf_fit

CHAPTER = "Hit ratio is dead"
#: Half a unit of a hit ratio printed to a tenth of a percent, in points.
TENTH = 0.05
FIT_MISS = ("two numbers through three points: the stack-distance curve passes within a tenth of a point of 30.3 and "
            "49.7 but not of 40.1, so this row and the read rate that restates it miss their printed rounding")


def run_rate(row) -> float:
    """Get blocks per second of one IMS run, from its printed counts and elapsed time (per s)."""
    return float(row.get_blocks / row.elapsed_s)


def rate_rounding(reads_per_s: float, elapsed_s: float) -> float:
    """How far a read rate can move when its run's elapsed time is printed to the second (per s)."""
    return 0.5 / elapsed_s * reads_per_s


def up(x: float) -> float:
    """A tolerance rounded up to the hundredth, as the page shows it."""
    return math.ceil(100 * x - 1e-9) / 100


def overall_tolerance(screen: str) -> float:
    """Absolute tolerance of a screen's weighted mean, in points: each pool's ratio is printed to 0.1 point.

    The weighted mean of values each off by at most 0.05 point is off by at most 0.05 point;
    the printed overall ratio adds its own rounding (half a unit in its last digit).
    """
    return TENTH + 0.005


def io_rate_tolerance(screen: str) -> float:
    """Relative tolerance of I/Os / interval: the rate's last digit and a 1 s rounding of the interval."""
    rate = pub.screen_value(screen, "total", "total_io_per_s")
    elapsed = pub.screen_value(screen, "screen", "elapsed_s")
    return 0.005 / rate + 0.5 / elapsed


def _unflagged(screen: str, *metrics: str) -> bool:
    """True when no cell of these metrics on the screen was rebuilt or contradicts the others.

    A rebuilt cell came from the very identity a ledger row would check, so such a screen
    cannot test it; the chapter lists those screens with the reason.
    """
    frame = load_long(pub.STUDY, pub.SCREENS[screen])
    cells = frame[frame["metric"].isin(metrics)]
    return not (cells["flag"].str.strip() != "").any()


def hidden_getpages(screen: str) -> float:
    """Share of a screen's total getpages in pools the screen capture does not show."""
    pools = pub.screen_pools(screen)
    total = pub.screen_value(screen, "total", "total_getpages")
    return max(0.0, 1.0 - float(pools["getpages"].sum()) / total)


def ledger_rows() -> list[LedgerRow]:
    rows: list[LedgerRow] = []
    ims = pub.ims()
    sd = threshold_fit()
    hits_model = model.stack_hit_ratio(ims["pool_buffers"].to_numpy(float), sd)
    for row, h in zip(ims.itertuples(), hits_model):
        if row.hit_ratio_pct >= 1:  # the points above the threshold carry the fit
            rows.append(LedgerRow(
                chapter=CHAPTER, source=pub.cite(pub.IMS, row.run_id, "hit_ratio_pct"),
                quantity="IMS subpool hit ratio (%)",
                condition=f"{row.pool_buffers:g} buffers; stack-distance fit: 2 numbers through these 3 points",
                published=row.hit_ratio_pct, model=100 * float(h), tolerance=None, absolute=TENTH, unit="points",
                role="fitted", cell=(pub.STUDY, pub.IMS, row.run_id, "hit_ratio_pct"), basis="rounding",
                basis_note="half a unit of the ratio printed to a tenth of a percent: 0.05 points",
                miss=FIT_MISS if row.pool_buffers == 530 else ""))
    reads_model = [float(model.read_rate(run_rate(row), h)) for row, h in zip(ims.itertuples(), hits_model)]
    for row, reads in zip(ims.itertuples(), reads_model):
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.IMS, row.run_id, "blocks_read_per_s"),
            quantity="IMS blocks read per second",
            condition=f"{row.pool_buffers:g} buffers; this run's get-block rate x (1 - model hit ratio): restates "
                      "the fitted hit ratios (and the threshold bracket)",
            published=row.blocks_read_per_s, model=reads, tolerance=None,
            absolute=up(0.05 + rate_rounding(reads, row.elapsed_s)), unit="blocks per s", role="fitted",
            cell=(pub.STUDY, pub.IMS, row.run_id, "blocks_read_per_s"), basis="rounding",
            basis_note=f"half a unit of the printed '{row.blocks_read_per_s:g} /s', plus the run's elapsed time "
                       f"printed to the second ({row.elapsed_s:g} s)",
            miss=FIT_MISS if row.pool_buffers == 530 else ""))
    for run, (small, large) in {"ims_370_to_450": (1, 2), "ims_450_to_530": (2, 3), "ims_530_to_610": (3, 4)}.items():
        printed = pub.value(pub.QUOTED, run, "io_rate_saving_per_s")
        saved = reads_model[small] - reads_model[large]
        slack = sum(rate_rounding(reads_model[i], ims["elapsed_s"].iloc[i]) for i in (small, large))
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.QUOTED, run, "io_rate_saving_per_s"),
            quantity="I/Os per second saved by the next pool size",
            condition=f"{ims['pool_buffers'].iloc[small]:g} -> {ims['pool_buffers'].iloc[large]:g} buffers; "
                      "the difference of the two runs' model read rates",
            published=printed, model=float(saved), tolerance=None, absolute=up(0.5 + slack), unit="I/Os per s",
            role="fitted", cell=(pub.STUDY, pub.QUOTED, run, "io_rate_saving_per_s"), basis="rounding",
            basis_note="half a unit of the whole number the prose prints, plus the two runs' elapsed times printed "
                       "to the second"))
    printed = pub.value(pub.QUOTED, "sequential_prefetch_all_read", "application_hit_ratio_pct")
    rows.append(LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.QUOTED, "sequential_prefetch_all_read", "application_hit_ratio_pct"),
        quantity="application hit ratio of pure sequential prefetch (%)",
        condition="1 - 1/32: one I/O per 32 pages", published=printed,
        model=100 * float(model.prefetch_application_hit_ratio()), tolerance=None, absolute=0.5, unit="points",
        role="identity", basis="rounding", basis_note="half a unit of the printed whole percent '97%': 0.5 points"))
    rate_saved = pub.value(pub.QUOTED, "bp2_2002_io_saving", "io_saving_per_s")
    interval = pub.value(pub.QUOTED, "bp2_2002_io_saving", "interval_s")
    ios = model.ios_avoided(rate_saved, interval)
    rows.append(LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.QUOTED, "bp2_2002_io_saving", "ios_saved"),
        quantity="I/Os avoided in the interval", condition="72 I/O per s x 3,489 s (arithmetic)",
        published=pub.value(pub.QUOTED, "bp2_2002_io_saving", "ios_saved"), model=float(ios), tolerance=1e-9,
        role="identity", basis="exact", basis_note="integer arithmetic on the printed 72 and 3,489: exact"))
    minutes = pub.value(pub.QUOTED, "bp2_2002_io_saving", "elapsed_saving_min")
    rows.append(LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.QUOTED, "bp2_2002_io_saving", "elapsed_saving_min"),
        quantity="elapsed time saved (min)",
        condition="I/Os avoided x 4 ms synchronous I/O; 'almost 17': within half a minute",
        published=minutes,
        model=float(model.elapsed_saved_s(ios, pub.value(pub.QUOTED, "bp2_2002_bsis", "avg_sync_io_ms"))) / 60,
        tolerance=None, absolute=0.5, unit="min", role="identity", basis="rounding",
        basis_note="'almost 17 Minutes': half a unit of the whole minute printed"))
    buffers = pub.value(pub.OBJECTS, "nent_bp2_pool", "vp_size_buffers")
    vpseqt = pub.value(pub.QUOTED, "nent_bp2_sbtab22", "vpseqt_pct")
    scan_pool = model.SharedPool(buffers, 2 * buffers, 0.7, 0.9)  # a scan heavy enough to reach its cap
    hold, _ = model.scan_hold_and_random_miss(scan_pool, vpseqt)
    rows.append(LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.QUOTED, "nent_bp2_sbtab22", "seq_scan_pages_max"),
        quantity="buffers one sequential scan may hold",
        condition=f"VPSEQT {vpseqt:g}% of BP2's {buffers:,.0f} buffers",
        published=pub.value(pub.QUOTED, "nent_bp2_sbtab22", "seq_scan_pages_max"), model=float(hold) * buffers,
        tolerance=1e-9, role="identity", basis="exact", basis_note="50% of the printed 200,000 buffers: exact"))
    for screen in pub.SCREENS:
        if not _unflagged(screen, "getpages", "hit_ratio_pct", "overall_sys_hit_ratio_pct") or hidden_getpages(screen):
            continue
        pools = pub.screen_pools(screen)
        mean = model.overall_hit_ratio(pools["getpages"].to_numpy(float), pools["hit_ratio_pct"].to_numpy(float) / 100)
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.screen_cite(screen, "total", "overall_sys_hit_ratio_pct"),
            quantity="overall system hit ratio (%)",
            condition=f"screen {screen}: getpage-weighted mean of its {len(pools)} pools",
            published=pub.screen_value(screen, "total", "overall_sys_hit_ratio_pct"), model=100 * mean,
            tolerance=None, absolute=overall_tolerance(screen), unit="points", role="identity", basis="rounding",
            basis_note="each pool's ratio printed to a tenth (0.05 points in the mean), plus the overall ratio's "
                       "hundredth (0.005)"))
    for screen in pub.SCREENS:
        if not _unflagged(screen, "total_read_write_io", "total_io_per_s", "elapsed_s"):
            continue
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.screen_cite(screen, "total", "total_io_per_s"),
            quantity="total I/Os per second",
            condition=f"screen {screen}: total read/write I/Os / elapsed seconds",
            published=pub.screen_value(screen, "total", "total_io_per_s"),
            model=float(model.io_rate(pub.screen_value(screen, "total", "total_read_write_io"),
                                      pub.screen_value(screen, "screen", "elapsed_s"))),
            tolerance=io_rate_tolerance(screen), role="identity", basis="rounding",
            basis_note="half a unit of the printed rate, plus the interval printed to the second"))
    return rows + zipf_rows() + bridge_rows()


ZIPF_MISS = "an independent-reference LRU curve is concave: it cannot stay flat and then jump at the loop's size"


def zipf_rows() -> list[LedgerRow]:
    """The best independent-reference (Che, power-law) curve at each IMS pool above 0%: fitted, and missing."""
    pages, skew, _ = zipf_fit()
    ims = pub.ims()
    h = model.zipf_hit_ratio(ims["pool_buffers"].to_numpy(float), pages, skew)
    return [LedgerRow(
        chapter=CHAPTER, source=pub.cite(pub.IMS, row.run_id, "hit_ratio_pct"),
        quantity="IMS subpool hit ratio (%), independent references",
        condition=f"{row.pool_buffers:g} buffers; Che's approximation, power law fitted to all 5 points "
                  f"({pages:,.0f} pages, skew {skew:.2f})", published=row.hit_ratio_pct, model=100 * float(x),
        tolerance=None, absolute=TENTH, unit="points", role="fitted",
        cell=(pub.STUDY, pub.IMS, row.run_id, "hit_ratio_pct"), basis="rounding",
        basis_note="half a unit of the ratio printed to a tenth of a percent: 0.05 points", miss=ZIPF_MISS)
        for row, x in zip(ims.itertuples(), h) if row.hit_ratio_pct > 0]


def bridge_rows() -> list[LedgerRow]:
    """The large-memory runs' sync reads predicted from their total hit ratios alone (no fit; both miss).

    Tolerance: what the hit ratio's printed rounding (0.005 point) can move the prediction.
    """
    out = []
    for p, run in zip(bridge_predictions(), pub.large_memory_runs().iloc[1:].itertuples()):
        out.append(LedgerRow(
            chapter=CHAPTER, source=run.source, quantity="sync reads per s of a large-memory run",
            condition=f"{p['run']}, {run.pool_gb:g} GB, hit ratio {p['hit_ratio_pct']}%: predicted from the hit ratio, "
                      "scaling the 161 GB run's getpages by ETR", published=p["measured"], model=p["predicted"],
            tolerance=0.005 / (100 - p["hit_ratio_pct"]), role="predicted", basis="rounding",
            basis_note="what the hit ratio's printed hundredth (0.005 points) moves the prediction by",
            cell=("large_memory", pub.LARGE_MEMORY_TABLE, p["run"], "sync_reads_per_s"),
            miss="the total hit ratio mixes page sizes and prefetch; it does not measure sync reads"))
    return out


def negative_pools():
    """Every pool the screens print with a negative system ratio, and what its counts imply.

    Pages read = getpages x (1 - ratio). Read I/Os are the read rate x the interval where the
    screen splits reads from writes, otherwise all I/Os (an upper bound, which keeps the bounds
    below valid). Returns a DataFrame with the lower bound on prefetched pages per getpage and
    the upper bound on the share of them any getpage touched.
    """
    rows = []
    for screen in pub.SCREENS:
        pools = pub.screen_pools(screen)
        elapsed = pub.screen_value(screen, "screen", "elapsed_s")
        for name, pool in pools[pools["hit_ratio_pct"] < 0].iterrows():
            split = "rio_per_s" in pools and pool["rio_per_s"] == pool["rio_per_s"]
            reads = pool["rio_per_s"] * elapsed if split else pool["io"]
            pages = pool["getpages"] * (1 - pool["hit_ratio_pct"] / 100)
            least = float(model.prefetched_pages_at_least(pool["getpages"], pages, reads))
            rows.append({
                "screen": screen, "pool": name, "getpages": int(pool["getpages"]),
                "system hit ratio (%)": pool["hit_ratio_pct"], "pages read": round(pages),
                "read I/Os": round(reads), "read I/Os are": "reads" if split else "reads + writes (bound)",
                "prefetched pages per getpage, at least": least / pool["getpages"],
                "share of prefetched pages touched, at most (%)":
                    100 * float(model.touched_share_at_most(pool["getpages"], pages, reads))})
    return pd.DataFrame(rows)


def bridge_predictions() -> list[dict]:
    """Sync reads per s of the large-memory runs predicted from their hit ratios alone.

    Reads = getpages x (1 - hit ratio), with the getpage rate scaled by ETR from the smallest
    run: what "the hit ratio went from 90.30% to 99.84%" would say about I/O if it could.
    """
    runs = pub.large_memory_runs()
    base = runs.iloc[0]
    per_ds = base["sync_reads_per_s"] / (1 - base["hit_ratio_pct"] / 100) / base["etr_ds_per_s"]
    return [{"run": r.run, "hit_ratio_pct": r.hit_ratio_pct, "measured": r.sync_reads_per_s,
             "predicted": float(model.read_rate(per_ds * r.etr_ds_per_s, r.hit_ratio_pct / 100))}
            for r in runs.iloc[1:].itertuples()]


def misses() -> list[dict]:
    """What the models and the deck's own numbers do not reproduce, shown rather than hidden."""
    out = []
    before = pub.screen_value("2003-07-02", "total", "total_getpages")
    after = pub.screen_value("2003-10-06", "total", "total_getpages")
    out.append({"what": "getpage growth, HNB1 2003-07-02 to 2003-10-06",
                "published": f"about {pub.value(pub.QUOTED, 'hnb1_2003_07_to_10', 'getpage_increase_pct'):g}%",
                "model": f"{100 * (after / before - 1):.1f}% from the two screens' totals",
                "why": "the prose rounds generously; the screens are the data"})
    for screen in pub.SCREENS:
        hidden = hidden_getpages(screen)
        if hidden > 0:
            pools = pub.screen_pools(screen)
            mean = model.overall_hit_ratio(pools["getpages"].to_numpy(float),
                                           pools["hit_ratio_pct"].to_numpy(float) / 100)
            printed = pub.screen_value(screen, "total", "overall_sys_hit_ratio_pct")
            needed = (printed - 100 * mean * (1 - hidden)) / hidden
            verdict = ("more than any pool can show: a cell is misread (flagged in the data)" if needed > 105
                       else "possible, so this screen cannot test the identity")
            out.append({"what": f"screen {screen}: overall system hit ratio",
                        "published": f"{printed:g}%",
                        "model": f"{100 * mean:.2f}% from the visible pools",
                        "why": f"{100 * hidden:.1f}% of the getpages are in pools the capture does not show; "
                               f"they would need a {needed:.0f}% ratio, {verdict}"})
    return out
