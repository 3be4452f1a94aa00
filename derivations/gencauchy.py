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

from derivations.codegen import GeneratedFunction, GeneratedModule
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
    "gencauchy_pdf_mp",
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


def gencauchy_pdf_mp(z: Any, p: Any, theta: Any) -> Any:
    """mpmath density of GenCauchy(0,1,p,theta) with the printed normaliser (for references)."""
    z, p, theta = mpmath.mpf(z), mpmath.mpf(p), mpmath.mpf(theta)
    c = p * mpmath.gamma(theta) / (2 * mpmath.gamma(1 / p) * mpmath.gamma(theta - 1 / p))
    return c / (1 + abs(z) ** p) ** theta


def gencauchy_cdf_mp(z: Any, p: Any, theta: Any) -> Any:
    """CDF by mpmath quadrature of the density (the definition), for references:
    F(z) = 1/2 + sgn(z) int_0^|z| h (finite interval, breakpoints at 1 and 10; by symmetry)."""
    z = mpmath.mpf(z)
    f = lambda t: gencauchy_pdf_mp(t, p, theta)  # noqa: E731
    az = abs(z)
    pts = [mpmath.mpf(0)] + [b for b in (1, 10) if b < az] + [az]
    half = mpmath.quad(f, pts)
    return mpmath.mpf(1) / 2 + (half if z >= 0 else -half)


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


def codegen_targets() -> list[GeneratedModule]:
    c, _ = derive_normaliser()
    var, _ = derive_variance()
    cdf = derive_cdf()
    cdf4, _ = derive_cdf_p4()
    # theta - k/p as (p theta - k)/p: no cancellation at theta = 1 as p theta -> k (p - k is exact)
    log_c = sp.log(P) - sp.log(2) + sp.loggamma(THETA) - sp.loggamma(1 / P) - sp.loggamma((P * THETA - 1) / P)
    # log of the derived normaliser, written with loggamma (checked equal in the tests/claims)
    lvar = sp.loggamma(3 / P) + sp.loggamma((P * THETA - 3) / P) - sp.loggamma(1 / P) - sp.loggamma((P * THETA - 1) / P)
    var_expr = sp.Piecewise((sp.exp(lvar), P * THETA > 3), (sp.oo, True))
    return [
        GeneratedModule(
            module="noise",
            derivation="derivations.gencauchy (004 Sec. 2.1, App. C.1)",
            doc="GenCauchy(0, 1, p, theta) of 004 Sec. 2.1: log normaliser, CDF, variance (derivations.gencauchy).",
            functions=(
                GeneratedFunction(
                    "gencauchy_log_normaliser",
                    (P, THETA),
                    log_c,
                    "ln c_{p,theta} of 004 Sec. 2.1 (derived = printed):\n"
                    "ln c = ln p - ln 2 + lnGamma(theta) - lnGamma(1/p) - lnGamma(theta - 1/p);\n"
                    "p > 0, p theta > 1.  (For theta >> 1 the lnGamma difference loses ~log10(theta) digits.)",
                    domain={"p": (0.5, 50.0), "theta": (1.0, 200.0)},
                    log_args=("p", "theta"),
                ),
                GeneratedFunction(
                    "gencauchy_variance",
                    (P, THETA),
                    var_expr,
                    "Var of GenCauchy(0,1,p,theta) (derived from the density):\n"
                    "Var = Gamma(3/p) Gamma(theta - 3/p) / (Gamma(1/p) Gamma(theta - 1/p)) if p theta > 3,\n"
                    "+inf otherwise (004 Sec. 2.1: Var = 1 at p = 4, theta = 1).",
                    domain={"p": (0.5, 50.0), "theta": (1.0, 200.0)},
                    log_args=("p", "theta"),
                ),
                GeneratedFunction(
                    "gencauchy_cdf",
                    (Z, P, THETA),
                    cdf,
                    "CDF of GenCauchy(0,1,p,theta) (derived; regularised incomplete beta I):\n"
                    "x = 1/(1+|z|^p) (computed as |z|^-p/(1+|z|^-p) for |z| > 1),\n"
                    "F(z) = I_x(theta - 1/p, 1/p)/2 for z < 0, 1 - I_x(theta - 1/p, 1/p)/2 for z >= 0.",
                    domain={"z": (-1e30, 1e30), "p": (0.5, 20.0), "theta": (1.0, 20.0)},
                    log_args=("p", "theta"),
                    rtol=1e-11,
                ),
                GeneratedFunction(
                    "gencauchy4_cdf",
                    (Z,),
                    cdf4,
                    "Closed-form CDF of GenCauchy(0,1,4,1), 004 App. C.1 (verified):\n"
                    "F(q) = 1/2 + sgn(q) (sqrt2/pi) H(|q|),\n"
                    "H(q) = (ln((q^2+sqrt2 q+1)/(q^2-sqrt2 q+1)) + 2 atan(1+sqrt2 q) - 2 atan(1-sqrt2 q))/(4 sqrt2).\n"
                    "Accurate to ~1e-16 absolute; for relative accuracy deep in the lower tail use gencauchy_cdf.",
                    domain={"z": (-1e6, 1e6)},
                    rtol=1e-12,
                    atol=1e-15,
                ),
            ),
        )
    ]
