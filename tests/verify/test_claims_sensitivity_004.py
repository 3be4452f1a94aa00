"""The claims of verify/claims/sets/sensitivity_004.py at the --quick budget: each runs in < 3 s and
returns the verdict established by the full audit (VERIFIED, or ERRATUM with printed/corrected)."""

from __future__ import annotations

import pytest
from claim_verdicts import assert_quick_verdict

from verify.claims import Verdict, load_registry

EXPECTED = {
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
}


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_sensitivity_claim_quick_verdict(cid):
    res = assert_quick_verdict(load_registry().get(cid), EXPECTED[cid])
    if res.verdict == Verdict.ERRATUM:
        assert res.evidence["printed"] and res.evidence["corrected"]
