"""The live explorers of the zHyperLink chapter (notebook and Voila): its readout."""
from __future__ import annotations

from ..explorer import Explorer, study_dashboard, study_explorer
from . import calibration, model

STUDY = "zhyperlink"


def readout(values: dict) -> str:
    """The read path at the sliders' setting: time per read with and without zHyperLink."""
    path = calibration.scenario(values)
    before = model.read_time_us(path, zhyperlink=False)
    after = model.read_time_us(path, zhyperlink=True)
    other, _ = calibration.read_calibration()
    verdict = ("zHyperLink saves time per read" if after < before else
               "<b>zHyperLink costs time here</b>: the failed attempts on misses outweigh the faster hits")
    return (f"<p class='db2book-readout'>Mean read wait: {before:,.0f} µs with zHPF, {after:,.0f} µs with "
            f"zHyperLink (zHPF cache hit {path.t_hit_us:,.0f} µs, calibrated; time outside reads "
            f"{other / 1000:,.1f} ms). {verdict}.</p>")


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: elapsed time and the hit ratio)."""
    return study_explorer(STUDY, names, readout=readout)


def dashboard() -> Explorer:
    """Every figure of the chapter in tabs, for a classroom projector (Voila)."""
    return study_dashboard(STUDY, readout=readout)
