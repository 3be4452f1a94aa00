"""The power-law noise h(z) ∝ 1/(|z|^k + l) of 000 Thm. 1 and its half-densities h+, h- (000 Lemma 2).

Density (k > 1, l > 0)

    h(z) = 1 / (C (|z|^k + l)),   C = ∫ dz/(|z|^k + l) = 2 l^{1/k - 1} (pi/k) / sin(pi/k).

CDF through the regularised incomplete beta function: with u = z^k/(z^k + l) (z >= 0),

    ∫_0^z dt/(t^k + l) = (l^{1/k - 1}/k) B(u; 1/k, 1 - 1/k),   so   F(z) = 1/2 + I_u(1/k, 1 - 1/k)/2,

and by symmetry F(-z) = 1 - F(z).  The upper tail is computed as P(Z > z) = I_{1-u}(1 - 1/k, 1/k)/2
with 1 - u = l/(z^k + l) formed directly (no 1 - u cancellation).  The inverse CDF inverts the beta
function exactly (scipy.special.betaincinv), z = (l u/(1 - u))^{1/k}; no root finding.
Moments: E|Z|^s < inf iff s < k - 1; mean 0 for k > 2; variance l^{2/k} sin(pi/k)/sin(3 pi/k) for k > 3
(from ∫_0^inf z^{s-1}/(z^k + l) dz = l^{s/k - 1} (pi/k)/sin(pi s/k)).

Half-densities (000 Lemma 2):  h+(z) = 2 h(z) for z >= 0 (0 for z < 0),  h-(z) = 2 h(z) for z < 0 (0 for
z >= 0): the boundary point z = 0 belongs to h+ only, as printed (h-(0) = 0, h+(0) = 2 h(0)).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ..validation import check_greater, check_positive
from ._base import ContinuousDistribution, FloatArray

__all__ = ["PowerLaw", "HalfPowerLaw", "powerlaw_log_normaliser"]


def powerlaw_log_normaliser(k: float, l: float) -> float:
    """ln C with C = ∫_R dz/(|z|^k + l) = 2 l^{1/k-1} (pi/k)/sin(pi/k)  (000 Thm. 1 density)."""
    k = check_greater("k", k, 1.0)
    l = check_positive("l", l)
    return math.log(2.0) + (1.0 / k - 1.0) * math.log(l) + math.log(math.pi / k) - math.log(math.sin(math.pi / k))


class _PowerLawCore:
    k: float
    l: float

    def _init_shape(self, k: float, l: float) -> None:
        self.k = check_greater("k", k, 1.0)
        self.l = check_positive("l", l)
        self.a = 1.0 / self.k          # beta parameters a = 1/k, b = 1 - 1/k
        self.b = 1.0 - 1.0 / self.k
        self.log_c = powerlaw_log_normaliser(self.k, self.l)

    def _log_kernel(self, z: FloatArray) -> FloatArray:
        # ln(|z|^k + l) = ln l + log1p(|z|^k / l), written in log space so huge |z| does not overflow.
        az = np.abs(z)
        with np.errstate(divide="ignore"):
            t = self.k * np.log(az) - math.log(self.l)
        return -(math.log(self.l) + np.logaddexp(0.0, t))

    # ---- shape of ln h (000 Thm. 1 density) -------------------------------------------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -k sign(z) |z|^(k-1) / (|z|^k + l)  (d/dz of -ln(|z|^k + l)), on the support.

        In log space, r = |z|: ln|psi| = ln k + (k - 1) ln r - ln(r^k + l) for r <= 1 and
        ln k - ln r - ln(1 + l r^(-k)) for r > 1 (no overflow of r^k); psi(0) = 0 (k > 1)."""
        k, ll = self.k, math.log(self.l)
        r = np.abs(z)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            lr = np.log(r)
            near = (k - 1.0) * lr - np.logaddexp(ll, k * lr)
            far = -lr - np.logaddexp(0.0, ll - k * lr)
            mag = k * np.exp(np.where(r <= 1.0, near, far))
        mag = np.where(r == 0.0, 0.0, mag)
        return np.where(z >= 0, -mag, mag)

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| = k r^(k-1)/(r^k + l): d/dr = 0 at r^k = (k - 1) l (a maximum); |1 + z psi| =
        # |l - (k - 1) r^k|/(r^k + l): zero at r^k = l/(k - 1), then increasing to k - 1
        return (((self.k - 1.0) * self.l) ** (1.0 / self.k), (self.l / (self.k - 1.0)) ** (1.0 / self.k))

    @property
    def tail_exponent(self) -> float:
        """k: h(z) = 1/(C (|z|^k + l)) ~ |z|^(-k)/C (000 Thm. 1)."""
        return self.k

    @property
    def score_scale_limit(self) -> float:
        """k - 1 = lim |1 + z psi(z)| = lim |l - (k - 1) z^k|/(z^k + l)."""
        return self.k - 1.0

    def _half_parts(self, z: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(P(|Z| <= |z|), P(|Z| > |z|)), each computed where it is small: with t = |z|^k / l,
        u = t/(1+t) and 1 - u = 1/(1+t) are both formed directly, and the smaller of the two
        regularised incomplete beta values I_u(1/k, 1-1/k), I_{1-u}(1-1/k, 1/k) is evaluated directly
        (the other as one minus it), so neither tail loses relative precision."""
        with np.errstate(divide="ignore"):
            log_t = self.k * np.log(np.abs(z)) - math.log(self.l)
        # log space: u = e^{log t - log(1+t)}, v = e^{-log(1+t)}, no overflow of t for huge |z|
        log1p_t = np.logaddexp(0.0, log_t)
        with np.errstate(invalid="ignore"):
            u = np.where(np.isinf(log_t) & (log_t > 0), 1.0, np.exp(log_t - log1p_t))
        v = np.exp(-log1p_t)
        small_u = log_t < 0.0
        lower_direct = special.betainc(self.a, self.b, np.where(small_u, u, 0.5))
        upper_direct = special.betainc(self.b, self.a, np.where(small_u, 0.5, v))
        # far tail (t > e^600, where v underflows): P(|Z| > z) = (2/C) z^{1-k}/(k-1) (1 + O(l z^{-k}))
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            tail = np.exp(math.log(2.0) - self.log_c + (1.0 - self.k) * np.log(np.abs(z)) - math.log(self.k - 1.0))
        far = log_t > 600.0
        upper_direct = np.where(far, tail, upper_direct)
        lower = np.where(small_u, lower_direct, 1.0 - upper_direct)
        upper = np.where(small_u, 1.0 - lower_direct, upper_direct)
        return lower, upper

    def _upper_half_sf(self, z: FloatArray) -> FloatArray:
        """P(Z > z | Z >= 0) = I_{1-u}(1 - 1/k, 1/k) for z >= 0, with 1-u = l/(z^k + l) = 1/(1 + z^k/l)."""
        return self._half_parts(z)[1]

    def _upper_half_isf(self, q: FloatArray) -> FloatArray:
        """Inverse of :meth:`_upper_half_sf`: z >= 0 with P(Z > z | Z >= 0) = q.

        For q <= 1/2 invert the upper tail, v = 1 - u = I^{-1}_q(1 - 1/k, 1/k); for q > 1/2 invert the
        lower part, u = I^{-1}_{1-q}(1/k, 1 - 1/k), so that neither u nor v is formed as 1 - (number near 1).
        z = (l u / v)^{1/k}.
        """
        q = np.asarray(q, dtype=float)
        upper = q <= 0.5
        v_up = special.betaincinv(self.b, self.a, np.where(upper, q, 0.5))
        u_lo = special.betaincinv(self.a, self.b, np.where(upper, 0.5, 1.0 - q))
        u = np.where(upper, 1.0 - v_up, u_lo)
        v = np.where(upper, v_up, 1.0 - u_lo)
        with np.errstate(divide="ignore"):
            z = np.exp((math.log(self.l) + np.log(u) - np.log(v)) / self.k)
            # Far tail (t = z^k/l > e^600, v below the double range): P(Z > z | Z >= 0) = (2/C) z^{1-k}/(k-1) (1 + O(l z^{-k})),
            # inverted in log space: ln z = -(ln q + ln C - ln 2 + ln(k-1))/(k-1).
            log_z_tail = -(np.log(q) + self.log_c - math.log(2.0) + math.log(self.k - 1.0)) / (self.k - 1.0)
        return np.where(self.k * log_z_tail - math.log(self.l) > 600.0, np.exp(log_z_tail), z)


    def _upper_half_ppf(self, p: FloatArray) -> FloatArray:
        """z >= 0 with P(Z <= z | Z >= 0) = p (the lower-tail counterpart of :meth:`_upper_half_isf`)."""
        p = np.asarray(p, dtype=float)
        low = p <= 0.5
        u_lo = special.betaincinv(self.a, self.b, np.where(low, p, 0.5))
        v_up = special.betaincinv(self.b, self.a, np.where(low, 0.5, 1.0 - p))
        u = np.where(low, u_lo, 1.0 - v_up)
        v = np.where(low, 1.0 - u_lo, v_up)
        with np.errstate(divide="ignore"):
            return np.exp((math.log(self.l) + np.log(u) - np.log(v)) / self.k)


class PowerLaw(_PowerLawCore, ContinuousDistribution):
    """h(z) = 1/(C (|z|^k + l)), the (alpha, beta)-admissible noise of 000 Thm. 1 (symmetric)."""

    name = "power law 1/(|z|^k + l)"
    symmetric = True

    def __init__(self, k: float, l: float = 1.0, loc: float = 0.0, scale: float = 1.0) -> None:
        super().__init__(loc, scale)
        self._init_shape(k, l)

    def _logpdf(self, z: FloatArray) -> FloatArray:
        return self._log_kernel(z) - self.log_c

    def _kinks_z(self) -> tuple[float, ...]:
        # |z|^k at 0: psi' is unbounded there for 1 < k < 2; smooth for k >= 2
        return (0.0,) if self.k < 2.0 else ()

    def _cdf(self, z: FloatArray) -> FloatArray:
        # F(z) = P(|Z| > |z|)/2 for z < 0 and 1/2 + P(|Z| <= z)/2 for z >= 0 (no 1 - x cancellation near 0)
        lower, upper = self._half_parts(z)
        return np.where(z < 0, 0.5 * upper, 0.5 + 0.5 * lower)

    def _sf(self, z: FloatArray) -> FloatArray:
        return self._cdf(-z)

    def _ppf(self, q: FloatArray) -> FloatArray:
        # q < 1/2: z = -isf_half(2q) (full precision in the lower tail); q >= 1/2 mirrored.
        lower = q < 0.5
        qq = np.where(lower, 2.0 * q, 2.0 * (1.0 - q))
        z = self._upper_half_isf(qq)
        return np.where(lower, -z, z)

    def _isf(self, q: FloatArray) -> FloatArray:
        return -self._ppf(q)

    def _mean(self) -> float:
        return 0.0 if self.k > 2.0 else math.nan

    def _variance(self) -> float:
        if self.k <= 3.0:
            return math.inf
        return self.l ** (2.0 / self.k) * math.sin(math.pi / self.k) / math.sin(3.0 * math.pi / self.k)

    def _shape_repr(self) -> str:
        return f"k={self.k!r}, l={self.l!r}"


class HalfPowerLaw(_PowerLawCore, ContinuousDistribution):
    """h+(z) = 2 h(z) on z >= 0 (``side=+1``) or h-(z) = 2 h(z) on z < 0 (``side=-1``), 000 Lemma 2.

    As printed, h-(z) = 0 for z >= 0: h-(0) = 0 although 0 is the closed end of ``support`` (a measure-zero
    point: cdf, sf, ppf and the sampler are unaffected; the score there is the limit from z < 0)."""

    name = "half power law"
    symmetric = False

    def __init__(self, k: float, l: float = 1.0, side: int = 1, loc: float = 0.0, scale: float = 1.0) -> None:
        super().__init__(loc, scale)
        self._init_shape(k, l)
        if isinstance(side, bool) or side not in (1, -1):
            raise ValueError(f"side must be +1 or -1; got side={side!r}")
        self.side = int(side)
        self.support = (0.0, math.inf) if side == 1 else (-math.inf, 0.0)

    def _logpdf(self, z: FloatArray) -> FloatArray:
        log_h = math.log(2.0) + self._log_kernel(z) - self.log_c
        if self.side == -1:  # 000 Lemma 2: h-(z) = 0 for z >= 0, so h-(0) = 0 (z = 0 belongs to h+)
            return np.where(z < 0.0, log_h, -np.inf)
        return log_h

    def _cdf(self, z: FloatArray) -> FloatArray:
        lower, upper = self._half_parts(z)
        return lower if self.side == 1 else upper

    def _sf(self, z: FloatArray) -> FloatArray:
        lower, upper = self._half_parts(z)
        return upper if self.side == 1 else lower

    def _ppf(self, q: FloatArray) -> FloatArray:
        return self._upper_half_ppf(q) if self.side == 1 else -self._upper_half_isf(q)

    def _isf(self, q: FloatArray) -> FloatArray:
        return self._upper_half_isf(q) if self.side == 1 else -self._upper_half_ppf(q)

    def _mean(self) -> float:
        if self.k <= 2.0:
            return self.side * math.inf
        # E|Z| = 2 ∫_0^inf z h(z) dz = 2 l^{2/k-1}(pi/k)/sin(2 pi/k) / C
        return self.side * math.exp(math.log(2.0) + (2.0 / self.k - 1.0) * math.log(self.l)
                                    + math.log(math.pi / self.k) - math.log(math.sin(2.0 * math.pi / self.k))
                                    - self.log_c)

    def _variance(self) -> float:
        if self.k <= 3.0:
            return math.inf
        second = self.l ** (2.0 / self.k) * math.sin(math.pi / self.k) / math.sin(3.0 * math.pi / self.k)
        return second - self._mean() ** 2

    def _shape_repr(self) -> str:
        return f"k={self.k!r}, l={self.l!r}, side={self.side}"
