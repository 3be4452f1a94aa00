"""A user's proofs (examples/my_proofs.py): proven, partly proven, re-checked; edited and grafted records rejected.

The claim file states each obligation in code (``obligation_for`` + ``interval_obligation``); the re-checker
rebuilds it from the file (``recheck_claim``), so an edited certificate, a proof grafted onto another claim, a
record of an unregistered method, or a partly proven record relabelled "proven" is rejected, never proven.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flint")

from verify.claims import REGISTRY, CheckContext
from verify.claims.sets.proofs import recheck_claim
from verify.claims.user import load_claim_file
from verify.proof import ProofRecord

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
IDS = ("user-ln1p-lower-bound", "user-cauchy-rate", "user-cauchy-mechanism")


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    """Each claim of the file run once (budget 0.1), as its JSON record with the registry's statement."""
    load_claim_file(EXAMPLES / "my_proofs.py")
    out = {}
    for cid in IDS:
        c = REGISTRY.get(cid)
        out[cid] = {**json.loads(json.dumps(c.run(CheckContext(budget=0.1)).to_json())), "statement": c.statement}
    return out


def test_the_users_inequality_and_rate_are_proven_and_the_mechanism_partly(records):
    got = {cid: (r["verdict"], r["strength"], r["obligations"]) for cid, r in records.items()}
    assert got == {
        "user-ln1p-lower-bound": ("VERIFIED", "proven", {"proven": ["statement"], "tested": []}),
        "user-cauchy-rate": ("VERIFIED", "proven", {"proven": ["statement"], "tested": []}),
        "user-cauchy-mechanism": ("VERIFIED", "partly proven", {"proven": ["rate"], "tested": ["bstar"]}),
    }


def test_the_independent_re_checker_accepts_the_users_proofs(records):
    """Claim.run already re-checks a user claim's proof before calling it proven (the rate records were accepted
    there: they are proven above); the re-check from the JSON record accepts it again."""
    rc = recheck_claim("user-ln1p-lower-bound", records["user-ln1p-lower-bound"])
    assert rc.ok and rc.n_boxes >= 1, rc.problems


def test_an_edited_user_record_is_rejected(records):
    rec = copy.deepcopy(records["user-ln1p-lower-bound"])
    rec["evidence"]["proof"]["bounds"] = ["1"] * len(rec["evidence"]["proof"]["bounds"])  # bound above F <= 0
    assert not recheck_claim("user-ln1p-lower-bound", rec).ok
    rec = copy.deepcopy(records["user-ln1p-lower-bound"])
    rec["evidence"]["domain"] = "x in [0, 2]"
    rc = recheck_claim("user-ln1p-lower-bound", rec)
    assert not rc.ok and any("'domain'" in p for p in rc.problems)
    # the record is a ProofRecord: what it displays of what it proves is checked against the code too
    proof = records["user-ln1p-lower-bound"]["evidence"]["proof"]
    assert ProofRecord.from_json(proof).to_json() == proof
    for key, value in (("proven_domain", {"variables": [["x", "0", "2", False, False]]}), ("proves", ["bstar"]),
                       ("statement", "ln(1 + x) >= x for every x in [0, 1]")):
        rec = copy.deepcopy(records["user-ln1p-lower-bound"])
        rec["evidence"]["proof"][key] = value
        rc = recheck_claim("user-ln1p-lower-bound", rec)
        assert not rc.ok and any(f"'proof.{key}'" in p for p in rc.problems), (key, rc.problems)


def test_a_user_proof_grafted_onto_another_claim_is_rejected(records):
    graft = copy.deepcopy(records["user-cauchy-rate"])
    graft["evidence"]["proof"] = copy.deepcopy(records["user-ln1p-lower-bound"]["evidence"]["proof"])
    rc = recheck_claim("user-cauchy-rate", graft)
    assert not rc.ok and any("proof.objective" in p or "proof.domain" in p for p in rc.problems)
    other = copy.deepcopy(records["user-ln1p-lower-bound"])  # the whole record, offered for another claim
    assert not recheck_claim("user-cauchy-rate", other).ok


def test_a_record_of_an_unregistered_method_is_never_proven(records):
    rec = copy.deepcopy(records["user-ln1p-lower-bound"])
    rec["evidence"]["proof"]["method"] = "my-own-method"
    rc = recheck_claim("user-ln1p-lower-bound", rec)
    assert not rc.ok and any("no re-checker is registered" in p for p in rc.problems)


def test_a_partly_proven_record_relabelled_proven_is_rejected(records):
    rec = copy.deepcopy(records["user-cauchy-mechanism"])
    rec["strength"] = "proven"
    rec["evidence"]["coverage"] = {"proven": ["rate", "bstar"], "tested": []}
    rc = recheck_claim("user-cauchy-mechanism", rec)
    assert not rc.ok
    assert any("supports VERIFIED (partly proven) only" in p for p in rc.problems)
    assert any("'coverage'" in p for p in rc.problems)


@pytest.mark.long
def test_cli_audit_of_the_users_proofs_and_recheck_from_the_report(tmp_path, capsys):
    from verify.cli import main  # noqa: PLC0415 - the CLI is needed by this long test only

    out = tmp_path / "out"
    assert main(["audit", "--claims", str(EXAMPLES / "my_proofs.py"), "--no-progress", "--out", str(out),
                 "--recheck-proof"]) == 0
    text = capsys.readouterr().out
    assert "3 VERIFIED (2 proven, 1 partly proven, 0 tested)" in text
    assert "[proven: rate; tested: bstar]" in text
    assert all(f"{cid}: proof re-checked" in text for cid in IDS)
    report = out / "verdicts.json"
    assert main(["audit", "--claims", str(EXAMPLES / "my_proofs.py"), "--recheck-proof", str(report)]) == 0
