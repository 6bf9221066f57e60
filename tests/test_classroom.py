"""The nbgrader course (`make classroom`): one assignment per chapter, seeded per student, graded by nbgrader.

The fast tests check the generated notebooks and the seeding; the slow one builds the course in a scratch
folder and autogrades real submissions with nbgrader: the reference solutions, untouched release copies,
one wrong answer, and one student's numbers handed in by another.
"""
from __future__ import annotations

import copy
import csv
import datetime as dt
import json
import os
from pathlib import Path

import nbformat
import pytest

from classroom import course as C
from widgets import classroom as K


def _graded(nb) -> list[dict]:
    return [c.metadata["nbgrader"] for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]


def _problems(study: str, student: str) -> dict:
    ex = K._exercises(study)
    return {kind: ex.problem(K.seed_for(student), kind).answers for kind in ex.KINDS}


# --- seeding -------------------------------------------------------------------------------------------

def test_the_seed_is_the_student_ids_and_stable():
    assert K.seed_for("ada") == K.seed_for(" ada ") == K.seed_for("ada")
    assert K.seed_for("ada") != K.seed_for("adb")
    assert 0 <= K.seed_for("20261234") < 2**31
    for bad in ("", "   ", None, 7):
        with pytest.raises(ValueError, match="student_id"):
            K.seed_for(bad)


@pytest.mark.parametrize("study", C.CHAPTERS)
def test_a_class_of_thirty_gets_thirty_different_assignments(study):
    roster = [f"s{n:04d}" for n in range(30)]
    variants = {json.dumps(_problems(study, sid), sort_keys=True) for sid in roster}
    assert len(variants) == len(roster)
    assert _problems(study, "s0007") == _problems(study, "s0007")


def test_who_the_student_is(monkeypatch, tmp_path):
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="STUDENT_ID"):
        K.current_student("")
    assert K.current_student(" jdoe ") == "jdoe"
    monkeypatch.setenv("JUPYTERHUB_USER", "hubuser")
    assert K.current_student("jdoe") == "hubuser"
    graded = tmp_path / "autograded" / "grace" / "zhyperlink"
    graded.mkdir(parents=True)
    monkeypatch.chdir(graded)
    assert K.current_student("jdoe") == "grace"  # the grader's folder beats what was typed


def test_check_marks_one_part(monkeypatch, tmp_path):
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.chdir(tmp_path)
    hw = K.Homework("large_memory", "ada")
    right = hw.reference("memory_accounting")
    hw.check(right, "memory_accounting", "total_gb")
    wrong = {**right, "total_gb": right["total_gb"] * 1.02}
    with pytest.raises(AssertionError, match="total_gb"):
        hw.check(wrong, "memory_accounting", "total_gb")
    for bad in ({}, {"total_gb": "lots"}, {"total_gb": float("nan")}):
        with pytest.raises(AssertionError, match="total_gb"):
            hw.check(bad, "memory_accounting", "total_gb")
    with pytest.raises(ValueError, match="asks for"):
        hw.check(right, "memory_accounting", "no_such_part")


# --- the generated notebooks ---------------------------------------------------------------------------

@pytest.mark.parametrize("chapter", C.CHAPTERS)
def test_each_assignment_has_graded_parts_from_the_chapters_generator(chapter):
    nb = C.source_notebook(chapter)
    graded = _graded(nb)
    kinds = K._exercises(chapter).KINDS
    parts = sum(len(K._exercises(chapter).problem(0, k).answers) for k in kinds)
    assert len(graded) == parts >= 3
    assert all(g["points"] == 1 for g in graded)
    solutions = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
    assert len(solutions) == len(kinds)
    assert all("### BEGIN SOLUTION" in c.source for c in solutions)
    assert len({g["grade_id"] for g in graded}) == len(graded)
    # the chapter's written exercises come along, without their solutions
    discussion = nb.cells[-1].source
    assert len(C.written_exercises(chapter)) >= 3
    assert all(q.splitlines()[0] in discussion for q in C.written_exercises(chapter))
    assert "{solution}" not in discussion


def test_a_roster_with_a_repeated_or_empty_id_is_refused(tmp_path):
    bad = tmp_path / "roster.csv"
    bad.write_text("id,first_name,last_name\nada,Ada,L\nada,Ada,M\n")
    with pytest.raises(ValueError, match="ada"):
        C.read_roster(bad)
    bad.write_text("id,first_name,last_name\nada,Ada,L\n,No,Id\n")
    with pytest.raises(ValueError, match="line 3"):
        C.read_roster(bad)


# --- the course, graded by nbgrader --------------------------------------------------------------------

