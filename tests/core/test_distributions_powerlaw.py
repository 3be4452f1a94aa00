"""Tests of the 000 power-law noise h ∝ 1/(|z|^k + l) and its halves (distributions/powerlaw.py)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from smoothsens_core.distributions.powerlaw import HalfPowerLaw, PowerLaw, powerlaw_log_normaliser
from verify.reference.distributions import powerlaw_normaliser, reference_for

PARAMS = [(1.5, 1.0), (2.0, 0.3), (3.0, 1.0), (4.0, 2.5), (7.0, 0.05)]


def _quad(dist, a, b, weight=None) -> mpmath.mpf:
    """int_a^b h(z) [* weight(z)] dz / int_R h: tanh-sinh quadrature of the independent reference density
    h(z) = 1/(C (|z|^k + l)) of 000 Thm. 1 (:mod:`verify.reference.distributions`, split at the centre and
    +-1), normalised by its own integral, so that it does not rely on the closed form of C.  Call inside
    mpmath.workdps."""
    ref = reference_for(dist)
    return ref.integrate(a, b, weight=weight) / ref.integrate(-mpmath.inf, mpmath.inf)


@pytest.mark.parametrize("k,l", PARAMS)
def test_powerlaw_normaliser_matches_mpmath(k: float, l: float) -> None:
    """The core's C = exp(ln C) against the reference's closed form 2 l^(1/k-1) (pi/k)/sin(pi/k), and that
    closed form against quadrature: int_R 1/(C (|z|^k + l)) dz = 1 (30 digits)."""
    with mpmath.workdps(30):
        ref = powerlaw_normaliser(k, l)
        total = reference_for(PowerLaw(k, l)).integrate(-mpmath.inf, mpmath.inf)
    assert math.exp(powerlaw_log_normaliser(k, l)) == pytest.approx(float(ref), rel=1e-13)
    assert float(total) == pytest.approx(1.0, rel=1e-13)


@pytest.mark.parametrize("k,l", PARAMS[:4])
def test_powerlaw_cdf_matches_mpmath_quadrature(k: float, l: float) -> None:
    d = PowerLaw(k, l)
    with mpmath.workdps(30):
        for x in (-20.0, -0.4, 0.0, 1.3):
            ref = _quad(d, -mpmath.inf, x)
            assert float(d.cdf(x)) == pytest.approx(float(ref), rel=1e-12)
        # upper tail computed directly (no 1 - cdf cancellation)
        ref_sf = _quad(d, 1e3, mpmath.inf)
        assert float(d.sf(1e3)) == pytest.approx(float(ref_sf), rel=1e-9)


@pytest.mark.parametrize("k,l", PARAMS)
def test_powerlaw_cdf_ppf_roundtrip(k: float, l: float) -> None:
    d = PowerLaw(k, l, loc=0.5, scale=2.0)
    x = np.array([-1e6, -50.0, -1.0, 0.2, 0.5, 3.0])
    np.testing.assert_allclose(d.ppf(d.cdf(x)), x, rtol=1e-10)
    xu = np.array([3.0, 50.0, 1e6])
    np.testing.assert_allclose(d.isf(d.sf(xu)), xu, rtol=1e-10)


def test_powerlaw_sampler_ks_and_variance() -> None:
    d = PowerLaw(6.0, 1.5)
    s = d.sample(100_000, rng=np.random.default_rng(7))
    assert stats.kstest(s, lambda x: np.asarray(d.cdf(x))).pvalue > 1e-3
    # reference variance l^{2/k} sin(pi/k)/sin(3 pi/k) vs mpmath second moment (quadrature of the reference)
    with mpmath.workdps(30):
        m2 = _quad(PowerLaw(6.0, 1.5), -mpmath.inf, mpmath.inf, weight=lambda z: z**2)
    assert d.variance() == pytest.approx(float(m2), rel=1e-12)
    assert np.var(s) == pytest.approx(d.variance(), rel=0.05)
    assert PowerLaw(3.0).variance() == math.inf and math.isnan(PowerLaw(2.0).mean())


@pytest.mark.parametrize("side", [1, -1])
def test_half_powerlaw_is_twice_h_on_its_half(side: int) -> None:
    h, hh = PowerLaw(3.0, 0.7), HalfPowerLaw(3.0, 0.7, side)
    z = side * np.array([0.1, 1.0, 9.0])
    np.testing.assert_allclose(hh.pdf(z), 2 * np.asarray(h.pdf(z)), rtol=1e-14)
    assert hh.pdf(-z[0]) == 0.0
    q = np.linspace(1e-9, 1 - 1e-9, 41)
    np.testing.assert_allclose(hh.cdf(hh.ppf(q)), q, rtol=1e-9, atol=1e-15)
    s = hh.sample(50_000, rng=5)
    assert np.all(side * s >= 0)
    assert stats.kstest(s, lambda x: np.asarray(hh.cdf(x))).pvalue > 1e-3
    # E Z = side E|Z|, for k = 3: side 2 l^{2/k-1}(pi/k)/sin(2pi/k) / C (quadrature of the mpmath reference h+-)
    with mpmath.workdps(30):
        ref = _quad(hh, -mpmath.inf, mpmath.inf, weight=lambda t: t)
    assert hh.mean() == pytest.approx(float(ref), rel=1e-12)


@pytest.mark.parametrize("side", [1, -1])
def test_half_powerlaw_boundary_point_follows_000_lemma_2(side: int) -> None:
    """000 Lemma 2: h+(z) = 2 h(z) for z >= 0, h-(z) = 0 for z >= 0, so at the boundary z = 0 (x = loc)
    h+(0) = 2 h(0) and h-(0) = 0; the core agrees with the reference there (and just inside)."""
    d = HalfPowerLaw(3.0, 0.7, side, loc=0.5, scale=2.0)
    ref = reference_for(d)
    inside = d.loc + side * 1e-9
    with mpmath.workdps(30):
        r0, r_in = ref.logpdf(d.loc), ref.logpdf(inside)
    if side == 1:
        assert d.pdf(d.loc) == pytest.approx(2 * PowerLaw(3.0, 0.7, loc=0.5, scale=2.0).pdf(0.5), rel=1e-14)
        assert d.logpdf(d.loc) == pytest.approx(float(r0), rel=1e-14)
    else:
        assert r0 == -mpmath.inf and d.logpdf(d.loc) == -math.inf and d.pdf(d.loc) == 0.0
    assert d.logpdf(inside) == pytest.approx(float(r_in), rel=1e-14)
    assert d.cdf(d.loc) == (0.0 if side == 1 else 1.0) and d.sf(d.loc) == (1.0 if side == 1 else 0.0)


def test_powerlaw_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="k must be > 1"):
        PowerLaw(1.0)
    with pytest.raises(ValueError, match="l must be in"):
        PowerLaw(3.0, 0.0)
    with pytest.raises(ValueError, match="side must be"):
        HalfPowerLaw(3.0, 1.0, side=2)
    with pytest.raises(ValueError, match="must not contain NaN"):
        PowerLaw(3.0).pdf(float("nan"))


@pytest.mark.parametrize("k", [3.0, 8.0])
def test_powerlaw_far_tail_ppf_cdf_roundtrip(k: float) -> None:
    # q down to 1e-300: the tail asymptotics (2/C) z^{1-k}/(k-1) take over where 1 - u underflows
    d = PowerLaw(k, 1.0)
    q = np.array([1e-300, 1e-240, 1e-100, 1e-9])
    np.testing.assert_allclose(d.cdf(d.ppf(q)), q, rtol=1e-12)
    np.testing.assert_allclose(d.sf(d.isf(q)), q, rtol=1e-12)
