"""The quick-verdict contract shared by the claim-set tests (tests/verify/test_claims_*.py)."""

from __future__ import annotations

from verify.claims import CheckContext, ClaimResult, Verdict


def assert_quick_verdict(claim, expected: Verdict) -> ClaimResult:
    """Run ``claim`` at the --quick budget (0.1): no internal error, the ``expected`` verdict, and an
    ERRATUM carries both its printed and its corrected form in the evidence.  Returns the result."""
    res = claim.run(CheckContext(budget=0.1))
    assert not res.evidence.get("internal_error"), res.evidence.get("traceback")
    assert res.verdict == expected, res.summary
    if res.verdict == Verdict.ERRATUM:
        assert "printed" in res.evidence and "corrected" in res.evidence
    return res
