"""How tables, charts and pages are written for the reader (no browser needed)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from widgets.data import printed_table
from widgets.figure import static_chart
from widgets.render import describe, embed_html
from widgets.tables import MAX_COLUMNS, cell_text, table_html
from widgets.zhyperlink import figures as ZHL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
import offline_assets  # noqa: E402


def _cells(markup: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", markup)]


@pytest.mark.parametrize("value, text", [
    (np.float64(868.0), "868"), (0.714434, "0.714434"), (1.5022e7, "15,022,000"), (True, "✓"), (False, "✗"),
    (np.bool_(True), "✓"), (np.nan, ""), (None, ""), (pd.NA, ""), (7.5, "7.5"), (5.52, "5.52"), (0.1 + 0.2, "0.3"),
    (2.5e-7, "0.00000025"), (3, "3"), ("why it misses", "why it misses")])
def test_a_cell_reads_as_printed(value, text):
    assert cell_text(value) == text


def test_no_nan_no_cut_text_and_no_bare_index():
    why = "the total hit ratio mixes page sizes and prefetch, so it is not comparable across pools " * 2
    frame = pd.DataFrame({"metric": ["a", "b"], "value": [1.5, np.nan], "why": [why, None], "ok": [True, False]})
    markup = table_html(frame)
    cells = _cells(markup)
    assert "NaN" not in markup and "nan" not in cells
    assert why.strip() in [c.strip() for c in cells]  # the whole text, not cut
    assert "…" not in markup
    assert "✓" in cells and "✗" in cells
    assert "0" not in cells[:5]  # no 0…N index column


def test_a_wide_table_is_split_and_each_part_keeps_only_its_rows():
    table = printed_table("zhyperlink", "s3_10_results.csv")
    assert table.shape[1] > MAX_COLUMNS and table.isna().any().any()
    markup = table_html(table)
    parts = re.findall(r"<table.*?</table>", markup, re.S)
    assert 1 < len(parts) <= -(-table.shape[1] // MAX_COLUMNS)
    for part in parts:
        header = re.findall(r'<th scope="col">(.*?)</th>', part)
        assert len(header) <= MAX_COLUMNS + 1
        for row in re.findall(r"<tr>(.*?)</tr>", part, re.S)[1:]:
            assert any(c.strip() for c in _cells(row)[1:]), "a row with nothing in this part's columns"
    shown = {c for c in _cells(markup)}
    printed = {str(v) for v in table.stack().dropna()}
    assert printed <= shown, printed - shown  # every printed cell is still on the page
    with pytest.raises(ValueError, match="max_columns"):
        table_html(table, max_columns=0)


def test_a_chart_fits_its_container_and_carries_a_text_alternative_and_its_data():
    spec = static_chart(ZHL.CPU).to_dict()
    markup = embed_html(spec)
    payload = markup.split("window.db2bookEmbed(", 1)[1]
    assert '"width":"container"' in payload and '"subtitle"' not in payload  # the title is text on the page
    assert 'class="db2book-chart-title">Spinning costs more on a faster processor' in markup
    assert "Sliders: Break-even processor speed" in describe(spec)
    assert '"description":"Spinning costs more' in payload
    # the data disclosure lists every published point at its printed precision, with its source
    rows = re.findall(r"<tr><td>(.*?)</tr>", markup.split("<details", 1)[1])
    assert len(rows) == len(ZHL.CPU.published)
    assert all("§3.10" in r for r in rows) and any("<td>13.8</td>" in r for r in rows)


def test_a_published_point_takes_its_lines_colour():
    spec = static_chart(ZHL.CPU).to_dict()
    points = next(layer for layer in spec["layer"] if layer.get("name") == "published")
    assert points["encoding"]["color"]["field"] == "colour_series"
    data = spec["datasets"][points["data"]["name"]]
    assert {d["colour_series"] for d in data} == {"10 GB pools (28 reads)", "70 GB pools (7½ reads)",
                                                   "10 GB pools, with background work"}
    assert {d["y_printed"] for d in data} == {"13.8", "5", "1", "3.4"}


@pytest.mark.parametrize("code, hidden", [
    ("static_chart(F.ITR)", True),
    ("from widgets.figure import static_chart\nfrom widgets.zhyperlink import figures as F\nstatic_chart(F.ELAPSED)",
     True),
    ("F.itr_bars()", True),
    ("loop = sim.generate_trace(w, seconds=200, seed=1)\nF.lru_curve_chart(loop)", False),
])
def test_only_one_line_chart_cells_lose_their_code_on_the_page(code, hidden):
    assert offline_assets._is_chart_call(code) is hidden


def test_pages_are_mended_for_console_and_screen_readers():
    head = ('<head>\n    <script>const THEBE_JS_URL = "x";</script>\n    <script async src="a.js"></script>\n'
            '    <script>const THEBE_JS_URL = "x";</script>\n</head>\n<body>'
            '<button class="btn search-button-field search-button__button pst-js-only" title="Search" '
            'aria-label="Search" data-bs-placement="bottom">Search <kbd>Ctrl</kbd>+<kbd>K</kbd></button>'
            '<summary aria-label="Toggle hidden content"><p>Show code cell source</p></summary>'
            '<div role="list" class="citation-list"><div class="citation" id="id2" role="doc-biblioentry">'
            "</div></div></body>")
    fixed = offline_assets.fix_page(head)
    assert fixed.count("THEBE_JS_URL") == 1 and fixed.count('src="a.js"') == 1
    assert 'aria-label="Search"' not in fixed and 'aria-label="Toggle hidden content"' not in fixed
    assert '<div class="citation" id="id2" role="listitem">' in fixed
    assert offline_assets.fix_page("<pre>x</pre>") == '<pre tabindex="0">x</pre>'
