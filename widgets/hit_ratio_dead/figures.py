"""The hit-ratio chapter's figures (one model, three surfaces), plus the eyeball chart of a screen."""
from __future__ import annotations

from functools import partial

import altair as alt
import numpy as np
import pandas as pd

from ..citations import cite
from ..figure import Axis, Figure, Param
from . import calibration as cal
from . import model
from . import published as pub

STUDY = "hit_ratio_dead"
COLORS = {
    "stack distances: loop + spread": "#4c78a8", "independent references: best fit": "#f58518",
    "published: IMS simulation": "#222222",
    "application hit ratio": "#4c78a8", "system hit ratio": "#e45756",
    "random getpages: hit ratio": "#4c78a8", "scan: share of the pool held": "#f58518",
    "reads = getpages x (1 - hit ratio)": "#4c78a8", "published: large-memory runs": "#222222",
}
_figure = partial(Figure, STUDY, colors=COLORS)

# --- 1. the critical threshold ---------------------------------------------------------------------

_FIT = cal.threshold_fit()
LOOP = Param("loop_pages", "Loop working set", "buffers", 100, 1000, cal.THRESHOLD_DEFAULT, 5, 40,
             static_min=250, static_max=610,  # steps of 40 hold the data's bounds, 370 and 450, and 410 between
             help="the pages a repeated pass touches; the data put it between 370 and 450")
LOOP_SHARE = Param("loop_share", "Share of references in the loop", "", 0.0, 0.9, round(_FIT.loop_share, 2),
                   0.01, 0.05, static_min=0.15, static_max=0.35,
                   help="fitted: the height of the jump when the pool first holds the loop")


def _zipf_curve(pool_buffers):
    pages, skew, _ = cal.zipf_fit()
    return model.zipf_hit_ratio(pool_buffers, pages, skew)


def _hit_ratios(pool_buffers, s: cal.Scenario) -> dict:
    """Hit ratios (fractions) of both models at these pool sizes (the stack distances: the sliders' loop
    size and loop share, the spread width fitted)."""
    return {"stack distances: loop + spread": model.stack_hit_ratio(pool_buffers, s),
            "independent references: best fit": _zipf_curve(pool_buffers)}


def threshold_curves(pool_buffers, s: cal.Scenario):
    """Hit ratio (%) of an LRU pool: the stack-distance model and the best independent-reference curve."""
    return {name: 100 * h for name, h in _hit_ratios(pool_buffers, s).items()}


def read_rate_curves(pool_buffers, s: cal.Scenario):
    """Blocks read per second at the measured get-block rate, for both models."""
    rate = cal.get_block_rate()
    return {name: model.read_rate(rate, h) for name, h in _hit_ratios(pool_buffers, s).items()}


def _ims_points(column: str, metric: str) -> pd.DataFrame:
    t = pub.ims()
    return pd.DataFrame({"x": t["pool_buffers"], "y": t[column], "series": "published: IMS simulation",
                         "condition": [f"{b:g}-buffer subpool" for b in t["pool_buffers"]],
                         "source": [pub.cite(pub.IMS, r, metric) for r in t["run_id"]]})


POOL_AXIS = Axis("pool", "Subpool size (buffers)", format=",.0f")
#: Every 50 buffers, plus both sides of each static loop size, so the static jump is drawn as a jump.
POOL_BUFFERS = np.union1d(np.arange(0.0, 1201.0, 50.0),
                          np.concatenate([LOOP.static_values() - 1, LOOP.static_values()]))
THRESHOLD = _figure(
    "threshold", "The critical threshold: hit ratio against pool size",
    POOL_AXIS, Axis("hit", "Hit ratio (%)", format=".0f"), POOL_BUFFERS,
    threshold_curves, (LOOP, LOOP_SHARE), published=_ims_points("hit_ratio_pct", "hit_ratio_pct"),
    subtitle="A loop's re-references all sit at one stack distance: no hits until the pool holds it.")
