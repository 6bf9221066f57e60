"""Loading the published tables in ``data/`` and checking them on the way in.

Each study has a folder ``data/<study>/`` of tidy CSV files and a ``sources.csv`` naming, for
each file, the document, table, page and line range it was transcribed from. Numeric tables are
long: one row per printed cell, with the columns :data:`LONG_COLUMNS`. ``printed`` keeps the
cell exactly as the source prints it; ``value`` is the number in ``unit``.

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
SOURCE_COLUMNS = ("file", "document", "table", "caption", "page", "lines")
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
        for col in ("file", "document", "table", "lines"):
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


def source_text(study: str, filename: str, line: int | None = None) -> str:
    """A short citation for a table file: document, table, page and line."""
    src = sources(study)
    row = src[src["file"] == filename].iloc[0]
    doc = row["document"].split(" (")[0]
    where = f"line {line}" if line is not None else f"lines {row['lines']}"
    page = f", {row['page']}" if row["page"] else ""
    return f"{doc}, {row['table']}{page}, {where}"


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


def flagged(study: str, root: str | None = None) -> pd.DataFrame:
    """Every flagged cell of a study: reconstructed from the study's arithmetic, contradicting it, or
    resting on something the source leaves unsaid (``unstated``: a unit not printed, a ratio never explained)."""
    src = sources(study, root)
    rows = []
    for filename, table in zip(src["file"], src["table"]):
        path = Path(root or data_dir()) / study / filename
        header, _ = _read_rows(path)
        if "flag" not in header:
            continue
        frame = load_long(study, filename, root)
        hit = frame[frame["flag"].str.strip() != ""]
        for row in hit.itertuples():
            rows.append({"table": table, "run": row.run_id, "metric": row.metric, "printed": row.printed,
                         "line": row.line, "flag": row.flag, "why": row.note})
    return pd.DataFrame(rows)


@lru_cache(maxsize=None)
def _wide_table(study: str, filename: str, root: str) -> pd.DataFrame:
    return wide(load_long(study, filename, root))


def number(study: str, filename: str, run_id: str, metric: str) -> float:
    """One printed number of a long table (in its unit), or a DataError naming what is missing."""
    table = _wide_table(study, filename, str(data_dir()))
    if run_id not in table.index or metric not in table.columns or table.loc[run_id, metric] != table.loc[run_id, metric]:
        raise DataError(f"{filename}: no number for run {run_id!r}, metric {metric!r}")
    return float(table.loc[run_id, metric])


def cite_cell(study: str, filename: str, run_id: str, metric: str, document: str) -> str:
    """``document``, table or section, page and line of one printed cell."""
    long = load_long(study, filename)
    row = long[(long["run_id"] == run_id) & (long["metric"] == metric)]
    if row.empty:
        raise DataError(f"{filename}: no cell for run {run_id!r}, metric {metric!r}")
    return f"{document}, " + source_text(study, filename, int(row["line"].iloc[0])).split(", ", 1)[1]
