"""Every data figure of the studied sections is named on its chapter's page, with its chart or its reason."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from widgets import source_figures
from widgets.studies import study as find_study

ROOT = Path(__file__).resolve().parent.parent

#: The data figures of each studied section (issue 25): large memory Figures 3-18, SAP Banking 3-10, FTB 2-9 to
#: 2-16, System Recovery Boost 3-14 to 3-22, zHyperLink 3-33 to 3-40 and 3-51 to 3-56, SQL DI 6-1 to 6-9, 6-12 to 6-22.
EXPECTED = {
    "large_memory": [f"Figure {n}" for n in range(3, 19)],
    "sap_banking": [f"Figure {n}" for n in range(3, 11)],
    "fast_index_traversal": [f"Figure 2-{n}" for n in range(9, 17)],
    "system_recovery_boost": [f"Figure 3-{n}" for n in range(14, 23)],
    "zhyperlink": [f"Figure 3-{n}" for n in [*range(33, 41), *range(51, 57)]],
    "sql_data_insights": [f"Figure 6-{n}" for n in [*range(1, 10), *range(12, 23)]],
}
NUMBER = re.compile(r"\b\d+(?:-\d+)?\b")


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
