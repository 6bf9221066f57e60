"""Every slider of the book, through the registry: round grids that hold the default, ranges where
both directions do something, no flat stretch, and every value an exercise names within reach.

Fast (no browser): the static slider is a Vega range input, so its positions are
``min + k * step`` of the range :meth:`Param.static_range` gives; the live slider's are
``Param.min + k * live_step(p)``.
"""
from __future__ import annotations

import importlib
from decimal import Decimal
import math
import re
from pathlib import Path

import numpy as np
import pytest

from widgets.numbers import live_step, on_grid
from widgets.figure import SIGNIFICANT_DIGITS, _round_sig, static_chart
from widgets.studies import NOTES, STUDIES

ROOT = Path(__file__).resolve().parents[1]
FIGURES = [fig for s in STUDIES + NOTES for fig in s.figures().values()]
STATIC = [(fig, p) for fig in FIGURES for p in fig.params]
ALL = [(fig, p) for fig in FIGURES for p in fig.all_params]
ids = lambda pair: f"{pair[0].key}.{pair[1].name}"  # noqa: E731


def significant_digits(x: float) -> int:
    """How many significant digits ``x`` needs: 0.05 -> 1, 0.7625 -> 4, 10560 -> 4, 0 -> 0."""
    if x == 0:
        return 0
    return len(Decimal(f"{abs(float(x)):.10g}").normalize().as_tuple().digits)


def static_grid(p) -> np.ndarray:
    """The positions of the static slider: min + k * step, from the slider's first to its last position."""
    first, last = p.static_range()
    n = math.floor((last - first) / p.static_step + 1e-9)
    return np.round(first + p.static_step * np.arange(n + 1), 10)


def shown(fig, **values) -> dict[str, np.ndarray]:
    """The figure's data as the page carries it (rounded to its significant digits)."""
    return {k: _round_sig(v, SIGNIFICANT_DIGITS) for k, v in fig.evaluate(**values).items()}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def subtitle(fig) -> str:
    title = static_chart(fig).to_dict()["title"]
    return " ".join(title.get("subtitle") or [])


def test_the_registry_declares_sliders():
    assert len(STATIC) > 40 and len({p.name for _, p in ALL}) > 40


# --- the static grid ---------------------------------------------------------------------------------


# (that every default is a position of its static slider is Param's own check, when a figure is declared)


@pytest.mark.parametrize("pair", STATIC, ids=ids)
def test_the_grid_is_round(pair):
    fig, p = pair
    grid = static_grid(p)
    assert significant_digits(p.static_step) <= 2, (fig.key, p.name, p.static_step)
    assert significant_digits(grid[0]) <= 3, (fig.key, p.name, grid[0])
    odd = [v for v in grid if significant_digits(v) > 4]
    assert not odd, f"{fig.key}: {p.name} has slider positions {odd[:3]} that need more than 4 digits"
    assert len(grid) >= 3, f"{fig.key}: {p.name} has {len(grid)} positions"


@pytest.mark.parametrize("pair", ALL, ids=ids)
def test_the_default_shows_at_most_four_digits(pair):
    fig, p = pair
    assert significant_digits(p.default) <= SIGNIFICANT_DIGITS, (
        f"{fig.key}: {p.name} opens at {p.default!r}; show it rounded to its grid and keep the fitted value "
        "in the calibration (Param.calibrated)")


@pytest.mark.parametrize("pair", ALL, ids=ids)
def test_the_default_is_not_at_an_end_unless_the_param_says_why(pair):
    fig, p = pair
    ends = {p.min, p.max}
    if p in fig.params:
        ends |= set(p.static_range())
    reason = getattr(p, "end", "")
    if p.default in ends:
        assert reason, f"{fig.key}: {p.name} starts at an end of its range ({p.default:g}): one direction does nothing"
        assert len(reason) < 120, reason
        if p in fig.params:
            assert reason in subtitle(fig), f"{fig.key}: the chart does not say why {p.name} starts at its end"
    else:
        assert not reason, f"{fig.key}: {p.name} declares an end reason but does not start at an end"


# --- both directions do something, everywhere ---------------------------------------------------------


@pytest.mark.parametrize("pair", ALL, ids=ids)
def test_one_step_each_way_changes_the_figure(pair):
    """One step of the page's slider (for a live-only slider, its coarse step) each way from the default."""
    fig, p = pair
    low, high = p.static_range() if p in fig.params else (p.min, p.max)
    base = shown(fig)
    for value in (p.default - p.static_step, p.default + p.static_step):
        if not low - 1e-9 <= value <= high + 1e-9:
            continue
        if getattr(p, "flat", ""):
            continue
        assert not same(shown(fig, **{p.name: value}), base), (
            f"{fig.key}: moving {p.name} from {p.default:g} to {value:g} (one step) changes nothing")


@pytest.mark.parametrize("pair", STATIC, ids=ids)
def test_no_stretch_of_the_static_slider_is_flat(pair):
    fig, p = pair
    grid = static_grid(p)
    curves = [shown(fig, **{p.name: v}) for v in grid]
    flat = [(grid[i], grid[i + 1]) for i in range(len(grid) - 1) if same(curves[i], curves[i + 1])]
    assert not flat, f"{fig.key}: {p.name} changes nothing between {flat[0][0]:g} and {flat[0][1]:g}"


@pytest.mark.parametrize("fig", FIGURES, ids=lambda f: f.key)
def test_no_two_lines_sit_on_top_of_each_other_at_the_defaults(fig):
    curves = shown(fig)
    names = list(curves)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not np.allclose(curves[a], curves[b], rtol=0.01), f"{fig.key}: {a!r} and {b!r} coincide"


