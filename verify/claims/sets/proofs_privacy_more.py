"""Two privacy claims proven as chains of machine-checked steps (``@proof_for``).

* ``002-Lemma-9`` (002 Lemma 9, the PolyPlace ratio bound): for every 0 < gamma < eps, every neighbour pair
  (SS(D')/SS(D) in [e^-gamma, e^gamma], |q(D) - q(D')| <= min(SS(D), SS(D'))) and every x,
  f_{SS(D')/gamma, eps/gamma}(x - q(D')) <= e^eps f_{SS(D)/gamma, eps/gamma}(x - q(D)), and the bound is tight:
  sup = e^eps, approached as x -> oo at SS(D') = e^gamma SS(D), q(D') = q(D).  Parts: eq. (2) (symbolic spec
  ``002-Lemma-9-eq-2``: the scaling to SS(D) = 1), 002 Lemma 12 (spec ``002-Lemma-12``: s |d_x ln f| + s |d_s ln f|
  = alpha for every s > 0, alpha > 1, x != 0 -- so no box in gamma/eps is needed) and the chain
  ``002-Lemma-9-chain`` (the chain rule along t on both branches, the bounds |lambda_s|/s(t) <= gamma and
  |lambda_r| gamma <= gamma, gamma alpha = eps, continuity at the breakpoint, the tail limit gamma alpha); the FTC
  and the triangle inequality are ``relies_on``.  Every grid point of the claim (``privacy_002.LEMMA_9_GRID``) is
  checked: 0 < gamma < eps exactly, and the core's mechanism is PolyPlace(1, alpha) with eta = gamma, g_E gamma and
  alpha gamma = eps to :data:`~verify.claims.sets.proofs.CALIBRATION_RTOL` (binary64 rounding).
* ``000-Lemma-2`` (000's two-halves mechanism, h proportional to 1/(|z|^k + l)): eps-DP for every k > 1, l > 0,
  eps > 0, m >= 1 with alpha = alpha(eps) and beta = beta(eps/m) = (eps/m)/(2 max(k - 1, 1)) -- the CORRECTED
  constant of 000 Thm. 1 (the printed eps/(2(k-1)) is false for 1 < k < 2: claim 000-Thm-1; the two agree for
  k >= 2).  Parts: ``000-Thm-1-normalisation`` and ``000-Lemma-2-halves`` (h and h^+- are densities, their
  mixture is h) and the chain ``000-Lemma-2-chain``: the sliding sup L = l^(-1/k) (k-1)^((k-1)/k) with L alpha =
  eps/2, the dilation bound Q(z, lambda) <= |lambda| max(1, k - 1) in both signs, beta max(1, k - 1) <= eps/(2m)
  (k <= 2 and k >= 2), the decomposition ln p_x - ln p_y = dilation + sliding, the sliding excess |T - b| - |T - a|
  in all six orders of (T, a, b), and the total m eps/(2m) + eps/2 = eps.  The argument is the paper's (App. A)
  with one change that makes it shorter: the sliding is taken at y's scale, so the per-coordinate bound is
  eps/(2m) + (eps/2)|f(x)_i - f(y)_i|/S^(i d_i)(y), and sum_i <= 1 by LS^(j d_j)(y) at the coordinate j of the
  smallest S^(i d_i)(y).  The mechanisms the claim audits (their (eps, k, l, m, alpha) recorded by the check) are
  checked against the domain: k > 1, l > 0, eps > 0, m >= 1, alpha = alpha(eps) to 1e-14 (50 digits).  The float
  caveat: that the check's S^(i+-) satisfy the hypotheses (smoothness at beta(eps/m), upper bounds, the cross
  condition) is the core's float test ``satisfies_lemma2_conditions`` (relative 1e-12): TESTED, not proven.

Records have method :data:`METHOD` ("privacy-chain"), re-checked by :func:`recheck` (one line in
the method registry, :func:`verify.proof.record.method_named`): the parts this module requires (never the record's list), each by
:func:`verify.proof.symbolic.recheck`; the domain and ``relies_on`` against this module's; the mechanisms recomputed
(002: rebuilt from the grid; 000: each recorded instance's parameters against the domain by this module's formulas).

Verdicts: VERIFIED (proven) when every part re-checks and every mechanism is inside; REFUTED when a ball check of a
chain certifies a failure at a rational point (a slack ball below 0; see :func:`attempt`, used by the planted
controls); else the tested result stands (``proof_attempt`` / ``proof_not_attached``).  Cost: about 1 s per claim
in a fresh process (SymPy); at the quick budget (< 0.5) the proofs are left out (``proof_left_out``).
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import sympy as sp

from verify.proof.record import Domain, Range, describe_record, register_method
from verify.claims import CheckContext, ClaimResult, Verdict
from verify.claims.registry import (ExpectedObligation, method_expectation, obligation_for, proof_for, with_evidence,
                                    with_proof)

__all__ = ["METHOD", "PARTS", "DOMAINS", "QUICK_BUDGET", "chain_record", "attempt", "membership", "recheck"]

METHOD = "privacy-chain"
#: below this CheckContext.budget (the quick profile) the proofs are left out (about 1 s each, > 0.3 s)
QUICK_BUDGET = 0.5
#: relative tolerance of alpha(eps) of a recorded 000 instance against the proven alpha (binary64 rounding)
ALPHA_RTOL = 1e-14

#: claim -> the parts of its chain: (key, symbolic spec)
PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "002-Lemma-9": (("scaling", "002-Lemma-9-eq-2"), ("rate", "002-Lemma-12"), ("chain", "002-Lemma-9-chain")),
    "000-Lemma-2": (("normalisation", "000-Thm-1-normalisation"), ("halves", "000-Lemma-2-halves"),
                    ("chain", "000-Lemma-2-chain")),
}

DOMAINS: dict[str, str] = {
    "002-Lemma-9": (
        "every 0 < gamma < eps (alpha = eps/gamma > 1), every neighbour pair D ~ D' with SS(D')/SS(D) in [e^-gamma, "
        "e^gamma] and |q(D) - q(D')| <= min(SS(D), SS(D')), every real x: f_{SS(D')/gamma, alpha}(x - q(D')) <= e^eps "
        "f_{SS(D)/gamma, alpha}(x - q(D)); tight: the log-ratio tends to eps as x -> oo at SS(D') = e^gamma SS(D), "
        "q(D') = q(D) (sup = e^eps, approached); the claim's six grid points (eps, gamma) inside (0 < gamma < eps "
        "exactly; the core's alpha gamma = eps to 1e-14 relative, binary64 rounding)"),
    "000-Lemma-2": (
        "every k > 1, l > 0, eps > 0, m >= 1 outputs, h(z) = 1/(C (|z|^k + l)), alpha = alpha(eps) = l^(1/k) eps/(2 "
        "(k-1)^((k-1)/k)), beta = beta(eps/m) = (eps/m)/(2 max(k - 1, 1)) (000 Thm. 1's corrected constant; = the printed "
        "eps/(2m(k-1)) for k >= 2), any S^(i+-) > 0 that are direction-oriented beta-smooth upper bounds on LS^(i+-) with "
        "the cross condition, all Hamming neighbours x ~ y and all T in R^m: Pr[A(x) = T] <= e^eps Pr[A(y) = T]; every "
        "mechanism the claim audits inside (k, l, eps, m as constructed in its check, alpha = alpha(eps) to 1e-14); "
        "that the check's S satisfy the hypotheses is the core's float test (relative 1e-12): TESTED"),
}


def _relies_on(cid: str) -> list[str]:
    if cid == "002-Lemma-9":
        from verify.claims.sets.proofs import THM8_REDUCTION  # noqa: PLC0415 - cost: about 1.0 s at import, paid only when used

        return [THM8_REDUCTION, "each part's own relies_on (002-Lemma-9-chain: the FTC, the triangle inequality)"]
    return ["000 Lemma 2 (App. A): Pr[A(x) = T] = prod_i Pr[A(x)_i = T_i] and the per-coordinate loss bound; the steps "
            "are the chain 000-Lemma-2-chain (its relies_on: the output density, the mean value theorem, the "
            "smoothness and cross conditions, the definition of LS^(is))"]


# ---------------------------------------------------------------------------------------------------
# witnesses (the derivations) and records
# ---------------------------------------------------------------------------------------------------
def _w_l9_chain() -> tuple[dict[str, Any], dict[str, Any]]:
    """The tail limit of the log-ratio at SS(D') = e^gamma SS(D), q(D') = q(D) (branch 2 of 002 Def. 6, alpha = 1 + b),
    by SymPy's limit from the derivation's printed normaliser."""
    from derivations import polyplace as pp  # noqa: PLC0415
    from verify.proof import symbolic as S  # noqa: PLC0415

    a = 1 + S.B_
    N = pp.printed_normaliser()
    x, s, g = S.X_, S.S_, S.GAMMA
    Na = N.subs({v: {"alpha": a, "s": s}[v.name] for v in N.free_symbols})
    f2 = Na * (a + 1) * (1 - 1 / a**2) ** a * (1 + x / s) ** (-a - 1)
    tail = sp.expand_log(sp.log(f2.subs(s, sp.exp(g)) / f2.subs(s, 1)), force=True)
    return {"tail_limit": sp.simplify(S._limit(tail, x, sp.oo, "-"))}, {
        "source": "sp.limit of ln f_{e^gamma, alpha}(x)/f_{1, alpha}(x) as x -> oo (branch 2 of 002 Def. 6 with "
                  "derivations.polyplace.printed_normaliser)"}


def _w_l2_chain() -> tuple[dict[str, Any], dict[str, Any]]:
    """The stationary point of D_shift = d/dz ln(1 + z^k) on z > 0 (000 Thm. 1's sliding bound at l = 1; the log-
    derivative of h as derivations.privacy_loss.derive_thm1_000 takes it, differentiated here: that derivation's
    form comparisons cost a second), by SymPy's solve."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    k, z = S.K_, S.Z_
    d = sp.diff(sp.log(z**k + 1), z)
    numer = sp.factor(sp.numer(sp.together(sp.diff(d, z))))  # the sign of D_shift' (its denominator is > 0)
    roots = [r for r in sp.solve(numer, z) if r.subs(k, 3).is_real and r.subs(k, 3).is_positive]
    if len(roots) != 1:
        raise RuntimeError(f"expected one positive stationary point of D_shift, got {roots}")
    return {"zstar": roots[0]}, {"source": "sp.solve(numerator of d/dz D_shift = 0), D_shift = d/dz ln(1 + z^k), the positive "
                                           "real root", "D_shift": str(d)}


