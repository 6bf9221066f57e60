"""The fidelity ledger: every published number a model reproduces, with its error and its role.

Each study's ``fidelity`` module provides ``ledger_rows() -> list[LedgerRow]`` (the studies are
:data:`widgets.studies.STUDIES`). ``python -m widgets fidelity``
prints them all; ``--json`` prints them as a JSON list. A row passes when its relative error is
within its tolerance; tolerances are argued in the chapters, not loosened to pass.

Every row states its **role**:

* ``fitted``: the published number was used to calibrate the model (a fit reproducing its own
  points proves little, and is shown as such);
* ``predicted``: the number was held out of every fit the model's value depends on;
* ``identity``: the number follows by arithmetic from other printed numbers (a delta, a total,
  a ratio), recomputed from the printed inputs.

Every row also states the **basis** of its tolerance, what the data can tell apart (``basis``, one of
:data:`BASES`, with ``basis_note`` saying how), never what a model misses:

* ``rounding``: the printed precision of the published number and of the printed inputs it uses;
* ``spread``: the spread of a repeated measurement the source prints (which runs, in the note);
* ``stated``: an error the source itself states (quoted, in quotation marks, in the note);
* ``exact``: a fitted value reproduced by construction, or arithmetic exact to the printed digits.

A relative tolerance is at most :data:`WIDEST_RELATIVE` unless its basis is ``stated``. Where a relative
tolerance means nothing (a small difference, a percentage near zero) the row gives an **absolute**
tolerance in the quantity's unit (``absolute`` and ``unit``: 0.5 points, 0.05 s); its relative
``tolerance`` is then derived, ``absolute / |published|``, and the page shows the absolute one.

A row outside its tolerance is kept, marked a **known miss** with its reason (``miss``). Which
rows miss is a judgement made by hand in each study's ``fidelity.py``; the tests fail on a miss
that is not marked, on a mark on a row that does not miss, and on any change in the count of
marked misses per chapter.
"""
from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field

from .numbers import readable

ROLES = ("predicted", "fitted", "identity")
#: Where a tolerance may come from (see the module docstring).
BASES = ("rounding", "spread", "stated", "exact")
#: The widest relative tolerance a row may have, unless it is the source's own stated error.
WIDEST_RELATIVE = 0.25


@dataclass(frozen=True)
class LedgerRow:
    chapter: str
    source: str       # document, table or figure, page or line
    quantity: str     # what is compared, with its unit
    condition: str    # the run or setting
    published: float  # in the unit the source prints
    model: float
    tolerance: float | None  # relative; None when ``absolute`` is given (it is then derived)
    role: str         # one of ROLES
    miss: str = ""    # the reason, when the row is a known miss (outside its tolerance on purpose)
    basis: str = ""   # one of BASES: where the tolerance comes from
    basis_note: str = ""  # how: which digits, which runs, or the source's words in quotation marks
    absolute: float | None = None  # the tolerance in the quantity's unit, where a relative one means nothing
    unit: str = ""    # the unit of ``absolute`` as a reader says it: "points", "s", "MB"
    #: (study, file, run_id, metric) of the published cell, when it is one cell of ``data/``: the
    #: tests perturb it to prove a ``predicted`` row's model value does not depend on it.
    cell: tuple | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.absolute is not None:
            if self.tolerance is not None:
                raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): give a relative tolerance or an "
                                 "absolute one, not both")
            if not isinstance(self.absolute, (int, float)) or not math.isfinite(self.absolute) or self.absolute <= 0:
                raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): absolute={self.absolute!r} must be "
                                 "a positive number in the quantity's unit")
            if not self.unit:
                raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): an absolute tolerance "
                                 "needs its unit")
            if isinstance(self.published, (int, float)) and self.published != 0:
                object.__setattr__(self, "tolerance", self.absolute / abs(self.published))
        elif self.tolerance is None:
            raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): no tolerance (relative or absolute)")
        if self.basis and self.basis not in BASES:
            raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): basis={self.basis!r} is not one of "
                             f"{', '.join(BASES)}")
        for name in ("published", "model", "tolerance"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): {name}={value!r} is not finite")
        if self.published == 0:
            raise ValueError(f"ledger row {self.quantity!r}: a published value of 0 has no relative error")
        if self.tolerance <= 0:
            raise ValueError(f"ledger row {self.quantity!r}: tolerance must be positive")
        if self.role not in ROLES:
            raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): role={self.role!r} is not one of "
                             f"{', '.join(ROLES)}")

    @property
    def rel_error(self) -> float:
        return abs(self.model - self.published) / abs(self.published)

    @property
    def passed(self) -> bool:
        return self.rel_error <= self.tolerance

    @property
    def known_miss(self) -> bool:
        return bool(self.miss)

    @property
    def status(self) -> str:
        """``pass``, ``known miss``, ``FAIL`` (an unmarked miss) or ``STALE`` (marked, but within tolerance)."""
        if self.passed:
            return "STALE" if self.known_miss else "pass"
        return "known miss" if self.known_miss else "FAIL"

    @property
    def ok(self) -> bool:
        """True when the row is where the ledger says it is: within tolerance, or a marked miss."""
        return self.status in ("pass", "known miss")

    def as_dict(self) -> dict:
        return {
            "chapter": self.chapter, "source": self.source, "quantity": self.quantity,
            "condition": self.condition, "role": self.role, "published": self.published, "model": self.model,
            "rel_error": self.rel_error, "tolerance": self.tolerance, "passed": self.passed,
            "known_miss": self.miss or None,
            "tolerance_basis": self.basis or None, "tolerance_note": self.basis_note or None,
            "tolerance_absolute": self.absolute, "unit": self.unit or None,
        }

    @property
    def tolerance_text(self) -> str:
        """The tolerance as the page shows it: ``±0.5 points`` when absolute, else a percentage."""
        if self.absolute is not None:
            return f"±{readable(self.absolute)} {self.unit}"
        return format_error(self.tolerance)

    @property
    def error_text(self) -> str:
        """The error as the page shows it: in the unit when the tolerance is absolute, else relative."""
        if self.absolute is not None:
            return f"{format_difference(abs(self.model - self.published), self.published)} {self.unit}"
        return format_error(self.rel_error)


