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
        "004-Sec-2.1-student-t", "002-Lemma-12", "004-Claim-4.4", "004-App-A.4-derivatives", "003-Cor-V.5",
        "002-Claim-16", "000-Thm-1-normalisation", "000-Lemma-2-halves", "002-Def-6-normalisation", "002-Lemma-7",
        "004-Claim-4.2"]


def test_every_symbolic_proof_is_attached_to_a_registered_claim_with_a_spec():
    reg = load_registry()
    assert len(P.SYMBOLIC_CLAIMS) == 24 and not S.specs_without_witnesses()
    for cid in P.SYMBOLIC_CLAIMS:
        assert cid in reg and cid in PROOFS and cid in S.SPECS


@pytest.mark.parametrize("cid", FAST)
def test_the_proof_upgrades_the_tested_result_and_rechecks_from_the_evidence(cid):
    res = P.prove_symbolic(cid, TESTED)
    # 000 Thm. 1 / Lemma 2: the proof covers the identity; the core's pdf/CDF/sampler rest on the test
    want = "partly proven" if cid in P.PARTIAL else "proven"
    assert res.verdict is Verdict.VERIFIED and res.strength == want, res.summary
    assert res.evidence["proof"]["method"] == "symbolic" and res.evidence["tested"]["evidence"] == {"n": 1}
    rc = recheck_evidence(res.to_json()["evidence"], claim_id=cid)
    assert rc.ok and rc.n_boxes >= 1
    assert describe_recheck(cid, rc).startswith("proof re-checked")


