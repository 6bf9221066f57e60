"""The published numbers of section 3.5, from ``data/system_recovery_boost``."""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from ..citations import citing
from ..data import load_long, number, wide

STUDY = "system_recovery_boost"
UNPLANNED = "t3_7_unplanned_restart.csv"
PLANNED = "t3_8_planned_restart.csv"
QUOTED = "s3_5_quoted.csv"
PHASES = ("log_initialization_s", "current_status_rebuild_s", "forward_log_recovery_s", "backward_log_recovery_s")
PHASE_NAMES = {"ipl_s": "IPL", "log_initialization_s": "log initialization",
               "current_status_rebuild_s": "current status rebuild",
               "forward_log_recovery_s": "forward log recovery", "backward_log_recovery_s": "backward log recovery"}

#: ``cite(filename, run_id, metric)``: document, section, table and page of one printed cell.
cite = citing(STUDY)


@lru_cache(maxsize=None)
def restart(filename: str) -> pd.DataFrame:
    """One restart table as printed: rows no_boost, boost, delta; a column per phase (s)."""
    return wide(load_long(STUDY, filename))


def quoted(run_id: str, metric: str) -> float:
    """A number quoted in the prose of section 3.5."""
    return number(STUDY, QUOTED, run_id, metric)
