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
exact up to floating point and without per-sample root finding in Python.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as sc

from .._generated.noise import gencauchy4_cdf, gencauchy_cdf, gencauchy_log_normaliser, gencauchy_variance
from ..validation import check_positive
from ._base import ContinuousDistribution, FloatArray

__all__ = ["GenCauchy"]

# Below this value of s = 1/(1 + r^p) the leading term of I_s(b, a) = s^b / (b B(b, a)) (1 + O(s)) is
# exact to double precision (relative correction < 1e-20).  The inverse uses it below _S_ASYMPTOTIC
# (scipy's betaincinv is unreliable for tiny s).
_S_ASYMPTOTIC = 1e-20
_LOG_S_ASYMPTOTIC = math.log(_S_ASYMPTOTIC)


def _gencauchy_abs_quantile(y: FloatArray, p: float, theta: float) -> FloatArray:
    """The r >= 0 with P(|Z| > r) = y, y in (0, 1], Z ~ GenCauchy(0, 1, p, theta).

    s = 1/(1+r^p) solves I_s(b, a) = y and t = 1 - s solves 1 - I_t(a, b) = y; each is obtained from its
    own inverse (betaincinv / betainccinv), so neither is formed as 1 - (the other) when it is small.
    r = (t/s)^(1/p) = exp((ln t - ln s)/p).  For tiny y the inverse of the leading term
    ln s = (ln y + ln b + ln B(b, a))/b is used (exact to double precision when s < 1e-20, and it
    does not underflow; scipy's betaincinv returns the smallest normal instead of s < 1e-308).
    """
    a = 1.0 / p
    b = (p * theta - 1.0) / p  # = theta - 1/p with one rounding fewer (s^b amplifies errors in b by |ln s|)
    log_s_lead = (np.log(y) + math.log(b) + sc.betaln(b, a)) / b
    asym = log_s_lead < _LOG_S_ASYMPTOTIC
    with np.errstate(divide="ignore", invalid="ignore"):
        s = sc.betaincinv(b, a, y)
        t = sc.betainccinv(a, b, y)
        log_s = np.where(asym, log_s_lead, np.log(s))
        log_t = np.where(asym, np.log1p(-np.exp(log_s_lead)), np.log(t))  # ln t = ln(1 - s)
        return np.exp((log_t - log_s) / p)


def _gencauchy_ppf(q: FloatArray, p: float, theta: float) -> FloatArray:
    """Inverse CDF of GenCauchy(0, 1, p, theta) for q in (0, 1).

    For q <= 1/2: z = -r with P(|Z| > r) = 2q.  For q > 1/2: z = r with P(|Z| > r) = 2(1 - q);
    1 - q is exact for q >= 1/2 (Sterbenz), so no precision is lost in forming it.
    """
    lower = q <= 0.5
    y = np.where(lower, 2.0 * q, 2.0 * (1.0 - q))
    r = _gencauchy_abs_quantile(y, p, theta)
    return np.where(lower, -r, r)


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

    def _shape_repr(self) -> str:
        return f"p={self.p!r}, theta={self.theta!r}"

    def _logpdf(self, z: FloatArray) -> FloatArray:
        # ln(1 + |z|^p) without overflow of |z|^p:  with L = p ln|z|,  ln(1 + e^L) = -log_expit(-L).
        with np.errstate(divide="ignore"):
            big_l = self.p * np.log(np.abs(z))
        return self._log_c + self.theta * sc.log_expit(-big_l)

    def _cdf(self, z: FloatArray) -> FloatArray:
        if self._is_41:
            return np.asarray(gencauchy4_cdf(z))
        return np.asarray(gencauchy_cdf(z, self.p, self.theta))

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