READS = _figure(
    "reads", "Blocks read per second against pool size",
    POOL_AXIS, Axis("reads", "Blocks read per second", format=",.0f"), POOL_BUFFERS,
    read_rate_curves, (LOOP, LOOP_SHARE), published=_ims_points("blocks_read_per_s", "blocks_read_per_s"),
    subtitle="Predicted: the get-block rate of the smallest run x (1 - hit ratio).")

# --- 2. the hit-ratio builder ----------------------------------------------------------------------

SEQ = Param("sequential_share", "Sequential share of getpages", "", 0.0, 1.0, 0.6, 0.01, 0.1)
MISS = Param("random_miss", "Random getpages that miss", "", 0.0, 1.0, 0.3, 0.01, 0.1)
QUANTITY = Param("pages_per_prefetch", "Pages per prefetch I/O", "pages", 1, 32, 32, 1, 1,
                 end="32 pages is the most one prefetch I/O reads (Goldstein: \"anywhere from 0 to 32 pages\").")


def builder_curves(touched, s: cal.Scenario):
    """Application and system hit ratios (%) against the share of prefetched pages ever touched."""
    app, system = model.mix_hit_ratios(model.PoolMix(s.sequential_share, s.random_miss,
                                                     np.asarray(touched, dtype=float), s.pages_per_prefetch))
    return {"application hit ratio": 100 * app, "system hit ratio": 100 * system}


BUILDER = _figure(
    "builder", "Two hit ratios of one pool: prefetched pages nobody touches",
    Axis("touched", "Share of prefetched pages that a getpage ever asks for", format=".0%"),
    Axis("ratio", "Hit ratio (%)", format=".0f"), np.round(np.arange(0.3, 1.0001, 0.05), 4),
    builder_curves, (SEQ, MISS), live_params=(QUANTITY,),
    subtitle="Every prefetched page counts against the system ratio; only the I/O counts against the application's.")

# --- 3. scans and VPSEQT --------------------------------------------------------------------------------

POOL = pub.value(pub.OBJECTS, "nent_bp2_pool", "vp_size_buffers")  # BP2 of 2004 (NENT): 200,000 buffers, VPSEQT 50
SCAN = Param("scan_share", "Scan's share of getpages", "", 0.0, 0.9, 0.5, 0.01, 0.1)
RANDOM_PAGES = Param("random_ratio", "Random pages / pool buffers", "x", 0.2, 5.0, 2.0, 0.05, 0.4,
                     static_min=0.4, static_max=4.4,
                     help="how much data the random objects touch, relative to the pool")
SKEW = Param("skew", "Popularity skew of the random pages", "", 0.3, 0.95, 0.7, 0.01, 0.1)


def vpseqt_curves(vpseqt_pct, s: cal.Scenario):
    """The random getpages' hit ratio and the scan: share of the pool held (%), against VPSEQT (%)."""
    pool = model.SharedPool(POOL, s.random_ratio * POOL, s.skew, s.scan_share)
    hold, miss = model.scan_hold_and_random_miss(pool, vpseqt_pct)
    return {"random getpages: hit ratio": 100 * (1 - miss), "scan: share of the pool held": 100 * hold}


VPSEQT_MARKS = pd.DataFrame([
    {"x": 80, "label": "BP25: 80", "source": pub.cite(pub.QUOTED, "c13a_bp25_dinv1", "vpseqt_pct")},
    {"x": 50, "label": "BP2: 50", "source": pub.cite(pub.QUOTED, "nent_bp2_sbtab22", "vpseqt_pct")},
    {"x": 25, "label": "advice: 25 or less",
     "source": pub.cite(pub.QUOTED, "c13a_bp25_dinv1", "vpseqt_recommended_max_pct")},
])
VPSEQT = _figure(
    "vpseqt", "A scan shares a 200,000-buffer pool: what the sequential threshold protects",
    Axis("vpseqt", "VPSEQT (% of the pool sequential pages may hold)", format=".0f"),
    Axis("pct", "Percent", format=".0f"), np.arange(0.0, 100.001, 5.0),
    vpseqt_curves, (SCAN, RANDOM_PAGES), live_params=(SKEW,), marks=VPSEQT_MARKS, reconstruction=True,
    subtitle="Che's approximation for the random objects; the scan never re-reads a page.")

