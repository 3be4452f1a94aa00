"""Threshold-type closed forms (004 Lemma 4.1, App. C.3, Lemma 4.3) against brute force of the
definitions (004 Defs. 7 and 9), the smooth-upper-bound conditions (004 Def. 8) and bad input.

The brute force here is independent of the ramp-profile derivation: L_{f,Lambda}(z) is the max of
the chord slope |f(w) - f(z)|/|w - z| over a dense grid of w in the Lambda-ball plus the knots of f
(where a piecewise-linear chord slope attains its sup), and B*(x) is the max of L(z)/g0(|x - z|)
over a dense grid of z refined by bounded Brent search around the best grid points.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import (
    lipschitz_bounded_range,
    lipschitz_threshold,
    lipschitz_two_way_threshold,
    sensitivity_threshold,
    smooth_sensitivity_bounded_range,
    smooth_sensitivity_threshold,
    smooth_sensitivity_two_way_threshold,
    soft_bounded_range,
    soft_threshold,
    soft_two_way_threshold,
    two_way_regions,
)
from verify.claims.sets.sensitivity_004 import lemma_4_3_printed


def _brute_L(f, z, knots, Lam, span=60.0):
    """max over w in B(z, Lam) of |f(w) - f(z)|/|w - z| (dense grid + knots + ball ends)."""
    z = np.atleast_1d(np.asarray(z, float))
    R = span if math.isinf(Lam) else Lam
    grid = np.concatenate([np.linspace(-R, R, 1001), [-R, R]])
    w = z[:, None] + grid[None, :]
    kn = np.asarray(knots, float)[None, :] + 0.0 * z[:, None]
    kn = np.where(np.abs(kn - z[:, None]) <= R, kn, z[:, None] + R)
    w = np.concatenate([w, kn, z[:, None] + 1e-3, z[:, None] - 1e-3], axis=1)
    dz = w - z[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.abs(f(w) - f(z)[:, None]) / np.abs(dz)
    q[np.abs(dz) < 1e-6] = 0.0  # chords shorter than 1e-6 only add rounding error
    return q.max(axis=1)


def _brute_B(f, x, knots, Lam, g0, span=30.0):
    """sup_z L(z)/g0(|x - z|): grid of z, knots and knots +- Lambda, then bounded Brent refinement."""
    ext = list(knots) + ([] if math.isinf(Lam) else [k + s * Lam for k in knots for s in (-1, 1)])
    zs = np.unique(np.concatenate([np.linspace(x - span, x + span, 801), ext, [x]]))
    obj = _brute_L(f, zs, knots, Lam) / g0(np.abs(x - zs))
    best = float(obj.max())
    for i in np.argsort(obj)[-3:]:
        lo, hi = zs[max(i - 1, 0)], zs[min(i + 1, len(zs) - 1)]
        if hi > lo:
            res = minimize_scalar(lambda z: -float(_brute_L(f, z, knots, Lam)[0] / g0(abs(x - z))),
                                  bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
            best = max(best, -float(res.fun))
    return best


def _g0(kind, gamma):
    return (lambda r: np.exp(gamma * r)) if kind == "exp" else (lambda r: 1.0 + gamma * r)


def _growth(kind, gamma):
    return growth_exp(gamma) if kind == "exp" else growth_linear(gamma)


params = dict(
    T=st.floats(-5, 5),
    tau=st.floats(0.05, 3),
    gamma=st.floats(0.01, 5),
    kind=st.sampled_from(["exp", "linear"]),
    Lam=st.one_of(st.just(math.inf), st.floats(0.05, 6)),
    off=st.floats(-6, 6),
)


@settings(max_examples=12)
@given(**params)
def test_threshold_closed_form_equals_brute_force(T, tau, gamma, kind, Lam, off):
    f = lambda w: np.clip((w - T) / tau + 0.5, 0.0, 1.0)  # noqa: E731  004 Sec. 4.1.2
    x = T + off
    knots = [T - tau / 2, T + tau / 2]
    L = lipschitz_threshold([x], T, tau, Lam)[0]
    assert L == pytest.approx(_brute_L(f, x, knots, Lam)[0], rel=1e-9, abs=1e-300)
    B = smooth_sensitivity_threshold([x], T, tau, _growth(kind, gamma), Lam)[0]
    assert B == pytest.approx(_brute_B(f, x, knots, Lam, _g0(kind, gamma)), rel=1e-9)


@settings(max_examples=10)
@given(l=st.floats(-3, 3), width=st.floats(0.1, 4), shape=st.sampled_from(["tent", "trapezoid"]), **{
    k: v for k, v in params.items() if k != "T"})
@example(l=1.0, width=0.43983783040943314, shape="trapezoid", tau=1.0, gamma=1.0, kind="exp", Lam=math.inf,
         off=0.0)  # plateau of zero length (r - l = tau), x at its centre
def test_bounded_range_closed_form_equals_brute_force(l, width, shape, tau, gamma, kind, Lam, off):
    r = l + width
    if shape == "trapezoid":
        tau = min(tau, r - l)
    f = lambda w: soft_bounded_range(w.reshape(-1), l, r, tau, shape).reshape(w.shape)  # noqa: E731
    knots = [l - tau / 2, (l + r) / 2, r + tau / 2] if shape == "tent" else [
        l - tau / 2, l + tau / 2, r - tau / 2, r + tau / 2]
    x = (l + r) / 2 + off
    assert lipschitz_bounded_range([x], l, r, tau, Lam, shape)[0] == pytest.approx(
        _brute_L(f, x, knots, Lam)[0], rel=1e-9, abs=1e-300)
    B = smooth_sensitivity_bounded_range([x], l, r, tau, _growth(kind, gamma), Lam, shape)[0]
    assert B == pytest.approx(_brute_B(f, x, knots, Lam, _g0(kind, gamma)), rel=1e-9)


def test_bounded_range_tent_matches_printed_c3_formula():
    # 004 App. C.3 printed B* (g_E, Lambda = inf), typed from the paper, at points of all three cases.
    l, r, tau, gamma = -1.0, 2.0, 0.6, 0.7
    W, m = (r - l) / 2 + tau / 2, (l + r) / 2
    x = np.array([-5.0, -1.31, -1.3, 0.0, 0.5, 2.3, 2.31, 7.0])
    printed = np.where(
        x < l - tau / 2, np.maximum(1 / np.abs(m - x), np.exp(-gamma * np.abs(l - tau / 2 - x)) / W),
        np.where(x > r + tau / 2, np.maximum(1 / np.abs(m - x), np.exp(-gamma * np.abs(r + tau / 2 - x)) / W), 1 / W))
    got = smooth_sensitivity_bounded_range(x, l, r, tau, growth_exp(gamma))
    np.testing.assert_allclose(got, printed, rtol=1e-14)


def test_threshold_matches_printed_lemma_4_1():
    # 004 Lemma 4.1 as printed (statement, not the proof's last line), g_E, Lambda = inf.
    T, tau, gamma = 2.0, 0.5, 1.3
    x = np.linspace(-3, 7, 101)
    s = np.abs(x - T)
    printed = np.where(s > tau / 2, np.maximum(1 / (s + tau / 2), np.exp(-gamma * (s - tau / 2)) / tau), 1 / tau)
    np.testing.assert_allclose(smooth_sensitivity_threshold(x, T, tau, growth_exp(gamma)), printed, rtol=1e-14)


def test_two_way_matches_printed_lemma_4_3_in_every_region():
    rng = np.random.default_rng(7)
    T1, T2, tau, gamma = 1.0, 2.0, 0.8, 0.9
    z = rng.uniform([-3, -2], [5, 6], size=(20000, 2))
    printed, lab = lemma_4_3_printed(z, T1, T2, tau, gamma), two_way_regions(z, T1, T2, tau)
    assert set(lab) == {"0,1", "0,2", "0,alpha", "1,1", "1,2", "1,3", "1,alpha", "tau,1", "tau,2", "tau,alpha"}
    got = smooth_sensitivity_two_way_threshold(z, T1, T2, tau, growth_exp(gamma))
    np.testing.assert_allclose(got, printed, rtol=1e-13)
    # the printed piecewise f_tau of 004 Sec. 4.2 equals clip((R2 - dist(p, Q0))/tau, 0, 1)
    R1 = tau / math.sqrt(2); R2 = R1 + tau; c0 = (T1 + tau / 2 + R1, T2 + tau / 2 + R1)
    f = soft_two_way_threshold(z, T1, T2, tau)
    r = np.hypot(z[:, 0] - c0[0], z[:, 1] - c0[1])
    pf = np.select([np.char.startswith(lab, "1"), np.char.startswith(lab, "0"), lab == "tau,alpha",
                    lab == "tau,1", lab == "tau,2"],
                   [1.0, 0.0, (R2 - r) / tau, (z[:, 0] - (T1 - tau / 2)) / tau, (z[:, 1] - (T2 - tau / 2)) / tau])
    np.testing.assert_allclose(f, pf, rtol=1e-13, atol=1e-15)


def _brute_L_2d(f, z, Lam, rng):
    """max chord slope from z over a polar grid (720 directions x 600 radii) of the Lambda-ball."""
    R = 12.0 if math.isinf(Lam) else Lam
    ang, rad = np.meshgrid(np.linspace(0, 2 * np.pi, 720, endpoint=False), np.linspace(R / 600, R, 600))
    ang, rad = ang.ravel() + rng.uniform(0, 1e-3), rad.ravel()
    w = z + np.c_[rad * np.cos(ang), rad * np.sin(ang)]
    return float(np.max(np.abs(f(w) - f(z[None, :])) / rad))


@settings(max_examples=10)
@given(tau=st.floats(0.1, 2), Lam=st.one_of(st.just(math.inf), st.floats(0.2, 5)),
       p=st.tuples(st.floats(-3, 5), st.floats(-3, 5)))
def test_two_way_lipschitz_is_attained_and_not_exceeded(tau, Lam, p):
    # L(z) >= every sampled chord slope (upper bound) and the sampled max comes within 2% (attained).
    rng = np.random.default_rng(1)
    T1, T2 = 1.0, 1.5
    z = np.array(p)
    f = lambda w: soft_two_way_threshold(w, T1, T2, tau)  # noqa: E731
    L = lipschitz_two_way_threshold(z[None, :], T1, T2, tau, Lam)[0]
    brute = _brute_L_2d(f, z, Lam, rng)
    assert brute <= L * (1 + 1e-12)
    assert brute >= 0.98 * L


@settings(max_examples=30)
@given(T=st.floats(-3, 3), tau=st.floats(0.05, 3), gamma=st.floats(1e-3, 10),
       kind=st.sampled_from(["exp", "linear"]), Lam=st.one_of(st.just(math.inf), st.floats(0.05, 6)),
       x=st.floats(-20, 20), xp=st.floats(-20, 20))
def test_threshold_bstar_is_smooth_upper_bound(T, tau, gamma, kind, Lam, x, xp):
    # 004 Def. 8: B*(x) >= L(x) and B*(x) <= g(x, x') B*(x').
    g = _growth(kind, gamma)
    v = sensitivity_threshold(np.array([x, xp]), T, tau, g, Lam)
    assert v.B[0] >= v.L[0] * (1 - 1e-14)
    assert v.B[0] <= float(g.g0(abs(x - xp))) * v.B[1] * (1 + 1e-12)
    assert np.all(np.isfinite(v.B)) and np.all(v.B > 0) and np.all((v.f >= 0) & (v.f <= 1))


@settings(max_examples=30)
@given(l=st.floats(-3, 3), width=st.floats(0.1, 4), tau=st.floats(0.05, 3), gamma=st.floats(1e-3, 10),
       kind=st.sampled_from(["exp", "linear"]), shape=st.sampled_from(["tent", "trapezoid"]),
       Lam=st.one_of(st.just(math.inf), st.floats(0.05, 6)), x=st.floats(-20, 20), xp=st.floats(-20, 20))
def test_bounded_range_bstar_is_smooth_upper_bound(l, width, tau, gamma, kind, shape, Lam, x, xp):
    r = l + width
    if shape == "trapezoid":
        tau = min(tau, r - l)
    g = _growth(kind, gamma)
    B = smooth_sensitivity_bounded_range([x, xp], l, r, tau, g, Lam, shape)
    L = lipschitz_bounded_range([x, xp], l, r, tau, Lam, shape)
    assert B[0] >= L[0] * (1 - 1e-14)
    assert B[0] <= float(g.g0(abs(x - xp))) * B[1] * (1 + 1e-12)
    assert np.all(np.isfinite(B)) and np.all(B >= 0)


@settings(max_examples=20)
@given(tau=st.floats(0.05, 2), gamma=st.floats(1e-3, 10), kind=st.sampled_from(["exp", "linear"]),
       Lam=st.one_of(st.just(math.inf), st.floats(0.05, 6)),
       p=st.tuples(st.floats(-6, 8), st.floats(-6, 8)), q=st.tuples(st.floats(-6, 8), st.floats(-6, 8)))
def test_two_way_bstar_is_smooth_upper_bound(tau, gamma, kind, Lam, p, q):
    g = _growth(kind, gamma)
    P = np.array([p, q])
    B = smooth_sensitivity_two_way_threshold(P, 1.0, 2.0, tau, g, Lam)
    L = lipschitz_two_way_threshold(P, 1.0, 2.0, tau, Lam)
    assert B[0] >= L[0] * (1 - 1e-14)
    assert B[0] <= float(g.g0(np.hypot(*(P[0] - P[1])))) * B[1] * (1 + 1e-12)


def test_threshold_chunked_equals_unchunked_and_no_nan_far_out():
    x = np.linspace(-1e6, 1e6, 200001)
    g = growth_exp(3.0)
    a = smooth_sensitivity_threshold(x, 0.0, 1.0, g, chunk=1000)
    b = smooth_sensitivity_threshold(x, 0.0, 1.0, g)
    np.testing.assert_array_equal(a, b)
    assert np.all(np.isfinite(a)) and np.all(a > 0)
    fl = smooth_sensitivity_threshold(x, 0.0, 1.0, growth_linear(3.0), 2.0, chunk=777)
    assert np.all(np.isfinite(fl)) and np.all(fl >= 0)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: smooth_sensitivity_threshold([0.0], 0.0, 0.0, growth_exp(1.0)), "tau must be in"),
        (lambda: smooth_sensitivity_threshold([0.0], 0.0, -1.0, growth_exp(1.0)), "tau must be in"),
        (lambda: smooth_sensitivity_threshold([np.nan], 0.0, 1.0, growth_exp(1.0)), "x must contain only finite"),
        (lambda: smooth_sensitivity_threshold([np.inf], 0.0, 1.0, growth_exp(1.0)), "x must contain only finite"),
        (lambda: smooth_sensitivity_threshold(np.zeros((3, 2)), 0.0, 1.0, growth_exp(1.0)), "x must have shape"),
        (lambda: smooth_sensitivity_threshold([0.0], 0.0, 1.0, growth_exp(1.0), 0.0), "Lambda must be in"),
        (lambda: smooth_sensitivity_threshold([0.0], 0.0, 1.0, growth_exp(1.0), -2.0), "Lambda must be in"),
        (lambda: smooth_sensitivity_threshold([0.0], math.nan, 1.0, growth_exp(1.0)), "T must be a finite"),
        (lambda: smooth_sensitivity_bounded_range([0.0], 1.0, 0.0, 1.0, growth_exp(1.0)), "l must be < r"),
        (lambda: smooth_sensitivity_bounded_range([0.0], 0.0, 1.0, 0.0, growth_exp(1.0)), "tau must be in"),
        (lambda: smooth_sensitivity_bounded_range([0.0], 0.0, 1.0, 2.0, growth_exp(1.0), shape="trapezoid"),
         "needs r - l >= tau"),
        (lambda: smooth_sensitivity_bounded_range([0.0], 0.0, 1.0, 0.5, growth_exp(1.0), shape="box"),
         "shape must be one of"),
        (lambda: smooth_sensitivity_two_way_threshold(np.zeros((3, 3)), 1.0, 1.0, 1.0, growth_exp(1.0)),
         r"points must have shape \(n, 2\)"),
        (lambda: smooth_sensitivity_two_way_threshold([[0.0, np.nan]], 1.0, 1.0, 1.0, growth_exp(1.0)),
         "points must contain only finite"),
        (lambda: smooth_sensitivity_two_way_threshold([[0.0, 0.0]], 1.0, 1.0, -1.0, growth_exp(1.0)),
         "tau must be in"),
        (lambda: growth_exp(0.0), "gamma must be in"),
        (lambda: growth_exp(-1.0), "gamma must be in"),
    ],
)
def test_threshold_family_rejects_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: smooth_sensitivity_threshold(["a", "b"], 0.0, 1.0, growth_exp(1.0)), "x must be an array of real numbers"),
        (lambda: soft_threshold([["1.0"]], 0.0, 1.0), "x must be an array of real numbers"),
        (lambda: smooth_sensitivity_bounded_range([0.0, "b"], 0.0, 1.0, 0.5, growth_exp(1.0)),
         "x must be an array of real numbers"),
        (lambda: smooth_sensitivity_two_way_threshold([["a", "b"]], 0.0, 0.0, 1.0, growth_exp(1.0)),
         "points must be an array of real numbers"),
        (lambda: soft_two_way_threshold([[0.0, object()]], 0.0, 0.0, 1.0), "points must be an array of real numbers"),
    ],
)
def test_threshold_family_rejects_non_numeric_points_naming_the_parameter(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_threshold_rejects_non_growth_object():
    with pytest.raises(TypeError, match="growth must be"):
        smooth_sensitivity_threshold([0.0], 0.0, 1.0, 0.5)  # type: ignore[arg-type]


# ---- one-point fast paths equal the bulk path -------------------------------------
def _ulps(a, b):
    return np.abs(np.asarray(a) - np.asarray(b)) / np.spacing(np.abs(np.asarray(b)))


@pytest.mark.parametrize("kind", ["exp", "linear"])
def test_one_point_fast_paths_equal_the_bulk_within_one_ulp(kind):
    # bit-identical on every build: the fast path evaluates exp with NumPy's exp on a one-element
    # array, the loop the bulk path runs (math.exp and an AVX-512 NumPy exp differ by up to 2 ulp, so
    # a tolerance of 1 ulp against math.exp failed on such machines); g_L has no transcendental
    # function; the two-way distance uses sqrt, correctly rounded in both math and NumPy
    from smoothsens_core.growth import growth_exp, growth_linear
    from smoothsens_core.sensitivity import (
        smooth_sensitivity_bounded_range,
        smooth_sensitivity_threshold,
        smooth_sensitivity_two_way_threshold,
    )

    g = growth_exp(0.3) if kind == "exp" else growth_linear(0.3)
    rng = np.random.default_rng(17)
    x = np.concatenate([rng.normal(1.0, 3.0, 2000), [1.0, 1.25, 0.75, 1e300, -1e300]])
    bulk = smooth_sensitivity_threshold(x, 1.0, 0.5, g)
    one = np.array([smooth_sensitivity_threshold(float(v), 1.0, 0.5, g)[0] for v in x])
    assert _ulps(one, bulk).max() == 0
    for shape in ("tent", "trapezoid"):
        bulk = smooth_sensitivity_bounded_range(x, 0.0, 3.0, 0.5, g, shape=shape)
        one = np.array([smooth_sensitivity_bounded_range(float(v), 0.0, 3.0, 0.5, g, shape=shape)[0] for v in x])
        assert _ulps(one, bulk).max() == 0
    p = rng.normal(1.0, 2.0, (2000, 2))
    bulk = smooth_sensitivity_two_way_threshold(p, 1.0, 1.0, 0.5, g)
    for row, ref in zip(p, bulk):
        assert smooth_sensitivity_two_way_threshold(tuple(row), 1.0, 1.0, 0.5, g)[0] == ref
        assert smooth_sensitivity_two_way_threshold(row, 1.0, 1.0, 0.5, g)[0] == ref


def test_one_point_fast_path_keeps_the_validation_errors():
    from smoothsens_core.growth import growth_exp
    from smoothsens_core.sensitivity import smooth_sensitivity_threshold, smooth_sensitivity_two_way_threshold

    g = growth_exp(0.3)
    with pytest.raises(ValueError, match="tau must be in"):
        smooth_sensitivity_threshold(1.0, 0.0, -1.0, g)
    with pytest.raises(ValueError, match="x must contain only finite"):
        smooth_sensitivity_threshold(float("nan"), 0.0, 1.0, g)
    with pytest.raises(TypeError, match="growth must be"):
        smooth_sensitivity_threshold(1.0, 0.0, 1.0, "g")
    with pytest.raises(ValueError, match="tau must be in"):
        smooth_sensitivity_two_way_threshold((1.0, 2.0), 0.0, 0.0, 0.0, g)


def test_two_way_band_distance_plus_equals_max_of_band_distance_bit_for_bit():
    # the fused Lambda = inf path evaluates hypot only where both c0 - p components are positive
    # (hypot(u, 0) = u exactly); it must equal max(d(p), 0) of the unfused _band_distance bit for bit
    from smoothsens_core.sensitivity.two_way import _band_distance, _band_distance_plus, _geometry

    rng = np.random.default_rng(29)
    T1, T2, tau = 1.0, -0.5, 0.7
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    p = np.concatenate([rng.normal(1.0, 2.0, (40000, 2)), rng.normal(0.0, 1e3, (2000, 2)),
                        [[c01, c02], [c01, 0.0], [0.0, c02], [c01 - R1, c02], [c01 + 1.0, c02 + 1.0]]])
    want = np.maximum(_band_distance(p, T1, T2, tau), 0.0)
    assert np.array_equal(_band_distance_plus(p.copy(), R1, R2, c01, c02), want)


@pytest.mark.parametrize("g", [growth_exp(0.7), growth_linear(0.4)])
@pytest.mark.parametrize("Lam", [math.inf, 1.5])
def test_sensitivity_triples_are_the_three_public_functions(g, Lam):
    # SensitivityValues.of_query (shared by the query modules) must pass Lambda, growth and the
    # bounded-range ``shape`` to the right function: compare with the three calls written out
    from smoothsens_core.sensitivity import bounded_range as br, kde as kd, threshold as th

    x = np.linspace(-3.0, 4.0, 57)
    v = th.sensitivity_threshold(x, 0.5, 1.2, g, Lam)
    ref = (th.soft_threshold(x, 0.5, 1.2), th.lipschitz_threshold(x, 0.5, 1.2, Lam),
           th.smooth_sensitivity_threshold(x, 0.5, 1.2, g, Lam))
    assert all(np.array_equal(a, b) for a, b in zip(v, ref))
    for shape in ("tent", "trapezoid"):
        v = br.sensitivity_bounded_range(x, -1.0, 2.0, 0.8, g, Lam, shape)
        ref = (br.soft_bounded_range(x, -1.0, 2.0, 0.8, shape), br.lipschitz_bounded_range(x, -1.0, 2.0, 0.8, Lam, shape),
               br.smooth_sensitivity_bounded_range(x, -1.0, 2.0, 0.8, g, Lam, shape))
        assert all(np.array_equal(a, b) for a, b in zip(v, ref))
    if math.isinf(Lam):  # the KDE closed form needs Lambda = inf
        P = np.column_stack([x, x[::-1] / 2])
        v = kd.sensitivity_kde(P, [0.3, -0.2], 0.9, g)
        ref = (kd.gaussian_kernel(P, [0.3, -0.2], 0.9), kd.lipschitz_kde(P, [0.3, -0.2], 0.9),
               kd.smooth_sensitivity_kde(P, [0.3, -0.2], 0.9, g))
        assert all(np.array_equal(a, b) for a, b in zip(v, ref))
