"""Loading the published tables in ``data/`` and checking them on the way in.

Each study has a folder ``data/<study>/`` of tidy CSV files and a ``sources.csv`` naming, for
each file, the source text it was transcribed from (``seed``, a file name; ``data/documents.csv``
names the published document behind it), the document's own table, page, and the line range of
the text (for maintainers). ``data/sections.csv`` maps a line of a text to the document's own
section, so that a citation a reader sees (:mod:`widgets.citations`) names the document's coordinates,
never a line. Numeric tables are long: one row per printed cell, with the columns :data:`LONG_COLUMNS`.
``printed`` keeps the cell exactly as the source prints it; ``value`` is the number in ``unit``.

Any problem raises :class:`DataError` (a ``ValueError``) naming the file, the row (as the line
number in the CSV file, header = line 1) and the column.
"""
from __future__ import annotations

import csv
import math
import os
from functools import lru_cache
from pathlib import Path

import pandas as pd

LONG_COLUMNS = ("run_id", "metric", "unit", "value", "printed", "line", "flag", "note")
SOURCE_COLUMNS = ("file", "seed", "table", "caption", "page", "lines")
DOCUMENT_COLUMNS = ("seed", "cite_as", "document")
SECTION_COLUMNS = ("seed", "first_line", "section", "title", "page")
FLAGS = ("", "reconstructed", "contradiction", "unstated")


class DataError(ValueError):
    """A published table is missing, malformed, or lacks provenance."""


def data_dir() -> Path:
    """The ``data/`` folder (override with the ``DB2BOOK_DATA`` environment variable)."""
    override = os.environ.get("DB2BOOK_DATA")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "data"


def _read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or [])
        rows = []
        for i, row in enumerate(reader, start=2):
            if None in row:
                raise DataError(f"{path}, line {i}: more cells than the header has columns")
            if any(v is None for v in row.values()):
                raise DataError(f"{path}, line {i}: fewer cells than the header has columns")
            rows.append(row)
    if not header:
        raise DataError(f"{path}: empty file (no header)")
    if not rows:
        raise DataError(f"{path}: no data rows")
    return header, rows


def _require_columns(path: Path, header: list[str], columns: tuple[str, ...]) -> None:
    missing = [c for c in columns if c not in header]
    if missing:
        raise DataError(f"{path}: missing column(s) {', '.join(missing)}; expected {', '.join(columns)}")


@lru_cache(maxsize=None)
def sources(study: str, root: str | None = None) -> pd.DataFrame:
    """The provenance table of a study: one row per CSV file."""
    path = Path(root or data_dir()) / study / "sources.csv"
    header, rows = _read_rows(path)
    _require_columns(path, header, SOURCE_COLUMNS)
    for i, row in enumerate(rows, start=2):
        for col in ("file", "seed", "table", "lines"):
            if not row[col].strip():
                raise DataError(f"{path}, line {i}, column {col}: empty provenance field")
    return pd.DataFrame(rows, columns=header)