# --- 4. hit ratio against reads: the bridge to the large-memory chapter -------------------------------

def large_memory_points() -> pd.DataFrame:
    """The three isolated-pool runs of the large-memory study: total hit ratio and sync reads per s."""
    runs = pub.large_memory_runs()
    return pd.DataFrame({"x": runs["hit_ratio_pct"], "y": runs["sync_reads_per_s"],
                         "series": "published: large-memory runs",
                         "condition": [f"{r}, {gb:g} GB of pools" for r, gb in zip(runs["run"], runs["pool_gb"])],
                         "source": runs["source"]})


GETPAGES = Param("getpage_rate", "Getpage rate", "thousand per s", 50, 1000, 400, 1, 50,
                 calibrated=round(cal.anchor_getpage_rate() / 1000, 1), help="through the 161 GB run by default")


def bridge_curves(hit_pct, s: cal.Scenario):
    """Reads per second (log axis) against the hit ratio (%), at a fixed getpage rate."""
    return {"reads = getpages x (1 - hit ratio)": model.read_rate(s.getpage_rate * 1000, np.asarray(hit_pct) / 100)}


BRIDGE = _figure(
    "bridge", "A linear hit ratio against a logarithmic read rate",
    Axis("hit", "Hit ratio (%)", format=".1f"), Axis("reads", "Reads per second", scale="log", format=",.3~s"),
    np.union1d(np.round(np.arange(85.0, 99.8, 0.35), 2), [99.5, 99.7, 99.84, 99.9]), bridge_curves, (GETPAGES,),
    published=large_memory_points(),
    subtitle="Each point of hit ratio near 100% is worth more reads than the last.")

ALL = (THRESHOLD, READS, BUILDER, VPSEQT, BRIDGE)

# --- the eyeball chart: a screen's pools by hit ratio and by I/O rate ------------------------------------


def eyeball_table(screen: str) -> pd.DataFrame:
    """A screen's pools ranked by hit ratio (high first) and by I/O rate (high first)."""
    pools = pub.screen_pools(screen)
    rate = pools["io_per_s"] if "io_per_s" in pools else pools["rio_per_s"] + pools["wio_per_s"]
    table = pd.DataFrame({"pool": pools.index, "getpages": pools["getpages"], "hit ratio (%)": pools["hit_ratio_pct"],
                          "I/O per s": rate}).dropna().reset_index(drop=True)
    table["rank by hit ratio"] = table["hit ratio (%)"].rank(ascending=False, method="min").astype(int)
    table["rank by I/O rate"] = table["I/O per s"].rank(ascending=False, method="min").astype(int)
    return table.sort_values("I/O per s", ascending=False, ignore_index=True)


def eyeball_chart(screen: str) -> alt.Chart:
    """Each pool as a point: hit ratio across, I/O rate up (log). A good ratio can hide a big rate."""
    table = eyeball_table(screen).assign(rate=lambda t: t["I/O per s"].clip(lower=0.01))
    base = alt.Chart(table).encode(
        x=alt.X("hit ratio (%):Q", scale=alt.Scale(zero=False)),
        y=alt.Y("rate:Q", title="I/O per second (log; 0 shown at 0.01)", scale=alt.Scale(type="log")),
        tooltip=["pool:N", alt.Tooltip("getpages:Q", format=","), "hit ratio (%):Q", "I/O per s:Q",
                 "rank by hit ratio:Q", "rank by I/O rate:Q"])
    points = base.mark_circle(color="#4c78a8", opacity=0.85).encode(size=alt.Size("getpages:Q", legend=None))
    labels = base.mark_text(align="left", dx=7, fontSize=11).encode(text="pool:N")
    minutes = pub.screen_value(screen, "screen", "elapsed_s") / 60
    return (points + labels).properties(
        width=520, height=300, title=alt.TitleParams(
            f"Pool Info screen {screen}: hit ratio against I/O rate",
            subtitle=[f"Each point a pool (size: getpages), over {minutes:.1f} minutes. Source: "
                      f"{cite(STUDY, pub.SCREENS[screen])}."], anchor="start"))


