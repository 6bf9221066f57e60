"""A class of 10 opens one dashboard at once (bounded): all are served, and one student's slider never
changes another's chart. Timings are measured by `make bench`, not asserted here (the machine is shared)."""
from __future__ import annotations

import pytest

from tools.classload import class_load, class_pool
from tools.site import ROOT
import widgets.large_memory.figures as F

pytestmark = [pytest.mark.voila, pytest.mark.browser, pytest.mark.slow]
STUDENTS = 10


def value_for(i: int) -> str:
    """Student i's own setting of the first slider: distinct for every student, on the slider's grid."""
    p = F.SYNC_READS.params[0]
    k = (i // 2 + 1) * 2
    v = p.default + k * p.step if p.default + k * p.step <= p.max else p.default - k * p.step
    return f"{v:g}"


def test_a_class_of_ten_is_served_and_isolated():
    run = class_load(ROOT / "dashboards" / "large_memory.ipynb", STUDENTS, value_for, timeout_ms=480_000)
    summary = run.summary()
    print("\n", summary)
    assert not run.failures, run.failures
    assert len(run.first_render_s) == STUDENTS
    assert len(run.update_s) == len(range(0, STUDENTS, 2))
    assert run.isolated
    assert len(set(run.kernel_ids)) == STUDENTS  # every student got a kernel of their own
    # the class's arrival set off no kernel start: the two spares are left, refills wait for the class to settle
    assert summary["kernels_running"] == class_pool(STUDENTS) == STUDENTS + 2


def test_a_student_beyond_the_pool_is_served_by_a_refill():
    """The pool holds 3 kernels and 4 students arrive: the 4th takes a refill, which starts at once (fewer
    than two spare are left) rather than after the class has settled."""
    run = class_load(ROOT / "dashboards" / "large_memory.ipynb", 4, value_for, pool=3, clients="ws",
                     timeout_ms=300_000)
    assert not run.failures, run.failures
    assert len(run.first_render_s) == 4 and len(set(run.kernel_ids)) == 4
    assert run.isolated
