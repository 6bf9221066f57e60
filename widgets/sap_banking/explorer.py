"""The live explorers of the SAP Banking chapter (notebook and Voila)."""
from __future__ import annotations

from ..explorer import Explorer, study_dashboard, study_explorer
from . import calibration as cal
from . import model
from .calibration import mean_cpu_busy

STUDY = "sap_banking"


def _readout(values: dict) -> str:
    """The model at the readout's processors: DB ITR, per processor, ITRR, the ETR and postings/hour
    at the measured runs' mean CPU busy, and both CFs' busy at that ETR."""
    s = cal.scenario(values)  # every slider is a scenario input
    p = s.processors
    itr = float(s.scaling.itr(p))
    ratio = model.itrr(itr, float(s.scaling.itr(2)))
    busy = mean_cpu_busy()
    etr = itr * busy
    cf = {name: model.cf_busy_pct(etr, s.cf_cost[metric], s.cf_capacity)
          for metric, name in cal.CF_STRUCTURES.items()}
    where = ("<b>an extrapolation</b>, beyond the largest measured run of 60"
             if p > cal.PROCESSORS_MEASURED_MAX else "inside the measured range of 2 to 60")
    full = "; <b>a CF would be over 50% busy</b>" if max(cf.values()) > 50 else ""
    cf_text = ", ".join(f"{name} {v:.0f}%" for name, v in cf.items())
    return (f"<p class='db2book-readout'>At {p:.0f} processors, {where}: DB ITR {itr:,.0f} dialog steps/s, "
            f"{itr / p:.1f} per processor, ITRR {ratio:.1f} against 2 processors. At the runs' mean CPU busy "
            f"({busy:.0%}) that is an ETR of {etr:,.0f} dialog steps/s, {model.postings_per_hour(etr) / 1e6:.1f} "
            f"million postings per hour, with {cf_text}{full}.</p>")


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: DB ITR and ITR per processor)."""
    return study_explorer(STUDY, names, readout=_readout)


def dashboard() -> Explorer:
    """Every figure of the chapter in tabs, for a classroom projector (Voila)."""
    return study_dashboard(STUDY, readout=_readout)
