"""Rate proofs attached to the privacy claims they imply (verify.claims.sets.proofs.PRIVACY_PROOFS,
@proof_for): proven with the box and the reduction stated, a planted false rate refuted,
the quick profile leaving heavy proofs out, one run shared by the rate claim and the privacy claim."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("flint")

from verify.audit.catalogue import catalogue
from verify.claims import CheckContext, ClaimResult, Verdict
from verify.claims.registry import PROOFS, load_registry
from verify.claims.sets import proofs as P
from verify.serialise import jsonable

TESTED = ClaimResult(Verdict.VERIFIED, "tested: no certified violation", {"audits": 5}, "mpmath 50 digits")


#: every privacy claim's proof takes seconds (004: the symbolic sup proofs; 002 Thm. 8: its rate box)
LIGHT = ["004-Lemma-3.3-privacy", "004-Cor-3.2-privacy", "004-Lemma-3.5-privacy", "002-Thm-8-privacy"]
#: two light obligations standing in for a claim that rests on several (as 004-Cor-3.2-privacy does)
PAIR = P._PrivacyProof(("004-Cor-3.2-scale-sup", "004-Lemma-3.5-rate"), P.COR_REDUCTION, "m >= 1 outputs", "test")


class _Attached(dict):
    """The attached proofs' results, each computed on first use (a test needs only its own)."""

    def __missing__(self, cid: str) -> ClaimResult:
        if cid == "pair":
            res = P._privacy_proof("004-Cor-3.2-privacy", PAIR)(CheckContext(), TESTED)
        else:
            res = PROOFS[cid](CheckContext(), TESTED)
        self[cid] = res
        return res


@pytest.fixture(scope="module")
def attached() -> dict[str, ClaimResult]:
    load_registry()
    return _Attached()


def test_every_privacy_proof_is_attached_to_a_registered_claim():
    reg = load_registry()
    assert set(P.PRIVACY_PROOFS) == {"004-Lemma-3.3-privacy", "004-Cor-3.2-privacy", "004-Lemma-3.5-privacy",
                                     "002-Thm-8-privacy"}
    for cid in P.PRIVACY_PROOFS:
        assert reg.get(cid) is not None and cid in PROOFS


#: 002 Thm. 8's privacy rests on the PolyPlace rate proof, not closed since the prover stopped assuming a
#: Piecewise continuous from a boundary solved for one symbol (tests/verify/proof/test_proof_obligations.py,
#: test_polyplace_rate_equals_eps_exactly): the claim stays VERIFIED (tested). Strict: a prover that
#: closes the rate again fails these marks, which must then be removed.
_THM8_NOT_PROVEN = pytest.mark.xfail(strict=True, reason="002 Thm. 8's rate box is not proven (see above)")


def _light(cid: str) -> object:
    if cid == "004-Lemma-3.3-privacy":  # its rate proof and re-check take minutes: the long run
        return pytest.param(cid, marks=pytest.mark.long)
    if cid == "002-Thm-8-privacy":  # the prover runs to its 120 s limit: the long run
        return pytest.param(cid, marks=[_THM8_NOT_PROVEN, pytest.mark.long])
    return cid


@pytest.mark.parametrize("cid", [*map(_light, LIGHT), "pair"])
def test_privacy_claim_is_proven_with_its_box_and_reduction_and_rechecks(attached, cid):
    res, spec = attached[cid], P.PRIVACY_PROOFS.get(cid, PAIR)
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = jsonable(res.to_json())["evidence"]
    assert ev["proof"]["relies_on"][0] == spec.reduction
    for ob in spec.obligations:  # every rate box is named in the domain, against the claim's full range
        assert ob in ev["domain"]
    assert spec.full_range in ev["domain"]
    if spec.symbolic:  # all gamma, eta > 0 and m >= 1: no box left tested
        assert spec.symbolic in ev["domain"] and "stays tested" not in ev["domain"]
    else:
        assert "stays tested" in ev["domain"]
    assert ev["tested"]["evidence"] == {"audits": 5}
    if cid == "pair":  # the two-obligation spec is not the claim's code: re-checked against its own obligation
        assert P.privacy_expectation("004-Cor-3.2-privacy", PAIR, "test").problems(ev)[0] == []
        return
    rc = P.recheck_evidence(ev, claim_id=cid)
    assert rc.ok, rc.problems


@pytest.mark.parametrize("cid", [*map(_light, LIGHT)])
def test_004_privacy_proofs_rest_on_the_symbolic_sups_and_cover_every_catalogued_mechanism(attached, cid):
    spec = P.PRIVACY_PROOFS[cid]
    assert not P._proof_is_heavy(spec.obligations)
    rows = jsonable(attached[cid].to_json())["evidence"]["catalogue"]
    assert sorted(r["key"] for r in rows) == sorted(e.key for e in catalogue() if e.claim == cid)
    assert all(r["inside"] and r["calibration_rel_diff"] <= P.CALIBRATION_RTOL for r in rows), rows
    if cid == "004-Cor-3.2-privacy":
        assert {r["m"] for r in attached[cid].evidence["catalogue"]} == {2, 3}  # m = 2 proven too
        assert "m = 2: tested" not in P.PRIVACY_PROOFS[cid].full_range


