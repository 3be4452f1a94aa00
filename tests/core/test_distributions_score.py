"""The shape of ln h that every continuous family answers for: score, kinks, breakpoints, tails.

References: the family's own ``logpdf`` by central differences (an implementation-internal check), and
the independent mpmath density of :mod:`verify.reference.distributions` (typed from the papers:
004 Sec. 2.1, 002 Def. 6, 000 Thm. 1 / Lemma 2, 003 Def. V.3) differentiated by ``mpmath.diff`` at 50
digits.  The expected kinks, tail exponents and score limits are stated from the printed densities in
the table below, not read from the core.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core.distributions import (
    ContinuousDistribution, GenCauchy, HalfPowerLaw, Laplace, OneSidedExponential, PolyPlace, PowerLaw, StudentT,
)
from verify.reference.distributions import reference_for

DPS = 50

# (distribution, kinks in x units, tail exponent k, lim |1 + z psi|) -- from the printed densities:
#   Laplace e^{-|z|}/2: kink at loc, exponential tail;  GenCauchy c/(1 + |z|^p)^theta: k = p theta,
#   limit p theta - 1, kink at loc for p < 2;  T_nu: k = nu + 1, limit nu, smooth;  PolyPlace: branches
#   at |z| = 1/alpha, kink at loc, k = alpha + 1, limit alpha;  PowerLaw 1/(|z|^k + l): k, k - 1, kink at loc
#   for k < 2;  one-sided densities: no interior kink.
CASES = [
    (Laplace(), (0.0,), math.inf, math.inf),
    (Laplace(1.5, 0.3), (1.5,), math.inf, math.inf),
    (GenCauchy(4.0, 1.0), (), 4.0, 3.0),
    (GenCauchy(4.0, 1.0, loc=-2.0, scale=3.0), (), 4.0, 3.0),
    (GenCauchy(1.5, 1.0), (0.0,), 1.5, 0.5),
    (GenCauchy(2.0, 2.0), (), 4.0, 3.0),
    (GenCauchy(2.5, 0.8), (), 2.0, 1.0),
    (GenCauchy(1.0, 2.0), (0.0,), 2.0, 1.0),
    (GenCauchy(0.8, 2.5), (0.0,), 2.0, 1.0),
    (StudentT(1.0), (), 2.0, 1.0),
    (StudentT(3.0), (), 4.0, 3.0),
    (StudentT(0.5, loc=1.0, scale=2.0), (), 1.5, 0.5),
    (StudentT(30.0), (), 31.0, 30.0),
    (PolyPlace(1.0, 1.2), (-1 / 1.2, 0.0, 1 / 1.2), 2.2, 1.2),
    (PolyPlace(1.0, 10.0), (-0.1, 0.0, 0.1), 11.0, 10.0),
    (PolyPlace(0.5, 2.5, loc=1.0), (1.0 - 0.2, 1.0, 1.0 + 0.2), 3.5, 2.5),
    (PowerLaw(3.0, 2.0), (), 3.0, 2.0),
    (PowerLaw(1.5), (0.0,), 1.5, 0.5),
    (PowerLaw(4.0, 0.5, loc=1.0, scale=2.0), (), 4.0, 3.0),
    (HalfPowerLaw(3.0), (), 3.0, 2.0),
    (HalfPowerLaw(2.5, 0.7, side=-1, scale=2.0), (), 2.5, 1.5),
    (HalfPowerLaw(1.5, side=1, loc=-1.0), (), 1.5, 0.5),
    (OneSidedExponential(1), (), math.inf, math.inf),
    (OneSidedExponential(-1, loc=1.0, scale=2.0), (), math.inf, math.inf),
]
IDS = [repr(c[0]) for c in CASES]
Z_GRID = np.array([1e-3, 0.05, 0.3, 0.7, 1.0 + 1e-3, 2.0, 7.5, 40.0, 1e3, 1e6])


def _xs(dist: ContinuousDistribution, zs: np.ndarray = Z_GRID) -> np.ndarray:
    """Points loc + scale z on the support (both signs for two-sided laws), at least 1e-6 away from kinks."""
    lo, hi = dist.support
    signs = [s for s in (-1.0, 1.0) if (s < 0 and lo < 0) or (s > 0 and hi > 0)]
    z = np.concatenate([s * zs for s in signs])
    x = dist.loc + dist.scale * z
    far = np.all(np.abs(x[:, None] - np.array(dist.kinks() or [math.inf])[None, :]) > 1e-6 * dist.scale, axis=1)
    return x[far]


def _ref_score(dist: ContinuousDistribution, x: float | mpmath.mpf, n: int = 1, h: mpmath.mpf | None = None) -> mpmath.mpf:
    """d^n/dx^n ln pdf of the independent mpmath reference at x (call inside mpmath.workdps).

    The default step is relative to |x - loc| (mpmath's default step is absolute, which at x = 1e300 is
    below the spacing of the working precision): h = 1e-18 max(|x - loc|, scale)."""
    ref = reference_for(dist)
    xm = mpmath.mpf(x)
    if h is None:
        h = mpmath.mpf(10) ** -18 * max(abs(xm - mpmath.mpf(dist.loc)), mpmath.mpf(dist.scale))
    return mpmath.diff(ref.logpdf, xm, n, h=h)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_score_matches_central_difference_of_core_logpdf(case):
    dist = case[0]
    x = _xs(dist)
    h = 1e-5 * np.maximum(np.abs(x - dist.loc), 1e-2 * dist.scale)
    fd = (np.asarray(dist.logpdf(x + h)) - np.asarray(dist.logpdf(x - h))) / (2 * h)
    got = np.asarray(dist.score(x))
    # central difference error: O(h^2 psi'') relative plus rounding of ln pdf / h
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8 / dist.scale)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_score_matches_mpmath_derivative_of_reference_density(case):
    dist = case[0]
    x = _xs(dist)
    got = np.asarray(dist.score(x))
    with mpmath.workdps(DPS):
        ref = np.array([float(_ref_score(dist, xi)) for xi in x])
    np.testing.assert_allclose(got, ref, rtol=2e-14, atol=1e-300)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_score_far_tail_no_overflow(case):
    """|z| = 1e300: z^p, z^2 would overflow; the log-space score is finite and exact to ~ulp."""
    dist = case[0]
    lo, hi = dist.support
    for sign in (-1.0, 1.0):
        if (sign < 0 and lo == 0.0) or (sign > 0 and hi == 0.0):
            continue
        x = dist.loc + sign * 1e300 * dist.scale
        with np.errstate(all="raise"):
            got = float(dist.score(x))
        with mpmath.workdps(DPS):
            ref = float(_ref_score(dist, x))
        assert math.isclose(got, ref, rel_tol=1e-13), (dist, x, got, ref)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_kinks_are_where_ln_h_or_psi_is_not_differentiable(case):
    """kinks() are the expected points, and at each one psi jumps, or psi' jumps or blows up (reference
    density, derivatives at k +- 1e-9 scale); the score at a kink is the right limit; a family without
    kinks has psi and psi' continuous at loc."""
    dist, kinks, _, _ = case
    np.testing.assert_allclose(dist.kinks(), kinks, rtol=1e-15, atol=1e-15)
    with mpmath.workdps(120):  # one-sided derivatives 1e-12 and 1e-24 from the kink, steps 100x smaller
        sc = mpmath.mpf(dist.scale)
        d1, d2 = mpmath.mpf(10) ** -12 * sc, mpmath.mpf(10) ** -24 * sc

        def psi(x, n=1, d=d1):
            return _ref_score(dist, x, n, h=d / 100)

        for k in dist.kinks():
            km = mpmath.mpf(k)
            got = float(dist.score(k))
            # the score at a kink is the right limit (a convention calibration.tight relies on)
            near, nearer = psi(km + d1), psi(km + d2, d=d2)
            if abs(nearer) > 100 * abs(near):  # diverging right limit (GenCauchy p < 1)
                assert math.isinf(got) and got * float(nearer) > 0, (dist, k, got, nearer)
            else:
                assert got == pytest.approx(float(nearer), rel=1e-9, abs=1e-8 / dist.scale), (dist, k, got, nearer)
            if abs(psi(km + d1) - psi(km - d1)) > 1e-3 / sc:
                continue  # psi jumps: ln h is not differentiable at k
            r2, l2 = psi(km + d1, 2), psi(km - d1, 2)
            assert abs(r2 - l2) > 1e-3 / sc**2 or abs(r2) > 1e3 / sc**2, (dist, k, r2, l2)
        lo, hi = dist.support
        if not dist.kinks() and lo < 0.0 < hi:  # smooth at loc: psi and psi' continuous there
            x0 = mpmath.mpf(dist.loc)
            assert abs(psi(x0 + d1) - psi(x0 - d1)) < 1e-6 / sc, dist
            assert abs(psi(x0 + d1, 2) - psi(x0 - d1, 2)) < 1e-3 / sc**2, dist


