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
2. local polish of the best grid cells (and of the slice z = x) by derivative-free grid zooms
   (``_zoom``: the n^m nodes of a box around the best point, the box shrunk to 1.5 node spacings
   per level down to ~1e-13 relative), so that maximisers on a corner of the objective (an edge
   of f, the limit w -> z at an edge) are located as precisely as smooth ones:
   d = 1: nested, the sup over (r, u) taken for each z on a dense grid in ln r plus a zoom, and
   the profile z -> sup_{r,u} zoomed (two maxima in r that differ by ~1e-6, as for the Gaussian
   kernel near radius h, are told apart);
   d = 2: a joint zoom in (z, ln r, theta), from the maximiser and from the same chord seen from
   its other end (z' = w, u' = -u), then a nested zoom in polar coordinates about x (outer: the
   distance rho = ||z - x||, inner: the angle of z and (ln r, theta)), which resolves maximisers
   on a curved edge of f (see ``_polish_radial_2d``), and, for a chord from x, a nested zoom over
   its direction first and ln r second (``_polish_direction_2d``: w on a curved edge of f that is
   not nearest to x);
   the searches maximise Q minus an estimate of its rounding error (``_Problem.q``), so that a
   flat or r -> 0 maximum does not select the shortest chord with the largest rounding error;
3. the final maximiser is re-evaluated in mpmath at ``dps`` digits (default 50) when an mpmath
   version ``f_mp`` of f is given: the ratio at (z, r, u) and, when r is small, the exact
   one-sided directional derivative (mpmath.diff, direction=+1) as the r -> 0 limit; the larger
   (both are values of the sup) is returned.  Without ``f_mp`` the float ratio is returned with
   its rounding allowance subtracted; a maximum attained only as r -> 0 is then accurate to
   ~sqrt(eps) relative, so pass ``f_mp`` for a 1e-9 reference.

The core may not import mpmath: pass the mpmath module itself as ``mp`` (derivations.engine
does this).  Every value returned is the objective at a feasible point (in mpmath, or in float
minus its rounding allowance), so it is a *lower* bound of the sup; the dense grid plus polish
makes it accurate (1e-9 relative and better with ``f_mp``) when the maximiser lies inside the
search window.

The search window is, per point, the box [min(x, extra) - radius, max(x, extra) + radius] in every
coordinate unless ``domain=(lo, hi)`` is given (the sup is over R^d: by 004 Lemma 3.7 the data
domain U never needs to be searched).  Supported dimensions: d = 1 and d = 2.
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_finite_array, check_integer, check_points, check_positive
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


_EPS8 = 8.0 * np.finfo(float).eps


class _Problem:
    """Objective Q(z, r, u) = |f(z + r u) - f(z)| / max(r, r_min) / g0(||z - x||)."""

    def __init__(self, f: Func, x: NDArray[np.float64], growth: GrowthFunction | None, r_max: float, r_min: float):
        self.f = f
        self.x = x
        self.d = x.shape[0]
        self.growth = growth
        self.r_max = r_max
        self.r_min = r_min
        self.f_scale = 0.0

    def inv_g(self, z: NDArray[np.float64]) -> NDArray[np.float64]:
        """1/g0(||z - x||): e^(-gamma r) for g_E, 1/(1 + gamma r) for g_L (004 Sec. 3.1.2)."""
        if self.growth is None:
            return np.ones(z.shape[0])
        dist = np.sqrt(np.sum((z - self.x) ** 2, axis=1))
        if self.growth.kind == "exp":
            return np.exp(-self.growth.gamma * dist)
        return 1.0 / (1.0 + self.growth.gamma * dist)

    def q(self, z: NDArray[np.float64], r: NDArray[np.float64], u: NDArray[np.float64], check: bool = False,
          search: bool = False) -> NDArray[np.float64]:
        """Q(z, r, u); with ``search`` the difference |f(w) - f(z)| is lowered by 8 eps max(|f(w)|, |f(z)|,
        f_scale) (f_scale = max |f| on the search grid), an estimate of its rounding error (f may be
        computed from terms much larger than its value, e.g. clip((R - D)/tau, 0, 1) near 0).  The searches maximise that: otherwise, where Q is flat in r
        (a chord inside a linear piece of f) or maximal as r -> 0, they would pick the shortest chord
        with the largest upward rounding error (~eps |f| / r_min ~ 1e-9 relative)."""
        n = z.shape[0]
        r = np.clip(r, self.r_min, self.r_max)
        fz = self.f(z)
        fw = self.f(z + r[:, None] * u)
        if check:
            fz = _check_f_output("f", fz, n)
            fw = _check_f_output("f", fw, n)
            if not (np.all(np.isfinite(fz)) and np.all(np.isfinite(fw))):
                raise ValueError("f must be finite on the search window; got a non-finite value of f")
        diff = np.abs(fw - fz)
        if search:
            diff = np.maximum(diff - _EPS8 * np.maximum(np.maximum(np.abs(fw), np.abs(fz)), self.f_scale), 0.0)
        return diff / r * self.inv_g(z)


