"""Models, figures and explorers for *Db2 Performance, Retraced*.

One subpackage per study (``widgets.large_memory``, ...), each with a pure-numpy ``model``,
Altair ``figures`` built by the shared pipeline in :mod:`widgets.figure`, and an ipywidgets
``explorer``. Importing the package is light: the chart renderer for the surface it runs on
(see :mod:`widgets.render`) is picked when :mod:`widgets.figure` is imported, where charts are made.
DataFrames are shown as printed (:mod:`widgets.tables`) from the first import on, in any IPython
kernel, without importing pandas here: the formatter is registered by the type's name; a numpy
number left as a cell's result prints as the number (``868``), not as ``np.float64(868.0)``.
"""


def _table_html(frame):
    from .tables import table_html

    return table_html(frame)


def _number_text(value, printer, cycle):
    from .tables import cell_text

    printer.text(cell_text(value))


#: numpy scalars a cell can leave as its result: shown as the number (``868``), not ``np.float64(868.0)``.
NUMPY_SCALARS = ("float64", "float32", "int64", "int32", "bool")


def _register_tables() -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with the book's environment
        return
    shell = get_ipython()
    if shell is not None:
        html = shell.display_formatter.formatters["text/html"]
        for module in ("pandas", "pandas.core.frame"):  # pandas 3 names its public classes' module "pandas"
            html.for_type_by_name(module, "DataFrame", _table_html)
        import numpy  # (IPython's lookup by name misses numpy's scalar types: registered by type)

        plain = shell.display_formatter.formatters["text/plain"]
        for name in NUMPY_SCALARS:
            plain.for_type(getattr(numpy, name if name != "bool" else "bool_"), _number_text)


_register_tables()

