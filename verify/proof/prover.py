"""Rigorous branch and bound on ball arithmetic.

:func:`prove_le` proves F(v) <= 0 for every v in a box (the variables z of the inequality and its
parameters theta alike) by subdivision: F is enclosed on a box by arb ball arithmetic
(:meth:`verify.proof.functions.Objective.evaluate`: plain translation, sign-split variant and
mean-value form F(c) + F'(B)(B - c), intersected); if the upper end of the ball is <= 0 the box is
proven, otherwise the box is bisected at its midpoint along its widest dimension (width relative
to the domain's).  At every box that is not proven, F is also evaluated at the box's midpoint (a
point ball): a lower end > 0 is a counterexample, certified by the ball and confirmed by SymPy /
mpmath at 50 digits (the "refuted" outcome).  A box narrower than ``tol`` (relative) that is
neither proven nor refuted, or an exhausted box budget, gives "undecided" -- never "proven".

Boxes have exact rational (``fractions.Fraction``) endpoints, all obtained by bisection of the
domain, so a proof is a list of (box, claimed upper bound of F on it) that
:mod:`verify.proof.recheck` re-evaluates and checks for coverage with exact arithmetic.

:func:`enclose_sup` encloses sup F on a box: best-first branch and bound with the lower end a
value attained at a point (the lower end of a point ball) and the upper end the largest bound of
the leaf boxes, which form a proof of F - upper <= 0.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from flint import arb

import sympy as sp

from .functions import ArbFunction, Objective, OnBox, arb_to_fraction, ball, lower_fraction, upper_fraction, workprec

__all__ = ["Box", "ProofResult", "SupEnclosure", "prove_le", "enclose_sup", "CallableObjective", "box_to_json",
           "box_from_json", "DEFAULT_PREC", "SWITCHING_LEMMA", "SWITCHING_PARTS", "switching_parts", "SwitchingProof",
           "prove_switching"]

Box = list  # list of (Fraction, Fraction), one pair per variable
DEFAULT_PREC = 96  # bits of arb working precision


def box_to_json(box: Sequence[tuple[Fraction, Fraction]]) -> list[list[str]]:
    return [[str(lo), str(hi)] for lo, hi in box]


def box_from_json(data: Sequence[Sequence[str]]) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(lo), Fraction(hi)) for lo, hi in data]


def _checked_box(box: list[tuple[Fraction, Fraction]], name: str) -> list[tuple[Fraction, Fraction]]:
    """``box`` itself, after checking lo <= hi in every coordinate (ValueError naming it otherwise)."""
    for i, (lo, hi) in enumerate(box):
        if not lo <= hi:
            raise ValueError(f"{name}: variable {i} must have lo <= hi; got [{lo}, {hi}]")
    return box


def _q(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"box endpoints must be finite (half-lines are compactified by Objective); got {x!r}")
        return Fraction(x)
    return Fraction(x)


class CallableObjective(OnBox):
    """Adapter: a plain function of arb balls (one per variable) as an objective on a bounded box.

    ``derivative`` (optional): one function per variable giving a ball containing dF/dv_i on the
    box, used for the mean-value form F(c) + sum_i dF/dv_i(B)(B_i - c_i)."""

    half_index = None
    tail_lemma = None

    def __init__(self, fn: ArbFunction, box: Sequence[tuple[Any, Any]], *, name: str = "",
                 derivative: Sequence[ArbFunction] | None = None, meta: dict[str, Any] | None = None) -> None:
        self.fn = fn
        self._domain = _checked_box([(_q(lo), _q(hi)) for lo, hi in box], "box")
        self.name = name
        self.derivative = list(derivative) if derivative is not None else None
        self.meta = dict(meta or {})

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "expr": None, "variables": box_to_json(self._domain), "meta": self.meta}

    def evaluate(self, box: Sequence[tuple[Fraction, Fraction]], *, centred: bool = True, signs: bool = True,
                 upper_only: bool = False) -> arb:
        balls = [ball(lo, hi) for lo, hi in box]
        v = self.fn(balls)
        if centred and self.derivative is not None and any(lo != hi for lo, hi in box):
            mids = [(lo + hi) / 2 for lo, hi in box]
            c = self.fn([ball(m, m) for m in mids])
            for d, (lo, hi), m in zip(self.derivative, box, mids, strict=True):
                if lo != hi:
                    c = c + d(balls) * ball(lo - m, lo - m).union(ball(hi - m, hi - m))
            if c.is_finite() and (not v.is_finite() or c.upper() < v.upper()):
                v = v.intersection(c) if v.is_finite() and v.overlaps(c) else c
        return v

    def evaluate_point(self, point: Sequence[Fraction]) -> arb:
        return self.fn([ball(q, q) for q in point])

    def evaluate_mp(self, point: Sequence[Fraction], dps: int = 50) -> Any:
        return None  # no symbolic form: the ball evaluation is the certificate


@dataclass
class ProofResult:
    """Outcome of :func:`prove_le`.

    ``status``   "proven" (F <= threshold on the whole domain, every box certified), "refuted" (a
                 point with F > threshold, certified by a ball whose lower end is > threshold) or
                 "undecided" (budget or minimal width reached without either).
    ``boxes``    proven: the leaf boxes [(lo, hi) per variable] (compactified coordinates, exact
                 rationals) with ``bounds`` the certified upper bound of F on each (exact rationals).
    ``counterexample``  refuted: {"point", "point_original", "ball", "lower", "mp50"} and ``box``
                 the smallest failing box;  undecided: ``box`` the worst box and its ``bound``.
    ``threshold`` the right-hand side (F <= threshold; 0 for prove_le).
    """

    status: str
    objective: dict[str, Any]
    domain: list[tuple[Fraction, Fraction]]
    threshold: Fraction = Fraction(0)
    boxes: list[list[tuple[Fraction, Fraction]]] = field(default_factory=list)
    bounds: list[Fraction] = field(default_factory=list)
    n_boxes: int = 0
    seconds: float = 0.0
    prec: int = DEFAULT_PREC
    counterexample: dict[str, Any] | None = None
    box: list[tuple[Fraction, Fraction]] | None = None
    bound: Any = None
    reason: str = ""
    monotone: dict[int, int] | None = None  # the caller's monotonicity hint (a lemma the recheck relies on)

    @property
    def proven(self) -> bool:
        return self.status == "proven"

    @property
    def max_bound(self) -> Fraction | None:
        return max(self.bounds) if self.bounds else None

    def to_json(self) -> dict[str, Any]:
        """JSON-able dict (exact rationals as strings "p/q"), the input of :func:`recheck.recheck`."""
        out: dict[str, Any] = {
            "status": self.status, "objective": self.objective, "domain": box_to_json(self.domain),
            "threshold": str(self.threshold), "n_boxes": self.n_boxes, "seconds": self.seconds, "prec": self.prec,
            "reason": self.reason, "monotone": {str(k): v for k, v in (self.monotone or {}).items()} or None,
            "boxes": [box_to_json(b) for b in self.boxes], "bounds": [str(b) for b in self.bounds],
        }
        return _with_failure(out, self)


def _with_failure(out: dict[str, Any], res: Any) -> dict[str, Any]:
    """``out`` plus the failing box, its bound and the counterexample of ``res`` where it has them."""
    if res.box is not None:
        out["box"] = box_to_json(res.box)
        out["bound"] = str(res.bound)
    if res.counterexample is not None:
        out["counterexample"] = res.counterexample
    return out


def _widest(box: Sequence[tuple[Fraction, Fraction]], domain: Sequence[tuple[Fraction, Fraction]],
            skip: Sequence[int] = ()) -> tuple[int, Fraction]:
    best, rel = -1, Fraction(-1)
    for i, ((lo, hi), (dlo, dhi)) in enumerate(zip(box, domain, strict=True)):
        if dhi == dlo or i in skip:
            continue
        r = (hi - lo) / (dhi - dlo)
        if r > rel:
            best, rel = i, r
    return best, rel


def _bisect(box: Sequence[tuple[Fraction, Fraction]], i: int) -> tuple[list, list]:
    lo, hi = box[i]
    m = (lo + hi) / 2
    a, b = list(box), list(box)
    a[i] = (lo, m)
    b[i] = (m, hi)
    return a, b


def _monotone_box(box: Sequence[tuple[Fraction, Fraction]], monotone: dict[int, int] | None) -> list:
    """The face of the box where F is largest for the variables F is monotone in (+1: nondecreasing,
    F's sup is at hi; -1: nonincreasing, at lo)."""
    if not monotone:
        return list(box)
    out = list(box)
    for i, s in monotone.items():
        lo, hi = box[i]
        out[i] = (hi, hi) if s > 0 else (lo, lo)
    return out


def _as_objective(F: Any, box: Any, params_box: Any, derivative: Any) -> tuple[Any, list[tuple[Fraction, Fraction]]]:
    if isinstance(F, (Objective, CallableObjective)) or hasattr(F, "evaluate"):
        dom = F.domain()
        if box is not None:
            z = _checked_box([(_q(lo), _q(hi)) for lo, hi in box], "box")
            dom = z + dom[len(z):]
        if params_box is not None:
            p = _checked_box([(_q(lo), _q(hi)) for lo, hi in params_box], "params_box")
            dom = dom[:len(dom) - len(p)] + p
        # an override must stay inside the objective's own domain (its symbols' assumptions and
        # compactification were checked on that domain only)
        for i, ((lo, hi), (dlo, dhi)) in enumerate(zip(dom, F.domain(), strict=True)):
            if not dlo <= lo <= hi <= dhi:
                raise ValueError(f"box: variable {i} interval [{lo}, {hi}] is not inside the objective's domain "
                                 f"[{dlo}, {dhi}]")
        return F, dom
    if box is None:
        raise ValueError("box is required when F is a plain function of arb balls")
    full = list(box) + list(params_box or [])
    obj = CallableObjective(F, full, derivative=derivative, name=getattr(F, "__name__", "F"))
    return obj, obj.domain()


def _certify_point(obj: Any, point: list[Fraction], threshold: Fraction, dps: int = 50) -> dict[str, Any] | None:
    """A counterexample certificate at a point if the ball F(point) lies entirely above threshold."""
    v = obj.evaluate_point(point)
    if not (v.is_finite() and v.lower() > arb(threshold.numerator) / threshold.denominator):
        return None
    mp = obj.evaluate_mp(point, dps)
    confirms = None if mp is None else _mp_exceeds(mp, threshold)
    if confirms is False:
        return None  # the independent evaluation disagrees: no certificate (the box is split further)
    return {"point": [str(q) for q in point], "point_original": [str(q) for q in obj.to_original(point)],
            "ball": v.str(20, radius=True), "lower": str(lower_fraction(v)),
            "mp50": None if mp is None else str(mp), "mp50_confirms": confirms}


def _mp_exceeds(mp: Any, threshold: Fraction) -> bool:
    """True iff the high-precision value ``mp`` (a SymPy number) is real, finite and > threshold."""
    try:
        value = sp.sympify(mp)
        if not (value.is_real and value.is_finite):
            return False
        return bool(value > sp.Rational(threshold.numerator, threshold.denominator))
    except (TypeError, ValueError):
        return False


def prove_le(F: Any, box: Sequence[tuple[Any, Any]] | None = None, *, params_box: Sequence[tuple[Any, Any]] | None = None,
             max_boxes: int = 200_000, tol: Fraction | float = Fraction(1, 2**40), derivative: Sequence[ArbFunction] | None = None,
             monotone: dict[int, int] | None = None, threshold: Fraction | float = 0, prec: int = DEFAULT_PREC,
             time_limit: float | None = None) -> ProofResult:
    """Prove F(z, theta) <= threshold (default 0) for all z in ``box`` and theta in ``params_box``.

    ``F``          an :class:`~verify.proof.functions.Objective` (its domain is the default box;
                   ``box`` / ``params_box`` override the leading / trailing coordinates), or a plain
                   function of a list of arb balls (then ``box`` is required; ``derivative`` gives
                   dF/dv_i for the mean-value form).
    ``monotone``   {variable index: +1 or -1}: F is known nondecreasing (+1) / nonincreasing (-1)
                   in that variable (a lemma the caller proves), so each box is evaluated on its
                   upper (lower) face in that variable.
    ``tol``        minimal relative box width; ``max_boxes`` evaluation budget; ``prec`` arb bits.
    Returns a :class:`ProofResult`: "proven" with the certified leaf boxes, "refuted" with a
    certified point, or "undecided" with the worst box.
    """
    obj, dom = _as_objective(F, box, params_box, derivative)
    thr = _q(threshold)
    tol = _q(tol)
    t0 = time.perf_counter()
    proven_boxes: list[list[tuple[Fraction, Fraction]]] = []
    bounds: list[Fraction] = []
    with workprec(prec):
        thr_ball = arb(thr.numerator) / thr.denominator
        stack: list[list[tuple[Fraction, Fraction]]] = [list(dom)]
        n = 0
        worst: tuple[Any, Any] = (None, None)
        stuck: tuple[Any, Any] = (None, None)  # the first box below the minimal width (undecided)

        def result(status: str, **kw: Any) -> ProofResult:
            return ProofResult(status, obj.describe(), list(dom), thr, proven_boxes if status == "proven" else [],
                               bounds if status == "proven" else [], n, time.perf_counter() - t0, prec,
                               monotone=dict(monotone) if monotone else None, **kw)

        while stack:
            b = stack.pop()
            n += 1
            v = obj.evaluate(_monotone_box(b, monotone), upper_only=True)
            if v.is_finite() and v.upper() <= thr_ball.lower():
                proven_boxes.append(b)
                bounds.append(arb_to_fraction(v.upper()))  # = upper_fraction(v) for a finite ball
                continue
            up = upper_fraction(v)
            if worst[0] is None or up > worst[1]:
                worst = (b, up)
            mid = [(lo + hi) / 2 for lo, hi in b]
            cert = _certify_point(obj, mid, thr)
            if cert is None and _widest(b, dom)[1] < Fraction(1, 2**12):
                # on small boxes the corners are worth testing too (a maximum at z = inf is a corner)
                for corner in (_corner(b, 0), _corner(b, 1)):
                    cert = _certify_point(obj, corner, thr)
                    if cert is not None:
                        break
            if cert is not None:
                return result("refuted", counterexample=cert, box=b, bound=up,
                              reason="a point with F > threshold, certified by a ball")
            i, rel = _widest(b, dom, getattr(obj, 'affine', ()))
            if i < 0 or rel < tol:
                # undecided here; the other boxes are still searched for a certified counterexample
                if stuck[0] is None:
                    stuck = (b, up)
                continue
            if n >= max_boxes or (time_limit is not None and time.perf_counter() - t0 > time_limit):
                return result("undecided", box=worst[0], bound=worst[1], reason=f"budget exhausted after {n} boxes")
            lo_half, hi_half = _bisect(b, i)
            stack.append(hi_half)
            stack.append(lo_half)
        if stuck[0] is not None:
            return result("undecided", box=stuck[0], bound=stuck[1],
                          reason=f"box below the minimal relative width {float(tol):.3g}, neither proven nor refuted")
        return result("proven", reason=f"{len(proven_boxes)} boxes, each with a certified upper bound <= threshold")


def _corner(b: Sequence[tuple[Fraction, Fraction]], side: int) -> list[Fraction]:
    return [(hi if side else lo) for lo, hi in b]


@dataclass
class SupEnclosure:
    """sup F over a box enclosed: lower <= sup F <= upper.

    ``lower``   attained: the lower end of the ball F(``argmax``) (exact rational).
    ``upper``   the largest certified bound of the leaf boxes plus 2^-50 relative; ``proof`` proves
                F <= upper on the whole box (re-checkable by :func:`recheck.recheck`).
    """

    lower: Fraction
    upper: Fraction
    argmax: list[Fraction]
    argmax_original: list[Any]
    proof: ProofResult
    n_boxes: int
    seconds: float

    @property
    def width(self) -> Fraction:
        return self.upper - self.lower

    def to_json(self) -> dict[str, Any]:
        return {"lower": str(self.lower), "upper": str(self.upper), "lower_float": float(self.lower),
                "upper_float": float(self.upper), "width": float(self.width),
                "argmax": [str(q) for q in self.argmax], "argmax_original": [str(q) for q in self.argmax_original],
                "n_boxes": self.n_boxes, "seconds": self.seconds, "proof": self.proof.to_json()}


def enclose_sup(F: Any, box: Sequence[tuple[Any, Any]] | None = None, *, width: float = 1e-9, max_boxes: int = 200_000,
                prec: int = DEFAULT_PREC, seeds: Sequence[Sequence[Fraction]] = ()) -> SupEnclosure:
    """Enclose sup F over the box to ``width`` by best-first branch and bound.

    The box with the largest upper bound is bisected until that bound is within ``width`` of the
    best attained value (lower end of a point ball at box midpoints and ``seeds``).  Boxes whose
    upper bound is below the attained value are final.  Raises RuntimeError when the budget is
    exhausted (the enclosure would be wider than asked)."""
    obj, dom = _as_objective(F, box, None, None)
    t0 = time.perf_counter()
    w = Fraction(width)
    with workprec(prec):
        best_lo: Fraction | None = None
        best_pt: list[Fraction] | None = None

        def attain(pt: list[Fraction]) -> None:
            nonlocal best_lo, best_pt
            v = obj.evaluate_point(pt)
            if v.is_finite():
                lo = arb_to_fraction(v.lower())  # = lower_fraction(v) for a finite ball
                if best_lo is None or lo > best_lo:
                    best_lo, best_pt = lo, pt

        for s in seeds:
            attain([_q(x) for x in s])
        heap: list[tuple[Fraction | float, int, list, Fraction | float]] = []
        count = 0

        def push(b: list) -> None:
            nonlocal count
            v = obj.evaluate(b, upper_only=True)
            up = upper_fraction(v)
            attain([(lo + hi) / 2 for lo, hi in b])
            count += 1
            heapq.heappush(heap, (-up if up != math.inf else -Fraction(10**30), count, b, up))

        push(list(dom))
        while heap:
            negup, _, b, up = heap[0]
            if best_lo is not None and up - best_lo <= w:
                break
            if count >= max_boxes:
                raise RuntimeError(f"enclose_sup: budget of {max_boxes} boxes exhausted with gap "
                                   f"{float(up - (best_lo or 0)):.3g} > {width}")
            heapq.heappop(heap)
            i, _rel = _widest(b, dom, getattr(obj, 'affine', ()))
            if i < 0:
                raise RuntimeError("enclose_sup: a point box is not within the width (precision too low)")
            for half in _bisect(b, i):
                push(half)
        leaves = [(b, up) for _, _, b, up in heap]
        # upper_fraction gives +inf (a float) for a non-finite ball, an exact Fraction otherwise
        leaf_bounds = [up for _, up in leaves if isinstance(up, Fraction)]
        if len(leaf_bounds) != len(leaves):
            raise RuntimeError("enclose_sup: a leaf box has no finite bound")
        if best_lo is None or best_pt is None:  # the loop above leaves only once a value is attained
            raise RuntimeError("enclose_sup: no finite value of F was attained")
        upper = max(leaf_bounds)
        # a margin of 2^-50 relative, so that a re-evaluation at another precision (whose rounding
        # differs in the last bits) still finds every box below the stated upper end
        upper = upper + Fraction(1, 2**50) * max(Fraction(1), abs(upper))
        proof = ProofResult("proven", obj.describe(), list(dom), upper, [b for b, _ in leaves], leaf_bounds,
                            count, time.perf_counter() - t0, prec, reason=f"sup enclosure: F <= {float(upper):.17g}")
    return SupEnclosure(best_lo, upper, best_pt, obj.to_original(best_pt), proof, count, time.perf_counter() - t0)


# ---------------------------------------------------------------------------------------------------
# a tangency: the convex switching lemma (derivative-sign box + face + branch and bound)
# ---------------------------------------------------------------------------------------------------
#: The lemma behind :func:`prove_switching`, stated once (recorded in every such proof).
SWITCHING_LEMMA = (
    "convex switching lemma: let F = Piecewise((F1, c > 0), (F2, otherwise)) on K = [b0, s] x G with (i) F1 = -dc/db "
    "identically (SymPy), (ii) d^2c/db^2 >= 0 on K (derivative-sign box), (iii) c(b0, g) <= 0 for g in G (the face "
    "b = b0, one dimension fewer), (iv) F2 <= 0 on K.  Then F <= 0 on K: where c <= 0, F = F2 <= 0; where "
    "c(b, g) > 0, b > b0 by (iii) and dc/db is nondecreasing on [b0, b] by (ii), so (b - b0) dc/db(b, g) >= "
    "c(b, g) - c(b0, g) > 0 and F1 = -dc/db(b, g) < 0.  With (v) F <= 0 on [s, b1] x G by branch and bound, "
    "F <= 0 on [b0, b1] x G.")
#: The parts of a switching proof, each an ordinary proof of (part) <= 0 on its own box.
SWITCHING_PARTS = ("regular", "off_branch", "convexity", "face")


def switching_parts(full: Objective, split: Fraction) -> dict[str, Any]:
    """The four objectives of the convex switching lemma (:data:`SWITCHING_LEMMA`) for ``full``, an
    Objective F = Piecewise((F1, c > 0), (F2, True)) on [b0, b1] x G (b the first variable, bounded),
    split at b = ``split`` (b0 < split < b1), all derived here from F by SymPy:

    ``regular``    F on [split, b1] x G (plain branch and bound, away from the tangency);
    ``off_branch`` F2 on [b0, split] x G;  ``convexity`` -d^2c/db^2 on [b0, split] x G;
    ``face``       c(b0, g) on G (b eliminated);
    and ``identity``: F1 + dc/db simplified by SymPy (the lemma needs 0).  Raises ValueError when F
    is not of that form."""
    F = full.expr
    if not (isinstance(F, sp.Piecewise) and len(F.args) == 2 and F.args[1].cond == sp.true):
        raise ValueError(f"the switching lemma needs F = Piecewise((F1, c > 0), (F2, True)); got {F}")
    (F1, cond), (F2, _) = F.args
    if not (isinstance(cond, sp.StrictGreaterThan) and cond.rhs == 0):
        raise ValueError(f"the switching lemma needs a condition c > 0; got {cond}")
    c = cond.lhs
    v0, rest = full.variables[0], list(full.variables[1:])
    if v0.halfline:
        raise ValueError("the switching variable b must have a bounded range")
    b, b0, b1 = v0.symbol, Fraction(v0.lo), Fraction(v0.hi)
    split = Fraction(split)
    if not b0 < split < b1:
        raise ValueError(f"split must be in ({b0}, {b1}); got split={split}")
    Var = type(v0)
    corner = [Var(b, b0, split)] + rest
    dc = sp.diff(c, b)
    face = sp.simplify(c.subs(b, sp.Rational(b0.numerator, b0.denominator)))
    name = full.name or "F"
    return {
        "regular": Objective(F, [Var(b, split, b1)] + rest, name=f"{name} on b >= {split}", meta=full.meta),
        "off_branch": Objective(F2, corner, name=f"{name}: off branch F2 on b <= {split}", meta=full.meta),
        "convexity": Objective(-sp.diff(c, b, 2), corner, name=f"{name}: -d^2c/db^2 on b <= {split}", meta=full.meta),
        "face": Objective(face, rest, name=f"{name}: c on the face b = {b0}", meta=full.meta),
        "identity": sp.simplify(F1 + dc), "pieces": {"F1": str(F1), "c": str(c), "F2": str(F2), "dc/db": str(dc)},
    }


@dataclass
class SwitchingProof:
    """Outcome of :func:`prove_switching`: ``status`` "proven" (all four parts proven and the
    identity exact), "refuted" (a certified point with F > 0, ``counterexample`` / ``box`` from plain
    branch and bound on the corner) or "undecided"; ``parts`` the ProofResult of each part."""

    status: str
    objective: dict[str, Any]
    domain: list[tuple[Fraction, Fraction]]
    split: Fraction
    identity: str
    parts: dict[str, ProofResult] = field(default_factory=dict)
    seconds: float = 0.0
    prec: int = DEFAULT_PREC
    reason: str = ""
    counterexample: dict[str, Any] | None = None
    box: list[tuple[Fraction, Fraction]] | None = None
    bound: Any = None
    n_boxes: int = 0
    threshold: Fraction = Fraction(0)

    @property
    def boxes(self) -> list:
        return [b for p in self.parts.values() for b in p.boxes]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status, "combine": "convex-switching", "lemma": SWITCHING_LEMMA, "objective": self.objective,
            "domain": box_to_json(self.domain), "threshold": str(self.threshold), "split": str(self.split),
            "identity": self.identity, "seconds": self.seconds, "prec": self.prec, "reason": self.reason,
            "n_boxes": self.n_boxes, "parts": {k: p.to_json() for k, p in self.parts.items()}}
        return _with_failure(out, self)


