"""Student's t distribution T_nu(a, tau) of 004 Sec. 2.1.

Density (004 Sec. 2.1), location a = ``loc``, scale tau = ``scale`` > 0, degrees of freedom nu > 0:

    h(y; a, tau, nu) = (1/(sqrt(nu) tau)) c_nu / (1 + ((y - a)/tau)^2 / nu)^((nu + 1)/2),
    c_nu = Gamma((nu + 1)/2) / (sqrt(pi) Gamma(nu/2)).

Mean a for nu > 1 (undefined otherwise); variance tau^2 nu/(nu - 2) for nu > 2 (inf otherwise).
As 004 Sec. 2.1 notes, T_nu(a, tau) = GenCauchy(a, sqrt(nu) tau, p = 2, theta = (nu + 1)/2), so the
CDF, survival function and inverse CDF are the GenCauchy ones (regularised incomplete beta, log-space
tails) at z/sqrt(nu): P(|T| > r) = I_{nu/(nu + r^2)}(nu/2, 1/2).  They agree with scipy.stats.t (tested).
Sampling: numpy's ``standard_t`` (exact transform N / sqrt(chi2_nu / nu)).

The normaliser, the variance and the CDF are the evaluators generated from derivations/student_t.py and
derivations/gencauchy.py (``smoothsens_core._generated.noise``); the normaliser's lnGamma difference is
evaluated by Stirling's formula for large nu, so it keeps full precision (the plain difference of two
lnGamma values loses ~log10(nu ln nu) digits).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as sc

from .._generated.noise import gencauchy_cdf, student_t_log_normaliser, student_t_variance
from ..validation import check_positive
from ._base import ContinuousDistribution, FloatArray
from .gencauchy import _gencauchy_ppf

__all__ = ["StudentT"]


class StudentT(ContinuousDistribution):
    """T_nu(a, tau) of 004 Sec. 2.1; ``nu`` > 0, ``loc`` = a, ``scale`` = tau > 0."""

    name = "student_t"
    symmetric = True

    def __init__(self, nu: float, loc: float = 0.0, scale: float = 1.0) -> None:
        super().__init__(loc=loc, scale=scale)
        self.nu = check_positive("nu", nu)
        self._theta = (self.nu + 1.0) / 2.0  # GenCauchy shape with p = 2
        self._sqrt_nu = math.sqrt(self.nu)
        self._log_c = float(student_t_log_normaliser(self.nu))

    def _shape_repr(self) -> str:
        return f"nu={self.nu!r}"

    def _logpdf(self, z: FloatArray) -> FloatArray:
        # ln(1 + z^2/nu) = ln(1 + e^L) with L = 2 ln(|z|/sqrt(nu)); -log_expit(-L) avoids overflow of z^2
        with np.errstate(divide="ignore"):
            big_l = 2.0 * np.log(np.abs(z) / self._sqrt_nu)
        return self._log_c + self._theta * sc.log_expit(-big_l)

    def _cdf(self, z: FloatArray) -> FloatArray:
        return np.asarray(gencauchy_cdf(z / self._sqrt_nu, 2.0, self._theta))

    def _sf(self, z: FloatArray) -> FloatArray:
        return self._cdf(-z)

    def _ppf(self, q: FloatArray) -> FloatArray:
        return self._sqrt_nu * _gencauchy_ppf(q, 2.0, self._theta)

    def _isf(self, q: FloatArray) -> FloatArray:
        return -self._ppf(q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return rng.standard_t(self.nu, size)

    def _mean(self) -> float:
        return 0.0 if self.nu > 1.0 else math.nan

    def _variance(self) -> float:
        return float(student_t_variance(self.nu))

    # ---- shape of ln h (004 Sec. 2.1 density; 004 Lemma 3.5 / A.1 proof) --------------------
    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -(nu + 1) z / (nu + z^2), written as -(nu + 1)/(z + nu/z) for |z| > 1 (no overflow
        of z^2 for huge |z|)."""
        nu = self.nu
        small = np.abs(z) <= 1.0
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            inner = -(nu + 1.0) * z / (nu + z * z)
            outer = -(nu + 1.0) / (z + nu / z)
        return np.where(small, inner, outer)

    def _score_breakpoints(self) -> tuple[float, ...]:
        # |psi| = (nu+1) z/(nu + z^2) peaks at z = sqrt(nu); |1 + z psi| = nu |1 - z^2|/(nu + z^2) is
        # zero at z = 1 and increases to nu after
        return (1.0, self._sqrt_nu)

    @property
    def tail_exponent(self) -> float:
        """nu + 1: h(z) ~ c |z|^(-(nu + 1)) (004 Sec. 2.1)."""
        return self.nu + 1.0

    @property
    def score_scale_limit(self) -> float:
        """nu = lim |1 + z psi(z)| = lim nu |1 - z^2|/(nu + z^2) (004 Lemma 3.5: the nu gamma term)."""
        return self.nu
