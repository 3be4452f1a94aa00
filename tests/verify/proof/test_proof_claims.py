"""Proof claims: VERIFIED (proven) carries a proof that re-checks, an edited proof is
rejected by ``smoothsens audit --recheck-proof``, planted controls are REFUTED, and an undecided
proof is INCONCLUSIVE, never VERIFIED."""

from __future__ import annotations

import copy
import json

import pytest

pytest.importorskip("flint")

from verify.claims import CheckContext, ClaimResult, Verdict, load_registry  # noqa: E402
from verify.claims.runner import AuditEntry, AuditReport  # noqa: E402
from verify.claims.sets import proofs as P  # noqa: E402
from verify.cli import main as cli_main  # noqa: E402
from verify.serialise import jsonable  # noqa: E402

PROVEN_ID = "004-Lemma-3.5-rate-proof"  # ~2 s


@pytest.fixture(scope="module")
def proven_run(tmp_path_factory):
    """One CLI run of a proof claim with --recheck-proof; its JSON report."""
    out = tmp_path_factory.mktemp("proof")
    status = cli_main(["audit", "--claim", PROVEN_ID, "--recheck-proof", "--no-progress", "--out", str(out)])
    return status, out / "verdicts.json"


def _entry(path, cid=PROVEN_ID):
    data = json.loads(path.read_text(encoding="utf-8"))
    return data, next(c for c in data["claims"] if c["id"] == cid)


def test_proven_claim_json_rechecks(proven_run, capsys):
    status, path = proven_run
    assert status == 0
    data, c = _entry(path)
    assert c["verdict"] == "VERIFIED" and c["strength"] == "proven"
    ev = c["evidence"]
    assert ev["domain"] == "z in [0, inf), nu in [3, 4], gamma/eps in [1/50, 1/10]"
    assert ev["proof"]["status"] == "proven" and len(ev["proof"]["boxes"]) == ev["n_boxes"] > 1
    assert all(float(b.split("/")[0]) <= 0 for b in ev["proof"]["bounds"])  # every certified bound <= 0
    rc = P.recheck_evidence(ev, claim_id=PROVEN_ID)  # from the JSON alone: the objective is rebuilt from the derivations
    assert rc.ok, rc.problems
    assert data["totals"]["verified_proven"] == 1 and data["totals"]["verified_tested"] == 0
    # --recheck-proof PATH re-checks the file's proof without re-running
    capsys.readouterr()
    assert cli_main(["audit", "--claim", PROVEN_ID, "--recheck-proof", str(path)]) == 0
    assert "proof re-checked: " in capsys.readouterr().out


@pytest.mark.parametrize("edit", ["remove-box", "lower-bound", "threshold", "domain"])
def test_edited_proof_is_rejected_by_recheck_proof(proven_run, tmp_path, capsys, edit):
    _, path = proven_run
    data, c = _entry(path)
    data = copy.deepcopy(data)
    c = next(x for x in data["claims"] if x["id"] == PROVEN_ID)
    proof = c["evidence"]["proof"]
    if edit == "remove-box":
        k = len(proof["boxes"]) // 2
        del proof["boxes"][k], proof["bounds"][k]
    elif edit == "lower-bound":  # a claimed bound far below what F reaches on its box
        proof["bounds"][0] = "-1000"
    elif edit == "threshold":  # "F <= 1" proves nothing about the claim's "F <= 0"
        proof["threshold"] = "1"
    else:  # a smaller domain, tiled by the boxes of its first half
        proof["domain"][1] = ["3", "7/2"]
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["audit", "--claim", PROVEN_ID, "--recheck-proof", str(bad)]) == 1
    assert "proof REJECTED" in capsys.readouterr().out


