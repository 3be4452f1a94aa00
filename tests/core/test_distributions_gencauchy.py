"""GenCauchy(a, b, p, theta) of 004 Sec. 2.1 and the closed form for (4, 1) of 004 App. C.1.

References: mpmath at 40-50 digits -- quadrature of the printed density (mp_reference_distributions),
the printed App. C.1 formula evaluated in mpmath, and mpmath's regularised incomplete beta function.
"""

from __future__ import annotations

import math

import mpmath
import mpmath as mp
import numpy as np
import pytest
from scipy import stats

import smoothsens_core.distributions.gencauchy as core
import smoothsens_core.distributions.student_t as core_t
from smoothsens_core._generated import noise
from smoothsens_core._generated.noise import gencauchy4_cdf, gencauchy_cdf

# The core's GenCauchy uses these generated evaluators (derivations/gencauchy.py); no hand-typed copy.
from smoothsens_core._generated.noise import gencauchy4_cdf as _gencauchy4_cdf
from smoothsens_core._generated.noise import gencauchy_cdf as _gencauchy_cdf
from smoothsens_core._generated.noise import gencauchy_log_normaliser as _gencauchy_log_normaliser
from smoothsens_core._generated.noise import gencauchy_variance as _gencauchy_variance
from smoothsens_core.distributions import GenCauchy
from smoothsens_core.distributions import gencauchy as gc
from smoothsens_core.distributions.gencauchy import _gencauchy4_cdf_masked, _gencauchy_cdf_masked
from verify.reference.distributions import gencauchy4_cdf_printed, gencauchy_normaliser, gencauchy_pdf, reference_for

PARAMS = [(1.5, 1.0), (4.0, 1.0), (2.0, 2.0), (6.0, 0.5), (3.0, 0.7), (2.0, 15.5), (10.0, 2.0)]
Q_GRID = [0.0, 1e-3, 0.1, 0.5, 0.9, 1.0, 1.1, 2.0, 3.0, 10.0, 1e3, 1e6]


def test_gencauchy4_printed_cdf_matches_quadrature():
    # 004 App. C.1 as printed (50-digit mpmath) vs quadrature of h(z) = (sqrt2/pi)/(1 + z^4): the printed
    # closed form is correct (no erratum), at both signs and in the tails.
    with mpmath.workdps(50):
        for q in [-1e3, -10.0, -1.0, -0.3, 0.0, 0.3, 1.0, 2.5, 10.0]:
            q = mpmath.mpf(q)
            if q <= 0:
                ref = mpmath.quad(lambda z: gencauchy_pdf(z, 4, 1), [-mpmath.inf, q])
            else:
                ref = 1 - mpmath.quad(lambda z: gencauchy_pdf(z, 4, 1), [q, mpmath.inf])
            assert abs(gencauchy4_cdf_printed(q) - ref) < mpmath.mpf(10) ** -40 * max(ref, 1e-10)
        # and the printed pdf constant sqrt2/pi is c_{4,1}
        assert abs(gencauchy_normaliser(4, 1) - mpmath.sqrt(2) / mpmath.pi) < mpmath.mpf(10) ** -45


def test_gencauchy4_closed_form_cdf_matches_printed_formula_with_tail_accuracy():
    z = np.array([-1e8, -1e6, -1e3, -30.0, -4.0, -3.9, -1.0001, -1.0, -0.9999, -0.5, -1e-3, 0.0, 0.7, 5.0, 1e4])
    got = _gencauchy4_cdf(z)
    with mpmath.workdps(60):  # 60 digits: the printed form cancels ~z^3 digits in the tail
        ref = np.array([float(gencauchy4_cdf_printed(x)) for x in z])
    np.testing.assert_allclose(got, ref, rtol=4e-16 * 8)
    # GenCauchy(4, 1) uses it, and it agrees with the general incomplete-beta route
    np.testing.assert_allclose(GenCauchy(4, 1).cdf(z), ref, rtol=4e-15)
    # the general route evaluates far tails as exp(b ln s - ...): |ln F| * eps ~ 60 * 1.1e-16 at z = -1e8
    np.testing.assert_allclose(_gencauchy_cdf(z, 4.0, 1.0), ref, rtol=2e-14)


