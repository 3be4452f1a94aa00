"""Claims of 002 Sec. 2.2 and of the proof of Lemma 9 (verify/claims/sets/facts_002.py): Fact 5,
eq. (2) and step (8); each verdict is re-derived here by a second route."""

from __future__ import annotations

import mpmath
import pytest

from verify.claims import CheckContext, Verdict, load_registry

QUICK = CheckContext(budget=0.25)


def _run(cid: str):
    return load_registry().get(cid).run(QUICK)


def test_fact_5_is_refuted_at_c_0_with_the_absolute_value_and_holds_for_differentiable_f():
    res = _run("002-Fact-5")
    assert res.verdict is Verdict.REFUTED and res.rule_id == "R-FALSE", res.summary
    cert = res.evidence["certificate"]
    assert cert["f"] == "|x|" and cert["c"] == 0
    # |x| has one-sided derivatives +1 and -1 at 0; |0 x| is constant
    assert cert["right difference quotients of |x| at 0 (exact)"] == ["1"]
    assert cert["left difference quotients of |x| at 0 (exact)"] == ["-1"]
    # second route for the corrected statement: f(x) = x^2 + 3x, d/dx f(cx) at 0 = 3c exactly
    with mpmath.workdps(40):
        for c in (-2, 0, 5):
            assert mpmath.almosteq(mpmath.diff(lambda t, c=c: (c * t) ** 2 + 3 * c * t, 0), 3 * c, 1e-30)


def test_lemma_9_eq_2_scaling_identity_is_verified():
    res = _run("002-Lemma-9-eq-2")
    assert res.verdict is Verdict.VERIFIED, res.summary
    ev = res.evidence.get("tested", {}).get("evidence", res.evidence)  # the tested evidence under a proof
    assert ev["N_{cs,alpha} = N_{s,alpha}/c (SymPy)"] is True
    assert mpmath.mpf(ev["max |log f_{s,alpha}(x) - log(c f_{cs,alpha}(cx))|"]) < mpmath.mpf("1e-35")


def _lemma_10_derivatives(y, gamma, eps):
    """Closed forms of 002 Lemma 10 at s = 1/gamma, alpha = eps/gamma (location A_loc, scale A_scale),
    the scale derivative taken in lambda for s -> e^(lambda gamma) s, i.e. 1/s times Lemma 10's."""
    s, alpha = 1 / gamma, eps / gamma
    ax = abs(y)
    if ax / s < 1 / alpha:
        loc = mpmath.sign(y) * (alpha - 1) / (ax - s)
        scale = -1 / s + (alpha - 1) * ax / (s * (s - ax))
    else:
        loc = mpmath.sign(y) * (-alpha - 1) / (ax + s)
        scale = -1 / s + (alpha + 1) * ax / (s * (s + ax))
    return loc, scale


def test_lemma_9_step_8_is_an_erratum_with_the_witness_rechecked_from_lemma_10():
    res = _run("002-Lemma-9-step-8")
    assert res.verdict is Verdict.ERRATUM and res.rule_id == "R-SLIP", res.summary
    assert "printed" in res.evidence and "corrected" in res.evidence
    w = res.evidence["witness"]
    # second route: Lemma 10's closed forms (the d/dlambda of s -> e^(lambda gamma)/gamma equals
    # Lemma 10's d/dlambda h(e^(lambda/s) s, x), since lambda gamma = lambda / s), lambda_r = -1, lambda_s = 0
    with mpmath.workdps(30):
        gamma, eps, xp = mpmath.mpf("0.5"), mpmath.mpf(1), mpmath.mpf("0.1")

        def A(t):
            return _lemma_10_derivatives(mpmath.exp(gamma * t) * xp, gamma, eps)[1]

        left = mpmath.quad(lambda t: -A(t), [0, 1])
        printed = mpmath.quad(lambda t: -abs(A(t)), [0, 1])
        assert left > 0 > printed
        assert float(left) == pytest.approx(float(w["int lambda_r A + c lambda_s B"]), rel=1e-12)
        assert float(printed) == pytest.approx(float(w["int lambda_r |A| + c lambda_s |B| (printed)"]), rel=1e-12)
        assert float(w["int |A| + |B| (= eps by Lemma 12)"]) == pytest.approx(1.0, rel=1e-12)
    assert float(res.evidence["intended_grid"]["max |constant|"]) <= 1.0
