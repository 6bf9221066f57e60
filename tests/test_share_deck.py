"""The SHARE deck's restatement of the large-memory study, against the brief."""
from __future__ import annotations

import math
import shutil

import pytest

from tools import seeds
from widgets.data import data_dir, load_long, sources
from widgets.large_memory import deck

SEED_NAME = "001_73aad4a1b5a8db65.txt"
SEED = seeds.path(SEED_NAME)
NO_SEED = seeds.missing_reason(SEED_NAME)


#: The slide cells that print something other than the brief, judged once by hand (see the flags).
EXPECTED_DIFFERENCES = {("S31114B1", "sync_reads_per_s"), ("S31115B1", "sync_reads_delta_pct")}


def test_every_slide_table_cell_has_a_counterpart_in_the_brief():
    table = deck.against_brief()
    tables = table[table["run"] != "key_findings"]
    assert len(tables) > 100
    assert (tables["brief_table"] != "").all()
    assert set(table.loc[table["run"] == "key_findings", "verdict"]) == {"slide only"}


def test_the_differences_are_exactly_the_flagged_ones():
    table = deck.against_brief()
    differs = {(r.run, r.metric) for r in table.itertuples() if r.verdict == "differs"}
    assert differs == EXPECTED_DIFFERENCES
    slides = load_long("share_deck", "large_memory_slides.csv")
    flagged = {(r.run_id, r.metric) for r in slides.itertuples() if r.flag == "contradiction"}
    assert differs <= flagged


def test_confirmed_cells_carry_the_rebuilt_value():
    table = deck.against_brief()
    confirmed = table[table["verdict"] == "confirms a rebuilt cell"]
    assert len(confirmed) == 5
    for row in confirmed.itertuples():
        rebuilt = row.brief.split(" (rebuilt")[0]
        assert float(rebuilt.rstrip("%")) == float(row.slide.rstrip("%")), row


def test_the_swapped_digit_is_the_slide_and_not_the_brief():
    """The brief's 34.0K agrees with its own page-size columns; the slide's 43.0K does not."""
    results = load_long("large_memory", "t06_consolidated_results.csv")
    parts = results[(results["run_id"] == "S31114B1")
                    & results["metric"].isin(["sync_reads_per_s_4k", "sync_reads_per_s_8k", "sync_reads_per_s_32k"])]
    total = parts["value"].sum()
    assert math.isclose(total, 34000, rel_tol=0.001)
    assert not math.isclose(total, 43000, rel_tol=0.05)


@pytest.mark.skipif(NO_SEED is not None, reason=NO_SEED or "")
def test_slide_cells_appear_on_their_cited_line():
    lines = SEED.read_text(encoding="utf-8").splitlines()
    for row in load_long("share_deck", "large_memory_slides.csv").itertuples():
        assert row.printed in lines[row.line - 1], (row.run_id, row.metric, row.printed, row.line)


def test_a_slide_cell_the_brief_lacks_is_named(tmp_path):
    root = tmp_path / "data"
    for study in ("share_deck", "large_memory"):
        shutil.copytree(data_dir() / study, root / study)
    path = root / "share_deck" / "large_memory_slides.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("S40225B1,itr_ds_per_s", "S40225B1,itr_invented", 1), encoding="utf-8")
    sources.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"large_memory_slides.csv, line \d+: the brief's Table 15 has no cell"):
            deck.against_brief(str(root))
    finally:
        sources.cache_clear()
