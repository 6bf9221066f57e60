"""Bad input in the dashboards' boxes: a short message by the box, the chart keeps its last good state."""
from __future__ import annotations

import math

import pytest

from widgets.explorer import Explorer, NumberBox, parse_number
from widgets.hit_ratio_dead.explorer import BufferPoolTool
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
