"""Brute-force reference of 004 Defs. 7 and 9 (smoothsens_core.sensitivity.brute).

References: closed forms derived by hand from the definitions (stated in each test), evaluated in
double precision; the brute force re-evaluates its maximiser in mpmath at 50 digits.
"""

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity.brute import brute_lipschitz, brute_smooth_sensitivity, search_window
from smoothsens_core.sensitivity.kde import smooth_sensitivity_kde
from smoothsens_core.sensitivity.two_way import smooth_sensitivity_two_way_threshold, soft_two_way_threshold

# mpmath queries typed from the paper (004 Sec. 4.1.2 soft threshold; Sec. 4.2 two-way threshold:
# clip((R1 + tau - dist(p, Q0))/tau, 0, 1), R1 = tau/sqrt2, Q0 the quadrant below c_i = T_i + tau/2 + R1)
from verify.reference.queries import threshold_query_mp, two_way_query_mp

T, TAU = 1.0, 0.5


def soft_threshold(P):
    return np.clip((P[:, 0] - T) / TAU + 0.5, 0.0, 1.0)


# the soft threshold of 004 Sec. 4.1.2 in mpmath: clip((x - T)/tau + 1/2, 0, 1) (verify.reference.queries)
soft_threshold_mp = threshold_query_mp(T, TAU)


def test_brute_smooth_sensitivity_matches_lemma_4_1_threshold():
    # 004 Lemma 4.1 (g_E, Lambda = inf): B*(x) = max(1/(|x-T| + tau/2), e^{-gamma(|x-T| - tau/2)}/tau)
    # outside the band, 1/tau inside it.
    gamma = 0.7
    xs = np.array([-1.3, 0.9, 2.2])
    res = brute_smooth_sensitivity(
        soft_threshold, xs, growth_exp(gamma), math.inf,
        extra_points=[[T - TAU / 2], [T + TAU / 2]], f_mp=soft_threshold_mp, mp=mpmath,
    )
    a = np.abs(xs - T)
    ref = np.where(a <= TAU / 2, 1 / TAU, np.maximum(1 / (a + TAU / 2), np.exp(-gamma * (a - TAU / 2)) / TAU))
    np.testing.assert_allclose(res.value, ref, rtol=1e-9)


def test_brute_lipschitz_square_finite_lambda():
    # f = x^2: the chord slope |w + x| is maximal at w = x + sign(x) Lambda: L(x) = 2|x| + Lambda.
    Lam = 0.3
    xs = np.array([-1.1, 0.4, 2.0])
    res = brute_lipschitz(lambda P: P[:, 0] ** 2, xs, Lam, f_mp=lambda x: x**2, mp=mpmath)
    np.testing.assert_allclose(res.value, 2 * np.abs(xs) + Lam, rtol=1e-12)


def test_brute_smooth_sensitivity_square_sphere_maximiser():
    # f = x^2, Lambda = 0.1, g_E(gamma = 1), x = 0: B*(0) = max_z (2|z| + 0.1) e^{-|z|},
    # maximal where 2 = 2|z| + 0.1, i.e. |z| = 0.95, value 2 e^{-0.95} (by hand from Def. 9).
    res = brute_smooth_sensitivity(lambda P: P[:, 0] ** 2, [0.0], growth_exp(1.0), 0.1,
                                   f_mp=lambda x: x**2, mp=mpmath, radius=5.0)
    assert res.value[0] == pytest.approx(2 * math.exp(-0.95), rel=1e-9)
    assert abs(abs(res.z[0, 0]) - 0.95) < 1e-4


def test_brute_smooth_sensitivity_linear_growth_2d_linear_function():
    # f(x) = 3 x_1 - 4 x_2 is 5-Lipschitz with constant slope: L = 5 everywhere, B* = 5 (z = x).
    def f(P):
        return 3 * P[:, 0] - 4 * P[:, 1]

    res = brute_smooth_sensitivity(f, [[0.2, -0.3]], growth_linear(0.5), 1.0, radius=2.0,
                                   f_mp=lambda a, b: 3 * a - 4 * b, mp=mpmath)
    assert res.value[0] == pytest.approx(5.0, rel=1e-9)


@pytest.mark.parametrize(
    "points, Lambda, match",
    [
        ([np.nan], math.inf, "points must contain only finite numbers"),
        ([[0.0, np.inf]], math.inf, "points must contain only finite numbers"),
        ([0.0], 0.0, r"Lambda must be in \(0, inf\)"),
        ([0.0], -1.0, r"Lambda must be in \(0, inf\)"),
        ([[0.0, 1.0, 2.0]], math.inf, "supports d in"),
        (np.zeros((2, 2, 2)), math.inf, "points must be a 2-D array"),
    ],
)
def test_brute_rejects_bad_input(points, Lambda, match):
    with pytest.raises(ValueError, match=match):
        brute_smooth_sensitivity(lambda P: P[:, 0], points, growth_exp(1.0), Lambda)


