"""Rigorous enclosures of the universal constants of the KDE closed form (004 Sec. 4.3).

``smoothsens_core/sensitivity/kde.py`` uses three numbers that do not depend on the query:

* ``KDE_A_W`` = a_W = alpha(0), the root a > 0 of (1 + a^2) e^{-a^2/2} = 1 (004 Lemma 4.7, S_2), a float
  literal; 1/a_W = D(0) is the existence threshold of the g_E candidate b1;
* ``_d_min()`` = (b_m, D_min): minimiser and minimum of D(b) = d ln ell/db on (1, inf), by scipy's
  ``minimize_scalar`` on [1.5, 4]; -D_min is the existence threshold of b2, b_m the end of its bracket;
* ``_p_min()`` = (b_P, P_min): minimiser and minimum of P(b) = b - 1/D(b) on (1, inf) (g_L), by
  ``minimize_scalar`` on [1.2, 4]; P_min gates the g_L candidate b2, b_P ends its bracket.

Each is enclosed here on the explicit chord-partner curve (:func:`verify.proof.kde_chord.kde_curve`,
no root of phi_0 is solved), as one obligation for the branch-and-bound prover (so the enclosure is
proven, re-checked and re-checkable with ``--recheck-proof``).  Every statement is "F <= 0" on a
point or a tiny interval of the curve parameter:

a_W (chart s = a (a - b)):  b(s_lo) >= 0 >= b(s_hi), so b(s_W) = 0 for an s_W in [s_lo, s_hi] (unique:
    b is strictly decreasing in s, obligation 004-KDE-chord-partner-curve) and a_W = a(s_W) lies in
    a([s_lo, s_hi]) subset [aw_lo, aw_hi] (ball evaluation on the interval).
b_m, D_min (chart L = -ln(1 + s)):  D_L(L_lo) <= 0 <= D_L(L_hi), so D_L has a zero in [L_lo, L_hi]; it is
    the only zero of D_L on (0, inf) and the global minimiser of D on (1, inf) (004-KDE-shape-g_E: D_L < 0
    before the window KDE_TURN["D"], D_LL > 0 on it, D_L > 0 after, b_L > 0), and [L_lo, L_hi] lies in the
    window.  Hence b_m in [b(L_lo), b(L_hi)] subset [b_lo, b_hi] (b increasing in L), and
    D_min in [min of D on [L_lo, L_hi], D(L_mid)] subset [V_lo, V_hi].
b_P, P_min:  the same with E = D^2 b_L + D_L (sign of P_L, since P_L = E/D^2; 004-KDE-shape-g_L) and
    P = b - 1/D, window KDE_TURN["P"].

The core's floats.  With the enclosures, the claim checks by exact rational arithmetic that
|KDE_A_W - a_W| <= 2^-52 (one ulp on [1, 2): the literal is a_W to double precision) and
|D_min^core - D_min| <= DELTA, |P_min^core - P_min| <= DELTA; the minimisers of a flat function cannot
be located to the float's accuracy (V(b_m + e) - V(b_m) ~ V''(b_m) e^2/2), so for them the statement is
the one the core needs: the core's b is a DELTA-minimiser, V(b^core) <= V_min + DELTA.  That is a second
obligation per turning point: b(Lc1) <= b^core <= b(Lc2) (so the curve point of b^core has L in
[Lc1, Lc2]) and V <= V_lo + DELTA on [Lc1, Lc2], V_lo the proven lower end of the minimum.  The distances |b^core - b_m| are reported
(rigorous intervals), not bounded by the statement.  DELTA = 1e-12 is the accuracy the core states for
its roots (brentq xtol/rtol 1e-14 on D, which is computed from a partner certified to 1e-10 relative and
tabulated to ~1e-13); it is a tolerance of the statement, not a measured error.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, Callable

from flint import arb, arb_series

from smoothsens_core.sensitivity import kde

from .functions import SeriesObjective, ball_from_fraction, lower_fraction, upper_fraction, workprec
from .kde_chord import KDE_TURN, kde_curve
from .obligation_types import Obligation

__all__ = ["A_W", "TURN", "CORE", "DELTA", "B_WIDTH", "locate_a_w", "locate_turn", "core_constants", "a_w_objective",
           "turn_objective", "compare_core", "obligations"]

A_W = "004-KDE-constant-a_W"
TURN = {"D": "004-KDE-constant-b_m-D_min", "P": "004-KDE-constant-b_P-P_min"}
#: the core's float minimisers as DELTA-minimisers (a second obligation per turn, on the core's bracket)
CORE = {"D": "004-KDE-core-b_m-delta-minimiser", "P": "004-KDE-core-b_P-delta-minimiser"}
#: the tolerance of the core's minimum values and of its minimisers (as DELTA-minimisers), see the module docstring
DELTA = Fraction(1, 10**12)
#: the width asked of the enclosures of the minimisers b_m, b_P and of a_W
B_WIDTH = Fraction(1, 10**12)
_STEPS = 64  # bisection steps (windows of width <= 1/2): brackets of width <= 2^-65 ~ 3e-20 in the curve parameter
_PREC = 96
_GRID = 10**20  # stated endpoints are rounded outward to multiples of 1e-20


def _down(x: Any) -> Fraction:
    q = Fraction(lower_fraction(x))
    return Fraction(math.floor(q * _GRID), _GRID)


def _up(x: Any) -> Fraction:
    q = Fraction(upper_fraction(x))
    return Fraction(math.ceil(q * _GRID), _GRID)


def _q(x: Fraction) -> Any:
    return ball_from_fraction(x)


def _series(x: Any) -> Any:
    return arb_series([x, 1], prec=3)


def _quantities(kind: str, v: Any) -> tuple[Any, Any, Any]:
    """(b, derivative whose sign is that of V_L, V) as arb_series in the chart L, for kind "D" (V = D,
    derivative D_L) or "P" (V = P = b - 1/D, derivative E = D^2 b_L + D_L)."""
    _, b, D = kde_curve(v, "neg")
    if kind == "D":
        return b, D.derivative(), D
    if kind == "P":
        return b, D * D * b.derivative() + D.derivative(), b - 1 / D
    raise ValueError(f"kind must be 'D' or 'P'; got kind={kind!r}")


def _bisect(sign: Callable[[Fraction], int], lo: Fraction, hi: Fraction, steps: int) -> tuple[Fraction, Fraction]:
    """Halve [lo, hi] (sign(lo) < 0 < sign(hi)) keeping the sign change; stop when a midpoint's sign is
    not certified (sign 0).  The returned ends are certified by the obligation, not here."""
    for _ in range(steps):
        m = (lo + hi) / 2
        sg = sign(m)
        if sg < 0:
            lo = m
        elif sg > 0:
            hi = m
        else:
            break
    return lo, hi


def _sgn(x: Any) -> int:
    return -1 if x < 0 else (1 if x > 0 else 0)


@lru_cache(maxsize=1)
def core_constants() -> dict[str, float]:
    """The core's floats: KDE_A_W, b_m, D_min (``_d_min``), b_P, P_min (``_p_min``)."""
    b_m, d_min = kde._d_min()
    b_p, p_min = kde._p_min()
    return {"a_W": float(kde.KDE_A_W), "b_m": float(b_m), "D_min": float(d_min), "b_P": float(b_p),
            "P_min": float(p_min)}