def _grid_offsets(m: int, n: int) -> NDArray[np.float64]:
    """The n^m nodes of the cube [-1, 1]^m (n odd, so the centre is a node)."""
    t = np.linspace(-1.0, 1.0, n)
    return np.stack(np.meshgrid(*([t] * m), indexing="ij"), axis=-1).reshape(-1, m)


def _zoom(
    obj: Callable[[NDArray[np.float64]], NDArray[np.float64]],
    centers: NDArray[np.float64],
    values: NDArray[np.float64],
    hw: NDArray[np.float64],
    lo: NDArray[np.float64],
    hi: NDArray[np.float64],
    *,
    n: int,
    tol: NDArray[np.float64],
    max_levels: int = 200,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Grid zoom: maximise ``obj`` around each of K centres (shape (K, m)) at once.

    Each level evaluates the n^m nodes of the box centre +- hw (clipped to [lo, hi]), moves the
    centre to the best node if it beats the centre's value, and shrinks the box to 1.5 node spacings
    on each side (factor 3/(n - 1), at most 3/4), so a maximiser next to the best node stays inside.  No
    derivative is used, so a maximiser on a kink of the objective (a corner of f, the w -> z limit at
    an edge) is located to the final width ``tol`` as well as a smooth one; values never decrease.
    """
    K, m = centers.shape
    off = _grid_offsets(m, n)
    shrink = min(0.75, 3.0 / (n - 1))
    c = centers.copy()
    v = values.copy()
    h = np.broadcast_to(np.asarray(hw, dtype=float), (K, m)).copy()
    tol = np.broadcast_to(np.asarray(tol, dtype=float), (K, m))
    for _ in range(max_levels):
        todo = np.any(h > tol, axis=1)
        if not np.any(todo):
            break
        idx = np.nonzero(todo)[0]
        P = c[idx, None, :] + off[None, :, :] * h[idx, None, :]
        P = np.clip(P, lo, hi)
        q = obj(P.reshape(-1, m)).reshape(idx.size, -1)
        q = np.where(np.isfinite(q), q, -np.inf)
        k = np.argmax(q, axis=1)
        qb = q[np.arange(idx.size), k]
        better = qb > v[idx]
        c[idx[better]] = P[better, k[better]]
        v[idx[better]] = qb[better]
        h[idx] *= shrink
    return c, v


def _polish(prob: _Problem, z0, r0: float, u0, fix_z: bool, z_hw: NDArray[np.float64], theta_hw: float):
    """Local polish of a maximiser (z, r, u) of Q to ~1e-13 (relative) in every coordinate.

    d = 1 (nested, so that the two competing maxima in r of a near-tangent chord, e.g. the KDE at
    radius ~ h, are told apart): the inner sup over r in [r_min, r_max] and u = +-1 of Q(z, r, u)
    is taken for each z by a dense log/linear grid in r followed by a grid zoom in ln r (all z and
    u at once); the outer maximisation over z is a grid zoom of that profile.
    d = 2: a joint grid zoom in (z, ln r, theta) (or (ln r, theta) with z held at x).
    """
    d = prob.d
    lr_lo, lr_hi = math.log(prob.r_min), math.log(prob.r_max)
    lr_tol = 1e-13
    if d == 1:
        R0 = np.log(_radii(prob.r_max, prob.r_min, 120))
        signs = np.array([1.0, -1.0])

        def profile(Z: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
            k = Z.shape[0]
            zz = np.repeat(Z, 2 * R0.size)
            uu = np.tile(np.repeat(signs, R0.size), k)
            rr = np.exp(np.tile(R0, 2 * k))
            q = prob.q(zz[:, None], rr, uu[:, None], search=True).reshape(2 * k, R0.size)
            q = np.where(np.isfinite(q), q, -np.inf)
            j = np.argmax(q, axis=1)
            zc = np.repeat(Z, 2)
            uc = np.tile(signs, k)

            def obj_r(P: NDArray[np.float64]) -> NDArray[np.float64]:
                per = P.shape[0] // (2 * k)
                return prob.q(np.repeat(zc, per)[:, None], np.exp(P[:, 0]), np.repeat(uc, per)[:, None], search=True)

            c, v = _zoom(obj_r, R0[j][:, None], q[np.arange(2 * k), j], np.full((2 * k, 1), 1.5 * np.max(np.diff(R0))),
                         np.array([lr_lo]), np.array([lr_hi]), n=17, tol=np.array([lr_tol]))
            v = v.reshape(k, 2)
            s = np.argmax(v, axis=1)
            return v[np.arange(k), s], np.exp(c[:, 0].reshape(k, 2)[np.arange(k), s]), signs[s]

        if fix_z:
            v, r, u = profile(prob.x.copy())
            return float(v[0]), prob.x.copy(), float(r[0]), np.array([u[0]])

        def obj_z(P: NDArray[np.float64]) -> NDArray[np.float64]:
            return profile(P[:, 0])[0]

        v0 = profile(np.array([z0[0]]))[0]
        c, v = _zoom(obj_z, np.array([[z0[0]]]), v0, np.array([[float(z_hw[0])]]),
                     np.array([-np.inf]), np.array([np.inf]), n=17, tol=np.array([1e-13 * max(1.0, abs(z0[0]))]))
        v, r, u = profile(c[:, 0])
        return float(v[0]), c[0].copy(), float(r[0]), np.array([u[0]])
    # d = 2: joint zoom
    th0 = math.atan2(u0[1], u0[0])
    p0_row = ([] if fix_z else list(z0)) + [math.log(min(max(r0, prob.r_min), prob.r_max)), th0]
    p0 = np.array([p0_row], dtype=float)
    zscale = max(1.0, float(np.max(np.abs(z0))))
    hw = np.array(([] if fix_z else list(z_hw)) + [1.5, theta_hw], dtype=float)
    tol = np.array(([] if fix_z else [1e-13 * zscale] * 2) + [lr_tol, 1e-13])
    lo = np.array(([] if fix_z else [-np.inf] * 2) + [lr_lo, -np.inf])
    hi = np.array(([] if fix_z else [np.inf] * 2) + [lr_hi, np.inf])

    def unpack(P: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        z = np.broadcast_to(prob.x, (P.shape[0], 2)) if fix_z else P[:, :2]
        u = np.stack([np.cos(P[:, -1]), np.sin(P[:, -1])], axis=1)
        return z, np.exp(P[:, -2]), u

    def obj(P: NDArray[np.float64]) -> NDArray[np.float64]:
        return prob.q(*unpack(P), search=True)

    c, v = _zoom(obj, p0, obj(p0), hw, lo, hi, n=7, tol=tol)
    z, r, u = unpack(c)
    return float(v[0]), np.array(z[0], dtype=float), float(r[0]), np.array(u[0], dtype=float)


class _RadialState(TypedDict):
    """The best point found so far by ``_polish_radial_2d``: inner coordinates, value, outer coordinate."""

    inner: NDArray[np.float64]
    value: float
    outer: float


def _polish_radial_2d(prob: _Problem, z0, r0: float, u0, fix_z: bool, rho_hw: float):
    """Nested polish for d = 2 in polar coordinates about the point x: an outer grid zoom over the
    distance rho = ||z - x|| (with z = x fixed: over ln r, the length of the chord from x) and, for
    each value, an inner grid zoom over the remaining coordinates (phi, ln r, theta) (resp. theta).

    This is the structure of every threshold-type maximiser: z on an edge of f nearest to x (or w on
    an edge nearest to z = x).  There the maximiser is a corner of Q on a curved edge, along which Q
    varies only to second order; a joint search in (z, r, u) is steered by the distance to the edge
    and stalls ~1e-8 short.  At fixed rho the growth factor 1/g0(rho) is constant, so the inner
    search only has to find the arc of the circle that meets the region where the chord is
    steepest, and the outer function rho -> sup / g0(rho) has its corner in one variable, where a
    derivative-free zoom locates it to the final width.  The inner box shrinks like
    sqrt(outer box) (an arc of a circle of radius rho + eps meeting a curved edge has angular width
    ~ sqrt(eps))."""
    lr_lo, lr_hi = math.log(prob.r_min), math.log(prob.r_max)
    x = prob.x
    th0 = math.atan2(u0[1], u0[0])
    lr0 = math.log(min(max(r0, prob.r_min), prob.r_max))
    if fix_z:
        outer0, olo, ohi, otol = lr0, lr_lo, lr_hi, 1e-13
        inner0 = np.array([th0])
        cap = np.array([np.pi])
        ilo, ihi, itol = np.array([-np.inf]), np.array([np.inf]), np.array([1e-11])
        ohw = 1.5
        scale_in = 1.0
    else:
        dz = np.asarray(z0, dtype=float) - x
        rho0 = float(np.hypot(dz[0], dz[1]))
        outer0, olo, ohi = rho0, 0.0, np.inf
        otol = 1e-13 * max(1.0, float(np.max(np.abs(x))), rho0)
        inner0 = np.array([math.atan2(dz[1], dz[0]) if rho0 > 0 else th0, lr0, th0])
        cap = np.array([np.pi, 1.5, np.pi])
        ilo = np.array([-np.inf, lr_lo, -np.inf])
        ihi = np.array([np.inf, lr_hi, np.inf])
        itol = np.array([1e-11, 1e-12, 1e-11])
        ohw = max(rho_hw, 1e-9)
        scale_in = max(rho0, 1e-300)

    def evaluate(S: NDArray[np.float64], P: NDArray[np.float64]) -> NDArray[np.float64]:
        if fix_z:
            z = np.broadcast_to(x, (S.size, 2))
            r = np.exp(S)
            th = P[:, 0]
        else:
            z = x + S[:, None] * np.stack([np.cos(P[:, 0]), np.sin(P[:, 0])], axis=1)
            r = np.exp(P[:, 1])
            th = P[:, 2]
        return prob.q(z, r, np.stack([np.cos(th), np.sin(th)], axis=1), search=True)

    state: _RadialState = {"inner": inner0, "value": float(evaluate(np.array([outer0]), inner0[None, :])[0]), "outer": outer0}

    def outer_obj(S_nodes: NDArray[np.float64]) -> NDArray[np.float64]:
        S = S_nodes[:, 0]
        K = S.size
        spread = 0.5 * float(np.max(S) - np.min(S)) if K > 1 else ohw
        hw_in = np.minimum(cap, 3.0 * np.sqrt(spread / scale_in) + 1e-12)
        centers = np.tile(state["inner"], (K, 1))
        v0 = evaluate(S, centers)

        def inner_obj(P: NDArray[np.float64]) -> NDArray[np.float64]:
            return evaluate(np.repeat(S, P.shape[0] // K), P)

        c, v = _zoom(inner_obj, centers, v0, hw_in, ilo, ihi, n=7, tol=itol)
        j = int(np.argmax(v))
        if v[j] > state["value"]:
            state.update({"inner": c[j].copy(), "value": float(v[j]), "outer": float(S[j])})
        return v

    _zoom(outer_obj, np.array([[outer0]]), np.array([state["value"]]), np.array([[ohw]]),
          np.array([olo]), np.array([ohi]), n=17, tol=np.array([otol]))
    S = np.array([state["outer"]])
    P = state["inner"]
    if fix_z:
        z, r, th = x.copy(), math.exp(S[0]), P[0]
    else:
        z, r, th = x + S[0] * np.array([math.cos(P[0]), math.sin(P[0])]), math.exp(P[1]), P[2]
    return state["value"], np.array(z, dtype=float), float(r), np.array([math.cos(th), math.sin(th)])


def _polish_direction_2d(prob: _Problem, r0: float, u0, theta_hw: float):
    """Nested polish for d = 2 with z = x, nested the other way round from ``_polish_radial_2d``:
    an outer grid zoom over the direction theta of the chord and, for each direction, an inner zoom
    over ln r.  This is the structure of a chord from x to a *curved* edge of f that is not nearest
    to x (e.g. f = max(sin a, b/2)): along each ray the sup over r is a corner at the crossing with
    the edge, located by the inner zoom to the final width, and the profile theta -> sup_r is smooth
    near its maximum, so the outer zoom settles on the maximum along the edge (a joint search, or
    the nesting over r first, stalls ~1e-8 short there)."""
    lr_lo, lr_hi = math.log(prob.r_min), math.log(prob.r_max)
    x = prob.x
    th0 = math.atan2(u0[1], u0[0])
    lr0 = math.log(min(max(r0, prob.r_min), prob.r_max))

    def evaluate(T: NDArray[np.float64], LR: NDArray[np.float64]) -> NDArray[np.float64]:
        z = np.broadcast_to(x, (T.size, 2))
        return prob.q(z, np.exp(LR), np.stack([np.cos(T), np.sin(T)], axis=1), search=True)

    state = {"lr": lr0, "value": float(evaluate(np.array([th0]), np.array([lr0]))[0]), "th": th0}

    def outer_obj(T_nodes: NDArray[np.float64]) -> NDArray[np.float64]:
        T = T_nodes[:, 0]
        K = T.size
        centers = np.full((K, 1), state["lr"])
        v0 = evaluate(T, centers[:, 0])

        def inner_obj(P: NDArray[np.float64]) -> NDArray[np.float64]:
            return evaluate(np.repeat(T, P.shape[0] // K), P[:, 0])

        c, v = _zoom(inner_obj, centers, v0, np.array([[0.5]]), np.array([lr_lo]), np.array([lr_hi]),
                     n=9, tol=np.array([1e-13]))
        j = int(np.argmax(v))
        if v[j] > state["value"]:
            state.update(lr=float(c[j, 0]), value=float(v[j]), th=float(T[j]))
        return v

    _zoom(outer_obj, np.array([[th0]]), np.array([state["value"]]), np.array([[theta_hw]]),
          np.array([-np.inf]), np.array([np.inf]), n=9, tol=np.array([1e-11]))
    th = state["th"]
    return state["value"], x.copy(), math.exp(state["lr"]), np.array([math.cos(th), math.sin(th)])


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
    fs = prob.f(Z[: min(nz, 4096)])
    prob.f_scale = float(np.max(np.abs(_check_f_output("f", fs, min(nz, 4096))), initial=0.0))
    if not math.isfinite(prob.f_scale):
        raise ValueError("f must be finite on the search window; got a non-finite value of f")
    for s in range(0, nz, step):
        zs = Z[s : s + step]
        m = zs.shape[0]
        zz = np.repeat(zs, nr * nu, axis=0)
        rr = np.tile(np.repeat(R, nu), m)
        uu = np.tile(U, (m * nr, 1))
        q = prob.q(zz, rr, uu, check=True, search=True).reshape(m, nr * nu)
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
    z_hw = np.maximum(0.5 * spacing, 1e-9 * np.maximum(1.0, np.abs(x)))
    theta_hw = 2 * np.pi / n_angles
    for z0, r0, u0, fix_z in starts:
        fix = fix_z or growth is None
        v, z, r, u = float(prob.q(z0[None, :], np.array([r0]), u0[None, :], search=True)[0]), z0, r0, u0
        # polish the grid maximiser (a local optimiser such as Nelder-Mead stalls on a corner of Q
        # ~1e-7 short), and the same chord seen from its other end (z' = w, u' = -u): when the
        # maximiser is the limit w -> z at an edge of f, the grid may have put z on the wrong side
        # of the edge, a local maximum r_min away from the true one
        hw = np.maximum(z_hw, np.abs(z - z0))
        # (d = 1 needs no swap: the profile over z takes both directions u at every z)
        tries = [(z, r, u)] if fix or d == 1 else [(z, r, u), (z + r * u, r, -u)]
        for zt, rt, ut in tries:
            vp, zp, rp, up = _polish(prob, zt, rt, ut, fix, hw, theta_hw)
            if vp > v:
                v, z, r, u = vp, zp, rp, up
        if v > best[0]:
            best = (v, z, r, u)
    if d == 2:  # final nested polish of the best maximiser (the joint polish settled the orientation)
        v, z, r, u = best
        at_x = growth is None or bool(np.all(z == x))
        vp, zp, rp, up = _polish_radial_2d(prob, z, r, u, at_x, float(np.max(z_hw)))
        if vp > best[0]:
            best = (vp, zp, rp, up)
        v, z, r, u = best
        if at_x or float(np.max(np.abs(z - x))) <= 1e-6 * (1.0 + float(np.max(np.abs(x)))):
            # a chord from (next to) x: polish the slice z = x nested over the direction first
            vp, zp, rp, up = _polish_direction_2d(prob, r, u, theta_hw)
            if vp > best[0]:
                best = (vp, zp, rp, up)
    v, z, r, u = best
    w = z + r * u
    # the float value is reported with its rounding allowance subtracted (a lower bound up to the
    # rounding of f itself); with f_mp it is replaced by the exact ratio / limit at (z, r, u)
    v = float(prob.q(z[None, :], np.array([r]), u[None, :], search=True)[0])
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
