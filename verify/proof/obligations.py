"""The inequalities of the papers as proof obligations for :mod:`verify.proof.prover`.

Every function under proof is built from the **SymPy** derivations (no density is typed here):

* D_shift = -psi, D_scale = -(1 + z psi) (psi = (ln h)') of GenCauchy and Student's t from
  ``derivations.privacy_loss.derive_gencauchy_gp`` / ``derive_student_t_gp`` (004 Lemmas 3.3, 3.5),
  the calibrated eta from their derived eps by ``calibration_inverse``;
* PolyPlace's shift / scale log-derivatives from ``derivations.polyplace.derive_log_derivatives``
  (002 Lemma 10) at s = 1, alpha = eps/gamma from ``derive_eps_thm8`` (002 Thm. 8).

Exact GP rate (``smoothsens_core/calibration/tight.py``): sup_{z >= 0} eta |psi(z)| + gamma |1 + z psi(z)|.

Why eps = 1 is no loss of generality.  The rate is positively homogeneous of degree 1 in
(eta, gamma), and each printed calibration is linear in (eps, gamma, eta) (004 Lemma 3.3:
eps = max(gamma, (p theta - 1) gamma) + theta (p-1)^((p-1)/p) eta; Lemma 3.5:
eps = nu gamma + (nu+1)/(2 sqrt nu) eta; 002 Thm. 8: eps = alpha gamma), so with g = gamma/eps
the calibrated eta is eps * eta(1, g) and F(z; eps, gamma) - eps = eps (F(z; 1, g) - 1).  The
obligations are therefore stated at eps = 1 over boxes of g = gamma/eps.

Obligations (ids, statements and domains in :func:`catalogue`):

1. loss rate <= eps for the calibrated families, z over all of [0, inf) (compactified, see
   :class:`~verify.proof.functions.Objective`), parameters over boxes inside the lemmas'
   hypotheses (eta > 0);  004 Cor. 3.2 (m outputs, shift in l1 on one coordinate, scale on all)
   as two obligations: |1 + z psi| <= max(1, p theta - 1) =: U on [0, inf) and
   eta |psi(z)| + gamma |1 + z psi(z)| + (m - 1) gamma U <= eps;
2. tight eps enclosures (:func:`tight_enclosure`) at the points of ``tight_table(1.0)``;
3. 004 Def. 8 condition (2) for the one-way threshold closed form (004 Lemma 4.1), in its local
   form (below), and with g_L for every ramp-profile closed form (one-way threshold, bounded range,
   two-way threshold; :func:`ramp_def8_linear_objective`, with its sufficient condition);
4. printed numbers proven by arb enclosures on a point box (004 Remark after Lemma 3.5, 003
   inequality (5) example);
5. controls that must come back "refuted" (:func:`controls`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, Callable

import sympy as sp
from flint import arb, arb_series
from sympy.codegen.cfunctions import log1p

from smoothsens_core.calibration import (
    DEFAULT_GAMMA_FRACTION,
    calibrate_gencauchy,
    calibrate_polyplace,
    calibrate_student_t,
)
from smoothsens_core.calibration.tight import tight_eta
from smoothsens_core.distributions import GenCauchy

from .def8_cond1 import controls as _cond1_control_list
from .def8_cond1 import obligations as _cond1_obligation_list
from .functions import Objective, SeriesObjective, Variable, restate_on_box
from .kde_chord import KDE_L_END, KDE_S_END, KDE_SERIES_TERMS, KDE_TURN, kde_curve
from .kde_constants import obligations as _kde_constants_list
from .kde_tail import TAIL_U, tail_control_objective, tail_pieces
from .obligation_types import Obligation
from .prover import ProofResult, SupEnclosure, SwitchingProof, enclose_sup, prove_le, prove_switching


def _objective(F: sp.Expr, variables: list[Variable], **kw: Any) -> Objective:
    """The Objective of F on the variables' box, with each symbol restated with the assumptions its
    interval implies (:func:`verify.proof.functions.restate_on_box`): the derivations declare e.g.
    z > 0, the proof box is the closed [0, inf), and the prover accepts a symbol only where its
    assumptions hold on the whole interval."""
    F, variables = restate_on_box(F, variables)
    return Objective(F, variables, **kw)


__all__ = ["Obligation", "rate_expression", "loss_rate_objective", "scale_sup_objective", "shift_sup_objective", "threshold_def8_objective",
           "ramp_def8_linear_objective", "kde_curve", "kde_shape_objective", "kde_chord_tangent_objective",
           "kde_chord_tangent_identities", "remark_3_5_example_objective", "ineq5_example_objective",
           "tight_objective", "tight_enclosure", "tight_points", "catalogue", "controls", "build", "run"]

Q = Fraction
INF = math.inf
G = sp.Symbol("g", positive=True)  # gamma / eps (eps = 1 by scaling, module docstring)


# ---------------------------------------------------------------------------------------------------
# the rate, from the derivations
# ---------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _family(family: str) -> dict[str, Any]:
    """Symbols, |psi|-term, |1 + z psi|-term and the derived eps(eta, gamma) of a family."""
    from derivations import privacy_loss as pl  # noqa: PLC0415 - cost: the derivation runs SymPy at import (about 0.5 s)

    if family == "gencauchy":
        eps, parts, _ = pl.derive_gencauchy_gp()
        z = next(s for s in parts["D_shift"].free_symbols if s.name == "z")
        return {"z": z, "shape": (pl.P, pl.THETA), "shift": parts["D_shift"], "scale": parts["D_scale"],
                "eps": eps, "sup_scale": parts["sup_scale"], "m": pl.M, "source": "004 Lemma 3.3 / Cor. 3.2"}
    if family == "student_t":
        eps, parts, _ = pl.derive_student_t_gp()
        z = next(s for s in parts["D_shift"].free_symbols if s.name == "z")
        return {"z": z, "shape": (pl.NU,), "shift": parts["D_shift"], "scale": parts["D_scale"], "eps": eps,
                "sup_scale": parts["sup_scale"], "m": None, "source": "004 Lemma 3.5"}
    if family == "polyplace":
        from derivations import polyplace as pp  # noqa: PLC0415 - cost: the derivation runs SymPy at import (about 0.5 s)

        d, _ = pp.derive_log_derivatives()
        eps_thm8, _alpha = pp.derive_eps_thm8()
        z = sp.Symbol("z", positive=True)
        at = {pp.S: 1, pp.X: z}
        knee = 1 / pp.ALPHA  # 002 Def. 6 at s = 1: the branch point |x|/s = 1/alpha
        shift = sp.Piecewise((d["shift1"].subs(at), z < knee), (d["shift2"].subs(at), True))
        scale = sp.Piecewise((d["scale1"].subs(at), z < knee), (d["scale2"].subs(at), True))
        return {"z": z, "shape": (pp.ALPHA,), "shift": shift, "scale": scale, "eps": eps_thm8,
                "sup_scale": None, "m": None, "source": "002 Thm. 8 (Lemmas 10, 12)", "alpha": pp.ALPHA,
                "gamma": pp.GAMMA}
    raise ValueError(f"family must be 'gencauchy', 'student_t' or 'polyplace'; got family={family!r}")


def rate_expression(family: str, eta: sp.Expr, gamma: sp.Expr) -> tuple[sp.Expr, sp.Symbol]:
    """(eta |D_shift| + gamma |D_scale|, z): the integrand of the exact GP rate (tight.py)."""
    f = _family(family)
    return eta * sp.Abs(f["shift"]) + gamma * sp.Abs(f["scale"]), f["z"]


def _calibrated_eta(family: str, m: int = 1) -> sp.Expr:
    """The printed calibration's eta at eps = 1, gamma = g, from the derived eps (sp.solve)."""
    from derivations import privacy_loss as pl  # noqa: PLC0415 - cost: the derivation runs SymPy at import (about 0.5 s)

    f = _family(family)
    if family == "polyplace":
        return G  # 002 Thm. 8: PolyPlace(1, alpha = eps/gamma) with eta = gamma
    eps = f["eps"].subs(pl.M, m) if f["m"] is not None else f["eps"]
    eta, _gmax = pl.calibration_inverse(eps)
    return eta.subs({pl.EPS: 1, pl.GAMMA: G})