@pytest.mark.parametrize("p,theta", PARAMS)
def test_gencauchy_cdf_matches_mpmath_incomplete_beta(p, theta):
    # independent reference: F(-r) = I_{1/(1+r^p)}(theta - 1/p, 1/p)/2 evaluated by mpmath.betainc (40 digits),
    # itself checked against quadrature in test_distributions_identities.py.  Far tails are computed in
    # log space, exp(b ln s - ln b - ln B), whose relative error is about |ln F| * eps (<= 150 * 1.1e-16 here).
    for r in Q_GRID:
        with mpmath.workdps(40):
            pm, tm, rm = mpmath.mpf(p), mpmath.mpf(theta), mpmath.mpf(r)
            ref = mpmath.betainc(tm - 1 / pm, 1 / pm, 0, 1 / (1 + rm**pm), regularized=True) / 2
        assert math.isclose(_gencauchy_cdf(-r, p, theta), float(ref), rel_tol=5e-14), (p, theta, r)
        assert math.isclose(_gencauchy_cdf(r, p, theta), float(1 - ref), rel_tol=5e-14), (p, theta, r)


@pytest.mark.parametrize("p,theta", PARAMS)
def test_gencauchy_log_normaliser_matches_printed_normaliser(p, theta):
    with mpmath.workdps(40):
        ref = float(mpmath.log(gencauchy_normaliser(p, theta)))
    assert math.isclose(_gencauchy_log_normaliser(p, theta), ref, rel_tol=1e-14, abs_tol=1e-15)


@pytest.mark.parametrize("p,theta", PARAMS)
def test_gencauchy_variance_matches_quadrature(p, theta):
    var = _gencauchy_variance(p, theta)
    if p * theta <= 3:
        assert var == math.inf
        return
    with mpmath.workdps(30):
        ref = 2 * mpmath.quad(lambda z: z**2 * gencauchy_pdf(z, p, theta), [0, 1, mpmath.inf])
    assert math.isclose(var, float(ref), rel_tol=1e-12)


def test_gencauchy_variance_vectorised_and_paper_value():
    # 004 Sec. 2.1: "for p = 4 and theta = 1, Z has variance Var(Z) = 1"
    assert GenCauchy(4, 1).variance() == pytest.approx(1.0, rel=1e-15)
    assert GenCauchy(4, 1, scale=3.0).variance() == pytest.approx(9.0, rel=1e-15)
    v = _gencauchy_variance(np.array([4.0, 1.5, 3.0, 6.0]), np.array([1.0, 1.0, 1.0, 0.5]))
    assert v[0] == pytest.approx(1.0) and np.all(np.isinf(v[1:]))


def test_gencauchy_p2_theta1_is_cauchy_and_p2_is_student_t():
    # 004 Sec. 2.1: p = 2, theta = 1 is the standard Cauchy; p = 2, b = sqrt(nu) tau, theta = (nu+1)/2 is T_nu
    x = np.array([-1e5, -7.0, -0.3, 0.0, 2.0, 40.0])
    np.testing.assert_allclose(GenCauchy(2, 1).cdf(x), stats.cauchy.cdf(x), rtol=1e-13)
    nu, tau = 5.0, 1.7
    g = GenCauchy(2, (nu + 1) / 2, loc=0.5, scale=math.sqrt(nu) * tau)
    np.testing.assert_allclose(g.pdf(x), stats.t.pdf(x, nu, loc=0.5, scale=tau), rtol=1e-13)
    np.testing.assert_allclose(g.sf(x), stats.t.sf(x, nu, loc=0.5, scale=tau), rtol=1e-12)


def test_gencauchy_ppf_far_tail_beyond_betaincinv_range():
    # q = 1e-300 needs s = 1/(1 + r^p) ~ 1e-400 for (4, 1) (below the double range, where scipy's
    # betaincinv returns the smallest normal): the leading-term inverse keeps the relative accuracy.
    # Reference: the printed App. C.1 CDF at 400 digits (its 1/2 - H cancellation costs ~300 digits).
    d = GenCauchy(4, 1)
    x = d.ppf(1e-300)
    assert x < -1e99
    with mpmath.workdps(400):
        ref = gencauchy4_cdf_printed(x)
    assert math.isclose(float(ref), 1e-300, rel_tol=1e-13)
    assert math.isclose(d.isf(1e-300), -x, rel_tol=1e-15)


