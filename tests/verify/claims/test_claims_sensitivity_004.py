"""The claims of verify/claims/sets/sensitivity_004.py at the --quick budget: each runs in < 3 s and
returns the verdict established by the full audit (VERIFIED, or ERRATUM with printed/corrected)."""

from __future__ import annotations

import pytest
from claim_verdicts import assert_quick_verdict, quick_verdict_cases

from verify.claims import load_registry


@pytest.mark.parametrize(("cid", "expected"), quick_verdict_cases("sensitivity_004"))
def test_sensitivity_claim_quick_verdict(cid, expected):
    assert_quick_verdict(load_registry().get(cid), expected)
