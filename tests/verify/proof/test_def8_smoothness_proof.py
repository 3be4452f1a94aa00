"""004-Def-8-smoothness carries the ramp and KDE proofs (verify/claims/sets/proofs_def8.py:
prove_def8_smoothness, recheck_smoothness): proven at the default budget, left out at --quick, and the
combined record is re-checked part by part (an edited record is rejected)."""

from __future__ import annotations

import copy

import pytest

from verify.claims import CheckContext, Verdict, load_registry
from verify.claims.sets import proofs_def8 as P
from verify.claims.sets.proofs import recheck_evidence


@pytest.fixture(scope="module")
def proven():
    return load_registry().get("004-Def-8-smoothness").run(CheckContext(budget=1.0))


def test_the_claim_is_proven_on_the_closed_forms_and_keeps_its_tested_evidence(proven):
    assert proven.verdict is Verdict.VERIFIED and proven.strength == "proven", proven.summary
    ev = proven.evidence
    assert ev["domain"] == P.SMOOTHNESS_DOMAIN and "Lambda in (0, inf]" in ev["domain"]
    assert [p["key"] for p in ev["proof"]["parts"]] == ["ramp", "kde"]
    assert ev["recheck"]["ok"] and ev["tested"]["evidence"]["cond2_max_B_over_gB"] <= 1 + 1e-9
    assert "tested part" in proven.summary  # the floats' agreement is not claimed as proven


def test_the_record_rechecks_through_the_cli_path(proven):
    rc = recheck_evidence(proven.evidence, claim_id="004-Def-8-smoothness")
    assert rc.ok, rc.problems


@pytest.mark.parametrize("edit", ["drop-kde", "swap", "domain", "ramp-step", "kde-method"])
def test_an_edited_record_is_rejected(proven, edit):
    rec = copy.deepcopy(dict(proven.evidence["proof"]))
    if edit == "drop-kde":
        rec["parts"] = rec["parts"][:1]
    elif edit == "swap":
        rec["parts"] = rec["parts"][::-1]
    elif edit == "domain":
        rec["domain"] = rec["domain"].replace("Lambda in (0, inf]", "Lambda in (0, 2]")
    elif edit == "ramp-step":
        rec["parts"][0]["proof"]["steps"] = rec["parts"][0]["proof"]["steps"][:-1]
    elif edit == "kde-method":
        rec["parts"][1]["proof"]["method"] = "ramp-def8"
    rc = P.recheck_smoothness(rec, claim_id="004-Def-8-smoothness")
    assert not rc.ok and rc.problems


def test_at_the_quick_budget_the_proof_is_left_out_and_the_claim_stays_tested():
    res = load_registry().get("004-Def-8-smoothness").run(CheckContext(budget=0.1))
    assert res.verdict is Verdict.VERIFIED and res.strength == "tested"
    assert "004-Def-8-ramp-proof" in res.evidence["proof_left_out"]