@lru_cache(maxsize=1)
def locate_a_w() -> dict[str, Fraction]:
    """s_lo < s_W < s_hi (b(s) changes sign) and the stated [aw_lo, aw_hi] (not yet proven)."""
    with workprec(_PREC):
        def sign(s: Fraction) -> int:  # b decreasing in s: -b changes sign from - to +
            return _sgn(-kde_curve(_series(_q(s)), "pos")[1].coeffs()[0])
        lo, hi = _bisect(sign, Fraction(5, 2), Fraction(5, 2) + Fraction(1, 32), _STEPS)
        m, r = (lo + hi) / 2, _q((hi - lo) / 2)  # mean-value form of a on [lo, hi]
        a = kde_curve(_series(_q(m)), "pos")[0].coeffs()[0] + \
            kde_curve(_series(_q(lo).union(_q(hi))), "pos")[0].coeffs()[1] * r.union(-r)
        return {"s_lo": lo, "s_hi": hi, "aw_lo": _down(a), "aw_hi": _up(a)}


@lru_cache(maxsize=2)
def locate_turn(kind: str) -> dict[str, Fraction]:
    """The brackets of the minimiser (L_lo, L_hi, L_mid) and of the core's float b (Lc1, Lc2) in the
    chart L, and the stated rational ends b_lo, b_hi (minimiser), V_lo, V_hi (minimum value), b_core."""
    w_lo, w_hi = KDE_TURN[kind]
    b_core = Fraction(core_constants()["b_m" if kind == "D" else "b_P"])
    with workprec(_PREC):
        def deriv_sign(L: Fraction) -> int:
            return _sgn(_quantities(kind, _series(_q(L)))[1].coeffs()[0])

        def b_sign(L: Fraction) -> int:  # b increasing in L
            return _sgn(_quantities(kind, _series(_q(L)))[0].coeffs()[0] - _q(b_core))
        L_lo, L_hi = _bisect(deriv_sign, w_lo, w_hi, _STEPS)
        Lc1, Lc2 = _bisect(b_sign, w_lo, w_hi, _STEPS)
        L_mid = (L_lo + L_hi) / 2
        b_lo = _down(_quantities(kind, _series(_q(L_lo)))[0].coeffs()[0])
        b_hi = _up(_quantities(kind, _series(_q(L_hi)))[0].coeffs()[0])
        # min of V on [L_lo, L_hi] by the mean-value form V(L_mid) + V_L([L_lo, L_hi]) [-r, r]
        r = _q((L_hi - L_lo) / 2)
        V_L = _quantities(kind, _series(_q(L_lo).union(_q(L_hi))))[2].coeffs()[1]
        V_lo = _down(_quantities(kind, _series(_q(L_mid)))[2].coeffs()[0] + V_L * r.union(-r))
        V_hi = _up(_quantities(kind, _series(_q(L_mid)))[2].coeffs()[0])
    return {"L_lo": L_lo, "L_hi": L_hi, "L_mid": L_mid, "Lc1": Lc1, "Lc2": Lc2, "b_lo": b_lo, "b_hi": b_hi,
            "V_lo": V_lo, "V_hi": V_hi, "b_core": b_core}


