"""The shared machinery of the seeded problem generators (OSTEP-style homework).

A study declares ``builders``: kind -> function(rng, seed) -> :class:`Problem`. :class:`Generator`
then gives it ``problem(seed)``, ``generate(seed, answers=...)``, ``check(seed, part=value)``
and a command line (``-s SEED``, ``-c`` for the answers). Same seed, same problem, always.
"""
from __future__ import annotations

import argparse
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

#: A student's answer is right within this relative tolerance (of the answer, or of :data:`CHECK_FLOOR`
#: for an answer of zero).
CHECK_TOLERANCE = 0.01
CHECK_FLOOR = 1e-9


def answer_text(value: float) -> str:
    """An answer as the generators print it: four significant digits with thousands separators, and whole
    numbers from 10,000 up in full, so that no answer the generators give prints with an exponent
    (962; 259.7; 123,457; 0.2317)."""
    if value == 0:
        return "0"  # not "-0"
    return f"{value:,.0f}" if abs(value) >= 1e4 else f"{value:,.4g}"


def _unit(unit: str) -> str:
    """A unit as printed after an answer: a coding such as "1 = yes, 0 = no" in parentheses."""
    return f"({unit})" if "=" in unit else unit


@dataclass(frozen=True)
class Problem:
    seed: int
    kind: str
    text: str
    answers: dict[str, float]
    units: dict[str, str]
    #: a diagnosis problem's measurements as data (what the text shows the reader), and
    facts: dict[str, object] = field(default_factory=dict)
    #: the conclusion it draws from them (so a test can re-apply the rule the solution states)
    decision: dict[str, object] = field(default_factory=dict)
    #: the worked solution in words: the reasoning, with the source's advice cited
    solution: str = ""

    def show(self, answers: bool = False) -> str:
        lines = [f"Problem (seed {self.seed}, {self.kind})", "", self.text]
        if answers:
            lines += ["", "Answers:"] + [f"  {k} = {answer_text(v)} {_unit(self.units[k])}"
                                         for k, v in self.answers.items()]
            if self.solution:  # paragraphs, folded for a terminal
                lines += ["", "Worked solution:"] + ["\n".join(textwrap.wrap(para, 100)) + "\n"
                                                     for para in self.solution.split("\n\n")]
        return "\n".join(lines)


#: The unit of a decision part: the student answers 1 or 0.
YES_NO = "1 = yes, 0 = no"


@dataclass(frozen=True)
class Part:
    """One part of a problem: its name, its answer (a bool for a yes/no decision), unit and what it asks."""

    name: str
    value: float | bool
    unit: str
    asks: str


def diagnosis(seed: int, situation: str, question: str, parts: list[Part], facts: dict, decision: dict,
              solution: str, kind: str = "diagnose") -> Problem:
    """A diagnosis problem: the measurements (``situation``), the decision asked for, and one lettered line
    per part; a yes/no part (a bool) is answered 1 or 0."""
    asks = [f"  ({chr(ord('a') + i)}) {p.name}: {p.asks}{'.' if i == len(parts) - 1 else ';'}"
            for i, p in enumerate(parts)]
    answers = {p.name: float(p.value) for p in parts}
    units = {p.name: YES_NO if isinstance(p.value, bool) else p.unit for p in parts}
    return Problem(seed, kind, "\n".join([situation, question, *asks]), answers, units, facts, decision, solution)


class Generator:
    """Seeded problems of several kinds, their answers, and a checker."""

    def __init__(self, builders: Mapping[str, Callable[[np.random.Generator, int], Problem]], description: str):
        self.builders = dict(builders)
        self.kinds = tuple(self.builders)
        self.description = description

    def problem(self, seed: int, kind: str | None = None) -> Problem:
        """The problem for ``seed`` (its kind also follows from the seed unless given)."""
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed={seed!r} must be a non-negative whole number")
        if kind is not None and kind not in self.kinds:
            raise ValueError(f"kind={kind!r} is not one of {self.kinds}")
        rng = np.random.default_rng(int(seed))
        chosen = kind or self.kinds[int(rng.integers(len(self.kinds)))]
        return self.builders[chosen](rng, int(seed))

    def generate(self, seed: int, answers: bool = False, kind: str | None = None) -> Problem:
        """Print the problem for ``seed`` (with answers if asked) and return it."""
        p = self.problem(seed, kind)
        print(p.show(answers))
        return p

    def check(self, seed: int, kind: str | None = None, **given: float) -> dict[str, bool]:
        """Check a student's answers (within 1%); print and return which parts are right."""
        p = self.problem(seed, kind)
        unknown = [k for k in given if k not in p.answers]
        if unknown:
            raise ValueError(f"unknown part(s) {unknown}; this problem asks for {list(p.answers)}")
        result = {}
        for name, value in given.items():
            want = p.answers[name]
            ok = bool(np.isfinite(value)) and abs(value - want) <= CHECK_TOLERANCE * max(abs(want), CHECK_FLOOR)
            result[name] = ok
            print(f"{name}: {'right' if ok else 'not yet'}")
        return result

    def main(self, argv: list[str] | None = None) -> int:
        """Command line: ``-s SEED`` picks the problem, ``-c`` prints the answers, ``-k`` the kind."""
        parser = argparse.ArgumentParser(description=self.description)
        parser.add_argument("-s", "--seed", type=int, default=0)
        parser.add_argument("-c", "--answers", action="store_true", help="print the answers too")
        parser.add_argument("-k", "--kind", choices=self.kinds)
        args = parser.parse_args(argv)
        self.generate(args.seed, args.answers, args.kind)
        return 0
