"""System Recovery Boost (IBM Redbooks SG24-8536, section 3.5): restart phases, parallel log
apply, the backlog after an outage and the closed loop that drains it.

``model`` (pure numpy), ``calibration`` (the Amdahl fits, the backlog scenario the sliders move),
``fidelity`` (ledger rows), ``figures``, ``exercises`` and ``explorer`` (its readout).
"""
