"""Rigorous truncation bounds of the series branches of kde.py (004 Sec. 4.3).

``smoothsens_core/sensitivity/kde.py`` replaces the exact functions by truncated series on two branches:

* near the triple root b = 1 (|e| < 1e-3, e = b - 1; ``_SERIES``):
    alpha(1 + e) ~ 1 - e/2 + 3e^2/32 + 9e^3/1280                       (``_partner``, ``_partner_table``),
    ell(1 + e)   ~ e^{-1/2} (1 - e^2/4 + 5e^3/96 + 191e^4/5120)        (``_ell``, ``kde_ell_series``),
    D(1 + e)     ~ -e/2 + 5e^2/32 + 31e^3/1280                         (``_log_slope``, ``kde_log_slope_series``);
* for g = gamma h < 1e-6 (``_stationary_radii``): the roots of D(b1) = g on (0, 1) and D(b2) = -g on (1, b_m)
    b1(g) ~ 1 - 2g + 5g^2/4,   b2(g) ~ 1 + 2g + 5g^2/4.

The exact functions are defined from the definitions, never from the series: alpha(b) is the root a != b of
phi_0(a, b) = e^{-b^2/2} - (1 + a(a - b)) e^{-a^2/2} = 0 (alpha(1) = 1), ell = alpha e^{-alpha^2/2},
D = (k'(a) - k'(b))/((a - b) k'(a)) at a = alpha(b) (k(u) = e^{-u^2/2}; D(1) = 0 by continuity), b1, b2 the
roots above.  They are written explicitly along the chord-partner curve (no root is solved): with
s = a(a - b) and T(s) = (s - ln(1 + s))/s^2 = sum_k (-1)^k s^k/(k + 2) (analytic, T(0) = 1/2),

    a(s) = (2T(s))^{-1/2},   b(s) = a - s/a,   D(s) = (1 + s)/a - a,   ell = a e^{-a^2/2},

every nontrivial zero (a, b) of phi_0 is (a(s), b(s)) for exactly one s (step "curve": SymPy identities
1 + a(a - b) = 1 + s, (a^2 - b^2)/2 = ln(1 + s), the D formula; uniqueness of s is the proven curve lemma,
obligation 004-KDE-chord-partner-curve: b strictly decreasing in s).

Taylor models.  Each truncation error is an analytic function E(s) of the curve parameter:
    alpha: E = P_alpha(e(s)) - a(s);   ell (relative): E = P_ell(e(s)) / (a e^{-(a^2 - 1)/2}) - 1;
    D: E = P_D(e(s)) - D(s);   b1: E = P_1(D(s)) - b(s) (s > 0);   b2: E = P_2(-D(s)) - b(s) (s < 0),
with e(s) = b(s) - 1.  Its Taylor coefficients E_0 .. E_{N-1} at s = 0 are computed EXACTLY (rational
truncated power-series arithmetic; T's coefficients are rational, 2T(0) = 1); the first ones vanish (the
order m of the truncation).  The remainder is Lagrange's: E(s) = sum_{k<N} E_k s^k + c s^N with c =
E^{(N)}(xi)/N! for a xi between 0 and s, and c lies in the N-th coefficient of the arb power series of E
evaluated on the ball S = [-sigma, sigma] (ball arithmetic encloses the Taylor coefficients at every point of
the ball; T on S is its Taylor polynomial of degree 59 plus a rigorous tail bound).  Hence on |s| <= sigma

    |E(s)| <= |s|^m K_s,   K_s = sum_{k=m}^{N-1} |E_k| sigma^{k-m} + sup|c| sigma^{N-m}.

The variable of the branch: e(s) = b'(xi) s (mean value theorem, b(0) = 1) gives |s| <= lambda |e|,
lambda = 1/inf_S |b'|, and g = D(s) = D'(xi) s gives |s| <= mu g, mu = 1/inf_S D' (D' > 0 on S): the bound
is K |x|^m with K = K_s lambda^m (x = e) or K_s mu^m (x = g), proven <= the STATED constants.

Coverage of the branch domains (point evaluations on balls, intermediate value theorem): e(sigma) <= -E_MAX
and e(-sigma) >= E_MAX, so every |e| <= E_MAX is e(s) for an s in S; D(sigma_g) >= G_MAX and
D(-sigma_g) <= -G_MAX with D(0) = 0 and D' > 0 on S, so every g in (0, G_MAX] is D(s) for an s in
(0, sigma_g] (b1(g) = b(s) in (1 - E_MAX, 1): the root of D = g on (0, 1) is unique by the proven shape
lemma 004-KDE-shape-g_E) and -g = D(s) for an s in [-sigma_g, 0) (b2(g) = b(s): D decreases in b on the
whole window, dD/db = D'/b' < 0 on S, so b(s) < b_m, and the root on (1, b_m) is unique by the same lemma).
kde.py's branches are inside: every double e with |e| < _SERIES = fl(1e-3) has |e| <= 1/1000, every double
g < fl(1e-6) has g < 1/10^6 (exact rational comparisons in :func:`core_domain`).

What B* inherits from the b1, b2 series (g_E, every c): with F(b) = ln ell(b) - g|b - c|, kde.py's
candidate at b1~ = the series value is F(b1~) <= sup F, and the exact candidate F(b1) [c < b1] exceeds
F(b1~) or F(c) (when b1~ <= c < b1) by at most (M/2) delta^2, delta = |b1~ - b1|, M = sup |dD/db| on the
window (Taylor's theorem at the stationary point b1, F'(b1) = 0, F'' = dD/db; the same for b2):
|ln B*_kde.py - ln B*| <= (M/2) max(delta1, delta2)^2 <= K_B g^6 from the roots (all else exact).

Controls: :func:`prove` takes the series as a parameter; a planted series (a coefficient perturbed by 1e-3,
a dropped term) fails the order or the constant, and :func:`refute` finds a certified point s_j of the
window (|e(s_j)| <= E_MAX, resp. g = D(s_j) in (0, G_MAX], certified) where |E(s_j)| > K |x(s_j)|^m.

:func:`recheck` rebuilds everything from its own definitions: the exact coefficients by SymPy ``series`` of
the closed forms (T = (s - log(1 + s))/s^2, not the prover's rational truncated-series arithmetic), the ball
coefficients by a second evaluation (T's Taylor polynomial of degree 82 with its tail bound, a = 1/sqrt(2T)
and 1/a = 1/rsqrt(2T), 192 bits), the window points and every constant, and compares them with the record
(stated bounds exactly, proven constants to 1 %).
"""