def _submit(course: Path, student: str, chapter: str, nb) -> None:
    folder = course / "submitted" / student / chapter
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{chapter}.ipynb")
    (folder / "timestamp.txt").write_text(dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"))


def _answered(release, student: str, chapter: str, change: dict | None = None):
    """The release notebook with a student's answers typed in as plain numbers (``change``: kind -> part -> value)."""
    nb = copy.deepcopy(release)
    answers = _problems(chapter, student)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if cell.metadata.get("nbgrader", {}).get("solution"):
            kind = gid.removesuffix("-answer")
            values = {**answers[kind], **(change or {}).get(kind, {})}
            cell.source = f"{kind} = {{}}\n" + "\n".join(f"{kind}[{p!r}] = {v!r}" for p, v in values.items())
        elif cell.source.startswith("STUDENT_ID"):
            cell.source = f'STUDENT_ID = "{student}"'
    return nb


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory):
    course = C.build(tmp_path_factory.mktemp("classroom") / "course")
    release = {ch: nbformat.read(course / "release" / ch / f"{ch}.ipynb", as_version=4) for ch in C.CHAPTERS}
    source = {ch: nbformat.read(course / "source" / ch / f"{ch}.ipynb", as_version=4) for ch in C.CHAPTERS}
    for ch in C.CHAPTERS:
        _submit(course, "ada", ch, source[ch])  # the reference solutions
        _submit(course, "edgar", ch, release[ch])  # an untouched release copy
    lm = "large_memory"
    first = K._exercises(lm).KINDS[0]
    part = next(iter(_problems(lm, "grace")[first]))
    wrong = {first: {part: _problems(lm, "grace")[first][part] * 1.5}}
    _submit(course, "grace", lm, _answered(release[lm], "grace", lm, change=wrong))  # one wrong part
    _submit(course, "jim", lm, _answered(release[lm], "jim", lm))  # right, typed as numbers
    _submit(course, "pat", lm, _answered(release[lm], "jim", lm))  # jim's numbers, handed in by pat
    api = C.grader(course)
    for ch in C.CHAPTERS:
        for student in sorted(os.listdir(course / "submitted")):
            if (course / "submitted" / student / ch).is_dir():
                result = api.autograde(ch, student, force=True, create=True)
                assert result["success"], (ch, student, result["log"], result.get("error"))
    C.nbgrader(course, "export", "--to", str(course / "grades.csv"))
    with open(course / "grades.csv", newline="") as f:
        grades = {(r["assignment"], r["student_id"]): r for r in csv.DictReader(f)}
    return course, grades, release


@pytest.mark.slow
def test_reference_solutions_get_full_marks_on_every_assignment(graded_course):
    _, grades, release = graded_course
    for ch in C.CHAPTERS:
        g = grades[(ch, "ada")]
        assert float(g["max_score"]) == sum(x["points"] for x in _graded(release[ch])) >= 3
        assert float(g["score"]) == float(g["max_score"]), (ch, g)


@pytest.mark.slow
def test_an_untouched_release_grades_without_a_crash_and_below_full_marks(graded_course):
    course, grades, _ = graded_course
    for ch in C.CHAPTERS:
        assert (course / "autograded" / "edgar" / ch / f"{ch}.ipynb").exists()
        assert float(grades[(ch, "edgar")]["score"]) < float(grades[(ch, "edgar")]["max_score"])


@pytest.mark.slow
def test_a_wrong_answer_loses_exactly_its_point_and_numbers_are_per_student(graded_course):
    _, grades, _ = graded_course
    full = float(grades[("large_memory", "jim")]["max_score"])
    assert float(grades[("large_memory", "jim")]["score"]) == full
    assert float(grades[("large_memory", "grace")]["score"]) == full - 1
    # jim's right numbers are wrong for pat: the grader marks pat against pat's own seed
    assert float(grades[("large_memory", "pat")]["score"]) < full


@pytest.mark.slow
def test_no_release_notebook_contains_a_solution(graded_course):
    course, _, release = graded_course
    for ch, nb in release.items():
        text = (course / "release" / ch / f"{ch}.ipynb").read_text()
        assert "BEGIN SOLUTION" not in text and "hw.reference" not in text, ch
        assert "raise NotImplementedError()" in text
        assert len(_graded(nb)) >= 3


def test_the_class_pool_fails_loudly_on_another_voila():
    """classroom/voila_pool.py reads Voila's private pool: a Voila it was not written for stops it with the
    version named, and a pool of another shape is an error, not a silently empty pool."""
    import types

    from classroom import voila_pool

    voila_pool.check_voila()  # the pinned Voila passes
    with pytest.raises(RuntimeError, match=r"Voila 0\.6\.0 is installed"):
        voila_pool.check_voila("0.6.0")
    with pytest.raises(RuntimeError, match="has no 'wait_before'"):
        voila_pool.check_voila("0.5.13", module=types.SimpleNamespace(voila_kernel_manager_factory=None))

    class Wrapped(voila_pool.ClassKernelManager):
        def fill_if_needed(self, *args, **kwargs):  # what Voila's pool adds
            pass

    pooled = Wrapped.__new__(Wrapped)
    pooled._pools = {"nb.ipynb": []}
    assert pooled._pool_map() == {"nb.ipynb": []}
    pooled._pools = {"nb.ipynb": {}}  # renamed or reshaped in another Voila
    with pytest.raises(RuntimeError, match="changed shape"):
        pooled._pool_map()
    bare = voila_pool.ClassKernelManager.__new__(voila_pool.ClassKernelManager)
    assert bare._pool_map() == {}  # no pre-heated pool: nothing pooled, no error