@pytest.mark.parametrize("cid,key,delta", [
    ("004-Claim-3.4", "sup", sp.Rational(1, 10**6)),                 # a constant off by 1e-6
    ("004-Lemma-3.5-epsilon", "eps", sp.Rational(1, 10**6)),
    ("004-Sec-2.1-student-t", "var", sp.Rational(1, 10**6)),
    ("002-Lemma-12", "sum", sp.Rational(1, 10**6)),
    ("004-Claim-4.4", "sup", sp.Rational(1, 10**6)),
    ("004-Claim-4.4", "attain", sp.Rational(1, 10**6)),
    ("004-App-A.4-derivatives", "eq3", sp.Rational(1, 10**6)),
    ("004-App-A.4-derivatives", "eq5", sp.Rational(1, 10**6)),
    ("003-Cor-V.5", "mean_abs", sp.Rational(1, 10**6)),
    ("002-Claim-16", "const", sp.Rational(1, 10**6)),
    ("002-Claim-16", "var", sp.Rational(1, 10**6)),
    ("002-Claim-16", "std", sp.Rational(1, 10**6)),
    ("000-Thm-1-normalisation", "C", sp.Rational(1, 10**6)),
    ("000-Lemma-2-halves", "mass", sp.Rational(1, 10**6)),
    ("002-Def-6-normalisation", "N", sp.Rational(1, 10**6)),
    ("002-Lemma-7", "half", sp.Rational(1, 10**6)),
    ("004-Claim-4.2", "lip", sp.Rational(1, 10**6)),
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


def test_the_printed_variance_of_claim_16_with_a_wrong_trig_term_is_not_proven():
    c = sp.Symbol("c", positive=True)
    wrong = {"var": 1 / (2 * sp.cos(sp.pi / c) + 1)}  # cos(pi/c) for cos(2 pi/c)
    assert P.prove_symbolic("002-Claim-16", TESTED, printed=wrong).verdict is Verdict.INCONCLUSIVE


def test_a_wrong_stationary_point_of_claim_4_4_is_rejected():
    rec = P.prove_symbolic("004-Claim-4.4", TESTED).evidence["proof"]
    bad = copy.deepcopy(rec)
    bad["witnesses"]["ustar"] = sp.srepr(sp.Rational(11, 10))  # not the stationary point
    rc = S.recheck(bad)
    assert not rc.ok and any("stationary" in p for p in rc.problems)


def test_an_edited_derivative_of_app_a4_is_rejected():
    rec = P.prove_symbolic("004-App-A.4-derivatives", TESTED).evidence["proof"]
    bad = copy.deepcopy(rec)
    w2 = S._parse(bad["witnesses"]["eq2"])
    bad["witnesses"]["eq2"] = sp.srepr(2 * w2)
    assert not S.recheck(bad).ok


def test_the_fast_zero_test_assumes_no_branch():
    # (x - 1)^(1/2) (x - 1)^(1/2) = x - 1 holds, but sqrt((x-1)^2) = x - 1 does not for x < 1: not shown
    x = sp.Symbol("x", positive=True)
    assert S.is_zero(sp.sqrt(x - 1) * sp.sqrt(x - 1) - (x - 1))
    assert not S.is_zero(sp.sqrt((x - 1) ** 2) - (x - 1))
    b = sp.Symbol("b", positive=True)
    assert S.is_zero((1 - 1 / (b + 1)) ** (b + 1) - b ** (b + 1) * (b + 1) ** (-b - 1))


# ---- 002 Cor. 14 (series of the exact variance) and 002 Lemma 15 (gamma -> 0 limit) -----------------
def test_cor14_and_lemma15_are_proven_and_recheck_from_the_evidence():
    for cid in ("002-Cor-14", "002-Lemma-15"):
        res = P.prove_symbolic(cid, TESTED)
        assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
        rc = recheck_evidence(res.to_json()["evidence"], claim_id=cid)
        assert rc.ok and rc.n_boxes >= 1, rc.problems


def test_cor14_a_wrong_gamma_coefficient_or_a_dropped_term_is_not_proven():
    pr = S.SPECS["002-Cor-14"].printed_forms()
    ss, eps, g = sp.symbols("SS epsilon gamma", positive=True)
    off = {"Var": pr["Var"] + sp.Rational(1, 10**6) * g * ss**2 / eps**3}  # the gamma coefficient off by 1e-6
    assert P.prove_symbolic("002-Cor-14", TESTED, printed=off).verdict is Verdict.INCONCLUSIVE
    dropped = {"Var": 2 * ss**2 / eps**2}  # the first-order term dropped
    res = P.prove_symbolic("002-Cor-14", TESTED, printed=dropped)
    assert res.verdict is Verdict.INCONCLUSIVE
    # both routes reject it: the chain-rule step and the Cauchy-formula ball check
    probs = res.evidence["proof_attempt"]["recheck"]["problems"]
    assert any("order 1" in p for p in probs) and any("Cauchy" in p for p in probs)


def test_lemma15_a_wrong_limit_is_not_proven():
    pr = S.SPECS["002-Lemma-15"].printed_forms()
    assert P.prove_symbolic("002-Lemma-15", TESTED,
                            printed={"lap": pr["lap"] * (1 + sp.Rational(1, 10**6))}).verdict is Verdict.INCONCLUSIVE
    a, eps, x = sp.symbols("a epsilon x", positive=True)
    wrong_rate = {"lap": eps / (2 * a) * sp.exp(-2 * eps * x / a)}  # e^(-2 eps x/a)
    assert P.prove_symbolic("002-Lemma-15", TESTED, printed=wrong_rate).verdict is Verdict.INCONCLUSIVE


@pytest.mark.long
def test_cor14_an_edited_variance_witness_is_rejected():
    rec = P.prove_symbolic("002-Cor-14", TESTED).evidence["proof"]
    bad = copy.deepcopy(rec)
    v = S._parse(bad["witnesses"]["var1"])
    bad["witnesses"]["var1"] = sp.srepr(v * (1 + sp.Rational(1, 10**6)))
    rc = S.recheck(bad)
    assert not rc.ok and any("Var_" in p for p in rc.problems)


def test_cauchy_coefficient_of_a_known_function():
    u = sp.Symbol("u", positive=True)
    from verify.proof.functions import workprec
    with workprec(S.PREC):
        c0 = S.cauchy_coefficient(sp.exp(sp.log(1 - u) / u), u, sp.Rational(1, 4), 0)  # W(0) = e^-1
        c1 = S.cauchy_coefficient(sp.exp(sp.log(1 - u) / u), u, sp.Rational(1, 4), 1)  # W'(0) = -e^-1/2
        e = S.arb_eval(sp.exp(-1), {})
        assert c0.overlaps(e) and c1.overlaps(-e / 2) and not c1.overlaps(e / 2)


def test_claim_4_2_a_lipschitz_constant_below_one_over_tau_is_not_proven():
    tau = sp.Symbol("tau", positive=True)
    res = P.prove_symbolic("004-Claim-4.2", TESTED, printed={"lip": (1 - sp.Rational(1, 10**6)) / tau})
    assert res.verdict is Verdict.INCONCLUSIVE and res.strength == "tested"