from __future__ import annotations

import math
import time
from fractions import Fraction as Q
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from .record import describe_record, register_method

__all__ = ["METHOD", "E_MAX", "G_MAX", "SIGMA", "SIGMA_G", "N", "SERIES", "STATED", "DOMAIN", "RELIES_ON",
           "exact_errors", "ball_errors", "bounds", "prove", "refute", "recheck", "core_domain", "planted"]

METHOD = "kde-series"
#: the branch domains: |e| <= E_MAX (b = 1 + e) and g in (0, G_MAX]
E_MAX = Q(1, 1000)
G_MAX = Q(1, 10**6)
#: the s-window [-SIGMA, SIGMA] (covers |e| <= E_MAX) and the s-range (0, SIGMA_G] of g in (0, G_MAX]
SIGMA = Q(1502, 10**6)
SIGMA_G = Q(301, 10**8)
#: order of the Taylor models: exact coefficients of s^0 .. s^{N-1}, ball remainder at s^N
N = 8
_PREC = 128
_T_TERMS = 60  # degree + 1 of T's Taylor polynomial on the ball (prover); the re-checker uses another

#: kde.py's truncated series: coefficients of x^0, x^1, ... (x = e for alpha, ell / e^{-1/2}, D; x = g for b1, b2)
SERIES: dict[str, tuple[Q, ...]] = {
    "alpha": (Q(1), Q(-1, 2), Q(3, 32), Q(9, 1280)),
    "ell": (Q(1), Q(0), Q(-1, 4), Q(5, 96), Q(191, 5120)),
    "D": (Q(0), Q(-1, 2), Q(5, 32), Q(31, 1280)),
    "b1": (Q(1), Q(-2), Q(5, 4)),
    "b2": (Q(1), Q(2), Q(5, 4)),
}
#: the statement per branch: (order m, constant K): |error| <= K |x|^m on the branch (relative for ell)
STATED: dict[str, tuple[int, Q]] = {
    "alpha": (4, Q(23, 10**4)),     # |alpha_series - alpha| <= 2.3e-3 e^4 <= 2.3e-15
    "ell": (5, Q(14, 10**3)),       # |ell_series/ell - 1| <= 1.4e-2 |e|^5 <= 1.4e-17
    "D": (4, Q(39, 10**4)),         # |D_series - D| <= 3.9e-3 e^4 <= 3.9e-15
    "b1": (3, Q(2, 1)),             # |b1_series - b1| <= 2 g^3 <= 2e-18
    "b2": (3, Q(2, 1)),             # |b2_series - b2| <= 2 g^3 <= 2e-18
}
#: derived statements: D relative (|D_series - D| <= K |e|^3 |D|), alpha relative, B* from the roots (ln, g^6)
STATED_DERIVED: dict[str, tuple[int, Q]] = {
    "D_relative": (3, Q(77, 10**4)),
    "alpha_relative": (4, Q(24, 10**4)),
    "Bstar_log": (6, Q(11, 10)),
}
BRANCH_VAR = {"alpha": "e", "ell": "e", "D": "e", "b1": "g", "b2": "g"}
DOMAIN = ("b = 1 + e with |e| <= 1/1000 (kde.py's |b - 1| < 1e-3 branch: alpha, ell, D) and g = gamma h in "
          "(0, 1/10^6] (kde.py's g < 1e-6 branch: b1, b2; B* for g_E); the exact functions on the chord-partner "
          "curve s in [-1502/10^6, 1502/10^6]")
