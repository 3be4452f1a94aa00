"""PolyPlace (002 Sec. 3, App. A): normaliser, antiderivatives, log-derivatives, variance, limits.

The density (002 Def. 6), for scale s > 0 and shape alpha > 1::

    f_{s,alpha}(x) = N (alpha - 1) (1 - |x|/s)^(alpha - 1)                         if |x|/s < 1/alpha
                   = N (alpha + 1) (1 - 1/alpha^2)^alpha (1 + |x|/s)^(-alpha - 1)   otherwise

    printed:  N_{s,alpha} = alpha / (2 (2 ((alpha - 1)/alpha)^alpha + alpha - 1) s)

Everything below is derived from this density with SymPy.  Powers with the exponent alpha are
handled through the two quantities

    W = (1 - 1/alpha)^alpha = ((alpha - 1)/alpha)^alpha,   V = (1 + 1/alpha)^alpha,

so that (1 - 1/alpha^2)^alpha = W V; every closed form then is a rational function of alpha, W
and V, which SymPy compares exactly.  The integrals are computed with the exponent n and the
branch point c as free symbols (fast), then specialised to n = alpha, c = 1/alpha.

Generated (``_generated/noise.py``): ``polyplace_log_normaliser(s, alpha)``,
``polyplace_variance(s, alpha)``, and the constants of the survival function
``polyplace_log_tail_constant(alpha)``, ``polyplace_inner_constant(alpha)``; W is evaluated as
exp(alpha ln W) with ln W = ln(alpha - 1) - ln(alpha) for alpha < 2 (alpha - 1 is exact there, so
alpha -> 1+ loses nothing) and alpha log1p(-1/alpha) for alpha >= 2 (accurate for huge alpha,
where (1 - 1/alpha)^alpha in floating point loses alpha * 1e-16 relative); each rewritten form is
proven equal to the derived one in :func:`codegen_targets`.  ``_generated/calibration.py`` gets
eps = alpha gamma of 002 Thm. 8 (Lemma 12 with s = 1/gamma) and its inverse in alpha.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import sympy as sp
from sympy.codegen.cfunctions import log1p

from derivations.codegen import FunctionTable, GeneratedModule, prove_rewrite
from derivations.comparison import Comparison, compare_forms

__all__ = [
    "S", "ALPHA", "X", "W", "V",
    "printed_normaliser",
    "derive_normaliser",
    "derive_antiderivatives",
    "derive_log_derivatives",
    "derive_lemma12",
    "derive_variance",
    "derive_cor14",
    "derive_lemma15",
    "derive_tail_constants",
    "derive_eps_thm8",
    "w_numeric",
    "codegen_targets",
]

S, ALPHA, X = sp.symbols("s alpha x", positive=True)
W, V = sp.symbols("W V", positive=True)
_N, _C = sp.symbols("n c", positive=True)
GAMMA, EPS, SS, A = sp.symbols("gamma epsilon SS a", positive=True)

#: W = ((alpha-1)/alpha)^alpha written for stable evaluation: exp(alpha*log1p(-1/alpha)) (the
#: codegen log1p node, which SymPy does not expand into log(alpha - 1) - log(alpha)).
_LOG_W = sp.Piecewise((sp.log(ALPHA - 1) - sp.log(ALPHA), ALPHA < 2), (log1p(-1 / ALPHA), True))
#: (for alpha < 2, ln(alpha - 1) - ln(alpha) is accurate because alpha - 1 is exact in floating point;
#: for alpha >= 2, log1p(-1/alpha) avoids cancellation for huge alpha)
w_numeric = sp.exp(ALPHA * _LOG_W)
v_numeric = sp.exp(ALPHA * log1p(1 / ALPHA))

_DOMAIN = {ALPHA: (1.0001, 60.0)}


def printed_normaliser() -> sp.Expr:
    """002 Def. 6 as printed: N = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s)."""
    return ALPHA / (2 * (2 * ((ALPHA - 1) / ALPHA) ** ALPHA + ALPHA - 1) * S)


def _to_wv(expr: sp.Expr) -> sp.Expr:
    """Replace (1 - c)^(k n + r) by W^k (1 - c)^r and (1 + c)^(k n + r) by V^k (1 + c)^r, then
    specialise n = alpha, c = 1/alpha."""

    def split(base: sp.Expr, sym: sp.Symbol):
        def rep(t: sp.Pow) -> sp.Expr:
            k = sp.expand(t.exp).coeff(_N)
            return sym**k * base ** sp.expand(t.exp - k * _N)

        return lambda e: e.replace(lambda t: t.is_Pow and sp.expand(t.base - base) == 0 and t.exp.has(_N), rep)

    e = split(1 - _C, W)(sp.expand_power_exp(expr))
    e = split(1 + _C, V)(e)
    e = e.subs({_N: ALPHA, _C: 1 / ALPHA})
    return sp.factor(sp.cancel(sp.gammasimp(sp.together(e))))


@lru_cache(maxsize=None)
def _branch_integrals() -> dict[str, sp.Expr]:
    """Integrals of the two branches of f_{1,alpha} / N over x >= 0 (order 0 and 2), in W, V."""
    x = X
    b1 = sp.integrate((1 - x) ** (_N - 1), (x, 0, _C), conds="none")
    b2 = sp.integrate((1 + x) ** (-_N - 1), (x, _C, sp.oo), conds="none")
    m1 = sp.integrate(x**2 * (1 - x) ** (_N - 1), (x, 0, _C), conds="none")
    m2 = sp.integrate(x**2 * (1 + x) ** (-_N - 1), (x, _C, sp.oo), conds="none")
    # (1 - 1/alpha^2)^alpha = W V multiplies the second branch.
    return {
        "mass1": _to_wv((ALPHA - 1) * b1),
        "mass2": _to_wv((ALPHA + 1) * W * V * b2),
        "mom1": _to_wv((ALPHA - 1) * m1),
        "mom2": _to_wv((ALPHA + 1) * W * V * m2),
    }


@lru_cache(maxsize=None)
def derive_normaliser() -> tuple[sp.Expr, Comparison]:
    """002 Def. 6 / Lemma 7: N_{s,alpha} solving 2 * int_0^inf f_{s,alpha} = 1 (s by scaling).

    Derived N = alpha / (2 s (2 W + alpha - 1)); compared with the printed N (W-form)."""
    bi = _branch_integrals()
    total_over_n = sp.factor(2 * (bi["mass1"] + bi["mass2"]))  # int_R f_{1,alpha} / N
    n_derived = sp.factor(1 / (total_over_n * S))  # scaling x = s u gives a factor s
    printed = printed_normaliser().subs(((ALPHA - 1) / ALPHA) ** ALPHA, W)
    printed = sp.factor(printed.subs((1 - 1 / ALPHA) ** ALPHA, W))
    cmp = compare_forms("002 Def. 6 normaliser N_{s,alpha}", printed, n_derived, {S: (0.1, 10.0), W: (0.0, 1.0), ALPHA: (1.001, 50.0)})
    return n_derived, cmp


@lru_cache(maxsize=None)
def derive_antiderivatives() -> tuple[dict[str, sp.Expr], list[Comparison]]:
    """002 App. A (proof of Lemma 7): the printed antiderivatives I1, I2 (s = 1)::

        I1(alpha, x) = -(alpha-1)(1-x)^alpha / (2 (2 W + alpha - 1))
        I2(alpha, x) = -(1-1/alpha^2)^alpha (alpha+1)(x+1)^(-alpha) / (2 (2 W + alpha - 1))

    Check: d/dx I_k equals the k-th branch of f_{1,alpha} (symbolically), and
    I1(1/alpha) - I1(0) + lim I2 - I2(1/alpha) = 1/2 (numerically at 50 digits)."""
    x = X
    den = 2 * (2 * ((ALPHA - 1) / ALPHA) ** ALPHA + ALPHA - 1)
    n1 = ALPHA / den  # N_{1,alpha}
    i1 = -(ALPHA - 1) * (1 - x) ** ALPHA / den
    i2 = -((1 - 1 / ALPHA**2) ** ALPHA) * (ALPHA + 1) * (x + 1) ** (-ALPHA) / den
    f1 = n1 * (ALPHA - 1) * (1 - x) ** (ALPHA - 1)
    f2 = n1 * (ALPHA + 1) * (1 - 1 / ALPHA**2) ** ALPHA * (1 + x) ** (-ALPHA - 1)
    dom = {ALPHA: (1.001, 50.0), X: (0.0, 0.99)}
    c1 = compare_forms("002 App. A: dI1/dx = branch 1 of f_{1,alpha}", sp.diff(i1, x), f1, dom)
    c2 = compare_forms("002 App. A: dI2/dx = branch 2 of f_{1,alpha}", sp.diff(i2, x), f2, dom)
    half = i1.subs(x, 1 / ALPHA) - i1.subs(x, 0) + 0 - i2.subs(x, 1 / ALPHA)  # lim_{x->inf} I2 = 0 (alpha > 0)
    c3 = compare_forms("002 App. A: I1(1/a)-I1(0)+lim I2-I2(1/a) = 1/2", half, sp.Rational(1, 2), {ALPHA: (1.001, 50.0)})
    return {"I1": i1, "I2": i2}, [c1, c2, c3]


@lru_cache(maxsize=None)
def derive_log_derivatives() -> tuple[dict[str, sp.Expr], list[Comparison]]:
    """002 Lemma 10: for x > 0 (x < 0 by symmetry, the shift derivative gets sgn(x)), h = log f::

        d/dl h(s, x + l)|_0      = (alpha-1)/(|x|-s)           if |x|/s < 1/alpha
                                 = (-alpha-1)/(|x|+s)          otherwise        (main text)
        d/dl h(e^{l/s} s, x)|_0  = -1/s + (alpha-1)|x|/(s(s-|x|))   if |x|/s < 1/alpha
                                 = -1/s + (alpha+1)|x|/(s(s+|x|))   otherwise

    App. A eq. (11) prints the second shift branch as -(alpha-1)/(|x|+s): compared as well."""
    x, s, a = X, S, ALPHA
    lam = sp.Symbol("lambda", real=True)
    n = printed_normaliser()
    h1 = sp.expand_log(sp.log(n * (a - 1) * (1 - x / s) ** (a - 1)), force=True)
    h2 = sp.expand_log(sp.log(n * (a + 1) * (1 - 1 / a**2) ** a * (1 + x / s) ** (-a - 1)), force=True)
    shift1 = sp.simplify(sp.diff(h1.subs(x, x + lam), lam).subs(lam, 0))
    shift2 = sp.simplify(sp.diff(h2.subs(x, x + lam), lam).subs(lam, 0))

    def scale_d(h):
        return sp.simplify(sp.diff(h.subs(s, sp.exp(lam / s) * s), lam).subs(lam, 0))

    scale1, scale2 = scale_d(h1), scale_d(h2)
    dom1 = {S: (0.5, 5.0), ALPHA: (1.01, 40.0)}
    out = []
    # branch 1 domain: 0 < x < s/alpha; branch 2: x >= s/alpha (x = s t/alpha with t in the range)
    t = sp.Symbol("t", positive=True)
    for label, printed, derived, lo, hi in [
        ("shift, |x|/s < 1/alpha", (a - 1) / (x - s), shift1, 0.01, 0.99),
        ("shift, |x|/s >= 1/alpha (main text)", (-a - 1) / (x + s), shift2, 1.0, 50.0),
        ("shift, |x|/s >= 1/alpha (App. A eq. (11))", -(a - 1) / (x + s), shift2, 1.0, 50.0),
        ("scale, |x|/s < 1/alpha", -1 / s + (a - 1) * x / (s * (s - x)), scale1, 0.01, 0.99),
        ("scale, |x|/s >= 1/alpha", -1 / s + (a + 1) * x / (s * (s + x)), scale2, 1.0, 50.0),
    ]:
        p_t = printed.subs(x, s * t / a)
        d_t = derived.subs(x, s * t / a)
        c = compare_forms(f"002 Lemma 10 {label}", p_t, d_t, {S: dom1[S], ALPHA: dom1[ALPHA], t: (lo, hi)},
                          note="compared with x = s t / alpha (t < 1: first branch, t >= 1: second); forms shown in x (x > 0)")
        out.append(dataclasses.replace(c, printed=printed, derived=derived))
    return {"shift1": shift1, "shift2": shift2, "scale1": scale1, "scale2": scale2}, out


@lru_cache(maxsize=None)
def derive_lemma12() -> tuple[dict[str, sp.Expr], list[Comparison]]:
    """002 Lemma 12: |d/dl log f_{s,alpha}(x+l)| + |d/dl log f_{e^{l/s}s,alpha}(x)| = alpha/s at
    l = 0, for all x != 0 (then s = 1/gamma, alpha = eps/gamma gives eps).

    Per branch (x > 0 by symmetry) the signs are fixed: with x = s t / alpha,
    branch 1 (0 < t < 1): shift = -(alpha-1)/(s - x) < 0, scale = -(s - alpha x)/(s (s - x)) < 0;
    branch 2 (t >= 1): shift = -(alpha+1)/(s + x) < 0, scale = (alpha x - s)/(s (s + x)) >= 0.
    The sign of each factored form is read off symbolically (every factor has a known sign);
    the sum of absolute values is then simplified to alpha/s."""
    d, _ = derive_log_derivatives()
    x, s, a = X, S, ALPHA
    t = sp.Symbol("t", positive=True)
    res = {}
    cmps = []
    for br, (sh, sc) in {"1": (d["shift1"], d["scale1"]), "2": (d["shift2"], d["scale2"])}.items():
        sh_t = sp.factor(sh.subs(x, s * t / a))
        sc_t = sp.factor(sc.subs(x, s * t / a))
        # signs on the branch: substitute t = u/(1+u) (branch 1, t in (0,1)) or t = 1 + u (branch 2)
        u = sp.Symbol("u", positive=True)
        b = sp.Symbol("b", positive=True)  # alpha = 1 + b > 1
        tt = u / (1 + u) if br == "1" else 1 + u
        sgn_sh = sp.sign(sp.factor(sp.together(sh_t.subs({t: tt, a: 1 + b}))))
        # branch 2: the scale derivative is >= 0, = 0 only at t = 1 (u = 0), where |.| = 0 anyway
        sgn_sc = sp.sign(sp.factor(sp.together(sc_t.subs({t: tt, a: 1 + b}))))
        if sgn_sh not in (1, -1) or sgn_sc not in (1, -1):
            raise RuntimeError(f"002 Lemma 12 branch {br}: sign not determined: {sgn_sh}, {sgn_sc}")
        total = sp.simplify(sgn_sh * sh_t + sgn_sc * sc_t)
        res[br] = {"shift": sh_t, "scale": sc_t, "sign_shift": sgn_sh, "sign_scale": sgn_sc, "sum": total}
        lo, hi = (0.01, 0.99) if br == "1" else (1.0, 50.0)
        cmps.append(
            compare_forms(
                f"002 Lemma 12 branch {br}: |shift| + |scale| = alpha/s",
                a / s,
                total,
                {S: (0.5, 5.0), ALPHA: (1.01, 40.0), t: (lo, hi)},
                note=f"sign(shift)={sgn_sh}, sign(scale)={sgn_sc} on the branch",
            )
        )
    return res, cmps


@lru_cache(maxsize=None)
def derive_variance() -> tuple[sp.Expr, Comparison]:
    """002 Lemma 13: Var = 2 int_0^inf x^2 f_{s,alpha}(x) dx (finite iff alpha > 2), printed::

        sigma^2 = 2 s^2 (1/alpha + 1)^(-alpha) ((19 alpha^2 + 5)(1 - 1/alpha^2)^alpha
                  + (alpha - 2)(alpha - 1)^2 (1/alpha + 1)^alpha)
                  / ((2 ((alpha-1)/alpha)^alpha + alpha - 1)(alpha^4 - 5 alpha^2 + 4))

    In W, V: (1/alpha+1)^alpha = V, (1-1/alpha^2)^alpha = W V."""
    bi = _branch_integrals()
    n_derived, _ = derive_normaliser()
    n1 = n_derived.subs(S, 1)
    var1 = sp.factor(2 * n1 * (bi["mom1"] + bi["mom2"]))  # s = 1; Var scales with s^2
    derived = sp.factor(S**2 * var1)
    printed = (
        2 * S**2 * V ** (-1) * ((19 * ALPHA**2 + 5) * W * V + (ALPHA - 2) * (ALPHA - 1) ** 2 * V)
        / ((2 * W + ALPHA - 1) * (ALPHA**4 - 5 * ALPHA**2 + 4))
    )
    cmp = compare_forms("002 Lemma 13 variance", printed, derived, {S: (0.1, 10.0), W: (0.0, 1.0), V: (1.0, 3.0), ALPHA: (2.001, 50.0)})
    return derived, cmp


@lru_cache(maxsize=None)
def derive_cor14() -> tuple[sp.Expr, Comparison]:
    """002 Cor. 14: with s = SS/gamma, alpha = eps/gamma, the expansion of Var in gamma at 0::

        printed: 2 SS^2/eps^2 - 2 (3e - 17) gamma SS^2 / (e eps^3) + O(gamma^2)

    Derived by substituting W = exp(alpha log(1 - 1/alpha)) into the derived variance and
    expanding in gamma (series to O(gamma^2))."""
    var, _ = derive_variance()
    g = GAMMA
    # Var = s^2 V(alpha) = (SS/gamma)^2 V(eps/gamma) = (SS^2/eps^2) u^-2 V(1/u) with u = gamma/eps:
    # a one-variable series in u (fast), then u = gamma/eps.
    u = sp.Symbol("u", positive=True)
    w_log = sp.exp(ALPHA * sp.log(1 - 1 / ALPHA))
    v_log = sp.exp(ALPHA * sp.log(1 + 1 / ALPHA))
    vq = var.subs({W: w_log, V: v_log, S: 1}).subs(ALPHA, 1 / u) / u**2
    ser = sp.series(vq, u, 0, 2).removeO()
    derived = sp.simplify(sp.expand(SS**2 / EPS**2 * ser.subs(u, g / EPS)))
    printed = 2 * SS**2 / EPS**2 - 2 * (3 * sp.E - 17) * g * SS**2 / (sp.E * EPS**3)
    cmp = compare_forms("002 Cor. 14 first-order expansion", printed, derived, {SS: (0.1, 10.0), EPS: (0.1, 10.0), GAMMA: (0.001, 0.1)})
    return derived, cmp


@lru_cache(maxsize=None)
def derive_lemma15() -> tuple[dict[str, sp.Expr], list[Comparison]]:
    """002 Lemma 15: f_{a/gamma, eps/gamma}(x) -> (eps/(2a)) e^{-eps|x|/a} as gamma -> 0.

    The branch is fixed for fixed x: |x|/s < 1/alpha iff |x| < a/eps.  The limit of each branch
    is derived with SymPy (log of the density, series in gamma)."""
    g = GAMMA
    x = X
    s = A / g
    alpha = EPS / g
    n = alpha / (2 * (2 * sp.exp(alpha * sp.log(1 - 1 / alpha)) + alpha - 1) * s)
    br1 = n * (alpha - 1) * sp.exp((alpha - 1) * sp.log(1 - x / s))
    br2 = n * (alpha + 1) * sp.exp(alpha * sp.log(1 - 1 / alpha**2)) * sp.exp((-alpha - 1) * sp.log(1 + x / s))
    lap = EPS / (2 * A) * sp.exp(-EPS * x / A)
    out = {}
    cmps = []
    for k, br in (("1", br1), ("2", br2)):
        lim = sp.simplify(sp.limit(br, g, 0, "+"))
        out[k] = lim
        cmps.append(compare_forms(f"002 Lemma 15 branch {k} limit", lap, lim, {A: (0.1, 5.0), EPS: (0.1, 5.0), X: (0.0, 5.0)}))
    return out, cmps


@lru_cache(maxsize=None)
def derive_tail_constants() -> dict[str, sp.Expr]:
    """P(Z > z) for Z ~ PolyPlace(1, alpha), integrated from the density (002 Def. 6, Lemma 7 proof):

        z >= 1/alpha:      P(Z > z) = int_z^inf f = C (1 + z)^(-alpha),
                           C = (alpha + 1) W V / (2 (2 W + alpha - 1))     [= -I2(alpha, z)(1+z)^alpha]
        0 <= z < 1/alpha:  P(Z > z) = 1/2 - int_0^z f = 1/2 - K (1 - (1 - z)^alpha),
                           K = (alpha - 1) / (2 (2 W + alpha - 1))

    (W = (1 - 1/alpha)^alpha, V = (1 + 1/alpha)^alpha).  Both integrals by SymPy with the exponent
    n free, then n = alpha; C and K are checked to be free of z."""
    n1 = derive_normaliser()[0].subs(S, 1)
    z = sp.Symbol("z", positive=True)
    outer = sp.integrate((1 + X) ** (-_N - 1), (X, z, sp.oo), conds="none")
    inner = sp.integrate((1 - X) ** (_N - 1), (X, 0, z), conds="none")
    c_tail = sp.factor(sp.simplify(n1 * (ALPHA + 1) * W * V * sp.powsimp(outer * (1 + z) ** _N, force=True).subs(_N, ALPHA)))
    k_inner = sp.factor(sp.simplify(n1 * (ALPHA - 1) * sp.simplify(inner / (1 - (1 - z) ** _N)).subs(_N, ALPHA)))
    if c_tail.has(z) or k_inner.has(z):  # pragma: no cover - a broken derivation
        raise RuntimeError(f"002 Lemma 7: tail constants depend on z: {c_tail}, {k_inner}")
    return {"C": c_tail, "K": k_inner}


@lru_cache(maxsize=None)
def derive_eps_thm8() -> tuple[sp.Expr, sp.Expr]:
    """002 Thm. 8 with Lemma 12: PolyPlace(s, alpha) with s = 1/gamma (per unit of the gamma-smooth
    sensitivity) certifies eps = |shift| + |scale| = alpha/s = alpha gamma (both branches of
    :func:`derive_lemma12` give the same sum); inverted for alpha at a target eps."""
    res, _ = derive_lemma12()
    sums = {sp.simplify(r["sum"]) for r in res.values()}
    if len(sums) != 1:  # pragma: no cover - a broken derivation
        raise RuntimeError(f"002 Lemma 12: the branches give different sums {sums}")
    eps = sums.pop().subs(S, 1 / GAMMA)
    target = sp.Symbol("eps", positive=True)
    alpha = sp.solve(sp.Eq(eps, target), ALPHA)[0]
    return eps, alpha


_ALPHA_EDGES = [{"alpha": a} for a in (1.0 + 1e-9, 1.0 + 2.83e-9, 1.0 + 1e-6, 1.0001, 1.5, 2.0 - 1e-12, 2.0, 2.0 + 1e-9, 2.5, 1e3, 1e8)]


def codegen_targets() -> list[GeneratedModule]:
    """Generated evaluators of ``_generated/noise.py`` (and eps of 002 Thm. 8 for ``calibration.py``)."""
    n_derived, _ = derive_normaliser()
    var, _ = derive_variance()
    tails = derive_tail_constants()
    w_exact, v_exact = ((ALPHA - 1) / ALPHA) ** ALPHA, ((ALPHA + 1) / ALPHA) ** ALPHA
    exact = {W: w_exact, V: v_exact}
    numeric = {W: w_numeric, V: v_numeric}
    table = FunctionTable.beside(__file__)  # docstrings, domains: derivations/polyplace.toml
    dom = table.domain("polyplace_log_normaliser")  # also that of polyplace_variance
    edges_s = [{"s": 1.0, **e} for e in _ALPHA_EDGES]
    # ln N: expand_log splits N = alpha/(2 s D) into logs (D = 2 W + alpha - 1 stays one log)
    log_n = prove_rewrite("polyplace_log_normaliser", sp.expand_log(sp.log(n_derived), force=True).subs(numeric),
                          sp.log(n_derived.subs(exact)), dom, log_args=("s", "alpha"), edges=edges_s, symbolic=False)
    var_num = prove_rewrite("polyplace_variance", var.subs(numeric), var.subs(exact), dom, log_args=("s", "alpha"),
                            valid=lambda s, alpha: alpha > 2.0, symbolic=False,
                            edges=[{"s": 1.0, "alpha": a} for a in (2.0 + 1e-9, 2.5, 3.0, 1e8)])
    var_expr = sp.Piecewise((var_num, ALPHA > 2), (sp.oo, True))
    # ln C = ln(alpha + 1) + alpha ln W + alpha ln(1 + 1/alpha) - ln 2 - ln(2 W + alpha - 1)
    c_tail = tails["C"]
    log_c_num = (sp.log(ALPHA + 1) + ALPHA * _LOG_W + ALPHA * log1p(1 / ALPHA)
                 - sp.log(2 * (2 * W + ALPHA - 1)).subs(numeric))
    log_c_num = prove_rewrite("polyplace_log_tail_constant", log_c_num, sp.log(c_tail.subs(exact)), {"alpha": dom["alpha"]},
                              log_args=("alpha",), edges=_ALPHA_EDGES, symbolic=False)
    k_num = prove_rewrite("polyplace_inner_constant", tails["K"].subs(numeric), tails["K"].subs(exact), {"alpha": dom["alpha"]},
                          log_args=("alpha",), edges=_ALPHA_EDGES, symbolic=False)
    eps_pp, alpha_pp = derive_eps_thm8()
    return table.modules({
        "polyplace_log_normaliser": ((S, ALPHA), log_n),
        "polyplace_variance": ((S, ALPHA), var_expr),
        "polyplace_log_tail_constant": ((ALPHA,), log_c_num),
        "polyplace_inner_constant": ((ALPHA,), k_num),
        "eps_polyplace": ((GAMMA, ALPHA), eps_pp),
        "alpha_polyplace": (tuple(sorted(alpha_pp.free_symbols, key=lambda v: v.name != "eps")), alpha_pp),
    })
