"""Assertions shared by the interval-proof tests (tests/verify/proof/test_proofs_def8*.py)."""

from __future__ import annotations

from fractions import Fraction as Q
from typing import Any

from verify.proof import obligations as O
from verify.proof.prover import prove_le


def refuted_control(ob_id: str) -> Any:
    """Prove the planted control ``ob_id``: it must be refuted at a point whose ball bound is > 0 and
    that mpmath (50 digits) confirms; returns the prover's result (its counterexample for more checks)."""
    ob = next(o for o in O.controls() if o.id == ob_id)
    assert ob.expect == "refuted"
    res = prove_le(ob.build())
    assert res.status == "refuted", (ob_id, res.reason)
    cx = res.counterexample
    assert Q(cx["lower"]) > 0 and cx["mp50_confirms"] is True
    return res