RELIES_ON = [
    "Taylor's theorem with the Lagrange remainder (real-analytic functions on an interval)",
    "ball arithmetic on power series (arb_series) encloses the Taylor coefficients at every point of the ball",
    "mean value theorem; intermediate value theorem",
    "proven obligation 004-KDE-chord-partner-curve (claim 004-KDE-shape-curve-proof): b strictly decreasing "
    "along the curve, so every b has exactly one partner alpha(b) = a(s(b))",
    "proven obligation 004-KDE-shape-g_E (claim 004-KDE-shape-gE-proof): D decreasing on (0, 1) and on "
    "(1, b_m), so b1, b2 are unique",
    "step (iii) of claim 004-Def-8-KDE-proof (envelope theorem): d ln ell/db = D, so F'' = dD/db for the B* bound",
]
STEPS = ("curve", "window", "alpha", "ell", "D", "b1", "b2", "derived")


# ---------------------------------------------------------------------------------------------------
# exact truncated power series in s (lists of Fractions, length N)
# ---------------------------------------------------------------------------------------------------
def _mul(p: Sequence[Q], q: Sequence[Q], n: int) -> list[Q]:
    r = [Q(0)] * n
    for i, pi in enumerate(p[:n]):
        if pi:
            for j, qj in enumerate(q[:n - i]):
                r[i + j] += pi * qj
    return r


def _add(p: Sequence[Q], q: Sequence[Q], c: Q = Q(1)) -> list[Q]:
    return [x + c * y for x, y in zip(p, q, strict=True)]


def _const(c: Q, n: int) -> list[Q]:
    return [Q(c)] + [Q(0)] * (n - 1)


def _poly(coeffs: Sequence[Q], x: Sequence[Q], n: int) -> list[Q]:
    """P(x(s)) for a polynomial P (exact: composition of a polynomial is exact in truncated arithmetic)."""
    out = _const(Q(0), n)
    for c in reversed(coeffs):
        out = _add(_mul(out, x, n), _const(c, n))
    return out


def _binom(x: Sequence[Q], alpha: Q, n: int) -> list[Q]:
    """(1 + x)^alpha for x(0) = 0: sum_k binom(alpha, k) x^k (k < n)."""
    if x[0] != 0:
        raise ValueError("the binomial series needs x(0) = 0")
    out, power, coef = _const(Q(1), n), _const(Q(1), n), Q(1)
    for k in range(1, n):
        coef = coef * (alpha - k + 1) / k
        power = _mul(power, x, n)
        out = _add(out, power, coef)
    return out


def _exp(x: Sequence[Q], n: int) -> list[Q]:
    """exp(x) for x(0) = 0."""
    if x[0] != 0:
        raise ValueError("the exponential series needs x(0) = 0")
    out, power, fact = _const(Q(1), n), _const(Q(1), n), 1
    for k in range(1, n):
        power = _mul(power, x, n)
        fact *= k
        out = _add(out, power, Q(1, fact))
    return out


def _errors_from(series: Mapping[str, Sequence[Q]], T: Any, ops: Mapping[str, Callable[..., Any]]) -> dict[str, Any]:
    """The five error functions from T, in an algebra given by ``ops`` (shared by the exact and ball paths):
    ops: s, one, poly(coeffs, x), rsqrt(u), sqrt(u), inv(u), exp0(u) = exp(u) (u(0) = 0 in the exact path)."""
    s, one = ops["s"], ops["one"]
    twoT = 2 * T if not isinstance(T, list) else [2 * c for c in T]
    a = ops["rsqrt"](twoT)
    inva = ops["sqrt"](twoT)
    sub, mul = ops["sub"], ops["mul"]
    b = sub(a, mul(s, inva))
    D = sub(mul(ops["add"](one, s), inva), a)
    e = sub(b, one)
    a2 = ops["inv"](twoT)
    F = mul(a, ops["exp0"](ops["scale"](sub(a2, one), Q(-1, 2))))  # ell / e^{-1/2}
    P = ops["poly"]
    return {
        "alpha": sub(P(series["alpha"], e), a),
        "ell": sub(mul(P(series["ell"], e), ops["inv"](F)), one),
        "D": sub(P(series["D"], e), D),
        "b1": sub(P(series["b1"], D), b),
        "b2": sub(P(series["b2"], ops["scale"](D, Q(-1))), b),
        "_b": b, "_D": D, "_a": a, "_e": e,
    }


def _exact_ops(n: int) -> dict[str, Any]:
    one = _const(Q(1), n)
    return {"s": [Q(0), Q(1)] + [Q(0)] * (n - 2), "one": one,
            "add": lambda p, q: _add(p, q), "sub": lambda p, q: _add(p, q, Q(-1)),
            "mul": lambda p, q: _mul(p, q, n), "scale": lambda p, c: [c * x for x in p],
            "poly": lambda cs, x: _poly(cs, x, n),
            "rsqrt": lambda u: _binom(_add(u, one, Q(-1)), Q(-1, 2), n),
            "sqrt": lambda u: _binom(_add(u, one, Q(-1)), Q(1, 2), n),
            "inv": lambda u: _binom(_add(u, one, Q(-1)), Q(-1), n),
            "exp0": lambda u: _exp(u, n)}


