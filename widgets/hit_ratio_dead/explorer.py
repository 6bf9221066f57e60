"""The live explorers of the hit-ratio chapter, and the Buffer Pool Tool a student drives."""
from __future__ import annotations

import html

import ipywidgets as w

from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from ..explorer import Explorer, NumberBox, shared, study_dashboard, study_explorer
from ..live import chart_svg
from . import figures as f
from . import simulator as sim
from . import workloads

STUDY = "hit_ratio_dead"


class ObjectRow(w.HBox):
    """One object of the workload: how it is read, how big, how often, and which pool holds it."""

    def __init__(self, spec: sim.ObjectSpec, pool: str):
        self.name = w.Text(value=spec.name, style=shared(TextStyle), layout=shared(w.Layout, width="95px"))
        self.access = w.Dropdown(options=["random", "sequential"], value=spec.access, style=shared(DescriptionStyle),
                                 layout=shared(w.Layout, width="110px"))
        self.pages = NumberBox(spec.pages, 1, 2_000_000, "pages", integer=True, width="120px")
        self.working_set = NumberBox(spec.working_set, 1, 2_000_000, "working set", integer=True, width="120px")
        self.rate = NumberBox(spec.rate, 0.0, 5_000.0, "getpages/s", width="90px")
        self.skew = NumberBox(spec.skew, 0.0, 2.0, "skew", width="70px")
        self.scan = NumberBox(spec.scan_pages or 0, 0, 2_000_000, "pages/scan", integer=True, width="90px")
        self.pool = w.Dropdown(options=["BPSEQ", "BPRAND"], value=pool, style=shared(DescriptionStyle),
                               layout=shared(w.Layout, width="100px"))
        super().__init__([self.name, self.access, self.pages, self.working_set, self.rate, self.skew, self.scan,
                          self.pool], layout=shared(w.Layout))

    def spec(self) -> sim.ObjectSpec:
        """The row as an ObjectSpec (raises ValueError naming the bad field)."""
        bad = [b.error for b in (self.pages, self.working_set, self.rate, self.skew, self.scan) if b.error]
        if bad:
            raise ValueError(f"object {self.name.value.strip()!r}: {bad[0]}")
        sequential = self.access.value == "sequential"
        return sim.ObjectSpec(self.name.value.strip(), int(self.pages.value), self.access.value, float(self.rate.value),
                              skew=0.0 if sequential else float(self.skew.value),
                              working_set_pages=int(self.working_set.value),
                              scan_pages=(int(self.scan.value) or None) if sequential else None)


HEADER = ["object", "access", "pages", "working set", "getpages/s", "skew", "pages/scan", "pool"]
WIDTHS = ["95px", "110px", "120px", "120px", "90px", "70px", "90px", "100px"]


class BufferPoolTool(w.VBox):
    """Build a workload, split it into pools, and watch the I/O rate against the hit ratio.

    Run replays a seeded trace through two pools grouped by access type and through one pool of
    the same total size; Sweep draws one pool's hit ratios and I/O rate at sizes around it.
    """

    def __init__(self, specs=workloads.PRESET, assignment=workloads.BY_ACCESS):
        self.rows = [ObjectRow(s, assignment[s.name]) for s in specs]
        head = w.HBox([w.HTML(f"<b>{h}</b>", style=shared(HTMLStyle), layout=shared(w.Layout, width=wd))
                       for h, wd in zip(HEADER, WIDTHS)], layout=shared(w.Layout))
        wide, labelled = shared(w.Layout, width="460px"), shared(w.SliderStyle, description_width="initial")
        self.seq_pool = w.IntSlider(value=2_000, min=500, max=100_000, step=500, description="BPSEQ buffers",
                                    style=labelled, layout=wide)
        self.rand_pool = w.IntSlider(value=18_000, min=500, max=200_000, step=500, description="BPRAND buffers",
                                     style=labelled, layout=wide)
        self.vpseqt = w.IntSlider(value=80, min=0, max=100, step=5, description="VPSEQT (%)", style=labelled,
                                  layout=wide)
        self.seconds = NumberBox(workloads.SECONDS, 1, 3_600, "Seconds traced", description="Seconds traced",
                                 width="220px")
        self.seed = NumberBox(1, 0, 2**31 - 1, "Seed", description="Seed", integer=True, width="160px")
        self.run_button = w.Button(description="Run", button_style="primary")
        self.sweep_button = w.Button(description="Sweep pool sizes")
        self.status = w.HTML()
        self.table = w.HTML()
        self.chart = w.HTML()
        self.run_button.on_click(lambda _: self.run())
        self.sweep_button.on_click(lambda _: self.sweep())
        super().__init__([w.HTML("<h3>Buffer Pool Tool</h3>"), head, *self.rows, self.seq_pool, self.rand_pool,
                          self.vpseqt, w.HBox([self.seconds, self.seed, self.run_button, self.sweep_button]),
                          self.status, self.chart, self.table])
        self.add_class("db2book-bptool")
        self.run()

    def trace(self) -> sim.Trace:
        for box in (self.seconds, self.seed):
            if box.error:
                raise ValueError(box.error)
        specs = [r.spec() for r in self.rows]
        expected = sum(s.rate for s in specs) * float(self.seconds.value)
        if expected > 2_000_000:
            raise ValueError(f"this workload makes {expected:,.0f} getpages; the tool runs at most 2,000,000 "
                             "(lower the rates or the seconds traced)")
        return sim.generate_trace(specs, seconds=float(self.seconds.value), seed=int(self.seed.value))

    def assignment(self) -> dict[str, str]:
        return {r.name.value.strip(): r.pool.value for r in self.rows}

    def run(self) -> None:
        """Simulate both layouts and show the pools, then the objects."""
        try:
            trace = self.trace()
            used = set(self.assignment().values())
            sizes = {name: s.value for name, s in (("BPSEQ", self.seq_pool), ("BPRAND", self.rand_pool))
                     if name in used}
            table = workloads.compare_layouts(trace, self.assignment(), sizes, float(self.vpseqt.value))
        except ValueError as exc:  # a bad workload is explained, never a crash
            self.status.value = f"<p style='color:#b00'>{html.escape(str(exc))}</p>"
            return
        self.status.value = f"<p>{len(trace):,} getpages simulated.</p>"
        self.chart.value = chart_svg(f.layout_chart(table))
        self.table.value = table.drop(columns=["buffers"]).round(2).to_html(index=False, classes="db2book-readout")

    def sweep(self) -> None:
        """One pool of every size from a quarter to four times the two pools' total."""
        try:
            trace = self.trace()
            total = self.seq_pool.value + self.rand_pool.value
            sizes = sorted({max(1, int(total * k)) for k in (0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4)})
            table = workloads.size_sweep(trace, sizes, float(self.vpseqt.value))
        except ValueError as exc:
            self.status.value = f"<p style='color:#b00'>{html.escape(str(exc))}</p>"
            return
        self.status.value = f"<p>{len(trace):,} getpages, {len(sizes)} pool sizes.</p>"
        self.chart.value = chart_svg(f.sweep_chart(table))
        self.table.value = table.round(2).to_html(index=False, classes="db2book-readout")


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: the threshold and the read rate)."""
    return study_explorer(STUDY, names)


def dashboard() -> Explorer:
    """Every figure in tabs, then the Buffer Pool Tool, for a classroom (Voila)."""
    return study_dashboard(STUDY).add_tools(BufferPoolTool())
