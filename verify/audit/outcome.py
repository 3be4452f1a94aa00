"""The three outcomes of every audit, and the predicates every audit report derives from them.

An audit ends in exactly one of

* ``"violated"``     -- the claimed guarantee is refuted by a certificate (an mpmath re-evaluation, a
                        sampling bound at the stated confidence, or an exact float reachability proof);
* ``"inconclusive"`` -- an excess was found that could not be certified: never a pass;
* ``"pass"``         -- no excess beyond rounding was found at the stated budget.

A report class defines ``outcome``; :class:`OutcomePredicates` gives it ``violated``,
``inconclusive`` and ``passed``, so that no consumer can mistake an inconclusive audit for a pass.
The findings of an audit about one ordered pair of inputs (x, x') -- the pairs of a black-box audit,
the pairs of a floating-point audit -- are :class:`OrderedPair` records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["OUTCOMES", "OutcomePredicates", "OrderedPair"]

OUTCOMES: tuple[str, ...] = ("pass", "violated", "inconclusive")


class OutcomePredicates:
    """``violated`` / ``inconclusive`` / ``passed`` from the subclass's ``outcome`` (module docstring)."""

    outcome: str

    @property
    def violated(self) -> bool:
        """True iff the claimed guarantee is refuted by a certificate."""
        return self.outcome == "violated"

    @property
    def inconclusive(self) -> bool:
        """True iff an excess could not be certified (neither pass nor violation)."""
        return self.outcome == "inconclusive"

    @property
    def passed(self) -> bool:
        """True iff no excess beyond rounding was found (never True for an inconclusive audit)."""
        return self.outcome == "pass"


@dataclass(frozen=True)
class OrderedPair:
    """A finding about one ordered pair of inputs: the mechanism on ``x`` against the mechanism on
    ``x_prime`` (the order matters: the privacy loss ln p_x(y)/p_x'(y) is not symmetric).  Subclasses add
    the finding's own fields after these two."""

    x: Any
    x_prime: Any

    def pair_text(self, fmt: Callable[[Any], str] = repr) -> str:
        """"x=... vs x'=..." with each input written by ``fmt``."""
        return f"x={fmt(self.x)} vs x'={fmt(self.x_prime)}"

    def pair_json(self, conv: Callable[[Any], Any] = lambda v: v) -> dict[str, Any]:
        """{"x": ..., "x_prime": ...} with each input converted by ``conv`` (e.g. a JSON sanitiser)."""
        return {"x": conv(self.x), "x_prime": conv(self.x_prime)}
