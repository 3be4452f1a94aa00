"""The verdict helpers of the claim modules (verify.claims.evidence.certified_verdict, search_verdict)
and the sampling / precision helpers of CheckContext."""

from __future__ import annotations

import numpy as np
import pytest

from verify.claims import CheckContext, Verdict
from verify.claims.evidence import certified_verdict, search_verdict


@pytest.mark.parametrize(("rule", "verdict"), [
    ("R-INVALID: a printed bound below B*", Verdict.REFUTED),
    ("R-FALSE: a wrong constant", Verdict.REFUTED),
    ("R-SLIP: a lost parenthesis", Verdict.ERRATUM),
    ("", Verdict.VERIFIED),
])
def test_certified_verdict_gives_the_verdict_of_its_rule_with_the_certificate(rule, verdict):
    ev = {"rows": [1, 2]}
    res = certified_verdict(True, ev, "found", rule=rule, precision="mpmath 50 digits", otherwise="not found",
                            certificate={"x": 1})
    assert res.verdict is verdict and res.summary == "found" and res.precision == "mpmath 50 digits"
    assert res.rule == rule and res.evidence["certificate"] == {"x": 1} and res.evidence["rows"] == [1, 2]


def test_certified_verdict_without_its_certificate_is_inconclusive_never_a_pass():
    ev = {"rows": []}
    res = certified_verdict(False, ev, "found", rule="R-FALSE: wrong", precision="p", otherwise="unexpected sums",
                            certificate={"x": 1})
    assert res.verdict is Verdict.INCONCLUSIVE and res.summary == "unexpected sums"
    assert res.rule_id == "R-UNDEC" and "certificate" not in res.evidence and res.precision == ""


def test_certified_verdict_refuses_an_unknown_rule():
    with pytest.raises(ValueError, match="rule must start with one of"):
        certified_verdict(True, {}, "s", rule="R-MAYBE: hm", precision="", otherwise="o")


def test_search_verdict_is_verified_only_when_the_statement_holds():
    ok = search_verdict(True, {"n": 3}, verified="holds on 3 points", refuted="violated", precision="exact")
    bad = search_verdict(False, {"n": 3}, verified="holds on 3 points", refuted="violated", precision="exact")
    assert (ok.verdict, ok.summary, ok.precision, ok.rule_id) == (Verdict.VERIFIED, "holds on 3 points", "exact", "R-VER")
    assert (bad.verdict, bad.summary, bad.rule) == (Verdict.REFUTED, "violated", "R-FALSE: violated")


def test_check_context_sample_is_the_salted_stream_and_the_scaled_count():
    ctx = CheckContext(budget=0.1)
    rng, n = ctx.sample("salt", 200, 30)
    assert n == 30 and ctx.sample("salt", 200)[1] == 20
    assert np.array_equal(rng.random(4), ctx.rng("salt").random(4))
    assert CheckContext(dps=40).mp_precision == "mpmath 40 digits"
