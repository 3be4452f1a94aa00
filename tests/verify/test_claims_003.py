"""The 003 (asymmetric DP) claims run at the quick budget and give the expected verdicts."""

from __future__ import annotations

import pytest

import verify.claims.sets.asymmetric_003  # noqa: F401  (registers the claims; independent of other claim modules)
from verify.claims import OMISSIONS, REGISTRY, Verdict

from claim_verdicts import assert_quick_verdict

EXPECTED_003 = {
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
}


@pytest.mark.parametrize("cid", sorted(EXPECTED_003))
def test_claims_003_quick_verdicts(cid: str) -> None:
    assert_quick_verdict(REGISTRY.get(cid), EXPECTED_003[cid])


def test_claims_003_registered_and_omissions_listed() -> None:
    reg = REGISTRY
    ids = {c.id for c in reg.select(seeds=["003"])}
    assert set(EXPECTED_003) <= ids
    assert any(o.seed == "003" for o in OMISSIONS)
