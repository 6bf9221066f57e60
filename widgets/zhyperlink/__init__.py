"""zHyperLink I/O (IBM Redbooks SG24-8536, section 3.10): when spinning beats waiting.

``model`` (pure numpy), ``fidelity`` (calibration, ledger rows, known misses), ``figures``,
``exercises`` and ``explorer``.
"""
from .fidelity import ledger_rows  # noqa: F401  (the ledger looks for it here)
