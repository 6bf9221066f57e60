"""SQL Data Insights (IBM Redbooks SG24-8536, chapter 6 and appendix B): training an embedding on a table.

``miniature`` (a working SQL DI in numpy: table -> tagged text -> vectors -> the three AI
functions), ``model`` (pure numpy: words, text, vocabulary, model size, training cost,
concurrency, query cost, the capacity planner), ``fidelity`` (calibration, ledger rows, known
misses), ``figures``, ``exercises`` and ``explorer``.
"""
