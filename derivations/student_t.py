"""Student's t distribution T_nu(0, 1) (004 Sec. 2.1) and its Lipschitz constant (004 App. A.1).

Density (004 Sec. 2.1), nu > 0::

    h(z) = (c_nu / sqrt(nu)) (1 + z^2/nu)^(-(nu+1)/2),   printed c_nu = Gamma((nu+1)/2)/(sqrt(pi) Gamma(nu/2))

Derivations: the normaliser from int (1 + z^2/nu)^(-(nu+1)/2) dz (y = z^2/nu, a Beta/Mellin
integral), the variance nu/(nu-2) (nu > 2, +inf otherwise), and the Lipschitz constant of
ln h used in the proof of 004 Lemma 3.5 (App. A.1): sup_z |d/dz ln(1 + z^2)| = 1 (Claim 3.4 with
c = 2), hence sup_z |d/dz ln h(z)| = (nu+1)/(2 sqrt(nu)).
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp
from sympy.codegen.cfunctions import log1p

from derivations.codegen import FunctionTable, GeneratedModule, loggamma_difference, prove_rewrite
from derivations.comparison import Comparison, compare_forms

__all__ = ["NU", "derive_normaliser", "derive_variance", "derive_lipschitz", "numeric_log_normaliser",
           "codegen_targets"]

NU = sp.Symbol("nu", positive=True)
_Y = sp.Symbol("y", positive=True)
_Z = sp.Symbol("z", positive=True)


def printed_normaliser() -> sp.Expr:
    """004 Sec. 2.1: the T_nu(0,1) density constant c_nu / sqrt(nu), c_nu printed."""
    return sp.gamma((NU + 1) / 2) / (sp.sqrt(sp.pi) * sp.gamma(NU / 2)) / sp.sqrt(NU)


def _half_moment(power: int) -> sp.Expr:
    """int_0^inf z^power (1 + z^2/nu)^(-(nu+1)/2) dz with y = z^2/nu (z = sqrt(nu y))."""
    k = sp.Rational(power + 1, 2)
    integral = sp.integrate(_Y ** (k - 1) * (1 + _Y) ** (-(NU + 1) / 2), (_Y, 0, sp.oo), conds="none")
    return sp.gammasimp(NU**k / 2 * integral)


@lru_cache(maxsize=None)
def derive_normaliser() -> tuple[sp.Expr, Comparison]:
    """1 / int_R (1 + z^2/nu)^(-(nu+1)/2) dz, compared with the printed c_nu/sqrt(nu)."""
    derived = sp.gammasimp(1 / (2 * _half_moment(0)))
    cmp = compare_forms("004 Sec. 2.1 Student's t normaliser c_nu/sqrt(nu)", printed_normaliser(), derived, {NU: (0.05, 50.0)})
    return derived, cmp


@lru_cache(maxsize=None)
def derive_variance() -> tuple[sp.Expr, Comparison]:
    """Var = 2 c int_0^inf z^2 h: nu/(nu - 2) for nu > 2 (printed, 004 Sec. 2.1)."""
    c, _ = derive_normaliser()
    derived = sp.simplify(sp.gammasimp(2 * c * _half_moment(2)))
    cmp = compare_forms("004 Sec. 2.1 Student's t variance", NU / (NU - 2), derived, {NU: (2.01, 50.0)})
    return derived, cmp


@lru_cache(maxsize=None)
def derive_lipschitz() -> tuple[sp.Expr, list[Comparison]]:
    """004 App. A.1 (proof of Lemma 3.5): sup_{z>=0} d/dz ln(1+z^2) = (2-1)^{1/2} = 1, and
    sup_z |d/dz ln h(z)| = ((nu+1)/2) sup |d/dz ln(1 + z^2/nu)| = (nu+1)/(2 sqrt nu), both from the
    stationary points of the derivative."""
    z = _Z
    d = sp.diff(sp.log(1 + z**2), z)
    crit = [r for r in sp.solve(sp.diff(d, z), z) if r.is_positive]
    sup1 = sp.Max(*[d.subs(z, r) for r in crit])  # d(0) = 0, d(inf) = 0
    c1 = compare_forms("004 App. A.1: sup d/dz ln(1+z^2) = (2-1)^(1/2)", sp.Integer(1), sup1, {})
    dh = sp.diff((NU + 1) / 2 * sp.log(1 + z**2 / NU), z)
    crit2 = [r for r in sp.solve(sp.diff(dh, z), z) if r.is_positive is not False]
    sup2 = sp.simplify(dh.subs(z, crit2[0]))
    c2 = compare_forms("004 App. A.1: sup |d/dz ln h_nu| = (nu+1)/(2 sqrt nu)", (NU + 1) / (2 * sp.sqrt(NU)), sup2, {NU: (0.05, 50.0)})
    return sup2, [c1, c2]


def numeric_log_normaliser() -> tuple[sp.Expr, float]:
    """ln(c_nu/sqrt(nu)) = [lnGamma((nu+1)/2) - lnGamma(nu/2)] - ln(pi)/2 - ln(nu)/2, the bracket by
    :func:`derivations.codegen.loggamma_difference` (lnGamma difference for nu < 20, Stirling's
    formula with Binet's series beyond: no cancellation between two lnGamma values of size
    (nu/2) ln(nu/2)).  Returns (expression, absolute truncation bound)."""
    # [lnGamma(x) - lnGamma(nu/2) - ln(x)/2] + [ln(x)/2 - ln(nu)/2], x = (nu+1)/2: the second bracket
    # is (log1p(1/nu) - ln 2)/2, so the two ~ln(nu)/2 terms never meet in floating point
    _, dlg, bound = loggamma_difference((NU + 1) / 2, NU / 2, sp.Rational(1, 2), minus_a_log_x=True)
    return dlg + (log1p(1 / NU) - sp.log(2)) / 2 - sp.log(sp.pi) / 2, bound


def codegen_targets() -> list[GeneratedModule]:
    c, _ = derive_normaliser()
    var, _ = derive_variance()
    log_c, bound = numeric_log_normaliser()
    table = FunctionTable.beside(__file__)  # docstrings, domains: derivations/student_t.toml
    dom = table.domain("student_t_log_normaliser")
    log_c = prove_rewrite("student_t_log_normaliser", log_c, sp.log(c), dom, log_args=("nu",), abs_bound=bound * 1.01,
                          symbolic=False, edges=[{"nu": v} for v in (0.05, 1.0, 19.999, 20.0, 1155444.2, 1e12)])
    return table.modules({
        "student_t_log_normaliser": ((NU,), log_c),
        "student_t_variance": ((NU,), sp.Piecewise((var, NU > 2), (sp.oo, True))),
    })