def loss_rate_objective(family: str, shape_box: dict[str, tuple[Fraction, Fraction]],
                        g_box: tuple[Fraction, Fraction], *, m: int = 1, eta_offset: Fraction = Fraction(0),
                        drop_scale: bool = False, name: str = "") -> Objective:
    """F(z; shape, g) = eta(g) |psi(z)| + g |1 + z psi(z)| [+ (m - 1) g U] - 1 on z in [0, inf).

    ``eta_offset`` adds to the calibrated eta and ``drop_scale`` uses the calibration with the scale
    term dropped (eta = 1/sup|psi|): both only for the controls."""
    from derivations import privacy_loss as pl  # noqa: PLC0415 - cost: the derivation runs SymPy at import (about 0.5 s)

    f = _family(family)
    z = f["z"]
    eta = _calibrated_eta(family, m) + sp.Rational(eta_offset.numerator, eta_offset.denominator)
    if drop_scale:
        eps_no_scale = f["eps"].subs({pl.GAMMA: 0})
        eta = sp.solve(sp.Eq(eps_no_scale.subs(pl.M, 1) if f["m"] is not None else eps_no_scale, 1), pl.ETA)[0]
    if family == "polyplace":
        rate, _ = rate_expression(family, eta, G)
        # alpha = eps/gamma (002 Thm. 8, derive_eps_thm8); z = t/alpha = g t as in 002 Lemma 12
        # (x = s t/alpha): the branch point is t = 1 for every g, a bisection point of the domain
        t = sp.Symbol("t", positive=True)
        rate = rate.subs(f["alpha"], 1 / G).subs(z, G * t)
        z = t
    else:
        rate, _ = rate_expression(family, eta, G)
        if m > 1:
            rate = rate + (m - 1) * G * f["sup_scale"]
    F = rate - 1
    shapes = f["shape"]
    variables = [Variable(z, Q(0), INF)]
    for s in shapes:
        if s.name in shape_box:
            lo, hi = shape_box[s.name]
            variables.append(Variable(s, Q(lo), Q(hi)))
        elif F.has(s):
            raise ValueError(f"shape_box must give a range for {s.name}")
    variables.append(Variable(G, Q(g_box[0]), Q(g_box[1])))
    fixed = {v.symbol: sp.Rational(v.lo.numerator, v.lo.denominator) for v in variables[1:] if v.lo == v.hi}
    F = F.subs(fixed)
    variables = [v for v in variables if v.symbol not in fixed]
    return _objective(F, variables, name=name or f"{family} loss rate <= eps", meta={
        "family": family, "source": f["source"], "m": m, "eta_offset": str(eta_offset), "drop_scale": drop_scale,
        "shape_box": {k: [str(a), str(b)] for k, (a, b) in shape_box.items()}, "g_box": [str(g_box[0]), str(g_box[1])],
        "fixed": {str(k): str(v) for k, v in fixed.items()}})


def scale_sup_objective(shape_box: dict[str, tuple[Fraction, Fraction]], family: str = "gencauchy") -> Objective:
    """|1 + z psi(z)| - U <= 0 on z in [0, inf): the U of the calibrations, from the derivations
    (GenCauchy U = max(1, p theta - 1), 004 Lemma 3.3 / Cor. 3.2; Student's t U = nu, 004 Lemma 3.5)."""
    f = _family(family)
    F = sp.Abs(f["scale"]) - f["sup_scale"]
    variables = [Variable(f["z"], Q(0), INF)] + [Variable(s, Q(shape_box[s.name][0]), Q(shape_box[s.name][1]))
                                                  for s in f["shape"]]
    name = ("GenCauchy sup|1 + z psi| <= max(1, p theta - 1)" if family == "gencauchy"
            else f"{family} sup|1 + z psi| <= {f['sup_scale']}")
    return _objective(F, variables, name=name, meta={"family": family, "source": f"{f['source']} (scale term)"})


def shift_sup_objective(shape_box: dict[str, tuple[Fraction, Fraction]], family: str = "gencauchy", *,
                        slack: Fraction = Fraction(0)) -> Objective:
    """|psi(z)| - (C - slack) <= 0 on z in [0, inf), C = sup|psi| of the calibrations (GenCauchy
    theta (p-1)^((p-1)/p), Student's t (nu+1)/(2 sqrt nu)), from the derivations.

    Not an obligation of :func:`catalogue`: the bound is attained at the interior point z* (z*^p = p - 1,
    resp. z*^2 = nu), a tangency that branch and bound on balls cannot close (measured: undecided at
    the minimal box width after < 1 s); the sup is proven symbolically instead (verify.proof.symbolic,
    claims 004-Lemma-3.3-epsilon / 004-Lemma-3.5-epsilon).  Used with ``slack`` > 0 as the control
    (the bound ``slack`` too small: refuted at a certified point next to z*)."""
    from derivations import privacy_loss as pl  # noqa: PLC0415 - cost: the derivation runs SymPy at import (about 0.5 s)

    f = _family(family)
    sup = (pl.derive_gencauchy_gp() if family == "gencauchy" else pl.derive_student_t_gp())[1]["sup_shift"]
    F = sp.Abs(f["shift"]) - sup + _r(slack)
    variables = [Variable(f["z"], Q(0), INF)] + [Variable(s, Q(shape_box[s.name][0]), Q(shape_box[s.name][1]))
                                                  for s in f["shape"]]
    return _objective(F, variables, name=f"{family} sup|psi| <= {sup} - {slack}",
                     meta={"family": family, "source": f"{f['source']} (shift term)", "slack": str(slack)})


# ---------------------------------------------------------------------------------------------------
# 004 Def. 8 condition (2) for the one-way threshold (004 Lemma 4.1)
# ---------------------------------------------------------------------------------------------------
A_THR = sp.Symbol("b", nonnegative=True)  # b = |x - T|/tau - 1/2 (>= 0 outside the band)
GAMMA_THR = sp.Symbol("gamma", positive=True)  # gamma tau


def threshold_def8_objective(b_box: tuple[Fraction, Fraction], gamma_box: tuple[Fraction, Fraction], *,
                             slack: Fraction = Fraction(0)) -> Objective:
    """004 Def. 8 (2) with g_E for B of 004 Lemma 4.1, local form.

    004 Lemma 4.1 (closed form, stated here once from the paper, as it is not in ``derivations``):
    B(x) = 1/tau for |x - T| <= tau/2, else max(1/(|x - T| + tau/2), (1/tau) e^{-gamma (|x - T| - tau/2)}).
    Scaling: B_{T,tau,gamma}(x) = (1/tau) B_{0,1,gamma tau}((x - T)/tau), and (2) reads
    ln B(x) - ln B(x') <= gamma |x - x'|, invariant under the scaling: T = 0, tau = 1 w.l.o.g. with
    gamma the product gamma tau.  B is continuous (both pieces equal 1 at |x| = 1/2) and piecewise
    C^1, so (2) holds iff |(ln B)'| <= gamma wherever B is differentiable (mean-value theorem on
    each piece, the pieces glued by continuity).  Inside the band (ln B)' = 0; outside, by
    symmetry x >= 1/2, b = x - 1/2 >= 0 and ln B = max(-ln(1 + b), -gamma b) with the active piece
    differentiated.  Obligation: F(b, gamma) = |d/db ln A_i| - gamma <= 0 with A_i the active piece
    (strictly larger; at ties both one-sided derivatives are covered by the two pieces).  Domain
    b in [0, 19/2] (|x - T|/tau <= 10).

    Near (b, gamma tau) = (0, 1) the bound is tangent: with c = ln A_1 - ln A_2 = gamma b - ln(1 + b)
    (piece 1 active iff c > 0), F on piece 1 is 1/(1 + b) - gamma = -dc/db, which tends to 0 along
    the crossing c = 0 as gamma -> 1; :func:`verify.proof.prover.prove_switching` closes it (c is
    convex in b and c(0, gamma) = 0).  ``slack`` > 0 only for the control: the bound on piece 1
    shaved to gamma - slack (false in a sliver next to the crossing for 1 - gamma < slack)."""
    a, gm = A_THR, GAMMA_THR
    # in the distance to the band b = a - 1 = |x| - 1/2 >= 0 (as the core's d): exact at b = 0
    ln_a1 = -log1p(a)  # 1/(|x| + 1/2) = 1/(1 + b)
    ln_a2 = -gm * a  # e^{-gamma (|x| - 1/2)} = e^{-gamma b}
    sl = _r(slack)
    F = sp.Piecewise((sp.Abs(sp.diff(ln_a1, a)) - gm + sl, ln_a1 - ln_a2 > 0), (sp.Abs(sp.diff(ln_a2, a)) - gm, True))
    meta = {"source": "004 Def. 8 (2), 004 Lemma 4.1", "b": "|x - T|/tau - 1/2", "gamma": "gamma tau"}
    if slack:
        meta["slack"] = str(slack)
    return _objective(F, [Variable(a, Q(b_box[0]), Q(b_box[1])), Variable(gm, Q(gamma_box[0]), Q(gamma_box[1]))],
                     name="004 Lemma 4.1 B satisfies 004 Def. 8 (2) (g_E), local form", meta=meta)


