"""Brute-force reference of the definitions of 004 Defs. 7 and 9 (independent of Sec. 3.3).

For f : R^d -> R with the Euclidean metric, Lambda in (0, inf] and a smooth growth function
g(x, z) = g0(||x - z||) (004 Sec. 3.1.2):

    L_{f,Lambda}(z) = sup_{0 < ||w - z|| <= Lambda} |f(w) - f(z)| / ||w - z||           (004 Def. 7)

(the sup includes the limit w -> z along each direction u, i.e. the one-sided directional
derivative |D_u f(z)|, which is ||grad f(z)|| where f is differentiable), and

    B*(x) = sup_z L_{f,Lambda}(z) / g0(||x - z||)                                        (004 Def. 9)
          = sup_{z, u, 0 <= r <= Lambda} |f(z + r u) - f(z)| / r / g0(||x - z||),

with ||u|| = 1 and r = 0 read as the directional-derivative limit.  Nothing of the candidate
sets of 004 Sec. 3.3 is used here: the sup is searched directly in the variables (z, r, u).

Method (per point x):
1. dense search: z on a grid of the search window (plus x and the optional ``extra_points``),
   r on a mixed geometric/linear grid of (0, min(Lambda, window diameter)], u = +-1 (d = 1) or
   ``n_angles`` unit vectors (d = 2); the float ratio uses r >= r_min (a forward difference at
   r_min stands in for the limit during the search);
2. local refinement of the best grid cells (and of the slice z = x) with Nelder-Mead
   (scipy.optimize, gradient-free), r clipped to [r_min, r_max];
3. the final maximiser is re-evaluated in mpmath at ``dps`` digits (default 50) when an mpmath
   version ``f_mp`` of f is given: the ratio at (z, r, u) and, when r is small, the exact
   one-sided directional derivative (mpmath.diff, direction=+1) as the r -> 0 limit; the larger
   (both are values of the sup) is returned.

The core may not import mpmath: pass the mpmath module itself as ``mp`` (derivations.engine
does this).  Every value returned is the objective at a feasible point, so it is a certified
*lower* bound of the sup; the dense grid plus refinement makes it accurate when the maximiser
lies inside the search window.

The search window is, per point, the box [min(x, extra) - radius, max(x, extra) + radius] in every
coordinate unless ``domain=(lo, hi)`` is given (the sup is over R^d: by 004 Lemma 3.7 the data
domain U never needs to be searched).  Supported dimensions: d = 1 and d = 2.
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize

from .._validation import check_finite_array, check_integer, check_points, check_positive
from ..growth import GrowthFunction

__all__ = [
    "BruteResult",
    "search_window",
    "brute_lipschitz",
    "brute_smooth_sensitivity",
]

Func = Callable[[NDArray[np.float64]], NDArray[np.float64]]


class BruteResult(NamedTuple):
    """Value of the sup and its maximiser (z, w) per point; ``w == z`` marks the limit w -> z."""

    value: NDArray[np.float64]
    z: NDArray[np.float64]
    w: NDArray[np.float64]


def check_lambda_value(Lambda: Any) -> float:
    """Lambda in (0, inf] (004 Def. 7), as a float; ValueError naming Lambda otherwise."""
    if isinstance(Lambda, (int, float, np.integer, np.floating)) and not isinstance(Lambda, bool):
        if float(Lambda) == math.inf:
            return math.inf
    return check_positive("Lambda", Lambda)


def check_growth_value(growth: Any) -> GrowthFunction:
    if not isinstance(growth, GrowthFunction):
        raise TypeError(f"growth must be a smoothsens_core.growth.GrowthFunction; got {type(growth).__name__}")
    return growth


def search_window(
    points: NDArray[np.float64],
    *,
    domain: tuple[ArrayLike, ArrayLike] | None = None,
    extra_points: ArrayLike | None = None,
    radius: float = 10.0,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per-point search box (lo, hi), each of shape (n, d).

    Default: lo = min(x, extra) - radius, hi = max(x, extra) + radius coordinatewise, where
    ``extra_points`` (shape (k, d)) are the declared special points (kinks) of f.  With
    ``domain=(lo, hi)`` (scalars or length-d arrays) the same fixed box is used for every point.
    """
    n, d = points.shape
    if domain is not None:
        if len(domain) != 2:
            raise ValueError(f"domain must be a pair (lo, hi); got {domain!r}")
        lo = np.broadcast_to(check_finite_array("domain[0]", domain[0]), (d,)).astype(float)
        hi = np.broadcast_to(check_finite_array("domain[1]", domain[1]), (d,)).astype(float)
        if np.any(hi <= lo):
            raise ValueError(f"domain must satisfy lo < hi in every coordinate; got lo={lo}, hi={hi}")
        return np.tile(lo, (n, 1)), np.tile(hi, (n, 1))
    radius = check_positive("radius", radius)
    lo = points.copy()
    hi = points.copy()
    if extra_points is not None:
        e = np.asarray(extra_points, dtype=float).reshape(-1, d)
        if e.size:
            lo = np.minimum(lo, e.min(axis=0))
            hi = np.maximum(hi, e.max(axis=0))
    return lo - radius, hi + radius


