"""Generic engine for a piecewise f on R^2: the procedure of 004 Sec. 3.3, stratified by the kinks.

Problem (004 Defs. 7, 9).  As in :mod:`.generic`: B*(x) = sup Phi(z, w) over w != z with
||w - z|| <= Lambda, Phi(z, w) = |f(w) - f(z)| / ||w - z|| / g0(||z - x||), the limit w -> z read as
the largest one-sided directional derivative sup_u |D_u f(z)|; L_{f,Lambda}(x) is the sup with z = x.

Here f is continuous and piecewise smooth on R^2: its points of non-differentiability lie on kink
curves c_k(p) = 0 (the switching functions of its Piecewise conditions; derivations.engine finds
them, drops those across which f is C^2, and computes their pairwise intersections, the corners).
004 Sec. 3.3 writes S0 = {w : f'(w) undefined} for a point set; in d = 2 it is the union of these
curves and the procedure has to be stratified (the printed sets use z and w free or w in S0 only).
A maximiser (z, w) of Phi lies in one stratum: z is x, a corner, on one curve, or free (in an open
piece); w is free, on one curve, a corner, on the Lambda-sphere around z, on the sphere and a curve,
a corner at distance Lambda, or the limit w -> z.  On each stratum Phi is smooth and the maximiser
is a constrained stationary point (Lagrange): with psi-scaled gradients (positive factors
|f(w) - f(z)| ||w - z||^2 dropped as in :mod:`.generic`, divided by rho^3 = ||w - z||^3)

    G_z = (-grad f(z) rho^2 + (f(w) - f(z)) D - (f(w) - f(z)) rho^2 lambda e) / rho^3
    G_w = (grad f(w) rho^2 - (f(w) - f(z)) D) / rho^3,        D = w - z, e = (z - x)/||z - x||,

the equations are  G_z = mu_z grad c_k(z) + mu_s dS/dz,  G_w = mu_w grad c_l(w) + mu_s dS/dw,
c_k(z) = 0, c_l(w) = 0, S = (rho^2 - Lambda^2)/(2 Lambda) = 0, each multiplier present only when
its constraint is active.  On a curve grad f(z) is the gradient of the branch on the side c_k > 0
(extended smoothly across the curve): its component normal to the curve is absorbed by mu, and
its tangential component equals the other side's because f is continuous.  The limit strata:
z free (004 S3): H(z) grad f(z) - ||grad f(z)||^2 lambda e = 0; z on curve k, for each side s:
H_s grad f_s - ||grad f_s||^2 lambda e = mu grad c_k, value ||grad f_s(z)|| / g0 (both sides'
limits are attained from that side); z a corner or z = x: the corner value sup_u |D_u f| computed
by derivations.engine from the sector branches (``PiecewiseSpec.limit_slope``).

Numerics.  Every stratum with unknowns is solved by damped Gauss-Newton (as in :mod:`.generic`),
all curve and corner combinations of one stratum type in one vectorised run (per-row curve and
corner indices).  Starts: the window grid and near-x offsets for z, geometric offsets for w,
projected onto the curve(s) of the stratum; Phi is evaluated at every start (these samples feed the
completeness guards) and Newton runs from the ``keep`` starts of largest Phi per point and index
combination.  Every candidate is a feasible (z, w) whose Phi is evaluated with the true f, so it is
a lower bound of the sup; a start sample above the best candidate (relative 1e-9) or a best value
on the window edge raises :class:`~.generic.RootCertificationError` instead of returning a value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numpy.typing import NDArray

from ..growth import GrowthFunction
from .brute import check_lambda_value
from .generic import _F_ROUND, GenericResult, _inv_g, check_complete, engine_entry, gauss_newton_step, keep_best

__all__ = ["KinkCurve", "PiecewiseSpec", "piecewise_lipschitz", "piecewise_smooth_sensitivity"]

Func = Callable[[NDArray[np.float64]], NDArray[np.float64]]


@dataclass(frozen=True)
class KinkCurve:
    """A kink curve {p : c(p) = 0} of f on R^2 with the smooth branches on its two sides.

    ``c(P)`` (n,), ``dc(P)`` (n, 2): the switching function and its gradient; ``grad_side[s](P)``
    (n, 2) and ``hess_side[s](P)`` (n, 2, 2), s = 0 for the side c < 0 and s = 1 for c > 0: the
    gradient and Hessian of the branch f takes on that side (its Piecewise conditions on this curve
    replaced by their truth values there), valid on the curve and smooth across it."""

    label: str
    c: Func
    dc: Func
    grad_side: tuple[Func, Func]
    hess_side: tuple[Func, Func]


@dataclass(frozen=True)
class PiecewiseSpec:
    """Numeric specification of a piecewise f on R^2 (built by derivations.engine from SymPy).

    ``f``, ``grad``, ``hess``: f and its derivatives (the branch selected at each point);
    ``curves``: the kink curves; ``corners`` (C, 2): their intersections (and declared kinks);
    ``limit_slope(P)``: sup over unit u of |D_u f(p)| (the limit w -> z of the chord ratio at p,
    = ||grad f(p)|| off the curves); ``corner_limit``: limit_slope at the corners."""

    f: Func
    grad: Func
    hess: Func
    growth: GrowthFunction
    Lambda: float
    curves: tuple[KinkCurve, ...]
    corners: NDArray[np.float64]
    corner_limit: NDArray[np.float64]
    limit_slope: Func
    label: str = "f"
    f_magnitude: Func | None = None
    d: int = field(default=2, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.growth, GrowthFunction):
            raise TypeError(f"growth must be a GrowthFunction; got {type(self.growth).__name__}")
        object.__setattr__(self, "Lambda", check_lambda_value(self.Lambda))
        c = np.asarray(self.corners, dtype=float).reshape(-1, 2)
        cl = np.asarray(self.corner_limit, dtype=float).reshape(-1)
        if cl.shape[0] != c.shape[0]:
            raise ValueError(f"corner_limit must have one value per corner; got {cl.shape[0]} for {c.shape[0]} corners")
        object.__setattr__(self, "corners", c)
        object.__setattr__(self, "corner_limit", cl)


# --------------------------------------------------------------------------------------------
# strata


@dataclass(frozen=True)
class _Family:
    """One stratum type: z in {"fixed" (x or a corner), "free", "curve"}, w in {"free", "curve",
    "sphere", "spcurve" (sphere and curve), "corner", "corner_sphere", "limit"}."""

    z: str
    w: str

    @property
    def nz(self) -> int:
        return 2 if self.z in ("free", "curve") else 0

    @property
    def nw(self) -> int:
        return 2 if self.w in ("free", "curve", "sphere", "spcurve") else 0

    @property
    def mz(self) -> int:
        return 1 if self.z == "curve" else 0

    @property
    def ms(self) -> int:
        return 1 if self.w in ("sphere", "spcurve", "corner_sphere") else 0

    @property
    def mw(self) -> int:
        return 1 if self.w in ("curve", "spcurve") else 0

    @property
    def m(self) -> int:
        return self.nz + self.nw + self.mz + self.ms + self.mw

    def name(self, zlabel: str, kz: int, kw: int, jw: int, side: int) -> str:
        zs = {"fixed": zlabel, "free": "z free", "curve": f"z on c{kz}"}[self.z]
        ws = {
            "free": "w free", "curve": f"w on c{kw}", "sphere": "|w-z|=Lambda",
            "spcurve": f"|w-z|=Lambda, w on c{kw}", "corner": f"w=corner{jw}",
            "corner_sphere": f"w=corner{jw}, |w-z|=Lambda",
            "limit": "w->z" + (f" (side {'+' if side else '-'})" if self.z == "curve" else ""),
        }[self.w]
        return f"{zs}, {ws}"


@dataclass
class _Rows:
    """Per-row data of a family run: point index, x, fixed z/w, curve indices, side, label."""

    pidx: NDArray[np.int64]
    X: NDArray[np.float64]
    z0: NDArray[np.float64]
    w0: NDArray[np.float64]
    kz: NDArray[np.int64]
    kw: NDArray[np.int64]
    side: NDArray[np.int64]
    zc: NDArray[np.int64]  # corner index of a fixed z (-1: z = x)
    jw: NDArray[np.int64]  # corner index of a fixed w

    def take(self, sel) -> "_Rows":
        return _Rows(*(getattr(self, f)[sel] for f in ("pidx", "X", "z0", "w0", "kz", "kw", "side", "zc", "jw")))


def _per_curve(spec: PiecewiseSpec, k: NDArray[np.int64], P: NDArray[np.float64], get, shape) -> NDArray[np.float64]:
    out = np.full((P.shape[0],) + shape, np.nan)
    for kk in np.unique(k):
        if kk < 0:
            continue
        m = k == kk
        with np.errstate(all="ignore"):
            out[m] = np.asarray(get(spec.curves[int(kk)])(P[m]), dtype=float).reshape((-1,) + shape)
    return out


def _f(spec: PiecewiseSpec, P: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(all="ignore"):
        return np.asarray(spec.f(P), dtype=float).reshape(-1)


def _lam_e(growth: GrowthFunction, z, X):
    d = z - X
    r = np.sqrt(np.sum(d**2, axis=1))
    with np.errstate(all="ignore"):
        e = np.where(r[:, None] > 0, d / np.where(r > 0, r, 1.0)[:, None], 0.0)
    lam = np.full(r.shape, growth.gamma) if growth.kind == "exp" else growth.gamma / (1.0 + growth.gamma * r)
    return r, e, lam


def _zw(fam: _Family, Y, rows: _Rows):
    z = Y[:, :2] if fam.nz else rows.z0
    if fam.nw:
        w = Y[:, fam.nz : fam.nz + 2]
    elif fam.w in ("corner", "corner_sphere"):
        w = rows.w0
    else:
        w = z
    return z, w


#: offset (relative to 1 + |p|) at which the branch on one side of a curve is evaluated inside
#: the Newton iterations: the true gradient at p +- h n (n the unit normal) equals the side
#: branch's gradient at p up to O(h |H|), which moves a stationary point by O(h) and its value
#: by O(h^2) ~ 1e-12 (second order: the point is stationary); the values themselves are computed
#: with the exact side branches (_phi).  h must stay well above the finite-difference step of
#: the Jacobian (1e-8), or a difference quotient straddles the curve.
_SIDE_H = 1e-6


def _curve_data(spec: PiecewiseSpec, k, P):
    """(c_k(P), grad c_k(P), unit normal) per row."""
    c = _per_curve(spec, k, P, lambda cu: cu.c, ())
    dc = _per_curve(spec, k, P, lambda cu: cu.dc, (2,))
    with np.errstate(all="ignore"):
        nrm = dc / np.sqrt(np.sum(dc**2, axis=1))[:, None]
    return c, dc, nrm


def _side_point(P, nrm, side):
    h = _SIDE_H * (1.0 + np.max(np.abs(P), axis=1))
    s = np.where(np.asarray(side) == 1, 1.0, -1.0)
    return P + (s * h)[:, None] * nrm


def _residual(spec: PiecewiseSpec, fam: _Family, Y, rows: _Rows) -> NDArray[np.float64]:
    z, w = _zw(fam, Y, rows)
    r, e, lam = _lam_e(spec.growth, z, rows.X)
    mu = Y[:, fam.nz + fam.nw :]
    i = 0
    mz = ms = mw = None
    if fam.mz:
        mz, i = mu[:, i], i + 1
    if fam.ms:
        ms, i = mu[:, i], i + 1
    if fam.mw:
        mw, i = mu[:, i], i + 1
    if fam.z == "curve":
        cz, dcz, nz_ = _curve_data(spec, rows.kz, z)
    if fam.w in ("curve", "spcurve"):
        cw, dcw, nw_ = _curve_data(spec, rows.kw, w)
    out = []
    with np.errstate(all="ignore"):
        if fam.w == "limit":  # z free (S3) or z on a curve, one side
            zz = _side_point(z, nz_, rows.side) if fam.z == "curve" else z
            g = np.asarray(spec.grad(zz), dtype=float).reshape(-1, 2)
            H = np.asarray(spec.hess(zz), dtype=float).reshape(-1, 2, 2)
            G = np.einsum("nij,nj->ni", H, g) - np.sum(g**2, axis=1)[:, None] * lam[:, None] * e
            if fam.z == "curve":
                assert mz is not None  # fam.mz == 1 when z is on a curve
                out += [G - mz[:, None] * dcz, cz[:, None]]
            else:
                out.append(G)
            return np.concatenate(out, axis=1)
        D = w - z
        rho2 = np.sum(D**2, axis=1)
        rho = np.sqrt(rho2)
        rho3 = (rho2 * rho)[:, None]
        df = (_f(spec, w) - _f(spec, z))[:, None]
        L = spec.Lambda
        if fam.nz:
            zz = _side_point(z, nz_, 1) if fam.z == "curve" else z
            gz = np.asarray(spec.grad(zz), dtype=float).reshape(-1, 2)
            Gz = (-gz * rho2[:, None] + df * D - df * rho2[:, None] * lam[:, None] * e) / rho3
            if fam.mz:
                assert mz is not None  # set above when fam.mz
                Gz = Gz - mz[:, None] * dcz
            if fam.ms:
                assert ms is not None  # set above when fam.ms
                Gz = Gz + ms[:, None] * D / L
            out.append(Gz)
        if fam.nw:
            ww = _side_point(w, nw_, 1) if fam.w in ("curve", "spcurve") else w
            gw = np.asarray(spec.grad(ww), dtype=float).reshape(-1, 2)
            Gw = (gw * rho2[:, None] - df * D) / rho3
            if fam.mw:
                assert mw is not None  # set above when fam.mw
                Gw = Gw - mw[:, None] * dcw
            if fam.ms:
                assert ms is not None  # set above when fam.ms
                Gw = Gw - ms[:, None] * D / L
            out.append(Gw)
        if fam.mz:
            out.append(cz[:, None])
        if fam.ms:
            out.append(((rho2 - L * L) / (2 * L))[:, None])
        if fam.mw:
            out.append(cw[:, None])
    return np.concatenate(out, axis=1)


def _phi(spec: PiecewiseSpec, fam: _Family, z, w, rows: _Rows) -> NDArray[np.float64]:
    """Phi(z, w) with the true f (a lower bound of the sup wherever (z, w) is feasible); -inf if not."""
    inv_g = _inv_g(spec.growth, z, rows.X)
    with np.errstate(all="ignore"):
        if fam.w == "limit":
            if fam.z == "curve":
                g = np.where(rows.side[:, None] == 1,
                             _per_curve(spec, rows.kz, z, lambda c: c.grad_side[1], (2,)),
                             _per_curve(spec, rows.kz, z, lambda c: c.grad_side[0], (2,)))
                val = np.sqrt(np.sum(g**2, axis=1))
            elif fam.z == "free":
                val = np.sqrt(np.sum(np.asarray(spec.grad(z), dtype=float).reshape(-1, 2) ** 2, axis=1))
            else:
                val = np.where(rows.zc >= 0, spec.corner_limit[np.maximum(rows.zc, 0)] if spec.corner_limit.size else 0.0,
                               np.nan)
                xs = rows.zc < 0
                if np.any(xs):
                    val[xs] = np.asarray(spec.limit_slope(z[xs]), dtype=float).reshape(-1)
            val = val * inv_g
        else:
            rho = np.sqrt(np.sum((w - z) ** 2, axis=1))
            fw, fz = _f(spec, w), _f(spec, z)
            if spec.f_magnitude is not None:
                mag = np.abs(np.asarray(spec.f_magnitude(w), dtype=float)) + np.abs(np.asarray(spec.f_magnitude(z), dtype=float))
            else:
                mag = np.abs(fw) + np.abs(fz)
            val = np.maximum(np.abs(fw - fz) - _F_ROUND * mag, 0.0) / rho * inv_g
            # chords shorter than 1e-12 of the coordinates are rounding, not geometry (the limit
            # strata cover w -> z)
            scale = 1.0 + np.max(np.abs(z), axis=1)
            ok = (rho > 1e-12 * scale) & (rho <= spec.Lambda * (1.0 + 1e-12))
            val = np.where(ok, val, -np.inf)
    return np.where(np.isfinite(val), val, -np.inf)


# --------------------------------------------------------------------------------------------
# starts


def _project(spec: PiecewiseSpec, k: NDArray[np.int64], P: NDArray[np.float64], iters: int = 30):
    """Newton projection of the rows of P onto curve k (per row); returns (P, ok)."""
    P = P.copy()
    for _ in range(iters):
        c = _per_curve(spec, k, P, lambda cu: cu.c, ())
        g = _per_curve(spec, k, P, lambda cu: cu.dc, (2,))
        n2 = np.sum(g**2, axis=1)
        with np.errstate(all="ignore"):
            step = (c / n2)[:, None] * g
        step = np.where(np.isfinite(step), step, 0.0)
        P = P - step
    c = _per_curve(spec, k, P, lambda cu: cu.c, ())
    g = _per_curve(spec, k, P, lambda cu: cu.dc, (2,))
    with np.errstate(all="ignore"):
        ok = np.abs(c) <= 1e-10 * np.sqrt(np.sum(g**2, axis=1)) * (1.0 + np.sqrt(np.sum(P**2, axis=1)))
    return P, ok & np.all(np.isfinite(P), axis=1)


def _sphere_proj(spec: PiecewiseSpec, k, Z, W, iters: int = 30):
    """Alternating projection of W onto curve k and the Lambda-sphere around Z (per row)."""
    L = spec.Lambda
    for _ in range(iters):
        W, _ = _project(spec, k, W, iters=3)
        D = W - Z
        rho = np.sqrt(np.sum(D**2, axis=1))
        with np.errstate(all="ignore"):
            W = Z + D * (L / rho)[:, None]
        W = np.where(np.isfinite(W), W, Z)
    W2, ok = _project(spec, k, W, iters=5)
    rho = np.sqrt(np.sum((W2 - Z) ** 2, axis=1))
    ok &= np.abs(rho - L) <= 1e-6 * L
    return W2, ok


def _circle(m: int) -> NDArray[np.float64]:
    th = np.linspace(0.0, 2 * np.pi, m, endpoint=False)
    return np.stack([np.cos(th), np.sin(th)], axis=1)


def _z_grid(X, lo, hi, density: int):
    """(n, S, 2): the window grid plus geometric offsets around x (as in .generic)."""
    t = np.linspace(0.0, 1.0, density)
    tt = np.stack(np.meshgrid(t, t, indexing="ij"), axis=-1).reshape(-1, 2)
    zg = lo[:, None, :] + (hi - lo)[:, None, :] * tt[None, :, :]
    width = np.max(hi - lo, axis=1)
    fr = np.array([0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16])
    off = (fr[:, None, None] * _circle(8)[None, :, :]).reshape(-1, 2)
    return np.concatenate([zg, X[:, None, :] + off[None, :, :] * width[:, None, None]], axis=1)


# --------------------------------------------------------------------------------------------
# Newton


def _newton(spec: PiecewiseSpec, fam: _Family, Y0, rows: _Rows, cap, iters: int = 30):
    Y = Y0.copy()
    n, m = Y.shape
    conv = np.zeros(n, dtype=bool)
    active = np.ones(n, dtype=bool)
    for _ in range(iters):
        idx = np.nonzero(active)[0]
        if idx.size == 0:
            break
        Ya, ra = Y[idx], rows.take(idx)

        # F is called only within this iteration; ra is bound as a default to make that explicit.
        def F(Yc, ra: _Rows = ra):
            return _residual(spec, fam, Yc, ra)

        R = F(Ya)
        h = 1e-8 * np.maximum(1.0, np.abs(Ya))
        J = np.empty((idx.size, R.shape[1], m))
        for j in range(m):  # forward differences (the residual is re-evaluated m + 7 times per step)
            Yp = Ya.copy()
            Yp[:, j] += h[:, j]
            J[:, :, j] = (F(Yp) - R) / h[:, j : j + 1]
        good, R, dY = gauss_newton_step(R, J)
        ncoord = fam.nz + fam.nw
        nrm = np.sqrt(np.sum(dY[:, :ncoord] ** 2, axis=1))
        c = cap[idx].copy()
        if fam.w in ("free", "curve"):  # w may not jump across z
            z0, w0 = _zw(fam, Ya, ra)
            c = np.minimum(c, 0.5 * np.sqrt(np.sum((w0 - z0) ** 2, axis=1)))
        fac = np.minimum(1.0, c / np.maximum(nrm, 1e-300))
        dY = dY * fac[:, None]
        # backtracking: step lengths 1, 1/2, ..., 1/32, each tried only on the rows the longer
        # steps did not improve (the residual norm must decrease)
        r0 = np.where(good, np.sum(R**2, axis=1), np.inf)
        best_a = np.zeros(idx.size)
        todo = np.arange(idx.size)
        for alpha in (1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125):
            if todo.size == 0:
                break
            sub = ra.take(todo)
            rn = np.sum(_residual(spec, fam, Ya[todo] + alpha * dY[todo], sub) ** 2, axis=1)
            ok = np.isfinite(rn) & (rn < r0[todo])
            best_a[todo[ok]] = alpha
            todo = todo[~ok]
        best_a = np.where(best_a == 0.0, 0.03125, best_a)
        dY = dY * best_a[:, None]
        Ya = Ya + np.where(good[:, None], dY, 0.0)
        Y[idx] = Ya
        step = np.sqrt(np.sum(dY[:, :ncoord] ** 2, axis=1)) if ncoord else np.zeros(idx.size)
        done = good & (step <= 1e-11 * (1.0 + np.sqrt(np.sum(Ya[:, :ncoord] ** 2, axis=1))))
        if ncoord == 0:
            done = good
        conv[idx] = done
        keep = good & ~done & (np.sqrt(np.sum(Ya[:, :ncoord] ** 2, axis=1)) < 1e6 * (1.0 + cap[idx]))
        if fam.nw and fam.w != "limit":
            z1, w1 = _zw(fam, Ya, ra)
            keep &= np.sqrt(np.sum((w1 - z1) ** 2, axis=1)) > 1e-9 * cap[idx]
        active[idx] = keep
    # a converged point must satisfy its constraints (to rounding)
    if np.any(conv) and (fam.mz or fam.ms or fam.mw):
        ci = np.nonzero(conv)[0]
        R = _residual(spec, fam, Y[ci], rows.take(ci))
        ncon = fam.mz + fam.ms + fam.mw
        Cv = np.abs(R[:, -ncon:])
        conv[ci] = np.all(Cv <= 1e-8 * (1.0 + np.abs(Y[ci, : max(fam.nz + fam.nw, 1)]).max(axis=1))[:, None], axis=1)
    return Y, conv


# --------------------------------------------------------------------------------------------
# driver


def _families(spec: PiecewiseSpec, lipschitz: bool) -> list[_Family]:
    finite = math.isfinite(spec.Lambda)
    has_c = len(spec.curves) > 0
    wk = ["free"] + (["curve"] if has_c else []) + (["sphere"] + (["spcurve"] if has_c else []) if finite else [])
    fams = [_Family("fixed", w) for w in wk]
    if lipschitz:
        return fams
    zks = ["free"] + (["curve"] if has_c else [])
    for zk in zks:
        extra = ["corner"] + (["corner_sphere"] if finite else []) if spec.corners.shape[0] else []
        fams += [_Family(zk, w) for w in wk + extra + ["limit"]]
    return fams


def _solve(spec: PiecewiseSpec, X, lo, hi, lipschitz: bool, density: int, keep: int, per_combo: int = 3) -> GenericResult:
    n = X.shape[0]
    K = len(spec.curves)
    C = spec.corners.shape[0]
    best = np.full(n, -np.inf)
    bz, bw = X.copy(), X.copy()
    bname = np.array([""] * n, dtype=object)
    sample_max = np.full(n, -np.inf)
    edge_max = np.full(n, -np.inf)
    width = np.max(hi - lo, axis=1)
    rmax = np.minimum(spec.Lambda, width)
    L = spec.Lambda

    def offer(vals, z, w, pidx, names):
        ii, sel = keep_best(best, bz, bw, vals, z, w, pidx)
        bname[ii] = names[sel]

    def on_edge(P, pidx):
        tol = 1e-4 * width[pidx][:, None]
        return np.any((P <= lo[pidx] + tol) | (P >= hi[pidx] - tol), axis=1)

    def guard(fam, z, w, rows, vals):
        np.maximum.at(sample_max, rows.pidx, np.where(np.isfinite(vals), vals, -np.inf))
        e = on_edge(z, rows.pidx) if fam.nz else np.zeros(z.shape[0], dtype=bool)
        if fam.nw and not math.isfinite(L):
            ew = on_edge(w, rows.pidx)
            if np.any(ew):  # Phi constant along the ray z -> w (f linear there): the window cuts nothing
                half = _phi(spec, fam, z, z + 0.5 * (w - z), rows)
                with np.errstate(invalid="ignore"):
                    ew &= ~(np.abs(half - vals) <= 1e-12 * np.abs(vals))
            e |= ew
        np.maximum.at(edge_max, rows.pidx[e], vals[e])

    # z fixed: x (zc = -1) and, for B*, the corners (zc = i)
    zfix = [(-1, None)] + ([] if lipschitz else [(i, spec.corners[i]) for i in range(C)])

    def base_rows(pidx, zc):
        m = pidx.size
        z0 = np.where((zc >= 0)[:, None], spec.corners[np.maximum(zc, 0)] if C else 0.0, X[pidx])
        mi = np.full(m, -1, dtype=np.int64)
        return _Rows(pidx, X[pidx], z0, z0.copy(), mi, mi.copy(), np.zeros(m, dtype=np.int64), zc, mi.copy())

    # ---- 0-dimensional strata: z fixed with w a corner, and the limits at x / at a corner
    pid = np.repeat(np.arange(n), len(zfix))
    zc = np.tile(np.array([i for i, _ in zfix], dtype=np.int64), n)
    rows0 = base_rows(pid, zc)
    lim = _Family("fixed", "limit")
    v = _phi(spec, lim, rows0.z0, rows0.z0, rows0)
    names = np.array([("z=x" if c < 0 else f"z=corner{c}") + ", w->z" for c in zc], dtype=object)
    offer(v, rows0.z0, rows0.z0, rows0.pidx, names)
    if C:
        rr = rows0.take(np.repeat(np.arange(pid.size), C))
        rr.jw = np.tile(np.arange(C, dtype=np.int64), pid.size)
        rr.w0 = spec.corners[rr.jw]
        fam = _Family("fixed", "corner")
        v = _phi(spec, fam, rr.z0, rr.w0, rr)
        names = np.array([("z=x" if a < 0 else f"z=corner{a}") + f", w=corner{b}" for a, b in zip(rr.zc, rr.jw, strict=True)], dtype=object)
        offer(v, rr.z0, rr.w0, rr.pidx, names)

    zgrid = None if lipschitz else _z_grid(X, lo, hi, density)
    for fam in _families(spec, lipschitz):
        # ---- build starts (z part, w part) per row, with index combinations
        if fam.z == "fixed":
            base = rows0 if not lipschitz else base_rows(np.arange(n), np.full(n, -1, dtype=np.int64))
            Zs = base.z0[:, None, :]
            brow = base
        else:
            assert zgrid is not None  # z free or on a curve: only B* (not lipschitz) has these families
            S = zgrid.shape[1]
            pidx = np.repeat(np.arange(n), S)
            brow = base_rows(pidx, np.full(pidx.size, -1, dtype=np.int64))
            Zs = zgrid.reshape(-1, 1, 2)
            if fam.z == "curve":
                brow = brow.take(np.repeat(np.arange(pidx.size), K))
                brow.kz = np.tile(np.arange(K, dtype=np.int64), pidx.size)
                P, ok = _project(spec, brow.kz, np.repeat(Zs[:, 0, :], K, axis=0))
                # many grid nodes project to nearly the same curve point: keep one per 1e-3 of the window
                q = np.floor(P / (1e-3 * width[brow.pidx])[:, None])
                key = np.stack([brow.pidx, brow.kz, q[:, 0], q[:, 1]], axis=1)
                key = np.where(ok[:, None], key, np.nan)
                _, first = np.unique(key[ok], axis=0, return_index=True)
                sel = np.nonzero(ok)[0][np.sort(first)]
                brow = brow.take(sel)
                Zs = P[sel][:, None, :]
        # w part (offsets, sphere points or fixed corners) for each z start
        nb = brow.pidx.size
        if fam.w in ("free", "curve"):
            fr = np.array([0.001, 0.003, 0.01, 0.03, 0.08, 0.2, 0.45, 0.75, 1.0])
            if fam.z != "fixed":
                fr = fr[1::2] if fam.w == "free" else fr[2::3]
            u = _circle(16 if fam.z == "fixed" else 8)
            off = (fr[:, None, None] * u[None]).reshape(-1, 2)
            Ws = Zs + off[None] * rmax[brow.pidx][:, None, None]
        elif fam.w in ("sphere", "spcurve"):
            Ws = Zs + L * _circle(16 if fam.z == "fixed" else 8)[None]
        elif fam.w in ("corner", "corner_sphere"):
            Ws = np.broadcast_to(spec.corners[None], (nb, C, 2))
        else:
            Ws = Zs
        nW = Ws.shape[1]
        rows = brow.take(np.repeat(np.arange(nb), nW))
        Z = np.repeat(Zs[:, 0, :], nW, axis=0)
        W = Ws.reshape(-1, 2).copy()
        if fam.w in ("corner", "corner_sphere"):
            rows.jw = np.tile(np.arange(C, dtype=np.int64), nb)
            rows.w0 = spec.corners[rows.jw]
        if fam.w == "corner_sphere":  # z starts on the Lambda-sphere around the corner
            D = Z - W
            rho = np.sqrt(np.sum(D**2, axis=1))
            with np.errstate(all="ignore"):
                Z = W + D * (L / rho)[:, None]
            okz = np.all(np.isfinite(Z), axis=1)
            if fam.z == "curve":
                Z2, ok2 = _sphere_proj(spec, rows.kz, W, Z)
                Z, okz = Z2, okz & ok2
            rows, Z, W = rows.take(okz), Z[okz], W[okz]
        if fam.w in ("curve", "spcurve"):
            rows = rows.take(np.repeat(np.arange(rows.pidx.size), K))
            rows.kw = np.tile(np.arange(K, dtype=np.int64), rows.pidx.size // K)
            Z = np.repeat(Z, K, axis=0)
            W = np.repeat(W, K, axis=0)
            if fam.w == "curve":
                W, ok = _project(spec, rows.kw, W)
            else:
                W, ok = _sphere_proj(spec, rows.kw, Z, W)
            rows, Z, W = rows.take(ok), Z[ok], W[ok]
        if fam.w == "limit" and fam.z == "curve":
            rows = rows.take(np.repeat(np.arange(rows.pidx.size), 2))
            rows.side = np.tile(np.array([0, 1], dtype=np.int64), rows.pidx.size // 2)
            Z = np.repeat(Z, 2, axis=0)
            W = Z
        if rows.pidx.size == 0:
            continue
        vals = _phi(spec, fam, Z, W, rows)
        guard(fam, Z, W, rows, vals)
        # ---- Newton starts: the `per_combo` best starts of every (point, index combination) and the `keep`
        # best starts per point over all combinations
        combo = (((rows.pidx * (K + 1) + rows.kz + 1) * (K + 1) + rows.kw + 1) * (C + 1) + rows.jw + 1) * (C + 2) + rows.zc + 1
        combo = combo * 2 + rows.side
        fv = np.where(np.isfinite(vals), vals, -np.inf)
        take = np.zeros(fv.size, dtype=bool)
        for key in (combo, rows.pidx):
            order = np.lexsort((-fv, key))
            cs = key[order]
            first = np.r_[0, np.nonzero(cs[1:] != cs[:-1])[0] + 1]
            rank = np.arange(cs.size) - np.repeat(first, np.diff(np.r_[first, cs.size]))
            take[order[rank < (per_combo if key is combo else keep)]] = True
        sel = np.nonzero(take & np.isfinite(fv))[0]
        if sel.size == 0:
            continue
        rows, Z, W = rows.take(sel), Z[sel], W[sel]
        Y0 = np.concatenate(
            ([Z] if fam.nz else []) + ([W] if fam.nw else []) + [np.zeros((sel.size, fam.mz + fam.ms + fam.mw))], axis=1)
        cap = 0.25 * width[rows.pidx]
        Y, conv = _newton(spec, fam, Y0, rows, cap)
        if not np.any(conv):
            continue
        rc = rows.take(conv)
        z, w = _zw(fam, Y[conv], rc)
        v = _phi(spec, fam, z, w, rc)
        zl = np.where(rc.zc < 0, "z=x", np.char.add("z=corner", rc.zc.astype(str)))
        nm = np.array([fam.name(a, b, c, dd, s) for a, b, c, dd, s in zip(zl, rc.kz, rc.kw, rc.jw, rc.side, strict=True)], dtype=object)
        offer(v, z, w, rc.pidx, nm)

    check_complete(X, lo, hi, best, sample_max, edge_max, "candidate strata", "start sample")
    return GenericResult(np.maximum(best, 0.0), bz, bw, bname.astype(str))


def _piecewise_entry(name: str, doc: str, lipschitz: bool) -> Callable[..., NDArray[np.float64] | GenericResult]:
    """The public entry ``name``: L_{f,Lambda} (the strata with z = x) or B* (all strata); the
    keyword ``keep`` (default 48) is passed to the solver."""

    def solve(spec: PiecewiseSpec, X: NDArray[np.float64], lo, hi, density: int, keep: int = 48) -> GenericResult:
        return _solve(spec, X, lo, hi, lipschitz, density, keep)

    return engine_entry(name, doc, PiecewiseSpec, lambda spec: spec.corners, solve)


piecewise_lipschitz = _piecewise_entry(
    "piecewise_lipschitz",
    """L_{f,Lambda}(x) for a piecewise f on R^2: the strata with z = x (004 Def. 7, Sec. 3.3).

    Keywords as for :func:`generic_lipschitz`, and ``keep`` (default 48): the number of Newton starts
    of largest Phi per point (module docstring).""",
    lipschitz=True,
)
piecewise_smooth_sensitivity = _piecewise_entry(
    "piecewise_smooth_sensitivity",
    """B*(x) for a piecewise f on R^2: the maximum over all strata (004 Def. 9, Sec. 3.3 stratified).

    Keywords as for :func:`piecewise_lipschitz`.""",
    lipschitz=False,
)
