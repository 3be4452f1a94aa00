"""The 003 (asymmetric DP) claims run at the quick budget and give the expected verdicts."""

from __future__ import annotations

import pytest

import verify.claims.sets.asymmetric_003  # noqa: F401  (registers the claims; independent of other claim modules)
from verify.claims import OMISSIONS, REGISTRY, Verdict

from claim_verdicts import QUICK_VERDICTS, assert_quick_verdict, quick_verdict_cases


@pytest.mark.parametrize(("cid", "expected"), quick_verdict_cases("asymmetric_003"))
def test_claims_003_quick_verdicts(cid: str, expected: Verdict) -> None:
    assert_quick_verdict(REGISTRY.get(cid), expected)


def test_claims_003_registered_and_omissions_listed() -> None:
    reg = REGISTRY
    ids = {c.id for c in reg.select(seeds=["003"]) if c.check.__module__ == "verify.claims.sets.asymmetric_003"}
    assert set(QUICK_VERDICTS["asymmetric_003"]) == ids
    assert any(o.seed == "003" for o in OMISSIONS)
