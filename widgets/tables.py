"""How a table (a pandas DataFrame) reads on a page: as printed, whole, and on any screen.

pandas' own HTML for a DataFrame prints ``NaN`` in every empty cell, cuts text at 50
characters with an ellipsis, drops middle columns and rows of a big table, prints raw floats
(``1.5022e+07``) and a 0…N index. :func:`table_html` prints the same table as a reader wants it:

* an empty cell is blank (a printed table that has no value there shows nothing either);
* text is never cut: explanations wrap in full (the page's CSS wraps them);
* numbers read as printed: no binary noise, no exponent, thousands separated; ``True``/``False`` as ✓/✗;
* a bare 0…N index is not shown;
* a table wider than :data:`MAX_COLUMNS` columns is split into several tables of at most that
  many columns, each keeping the row names and only the rows that have a value in its columns.

The package registers :func:`table_html` as IPython's HTML for every DataFrame on its first import
(``widgets/__init__.py``), in the book and in live notebooks.
"""
from __future__ import annotations

import html
import math
from numbers import Integral, Real

import numpy as np
import pandas as pd

MAX_COLUMNS = 8  # the widest table that still reads on a laptop; wider ones are split


def cell_text(value) -> str:
    """One cell as printed: blank when empty, ✓/✗ for booleans, numbers without noise or exponent."""
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "✓" if value else "✗"
    if isinstance(value, Integral):
        return f"{int(value):,}"
    if isinstance(value, Real):
        value = float(value)
        if math.isnan(value):
            return ""
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        if value == int(value) and abs(value) < 1e15:
            return f"{int(value):,}"
        text = f"{value:,.10g}"
        if "e" in text:  # tiny magnitudes: print the digits, never an exponent
            text = f"{value:,.{min(20, 10 - int(math.floor(math.log10(abs(value)))))}f}".rstrip("0")
        return text
    return str(value)


def _is_plain_index(index: pd.Index) -> bool:
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 and index.name is None


def _column_chunks(frame: pd.DataFrame, width: int) -> list[pd.DataFrame]:
    if frame.shape[1] <= width:
        return [frame]
    chunks = []
    for start in range(0, frame.shape[1], width):
        part = frame.iloc[:, start:start + width]
        part = part[part.map(lambda v: cell_text(v) != "").any(axis=1)]
        if len(part):
            chunks.append(part)
    return chunks


def _one_table(frame: pd.DataFrame, show_index: bool) -> str:
    def label(v) -> str:
        return html.escape(" ".join(map(str, v)) if isinstance(v, tuple) else cell_text(v) if v is not None else "")

    head = ('<th scope="col"></th>' if show_index else "") + "".join(
        f'<th scope="col">{label(c)}</th>' for c in frame.columns)
    rows = []
    for key, row in zip(frame.index, frame.itertuples(index=False, name=None)):
        cells = "".join(
            f'<td class="{"num" if isinstance(v, Real) and not isinstance(v, (bool, np.bool_)) else "text"}">'
            f"{html.escape(cell_text(v))}</td>" for v in row)
        name = f'<th scope="row">{label(key)}</th>' if show_index else ""
        rows.append(f"<tr>{name}{cells}</tr>")
    return (f'<div class="db2book-table" tabindex="0"><table class="dataframe db2book-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def table_html(frame: pd.DataFrame, max_columns: int = MAX_COLUMNS) -> str:
    """A DataFrame as HTML that prints no ``NaN``, cuts no text, and splits when too wide."""
    if max_columns < 1:
        raise ValueError(f"max_columns must be at least 1, got {max_columns}")
    show_index = not _is_plain_index(frame.index)
    chunks = _column_chunks(frame, max_columns)
    if len(chunks) == 1:
        return _one_table(chunks[0], show_index)
    parts = [f'<p class="db2book-table-note">A wide table, shown in {len(chunks)} parts of at most '
             f"{max_columns} columns; each part lists only the rows with a value in its columns.</p>"]
    parts += [_one_table(chunk, show_index) for chunk in chunks]
    return "\n".join(parts)
