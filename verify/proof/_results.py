"""The outcome of an independent re-check of a proof record, free of python-flint.

Every re-checker of :mod:`verify.proof` (:func:`verify.proof.recheck.recheck` on ball boxes,
:func:`verify.proof.symbolic.recheck` on SymPy steps, and the method re-checkers named in
the registry of proof methods, :mod:`verify.proof.record`) answers with a :class:`RecheckOutcome`: ``ok``
iff every check passed, ``problems`` the failures found.  Its subclasses add what their method
counts (boxes, or SymPy steps and ball points), the arb precision and the time taken;
``describe_recheck`` reads ``ok``, ``problems``, ``n_boxes``, ``prec`` and ``seconds`` from any of them.

This module imports the standard library only, so a caller can build or read an outcome without
importing the ball arithmetic (:mod:`verify.proof.recheck` imports python-flint at import time).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["RecheckOutcome", "RecheckResult", "header_problems", "count_checks"]

from typing import Any, Mapping, Sequence


@dataclass(frozen=True)
class RecheckOutcome:
    """``ok`` True iff the record passed every check of its re-checker; ``problems`` lists every
    failure found (the re-checkers keep the first 20)."""

    ok: bool
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RecheckResult(RecheckOutcome):
    """The re-check of a branch-and-bound proof: ``n_boxes`` boxes re-evaluated at ``prec`` bits of
    arb in ``seconds`` (:func:`verify.proof.recheck.recheck`)."""

    n_boxes: int = 0
    prec: int = 0
    seconds: float = 0.0


def header_problems(record: Mapping[str, Any], *, method: str, domain: str, relies_on: Sequence[str],
                    statement: str | None = None) -> list[str]:
    """What a method re-checker finds wrong in the header of a proof record: its ``method``, that its
    ``status`` is "proven", and that its ``domain``, ``relies_on`` (and ``statement``, when given) are
    exactly the ones the re-checker's own module establishes (an edited header is a rejected proof)."""
    problems = []
    if record.get("method") != method:
        problems.append(f"method {record.get('method')!r} is not {method!r}")
    if record.get("status") != "proven":
        problems.append(f"the record's status is {record.get('status')!r}")
    if record.get("domain") != domain:
        problems.append("the record's domain is not the one this proof establishes")
    if statement is not None and record.get("statement") != statement:
        problems.append("the record's statement differs from the stated bounds")
    if list(record.get("relies_on") or []) != list(relies_on):
        problems.append("the record's relies_on differs from the proof's")
    return problems


def count_checks(record: Mapping[str, Any]) -> int:
    """The number of machine checks (SymPy identities, signs, limits) in the steps of a chain proof record
    (``record["steps"][i]["checks"]``)."""
    return sum(len(st.get("checks") or ()) for st in record.get("steps") or ())
