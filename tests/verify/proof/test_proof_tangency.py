"""004 Lemma 4.1 with Def. 8 (2) at the tangency gamma tau -> 1: the convex switching lemma
(verify.proof.prover.prove_switching, verify.proof.recheck.recheck_switching)."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

pytest.importorskip("flint")

from verify.claims.sets import proofs as P  # noqa: E402
from verify.proof import obligations as O  # noqa: E402
from verify.proof import prove_le  # noqa: E402
from verify.proof.prover import SWITCHING_PARTS, prove_switching, switching_parts  # noqa: E402
from verify.proof.recheck import recheck_switching  # noqa: E402

Q = Fraction
GAP = (Q(15, 16), Q(1))


def _full(slack: Fraction = Q(0)):  # type: ignore[no-untyped-def]
    return O.threshold_def8_objective((Q(0), Q(19, 2)), GAP, slack=slack)


@pytest.fixture(scope="module")
def tangent_proof() -> dict:
    res = prove_switching(_full(), O.THR_SPLIT)
    assert res.status == "proven", res.reason
    return res.to_json()


def test_plain_branch_and_bound_does_not_close_the_tangency_corner():
    # the reason for the lemma: near (b, gamma tau) = (0, 1) subdivision does not finish
    res = prove_le(_full(), box=[(Q(0), O.THR_SPLIT)], max_boxes=500)
    assert res.status == "undecided"


def test_switching_parts_are_derived_from_the_objective():
    parts = switching_parts(_full(), O.THR_SPLIT)
    assert parts["identity"] == 0  # F1 = 1/(1 + b) - gamma = -d/db (gamma b - log1p(b))
    assert parts["face"].domain() == [GAP] and parts["convexity"].domain() == [(Q(0), O.THR_SPLIT), GAP]
    assert parts["regular"].domain() == [(O.THR_SPLIT, Q(19, 2)), GAP]
    assert str(parts["face"].expr) == "0"  # c(0, gamma) = 0: the tangency sits on the face b = 0
    with pytest.raises(ValueError, match="split must be in"):
        switching_parts(_full(), Q(10))


def test_tangency_is_proven_with_every_part_and_rechecked(tangent_proof):
    assert set(tangent_proof["parts"]) == set(SWITCHING_PARTS) and tangent_proof["identity"] == "0"
    assert all(p["status"] == "proven" for p in tangent_proof["parts"].values())
    rc = recheck_switching(tangent_proof, _full())
    assert rc.ok, rc.problems


@pytest.mark.parametrize("edit", ["drop-part", "face-box", "split", "bound", "domain"])
def test_recheck_rejects_an_edited_switching_proof(tangent_proof, edit):
    bad = copy.deepcopy(tangent_proof)
    if edit == "drop-part":
        del bad["parts"]["convexity"]
    elif edit == "face-box":  # the face proven on half of G only
        bad["parts"]["face"]["boxes"] = [[["15/16", "31/32"]]]
    elif edit == "split":  # a split at the end of the b-range leaves no regular part
        bad["split"] = "19/2"
    elif edit == "bound":
        bad["parts"]["regular"]["bounds"] = ["-1000"] * len(bad["parts"]["regular"]["bounds"])
    else:
        bad["domain"] = [["0", "19/2"], ["31/32", "1"]]
    assert not recheck_switching(bad, _full()).ok


def test_recheck_rejects_the_proof_against_a_shaved_bound(tangent_proof):
    # the same boxes, but the objective with the bound 1e-6 smaller: the identity no longer holds
    rc = recheck_switching(tangent_proof, _full(Q(1, 10**6)))
    assert not rc.ok and any("identity" in p for p in rc.problems)


def test_shaved_bound_at_the_tangency_is_refuted_with_a_certified_point():
    res = P.check_obligation("control-Lemma-4.1-Def-8-tangency-bound-minus-1e-6", refuted_rule="R-INVALID",
                             planted=True)
    assert res.verdict.value == "REFUTED", res.summary
    cx = res.evidence["counterexample"]
    b, gamma = (Fraction(x) for x in cx["point_original"])
    assert cx["mp50_confirms"] is True and Fraction(cx["lower"]) > 0
    assert b < Q(1, 10**6) and 1 - gamma < Q(1, 10**6)  # next to the tangency (b, gamma tau) = (0, 1)


def test_tangency_claim_is_proven_and_the_lemma_4_1_claims_cover_gamma_from_1_20_to_2():
    res = P.check_obligation(O.THR_TANGENT)
    assert res.verdict.value == "VERIFIED" and res.strength == "proven", res.summary
    assert P.recheck_evidence(res.evidence, claim_id="004-Lemma-4.1-def8-proof-gamma-tangent").ok
    gammas = []
    for spec in P.PAPER_OBLIGATIONS:
        if spec.obligation.startswith("004-Lemma-4.1-Def-8-(2)-gamma["):
            lo, hi = spec.obligation.split("[")[1].rstrip("]").split(",")
            gammas.append((Fraction(lo), Fraction(hi)))
    gammas.sort()
    assert gammas[0][0] == Q(1, 20) and gammas[-1][1] == 2
    assert all(a[1] == b[0] for a, b in zip(gammas, gammas[1:])), gammas  # no gap left
