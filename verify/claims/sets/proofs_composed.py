"""Four tested claims proven (``@proof_for``): two identities and two compositions.

* ``002-Lemma-9-eq-2`` (002 Lemma 9's proof, eq. (2)): f_{s,alpha}(x) = c f_{cs,alpha}(cx) and N_{cs,alpha} =
  N_{s,alpha}/c for every s > 0, alpha > 1, c > 0 and real x -- the symbolic spec of the same id in
  :mod:`verify.proof.symbolic` (its own statement of 002 Def. 6, one SymPy identity per branch, the branch
  test |cx|/(cs) = |x|/s, arb balls at four rational points: both branches, x < 0, the breakpoint).
* ``004-Lemma-2.3`` ([CABP13] as quoted by 004): (eps/K)(||y - f(x')|| - ||y - f(x)||) <= eps dist(x, x') when
  ||f(x) - f(x')|| <= K dist(x, x'), for every K > 0, eps > 0 and normed space V: the reverse triangle
  inequality (``relies_on``) and the algebra eps d - (eps/K) Delta = (eps/K)(s1 + s2) >= 0 (SymPy; symbolic
  spec ``004-Lemma-2.3``, arb balls at points of R and R^2).
* ``004-Lemma-2.2-cauchy`` (NRS07 item 1 as quoted by 004): Z with density proportional to 1/(1 + |z|^p) is
  GenCauchy(p, theta = 1); the privacy loss over a Hamming neighbour pair is <= eta C + gamma U (the FTC
  argument :data:`verify.claims.sets.proofs.GP_REDUCTION` with :data:`~verify.claims.sets.proofs.SUP_REDUCTION`,
  any metric) with C = sup|psi|, U = sup|1 + z psi| proven by the symbolic proof ``004-Lemma-3.3-epsilon`` (theta
  = 1 is in its domain theta >= 1), and eta C + gamma U <= eps for every p > 1 at gamma <= eps/(2(p+1)), eta =
  eps/(2(p+1)) (symbolic spec ``004-Lemma-2.2-cauchy``: p in (1, 2] and p >= 2, SymPy signs).  The claim's own
  three mechanisms (p = 1.5, 2, 4, eps = 1, the largest gamma) are checked to lie in this domain.
* ``004-Lemma-3.5-privacy-threshold`` (the core's concrete mechanisms for the soft threshold T = 0, tau = 1,
  B* = smooth_sensitivity_threshold with g_E gamma = 0.1, Z ~ T_4 or GenCauchy(4, 1), calibrated at eps = 1):
  (a) B* is a g_E-smooth upper bound of L_{f,inf} -- the ramp proof (:mod:`verify.proof.ramp_def8`, every
  Lambda, through the cached :func:`verify.claims.sets.proofs_def8.ramp_proof`); (b) the privacy lemmas 3.5 and
  3.3 for every gamma, eta > 0 with eps = gamma U + eta C (the symbolic proofs ``004-Lemma-3.5-epsilon`` and
  ``004-Lemma-3.3-epsilon`` and the two reductions); (c) the calibration identity of the two mechanisms (the
  proven eps of their exact binary parameters at 50 digits, to
  :data:`~verify.claims.sets.proofs.CALIBRATION_RTOL`).  The statement's range x, x' in [-12, 12] lies in
  "all x, x'".  The float caveat, as in the other proofs: that the core's floats (smooth_sensitivity_threshold,
  soft_threshold) equal the proven closed forms is TESTED (004-Def-8-ramp-proof's mpmath comparison, and here
  both mechanisms' B and f against Phi(d+) and clip(x + 1/2, 0, 1) in mpmath on a grid of [-12, 12]).

The two compositions carry a record of method :data:`METHOD` ("composed-privacy"), re-checked by
:func:`recheck_composition` (registered in the method registry, :func:`verify.proof.record.method_named`): the parts this
module requires for the claim (never the record's list), each by its own re-checker (``symbolic``,
``ramp-def8``), the record's domain and ``relies_on`` against this module's, and the mechanisms' membership
recomputed from this module's own construction of them.  An edited record fails.

Verdicts: VERIFIED (proven) when every part re-checks and every mechanism is inside; REFUTED when a ball check
certifies that the stated identity or inequality is false at a rational point (disjoint balls, or a ball below
0); else the tested result stands with the reason in the evidence (``proof_attempt`` /
``proof_not_attached``).  At the quick budget (< 0.5) the two compositions are left out (``proof_left_out``:
seconds, not <= 0.3 s); the two identities (<= 0.1 s) run.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import sympy as sp

from verify.proof.record import describe_record, register_method
from verify.claims import CheckContext, ClaimResult, Verdict
from verify.claims.registry import ExpectedObligation, obligation_for, proof_for, with_evidence, with_proof
from verify.claims.sets.proofs_symbolic import declare_symbolic, symbolic_proven

__all__ = ["METHOD", "DOMAINS", "QUICK_BUDGET", "symbolic_record", "prove_identity", "nrs_mechanisms",
           "threshold_mechanisms", "membership", "composition", "prove_composition", "recheck_composition",
           "certified_counterexample"]

METHOD = "composed-privacy"
#: below this CheckContext.budget (the quick profile) the compositions are left out
QUICK_BUDGET = 0.5
#: the core's floats B, f against the proven closed forms (the tested float caveat), relative
CORE_RTOL = 1e-12
#: eps of the claim statements (004 Lemma 2.2 item 1 at eps = 1; the threshold claim at eps = 1)
EPS_CLAIM = 1.0


# ---------------------------------------------------------------------------------------------------
# symbolic records: witnesses found here, re-checked by verify.proof.symbolic
# ---------------------------------------------------------------------------------------------------
def _w_eq2() -> tuple[dict[str, Any], dict[str, Any]]:
    """N_{cs,alpha}/N_{s,alpha} by SymPy from the derivation's printed normaliser of 002 Def. 6."""
    from derivations import polyplace as pp  # noqa: PLC0415

    c = sp.Symbol("c", positive=True)
    N = pp.printed_normaliser()
    ratio = sp.simplify(N.subs(pp.S, c * pp.S) / N)
    return {"N_ratio": ratio}, {"source": "derivations.polyplace.printed_normaliser; sp.simplify(N(c s)/N(s))",
                                "N": str(N)}