# ---------------------------------------------------------------------------------------------------
# 004 Def. 8 condition (2) with g_L for the ramp-profile closed forms (threshold, bounded range, two-way)
# ---------------------------------------------------------------------------------------------------
def ramp_def8_linear_objective(b_box: tuple[Fraction, Fraction | float], gamma_box: tuple[Fraction, Fraction], *,
                               slack: Fraction = Fraction(0)) -> Objective:
    """004 Def. 8 (2) with g_L(x, x') = 1 + gamma |x - x'| for the ramp-profile B* (Lambda = inf).

    The closed forms.  Every threshold-type query of 004 Sec. 4 is f = clip(s(x)/w, 0, 1) with s a
    1-Lipschitz signed distance and w the band width (``smoothsens_core/sensitivity/_ramp.py``): the
    one-way threshold (004 Lemma 4.1, w = tau), the bounded range (004 App. C.3: tent w = (r-l)/2 +
    tau/2, trapezoid w = tau) and the two-way threshold (004 Lemma 4.3 on each of its regions, w = tau).
    With d(x) the distance to the band (d <= 0 inside it; 1-Lipschitz: |x| - c, a max of such, or a
    Euclidean distance to a set), B*(x) = R(d(x)) with, for g_L and Lambda = inf (``ramp_one_point``),
    R(d) = 1/w for d <= 0 and R(d) = max(1/(d + w), 1/(w (1 + gamma d))) for d > 0.

    Reductions.  (i) d 1-Lipschitz and g_L nondecreasing in the distance: R(d) <= (1 + gamma|d - d'|)
    R(d') for all d, d' implies B*(x) <= (1 + gamma |x - x'|) B*(x').  (ii) Scaling: R_w(d) =
    (1/w) R_1(d/w; gamma w), so w = 1, b = d/w, g = gamma w.  (iii) For g_L the local condition
    |(ln R)'| <= g is *not* sufficient (local steps compose to e^{g|b - b'|} > 1 + g|b - b'|).  A
    sufficient condition: with C = 1/R (locally Lipschitz) and C_min = inf C > 0,
        |C'(b)| <= g C_min  a.e.   implies   C(b') <= C(b) + g |b - b'| C_min <= (1 + g|b - b'|) C(b),
    i.e. R(b) <= (1 + g |b - b'|) R(b').  Here C = 1 on b <= 0 (C' = 0) and C = min(1 + b, 1 + g b) on
    b >= 0 (continuous at 0), so C_min = 1 is the claim C(b) >= 1, proven with it.
    Obligation: F(b, g) = max(|C_i'(b)| - g + slack, 1 - C_i(b)) <= 0 with C_i the active piece
    (the smaller; at ties both pieces are covered by the union of the branches), b in [0, inf)
    (compactified; C_i affine, so the tail is rational), g in ``gamma_box``.  ``slack`` > 0 only
    for the control (the bound g - slack is false where C = 1 + g b)."""
    b, gm = A_THR, GAMMA_THR
    near = 1 / (1 + b)  # 1/(d + w): the chord to the far band edge, z = x (004 Lemma 4.1, w = 1)
    edge = 1 / (1 + gm * b)  # (1/w)/g_L(d): the band edge seen from x
    c1, c2 = sp.cancel(1 / near), sp.cancel(1 / edge)
    sl = sp.Rational(slack.numerator, slack.denominator)

    def cond(c: sp.Expr) -> sp.Expr:
        return sp.Max(sp.Abs(sp.diff(c, b)) - gm + sl, 1 - c)

    F = sp.Piecewise((cond(c1), c1 - c2 < 0), (cond(c2), True))
    return _objective(F, [Variable(b, Q(0), INF), Variable(gm, Q(gamma_box[0]), Q(gamma_box[1]))],
                     name="ramp-profile B* (Lemma 4.1, App. C.3, Lemma 4.3) satisfies 004 Def. 8 (2) with g_L",
                     meta={"source": "004 Def. 8 (2), Lemma 4.1, App. C.3, Lemma 4.3 (g_L, Lambda = inf)",
                           "b": "d(x)/w (distance to the band over its width)", "gamma": "gamma w",
                           "condition": "|(1/B)'| <= gamma w inf(1/B), 1/B >= 1 (w = 1)", "slack": str(slack)})



# ---------------------------------------------------------------------------------------------------
# 004 Sec. 4.3 (KDE): the chord-partner curve in an explicit parameter, and the shape lemmas on D
# ---------------------------------------------------------------------------------------------------
def _kde_pieces(which: str, *, slack: Fraction = Fraction(0),
                drop_turn: bool = False) -> list[tuple[Fraction, Fraction, Any]]:
    """Pieces (lo, hi, fn) of F <= 0 for the KDE shape lemmas (see :func:`kde_shape_objective`)."""
    sl = arb(slack.numerator) / slack.denominator
    Lend = KDE_L_END
    tail = tail_pieces(which, slack)

    def pos(f: Callable[[Any, Any, Any], Any]) -> Callable[[Any], Any]:
        def fn(v: Any) -> Any:
            a, b, D = kde_curve(v, "pos")
            return f(a, b, D) + sl
        fn.__name__ = f.__name__
        return fn

    def neg(f: Callable[[Any, Any, Any], Any]) -> Callable[[Any], Any]:
        def fn(v: Any) -> Any:
            a, b, D = kde_curve(v, "neg")
            return f(a, b, D) + sl
        fn.__name__ = f.__name__
        return fn

    def b_end(a: Any, b: Any, D: Any) -> Any:  # b(s_end) < 0: [0, s_end] covers b in [0, 1]
        return b

    if which == "curve":
        def b_pos(a, b, D):
            return b.derivative()

        def b_neg(a, b, D):
            return -b.derivative()
        return [(Q(0), KDE_S_END, pos(b_pos)), (KDE_S_END, KDE_S_END, pos(b_end)), (Q(0), Lend, neg(b_neg))] + tail
    if which == "gE":
        lo, hi = KDE_TURN["D"]

        def D_dec_pos(a, b, D):
            return -D.derivative()

        def D_dec_neg(a, b, D):
            return D.derivative()

        def D_turn(a, b, D):
            return -D.derivative().derivative()

        def D_inc_neg(a, b, D):
            return -D.derivative()

        def D_neg_end(a, b, D):
            return D
        if drop_turn:  # control: D claimed decreasing on all of (1, b(L_end)] (false past b_m)
            return [(Q(0), Lend, neg(D_dec_neg))]
        return [(Q(0), KDE_S_END, pos(D_dec_pos)), (KDE_S_END, KDE_S_END, pos(b_end)), (Q(0), lo, neg(D_dec_neg)),
                (lo, hi, neg(D_turn)), (hi, Lend, neg(D_inc_neg)), (Lend, Lend, neg(D_neg_end))] + tail
    if which == "gL":
        lo, hi = KDE_TURN["P"]

        def E(a: Any, b: Any, D: Any) -> Any:  # sign(P_b) = sign(D^2 b_L + D_L) (b_L > 0), P = b - 1/D
            return D * D * b.derivative() + D.derivative()

        def Q_inc_pos(a, b, D):
            return -(D.derivative() + D * D * b.derivative())

        def P_dec(a, b, D):
            return E(a, b, D)

        def P_turn(a, b, D):
            return -E(a, b, D).derivative()

        def P_inc(a, b, D):
            return -E(a, b, D)
        if drop_turn:  # control: P claimed decreasing on all of (1, b(L_end)] (false past b_P)
            return [(Q(0), Lend, neg(P_dec))]
        return [(Q(0), KDE_S_END, pos(Q_inc_pos)), (KDE_S_END, KDE_S_END, pos(b_end)), (Q(0), lo, neg(P_dec)),
                (lo, hi, neg(P_turn)), (hi, Lend, neg(P_inc))] + tail
    raise ValueError(f"which must be 'curve', 'gE' or 'gL'; got which={which!r}")


