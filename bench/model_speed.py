"""Model evaluation time of every figure (bench/README.md, 5)."""
from __future__ import annotations

import time


from bench.common import NO_GOAL, Rows, median


# --- 5. model evaluation time ---------------------------------------------------------------


def _time_calls(fn, n: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def bench_model(rows: Rows) -> None:
    import numpy as np

    try:
        from widgets.large_memory import calibration
        sizes = np.geomspace(16, 2048, 30)
        rows.measured("model: predict_single (whole chain, 30 sizes), median of 200",
                      median(_time_calls(lambda: calibration.predict_single(sizes), 200, 5)), "ms", "<= 5 ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("model: predict_single (whole chain, 30 sizes), median of 200", "ms", "<= 5 ms", exc)
    try:
        from dataclasses import replace

        from widgets.large_memory import calibration
        from widgets.large_memory.calibration import CALIBRATED as CAL
        sizes = np.geomspace(16, 2048, 30)
        skews = iter(np.round(np.linspace(0.55, 0.95, 40) + 0.0001234, 6))  # never the cached skews
        times = []
        for s in skews:
            cal = replace(CAL, workload=replace(CAL.workload, skew=float(s)))
            t = time.perf_counter()
            calibration.predict_single(sizes, "zEC12", cal)
            times.append((time.perf_counter() - t) * 1000)
        rows.measured("model: predict_single at a new skew (Che table not cached), median of 40",
                      median(times), "ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("model: predict_single at a new skew (Che table not cached), median of 40", "ms", NO_GOAL, exc)
    try:
        from widgets.large_memory import model
        from widgets.large_memory.calibration import CALIBRATED as CAL
        lbp = np.geomspace(8, 1024, 30)
        gbp = np.full_like(lbp, 64.0)
        rows.measured("model: sync_reads_per_ds_data_sharing (30 sizes), median of 200",
                      median(_time_calls(
                          lambda: model.sync_reads_per_ds_data_sharing(lbp, gbp, CAL.workload, CAL.group), 200, 5)),
                      "ms", "<= 5 ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("model: sync_reads_per_ds_data_sharing (30 sizes), median of 200", "ms", "<= 5 ms", exc)
    try:
        from widgets.live import render_svg
        from widgets.large_memory import figures as F
        rows.measured("live chart redraw in the kernel: render_svg(SYNC_READS), median of 20",
                      median(_time_calls(lambda: render_svg(F.SYNC_READS), 20, 2)), "ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("live chart redraw in the kernel: render_svg(SYNC_READS), median of 20", "ms", NO_GOAL, exc)
