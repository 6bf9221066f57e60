"""Every data figure of the studied sections is named on its chapter's page, with its chart or its reason."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from widgets import source_figures
from widgets.studies import STUDIES, study as find_study

ROOT = Path(__file__).resolve().parent.parent

#: The studies whose source's studied section has data figures (issue 25; the ranges live in widgets/studies.py).
EXPECTED = {s.slug: s.data_figures for s in STUDIES if s.figure_ranges}
NUMBER = re.compile(r"\b\d+(?:-\d+)?\b")


def test_the_studied_sections_figures_are_the_ones_issue_25_counts():
    # large memory 16, SAP Banking 8, FTB 8, System Recovery Boost 9, zHyperLink 14, SQL Data Insights 20
    assert sorted(len(v) for v in EXPECTED.values()) == [8, 8, 9, 14, 16, 20]
    assert EXPECTED["zhyperlink"][7:9] == ["Figure 3-40", "Figure 3-51"]


@pytest.mark.parametrize("study", EXPECTED)
def test_every_data_figure_is_listed_once_in_order(study):
    assert [x.figure for x in source_figures.load(study)] == EXPECTED[study]


@pytest.mark.parametrize("study", EXPECTED)
def test_every_listed_chart_exists_and_names_its_figure(study):
    charts = find_study(study).figures()
    for x in source_figures.load(study):
        for name in x.charts:
            assert name in charts, f"{study}: {x.figure} names chart {name!r}, which the study does not have"
            fig = charts[name]
            said = " ".join([fig.title, fig.subtitle, fig.regenerates])
            assert x.number in NUMBER.findall(said), \
                f"{study}.{name}: the chart regenerates {x.figure} but its title or subtitle does not say so"
        if not x.charts:
            assert len(x.reason) >= 20, f"{study}: {x.figure}: a reason in words, not {x.reason!r}"


@pytest.mark.parametrize("study", EXPECTED)
def test_every_chart_that_says_it_regenerates_a_figure_is_listed_for_it(study):
    listed = {(x.number, name) for x in source_figures.load(study) for name in x.charts}
    for name, fig in find_study(study).figures().items():
        for number in NUMBER.findall(fig.regenerates):
            assert (number, name) in listed, f"{study}.{name} says it regenerates Figure {number}; the table disagrees"


@pytest.mark.parametrize("study", EXPECTED)
def test_the_built_page_shows_the_sources_figures(study):
    page = ROOT / "_build" / "html" / f"{find_study(study).page_path}.html"
    if not page.is_file():
        pytest.skip(f"{page} not built (make book)")
    c = source_figures.counts(study)
    text = page.read_text(encoding="utf-8")
    assert (f"The source’s figures: {c['figures']} data figures, {c['regenerated']} regenerated here" in text
            or f"The source's figures: {c['figures']} data figures, {c['regenerated']} regenerated here" in text
            or f"The source&#x27;s figures: {c['figures']} data figures, {c['regenerated']} regenerated here" in text)


@pytest.mark.parametrize("body, message", [
    ("Figure 3,src,shows,,\n", "needs either charts or a reason"),
    ("Figure 3,src,shows,chart,and a reason\n", "needs either charts or a reason"),
    ("Fig 3,src,shows,chart,\n", "figure"),
    ("Figure 3,src,shows,chart,\nFigure 3,src,shows,chart,\n", "listed twice"),
])
def test_a_malformed_table_is_named_by_file_and_row(tmp_path, monkeypatch, body, message):
    (tmp_path / "x.csv").write_text(",".join(source_figures.COLUMNS) + "\n" + body, encoding="utf-8")
    monkeypatch.setenv("DB2BOOK_SOURCE_FIGURES", str(tmp_path))
    source_figures.load.cache_clear()
    try:
        with pytest.raises(ValueError, match=message) as err:
            source_figures.load("x")
        assert "x.csv" in str(err.value)
    finally:
        source_figures.load.cache_clear()
