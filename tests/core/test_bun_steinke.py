"""The Bun & Steinke (2019) families LLN, ULN and arsinh-normal against their independent references.

References: verify.reference.bun_steinke (mpmath quadrature of the conditional law given Y, written
from the defining variables X e^(sigma Y), U e^(sigma Y), sinh(sigma Y)/sigma) at 20 digits; scipy.integrate.quad
of the core pdf for normalisation and cdf/pdf consistency; a Kolmogorov-Smirnov test of 4000 draws (seed 20261128)
against the core cdf; moments from the definitions (Var LLN = 2 e^(2 sigma^2), Var ULN = e^(2 sigma^2)/3,
Var arsinh-normal = (e^(2 sigma^2) - 1)/(2 sigma^2)).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

from smoothsens_core.distributions import ArsinhNormal, LaplaceLogNormal, UniformLogNormal
from verify.reference import bun_steinke as ref

FAMILIES = [LaplaceLogNormal, UniformLogNormal, ArsinhNormal]
SIGMAS = [0.4, 1.3]
REFS = {
    LaplaceLogNormal: (ref.lln_pdf, ref.lln_sf),
    UniformLogNormal: (ref.uln_pdf, ref.uln_sf),
    ArsinhNormal: (ref.arsinh_normal_pdf, lambda z, s: 1 - ref.arsinh_normal_cdf(z, s)),
}


@pytest.mark.parametrize("cls", FAMILIES)
@pytest.mark.parametrize("sigma", SIGMAS)
def test_bun_steinke_pdf_integrates_to_one(cls, sigma):
    d = cls(sigma)
    half, err = integrate.quad(lambda x: float(d.pdf(x)), 0.0, np.inf, limit=400)
    assert abs(2 * half - 1) < 1e-8, (2 * half, err)


@pytest.mark.parametrize("cls", FAMILIES)
def test_bun_steinke_cdf_is_integral_of_pdf(cls):
    d = cls(0.8, loc=0.5, scale=2.0)
    for x in (-7.0, -1.0, 0.2, 0.5, 3.0, 40.0):
        mass, _ = integrate.quad(lambda y: float(d.pdf(y)), min(x, 0.5), max(x, 0.5), limit=200)
        expected = 0.5 + mass if x >= 0.5 else 0.5 - mass
        assert d.cdf(x) == pytest.approx(expected, rel=1e-9, abs=1e-12)
        assert d.sf(x) == pytest.approx(1 - expected, rel=1e-8, abs=1e-12)


@pytest.mark.parametrize(("cls", "sigma"), [(LaplaceLogNormal, 1.3), (UniformLogNormal, 0.4), (ArsinhNormal, 1.3)])
def test_bun_steinke_pdf_and_tail_match_mpmath_reference(cls, sigma):
    d = cls(sigma)
    pdf, sf = REFS[cls]
    with mpmath.workdps(20):
        for z in (0.0, 2.0, 1e4):
            assert d.pdf(z) == pytest.approx(float(pdf(z, sigma)), rel=1e-12)
            assert d.pdf(-z) == pytest.approx(float(pdf(z, sigma)), rel=1e-12)
            r = float(sf(z, sigma))
            if r > 1e-300:
                # ULN's closed tail is a difference of two Phi terms: ~3 digits lost at z = 1e4
                assert d.sf(z) == pytest.approx(r, rel=1e-11)


@pytest.mark.parametrize("cls", FAMILIES)
def test_bun_steinke_sampler_ks_against_cdf(cls):
    d = cls(0.7)
    draws = d.sample(4000, rng=np.random.default_rng(20261128))
    res = stats.kstest(draws, lambda x: np.asarray(d.cdf(x)))
    assert res.pvalue > 1e-3, res
    # a wrong shape is detected: the same draws against sigma = 1.4
    wrong = cls(1.4)
    assert stats.kstest(draws, lambda x: np.asarray(wrong.cdf(x))).pvalue < 1e-6


@pytest.mark.parametrize("cls", FAMILIES)
def test_bun_steinke_ppf_inverts_cdf(cls):
    d = cls(0.9, loc=-1.0, scale=0.5)
    q = np.array([1e-12, 1e-4, 0.1, 0.5, 0.77, 1 - 1e-6])
    np.testing.assert_allclose(d.cdf(d.ppf(q)), q, rtol=1e-9)


def test_bun_steinke_variances_from_the_definitions():
    s = 0.6
    assert LaplaceLogNormal(s).variance() == pytest.approx(2 * math.exp(2 * s * s), rel=1e-15)
    assert UniformLogNormal(s).variance() == pytest.approx(math.exp(2 * s * s) / 3, rel=1e-15)
    assert ArsinhNormal(s).variance() == pytest.approx(math.expm1(2 * s * s) / (2 * s * s), rel=1e-15)


@pytest.mark.parametrize("cls", FAMILIES)
def test_bun_steinke_score_is_derivative_of_logpdf(cls):
    d = cls(0.8)
    for z in (0.3, 1.7, 25.0):
        h = 1e-6 * max(1.0, z)
        fd = (d.logpdf(z + h) - d.logpdf(z - h)) / (2 * h)
        assert d.score(z) == pytest.approx(fd, rel=1e-6)


def test_arsinh_normal_score_breakpoints_are_turning_points():
    d = ArsinhNormal(0.8)
    pts = d.score_breakpoints()
    assert len(pts) == 2
    peak = [z for z in pts if abs(float(d._score_derivative(np.array(z)))) < 1e-9]
    zero = [z for z in pts if abs(1 + z * d.score(z)) < 1e-9]
    assert len(peak) == 1 and len(zero) == 1


@pytest.mark.parametrize("cls", FAMILIES)
@pytest.mark.parametrize("sigma", [0.0, -1.0, math.inf, math.nan])
def test_bun_steinke_rejects_invalid_sigma(cls, sigma):
    with pytest.raises(ValueError, match="sigma"):
        cls(sigma)


def _turning_points(values: np.ndarray, z: np.ndarray) -> list[float]:
    """The grid points where the discrete slope of ``values`` changes sign (brute-force sign scan)."""
    slope = np.sign(np.diff(values))
    idx = np.nonzero(slope[1:] * slope[:-1] < 0)[0] + 1
    return [float(z[i]) for i in idx]


@pytest.mark.parametrize("cls", [LaplaceLogNormal, UniformLogNormal])
@pytest.mark.parametrize("sigma", [0.4, 1.0, 1.7])
def test_log_normal_score_breakpoints_match_a_brute_force_sign_scan(cls, sigma):
    # the monotone pieces of |psi| and |1 + z psi| on a geometric grid of z > 0: every turning point the scan
    # finds is within one grid step of a breakpoint, and every breakpoint but the kink at 0 is found by the scan
    d = cls(sigma)
    z = np.geomspace(1e-4, 1e3, 3000)
    psi = np.asarray(d._score(z))
    turns = _turning_points(np.abs(psi), z) + _turning_points(np.abs(1.0 + z * psi), z)
    bps = [b for b in d.score_breakpoints() if b > 0]
    step = z[1] / z[0]
    assert turns, "the scan found no turning point"
    for tp in turns:
        assert any(b / step**2 <= tp <= b * step**2 for b in bps), (tp, bps)
    for b in bps:
        assert any(b / step**2 <= tp <= b * step**2 for tp in turns), (b, turns)


def test_laplace_log_normal_breakpoints_are_the_kink_and_the_zero_of_the_scale_term():
    d = LaplaceLogNormal(0.9)
    kink, z_star = d.score_breakpoints()
    assert kink == 0.0
    assert 1.0 + z_star * float(d._score(np.array([z_star]))[0]) == pytest.approx(0.0, abs=1e-10)
    # |psi| is nonincreasing on (0, inf) from e^(3 sigma^2/2) (Cauchy-Schwarz), the score_sup
    psi = np.abs(np.asarray(d._score(np.geomspace(1e-12, 1e3, 400))))
    assert np.all(np.diff(psi) <= 1e-12 * psi[0])
    assert psi[0] == pytest.approx(d.score_sup, rel=1e-9) and d.score_sup == pytest.approx(math.exp(1.5 * 0.81))


def test_uniform_log_normal_score_sup_against_mpmath_reference():
    # the reference score is the Leibniz derivative of the mpmath density (verify.reference.bun_steinke), 20 digits
    for sigma in (0.5, 1.3):
        d = UniformLogNormal(sigma)
        peak = max(d.score_breakpoints(), key=lambda b: abs(float(d._score(np.array([b]))[0])))
        with mpmath.workdps(20):
            assert d.score_sup == pytest.approx(abs(float(ref.uln_score(peak, sigma))), rel=1e-9)
    # sqrt(2/pi) e^(3 sigma^2/2)/sigma bounds sup |psi| for sigma >= sqrt(2/pi) (proven: the peak has c1 <= 0), not at
    # small sigma; the two cross near sigma = 0.5153 (brentq on this difference)
    def excess(sigma):
        return UniformLogNormal(sigma).score_sup - math.sqrt(2 / math.pi) * math.exp(1.5 * sigma**2) / sigma

    assert excess(0.3) > 0 and excess(0.5) > 0
    assert all(excess(s) < 0 for s in (0.52, 0.6, math.sqrt(2 / math.pi), 1.3, 3.0))


def test_arsinh_normal_score_sup_is_below_the_closed_bound():
    for sigma in (0.3, 2 / math.sqrt(3), 4.0):
        d = ArsinhNormal(sigma)
        grid = np.abs(np.asarray(d._score(np.geomspace(1e-6, 1e4, 20000))))
        assert grid.max() <= d.score_sup * (1 + 1e-9)
        assert d.score_sup <= (4 + 3 * sigma**2) / (6 * sigma)
