"""004 Def. 8 (1) and (2), and B = B* of Def. 9, for the ramp closed forms, every Lambda in (0, inf], g_E and g_L.

The closed forms (``smoothsens_core/sensitivity/_ramp.py``; one-way threshold 004 Lemma 4.1, bounded
range tent / trapezoid App. C.3, two-way threshold Lemma 4.3 in ``two_way.py``): with d(x) the core's
band distance (signed: d <= 0 in the band), d+ = max(d, 0), w > 0 the band width,

    L(x) = ell(d+(x)),   ell(x) = 1/(x + w)           on [0, Lambda - w]          (piece A),
                                = (Lambda - x)/(w Lambda) on [max(0, Lambda - w), Lambda] (piece B),
                                = 0                   on [Lambda, inf)            (piece C)
                         (Lambda = inf: ell(x) = 1/(x + w) on [0, inf));
    B(x) = Phi(d+(x)),   Phi(d) = max over e in clip({0, d, Lambda - w, Lambda, Lambda - 1/gamma (g_E only)},
                         0, d) of ell(e)/g0(d - e)    (Lambda = inf: e in {0, d}),

g0(r) = e^{gamma r} (g_E) or 1 + gamma r (g_L).  The proof (all w > 0, gamma > 0, Lambda in (0, inf]):

 (a) |f(y) - f(x)| <= clip((|y - x| - d+(x))/w, 0, 1): f is 1/w-Lipschitz with values in [0, 1] and
     constant on the open ball B(x, d+(x)) (d+ 1-Lipschitz and 0 on the band, so the ball lies in
     {d > 0}, on whose connected components f is constant); along the segment from x to y, f(z) =
     f(x) at distance d+ from x (continuity), and |f(y) - f(z)| <= (|y - x| - d+)/w.  Hence
     L_{f,Lambda}(x) <= sup_{0 < r <= Lambda} clip((r - d+)/w, 0, 1)/r, and step ``ell-is-the-sup``
     computes this sup: it is ell(d+) (derivative signs of the two pieces of the quotient, SymPy).
 (b) step ``forms-1d`` / ``two-way-d``: for each form, d+ is 1-Lipschitz, d <= 0 on the band, f is
     constant (0 or 1) on each component of {d > 0} and f = clip(sigma/w) with sigma 1-Lipschitz.
     For the two-way threshold d is continuous (the branches agree on D = R1, D = R2) and |grad d| <= 1
     on each of its 11 cells (SymPy).
 (c) step ``ell-shape`` (ell continuous, ell(0) = 1/w, nonincreasing, >= 0), ``growth`` (g0(0) = 1,
     increasing, submultiplicative), ``piece-maximisers`` (on each piece the maximand h = ell/g0(d - e)
     has ln h convex, or is monotone (a Moebius function), or has ln h concave with the stationary
     point Lambda - 1/gamma; so its max on a closed piece is at an end or at that point) and
     ``case-table`` (for every weak ordering of {0, d, Lambda - w, Lambda, Lambda - 1/gamma}, every
     piece end in [0, d] and every interior stationary point is a clipped candidate): Phi(d) =
     sup_{0<=e<=d} ell(e)/g0(d - e).
 (d) with ell >= 0 nonincreasing and g0 >= 1 nondecreasing, g0(0) = 1, submultiplicative: Phi is
     nonincreasing and Phi(d) <= g0(D) Phi(d + D) (the lemma in ``RELIES_ON``), so (1) B(x) = Phi(d+) >=
     ell(d+)/g0(0) = ell(d+) >= L_{f,Lambda}(x) and (2) B(x) = Phi(d+(x)) <= g0(r) Phi(d+(x) + r) <=
     g0(r) Phi(d+(x')) = g0(r) B(x') with r = |x - x'| (d+(x') <= d+(x) + r).
 (e) step ``attainment``: B = B* of 004 Def. 9.  Every point of each form lies on a normal ray p(rho)
     (straight, unit speed; the full closed formulas d+ and f, every Abs / Max / Min decided by SymPy
     signs along the ray's segments, which join end to end): on the d > 0 side d+ = sgn (rho - rho_e),
     f constant; on the band side (length w) d+ = 0 and f affine with slope 1/w.  (A1) the partner
     p(rho_z - sgn s) has |f - f(z)| = clip((s - d)/w, 0, 1), whose sup over 0 < s <= Lambda is ell(d),
     attained (a); in the band a partner at distance min(Lambda, w/2) gives 1/w: L_{f,Lambda} = ell(d+).
     (A2) z = p(rho_e + sgn e) has d+(z) = e, |x - z| = d+(x) - e for e in [0, d+(x)].  So B*(x) =
     sup_z ell(d+(z))/g0(|x - z|) >= Phi(d+(x)), and <= Phi(d+(x)) (d+ 1-Lipschitz, ell nonincreasing,
     g0 nondecreasing >= 1): B* = Phi(d+) exactly, for every Lambda in (0, inf], g_E and g_L.  For the
     two-way form each of the 11 cells has an explicit unit normal u(p) with grad d . u = -1 (grad D .
     u = 1 on the band cells); the ray from Q0a (Q0b) crosses into H1-S1 (H2-S1), checked as one ray
     whose segments lie in the named cells.

The proof is about the formulas in exact real arithmetic; that the core's floats equal them is a
separate tested fact (:func:`compare_core`).  :func:`prove` returns the JSON record, :func:`recheck`
rebuilds every step from :func:`spec` (never from the record's formulas) and compares; a :class:`Spec`
with a planted error (:func:`controls`) fails a step and :func:`counterexample` certifies, with mpmath at
50 digits, a point where the formula is below the sup.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from .recheck import RecheckResult
from .record import describe_record, register_method

__all__ = ["METHOD", "DOMAIN", "RELIES_ON", "Spec", "spec", "controls", "prove", "recheck", "summary",
           "counterexample", "compare_core", "run_steps"]

METHOD = "ramp-def8"
#: the claim this proof proves (as a part it is quoted by 004-Def-8-smoothness and the closed-form proofs)
CLAIM = "004-Def-8-ramp-proof"
STATEMENT = ("004 Def. 8 (1) B(x) >= L_{f,Lambda}(x) and (2) B(x) <= g0(|x - x'|) B(x') for B = Phi(d+), "
             "Phi(d) = the core's candidate max = sup_{0<=e<=d} ell(e)/g0(d - e), L_{f,Lambda} = ell(d+) "
             "(attained), and B = B* of 004 Def. 9 (the smallest smooth upper bound) exactly")
DOMAIN = ("all w > 0, gamma > 0, Lambda in (0, inf] (finite and Lambda = inf), growth g0 in {g_E(r) = e^{gamma r}, "
          "g_L(r) = 1 + gamma r}; all points x, x' of the one-way threshold (R), the bounded range tent and "
          "trapezoid (R) and the two-way threshold (R^2); for the closed forms L = ell(d+(x)) and B = Phi(d+(x)) "
          "of smoothsens_core/sensitivity/_ramp.py in exact real arithmetic")
RELIES_ON = (
    "segment argument: if f: R^n -> [0, 1] is 1/w-Lipschitz and constant on the open ball B(x, delta), then "
    "|f(y) - f(x)| <= clip((|y - x| - delta)/w, 0, 1) (continuity at distance delta on the segment x -> y)",
    "the Euclidean distance to a set (here D = dist(p, Q0) to the orthant Q0 = {p >= c0}, D = ||max(c0 - p, 0)||) is "
    "1-Lipschitz; |y| and max/min of 1-Lipschitz functions are 1-Lipschitz; clip(., 0, 1) is 1-Lipschitz",
    "a continuous function on R^n that is C^1 with |grad| <= 1 on the interiors of finitely many closed semialgebraic "
    "cells covering R^n is 1-Lipschitz (mean value theorem on the finitely many sub-segments of a generic segment, "
    "continuity for the others); pasting lemma for continuity on a finite closed cover",
    "an open ball is connected: a ball inside the union of two disjoint open sets lies in one of them",
    "a C^1 function with f' >= 0 (<= 0) on an interval is nondecreasing (nonincreasing); a function with convex "
    "logarithm, or monotone, attains its max on a closed interval at an end; a function with concave logarithm "
    "attains it at the stationary point clipped to the interval; a continuous function on a compact interval "
    "attains its max",
    "lemma (d): if ell >= 0 is nonincreasing on [0, inf) and g0 >= 1 nondecreasing with g0(0) = 1 and "
    "g0(a + b) <= g0(a) g0(b), then Phi(d) = sup_{0<=e<=d} ell(e)/g0(d - e) is nonincreasing in d (for d' > d: "
    "e' >= d' - d maps to e = e' - (d' - d) with ell(e') <= ell(e); e' <= d' - d is bounded by ell(0)/g0(d)) and "
    "Phi(d) <= g0(D) Phi(d + D) (restrict the sup of Phi(d + D) to e <= d and use g0(d + D - e) <= g0(D) g0(d - e))",
    "004 Def. 7: L_{f,Lambda}(x) = sup_{0 < |y - x| <= Lambda} |f(y) - f(x)|/|y - x|",
    "004 Def. 9 with 004 Lemma 3.1: B*(x) = sup_z L_{f,Lambda}(z)/g0(|x - z|) is the smallest smooth upper bound",
    "conclusion (e): if L_{f,Lambda}(z) = ell(d+(z)) for every z and every e in [0, d+(x)] is d+(z) of some z with "
    "|x - z| = d+(x) - e, then sup_z ell(d+(z))/g0(|x - z|) = Phi(d+(x)) when d+ is 1-Lipschitz, ell >= 0 "
    "nonincreasing and g0 >= 1 nondecreasing (>= by those z; <= since ell(d+(z))/g0(|x - z|) <= ell(d+(z))/"
    "g0(|d+(x) - d+(z)|), which is <= ell(d+(x)) <= Phi(d+(x)) if d+(z) >= d+(x) and a term of Phi(d+(x)) else)",
    "continuity: f and d+ are continuous, so an identity on the half-open range rho = a + c v/(1 + v), v >= 0 (the "
    "points of [a, a + c)) holds at its closed end; a point moving at unit speed along a straight ray is at "
    "distance |rho - rho'| from its position at rho'",
)

# ---------------------------------------------------------------------------------------------------
# symbols and the specification (the definitions the proof is about)
# ---------------------------------------------------------------------------------------------------
w, Lam, gam, d = sp.symbols("w Lambda gamma d", positive=True)
X = sp.Symbol("X", nonnegative=True)       # the argument of ell
e = sp.Symbol("e", real=True)              # the variable of the sup in Phi
t, u = sp.symbols("t u", positive=True)    # parametrisations
r = sp.Symbol("r", positive=True)
delta = sp.Symbol("delta", nonnegative=True)

LABELS: dict[str, sp.Expr] = {"0": sp.Integer(0), "d": d, "Lam-w": Lam - w, "Lam": Lam, "Lam-1/gam": Lam - 1 / gam}
GROWTHS = {"g_E": sp.exp(gam * r), "g_L": 1 + gam * r}


@dataclass(frozen=True)
class Spec:
    """ell as pieces (name, expression in X, lower-end labels (max of), upper-end label) for finite
    Lambda and for Lambda = inf, and the candidate labels of Phi per growth."""

    pieces: tuple[tuple[str, sp.Expr, tuple[str, ...], str], ...]
    pieces_inf: tuple[tuple[str, sp.Expr, tuple[str, ...], str], ...]
    candidates: Mapping[str, tuple[str, ...]]
    candidates_inf: Mapping[str, tuple[str, ...]]
    name: str = "core"


def spec() -> Spec:
    """The closed forms of ``_ramp.py`` as stated in its module docstring (the definitions proven)."""
    return Spec(
        pieces=(("A", 1 / (X + w), ("0",), "Lam-w"),
                ("B", (Lam - X) / (w * Lam), ("0", "Lam-w"), "Lam"),
                ("C", sp.Integer(0), ("Lam",), "inf")),
        pieces_inf=(("A", 1 / (X + w), ("0",), "inf"),),
        candidates={"g_E": ("0", "d", "Lam-w", "Lam", "Lam-1/gam"), "g_L": ("0", "d", "Lam-w", "Lam")},
        candidates_inf={"g_E": ("0", "d"), "g_L": ("0", "d")},
    )


def controls() -> dict[str, Spec]:
    """Planted false variants (not claims): the g_E candidate set without Lambda - 1/gamma, and ell's
    piece B 1e-6 larger.  Each must fail a step of the proof."""
    s = spec()
    plus = tuple((n, ex + sp.Rational(1, 10**6) if n == "B" else ex, lo, hi) for n, ex, lo, hi in s.pieces)
    return {
        "no-stationary-candidate": replace(s, candidates={**s.candidates, "g_E": ("0", "d", "Lam-w", "Lam")},
                                           name="no-stationary-candidate"),
        "ell-B-plus-1e-6": replace(s, pieces=plus, name="ell-B-plus-1e-6"),
    }


# ---------------------------------------------------------------------------------------------------
# SymPy helpers
# ---------------------------------------------------------------------------------------------------
def _zero(ex: sp.Expr) -> bool:
    """ex == 0 identically: by cancel of a rational normal form first, else by simplify."""
    ex = sp.sympify(ex)
    return ex == 0 or sp.cancel(sp.together(ex)) == 0 or sp.simplify(ex) == 0


def _sign_ok(ex: sp.Expr, want: str) -> bool:
    """``want`` in {"pos", "nonneg", "neg", "nonpos"}: decided by SymPy's assumptions on a simplified form."""
    attr = {"pos": "is_positive", "nonneg": "is_nonnegative", "neg": "is_negative", "nonpos": "is_nonpositive"}[want]
    ex = sp.sympify(ex)
    for form in (lambda q: q, lambda q: sp.factor(sp.together(q)), lambda q: sp.factor(sp.simplify(q))):
        if getattr(form(ex), attr):  # cheaper normal forms first; SymPy's assumptions decide the sign
            return True
    return False


