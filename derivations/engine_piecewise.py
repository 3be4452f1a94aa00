"""SymPy front end of the piecewise engine on R^2 (004 Sec. 3.3 stratified by the kink curves).

``build_piecewise_spec(expr, variables, growth, Lambda, kinks)`` turns a continuous, piecewise
smooth f(x, y) (Piecewise, Abs, Max, Min, sign allowed, nested) into a
:class:`smoothsens_core.sensitivity.generic_piecewise.PiecewiseSpec`:

1. ``flatten_piecewise``: Abs/Max/Min/sign are rewritten as Piecewise and every condition whose
   sides contain a Piecewise is distributed over its branches, until f is one Piecewise whose
   branches are smooth and whose conditions are Boolean combinations of relations c(x, y) >< 0
   with smooth c (SymPy re-creates Abs from sqrt(u^2); the loop removes those too).
2. Kink curves: the distinct switching functions c (up to sign) of those relations.  For each
   curve the branch on either side is f with the relations on that curve replaced by their truth
   values there (``side_expr``); a curve across which the two side branches agree to second order
   at every sampled point of the curve is not a kink of f (a redundant condition, e.g. the
   |x - c| <= R2 - 1 of the rewritten two-way threshold) and is dropped; sides that differ in value
   mean f is discontinuous (not Lipschitz): ValueError.  The sampled points are the projections
   onto the curve of a seeded random sample of a box containing every number of the expression.
3. Corners: the real intersections of pairs of kept curves (``sympy.solve`` on the rationalised
   switching functions), plus the ``kinks`` given by the user (points of R^2).
4. The limit w -> z at a point p (the largest one-sided directional derivative sup_u |D_u f(p)|):
   ||grad f(p)|| off the curves, max over the two side branches on one curve, and at a point on
   two or more curves the sector formula: the tangent rays of the curves through p cut the circle
   of directions into sectors, f is one smooth branch a . u in each (gradient a of that branch at
   p, found at p + 1e-12 (1 + |p|) u for u inside the sector), and the sup over a sector is |a| if
   +-a/|a| lies in it, else the value at its boundary rays.

The numeric side lives in smoothsens_core.sensitivity.generic_piecewise; only this module imports
SymPy.
"""

from __future__ import annotations

import itertools
import math
from typing import Sequence

import numpy as np
import sympy as sp
from numpy.typing import NDArray
from sympy.core.relational import Relational

from derivations.magnitude import term_magnitude
from smoothsens_core.growth import GrowthFunction
from smoothsens_core.sensitivity.generic_piecewise import KinkCurve, PiecewiseSpec

__all__ = ["flatten_piecewise", "kink_curves", "side_expr", "build_piecewise_spec", "sector_limit"]

_NONSMOOTH = (sp.Abs, sp.sign, sp.Max, sp.Min, sp.Heaviside)


def _rewrite(e: sp.Expr) -> sp.Expr:
    e = e.replace(sp.Abs, lambda a: sp.Piecewise((a, a >= 0), (-a, True)))
    e = e.replace(sp.sign, lambda a: sp.Piecewise((1, a > 0), (-1, a < 0), (0, True)))
    e = e.replace(sp.Heaviside, lambda *a: sp.Piecewise((1, a[0] > 0), (0, a[0] < 0), (sp.Rational(1, 2), True)))
    return e.rewrite(sp.Piecewise)


def flatten_piecewise(expr: sp.Expr, max_rounds: int = 20) -> sp.Expr:
    """f as one Piecewise with smooth branches and conditions on smooth switching functions."""
    e = expr
    for _ in range(max_rounds):
        e = _rewrite(e)
        for _ in range(100):
            bad = [r for r in e.atoms(Relational) if r.has(sp.Piecewise)]
            if not bad:
                break
            m = {}
            for r in bad:
                g = sp.piecewise_fold(r.lhs - r.rhs)
                if not isinstance(g, sp.Piecewise):
                    m[r] = type(r)(g, 0)
                    continue
                terms: list[sp.Basic] = []
                prev: list[sp.Basic] = []
                for gi, ci in g.args:
                    terms.append(sp.And(ci, *[sp.Not(p) for p in prev], type(r)(gi, 0)))
                    prev.append(ci)
                m[r] = sp.Or(*terms)
            e = e.xreplace(m)
        e = sp.piecewise_fold(e)
        if not e.has(*_NONSMOOTH) and not any(r.has(sp.Piecewise) for r in e.atoms(Relational)):
            return e
    raise ValueError(f"could not rewrite f into a Piecewise with smooth branches and conditions: {expr}")


