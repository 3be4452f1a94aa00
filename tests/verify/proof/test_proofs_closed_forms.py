"""Proofs attached to 004-Lemma-4.1, 004-App-C.3, 004-Lemma-4.3 and 004-Lemma-3.1
(verify/claims/sets/proofs_closed_forms.py): printed B* = Phi(d+) = B*, region by region."""

from __future__ import annotations

import copy
import math

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from smoothsens_core.growth import growth_exp
from smoothsens_core.sensitivity import smooth_sensitivity_bounded_range, smooth_sensitivity_threshold
from verify.claims.registry import PROOFS, CheckContext, ClaimResult, Verdict, load_registry
from verify.claims.sets import proofs_closed_forms as C
from verify.claims.sets.proofs import recheck_evidence
from verify.claims.sets.proofs_def8 import ramp_proof
from verify.claims.sets.sensitivity_004 import lemma_4_3_printed

IDS = ("004-Lemma-4.1", "004-App-C.3", "004-Lemma-4.3")


def _tested(cid: str) -> ClaimResult:
    return ClaimResult(Verdict.VERIFIED, f"{cid} tested", {"rows": 3}, "float")


@pytest.fixture(scope="module")
def records():
    ramp, _ = ramp_proof()
    return {cid: C.prove_closed_form(cid, ramp) for cid in IDS}


def test_the_proofs_are_attached_to_the_four_claims():
    load_registry()
    for cid in (*IDS, "004-Lemma-3.1"):
        assert PROOFS[cid].__module__ == C.__name__


@pytest.mark.parametrize("cid", IDS)
def test_every_region_identity_holds_and_the_record_rechecks(records, cid):
    rec = records[cid]
    assert rec["status"] == "proven" and rec["domain"] == C.DOMAINS[cid]
    assert all(st["ok"] for st in rec["steps"]) and rec["ramp"]["status"] == "proven"
    n_regions = {"004-Lemma-4.1": 3, "004-App-C.3": 3, "004-Lemma-4.3": 10}[cid]
    assert sum(st["id"].startswith("region ") for st in rec["steps"]) == n_regions
    if cid == "004-Lemma-4.1":
        assert any(st["id"] == "stationary point of phi" and st["ok"] for st in rec["steps"])


@pytest.mark.long
def test_the_recheck_rejects_edited_records(records):
    rec = records["004-Lemma-4.3"]
    assert C.recheck_closed_form(rec, claim_id="004-Lemma-4.3").ok
    for edit in ("domain", "check", "claim", "ramp-step"):
        bad = copy.deepcopy(rec)
        if edit == "domain":
            bad["domain"] = bad["domain"].replace("tau > 0", "tau >= 1")
        elif edit == "check":
            k = next(iter(bad["steps"][0]["checks"]))
            bad["steps"][0]["checks"][k + " (edited)"] = True
        elif edit == "claim":
            bad["claim"] = "004-Lemma-4.1"
        else:
            bad["ramp"]["steps"] = bad["ramp"]["steps"][:-1]
        rc = C.recheck_closed_form(bad, claim_id="004-Lemma-4.3")
        assert not rc.ok and rc.problems, edit


def test_attached_proof_upgrades_a_tested_result_and_rechecks_through_the_cli_path():
    res = C.prove_lemma_4_1(CheckContext(budget=1.0), _tested("004-Lemma-4.1"))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    assert res.evidence["domain"] == C.DOMAINS["004-Lemma-4.1"] and res.evidence["proof"]["method"] == C.METHOD
    assert res.evidence["tested"]["evidence"] == {"rows": 3} and "tested part" in res.summary
    rc = recheck_evidence(res.evidence, claim_id="004-Lemma-4.1")  # METHOD_RECHECKERS["closed-form-bstar"]
    assert rc.ok, rc.problems


@pytest.mark.parametrize("fn", [C.prove_lemma_4_1, C.prove_app_c3, C.prove_lemma_4_3, C.prove_lemma_3_1])
def test_at_the_quick_budget_the_proof_is_left_out(fn):
    res = fn(CheckContext(budget=0.1), _tested("x"))
    assert res.verdict is Verdict.VERIFIED and res.strength == "tested" and "proof_left_out" in res.evidence


def test_lemma_3_1_carries_the_combined_def8_record():
    res = C.prove_lemma_3_1(CheckContext(budget=1.0), _tested("004-Lemma-3.1"))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    assert res.evidence["proof"]["method"] == "def8-smoothness" and res.evidence["domain"] == C.LEMMA_31_DOMAIN
    assert [p["key"] for p in res.evidence["proof"]["parts"]] == ["ramp", "kde"]


# ---------------------------------------------------------------------------------------------------
# controls: planted false printed formulas fail their identity and are refuted at a certified point
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,failing", [("lemma-4.1-drop-tau/2", {"region x - T > tau/2", "region x - T < -tau/2"}),
                                          ("lemma-4.3-swap-0,1<->1,1", {"region 0,1", "region 1,1"})])
