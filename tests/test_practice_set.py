"""The static page's practice sets hold the generators' own problems: one source of truth.

Every exported problem equals what ``widgets.<study>.exercises.problem(seed)`` gives for its seed (text,
kind, answers, units, worked solution), the seed alone picks it as on the command line, and the built
site's JSON is exactly the export of this code. (The page itself is driven in tests/test_practice.py.)
"""
from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from widgets import exercise_kit, practice
from widgets.studies import SLUGS, STUDIES
from tools.site import ROOT, SITE


@pytest.fixture(scope="module", params=practice.practice_slugs())
def exported(request):
    return request.param, practice.practice_set(request.param)


def test_every_chapter_has_a_practice_set():
    assert practice.practice_slugs() == SLUGS  # the seven chapters; the zEDC note has no generator
    assert practice.generator("zedc") is None


def test_each_exported_problem_is_the_generators_for_its_seed(exported):
    slug, found = exported
    exercises = importlib.import_module(f"widgets.{slug}.exercises")
    assert found["kinds"] == list(exercises.KINDS)
    assert found["tolerance"] == exercise_kit.CHECK_TOLERANCE and found["floor"] == exercise_kit.CHECK_FLOOR
    for record in found["problems"]:
        p = exercises.problem(record["seed"])  # the seed alone, as `-s SEED` on the command line
        assert (record["kind"], record["text"], record["solution"]) == (p.kind, p.text, p.solution)
        assert {part["name"]: part["answer"] for part in record["parts"]} == p.answers
        assert {part["name"]: part["unit"] for part in record["parts"]} == p.units
        assert all(part["letter"] for part in record["parts"]), f"seed {record['seed']}: a part without its letter"


def test_seeds_per_kind_are_distinct_and_enough(exported):
    slug, found = exported
    seeds = [r["seed"] for r in found["problems"]]
    assert len(seeds) == len(set(seeds)) == practice.SEEDS_PER_KIND * len(found["kinds"])
    for kind in found["kinds"]:
        assert sum(r["kind"] == kind for r in found["problems"]) == practice.SEEDS_PER_KIND, (slug, kind)


def test_the_command_line_prints_the_pages_problem_and_answers(exported):
    slug, found = exported
    record = found["problems"][len(found["problems"]) // 2]
    out = subprocess.run([sys.executable, "-m", f"widgets.{slug}.exercises", "-s", str(record["seed"]), "-c"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert record["text"] in out
    for part in record["parts"]:
        shown = {"yes": "1", "no": "0"}.get(part["shown"], part["shown"])
        assert f"{part['name']} = {shown} " in out, (slug, record["seed"], part["name"])


@pytest.mark.parametrize(("value", "text"), [(962.0, "962"), (259.73, "259.7"), (123456.7, "123,457"),
                                             (0.231683, "0.2317"), (-0.0, "0"), (-3.5, "-3.5"), (1234.5, "1,234")])
def test_answers_print_without_exponents(value, text):
    assert exercise_kit.answer_text(value) == text


def test_an_unknown_study_is_refused_by_name():
    with pytest.raises(ValueError, match="zedc.*large_memory"):
        practice.practice_set("zedc")


@pytest.mark.skipif(not (SITE / "_static" / "practice").is_dir(), reason="run `make book` first")
@pytest.mark.parametrize("study", [s.slug for s in STUDIES])
def test_the_built_set_is_this_codes_export(study):
    built = json.loads((SITE / "_static" / "practice" / f"{study}.json").read_text(encoding="utf-8"))
    assert built == practice.practice_set(study)
