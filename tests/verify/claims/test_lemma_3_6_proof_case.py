"""004-Lemma-3.6-proof-case: the printed case b <= b' of Lemma 3.6's proof needs delta <= 1/e (certified gap),
while the lemma itself holds at the witness pairs (the excess set's probability is below delta)."""

from __future__ import annotations

import math

from verify.claims import CheckContext, Verdict, load_registry


def test_the_printed_case_is_refuted_with_a_certificate_and_the_lemma_still_holds():
    res = load_registry().get("004-Lemma-3.6-proof-case").run(CheckContext(budget=0.1))
    assert res.verdict is Verdict.REFUTED and res.rule.startswith("R-FALSE"), res.summary
    cert = res.evidence["certificate"]
    assert float(cert["excess"]) > 0 and float(cert["delta"]) > 1 / math.e
    rows = res.evidence["rows"]
    assert all(r["lemma_holds_here"] for r in rows)
    for r in rows:  # the excess set's probability is within the corrected bound (1 - ln(1/delta))_+
        assert float(r["excess_set_probability"]) <= max(0.0, 1 - math.log(1 / float(r["delta"]))) + 1e-15
    # at a larger distance the printed bound is not exceeded at y = f(x): the gap is a small-distance effect
    assert not rows[2]["violates_printed_step"]
    assert res.evidence["corrected"] and res.evidence["printed"]
