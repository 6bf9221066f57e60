"""The zEDC note's calculator as figures (one model, three surfaces): disk against the compression
ratio, and CPU against the claimed cut. The deck's claims are dashed rules, never points: no table
stands behind them. The sliders' defaults are illustrations, not numbers from the deck."""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..figure import Axis, Figure, Param
from . import calibration as cal
from . import model
from . import published as pub

STUDY = "zedc"
COLORS = {"uncompressed": "#e45756", "compressed at this ratio": "#4c78a8",
          "software compression": "#e45756", "after the claimed cut": "#4c78a8"}
_figure = partial(Figure, STUDY, colors=COLORS)

# --- sliders (illustrative defaults: the deck names no installation's volume or CPU cost) ------------

VOLUME = Param("volume_tb_per_day", "Data written a day, uncompressed", "TB/day", 0.1, 100.0, 1.0, 0.1, 0.5,
               static_min=0.5, static_max=5.0,
               help="SMF, archive or sequential data written in a day (an illustration: 1 TB)")
RETENTION = Param("retention_days", "Days the data is kept", "days", 1.0, 3650.0, 90.0, 1.0, 30.0,
                  static_min=30.0, static_max=360.0,
                  help="how long a day's data stays on disk (an illustration: 90 days)")
CPU_COST = Param("cpu_s_per_gb", "Software compression cost", "CPU s per GB", 1.0, 500.0, 30.0, 1.0, 10.0,
                 static_min=10.0, static_max=100.0,
                 help="CPU seconds per GB of the compression a claim replaces: zlib for the 90%, your DFSMS "
                      "compression for the 80%")


def _rule(run: str, metric: str, label: str) -> dict:
    return {"x": pub.value(run, metric), "label": label, "source": pub.cite(run, metric)}


# --- 1. disk held against the compression ratio ------------------------------------------------------


def disk_curves(ratio, s: cal.Scenario):
    """Disk held (TB) over the retention window, uncompressed and at the ratio on the x-axis."""
    ratio = np.asarray(ratio, dtype=float)
    return {"uncompressed": model.stored_tb(s.volume_tb_per_day, s.retention_days, np.ones_like(ratio)),
            "compressed at this ratio": model.stored_tb(s.volume_tb_per_day, s.retention_days, ratio)}


DISK = _figure(
    "disk", "Disk held against the compression ratio",
    Axis("ratio", "Compression ratio (uncompressed / compressed)", format=".1f"),
    Axis("tb", "Disk held over the retention window (TB)", format=",.0f"),
    np.array([1.0, 1.1, 1.2, 1.35, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0]), disk_curves,
    (VOLUME, RETENTION),
    marks=pd.DataFrame([_rule("bsam_qsam", "disk_reduction_vs_uncompressed_x",
                              "up to 4x")]),
    subtitle="Disk = volume x days / ratio. The rule: the deck's 'up to 4x' for BSAM/QSAM data sets and SMF "
             "log streams. The ratio belongs to the data: measure yours (below).")

# --- 2. CPU against what the claimed cut leaves ----------------------------------------------------


def cpu_curves(left_pct, s: cal.Scenario):
    """Engine-hours a day for compression in software, and with ``left_pct`` percent of it left
    (a claimed cut of ``100 - left_pct`` percent)."""
    cut = 100.0 - np.asarray(left_pct, dtype=float)
    return {"software compression": model.cpu_hours_after_cut(s.volume_tb_per_day, s.cpu_s_per_gb,
                                                              np.zeros_like(cut)),
            "after the claimed cut": model.cpu_hours_after_cut(s.volume_tb_per_day, s.cpu_s_per_gb, cut)}


def _cut_rule(run: str, metric: str, label: str) -> dict:
    """A claimed cut drawn where it leaves the CPU: an 80% cut at 20% left."""
    return {**_rule(run, metric, label), "x": 100.0 - pub.value(run, metric)}


CPU = _figure(
    "cpu", "Compression CPU a day against the share a claimed cut leaves",
    Axis("left", "CPU left after the cut (% of the old CPU)", format=".0f"),
    Axis("hours", "CPU for compression (engine-hours a day)", format=",.1f"),
    np.arange(5.0, 100.1, 5.0), cpu_curves, (VOLUME, CPU_COST),
    marks=pd.DataFrame([
        _cut_rule("java_gzip", "cpu_reduction_vs_zlib_pct", "up to 90% less: Java GZIP vs zlib"),
        _cut_rule("bsam_qsam", "compression_cpu_reduction_pct", "up to 80% less: BSAM/QSAM vs DFSMS")]),
    subtitle="Engine-hours = TB x 1000 x CPU s per GB / 3600; 24 engine-hours a day keep one engine busy. "
             "The two rules have different baselines: the 90% is against zlib, the 80% against DFSMS "
             "compression; read the 80% only with the cost set to your DFSMS compression's.")

ALL = (DISK, CPU)
