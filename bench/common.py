"""Shared by every benchmark: the repository root, units, and the rows a benchmark adds."""
from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RESULTS = ROOT / "bench" / "results" / "latest.json"
BIN = Path(sys.executable).parent  # the venv's bin (not resolved: it is the venv's python)
KB = 1000  # decimal units throughout: 1 KB = 1000 bytes, 1 MB = 1000 KB

NO_GOAL = "report only"


class Rows:
    """The rows of the benchmark; every row has name, value, unit, goal and met (and error)."""

    def __init__(self):
        self.rows: list[dict] = []

    def add(self, name: str, value, unit: str, goal: str = NO_GOAL, met: bool | None = None,
            error: str | None = None, note: str | None = None, samples: list | None = None) -> None:
        row = {"name": name, "value": value, "unit": unit, "goal": goal, "met": met}
        if error is not None:
            row["error"] = error
        if note is not None:
            row["note"] = note
        if samples is not None:
            row["samples"] = [round(float(x), 3) for x in samples]
        self.rows.append(row)

    def measured(self, name: str, value: float | None, unit: str, goal: str = NO_GOAL,
                 note: str | None = None, samples: list | None = None) -> None:
        """A measured row; ``met`` follows from ``goal`` ("<= x" or "< x") when it has one."""
        self.add(name, None if value is None else round(float(value), 3), unit, goal,
                 _met(value, goal), note=note, samples=samples)

    def failed(self, names: list[str] | str, unit: str, goal: str, exc: BaseException | str) -> None:
        msg = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}".strip()
        msg = " ".join(msg.split())[:400]
        for name in [names] if isinstance(names, str) else names:
            self.add(name, None, unit, goal, None, error=msg)


def _met(value, goal: str) -> bool | None:
    if value is None or goal == NO_GOAL:
        return None
    op, _, limit = goal.partition(" ")
    limit = float(limit.split()[0])
    return {"<=": value <= limit, "<": value < limit, ">=": value >= limit, ">": value > limit}[op]


def median(xs):
    return statistics.median(xs) if xs else None


def loadavg() -> float | None:
    """The 1-minute load average, or None where the system has none."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None
