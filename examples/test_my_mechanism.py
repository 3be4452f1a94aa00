"""A user's test file using the smoothsens pytest plugin (installed with the package).

Run it with ``python3 -m pytest examples/test_my_mechanism.py`` (the plugin loads through its
``pytest11`` entry point; ``-p smoothsens`` names it explicitly).  The correct mechanism passes;
the deliberately wrong one is marked ``xfail(strict=True)``, so this run shows it as an expected
failure -- ``--runxfail`` prints the assertion message the plugin gives for it.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core.distributions import Laplace
from verify.pytest_plugin import assert_private, assert_sampler_matches


class MyLaplace:
    """M(x) = x + Laplace(sensitivity / eps) for a query of sensitivity 1: the Mechanism contract."""

    metric = "euclidean"
    delta = 0.0

    def __init__(self, eps: float, scale: float) -> None:
        self.eps = eps
        self.scale = scale
        self.name = f"MyLaplace(scale={scale:g})"

    def log_density(self, x, y):
        return -np.abs(np.asarray(y, dtype=float) - np.asarray(x, dtype=float)) / self.scale - math.log(2 * self.scale)

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            return -abs(mpmath.mpf(y) - mpmath.mpf(float(np.asarray(x).reshape(-1)[0]))) / b - mpmath.log(2 * b)

    def release(self, x, rng):
        return np.asarray(x, dtype=float) + rng.laplace(scale=self.scale, size=np.shape(x))


def test_laplace_with_scale_one_over_eps_is_private(smoothsens_budget, smoothsens_seed):
    assert_private(MyLaplace(eps=1.0, scale=1.0), eps=1.0, pairs=[(0.0, 1.0), (3.0, 3.5)],
                   budget=smoothsens_budget, seed=smoothsens_seed)


def test_black_box_release_is_private(smoothsens_budget, smoothsens_seed):
    def release(x, rng):
        return np.asarray(x, dtype=float) + rng.laplace(scale=2.0, size=np.shape(x))

    assert_private(release, eps=0.5, pairs=[(0.0, 1.0)], budget=smoothsens_budget, seed=smoothsens_seed)


def test_sampler_draws_laplace(smoothsens_budget, smoothsens_seed):
    assert_sampler_matches(lambda n, rng: rng.laplace(scale=1.0, size=n), Laplace(0.0, 1.0),
                           budget=smoothsens_budget, seed=smoothsens_seed)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="deliberately wrong: scale 1/(2 eps) is 2 eps-DP")
def test_wrong_laplace_with_half_the_scale(smoothsens_budget, smoothsens_seed):
    assert_private(MyLaplace(eps=1.0, scale=0.5), eps=1.0, pairs=[(0.0, 1.0)],
                   budget=smoothsens_budget, seed=smoothsens_seed)
