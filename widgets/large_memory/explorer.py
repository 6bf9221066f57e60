"""The live explorers of the large-memory chapter (notebook and Voila)."""
from __future__ import annotations

import numpy as np

from ..explorer import Explorer, study_dashboard, study_explorer
from .calibration import predict_single, scenario

STUDY = "large_memory"
SIZES_GB = (161.0, 320.0, 638.0, 2048.0)


def _readout(values: dict) -> str:
    """A small table: the whole chain at four pool sizes for the current workload sliders."""
    cal = scenario(values)
    out = predict_single(np.array(SIZES_GB), "zEC12", cal)
    head = "".join(f"<th style='padding:0 10px'>{s:,.0f} GB</th>" for s in SIZES_GB)
    rows = [("sync reads / s", out["reads_per_s"], "{:,.0f}"), ("ITR (DS/s)", out["itr"], "{:,.0f}"),
            ("DB request time (s)", out["request_s"], "{:.3f}"), ("ETR (DS/s)", out["etr"], "{:,.0f}"),
            ("CPU busy", out["cpu_util"], "{:.0%}")]
    body = "".join("<tr><td>" + name + "</td>" + "".join(
        f"<td style='text-align:right;padding:0 10px'>{fmt.format(x)}</td>" for x in vals) + "</tr>"
        for name, vals, fmt in rows)
    return (f"<table class='db2book-readout'><tr><th>zEC12, whole chain</th>{head}</tr>{body}</table>"
            "<p style='color:#555'>Every number above is the model's, at the slider settings.</p>")


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: sync reads, ITR and ETR)."""
    return study_explorer(STUDY, names, readout=_readout)


def dashboard() -> Explorer:
    """Every slider figure of the chapter, for a classroom projector (Voila)."""
    return study_dashboard(STUDY, readout=_readout)  # the dashboard notebook has the title
