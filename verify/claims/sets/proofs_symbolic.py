"""Symbolic proofs attached to VERIFIED closed-form claims (``@proof_for``).

For each claim below the proof takes the SymPy derivation of :mod:`derivations` (the same cached
functions the claim's check calls: the density or objective integrated / differentiated, its
stationary points solved), checks that the derived form equals the printed one exactly on the
stated domain (``simplify(derived - printed) == 0`` with the domain as symbol assumptions, e.g.
``c = 1 + b``, ``b > 0``), and hands the derivation's *witnesses* (antiderivatives, stationary
points, signs, closed forms) to the independent re-checker :func:`verify.proof.symbolic.recheck`,
which rebuilds the argument from its own statement of the definition and the printed form
(derivatives of the antiderivatives, limits at the ends, uniqueness and sign of the stationary
points, Beta-integral substitutions) and evaluates definition and printed value in arb balls at
>= 3 rational points.  Both must hold for VERIFIED (proven); a re-check that fails gives
INCONCLUSIVE (R-UNDEC), a derived form that does not simplify to the printed one leaves the
tested result unchanged (with the reason in the evidence).

002 Cor. 14: the exact variance from the density (antiderivatives of x^2 f, alpha > 2) and its expansion
in u = gamma/eps, re-checked by the chain rule through W(u) = exp(log(1-u)/u) and by Cauchy's formula on
a circle (the coefficients as contour integrals in arb); 002 Lemma 15: each branch as R(gamma, W) e^E with
the limits of W and E taken one by one, re-checked by Cauchy's formula (the value at gamma = 0).  000 Thm. 1 normalisation and 000 Lemma 2: the proof covers the mathematical
statement (the integral identity; h+ and h- are densities whose 1/2-mixture is h); the claims' parts
about the core's pdf / CDF / sampler stay tested (their tested evidence is kept in the result, and
the proven domain says so).
"""

from __future__ import annotations

import functools
import time
from functools import lru_cache
from typing import Any, Callable, Mapping

import sympy as sp

from verify.claims.registry import (CheckContext, ClaimResult, ExpectedObligation, Verdict, method_expectation,
                                    obligation_for, proof_for, with_proof)

__all__ = ["SYMBOLIC_CLAIMS", "symbolic_proof", "prove_symbolic", "symbolic_expectation", "declare_symbolic"]


#: the claims proven by the symbolic spec of the same id (filled by :func:`symbolic_proof`)
SYMBOLIC_CLAIMS: list[str] = []

WitnessFn = Callable[[], tuple[dict[str, Any], dict[str, Any]]]


