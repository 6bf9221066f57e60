"""Printed digits of numbers with an ``M`` suffix, as the large-memory study prints them (review 25c, finding 1):
the shared ``identities.half_unit`` reads them, so every chapter's identity rows do."""
from __future__ import annotations

import pytest

from widgets import identities
from widgets.large_memory import fidelity


@pytest.mark.parametrize(("printed", "half"), [("16.47M", 5000.0), ("16.13M", 5000.0), ("38.4K", 50.0),
                                               ("0.852", 0.0005), ("-2.0%", 0.05)])
def test_half_unit_reads_the_m_suffix_as_millions(printed, half):
    assert identities.half_unit(printed) == pytest.approx(half)


def test_table_19_etr_change_is_within_its_inputs_digits():
    """16.47M against 16.13M printed to 0.01M allow -2.004% to -2.124%: the printed -2.0% fits."""
    rows = [r for r in fidelity._delta_rows() if "Table 19" in r.source and r.quantity.startswith("etr")
            and r.condition.startswith("S40919B1")]
    assert len(rows) == 1
    row = rows[0]
    assert not row.known_miss and abs(row.model - row.published) <= row.absolute