def _s(ex: Any) -> str:
    return sp.sstr(ex)


def _piece_param(lo: tuple[str, ...], hi: str) -> tuple[sp.Expr, str]:
    """A parametrisation X(t) of the interior of a piece of ell (t > 0) and its description."""
    if lo == ("0",):  # t ranges over a superset of the piece when it is bounded: the signs hold on more
        return t, "X = t, t > 0"
    if hi == "inf":
        return LABELS[lo[-1]] + t, f"X = {lo[-1]} + t, t > 0"
    return LABELS[hi] - t, f"X = {hi} - t, 0 < t (< {hi} - max{lo})"


# ---------------------------------------------------------------------------------------------------
# the steps
# ---------------------------------------------------------------------------------------------------
def _step_sup(s: Spec) -> dict[str, Any]:
    """(a): sup_{0 < r <= Lambda} clip((r - delta)/w, 0, 1)/r = ell(delta) for every delta >= 0."""
    q1 = (r - delta) / (w * r)          # delta < r < delta + w
    q2 = 1 / r                          # r >= delta + w
    dq1, dq2 = sp.diff(q1, r), sp.diff(q2, r)
    checks = {
        "dq1/dr = delta/(w r^2) >= 0 (increasing on (delta, delta + w))":
            _zero(dq1 - delta / (w * r**2)) and _sign_ok(dq1, "nonneg"),
        "dq2/dr < 0 (decreasing on [delta + w, inf))": _sign_ok(dq2, "neg"),
        "q1(delta + w) = q2(delta + w) (the quotient is continuous at the end of the ramp)":
            _zero(q1.subs(r, delta + w) - q2.subs(r, delta + w)),
        "q1(delta+) = 0 (r <= delta: the quotient is 0)": _zero(q1.subs(r, delta)),
    }
    # the sup by the position of Lambda: Lambda >= delta + w -> q2(delta + w); delta < Lambda < delta + w ->
    # q1(Lambda); Lambda <= delta -> 0.  In ell's variable X = delta these regimes are the pieces
    # [0, Lambda - w], [max(0, Lambda - w), Lambda], [Lambda, inf).
    want = {(("0",), "Lam-w"): q2.subs(r, delta + w), (("0", "Lam-w"), "Lam"): q1.subs(r, Lam),
            (("Lam",), "inf"): sp.Integer(0)}
    want_inf = {(("0",), "inf"): q2.subs(r, delta + w)}
    for tag, pieces, table in (("finite Lambda", s.pieces, want), ("Lambda = inf", s.pieces_inf, want_inf)):
        got = {(lo, hi): ex for _, ex, lo, hi in pieces}
        checks[f"{tag}: ell's pieces are exactly the regimes of the sup {sorted(table)}"] = set(got) == set(table)
        for key, val in table.items():
            if key in got:
                checks[f"{tag}: ell on {key} = the sup {_s(val)}"] = _zero(got[key].subs(X, delta) - val)
    return {"id": "ell-is-the-sup", "checks": checks,
            "what": "004 Def. 7 with (a): L_{f,Lambda}(x) <= sup_{0<r<=Lambda} clip((r - d+)/w, 0, 1)/r = ell(d+) "
                    "(derivative signs of the quotient's pieces; each piece of ell is the sup in its regime)"}


