"""Seeded problem generators: same seed, same problem; answers from the models; checks that can fail."""
from __future__ import annotations

import pytest

from widgets.large_memory import exercises
from widgets.studies import SLUGS


def test_same_seed_same_problem():
    assert exercises.problem(11) == exercises.problem(11)
    a, b = exercises.problem(11), exercises.problem(12)
    assert a.text != b.text or a.kind != b.kind


@pytest.mark.parametrize("kind", exercises.KINDS)
def test_every_kind_has_finite_answers(kind):
    for seed in range(20):
        p = exercises.problem(seed, kind)
        assert p.answers and all(v == v and abs(v) < 1e9 for v in p.answers.values())
        assert set(p.units) == set(p.answers)


def test_answers_flag_prints_answers(capsys):
    exercises.generate(5, answers=False)
    assert "Answers" not in capsys.readouterr().out
    exercises.generate(5, answers=True)
    assert "Answers" in capsys.readouterr().out


def test_check_accepts_right_and_rejects_wrong_answers(capsys):
    p = exercises.problem(3, "memory_accounting")
    right = exercises.check(3, "memory_accounting", **p.answers)
    assert all(right.values())
    wrong = exercises.check(3, "memory_accounting", total_gb=p.answers["total_gb"] * 1.5)
    assert wrong == {"total_gb": False}


def test_itr_gain_is_not_the_cpu_saving():
    p = exercises.problem(0, "itr_vs_cpu")
    gain, saving = p.answers["itr_gain_pct"], p.answers["cpu_saving_pct"]
    assert saving == pytest.approx(100 * (1 - 1 / (1 + gain / 100)))
    assert saving < gain


def test_bad_seed_and_kind_are_refused():
    with pytest.raises(ValueError, match="seed"):
        exercises.problem(-1)
    with pytest.raises(ValueError, match="kind"):
        exercises.problem(1, "nonsense")
    with pytest.raises(ValueError, match="unknown part"):
        exercises.check(1, "closed_loop", total_gb=3)


@pytest.mark.parametrize("module", SLUGS)
def test_every_chapters_generators_are_seeded_and_checkable(module, capsys):
    import importlib

    gen = importlib.import_module(f"widgets.{module}.exercises")
    # a seed alone (no kind asked for) reaches every kind, and each problem says which kind it is
    assert {gen.problem(seed).kind for seed in range(60)} == set(gen.KINDS)
    for kind in gen.KINDS:
        for seed in (0, 5, 9):
            p = gen.problem(seed, kind)
            assert p == gen.problem(seed, kind)
            assert all(v == v and abs(v) < 1e12 for v in p.answers.values())
            assert all(gen.check(seed, kind, **p.answers).values())
            wrong = {k: v * 1.5 + 1 for k, v in p.answers.items()}
            assert not any(gen.check(seed, kind, **wrong).values())
