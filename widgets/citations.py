"""Citations: where a number of ``data/`` is printed, in the published document's own coordinates.

A reader sees the document (``data/documents.csv``), then its section (``data/sections.csv``), table or
figure and page (``sources.csv``); never a line of the source text, which ``data/`` keeps for
maintainers. :func:`cite` is the one way to say where something is (a cell, a line or a whole file);
:func:`citing` binds it to a study (every study's ``published.cite``); :func:`for_readers` turns a
note's references to lines into those coordinates; :func:`flagged` lists a study's flagged cells with
where they are and why. Loading and checking ``data/`` is :mod:`widgets.data`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

import pandas as pd

from .data import DataError, data_dir, documents, flaggable_files, load_long, sections, sources


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


def cite(study: str, filename: str, run_id: str | None = None, metric: str | None = None, *,
         line: int | None = None, document: str | None = None) -> str:
    """Where something of ``data/<study>/<filename>`` is printed, as a reader sees it: the document and
    :func:`coordinates`, e.g. ``Db2 13 Performance Topics, SG24-8536 (2022), §4.2, Table 4-2, p. 154``.

    A cell (``run_id`` and ``metric``) is placed by the line of the source text it was read from, else
    ``line`` places it, else the file's first line; ``document`` overrides the short name from
    ``data/documents.csv``."""
    if run_id is not None or metric is not None:
        line = _cell_lines(study, filename, str(data_dir())).get((run_id, metric))
        if line is None:
            raise DataError(f"{filename}: no cell for run {run_id!r}, metric {metric!r}")
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



@lru_cache(maxsize=None)
def _cell_lines(study: str, filename: str, root: str) -> dict[tuple[str, str], int]:
    """{(run_id, metric): line of the source text} of one long table (the first, if a cell repeats)."""
    long = load_long(study, filename, root)
    lines: dict[tuple[str, str], int] = {}
    for run_id, metric, line in zip(long["run_id"], long["metric"], long["line"]):
        lines.setdefault((run_id, metric), int(line))
    return lines


def citing(study: str) -> Callable[[str, str, str], str]:
    """:func:`cite` for one study's cells: ``cite(filename, run_id, metric)``. Every study's
    ``published.cite`` is one of these."""
    def cite_in_study(filename: str, run_id: str, metric: str) -> str:
        return cite(study, filename, run_id, metric)

    cite_in_study.__doc__ = f"Where one printed cell of data/{study}/ is: ``cite(filename, run_id, metric)``."
    return cite_in_study


def flagged(study: str, root: str | None = None) -> pd.DataFrame:
    """Every flagged cell of a study: reconstructed from the study's arithmetic, contradicting it, or
    resting on something the source leaves unsaid (``unstated``: a unit not printed, a ratio never explained).

    For readers: ``where`` (the document's section, table and page) and ``why`` (the note, its
    references to lines of the source text turned into sections and tables). ``table`` and ``line``
    are the maintainers' provenance."""
    rows = []
    for filename, table in flaggable_files(study, root):
        frame = load_long(study, filename, root)
        hit = frame[frame["flag"].str.strip() != ""]
        for row in hit.itertuples():
            rows.append({"table": table, "where": coordinates(study, filename, row.line), "run": row.run_id,
                         "metric": row.metric, "printed": row.printed, "line": row.line, "flag": row.flag,
                         "why": for_readers(study, row.note)})
    return pd.DataFrame(rows)
