"""Identity rows of the fidelity ledger: a printed delta, total, ratio or formula recomputed from the
printed inputs, with a tolerance from the inputs' printed rounding (their half-units).

The ledger (:mod:`widgets.ledger`) lists the rows; the studies' ``fidelity`` modules build them here.
"""
from __future__ import annotations

import itertools

from .ledger import LedgerRow


def half_unit(printed: str, unit: str = "") -> float:
    """Half a unit of the last digit of a printed number, in the number's unit (``"0.852"`` -> 0.0005,
    ``"+66%"`` -> 0.5, ``"501 K"`` -> 500, ``"16.47M"`` -> 5000).

    A count (``unit`` "count", a whole number) and a number printed in words are exact: 0.
    """
    text = printed.replace(",", "").replace("%", "").replace("+", "").replace("-", "").strip()
    scale = 1.0
    if text.endswith("K"):  # thousands, as SQL Data Insights' tables print rows
        text, scale = text[:-1].strip(), 1000.0
    elif text.endswith("M"):  # millions, as the large-memory brief prints throughputs (Table 19)
        text, scale = text[:-1].strip(), 1e6
    try:
        number = float(text)
    except ValueError:
        return 0.0
    if unit == "count" and number == int(number):
        return 0.0
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10 ** (-decimals) * scale


def cell(study: str, filename: str, run_id: str, metric: str) -> dict:
    """One printed cell of ``data/``: its value, printed text and flag (ValueError when absent)."""
    from .data import load_long

    frame = load_long(study, filename)
    hit = frame[(frame["run_id"] == run_id) & (frame["metric"] == metric)]
    if hit.empty:
        raise ValueError(f"{study}/{filename}: no cell run_id={run_id!r}, metric={metric!r}")
    row = hit.iloc[0]
    return {"value": float(row["value"]), "printed": str(row["printed"]), "flag": str(row["flag"]).strip(),
            "unit": str(row["unit"]), "key": (study, filename, run_id, metric)}


def _half(c: dict) -> float:
    return half_unit(c["printed"], c.get("unit", ""))


def _relative(slack: float, value: float) -> float:
    """A relative tolerance from an absolute slack; exact arithmetic gets a floating-point hair (1e-9)."""
    return max(slack / abs(value), 1e-9)


def sum_row(chapter: str, source: str, quantity: str, condition: str, total: dict, parts: list[dict],
            scale: float = 1.0, miss: str = "") -> LedgerRow:
    """Identity: a printed total (or mean, with ``scale`` = 1/n) against the sum of its printed parts.

    Tolerance: the half-units of the parts (scaled) and of the total, over the printed total.
    """
    model = scale * sum(p["value"] for p in parts)
    slack = scale * sum(_half(p) for p in parts) + _half(total)
    flag = f" (flagged in the data: {total['flag']})" if total["flag"] else ""
    return LedgerRow(chapter=chapter, source=source, quantity=quantity, condition=condition + flag,
                     published=total["value"], model=model, tolerance=_relative(slack, total["value"]), role="identity",
                     miss=miss, cell=total["key"])


def change_row(chapter: str, source: str, quantity: str, condition: str, delta: dict, before: list[dict],
               after: list[dict], percent: bool = True, miss: str = "") -> LedgerRow:
    """Identity: a printed change (percent, or absolute when ``percent`` is False) against the one
    recomputed from the printed before and after cells (each side summed over its cells).

    Tolerance: half a unit of the printed change plus what the inputs' printed rounding can move it.
    """
    b = sum(c["value"] for c in before)
    a = sum(c["value"] for c in after)
    ub = sum(_half(c) for c in before)
    ua = sum(_half(c) for c in after)
    if percent:
        model = 100 * (a / b - 1)
        spread = 100 * (a / b) * (ua / abs(a) + ub / abs(b)) if a else 100 * ua / abs(b)
    else:
        model = a - b
        spread = ua + ub
    flag = f" (flagged in the data: {delta['flag']})" if delta["flag"] else ""
    return LedgerRow(chapter=chapter, source=source, quantity=quantity, condition=condition + flag,
                     published=delta["value"], model=model,
                     tolerance=_relative(_half(delta) + spread, delta["value"]), role="identity",
                     miss=miss, cell=delta["key"])


def repeat_row(chapter: str, source: str, quantity: str, condition: str, printed: dict, other: dict,
               miss: str = "") -> LedgerRow:
    """Identity: a number the source prints twice (a summary repeating a result), compared as printed."""
    flag = f" (flagged in the data: {printed['flag']})" if printed["flag"] else ""
    return LedgerRow(chapter=chapter, source=source, quantity=quantity, condition=condition + flag,
                     published=printed["value"], model=other["value"],
                     tolerance=_relative(_half(printed) + _half(other), printed["value"]),
                     role="identity", miss=miss, cell=printed["key"])


def formula_row(chapter: str, source: str, quantity: str, condition: str, published: dict, inputs: list[dict],
                formula, extra_slack: float = 0.0, miss: str = "") -> LedgerRow:
    """Identity: a printed cell against ``formula(*input values)``. Tolerance: the largest move of the
    formula over the corners of the inputs' rounding intervals, plus half a unit of the printed cell
    (and ``extra_slack`` for a cell printed in words, e.g. "59.1 million")."""
    values = [c["value"] for c in inputs]
    halves = [_half(c) for c in inputs]
    model = float(formula(*values))
    spread = max(abs(float(formula(*[v + s * h for v, s, h in zip(values, signs, halves)])) - model)
                 for signs in itertools.product((-1, 1), repeat=len(values)))
    flag = f" (flagged in the data: {published['flag']})" if published["flag"] else ""
    return LedgerRow(chapter=chapter, source=source, quantity=quantity, condition=condition + flag,
                     published=published["value"], model=model,
                     tolerance=_relative(spread + _half(published) + extra_slack, published["value"]),
                     role="identity", miss=miss, cell=published["key"])
