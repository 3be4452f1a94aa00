"""Proofs attached to claims (verify.claims.registry.proof_for / with_proof)."""

from __future__ import annotations

import pytest

from verify.claims.registry import (OBLIGATIONS, PROOFS, CheckContext, CheckKind, Claim, ClaimResult,
                                    ExpectedObligation, Verdict, obligation_for, proof_for, with_proof)
from verify.proof import RecheckResult
from verify.proof.record import register_method


@register_method
class _MethodX:
    """A test proof method "x" whose re-checker accepts every record (the obligation's own re-check decides)."""

    name = "x"

    def recheck(self, proof, claim_id):  # type: ignore[no-untyped-def]
        return RecheckResult(True, [], 1)

    def describe(self, proof):  # type: ignore[no-untyped-def]
        return "x"


def _obligation(cid: str) -> ExpectedObligation:
    """A proof of method "x" on the domain "p > 1" whose certificate always re-checks (one step)."""
    return ExpectedObligation(cid, "x", {"domain": "p > 1"}, lambda ev: RecheckResult(True, [], 1))


def _claim(cid: str, verdict: Verdict) -> Claim:
    rule = {Verdict.REFUTED: "R-FALSE: planted"}.get(verdict, "")
    return Claim(id=cid, seed="004", section="test", statement="s", kind=CheckKind.SYMBOLIC,
                 check=lambda ctx: ClaimResult(verdict, "tested ok", {"n": 3}, "float", rule=rule))


@pytest.fixture
def attached():
    added: list[str] = []

    def attach(cid: str, fn):  # type: ignore[no-untyped-def]
        proof_for(cid)(fn)
        added.append(cid)

    yield attach
    for cid in added:
        PROOFS.pop(cid, None)
        OBLIGATIONS.pop(cid, None)


def test_a_proof_upgrades_a_tested_verified_claim_and_keeps_the_test(attached):
    obligation_for("004-Test-proof-a")(lambda scale: _obligation("004-Test-proof-a"))
    attached("004-Test-proof-a", lambda ctx, t: with_proof(t, claim_obligation=_obligation("004-Test-proof-a"),
                                                          summary="proven", proof={"method": "x"},
                                                          domain="p > 1", precision="exact"))
    res = _claim("004-Test-proof-a", Verdict.VERIFIED).run(CheckContext())
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven"
    assert res.evidence["domain"] == "p > 1" and res.evidence["tested"]["evidence"] == {"n": 3}


def test_a_proof_never_runs_on_a_refuted_claim(attached):
    calls = []
    attached("004-Test-proof-b", lambda ctx, t: calls.append(t) or t)
    res = _claim("004-Test-proof-b", Verdict.REFUTED).run(CheckContext())
    assert res.verdict is Verdict.REFUTED and calls == []


def test_an_exception_in_a_proof_is_an_internal_error_not_a_tested_pass(attached):
    def broken(ctx, t):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    attached("004-Test-proof-c", broken)
    res = _claim("004-Test-proof-c", Verdict.VERIFIED).run(CheckContext())
    assert res.verdict is Verdict.INCONCLUSIVE and res.evidence["internal_error"] is True


def test_with_proof_refuses_an_unverified_result_and_a_second_proof(attached):
    with pytest.raises(ValueError, match="VERIFIED"):
        with_proof(ClaimResult(Verdict.INCONCLUSIVE, "?"), claim_obligation=_obligation("004-Test-proof-d"),
                   summary="", proof={}, domain="", precision="")
    attached("004-Test-proof-d", lambda ctx, t: t)
    with pytest.raises(ValueError, match="already attached"):
        proof_for("004-Test-proof-d")(lambda ctx, t: t)


def test_a_proof_without_an_obligation_in_code_or_of_another_domain_is_not_proven(attached):
    """with_proof refuses a record that does not carry the claim's obligation (the test stands); a result stated
    proven for a claim with no obligation in code is INCONCLUSIVE."""
    t = ClaimResult(Verdict.VERIFIED, "tested ok", {"n": 3}, "float")
    res = with_proof(t, claim_obligation=_obligation("004-Test-proof-e"), summary="proven", proof={"method": "x"},
                     domain="p > 2", precision="exact")
    assert res.strength == "tested" and "'domain'" in res.evidence["proof_not_attached"]
    res = with_proof(t, claim_obligation=_obligation("004-Test-proof-e"), summary="proven", proof={"method": "y"},
                     domain="p > 1", precision="exact")
    assert res.strength == "tested" and "'method'" in res.evidence["proof_not_attached"]
    attached("004-Test-proof-f", lambda ctx, t: ClaimResult(Verdict.VERIFIED, "proven", {"proof": {"method": "x"},
                                                                                         "domain": "p > 1"},
                                                            "exact", strength="proven"))
    res = _claim("004-Test-proof-f", Verdict.VERIFIED).run(CheckContext())
    assert res.verdict is Verdict.INCONCLUSIVE and "no proof obligation" in res.summary


def test_a_record_whose_method_has_no_registered_recheck_is_never_proven(attached):
    """A proof method nobody registered (no independent re-checker): with_proof refuses it, and a result stated
    proven with it is INCONCLUSIVE even when the claim's obligation names that method."""
    ob = ExpectedObligation("004-Test-proof-g", "unregistered-method", {"domain": "p > 1"},
                            lambda ev: RecheckResult(True, [], 1))
    t = ClaimResult(Verdict.VERIFIED, "tested ok", {"n": 3}, "float")
    res = with_proof(t, claim_obligation=ob, summary="proven", proof={"method": "unregistered-method"},
                     domain="p > 1", precision="exact")
    assert res.strength == "tested" and "no re-checker is registered" in res.evidence["proof_not_attached"]
    obligation_for("004-Test-proof-g")(lambda scale: ob)
    attached("004-Test-proof-g", lambda ctx, t: ClaimResult(Verdict.VERIFIED, "proven", {
        "proof": {"method": "unregistered-method"}, "domain": "p > 1"}, "exact", strength="proven"))
    res = _claim("004-Test-proof-g", Verdict.VERIFIED).run(CheckContext())
    assert res.verdict is Verdict.INCONCLUSIVE and "no re-checker is registered" in res.summary
