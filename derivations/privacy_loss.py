"""Privacy-loss decomposition of the smooth-sensitivity mechanisms (004 Sec. 3.2, 000 Thm. 1).

For a symmetric noise density h and the release y = a + b Z (a = f(x), b = B(x)/eta), the
privacy loss between x and x' splits (004 proof of Lemma 3.3) into

    ln l1 = ln[(1/b) h((y-a)/b)] - ln[(1/b') h((y-a)/b')]      (scale change b -> b')
    ln l2 = ln h((y-a)/b') - ln h((y-a')/b')                    (shift a -> a')

Both are integrals of log-derivatives of the standardised density:

    D_scale(z) = d/dl ln(e^{-l} h(z e^{-l}))|_{l=0} = -1 - z h'(z)/h(z),
    D_shift(z) = -d/dz ln h(z),

so |ln l1| <= |ln(b/b')| sup_z |D_scale(z)| and |ln l2| <= (|a - a'|/b') sup_z |D_shift(z)|.
With a g_E(.; gamma)-smooth bound B, |ln(b/b')| <= gamma dist and |a - a'|/b' <= eta dist, hence

    eps = gamma * sup|D_scale| + eta * sup|D_shift|      (times m for m i.i.d. coordinates in l1,
                                                            004 Cor. 3.2, on the scale term).

The suprema are DERIVED here with SymPy (stationary points of D, limits at the ends of the
support), then ``eps`` is generated (``_generated/calibration.py``), never typed.

* 004 Lemma 3.3 / Cor. 3.2 (GenCauchy(0,1,p,theta), p > 1, theta >= 1):
  sup|D_scale| = max(1, p theta - 1), sup|D_shift| = theta (p-1)^((p-1)/p).
* 004 Lemma 3.5 (T_nu(0,1), nu > 1): sup|D_scale| = max(1, nu), sup|D_shift| = (nu+1)/(2 sqrt nu).
* 004 Lemma 3.6 (Lap(0,1) with g_L): sup|D_shift| = 1; the scale change costs gamma |Z|, and
  Pr[|Z| > t] = e^{-t} (derived by integrating the density) gives t = ln(1/delta).
* The calibration inverses: eta solving eps(gamma, eta, ...) = eps, and the largest gamma
  (eta = 0), by ``sp.solve`` on the derived (or quoted) eps; the core inverts with them and
  re-evaluates the certified eps with the forward evaluator, so an inversion error shows.
* 000 Thm. 1 (h proportional to 1/(|z|^k + l), k > 1, l > 0): the sliding bound
  sup phi'(z) = (k-1)^((k-1)/k) / l^(1/k) for phi(z) = ln(z^k + l) gives alpha, the dilation
  bound sup|D_scale| = max(1, k - 1) gives beta = eps / (2 max(1, k - 1)).
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from derivations.codegen import FunctionTable, GeneratedFunction, GeneratedModule
from derivations.comparison import Comparison, compare_forms

__all__ = [
    "GAMMA", "ETA", "P", "THETA", "NU", "M", "DELTA", "EPS", "K", "L",
    "sup_abs_log_derivatives",
    "derive_gencauchy_gp",
    "derive_student_t_gp",
    "derive_laplace_gl",
    "derive_thm1_000",
    "quoted_nrs07",
    "quoted_bs19",
    "quoted_laplace_nrs07",
    "calibration_inverse",
    "codegen_targets",
]

GAMMA, ETA, P, THETA, NU, M, DELTA, EPS, K, L = sp.symbols("gamma eta p theta nu m delta eps k l", positive=True)
_Z = sp.Symbol("z", positive=True)
_T = sp.Symbol("t", positive=True)


def _sup_abs_on_halfline(expr: sp.Expr, z: sp.Symbol, assume: dict | None = None) -> sp.Expr:
    """sup_{z > 0} |expr(z)| from the stationary points of expr and its limits at 0+ and +inf.

    Candidates: limits at both ends, and expr at each positive real root of d expr/dz = 0.
    Returns Max(|candidates|) (SymPy may not order them for symbolic parameters; Max keeps all)."""
    cands = [sp.limit(expr, z, 0, "+"), sp.limit(expr, z, sp.oo)]
    d = sp.together(sp.diff(expr, z))
    num = sp.numer(sp.factor(d))
    roots = sp.solve(sp.Eq(num, 0), z)
    for r in roots:
        if r.is_positive is False or r == 0:
            continue
        cands.append(sp.simplify(sp.powsimp(expr.subs(z, r), force=True)))
    vals = [sp.simplify(sp.Abs(c)) for c in cands]
    return sp.Max(*vals)


def sup_abs_log_derivatives(
    log_h: sp.Expr, z: sp.Symbol = _Z, lower: dict | None = None
) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """For a symmetric standardised log-density ``log_h(z)`` (z > 0): returns
    (D_scale, D_shift, sup|D_scale|, sup|D_shift|).

    ``lower`` maps parameters to their lower bounds (e.g. {p: 1} for p > 1): each parameter is
    written as bound + a positive excess while taking limits and signs, then substituted back."""
    lower = lower or {}
    ex = {s: sp.Symbol(f"{s.name}_excess", positive=True) for s in lower}
    fwd = {s: lower[s] + ex[s] for s in lower}
    back = {ex[s]: s - lower[s] for s in lower}
    lh = log_h.subs(fwd)
    d_shift = sp.simplify(-sp.diff(lh, z))
    d_scale = sp.simplify(-1 - z * sp.diff(lh, z))
    s_scale = _sup_abs_on_halfline(d_scale, z)
    s_shift = _sup_abs_on_halfline(d_shift, z)
    return tuple(sp.simplify(e.subs(back)) for e in (d_scale, d_shift, s_scale, s_shift))


@lru_cache(maxsize=None)
def derive_gencauchy_gp() -> tuple[sp.Expr, dict, list[Comparison]]:
    """004 Lemma 3.3 (m = 1) and Cor. 3.2 (m coordinates): eps of the GenCauchy mechanism.

    Printed: eps = max(m gamma, m (p theta - 1) gamma) + (p - 1)^((p-1)/p) theta eta."""
    log_h = -THETA * sp.log(1 + _Z**P)
    d_scale, d_shift, s_scale, s_shift = sup_abs_log_derivatives(log_h, lower={P: 1, THETA: 1})
    eps = M * GAMMA * s_scale + ETA * s_shift
    printed_33 = sp.Max(GAMMA, (P * THETA - 1) * GAMMA) + (P - 1) ** ((P - 1) / P) * THETA * ETA
    printed_32 = sp.Max(M * GAMMA, M * (P * THETA - 1) * GAMMA) + (P - 1) ** ((P - 1) / P) * THETA * ETA
    dom = {GAMMA: (0.001, 1.0), ETA: (0.01, 5.0), P: (1.01, 10.0), THETA: (1.0, 5.0)}
    c33 = compare_forms("004 Lemma 3.3 eps", printed_33, eps.subs(M, 1), dom)
    c32 = compare_forms("004 Cor. 3.2 eps", printed_32, eps, {**dom, M: (1.0, 10.0)})
    parts = {"D_scale": d_scale, "D_shift": d_shift, "sup_scale": s_scale, "sup_shift": s_shift}
    return eps, parts, [c33, c32]


@lru_cache(maxsize=None)
def derive_student_t_gp() -> tuple[sp.Expr, dict, list[Comparison]]:
    """004 Lemma 3.5: eps of the Student's t mechanism (T_nu(0,1), nu > 1).

    Printed: eps = nu gamma + (nu + 1)/(2 sqrt nu) eta."""
    log_h = -(NU + 1) / 2 * sp.log(1 + _Z**2 / NU)
    d_scale, d_shift, s_scale, s_shift = sup_abs_log_derivatives(log_h, lower={NU: 1})
    eps = GAMMA * s_scale + ETA * s_shift
    printed = NU * GAMMA + (NU + 1) / (2 * sp.sqrt(NU)) * ETA
    c = compare_forms("004 Lemma 3.5 eps (nu > 1)", printed, eps, {GAMMA: (0.001, 1.0), ETA: (0.01, 5.0), NU: (1.01, 30.0)})
    parts = {"D_scale": d_scale, "D_shift": d_shift, "sup_scale": s_scale, "sup_shift": s_shift}
    return eps, parts, [c]


def quoted_nrs07() -> sp.Expr:
    """[NRS07] constant for GenCauchy(0,1,p,1) as quoted in the 004 Remark after Lemma 3.5:
    eps = (p + 1) gamma + (p + 1) eta (a quotation, not derived here)."""
    return (P + 1) * GAMMA + (P + 1) * ETA


def quoted_bs19() -> sp.Expr:
    """[BS19] constant for T_nu(0,1) as quoted in the 004 Remark after Lemma 3.5:
    eps = (nu + 1) gamma + (nu + 1)/(2 sqrt nu) eta (a quotation, not derived here)."""
    return (NU + 1) * GAMMA + (NU + 1) / (2 * sp.sqrt(NU)) * ETA


@lru_cache(maxsize=None)
def derive_laplace_gl() -> tuple[sp.Expr, sp.Expr, dict, list[Comparison]]:
    """004 Lemma 3.6: Laplace with g_L(x, x') = 1 + gamma dist: eps = eta + gamma ln(1/delta).

    Derived: sup|D_shift| = sup |d/dz (-z)| = 1 (z > 0); Pr[|Z| > t] = 2 int_t^inf e^{-z}/2 dz =
    e^{-t}; solving e^{-t} = delta gives t = ln(1/delta); eps = eta sup|D_shift| + gamma t.
    Inverse: delta = exp(-(eps - eta)/gamma) for eps > eta."""
    log_h = -_Z
    d_shift = sp.simplify(-sp.diff(log_h, _Z))
    s_shift = _sup_abs_on_halfline(d_shift, _Z)
    tail = sp.integrate(sp.exp(-_Z), (_Z, _T, sp.oo))  # 2 * int_t^inf e^{-z}/2 dz
    t_delta = sp.solve(sp.Eq(tail, DELTA), _T)[0]
    eps = ETA * s_shift + GAMMA * t_delta
    delta = sp.solve(sp.Eq(eps, EPS), DELTA)[0]
    printed = ETA + GAMMA * sp.log(1 / DELTA)
    c = compare_forms("004 Lemma 3.6 eps", printed, eps, {GAMMA: (0.001, 1.0), ETA: (0.01, 5.0), DELTA: (1e-12, 0.5)})
    parts = {"D_shift": d_shift, "sup_shift": s_shift, "tail": tail, "t_delta": t_delta}
    return eps, delta, parts, [c]


@lru_cache(maxsize=None)
def derive_thm1_000() -> tuple[sp.Expr, sp.Expr, dict, list[Comparison]]:
    """000 Thm. 1: h(z) proportional to 1/(|z|^k + l), k > 1, l > 0, is (alpha, beta)-admissible.

    Sliding: ln(h(z)/h(z+D)) = phi(|z+D|) - phi(|z|), phi = ln(z^k + l), bounded by
    |D| sup phi'; alpha = (eps/2) / sup phi'.  Dilation: ln(h(z)/(e^l h(e^l z))) =
    int_0^l D_scale, bounded by |l| sup|D_scale|; beta = (eps/2) / sup|D_scale|.

    Printed: alpha = l^(1/k) eps / (2 (k-1)^((k-1)/k)),  beta = eps / (2 (k - 1))."""
    log_h = -sp.log(_Z**K + L)
    d_scale, d_shift, s_scale, s_shift = sup_abs_log_derivatives(log_h, lower={K: 1})
    s_shift = sp.simplify(sp.powsimp(s_shift, force=True))
    alpha = sp.simplify(EPS / 2 / s_shift)
    beta = EPS / 2 / s_scale
    p_alpha = L ** (1 / K) * EPS / (2 * (K - 1) ** ((K - 1) / K))
    p_beta = EPS / (2 * (K - 1))
    ca = compare_forms("000 Thm. 1 alpha (sliding)", p_alpha, alpha, {EPS: (0.01, 5.0), K: (1.01, 10.0), L: (0.01, 10.0)})
    cb_ge2 = compare_forms("000 Thm. 1 beta (dilation), k >= 2", p_beta, beta, {EPS: (0.01, 5.0), K: (2.0, 10.0)})
    cb_lt2 = compare_forms("000 Thm. 1 beta (dilation), 1 < k < 2", p_beta, beta, {EPS: (0.01, 5.0), K: (1.01, 1.99)})
    parts = {"D_scale": d_scale, "D_shift": d_shift, "sup_scale": s_scale, "sup_shift": s_shift}
    return alpha, beta, parts, [ca, cb_ge2, cb_lt2]


def quoted_laplace_nrs07() -> sp.Expr:
    """Laplace with g_E scaled as in 002 Claim 18 (after [NRS07]): the loss is at most
    |l_s| + |l_r| ln(2/delta), so eps = eta + gamma ln(2/delta) (a quotation; ln(2/delta) written
    ln 2 - ln delta, which does not overflow for tiny delta)."""
    return ETA + GAMMA * (sp.log(2) - sp.log(DELTA))


def _solve_linear(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """The root of ``expr = 0`` in ``var`` (linear in var); Max(...) factors are held opaque (they
    are positive and free of var), then put back."""
    maxes = sorted(expr.atoms(sp.Max), key=sp.default_sort_key)
    if any(m.has(var) for m in maxes):
        raise ValueError(f"_solve_linear: {var} inside Max in {expr}")
    dummies = [sp.Dummy(f"max{i}", positive=True) for i in range(len(maxes))]
    e = expr.subs(dict(zip(maxes, dummies, strict=True)))
    roots = sp.solve(sp.Eq(e, 0), var)
    if len(roots) != 1:  # pragma: no cover - a broken derivation
        raise RuntimeError(f"_solve_linear: {len(roots)} roots of {e} in {var}")
    return roots[0].subs(dict(zip(dummies, maxes, strict=True)))


def calibration_inverse(eps_expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(eta, gamma_max) for a privacy parameter eps(gamma, eta, ...): eta solves
    eps(gamma, eta) = EPS, gamma_max solves eps(gamma, 0) = EPS (the gamma that leaves no budget
    for the shift term; eta > 0 iff gamma < gamma_max)."""
    # expand_log: solve combines gamma ln 2 - gamma ln delta into ln(delta^gamma/2^gamma), which
    # underflows in floating point; the expanded sum of logs does not
    eta = sp.expand_log(_solve_linear(eps_expr - EPS, ETA), force=True)
    gmax = sp.expand_log(_solve_linear(eps_expr.subs(ETA, 0) - EPS, GAMMA), force=True)
    for name, sol in (("eta", {ETA: eta}), ("gamma_max", {ETA: 0, GAMMA: gmax})):
        if sp.simplify(eps_expr.subs(sol) - EPS) != 0:  # pragma: no cover - a broken derivation
            raise RuntimeError(f"calibration_inverse: {name} = {sol} does not solve {eps_expr} = eps")
    return eta, gmax


def codegen_targets() -> list[GeneratedModule]:
    eps_gc, _, _ = derive_gencauchy_gp()
    eps_t, _, _ = derive_student_t_gp()
    eps_l, delta_l, _, _ = derive_laplace_gl()
    a000, b000, _, cmps_000 = derive_thm1_000()
    b000_printed = cmps_000[1].printed  # 000 Thm. 1's beta as printed (the comparison's printed form)
    eps_lnrs = quoted_laplace_nrs07()
    table = FunctionTable.beside(__file__)  # docstrings, domains: derivations/privacy_loss.toml
    formulas = {
        "eps_gencauchy_gp": ((GAMMA, ETA, P, THETA, M), eps_gc),
        "eps_student_t_gp": ((GAMMA, ETA, NU), eps_t),
        "eps_gencauchy_nrs07": ((GAMMA, ETA, P), quoted_nrs07()),
        "eps_student_t_bs19": ((GAMMA, ETA, NU), quoted_bs19()),
        "eps_laplace_gl": ((GAMMA, ETA, DELTA), eps_l),
        "delta_laplace_gl": ((GAMMA, ETA, EPS), delta_l),
        "admissible_alpha_000": ((EPS, K, L), a000),
        "eps_laplace_nrs07": ((GAMMA, ETA, DELTA), eps_lnrs),
        "admissible_beta_000_printed": ((EPS, K), b000_printed),
        "admissible_beta_000": ((EPS, K), b000),
    }
    # The inverses of each eps_<name> in (eta, gamma): their docstrings quote the solved expressions,
    # their shape arguments and domains are those of eps_<name>.
    inverse_source = {
        "gencauchy_gp": "004 Lemma 3.3 / Cor. 3.2",
        "student_t_gp": "004 Lemma 3.5",
        "laplace_gl": "004 Lemma 3.6",
        "gencauchy_nrs07": "[NRS07] as quoted in 004 (Remark after Lemma 3.5)",
        "student_t_bs19": "[BS19] as quoted in 004 (Remark after Lemma 3.5)",
        "laplace_nrs07": "002 Claim 18 (after [NRS07])",
    }
    inverses = []
    for name, src in inverse_source.items():
        eps_args, eps_e = formulas[f"eps_{name}"]
        shape = tuple(a for a in eps_args if a not in (GAMMA, ETA))
        shape_dom = {k: v for k, v in table.domain(f"eps_{name}").items() if k not in ("gamma", "eta")}
        eta_e, gmax_e = calibration_inverse(eps_e)
        log_shape = tuple(k for k in shape_dom if k in ("nu", "delta"))
        inverses.append(GeneratedFunction(
            f"eta_{name}", (EPS, GAMMA, *shape), eta_e,
            f"eta of eps_{name} solved for a target eps ({src}), derived by sp.solve:\n"
            f"eta = {sp.sstr(eta_e)};  eta > 0 iff gamma < gamma_max_{name}.",
            domain={"eps": (1e-3, 50.0), "gamma": (1e-6, 10.0), **shape_dom}, log_args=("eps", "gamma", *log_shape),
        ))
        inverses.append(GeneratedFunction(
            f"gamma_max_{name}", (EPS, *shape), gmax_e,
            f"The largest gamma of eps_{name} at a target eps ({src}): eps(gamma, eta = 0) = eps solved,\n"
            f"gamma_max = {sp.sstr(gmax_e)}.",
            domain={"eps": (1e-3, 50.0), **shape_dom}, log_args=("eps", *log_shape),
        ))
    return table.modules(formulas, extra={"calibration": inverses})
