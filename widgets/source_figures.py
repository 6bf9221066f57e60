"""The source's figures: every data figure of a studied section, and the chart here that regenerates it.

A reader holding the source should be able to tell which chart of the chapter regenerates which of its
figures, and why a figure has no chart. Each study lists its source's data figures in
``source_figures/<study>.csv`` (a folder of its own, like ``lessons/``: these are not published values):

============  ==================================================================================================
column        meaning
============  ==================================================================================================
``figure``    the figure as the source numbers it (``Figure 3``, ``Figure 3-14``)
``source``    the reader's citation: document (as ``data/sources.csv`` cites it), figure, page
``shows``     what the figure plots, in our words (one line)
``charts``    the chart or charts here that regenerate it: ``Figure.name`` values of the study's figures,
              separated by ``;`` (empty when none does)
``reason``    when no chart does: one line on why (an image whose values the text never prints, a screenshot)
============  ==================================================================================================

A chart that regenerates a figure says so itself, in its title or subtitle (:attr:`widgets.figure.Figure.regenerates`);
``tests/test_source_figures.py`` checks both directions and the counts per chapter.
"""
from __future__ import annotations

import csv
import html
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .studies import study as find_study

COLUMNS = ("figure", "source", "shows", "charts", "reason")
ROOT = Path(__file__).resolve().parent.parent


def folder() -> Path:
    """Where the tables live (``DB2BOOK_SOURCE_FIGURES`` overrides it, for tests)."""
    return Path(os.environ.get("DB2BOOK_SOURCE_FIGURES", ROOT / "source_figures"))


@dataclass(frozen=True)
class SourceFigure:
    figure: str                # "Figure 3-14"
    source: str                # the citation
    shows: str                 # what it plots, in our words
    charts: tuple[str, ...]    # names of the study's charts that regenerate it
    reason: str                # why none does, when ``charts`` is empty

    @property
    def number(self) -> str:
        """The figure's number alone: ``3-14`` of ``Figure 3-14``."""
        return self.figure.split()[-1]


@lru_cache(maxsize=None)
def load(study: str) -> tuple[SourceFigure, ...]:
    """A study's source figures, in the source's order; an error names the file, the row and the rule broken."""
    path = folder() / f"{study}.csv"
    if not path.is_file():
        return ()
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{path}: the columns must be {', '.join(COLUMNS)}, not {reader.fieldnames}")
        out = []
        for n, row in enumerate(reader, start=2):
            where = f"{path}, row {n}"
            if not row["figure"].startswith("Figure ") or not row["source"] or not row["shows"]:
                raise ValueError(f"{where}: figure ('Figure N'), source and shows are required")
            charts = tuple(c.strip() for c in row["charts"].split(";") if c.strip())
            if bool(charts) == bool(row["reason"].strip()):
                raise ValueError(f"{where}: {row['figure']} needs either charts or a reason, not both or neither")
            out.append(SourceFigure(row["figure"], row["source"], row["shows"], charts, row["reason"].strip()))
    figures = [x.figure for x in out]
    if len(set(figures)) != len(figures):
        raise ValueError(f"{path}: a figure is listed twice")
    return tuple(out)


def counts(study: str) -> dict[str, int]:
    """How many of a study's source figures are regenerated here, and how many explained."""
    mine = load(study)
    regenerated = sum(bool(x.charts) for x in mine)
    return {"figures": len(mine), "regenerated": regenerated, "explained": len(mine) - regenerated}


def chart_titles(study: str) -> dict[str, str]:
    """The study's charts by name, as the page titles them."""
    return {name: fig.title for name, fig in find_study(study).figures().items()}


def chapter_html(study: str) -> str:
    """A chapter's table of its source's figures: each with the chart that regenerates it, or why none does."""
    mine = load(study)
    c = counts(study)
    titles = chart_titles(study) if any(x.charts for x in mine) else {}
    rows = []
    for x in mine:
        here = ("; ".join(html.escape(titles.get(name, name)) for name in x.charts) if x.charts
                else "<em>none:</em> " + html.escape(x.reason))
        rows.append(f'<tr><td data-label="figure">{html.escape(x.figure)}</td>'
                    f'<td data-label="what it shows">{html.escape(x.shows)}</td>'
                    f'<td data-label="the chart here">{here}</td></tr>')
    summary = (f"The source's figures: {c['figures']} data figures, {c['regenerated']} regenerated here, "
               f"{c['explained']} with the reason none is")
    return (f'<details class="lessons-details source-figures"><summary>{html.escape(summary)}</summary>'
            '<div class="ledger-scroll" tabindex="0" style="overflow-x:auto">'
            '<table class="lessons-table lessons-rows">'
            "<thead><tr><th>figure</th><th>what it shows</th><th>the chart here</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            f"<p>Source: {html.escape(_sources(mine))}.</p></details>")


def _sources(mine: tuple[SourceFigure, ...]) -> str:
    """The documents the figures come from, once each."""
    return "; ".join(dict.fromkeys(x.source.split(",")[0] for x in mine))
