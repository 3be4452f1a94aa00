"""One-way soft threshold f_tau and its smooth sensitivity (004 Sec. 4.1.2-4.1.3, Lemma 4.1).

    f_tau(x) = 0                            for x - T < -tau/2,
             = (x - T)/tau + 1/2            for |x - T| <= tau/2,
             = 1                            for x - T > tau/2          (004 Sec. 4.1.2),

a 1/tau-Lipschitz soft version of 1{x > T}.  With d(x) = |x - T| - tau/2 the distance to the
transition band, the pointwise Lipschitz constant (004 Def. 7) and the g-smooth sensitivity
(004 Def. 9) are those of the ramp profile of :mod:`._ramp` with width w = tau:

  L_{f,inf}(x) = 1/(|x - T| + tau/2) outside the band, 1/tau inside;
  B*(x) = max( 1/(|x - T| + tau/2), (1/tau) e^{-gamma (|x - T| - tau/2)} ) for |x - T| > tau/2,
        = 1/tau                                                        for |x - T| <= tau/2,

which is 004 Lemma 4.1 (g_E, Lambda = inf).  The same derivation (module doc of ``_ramp``) gives
the exact B* for g_L (replace e^{-gamma r} by 1/(1 + gamma r)) and for finite Lambda.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_positive, check_real
from ..growth import GrowthFunction
from ._chunking import DEFAULT_CHUNK, map_chunks
from ._common import SensitivityValues, points_1d, scalar_real
from ._ramp import check_growth, check_lambda, ramp_lipschitz, ramp_smooth_sensitivity, ramp_one_point

__all__ = [
    "soft_threshold",
    "lipschitz_threshold",
    "smooth_sensitivity_threshold",
    "sensitivity_threshold",
]


def _params(T: float, tau: float) -> tuple[float, float]:
    return check_real("T", T), check_positive("tau", tau)


def _distance(x: NDArray[np.float64], T: float, tau: float) -> NDArray[np.float64]:
    d = x - T
    np.abs(d, out=d)
    d -= 0.5 * tau
    return d


def soft_threshold(x: ArrayLike, T: float, tau: float) -> NDArray[np.float64]:
    """f_tau(x) = clip((x - T)/tau + 1/2, 0, 1) (004 Sec. 4.1.2); x of shape (n,) or (n, 1)."""
    T, tau = _params(T, tau)
    xs = points_1d("x", x)
    (out,) = map_chunks(lambda c: (np.clip((c - T) / tau + 0.5, 0.0, 1.0),), xs, 1)
    return out


def lipschitz_threshold(x: ArrayLike, T: float, tau: float, Lambda: float = math.inf) -> NDArray[np.float64]:
    """L_{f_tau,Lambda}(x) (004 Def. 7): 1/tau in the band, else ell(|x - T| - tau/2) of ``_ramp``."""
    T, tau = _params(T, tau)
    Lam = check_lambda(Lambda)
    xs = points_1d("x", x)
    (out,) = map_chunks(lambda c: (ramp_lipschitz(_distance(c, T, tau), tau, Lam),), xs, 1)
    return out


def smooth_sensitivity_threshold(
    x: ArrayLike,
    T: float,
    tau: float,
    growth: GrowthFunction,
    Lambda: float = math.inf,
    *,
    chunk: int = DEFAULT_CHUNK,
) -> NDArray[np.float64]:
    """B*(x) of f_tau for growth g (g_E or g_L) and Lambda in (0, inf] (004 Lemma 4.1 for g_E, inf).

    B*(x) = max(1/(|x - T| + tau/2), (1/tau)/g0(|x - T| - tau/2)) outside the band and 1/tau
    inside it when Lambda = inf; finite Lambda adds the candidates of the ``_ramp`` module doc.

    One point given as a Python/NumPy float (the common per-point call) with Lambda = inf takes a
    fast path with the operations of the bulk path in the same order, in Python floats and with
    NumPy's ``exp`` (bit-identical to the bulk result; ``_ramp.ramp_one_point`` says why not ``math.exp``).
    """
    xv = scalar_real(x)
    if xv is not None and (Lambda is math.inf or Lambda == math.inf) and type(growth) is GrowthFunction:
        Tv, tv = scalar_real(T), scalar_real(tau)
        if Tv is not None and tv is not None and tv > 0.0:
            return np.array([ramp_one_point(abs(xv - Tv) - 0.5 * tv, tv, growth)])
    T, tau = _params(T, tau)
    g = check_growth(growth)
    Lam = check_lambda(Lambda)
    xs = points_1d("x", x)
    if math.isinf(Lam) and g.kind == "exp":
        gamma = float(g.gamma)
        inv_tau = 1.0 / tau

        def fast(c: NDArray[np.float64]) -> tuple[NDArray[np.float64]]:
            # d+ = max(|x - T| - tau/2, 0);  B = max(1/(d+ + tau), e^{-gamma d+}/tau)  (Lemma 4.1)
            d = _distance(c, T, tau)
            np.maximum(d, 0.0, out=d)
            near = d + tau
            np.reciprocal(near, out=near)
            d *= -gamma
            np.exp(d, out=d)
            d *= inv_tau
            np.maximum(near, d, out=near)
            return (near,)

        (out,) = map_chunks(fast, xs, 1, chunk)
        return out
    (out,) = map_chunks(lambda c: (ramp_smooth_sensitivity(_distance(c, T, tau), tau, Lam, g),), xs, 1, chunk)
    return out


def sensitivity_threshold(
    x: ArrayLike, T: float, tau: float, growth: GrowthFunction, Lambda: float = math.inf
) -> SensitivityValues:
    """(f_tau(x), L_{f,Lambda}(x), B*(x)) for the one-way soft threshold (004 Sec. 4.1, Lemma 4.1)."""
    return SensitivityValues.of_query(
        soft_threshold, lipschitz_threshold, smooth_sensitivity_threshold, (x, T, tau), growth, Lambda
    )