def _const(x: Fraction) -> Any:
    return arb(x.numerator) / x.denominator


def a_w_objective() -> Any:
    """F <= 0 pieces proving b(s_lo) >= 0 >= b(s_hi) and a(s) in [aw_lo, aw_hi] on [s_lo, s_hi]."""
    w = locate_a_w()
    lo, hi, alo, ahi = w["s_lo"], w["s_hi"], w["aw_lo"], w["aw_hi"]

    def b_pos(v: Any) -> Any:
        return -kde_curve(v, "pos")[1]

    def b_neg(v: Any) -> Any:
        return kde_curve(v, "pos")[1]

    def a_below(v: Any) -> Any:  # the stated ends become balls at the prover's precision, here
        return kde_curve(v, "pos")[0] - _const(ahi)

    def a_above(v: Any) -> Any:
        return _const(alo) - kde_curve(v, "pos")[0]
    pieces = [(lo, lo, b_pos), (hi, hi, b_neg), (lo, hi, a_below), (lo, hi, a_above)]
    return SeriesObjective(pieces, order=3, name="KDE constant a_W = alpha(0) enclosed on the chart s",
                           meta={"constant": "a_W", **{k: str(v) for k, v in w.items()}})


def turn_objective(kind: str, part: str = "min") -> Any:
    """F <= 0 pieces proving, for kind "D" (b_m, D_min) or "P" (b_P, P_min): ``part="min"`` the enclosure
    (on [L_lo, L_hi]); ``part="core"`` that the core's float minimiser is a DELTA-minimiser (on
    [Lc1, Lc2]: b(Lc1) <= b^core <= b(Lc2) and V <= V_lo + DELTA, V_lo the lower end proven by "min")."""
    w = locate_turn(kind)
    w_tol = {**w, "V_tol": w["V_lo"] + DELTA}

    def piece(f: Callable[..., Any], name: str) -> Callable[[Any], Any]:
        def fn(v: Any) -> Any:  # the stated ends become balls at the prover's precision, here
            c = {k: _const(w_tol[k]) for k in ("b_lo", "b_hi", "V_lo", "V_hi", "b_core", "V_tol")}
            return f(*_quantities(kind, v), c)
        fn.__name__ = name
        return fn
    if part == "core":
        pieces = [
            (w["Lc1"], w["Lc2"], piece(lambda b, d, V, c: V - c["V_tol"], "value_within_delta_of_min")),
            (w["Lc1"], w["Lc1"], piece(lambda b, d, V, c: b - c["b_core"], "b_at_Lc1_below_core")),
            (w["Lc2"], w["Lc2"], piece(lambda b, d, V, c: c["b_core"] - b, "b_at_Lc2_above_core")),
        ]
        bn = {"D": "b_m", "P": "b_P"}[kind]
        return SeriesObjective(pieces, order=3, name=f"kde.py's float {bn} is a {DELTA}-minimiser (chart L)",
                               meta={"constant": kind, "part": part, "delta": str(DELTA),
                                     **{k: str(w[k]) for k in ("Lc1", "Lc2", "V_lo", "b_core")}})
    if part != "min":
        raise ValueError(f"part must be 'min' or 'core'; got part={part!r}")
    pieces = [
        (w["L_lo"], w["L_hi"], piece(lambda b, d, V, c: c["V_lo"] - V, "min_value_above_V_lo")),
        (w["L_lo"], w["L_lo"], piece(lambda b, d, V, c: d, "derivative_nonpositive_at_L_lo")),
        (w["L_hi"], w["L_hi"], piece(lambda b, d, V, c: -d, "derivative_nonnegative_at_L_hi")),
        (w["L_lo"], w["L_lo"], piece(lambda b, d, V, c: c["b_lo"] - b, "b_at_L_lo_above_b_lo")),
        (w["L_hi"], w["L_hi"], piece(lambda b, d, V, c: b - c["b_hi"], "b_at_L_hi_below_b_hi")),
        (w["L_mid"], w["L_mid"], piece(lambda b, d, V, c: V - c["V_hi"], "value_at_L_mid_below_V_hi")),
    ]
    name = {"D": "(b_m, D_min) of D", "P": "(b_P, P_min) of P = b - 1/D"}[kind]
    return SeriesObjective(pieces, order=3, name=f"KDE constants {name} enclosed on the chart L",
                           meta={"constant": kind, "part": part,
                                 **{k: str(w[k]) for k in ("L_lo", "L_hi", "L_mid", "b_lo", "b_hi", "V_lo", "V_hi")}})


