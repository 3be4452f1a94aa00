"""Rigorous proofs of the papers' inequalities by branch and bound on ball arithmetic.

A VERIFIED verdict of a claim says either *tested* (a search found no counterexample) or, with
this package, *proven* on a stated domain, with a certificate that :func:`recheck` re-checks:

* :mod:`.functions`  -- arb (python-flint) evaluators translated from the SymPy derivations
  (:class:`Objective`: sign splitting, mean-value form, monotone faces, compactified half-lines);
* :mod:`.prover`     -- :func:`prove_le` (F <= 0 on a box: "proven" / "refuted" / "undecided")
  and :func:`enclose_sup` (sup F to a given width, lower end attained);
* :mod:`.recheck`    -- :func:`recheck` (every box re-proven by the independent evaluator
  :mod:`.ball_eval`, exact coverage check; threshold and hints from the caller);
* :mod:`.obligations` -- the inequalities of 004 / 002 as obligations (:func:`catalogue`,
  :func:`controls`, :func:`tight_enclosure`); :func:`loss_rate_objective` the rate of a package family;
* :mod:`.rates`      -- :func:`density_rate_objective`: the loss rate of a user's own noise density;
* :mod:`.record`     -- proofs as data: :class:`ProofRecord`, :class:`Domain` (``contains(point)`` /
  ``contains(mechanism)``), the :class:`ProofMethod` protocol and its registry (:func:`register_method`,
  :func:`method_named`: a record whose method has no registered re-checker proves nothing).

A user's proof (a claim file run by ``smoothsens audit --claims FILE``; ``examples/my_proofs.py``)::

    from verify.claims import claim, obligation_for, with_proof
    from verify.claims.user import interval_obligation
    from verify.proof import Objective, Variable, prove_le

    @obligation_for("user-my-bound")          # what a proof of the claim must prove, from this code
    def obligation(scale):
        return interval_obligation("user-my-bound", my_objective, domain="x in [0, 1]", statement="F <= 0")

``--recheck-proof`` rebuilds that obligation from the file and re-checks the record's boxes against it.

Typical use (a claim module attaches the result to its claim)::

    from verify.proof import obligations, prove_le, recheck
    ob = next(o for o in obligations.catalogue("full") if o.id == "004-Lemma-3.5-rate")
    proof = prove_le(ob.build())
    assert proof.status == "proven" and recheck(proof.to_json(), ob.build(), threshold=0).ok
"""

from typing import Any

from ._results import RecheckResult
from .record import Domain, ProofMethod, ProofRecord, Range, is_registered, method_named, register_method, \
    registered_methods

try:  # the ball-arithmetic modules need python-flint (the "proof" extra)
    from .functions import Objective, Variable, compile_arb
    from .prover import ProofResult, SupEnclosure, enclose_sup, prove_le
    from .recheck import recheck
except ImportError as _exc:  # without flint the flint-free parts (_results, symbolic, ...) still import
    _FLINT_ERROR: ImportError | None = _exc
else:
    _FLINT_ERROR = None

__all__ = ["Objective", "Variable", "compile_arb", "ProofResult", "SupEnclosure", "prove_le", "enclose_sup",
           "RecheckResult", "recheck", "loss_rate_objective", "density_rate_objective", "ProofRecord", "Domain",
           "Range", "ProofMethod", "register_method", "method_named", "registered_methods", "is_registered"]


_NEEDS_FLINT = frozenset({"Objective", "Variable", "compile_arb", "ProofResult", "SupEnclosure", "prove_le",
                          "enclose_sup", "recheck", "loss_rate_objective", "density_rate_objective"})


def __getattr__(name: str) -> Any:
    """Without python-flint, the ball-arithmetic names raise the ImportError that says how to install it."""
    if name in _NEEDS_FLINT and _FLINT_ERROR is not None:
        raise ImportError(str(_FLINT_ERROR)) from _FLINT_ERROR
    if name == "loss_rate_objective":  # imported on first use: the obligations module is large
        from .obligations import loss_rate_objective  # noqa: PLC0415 - needs python-flint (the proof extra)

        return loss_rate_objective
    if name == "density_rate_objective":
        from .rates import density_rate_objective  # noqa: PLC0415 - needs python-flint (the proof extra)

        return density_rate_objective
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
