"""SymPy front end of the generic smooth-sensitivity engine (004 Sec. 3.3, Defs. 7-9).

``smooth_sensitivity_engine(expr, variables, growth, Lambda, kinks, domain, method)`` takes a
SymPy expression f(x_1, ..., x_d) (any d if f is smooth; Piecewise, Abs, Max, Min allowed in
d = 1 and d = 2, their kinks (points, curves) detected from the conditions), derives the
stationarity equations of every stratum of the candidate sets S0-S4 of 004 Sec. 3.3
symbolically from f and its derivatives, compiles them with ``lambdify`` (user expressions,
not a hot path of the core) into a :class:`smoothsens_core.sensitivity.generic.GenericSpec`, and
returns an object whose ``f``, ``lipschitz`` and ``smooth_sensitivity`` evaluate f, L_{f,Lambda}
(004 Def. 7) and B* (004 Def. 9) on arrays of points.

The equations (multiplied by positive factors; psi = (f(w) - f(z))/rho, rho = ||w - z||,
D = w - z, r = ||z - x||, e = (z - x)/r, lambda = d ln g0/dr = gamma (g_E), gamma/(1 + gamma r) (g_L)):

    w free : grad f(w) rho^2 - (f(w) - f(z)) D                              (S2; S1 first half)
    z free : -grad f(z) rho^2 + (f(w) - f(z)) D - (f(w) - f(z)) rho^2 lambda e   (S1; S0 x S1)
    w -> z : f''(z) - f'(z) lambda e (d = 1);  H(z) grad f(z) - |grad f(z)|^2 lambda e (d >= 2)  (S3)
    ||w - z|| = Lambda, w = z + Lambda u:  grad f(w) - grad f(z) - (f(w) - f(z)) lambda e,
                                           grad f(w) . t_j(theta)            (S4, corrected)

For each stratum the engine also derives, symbolically, where its equations vanish identically
(``_Builder.null_regions``: per piece of a piecewise f, after substituting the branches; this
happens exactly where f is linear or constant) and a magnitude of their terms
(:func:`derivations.magnitude.term_magnitude`); the numeric side uses both to tell rounding noise
from sign changes on linear pieces.

A piecewise f in d = 2 (its kinks form curves) goes to the stratified engine of
:mod:`derivations.engine_piecewise` / :mod:`smoothsens_core.sensitivity.generic_piecewise` (z and w
free, on a kink curve, at a corner, on the Lambda-sphere, and their combinations, as constrained
stationary points).  Not supported with method='candidates': a piecewise f in d >= 3 (kink
surfaces and their intersection curves) -- a ValueError says so.

See :mod:`smoothsens_core.sensitivity.generic` for the erratum on the printed S4 (partial instead
of constrained derivative) and the strata the printed procedure omits.

``method="brute"`` evaluates the definitions directly with
:mod:`smoothsens_core.sensitivity.brute` (dense search + Nelder-Mead + mpmath re-evaluation of
the maximiser at 50 digits).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Sequence

import mpmath
import numpy as np
import sympy as sp
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize

from smoothsens_core.validation import check_points, check_positive
from smoothsens_core.growth import GrowthFunction
from smoothsens_core.sensitivity.brute import (
    BruteResult,
    search_window,
    brute_lipschitz,
    brute_smooth_sensitivity,
    check_lambda_value,
)
from derivations.engine_piecewise import build_piecewise_spec
from derivations.magnitude import term_magnitude
from smoothsens_core.sensitivity.generic_piecewise import (
    PiecewiseSpec,
    piecewise_lipschitz,
    piecewise_smooth_sensitivity,
)
from smoothsens_core.sensitivity.generic import (
    CandidateSystem,
    GenericResult,
    GenericSpec,
    RootCertificationError,
    generic_lipschitz,
    generic_smooth_sensitivity,
)

__all__ = [
    "SmoothSensitivityEngine",
    "smooth_sensitivity_engine",
    "detect_kinks",
    "candidate_equations",
    "CertifiedSensitivity",
    "UncertifiedSensitivityError",
    "LipschitzTail",
]

_METHODS = ("candidates", "brute")


def _to_piecewise(expr: sp.Expr) -> sp.Expr:
    """Abs, Max, Min, sign, Heaviside rewritten as Piecewise (their kinks become conditions)."""
    e = expr.replace(sp.Abs, lambda a: sp.Piecewise((a, a >= 0), (-a, True)))
    e = e.rewrite(sp.Piecewise)
    return sp.piecewise_fold(e)


def detect_kinks(expr: sp.Expr, variable: sp.Symbol, *, rewritten: bool = False) -> list[float]:
    """Real points where a Piecewise condition of f (d = 1) switches: candidates for 004 S0.

    ``rewritten=True`` says ``expr`` is already in Piecewise form (skips the rewrite)."""
    pw = expr if rewritten else _to_piecewise(expr)
    pts: set[float] = set()
    for rel in pw.atoms(sp.core.relational.Relational):
        g = rel.lhs - rel.rhs
        if not g.has(variable):
            continue
        try:
            sols = sp.solve(sp.Eq(g, 0), variable)
        except NotImplementedError as exc:
            raise ValueError(f"cannot locate the kinks of f from the condition {rel}; pass kinks=") from exc
        for s in sols:
            if s.is_real is False:
                continue
            v = complex(sp.N(s, 30))
            if abs(v.imag) < 1e-14:
                pts.add(float(v.real))
    return sorted(pts)


def _lam(growth: GrowthFunction, r: sp.Expr) -> sp.Expr:
    """lambda(r) = d/dr ln g0(r): gamma for g_E, gamma/(1 + gamma r) for g_L (004 Sec. 3.1.2)."""
    gam = sp.Float(growth.gamma, 30)
    return gam if growth.kind == "exp" else gam / (1 + gam * r)


def _select_branches(expr: sp.Expr, values: dict[sp.Symbol, sp.Expr]) -> sp.Expr | None:
    """``expr`` with every Piecewise replaced by the branch its conditions select when the symbols
    in ``values`` take those values (exact rationals); None when a condition stays undecided."""
    e = expr
    for _ in range(50):
        pws = e.atoms(sp.Piecewise)
        if not pws:
            return e
        mapping = {}
        for pw in pws:
            chosen = None
            for branch, cond in pw.args:
                c = cond.xreplace(values) if isinstance(cond, sp.Basic) else cond
                if c == sp.true or c is True:
                    chosen = branch
                    break
                if not (c == sp.false or c is False):
                    return None
            if chosen is None:
                return None
            mapping[pw] = chosen
        e = e.xreplace(mapping)
    return None


def _identically_zero(expr: sp.Expr) -> bool:
    """True if ``expr`` (no Piecewise) is the zero polynomial in its symbols and atoms (Abs, sign,
    ...) after its floats are replaced by the exact rationals they stand for.  This is all that is
    needed here: a stationarity residual of 004 Sec. 3.3 vanishes identically on a piece only where
    f is linear or constant there (see ``null_regions``)."""
    if any(not isinstance(fn, (sp.Abs, sp.sign)) for fn in expr.atoms(sp.Function)):
        return False  # a transcendental branch (exp, tanh, ...): not linear, and not worth expanding
    e = expr.xreplace({fl: sp.Rational(fl) for fl in expr.atoms(sp.Float)})
    try:
        return sp.expand(e) == 0
    except Exception:  # noqa: BLE001 - a failed expansion counts as not identically zero (no null region)  # pragma: no cover - expansion of an exotic expression
        return False


class _Builder:
    def __init__(self, expr, variables, growth, Lam, kinks):
        self.expr = expr
        self.vars = list(variables)
        self.d = len(self.vars)
        self.growth = growth
        self.Lam = Lam
        self.kinks = kinks
        d = self.d
        self.X = sp.symbols(f"x_0:{d}", real=True)
        self.Z = sp.symbols(f"z_0:{d}", real=True)
        self.W = sp.symbols(f"w_0:{d}", real=True)
        # hyperspherical angles of w - z on the Lambda-sphere (d = 2: one angle, "theta")
        self.TH = [sp.Symbol("theta", real=True)] if d == 2 else list(sp.symbols(f"theta_0:{max(d - 1, 0)}", real=True))
        self.th = self.TH[0] if self.TH else None
        self.grad = [sp.diff(expr, v) for v in self.vars]

    # P is a point of R^d: one coordinate per variable (kink points only arise for d = 1).
    def f_at(self, P):
        return self.expr.xreplace(dict(zip(self.vars, P, strict=True)))

    def grad_at(self, P):
        return [g.xreplace(dict(zip(self.vars, P, strict=True))) for g in self.grad]

    def e_lam(self, Zs):
        d = self.d
        if d == 1:
            r = sp.Abs(Zs[0] - self.X[0])
            e = [sp.sign(Zs[0] - self.X[0])]
        else:
            r = sp.sqrt(sum((Zs[i] - self.X[i]) ** 2 for i in range(d)))
            e = [(Zs[i] - self.X[i]) / r for i in range(d)]
        lam = _lam(self.growth, r)
        return e, lam

    def _chord(self, Zs, Ws):
        """(D, rho2, df) of the chord from Zs to Ws: D = W - Z, rho2 = ||D||^2, df = f(W) - f(Z)."""
        D = [Ws[i] - Zs[i] for i in range(self.d)]
        return D, sum(c**2 for c in D), self.f_at(Ws) - self.f_at(Zs)

    def w_block(self, Zs, Ws):
        D, rho2, df = self._chord(Zs, Ws)
        gw = self.grad_at(Ws)
        return [gw[i] * rho2 - df * D[i] for i in range(self.d)]

    def z_block(self, Zs, Ws):
        D, rho2, df = self._chord(Zs, Ws)
        gz = self.grad_at(Zs)
        e, lam = self.e_lam(Zs)
        return [-gz[i] * rho2 + df * D[i] - df * rho2 * lam * e[i] for i in range(self.d)]

    def sphere_frame(self):
        """u(theta) on the unit sphere (hyperspherical angles, the convention of
        smoothsens_core.sensitivity.generic.sphere_point) and an orthonormal tangent frame
        t_j = (du/dtheta_j) / (sin theta_0 ... sin theta_{j-1}) (no spurious zeros at the poles)."""
        th = self.TH
        k = len(th)
        u, acc = [], sp.Integer(1)
        for i in range(k):
            u.append(acc * sp.cos(th[i]))
            acc = acc * sp.sin(th[i])
        u.append(acc)
        frame = []
        for j in range(k):
            fac = sp.Mul(*[sp.sin(th[i]) for i in range(j)])
            frame.append([sp.cancel(sp.diff(c, th[j]) / fac) for c in u])
        return u, frame

    def sphere(self, Zs, sign, z_free):
        d = self.d
        if d == 1:
            Ws = [Zs[0] + sign * self.Lam]
            frame = []
        else:
            u, frame = self.sphere_frame()
            Ws = [Zs[i] + self.Lam * u[i] for i in range(d)]
        eqs = []
        if z_free:
            gw, gz = self.grad_at(Ws), self.grad_at(Zs)
            df = self.f_at(Ws) - self.f_at(Zs)
            e, lam = self.e_lam(Zs)
            eqs += [gw[i] - gz[i] - df * lam * e[i] for i in range(d)]
        if d >= 2:
            gw = self.grad_at(Ws)
            for t in frame:
                eqs.append(sum(gw[i] * t[i] for i in range(d)))
        return eqs

    def limit_eq(self, Zs):
        d = self.d
        e, lam = self.e_lam(Zs)
        gz = self.grad_at(Zs)
        if d == 1:
            return [sp.diff(self.grad[0], self.vars[0]).xreplace({self.vars[0]: Zs[0]}) - gz[0] * lam * e[0]]
        H = [[sp.diff(self.grad[i], self.vars[j]).xreplace(dict(zip(self.vars, Zs, strict=True))) for j in range(d)]
             for i in range(d)]
        n2 = sum(g**2 for g in gz)
        return [sum(H[i][j] * gz[j] for j in range(d)) - n2 * lam * e[i] for i in range(d)]

    def pieces(self) -> list[tuple[float, float]]:
        """The open intervals between consecutive kinks (d = 1): f is one branch on each."""
        ks = [k[0] for k in self.kinks]
        b = [-math.inf] + ks + [math.inf]
        return list(zip(b[:-1], b[1:], strict=True))

    def null_regions(self, unknowns, eqs, radial: sp.Expr | None = None) -> tuple:
        """Boxes of (unknowns, x) on which an equation vanishes identically (derived symbolically).

        For each combination of pieces of f for the arguments that enter a Piecewise (w, z or x;
        a piece is an interval between consecutive kinks, where every Piecewise of f and its
        derivatives selects one branch), the branches are substituted and the equation is tested
        for being identically zero.  Where it is, Phi is constant in that unknown on the box (the
        equation is the partial derivative of Phi times a non-vanishing factor), so the bracketing
        solver takes every node there as a candidate instead of chasing the sign of rounding noise,
        and the window-edge guard knows that Phi does not grow past the edge along that unknown.
        Returns ((equation index, lo, hi), ...) with lo, hi over the columns (unknowns..., x...).
        ``radial`` (w free): (w - z) . (w-block), the derivative of Phi along the ray from z through
        w (times rho^3 psi); where it vanishes identically (f linear: Phi(z, z + r u) = |grad f . u|
        for every r) the region is reported with index -1.  Piecewise f: d = 1 only; a smooth f
        (no Piecewise) has one piece, the whole space."""
        cols = list(unknowns) + list(self.X)
        if self.d != 1 and any(e.has(sp.Piecewise) for e in eqs):
            return ()
        allq = list(eqs) + ([radial] if radial is not None else [])
        pw_syms = []
        for c in cols:
            if any(c in pw.free_symbols for e in allq for pw in e.atoms(sp.Piecewise)):
                pw_syms.append(c)
        ivs = self.pieces() if pw_syms else [(-math.inf, math.inf)]

        def rep(a: float, b: float) -> sp.Rational:
            if math.isinf(a) and math.isinf(b):
                return sp.Integer(0)
            if math.isinf(a):
                return sp.Rational(b) - 1
            if math.isinf(b):
                return sp.Rational(a) + 1
            return (sp.Rational(a) + sp.Rational(b)) / 2

        out = []
        tests = list(enumerate(eqs))
        if radial is not None:
            tests.append((-1, radial))
        for combo in itertools.product(ivs, repeat=len(pw_syms)):
            values = {sym: rep(*iv) for sym, iv in zip(pw_syms, combo, strict=True)}
            for j, eq in tests:
                e = _select_branches(eq, values)
                if e is None or not _identically_zero(e):
                    continue
                lo = [-math.inf] * len(cols)
                hi = [math.inf] * len(cols)
                for sym, (a, b) in zip(pw_syms, combo, strict=True):
                    lo[cols.index(sym)], hi[cols.index(sym)] = a, b
                out.append((j, tuple(lo), tuple(hi)))
        return tuple(out)

    def compile_scale(self, unknowns, eqs):
        """The magnitudes (:func:`~derivations.magnitude.term_magnitude`) of the equations, compiled like
        ``compile``."""
        return self.compile(unknowns, [term_magnitude(e) for e in eqs])

    def compile(self, unknowns, eqs):
        fn = sp.lambdify(list(unknowns) + list(self.X), eqs, modules="numpy")
        m = len(unknowns)
        d = self.d

        def residual(Y: NDArray[np.float64], X: NDArray[np.float64]) -> NDArray[np.float64]:
            with np.errstate(all="ignore"):
                out = fn(*[Y[:, j] for j in range(m)], *[X[:, i] for i in range(d)])
            cols = np.broadcast_arrays(*[np.asarray(o, dtype=float) for o in out], np.empty(Y.shape[0]))[:-1]
            return np.stack(cols, axis=1)

        return residual


def candidate_equations(b: _Builder) -> tuple[list[tuple[CandidateSystem, list[sp.Expr]]], bool]:
    """All strata of 004 Sec. 3.3 (corrected) with their SymPy stationarity equations."""
    d = b.d
    finite = math.isfinite(b.Lam)
    out: list[tuple[CandidateSystem, list[sp.Expr]]] = []

    def system(name, zm, wm, unk, eqs, Zs=None, **kw) -> None:
        if unk:
            radial = None
            if wm == "free":  # (w - z) . (w-block): Phi along the ray from z through w
                radial = sum((b.W[i] - Zs[i]) * eqs[len(eqs) - d + i] for i in range(d))
            kw.update(residual=b.compile(unk, eqs), residual_scale=b.compile_scale(unk, eqs),
                      null_regions=b.null_regions(unk, eqs, radial))
        out.append((CandidateSystem(name, zm, wm, **kw), eqs))

    z_modes: list[tuple[str, int, Any]] = [("x", -1, list(b.X)), ("free", -1, list(b.Z))]
    z_modes += [("kink", i, [sp.Float(k[0], 30)]) for i, k in enumerate(b.kinks)]
    for zm, zi, Zs in z_modes:
        zlabel = {"x": "z=x", "free": "z free", "kink": f"z=k{zi}"}[zm]
        zfree = zm == "free"
        # w free
        eqs = (b.z_block(Zs, list(b.W)) if zfree else []) + b.w_block(Zs, list(b.W))
        unk = (list(b.Z) if zfree else []) + list(b.W)
        paper = "S1" if zfree else ("S2" if zm == "x" else "S0 x S2 (not printed)")
        system(f"{zlabel}, w free", zm, "free", unk, eqs, Zs=Zs, z_kink=zi, paper_set=paper)
        # w -> z (limit)
        if zfree:
            system("z free, w->z", "free", "limit", list(b.Z), b.limit_eq(Zs), paper_set="S3")
        else:
            paper = "case 4" if zm == "x" else "S0 x S3 (not printed)"
            system(f"{zlabel}, w->z", zm, "limit", [], [], z_kink=zi, paper_set=paper)
        # w on the Lambda-sphere
        if finite:
            signs = (1, -1) if d == 1 else (0,)
            for sg in signs:
                eqs = b.sphere(Zs, sg, zfree)
                unk = (list(b.Z) if zfree else []) + (list(b.TH) if d >= 2 else [])
                paper = "S4 (corrected)" if zfree else "sphere (not printed)"
                lab = f"{zlabel}, |w-z|=Lambda" + (f" ({'+' if sg > 0 else '-'})" if d == 1 else "")
                system(lab, zm, "sphere", unk, eqs, z_kink=zi, sign=sg, paper_set=paper)
        # w at a kink
        for j, k in enumerate(b.kinks):
            Ws = [sp.Float(k[0], 30)]
            if zfree:
                system(f"z free, w=k{j}", "free", "kink", list(b.Z), b.z_block(Zs, Ws), w_kink=j,
                       paper_set="S1 (w in S0)")
            elif not (zm == "kink" and zi == j):
                system(f"{zlabel}, w=k{j}", zm, "kink", [], [], z_kink=zi, w_kink=j,
                       paper_set="S0" if zm == "x" else "S0 x S0")
    return out, True


def _one_sided_slopes(expr, var, k: float) -> tuple[float, float]:
    """(f'(k-), f'(k+)) for the w -> z limit at a kink (004 S0 with case 3/4).

    The SymPy derivative is evaluated at k -+ 10^-25 with 40 significant digits: there the
    Piecewise selects the branch on each side, and a smooth branch's derivative differs from its
    one-sided limit by |f''| 10^-25, far below double precision (cheaper than sympy.limit).
    """
    df = sp.diff(expr, var)
    kk = sp.Float(k, 40)
    eps = sp.Float(10, 40) ** -25
    left = float(df.subs(var, kk - eps).evalf(30))
    right = float(df.subs(var, kk + eps).evalf(30))
    return left, right


def _numeric_f(pw: sp.Expr, grad: list, variables: Sequence[sp.Symbol]):
    """f, its gradient and the magnitude of its terms (:func:`~derivations.magnitude.term_magnitude`) as NumPy
    callables on (n, d)."""
    d = len(variables)
    f_np = sp.lambdify(list(variables), pw, modules="numpy")
    g_np = sp.lambdify(list(variables), grad, modules="numpy")
    m_np = sp.lambdify(list(variables), term_magnitude(pw), modules="numpy")

    def f_num(P: NDArray[np.float64]) -> NDArray[np.float64]:
        with np.errstate(all="ignore"):
            v = f_np(*[P[:, i] for i in range(d)])
        return np.broadcast_to(np.asarray(v, dtype=float), (P.shape[0],))

    def grad_num(P: NDArray[np.float64]) -> NDArray[np.float64]:
        with np.errstate(all="ignore"):
            out = g_np(*[P[:, i] for i in range(d)])
        cols = np.broadcast_arrays(*[np.asarray(o, dtype=float) for o in out], np.empty(P.shape[0]))[:-1]
        return np.stack(cols, axis=1)

    def f_mag(P: NDArray[np.float64]) -> NDArray[np.float64]:
        with np.errstate(all="ignore"):
            v = m_np(*[P[:, i] for i in range(d)])
        return np.broadcast_to(np.asarray(v, dtype=float), (P.shape[0],))

    return f_num, grad_num, f_mag


_IV_FUNCS = (sp.sin, sp.cos, sp.exp, sp.log)  # mpmath.iv enclosures used for the tail bound


class UncertifiedSensitivityError(RootCertificationError):
    """B*(x) could not be certified at some point.  ``result`` (a :class:`CertifiedSensitivity`)
    holds, per point, the value (never below the largest certified lower bound found), the flag
    and the reason; callers that accept an INCONCLUSIVE value use
    :meth:`SmoothSensitivityEngine.smooth_sensitivity_certified` instead."""

    def __init__(self, message: str, result: "CertifiedSensitivity") -> None:
        super().__init__(message)
        self.result = result


@dataclass(frozen=True)
class CertifiedSensitivity:
    """B*(x) (004 Def. 9) per point with its certificate.

    ``value`` = max(candidate, lower_bound): never below a value of the sup found at a feasible
    (z, w).  ``candidate``: the candidate-set procedure of 004 Sec. 3.3 (NaN where it raised);
    ``lower_bound``: the independent search of the definition (:mod:`smoothsens_core.sensitivity.brute`:
    dense search + polish, the maximiser re-evaluated in mpmath at 50 digits, so a lower bound of
    the sup; NaN where unavailable).  ``certified[i]`` holds iff the candidate procedure completed
    without a guard, the search did not beat it (relative 1e-9), and the sup outside the search
    window of half-width ``radius[i]`` is provably at most the value (``tail[i]``, see
    :class:`LipschitzTail`); ``reasons[i]`` says which, or why not."""

    value: NDArray[np.float64]
    candidate: NDArray[np.float64]
    lower_bound: NDArray[np.float64]
    certified: NDArray[np.bool_]
    radius: NDArray[np.float64]
    tail: NDArray[np.float64]
    reasons: tuple[str, ...]

    @property
    def verdicts(self) -> tuple[str, ...]:
        """Per point: "CERTIFIED" or "INCONCLUSIVE" (the value is then a lower bound only)."""
        return tuple("CERTIFIED" if c else "INCONCLUSIVE" for c in self.certified)

    @property
    def all_certified(self) -> bool:
        return bool(np.all(self.certified))


@dataclass(frozen=True)
class LipschitzTail:
    """Upper bounds on L_{f,Lambda} far from x, for the part of the sup of 004 Def. 9 outside a window.

    * ``M``: L_{f,Lambda}(z) <= M for every z (inf if unknown).  Derived as sup_{R^d} ||grad f||
      (mean-value theorem; an mpmath.iv enclosure of each partial derivative over R^d) or declared
      by the caller (``lipschitz_bound=``);
    * ``poly`` (a_0, ..., a_k), a_j >= 0, finite Lambda only: L_{f,Lambda}(z) <= P(||z|| + Lambda),
      P(u) = sum_j a_j u^j (f a polynomial: |grad c z^alpha| <= c |alpha| ||z||^(|alpha| - 1),
      and the chord's segment lies in the ball of radius ||z|| + Lambda);
    * ``oscillation``: sup f - inf f (inf if unknown; mpmath.iv enclosure of f over R^d or declared),
      bounding the chords longer than a length l by oscillation / l.

    ``tail(growth, x_norm, Lambda, r)`` bounds sup_{||z - x|| >= r} L_{f,Lambda}(z)/g0(||z - x||):
    M/g0(r); and for P of degree k with c = ||x|| + Lambda and g_E: P(c + s) e^(-gamma s) decreases for
    s >= s0 = k/gamma - c (P'/P <= k/u for non-negative coefficients), so the bound is
    P(c + max(r, s0)) e^(-gamma r).  For g_L only a constant P decays."""

    M: float = math.inf
    poly: tuple[float, ...] = ()
    oscillation: float = math.inf
    source: str = ""

    def tail(self, growth: GrowthFunction, x_norm: float, Lam: float, r: float) -> float:
        with mpmath.workdps(30):
            gam = mpmath.mpf(growth.gamma)
            rr = mpmath.mpf(r)
            g0r = mpmath.exp(gam * rr) if growth.kind == "exp" else 1 + gam * rr
            best = mpmath.mpf(self.M) / g0r if math.isfinite(self.M) else mpmath.inf
            if self.poly and math.isfinite(Lam):
                k = len(self.poly) - 1
                c = mpmath.mpf(x_norm) + mpmath.mpf(Lam)

                def P(u: Any) -> Any:
                    return sum(mpmath.mpf(a) * u**j for j, a in enumerate(self.poly))

                if growth.kind == "exp":
                    s0 = max(mpmath.mpf(0), k / gam - c)
                    tp = P(c + max(rr, s0)) * mpmath.exp(-gam * rr)
                    best = min(best, tp)
                elif k == 0:
                    best = min(best, P(c) / g0r)
            return float(best * (1 + mpmath.mpf(10) ** -12)) if best != mpmath.inf else math.inf

    def long_chords(self, length: float) -> float:
        """Bound on |f(w) - f(z)|/||w - z|| / g0 over chords longer than ``length`` (g0 >= 1)."""
        return min(self.M, self.oscillation / length) * (1 + 1e-12)


def _iv_enclosure(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> tuple[float, float] | None:
    """An mpmath.iv enclosure [a, b] of ``expr`` over all of R^d, or None when ``expr`` uses a
    function outside ``_IV_FUNCS`` (or a Piecewise: its conditions are not decided soundly on
    intervals) or the enclosure is not finite."""
    if expr.has(sp.Piecewise) or any(type(fn) not in _IV_FUNCS for fn in expr.atoms(sp.Function)):
        return None
    iv = mpmath.iv
    ns = {"sin": iv.sin, "cos": iv.cos, "exp": iv.exp, "log": iv.log, "sqrt": iv.sqrt,
          "pi": iv.pi, "e": iv.e, "E": iv.e, "mpf": iv.mpf}
    e = expr.xreplace({fl: sp.Rational(fl) for fl in expr.atoms(sp.Float)})
    try:
        fn = sp.lambdify(list(variables), e, modules=[ns, "mpmath"])
        old = iv.prec
        try:
            iv.prec = 100
            whole = iv.mpf(["-inf", "inf"])
            v = iv.mpf(fn(*([whole] * len(variables))))
            # outward rounding to binary64: the enclosure's ends, widened by one ulp each
            a, b = math.nextafter(float(v.a), -math.inf), math.nextafter(float(v.b), math.inf)
        finally:
            iv.prec = old
    except (TypeError, ValueError, AttributeError, NameError, ZeroDivisionError, OverflowError):
        return None  # an operation the interval context does not support: no bound
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    return a, b


def _poly_bound(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> tuple[float, ...]:
    """(a_0, ..., a_k) with ||grad f(z)|| <= sum_j a_j ||z||^j for a polynomial f (see
    :class:`LipschitzTail`); () when f is not a polynomial.  Coefficients rounded upwards."""
    if expr.has(sp.Piecewise) or not expr.is_polynomial(*variables):
        return ()
    e = expr.xreplace({fl: sp.Rational(fl) for fl in expr.atoms(sp.Float)})
    poly = sp.Poly(sp.expand(e), *variables)
    deg = poly.total_degree()
    if deg < 1:
        return (0.0,)
    coef = [sp.Integer(0)] * deg
    for mon, c in poly.terms():
        n = sum(mon)
        if n >= 1:
            coef[n - 1] += abs(c) * n
    return tuple(float(sp.Float(c, 30)) * (1 + 1e-15) + 0.0 for c in coef)


def _derive_tail(expr: sp.Expr, variables: Sequence[sp.Symbol], Lam: float,
                 lipschitz_bound: float | None, oscillation_bound: float | None) -> LipschitzTail:
    """The bounds of :class:`LipschitzTail` for f = ``expr`` (declared ones take precedence)."""
    src = []
    M = math.inf
    if lipschitz_bound is not None:
        M = float(lipschitz_bound)
        src.append(f"declared L_(f,Lambda) <= {M!r}")
    else:
        encl = [_iv_enclosure(sp.diff(expr, v), variables) for v in variables]
        if all(e is not None for e in encl):
            M = math.sqrt(sum(max(abs(a), abs(b)) ** 2 for a, b in encl)) * (1 + 1e-12)  # type: ignore[misc]
            src.append(f"||grad f|| <= {M:.6g} on R^d (interval enclosure)")
    poly = _poly_bound(expr, variables)
    if poly and math.isfinite(Lam):
        src.append("polynomial growth bound of ||grad f||")
    osc = math.inf
    if oscillation_bound is not None:
        osc = float(oscillation_bound)
        src.append(f"declared sup f - inf f <= {osc!r}")
    else:
        ef = _iv_enclosure(expr, variables)
        if ef is not None:
            osc = (ef[1] - ef[0]) * (1 + 1e-12)
            src.append(f"f in [{ef[0]:.6g}, {ef[1]:.6g}] (interval enclosure)")
    return LipschitzTail(M, poly, osc, "; ".join(src))


@dataclass
class SmoothSensitivityEngine:
    """f, L_{f,Lambda} (004 Def. 7) and B* (004 Def. 9) of a SymPy expression on arrays of points."""

    expr: sp.Expr
    variables: tuple[sp.Symbol, ...]
    growth: GrowthFunction
    Lambda: float
    kinks: tuple[float, ...]
    domain: Any
    method: str
    radius: float
    spec: GenericSpec
    equations: dict[str, list[sp.Expr]]
    _f_mp: Any
    pw_spec: PiecewiseSpec | None = None
    pw_info: dict | None = None
    tail_bounds: LipschitzTail = LipschitzTail()

    @property
    def d(self) -> int:
        return len(self.variables)

    def _points(self, points: ArrayLike) -> NDArray[np.float64]:
        return check_points("points", points, d=self.d)

    def f(self, points: ArrayLike) -> NDArray[np.float64]:
        """f at each point (rows of an (n, d) array)."""
        return np.asarray(self.spec.f(self._points(points)), dtype=float)

    def _pw_kw(self) -> dict[str, Any]:
        return dict(domain=self.domain, radius=self.radius)

    def _brute_kw(self) -> dict[str, Any]:
        return dict(d=self.d, domain=self.domain, radius=self.radius,
                    extra_points=np.asarray(self.kinks).reshape(-1, 1) if self.kinks else None,
                    f_mp=self._f_mp, mp=mpmath)

    def lipschitz(self, points: ArrayLike, *, details: bool = False):
        """L_{f,Lambda}(x) for each point (004 Def. 7)."""
        P = self._points(points)
        if self.method == "brute":
            r: BruteResult = brute_lipschitz(self.spec.f, P, self.Lambda, **self._brute_kw())
            return r if details else r.value
        if self.pw_spec is not None:
            return piecewise_lipschitz(self.pw_spec, P, return_details=details, **self._pw_kw())
        return generic_lipschitz(self.spec, P, domain=self.domain, radius=self.radius, return_details=details)

    def _candidates(self, P: NDArray[np.float64], radius: float, domain: Any) -> tuple[NDArray[np.float64], list[str]]:
        """The candidate-set value per point (NaN, with the guard's message, where it raised)."""
        kw = dict(domain=domain, radius=radius)
        entry = piecewise_smooth_sensitivity if self.pw_spec is not None else generic_smooth_sensitivity
        spec = self.pw_spec if self.pw_spec is not None else self.spec
        try:
            return np.asarray(entry(spec, P, **kw), dtype=float), [""] * P.shape[0]
        except RootCertificationError:
            if P.shape[0] == 1:
                raise
        vals, msgs = np.full(P.shape[0], np.nan), [""] * P.shape[0]
        for i in range(P.shape[0]):  # isolate the points where a guard fires
            try:
                vals[i] = float(np.asarray(entry(spec, P[i : i + 1], **kw), dtype=float)[0])
            except RootCertificationError as exc:
                msgs[i] = str(exc)
        return vals, msgs

    def _search(self, P: NDArray[np.float64], radius: float, domain: Any) -> NDArray[np.float64]:
        """Certified lower bounds of B*(x) (004 Def. 9) by a search of the definition that shares
        nothing with the candidate sets of 004 Sec. 3.3 (NaN for d >= 3: no search there).

        B*(x) = sup_{z, r, u} Q(z, r, u) with Q = |f(z + r u) - f(z)| / r / g0(||z - x||),
        0 < r <= Lambda, ||u|| = 1.  1. L-profile: C(z) = max over a grid of (r, u) of the chord
        slope, on a grid of z over the union of the windows (and the points and kinks): it does not
        depend on x, so it is computed once for all points; 2. per point, the start
        argmax_z C(z)/g0(||z - x||) over its window; 3. a vectorised compass search of Q in
        (z, ln r, angle of u) from it (all points at once, steps halved where nothing improves), and in
        d = 2 a Nelder-Mead polish per point (z and the direction of u are coupled);
        4. Q at the final (z, r, u) in mpmath at 50 digits, and for r < 1e-3 also the one-sided
        directional derivative (the limit r -> 0): both are values of the sup, so the larger is a
        lower bound of B*(x).  A search, not a proof: it certifies a value from below only."""
        n, d = P.shape
        if d > 2:
            return np.full(n, np.nan)
        kinks = np.asarray(self.kinks, dtype=float).reshape(-1, 1) if self.kinks else None
        lo, hi = search_window(P, domain=domain, extra_points=kinks, radius=radius)
        glo, ghi = lo.min(axis=0), hi.max(axis=0)
        diam = float(np.sqrt(np.sum((hi - lo) ** 2, axis=1)).max())
        r_max = min(self.Lambda, diam)
        r_min = 1e-7 * max(1.0, float(np.max(np.abs(P))))
        f = self.spec.f
        # 1. the L-profile on a grid of z
        nz = 6001 if d == 1 else 161
        axes_z = [np.linspace(glo[i], ghi[i], nz) for i in range(d)]
        Z = np.stack(np.meshgrid(*axes_z, indexing="ij"), axis=-1).reshape(-1, d)
        Z = np.concatenate([Z, P] + ([kinks] if kinks is not None and d == 1 else []))
        U = np.array([[1.0], [-1.0]]) if d == 1 else np.stack(
            [np.cos(t := np.linspace(0.0, 2 * np.pi, 16, endpoint=False)), np.sin(t)], axis=1)
        R = np.geomspace(r_min, r_max, 40 if d == 1 else 20)
        best_c = np.full(Z.shape[0], -np.inf)
        best_r = np.full(Z.shape[0], r_min)
        best_u = np.zeros(Z.shape[0], dtype=np.int64)
        fz = f(Z)
        with np.errstate(all="ignore"):
            for k, u in enumerate(U):
                for r in R:
                    c = np.abs(f(Z + r * u) - fz) / r
                    c = np.where(np.isfinite(c), c, -np.inf)
                    better = c > best_c
                    best_c = np.where(better, c, best_c)
                    best_r = np.where(better, r, best_r)
                    best_u = np.where(better, k, best_u)
        # 2. per point, the best start in its window
        gam = self.growth.gamma
        chunk = max(1, 4_000_000 // Z.shape[0])
        z0 = np.empty((n, d))
        lr0 = np.empty(n)
        th0 = np.empty(n)
        for a in range(0, n, chunk):
            X = P[a : a + chunk]
            dist = np.sqrt(np.sum((Z[None, :, :] - X[:, None, :]) ** 2, axis=2))
            inside = np.all((Z[None, :, :] >= lo[a : a + chunk, None, :]) & (Z[None, :, :] <= hi[a : a + chunk, None, :]), axis=2)
            lg = gam * dist if self.growth.kind == "exp" else np.log1p(gam * dist)
            with np.errstate(divide="ignore"):
                score = np.where(inside, np.log(np.maximum(best_c, 0.0))[None, :] - lg, -np.inf)
            j = np.argmax(score, axis=1)
            z0[a : a + chunk] = Z[j]
            lr0[a : a + chunk] = np.log(best_r[j])
            th0[a : a + chunk] = np.arctan2(U[best_u[j], -1], U[best_u[j], 0]) if d == 2 else 0.0

        def q(Y: NDArray[np.float64], X: NDArray[np.float64], sg: NDArray[np.float64]) -> NDArray[np.float64]:
            z = Y[:, :d]
            r = np.exp(np.clip(Y[:, d], math.log(r_min), math.log(r_max)))
            u = sg[:, None] * np.ones((1, 1)) if d == 1 else np.stack([np.cos(Y[:, d + 1]), np.sin(Y[:, d + 1])], axis=1)
            dist = np.sqrt(np.sum((z - X) ** 2, axis=1))
            inv_g = np.exp(-gam * dist) if self.growth.kind == "exp" else 1.0 / (1.0 + gam * dist)
            with np.errstate(all="ignore"):
                v = np.abs(f(z + r[:, None] * u) - f(z)) / r * inv_g
            return np.where(np.isfinite(v), v, -np.inf)

        # 3. compass search, both signs of u in d = 1
        starts = []
        for sg_val in ((1.0, -1.0) if d == 1 else (1.0,)):
            sg = np.full(n, sg_val)
            Y = np.concatenate([z0, lr0[:, None]] + ([th0[:, None]] if d == 2 else []), axis=1)
            spacing = (ghi - glo) / (nz - 1)
            step = np.tile(np.concatenate([spacing, [0.5]] + ([[np.pi / 12]] if d == 2 else [])), (n, 1))
            val = q(Y, P, sg)
            m = Y.shape[1]
            for _ in range(200):
                if not np.any(step > 1e-13 * (1.0 + np.abs(Y))):
                    break
                improved = np.zeros(n, dtype=bool)
                for j in range(m):
                    for sgn_step in (1.0, -1.0):
                        T = Y.copy()
                        T[:, j] += sgn_step * step[:, j]
                        if j < d:
                            T[:, :d] = np.clip(T[:, :d], lo, hi)
                        v = q(T, P, sg)
                        better = v > val
                        Y = np.where(better[:, None], T, Y)
                        val = np.where(better, v, val)
                        improved |= better
                step = np.where(improved[:, None], step, 0.5 * step)
            starts.append((val, Y, sg))
        if d == 2:  # z and the direction of u are coupled (a ridge): a rotation-free polish per point
            val0, Y0, sg0 = starts[0]
            for i in range(n):
                if not np.isfinite(val0[i]):
                    continue
                Xi, si = P[i : i + 1], sg0[i : i + 1]
                res = minimize(lambda y, Xi=Xi, si=si: -float(q(y[None, :], Xi, si)[0]), Y0[i], method="Nelder-Mead",
                               options={"xatol": 1e-12, "fatol": 1e-15 * max(val0[i], 1e-300), "maxiter": 2000})
                yi = np.concatenate([np.clip(res.x[:d], lo[i], hi[i]), res.x[d:]])
                vi = float(q(yi[None, :], Xi, si)[0])
                if vi > val0[i]:
                    Y0[i], val0[i] = yi, vi
        val = np.maximum.reduce([s_[0] for s_ in starts])
        out = np.full(n, np.nan)
        # 4. mpmath at the maximiser
        for i in range(n):
            k = int(np.argmax([s_[0][i] for s_ in starts]))
            _, Y, sg = starts[k]
            if not np.isfinite(val[i]):
                continue
            z = Y[i, :d]
            r = float(np.exp(np.clip(Y[i, d], math.log(r_min), math.log(r_max))))
            u = [float(sg[i])] if d == 1 else [math.cos(Y[i, d + 1]), math.sin(Y[i, d + 1])]
            with mpmath.workdps(50):
                zm = [mpmath.mpf(float(c)) for c in z]
                um = [mpmath.mpf(c) for c in u]
                if d == 2:
                    nrm = mpmath.sqrt(um[0] ** 2 + um[1] ** 2)
                    um = [c / nrm for c in um]
                dist = mpmath.sqrt(sum((zm[j] - mpmath.mpf(float(P[i, j]))) ** 2 for j in range(d)))
                gm = mpmath.mpf(gam)
                inv_g = mpmath.exp(-gm * dist) if self.growth.kind == "exp" else 1 / (1 + gm * dist)
                rm = mpmath.mpf(r)
                fz = self._f_mp(*zm)
                v = abs(self._f_mp(*[zm[j] + rm * um[j] for j in range(d)]) - fz) / rm * inv_g
                if r < 1e-3 * max(1.0, float(np.max(np.abs(z)))) and not self.kinks and self.pw_spec is None:
                    lim = abs(mpmath.diff(lambda t, zm=zm, um=um: self._f_mp(*[zm[j] + t * um[j] for j in range(d)]),
                                          0, direction=1)) * inv_g
                    v = max(v, lim)
                # rounded down to binary64: a lower bound of the sup
                out[i] = math.nextafter(float(v), -math.inf)
        return out

    def _window_radius(self, x: NDArray[np.float64], radius: float) -> float:
        """Distance from x to the outside of its search window (every z outside is farther)."""
        if self.domain is None:
            return radius
        lo = np.broadcast_to(np.asarray(self.domain[0], dtype=float), x.shape)
        hi = np.broadcast_to(np.asarray(self.domain[1], dtype=float), x.shape)
        return float(max(0.0, np.min(np.minimum(x - lo, hi - x))))

    def _outside(self, x: NDArray[np.float64], r: float) -> float:
        """Bound on the sup of 004 Def. 9 over the pairs (z, w) the window of half-width r does not
        search: z outside it (``LipschitzTail.tail``), or, if Lambda > 2r, chords longer than 2r."""
        if r <= 0:
            return math.inf
        t = self.tail_bounds.tail(self.growth, float(np.linalg.norm(x)), self.Lambda, r)
        if self.Lambda > 2 * r:
            t = max(t, self.tail_bounds.long_chords(2 * r))
        return t

    def smooth_sensitivity_certified(self, points: ArrayLike, *, max_radius: float | None = None) -> CertifiedSensitivity:
        """B*(x) (004 Def. 9) per point, with a certificate or an explicit INCONCLUSIVE.

        1. the candidate sets of 004 Sec. 3.3 (corrected) in the window of half-width ``radius``;
        2. an independent search of the definition B*(x) = sup_{z, w} |f(w) - f(z)|/||w - z||/g0(||z - x||)
           in the same window (brute force; the maximiser re-evaluated in mpmath: a lower bound);
        3. the window rule: the pairs outside the window contribute at most T(r) (``_outside``: M/g0(r)
           from a bound M on L_{f,Lambda}, or the polynomial bound; chords longer than 2r at most
           min(M, osc f)/(2r)); where T(r) exceeds the value found and no ``domain`` was given, the
           window grows to the smallest r (doubling, up to ``max_radius``, default 4 radius) with
           T(r) <= value and steps 1-2 are repeated there.
        A point is certified when step 1 completed, step 2 did not exceed it by more than 1e-9
        relative, and T(r) <= value; otherwise its value is the largest lower bound found and it is
        flagged INCONCLUSIVE with the reason.  ``method='brute'`` is a search: never certified."""
        P = self._points(points)
        n = P.shape[0]
        r_max = 4.0 * self.radius if max_radius is None else check_positive("max_radius", max_radius)
        if self.method == "brute":
            lb = np.asarray(brute_smooth_sensitivity(self.spec.f, P, self.growth, self.Lambda,
                                                     **self._brute_kw()).value, dtype=float)
            why = "method='brute' is a search of the definition: a lower bound, not a certified supremum"
            return CertifiedSensitivity(lb, np.full(n, np.nan), lb, np.zeros(n, dtype=bool),
                                        np.full(n, self.radius), np.full(n, np.inf), (why,) * n)
        cand, msgs = self._candidates(P, self.radius, self.domain)
        lb = self._search(P, self.radius, self.domain)
        radius = np.full(n, self.radius)
        tails = np.full(n, np.inf)
        ok = np.zeros(n, dtype=bool)
        reasons = [""] * n
        for i in range(n):
            x = P[i]
            best = float(np.nanmax([cand[i], lb[i], -np.inf]))
            r = self._window_radius(x, self.radius)
            tails[i] = self._outside(x, r)
            if tails[i] > best and self.domain is None and math.isfinite(self._outside(x, r_max)):
                r_new = r
                while self._outside(x, r_new) > best and r_new < r_max:
                    r_new = min(2.0 * r_new, r_max)
                if self._outside(x, r_new) <= best and r_new > r:
                    c2, m2 = self._candidates(P[i : i + 1], r_new, None)
                    l2 = self._search(P[i : i + 1], r_new, None)
                    cand[i], msgs[i] = c2[0], m2[0]
                    lb[i] = float(np.nanmax([lb[i], l2[0], -np.inf]))
                    r = radius[i] = r_new
                    best = float(np.nanmax([cand[i], lb[i], -np.inf]))
                    tails[i] = self._outside(x, r)
            if not math.isfinite(cand[i]):
                reasons[i] = f"the candidate sets of 004 Sec. 3.3 did not complete: {msgs[i]}"
            elif self.d > 2:
                reasons[i] = "no independent search of the definition for d >= 3: the candidate value is not cross-checked"
            elif not math.isfinite(lb[i]):
                reasons[i] = "the independent search of the definition returned no value"
            elif lb[i] > cand[i] * (1 + 1e-9) + 1e-300:
                reasons[i] = (f"the search of the definition found {lb[i]!r} > candidate {cand[i]!r} "
                              f"(relative {lb[i] / cand[i] - 1 if cand[i] > 0 else math.inf:.3g}): the candidate sets "
                              "missed the supremum")
            elif not tails[i] <= best:
                src = self.tail_bounds.source or "none"
                reasons[i] = (f"the window of half-width {r:.6g} is not certified: the pairs outside it may reach "
                              f"{tails[i]:.6g} > {best:.6g} (bounds on L_(f,Lambda) available: {src}; pass "
                              "lipschitz_bound=M (and oscillation_bound for Lambda = inf), or a larger radius)")
            else:
                ok[i] = True
                reasons[i] = (f"candidate sets complete in the window of half-width {r:.6g}, the search of the "
                              f"definition agrees ({lb[i]!r}), outside the window at most {tails[i]:.6g} "
                              f"({self.tail_bounds.source})")
        value = np.fmax(cand, lb)
        return CertifiedSensitivity(value, cand, lb, ok, radius, tails, tuple(reasons))

    def smooth_sensitivity(self, points: ArrayLike, *, details: bool = False):
        """B*(x) = sup_z L_{f,Lambda}(z)/g(x, z) for each point (004 Def. 9), certified.

        Raises :class:`UncertifiedSensitivityError` (with the per-point values, flags and reasons
        attached) unless every point is certified (:meth:`smooth_sensitivity_certified`); a value is
        never returned below a lower bound found.  ``details``: the candidate procedure's
        :class:`GenericResult` (maximisers and strata) for the certified values."""
        res = self.smooth_sensitivity_certified(points)
        if not res.all_certified:
            i = int(np.argmin(res.certified))
            raise UncertifiedSensitivityError(
                f"B* is INCONCLUSIVE at {int(np.sum(~res.certified))} of {res.certified.size} points; first at point "
                f"index {i}, x={self._points(points)[i].tolist()}: value >= {res.value[i]!r}; {res.reasons[i]}", res)
        if not details:
            return res.value
        P = self._points(points)
        out = []
        for r in np.unique(res.radius):  # the maximisers, at the window each value was certified in
            sel = res.radius == r
            entry = piecewise_smooth_sensitivity if self.pw_spec is not None else generic_smooth_sensitivity
            spec = self.pw_spec if self.pw_spec is not None else self.spec
            g = entry(spec, P[sel], domain=self.domain, radius=float(r), return_details=True)
            assert isinstance(g, GenericResult)
            out.append((sel, g))
        z = np.empty_like(P)
        w = np.empty_like(P)
        system = np.empty(P.shape[0], dtype=object)
        for sel, gr in out:
            z[sel], w[sel], system[sel] = gr.z, gr.w, gr.system
        return GenericResult(res.value, z, w, system.astype(str))


def smooth_sensitivity_engine(
    expr: sp.Expr,
    variables: Sequence[sp.Symbol] | sp.Symbol,
    growth: GrowthFunction,
    Lambda: float = math.inf,
    kinks: Sequence[float] | None = None,
    domain: tuple[ArrayLike, ArrayLike] | None = None,
    method: str = "candidates",
    metric: str = "euclidean",
    radius: float = 10.0,
    lipschitz_bound: float | None = None,
    oscillation_bound: float | None = None,
) -> SmoothSensitivityEngine:
    """Build the engine for f = ``expr`` in ``variables`` (004 Sec. 3.3).

    ``kinks``: points where f' is undefined (004 S0), added to those detected from
    Piecewise/Abs/Max/Min conditions: numbers for d = 1; for a piecewise f in d = 2, points of R^2
    (shape (k, 2)) added to the corners (intersections of the kink curves, found with SymPy).  ``domain=(lo, hi)``: search window for the stationary
    points (default: per point, [min(x, kinks) - radius, max(x, kinks) + radius]).
    ``method``: "candidates" (004 Sec. 3.3, corrected) or "brute" (the definitions by search).
    ``lipschitz_bound``: a known M >= L_{f,Lambda}(z) for every z (e.g. the Lipschitz constant of f);
    ``oscillation_bound``: a known bound on sup f - inf f.  They certify the search window of
    :meth:`SmoothSensitivityEngine.smooth_sensitivity` (the sup outside it is at most M/g0(r)); when
    not given they are derived where possible (interval enclosures over R^d, polynomial growth).
    """
    if not isinstance(expr, sp.Expr):
        raise TypeError(f"expr must be a SymPy expression; got {type(expr).__name__}")
    if isinstance(variables, sp.Symbol):
        variables = (variables,)
    variables = tuple(variables)
    if not variables or not all(isinstance(v, sp.Symbol) for v in variables):
        raise TypeError(f"variables must be a non-empty sequence of SymPy symbols; got {variables!r}")
    extra = expr.free_symbols - set(variables)
    if extra:
        raise ValueError(f"expr has free symbols {sorted(map(str, extra))} that are not in variables {list(map(str, variables))}")
    if not isinstance(growth, GrowthFunction):
        raise TypeError(f"growth must be a smoothsens_core.growth.GrowthFunction; got {type(growth).__name__}")
    Lam = check_lambda_value(Lambda)
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}; got method={method!r}")
    if metric != "euclidean":
        raise ValueError(f"metric must be 'euclidean' (004 Sec. 3.3 assumes the l2 metric); got metric={metric!r}")
    radius = check_positive("radius", radius)
    for name, val in (("lipschitz_bound", lipschitz_bound), ("oscillation_bound", oscillation_bound)):
        if val is not None and not (isinstance(val, (int, float, np.integer, np.floating)) and not isinstance(val, bool)
                                    and math.isfinite(float(val)) and float(val) >= 0):
            raise ValueError(f"{name} must be a finite number >= 0 (a known bound); got {name}={val!r}")
    d = len(variables)
    if method == "brute" and d > 2:
        raise ValueError(f"method='brute' supports d in {{1, 2}} variables; got d={d} (use method='candidates')")
    pw = _to_piecewise(expr)
    k_all: list[float] = []
    if d == 1:
        k_all = detect_kinks(pw, variables[0], rewritten=True)
        if kinks is not None:
            for k in np.asarray(kinks, dtype=float).reshape(-1):
                if not np.isfinite(k):
                    raise ValueError(f"kinks must be finite numbers; got kinks={list(kinks)!r}")
                k_all.append(float(k))
        k_all = sorted(set(k_all))
    pw_piecewise = d >= 2 and pw.has(sp.Piecewise) and method == "candidates"
    if d >= 2:
        kin = None
        if kinks is not None and len(kinks):
            kin = np.asarray(kinks, dtype=float)
            if not (pw_piecewise and d == 2):
                raise ValueError(
                    f"kinks in d = {d} are supported for a piecewise f in d = 2 only with method='candidates' "
                    "(points of R^2, shape (k, 2)); use method='brute'")
            if kin.size % 2 or not np.all(np.isfinite(kin)):
                raise ValueError(f"kinks must be finite points of R^2 (shape (k, 2)) for d = 2; got kinks={kinks!r}")
        if pw_piecewise and d >= 3:
            raise ValueError(
                f"a non-smooth f (Piecewise/Abs/Max/Min) in d = {d} is not supported by method='candidates': "
                "its points of non-differentiability form surfaces, and the strata with z or w on them and on "
                "their intersection curves are not implemented (d = 2 is); use a closed form "
                "(e.g. smooth_sensitivity_linear_form)"
            )
    pw_spec, pw_info = None, None
    if pw_piecewise:
        pw_spec, pw_info = build_piecewise_spec(expr, variables, growth, Lam, kinks=kin, label=str(expr))
    if pw_spec is not None:  # f, grad and the rounding magnitude of the flattened f (no SymPy diff of pw)
        systems: list = []
        f_num, grad_num, f_mag = pw_spec.f, pw_spec.grad, pw_spec.f_magnitude
    else:
        b = _Builder(pw, variables, growth, Lam, [[k] for k in k_all])
        systems, _ = candidate_equations(b) if method == "candidates" else ([], True)
        f_num, grad_num, f_mag = _numeric_f(pw, b.grad, variables)
    slopes = [_one_sided_slopes(pw, variables[0], k) for k in k_all] if d == 1 else []
    spec = GenericSpec(
        d=d, f=f_num, grad=grad_num, growth=growth, Lambda=Lam,
        systems=tuple(s for s, _ in systems),
        kinks=np.asarray(k_all, dtype=float).reshape(-1, d) if d == 1 else np.zeros((0, d)),
        kink_slopes=np.asarray(slopes, dtype=float).reshape(-1, 2),
        label=str(expr),
        f_magnitude=f_mag,
    )
    f_mp = sp.lambdify(list(variables), pw, modules="mpmath")
    return SmoothSensitivityEngine(
        expr=expr, variables=variables, growth=growth, Lambda=Lam, kinks=tuple(k_all), domain=domain,
        method=method, radius=radius, spec=spec, equations={s.name: e for s, e in systems}, _f_mp=f_mp,
        pw_spec=pw_spec, pw_info=pw_info,
        tail_bounds=_derive_tail(pw, variables, Lam, lipschitz_bound, oscillation_bound),
    )
