"""The PolyPlace(s, alpha) distribution of 002 Def. 6 (Hladik & Tetek).

Density (002 Def. 6), scale s > 0, shape alpha > 1:

    f(x) = N (alpha - 1) (1 - |x|/s)^(alpha - 1)                         if |x|/s < 1/alpha,
    f(x) = N (alpha + 1) (1 - 1/alpha^2)^alpha (1 + |x|/s)^(-alpha - 1)   otherwise,
    N = N_{s,alpha} = alpha / (2 (2 ((alpha - 1)/alpha)^alpha + alpha - 1) s).

The two branches meet continuously at |x|/s = 1/alpha (both equal N (alpha - 1)(1 - 1/alpha)^(alpha-1)).
Write D = 2 ((alpha-1)/alpha)^alpha + alpha - 1 and z = x/s >= 0.  Integrating the branches (002 Lemma 7,
proof) gives the survival function in closed form:

    P(Z > z) = 1/2 - (alpha - 1)(1 - (1 - z)^alpha) / (2D)            for 0 <= z < 1/alpha,
    P(Z > z) = (alpha + 1)(1 - 1/alpha^2)^alpha (1 + z)^(-alpha) / (2D)   for z >= 1/alpha,

with P(Z > 1/alpha) = q* = (alpha + 1)((alpha - 1)/alpha)^alpha / (2D), and the CDF F(-z) = P(Z > z).
Both branches invert explicitly: for y = P(Z > z) in (0, 1/2],

    z = ((alpha + 1)(1 - 1/alpha^2)^alpha / (2D y))^(1/alpha) - 1           if y <= q*,
    z = 1 - (1 - 2D (1/2 - y)/(alpha - 1))^(1/alpha)                       otherwise,

evaluated with log1p/expm1.  Mean 0 (002 Lemma 13; exists for alpha > 1).  Variance (002 Lemma 13):

    sigma^2 = 2 s^2 (1/alpha + 1)^(-alpha) ((19 alpha^2 + 5)(1 - 1/alpha^2)^alpha
              + (alpha - 2)(alpha - 1)^2 (1/alpha + 1)^alpha) / (D (alpha^4 - 5 alpha^2 + 4))
            = 2 s^2 ((19 alpha^2 + 5)(1 - 1/alpha)^alpha + (alpha - 2)(alpha - 1)^2)
              / (D (alpha - 1)(alpha + 1)(alpha - 2)(alpha + 2)),

valid only for alpha > 2: the tail of x^2 f(x) is ~ x^(1 - alpha), so the variance is infinite for
1 < alpha <= 2 (where the printed expression has a pole at alpha = 2 and is negative for 1 < alpha < 2,
e.g. -15.33 s^2 at alpha = 1.2).  ERRATUM (002 Lemma 13): the hypothesis alpha > 2 is missing; and the
last line of the proof of Lemma 13 drops the factor 2 of the statement (it equals sigma^2/2 at s = 1).
Checked against 40-digit mpmath quadrature in tests/core/test_distributions_polyplace.py.

N, the variance and the constants C and K of the survival function are the evaluators generated from
derivations/polyplace.py (``smoothsens_core._generated.noise``), where they are integrated from the
density with SymPy; the generated forms evaluate ((alpha-1)/alpha)^alpha without cancellation as
alpha -> 1+ (ln(alpha - 1) - ln(alpha), alpha - 1 being exact) and for huge alpha (log1p).
"""

from __future__ import annotations

import math

import numpy as np

from .._generated.noise import (
    polyplace_inner_constant,
    polyplace_log_normaliser,
    polyplace_log_tail_constant,
    polyplace_variance,
)
from ..validation import check_greater, check_positive
from ._base import ContinuousDistribution, FloatArray

__all__ = ["PolyPlace"]

