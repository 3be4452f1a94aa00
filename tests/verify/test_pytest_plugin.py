"""The smoothsens pytest plugin: assertions, fixtures, Hypothesis profile, and the example run."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

from smoothsens_core.distributions import Laplace
from verify.pytest_plugin import HYPOTHESIS_PROFILE, assert_private, assert_sampler_matches

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "test_my_mechanism.py"


class DensityOnly:
    """x + Laplace(scale), exposing only its density (no release): the exact auditor alone."""

    metric = "euclidean"
    delta = 0.0

    def __init__(self, scale: float) -> None:
        self.eps = 1.0
        self.scale = scale

    def log_density(self, x, y):
        return -np.abs(np.asarray(y, float) - np.asarray(x, float).reshape(np.shape(y) if np.ndim(x) else ())) \
            / self.scale - math.log(2 * self.scale)


def test_plugin_profile_is_the_projects_profile():
    prof = settings.get_profile(HYPOTHESIS_PROFILE)
    assert prof.derandomize and prof.deadline is None and prof.print_blob
    assert settings.default.derandomize  # tests/conftest.py loaded the plugin's profile


def test_fixtures_follow_the_options(smoothsens_rng, smoothsens_budget, smoothsens_seed):
    assert smoothsens_seed == 20261122 and smoothsens_budget == 20000
    assert smoothsens_rng.random() == np.random.default_rng(20261122).random()


def test_assert_private_black_box_pass_and_fail():
    ok = lambda x, rng: np.asarray(x, float) + rng.laplace(scale=1.0, size=np.shape(x))  # noqa: E731
    assert assert_private(ok, eps=1.0, pairs=[(0.0, 1.0)], budget=4000).passed
    with pytest.raises(AssertionError, match=r"claimed \(eps=0.3, delta=0\).*FAIL: claimed eps=0.3 refuted"):
        assert_private(ok, eps=0.3, pairs=[(0.0, 1.0)], budget=20000)


def test_assert_private_density_only_uses_the_exact_auditor():
    with pytest.raises(AssertionError, match="INCONCLUSIVE"):
        # no mpmath density: the excess cannot be certified, and inconclusive is not a pass
        assert_private(DensityOnly(0.5), eps=1.0, pairs=[(0.0, 1.0)])
    with pytest.raises(TypeError, match="log_density"):
        assert_private(object(), eps=1.0, pairs=[(0.0, 1.0)])


def test_assert_sampler_matches_rejects_the_wrong_law():
    assert_sampler_matches(lambda n, rng: rng.laplace(size=n), Laplace(0.0, 1.0), budget=5000)
    with pytest.raises(AssertionError, match="does not draw from"):
        assert_sampler_matches(lambda n, rng: rng.laplace(scale=1.5, size=n), Laplace(0.0, 1.0), budget=5000)


def test_example_run_shows_the_wrong_mechanism_with_a_readable_message(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pytest", str(EXAMPLE), "-p", "smoothsens", "-q",
                          "--smoothsens-budget", "10000", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed, 1 xfailed" in run.stdout
    run = subprocess.run([sys.executable, "-m", "pytest", str(EXAMPLE), "-p", "smoothsens", "-q", "--runxfail",
                          "-k", "wrong", "--smoothsens-budget", "10000", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 1
    out = run.stdout
    assert "AssertionError: assert_private: claimed (eps=1, delta=0) for MyLaplace(scale=0.5)" in out
    assert "FAIL: claimed eps=1 refuted" in out and "certified violation" in out
    # the pair (0, 1) is audited in both directions; the worse one is named
    assert "worst pair: x=0 vs x'=1" in out or "worst pair: x=1 vs x'=0" in out