def compare_core() -> dict[str, Any]:
    """The core's floats against the stated enclosures (exact rational arithmetic; the enclosures are
    what the obligations prove).  {"ok": all within their statement, "rows": {constant: {...}}}."""
    c = core_constants()
    aw = locate_a_w()
    rows: dict[str, Any] = {}
    x = Fraction(c["a_W"])
    dist = max(x - aw["aw_lo"], aw["aw_hi"] - x)
    rows["a_W"] = {"core": c["a_W"], "enclosure": [str(aw["aw_lo"]), str(aw["aw_hi"])],
                   "width": float(aw["aw_hi"] - aw["aw_lo"]), "max_distance": float(dist),
                   "tolerance": "2^-52", "ok": dist <= Fraction(1, 2**52)}
    for kind, bname, vname in (("D", "b_m", "D_min"), ("P", "b_P", "P_min")):
        w = locate_turn(kind)
        v = Fraction(c[vname])
        vdist = max(v - w["V_lo"], w["V_hi"] - v)
        b = Fraction(c[bname])
        bdist = (max(Fraction(0), w["b_lo"] - b, b - w["b_hi"]), max(abs(b - w["b_lo"]), abs(b - w["b_hi"])))
        rows[vname] = {"core": c[vname], "enclosure": [str(w["V_lo"]), str(w["V_hi"])],
                       "width": float(w["V_hi"] - w["V_lo"]), "max_distance": float(vdist),
                       "tolerance": str(DELTA), "ok": vdist <= DELTA}
        rows[bname] = {"core": c[bname], "enclosure": [str(w["b_lo"]), str(w["b_hi"])],
                       "width": float(w["b_hi"] - w["b_lo"]), "distance": [float(bdist[0]), float(bdist[1])],
                       "statement": f"{vname[0]}(b^core) <= {vname} + {DELTA} (a DELTA-minimiser; proven by the obligation)",
                       "width_ok": w["b_hi"] - w["b_lo"] <= B_WIDTH}
    ok = all(r.get("ok", True) and r.get("width_ok", True) for r in rows.values()) \
        and aw["aw_hi"] - aw["aw_lo"] <= B_WIDTH
    return {"ok": ok, "rows": rows}


def obligations() -> list[Obligation]:
    """The five constant obligations (for :func:`verify.proof.obligations.catalogue`)."""
    src = "004 Sec. 4.3, Lemmas 4.6-4.7 (kde.py universal constants), step (v)"
    return [
        Obligation(A_W, src, "a_W = alpha(0) (root of (1 + a^2) e^{-a^2/2} = 1) in [aw_lo, aw_hi]: b(s) changes sign on "
                   "[s_lo, s_hi] and a([s_lo, s_hi]) lies in the stated interval",
                   "s in [s_lo, s_hi], a bisection bracket of b(s) = 0 near a_W^2 = 2.5129 (its ends are in the "
                   "objective's meta)", a_w_objective),
        *[ob for k, nm, fn, dv, bn in (("D", "(b_m, D_min)", "D", "D_L", "b_m"),
                                       ("P", "(b_P, P_min)", "P = b - 1/D", "E = D^2 b_L + D_L", "b_P"))
          for ob in (
              Obligation(TURN[k], src,
                         f"{nm} of {fn} on (1, inf) enclosed: the sign change of {dv} on [L_lo, L_hi], {bn} in "
                         f"[b(L_lo), b(L_hi)] subset [b_lo, b_hi], min {fn} in [V_lo, V_hi]",
                         f"L = -ln(1 + s) in [L_lo, L_hi], a bisection bracket of {dv} = 0 in the window "
                         f"KDE_TURN[{k!r}] (its ends are in the objective's meta)", partial(turn_objective, k)),
              Obligation(CORE[k], src,
                         f"kde.py's float {bn} is a {DELTA}-minimiser: {fn}(b^core) <= V_lo + {DELTA} <= min {fn} + {DELTA}",
                         "L = -ln(1 + s) in [Lc1, Lc2], a bisection bracket of b(L) = b^core (ends in the meta)",
                         partial(turn_objective, k, "core")))],
    ]
