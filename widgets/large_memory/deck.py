"""The SHARE deck's restatement of the large-memory study, read cell by cell against the brief.

Grabarits' SHARE session (2014) summarised the study in slides before the brief's final version
(2015) appeared. The slides' Day Posting tables are transcribed in
``data/share_deck/large_memory_slides.csv``; :func:`against_brief` pairs every slide cell with the
brief's cell for the same run and metric, so that the chapter can show where the two documents
agree, where they disagree, and which of the brief's garbled cells the slides confirm.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd

from ..citations import for_readers
from ..data import load_long

DECK = "share_deck"
SLIDES = "large_memory_slides.csv"
BRIEF = "large_memory"

#: The brief's table that prints the same rows as each slide (matched on the slide's title).
BRIEF_TABLE_FOR_SLIDE = {
    "isolated BPs": ("t08_isolated_improvements.csv", "Table 8"),
    "consolidated BPs": ("t09_consolidated_improvements.csv", "Table 9"),
    "Local Buffer Pool Scaling": ("t12_lbp_scaling_improvements.csv", "Table 12"),
    "Group Buffer Pool Scaling": ("t15_gbp_scaling_improvements.csv", "Table 15"),
}


def _brief_table(slide: str) -> tuple[str, str] | None:
    return next((v for k, v in BRIEF_TABLE_FOR_SLIDE.items() if k in slide), None)


def _same_print(a: str, b: str) -> bool:
    return a.replace(" ", "") == b.replace(" ", "")


@lru_cache(maxsize=None)
def against_brief(root: str | None = None) -> pd.DataFrame:
    """Every slide cell with the brief's cell for the same run and metric.

    Columns: ``run``, ``metric``, ``slide`` (the slide's printed text), ``brief`` (the brief's
    printed text, or the number this book rebuilt where the extraction garbled it), ``brief_table``,
    ``verdict`` (``same``, ``same, and wrong in both``, ``confirms a rebuilt cell``, ``differs``,
    or ``slide only``) and
    ``why`` (the flag note of either side). Key findings have no row-by-row counterpart in the
    brief and come out as ``slide only``. ``root`` overrides the ``data/`` folder (tests).
    A slide cell whose run and metric the brief's table lacks raises ``ValueError`` naming the
    slide file's line.
    """
    slides = load_long(DECK, SLIDES, root)
    rows = []
    cache: dict[str, pd.DataFrame] = {}
    for cell in slides.itertuples():
        match = _brief_table(cell.slide)
        record = {"run": cell.run_id, "metric": cell.metric, "slide": cell.printed, "brief": "",
                  "brief_table": "", "verdict": "slide only", "why": cell.note}
        if match is not None:
            filename, table = match
            brief = cache.setdefault(filename, load_long(BRIEF, filename, root))
            hit = brief[(brief["run_id"] == cell.run_id) & (brief["metric"] == cell.metric)]
            if hit.empty:
                raise ValueError(f"{SLIDES}, line {cell.csv_line}: the brief's {table} has no cell for "
                                 f"run {cell.run_id!r}, metric {cell.metric!r}")
            other = hit.iloc[0]
            record["brief_table"] = table
            if other["flag"].strip() == "reconstructed":
                rebuilt = f"{other['value']:,.10g}{'%' if other['unit'] == 'pct' else ''}"
                same = _same_print(rebuilt, cell.printed) or (
                    cell.value == cell.value and abs(cell.value - other["value"]) < 1e-9)
                record.update(brief=f"{rebuilt} (rebuilt: the text extraction garbled the cell)",
                              verdict="confirms a rebuilt cell" if same else "differs")
            else:
                same = _same_print(other["printed"], cell.printed)
                wrong = cell.flag.strip() == "contradiction"
                record.update(brief=other["printed"],
                              verdict=("same, and wrong in both" if wrong else "same") if same else "differs")
            if other["flag"].strip() and not record["why"]:
                record["why"] = f"the brief's cell is flagged: {for_readers(BRIEF, other['note'])}"
        rows.append(record)
    return pd.DataFrame(rows)


def summary() -> dict[str, int]:
    """How many slide cells fall under each verdict."""
    return against_brief()["verdict"].value_counts().to_dict()
