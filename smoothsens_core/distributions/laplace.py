"""The Laplace distribution Lap(a, b) of 004 Sec. 2.1.

Density (004 Sec. 2.1), location a = ``loc``, scale b = ``scale`` > 0:

    h(y; a, b) = (1/(2b)) exp(-|y - a|/b),

mean a, variance 2 b^2.  On the standardised variable z = (y - a)/b:
    F(z) = e^z / 2 for z <= 0,  1 - e^{-z}/2 for z > 0;   sf(z) = F(-z) (symmetry);
    F^{-1}(q) = ln(2q) for q <= 1/2,  -ln(2(1 - q)) for q > 1/2.

Shape of ln h(z) = -ln 2 - |z|: score psi(z) = -sign(z) (right derivative -1 at the kink z = 0),
|1 + z psi(z)| = |1 - |z||, minimal at |z| = 1 and unbounded (no pure smooth-sensitivity rate,
004 Lemma 3.6 is approximate); exponential tails (tail exponent inf).
"""

from __future__ import annotations

import math

import numpy as np

from ._base import ContinuousDistribution, FloatArray

__all__ = ["Laplace"]

_LOG_HALF = float(np.log(0.5))


class Laplace(ContinuousDistribution):
    """Lap(a, b) of 004 Sec. 2.1: density exp(-|y - a|/b)/(2b); ``loc`` = a, ``scale`` = b > 0."""

    name = "laplace"
    symmetric = True

    def _logpdf(self, z: FloatArray) -> FloatArray:
        return _LOG_HALF - np.abs(z)

    def _cdf(self, z: FloatArray) -> FloatArray:
        # lower half exp(-|z|)/2 computed directly; upper half 1 - exp(-z)/2 >= 1/2 (no cancellation)
        half_tail = 0.5 * np.exp(-np.abs(z))
        return np.where(z <= 0, half_tail, 1.0 - half_tail)

    def _sf(self, z: FloatArray) -> FloatArray:
        return self._cdf(-z)

    def _ppf(self, q: FloatArray) -> FloatArray:
        # 1 - q is exact for q >= 1/2 (Sterbenz), so both branches keep full relative precision
        lower = q <= 0.5
        return np.where(lower, np.log(2.0 * q), -np.log(2.0 * (1.0 - q)))

    def _isf(self, q: FloatArray) -> FloatArray:
        return -self._ppf(q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        # |Z| ~ Exp(1) (ziggurat), independent uniform sign: exact for the density above.
        r = rng.standard_exponential(size)
        return np.where(rng.random(size) < 0.5, -r, r)

    def _mean(self) -> float:
        return 0.0

    def _variance(self) -> float:
        return 2.0

    # ---- shape of ln h (module docstring) ---------------------------------------------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -sign(z), 004 Sec. 2.1 density; -1 at the kink z = 0 (right derivative)."""
        return np.where(z >= 0, -1.0, 1.0)

    def _kinks_z(self) -> tuple[float, ...]:
        return (0.0,)  # |z| is not differentiable at 0: psi jumps from +1 to -1

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| = 1 is constant; |1 + z psi| = |1 - z| decreases on [0, 1], increases after
        return (1.0,)

    #: math.inf: h(z) = e^(-|z|)/2 decays faster than every power (a plain class attribute overriding the base's property).
    tail_exponent = math.inf
    #: math.inf: |1 + z psi(z)| = |1 - z| is unbounded.
    score_scale_limit = math.inf
