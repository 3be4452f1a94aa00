"""Independent re-check of a serialised proof of F <= threshold.

:func:`recheck` takes the JSON of a :class:`~verify.proof.prover.ProofResult` (a list of boxes with
a claimed upper bound of F on each), the objective rebuilt from its SymPy expression (a fresh
:class:`~verify.proof.functions.Objective`, see :func:`verify.proof.obligations.build`) and the
statement's ``threshold`` and monotonicity hints *from the caller* (never from the record: a record
stating others is rejected), and checks

(a) every box is re-proven: F <= threshold on it, by :mod:`verify.proof.ball_eval` -- an evaluator
    of the SymPy tree written apart from the prover's enclosures (no sign-split variants, no
    continuity shortcut, no fused x^y ln x node of :mod:`verify.proof.functions`), with its own
    case splits, monotone faces and mean-value form from ``sp.diff`` -- bisecting the box when
    needed, at most ``budget`` sub-boxes; and a claimed bound below F's value at the box's centre
    is rejected (an edited bound);
(b) the boxes cover the stated domain, with exact rational arithmetic: the domain recorded in the
    proof must equal the objective's domain, and a recursive guillotine check (every region is a
    single box, or splits at its midpoint in some coordinate with every box on one side) shows
    that the boxes tile it -- a removed box leaves a region without a box, a duplicated or
    overlapping box a region that does not split; a proof without boxes is rejected.

A proof by the convex switching lemma (:func:`verify.proof.prover.prove_switching`, a tangency)
is re-checked by :func:`recheck_switching`: the four part objectives are derived afresh from the
rebuilt F and the recorded split (which must lie inside the b-range), the identity F1 = -dc/db is
re-simplified by SymPy, and each part's box list is re-checked by :func:`recheck` against its own
fresh objective with the bound the lemma needs of it (<= 0), whatever the part's record says.

Shared with the prover: the objective's domain and compactification of a half-line variable, and
for z >= Z0 the exact SymPy rewrite G(w) = F(1/w) over a common denominator (an identity, not an
enclosure).  The re-checker applies it branch by branch (:func:`tail_rewrite`: Max / Min / |.| as
a Piecewise, each branch and each guard rewritten on its own, a guard by the numerator of lhs - rhs
when the denominator's sign is fixed on w > 0), and also to F as a whole; each is F(1/w) on w > 0,
so the least of their upper bounds is used.  A callable objective without a SymPy expression is re-evaluated by its own plain
translation (there is nothing else to evaluate).
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction
from typing import Any, Mapping, Sequence

import sympy as sp

from ._results import RecheckResult
from .ball_eval import enclose, interval_ball, upper_bound
from .functions import Objective, lower_fraction, upper_fraction, workprec
from .prover import SWITCHING_PARTS, ProofResult, box_from_json, switching_parts
from .record import describe_record, register_method

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


_ROUGH_TAIL = (sp.Piecewise, sp.Max, sp.Min, sp.Abs, sp.sign, sp.Heaviside)


def _recip_smooth(e: sp.Expr, z: sp.Symbol, w: sp.Symbol) -> sp.Expr:
    """e(z = 1/w) over a common denominator, for an e without Piecewise / Max / Min / Abs / sign /
    Heaviside (an identity on w > 0)."""
    from .functions import _recip  # noqa: PLC0415 - the exact SymPy rewrite F(1/w) only

    return _recip(e, z, w)


def _tail_relation(d: sp.Expr, z: sp.Symbol, w: sp.Symbol) -> sp.Expr:
    """An expression with the sign of d(z = 1/w) at every w > 0: d(1/w) = N/D over a common
    denominator; N when D > 0 for every w > 0 (SymPy, w declared positive), -N when D < 0, else
    N*D (sign(N/D) = sign(N*D) where D != 0).  N stays finite at w = 0 where N/D does not, so a
    box reaching z = inf can decide the relation."""
    if not d.has(z):
        return d
    if d.has(*_ROUGH_TAIL):
        return tail_rewrite(d, z, w)
    from .functions import _recip  # noqa: PLC0415 - the exact SymPy rewrite F(1/w) only

    wp = sp.Symbol(w.name, positive=True)
    num, den = sp.fraction(sp.cancel(sp.together(_recip(d, z, w, keep_positive=True))))
    if den.is_positive:
        out = num
    elif den.is_negative:
        out = -num
    else:
        out = num * den
    return out.subs(wp, w)


def _tail_cond(c: Any, z: sp.Symbol, w: sp.Symbol) -> Any:
    if isinstance(c, (sp.And, sp.Or)):
        return c.func(*[_tail_cond(a, z, w) for a in c.args])
    if isinstance(c, sp.Not):
        return sp.Not(_tail_cond(c.args[0], z, w))
    if isinstance(c, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
        d = sp.sympify(c.lhs - c.rhs)
        if not d.has(z):
            return c
        return c.func(_tail_relation(d, z, w), 0)
    if hasattr(c, "has") and c.has(z):
        raise ValueError(f"a condition the tail rewrite does not handle: {c}")
    return c


def tail_rewrite(e: sp.Expr, z: sp.Symbol, w: sp.Symbol) -> sp.Expr:
    """F(z = 1/w) branch by branch (an identity on w > 0): a smooth sub-expression over a common
    denominator; Max(a, b, ...) as the Piecewise choosing a where a >= every other argument (Min
    likewise, |a| as a where a >= 0, else -a), every Piecewise branch rewritten and every
    relation lhs - rhs rel 0 replaced by an expression of the same sign for w > 0
    (:func:`_tail_relation`).  Rewriting the whole Piecewise / Max over one common denominator
    would leave 1/w inside branches and guards: not enclosed on a box reaching w = 0 (z = inf)."""
    if not e.has(z):
        return e
    if not e.has(*_ROUGH_TAIL):
        return _recip_smooth(e, z, w)
    if isinstance(e, (sp.Max, sp.Min)):
        args = list(e.args)
        pieces = []
        for i, a in enumerate(args[:-1]):
            others = args[i + 1:]
            cond = sp.And(*[(a - o >= 0) if isinstance(e, sp.Max) else (o - a >= 0) for o in others])
            pieces.append((tail_rewrite(a, z, w), _tail_cond(cond, z, w)))
        pieces.append((tail_rewrite(args[-1], z, w), sp.true))
        return sp.Piecewise(*pieces)
    if isinstance(e, sp.Abs):
        a = e.args[0]
        return sp.Piecewise((tail_rewrite(a, z, w), _tail_cond(a >= 0, z, w)), (tail_rewrite(-a, z, w), sp.true))
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(tail_rewrite(ex, z, w), _tail_cond(c, z, w)) for ex, c in e.args])
    if isinstance(e, (sp.sign, sp.Heaviside)):
        raise ValueError(f"the tail rewrite does not handle {type(e).__name__}")
    return e.func(*[tail_rewrite(a, z, w) for a in e.args])


class _Independent:
    """Upper bounds of F on boxes of the proof domain, by :mod:`verify.proof.ball_eval` (written
    apart from the prover's enclosures) with bisection.

    For an :class:`~verify.proof.functions.Objective` the SymPy expression is evaluated directly;
    the compactified half-line variable is mapped back to z (u <= 1: z = Z0 u; u >= 1: z = Z0/(2 - u)),
    and on u >= 1 (z >= Z0, up to z = inf) F is evaluated as G(w) = F(1/w), w = (2 - u)/Z0, with G the
    objective's exact SymPy rewrite over a common denominator (an identity, no enclosure).  An
    objective without a SymPy expression (a plain arb function) is evaluated by its own plain
    translation (``centred=False, signs=False``): there is nothing else to evaluate."""

    def __init__(self, objective: Any, monotone: dict[int, int] | None, budget: int) -> None:
        self.obj = objective
        self.monotone = dict(monotone or {})
        self.budget = budget
        self.domain = [(Fraction(lo), Fraction(hi)) for lo, hi in objective.domain()]
        self.expr = getattr(objective, "expr", None) if isinstance(objective, Objective) else None
        self.cache: dict = {}
        self._tail_expr: Any = None

    def _face(self, box: Sequence[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
        face = list(box)
        for i, s in self.monotone.items():
            lo, hi = face[i]
            face[i] = (hi, hi) if s > 0 else (lo, lo)
        return face

    def _tail(self) -> Any:
        if self._tail_expr is None:
            z, w = self.obj.symbols[self.obj.half_index], self.obj.w
            forms: list[Any] = []
            try:
                forms.append(tail_rewrite(self.expr, z, w))
            except Exception:  # noqa: BLE001 - a node the branchwise rewrite does not handle: not this form
                pass
            try:
                from .functions import _recip  # noqa: PLC0415 - the exact SymPy rewrite F(1/w) only

                whole = _recip(self.expr, z, w)
                if whole not in forms:
                    forms.append(whole)
            except Exception:  # noqa: BLE001 - e.g. a Piecewise as a whole: branch by branch only
                pass
            self._tail_expr = forms  # none: every tail box is unproven (min over no bound = inf)
        return self._tail_expr

    def upper(self, box: Sequence[tuple[Fraction, Fraction]]) -> Fraction | float:
        """An exact rational >= F on the box (+inf when not enclosed)."""
        box = self._face(box)
        if self.expr is None:
            v = self.obj.evaluate(box, centred=False, signs=False)
            return upper_fraction(v)
        syms = self.obj.symbols
        i = self.obj.half_index
        try:
            if i is None:
                return upper_fraction(upper_bound(self.expr, syms, box, self.cache))
            lo, hi = box[i]
            z0 = self.obj.z0
            ups: list[Fraction | float] = []
            if lo <= 1:
                b = list(box)
                b[i] = (z0 * lo, z0 * min(hi, Fraction(1)))
                ups.append(upper_fraction(upper_bound(self.expr, syms, b, self.cache)))
            if hi > 1:
                wlo, whi = (2 - hi) / z0, (2 - max(lo, Fraction(1))) / z0
                b = list(box)
                b[i] = (wlo, whi)
                tsyms = list(syms)
                tsyms[i] = self.obj.w
                # each rewrite is F(1/w) exactly on w > 0: the least upper bound of them is valid
                tail_up = min((upper_fraction(upper_bound(t, tsyms, b, self.cache)) for t in self._tail()),
                              default=math.inf)
                if wlo > 0 and not tail_up <= 0:  # z finite on this box: F itself is a second valid bound
                    b[i] = (1 / whi, 1 / wlo)
                    tail_up = min(tail_up, upper_fraction(upper_bound(self.expr, syms, b, self.cache)))
                ups.append(tail_up)
            return max(ups)
        except (TypeError, ValueError, ZeroDivisionError):
            return math.inf

    def proves(self, box: Sequence[tuple[Fraction, Fraction]], thr: Fraction) -> tuple[bool, Fraction | float, int]:
        """(F <= thr on the box, the largest upper bound used, evaluations): bisection of the box
        (midpoint of the widest coordinate relative to the domain) up to ``budget`` evaluations."""
        stack = [list(box)]
        n = 0
        worst: Fraction | float = Fraction(-10**30)
        fixed = set(self.monotone)
        while stack:
            b = stack.pop()
            n += 1
            up = self.upper(b)
            if up <= thr:
                worst = max(worst, up)
                continue
            best, rel = -1, Fraction(-1)
            for d, ((lo, hi), (dlo, dhi)) in enumerate(zip(b, self.domain, strict=True)):
                if lo == hi or d in fixed:
                    continue
                r = (hi - lo) / (dhi - dlo)
                if r > rel:
                    best, rel = d, r
            if best < 0 or n + len(stack) + 2 > self.budget:
                return False, up, n
            lo, hi = b[best]
            m = (lo + hi) / 2
            left, right = list(b), list(b)
            left[best], right[best] = (lo, m), (m, hi)
            stack += [right, left]
        return True, worst, n

    def attained(self, box: Sequence[tuple[Fraction, Fraction]]) -> Fraction | float:
        """A value <= sup F on the box (-inf when not enclosed): the largest lower end of the point balls
        at the box's centre and its corners (a bound below any of them is not a bound of F on the box)."""
        pts = [[(lo + hi) / 2 for lo, hi in box]]
        if len(box) <= 4:
            pts += [list(c) for c in itertools.product(*[sorted({lo, hi}) for lo, hi in box])]
        return max(self._point_lower(p) for p in pts)

    def _point_lower(self, mid: Sequence[Fraction]) -> Fraction | float:
        """A value <= F at the point ``mid`` (-inf when not enclosed or at z = inf): its point ball."""
        if self.expr is None:
            return lower_fraction(self.obj.evaluate_point(mid))
        try:
            i = self.obj.half_index
            pt = [(q, q) for q in mid]
            if i is not None:
                z = self.obj.to_original(mid)[i]
                if z == math.inf:
                    return -math.inf
                pt[i] = (Fraction(z), Fraction(z))
            env = {s: interval_ball(lo, hi) for s, (lo, hi) in zip(self.obj.symbols, pt, strict=True)}
            return lower_fraction(enclose(self.expr, env))
        except (TypeError, ValueError, ZeroDivisionError):
            return -math.inf


def recheck(proof: dict[str, Any] | ProofResult, objective: Any, *, threshold: Fraction | int | str = 0,
            prec: int = 128, monotone: dict[int, int] | None = None, budget: int = 256) -> RecheckResult:
    """Re-check a proof of F <= ``threshold`` (its JSON or the ProofResult) against ``objective``.

    ``threshold`` is the caller's: the statement to re-check (default F <= 0).  A record whose own
    ``threshold`` differs is rejected, and so is any box whose claimed bound exceeds it.  Every box
    is re-proven by :mod:`verify.proof.ball_eval` (independent of the prover's enclosures) with at
    most ``budget`` evaluations of sub-boxes; a claimed bound below F's value at the box's centre
    is rejected (an edited bound).  ``prec`` is the re-checker's arb precision (bits),
    independent of the prover's."""
    data = proof.to_json() if isinstance(proof, ProofResult) else proof
    t0 = time.perf_counter()
    problems: list[str] = []
    if data.get("status") != "proven":
        return RecheckResult(False, [f"status is {data.get('status')!r}, not 'proven'"], 0, prec, 0.0)
    thr = Fraction(threshold)
    try:
        recorded = Fraction(str(data.get("threshold")))
    except (TypeError, ValueError):
        recorded = None
    if recorded != thr:
        problems.append(f"the proof's threshold {data.get('threshold')} is not the statement's {thr}")
    # monotonicity hints are lemmas of the caller's obligation, never read from the record
    monotone = dict(monotone or {})
    hinted = {int(k): int(v) for k, v in (data.get("monotone") or {}).items()}
    if hinted != monotone:
        problems.append(f"the proof's monotonicity hints {hinted} are not the statement's {monotone}")
    boxes = [tuple(box_from_json(b)) for b in data.get("boxes") or []]
    bounds = [Fraction(b) for b in data.get("bounds") or []]
    if not boxes:
        problems.append("the proof has no boxes")
    if len(boxes) != len(bounds):
        problems.append(f"{len(boxes)} boxes but {len(bounds)} bounds")
    domain = tuple(box_from_json(data["domain"]))
    stated = tuple(objective.domain())
    if domain != stated:
        problems.append(f"the proof's domain {data['domain']} is not the objective's domain")
    # (b) coverage
    if not all(len(b) == len(stated) and all(dlo <= lo <= hi <= dhi for (lo, hi), (dlo, dhi) in zip(b, stated, strict=True))
               for b in boxes):
        problems.append("a box lies outside the domain")
    elif boxes and not covers(stated, boxes):
        problems.append("the boxes do not tile the domain (a box is missing, duplicated or overlapping)")
    # (a) bounds, re-proven box by box
    # a genuine bound is >= sup F on its box >= F(centre) >= the centre ball's lower end: no slack
    ind = _Independent(objective, monotone, budget)
    n_eval = 0
    with workprec(prec):
        for k, (b, claimed) in enumerate(zip(boxes, bounds, strict=False)):  # unequal counts are reported above
            if claimed > thr:
                problems.append(f"box {k}: claimed bound {float(claimed):.6g} > threshold {float(thr):.6g}")
                continue
            ok, up, n = ind.proves(b, thr)
            n_eval += n
            if not ok:
                problems.append(f"box {k}: not re-proven by independent ball arithmetic within {budget} sub-boxes "
                                f"(upper bound {float(up):.6g} > threshold {float(thr):.6g})")
            else:
                seen = ind.attained(b)
                if seen > claimed:
                    problems.append(f"box {k}: F at a point of the box >= {float(seen):.17g} > claimed bound "
                                    f"{float(claimed):.17g} (edited bound?)")
            if len(problems) >= 3:  # rejected: the rest is not re-evaluated (each failure costs the budget)
                problems.append("re-check stopped after 3 problems")
                break
    return RecheckResult(not problems, problems, len(boxes), prec, time.perf_counter() - t0)


def recheck_switching(proof: dict[str, Any], objective: Any, *, threshold: Fraction | int | str = 0,
                      prec: int = 128) -> RecheckResult:
    """Re-check a convex-switching proof (:meth:`verify.proof.prover.SwitchingProof.to_json`) of
    F <= ``threshold`` against ``objective`` (F rebuilt).  The lemma proves F <= 0: a caller's
    threshold other than 0 is rejected.  Every part is re-checked against its objective derived here
    from F and the split, with the bound the lemma needs of that part (<= 0) -- never the part's
    recorded threshold (a part whose record says otherwise is rejected) -- the identity
    re-simplified, the domain F's own."""
    t0 = time.perf_counter()
    if proof.get("status") != "proven":
        return RecheckResult(False, [f"status is {proof.get('status')!r}, not 'proven'"], 0, prec, 0.0)
    problems: list[str] = []
    thr = Fraction(threshold)
    if thr != 0:
        problems.append(f"the convex switching lemma proves F <= 0, not F <= {thr}")
    try:
        recorded_thr = Fraction(str(proof.get("threshold")))
    except (TypeError, ValueError):
        recorded_thr = None
    if recorded_thr != thr:
        problems.append(f"the proof's threshold {proof.get('threshold')} is not the statement's {thr}")
    if tuple(box_from_json(proof["domain"])) != tuple(objective.domain()):
        problems.append(f"the proof's domain {proof['domain']} is not the objective's domain")
    try:
        parts = switching_parts(objective, Fraction(proof["split"]))
    except (ValueError, TypeError, KeyError) as exc:
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
        # each part of the lemma must prove (part) <= 0, whatever its record says
        rc = recheck(dict(recorded[name]), parts[name], threshold=0, prec=prec, monotone={})
        n += rc.n_boxes
        problems += [f"part {name}: {p}" for p in rc.problems]
    return RecheckResult(not problems, problems[:20], n, prec, time.perf_counter() - t0)


@register_method
class IntervalMethod:
    """Branch and bound on arb balls (:func:`verify.proof.prove_le`): a box list with a certified bound on
    each, re-checked by :func:`recheck` against the objective the *claim's code* rebuilds.  The record alone
    names no objective that could be trusted, so :meth:`recheck` needs ``objective`` (and the claim's
    ``threshold``); without it the record is rejected."""

    name = "interval"

    def recheck(self, proof: Mapping[str, Any], claim_id: str, *, objective: Any = None,
                threshold: Fraction | int | str = 0) -> RecheckResult:
        if objective is None:
            return RecheckResult(False, [f"claim {claim_id}: an interval proof is re-checked against the objective "
                                         f"its claim's code rebuilds; none was given"])
        return recheck(dict(proof), objective, threshold=threshold, monotone={})

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)


@register_method
class ConvexSwitchingMethod:
    """The convex switching lemma (:func:`verify.proof.prover.prove_switching`), re-checked part by part by
    :func:`recheck_switching` against the objective the claim's code rebuilds (``objective`` required)."""

    name = "convex-switching"

    def recheck(self, proof: Mapping[str, Any], claim_id: str, *, objective: Any = None,
                threshold: Fraction | int | str = 0) -> RecheckResult:
        if objective is None:
            return RecheckResult(False, [f"claim {claim_id}: a switching proof is re-checked against the objective "
                                         f"its claim's code rebuilds; none was given"])
        return recheck_switching(dict(proof), objective, threshold=threshold)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