def _step_shape(s: Spec) -> dict[str, Any]:
    """ell continuous at its breakpoints, ell(0) = 1/w, nonincreasing and >= 0 on each piece."""
    checks: dict[str, bool] = {}
    for tag, pieces in (("finite", s.pieces), ("inf", s.pieces_inf)):
        for (n1, e1, _, h1), (n2, e2, lo2, _) in itertools.pairwise(pieces):
            checks[f"{tag}: ell continuous at {h1} ({n1} = {n2})"] = h1 in lo2 and _zero(
                e1.subs(X, LABELS[h1]) - e2.subs(X, LABELS[h1]))
        for n, ex, lo, hi in pieces:
            if "0" in lo:  # a piece that contains X = 0 for some parameters
                checks[f"{tag}: ell(0) = 1/w on piece {n}"] = _zero(ex.subs(X, 0) - 1 / w)
            xp, how = _piece_param(lo, hi)
            dx = sp.diff(ex, X).subs(X, xp)
            checks[f"{tag}: piece {n} nonincreasing (d ell/dX <= 0 for {how})"] = _sign_ok(dx, "nonpos")
            checks[f"{tag}: piece {n} >= 0 ({how})"] = _sign_ok(ex.subs(X, xp), "nonneg")
    return {"id": "ell-shape", "checks": checks,
            "what": "ell is continuous on [0, inf) with ell(0) = 1/w (= L = B in the band), nonincreasing, >= 0"}


def _step_growth() -> dict[str, Any]:
    a, b = sp.symbols("a b", nonnegative=True)
    checks: dict[str, bool] = {}
    for g, ex in GROWTHS.items():
        checks[f"{g}(0) = 1"] = _zero(ex.subs(r, 0) - 1)
        checks[f"{g}' > 0"] = _sign_ok(sp.diff(ex, r), "pos")
        prod = ex.subs(r, a) * ex.subs(r, b) - ex.subs(r, a + b)
        checks[f"{g}(a) {g}(b) - {g}(a + b) >= 0 (submultiplicative)"] = _zero(prod) if g == "g_E" else (
            _zero(prod - gam**2 * a * b) and _sign_ok(gam**2 * a * b, "nonneg"))
    return {"id": "growth", "checks": checks,
            "what": "g0(0) = 1, g0 increasing, g0(a + b) <= g0(a) g0(b) (hypotheses of lemma (d))"}


def _classify(h: sp.Expr, lo: tuple[str, ...], hi: str) -> tuple[str, list[str], dict[str, bool]]:
    """Shape of e -> h(e) on a piece (interior: e = piece param, d = e + u): ("zero" | "log-convex" |
    "monotone" | "log-concave", stationary labels, checks)."""
    ep, _ = _piece_param(lo, hi)
    checks: dict[str, bool] = {}
    if _zero(h):
        return "zero", [], {"h = 0": True}
    on = {e: ep, d: ep + u}  # interior of the piece, and e < d
    lh = sp.log(h)
    l1 = sp.diff(lh, e)
    l2 = sp.diff(lh, e, 2)
    if _sign_ok(l2.subs(on, simultaneous=True), "pos"):
        return "log-convex", [], {"(ln h)'' > 0": True}
    num, den = sp.fraction(sp.factor(sp.diff(h, e)))
    if e not in num.free_symbols and _sign_ok(den.subs(on, simultaneous=True), "pos"):
        return "monotone", [], {"h' = c/q with c free of e and q > 0": True}
    if _sign_ok(l2.subs(on, simultaneous=True), "neg"):
        checks["(ln h)'' < 0"] = True
        stat = sp.solveset(l1, e, sp.S.Reals)
        labels: list[str] = []
        ok = isinstance(stat, sp.FiniteSet)
        for z in (stat if ok else []):
            lab = next((k for k, v in LABELS.items() if _zero(z - v)), None)
            ok = ok and lab is not None
            labels.append(lab if lab is not None else _s(z))
        checks[f"stationary set {_s(stat)} consists of labels"] = ok
        return "log-concave", labels, checks
    return "unknown", [], {"shape decided": False}


def _step_pieces(s: Spec) -> tuple[dict[str, Any], dict[tuple[str, str, str], tuple[str, list[str]]]]:
    shapes: dict[tuple[str, str, str], tuple[str, list[str]]] = {}
    checks: dict[str, bool] = {}
    result: dict[str, Any] = {}
    for tag, pieces in (("finite", s.pieces), ("inf", s.pieces_inf)):
        for g, g0 in GROWTHS.items():
            for n, ex, lo, hi in pieces:
                h = ex.subs(X, e) / g0.subs(r, d - e)
                kind, stat, ck = _classify(h, lo, hi)
                shapes[(tag, g, n)] = (kind, stat)
                result[f"{tag}/{g}/{n}"] = {"h": _s(h), "shape": kind, "stationary": stat}
                for k, v in ck.items():
                    checks[f"{tag}/{g}/{n}: {k}"] = v
                checks[f"{tag}/{g}/{n}: shape decided"] = kind != "unknown"
    return ({"id": "piece-maximisers", "checks": checks, "result": result,
             "what": "on each piece of ell, h(e) = ell(e)/g0(d - e) is 0, has convex log, is monotone (Moebius), or "
                     "has concave log with its stationary points among the labels: its max on a closed piece is at "
                     "an end or at an interior stationary point"}, shapes)


def _weak_orders(labels: list[str]) -> list[dict[str, int]]:
    out = []
    n = len(labels)
    for ranks in itertools.product(range(n), repeat=n):
        used = set(ranks)
        if used == set(range(len(used))):
            out.append(dict(zip(labels, ranks, strict=True)))
    return out


def _realise(order: dict[str, int]) -> dict[str, Fraction] | None:
    """Label values of a weak ordering (value = rank - rank of "0"), or None if it violates d > 0,
    Lambda > 0, w > 0, gamma > 0."""
    v = {k: Fraction(rk - order["0"]) for k, rk in order.items()}
    if not (v["d"] > 0 and v["Lam"] > 0 and v["Lam"] - v["Lam-w"] > 0 and v["Lam"] - v["Lam-1/gam"] > 0):
        return None
    return v


