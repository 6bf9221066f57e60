"""The live explorer's fast path (``widgets.live``): each figure is compiled once, and a setting only
swaps the model's rows into the compiled spec. That must give exactly the chart ``chart_at`` gives."""
from __future__ import annotations

import json

import pytest
import vl_convert

from widgets import live
from widgets.figure import chart_at
from widgets.engine import vega_lite_version
from widgets.render import clip_bars
from widgets.studies import STUDIES, study

FIGURES = [fig for s in STUDIES for fig in study(s.slug).figures().values()]


def _moved(fig) -> dict[str, float]:
    """Every slider of ``fig`` two steps from its default (down when up would leave the range)."""
    return {p.name: p.default + 2 * p.step if p.default + 2 * p.step <= p.max else p.default - 2 * p.step
            for p in fig.all_params}


def _fresh(fig, values: dict) -> dict:
    """The Vega spec compiled from scratch at ``values``, as the live path draws it (``live.for_drawing``),
    with the model's data set under the name the compiled figure gives it."""
    spec = clip_bars(chart_at(fig, **values).to_dict())  # the live chart's bars are clipped as the page's
    model = next(layer for layer in spec["layer"] if layer.get("name") == "model")
    name = (model.get("data") or spec["data"])["name"]
    vega = live.for_drawing(vl_convert.vegalite_to_vega(spec, vl_version=vega_lite_version(spec)))
    at_defaults = live.compiled(fig).vega["data"][live.compiled(fig).model_data]["name"]
    return json.loads(json.dumps(vega).replace(json.dumps(name), json.dumps(at_defaults)))


def _legend_scales(vega: dict, legends: list[dict]) -> list[dict]:
    names = {legend[c] for legend in legends for c in ("fill", "stroke", "shape", "size") if c in legend}
    return [s for s in vega.get("scales", []) if s["name"] in names]


@pytest.mark.parametrize("fig", FIGURES, ids=lambda f: f.key)
def test_the_swapped_spec_is_the_chart_compiled_at_that_setting(fig):
    values = _moved(fig)
    swapped = live.vega_at(fig, **values)
    fresh = _fresh(fig, values)
    legends = fresh.pop("legends", [])
    assert swapped == fresh
    # the key drawn once is this setting's too: the same legends, over scales whose domains are listed
    # in the spec (never read from the model's rows, which change)
    key = live.compiled(fig).key
    assert (key["legends"] if key else []) == legends
    assert all(isinstance(s["domain"], list) for s in _legend_scales(fresh, legends)), fig.key
    if values:  # the setting reached the drawing (a figure with sliders draws other rows when they move)
        assert swapped != live.vega_at(fig, **fig.defaults())


def test_a_setting_never_changes_the_compiled_figure():
    fig = FIGURES[0]
    before = json.dumps(live.compiled(fig).vega, sort_keys=True)
    live.vega_at(fig, **_moved(fig))
    assert json.dumps(live.compiled(fig).vega, sort_keys=True) == before


def test_the_title_is_text_above_the_chart_and_the_svg_has_a_name():
    from widgets.live import render_svg

    fig = FIGURES[0]

    heading = live.heading_html(fig)
    assert live.compiled(fig).title and live.compiled(fig).title.replace("'", "&#x27;") in heading
    # the key is drawn, named by the entries it shows, and the chart itself has no legend
    assert '<svg role="img" aria-label="Key: model' in heading
    assert all(label.split(":")[0] in heading for label in live.compiled(fig).key_labels)
    svg = render_svg(fig, **fig.defaults())
    assert svg.startswith('<svg role="img" aria-label="') and "NaN" not in svg
    label = svg.split('aria-label="', 1)[1].split('"', 1)[0]
    assert label.startswith(live.compiled(fig).title.split()[0])


def test_the_drawn_spec_has_no_title_and_no_aria_inside():
    fig = FIGURES[0]
    vega = live.vega_at(fig, **fig.defaults())
    assert "title" not in vega and "usermeta" not in vega and "legends" not in vega
    assert all(item["aria"] is False for key in ("marks", "axes", "legends") for item in vega.get(key, []))
    svg = vl_convert.vega_to_svg(vega)
    assert "aria-label" not in svg and "<text" in svg  # the words are still drawn, only not described twice