# --- the Buffer Pool Tool's charts (the simulator's tables, drawn) ----------------------------------


def layout_chart(table: pd.DataFrame) -> alt.Chart:
    """I/O per second of each split pool, their sum and one big pool, labelled with hit ratios."""
    pools = table[table["buffers"].notna()].assign(
        label=lambda t: [f"{r:,.0f} I/O per s | app {a:.1f}% | sys {s:.1f}%" for r, a, s in
                         zip(t["I/O per s"], t["application hit ratio (%)"], t["system hit ratio (%)"])])
    base = alt.Chart(pools).encode(
        y=alt.Y("pool or object:N", sort=None, title=None),
        x=alt.X("I/O per s:Q", title="Read I/Os per second"),
        tooltip=["pool or object:N", "buffers:Q", alt.Tooltip("getpages:Q", format=","),
                 alt.Tooltip("application hit ratio (%):Q", format=".1f"),
                 alt.Tooltip("system hit ratio (%):Q", format=".1f"), alt.Tooltip("I/O per s:Q", format=".1f")])
    bars = base.mark_bar(height=16, yOffset=-6).encode(color=alt.Color("layout:N", title=None,
                                                                     scale=alt.Scale(range=["#4c78a8", "#f58518"])))
    # each bar's numbers on a line under it, from the axis: beside the longest bar they ran off the chart
    text = base.mark_text(align="left", baseline="top", dy=3, fontSize=11).encode(x=alt.datum(0), text="label:N")
    return (bars + text).properties(width=360, height=40 * len(pools), title=alt.TitleParams(
        "Split by access type, or one big pool of the same buffers?", anchor="start"))


def sweep_chart(table: pd.DataFrame) -> alt.LayerChart:
    """Hit ratios (left) and I/O per second (right) of one pool against its size."""
    base = alt.Chart(table).encode(x=alt.X("buffers:Q", title="Pool size (buffers)", axis=alt.Axis(format=",.0f")))
    ratios = base.transform_fold(["application hit ratio (%)", "system hit ratio (%)"], as_=["ratio", "pct"]).mark_line(
        point=True).encode(y=alt.Y("pct:Q", title="Hit ratio (%)"),
                           color=alt.Color("ratio:N", title=None, legend=alt.Legend(orient="bottom")))
    rate = base.mark_line(point=True, strokeDash=[6, 3], color="#222").encode(
        y=alt.Y("I/O per s:Q", title="Read I/Os per second (dashed)"))
    return alt.layer(ratios, rate).resolve_scale(y="independent").properties(
        width=480, height=260, title=alt.TitleParams("What-if: one pool at each size", anchor="start"))


def lru_curve_chart(table: pd.DataFrame, loop_pages: int) -> alt.LayerChart:
    """A simulated trace's LRU hit ratio against pool size (one Mattson pass), with the loop marked."""
    line = alt.Chart(table).mark_line(point=True, color="#4c78a8").encode(
        x=alt.X("buffers:Q", title="Pool size (buffers)", axis=alt.Axis(format=",.0f")),
        y=alt.Y("LRU hit ratio (%):Q", title="Hit ratio (%)"),
        tooltip=[alt.Tooltip("buffers:Q", format=","), alt.Tooltip("LRU hit ratio (%):Q", format=".2f")])
    rule = alt.Chart(pd.DataFrame({"x": [loop_pages], "label": [f"loop: {loop_pages:,} pages"]})).encode(x="x:Q")
    return alt.layer(line, rule.mark_rule(strokeDash=[5, 4], color="#555"),
                     rule.mark_text(align="left", dx=4, y=8).encode(text="label:N")).properties(
        width=480, height=240, title=alt.TitleParams("A simulated looping scan: the whole LRU curve from one pass",
                                                     anchor="start"))
