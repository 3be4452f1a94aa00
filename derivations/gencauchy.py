"""Generalized Cauchy distribution (004 Sec. 2.1, App. C.1) and 004 Claim 3.4.

Density of GenCauchy(0, 1, p, theta), p > 0, p theta > 1 (004 Sec. 2.1)::

    h(z) = c_{p,theta} / (1 + |z|^p)^theta,
    printed: c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p))

(the extraction prints the subscript of c in the density as c_{beta,theta}; it is c_{p,theta}).

Derivations (SymPy):

* normaliser: the substitution u = z^p / (1 + z^p) turns int_0^inf (1 + z^p)^(-theta) dz into
  (1/p) B(1/p, theta - 1/p), hence c = p / (2 B(1/p, theta - 1/p));
* CDF: the same substitution with upper limit w = z^p/(1+z^p) gives, for z >= 0,
  F(z) = 1/2 + I_w(1/p, theta - 1/p)/2, i.e. by I_x(a,b) = 1 - I_{1-x}(b,a)
  F(z) = 1 - I_{1/(1+z^p)}(theta - 1/p, 1/p)/2 and F(-z) = I_{1/(1+z^p)}(theta - 1/p, 1/p)/2
  (the tail form: no cancellation for large |z|);
* variance: E Z^2 = B(3/p, theta - 3/p) / B(1/p, theta - 1/p), finite iff p theta > 3;
* p = 4, theta = 1: the printed antiderivative H(q) of App. C.1 and the CDF; p = 6: a closed form
  by SymPy (not printed in 004);
* 004 Claim 3.4: sup_{z >= 0} phi_c'(z) for phi_c(z) = ln(1 + z^c), from the stationary points.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import mpmath
import sympy as sp
from sympy.codegen.cfunctions import log1p

from derivations.codegen import FunctionTable, GeneratedModule, loggamma_difference, prove_rewrite
from derivations.comparison import Comparison, compare_forms

__all__ = [
    "P", "THETA", "Z", "C",
    "printed_normaliser",
    "derive_normaliser",
    "derive_cdf",
    "derive_variance",
    "derive_cdf_p4",
    "derive_cdf_p6",
    "derive_claim34",
    "numeric_log_normaliser",
    "numeric_variance",
    "numeric_cdf",
    "numeric_cdf_p4",
    "derive_cdf_p4_tail_form",
    "codegen_targets",
]

P, THETA, C = sp.symbols("p theta c", positive=True)
Z = sp.Symbol("z", real=True)
_Q = sp.Symbol("q", positive=True)


def printed_normaliser() -> sp.Expr:
    """004 Sec. 2.1 as printed: c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p))."""
    return P * sp.gamma(THETA) / (2 * sp.gamma(1 / P) * sp.gamma(THETA - 1 / P))


_Y, _R = sp.symbols("y r", positive=True)


def _mellin_half_moment(power: int) -> sp.Expr:
    """int_0^inf z^power (1 + z^p)^(-theta) dz with y = z^p (dz = (1/p) y^(1/p - 1) dy):
    (1/p) int_0^inf y^((power+1)/p - 1) (1 + y)^(-theta) dy, integrated by SymPy."""
    k = sp.Integer(power + 1) / P
    return sp.gammasimp(sp.integrate(_Y ** (k - 1) * (1 + _Y) ** (-THETA), (_Y, 0, sp.oo), conds="none") / P)


@lru_cache(maxsize=None)
def derive_normaliser() -> tuple[sp.Expr, Comparison]:
    """c_{p,theta} = 1 / (2 int_0^inf (1+z^p)^(-theta) dz), the integral by y = z^p (a Beta/Mellin
    integral that SymPy evaluates): c = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p))."""
    derived = sp.gammasimp(1 / (2 * _mellin_half_moment(0)))
    cmp = compare_forms("004 Sec. 2.1 c_{p,theta}", printed_normaliser(), derived, {P: (1.01, 10.0), THETA: (1.0, 6.0)})
    return derived, cmp


@lru_cache(maxsize=None)
def derive_cdf() -> sp.Expr:
    """F(z) of GenCauchy(0,1,p,theta) via the regularised incomplete beta (tail form)::

        x = 1/(1 + |z|^p),  F(z) = I_x(theta - 1/p, 1/p)/2 (z < 0),  1 - I_x(theta - 1/p, 1/p)/2 (z >= 0)

    Derivation: int_z^inf h = c int_0^{x} (1/p) v^(theta-1/p-1) (1-v)^(1/p-1) dv with v = 1/(1+t^p)
    (checked symbolically: the substituted integrand is the Beta kernel), and c p^{-1} B(theta-1/p,
    1/p) = 1/2."""
    # tail: int_{|z|}^inf (1+t^p)^-theta dt = (1/p) int_{|z|^p}^inf y^(1/p-1) (1+y)^-theta dy;
    # u = 1/(1+y) (y = r/u with r = 1 - u, 1 + y = (u + r)/u = 1/u, |dy/du| = 1/u^2):
    u = sp.Symbol("u", positive=True)
    dy = sp.simplify(sp.diff((1 - u) / u, u))
    integrand = (_R / u) ** (1 / P - 1) * ((u + _R) / u) ** (-THETA) * (-dy)
    integrand = sp.powsimp(sp.expand_power_base(integrand.subs(u + _R, 1), force=True), force=True)
    kernel = u ** (THETA - 1 / P - 1) * _R ** (1 / P - 1)
    if sp.simplify(integrand / kernel) != 1:  # pragma: no cover
        raise RuntimeError(f"tail substitution did not reduce: {integrand}")
    # so the tail is (c/p) B_x(theta - 1/p, 1/p) with x = 1/(1+|z|^p), and c B(theta-1/p, 1/p)/p = 1/2
    c, _ = derive_normaliser()
    half = sp.gammasimp(c * sp.gamma(THETA - 1 / P) * sp.gamma(1 / P) / sp.gamma(THETA) / P)
    if sp.simplify(half - sp.Rational(1, 2)) != 0:  # pragma: no cover
        raise RuntimeError(f"c B / p != 1/2: {half}")
    # theta - 1/p written as (p theta - 1)/p: exact in floating point for theta = 1 (p - 1 is exact)
    a, b = (P * THETA - 1) / P, 1 / P
    # half the mass is c B(a, b)/p = 1/2, so the tail is I_x(a, b)/2
    small = (1 + sp.Abs(Z) ** P) ** -1
    e = sp.exp(-P * sp.log(sp.Abs(Z)))  # |z|^-p, kept in this form: no overflow of |z|^p
    large = e / (1 + e)
    x = sp.Piecewise((small, sp.Abs(Z) <= 1), (large, True))
    tail = sp.betainc_regularized(a, b, 0, x) / 2
    return sp.Piecewise((tail, Z < 0), (1 - tail, True))


@lru_cache(maxsize=None)
def derive_variance() -> tuple[sp.Expr, list[Comparison]]:
    """Var Z = 2 c int_0^inf z^2 (1+z^p)^(-theta) dz = B(3/p, theta-3/p)/B(1/p, theta-1/p),
    finite iff p theta > 3.  Printed (004 Sec. 2.1): p = 4, theta = 1 gives Var = 1, and for
    theta = 1 the t-th absolute moment exists iff p > t + 1."""
    c, _ = derive_normaliser()
    var = sp.gammasimp(2 * c * _mellin_half_moment(2))
    at4 = sp.simplify(var.subs({P: 4, THETA: 1}))
    c1 = compare_forms("004 Sec. 2.1 Var GenCauchy(0,1,4,1) = 1", sp.Integer(1), at4, {})
    # existence of the t-th absolute moment: z^t (1+z^p)^(-theta) ~ z^(t - p theta) at infinity,
    # integrable iff t - p theta < -1, i.e. p > (t + 1)/theta; printed (theta = 1): p > t + 1
    tm = sp.Symbol("t", positive=True)
    threshold = sp.solve(sp.Eq(tm - P * THETA, -1), P)[0]
    c2 = compare_forms(
        "004 Sec. 2.1: t-th moment exists iff p > t + 1 (theta = 1)",
        tm + 1, threshold.subs(THETA, 1), {tm: (0.5, 5.0)},
        note=f"derived: z^t h(z) ~ z^(t - p theta), integrable iff p > {threshold}; variance (t = 2) iff p theta > 3",
    )
    return var, [c1, c2]


def printed_h4() -> sp.Expr:
    """004 App. C.1 as printed: H(q) = (1/(4 sqrt 2)) (ln((q^2 + sqrt2 q + 1)/(q^2 - sqrt2 q + 1))
    + 2 atan(1 + sqrt2 q) - 2 atan(1 - sqrt2 q))."""
    r2 = sp.sqrt(2)
    q = _Q
    return (sp.log((q**2 + r2 * q + 1) / (q**2 - r2 * q + 1)) + 2 * sp.atan(1 + r2 * q) - 2 * sp.atan(1 - r2 * q)) / (4 * r2)


@lru_cache(maxsize=None)
def derive_cdf_p4() -> tuple[sp.Expr, list[Comparison]]:
    """004 App. C.1: h(z) = (sqrt2/pi)/(1 + z^4) and F(q) = 1/2 + sgn(q) (sqrt2/pi) H(|q|).

    Checks: c_{4,1} = sqrt2/pi (derived normaliser), dH/dq = 1/(1+q^4) and H(0) = 0 (symbolic),
    F(+inf) = 1, and the closed form against the incomplete-beta CDF (mpmath)."""
    c, _ = derive_normaliser()
    c4 = sp.nsimplify(sp.simplify(c.subs({P: 4, THETA: 1})))
    cmps = [compare_forms("004 App. C.1 c_{4,1} = sqrt(2)/pi", sp.sqrt(2) / sp.pi, c4, {})]
    h = printed_h4()
    cmps.append(compare_forms("004 App. C.1 dH/dq = 1/(1+q^4)", sp.diff(h, _Q), 1 / (1 + _Q**4), {_Q: (0.0, 20.0)}))
    cmps.append(compare_forms("004 App. C.1 H(0) = 0", h.subs(_Q, 0), sp.Integer(0), {}))
    hinf = sp.limit(h, _Q, sp.oo)
    cmps.append(compare_forms("004 App. C.1 F(+inf) = 1", sp.Rational(1, 2) + sp.sqrt(2) / sp.pi * hinf, sp.Integer(1), {}))
    za = sp.Abs(Z)
    hz = h.subs(_Q, za)
    cdf = sp.Piecewise((sp.Rational(1, 2) - sp.sqrt(2) / sp.pi * hz, Z < 0), (sp.Rational(1, 2) + sp.sqrt(2) / sp.pi * hz, True))
    general = derive_cdf().subs({P: 4, THETA: 1})
    cmps.append(compare_forms("004 App. C.1 F vs incomplete-beta CDF (p=4)", cdf, general, {Z: (-30.0, 30.0)}, try_symbolic=False))
    return cdf, cmps


@lru_cache(maxsize=None)
def derive_cdf_p6() -> tuple[sp.Expr, list[Comparison]]:
    """GenCauchy(0,1,6,1): F(q) = 1/2 + sgn(q) c_{6,1} H6(|q|), H6(q) = int_0^q dz/(1+z^6) by SymPy
    (a log/atan closed form; 004 prints none).  Checked: dH6/dq = 1/(1+q^6) (symbolic/mpmath), and
    F against the incomplete-beta CDF (mpmath)."""
    c, _ = derive_normaliser()
    c6 = sp.simplify(c.subs({P: 6, THETA: 1}))
    h6 = sp.simplify(sp.integrate(1 / (1 + _Q**6), (_Q, 0, _Q)))
    cmps = [compare_forms("GenCauchy p=6: dH6/dq = 1/(1+q^6)", sp.diff(h6, _Q), 1 / (1 + _Q**6), {_Q: (0.0, 20.0)})]
    cmps.append(compare_forms("GenCauchy p=6: c_{6,1} = 3/(2 pi)", sp.Integer(3) / (2 * sp.pi), c6, {}))
    hz = h6.subs(_Q, sp.Abs(Z))
    cdf = sp.Piecewise((sp.Rational(1, 2) - c6 * hz, Z < 0), (sp.Rational(1, 2) + c6 * hz, True))
    general = derive_cdf().subs({P: 6, THETA: 1})
    cmps.append(compare_forms("GenCauchy p=6 closed form vs incomplete-beta CDF", cdf, general, {Z: (-30.0, 30.0)}, try_symbolic=False))
    return cdf, cmps


@lru_cache(maxsize=None)
def derive_claim34() -> tuple[sp.Expr, list[Comparison]]:
    """004 Claim 3.4: for c > 1, sup_{z >= 0} |phi_c'(z)| with phi_c(z) = ln(1 + z^c).

    phi' = c z^(c-1)/(1+z^c) >= 0; phi'' = 0 at z* = (c-1)^(1/c) (the only interior stationary
    point); phi'(0) = 0 (c > 1), phi'(z) -> 0 as z -> inf, so the sup is phi'(z*).
    Printed: (c - 1)^((c-1)/c)."""
    z = _Q
    phi = sp.log(1 + z**C)
    d1 = sp.diff(phi, z)
    d2 = sp.together(sp.diff(phi, z, 2))
    num = sp.numer(sp.factor(d2))
    crit = sp.solve(sp.Eq(sp.simplify(num / z ** (C - 2)), 0), z)
    crit = [r for r in crit if r.is_positive is not False]
    if len(crit) != 1:  # pragma: no cover
        raise RuntimeError(f"Claim 3.4: unexpected stationary points {crit}")
    zstar = crit[0]
    sup = sp.simplify(sp.powsimp(d1.subs(z, zstar), force=True))
    printed = (C - 1) ** ((C - 1) / C)
    cmps = [compare_forms("004 Claim 3.4 sup phi_c'", printed, sup, {C: (1.001, 20.0)})]
    cmps.append(compare_forms("004 Claim 3.4 stationary point", (C - 1) ** (1 / C), zstar, {C: (1.001, 20.0)}))
    return sup, cmps


# ------------------------------------------------------------------------------------------------
# Forms for float64 evaluation (each proven equal to the derived expression in codegen_targets)
# ------------------------------------------------------------------------------------------------
def numeric_log_normaliser() -> tuple[sp.Expr, float]:
    """ln c_{p,theta} = ln p - ln 2 - lnGamma(1/p) + [lnGamma(theta) - lnGamma(theta - 1/p)], the
    bracket by :func:`derivations.codegen.loggamma_difference` (accurate for theta up to 1e300;
    theta - 1/p written (p theta - 1)/p, exact at theta = 1).  Returns (expression, absolute
    truncation bound of the Stirling branch)."""
    _, dlg, bound = loggamma_difference(THETA, (P * THETA - 1) / P, 1 / P)
    return sp.log(P) - sp.log(2) - sp.loggamma(1 / P) + dlg, bound


def numeric_variance() -> tuple[sp.Expr, float]:
    """Var = exp(lnGamma(3/p) - lnGamma(1/p) - [lnGamma(theta - 1/p) - lnGamma(theta - 3/p)]) for
    p theta > 3 (+inf otherwise), the bracket by :func:`loggamma_difference`; returns (expression,
    relative truncation bound)."""
    _, dlg, bound = loggamma_difference((P * THETA - 1) / P, (P * THETA - 3) / P, 2 / P)
    lvar = sp.loggamma(3 / P) - sp.loggamma(1 / P) - dlg
    return sp.Piecewise((sp.exp(lvar), P * THETA > 3), (sp.oo, True)), bound


#: L = p ln|z| above which the tail uses the log-space form (s = 1/(1 + |z|^p) < e^-644 ~ 1e-280)
_L_UNDERFLOW = 644


def numeric_cdf() -> sp.Expr:
    """The CDF of :func:`derive_cdf` arranged for float64: with L = p ln|z|,

        |z| >= 1:  P(|Z| > |z|) = I_s(theta - 1/p, 1/p),      s = e^{-L}/(1 + e^{-L}) = 1/(1 + |z|^p),
        |z| <  1:  P(|Z| > |z|) = 1 - I_t(1/p, theta - 1/p),  t = e^{L}/(1 + e^{L})  = |z|^p/(1 + |z|^p)

    (I_s(b, a) = 1 - I_{1-s}(a, b)), and for L > 644 (s < 1e-280, near or below underflow) the
    first line in logs via I_s(a, b) = s^a 2F1(a, 1 - b; a + 1; s)/(a B(a, b)).  The second line is the complement incomplete beta
    (scipy.special.betaincc) of the small t, known to full precision; the derived form evaluates
    I_x at x = 1/(1 + |z|^p), which rounds to 1 for |z|^p < 1e-16 and loses every digit of
    F(z) - 1/2 there (relative error 9e-6 at z = -1e-5, p = 4)."""
    a, b = (P * THETA - 1) / P, 1 / P  # theta - 1/p as (p theta - 1)/p: exact at theta = 1
    r = sp.Abs(Z)
    big_l = P * sp.log(r)
    e_neg, e_pos = sp.exp(-big_l), sp.exp(big_l)  # |z|^-p, |z|^p: no overflow in the branch that uses them
    s = e_neg / (1 + e_neg)
    t = e_pos / (1 + e_pos)
    # s < e^-644 (~1e-280): s itself (nearly) underflows while I_s(a, b) ~ s^a may not (a = theta - 1/p
    # small).  Exact identity (DLMF 8.17.7): I_s(a, b) = s^a 2F1(a, 1 - b; a + 1; s) / (a B(a, b)), in
    # logs: ln s = -(L + log1p(e^-L)), ln B(a, b) = lnGamma(1/p) - [lnGamma(theta) - lnGamma(theta - 1/p)]
    log_s = -(big_l + log1p(sp.exp(-big_l)))
    _, dlg, _ = loggamma_difference(THETA, a, b)
    log_beta = sp.loggamma(b) - dlg
    asym = sp.exp(a * log_s - sp.log(a) - log_beta) * sp.hyper([a, 1 - b], [a + 1], sp.exp(log_s))
    tail = sp.Piecewise(
        (sp.betainc_regularized(b, a, t, 1), r < 1),
        (asym, big_l > _L_UNDERFLOW),
        (sp.betainc_regularized(a, b, 0, s), True),
    ) / 2
    return sp.Piecewise((tail, Z < 0), (1 - tail, True))


_H4 = sp.Symbol("q", positive=True)
_W4 = sp.Symbol("w", positive=True)


def _h4_atan(q: sp.Expr) -> sp.Expr:
    """H(q) = int_0^q dz/(1+z^4) = (atanh(sqrt2 q/(1+q^2)) + atan2(sqrt2 q, 1 - q^2))/(2 sqrt2)."""
    r2 = sp.sqrt(2)
    return (sp.atanh(r2 * q / (1 + q**2)) + sp.atan2(r2 * q, 1 - q**2)) / (2 * r2)


def _a4_hyper(w: sp.Expr) -> sp.Expr:
    """A(w) = int_0^w u^2/(1+u^4) du = (w^3/3) 2F1(1, 3/4; 7/4; -w^4)  (0 <= w <= 1)."""
    return w**3 / 3 * sp.hyper([1, sp.Rational(3, 4)], [sp.Rational(7, 4)], -(w**4))


@lru_cache(maxsize=None)
def derive_cdf_p4_tail_form() -> dict[str, Any]:
    """The C.1 CDF in a form without cancellation, derived from the printed one (004 App. C.1).

    1. ln((q^2 + sqrt2 q + 1)/(q^2 - sqrt2 q + 1)) = 2 atanh(sqrt2 q/(1 + q^2)) and
       atan(1 + x) - atan(1 - x) = atan2(2x, 2 - x^2) (x = sqrt2 q >= 0; the difference lies in
       [0, pi)) turn the printed H into ``_h4_atan``; checked: dH/dq = 1/(1 + q^4) and H(0) = 0
       (symbolic).
    2. Lower tail: for q = |z| >= 1, F(z) = c int_q^inf dt/(1+t^4) = c A(1/q) (t = 1/u: the
       integrand becomes u^2/(1 + u^4), symbolic), and A(w) = sum_k (-1)^k w^(4k+3)/(4k+3)
       (termwise integration of u^2/(1+u^4) = sum (-1)^k u^(4k+2), |u| <= 1 by Abel's theorem)
       = (w^3/3) 2F1(1, 3/4; 7/4; -w^4), since (3/4)_k/(7/4)_k = 3/(4k + 3) (symbolic).
       The printed form computes this as 1/2 - c H(q), which cancels ~3 log10 q digits (all of
       them at q = 1e6); A(1/q) has no cancellation (scipy.special.hyp2f1 at -w^4 in [-1, 0]).
    Returns the pieces and the symbolic checks (raises if one fails)."""
    q, w, u, k = _H4, _W4, sp.Symbol("u", positive=True), sp.Symbol("k", integer=True, nonnegative=True)
    h = _h4_atan(q)
    checks = {
        "dH/dq = 1/(1+q^4)": sp.simplify(sp.diff(h, q) - 1 / (1 + q**4)) == 0,
        "H(0) = 0": sp.simplify(h.subs(q, 0)) == 0,
        "t = 1/u maps dt/(1+t^4) to u^2/(1+u^4) du": sp.simplify((1 / (1 + (1 / u) ** 4)) * (1 / u**2) - u**2 / (1 + u**4)) == 0,
        "(3/4)_k/(7/4)_k = 3/(4k+3)": sp.gammasimp(sp.rf(sp.Rational(3, 4), k) / sp.rf(sp.Rational(7, 4), k) * (4 * k + 3) / 3) == 1,
        "d/dw w^(4k+3)/(4k+3) = w^(4k+2)": sp.simplify(sp.diff(w ** (4 * k + 3) / (4 * k + 3), w) - w ** (4 * k + 2)) == 0,
        "atan(1+x) - atan(1-x) = atan2(2x, 2-x^2) (numeric, x in [0, 100])": True,
    }
    with mpmath.workdps(50):
        for xv in [0, 0.3, 1, 1.2, 1.5, 3, 100]:
            x = mpmath.mpf(xv)
            if abs(mpmath.atan(1 + x) - mpmath.atan(1 - x) - mpmath.atan2(2 * x, 2 - x**2)) > mpmath.mpf(10) ** -45:
                checks["atan(1+x) - atan(1-x) = atan2(2x, 2-x^2) (numeric, x in [0, 100])"] = False
    failed = [name for name, ok in checks.items() if not ok]
    if failed:  # pragma: no cover - a broken derivation
        raise RuntimeError(f"004 App. C.1 tail form: checks failed: {failed}")
    return {"H": h, "A": _a4_hyper(w), "checks": checks}


def numeric_cdf_p4() -> sp.Expr:
    """F of GenCauchy(0,1,4,1) from :func:`derive_cdf_p4_tail_form`, c = sqrt2/pi, q = |z|:
    lower(q) = c A(1/q) for q > 1, 1/2 - c H(q) for q <= 1 (>= 1/2 - 0.39: no cancellation);
    F(z) = lower(|z|) for z < 0, 1 - lower(|z|) for z >= 0."""
    forms = derive_cdf_p4_tail_form()
    c = sp.sqrt(2) / sp.pi

    def lower(q: sp.Expr) -> sp.Expr:
        return sp.Piecewise((c * forms["A"].subs(_W4, 1 / q), q > 1), (sp.Rational(1, 2) - c * forms["H"].subs(_H4, q), True))

    # q = -z and q = z per branch rather than |z|: SymPy rewrites |z|^-3 as |z| z^-4, whose z^-4
    # underflows for |z| > 1e77 while F itself is representable down to |z| ~ 1e102
    return sp.Piecewise((lower(-Z), Z < 0), (1 - lower(Z), True))


def _valid_p_theta(p: float, theta: float, **_: float) -> bool:
    return p * theta > 1.01


def codegen_targets() -> list[GeneratedModule]:
    c, _ = derive_normaliser()
    var, _ = derive_variance()
    cdf = derive_cdf()
    cdf4, _ = derive_cdf_p4()
    table = FunctionTable.beside(__file__)  # docstrings, domains: derivations/gencauchy.toml
    dom = table.domain("gencauchy_log_normaliser")  # also that of gencauchy_variance
    edges_pt = [{"p": 1.0 + 1e-6, "theta": 1.0}, {"p": 0.5, "theta": 2.0 + 1e-6}, {"p": 50.0, "theta": 1e6},
                {"p": 2.0, "theta": 5.5}, {"p": 4.0, "theta": 10.25}, {"p": 0.5, "theta": 12.0}]
    log_c, bound_c = numeric_log_normaliser()
    log_c = prove_rewrite("gencauchy_log_normaliser", log_c, sp.log(c), dom, log_args=("p", "theta"),
                          valid=_valid_p_theta, edges=edges_pt, abs_bound=bound_c * 1.01, symbolic=False)
    var_expr, bound_v = numeric_variance()
    prove_rewrite("gencauchy_variance", var_expr.args[0][0], var, dom, log_args=("p", "theta"),
                  valid=lambda p, theta: p * theta > 3.03, edges=[{"p": 4.0, "theta": 1.0}, {"p": 3.0 + 1e-6, "theta": 1.0},
                                                               {"p": 0.5, "theta": 6.0 + 1e-6}, {"p": 50.0, "theta": 1e6}],
                  rel_bound=bound_v * 1.01, symbolic=False)
    cdf_num = prove_rewrite(
        "gencauchy_cdf", numeric_cdf(), cdf, {"z": (-50.0, 50.0), "p": (0.5, 20.0), "theta": (0.2, 50.0)},
        log_args=("p", "theta"), valid=_valid_p_theta, symbolic=False, dps=100,  # the derived form needs the
        # digits: at |z|^p = 1e-48 its x = 1/(1 + |z|^p) must be resolved to 1e-80 for 1e-30 in F
        edges=[{"z": zz, "p": pp, "theta": tt} for zz in (-1e30, -1e6, -0.999, -1e-5, -1e-12, 0.0, 1e-12, 0.3, 1.0, 1e6)
               for pp, tt in ((4.0, 1.0), (1.5, 30.0))]
        + [{"z": zz, "p": 20.0, "theta": tt} for zz in (-1e30, -1e15, 1e30) for tt in (0.06, 1.0, 20.0)],
        rel_bound=bound_c * 1.01,  # the log-space branch's ln B uses loggamma_difference (Stirling truncation)
    )
    cdf4_num = prove_rewrite("gencauchy4_cdf", numeric_cdf_p4(), cdf4, {"z": (-40.0, 40.0)}, dps=60, symbolic=False,
                             edges=[{"z": zz} for zz in (-1e6, -1e3, -30.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.0 + 1e-9, 1e3, 1e6)])
    return table.modules({
        "gencauchy_log_normaliser": ((P, THETA), log_c),
        "gencauchy_variance": ((P, THETA), var_expr),
        "gencauchy_cdf": ((Z, P, THETA), cdf_num),
        "gencauchy4_cdf": ((Z,), cdf4_num),
    })
