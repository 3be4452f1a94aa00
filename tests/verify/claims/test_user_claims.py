"""User claims: ``smoothsens audit --claims FILE`` runs a user's @claim functions (seed "user")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verify.claims import REGISTRY, USER_SEED, CheckKind, Claim, ClaimResult, Registry, Verdict
from verify.claims.user import load_claim_file, load_entry_point_claims

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_user_seed_is_accepted_and_other_seeds_are_not():
    reg = Registry()
    ok = Claim("user-x", USER_SEED, "f.py", "s", CheckKind.NUMERIC, lambda ctx: ClaimResult(Verdict.VERIFIED, "ok"))
    reg.add(ok)
    assert ok.source_file == ""
    with pytest.raises(ValueError, match="seed must be one of"):
        reg.add(Claim("mine-x", "mine", "f.py", "s", CheckKind.NUMERIC, lambda ctx: None))


def test_load_claim_file_registers_once_and_rejects_bad_files(tmp_path):
    claims = load_claim_file(EXAMPLES / "my_claims.py")
    assert [c.id for c in claims] == ["user-my-laplace-1/eps", "user-my-laplace-1/(2eps)"]
    assert load_claim_file(EXAMPLES / "my_claims.py") == claims  # cached, no duplicate registration
    assert all(c.id in REGISTRY for c in claims)
    with pytest.raises(ValueError, match="no such file"):
        load_claim_file(tmp_path / "none.py")
    empty = tmp_path / "empty_claims.py"
    empty.write_text("x = 1\n")
    with pytest.raises(ValueError, match="registers no claim"):
        load_claim_file(empty)
    broken = tmp_path / "broken_claims.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(ValueError, match="RuntimeError: boom"):
        load_claim_file(broken)
    assert isinstance(load_entry_point_claims(), list)


def test_cli_audit_claims_reports_verified_and_refuted(tmp_path):
    out = subprocess.run([sys.executable, "-m", "verify.cli", "audit", "--claims", str(EXAMPLES / "my_claims.py"),
                          "--out", str(tmp_path), "--no-progress", "--budget", "0.2"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    doc = json.loads((tmp_path / "verdicts.json").read_text())
    got = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert got == {"user-my-laplace-1/eps": "VERIFIED", "user-my-laplace-1/(2eps)": "REFUTED"}
    refuted = next(c for c in doc["claims"] if c["verdict"] == "REFUTED")
    assert "certified violation" in refuted["summary"] and refuted["evidence"]["counterexample"]["certified_slack"]
    assert "user-my-laplace-1/(2eps)" in (tmp_path / "report.md").read_text()
    strict = subprocess.run([sys.executable, "-m", "verify.cli", "audit", "--claims", str(EXAMPLES / "my_claims.py"),
                             "--out", str(tmp_path), "--no-progress", "--budget", "0.2", "--strict"],
                            capture_output=True, text=True, timeout=300)
    assert strict.returncode == 3
    bad = subprocess.run([sys.executable, "-m", "verify.cli", "audit", "--claims", str(tmp_path / "nope.py")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "no such file" in bad.stderr