def kde_shape_objective(which: str, *, slack: Fraction = Fraction(0), drop_turn: bool = False) -> Any:
    """The shape lemmas behind the KDE closed form (kde.py, 004 Lemmas 4.6/4.7 corrected), as F <= 0
    along the explicit chord-partner curve of :func:`kde_curve` (no root is solved: the implicit
    partner alpha(b) is the point of the curve with that b), for every radius b >= 0.  One variable v,
    three charts (each piece reads v in its own chart; where pieces overlap in v all are proven):
    v = s in [0, s_end] (b from 1 down to below 0), v = L = -ln(1 + s) in [0, L_end] (b from 1 up to
    b(L_end) = 11.31) and the tail v = u = 1/sqrt(L) in [0, 1/8] (b from b(64) up to b = inf at u = 0;
    rescaled, e^{-L} a bounded remainder: :mod:`verify.proof.kde_tail`); F is given piecewise (a
    :class:`SeriesObjective`, Taylor series by arb_series: derivatives along the curve are exact
    series derivatives).

    ``which="curve"``: b_s < 0 on [0, s_end], b(s_end) < 0, b_L > 0 on [0, inf] (tail: r b_L > 0):
      b is a strictly monotone chart onto [0, inf) (b >= r -> inf), so every b >= 0 has exactly one
      chord partner alpha(b) (the uniqueness kde.py's brackets rely on) and D(b) = 1/alpha(b) - b.
    ``which="gE"``: D decreasing on [0, 1] (D_s > 0), D_L < 0 on [0, L_m-], D_LL > 0 on the window
      around L_m, D_L > 0 from there to L = inf (tail: r^3 D_L > 0), D(L_end) < 0 and D < 0 on the
      tail (r D < 0) (with D(1) = 0: D > 0 on [0, 1), D < 0 on (1, inf), unimodal there) -- the
      facts the g_E candidate set of kde.py needs: b1 with D(b1) = g unique in (0, 1), {D < -g} =
      (b2, b3) an interval, D - g < 0 on (b1, inf).
    ``which="gL"``: Q = 1/D - b increasing on (0, 1) (D_s + D^2 b_s > 0, regular at b = 1), and
      P = b - 1/D unimodal on (1, inf) (sign P_b = sign(D^2 b_L + D_L) =: E: E < 0, then E_L > 0 on
      the window around L_P, then E > 0 up to L = inf, tail: r^3 E > 0) -- the facts of the g_L
      candidate set.
    Controls: ``drop_turn`` claims D (resp. P) monotone across its turning point (must come back
    refuted; those objectives stop at L_end); ``slack`` adds a constant to every piece (a margin
    claimed on the signs); the tail's own controls are :func:`verify.proof.kde_tail.tail_control_objective`."""
    pieces = _kde_pieces(which, slack=slack, drop_turn=drop_turn)
    order = 4 if which in ("gE", "gL") else 3
    return SeriesObjective(pieces, name=f"KDE chord-partner curve: {which} shape lemmas", order=order,
                           meta={"source": "004 Sec. 4.3, Lemmas 4.5-4.7 (kde.py closed form)", "which": which,
                                 "s_end": str(KDE_S_END), "L_end": str(KDE_L_END),
                                 "tail": None if drop_turn else {"chart": "u = 1/sqrt(L)", "u": ["0", str(TAIL_U)],
                                                                 "remainder": "e^{-L} = eta u^4, eta in [0, 64^2 e^{-64}]"},
                                 "turn": {k: [str(x) for x in v] for k, v in KDE_TURN.items()}, "slack": str(slack),
                                 "drop_turn": drop_turn})


#: |s| <= KDE_SMALL: the chord-minus-tangent quantity H/s^2 = a U(s) from U's power series (0/0 at s = 0);
#: the chart L covers it up to L = 1/4 (s = e^{-1/4} - 1 = -0.221)
KDE_SMALL = Fraction(1, 4)


def _kde_U(s: Any) -> Any:
    """U(s) = (2 T(s) (1 + s) - 1)/s = sum_{k >= 0} 2 (-1)^k s^k/((k + 2)(k + 3)) (U(0) = 1/3) as an
    arb_series, for |s| <= 1/3 only (the pieces use it on |s| <= 1/4, where the quotient is a removable
    0/0; 1/3 leaves room for the outward rounding of the boxes' balls).

    The coefficients follow from T's, t_k = (-1)^k/(k + 2): the coefficient of s^j (j >= 1) in
    2 T (1 + s) - 1 is 2 (t_j + t_{j-1}) = 2 (-1)^(j+1)/((j + 1)(j + 2)), and that of s^0 is 2 t_0 - 1 = 0
    (:func:`kde_chord_tangent_identities` checks the first terms with SymPy).  Truncation: on every
    coefficient j <= 4 a ball of radius 2 N^4 3^{-(N-4)} >= sum_{k >= N} C(k, j) 3^{-(k-j)} (|coefficient|
    <= 1/3 <= 1, |s| <= 1/3; successive terms shrink by a factor (k + 1)/(3 (k + 1 - j)) < 1/2), as
    :func:`verify.proof.kde_chord._kde_T` does on |s| <= 1/4."""
    s0 = s.coeffs()[0]
    if not abs(s0).upper() <= arb(1) / 3:
        raise ValueError("_kde_U is the power series of U, valid for |s| <= 1/3 only")
    if s.prec > 5:
        raise ValueError("the tail bound of _kde_U covers derivatives of order <= 4")
    out = arb_series([0], prec=s.prec)
    for k in reversed(range(KDE_SERIES_TERMS)):
        out = out * s + arb(2 * (-1) ** k) / ((k + 2) * (k + 3))
    rad = 2 * arb(KDE_SERIES_TERMS) ** 4 * (arb(1) / 3) ** (KDE_SERIES_TERMS - 4)
    cs = [c + arb(0, rad) for c in out.coeffs()]
    return arb_series(cs + [arb(0, rad)] * (s.prec - len(cs)), prec=s.prec)


@lru_cache(maxsize=1)
def kde_chord_tangent_identities() -> dict[str, bool]:
    """The algebra behind the chord >= tangent obligation, checked by SymPy (exact cancellation):

    "tangent": on the curve (e^{(a^2 - b^2)/2} = 1 + s), ell(b) - |k'(b)| = a e^{-a^2/2} - b e^{-b^2/2}
               = e^{-a^2/2} (a - b (1 + s)) =: e^{-a^2/2} H;
    "H":       H = a - b (1 + s) = s D = a s^2 U(s) with b = a - s/a, a^2 = 1/(2T), U = (2T(1 + s) - 1)/s;
    "U":       U = (2 s + s^2 - 2 (1 + s) ln(1 + s))/s^3 and its power series (first 12 terms) is
               sum 2 (-1)^k s^k/((k + 2)(k + 3)).
    Each value is True iff the identity holds."""
    a, s, T = sp.symbols("a s T", positive=True)
    b = a - s / a
    H = a - b * (1 + s)
    Tv = 1 / (2 * a**2)
    U = (2 * Tv * (1 + s) - 1) / s
    D = (1 + s) / a - a
    e_b = sp.exp(-a**2 / 2) * (1 + s)  # e^{-b^2/2} on the curve
    tangent = sp.simplify(a * sp.exp(-a**2 / 2) - b * e_b - sp.exp(-a**2 / 2) * H) == 0
    h_ok = sp.cancel(H - s * D) == 0 and sp.cancel(H - a * s**2 * U) == 0
    sv = sp.Symbol("s")
    Tc = (sv - sp.log(1 + sv)) / sv**2
    Uc = (2 * Tc * (1 + sv) - 1) / sv
    closed = sp.simplify(Uc - (2 * sv + sv**2 - 2 * (1 + sv) * sp.log(1 + sv)) / sv**3) == 0
    ser = sp.series(Uc, sv, 0, 12).removeO()
    coeffs = sum(sp.Rational(2 * (-1) ** k, (k + 2) * (k + 3)) * sv**k for k in range(12))
    return {"tangent": bool(tangent), "H": bool(h_ok), "U": bool(closed and sp.expand(ser - coeffs) == 0)}


