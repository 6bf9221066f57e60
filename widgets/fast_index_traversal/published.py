"""The numbers sections 2.6 and 4.2-4.3 print, from ``data/fast_index_traversal`` (reductions negative)."""
from __future__ import annotations

from ..citations import citing
from ..data import number

STUDY = "fast_index_traversal"
S26 = "s2_6_quoted.csv"
S43 = "s4_3_quoted.csv"
T42, T43, T44, T45 = "t4_2_two_way_ds.csv", "t4_3_one_way_ds.csv", "t4_4_non_ds.csv", "t4_5_notify_traffic.csv"
RESULTS = S26


def value(run_id: str, metric: str, filename: str = RESULTS) -> float:
    """One printed number (in its unit; reductions negative)."""
    return number(STUDY, filename, run_id, metric)


#: ``cite(filename, run_id, metric)``: document, section, table and page of one printed number.
cite = citing(STUDY)
