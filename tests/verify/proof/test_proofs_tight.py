"""Proofs attached to the tight-calibration claims (verify.claims.sets.proofs_tight)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

pytest.importorskip("flint")

from smoothsens_core import calibration as cal  # noqa: E402
from verify.claims import CheckContext  # noqa: E402
from verify.claims.registry import PROOFS, ClaimResult, Verdict, load_registry  # noqa: E402
from verify.claims.sets import proofs_tight as T  # noqa: E402
from verify.claims.sets.proofs import describe_recheck, recheck_evidence  # noqa: E402
from verify.proof.record import method_named, registered_methods  # noqa: E402
from verify.serialise import jsonable  # noqa: E402


def _tested(rows: list[dict]) -> ClaimResult:
    """A tested VERIFIED result with the evidence rows the proof reads (the test's GP/DP eta_tight)."""
    return ClaimResult(Verdict.VERIFIED, "tested ok", {"calibrations": rows, "grid_points": 12}, "float")


def _gp_rows(cid: str) -> list[dict]:
    """The GP rows of the claim's test at the default budget: eta_tight by the core's tight_calibration."""
    spec = T.TIGHT_PROOFS[cid]
    rows = []
    for at in spec.attack(True):
        c = at["printed_cal"]
        tc = cal.tight_calibration(c, "euclidean")
        rows.append({"metric": "gp", "gamma": c.gamma, "eps": c.eps, "eta_printed": c.eta, "eta_tight": tc.eta_tight,
                     "already_tight": tc.already_tight})
    return rows


@pytest.fixture(scope="module")
def st_proof() -> ClaimResult:
    rows = _gp_rows("004-Lemma-3.5-tight")
    c = T.TIGHT_PROOFS["004-Lemma-3.5-tight"].attack(True)[0]["printed_cal"]  # nu = 3, gamma = 1/9
    tc = cal.tight_calibration(c, "hamming")
    rows.append({"metric": "dp", "gamma": c.gamma, "eps": c.eps, "eta_printed": c.eta, "eta_tight": tc.eta_tight,
                 "already_tight": tc.already_tight})
    res = T.prove("004-Lemma-3.5-tight", CheckContext(), _tested(rows))
    return ClaimResult(res.verdict, res.summary, json.loads(json.dumps(jsonable(res.evidence))), res.precision,
                       res.seconds, res.rule, res.strength)


def test_the_three_tight_claims_carry_a_proof_and_its_rechecker_is_registered():
    reg = load_registry()
    for cid in ("004-Lemma-3.5-tight", "004-Lemma-3.3-tight", "002-Thm-8-tight"):
        assert cid in reg and cid in PROOFS and cid in T.TIGHT_PROOFS
    # the method is registered by its class, defined next to the proof it re-checks
    assert "tight-calibration" in registered_methods()
    assert type(method_named("tight-calibration")) is T.TightCalibrationMethod


def test_student_t_tight_proven_not_tight_on_the_subset_and_the_gp_calibrations_valid(st_proof):
    res = st_proof
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.evidence.get("proof_not_attached")
    proof = res.evidence["proof"]
    roles = [p["role"] for p in proof["parts"]]
    assert roles == ["symbolic", "not-tight", "not-tight", "not-tight", "tight-valid", "tight-valid"]
    for p in proof["parts"][1:]:
        enc = p["enclosure"]
        lo, up, thr = Fraction(enc["lower"]), Fraction(enc["upper"]), Fraction(p["threshold"])
        assert lo <= up
        if p["role"] == "not-tight":
            assert up < thr
        else:  # the tight calibration: valid, and the 1% shave invalid
            assert up <= thr and lo > Fraction(99, 100) * thr and up - lo <= T.WIDTH_VALID * 2
    # DP: stated as tested; the rate at eta_tight(DP) exceeds eps (a ball lower end), so it cannot prove it
    assert "DP (d = 1) not proven" in res.evidence["domain"]
    (dp,) = res.evidence["dp"]
    assert dp["dp_rate_exceeds_eps"] is True and dp["dp_proven_by_rate"] is False
    assert dp["rate_ball_at_gp_argmax"][0] > dp["eps"]
    assert res.evidence["tested"]["summary"] == "tested ok"


def test_the_record_rechecks_from_its_json_alone(st_proof):
    rc = recheck_evidence(st_proof.evidence, claim_id="004-Lemma-3.5-tight")  # recomputes eta_tight with the core (no tested values)
    assert rc.ok, rc.problems
    assert describe_recheck("004-Lemma-3.5-tight", rc).startswith("proof re-checked")


@pytest.mark.parametrize("edit,why", [
    (lambda pr: pr["parts"][1].__setitem__("threshold", str(Fraction(pr["parts"][1]["threshold"]) * 2)), "not the claim"),
    (lambda pr: pr["parts"][1]["enclosure"].__setitem__("upper", "1/2"), ""),
    (lambda pr: pr["parts"][4]["rebuild"].__setitem__("eta1", pr["parts"][4]["rebuild"]["eta1"] * 0.999), "not the claim"),
    (lambda pr: pr["parts"][4]["enclosure"].__setitem__("lower", "1"), "not attained"),
    (lambda pr: pr["parts"][0]["proof"].__setitem__("claim", "004-Lemma-3.3-epsilon"), "symbolic part"),
    (lambda pr: pr["parts"].pop(2), "not the claim"),
    (lambda pr: pr.__setitem__("scale", "full"), "not the claim"),
])
def test_an_edited_record_is_rejected(st_proof, edit, why):
    ev = copy.deepcopy(st_proof.evidence)
    edit(ev["proof"])
    rc = recheck_evidence(ev, claim_id="004-Lemma-3.5-tight")
    assert not rc.ok
    assert any(why in q for q in rc.problems), rc.problems


def test_a_too_large_tight_eta_does_not_close_and_the_point_is_named():
    """Control: the test's GP eta_tight raised by 1e-4 relative makes the exact rate exceed eps at that
    calibration; the proof must not close (the tested result stands, naming the point)."""
    rows = _gp_rows("004-Lemma-3.5-tight")
    rows[0]["eta_tight"] *= 1 + 1e-4
    tested = _tested(rows)
    res = T.prove("004-Lemma-3.5-tight", CheckContext(), tested)
    assert res.strength == "tested" and res.verdict is Verdict.VERIFIED
    assert "tight-valid at (nu=3, gamma=0.111111" in res.evidence["proof_not_attached"]
    assert "not proven valid" in res.evidence["proof_not_attached"]


def test_the_quick_profile_leaves_the_proof_out():
    tested = _tested([])
    res = T.prove("004-Lemma-3.3-tight", CheckContext(budget=0.1), tested)
    assert res.strength == "tested" and "proof_left_out" in res.evidence and "proof" not in res.evidence


def test_polyplace_tight_rate_is_eps_exactly_and_the_enclosure_contains_it():
    pp = cal.calibrate_polyplace(1.0, 1 / 9)
    rows = [{"metric": "gp", "gamma": pp.gamma, "eps": 1.0, "eta_printed": pp.eta, "eta_tight": pp.eta,
             "already_tight": True},
            {"metric": "dp", "gamma": pp.gamma, "eps": 1.0, "eta_printed": pp.eta, "eta_tight": pp.eta,
             "already_tight": True}]
    res = T.prove("002-Thm-8-tight", CheckContext(), _tested(rows))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.evidence.get("proof_not_attached")
    proof = res.evidence["proof"]
    assert [p["role"] for p in proof["parts"]] == ["symbolic", "tight-eps"]
    assert proof["parts"][0]["proof"]["claim"] == "002-Lemma-12"
    (ex,) = proof["exact"]
    assert ex["valid"] and ex["shave_invalid"] and ex["eta1_is_gamma"]
    assert res.evidence["dp"][0]["dp_proven_by_rate"] is True
    ev = json.loads(json.dumps(jsonable(res.evidence)))
    assert recheck_evidence(ev, claim_id="002-Thm-8-tight").ok
    ev["proof"]["exact"][0]["rate"] = "2"
    assert not recheck_evidence(ev, claim_id="002-Thm-8-tight").ok


def test_an_enclosure_that_does_not_close_leaves_the_claim_tested_naming_the_point(monkeypatch):
    from verify.proof import obligations as O

    def no_close(*args, **kwargs):  # noqa: ANN002, ANN003
        raise RuntimeError("enclose_sup: budget of 20000 boxes exhausted")

    monkeypatch.setattr(O, "tight_enclosure", no_close)
    res = T.prove("004-Lemma-3.5-tight", CheckContext(), _tested([]))
    assert res.strength == "tested" and "proof" not in res.evidence
    assert res.evidence["proof_not_attached"].startswith("not-tight at (nu=1.5, gamma=0.01, eta1=1)")