def test_brute_rejects_bad_domain_and_growth():
    with pytest.raises(ValueError, match="domain must satisfy lo < hi"):
        brute_lipschitz(lambda P: P[:, 0], [0.0], 1.0, domain=(1.0, 0.0))
    with pytest.raises(TypeError, match="growth must be"):
        brute_smooth_sensitivity(lambda P: P[:, 0], [0.0], 0.5, 1.0)
    with pytest.raises(ValueError, match="f must map an"):
        brute_lipschitz(lambda P: np.zeros(3), [0.0, 1.0], 1.0)


def test_search_window_covers_points_and_kinks():
    lo, hi = search_window(np.array([[0.0], [5.0]]), extra_points=[[-2.0]], radius=1.0)
    np.testing.assert_array_equal(lo[:, 0], [-3.0, -3.0])
    np.testing.assert_array_equal(hi[:, 0], [1.0, 6.0])


def test_brute_two_way_threshold_agrees_with_closed_form():
    # 004 Lemma 4.3 (two-way f_tau, g_E, Lambda = inf) as implemented in sensitivity.two_way, against
    # the definition by search, maximiser re-evaluated in mpmath (50 digits): a feasible value, hence
    # a lower bound, and equal to the closed form to 1e-9 (the maximiser is the limit w -> z on the
    # curved edge of the band nearest to x, resolved by the polar polish of brute.py).
    T1, T2, tau = 1.0, 1.2, 0.4
    P = np.array([[0.3, 0.5], [1.5, 1.9]])
    res = brute_smooth_sensitivity(lambda Q: soft_two_way_threshold(Q, T1, T2, tau), P, growth_exp(1.0),
                                   math.inf, radius=2.0, f_mp=two_way_query_mp(T1, T2, tau), mp=mpmath)
    closed = smooth_sensitivity_two_way_threshold(P, T1, T2, tau, growth_exp(1.0), math.inf)
    assert np.all(res.value <= closed * (1 + 1e-12))
    np.testing.assert_allclose(res.value, closed, rtol=1e-9)


@pytest.mark.parametrize("kind, Lam", [("exp", math.inf), ("linear", 0.5)])
def test_brute_two_way_threshold_equals_closed_form_in_each_region(kind, Lam):
    # Regions of 004 Sec. 4.2: (1.45, 1.65) in S_{1,alpha} (maximiser on the inner arc, a curved
    # edge along which Q varies only to second order), (-1, 0) in S_{0,alpha} far from the band,
    # (3, 1.3) in S_{0,2}; g_L with finite Lambda exercises the chords of length Lambda.  Closed form:
    # the ramp-profile derivation of _ramp/two_way (004 Lemma 4.3 for g_E, Lambda = inf).
    T1, T2, tau = 1.0, 1.2, 0.4
    g = growth_exp(1.0) if kind == "exp" else growth_linear(1.0)
    P = np.array([[1.45, 1.65], [-1.0, 0.0], [3.0, 1.3]])
    res = brute_smooth_sensitivity(lambda Q: soft_two_way_threshold(Q, T1, T2, tau), P, g, Lam, radius=2.0,
                                   f_mp=two_way_query_mp(T1, T2, tau), mp=mpmath)
    closed = smooth_sensitivity_two_way_threshold(P, T1, T2, tau, g, Lam)
    assert np.all(res.value <= closed * (1 + 1e-12))
    np.testing.assert_allclose(res.value, closed, rtol=1e-9)


@pytest.mark.parametrize("c", [2.2, 7.0, 50.0])
def test_brute_kde_small_gamma_matches_closed_form(c):
    # Gaussian kernel on R (t = 0, h = 1), gamma h = 1e-3: the maximiser is z at radius ~1 + 2 gamma h
    # with a chord of length ~3e-3 that beats the tangent (w -> z) by only ~1e-6 relative; the
    # nested polish of brute.py must tell the two apart.  Reference: 004 Lemma 4.6 (corrected) in
    # sensitivity.kde, itself checked against an independent mpmath computation (test_sensitivity_kde).
    g = growth_exp(1e-3)
    res = brute_smooth_sensitivity(lambda P: np.exp(-0.5 * P[:, 0] ** 2), [c], g, extra_points=[[0.0]],
                                   radius=max(8.0, c + 2.0), f_mp=lambda u: mpmath.exp(-u * u / 2), mp=mpmath)
    closed = smooth_sensitivity_kde([c], [0.0], 1.0, g)
    assert res.value[0] <= closed[0] * (1 + 1e-12)
    np.testing.assert_allclose(res.value, closed, rtol=1e-9)
    assert abs(abs(res.z[0, 0]) - 1.002) < 1e-3  # the chord maximiser, not the tangent one at z = 1


def test_brute_float_value_is_a_lower_bound_without_mpmath():
    # Without f_mp the value is the float objective less its rounding allowance: never above the
    # closed form (004 Lemma 4.1), even where the maximiser is a chord of any length in the band.
    res = brute_smooth_sensitivity(soft_threshold, [2.2, -1.3], growth_exp(0.7), math.inf,
                                   extra_points=[[T - TAU / 2], [T + TAU / 2]])
    a = np.abs(np.array([2.2, -1.3]) - T)
    ref = np.maximum(1 / (a + TAU / 2), np.exp(-0.7 * (a - TAU / 2)) / TAU)
    assert np.all(res.value <= ref * (1 + 1e-15))
    np.testing.assert_allclose(res.value, ref, rtol=1e-9)
