"""The zEDC note's live calculator (notebook and Voila): the two figures and a readout at the deck's claims."""
from __future__ import annotations

from ..explorer import Explorer, study_explorer
from . import model
from . import published as pub


def readout(values: dict) -> str:
    """Disk and CPU at the sliders' setting, taken at the deck's "up to" numbers (best cases). The 90% is
    against zlib and the 80% against DFSMS compression: the readout says which cost each one needs."""
    volume, days, cost = values["volume_tb_per_day"], values["retention_days"], values["cpu_s_per_gb"]
    ratio = pub.value("bsam_qsam", "disk_reduction_vs_uncompressed_x")
    held = float(model.stored_tb(volume, days, 1.0))
    saved = float(model.disk_saved_tb(volume, days, ratio))
    hours = float(model.software_cpu_hours(volume, cost))
    cut80 = float(model.cpu_hours_saved(volume, cost, pub.value("bsam_qsam", "compression_cpu_reduction_pct")))
    cut90 = float(model.cpu_hours_saved(volume, cost, pub.value("java_gzip", "cpu_reduction_vs_zlib_pct")))
    busy = float(model.adapter_busy_share(volume, pub.value("zedc_feature", "throughput_gb_per_s_max")))
    return (f"<p class='db2book-readout'>{days:,.0f} days of {volume:,.1f} TB a day hold {held:,.0f} TB uncompressed; "
            f"at the claimed best case of {ratio:g}x, {held - saved:,.0f} TB ({saved:,.0f} TB saved). "
            f"Compression at {cost:,.0f} CPU s per GB costs {hours:,.1f} engine-hours a day "
            f"({float(model.engines_busy(hours)):,.2f} engines around the clock). If that cost is zlib's, the "
            f"Java slide's 90% cut would save {cut90:,.1f} of them. The 80% BSAM/QSAM cut is against DFSMS "
            f"compression, not zlib: it would save {cut80:,.1f} only if the cost you set is what your DFSMS "
            f"compression and decompression take. At the deck's up-to 4 GB/s, the day's data keeps the four "
            f"adapters busy {100 * busy:,.1f}% of the day on average; a batch window's peak is higher.</p>")


def explorer() -> Explorer:
    """Sliders and both charts of the calculator."""
    return study_explorer("zedc", readout=readout)