# --- the live explorer agrees with the page --------------------------------------------------------------


@pytest.mark.parametrize("pair", ALL, ids=ids)
def test_the_live_grid_holds_the_static_grid(pair):
    fig, p = pair
    step = live_step(p)
    assert step == p.step and significant_digits(step) <= 2, (fig.key, p.name, step)
    assert on_grid(p.default, p.min, step)
    if p in fig.params:
        off = [v for v in static_grid(p) if not on_grid(v, p.min, step)]
        assert not off, f"{fig.key}: the live {p.name} slider cannot reach the page's {off[:3]}"
        first, last = p.static_range()
        assert p.min <= first and last <= p.max


# --- a fitted value shown rounded -------------------------------------------------------------------------


@pytest.mark.parametrize("pair", [pair for pair in ALL if getattr(pair[1], "calibrated", None) is not None], ids=ids)
def test_a_rounded_default_is_the_nearest_position_to_the_calibrated_value_and_says_so(pair):
    fig, p = pair
    assert p.calibrated != p.default, (fig.key, p.name)
    assert abs(p.calibrated - p.default) <= p.static_step / 2 + 1e-12, (fig.key, p.name)
    # the rounding must not show as a different chart: every line within 1% of the height it spans
    # (on a log axis, of the decades it spans)
    at_default, at_fit = fig.evaluate(), fig.evaluate(**{p.name: p.calibrated})
    if fig.y.scale == "log":
        at_default = {k: np.log10(v) for k, v in at_default.items()}
        at_fit = {k: np.log10(v) for k, v in at_fit.items()}
    for series in at_default:
        span = max(np.ptp(at_fit[series]), np.abs(at_fit[series]).max() * 0.1, 1e-12)
        gap = np.abs(at_default[series] - at_fit[series]).max()
        assert gap <= 0.01 * span, f"{fig.key}: {p.name} at {p.default:g} moves {series!r} by {gap:.3g}"
    if p in fig.params:
        text = subtitle(fig)
        assert f"{p.calibrated:,.6g}" in text, f"{fig.key}: the chart does not give {p.name}'s exact value"


# --- labels -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", ALL, ids=ids)
def test_slider_labels_read_plainly(pair):
    fig, p = pair
    depth, deepest = 0, 0
    for ch in p.title:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        deepest = max(deepest, depth)
    assert deepest <= 1 and depth == 0, f"{fig.key}: {p.title!r} nests brackets"
    assert not re.search(r"[,()]|assumed|fitted", p.unit), f"{fig.key}: {p.name}'s unit {p.unit!r} is not a unit"


# --- exercises ------------------------------------------------------------------------------------------------

#: "set the exponent to 1", "move the share down toward 0.58": a slider verb, then a number
SLIDER_PHRASE = re.compile(r"\b(?:[Ss]et|[Mm]ove|[Ss]lide|[Dd]rag|[Pp]ut)\s+(?:the|it|this|each|a)\b[^.]{0,80}?"
                           r"\b(?:to|toward|towards)\s+(\d[\d,]*(?:\.\d+)?)\b")


def exercise_blocks(slug: str) -> dict[str, str]:
    """The chapter's exercises and their solutions, by label: {label: text of both}."""
    text = (ROOT / "chapters" / f"{slug}.md").read_text(encoding="utf-8")
    blocks: dict[str, str] = {}
    for kind, body in re.findall(r"^```\{(exercise|solution)\}(.*?)^```$", text, flags=re.S | re.M):
        if kind == "exercise":
            label = re.search(r":label:\s*(\S+)", body).group(1)
        else:
            label = body.split("\n", 1)[0].strip()
        blocks[label] = blocks.get(label, "") + body
    return blocks


def declared_values(slug: str) -> tuple:
    try:
        module = importlib.import_module(f"widgets.{slug}.exercises")
    except ModuleNotFoundError:
        return ()
    return getattr(module, "SLIDER_VALUES", ())


@pytest.mark.parametrize("s", STUDIES, ids=lambda s: s.slug)
def test_every_slider_value_the_chapter_names_is_reachable(s):
    """``exercises.SLIDER_VALUES`` lists them: (figure, slider, value, exercise label or "text", surface)."""
    chapter = (ROOT / "chapters" / f"{s.slug}.md").read_text(encoding="utf-8")
    blocks = exercise_blocks(s.slug)
    declared = declared_values(s.slug)
    figures = s.figures()
    for figure, name, value, label, surface, *glued in declared:
        p = next(q for q in figures[figure].all_params if q.name == name)
        text = chapter if label == "text" else blocks.get(label, "")
        assert text, f"{s.slug}: no exercise {label!r}"
        # the value is typed in the text, or glued there from the model under the name the entry gives
        assert (re.search(rf"(?<![\d.]){re.escape(f'{value:g}')}(?![\d])", text)
                or (glued and f"{{glue:text}}`{glued[0]}:" in text)), (label, value)
        if surface == "static":
            assert p in figures[figure].params and value in static_grid(p), (
                f"{s.slug} {label}: {name} = {value:g} is not a position of the page's slider {list(static_grid(p))}")
        else:
            assert surface == "live" and p.min <= value <= p.max and on_grid(value, p.min, live_step(p)), (
                f"{s.slug} {label}: the live {name} slider cannot reach {value:g}")
    # and the chapter names no slider value that is not declared (and so not checked)
    named = {float(m.replace(",", "")) for m in SLIDER_PHRASE.findall(chapter)}
    missing = named - {float(value) for _, _, value, *_ in declared}
    assert not missing, f"{s.slug}: the chapter names slider values not in exercises.SLIDER_VALUES: {sorted(missing)}"