def _required(pieces, shapes, tag: str, g: str, v: Mapping[str, Fraction]) -> set[Fraction] | None:
    """Every local maximiser candidate of h on [0, d]: ends of the pieces within [0, d] and interior
    stationary points; None when a stationary point is not a label (not decidable by the ordering)."""
    dd = v["d"]
    req: set[Fraction] = set()
    for n, _, lo, hi in pieces:
        a = max(v[k] for k in lo)
        b = dd if hi == "inf" else v[hi]
        a, b = max(a, Fraction(0)), min(b, dd)
        if a > b:
            continue
        req |= {a, b}
        kind, stat = shapes[(tag, g, n)]
        for lab in stat:
            if lab not in v:
                return None
            if a < v[lab] < b:
                req.add(v[lab])
    return req


def _step_table(s: Spec, shapes) -> dict[str, Any]:
    labels = list(LABELS)
    orders = _weak_orders(labels)
    n_real = 0
    fails: list[dict[str, Any]] = []
    checks: dict[str, bool] = {}
    for order in orders:
        v = _realise(order)
        if v is None:
            continue
        n_real += 1
        for g in GROWTHS:
            req = _required(s.pieces, shapes, "finite", g, v)
            cands = {min(max(v[c], Fraction(0)), v["d"]) for c in s.candidates[g]}
            if req is None or not req <= cands:
                fails.append({"growth": g, "ordering": " <= ".join(
                    "{" + ", ".join(k for k in labels if order[k] == i) + "}" for i in range(max(order.values()) + 1)),
                    "values": {k: str(x) for k, x in v.items()},
                    "missing": sorted(str(x) for x in (req or set()) - cands) if req is not None else "undecidable"})
    vinf = {"0": Fraction(0), "d": Fraction(1)}
    for g in GROWTHS:
        req = _required(s.pieces_inf, shapes, "inf", g, vinf)
        cands = {min(max(vinf[c], Fraction(0)), vinf["d"]) for c in s.candidates_inf[g] if c in vinf}
        checks[f"Lambda = inf, {g}: the maximisers {{0, d}} are candidates"] = (
            req is not None and req <= cands and all(c in vinf for c in s.candidates_inf[g]))
    checks[f"finite Lambda: every one of the {n_real} realisable weak orderings of {labels} (g_E and g_L)"] = not fails
    return {"id": "case-table", "checks": checks,
            "result": {"n_weak_orderings": len(orders), "n_realisable": n_real, "failures": fails[:5],
                       "n_failures": len(fails)},
            "what": "for every weak ordering of the labels (realised by exact rationals; piece ends and stationary "
                    "points are labels, so the outcome depends on the ordering only), every local maximiser of h on "
                    "[0, d] is one of the clipped candidates: Phi(d) = the core's candidate max"}


def _step_two_way() -> dict[str, Any]:
    """The two-way threshold's d (two_way.py docstring), c0 = 0 by translation, R2 = R1 + tau."""
    p1, p2 = sp.symbols("p1 p2", real=True)
    R1, tau = sp.symbols("R1 tau", positive=True)
    R2 = R1 + tau
    a, b, k = sp.symbols("a b k", nonnegative=True)
    ap, bp = sp.symbols("a_ b_", positive=True)
    D = sp.sqrt(sp.Max(-p1, 0) ** 2 + sp.Max(-p2, 0) ** 2)
    branch = {"S0": D - R2, "S1": R1 - D + sp.Max(sp.Min(p1, p2), 0), "band": sp.Integer(0)}
    # cells: (name, branch, forward map p(params), inverse map params(p))
    cells = [("Q0a", "S1", {p1: a, p2: a + k}, {a: p1, k: p2 - p1}),
             ("Q0b", "S1", {p1: b + k, p2: b}, {b: p2, k: p1 - p2})]
    for reg in ("S1", "band", "S0"):
        cells += [(f"H1-{reg}", reg, {p1: -ap, p2: b}, {ap: -p1, b: p2}),
                  (f"H2-{reg}", reg, {p1: a, p2: -bp}, {a: p1, bp: -p2}),
                  (f"Q3-{reg}", reg, {p1: -ap, p2: -bp}, {ap: -p1, bp: -p2})]
    checks: dict[str, bool] = {}
    result: dict[str, str] = {}
    for name, reg, fwd, inv in cells:
        f_par = branch[reg].subs(fwd, simultaneous=True)
        if f_par.has(sp.Max, sp.Min):
            checks[f"{name}: branch {reg} resolved by the cell's signs"] = False
            continue
        f_p = f_par.subs(inv, simultaneous=True)
        grad2 = sp.diff(f_p, p1) ** 2 + sp.diff(f_p, p2) ** 2
        checks[f"{name}: |grad d|^2 <= 1"] = _sign_ok((1 - grad2).subs(fwd, simultaneous=True), "nonneg")
        result[name] = _s(f_p)
    # continuity: the branches agree where the region changes (pasting lemma on {D >= R2}, {R1 <= D <= R2}, {D <= R1})
    checks["D = R2: branch S0 = D - R2 = 0 = band"] = _zero(branch["S0"].subs(D, R2))
    for qname, fwd in (("H1", {p1: -ap, p2: b}), ("H2", {p1: a, p2: -bp}), ("Q3", {p1: -ap, p2: -bp})):
        dq = D.subs(fwd, simultaneous=True)
        s1 = branch["S1"].subs(fwd, simultaneous=True)
        checks[f"D = R1 on {qname} (D > 0 there): branch S1 = R1 - D + 0 = 0"] = _zero(s1 - (R1 - dq)) and _sign_ok(dq, "pos")
    checks["Q0 (p >= 0): D = 0 < R1, so Q0 lies in S1"] = _zero(D.subs({p1: a, p2: b}))
    # f = clip((R2 - D)/tau, 0, 1): 1 on S1 (D = R1 - t), 0 on S0 (D = R2 + t); d > 0 on both
    checks["S1: (R2 - D)/tau >= 1 (f = 1)"] = _sign_ok(((R2 - (R1 - t)) / tau - 1), "pos")
    checks["S0: (R2 - D)/tau <= 0 (f = 0)"] = _sign_ok(((R2 - (R2 + t)) / tau), "neg")
    checks["S0: d = D - R2 > 0 (D = R2 + t)"] = _sign_ok(branch["S0"].subs(D, R2 + t), "pos")
    checks["S1: d >= R1 - D > 0 (D = R1 - t; max(min(p1, p2), 0) >= 0)"] = _sign_ok(
        (R1 - D).subs(D, R1 - t), "pos") and _sign_ok(sp.Max(sp.Min(p1, p2), 0), "nonneg")
    return {"id": "two-way-d", "checks": checks, "result": result,
            "what": "two-way threshold (two_way.py): d continuous (branches agree on D = R1, D = R2), |grad d| <= 1 on "
                    "each of 11 cells covering R^2 (quadrants of p - c0 x {S1, band, S0}, Q0 split at p1 = p2), so d is "
                    "1-Lipschitz and d = 0 on the band; d > 0 and f constant (1 on S1, 0 on S0) on the open sets "
                    "S1 = {D < R1}, S0 = {D > R2}; f = clip((R2 - D)/tau, 0, 1) with D 1-Lipschitz, w = tau"}


