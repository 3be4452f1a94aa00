"""Certified masses of the privacy-loss cells of a pair of continuous laws, for any family with a ball form.

For laws P, Q with densities p, q the privacy loss is L(y) = ln p(y) - ln q(y); on the grid l_i = i h (h an
exact rational) the loss cell i is (l_{i-1}, l_i], with P-mass P_i = P(L(Y) in cell i) and Q-mass Q_i.
:func:`loss_cells` encloses every P_i, Q_i in an ``arb`` ball; the loss need not be monotone (the loss of a
shifted and dilated Student t, GenCauchy or PolyPlace pair is not).

1. **Window.**  [y_lo, y_hi] holds all but ``tail`` of P and of Q (certified tails).  The P- and Q-masses
   outside it are returned as ``unknown_p``, ``unknown_q``: their losses are not located (a dominating PLD
   puts that P-mass at +inf, a dominated one drops it).
2. **Cells of y.**  The window is cut (a sinh grid around the two laws and their kinks) into cells.  On each,
   L is enclosed in ball arithmetic (directly and in the mean-value form, intersected): a cell whose loss is
   certified inside one loss cell goes there whole.  Otherwise the sign of L' = score_P - score_Q is enclosed:
   where it is certified, the cell is a monotone piece (step 3); where not, the cell is bisected until
   narrower than ``tol`` times the laws' scale (a critical point or a kink of L is then isolated in it) or
   lighter than ``mass_tol`` under both laws, and such a cell is *uncertain* (below).
3. **Inversion on each piece.**  On a monotone piece [a, b], L takes each level l_i between L(a) and L(b)
   once; its crossing y_i is found by binary64 bisection (a proposal, never trusted) and bracketed by two
   points y_i^- < y_i^+ a relative ~1e-12 apart.  L is enclosed in arb at every bracket point, and by
   monotonicity the image of each segment between consecutive points lies between the balls at its ends.
   A segment whose image is certified inside one cell goes to that cell; otherwise it is bisected (a
   proposal was off) until it is certified or narrower than ``tol``; a segment left over (a bracket
   [y_i^-, y_i^+], a flat cell) is *uncertain*: its mass may lie in any cell its image meets, so each of
   those cells gets the ball [0, mass] added (valid for each cell, whatever the split).
4. **Masses.**  P([e, e']) from the law's tails in ball arithmetic (the cdf left of the centre, the survival
   function right of it, so small masses keep their relative accuracy), each edge evaluated once.

Every P_i (Q_i) ball contains the true mass: the certain segments are exactly the set of y with L(y) in
cell i, up to the uncertain segments, whose contribution [0, mass] covers any split.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np
from numpy.typing import NDArray

from .ballforms import tail_mass

__all__ = ["LossCells", "loss_cells"]

_N_GRID = 401
_MAX_EVALS = 400_000
_BRACKET = 1e-12


def _flint() -> Any:
    import flint  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    return flint


@dataclass(frozen=True)
class LossCells:
    """Ball enclosures of the loss-cell masses: ``P[j]``, ``Q[j]`` for cell i = ``i_lo`` + j, i.e. the loss
    interval (l_{i-1}, l_i], l_i = i ``step``; ``unknown_p``/``unknown_q``: masses outside the window (loss not
    located); ``uncertain``: number of uncertain segments; ``evaluations``: ball evaluations of L or L'."""

    step: Fraction
    i_lo: int
    P: list[Any]
    Q: list[Any]
    unknown_p: Any
    unknown_q: Any
    uncertain: int
    evaluations: int

    @property
    def i_hi(self) -> int:
        return self.i_lo + len(self.P) - 1


_GP_CACHE: dict[tuple[int, int, int, int], Any] = {}


def _gp(i: int, step: Fraction) -> Any:
    """The grid point i * step as an arb ball (cached per precision)."""
    flint = _flint()
    key = (i, step.numerator, step.denominator, flint.ctx.prec)
    v = _GP_CACHE.get(key)
    if v is None:
        if len(_GP_CACHE) > 200_000:
            _GP_CACHE.clear()
        v = _GP_CACHE[key] = flint.arb(i * step.numerator) / flint.arb(step.denominator)
    return v


def _cell_range(lo: Any, hi: Any, step: Fraction, hf: float) -> tuple[int, int]:
    """Cell indices (c_lo, c_hi) with c_lo <= ceil(v/h) <= c_hi for every v in [lo, hi] (arb ends, exact)."""
    c_lo = math.ceil(float(lo) / hf) - 2
    while _gp(c_lo, step) < lo:          # v > l_{c_lo} certain: the cell of v is above c_lo
        c_lo += 1
    c_hi = math.ceil(float(hi) / hf) + 2
    while hi <= _gp(c_hi - 1, step):     # v <= l_{c_hi - 1} certain: the cell of v is below c_hi
        c_hi -= 1
    return c_lo, max(c_lo, c_hi)


