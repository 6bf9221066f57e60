"""Build the book's nbgrader course: one assignment per chapter, seeded per student.

``make classroom`` runs ``python -m classroom.course`` and leaves in ``_build/classroom/``::

    nbgrader_config.py   the course's configuration (course id, roster, execution timeout)
    gradebook.db         nbgrader's gradebook, with the roster and the assignments
    source/<chapter>/<chapter>.ipynb    the teacher's version, reference solutions included
    release/<chapter>/<chapter>.ipynb   what students get (nbgrader generate_assignment)

The notebooks are generated, not written: each graded problem is one kind of the chapter's seeded
generator (``widgets/<study>/exercises.py``), shown and marked through :mod:`widgets.classroom`, so
every student gets their own numbers (the seed comes from the student id) and the autograder marks
them with the generator's own answer for that seed. One autograded test cell per part, one point
each. The chapter's written exercises (its ``{exercise}`` blocks) follow as questions for class
discussion, without their solutions.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "_build" / "classroom"
ROSTER = Path(__file__).resolve().parent / "roster.csv"
COURSE_ID = "db2-retraced"
#: chapter (file stem in chapters/ and study package in widgets/), in the book's order
CHAPTERS = ("large_memory", "hit_ratio_dead", "fast_index_traversal", "zhyperlink",
            "system_recovery_boost", "sql_data_insights", "sap_banking")

CONFIG = '''\
"""nbgrader configuration of the course built by `make classroom` (classroom/course.py)."""
import os

c = get_config()  # noqa: F821 (nbgrader provides it)
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
# Students' notebooks run the chapter's models: allow a loaded machine some time per cell.
c.ExecutePreprocessor.timeout = 180
c.Execute.timeout = 180
'''


def _meta(grade_id: str, *, grade: bool = False, solution: bool = False, locked: bool = True,
          points: int = 0) -> dict:
    """The nbgrader metadata of one cell (schema 3)."""
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution}
    if grade:
        meta["points"] = points
    return {"nbgrader": meta}


def chapter_title(chapter: str) -> str:
    """The chapter's first heading, as the book prints it."""
    for line in (ROOT / "chapters" / f"{chapter}.md").read_text().splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise ValueError(f"chapters/{chapter}.md has no '# ' title line")


def written_exercises(chapter: str) -> list[str]:
    """The text of the chapter's ``{exercise}`` blocks (labels and options dropped, solutions not included)."""
    text = (ROOT / "chapters" / f"{chapter}.md").read_text()
    found = []
    for body in re.findall(r"^```\{exercise\}\n(.*?)^```", text, flags=re.S | re.M):
        lines = [ln for ln in body.splitlines() if not ln.startswith(":")]
        found.append("\n".join(lines).strip())
    return found