def _w_l23() -> tuple[dict[str, Any], dict[str, Any]]:
    """The slack eps d - (eps/K) Delta, factored by SymPy (Delta = K d - s1 - s2)."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    rate = S._L23["epsilon"] / S._L23["K"]
    return {"slack": sp.factor(S._l23_slack(rate))}, {"source": "sp.factor(eps d - (eps/K)(K d - s1 - s2))"}


def _w_nrs(printed: Mapping[str, sp.Expr] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bound eta C + gamma U at the NRS07 calibration, from the derivation of 004 Lemma 3.3's eps
    (derivations.privacy_loss.derive_gencauchy_gp via proofs_symbolic) at theta = 1."""
    from verify.claims.sets import proofs_symbolic  # noqa: F401, PLC0415 - registers the specs' witness functions
    from verify.proof import symbolic as S  # noqa: PLC0415

    w, _ = S.spec_witnesses("004-Lemma-3.3-epsilon")
    syms = {x.name: x for x in w["eps"].free_symbols}
    pr = {**S._nrs_printed(), **(printed or {})}
    bound = w["eps"].subs(syms["theta"], 1).subs({syms["gamma"]: pr["gamma_max"], syms["eta"]: pr["eta"]})
    return {"bound": bound.subs(syms["p"], S._P22)}, {
        "source": "derivations.privacy_loss.derive_gencauchy_gp (eps = gamma max(1, p theta - 1) + eta theta "
                  "(p-1)^((p-1)/p)) at theta = 1, gamma = gamma_max, eta = the printed eta"}


