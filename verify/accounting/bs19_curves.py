"""Ball-arithmetic laws of the Bun & Steinke noise families, for certified privacy curves delta(eps).

:func:`verify.audit.exact.enclosure.hockey_stick_enclosure` needs, for each law, ln p, its score d/dy ln p and
the tail masses as python-flint ``arb`` balls with rigorous error.  The standardised families below give them
(as :class:`~verify.audit.exact.enclosure._StandardBall`, wrapped in the location-scale form by
:func:`verify.accounting.ballforms.output_law`); ln h is the one of the Rényi ball forms of
:mod:`verify.accounting.renyi`.  The formulas are derived from the defining random variables (Bun & Steinke
2019, "Average-case averages"; the derivations are those of :mod:`smoothsens_core.distributions.bun_steinke`,
stated here as the tool's own), with Y ~ N(0, 1), Phi its cdf, phi its density:

* arsinh-normal, Z = sinh(s Y)/s, v(z) = arsinh(s z)/s:
  ln h(z) = -v^2/2 - ln sqrt(2 pi) - ln(1 + s^2 z^2)/2;
  score  = -v/sqrt(1 + s^2 z^2) - s^2 z/(1 + s^2 z^2);
  P(Z > u) = Phi(-v(u)) = erfc(v(u)/sqrt 2)/2.
* uniform log-normal, Z = U e^(s Y), x(z) = ln|z|/s + s:
  h(z) = e^(s^2/2) Phi(-x)/2;
  score  = -sgn(z) phi(x)/(Phi(-x) s |z|)  (z != 0; it tends to 0 at 0, where a ball touching 0 gets no
  score and the enclosure falls back on the direct form of the loss);
  P(Z > u) = [Phi(-a) - u e^(s^2/2) Phi(-(a + s))]/2, a = ln u/s (u > 0), 1/2 at u = 0.

Both tails are decreasing, so on a ball u the tail is enclosed by the union of its values at the ball's two
ends (exact points); this is how :meth:`sf_pos` is evaluated.

The Laplace log-normal (Z = X e^(s Y)) has density and tail only as integrals over y; no ball form with a
certified quadrature error is implemented, so its curve is reported as not certified
(:func:`laplace_lognormal_not_certified`), never as a number.
"""

from __future__ import annotations

from typing import Any

from verify.audit.exact.enclosure import Enclosure, _StandardBall, not_certified

from .renyi import ArsinhNormalBallForm, UniformLogNormalBallForm

__all__ = ["ArsinhNormalBall", "UniformLogNormalBall", "laplace_lognormal_not_certified", "LLN_REASON"]

#: Why the Laplace log-normal curve has no certified enclosure.
LLN_REASON = ("no ball-arithmetic form of the Laplace log-normal law (its density and tail are integrals over "
              "y with no certified quadrature error bound here): delta(eps) is not certified")


def _arb() -> Any:
    from flint import arb  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    return arb


def _endpoints_union(f: Any, u: Any) -> Any:
    """f on a ball u >= 0 for a decreasing f on [0, inf) given at exact points: [f(hi), f(lo)] (lo clipped at 0)."""
    arb = _arb()
    lo, hi = u.lower(), u.upper()
    lo = arb(0) if lo < 0 else arb(lo)
    hi = arb(0) if hi < 0 else arb(hi)
    return f(lo).union(f(hi))


class ArsinhNormalBall(_StandardBall):
    """The standardised arsinh-normal Z = sinh(s Y)/s in ball arithmetic (module docstring)."""

    kinks_z: tuple[float, ...] = ()

    def __init__(self, sigma: float) -> None:
        self.sigma = float(sigma)
        self._form = ArsinhNormalBallForm(self.sigma)

    def logh(self, z: Any) -> Any:
        return self._form.logh(z)

    def score(self, z: Any) -> Any:
        arb = _arb()
        s = arb(self.sigma)
        v = self._form._v(z)
        w = 1 + s * s * z * z
        return -v / w.sqrt() - s * s * z / w

    def _sf_exact(self, u: Any) -> Any:
        arb = _arb()
        return (self._form._v(u) / arb(2).sqrt()).erfc() / 2

    def sf_pos(self, u: Any) -> Any:
        return _endpoints_union(self._sf_exact, u)


class UniformLogNormalBall(_StandardBall):
    """The standardised uniform log-normal Z = U e^(s Y) in ball arithmetic (module docstring)."""

    kinks_z: tuple[float, ...] = (0.0,)

    def __init__(self, sigma: float) -> None:
        self.sigma = float(sigma)
        self._form = UniformLogNormalBallForm(self.sigma)

    def logh(self, z: Any) -> Any:
        return self._form.logh(z)

    def _score_pos(self, az: Any) -> Any:
        """d/dz ln h at z = az > 0 (a ball with lower end > 0): -phi(x)/(Phi(-x) s z), x = ln z/s + s,
        with phi(x)/Phi(-x) = 2 e^(-x^2/2)/(sqrt(2 pi) erfc(x/sqrt 2))."""
        arb = _arb()
        s = arb(self.sigma)
        x = az.log() / s + s
        ratio = 2 * (-x * x / 2).exp() / ((2 * arb.pi()).sqrt() * (x / arb(2).sqrt()).erfc())
        return -ratio / (s * az)

    def score(self, z: Any) -> Any:
        arb = _arb()
        if z.lower() > 0:
            return self._score_pos(z)
        if z.upper() < 0:
            return -self._score_pos(-z)
        return arb("nan")

    def _sf_exact(self, u: Any) -> Any:
        arb = _arb()
        if u == 0:
            return arb(1) / 2
        s = arb(self.sigma)
        a = u.log() / s
        r2 = arb(2).sqrt()
        return ((a / r2).erfc() / 2 - u * (s * s / 2).exp() * ((a + s) / r2).erfc() / 2) / 2

    def sf_pos(self, u: Any) -> Any:
        return _endpoints_union(self._sf_exact, u)


def laplace_lognormal_not_certified() -> Enclosure:
    """The Laplace log-normal curve's answer: [0, inf], not certified, with :data:`LLN_REASON`."""
    return not_certified(LLN_REASON)