def _parse_number(path: Path, line: int, column: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{path}, line {line}, column {column}: {text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value):
        raise DataError(f"{path}, line {line}, column {column}: {text!r} is not a finite number")
    return value


def load_long(study: str, filename: str, root: str | None = None) -> pd.DataFrame:
    """Load one long table, checked: columns, numbers, source lines, flags and provenance."""
    base = Path(root or data_dir()) / study
    path = base / filename
    header, rows = _read_rows(path)
    _require_columns(path, header, LONG_COLUMNS)
    src = sources(study, str(root) if root else None)
    if filename not in set(src["file"]):
        raise DataError(f"{path}: no provenance entry in {base / 'sources.csv'}")
    values, lines = [], []
    for i, row in enumerate(rows, start=2):
        if not row["run_id"].strip() or not row["metric"].strip():
            raise DataError(f"{path}, line {i}: run_id and metric must not be empty")
        text = row["value"].strip()
        values.append(_parse_number(path, i, "value", text) if text else math.nan)
        lines.append(int(_parse_number(path, i, "line", row["line"].strip())))
        if row["flag"].strip() not in FLAGS:
            raise DataError(f"{path}, line {i}, column flag: {row['flag']!r} is not one of {FLAGS}")
        if row["flag"].strip() and not row["note"].strip():
            raise DataError(f"{path}, line {i}, column note: a flagged cell must say why")
    frame = pd.DataFrame(rows, columns=header)
    frame["value"] = values
    frame["line"] = lines
    frame["csv_line"] = range(2, len(rows) + 2)
    return frame


def wide(frame: pd.DataFrame) -> pd.DataFrame:
    """Pivot a long table to one row per run and one column per metric (numbers only)."""
    numeric = frame[frame["value"].notna()]
    table = numeric.pivot_table(index="run_id", columns="metric", values="value", aggfunc="first", sort=False)
    order = list(dict.fromkeys(frame["run_id"]))
    return table.reindex([r for r in order if r in table.index])


@lru_cache(maxsize=None)
def documents(root: str | None = None) -> pd.DataFrame:
    """The published documents behind the source texts: ``seed`` (file name), ``cite_as``, ``document``."""
    path = Path(root or data_dir()) / "documents.csv"
    header, rows = _read_rows(path)
    _require_columns(path, header, DOCUMENT_COLUMNS)
    for i, row in enumerate(rows, start=2):
        for col in DOCUMENT_COLUMNS:
            if not row[col].strip():
                raise DataError(f"{path}, line {i}, column {col}: empty field")
    return pd.DataFrame(rows, columns=header).set_index("seed", drop=False)


@lru_cache(maxsize=None)
def sections(root: str | None = None) -> pd.DataFrame:
    """Where each section of a source document starts in its text (``data/sections.csv``)."""
    path = Path(root or data_dir()) / "sections.csv"
    header, rows = _read_rows(path)
    _require_columns(path, header, SECTION_COLUMNS)
    frame = pd.DataFrame(rows, columns=header)
    frame["first_line"] = [int(_parse_number(path, i, "first_line", v)) for i, v in enumerate(frame["first_line"], 2)]
    return frame


def printed_table(study: str, filename: str) -> pd.DataFrame:
    """A long table shown as printed: one row per metric, one column per run.

    Cells keep the source's printed text; a flagged cell gets a mark (``†`` reconstructed,
    ``‡`` contradiction, ``§`` unstated: the source leaves its unit or meaning unsaid) that
    :func:`flagged` explains.
    """
    frame = load_long(study, filename)
    marks = {"reconstructed": " †", "contradiction": " ‡", "unstated": " §", "": ""}
    frame = frame.assign(shown=[
        (p if f != "reconstructed" else f"{v:,.10g}{'%' if u == 'pct' else ''}") + marks[f]
        for p, v, u, f in zip(frame["printed"], frame["value"], frame["unit"], frame["flag"].str.strip())])
    table = frame.pivot_table(index="metric", columns="run_id", values="shown", aggfunc="first", sort=False)
    return table.reindex(columns=list(dict.fromkeys(frame["run_id"]))).rename_axis(index=None, columns=None)


def flaggable_files(study: str, root: str | None = None) -> list[tuple[str, str]]:
    """``(file, table)`` of each of a study's tables that can flag a cell (it has a ``flag`` column), in
    ``sources.csv``'s order; :func:`widgets.citations.flagged` lists the flagged cells."""
    src = sources(study, root)
    return [(filename, table) for filename, table in zip(src["file"], src["table"])
            if "flag" in _read_rows(Path(root or data_dir()) / study / filename)[0]]


@lru_cache(maxsize=None)
def _wide_table(study: str, filename: str, root: str) -> pd.DataFrame:
    return wide(load_long(study, filename, root))


def number(study: str, filename: str, run_id: str, metric: str) -> float:
    """One printed number of a long table (in its unit), or a DataError naming what is missing."""
    table = _wide_table(study, filename, str(data_dir()))
    missing = run_id not in table.index or metric not in table.columns
    if missing or table.loc[run_id, metric] != table.loc[run_id, metric]:
        raise DataError(f"{filename}: no number for run {run_id!r}, metric {metric!r}")
    return float(table.loc[run_id, metric])


