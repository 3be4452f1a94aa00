"""The generalised Cauchy distribution GenCauchy(a, b, p, theta) of 004 Sec. 2.1 ([Rid57]).

Density (004 Sec. 2.1), location a = ``loc``, scale b = ``scale``, shape p > 0, theta > 0, p*theta > 1:

    h(y) = (1/b) * c_{p,theta} / (1 + |(y - a)/b|^p)^theta,
    c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)).

(The printed density writes ``c_{beta,theta}``; the normaliser defined right below it is c_{p,theta},
a typographical slip.)  The normaliser follows from the substitution u = r^p:
int_0^inf (1 + r^p)^(-theta) dr = B(1/p, theta - 1/p)/p, so c = p / (2 B(1/p, theta - 1/p)), which equals
the printed form; the tests check it against mpmath quadrature at 40 digits.

Beta representation used for CDF, inverse CDF and variance: with R = |Z| (Z standardised),
T = R^p / (1 + R^p) ~ Beta(1/p, theta - 1/p), and S = 1 - T = 1/(1 + R^p) ~ Beta(theta - 1/p, 1/p).
Hence, with a = 1/p and b = theta - 1/p (here a, b are Beta shapes, not location/scale),

    P(|Z| > r) = I_{s}(b, a) = 1 - I_{t}(a, b),   t = r^p/(1 + r^p),  s = 1/(1 + r^p),
    F(z) = P(|Z| > |z|)/2 for z <= 0 and 1 - F(-z) for z > 0 (symmetry),
    E|Z|^k = B((k+1)/p, theta - (k+1)/p) / B(1/p, theta - 1/p)   (exists iff p*theta > k + 1),

so the variance is B(3/p, theta - 3/p)/B(1/p, theta - 1/p) for p*theta > 3 (inf otherwise) and the mean
is 0 for p*theta > 2 (undefined otherwise).  For p = 4, theta = 1 this gives Var = 1, as 004 Sec. 2.1
states.

The normaliser, the CDF (general p, theta and the closed form of 004 App. C.1 for (4, 1)) and the
variance are the evaluators generated from derivations/gencauchy.py (``smoothsens_core._generated.noise``:
``gencauchy_log_normaliser``, ``gencauchy_cdf``, ``gencauchy4_cdf``, ``gencauchy_variance``), where the
forms above are derived with SymPy and the numerically arranged forms (complement incomplete beta near 0,
hypergeometric tail of C.1, Stirling for large theta) are proven equal to them.

Sampling is exact and needs no inverse CDF:  R^p = T/(1 - T) = G_a / G_b with independent
G_a ~ Gamma(1/p), G_b ~ Gamma(theta - 1/p) (beta-prime representation), so R = (G_a/G_b)^(1/p); for
(p, theta) = (4, 1) a faster exact rejection sampler is used (see :func:`_sample_gencauchy4`).
004 App. C.1 gives the closed-form CDF for (4, 1) but no explicit inverse (it says "solve for q in
F(q) = u"), so the inverse CDF is the regularised incomplete beta inverse (scipy.special.betaincinv),
exact up to floating point and without per-sample root finding in Python.  For (4, 1) the C.1 closed
form itself is inverted (about 6x faster than betaincinv): a guess from a cached cubic table in a
normalised variable, certified per point by a sign change of the closed-form CDF on a bracket of
relative width 8e-14 and refined by the secant through those two values; uncertified points fall back
to the incomplete beta inverse (see :func:`_gencauchy4_abs_quantile`).  One Python float given to
``cdf`` (any shape) or ``ppf`` ((4, 1)) takes a scalar path with the same operations (same bits).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike
from scipy import special as sc

from .._cubic_table import cubic_coefficients, cubic_eval
from .._generated.noise import gencauchy_cdf, gencauchy_log_normaliser, gencauchy_variance
# re-exported: the generated 004 App. C.1 evaluator that _gencauchy4_cdf_masked reproduces bit for bit
from .._generated.noise import gencauchy4_cdf  # noqa: F401
from ..validation import check_positive
from ._base import ContinuousDistribution, FloatArray

__all__ = ["GenCauchy"]

_TINY = float(np.finfo(float).tiny)  # the clip of ContinuousDistribution.ppf
_ONE_MINUS_EPSNEG = 1.0 - float(np.finfo(float).epsneg)

# Below this value of s = 1/(1 + r^p) the leading term of I_s(b, a) = s^b / (b B(b, a)) (1 + O(s)) is
# exact to double precision (relative correction < 1e-20).  The inverse uses it below _S_ASYMPTOTIC
# (scipy's betaincinv is unreliable for tiny s).
_S_ASYMPTOTIC = 1e-20
_LOG_S_ASYMPTOTIC = math.log(_S_ASYMPTOTIC)


def _gencauchy_abs_quantile(y: FloatArray, p: float, theta: float) -> FloatArray:
    """The r >= 0 with P(|Z| > r) = y, y in (0, 1], Z ~ GenCauchy(0, 1, p, theta).

    s = 1/(1+r^p) solves I_s(b, a) = y and t = 1 - s solves 1 - I_t(a, b) = y; the smaller of the two
    (s for r >= 1, t for r < 1) is obtained from its own inverse (betaincinv / betainccinv) and the
    other as log1p(-small), so neither small one is formed as 1 - (the other).
    r = (t/s)^(1/p) = exp((ln t - ln s)/p).  For tiny y the inverse of the leading term
    ln s = (ln y + ln b + ln B(b, a))/b is used (exact to double precision when s < 1e-20, and it
    does not underflow; scipy's betaincinv returns the smallest normal instead of s < 1e-308).
    """
    a = 1.0 / p
    b = (p * theta - 1.0) / p  # = theta - 1/p with one rounding fewer (s^b amplifies errors in b by |ln s|)
    log_s_lead = (np.log(y) + math.log(b) + sc.betaln(b, a)) / b
    asym = log_s_lead < _LOG_S_ASYMPTOTIC
    # One inverse per point, on the elements that need it (boolean index, compute, scatter back):
    # y <= y_1 = P(|Z| > 1) = I_{1/2}(b, a) means s <= 1/2, where s is the small one and is taken from
    # betaincinv (ln t = log1p(-s)); above, t < 1/2 is the small one, from betainccinv (ln s = log1p(-t)).
    y_1 = float(sc.betainc(b, a, 0.5))
    log_s = np.empty_like(y)
    log_t = np.empty_like(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_s[asym] = log_s_lead[asym]
        log_t[asym] = np.log1p(-np.exp(log_s_lead[asym]))  # ln t = ln(1 - s)
        tail = ~asym & (y <= y_1)
        if tail.any():
            s = sc.betaincinv(b, a, y[tail])
            log_s[tail] = np.log(s)
            log_t[tail] = np.log1p(-s)
        body = ~asym & ~(y <= y_1)
        if body.any():
            t = sc.betainccinv(a, b, y[body])
            log_t[body] = np.log(t)
            log_s[body] = np.log1p(-t)
        return np.exp((log_t - log_s) / p)


_CDF41_X0 = np.sqrt(2)
_CDF41_X1 = np.pi**(-1.0)
_CDF41_K = (1/3)*_CDF41_X0*_CDF41_X1  # the tail's (1/3) sqrt2/pi, as the generated code rounds it
_CDF41_X7 = (1/2)*_CDF41_X1
_CDF41_CHUNK = 1 << 16  # elements per slice: the temporaries of one slice (512 KiB each) stay in cache


def _gencauchy4_cdf_masked(z: FloatArray) -> FloatArray:
    """``gencauchy4_cdf`` (004 App. C.1, generated) with each branch evaluated only where taken.

    By symmetry F(z) = lower(|z|) for z < 0 and 1 - lower(|z|) for z >= 0, with lower(q) the
    generated z < 0 branch at z = -q:  lower(q) = c 2F1(3/4, 1; 7/4; -q^-4)/q^3 (c = sqrt2/(3 pi))
    for q > 1 and 1/2 - (artanh(sqrt2 q/(1 + q^2)) + arctan2(sqrt2 q, 1 - q^2))/(2 pi) for q <= 1.
    This is the generated expression bit for bit: q^4 = (q^2)^2, q^2 and 1 - q^2 are even in z,
    artanh and the arctan2 of a sign-flipped first argument are odd, q^3 = q^2 q is odd and the
    negations are exact (tests/core/test_distributions_gencauchy.py).  Each special function runs
    once per element, on its own branch only (hyp2f1 on |z| > 1, artanh/arctan2 on |z| <= 1), slice
    by slice; the powers are squares and products as the generator prints them (``square_powers``:
    NumPy's ``x**4`` calls pow, 30 times a square), and the sign is applied arithmetically (a masked
    ``copyto`` mispredicts on random signs, and an index scatter costs five passes)."""
    out = np.empty_like(z)
    zf = z.reshape(-1)
    of = out.reshape(-1)
    # scratch allocated once per call: a fresh 512 KiB temporary per slice is mapped and faulted in
    # again every slice (glibc returns it to the system on free), which costs a tenth of an np.exp pass
    k0 = min(zf.size, _CDF41_CHUNK)
    q_buf, x_buf, y_buf, w_buf = (np.empty(k0) for _ in range(4))
    m_buf = np.empty(k0, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        for a in range(0, zf.size, _CDF41_CHUNK):
            zc = zf[a : a + _CDF41_CHUNK]
            k = zc.size
            q = np.abs(zc, out=q_buf[:k])  # overwritten by lower(q) branch by branch
            mask = np.greater(q, 1, out=m_buf[:k])
            it = np.flatnonzero(mask)
            np.logical_not(mask, out=mask)
            ib = np.flatnonzero(mask)
            if it.size:  # c 2F1(3/4, 1; 7/4; -1/(q^2)^2)/(q^2 q), in place (x*K = K*x: the same rounding)
                nt = it.size
                qt = q.take(it, out=x_buf[:nt])
                q2 = np.square(qt, out=y_buf[:nt])
                h = np.square(q2, out=w_buf[:nt])
                np.divide(-1, h, out=h)
                sc.hyp2f1(3/4, 1, 7/4, h, out=h)
                h *= _CDF41_K
                q2 *= qt
                np.divide(h, q2, out=h)
                q[it] = h
            if ib.size:  # 1/2 - (artanh(sqrt2 q/(q^2 + 1)) + arctan2(sqrt2 q, 1 - q^2))/(2 pi), in place
                nb = ib.size
                qb = q.take(ib, out=x_buf[:nb])
                x3 = np.multiply(qb, _CDF41_X0, out=y_buf[:nb])
                x4 = np.square(qb, out=qb)
                t = np.add(x4, 1, out=w_buf[:nb])
                np.divide(x3, t, out=t)
                np.arctanh(t, out=t)
                np.subtract(1, x4, out=x4)
                np.arctan2(x3, x4, out=x3)
                t += x3
                t *= -_CDF41_X7
                t += 1/2
                q[ib] = t
            # F = 1 - lower(|z|) for z >= 0 (and NaN), lower(|z|) for z < 0, without a select:
            # s = 1 for z >= +0, 0 for z <= -0 (lower(0) = 1/2 = 1 - lower(0) at z = -0), and
            # |s - lower| is 1 - lower (>= 1/2 > 0) or |-lower| = lower, the same roundings
            s = np.copysign(0.5, zc, out=x_buf[:k])
            s += 0.5
            np.subtract(s, q, out=s)
            np.abs(s, out=of[a : a + _CDF41_CHUNK])
    return out


def _gencauchy_cdf_masked(z: FloatArray, p: float, theta: float) -> FloatArray:
    """``gencauchy_cdf`` (generated) with each branch evaluated only where taken: betaincc for
    |z| < 1, betainc for 1 <= |z| with p ln|z| <= 644, the generated function itself beyond."""
    pa = np.asarray(p, dtype=np.float64)
    ta = np.asarray(theta, dtype=np.float64)
    half = np.empty_like(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        _x0 = pa**(-1.0)
        _x1 = pa*ta - 1
        _x2 = _x0*_x1
        _x3 = abs(z)
        _x4 = pa*np.log(_x3)
        body = _x3 < 1
        far = ~body & (_x4 > 644)
        mid = ~body & ~far
        if body.any():
            _x5 = np.exp(_x4[body])
            half[body] = (1/2)*sc.betaincc(_x0, _x2, _x5/(_x5 + 1))
        if mid.any():
            _x6 = np.exp(-_x4[mid])
            half[mid] = (1/2)*sc.betainc(_x2, _x0, _x6/(_x6 + 1))
        if far.any():
            zf = z[far]
            lower = np.asarray(gencauchy_cdf(-np.abs(zf), p, theta))  # = T/2 at -|z|
            half[far] = lower
        return np.where(z < 0, half, 1 - half)


# ---- GenCauchy(4, 1): inverse CDF by Newton on the closed form of 004 App. C.1 ------------------
# c = sqrt2/pi; P(|Z| < r) = H(r) = (1/pi) (artanh(sqrt2 r/(1 + r^2)) + arctan2(sqrt2 r, 1 - r^2)) (App. C.1
# at z = -r); in the tail r >= 2, P(|Z| > r) = K r^-3 S(w), K = 2 sqrt2/(3 pi), w = r^-4,
# S(w) = 2F1(3/4, 1; 7/4; -w) = sum_n 3/(4n + 3) (-w)^n (the hypergeometric tail of App. C.1; w <= 1/16,
# so 16 terms reach 2^-64).
_C41 = math.sqrt(2.0) / math.pi
_K41 = 2.0 * math.sqrt(2.0) / (3.0 * math.pi)
_S41 = tuple(3.0 / (4 * n + 3) * (-1) ** n for n in range(16))
_Y1_41 = 0.5 - math.asinh(1.0) / math.pi  # P(|Z| > 1) = 1 - H(1), H(1) = (artanh(1/sqrt2) + pi/2)/pi
_PPF_CERT = 4e-14  # relative half-width in r of the final bracket check
_PPF_STEP = 1.0 / 16384.0  # node spacing of the guess tables


def _h41(r: FloatArray) -> FloatArray:
    """H(r) = P(|Z| < r), r >= 0 (App. C.1 closed form), with artanh(x) = log1p(2x/(1 - x))/2 and
    arctan2(sqrt2 r, 1 - r^2) = arctan(sqrt2 r/(1 - r^2)) (+ pi where 1 - r^2 < 0): a few ulp."""
    s2r = math.sqrt(2.0) * r
    r2 = r * r
    x = s2r / (r2 + 1.0)
    at = np.arctan(s2r / (1.0 - r2))
    at[at < 0] += math.pi
    at += 0.5 * np.log1p(2.0 * x / (1.0 - x))
    at *= 1.0 / math.pi
    return at


def _tail41(r: FloatArray, with_slope: bool = True) -> tuple[FloatArray, FloatArray | None]:
    """(P(|Z| > r), d ln P / d ln r) for r > 0: series for r >= 2 in u = 1/r (u^3, u^4 underflow
    harmlessly), the closed form 1 - H(r) below."""
    out = np.empty_like(r)
    slope = np.empty_like(r) if with_slope else r
    far = r >= 2.0
    with np.errstate(under="ignore"):
        u = 1.0 / r[far]
        u2 = u * u
        w = u2 * u2
        s = np.full_like(w, _S41[-1])
        for cf in _S41[-2::-1]:
            s *= w
            s += cf
        out[far] = (_K41 * s) * (u2 * u)
    if with_slope:
        slope[far] = -3.0 / ((1.0 + w) * s)
    mid = ~far
    if mid.any():
        rm = r[mid]
        g = 1.0 - _h41(rm)
        out[mid] = g
        if with_slope:
            slope[mid] = -2.0 * _C41 * rm / ((1.0 + rm**4) * g)
    return out, (slope if with_slope else None)


def _body41(r: FloatArray, with_slope: bool = True) -> tuple[FloatArray, FloatArray | None]:
    """(P(|Z| < r), d ln P / d ln r) for r > 0 (for tiny r, H = 2 c r (1 + O(r^4)))."""
    hh = _h41(r)
    return hh, (2.0 * _C41 * r / ((1.0 + r**4) * hh) if with_slope else None)


def _newton_step(fun, r: FloatArray, target: FloatArray) -> FloatArray:
    """One Newton step in (ln r, ln P), the residual ln(P/target) = log1p(P/target - 1) formed from P
    itself (no large logarithms): r exp(-ln(P/target)/slope)."""
    val, slope = fun(r)
    return r * np.exp(-np.log1p(val / target - 1.0) / slope)


def _cubic_eval(coef: FloatArray, x: FloatArray) -> FloatArray:
    """The cubic table ``coef`` (nodes every _PPF_STEP from 0) at x >= 0."""
    return cubic_eval(coef, x * (1.0 / _PPF_STEP), coef.shape[0] - 1)


@lru_cache(maxsize=1)
def _tables41() -> tuple[FloatArray, FloatArray]:
    """Guess tables (cubic per cell, spacing 2^-14): r as a function of v = P(|Z| < r) in [0, 0.79]
    (body) and 1/r as a function of x = (y/K)^(1/3) in [0, 0.91] (tail, y = P(|Z| > r) = K r^-3 S).
    Node values: 8 Newton steps (quadratic convergence from r = v/(2c), resp. 1/r = x) to rounding
    level, then checked against the certificate used per point.  Guesses only: every quantile is
    certified by :func:`_gencauchy4_abs_quantile`."""
    v = np.arange(int(0.79 / _PPF_STEP) + 3) * _PPF_STEP
    rb = np.maximum(v / (2.0 * _C41), 1e-300)
    x = np.arange(int((_Y1_41 / _K41) ** (1.0 / 3.0) / _PPF_STEP) + 3) * _PPF_STEP
    ut = np.maximum(x, 1e-300)
    y = _K41 * ut**3
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        for _ in range(8):
            rb = np.where(v > 0, _newton_step(_body41, rb, np.maximum(v, 1e-300)), 0.0)
            ut = np.where(x > 0, 1.0 / _newton_step(_tail41, 1.0 / ut, np.maximum(y, 1e-300)), 0.0)
    rb[0] = 0.0
    ut[0] = 0.0
    return cubic_coefficients(rb), cubic_coefficients(ut)


def _certified_secant(fun, r0: FloatArray, target: FloatArray, sign: float) -> tuple[FloatArray, FloatArray]:
    """From the guess r0: evaluate P at r0 (1 -+ 4e-14); a sign change of sign * (P - target) between
    the two (sign = +1 for the increasing P(|Z| < r), -1 for P(|Z| > r)) certifies the root in that
    bracket, and the secant through the two values (clipped into it) is returned: (r, certified)."""
    rl = r0 * (1.0 - _PPF_CERT)
    rh = r0 * (1.0 + _PPF_CERT)
    fl, _ = fun(rl, False)
    fh, _ = fun(rh, False)
    fl -= target
    fh -= target
    ok = (sign * fl <= 0.0) & (sign * fh >= 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = fl / (fl - fh)
    frac = np.where(np.isfinite(frac), np.clip(frac, 0.0, 1.0), 0.5)
    return rl + frac * (rh - rl), ok


def _gencauchy4_abs_quantile(y: FloatArray) -> FloatArray:
    """r >= 0 with P(|Z| > r) = y, y in (0, 1], for (p, theta) = (4, 1).

    y <= P(|Z| > 1): guess 1/r from the table in x = (y/K)^(1/3) (the tail P(|Z| > r) = K r^-3 S);
    y > P(|Z| > 1): guess r from the table in v = 1 - y (exact for y >= 1/2 by Sterbenz; below,
    rounded by at most 2^-54, under 1e-16 relative to y), P(|Z| < r) = v.  The table guesses are
    within 1e-15 of the root (table nodes: Newton to rounding level; cubic interpolation error
    0.023 s^4 max|d^4 r/dv^4| with s = 2^-14, measured below 1e-15 against betaincinv).  Each result is certified by a sign change of P(|Z| > r) - y (resp. P(|Z| < r) - v)
    between r0 (1 - 4e-14) and r0 (1 + 4e-14), both ends from the closed forms of App. C.1 (two
    evaluations per point), and refined by the secant through those two values (a Newton step with
    the derivative taken from the certificate itself); the points without a sign change fall back to
    the incomplete-beta inverse.  Slices of 2^15 points keep the temporaries in cache."""
    coef_b, coef_t = _tables41()
    shape = np.shape(y)
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    r = np.zeros_like(y)
    ok = y >= 1.0  # r = 0
    block = 1 << 15
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        for start in range(0, y.size, block):
            sl = slice(start, start + block)
            yc, rc, okc = y[sl], r[sl], ok[sl]
            tail = yc <= _Y1_41
            it = np.nonzero(tail)[0]
            ib = np.nonzero(~tail & (yc < 1.0))[0]
            if it.size:
                yt = yc[it]
                ut = _cubic_eval(coef_t, np.cbrt(yt * (1.0 / _K41)))
                rc[it], okc[it] = _certified_secant(_tail41, 1.0 / ut, yt, -1.0)
            if ib.size:
                vb = 1.0 - yc[ib]
                rc[ib], okc[ib] = _certified_secant(_body41, _cubic_eval(coef_b, vb), vb, 1.0)
    if not ok.all():
        bad = np.nonzero(~ok)[0]
        r[bad] = _gencauchy_abs_quantile(y[bad], 4.0, 1.0)
    return r.reshape(shape)


def _gencauchy_ppf(q: FloatArray, p: float, theta: float) -> FloatArray:
    """Inverse CDF of GenCauchy(0, 1, p, theta) for q in (0, 1).

    For q <= 1/2: z = -r with P(|Z| > r) = 2q.  For q > 1/2: z = r with P(|Z| > r) = 2(1 - q);
    1 - q is exact for q >= 1/2 (Sterbenz), so no precision is lost in forming it.
    """
    lower = q <= 0.5
    y = np.where(lower, 2.0 * q, 2.0 * (1.0 - q))
    if p == 4.0 and theta == 1.0:
        r = _gencauchy4_abs_quantile(y)
    else:
        r = _gencauchy_abs_quantile(y, p, theta)
    return np.where(lower, -r, r)


# ---- one point given as a Python float: the same operations on scalars ---------------
# The array paths above spend most of a one-point call in NumPy's per-call overhead (masks, boolean
# indexing, broadcasting).  These mirror them operation for operation on one float (NumPy's ufuncs
# on scalars run the same loops as on arrays), so a one-point call returns the bits of the array
# path (tests/core/test_distributions_gencauchy.py checks it on random points of every branch).
_X0_41 = float(np.sqrt(2))
_X1_41 = float(np.pi ** (-1.0))


def _gencauchy4_cdf_one(z: float) -> float:
    """``_gencauchy4_cdf_masked`` at one point."""
    if abs(z) > 1:
        z2 = z*z  # (z^2)^2 and z^2 z as printed (square_powers); a float product overflows to inf,
        # and -1/inf = -0 and x/inf = 0 in Python as in the array path
        x2 = (1/3)*_X0_41*_X1_41*float(sc.hyp2f1(3/4, 1, 7/4, -1/(z2*z2)))/(z2*z)
        return -x2 if z < 0 else 1 - x2
    x3 = _X0_41*z
    x4 = z*z  # NumPy's zb**2 is a square (x*x); Python's z**2 calls pow, which may round differently
    x5 = 1 - x4
    x6 = float(np.arctanh(x3/(x4 + 1)))
    x7 = (1/2)*_X1_41
    if z < 0:
        return -x7*(-x6 + float(np.arctan2(-x3, x5))) + 1/2
    return 1 - (-x7*(x6 + float(np.arctan2(x3, x5))) + 1/2)


def _gencauchy_cdf_one(z: float, p: float, theta: float, consts: tuple[float, float]) -> float:
    """``_gencauchy_cdf_masked`` at one point; consts = (p^-1, (p theta - 1)/p) as computed there."""
    x0, x2 = consts
    x3 = abs(z)
    with np.errstate(divide="ignore", over="ignore", under="ignore"):
        x4 = p*float(np.log(x3))
        if x3 < 1:
            x5 = float(np.exp(x4))
            half = (1/2)*float(sc.betaincc(x0, x2, x5/(x5 + 1)))
        elif x4 > 644:
            half = float(np.asarray(gencauchy_cdf(-np.abs(np.array([z])), p, theta))[0])
        else:
            x6 = float(np.exp(-x4))
            half = (1/2)*float(sc.betainc(x2, x0, x6/(x6 + 1)))
    return half if z < 0 else 1 - half


def _tail41_one(r: float) -> float:
    if r >= 2.0:
        u = 1.0 / r
        u2 = u * u
        w = u2 * u2
        s = _S41[-1]
        for cf in _S41[-2::-1]:
            s = s * w + cf
        return (_K41 * s) * (u2 * u)
    return 1.0 - _h41_one(r)


def _h41_one(r: float) -> float:
    s2r = math.sqrt(2.0) * r
    r2 = r * r
    x = s2r / (r2 + 1.0)
    with np.errstate(divide="ignore"):
        at = float(np.arctan(s2r / (1.0 - r2))) if r2 != 1.0 else math.pi / 2
    if at < 0:
        at += math.pi
    at += 0.5 * float(np.log1p(2.0 * x / (1.0 - x)))
    return at * (1.0 / math.pi)


def _gencauchy4_abs_quantile_one(y: float) -> float:
    """``_gencauchy4_abs_quantile`` at one point (same table guess, certificate and secant)."""
    if y >= 1.0:
        return 0.0
    coef_b, coef_t = _tables41()
    if y <= _Y1_41:
        ut = _cubic_eval_one(coef_t, float(np.cbrt(y * (1.0 / _K41))))
        r0, target, fun, sign = 1.0 / ut, y, _tail41_one, -1.0
    else:
        target = 1.0 - y
        r0, fun, sign = _cubic_eval_one(coef_b, target), _h41_one, 1.0
    rl = r0 * (1.0 - _PPF_CERT)
    rh = r0 * (1.0 + _PPF_CERT)
    fl = fun(rl) - target
    fh = fun(rh) - target
    if not (sign * fl <= 0.0 and sign * fh >= 0.0):
        return float(_gencauchy_abs_quantile(np.array([y]), 4.0, 1.0)[0])
    den = fl - fh
    frac = fl / den if den != 0.0 else math.nan
    frac = min(max(frac, 0.0), 1.0) if math.isfinite(frac) else 0.5
    return rl + frac * (rh - rl)


def _cubic_eval_one(coef: FloatArray, x: float) -> float:
    pos = x * (1.0 / _PPF_STEP)
    idx = min(int(pos), coef.shape[0] - 1)
    t = pos - idx
    c0, c1, c2, c3 = coef[idx].tolist()
    return ((c3 * t + c2) * t + c1) * t + c0


def _sample_gencauchy4(size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
    """Exact draws of Z ~ GenCauchy(0, 1, 4, 1): the density of R = |Z| is proportional to 1/(1 + r^4).

    Fold [1, inf) onto (0, 1] by r = 1/w: int_1^inf dr/(1+r^4) = int_0^1 w^2/(1+w^4) dw.  So draw w on
    (0, 1) with density proportional to h0(w) + h1(w) = (1 + w^2)/(1 + w^4) by rejection from the uniform
    (bound M = max (1+w^2)/(1+w^4) = (1 + sqrt2)/2 at w^2 = sqrt2 - 1; acceptance pi/(2 sqrt2)/M = 0.92),
    then take R = w with probability h0/(h0 + h1) = 1/(1 + w^2), else R = 1/w, with a uniform sign.
    Branch and sign share one uniform: c ~ U[0, 1 + w^2); c < 1 is the inner branch and then c ~ U[0, 1)
    gives the sign (c < 1/2); otherwise c - 1 ~ U[0, w^2) gives it (c < 1 + w^2/2).
    Works in blocks of 2^15 so that the temporaries stay in cache.
    """
    n = math.prod(size)
    out = np.empty(n)
    filled = 0
    bound = (1.0 + math.sqrt(2.0)) / 2.0
    block = 1 << 15
    while filled < n:
        m = min(block, int((n - filled) * 1.09) + 16)
        w = rng.random(m)
        v = rng.random(m)
        c = rng.random(m)
        w2 = w * w
        lhs = w2 * w2
        lhs += 1.0
        lhs *= v
        lhs *= bound  # v M (1 + w^4)
        w2 += 1.0  # now 1 + w^2
        keep = lhs < w2
        c *= w2
        outer = c >= 1.0  # never at w = 0 (c < 1 + 0), so 1/w is only selected for w > 0
        with np.errstate(divide="ignore"):
            r = np.where(outer, 1.0 / w, w)
        half = np.where(outer, 0.5 + 0.5 * w2, 0.5)  # 1 + w^2/2 = (1 + (1 + w^2))/2
        np.negative(r, out=r, where=c < half)
        r = r[keep]
        take = min(r.size, n - filled)
        out[filled : filled + take] = r[:take]
        filled += take
    return out.reshape(size)


class GenCauchy(ContinuousDistribution):
    """GenCauchy(a, b, p, theta) of 004 Sec. 2.1: density (1/b) c_{p,theta} / (1 + |(y-a)/b|^p)^theta.

    Parameters: ``p`` > 0 (tail exponent), ``theta`` > 0 with p*theta > 1, ``loc`` = a, ``scale`` = b > 0.
    p = 2, theta = 1 is the Cauchy distribution; p = 2, theta = (nu+1)/2, scale = sqrt(nu) tau is
    Student's T_nu(a, tau).  Mean 0 (+loc) if p*theta > 2, variance B(3/p, theta-3/p)/B(1/p, theta-1/p)
    (times scale^2) if p*theta > 3, else inf.
    """

    name = "gencauchy"
    symmetric = True

    def __init__(self, p: float, theta: float = 1.0, loc: float = 0.0, scale: float = 1.0) -> None:
        super().__init__(loc=loc, scale=scale)
        self.p = check_positive("p", p)
        self.theta = check_positive("theta", theta)
        if not self.p * self.theta > 1.0:
            raise ValueError(
                f"p*theta must be > 1; got p*theta={self.p * self.theta!r}, p={self.p!r}, theta={self.theta!r}"
            )
        self._a = 1.0 / self.p  # Beta shapes of T = |Z|^p/(1 + |Z|^p) ~ Beta(a, b)
        self._b = (self.p * self.theta - 1.0) / self.p
        self._log_c = float(gencauchy_log_normaliser(self.p, self.theta))
        self._is_41 = self.p == 4.0 and self.theta == 1.0
        pa = np.asarray(self.p, dtype=np.float64)  # the constants of _gencauchy_cdf_masked, as computed there
        self._cdf_consts = (float(pa**(-1.0)), float(pa**(-1.0)*(pa*np.asarray(self.theta, dtype=np.float64) - 1)))

    def _shape_repr(self) -> str:
        return f"p={self.p!r}, theta={self.theta!r}"

    def _logpdf(self, z: FloatArray) -> FloatArray:
        # ln(1 + |z|^p) without overflow of |z|^p:  with L = p ln|z|,  ln(1 + e^L) = -log_expit(-L).
        with np.errstate(divide="ignore"):
            big_l = self.p * np.log(np.abs(z))
        return self._log_c + self.theta * sc.log_expit(-big_l)

    def _cdf(self, z: FloatArray) -> FloatArray:
        # The generated evaluators print their Piecewise as numpy.where and so evaluate every branch
        # (hyp2f1, betainc, betaincc) on every element; the masked versions below evaluate each
        # branch only where it is taken, with the generated expressions verbatim (equal bit for bit,
        # tests/core/test_distributions_gencauchy.py), and leave the rare extreme tail to the
        # generated function itself.
        z = np.asarray(z, dtype=np.float64)
        if self._is_41:
            return _gencauchy4_cdf_masked(z)
        return _gencauchy_cdf_masked(z, self.p, self.theta)

    def cdf(self, x: ArrayLike) -> FloatArray | float:
        """P(X <= x); one Python float (not NaN) takes the scalar path (same operations, same bits)."""
        if type(x) is float and x == x:
            z = (x - self.loc) / self.scale
            if z == -math.inf:
                return 0.0
            if z == math.inf:
                return 1.0
            return _gencauchy4_cdf_one(z) if self._is_41 else _gencauchy_cdf_one(z, self.p, self.theta, self._cdf_consts)
        return super().cdf(x)

    def ppf(self, q: ArrayLike) -> FloatArray | float:
        """Inverse CDF; for (4, 1) one Python float q in [0, 1] takes the scalar path (same bits)."""
        if self._is_41 and type(q) is float and 0.0 <= q <= 1.0:
            if q == 0.0:
                z = -math.inf
            elif q == 1.0:
                z = math.inf
            else:
                qq = min(max(q, _TINY), _ONE_MINUS_EPSNEG)
                lower = qq <= 0.5
                r = _gencauchy4_abs_quantile_one(2.0 * qq if lower else 2.0 * (1.0 - qq))
                z = -r if lower else r
            return self.loc + self.scale * z
        return super().ppf(q)

    def _sf(self, z: FloatArray) -> FloatArray:
        return self._cdf(-z)  # symmetry: P(Z > z) = P(Z < -z); the lower tail is computed directly

    def _ppf(self, q: FloatArray) -> FloatArray:
        return _gencauchy_ppf(q, self.p, self.theta)

    def _isf(self, q: FloatArray) -> FloatArray:
        return -self._ppf(q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        if self._is_41:
            return _sample_gencauchy4(size, rng)
        # R^p = G_a / G_b (beta-prime), computed in log space: R = exp((ln G_a - ln G_b)/p)
        g_a = rng.standard_gamma(self._a, size)
        g_b = rng.standard_gamma(self._b, size)
        with np.errstate(divide="ignore"):
            r = np.exp((np.log(g_a) - np.log(g_b)) / self.p)
        sign = rng.random(size) < 0.5
        return np.where(sign, -r, r)

    def _mean(self) -> float:
        return 0.0 if self.p * self.theta > 2.0 else math.nan

    def _variance(self) -> float:
        return float(gencauchy_variance(self.p, self.theta))

    # ---- shape of ln h (004 Sec. 2.1 density; 004 Lemma 3.3 proof, Claim 3.4) ----------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -theta p sign(z) |z|^(p-1) / (1 + |z|^p)  (d/dz of -theta ln(1 + |z|^p)).

        In log space, r = |z|: ln|psi| = ln(theta p) + (p - 1) ln r - ln(1 + r^p) for r <= 1 and
        ln(theta p) - ln r - ln(1 + r^(-p)) for r > 1, so r^p never overflows.  At z = 0 the right
        derivative: 0 for p > 1, -theta for p = 1, -inf for p < 1 (psi is unbounded there)."""
        p, th = self.p, self.theta
        r = np.abs(z)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            lr = np.log(r)
            near = (p - 1.0) * lr - np.logaddexp(0.0, p * lr)
            far = -lr - np.logaddexp(0.0, -p * lr)
            mag = th * p * np.exp(np.where(r <= 1.0, near, far))
        at0 = 0.0 if p > 1.0 else (th if p == 1.0 else math.inf)
        mag = np.where(r == 0.0, at0, mag)
        return np.where(z >= 0, -mag, mag)

    def _kinks_z(self) -> tuple[float, ...]:
        # |z|^p at 0: psi jumps (p <= 1) or psi' is unbounded (1 < p < 2); smooth for p >= 2
        return (0.0,) if self.p < 2.0 else ()

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| = theta p r^(p-1)/(1 + r^p): d/dr = 0 at r^p = p - 1 (a maximum; decreasing throughout
        # for p <= 1).  |1 + z psi| = |1 - p theta r^p/(1 + r^p)|: zero at r^p = 1/(p theta - 1), then
        # increasing to p theta - 1 (004 Lemma 3.3 proof).
        pts = [(self.p * self.theta - 1.0) ** (-1.0 / self.p)]
        if self.p > 1.0:
            pts.append((self.p - 1.0) ** (1.0 / self.p))
        return tuple(pts)

    @property
    def tail_exponent(self) -> float:
        """p theta: h(z) = c / (1 + |z|^p)^theta ~ c |z|^(-p theta) (004 Sec. 2.1)."""
        return self.p * self.theta

    @property
    def score_scale_limit(self) -> float:
        """p theta - 1 = lim |1 + z psi(z)| (the (b/b')^(p theta - 1) of the 004 Lemma 3.3 proof)."""
        return self.p * self.theta - 1.0