def loss_cells(P: Any, Q: Any, loss_float: Callable[[NDArray[np.float64]], NDArray[np.float64]], step: Fraction,
               *, tail: float = 1e-30, tol: float = 1e-12, mass_tol: float = 1e-16) -> LossCells:
    """The certified loss-cell masses of the pair (P, Q) on the grid i * ``step`` (module docstring).

    ``P``, ``Q``: laws in ball form (:func:`verify.accounting.ballforms.output_law`); ``loss_float``: the loss
    ln p - ln q in binary64 on an array (only to propose crossings); ``tail``: mass of each law left outside
    the window; ``tol``: width (in units of the smaller scale) below which a segment is left uncertain;
    ``mass_tol``: a cell of y whose loss is not resolved is left uncertain once its P- and Q-masses are both
    below it (far in the tails, where L tends to its limit, often a grid level, and L' cannot be signed
    without splitting the cell very finely)."""
    flint = _flint()
    arb = flint.arb
    h = float(step)
    state = {"evals": 0}
    tail_b = arb(tail)
    lo_p, hi_p = P.tail_point(tail_b)
    lo_q, hi_q = Q.tail_point(tail_b)
    y_lo, y_hi = min(lo_p, lo_q), max(hi_p, hi_q)
    c = 0.5 * (P.loc + Q.loc)
    w = min(P.scale, Q.scale)
    wtol = tol * w

    def L(y: Any) -> Any:
        state["evals"] += 1
        return P.logpdf(y) - Q.logpdf(y)

    def L_cell(a: float, b: float) -> Any:
        """L on [a, b]: the direct ball intersected with the mean-value form."""
        ball = arb(a).union(arb(b))
        naive = L(ball)
        m = arb(0.5 * a + 0.5 * b)
        centred = L(m) + (P.score(ball) - Q.score(ball)) * (ball - m)
        if not centred.is_finite():
            return naive
        if not naive.is_finite():
            return centred
        return naive.intersection(centred)

    # --- 2. the initial cells --------------------------------------------------------------------------
    vmax = math.asinh(max(abs(y_hi - c), abs(y_lo - c)) / w)
    pts = c + w * np.sinh(np.linspace(-vmax, vmax, _N_GRID))
    extra = [k for k in (*P.kinks(), *Q.kinks()) if math.isfinite(k)]
    pts = np.unique(np.concatenate([pts, np.asarray(extra, dtype=float), [y_lo, y_hi]]))
    pts = pts[(pts >= y_lo) & (pts <= y_hi)]

    # --- masses with cached tails -------------------------------------------------------------------------
    partner: dict[float, float] = {}       # bracket point y+ -> its y- (a width of ~1e-12 relative)

    def tails(law: Any) -> Callable[[float, float], Any]:
        cache: dict[float, Any] = {}

        def side(e: float) -> Any:
            v = cache.get(e)
            if v is not None:
                return v
            lo = partner.get(e)
            if lo is not None and (lo <= law.loc) == (e <= law.loc):
                # y+ from y-: the tail moves by the mass of [y-, y+], in [0, width * sup density]
                ball = arb(0.5 * lo + 0.5 * e, 0.5 * (e - lo) * (1 + 1e-9))
                bump = arb(0).union(arb((arb(e) - arb(lo)) * law.logpdf(ball).exp()).upper())
                v = side(lo) + bump if e <= law.loc else side(lo) - bump
            else:
                v = tail_mass(law, e)
            cache[e] = v
            return v

        def mass(a: float, b: float) -> Any:
            if b <= law.loc:
                v = side(b) - side(a)
            elif a >= law.loc:
                v = side(a) - side(b)
            else:
                v = 1 - side(a) - side(b)
            return v if v.lower() >= 0 else (arb(0).union(arb(v.upper())) if v.upper() > 0 else arb(0))

        return mass

    mass_p, mass_q = tails(P), tails(Q)
    cells: dict[int, list[Any]] = {}
    n_unc = 0

    def add(a: float, b: float, c_lo: int, c_hi: int) -> None:
        nonlocal n_unc
        mp, mq = mass_p(a, b), mass_q(a, b)
        if c_lo == c_hi:
            cell = cells.setdefault(c_lo, [arb(0), arb(0)])
            cell[0] += mp
            cell[1] += mq
            return
        n_unc += 1
        up_p, up_q = arb(0).union(arb(mp.upper())), arb(0).union(arb(mq.upper()))
        for i in range(c_lo, c_hi + 1):
            cell = cells.setdefault(i, [arb(0), arb(0)])
            cell[0] += up_p
            cell[1] += up_q

    def segment(a: float, b: float, La: Any, Lb: Any, depth: int = 0) -> None:
        """[a, b] inside a monotone piece, L(a) in La, L(b) in Lb."""
        lo = La.lower() if La.lower() <= Lb.lower() else Lb.lower()
        hi = La.upper() if La.upper() >= Lb.upper() else Lb.upper()
        c_lo, c_hi = _cell_range(lo, hi, step, h)
        mid = 0.5 * a + 0.5 * b
        narrow = b - a <= max(wtol, 4 * _BRACKET * max(abs(a), abs(b)))
        if c_lo == c_hi or narrow or not a < mid < b or depth > 200 or state["evals"] > _MAX_EVALS:
            add(a, b, c_lo, c_hi)
            return
        Lm = L(arb(mid))
        segment(a, mid, La, Lm, depth + 1)
        segment(mid, b, Lm, Lb, depth + 1)

    def crossings(pieces: list[tuple[float, float, int, Any, Any]]) -> list[NDArray[np.float64]]:
        """For each monotone piece (a, b, sign, L(a), L(b)), the binary64 proposals of its level crossings:
        one vectorised bisection over all pieces and levels (proposals only; never trusted)."""
        A, B, S, LV, owner = [], [], [], [], []
        for k, (a, b, sgn, La, Lb) in enumerate(pieces):
            lo_v = float(min(La.mid(), Lb.mid()))
            hi_v = float(max(La.mid(), Lb.mid()))
            lv = np.arange(math.floor(lo_v / h) + 1, math.ceil(hi_v / h)) * h
            A.append(np.full(lv.size, a))
            B.append(np.full(lv.size, b))
            S.append(np.full(lv.size, sgn))
            LV.append(lv)
            owner.append(np.full(lv.size, k))
        if not pieces:
            return []
        ya, yb = np.concatenate(A), np.concatenate(B)
        sg, levels, own = np.concatenate(S), np.concatenate(LV), np.concatenate(owner)
        for _ in range(1100):
            mid = 0.5 * (ya + yb)
            if not np.any((ya < mid) & (mid < yb)):
                break
            val = loss_float(mid)
            beyond = np.where(sg > 0, val > levels, val <= levels)
            yb = np.where(beyond, mid, yb)
            ya = np.where(beyond, ya, mid)
        roots = 0.5 * (ya + yb)
        return [np.sort(roots[own == k]) for k in range(len(pieces))]

    def monotone(a: float, b: float, La: Any, Lb: Any, roots: NDArray[np.float64]) -> None:
        """[a, b] on which L is certified monotone, with the proposed crossings ``roots``: each bracketed,
        L enclosed at every bracket point, the segments between them assigned (:func:`segment`)."""
        edges = [a]
        if roots.size:
            gap = _BRACKET * np.maximum(np.abs(roots), w)
            for lo_e, hi_e in zip(roots - gap, roots + gap, strict=True):
                if a < lo_e < hi_e < b:
                    partner[float(hi_e)] = float(lo_e)
            br = np.stack([roots - gap, roots + gap], axis=1).ravel()
            br = br[(br > a) & (br < b)]
            edges.extend(float(x) for x in np.unique(br))
        edges.append(b)
        vals = [La] + [L(arb(e)) for e in edges[1:-1]] + [Lb]
        for k in range(len(edges) - 1):
            if edges[k + 1] > edges[k]:
                segment(edges[k], edges[k + 1], vals[k], vals[k + 1])

    # --- 3. every cell: one loss cell, or a monotone piece, or bisected, or left uncertain -------------------
    stack = [(float(pts[i]), float(pts[i + 1])) for i in range(len(pts) - 1)][::-1]
    mono: list[tuple[float, float, int, Any, Any]] = []
    while stack:
        a, b = stack.pop()
        if not b > a:
            continue
        g = L_cell(a, b)
        if g.is_finite():
            c_lo, c_hi = _cell_range(g.lower(), g.upper(), step, h)
            if c_lo == c_hi:
                add(a, b, c_lo, c_hi)
                continue
        ball = arb(a).union(arb(b))
        state["evals"] += 1
        d = P.score(ball) - Q.score(ball)
        if d.is_finite() and (d > 0 or d < 0):
            mono.append((a, b, 1 if d > 0 else -1, L(arb(a)), L(arb(b))))
            continue
        mid = 0.5 * a + 0.5 * b
        narrow = b - a <= max(wtol, 4 * _BRACKET * max(abs(a), abs(b)))
        light = g.is_finite() and mass_p(a, b).upper() <= mass_tol and mass_q(a, b).upper() <= mass_tol
        if narrow or light or not a < mid < b or state["evals"] > _MAX_EVALS:
            if not g.is_finite():
                raise ValueError(f"the privacy loss could not be enclosed on [{a!r}, {b!r}]")
            add(a, b, c_lo, c_hi)
            continue
        stack.append((mid, b))
        stack.append((a, mid))

    for piece, roots in zip(mono, crossings(mono), strict=True):
        monotone(piece[0], piece[1], piece[3], piece[4], roots)

    unknown_p = mass_p(-math.inf, y_lo) + mass_p(y_hi, math.inf)
    unknown_q = mass_q(-math.inf, y_lo) + mass_q(y_hi, math.inf)
    if not cells:
        raise ValueError("no loss cell was found inside the window")
    i_lo, i_hi = min(cells), max(cells)
    Pm = [cells.get(i, [arb(0), arb(0)])[0] for i in range(i_lo, i_hi + 1)]
    Qm = [cells.get(i, [arb(0), arb(0)])[1] for i in range(i_lo, i_hi + 1)]
    return LossCells(step, i_lo, Pm, Qm, unknown_p, unknown_q, n_unc, state["evals"])
