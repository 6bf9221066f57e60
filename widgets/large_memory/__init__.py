"""The large-memory study (Beane, Chan & Lekkas 2015): buffer pools from 161 GB to 638 GB.

``model`` (pure numpy), ``calibration`` (least-squares fits), ``fidelity`` (ledger rows),
``figures`` (Altair, via the shared pipeline), ``exercises`` (seeded generators) and
``explorer()`` (ipywidgets).
"""
