"""Optimisation of the free shape parameters (p, theta, nu) of a calibration, and the gamma -> 0 limit.

The noise standard deviation per unit B of every family increases with gamma at fixed eps, so gamma is
given (or a budget split is); :func:`optimise_calibration` chooses the remaining shape parameters to
minimise the std (what 002 Figure 1 does numerically), and :func:`std_limit_small_gamma` returns the
infimum over gamma, the limit gamma -> 0+.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._generated.noise import gencauchy_variance, student_t_variance
from ..validation import check_integer, check_positive
from .families import NEEDS_DELTA, check_family, calibrate, calibrate_gencauchy
from .laws import (
    check_split,
    eta_gencauchy_gp,
    eta_gencauchy_nrs07,
    eta_student_t_bs19,
    eta_student_t_gp,
    gamma_max_gencauchy_gp,
    gamma_max_gencauchy_nrs07,
    gamma_max_student_t_bs19,
    gamma_max_student_t_gp,
)
from .record import DEFAULT_SPLIT, Calibration

__all__ = ["optimise_calibration", "std_limit_small_gamma"]

#: Search box of the GenCauchy shape optimiser: theta in [1, _THETA_MAX] (at a budget split the
#: infimum is approached as p -> 1+, theta -> inf, the Laplace-like limit; the box keeps it finite).
_THETA_MAX = 1000.0


def _std_student_t(eps: float, gamma: ArrayLike, nu: ArrayLike, bs19: bool = False) -> np.ndarray:
    """std per unit B of the Student's t mechanism (004 Lemma 3.5, or BS19 with ``bs19``):
    sqrt(Var T_nu) / eta(eps, gamma, nu) (= sqrt(nu/(nu-2)) (nu+1) / (2 sqrt(nu) (eps - c gamma)),
    c = nu or nu + 1); inf if infeasible (nu <= 2 or eta <= 0)."""
    nu = np.asarray(nu, dtype=float)
    gamma = np.asarray(gamma, dtype=float)
    eta = np.asarray((eta_student_t_bs19 if bs19 else eta_student_t_gp)(eps, gamma, nu), dtype=float)
    var = np.asarray(student_t_variance(nu), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(var) / eta
    return np.where((nu > 2.0) & (eta > 0), out, np.inf)


def _std_gencauchy(eps: float, gamma: ArrayLike, p: ArrayLike, theta: ArrayLike, m: int = 1, nrs07: bool = False) -> np.ndarray:
    """std per unit B (per coordinate) of the GenCauchy mechanism, 004 Lemma 3.3 / Cor. 3.2 (or NRS07
    with ``nrs07``, theta = 1): sqrt(Var(p, theta)) / eta(eps, gamma); inf if infeasible."""
    p = np.asarray(p, dtype=float)
    theta = np.asarray(theta, dtype=float)
    gamma = np.asarray(gamma, dtype=float)
    if nrs07:
        eta = np.asarray(eta_gencauchy_nrs07(eps, gamma, p), dtype=float)
    else:  # NaN for p <= 1, masked out below
        eta = np.asarray(eta_gencauchy_gp(eps, gamma, p, theta, m), dtype=float)
    var = np.asarray(gencauchy_variance(p, theta), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(var) / eta
    return np.where((eta > 0) & np.isfinite(var) & (p > 1.0), out, np.inf)


def _minimise_1d(fun: Any, lo: float, hi: float, n_grid: int = 400) -> float:
    """argmin of a vectorised fun on (lo, hi): log-spaced grid scan, then bounded Brent refinement
    in the bracketing cell (the returned point is never worse than the best grid point)."""
    from scipy.optimize import minimize_scalar  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    # grid in u = log(x - lo) so the region near the pole at lo is resolved
    u = np.linspace(math.log((hi - lo) * 1e-6), math.log(hi - lo), n_grid)
    x = lo + np.exp(u)
    x[-1] = np.nextafter(hi, lo)
    vals = np.asarray(fun(x), dtype=float)
    i = int(np.argmin(vals))
    best_x, best_v = float(x[i]), float(vals[i])
    a = u[max(i - 1, 0)]
    b = u[min(i + 1, n_grid - 1)]
    if b > a:
        res = minimize_scalar(lambda t: float(fun(np.array([lo + math.exp(t)]))[0]), bounds=(a, b), method="bounded",
                              options={"xatol": 1e-12})
        xr = lo + math.exp(float(res.x))
        vr = float(fun(np.array([xr]))[0])
        if vr <= best_v and xr < hi:
            best_x = xr
    return best_x


def optimise_calibration(
    family: str,
    eps: float,
    *,
    gamma: float | None = None,
    split: float | None = None,
    delta: float | None = None,
    m: int = 1,
    optimise_theta: bool = True,
) -> Calibration:
    """The calibration of ``family`` with the free shape parameters chosen to minimise noise std.

    Either at a given ``gamma`` (what 002 Figure 1 does numerically), or, with ``gamma`` None, at a
    budget split: the scale term takes the fraction ``split`` of eps (default 1/3, 004 Sec. 5).
    Free parameters: nu for "student_t"/"student_t_bs19" (nu > 2 for a finite std),
    (p, theta) for "gencauchy" (theta in [1, 1000]; theta = 1 with ``optimise_theta=False``), p for
    "gencauchy_nrs07".
    PolyPlace and the Laplace mechanisms have no free shape at given gamma: they are calibrated as is.
    Method: a grid scan (log-spaced near the poles) then scipy's bounded Brent (1-D) or Nelder-Mead
    (p, theta) refinement; the result is never worse than the grid's best point.
    The optimum over gamma itself (ignoring B) is the limit gamma -> 0: see :func:`std_limit_small_gamma`.
    """
    check_family(family)
    eps = check_positive("eps", eps)
    if gamma is not None and split is not None:
        raise ValueError("give at most one of gamma and split; got both")
    if split is not None:
        split = check_split(split)
    if gamma is not None:
        gamma = check_positive("gamma", gamma)
    if family in ("polyplace",) + NEEDS_DELTA:
        kw: dict[str, Any] = {"split": split} if gamma is None else {}
        return calibrate(family, eps, delta=delta, gamma=gamma, **kw)
    if delta is not None:
        raise ValueError(f"delta must be None for the pure mechanism family={family!r}; got delta={delta!r}")
    sp = DEFAULT_SPLIT if (gamma is None and split is None) else split

    if family in ("student_t", "student_t_bs19"):
        bs19 = family == "student_t_bs19"
        if gamma is not None:
            # nu > 2 and c(nu) gamma < eps, c = nu (004) or nu + 1 (BS19)
            hi = eps / gamma - (1.0 if bs19 else 0.0)
            if not hi > 2.0:
                raise ValueError(
                    f"gamma must be < eps/{3 if bs19 else 2} for a finite noise std of family={family!r} "
                    f"(needs nu > 2); got gamma={gamma!r}, eps={eps!r}"
                )
            nu = _minimise_1d(lambda v: _std_student_t(eps, gamma, v, bs19), 2.0, hi)
            return calibrate(family, eps, gamma=gamma, nu=nu)
        # at a split, c(nu) gamma = split eps: std = (nu+1)/(2 sqrt(nu-2) (1 - split) eps) -> nu = 5
        gmax = gamma_max_student_t_bs19 if bs19 else gamma_max_student_t_gp
        nu = _minimise_1d(lambda v: _std_student_t(eps, sp * np.asarray(gmax(eps, v)), v, bs19), 2.0, 1e6)
        return calibrate(family, eps, split=sp, nu=nu)

    if family == "gencauchy_nrs07":
        if gamma is not None:
            hi = eps / gamma - 1.0
            if not hi > 3.0:
                raise ValueError(
                    f"gamma must be < eps/4 for a finite noise std of family={family!r} (needs p > 3); "
                    f"got gamma={gamma!r}, eps={eps!r}"
                )
            p = _minimise_1d(lambda v: _std_gencauchy(eps, gamma, v, 1.0, nrs07=True), 3.0, hi)
            return calibrate(family, eps, gamma=gamma, p=p)
        p = _minimise_1d(lambda v: _std_gencauchy(eps, sp * np.asarray(gamma_max_gencauchy_nrs07(eps, v)), v, 1.0, nrs07=True),
                         3.0, 1e4)
        return calibrate(family, eps, split=sp, p=p)

    # family == "gencauchy": minimise over (p, theta), p > 1, theta >= 1, p theta > 3.
    m = check_integer("m", m, minimum=1)
    return _optimise_gencauchy(eps, gamma, sp, m, optimise_theta)


def _optimise_gencauchy(eps: float, gamma: float | None, split: float | None, m: int, optimise_theta: bool) -> Calibration:
    from scipy.optimize import minimize  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    def obj(p: np.ndarray, theta: np.ndarray) -> np.ndarray:
        if gamma is not None:
            return _std_gencauchy(eps, gamma, p, theta, m)
        g = split * np.asarray(gamma_max_gencauchy_gp(eps, p, theta, m))
        return _std_gencauchy(eps, g, p, theta, m)

    if gamma is not None and not m * 2.0 * gamma < eps:
        raise ValueError(
            f"gamma must be < eps/(2 m) for a finite noise std of family='gencauchy' "
            f"(needs p theta > 3, so m max(1, p theta - 1) gamma > 2 m gamma); got gamma={gamma!r}, eps={eps!r}, m={m}"
        )
    # grid over (q = p theta in (3, qmax), theta in [1, 8]); p = q / theta must exceed 1
    qmax = (eps / (m * gamma) + 1.0) if gamma is not None else 1e3
    q = 3.0 + np.exp(np.linspace(math.log((qmax - 3.0) * 1e-6), math.log(qmax - 3.0), 160))
    q[-1] = np.nextafter(qmax, 3.0)
    thetas = np.exp(np.linspace(0.0, math.log(8.0), 48)) if optimise_theta else np.array([1.0])
    Q, T = np.meshgrid(q, thetas, indexing="ij")
    P = Q / T
    V = np.where(P > 1.0, obj(P, T), np.inf)
    i, j = np.unravel_index(int(np.argmin(V)), V.shape)
    best = (float(P[i, j]), float(T[i, j]))
    best_v = float(V[i, j])

    def f(x: np.ndarray) -> float:
        # x = (ln(q - 3), ln theta)
        qq = 3.0 + math.exp(x[0])
        th = math.exp(x[1]) if optimise_theta else 1.0
        if th < 1.0 or th > _THETA_MAX or qq / th <= 1.0 or qq >= qmax:
            return math.inf
        return float(obj(np.array([qq / th]), np.array([th]))[0])

    x0 = np.array([math.log(best[0] * best[1] - 3.0), math.log(best[1])])
    res = minimize(f, x0, method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 2000})
    if math.isfinite(float(res.fun)) and float(res.fun) <= best_v:
        qq = 3.0 + math.exp(float(res.x[0]))
        th = math.exp(float(res.x[1])) if optimise_theta else 1.0
        best = (qq / th, th)
    p, theta = best
    if gamma is not None:
        return calibrate_gencauchy(eps, gamma, p, theta, m)
    return calibrate_gencauchy(eps, None, p, theta, m, split=split)


def std_limit_small_gamma(family: str, eps: float, delta: float | None = None) -> float:
    """inf over gamma > 0 (and the shape parameters) of the noise std per unit B at fixed eps.

    The std of every family decreases as gamma -> 0+, so this infimum is the gamma -> 0 limit
    (not attained; B then tends to the global sensitivity):
      Laplace (either scaling), PolyPlace (002 Thm. 8: Var -> 2/eps^2):  sqrt(2)/eps;
      Student's t (004 Lemma 3.5 or BS19):  min_nu (nu+1)/(2 sqrt(nu-2)) / eps = sqrt(3)/eps at nu = 5;
      GenCauchy (004 Lemma 3.3): min over p, theta of theta (p-1)^((p-1)/p) sqrt(Var(p,theta)) / eps,
        evaluated on the optimiser's box theta <= 1000 (1.41422/eps; the value decreases towards
        sqrt(2)/eps as p -> 1+, theta -> inf, a Laplace-like limit);
      GenCauchy NRS07: min_p (p+1) sqrt(Var(p,1)) / eps.
    """
    check_family(family)
    eps = check_positive("eps", eps)
    if family in ("laplace_gl", "laplace_nrs07", "polyplace"):
        return math.sqrt(2.0) / eps
    if family in ("student_t", "student_t_bs19"):
        return math.sqrt(3.0) / eps
    tiny = 0.0
    if family == "gencauchy_nrs07":
        p = _minimise_1d(lambda v: _std_gencauchy(1.0, tiny, v, 1.0, nrs07=True), 3.0, 1e4)
        return float(_std_gencauchy(1.0, tiny, np.array([p]), 1.0, nrs07=True)[0]) / eps
    cal = _optimise_gencauchy(1.0, 1e-12, None, 1, True)
    return cal.noise_std / eps