def _register_witnesses() -> None:
    """The witness functions of this module's symbolic specs, carried by the specs from now on."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    S.witnesses_for("002-Lemma-9-eq-2")(_w_eq2)
    S.witnesses_for("004-Lemma-2.3")(_w_l23)
    S.witnesses_for("004-Lemma-2.2-cauchy")(_w_nrs)


_register_witnesses()
_RECORDS: dict[str, tuple[dict[str, Any], Any]] = {}


def symbolic_record(spec_claim: str) -> tuple[dict[str, Any], Any]:
    """(record, re-check) of the symbolic spec ``spec_claim`` with this module's witnesses, once per process
    (the record is not modified by its users)."""
    if spec_claim not in _RECORDS:
        from verify.proof import symbolic as S  # noqa: PLC0415

        w, derivation = S.spec_witnesses(spec_claim)
        rec = S.make_record(spec_claim, w, derivation=derivation)
        _RECORDS[spec_claim] = (rec, S.recheck(rec))
    return _RECORDS[spec_claim]


def certified_counterexample(spec_claim: str, witnesses: Mapping[str, sp.Expr],
                             printed: Mapping[str, sp.Expr] | None = None) -> dict[str, Any] | None:
    """A rational point where the spec's ball checks *certify* that the statement (with ``printed``
    replacing the printed forms) is false: the definition's ball and the printed ball are finite and
    disjoint, or an inequality's slack ball lies below 0.  None if no ball check certifies a failure."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    spec = S.SPECS[spec_claim]
    balls = spec.balls(dict(witnesses), {**spec.printed_forms(), **(printed or {})})
    for b in balls:  # an inequality: its slack ball lies below 0
        if b.get("certified_negative"):
            return {"point": b["point"], "check": b["name"], "value": b["definition"], "certified": "ball < 0"}
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    for b in balls:  # an identity: the definition's ball and the printed ball are disjoint
        if b["ok"] or "certified_negative" in b or "definition" not in b:
            continue
        with workprec(S.PREC):
            d, p = flint.arb(b["definition"]), flint.arb(b["printed"])
        if d.is_finite() and p.is_finite() and not d.overlaps(p):
            return {"point": b["point"], "check": b["name"], "definition": b["definition"], "printed": b["printed"],
                    "certified": "disjoint balls"}
    return None


def _rc_json(rc: Any) -> dict[str, Any]:
    return {"ok": rc.ok, "problems": list(rc.problems), "n_steps": getattr(rc, "n_steps", rc.n_boxes),
            "n_points": getattr(rc, "n_points", None), "prec": rc.prec, "seconds": round(rc.seconds, 3)}


