"""Numbers as a reader reads them, and the grids a slider moves on: one rule each, for every surface.

* :func:`readable`: a number in a sentence, a slider's note, a message or a table of the ledger;
* :func:`on_grid`: whether a value is one of a slider's positions ``first + k * step`` (a browser's range
  input snaps to them); the static page's reset button is offered for exactly the values this refuses
  (:func:`widgets.render.embed_html` names them to the page);
* :func:`live_step`: the live slider's step, fine enough for its grid to hold every value the page offers.

Pure Python: importing it loads no plotting library and no numpy.
"""
from __future__ import annotations

#: How near a whole number of steps a value must be to count as on the grid (a millionth of a step).
GRID_TOLERANCE = 1e-6


def readable(x: float, digits: int = 6) -> str:
    """``x`` with thousands separators: whole numbers (and any from a million up) in full, others to
    ``digits`` significant digits, no trailing zeros and no exponent for the magnitudes the book holds
    (10,560; 0.017693; 500.734; 60)."""
    whole = float(x).is_integer() and abs(x) < 1e15
    if whole or abs(x) >= 1e6:
        return f"{x:,.0f}"
    return f"{x:,.{digits}g}"


def on_grid(value: float, first: float, step: float) -> bool:
    """Whether ``value`` is ``first + k * step`` for a whole k (to :data:`GRID_TOLERANCE` of a step)."""
    k = (value - first) / step
    return abs(k - round(k)) <= GRID_TOLERANCE


def live_step(p) -> float:
    """The live slider's step for :class:`widgets.figure.Param` ``p``: its declared ``step``, divided by
    ten until the default and every position of the static slider lie on the live slider's grid
    (``min + k * step``).

    A browser slider snaps its value to that grid; were the default or a value the page offers
    off it, the explorer would open, or land, at a slightly different setting than the page.
    """
    first = p.static_range()[0]
    step = p.step
    for _ in range(6):  # at most a millionth of the declared step
        if all(on_grid(v, p.min, step) for v in (p.default, first, first + p.static_step)):
            return step
        step /= 10
    raise ValueError(f"Param {p.name}: default {p.default!r} is off every grid finer than its step {p.step!r}")
