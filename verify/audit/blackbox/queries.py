"""The queries f whose smooth upper bounds the black-box auditor checks (004 Defs. 7-9, Sec. 4).

A :class:`BoundQuery` bundles what the auditor needs of f, all from the core (or, for a SymPy
expression, from the generic engine of :mod:`derivations.engine`):

* ``f(points)``: f in float, points of shape (n, d);
* ``f_mp(*coords)``: f in mpmath, written here from the paper's definition of each query, used to
  re-evaluate chords |f(w) - f(x)| / ||w - x|| (lower bounds of L_{f,Lambda}(x), 004 Def. 7) at
  high precision;
* ``lipschitz(points)``: L_{f,Lambda} (004 Def. 7), closed forms of the core;
* ``smooth_sensitivity(points)``: the g-smooth sensitivity B* (004 Def. 9), when the core can
  compute it (closed forms; the generic engine for expressions), else None;
* ``special_points``: kinks and band edges, where a bound is most likely to break;
* ``default_domain``: a box around the interesting region (band, kernel centre).

Built-in queries (parameters as in :mod:`smoothsens_core.sensitivity`):
``threshold`` (T, tau; 004 Sec. 4.1.2, Lemma 4.1), ``two-way`` (T1, T2, tau; 004 Sec. 4.2,
Lemma 4.3), ``bounded-range`` (l, r, tau, shape; 004 App. C.3), ``kde`` (t, h; Gaussian kernel
kappa_t of 004 Sec. 4.3, Lemmas 4.5-4.7, Lambda = inf only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import mpmath
import numpy as np
from numpy.typing import NDArray

from smoothsens_core.validation import check_finite_array, check_positive, check_real
from smoothsens_core.growth import GrowthFunction
from smoothsens_core.sensitivity import (
    gaussian_kernel,
    lipschitz_bounded_range,
    lipschitz_kde,
    lipschitz_threshold,
    lipschitz_two_way_threshold,
    smooth_sensitivity_bounded_range,
    smooth_sensitivity_kde,
    smooth_sensitivity_threshold,
    smooth_sensitivity_two_way_threshold,
    soft_bounded_range,
    soft_threshold,
    soft_two_way_threshold,
)
from verify.reference.queries import bounded_range_query_mp, kde_query_mp, threshold_query_mp, two_way_query_mp

__all__ = ["BoundQuery", "BUILTIN_QUERIES", "builtin_query", "expression_query", "resolve_query"]

FloatArray = NDArray[np.float64]
BUILTIN_QUERIES = ("threshold", "two-way", "bounded-range", "kde")
_PARAMS = {"threshold": ("T", "tau"), "two-way": ("T1", "T2", "tau"), "bounded-range": ("l", "r", "tau", "shape"),
           "kde": ("t", "h")}


@dataclass(frozen=True)
class BoundQuery:
    """f, L_{f,Lambda} and B* of one query at fixed growth g and Lambda (see the module docstring)."""

    name: str
    d: int
    f: Callable[[FloatArray], FloatArray]
    f_mp: Callable[..., Any]
    lipschitz: Callable[[FloatArray], FloatArray]
    smooth_sensitivity: Callable[[FloatArray], FloatArray] | None
    special_points: FloatArray
    default_domain: tuple[FloatArray, FloatArray] | None
    scale: float
    source: str
    growth: GrowthFunction
    Lambda: float
    max_bstar_points: int = 100_000
    params: Mapping[str, Any] = field(default_factory=dict)
    #: For a radial query (f depends on ||x - c|| only: the single-kernel KDE), the centre c and the
    #: radius of its structured core (the kernel region, 4h), where the audit spends most of its
    #: exploration on a stratified grid of radii (verify.audit.blackbox.bound); None otherwise.
    radial_centre: tuple[float, ...] | None = None
    radial_core: float = 0.0

    def describe(self) -> str:
        ps = ", ".join(f"{k}={v}" for k, v in self.params.items())
        lam = "inf" if math.isinf(self.Lambda) else f"{self.Lambda:g}"
        return f"{self.name}({ps}), {self.growth.name}(gamma={self.growth.gamma:g}), Lambda={lam}"


def _need(name: str, params: Mapping[str, Any], *keys: str) -> list[Any]:
    missing = [k for k in keys if params.get(k) is None]
    if missing:
        raise ValueError(f"query {name!r} needs the parameter(s) {', '.join(missing)}")
    return [params[k] for k in keys]


def _reach(growth: GrowthFunction, scale: float) -> float:
    """Half-width of the default domain beyond the band: 4 band widths plus 4/gamma (where the
    growth term e^{-gamma d} of B* has decayed by e^-4; g_L decays slower, the same box is used)."""
    return 4.0 * scale + 4.0 / float(growth.gamma)


def builtin_query(name: str, growth: GrowthFunction, Lambda: float = math.inf, **params: Any) -> BoundQuery:
    """A built-in query of the core by name (``threshold``, ``two-way``, ``bounded-range``, ``kde``)."""
    if not isinstance(growth, GrowthFunction):
        raise TypeError(f"growth must be a smoothsens_core.growth.GrowthFunction; got {type(growth).__name__}")
    Lam = math.inf if isinstance(Lambda, (int, float)) and not isinstance(Lambda, bool) and Lambda == math.inf \
        else check_positive("Lambda", Lambda)
    allowed = _PARAMS.get(name)
    if allowed is not None:
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise ValueError(
                f"query {name!r} takes the parameters {', '.join(allowed)}; got unknown {', '.join(unknown)}"
            )
    if name == "threshold":
        T, tau = _need(name, params, "T", "tau")
        T, tau = check_real("T", T), check_positive("tau", tau)
        R = _reach(growth, tau)

        return BoundQuery(
            "threshold", 1,
            lambda P: soft_threshold(P[:, 0], T, tau),
            threshold_query_mp(T, tau),  # 004 Sec. 4.1.2
            lambda P: lipschitz_threshold(P[:, 0], T, tau, Lam),
            lambda P: smooth_sensitivity_threshold(P[:, 0], T, tau, growth, Lam),
            np.array([[T - tau / 2], [T], [T + tau / 2]]),
            (np.array([T - tau / 2 - R]), np.array([T + tau / 2 + R])),
            tau, "004 Sec. 4.1.2, Lemma 4.1", growth, Lam, params={"T": T, "tau": tau},
        )
    if name == "bounded-range":
        l, r, tau = _need(name, params, "l", "r", "tau")
        shape = params.get("shape") or "tent"
        l, r, tau = check_real("l", l), check_real("r", r), check_positive("tau", tau)
        soft_bounded_range(np.zeros(1), l, r, tau, shape)  # validates l < r and the shape
        R = _reach(growth, tau)
        m = 0.5 * (l + r)
        W = (r - l) / 2.0 + tau / 2.0

        edges = [l - tau / 2, m, r + tau / 2] + ([l + tau / 2, r - tau / 2] if shape == "trapezoid" else [])
        return BoundQuery(
            "bounded-range", 1,
            lambda P: soft_bounded_range(P[:, 0], l, r, tau, shape),
            bounded_range_query_mp(l, r, tau, shape),  # 004 App. C.3 / Remark of Sec. 4.1.3
            lambda P: lipschitz_bounded_range(P[:, 0], l, r, tau, Lam, shape),
            lambda P: smooth_sensitivity_bounded_range(P[:, 0], l, r, tau, growth, Lam, shape),
            np.array(sorted(edges)).reshape(-1, 1),
            (np.array([l - tau / 2 - R]), np.array([r + tau / 2 + R])),
            min(tau, W), "004 App. C.3", growth, Lam, params={"l": l, "r": r, "tau": tau, "shape": shape},
        )
    if name == "two-way":
        T1, T2, tau = _need(name, params, "T1", "T2", "tau")
        T1, T2, tau = check_real("T1", T1), check_real("T2", T2), check_positive("tau", tau)
        R1 = tau / math.sqrt(2.0)
        c01, c02 = T1 + tau / 2 + R1, T2 + tau / 2 + R1
        R = _reach(growth, tau) + R1 + tau

        sp = np.array([[c01, c02], [T1 - tau / 2, T2 - tau / 2], [T1 + tau / 2, T2 + tau / 2],
                       [T1 - tau / 2, c02 + tau], [c01 + tau, T2 - tau / 2], [T1, c02 + tau], [c01 + tau, T2]])
        return BoundQuery(
            "two-way", 2,
            lambda P: soft_two_way_threshold(P, T1, T2, tau),
            two_way_query_mp(T1, T2, tau),  # 004 Sec. 4.2
            lambda P: lipschitz_two_way_threshold(P, T1, T2, tau, Lam),
            lambda P: smooth_sensitivity_two_way_threshold(P, T1, T2, tau, growth, Lam),
            sp,
            (np.array([c01 - R, c02 - R]), np.array([c01 + R, c02 + R])),
            tau, "004 Sec. 4.2, Lemma 4.3", growth, Lam, params={"T1": T1, "T2": T2, "tau": tau},
        )
    if name == "kde":
        t, h = _need(name, params, "t", "h")
        t = check_finite_array("t", t).reshape(-1)
        if t.size == 0:
            raise ValueError("t must be a point of R^d with d >= 1; got an empty array")
        h = check_positive("h", h)
        if not math.isinf(Lam):
            raise ValueError(
                f"query 'kde' needs Lambda = inf (the closed forms of 004 Lemmas 4.5-4.7); got Lambda={Lambda!r}"
            )
        d = t.size
        R = 4.0 * h + 2.0 / float(growth.gamma)
        tt = tuple(float(v) for v in t)

        radii = [1.0, 1.5852010652445132]  # c = 1 (steepest point, Claim 4.4), a_W (Lemma 4.7 S_2)
        starts: list[np.ndarray] = [t.copy()]
        for k in range(d):
            for rr in radii:
                for sg in (1.0, -1.0):
                    p = t.copy()
                    p[k] += sg * rr * h
                    starts.append(p)
        return BoundQuery(
            "kde", d,
            lambda P: gaussian_kernel(P, t, h),
            kde_query_mp(tt, h),  # 004 Sec. 4.3
            lambda P: lipschitz_kde(P, t, h),
            lambda P: smooth_sensitivity_kde(P, t, h, growth),
            np.array(starts),
            (t - R, t + R),
            h, "004 Sec. 4.3, Lemmas 4.5-4.7", growth, Lam, params={"t": list(tt), "h": h},
            radial_centre=tt, radial_core=4.0 * h,
        )
    raise ValueError(
        f"unknown query {name!r}; built-in queries are {', '.join(BUILTIN_QUERIES)} (or a SymPy expression)"
    )


def expression_query(expr: Any, growth: GrowthFunction, Lambda: float = math.inf, *,
                     variables: Any = None, kinks: Any = None, max_bstar_points: int | None = None) -> BoundQuery:
    """f given as a SymPy expression: f, L and B* from the generic engine of 004 Sec. 3.3
    (:func:`derivations.engine.smooth_sensitivity_engine`, d in {1, 2}).  B* there costs a
    stationary-point solve per point, so the comparison with B* uses at most ``max_bstar_points``
    (default: 1000 for d = 1 with g_E, whose two-unknown stratum is solved once for all points; 24 else)."""
    import sympy as sp  # noqa: PLC0415 - only expressions need SymPy

    from derivations.engine import smooth_sensitivity_engine  # noqa: PLC0415

    if isinstance(expr, str):
        try:
            expr = sp.sympify(expr)
        except (sp.SympifyError, SyntaxError, TypeError) as exc:
            raise ValueError(f"cannot parse the expression {expr!r}: {' '.join(str(exc).split())}") from None
    if not isinstance(expr, sp.Expr):
        raise TypeError(f"f must be a SymPy expression or a built-in query name; got {type(expr).__name__}")
    if variables is None:
        variables = sorted(expr.free_symbols, key=lambda s: s.name)
    elif isinstance(variables, str):
        variables = [sp.Symbol(v.strip()) for v in variables.split(",") if v.strip()]
    elif isinstance(variables, sp.Symbol):
        variables = [variables]
    variables = list(variables)
    if not variables:
        raise ValueError(f"the expression {expr} has no variables")
    eng = smooth_sensitivity_engine(expr, variables, growth, Lambda, kinks=kinks)
    d = eng.d
    if max_bstar_points is None:
        max_bstar_points = 1000 if d == 1 and growth.kind == "exp" else 24
    f_mp_raw = sp.lambdify(variables, expr, modules="mpmath")

    def f_mp(*x: Any) -> Any:
        return mpmath.mpf(f_mp_raw(*[mpmath.mpf(v) for v in x]))

    sp_pts = np.asarray(eng.kinks, dtype=float).reshape(-1, 1) if d == 1 and eng.kinks else np.zeros((0, d))
    return BoundQuery(
        f"expr[{expr}]", d, eng.f, f_mp, eng.lipschitz, eng.smooth_sensitivity, sp_pts, None, 1.0,
        "004 Sec. 3.3 (generic engine)", growth, eng.Lambda, max_bstar_points=int(max_bstar_points),
        params={"expr": str(expr), "variables": [str(v) for v in variables]},
    )


def resolve_query(f: Any, growth: GrowthFunction, Lambda: float = math.inf,
                  params: Mapping[str, Any] | None = None) -> BoundQuery:
    """A :class:`BoundQuery` from a built-in name (with ``params``), a SymPy expression (``params``
    may hold ``variables`` and ``kinks``) or an existing BoundQuery."""
    params = dict(params or {})
    if isinstance(f, BoundQuery):
        return f
    if isinstance(f, str):
        if f in BUILTIN_QUERIES:
            return builtin_query(f, growth, Lambda, **params)
        raise ValueError(
            f"unknown query {f!r}; built-in queries are {', '.join(BUILTIN_QUERIES)} "
            "(pass an expression as a SymPy object, e.g. sympy.sympify('x**2'))"
        )
    import sympy as sp  # noqa: PLC0415 - only expressions need SymPy

    if isinstance(f, sp.Expr):
        unknown = set(params) - {"variables", "kinks", "max_bstar_points"}
        if unknown:
            raise ValueError(f"an expression query takes variables, kinks; got unknown parameter(s) {sorted(unknown)}")
        return expression_query(f, growth, Lambda, **params)
    raise TypeError(
        f"f must be a built-in query name ({', '.join(BUILTIN_QUERIES)}), a SymPy expression or a BoundQuery; "
        f"got {type(f).__name__}"
    )


def check_domain(domain: Any, d: int) -> tuple[FloatArray, FloatArray]:
    """(lo, hi), each of shape (d,), with lo < hi in every coordinate (else ValueError: no points)."""
    if domain is None:
        raise ValueError("domain must be given as (lo, hi) for this query (no default box is known)")
    try:
        lo_raw, hi_raw = domain
    except (TypeError, ValueError):
        raise ValueError(f"domain must be a pair (lo, hi); got {domain!r}") from None
    lo = np.broadcast_to(check_finite_array("domain lo", lo_raw), (d,)).astype(float) if np.size(lo_raw) in (1, d) \
        else None
    hi = np.broadcast_to(check_finite_array("domain hi", hi_raw), (d,)).astype(float) if np.size(hi_raw) in (1, d) \
        else None
    if lo is None or hi is None:
        raise ValueError(f"domain bounds must be scalars or have {d} coordinates; got lo={lo_raw!r}, hi={hi_raw!r}")
    if not np.all(lo < hi):
        raise ValueError(
            f"domain has no points: need lo < hi in every coordinate; got lo={lo.tolist()}, hi={hi.tolist()}"
        )
    return lo, hi
