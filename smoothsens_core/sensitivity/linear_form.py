"""Functions of a linear form, f(x) = f0(beta0 + <beta, x>), reduced to one dimension
(004 Sec. 4.4, Lemma 4.8 / App. A.5).

004 Lemma 4.8: the sup defining B*(x) (004 Def. 9) may be restricted to pairs on the line
x + s beta/||beta||.  With u = beta0 + <beta, x>, a point z_c = x + c beta/||beta|| has
phi(z_c) = u + c ||beta||, so for every Lambda in (0, inf] and growth g0:

    L_{f,Lambda}(x)        = ||beta|| L_{f0, Lambda ||beta||}(u),
    B*_f(x; g0, Lambda)    = ||beta|| B*_{f0}(u; g0(. / ||beta||), Lambda ||beta||),

i.e. the one-dimensional smooth sensitivity of f0 at u, with the growth rate divided by ||beta||
(g_E: e^{(gamma/||beta||) r}; g_L: 1 + (gamma/||beta||) r: both stay in their family) and the
neighbourhood radius multiplied by ||beta||.  Any one-dimensional closed form applies; the
soft threshold of 004 Sec. 4.1.2 on the score gives the half-space query
:func:`smooth_sensitivity_linear_threshold`.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_finite_array, check_positive, check_real
from ..growth import GrowthFunction
from ._common import SensitivityValues, points_nd
from .brute import brute_smooth_sensitivity
from ._ramp import check_growth, check_lambda
from .threshold import lipschitz_threshold, smooth_sensitivity_threshold, soft_threshold

__all__ = [
    "linear_score",
    "reduce_growth",
    "lipschitz_linear_form",
    "smooth_sensitivity_linear_form",
    "sensitivity_linear_threshold",
    "smooth_sensitivity_linear_threshold",
]

Bstar1D = Callable[[NDArray[np.float64], GrowthFunction, float], NDArray[np.float64]]
L1D = Callable[[NDArray[np.float64], float], NDArray[np.float64]]


def _beta(beta0: float, beta: ArrayLike) -> tuple[float, NDArray[np.float64], float]:
    b0 = check_real("beta0", beta0)
    b = check_finite_array("beta", beta).reshape(-1)
    nb = float(np.linalg.norm(b))
    if b.size == 0 or not nb > 0:
        raise ValueError(f"beta must be a non-zero vector of R^d (004 Lemma 4.8: ||beta|| != 0); got beta={b!r}")
    return b0, b, nb


def linear_score(points: ArrayLike, beta0: float, beta: ArrayLike) -> NDArray[np.float64]:
    """u = beta0 + <beta, x> for points (n, d) (004 Sec. 4.4, phi(x))."""
    b0, b, _ = _beta(beta0, beta)
    p = points_nd("points", points, b.size)
    return b0 + p @ b


def reduce_growth(growth: GrowthFunction, beta: ArrayLike) -> GrowthFunction:
    """The growth of the reduced 1-D problem: same kind, gamma / ||beta|| (004 Lemma 4.8)."""
    g = check_growth(growth)
    _, _, nb = _beta(0.0, beta)
    return GrowthFunction(g.kind, float(g.gamma) / nb)


def lipschitz_linear_form(
    points: ArrayLike, beta0: float, beta: ArrayLike, lipschitz_1d: L1D, Lambda: float = math.inf
) -> NDArray[np.float64]:
    """L_{f,Lambda}(x) = ||beta|| L_{f0, Lambda ||beta||}(beta0 + <beta, x>); ``lipschitz_1d(u, Lambda)``
    is the pointwise Lipschitz constant of f0 on R."""
    _, _, nb = _beta(beta0, beta)
    Lam = check_lambda(Lambda)
    u = linear_score(points, beta0, beta)
    return nb * np.asarray(lipschitz_1d(u, Lam * nb if math.isfinite(Lam) else math.inf), dtype=float)


def smooth_sensitivity_linear_form(
    points: ArrayLike,
    beta0: float,
    beta: ArrayLike,
    growth: GrowthFunction,
    bstar_1d: Bstar1D | None = None,
    Lambda: float = math.inf,
    *,
    f0: Callable[[NDArray[np.float64]], NDArray[np.float64]] | None = None,
    radius: float = 10.0,
    f0_mp: Callable[[Any], Any] | None = None,
    mp: Any = None,
) -> NDArray[np.float64]:
    """B*_f(x) = ||beta|| B*_{f0}(u; gamma/||beta||, Lambda ||beta||), u = beta0 + <beta, x> (004 Lemma 4.8).

    ``bstar_1d(u, growth_1d, Lambda_1d)`` is a smooth sensitivity of f0 on R (e.g. a closed form of
    this package, or the generic engine of :mod:`.generic` built for f0).  Without it, ``f0`` (a
    vectorised function of R) is required and the 1-D problem is solved by the brute-force search of
    :func:`.brute.brute_smooth_sensitivity` (window ``radius`` around each u; a certified lower
    bound, slow: meant as a reference); give ``f0_mp`` (f0 for mpmath numbers) and ``mp`` (the
    mpmath module) to have its maximiser re-evaluated in mpmath (1e-9 accuracy and better).
    Vectorised reduction; any d >= 1."""
    _, _, nb = _beta(beta0, beta)
    Lam = check_lambda(Lambda)
    g1 = reduce_growth(growth, beta)
    u = linear_score(points, beta0, beta)
    lam1 = Lam * nb if math.isfinite(Lam) else math.inf
    if bstar_1d is None:
        if f0 is None or not callable(f0):
            raise ValueError("give bstar_1d (a 1-D smooth sensitivity of f0) or f0 (a vectorised function of R)")
        def f1(v: NDArray[np.float64]) -> NDArray[np.float64]:
            v = np.asarray(v, dtype=float)
            return np.asarray(f0(v[..., 0] if v.ndim > 1 else v), dtype=float)

        return nb * brute_smooth_sensitivity(f1, u, g1, lam1, d=1, radius=radius, f_mp=f0_mp, mp=mp).value
    return nb * np.asarray(bstar_1d(u, g1, lam1), dtype=float)


def smooth_sensitivity_linear_threshold(
    points: ArrayLike, beta0: float, beta: ArrayLike, tau: float, growth: GrowthFunction, Lambda: float = math.inf
) -> NDArray[np.float64]:
    """B* of the half-space soft threshold f(x) = f_tau(beta0 + <beta, x>) (f_tau of 004 Sec. 4.1.2
    with T = 0): 004 Lemma 4.8 applied to Lemma 4.1 (and its g_L / finite-Lambda extension)."""
    tau = check_positive("tau", tau)
    return smooth_sensitivity_linear_form(
        points, beta0, beta, growth, lambda u, g1, lam: smooth_sensitivity_threshold(u, 0.0, tau, g1, lam), Lambda
    )


def sensitivity_linear_threshold(
    points: ArrayLike, beta0: float, beta: ArrayLike, tau: float, growth: GrowthFunction, Lambda: float = math.inf
) -> SensitivityValues:
    """(f, L_{f,Lambda}, B*) of the half-space soft threshold f_tau(beta0 + <beta, x>)."""
    tau = check_positive("tau", tau)
    u = linear_score(points, beta0, beta)
    return SensitivityValues(
        soft_threshold(u, 0.0, tau),
        lipschitz_linear_form(points, beta0, beta, lambda v, lam: lipschitz_threshold(v, 0.0, tau, lam), Lambda),
        smooth_sensitivity_linear_threshold(points, beta0, beta, tau, growth, Lambda),
    )
