"""004 Def. 8 for the KDE closed form (kde.py): the chain (i)-(iv) as one re-checkable proof.

Query kappa_t(x) = k(||x - t||/h), k(u) = e^{-u^2/2}, on R^d (d >= 1), bandwidth h > 0, growth
g0(r) = e^{gamma r} (g_E) or 1 + gamma r (g_L), gamma > 0, Lambda = inf (004 Sec. 4.3, Defs. 7-9).
What is proven: kde.py's closed-form formula (exact roots b1, b2 and exact constants a_W, D_min,
P_min) equals B*(x) of 004 Def. 9, for every x, t, h, gamma and both growths; hence, by 004 Lemma 3.1
(B* satisfies Def. 8), it is a g-smooth upper bound of L_{kappa,inf}.  The float implementation's
per-call roots and its series branches are not part of this statement (tested: 004-Lemma-4.6/4.7).

Steps (each machine-checked by SymPy, by the enumerator below, or an interval obligation, or a
standard fact named in ``relies_on``):

(i)   Reduction to radii (004 Lemma 4.5 / App. A.6).  With a = ||w - t||/h, b = ||z - t||/h:
      |kappa(w) - kappa(z)| = |k(a) - k(b)| (SymPy: kappa = k(r/h)); ||w - z|| >= h|a - b| (reverse
      triangle inequality), so every chord of kappa at z is <= |k(a) - k(b)|/(h|a - b|) <= ell(b)/h,
      ell(b) = sup_{a >= 0, a != b} |k(a) - k(b)|/|a - b| (a = b: the chord is 0); on the ray from t
      through z (any ray if z = t) the point w of radius a has ||w - z|| = h|a - b| (SymPy: the norm of
      h(a - b)u, ||u|| = 1, for d = 1, 2, 3; for general d it is absolute homogeneity of the norm), so
      L_{kappa,inf}(z) = ell(b)/h exactly.  In d = 1 the ray is a half-line; points on the other side
      of t have ||w - z|| = h(a + b) >= h|a - b|, inside the same bound.  The sphere ||z - t|| = hb
      is at distance h|b - c| from x (c = ||x - t||/h; reverse triangle inequality, attained on the
      ray through x, SymPy as above; for x = t, c = 0, every point of the sphere is at distance hb),
      and g0 is nondecreasing with g0(0) = 1 (SymPy), so
          B*(x) = sup_z L(z)/g0(||x - z||) = (1/h) sup_{b >= 0} ell(b)/g0(h|b - c|).
(ii)  ell(b) = alpha(b) e^{-alpha^2/2} at the chord partner alpha(b) (the argument in
      verify/claims/sets/proofs_def8.py; obligations 004-KDE-chord-partner-curve and
      004-KDE-chord-tangent); the curve identities chi = 0 and D = 1/alpha - b are re-checked by SymPy.
(iii) d ln ell/db = D(b) (envelope theorem on the regular curve, 004-KDE-chord-partner-curve); with
      F(b) = ln ell(b) - ln g0(h|b - c|), F'(b) = D -+ g (g_E, g = gamma h, b > c / b < c) and, for
      g_L, D - g/(1 + g(b - c)) = [D g/(1 + g(b - c))] (1/g - c - Q(b)) (b > c; Q = 1/D - b) and
      D + g/(1 + g(c - b)) = [D g/(1 + g(c - b))] (1/g + c - P(b)) (b < c; P = b - 1/D): SymPy identities,
      the bracket's sign fixed by the sign of D.
(iv)  The case analysis: :func:`enumerate_cases` takes the shape facts as inputs (strict monotonicity
      of D, Q, P on the segments the shape lemmas state, their values at the segment ends, each tied to
      the obligation proving it), places c at every position relative to the roots that exist in every
      existence pattern (g vs 1/a_W, g vs -D_min for g_E; a_W vs 1/g - c, P_min vs 1/g + c for g_L, each
      <, = or >), derives the sign of F' on every interval and the local maximisers of F on [0, inf)
      (F -> -inf at inf: F <= -1/2 - ln g0(h(b - c))), and checks they are among kde.py's candidates for
      that case (:data:`KDE_CANDIDATES`, transcribed from kde.py), each of whose value formula is F at
      its point under its condition (SymPy).  So max over the candidates = sup F = ln(h B*(x)).

:func:`prove` returns the JSON-able record (``"method": "kde-def8"``); :func:`recheck` rebuilds every
step from this module's definitions (a second maximiser routine: run-length of the sign pattern),
re-checks the interval obligations' box lists, and fails on an edited record.
"""

from __future__ import annotations

import itertools
import time
from functools import lru_cache
from typing import Any, Mapping, Sequence

from .record import describe_record, register_method

__all__ = ["DOMAIN", "RELIES_ON", "OBLIGATIONS", "KDE_CANDIDATES", "SHAPE_FACTS", "sympy_checks", "enumerate_cases",
           "planted_controls", "prove", "recheck", "summary"]

METHOD = "kde-def8"
#: the claim this proof proves (as a part it is quoted by 004-Def-8-smoothness)
CLAIM = "004-Def-8-KDE-proof"
STATEMENT = ("kde.py's closed-form B* (g_E and g_L, Lambda = inf) equals B* of 004 Def. 9, hence is a "
             "g-smooth upper bound of L_{kappa,inf} (004 Def. 8, by 004 Lemma 3.1)")
DOMAIN = ("all x, t in R^d (any d >= 1; x = t included), h > 0, gamma > 0, g in {g_E, g_L}, Lambda = inf: kde.py's "
          "closed-form formula B*(x) = (1/h) max over its candidates, with the exact roots b1, b2 and the exact "
          "constants a_W, D_min, P_min (not the float implementation's per-call roots or series branches)")