def kink_curves(pw: sp.Expr, variables: Sequence[sp.Symbol]) -> list[tuple[sp.Expr, list[tuple[Relational, int]]]]:
    """[(c, [(relation, sign), ...])]: the switching functions c of the relations of ``pw`` (each
    relation reads sign * c  op  0 after moving everything to the left) in a canonical sign."""
    out: dict[sp.Expr, list[tuple[Relational, int]]] = {}
    for r in sorted(pw.atoms(Relational), key=sp.default_sort_key):
        if not (r.free_symbols & set(variables)):
            continue
        if isinstance(r, (sp.Eq, sp.Ne)):
            continue  # an equality condition selects a null set: no side
        g = sp.expand(r.lhs - r.rhs)
        neg = sp.expand(-g)
        key, sgn = (g, 1) if sp.default_sort_key(g) <= sp.default_sort_key(neg) else (neg, -1)
        out.setdefault(key, []).append((r, sgn))
    return list(out.items())


def side_expr(pw: sp.Expr, relations: list[tuple[Relational, int]], side: int) -> sp.Expr:
    """f on the side sign(c) = side (+1 or -1) of a curve: its relations replaced by their truth."""
    m = {r: (sp.true if type(r)(sp.Integer(side * sgn), 0) else sp.false) for r, sgn in relations}
    return _subs_conditions(pw, m)


def _subs_conditions(pw: sp.Expr, m: dict) -> sp.Expr:
    """``pw`` with relations replaced in its conditions only (branches false after the replacement
    dropped, the branches after a true condition dropped; no other re-evaluation)."""
    if not isinstance(pw, sp.Piecewise):
        return pw
    args = []
    for b, c in pw.args:
        c2 = c.xreplace(m) if isinstance(c, sp.Basic) else c
        if c2 == sp.false:
            continue
        args.append((b, c2))
        if c2 == sp.true:
            break
    if len(args) == 1 and args[0][1] == sp.true:
        return args[0][0]
    return sp.Piecewise(*args, evaluate=False)


def _lam2(vars_, e):
    return sp.lambdify(list(vars_), e, modules="numpy")


def _vec(fn, n_out):
    def call(P: NDArray[np.float64]) -> NDArray[np.float64]:
        out = np.empty((P.shape[0], int(np.prod(n_out))))
        with np.errstate(all="ignore"):
            vals = fn(P[:, 0], P[:, 1])
        for i, o in enumerate(vals):
            out[:, i] = o
        return out.reshape((P.shape[0],) + n_out)
    return call


def _scalar(fn):
    def call(P: NDArray[np.float64]) -> NDArray[np.float64]:
        out = np.empty(P.shape[0])
        with np.errstate(all="ignore"):
            out[:] = fn(P[:, 0], P[:, 1])
        return out
    return call


def pdiff(e: sp.Expr, v: sp.Symbol) -> sp.Expr:
    """d e / d v branch by branch (a Piecewise keeps its conditions; no re-evaluation of them,
    which SymPy's own Piecewise derivative does at great cost)."""
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(pdiff(b, v), c) for b, c in e.args], evaluate=False)
    return sp.diff(e, v)


def _derivs(e: sp.Expr, vars_) -> tuple:
    g = [pdiff(e, v) for v in vars_]
    H = [[pdiff(gi, v) for v in vars_] for gi in g]
    return _vec(_lam2(vars_, g), (2,)), _vec(_lam2(vars_, [h for row in H for h in row]), (2, 2))


def _project(c, dc, P, iters=40):
    for _ in range(iters):
        v, g = c(P), dc(P)
        with np.errstate(all="ignore"):
            P = P - (v / np.sum(g**2, axis=1))[:, None] * g
        P = np.where(np.isfinite(P), P, np.nan)
    with np.errstate(all="ignore"):
        ok = np.abs(c(P)) <= 1e-10 * np.sqrt(np.sum(dc(P) ** 2, axis=1)) * (1 + np.abs(P).max(axis=1))
    return P[ok & np.all(np.isfinite(P), axis=1)]


