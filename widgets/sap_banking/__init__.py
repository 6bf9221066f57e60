"""SAP Banking Services 7.0 at 150 million accounts (IBM technical brief, 2012): how far one database
scales with processors in two-way data sharing, and what stops it.

``published`` (Tables 3 and 4 as tidy frames), ``model`` (pure numpy), ``calibration`` (every fit,
and ``scenario``: slider values to model inputs), ``fidelity`` (ledger rows), ``figures``,
``explorer`` and ``exercises``.
"""
