"""The proof obligation as data: :class:`Obligation`, shared by the obligation catalogues.

An obligation states an inequality F <= 0 on a domain, with ``build()`` returning the
:class:`~verify.proof.functions.Objective` F for :mod:`verify.proof.prover`.  The catalogues
(:mod:`verify.proof.obligations`, :mod:`verify.proof.def8_cond1`, :mod:`verify.proof.kde_constants`)
build their entries from this type; it lives here, below all of them, so that none imports another's
catalogue to get it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from .functions import Objective

__all__ = ["Obligation"]


@dataclass(frozen=True)
class Obligation:
    """One proof obligation: ``build()`` returns a fresh Objective (F <= 0 on its domain).

    ``expect``: "proven" for the papers' inequalities, "refuted" for the controls."""

    id: str
    source: str
    statement: str
    domain: str
    build: Callable[[], Objective]
    expect: str = "proven"
    prove: dict[str, Any] = field(default_factory=dict)
    #: "branch-and-bound" (prove_le on ``build()``) or "convex-switching" (prove_switching on
    #: ``build()`` split at b = ``split``: a tangency that plain subdivision cannot close)
    method: str = "branch-and-bound"
    split: Fraction | None = None
