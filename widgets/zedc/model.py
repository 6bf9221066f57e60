"""What a compression ratio and a CPU cut mean for a data volume and a CPU budget: pure numpy.

The SHARE deck's zEDC numbers are "up to" ratios and percentages (see :mod:`widgets.zedc.published`).
This calculator turns such numbers into quantities an installation plans with:

* **Disk.** Data written at ``V`` terabytes a day (uncompressed) and kept for ``D`` days holds
  ``V D`` TB uncompressed and ``V D / r`` TB at a compression ratio ``r`` (uncompressed size over
  compressed size, the deck's "4x").
* **CPU.** Compressing in software costs ``c`` CPU seconds per gigabyte of uncompressed data, so a
  day's data costs ``1000 V c / 3600`` engine-hours; a claimed cut of ``p`` percent leaves
  ``(1 - p/100)`` of that. An engine-hour is one processor busy for one hour; 24 engine-hours a
  day keep one engine busy around the clock.
* **The adapter.** At ``G`` GB/s (the deck: up to 4 GB/s with four features), a day's data keeps
  the adapters busy for the share ``1000 V / (86400 G)`` of the day.

Units: TB (decimal, 1 TB = 1000 GB) per day, days, CPU seconds per GB, engine-hours per day, GB/s.
Every function checks its inputs and raises ``ValueError`` naming the parameter and its valid range.
"""
from __future__ import annotations

import numpy as np

from .. import validation as v

GB_PER_TB = 1000.0  # decimal units, as the deck's "GB/s" and disk vendors count
SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86400.0
HOURS_PER_DAY = 24.0

#: The largest ratio the calculator accepts: far beyond any claim (4x) or any measurement here.
MAX_RATIO = 100.0


def _ratio(name: str, value) -> np.ndarray:
    """A compression ratio: uncompressed size over compressed size, from 1 (no gain) to :data:`MAX_RATIO`."""
    return v.in_range(name, value, 1.0, MAX_RATIO, unit="(uncompressed / compressed)")


def _percent_cut(name: str, value) -> np.ndarray:
    """A reduction in percent: 0 (none) up to, but not including, 100 (all of it)."""
    return v.in_range(name, value, 0.0, 100.0, high_inclusive=False, unit="%")


def stored_tb(volume_tb_per_day, retention_days, ratio) -> np.ndarray:
    """Disk held (TB) by ``retention_days`` days of data written at ``volume_tb_per_day`` TB a day
    (uncompressed), compressed at ``ratio`` (uncompressed / compressed; 1 = not compressed)."""
    volume = v.positive("volume_tb_per_day", volume_tb_per_day, unit="TB/day")
    days = v.positive("retention_days", retention_days, unit="days")
    r = _ratio("ratio", ratio)
    return volume * days / r


def disk_saved_tb(volume_tb_per_day, retention_days, ratio, baseline_ratio=1.0) -> np.ndarray:
    """Disk (TB) saved by compressing at ``ratio`` instead of at ``baseline_ratio`` (1 = uncompressed).

    Negative when the baseline compresses better than ``ratio``: the calculator says so rather than hide it.
    """
    base = stored_tb(volume_tb_per_day, retention_days, _ratio("baseline_ratio", baseline_ratio))
    return base - stored_tb(volume_tb_per_day, retention_days, ratio)


def software_cpu_hours(volume_tb_per_day, cpu_s_per_gb) -> np.ndarray:
    """Engine-hours a day spent compressing ``volume_tb_per_day`` TB in software at ``cpu_s_per_gb``
    CPU seconds per GB of uncompressed data."""
    volume = v.positive("volume_tb_per_day", volume_tb_per_day, unit="TB/day")
    cost = v.positive("cpu_s_per_gb", cpu_s_per_gb, unit="CPU s/GB")
    return volume * GB_PER_TB * cost / SECONDS_PER_HOUR


def cpu_hours_after_cut(volume_tb_per_day, cpu_s_per_gb, cut_pct) -> np.ndarray:
    """Engine-hours a day left when a claimed ``cut_pct`` percent of the software compression CPU goes."""
    cut = _percent_cut("cut_pct", cut_pct)
    return software_cpu_hours(volume_tb_per_day, cpu_s_per_gb) * (1.0 - cut / 100.0)


def cpu_hours_saved(volume_tb_per_day, cpu_s_per_gb, cut_pct) -> np.ndarray:
    """Engine-hours a day saved by a cut of ``cut_pct`` percent of the software compression CPU."""
    cut = _percent_cut("cut_pct", cut_pct)
    return software_cpu_hours(volume_tb_per_day, cpu_s_per_gb) * cut / 100.0


def engines_busy(engine_hours_per_day) -> np.ndarray:
    """Engine-hours a day as whole engines kept busy around the clock (24 engine-hours = 1 engine)."""
    return v.non_negative("engine_hours_per_day", engine_hours_per_day, unit="engine-hours/day") / HOURS_PER_DAY


def adapter_busy_share(volume_tb_per_day, adapter_gb_per_s) -> np.ndarray:
    """Share of a day (0 to 1 and beyond: above 1 the adapters cannot keep up) that compressing
    ``volume_tb_per_day`` keeps adapters of ``adapter_gb_per_s`` GB/s in all busy."""
    volume = v.positive("volume_tb_per_day", volume_tb_per_day, unit="TB/day")
    rate = v.positive("adapter_gb_per_s", adapter_gb_per_s, unit="GB/s")
    return volume * GB_PER_TB / (SECONDS_PER_DAY * rate)


def ratio_from_sizes(uncompressed_bytes, compressed_bytes) -> np.ndarray:
    """Compression ratio (uncompressed / compressed) from two sizes in bytes."""
    raw = v.positive("uncompressed_bytes", uncompressed_bytes, unit="bytes")
    packed = v.positive("compressed_bytes", compressed_bytes, unit="bytes")
    return raw / packed


def cpu_s_per_gb(cpu_seconds, uncompressed_bytes) -> np.ndarray:
    """CPU seconds per GB of uncompressed data, from a measured CPU time and the bytes it compressed."""
    cpu = v.positive("cpu_seconds", cpu_seconds, unit="s")
    raw = v.positive("uncompressed_bytes", uncompressed_bytes, unit="bytes")
    return cpu / (raw / 1e9)
