"""From exact audits to claim verdicts: the bridge between the auditor and the claim registry.

A privacy claim of the papers ("every mechanism calibrated by Lemma X satisfies its guarantee") is
checked by auditing each calibrated mechanism (:func:`verify.audit.exact.smooth.audit_smooth_mechanism`)
and reading the outcomes as one verdict:

* REFUTED as soon as one mechanism has a certified violation (its witness is the evidence);
* INCONCLUSIVE when none is certified but some float excess could not be certified;
* VERIFIED otherwise (evidence: the largest slack found per mechanism).

Planted controls (``expect_violation``) read the same way; the summary says whether the planted
fault was caught.
"""

from __future__ import annotations

from typing import Any, Sequence

from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.audit.exact.result import AuditResult
from verify.audit.exact.smooth import audit_smooth_mechanism

from .registry import ClaimResult, Verdict

__all__ = ["claim_result_from_audits", "verdict_of_audits"]


def verdict_of_audits(results: Sequence[tuple[str, AuditResult]], *, expect_violation: bool, precision: str,
                      rows: list[dict[str, Any]], what: str) -> ClaimResult:
    """The :class:`verify.claims.ClaimResult` of named audit results (see module docstring).

    ``rows`` is the per-mechanism evidence, ``what`` the sentence of a VERIFIED summary."""
    for name, res in results:
        if res.violated:
            head = "planted fault caught: " if expect_violation else ""
            return ClaimResult(Verdict.REFUTED, head + f"{name}: {res.summary()}",
                               {"counterexample": res.to_json(), "audits": rows}, precision,
                               rule=f"R-INVALID: privacy loss above the claimed eps ({name}, certified)")
    for name, res in results:
        if res.inconclusive:
            head = "planted fault NOT certified: " if expect_violation else ""
            return ClaimResult(Verdict.INCONCLUSIVE, head + f"{name}: {res.summary()}",
                               {"inconclusive": res.to_json(), "audits": rows}, precision)
    head = "planted fault NOT caught: " if expect_violation else ""
    return ClaimResult(Verdict.VERIFIED, head + what, {"audits": rows}, precision)


def claim_result_from_audits(mechanisms: Sequence[SmoothSensitivityMechanism], ctx: Any, salt: str,
                             expect_violation: bool = False) -> ClaimResult:
    """Audit every abstract mechanism with the budget of ``ctx`` (a :class:`verify.claims.CheckContext`)
    and turn the outcomes into a :class:`verify.claims.ClaimResult` (module docstring)."""
    rows = []
    results = []
    for i, mech in enumerate(mechanisms):
        res = audit_smooth_mechanism(mech, rng=ctx.rng(f"{salt}:{i}"), n_random=ctx.scaled(20000, 1500),
                                     n_local=ctx.scaled(8, 2), dps=ctx.dps, maxfev=ctx.scaled(600, 200))
        rows.append({"mechanism": mech.describe(), "source": mech.source, **res.to_json()})
        results.append((mech.name, res))
    worst = max(r["max_slack"] for r in rows)
    mode = "sup delta_hs - delta" if any(m.delta > 0 for m in mechanisms) else "sup(loss - eps*d)"
    return verdict_of_audits(
        results, expect_violation=expect_violation, rows=rows,
        precision=f"float search, mpmath {ctx.dps} digits for candidates",
        what=f"{len(mechanisms)} mechanism(s), no certified violation; largest {mode} found = {worst:.3g}")
