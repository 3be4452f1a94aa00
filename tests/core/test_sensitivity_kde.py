"""Gaussian-KDE smooth sensitivity (004 Sec. 4.3, Lemmas 4.5-4.7) against a brute force of the
definitions on R^1 (004 Defs. 7, 9: sup over w of the chord slope, sup over z of L(z)/g0), the
smooth-upper-bound conditions (004 Def. 8), edge cases and bad input.

The brute force works on the real line directly (no radial reduction, no chord-partner equation):
dense grids refined by bounded Brent search, so it is independent of the closed form.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from scipy.special import lambertw

from smoothsens_core._generated.stationary_004 import kde_psi
from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import smooth_sensitivity_threshold, smooth_sensitivity_two_way_threshold
from smoothsens_core.sensitivity.kde import (
    KDE_A_W,
    _chi,
    _d_min,
    _ell,
    _fixed_candidates,
    _log_ell_upper,
    _log_slope,
    _partner,
    _psi,
    _r_minus,
    _solve_full,
    gaussian_kernel,
    kde_chord_partner,
    kde_chord_slope,
    lipschitz_kde,
    sensitivity_kde,
    smooth_sensitivity_kde,
)


def _kern(u, t, h):
    return np.exp(-0.5 * ((u - t) / h) ** 2)


def _brute_L(z, t, h):
    """sup_w |kappa(w) - kappa(z)|/|w - z| on R (grid over +-12h, Brent refinement) and |kappa'(z)|."""
    w = z + np.linspace(-12 * h, 12 * h, 2401)
    w = w[np.abs(w - z) > 1e-9 * h]
    q = np.abs(_kern(w, t, h) - _kern(z, t, h)) / np.abs(w - z)
    i = int(np.argmax(q))
    best = float(q[i])
    lo, hi = w[max(i - 1, 0)], w[min(i + 1, len(w) - 1)]
    if lo < z < hi:  # the best chord is the tangent limit
        lo, hi = (z, hi) if q[min(i + 1, len(w) - 1)] > q[max(i - 1, 0)] else (lo, z)
    fun = lambda v: -abs(_kern(v, t, h) - _kern(z, t, h)) / abs(v - z) if v != z else 0.0  # noqa: E731
    res = minimize_scalar(fun, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13 * h})
    tangent = abs(z - t) / h**2 * _kern(z, t, h)
    return max(best, -float(res.fun), tangent)


def _brute_B(x, t, h, decay):
    """sup_z L(z) decay(|z - x|) (decay = 1/g, g the growth function) on the line: a 601-point grid
    around x and t, then a bounded refinement around the two best grid points."""
    zs = np.unique(np.concatenate([np.linspace(min(x, t) - 6 * h, max(x, t) + 6 * h, 601), [x, t]]))
    obj = np.array([_brute_L(z, t, h) for z in zs]) * decay(np.abs(zs - x))
    best = float(obj.max())
    for i in np.argsort(obj)[-2:]:
        lo, hi = zs[max(i - 1, 0)], zs[min(i + 1, len(zs) - 1)]
        res = minimize_scalar(lambda z: -_brute_L(z, t, h) * decay(abs(z - x)),
                              bounds=(lo, hi), method="bounded", options={"xatol": 1e-12 * h})
        best = max(best, -float(res.fun))
    return best


@settings(max_examples=8)
@given(t=st.floats(-2, 2), h=st.floats(0.2, 3), gh=st.floats(0.01, 3), c=st.floats(0, 5))
def test_kde_closed_form_equals_brute_force_on_the_line(t, h, gh, c):
    gamma = gh / h
    x = t + c * h
    B = smooth_sensitivity_kde([x], [t], h, growth_exp(gamma))[0]
    assert B == pytest.approx(_brute_B(x, t, h, lambda d: np.exp(-gamma * d)), rel=1e-9)
    L = lipschitz_kde([x], [t], h)[0]
    assert L == pytest.approx(_brute_L(x, t, h), rel=1e-9)