def exact_errors(series: Mapping[str, Sequence[Q]] | None = None, n: int = N) -> dict[str, list[Q]]:
    """The exact Taylor coefficients E_0 .. E_{n-1} at s = 0 of each error function (and of b, D, a, e)."""
    series = SERIES if series is None else series
    T = [Q((-1) ** k, k + 2) for k in range(n)]
    return _errors_from(series, T, _exact_ops(n))


# ---------------------------------------------------------------------------------------------------
# ball power series on S (arb_series): the Lagrange remainder coefficients
# ---------------------------------------------------------------------------------------------------
def _ball(q: Q) -> Any:
    from flint import arb, fmpq  # noqa: PLC0415 - needs python-flint (the proof extra)

    return arb(fmpq(q.numerator, q.denominator))


def _ball_T(s: Any, terms: int) -> Any:
    """T(s) = sum_k (-1)^k s^k/(k + 2) as an arb_series on a ball with |s| <= 1/8: the Taylor polynomial of
    degree terms - 1, plus on each coefficient j the tail bound sum_{k >= terms} C(k, j) 8^{-(k-j)}
    <= 8^j (1/4)^terms (4/3) (C(k, j) <= 2^k)."""
    from flint import arb, arb_series  # noqa: PLC0415 - needs python-flint (the proof extra)

    if not abs(s.coeffs()[0]).upper() <= arb(1) / 8:
        raise ValueError("the tail bound of T needs |s| <= 1/8")
    out = arb_series([0], prec=s.prec)
    for k in reversed(range(terms)):
        out = out * s + arb((-1) ** k) / (k + 2)
    cs = list(out.coeffs()) + [arb(0)] * (s.prec - len(out.coeffs()))
    cs = [c + arb(0, arb(8) ** j * (arb(1) / 4) ** terms * 4 / 3) for j, c in enumerate(cs)]
    return arb_series(cs, prec=s.prec)


def _ball_ops(s: Any, alt: bool = False) -> dict[str, Callable[..., Any]]:
    """The arb_series algebra; ``alt`` (the re-checker's route): a = 1/sqrt(2T), 1/a = 1/rsqrt(2T)."""
    from flint import arb_series  # noqa: PLC0415 - needs python-flint (the proof extra)

    one = arb_series([1], prec=s.prec)

    def poly(cs: Sequence[Q], x: Any) -> Any:
        out = arb_series([0], prec=s.prec)
        for c in reversed(cs):
            out = out * x + _ball(Q(c))
        return out
    return {"s": s, "one": one, "add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q,
            "scale": lambda p, c: p * _ball(c), "poly": poly,
            "rsqrt": (lambda u: u.sqrt().inv()) if alt else (lambda u: u.rsqrt()),
            "sqrt": (lambda u: u.rsqrt().inv()) if alt else (lambda u: u.sqrt()),
            "inv": lambda u: u.inv(), "exp0": lambda u: u.exp()}


def _coeff(x: Any, k: int) -> Any:
    from flint import arb  # noqa: PLC0415 - needs python-flint (the proof extra)

    cs = x.coeffs()
    return cs[k] if k < len(cs) else arb(0)


def ball_errors(center: Q, radius: Q, order: int, series: Mapping[str, Sequence[Q]] | None = None,
                terms: int = _T_TERMS, prec: int = _PREC, alt: bool = False) -> dict[str, list[Any]]:
    """The Taylor coefficients 0 .. order of each error function (and of b, D, a, e) on the ball
    [center - radius, center + radius], as arb balls (radius 0: at the point)."""
    from flint import arb, arb_series  # noqa: PLC0415 - needs python-flint (the proof extra)

    from .functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    series = SERIES if series is None else series
    with workprec(prec):
        c = _ball(center)
        if radius:
            c = c + arb(0, _ball(radius))
        s = arb_series([c, 1], prec=order + 1)
        out = _errors_from(series, _ball_T(s, terms), _ball_ops(s, alt))
        return {k: [_coeff(v, j) for j in range(order + 1)] for k, v in out.items()}


def _up(x: Any) -> Q:
    from .functions import upper_fraction  # noqa: PLC0415 - needs python-flint (the proof extra)

    return Q(upper_fraction(x))


def _lo(x: Any) -> Q:
    from .functions import lower_fraction  # noqa: PLC0415 - needs python-flint (the proof extra)

    return Q(lower_fraction(x))


def _absup(x: Any) -> Q:
    return max(_up(x), -_lo(x))


def _abslo(x: Any) -> Q:
    lo, up = _lo(x), _up(x)
    return lo if lo > 0 else (-up if up < 0 else Q(0))


def _ratio_bounds(x: Sequence[Q], rem: Any) -> tuple[Q, Q] | None:
    """[lo, hi] containing x(s)/s for 0 < |s| <= SIGMA, from the exact x_0 = 0, x_1 .. x_{N-1} and the ball
    remainder coefficient ``rem`` (Lagrange): x(s)/s = x_1 + sum_{k=2}^{N-1} x_k s^{k-1} + c s^{N-1}."""
    if x[0] != 0:
        return None
    slack = sum((abs(x[k]) * SIGMA ** (k - 1) for k in range(2, N)), Q(0)) + _absup(rem) * SIGMA ** (N - 1)
    return x[1] - slack, x[1] + slack


