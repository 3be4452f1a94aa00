"""Tests of the 000 power-law noise h ∝ 1/(|z|^k + l) and its halves (distributions/powerlaw.py)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from smoothsens_core.distributions.powerlaw import HalfPowerLaw, PowerLaw, powerlaw_log_normaliser

PARAMS = [(1.5, 1.0), (2.0, 0.3), (3.0, 1.0), (4.0, 2.5), (7.0, 0.05)]


def _mp_cdf(k: float, l: float, x: float) -> mpmath.mpf:
    """Reference CDF: mpmath quadrature of 1/(|z|^k + l) normalised by its own integral (written from 000 Thm. 1)."""
    K, L = mpmath.mpf(k), mpmath.mpf(l)
    dens = lambda z: 1 / (abs(z) ** K + L)  # noqa: E731
    total = 2 * mpmath.quad(lambda z: 1 / (z**K + L), [0, 1, mpmath.inf])
    pts = [-mpmath.inf, x] if x <= 0 else [-mpmath.inf, 0, x]
    return mpmath.quad(dens, pts) / total


@pytest.mark.parametrize("k,l", PARAMS)
def test_powerlaw_normaliser_matches_mpmath(k: float, l: float) -> None:
    with mpmath.workdps(30):
        ref = 2 * mpmath.quad(lambda z: 1 / (z ** mpmath.mpf(k) + mpmath.mpf(l)), [0, 1, mpmath.inf])
    assert math.exp(powerlaw_log_normaliser(k, l)) == pytest.approx(float(ref), rel=1e-13)


@pytest.mark.parametrize("k,l", PARAMS[:4])
def test_powerlaw_cdf_matches_mpmath_quadrature(k: float, l: float) -> None:
    d = PowerLaw(k, l)
    with mpmath.workdps(30):
        for x in (-20.0, -0.4, 0.0, 1.3):
            ref = _mp_cdf(k, l, x)
            assert float(d.cdf(x)) == pytest.approx(float(ref), rel=1e-12)
        # upper tail computed directly (no 1 - cdf cancellation)
        ref_sf = 1 - _mp_cdf(k, l, 1e3)
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
    # reference variance l^{2/k} sin(pi/k)/sin(3 pi/k) vs mpmath second moment
    with mpmath.workdps(30):
        K, L = mpmath.mpf(6), mpmath.mpf("1.5")
        m2 = mpmath.quad(lambda z: z**2 / (z**K + L), [0, 1, mpmath.inf]) / mpmath.quad(lambda z: 1 / (z**K + L), [0, 1, mpmath.inf])
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
    # E|Z| for k = 3: 2 l^{2/k-1}(pi/k)/sin(2pi/k) / C (mpmath reference)
    with mpmath.workdps(30):
        K, L = mpmath.mpf(3), mpmath.mpf("0.7")
        ref = 2 * mpmath.quad(lambda t: t / (t**K + L), [0, 1, mpmath.inf]) / (2 * mpmath.quad(lambda t: 1 / (t**K + L), [0, 1, mpmath.inf]))
    assert hh.mean() == pytest.approx(side * float(ref), rel=1e-12)


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
