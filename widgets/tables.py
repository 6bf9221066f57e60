"""How a table (a pandas DataFrame) reads on a page: as printed, whole, and on any screen.

pandas' own HTML for a DataFrame prints ``NaN`` in every empty cell, cuts text at 50
characters with an ellipsis, drops middle columns and rows of a big table, prints raw floats
(``1.5022e+07``) and a 0…N index. :func:`table_html` prints the same table as a reader wants it:

* an empty cell is blank (a printed table that has no value there shows nothing either);
* text is never cut: explanations wrap in full (the page's CSS wraps them);
* numbers read as printed: no binary noise, no exponent, thousands separated; ``True``/``False`` as ✓/✗;
  a number with more significant digits than any source prints (:data:`PRINTED_DIGITS`) is arithmetic
  on printed numbers or a model's value, and shows :data:`DERIVED_DIGITS` of them;
* a bare 0…N index is not shown;
* names from ``data/`` read as words and units: a column or row named ``etr_ds_per_s`` reads
  "ETR (dialog steps per s)" (:func:`reader_label`), in the headers, the row names and the cells of
  the columns that hold such names (:data:`NAME_COLUMNS`). A table of values as a program stores
  them (the SQL Data Insights miniature's rows) says so with ``frame.attrs["verbatim"] = True``
  and keeps its names;
* a table wider than :data:`MAX_COLUMNS` columns is split into several tables of at most that
  many columns, each keeping the row names and only the rows that have a value in its columns.

The package registers :func:`table_html` as IPython's HTML for every DataFrame on its first import
(``widgets/__init__.py``), in the book and in live notebooks.
"""
from __future__ import annotations

import csv
import html
import math
import re
from functools import lru_cache
from numbers import Integral, Real

import numpy as np
import pandas as pd

MAX_COLUMNS = 8  # the widest table that still reads on a laptop; wider ones are split
#: Columns whose cells are names from ``data/`` (a metric, a run), shown as words like the headers.
#: Significant digits: the most a printed number has (kept exactly), and what arithmetic is shown with.
PRINTED_DIGITS = 6
DERIVED_DIGITS = 4
NAME_COLUMNS = ("metric", "run", "run_id")

#: A snake_case name, as ``data/`` names metrics and runs.
SNAKE_NAME = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


@lru_cache(maxsize=None)
def reader_words() -> dict[str, str]:
    """Words of ``data/``'s names that a reader reads otherwise (abbreviations, product names, the
    studies' run and pool names): ``data/words.csv``, kept with the data that uses them."""
    from .data import data_dir

    with (data_dir() / "words.csv").open(encoding="utf-8", newline="") as f:
        return {row["word"]: row["reads_as"] for row in csv.DictReader(f)}


#: Units that end a name, as the reader reads them after the words, in brackets.
UNITS = {"pct": "%", "gb": "GB", "mb": "MB", "s": "s", "ms": "ms", "min": "min", "us": "µs", "k": "thousands"}
#: Rates that end a name and read as its unit: ``per_s`` -> "(per s)".
RATES = {("per", "s"): "per s", ("per", "hour"): "per hour"}
#: Words that, just before a rate, belong to the unit: ``log_mb_per_s`` -> "Log (MB per s)".
RATE_WORDS = {"ds": "dialog steps", "io": "I/O", "mb": "MB", "gb": "GB"}