class PolyPlace(ContinuousDistribution):
    """PolyPlace(s, alpha) of 002 Def. 6, shifted by ``loc``; scale ``s`` > 0 (= ``.scale``), ``alpha`` > 1."""

    name = "polyplace"
    symmetric = True

    def __init__(self, s: float, alpha: float, loc: float = 0.0) -> None:
        s = check_positive("s", s)
        super().__init__(loc=loc, scale=s)
        self.s = s
        self.alpha = check_greater("alpha", alpha, 1.0)
        a = self.alpha
        # Constants from the generated evaluators (derivations/polyplace.py), standardised s = 1:
        # ln N, ln C of the tail P(Z > z) = C (1 + z)^(-alpha) (z >= 1/alpha), and K of
        # P(Z > z) = 1/2 - K (1 - (1 - z)^alpha) (0 <= z < 1/alpha).
        self._log_n1 = float(polyplace_log_normaliser(1.0, a))
        self._log_tail_c = float(polyplace_log_tail_constant(a))
        self._inner_c = float(polyplace_inner_constant(a))
        # density constants: f(z) = N (alpha - 1) (1 - z)^(alpha - 1) inside, and outside
        # f = -d/dz [C (1 + z)^(-alpha)] = alpha C (1 + z)^(-alpha - 1)  (= N (alpha+1)(1 - 1/alpha^2)^alpha (1+z)^(-alpha-1))
        self._log_inner = self._log_n1 + math.log(a - 1.0)
        self._log_outer = self._log_tail_c + math.log(a)
        self._q_star = math.exp(self._log_tail_c - a * math.log1p(1.0 / a))  # P(Z > 1/alpha)

    def __repr__(self) -> str:
        return f"PolyPlace(s={self.s!r}, alpha={self.alpha!r}, loc={self.loc!r})"

    def _logpdf(self, z: FloatArray) -> FloatArray:
        r = np.abs(z)
        a = self.alpha
        inner = r < 1.0 / a
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(
                inner,
                self._log_inner + (a - 1.0) * np.log1p(-np.where(inner, r, 0.0)),
                self._log_outer - (a + 1.0) * np.log1p(r),
            )

    def _upper_tail(self, r: FloatArray) -> FloatArray:
        """P(Z > r) for r >= 0 (closed form of the module docstring; the tail branch in log space)."""
        a = self.alpha
        inner = r < 1.0 / a
        with np.errstate(invalid="ignore"):
            # inner: 1/2 + inner_c * expm1(alpha log1p(-r)) = 1/2 - inner_c (1 - (1 - r)^alpha) >= q* > 0
            inner_val = 0.5 + self._inner_c * np.expm1(a * np.log1p(-np.where(inner, r, 0.0)))
            outer_val = np.exp(self._log_tail_c - a * np.log1p(r))
        return np.where(inner, inner_val, outer_val)

    def _cdf(self, z: FloatArray) -> FloatArray:
        lower = self._upper_tail(np.abs(z))
        return np.where(z <= 0, lower, 1.0 - lower)

    def _sf(self, z: FloatArray) -> FloatArray:
        return self._cdf(-z)

    def _tail_quantile(self, y: FloatArray) -> FloatArray:
        """The r >= 0 with P(Z > r) = y for y in (0, 1/2] (explicit inverse of both branches)."""
        a = self.alpha
        outer = y <= self._q_star
        with np.errstate(invalid="ignore", divide="ignore"):
            # (C/y)^(1/alpha) - 1 = expm1((ln C - ln y)/alpha): no loss when the result is small
            r_outer = np.expm1((self._log_tail_c - np.log(y)) / a)
            # 1 - (1 - (1/2 - y)/inner_c)^(1/alpha) = -expm1(log1p(-(1/2 - y)/inner_c)/alpha);
            # 1/2 - y is exact for y in [1/4, 1/2] (Sterbenz), which is where the result is near 0
            r_inner = -np.expm1(np.log1p(-(0.5 - y) / self._inner_c) / a)
        return np.where(outer, r_outer, r_inner)

    def _ppf(self, q: FloatArray) -> FloatArray:
        lower = q <= 0.5
        # 1 - q is exact for q >= 1/2 (Sterbenz)
        r = self._tail_quantile(np.where(lower, q, 1.0 - q))
        return np.where(lower, -r, r)

    def _isf(self, q: FloatArray) -> FloatArray:
        return -self._ppf(q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        # One uniform per draw: u in {k 2^-53}; the sign is u < 1/2 and y = 1/2 - |u - 1/2| = min(u, 1 - u)
        # (exact in floating point) is uniform on [0, 1/2]; y = 0 (probability 2^-53) is moved to 2^-54 so
        # no infinite draw occurs.  Blocks of 2^16 keep the temporaries in cache (~2x faster at 10^7).
        n = math.prod(size)
        out = np.empty(n)
        a = self.alpha
        block = 1 << 16
        for start in range(0, n, block):
            u = rng.random(min(block, n - start))
            neg = u < 0.5
            y = np.abs(u - 0.5)
            np.subtract(0.5, y, out=y)
            np.maximum(y, 2.0**-54, out=y)
            inner = y > self._q_star
            # tail branch r = expm1((ln C - ln y)/alpha) for all, inner branch recomputed on its subset
            r = np.log(y)
            np.subtract(self._log_tail_c, r, out=r)
            r *= 1.0 / a
            np.expm1(r, out=r)
            yi = y[inner]
            r[inner] = -np.expm1(np.log1p(-(0.5 - yi) / self._inner_c) / a)
            np.negative(r, out=r, where=neg)
            out[start : start + u.size] = r
        return out.reshape(size)

    def _mean(self) -> float:
        return 0.0

    def _variance(self) -> float:
        return float(polyplace_variance(1.0, self.alpha))

    # ---- shape of ln h (002 Def. 6 density; 002 Lemma 12) ----------------------------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -sign(z) (alpha - 1)/(1 - |z|) for |z| < 1/alpha and -sign(z) (alpha + 1)/(1 + |z|)
        otherwise (s = 1); both equal -+alpha at |z| = 1/alpha (002 Lemma 12), and at the kink z = 0 the
        right derivative -(alpha - 1) is returned."""
        a = self.alpha
        r = np.abs(z)
        inner = r < 1.0 / a
        with np.errstate(divide="ignore", invalid="ignore"):
            mag = np.where(inner, (a - 1.0) / (1.0 - np.where(inner, r, 0.0)), (a + 1.0) / (1.0 + r))
        return np.where(z >= 0, -mag, mag)

    def _kinks_z(self) -> tuple[float, ...]:
        # psi jumps at 0; at +-1/alpha ln h is C^1 but psi' jumps (the density changes branch)
        k = 1.0 / self.alpha
        return (-k, 0.0, k)

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| increases on [0, 1/alpha), decreases after; |1 + z psi| = (1 - alpha z)/(1 - z) decreases
        # to 0 at 1/alpha, then (alpha z - 1)/(1 + z) increases to alpha
        return (1.0 / self.alpha,)

    @property
    def tail_exponent(self) -> float:
        """alpha + 1: the outer branch N (alpha + 1)(1 - 1/alpha^2)^alpha (1 + |z|)^(-alpha - 1) (002 Def. 6)."""
        return self.alpha + 1.0

    @property
    def tail_from(self) -> float:
        """1/alpha, where the outer branch (1 + z)^(-alpha - 1) of 002 Def. 6 starts (z^(alpha+1) h(z) is
        nondecreasing from there on)."""
        return 1.0 / self.alpha

    @property
    def score_scale_limit(self) -> float:
        """alpha = lim (alpha z - 1)/(1 + z) (002 Lemma 12: eta |psi| + gamma |1 + z psi| = alpha gamma)."""
        return self.alpha
