"""The outcome of an exact audit: pass, certified violation, or inconclusive.

An audit maximises a *slack* -- L(y; x, x') - eps dist(x, x') for a pure guarantee, or
delta_hs(x, x') - delta for (eps, delta) (004 Def. 5) -- in binary64, then re-evaluates the best
candidates in mpmath.  Three outcomes, and only three:

* ``"violated"``: a candidate's mpmath slack exceeds the certification threshold
  (:func:`verify.audit.exact.loss.cert_threshold`); the witness is a counterexample.
* ``"inconclusive"``: the float slack exceeds :func:`excess_threshold` and could not be settled in
  mpmath: the mechanism has no mpmath log-density (nothing to re-evaluate with), or the evaluation
  failed.  Neither a pass nor a violation: a wrong mechanism without a reference must not look
  correct.
* ``"pass"``: the largest float slack found is at most :func:`excess_threshold`, or it is larger but
  its re-evaluation in mpmath at ``dps`` digits shows no excess beyond the certification threshold
  (float rounding: e.g. the loss ln p_x(y) - ln p_x'(y) at |y| ~ 1e12 cancels ~12 digits; the note
  says so).  No violation in the searched region.

An excess smaller than the rounding of the log-densities it is computed from is no evidence either
way; :func:`excess_threshold` takes it into account.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from ..outcome import OUTCOMES, OutcomePredicates

__all__ = ["AuditResult", "OUTCOMES", "FLOAT_EXCESS_TOL", "excess_threshold"]


#: A float slack above this is an excess that must be certified or reported as inconclusive; below
#: it, it is rounding of the binary64 evaluation (the tight bounds of 002 Lemma 9 and 004 Lemma 2.3
#: are attained, so the float search lands at +1e-14 on correct mechanisms).
FLOAT_EXCESS_TOL = 1e-9
#: Units in the last place of the log-densities a float loss may lose: L = ln p_x(y) - ln p_x'(y)
#: of two numbers of magnitude M is known to about a few ulps of M.
_ROUNDING_ULPS = 16


def excess_threshold(magnitude: float = 0.0) -> float:
    """The float slack that counts as an excess when the loss is a difference of log-densities of
    total magnitude ``magnitude`` = |ln p_x(y)| + |ln p_x'(y)| at the candidate:
    FLOAT_EXCESS_TOL + 16 eps_machine magnitude (below it the float evaluation cannot tell an
    excess from rounding; at |y| ~ 1e12 a Laplace log-density is known to ~1e-3 only)."""
    m = float(magnitude)
    if not math.isfinite(m):
        return FLOAT_EXCESS_TOL
    return FLOAT_EXCESS_TOL + _ROUNDING_ULPS * float(np.finfo(float).eps) * abs(m)


@dataclass(frozen=True, kw_only=True)
class AuditResult(OutcomePredicates):
    """Outcome of an exact audit.

    ``mechanism``  the audited mechanism's name; ``eps``/``delta`` the claimed guarantee.
    ``max_slack``  largest float slack found: sup(L - eps d) (pure) or sup(delta_hs - delta).
    ``witness``    where (JSON-ready floats / strings); for a violation, the certified instance.
    ``outcome``    "pass", "violated" (certified in mpmath) or "inconclusive" (module docstring).
    ``certified_slack``  the mpmath slack of the certified witness (string, 20 digits), else None.
    ``evaluations``  number of float evaluations of the loss (or of delta_hs).
    ``dps``        mpmath digits of the certification; ``mode`` "pure" or "approx".
    ``notes``      why an excess was not certified, and other remarks.
    """

    mechanism: str
    eps: float
    delta: float
    max_slack: float
    witness: Mapping[str, Any]
    outcome: str
    certified_slack: str | None
    evaluations: int
    dps: int
    mode: str = "pure"
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}; got outcome={self.outcome!r}")
        if (self.outcome == "violated") != (self.certified_slack is not None):
            raise ValueError("certified_slack must be given exactly when outcome='violated'; got "
                             f"outcome={self.outcome!r}, certified_slack={self.certified_slack!r}")
        if self.mode not in ("pure", "approx"):
            raise ValueError(f"mode must be 'pure' or 'approx'; got mode={self.mode!r}")

    @staticmethod
    def decide(certified: bool, max_slack: float, settled_in_mpmath: bool, magnitude: float = 0.0,
               disagreement: bool = False) -> str:
        """The outcome of a search: "violated" if certified; "inconclusive" if the float slack exceeds
        :func:`excess_threshold` (``magnitude``: |ln p_x(y)| + |ln p_x'(y)| at the candidate) and the
        candidate at ``max_slack`` was not re-evaluated in mpmath (``settled_in_mpmath`` False), or was
        re-evaluated but the mpmath value disagrees with the float one beyond the float's rounding
        (``disagreement``: the two log-densities are not the same function, so the mpmath "no excess"
        settles nothing); "pass" otherwise (module docstring)."""
        if certified:
            return "violated"
        excess = max_slack > excess_threshold(magnitude)
        return "inconclusive" if excess and (disagreement or not settled_in_mpmath) else "pass"

    @staticmethod
    def disagree(float_value: float, mp_value: Any, magnitude: float = 0.0) -> bool:
        """True when a float value and its mpmath re-evaluation differ by more than the float's rounding:
        |float - mp| > :func:`excess_threshold` (``magnitude``) + 1e-9 |mp| (both infinite of one sign
        agree; NaN never agrees)."""
        fv = float(float_value)
        try:
            mv = float(mp_value)
        except (TypeError, ValueError, OverflowError):
            return True
        if math.isnan(fv) or math.isnan(mv):
            return True
        if math.isinf(fv) or math.isinf(mv):
            return fv != mv
        return abs(fv - mv) > excess_threshold(magnitude) + 1e-9 * abs(mv)

    @property
    def certified(self) -> bool:
        """True iff a violation was confirmed in mpmath at ``dps`` digits."""
        return self.outcome == "violated"




    def to_json(self) -> dict[str, Any]:
        return {
            "mechanism": self.mechanism,
            "eps": self.eps,
            "delta": self.delta,
            "mode": self.mode,
            "outcome": self.outcome,
            "max_slack": self.max_slack,
            "witness": dict(self.witness),
            "certified_violation": self.certified,
            "certified_slack": self.certified_slack,
            "evaluations": self.evaluations,
            "dps": self.dps,
            "notes": list(self.notes),
        }

    def summary(self) -> str:
        kind = "sup delta_hs - delta" if self.mode == "approx" else "sup(loss - eps*d)"
        if self.outcome == "violated":
            if self.mode == "approx":
                how = ("certified lower end of delta_hs, ball arithmetic" if self.witness.get("enclosure_certified")
                       else f"lower end of delta_hs from mpmath {self.dps} digits over an explicit set")
                return (f"certified violation: delta_hs - delta = {self.certified_slack} ({how}) "
                        f"at {_short(self.witness)}")
            return (f"certified violation: loss - eps*d = {self.certified_slack} (mpmath {self.dps} digits) "
                    f"at {_short(self.witness)}")
        if self.outcome == "inconclusive":
            return (f"INCONCLUSIVE: {kind} found in float = {self.max_slack:.3g} in {self.evaluations} "
                    f"evaluations, NOT certified ({'; '.join(self.notes) or 'mpmath slack <= 0'}); "
                    "neither a pass nor a violation")
        out = f"no violation in {self.evaluations} evaluations; {kind} found = {self.max_slack:.3g}"
        if self.mode == "approx" and "delta_hs_enclosure" in self.witness:
            lo, hi = self.witness["delta_hs_enclosure"]
            out += (f" (delta_hs in [{_num(lo)}, {_num(hi)}], certified upper end <= claimed delta = {self.delta:g} "
                    f"at eps = {self.eps:g})")
        elif self.mode == "approx" and "delta_hs" in self.witness:
            hs = self.witness.get("delta_hs_mp", self.witness["delta_hs"])
            out += f" (delta_hs = {_num(hs)} vs claimed delta = {self.delta:g} at eps = {self.eps:g})"
        return out


def _num(v: Any) -> str:
    """A number (float or decimal string) to 6 significant digits, exponent kept."""
    try:
        return f"{float(v):.6g}"
    except (TypeError, ValueError):
        return str(v)


def _short(w: Mapping[str, Any]) -> str:
    parts = []
    for k, v in w.items():
        if isinstance(v, float):
            parts.append(f"{k}={v:.6g}")
        elif isinstance(v, (list, tuple)) and v and all(isinstance(t, float) for t in v):
            parts.append(f"{k}=[{', '.join(f'{t:.4g}' for t in v)}]")
        elif isinstance(v, (str, int)):
            parts.append(f"{k}={v}")
    return ", ".join(parts)
