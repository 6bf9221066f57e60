"""Bad input in the dashboards' boxes: a short message by the box, the chart keeps its last good state."""
from __future__ import annotations

import html
import importlib
import math
import re

import ipywidgets
import pytest

from widgets.explorer import Explorer, NumberBox, parse_number
from widgets.hit_ratio_dead.explorer import BufferPoolTool
from widgets.studies import STUDIES
import widgets.large_memory.figures as LM


@pytest.mark.parametrize("text, says", [("abc", "not a number"), ("nan", "finite"), ("inf", "finite"),
                                        ("-3", "out of range"), ("101", "out of range"), ("", "not a number"),
                                        ("2.5", "whole number")])
def test_parse_number_names_the_box_and_the_range(text, says):
    with pytest.raises(ValueError) as err:
        parse_number(text, "VPSEQT", 0, 100, integer=True)
    assert says in str(err.value) and "VPSEQT" in str(err.value) and "0 to 100" in str(err.value)


def test_parse_number_takes_separators_and_keeps_the_type():
    assert parse_number(" 1,000 ", "pages", 1, 2_000_000, integer=True) == 1000
    assert isinstance(parse_number("7", "pages", 1, 10, integer=True), int)
    assert parse_number("0.25", "skew", 0, 2) == 0.25


def test_a_bad_entry_leaves_the_box_and_the_chart_alone():
    ex = Explorer([LM.SYNC_READS])
    name = next(iter(ex.boxes))
    box, slider, p = ex.boxes[name], ex.sliders[name], ex.params[name]
    chart = ex.charts[0].value
    for typed in ("lots", "nan", f"{p.max * 2 + 1:g}", f"{p.min - abs(p.min) - 1:g}"):
        box.text.value = typed
        assert box.error.startswith(p.label) and "enter" in box.error
        assert box.message.value and slider.value == p.default and ex.charts[0].value == chart
    other = p.default - 2 * p.step if p.default - 2 * p.step >= p.min else p.default + 2 * p.step
    box.text.value = f"{other:g}"
    assert box.error == "" and box.message.value == ""
    assert slider.value == pytest.approx(other) and ex.charts[0].value != chart
    slider.value = p.default  # the slider writes its value back into the box
    assert float(box.text.value.replace(",", "")) == pytest.approx(p.default)


def test_the_buffer_pool_tool_refuses_to_run_on_a_bad_box():
    tool = BufferPoolTool()
    chart, table = tool.chart.value, tool.table.value
    tool.rows[0].rate.text.value = "-5"
    assert "getpages/s" in tool.rows[0].rate.error
    tool.run()
    assert "getpages/s" in tool.status.value and "out of range" in tool.status.value
    assert tool.chart.value == chart and tool.table.value == table
    tool.seconds.text.value = "nan"
    tool.rows[0].rate.text.value = "10"
    tool.run()
    assert "Seconds traced" in tool.status.value and tool.chart.value == chart


def test_code_cannot_set_a_box_out_of_range_either():
    box = NumberBox(5, 1, 10, "Rows")
    with pytest.raises(ValueError, match="Rows"):
        box.value = 11
    with pytest.raises(ValueError, match="Rows"):
        box.value = math.nan
    assert box.value == 5


# --- every box of every dashboard ------------------------------------------------------------------------

def _tree(widget):
    """``widget`` and every widget under it (a tab's pages included)."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _tree(child)


def _opened(dashboard):
    """The dashboard with every tab opened once, so that every tab's boxes are made (they are made on first
    opening), then back on its first tab."""
    for tab in [x for x in _tree(dashboard) if isinstance(x, ipywidgets.Tab)]:
        for i in range(len(tab.children)):
            tab.selected_index = i
        tab.selected_index = 0
    return dashboard


def _shown(dashboard, box) -> dict[int, str]:
    """What the page shows, apart from this box and its message: every HTML widget's content."""
    return {id(x): x.value for x in _tree(dashboard) if isinstance(x, ipywidgets.HTML) and x is not box.message}


def _bad_entries(box) -> list[tuple[str, str]]:
    """Out of range both ways, a negative, nan, infinity, text, nothing, and a fraction in a whole-number box."""
    span = box.high - box.low
    entries = [(f"{box.high + max(1.0, span):g}", "out of range"), ("nan", "finite"), ("-inf", "finite"),
               ("twelve", "not a number"), ("", "not a number"), ("1e999", "finite")]
    entries.append((f"{box.low - max(1.0, span):g}", "out of range"))  # below the range (a negative when low >= 0)
    if box.low >= 0:
        entries.append(("-1", "out of range"))
    if box.integer:
        entries.append((f"{box.low + 0.5:g}", "whole number"))
    return entries


@pytest.mark.parametrize("slug", [s.slug for s in STUDIES])
def test_every_box_of_every_dashboard_answers_bad_input(slug):
    """Each number box of the study's dashboard (its tabs opened): for every bad entry, a short message by
    the box naming it and its range, no exception (a traceback on the page), and nothing else on the page
    changes: no chart, no readout, no table."""
    d = _opened(importlib.import_module(f"widgets.{slug}.explorer").dashboard())
    boxes = [x for x in _tree(d) if isinstance(x, NumberBox)]
    assert boxes, f"{slug}: the dashboard has no number box"
    for box in boxes:
        good, page = box.value, _shown(d, box)
        for typed, says in _bad_entries(box):
            box.text.value = typed
            assert says in box.error and box.error.startswith(box.name), (slug, box.name, typed, box.error)
            assert "enter" in box.error and len(box.error) < 120, box.error
            assert html_text(box.message.value) == box.error
            assert box.value == good and _shown(d, box) == page, (slug, box.name, typed)
        box.text.value = box.format(good)  # a good entry clears the message
        assert box.error == "" and box.message.value == ""


def html_text(value: str) -> str:
    """The text of a message's HTML."""
    return html.unescape(re.sub(r"<[^>]+>", "", value))


@pytest.mark.parametrize("slug", [s.slug for s in STUDIES])
def test_the_free_text_boxes_of_every_dashboard_never_show_a_traceback(slug):
    """The boxes that take words (an object's name, a query, an index's key columns): junk, a negative,
    nan and a huge number are answered on the page (or kept as a name), never raised."""
    d = _opened(importlib.import_module(f"widgets.{slug}.explorer").dashboard())
    numbers = {id(b.text) for b in _tree(d) if isinstance(b, NumberBox)}
    texts = [x for x in _tree(d) if isinstance(x, (ipywidgets.Text, ipywidgets.Textarea)) and id(x) not in numbers]
    if not texts:
        pytest.skip(f"{slug}: its dashboard has no free-text box")
    for box in texts:
        for typed in ("-1", "nan", "1e999", "%$#!", "", "A CHAR -5"):
            box.value = typed  # an exception here would be a traceback on the student's page
            shown = " ".join(x.value for x in _tree(d) if isinstance(x, ipywidgets.HTML))
            assert "Traceback" not in shown and "NaN" not in shown, (slug, box.description, typed)