def kde_chord_tangent_objective(*, margin: Fraction | None = None) -> Any:
    """Step (ii) of the KDE closed form (004 Lemmas 4.5-4.6, kde.py): chord >= tangent,
    ell(b) = alpha e^{-alpha^2/2} >= |k'(b)| = b e^{-b^2/2} for every radius b >= 0, as F <= 0 along the
    chord-partner curve of :func:`kde_curve` (the charts of :func:`kde_shape_objective`).

    On the curve e^{-b^2/2} = (1 + s) e^{-a^2/2}, so ell - |k'(b)| = e^{-a^2/2} H with
    H = a - b (1 + s): chord >= tangent iff alpha >= b (1 + s).  H = s D = a s^2 U(s) vanishes to second
    order at s = 0 (b = 1, where chord = tangent), so the obligation proves the sign of H rescaled by a
    positive factor (:func:`kde_chord_tangent_identities`):
      s in [0, 1/4] and L in [0, 1/4] (|s| <= 1/4):  -a U(s) <= 0         (H/s^2 = a U, U's power series);
      s in [1/4, s_end], L in [1/4, 64]:             -(a - b (1 + s))/s^2 <= 0  (H from the curve's a, b);
      s = s_end:                                      b <= 0 (the chart s covers b in [0, 1]);
      tail u = 1/sqrt(L) in [0, 1/8]:                 -r H = -(q^2 - E r^2) <= 0 (:mod:`verify.proof.kde_tail`,
                                                      SymPy-checked; r H -> 1 at b = inf).
    So H > 0 for every b != 1 (strict: each bound is < 0), H = 0 at b = 1.

    ``margin`` (planted control): the unscaled alpha - b (1 + s) >= margin on L in [2^-10, 64] (b from
    1.0005 to 11.31): false near b = 1, where H ~ s^2/3."""
    def s_of(v: Any, side: str) -> Any:
        return v if side == "pos" else (-v).exp() - 1

    def small(side: str) -> Callable[[Any], Any]:
        def fn(v: Any) -> Any:
            a, _, _ = kde_curve(v, side)
            return -a * _kde_U(s_of(v, side))
        fn.__name__ = f"chord_tangent_series_{side}"
        return fn

    def direct(side: str) -> Callable[[Any], Any]:
        def fn(v: Any) -> Any:
            a, b, _ = kde_curve(v, side)
            s = s_of(v, side)
            return -(a - b * (1 + s)) / (s * s)
        fn.__name__ = f"chord_tangent_direct_{side}"
        return fn

    if margin is not None:
        m = arb(margin.numerator) / margin.denominator

        def unscaled(v: Any) -> Any:
            a, b, _ = kde_curve(v, "neg")
            return -(a - b * (1 + s_of(v, "neg"))) + m
        unscaled.__name__ = "chord_tangent_unscaled_margin"
        return SeriesObjective([(Q(1, 2**10), KDE_L_END, unscaled)], order=3,
                               name=f"control: KDE chord >= tangent with a margin {margin} on the unscaled H",
                               meta={"control": True, "margin": str(margin), "chart": "L in [2^-10, 64]"})

    bad = [k for k, ok in kde_chord_tangent_identities().items() if not ok]
    if bad:  # the rescaling (and so the statement proven) rests on these identities
        raise RuntimeError(f"kde_chord_tangent_objective: the identities {bad} do not hold")

    def b_end(v: Any) -> Any:
        return kde_curve(v, "pos")[1]
    b_end.__name__ = "b_end"
    pieces = [(Q(0), KDE_SMALL, small("pos")), (KDE_SMALL, KDE_S_END, direct("pos")),
              (KDE_S_END, KDE_S_END, b_end), (Q(0), KDE_SMALL, small("neg")), (KDE_SMALL, KDE_L_END, direct("neg")),
              *tail_pieces("chord")]
    return SeriesObjective(pieces, name="KDE chord-partner curve: chord >= tangent", order=3,
                           meta={"source": "004 Sec. 4.3, Lemmas 4.5-4.6 (kde.py closed form), step (ii)",
                                 "s_end": str(KDE_S_END), "L_end": str(KDE_L_END), "small": str(KDE_SMALL),
                                 "tail": {"chart": "u = 1/sqrt(L)", "u": ["0", str(TAIL_U)],
                                          "remainder": "e^{-L} = eta u^4, eta in [0, 64^2 e^{-64}]"}})


# ---------------------------------------------------------------------------------------------------
# printed numbers: arb enclosures (a point box in the statement's parameters)
# ---------------------------------------------------------------------------------------------------
def _band(x: sp.Expr, c: sp.Expr, t: sp.Expr) -> sp.Expr:
    """(x - c - t)(x - c + t) <= 0  iff  |x - c| <= t (no |.|: one smooth variant per term)."""
    return (x - c - t) * (x - c + t)


def _r(x: Fraction | int) -> sp.Rational:
    x = Fraction(x)
    return sp.Rational(x.numerator, x.denominator)


#: the selector of :func:`_select`
SEL = sp.Symbol("k_statement", nonnegative=True)


def _select(terms: list[sp.Expr]) -> sp.Expr:
    """F(k) = terms[i] for k in [i, i + 1) (the last one at k = n - 1), k in [0, n - 1]: F <= 0 on that
    interval is every term <= 0 (each is F on a subinterval).  A Piecewise, not a Max: SymPy's Max
    constructor orders its arguments (slow, and numerically when they are numbers); on a box where
    the guards are undecided the evaluator takes the union of the live branches."""
    return sp.Piecewise(*[(t, SEL < i + 1) for i, t in enumerate(terms[:-1])], (terms[-1], True))


def remark_3_5_example_objective(lemma_3_5_printed: Fraction = Fraction(1025, 1000)) -> Objective:
    """004 Remark after Lemma 3.5: at gamma = 1/10, eta = 1/2, p = nu = 4 (theta = 1, m = 1)

        Lemma 3.3 max(gamma, (p theta - 1) gamma) + theta (p-1)^((p-1)/p) eta rounds to 1.44 (2 decimals, "~1.44"),
        [NRS07] (p + 1) gamma + (p + 1) eta = 3, Lemma 3.5 nu gamma + (nu+1)/(2 sqrt nu) eta = 1.025,
        [BS19] (nu + 1) gamma + (nu + 1)/(2 sqrt nu) eta = 1.125   (each to 12 decimals),

    as one obligation F_i = (v_i - c_i - t_i)(v_i - c_i + t_i) <= 0 (|v_i - c_i| <= t_i) for i = 0..3
    (the selector k of :func:`_select`) on the point box of the example: the arb enclosure of each
    value proves its printed rounding (the
    tolerances are the claim's test's: half a unit of the last printed digit).  ``lemma_3_5_printed``
    other than 1.025 only for the control."""
    from derivations import privacy_loss as pl  # noqa: PLC0415 - cost: the derivation runs SymPy at import (about 0.5 s)

    # the formulas as printed in Lemmas 3.3 (theta = 1) and 3.5 (the statement is about the numbers
    # they give; that they equal the derived eps is claim 004-Lemma-3.3-epsilon / -3.5-epsilon)
    p, g, e = pl.P, pl.GAMMA, pl.ETA
    gc = sp.Max(g, (p - 1) * g) + (p - 1) ** ((p - 1) / p) * e
    st = p * g + (p + 1) / (2 * sp.sqrt(p)) * e
    nrs07 = (p + 1) * g + (p + 1) * e  # [NRS07] as quoted in the Remark
    bs19 = (p + 1) * g + (p + 1) / (2 * sp.sqrt(p)) * e  # [BS19] as quoted in the Remark
    t2, t12 = sp.Rational(1, 200), sp.Rational(1, 2 * 10**12)
    F = _select([_band(gc, sp.Rational(144, 100), t2), _band(nrs07, 3, t12),
                 _band(st, _r(lemma_3_5_printed), t12), _band(bs19, sp.Rational(1125, 1000), t12)])
    return _objective(F, [Variable(SEL, Q(0), Q(3)), Variable(g, Q(1, 10), Q(1, 10)), Variable(e, Q(1, 2), Q(1, 2)),
                         Variable(p, Q(4), Q(4))],
                     name="004 Remark 3.5 example: printed eps values", tail_lemma=False,
                     meta={"source": "004 Remark after Lemma 3.5", "printed": {"lemma_3_3": "~1.44", "nrs07": "3",
                           "lemma_3_5": str(lemma_3_5_printed), "bs19": "1.125"},
                           "tolerance": {"lemma_3_3": "1/200", "others": "1/(2 10^12)"}})


