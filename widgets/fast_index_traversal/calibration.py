"""Every fitted constant of the fast-index-traversal chapter.

The getpage-to-CPU share ``f`` has one measurement per environment (Tables 4-2 to 4-4), so each
fit is exact by construction; the memory figure's two migration waves are read once from the
printed getpages and storage of section 4.3.
"""
from __future__ import annotations

from functools import lru_cache

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