def sector_limit(p: NDArray[np.float64], normals: list[NDArray[np.float64]], grad) -> float:
    """sup over unit u of |D_u f(p)| at a point p on the curves with the given normals (d = 2).

    The tangent rays +-t_k of the curves cut the directions into sectors; in a sector f is one
    smooth branch with gradient a (taken at p + h u, h = 1e-12 (1 + |p|), u the sector's mid
    direction), D_u f(p) = a . u, and sup_{u in sector} |a . u| is |a| if +-a/|a| lies in the sector,
    else max over its two boundary rays."""
    tangent_angs: list[float] = []
    for nrm in normals:
        t = np.array([-nrm[1], nrm[0]])
        a0 = math.atan2(t[1], t[0])
        tangent_angs += [a0 % (2 * math.pi), (a0 + math.pi) % (2 * math.pi)]
    angs = np.unique(np.round(np.sort(tangent_angs), 15))
    h = 1e-12 * (1.0 + float(np.max(np.abs(p))))
    best = 0.0
    m = angs.size
    for i in range(m):
        a_lo = angs[i]
        a_hi = angs[i + 1] if i + 1 < m else angs[0] + 2 * math.pi
        mid = 0.5 * (a_lo + a_hi)
        u = np.array([math.cos(mid), math.sin(mid)])
        a = np.asarray(grad((p + h * u)[None, :]), dtype=float).reshape(2)
        for b in (a_lo, a_hi):
            best = max(best, abs(a[0] * math.cos(b) + a[1] * math.sin(b)))
        na = math.hypot(a[0], a[1])
        if na > 0:
            for s in (1.0, -1.0):
                th = math.atan2(s * a[1], s * a[0]) % (2 * math.pi)
                for th2 in (th, th + 2 * math.pi):
                    if a_lo <= th2 <= a_hi:
                        best = max(best, na)
    return best


