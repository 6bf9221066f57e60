"""The chapter's figures, declared once for the static page, the notebook and Voila.

Each :class:`~widgets.figure.Figure` names a curve function (calling the model in
:mod:`.model` with the calibration of :mod:`.calibration`), at most two sliders and the published
points. Nothing here computes a number the model does not.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

import altair as alt
import numpy as np
import pandas as pd

from ..figure import Axis, Figure, Param
from . import calibration as cal
from . import model, published

STUDY = "large_memory"
CAL = cal.CALIBRATED
POOL_GB = np.round(np.geomspace(16, 2048, 24), 1)  # beyond the study's 638 GB, up to 2 TB (24: the page's weight)
POOL_AXIS = Axis("pool_gb", "Total buffer pool size (GB)", scale="log", format=",.0f")

# --- sliders ------------------------------------------------------------------------------

# Each slider's positions are round steps from its first; a fitted value that no round grid holds
# opens at the nearest position (``calibrated`` keeps the exact value, which the ledger uses).
SKEW = Param("skew", "Popularity skew", "", 0.05, 0.98, 0.76, 0.005, 0.04,
             help="0 = every page equally popular; near 1 = a few pages take most references",
             static_min=0.64, static_max=0.96, calibrated=CAL.workload.skew)
# the fitted 367 GB as the chapter prints it, in steps of 100 GB (370 GB would already move the
# sync reads at 2 TB by 6%)
WORKING_SET = Param("working_set_gb", "Re-referenced data", "GB", 50, 1500, 367, 1, 100,
                    help="GB of data the workload re-references at random (fitted: 367 GB)",
                    static_min=67, static_max=867, calibrated=CAL.workload.working_set_gb)
CPU_PER_READ = Param("cpu_us_per_sync_read", "CPU per sync read", "µs", 0, 120, 44, 0.5, 12,
                     help="CPU each synchronous read costs, with its switches and latches (fitted: 44 µs)",
                     static_min=8, static_max=104, calibrated=CAL.cpu_zec12[1])
EXPONENT = Param("exponent", "Request-time exponent", "", 0.32, 1.6, 0.4, 0.01, 0.05, static_min=0.35,
                 help="1 = a fixed time per sync read (linear); fitted: 0.40", calibrated=CAL.request_time.exponent)
# the study's 10,560 users exactly, in steps of 960; past about 16,000 users every pool size is CPU-bound
USERS = Param("users", "Users", "", 500, 40000, CAL.loop.users, 10, 960, static_min=5760, static_max=15360)
# the fitted 12.6 s exactly, in steps of 2 s (10.6 s, what the 638 GB run implies, is a position too);
# below about 6 s every pool size is CPU-bound
THINK = Param("think_s", "Time outside the DB per step", "s", 0.5, 30, CAL.loop.think_s, 0.05, 2,
              help="fitted: 12.60 s, held fixed; the printed runs imply 14.2 s at 161 GB and 10.6 s at 638 GB",
              static_min=6.6, static_max=18.6)
GBP = Param("gbp_gb", "Group buffer pool", "GB", 4, 1024, 64.0, 1, 32, static_min=32, static_max=320)
# Table 13 held the local pools at 58 GB per member, twice the smallest run's 29 GB: steps of 29 GB
LBP = Param("lbp_gb", "Local pool per member", "GB", 4, 1024, 58.0, 1, 29, static_min=29, static_max=290)
LAYOUT_SKEW = Param("layout_skew", "Popularity skew (per-pool model)", "", 0.3, 0.9, 0.66, 0.005, 0.05,
                    help="the per-pool model's shared skew (fitted on the consolidated runs: 0.66); its other "
                         "parameters are held, not refitted", static_min=0.41, static_max=0.86,
                    calibrated=cal.LAYOUT.skew)
GBP_FRACTION = Param("gbp_dependent_fraction", "GBP-dependent share of misses", "", 0.0, 1.0,
                     0.79, 0.01, 0.2, static_min=0.19, calibrated=CAL.group.gbp_dependent_fraction,
                     help="0 = no page is shared between members; the study counted 58% of data")


#: One colour per measured series, the same in every figure of the chapter.
COLORS = {
    "published: isolated": "#f58518", "published: consolidated": "#e45756",
    "published: z13 consolidated": "#54a24b", "published: zEC12 (Figure 18)": "#e45756",
    "published: z13 (Figure 18)": "#54a24b", "published: LBP scaling (GBP 64 GB)": "#f58518",
    "published: GBP scaling (LBP 58 GB)": "#b279a2", "published: sync reads": "#e45756",
    "published: prefetched pages": "#72b7b2",
    "model (one LRU pool)": "#4c78a8", "model: zEC12": "#4c78a8", "model: z13": "#2f7d32", "model": "#4c78a8",
    "model ITRR: zEC12": "#4c78a8", "model ITRR: z13": "#2f7d32", "linear I/O model (exponent 1)": "#9d755d",
    "model: ETR (closed loop)": "#4c78a8", "CPU bound (ITR)": "#bab0ac", "model: LBP + GBP": "#4c78a8",
    "model: no GBP help (share 0)": "#9d755d", "model: sync reads (random)": "#4c78a8",
    "model: prefetched pages (sequential)": "#1b6d6a",
    "model: isolated (held out)": "#f58518", "model: consolidated (fitted)": "#e45756",
}


_figure = partial(Figure, STUDY, colors=COLORS)


def _points(frame: pd.DataFrame, x: str, y: str, src: str, label=lambda r: r.series) -> pd.DataFrame:
    return pd.DataFrame({
        "x": frame[x].to_numpy(), "y": frame[y].to_numpy(),
        "series": [label(r) for r in frame.itertuples()],
        "condition": frame["run_id"].to_numpy(), "source": frame[src].to_numpy(),
    })


def _single(metric: str) -> pd.DataFrame:
    ss = published.single_system()
    return _points(ss, "bp_size_total_gb", metric, f"src_{metric}",
                   label=lambda r: f"published: {r.series}")


# --- 1. sync reads vs pool size -----------------------------------------------------------


def sync_read_curves(pool_gb, s: cal.Scenario):
    """Sync reads per second on zEC12 (chain: miss curve -> reads/DS -> x ETR)."""
    out = model.single_system(pool_gb, s.workload, cal.machine("zEC12", s), s.request_time, s.loop)
    return {"model (one LRU pool)": out["reads_per_s"]}


SYNC_READS = _figure(
    "sync_reads", "Sync reads fall 97% as the pools grow from 161 to 638 GB",
    POOL_AXIS, Axis("reads", "DB2 synchronous reads per second", scale="log", format=",.3~s"),
    POOL_GB, sync_read_curves, (SKEW, WORKING_SET), published=_single("sync_reads_per_s"),
    subtitle="Che's LRU approximation over a power-law popularity, fitted to Tables 4, 6, 10, 13, 16, 23.",
    regenerates="Figures 3 and 14 of the brief")


# --- 2. ITR, 3. DB request time, 4. ETR ------------------------------------------------------


def itr_curves(pool_gb, s: cal.Scenario):
    """ITR (DS/s) on both machines, with a common CPU cost per sync read."""
    reads = model.sync_reads_per_ds(pool_gb, s.workload)
    return {f"model: {name}": model.itr(reads, cal.machine(name, s)) for name in ("zEC12", "z13")}


ITR = _figure(
    "itr", "Fewer sync reads, less CPU per dialog step: ITR rises",
    POOL_AXIS, Axis("itr", "ITR (dialog steps per CPU-busy second of 12 CPs)", format=",.0f"),
    POOL_GB, itr_curves, (CPU_PER_READ, WORKING_SET), published=_single("itr_ds_per_s"),
    subtitle="ITR = 12 CPs / (base CPU + CPU per read × sync reads per step).",
    regenerates="Figures 6 and 17 of the brief")


def request_time_curves(pool_gb, s: cal.Scenario):
    """DB request time (s) on zEC12, refitting base and scale for the chosen exponent."""
    reads = model.sync_reads_per_ds(pool_gb, s.workload)
    return {"model": model.db_request_time(reads, s.request_time),
            "linear I/O model (exponent 1)": model.db_request_time(reads, cal.LINEAR_REQUEST_TIME)}


REQUEST_TIME = _figure(
    "request_time", "DB request time: a fixed cost per read cannot explain 320 GB",
    POOL_AXIS, Axis("request_s", "DB request time (s)", format=".2f"),
    POOL_GB, request_time_curves, (EXPONENT,), published=_single("db_request_time_s"),
    subtitle="R = base + scale × (sync reads per step)^exponent; base and scale refitted for each exponent.",
    regenerates="Figures 4 and 15 of the brief")


def etr_curves(pool_gb, s: cal.Scenario):
    """ETR (DS/s) from the closed loop N = X (Z + R), R per dialog step, and the CPU bound ETR <= ITR."""
    out = model.single_system(pool_gb, s.workload, cal.machine("zEC12", s), s.request_time, s.loop)
    return {"model: ETR (closed loop)": out["etr"], "CPU bound (ITR)": out["itr"]}


ETR = _figure(
    "etr", "Throughput: with a fixed time outside DB2, the shorter request time explains little of the ETR gain",
    POOL_AXIS, Axis("etr", "ETR (dialog steps per second)", format=",.0f"),
    POOL_GB, etr_curves, (USERS, THINK), published=_single("etr_ds_per_s"),
    subtitle="Little's law, DB request time per dialog step: N = ETR × (Z + R), Z fitted and held fixed; ITR drawn as "
             "the bound at constant CPU per step.",
    regenerates="Figures 5 and 16 of the brief")


# --- 5. data sharing: local and group pools --------------------------------------------------


def _ds_points(series_filter: str) -> pd.DataFrame:
    ds = published.data_sharing()
    ds = ds[ds["series"].str.startswith(series_filter)]
    return ds


def local_scaling_curves(lbp_gb, s: cal.Scenario):
    """Sync reads per DS in 2-way data sharing as the local pools grow, at one GBP size."""
    gbp = np.full_like(np.asarray(lbp_gb, dtype=float), s.gbp_gb)
    return {"model: LBP + GBP": model.sync_reads_per_ds_data_sharing(lbp_gb, gbp, s.workload, s.group),
            "model: no GBP help (share 0)": model.sync_reads_per_ds_data_sharing(
                lbp_gb, gbp, s.workload, replace(s.group, gbp_dependent_fraction=0.0))}


LBP_AXIS = Axis("lbp_gb", "Local buffer pools per member (GB)", scale="log", format=",.0f")
GBP_AXIS = Axis("gbp_gb", "Group buffer pools (GB)", scale="log", format=",.0f")
DS_READS = Axis("reads", "Sync reads per dialog step", scale="log", format=",.3~g")


def _per_ds_points(frame: pd.DataFrame, x: str) -> pd.DataFrame:
    pts = _points(frame, x, "sync_reads_per_ds", "src_sync_reads_per_s",
                  label=lambda r: f"published: {r.series}")
    pts["condition"] = [f"{r.run_id} (LBP {r.lbp_per_member_gb:g}, GBP {r.gbp_gb:g} GB): "
                        f"{r.sync_reads_per_s:,.0f} reads/s ÷ {r.etr_ds_per_s:g} DS/s" for r in frame.itertuples()]
    return pts


LOCAL_SCALING = _figure(
    "local_scaling", "Data sharing: growing the local pools of both members",
    LBP_AXIS, DS_READS, np.round(np.geomspace(8, 1024, 30), 1), local_scaling_curves, (GBP, GBP_FRACTION),
    published=_per_ds_points(_ds_points("LBP scaling"), "lbp_per_member_gb"),
    subtitle="Published: Table 10 (GBP held at 64 GB). Reads per step = reads per second ÷ ETR.",
    regenerates="Figure 7 of the brief, per dialog step",
)


def group_scaling_curves(gbp_gb, s: cal.Scenario):
    """Sync reads per DS as the group buffer pools grow, at one local pool size."""
    lbp = np.full_like(np.asarray(gbp_gb, dtype=float), s.lbp_gb)
    return {"model: LBP + GBP": model.sync_reads_per_ds_data_sharing(lbp, gbp_gb, s.workload, s.group)}


GROUP_SCALING = _figure(
    "group_scaling", "Data sharing: growing the group buffer pools helps only GBP-dependent data",
    GBP_AXIS, DS_READS, np.round(np.geomspace(8, 2048, 30), 1), group_scaling_curves, (LBP, GBP_FRACTION),
    published=_per_ds_points(_ds_points("GBP scaling"), "gbp_gb"),
    subtitle="Published: Table 13 (LBP held at 58 GB per member).",
    regenerates="Figure 10 of the brief, per dialog step")


def _ds_itr_points(series_filter: str) -> pd.DataFrame:
    frame = _ds_points(series_filter)
    x = "lbp_per_member_gb" if series_filter.startswith("LBP") else "gbp_gb"
    return _points(frame, x, "itr_ds_per_s", "src_itr_ds_per_s", label=lambda r: f"published: {r.series}")


def ds_itr_curves(pool_gb, s: cal.Scenario, along: str = "lbp"):
    """Data-sharing ITR (DS/s, 2 x 6 CPs) as one kind of pool grows (``along``: "lbp" per member, or "gbp"),
    the other held at the scenario's size: the fitted CPU line over the modelled sync reads."""
    grown = np.asarray(pool_gb, dtype=float)
    if along not in ("lbp", "gbp"):
        raise ValueError(f"along={along!r} is not 'lbp' or 'gbp'")
    lbp, gbp = (grown, np.full_like(grown, s.gbp_gb)) if along == "lbp" else (np.full_like(grown, s.lbp_gb), grown)
    reads = model.sync_reads_per_ds_data_sharing(lbp, gbp, s.workload, s.group)
    return {"model: LBP + GBP": model.itr(reads, cal.machine("data sharing", s))}