def test_planted_controls_are_refuted_with_a_certified_point():
    reg = load_registry()
    planted = [c for c in reg if "proof" in c.tags and "planted" in c.tags]
    assert {c.id for c in planted} == {p[1] for p in P.PLANTED} and len(planted) == 4
    for c in planted:
        assert "-planted-" in c.id
        res = c.run(CheckContext(budget=0.1))
        assert res.verdict is Verdict.REFUTED, (c.id, res.summary)
        cx = res.evidence["counterexample"]
        assert float(cx["lower"].split("/")[0]) > 0 and cx["mp50_confirms"] is True
        assert float(cx["mp50"]) > 0 and len(cx["mp50"].replace("-", "").replace(".", "")) >= 40  # 50 digits
        assert "proof" not in res.evidence and res.to_json()["strength"] is None


def test_undecided_obligation_is_inconclusive_never_verified():
    # 004 Lemma 3.3 needs hundreds of boxes on its test box: a budget of 5 cannot decide it
    res = P.check_obligation("004-Lemma-3.3-rate", "test", max_boxes=5)
    assert res.verdict is Verdict.INCONCLUSIVE and res.strength == "tested"
    assert res.summary.startswith("undecided within budget 5 boxes / 120 s")
    assert "proof" not in res.evidence and res.rule.startswith("R-UNDEC")
    # a proof that the re-checker rejects is INCONCLUSIVE too: the claim's threshold is checked
    ev = dict(P.check_obligation("004-Lemma-4.1-Def-8-(2)-gamma[1,2]", "test").evidence)
    cid = "004-Lemma-4.1-def8-proof-gamma-high"
    ev["proof"] = dict(ev["proof"], threshold="1/2")
    assert not P.recheck_evidence(ev, claim_id=cid).ok


def test_proven_needs_a_proof_and_verified():
    with pytest.raises(ValueError, match="strength"):
        ClaimResult(Verdict.VERIFIED, "x", {}, strength="proven")
    with pytest.raises(ValueError, match="strength"):
        ClaimResult(Verdict.REFUTED, "x", {"proof": {}, "domain": "d"}, strength="proven")
    with pytest.raises(ValueError, match="strength"):
        ClaimResult(Verdict.VERIFIED, "x", {}, strength="certain")


def test_tight_enclosure_claim_is_proven_and_agrees_with_the_core():
    res = load_registry().get("004-Lemma-3.3-tight-enclosure").run(CheckContext(budget=0.1))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = jsonable(res.evidence)
    enc = ev["enclosure"]
    assert enc["width"] <= 1e-9 and ev["attained"]["ok"]
    assert ev["core"]["tight_epsilon_lower"] <= enc["upper_float"] and enc["lower_float"] <= ev["core"]["tight_epsilon_upper"]
    assert P.recheck_evidence(ev, claim_id="004-Lemma-3.3-tight-enclosure").ok
    ev["enclosure"] = dict(enc, upper=str(float(enc["lower_float"])))  # a narrower stated upper end is refused
    assert not P.recheck_evidence(ev, claim_id="004-Lemma-3.3-tight-enclosure").ok


def test_report_counts_proven_and_tested_apart():
    from verify.claims import Claim, CheckKind

    def mk(cid):
        return Claim(cid, "004", "s", "t", CheckKind.NUMERIC, lambda ctx: None)

    entries = [AuditEntry(mk("004-A-1"), ClaimResult(Verdict.VERIFIED, "t")),
               AuditEntry(mk("004-A-2"), ClaimResult(Verdict.VERIFIED, "p", {"proof": {}, "domain": "d"},
                                                     strength="proven")),
               AuditEntry(mk("004-A-3"), ClaimResult(Verdict.INCONCLUSIVE, "u"))]
    rep = AuditReport(entries, CheckContext())
    t = rep.totals()
    assert (t["VERIFIED"], t["verified_proven"], t["verified_tested"]) == (2, 1, 1)
    assert "2 VERIFIED (1 proven, 1 tested)" in rep.totals_line()
    assert "VERIFIED (proven)" in rep.table() and "VERIFIED (tested)" in rep.table()
    md = rep.to_markdown()
    assert "| VERIFIED (proven: " in md and "| VERIFIED (tested: " in md