def prove_identity(claim_id: str, tested: ClaimResult) -> ClaimResult:
    """The symbolic proof of ``claim_id`` (spec of the same id): VERIFIED (proven) if it re-checks;
    REFUTED if a ball check certifies the statement false at a rational point; else the tested result,
    with the failed steps as ``proof_attempt``."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    t0 = time.perf_counter()
    record, rc = symbolic_record(claim_id)
    if not rc.ok:
        cx = certified_counterexample(claim_id, {k: S._parse(str(v)) for k, v in record["witnesses"].items()})
        if cx is not None:
            return ClaimResult(Verdict.REFUTED,
                               f"the stated identity/inequality fails at {cx['point']} ({cx['certified']}, arb "
                               f"{S.PREC} bits)", {**dict(tested.evidence), "certificate": cx, "proof_attempt": record},
                               f"arb {S.PREC} bits", rule="R-FALSE: certified by arb balls at a rational point")
        return with_evidence(tested, {"proof_attempt": {"record": record, "recheck": _rc_json(rc)}})
    return symbolic_proven(tested, claim_id, record, rc, seconds_proof=round(time.perf_counter() - t0, 3),
                           summary_prefix=f"{tested.summary}; PROVEN: ")


# ---------------------------------------------------------------------------------------------------
# the mechanisms of the two compositions, and their membership in the proven domain
# ---------------------------------------------------------------------------------------------------
def nrs_mechanisms() -> list[Any]:
    """The three mechanisms of claim 004-Lemma-2.2-cauchy (its own constructor)."""
    from verify.claims.sets.privacy_004 import _nrs07_cauchy_mechanisms  # noqa: PLC0415 - cost: about 1.2 s at import, paid only when used

    return _nrs07_cauchy_mechanisms()


def threshold_mechanisms() -> list[Any]:
    """The two mechanisms of claim 004-Lemma-3.5-privacy-threshold (its own constructor)."""
    from verify.claims.sets.privacy_004 import _threshold_mechanism  # noqa: PLC0415 - cost: about 1.2 s at import, paid only when used

    return [_threshold_mechanism("student_t"), _threshold_mechanism("gencauchy")]


def _exact(x: float) -> sp.Rational:
    q = Fraction(x)
    return sp.Rational(q.numerator, q.denominator)


def _proven_eps(family: str, params: Mapping[str, float], gamma: float, eta: float) -> sp.Expr:
    """The proven eps = gamma U + eta C (004-Lemma-3.3-epsilon's / 004-Lemma-3.5-epsilon's printed forms,
    the spec's own) at the exact binary values of the parameters."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    if family == "gencauchy":
        e = S.SPECS["004-Lemma-3.3-epsilon"].printed_forms()["eps33"]
        names = {"p": params["p"], "theta": params["theta"]}
    else:
        e = S.SPECS["004-Lemma-3.5-epsilon"].printed_forms()["eps"]
        names = {"nu": params["nu"]}
    names.update(gamma=gamma, eta=eta)
    return e.subs({x: _exact(names[x.name]) for x in e.free_symbols})


def _phi_threshold(x: Any, gamma: Any) -> Any:
    """Phi(d+) of the ramp proof for the one-way threshold (004 Lemma 4.1) at T = 0, tau = w = 1, g_E,
    Lambda = inf (candidates e in {0, d}): d = |x| - 1/2; Phi = max(1/(d + 1), e^(-gamma d)) for d > 0, 1 else."""
    import mpmath  # noqa: PLC0415

    d = abs(x) - mpmath.mpf(1) / 2
    return mpmath.mpf(1) if d <= 0 else max(1 / (d + 1), mpmath.exp(-gamma * d))


def _float_caveat(mech: Any, n: int = 97) -> dict[str, Any]:
    """The tested part: the mechanism's B and f against Phi(d+) and clip(x + 1/2, 0, 1) (mpmath, 30 digits)
    on a grid of [-12, 12] with the band edges, the crossing of the two pieces and points beside them."""
    import mpmath  # noqa: PLC0415

    xs = sorted({-12 + 24 * i / (n - 1) for i in range(n)} | {s * v for s in (1, -1) for v in (
        0.5, 0.5 + 1e-9, 0.5 - 1e-9, 0.0, 2.1, 11.999999)})
    worst_b = worst_f = 0.0
    at = None
    with mpmath.workdps(30):
        g = mpmath.mpf(_exact(mech.growth.gamma).p) / _exact(mech.growth.gamma).q
        for x in xs:
            xm = mpmath.mpf(x)
            b, f = float(np.asarray(mech.B(x)).reshape(-1)[0]), float(np.asarray(mech.f(x)).reshape(-1)[0])
            eb = float(abs(mpmath.mpf(b) / _phi_threshold(xm, g) - 1))
            ef = float(abs(mpmath.mpf(f) - min(max(xm + mpmath.mpf(1) / 2, 0), 1)))
            if eb > worst_b:
                worst_b, at = eb, x
            worst_f = max(worst_f, ef)
    return {"n": len(xs), "B_max_rel_err": worst_b, "B_worst_x": at, "f_max_abs_err": worst_f,
            "ok": worst_b <= CORE_RTOL and worst_f <= CORE_RTOL}


#: the noise families (by their own ``name``) whose rate the compositions prove, and their shape parameters
PROVEN_SHAPES: Mapping[str, tuple[str, ...]] = {"gencauchy": ("p", "theta"), "student_t": ("nu",)}


def membership(cid: str, mechs: Sequence[Any]) -> list[dict[str, Any]]:
    """Each mechanism against the proven domain of ``cid``: its parameters read from the mechanism, the
    proven eps' (50 digits) from its exact binary values, and why it is outside (empty: inside)."""
    rows = []
    for mech in mechs:
        noise, gamma, eta = mech.noise, float(mech.growth.gamma), float(mech.eta)
        fam = str(getattr(noise, "name", ""))  # the family answers for itself (ContinuousDistribution.name)
        row: dict[str, Any] = {"name": mech.name, "family": type(noise).__name__, "gamma": gamma, "eta": eta, "eps": mech.eps,
                               "m": int(mech.m), "metric": mech.metric, "growth": mech.growth.kind,
                               "Lambda": float(mech.Lambda)}
        why = [w for w, bad in (("gamma <= 0", not gamma > 0), ("eta <= 0", not eta > 0), ("m != 1", int(mech.m) != 1),
                                (f"growth {mech.growth.kind!r} is not g_E", mech.growth.kind != "exp"),
                                ("delta != 0", mech.delta != 0)) if bad]
        if fam not in PROVEN_SHAPES:
            rows.append({**row, "inside": False, "outside_because": [f"noise {fam} is not GenCauchy / Student's t"]})
            continue
        params = {k: float(getattr(noise, k)) for k in PROVEN_SHAPES[fam]}  # the family's shape parameters
        if float(getattr(noise, "loc", 0.0)) != 0.0 or float(getattr(noise, "scale", 1.0)) != 1.0:
            why.append("noise not standardised (loc 0, scale 1)")
        row.update(params)
        eps_p = _proven_eps(fam, params, gamma, eta)
        row["eps_proven"] = str(sp.N(eps_p, 50))
        if cid == "004-Lemma-2.2-cauchy":
            p = params.get("p", float("nan"))
            stated = _exact(EPS_CLAIM) / (2 * (_exact(p) + 1)) if fam == "gencauchy" else sp.nan
            row.update(gamma_max=str(stated), eps_proven_le_eps=bool(eps_p <= _exact(EPS_CLAIM)))
            gc, rnd = fam == "gencauchy", sp.Rational(1, 10**14)  # binary64 rounding of gamma, eta
            why += [w for w, bad in (
                ("not GenCauchy", not gc), ("p <= 1", not p > 1), ("theta != 1", params.get("theta") != 1.0),
                ("metric is not hamming", mech.metric != "hamming"),
                ("gamma > eps/(2(p+1)) beyond rounding", gc and _exact(gamma) > stated * (1 + rnd)),
                ("eta != eps/(2(p+1)) beyond rounding", gc and abs(_exact(eta) / stated - 1) > rnd),
                (f"eta C + gamma U = {sp.N(eps_p, 17)} > eps = {EPS_CLAIM}", not eps_p <= _exact(EPS_CLAIM))) if bad]
        else:
            from verify.claims.sets.proofs import CALIBRATION_RTOL  # noqa: PLC0415 - cost: about 1.0 s at import, paid only when used

            rel = abs(eps_p / _exact(EPS_CLAIM) - 1)
            row.update(calibration_rel_diff=float(sp.N(rel, 20)), eps_proven_le_eps=bool(eps_p <= _exact(EPS_CLAIM)))
            fc = _float_caveat(mech)
            row["float_caveat_tested"] = fc
            why += [w for w, bad in (
                (f"eps = gamma U + eta C off by {float(sp.N(rel, 5)):.2g} relative (> {CALIBRATION_RTOL:g})",
                 rel > CALIBRATION_RTOL),
                (f"gamma {gamma} != 0.1", gamma != 0.1), ("metric is not euclidean", mech.metric != "euclidean"),
                (f"Lambda {mech.Lambda} != inf", not math.isinf(float(mech.Lambda))),
                ("p != 4 or theta != 1", fam == "GenCauchy" and (params.get("p"), params.get("theta")) != (4.0, 1.0)),
                ("nu != 4", fam == "StudentT" and params.get("nu") != 4.0),
                (f"B or f differ from the proven closed forms (B rel {fc['B_max_rel_err']:.3g} at x = {fc['B_worst_x']}, "
                 f"f abs {fc['f_max_abs_err']:.3g} > {CORE_RTOL:g})", not fc["ok"])) if bad]
        row["inside"], row["outside_because"] = not why, why
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------------
# the compositions
# ---------------------------------------------------------------------------------------------------
def _reductions() -> tuple[str, str]:
    from verify.claims.sets.proofs import GP_REDUCTION, SUP_REDUCTION  # noqa: PLC0415 - cost: about 0.9 s at import, paid only when used

    return GP_REDUCTION, SUP_REDUCTION


#: claim -> the parts its composition needs: (key, proof method, symbolic spec claim or "")
PARTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "004-Lemma-2.2-cauchy": (("sups", "symbolic", "004-Lemma-3.3-epsilon"),
                             ("bound", "symbolic", "004-Lemma-2.2-cauchy")),
    "004-Lemma-3.5-privacy-threshold": (("smooth-bound", "ramp-def8", ""),
                                        ("student-t", "symbolic", "004-Lemma-3.5-epsilon"),
                                        ("gencauchy", "symbolic", "004-Lemma-3.3-epsilon")),
}

