"""``smoothsens audit --recheck-proof``: a proof is re-checked as a proof of the claim id, never of what
its record says it proves.

What must be proven is rebuilt from the claim id (the registry and the code next to each prover:
``verify.claims.registry.expected_obligation``); the record supplies only the certificate.  Each test
below is a forged or edited record that the re-checker accepted before (it read the obligation, the
threshold and the displayed fields from the record) and must now reject, naming the field, and a
genuine proof that must still be accepted.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flint")

from verify.claims import CheckContext, Verdict
from verify.claims.registry import OBLIGATIONS, load_registry
from verify.cli import main
from verify.cli.commands.audit import _recheck_entries
from verify.serialise import jsonable

QUICK = CheckContext(budget=0.1)
#: two one-obligation interval proofs (< 1 s each), planted controls, a composite, a symbolic pair
INTERVAL_A = "004-KDE-shape-curve-proof"
INTERVAL_B = "004-KDE-shape-gE-proof"
PLANTED = "004-Lemma-4.1-planted-proof-tangency-minus-1e-6"
PLANTED_GC = "004-Lemma-3.3-planted-proof-tight-eta-plus-1e-6"
CONSTANTS = "004-KDE-constants-proof"
SYM_A, SYM_B = "004-Claim-4.2", "002-Lemma-12"
TIGHT_NU4 = "004-Lemma-3.5-tight-enclosure-nu4"
EMPTY = {"rebuild": {"what": "all", "parts": []}, "proof": {"parts": []}}


@lru_cache(maxsize=None)
def _genuine(cid: str) -> str:
    """The claim's JSON as the audit report writes it (run once per test session), as a string."""
    reg = load_registry()
    c = reg.get(cid)
    res = c.run(QUICK)
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", (cid, res.summary)
    return json.dumps(jsonable({"id": cid, "statement": c.statement, **res.to_json()}))


def record(cid: str) -> dict[str, Any]:
    return json.loads(_genuine(cid))


def forged(cid: str, evidence: dict[str, Any], **top: Any) -> dict[str, Any]:
    """A record of ``cid`` flipped to VERIFIED (proven) with ``evidence``."""
    reg = load_registry()
    return {"id": cid, "statement": reg.get(cid).statement, "verdict": "VERIFIED", "strength": "proven",
            "evidence": evidence, **top}


