"""Third-party implementations for the black-box auditors (verify.audit.blackbox): correct ones (the
core's own) and planted faults, importable by path as ``MODULE:CALLABLE`` for the CLI tests.

Smooth upper bounds (004 Def. 8), fixed parameters below:
* ``kde_bound`` / ``kde_bound_2pct_low``: the Gaussian kernel kappa_t (004 Sec. 4.3), t = 0, h = 1,
  g_E with gamma = 0.1.  The fault multiplies B* by 0.98 on 2 <= |x - t|/h <= 3, where B* > L by
  at least 10% (B*/L >= 1.109 there, smoothsens_core.sensitivity.kde), so condition (1) of Def. 8
  still holds; only condition (2) breaks (at the ends of the band and across it) and B < B*.
* ``threshold_bound`` / ``threshold_bound_edge_bug``: one-way soft threshold (004 Lemma 4.1),
  T = 0, tau = 0.5, g_E with gamma = 1.  The fault measures the exponential term from T instead
  of from the band edge, B = max(1/(d + tau), e^{-gamma |x - T|}/tau) outside the band: B still
  exceeds L, but it jumps down by e^{-gamma tau/2} at the band edge, breaking condition (2).
* ``threshold_bound_raises``: scalar-only (uses math), correct formula, raises ValueError for
  x < T - 3 (valid inputs of the domain).
* ``threshold_bound_nan``: vectorised, returns NaN for x > T + 2.5.
* ``two_way_bound``, ``bounded_range_bound``, ``kde2d_bound``: the core's B* (correct).

Samplers (``sampler(n, rng)``): ``laplace_sampler``, ``student_t_sampler`` (nu = 3),
``gencauchy_sampler`` (p = 4, theta = 1) are the core's; ``laplace_sampler_scale_5pct`` and
``student_t_sampler_scale_5pct`` multiply the draws by 1.05.

Mechanisms (``release(x, rng)``): ``laplace_gp`` is the GP Laplace mechanism of 004 Lemma 2.3
for the 1-Lipschitz f(x) = x at eps = 1, i.e. noise scale K/eps = 1; ``laplace_gp_half_scale``
claims the same eps with scale 1/2 (its true eps is 2).  Both expose the exact density.
``release_half_scale_blackbox`` is the faulty one as a bare function (no density).
``laplace_gp_scale_97pct`` claims eps = 1 with scale 0.97 (a 3% fault the exact side certifies);
``laplace_gp_scale_97pct_float_only`` is the same without an mpmath density (inconclusive).
``student_t_threshold_mechanism``: the core's SmoothSensitivityMechanism for the threshold
query with B* and Student's t (nu = 3), eta from smoothsens_core.calibration (004 Lemma 3.5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from smoothsens_core.calibration import calibrate_student_t
from smoothsens_core.distributions import GenCauchy, Laplace, StudentT
from smoothsens_core.growth import growth_exp
from smoothsens_core.mechanism import SmoothSensitivityMechanism
from smoothsens_core.sensitivity import (
    smooth_sensitivity_bounded_range,
    smooth_sensitivity_kde,
    smooth_sensitivity_threshold,
    smooth_sensitivity_two_way_threshold,
    soft_threshold,
)

# ---- smooth upper bounds ---------------------------------------------------------------------
KDE_T, KDE_H, KDE_GAMMA = 0.0, 1.0, 0.1
THR_T, THR_TAU, THR_GAMMA = 0.0, 0.5, 1.0
TW_T1, TW_T2, TW_TAU, TW_GAMMA = 0.0, 0.0, 0.5, 1.0
BR_L, BR_R, BR_TAU, BR_GAMMA = 0.0, 1.0, 0.5, 1.0
KDE2_T, KDE2_H, KDE2_GAMMA = (0.0, 0.5), 1.0, 0.3


def kde_bound(x: Any) -> np.ndarray:
    """B* of the Gaussian kernel (correct, 004 Lemmas 4.6-4.7 as corrected in the core)."""
    return smooth_sensitivity_kde(np.asarray(x, dtype=float), [KDE_T], KDE_H, growth_exp(KDE_GAMMA))


def kde_bound_2pct_low(x: Any) -> np.ndarray:
    """Planted: B* times 0.98 on 2 <= |x - t|/h <= 3."""
    x = np.asarray(x, dtype=float)
    c = np.abs(x - KDE_T) / KDE_H
    return kde_bound(x) * np.where((c >= 2.0) & (c <= 3.0), 0.98, 1.0)


def threshold_bound(x: Any) -> np.ndarray:
    """B* of the one-way threshold (correct, 004 Lemma 4.1)."""
    return smooth_sensitivity_threshold(np.asarray(x, dtype=float), THR_T, THR_TAU, growth_exp(THR_GAMMA))


def threshold_bound_edge_bug(x: Any) -> np.ndarray:
    """Planted: the exponential term decays from T, not from the band edge (jump at |x - T| = tau/2)."""
    x = np.asarray(x, dtype=float)
    a = np.abs(x - THR_T)
    d = a - THR_TAU / 2
    outside = np.maximum(1.0 / (np.maximum(d, 0.0) + THR_TAU), np.exp(-THR_GAMMA * a) / THR_TAU)
    return np.where(d <= 0, 1.0 / THR_TAU, outside)


def threshold_bound_raises(x: float) -> float:
    """Planted: scalar-only (math), 004 Lemma 4.1 formula, but raises for x < T - 3."""
    if x < THR_T - 3.0:
        raise ValueError(f"x={x} is outside the tabulated range")
    d = abs(x - THR_T) - THR_TAU / 2
    if d <= 0:
        return 1.0 / THR_TAU
    return max(1.0 / (d + THR_TAU), math.exp(-THR_GAMMA * d) / THR_TAU)


def threshold_bound_nan(x: Any) -> np.ndarray:
    """Planted: returns NaN for x > T + 2.5."""
    x = np.asarray(x, dtype=float)
    return np.where(x > THR_T + 2.5, np.nan, threshold_bound(x))


def two_way_bound(points: Any) -> np.ndarray:
    """B* of the two-way threshold on R^2 (correct, 004 Lemma 4.3)."""
    return smooth_sensitivity_two_way_threshold(points, TW_T1, TW_T2, TW_TAU, growth_exp(TW_GAMMA))


def bounded_range_bound(x: Any) -> np.ndarray:
    """B* of the bounded-range tent (correct, 004 App. C.3)."""
    return smooth_sensitivity_bounded_range(np.asarray(x, dtype=float), BR_L, BR_R, BR_TAU, growth_exp(BR_GAMMA))


def kde2d_bound(points: Any) -> np.ndarray:
    """B* of the Gaussian kernel on R^2 (correct)."""
    return smooth_sensitivity_kde(points, list(KDE2_T), KDE2_H, growth_exp(KDE2_GAMMA))


# ---- samplers ----------------------------------------------------------------------------------
def laplace_sampler(n: int, rng: np.random.Generator) -> np.ndarray:
    return Laplace().sample(n, rng)


def laplace_sampler_scale_5pct(n: int, rng: np.random.Generator) -> np.ndarray:
    """Planted: Lap(0, 1.05) passed off as Lap(0, 1)."""
    return 1.05 * Laplace().sample(n, rng)


def student_t_sampler(n: int, rng: np.random.Generator) -> np.ndarray:
    return StudentT(3.0).sample(n, rng)


def student_t_sampler_scale_5pct(n: int, rng: np.random.Generator) -> np.ndarray:
    """Planted: 1.05 T_3 passed off as T_3."""
    return 1.05 * StudentT(3.0).sample(n, rng)


def gencauchy_sampler(n: int, rng: np.random.Generator) -> np.ndarray:
    return GenCauchy(4.0, 1.0).sample(n, rng)


# ---- mechanisms ------------------------------------------------------------------------------
class _LaplaceNoiseFloat:
    """Release and float log-density of M(x) = x + b Z, Z ~ Lap(0, 1), b = ``self.scale`` (shared by
    :class:`LaplaceGP` and :class:`LaplaceGPFloatOnly`): p_x(y) = e^{-|y - x|/b}/(2b).  Not a
    mechanism class of its own, so verify.reference.mechanisms holds no reference for it."""

    def release(self, x: Any, rng: np.random.Generator) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return x + self.scale * rng.laplace(size=x.shape)

    def log_density(self, x: Any, y: Any) -> np.ndarray:
        return -np.abs(np.asarray(y, dtype=float) - np.asarray(x, dtype=float)) / self.scale - math.log(2 * self.scale)


@dataclass(frozen=True)
class LaplaceGP(_LaplaceNoiseFloat):
    """M(x) = x + b Z, Z ~ Lap(0, 1): (1/b)-GP for the 1-Lipschitz f(x) = x (004 Lemma 2.3 with
    K = 1); ``eps`` is the claim, ``scale`` = b.  Exact density p_x(y) = e^{-|y - x|/b}/(2b)."""

    eps: float
    scale: float
    delta: float = 0.0
    metric: str = "euclidean"
    name: str = "LaplaceGP"

    def log_density_mp(self, x: Any, y: Any, dps: int) -> Any:
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            return -abs(mpmath.mpf(y) - mpmath.mpf(float(x))) / b - mpmath.log(2 * b)


laplace_gp = LaplaceGP(eps=1.0, scale=1.0)
laplace_gp_half_scale = LaplaceGP(eps=1.0, scale=0.5, name="LaplaceGP-half-scale")
#: Planted: scale 0.97 claimed 1-GP (true eps 1/0.97 = 1.0309): too close for the sampling bound at
#: a modest budget, certified by the exact side (loss - eps d = 2 (1/0.97 - 1) = 0.0619 at d = 2).
laplace_gp_scale_97pct = LaplaceGP(eps=1.0, scale=0.97, name="LaplaceGP-scale-97pct")


@dataclass(frozen=True)
class LaplaceGPFloatOnly(_LaplaceNoiseFloat):
    """:class:`LaplaceGP` with its float density only (no ``log_density_mp``, no reference in
    verify.reference.mechanisms): an excess can be found but not certified."""

    eps: float
    scale: float
    delta: float = 0.0
    metric: str = "euclidean"
    name: str = "LaplaceGP-float-only"


#: Planted, float density only: scale 0.97 claimed 1-GP (the exact side cannot certify it).
laplace_gp_scale_97pct_float_only = LaplaceGPFloatOnly(eps=1.0, scale=0.97)


def release_half_scale_blackbox(x: float, rng: np.random.Generator) -> float:
    """Planted, scalar and without a density: x + Lap(0, 1/2) claimed 1-GP."""
    return float(x) + 0.5 * float(rng.laplace())


_CAL = calibrate_student_t(1.0, gamma=0.1, nu=3.0)
student_t_threshold_mechanism = SmoothSensitivityMechanism(
    f=lambda x: soft_threshold(x, THR_T, THR_TAU),
    B=lambda x: smooth_sensitivity_threshold(x, THR_T, THR_TAU, growth_exp(_CAL.gamma)),
    noise=StudentT(3.0),
    eta=_CAL.eta,
    eps=_CAL.eps,
)