FLOAT_CAVEAT = ("the core's floats (smooth_sensitivity_threshold, soft_threshold) equal the proven closed forms: "
                "TESTED, not proven (004-Def-8-ramp-proof's mpmath comparison; here both mechanisms' B and f against "
                "Phi(d+) and clip(x + 1/2, 0, 1) in mpmath on a grid of [-12, 12], relative 1e-12)")

DOMAINS: dict[str, str] = {
    "004-Lemma-2.2-cauchy": (
        "every p > 1, eps > 0, 0 < gamma <= eps/(2(p+1)), eta = eps/(2(p+1)), Z with density proportional to "
        "1/(1 + |z|^p) (GenCauchy(p, theta = 1)), any B with |f(x) - f(x')| <= min(B(x), B(x')) and B(x) <= "
        "e^gamma B(x') for Hamming neighbours x ~ x' (004 Def. 8 with g_E), all outputs y: the loss is <= eta C + "
        "gamma U <= eps (C, U: 004-Lemma-3.3-epsilon at theta = 1); the claim's three mechanisms (p = 1.5, 2, 4 at "
        "eps = 1, the largest gamma) inside, up to binary64 rounding of gamma and eta, with eta C + gamma U <= eps "
        "exactly at their binary values (50 digits)"),
    "004-Lemma-3.5-privacy-threshold": (
        "the two mechanisms of the claim (soft threshold T = 0, tau = 1; B* of 004 Lemma 4.1, g_E gamma = 0.1, Lambda "
        "= inf; Z ~ T_4 or GenCauchy(4, 1), eta of the core's calibration at eps = 1), all real x, x' (the statement's "
        "[-12, 12] included) and all y: B* is a g_E-smooth upper bound of L_{f,inf} (ramp proof, closed form in "
        "exact arithmetic, every Lambda), the loss is <= (gamma U + eta C) |x - x'| (004 Lemmas 3.5 / 3.3 for every "
        "gamma, eta > 0: the symbolic proofs and the reductions), and gamma U + eta C = 1 to 1e-14 relative "
        "(binary64 rounding of the core's calibration, 50 digits); " + FLOAT_CAVEAT),
}


