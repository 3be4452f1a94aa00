"""User claims (``smoothsens audit --claims FILE``): "proven" only with an obligation declared in code.

A user's proof declares what it proves in the claim file (``verify.claims.registry.obligation_for``),
not in JSON: ``--recheck-proof`` rebuilds the obligation from the re-imported file.  A claim stated
proven whose record carries no obligation in code is INCONCLUSIVE and rejected by the re-checker; a
genuine user proof is proven in the report and accepted by the re-checker (the two agree).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("flint")

from verify.cli import main

HEADER = textwrap.dedent('''
    from fractions import Fraction

    import sympy as sp

    from verify.claims import CheckKind, ClaimResult, Verdict, claim
    from verify.claims.registry import obligation_for, with_proof
    from verify.claims.sets.proofs import interval_obligation
    from verify.proof import prove_le
    from verify.proof.functions import Objective, Variable

    X = sp.Symbol("x")
    DOMAIN = "x in [0, 1]"


    def square_minus(c):
        return lambda: Objective(X**2 - c, [Variable(X, Fraction(0), Fraction(1))], name=f"x^2 - {c}")
''')


def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(body))
    return path


def _audit(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, dict]:
    out_dir = tmp_path / "out"
    status = main(["audit", "--claims", str(path), "--no-progress", "--out", str(out_dir), *extra])
    out = capsys.readouterr().out
    data = json.loads((out_dir / "verdicts.json").read_text())
    return status, out, {c["id"]: c for c in data["claims"]}


def test_user_claim_stated_proven_with_an_empty_record_is_not_proven(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """"1 = 2" with an empty certificate and "domain": "all reals": VERIFIED (proven), re-checked, exit 0 before."""
    path = _write(tmp_path, "one_is_two", '''
        @claim("user-soundness-one-is-two", seed="user", section="one_is_two.py", kind=CheckKind.NUMERIC,
               statement="1 = 2")
        def check(ctx):
            return ClaimResult(Verdict.VERIFIED, "proven: 1 = 2 (re-checked)",
                               {"rebuild": {"what": "all", "parts": []}, "proof": {"parts": []}, "domain": "all reals"},
                               "exact", strength="proven")
    ''')
    status, out, claims = _audit(path, tmp_path, capsys, "--recheck-proof")
    c = claims["user-soundness-one-is-two"]
    assert c["verdict"] == "INCONCLUSIVE" and c["strength"] is None
    assert "no proof obligation is declared in code" in c["summary"]
    assert status != 0
    line = next(ln for ln in out.splitlines() if ln.startswith("user-soundness-one-is-two:"))
    assert "REJECTED" in line and "re-checked" not in line.replace("REJECTED", "")


def test_genuine_user_proof_is_proven_and_re_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, --recheck-proof rejected it ("no 'rebuild' record") while the report said "proven ... re-checked"."""
    path = _write(tmp_path, "genuine", '''
        CID = "user-soundness-square-le-1"
        STATEMENT = "x^2 <= 1 for every x in [0, 1]"


        @obligation_for(CID)
        def obligation(scale):
            return interval_obligation(CID, square_minus(1), domain=DOMAIN, statement=STATEMENT)


        @claim(CID, seed="user", section="genuine.py", kind=CheckKind.NUMERIC, statement=STATEMENT)
        def check(ctx):
            res = prove_le(square_minus(1)())
            tested = ClaimResult(Verdict.VERIFIED, "x^2 <= 1 at 11 points", {})
            return with_proof(tested, claim_obligation=obligation("test"), summary="proven: x^2 <= 1 on [0, 1]",
                              proof=res.to_json(), domain=DOMAIN, precision="arb", statement=STATEMENT)
    ''')
    status, out, claims = _audit(path, tmp_path, capsys, "--recheck-proof")
    c = claims["user-soundness-square-le-1"]
    assert (c["verdict"], c["strength"]) == ("VERIFIED", "proven")
    assert status == 0
    assert "user-soundness-square-le-1: proof re-checked" in out
    # the same record from the file, then edited: the displayed domain and the certificate
    report = tmp_path / "out" / "verdicts.json"
    assert main(["audit", "--claims", str(path), "--recheck-proof", str(report)]) == 0
    data = json.loads(report.read_text())
    data["claims"][0]["evidence"]["domain"] = "x in [0, 2]"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["audit", "--claims", str(path), "--recheck-proof", str(edited)]) == 1
    assert "'domain'" in capsys.readouterr().out
    data["claims"][0]["evidence"]["domain"] = "x in [0, 1]"
    data["claims"][0]["evidence"]["proof"]["boxes"] = []
    data["claims"][0]["evidence"]["proof"]["bounds"] = []
    edited.write_text(json.dumps(data))
    assert main(["audit", "--claims", str(path), "--recheck-proof", str(edited)]) == 1


def test_user_proof_of_a_weaker_statement_does_not_make_the_claim_proven(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A genuine proof of x^2 <= 2 offered for the claim x^2 <= 1/2 (its obligation in code): with_proof refuses it
    (the tested result stands), and a result stated proven directly with that record is INCONCLUSIVE."""
    path = _write(tmp_path, "weaker", '''
        STATEMENT = "x^2 <= 1/2 for every x in [0, 1]"
        for CID in ("user-soundness-weaker-with-proof", "user-soundness-weaker-direct"):
            obligation_for(CID)(lambda scale, cid=CID: interval_obligation(cid, square_minus(Fraction(1, 2)),
                                                                           domain=DOMAIN, statement=STATEMENT))


        @claim("user-soundness-weaker-with-proof", seed="user", section="weaker.py", kind=CheckKind.NUMERIC,
               statement=STATEMENT)
        def check_a(ctx):
            from verify.claims.registry import expected_obligation
            res = prove_le(square_minus(2)())
            tested = ClaimResult(Verdict.VERIFIED, "tested", {})
            return with_proof(tested, claim_obligation=expected_obligation("user-soundness-weaker-with-proof"),
                              summary="proven (re-checked)", proof=res.to_json(), domain=DOMAIN, precision="arb",
                              statement=STATEMENT)


        @claim("user-soundness-weaker-direct", seed="user", section="weaker.py", kind=CheckKind.NUMERIC,
               statement=STATEMENT)
        def check_b(ctx):
            res = prove_le(square_minus(2)())
            return ClaimResult(Verdict.VERIFIED, "proven (re-checked)",
                               {"proof": res.to_json(), "domain": DOMAIN, "statement": STATEMENT}, "arb",
                               strength="proven")
    ''')
    status, out, claims = _audit(path, tmp_path, capsys, "--recheck-proof")
    a, b = claims["user-soundness-weaker-with-proof"], claims["user-soundness-weaker-direct"]
    assert (a["verdict"], a["strength"]) == ("VERIFIED", "tested")
    assert "proof_not_attached" in a["evidence"]
    assert b["verdict"] == "INCONCLUSIVE"
    assert status != 0
    assert "re-checked" not in "".join(ln for ln in out.splitlines() if ln.startswith("user-soundness-weaker"))