def ineq5_example_objective(printed: Fraction = Fraction(84, 10)) -> Objective:
    """003 Sec. III-A, inequality (5): eps > ln(beta/alpha)/k; its example k = 1, alpha = 10^-4,
    beta = 1/2: "it must hold that eps > 8.4" follows iff ln(beta/alpha)/k >= 8.4.  Obligation
    F = printed - ln(beta/alpha)/k <= 0 on the point box of the example (``printed`` other than 8.4
    only for the control)."""
    a, b, k = sp.symbols("alpha beta k", positive=True)
    F = _r(printed) - sp.log(b / a) / k
    return _objective(F, [Variable(a, Q(1, 10**4), Q(1, 10**4)), Variable(b, Q(1, 2), Q(1, 2)), Variable(k, Q(1), Q(1))],
                     name="003 inequality (5) example: ln(beta/alpha)/k >= 8.4", tail_lemma=False,
                     meta={"source": "003 Sec. III-A, inequality (5) and its example", "printed": str(printed)})


# ---------------------------------------------------------------------------------------------------
# tight eps enclosures
# ---------------------------------------------------------------------------------------------------
def tight_points(eps: float = 1.0) -> list[dict[str, Any]]:
    """The calibrations behind ``tight_table(eps)`` (family, shape, gamma, eta1 = eta / noise scale)."""
    g = DEFAULT_GAMMA_FRACTION * eps
    rows: list[tuple[str, str, dict[str, float] | None, Any]] = [
            ("Student t(nu=3)", "student_t", {"nu": 3}, calibrate_student_t(eps, g, 3.0)),
            ("Student t(nu=4)", "student_t", {"nu": 4}, calibrate_student_t(eps, g, 4.0)),
            ("GenCauchy(p=4, theta=1)", "gencauchy", {"p": 4, "theta": 1}, calibrate_gencauchy(eps, g, 4.0, 1.0)),
            ("PolyPlace", "polyplace", None, calibrate_polyplace(eps, g))]
    out = []
    for label, fam, shape, cal in rows:
        noise = cal.noise
        s_attr: Any = getattr(noise, "s", None)
        sigma = float(s_attr or getattr(noise, "scale", 1.0))
        if fam == "polyplace":
            shape = {"alpha": float(noise.alpha)}
        out.append({"family": label, "kind": fam, "shape": shape, "gamma": cal.gamma, "eta": cal.eta,
                    "eta1": cal.eta / sigma, "noise": noise})
    return out


def tight_objective(kind: str, shape: dict[str, Any], gamma: float, eta1: float) -> Objective:
    """F(z) = eta1 |psi(z)| + gamma |1 + z psi(z)| on z in [0, inf) at the exact rationals of the floats."""
    f = _family(kind)
    r = lambda x: sp.Rational(Fraction(x).numerator, Fraction(x).denominator)  # noqa: E731
    rate, z = rate_expression(kind, r(eta1), r(gamma))
    rate = rate.subs({s: r(shape[s.name]) for s in f["shape"]})
    return _objective(rate, [Variable(z, Q(0), INF)], name=f"{kind} tight rate", tail_lemma=True,
                     meta={"family": kind, "shape": {k: repr(v) for k, v in shape.items()}, "gamma": repr(gamma),
                           "eta1": repr(eta1)})


def tight_enclosure(kind: str, shape: dict[str, Any], gamma: float, eta1: float, *, width: float = 1e-9,
                    max_boxes: int = 20_000) -> SupEnclosure:
    """Enclose sup_{z >= 0} eta1 |psi(z)| + gamma |1 + z psi(z)| to ``width`` (the exact GP rate of
    tight.py at these parameters): lower end attained at ``argmax``, upper end proven."""
    return enclose_sup(tight_objective(kind, shape, gamma, eta1), width=width, max_boxes=max_boxes, seeds=[[Q(2)]])