def _ratio_upper(x: Sequence[Q], rem: Any) -> Q:
    r = _ratio_bounds(x, rem)
    return r[1] if r is not None else Q(10**9)


def _ratio_lower(x: Sequence[Q], rem: Any) -> Q:
    r = _ratio_bounds(x, rem)
    return r[0] if r is not None else Q(-10**9)


_GRID = 10**24


def _ceil(q: Q) -> Q:
    """q rounded up to a multiple of 1e-24 (keeps an upper bound an upper bound, and the record short)."""
    return Q(math.ceil(q * _GRID), _GRID)


def _fmt(q: Q) -> str:
    return f"{float(q):.6g}"


# ---------------------------------------------------------------------------------------------------
# the bounds
# ---------------------------------------------------------------------------------------------------
def bounds(series: Mapping[str, Sequence[Q]] | None = None, *, terms: int = _T_TERMS, prec: int = _PREC,
           exact: Mapping[str, Sequence[Q]] | None = None, alt: bool = False) -> dict[str, Any]:
    """Every number of the proof: window checks, per-branch (order found, K_s, K) and derived bounds.

    ``exact`` (the exact Taylor coefficients) defaults to :func:`exact_errors`; the re-checker passes its own."""
    series = SERIES if series is None else series
    ex = exact_errors(series) if exact is None else exact
    S = ball_errors(Q(0), SIGMA, N, series, terms, prec, alt)
    pts = {name: ball_errors(q, Q(0), 0, series, terms, prec, alt)
           for name, q in (("+sigma", SIGMA), ("-sigma", -SIGMA), ("+sigma_g", SIGMA_G), ("-sigma_g", -SIGMA_G))}
    bprime, Dprime, a_S = S["_b"][1], S["_D"][1], S["_a"][0]
    window = {
        "e(+sigma) <= -E_MAX": _up(pts["+sigma"]["_e"][0]) <= -E_MAX,
        "e(-sigma) >= E_MAX": _lo(pts["-sigma"]["_e"][0]) >= E_MAX,
        "b' < 0 on S": _up(bprime) < 0,
        "D' > 0 on S": _lo(Dprime) > 0,
        "D(+sigma_g) >= G_MAX": _lo(pts["+sigma_g"]["_D"][0]) >= G_MAX,
        "D(-sigma_g) <= -G_MAX": _up(pts["-sigma_g"]["_D"][0]) <= -G_MAX,
        "sigma_g <= sigma": SIGMA_G <= SIGMA,
    }
    ok_window = all(window.values())
    # |e(s)| >= r_e |s| and D(s)/s >= r_D on S (Taylor models of e and D, e_0 = D_0 = 0 exactly)
    r_e = -_ratio_upper(ex["_e"], S["_e"][N])  # e(s)/s <= -r_e < 0
    r_D = _ratio_lower(ex["_D"], S["_D"][N])   # D(s)/s >= r_D > 0
    window["e(s)/s < 0 on S"] = r_e > 0
    window["D(s)/s > 0 on S"] = r_D > 0
    ok_window = all(window.values())
    lam = _ceil(1 / r_e) if r_e > 0 else None  # rounded up: still upper bounds
    mu = _ceil(1 / r_D) if r_D > 0 else None
    branches: dict[str, Any] = {}
    for name in ("alpha", "ell", "D", "b1", "b2"):
        m, K_st = STATED[name]
        coeffs = list(ex[name])
        order = next((k for k, c in enumerate(coeffs) if c != 0), N)
        sig = SIGMA if BRANCH_VAR[name] == "e" else SIGMA_G
        rem = _ceil(_absup(S[name][N]))
        K_s = sum((abs(coeffs[k]) * sig ** (k - m) for k in range(m, N)), Q(0)) + rem * sig ** (N - m)
        conv = lam if BRANCH_VAR[name] == "e" else mu
        K_s = _ceil(K_s)
        K = _ceil(K_s * conv ** m) if conv is not None else None
        ok = order >= m and K is not None and K <= K_st and ok_window
        branches[name] = {"stated_order": m, "stated_K": str(K_st), "order": order,
                          "coefficients": [str(c) for c in coeffs], "remainder_coefficient": str(rem),
                          "K_s": str(K_s), "K": str(K) if K is not None else None, "ok": ok,
                          "bound": f"<= {_fmt(K_st)} |{BRANCH_VAR[name]}|^{m} <= "
                                   f"{_fmt(K_st * (E_MAX if BRANCH_VAR[name] == 'e' else G_MAX) ** m)}",
                          "proven_K_float": float(K) if K is not None else None}
    derived: dict[str, Any] = {}
    if all(b["ok"] for b in branches.values()) and lam is not None and mu is not None:
        Ks_D = Q(branches["D"]["K_s"])
        K_Drel = _ceil(Ks_D * lam ** 3 * mu)  # |E_D| <= K_s |s|^4, |D| >= |s|/mu, |s| <= lam |e|
        K_arel = _ceil(Q(branches["alpha"]["K"]) / _lo(a_S))
        M = _ceil(_absup(Dprime / bprime))
        K_B = M / 2 * max(Q(STATED["b1"][1]), Q(STATED["b2"][1])) ** 2
        for key, val in (("D_relative", K_Drel), ("alpha_relative", K_arel), ("Bstar_log", K_B)):
            m, K_st = STATED_DERIVED[key]
            derived[key] = {"stated_order": m, "stated_K": str(K_st), "K": str(val), "ok": val <= K_st,
                            "proven_K_float": float(val)}
        derived["M_dD_db"] = str(M)
    return {"window": window, "lambda": str(lam) if lam is not None else None,
            "mu": str(mu) if mu is not None else None, "branches": branches, "derived": derived,
            "ok": ok_window and all(b["ok"] for b in branches.values()) and bool(derived)
            and all(d["ok"] for k, d in derived.items() if isinstance(d, dict))}


