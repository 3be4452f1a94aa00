"""Linear forms f0(beta0 + <beta, x>) (004 Lemma 4.8): the 1-D reduction against a 2-D brute force
of 004 Def. 9 (smoothsens_core.sensitivity.brute), the scaling identities, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity.brute import brute_smooth_sensitivity
from smoothsens_core.sensitivity.linear_form import (
    linear_score,
    reduce_growth,
    sensitivity_linear_threshold,
    smooth_sensitivity_linear_form,
    smooth_sensitivity_linear_threshold,
)
from smoothsens_core.sensitivity.threshold import smooth_sensitivity_threshold, soft_threshold


@pytest.mark.parametrize("kind, Lam", [("exp", math.inf), ("linear", 0.8)])
def test_linear_threshold_equals_2d_brute_force(kind, Lam):
    beta0, beta, tau = 0.3, np.array([0.6, -1.2]), 0.5
    g = growth_exp(0.9) if kind == "exp" else growth_linear(0.9)
    f = lambda p: soft_threshold(beta0 + np.asarray(p).reshape(-1, 2) @ beta, 0.0, tau).reshape(np.shape(p)[:-1])  # noqa: E731
    x = np.array([[1.1, -0.4]])
    ref = brute_smooth_sensitivity(f, x, g, Lam, d=2, radius=3.0, n_grid=21, n_radii=20).value[0]
    got = smooth_sensitivity_linear_threshold(x, beta0, beta, tau, g, Lam)[0]
    assert got == pytest.approx(ref, rel=1e-9)


def test_linear_form_scaling_identity():
    # B*_f(x) = ||beta|| B*_{f0}(u; gamma/||beta||, Lambda ||beta||): with beta = s e_1 the query is
    # f_tau(s x_1), i.e. a threshold of width tau/s at 0 in x_1, whose B* is known in closed form.
    s, tau, gamma = 2.5, 0.8, 0.6
    x = np.c_[np.linspace(-3, 3, 61), np.zeros(61)]
    got = smooth_sensitivity_linear_threshold(x, 0.0, [s, 0.0], tau, growth_exp(gamma))
    ref = smooth_sensitivity_threshold(x[:, 0], 0.0, tau / s, growth_exp(gamma))
    np.testing.assert_allclose(got, ref, rtol=1e-13)
    assert reduce_growth(growth_linear(3.0), [3.0, 4.0]).gamma == pytest.approx(0.6)
    v = sensitivity_linear_threshold(x, 0.0, [s, 0.0], tau, growth_exp(gamma))
    assert np.all(v.B >= v.L * (1 - 1e-14)) and np.all(v.L <= s / tau * (1 + 1e-14))


def test_linear_form_with_custom_1d_closed_form():
    calls = {}

    def b1(u, g1, lam):
        calls["gamma"], calls["Lambda"] = g1.gamma, lam
        return np.ones_like(u)

    out = smooth_sensitivity_linear_form([[1.0, 2.0]], 0.0, [3.0, 4.0], growth_exp(1.0), b1, Lambda=2.0)
    assert out[0] == pytest.approx(5.0) and calls == {"gamma": pytest.approx(0.2), "Lambda": pytest.approx(10.0)}
    assert linear_score([[1.0, 2.0]], 0.5, [3.0, 4.0])[0] == pytest.approx(11.5)


def test_linear_form_with_f0_uses_1d_brute_force_reference():
    # f0 = tanh: the reduced 1-D brute force equals the 2-D brute force of f0(beta0 + <beta, x>).
    beta0, beta, g = 0.2, np.array([1.0, 0.5]), growth_exp(0.7)
    x = np.array([[0.3, -0.8]])
    got = smooth_sensitivity_linear_form(x, beta0, beta, g, f0=np.tanh)[0]
    f2 = lambda p: np.tanh(beta0 + np.asarray(p).reshape(-1, 2) @ beta).reshape(np.shape(p)[:-1])  # noqa: E731
    ref = brute_smooth_sensitivity(f2, x, g, d=2, radius=3.0, n_grid=21, n_radii=20).value[0]
    assert got == pytest.approx(ref, rel=1e-7) and got >= ref * (1 - 1e-9)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: linear_score([[1.0, 2.0]], 0.0, [0.0, 0.0]), "beta must be a non-zero vector"),
        (lambda: linear_score([[1.0, 2.0]], np.nan, [1.0, 0.0]), "beta0 must be a finite"),
        (lambda: linear_score([[1.0, 2.0, 3.0]], 0.0, [1.0, 0.0]), r"points must have shape \(n, 2\)"),
        (lambda: linear_score([[1.0, np.inf]], 0.0, [1.0, 0.0]), "points must contain only finite"),
        (lambda: smooth_sensitivity_linear_threshold([[1.0, 2.0]], 0.0, [1.0, 0.0], 0.0, growth_exp(1.0)), "tau must be in"),
        (lambda: smooth_sensitivity_linear_threshold([[1.0, 2.0]], 0.0, [1.0, 0.0], 1.0, growth_exp(1.0), -1.0),
         "Lambda must be in"),
        (lambda: smooth_sensitivity_linear_form([[1.0, 2.0]], 0.0, [1.0, 0.0], growth_exp(1.0)), "give bstar_1d"),
    ],
)
def test_linear_form_rejects_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
