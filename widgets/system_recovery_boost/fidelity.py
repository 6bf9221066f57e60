"""The System Recovery Boost chapter's ledger rows, and the two parallel-restart hypotheses.

The restart tables give forward log recovery (FLR) on two configurations only: 2 CPs + 2 zIIPs
without the boost and 2 CPs + 6 zIIPs with it. Amdahl's law has two parameters, so a curve
through both points always exists and its fit *validates nothing*: the ledger rows for FLR are
exact by construction and say so. What can be tested is the restart total the phases add up to,
within the rounding of the printed phases, and the hypotheses' simplest (fully parallel) forms,
which the chapter compares outside the ledger.
"""
from __future__ import annotations

from functools import lru_cache

from ..ledger import LedgerRow
from . import model
from . import published as pub

CHAPTER = "System Recovery Boost"
FLR = "forward_log_recovery_s"
#: How many engines each hypothesis counts (no boost, boost).
HYPOTHESES = {"engines (CPs + zIIPs): 4 -> 8": (4.0, 8.0), "zIIPs only: 2 -> 6": (2.0, 6.0)}
ENGINES = "engines (CPs + zIIPs): 4 -> 8"


@lru_cache(maxsize=None)
def amdahl_fit(hypothesis: str = ENGINES) -> tuple[float, float]:
    """(serial, parallel) seconds of FLR through the two unplanned-restart points."""
    if hypothesis not in HYPOTHESES:
        raise ValueError(f"hypothesis={hypothesis!r} is not one of {sorted(HYPOTHESES)}")
    n1, n2 = HYPOTHESES[hypothesis]
    table = pub.restart(pub.UNPLANNED)
    return model.amdahl_through_two_points(n1, table.loc["no_boost", FLR], n2, table.loc["boost", FLR])


def fully_parallel_prediction(hypothesis: str) -> float:
    """FLR with the boost if recovery were perfectly parallel: T_no_boost x N_before / N_after."""
    n1, n2 = HYPOTHESES[hypothesis]
    return float(pub.restart(pub.UNPLANNED).loc["no_boost", FLR] * n1 / n2)


def flr_seconds(engines) -> float:
    """FLR time (s) on ``engines`` engines under the engines hypothesis."""
    serial, parallel = amdahl_fit(ENGINES)
    return model.amdahl_time(engines, serial, parallel)


def restart_total(run_id: str, engines: float) -> float:
    """Db2 restart time (s) after an unplanned outage: printed phases, with FLR from the model."""
    table = pub.restart(pub.UNPLANNED)
    others = sum(table.loc[run_id, ph] for ph in pub.PHASES if ph != FLR)
    return float(others + flr_seconds(engines))


def ledger_rows() -> list[LedgerRow]:
    table = pub.restart(pub.UNPLANNED)
    rows = []
    for run_id, engines, label in (("no_boost", 4.0, "no boost, 2 CPs + 2 zIIPs"),
                                   ("boost", 8.0, "boost, 2 CPs + 6 zIIPs")):
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.UNPLANNED, run_id, FLR),
            quantity="forward log recovery (s)",
            condition=f"unplanned outage, {label}; Amdahl through both points: exact by construction",
            published=float(table.loc[run_id, FLR]), model=float(flr_seconds(engines)), tolerance=0.001))
        # four printed phases, each rounded to 0.01 s, and a printed total: +-0.025 s at most
        tolerance = 0.025 / float(table.loc[run_id, "db2_restart_s"])
        rows.append(LedgerRow(
            chapter=CHAPTER, source=pub.cite(pub.UNPLANNED, run_id, "db2_restart_s"),
            quantity="Db2 restart time (s)", condition=f"unplanned outage, {label}; phases summed",
            published=float(table.loc[run_id, "db2_restart_s"]), model=restart_total(run_id, engines),
            tolerance=tolerance))
    return rows


def hypotheses_table() -> list[dict]:
    """Each hypothesis: its exact Amdahl fit, and what its fully parallel form would predict."""
    measured = float(pub.restart(pub.UNPLANNED).loc["boost", FLR])
    out = []
    for name in HYPOTHESES:
        serial, parallel = amdahl_fit(name)
        guess = fully_parallel_prediction(name)
        out.append({"hypothesis": name, "serial s": round(serial, 2), "parallel s": round(parallel, 2),
                    "serial share": f"{serial / (serial + parallel / HYPOTHESES[name][0]):.0%}",
                    "fully parallel prediction (s)": round(guess, 2), "measured (s)": measured,
                    "error of the fully parallel form": f"{guess / measured - 1:+.0%}"})
    return out
