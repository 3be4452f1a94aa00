"""The calibration claims of verify/claims/sets/calibration.py at the --quick budget: expected verdicts."""

import pytest
from claim_verdicts import assert_quick_verdict

from verify.claims import Verdict, load_registry

EXPECTED = {
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
}


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_calibration_claim_quick_verdict(cid):
    assert_quick_verdict(load_registry().get(cid), EXPECTED[cid])