def test_gencauchy_sampler_general_shape_tails():
    # the beta-prime sampler R = (G_a/G_b)^(1/p): tail frequencies match sf at 1e6 draws (5 sigma)
    d = GenCauchy(1.5, 1.0)
    x = d.sample(1_000_000, rng=7)
    for t in (10.0, 1e3):
        p_t = 2 * d.sf(t)
        n_t = np.count_nonzero(np.abs(x) > t)
        assert abs(n_t - 1e6 * p_t) < 5 * math.sqrt(1e6 * p_t), (t, n_t, 1e6 * p_t)


def test_gencauchy_contract_functions_broadcast_over_shape_parameters():
    # CONTRACT_GENERATED.md: gencauchy_cdf(z, p, theta) etc. broadcast over all arguments
    z = np.array([-3.0, 0.5])
    p = np.array([[4.0], [2.0], [1.5]])
    got = _gencauchy_cdf(z, p, 1.0)
    assert got.shape == (3, 2)
    for i, pi in enumerate(p[:, 0]):
        np.testing.assert_allclose(got[i], GenCauchy(pi, 1.0).cdf(z), rtol=1e-14)  # (4, 1): App. C.1 route
    assert np.shape(_gencauchy_log_normaliser(p, 1.0)) == (3, 1)
    assert np.shape(_gencauchy_variance(p, np.array([1.0, 2.0]))) == (3, 2)
    assert np.shape(_gencauchy4_cdf(np.zeros((2, 3)))) == (2, 3)


@pytest.mark.parametrize("p,theta", [(4.0, 1.0), (1.5, 30.0), (20.0, 0.06), (2.0, 5000.0)])
def test_gencauchy_cdf_near_zero_and_where_s_underflows(p, theta):
    """Regions the plain incomplete-beta form got wrong: near z = 0 it rounded x = 1/(1+|z|^p) to 1
    (relative error 9e-6 at z = -1e-5, p = 4); the generated CDF uses the complement I-beta of
    t = |z|^p/(1+|z|^p) there.  Where s = 1/(1+|z|^p) underflows (p = 20, z = -1e30: s = 1e-600) but
    F ~ s^(theta - 1/p) does not (theta - 1/p = 0.01), it uses I_s in logs (DLMF 8.17.7).
    Reference: mpmath.betainc (regularised) at 300 digits of the derived tail I_{1/(1+|z|^p)}(theta - 1/p, 1/p)/2."""
    d = GenCauchy(p, theta)
    for r in (1e-12, 1e-5, 0.3, 0.999, 1.0, 7.0, 1e15, 1e30):
        with mpmath.workdps(300):
            pm, tm, rm = mpmath.mpf(p), mpmath.mpf(theta), mpmath.mpf(r)
            tail = mpmath.betainc(tm - 1 / pm, 1 / pm, 0, 1 / (1 + rm**pm), regularized=True) / 2
            lo, hi = float(tail), float(1 - tail)
        for got, ref in ((d.cdf(-r), lo), (d.sf(r), lo), (d.cdf(r), hi)):
            if ref > 1e-300:
                assert abs(float(got) - ref) <= 1e-13 * ref, (p, theta, r, float(got), ref)


def test_gencauchy_core_uses_the_generated_evaluators():
    for name in ("gencauchy_log_normaliser", "gencauchy_cdf", "gencauchy4_cdf", "gencauchy_variance"):
        assert getattr(core, name) is getattr(noise, name)
    for name in ("gencauchy_cdf", "student_t_log_normaliser", "student_t_variance"):
        assert getattr(core_t, name) is getattr(noise, name)
    hand_typed = ("_gencauchy_cdf", "_gencauchy4_cdf", "_gencauchy_log_normaliser", "_gencauchy_variance", "_two_sided_tail")
    assert not any(hasattr(core, n) for n in hand_typed)
    assert not any(hasattr(core_t, n) for n in ("_student_t_log_normaliser", "_student_t_variance"))


# ---- masked branch evaluation of cdf, one inverse per point in ppf -------------------
def _mp_lower_tail(z: float, p: float, theta: float, dps: int = 60):
    """F(z) for z < 0 from the definition's Beta form: P(|Z| > r)/2 = I_s(theta - 1/p, 1/p)/2,
    s = 1/(1 + r^p) (derived from the density of 004 Sec. 2.1), at ``dps`` digits."""
    with mp.workdps(dps):
        r = abs(mp.mpf(z))
        a = 1 / mp.mpf(p)
        b = mp.mpf(theta) - a
        s = 1 / (1 + r ** mp.mpf(p))
        return mp.betainc(b, a, 0, s, regularized=True) / 2


