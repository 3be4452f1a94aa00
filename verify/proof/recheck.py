"""Independent re-check of a serialised proof of F <= threshold (issue 16).

:func:`recheck` takes the JSON of a :class:`~verify.proof.prover.ProofResult` (a list of boxes with
a claimed upper bound of F on each) and the objective rebuilt from its SymPy expression (a fresh
:class:`~verify.proof.functions.Objective`, see :func:`verify.proof.obligations.build`), and checks

(a) every claimed bound is <= threshold, and a fresh ball evaluation of F on the box, at the
    re-checker's own precision, has an upper end <= threshold (this alone re-proves the box) and
    <= the claimed bound up to 2^-20 relative (two valid enclosures at different precisions and
    30-bit ball radii differ in the last bits) -- an edited bound below what F reaches is rejected;
(b) the boxes cover the stated domain, with exact rational arithmetic: the domain recorded in the
    proof must equal the objective's domain, and a recursive guillotine check (every region is a
    single box, or splits at its midpoint in some coordinate with every box on one side) shows
    that the boxes tile it -- a removed box leaves a region without a box, a duplicated or
    overlapping box a region that does not split.

A proof by the convex switching lemma (:func:`verify.proof.prover.prove_switching`, a tangency)
is re-checked by :func:`recheck_switching`: the four part objectives are derived afresh from the
rebuilt F and the recorded split (which must lie inside the b-range), the identity F1 = -dc/db is
re-simplified by SymPy, and each part's box list is re-checked by :func:`recheck` against its own
fresh objective (so the corner [b0, split] x G and the rest [split, b1] x G, which tile F's domain,
are each covered; the face is checked on G).

The re-checker shares the ball translation (:mod:`verify.proof.functions`) with the prover, not
its search: it trusts no bound and no box of the proof.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Sequence

from ._results import RecheckResult
from .functions import upper_fraction, workprec
from .prover import SWITCHING_PARTS, ProofResult, box_from_json, switching_parts

__all__ = ["RecheckResult", "recheck", "recheck_switching", "covers"]


def covers(region: Sequence[tuple[Fraction, Fraction]], boxes: Sequence[Sequence[tuple[Fraction, Fraction]]]) -> bool:
    """True iff ``boxes`` tile ``region`` by recursive midpoint bisection (exact arithmetic)."""
    stack = [(tuple(region), list(boxes))]
    while stack:
        reg, bs = stack.pop()
        if not bs:
            return False
        if len(bs) == 1:
            if tuple(bs[0]) != reg:
                return False
            continue
        for d, (lo, hi) in enumerate(reg):
            if lo == hi:
                continue
            m = (lo + hi) / 2
            left = [b for b in bs if b[d][1] <= m]
            right = [b for b in bs if b[d][0] >= m]
            if left and right and len(left) + len(right) == len(bs):
                stack.append((reg[:d] + ((lo, m),) + reg[d + 1:], left))
                stack.append((reg[:d] + ((m, hi),) + reg[d + 1:], right))
                break
        else:
            return False
    return True


def recheck(proof: dict[str, Any] | ProofResult, objective: Any, *, prec: int = 128,
            monotone: dict[int, int] | None = None) -> RecheckResult:
    """Re-check a proof of F <= threshold (its JSON or the ProofResult) against ``objective``.

    ``prec`` is the re-checker's arb precision (bits), independent of the prover's."""
    data = proof.to_json() if isinstance(proof, ProofResult) else proof
    t0 = time.perf_counter()
    problems: list[str] = []
    if data.get("status") != "proven":
        return RecheckResult(False, [f"status is {data.get('status')!r}, not 'proven'"], 0, prec, 0.0)
    if monotone is None and data.get("monotone"):
        monotone = {int(k): int(v) for k, v in data["monotone"].items()}
    thr = Fraction(data["threshold"])
    boxes = [tuple(box_from_json(b)) for b in data["boxes"]]
    bounds = [Fraction(b) for b in data["bounds"]]
    if len(boxes) != len(bounds):
        problems.append(f"{len(boxes)} boxes but {len(bounds)} bounds")
    domain = tuple(box_from_json(data["domain"]))
    stated = tuple(objective.domain())
    if domain != stated:
        problems.append(f"the proof's domain {data['domain']} is not the objective's domain")
    # (b) coverage
    if not all(all(dlo <= lo <= hi <= dhi for (lo, hi), (dlo, dhi) in zip(b, stated)) for b in boxes):
        problems.append("a box lies outside the domain")
    if not covers(stated, boxes):
        problems.append("the boxes do not tile the domain (a box is missing, duplicated or overlapping)")
    # (a) bounds
    # consistency of a claimed bound with the fresh one: both are valid upper bounds, computed at
    # different precisions (and with 30-bit ball radii), so they agree to ~2^-28 relative only
    slack = Fraction(1, 2**20)
    with workprec(prec):
        for k, (b, claimed) in enumerate(zip(boxes, bounds)):
            if claimed > thr:
                problems.append(f"box {k}: claimed bound {float(claimed):.6g} > threshold {float(thr):.6g}")
                continue
            face = list(b)
            for i, s in (monotone or {}).items():
                lo, hi = face[i]
                face[i] = (hi, hi) if s > 0 else (lo, lo)
            v = objective.evaluate(face, upper_only=True)
            up = upper_fraction(v)
            if not up <= thr:
                problems.append(f"box {k}: fresh upper bound {float(up):.6g} > threshold")
            elif up > claimed + slack * max(Fraction(1), abs(claimed)):
                problems.append(f"box {k}: fresh upper bound {float(up):.17g} > claimed {float(claimed):.17g} (edited bound?)")
            if len(problems) >= 20:
                break
    return RecheckResult(not problems, problems, len(boxes), prec, time.perf_counter() - t0)


def recheck_switching(proof: dict[str, Any], objective: Any, *, prec: int = 128) -> RecheckResult:
    """Re-check a convex-switching proof (:meth:`verify.proof.prover.SwitchingProof.to_json`) of
    F <= 0 against ``objective`` (F rebuilt): every part re-checked against its objective derived
    here from F and the split, the identity re-simplified, the domain and threshold F's own."""
    t0 = time.perf_counter()
    if proof.get("status") != "proven":
        return RecheckResult(False, [f"status is {proof.get('status')!r}, not 'proven'"], 0, prec, 0.0)
    problems: list[str] = []
    if Fraction(proof.get("threshold", "0")) != 0:
        problems.append(f"the proof's threshold {proof.get('threshold')} is not 0")
    if tuple(box_from_json(proof["domain"])) != tuple(objective.domain()):
        problems.append(f"the proof's domain {proof['domain']} is not the objective's domain")
    try:
        parts = switching_parts(objective, Fraction(proof["split"]))
    except ValueError as exc:
        return RecheckResult(False, problems + [f"the switching lemma does not apply: {exc}"], 0, prec,
                             time.perf_counter() - t0)
    if parts["identity"] != 0:
        problems.append(f"the identity F1 = -dc/db fails on the rebuilt F (F1 + dc/db = {parts['identity']})")
    recorded = proof.get("parts") or {}
    if set(recorded) != set(SWITCHING_PARTS):
        problems.append(f"the proof's parts {sorted(recorded)} are not the lemma's {sorted(SWITCHING_PARTS)}")
    n = 0
    for name in SWITCHING_PARTS:
        if name not in recorded:
            continue
        rc = recheck(dict(recorded[name]), parts[name], prec=prec, monotone={})
        n += rc.n_boxes
        problems += [f"part {name}: {p}" for p in rc.problems]
    return RecheckResult(not problems, problems[:20], n, prec, time.perf_counter() - t0)
