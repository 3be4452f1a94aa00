"""Bounded-range query 1{l <= x <= r}, its Lipschitz surrogates and their smooth sensitivity
(004 App. C.3 and the Remark closing 004 Sec. 4.1.3).

Printed surrogate (004 App. C.3), ``shape="tent"``: with m = (l + r)/2 and
W = (r - l)/2 + tau/2,

    f_tau(x) = 0                                   for x < l - tau/2 or x > r + tau/2,
             = (x - l + tau/2) / W                 for l - tau/2 <= x <= m,
             = (r + tau/2 - x) / W                 for m <= x <= r + tau/2,

i.e. f_tau(x) = clip(1 - |x - m|/W, 0, 1): a tent of slope 1/W that equals 1 only at m.  Printed
smooth sensitivity (004 App. C.3, g_E, Lambda = inf):

    B*(x) = max( 1/|m - x|, e^{-gamma |l - tau/2 - x|} / W )   for x < l - tau/2,
          = max( 1/|m - x|, e^{-gamma |r + tau/2 - x|} / W )   for x > r + tau/2,
          = 1/W                                               on [l - tau/2, r + tau/2].

Brute force of 004 Def. 9 agrees with this formula for the printed tent (claim 004-App-C.3).  The
tent is the ramp profile of ``_ramp`` with width W and band distance d(x) = |x - m| - W, so g_L
and finite Lambda come from the same derivation.

``shape="trapezoid"`` is the surrogate the Remark of 004 Sec. 4.1.3 describes in words ("points in
[l - tau/2, r + tau/2] get an interpolated value", 1 on the plateau): slope 1/tau ramps on
[l - tau/2, l + tau/2] and [r - tau/2, r + tau/2], value 1 on [l + tau/2, r - tau/2] (needs
r - l >= tau); its band distance is d(x) = max(|x - m| - (r - l + tau)/2, (r - l - tau)/2 - |x - m|)
and its B* is the ramp profile with width tau (e.g. max(1/(d + tau), e^{-gamma d}/tau) for g_E).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_positive, check_real
from ..growth import GrowthFunction
from ._chunking import DEFAULT_CHUNK, map_chunks
from ._common import SensitivityValues, points_1d, scalar_real
from ._ramp import check_growth, check_lambda, ramp_lipschitz, ramp_one_point, ramp_smooth_sensitivity

__all__ = [
    "soft_bounded_range",
    "lipschitz_bounded_range",
    "smooth_sensitivity_bounded_range",
    "sensitivity_bounded_range",
]

_SHAPES = ("tent", "trapezoid")


def _params(l: float, r: float, tau: float, shape: str) -> tuple[float, float, float, str]:
    l = check_real("l", l)
    r = check_real("r", r)
    tau = check_positive("tau", tau)
    if not l < r:
        raise ValueError(f"l must be < r; got l={l!r}, r={r!r}")
    if shape not in _SHAPES:
        raise ValueError(f"shape must be one of {_SHAPES}; got shape={shape!r}")
    if shape == "trapezoid" and r - l < tau:
        raise ValueError(f"shape='trapezoid' needs r - l >= tau; got r - l={r - l!r}, tau={tau!r}")
    return l, r, tau, shape


def _width(l: float, r: float, tau: float, shape: str) -> float:
    return (r - l) / 2.0 + tau / 2.0 if shape == "tent" else tau


def _distance(x: NDArray[np.float64], l: float, r: float, tau: float, shape: str) -> NDArray[np.float64]:
    s = np.abs(x - 0.5 * (l + r))
    if shape == "tent":
        return s - ((r - l) / 2.0 + tau / 2.0)
    return np.maximum(s - (r - l + tau) / 2.0, (r - l - tau) / 2.0 - s)


def soft_bounded_range(x: ArrayLike, l: float, r: float, tau: float, shape: str = "tent") -> NDArray[np.float64]:
    """f_tau(x) of 004 App. C.3 (``tent``, as printed) or the plateau surrogate (``trapezoid``)."""
    l, r, tau, shape = _params(l, r, tau, shape)
    xs = points_1d("x", x)
    m = 0.5 * (l + r)
    if shape == "tent":
        W = (r - l) / 2.0 + tau / 2.0
        (out,) = map_chunks(lambda c: (np.clip(1.0 - np.abs(c - m) / W, 0.0, 1.0),), xs, 1)
    else:
        (out,) = map_chunks(
            lambda c: (np.clip(np.minimum(c - (l - tau / 2.0), (r + tau / 2.0) - c) / tau, 0.0, 1.0),), xs, 1
        )
    return out


def lipschitz_bounded_range(
    x: ArrayLike, l: float, r: float, tau: float, Lambda: float = math.inf, shape: str = "tent"
) -> NDArray[np.float64]:
    """L_{f,Lambda}(x) (004 Def. 7) of the bounded-range surrogate: ramp profile ell(d(x))."""
    l, r, tau, shape = _params(l, r, tau, shape)
    Lam = check_lambda(Lambda)
    xs = points_1d("x", x)
    w = _width(l, r, tau, shape)
    (out,) = map_chunks(lambda c: (ramp_lipschitz(_distance(c, l, r, tau, shape), w, Lam),), xs, 1)
    return out


def smooth_sensitivity_bounded_range(
    x: ArrayLike,
    l: float,
    r: float,
    tau: float,
    growth: GrowthFunction,
    Lambda: float = math.inf,
    shape: str = "tent",
    *,
    chunk: int = DEFAULT_CHUNK,
) -> NDArray[np.float64]:
    """B*(x) (004 Def. 9) of the bounded-range surrogate; 004 App. C.3 for g_E, Lambda = inf, tent.

    One point given as a float with Lambda = inf takes a fast path with the operations of the bulk
    path in the same order (bit-identical, see ``_ramp.ramp_one_point``)."""
    xv = scalar_real(x)
    if xv is not None and (Lambda is math.inf or Lambda == math.inf) and type(growth) is GrowthFunction:
        lv, rv, tv = scalar_real(l), scalar_real(r), scalar_real(tau)
        if (lv is not None and rv is not None and tv is not None and tv > 0.0 and lv < rv
                and (shape == "tent" or (shape == "trapezoid" and rv - lv >= tv))):
            sd = abs(xv - 0.5 * (lv + rv))
            if shape == "tent":
                d = sd - ((rv - lv) / 2.0 + tv / 2.0)
            else:
                d = max(sd - (rv - lv + tv) / 2.0, (rv - lv - tv) / 2.0 - sd)
            return np.array([ramp_one_point(d, _width(lv, rv, tv, shape), growth)])
    l, r, tau, shape = _params(l, r, tau, shape)
    g = check_growth(growth)
    Lam = check_lambda(Lambda)
    xs = points_1d("x", x)
    w = _width(l, r, tau, shape)
    (out,) = map_chunks(
        lambda c: (ramp_smooth_sensitivity(_distance(c, l, r, tau, shape), w, Lam, g),), xs, 1, chunk
    )
    return out


def sensitivity_bounded_range(
    x: ArrayLike, l: float, r: float, tau: float, growth: GrowthFunction, Lambda: float = math.inf, shape: str = "tent"
) -> SensitivityValues:
    """(f, L_{f,Lambda}, B*) of the bounded-range surrogate (004 App. C.3)."""
    return SensitivityValues.of_query(
        soft_bounded_range, lipschitz_bounded_range, smooth_sensitivity_bounded_range, (x, l, r, tau), growth, Lambda,
        shape=shape,
    )
