"""The zEDC note's scenario: what the sliders set. Nothing is fitted (no table stands behind the deck's
claims), so the defaults are the note's illustrations, not numbers from the deck."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .. import fitting


@dataclass(frozen=True)
class Scenario:
    """A data volume, how long it is kept, and what compressing it in software costs."""

    volume_tb_per_day: float = 1.0  # data written a day, uncompressed, TB (an illustration)
    retention_days: float = 90.0  # days a day's data stays on disk (an illustration)
    cpu_s_per_gb: float = 30.0  # CPU seconds to compress one GB in software (an illustration)


def scenario(values: Mapping[str, float]) -> Scenario:
    """The scenario at the sliders' values; any other name is a ValueError."""
    return fitting.scenario(Scenario(), values)
