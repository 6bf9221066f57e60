"""A class at once on one dashboard (bench/README.md, 4b)."""
from __future__ import annotations

import os


from bench.common import NO_GOAL, ROOT, Rows, loadavg


# --- 4b. a class at once on one dashboard ---------------------------------------------------

#: how many students open the dashboard at once (DB2BOOK_BENCH_CLASS="5,10" for a quicker run)
CLASS_SIZES = tuple(int(n) for n in os.environ.get("DB2BOOK_BENCH_CLASS", "5,10,30").split(","))
#: the class that also opens the dashboard in real browsers (0: skip)
BROWSER_CLASS = int(os.environ.get("DB2BOOK_BENCH_BROWSER_CLASS", "10"))


def bench_class_load(rows: Rows) -> None:
    """Students open the large-memory dashboard at once on a server started as ``make voila CLASS=n``
    does; then half of them type a value of their own into the first box at once.

    The students are websocket clients that ask the server exactly what Voila's front end asks (the page,
    the kernel's channels, every widget's state, an update): the server's work, as when every student
    brings a laptop. One class also opens it in headless Chromium, whose pages then run on the
    server's own cores as well.
    """
    from tools.classload import class_load
    from widgets.large_memory import figures as F

    p = F.SYNC_READS.params[0]

    def value_for(i: int) -> str:
        k = (i // 2 + 1) * 2
        return f"{p.default + k * p.step if p.default + k * p.step <= p.max else p.default - k * p.step:g}"

    runs = [(n, "ws") for n in CLASS_SIZES] + ([(BROWSER_CLASS, "browser")] if BROWSER_CLASS else [])
    for n, clients in runs:
        who = f"class of {n}" + (" in Chromium" if clients == "browser" else "")
        names = [f"{who}: {what}" for what in ("students served", "first render, median", "first render, p95",
                                               "slider update, median",
                                               "memory per student session (kernel PSS, median)")]
        load = loadavg()
        try:
            run = class_load(ROOT / "dashboards" / "large_memory.ipynb", n, value_for, clients=clients)
        except Exception as exc:  # noqa: BLE001
            rows.failed(names, "", NO_GOAL, exc)
            continue
        s = run.summary()
        note = (f"pool of {n + 2} pre-heated kernels (classroom/voila_pool.py), shared SVG cache and chart engine; "
                f"{'websocket' if clients == 'ws' else 'headless Chromium'} students; isolated={s['isolated']}; "
                f"pool warm {s['pool_warm_s']:.0f} s after start; 1-min load {load} -> {loadavg()}"
                + (f"; {'; '.join(s['failures'])[:300]}" if s["failures"] else ""))
        rows.measured(names[0], s["served"], "students", f">= {n}", note=note)
        rows.measured(names[1], s["first_render_median_s"], "s", samples=run.first_render_s)
        rows.measured(names[2], s["first_render_p95_s"], "s", "<= 10 s",
                      note=None if clients == "ws" else "the browsers' own work shares the server's 2 cores")
        rows.measured(names[3], s["update_median_s"], "s", "<= 1 s", note="half the class types at once, each "
                      "a value of their own (every chart is drawn afresh)", samples=run.update_s)
        if s.get("update_cpu_s") is not None:
            rows.measured(f"{who}: server CPU per slider update", s["update_cpu_s"] * 1000, "ms",
                          note="CPU of Voila, the kernels and the chart engine while half the class updates, per "
                               "update: the work behind an update, which the machine's other load does not change")
        if run.update_cached_s:
            rows.measured(f"{who}: slider update to a setting another student drew, median",
                          s["update_cached_median_s"], "s", "<= 1 s", samples=run.update_cached_s,
                          note="the other half types the value its neighbour chose, at once (the chart cache)")
        if s["mb_per_session"] is None:  # the class was not all served: memory was not measured
            rows.measured(names[4], None, "MB", "<= 150 MB")
            continue
        share = (s["server_pss_mb"] + s["helpers_pss_mb"]) / n
        rows.measured(names[4], s["mb_per_session"], "MB", "<= 150 MB",
                      note=f"RSS {s['rss_mb_per_session']:.0f} MB (counts shared libraries in full); "
                           f"plus per student {share:.0f} MB of the Voila server ({s['server_pss_mb']:.0f} MB) and "
                           f"chart engine ({s['helpers_pss_mb']:.0f} MB); {s['kernels_running']} kernels running "
                           f"(the class's and the spares)")