@settings(max_examples=6)
@given(t=st.floats(-2, 2), h=st.floats(0.2, 3), gh=st.floats(0.01, 3), c=st.floats(0, 5))
def test_kde_linear_growth_equals_brute_force_on_the_line(t, h, gh, c):
    # g_L extension (kde.py: roots of Q(b) = 1/(gamma h) - c and P(b) = 1/(gamma h) + c)
    x = t + c * h
    B = smooth_sensitivity_kde([x], [t], h, growth_linear(gh / h))[0]
    assert B == pytest.approx(_brute_B(x, t, h, lambda d: 1 / (1 + gh / h * d)), rel=1e-9)


def test_kde_chord_slope_at_t_is_lambert_w_value():
    # 004 Lemma 4.7 S_2: l_w = sqrt(-2 W_{-1}(-e^{-1/2}/2) - 1); scipy lambertw reference.
    aw = math.sqrt(-2 * lambertw(-math.exp(-0.5) / 2, -1).real - 1)
    assert KDE_A_W == pytest.approx(aw, rel=1e-15)
    assert kde_chord_slope([0.0])[0] == pytest.approx((1 - math.exp(-aw**2 / 2)) / aw, rel=1e-14)
    # Claim 4.4: the maximal slope e^{-1/2} is attained at radius 1 only.
    b = np.linspace(0, 20, 4001)
    ell = kde_chord_slope(b)
    assert ell.max() == pytest.approx(math.exp(-0.5), rel=1e-15) and np.all(ell <= math.exp(-0.5) * (1 + 1e-15))


@settings(max_examples=30)
@given(b=st.floats(0, 60))
def test_kde_chord_partner_solves_phi0(b):
    a = kde_chord_partner([b])[0]
    if abs(b - 1) > 1e-3:
        # phi_0(a, b) = 0 (004 A.4 (2)) means the chord b -> a is tangent at a: slope = |k'(a)|
        chord = abs(math.exp(-a * a / 2) - math.exp(-b * b / 2)) / abs(a - b)
        assert chord == pytest.approx(a * math.exp(-a * a / 2), rel=1e-8)
        assert (a > 1) == (b < 1)


@settings(max_examples=40)
@given(d=st.integers(1, 5), h=st.floats(1e-3, 1e3), gh=st.floats(1e-6, 1e3),
       seed=st.integers(0, 2**16), scale=st.floats(0, 50))
def test_kde_bstar_is_smooth_upper_bound_any_dimension(d, h, gh, seed, scale):
    # 004 Def. 8 for B* of Lemmas 4.6-4.7 over gamma h in [1e-6, 1e3] and c = |x - t|/h in [0, 50].
    rng = np.random.default_rng(seed)
    t = rng.normal(size=d)
    u = rng.normal(size=(2, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    x = t + h * scale * u * rng.uniform(0, 1, size=(2, 1))
    g = growth_exp(gh / h) if seed % 3 else growth_linear(gh / h)
    v = sensitivity_kde(x, t, h, g)
    assert np.all(np.isfinite(v.B)) and np.all(v.B > 0) and np.all(np.isfinite(v.L))
    assert np.all(v.B >= v.L * (1 - 1e-12))
    assert v.B[0] <= float(g.between(x[0], x[1])) * v.B[1] * (1 + 1e-9)
    assert np.all(v.B <= math.exp(-0.5) / h * (1 + 1e-12))  # Claim 4.4 bounds every L, hence B*


def test_kde_edge_cases_no_nan():
    t = np.zeros(2)
    c = np.concatenate([[0.0, 1e-300, 1e-12, 1e-6], np.linspace(0.5, 50, 200), [1.0, 1 - 1e-4, 1 + 1e-4]])
    x = np.c_[c, np.zeros_like(c)]
    for gh in (1e-6, 1e-3, 0.3, 1.0, 10.0, 1e3):
        for g in (growth_exp(gh), growth_linear(gh)):
            B = smooth_sensitivity_kde(x, t, 1.0, g)
            assert np.all(np.isfinite(B)) and np.all(B > 0)
            # x = t and c -> 0 agree (continuity of B*, Lemma 4.7 vs 4.6)
            assert B[1] == pytest.approx(B[0], rel=1e-12) and B[2] == pytest.approx(B[0], rel=1e-9)
    assert np.all(np.isfinite(gaussian_kernel(x, t, 1.0)))


def test_kde_bstar_at_t_matches_lemma_4_7_structure():
    # x = t: B*(t) = max(ell(0), max_b ell(b) e^{-g b})/h; for large g only the S_2 value survives.
    h = 0.7
    assert smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], h, growth_exp(10.0 / h))[0] == pytest.approx(
        kde_chord_slope([0.0])[0] / h, rel=1e-14)
    b = np.linspace(0, 3, 30001)
    for gh in (0.05, 0.3, 0.6):
        ref = np.max(kde_chord_slope(b) * np.exp(-gh * b)) / h  # grid over the radial reduction
        got = smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], h, growth_exp(gh / h))[0]
        assert got >= ref * (1 - 1e-12) and got == pytest.approx(ref, rel=1e-7)


