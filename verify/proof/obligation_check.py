"""Prove and re-check one obligation of :mod:`.obligations` (F <= 0 on its box), in the proof layer.

:func:`prove_obligation` runs the prover on the obligation's box, then re-checks the resulting
certificate with :func:`recheck_obligation_proof`, which rebuilds what must be proven from the code
(the obligation's objective, its threshold 0, its monotonicity hints and its method) and takes from the
record only the boxes and their bounds.  The outcome is plain data (:class:`ObligationOutcome`); the
claim modules of :mod:`verify.claims` turn it into a verdict, the proof modules (e.g. :mod:`.kde_def8`)
use it as one step of a larger proof.  Nothing here imports :mod:`verify.claims`.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from ._results import RecheckResult

__all__ = ["BUDGET", "ObligationOutcome", "obligation", "prove_obligation", "recheck_boxes",
           "recheck_obligation_proof", "proof_summary", "flint_missing"]

#: Prover budget per scale: (max boxes, seconds).  A proof is all or nothing: a smaller budget would only
#: turn proofs into "undecided".
BUDGET: Mapping[str, tuple[int, float]] = {"test": (200_000, 120.0), "full": (5_000_000, 3600.0)}


def flint_missing() -> str | None:
    """Why the ball-arithmetic prover is unavailable (python-flint missing), or None."""
    try:
        import flint  # noqa: F401, PLC0415 - optional dependency (the "proof" extra)
    except ImportError as exc:
        return f"python-flint is not installed (pip install 'smoothsens[proof]'): {exc}"
    return None


@lru_cache(maxsize=None)
def _obligations(scale: str, controls: bool) -> dict[str, Any]:
    """The obligations of ``scale`` (and the controls), by id, once per process: an Obligation is frozen
    and builds a fresh objective on each call, and ``controls()`` costs a second (tight_eta)."""
    from . import obligations as O  # noqa: PLC0415 - needs python-flint

    return {ob.id: ob for ob in O.catalogue(scale) + (O.controls() if controls else [])}


def obligation(ob_id: str, scale: str) -> Any:
    """The :class:`.obligations.Obligation` ``ob_id`` at ``scale`` ("test" or "full"); ValueError if unknown."""
    if scale not in BUDGET:
        raise ValueError(f"scale must be one of {sorted(BUDGET)}; got {scale!r}")
    ob = _obligations(scale, ob_id.startswith("control-")).get(ob_id)
    if ob is None:
        raise ValueError(f"unknown obligation id {ob_id!r} at scale {scale!r}")
    return ob


def _frac(x: Any) -> Fraction:
    return Fraction(str(x))


def _leaf_proofs(proof: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The plain box-list proofs inside a proof record (itself, or the parts of a composite one)."""
    parts = proof.get("parts")
    if isinstance(parts, Mapping):  # convex switching: {part name: proof}
        return [q for p in parts.values() for q in _leaf_proofs(p)]
    if isinstance(parts, list):  # several obligations: [{"rebuild", "proof"}, ...]
        return [q for p in parts for q in _leaf_proofs(p["proof"])]
    return [proof]


def proof_summary(proof: Mapping[str, Any]) -> dict[str, Any]:
    """Number of boxes and the largest certified bound of a proof record (for display only)."""
    leaves = _leaf_proofs(proof)
    bounds = [_frac(b) for q in leaves for b in q.get("bounds", [])]
    return {"n_boxes": sum(len(q.get("boxes", [])) for q in leaves), "max_bound": str(max(bounds)) if bounds else None,
            "max_bound_float": float(max(bounds)) if bounds else None, "threshold": proof.get("threshold", "0")}


def _reject(problems: list[str], prec: int = 0, n: int = 0, t0: float | None = None) -> RecheckResult:
    return RecheckResult(False, problems[:20], n, prec, 0.0 if t0 is None else time.perf_counter() - t0)


def _recheck_switching(proof: Mapping[str, Any], obj: Any, threshold: Fraction, prec: int) -> Any:
    """:func:`.recheck.recheck_switching` with the threshold the caller rebuilt (every part must prove
    F_part <= threshold; the parts' own recorded thresholds are not trusted)."""
    from .recheck import recheck_switching  # noqa: PLC0415 - needs python-flint

    return recheck_switching(dict(proof), obj, threshold=threshold, prec=prec)


