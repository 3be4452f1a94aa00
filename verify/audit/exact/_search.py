"""Search machinery shared by the abstract audits (pure and (eps, delta)): the box of abstract
instances allowed by 004 Def. 8, its exact projection in mpmath, and a bounded local maximiser.

An abstract instance of M(x) = f(x) + (B(x)/eta) Z (normalised B(x') = 1, f(x') = 0) is
(d, r, shift, y) with d in (0, d_max], |r| = |ln B(x) - ln B(x')| <= ln g0(d) (condition (2)) and
||shift||_1 <= min(e^r, 1) d (condition (1) at x and at x').
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from smoothsens_core.mechanism import SmoothSensitivityMechanism

__all__ = ["search_distance", "AbstractBox", "project_def8_mp", "local_max", "best_local_max", "require_abstract_search"]

FloatArray = NDArray[np.float64]


def require_abstract_search(mech: Any) -> SmoothSensitivityMechanism:
    """The mechanism, checked to be a SmoothSensitivityMechanism with a growth function (the abstract
    search needs eta, growth, eps, delta, metric, Lambda, m; f and B are not used)."""
    if not isinstance(mech, SmoothSensitivityMechanism):
        raise TypeError("the abstract audit needs a smoothsens_core.mechanism.SmoothSensitivityMechanism "
                        f"(e.g. calibrate_student_t(...).mechanism()); got {type(mech).__name__}")
    if mech.growth is None:
        raise ValueError("the abstract audit needs the growth function of B: the mechanism has growth=None")
    return mech


def search_distance(mech: SmoothSensitivityMechanism) -> float:
    """Largest distance searched: 1 for DP; for GP min(Lambda, 8/eps) for pure guarantees (the
    losses here grow linearly in d, the slack is searched where the loss is O(1..10)) and
    min(Lambda, 256/eps) for (eps, delta), whose worst pairs can sit at large distances."""
    if mech.metric == "hamming":
        return 1.0
    return float(min(mech.Lambda, (256.0 if mech.delta > 0 else 8.0) / mech.eps))


class AbstractBox:
    """Map box variables v in [lo, hi]^k to an abstract instance (d, r, shift, y) of ``mech``.

    v = (v_d, v_r, v_shift[m], v_y[m]) with v_d in [-6, 0], others in [-1, 1] except
    v_y in [-40, 40]:  d = d_max 10^v_d;  r = ln g0(d) v_r;
    shift = min(e^r, 1) d * w / max(1, ||w||_1), w = v_shift (l1 ball, 004 Def. 8 (1));
    y_j = max(e^r, 1)/eta * sinh(v_y_j) (covers the far tails).
    """

    def __init__(self, mech: SmoothSensitivityMechanism, with_y: bool = True) -> None:
        self.mech = mech
        self.d_max = search_distance(mech)
        m = mech.m
        self.m = m
        self.with_y = with_y
        lo = [-6.0 if mech.metric == "euclidean" else 0.0] + [-1.0] + [-1.0] * m
        hi = [0.0, 1.0] + [1.0] * m
        if with_y:
            lo += [-40.0] * m
            hi += [40.0] * m
        self.lo = np.array(lo)
        self.hi = np.array(hi)
        self.k = len(lo)

    def decode(self, v: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray | None]:
        v = np.clip(np.atleast_2d(v), self.lo, self.hi)
        mech = self.mech
        d = self.d_max * 10.0 ** v[:, 0]
        r = np.asarray(mech.growth.log_g0(d)) * v[:, 1]  # type: ignore[union-attr]
        w = v[:, 2:2 + self.m]
        norm = np.maximum(1.0, np.sum(np.abs(w), axis=1))
        shift = (np.minimum(np.exp(r), 1.0) * d / norm)[:, None] * w
        y = None
        if self.with_y:
            vy = v[:, 2 + self.m:2 + 2 * self.m]
            y = (np.maximum(np.exp(r), 1.0) / mech.eta)[:, None] * np.sinh(vy)
        return d, r, shift, y

    def decode_with_y(self, v: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """:meth:`decode` of a box built with ``with_y=True``, whose y is always present."""
        d, r, shift, y = self.decode(v)
        if y is None:
            raise ValueError("decode_with_y needs a box built with with_y=True")
        return d, r, shift, y

    def random(self, n: int, rng: np.random.Generator) -> FloatArray:
        u = rng.random((n, self.k))
        v = self.lo + (self.hi - self.lo) * u
        # A third of the draws sit on the constraint boundaries (|r| and |shift| maximal), where
        # the worst cases of these mechanisms live; d / d_max is drawn log-uniformly.
        if self.mech.metric == "euclidean":
            v[:, 0] = rng.uniform(-5.0 if self.mech.delta > 0 else -4.0, 0.0, n)
        b = rng.random(n) < 1 / 3
        v[b, 1] = np.sign(v[b, 1])
        if self.m == 1:
            v[b, 2] = np.sign(v[b, 2])
        if self.with_y:
            vy = v[:, 2 + self.m:]
            # Half the outputs near the centres (|sinh v| < 5), half over the tails.
            c = rng.random(n) < 0.5
            vy[c] = rng.uniform(-2.5, 2.5, (int(c.sum()), self.m))
        return v


def project_def8_mp(mech: SmoothSensitivityMechanism, d: Any, r: Any,
                    shift: Sequence[Any] | FloatArray) -> tuple[Any, list[Any]]:
    """Project (r, shift) at distance d exactly onto 004 Def. 8 in mpmath (current precision):
    |r| <= ln g0(d) (gamma d for g_E, ln(1 + gamma d) for g_L) and ||shift||_1 <= min(e^r, 1) d.
    Returns (r, shift) as mpmath numbers."""
    dm = mpmath.mpf(d)
    g = mech.growth
    lg = mpmath.mpf(g.gamma) * dm if g.kind == "exp" else mpmath.log1p(mpmath.mpf(g.gamma) * dm)  # type: ignore[union-attr]
    rm = mpmath.mpf(r)
    if abs(rm) > lg:
        rm = mpmath.sign(rm) * lg
    cap = min(mpmath.exp(rm), mpmath.mpf(1)) * dm
    sh = [mpmath.mpf(s) for s in shift]
    tot = sum(abs(s) for s in sh)
    if tot > cap:
        sh = [s * cap / tot for s in sh]
    return rm, sh


def local_max(fun: Callable[[FloatArray], float], x0: FloatArray, lo: FloatArray, hi: FloatArray,
              maxfev: int) -> tuple[FloatArray, float]:
    """Bounded derivative-free local maximisation (Powell; the losses have kinks)."""
    x0 = np.clip(np.asarray(x0, dtype=float), lo, hi)
    f0 = fun(x0)
    res = optimize.minimize(lambda v: -fun(v), x0, method="Powell",
                            bounds=list(zip(lo, hi, strict=True)), options={"maxfev": maxfev, "xtol": 1e-10,
                                                                 "ftol": 1e-13})
    x1 = np.clip(res.x, lo, hi)
    f1 = fun(x1)  # re-evaluated at the clipped point actually reported
    # Powell can end below its start on flat or kinked landscapes: never return a worse point.
    return (x1, f1) if f1 >= f0 else (x0, f0)


def best_local_max(fun: Callable[[FloatArray], float], starts: Any, lo: FloatArray, hi: FloatArray,
                   maxfev: int) -> tuple[list[tuple[float, FloatArray]], int]:
    """:func:`local_max` from each of ``starts``: the (value, point) pairs, largest value first
    (among equal values the earliest start first), and the evaluations of ``fun`` in all."""
    calls = [0]

    def counted(v: FloatArray) -> float:
        calls[0] += 1
        return fun(v)

    best: list[tuple[float, FloatArray]] = []
    for st in starts:
        vx, fx = local_max(counted, st, lo, hi, maxfev=maxfev)
        best.append((fx, vx))
    best.sort(key=lambda t: -t[0])
    return best, calls[0]