RELIES_ON = [
    "004 Lemma 3.1 (B* of Def. 9 is a g-smooth upper bound: Def. 8 (1) and (2))",
    "reverse triangle inequality | ||u|| - ||v|| | <= ||u - v|| (any norm, any d)",
    "absolute homogeneity of the norm: ||s u|| = |s| ||u||",
    "L_{f,inf}(z) (the infimum of the K of 004 Def. 7) is the supremum of the difference quotients at z",
    "the sup of a nonincreasing function of r over {r >= r0} is its value at r0 (g0 nondecreasing)",
    "a continuous function on [u, v], differentiable on (u, v) with f' > 0 (< 0) there, is strictly increasing "
    "(decreasing) on [u, v] (mean value theorem)",
    "intermediate value theorem; a strictly monotone function has at most one zero",
    "a continuous function on [0, inf) tending to -inf attains its sup",
    "envelope theorem for a C^1 parametrised family (step (iii); the curve is regular: 004-KDE-chord-partner-curve)",
]


def _obligation_ids() -> dict[str, str]:
    from . import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)

    return {"curve": O.KDE_SHAPE["curve"], "gE": O.KDE_SHAPE["gE"], "gL": O.KDE_SHAPE["gL"],
            "chord": O.KDE_CHORD_TANGENT}


#: which interval obligations each step rests on (keys of :func:`_obligation_ids`)
OBLIGATIONS = {"(i)": [], "(ii)": ["curve", "chord"], "(iii)": ["curve"], "(iv)": ["curve", "gE", "gL"]}

# -------------------------------------------------------------------------------------------------
# SymPy checks (steps (i)-(iv)): each returns True iff the identity / sign / limit holds
# -------------------------------------------------------------------------------------------------


def _zero(e: Any) -> bool:
    import sympy as sp  # noqa: PLC0415

    return sp.cancel(sp.expand(e)) == 0 or sp.simplify(e) == 0


def _check_kernel_radial() -> bool:
    """kappa_t(x) = exp(-||x - t||^2/(2h^2)) = k(r/h), r = ||x - t||: |kappa(w) - kappa(z)| = |k(a) - k(b)|."""
    import sympy as sp  # noqa: PLC0415

    r, h = sp.symbols("r h", positive=True)
    k = sp.Lambda(sp.Symbol("u"), sp.exp(-sp.Symbol("u") ** 2 / 2))
    return _zero(sp.exp(-r ** 2 / (2 * h ** 2)) - k(r / h))


def _check_ray_distance() -> bool:
    """On a ray t + h s u (||u|| = 1): ||(t + h a u) - (t + h b u)||^2 = h^2 (a - b)^2, for d = 1, 2, 3
    (u = (u_1, .., u_d) with sum u_i^2 = 1 eliminated by substituting u_d^2); so the distance is h|a - b|.
    The same identity with (a, b) = (b, c) is the distance from x = t + h c u to the sphere point on its ray."""
    import sympy as sp  # noqa: PLC0415

    a, b, h = sp.symbols("a b h", nonnegative=True)
    for d in (1, 2, 3):
        u = sp.symbols(f"u1:{d + 1}", real=True)
        sq = sum((h * a * ui - h * b * ui) ** 2 for ui in u)
        sq = sp.expand(sq).subs(u[-1] ** 2, 1 - sum(ui ** 2 for ui in u[:-1]))
        if not _zero(sq - h ** 2 * (a - b) ** 2):
            return False
        if sp.sqrt(sp.factor(h ** 2 * (a - b) ** 2)) != h * sp.Abs(a - b):
            return False
    return True


def _check_growth_monotone() -> bool:
    """g_E = e^{gamma r}, g_L = 1 + gamma r: g0(0) = 1 and g0'(r) > 0 for gamma > 0, r >= 0."""
    import sympy as sp  # noqa: PLC0415

    r = sp.Symbol("r", nonnegative=True)
    gam = sp.Symbol("gamma", positive=True)
    for g0 in (sp.exp(gam * r), 1 + gam * r):
        if g0.subs(r, 0) != 1 or sp.diff(g0, r).is_positive is not True:
            return False
    return True


def _curve() -> tuple[Any, Any, Any, Any]:
    import sympy as sp  # noqa: PLC0415

    s = sp.Symbol("s", real=True)
    T = (s - sp.log(1 + s)) / s ** 2
    a = 1 / sp.sqrt(2 * T)
    return s, a, a - s / a, (1 + s) / a - a


def _check_curve_identities() -> bool:
    """On the curve a^2 = 1/(2T(s)), b = a - s/a: a(a - b) = s and (a^2 - b^2)/2 = ln(1 + s), so
    chi(a, b) = 1 + a(a - b) - e^{(a^2 - b^2)/2} = 0; and D := (k'(a) - k'(b))/((a - b) k'(a)), with
    e^{(a^2 - b^2)/2} = 1 + s, equals 1/a - b = (1 + s)/a - a."""
    import sympy as sp  # noqa: PLC0415

    s, a, b, D = _curve()
    if not (_zero(a * (a - b) - s) and _zero((a ** 2 - b ** 2) / 2 - sp.log(1 + s))):
        return False
    A, S = sp.symbols("A S", positive=True)
    B = A - S / A
    kp = lambda u: -u * sp.exp(-u ** 2 / 2)  # noqa: E731
    Ddef = (kp(A) - kp(B)) / ((A - B) * kp(A))
    Ddef = Ddef.subs(sp.exp(-B ** 2 / 2), sp.exp(-A ** 2 / 2) * (1 + S))  # e^{(a^2 - b^2)/2} = 1 + s
    Ddef = sp.simplify(sp.expand(Ddef) * sp.exp(A ** 2 / 2) / sp.exp(A ** 2 / 2))
    return _zero(Ddef - (1 / A - B)) and _zero((1 + S) / A - A - (1 / A - B))