def _step_forms_1d() -> dict[str, Any]:
    """One-way threshold and bounded range: d, the band, f constant off the band (y = x - T or x - m)."""
    tau, W, Bq = sp.symbols("tau W B", positive=True)
    Bn = sp.Symbol("B", nonnegative=True)  # r - l = tau gives B = 0 (no plateau)
    A, An = Bq + tau, Bn + tau  # trapezoid: A = (r - l + tau)/2, B = (r - l - tau)/2 >= 0 (r - l >= tau; B = 0 is the tent-like limit)
    y = sp.Symbol("y", real=True)
    v = sp.Symbol("v", nonnegative=True)
    forms = {
        # name: (d(y), sigma(y) with f = clip(sigma/w), w, off-band components: (param y, expected f))
        # name: (d(y), sigma(y) with f = clip(sigma/w), w, components of {d > 0}: (param y, f there), band params)
        "one-way": (sp.Abs(y) - tau / 2, y + tau / 2, tau, [(tau / 2 + t, 1), (-tau / 2 - t, 0)],
                    [s_ * tau / 2 * v / (1 + v) for s_ in (1, -1)] + [tau / 2, -tau / 2]),
        "tent": (sp.Abs(y) - W, W - sp.Abs(y), W, [(W + t, 0), (-W - t, 0)],
                 [s_ * W * v / (1 + v) for s_ in (1, -1)] + [W, -W]),
        "trapezoid": (sp.Max(sp.Abs(y) - An, Bn - sp.Abs(y)), An - sp.Abs(y), tau, [(An + t, 0), (-An - t, 0)],
                      [s_ * (Bn + tau * v / (1 + v)) for s_ in (1, -1)] + [An, -An]),
        "trapezoid-plateau": (sp.Max(sp.Abs(y) - A, Bq - sp.Abs(y)), A - sp.Abs(y), tau,
                              [(Bq * u / (1 + u), 1), (-Bq * u / (1 + u), 1), (sp.Integer(0), 1)], []),
    }
    checks: dict[str, bool] = {}
    for name, (dy, sig, wid, comps, band) in forms.items():
        for yp in band:  # the rest of R: d <= 0 (so the components listed are all of {d > 0})
            checks[f"{name}: d <= 0 at y = {_s(yp)}"] = _sign_ok(dy.subs(y, yp), "nonpos")
        for yp, fval in comps:
            dv, z = dy.subs(y, yp), sig.subs(y, yp) / wid
            checks[f"{name}: d > 0 at y = {_s(yp)}"] = _sign_ok(dv, "pos")
            checks[f"{name}: f = {fval} at y = {_s(yp)}"] = _sign_ok(z - 1, "nonneg") if fval == 1 else _sign_ok(z, "nonpos")
        for yp in (t, -t):
            checks[f"{name}: |d sigma/dy| = 1 at y = {_s(yp)}"] = _zero(sp.diff(sig, y).subs(y, yp) ** 2 - 1)
    # components: y = c + t (t > 0) is (c, inf); y = +-B u/(1 + u) (u > 0) and y = 0 the plateau (-B, B); the band
    # params y = +-c v/(1 + v) (v >= 0) and the ends cover the rest of R
    return {"id": "forms-1d", "checks": checks,
            "what": "one-way threshold d = |x - T| - tau/2, w = tau; tent d = |x - m| - W, w = W; trapezoid d = max(|x - m| "
                    "- (r - l + tau)/2, (r - l - tau)/2 - |x - m|), w = tau: d is 1-Lipschitz (|.| and max), f = "
                    "clip(sigma/w, 0, 1) with |sigma'| = 1, and on each component of {d > 0} f is constant (0 or 1)"}


# ---------------------------------------------------------------------------------------------------
# attainment: L_{f,Lambda} = ell(d+) and B* = Phi(d+) (the normal rays)
# ---------------------------------------------------------------------------------------------------
def _decide(ex: sp.Expr) -> str | None:
    """"nonneg", "nonpos" or None: the sign SymPy's assumptions give on the cheap normal forms only (the
    expression, then factor(together)); the comparisons of the ray checks are decided there, and an
    undecided one is left unresolved (sound: the identity checked on the result then fails)."""
    for form in (ex, sp.factor(sp.together(ex))):
        if form.is_nonnegative:
            return "nonneg"
        if form.is_nonpositive:
            return "nonpos"
        if form is not ex:
            break
    return None


def _resolve_at(ex: Any, at: Mapping[sp.Symbol, sp.Expr], memo: dict[Any, sp.Expr] | None = None) -> sp.Expr:
    """``ex`` at the point ``at`` with every Max / Min / Abs decided by the signs SymPy's assumptions give
    (cheap normal forms, :func:`_decide`) on its resolved arguments, bottom up, and square roots of
    resolved bases put in factored form; a node whose sign is not decided stays (so an identity check on
    the result fails rather than guesses).  Substitution and decision in one pass: SymPy never builds a
    Max of the substituted arguments (its own simplification of those is slow).  ``memo`` (one point's
    sub-results, e.g. D shared by d+ and f) avoids deciding a repeated sub-expression twice."""
    ex = sp.sympify(ex)
    if ex in at:
        return sp.sympify(at[ex])
    if not ex.args:
        return ex
    if memo is not None and ex in memo:
        return memo[ex]
    out = _resolve_node(ex, [_resolve_at(a, at, memo) for a in ex.args])
    if memo is not None:
        memo[ex] = out
    return out


def _le(a: sp.Expr, b: sp.Expr) -> bool:
    """a <= b decided: by the sign of b - a (:func:`_decide`), or a = Min(...) with an argument <= b, or
    b = Max(...) with an argument >= a (an undecided Min / Max left by :func:`_resolve_node`)."""
    if _decide(b - a) == "nonneg":
        return True
    if isinstance(a, sp.Min) and any(_le(x, b) for x in a.args):
        return True
    return isinstance(b, sp.Max) and any(_le(a, x) for x in b.args)


def _resolve_node(ex: sp.Expr, args: list[sp.Expr]) -> sp.Expr:
    """One node of :func:`_resolve_at` on its resolved arguments."""
    if isinstance(ex, (sp.Max, sp.Min)):
        best = args[0]
        for a in args[1:]:
            if _le(best, a):
                best = a if isinstance(ex, sp.Max) else best
            elif _le(a, best):
                best = best if isinstance(ex, sp.Max) else a
            else:
                return ex.func(*args)
        return best
    if isinstance(ex, sp.Abs):
        sign = _decide(args[0])
        if sign is None:
            return ex.func(*args)
        return args[0] if sign == "nonneg" else -args[0]
    if isinstance(ex, sp.Pow) and ex.exp == sp.Rational(1, 2):
        return sp.sqrt(sp.factor(sp.cancel(args[0])))
    return ex.func(*args)


