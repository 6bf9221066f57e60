"""Loading the published tables in ``data/`` and checking them on the way in.

Each study has a folder ``data/<study>/`` of tidy CSV files and a ``sources.csv`` naming, for
each file, the source text it was transcribed from (``seed``, a file name; ``data/documents.csv``
names the published document behind it), the document's own table, page, and the line range of
the text (for maintainers). ``data/sections.csv`` maps a line of a text to the document's own
section, so that a citation a reader sees names the document's coordinates, never a line. Numeric tables are
long: one row per printed cell, with the columns :data:`LONG_COLUMNS`. ``printed`` keeps the
cell exactly as the source prints it; ``value`` is the number in ``unit``.

Any problem raises :class:`DataError` (a ``ValueError``) naming the file, the row (as the line
number in the CSV file, header = line 1) and the column.
"""
from __future__ import annotations

import csv
import math
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

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


def document_name(seed: str) -> str:
    """The short name a citation gives a source text's document, e.g. ``Db2 13 Performance Topics, SG24-8536
    (2022)``."""
    docs = documents()
    if seed not in docs.index:
        raise DataError(f"{data_dir() / 'documents.csv'}: no document for source text {seed!r}")
    return docs.loc[seed, "cite_as"]


def study_document(study: str) -> str:
    """The short name of the document a study's tables come from (the first file's)."""
    return document_name(sources(study)["seed"].iloc[0])


def section_at(seed: str, line: int) -> str:
    """The document's own section that holds ``line`` of its text (``§3.10.4``, ``Appendix B``), or ``""``."""
    index = sections()
    index = index[(index["seed"] == seed) & (index["first_line"] <= line)]
    return "" if index.empty else index.iloc[-1]["section"]


def _is_prose(label: str) -> bool:
    """A ``table`` label that names running text rather than a table, figure or screen."""
    return "prose" in label.lower() or "listings" in label.lower()


def coordinates(study: str, filename: str, line: int | None = None) -> str:
    """The document's own coordinates of a file, or of one line of it: section, table or figure, page,
    e.g. ``§4.2, Table 4-2, p. 154``.

    ``line`` (a line of the source text, kept in ``data/`` for maintainers) picks the section; it is
    never shown. A page range (an inferred span of a whole section) is left out when a section is named.
    """
    src = sources(study)
    hit = src[src["file"] == filename]
    if hit.empty:
        raise DataError(f"{data_dir() / study / 'sources.csv'}: no provenance entry for {filename}")
    row = hit.iloc[0]
    section = section_at(row["seed"], line if line is not None else int(row["lines"].split("-")[0]))
    parts = [section] if section else []
    if not (_is_prose(row["table"]) and section):
        parts.append(row["table"])
    page = row["page"].strip()
    if page and not (section and page.startswith("pp.")):
        parts.append(page)
    return ", ".join(parts)


def citation(study: str, filename: str, line: int | None = None, document: str | None = None) -> str:
    """What a reader sees: the document and :func:`coordinates`, e.g.
    ``Db2 13 Performance Topics, SG24-8536 (2022), §4.2, Table 4-2, p. 154``."""
    seed = sources(study).set_index("file").loc[filename, "seed"] if document is None else ""
    return f"{document or document_name(seed)}, {coordinates(study, filename, line)}"


#: A reference to a line of a source text ("line 5076", "lines 2876/2895"): kept in data/, never shown to readers.
LINE_REFERENCE = re.compile(r"\b(?:text )?lines? (\d+(?:(?:\s*[-/,]\s*|\s+and\s+)\d+)*)\b", re.IGNORECASE)


def place(study: str, line: int) -> str:
    """The document's own coordinates of a line of a study's source text: a table or screen the study
    transcribed that spans it, else the section that holds it, else the file's label."""
    src = sources(study)
    seed = src["seed"].iloc[0]
    spans = []
    for row in src.itertuples():
        lo, hi = (int(x) for x in row.lines.split("-"))
        if lo <= line <= hi:
            spans.append((hi - lo, row.table))
    tables = sorted(s for s in spans if not _is_prose(s[1]))
    if tables:
        return tables[0][1]
    section = section_at(seed, line)
    return section or (min(spans)[1] if spans else "elsewhere in the source")


def reader_facing(text: str) -> bool:
    """True when a citation names a document of ``data/documents.csv`` and no line of its text."""
    return text.startswith(tuple(documents()["cite_as"])) and not LINE_REFERENCE.search(text)


def for_readers(study: str, text: str) -> str:
    """``text`` with every reference to a line of the source text replaced by the document's own
    coordinates (see :func:`place`): ``(line 5076, read environment)`` -> ``(§3.10.4, read environment)``."""
    def swap(match: re.Match) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        places = list(dict.fromkeys(place(study, n) for n in numbers))
        return " and ".join(places)
    return LINE_REFERENCE.sub(swap, text)


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
    resting on something the source leaves unsaid (``unstated``: a unit not printed, a ratio never explained).

    For readers: ``where`` (the document's section, table and page) and ``why`` (the note, its
    references to lines of the source text turned into sections and tables). ``table`` and ``line``
    are the maintainers' provenance."""
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
            rows.append({"table": table, "where": coordinates(study, filename, row.line), "run": row.run_id,
                         "metric": row.metric, "printed": row.printed, "line": row.line, "flag": row.flag,
                         "why": for_readers(study, row.note)})
    return pd.DataFrame(rows)


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


def cite_cell(study: str, filename: str, run_id: str, metric: str, document: str | None = None) -> str:
    """Where one printed cell is, in the document's own coordinates (see :func:`citation`);
    ``document`` overrides the short name from ``data/documents.csv``."""
    line = _cell_lines(study, filename, str(data_dir())).get((run_id, metric))
    if line is None:
        raise DataError(f"{filename}: no cell for run {run_id!r}, metric {metric!r}")
    return citation(study, filename, line, document)


@lru_cache(maxsize=None)
def _cell_lines(study: str, filename: str, root: str) -> dict[tuple[str, str], int]:
    """{(run_id, metric): line of the source text} of one long table (the first, if a cell repeats)."""
    long = load_long(study, filename, root)
    lines: dict[tuple[str, str], int] = {}
    for run_id, metric, line in zip(long["run_id"], long["metric"], long["line"]):
        lines.setdefault((run_id, metric), int(line))
    return lines


def citing(study: str) -> Callable[[str, str, str], str]:
    """The study's ``cite(filename, run_id, metric)``: where one printed cell of ``data/<study>/`` is,
    as a reader sees it (the document named by ``sources.csv`` and ``documents.csv``, then its
    section, table and page; see :func:`cite_cell`). Every study's ``published.cite`` is one of these."""
    def cite(filename: str, run_id: str, metric: str) -> str:
        return cite_cell(study, filename, run_id, metric)

    cite.__doc__ = f"Where one printed cell of data/{study}/ is: ``cite(filename, run_id, metric)``."
    return cite