def build_piecewise_spec(
    expr: sp.Expr,
    variables: Sequence[sp.Symbol],
    growth: GrowthFunction,
    Lambda: float,
    kinks: NDArray[np.float64] | None = None,
    label: str = "f",
    n_samples: int = 400,
    seed: int = 0,
) -> tuple[PiecewiseSpec, dict]:
    """The PiecewiseSpec of f on R^2 and a summary (flattened f, curves kept/dropped, corners)."""
    vars_ = list(variables)
    if len(vars_) != 2:
        raise ValueError(f"the piecewise engine supports d = 2 variables; got d={len(vars_)}")
    pw = flatten_piecewise(expr)
    f_np = _scalar(_lam2(vars_, pw))
    grad_np, hess_np = _derivs(pw, vars_)
    nums = [abs(float(a)) for a in pw.atoms(sp.Number) if a.is_finite]
    scale = max([1.0] + nums)
    rng = np.random.default_rng(seed)
    sample = rng.uniform(-4 * scale, 4 * scale, size=(n_samples, 2))
    curves: list[KinkCurve] = []
    kept_c: list[sp.Expr] = []
    dropped: list[str] = []
    for c, rels in kink_curves(pw, vars_):
        cf = _scalar(_lam2(vars_, c))
        dcf = _vec(_lam2(vars_, [sp.diff(c, v) for v in vars_]), (2,))
        sides = [side_expr(pw, rels, s) for s in (-1, 1)]
        fs = [_scalar(_lam2(vars_, e)) for e in sides]
        ders = [_derivs(e, vars_) for e in sides]
        P = _project(cf, dcf, sample.copy())
        if P.shape[0]:
            v0, v1 = fs[0](P), fs[1](P)
            tolv = 1e-9 * (1 + np.abs(v0) + np.abs(v1))
            if np.any(np.abs(v0 - v1) > tolv):
                i = int(np.argmax(np.abs(v0 - v1) - tolv))
                raise ValueError(
                    f"f is discontinuous across the curve {c} = 0 (at {P[i].tolist()}: {v0[i]!r} vs {v1[i]!r}); "
                    "B* is defined for Lambda-locally Lipschitz f only")
            g0, g1 = ders[0][0](P), ders[1][0](P)
            H0, H1 = ders[0][1](P), ders[1][1](P)
            dg = np.max(np.abs(g0 - g1), axis=1) <= 1e-9 * (1 + np.abs(g0).max(axis=1))
            dH = np.max(np.abs(H0 - H1), axis=(1, 2)) <= 1e-9 * (1 + np.abs(H0).max(axis=(1, 2)))
            if np.all(dg & dH):
                dropped.append(str(c))
                continue
        kept_c.append(c)
        curves.append(KinkCurve(str(c), cf, dcf, (ders[0][0], ders[1][0]), (ders[0][1], ders[1][1])))
    # corners: pairwise intersections of the kept curves
    pts: list[NDArray[np.float64]] = []
    for (i, ci), (j, cj) in itertools.combinations(enumerate(kept_c), 2):
        a = ci.xreplace({fl: sp.Rational(fl) for fl in ci.atoms(sp.Float)})
        b = cj.xreplace({fl: sp.Rational(fl) for fl in cj.atoms(sp.Float)})
        try:
            sols = sp.solve([a, b], vars_, dict=True)
        except NotImplementedError as exc:
            raise ValueError(f"cannot intersect the kink curves {ci} = 0 and {cj} = 0; pass the corner points in kinks=") from exc
        for s in sols:
            if set(s) != set(vars_):
                continue  # a whole line of intersections (coincident curves): not a corner
            v = [complex(sp.N(s[vv], 30)) for vv in vars_]
            if all(abs(q.imag) < 1e-12 for q in v):
                p = np.array([q.real for q in v])
                ok = all(abs(float(curves[k].c(p[None])[0])) <= 1e-9 * (1 + np.abs(p).max()) for k in (i, j))
                if ok:
                    pts.append(p)
    if kinks is not None:
        pts += list(np.asarray(kinks, dtype=float).reshape(-1, 2))
    corners = np.zeros((0, 2))
    if pts:
        P = np.array(pts)
        keep: list[NDArray[np.float64]] = []
        for p in P:
            if not any(np.max(np.abs(p - q)) <= 1e-12 * (1 + np.abs(p).max()) for q in keep):
                keep.append(p)
        corners = np.array(keep)

    def active(P: NDArray[np.float64]) -> NDArray[np.bool_]:
        A = np.zeros((P.shape[0], len(curves)), dtype=bool)
        for k, cu in enumerate(curves):
            with np.errstate(all="ignore"):
                A[:, k] = np.abs(cu.c(P)) <= 1e-12 * np.sqrt(np.sum(cu.dc(P) ** 2, axis=1)) * (1 + np.abs(P).max(axis=1))
        return A

    def limit_slope(P: NDArray[np.float64]) -> NDArray[np.float64]:
        P = np.asarray(P, dtype=float).reshape(-1, 2)
        out = np.sqrt(np.sum(grad_np(P) ** 2, axis=1))
        if not curves:
            return out
        A = active(P)
        na = A.sum(axis=1)
        one = np.nonzero(na == 1)[0]
        if one.size:
            k = np.argmax(A[one], axis=1)
            for kk in np.unique(k):
                r = one[k == kk]
                g0 = curves[kk].grad_side[0](P[r])
                g1 = curves[kk].grad_side[1](P[r])
                out[r] = np.maximum(np.sqrt(np.sum(g0**2, axis=1)), np.sqrt(np.sum(g1**2, axis=1)))
        for r in np.nonzero(na >= 2)[0]:
            normals = [curves[k].dc(P[r : r + 1])[0] for k in np.nonzero(A[r])[0]]
            out[r] = sector_limit(P[r], normals, grad_np)
        return out

    corner_limit = limit_slope(corners) if corners.shape[0] else np.zeros(0)
    mag_np = _scalar(_lam2(vars_, term_magnitude(pw)))
    spec = PiecewiseSpec(
        f=f_np, f_magnitude=mag_np, grad=grad_np, hess=hess_np, growth=growth, Lambda=Lambda, curves=tuple(curves),
        corners=corners, corner_limit=corner_limit, limit_slope=limit_slope, label=label,
    )
    info = {"flattened": pw, "curves": [str(c) for c in kept_c], "dropped": dropped, "corners": corners}
    return spec, info