def _ray_forms() -> dict[str, dict[str, Any]]:
    """The forms as full closed formulas (no case split: Abs / Max / Min), with their normal-ray families.

    A family is (name, point p(rho) (a tuple), edge rho_e, sgn, f_out, segments): on the d > 0 side
    d+(p(rho)) = sgn (rho - rho_e) and f = f_out; on the band side rho runs from rho_e over a length w
    with f = f_out -+ |rho - rho_e|/w.  A segment is (cell, rho as a function of the parameter v >= 0
    (or v > 0), side); the segments of a side cover that side of the ray (half-open ends by continuity)."""
    y = sp.Symbol("y", real=True)
    tau, W, Bq = sp.symbols("tau W B", positive=True)
    Bn = sp.Symbol("B", nonnegative=True)
    An, A = Bn + tau, Bq + tau
    vn = sp.Symbol("v", nonnegative=True)
    vp = sp.Symbol("v", positive=True)
    rho = sp.Symbol("rho", real=True)
    forms: dict[str, dict[str, Any]] = {}

    def one_d(name, dy, sig, wid, fams):
        forms[name] = {"vars": (y,), "dplus": sp.Max(dy, 0), "f": sp.Min(1, sp.Max(0, sig / wid)), "w": wid,
                       "families": fams}

    def fam(name, pt, edge, sgn, fout, out, wid, cell_out="out", cell_band="band", band=None):
        """Segments in chain order from the edge outward (each side)."""
        segs = [(cell_out, o, "out") for o in out] if isinstance(cell_out, str) else \
            [(c, o, "out") for c, o in zip(cell_out, out, strict=True)]
        segs += [(cell_band, bv, "band") for bv in (band or [edge - sgn * wid * vn / (1 + vn)])]
        return {"name": name, "point": pt, "edge": edge, "sgn": sgn, "f_out": fout, "segments": segs}

    half = [tau / 2 - tau / 2 * vn / (1 + vn), -tau / 2 * vn / (1 + vn)]  # the band [-tau/2, tau/2] split at 0
    one_d("one-way", sp.Abs(y) - tau / 2, y + tau / 2, tau,
          [fam("right (f = 1)", (rho,), tau / 2, 1, 1, [tau / 2 + vp], tau, band=half),
           fam("left (f = 0)", (-rho,), tau / 2, 1, 0, [tau / 2 + vp], tau, band=half)])
    one_d("tent", sp.Abs(y) - W, W - sp.Abs(y), W,
          [fam("right", (rho,), W, 1, 0, [W + vp], W), fam("left", (-rho,), W, 1, 0, [W + vp], W)])
    one_d("trapezoid", sp.Max(sp.Abs(y) - An, Bn - sp.Abs(y)), An - sp.Abs(y), tau,
          [fam("right", (rho,), An, 1, 0, [An + vp], tau), fam("left", (-rho,), An, 1, 0, [An + vp], tau)])
    one_d("trapezoid-plateau", sp.Max(sp.Abs(y) - A, Bq - sp.Abs(y)), A - sp.Abs(y), tau,
          [fam("plateau right half", (rho,), Bq, -1, 1, [Bq * vn / (1 + vn)], tau),
           fam("plateau left half", (-rho,), Bq, -1, 1, [Bq * vn / (1 + vn)], tau)])

    # two-way threshold, c0 = 0 by translation: D = dist(p, Q0), d+ and f of two_way.py as one formula
    p1, p2 = sp.symbols("p1 p2", real=True)
    R1 = sp.Symbol("R1", positive=True)
    R2 = R1 + tau
    b = sp.Symbol("b", nonnegative=True)
    D = sp.sqrt(sp.Max(-p1, 0) ** 2 + sp.Max(-p2, 0) ** 2)
    fams = []
    for h, pt in (("H1", (-rho, b)), ("H2", (b, -rho))):
        fams.append(fam(f"{h}-S0 (f = 0)", pt, R2, 1, 0, [R2 + vp], tau, f"{h}-S0", f"{h}-band"))
        q0 = "Q0a" if h == "H1" else "Q0b"
        fams.append(fam(f"{q0} + {h}-S1 (f = 1)", pt, R1, -1, 1, [R1 * vn / (1 + vn), -b / (1 + vn)], tau,
                        [f"{h}-S1", q0], f"{h}-band"))
    # the unit directions of the open quadrant, rationally: (c, s) = ((1 - m^2), 2m)/(1 + m^2), m = q/(1 + q)
    q = sp.Symbol("q", positive=True)
    den = 1 + 2 * q + 2 * q**2
    q3 = (-rho * (1 + 2 * q) / den, -rho * 2 * q * (1 + q) / den)
    fams.append(fam("Q3-S0 (f = 0)", q3, R2, 1, 0, [R2 + vp], tau, "Q3-S0", "Q3-band"))
    fams.append(fam("Q3-S1 (f = 1)", q3, R1, -1, 1, [R1 * vp / (1 + vp)], tau, "Q3-S1", "Q3-band"))
    forms["two-way"] = {"vars": (p1, p2), "w": tau, "families": fams,
                        "dplus": sp.Max(D - R2, 0) + sp.Max(R1 - D + sp.Max(sp.Min(p1, p2), 0), 0),
                        "f": sp.Min(1, sp.Max(0, (R2 - D) / tau))}
    forms["_rho"] = {"rho": rho, "v": (vn, vp)}
    return forms


def _two_way_normals() -> dict[str, Any]:
    """Per cell of the 11-cell cover (c0 = 0; cell formulas of step two-way-d): the explicit unit normal
    u(p), |u| = 1, and grad d . u = -1 on the cells of {d > 0} (d decreases at unit rate toward the band),
    grad D . u = +1 on the band cells (f = (R2 - D)/tau changes at rate 1/tau)."""
    p1, p2 = sp.symbols("p1 p2", real=True)
    R1, tau = sp.symbols("R1 tau", positive=True)
    a, b, k = sp.symbols("a b k", nonnegative=True)
    ap, bp = sp.symbols("a_ b_", positive=True)
    nq = sp.sqrt(p1**2 + p2**2)
    # cell: (d or D formula on the cell, which, u(p), forward map to the cell's parameters)
    cells = {
        "Q0a": (R1 + p1, "d", (-1, 0), {p1: a, p2: a + k}), "Q0b": (R1 + p2, "d", (0, -1), {p1: b + k, p2: b}),
        "H1-S1": (R1 + p1, "d", (-1, 0), {p1: -ap, p2: b}), "H1-band": (-p1, "D", (-1, 0), {p1: -ap, p2: b}),
        "H1-S0": (-p1 - R1 - tau, "d", (1, 0), {p1: -ap, p2: b}),
        "H2-S1": (R1 + p2, "d", (0, -1), {p1: a, p2: -bp}), "H2-band": (-p2, "D", (0, -1), {p1: a, p2: -bp}),
        "H2-S0": (-p2 - R1 - tau, "d", (0, 1), {p1: a, p2: -bp}),
        "Q3-S1": (R1 - nq, "d", (p1 / nq, p2 / nq), {p1: -ap, p2: -bp}),
        "Q3-band": (nq, "D", (p1 / nq, p2 / nq), {p1: -ap, p2: -bp}),
        "Q3-S0": (nq - R1 - tau, "d", (-p1 / nq, -p2 / nq), {p1: -ap, p2: -bp}),
    }
    checks: dict[str, bool] = {}
    result: dict[str, list[str]] = {}
    for name, (fx, which, uu, fwd) in cells.items():
        u1, u2 = (sp.sympify(c) for c in uu)
        dot = sp.diff(fx, p1) * u1 + sp.diff(fx, p2) * u2
        checks[f"{name}: |u|^2 = 1"] = _zero((u1**2 + u2**2 - 1).subs(fwd, simultaneous=True))
        want = -1 if which == "d" else 1
        checks[f"{name}: grad {which} . u = {want}"] = _zero((dot - want).subs(fwd, simultaneous=True))
        result[name] = [_s(u1), _s(u2)]
    return {"checks": checks, "result": result}


