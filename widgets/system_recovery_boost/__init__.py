"""System Recovery Boost (IBM Redbooks SG24-8536, section 3.5): restart phases, parallel log
apply, the backlog after an outage and the closed loop that drains it.

``model`` (pure numpy), ``fidelity`` (hypotheses and ledger rows), ``figures``, ``exercises``
and ``explorer``.
"""
from .fidelity import ledger_rows  # noqa: F401  (the ledger looks for it here)
