"""The live explorers of the System Recovery Boost chapter (notebook and Voila): its readout."""
from __future__ import annotations

import math
from dataclasses import replace

from ..explorer import Explorer, study_dashboard, study_explorer
from . import calibration, model

STUDY = "system_recovery_boost"


def readout(values: dict) -> str:
    """Time to clear the backlog with and without the boost, at the sliders' scenario."""
    o = calibration.scenario(values)
    rows = []
    for name, case in (("with boost", o), ("without boost", replace(o, boost_engines=0.0))):
        t = model.time_to_clear(case)
        text = (f"cleared {t:.0f} min after IPL" if math.isfinite(t) else
                f"<b>never cleared within {case.horizon_min:.0f} min</b>: arrivals exceed the capacity "
                "that the backlog's contention leaves")
        rows.append(f"<tr><td style='padding-right:12px'>{name}</td><td>{text}</td></tr>")
    return ("<table class='db2book-readout'><tr><th colspan=2>Backlog at these settings</th></tr>"
            + "".join(rows) + "</table>")


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: the backlog's throughput and wait)."""
    return study_explorer(STUDY, names, readout=readout)


def dashboard() -> Explorer:
    """Every figure of the chapter in tabs, for a classroom projector (Voila)."""
    return study_dashboard(STUDY, readout=readout)
