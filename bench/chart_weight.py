"""Chart data weight of every figure (bench/README.md, 6)."""
from __future__ import annotations

import json

from widgets.studies import all_figures

from bench.common import KB, Rows


# --- 6. chart data weight -------------------------------------------------------------------


def bench_chart_weight(rows: Rows) -> None:
    try:
        from widgets.figure import static_chart
        figs = list(all_figures().values())
    except Exception as exc:  # noqa: BLE001
        rows.failed("static chart spec: (figures)", "KB", "< 200 KB", exc)
        return
    for fig in figs:
        name = f"static chart spec: {fig.key}"
        try:
            size = len(json.dumps(static_chart(fig).to_dict()))
            rows.measured(name, size / KB, "KB", "< 200 KB")
        except Exception as exc:  # noqa: BLE001
            rows.failed(name, "KB", "< 200 KB", exc)
