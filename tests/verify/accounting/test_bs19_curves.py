"""Certified delta(eps) curves of the Bun & Steinke families (uniform log-normal, arsinh-normal).

Reference numbers: an independent mpmath quadrature of H_eps(P || Q) = integral (p - e^eps q)_+ over the pair
P = S Z, Q = Delta + S r Z, written here from the densities and tails of :mod:`verify.reference.bun_steinke`
(arsinh-normal: phi(v)/sqrt(1 + s^2 z^2) and Phi(v), v = arsinh(s z)/s; uniform log-normal: the y-integrals of its
definition Z = U e^(s Y), evaluated by mpmath.quad): the roots of ln p - ln q - eps are bracketed by a sign scan
on y = Delta/2 + sinh(t) (t on a uniform grid to asinh(1e8); the scan uses the core's binary64 log-density to
locate sign changes, each root is then found by mpmath.findroot on the reference densities -- for the uniform
log-normal, whose reference density is a quadrature per point, by brentq on the binary64 loss, which moves H only
to second order), and H is the sum of
P(I) - e^eps Q(I) over the intervals I between roots where the loss exceeds eps, masses from the reference tails.
The certified enclosure must contain that value (to the quadrature's own accuracy, 1e-12 relative, far below the
gaps the test would reveal).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
import numpy as np
import pytest
from scipy import optimize

from smoothsens_core.distributions import ArsinhNormal, UniformLogNormal
from verify.accounting import PrivacyCurve
from verify.accounting.ballforms import output_law
from verify.accounting.bs19_curves import LLN_REASON, ArsinhNormalBall, UniformLogNormalBall
from verify.audit.exact.enclosure import hockey_stick_enclosure
from verify.reference import bun_steinke as ref

flint = pytest.importorskip("flint")
arb = flint.arb

_QUAD_RTOL = 1e-12


class _RefLaw:
    """A + S Z with the reference density h and upper tail sf_pos (u >= 0) of a symmetric family (mpmath)."""

    def __init__(self, h: Callable[[Any], Any], sf_pos: Callable[[Any], Any], A: float, S: float) -> None:
        self.h, self.sf_pos, self.A, self.S = h, sf_pos, mpmath.mpf(A), mpmath.mpf(S)

    def logpdf(self, y: Any) -> Any:
        return mpmath.log(self.h((y - self.A) / self.S) / self.S)

    def cdf(self, y: Any) -> Any:
        if y == mpmath.inf:
            return mpmath.mpf(1)
        if y == -mpmath.inf:
            return mpmath.mpf(0)
        z = (y - self.A) / self.S
        return 1 - self.sf_pos(z) if z >= 0 else self.sf_pos(-z)

    def mass(self, a: Any, b: Any) -> Any:
        return self.cdf(b) - self.cdf(a)


def _quad_delta(P: _RefLaw, Q: _RefLaw, eps: float, scan: Callable[[np.ndarray], np.ndarray], centre: float,
                refine: bool = True) -> Any:
    """H_eps(P || Q) by root bracketing (``scan``: a vectorised binary64 loss minus eps, used to find sign changes
    and, by brentq, the roots), refined by mpmath.findroot on the reference loss when ``refine``, and reference
    masses (module docstring).  Without refinement a root is off by ~1e-12 relative; H depends on a root only
    to second order (the integrand p - e^eps q vanishes there), so the value moves by ~1e-24."""
    with mpmath.workdps(25):
        e = mpmath.mpf(eps)

        def g(y: Any) -> Any:
            return P.logpdf(y) - Q.logpdf(y) - e

        t = np.linspace(-math.asinh(1e8), math.asinh(1e8), 4001)
        ys = centre + np.sinh(t)
        vals = scan(ys)
        roots = []
        for i in range(len(ys) - 1):
            if (vals[i] > 0) != (vals[i + 1] > 0):
                if refine:
                    root = mpmath.findroot(g, (mpmath.mpf(ys[i]), mpmath.mpf(ys[i + 1])), solver="anderson")
                else:
                    root = mpmath.mpf(optimize.brentq(lambda x: float(scan(np.array([x]))[0]), ys[i], ys[i + 1],
                                                      xtol=1e-15, rtol=1e-15))
                roots.append(root)
        pts = [-mpmath.inf, *roots, mpmath.inf]
        total = mpmath.mpf(0)
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            if mpmath.isfinite(a) and mpmath.isfinite(b):
                mid = (a + b) / 2
            else:
                mid = b - 1 if mpmath.isfinite(b) else (a + 1 if mpmath.isfinite(a) else mpmath.mpf(0))
            if g(mid) > 0:
                total += P.mass(a, b) - mpmath.exp(e) * Q.mass(a, b)
        return total


def _arsinh_laws(sigma: float, S: float, d: float, r: float) -> tuple[_RefLaw, _RefLaw]:
    def h(z: Any) -> Any:
        return ref.arsinh_normal_pdf(z, sigma)

    def sf(u: Any) -> Any:
        return 1 - ref.arsinh_normal_cdf(u, sigma)

    return _RefLaw(h, sf, 0.0, S), _RefLaw(h, sf, d, S * r)


def _uln_laws(sigma: float, S: float, d: float, r: float) -> tuple[_RefLaw, _RefLaw]:
    def h(z: Any) -> Any:
        return ref.uln_pdf(z, sigma)

    def sf(u: Any) -> Any:
        return ref.uln_sf(u, sigma)

    return _RefLaw(h, sf, 0.0, S), _RefLaw(h, sf, d, S * r)


def _scan(noise_p: Any, noise_q: Any, eps: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda y: np.asarray(noise_p.logpdf(y), dtype=float) - np.asarray(noise_q.logpdf(y), dtype=float) - eps


def _contains(enc: Any, truth: Any) -> bool:
    slack = _QUAD_RTOL * abs(truth)
    return mpmath.mpf(enc.lower) - slack <= truth <= mpmath.mpf(enc.upper) + slack


@pytest.mark.parametrize("sigma,S,d,r,eps", [(0.5, 1.5, 1.0, 1.2, 0.5), (1.0, 2.0, 1.0, 1.0, 0.2)])
def test_arsinh_normal_curve_contains_quadrature(sigma: float, S: float, d: float, r: float, eps: float) -> None:
    curve = PrivacyCurve.arsinh_normal(sigma, S, d, r)
    enc = curve.delta(eps)
    assert enc.certified
    P, Q = _arsinh_laws(sigma, S, d, r)
    np_, nq = ArsinhNormal(sigma, scale=S), ArsinhNormal(sigma, loc=d, scale=S * r)
    truths = [_quad_delta(P, Q, eps, _scan(np_, nq, eps), d / 2), _quad_delta(Q, P, eps, _scan(nq, np_, eps), d / 2)]
    # each orientation separately, and the curve as their maximum
    for (A, B), truth in zip(((np_, nq), (nq, np_)), truths, strict=True):
        one = hockey_stick_enclosure(output_law(A, 0.0, 1.0), output_law(B, 0.0, 1.0), eps)
        assert one.certified and _contains(one, truth), (one.describe(), truth)
        if truth > 1e-6:
            assert one.relative_width() < 1e-10
    truth = max(truths)
    assert truth > 1e-3  # a nontrivial point
    assert _contains(enc, truth), (enc.describe(), truth)


def test_uniform_lognormal_curve_contains_quadrature() -> None:
    sigma, S, d, r, eps = 1.0, 2.0, 1.0, 1.1, 0.5
    curve = PrivacyCurve.uniform_lognormal(sigma, S, d, r)
    enc = curve.delta(eps)
    assert enc.certified
    P, Q = _uln_laws(sigma, S, d, r)
    np_, nq = UniformLogNormal(sigma, scale=S), UniformLogNormal(sigma, loc=d, scale=S * r)
    # the reference density is an mpmath.quad per point: roots from the binary64 loss (second order, docstring)
    truth = max(_quad_delta(P, Q, eps, _scan(np_, nq, eps), d / 2, refine=False),
                _quad_delta(Q, P, eps, _scan(nq, np_, eps), d / 2, refine=False))
    assert truth > 1e-3
    assert _contains(enc, truth), (enc.describe(), truth)
    assert enc.relative_width() < 1e-10


def test_ball_tails_match_reference() -> None:
    """The ball tails against the reference tails (ULN: mpmath quadrature of its definition) at a few points."""
    with mpmath.workdps(25):
        for u in (0.0, 0.3, 1.0, 7.5, 200.0):
            b = UniformLogNormalBall(1.3).sf_pos(arb(u))
            t = ref.uln_sf(u, 1.3)
            assert mpmath.mpf(float(b.lower())) * (1 - 1e-14) <= t <= mpmath.mpf(float(b.upper())) * (1 + 1e-14)
            b = ArsinhNormalBall(0.7).sf_pos(arb(u))
            t = ref.arsinh_normal_cdf(-u, 0.7)  # P(Z > u) = P(Z < -u), no cancellation
            assert mpmath.mpf(float(b.lower())) * (1 - 1e-14) <= t <= mpmath.mpf(float(b.upper())) * (1 + 1e-14)
        # scores against the reference scores (ULN: Leibniz rule on the y-integral; arsinh: numerical derivative)
        for z in (-3.0, 0.2, 2.5):
            s = UniformLogNormalBall(1.3).score(arb(z))
            assert abs(float(s.mid()) - float(ref.uln_score(z, 1.3))) <= 1e-12 * (1 + abs(float(s.mid())))
            s = ArsinhNormalBall(0.7).score(arb(z))
            assert abs(float(s.mid()) - float(ref.arsinh_normal_score(z, 0.7))) <= 1e-10 * (1 + abs(float(s.mid())))


def test_uniform_lognormal_score_undefined_on_a_ball_across_zero() -> None:
    assert not UniformLogNormalBall(1.0).score(arb(0, 0.1)).is_finite()


def test_laplace_lognormal_not_certified() -> None:
    curve = PrivacyCurve.laplace_lognormal(1.0, 2.0)
    enc = curve.delta(0.5)
    assert not enc.certified and enc.upper == math.inf and enc.reason == LLN_REASON
    assert enc.decide(0.5) == "inconclusive"
    assert not curve.epsilon(1e-3).certified


def test_parse_and_label_round_trip() -> None:
    c = PrivacyCurve.parse("uniform_lognormal:sigma=1,scale=2,ratio=1.1")
    assert c == PrivacyCurve.uniform_lognormal(1.0, 2.0, 1.0, 1.1)
    assert PrivacyCurve.parse(c.label()) == c
    a = PrivacyCurve.parse("arsinh:sigma=0.5,b=1.5,sensitivity=2")
    assert a == PrivacyCurve.arsinh_normal(0.5, 1.5, 2.0)
    assert PrivacyCurve.parse("lln:sigma=1,scale=1").family == "laplace_lognormal"
    with pytest.raises(ValueError, match="scale"):
        PrivacyCurve.parse("uniform_lognormal:sigma=1")
    with pytest.raises(ValueError, match="sigma"):
        PrivacyCurve.uniform_lognormal(-1.0, 1.0)
