"""The fidelity ledger: every published number a model reproduces, with its error.

Each study module provides ``ledger_rows() -> list[LedgerRow]``. ``python -m widgets fidelity``
prints them all; ``--json`` prints them as a JSON list. A row passes when its relative error is
within its tolerance; tolerances are argued in the chapters, not loosened to pass.
"""
from __future__ import annotations

import importlib
import json
import math
from dataclasses import dataclass

#: The studies that have a ledger, in book order.
STUDIES = ("large_memory", "hit_ratio_dead", "fast_index_traversal", "zhyperlink", "system_recovery_boost", "sql_data_insights")


@dataclass(frozen=True)
class LedgerRow:
    chapter: str
    source: str       # document, table or figure, page or line
    quantity: str     # what is compared, with its unit
    condition: str    # the run or setting
    published: float  # in the unit the source prints
    model: float
    tolerance: float  # relative

    def __post_init__(self):
        for name in ("published", "model", "tolerance"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"ledger row {self.quantity!r} ({self.condition}): {name}={value!r} is not finite")
        if self.published == 0:
            raise ValueError(f"ledger row {self.quantity!r}: a published value of 0 has no relative error")
        if self.tolerance <= 0:
            raise ValueError(f"ledger row {self.quantity!r}: tolerance must be positive")

    @property
    def rel_error(self) -> float:
        return abs(self.model - self.published) / abs(self.published)

    @property
    def passed(self) -> bool:
        return self.rel_error <= self.tolerance

    def as_dict(self) -> dict:
        return {
            "chapter": self.chapter, "source": self.source, "quantity": self.quantity,
            "condition": self.condition, "published": self.published, "model": self.model,
            "rel_error": self.rel_error, "tolerance": self.tolerance, "passed": self.passed,
        }


def rows(study: str | None = None) -> list[LedgerRow]:
    """All ledger rows, or one study's."""
    out: list[LedgerRow] = []
    for name in STUDIES if study is None else (study,):
        module = importlib.import_module(f"widgets.{name}")
        out.extend(module.ledger_rows())
    return out


def to_frame(ledger: list[LedgerRow]):
    import pandas as pd

    return pd.DataFrame([r.as_dict() for r in ledger])


def format_table(ledger: list[LedgerRow]) -> str:
    """A plain-text table, with a summary in its last lines."""
    head = ("chapter", "source", "quantity", "condition", "published", "model", "rel.err", "tol", "ok")
    body = [
        (r.chapter, r.source, r.quantity, r.condition, f"{r.published:.6g}", f"{r.model:.6g}",
         f"{100 * r.rel_error:.3g}%", f"{100 * r.tolerance:.3g}%", "pass" if r.passed else "FAIL")
        for r in ledger
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(str(c).ljust(wd) for c, wd in zip(row, widths)) for row in [head, *body]]
    failed = [r for r in ledger if not r.passed]
    worst = max(ledger, key=lambda r: r.rel_error / r.tolerance) if ledger else None
    lines.append("")
    lines.append(f"{len(ledger)} rows, {len(ledger) - len(failed)} within tolerance, {len(failed)} outside.")
    if worst is not None:
        lines.append(f"Largest error relative to its tolerance: {worst.quantity} ({worst.condition}): "
                     f"{100 * worst.rel_error:.3g}% of a {100 * worst.tolerance:.3g}% tolerance.")
    return "\n".join(lines)


def to_json(ledger: list[LedgerRow]) -> str:
    return json.dumps([r.as_dict() for r in ledger], indent=1)
