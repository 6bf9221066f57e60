"""The live explorers of the fast-index-traversal chapter, and the eligibility form."""
from __future__ import annotations

import html

import ipywidgets as w

from ..explorer import Explorer, study_dashboard, study_explorer
from . import model

STUDY = "fast_index_traversal"

TYPES = ("CHAR", "VARCHAR", "INTEGER", "BIGINT", "DECIMAL", "DATE", "TIMESTAMP", "VARBIN", "TIMESTZ")


def parse_columns(text: str) -> list[model.Column]:
    """Columns from lines like ``NAME VARCHAR 30 null include`` (name, type, length, flags)."""
    columns = []
    for number, line in enumerate(text.strip().splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 3:
            raise ValueError(f"line {number}: write 'NAME TYPE LENGTH [null] [include]', got {line!r}")
        name, coltype, length = parts[0], parts[1].upper(), parts[2]
        if coltype not in TYPES:
            raise ValueError(f"line {number}: type {coltype!r} is not one of {', '.join(TYPES)}")
        if not length.isdigit() or not 1 <= int(length) <= 32704:
            raise ValueError(f"line {number}: length {length!r} must be a whole number of bytes from 1 to 32704")
        flags = {p.lower() for p in parts[3:]}
        unknown = flags - {"null", "include"}
        if unknown:
            raise ValueError(f"line {number}: unknown flag(s) {sorted(unknown)}; use 'null' and/or 'include'")
        columns.append(model.Column(name, coltype, int(length), "null" in flags, "include" in flags))
    if not columns:
        raise ValueError("enter at least one key column")
    return columns


class EligibilityForm(w.VBox):
    """Type an index's key columns; see whether each Db2 level gives it FTB structures, and why."""

    def __init__(self):
        self.columns = w.Textarea(value="ACCOUNT CHAR 80\nREGION CHAR 8\nNOTE VARCHAR 100 null include",
                                  description="Key columns", layout=w.Layout(width="520px", height="110px"),
                                  style={"description_width": "initial"})
        self.unique = w.Checkbox(value=True, description="Unique index")
        self.result = w.HTML()
        super().__init__([w.HTML("<b>One column a line: NAME TYPE LENGTH [null] [include]</b>"),
                          self.columns, self.unique, self.result])
        self.add_class("db2book-eligibility")
        for widget in (self.columns, self.unique):
            widget.observe(lambda _: self.update(), names="value")
        self.update()

    def update(self) -> None:
        try:
            columns = parse_columns(self.columns.value)
        except ValueError as exc:  # a malformed definition is explained, never a crash
            self.result.value = f"<p style='color:#b00'>{html.escape(str(exc))}</p>"
            return
        rows = []
        for level in model.LIMITS:
            v = model.eligibility(columns, self.unique.value, level)
            verdict = "eligible" if v.eligible else "not eligible: " + "; ".join(v.reasons)
            rows.append(f"<tr><td>{level}</td><td>{v.key_length} bytes</td><td>{html.escape(verdict)}</td></tr>")
        self.result.value = ("<table class='db2book-readout'><tr><th>level</th><th>key length</th><th>FTB</th></tr>"
                             + "".join(rows) + "</table>")


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: getpages per select and index levels)."""
    return study_explorer(STUDY, names)


def dashboard() -> Explorer:
    """Every figure in tabs and the eligibility form, for a classroom projector (Voila)."""
    return study_dashboard(STUDY).add_tools(w.HTML("<h3>Is this index FTB-eligible?</h3>"), EligibilityForm())