def recheck_boxes(proof: Mapping[str, Any], obj: Any, *, threshold: Fraction, prec: int = 128,
                  monotone: Mapping[int, int] | None = None) -> Any:
    """:func:`.recheck.recheck` of the box list ``proof`` against ``obj`` for F <= ``threshold``, the
    threshold being the caller's (rebuilt from the claim), never the record's: a record stating another
    one is rejected."""
    from .recheck import recheck  # noqa: PLC0415 - needs python-flint

    if _frac(proof.get("threshold", "nan")) != threshold:
        return _reject([f"field 'threshold': the proof proves F <= {proof.get('threshold')}, the claim states "
                        f"F <= {threshold}"], prec)
    assert "threshold" in inspect.signature(recheck).parameters
    return recheck(dict(proof), obj, threshold=threshold, prec=prec, monotone=dict(monotone or {}))


def _method_of(proof: Mapping[str, Any]) -> str:
    if proof.get("method"):
        return str(proof["method"])
    return "convex-switching" if proof.get("combine") == "convex-switching" else "interval"


def recheck_obligation_proof(ob_id: str, scale: str, proof: Any, *, prec: int = 128) -> RecheckResult:
    """Re-check the certificate ``proof`` (a box list, or a convex-switching proof) against the obligation
    ``ob_id`` at ``scale``, rebuilt here from the code: F <= 0 on the obligation's own box, with the
    obligation's own monotonicity hints and method.  The record supplies only the boxes and their bounds: a
    threshold other than 0, other hints, another method, or an empty box list is rejected."""
    t0 = time.perf_counter()
    if not isinstance(proof, Mapping):
        return _reject([f"{ob_id}: the part carries no proof record"], prec)
    try:
        ob = obligation(ob_id, scale)
    except ValueError as exc:
        return _reject([str(exc)], prec)
    obj = ob.build()
    problems: list[str] = []
    if _frac(proof.get("threshold", "0")) != 0:
        problems.append(f"field 'threshold': the proof's threshold {proof.get('threshold')} is not the obligation's 0")
    if ob.method == "convex-switching":
        if proof.get("combine") != "convex-switching":
            return _reject(problems + [f"field 'method': {ob_id} is proven by the convex switching lemma; the record "
                                       f"is a {_method_of(proof)!r} proof"], prec, 0, t0)
        rc = _recheck_switching(proof, obj, Fraction(0), prec)
    else:
        if proof.get("combine") is not None or proof.get("parts") is not None:
            return _reject(problems + [f"field 'method': {ob_id} is proven by branch and bound on one box list; the "
                                       f"record is a composite proof"], prec, 0, t0)
        monotone = {int(k): int(v) for k, v in (ob.prove.get("monotone") or {}).items()}
        hinted = {int(k): int(v) for k, v in (proof.get("monotone") or {}).items()}
        if hinted != monotone:
            problems.append(f"field 'monotone': the proof's monotonicity hints {hinted} are not the obligation's "
                            f"{monotone}")
        if problems:
            return _reject(problems, prec, 0, t0)
        rc = recheck_boxes(proof, obj, threshold=Fraction(0), prec=prec, monotone=monotone)
    problems += list(rc.problems)
    if rc.ok and not problems and rc.n_boxes <= 0:
        problems.append(f"{ob_id}: the certificate has no box")
    return _reject(problems, rc.prec, rc.n_boxes, t0) if problems else rc


@dataclass(frozen=True)
class ObligationOutcome:
    """The outcome of proving one obligation.

    ``status``: "proven" (prover proved it **and** the independent re-check accepted the certificate),
    "refuted" (a point with F > 0 certified by a ball whose lower end is > 0 and confirmed by mpmath at
    50 digits), "disagreement" (prover and re-checker, or ball and mpmath, disagree), "undecided"
    (within the budget) or "unavailable" (python-flint missing).  ``evidence``: JSON-able record (the
    certificate under "proof", the re-check under "recheck", the point under "counterexample")."""

    obligation: str
    scale: str
    status: str
    reason: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    recheck: RecheckResult | None = None
    prec: int = 0

    @property
    def proven(self) -> bool:
        return self.status == "proven"


_DECIDED: dict[tuple[Any, ...], ObligationOutcome] = {}


