"""Rigorous proofs of the papers' inequalities by branch and bound on ball arithmetic (issue 16).

A VERIFIED verdict of a claim says either *tested* (a search found no counterexample) or, with
this package, *proven* on a stated domain, with a certificate that :func:`recheck` re-checks:

* :mod:`.functions`  -- arb (python-flint) evaluators translated from the SymPy derivations
  (:class:`Objective`: sign splitting, mean-value form, monotone faces, compactified half-lines);
* :mod:`.prover`     -- :func:`prove_le` (F <= 0 on a box: "proven" / "refuted" / "undecided")
  and :func:`enclose_sup` (sup F to a given width, lower end attained);
* :mod:`.recheck`    -- :func:`recheck` (fresh evaluation of every box, exact coverage check);
* :mod:`.obligations` -- the inequalities of 004 / 002 as obligations (:func:`catalogue`,
  :func:`controls`, :func:`tight_enclosure`).

Typical use (the lead wires this into claims)::

    from verify.proof import obligations, prove_le, recheck
    ob = next(o for o in obligations.catalogue("full") if o.id == "004-Lemma-3.5-rate")
    proof = prove_le(ob.build())
    assert proof.status == "proven" and recheck(proof.to_json(), ob.build()).ok
"""

from .functions import Objective, Variable, compile_arb
from .prover import ProofResult, SupEnclosure, enclose_sup, prove_le
from .recheck import RecheckResult, recheck

__all__ = ["Objective", "Variable", "compile_arb", "ProofResult", "SupEnclosure", "prove_le", "enclose_sup",
           "RecheckResult", "recheck"]
