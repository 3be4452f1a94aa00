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
b1, b2 depend only on g (one scalar root each per call, cached); the per-point work is the bracketed
root of phi_0 for alpha(c): a guess from a cached cubic table of alpha (nodes solved to the last bits;
guess error ~1e-14 relative) and a sign-change certificate of relative width 1e-10 around it (two
evaluations of phi_0; the rare points without the sign change go to the narrow bracket / a-priori
bracket, secant and bisection of ``_bisect``) - every point is certified or a RootFindingError names
it.  For g_E, ell(c) is computed only at the points where a tabulated upper bound of ln ell(c)
(ell increases on [0, 1] and decreases on [1, inf)) reaches the best of the other candidates; elsewhere
it cannot be the maximum, so the result is the same, bit for bit.  x = t (c = 0) is 004 Lemma 4.7: B*(t) = (1/h) max(ell(0),
ell(b1) e^{-g b1}).  The printed Lemma 4.6 / 4.7 sets differ from these; see the errata in
derivations/stationary_004.py and claims 004-Lemma-4.6 / 004-Lemma-4.7.

Supported: g_E (004 Lemmas 4.6-4.7) and g_L (same derivation, see smooth_sensitivity_kde), with
Lambda = inf; finite Lambda raises ValueError.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq, minimize_scalar

from .._cubic_table import cubic_coefficients, cubic_eval
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
    """psi(a, b) = log1p(a (a - b)) - a (a - b) + (a - b)^2/2 (ln of phi_0's two terms, 004 A.4 (2)).

    The generated ``kde_psi`` has two branches (a 17-term series for |u| < 1/10, u = a (a - b),
    and log1p(u) - (a - b)(a + b)/2 beyond) and, printed as ``numpy.where``, evaluates both on
    every element.  Here each branch is evaluated only on the elements that take it (boolean
    index, compute, scatter back) with the generated expressions verbatim, so the result equals
    ``kde_psi`` bit for bit (tests/core/test_sensitivity_kde.py checks it)."""
    if kde_psi is None:
        u = a * (a - b)
        return np.log1p(u) - u + 0.5 * (a - b) ** 2
    _x0 = a - b
    _x1 = _x0 * a
    small = np.abs(_x1) < 1 / 10
    out = np.empty_like(_x0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        if small.any():
            x0, x1, aa = _x0[small], _x1[small], a[small]
            out[small] = x0**3*aa**3*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(x1*(1/19 - 1/20*x1) - 1/18) + 1/17) - 1/16) + 1/15) - 1/14) + 1/13) - 1/12) + 1/11) - 1/10) + 1/9) - 1/8) + 1/7) - 1/6) + 1/5) - 1/4) + 1/3) + (1/2)*x0**2*(1 - aa)*(aa + 1)
            big = ~small
            if big.any():
                x0, x1 = _x0[big], _x1[big]
                out[big] = -1/2*x0*(a[big] + b[big]) + np.log1p(x1)
        else:
            out[...] = -1/2*_x0*(a + b) + np.log1p(_x1)
    return out


