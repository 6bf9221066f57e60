"""The buffer pool hit ratio is dead (Goldstein, 2002-2004): why the I/O rate, not the hit ratio.

``model`` (pure numpy: definitions, the stack-distance threshold, the hit-ratio builder, VPSEQT),
``stack_distance`` and ``simulator`` (the trace-driven Buffer Pool Tool), ``fidelity``
(calibration, ledger rows, known misses), ``figures``, ``exercises`` and ``explorer``.
"""
