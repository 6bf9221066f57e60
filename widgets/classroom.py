"""The student's side of the classroom assignments: one seeded variant of each problem per student.

The nbgrader course that ``make classroom`` builds (see ``classroom/course.py``) has one assignment per
chapter. Each assignment notebook calls :class:`Homework`, which turns the student's id into a seed
(:func:`seed_for`) and asks the chapter's own seeded generator (``widgets.<study>.exercises``) for one
problem of every kind. The autograder's test cells call :meth:`Homework.check`, which marks a part with
that same generator's ``check``, so the notebook, the command line (``-s SEED -c``) and the grade can
never disagree.

Who the student is, in this order:

1. when nbgrader grades a submission, the folder it runs in, ``…/submitted|autograded/<student>/<assignment>/``;
2. on a JupyterHub, the logged-in user (``JUPYTERHUB_USER``);
3. otherwise the id the student typed into the notebook's ``STUDENT_ID`` cell.
"""
from __future__ import annotations

import hashlib
import importlib
import math
import os
from pathlib import Path

#: The folders nbgrader runs a student's notebook in: ``<course>/<these>/<student>/<assignment>/``.
GRADING_FOLDERS = ("submitted", "autograded")


def seed_for(student_id: str) -> int:
    """The seed (0 ≤ seed < 2³¹) of ``student_id``: a hash, so that ids close together give unrelated problems."""
    if not isinstance(student_id, str) or not student_id.strip():
        raise ValueError(f"student_id={student_id!r} must be a non-empty text such as 'jdoe' or '20261234'")
    digest = hashlib.sha256(student_id.strip().encode()).hexdigest()
    return int(digest[:8], 16) % 2**31


def graded_student(folder: Path | None = None) -> str | None:
    """The student whose submission nbgrader is grading in ``folder`` (default: here), or None."""
    folder = Path.cwd() if folder is None else Path(folder)
    if len(folder.parts) >= 3 and folder.parent.parent.name in GRADING_FOLDERS:
        return folder.parent.name
    return None


def current_student(typed: str = "") -> str:
    """The student this notebook is for: the graded submission's, the hub user's, or the typed id."""
    found = graded_student() or os.environ.get("JUPYTERHUB_USER", "").strip() or str(typed).strip()
    if not found:
        raise ValueError("STUDENT_ID is empty: type your student id (as on the class list) into the "
                         "STUDENT_ID cell at the top, e.g. STUDENT_ID = \"jdoe\", and run the notebook again")
    return found


def _exercises(study: str):
    """The chapter's seeded-generator module, ``widgets.<study>.exercises``."""
    try:
        return importlib.import_module(f"widgets.{study}.exercises")
    except ModuleNotFoundError as exc:
        raise ValueError(f"study={study!r} has no seeded exercises (widgets/{study}/exercises.py)") from exc


class Homework:
    """One student's variant of a chapter's seeded problems (one problem of every kind)."""

    def __init__(self, study: str, typed_id: str = ""):
        self.study = study
        self.exercises = _exercises(study)
        self.student = current_student(typed_id)
        self.seed = seed_for(self.student)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.exercises.KINDS)

    def problem(self, kind: str):
        """This student's problem of ``kind`` (a :class:`widgets.exercise_kit.Problem`)."""
        return self.exercises.problem(self.seed, kind)

    def show(self, kind: str | None = None) -> None:
        """Print who this is for, or (with ``kind``) that problem and the parts it asks for."""
        if kind is None:
            print(f"Student {self.student}: seed {self.seed}. Your numbers are your own; "
                  "discuss methods with others, not answers.")
            return
        p = self.problem(kind)
        print(p.text)
        print("\nAnswer each part as a number, in these units: "
              + ", ".join(f"{k} ({p.units[k] or 'no unit'})" for k in p.answers))

    def reference(self, kind: str) -> dict[str, float]:
        """The generator's answers for this student's problem of ``kind`` (the teacher's solution)."""
        return dict(self.problem(kind).answers)

    def check(self, answers: dict, kind: str, part: str) -> None:
        """Mark one part: raise AssertionError (the autograder's 'wrong') unless it is right within 1%."""
        p = self.problem(kind)
        if part not in p.answers:
            raise ValueError(f"part={part!r} is not asked in the {kind} problem; it asks for {list(p.answers)}")
        if not isinstance(answers, dict) or part not in answers:
            raise AssertionError(f"{kind}: no answer for {part!r} yet; set {kind}[{part!r}] = <a number>")
        try:
            value = float(answers[part])
        except (TypeError, ValueError):
            raise AssertionError(f"{kind}[{part!r}] = {answers[part]!r} is not a number") from None
        if not math.isfinite(value):
            raise AssertionError(f"{kind}[{part!r}] = {value} is not a finite number")
        result = self.exercises.check(self.seed, kind, **{part: value})
        assert result[part], f"{kind}[{part!r}] = {value:,.6g} is not right yet (within 1%)"