# ---------------------------------------------------------------------------------------------------
# step "curve": the SymPy identities of the parametrisation
# ---------------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def curve_identities() -> dict[str, bool]:
    """On a^2 = 1/(2T), b = a - s/a, T = (s - ln(1 + s))/s^2: 1 + a(a - b) = 1 + s, (a^2 - b^2)/2 = ln(1 + s)
    (so phi_0(a, b) = 0), and D = (k'(a) - k'(b))/((a - b) k'(a)) = (1 + s)/a - a (SymPy, exact)."""
    import sympy as sp  # noqa: PLC0415

    s = sp.Symbol("s", positive=True)  # s > 0; the identities are rational in (a, s, ln(1 + s)): s < 0 the same
    A = sp.Symbol("A", positive=True)
    T = (s - sp.log(1 + s)) / s**2
    b = A - s / A
    u = sp.Symbol("u", real=True)
    kp = sp.diff(sp.exp(-u**2 / 2), u)
    out = {"1 + a(a - b) = 1 + s": sp.simplify(1 + A * (A - b) - (1 + s)) == 0,
           "(a^2 - b^2)/2 = ln(1 + s) at a^2 = 1/(2T)":
               sp.simplify(((A**2 - b**2) / 2).subs(A, 1 / sp.sqrt(2 * T)) - sp.log(1 + s)) == 0}
    # D: k'(b)/k'(a) = (b/a) e^{(a^2 - b^2)/2}, and e^{(a^2 - b^2)/2} = 1 + s on the curve
    ratio = kp.subs(u, b) / kp.subs(u, A)
    out["k'(b)/k'(a) = (b/a) e^{(a^2 - b^2)/2}"] = sp.simplify(ratio - b / A * sp.exp((A**2 - b**2) / 2)) == 0
    D_def = (1 - b / A * (1 + s)) / (A - b)
    out["D = (1 + s)/a - a at e^{(a^2 - b^2)/2} = 1 + s"] = sp.simplify(D_def - ((1 + s) / A - A)) == 0
    return out


# ---------------------------------------------------------------------------------------------------
# kde.py's branch domains
# ---------------------------------------------------------------------------------------------------
CORE_G_CUTOFF = 1e-6  # the literal of kde._stationary_radii ("if g < 1e-6")


def core_domain() -> dict[str, Any]:
    """Every double e with |e| < kde._SERIES is <= E_MAX in absolute value; every double g < 1e-6 is <= G_MAX
    (exact rational comparisons of the largest double below the cut-off)."""
    import numpy as np  # noqa: PLC0415

    from smoothsens_core.sensitivity import kde  # noqa: PLC0415 - cost: about 0.8 s at import, paid only when used

    e_top = Q(float(np.nextafter(kde._SERIES, 0.0)))
    g_top = Q(float(np.nextafter(CORE_G_CUTOFF, 0.0)))
    return {"series_cutoff": kde._SERIES, "largest_e": float(e_top), "e_ok": e_top <= E_MAX,
            "g_cutoff": CORE_G_CUTOFF, "largest_g": float(g_top), "g_ok": g_top <= G_MAX,
            "ok": e_top <= E_MAX and g_top <= G_MAX}


# ---------------------------------------------------------------------------------------------------
# prove / refute
# ---------------------------------------------------------------------------------------------------
def _statement() -> str:
    parts = [f"{n}: <= {STATED[n][1]} |{BRANCH_VAR[n]}|^{STATED[n][0]}" for n in STATED]
    parts += [f"{k}: <= {v[1]} |x|^{v[0]}" for k, v in STATED_DERIVED.items()]
    return ("truncation errors of kde.py's series branches (ell relative; D_relative = |D_series - D|/|D|; "
            "Bstar_log = |ln B*_series-roots - ln B*| in g^6): " + "; ".join(parts))


STATEMENT = _statement()


