"""The static page's practice sets: each chapter's seeded problems, exported at build time as data.

The page holds data, not a second copy of the models: :func:`practice_set` asks a chapter's own generator
(``widgets.<study>.exercises``, the one the classroom grades with) for its problems and answers, and the
Sphinx extension ``book/_ext/practice.py`` writes them as JSON into the built site, where the page's
script (``book/_static/db2book/practice.js``) shows them and checks a reader's answers with the
generator's own tolerance (:data:`widgets.exercise_kit.CHECK_TOLERANCE`).

The seeds are the first :data:`SEEDS_PER_KIND` seeds, counting up from 0, whose problem is of each kind
*when the seed alone picks the kind* (``problem(seed)``), as it does on the command line: so
``python -m widgets.<study>.exercises -s SEED -c`` prints the page's problem and its answers.

Importing it loads no plotting library; a study's generator is imported when its set is asked for.
"""
from __future__ import annotations

import importlib
import re
from types import ModuleType

from .exercise_kit import CHECK_FLOOR, CHECK_TOLERANCE, YES_NO, Problem, answer_text
from .studies import NOTES, STUDIES

#: Problems per kind on the page: enough that a reader rarely meets one twice.
SEEDS_PER_KIND = 50
#: The last seed tried before a kind the seeds never reach is an error (every generator reaches all its
#: kinds within a few hundred).
MAX_SEED = 100_000


def generator(slug: str) -> ModuleType | None:
    """``widgets.<slug>.exercises``, or None when the study (or note) has no seeded generator."""
    try:
        return importlib.import_module(f"widgets.{slug}.exercises")
    except ModuleNotFoundError as exc:
        if exc.name != f"widgets.{slug}.exercises":
            raise
        return None


def practice_slugs() -> tuple[str, ...]:
    """The studies and notes with a seeded generator, in book order: the pages that get a practice block."""
    return tuple(s.slug for s in STUDIES + NOTES if generator(s.slug) is not None)


def seeds_by_kind(exercises: ModuleType, per_kind: int = SEEDS_PER_KIND) -> dict[str, list[int]]:
    """The first ``per_kind`` seeds whose problem (kind picked by the seed) is of each kind, by kind."""
    found: dict[str, list[int]] = {kind: [] for kind in exercises.KINDS}
    for seed in range(MAX_SEED):
        kind = exercises.problem(seed).kind
        if len(found[kind]) < per_kind:
            found[kind].append(seed)
        if all(len(seeds) == per_kind for seeds in found.values()):
            return found
    short = [k for k, seeds in found.items() if len(seeds) < per_kind]
    raise ValueError(f"{exercises.__name__}: seeds 0-{MAX_SEED - 1} give fewer than {per_kind} problems of {short}")


def part_letter(text: str, name: str) -> str:
    """The letter a problem's text gives part ``name`` ("(b) sync_reads_after: ..." gives "b"), or ""."""
    found = re.search(r"\(([a-z])\) " + re.escape(name) + r"\b", text)
    return found.group(1) if found else ""


def problem_record(p: Problem) -> dict:
    """One problem as the page reads it: the generator's text and worked solution as they are, and per part
    its letter, unit, exact answer and the answer as the command line prints it."""
    parts = [{"name": name, "letter": part_letter(p.text, name), "unit": p.units[name], "answer": float(value),
              "shown": ("yes" if value else "no") if p.units[name] == YES_NO else answer_text(value)}
             for name, value in p.answers.items()]
    return {"seed": p.seed, "kind": p.kind, "text": p.text, "parts": parts, "solution": p.solution}


def practice_set(slug: str, per_kind: int = SEEDS_PER_KIND) -> dict:
    """The practice set of study ``slug``: its kinds, the check's tolerance, and every problem, by seed."""
    exercises = generator(slug)
    if exercises is None:
        raise ValueError(f"study={slug!r} has no seeded generator (widgets/{slug}/exercises.py); "
                         f"these do: {', '.join(practice_slugs())}")
    seeds = sorted(s for kind_seeds in seeds_by_kind(exercises, per_kind).values() for s in kind_seeds)
    return {"study": slug, "command": f"python -m widgets.{slug}.exercises", "kinds": list(exercises.KINDS),
            "tolerance": CHECK_TOLERANCE, "floor": CHECK_FLOOR, "yes_no": YES_NO,
            "problems": [problem_record(exercises.problem(s)) for s in seeds]}