#: claim id -> (the claim's obligations, those its symbolic proof covers) where the proof covers less than the
#: claim states (filled by :func:`symbolic_proof`)
PARTIAL: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def symbolic_proof(claim_id: str, *, obligations: tuple[str, ...] = (),
                   proves: tuple[str, ...] = ()) -> Callable[[WitnessFn], WitnessFn]:
    """Decorator: the decorated function (() -> (witnesses, derivation)) derives the witnesses of the symbolic
    spec ``claim_id``; it is registered with the spec (:func:`verify.proof.symbolic.witnesses_for`: the spec
    carries it) and the symbolic proof is attached to the claim of the same id
    (:func:`verify.claims.registry.proof_for`, with its obligation declared).  ``obligations`` / ``proves``:
    the claim's obligations and those the symbolic proof covers, where it covers less than the claim states
    (the claim is then "partly proven", the rest resting on its test)."""

    def deco(fn: WitnessFn) -> WitnessFn:
        from verify.proof import symbolic as S  # noqa: PLC0415

        S.witnesses_for(claim_id)(fn)
        if obligations or proves:
            PARTIAL[claim_id] = (tuple(obligations), tuple(proves))

        def proof(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
            return prove_symbolic(claim_id, tested)

        proof.__name__ = f"proof_{claim_id.replace('-', '_').replace('.', '_')}"
        proof_for(claim_id)(proof)
        obligation_for(claim_id)(lambda scale: symbolic_expectation(claim_id))
        SYMBOLIC_CLAIMS.append(claim_id)
        return fn

    return deco


# ---------------------------------------------------------------------------------------------------
# witnesses from the derivations (cached: the claims' checks call the same derivations)
# ---------------------------------------------------------------------------------------------------
def _sym_cmps(cmps: Any) -> list[dict[str, Any]]:
    return [{"name": c.name, "method": c.method, "agree": c.agree} for c in cmps]


@symbolic_proof("004-Claim-3.4")
@lru_cache(maxsize=None)
def _w_claim34() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import gencauchy as gc  # noqa: PLC0415

    sup, cmps = gc.derive_claim34()
    return {"zstar": cmps[1].derived, "sup": sup}, {"source": "derivations.gencauchy.derive_claim34",
                                                   "comparisons": _sym_cmps(cmps)}


@symbolic_proof("004-App-A.1-student-t-lipschitz")
@lru_cache(maxsize=None)
def _w_a1() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import student_t as st  # noqa: PLC0415

    sup, cmps = st.derive_lipschitz()
    z = sp.Symbol("z", positive=True)
    dh = sp.diff((st.NU + 1) / 2 * sp.log(1 + z**2 / st.NU), z)
    crit = [r for r in sp.solve(sp.diff(dh, z), z) if r.is_positive is not False]  # the derivation's stationary point
    return {"zstar": crit[0], "sup": sup}, {"source": "derivations.student_t.derive_lipschitz",
                                           "comparisons": _sym_cmps(cmps)}


def _gc_shift_zstar() -> sp.Expr:
    """The stationary point of the GenCauchy D_shift, as the derivation finds it (Claim 3.4)."""
    w, _ = _w_claim34()
    c = sp.Symbol("c", positive=True)
    return w["zstar"].subs(c, sp.Symbol("p", positive=True))


@lru_cache(maxsize=None)
def _w_gc_eps(m_coords: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import privacy_loss as pl  # noqa: PLC0415

    eps, parts, cmps = pl.derive_gencauchy_gp()
    e = eps if m_coords else eps.subs(pl.M, 1)
    return ({"zstar": _gc_shift_zstar(), "eps": e},
            {"source": "derivations.privacy_loss.derive_gencauchy_gp", "parts": {k: str(v) for k, v in parts.items()},
             "comparisons": _sym_cmps(cmps)})


@symbolic_proof("004-Lemma-3.5-epsilon")
@lru_cache(maxsize=None)
def _w_t_eps() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import privacy_loss as pl  # noqa: PLC0415

    eps, parts, cmps = pl.derive_student_t_gp()
    w, _ = _w_a1()
    return ({"zstar": w["zstar"], "eps": eps},
            {"source": "derivations.privacy_loss.derive_student_t_gp", "parts": {k: str(v) for k, v in parts.items()},
             "comparisons": _sym_cmps(cmps)})


@symbolic_proof("004-Lemma-3.6-epsilon")
@lru_cache(maxsize=None)
def _w_lap() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import privacy_loss as pl  # noqa: PLC0415

    eps, _, parts, cmps = pl.derive_laplace_gl()
    z = sp.Symbol("z", positive=True)
    return ({"tail": parts["tail"].subs(sp.Symbol("t", positive=True), z), "eps": eps},
            {"source": "derivations.privacy_loss.derive_laplace_gl", "parts": {k: str(v) for k, v in parts.items()},
             "comparisons": _sym_cmps(cmps)})


@symbolic_proof("004-Sec-3.1.2-growth-axioms")
@lru_cache(maxsize=None)
def _w_growth() -> tuple[dict[str, Any], dict[str, Any]]:
    g = sp.Symbol("gamma", positive=True)
    r = sp.Symbol("r", nonnegative=True)
    r1, r2 = sp.symbols("r1 r2", nonnegative=True)
    gE, gL = sp.exp(g * r), 1 + g * r
    return ({"submult_gE": sp.simplify(gE.subs(r, r1) * gE.subs(r, r2) - gE.subs(r, r1 + r2)),
             "submult_gL": sp.factor(sp.expand(gL.subs(r, r1) * gL.subs(r, r2) - gL.subs(r, r1 + r2)))},
            {"source": "SymPy: g0(r1) g0(r2) - g0(r1 + r2) simplified from the definitions of g_E, g_L (004 Sec. 3.1.2)"})


@symbolic_proof("004-Sec-2.1-student-t")
@lru_cache(maxsize=None)
def _w_student_t() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import student_t as st  # noqa: PLC0415

    c, c1 = st.derive_normaliser()
    var, c2 = st.derive_variance()
    return {"c": c, "var": var}, {"source": "derivations.student_t.derive_normaliser / derive_variance",
                                  "comparisons": _sym_cmps([c1, c2])}


@symbolic_proof("004-Sec-2.1-gencauchy-variance")
@lru_cache(maxsize=None)
def _w_gc_var() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import gencauchy as gc  # noqa: PLC0415

    var, cmps = gc.derive_variance()
    return {"var": var}, {"source": "derivations.gencauchy.derive_variance", "comparisons": _sym_cmps(cmps)}


@symbolic_proof("004-App-C.1")
@lru_cache(maxsize=None)
def _w_c1() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import gencauchy as gc  # noqa: PLC0415

    cdf, cmps = gc.derive_cdf_p4()
    q = sp.Symbol("q", positive=True)
    upper = next(e for e, cond in cdf.args if cond is sp.true)  # 1/2 + c H(|z|) (z >= 0)
    return ({"cH": (upper - sp.Rational(1, 2)).subs(sp.Abs(gc.Z), q).subs(gc.Z, q)},
            {"source": "derivations.gencauchy.derive_cdf_p4", "comparisons": _sym_cmps(cmps)})


@symbolic_proof("004-Sec-2.1-gencauchy-cdf-p6")
@lru_cache(maxsize=None)
def _w_p6() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import gencauchy as gc  # noqa: PLC0415

    cdf, cmps = gc.derive_cdf_p6()
    q = sp.Symbol("q", positive=True)
    upper = next(e for e, cond in cdf.args if cond is sp.true)
    c_h = (upper - sp.Rational(1, 2)).subs(sp.Abs(gc.Z), q).subs(gc.Z, q)
    c6 = 3 / (2 * sp.pi)
    return ({"cH": c_h, "H": sp.simplify(c_h / c6)},
            {"source": "derivations.gencauchy.derive_cdf_p6 (H6 = SymPy's int_0^q dz/(1+z^6))",
             "comparisons": _sym_cmps(cmps)})


@lru_cache(maxsize=None)
def _pp_antiderivatives() -> dict[str, sp.Expr]:
    """Antiderivatives of the two branches of f_{1,alpha}, by SymPy from the density of 002 Def. 6 with the
    derivation's normaliser N (s = 1; x >= 0; s by scaling)."""
    from derivations import polyplace as pp  # noqa: PLC0415

    n_derived, _ = pp.derive_normaliser()
    a, x = sp.Symbol("alpha", positive=True), sp.Symbol("x", positive=True)
    N = n_derived.subs({pp.S: 1, pp.W: ((pp.ALPHA - 1) / pp.ALPHA) ** pp.ALPHA}).subs(pp.ALPHA, a)
    n = sp.Symbol("n", positive=True)
    # int (1 - x)^(n-1) dx = -(1-x)^n/n, int (1 + x)^(-n-1) dx = -(1+x)^(-n)/n (SymPy, exponent free; then n = alpha)
    g1 = sp.integrate((1 - x) ** (n - 1), x, conds="none")
    g2 = sp.integrate((1 + x) ** (-n - 1), x, conds="none")
    return {"G1": N * (a - 1) * g1.subs(n, a), "G2": N * (a + 1) * (1 - 1 / a**2) ** a * g2.subs(n, a)}


@symbolic_proof("002-Def-6-normalisation")
@lru_cache(maxsize=None)
def _w_def6() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import polyplace as pp  # noqa: PLC0415

    _, cmp = pp.derive_normaliser()
    return dict(_pp_antiderivatives()), {"source": "derivations.polyplace.derive_normaliser (N) and SymPy antiderivatives "
                                                   "of the two branches", "comparisons": _sym_cmps([cmp])}


@symbolic_proof("002-Lemma-7")
@lru_cache(maxsize=None)
def _w_lemma7() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import polyplace as pp  # noqa: PLC0415

    forms, cmps = pp.derive_antiderivatives()
    a, x = pp.ALPHA, pp.X
    AL, X = sp.symbols("alpha x", positive=True)
    return ({k: v.subs({a: AL, x: X}) for k, v in forms.items()},
            {"source": "derivations.polyplace.derive_antiderivatives", "comparisons": _sym_cmps(cmps)})


@symbolic_proof("002-Lemma-12")
@lru_cache(maxsize=None)
def _w_lemma12() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import polyplace as pp  # noqa: PLC0415

    res, cmps = pp.derive_lemma12()
    w = {}
    for br in ("1", "2"):
        w[f"sign_shift{br}"] = sp.Integer(int(res[br]["sign_shift"]))
        w[f"sign_scale{br}"] = sp.Integer(int(res[br]["sign_scale"]))
    return w, {"source": "derivations.polyplace.derive_lemma12", "comparisons": _sym_cmps(cmps),
               "sums": {br: str(res[br]["sum"]) for br in res}}


@symbolic_proof("002-Claim-17")
@lru_cache(maxsize=None)
def _w_claim17() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import stddev_002 as sd  # noqa: PLC0415

    std, cmps = sd.derive_claim17()
    d, eps, g = sp.symbols("d epsilon gamma", positive=True)
    return ({"std": std.subs({sd.D: d, sd.EPS: eps, sd.GAMMA: g})},
            {"source": "derivations.stddev_002.derive_claim17", "comparisons": _sym_cmps(cmps)})


@symbolic_proof("004-Claim-4.4")
@lru_cache(maxsize=None)
def _w_c44() -> tuple[dict[str, Any], dict[str, Any]]:
    """The check's derivation (004-Claim-4.4): stationary points of c e^{-c^2/2} on c > 0 and the value there."""
    c = sp.Symbol("c", positive=True)
    g = c * sp.exp(-c**2 / 2)
    crit = sp.solve(sp.diff(g, c), c)
    if len(crit) != 1:
        raise RuntimeError(f"004 Claim 4.4: unexpected stationary points {crit}")
    return ({"ustar": crit[0], "sup_unit": sp.simplify(g.subs(c, crit[0]))},
            {"source": "SymPy: solve(d/dc (c e^{-c^2/2}) = 0) on c > 0 (as the check of 004-Claim-4.4)",
             "critical_points": [str(r) for r in crit]})


@symbolic_proof("004-Claim-4.2")
@lru_cache(maxsize=None)
def _w_c42() -> tuple[dict[str, Any], dict[str, Any]]:
    """004 Claim 4.2: |grad D|^2 on the region where both offsets are positive (D = ||c0 - p||) and the
    Lipschitz constant 1/tau of (R2 - D)/tau."""
    u1, u2 = sp.symbols("u1 u2", positive=True)
    tau = sp.Symbol("tau", positive=True)
    D = sp.sqrt(u1**2 + u2**2)
    g2 = sp.simplify(sp.diff(D, u1) ** 2 + sp.diff(D, u2) ** 2)
    lip = sp.sqrt(g2) / tau
    return ({"grad2_A": g2, "lip": sp.simplify(lip)},
            {"source": "SymPy: gradient of ||max(c0 - p, 0)|| on its smooth region, times 1/tau (004 App. A.2)"})


@symbolic_proof("004-App-A.4-derivatives")
@lru_cache(maxsize=None)
def _w_a4() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations.stationary_004 import derive_kde_partials  # noqa: PLC0415

    d = derive_kde_partials()
    return ({k: d[k] for k in ("eq2", "eq3", "eq4", "eq5")},
            {"source": "derivations.stationary_004.derive_kde_partials", "comparisons": _sym_cmps(d["comparisons"])})


@symbolic_proof("003-Cor-V.5")
@lru_cache(maxsize=None)
def _w_v5() -> tuple[dict[str, Any], dict[str, Any]]:
    z = sp.Symbol("z", positive=True)
    dl, e = sp.Symbol("Delta", positive=True), sp.Symbol("epsilon", positive=True)
    f = e / dl * sp.exp(-z * e / dl)  # 003 Def. V.3 in z = Sign * lambda >= 0
    return ({"G": sp.integrate(f, z), "F": sp.integrate(z * f, z), "mean_abs": sp.integrate(z * f, (z, 0, sp.oo))},
            {"source": "SymPy: integrate the one-sided density of 003 Def. V.3 (antiderivatives and int_0^oo z f)"})


@symbolic_proof("002-Claim-16")
@lru_cache(maxsize=None)
def _w_c16() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import gencauchy as gc  # noqa: PLC0415
    from derivations import stddev_002 as sd  # noqa: PLC0415

    std, cmps = sd.derive_claim16()
    cnorm, _ = gc.derive_normaliser()
    var, _ = gc.derive_variance()
    th1 = {gc.P: sd.CC, gc.THETA: 1}
    return ({"const": sp.gammasimp(cnorm.subs(th1)), "var": sp.gammasimp(var.subs(th1)),
             "std": std.subs({sd.EPS: sp.Symbol("epsilon", positive=True), sd.GAMMA: sp.Symbol("gamma", positive=True)})},
            {"source": "derivations.stddev_002.derive_claim16 (GenCauchy normaliser / variance at p = c, theta = 1)",
             "comparisons": _sym_cmps(cmps)})


def _powerlaw_half_integral() -> tuple[sp.Expr, dict[str, Any]]:
    """int_0^oo dz/(z^k + l) derived: SymPy's substitution z = (l y)^(1/k) to the Beta form, then the Beta integral
    and the reflection formula (gammasimp)."""
    k, l, z, y = sp.Symbol("k", positive=True), sp.Symbol("l", positive=True), sp.Symbol("z", positive=True), \
        sp.Symbol("y", positive=True)
    zy = (l * y) ** (1 / k)
    coef = sp.simplify(sp.powsimp((1 / (z**k + l)).subs(z, zy) * sp.diff(zy, y) * y ** (1 - 1 / k) * (1 + y), force=True))
    val = sp.gammasimp(coef * sp.gamma(1 / k) * sp.gamma(1 - 1 / k))
    return val, {"beta_coefficient": str(coef)}


@symbolic_proof("000-Thm-1-normalisation", obligations=("normaliser identity", "core pdf/CDF/sampler"),
                proves=("normaliser identity",))
@lru_cache(maxsize=None)
def _w_thm1() -> tuple[dict[str, Any], dict[str, Any]]:
    half, info = _powerlaw_half_integral()
    return {"C": 2 * half}, {"source": "SymPy: Beta substitution of int_0^oo dz/(z^k + l), gammasimp (reflection)", **info}


@symbolic_proof("000-Lemma-2-halves", obligations=("halves are densities, mixture is h", "core pdf/CDF/sampler"),
                proves=("halves are densities, mixture is h",))
@lru_cache(maxsize=None)
def _w_halves() -> tuple[dict[str, Any], dict[str, Any]]:
    half, info = _powerlaw_half_integral()
    k, l = sp.Symbol("k", positive=True), sp.Symbol("l", positive=True)
    C = 2 * l ** (1 / k - 1) * (sp.pi / k) / sp.sin(sp.pi / k)  # 000 Thm. 1's normaliser (proven in 000-Thm-1-normalisation)
    return ({"mass": 2 * half / C},
            {"source": "SymPy: int_0^oo h+ = 2 int_0^oo dz/(C (z^k + l)) by the Beta substitution, gammasimp", **info})


@symbolic_proof("002-Cor-14")
@lru_cache(maxsize=None)
def _w_cor14() -> tuple[dict[str, Any], dict[str, Any]]:
    """002 Cor. 14: antiderivatives of x^2 f_{1,alpha} (SymPy, exponent free then n = alpha, the derivation's N),
    the exact variance of derivations.polyplace.derive_variance (from the density; finite for alpha > 2) and its
    series in gamma of derive_cor14 (the claim's check computes both)."""
    from derivations import polyplace as pp  # noqa: PLC0415

    n_derived, _ = pp.derive_normaliser()
    var, vcmp = pp.derive_variance()
    ser, scmp = pp.derive_cor14()
    a, x, n = sp.Symbol("alpha", positive=True), sp.Symbol("x", positive=True), sp.Symbol("n", positive=True)
    N = n_derived.subs({pp.S: 1, pp.W: ((pp.ALPHA - 1) / pp.ALPHA) ** pp.ALPHA}).subs(pp.ALPHA, a)
    m1 = sp.integrate(x**2 * (1 - x) ** (n - 1), x, conds="none")
    m2 = sp.integrate(x**2 * (1 + x) ** (-n - 1), x, conds="none")
    return ({"M1": N * (a - 1) * m1.subs(n, a), "M2": N * (a + 1) * (1 - 1 / a**2) ** a * m2.subs(n, a),
             "var1": var.subs(pp.S, 1), "series": ser},
            {"source": "SymPy antiderivatives of x^2 times the branches of f_{1,alpha} (002 Def. 6, derived N); "
                       "derivations.polyplace.derive_variance (var1, W = ((alpha-1)/alpha)^alpha) and derive_cor14 "
                       "(series in u = gamma/eps to O(u^2))", "comparisons": _sym_cmps([vcmp, scmp])})


@symbolic_proof("002-Lemma-15")
@lru_cache(maxsize=None)
def _w_lemma15() -> tuple[dict[str, Any], dict[str, Any]]:
    from derivations import polyplace as pp  # noqa: PLC0415

    lims, cmps = pp.derive_lemma15()
    return ({f"lim{k}": v for k, v in lims.items()},
            {"source": "derivations.polyplace.derive_lemma15 (SymPy limit gamma -> 0+ of each branch)",
             "comparisons": _sym_cmps(cmps)})


# ---------------------------------------------------------------------------------------------------
# the proof
# ---------------------------------------------------------------------------------------------------
def prove_symbolic(claim_id: str, tested: ClaimResult, *, printed: Mapping[str, sp.Expr] | None = None) -> ClaimResult:
    """VERIFIED (proven) if the re-checker accepts the derivation's witnesses for ``claim_id`` (its
    steps include "the derivation's form equals the printed one"); INCONCLUSIVE (R-UNDEC) if it
    rejects them.  ``printed`` perturbs the printed forms (controls)."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    t0 = time.perf_counter()
    witnesses, derivation = S.spec_witnesses(claim_id)
    record = S.make_record(claim_id, witnesses, derivation=derivation)
    t_derive = time.perf_counter() - t0
    rc = S.recheck(record, printed=printed)
    secs = {"seconds_derive": round(t_derive, 3), "seconds_recheck": round(rc.seconds, 3)}  # timing: "seconds*" keys
    rc_json = recheck_json(rc)
    if not rc.ok:
        ev = {**dict(tested.evidence), "proof_attempt": {"record": record, "recheck": rc_json, "seconds": secs}}
        return ClaimResult(Verdict.INCONCLUSIVE,
                           f"the symbolic proof did not re-check: {'; '.join(rc.problems[:2])}", ev, tested.precision,
                           rule="R-UNDEC: the independent re-check rejects the symbolic proof")
    return symbolic_proven(tested, claim_id, record, rc, seconds_proof=secs)


def symbolic_expectation(claim_id: str) -> ExpectedObligation:
    """The :class:`ExpectedObligation` of a claim proven by the symbolic spec of the same id
    (:data:`verify.proof.symbolic.SPECS`): method "symbolic", the spec's domain (with what it relies on)
    as the displayed domain, and the record re-checked as a proof of that spec
    (:func:`verify.proof.symbolic.recheck_for`), whatever spec the record names."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    spec = S.SPECS[claim_id]
    relies = f"; relies on: {'; '.join(spec.relies_on)}" if spec.relies_on else ""
    obligations, proves = PARTIAL.get(claim_id, ((), ()))
    return method_expectation(claim_id, "symbolic", {"domain": spec.domain + relies, "proof.domain": spec.domain,
                                                     "proof.claim": claim_id, "proof.relies_on": list(spec.relies_on)},
                              spec.domain + relies, obligations=obligations, proves=proves)


def declare_symbolic(claim_id: str) -> None:
    """Declare the obligation of ``claim_id``: its symbolic spec of the same id (:func:`symbolic_expectation`)."""
    obligation_for(claim_id)(lambda scale: symbolic_expectation(claim_id))


def recheck_json(rc: Any) -> dict[str, Any]:
    """The JSON record of a :class:`verify.proof.symbolic.SymbolicRecheck` (evidence ``recheck``)."""
    return {"ok": rc.ok, "problems": list(rc.problems), "n_steps": rc.n_steps, "n_points": rc.n_points,
            "prec": rc.prec, "seconds": round(rc.seconds, 3)}


def symbolic_proven(tested: ClaimResult, claim_id: str, record: Mapping[str, Any], rc: Any, *,
                    seconds_proof: Any, summary_prefix: str = "") -> ClaimResult:
    """VERIFIED (proven) from the accepted symbolic proof ``record`` of spec ``claim_id`` (``rc`` its
    re-check): the spec's domain (with what it relies on) and the step/point counts in the summary,
    after ``summary_prefix``."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    spec = S.SPECS[claim_id]
    relies = f"; relies on: {'; '.join(spec.relies_on)}" if spec.relies_on else ""
    return with_proof(tested, claim_obligation=symbolic_expectation(claim_id),
                      summary=(f"{summary_prefix}proven on {spec.domain}: {rc.n_steps} SymPy steps from the definition "
                               f"(derivation witnesses re-checked independently), ball checks at {rc.n_points} "
                               f"rational points"
                               + (" (relies on a stated result of the paper / textbook)" if spec.relies_on else "")),
                      proof=dict(record), domain=spec.domain + relies,
                      precision=f"symbolic (SymPy exact); arb {rc.prec} bits at {rc.n_points} points",
                      recheck=recheck_json(rc), seconds_proof=seconds_proof)


symbolic_proof("004-Lemma-3.3-epsilon")(functools.partial(_w_gc_eps, False))
symbolic_proof("004-Cor-3.2-epsilon")(functools.partial(_w_gc_eps, True))
