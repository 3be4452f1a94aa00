"""004 Def. 8 condition (1), B >= L_{f,Lambda}, for the ramp-profile closed forms.

004 Def. 8 asks of a smooth upper bound B of the pointwise Lipschitz constant L_{f,Lambda} (004 Def. 7:
L_{f,Lambda}(x) = inf{K : |f(x') - f(x)| <= K |x' - x| for all x' with |x' - x| <= Lambda})
  (1) B(x) >= L_{f,Lambda}(x) for all x,   and   (2) B(x) <= g(x, x') B(x') for all x, x'.
Condition (2) is proven in :mod:`verify.proof.obligations` (g_E: ``threshold_def8_objective``; g_L:
``ramp_def8_linear_objective``).  This module proves (1) for Lambda = inf, in two steps:

(a) the closed-form L of the core is an upper bound of every difference quotient of f:
        |f(z) - f(x)| <= L(x) |z - x|   for all x, z      (so L_{f,inf}(x) <= L(x));
(b) the closed-form B* is >= the closed-form L:  B*(x) >= L(x)  for all x.
Together: B*(x) >= L(x) >= L_{f,inf}(x), i.e. (1).  That L(x) *equals* L_{f,inf}(x) (the sup is
attained, at the far band edge) is not needed for (1) and is not proven here: the tested claims
(004-Lemma-4.1, 004-App-C.3, brute force of Def. 7) check it.

The closed forms (``smoothsens_core/sensitivity/_ramp.py``).  Every threshold-type query of 004
Sec. 4 is f(x) = clip(s(x)/w, 0, 1) (or 1 - that) with s 1-Lipschitz and w > 0 the band width:
the one-way threshold (004 Sec. 4.1.2, s = x - T + tau/2, w = tau), the bounded range (004 App. C.3:
tent s = W - |x - m|, w = W = (r - l)/2 + tau/2; trapezoid s = min(x - l + tau/2, r + tau/2 - x),
w = tau) and the two-way threshold (004 Lemma 4.3, along its regions, w = tau).  With
d(x) = dist(s(x), [0, w]) the distance to the band, the core states (Lambda = inf)
        L(x) = 1/(d(x) + w)          (``ramp_lipschitz``),
        B*(x) = max(1/(d + w), (1/w)/g0(d))  for d > 0,  1/w for d <= 0   (``ramp_smooth_sensitivity``,
        004 Lemma 4.1 for g_E: g0(d) = e^{gamma d};  g_L: g0(d) = 1 + gamma d).

Reductions of (a) (stated as ``relies_on`` of the claim):
  R0  |s(z) - s(x)| <= |z - x| (s 1-Lipschitz) and d(x) = dist(s(x), [0, w]) (s is the signed distance to
      the band's edges; checked for each closed form by the core's tests and the tested claims).  Then
      with a = s(x)/w, c = s(z)/w and clip = clip(., 0, 1), ell(a) = 1/(1 + dist(a, [0, 1])):
      |f(z) - f(x)| = |clip(c) - clip(a)| <= ell(a) |c - a| = w L(x) |s(z) - s(x)|/w <= L(x) |z - x|,
      so the 1-D statement in (a, c) suffices (f = 1 - clip(...) has the same |f(z) - f(x)|).
  R1  scaling: w = 1 (a, c as above are the scaled coordinates).
  R2  symmetry: clip(1 - y) = 1 - clip(y) and ell(1 - y) = ell(y), so (a, c) -> (1 - a, 1 - c) maps the
      statement to itself; every (a, c) not in D = {a >= 0, c <= 1} has its mirror image in D, except
  R3  a, c both > 1 or both < 0, where clip(c) = clip(a): the statement is 0 <= ell(a)|c - a|.
On D the statement is proven in two pieces (x in the band, a in [0, 1]; x above it, a >= 1), with the
partner c = 1 - s, s in [0, inf) compactified by :class:`~verify.proof.functions.Objective` (s = 1 is
c = 0, the far band edge where the bound is attained: a bisection point of the chart), and for a >= 1
the chart v = e/(1 + e) in [0, 1] of the distance e = a - 1 in [0, inf] (v = 1 is e = inf).  The
function under proof is the statement itself, built from the pieces of clip and ell on each region,
divided by 1 + s > 0 (finite at s = inf):
        F = (|clip(c) - clip(a)| - ell(a) |c - a|) / (1 + s)  <=  0.
(b) is g0(d) (L - B*) <= 0 (g0 > 0) on d/w in [0, inf) (g_L) and [0, 19/2] (g_E: the domain of the g_E proofs of (2),
|x - T|/tau <= 10; e^{-gamma d} has no finite form at d = inf in the compact chart), gamma w over the
boxes the (2) proofs use.  Inside the band B* = L = 1/w (both closed forms), nothing to prove.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import sympy as sp

from .functions import Objective, Variable, restate_on_box
from .obligation_types import Obligation


def _objective(F: sp.Expr, variables: list[Variable], **kw: Any) -> Objective:
    """The Objective of F on the variables' box, with each symbol restated with the assumptions its
    interval implies (:func:`verify.proof.functions.restate_on_box`): the derivations declare e.g.
    z > 0, the proof box is the closed [0, inf), and the prover accepts a symbol only where its
    assumptions hold on the whole interval."""
    F, variables = restate_on_box(F, variables)
    return Objective(F, variables, **kw)


__all__ = ["RELIES_ON", "COND1_BAND", "COND1_ABOVE", "COND1B_GE", "COND1B_GL", "COND1B_GE_BHI",
           "quotient_objective", "dominates_objective", "obligations", "controls", "mirror_covers"]

Q = Fraction
INF = math.inf

#: obligation ids
COND1_BAND = "004-ramp-Def-8-(1)-quotient-band"
COND1_ABOVE = "004-ramp-Def-8-(1)-quotient-outside"
COND1B_GE = "004-ramp-Def-8-(1)-B-ge-L-g_E"
COND1B_GL = "004-ramp-Def-8-(1)-B-ge-L-g_L"
#: d/w <= 19/2 (|x - T|/tau <= 10 for the one-way threshold): the domain of the g_E proofs of (2)
COND1B_GE_BHI = Q(19, 2)
#: gamma w boxes of the (2) proofs: g_E [1/20, 15/16] u [15/16, 1] u [1, 2] (obligations.catalogue), g_L [0, 64]
GAMMA_GE = (Q(1, 20), Q(2))
GAMMA_GL = (Q(0), Q(64))

RELIES_ON = (
    "004 Def. 8 (1) for Lambda = inf from (a) |f(z) - f(x)| <= L(x)|z - x| for all x, z (so the pointwise Lipschitz "
    "constant L_{f,inf}(x) of 004 Def. 7 is <= L(x)) and (b) B*(x) >= L(x).  (a) is reduced to the 1-D statement "
    "|clip(c) - clip(a)| <= |c - a|/(1 + dist(a, [0, 1])) in a = s(x)/w, c = s(z)/w by: R0 s is 1-Lipschitz and "
    "d(x) = dist(s(x), [0, w]) for each closed form (one-way threshold s = x - T + tau/2; bounded range tent "
    "s = W - |x - m|, trapezoid s = min(x - l + tau/2, r + tau/2 - x); two-way threshold along its regions: "
    "tested, not proven here); R1 scaling w = 1; R2 the symmetry (a, c) -> (1 - a, 1 - c), which maps every (a, c) "
    "outside D = {a >= 0, c <= 1} into D except R3 the pairs with clip(c) = clip(a) (a, c both > 1 or both < 0), where "
    "the statement is 0 <= L|z - x|.  Inside the band (d <= 0) B* = L = 1/w by both closed forms."
)

_V = sp.Symbol("v", real=True)  # x above the band: v = e/(1 + e), e = a - 1 = d(x)/w in [0, inf]
_A = sp.Symbol("a", nonnegative=True)  # x in the band: a = s(x)/w in [0, 1]
_S = sp.Symbol("s", nonnegative=True)  # partner: s = 1 - c = 1 - s(z)/w in [0, inf)
_E = sp.Symbol("e", nonnegative=True)
_QB = sp.Symbol("q", nonnegative=True)  # c below the band: c = -q, q = s - 1 >= 0
_B = sp.Symbol("b", nonnegative=True)  # (b): b = d(x)/w >= 0
_G = sp.Symbol("gamma", nonnegative=True)  # (b): gamma w

#: the pieces of f = clip(y, 0, 1) (R1: w = 1) and of the closed-form L = ell(y) = 1/(1 + dist(y, [0, 1])) on
#: the three regions of y: below the band (y <= 0), in it (0 <= y <= 1), above it (y >= 1)
_CLIP: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "below": lambda y: sp.Integer(0), "band": lambda y: y, "above": lambda y: sp.Integer(1)}
_ELL: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "below": lambda y: 1 / (1 - y), "band": lambda y: sp.Integer(1), "above": lambda y: 1 / y}


def _quotient(a: sp.Expr, region_a: str, c: sp.Expr, region_c: str, ell: Callable[..., sp.Expr]) -> sp.Expr:
    """|clip(c) - clip(a)| - L(a) |c - a| with clip on the given regions (SymPy resolves |.| where the
    symbols' signs decide it)."""
    return sp.Abs(_CLIP[region_c](c) - _CLIP[region_a](a)) - ell(a, region_a) * sp.Abs(c - a)


def _ell_true(a: sp.Expr, region: str) -> sp.Expr:
    return _ELL[region](a)


def quotient_objective(where: str, *, shave: Fraction = Fraction(0), far_end: bool = False) -> Objective:
    """(a) on one piece of D (module doc): F = (|clip(c) - clip(a)| - L(a)|c - a|)/(1 + s) <= 0, c = 1 - s.

    ``where="band"``: a in [0, 1] (x in the transition band, L = 1/w), s in [0, inf) (c <= 1).
    ``where="above"``: a = 1 + v/(1 - v), v in [0, 1] (x outside the band at distance d = e w, e in
    [0, inf]; L = 1/(d + w)), s in [0, inf).
    Controls only: ``shave`` > 0 uses L - shave (a bound 1e-6 too small), ``far_end`` the chord to the far
    end of the tent's support, L = 1/(d + 2w), instead of the chord to the band's far edge (the peak)."""
    if where not in ("band", "above"):
        raise ValueError(f"where must be 'band' or 'above'; got where={where!r}")
    sh = sp.Rational(shave.numerator, shave.denominator)

    def ell(y: sp.Expr, region: str) -> sp.Expr:
        base = 1 / (y + 1) if (far_end and region == "above") else _ell_true(y, region)
        return base - sh

    c_band, c_below = 1 - _S, -_QB
    if where == "band":
        a, reg = _A, "band"
    else:
        a, reg = 1 + _E, "above"
    in_band = _quotient(a, reg, c_band, "band", ell)
    below = _quotient(a, reg, c_below, "below", ell).subs(_QB, _S - 1)
    F = sp.Piecewise((in_band, _S <= 1), (below, True)) / (1 + _S)
    if where == "band":
        first = Variable(_A, Q(0), Q(1))
    else:
        F = F.subs(_E, _V / (1 - _V))
        first = Variable(_V, Q(0), Q(1))
    meta: dict[str, Any] = {"source": "004 Def. 7, Def. 8 (1); the closed forms of Lemma 4.1, App. C.3, Lemma 4.3 (_ramp.py)",
            "region": "x in the band (a = s(x)/w in [0, 1])" if where == "band" else
            "x outside the band (a = 1 + e, e = d(x)/w = v/(1 - v), v in [0, 1])",
            "s": "1 - s(z)/w (the partner z, c = 1 - s <= 1)", "scaling": "w = 1", "Lambda": "inf"}
    if shave:
        meta["shave"] = str(shave)
    if far_end:
        meta["far_end"] = True
    name = ("004 Def. 8 (1)(a): |f(z) - f(x)| <= L(x)|z - x| for the ramp profile, x "
            + ("in the band" if where == "band" else "outside the band"))
    return _objective(F, [first, Variable(_S, Q(0), INF)], name=name, meta=meta)


def dominates_objective(growth: str, b_hi: Fraction | float, gamma_box: tuple[Fraction, Fraction]) -> Objective:
    """(b): F(b, gamma) = g0(b) (L - B*) <= 0 with b = d(x)/w >= 0 (w = 1 by scaling: L = 1/(1 + b),
    B* = max(1/(1 + b), 1/g0(b)), g0 = e^{gamma b} (g_E, 004 Lemma 4.1) or 1 + gamma b (g_L); g0 > 0)."""
    if growth not in ("exp", "linear"):
        raise ValueError(f"growth must be 'exp' or 'linear'; got growth={growth!r}")
    g0 = sp.exp(_G * _B) if growth == "exp" else 1 + _G * _B
    # F = g0 (L - B*) with L = 1/(1 + b), B* = max(1/(1 + b), 1/g0): g0 > 0 keeps the sign and makes the
    # g_L form finite at b = inf for every gamma >= 0 (1/g0 alone is 0/0 at (b, gamma) = (inf, 0))
    F = g0 / (1 + _B) - sp.Max(g0 / (1 + _B), 1)
    hi = INF if b_hi == INF else Q(b_hi)
    return _objective(F, [Variable(_B, Q(0), hi), Variable(_G, Q(gamma_box[0]), Q(gamma_box[1]))],
                     name=f"004 Def. 8 (1)(b): B* >= L for the ramp profile ({'g_E' if growth == 'exp' else 'g_L'})",
                     meta={"source": "004 Def. 8 (1), Lemma 4.1 (_ramp.py ramp_smooth_sensitivity, ramp_lipschitz)",
                           "b": "d(x)/w", "gamma": "gamma w", "scaling": "w = 1", "Lambda": "inf"})


def mirror_covers(a: Fraction, c: Fraction) -> str:
    """Which piece of the proof covers the scaled pair (a, c) (module doc, R2/R3): "band", "above"
    (directly or mirrored) or "equal" (clip(c) = clip(a), R3).  Used by the tests to check that the
    pieces cover the plane."""
    for aa, cc in ((a, c), (1 - a, 1 - c)):
        if aa >= 0 and cc <= 1:
            return "band" if aa <= 1 else "above"
    if (a > 1 and c > 1) or (a < 0 and c < 0):
        return "equal"
    raise AssertionError(f"(a, c) = ({a}, {c}) is covered by no piece")  # pragma: no cover - R2/R3 are exhaustive


def obligations() -> list[Obligation]:
    """The obligations of (a) and (b) (the same boxes at every scale)."""
    q = "|clip(c) - clip(a)| <= |c - a|/(1 + dist(a, [0, 1])) (scaled ramp profile, w = 1), i.e. " \
        "|f(z) - f(x)| <= L(x)|z - x| with L = 1/(d + w)"
    return [
        Obligation(COND1_BAND, "004 Def. 7, Def. 8 (1) (Lemma 4.1, App. C.3, Lemma 4.3 closed forms)",
                   q + ", x in the band", "a = s(x)/w in [0, 1], c = s(z)/w = 1 - s, s in [0, inf) (Lambda = inf)",
                   lambda: quotient_objective("band")),
        Obligation(COND1_ABOVE, "004 Def. 7, Def. 8 (1) (Lemma 4.1, App. C.3, Lemma 4.3 closed forms)",
                   q + ", x outside the band",
                   "a = 1 + d(x)/w, d(x)/w = v/(1 - v), v in [0, 1] (d in [0, inf]), c = 1 - s, s in [0, inf) "
                   "(Lambda = inf)", lambda: quotient_objective("above")),
        Obligation(COND1B_GE, "004 Def. 8 (1), Lemma 4.1 (g_E)",
                   "B*(x) = max(1/(d + w), e^{-gamma d}/w) >= L(x) = 1/(d + w)",
                   f"d/w in [0, {COND1B_GE_BHI}], gamma w in [{GAMMA_GE[0]}, {GAMMA_GE[1]}] (Lambda = inf)",
                   lambda: dominates_objective("exp", COND1B_GE_BHI, GAMMA_GE)),
        Obligation(COND1B_GL, "004 Def. 8 (1), Lemma 4.1 with g_L",
                   "B*(x) = max(1/(d + w), 1/(w (1 + gamma d))) >= L(x) = 1/(d + w)",
                   f"d/w in [0, inf), gamma w in [{GAMMA_GL[0]}, {GAMMA_GL[1]}] (Lambda = inf)",
                   lambda: dominates_objective("linear", INF, GAMMA_GL)),
    ]


#: control ids
CONTROL_SHAVE = "control-ramp-Def-8-(1)-L-minus-1e-6"
CONTROL_FAR_END = "control-ramp-Def-8-(1)-L-chord-to-far-end"


def controls() -> list[Any]:
    """Planted false L: each must come back "refuted" with a certified point."""
    return [
        Obligation(CONTROL_SHAVE, "control (planted)",
                   "|f(z) - f(x)| <= (L(x) - 1e-6)|z - x| for x outside the band: must fail (the chord to the far "
                   "band edge has slope L(x))",
                   "v in [0, 1], s in [0, inf)", lambda: quotient_objective("above", shave=Q(1, 10**6)),
                   expect="refuted"),
        Obligation(CONTROL_FAR_END, "control (planted)",
                   "L(x) = 1/(d + 2w) (the chord to the far end of the tent's support instead of to its peak, the "
                   "band's far edge): |f(z) - f(x)| <= L(x)|z - x| must fail",
                   "v in [0, 1], s in [0, inf)", lambda: quotient_objective("above", far_end=True), expect="refuted"),
    ]