def source_notebook(chapter: str) -> nbformat.NotebookNode:
    """The teacher's notebook for ``chapter``: every kind of its seeded problems, solved and tested."""
    from widgets.classroom import _exercises

    kinds = tuple(_exercises(chapter).KINDS)
    cells = []
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells.append(md(textwrap.dedent(f"""\
        # Assignment: {chapter_title(chapter)}

        Every student gets their own numbers: the problems below are generated from your student id by the
        chapter's seeded generator (`widgets.{chapter}.exercises`). Answer each part as a plain number in the
        units the problem gives (no `%` sign, no thousands separators in text); the autograder marks a part
        right within 1%. Each part is worth one point.

        1. Put your student id in the next cell (on the class JupyterHub your user name is used instead).
        2. Run the notebook from the top, then replace each `raise NotImplementedError()` with your answers.
        3. Run the test cell under each answer to see whether a part is right, then save and submit.
        """), metadata=_meta("instructions")))
    cells.append(code('STUDENT_ID = ""  # your student id as on the class list, e.g. "jdoe"',
                      metadata={}))
    cells.append(code(f"from widgets.classroom import Homework\n\nhw = Homework({chapter!r}, STUDENT_ID)\nhw.show()",
                      metadata=_meta("setup")))
    for number, kind in enumerate(kinds, start=1):
        parts = list(_exercises(chapter).problem(0, kind).answers)
        cells.append(md(f"## Problem {number}: {kind.replace('_', ' ')}", metadata=_meta(f"{kind}-title")))
        cells.append(code(f"hw.show({kind!r})", metadata=_meta(f"{kind}-problem")))
        example = ", ".join(f"{kind}[{p!r}] = ..." for p in parts[:1])
        cells.append(code(
            f"{kind} = {{}}  # one number per part: {', '.join(parts)}  (e.g. {example})\n"
            "### BEGIN SOLUTION\n"
            f"{kind}.update(hw.reference({kind!r}))\n"
            "### END SOLUTION", metadata=_meta(f"{kind}-answer", solution=True, locked=False)))
        for part in parts:
            cells.append(code(f"hw.check({kind}, {kind!r}, {part!r})",
                              metadata=_meta(f"{kind}-{part}", grade=True, points=1)))
    questions = written_exercises(chapter)
    if questions:
        body = "\n\n".join(f"{i}. " + q.replace("\n", "\n   ") for i, q in enumerate(questions, start=1))
        cells.append(md("## For discussion in class (not graded)\n\nThe chapter's written exercises; "
                        "bring your answers to class.\n\n" + body, metadata=_meta("discussion")))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def read_roster(path: Path = ROSTER) -> list[dict]:
    """The class list: rows of ``id,first_name,last_name``; ids must be unique and non-empty."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    ids = [r.get("id", "").strip() for r in rows]
    for line, sid in enumerate(ids, start=2):
        if not sid:
            raise ValueError(f"{path}, line {line}: the id column is empty")
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"{path}: student id(s) {dupes} appear more than once")
    return rows


def _venv_on_path() -> str:
    """Put this Python's bin folder first on PATH (nbgrader's gradebook runs ``alembic`` from there)."""
    bindir = str(Path(sys.executable).parent)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != bindir:
        os.environ["PATH"] = f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"
    return bindir


def nbgrader(course: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``nbgrader ARGS`` in ``course`` (raises CalledProcessError, with its output, when it fails)."""
    bindir = _venv_on_path()
    env = {k: v for k, v in os.environ.items() if k != "JUPYTERHUB_USER"}
    return subprocess.run([str(Path(bindir) / "nbgrader"), *args], cwd=course, env=env, text=True,
                          capture_output=True, timeout=timeout, check=True)


def grader(course: Path):
    """nbgrader's Python API for the course in ``course`` (one process for every step, no CLI start-up)."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    _venv_on_path()
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.course_id = COURSE_ID
    config.Execute.timeout = 180
    return NbGraderAPI(config=config)


def build(course: Path = COURSE, roster: Path = ROSTER, chapters=CHAPTERS) -> Path:
    """Write the course in ``course`` (replacing source/, release/ and gradebook.db) and release every assignment."""
    from nbgrader.api import Gradebook

    _venv_on_path()
    course.mkdir(parents=True, exist_ok=True)
    for old in ("source", "release", "gradebook.db"):
        target = course / old
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    (course / "nbgrader_config.py").write_text(CONFIG.format(course_id=COURSE_ID))
    for chapter in chapters:
        folder = course / "source" / chapter
        folder.mkdir(parents=True)
        nbformat.write(source_notebook(chapter), folder / f"{chapter}.ipynb")
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for row in read_roster(roster):
            gb.update_or_create_student(row["id"].strip(), first_name=row.get("first_name", ""),
                                        last_name=row.get("last_name", ""))
        for chapter in chapters:
            gb.update_or_create_assignment(chapter)
    api = grader(course)
    for chapter in chapters:
        result = api.generate_assignment(chapter, force=True)
        if not result["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {chapter} failed:\n{result['log']}\n{result['error']}")
    return course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the nbgrader course (one assignment per chapter)")
    parser.add_argument("--course", type=Path, default=COURSE, help="course folder (default _build/classroom)")
    parser.add_argument("--roster", type=Path, default=ROSTER, help="class list CSV: id,first_name,last_name")
    args = parser.parse_args(argv)
    course = build(args.course, args.roster)
    for chapter in CHAPTERS:
        nb = nbformat.read(course / "release" / chapter / f"{chapter}.ipynb", as_version=4)
        points = sum(c.metadata.get("nbgrader", {}).get("points", 0) for c in nb.cells)
        print(f"{chapter:24s} released, {points} points")
    print(f"course in {course}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