def reader_label(name) -> str:
    """A name from ``data/`` as a reader reads it: words and units, not an identifier.

    ``etr_ds_per_s`` -> "ETR (dialog steps per s)", ``hit_ratio_pct_4k`` -> "Hit ratio, 4K (%)",
    ``db2_12_fl510`` -> "Db2 12 FL510", ``users`` -> "Users". Anything else (a run printed as
    ``S30801B1``, words with spaces) is returned as it is.
    """
    if isinstance(name, str) and re.fullmatch(r"[a-z][a-z0-9]*", name):  # one word: "users" -> "Users"
        return reader_words().get(name, name.capitalize())
    if not isinstance(name, str) or not SNAKE_NAME.match(name):
        return name
    tokens = name.split("_")
    qualifier = ""
    if len(tokens) > 2 and re.fullmatch(r"\d+k", tokens[-1]) and tokens[-2] in UNITS:
        qualifier = reader_words()[tokens.pop()]  # hit_ratio_pct_4k: the page size qualifies the metric
    unit = ""
    if len(tokens) > 2 and tuple(tokens[-2:]) in RATES:
        unit = RATES[tuple(tokens[-2:])]
        tokens = tokens[:-2]
        if len(tokens) > 1 and tokens[-1] in RATE_WORDS:
            unit = f"{RATE_WORDS[tokens.pop()]} {unit}"
    elif len(tokens) > 1 and tokens[-1] in UNITS:
        unit = UNITS[tokens.pop()]
    if len(tokens) > 1 and tokens[-1] == "count" and (tokens[-2].endswith("s") or "per" in tokens):
        tokens.pop()  # banking_accounts_count: "Banking accounts"; rows_per_commit_count: "Rows per commit"
    known = reader_words()
    words: list[str] = []
    for i, token in enumerate(tokens):
        size = re.fullmatch(r"(\d+)(gb|mb)", token)
        if token in known:
            words.append(known[token])
        elif token in UNITS and token not in ("s", "k"):
            words.append(UNITS[token])
        elif size:
            words.append(f"{size.group(1)} {size.group(2).upper()}")
        elif re.fullmatch(r"fl\d+", token):
            words.append(token.upper())
        elif re.fullmatch(r"class\d", token):
            words.append(f"class {token[-1]}")
        elif token.isdigit() and words and re.fullmatch(r"\d{4}(-\d\d)*", words[-1]) and len(token) == 2:
            words[-1] += "-" + token  # a date: 2004_03_01 -> 2004-03-01
        elif token.isdigit() and words and re.fullmatch(r"\d{1,2}(\.\d{1,2})*", words[-1]) and len(token) <= 2 \
                and i >= 2:
            words[-1] += "." + token  # a section or example number: example_2_4 -> Example 2.4
        elif words and words[-1] == "non":
            words[-1] += "-" + token
        else:
            words.append(token)
    text = " ".join(words)
    if text[:1].islower() and not re.match(r"z[A-Z/]", text):
        text = text[0].upper() + text[1:]
    if qualifier:
        text += ", " + qualifier
    text = re.sub(r" delta$", " change", text)
    return f"{text} ({unit})" if unit else text


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
        # a number a source prints has at most PRINTED_DIGITS significant digits and reads as it was
        # printed; any other is arithmetic (a ratio of printed cells, a model's value): DERIVED_DIGITS
        digits = PRINTED_DIGITS if float(f"{value:.{PRINTED_DIGITS}g}") == value else DERIVED_DIGITS
        if digits == DERIVED_DIGITS and abs(value) >= 10 ** DERIVED_DIGITS:
            return f"{round(value):,}"  # a large derived number: to the unit, not to four digits
        text = f"{value:,.{digits}g}"
        if "e" in text:  # tiny or huge magnitudes: print the digits, never an exponent
            exponent = int(math.floor(math.log10(abs(value))))
            text = f"{float(f'{value:.{digits}g}'):,.{max(0, min(20, digits - 1 - exponent))}f}"
            text = text.rstrip("0").rstrip(".") if "." in text else text
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


def _one_table(frame: pd.DataFrame, show_index: bool, verbatim: bool = False) -> str:
    as_words = (lambda v: v) if verbatim else reader_label

    def label(v) -> str:
        return html.escape(" ".join(map(str, map(as_words, v))) if isinstance(v, tuple)
                           else cell_text(as_words(v)) if v is not None else "")

    names = [not verbatim and str(c) in NAME_COLUMNS for c in frame.columns]

    head = ('<th scope="col"></th>' if show_index else "") + "".join(
        f'<th scope="col">{label(c)}</th>' for c in frame.columns)
    rows = []
    for key, row in zip(frame.index, frame.itertuples(index=False, name=None)):
        cells = "".join(
            f'<td class="{"num" if isinstance(v, Real) and not isinstance(v, (bool, np.bool_)) else "text"}">'
            f"{html.escape(cell_text(reader_label(v) if is_name else v))}</td>" for v, is_name in zip(row, names))
        name = f'<th scope="row">{label(key)}</th>' if show_index else ""
        rows.append(f"<tr>{name}{cells}</tr>")
    kind = "dataframe db2book-table" + (" db2book-verbatim" if verbatim else "")
    return (f'<div class="db2book-table" tabindex="0"><table class="{kind}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def table_html(frame: pd.DataFrame, max_columns: int = MAX_COLUMNS) -> str:
    """A DataFrame as HTML that prints no ``NaN``, cuts no text, and splits when too wide."""
    if max_columns < 1:
        raise ValueError(f"max_columns must be at least 1, got {max_columns}")
    show_index = not _is_plain_index(frame.index)
    verbatim = bool(frame.attrs.get("verbatim"))
    chunks = _column_chunks(frame, max_columns)
    if len(chunks) == 1:
        return _one_table(chunks[0], show_index, verbatim)
    parts = [f'<p class="db2book-table-note">A wide table, shown in {len(chunks)} parts of at most '
             f"{max_columns} columns; each part lists only the rows with a value in its columns.</p>"]
    parts += [_one_table(chunk, show_index, verbatim) for chunk in chunks]
    return "\n".join(parts)
