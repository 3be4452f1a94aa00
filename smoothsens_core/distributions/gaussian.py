"""The Gaussian (normal) distribution N(a, sigma^2): the noise of the Gaussian mechanism.

Density, location a = ``loc``, scale sigma = ``scale`` > 0:

    h(y; a, sigma) = exp(-((y - a)/sigma)^2 / 2) / (sigma sqrt(2 pi)),

mean a, variance sigma^2.  The Gaussian mechanism f(x) + sigma Z is (eps, delta)-DP but never pure
eps-DP; its exact privacy curve is Balle & Wang, "Improving the Gaussian mechanism for differential
privacy", ICML 2018, Thm. 8:  delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta)
- e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) (Delta the l2 sensitivity).

On the standardised variable z = (y - a)/sigma:
    F(z) = Phi(z) = ndtr(z)  (scipy.special: erfc-based, full relative precision in the lower tail),
    sf(z) = Phi(-z) (symmetry: the upper tail computed directly, no 1 - Phi cancellation),
    F^{-1}(q) = ndtri(q),  and ln F(z) = log_ndtr(z) (finite down to z ~ -1e154).

Shape of ln h(z) = -z^2/2 - ln sqrt(2 pi): score psi(z) = -z (smooth: no kinks),
|psi| = |z| unbounded, |1 + z psi(z)| = |1 - z^2| (zero at |z| = 1, unbounded after); tails decay
faster than every power (tail exponent inf).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as sc

from ._base import ContinuousDistribution, FloatArray

__all__ = ["Gaussian"]

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


class Gaussian(ContinuousDistribution):
    """N(a, sigma^2): density exp(-((y - a)/sigma)^2/2)/(sigma sqrt(2 pi)); ``loc`` = a, ``scale`` = sigma > 0."""

    name = "gaussian"
    symmetric = True

    def _logpdf(self, z: FloatArray) -> FloatArray:
        with np.errstate(over="ignore"):
            return -0.5 * z * z - _LOG_SQRT_2PI

    def _cdf(self, z: FloatArray) -> FloatArray:
        return sc.ndtr(z)

    def _sf(self, z: FloatArray) -> FloatArray:
        # Phi(-z): the upper tail to full relative precision (1 - Phi(z) would cancel for z > 0)
        return sc.ndtr(-z)

    def logcdf(self, x: object) -> FloatArray | float:
        """ln P(X <= x) = log_ndtr((x - loc)/scale): finite far into the lower tail (where cdf underflows)."""
        z = self._standardise(x)  # type: ignore[arg-type]
        out = sc.log_ndtr(z)
        return float(out) if out.ndim == 0 else out

    def logsf(self, x: object) -> FloatArray | float:
        """ln P(X > x) = log_ndtr(-(x - loc)/scale)."""
        z = self._standardise(x)  # type: ignore[arg-type]
        out = sc.log_ndtr(-z)
        return float(out) if out.ndim == 0 else out

    def _ppf(self, q: FloatArray) -> FloatArray:
        return sc.ndtri(q)

    def _isf(self, q: FloatArray) -> FloatArray:
        # -ndtri(q): q small keeps full precision (ndtri(1 - q) would round 1 - q)
        return -sc.ndtri(q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return rng.standard_normal(size)

    def _mean(self) -> float:
        return 0.0

    def _variance(self) -> float:
        return 1.0

    # ---- shape of ln h (module docstring) ---------------------------------------------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = d/dz (-z^2/2) = -z."""
        return -np.asarray(z, dtype=float)

    def _kinks_z(self) -> tuple[float, ...]:
        return ()  # ln h is a polynomial: smooth everywhere

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| = |z| increases on [0, inf); |1 + z psi| = |1 - z^2| decreases on [0, 1], increases after
        return (1.0,)

    #: math.inf: h(z) = e^(-z^2/2)/sqrt(2 pi) decays faster than every power (a plain class attribute overriding the base's property).
    tail_exponent = math.inf
    #: math.inf: |1 + z psi(z)| = |1 - z^2| is unbounded.
    score_scale_limit = math.inf