def prove_switching(full: Objective, split: Fraction, *, max_boxes: int = 200_000, time_limit: float | None = None,
                    prec: int = DEFAULT_PREC, **kw: Any) -> SwitchingProof:
    """Prove F <= 0 on full's box where plain branch and bound cannot finish because F touches 0 at
    a corner (a tangency): the convex switching lemma on [b0, split] x G and :func:`prove_le` on
    [split, b1] x G (:data:`SWITCHING_LEMMA`).  If the identity or a part fails, plain branch and
    bound on the corner looks for a certified point with F > 0 ("refuted"); else "undecided"."""
    t0 = time.perf_counter()
    parts = switching_parts(full, split)
    ident = parts["identity"]
    results: dict[str, ProofResult] = {}
    failed = [] if ident == 0 else [f"the identity F1 = -dc/db fails (F1 + dc/db = {ident})"]
    for name in SWITCHING_PARTS:
        left = None if time_limit is None else max(1.0, time_limit - (time.perf_counter() - t0))
        res = prove_le(parts[name], max_boxes=max_boxes, time_limit=left, prec=prec, **kw)
        results[name] = res
        if res.status != "proven":
            failed.append(f"part {name} {res.status}: {res.reason}")
    n = sum(r.n_boxes for r in results.values())
    common: dict[str, Any] = dict(objective=full.describe(), domain=list(full.domain()), split=Fraction(split), identity=str(ident),
                  parts=results, prec=prec)
    if not failed:
        return SwitchingProof("proven", seconds=time.perf_counter() - t0, n_boxes=n,
                              reason=f"convex switching lemma at b <= {split}, branch and bound beyond", **common)
    # a certified point with F > 0 refutes F <= 0 (a failed convexity / face part alone does not):
    # from the regular part, else from plain branch and bound on the corner
    bad = results["regular"]
    if bad.status != "refuted":
        cert = _tangency_search(full, Fraction(split), prec)
        if cert is not None:
            return SwitchingProof("refuted", seconds=time.perf_counter() - t0, n_boxes=n, reason="; ".join(failed),
                                  counterexample=cert[0], box=cert[1], bound=cert[0]["lower"], **common)
        corner = list(full.domain())
        corner[0] = (corner[0][0], Fraction(split))
        left = None if time_limit is None else max(1.0, time_limit - (time.perf_counter() - t0))
        bad = prove_le(full, box=corner[:1], max_boxes=max_boxes, time_limit=left, prec=prec, **kw)
        n += bad.n_boxes
    if bad.status == "refuted":
        return SwitchingProof("refuted", seconds=time.perf_counter() - t0, n_boxes=n, reason="; ".join(failed),
                              counterexample=bad.counterexample, box=bad.box, bound=bad.bound, **common)
    return SwitchingProof("undecided", seconds=time.perf_counter() - t0, n_boxes=n, reason="; ".join(failed),
                          box=bad.box, bound=bad.bound, **common)


def _tangency_search(full: Objective, split: Fraction, prec: int) -> tuple[dict[str, Any], list] | None:
    """A certified point with F > 0 next to the face b = b0 of the corner [b0, split] x G, where a
    tangency sits and plain subdivision does not reach: b = b0 + (split - b0) 2^-k (k = 1..80) with
    the other variables at the corners of G and at 2^-j (j = 1..40) from them.  The point and the
    one-point box, or None."""
    dom = list(full.domain())
    b0 = dom[0][0]
    others = []
    for lo, hi in dom[1:]:
        vals = {lo, hi}
        for j in range(1, 41):
            vals.update({lo + (hi - lo) / 2**j, hi - (hi - lo) / 2**j})
        others.append(sorted(vals, key=lambda q: min(q - lo, hi - q)))  # the corners first
    if len(others) > 1:  # the corners and their nearest points only (the product grows fast)
        others = [v[:6] for v in others]
    with workprec(prec):
        for rest in itertools.product(*others):
            for k in range(1, 81):
                pt = [b0 + (split - b0) / 2**k, *rest]
                cert = _certify_point(full, pt, Fraction(0))
                if cert is not None and cert.get("mp50_confirms") is not False:
                    return cert, [(q, q) for q in pt]
    return None
