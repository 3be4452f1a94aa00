"""One-sided and discrete noise of asymmetric differential privacy (seed 003).

* :class:`OneSidedExponential` -- the noise of ALap for a monotone p-sensitivity (003 Def. V.3),
  density  h(z) = e^{-z} on z >= 0 (``side=+1``) or h(z) = e^{z} on z <= 0 (``side=-1``), used with
  scale b = Delta_p(f)/eps.
* :class:`AsymmetricGeometric` -- the output law of AGeo for a monotone p-sensitivity of 1
  (003 Def. VIII.1) on the finite range {0, ..., n} of a counting query with true answer c:
  decreasing:  P(K = k) = (1 - e^{-eps}) e^{-(k - c) eps}  for c <= k < n,  P(K = n) = e^{-(n - c) eps};
  increasing:  P(K = k) = (1 - e^{-eps}) e^{(k - c) eps}   for 0 < k <= c,  P(K = 0) = e^{-c eps}.
  The two printed cases overlap at k = n (resp. k = 0); read additively they sum to
  1 + (1 - e^{-eps}) e^{-(n-c) eps} > 1, so the atom case takes precedence (the only reading that sums
  to one; claim ``003-Def-VIII.1-normalisation``).
* :class:`TwoSidedGeometric` -- the geometric mechanism's noise (003 App. A) on the integers,
  P(K = k) = (1 - r)/(1 + r) r^{|k - loc|},  r = e^{-eps/Delta}.
  ERRATUM (003 App. A): the printed normaliser (1 - e^{-eps})/(1 + e^{-eps}) sums to one only for
  Delta = 1; the correct normaliser for the printed kernel exp(-eps |k| / Delta) is
  (1 - e^{-eps/Delta})/(1 + e^{-eps/Delta}) (claim ``003-App-A-normalisation``).
"""

from __future__ import annotations

import math

import numpy as np

from ..validation import check_integer, check_positive
from ._base import ContinuousDistribution, DiscreteDistribution, FloatArray

__all__ = ["OneSidedExponential", "AsymmetricGeometric", "TwoSidedGeometric"]