def recheck(cid: str, js: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = _recheck_entries([(cid, js)])
    return status, capsys.readouterr().out


# ---------------------------------------------------------------------------------------------------
# empty and partial certificates
# ---------------------------------------------------------------------------------------------------
def test_recheck_rejects_empty_certificate_on_a_planted_control(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A planted (false) control flipped to VERIFIED with zero parts: before, "proof re-checked: 0 steps/boxes
    cover ?" and exit 0 (the parts loop ran zero times)."""
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps({"claims": [forged(PLANTED_GC, copy.deepcopy(EMPTY))]}))
    status = main(["audit", "--claim", PLANTED_GC, "--recheck-proof", str(path)])
    out = capsys.readouterr().out
    assert status == 1
    assert "REJECTED" in out and "re-checked" not in out.replace("REJECTED", "")


def test_recheck_rejects_empty_certificate_on_every_proof_claim(capsys: pytest.CaptureFixture[str]) -> None:
    """Zero parts/steps/boxes is never "re-checked", whatever the claim (every claim with an obligation)."""


    load_registry()
    for cid in sorted(OBLIGATIONS):
        for ev in (copy.deepcopy(EMPTY), {"proof": {}}, {"proof": {"method": "symbolic", "steps": []}}):
            status, out = recheck(cid, forged(cid, ev), capsys)
            assert status == 1 and "REJECTED" in out, (cid, ev, out)


def test_recheck_rejects_a_composite_proof_with_a_part_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    """Dropping a part and its rebuild entry together kept the record consistent with itself: accepted before."""
    js = record(CONSTANTS)
    ev = js["evidence"]
    ev["proof"]["parts"] = ev["proof"]["parts"][:-1]
    ev["rebuild"]["parts"] = ev["rebuild"]["parts"][:-1]
    ev["obligations"] = ev["obligations"][:-1]
    status, out = recheck(CONSTANTS, js, capsys)
    assert status == 1 and "REJECTED" in out


# ---------------------------------------------------------------------------------------------------
# grafts: another claim's genuine proof
# ---------------------------------------------------------------------------------------------------
def test_recheck_rejects_an_interval_proof_grafted_from_another_claim(capsys: pytest.CaptureFixture[str]) -> None:
    js = forged(INTERVAL_B, record(INTERVAL_A)["evidence"])
    status, out = recheck(INTERVAL_B, js, capsys)
    assert status == 1 and "'rebuild'" in out


def test_recheck_rejects_a_genuine_proof_grafted_into_a_planted_control(capsys: pytest.CaptureFixture[str]) -> None:
    for planted in (PLANTED, PLANTED_GC):
        status, out = recheck(planted, forged(planted, record(INTERVAL_A)["evidence"]), capsys)
        assert status == 1 and "REJECTED" in out, planted


def test_recheck_rejects_a_symbolic_proof_grafted_from_another_claim(capsys: pytest.CaptureFixture[str]) -> None:
    """The symbolic re-checker took the spec from the record's "claim": another claim's proof re-checked."""
    js = forged(SYM_B, record(SYM_A)["evidence"])
    status, out = recheck(SYM_B, js, capsys)
    assert status == 1 and "REJECTED" in out
    ev = copy.deepcopy(record(SYM_A)["evidence"])  # the displayed fields edited to the target's: still its proof
    ev["domain"], ev["proof"]["domain"] = record(SYM_B)["evidence"]["domain"], record(SYM_B)["evidence"]["proof"]["domain"]
    status, out = recheck(SYM_B, forged(SYM_B, ev), capsys)
    assert status == 1 and "claim'" in out


def test_recheck_rejects_a_proof_of_another_method(capsys: pytest.CaptureFixture[str]) -> None:
    """A genuine symbolic proof offered for a claim whose code proves it by branch and bound."""
    status, out = recheck(INTERVAL_A, forged(INTERVAL_A, record(SYM_A)["evidence"]), capsys)
    assert status == 1 and "'method'" in out


# ---------------------------------------------------------------------------------------------------
# displayed fields are derived, not echoed
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, value", [
    (("domain",), "all reals"),
    (("statement",), "1 = 2"),
    (("objective", "expr"), "0"),
    (("objective", "variables"), [["0", "1000"]]),
    (("proof", "objective", "name"), "another objective"),
    (("source",), "a stated result"),
    (("proof", "threshold"), "1"),
    (("proof", "relies_on"), ["1 = 2"]),
    (("rebuild", "scale"), "nonsense"),
])
def test_recheck_rejects_an_edited_displayed_field(path: tuple[Any, ...], value: Any,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    js = record(INTERVAL_A)
    cur: Any = js["evidence"]
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    status, out = recheck(INTERVAL_A, js, capsys)
    assert status == 1 and "REJECTED" in out, out


def test_recheck_rejects_an_edited_claim_statement(capsys: pytest.CaptureFixture[str]) -> None:
    js = record(INTERVAL_A)
    js["statement"] = "1 = 2"
    status, out = recheck(INTERVAL_A, js, capsys)
    assert status == 1 and "'statement'" in out


def test_recheck_checks_the_verdict_against_the_proof(capsys: pytest.CaptureFixture[str]) -> None:
    js = record(INTERVAL_A)
    js["strength"] = "tested"
    status, out = recheck(INTERVAL_A, js, capsys)
    assert status == 1 and "'verdict'" in out


# ---------------------------------------------------------------------------------------------------
# tight enclosures: parameters from the code, the lower end attained
# ---------------------------------------------------------------------------------------------------
def test_recheck_rejects_a_tight_enclosure_with_an_unattained_lower_end(capsys: pytest.CaptureFixture[str]) -> None:
    """The "attained" lower end was never re-checked: raise it to the upper end (width 0) and it passed."""
    js = record(TIGHT_NU4)
    enc = js["evidence"]["enclosure"]
    enc["lower"], enc["lower_float"] = enc["upper"], enc["upper_float"]
    status, out = recheck(TIGHT_NU4, js, capsys)
    assert status == 1 and "not attained" in out


def test_recheck_rebuilds_the_tight_objective_from_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    """A smaller eta1 in the record made a smaller F, which the genuine boxes still bound: accepted before."""
    js = record(TIGHT_NU4)
    ev = js["evidence"]
    ev["rebuild"]["eta1"] = ev["eta1"] = ev["eta1"] / 2
    status, out = recheck(TIGHT_NU4, js, capsys)
    assert status == 1 and "'rebuild'" in out


def test_genuine_proofs_re_check(capsys: pytest.CaptureFixture[str]) -> None:
    for cid in (INTERVAL_A, CONSTANTS, SYM_A, TIGHT_NU4):
        status, out = recheck(cid, record(cid), capsys)
        assert status == 0 and "proof re-checked" in out, out


def test_recheck_rejects_edited_symbolic_steps(capsys: pytest.CaptureFixture[str]) -> None:
    """The steps of a symbolic record are derived from its witnesses: dropping or editing one was accepted."""
    js = record(SYM_A)
    js["evidence"]["proof"]["steps"] = js["evidence"]["proof"]["steps"][:1]
    status, out = recheck(SYM_A, js, capsys)
    assert status == 1 and "'steps'" in out
