"""The tail b >= b(L = 64) = 11.31 of the KDE shape lemmas (004 Sec. 4.3, Lemmas 4.5-4.7).

:func:`verify.proof.obligations.kde_shape_objective` proves the shape lemmas of the KDE closed form
(``smoothsens_core/sensitivity/kde.py``) along the chord-partner curve in the chart L = -ln(1 + s)
for L in [0, 64].  Beyond, the kernel values are below e^{-64} and every shape quantity tends to 0,
so the chart L cannot reach L = inf.  This module rescales and compactifies the tail.

The curve in the chart L (:func:`verify.proof.obligations.kde_curve`, side "neg"): with
E = e^{-L} = 1 + s, q = 1 - E and r = sqrt(2 (L - 1 + E)) (> 0 for L > 0),

    a = 1/sqrt(2 T) = q/r   (2 T = 2 (L - 1 + E)/q^2),   b = a - s/a = q/r + r,   D = (1 + s)/a - a = E r/q - q/r.

With dE/dL = -E and dr/dL = q/r the derivatives along the curve are, after multiplying by the
positive factor r or r^3 (which keeps every sign):

    r b_L   = 1 - q^2/r^2,
    r^3 D_L = q^2 - E r^4/q^2,
    r D     = E r^2/q - q,
    r^3 E_P = (r D)^2 (r b_L) + r^3 D_L      (E_P = D^2 b_L + D_L, the sign of P_b; obligations.py),
    r H     = q^2 - E r^2                    (H = a - b (1 + s): chord >= tangent iff H >= 0,
                                              :func:`verify.proof.obligations.kde_chord_tangent_objective`).

:func:`tail_forms` does not trust these lines: it differentiates a, b, D of the curve with SymPy
(total derivative in L, E = e^{-L} and r as functions of L) and checks each identity exactly -- with
L = r^2/2 + 1 - E the difference is a rational function of (E, r), cancelled to 0 -- every time it
builds the forms (:func:`identity_holds`; a form with a dropped remainder fails it).

Compactification.  u = 1/sqrt(L) in [0, 1/8] covers L in [64, inf] (u = 0 is L = inf), and the
exponentially small terms are written E = eta u^4 with eta = e^{-L} L^2, a bounded remainder:
e^{-L} L^2 decreases for L > 2, so eta in [0, 64^2 e^{-64}] (< 6.6e-25) on the whole tail.  Each
rescaled quantity is then a rational function R(u, eta) whose denominator does not vanish at u = 0
(:func:`tail_forms` checks it).  The prover proves the sign of R(u, eta) for *every* (u, eta) in
[0, 1/8] x [0, eta_max] -- a statement stronger than the one on the curve, where eta = eta(u) -- by
arb_series arithmetic in u with eta a constant ball (:func:`tail_pieces`): the Taylor coefficients
in u then enclose the partial derivatives of R in u for every eta in the ball, so the mean-value
form of :class:`~verify.proof.functions.SeriesObjective` stays valid.

The limits at L = inf (u = 0, eta = 0, since eta(u) -> 0): r b_L -> 1, r^3 D_L -> 1, r D -> -1,
r^3 E_P -> 2, r H -> 1, i.e. a ~ 1/sqrt(2L), b ~ sqrt(2L), D ~ -1/b, so D < 0 and b_L, D_L, E_P > 0 on the
whole tail, D -> 0 and b -> inf (b >= r: the chart L -> b is onto [1, inf)).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

import sympy as sp
from flint import arb

from .functions import SeriesObjective

__all__ = ["TAIL_L", "TAIL_U", "CONTROL_U_MIN", "U", "ETA", "L_SYM", "E_SYM", "eta_max", "rescaled_forms",
           "identity_holds", "tail_forms", "tail_pieces", "tail_control_objective"]

#: the tail starts at L = TAIL_L (b(64) = 11.314...): u = 1/sqrt(L) in [0, TAIL_U]
TAIL_L = Fraction(64)
TAIL_U = Fraction(1, 8)
U = sp.Symbol("u", nonnegative=True)  # 1/sqrt(L)
ETA = sp.Symbol("eta", nonnegative=True)  # e^{-L} L^2, in [0, 64^2 e^{-64}] for L >= 64
#: the rescaled quantities, the power of r they carry, and the sign each shape lemma needs
SCALE = {"bL": 1, "DL": 3, "D": 1, "EP": 3, "H": 1}


def eta_max() -> Any:
    """An arb ball containing [0, 64^2 e^{-64}] (the range of eta = e^{-L} L^2 on L >= 64)."""
    top = arb(int(TAIL_L) ** 2) * (-arb(int(TAIL_L))).exp()
    return arb(0).union(top)


#: (L, E) of the rescaled forms as printed in the module docstring (E stands for e^{-L})
L_SYM, E_SYM = sp.symbols("L_ E_", positive=True)


def rescaled_forms() -> dict[str, sp.Expr]:
    """The rescaled quantities in (L, E = e^{-L}) as stated in the module docstring (not yet checked)."""
    q, r2 = 1 - E_SYM, 2 * (L_SYM - 1 + E_SYM)
    R = {"bL": 1 - q**2 / r2, "DL": q**2 - E_SYM * r2**2 / q**2, "D": E_SYM * r2 / q - q}
    R["EP"] = R["D"] ** 2 * R["bL"] + R["DL"]
    R["H"] = q**2 - E_SYM * r2  # r (a - b (1 + s)), s = -q, 1 + s = E
    return R


#: r = sqrt(2 (L - 1 + E)) as a symbol: with L = r^2/2 + 1 - E every quantity is rational in (E, r)
R_SYM = sp.Symbol("r_", positive=True)


@lru_cache(maxsize=1)
def _curve_in_E_r() -> dict[str, sp.Expr]:
    """{"bL": b_L, "DL": D_L, "D": D, "H": a - b (1 + s)} of the curve of obligations.kde_curve (chart L) as rational
    functions of (E, r): E = e^{-L}, r = sqrt(2 (L - 1 + E)), so L = r^2/2 + 1 - E.  The derivative
    along L is the total one, d/dL = -E d/dE + r' d/dr (dE/dL = -E by E = e^{-L}; r' from
    G = r^2 - 2 (L - 1 + E) = 0 by implicit differentiation).  Raises RuntimeError if
    a = 1/sqrt(2T) is not q/r."""
    E, r, L = E_SYM, R_SYM, L_SYM
    s = E - 1
    T = (s + L) / s**2  # kde_chord._kde_T with s - log1p(s) = s + L
    q = 1 - E
    on = {L: r**2 / 2 + 1 - E}
    # a = 1/sqrt(2T) = q/r: both positive, so the squares suffice
    if sp.cancel(((q / r) ** 2 * 2 * T - 1).subs(on)) != 0:
        raise RuntimeError("kde_tail: a^2 = 1/(2T) = q^2/r^2 does not hold")
    G = r**2 - 2 * (L - 1 + E)
    r_L = sp.cancel((-(sp.diff(G, L) + sp.diff(G, E) * (-E)) / sp.diff(G, r)).subs(on))

    def d_dL(x: sp.Expr) -> sp.Expr:
        return sp.diff(x, E) * (-E) + sp.diff(x, r) * r_L

    a = q / r
    b = a - s / a
    D = (1 + s) / a - a
    return {"bL": d_dL(b), "DL": d_dL(D), "D": D, "H": a - b * (1 + s)}


def identity_holds(key: str, form: sp.Expr) -> bool:
    """True iff ``form`` (in L_, E_) equals r^SCALE[key] times the curve's quantity ``key`` ("bL",
    "DL", "D" or "H") identically: the difference, rational in (E, r) once L = r^2/2 + 1 - E, cancels to 0
    (a decision procedure for rational functions, no simplification heuristics)."""
    derived = _curve_in_E_r()
    diff = R_SYM ** SCALE[key] * derived[key] - form.subs(L_SYM, R_SYM**2 / 2 + 1 - E_SYM)
    return sp.cancel(diff) == 0


@lru_cache(maxsize=1)
def tail_forms() -> dict[str, Any]:
    """{"bL", "DL", "D", "EP": R(u, eta) (SymPy, rational), "inv_r": 1/r(u, eta), "limits": the values
    at u = eta = 0}.  Raises RuntimeError if an identity of the module docstring does not hold."""
    R = rescaled_forms()
    for k in ("bL", "DL", "D", "H"):  # r^3 E_P = (r D)^2 (r b_L) + r^3 D_L is then algebra
        if not identity_holds(k, R[k]):
            raise RuntimeError(f"kde_tail: the rescaled form of {k} is not r^{SCALE[k]} times its derivative")
    # compactify: L = 1/u^2, E = eta u^4 (eta = E L^2)
    at = {E_SYM: ETA * U**4}
    forms: dict[str, Any] = {}
    for k in ("bL", "DL", "D", "H"):
        f = sp.cancel(R[k].subs(at).subs(L_SYM, 1 / U**2))
        den = sp.fraction(f)[1]
        if den.subs({U: 0, ETA: 0}) == 0:
            raise RuntimeError(f"kde_tail: the compact form of {k} has a pole at u = 0")
        forms[k] = f
    forms["EP"] = forms["D"] ** 2 * forms["bL"] + forms["DL"]  # as R["EP"], from the three forms
    # 1/r = u / sqrt(2 (1 - u^2 + eta u^6))  (r^2 = 2 (L - 1 + E) = 2 (1 - u^2 + E u^2)/u^2)
    r2 = 2 * (L_SYM - 1 + E_SYM)
    forms["inv_r"] = U / sp.sqrt(sp.expand(r2.subs(at).subs(L_SYM, 1 / U**2) * U**2))
    forms["limits"] = {k: forms[k].subs({U: 0, ETA: 0}) for k in SCALE}
    return forms


def _ipow(x: Any, n: int) -> Any:
    """x^n for an integer n != 0 by repeated products (exact balls, no pow of a ball)."""
    y = x
    for _ in range(abs(n) - 1):
        y = y * x
    return 1 / y if n < 0 else y


def _series_fn(expr: sp.Expr) -> Callable[[Any, Any], Any]:
    """A closure (u series, eta ball) -> the arb_series of ``expr``: +, *, integer powers, square
    roots, rationals as exact balls (no float ever enters)."""
    def ev(e: sp.Expr, u: Any, eta: Any) -> Any:
        if e == U:
            return u
        if e == ETA:
            return eta
        if e.is_Integer:
            return arb(int(e))
        if e.is_Rational:
            return arb(int(e.p)) / int(e.q)
        if e.is_Add:
            out = ev(e.args[0], u, eta)
            for t in e.args[1:]:
                out = out + ev(t, u, eta)
            return out
        if e.is_Mul:
            out = ev(e.args[0], u, eta)
            for t in e.args[1:]:
                out = out * ev(t, u, eta)
            return out
        if e.is_Pow:
            base, p = e.args
            x = ev(base, u, eta)
            if p.is_Integer:
                return _ipow(x, int(p))
            if p.is_Rational and p.q == 2:  # x^(n/2) = sqrt(x)^n
                return _ipow(x.sqrt(), int(p.p))
        raise ValueError(f"kde_tail: no arb translation of {e!r}")

    def fn(u: Any, eta: Any) -> Any:
        out = ev(expr, u, eta)
        return out if hasattr(out, "coeffs") else 0 * u + out

    return fn


def tail_pieces(which: str, slack: Fraction = Fraction(0)) -> list[tuple[Fraction, Fraction, Callable[[Any], Any]]]:
    """Pieces (0, 1/8, fn) of F <= 0 on the tail u = 1/sqrt(L) in [0, 1/8] for the shape lemma ``which``:

    "curve": -r b_L <= 0 (b increasing in L up to b = inf);
    "gE":    -r^3 D_L <= 0 (D increasing past b(64)) and r D <= 0 (D < 0);
    "gL":    -r^3 E_P <= 0 (P increasing past b(64));
    "chord": -r H <= 0 (chord >= tangent, H = a - b (1 + s); r H -> 1 at b = inf).
    ``slack`` is added to every piece (as to the other pieces of the shape objective)."""
    forms = tail_forms()
    want = {"curve": [("bL", -1)], "gE": [("DL", -1), ("D", 1)], "gL": [("EP", -1)], "chord": [("H", -1)]}
    if which not in want:
        raise ValueError(f"which must be 'curve', 'gE', 'gL' or 'chord'; got which={which!r}")
    sl = arb(slack.numerator) / slack.denominator
    out: list[tuple[Fraction, Fraction, Callable[[Any], Any]]] = []
    for key, sign in want[which]:
        f = _series_fn(sign * forms[key])

        def fn(v: Any, f: Callable[[Any, Any], Any] = f) -> Any:
            return f(v, eta_max()) + sl
        fn.__name__ = f"tail_{'neg' if sign < 0 else 'pos'}_{key}"
        out.append((Fraction(0), TAIL_U, fn))
    return out


#: the planted tail controls stop at u = 2^-30 (L = 2^60, b ~ 1.5e9), so that their certified
#: counterexample is a point of the curve (u > 0), not the limit point u = 0
CONTROL_U_MIN = Fraction(1, 2**30)


def tail_control_objective(which: str, margin: Fraction = Fraction(1, 10**6)) -> Any:
    """Planted control: the tail's sign claimed with a margin on the *unscaled* quantity,
    "curve": b_L >= margin, "gE": D <= -margin, "gL": E_P >= margin, for L in [64, 2^60].  False:
    each quantity tends to 0 (b_L ~ 1/b, D ~ -1/b, E_P ~ 2/b^3), so a certified point exists far out
    (b > 1e6 for b_L and D, b > 126 for E_P) -- beyond the window b <= b(4096) = 90.5 a proof on
    L <= 4096 saw.  The same compact forms as the proof, times 1/r (or 1/r^3), as series in u."""
    forms = tail_forms()
    key, sign = {"curve": ("bL", -1), "gE": ("D", 1), "gL": ("EP", -1)}[which]
    m = sp.Rational(margin.numerator, margin.denominator)
    f = _series_fn(sign * forms[key] * forms["inv_r"] ** SCALE[key] + m)

    def fn(v: Any) -> Any:
        return f(v, eta_max())
    fn.__name__ = f"tail_margin_{key}"
    return SeriesObjective([(CONTROL_U_MIN, TAIL_U, fn)], name=f"control: KDE tail {which} with a margin {margin}",
                           order=3, meta={"control": True, "which": which, "margin": str(margin),
                                          "chart": "u = 1/sqrt(L) in [2^-30, 1/8], e^{-L} = eta u^4"})