def prove(series: Mapping[str, Sequence[Q]] | None = None) -> dict[str, Any]:
    """The JSON-able proof record (status "proven" or "open")."""
    t0 = time.perf_counter()
    series = SERIES if series is None else series
    ids = curve_identities()
    bd = bounds(series)
    problems = [f"SymPy identity fails: {k}" for k, v in ids.items() if not v]
    problems += [f"window check fails: {k}" for k, v in bd["window"].items() if not v]
    for name, br in bd["branches"].items():
        if not br["ok"]:
            problems.append(f"{name}: order {br['order']} (stated {br['stated_order']}), K = "
                            f"{br['proven_K_float']} (stated {br['stated_K']})")
    problems += [f"{k}: K = {d['proven_K_float']} > stated {d['stated_K']}" for k, d in bd["derived"].items()
                 if isinstance(d, dict) and not d["ok"]]
    if not bd["derived"] and not problems:
        problems.append("derived bounds not computed")
    return {"method": METHOD, "status": "proven" if not problems else "open", "problems": problems,
            "domain": DOMAIN, "statement": STATEMENT, "relies_on": list(RELIES_ON), "steps": list(STEPS),
            "series": {k: [str(c) for c in v] for k, v in series.items()},
            "constants": {"E_MAX": str(E_MAX), "G_MAX": str(G_MAX), "SIGMA": str(SIGMA), "SIGMA_G": str(SIGMA_G),
                          "N": N, "prec": _PREC, "T_terms": _T_TERMS},
            "curve_identities": ids, **bd, "seconds": round(time.perf_counter() - t0, 4)}


def refute(series: Mapping[str, Sequence[Q]], *, n_points: int = 24, prec: int = 256) -> dict[str, Any] | None:
    """A certified point where a branch's stated bound fails for ``series``, or None.

    Points s_j = +-SIGMA (j/n) (e branches) resp. SIGMA_G (j/n) (b1) and -SIGMA_G (j/n) (b2); certified at a
    point: |e(s_j)| <= E_MAX (resp. g = +-D(s_j) in (0, G_MAX]) and |E(s_j)| > K |x(s_j)|^m (ball lower end
    above the ball upper end)."""
    for name in ("alpha", "ell", "D", "b1", "b2"):
        m, K = STATED[name]
        if BRANCH_VAR[name] == "e":
            cands = [sg * SIGMA * Q(j, n_points) for j in range(n_points, 0, -1) for sg in (1, -1)]
        else:
            sg = 1 if name == "b1" else -1
            cands = [sg * SIGMA_G * Q(j, n_points) for j in range(n_points, 0, -1)]
        for s0 in cands:
            v = ball_errors(s0, Q(0), 0, series, prec=prec)
            if BRANCH_VAR[name] == "e":
                x = v["_e"][0]
                inside = _absup(x) <= E_MAX
            else:
                x = v["_D"][0] if name == "b1" else -v["_D"][0]
                inside = _lo(x) > 0 and _up(x) <= G_MAX
            if not inside:
                continue
            err_lo = _abslo(v[name][0])
            bound_up = K * _absup(x) ** m
            if err_lo > bound_up:
                return {"branch": name, "s": str(s0), BRANCH_VAR[name]: float(_up(x)),
                        "error_lower": float(err_lo), "bound_upper": float(bound_up),
                        "statement": f"|error| <= {K} |{BRANCH_VAR[name]}|^{m}",
                        "sup_form_fails": err_lo > K * (E_MAX if BRANCH_VAR[name] == "e" else G_MAX) ** m,
                        "precision": f"arb {prec} bits"}
    return None


def planted(kind: str) -> dict[str, tuple[Q, ...]]:
    """Planted series: "ell-e4+1e-3" (191/5120 + 1/1000), "ell-drop-e4", "alpha-drop-e3", "b1-drop-g2"."""
    s = {k: tuple(v) for k, v in SERIES.items()}
    if kind == "ell-e4+1e-3":
        s["ell"] = s["ell"][:4] + (s["ell"][4] + Q(1, 1000),)
    elif kind == "ell-drop-e4":
        s["ell"] = s["ell"][:4]
    elif kind == "alpha-drop-e3":
        s["alpha"] = s["alpha"][:3]
    elif kind == "b1-drop-g2":
        s["b1"] = s["b1"][:2]
    else:
        raise ValueError(f"kind must be one of 'ell-e4+1e-3', 'ell-drop-e4', 'alpha-drop-e3', 'b1-drop-g2'; got {kind!r}")
    return s