def _monotone(v: np.ndarray) -> bool:
    """v is nondecreasing or nonincreasing up to rounding (1e-12 relative)."""
    d = np.diff(v)
    tol = 1e-12 * np.maximum(np.abs(v[1:]), np.abs(v[:-1])) + 1e-300
    return bool(np.all(d <= tol) or np.all(d >= -tol))


def _direction(v: np.ndarray) -> int:
    d = v[-1] - v[0]
    return 0 if abs(d) <= 1e-12 * max(abs(v[0]), abs(v[-1])) else (1 if d > 0 else -1)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_score_breakpoints_split_t1_t2_into_monotone_pieces(case):
    """Between consecutive breakpoints (and beyond the last) |psi| and |1 + z psi| are monotone (sampled
    densely); beyond the last, |psi| decreases and |1 + z psi| increases to ``score_scale_limit``; and every
    breakpoint is needed (a kink, or a turn of one of the two terms)."""
    dist = case[0]
    side = -1.0 if dist.support[1] == 0.0 else 1.0  # half-lines: the breakpoints are |z| on their side
    br = dist.score_breakpoints()
    assert list(br) == sorted(set(br)) and all(b >= 0 for b in br)
    edges = sorted({0.0, *br}) + [1e8 * (1.0 + (br[-1] if br else 0.0))]
    pieces = []
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        z = np.concatenate([np.linspace(a, b, 2001)[1:-1], np.geomspace(max(a, 1e-12), b, 2001)[1:-1]])
        z = np.sort(z[(z > a) & (z < b)])
        x = dist.loc + side * dist.scale * z
        psi = np.asarray(dist.score(x)) * dist.scale
        t1, t2 = np.abs(psi), np.abs(1.0 + side * z * psi)
        assert _monotone(t1) and _monotone(t2), (dist, a, b)
        pieces.append((_direction(t1), _direction(t2)))
    # beyond the last breakpoint: t1 nonincreasing, t2 nondecreasing towards its limit
    assert pieces[-1][0] <= 0 and pieces[-1][1] >= 0, (dist, pieces)
    kinks_z = {round((k - dist.loc) / dist.scale, 12) for k in dist.kinks()}
    for i, b in enumerate(edges[1:-1]):  # the interior breakpoints (0 is the left end)
        turn = pieces[i][0] * pieces[i + 1][0] < 0 or pieces[i][1] * pieces[i + 1][1] < 0
        assert turn or round(b, 12) in kinks_z, (dist, b, pieces)
    assert 0.0 not in br or 0.0 in kinks_z  # 0 is listed only as a kink


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_tail_exponent_is_slope_of_ln_h_at_1e8(case):
    dist, _, k, limit = case
    assert dist.tail_exponent == k
    side = -1.0 if dist.support[1] == 0.0 else 1.0
    with mpmath.workdps(DPS):
        ref = reference_for(dist)
        # -d ln h / d ln z at z = 1e8, from the reference density
        slope = -mpmath.diff(lambda u: ref.logpdf(dist.loc + side * dist.scale * mpmath.exp(u)), mpmath.log(1e8))
    if math.isinf(k):
        assert slope > 1e7  # exponential tail: the log-log slope grows like z
    else:
        assert float(slope) == pytest.approx(k, rel=1e-6)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_tail_from_and_score_scale_limit(case):
    dist, _, k, limit = case
    side = -1.0 if dist.support[1] == 0.0 else 1.0
    assert dist.score_scale_limit == limit
    z = np.geomspace(1e6, 1e12, 5)
    t2 = np.abs(1.0 + side * z * np.asarray(dist.score(dist.loc + side * dist.scale * z)) * dist.scale)
    if math.isinf(limit):
        assert np.all(t2 > 0.5 * z)
    else:
        assert t2[-1] == pytest.approx(limit, rel=1e-6, abs=1e-9)
        assert np.all(t2 <= limit * (1 + 1e-12))
    if math.isfinite(k):
        # z^k h(z) is nondecreasing from tail_from on (ln h(z1) - ln h(z2) <= k ln(z2/z1)), reference density
        z0 = dist.tail_from
        zz = z0 + np.concatenate([[0.0], np.geomspace(1e-6, 1e9, 400)])
        with mpmath.workdps(DPS):
            ref = reference_for(dist)
            g = [k * mpmath.log(zi) + ref.logpdf(dist.loc + side * dist.scale * mpmath.mpf(zi)) for zi in zz if zi > 0]
            # slack: k is a double (p theta rounded), so k ln z carries 4e-16 k |d ln z| per step
            dlz = math.log(zz[-1] / zz[-2])
            assert all(b >= a - 4e-16 * k * dlz - mpmath.mpf(10) ** -40 for a, b in zip(g[:-1], g[1:], strict=True)), dist


