"""The quick-verdict contract shared by the claim-set tests (tests/verify/claims/test_claims_*.py)."""

from __future__ import annotations

from verify.claims import CheckContext, ClaimResult, Verdict


#: The verdict each claim of a claim module (verify/claims/sets/<module>.py) gives at the --quick budget,
#: as established by the full audit; one table for the claim-set tests.
QUICK_VERDICTS: dict[str, dict[str, Verdict]] = {
    "direction_000": {
        "000-Thm-1-normalisation": Verdict.VERIFIED,
        "000-Thm-1": Verdict.REFUTED,
        "000-Lemma-2-halves": Verdict.VERIFIED,
        "000-Lemma-2": Verdict.VERIFIED,
        "000-Thm-2": Verdict.VERIFIED,
        "000-Thm-3": Verdict.VERIFIED,
        "000-Thm-4": Verdict.ERRATUM,
        "000-Thm-5": Verdict.VERIFIED,
    },
    "asymmetric_003": {
        "003-Def-IV.1": Verdict.ERRATUM,
        "003-Def-IV.6": Verdict.VERIFIED,
        "003-Def-V.1": Verdict.VERIFIED,
        "003-Def-V.3": Verdict.REFUTED,
        "003-Thm-V.4": Verdict.VERIFIED,
        "003-Def-IV.2-relaxation": Verdict.VERIFIED,
        "003-Cor-V.5": Verdict.VERIFIED,
        "003-Cor-V.5-laplace-comparison": Verdict.REFUTED,
        "003-Cor-V.6": Verdict.REFUTED,
        "003-Sec-VI.A.3-policy": Verdict.REFUTED,
        "003-Thm-V.7": Verdict.ERRATUM,  # the proof's last line: "<= eps" for "<= e^eps" (R-SLIP)
        "003-Sec-V.B-one-sided": Verdict.VERIFIED,
        "003-Def-VIII.1-normalisation": Verdict.REFUTED,
        "003-App-A-normalisation": Verdict.REFUTED,
        "003-Thm-VIII.2": Verdict.VERIFIED,
        "003-Thm-VIII.3": Verdict.REFUTED,
        "003-Thm-VIII.6": Verdict.VERIFIED,
        "003-Prop-III.1": Verdict.VERIFIED,
        "003-Ineq-5-example": Verdict.VERIFIED,
        "003-Ineq-7-example": Verdict.REFUTED,
        "003-Prop-IV.7": Verdict.REFUTED,
        "003-Sec-III.C-risk-dp": Verdict.VERIFIED,
        "003-Prop-IV.3": Verdict.VERIFIED,
        "003-Prop-IV.4": Verdict.VERIFIED,
        "003-Prop-IV.5": Verdict.VERIFIED,
    },
    "calibration": {
        "004-Remark-3.5-example": Verdict.VERIFIED,
        "004-Remark-3.5-calibration-form": Verdict.REFUTED,  # (p-1) gamma is wrong for 1 < p < 2
        "002-Claim-16": Verdict.VERIFIED,
        "002-Claim-17": Verdict.VERIFIED,
        "002-Claim-18": Verdict.REFUTED,  # printed gamma-range too wide
        "002-Figure-1-ordering": Verdict.VERIFIED,
        "004-Lemma-3.5-tight": Verdict.VERIFIED,
        "004-Lemma-3.3-tight": Verdict.VERIFIED,
        "002-Thm-8-tight": Verdict.VERIFIED,
        "004-Lemma-3.6-tight": Verdict.VERIFIED,  # valid, not tight: tight delta ~ printed/2 (GP)
    },
    "sensitivity_004": {
        "004-Lemma-4.1": Verdict.VERIFIED,
        "004-Lemma-4.1-proof": Verdict.ERRATUM,
        "004-App-C.3": Verdict.VERIFIED,
        "004-Claim-4.2": Verdict.VERIFIED,
        "004-Lemma-4.3": Verdict.VERIFIED,
        "004-Claim-4.4": Verdict.VERIFIED,
        "004-Lemma-4.5": Verdict.VERIFIED,
        "004-Lemma-4.6": Verdict.REFUTED,
        "004-Lemma-4.7": Verdict.REFUTED,
        "004-App-A.4-derivatives": Verdict.VERIFIED,
        "004-Lemma-4.8": Verdict.VERIFIED,
        "004-Sec-3.3-S4": Verdict.REFUTED,  # printed S4 misses the sup on the Lambda-sphere (4.9% too small)
        "004-Lemma-3.1": Verdict.VERIFIED,
        "004-Lemma-3.2": Verdict.VERIFIED,
        "004-Def-8-smoothness": Verdict.VERIFIED,
    },
}


def assert_quick_verdict(claim, expected: Verdict) -> ClaimResult:
    """Run ``claim`` at the --quick budget (0.1): no internal error, the ``expected`` verdict, and an
    ERRATUM carries both its (non-empty) printed and corrected forms in the evidence.  Returns the result."""
    res = claim.run(CheckContext(budget=0.1))
    assert not res.evidence.get("internal_error"), res.evidence.get("traceback")
    assert res.verdict == expected, res.summary
    if res.verdict == Verdict.ERRATUM:
        assert res.evidence.get("printed") and res.evidence.get("corrected"), sorted(res.evidence)
    return res


def quick_verdict_cases(module: str) -> list[tuple[str, Verdict]]:
    """(claim id, expected verdict) of the claims of ``verify/claims/sets/<module>.py``, sorted by id."""
    return sorted(QUICK_VERDICTS[module].items())
