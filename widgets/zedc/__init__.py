"""A note on zEDC (the SHARE deck's "up to" claims): a calculator of what a compression ratio and a
CPU cut mean for a data volume and a CPU budget (``model``; ``calibration``: the sliders' scenario),
its figures and live explorer, the claims from ``data/zedc`` (``published``), and a zlib measurement
on deterministic sample data (``sample``, ``measure``). No fidelity rows: no table stands behind the
claims."""