def test_kde_chunked_equals_unchunked():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5000, 3)) * 2
    g = growth_exp(0.4)
    np.testing.assert_array_equal(smooth_sensitivity_kde(x, [0, 0, 0], 0.8, g, chunk=333),
                                  smooth_sensitivity_kde(x, [0, 0, 0], 0.8, g))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], 0.0, growth_exp(1.0)), "h must be in"),
        (lambda: smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], -1.0, growth_exp(1.0)), "h must be in"),
        (lambda: smooth_sensitivity_kde([[0.0, np.nan]], [0.0, 0.0], 1.0, growth_exp(1.0)),
         "points must contain only finite"),
        (lambda: smooth_sensitivity_kde([[0.0, np.inf]], [0.0, 0.0], 1.0, growth_exp(1.0)),
         "points must contain only finite"),
        (lambda: smooth_sensitivity_kde([[0.0, 0.0, 1.0]], [0.0, 0.0], 1.0, growth_exp(1.0)),
         r"points must have shape \(n, 2\)"),
        (lambda: smooth_sensitivity_kde([[0.0, 0.0]], [0.0, np.nan], 1.0, growth_exp(1.0)),
         "t must contain only finite"),
        (lambda: smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], 1.0, growth_exp(1.0), 0.0), "Lambda must be in"),
        (lambda: smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], 1.0, growth_exp(1.0), 2.0),
         "derived for Lambda = inf"),
        (lambda: smooth_sensitivity_kde([[0.0, 0.0]], [0.0, 0.0], 1.0, growth_linear(1.0), 0.5),
         "derived for Lambda = inf"),
        (lambda: lipschitz_kde([[0.0, 0.0]], [0.0, 0.0], 1.0, 2.0), "Lambda must be inf"),
        (lambda: kde_chord_partner([-1.0]), r"b must be a radius"),
    ],
)
def test_kde_rejects_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        # t of shape (2, 2) was silently flattened to a point of R^4
        (lambda: smooth_sensitivity_kde(np.zeros((3, 4)), np.zeros((2, 2)), 1.0, growth_exp(1.0)),
         r"t must be a point of R\^d, shape \(d,\).*got t of shape \(2, 2\)"),
        (lambda: lipschitz_kde(np.zeros((3, 4)), np.zeros((2, 2)), 1.0), r"t must be a point of R\^d"),
        (lambda: gaussian_kernel(np.zeros((3, 4)), np.zeros((1, 4)), 1.0), r"got t of shape \(1, 4\)"),
        (lambda: smooth_sensitivity_kde(np.zeros((3, 2)), [], 1.0, growth_exp(1.0)), "t must be a point of R\\^d with d >= 1"),
    ],
)
def test_kde_rejects_matrix_t(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: smooth_sensitivity_kde([["a", "b"]], [0.0, 0.0], 1.0, growth_exp(1.0)),
         "points must be an array of real numbers"),
        (lambda: smooth_sensitivity_kde(["1.0", "2.0"], [0.0], 1.0, growth_exp(1.0)),
         "points must be an array of real numbers"),
        (lambda: lipschitz_kde([[0.0, None]], [0.0, 0.0], 1.0), "points must be an array of real numbers"),
        (lambda: gaussian_kernel([[0.0, 0.0]], ["a", "b"], 1.0), "t must be an array of real numbers"),
        (lambda: sensitivity_kde([[0.0, 1.0], [2.0]], [0.0, 0.0], 1.0, growth_exp(1.0)),
         "points must be an array of real numbers"),
    ],
)
def test_kde_rejects_non_numeric_input_naming_the_parameter(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_closed_forms_accept_zero_points():
    assert smooth_sensitivity_kde(np.zeros((0, 2)), [0.0, 0.0], 1.0, growth_exp(1.0)).shape == (0,)
    assert smooth_sensitivity_kde([], [0.0], 1.0, growth_exp(1.0)).shape == (0,)
    assert gaussian_kernel(np.zeros((0, 3)), [0.0, 0.0, 0.0], 1.0).shape == (0,)
    assert smooth_sensitivity_threshold([], 0.0, 1.0, growth_exp(1.0)).shape == (0,)
    assert smooth_sensitivity_two_way_threshold(np.zeros((0, 2)), 0.0, 0.0, 1.0, growth_exp(1.0)).shape == (0,)


def test_kde_scalar_t_is_a_point_of_the_line():
    # t given as a scalar (d = 1) is still accepted: same values as t = [t]
    np.testing.assert_array_equal(smooth_sensitivity_kde([0.3, 1.9], 0.5, 0.7, growth_exp(1.0)),
                                  smooth_sensitivity_kde([0.3, 1.9], [0.5], 0.7, growth_exp(1.0)))


def test_kde_log_slope_shape_used_by_the_candidate_set():
    # The completeness of {c, b1, b2} rests on the shape of D = d ln ell/db (kde.py docstring):
    # decreasing from 1/a_W to 0 on (0, 1), negative and unimodal (one minimum b_m) on (1, inf).
    b = np.linspace(1e-6, 1 - 1e-6, 4001)
    D = _log_slope(b)
    assert np.all(np.diff(D) < 0) and D[0] == pytest.approx(1 / KDE_A_W, rel=1e-5) and D[-1] > 0
    b = np.linspace(1 + 1e-6, 60, 20001)
    D = _log_slope(b)
    i = int(np.argmin(D))
    assert np.all(D < 0) and np.all(np.diff(D[: i + 1]) < 0) and np.all(np.diff(D[i:]) > 0)
    b_m, d_min = _d_min()
    assert b[i] == pytest.approx(b_m, abs=5e-3) and D[i] == pytest.approx(d_min, rel=1e-6)


# ---- masked psi, one-point path, radii beyond 1e154 ---------------------------------
def test_kde_masked_psi_is_the_generated_psi_bit_for_bit():
    rng = np.random.default_rng(17)
    b = rng.uniform(0, 8, 50000)
    a = np.concatenate([rng.uniform(0, 2, 25000), b[25000:] * (1 + rng.normal(0, 0.01, 25000))])
    assert np.array_equal(_psi(a, b), kde_psi(a, b), equal_nan=True)  # NaN: log1p(u), u < -1, both


@pytest.mark.parametrize("growth", [growth_exp(0.3), growth_linear(0.3)])
def test_kde_one_point_equals_the_bulk_bit_for_bit(growth):
    # every point's certified root depends on that point only, so one point per call reproduces
    # the bulk result exactly (d = 1 and d = 2)
    rng = np.random.default_rng(3)
    x1 = np.concatenate([rng.normal(0, 3, 300), [0.0, 1.0, 1.0005, 2.0, 9.0, 1e3]])
    bulk = smooth_sensitivity_kde(x1, 0.0, 1.0, growth)
    one = np.array([smooth_sensitivity_kde(float(v), 0.0, 1.0, growth)[0] for v in x1])
    assert np.array_equal(one, bulk)
    x2 = rng.normal(0, 2, (100, 2))
    bulk2 = smooth_sensitivity_kde(x2, (0.5, -0.5), 0.7, growth)
    one2 = np.array([smooth_sensitivity_kde(v, (0.5, -0.5), 0.7, growth)[0] for v in x2])
    assert np.array_equal(one2, bulk2)


def _mp_ell(c: float, dps: int = 80):
    """ell(c) from its definition sup_a |k(a) - k(c)|/|a - c| (k(u) = e^{-u^2/2}) at dps digits: the
    maximiser for c >= 2 is the root a in (0, r_-(c)] of 1 + a(a - c) = e^{(a^2 - c^2)/2} (004 A.4 (2))."""
    with mp.workdps(dps):
        c = mp.mpf(c)
        r = 2 / (c + mp.sqrt(c * c - 4))
        a = mp.findroot(lambda a: 1 + a * (a - c) - mp.exp((a * a - c * c) / 2), r)
        return (mp.exp(-a * a / 2) - mp.exp(-c * c / 2)) / (c - a)


@pytest.mark.parametrize("c", [1e12, 1e150, 2e154, 1e155, 1e200, 1e300, 1.7e308])
def test_kde_beyond_1e154_matches_mpmath(c):
    # g_E: h B* = max(ell(c), stationary candidates carrying e^{-gamma h (c - b)} = 0) = ell(c);
    # g_L: h B* = max(ell(c), e^{-1/2}/(1 + gamma h (c - 1))) (b = 1; b2 -> 1 agrees to O(1/c^2)).
    ell = _mp_ell(c)
    assert smooth_sensitivity_kde(c, 0.0, 1.0, growth_exp(0.1))[0] == pytest.approx(float(ell), rel=1e-14)
    with mp.workdps(80):
        ref_l = max(ell, mp.exp(-0.5) / (1 + mp.mpf("0.1") * (mp.mpf(c) - 1)))
    assert smooth_sensitivity_kde(c, 0.0, 1.0, growth_linear(0.1))[0] == pytest.approx(float(ref_l), rel=1e-14)
    if c < 1e308:  # d = 2: the squared norm overflows beyond 1.3e154, the scaled norm does not
        x = (c / math.sqrt(2.0), c / math.sqrt(2.0))
        assert smooth_sensitivity_kde(x, (0.0, 0.0), 1.0, growth_exp(0.1))[0] == pytest.approx(float(ell), rel=1e-13)


def test_kde_radius_overflowing_a_double_is_the_limit():
    # c = ||x - t||/h = 1e310 overflows; _far_bstar's limit: ln(h B*) = max(-ln c, -1/2 - gamma r + gamma h)
    # with r = 1e300, h = 1e-10, gamma = 1: -ln c wins, B* = 1/r.
    assert smooth_sensitivity_kde(1e300, 0.0, 1e-10, growth_exp(1.0))[0] == pytest.approx(1e-300, rel=1e-14)
    # r = 10, h = 1e-310 (c = 1e311): the b = 1 candidate e^{-1/2 - 10 gamma}/h wins for gamma = 0.1
    assert smooth_sensitivity_kde(10.0, 0.0, 1e-305, growth_exp(0.1))[0] == pytest.approx(
        math.exp(-0.5 - 1.0) / 1e-305, rel=1e-13)


@pytest.mark.parametrize("gh", [1e-21, 1e-15, 3e-13, 1e-12])
def test_kde_linear_growth_tiny_gamma_h_matches_mpmath(gh):
    # g_L with gamma h below 5e-13: the roots b1 of Q(b) = 1/(gamma h) - c and b2 of P(b) = 1/(gamma h) + c
    # lie within 2 gamma h of b = 1 (Q(1 - e) = 2/e - 13/8 + O(e), P(1 + e) = 2/e + 13/8 + O(e)); this used
    # to raise RootFindingError.  Reference (mpmath, 80 digits): h B* = max(ell(c), sup near b = 1), and
    # the sup near 1 exceeds the b = 1 value e^{-1/2}/(1 + gamma h |1 - c|) by O((gamma h)^2) relative
    # (ln ell(1 + e) = -1/2 - e^2/4 + O(e^3) against a slope gamma h), below 1e-20 here.
    cs = [0.0, 0.5, 0.999, 1.0, 1.0 + 1e-9, 3.0, 1e6, 1e12, 1e15, 1e20]
    got = smooth_sensitivity_kde(np.array(cs), 0.0, 1.0, growth_linear(gh))
    for c, b in zip(cs, got, strict=True):
        with mp.workdps(80):
            near1 = mp.exp(mp.mpf(-0.5)) / (1 + mp.mpf(gh) * abs(1 - mp.mpf(c)))
            ref = max(_mp_ell(c), near1) if c >= 2 else near1
        assert b == pytest.approx(float(ref), rel=1e-14, abs=0.0), c


@pytest.mark.parametrize("gh", [1e-6, 0.05, 0.3, 0.62, 1.5])
def test_kde_skipped_chord_slopes_do_not_change_the_result(gh):
    # smooth_sensitivity_kde (g_E) computes ln ell(c) only where its tabulated upper bound reaches the
    # best other candidate; the result must be the maximum over all candidates with ell(c) computed at
    # every point, bit for bit.
    rng = np.random.default_rng(11)
    c = np.concatenate([rng.uniform(0, 3, 20000), rng.exponential(10, 20000), [0.0, 1.0, 2.0, 8.0, 8.5, 1e6]])
    (b1, l1), (b2, l2) = _fixed_candidates(gh)
    logB = np.log(_ell(c, _partner(c)))
    assert np.all(_log_ell_upper(c) >= logB)  # the bound used to skip points is an upper bound
    if not math.isnan(b1):
        logB = np.maximum(logB, np.where(c < b1, l1 - gh * (b1 - c), -np.inf))
    if not math.isnan(b2):
        logB = np.maximum(logB, np.where(c > b2, l2 - gh * (c - b2), -np.inf))
    logB = np.maximum(logB, -0.5 - gh * np.abs(1.0 - c))
    assert np.array_equal(smooth_sensitivity_kde(c, 0.0, 1.0, growth_exp(gh)), np.exp(logB) / 1.0)


def test_kde_chord_partner_table_guess_is_certified_to_1e10():
    # the cubic-table guess plus the two-evaluation certificate agree with a 64-step bisection of
    # phi_0 on the a-priori brackets to within the certificate's relative width 1e-10
    rng = np.random.default_rng(5)
    b = np.concatenate([rng.uniform(0, 9, 20000), rng.uniform(0.99, 1.01, 2000), [0.5, 1.5, 2.0, 7.999, 8.0, 8.001]])
    b = b[np.abs(b - 1.0) >= 1e-3]
    a = kde_chord_partner(b)
    ref = np.empty_like(b)
    m = b < 2.0
    low = b[m] < 1.0
    ref[m] = _solve_full(_psi, np.where(low, 1.0, 0.0), np.where(low, KDE_A_W * (1 + 1e-12), 1.0), b[m])
    ref[~m] = _solve_full(_chi, np.zeros((~m).sum()), _r_minus(b[~m]) * (1 + 1e-9), b[~m])
    assert np.max(np.abs(a / ref - 1.0)) <= 1e-10
