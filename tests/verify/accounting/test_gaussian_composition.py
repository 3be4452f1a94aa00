"""Exact composition of Gaussian mechanisms (verify.accounting.compose_exact).

References: delta(eps) of the Gaussian pair with mu = Delta/sigma is Balle & Wang 2018 Thm. 8, evaluated here in
mpmath at 50 digits from the definition Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu); the composed mu is
sqrt(k sum mu_i^2) (Dong, Roth & Su 2019 Cor. 3.3).  The grid-PLD composition (an independent route: convolution
of discretised loss distributions) must contain the exact value.
"""

from __future__ import annotations

import math

import mpmath
import pytest

from verify.accounting import PrivacyCurve, compose, compose_exact

pytest.importorskip("flint")


def _ref(mu: mpmath.mpf, eps: float) -> mpmath.mpf:
    with mpmath.workdps(50):
        e = mpmath.mpf(eps)
        return mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)


@pytest.mark.parametrize("eps", [0.0, 1.0, 10.0, 30.0])
def test_k_fold_gaussian_contains_the_50_digit_value(eps):
    c = compose_exact(PrivacyCurve.gaussian(2.0, 1.0), k=100)
    assert c is not None
    enc = c.delta(eps)
    with mpmath.workdps(50):
        t = _ref(mpmath.mpf(5), eps)  # mu = sqrt(100) * 1/2
        assert mpmath.mpf(enc.lower) <= t <= mpmath.mpf(enc.upper)
        if t > 1e-300:
            assert enc.upper - enc.lower <= 1e-12 * float(t)


def test_heterogeneous_gaussians_compose_to_the_root_sum_of_squares():
    curves = [PrivacyCurve.gaussian(1.0, 1.0), PrivacyCurve.gaussian(3.0, 2.0)]
    c = compose_exact(curves, k=7)
    with mpmath.workdps(50):
        mu = mpmath.sqrt(7 * (1 + mpmath.mpf(4) / 9))
        t = _ref(mu, 2.5)
    enc = c.delta(2.5)
    assert mpmath.mpf(enc.lower) <= t <= mpmath.mpf(enc.upper)


def test_the_grid_pld_composition_contains_the_exact_value():
    g = PrivacyCurve.gaussian(1.0 * math.sqrt(10), 1.0)
    exact = compose_exact(g, k=10).delta(1.0)
    grid = compose(g, k=10, h=1e-3).delta(1.0)
    assert grid.lower <= exact.upper and exact.lower <= grid.upper
    assert grid.upper >= exact.lower  # the dominating PLD is never below the truth


def test_a_non_gaussian_mechanism_has_no_exact_composition():
    assert compose_exact([PrivacyCurve.gaussian(1.0), PrivacyCurve.laplace(1.0)], k=2) is None
    with pytest.raises(ValueError, match="k"):
        compose_exact(PrivacyCurve.gaussian(1.0), k=0)


def test_epsilon_of_the_composition_brackets_the_reference():
    c = compose_exact(PrivacyCurve.gaussian(2.0, 1.0), k=100)
    iv = c.epsilon(1e-6)
    assert iv.certified and iv.lower <= iv.upper
    assert _ref(mpmath.mpf(5), iv.upper) <= 1e-6 < _ref(mpmath.mpf(5), iv.lower)
