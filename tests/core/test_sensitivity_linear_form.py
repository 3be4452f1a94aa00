"""Linear forms f0(beta0 + <beta, x>) (004 Lemma 4.8): the 1-D reduction against a 2-D brute force
of 004 Def. 9 (smoothsens_core.sensitivity.brute), the scaling identities, and bad input."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity.brute import brute_smooth_sensitivity
from smoothsens_core.sensitivity.linear_form import (
    linear_score,
    lipschitz_linear_form,
    reduce_growth,
    sensitivity_linear_threshold,
    smooth_sensitivity_linear_form,
    smooth_sensitivity_linear_threshold,
)
from smoothsens_core.sensitivity.threshold import lipschitz_threshold, smooth_sensitivity_threshold, soft_threshold


@pytest.mark.parametrize("kind, Lam", [("exp", math.inf), ("linear", 0.8)])
def test_linear_threshold_equals_2d_brute_force(kind, Lam):
    # The half-space soft threshold f_tau(beta0 + <beta, x>) (004 Sec. 4.1.2 on a linear score): its
    # kink lines are diagonal, the maximisers sit on them (z on the near edge of the band with the
    # limit w -> z, or a chord to the far edge); brute force re-evaluated in mpmath (50 digits).
    beta0, beta, tau = 0.3, np.array([0.6, -1.2]), 0.5
    g = growth_exp(0.9) if kind == "exp" else growth_linear(0.9)
    f = lambda p: soft_threshold(beta0 + np.asarray(p).reshape(-1, 2) @ beta, 0.0, tau).reshape(np.shape(p)[:-1])  # noqa: E731

    def f_mp(a, b):
        u = beta0 + mpmath.mpf(beta[0]) * a + mpmath.mpf(beta[1]) * b
        return min(max(u / tau + mpmath.mpf(1) / 2, 0), 1)

    x = np.array([[1.1, -0.4], [0.0, 0.0], [-1.0, -1.0]])
    ref = brute_smooth_sensitivity(f, x, g, Lam, d=2, radius=3.0, n_grid=21, n_radii=20, f_mp=f_mp, mp=mpmath).value
    got = smooth_sensitivity_linear_threshold(x, beta0, beta, tau, g, Lam)
    assert np.all(ref <= got * (1 + 1e-12))
    np.testing.assert_allclose(got, ref, rtol=1e-9)


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


@pytest.mark.parametrize("with_mp", [True, False])
def test_linear_form_with_f0_uses_1d_brute_force_reference(with_mp):
    # f0 = tanh: the reduced 1-D brute force equals the 2-D brute force of f0(beta0 + <beta, x>)
    # (004 Lemma 4.8), both maximisers re-evaluated in mpmath (with_mp) or in float.
    beta0, beta, g = 0.2, np.array([1.0, 0.5]), growth_exp(0.7)
    x = np.array([[0.3, -0.8]])
    kw = dict(f0_mp=mpmath.tanh, mp=mpmath) if with_mp else {}
    got = smooth_sensitivity_linear_form(x, beta0, beta, g, f0=np.tanh, **kw)[0]
    f2 = lambda p: np.tanh(beta0 + np.asarray(p).reshape(-1, 2) @ beta).reshape(np.shape(p)[:-1])  # noqa: E731
    kw2 = dict(f_mp=lambda a, b: mpmath.tanh(beta0 + beta[0] * a + beta[1] * b), mp=mpmath) if with_mp else {}
    ref = brute_smooth_sensitivity(f2, x, g, d=2, radius=3.0, n_grid=21, n_radii=20, **kw2).value[0]
    assert got == pytest.approx(ref, rel=1e-9)


# ------------------------------------------------------------------------------------------
# 004 Def. 8 (smooth upper bound) for the linear-form B* of 004 Lemma 4.8


@settings(max_examples=60)
@given(
    d=st.integers(1, 4),
    seed=st.integers(0, 2**16),
    beta0=st.floats(-3, 3),
    tau=st.floats(0.05, 5),
    gamma=st.floats(1e-3, 20),
    kind=st.sampled_from(["exp", "linear"]),
    Lam=st.sampled_from([math.inf, 0.05, 0.7, 3.0]),
    spread=st.floats(0, 10),
    step=st.floats(0, 1),
)
def test_linear_form_bstar_is_smooth_upper_bound(d, seed, beta0, tau, gamma, kind, Lam, spread, step):
    # (1) B*(x) >= L_{f,Lambda}(x) and (2) B*(x) <= g(x, x') B*(x') (004 Def. 8), for the half-space
    # threshold f_tau(beta0 + <beta, x>) with random beta in R^d, on random pairs x, x' at distance
    # <= Lambda (and <= 5 for Lambda = inf).  B* and L both come from the 1-D reduction of Lemma 4.8
    # (B* of Lemma 4.1 and its g_L / finite-Lambda extension; L of 004 Def. 7 by the ramp profile).
    rng = np.random.default_rng(seed)
    beta = rng.normal(size=d) * rng.uniform(0.1, 3.0)
    g = growth_exp(gamma) if kind == "exp" else growth_linear(gamma)
    x = rng.normal(size=(8, d)) * spread
    u = rng.normal(size=(8, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    x2 = x + u * step * (Lam if math.isfinite(Lam) else 5.0)
    B = smooth_sensitivity_linear_threshold(np.vstack([x, x2]), beta0, beta, tau, g, Lam)
    L = lipschitz_linear_form(np.vstack([x, x2]), beta0, beta, lambda v, lam: lipschitz_threshold(v, 0.0, tau, lam), Lam)
    assert np.all(np.isfinite(B)) and np.all(B > 0)
    assert np.all(B >= L * (1 - 1e-12))
    gxx = g.g0(np.linalg.norm(x - x2, axis=1))
    assert np.all(B[:8] <= gxx * B[8:] * (1 + 1e-12))
    assert np.all(B[8:] <= gxx * B[:8] * (1 + 1e-12))


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