def rows(study: str | None = None) -> list[LedgerRow]:
    """All ledger rows, or one study's."""
    from .studies import STUDIES, study as find

    out: list[LedgerRow] = []
    for s in STUDIES if study is None else (find(study),):
        out.extend(s.module("fidelity").ledger_rows())
    return out


def summary(ledger: list[LedgerRow]) -> list[dict]:
    """Per chapter, in book order: rows by role, the predicted rows' median and worst error, misses."""
    import numpy as np

    chapters = list(dict.fromkeys(r.chapter for r in ledger))
    out = []
    for chapter in chapters:
        mine = [r for r in ledger if r.chapter == chapter]
        predicted = [r.rel_error for r in mine if r.role == "predicted"]
        relative = [r.tolerance for r in mine if r.absolute is None]
        out.append({
            "chapter": chapter, "rows": len(mine),
            **{role: sum(r.role == role for r in mine) for role in ROLES},
            "median predicted error": float(np.median(predicted)) if predicted else None,
            "worst predicted error": max(predicted) if predicted else None,
            "median tolerance": float(np.median(relative)) if relative else None,
            "widest tolerance": max(relative) if relative else None,
            "absolute tolerances": sum(r.absolute is not None for r in mine),
            "known misses": sum(r.known_miss for r in mine),
            "unmarked misses": sum(r.status == "FAIL" for r in mine),
        })
    return out


def format_model(model: float, published: float) -> str:
    """A model's value beside the published one: one decimal more than the published number shows
    (the model is not more precise than that), and at least three significant digits."""
    shown = readable(published)
    decimals = len(shown.split(".")[1]) + 1 if "." in shown else 0
    if model != 0:
        decimals = max(decimals, 2 - int(math.floor(math.log10(abs(model)))))
    decimals = min(decimals, 6)
    text = f"{model:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_difference(difference: float, published: float) -> str:
    """A difference in the quantity's unit, to one decimal more than the published number shows (at most
    four): ``0.07`` beside a value printed ``99.7``; below that precision, ``< 0.01``."""
    shown = readable(published)
    decimals = min(len(shown.split(".")[1]) + 1 if "." in shown else 1, 4)
    text = f"{difference:,.{decimals}f}"
    if float(text.replace(",", "")) == 0 and difference > 0:
        return f"< {10.0 ** -decimals:.{decimals}f}"
    return text


def format_error(e: float) -> str:
    """A relative error or tolerance as a percentage with two significant digits."""
    pct = 100 * abs(e)
    if pct == 0:
        return "0%"
    if pct < 0.001:
        return "< 0.001%"
    return f"{pct:.2g}%" if pct < 10 else f"{pct:,.0f}%"


