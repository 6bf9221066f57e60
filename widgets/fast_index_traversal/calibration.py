"""Every fitted constant of the fast-index-traversal chapter.

The getpage-to-CPU share ``f`` has one measurement per environment (Tables 4-2 to 4-4), so each
fit is exact by construction; the memory figure's two migration waves are read once from the
printed getpages and storage of section 4.3.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from .. import fitting
from . import published as pub

SELECTS = {  # run in s2_6_quoted.csv -> rows per key
    "select_1_row_per_key": 1, "select_10_rows_per_key": 10, "select_100_rows_per_key": 100,
}
ENVIRONMENTS = {  # environment -> (table, getpage cut %, CPU cut %) as printed
    "non-data sharing": (pub.T44, "getpage_per_commit_change_pct", "total_db2_cpu_change_pct"),
    "1-way data sharing": (pub.T43, "getpage_per_commit_change_pct", "total_db2_cpu_change_pct"),
    "2-way data sharing": (pub.T42, "getpage_per_commit_change_pct", "total_db2_cpu_group_change_pct"),
}


def cpu_share(environment: str) -> float:
    """Getpage-linked CPU share f = CPU cut / getpage cut (one measurement: exact by construction)."""
    table, gp, cpu = ENVIRONMENTS[environment]
    return pub.value("delta", cpu, table) / pub.value("delta", gp, table)


@lru_cache(maxsize=1)
def waves() -> tuple[float, float, float, float, float]:
    """(getpages per commit on Db2 12, after FL 100, after FL 500; extra real storage in MB after
    FL 100, after FL 500), as section 4.3 prints them for the brokerage workload (version 2)."""
    g0 = pub.value("db2_12_fl510", "bp_getpage_per_commit_count", pub.S43)
    g1 = pub.value("db2_13_fl100", "bp_getpage_per_commit_count", pub.S43)
    g2 = pub.value("db2_13_fl500", "bp_getpage_per_commit_count", pub.S43)
    m1 = pub.value("db2_13_fl100", "real_storage_increase_mb", pub.S43)
    m2 = pub.value("db2_13_fl500", "real_storage_increase_mb", pub.S43)
    return g0, g1, g2, m1, m2


# --- the sliders -> the model's inputs --------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """Every slider of the chapter, at its published or argued value: the figures read the model's inputs
    from it (none of them is fitted: the fitted shares are :func:`cpu_share`'s)."""

    levels: float = 4.0  # index levels of the selects' index (Table 2-10)
    new_page_share: float = 5 / 9  # rows of a key on a new data page (argued in the chapter)
    log10_rows: float = math.log10(2e7)  # rows in the index: the published 20 million
    nonleaf_key_share: float = 0.4  # the non-leaf key kept by truncation (argued)
    your_f: float = 0.2  # a reader's getpage-linked share of CPU (the largest fitted one, rounded)
    beyond_density: float = 20.0  # getpages saved per commit per GB beyond the measured 4.2 GB (assumed)


def scenario(values: Mapping[str, float]) -> Scenario:
    """The scenario at the sliders' values; any other name is a ValueError."""
    return fitting.scenario(Scenario(), values)
