"""How tables, charts and pages are written for the reader (no browser needed)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tools.chartspecs import chart_specs
from widgets.data import printed_table
from widgets.figure import static_chart
from widgets.render import compact_data, describe, embed_html, spec_json
from widgets.tables import MAX_COLUMNS, SNAKE_NAME, cell_text, reader_label, table_html
from widgets.zhyperlink import figures as ZHL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
import offline_assets  # noqa: E402
import page_fixes  # noqa: E402
import theme_weight  # noqa: E402


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
    payload = markup.split('type="application/json"', 1)[1]
    vega = chart_specs(markup)[0]
    # the spec is inert JSON on the page (no script to compile while the page loads), and the call names it
    call = re.search(r'<script>window\.db2bookEmbed\("(db2book-chart-[\w-]+)", \[[^\]]*\]\);</script>', markup)
    assert call and f'<script type="application/json" id="{call.group(1)}-spec">' in markup
    # compiled to Vega at build time: the page needs no Vega-Lite compiler
    assert vega["$schema"].endswith("/vega/v6.json") and "vega-lite" not in payload
    width = next(sig for sig in vega["signals"] if sig["name"] == "width")
    assert "containerSize()" in json.dumps(width)  # the chart takes its container's width
    assert '"subtitle"' not in payload  # the title is text on the page
    assert 'class="db2book-chart-title">Spinning costs more on a faster processor' in markup
    assert "Sliders: Break-even processor speed" in describe(spec)
    assert vega["description"].startswith("Spinning costs more")
    # the data disclosure lists every published point at its printed precision, with its source
    rows = re.findall(r"<tr><td>(.*?)</tr>", markup.split("<details", 1)[1])
    assert len(rows) == len(ZHL.CPU.published)
    assert all("§3.10" in r for r in rows) and any("<td>13.8</td>" in r for r in rows)


def _rebuilt_rows(vega: dict, k: int) -> list[dict]:
    """The rows the page's sequence and formula transforms make from a compacted table (in Python)."""
    data = vega["data"][k]
    columns = next(sig["value"] for sig in vega["signals"] if sig["name"] == f"db2book_table_{k}")
    sequence, formulas = data["transform"][0], data["transform"][1:1 + len(columns)]
    assert sequence["type"] == "sequence" and all(f["type"] == "formula" for f in formulas)
    rows = []
    for i in range(sequence["start"], sequence["stop"]):
        row = {}
        for f, col in zip(formulas, columns):
            row[f["as"]] = (col["u"][(i // col["r"]) % len(col["u"])] if "r" in col
                            else col["u"][col["k"][i]] if "k" in col else col["v"][i])
        rows.append(row)
    return rows


def test_a_charts_tables_go_to_the_page_as_columns_and_come_back_as_the_same_rows():
    xs = [float(2 ** (i / 4)) for i in range(40)]
    grid = pd.DataFrame({"pool": np.repeat([10.0, 20.0, 30.0], 40), "x": np.tile(xs, 3),
                         "model": np.round(np.linspace(0.1234, 98.76, 120), 4)})
    csv = grid.to_csv(index=False, float_format="%.8g")
    points = [{"series": "Table 5", "source": "SG24-8536, Table 5, p. 40", "x": float(i), "y": 0.5 * i}
              for i in range(60)]
    vega = {"data": [{"name": "grid", "values": csv,
                      "format": {"type": "csv", "parse": {c: "number" for c in grid.columns}}},
                     {"name": "points", "values": points},
                     {"name": "derived", "source": "grid", "transform": [{"type": "filter", "expr": "true"}]}]}
    compact = compact_data(json.loads(json.dumps(vega)))
    assert "values" not in compact["data"][0] and "values" not in compact["data"][1]
    assert len(json.dumps(compact)) < 0.7 * len(json.dumps(vega))
    printed = [{c: float(f"{v:.8g}") for c, v in row.items()} for row in grid.to_dict("records")]
    assert _rebuilt_rows(compact, 0) == printed  # the numbers the CSV carried, exactly
    assert _rebuilt_rows(compact, 1) == points
    assert compact["data"][2] == vega["data"][2]  # a derived table is left as it was
    columns = next(s["value"] for s in compact["signals"] if s["name"] == "db2book_table_0")
    assert columns[0] == {"u": [10, 20, 30], "r": 40} and columns[1]["r"] == 1 and len(columns[1]["u"]) == 40


def test_a_published_point_takes_its_lines_colour():
    spec = static_chart(ZHL.CPU).to_dict()
    points = next(layer for layer in spec["layer"] if layer.get("name") == "published")
    assert points["encoding"]["color"]["field"] == "colour_series"
    data = spec["datasets"][points["data"]["name"]]
    assert {d["colour_series"] for d in data} == {"10 GB pools (28 reads)", "70 GB pools (7½ reads)",
                                                   ZHL.BACKGROUND_SERIES}
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
    fixed = page_fixes.fix_page(head)
    assert fixed.count("THEBE_JS_URL") == 1 and fixed.count('src="a.js"') == 1
    assert 'aria-label="Search"' not in fixed and 'aria-label="Toggle hidden content"' not in fixed
    assert '<div class="citation" id="id2" role="listitem">' in fixed
    assert page_fixes.fix_page("<pre>x</pre>") == '<pre tabindex="0">x</pre>'


def test_pages_leave_out_what_they_do_not_use():
    head = ('<head>\n    <link rel="stylesheet" type="text/css" href="../_static/sphinx-design.min.css?v=6a604523" />\n'
            '    <script data-sd-tabs-storage-prefix="sphinx-design-tab-id-" '
            'src="../_static/design-tabs.js?v=1"></script>\n'
            '    <script src="../_static/searchtools.js"></script>\n'
            '    <script src="../_static/language_data.js"></script>\n'
            '    <script src="../searchindex.js"></script>\n</head><body><p>text</p></body>')
    fixed = page_fixes.fix_page(head)
    assert "searchindex" not in fixed and "searchtools" not in fixed and "sphinx-design" not in fixed
    assert "searchindex.js" in page_fixes.fix_page(head, is_search_page=True)  # the search page needs it
    with_tabs = head.replace("<p>text</p>", '<div class="sd-tab-set">tabs</div>')
    assert "sphinx-design.min.css" in page_fixes.fix_page(with_tabs)


def test_only_the_icons_the_book_names_stay_in_the_stylesheet():
    css = ('.fa-github:before{content:"\\f09b"}.fa-rocket:before{content:"\\f135"}'
           '.fa-arrow-up:before,.fa-up:before{content:"\\f062"}.bd-x{color:red}')
    pruned, codepoints = theme_weight.prune_icon_css(css, {"fa-github", "fa-up", "fa-solid"})
    assert pruned == '.fa-github:before{content:"\\f09b"}.fa-up:before{content:"\\f062"}.bd-x{color:red}'
    assert codepoints == {0xF09B, 0xF062}


def test_the_theme_stylesheet_keeps_every_rule_that_can_match():
    css = ('/*! Bootstrap, MIT licence */:root{--x:1}.carousel-item{display:none}.navbar,.carousel{color:red}'
           ':is(.navbar, .toast) a{margin:0}@media (min-width:960px){.toast{top:0}.bd-sidebar{width:20%}}'
           '.bs-tooltip-top{inset:0}a[href^=".pdf"]{color:blue}')
    out = theme_weight.purge_css(css, {"navbar", "bd-sidebar", "bs-tooltip-"})
    assert out.startswith("/*! Bootstrap, MIT licence */")
    assert ":root{--x:1}" in out and ".navbar{color:red}" in out and "carousel" not in out
    assert ":is(.navbar, .toast) a{margin:0}" in out  # may match through .navbar
    assert "@media (min-width:960px){.bd-sidebar{width:20%}}" in out
    assert ".bs-tooltip-top{inset:0}" in out  # a script builds it from "bs-tooltip-"
    assert 'a[href^=".pdf"]{color:blue}' in out


def test_a_rule_label_reads_away_from_the_nearer_edge():
    """A label right of its rule runs off a chart's right edge (and is cut): in the right half it
    is drawn left of its rule."""
    spec = static_chart(ZHL.HIT_RATIO).to_dict()
    texts = [layer for layer in spec["layer"] if (layer.get("mark") or {}).get("type") == "text"
             and "stroke" not in layer["mark"]]  # the words, not their white halo
    assert {t["mark"]["align"] for t in texts} == {"left", "right"}
    xs = np.asarray(ZHL.HIT_RATIO.x_values, dtype=float)
    middle = (xs.min() + xs.max()) / 2
    for label in ZHL.HIT_RATIO.marks.itertuples():
        shown = [t for t in texts if eval(t["transform"][-1]["filter"].replace("datum.x", repr(float(label.x))))]
        assert len(shown) == 1, label
        assert shown[0]["mark"]["align"] == ("right" if label.x > middle else "left"), label


# --- names, numbers and weight (issue 11, second pass) ------------------------------------------------------


@pytest.mark.parametrize("name, words", [
    ("etr_ds_per_s", "ETR (dialog steps per s)"), ("real_storage_gb", "Real storage (GB)"),
    ("hit_ratio_pct_4k", "Hit ratio, 4K (%)"), ("sync_reads_delta_pct", "Sync reads change (%)"),
    ("db2_12_fl510", "Db2 12 FL510"), ("zos_level", "z/OS level"), ("log_mb_per_s", "Log (MB per s)"),
    ("banking_accounts_count", "Banking accounts"), ("cp_count", "CP count"), ("example_2_4", "Example 2.4"),
    ("nent_2004_03_01", "NENT 2004-03-01"), ("S30801B1", "S30801B1"), ("users", "Users"), ("etr", "ETR"),
    ("vocabulary words", "vocabulary words"), (3, 3)])
def test_a_name_from_data_reads_as_words_and_units(name, words):
    assert reader_label(name) == words


def test_a_printed_table_shows_words_not_identifiers_and_a_verbatim_table_keeps_its_names():
    table = printed_table("large_memory", "t04_isolated_results.csv")
    markup = table_html(table)
    rows = re.findall(r'<th scope="row">(.*?)</th>', markup)
    assert rows and not [r for r in rows if SNAKE_NAME.match(r)], rows
    assert "ETR (dialog steps per s)" in rows and "etr_ds_per_s" not in markup
    flags = pd.DataFrame({"run": ["no_boost"], "metric": ["db2_restart_s"], "why": ["a note_with_underscores"]})
    cells = _cells(table_html(flags))
    assert {"No boost", "Db2 restart (s)", "a note_with_underscores"} <= set(cells)  # names in words, prose kept
    rows_of_a_program = pd.DataFrame({"add_on": ["sleeping_bag"], "product": ["snow_boots"]})
    rows_of_a_program.attrs["verbatim"] = True
    kept = table_html(rows_of_a_program)
    assert {"add_on", "sleeping_bag", "snow_boots"} <= set(_cells(kept)) and "db2book-verbatim" in kept


@pytest.mark.parametrize("value, text", [
    (88.87895615, "88.88"), (3005.18416, "3,005"), (27.74633333, "27.75"), (100873000.4, "100,873,000"),
    (708.77, "708.77"), (0.12315, "0.12315"), (1.234567e-9, "0.000000001235")])
def test_a_worked_out_number_shows_four_digits_and_a_printed_one_as_printed(value, text):
    assert cell_text(value) == text


def test_a_numpy_number_left_as_a_cells_result_prints_as_the_number():
    from IPython.core.interactiveshell import InteractiveShell

    import widgets

    shell = InteractiveShell.instance()
    try:
        widgets._register_tables()
        assert shell.display_formatter.format(np.float64(868.0))[0]["text/plain"] == "868"
        assert shell.display_formatter.format(np.float64(0.1 + 0.2))[0]["text/plain"] == "0.3"
    finally:
        InteractiveShell.clear_instance()


def test_the_ledger_shows_the_model_at_the_published_precision_and_each_miss_once():
    from widgets import ledger

    assert ledger.format_model(-2.88462, -2.9) == "-2.88"
    assert ledger.format_model(15018123.4, 15022000) == "15,018,123"
    assert ledger.format_model(0.00123456, 0.0012) == "0.00123"
    page = ledger.chapter_html("sql_data_insights")
    assert " style=\"color" not in page and "font-size:0.85em\">" not in page  # the look is said once
    assert page.count("<style>") == 1 and 'class="ledger-scroll" tabindex="0"' in page
    misses = [r for r in ledger.rows("sql_data_insights") if r.known_miss]
    assert misses and page.count("<strong>Known miss:") == len(misses)  # each once, not again in the rows below


def test_a_charts_grid_goes_to_the_page_as_numbers_not_quoted_text():
    spec = static_chart(ZHL.CPU).to_dict()
    vega = chart_specs(embed_html(spec))[0]
    columns = next(sig["value"] for sig in vega["signals"] if sig["name"] == "db2book_table_0")
    values = [v for col in columns for v in col.get("u", col.get("v", []))]
    numeric = [v for v in values if isinstance(v, (int, float))]
    quoted_numbers = [v for v in values if isinstance(v, str) and re.fullmatch(r"-?[\d.e+-]+", v)]
    assert numeric and not quoted_numbers, quoted_numbers[:5]


def test_the_extensions_stylesheets_lose_the_rules_no_page_can_use(tmp_path):
    static = tmp_path / "_static"
    (static / "styles").mkdir(parents=True)
    css = ".jp-OutputArea{color:red}.cell_output{margin:0}"
    for name in ("mystnb.abc.css", "basic.css", "db2book.css"):
        (static / name).write_text(css)
    (static / "styles" / "sphinx-book-theme.css").write_text(css)
    (tmp_path / "page.html").write_text('<div class="cell_output">x</div>')
    theme_weight.purge_theme_css(tmp_path)
    for name in ("mystnb.abc.css", "basic.css", "styles/sphinx-book-theme.css"):
        assert (static / name).read_text() == ".cell_output{margin:0}", name
    assert (static / "db2book.css").read_text() == css  # the book's own rules stay whole


def test_every_page_carries_the_fix_for_links_in_a_solutions_title():
    script = offline_assets.page_script()
    assert "admonition-title" in script and "stopPropagation" in script and "//" not in script


BOOK = Path(__file__).resolve().parent.parent / "book"


def test_the_intro_lists_every_written_chapter_and_calls_none_planned():
    from widgets.studies import STUDIES

    intro = (BOOK / "intro.md").read_text(encoding="utf-8")
    assert not re.search(r"\bplanned\b|\bcoming soon\b|\bnot yet written\b", intro, re.I)
    for study in STUDIES:
        assert f"<../{study.page_path}>" in intro, f"the intro's table of chapters misses {study.page_path}"


def test_the_glossary_has_an_a_to_z_line_whose_every_letter_leads_to_its_terms():
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    nav = re.search(r'<nav class="db2book-az".*?</nav>', text, re.S).group(0)
    links = re.findall(r'href="#(glossary-[a-z0-9-]+)">([^<]+)</a>', nav)
    sections = re.findall(r"^\((glossary-[a-z0-9-]+)\)=\n## (.+)$", text, re.M)
    assert links and [(a, t.strip()) for a, t in links] == [(a, t.strip()) for a, t in sections]
    # each section's terms start with its letter: no term filed under the wrong one
    for block in re.split(r"^\(glossary-", text, flags=re.M)[1:]:
        letter = block.split(")=", 1)[0]
        # an entry's first term (the lines after it, up to the indented definition, are its other names)
        terms = [entry.splitlines()[0] for part in re.findall(r":::\{glossary\}\n(.*?):::", block, re.S)
                 for entry in re.split(r"\n\s*\n", part) if entry.strip() and not entry.startswith(" ")]
        assert terms, letter
        for term in terms:
            first = term.lstrip("*_`")[0].lower()
            assert (first.isdigit() if letter == "0-9" else first == letter), (letter, term)


def test_every_bar_is_clipped_to_its_plot():
    """A bar starts at its scale's zero: on an ITR axis from 600 it ran 670 px below the chart."""
    from widgets.large_memory import figures as LM
    from widgets.render import clip_bars

    spec = clip_bars(LM.itr_bars().to_dict())
    bars = [layer["mark"] for layer in spec["layer"] if (layer.get("mark") or {}).get("type") == "bar"]
    assert bars and all(mark["clip"] is True for mark in bars)
    texts = [layer["mark"] for layer in spec["layer"] if (layer.get("mark") or {}).get("type") == "text"]
    assert texts and not any(mark.get("clip") for mark in texts)  # a bar's label may sit above the plot
    assert clip_bars({"mark": "bar"}) == {"mark": {"type": "bar", "clip": True}}
    assert '"clip":true' in embed_html(LM.itr_bars().to_dict()).replace(" ", "")


def test_a_charts_spec_is_inert_json_that_no_text_in_it_can_end():
    vega = {"description": "a </script><!-- b", "signals": [{"name": "s", "value": "<x>"}]}
    text = spec_json(vega)
    assert "<" not in text and json.loads(text) == vega
    block = f'<script type="application/json" id="db2book-chart-1-0-spec">{text}</script>'
    assert chart_specs(block) == [vega]