def test_gencauchy4_masked_cdf_equals_the_generated_evaluator_across_slices():
    # the (4, 1) CDF runs slice by slice (|z| symmetry, one special function per element): over
    # several slices, with the branch points +-1, signed zeros, infinities and NaN at slice edges,
    # it must still be the generated evaluator bit for bit
    rng = np.random.default_rng(5)
    n = 2 * gc._CDF41_CHUNK + 7
    z = rng.standard_cauchy(n)
    edge = gc._CDF41_CHUNK
    specials = [1.0, -1.0, np.nextafter(1.0, 2.0), np.nextafter(-1.0, -2.0), 0.0, -0.0, np.inf, -np.inf, np.nan]
    z[edge - 4 : edge + 5] = specials
    z[-9:] = specials
    got = gc._gencauchy4_cdf_masked(z)
    with np.errstate(all="ignore"):
        want = gencauchy4_cdf(z)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(gc._gencauchy4_cdf_masked(z.reshape(-1, 1)[::2]).reshape(-1), want[::2], equal_nan=True)


@pytest.mark.parametrize("p, theta", [(4.0, 1.0), (2.5, 1.5), (2.0, 1.0), (1.3, 3.0)])
def test_gencauchy_masked_cdf_is_the_generated_evaluator_bit_for_bit(p, theta):
    rng = np.random.default_rng(17)
    z = np.concatenate([rng.standard_cauchy(20000), rng.normal(size=20000),
                        np.sign(rng.normal(size=4000)) * 10 ** rng.uniform(-300, 300, 4000),
                        [0.0, -0.0, 1.0, -1.0, 1e300, -1e300]])
    assert np.array_equal(_gencauchy_cdf_masked(z, p, theta), gencauchy_cdf(z, p, theta))
    if (p, theta) == (4.0, 1.0):
        assert np.array_equal(_gencauchy4_cdf_masked(z), gencauchy4_cdf(z))


@pytest.mark.parametrize("p, theta", [(4.0, 1.0), (2.5, 1.5)])
def test_gencauchy_cdf_matches_mpmath_across_the_tails(p, theta):
    # reference: mpmath betainc at 60 digits; rtol 1e-13 for |z| from 1e-3 to 1e300
    d = GenCauchy(p, theta)
    for z in [-1e300, -1e200, -1e50, -1e10, -37.0, -3.0, -1.0, -0.5, -1e-3]:
        ref = float(_mp_lower_tail(z, p, theta))
        assert d.cdf(z) == pytest.approx(ref, rel=1e-13, abs=0.0)
        assert d.sf(-z) == pytest.approx(ref, rel=1e-13, abs=0.0)


@pytest.mark.parametrize("p, theta", [(4.0, 1.0), (2.5, 1.5)])
def test_gencauchy_ppf_matches_mpmath_down_to_q_1e300(p, theta):
    # round trip through the mpmath cdf (60 digits): F(ppf(q)) = q to 1e-13 relative, scaled by
    # the tail exponent p*theta - 1 (a relative error e in z moves F by (p theta - 1) e in the tail)
    d = GenCauchy(p, theta)
    for q in [1e-300, 1e-200, 1e-100, 1e-30, 1e-10, 1e-3, 0.1, 0.3, 0.49]:
        z = d.ppf(q)
        assert z < 0
        assert float(_mp_lower_tail(z, p, theta)) == pytest.approx(q, rel=1e-13 * max(1.0, p * theta - 1.0))


# ---- GenCauchy(4, 1) ppf by certified table guess + secant on App. C.1 -------------
def _rel_err_z(ref, z: float, target: float, upper: bool) -> float:
    """First-order relative error of the quantile z: (F(z) - target)/(z f(z)) (lower tail; the
    upper tail with P(Z > z)), F, f from the mpmath reference at 120 digits."""
    with mpmath.workdps(120):
        zz = mpmath.mpf(z)
        if upper:
            return float(-(ref.sf(zz) - mpmath.mpf(target)) / (zz * ref.pdf(zz)))
        return float((ref.cdf(zz) - mpmath.mpf(target)) / (zz * ref.pdf(zz)))


