"""004 Lemma 3.6 proven as a chain (verify.claims.sets.proofs_approx): proven, re-checked, edits and false variants fail."""

from __future__ import annotations

import copy

import pytest

import sympy as sp

from verify.claims import CheckContext, Verdict
from verify.claims.registry import load_registry
from verify.claims.sets import proofs_approx as PA
from verify.claims.sets.proofs import recheck_evidence
from verify.proof import symbolic as S


def _proven():
    reg = load_registry()
    return reg.get(PA.CLAIM).run(CheckContext())


@pytest.mark.long
def test_proven_and_rechecked():
    res = _proven()
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven"
    assert res.evidence["proof"]["method"] == PA.METHOD
    assert res.evidence["seconds_proof"] >= 0  # timed, not asserted (benchmarks measure speed)
    assert len(res.evidence["mechanisms"]) == 4 and all(r["inside"] for r in res.evidence["mechanisms"])
    rc = recheck_evidence(res.evidence, claim_id=PA.CLAIM)
    assert rc.ok, rc.problems


@pytest.mark.long
def test_edited_record_fails():
    rec = _proven().evidence["proof"]
    bad = copy.deepcopy(rec)
    bad["domain"] = bad["domain"].replace("0 < delta < 1", "0 < delta <= 1")
    assert not PA.recheck(bad, claim_id=PA.CLAIM).ok
    bad = copy.deepcopy(rec)
    bad["parts"][0]["proof"]["witnesses"]["threshold"] = sp.srepr(sp.Integer(1))
    assert not PA.recheck(bad, claim_id=PA.CLAIM).ok
    bad = copy.deepcopy(rec)
    bad["parts"][0]["proof"]["domain"] = "anything"
    assert not PA.recheck(bad, claim_id=PA.CLAIM).ok


def test_planted_false_variants_refuted():
    D = S._H12_DELTA
    for variant in ({"delta": D / 2}, {"eps": S.ETA + S.GAMMA * sp.log(1 / (2 * D))}):
        at = PA.attempt(variant)
        assert not at["ok"]
        cx = at["certificate"]
        assert cx is not None and cx["certified"] == "ball < 0"
        assert cx["point"] == {"eta": "1", "gamma": "1", "delta": "1/10", "d": "100"}


def test_hockey_matches_closed_form():
    # 004 Lemma 3.6, tight.py (L1): H = (1 - 1/c) exp(-(t + ln c)/(c - 1)) cosh(s/(c - 1)) for c > 1, s - ln c <= t
    import flint
    import mpmath

    from verify.proof.functions import workprec

    with workprec(200):
        h = S.h12_hockey(flint.arb(3), flint.arb(7) / 10, flint.arb(11) / 10)
    with mpmath.workdps(40):
        c, s, t = mpmath.mpf(3), mpmath.mpf(7) / 10, mpmath.mpf(11) / 10
        ref = (1 - 1 / c) * mpmath.exp(-(t + mpmath.log(c)) / (c - 1)) * mpmath.cosh(s / (c - 1))
    assert abs(float(h.mid()) - float(ref)) < 1e-14 and h.rad() < 1e-30
