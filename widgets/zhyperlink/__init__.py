"""zHyperLink I/O (IBM Redbooks SG24-8536, section 3.10): when spinning beats waiting.

``model`` (pure numpy), ``calibration`` (the read model's fit, the shares, the read path the
sliders move), ``fidelity`` (ledger rows, known misses), ``figures``, ``exercises`` and ``explorer``.
"""
