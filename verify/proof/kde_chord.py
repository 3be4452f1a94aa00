"""The chord-partner curve of the Gaussian kernel (Liang & Yi, 004 Sec. 4.3, Lemma 4.6) as arb series.

:func:`kde_curve` gives (a, b, D) along the curve chi(a, b) = 0 in an explicit parameter (s = a (a - b)
for b in [0, 1], L = -ln(1 + s) for b >= 1), with the chart ends :data:`KDE_S_END`, :data:`KDE_L_END` and
the turning-point windows :data:`KDE_TURN`.  The shape lemmas (:mod:`verify.proof.obligations`) and the
KDE constants (:mod:`verify.proof.kde_constants`) both evaluate it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flint import arb, arb_series

__all__ = ["KDE_S_END", "KDE_L_END", "KDE_TURN", "KDE_SERIES_TERMS", "kde_curve"]

#: a rational above a_W^2 = 2.51286... (b(s) < 0 there, proven as a point piece): s in [0, KDE_S_END] covers b in [0, 1]
KDE_S_END = Fraction(2514, 1000)
#: L = -ln(1 + s) in [0, KDE_L_END] covers b in [1, b(KDE_L_END)] (b(64) = 11.314...); the tail L >= 64
#: (b >= 11.314... up to b = inf) is the compact chart u = 1/sqrt(L) in [0, 1/8] of :mod:`verify.proof.kde_tail`
KDE_L_END = Fraction(64)
#: windows around the turning points (L_m ~ 3.08 of D, L_P ~ 2.03 of P), where the second derivative's sign is proven
KDE_TURN = {"D": (Fraction(283, 100), Fraction(333, 100)), "P": (Fraction(178, 100), Fraction(228, 100))}
#: terms of the power series of T(s) used for |s| <= 1/4
KDE_SERIES_TERMS = 60


def _kde_T(s: Any, L: Any = None) -> Any:
    """T(s) = (s - log1p(s))/s^2 (analytic on (-1, inf), T(0) = 1/2) as an arb_series.

    |s| <= 1/4 on the ball: the power series sum_{k < N} (-1)^k s^k/(k + 2) plus, on every
    coefficient j <= 4, a ball of radius 2 N^4 4^{-(N-4)} >= sum_{k >= N} C(k, j) 4^{-(k-j)} (the
    Taylor coefficients of the tail on |s| <= 1/4; successive terms shrink by a factor < 1/2).
    Else the closed form, with s - log1p(s) = s + L when L = -ln(1 + s) is the variable (exact,
    no cancellation)."""
    s0 = s.coeffs()[0]
    if abs(s0).upper() <= arb(1) / 4:
        if s.prec > 5:
            raise ValueError("the tail bound of _kde_T covers derivatives of order <= 4")
        out = arb_series([0], prec=s.prec)
        for k in reversed(range(KDE_SERIES_TERMS)):
            out = out * s + arb((-1) ** k) / (k + 2)
        rad = 2 * arb(KDE_SERIES_TERMS) ** 4 * (arb(1) / 4) ** (KDE_SERIES_TERMS - 4)
        cs = [c + arb(0, rad) for c in out.coeffs()]
        return arb_series(cs + [arb(0, rad)] * (s.prec - len(cs)), prec=s.prec)
    if L is not None:
        return (s + L) / (s * s)
    return (s - (1 + s).log()) / (s * s)


def kde_curve(v: Any, side: str) -> tuple[Any, Any, Any]:
    """(a, b, D) along the chord-partner curve of 004 Lemma 4.6 as arb_series in the parameter v.

    The curve.  The steepest chord of k(u) = e^{-u^2/2} from radius b ends at a = alpha(b) != b with
    chi(a, b) = 1 + a (a - b) - e^{(a^2 - b^2)/2} = 0 (phi_0 = 0, 004 A.4 (2); kde.py).  Put
    s = a (a - b) > -1: then (a^2 - b^2)/2 = s - s^2/(2 a^2) and chi = 0 reads ln(1 + s) = s - s^2/(2a^2),
        a^2 = 1/(2 T(s)),  T(s) = (s - ln(1 + s))/s^2,   b = a - s/a,
    so every nontrivial zero (a > 0, a != b) is (a(s), b(s)) for exactly one s in (-1, 0) u (0, inf),
    and conversely; s = 0 is b = a = 1 (T analytic, T(0) = 1/2: the triple root of kde.py is a
    regular point here).  On the curve, D(b) = d ln ell/db = (k'(a) - k'(b))/((a - b) k'(a)) =
    (1 - (b/a) e^{(a^2 - b^2)/2})/(a - b) = (1 - (b/a)(1 + s))/(a - b) = 1/a - b = (1 + s)/a - a.
    ``side`` "pos": v = s in [0, s_end] (b in [0, 1]); "neg": v = L = -ln(1 + s) >= 0 (b >= 1)."""
    if side == "pos":
        s, T = v, _kde_T(v)
    elif side == "neg":
        s = (-v).exp() - 1
        T = _kde_T(s, v)
    else:
        raise ValueError(f"side must be 'pos' or 'neg'; got side={side!r}")
    r2T = (2 * T).sqrt()
    a = 1 / r2T
    b = a - s * r2T
    D = (1 + s) / a - a
    return a, b, D
