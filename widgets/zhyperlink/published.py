"""The numbers section 3.10 prints, from ``data/zhyperlink`` (reductions are stored negative)."""
from __future__ import annotations

from ..data import cite_cell, number, study_document

STUDY = "zhyperlink"
DOC = study_document(STUDY)  # "Db2 13 Performance Topics, SG24-8536 (2022)"
RESULTS = "s3_10_results.csv"
LIMITS = "s3_10_limits.csv"


def value(run_id: str, metric: str, filename: str = RESULTS) -> float:
    """One printed number (in its unit; reductions negative)."""
    return number(STUDY, filename, run_id, metric)


def cite(run_id: str, metric: str, filename: str = RESULTS) -> str:
    """Document, section, table and page of one printed number (no line of the source text)."""
    return cite_cell(STUDY, filename, run_id, metric, DOC)
