"""PrivacyCurve: the certified enclosures of delta(eps) contain 50-digit mpmath references, eps(delta) brackets
the truth, bad parameters raise ValueError naming the parameter.

References (all in mpmath at 50 digits, written from the definition H_eps = sum/integral (p - e^eps q)_+,
never from verify.accounting):
* Gaussian: Balle & Wang 2018, Thm. 8 (verify.audit.exact.curve.gaussian_delta_balle_wang).
* Laplace: tanh-sinh quadrature of (p - e^eps q)_+ with p, q the Laplace densities of
  verify.reference.distributions, split at 0, Delta and the root y* = (Delta - eps b)/2 of the loss minus eps.
* Discrete Laplace: the direct sum over k in [-400, 400] of (P(k) - e^eps Q(k))_+ (the tail beyond is < 1e-40 for
  the scales used).
* GenCauchy / Student t: the roots of ln p - ln q - eps found by a sign scan and mpmath.findroot, and
  P(S) - e^eps Q(S) over the excess set S from the reference tails (verify.reference.distributions).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core.distributions import GenCauchy, Laplace, StudentT
from verify.accounting import PrivacyCurve
from verify.audit.exact.curve import gaussian_delta_balle_wang
from verify.audit.exact.enclosure import ball_law, hockey_stick_enclosure
from verify.reference.distributions import laplace_pdf, reference_for

DPS = 50


def _laplace_truth(eps: float, b: float, sens: float) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        e, B, D = mpmath.mpf(eps), mpmath.mpf(b), mpmath.mpf(sens)
        if e >= D / B:
            return mpmath.mpf(0)
        ystar = (D - e * B) / 2

        def g(y: mpmath.mpf) -> mpmath.mpf:
            return max(laplace_pdf(y, 0, B) - mpmath.exp(e) * laplace_pdf(y, D, B), mpmath.mpf(0))

        return mpmath.quad(g, [-mpmath.inf, 0, ystar, D, mpmath.inf])


def _discrete_laplace_truth(eps: float, b: float, sens: int) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        r = mpmath.exp(-1 / mpmath.mpf(b))
        c = (1 - r) / (1 + r)
        et = mpmath.exp(mpmath.mpf(eps))
        return mpmath.fsum(max(c * r ** abs(k) - et * c * r ** abs(k - sens), 0) for k in range(-400, 401))


def _generic_truth(noise_p: object, noise_q: object, eps: float, lo: float, hi: float) -> mpmath.mpf:
    """H_eps(P || Q) from the mpmath references: roots of the loss minus eps on [lo, hi] (sign scan on 601
    points y = sinh(t), t uniform, then findroot), the excess set as intervals, masses from the reference tails.
    Outside [lo, hi] the loss minus eps must keep the sign it has at the ends (the callers' windows reach
    |y| = 1e5, where the loss is within 1e-9 of its limit at infinity)."""
    P, Q = reference_for(noise_p), reference_for(noise_q)
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps)

        def g(y: mpmath.mpf) -> mpmath.mpf:
            return P.logpdf(y) - Q.logpdf(y) - e

        ys = [mpmath.sinh(t) for t in mpmath.linspace(mpmath.asinh(lo), mpmath.asinh(hi), 601)]
        vals = [g(y) for y in ys]
        roots = [mpmath.findroot(g, (ys[i], ys[i + 1]), solver="anderson")
                 for i in range(len(ys) - 1) if (vals[i] > 0) != (vals[i + 1] > 0)]
        pts = [-mpmath.inf, *roots, mpmath.inf]
        total = mpmath.mpf(0)
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            mid = (a + b) / 2 if mpmath.isfinite(a) and mpmath.isfinite(b) else (b - 1 if mpmath.isfinite(b) else a + 1)
            if g(mid) > 0:
                total += P.interval_mass(a, b) - mpmath.exp(e) * Q.interval_mass(a, b)
        return total


def _contains(enc: object, truth: mpmath.mpf) -> bool:
    with mpmath.workdps(DPS):
        return bool(mpmath.mpf(enc.lower) <= truth <= mpmath.mpf(enc.upper))  # type: ignore[attr-defined]


@pytest.mark.parametrize("sigma,sens,eps", [(1.0, 1.0, 0.0), (1.0, 1.0, 1.0), (2.0, 1.0, 0.5), (0.5, 1.0, 5.0),
                                            (1.0, 1.0, 20.0), (3.0, 2.5, 2.0)])
def test_gaussian_enclosure_contains_balle_wang(sigma: float, sens: float, eps: float) -> None:
    enc = PrivacyCurve.gaussian(sigma, sens).delta(eps)
    truth = gaussian_delta_balle_wang(eps, sigma, sens, dps=DPS)
    assert enc.certified and _contains(enc, truth)
    assert enc.relative_width() <= 1e-12


@pytest.mark.parametrize("b,sens,eps", [(1.0, 1.0, 0.0), (1.0, 1.0, 0.5), (0.7, 1.3, 1.0), (2.0, 1.0, 0.3),
                                        (1.0, 1.0, 1.0 - 1e-12), (1.0, 1.0, 1.5)])
def test_laplace_enclosure_contains_quadrature(b: float, sens: float, eps: float) -> None:
    enc = PrivacyCurve.laplace(b, sens).delta(eps)
    truth = _laplace_truth(eps, b, sens)
    assert enc.certified and _contains(enc, truth)
    if truth > 0:
        assert enc.relative_width() <= 1e-6


def test_laplace_delta_just_below_the_largest_loss_is_tiny_and_enclosed() -> None:
    eps = math.nextafter(1.0, 0.0)  # the largest loss is Delta/b = 1: delta = 1 - e^(-2^-54) ~ 5.6e-17
    enc = PrivacyCurve.laplace(1.0, 1.0).delta(eps)
    truth = _laplace_truth(eps, 1.0, 1.0)
    assert 1e-17 < truth < 1e-16 and _contains(enc, truth)
    assert enc.relative_width() <= 1e-6


def test_laplace_closed_form_agrees_with_hockey_stick_enclosure() -> None:
    noise = Laplace()
    for eps in (0.1, 0.6, 0.95):
        closed = PrivacyCurve.laplace(1.0, 1.0).delta(eps)
        generic = hockey_stick_enclosure(ball_law(noise, 0.0, 1.0), ball_law(noise, 1.0, 1.0), eps)
        assert closed.lower <= generic.upper and generic.lower <= closed.upper


@pytest.mark.parametrize("b,sens,eps", [(1.0, 1, 0.0), (1.0, 1, 0.5), (2.0, 3, 0.3), (2.0, 3, 1.4),
                                        (0.5, 2, 3.9), (1.0, 1, 1.0 - 1e-9), (1.0, 1, 2.0)])
def test_discrete_laplace_enclosure_contains_direct_sum(b: float, sens: int, eps: float) -> None:
    enc = PrivacyCurve.discrete_laplace(b, sens).delta(eps)
    truth = _discrete_laplace_truth(eps, b, sens)
    assert enc.certified and _contains(enc, truth)
    if truth > 1e-300:
        assert enc.relative_width() <= 1e-6


def test_student_t_enclosure_contains_reference() -> None:
    curve = PrivacyCurve.student_t(3.0, 1.0, 1.0)
    for eps in (0.3, 1.0):
        enc = curve.delta(eps)
        truth = _generic_truth(StudentT(3.0), StudentT(3.0, loc=1.0), eps, -1e5, 1e5)
        assert enc.certified and _contains(enc, truth)
        assert enc.relative_width() <= 1e-6


def test_gencauchy_declared_pair_with_dilation_takes_the_worse_direction() -> None:
    curve = PrivacyCurve.gencauchy(4.0, 1.0, 1.0, sensitivity=1.0, ratio=1.2)
    eps = 0.5
    enc = curve.delta(eps)
    p, q = GenCauchy(4.0, 1.0), GenCauchy(4.0, 1.0, loc=1.0, scale=1.2)
    t_pq = _generic_truth(p, q, eps, -1e5, 1e5)
    t_qp = _generic_truth(q, p, eps, -1e5, 1e5)
    assert t_pq != t_qp
    assert enc.certified and _contains(enc, max(t_pq, t_qp))


def test_gaussian_epsilon_brackets_the_root_of_balle_wang() -> None:
    curve = PrivacyCurve.gaussian(2.0, 1.0)
    for delta in (1e-3, 1e-9):
        iv = curve.epsilon(delta)
        with mpmath.workdps(DPS):
            root = mpmath.findroot(lambda e, d=delta: gaussian_delta_balle_wang(e, 2.0, 1.0, dps=DPS) - d,
                                   (iv.lower - 0.01, iv.upper + 0.01), solver="anderson")
            assert iv.certified and mpmath.mpf(iv.lower) <= root <= mpmath.mpf(iv.upper)
        assert iv.upper - iv.lower <= 1e-8 * max(1.0, iv.upper)
        assert curve.delta(iv.upper).upper <= delta < curve.delta(iv.lower).lower


def test_laplace_epsilon_brackets_the_closed_form() -> None:
    # delta = 1 - e^((eps - a)/2)  <=>  eps = a + 2 ln(1 - delta)
    curve = PrivacyCurve.laplace(0.5, 1.0)
    for delta in (0.3, 1e-6):
        iv = curve.epsilon(delta)
        with mpmath.workdps(DPS):
            truth = 2 + 2 * mpmath.log(1 - mpmath.mpf(delta))
            assert mpmath.mpf(iv.lower) <= truth <= mpmath.mpf(iv.upper)
    assert curve.epsilon(0.0).upper <= 2.0 + 1e-8     # delta(eps) = 0 from the largest loss a = 2 on


@pytest.mark.parametrize("make,name", [
    (lambda: PrivacyCurve.gaussian(-1.0), "scale"),
    (lambda: PrivacyCurve.gaussian(1.0, 0.0), "sensitivity"),
    (lambda: PrivacyCurve.laplace(float("nan")), "scale"),
    (lambda: PrivacyCurve.discrete_laplace(1.0, 0), "sensitivity"),
    (lambda: PrivacyCurve("gaussian", 1.0, 1.0, (), 2.0), "ratio"),
    (lambda: PrivacyCurve("cauchy", 1.0), "family"),
    (lambda: PrivacyCurve.gencauchy(1.0, 0.5, 1.0), "p*theta"),
    (lambda: PrivacyCurve.student_t(-3.0, 1.0), "nu"),
    (lambda: PrivacyCurve.gaussian(1.0).delta(-0.5), "eps"),
    (lambda: PrivacyCurve.gaussian(1.0).epsilon(1.5), "delta"),
    (lambda: PrivacyCurve.parse("gaussian:sensitivity=1"), "scale"),
    (lambda: PrivacyCurve.parse("laplace:b=1,foo=2"), "foo"),
])
def test_invalid_parameters_raise_value_error_naming_them(make: object, name: str) -> None:
    with pytest.raises(ValueError, match=name.replace("*", r"\*")):
        make()  # type: ignore[operator]


def test_parse_round_trips_label() -> None:
    for spec in ("gaussian:sigma=2,sensitivity=1", "discrete_laplace:b=2,sensitivity=3", "student_t:nu=3,scale=1.5",
                 "gencauchy:p=4,theta=1,scale=1,ratio=1.1"):
        c = PrivacyCurve.parse(spec)
        assert PrivacyCurve.parse(c.label()) == c


@pytest.mark.parametrize("curve", [PrivacyCurve.gaussian(1.0), PrivacyCurve.laplace(1 / 3),
                                   PrivacyCurve.discrete_laplace(0.5), PrivacyCurve.discrete_laplace(2.0, 3)],
                         ids=lambda c: c.label())
def test_deltas_of_a_closed_form_enclose_each_points_enclosure(curve):
    # the grid path rounds the same balls outwards without an exactness test: never inside delta()'s ends;
    # eps = Delta/b is where the discrete and continuous Laplace curves reach exactly 0
    grid = np.concatenate([np.linspace(0.0, 10.0, 41), [2.0, 1.5, 3.0]])
    lo, hi = curve.deltas(grid)
    for e, lo_e, hi_e in zip(grid, lo, hi, strict=True):
        enc = curve.delta(float(e))
        assert lo_e <= enc.lower and enc.upper <= hi_e
        assert hi_e > 0 or enc.upper == 0