def format_table(ledger: list[LedgerRow]) -> str:
    """A plain-text table, with a per-chapter summary and totals in its last lines."""
    head = ("chapter", "role", "source", "quantity", "condition", "published", "model", "rel.err", "tol", "status")
    body = [
        (r.chapter, r.role, r.source, r.quantity, r.condition, f"{r.published:.6g}", f"{r.model:.6g}",
         f"{100 * r.rel_error:.3g}%", r.tolerance_text, r.status)
        for r in ledger
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(str(c).ljust(wd) for c, wd in zip(row, widths)) for row in [head, *body]]
    lines.append("")
    for s in summary(ledger):
        pred = (f"predicted error median {format_error(s['median predicted error'])}, worst "
                f"{format_error(s['worst predicted error'])}" if s["predicted"] else "no predicted rows")
        tol = (f"tolerance median {format_error(s['median tolerance'])}, widest {_widest_text(s)}"
               if s["median tolerance"] is not None else f"{s['absolute tolerances']} absolute tolerances")
        lines.append(f"{s['chapter']}: {s['rows']} rows ({s['predicted']} predicted, {s['fitted']} fitted, "
                     f"{s['identity']} identity); {pred}; {tol}; {s['known misses']} known misses.")
    known = [r for r in ledger if r.status == "known miss"]
    bad = [r for r in ledger if not r.ok]
    lines.append(f"{len(ledger)} rows, {sum(r.status == 'pass' for r in ledger)} within tolerance, "
                 f"{len(known)} known misses, {len(bad)} unexpected.")
    for r in bad:
        lines.append(f"UNEXPECTED ({r.status}): {r.chapter}: {r.quantity} ({r.condition}): "
                     f"{100 * r.rel_error:.3g}% against {100 * r.tolerance:.3g}%.")
    return "\n".join(lines)


def to_json(ledger: list[LedgerRow]) -> str:
    return json.dumps([r.as_dict() for r in ledger], indent=1)


# --- the page: summary first, full rows in a collapsible block ------------------------------------------------

MISS_COLOUR = "#a4001d"  # dark red: 7:1 contrast on white
#: The ledger's look, once per ledger (not on each of hundreds of rows): the page and a live notebook
#: both read it, and a chapter's page is lighter by the bytes its rows no longer repeat.
STYLE = (f"<style>.ledger-miss,.ledger-fail,tr.ledger-off,.ledger-note strong{{color:{MISS_COLOUR}}}"
         ".ledger-miss{font-weight:600}.ledger-fail{font-weight:700}"
         "tr.ledger-note td{border-top:none;padding-top:0;font-size:0.85em}</style>")


def _td(text: str, cls: str = "") -> str:
    return f'<td class="{cls}">{html.escape(text)}</td>' if cls else f"<td>{html.escape(text)}</td>"


def _status_td(r: LedgerRow) -> str:
    if r.status == "pass":
        return '<td class="ledger-pass">✓ within</td>'
    if r.status == "known miss":
        return '<td class="ledger-miss">✗ known miss</td>'
    return f'<td class="ledger-fail">✗ {r.status}</td>'