def _ds_itr_along(along: str):
    """The curve function of one data-sharing ITR chart: (x, scenario), as a figure calls it."""
    def curves(pool_gb, s: cal.Scenario):
        return ds_itr_curves(pool_gb, s, along)
    curves.__doc__ = f"Data-sharing ITR as the {along.upper()} grows (see ds_itr_curves)."
    return curves


DS_ITR = Axis("itr", "ITR (dialog steps per CPU-busy second, 2 × 6 CPs)", format=",.0f")
#: The two data-sharing ITR charts: name -> (pool that grows, its axis and grid, the sliders, published series,
#: what is held, the figure regenerated)
_DS_ITR = {
    "local_itr": ("lbp", LBP_AXIS, 1024, (GBP,), "LBP scaling", "Table 10 (GBP held at 64 GB)", "9"),
    "group_itr": ("gbp", GBP_AXIS, 2048, (LBP,), "GBP scaling", "Table 13 (LBP held at 58 GB per member)",
                  "12"),
}
LOCAL_ITR, GROUP_ITR = (_figure(
    name, f"Data sharing: ITR as the {'local' if along == 'lbp' else 'group'} pools grow",
    axis, DS_ITR, np.round(np.geomspace(8, top, 30), 1), _ds_itr_along(along), sliders,
    published=_ds_itr_points(series),
    subtitle=f"Published: {held}. Model: the data-sharing CPU line (fitted on Tables 10, 13, 16) over the "
             "modelled sync reads.",
    regenerates=f"Figure {number} of the brief")
    for name, (along, axis, top, sliders, series, held, number) in _DS_ITR.items())