def _check_curve_ends() -> bool:
    """s -> 0 is b = alpha = 1, D(1) = 0, ell(1) = e^{-1/2}; L = -ln(1 + s) -> inf is b -> inf with
    alpha -> 0, D -> 0 (so D < 0 on (1, inf) increases to the limit 0 after b_m); at b = 0, D = 1/alpha(0) = 1/a_W."""
    import sympy as sp  # noqa: PLC0415

    s, _a, _b, _D = _curve()
    T = (s - sp.log(1 + s)) / s ** 2
    if sp.limit(T, s, 0) != sp.Rational(1, 2):  # T -> 1/2; a, b, D, ell are continuous in (s, T)
        return False
    A = sp.Symbol("A", positive=True)
    a0 = (1 / sp.sqrt(2 * A)).subs(A, sp.Rational(1, 2))
    b0 = a0 - 0 / a0
    if not (a0 == 1 and b0 == 1 and (1 + 0) / a0 - a0 == 0 and a0 * sp.exp(-a0 ** 2 / 2) == sp.exp(-sp.Rational(1, 2))):
        return False
    L = sp.Symbol("L", positive=True)
    sl = sp.exp(-L) - 1
    aL = (1 - sp.exp(-L)) / sp.sqrt(2 * (L - 1 + sp.exp(-L)))  # = 1/sqrt(2 T(s)) (|s| = 1 - e^{-L}, checked)
    if not _zero(aL ** 2 - sl ** 2 / (2 * (sl + L))):
        return False
    bL, DL = aL - sl / aL, (1 + sl) / aL - aL
    if not (sp.limit(DL, L, sp.oo) == 0 and sp.limit(bL, L, sp.oo) == sp.oo and sp.limit(aL, L, sp.oo) == 0):
        return False
    return _zero((1 / A - 0) - 1 / A)  # at b = 0: D = 1/alpha(0) - 0 = 1/a_W


def _check_derivative_signs() -> bool:
    """F' on each side of c (step (iii)) and the sign rewritings the enumerator uses:
    g_E: d/db(-g|b - c|) = -g (b > c), +g (b < c);
    g_L: D - g/(1 + g(b - c)) = [D g/(1 + g(b - c))] (1/g - c - Q), Q = 1/D - b (b > c; bracket > 0 iff D > 0);
         D + g/(1 + g(c - b)) = [D g/(1 + g(c - b))] (1/g + c - P), P = b - 1/D (b < c; bracket < 0 iff D < 0);
         at b = c: D - g = D g (1/g - c - Q(c)) (kde.py's D(c) > g is Q(c) < 1/g - c when D(c) > 0)."""
    import sympy as sp  # noqa: PLC0415

    b, c, D = sp.symbols("b c D", real=True)
    g, e = sp.symbols("g e", positive=True)
    if sp.diff(-g * sp.Abs(b - c), b).subs(b, c + e).simplify() != -g:
        return False
    if sp.diff(-g * sp.Abs(b - c), b).subs(b, c - e).simplify() != g:
        return False
    Fr = sp.diff(-sp.log(1 + g * (b - c)), b)
    Fl = sp.diff(-sp.log(1 + g * (c - b)), b)
    if not (_zero(Fr + g / (1 + g * (b - c))) and _zero(Fl - g / (1 + g * (c - b)))):
        return False
    Q_, P_ = 1 / D - b, b - 1 / D
    ok = _zero(D - g / (1 + g * (b - c)) - D * g / (1 + g * (b - c)) * (1 / g - c - Q_))
    ok = ok and _zero(D + g / (1 + g * (c - b)) - D * g / (1 + g * (c - b)) * (1 / g + c - P_))
    ok = ok and _zero(D - g - D * g * (1 / g - c - (1 / D - c)))
    # the brackets' signs: for b > c resp. b < c the denominators are positive
    return ok and sp.simplify(1 + g * e).is_positive is True


def _check_candidate_values() -> bool:
    """Each kde.py candidate's value formula is F(p) = ln ell(p) - ln g0(g|p - c|) at its point p under its
    condition (written with p = c + e or c = p + e, e > 0): g_E: ell(c); ell(b1) e^{-g(b1 - c)} [c < b1];
    ell(b2) e^{-g(c - b2)} [b2 < c]; e^{-1/2} e^{-g|1 - c|} (ell(1) = e^{-1/2}); g_L: ell(p)/(1 + g|p - c|)."""
    import sympy as sp  # noqa: PLC0415

    c, e, g, lv = sp.symbols("c e g lv", positive=True)
    F = lambda p, lnell, kind: lnell - (g * sp.Abs(p - c) if kind == "exp" else sp.log(1 + g * sp.Abs(p - c)))  # noqa: E731
    checks = [
        (F(c, lv, "exp"), lv),
        (F(c + e, lv, "exp"), lv - g * ((c + e) - c)),  # b1 = c + e > c
        (F(c - e, lv, "exp"), lv - g * (c - (c - e))),  # b2 = c - e < c
        (F(c, lv, "lin"), lv),
        (F(c + e, lv, "lin"), lv - sp.log(1 + g * sp.Abs((c + e) - c))),
        (F(c - e, lv, "lin"), lv - sp.log(1 + g * sp.Abs(c - (c - e)))),
    ]
    for p in (c + e, c - e):  # b = 1 candidates: -1/2 - g|1 - c| and -1/2 - log1p(g|1 - c|), with ell(1) = e^{-1/2}
        checks.append((F(p, sp.log(sp.exp(-sp.Rational(1, 2))), "exp"), -sp.Rational(1, 2) - g * sp.Abs(p - c)))
        checks.append((F(p, -sp.Rational(1, 2), "lin"), -sp.Rational(1, 2) - sp.log(1 + g * sp.Abs(p - c))))
    return all(_zero(x - y) for x, y in checks)


SYMPY_CHECKS = {
    "(i)": ("kernel-radial", "ray-distance", "growth-monotone"),
    "(ii)": ("curve-identities",),
    "(iii)": ("derivative-signs", "curve-ends"),
    "(iv)": ("candidate-values",),
}
_CHECK_FUNS = {"kernel-radial": _check_kernel_radial, "ray-distance": _check_ray_distance,
               "growth-monotone": _check_growth_monotone, "curve-identities": _check_curve_identities,
               "curve-ends": _check_curve_ends, "derivative-signs": _check_derivative_signs,
               "candidate-values": _check_candidate_values}


@lru_cache(maxsize=1)
def sympy_checks() -> dict[str, bool]:
    """Every SymPy check by name -> True/False (cached per process: deterministic)."""
    return {name: bool(fun()) for name, fun in _CHECK_FUNS.items()}