# ---------------------------------------------------------------------------------------------------
# the catalogue
# ---------------------------------------------------------------------------------------------------
def catalogue(scale: str = "test") -> list[Obligation]:
    """The obligations; ``scale="test"`` uses small parameter boxes (seconds), ``"full"`` the boxes
    stated in the report (minutes)."""
    if scale not in ("test", "full"):
        raise ValueError(f"scale must be 'test' or 'full'; got scale={scale!r}")
    full = scale == "full"
    gc_box = ({"p": (Q(3, 2), Q(6)), "theta": (Q(1), Q(3))}, (Q(1, 100), Q(1, 20))) if full else \
        ({"p": (Q(2), Q(17, 8)), "theta": (Q(1), Q(9, 8))}, (Q(1, 50), Q(1, 20)))
    st_box = ({"nu": (Q(3, 2), Q(10))}, (Q(1, 100), Q(1, 20))) if full else ({"nu": (Q(3), Q(4))}, (Q(1, 50), Q(1, 10)))
    # every gamma/eps the audit catalogue uses (0.1, 0.5, 0.9) at both scales: 26 boxes, under a second
    pp_g = (Q(1, 1000), Q(99, 100))
    cor_box = ({"p": (Q(2), Q(4)), "theta": (Q(1), Q(2))}, (Q(1, 100), Q(1, 50))) if full else \
        ({"p": (Q(2), Q(9, 4)), "theta": (Q(1), Q(5, 4))}, (Q(1, 100), Q(1, 50)))
    # the scale-sup boxes contain every catalogued mechanism (verify/audit/catalogue.py: GenCauchy p in
    # {1.5, 2, 3, 4}, theta in {1, 2}; Student's t nu in {1.5, 2, 4, 10}); under a second each
    gc_sup_box = {"p": (Q(5, 4), Q(8)), "theta": (Q(1), Q(4))} if full else {"p": (Q(3, 2), Q(4)), "theta": (Q(1), Q(2))}
    st_sup_box = {"nu": (Q(5, 4), Q(64))} if full else {"nu": (Q(3, 2), Q(10))}
    # gamma tau in [15/16, 1] by the convex switching lemma (THR_TANGENT below): at (b, gamma) = (0, 1)
    # the bound is tangent (F = 0 at the band edge) and the crossing of the two pieces runs into that
    # point, so plain subdivision never ends there
    thr_gamma = [(Q(1, 20), Q(15, 16)), (Q(1), Q(2))]

    def fmt(box: tuple[dict, tuple]) -> str:
        sh = ", ".join(f"{k} in [{a}, {b}]" for k, (a, b) in box[0].items())
        if not box[1]:  # a sup bound: no gamma
            return f"z in [0, inf), {sh}"
        return f"z in [0, inf), {sh}, gamma/eps in [{box[1][0]}, {box[1][1]}]"

    obs = [
        Obligation("004-Lemma-3.3-rate", "004 Lemma 3.3",
                   "eta|psi(z)| + gamma|1 + z psi(z)| <= eps, eta = (eps - max(1, p theta - 1) gamma)/(theta (p-1)^((p-1)/p))",
                   fmt(gc_box), lambda: loss_rate_objective("gencauchy", *gc_box)),
        Obligation("004-Cor-3.2-scale-sup", "004 Cor. 3.2 / Lemma 3.3", "|1 + z psi(z)| <= max(1, p theta - 1)",
                   fmt((gc_sup_box, ())), lambda: scale_sup_objective(gc_sup_box)),
        Obligation("004-Lemma-3.5-scale-sup", "004 Lemma 3.5", "|1 + z psi(z)| <= nu (Student's t)",
                   fmt((st_sup_box, ())), lambda: scale_sup_objective(st_sup_box, "student_t")),
        Obligation("004-Cor-3.2-rate-m3", "004 Cor. 3.2 (m = 3)",
                   "eta|psi(z1)| + gamma|1 + z1 psi(z1)| + 2 gamma max(1, p theta - 1) <= eps at the m = 3 calibration",
                   fmt(cor_box), lambda: loss_rate_objective("gencauchy", *cor_box, m=3)),
        Obligation("004-Lemma-3.5-rate", "004 Lemma 3.5",
                   "eta|psi(z)| + gamma|1 + z psi(z)| <= eps, eta = 2 sqrt(nu)(eps - nu gamma)/(nu + 1)",
                   fmt(st_box), lambda: loss_rate_objective("student_t", *st_box)),
        Obligation("002-Thm-8-rate", "002 Thm. 8 (Lemma 12)",
                   "gamma(|psi(z)| + |1 + z psi(z)|) <= eps for PolyPlace(1, alpha = eps/gamma), eta = gamma",
                   f"z in [0, inf), gamma/eps in [{pp_g[0]}, {pp_g[1]}]",
                   lambda: loss_rate_objective("polyplace", {}, pp_g)),
    ]
    for lo, hi in thr_gamma:
        obs.append(Obligation(f"004-Lemma-4.1-Def-8-(2)-gamma[{lo},{hi}]", "004 Def. 8 (2), Lemma 4.1",
                              "|(ln B)'(x)| <= gamma tau for B of Lemma 4.1 (g_E), i.e. B(x) <= e^{gamma|x-x'|} B(x')",
                              f"|x - T|/tau in [1/2, 10], gamma tau in [{lo}, {hi}]",
                              partial(threshold_def8_objective, (Q(0), Q(19, 2)), (lo, hi))))
    obs.append(Obligation(THR_TANGENT, "004 Def. 8 (2), Lemma 4.1",
                          "|(ln B)'(x)| <= gamma tau for B of Lemma 4.1 (g_E), i.e. B(x) <= e^{gamma|x-x'|} B(x'), "
                          "at the tangency gamma tau -> 1",
                          f"|x - T|/tau in [1/2, 10], gamma tau in [15/16, 1] (convex switching lemma on "
                          f"|x - T|/tau - 1/2 <= {THR_SPLIT}, branch and bound beyond)",
                          lambda: threshold_def8_objective((Q(0), Q(19, 2)), (Q(15, 16), Q(1))),
                          method="convex-switching", split=THR_SPLIT))
    # 004 Def. 8 (2) with g_L for the ramp-profile closed forms: gamma w in [0, 64] (the dyadic point
    # gamma w = 1, where the active piece of 1/B changes, is a bisection point of the domain)
    obs.append(Obligation(RAMP_GL, "004 Def. 8 (2), Lemma 4.1, App. C.3, Lemma 4.3 (g_L)",
                          "|(1/B)'(d)| <= gamma inf(1/B) and 1/B >= w for the ramp-profile B* of the one-way "
                          "threshold, bounded range and two-way threshold (g_L, Lambda = inf), hence "
                          "B(x) <= (1 + gamma|x - x'|) B(x')",
                          f"d(x)/w in [0, inf), gamma w in [0, {RAMP_GL_GMAX}]",
                          lambda: ramp_def8_linear_objective((Q(0), INF), (Q(0), Q(RAMP_GL_GMAX)))))
    for which, what in (("curve", "b strictly monotone along the chord-partner curve (alpha(b) unique for every b >= 0)"),
                        ("gE", "D decreasing on [0, 1], D < 0 and unimodal on (1, inf) (g_E candidate set)"),
                        ("gL", "Q = 1/D - b increasing on (0, 1), P = b - 1/D unimodal on (1, inf) (g_L candidate set)")):
        obs.append(Obligation(KDE_SHAPE[which], "004 Sec. 4.3, Lemmas 4.5-4.7 (kde.py closed form)", what,
                              f"b in [0, inf): s in [0, {KDE_S_END}] (b <= 1), L = -ln(1 + s) in [0, {KDE_L_END}] "
                              f"(1 <= b <= b({KDE_L_END}) = 11.31), u = 1/sqrt(L) in [0, 1/8] (b >= 11.31, u = 0 is "
                              "b = inf; e^{-L} = eta u^4, eta in [0, 64^2 e^{-64}])",
                              partial(kde_shape_objective, which)))
    obs.append(Obligation(KDE_CHORD_TANGENT, "004 Sec. 4.3, Lemmas 4.5-4.6 (kde.py closed form), step (ii)",
                          "chord >= tangent: ell(b) = alpha e^{-alpha^2/2} >= |k'(b)| = b e^{-b^2/2}, i.e. "
                          "H = alpha - b (1 + s) >= 0 on the chord-partner curve (H = a s^2 U(s), U(0) = 1/3)",
                          f"b in [0, inf): s in [0, {KDE_S_END}] (b <= 1), L = -ln(1 + s) in [0, {KDE_L_END}], "
                          "u = 1/sqrt(L) in [0, 1/8] (u = 0 is b = inf; e^{-L} = eta u^4, eta in [0, 64^2 e^{-64}])",
                          kde_chord_tangent_objective))
    obs.extend(_kde_constant_obligations())  # step (v): kde.py's universal constants (kde_constants.py)
    obs.append(Obligation(REMARK_35, "004 Remark after Lemma 3.5",
                          "Lemma 3.3 eps = 1.44 (2 decimals), [NRS07] eps = 3, Lemma 3.5 eps = 1.025, [BS19] eps = "
                          "1.125 (12 decimals) at gamma = 0.1, eta = 0.5, p = nu = 4",
                          "gamma = 1/10, eta = 1/2, p = nu = 4, theta = 1 (the Remark's numbers, exact)",
                          remark_3_5_example_objective))
    obs.append(Obligation(INEQ5, "003 Sec. III-A, inequality (5) example",
                          "ln(beta/alpha)/k >= 8.4 at k = 1, alpha = 1e-4, beta = 1/2 (so eps > ln(beta/alpha)/k "
                          "gives eps > 8.4)", "k = 1, alpha = 1/10000, beta = 1/2 (the example's numbers, exact)",
                          ineq5_example_objective))
    obs.extend(_cond1_obligations())  # 004 Def. 8 (1) for the ramp-profile closed forms (def8_cond1.py)
    return obs


#: 004 Lemma 4.1 with Def. 8 (2) at the tangency gamma tau in [15/16, 1] (verify.proof.prover.prove_switching)
THR_TANGENT = "004-Lemma-4.1-Def-8-(2)-gamma[15/16,1]"
THR_SPLIT = Q(1, 4)  # b = |x - T|/tau - 1/2 <= 1/4: the corner where the switching lemma is used

#: ids of the obligations added for 004 Def. 8 and the printed numbers (verify/claims/sets/proofs_def8.py)
RAMP_GL = "004-ramp-Def-8-(2)-g_L"
RAMP_GL_GMAX = 64
REMARK_35 = "004-Remark-3.5-example-numbers"
KDE_SHAPE = {"curve": "004-KDE-chord-partner-curve", "gE": "004-KDE-shape-g_E", "gL": "004-KDE-shape-g_L"}
KDE_CHORD_TANGENT = "004-KDE-chord-tangent"
INEQ5 = "003-Ineq-5-example-numbers"


