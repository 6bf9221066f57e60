"""The numbers section 3.10 prints, from ``data/zhyperlink`` (reductions are stored negative)."""
from __future__ import annotations

from ..citations import citing
from ..data import number

STUDY = "zhyperlink"
RESULTS = "s3_10_results.csv"
LIMITS = "s3_10_limits.csv"


def value(run_id: str, metric: str, filename: str = RESULTS) -> float:
    """One printed number (in its unit; reductions negative)."""
    return number(STUDY, filename, run_id, metric)


#: ``cite(filename, run_id, metric)``: document, section, table and page of one printed number.
cite = citing(STUDY)