# -------------------------------------------------------------------------------------------------
# Step (iv): the enumerator
# -------------------------------------------------------------------------------------------------
#: The shape facts, as inputs of the enumerator.  Per growth: the segments of [0, inf) (ends named),
#: per segment the rule for sign F' on each side of c: ("const", +-1), or ("mono", fn, theta, orient):
#: fn strictly monotone on the segment (the obligation that proves it), sign F' = orient * sign(fn - theta);
#: ``ends``: the comparison of fn at each segment end with theta, a fixed sign or an existence pattern
#: name ("p1", "p2": each of <, =, > is enumerated).  "inf" ends are limits (fn strictly monotone up to them).
SHAPE_FACTS: dict[str, dict[str, Any]] = {
    "exp": {
        "segments": [("0", "1"), ("1", "b_m"), ("b_m", "inf")],
        "monotone": {  # fn on segment: (direction, obligation key, what)
            ("D", 0): (-1, "gE", "D strictly decreasing on [0, 1] (D_s > 0, b_s < 0)"),
            ("D", 1): (-1, "gE", "D strictly decreasing on [1, b_m] (D_L < 0 before the turn window, D_LL > 0 on it)"),
            ("D", 2): (1, "gE", "D strictly increasing on [b_m, inf) (D_L > 0 after the window, tail r^3 D_L > 0)"),
        },
        # values of D at the ends: D(0) = 1/a_W, D(1) = 0, D(b_m) = D_min < 0, D(inf) = 0 (limit)
        "right": {i: ("mono", "D", "g", 1) for i in range(3)},     # b > c: F' = D - g
        "left": {i: ("mono", "D", "-g", 1) for i in range(3)},     # b < c: F' = D + g = D - (-g)
        "cmp": {  # (fn, end, theta) -> sign of fn(end) - theta, or a pattern name
            ("D", "0", "g"): "p1", ("D", "1", "g"): -1, ("D", "b_m", "g"): -1, ("D", "inf", "g"): -1,
            ("D", "0", "-g"): 1, ("D", "1", "-g"): 1, ("D", "b_m", "-g"): "p2", ("D", "inf", "-g"): 1,
        },
        "patterns": {"p1": "sign(1/a_W - g)", "p2": "sign(D_min + g)"},
    },
    "linear": {
        "segments": [("0", "1"), ("1", "b_P"), ("b_P", "inf")],
        "monotone": {
            ("Q", 0): (1, "gL", "Q = 1/D - b strictly increasing on [0, 1) (Q(0) = a_W, Q -> +inf at 1-)"),
            ("P", 1): (-1, "gL", "P = b - 1/D strictly decreasing on (1, b_P] (P -> +inf at 1+)"),
            ("P", 2): (1, "gL", "P strictly increasing on [b_P, inf) (P >= b -> inf)"),
        },
        # b > c: F' = [+] (1/g - c - Q) on [0, 1) (D > 0), < 0 on [1, inf) (D <= 0);
        # b < c: F' > 0 on [0, 1] (D >= 0), F' = [-] (1/g + c - P) = [+] (P - (1/g + c)) on (1, inf) (D < 0)
        "right": {0: ("mono", "Q", "thR", -1), 1: ("const", -1), 2: ("const", -1)},
        "left": {0: ("const", 1), 1: ("mono", "P", "thL", 1), 2: ("mono", "P", "thL", 1)},
        "cmp": {("Q", "0", "thR"): "p1", ("Q", "1", "thR"): 1,
                ("P", "1", "thL"): 1, ("P", "b_P", "thL"): "p2", ("P", "inf", "thL"): 1},
        "patterns": {"p1": "sign(a_W - (1/g - c))", "p2": "sign(P_min - (1/g + c))"},
    },
}

#: kde.py's candidates (transcribed from smooth_sensitivity_kde / _log_bstar_linear): label -> (point, condition).
#: Points: "c", "1" or a root named by (fn, theta, segment index) as kde.py defines it:
#:   g_E  b1: D(b1) = g on (0, 1);   b2: D(b2) = -g on (1, b_m)        (_stationary_radii)
#:   g_L  b1: Q(b1) = 1/g - c on (c, 1);   b2: P(b2) = 1/g + c on (1, b_P)   (_log_bstar_linear)
#: Conditions: "always", ("lt", x, y) (x < y), ("exists", root), ("cmp_at_c", fn, theta, sign).
KDE_CANDIDATES: dict[str, dict[str, tuple[Any, list[Any]]]] = {
    "exp": {
        "c": ("c", []),
        "1": ("1", []),
        "b1": (("D", "g", 0), [("exists", ("D", "g", 0)), ("lt", "c", ("D", "g", 0))]),
        "b2": (("D", "-g", 1), [("exists", ("D", "-g", 1)), ("lt", ("D", "-g", 1), "c")]),
    },
    "linear": {
        "c": ("c", []),
        "1": ("1", []),
        # c < 1 and D(c) > g, i.e. Q(c) < 1/g - c (SymPy check derivative-signs): the root on (c, 1)
        "b1": (("Q", "thR", 0), [("lt", "c", "1"), ("cmp_at_c", "Q", "thR", -1)]),
        # c > 1, 1/g + c > P_min (pattern p2 = -1) and b2 < c
        "b2": (("P", "thL", 1), [("lt", "1", "c"), ("pattern", "p2", -1), ("lt", ("P", "thL", 1), "c")]),
    },
}


def _end_cmp(facts: Mapping[str, Any], fn: str, end: str, theta: str, pat: Mapping[str, int]) -> int:
    v = facts["cmp"][(fn, end, theta)]
    return pat[v] if isinstance(v, str) else int(v)


