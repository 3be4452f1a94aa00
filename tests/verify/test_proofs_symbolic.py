"""Symbolic proofs behind VERIFIED closed forms (verify.claims.sets.proofs_symbolic, verify.proof.symbolic)."""

from __future__ import annotations

import copy

import pytest
import sympy as sp

pytest.importorskip("flint")

from verify.claims.registry import PROOFS, ClaimResult, Verdict, load_registry  # noqa: E402
from verify.claims.sets import proofs_symbolic as P  # noqa: E402
from verify.claims.sets.proofs import describe_recheck, recheck_evidence  # noqa: E402
from verify.proof import symbolic as S  # noqa: E402

TESTED = ClaimResult(Verdict.VERIFIED, "tested ok", {"n": 1}, "mpmath")
FAST = ["004-Claim-3.4", "004-App-A.1-student-t-lipschitz", "004-Lemma-3.5-epsilon", "004-Sec-3.1.2-growth-axioms",
        "004-Sec-2.1-student-t", "002-Lemma-12"]


def test_every_symbolic_proof_is_attached_to_a_registered_claim_with_a_spec():
    reg = load_registry()
    for cid in P.WITNESSES:
        assert cid in reg and cid in PROOFS and cid in S.SPECS


@pytest.mark.parametrize("cid", FAST)
def test_the_proof_upgrades_the_tested_result_and_rechecks_from_the_evidence(cid):
    res = P.prove_symbolic(cid, TESTED)
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    assert res.evidence["proof"]["method"] == "symbolic" and res.evidence["tested"]["evidence"] == {"n": 1}
    rc = recheck_evidence(res.to_json()["evidence"])
    assert rc.ok and rc.n_points >= 3
    assert describe_recheck(res.evidence, rc).startswith("symbolic proof re-checked")


@pytest.mark.parametrize("cid,key,delta", [
    ("004-Claim-3.4", "sup", sp.Rational(1, 10**6)),                 # a constant off by 1e-6
    ("004-Lemma-3.5-epsilon", "eps", sp.Rational(1, 10**6)),
    ("004-Sec-2.1-student-t", "var", sp.Rational(1, 10**6)),
    ("002-Lemma-12", "sum", sp.Rational(1, 10**6)),
])
def test_a_perturbed_printed_form_is_not_proven(cid, key, delta):
    pr = S.SPECS[cid].printed_forms()
    res = P.prove_symbolic(cid, TESTED, printed={key: pr[key] + delta})
    assert res.verdict is Verdict.INCONCLUSIVE and res.strength == "tested"
    assert res.rule.startswith("R-UNDEC")


def test_a_dropped_term_is_not_proven():
    pr = S.SPECS["004-Lemma-3.5-epsilon"].printed_forms()
    nu = sp.Symbol("nu", positive=True)
    dropped = {"eps": pr["eps"] - nu * sp.Symbol("gamma", positive=True)}  # the scale term dropped
    assert P.prove_symbolic("004-Lemma-3.5-epsilon", TESTED, printed=dropped).verdict is Verdict.INCONCLUSIVE


def test_the_rechecker_rejects_an_edited_record():
    rec = P.prove_symbolic("004-Claim-3.4", TESTED).evidence["proof"]
    c = sp.Symbol("c", positive=True)
    bad = copy.deepcopy(rec)
    bad["witnesses"]["zstar"] = sp.srepr((c - 1) ** (1 / c) + sp.Rational(1, 10**6))  # edited stationary point
    assert not S.recheck(bad).ok
    bad = copy.deepcopy(rec)
    bad["domain"] = "c > 0 real, z >= 0 real"  # a wider domain than proven
    assert not S.recheck(bad).ok
    bad = copy.deepcopy(rec)
    del bad["witnesses"]["zstar"]
    assert not S.recheck(bad).ok
    assert S.recheck(rec).ok


def test_an_edited_antiderivative_is_rejected():
    rec = P.prove_symbolic("004-Sec-3.1.2-growth-axioms", TESTED).evidence["proof"]
    bad = copy.deepcopy(rec)
    r1, r2 = sp.symbols("r1 r2", nonnegative=True)
    g = sp.Symbol("gamma", positive=True)
    bad["witnesses"]["submult_gL"] = sp.srepr(g**2 * r1 * r2 + g * r1)  # not g_L(r1) g_L(r2) - g_L(r1 + r2)
    rc = S.recheck(bad)
    assert not rc.ok and any("submult" in p or "witness" in p for p in rc.problems)


def test_ball_checks_use_exact_rationals_and_refuse_floats():
    with pytest.raises(TypeError):
        S.arb_eval(sp.Float(0.1) + sp.Symbol("x"), {sp.Symbol("x"): S.arb_eval(sp.Integer(1), {})})
