"""The three outcomes of every audit, and the predicates every audit report derives from them.

An audit ends in exactly one of

* ``"violated"``     -- the claimed guarantee is refuted by a certificate (an mpmath re-evaluation, a
                        sampling bound at the stated confidence, or an exact float reachability proof);
* ``"inconclusive"`` -- an excess was found that could not be certified: never a pass;
* ``"pass"``         -- no excess beyond rounding was found at the stated budget.

A report class defines ``outcome``; :class:`OutcomePredicates` gives it ``violated``,
``inconclusive`` and ``passed``, so that no consumer can mistake an inconclusive audit for a pass.
"""

from __future__ import annotations

__all__ = ["OUTCOMES", "OutcomePredicates"]

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