def _roots(facts: Mapping[str, Any], pat: Mapping[str, int]) -> dict[int, list[tuple[str, str, int]]]:
    """The roots per segment: (fn, theta, i) where fn - theta has strictly opposite signs at the two ends
    (one root, interior: IVT and strict monotonicity); an end with fn = theta is a landmark already."""
    out: dict[int, list[tuple[str, str, int]]] = {}
    for i, (lo, hi) in enumerate(facts["segments"]):
        seen = set()
        for side in ("left", "right"):
            rule = facts[side][i]
            if rule[0] != "mono":
                continue
            _, fn, th, _ = rule
            if (fn, th) in seen:
                continue
            seen.add((fn, th))
            if (fn, i) not in facts["monotone"]:
                raise ValueError(f"no monotonicity fact for {fn} on segment {i}")
            clo, chi = _end_cmp(facts, fn, lo, th, pat), _end_cmp(facts, fn, hi, th, pat)
            if clo == 0 and chi == 0:
                raise ValueError(f"{fn} = {th} at both ends of a segment where it is strictly monotone")
            if clo * chi < 0:
                out.setdefault(i, []).append((fn, th, i))
    for i, rs in out.items():
        if len(rs) > 1:
            raise ValueError(f"two roots on segment {i}: their order is not determined by the facts: {rs}")
    return out


def _configurations(kind: str) -> list[dict[str, Any]]:
    """Every existence pattern and every position of c: equal to a landmark, or strictly between two."""
    facts = SHAPE_FACTS[kind]
    out = []
    for p1, p2 in itertools.product((-1, 0, 1), repeat=2):
        pat = {"p1": p1, "p2": p2}
        roots = _roots(facts, pat)
        land: list[Any] = []
        for i, (lo, _hi) in enumerate(facts["segments"]):
            land.append(lo)
            land.extend(roots.get(i, []))
        # land: finite landmarks in increasing order (segment ends and the interior roots)
        n = len(land)
        for k in range(2 * n):  # even k: c = land[k/2]; odd k: c strictly between land[(k-1)/2] and the next
            out.append({"kind": kind, "pattern": pat, "landmarks": land, "c_slot": k, "roots": roots})
    return out


def _points(cfg: Mapping[str, Any]) -> list[tuple[set, int]]:
    """The ordered finite points: (labels, segment index of the interval to their right)."""
    facts = SHAPE_FACTS[cfg["kind"]]
    seg_of: dict[Any, int] = {}
    for i, (lo, _hi) in enumerate(facts["segments"]):
        seg_of[lo] = i
    for i, rs in cfg["roots"].items():
        for r in rs:
            seg_of[r] = i
    pts: list[tuple[set, int]] = []
    k = cfg["c_slot"]
    for j, lm in enumerate(cfg["landmarks"]):
        labels = {lm}
        if k == 2 * j:
            labels.add("c")
        pts.append((labels, seg_of[lm]))
        if k == 2 * j + 1:
            pts.append(({"c"}, seg_of[lm]))
    return pts


def _interval_sign(cfg: Mapping[str, Any], seg: int, side: str, after_root: bool) -> int:
    facts = SHAPE_FACTS[cfg["kind"]]
    rule = facts[side][seg]
    if rule[0] == "const":
        return int(rule[1])
    _, fn, th, orient = rule
    lo, hi = facts["segments"][seg]
    clo, chi = _end_cmp(facts, fn, lo, th, cfg["pattern"]), _end_cmp(facts, fn, hi, th, cfg["pattern"])
    root = (fn, th, seg) in cfg["roots"].get(seg, [])
    if root:
        sgn = chi if after_root else clo
    else:
        sgn = clo if clo != 0 else chi  # no sign change: the interior has the nonzero end's sign
    return orient * sgn


def _signs(cfg: Mapping[str, Any]) -> list[int]:
    """sign F' on each open interval between consecutive points (the last one unbounded)."""
    pts = _points(cfg)
    c_idx = next(j for j, (lab, _) in enumerate(pts) if "c" in lab)
    out = []
    for j, (_lab, seg) in enumerate(pts):
        side = "right" if j >= c_idx else "left"
        # past the segment's root iff a root of this segment lies at or before point j
        after = any(isinstance(x, tuple) and x[2] == seg for jj in range(j + 1) for x in pts[jj][0])
        out.append(_interval_sign(cfg, seg, side, after))
    return out


def local_maximisers(cfg: Mapping[str, Any]) -> list[set]:
    """Points p (label sets) with (p = 0 or F' > 0 just left) and F' < 0 just right: the only possible
    maximisers of the continuous, piecewise strictly monotone F (MVT); the sign at inf must be < 0."""
    pts, sg = _points(cfg), _signs(cfg)
    if sg[-1] != -1:
        raise ValueError(f"F' > 0 on the unbounded interval contradicts F -> -inf: {cfg}")
    return [lab for j, (lab, _) in enumerate(pts) if (j == 0 or sg[j - 1] == 1) and sg[j] == -1]


def _order(cfg: Mapping[str, Any], x: Any, y: Any) -> bool:
    """x < y among the configuration's points."""
    pts = _points(cfg)
    ix = next(j for j, (lab, _) in enumerate(pts) if x in lab)
    iy = next(j for j, (lab, _) in enumerate(pts) if y in lab)
    return ix < iy


def _has(cfg: Mapping[str, Any], root: Any) -> bool:
    return any(root in rs for rs in cfg["roots"].values())


def _cmp_at_c(cfg: Mapping[str, Any], fn: str, th: str) -> int | None:
    """sign(fn(c) - theta) when c lies in the segment where fn is the monotone function, else None."""
    facts = SHAPE_FACTS[cfg["kind"]]
    pts = _points(cfg)
    j = next(j for j, (lab, _) in enumerate(pts) if "c" in lab)
    lab, seg = pts[j]
    lo, hi = facts["segments"][seg]
    if (fn, seg) not in facts["monotone"]:
        return None
    if (fn, th, seg) in lab:
        return 0
    if lo in lab:
        return _end_cmp(facts, fn, lo, th, cfg["pattern"])
    # c strictly inside the segment: the sign of the interval (c, next), before / after the root
    after = any((fn, th, seg) in pts[jj][0] for jj in range(j))
    clo, chi = _end_cmp(facts, fn, lo, th, cfg["pattern"]), _end_cmp(facts, fn, hi, th, cfg["pattern"])
    if (fn, th, seg) in cfg["roots"].get(seg, []):
        return chi if after else clo
    return clo if clo != 0 else chi