def _chi(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """chi(a, b) = 1 + a (a - b) - e^{(a^2 - b^2)/2} = e^{a^2/2} (-phi_0(a, b)) up to sign."""
    if kde_chi is not None:
        return kde_chi(a, b)
    return 1.0 + a * (a - b) - np.exp(0.5 * (a - b) * (a + b))


_F = NDArray[np.float64]
_Fun = Callable[[_F, _F], _F]  # fun(a, b) of the root finders below, elementwise


def _k(u: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(over="ignore"):  # u * u = inf for u > 1.3e154: k = e^{-inf} = 0, correct
        return np.exp(-0.5 * u * u)


def _replace_end(x: _F, fx: _F, lo: _F, flo: _F, hi: _F, fhi: _F) -> tuple[_F, _F, _F, _F]:
    """The bracket (lo, f(lo) > 0, hi, f(hi) < 0) with ``x`` (value ``fx``) replacing the end of the
    same sign, elementwise: lo where fx > 0, else hi.  Returns (lo, flo, hi, fhi)."""
    pos = fx > 0
    return np.where(pos, x, lo), np.where(pos, fx, flo), np.where(pos, hi, x), np.where(pos, fhi, fx)


def _bisect(fun: _Fun, lo: _F, hi: _F, b: _F, where: str, guess: _F | None = None) -> _F:
    """Vectorised bracketed root of fun(a, b) = 0 with fun(lo) > 0 > fun(hi), certified per point.

    A narrow bracket around ``guess`` where it holds a sign change, else 14 bisection steps on the
    a-priori bracket (width <= 2^-14 of the initial one); 2 secant steps kept inside the
    bracket, then a certificate: the signs of fun at x -+ delta (delta = 1e-10 |hi| / 2) must
    differ, which proves a root in a bracket of relative width 1e-10.  Points whose certificate
    fails continue by bisection until their bracket is that narrow.  A point without a sign change
    on its initial bracket raises :class:`RootFindingError` naming the input.  Every point's result
    depends on that point only (chunking does not change it)."""
    lo = lo.copy()
    hi = hi.copy()
    if guess is not None:
        # Try the narrow bracket [g - w, g + w] around the tabulated guess (clipped into the
        # a-priori bracket, which holds exactly one root besides a = b): a sign change on it
        # certifies the root there.  Only the points without one are checked on their a-priori
        # bracket and bisected, so every point's result depends on that point only.
        glo = np.clip(guess - _GUESS_W * np.abs(guess) - 1e-300, lo, hi)
        ghi = np.clip(guess + _GUESS_W * np.abs(guess) + 1e-300, lo, hi)
        flo, fhi = fun(glo, b), fun(ghi, b)
        good = (flo > 0) & (fhi < 0)
        lo = np.where(good, glo, lo)
        hi = np.where(good, ghi, hi)
        rest = np.nonzero(~good)[0]
    else:
        flo, fhi = np.empty_like(lo), np.empty_like(hi)
        rest = np.arange(lo.size)
    if rest.size:
        lr, hr, br = lo[rest], hi[rest], b[rest]
        flr, fhr = fun(lr, br), fun(hr, br)
        bad = ~((flr > 0) & (fhr < 0))
        if np.any(bad):
            i = int(np.argmax(bad))
            raise RootFindingError(
                f"no sign change of phi_0 on the bracket [{lr[i]!r}, {hr[i]!r}] for b = ||z - t||/h = "
                f"{br[i]!r} ({where}); the chord partner of this input cannot be certified"
            )
        for _ in range(14):
            mid = 0.5 * (lr + hr)
            lr, flr, hr, fhr = _replace_end(mid, fun(mid, br), lr, flr, hr, fhr)
        lo[rest], hi[rest], flo[rest], fhi[rest] = lr, hr, flr, fhr
    # secant steps from the two bracket ends (regula falsi), clipped into the bracket
    x0, f0, x1, f1 = lo, flo, hi, fhi
    for _ in range(_SECANT_STEPS):
        with np.errstate(invalid="ignore", divide="ignore"):
            x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        # converged (f1 = f0, e.g. f = 0 exactly): stay at x1; outside the bracket: bisect
        x2 = np.where(np.isfinite(x2), x2, x1)
        x2 = np.where((x2 >= lo) & (x2 <= hi), x2, 0.5 * (lo + hi))
        f2 = fun(x2, b)
        lo, flo, hi, fhi = _replace_end(x2, f2, lo, flo, hi, fhi)
        x0, f0, x1, f1 = x1, f1, x2, f2
    delta = 0.5 * _RTOL * np.abs(hi)
    xm, xp = np.maximum(x1 - delta, lo), np.minimum(x1 + delta, hi)
    fm, fp = fun(xm, b), fun(xp, b)
    ok = (fm > 0) & (fp < 0) | (f1 == 0)  # f1 = fun(x1, b) from the last secant step
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


_GUESS_W = 1e-5  # relative half-width of the fallback bracket around the guess (see _bisect)
_SECANT_STEPS = 2  # from a bracket of relative width 2e-5: error ~ (2e-5)^3 << the certificate's 1e-10
_TABLE_STEP = 1.0 / 1024.0  # node spacing s of the guess table (exact in binary)
_TABLE_N = 8192  # cells [b_i, b_i + s], i = 0 .. _TABLE_N - 1 (nodes up to b = 8 + 2s)
_TABLE_END = _TABLE_N * _TABLE_STEP  # = 8: beyond, alpha(b) = r_-(b) (1 + O(e^{-b^2/2})) is the guess
_UB_MARGIN = 1e-9  # added to the tabulated ln ell: covers rounding of the tabulated and the query values


def _solve_full(fun: _Fun, lo: _F, hi: _F, b: _F) -> _F:
    """The root of fun(a, b) on the a-priori bracket by 64 bisections (to the last bits; table only)."""
    lo, hi = lo.copy(), hi.copy()
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        pos = fun(mid, b) > 0
        lo = np.where(pos, mid, lo)
        hi = np.where(pos, hi, mid)
    return 0.5 * (lo + hi)


@lru_cache(maxsize=1)
def _partner_table() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(cubic coefficients of alpha per table cell, ln ell at the nodes + margin).

    alpha is solved at the nodes b_i = i s (s = 2^-10, i = 0 .. 8194) to the last bits by bisection
    on the a-priori brackets of :func:`kde_chord_partner` (series for |b - 1| < 1e-3).  On the cell
    [b_i, b_{i+1}] the guess is the cubic through the nodes i-1 .. i+2 (Lagrange, in t = (b - b_i)/s;
    f_{-1} at i = 0 by cubic extrapolation): its error is about 0.023 s^4 max|d^4 alpha/db^4|,
    ~1e-13 relative, far inside the 1e-10 certificate.  The guess is only a guess: every point is
    certified by a sign change (see :func:`_partner`).  The second table, ln ell(b_i) + 1e-9, bounds
    ln ell from above on the neighbouring cells because ell increases on [0, 1] and decreases on
    [1, inf) (D > 0 on (0, 1), D < 0 on (1, inf)); :func:`smooth_sensitivity_kde` uses it to skip the
    points whose chord slope cannot reach the maximum."""
    b = np.arange(_TABLE_N + 3, dtype=np.float64) * _TABLE_STEP
    a = np.empty_like(b)
    e = b - 1.0
    near = np.abs(e) < _SERIES
    a[near] = _alpha_series(e[near])
    g1 = (b < 1.0) & ~near
    bb = b[g1]
    a[g1] = _solve_full(_psi, np.ones_like(bb), np.full_like(bb, KDE_A_W * (1 + 1e-12)), bb)
    a[0] = KDE_A_W
    g2 = (b > 1.0) & ~near & (b < 2.0)
    bb = b[g2]
    a[g2] = _solve_full(_psi, np.zeros_like(bb), np.ones_like(bb), bb)
    g3 = b >= 2.0
    bb = b[g3]
    a[g3] = _solve_full(_chi, np.zeros_like(bb), _r_minus(bb) * (1 + 1e-9), bb)
    log_ub = np.log(_ell(b, a)) + _UB_MARGIN
    return cubic_coefficients(a), log_ub


def _guess(b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Initial guess of alpha(b): the cubic of the table cell (b <= 8), r_-(b) beyond."""
    coef, _ = _partner_table()
    out = cubic_eval(coef, np.minimum(b, _TABLE_END) * (1.0 / _TABLE_STEP), _TABLE_N - 1)
    big = b > _TABLE_END
    if big.any():
        out[big] = _r_minus(b[big])
    return out


def _log_ell_upper(c: NDArray[np.float64]) -> NDArray[np.float64]:
    """An upper bound of ln ell(c) (and of its computed value): ln ell at the node on the side of
    b = 1 (ell increases on [0, 1], decreases on [1, inf)) plus 1e-9; for c > 8,
    ln ell(c) <= ln alpha(c) < ln r_-(c) <= -ln(c - 2/c) (as sqrt(c^2 - 4) >= c - 4/c for c >= 2)."""
    _, log_ub = _partner_table()
    pos = np.minimum(c, _TABLE_END) * (1.0 / _TABLE_STEP)
    lo_node = pos.astype(np.intp)  # floor: the node towards 1 for c >= 1
    node = np.where(c < 1.0, lo_node + (pos > lo_node), lo_node)  # ceil for c < 1
    out = log_ub[node]
    big = c > _TABLE_END
    if big.any():
        cb = c[big]
        with np.errstate(over="ignore", divide="ignore"):
            out[big] = -np.log(cb - 2.0 / cb) + _UB_MARGIN
    return out


def _certify(fun: _Fun, lo: _F, hi: _F, b: _F, guess: _F, where: str) -> _F:
    """The root of fun(a, b) near ``guess``, certified by a sign change fun(x - d) > 0 > fun(x + d)
    (d = 1e-10 |x| / 2, clipped into the a-priori bracket [lo, hi], which holds exactly one root
    besides a = b): two evaluations per point.  Points without that sign change go through
    :func:`_bisect` (narrow bracket around the guess, else the a-priori bracket and bisection);
    every point's result depends on that point only."""
    delta = (0.5 * _RTOL) * np.abs(guess)
    xm = np.maximum(guess - delta, lo)
    xp = np.minimum(guess + delta, hi)
    ok = fun(xm, b) > 0
    ok &= fun(xp, b) < 0
    out = xm + xp
    out *= 0.5
    if not ok.all():
        bad = np.nonzero(~ok)[0]
        out[bad] = _bisect(fun, lo[bad], hi[bad], b[bad], where, guess[bad])
    return out


def kde_chord_partner(b: ArrayLike) -> NDArray[np.float64]:
    """alpha(b): the radius a != b (in units of h) of the steepest chord of k(u) = e^{-u^2/2} from b,
    i.e. the root of phi_0(a, b) = 0 (004 A.4 eq. (2)); certified by a sign change on a bracket of
    relative width 1e-10 (see ``_certify`` and ``_bisect``).  A-priori brackets: (1, a_W] for b < 1,
    (0, 1) for 1 < b < 2, (0, r_-(b)(1 + 1e-9)] for b >= 2 (r_- the smaller root of 1 + a(a - b)).
    alpha(0) = a_W, alpha(1) = 1; for |b - 1| < 1e-3 the series alpha(1+e) = 1 - e/2 + 3e^2/32 +
    9e^3/1280 (derivations.stationary_004.derive_kde_series) is used."""
    b = check_finite_array("b", b)
    if b.size and np.any(b < 0):
        raise ValueError(f"b must be a radius in [0, inf); got min(b)={b.min()!r}")
    return _partner(b)


def _alpha_series(e: NDArray[np.float64]) -> NDArray[np.float64]:
    """alpha(1 + e) = 1 - e/2 + 3e^2/32 + 9e^3/1280 + O(e^4), the chord partner at the triple root b = 1
    (derivations.stationary_004.derive_kde_series), used for |e| < 1e-3; its truncation error is
    proven <= 2.3e-3 e^4 on that range (claim 004-KDE-series-proof)."""
    return 1.0 - e / 2 + 3 * e ** 2 / 32 + 9 * e ** 3 / 1280


def _partner(b: NDArray[np.float64]) -> NDArray[np.float64]:
    """alpha(b) for b >= 0: a guess from the cubic table (:func:`_guess`), certified per point by
    two evaluations of phi_0's sign (:func:`_certify`; :func:`_bisect` for the rare failures)."""
    out = np.empty_like(b)
    guess_all = _guess(b)
    e = b - 1.0
    near = np.abs(e) < _SERIES
    if near.any():
        en = e[near]
        out[near] = _alpha_series(en)
    g12 = ~near & (b < 2.0)
    if np.any(g12):  # b in [0, 1): alpha in (1, a_W];  b in (1, 2): alpha in (0, 1)
        i12 = np.nonzero(g12)[0]
        bb = b[i12]
        lower = bb < 1.0
        lo = np.where(lower, 1.0, 0.0)
        hi = np.where(lower, KDE_A_W * (1 + 1e-12), 1.0)
        out[i12] = _certify(_psi, lo, hi, bb, guess_all[i12], "b < 2")
        out[g12 & (b == 0.0)] = KDE_A_W
    g3 = b >= 2.0
    if np.any(g3):  # b >= 2: alpha in (0, r_-(b)], r_- = 2/(b + sqrt(b^2 - 4)) the root of 1 + a(a - b)
        bb = b[g3]
        r = _r_minus(bb)
        out[g3] = _certify(_chi, np.zeros_like(bb), r * (1 + 1e-9), bb, guess_all[g3], "b >= 2")
    return out


def _r_minus(b: NDArray[np.float64]) -> NDArray[np.float64]:
    """r_-(b) = 2/(b + sqrt(b^2 - 4)), the smaller root of 1 + a (a - b), b >= 2.  b^2 overflows for
    b > 1.3e154, so there it is evaluated as (2/b)/(1 + sqrt((1 - 2/b)(1 + 2/b))) (same value up
    to rounding, no overflow up to the largest double); below, the original form (unchanged bits)."""
    with np.errstate(over="ignore", invalid="ignore"):
        r = 2.0 / (b + np.sqrt((b - 2.0) * (b + 2.0)))
    huge = b > 1e150
    if np.any(huge):
        bh = b[huge]
        r[huge] = (2.0 / bh) / (1.0 + np.sqrt((1.0 - 2.0 / bh) * (1.0 + 2.0 / bh)))
    return r


def kde_chord_slope(b: ArrayLike) -> NDArray[np.float64]:
    """ell(b) = sup_{a >= 0} |k(a) - k(b)|/|a - b| for k(u) = e^{-u^2/2}: h L_{kappa,inf} at radius b h.

    Evaluated as the chord to the certified partner alpha(b) (a lower bound that is exact to
    second order in the bracket width), never below the tangent |k'(b)| = b e^{-b^2/2}; series
    e^{-1/2}(1 - e^2/4 + 5e^3/96 + 191e^4/5120) for b = 1 + e, |e| < 1e-3."""
    b = check_finite_array("b", b)
    return _ell(b, kde_chord_partner(b))


def _ell(b: NDArray[np.float64], a: NDArray[np.float64]) -> NDArray[np.float64]:
    e = b - 1.0
    kb = _k(b)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        chord = np.abs(_k(a) - kb) / np.abs(a - b)
        tangent = b * kb
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


def _bisect_increasing(fun: _Fun, lo: _F, hi: _F, target: _F, where: str) -> _F:
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
        target = 1.0 / gh - cc
        # Q(1 - e) = 2/e - 13/8 + O(e) (from D(1 - e) = e/2 + 5e^2/32 + ...), so Q(1 - 1e-12) ~ 2e12: for
        # targets beyond 1e12 the root lies above (or too near) the bracket's upper end; there
        # b1 = 1 - 2/(target + 13/8) (error O(e^2), which moves F(b1) only at second order; b1 is a
        # stationary point).  The candidate uses |b1 - c|: a lower bound of sup F for any b1.
        near1 = target > 1e12
        b1 = np.empty_like(cc)
        b1[near1] = 1.0 - 2.0 / (target[near1] + 13.0 / 8.0)
        rest = ~near1
        if np.any(rest):
            cr = cc[rest]
            b1[rest] = _bisect_increasing(_q_minus_target, cr, np.full_like(cr, 1.0 - 1e-12), target[rest],
                                          "g_L, b1 in (c, 1)")
        cand = np.log(_ell(b1, _partner(b1))) - np.log1p(gh * np.abs(b1 - cc))
        logB[m1] = np.maximum(logB[m1], cand)
    b_p, p_min = _p_min()
    m2 = (c > 1.0 + 1e-12) & (1.0 / gh + c > p_min)
    if np.any(m2):
        cc = c[m2]
        target = 1.0 / gh + cc
        # P(1 + e) = 1 + 2/e + 5/8 + O(e) (from D(1 + e) = -e/2 + 5e^2/32 + ...): for targets
        # beyond P(1 + 1e-12) ~ 2e12 the root lies below the bracket's lower end; there (from 1e12 on,
        # so that the bisection always has its sign change) b2 = 1 + 2/(target - 13/8) (error O(e^2),
        # which moves F(b2) only at second order).
        near1 = target > 1e12
        b2 = np.empty_like(cc)
        b2[near1] = 1.0 + 2.0 / (target[near1] - 13.0 / 8.0)
        rest = ~near1
        if np.any(rest):
            # P decreases on (1, b_P): bisect the increasing function target - P
            neg = lambda b, tg: -_p_minus_target(b, tg)  # noqa: E731
            cr = cc[rest]
            b2[rest] = _bisect_increasing(neg, np.full_like(cr, 1.0 + 1e-12), np.full_like(cr, b_p), target[rest],
                                          "g_L, b2 in (1, b_P)")
        ok = b2 < cc
        with np.errstate(over="ignore"):
            cand = np.log(_ell(b2, _partner(b2))) - np.log1p(gh * np.abs(cc - b2))
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


def _radius_checked(
    p: NDArray[np.float64], t: NDArray[np.float64], h: float
) -> tuple[NDArray[np.float64], tuple[NDArray[np.intp], NDArray[np.float64]] | None]:
    """c = ||x - t||/h as in :func:`_radius`, without spurious overflow, and the far points.

    In d >= 2 the sum of squares overflows for ||x - t|| > 1.3e154; those rows are recomputed as
    m sqrt(sum(((x_i - t_i)/m)^2)), m = max_i |x_i - t_i|.  Rows whose c = ||x - t||/h still
    overflows get c = 0 as a placeholder and are returned as (indices, ||x - t||) for
    :func:`_far_bstar`, which the caller uses to overwrite them."""
    with np.errstate(over="ignore"):
        c = _radius(p, t, h)
    if np.isfinite(c).all():
        return c, None
    bad = np.nonzero(~np.isfinite(c))[0]
    diff = p[bad] - t
    m = np.max(np.abs(diff), axis=1)
    with np.errstate(over="ignore"):
        q = diff / m[:, None]
        norm = m * np.sqrt(np.einsum("ij,ij->i", q, q))
        cb = norm / h
    c[bad] = cb
    inf = ~np.isfinite(cb)
    if not inf.any():
        return c, None
    idx = bad[inf]
    c[idx] = 0.0
    return c, (idx, norm[inf])


def _far_bstar(norm: NDArray[np.float64], h: float, gamma: float, kind: str,
               fixed: tuple[tuple[float, float], tuple[float, float]] | None) -> NDArray[np.float64]:
    """B*(x) where c = ||x - t||/h overflows a double (so c > 1.8e308), from r = ||x - t|| (finite).

    Limit used (derivation): for c -> inf the chord partner is alpha(c) = r_-(c) = 1/c + O(c^-3)
    and ln ell(c) = -ln c + O(c^-2), exact to double precision here; write G = gamma r = (gamma h) c.
    The candidates of :func:`smooth_sensitivity_kde` in ln(h B*) become
      g_E:  b = c: -ln c;  b = 1: -1/2 - G + gamma h;  b2 < c: ln ell(b2) - G + gamma h b2
            (b1 < c is not a candidate);
      g_L:  b = c: -ln c;  b = 1 (and b2, whose root tends to 1 as its target 1/(gamma h) + c = inf,
            so its candidate equals the b = 1 one to double precision): -1/2 - log1p(G - gamma h),
    with ln c = ln r - ln h, and B* = exp(max(...) - ln h)."""
    gh = gamma * h
    G = gamma * norm
    with np.errstate(divide="ignore", over="ignore"):
        lnc = np.log(norm) - math.log(h)
        if kind == "exp":
            best = np.maximum(-lnc, -0.5 - G + gh)
            if fixed is not None and not math.isnan(fixed[1][0]):
                bs, lv = fixed[1]
                best = np.maximum(best, lv - G + gh * bs)
        else:
            best = np.maximum(-lnc, -0.5 - np.log1p(G - gh))
        return np.exp(best - math.log(h))


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
            c, far = _radius_checked(pc, tt, h)
            out = np.exp(_log_bstar_linear(c, _partner(c), gh)) / h
            if far is not None:  # c = inf: the limit of _far_bstar
                out[far[0]] = _far_bstar(far[1], h, float(g.gamma), "linear", None)
            return (out,)

        (out_l,) = map_chunks(block_linear, p, 1, chunk)
        return out_l
    fixed = _fixed_candidates(gh)
    b1, b2 = fixed[0][0], fixed[1][0]

    def block(pc: NDArray[np.float64]) -> tuple[NDArray[np.float64]]:
        c, far = _radius_checked(pc, tt, h)
        # b = 1 is always admissible: ell(1) e^{-gh|1 - c|} (a lower bound; guards the tiny-g series)
        best = np.abs(1.0 - c)
        best *= -gh
        best -= 0.5
        if not math.isnan(b1):
            bs, lv = fixed[0]
            np.maximum(best, np.where(c < bs, lv - gh * (bs - c), -np.inf), out=best)
        if not math.isnan(b2):
            bs, lv = fixed[1]
            np.maximum(best, np.where(c > bs, lv - gh * (c - bs), -np.inf), out=best)
        # ln ell(c) is computed only where its upper bound reaches the best other candidate; elsewhere
        # ln ell(c) < best, so the maximum (and its bits) are the same as with every term computed.
        need = np.nonzero(_log_ell_upper(c) >= best)[0]
        logB = best
        if need.size:
            cn = c[need]
            logB[need] = np.maximum(np.log(_ell(cn, _partner(cn))), best[need])
        out = np.exp(logB)
        out /= h
        if far is not None:  # c = inf: the limit of _far_bstar
            out[far[0]] = _far_bstar(far[1], h, float(g.gamma), "exp", fixed)
        return (out,)

    (out,) = map_chunks(block, p, 1, chunk)
    return out


@lru_cache(maxsize=256)
def _fixed_candidates(gh: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """((b1, ln ell(b1)), (b2, ln ell(b2))) for g = gamma h (NaN pairs where absent): the g_E
    stationary radii and their log chord slopes, which depend on gamma h only (cached per value)."""
    b1, b2 = _stationary_radii(gh)
    res = []
    for bs in (b1, b2):
        if math.isnan(bs):
            res.append((math.nan, math.nan))
        else:
            bb = np.array([bs])
            res.append((bs, math.log(float(_ell(bb, _partner(bb))[0]))))
    return res[0], res[1]


def sensitivity_kde(
    points: ArrayLike, t: ArrayLike, h: float, growth: GrowthFunction, Lambda: float = math.inf
) -> SensitivityValues:
    """(kappa_t(x), L_{kappa,inf}(x), B*(x)) for the Gaussian KDE query (004 Sec. 4.3)."""
    return SensitivityValues.of_query(
        gaussian_kernel, lipschitz_kde, smooth_sensitivity_kde, (points, t, h), growth, Lambda
    )