def test_gencauchy4_ppf_matches_mpmath_reference_both_tails():
    d = GenCauchy(4.0, 1.0)
    ref = reference_for(d)
    rng = np.random.default_rng(2)
    qs = list(10.0 ** rng.uniform(-300, math.log10(0.5), 60)) + [
        1e-300, 1e-100, 1e-20, 0.01, 0.1, 0.1097, 0.1098, 0.2, 0.3, 0.49, 0.5 - 1e-9, 0.5 - 2.0**-40]
    for q in qs:
        z = d.ppf(q)
        assert z < 0
        assert abs(_rel_err_z(ref, z, q, upper=False)) <= 1e-13, q
        qq = 1.0 - q  # the upper tail: P(Z > z) = 1 - qq, exact (Sterbenz)
        if qq < 1.0:
            zu = d.ppf(qq)
            assert zu > 0
            assert abs(_rel_err_z(ref, zu, 1.0 - qq, upper=True)) <= 1e-13, q
    assert d.ppf(0.5) == 0.0


def test_gencauchy4_ppf_uncertified_points_fall_back_to_the_beta_inverse(monkeypatch):
    # A zero-width certificate fails wherever the residual at the guess is not exactly 0: those points
    # must come from the incomplete-beta inverse (the general path), not from the uncertified guess.
    y = np.concatenate([10.0 ** np.linspace(-300, -1, 50), np.linspace(0.3, 0.999, 50)])
    want = gc._gencauchy_abs_quantile(y, 4.0, 1.0)
    seen = []
    general = gc._gencauchy_abs_quantile

    def spy(yy, p, theta):
        seen.append(yy.copy())
        return general(yy, p, theta)

    monkeypatch.setattr(gc, "_PPF_CERT", 0.0)
    monkeypatch.setattr(gc, "_gencauchy_abs_quantile", spy)
    got = gc._gencauchy4_abs_quantile(y)
    fell_back = np.isin(y, np.concatenate(seen))
    assert fell_back.sum() >= 50
    assert np.array_equal(got[fell_back], want[fell_back])
    # the others were certified by an exactly zero residual at the guess
    tail = y <= gc._Y1_41
    kept_t, kept_b = ~fell_back & tail, ~fell_back & ~tail
    assert np.array_equal(gc._tail41(got[kept_t], False)[0], y[kept_t])
    assert np.array_equal(gc._body41(got[kept_b], False)[0], 1.0 - y[kept_b])


@pytest.mark.parametrize("p, theta, loc, scale", [(4.0, 1.0, 0.0, 1.0), (4.0, 1.0, 0.3, 2.0), (2.5, 1.5, 0.0, 1.0),
                                                  (1.3, 3.0, -1.0, 0.5)])
def test_gencauchy_one_float_fast_path_equals_the_array_path_bit_for_bit(p, theta, loc, scale):
    d = GenCauchy(p, theta, loc=loc, scale=scale)
    rng = np.random.default_rng(23)
    x = np.concatenate([rng.standard_cauchy(4000), rng.normal(size=4000),
                        np.sign(rng.normal(size=400)) * 10 ** rng.uniform(-300, 300, 400),
                        [0.0, -0.0, 1.0, -1.0, loc, math.inf, -math.inf, 1e300, -1e300]])
    assert np.array_equal(np.asarray(d.cdf(x)), np.array([d.cdf(float(v)) for v in x]))
    q = np.concatenate([rng.random(4000), 10 ** rng.uniform(-300, 0, 4000), 1 - 10 ** rng.uniform(-16, 0, 400),
                        [0.0, 1.0, 0.5, 5e-324, 1e-310, 0.25, 0.75]])
    assert np.array_equal(np.asarray(d.ppf(q)), np.array([d.ppf(float(v)) for v in q]))
    assert type(d.cdf(0.3)) is float and type(d.ppf(0.3)) is float
    # validation is the array path's: the same errors for NaN and q outside [0, 1]
    with pytest.raises(ValueError, match="x must not contain NaN"):
        d.cdf(math.nan)
    with pytest.raises(ValueError, match=r"q must be in \[0, 1\]"):
        d.ppf(1.5)
    with pytest.raises(ValueError, match="q must not contain NaN"):
        d.ppf(math.nan)
