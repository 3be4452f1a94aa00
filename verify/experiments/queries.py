"""The queries of 004 Sec. 4-5 as objects the experiments can use: f, K_f and B*.

A :class:`Query` bundles, for one query f : R^d -> R,

* ``f(points)``                 the (soft) query value of every point, points of shape (m, d);
* ``lipschitz``                 its global Lipschitz constant K_f (for M2);
* ``smooth_sensitivity(points, gamma)``  the g_E(gamma)-smooth sensitivity B*(x) (for M3).

The factories delegate to the closed forms of :mod:`smoothsens_core.sensitivity` (004 Lemma 4.1
one-way threshold, Lemma 4.3 two-way threshold, Lemmas 4.6-4.7 Gaussian KDE); nothing here
re-derives a closed form.

:func:`radial_envelope` turns B* tabulated on a grid of c = ||x - t|| / h into a CERTIFIED smooth
upper bound for a radial query f(x) = f0(||x - t||):

    Phi(c) = min_j  B*(c_j) e^(gamma h |c - c_j|).

Phi >= B* (B* is g_E-smooth and radial, so B*(c) <= e^(gamma h |c - c_j|) B*(c_j) by moving along
the ray), and Phi is a minimum of g_E-smooth functions of c, hence g_E(gamma h)-smooth in c; since
|c(x) - c(x')| <= ||x - x'|| / h, x -> Phi(c(x)) is a g_E(gamma)-smooth upper bound on the local
sensitivity, which is all Lemmas 3.3 / 3.5 (004) and Thm. 8 (002) need.  It replaces the KDE root
finding per (user, query point) pair by one table per (gamma, h) at a relative cost of at most
e^(gamma h max_j (c_{j+1} - c_j) / 2) - 1 in noise scale.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.growth import growth_exp
from smoothsens_core.sensitivity.kde import gaussian_kernel, smooth_sensitivity_kde
from smoothsens_core.sensitivity.threshold import smooth_sensitivity_threshold, soft_threshold
from smoothsens_core.sensitivity.two_way import smooth_sensitivity_two_way_threshold, soft_two_way_threshold
from smoothsens_core.validation import check_finite_array, check_positive

__all__ = [
    "Query",
    "radial_envelope",
    "one_way_threshold_query",
    "two_way_threshold_query",
    "gaussian_kde_query",
]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Query:
    """A query f : R^d -> R with its global Lipschitz constant and its smooth sensitivity.

    ``smooth_sensitivity(points, gamma)`` returns B*(x) for the exponential growth g_E(gamma)
    (004 Sec. 3.1.2).  ``params`` records the query parameters (T, tau, t, h, ...).
    """

    name: str
    d: int
    f: Callable[[FloatArray], ArrayLike]
    lipschitz: float
    smooth_sensitivity: Callable[[FloatArray, float], ArrayLike]
    params: dict[str, Any]


def radial_envelope(
    c_nodes: ArrayLike, b_nodes: ArrayLike, gamma_h: float
) -> Callable[[ArrayLike], FloatArray]:
    """The smallest e^(gamma_h |dc|)-smooth function above the nodes: Phi(c) = min_j b_j e^(gamma_h |c - c_j|).

    ``c_nodes`` strictly increasing, ``b_nodes`` > 0.  Computed in log space with two running
    minima (a forward and a backward pass, like a distance transform):
        ln F_j = gamma_h c_j + min_{k <= j} (ln b_k - gamma_h c_k),
        ln G_j = -gamma_h c_j + min_{k >= j} (ln b_k + gamma_h c_k),
    and for c in [c_j, c_{j+1}]:  Phi(c) = min(F_j e^(gamma_h (c - c_j)), G_{j+1} e^(gamma_h (c_{j+1} - c))).
    Outside [c_0, c_N] only one side exists.  The returned callable is vectorised.
    """
    c = check_finite_array("c_nodes", c_nodes).reshape(-1)
    b = check_finite_array("b_nodes", b_nodes).reshape(-1)
    if c.size < 2 or c.size != b.size:
        raise ValueError(f"c_nodes and b_nodes must have the same length >= 2; got {c.size} and {b.size}")
    if np.any(np.diff(c) <= 0):
        raise ValueError("c_nodes must be strictly increasing")
    if np.any(b <= 0):
        raise ValueError("b_nodes must be > 0")
    g = check_positive("gamma_h", gamma_h)
    lb = np.log(b)
    log_f = g * c + np.minimum.accumulate(lb - g * c)
    log_g = -g * c + np.minimum.accumulate((lb + g * c)[::-1])[::-1]

    steps = np.diff(c)
    uniform = bool(np.all(np.abs(steps - steps[0]) <= 1e-12 * steps[0]))
    last = c.size - 1

    def phi(cq: ArrayLike) -> FloatArray:
        q = np.asarray(cq, dtype=float)
        if uniform:
            # uniform nodes: the cell index directly (a cell off by one at a node only swaps in
            # another member of the min, still an upper bound up to rounding)
            j = np.clip(np.floor((q - c[0]) / steps[0]), -1, last).astype(np.intp)
        else:
            j = np.clip(np.searchsorted(c, q, side="right") - 1, -1, last)
        jl = np.maximum(j, 0)
        jr = np.minimum(j + 1, last)
        left = log_f[jl] + g * (q - c[jl])
        right = log_g[jr] + g * (c[jr] - q)
        out = np.minimum(np.where(j >= 0, left, np.inf), np.where(j < last, right, np.inf))
        return np.exp(out)

    return phi


def one_way_threshold_query(T: float, tau: float) -> Query:
    """f_tau of 004 Sec. 4.1.2 (soft threshold at T, ramp width tau) on R^1.

    K_f = 1/tau (004 Sec. 4.1.2); B* of 004 Lemma 4.1 with g_E(gamma), Lambda = inf.
    """
    T = float(T)
    tau = check_positive("tau", tau)

    def f(pts: FloatArray) -> FloatArray:
        return soft_threshold(np.asarray(pts).reshape(-1), T, tau)

    def bstar(pts: FloatArray, gamma: float) -> FloatArray:
        return smooth_sensitivity_threshold(np.asarray(pts).reshape(-1), T, tau, growth_exp(gamma))

    return Query("one-way threshold", 1, f, 1.0 / tau, bstar, {"T": T, "tau": tau})


def two_way_threshold_query(T1: float, T2: float, tau: float) -> Query:
    """The two-way f_tau of 004 Sec. 4.2 on R^2 (transition band of width tau).

    K_f = 1/tau (004 Claim 4.2); B* of 004 Lemma 4.3 with g_E(gamma), Lambda = inf.
    004 asks 0 < tau < 2 min(T1, T2); the rule tau = min(0.2 ||(T1, T2)||, 2/eps) of 004 Sec. 5
    can break it near the grid's corners, but f_tau, K_f and B* stay well defined on R^2 (the
    construction only uses distances to the band), so such queries are kept.
    """
    T1, T2 = float(T1), float(T2)
    tau = check_positive("tau", tau)

    def f(pts: FloatArray) -> FloatArray:
        return soft_two_way_threshold(pts, T1, T2, tau)

    def bstar(pts: FloatArray, gamma: float) -> FloatArray:
        return smooth_sensitivity_two_way_threshold(pts, T1, T2, tau, growth_exp(gamma))

    return Query("two-way threshold", 2, f, 1.0 / tau, bstar, {"T1": T1, "T2": T2, "tau": tau})


#: Node spacing and range of the c = ||x - t||/h table behind the KDE envelope.
KDE_TABLE_DC: float = 1.0 / 64.0
KDE_TABLE_CMAX: float = 256.0


@functools.lru_cache(maxsize=16)
def _kde_table(h: float, gamma: float, d: int) -> tuple[FloatArray, FloatArray]:
    """Exact B* (004 Lemmas 4.6-4.7, smoothsens_core.sensitivity.kde) at c = 0, dc, ..., CMAX.

    B* of the Gaussian kernel depends on x only through c = ||x - t||/h (004 Lemma 4.5), so the
    table is computed once at t = 0, x = c h e_1 and serves every query point t.  Values that
    underflow are raised to 1e-300 (still an upper bound, so the envelope stays valid).
    """
    c = np.arange(0.0, KDE_TABLE_CMAX + KDE_TABLE_DC / 2, KDE_TABLE_DC)
    pts = np.zeros((c.size, d))
    pts[:, 0] = c * h
    b = np.asarray(smooth_sensitivity_kde(pts, np.zeros(d), h, growth_exp(gamma)), dtype=float)
    return c, np.maximum(b, 1e-300)


def gaussian_kde_query(t: ArrayLike, h: float) -> Query:
    """kappa_t(x) = exp(-||x - t||^2 / (2 h^2)) of 004 Sec. 4.3 on R^d, d = len(t).

    K_f = e^(-1/2)/h (004 Claim 4.4).  B* is evaluated through :func:`radial_envelope` over the
    exact closed form tabulated at c = k/64, k = 0..16384 (a certified g_E(gamma)-smooth upper
    bound, larger than B* by a factor at most e^(gamma h / 128)); ``params["envelope_factor"]`` is
    filled in per gamma on first use.
    """
    tt = check_finite_array("t", t).reshape(-1)
    h = check_positive("h", h)
    d = tt.size
    params: dict[str, Any] = {"t": tt, "h": h}

    def f(pts: FloatArray) -> FloatArray:
        return gaussian_kernel(np.asarray(pts).reshape(-1, d), tt, h)

    def bstar(pts: FloatArray, gamma: float) -> FloatArray:
        c_nodes, b_nodes = _kde_table(h, float(gamma), d)
        phi = radial_envelope(c_nodes, b_nodes, gamma * h)
        params["envelope_factor"] = math.exp(gamma * h * KDE_TABLE_DC / 2)
        p = np.asarray(pts, dtype=float).reshape(-1, d)
        c = np.sqrt(np.sum((p - tt) ** 2, axis=1)) / h
        # 1 + 1e-12 absorbs the rounding of exp/log in the envelope (a few ulps), so the value is
        # never below the exact closed form at a node.
        return phi(c) * (1.0 + 1e-12)

    return Query("gaussian kde", d, f, math.exp(-0.5) / h, bstar, params)