def _step_attain() -> dict[str, Any]:
    """(A1) L_{f,Lambda}(z) >= ell(d+(z)) and (A2) every e in [0, d+(x)] is d+(z) of a point z with
    |x - z| = d+(x) - e: along the normal rays of each form (SymPy on the full closed formulas)."""
    forms = _ray_forms()
    rv_syms = forms.pop("_rho")
    rho, forms_v = rv_syms["rho"], rv_syms["v"]
    checks: dict[str, bool] = {}
    result: dict[str, Any] = {}
    for fname, F in forms.items():
        wid = F["w"]
        for fm in F["families"]:
            key = f"{fname}/{fm['name']}"
            pt = [sp.sympify(c) for c in fm["point"]]
            vel = [sp.diff(c, rho) for c in pt]
            checks[f"{key}: the ray is straight at unit speed (|dp/drho|^2 = 1, d2p/drho2 = 0)"] = (
                _zero(sum(c**2 for c in vel) - 1) and all(_zero(sp.diff(c, rho)) for c in vel))
            edge, sgn, fout = fm["edge"], fm["sgn"], fm["f_out"]
            sides: dict[str, list[str]] = {"out": [], "band": []}
            for cell, rv, side in fm["segments"]:
                at = {var: c.subs(rho, rv) for var, c in zip(F["vars"], pt, strict=True)}
                memo: dict[Any, sp.Expr] = {}
                dp = _resolve_at(F["dplus"], at, memo)
                fv = _resolve_at(F["f"], at, memo)
                tag = f"{key} [{cell}, rho = {_s(rv)}]"
                if side == "out":
                    checks[f"{tag}: d+ = sgn (rho - rho_e) > 0 (A2: d falls at unit rate toward the band)"] = (
                        _zero(dp - sgn * (rv - edge)) and _sign_ok(sgn * (rv - edge), "pos"))
                    checks[f"{tag}: f = {fout}"] = _zero(fv - fout)
                else:
                    checks[f"{tag}: d+ = 0 (in the band)"] = _zero(dp)
                    checks[f"{tag}: |f - {fout}| = |rho - rho_e|/w (f affine at slope 1/w over the band)"] = (
                        _zero((fv - fout) ** 2 - ((rv - edge) / wid) ** 2))
                sides[side].append(f"{cell}: rho = {_s(rv)}")
            # the segments chain: each side's parameter ranges [rv(0), rv(oo)] join end to end from rho_e
            v = forms_v[0]
            ends = {}
            for side in ("out", "band"):
                cur, ok = sp.sympify(edge), True
                for _, rv, sd in fm["segments"]:
                    if sd != side:
                        continue
                    rv = rv.subs(forms_v[1], v)
                    a0, a1 = rv.subs(v, 0), sp.limit(rv, v, sp.oo)
                    if _zero(a0 - cur):
                        cur = a1
                    elif a1 != sp.oo and _zero(a1 - cur):
                        cur = a0
                    else:
                        ok = False
                ends[side] = cur if ok else None
            checks[f"{key}: the band side's segments join from rho_e to rho_e - sgn w (length w)"] = (
                ends["band"] is not None and _zero(ends["band"] - (edge - sgn * wid)))
            checks[f"{key}: the d > 0 side's segments join at rho_e (one side of the ray, from the edge)"] = (
                ends["out"] is not None)
            result[key] = {"point": [_s(c) for c in pt], "rho_e": _s(edge), "sgn": int(sgn), "f_out": int(fout),
                           "d>0 side": sides["out"], "band side": sides["band"],
                           "d>0 side reaches": None if ends["out"] is None else _s(ends["out"])}
    nrm = _two_way_normals()
    checks.update({f"two-way normals {k}": v for k, v in nrm["checks"].items()})
    result["two-way cell normals u(p)"] = nrm["result"]
    return {"id": "attainment", "checks": checks, "result": result,
            "what": "each form's points lie on normal rays p(rho) (straight, unit speed; cells listed per segment, the "
                    "segments of a ray covering its d > 0 side and a band side of length w; the rays of a form cover "
                    "every point): on the d > 0 side d+(p(rho)) = sgn (rho - rho_e) and f = f_out, on the band side "
                    "d+ = 0 and |f - f_out| = |rho - rho_e|/w (the full closed formulas, every Abs / Max / Min decided "
                    "by SymPy signs).  Hence (A1) for z = p(rho_z) at d = d+(z) > 0 the partner p(rho_z - sgn s) "
                    "has |f - f(z)| = clip((s - d)/w, 0, 1) for 0 < s <= d + w, whose sup over s <= Lambda is "
                    "ell(d), attained (step ell-is-the-sup: at s = d + w or s = Lambda); in the band a partner at "
                    "distance min(Lambda, w/2) on the band side gives 1/w = ell(0); with (a): L_{f,Lambda} = "
                    "ell(d+).  (A2) for x = p(rho_x), z = p(rho_e + sgn e) has d+(z) = e, |x - z| = d+(x) - e.  "
                    "Two-way: per cell an explicit unit normal u(p) with grad d . u = -1 (grad D . u = 1 on the "
                    "band cells); a ray from Q0a / Q0b crosses into H1-S1 / H2-S1 where the same u holds"}


def run_steps(s: Spec) -> list[dict[str, Any]]:
    """Every step of the proof for the specification ``s`` (each with ``ok`` = all its checks passed)."""
    pieces_step, shapes = _step_pieces(s)
    steps = [_step_sup(s), _step_shape(s), _step_growth(), pieces_step, _step_table(s, shapes),
             _step_forms_1d(), _step_two_way(), _step_attain()]
    for st in steps:
        st["ok"] = all(st["checks"].values())
    return steps