def kde_set(cfg: Mapping[str, Any], candidates: Mapping[str, tuple[Any, list[Any]]]) -> dict[str, Any]:
    """kde.py's active candidates in this configuration: label -> point."""
    out = {}
    for label, (point, conds) in candidates.items():
        ok = True
        for cond in conds:
            if cond[0] == "exists":
                ok = _has(cfg, cond[1])
            elif cond[0] == "lt":
                ok = all(_has(cfg, v) or not isinstance(v, tuple) for v in cond[1:]) and _order(cfg, cond[1], cond[2])
            elif cond[0] == "cmp_at_c":
                ok = _cmp_at_c(cfg, cond[1], cond[2]) == cond[3]
            elif cond[0] == "pattern":
                ok = cfg["pattern"][cond[1]] == cond[2]
            else:
                raise ValueError(f"unknown condition {cond!r}")
            if not ok:
                break
        if ok:
            if isinstance(point, tuple) and not _has(cfg, point):
                raise ValueError(f"candidate {label} active but its root does not exist: {cfg}")
            out[label] = point
    return out


def _describe(cfg: Mapping[str, Any]) -> str:
    pts = _points(cfg)
    name = lambda x: x if isinstance(x, str) else f"root({x[0]}={x[1]})"  # noqa: E731
    return " < ".join("=".join(sorted(name(x) for x in lab)) for lab, _ in pts) + " < inf; " + ", ".join(
        f"{k}={v:+d}" for k, v in cfg["pattern"].items())


def enumerate_cases(kind: str, candidates: Mapping[str, tuple[Any, list[Any]]] | None = None) -> dict[str, Any]:
    """Every configuration of growth ``kind``: its local maximisers and whether kde.py's active candidates
    (or ``candidates``, for the planted controls) contain them.  Returns {"n", "ok", "missed", "table"}."""
    cands = KDE_CANDIDATES[kind] if candidates is None else candidates
    table, missed = [], []
    for cfg in _configurations(kind):
        maxi = local_maximisers(cfg)
        active = kde_set(cfg, cands)
        pts = set(active.values())
        uncovered = [lab for lab in maxi if not (lab & pts)]
        row = {"case": _describe(cfg), "maximisers": sorted("=".join(sorted(map(str, lab))) for lab in maxi),
               "candidates": sorted(active), "covered": not uncovered}
        table.append(row)
        if uncovered:
            missed.append(row)
    return {"n": len(table), "ok": not missed, "missed": missed, "table": table}


# -------------------------------------------------------------------------------------------------
# Planted controls: a wrong candidate set is caught, and a concrete (g, c) where the dropped one wins
# -------------------------------------------------------------------------------------------------
#: (kind, dropped label, g = gamma h, c): concrete parameters where the dropped candidate is the maximiser
PLANTED = [("exp", "b2", "0.1", "5"), ("exp", "b1", "0.1", "0"), ("linear", "b2", "0.1", "5"), ("linear", "b1", "0.1", "0")]


