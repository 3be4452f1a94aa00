"""Rényi divergences, their certified enclosures, the CKS conversions and the RdpCurve.

References: the Gaussian closed form alpha Delta^2/(2 sigma^2) (Mironov 2017, Prop. 7); for a scale change,
D_alpha(N(0,1) || N(m, c^2)) = ln c + ln(c^2/s2)/(2(alpha-1)) + alpha m^2/(2 s2), s2 = alpha c^2 + 1 - alpha
(completing the square; cross-checked here by 30-digit mpmath quadrature); the Laplace closed form
(Mironov 2017, Prop. 6) against 40-digit mpmath quadrature of integral p^alpha q^(1-alpha) (densities from
verify.reference.distributions); the arsinh-normal
enclosure against 30-digit mpmath quadrature of the density of verify.reference.bun_steinke; the exact Gaussian
delta(eps) of Balle & Wang 2018, Thm. 8, in 50-digit mpmath.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from scipy import integrate

from smoothsens_core.distributions import (
    ArsinhNormal,
    Gaussian,
    LaplaceLogNormal,
    PolyPlace,
    StudentT,
    UniformLogNormal,
)
from verify.accounting.renyi import (
    DEFAULT_ORDERS,
    RdpCurve,
    rdp_of_pair,
    rdp_to_delta,
    rdp_to_epsilon,
    renyi_gaussian,
    renyi_laplace,
    renyi_pair_enclosure,
    zcdp_rho_upper,
    zcdp_to_delta,
)
from verify.reference.bun_steinke import arsinh_normal_pdf
from verify.reference.distributions import laplace_pdf, reference_for

FAST = {"rel_tol": 1e-7, "max_cells": 1500, "initial_cells": 200}


def _gaussian_scale_change(alpha, m, c):
    s2 = alpha * c * c + 1 - alpha
    return math.log(c) + math.log(c * c / s2) / (2 * (alpha - 1)) + alpha * m * m / (2 * s2)


@pytest.mark.parametrize(("alpha", "shift"), [(2.0, 1.0), (8.0, 0.5)])
def test_gaussian_rdp_closed_form_inside_certified_enclosure(alpha, shift):
    enc = renyi_pair_enclosure(Gaussian(), alpha, shift=shift, **FAST)
    exact = renyi_gaussian(alpha, shift, 1.0)
    assert enc.certified, enc.reason
    assert enc.lower <= exact <= enc.upper
    assert enc.upper - enc.lower < 1e-5 * exact


def test_gaussian_scale_change_inside_enclosure_and_matches_quadrature():
    alpha, m, c = 3.0, 0.3, 1.1
    exact = _gaussian_scale_change(alpha, m, c)
    with mpmath.workdps(30):
        def f(y):
            p = mpmath.npdf(y)
            q = mpmath.npdf(y, m, c)
            return p**alpha * q ** (1 - alpha)
        quad = mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, mpmath.inf])) / (alpha - 1)
    assert float(quad) == pytest.approx(exact, rel=1e-13)
    enc = renyi_pair_enclosure(Gaussian(), alpha, shift=m, scale_ratio=c, **FAST)
    assert enc.certified and enc.lower <= exact <= enc.upper


def test_gaussian_enclosure_detects_a_wrong_value():
    # a control: the enclosure is narrow enough to exclude a 1e-4 relative error
    enc = renyi_pair_enclosure(Gaussian(), 2.0, shift=1.0, **FAST)
    assert not (enc.lower <= 1.0001 <= enc.upper)


@pytest.mark.parametrize(("alpha", "t"), [(1.5, 0.5), (4.0, 2.0), (40.0, 1.0)])
def test_laplace_closed_form_matches_quadrature(alpha, t):
    with mpmath.workdps(40):
        def f(y):
            return laplace_pdf(y) ** alpha * laplace_pdf(y, loc=t) ** (1 - alpha)
        quad = mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, t, mpmath.inf])) / (alpha - 1)
    assert renyi_laplace(alpha, t, 1.0) == pytest.approx(float(quad), rel=1e-12)
    assert renyi_laplace(alpha, t, 1.0) <= t  # eps-DP with eps = t bounds every order


def test_arsinh_normal_enclosure_contains_quadrature():
    sigma, alpha, m, c = 0.5, 4.0, 0.5, math.exp(-0.1)
    enc = renyi_pair_enclosure(ArsinhNormal(sigma), alpha, shift=m, scale_ratio=c, rel_tol=1e-6, max_cells=700)
    assert enc.certified, enc.reason
    with mpmath.workdps(30):
        def f(y):
            return arsinh_normal_pdf(y, sigma) ** alpha * (arsinh_normal_pdf((y - m) / c, sigma) / c) ** (1 - alpha)
        quad = float(mpmath.log(mpmath.quad(f, [-mpmath.inf, -10, -1, 0, 1, 10, mpmath.inf])) / (alpha - 1))
    assert enc.lower <= quad <= enc.upper
    assert enc.upper - enc.lower < 1e-5


def test_uniform_log_normal_enclosure_contains_quadrature():
    # reference: scipy quad of the core ULN density (itself checked against the mpmath reference in
    # tests/core/test_bun_steinke.py); the enclosure uses the separate ball form of verify.accounting.renyi
    alpha, m, c, sigma = 2.0, 0.5, math.exp(0.1), 0.5
    d = UniformLogNormal(sigma)
    enc = renyi_pair_enclosure(d, alpha, shift=m, scale_ratio=c, rel_tol=1e-6, max_cells=700)
    assert enc.certified, enc.reason

    def f(y):
        return float(d.pdf(y)) ** alpha * (float(d.pdf((y - m) / c)) / c) ** (1 - alpha)
    total = sum(integrate.quad(f, a, b, limit=400, epsabs=0, epsrel=1e-12)[0]
                for a, b in ((-np.inf, -1), (-1, 0), (0, m), (m, 1), (1, np.inf)))
    quad = math.log(total) / (alpha - 1)
    assert enc.lower - 1e-9 <= quad <= enc.upper + 1e-9


@pytest.mark.parametrize("noise", [LaplaceLogNormal(0.5)])
def test_family_without_ball_form_is_not_certified(noise):
    enc = renyi_pair_enclosure(noise, 2.0, shift=1.0)
    assert not enc.certified and enc.upper == math.inf
    assert type(noise).__name__ in enc.reason


def _balle_wang_delta(eps, sigma, sens=1.0):
    with mpmath.workdps(50):
        a = mpmath.mpf(sens) / (2 * sigma)
        b = mpmath.mpf(eps) * sigma / sens
        return mpmath.ncdf(a - b) - mpmath.exp(eps) * mpmath.ncdf(-a - b)


@pytest.mark.parametrize("sigma", [0.5, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_cks_conversion_is_above_exact_gaussian_delta(sigma, eps):
    exact = _balle_wang_delta(eps, sigma)
    curve = RdpCurve.gaussian(sigma)
    assert curve.delta(eps) >= exact
    d_z, _ = zcdp_to_delta(1 / (2 * sigma * sigma), eps)
    assert d_z >= exact
    # the infimum over all alpha is at most the value on the curve's grid
    assert d_z <= curve.delta(eps) * (1 + 1e-12)


def test_cks_conversion_is_not_vacuous():
    # sigma = 3: exact delta(1) = 2.0751e-4 (Balle-Wang, 50-digit mpmath); the CKS zCDP bound, 7.024e-4 when
    # this test was written, is within a factor 4 of it
    exact = float(_balle_wang_delta(1.0, 3.0))
    assert exact == pytest.approx(2.0751220205e-4, rel=1e-9)
    assert exact <= zcdp_to_delta(1 / 18, 1.0)[0] < 4 * exact


def test_rdp_to_epsilon_inverts_rdp_to_delta():
    curve = RdpCurve.gaussian(2.0)
    eps = curve.epsilon(1e-6)
    d, _ = rdp_to_delta(curve.orders, curve.taus, eps)
    assert d <= 1e-6 * (1 + 1e-9)
    assert rdp_to_delta(curve.orders, curve.taus, eps * 0.99)[0] > 1e-6


def test_rdp_composition_is_additive():
    one = RdpCurve.gaussian(2.0)
    ten = one.times(10)
    composed = one
    for _ in range(9):
        composed = composed + one
    # 10 Gaussians of sigma are one of sigma / sqrt(10) (Mironov 2017, Prop. 1 and Prop. 7)
    merged = RdpCurve.gaussian(2.0 / math.sqrt(10))
    for a, t1, t2, t3 in zip(ten.orders, ten.taus, composed.taus, merged.taus, strict=True):
        assert t1 >= t3 and t2 >= t3
        assert t1 == pytest.approx(t3, rel=1e-12) and t2 == pytest.approx(t3, rel=1e-12), a
    assert composed.certified


def test_zcdp_rho_upper_is_above_the_sup_and_laplace_has_finite_rho():
    b = 1.0
    curve = RdpCurve.laplace(b)
    rho, a_max = curve.rho(pure_eps=1.0 / b)
    assert a_max == math.inf
    fine = max(renyi_laplace(1 + 10 ** k, 1.0, b) / (1 + 10 ** k) for k in [x / 50 for x in range(-150, 200)])
    assert rho >= fine
    assert rho <= 0.5  # eps-DP gives eps^2/2-zCDP (Bun & Steinke 2016, Prop. 1.4)
    rho_g, a_g = zcdp_rho_upper(DEFAULT_ORDERS, [renyi_gaussian(a, 1.0, 1.0) for a in DEFAULT_ORDERS])
    assert a_g == DEFAULT_ORDERS[-1] and rho_g >= 0.5


@pytest.mark.parametrize(("call", "name"), [
    (lambda: renyi_gaussian(1.0, 1.0, 1.0), "alpha"),
    (lambda: renyi_gaussian(2.0, 1.0, 0.0), "sigma"),
    (lambda: renyi_laplace(2.0, -1.0, 1.0), "sensitivity"),
    (lambda: renyi_pair_enclosure(Gaussian(), 2.0, shift=1.0, scale_ratio=0.0), "scale_ratio"),
    (lambda: renyi_pair_enclosure(Gaussian(), 0.5, shift=1.0), "alpha"),
    (lambda: rdp_to_delta([2.0], [0.1], -1.0), "eps"),
    (lambda: rdp_to_epsilon([2.0], [0.1], 1.0), "delta"),
    (lambda: zcdp_to_delta(0.0, 1.0), "rho"),
    (lambda: RdpCurve.gaussian(1.0).times(0), "k"),
    (lambda: RdpCurve((2.0,), (-1.0,)), "taus"),
])
def test_invalid_input_raises_naming_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def _mp_renyi(noise, alpha, m, c, breaks):
    """D_alpha(Z || cZ + m) by 30-digit mpmath quadrature of h^alpha (h((y - m)/c)/c)^(1 - alpha), h the density of
    verify.reference.distributions (written from the papers), split at the kinks ``breaks``."""
    ref = reference_for(noise)
    with mpmath.workdps(30):
        def f(y):
            return mpmath.exp(alpha * ref.logpdf(y) + (1 - alpha) * (ref.logpdf((y - m) / c) - mpmath.log(c)))
        pts = sorted({-mpmath.inf, mpmath.inf, *[mpmath.mpf(b) for b in breaks]})
        return float(mpmath.log(mpmath.quad(f, pts)) / (alpha - 1))


LIGHT = {"rel_tol": 1e-6, "max_cells": 700, "initial_cells": 120}


@pytest.mark.parametrize("noise,m,c,breaks", [
    (StudentT(3.0), 0.5, 1.1, (-10, -1, 0, 0.5, 1, 10)),
    (PolyPlace(1.0, 3.0), 0.5, 1.2, (-10, -1, -1 / 3, 0, 1 / 3, 0.5, 0.1, 0.9, 1, 10)),
], ids=["student_t", "polyplace"])
def test_smooth_family_divergence_encloses_quadrature(noise, m, c, breaks):
    enc = renyi_pair_enclosure(noise, 2.0, shift=m, scale_ratio=c, **LIGHT)
    assert enc.certified, enc.reason
    quad = _mp_renyi(noise, 2.0, m, c, breaks)
    assert enc.lower <= quad <= enc.upper
    assert enc.upper - enc.lower < 1e-3 * quad


def test_rdp_of_pair_takes_both_orientations_and_reports_a_family_without_route():
    curve = rdp_of_pair(StudentT(3.0), shift=0.5, scale_ratio=1.1, orders=(2.0,), **LIGHT)
    fwd = renyi_pair_enclosure(StudentT(3.0), 2.0, shift=0.5, scale_ratio=1.1, **LIGHT)
    assert curve.certified and curve.taus[0] >= fwd.upper
    lln = rdp_of_pair(LaplaceLogNormal(0.5), shift=0.5, orders=(2.0,))
    assert not lln.certified and lln.taus[0] == math.inf and "LaplaceLogNormal" in lln.label
