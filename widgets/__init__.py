"""Models, figures and explorers for *Db2 Performance, Retraced*.

One subpackage per study (``widgets.large_memory``, ...), each with a pure-numpy ``model``,
Altair ``figures`` built by the shared pipeline in :mod:`widgets.figure`, and an ipywidgets
``explorer``. Importing the package picks the chart renderer for the surface it runs on
(see :mod:`widgets.render`).
"""
from . import render as _render

RENDERER = _render.enable()
