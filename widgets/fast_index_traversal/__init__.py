"""Fast index traversal (FTB; IBM Redbooks SG24-8536, sections 2.6 and 4.2-4.3).

``model`` (pure numpy and the eligibility rules), ``fidelity`` (ledger rows, fitted shares and
misses), ``figures``, ``exercises`` and ``explorer`` (with the eligibility form).
"""
