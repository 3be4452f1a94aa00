"""The calibration claims of verify/claims/sets/calibration.py at the --quick budget: expected verdicts."""

import pytest
from claim_verdicts import assert_quick_verdict, quick_verdict_cases

from verify.claims import load_registry


@pytest.mark.parametrize(("cid", "expected"), quick_verdict_cases("calibration"))
def test_calibration_claim_quick_verdict(cid, expected):
    assert_quick_verdict(load_registry().get(cid), expected)
