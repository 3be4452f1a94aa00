"""004 Lemma 3.6 (Laplace with g_L, approximate GP) proven as a chain of machine-checked steps.

Statement (004 Lemma 3.6, 004 Def. 5).  M(x) = f(x) + (B(x)/eta) Z, Z ~ Lap(0, 1), B a g_L-smooth upper bound on
L_{f,Lambda}; for every eta > 0, gamma > 0, 0 < delta < 1 and every pair at distance 0 < d <= Lambda,
integral (p_x - e^(eps d) p_x')_+ <= delta with eps = eta + gamma ln(1/delta).

The argument (a CORRECTED version of the paper's proof).  Write L = ln(1/delta), b = B(x)/eta, b' = B(x')/eta,
rho = b/b' in [1/(1 + gamma d), 1 + gamma d], Z = (Y - f(x))/b ~ Lap(0, 1) under P_x.  The hockey-stick divergence is
at most P_x(loss > eps d), and by the triangle inequality the loss is at most eta d + ln(1/rho) + (rho - 1)|Z|.

* rho >= 1 (the paper's case b > b', which is right): the loss exceeds eps d = eta d + gamma L d only if |Z| > L,
  of probability e^(-L) = delta.
* rho = 1/r < 1 (the paper's case b <= b'): the paper bounds the loss by (eta + gamma) d, which is <= eps d only when
  ln(1/delta) >= 1 (delta <= 1/e); for 1/e < delta < 1 (e.g. the claim's point delta = 0.5) that step does not give
  the lemma.  Replacement: the loss is <= eta d + ln r - (1 - 1/r)|Z|, so it exceeds eps d only on {|Z| < t},
  t = (ln r - gamma d L) r/(r - 1), of probability (1 - e^(-t))_+; gamma d >= r - 1 gives t <= r ln r/(r - 1) - r L,
  and [that + ln L] - [ln r/(r - 1) - 1] = ln(rL) - rL + 1 <= 0 together with ln r/(r - 1) <= 1 (ln x <= x - 1) give
  t <= -ln L, so the probability is <= (1 - L)_+ <= e^(-L) = delta.  No case split on delta is needed.

Every algebraic step is the symbolic spec ``004-Lemma-3.6-chain`` of :mod:`verify.proof.symbolic` (identities,
signs, the Laplace tail from an antiderivative and its limit), with ball checks of delta - H > 0 at rational points
(H the exact hockey-stick divergence, arb, :func:`verify.proof.symbolic.h12_hockey`); the textbook facts are its
``relies_on``.  Every mechanism of the claim is checked against the domain (Laplace scale 1 centred, g_L with the
claim's gamma, eta > 0, 0 < delta < 1, eps = eta + gamma ln(1/delta) to CALIBRATION_RTOL at 50 digits).

Records have method :data:`METHOD` ("approx-chain"), re-checked by :func:`recheck` (one line in
the method registry, :func:`verify.proof.record.method_named`).  Verdicts: VERIFIED (proven) when the chain re-checks and the
mechanisms are inside; REFUTED when a ball check certifies delta - H < 0 at a rational point (planted controls,
:func:`attempt`); else the tested result stands.  Cost: well under 1 s; left out below the quick budget.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from verify.proof.record import describe_record, register_method
from verify.claims import CheckContext, ClaimResult, Verdict
from verify.claims.registry import (ExpectedObligation, method_expectation, obligation_for, proof_for, with_evidence,
                                    with_proof)

__all__ = ["METHOD", "CLAIM", "SPEC", "QUICK_BUDGET", "chain_record", "attempt", "membership", "recheck"]

METHOD = "approx-chain"
CLAIM = "004-Lemma-3.6-privacy"
SPEC = "004-Lemma-3.6-chain"
#: below this CheckContext.budget (the quick profile) the proof is left out
QUICK_BUDGET = 0.5
RELIES_ON = ["the chain 004-Lemma-3.6-chain (its relies_on: the hockey-stick/loss-tail bound, the triangle inequality, "
             "ln x <= x - 1, 1 - L <= e^(-L), the hypotheses of 004 Def. 8 with g_L)"]

_RECORD: dict[str, tuple[dict[str, Any], Any]] = {}


def _witnesses() -> tuple[dict[str, sp.Expr], dict[str, Any]]:
    """The antiderivative of the Laplace half-density (SymPy's integrate) and the root t of
    ln r - (1 - 1/r)|Z| = gamma d L (SymPy's solve), r = 1 + e."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    z, e, L, g, d = S.Z_, S._H12_E, S._H12_L, S.GAMMA, S._H12_D
    r = 1 + e
    a = sp.Symbol("a", positive=True)
    F = sp.integrate(sp.exp(-z) / 2, z)
    roots = sp.solve(sp.Eq(sp.log(r) - (1 - 1 / r) * a, g * d * L), a)
    if len(roots) != 1:
        raise RuntimeError(f"expected one root, got {roots}")
    return {"tail_antiderivative": F, "threshold": sp.simplify(roots[0])}, {
        "source": "sp.integrate(exp(-z)/2, z); sp.solve(ln r - (1 - 1/r) a = gamma d L, a), r = 1 + e"}


def chain_record() -> tuple[dict[str, Any], Any]:
    """(record, re-check) of the spec, once per process."""
    if SPEC not in _RECORD:
        from verify.proof import symbolic as S  # noqa: PLC0415

        w, derivation = S.spec_witnesses(SPEC)
        rec = S.make_record(SPEC, w, derivation=derivation)
        _RECORD[SPEC] = (rec, S.recheck(rec))
    return _RECORD[SPEC]


def _register_witnesses() -> None:
    from verify.proof import symbolic as S  # noqa: PLC0415

    S.witnesses_for(SPEC)(_witnesses)  # the spec carries its witness function from now on


_register_witnesses()


def attempt(printed: Mapping[str, sp.Expr] | None = None) -> dict[str, Any]:
    """The chain with ``printed`` replacing its printed forms ({"eps", "delta"}; controls): {"ok", "problems",
    "certificate" (a rational point where a ball certifies delta - H < 0, or None)}."""
    from verify.claims.sets.proofs_composed import certified_counterexample  # noqa: PLC0415
    from verify.proof import symbolic as S  # noqa: PLC0415

    rec, rc = chain_record()
    rc = rc if printed is None else S.recheck(rec, printed=dict(printed))
    wit = {k: S._parse(v) for k, v in rec["witnesses"].items()}
    return {"ok": rc.ok, "problems": list(rc.problems),
            "certificate": None if rc.ok else certified_counterexample(SPEC, wit, printed)}


def _mp(x: float) -> Any:
    import mpmath  # noqa: PLC0415

    q = Fraction(x)
    return mpmath.mpf(q.numerator) / q.denominator


def membership() -> list[dict[str, Any]]:
    """The claim's mechanisms (verify.audit.catalogue) against the proven domain, at 50 digits."""
    import mpmath  # noqa: PLC0415

    from verify.audit.catalogue import catalogue  # noqa: PLC0415 - cost: about 1.0 s at import, paid only when used
    from verify.claims.sets.proofs import CALIBRATION_RTOL  # noqa: PLC0415 - cost: about 1.9 s at import, paid only when used

    rows = []
    with mpmath.workdps(50):
        for ent in catalogue():
            if ent.claim != CLAIM:
                continue
            m = ent.mechanism
            growth = m.growth
            if growth is None:
                raise ValueError(f"catalogue entry {ent.key}: the mechanism of {CLAIM} needs a growth function")
            eta, eps, delta, gamma = float(m.eta), float(m.eps), float(m.delta), float(growth.gamma)
            row = {"name": m.name, "eta": eta, "eps": eps, "delta": delta, "gamma": gamma, "metric": m.metric}
            why = [w for w, bad in (
                ("noise is not Laplace", getattr(m.noise, "name", None) != "laplace"),
                ("noise not centred with scale 1", float(m.noise.loc) != 0.0 or float(m.noise.scale) != 1.0),
                ("growth is not g_L", growth.kind != "linear"), ("eta <= 0", not eta > 0),
                ("gamma <= 0", not gamma > 0), ("delta not in (0, 1)", not 0 < delta < 1)) if bad]
            if not why:
                eps_p = _mp(eta) + _mp(gamma) * mpmath.log(1 / _mp(delta))
                rel = abs(eps_p / _mp(eps) - 1)
                row.update(eps_proven=mpmath.nstr(eps_p, 40), calibration_rel_diff=float(rel))
                if rel > CALIBRATION_RTOL:
                    why.append(f"eps != eta + gamma ln(1/delta) (relative {float(rel):.2g})")
            row["inside"], row["outside_because"] = not why, why
            rows.append(row)
    return rows


obligation_for(CLAIM)(lambda scale: expectation(CLAIM))


@proof_for(CLAIM)
def prove(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    if ctx.budget < QUICK_BUDGET and not ctx.prove_all:
        return with_evidence(tested, {"proof_left_out": (
            "the chain proof (SymPy steps and arb hockey-stick balls) is attached in the default audit, not at the "
            "quick budget")})
    from verify.proof import symbolic as S  # noqa: PLC0415

    t0 = time.perf_counter()
    rec, rc = chain_record()
    rchk = {"ok": rc.ok, "problems": list(rc.problems)[:5], "n_steps": rc.n_boxes, "n_points": rc.n_points,
            "seconds": round(rc.seconds, 3)}
    if not rc.ok:
        at = attempt()
        if at["certificate"] is not None:
            cx = at["certificate"]
            return ClaimResult(Verdict.REFUTED, f"a step of the proof fails at {cx['point']} ({cx['certified']})",
                               {**dict(tested.evidence), "certificate": cx, "proof_attempt": rchk},
                               "arb 200 bits", rule="R-FALSE: certified by arb balls at a rational point")
        return with_evidence(tested, {"proof_attempt": rchk})
    members = membership()
    outside = [r for r in members if not r["inside"]]
    if outside or not members:
        return with_evidence(tested, {"proof_not_attached": {
            "why": "mechanisms outside the proven domain" if outside else "no mechanism", "mechanisms": members}})
    record = {"method": METHOD, "claim": CLAIM, "status": "proven", "domain": S._H12_DOMAIN, "parts": [
        {"key": "chain", "proof": rec}], "relies_on": list(RELIES_ON), "mechanisms": members,
        "note": ("corrected argument: the paper's case B(x) <= B(x') bound (eta + gamma) d is <= eps d only for "
                 "delta <= 1/e; replaced by the tail bound P(|Z| < t) <= 1 - L <= delta")}
    return with_proof(tested, claim_obligation=expectation(CLAIM),
                      summary=(f"{tested.summary}; PROVEN for every eta, gamma > 0, 0 < delta < 1, every Lambda: chain "
                               f"{SPEC} ({rc.n_boxes} SymPy steps, {rc.n_points} ball points) re-checked (a corrected "
                               f"argument: the printed case B(x) <= B(x') needs delta <= 1/e); all {len(members)} "
                               f"mechanisms of the claim inside"),
                      proof=record, domain=S._H12_DOMAIN,
                      precision="symbolic (SymPy exact); arb 200-bit ball checks; mpmath 50 digits for the parameters",
                      recheck=rchk, mechanisms=members, seconds_proof=round(time.perf_counter() - t0, 3))


def expectation(claim_id: str) -> ExpectedObligation:
    """What a proof of :data:`CLAIM` must prove (method "approx-chain", the chain's domain), from this module."""
    from verify.proof import symbolic as S  # noqa: PLC0415

    return method_expectation(claim_id, METHOD, {"domain": S._H12_DOMAIN, "proof.claim": claim_id,
                                                 "proof.domain": S._H12_DOMAIN, "proof.relies_on": list(RELIES_ON)},
                              S._H12_DOMAIN)


def recheck(record: Mapping[str, Any], *, claim_id: str) -> Any:
    """Re-check an "approx-chain" record as the proof of ``claim_id`` (only :data:`CLAIM` is proven this way): its
    chain part by the symbolic re-checker told the spec :data:`SPEC` (the spec's own steps), the domain and relies_on
    against this module's, the mechanisms recomputed from the catalogue.  A RecheckResult."""
    from verify.proof import RecheckResult  # noqa: PLC0415
    from verify.proof import symbolic as S  # noqa: PLC0415

    t0 = time.perf_counter()
    if claim_id != CLAIM:
        return RecheckResult(False, [f"claim {claim_id} is not proven by an {METHOD!r} chain (only {CLAIM} is)"], 0, 0, 0.0)
    if record.get("method") != METHOD or record.get("claim") != CLAIM:
        return RecheckResult(False, [f"not a {METHOD!r} record of {CLAIM}"], 0, 0, 0.0)
    problems: list[str] = []
    if record.get("status") != "proven":
        problems.append(f"the record's status is {record.get('status')!r}")
    if record.get("domain") != S._H12_DOMAIN:
        problems.append("the record's domain is not the one the chain proves")
    if list(record.get("relies_on") or []) != RELIES_ON:
        problems.append("the record's relies_on is not the chain's")
    parts = [p for p in (record.get("parts") or []) if isinstance(p, Mapping)]
    n = 0
    if [p.get("key") for p in parts] != ["chain"]:
        problems.append("the record's parts are not ['chain']")
    else:
        proof = parts[0].get("proof")
        if not isinstance(proof, Mapping) or proof.get("method") != "symbolic" or proof.get("claim") != SPEC:
            problems.append(f"part chain: not a symbolic proof of {SPEC}")
        else:
            rc = S.recheck_for(proof, claim_id=SPEC)
            n = int(rc.n_boxes)
            problems += [f"part chain: {q}" for q in rc.problems]
    mine = membership()
    theirs = [r for r in (record.get("mechanisms") or []) if isinstance(r, Mapping)]
    if [(r["name"], r.get("eps_proven")) for r in mine] != [(r.get("name"), r.get("eps_proven")) for r in theirs]:
        problems.append("the record's mechanisms are not the claim's")
    problems += [f"mechanism {r['name']} outside: {', '.join(r['outside_because'])}" for r in mine if not r["inside"]]
    return RecheckResult(not problems, problems[:20], n, S.PREC, time.perf_counter() - t0)


@register_method
class ApproxChainMethod:
    """The proof method of this module, re-checked by :func:`recheck` (every part rebuilt from this module's own
    definitions as the proof of the claim named by the caller, never from the record)."""

    name = METHOD

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