# --- 6. the ITR ratio on zEC12 and z13 -------------------------------------------------------


def itr_ratio_curves(pool_gb, s: cal.Scenario):
    """ITR relative to the 161 GB run, on each machine."""
    base = itr_curves(np.array([161.0]), s)
    now = itr_curves(pool_gb, s)
    return {k.replace("model: ", "model ITRR: "): now[k] / base[k][0] for k in now}


def _itrr_points() -> pd.DataFrame:
    ratios = published.itr_ratios()
    return pd.DataFrame({"x": 638.0, "y": ratios["itrr"],
                         "series": [f"published: {m} (Figure 18)" for m in ratios["machine"]],
                         "condition": "consolidated, 638 vs 161 GB", "source": ratios["source"]})


ITR_RATIO = _figure(
    "itr_ratio", "zEC12 and z13 gain alike: the ITR ratio (ITRR) against 161 GB",
    POOL_AXIS, Axis("itrr", "ITR relative to 161 GB", format=".2f"),
    POOL_GB, itr_ratio_curves, (CPU_PER_READ, WORKING_SET), published=_itrr_points(),
    subtitle="Model: one CPU cost per read imposed on both machines, a lower base CPU for the z13. The study calls "
             "the two very similar.",
    regenerates="Figure 18 of the brief")


