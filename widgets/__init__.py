"""Models, figures and explorers for *Db2 Performance, Retraced*.

One subpackage per study (``widgets.large_memory``, ...), each with a pure-numpy ``model``,
Altair ``figures`` built by the shared pipeline in :mod:`widgets.figure`, and an ipywidgets
``explorer``. Importing the package is light: the chart renderer for the surface it runs on
(see :mod:`widgets.render`) is picked when :mod:`widgets.figure` is imported, where charts are made.
"""


def __getattr__(name: str):
    if name == "RENDERER":  # kept for code that read it here
        from .figure import RENDERER

        return RENDERER
    raise AttributeError(f"module 'widgets' has no attribute {name!r}")
