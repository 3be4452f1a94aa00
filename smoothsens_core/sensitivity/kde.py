"""Gaussian kernel kappa_t on R^d and its g_E-smooth sensitivity (004 Sec. 4.3: Claim 4.4,
Lemmas 4.5-4.7), for all points at once.

Query: kappa_t(x) = exp(-||x - t||^2 / (2 h^2)), t in R^d, bandwidth h > 0 (004 Sec. 4.3).

Reduction (004 Lemma 4.5 / A.6).  Write c = ||x - t||/h and k(u) = e^{-u^2/2}.  Chords only
depend on the radii: |kappa(w) - kappa(z)| / ||w - z|| <= |k(a) - k(b)| / (h |a - b|) with
a = ||w - t||/h, b = ||z - t||/h, with equality on the ray from t through z.  Hence

  L_{kappa,inf}(z) = ell(b)/h,   ell(b) = sup_{a >= 0} |k(a) - k(b)| / |a - b|,
  B*(x) = (1/h) sup_{b >= 0} ell(b) e^{-gamma h |b - c|}                   (004 Def. 9, g_E),

since the point of radius b nearest to x lies on the ray, at distance h |b - c|.

The chord function ell (derived in derivations/stationary_004.py, checked by mpmath brute force):
the best partner a = alpha(b) of b makes the chord tangent at a (the phi_0 = 0 condition of 004
Lemma 4.6 / App. A.4 eq. (2), with the exponent of its first term e^{-c_z^2 c^2/2}):

  phi_0(a, b) = e^{-b^2/2} - (1 + a (a - b)) e^{-a^2/2} = 0,  a != b,
  equivalently psi(a, b) = log1p(a (a - b)) - a (a - b) + (a - b)^2 / 2 = 0;

alpha maps (0, 1) onto (1, a_W) and (1, inf) onto (0, 1), alpha(0) = a_W = sqrt(-2 W_{-1}(-e^{-1/2}/2) - 1)
(004 Lemma 4.7, S_2), and ell(b) = |k(alpha) - k(b)| / |alpha - b| = alpha e^{-alpha^2/2} > |k'(b)| for
b != 1; ell(1) = e^{-1/2} (Claim 4.4).  Near b = 1 (a triple root) the series
ell(1 + e) = e^{-1/2} (1 - e^2/4 + 5 e^3/96 + 191 e^4/5120 + O(e^5)) is used for |e| < 1e-3.

Stationary points (004 Sec. 3.3, S_1/S_3 with the correct partial derivative in z): by the
envelope theorem d ln ell / db = D(b) := (k'(a) - k'(b)) / ((a - b) k'(a)) at a = alpha(b).  D is
universal (independent of x, t, h, gamma): it decreases from 1/a_W to 0 on (0, 1), is negative on
(1, inf) with a single minimum D_min at b_m, and tends to 0.  So with g = gamma h the maximisers of
F(b) = ln ell(b) - g |b - c| are among
  b = c;   b1 in (0, 1) with D(b1) = g (exists iff g < 1/a_W; a maximiser iff c < b1);
  b2 in (1, b_m) with D(b2) = -g (exists iff g < -D_min; a maximiser iff b2 < c),
and B*(x) = (1/h) max(ell(c), ell(b1) e^{-g (b1 - c)} [c < b1], ell(b2) e^{-g (c - b2)} [b2 < c]).
b1, b2 depend only on g (one scalar root each per call); the per-point work is one vectorised,
bracketed root of phi_0 for alpha(c): a narrow bracket around a tabulated guess (kept only where
the sign change is confirmed, else the full a-priori bracket and 14 bisections), 3 secant steps
kept in the bracket, and a sign-change certificate of relative width 1e-10 (bisection for the
rare points whose certificate fails) - every point is certified or a RootFindingError names it.  x = t (c = 0) is 004 Lemma 4.7: B*(t) = (1/h) max(ell(0),
ell(b1) e^{-g b1}).  The printed Lemma 4.6 / 4.7 sets differ from these; see the errata in
derivations/stationary_004.py and claims 004-Lemma-4.6 / 004-Lemma-4.7.

Supported: g_E (004 Lemmas 4.6-4.7) and g_L (same derivation, see smooth_sensitivity_kde), with
Lambda = inf; finite Lambda raises ValueError.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq, minimize_scalar

from ..validation import check_finite_array, check_positive
from ..growth import GrowthFunction
from ._chunking import DEFAULT_CHUNK, map_chunks
from ._common import SensitivityValues, as_float_array, points_nd
from ._ramp import check_growth, check_lambda

try:  # evaluators generated from derivations/stationary_004.py
    from .._generated.stationary_004 import (
        kde_chi,
        kde_ell_series,
        kde_log_slope,
        kde_log_slope_series,
        kde_psi,
    )
except ImportError:  # pragma: no cover - only before the first `smoothsens regenerate`
    kde_chi = kde_ell_series = kde_log_slope = kde_log_slope_series = kde_psi = None  # type: ignore[assignment]

__all__ = [
    "gaussian_kernel",
    "lipschitz_kde",
    "smooth_sensitivity_kde",
    "sensitivity_kde",
    "kde_chord_partner",
    "kde_chord_slope",
    "KDE_A_W",
    "RootFindingError",
]

#: a_W = sqrt(-2 W_{-1}(-e^{-1/2}/2) - 1): the root a > 0 of (1 + a^2) e^{-a^2/2} = 1 (004 Lemma 4.7 S_2).
KDE_A_W = 1.5852010652445132
_SERIES = 1e-3  # |b - 1| below which the series at the triple root b = 1 is used
_RTOL = 1e-10  # bracket width (relative to the bracket's upper end) of the certified roots


class RootFindingError(ValueError):
    """A bracketed root of phi_0 could not be certified for some input (names the input)."""


# ---------------------------------------------------------------------------------------------
# Scalar-free building blocks (fallbacks identical to the generated evaluators)
# ---------------------------------------------------------------------------------------------
def _psi(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """psi(a, b) = log1p(a (a - b)) - a (a - b) + (a - b)^2/2 (ln of phi_0's two terms, 004 A.4 (2))."""
    if kde_psi is not None:
        return kde_psi(a, b)
    u = a * (a - b)
    return np.log1p(u) - u + 0.5 * (a - b) ** 2


def _chi(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """chi(a, b) = 1 + a (a - b) - e^{(a^2 - b^2)/2} = e^{a^2/2} (-phi_0(a, b)) up to sign."""
    if kde_chi is not None:
        return kde_chi(a, b)
    return 1.0 + a * (a - b) - np.exp(0.5 * (a - b) * (a + b))


def _k(u: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.exp(-0.5 * u * u)


def _bisect(fun, lo, hi, b, where: str, guess=None):  # type: ignore[no-untyped-def]
    """Vectorised bracketed root of fun(a, b) = 0 with fun(lo) > 0 > fun(hi), certified per point.

    14 bisection steps (bracket width <= 2^-14 of the initial one), 3 secant steps kept inside the
    bracket, then a certificate: the signs of fun at x -+ delta (delta = 1e-10 |hi| / 2) must
    differ, which proves a root in a bracket of relative width 1e-10.  Points whose certificate
    fails continue by bisection until their bracket is that narrow.  A point without a sign change
    on its initial bracket raises :class:`RootFindingError` naming the input.  Every point's result
    depends on that point only (chunking does not change it)."""
    flo = fun(lo, b)
    fhi = fun(hi, b)
    bad = ~((flo > 0) & (fhi < 0))
    if np.any(bad):
        i = int(np.argmax(bad))
        raise RootFindingError(
            f"no sign change of phi_0 on the bracket [{lo[i]!r}, {hi[i]!r}] for b = ||z - t||/h = "
            f"{b[i]!r} ({where}); the chord partner of this input cannot be certified"
        )
    lo = lo.copy()
    hi = hi.copy()
    n_bisect = 14
    if guess is not None:
        # Try the narrow bracket [g - w, g + w] around the tabulated guess; keep it where the sign
        # change is confirmed, else keep the full bracket (and bisect as usual).
        glo = np.clip(guess - _GUESS_W * np.abs(guess) - 1e-300, lo, hi)
        ghi = np.clip(guess + _GUESS_W * np.abs(guess) + 1e-300, lo, hi)
        fglo, fghi = fun(glo, b), fun(ghi, b)
        good = (fglo > 0) & (fghi < 0)
        lo, flo = np.where(good, glo, lo), np.where(good, fglo, flo)
        hi, fhi = np.where(good, ghi, hi), np.where(good, fghi, fhi)
        n_bisect = 0 if good.all() else 14
    for _ in range(n_bisect):
        mid = 0.5 * (lo + hi)
        fm = fun(mid, b)
        pos = fm > 0
        lo = np.where(pos, mid, lo)
        flo = np.where(pos, fm, flo)
        hi = np.where(pos, hi, mid)
        fhi = np.where(pos, fhi, fm)
    # secant steps from the two bracket ends (regula falsi), clipped into the bracket
    x0, f0, x1, f1 = lo, flo, hi, fhi
    for _ in range(3):
        with np.errstate(invalid="ignore", divide="ignore"):
            x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        # converged (f1 = f0, e.g. f = 0 exactly): stay at x1; outside the bracket: bisect
        x2 = np.where(np.isfinite(x2), x2, x1)
        x2 = np.where((x2 >= lo) & (x2 <= hi), x2, 0.5 * (lo + hi))
        f2 = fun(x2, b)
        pos = f2 > 0
        lo = np.where(pos, x2, lo)
        flo = np.where(pos, f2, flo)
        hi = np.where(pos, hi, x2)
        fhi = np.where(pos, fhi, f2)
        x0, f0, x1, f1 = x1, f1, x2, f2
    delta = 0.5 * _RTOL * np.abs(hi)
    xm, xp = np.maximum(x1 - delta, lo), np.minimum(x1 + delta, hi)
    fm, fp = fun(xm, b), fun(xp, b)
    ok = (fm > 0) & (fp < 0) | (fun(x1, b) == 0)
    lo = np.where(ok, np.where(fm > 0, xm, x1), lo)
    hi = np.where(ok, np.where(fp < 0, xp, x1), hi)
    todo = ~ok & (hi - lo > _RTOL * np.abs(hi))
    for _ in range(80):  # bisection for the points whose certificate failed (rare)
        if not np.any(todo):
            break
        idx = np.nonzero(todo)[0]
        mid = 0.5 * (lo[idx] + hi[idx])
        pos = fun(mid, b[idx]) > 0
        lo[idx] = np.where(pos, mid, lo[idx])
        hi[idx] = np.where(pos, hi[idx], mid)
        todo[idx] = hi[idx] - lo[idx] > _RTOL * np.abs(hi[idx])
    if np.any(todo):  # pragma: no cover - 80 halvings of a width <= 2 reach 1e-10 relative
        i = int(np.argmax(todo))
        raise RootFindingError(f"root of phi_0 not certified to width {_RTOL} for b={b[i]!r} ({where})")
    return 0.5 * (lo + hi)


_GUESS_W = 1e-5  # relative half-width of the bracket around the tabulated guess
_TABLE_B = np.linspace(0.0, 8.0, 8193)


@lru_cache(maxsize=1)
def _partner_table() -> NDArray[np.float64]:
    """alpha on a grid of b in [0, 8] (certified full-bracket solves), for initial guesses only."""
    return _partner(_TABLE_B, use_table=False)


def kde_chord_partner(b: ArrayLike) -> NDArray[np.float64]:
    """alpha(b): the radius a != b (in units of h) of the steepest chord of k(u) = e^{-u^2/2} from b,
    i.e. the root of phi_0(a, b) = 0 (004 A.4 eq. (2)); certified by a sign change on a bracket of
    relative width 1e-10 (see ``_bisect``).  A-priori brackets: (1, a_W] for b < 1, (0, 1) for
    1 < b < 2, (0, r_-(b)(1 + 1e-9)] for b >= 2 (r_- the smaller root of 1 + a(a - b)).
    alpha(0) = a_W, alpha(1) = 1; for |b - 1| < 1e-3 the series alpha(1+e) = 1 - e/2 + 3e^2/32 +
    9e^3/1280 (derivations.stationary_004.derive_kde_series) is used."""
    b = check_finite_array("b", b)
    if b.size and np.any(b < 0):
        raise ValueError(f"b must be a radius in [0, inf); got min(b)={b.min()!r}")
    return _partner(b)


def _partner(b: NDArray[np.float64], use_table: bool = True) -> NDArray[np.float64]:
    out = np.empty_like(b)
    if use_table:
        tab = _partner_table()
        # uniform table: direct index + linear interpolation (cheaper than np.interp's search)
        step = _TABLE_B[1] - _TABLE_B[0]
        pos = np.minimum(b, _TABLE_B[-1]) * (1.0 / step)
        idx = np.minimum(pos.astype(np.intp), _TABLE_B.size - 2)
        frac = pos - idx
        guess_all = tab[idx] + frac * (tab[idx + 1] - tab[idx])
        big = b > _TABLE_B[-1]
        if np.any(big):  # alpha(b) = r_-(b) (1 + O(e^{-b^2/2})) for large b
            bb = b[big]
            guess_all[big] = 2.0 / (bb + np.sqrt((bb - 2.0) * (bb + 2.0)))
    else:
        guess_all = None
    e = b - 1.0
    near = np.abs(e) < _SERIES
    out[near] = 1.0 - e[near] / 2 + 3 * e[near] ** 2 / 32 + 9 * e[near] ** 3 / 1280
    g1 = (b < 1.0) & ~near
    if np.any(g1):  # b in [0, 1): alpha in (1, a_W]
        bb = b[g1]
        out[g1] = _bisect(_psi, np.ones_like(bb), np.full_like(bb, KDE_A_W * (1 + 1e-12)), bb, "b < 1",
                          None if guess_all is None else guess_all[g1])
        out[g1 & (b == 0.0)] = KDE_A_W
    g2 = (b > 1.0) & ~near & (b < 2.0)
    if np.any(g2):  # b in (1, 2): alpha in (0, 1)
        bb = b[g2]
        out[g2] = _bisect(_psi, np.zeros_like(bb), np.ones_like(bb), bb, "1 < b < 2",
                          None if guess_all is None else guess_all[g2])
    g3 = b >= 2.0
    if np.any(g3):  # b >= 2: alpha in (0, r_-(b)], r_- = 2/(b + sqrt(b^2 - 4)) the root of 1 + a(a - b)
        bb = b[g3]
        r = 2.0 / (bb + np.sqrt((bb - 2.0) * (bb + 2.0)))
        out[g3] = _bisect(_chi, np.zeros_like(bb), r * (1 + 1e-9), bb, "b >= 2",
                          None if guess_all is None else guess_all[g3])
    return out


def kde_chord_slope(b: ArrayLike) -> NDArray[np.float64]:
    """ell(b) = sup_{a >= 0} |k(a) - k(b)|/|a - b| for k(u) = e^{-u^2/2}: h L_{kappa,inf} at radius b h.

    Evaluated as the chord to the certified partner alpha(b) (a lower bound that is exact to
    second order in the bracket width), never below the tangent |k'(b)| = b e^{-b^2/2}; series
    e^{-1/2}(1 - e^2/4 + 5e^3/96 + 191e^4/5120) for b = 1 + e, |e| < 1e-3."""
    b = check_finite_array("b", b)
    return _ell(b, kde_chord_partner(b))


def _ell(b: NDArray[np.float64], a: NDArray[np.float64]) -> NDArray[np.float64]:
    e = b - 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        chord = np.abs(_k(a) - _k(b)) / np.abs(a - b)
    tangent = b * _k(b)
    out = np.maximum(np.where(np.isfinite(chord), chord, 0.0), tangent)
    near = np.abs(e) < _SERIES
    if np.any(near):
        en = e[near]
        if kde_ell_series is not None:
            out[near] = kde_ell_series(en)
        else:
            out[near] = math.exp(-0.5) * (1 - en**2 / 4 + 5 * en**3 / 96 + 191 * en**4 / 5120)
    return out


def _log_slope(b: NDArray[np.float64]) -> NDArray[np.float64]:
    """D(b) = d ln ell / db = (k'(a) - k'(b)) / ((a - b) k'(a)), a = alpha(b) (envelope theorem)."""
    a = kde_chord_partner(b)
    e = b - 1.0
    if kde_log_slope is not None:
        full = kde_log_slope(a, np.where(np.abs(e) < _SERIES, 2.0, b))
        ser = kde_log_slope_series(e)
    else:
        bb = np.where(np.abs(e) < _SERIES, 2.0, b)  # the series branch is used there
        full = (-a * _k(a) + bb * _k(bb)) / ((a - bb) * (-a * _k(a)))
        ser = -e / 2 + 5 * e**2 / 32 + 31 * e**3 / 1280
    return np.where(np.abs(e) < _SERIES, ser, full)


def _D(b: float) -> float:
    return float(_log_slope(np.array([b]))[0])


@lru_cache(maxsize=1)
def _d_min() -> tuple[float, float]:
    """(b_m, D_min): the minimiser and minimum of D on (1, inf) (universal constants)."""
    res = minimize_scalar(_D, bounds=(1.5, 4.0), method="bounded", options={"xatol": 1e-12})
    return float(res.x), float(res.fun)


@lru_cache(maxsize=256)
def _stationary_radii(g: float) -> tuple[float, float]:
    """(b1, b2) for g = gamma h: D(b1) = g on (0, 1), D(b2) = -g on (1, b_m); NaN if absent."""
    b_m, d_min = _d_min()
    if g < 1.0 / KDE_A_W:
        if g < 1e-6:  # series root of -e/2 + 5e^2/32 = g (second-order accurate, error ~ g^3)
            b1 = 1.0 - 2 * g + 5 * g * g / 4
        else:
            b1 = brentq(lambda b: _D(b) - g, 1e-12, 1.0, xtol=1e-14, rtol=1e-14)
    else:
        b1 = math.nan
    if g < -d_min:
        if g < 1e-6:
            b2 = 1.0 + 2 * g + 5 * g * g / 4
        else:
            b2 = brentq(lambda b: _D(b) + g, 1.0, b_m, xtol=1e-14, rtol=1e-14)
    else:
        b2 = math.nan
    return b1, b2


def _q_minus_target(b: NDArray[np.float64], target: NDArray[np.float64]) -> NDArray[np.float64]:
    """Q(b) - target, Q(b) = 1/D(b) - b on (0, 1) (increasing; g_L stationarity on (c, 1))."""
    return 1.0 / _log_slope(b) - b - target


def _p_minus_target(b: NDArray[np.float64], target: NDArray[np.float64]) -> NDArray[np.float64]:
    """P(b) - target, P(b) = b - 1/D(b) on (1, inf) (decreasing on (1, b_P); g_L on (1, c))."""
    return b - 1.0 / _log_slope(b) - target


@lru_cache(maxsize=1)
def _p_min() -> tuple[float, float]:
    """(b_P, P_min): minimiser and minimum of P(b) = b - 1/D(b) on (1, inf) (universal constants)."""
    f = lambda b: float(_p_minus_target(np.array([b]), np.zeros(1))[0])  # noqa: E731
    res = minimize_scalar(f, bounds=(1.2, 4.0), method="bounded", options={"xatol": 1e-12})
    return float(res.x), float(res.fun)


def _bisect_increasing(fun, lo, hi, target, where: str):  # type: ignore[no-untyped-def]
    """Vectorised bisection for fun(b, target) = 0 with fun(lo) < 0 < fun(hi) (certified per point)."""
    flo, fhi = fun(lo, target), fun(hi, target)
    bad = ~((flo < 0) & (fhi > 0))
    if np.any(bad):
        i = int(np.argmax(bad))
        raise RootFindingError(f"no sign change on [{lo[i]!r}, {hi[i]!r}] ({where}, target={target[i]!r})")
    lo, hi = lo.copy(), hi.copy()
    for _ in range(int(math.ceil(math.log2(1.0 / _RTOL))) + 2):
        mid = 0.5 * (lo + hi)
        up = fun(mid, target) > 0
        hi = np.where(up, mid, hi)
        lo = np.where(up, lo, mid)
    return 0.5 * (lo + hi)


def _log_bstar_linear(c: NDArray[np.float64], a_c: NDArray[np.float64], gh: float) -> NDArray[np.float64]:
    """ln(h B*) for g_L(r) = 1 + gamma r (see smooth_sensitivity_kde): candidates b = c, the root b1
    of Q(b) = 1/(gamma h) - c on (c, 1) when D(c) > gamma h, the first root b2 of
    P(b) = 1/(gamma h) + c on (1, b_P) when b2 < c, and b = 1."""
    logB = np.log(_ell(c, a_c))
    np.maximum(logB, -0.5 - np.log1p(gh * np.abs(1.0 - c)), out=logB)
    below = c < 1.0 - 1e-12
    D_c = np.zeros_like(c)
    if np.any(below):
        D_c[below] = _log_slope(c[below])
    m1 = below & (D_c > gh)
    if np.any(m1):
        cc = c[m1]
        b1 = _bisect_increasing(_q_minus_target, cc, np.full_like(cc, 1.0 - 1e-12), 1.0 / gh - cc, "g_L, b1 in (c, 1)")
        cand = np.log(_ell(b1, kde_chord_partner(b1))) - np.log1p(gh * (b1 - cc))
        logB[m1] = np.maximum(logB[m1], cand)
    b_p, p_min = _p_min()
    m2 = (c > 1.0 + 1e-12) & (1.0 / gh + c > p_min)
    if np.any(m2):
        cc = c[m2]
        # P decreases on (1, b_P): bisect the increasing function target - P
        neg = lambda b, tg: -_p_minus_target(b, tg)  # noqa: E731
        b2 = _bisect_increasing(neg, np.full_like(cc, 1.0 + 1e-12), np.full_like(cc, b_p), 1.0 / gh + cc,
                                "g_L, b2 in (1, b_P)")
        ok = b2 < cc
        cand = np.log(_ell(b2, kde_chord_partner(b2))) - np.log1p(gh * np.abs(cc - b2))
        logB[m2] = np.where(ok, np.maximum(logB[m2], cand), logB[m2])
    return logB


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------
def _prepare(points: ArrayLike, t: ArrayLike, h: float) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """(points as an (n, d) view, t of shape (d,), h), validated; no array of size n is created."""
    h = check_positive("h", h)
    tt = as_float_array("t", t)
    if tt.ndim > 1:
        raise ValueError(f"t must be a point of R^d, shape (d,) (or a scalar for d = 1); got t of shape {tt.shape}")
    tt = check_finite_array("t", tt).reshape(-1)
    if tt.size == 0:
        raise ValueError("t must be a point of R^d with d >= 1; got an empty array")
    d = tt.size
    x = as_float_array("points", points)
    if d == 1 and x.ndim <= 1:
        p = points_nd("points", x.reshape(-1, 1), 1)
    else:
        p = points_nd("points", x, d)
    return p, tt, h


def _radius(p: NDArray[np.float64], t: NDArray[np.float64], h: float) -> NDArray[np.float64]:
    """c = ||x - t||/h for one chunk of points (the callers pass slices of DEFAULT_CHUNK rows)."""
    diff = p - t
    if diff.shape[1] == 1:
        c = np.abs(diff[:, 0])
    else:
        c = np.sqrt(np.einsum("ij,ij->i", diff, diff))
    c /= h
    return c


def gaussian_kernel(
    points: ArrayLike, t: ArrayLike, h: float, *, chunk: int = DEFAULT_CHUNK
) -> NDArray[np.float64]:
    """kappa_t(x) = exp(-||x - t||^2/(2 h^2)) (004 Sec. 4.3); points (n, d) (or (n,) when d = 1)."""
    p, tt, h = _prepare(points, t, h)

    def block(pc: NDArray[np.float64]) -> tuple[NDArray[np.float64]]:
        c = _radius(pc, tt, h)
        c *= c
        c *= -0.5
        return (np.exp(c, out=c),)

    (out,) = map_chunks(block, p, 1, chunk)
    return out


def lipschitz_kde(
    points: ArrayLike, t: ArrayLike, h: float, Lambda: float = math.inf, *, chunk: int = DEFAULT_CHUNK
) -> NDArray[np.float64]:
    """L_{kappa_t,inf}(x) = ell(||x - t||/h)/h (004 Def. 7 with Lemma 4.5); at most e^{-1/2}/h (Claim 4.4)."""
    p, tt, h = _prepare(points, t, h)
    if not math.isinf(check_lambda(Lambda)):
        raise ValueError(f"Lambda must be inf for the KDE closed form (004 Lemmas 4.6-4.7); got Lambda={Lambda!r}")
    (out,) = map_chunks(lambda pc: (kde_chord_slope(_radius(pc, tt, h)) / h,), p, 1, chunk)
    return out


def smooth_sensitivity_kde(
    points: ArrayLike,
    t: ArrayLike,
    h: float,
    growth: GrowthFunction,
    Lambda: float = math.inf,
    *,
    chunk: int = DEFAULT_CHUNK,
) -> NDArray[np.float64]:
    """B*(x) of the Gaussian kernel kappa_t for g_E (004 Lemma 4.6 for x != t, Lemma 4.7 for x = t,
    corrected as in the module docstring):

    B*(x) = (1/h) max(ell(c), ell(b1) e^{-gamma h (b1 - c)} [c < b1], ell(b2) e^{-gamma h (c - b2)} [b2 < c]),
    c = ||x - t||/h.  Vectorised over points of R^d, any d; no NaN/inf for c in [0, inf).

    g_L(r) = 1 + gamma r (extension, same derivation): F(b) = ln ell(b) - ln(1 + gamma h |b - c|)
    has F' = 0 on (c, 1) iff Q(b) = 1/D(b) - b = 1/(gamma h) - c (Q increasing: one root b1, a
    maximum, iff D(c) > gamma h) and on (1, c) iff P(b) = b - 1/D(b) = 1/(gamma h) + c (P unimodal:
    the root b2 on its decreasing branch is the maximum); so B*(x) = (1/h) max(ell(c),
    ell(b1)/(1 + gamma h (b1 - c)), ell(b2)/(1 + gamma h (c - b2)) [b2 < c]).  b1, b2 depend on c:
    one nested vectorised bisection per point (slower than g_E).  Lambda must be inf.

    The points are processed in slices of ``chunk`` rows (the radius c is computed inside each
    slice), so the scratch memory is O(chunk) for any number of points."""
    p, tt, h = _prepare(points, t, h)
    g = check_growth(growth)
    Lam = check_lambda(Lambda)
    if not math.isinf(Lam):
        raise ValueError(
            "the KDE closed form (004 Lemmas 4.6-4.7) is derived for Lambda = inf; got "
            f"Lambda={Lambda!r} (use the generic engine for finite Lambda)"
        )
    gh = float(g.gamma) * h
    if g.kind == "linear":

        def block_linear(pc: NDArray[np.float64]) -> tuple[NDArray[np.float64]]:
            c = _radius(pc, tt, h)
            return (np.exp(_log_bstar_linear(c, _partner(c), gh)) / h,)

        (out_l,) = map_chunks(block_linear, p, 1, chunk)
        return out_l
    b1, b2 = _stationary_radii(gh)
    fixed = []
    for bs in (b1, b2):
        if not math.isnan(bs):
            fixed.append((bs, math.log(float(_ell(np.array([bs]), kde_chord_partner(np.array([bs])))[0]))))

    def block(pc: NDArray[np.float64]) -> tuple[NDArray[np.float64]]:
        c = _radius(pc, tt, h)
        logB = np.log(_ell(c, _partner(c)))
        if fixed and not math.isnan(b1):
            bs, lv = fixed[0]
            cand = np.where(c < bs, lv - gh * (bs - c), -np.inf)
            np.maximum(logB, cand, out=logB)
        if not math.isnan(b2):
            bs, lv = fixed[-1]
            cand = np.where(c > bs, lv - gh * (c - bs), -np.inf)
            np.maximum(logB, cand, out=logB)
        # b = 1 is always admissible: ell(1) e^{-gh|1 - c|} (a lower bound; guards the tiny-g series)
        np.maximum(logB, -0.5 - gh * np.abs(1.0 - c), out=logB)
        return (np.exp(logB) / h,)

    (out,) = map_chunks(block, p, 1, chunk)
    return out


def sensitivity_kde(
    points: ArrayLike, t: ArrayLike, h: float, growth: GrowthFunction, Lambda: float = math.inf
) -> SensitivityValues:
    """(kappa_t(x), L_{kappa,inf}(x), B*(x)) for the Gaussian KDE query (004 Sec. 4.3)."""
    return SensitivityValues(
        gaussian_kernel(points, t, h),
        lipschitz_kde(points, t, h, Lambda),
        smooth_sensitivity_kde(points, t, h, growth, Lambda),
    )
