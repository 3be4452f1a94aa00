"""Claim ``004-Def-8-ramp-proof``: 004 Def. 8 (1) and (2) for the ramp closed forms, every Lambda in
(0, inf], g_E and g_L (the proof is :mod:`verify.proof.ramp_def8`).

The proof record (``"method": "ramp-def8"``) is a chain of SymPy-checked steps (ell is the 1-D sup of
the difference quotients; ell's shape; g0's axioms; the maximisers of ell(e)/g0(d - e) per piece; the
case table over every ordering of {0, d, Lambda - w, Lambda, Lambda - 1/gamma}; the band distances of
the one-way threshold, bounded range and two-way threshold; attainment along the normal rays, so
L_{f,Lambda} = ell(d+) and B = B* of 004 Def. 9 exactly) plus textbook facts named in its ``relies_on``.
It is about the closed-form formulas in exact arithmetic; that the core's floats
(``_ramp.ramp_lipschitz`` / ``ramp_smooth_sensitivity``) equal them is the tested part (mpmath
comparison at random points), kept as the claim's tested evidence.  ``smoothsens audit --claim
004-Def-8-ramp-proof --recheck-proof`` re-checks the record through
the method registry (:func:`verify.proof.record.method_named`) (:func:`verify.proof.ramp_def8.recheck`).

Verdicts: VERIFIED (proven) when every step passes and the re-check accepts the record; REFUTED when
a step fails and :func:`verify.proof.ramp_def8.counterexample` certifies (mpmath, 50 digits) a point
where the core's candidate max is below the sup, or when the core's floats are off the proven
formulas by more than 1e-12 (relative); INCONCLUSIVE when a step fails without a certified point.
"""

from __future__ import annotations

import time

from verify.claims import CheckContext, ClaimResult, Verdict, claim
from verify.claims.registry import ExpectedObligation, method_expectation, obligation_for, with_proof
from verify.proof._results import count_checks

__all__ = ["check_ramp_def8", "CORE_RTOL"]

#: the core's floats must equal the proven formulas to this relative error (a few ulp of log/exp)
CORE_RTOL = 1e-12


@claim("004-Def-8-ramp-proof")
def check_ramp_def8(ctx: CheckContext) -> ClaimResult:
    from verify.proof import ramp_def8 as R  # noqa: PLC0415 - needs python-flint (the proof extra)

    t0 = time.perf_counter()
    quick = ctx.budget < 1.0
    if quick:  # prove only (the re-check is skipped at the quick budget)
        record, rc = R.prove(), None
    else:  # prove and re-check once per process (shared with the proofs attached in sensitivity_004)
        from verify.claims.sets.proofs_def8 import ramp_proof  # noqa: PLC0415 - cost: about 1.2 s at import, paid only when used

        record, rc = ramp_proof()
    if record["status"] != "proven":
        failed = [st["id"] for st in record["steps"] if not st["ok"]]
        cx = R.counterexample(R.spec(), dps=max(ctx.dps, 50))
        if cx is not None:
            return ClaimResult(Verdict.REFUTED, f"the ramp closed form is below the sup of 004 Def. 9 at {cx} "
                               f"(failed steps {failed})", {"counterexample": cx, "proof": record},
                               ctx.mp_precision, time.perf_counter() - t0,
                               rule="R-FALSE: the core's candidate max is below the sup at a certified point")
        return ClaimResult(Verdict.INCONCLUSIVE, f"proof steps fail without a certified counterexample: {failed}",
                           {"proof": record}, "SymPy", time.perf_counter() - t0,
                           rule="R-UNDEC: a step of the proof did not pass")
    if rc is not None and not rc.ok:
        return ClaimResult(Verdict.INCONCLUSIVE, f"the proof record fails its independent re-check: {rc.problems}",
                           {"proof": record, "recheck": list(rc.problems)}, "SymPy", time.perf_counter() - t0,
                           rule="R-UNDEC: the re-check rejects the proof")
    n = ctx.scaled(100, 20)
    cmp = R.compare_core(n=n, seed=ctx.seed % (2**31))
    if not cmp["max_rel_err"] <= CORE_RTOL:
        return ClaimResult(Verdict.REFUTED, f"the core's floats are off the proven formulas: relative error "
                           f"{cmp['max_rel_err']:.3g} > {CORE_RTOL:g} at {cmp['worst']}", {"core_vs_formulas": cmp},
                           "mpmath 30 digits", time.perf_counter() - t0,
                           rule="R-FALSE: the core does not compute the proven closed form")
    tested = ClaimResult(Verdict.VERIFIED,
                         f"the core's ramp_lipschitz / ramp_smooth_sensitivity equal ell / Phi (mpmath) at {cmp['n']} "
                         f"random points, max relative error {cmp['max_rel_err']:.2g} <= {CORE_RTOL:g}",
                         {"core_vs_formulas": cmp}, "mpmath 30 digits")
    n_checks = count_checks(record)
    table = next(st for st in record["steps"] if st["id"] == "case-table")["result"]
    summary = (f"proven: 004 Def. 8 (1) B >= ell(d+) = L_{{f,Lambda}} and (2) B(x) <= g0(|x - x'|) B(x'), and B = B* "
               f"of Def. 9 (attained along the normal rays), for the ramp "
               f"closed forms (one-way threshold, bounded range tent/trapezoid, two-way threshold), every Lambda in "
               f"(0, inf], g_E and g_L, all w, gamma > 0: {len(record['steps'])} SymPy-checked steps ({n_checks} checks; "
               f"case table over {table['n_realisable']} orderings), "
               + ("re-check skipped at --quick budget" if rc is None else "re-checked independently")
               + f"; the core's floats = the proven formulas is TESTED ({cmp['n']} points, rel. err "
               f"{cmp['max_rel_err']:.2g})")
    recheck = None if rc is None else {"ok": rc.ok, "problems": list(rc.problems), "n_checks": rc.n_boxes,
                                       "seconds": round(rc.seconds, 3)}
    res = with_proof(tested, claim_obligation=expectation(), summary=summary, proof=record, domain=R.DOMAIN, precision="exact (SymPy), exact rationals",
                     statement_proven=record["statement"], relies_on=list(R.RELIES_ON), recheck=recheck,
                     n_steps=len(record["steps"]), n_checks=n_checks, n_boxes=0,
                     seconds_prove=record["seconds"])
    return ClaimResult(res.verdict, res.summary, res.evidence, res.precision, time.perf_counter() - t0,
                       res.rule, res.strength)


@obligation_for("004-Def-8-ramp-proof")
def _obligation(scale: str) -> ExpectedObligation:
    return expectation()


def expectation() -> ExpectedObligation:
    """What a proof of 004-Def-8-ramp-proof must prove: the ramp-def8 record on its domain, from the code
    (:mod:`verify.proof.ramp_def8`)."""
    from verify.proof import ramp_def8 as R  # noqa: PLC0415 - needs python-flint (the proof extra)

    return method_expectation(R.CLAIM, R.METHOD, {"domain": R.DOMAIN, "statement_proven": R.STATEMENT,
                                                  "relies_on": list(R.RELIES_ON), "proof.domain": R.DOMAIN,
                                                  "proof.statement": R.STATEMENT}, R.DOMAIN)
