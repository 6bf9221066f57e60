"""The GBP-dependent share refitted with the printed GBP hit ratios (the reviewer's check)."""
from __future__ import annotations

import numpy as np
import pytest

from widgets.large_memory import calibration, model


def test_share_fit_recovers_a_planted_share():
    hit = np.array([0.29, 0.38, 0.57, 0.82])
    reads = 90.0 * (1 - 0.6 * hit)
    scale, share = calibration._share_fit(reads, hit, None)
    assert scale == pytest.approx(90.0) and share == pytest.approx(0.6)
    pinned_scale, pinned = calibration._share_fit(reads, hit, 0.6)
    assert pinned == 0.6 and pinned_scale == pytest.approx(90.0)


def test_printed_hits_fit_better_than_the_joint_model_and_below_its_share():
    fit = calibration.printed_hit_share()
    assert max(map(abs, fit.errors)) <= max(map(abs, fit.errors_at_study_share))
    # the joint fit's share compensates for a flat modelled hit-ratio curve: the printed ratios span more
    modelled = model.gbp_hit_ratio(np.array([52.0, 398.0]), calibration.CALIBRATED.group)
    assert modelled[1] - modelled[0] < 0.82 - 0.29
    assert fit.gbp_dependent_fraction < calibration.CALIBRATED.group.gbp_dependent_fraction
