"""The 000 (direction-oriented smooth sensitivity) claims run at the quick budget with the expected verdicts."""

from __future__ import annotations

import pytest

import verify.claims.sets.direction_000  # noqa: F401  (registers the claims; independent of other claim modules)
from verify.claims import REGISTRY, CheckContext, Verdict

from claim_verdicts import assert_quick_verdict, quick_verdict_cases


@pytest.mark.parametrize(("cid", "expected"), quick_verdict_cases("direction_000"))
def test_claims_000_quick_verdicts(cid: str, expected: Verdict) -> None:
    assert_quick_verdict(REGISTRY.get(cid), expected)


def test_claim_000_thm1_counterexample_is_certified() -> None:
    ev = REGISTRY.get("000-Thm-1").run(CheckContext(budget=0.1)).evidence
    assert ev["certified_counterexample"]["exceeds"] is True
    assert all(k < 2 for k, _ in ev["fails_printed"]) and not ev["fails_corrected"]