def rows_html(ledger: list[LedgerRow], chapter_column: bool = False) -> str:
    """The rows as an HTML table: role, what, published, model, error, tolerance, status; under each
    row, in full width, its source and, for a known miss, the reason."""
    head = (["chapter"] if chapter_column else []) + [
        "role", "quantity", "condition", "published", "model", "error", "tolerance", "status"]
    out = ['<div class="ledger-scroll" tabindex="0" style="overflow-x:auto"><table class="ledger-table">',
           "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for r in ledger:
        off = " ledger-off" if not r.passed else ""
        cells = ([_td(r.chapter)] if chapter_column else []) + [
            _td(r.role), _td(r.quantity), _td(r.condition), _td(readable(r.published), "num"),
            _td(format_model(r.model, r.published), "num"), _td(r.error_text, "num"),
            _td(r.tolerance_text, "num"), _status_td(r)]
        out.append(f'<tr class="ledger-{r.role}{off}">' + "".join(cells) + "</tr>")
        note = f"Source: {html.escape(r.source)}."
        if r.basis_note:
            note += f" Tolerance: {html.escape(r.basis_note)}."
        if r.known_miss:
            note = f"<strong>Known miss: {html.escape(r.miss)}.</strong> " + note
        out.append(f'<tr class="ledger-note"><td colspan="{len(head)}">{note}</td></tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


def summary_html(ledger: list[LedgerRow]) -> str:
    """The per-chapter summary as an HTML table: counts by role, predicted error, misses."""
    head = ["chapter", "rows", "predicted", "fitted", "identity", "median predicted error",
            "worst predicted error", "median tolerance", "widest tolerance", "known misses"]
    out = ['<div class="ledger-scroll" tabindex="0" style="overflow-x:auto"><table class="ledger-summary">',
           "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for s in summary(ledger):
        med, worst = s["median predicted error"], s["worst predicted error"]
        cells = [_td(s["chapter"]), _td(str(s["rows"]), "num"), _td(str(s["predicted"]), "num"),
                 _td(str(s["fitted"]), "num"), _td(str(s["identity"]), "num"),
                 _td("none" if med is None else format_error(med), "num"),
                 _td("none" if worst is None else format_error(worst), "num"),
                 _td("none" if s["median tolerance"] is None else format_error(s["median tolerance"]), "num"),
                 _td(_widest_text(s), "num"),
                 _td(str(s["known misses"]), "num")]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _widest_text(s: dict) -> str:
    """The widest relative tolerance, and how many rows have an absolute one instead."""
    widest = "none" if s["widest tolerance"] is None else format_error(s["widest tolerance"])
    n = s["absolute tolerances"]
    return widest if not n else f"{widest} ({n} absolute)"


def _order(ledger: list[LedgerRow]) -> list[LedgerRow]:
    """Predicted rows first, then fitted, then identities (stable within a role)."""
    return sorted(ledger, key=lambda r: ROLES.index(r.role))


def chapter_html(study: str) -> str:
    """A chapter's ledger: one summary line, its known misses, then the other rows in a collapsible block."""
    mine = rows(study)
    s = summary(mine)[0]
    pred = [r for r in mine if r.role == "predicted"]
    if pred:
        lead = (f"{s['rows']} rows: {s['predicted']} predicted "
                f"(median error {format_error(s['median predicted error'])}, "
                f"worst {format_error(s['worst predicted error'])}), {s['fitted']} fitted, {s['identity']} identities; "
                f"{s['known misses']} known misses.")
    else:
        lead = (f"{s['rows']} rows: no predicted rows, {s['fitted']} fitted, {s['identity']} identities; "
                f"{s['known misses']} known misses.")
    if s["median tolerance"] is not None:
        lead += (f" Tolerances, from the printed digits, repeated runs or the source's stated error: median "
                 f"{format_error(s['median tolerance'])}, widest {_widest_text(s)}.")
    parts = [STYLE, f'<p class="ledger-lead"><strong>{html.escape(lead)}</strong></p>']
    misses = [r for r in mine if r.known_miss]
    if misses:  # shown once: above, in full, and not again in the collapsed rows
        rest = [r for r in mine if not r.known_miss]
        parts.append("<p>Known misses:</p>" + rows_html(misses))
        parts.append(f"<details class=\"ledger-details\"><summary>The other {len(rest)} rows (predicted first)"
                     "</summary>" + rows_html(_order(rest)) + "</details>")
    else:
        parts.append(f"<details class=\"ledger-details\"><summary>All {len(mine)} rows (predicted first)</summary>"
                     + rows_html(_order(mine)) + "</details>")
    return "".join(parts)


def book_html() -> str:
    """The whole book's ledger: the summary per chapter, the predicted rows, then every row collapsed."""
    everything = rows()
    pred = [r for r in everything if r.role == "predicted"]
    misses = [r for r in everything if r.known_miss]
    return "".join([
        STYLE, summary_html(everything),
        f"<details class=\"ledger-details\"><summary>The {len(pred)} predicted rows</summary>"
        + rows_html(pred, chapter_column=True) + "</details>",
        f"<details class=\"ledger-details\"><summary>The {len(misses)} known misses</summary>"
        + rows_html(misses, chapter_column=True) + "</details>",
        f"<details class=\"ledger-details\"><summary>All {len(everything)} rows</summary>"
        + rows_html(_order(everything), chapter_column=True) + "</details>",
    ])


class HTML:
    """A tiny rich-display wrapper, so a chapter's code cell shows the HTML without importing IPython."""

    def __init__(self, text: str):
        self.text = text

    def _repr_html_(self) -> str:
        return self.text
