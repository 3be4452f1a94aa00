"""Ball-arithmetic forms of the output laws the accountant needs beyond :mod:`verify.audit.exact.enclosure`.

:func:`output_law` returns the law a + s X (X a core noise with its own loc and scale) in the
:class:`~verify.audit.exact.enclosure.BallLaw` form (log-density, score, tail masses as python-flint ``arb``
balls, rigorous): the forms of :func:`verify.audit.exact.enclosure.ball_law` (Gaussian, Laplace, GenCauchy,
Student t), here PolyPlace, and the uniform log-normal and arsinh-normal of :mod:`verify.accounting.bs19_curves`.

PolyPlace(1, alpha) of 002 Def. 6, standardised (s = 1), alpha > 1, D = 2 ((alpha - 1)/alpha)^alpha + alpha - 1:

    h(z) = N (alpha - 1) (1 - |z|)^(alpha - 1)                         |z| <= 1/alpha,
    h(z) = N (alpha + 1) (1 - 1/alpha^2)^alpha (1 + |z|)^(-alpha - 1)    |z| >= 1/alpha,     N = alpha/(2 D);

score d/dz ln h = -(alpha - 1) sgn(z)/(1 - |z|) inside and -(alpha + 1) sgn(z)/(1 + |z|) outside (both equal
-alpha sgn(z) at |z| = 1/alpha: the score is continuous there, and jumps only at 0); the upper tail for u >= 0
(002 Lemma 7, proof; the closed form of :mod:`smoothsens_core.distributions.polyplace`):

    P(Z > u) = 1/2 - (alpha - 1)(1 - (1 - u)^alpha)/(2 D)          u <= 1/alpha,
    P(Z > u) = (alpha + 1)(1 - 1/alpha^2)^alpha (1 + u)^(-alpha)/(2 D)   u >= 1/alpha.

A ball meeting both branches is evaluated on each closed branch and the union taken (the branches agree at
|z| = 1/alpha).  The sign of z in the score is taken one-sided on a ball ending at 0 (the loss is continuous,
so the mean-value and monotonicity arguments that use the score need it on the open cell only).
"""

from __future__ import annotations

import math
from typing import Any

from verify.audit.exact.enclosure import BallLaw, _LocationScaleBall, _StandardBall, ball_law

__all__ = ["output_law", "PolyPlaceBall", "tail_mass"]


def _arb() -> Any:
    from flint import arb  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    return arb


def _sgn_closed(z: Any) -> Any:
    """sgn on a ball, one-sided at 0: -1 on a ball <= 0, 1 on a ball >= 0, [-1, 1] on a ball across 0."""
    arb = _arb()
    if z.upper() <= 0:
        return arb(-1)
    if z.lower() >= 0:
        return arb(1)
    return arb(0, 1)


class PolyPlaceBall(_StandardBall):
    """The standardised PolyPlace(1, alpha) of 002 Def. 6 in ball arithmetic (module docstring)."""

    def __init__(self, alpha: float) -> None:
        arb = _arb()
        a = arb(alpha)
        self.alpha = a
        self.inv = 1 / a
        D = 2 * ((a - 1) / a) ** a + a - 1
        self.D = D
        logn = a.log() - (2 * D).log()
        self.log_inner = logn + (a - 1).log()
        self.log_outer = logn + (a + 1).log() + a * (1 - 1 / (a * a)).log()
        self.tail_c = (a + 1) * (1 - 1 / (a * a)) ** a / (2 * D)
        self.kinks_z = (-float(self.inv.mid()), 0.0, float(self.inv.mid()))

    def _split(self, az: Any) -> tuple[Any | None, Any | None]:
        """The parts of a ball |z| >= 0 in the closed inner region [0, 1/alpha] and outer region [1/alpha, inf)."""
        arb = _arb()
        lo, hi = az.lower(), az.upper()
        lo = arb(0) if lo < 0 else lo
        inv = self.inv
        if hi <= inv.lower():
            return arb(lo).union(arb(hi)), None
        if lo >= inv.upper():
            return None, arb(lo).union(arb(hi))
        inner = arb(lo).union(inv) if lo < inv.upper() else None
        outer = inv.union(arb(hi)) if hi > inv.lower() else None
        return inner, outer

    def _union(self, parts: list[Any]) -> Any:
        out = parts[0]
        for p in parts[1:]:
            out = out.union(p)
        return out

    def logh(self, z: Any) -> Any:
        a = self.alpha
        inner, outer = self._split(abs(z))
        parts = []
        if inner is not None:
            parts.append(self.log_inner + (a - 1) * (-inner).log1p())
        if outer is not None:
            parts.append(self.log_outer - (a + 1) * outer.log1p())
        return self._union(parts)

    def score(self, z: Any) -> Any:
        a = self.alpha
        sg = _sgn_closed(z)
        inner, outer = self._split(abs(z))
        parts = []
        if inner is not None:
            parts.append(-(a - 1) / (1 - inner))
        if outer is not None:
            parts.append(-(a + 1) / (1 + outer))
        return sg * self._union(parts)

    def sf_pos(self, u: Any) -> Any:
        a = self.alpha
        inner, outer = self._split(u)
        parts = []
        if inner is not None:
            parts.append(0.5 - (a - 1) * (1 - (1 - inner) ** a) / (2 * self.D))
        if outer is not None:
            parts.append(self.tail_c * (1 + outer) ** (-a))
        return self._union(parts)


def output_law(noise: Any, a: float, s: float) -> BallLaw:
    """The law a + s X, X ~ ``noise`` (a core continuous noise, its own loc and scale included), in ball form;
    TypeError for a family without one (the callers report "not certified")."""
    from smoothsens_core.distributions import ArsinhNormal, PolyPlace, UniformLogNormal  # noqa: PLC0415

    from .bs19_curves import ArsinhNormalBall, UniformLogNormalBall  # noqa: PLC0415 - imports the renyi forms

    std: _StandardBall
    if type(noise) is PolyPlace:
        std = PolyPlaceBall(float(noise.alpha))
    elif type(noise) is UniformLogNormal:
        std = UniformLogNormalBall(float(noise.sigma))
    elif type(noise) is ArsinhNormal:
        std = ArsinhNormalBall(float(noise.sigma))
    else:
        return ball_law(noise, a, s)
    A = float(a) + float(s) * float(noise.loc)
    S = float(s) * float(noise.scale)
    if not (math.isfinite(A) and math.isfinite(S) and S > 0):
        raise ValueError(f"the law needs a finite location and a scale > 0; got loc={A!r}, scale={S!r}")
    return _LocationScaleBall(std, A, S)


def tail_mass(law: Any, e: float) -> Any:
    """P(Y <= e) for e <= the law's centre, P(Y > e) beyond it (the tail on the side away from the centre, so a
    small mass keeps its relative accuracy); e may be +-inf.  For a location-scale ball form the standardised
    tail is evaluated once on the ball (e - A)/S (a monotone function on a ball gives an enclosure); otherwise
    through ``law.mass``."""
    arb = _arb()
    if isinstance(law, _LocationScaleBall) and math.isfinite(e):
        z = (arb(e) - arb(law.A)) / arb(law.S)
        if e <= law.A:
            u = -z
            return law.std.sf_pos(u) if u.lower() >= 0 else law.mass(-math.inf, e)
        return law.std.sf_pos(z) if z.lower() >= 0 else law.mass(e, math.inf)
    return law.mass(-math.inf, e) if e <= law.loc else law.mass(e, math.inf)
