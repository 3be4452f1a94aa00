"""The standard deviations of 002 Appendix B (Claims 16-18) as printed, kept for comparison.

The claims of verify/claims/sets/calibration.py compare them with the standard deviation of the
calibrated noise (``Calibration.noise_std``); 002 Claim 18's printed range of gamma is too wide.
"""

from __future__ import annotations

import math

from ..validation import check_positive, check_probability

__all__ = ["std_gencauchy_nrs07_printed", "std_laplace_nrs07_printed", "std_student_t_bs19_printed"]

_LN2 = math.log(2.0)


def std_gencauchy_nrs07_printed(eps: float, gamma: float, c: float) -> float:
    """002 Claim 16 as printed: for c > 3, 0 < gamma < eps/(c+1), the std per unit SS of
    GenCauchy(c) scaled by [NRS07] is (c+1) / ((eps - gamma (c+1)) sqrt(2 cos(2 pi/c) + 1));
    infinite otherwise (here: inf for c <= 3 or gamma >= eps/(c+1))."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    c = check_positive("c", c)
    if c <= 3.0 or gamma >= eps / (c + 1.0):
        return math.inf
    return (c + 1.0) / ((eps - gamma * (c + 1.0)) * math.sqrt(2.0 * math.cos(2.0 * math.pi / c) + 1.0))


def std_student_t_bs19_printed(eps: float, gamma: float, d: float) -> float:
    """002 Claim 17 as printed: for d > 2, 0 < gamma < eps/(d+1), the std per unit SS of T_d
    scaled by [BS19] is sqrt(d/(d-2)) (d+1) / (2 sqrt(d) (eps - gamma (d+1))); infinite otherwise."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    d = check_positive("d", d)
    if d <= 2.0 or gamma >= eps / (d + 1.0):
        return math.inf
    return math.sqrt(d / (d - 2.0)) * (d + 1.0) / (2.0 * math.sqrt(d) * (eps - gamma * (d + 1.0)))


def std_laplace_nrs07_printed(eps: float, gamma: float, delta: float) -> float:
    """002 Claim 18 formula: sqrt(2) / (eps - gamma ln(2/delta)) (positive only for
    gamma < eps/ln(2/delta); the printed range gamma < eps/ln(1/delta) is too wide, see the claim
    002-Claim-18).  Returns inf where the denominator is <= 0."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    delta = check_probability("delta", delta)
    den = eps - gamma * (_LN2 - math.log(delta))
    return math.sqrt(2.0) / den if den > 0 else math.inf