# --- 7. Night Balancing: sequential batch ----------------------------------------------------


def night_curves(pool_gb, s: cal.Scenario):
    """Night Balancing: sync reads per second (random part) and prefetched pages (sequential).

    The sequential pages are read once; no LRU pool of any size hits on a page touched only
    once, so prefetch reads stay at their measured mean. The random part follows the same miss
    curve shape, with its amplitude and floor fitted (linear least squares) to Table 18.
    """
    night = published.night_single()
    skew, working_set_gb = s.workload.skew, s.workload.working_set_gb
    floor, amp = cal.night_fit(skew, working_set_gb)
    reads = floor + amp * model.lru_miss_ratio(np.asarray(pool_gb) / working_set_gb, skew)
    prefetch = np.full_like(reads, night["dyn_prefetch_pages_read_per_s"].mean())
    return {"model: sync reads (random)": reads, "model: prefetched pages (sequential)": prefetch}


def _night_points() -> pd.DataFrame:
    night = published.night_single()
    a = _points(night, "bp_size_total_gb", "sync_reads_per_s", "src_sync_reads_per_s",
                label=lambda r: "published: sync reads")
    b = _points(night, "bp_size_total_gb", "dyn_prefetch_pages_read_per_s", "src_dyn_prefetch_pages_read_per_s",
                label=lambda r: "published: prefetched pages")
    return pd.concat([a, b], ignore_index=True)