def _directions(d: int, n_angles: int) -> NDArray[np.float64]:
    if d == 1:
        return np.array([[1.0], [-1.0]])
    th = np.linspace(0.0, 2 * np.pi, n_angles, endpoint=False)
    return np.stack([np.cos(th), np.sin(th)], axis=1)


def _radii(r_max: float, r_min: float, n: int) -> NDArray[np.float64]:
    geo = np.geomspace(r_min, r_max, n // 2)
    lin = np.linspace(r_max / (n - n // 2), r_max, n - n // 2)
    return np.unique(np.concatenate([geo, lin]))


def _check_f_output(name: str, v: Any, n: int) -> NDArray[np.float64]:
    arr = np.asarray(v, dtype=float)
    if arr.shape != (n,):
        arr = np.broadcast_to(arr, (n,)) if arr.size in (1, n) else arr
        arr = np.asarray(arr, dtype=float).reshape(-1)
        if arr.shape != (n,):
            raise ValueError(f"{name} must map an (n, d) array to shape (n,); got shape {np.shape(v)}")
    return arr


class _Problem:
    """Objective Q(z, r, u) = |f(z + r u) - f(z)| / max(r, r_min) / g0(||z - x||)."""

    def __init__(self, f: Func, x: NDArray[np.float64], growth: GrowthFunction | None, r_max: float, r_min: float):
        self.f = f
        self.x = x
        self.d = x.shape[0]
        self.growth = growth
        self.r_max = r_max
        self.r_min = r_min

    def inv_g(self, z: NDArray[np.float64]) -> NDArray[np.float64]:
        """1/g0(||z - x||): e^(-gamma r) for g_E, 1/(1 + gamma r) for g_L (004 Sec. 3.1.2)."""
        if self.growth is None:
            return np.ones(z.shape[0])
        dist = np.sqrt(np.sum((z - self.x) ** 2, axis=1))
        if self.growth.kind == "exp":
            return np.exp(-self.growth.gamma * dist)
        return 1.0 / (1.0 + self.growth.gamma * dist)

    def q(self, z: NDArray[np.float64], r: NDArray[np.float64], u: NDArray[np.float64], check: bool = False) -> NDArray[np.float64]:
        n = z.shape[0]
        r = np.clip(r, self.r_min, self.r_max)
        fz = self.f(z)
        fw = self.f(z + r[:, None] * u)
        if check:
            fz = _check_f_output("f", fz, n)
            fw = _check_f_output("f", fw, n)
            if not (np.all(np.isfinite(fz)) and np.all(np.isfinite(fw))):
                raise ValueError("f must be finite on the search window; got a non-finite value of f")
        return np.abs(fw - fz) / r * self.inv_g(z)


def _unpack(p: NDArray[np.float64], d: int, z_fixed: NDArray[np.float64] | None, u_fixed: NDArray[np.float64] | None):
    i = 0
    if z_fixed is None:
        z = p[:d]
        i = d
    else:
        z = z_fixed
    r = p[i]
    i += 1
    if u_fixed is None:
        th = p[i]
        u = np.array([math.cos(th), math.sin(th)])
    else:
        u = u_fixed
    return z, r, u


def _refine(prob: _Problem, z0, r0, u0, fix_z: bool) -> tuple[float, NDArray[np.float64], float, NDArray[np.float64]]:
    d = prob.d
    z_fixed = prob.x.copy() if fix_z else None
    u_fixed = u0 if d == 1 else None
    p0 = []
    if not fix_z:
        p0.extend(z0)
    p0.append(r0)
    if d == 2:
        p0.append(math.atan2(u0[1], u0[0]))
    p0 = np.array(p0, dtype=float)

    def obj(p: NDArray[np.float64]) -> float:
        z, r, u = _unpack(p, d, z_fixed, u_fixed)
        return -float(prob.q(z[None, :], np.array([r]), u[None, :])[0])

    scale = np.maximum(np.abs(p0), 1.0)
    simplex = [p0]
    for k in range(p0.size):
        step = np.zeros_like(p0)
        step[k] = 0.05 * scale[k]
        simplex.append(p0 + step)
    res = minimize(obj, p0, method="Nelder-Mead",
                   options={"xatol": 1e-13, "fatol": 1e-16, "maxfev": 1500,
                            "initial_simplex": np.array(simplex)})
    best_p, best_v = (res.x, res.fun) if res.fun < obj(p0) else (p0, obj(p0))
    for _ in range(1):  # restart: Nelder-Mead can stall on a corner of a non-smooth objective
        res = minimize(obj, best_p, method="Nelder-Mead",
                       options={"xatol": 1e-13, "fatol": 1e-16, "maxfev": 1500})
        if not res.fun < best_v:
            break
        best_p, best_v = res.x, res.fun
    z, r, u = _unpack(best_p, d, z_fixed, u_fixed)
    return -best_v, np.array(z, dtype=float), float(np.clip(r, prob.r_min, prob.r_max)), np.array(u, dtype=float)


def _mp_value(prob: _Problem, f_mp: Callable[..., Any], mp: Any, dps: int, z, r, u) -> float:
    """Re-evaluate the objective at the maximiser in mpmath: ratio at r and, for small r, the limit."""
    d = prob.d
    with mp.workdps(dps):
        zm = [mp.mpf(float(c)) for c in z]
        um = [mp.mpf(float(c)) for c in u]
        if d == 2:  # keep u a unit vector at full precision
            nrm = mp.sqrt(um[0] ** 2 + um[1] ** 2)
            um = [c / nrm for c in um]
        if prob.growth is None:
            inv_g = mp.mpf(1)
        else:
            dist = mp.sqrt(sum((zm[i] - mp.mpf(float(prob.x[i]))) ** 2 for i in range(d)))
            gam = mp.mpf(prob.growth.gamma)
            inv_g = mp.exp(-gam * dist) if prob.growth.kind == "exp" else 1 / (1 + gam * dist)
        fz = f_mp(*zm)
        rm = mp.mpf(float(r))
        ratio = abs(f_mp(*[zm[i] + rm * um[i] for i in range(d)]) - fz) / rm * inv_g
        best = ratio
        if r < 1e-3 * max(1.0, float(np.max(np.abs(z)))):
            lim = abs(mp.diff(lambda t: f_mp(*[zm[i] + t * um[i] for i in range(d)]), 0, direction=1)) * inv_g
            best = max(best, lim)
        return float(best)


def _solve_point(
    f: Func,
    x: NDArray[np.float64],
    lo: NDArray[np.float64],
    hi: NDArray[np.float64],
    growth: GrowthFunction | None,
    Lam: float,
    extra: NDArray[np.float64] | None,
    n_grid: int,
    n_radii: int,
    n_angles: int,
    n_refine: int,
    f_mp: Callable[..., Any] | None,
    mp: Any,
    dps: int,
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    d = x.shape[0]
    diam = float(np.sqrt(np.sum((hi - lo) ** 2)))
    r_max = min(Lam, diam)
    r_min = 1e-7 * max(1.0, float(np.max(np.abs(x))), r_max * 1e-3)
    r_min = min(r_min, r_max * 1e-3)
    prob = _Problem(f, x, growth, r_max, r_min)
    U = _directions(d, n_angles)
    R = _radii(r_max, r_min, n_radii)
    if growth is None:
        Z = x[None, :]
    else:
        axes = [np.linspace(lo[i], hi[i], n_grid) for i in range(d)]
        if extra is not None and extra.size:
            axes = [np.unique(np.concatenate([axes[i], extra[:, i], [x[i]]])) for i in range(d)]
        else:
            axes = [np.unique(np.concatenate([axes[i], [x[i]]])) for i in range(d)]
        Z = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, d)
    nz, nr, nu = Z.shape[0], R.size, U.shape[0]
    # q on the grid (z, r, u), processed in slices of z to bound memory
    best_val = np.empty(nz)
    best_ru = np.empty((nz, 2), dtype=np.int64)
    step = max(1, 400_000 // (nr * nu))
    for s in range(0, nz, step):
        zs = Z[s : s + step]
        m = zs.shape[0]
        zz = np.repeat(zs, nr * nu, axis=0)
        rr = np.tile(np.repeat(R, nu), m)
        uu = np.tile(U, (m * nr, 1))
        q = prob.q(zz, rr, uu, check=True).reshape(m, nr * nu)
        k = np.argmax(q, axis=1)
        best_val[s : s + m] = q[np.arange(m), k]
        best_ru[s : s + m, 0] = k // nu
        best_ru[s : s + m, 1] = k % nu
    order = np.argsort(-best_val)
    starts: list[tuple[NDArray[np.float64], float, NDArray[np.float64], bool]] = []
    chosen: list[NDArray[np.float64]] = []
    spacing = 2.0 * (hi - lo) / max(n_grid - 1, 1)
    for idx in order:
        if len(chosen) >= n_refine:
            break
        z0 = Z[idx]
        if any(np.all(np.abs(z0 - c) <= spacing) for c in chosen):
            continue
        chosen.append(z0)
        starts.append((z0, float(R[best_ru[idx, 0]]), U[best_ru[idx, 1]], False))
    # the slice z = x (a corner of the objective in z): refined with z held at x
    ix = int(np.argmin(np.sum((Z - x) ** 2, axis=1)))
    starts.append((x, float(R[best_ru[ix, 0]]), U[best_ru[ix, 1]], True))
    best = (-math.inf, x, r_min, U[0])
    for z0, r0, u0, fix_z in starts:
        fix = fix_z or growth is None
        v, z, r, u = _refine(prob, z0, r0, u0, fix)
        v0 = float(prob.q(z0[None, :], np.array([r0]), u0[None, :])[0])
        if v0 > v:
            v, z, r, u = v0, z0, r0, u0
        if v > best[0]:
            best = (v, z, r, u)
    v, z, r, u = best
    w = z + r * u
    if f_mp is not None:
        if mp is None:
            raise ValueError("mp must be the mpmath module when f_mp is given")
        v = _mp_value(prob, f_mp, mp, dps, z, r, u)
    return v, z, w


def _run(
    f: Func,
    points: ArrayLike,
    growth: GrowthFunction | None,
    Lambda: float,
    d: int | None,
    domain,
    extra_points,
    radius,
    n_grid,
    n_radii,
    n_angles,
    n_refine,
    f_mp,
    mp,
    dps,
) -> BruteResult:
    Lam = check_lambda_value(Lambda)
    pts = check_points("points", points, d=d)
    n, dd = pts.shape
    if dd not in (1, 2):
        raise ValueError(f"the brute-force reference supports d in {{1, 2}}; got d={dd}")
    n_grid = check_integer("n_grid", n_grid, minimum=3)
    n_radii = check_integer("n_radii", n_radii, minimum=4)
    n_angles = check_integer("n_angles", n_angles, minimum=4)
    n_refine = check_integer("n_refine", n_refine, minimum=1)
    extra = None if extra_points is None else np.asarray(extra_points, dtype=float).reshape(-1, dd)
    lo, hi = search_window(pts, domain=domain, extra_points=extra, radius=radius)
    vals = np.empty(n)
    zs = np.empty((n, dd))
    ws = np.empty((n, dd))
    for i in range(n):  # a reference, not a hot path: one dense search per point
        vals[i], zs[i], ws[i] = _solve_point(
            f, pts[i], lo[i], hi[i], growth, Lam, extra, n_grid, n_radii, n_angles, n_refine, f_mp, mp, dps
        )
    return BruteResult(vals, zs, ws)


def brute_lipschitz(
    f: Func,
    points: ArrayLike,
    Lambda: float = math.inf,
    *,
    d: int | None = None,
    domain: tuple[ArrayLike, ArrayLike] | None = None,
    extra_points: ArrayLike | None = None,
    radius: float = 10.0,
    n_radii: int = 400,
    n_angles: int = 64,
    n_refine: int = 1,
    f_mp: Callable[..., Any] | None = None,
    mp: Any = None,
    dps: int = 50,
) -> BruteResult:
    """L_{f,Lambda}(x) = sup_{0 < ||w - x|| <= Lambda} |f(w) - f(x)| / ||w - x|| (004 Def. 7), by search.

    ``f`` maps an (n, d) array of points to shape (n,); ``f_mp(*coords)`` is its mpmath version
    (with ``mp`` the mpmath module) used to re-evaluate the maximiser at ``dps`` digits.
    """
    return _run(f, points, None, Lambda, d, domain, extra_points, radius, 3, n_radii, n_angles, n_refine, f_mp, mp, dps)


def brute_smooth_sensitivity(
    f: Func,
    points: ArrayLike,
    growth: GrowthFunction,
    Lambda: float = math.inf,
    *,
    d: int | None = None,
    domain: tuple[ArrayLike, ArrayLike] | None = None,
    extra_points: ArrayLike | None = None,
    radius: float = 10.0,
    n_grid: int | None = None,
    n_radii: int | None = None,
    n_angles: int = 24,
    n_refine: int = 2,
    f_mp: Callable[..., Any] | None = None,
    mp: Any = None,
    dps: int = 50,
) -> BruteResult:
    """B*(x) = sup_z L_{f,Lambda}(z) / g0(||x - z||) (004 Def. 9), by direct search in (z, r, u).

    See the module docstring for the method; the value is the objective at the returned
    maximiser (z, w) (re-evaluated in mpmath when ``f_mp`` is given).
    """
    g = check_growth_value(growth)
    pts_d = check_points("points", points, d=d).shape[1]
    if n_grid is None:
        n_grid = 401 if pts_d == 1 else 31
    if n_radii is None:
        n_radii = 120 if pts_d == 1 else 30
    return _run(f, points, g, Lambda, d, domain, extra_points, radius, n_grid, n_radii, n_angles, n_refine, f_mp, mp, dps)
