"""The one-dimensional "ramp profile" behind every threshold-type closed form of 004 Sec. 4.

All the piecewise-linear queries of 004 (one-way threshold, Sec. 4.1.2 / Lemma 4.1; bounded range,
App. C.3; two-way threshold, Sec. 4.2 / Lemma 4.3) have the form

    f(x) = clip(s(x) / w, 0, 1)      or      f(x) = 1 - clip(s(x) / w, 0, 1)

where s is a 1-Lipschitz (signed) distance and w > 0 is the width of the transition band
(slope 1/w inside the band).  Let d(x) >= 0 be the Euclidean distance from x to the band
(d <= 0 inside it).  Then, for Lambda in (0, inf] (004 Def. 7) and any smooth growth function g0
(004 Sec. 3.1.2):

  L_{f,Lambda}(x) = ell(d(x)),  with  ell(d) = 1/w                      for d <= 0,
                                      ell(d) = 1/(d + w)                 for 0 < d <= Lambda - w,
                                      ell(d) = (Lambda - d)/(w Lambda)   for max(0, Lambda - w) < d < Lambda,
                                      ell(d) = 0                         for d >= Lambda;

  (the best partner w' of the chord |f(w') - f(x)| / |w' - x| is the far edge of the band, or the
  point at distance Lambda when the far edge is out of reach), and, because d is 1-Lipschitz and
  ell is non-increasing, B*(x) = sup_z ell(d(z)) / g0(|x - z|) (004 Def. 9) reduces to the 1-D

  B*(x) = 1/w                                              for d(x) <= 0,
  B*(x) = max_{0 <= e <= d(x)} ell(e) / g0(d(x) - e)       for d(x) > 0.

On each piece of ell the maximand is maximal at an end of the piece or at a stationary point:
  * 1/((e + w) g0(d - e)): the denominators (e + w) e^{gamma (d - e)} (log-concave) and
    (e + w)(1 + gamma (d - e)) (concave) have no interior minimum in e, so the maximum of the
    quotient on an interval is at an end (004 Lemma 4.1: phi(v) = e^{-gamma (v_x - v)} / v has
    only the minimum v0 = 1/gamma);
  * (Lambda - e) e^{-gamma (d - e)} (g_E) has its maximum at e = Lambda - 1/gamma;
    (Lambda - e) / (1 + gamma (d - e)) (g_L) is a Moebius function of e, monotone.
Hence the candidates e in {0, d, Lambda - w, Lambda, Lambda - 1/gamma (g_E)} clipped to [0, d]
give B* exactly, for g_E and g_L and any Lambda.  With Lambda = inf and g_E this is 004
Lemma 4.1: B*(x) = max(1/(d + w), e^{-gamma d}/w).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from ..growth import GrowthFunction
from ..validation import check_positive

__all__ = ["ramp_lipschitz", "ramp_smooth_sensitivity", "ramp_one_point", "check_growth", "check_lambda"]


def check_growth(growth: object) -> GrowthFunction:
    """Accept a :class:`smoothsens_core.growth.GrowthFunction` (g_E or g_L), else TypeError."""
    if not isinstance(growth, GrowthFunction):
        raise TypeError(
            "growth must be a smoothsens_core.growth.GrowthFunction (growth_exp(gamma) or "
            f"growth_linear(gamma)); got {type(growth).__name__}"
        )
    return growth


def check_lambda(Lambda: object) -> float:
    """Lambda in (0, inf] (004 Def. 6-9: the radius of the neighbourhood), as a float."""
    if isinstance(Lambda, (int, float, np.floating, np.integer)) and not isinstance(Lambda, bool):
        if float(Lambda) == math.inf:
            return math.inf
    return check_positive("Lambda", Lambda, allow_inf=True)


def ramp_lipschitz(d: NDArray[np.float64], width: float, Lambda: float) -> NDArray[np.float64]:
    """ell(d): the pointwise Lipschitz constant L_{f,Lambda} at distance d from the band (see module doc)."""
    w = float(width)
    out = np.empty_like(d)
    if math.isinf(Lambda):
        np.maximum(d, 0.0, out=out)  # inside the band (d <= 0) ell = 1/w = 1/(0 + w)
        out += w
        np.reciprocal(out, out=out)
        return out
    inside = d <= 0.0
    e = np.maximum(d, 0.0)
    lin = (Lambda - e) / (w * Lambda)
    far = 1.0 / (e + w)
    out = np.where(e + w <= Lambda, far, lin)
    out = np.where(e >= Lambda, 0.0, out)
    out = np.where(inside, 1.0 / w, out)
    return out


def _log_ell(e: NDArray[np.float64], w: float, Lambda: float) -> NDArray[np.float64]:
    """ln ell(e) for e >= 0 (-inf where ell = 0)."""
    with np.errstate(divide="ignore"):
        if math.isinf(Lambda):
            return -np.log(e + w)
        val = np.where(e + w <= Lambda, -np.log(e + w), np.log(np.maximum(Lambda - e, 0.0) / (w * Lambda)))
    return val


def ramp_one_point(d: float, width: float, growth: GrowthFunction) -> float:
    """B*(x) for Lambda = inf and one point at (signed) distance d from the band, in Python floats:
    the operations of :func:`ramp_smooth_sensitivity` (and of the fused g_E loop of the one-way
    threshold) in the same order, so the result is bit-identical to the bulk one.

    The one transcendental function, e^(-gamma d+) of g_E, is NumPy's ``exp`` on a one-element
    contiguous array, the loop the bulk path runs on its chunks: ``math.exp`` (the C library's,
    correctly rounded in glibc) and NumPy's ``exp`` (its own SIMD kernel on AVX-512 machines) differ
    by up to 2 ulp on some builds, so the fast path may not use ``math.exp``.  The g_L form has only
    +, * and /, which IEEE 754 rounds the same way everywhere."""
    dp = d if d > 0.0 else 0.0
    near = 1.0 / (dp + width)
    if growth.kind == "exp":
        edge = float(np.exp(np.array([dp * -growth.gamma]))[0]) * (1.0 / width)
    else:
        edge = (1.0 / width) / (1.0 + growth.gamma * dp)
    return near if near >= edge else edge


def ramp_smooth_sensitivity(
    d: NDArray[np.float64], width: float, Lambda: float, growth: GrowthFunction
) -> NDArray[np.float64]:
    """B*(x) from the distance d = d(x) to the transition band (see the module docstring)."""
    w = float(width)
    gamma = float(growth.gamma)
    if math.isinf(Lambda):
        # Candidates e = d (z = x: 1/(d + w)) and e = 0 (z on the band edge: 1/(w g0(d))).
        dp = np.maximum(d, 0.0)
        near = 1.0 / (dp + w)
        if growth.kind == "exp":
            edge = np.exp(-gamma * dp) * (1.0 / w)
        else:
            edge = (1.0 / w) / (1.0 + gamma * dp)
        return np.maximum(near, edge)
    dp = np.maximum(d, 0.0)
    cands = [np.zeros_like(dp), dp, np.full_like(dp, Lambda - w), np.full_like(dp, Lambda)]
    if growth.kind == "exp":
        cands.append(np.full_like(dp, Lambda - 1.0 / gamma))
    best = np.full_like(dp, -np.inf)
    for e in cands:
        e = np.clip(e, 0.0, dp)
        r = dp - e
        log_g = gamma * r if growth.kind == "exp" else np.log1p(gamma * r)
        val = _log_ell(e, w, Lambda) - log_g
        np.maximum(best, val, out=best)
    out = np.exp(best)
    return np.where(d <= 0.0, 1.0 / w, out)