def test_a_catalogued_mechanism_outside_the_domain_keeps_the_claim_tested():
    narrow = P._PrivacyProof(("002-Thm-8-rate",), P.THM8_REDUCTION, "0 < gamma < eps", "test", "", "polyplace")
    rows = P._catalogue_membership("002-Thm-8-privacy", narrow, (P.Fraction(1, 20), P.Fraction(1, 5)))
    outside = [r["key"] for r in rows if not r["inside"]]
    assert outside == ["polyplace-gamma0.5eps", "polyplace-gamma0.9eps"]
    res = P._outside(TESTED, [r for r in rows if not r["inside"]], rows)
    assert res.strength == "tested" and "polyplace-gamma0.9eps" in res.evidence["proof_not_attached"]


def test_an_edited_symbolic_part_is_rejected(attached):
    ev = jsonable(attached["004-Cor-3.2-privacy"].to_json())["evidence"]
    assert P.recheck_evidence(ev, claim_id="004-Cor-3.2-privacy").ok
    other = copy.deepcopy(ev)  # the Lemma 3.5 (Student's t) proof handed in for Cor. 3.2
    other["proof"]["parts"][0]["proof"] = jsonable(attached["004-Lemma-3.5-privacy"].to_json())["evidence"]["proof"]["parts"][0]["proof"]
    assert not P.recheck_evidence(other, claim_id="004-Cor-3.2-privacy").ok
    edited = copy.deepcopy(ev)
    edited["proof"]["parts"][0]["proof"]["domain"] = "p > 0, theta > 0"
    assert P.privacy_expectation("004-Cor-3.2-privacy", PAIR if "obligations" in edited else P.PRIVACY_PROOFS["004-Cor-3.2-privacy"], "test").problems(edited)[0]


@pytest.mark.parametrize("ctl", ["control-GenCauchy-shift-sup-minus-1e-6", "control-StudentT-shift-sup-minus-1e-6"])
def test_a_shift_sup_bound_1e_6_too_small_is_refuted_at_a_certified_point(ctl):
    res = P.check_obligation(ctl, "test", refuted_rule="R-INVALID", planted=True)
    assert res.verdict is Verdict.REFUTED, res.summary
    assert res.evidence["counterexample"]["mp50_confirms"] is True


def test_a_proof_resting_on_two_obligations_rejects_a_dropped_or_edited_part(attached):
    ev = jsonable(attached["pair"].to_json())["evidence"]
    assert [p["obligation"] for p in ev["proof"]["parts"]] == list(PAIR.obligations)
    dropped = copy.deepcopy(ev)
    dropped["proof"]["parts"] = dropped["proof"]["parts"][1:]
    assert P.privacy_expectation("004-Cor-3.2-privacy", PAIR, "test").problems(dropped)[0]
    edited = copy.deepcopy(ev)
    part = edited["proof"]["parts"][1]["proof"]
    part["boxes"] = part["boxes"][1:]
    part["bounds"] = part["bounds"][1:]
    assert P.privacy_expectation("004-Cor-3.2-privacy", PAIR if "obligations" in edited else P.PRIVACY_PROOFS["004-Cor-3.2-privacy"], "test").problems(edited)[0]


def test_a_planted_false_rate_attached_to_a_privacy_claim_is_refuted_not_proven():
    spec = P._PrivacyProof(("control-GenCauchy-tight-eta-plus-1e-6",), P.GP_REDUCTION, "p > 1", "planted")
    res = P._privacy_proof("004-Lemma-3.3-privacy", spec)(CheckContext(), TESTED)
    assert res.verdict is Verdict.REFUTED and res.strength != "proven", res.summary
    assert res.evidence["counterexample"]["mp50_confirms"] is True


def test_quick_profile_leaves_a_heavy_proof_out_and_keeps_the_test():
    heavy = P._PrivacyProof(("004-Lemma-3.3-rate",), P.GP_REDUCTION, "p > 1", "heavy")
    res = P._privacy_proof("004-Lemma-3.3-privacy", heavy)(CheckContext(budget=0.1), TESTED)
    assert res.verdict is Verdict.VERIFIED and res.strength == "tested"
    assert "004-Lemma-3.3-rate-proof" in res.evidence["proof_left_out"] and res.evidence["audits"] == 5
    load_registry()
    # none heavy: proven in --quick too (002 Thm. 8's rate is not proven today: its strict xfail marks above)
    for cid in (c for c in LIGHT if c != "002-Thm-8-privacy"):
        assert PROOFS[cid](CheckContext(budget=0.1), TESTED).strength == "proven"


def test_a_decided_obligation_runs_once_per_process_and_is_returned_as_a_copy():
    first = P.check_obligation("004-Lemma-3.5-rate")
    first.evidence["proof"]["boxes"].clear()  # a caller editing its copy
    second = P.check_obligation("004-Lemma-3.5-rate")
    assert second.verdict is Verdict.VERIFIED and second.evidence["proof"]["boxes"]
    assert P.recheck_evidence(second.evidence, claim_id="004-Lemma-3.5-rate-proof").ok