def test_planted_printed_formulas_fail_and_are_refuted(name, failing):
    P = C.controls()[name]
    steps = C.identity_steps(P)
    assert {st["id"] for st in steps if not st["ok"]} == failing
    cx = C.counterexample(P)
    assert cx is not None and cx["dps"] == 50
    # certify independently at 50 digits: B* = max(1/(d + tau), e^{-gamma d}/tau) with d the band distance
    with mp.workdps(50):
        pt = {k: mp.mpf(sp.Rational(v).p) / sp.Rational(v).q if "sqrt" not in v else None for k, v in cx["point"].items()}
        tau, gamma = pt["tau"], pt["gamma"]
        if name.startswith("lemma-4.1"):
            d = pt["t"]                                 # x - T = tau/2 + t
            planted = max(1 / (d + tau), mp.exp(-gamma * (d + tau / 2)) / tau)
        else:
            R1 = tau / mp.sqrt(2)
            p1 = -R1 * pt["v"] / (1 + pt["v"])           # S_{1,1}: -R1 < p1 < 0: d = R1 + p1
            d = R1 + p1
            planted = max(1 / (-R1 - p1), mp.exp(-gamma * (-(R1 + tau) - p1)) / tau)  # the S_{0,1} case there
        bstar = max(1 / (d + tau), mp.exp(-gamma * d) / tau)
        assert abs(planted - bstar) > mp.mpf(10) ** -20
        assert abs(mp.mpf(cx["printed"]) - planted) < mp.mpf(10) ** -25
        assert abs(mp.mpf(cx["Phi(d+) = B*"]) - bstar) < mp.mpf(10) ** -25


@pytest.mark.parametrize("cid", IDS)
def test_the_true_printed_formulas_have_no_counterexample(cid):
    assert C.counterexample(C.printed(cid)) is None


# ---------------------------------------------------------------------------------------------------
# the transcriptions of the printed formulas against the claims' (numeric) references
# ---------------------------------------------------------------------------------------------------
def test_the_two_way_case_list_is_the_claims_reference():
    T1, T2, tau, gamma = 1.0, 2.0, 0.8, 0.7
    R1 = tau / math.sqrt(2)
    c0 = (T1 + tau / 2 + R1, T2 + tau / 2 + R1)
    rng = np.random.default_rng(2)
    from smoothsens_core.sensitivity.two_way import two_way_regions

    z = rng.uniform([-3, -2], [5, 6], size=(20000, 2))
    labs = two_way_regions(z, T1, T2, tau)
    keep = np.concatenate([np.flatnonzero(labs == lab)[:25] for lab in np.unique(labs)])
    z, labs = z[keep], labs[keep]
    ref = lemma_4_3_printed(z, T1, T2, tau, gamma)
    cases = C._two_way_terms()
    S = C._syms()
    subs = {S["tau"]: tau, S["gamma"]: gamma, S["R1"]: R1, S["c01"]: c0[0], S["c02"]: c0[1]}
    seen = set()
    for zi, lab, want in zip(z, labs, ref):
        if not lab:
            continue
        key = "tau" if lab.startswith("tau") else str(lab)
        at = {S["p1"]: sp.Float(zi[0] - c0[0], 30), S["p2"]: sp.Float(zi[1] - c0[1], 30)}
        got = max(float(sp.sympify(t).subs(subs)) for t in cases[key](at))
        assert got == pytest.approx(float(want), rel=1e-10), lab
        seen.add(key)
    assert len(seen) == 8


def test_the_one_dimensional_printed_formulas_match_the_core():
    S = C._syms()
    g = growth_exp(0.9)
    P41, P_c3 = C.printed("004-Lemma-4.1"), C.printed("004-App-C.3")
    # Lemma 4.1 at T = 0.3, tau = 0.6: the region maps at their parameter t / v
    T, tau = 0.3, 0.6
    for (name, maps, terms) in P41.regions:
        at = {k: v.subs({S["T"]: T, S["tau"]: tau, S["t"]: 0.37, S["vn"]: 0.8}) for k, v in maps[0].items()}
        x = next(float(v) for k, v in at.items() if str(k) == "x")
        got = max(float(sp.sympify(t).subs({S["T"]: T, S["tau"]: tau, S["gamma"]: 0.9})) for t in terms(at))
        assert got == pytest.approx(float(smooth_sensitivity_threshold([x], T, tau, g)[0]), rel=1e-12), name
    l, L = -0.4, 1.3
    for (name, maps, terms) in P_c3.regions:
        vals = {S["l"]: l, S["L"]: L, S["tau"]: tau, S["t"]: 0.37, S["vn"]: 0.8, S["gamma"]: 0.9}
        at = {k: v.subs(vals) for k, v in maps[0].items()}
        x = next(float(v) for k, v in at.items() if str(k) == "x")
        got = max(float(sp.sympify(t).subs(vals)) for t in terms(at))
        assert got == pytest.approx(float(smooth_sensitivity_bounded_range([x], l, l + L, tau, g)[0]), rel=1e-12), name