# ---------------------------------------------------------------------------------------------------
# the independent re-check
# ---------------------------------------------------------------------------------------------------
def _sympy_coefficients(series: Mapping[str, Sequence[Q]], n: int = N) -> dict[str, list[Q]]:
    """The exact Taylor coefficients at s = 0 by SymPy ``series`` of the closed forms (the re-checker's route)."""
    import sympy as sp  # noqa: PLC0415

    s = sp.Symbol("s")

    def trunc(ex: Any) -> Any:  # a polynomial in s truncated below s^n
        p = sp.Poly(sp.expand(ex), s)
        return sum(p.coeff_monomial(s**j) * s**j for j in range(n))
    T = sp.series((s - sp.log(1 + s)) / s**2, s, 0, n + 2).removeO()
    a = sp.series(1 / sp.sqrt(2 * T), s, 0, n).removeO()
    inv_a = sp.series(sp.sqrt(2 * T), s, 0, n).removeO()
    b = trunc(a - s * inv_a)
    D = trunc((1 + s) * inv_a - a)
    e = b - 1
    inv_ell = sp.series(sp.exp((a**2 - 1) / 2) / a, s, 0, n).removeO()  # e^{-1/2} / ell

    def P(name: str, x: Any) -> Any:
        return sum(sp.Rational(c.numerator, c.denominator) * x**k for k, c in enumerate(series[name]))
    exprs = {"alpha": P("alpha", e) - a, "ell": P("ell", e) * inv_ell - 1, "D": P("D", e) - D,
             "b1": P("b1", D) - b, "b2": P("b2", -D) - b, "_e": e, "_D": D}
    out = {}
    for k, ex in exprs.items():
        poly = sp.Poly(sp.expand(trunc(ex)), s)
        out[k] = [Q(int(sp.fraction(c)[0]), int(sp.fraction(c)[1])) for c in
                  (poly.coeff_monomial(s**j) for j in range(n))]
    return out


#: the record's proven constants must agree with the re-derived ones to 1 % (the two ball routes overestimate
#: differently, ~1e-3 relative); both must be below the stated constants
_K_AGREE = 100


#: the claim this proof proves
CLAIM = "004-KDE-series-proof"


def recheck(record: Mapping[str, Any], *, claim_id: str) -> Any:
    """Rebuild the proof from this module's own definitions and compare it with ``record``, as the proof of
    ``claim_id`` (only :data:`CLAIM` is proven by this record)."""
    from . import RecheckResult  # noqa: PLC0415
    from ._results import header_problems  # noqa: PLC0415

    t0 = time.perf_counter()
    if claim_id != CLAIM:
        return RecheckResult(False, [f"claim {claim_id} is not proven by the {METHOD!r} record (only {CLAIM} is)"],
                             0, 0, 0.0)
    problems = header_problems(record, method=METHOD, domain=DOMAIN, relies_on=RELIES_ON, statement=STATEMENT)
    want_series = {k: [str(c) for c in v] for k, v in SERIES.items()}
    if dict(record.get("series") or {}) != want_series:
        problems.append("the record's series are not kde.py's")
    # fresh SymPy identities (not cached)
    curve_identities.cache_clear()
    ids = curve_identities()
    problems += [f"SymPy identity fails on re-check: {k}" for k, v in ids.items() if not v]
    if dict(record.get("curve_identities") or {}) != ids:
        problems.append("the record's curve identities differ from the re-derived ones")
    # exact coefficients by SymPy series (independent of the Fraction arithmetic of the prover)
    exact = _sympy_coefficients(SERIES)
    rec_br = dict(record.get("branches") or {})
    for name, coeffs in exact.items():
        if name.startswith("_"):
            continue
        if list((rec_br.get(name) or {}).get("coefficients") or []) != [str(c) for c in coeffs]:
            problems.append(f"{name}: the record's Taylor coefficients differ from SymPy's")
    # ball part at another precision and another degree of T, with the SymPy coefficients
    fresh = bounds(SERIES, terms=_T_TERMS + 23, prec=_PREC + 64, exact=exact, alt=True)
    if not fresh["ok"]:
        problems.append("the re-derived bounds do not prove the statement: " +
                        "; ".join(f"{k}: K={b['proven_K_float']}" for k, b in fresh["branches"].items() if not b["ok"]))
    if dict(record.get("window") or {}) != fresh["window"]:
        problems.append("the record's window checks differ from the re-derived ones")
    for name, br in fresh["branches"].items():
        r = rec_br.get(name) or {}
        if r.get("stated_K") != br["stated_K"] or r.get("stated_order") != br["stated_order"]:
            problems.append(f"{name}: the record's stated bound is edited")
        try:
            Kr = Q(str(r.get("K")))
            if abs(Kr - Q(br["K"])) > Q(br["K"]) / _K_AGREE:
                problems.append(f"{name}: the record's K {float(Kr)} differs from the re-derived {br['proven_K_float']}")
        except (ValueError, ZeroDivisionError):
            problems.append(f"{name}: the record's K is missing")
    rec_der = dict(record.get("derived") or {})
    for key, d in fresh["derived"].items():
        if not isinstance(d, dict):
            continue
        r = rec_der.get(key) or {}
        if r.get("stated_K") != d["stated_K"] or not r.get("ok"):
            problems.append(f"{key}: the record's derived bound is edited or not proven")
        try:
            if abs(Q(str(r.get("K"))) - Q(d["K"])) > Q(d["K"]) / _K_AGREE:
                problems.append(f"{key}: the record's K differs from the re-derived {d['proven_K_float']}")
        except (ValueError, ZeroDivisionError):
            problems.append(f"{key}: the record's K is missing")
    n = len(STEPS)
    return RecheckResult(not problems, problems[:20], n, _PREC + 64, time.perf_counter() - t0)


@register_method
class KdeSeriesMethod:
    """The method :data:`METHOD` of this module: its record re-checked by :func:`recheck`, which rebuilds every
    step from this module's definitions as the proof of the claim named by the caller."""

    name = METHOD

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
