"""The written verdict rules (verify.claims.registry.RULES, README.md, "Verdict rules").

EXPECTED lists every paper claim that is not VERIFIED with the rule that placed it; the test runs
those claims at the quick budget and checks verdict, rule and (for REFUTED) the certificate."""

from __future__ import annotations

import pytest

from verify.claims import RULES, CheckContext, ClaimResult, Verdict, load_registry

EXPECTED = {
    "000-Thm-1": "R-INVALID", "000-Thm-1-constants": "R-FALSE", "000-Thm-4": "R-SLIP",
    "002-Lemma-9-proof-bound": "R-FALSE", "002-Lemma-10": "R-SLIP", "002-Lemma-13": "R-FALSE",
    "002-Claim-18": "R-FALSE", "002-Fact-4": "R-FALSE", "002-Fact-5": "R-FALSE", "002-Lemma-9-step-8": "R-SLIP",
    "003-Def-IV.1": "R-SLIP", "003-Prop-IV.7": "R-INVALID", "003-Def-V.3": "R-INVALID",
    "003-Cor-V.5-laplace-comparison": "R-FALSE", "003-Cor-V.6": "R-FALSE", "003-Thm-V.7": "R-SLIP",
    "003-Sec-VI.A.3-policy": "R-INVALID", "003-Ineq-7-example": "R-FALSE",
    "003-Def-VIII.1-normalisation": "R-FALSE", "003-Thm-VIII.3": "R-FALSE", "003-App-A-normalisation": "R-FALSE",
    "004-Sec-2.1-gencauchy-normaliser": "R-SLIP", "004-Cor-3.1": "R-INVALID", "004-Sec-3.3-S4": "R-INVALID",
    "004-Remark-3.5-calibration-form": "R-INVALID", "004-Lemma-4.1-proof": "R-SLIP", "004-Lemma-4.6": "R-INVALID",
    "004-Lemma-4.7": "R-INVALID", "004-Sec-4.1.3-student-t-eta": "R-INVALID",
}
VERDICT = {"R-SLIP": Verdict.ERRATUM, "R-FALSE": Verdict.REFUTED, "R-INVALID": Verdict.REFUTED}


def test_rules_are_written_and_give_one_verdict_each():
    assert set(RULES) == {"R-VER", "R-INVALID", "R-FALSE", "R-SLIP", "R-UNDEC"}
    assert all(len(t) > 60 for t in RULES.values())


def test_claimresult_refuses_a_rule_of_another_verdict_and_an_erratum_without_rule():
    with pytest.raises(ValueError, match="needs its rule"):
        ClaimResult(Verdict.ERRATUM, "x")
    with pytest.raises(ValueError, match="gives REFUTED"):
        ClaimResult(Verdict.ERRATUM, "x", rule="R-FALSE: y")
    with pytest.raises(ValueError, match="rule must start"):
        ClaimResult(Verdict.REFUTED, "x", rule="R-MAYBE: y")
    assert ClaimResult(Verdict.INCONCLUSIVE, "why").rule_id == "R-UNDEC"
    assert ClaimResult(Verdict.VERIFIED, "ok").rule_id == "R-VER"


def test_expected_ids_exist():
    reg = load_registry()
    assert all(cid in reg for cid in EXPECTED)


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_non_verified_claim_is_placed_by_its_rule(cid):
    res = load_registry().get(cid).run(CheckContext(budget=0.25))
    assert res.rule_id == EXPECTED[cid], (res.verdict, res.rule, res.summary)
    assert res.verdict is VERDICT[EXPECTED[cid]]
    assert ":" in res.rule and len(res.rule.split(":", 1)[1].strip()) > 10
    if res.verdict is Verdict.REFUTED:
        assert "certificate" in res.evidence or "counterexample" in res.evidence
    else:
        assert "printed" in res.evidence and "corrected" in res.evidence