NIGHT = _figure(
    "night", "Night Balancing: a once-through batch gives the pool little to re-use",
    POOL_AXIS, Axis("pages", "Pages read per second", scale="log", format=",.3~s"),
    POOL_GB, night_curves, (SKEW, WORKING_SET), published=_night_points(),
    subtitle="Table 18. At 20-40 µs of CPU each, 1,223 avoided reads per second are about 0.02-0.05 of a processor.")

# --- 8. the layout: isolated against consolidated pools, each pool its own LRU cache ------------------


def layout_curves(total_gb, s: cal.Scenario):
    """Sync reads per dialog step of each layout's pools at the study's three sizes (per-pool model)."""
    return {"model: isolated (held out)": cal.layout_totals(total_gb, "isolated", s.layout_skew),
            "model: consolidated (fitted)": cal.layout_totals(total_gb, "consolidated", s.layout_skew)}


def _layout_points() -> pd.DataFrame:
    ss = published.single_system()
    pts = _points(ss, "bp_size_total_gb", "sync_reads_per_ds", "src_sync_reads_per_s",
                  label=lambda r: f"published: {r.series}")
    pts["condition"] = [f"{r.run_id}: {r.sync_reads_per_s:,.0f} reads/s ÷ {r.etr_ds_per_s:g} DS/s"
                        for r in ss.itertuples()]
    return pts


LAYOUT = _figure(
    "layout", "Same memory, split two ways: the per-pool model sees the layout",
    Axis("pool_gb", "Total buffer pool size (GB)", scale="log", format=",.0f"), DS_READS,
    np.array([161.0, 320.0, 638.0]), layout_curves, (LAYOUT_SKEW,), published=_layout_points(),
    subtitle="Each pool an LRU cache of its own objects (Tables 2, 3, 5, 7); fitted on the consolidated runs "
             "(Tables 6, 23), the isolated ones held out. Lines join the study's three allocations.",
    regenerates="Figure 3 of the brief, per dialog step")

ALL = (SYNC_READS, LAYOUT, ITR, REQUEST_TIME, ETR, LOCAL_SCALING, GROUP_SCALING, LOCAL_ITR, GROUP_ITR, ITR_RATIO,
       NIGHT)


# --- the combined local + group bars (no sliders: four fixed runs) ---------------------------


def itr_bars() -> alt.LayerChart:
    """Table 17: ITR of four data-sharing runs, published against the model, with deltas."""
    ds = published.data_sharing().set_index("run_id")
    runs = ["S40303B2", "S40211B1", "S40209B1", "S40409B1"]
    rows = []
    base_pub = ds.loc[runs[0], "itr_ds_per_s"]
    base_mod = float(cal.predict_data_sharing(ds.loc[runs[0], "lbp_per_member_gb"], ds.loc[runs[0], "gbp_gb"])["itr"])
    for run in runs:
        r = ds.loc[run]
        label = f"LBP {r.lbp_per_member_gb:g} / GBP {r.gbp_gb:g} GB"
        mod = float(cal.predict_data_sharing(r.lbp_per_member_gb, r.gbp_gb)["itr"])
        rows.append({"config": label, "kind": "published", "itr": r.itr_ds_per_s,
                     "delta": f"{100 * (r.itr_ds_per_s / base_pub - 1):+.0f}%", "source": r.src_itr_ds_per_s})
        rows.append({"config": label, "kind": "model", "itr": round(mod, 1),
                     "delta": f"{100 * (mod / base_mod - 1):+.0f}%", "source": "model (fitted CPU per read)"})
    frame = pd.DataFrame(rows)
    order = list(dict.fromkeys(frame["config"]))
    base = alt.Chart(frame).encode(
        x=alt.X("config:N", sort=order, title=None,  # a label on two lines: one line ran into the next on a phone
                axis=alt.Axis(labelAngle=0, labelExpr="split(datum.label, ' / ')")),
        xOffset=alt.XOffset("kind:N"),
        y=alt.Y("itr:Q", title="ITR (DS/s)", scale=alt.Scale(zero=False, domain=[600, 850])),
        color=alt.Color("kind:N", title=None, legend=alt.Legend(orient="bottom")),
        tooltip=["config:N", "kind:N", alt.Tooltip("itr:Q", format=",.1f"), "delta:N", "source:N"])
    bars = base.mark_bar()
    text = base.mark_text(dy=-7, fontSize=10).encode(text="delta:N")
    return alt.layer(bars, text).properties(
        width=520, height=280,
        title=alt.TitleParams("Local and group pools together (Table 17): ITR and its gain over the smallest run",
                              subtitle=["Labels: gain over LBP 29 / GBP 64 GB. Model: fitted data-sharing CPU model."],
                              anchor="start"))