def _mp_curve(dps: int) -> Any:
    """mpmath evaluators (inside the caller's ``mp.workdps(dps)``) of ell(b) and D(b) = 1/alpha - b on the
    explicit curve a^2 = 1/(2T(s)), b = a - s/a (the chord partner by a bracketed root in s, not in a)."""
    import mpmath as mp  # noqa: PLC0415

    tiny = mp.mpf(10) ** (-(dps // 2))

    def at_s(s):
        a = 1 / mp.sqrt(2 * (s - mp.log1p(s)) / s ** 2)
        return a, a - s / a

    s_w = mp.findroot(lambda s: at_s(s)[1], (mp.mpf("2.4"), mp.mpf("2.6")), solver="anderson")  # b(s_W) = 0

    def s_of_b(b):
        if b == 1:
            return None
        if b == 0:
            return s_w
        if b < 1:  # s in (0, s_W]: b decreasing from 1 to 0
            return mp.findroot(lambda s: at_s(s)[1] - b, (tiny, s_w), solver="anderson")
        hi = mp.mpf(1)  # b > 1: s = e^{-L} - 1, b increasing in L in (0, inf)
        while at_s(mp.expm1(-hi))[1] < b:
            hi *= 2
        return mp.expm1(-mp.findroot(lambda L: at_s(mp.expm1(-L))[1] - b, (tiny, hi), solver="anderson"))

    def ell(b):
        s = s_of_b(b)
        a = mp.mpf(1) if s is None else at_s(s)[0]
        return a * mp.exp(-a * a / 2)

    def D(b):
        s = s_of_b(b)
        if s is None:
            return mp.mpf(0)
        a, bb = at_s(s)
        return 1 / a - bb

    return ell, D


def _golden_max(F: Any, lo: Any, hi: Any, n: int = 120) -> Any:
    import mpmath as mp  # noqa: PLC0415

    r = (mp.sqrt(5) - 1) / 2
    x1, x2 = hi - r * (hi - lo), lo + r * (hi - lo)
    f1, f2 = F(x1), F(x2)
    for _ in range(n):
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + r * (hi - lo)
            f2 = F(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - r * (hi - lo)
            f1 = F(x1)
    return (lo + hi) / 2


def planted_controls(*, dps: int = 50, grid: int = 0) -> list[dict[str, Any]]:
    """For each planted wrong candidate set (kde.py's with one candidate dropped): the enumerator's
    uncovered cases, and at concrete (g, c) an mpmath (``dps`` digits) evaluation of F at the planted
    candidates vs at the dropped one (and, with ``grid`` > 0, the max of F over a grid of ``grid`` + 1
    points of [0, c + 4] refined by golden section): the dropped candidate wins by a margin far above the
    evaluation error (10^-(dps/2))."""
    import mpmath as mp  # noqa: PLC0415

    out = []
    for kind, drop, gs, cs in PLANTED:
        cands = {k: v for k, v in KDE_CANDIDATES[kind].items() if k != drop}
        enum = enumerate_cases(kind, cands)
        with mp.workdps(dps + 10):
            ell, D = _mp_curve(dps + 10)
            g, c = mp.mpf(gs), mp.mpf(cs)
            lo1, hi1, lo2, hi2 = mp.mpf("1e-9"), 1 - mp.mpf("1e-9"), 1 + mp.mpf("1e-9"), mp.mpf(2)
            if kind == "exp":
                F = lambda b, ell=ell, g=g, c=c: mp.log(ell(b)) - g * abs(b - c)  # noqa: E731
                b1 = mp.findroot(lambda b, D=D, g=g: D(b) - g, (lo1, hi1), solver="anderson") if g < D(0) else None
                b2 = mp.findroot(lambda b, D=D, g=g: D(b) + g, (lo2, hi2), solver="anderson")  # D(2) < -g here
            else:
                F = lambda b, ell=ell, g=g, c=c: mp.log(ell(b)) - mp.log1p(g * abs(b - c))  # noqa: E731
                b1 = mp.findroot(lambda b, D=D, g=g, c=c: 1 / D(b) - b - (1 / g - c), (max(c, lo1), hi1),
                                 solver="anderson") if c < 1 and D(c) > g else None
                b2 = mp.findroot(lambda b, D=D, g=g, c=c: b - 1 / D(b) - (1 / g + c), (lo2, hi2),
                                 solver="anderson") if c > 1 else None
            pts = {"c": c, "1": mp.mpf(1), "b1": b1, "b2": b2}
            # the planted set's candidates that are active at (g, c), by kde.py's conditions
            active = {}
            for lab in cands:
                p = pts[lab]
                if p is None or (lab == "b1" and not c < p) or (lab == "b2" and not p < c):
                    continue
                active[lab] = F(p)
            best_planted = max(active.values())
            dropped = F(pts[drop])
            row = {"kind": kind, "dropped": drop, "g": gs, "c": cs, "uncovered_cases": len(enum["missed"]),
                   "uncovered_example": enum["missed"][0]["case"] if enum["missed"] else None,
                   "planted_candidates": sorted(active), "F_planted_max": mp.nstr(best_planted, 20),
                   "F_dropped": mp.nstr(dropped, 20), "dropped_point": mp.nstr(pts[drop], 20),
                   "margin": mp.nstr(dropped - best_planted, 10),
                   "caught": bool(enum["missed"]) and bool(dropped - best_planted > mp.mpf(10) ** (-(dps // 2)))}
            if grid:
                top = c + 4
                bs = [top * k / grid for k in range(grid + 1)]
                vals = [F(b) for b in bs]
                k = max(range(len(vals)), key=lambda i: vals[i])
                bstar = _golden_max(F, bs[max(k - 1, 0)], bs[min(k + 1, grid)])
                row.update({"grid_max": mp.nstr(vals[k], 20), "refined_argmax": mp.nstr(bstar, 20),
                            "refined_max": mp.nstr(F(bstar), 20),
                            "argmax_is_dropped": bool(abs(bstar - pts[drop]) < mp.mpf(10) ** -8),
                            "fine_max_beats_planted": bool(vals[k] > best_planted + mp.mpf(10) ** (-(dps // 2)))})
            out.append(row)
    return out


# -------------------------------------------------------------------------------------------------
# The record, its re-check, the summary attached to the claim
# -------------------------------------------------------------------------------------------------
STEPS = {
    "(i)": "reduction to radii: L_{kappa,inf}(z) = ell(||z - t||/h)/h and B*(x) = (1/h) sup_{b >= 0} "
           "ell(b)/g0(h|b - c|), c = ||x - t||/h (004 Lemma 4.5 / A.6; x = t and d = 1 included)",
    "(ii)": "ell(b) = alpha(b) e^{-alpha^2/2} at the chord partner alpha(b) (chord >= tangent)",
    "(iii)": "d ln ell/db = D(b) = 1/alpha(b) - b on the regular chord-partner curve; F' = D -+ g (g_E) and the "
             "Q / P rewritings of F' (g_L)",
    "(iv)": "sup_b F = max over kde.py's candidates: every local maximiser of F on [0, inf), in every ordering "
            "of c and the roots and every existence pattern, is a candidate (enumerator), and every candidate's "
            "value is F at a point (SymPy)",
}


def _parts() -> list[dict[str, Any]]:
    """The interval obligations (proven and re-checked by :func:`.obligation_check.prove_obligation`, kept
    per process)."""
    from .obligation_check import prove_obligation  # noqa: PLC0415 - needs python-flint

    ids = _obligation_ids()
    out = []
    for key in ("curve", "gE", "gL", "chord"):
        res = prove_obligation(ids[key], "test")
        ev = dict(res.evidence)
        out.append({"key": key, "obligation": ids[key], "status": res.status, "summary": res.reason,
                    "domain": ev.get("domain"), "rebuild": ev.get("rebuild"), "proof": ev.get("proof")})
    return out


def _steps_record() -> list[dict[str, Any]]:
    ids = _obligation_ids()
    checks = sympy_checks()
    steps = []
    for sid, text in STEPS.items():
        st: dict[str, Any] = {"step": sid, "statement": text,
                              "sympy": {name: checks[name] for name in SYMPY_CHECKS.get(sid, ())},
                              "obligations": [ids[k] for k in OBLIGATIONS[sid]]}
        if sid == "(iv)":
            st["enumerator"] = {kind: {k: v for k, v in enumerate_cases(kind).items() if k != "missed"}
                                for kind in ("exp", "linear")}
            st["shape_facts"] = {kind: sorted(f"{fn} on segment {i}: {what} [{ids[ob]}]"
                                              for (fn, i), (_d, ob, what) in f["monotone"].items())
                                 for kind, f in SHAPE_FACTS.items()}
        steps.append(st)
    return steps


def _steps_ok(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    bad = []
    for st in steps:
        for name, ok in st["sympy"].items():
            if not ok:
                bad.append(f"step {st['step']}: SymPy check {name} fails")
        for kind, en in (st.get("enumerator") or {}).items():
            if not en["ok"]:
                bad.append(f"step (iv): a maximiser of F outside kde.py's candidates ({kind})")
    return bad


def prove() -> dict[str, Any]:
    """The JSON-able proof record of 004 Def. 8 for the KDE closed form (status "proven" or "open")."""
    t0 = time.perf_counter()
    parts = _parts()
    steps = _steps_record()
    problems = _steps_ok(steps)
    problems += [f"obligation {p['obligation']} is not proven: {p['summary']}" for p in parts
                 if p["status"] != "proven"]
    return {"method": METHOD, "status": "open" if problems else "proven", "problems": problems, "domain": DOMAIN,
            "statement": STATEMENT,
            "steps": steps, "relies_on": list(RELIES_ON), "threshold": "0",
            "parts": [{"obligation": p["obligation"], "domain": p["domain"], "rebuild": p["rebuild"],
                       "proof": p["proof"]} for p in parts],
            "seconds": round(time.perf_counter() - t0, 3)}


def _maximisers_by_runs(cfg: Mapping[str, Any]) -> list[str]:
    """A second maximiser routine (for :func:`recheck`): merge the sign pattern into runs; a maximiser is
    the end of an increasing run followed by a decreasing one, or the point 0 when the first run decreases."""
    pts, sg = _points(cfg), _signs(cfg)
    word = "".join("+" if s > 0 else "-" for s in sg)
    out = []
    if word.startswith("-"):
        out.append(pts[0][0])
    for j in range(1, len(word)):
        if word[j - 1:j + 1] == "+-":
            out.append(pts[j][0])
    return sorted("=".join(sorted(map(str, lab))) for lab in out)


def recheck(record: Mapping[str, Any], *, claim_id: str) -> Any:
    """Re-derive every step and compare with ``record``, as the proof of ``claim_id`` (only :data:`CLAIM` is
    proven by this record); re-check the obligations' box lists against the obligations this module names."""
    from . import RecheckResult  # noqa: PLC0415
    from .obligation_check import recheck_obligation_proof  # noqa: PLC0415 - needs python-flint
    from ._results import header_problems  # noqa: PLC0415

    t0 = time.perf_counter()
    if claim_id != CLAIM:
        return RecheckResult(False, [f"claim {claim_id} is not proven by the {METHOD!r} record (only {CLAIM} is)"],
                             0, 0, 0.0)
    problems = header_problems(record, method=METHOD, domain=DOMAIN, relies_on=RELIES_ON, statement=STATEMENT)
    # fresh SymPy checks (not cached: re-run)
    fresh = {name: bool(fun()) for name, fun in _CHECK_FUNS.items()}
    problems += [f"SymPy check {n} fails on re-check" for n, ok in fresh.items() if not ok]
    steps = list(record.get("steps") or [])
    if [st.get("step") for st in steps] != list(STEPS):
        problems.append("the record's steps are not (i)-(iv)")
    ids = _obligation_ids()
    for st in steps:
        sid = st.get("step")
        if sid not in STEPS:
            continue
        if st.get("statement") != STEPS[sid]:
            problems.append(f"step {sid}: statement edited")
        if dict(st.get("sympy") or {}) != {n: fresh[n] for n in SYMPY_CHECKS.get(sid, ())}:
            problems.append(f"step {sid}: SymPy checks differ from the re-derived ones")
        if list(st.get("obligations") or []) != [ids[k] for k in OBLIGATIONS[sid]]:
            problems.append(f"step {sid}: obligations differ")
        if sid == "(iv)":
            en = st.get("enumerator") or {}
            for kind in ("exp", "linear"):
                rows = (en.get(kind) or {}).get("table") or []
                cfgs = _configurations(kind)
                if len(rows) != len(cfgs) or (en.get(kind) or {}).get("n") != len(cfgs):
                    problems.append(f"step (iv) {kind}: {len(rows)} cases recorded, {len(cfgs)} re-derived")
                    continue
                for row, cfg in zip(rows, cfgs, strict=True):
                    maxi = _maximisers_by_runs(cfg)
                    active = kde_set(cfg, KDE_CANDIDATES[kind])
                    names = {lab: "=".join(sorted(map(str, next(L for L, _ in _points(cfg) if v in L))))
                             for lab, v in active.items()}
                    covered = all(m in set(names.values()) for m in maxi)
                    if row.get("case") != _describe(cfg) or row.get("maximisers") != maxi \
                            or row.get("candidates") != sorted(active) or row.get("covered") is not True or not covered:
                        problems.append(f"step (iv) {kind}: case {_describe(cfg)} does not re-derive "
                                        f"(maximisers {maxi}, candidates {sorted(active)}, covered {covered})")
                if (en.get(kind) or {}).get("ok") is not True:
                    problems.append(f"step (iv) {kind}: the record does not say every case is covered")
    parts = list(record.get("parts") or [])
    if [p.get("obligation") for p in parts] != [ids[k] for k in ("curve", "gE", "gL", "chord")]:
        problems.append("the record's interval obligations are not the four the steps rest on")
    n_boxes = 0
    for p in parts:
        rb = p.get("rebuild") or {}
        if dict(rb) != {"what": "obligation", "obligation": p.get("obligation"), "scale": "test"}:
            problems.append(f"part {p.get('obligation')}: rebuild record is not the obligation's at its test box")
            continue
        rc = recheck_obligation_proof(str(p.get("obligation")), "test", p.get("proof"))
        n_boxes += rc.n_boxes
        if not rc.ok:
            problems.append(f"part {p.get('obligation')}: " + "; ".join(rc.problems[:3]))
    return RecheckResult(not problems, problems[:20], n_boxes, 128, time.perf_counter() - t0)


def summary() -> dict[str, Any]:
    """{"domain", "steps", "relies_on"} for 004-Def-8-smoothness (the lead attaches it)."""
    ids = _obligation_ids()
    return {"domain": DOMAIN,
            "steps": {sid: {"statement": text, "sympy": list(SYMPY_CHECKS.get(sid, ())),
                            "obligations": [ids[k] for k in OBLIGATIONS[sid]],
                            **({"enumerator": "verify.proof.kde_def8.enumerate_cases('exp'/'linear')"}
                               if sid == "(iv)" else {})}
                      for sid, text in STEPS.items()},
            "relies_on": list(RELIES_ON)}


@register_method
class KdeDef8Method:
    """The method :data:`METHOD` of this module: its record re-checked by :func:`recheck`, which rebuilds every
    step from this module's definitions as the proof of the claim named by the caller."""

    name = METHOD

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