def _relies_on(cid: str) -> list[str]:
    gp, sup = _reductions()
    nrs = ("[NRS07] as quoted in 004 Lemma 2.2: a gamma-smooth upper bound on the local sensitivity for Hamming "
           "neighbours is 004 Def. 8 with g_E and dist_H (|f(x) - f(x')| <= LS(x) <= B(x), and symmetrically), so the "
           "FTC step applies at d = 1")
    return [gp, sup, nrs] if cid == "004-Lemma-2.2-cauchy" else [
        gp, sup, "004 Def. 8 (1) B >= L_{f,Lambda} gives |f(x) - f(x')| <= min(B(x), B(x')) |x - x'| for Lambda = inf"]


def _mechanisms(cid: str) -> list[Any]:
    return nrs_mechanisms() if cid == "004-Lemma-2.2-cauchy" else threshold_mechanisms()


def _part(key: str, method: str, spec_claim: str) -> tuple[dict[str, Any], Any]:
    if method == "ramp-def8":
        from verify.claims.sets.proofs_def8 import ramp_proof  # noqa: PLC0415 - cached per process

        return ramp_proof()
    return symbolic_record(spec_claim)


def composition(cid: str, mechs: Sequence[Any] | None = None) -> dict[str, Any]:
    """{"record" (None if a part is open or a mechanism outside), "rechecks", "members", "open", "seconds"}
    of the composed proof of ``cid``; ``mechs`` replaces the claim's mechanisms (controls)."""
    t0 = time.perf_counter()
    parts, rechecks, open_parts = [], {}, {}
    for key, method, spec_claim in PARTS[cid]:
        rec, rc = _part(key, method, spec_claim)
        parts.append({"key": key, "proof": rec})
        rechecks[key] = {"ok": rc.ok, "problems": list(rc.problems)[:5], "n_steps": rc.n_boxes,
                         "seconds": round(rc.seconds, 3)}
        if rec.get("status", "proven") != "proven" or not rc.ok:
            open_parts[key] = list(rc.problems)[:5] or [rec.get("status")]
    members = membership(cid, _mechanisms(cid) if mechs is None else mechs)
    record = None
    if not open_parts and all(r["inside"] for r in members):
        record = {"method": METHOD, "claim": cid, "status": "proven", "domain": DOMAINS[cid], "parts": parts,
                  "relies_on": _relies_on(cid), "mechanisms": members}
    return {"record": record, "rechecks": rechecks, "members": members, "open": open_parts,
            "seconds": time.perf_counter() - t0}