class OneSidedExponential(ContinuousDistribution):
    """Exponential noise on one half-line (003 Def. V.3, the monotone case of ALap).

    ``side=+1``: h(z) = e^{-z}, z >= 0 (non-negative noise, used when the p-sensitivity is
    monotonically *decreasing*, i.e. f(X) >= f(X') for X ~p X'; see the sign erratum in
    :mod:`smoothsens_core.asymmetric`).  ``side=-1``: h(z) = e^{z}, z <= 0.
    Mean side * scale, variance scale^2.
    """

    name = "one-sided exponential"
    symmetric = False

    def __init__(self, side: int = 1, loc: float = 0.0, scale: float = 1.0) -> None:
        super().__init__(loc, scale)
        if isinstance(side, bool) or side not in (1, -1):
            raise ValueError(f"side must be +1 or -1; got side={side!r}")
        self.side = int(side)
        self.support = (0.0, math.inf) if side == 1 else (-math.inf, 0.0)

    def _logpdf(self, z: FloatArray) -> FloatArray:
        return -self.side * z

    def _cdf(self, z: FloatArray) -> FloatArray:
        # expm1 keeps full relative precision of 1 - e^{-z} for small z.
        return -np.expm1(-z) if self.side == 1 else np.exp(z)

    def _sf(self, z: FloatArray) -> FloatArray:
        return np.exp(-z) if self.side == 1 else -np.expm1(z)

    def _ppf(self, q: FloatArray) -> FloatArray:
        return -np.log1p(-q) if self.side == 1 else np.log(q)

    def _isf(self, q: FloatArray) -> FloatArray:
        return -np.log(q) if self.side == 1 else np.log1p(-q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return self.side * rng.standard_exponential(size)

    def _mean(self) -> float:
        return float(self.side)

    def _variance(self) -> float:
        return 1.0

    # ---- shape of ln h = -side z on the support (003 Def. V.3) -------------------------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -side on the support (one-sided at its end point z = 0)."""
        return np.full(np.shape(z), -float(self.side))

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| = 1 is constant; |1 + z psi| = |1 - |z|| decreases on |z| <= 1, increases after
        return (1.0,)

    #: math.inf: h(z) = e^(-|z|) decays faster than every power (a plain class attribute overriding the base's property).
    tail_exponent = math.inf
    #: math.inf: |1 + z psi(z)| = |1 - |z|| is unbounded.
    score_scale_limit = math.inf

    def _shape_repr(self) -> str:
        return f"side={self.side}"


def _check_eps(eps: float) -> float:
    return check_positive("eps", eps)


class AsymmetricGeometric(DiscreteDistribution):
    """Output of AGeo_{p,eps,f} for one counting query with true answer ``center`` (003 Def. VIII.1).

    ``direction="decreasing"`` (p-sensitivity monotonically decreasing, f(X) >= f(X') for X ~p X'):
    support {c, ..., n},  P(K=k) = (1-e^{-eps}) e^{-(k-c) eps} (c <= k < n),  P(K=n) = e^{-(n-c) eps}.
    ``direction="increasing"``: support {0, ..., c},  P(K=k) = (1-e^{-eps}) e^{(k-c) eps} (0 < k <= c),
    P(K=0) = e^{-c eps}.  Both sum to one exactly (telescoping geometric series).
    """

    name = "asymmetric geometric"

    def __init__(self, eps: float, center: int, n: int, direction: str = "decreasing") -> None:
        self.eps = _check_eps(eps)
        self.n = check_integer("n", n, minimum=0)
        self.center = check_integer("center", center, minimum=0)
        if self.center > self.n:
            raise ValueError(f"center must be in [0, n]; got center={self.center}, n={self.n}")
        if direction not in ("decreasing", "increasing"):
            raise ValueError(f"direction must be 'decreasing' or 'increasing'; got direction={direction!r}")
        self.direction = direction
        # offsets j = |k - c| run over 0..m, with the atom at j = m
        self.m = self.n - self.center if direction == "decreasing" else self.center
        self.support = (float(self.center), float(self.n)) if direction == "decreasing" else (0.0, float(self.center))

    def _offset(self, k: FloatArray) -> FloatArray:
        return k - self.center if self.direction == "decreasing" else self.center - k

    def _logpmf_offset(self, j: FloatArray) -> FloatArray:
        # log(1 - e^{-eps}) via log(-expm1(-eps)): exact for small eps.
        return np.where(j >= self.m, -self.m * self.eps, math.log(-math.expm1(-self.eps)) - j * self.eps)

    def _logpmf(self, k: FloatArray) -> FloatArray:
        return self._logpmf_offset(self._offset(k))

    def _cdf_offset(self, j: FloatArray) -> FloatArray:
        # P(J <= j) = 1 - e^{-(j+1) eps} for j < m, 1 at j >= m.
        return np.where(j >= self.m, 1.0, -np.expm1(-(j + 1.0) * self.eps))

    def _cdf(self, k: FloatArray) -> FloatArray:
        if self.direction == "decreasing":
            return self._cdf_offset(k - self.center)
        # P(K <= k) = P(J >= c - k) = 1 - P(J <= c - k - 1)
        j = self.center - k - 1.0
        return np.where(j < 0, 1.0, 1.0 - self._cdf_offset(j))

    def _sf(self, k: FloatArray) -> FloatArray:
        if self.direction == "decreasing":
            j = k - self.center
            return np.where(j >= self.m, 0.0, np.exp(-(j + 1.0) * self.eps))
        return 1.0 - self._cdf(k)

    def _ppf_offset(self, q: FloatArray) -> FloatArray:
        # smallest j with 1 - e^{-(j+1) eps} >= q, then guard against rounding by one step.
        j = np.ceil(-np.log1p(-q) / self.eps) - 1.0
        j = np.clip(j, 0.0, self.m)
        lower = np.clip(j - 1.0, 0.0, self.m)
        j = np.where((j > 0) & (self._cdf_offset(lower) >= q), lower, j)
        return j

    def _ppf(self, q: FloatArray) -> FloatArray:
        if self.direction == "decreasing":
            return self.center + self._ppf_offset(q)
        # K = c - J and P(K <= k) = P(J >= c - k) = e^{-(c-k) eps} (c - k <= m): the smallest k is
        # c - j0 with j0 the largest offset such that e^{-j0 eps} >= q.
        j0 = np.clip(np.floor(-np.log(q) / self.eps), 0.0, self.m)
        k = self.center - j0
        k = np.where((k > 0) & (self._cdf(k - 1.0) >= q), k - 1.0, k)
        k = np.where((k < self.center) & (self._cdf(k) < q), k + 1.0, k)
        return k

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        # J = min(Geometric(1 - e^{-eps}) - 1, m): the truncated geometric with its atom at m.
        j = np.minimum(rng.geometric(-math.expm1(-self.eps), size) - 1, self.m).astype(float)
        return self.center + j if self.direction == "decreasing" else self.center - j

    def _moments(self) -> tuple[float, float]:
        j = np.arange(self.m + 1, dtype=float)
        w = np.exp(self._logpmf_offset(j))
        mean_j = float(np.dot(w, j))
        var_j = float(np.dot(w, (j - mean_j) ** 2))
        return mean_j, var_j

    def _mean(self) -> float:
        mj, _ = self._moments()
        return self.center + mj if self.direction == "decreasing" else self.center - mj

    def _variance(self) -> float:
        return self._moments()[1]

    def __repr__(self) -> str:
        return (f"AsymmetricGeometric(eps={self.eps!r}, center={self.center}, n={self.n}, "
                f"direction={self.direction!r})")


class TwoSidedGeometric(DiscreteDistribution):
    """The geometric mechanism's noise (003 App. A, Ghosh et al.) on all integers:

    P(K = k) = (1 - r)/(1 + r) * r^{|k - loc|},  r = e^{-eps/sensitivity}.

    Corrected normaliser (ERRATUM of 003 App. A, which prints (1 - e^{-eps})/(1 + e^{-eps})).
    Mean loc, variance 2 r / (1 - r)^2.
    """

    name = "two-sided geometric"
    support = (-math.inf, math.inf)

    def __init__(self, eps: float, sensitivity: float = 1.0, loc: int = 0) -> None:
        self.eps = _check_eps(eps)
        self.sensitivity = check_positive("sensitivity", sensitivity)
        self.loc = check_integer("loc", loc)
        self.log_r = -self.eps / self.sensitivity
        self.r = math.exp(self.log_r)

    def _logpmf(self, k: FloatArray) -> FloatArray:
        # log((1-r)/(1+r)) = log(-expm1(log r)) - log1p(r)
        return math.log(-math.expm1(self.log_r)) - math.log1p(self.r) + np.abs(k - self.loc) * self.log_r

    def _cdf(self, k: FloatArray) -> FloatArray:
        d = k - self.loc
        return np.where(d < 0, np.exp(np.abs(d) * self.log_r) / (1.0 + self.r),
                        1.0 - np.exp((d + 1.0) * self.log_r) / (1.0 + self.r))

    def _sf(self, k: FloatArray) -> FloatArray:
        d = k - self.loc
        return np.where(d < 0, 1.0 - np.exp(np.abs(d) * self.log_r) / (1.0 + self.r),
                        np.exp((d + 1.0) * self.log_r) / (1.0 + self.r))

    def _ppf(self, q: FloatArray) -> FloatArray:
        with np.errstate(divide="ignore", invalid="ignore"):
            lo = self.loc - np.floor(np.log(q * (1.0 + self.r)) / self.log_r)
            hi = self.loc - 1.0 + np.ceil(np.log((1.0 - q) * (1.0 + self.r)) / self.log_r)
        k = np.where(q <= self.r / (1.0 + self.r), lo, hi)
        # one-step guards against rounding in the logarithms
        k = np.where(self._cdf(k - 1.0) >= q, k - 1.0, k)
        k = np.where(self._cdf(k) < q, k + 1.0, k)
        return k

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        # difference of two i.i.d. Geometric(1 - r) variables has exactly this law.
        p = -math.expm1(self.log_r)
        return (self.loc + rng.geometric(p, size) - rng.geometric(p, size)).astype(float)

    def _mean(self) -> float:
        return float(self.loc)

    def _variance(self) -> float:
        return 2.0 * self.r / (-math.expm1(self.log_r)) ** 2

    def __repr__(self) -> str:
        return f"TwoSidedGeometric(eps={self.eps!r}, sensitivity={self.sensitivity!r}, loc={self.loc})"