def controls() -> list[Obligation]:
    """Planted false inequalities: each must come back "refuted" with a certified point."""
    g = Q(1, 9)
    eta_t = tight_eta(GenCauchy(p=4.0, theta=1.0), float(g), 1.0)  # the tight eta (core, certified)

    def tight_plus() -> Objective:
        # eps = sup rate at eta_tight <= 1: eta_tight + 1e-6 makes the rate exceed eps = 1
        return loss_rate_objective_at("gencauchy", {"p": 4, "theta": 1}, g, Fraction(eta_t) + Q(1, 10**6))

    return [
        Obligation("control-GenCauchy-tight-eta-plus-1e-6", "control (planted)",
                   "eta_tight + 1e-6: rate <= eps must fail", "z in [0, inf), p = 4, theta = 1, gamma = 1/9",
                   tight_plus, expect="refuted"),
        Obligation("control-StudentT-scale-term-dropped", "control (planted)",
                   "eta from eps = (nu+1)/(2 sqrt nu) eta (scale term dropped): rate <= eps must fail",
                   "z in [0, inf), nu = 3, gamma/eps = 1/9",
                   lambda: loss_rate_objective("student_t", {"nu": (Q(3), Q(3))}, (Q(1, 9), Q(1, 9)), drop_scale=True),
                   expect="refuted"),
        Obligation("control-GenCauchy-Cor-3.2-m-dropped", "control (planted)",
                   "m = 3 outputs calibrated as m = 1: rate <= eps must fail", "z in [0, inf), p = 2, theta = 1, gamma/eps = 1/20",
                   lambda: _m_dropped(), expect="refuted"),
        *[Obligation(f"control-{lab}-shift-sup-minus-1e-6", "control (planted)",
                     f"sup|psi| <= C - 1e-6 ({lab}, C = {c}, attained at z*): must fail next to z*",
                     dom, partial(shift_sup_objective, box, fam, slack=Q(1, 10**6)), expect="refuted")
          for lab, fam, c, box, dom in (
              # at a catalogued shape point (over a shape box the depth-first search zooms onto the edge of
              # the sliver {F > 0} and stops at the minimal width without a certified point)
              ("GenCauchy", "gencauchy", "theta (p-1)^((p-1)/p)", {"p": (Q(4), Q(4)), "theta": (Q(1), Q(1))},
               "z in [0, inf), p = 4, theta = 1"),
              ("StudentT", "student_t", "(nu+1)/(2 sqrt nu)", {"nu": (Q(4), Q(4))}, "z in [0, inf), nu = 4"))],
        Obligation("control-ramp-Def-8-g_L-bound-minus-1e-6", "control (planted)",
                   "|(1/B)'| <= (gamma - 1e-6) inf(1/B) for the ramp profile (g_L): must fail where 1/B = w(1 + gamma d)",
                   f"d/w in [0, inf), gamma w in [0, {RAMP_GL_GMAX}]",
                   lambda: ramp_def8_linear_objective((Q(0), INF), (Q(0), Q(RAMP_GL_GMAX)), slack=Q(1, 10**6)),
                   expect="refuted"),
        Obligation("control-KDE-D-monotone-across-turn", "control (planted)",
                   "D decreasing on all of (1, b(64)] (the turning point b_m dropped): must fail",
                   "L in [0, 64]", lambda: kde_shape_objective("gE", drop_turn=True), expect="refuted"),
        Obligation("control-KDE-P-monotone-across-turn", "control (planted)",
                   "P = b - 1/D decreasing on all of (1, b(64)] (the turning point b_P dropped): must fail",
                   "L in [0, 64]", lambda: kde_shape_objective("gL", drop_turn=True), expect="refuted"),
        *[Obligation(f"control-KDE-tail-{w}-margin-1e-6", "control (planted)",
                     f"the KDE tail with the sign's margin shifted by 1e-6: {txt} for all L in [64, 2^60] "
                     f"(true for b < {where}, beyond the former window b <= b(4096) = 90.5; the quantity tends to "
                     "0): must fail",
                     "u = 1/sqrt(L) in [2^-30, 1/8] (L in [64, 2^60]), e^{-L} = eta u^4, eta in [0, 64^2 e^{-64}]",
                     partial(_kde_tail_control, w), expect="refuted")
          for w, txt, where in (("curve", "b_L >= 1e-6", "1e6"), ("gE", "D <= -1e-6", "1e6"),
                                ("gL", "D^2 b_L + D_L >= 1e-6", "126"))],
        Obligation("control-KDE-chord-tangent-margin-1e-6", "control (planted)",
                   "chord >= tangent with a margin 1e-6 on the unscaled H = alpha - b (1 + s) >= 1e-6 for L in "
                   "[2^-10, 64] (true for b >= 1.002; H ~ s^2/3 -> 0 at b = 1): must fail",
                   "L = -ln(1 + s) in [2^-10, 64] (b in [1.0005, 11.31])",
                   lambda: kde_chord_tangent_objective(margin=Q(1, 10**6)), expect="refuted"),
        Obligation("control-Lemma-4.1-Def-8-tangency-bound-minus-1e-6", "control (planted)",
                   "|(ln B)'| <= gamma tau - 1e-6 where the piece 1/(|x - T| + tau/2) of B is active (Lemma 4.1, g_E), "
                   "at the tangency: must fail next to the crossing for 1 - gamma tau < 1e-6",
                   "|x - T|/tau in [1/2, 10], gamma tau in [15/16, 1]",
                   lambda: threshold_def8_objective((Q(0), Q(19, 2)), (Q(15, 16), Q(1)), slack=Q(1, 10**6)),
                   expect="refuted", method="convex-switching", split=THR_SPLIT),
        Obligation("control-Remark-3.5-lemma-3.5-minus-1e-6", "control (planted)",
                   "Lemma 3.5 eps printed as 1.025 - 1e-6 (12 decimals): must fail",
                   "gamma = 1/10, eta = 1/2, p = nu = 4",
                   lambda: remark_3_5_example_objective(Q(1025, 1000) - Q(1, 10**6)), expect="refuted"),
        Obligation("control-Ineq-5-example-plus-1e-6", "control (planted)",
                   "ln(beta/alpha)/k >= ln(5000) + 1e-6 (the exact threshold 1e-6 too high): must fail",
                   "k = 1, alpha = 1/10000, beta = 1/2",
                   lambda: ineq5_example_objective(Fraction(math.log(5000)) + Q(1, 10**6)), expect="refuted"),
        *_cond1_controls(),
    ]


def _cond1_obligations() -> list[Obligation]:
    return _cond1_obligation_list()


def _cond1_controls() -> list[Obligation]:
    return _cond1_control_list()


def _kde_constant_obligations() -> list[Obligation]:
    return _kde_constants_list()


def _kde_tail_control(which: str) -> Any:
    return tail_control_objective(which, Fraction(1, 10**6))


def _m_dropped() -> Objective:
    """Cor. 3.2 rate of m = 3 outputs with the m = 1 eta (Lemma 3.3): the factor m dropped."""
    f = _family("gencauchy")
    eta = _calibrated_eta("gencauchy", 1)
    rate, z = rate_expression("gencauchy", eta, G)
    F = (rate + 2 * G * f["sup_scale"] - 1).subs({f["shape"][0]: 2, f["shape"][1]: 1, G: sp.Rational(1, 20)})
    return _objective(F, [Variable(z, Q(0), INF)], name="control: Cor. 3.2 with m dropped", meta={"control": True})


def loss_rate_objective_at(family: str, shape: dict[str, Any], gamma: Fraction, eta: Fraction) -> Objective:
    """F(z) = eta |psi(z)| + gamma |1 + z psi(z)| - 1 at given exact shape, gamma, eta (for controls)."""
    f = _family(family)
    rate, z = rate_expression(family, sp.Rational(eta.numerator, eta.denominator),
                              sp.Rational(gamma.numerator, gamma.denominator))
    F = (rate - 1).subs({s: sp.nsimplify(shape[s.name]) for s in f["shape"]})
    return _objective(F, [Variable(z, Q(0), INF)], name=f"{family} rate at eta = {float(eta):.12g}",
                     meta={"family": family, "eta": str(eta), "gamma": str(gamma)})


def build(obligation_id: str, scale: str = "test") -> Objective:
    """A fresh Objective for an obligation id (for :func:`verify.proof.recheck.recheck`)."""
    for ob in catalogue(scale):
        if ob.id == obligation_id:
            return ob.build()
    for ob in controls():
        if ob.id == obligation_id:
            return ob.build()
    raise ValueError(f"unknown obligation id {obligation_id!r}")


def run(ob: Obligation, **kw: Any) -> ProofResult | SwitchingProof:
    """prove_le (or prove_switching, by ``ob.method``) on the obligation's objective (keyword
    arguments passed through)."""
    if ob.method == "convex-switching":
        if ob.split is None:
            raise ValueError(f"obligation {ob.id}: method 'convex-switching' needs a split")
        return prove_switching(ob.build(), ob.split, **{**ob.prove, **kw})
    return prove_le(ob.build(), **{**ob.prove, **kw})