def prove_composition(cid: str, ctx: CheckContext, tested: ClaimResult,
                      mechs: Sequence[Any] | None = None) -> ClaimResult:
    if ctx.budget < QUICK_BUDGET and not ctx.prove_all:
        return with_evidence(tested, {"proof_left_out": (
            "the composed proof (ramp proof / symbolic sup proofs: seconds) is attached in the default audit, "
            "not at the quick budget")})
    comp = composition(cid, mechs)
    if comp["open"]:
        return with_evidence(tested, {"proof_attempt": {"open": comp["open"], "rechecks": comp["rechecks"]}})
    outside = [r for r in comp["members"] if not r["inside"]]
    if outside:
        names = "; ".join(f"{r['name']} ({', '.join(r['outside_because'])})" for r in outside)
        return with_evidence(tested, {"proof_not_attached": {"why": f"mechanisms outside the proven domain: {names}",
                                                             "mechanisms": comp["members"]}})
    rec = comp["record"]
    keys = ", ".join(f"{k} ({m}{': ' + s if s else ''})" for k, m, s in PARTS[cid])
    return with_proof(tested, claim_obligation=expectation(cid),
                      summary=(f"{tested.summary}; PROVEN: composition of {keys}, each re-checked independently, and "
                               f"all {len(comp['members'])} mechanisms of the claim inside the proven domain"
                               + ("; the core's floats = the closed forms is TESTED" if cid != "004-Lemma-2.2-cauchy" else "")),
                      proof=rec, domain=DOMAINS[cid],
                      precision="symbolic (SymPy exact); arb ball checks; mpmath 50 digits for the calibration",
                      recheck=comp["rechecks"], mechanisms=comp["members"], seconds_proof=round(comp["seconds"], 3))


#: the claim whose proof a part of each method is (a ramp-def8 part is the proof of 004-Def-8-ramp-proof)
PART_CLAIMS: dict[str, str] = {"ramp-def8": "004-Def-8-ramp-proof"}


def expectation(cid: str) -> ExpectedObligation:
    """What a proof of ``cid`` (a claim of :data:`PARTS`) must prove: method "composed-privacy", its domain,
    relies_on and mechanisms, from this module."""
    from verify.claims.sets.proofs import method_expectation  # noqa: PLC0415 - cost: about 1.0 s at import, paid only when used

    return method_expectation(cid, METHOD, {"domain": DOMAINS[cid], "proof.claim": cid, "proof.domain": DOMAINS[cid],
                                            "proof.relies_on": _relies_on(cid)}, DOMAINS[cid])


def _expectation_factory(cid: str) -> Callable[[str], ExpectedObligation]:
    """The obligation factory of claim ``cid`` (the same obligation at every scale)."""
    def factory(scale: str) -> ExpectedObligation:
        return expectation(cid)
    return factory


