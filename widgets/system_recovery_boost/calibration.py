"""Every fitted constant of the System Recovery Boost chapter, and the scenario the sliders move.

The restart tables give forward log recovery (FLR) on two configurations only: 2 CPs + 2 zIIPs
without the boost and 2 CPs + 6 zIIPs with it. Amdahl's law has two parameters, so a curve
through both points always exists and its fit *validates nothing* (the ledger says so). Which
engines count is a hypothesis: :data:`HYPOTHESES`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from .. import fitting
from . import model
from . import published as pub

FLR = "forward_log_recovery_s"
#: How many engines each hypothesis counts (no boost, boost).
HYPOTHESES = {"engines (CPs + zIIPs): 4 -> 8": (4.0, 8.0), "zIIPs only: 2 -> 6": (2.0, 6.0)}
ENGINES = "engines (CPs + zIIPs): 4 -> 8"
ZIIPS = "zIIPs only: 2 -> 6"


@dataclass(frozen=True)
class Scenario(model.Outage):
    """Every slider of the chapter: the backlog's :class:`model.Outage` (a Scenario is one), and the
    restart, speed-up and closed-loop figures' own settings."""

    engines_boost: float = 8.0  # engines during the boost: 2 CPs + 6 zIIPs, as measured
    tasks: float = 8.0  # parallel apply tasks of forward log recovery (not published: argued)
    think_s: float = 5.0  # think time of the closed loop's users, s (not published: a slider)
    demand_ms: float = 40.0  # CPU per transaction, ms (not published: a slider)


#: The scenario at its defaults (the measured set-up; the unpublished values argued in the chapter).
DEFAULT = Scenario()


@lru_cache(maxsize=None)
def amdahl_fit(hypothesis: str = ENGINES) -> tuple[float, float]:
    """(serial, parallel) seconds of FLR through the two unplanned-restart points."""
    if hypothesis not in HYPOTHESES:
        raise ValueError(f"hypothesis={hypothesis!r} is not one of {sorted(HYPOTHESES)}")
    n1, n2 = HYPOTHESES[hypothesis]
    table = pub.restart(pub.UNPLANNED)
    return model.amdahl_through_two_points(n1, table.loc["no_boost", FLR], n2, table.loc["boost", FLR])


def fully_parallel_prediction(hypothesis: str) -> float:
    """FLR (s) with the boost if recovery were perfectly parallel: T_no_boost x N_before / N_after."""
    n1, n2 = HYPOTHESES[hypothesis]
    return float(pub.restart(pub.UNPLANNED).loc["no_boost", FLR] * n1 / n2)


def flr_seconds(engines) -> float:
    """FLR time (s) on ``engines`` engines under the engines hypothesis."""
    serial, parallel = amdahl_fit(ENGINES)
    return model.amdahl_time(engines, serial, parallel)


def scenario(values: Mapping[str, float]) -> Scenario:
    """The scenario at the sliders' values: :data:`DEFAULT` with the fields they name replaced; any
    other name is a ValueError."""
    return fitting.scenario(DEFAULT, values)