def _recheck_json(rc: Any) -> dict[str, Any]:
    return {"ok": rc.ok, "problems": list(rc.problems), "n_boxes": rc.n_boxes, "prec": rc.prec,
            "seconds": round(rc.seconds, 3)}


def prove_obligation(ob_id: str, scale: str = "test", *, max_boxes: int | None = None,
                     time_limit: float | None = None) -> ObligationOutcome:
    """Prove the obligation ``ob_id`` on its ``scale`` box (budget :data:`BUDGET` unless given) and re-check
    the certificate (:func:`recheck_obligation_proof`).  A proven or refuted outcome (deterministic: exact
    boxes, fixed precision) is kept for the process; an undecided one (it may depend on the time limit) is
    recomputed."""
    key = (ob_id, scale, max_boxes, time_limit)
    if key in _DECIDED:
        return _DECIDED[key]
    out = _prove(ob_id, scale, max_boxes=max_boxes, time_limit=time_limit)
    if out.status in ("proven", "refuted"):
        _DECIDED[key] = out
    return out


def _prove(ob_id: str, scale: str, *, max_boxes: int | None, time_limit: float | None) -> ObligationOutcome:
    missing = flint_missing()
    if missing:
        return ObligationOutcome(ob_id, scale, "unavailable", missing, {"obligation": ob_id})
    from . import obligations as O  # noqa: PLC0415 - needs python-flint

    mb, tl = BUDGET[scale]
    mb = mb if max_boxes is None else max_boxes
    tl = tl if time_limit is None else time_limit
    ob = obligation(ob_id, scale)
    t0 = time.perf_counter()
    obj = ob.build()
    t_build = time.perf_counter() - t0
    kw = {**ob.prove, "max_boxes": mb, "time_limit": tl}
    res = O.prove_switching(obj, ob.split, **kw) if ob.method == "convex-switching" else O.prove_le(obj, **kw)
    ev: dict[str, Any] = {
        "obligation": ob.id, "source": ob.source, "statement": ob.statement, "domain": ob.domain, "scale": scale,
        "budget": {"max_boxes": mb, "seconds": tl}, "status": res.status, "reason": res.reason,
        "n_boxes_evaluated": res.n_boxes, "seconds_build": round(t_build, 3), "seconds_prove": round(res.seconds, 3),
        "objective": res.objective, "rebuild": {"what": "obligation", "obligation": ob.id, "scale": scale},
    }
    if res.status == "proven":
        proof = res.to_json()
        ev["proof"] = proof
        ev.update(proof_summary(proof))
        rc = recheck_obligation_proof(ob.id, scale, proof)  # a fresh objective, threshold 0, another precision
        ev["recheck"] = _recheck_json(rc)
        if not rc.ok:
            return ObligationOutcome(ob.id, scale, "disagreement",
                                     f"the prover says proven ({len(res.boxes)} boxes) but the independent re-check "
                                     f"rejects the proof: {'; '.join(rc.problems[:3])}", ev, rc, res.prec)
        return ObligationOutcome(ob.id, scale, "proven", f"{len(res.boxes)} boxes", ev, rc, res.prec)
    if res.status == "refuted":
        cx = dict(res.counterexample or {})
        ev["counterexample"] = cx
        ev["counterexample_box"] = None if res.box is None else [[str(a), str(b)] for a, b in res.box]
        lower = _frac(cx.get("lower", "0"))
        if lower > res.threshold and cx.get("mp50_confirms") is True:
            return ObligationOutcome(ob.id, scale, "refuted", "certified point", ev, None, res.prec)
        return ObligationOutcome(ob.id, scale, "disagreement",
                                 f"the ball certifies F > 0 at a point but mpmath at 50 digits does not confirm it "
                                 f"(mp50 = {cx.get('mp50')})", ev, None, res.prec)
    ev["worst_box"] = None if res.box is None else [[str(a), str(b)] for a, b in res.box]
    ev["worst_bound"] = None if res.bound is None else str(res.bound)
    return ObligationOutcome(ob.id, scale, "undecided",
                             f"undecided within budget {mb} boxes / {tl:g} s ({res.n_boxes} boxes evaluated, "
                             f"{res.seconds:.1f} s): {res.reason}", ev, None, res.prec)