def _register_witnesses() -> None:
    """The witness functions of this module's chain specs, carried by the specs from now on."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    S.witnesses_for("002-Lemma-9-chain")(_w_l9_chain)
    S.witnesses_for("000-Lemma-2-chain")(_w_l2_chain)


_register_witnesses()
_RECORDS: dict[str, tuple[dict[str, Any], Any]] = {}


def chain_record(spec_claim: str) -> tuple[dict[str, Any], Any]:
    """(record, re-check) of the symbolic spec ``spec_claim``, once per process (002-Lemma-9-eq-2 shared with
    verify.claims.sets.proofs_composed)."""
    if spec_claim == "002-Lemma-9-eq-2":
        from verify.claims.sets.proofs_composed import symbolic_record  # noqa: PLC0415

        return symbolic_record(spec_claim)
    if spec_claim not in _RECORDS:
        from verify.proof import symbolic as S  # noqa: PLC0415

        w, derivation = S.spec_witnesses(spec_claim)
        rec = S.make_record(spec_claim, w, derivation=derivation)
        _RECORDS[spec_claim] = (rec, S.recheck(rec))
    return _RECORDS[spec_claim]


def attempt(cid: str, printed: Mapping[str, sp.Expr] | None = None) -> dict[str, Any]:
    """The chain of ``cid`` with ``printed`` replacing the printed forms of its chain spec (controls; None: the
    claim's own): {"ok", "problems", "certificate" (a rational point where a ball certifies a failure, or None)}."""
    from verify.claims.sets.proofs_composed import certified_counterexample  # noqa: PLC0415
    from verify.proof import symbolic as S  # noqa: PLC0415

    spec_claim = PARTS[cid][-1][1]
    rec, rc = chain_record(spec_claim)
    if printed is not None:
        rc = S.recheck(rec, printed=dict(printed))
    cx = None
    if not rc.ok:
        cx = certified_counterexample(spec_claim, {k: S._parse(v) for k, v in rec["witnesses"].items()}, printed)
    return {"ok": rc.ok, "problems": list(rc.problems), "certificate": cx}


# ---------------------------------------------------------------------------------------------------
# the mechanisms against the proven domain
# ---------------------------------------------------------------------------------------------------
def _mp(x: float) -> Any:
    import mpmath  # noqa: PLC0415

    q = Fraction(x)
    return mpmath.mpf(q.numerator) / q.denominator


def _l9_mechanisms() -> list[tuple[float, float, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.4 s at import, paid only when used
    from verify.claims.sets.privacy_002 import LEMMA_9_GRID  # noqa: PLC0415 - cost: about 0.9 s at import, paid only when used

    return [(e, g, cal.calibrate_polyplace(e, g, metric="hamming").mechanism(name=f"PolyPlace eps={e:g} gamma={g:g}"))
            for e, g in LEMMA_9_GRID]


#: the noise of 002 Lemma 9's proven domain: PolyPlace (by the family's own name) with s = 1 (the scaling (2)
#: reduces every s to 1; the mechanisms of the claim use s = 1)
L9_NOISE = Domain(family="polyplace", noise=(Range("s", 1, 1),))


def _l9_membership() -> list[dict[str, Any]]:
    import mpmath  # noqa: PLC0415

    from verify.claims.sets.proofs import CALIBRATION_RTOL  # noqa: PLC0415 - cost: about 1.0 s at import, paid only when used

    rows = []
    with mpmath.workdps(50):
        for eps, gamma, mech in _l9_mechanisms():
            noise = mech.noise
            _, fam_why = L9_NOISE.contains(mech)  # the family answers for itself: its name, its s
            if getattr(noise, "name", None) != L9_NOISE.family:
                rows.append({"name": mech.name, "eps": eps, "gamma": gamma, "inside": False, "outside_because": fam_why})
                continue
            alpha = float(noise.alpha)
            eps_p = _mp(alpha) * _mp(float(mech.growth.gamma))
            rel = abs(eps_p / _mp(eps) - 1)
            row = {"name": mech.name, "eps": eps, "gamma": gamma, "alpha": alpha, "eta": float(mech.eta),
                   "growth_gamma": float(mech.growth.gamma), "s": float(noise.s), "metric": mech.metric,
                   "eps_proven": mpmath.nstr(eps_p, 40), "calibration_rel_diff": float(rel)}
            why = [w for w, bad in (
                ("not 0 < gamma < eps (exact binary values)", not 0 < Fraction(gamma) < Fraction(eps)),
                *((w, True) for w in fam_why), ("eta != gamma", float(mech.eta) != gamma),
                ("growth is not g_E with gamma", mech.growth.kind != "exp" or float(mech.growth.gamma) != gamma),
                ("metric is not hamming", mech.metric != "hamming"), ("alpha <= 1", not alpha > 1),
                (f"alpha gamma != eps (relative {float(rel):.2g} > {CALIBRATION_RTOL:g})", rel > CALIBRATION_RTOL)) if bad]
            row["inside"], row["outside_because"] = not why, why
            rows.append(row)
    return rows


def _l2_membership(instances: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each recorded instance (variant, eps, k, l, m, alpha) of the 000-Lemma-2 check against the domain, alpha(eps)
    recomputed here at 50 digits."""
    import mpmath  # noqa: PLC0415

    rows = []
    with mpmath.workdps(50):
        for i, p in enumerate(instances):
            try:
                k, l, eps, m, alpha = (float(p["k"]), float(p["l"]), float(p["eps"]), p["m"], float(p["alpha"]))
            except (KeyError, TypeError, ValueError) as exc:
                rows.append({"index": i, "inside": False, "outside_because": [f"unreadable instance: {exc}"]})
                continue
            K, L_, E = _mp(k), _mp(l), _mp(eps)
            why = [w for w, bad in (("k <= 1", not k > 1), ("l <= 0", not l > 0), ("eps <= 0", not eps > 0),
                                    ("m is not an integer >= 1", not (isinstance(m, int) and m >= 1))) if bad]
            row = {"index": i, "variant": p.get("variant"), "k": k, "l": l, "eps": eps, "m": m, "alpha": alpha}
            if not why:
                a_p = L_ ** (1 / K) * E / (2 * (K - 1) ** ((K - 1) / K))
                rel = abs(_mp(alpha) / a_p - 1)
                row.update(alpha_proven=mpmath.nstr(a_p, 30), alpha_rel_diff=float(rel),
                           beta_proven=mpmath.nstr(E / m / (2 * max(K - 1, mpmath.mpf(1))), 30))
                if rel > ALPHA_RTOL:
                    why.append(f"alpha != alpha(eps) (relative {float(rel):.2g})")
            row["inside"], row["outside_because"] = not why, why
            rows.append(row)
    return rows


def membership(cid: str, tested: ClaimResult | None = None,
               instances: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    if cid == "002-Lemma-9":
        return _l9_membership()
    if instances is None:
        instances = list((tested.evidence if tested is not None else {}).get("mechanisms") or [])
    return _l2_membership(instances)


# ---------------------------------------------------------------------------------------------------
# the proof and its re-check
# ---------------------------------------------------------------------------------------------------
def prove(cid: str, ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    if ctx.budget < QUICK_BUDGET and not ctx.prove_all:
        return with_evidence(tested, {"proof_left_out": (
            "the chain proof (SymPy steps, about 1 s) is attached in the default audit, not at the quick budget")})
    t0 = time.perf_counter()
    parts, rechecks, open_parts = [], {}, {}
    for key, spec_claim in PARTS[cid]:
        rec, rc = chain_record(spec_claim)
        parts.append({"key": key, "proof": rec})
        rechecks[key] = {"ok": rc.ok, "problems": list(rc.problems)[:5], "n_steps": rc.n_boxes,
                         "n_points": getattr(rc, "n_points", None), "seconds": round(rc.seconds, 3)}
        if not rc.ok:
            open_parts[key] = list(rc.problems)[:5]
    if open_parts:
        at = attempt(cid)
        if at["certificate"] is not None:
            cx = at["certificate"]
            return ClaimResult(Verdict.REFUTED, f"a step of the proof fails at {cx['point']} ({cx['certified']})",
                               {**dict(tested.evidence), "certificate": cx, "proof_attempt": rechecks},
                               "arb 200 bits", rule="R-FALSE: certified by arb balls at a rational point")
        return with_evidence(tested, {"proof_attempt": {"open": open_parts, "rechecks": rechecks}})
    if cid == "000-Lemma-2" and len(tested.evidence.get("mechanisms") or []) != tested.evidence.get("instances"):
        return with_evidence(tested, {"proof_not_attached": "the check did not record every audited mechanism"})
    members = membership(cid, tested)
    outside = [r for r in members if not r["inside"]]
    if outside or not members:
        return with_evidence(tested, {"proof_not_attached": {
            "why": "mechanisms outside the proven domain" if outside else "no mechanism", "mechanisms": members}})
    record = {"method": METHOD, "claim": cid, "status": "proven", "domain": DOMAINS[cid], "parts": parts,
              "relies_on": _relies_on(cid), "mechanisms": members}
    keys = ", ".join(f"{k} ({s})" for k, s in PARTS[cid])
    what = ("the ratio <= e^eps for every 0 < gamma < eps and its tightness (sup = e^eps as x -> oo)"
            if cid == "002-Lemma-9" else "eps-DP for every k > 1, l > 0, eps > 0, m >= 1 with beta(eps/m) corrected")
    return with_proof(tested, claim_obligation=expectation(cid),
                      summary=(f"{tested.summary}; PROVEN: {what}: chain of {keys}, each re-checked; all "
                               f"{len(members)} mechanisms of the claim inside"
                               + ("; the S hypotheses are the core's float test (TESTED)" if cid == "000-Lemma-2" else "")),
                      proof=record, domain=DOMAINS[cid],
                      precision="symbolic (SymPy exact); arb 200-bit ball checks; mpmath 50 digits for the parameters",
                      recheck=rechecks, mechanisms=members, seconds_proof=round(time.perf_counter() - t0, 3))


def expectation(cid: str) -> ExpectedObligation:
    """What a proof of ``cid`` (a claim of :data:`PARTS`) must prove: method "privacy-chain", its domain and
    relies_on, from this module."""
    return method_expectation(cid, METHOD, {"domain": DOMAINS[cid], "proof.claim": cid, "proof.domain": DOMAINS[cid],
                                            "proof.relies_on": _relies_on(cid)}, DOMAINS[cid])


def _expectation_factory(cid: str) -> Callable[[str], ExpectedObligation]:
    """The obligation factory of claim ``cid`` (the same obligation at every scale)."""
    def factory(scale: str) -> ExpectedObligation:
        return expectation(cid)
    return factory


def recheck(record: Mapping[str, Any], *, claim_id: str) -> Any:
    """Re-check a "privacy-chain" record: the parts this module requires, each by the symbolic re-checker; the domain
    and relies_on this module states; the mechanisms recomputed (002: from the grid; 000: the recorded instances'
    parameters against the domain by this module's formulas).  Returns a :class:`verify.proof.RecheckResult`."""
    from verify.proof import RecheckResult  # noqa: PLC0415
    from verify.proof import symbolic as S  # noqa: PLC0415

    t0 = time.perf_counter()
    cid = claim_id  # the parts are rebuilt from the claim re-checked, never from the record's "claim"
    if cid not in PARTS:
        return RecheckResult(False, [f"claim {cid} is not proven by a {METHOD!r} chain"], 0, 0, 0.0)
    if record.get("method") != METHOD or record.get("claim") != cid:
        return RecheckResult(False, [f"field 'claim': not a {METHOD!r} record of {cid} (the record is of "
                                     f"{record.get('claim')!r}, method {record.get('method')!r})"], 0, 0, 0.0)
    problems: list[str] = []
    if record.get("status") != "proven":
        problems.append(f"the record's status is {record.get('status')!r}")
    if record.get("domain") != DOMAINS[cid]:
        problems.append("the record's domain is not the one the chain proves")
    if list(record.get("relies_on") or []) != _relies_on(cid):
        problems.append("the record's relies_on is not the chain's")
    parts = [p for p in (record.get("parts") or []) if isinstance(p, Mapping)]
    if [p.get("key") for p in parts] != [k for k, _ in PARTS[cid]]:
        problems.append(f"the record's parts are {[p.get('key') for p in parts]}, not {[k for k, _ in PARTS[cid]]}")
    n = 0
    # a record with more or fewer parts is reported above
    for (key, spec_claim), part in zip(PARTS[cid], parts, strict=False):
        proof = part.get("proof")
        if not isinstance(proof, Mapping) or proof.get("method") != "symbolic" or proof.get("claim") != spec_claim:
            problems.append(f"part {key}: not a symbolic proof of {spec_claim}")
            continue
        rc = S.recheck_for(proof, claim_id=spec_claim)
        n += int(rc.n_boxes)
        problems += [f"part {key}: {q}" for q in rc.problems]
    theirs = [r for r in (record.get("mechanisms") or []) if isinstance(r, Mapping)]
    if cid == "002-Lemma-9":
        mine = membership(cid)
        if [(r["name"], r["eps_proven"]) for r in mine] != [(r.get("name"), r.get("eps_proven")) for r in theirs]:
            problems.append("the record's mechanisms are not the claim's grid")
    else:
        mine = membership(cid, instances=theirs)
        if not mine:
            problems.append("the record lists no mechanism")
    problems += [f"mechanism {r.get('name', r.get('index'))} outside: {', '.join(r['outside_because'])}"
                 for r in mine if not r["inside"]]
    return RecheckResult(not problems, problems[:20], n, S.PREC, time.perf_counter() - t0)


for _cid in PARTS:  # the proof of each claim: prove(cid, ctx, tested)
    proof_for(_cid)(functools.partial(prove, _cid))
    obligation_for(_cid)(_expectation_factory(_cid))


@register_method
class PrivacyChainMethod:
    """The proof method of this module, re-checked by :func:`recheck` (every part rebuilt from this module's own
    definitions as the proof of the claim named by the caller, never from the record)."""

    name = METHOD

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