def recheck_composition(record: Mapping[str, Any], *, claim_id: str) -> Any:
    """Re-check a composed record: the claim's parts as this module requires them (keys, methods, the
    symbolic specs), each by its own independent re-checker; the domain and relies_on this module states;
    the mechanisms' membership recomputed from this module's construction (never the record's rows).
    Returns a :class:`verify.proof.RecheckResult`."""
    from verify.proof import RecheckResult  # noqa: PLC0415
    from verify.proof.record import method_named  # noqa: PLC0415

    t0 = time.perf_counter()
    cid = claim_id  # the parts are rebuilt from the claim re-checked, never from the record's "claim"
    if cid not in PARTS:
        return RecheckResult(False, [f"claim {cid} is not proven by a {METHOD!r} composition"], 0, 0, 0.0)
    if record.get("method") != METHOD or record.get("claim") != cid:
        return RecheckResult(False, [f"field 'claim': not a {METHOD!r} record of {cid} (the record is of "
                                     f"{record.get('claim')!r}, method {record.get('method')!r})"], 0, 0, 0.0)
    problems: list[str] = []
    if record.get("domain") != DOMAINS[cid]:
        problems.append("the record's domain is not the one the composition proves")
    if list(record.get("relies_on") or []) != _relies_on(cid):
        problems.append("the record's relies_on is not the composition's")
    parts = [p for p in (record.get("parts") or []) if isinstance(p, Mapping)]
    if [p.get("key") for p in parts] != [k for k, _, _ in PARTS[cid]]:
        problems.append(f"the record's parts are {[p.get('key') for p in parts]}, not {[k for k, _, _ in PARTS[cid]]}")
    n = 0
    # a record with more or fewer parts is reported above
    for (key, method, spec_claim), part in zip(PARTS[cid], parts, strict=False):
        proof = part.get("proof")
        if (not isinstance(proof, Mapping) or proof.get("method") != method
                or (spec_claim and proof.get("claim") != spec_claim)):
            problems.append(f"part {key}: not a {method!r} proof{' of ' + spec_claim if spec_claim else ''}")
            continue
        rc = method_named(method).recheck(proof, spec_claim or PART_CLAIMS[method])
        n += int(getattr(rc, "n_boxes", 0))
        problems += [f"part {key}: {q}" for q in rc.problems]
    members = membership(cid, _mechanisms(cid))
    problems += [f"mechanism {r['name']} outside: {', '.join(r['outside_because'])}" for r in members if not r["inside"]]
    mine = [(r["name"], r["eps_proven"]) for r in members]
    theirs = [(r.get("name"), r.get("eps_proven")) for r in (record.get("mechanisms") or []) if isinstance(r, Mapping)]
    if mine != theirs:
        problems.append(f"the record's mechanisms {theirs} are not the claim's {mine}")
    return RecheckResult(not problems, problems[:20], n, 0, time.perf_counter() - t0)


# ---------------------------------------------------------------------------------------------------
# attachment
# ---------------------------------------------------------------------------------------------------
@proof_for("002-Lemma-9-eq-2")
def prove_lemma_9_eq_2(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    return prove_identity("002-Lemma-9-eq-2", tested)


@proof_for("004-Lemma-2.3")
def prove_lemma_2_3(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    return prove_identity("004-Lemma-2.3", tested)


for _cid in PARTS:
    obligation_for(_cid)(_expectation_factory(_cid))
for _cid in ("002-Lemma-9-eq-2", "004-Lemma-2.3"):
    declare_symbolic(_cid)


@proof_for("004-Lemma-2.2-cauchy")
def prove_lemma_2_2_cauchy(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    return prove_composition("004-Lemma-2.2-cauchy", ctx, tested)


@proof_for("004-Lemma-3.5-privacy-threshold")
def prove_threshold(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    return prove_composition("004-Lemma-3.5-privacy-threshold", ctx, tested)


@register_method
class ComposedPrivacyMethod:
    """The proof method of this module, re-checked by :func:`recheck_composition` (every part rebuilt from this module's own
    definitions as the proof of the claim named by the caller, never from the record)."""

    name = METHOD

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck_composition(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