def _record(s: Spec, steps: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    ok = all(st["ok"] for st in steps)
    return {"method": METHOD, "status": "proven" if ok else "failed", "spec": s.name, "domain": DOMAIN,
            "relies_on": list(RELIES_ON), "steps": steps,
            "statement": STATEMENT,
            "seconds": round(seconds, 3)}


def prove(s: Spec | None = None) -> dict[str, Any]:
    """The JSON-able proof record (``status`` "proven" iff every step passed)."""
    t0 = time.perf_counter()
    s = spec() if s is None else s
    steps = run_steps(s)
    return _record(s, steps, time.perf_counter() - t0)


def recheck(record: Mapping[str, Any], *, claim_id: str) -> RecheckResult:
    """Rebuild every step from :func:`spec` and compare with ``record``, as the proof of ``claim_id`` (only
    :data:`CLAIM` is proven by this record): an edited, dropped or added step, another domain / method /
    relies_on / statement, or a failed step is a problem."""
    t0 = time.perf_counter()
    problems: list[str] = []
    if claim_id != CLAIM:
        return RecheckResult(False, [f"claim {claim_id} is not proven by the {METHOD!r} record (only {CLAIM} is)"],
                             0, 0, 0.0)
    if not isinstance(record, Mapping):
        return RecheckResult(False, ["the proof record is not a mapping"], 0, 0, 0.0)
    for key, want in (("method", METHOD), ("domain", DOMAIN), ("relies_on", list(RELIES_ON)), ("status", "proven"),
                      ("spec", "core"), ("statement", STATEMENT)):
        if record.get(key) != want:
            problems.append(f"the record's {key} is not the re-checker's ({record.get(key)!r})")
    fresh = run_steps(spec())
    got = record.get("steps")
    if not isinstance(got, list):
        problems.append("the record has no list of steps")
        got = []
    ids_got, ids_want = [st.get("id") for st in got if isinstance(st, Mapping)], [st["id"] for st in fresh]
    if ids_got != ids_want:
        problems.append(f"the record's steps {ids_got} are not the re-checker's {ids_want}")
    for st in fresh:
        if not st["ok"]:
            problems.append(f"step {st['id']} fails on re-check: "
                            + "; ".join(k for k, v in st["checks"].items() if not v))
        mine = next((q for q in got if isinstance(q, Mapping) and q.get("id") == st["id"]), None)
        if mine is not None and dict(mine) != st:
            problems.append(f"step {st['id']} differs from its re-derivation")
    n = sum(len(st["checks"]) for st in fresh)
    if not got:
        problems.append("the record has no step: nothing is re-checked")
    return RecheckResult(not problems, problems[:20], n, 0, time.perf_counter() - t0)


def summary() -> dict[str, Any]:
    """{"domain", "steps", "relies_on"} for quoting when attaching this proof to 004-Def-8-smoothness."""
    return {"domain": DOMAIN,
            "steps": ["ell-is-the-sup: L_{f,Lambda}(x) <= ell(d+(x)) (segment argument + the 1-D sup, derivative signs)",
                      "ell-shape: ell continuous, ell(0) = 1/w, nonincreasing, >= 0",
                      "growth: g0(0) = 1, g0 increasing, submultiplicative (g_E, g_L)",
                      "piece-maximisers: on each piece ell/g0(d - e) has convex log, is monotone, or has concave log "
                      "with stationary point Lambda - 1/gamma (g_E)",
                      "case-table: every weak ordering of {0, d, Lambda - w, Lambda, Lambda - 1/gamma}: the clipped "
                      "candidates contain every local maximiser, so the core's Phi = sup_{0<=e<=d} ell(e)/g0(d - e)",
                      "forms-1d: one-way threshold, tent, trapezoid: d 1-Lipschitz, f constant off the band",
                      "two-way-d: d continuous, |grad d| <= 1 on 11 cells, f constant on S0, S1",
                      "attainment: normal rays (unit normal per cell, grad d . u = -1): (A1) L_{f,Lambda} = ell(d+) "
                      "(partner at s = d + w or Lambda), (A2) d+ takes every e in [0, d+(x)] at distance d+(x) - e",
                      "conclusion (lemma (d), (e)): (1) B >= ell(d+) = L_{f,Lambda}; (2) B(x) <= g0(|x - x'|) B(x'); "
                      "B = B* of Def. 9"],
            "relies_on": list(RELIES_ON)}


# ---------------------------------------------------------------------------------------------------
# certified counterexamples (controls) and the core's floats (a tested fact)
# ---------------------------------------------------------------------------------------------------
_LAMBDIFIED: dict[tuple[int, bool], tuple[Spec, list[Any]]] = {}


def _lambdified(s: Spec, finite: bool) -> list[Any]:
    """(mpmath function of (X, w, Lambda), lower-end labels, upper-end label) per piece of ell (cached per spec)."""
    key = (id(s), finite)
    hit = _LAMBDIFIED.get(key)
    if hit is None or hit[0] is not s:
        pieces = s.pieces if finite else s.pieces_inf
        hit = (s, [(sp.lambdify((X, w, Lam), ex, "mpmath"), lo, hi) for _, ex, lo, hi in pieces])
        _LAMBDIFIED[key] = hit
    return hit[1]


def _mp_ell(s: Spec, xv, wv, Lv, finite: bool):
    import mpmath as mp  # noqa: PLC0415

    vals = {"0": mp.mpf(0), "Lam-w": Lv - wv, "Lam": Lv, "inf": mp.inf}
    for fn, lo, hi in _lambdified(s, finite):
        a, b = max(vals[k] for k in lo), vals[hi]
        if max(a, 0) <= xv <= b and a <= b:
            return fn(xv, wv, Lv)
    raise ValueError(f"X={xv} in no piece")


def _mp_h(s: Spec, ev, dv, wv, Lv, gv, g: str, finite: bool):
    import mpmath as mp  # noqa: PLC0415

    g0 = mp.exp(gv * (dv - ev)) if g == "g_E" else 1 + gv * (dv - ev)
    return _mp_ell(s, ev, wv, Lv, finite) / g0


def _mp_phi(s: Spec, dv, wv, Lv, gv, g: str, finite: bool):
    """The core's formula for ``s``: the max over the clipped candidates."""
    vals = {"0": 0, "d": dv, "Lam-w": Lv - wv, "Lam": Lv, "Lam-1/gam": Lv - 1 / gv}
    cands = s.candidates[g] if finite else s.candidates_inf[g]
    return max(_mp_h(s, min(max(vals[c], 0), dv), dv, wv, Lv, gv, g, finite) for c in cands)


def counterexample(s: Spec, *, dps: int = 50, n_grid: int = 64) -> dict[str, Any] | None:
    """A point (d, w, Lambda, gamma, growth, e) where h(e) = ell(e)/g0(d - e) exceeds the formula Phi(d)
    of ``s`` by more than 1e-30 (mpmath at ``dps`` digits, the margin far above the working error), or
    None.  Searched over the realisations of the case table and a fixed log-grid of parameters, at
    e on a grid of [0, d] and 1e-12 right of every breakpoint."""
    import mpmath as mp  # noqa: PLC0415

    params: list[tuple[Any, Any, Any, Any]] = []
    for order in _weak_orders(list(LABELS)):
        v = _realise(order)
        if v is not None:
            params.append((v["d"], v["Lam"] - v["Lam-w"], v["Lam"], 1 / (v["Lam"] - v["Lam-1/gam"])))
    for dv, wv, Lv, gv in itertools.product((Fraction(1, 2), Fraction(3), Fraction(19, 2)), (Fraction(1, 4), Fraction(1)),
                                            (Fraction(1, 2), Fraction(2), Fraction(10)),
                                            (Fraction(1, 10), Fraction(9, 10), Fraction(4))):
        params.append((dv, wv, Lv, gv))
    with mp.workdps(dps):
        for dq, wq, Lq, gq in params:
            dv, wv, Lv, gv = (mp.mpf(q.numerator) / q.denominator for q in (dq, wq, Lq, gq))
            es = [dv * i / n_grid for i in range(n_grid + 1)]
            es += [b + mp.mpf(10) ** -12 for b in (Lv - wv, Lv - 1 / gv, Lv) if 0 <= b < dv]
            for g in GROWTHS:
                phi = _mp_phi(s, dv, wv, Lv, gv, g, True)
                for ev in es:
                    hv = _mp_h(s, ev, dv, wv, Lv, gv, g, True)
                    if hv - phi > mp.mpf(10) ** -30:
                        return {"spec": s.name, "growth": g, "d": str(dq), "w": str(wq), "Lambda": str(Lq),
                                "gamma": str(gq), "e": mp.nstr(ev, 30), "h(e)": mp.nstr(hv, 30),
                                "formula": mp.nstr(phi, 30), "excess": mp.nstr(hv - phi, 10), "dps": dps}
    return None


def compare_core(n: int = 400, seed: int = 0, dps: int = 30) -> dict[str, Any]:
    """The core's ``ramp_lipschitz`` / ``ramp_smooth_sensitivity`` against mpmath evaluations of ell and
    Phi of :func:`spec` at ``n`` random (d, w, Lambda, gamma) per growth (a tested fact, not part of the
    proof): max relative error."""
    import mpmath as mp  # noqa: PLC0415
    import numpy as np  # noqa: PLC0415

    from smoothsens_core.growth import growth_exp, growth_linear  # noqa: PLC0415
    from smoothsens_core.sensitivity._ramp import ramp_lipschitz, ramp_smooth_sensitivity  # noqa: PLC0415

    rng = np.random.default_rng(seed)
    s = spec()
    worst = 0.0
    where: dict[str, Any] = {}
    with mp.workdps(dps):
        for g, make in (("g_E", growth_exp), ("g_L", growth_linear)):
            for i in range(n):
                wv = float(10 ** rng.uniform(-2, 1))
                Lv = math.inf if i % 5 == 0 else float(wv * 10 ** rng.uniform(-1.5, 1.5))
                gv = float(10 ** rng.uniform(-2, 1) / wv)
                dv = float(rng.choice([-1.0, 1.0, 1.0, 1.0]) * wv * 10 ** rng.uniform(-3, 1.3))
                dp = max(dv, 0.0)
                finite = not math.isinf(Lv)
                Lm = mp.mpf(Lv) if finite else mp.inf
                ell = _mp_ell(s, mp.mpf(dp), mp.mpf(wv), Lm, finite)
                phi = _mp_phi(s, mp.mpf(dp), mp.mpf(wv), Lm, mp.mpf(gv), g, finite)
                core_l = float(ramp_lipschitz(np.array([dv]), wv, Lv)[0])
                core_b = float(ramp_smooth_sensitivity(np.array([dv]), wv, Lv, make(gv))[0])
                for ref, got, what in ((ell, core_l, "ell"), (phi, core_b, "Phi")):
                    err = float(abs(got - ref) / ref) if ref != 0 else float(abs(got))
                    if err > worst:
                        worst, where = err, {"what": what, "growth": g, "d": dv, "w": wv, "Lambda": Lv, "gamma": gv}
    return {"n": 2 * n, "max_rel_err": worst, "worst": where}


@register_method
class RampDef8Method:
    """The method :data:`METHOD` of this module: its record re-checked by :func:`recheck`, which rebuilds every
    step from this module's definitions as the proof of the claim named by the caller."""

    name = METHOD

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
