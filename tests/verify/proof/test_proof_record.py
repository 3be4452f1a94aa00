"""Proofs as data (verify.proof.record): the method registry, Domain, ProofRecord; obligations and "partly proven"."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from verify.claims.registry import (OBLIGATIONS, PROOFS, CheckContext, CheckKind, Claim, ClaimResult,
                                    ExpectedObligation, Verdict, obligation_coverage, obligation_for, proof_for,
                                    with_proof)
from verify.proof import RecheckResult
from verify.proof.record import (Domain, ProofRecord, Range, is_registered, method_named, register_method,
                                 registered_methods)


@register_method
class _AcceptAll:
    """A test method "test-accept" whose re-checker accepts every record (the obligation decides)."""

    name = "test-accept"

    def recheck(self, proof, claim_id):  # type: ignore[no-untyped-def]
        return RecheckResult(True, [], 1)

    def describe(self, proof):  # type: ignore[no-untyped-def]
        return "test"


def test_the_package_registers_every_proof_method_by_class():
    from verify.claims.sets import (proofs_approx, proofs_closed_forms, proofs_composed,  # noqa: F401, PLC0415
                                    proofs_def8, proofs_privacy_more, proofs_tight)
    from verify.proof import kde_def8, kde_series, ramp_def8, recheck, symbolic  # noqa: F401, PLC0415 - they register methods

    want = {"symbolic", "ramp-def8", "kde-def8", "kde-series", "interval", "convex-switching", "def8-smoothness",
            "closed-form-bstar", "tight-calibration", "composed-privacy", "privacy-chain", "approx-chain"}
    assert want <= set(registered_methods())
    assert type(method_named("symbolic")).__name__ == "SymbolicMethod"


def test_register_method_refuses_a_nameless_method_a_method_without_recheck_and_a_second_class():
    with pytest.raises(ValueError, match="non-empty string 'name'"):
        register_method(type("NoName", (), {"recheck": lambda s, p, c: None, "describe": lambda s, p: ""}))
    with pytest.raises(ValueError, match="no recheck"):
        register_method(type("NoRecheck", (), {"name": "test-no-recheck", "describe": lambda s, p: ""}))
    with pytest.raises(ValueError, match="already registered"):
        register_method(type("Other", (), {"name": "symbolic", "recheck": lambda s, p, c: None,
                                           "describe": lambda s, p: ""}))
    with pytest.raises(ValueError, match="no re-checker is registered for proof method 'nope'"):
        method_named("nope")
    assert not is_registered("nope")


def test_interval_method_without_the_rebuilt_objective_rejects_the_record():
    pytest.importorskip("flint")
    rc = method_named("interval").recheck({"boxes": [], "bounds": []}, "user-x")
    assert not rc.ok and "objective" in rc.problems[0]


def test_range_and_domain_contain_points_exactly():
    r = Range("g", Fraction(1, 10), Fraction(1, 2), lo_open=True)
    assert r.contains(0.5) == (True, "")
    ok, why = r.contains(0.1)  # the binary 0.1 is above 1/10 ...
    assert ok
    assert not r.contains(Fraction(1, 10))[0]  # ... 1/10 itself is outside the open end
    assert "outside 1/10 < g <= 1/2" in r.contains(0.6)[1]
    d = Domain(variables=(Range("z", 0, math.inf),), parameters=(r,))
    assert d.contains({"z": 5, "g": 0.3}) == (True, [])
    ok, why = d.contains({"z": -1})
    assert not ok and any("z = -1" in w for w in why) and any("g is not given" in w for w in why)
    with pytest.raises(ValueError, match="lo must be <= hi"):
        Range("x", 2, 1)


def test_a_mechanism_domain_asks_the_noise_family_not_its_class_name():
    from smoothsens_core.calibration import calibrate_polyplace, calibrate_student_t  # noqa: PLC0415 - this test only

    d = Domain(family="polyplace", noise=(Range("s", 1, 1),), parameters=(Range("eta", 0, math.inf, lo_open=True),))
    pp = calibrate_polyplace(1.0, 0.1).mechanism()
    assert d.contains(pp) == (True, [])
    ok, why = d.contains(calibrate_student_t(1.0, 0.1, nu=3).mechanism())
    assert not ok and why == ["noise family 'student_t' is not 'polyplace'"]


def test_proof_record_round_trips_and_reads_a_record_written_before_it():
    rec = ProofRecord("interval", "x^2 <= 1", Domain(variables=(Range("x", 0, 1),)),
                      {"boxes": [[["0", "1"]]], "bounds": ["0"], "domain": [["0", "1"]]}, objective="x^2 - 1",
                      threshold="0", proves=("rate",))
    js = rec.to_json()
    assert js["method"] == "interval" and js["domain"] == [["0", "1"]] and js["proves"] == ["rate"]
    assert ProofRecord.from_json(js) == rec
    legacy = {"status": "proven", "objective": "F", "domain": [["0", "1/2"]], "threshold": "0", "boxes": [],
              "bounds": []}
    old = ProofRecord.from_json(legacy)
    assert old.method == "interval" and old.domain.box() == [(0, Fraction(1, 2))] and old.threshold == "0"
    assert {k: v for k, v in old.to_json().items() if k not in ("method", "proven_domain")} == legacy
    with pytest.raises(ValueError, match="must not carry the fields"):
        ProofRecord("interval", certificate={"proves": ["x"]})
    assert ProofRecord("unregistered-x").describe().endswith("(no re-checker registered: not a proof)")


# ---- obligations: "proven" only when the proofs cover every obligation -----------------------------------
def _ob(cid: str, proves: tuple[str, ...] = ()) -> ExpectedObligation:
    return ExpectedObligation(cid, "test-accept", {"domain": "p > 1"}, lambda ev: RecheckResult(True, [], 1),
                              proves=proves)


@pytest.fixture
def declared():
    added: list[str] = []

    def declare(cid: str, ob: ExpectedObligation) -> None:
        obligation_for(cid)(lambda scale: ob)
        proof_for(cid)(lambda ctx, t: with_proof(t, claim_obligation=ob, summary="proven", domain="p > 1",
                                                 proof={"method": "test-accept"}, precision="exact"))
        added.append(cid)

    yield declare
    for cid in added:
        PROOFS.pop(cid, None)
        OBLIGATIONS.pop(cid, None)


def _run(cid: str, obligations: tuple[str, ...]) -> ClaimResult:
    c = Claim(id=cid, seed="004", section="t", statement="s", kind=CheckKind.NUMERIC, obligations=obligations,
              check=lambda ctx: ClaimResult(Verdict.VERIFIED, "tested", {"n": 1}, "float"))
    return c.run(CheckContext())


def test_a_proof_covering_some_obligations_is_partly_proven_and_says_which(declared):
    declared("004-Test-partly-a", _ob("004-Test-partly-a", proves=("rate",)))
    res = _run("004-Test-partly-a", ("rate", "bstar"))
    assert (res.verdict, res.strength) == (Verdict.VERIFIED, "partly proven")
    assert res.obligations == {"proven": ["rate"], "tested": ["bstar"]}
    assert res.to_json()["obligations"] == {"proven": ["rate"], "tested": ["bstar"]}


def test_a_proof_covering_every_obligation_is_proven(declared):
    declared("004-Test-partly-b", _ob("004-Test-partly-b", proves=("rate", "bstar")))
    res = _run("004-Test-partly-b", ("rate", "bstar"))
    assert res.strength == "proven" and res.obligations == {"proven": ["rate", "bstar"], "tested": []}
    declared("004-Test-partly-c", _ob("004-Test-partly-c"))  # covers the whole statement: the default
    assert _run("004-Test-partly-c", ()).obligations == {"proven": ["statement"], "tested": []}


def test_a_proof_of_an_obligation_the_claim_does_not_have_is_never_proven(declared):
    declared("004-Test-partly-d", _ob("004-Test-partly-d", proves=("rate",)))
    res = _run("004-Test-partly-d", ())  # the claim needs its whole statement; the proof covers "rate" only
    assert res.verdict is Verdict.INCONCLUSIVE or res.strength == "tested"
    assert "not obligations of claim" in (res.summary + str(res.evidence))
    proven, tested, problems = obligation_coverage(("a", "b"), _ob("x", proves=("b",)))
    assert (proven, tested, problems) == (["b"], ["a"], [])


def test_claim_result_refuses_partly_proven_without_a_proof():
    with pytest.raises(ValueError, match="needs verdict VERIFIED"):
        ClaimResult(Verdict.VERIFIED, "s", {}, strength="partly proven")
    with pytest.raises(ValueError, match="distinct non-empty names"):
        Claim(id="004-x", seed="004", section="", statement="", kind=CheckKind.NUMERIC, check=lambda c: None,
              obligations=("a", "a"))


def test_a_symbolic_spec_carries_its_witness_function_and_refuses_a_second_or_an_unknown_spec():
    from verify.claims.sets import proofs_symbolic  # noqa: F401, PLC0415 - registers the specs' witnesses
    from verify.proof import symbolic as S  # noqa: PLC0415

    spec = S.SPECS["004-Claim-3.4"]
    assert spec.derive is not None
    with pytest.raises(ValueError, match="already has its witness function"):
        S.witnesses_for("004-Claim-3.4")(lambda: ({}, {}))
    with pytest.raises(ValueError, match="no symbolic spec 'nope'"):
        S.witnesses_for("nope")(lambda: ({}, {}))
    assert "004-Claim-3.4" not in S.specs_without_witnesses()