def test_tight_breakpoints_are_the_printed_stationary_points():
    """The breakpoints are the stationary points of |psi| and the zero of 1 + z psi, stated from the papers:
    T_nu: sqrt(nu) and 1 (004 Lemma 3.5 / A.1 proof); GenCauchy: (p-1)^(1/p) (004 Claim 3.4) and
    (p theta - 1)^(-1/p); PolyPlace: the branch point 1/alpha (002 Def. 6) and the kink 0."""
    assert StudentT(4.0).score_breakpoints() == (1.0, 2.0)
    assert GenCauchy(4.0, 1.0).score_breakpoints() == pytest.approx((3.0 ** -0.25, 3.0**0.25), rel=1e-15)
    assert PolyPlace(1.0, 4.0).score_breakpoints() == (0.0, 0.25)
    assert Laplace().score_breakpoints() == (0.0, 1.0)
    assert PowerLaw(3.0, 2.0).score_breakpoints() == pytest.approx((1.0, 4.0 ** (1 / 3)), rel=1e-15)
    # 004 Claim 3.4: sup |phi_c'| = (c-1)^((c-1)/c), attained at the breakpoint (p-1)^(1/p)
    g = GenCauchy(4.0, 1.0)
    assert abs(float(g.score((3.0) ** 0.25))) == pytest.approx(3.0**0.75, rel=1e-14)


@pytest.mark.parametrize(
    "dist, x, match",
    [
        (HalfPowerLaw(3.0), -1.0, r"\(x - loc\)/scale must be in the support \[0.0, inf\]"),
        (OneSidedExponential(-1, loc=1.0), 2.0, r"must be in the support \[-inf, 0.0\].*got \(x - loc\)/scale=1.0"),
        (StudentT(3.0), float("nan"), r"x must not contain NaN"),
    ],
)
def test_score_rejects_points_outside_the_support(dist, x, match):
    with pytest.raises(ValueError, match=match):
        dist.score(x)


def test_score_is_vectorised_and_scaled():
    d = StudentT(3.0, loc=1.0, scale=2.0)
    x = np.array([[0.0, 1.0], [3.0, -5.0]])
    z = (x - 1.0) / 2.0
    np.testing.assert_allclose(d.score(x), -(4.0 * z / (3.0 + z * z)) / 2.0, rtol=1e-15)
    assert d.score(x).shape == (2, 2) and isinstance(d.score(1.0), float)
