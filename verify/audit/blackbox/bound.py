"""Black-box audit of a claimed smooth upper bound B (004 Def. 8) against the core's L_{f,Lambda}.

A function B : U -> R_{>0} is a g-smooth upper bound on the pointwise Lipschitz constant
L_{f,Lambda} of f (004 Def. 8) iff

  (1)  B(x) >= L_{f,Lambda}(x)                 for every x in U, and
  (2)  B(x) <= g(x, x') B(x') = g0(||x - x'||) B(x')   for every x, x' in U with ||x - x'|| <= Lambda
       (the looser form of condition (2) that 004 Def. 8 allows; for Lambda = inf, every pair),

where L_{f,Lambda}(x) = sup_{0 < ||w - x|| <= Lambda} |f(w) - f(x)| / ||w - x|| (004 Def. 7).
Every valid B is >= the g-smooth sensitivity B*(x) = sup_z L_{f,Lambda}(z) / g(x, z)
(004 Def. 9, Lemma 3.2), and B* itself is valid (004 Lemma 3.1).

The audit searches adversarially for violations over the box ``domain`` (the user's U):

1. exploration: stratified and uniform points plus the query's special points (band edges,
   kernel centre); B is called on whole arrays (one call per batch).  For a radial query (the
   KDE) lattices of radii around the centre take 45 % of the budget (35 % on the kernel region
   [0, 4h], 10 % beyond; spacing 5.7e-4 h and 1e-2 h at the default budget); with a vectorised B
   (or when ``sweep_spacing`` is given) a radius sweep is added on top of the budget: one shifted
   lattice over the whole range [0, r_max] (r_max: the largest ball around the centre inside the
   box) at spacing ``sweep_spacing`` x h (default 4e-4 h: 60,000 radii on the default KDE box of
   half-width 24 h, evaluated in one array call), so that every band of radii wider than the
   spacing contains a swept radius whatever the seed.  A per-point B (one Python call per point)
   gets the budget only; then
1b. adaptive refinement around the lowest ratios B/B* (on a lattice 1/16 of the local spacing in
   radius space for radial queries);
2. pairs for (2): random partners at log-uniform distances up to min(Lambda, diam), nearest
   neighbours and random pairs of the exploration points (free: no new evaluations of B), and
   pairs straddling each special point at distances down to 1e-9 of the query's scale (jumps of B);
3. the Lemma 3.2 lift: at the points where B < B*, the z maximising L(z)/g(x, z) (by search in
   the domain) gives B(x) < L(z)/g(x, z), so either (1) fails at z or (2) fails for (z, x);
4. local refinement of the best candidates of each condition by a batched, gradient-free compass
   search (B may be piecewise or discontinuous; every trial is one row of a vectorised call);
5. certification of the best candidates (mpmath at ``dps`` digits):
   * (1): a chord partner w of x is searched with f in float, then
     c = |f(w) - f(x)| / ||w - x|| is recomputed in mpmath (f from its definition in the paper,
     :mod:`.queries`), so c <= L_{f,Lambda}(x) by 004 Def. 7; the violation is certified when
     c > B(x) (1 + rtol), B(x) re-evaluated exactly as given;
   * (2): B(x), B(x') re-evaluated as given, g0(||x - x'||) in mpmath from the binary64
     coordinates; certified when B(x) > g0 B(x') (1 + rtol).
   ``rtol`` (default 1e-9) separates a violation from the rounding of a correct float B.

The inputs U are R^d: the queries, L_{f,Lambda} and B* are those of the core on R^d, and
``domain`` is the box searched (chord partners w may lie outside it).  Where the core computes
B* (closed forms, or the generic engine for an expression), the report gives the quantiles of
B/B* over the exploration points: a ratio below 1 proves B invalid (004 Lemma 3.2; for finite
Lambda, where condition (2) is only checked within Lambda, 004 Lemma C.1 gives the same for g_E
but nothing is known for g_L, 004 App. C.2), a ratio above 1 is accuracy wasted.  A candidate that raises, returns NaN, an
infinity or a value <= 0 at a point of the domain is reported with the input.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from smoothsens_core.validation import check_integer, check_positive, check_rng
from smoothsens_core.growth import GrowthFunction

from ._callables import EvaluationFailure, PointFunction
from verify.serialise import jsonable
from .queries import BoundQuery, check_domain, resolve_query

__all__ = ["BoundViolation", "BoundAuditReport", "audit_smooth_bound", "DEFAULT_BOUND_BUDGET", "DEFAULT_SWEEP_SPACING"]

FloatArray = NDArray[np.float64]
DEFAULT_BOUND_BUDGET = 20_000
#: Spacing of the radius sweep of a radial query, in units of the query's scale h (vectorised B):
#: every band of radii at least this wide contains a swept radius (benchmarks/bench_band_detection.py).
DEFAULT_SWEEP_SPACING = 4e-4
_QUANTILES = (0.0, 0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999, 1.0)


@dataclass(frozen=True)
class BoundViolation:
    """A violation of 004 Def. 8 re-evaluated in mpmath.

    ``condition`` 1: B(x) < L_{f,Lambda}(x), evidence: the chord partner w and the mpmath chord
    c = |f(w) - f(x)|/||w - x|| <= L(x); ``ratio`` = c / B(x).
    ``condition`` 2: B(x) > g(x, x') B(x'), evidence: both values of B and g0(||x - x'||) in
    mpmath; ``ratio`` = B(x) / (g0 B(x')).  A ratio > 1 is a violation; ``certified`` when it
    exceeds 1 + rtol in mpmath at ``dps`` digits.
    """

    condition: int
    x: tuple[float, ...]
    partner: tuple[float, ...]
    ratio: float
    ratio_mp: str
    certified: bool
    evidence: Mapping[str, Any]

    def describe(self) -> str:
        # witnesses in shortest round-trip form: x and x' may differ only in the 11th digit
        xs = _fmt_point(self.x, exact=True)
        ps = _fmt_point(self.partner, exact=True)
        if self.condition == 1:
            return (f"(1) B(x) < L(x) at x={xs}: B(x)={self.evidence['B_x']:.9g} < "
                    f"|f(w)-f(x)|/|w-x| = {_fmt_mp(self.evidence['chord_mp'], 12)} (mpmath, w={ps}); "
                    f"ratio L/B >= {_fmt_mp(self.ratio_mp, 12)}")
        return (f"(2) B(x) > g(x,x')B(x') at x={xs}, x'={ps}: B(x)={self.evidence['B_x']:.9g}, "
                f"B(x')={self.evidence['B_x_prime']:.9g}, g0(|x-x'|={_fmt_mp(self.evidence['dist_mp'], 10)})="
                f"{_fmt_mp(self.evidence['g_mp'], 12)}; ratio B(x)/(g B(x')) = {_fmt_mp(self.ratio_mp, 12)}")

    def to_json(self) -> dict[str, Any]:
        return jsonable({"condition": self.condition, "x": list(self.x), "partner": list(self.partner),
                         "ratio": self.ratio, "ratio_mp": self.ratio_mp, "certified": self.certified,
                         "evidence": dict(self.evidence)})


@dataclass(frozen=True)
class BoundAuditReport:
    """Outcome of :func:`audit_smooth_bound` (see its docstring); ``passed`` iff nothing was found."""

    query: str
    source: str
    domain: tuple[tuple[float, ...], tuple[float, ...]]
    budget: int
    seed: Any
    evaluations: int
    calls: int
    vectorised: bool
    violations: tuple[BoundViolation, ...]
    uncertified: tuple[BoundViolation, ...]
    failures: tuple[EvaluationFailure, ...]
    n_failed: int
    unisolated: int
    max_log_ratio: Mapping[str, float]
    comparison: Mapping[str, Any] | None
    notes: tuple[str, ...] = ()
    elapsed: float = 0.0
    rtol: float = 1e-9
    dps: int = 50
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: Why the audit could not decide (points where a condition was not checked, float excesses that
    #: could not be certified); non-empty makes the verdict INCONCLUSIVE unless a fault was certified.
    inconclusive_reasons: tuple[str, ...] = ()

    @property
    def below_optimal(self) -> bool:
        """B < B* (1 - rtol) somewhere, where that proves B invalid: 004 Lemma 3.2 (Lambda = inf) or
        Lemma C.1 (finite Lambda, g_E); for g_L with finite Lambda the relaxed condition (2) of
        004 App. C.2 does not imply B >= B*, and the ratio is only reported."""
        c = self.comparison or {}
        return bool(c.get("below_fraction", 0.0) > 0.0 and c.get("below_proves_invalid", False))

    @property
    def faulty(self) -> bool:
        """A certified fault: a violation certified in mpmath, B failing, or B < B* where that proves
        B invalid (004 Lemma 3.2 / C.1)."""
        return bool(self.violations) or self.n_failed > 0 or self.unisolated > 0 or self.below_optimal

    @property
    def inconclusive(self) -> bool:
        """No certified fault, but a condition was not checked everywhere or an excess found in float
        could not be certified (``inconclusive_reasons``): neither a pass nor a fault."""
        return not self.faulty and bool(self.inconclusive_reasons or self.uncertified)

    @property
    def verdict(self) -> str:
        """"FAIL" (certified fault), "INCONCLUSIVE" or "PASS" (both conditions checked at every point
        searched, no violation found)."""
        return "FAIL" if self.faulty else ("INCONCLUSIVE" if self.inconclusive else "PASS")

    @property
    def decided(self) -> bool:
        return self.verdict != "INCONCLUSIVE"

    @property
    def passed(self) -> bool:
        return self.verdict == "PASS"

    def summary(self) -> str:
        sw, lat = self.extra.get("sweep"), self.extra.get("lattices")
        n_sweep = int(sw["radii"]) if sw else 0
        lines = [f"smooth-bound audit of B for {self.query} ({self.source}) on "
                 f"[{_fmt_point(self.domain[0])}, {_fmt_point(self.domain[1])}]",
                 f"  {self.evaluations - n_sweep} evaluations of B"
                 + (f" (+ {n_sweep} in the radius sweep)" if n_sweep else "")
                 + f" in {self.calls} calls ({'vectorised' if self.vectorised else 'scalar'}), {self.elapsed:.1f} s"]
        if lat:
            lines.append(f"  lattices of radii in the budget ({lat['radii']} radii): spacing {lat['spacing']:.3g} on "
                         f"[0, {lat['r_core']:.6g}]" + (f", {lat['tail_spacing']:.3g} on [{lat['r_core']:.6g}, "
                                                       f"{lat['r_max']:.6g}]" if lat["r_max"] > lat["r_core"] else ""))
        if sw:
            lines.append(f"  radius sweep: {sw['radii']} radii at spacing {sw['spacing']:.3g} over [0, {sw['r_max']:.6g}] "
                         "around the centre (on top of the budget)")
        lines.append(f"  largest ln(L/B) found (condition 1): {self.max_log_ratio['condition_1']:.3g}; "
                     f"largest ln(B(x)/(g B(x'))) (condition 2): {self.max_log_ratio['condition_2']:.3g}")
        c = self.comparison
        if c is not None and c.get("quantiles"):
            qs = c["quantiles"]
            lines.append(f"  B/B* over {c['n']} points: min {qs['0']:.6g}, 1% {qs['0.01']:.6g}, median "
                         f"{qs['0.5']:.6g}, 99% {qs['0.99']:.6g}, max {qs['1']:.6g}"
                         + (f"; below B* on {100 * c['below_fraction']:.3g}% ("
                            + ("004 Lemma 3.2 / C.1: invalid)" if c["below_proves_invalid"] else
                               "g_L with finite Lambda: not a proof of invalidity, 004 App. C.2)")
                            if c["below_fraction"] > 0 else ""))
        elif c is not None:
            lines.append(f"  B/B*: {c.get('note', 'not available')}")
        for v in self.violations:
            lines.append("  CERTIFIED " + v.describe())
        for v in self.uncertified[:3]:
            lines.append("  not certified: " + v.describe())
        if self.n_failed or self.unisolated:
            lines.append(f"  B failed at {self.n_failed} input(s)"
                         + (f" (+{self.unisolated} in failing batches not isolated)" if self.unisolated else ""))
            for fl in self.failures[:5]:
                lines.append(f"    x={_fmt_point(fl.x)}: {fl.kind}: {fl.detail}")
        for n in self.notes:
            lines.append(f"  note: {n}")
        for reason in self.inconclusive_reasons:
            lines.append(f"  not decided: {reason}")
        if self.uncertified and not self.faulty:
            lines.append(f"  not decided: {len(self.uncertified)} excess(es) found in float could not be certified in mpmath")
        lines.append("  verdict: " + {"PASS": "PASS (no violation found)", "FAIL": "FAIL",
                                      "INCONCLUSIVE": "INCONCLUSIVE (not every check could be made; see above)"}[self.verdict])
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return jsonable({
            "kind": "bound", "query": self.query, "source": self.source,
            "domain": [list(self.domain[0]), list(self.domain[1])], "budget": self.budget,
            "seed": self.seed if isinstance(self.seed, int) else str(self.seed),
            "evaluations": self.evaluations, "calls": self.calls, "vectorised": self.vectorised,
            "passed": self.passed, "verdict": self.verdict, "inconclusive_reasons": list(self.inconclusive_reasons),
            "violations": [v.to_json() for v in self.violations],
            "uncertified": [v.to_json() for v in self.uncertified],
            "failures": [f.to_json() for f in self.failures], "n_failed": self.n_failed,
            "unisolated": self.unisolated, "max_log_ratio": dict(self.max_log_ratio),
            "comparison": jsonable(self.comparison), "notes": list(self.notes),
            "elapsed_s": self.elapsed, "rtol": self.rtol, "dps": self.dps, **dict(self.extra),
        })


def _fmt_mp(v: Any, digits: int) -> str:
    """An mpmath number (or its string) to ``digits`` significant digits, exponent kept
    (mpmath.nstr; slicing the string would drop the "e-10" of 3.04e-10)."""
    with mpmath.workdps(digits + 15):
        return mpmath.nstr(mpmath.mpf(v), digits)


def _fmt_point(x: Any, exact: bool = False) -> str:
    v = [float(t) for t in np.atleast_1d(np.asarray(x, dtype=float))]
    fmt = repr if exact else (lambda t: f"{t:.10g}")
    return fmt(v[0]) if len(v) == 1 else "(" + ", ".join(fmt(t) for t in v) + ")"


# ---------------------------------------------------------------------------------------------
# search machinery
# ---------------------------------------------------------------------------------------------
def _unit_vectors(n: int, d: int, rng: np.random.Generator) -> FloatArray:
    if d == 1:
        return np.where(rng.random((n, 1)) < 0.5, -1.0, 1.0)
    u = rng.normal(size=(n, d))
    return u / np.linalg.norm(u, axis=1, keepdims=True)


def _pattern_search(
    obj: Callable[[FloatArray], FloatArray],
    Y0: FloatArray,
    step0: FloatArray,
    project: Callable[[FloatArray], FloatArray],
    max_rows: int,
    rng: np.random.Generator,
    min_step: float,
) -> tuple[FloatArray, FloatArray, int]:
    """Batched compass search maximising ``obj`` from every row of Y0 (gradient-free).

    Each iteration tries, for every active start, the 2m coordinate moves +-step e_i and two
    random directions, in one vectorised call of ``obj``; a start moves to its best trial if it
    improves (step x 1.5), else its step is halved.  Stops when ``max_rows`` rows were evaluated
    or every step is below ``min_step``.  Returns (Y, values, rows evaluated)."""
    Y = project(Y0.copy())
    v = obj(Y)
    v = np.where(np.isfinite(v), v, -np.inf)
    used = Y.shape[0]
    k, m = Y.shape
    step = np.broadcast_to(np.asarray(step0, dtype=float).reshape(k, -1), (k, m)).copy()
    axes = np.concatenate([np.eye(m), -np.eye(m)])
    n_try = 2 * m + 2
    while True:
        active = np.nonzero(np.max(step, axis=1) > min_step)[0]
        if active.size == 0 or used + active.size * n_try > max_rows:
            break
        ka = active.size
        rnd = rng.normal(size=(ka, 2, m))
        rnd /= np.linalg.norm(rnd, axis=2, keepdims=True)
        D = np.concatenate([np.broadcast_to(axes, (ka, 2 * m, m)), rnd], axis=1) * step[active][:, None, :]
        T = project((Y[active][:, None, :] + D).reshape(-1, m))
        vt = obj(T).reshape(ka, n_try)
        vt = np.where(np.isfinite(vt), vt, -np.inf)
        used += ka * n_try
        j = np.argmax(vt, axis=1)
        best = vt[np.arange(ka), j]
        better = best > v[active]
        rows = active[better]
        Y[rows] = T.reshape(ka, n_try, m)[better, j[better]]
        v[rows] = best[better]
        step[rows] *= 1.5
        step[active[~better]] *= 0.5
    return Y, v, used


def _distinct(points: FloatArray, order: NDArray[np.intp], k: int, sep: float) -> list[int]:
    """Up to k indices from ``order`` whose points are pairwise more than ``sep`` apart."""
    chosen: list[int] = []
    for i in order:
        if len(chosen) >= k:
            break
        if all(np.linalg.norm(points[i] - points[j]) > sep for j in chosen):
            chosen.append(int(i))
    return chosen


class _Search:
    """State of one audit: the candidate B, the query and the pool of evaluated candidates."""

    def __init__(self, q: BoundQuery, Bf: PointFunction, lo: FloatArray, hi: FloatArray, rng: np.random.Generator):
        self.q = q
        self.Bf = Bf
        self.lo = lo
        self.hi = hi
        self.rng = rng
        self.d = q.d
        self.diam = float(np.linalg.norm(hi - lo))
        self.Lam = q.Lambda
        self.log_g0 = q.growth.log_g0
        # pools: condition 1 (x, score), condition 2 (x, x', score)
        self.c1_x: list[FloatArray] = []
        self.c1_s: list[FloatArray] = []
        self.c2_a: list[FloatArray] = []
        self.c2_b: list[FloatArray] = []
        self.c2_s: list[FloatArray] = []
        self.notes: list[str] = []
        self.L_unavailable = 0
        self.dropped1 = 0  # float excesses of condition (1) that yielded no mpmath witness

    # -- evaluation helpers ---------------------------------------------------------------------
    def clip(self, X: FloatArray) -> FloatArray:
        return np.clip(X, self.lo, self.hi)

    def lipschitz(self, X: FloatArray) -> FloatArray:
        """L_{f,Lambda} from the core; points where the core raises are NaN (with a note)."""
        try:
            return np.asarray(self.q.lipschitz(X), dtype=float).reshape(-1)
        except ValueError as exc:
            if X.shape[0] == 1:
                if not self.L_unavailable:
                    self.notes.append(f"L_{{f,Lambda}} unavailable at x={_fmt_point(X[0])}: {exc}")
                self.L_unavailable += 1
                return np.full(1, np.nan)
            h = X.shape[0] // 2
            return np.concatenate([self.lipschitz(X[:h]), self.lipschitz(X[h:])])

    def score1(self, X: FloatArray, BX: FloatArray | None = None) -> FloatArray:
        """ln L(x) - ln B(x): > 0 violates condition (1)."""
        BX = self.Bf(X) if BX is None else BX
        L = self.lipschitz(X)
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.log(L) - np.log(BX)
        return np.where(np.isnan(s), -np.inf, s)

    def log_g(self, A: FloatArray, B: FloatArray) -> FloatArray:
        return self.log_g0(np.linalg.norm(A - B, axis=1))

    def score2(self, BA: FloatArray, BB: FloatArray, A: FloatArray, Bp: FloatArray) -> FloatArray:
        """ln B(x) - ln B(x') - ln g0(||x - x'||): > 0 violates condition (2) for the pair (x, x')."""
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.log(BA) - np.log(BB) - self.log_g(A, Bp)
        ok = np.linalg.norm(A - Bp, axis=1) <= self.Lam
        return np.where(np.isnan(s) | ~ok, -np.inf, s)

    def add1(self, X: FloatArray, s: FloatArray) -> None:
        self.c1_x.append(X)
        self.c1_s.append(s)

    def add2(self, A: FloatArray, Bp: FloatArray, BA: FloatArray, BB: FloatArray) -> None:
        """Both orders of every pair (x, x'): condition (2) must hold for (x, x') and (x', x)."""
        self.c2_a += [A, Bp]
        self.c2_b += [Bp, A]
        self.c2_s += [self.score2(BA, BB, A, Bp), self.score2(BB, BA, Bp, A)]

    def pool1(self) -> tuple[FloatArray, FloatArray]:
        if not self.c1_x:
            return np.zeros((0, self.d)), np.zeros(0)
        return np.concatenate(self.c1_x), np.concatenate(self.c1_s)

    def pool2(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        if not self.c2_a:
            return np.zeros((0, self.d)), np.zeros((0, self.d)), np.zeros(0)
        return np.concatenate(self.c2_a), np.concatenate(self.c2_b), np.concatenate(self.c2_s)

    def project_pair(self, Y: FloatArray) -> FloatArray:
        d = self.d
        A = self.clip(Y[:, :d])
        Bp = self.clip(Y[:, d:])
        if math.isfinite(self.Lam):
            diff = Bp - A
            nrm = np.linalg.norm(diff, axis=1)
            far = nrm > self.Lam
            if np.any(far):
                Bp[far] = self.clip(A[far] + diff[far] * (self.Lam * (1 - 1e-12) / nrm[far])[:, None])
        return np.concatenate([A, Bp], axis=1)


def _compare(X0: FloatArray, B0: FloatArray, idx_c: NDArray[np.intp], Bstar: FloatArray, q: BoundQuery,
             rtol: float) -> dict[str, Any]:
    """Quantiles of B/B* over the points idx_c of X0 (Bstar aligned with idx_c), the fraction below 1
    and the extreme points."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = B0[idx_c] / Bstar
    ok = np.isfinite(ratio)
    rr = ratio[ok]
    if not rr.size:
        return {"note": "no point where both B and B* are finite"}
    qs = np.quantile(rr, _QUANTILES)
    below = rr < 1.0 - rtol
    i_min = idx_c[ok][int(np.argmin(rr))]
    i_max = idx_c[ok][int(np.argmax(rr))]
    return {
        "n": int(rr.size),
        "quantiles": {f"{p:g}": float(v) for p, v in zip(_QUANTILES, qs, strict=True)},
        "below_fraction": float(np.mean(below)),
        "above_fraction": float(np.mean(rr > 1.0 + rtol)),
        "min": {"x": X0[i_min].tolist(), "B": float(B0[i_min]), "B_star": float(Bstar[ok][np.argmin(rr)])},
        "max": {"x": X0[i_max].tolist(), "B": float(B0[i_max]), "B_star": float(Bstar[ok][np.argmax(rr)])},
        "below_proves_invalid": bool(math.isinf(q.Lambda) or q.growth.kind == "exp"),
        "meaning": "B/B* < 1: not a smooth upper bound (004 Lemma 3.2; Lemma C.1 for finite Lambda "
                   "and g_E); > 1: accuracy wasted",
    }


@dataclass(frozen=True)
class _RadialLayout:
    """Exploration of a radial query: a shifted lattice of radii with spacing ``s_core`` on
    [0, r_core] (the kernel region) and ``s_tail`` on [r_core, r_max] (r_max: the largest ball
    around the centre inside the box), each radius at a random direction."""

    centre: FloatArray
    r_core: float
    r_max: float
    n_core: int
    n_tail: int

    @property
    def s_core(self) -> float:
        return self.r_core / self.n_core

    @property
    def s_tail(self) -> float:
        # no tail lattice (the core lattice reaches r_max): points beyond r_max (corners of the box,
        # d >= 2) are refined at the core spacing, not at spacing 0
        return (self.r_max - self.r_core) / self.n_tail if self.n_tail else self.s_core


def _radial_layout(q: BoundQuery, lo: FloatArray, hi: FloatArray, budget: int) -> _RadialLayout | None:
    """The lattices of radii of a radial query (35% of the budget on the core, 10% on the tail), or
    None when the query is not radial or its centre is not inside the box."""
    if q.radial_centre is None:
        return None
    c = np.asarray(q.radial_centre, dtype=float)
    r_max = float(np.min(np.minimum(c - lo, hi - c)))
    if not r_max > 0:
        return None
    r_core = min(float(q.radial_core), r_max)
    n_core = int(0.35 * budget)
    n_tail = int(0.10 * budget) if r_max > r_core else 0
    return _RadialLayout(c, r_core, r_max, n_core, n_tail)


def _sweep_layout(lay: _RadialLayout, spacing: float, room: int) -> _RadialLayout:
    """One lattice of radii over the whole range [0, r_max] at ``spacing`` (at most ``room`` radii:
    beyond that the spacing widens to r_max / room)."""
    n = max(1, min(int(math.ceil(lay.r_max / spacing)), int(room)))
    return _RadialLayout(lay.centre, lay.r_max, lay.r_max, n, 0)


def _at_radii(centre: FloatArray, radii: FloatArray, gen: np.random.Generator) -> FloatArray:
    return centre[None, :] + radii[:, None] * _unit_vectors(radii.size, centre.size, gen)


def _radial_points(lay: _RadialLayout, gen: np.random.Generator) -> FloatArray:
    """Shifted lattices of radii (common random offset, so consecutive radii are exactly one spacing
    apart: every band of radii at least one spacing wide contains a lattice radius)."""
    radii = [(np.arange(lay.n_core) + gen.random()) * lay.s_core]
    if lay.n_tail:
        radii.append(lay.r_core + (np.arange(lay.n_tail) + gen.random()) * lay.s_tail)
    return _at_radii(lay.centre, np.concatenate(radii), gen)


def _refine_ratios(q: BoundQuery, Bf: PointFunction, S: "_Search", lay: _RadialLayout | None, X: FloatArray,
                   BX: FloatArray, Bstar: FloatArray, lo: FloatArray, hi: FloatArray, span: FloatArray, n0: int,
                   n_new: int, gen: np.random.Generator
                   ) -> tuple[FloatArray, FloatArray, FloatArray, NDArray[np.intp], int]:
    """Adaptive refinement: around the 8 lowest ratios B/B* (distinct by more than the local spacing),
    ``n_new`` new points in all -- for a radial query on a lattice of radii 1/16 of the local spacing
    across +-2 spacings of the base radius, otherwise uniformly in a ball of 2 spacings around the
    base point.  Returns the new points, B and B* there, the index of each one's base point and the
    number of new points where B* is only a lower bound (not certified)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = BX / Bstar
    ratio = np.where(np.isfinite(ratio), ratio, np.inf)
    d = X.shape[1]
    if lay is not None:
        rad = np.linalg.norm(X - lay.centre, axis=1)
        sep = np.where(rad <= lay.r_core, lay.s_core, lay.s_tail)
    else:
        sep = np.full(X.shape[0], float(np.prod(span) / max(n0, 1)) ** (1.0 / d))
    order = np.argsort(ratio)[:4000]
    bases: list[int] = []
    for i in order:
        if len(bases) >= 8 or not np.isfinite(ratio[i]):
            break
        if all(np.linalg.norm(X[i] - X[j]) > 4 * sep[j] for j in bases):
            bases.append(int(i))
    if not bases or n_new < len(bases):
        return np.zeros((0, d)), np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.intp), 0
    per = n_new // len(bases)
    pts, base_idx = [], []
    for i in bases:
        if lay is not None:
            r0 = float(np.linalg.norm(X[i] - lay.centre))
            radii = np.clip(r0 + np.linspace(-2.0, 2.0, per) * sep[i], 0.0, lay.r_max)
            P = _at_radii(lay.centre, radii, gen)
        else:
            P = X[i] + 2.0 * sep[i] * _unit_vectors(per, d, gen) * gen.random((per, 1)) ** (1.0 / d)
        pts.append(S.clip(P))
        base_idx.append(np.full(per, i, dtype=np.intp))
    XR = np.concatenate(pts)
    BR = Bf(XR)
    from derivations.engine import UncertifiedSensitivityError  # noqa: PLC0415

    assert q.smooth_sensitivity is not None  # the caller refines only where B* was computed
    n_unc = 0
    try:
        BsR = np.asarray(q.smooth_sensitivity(XR), dtype=float).reshape(-1)
    except UncertifiedSensitivityError as exc:  # lower bounds of B*: B below them still proves (1) or (2) fails
        BsR = np.asarray(exc.result.value, dtype=float).reshape(-1)
        n_unc = int(np.sum(~np.asarray(exc.result.certified)))
    except ValueError:
        return np.zeros((0, d)), np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.intp), 0
    return XR, BR, BsR, np.concatenate(base_idx), n_unc


# ---------------------------------------------------------------------------------------------
# certification (mpmath)
# ---------------------------------------------------------------------------------------------
def _chord_witness(q: BoundQuery, x: FloatArray, rmax: float, rng: np.random.Generator) -> tuple[FloatArray, float]:
    """A partner w of x with a large chord |f(w) - f(x)|/||w - x||, 0 < ||w - x|| <= rmax (float search)."""
    d = q.d
    if d == 1:
        U = np.array([[1.0], [-1.0]])
    elif d == 2:
        th = np.linspace(0.0, 2 * np.pi, 72, endpoint=False)
        U = np.stack([np.cos(th), np.sin(th)], axis=1)
    else:
        U = np.concatenate([np.eye(d), -np.eye(d), _unit_vectors(96, d, rng)])
    radii = np.geomspace(1e-8 * q.scale, rmax, 160)
    W = (x[None, None, :] + radii[:, None, None] * U[None, :, :]).reshape(-1, d)
    fx = float(np.asarray(q.f(x[None, :]), dtype=float)[0])

    def chord(Wc: FloatArray) -> FloatArray:
        r = np.linalg.norm(Wc - x, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            c = np.abs(np.asarray(q.f(Wc), dtype=float) - fx) / r
        return np.where((r > 0) & (r <= rmax) & np.isfinite(c), c, -np.inf)

    c = chord(W)
    order = np.argsort(-c)[:4]
    starts = W[order]

    def project(Wc: FloatArray) -> FloatArray:
        diff = Wc - x
        r = np.linalg.norm(diff, axis=1)
        scale = np.where(r > rmax, rmax * (1 - 1e-12) / np.maximum(r, 1e-300), 1.0)
        return x + diff * scale[:, None]

    step = np.maximum(0.1 * np.linalg.norm(starts - x, axis=1), 1e-12 * q.scale)[:, None] * np.ones((1, d))
    Wr, vr, _ = _pattern_search(chord, starts, step, project, 4000, rng, 1e-14 * q.scale)
    j = int(np.argmax(vr))
    if vr[j] >= c[order[0]]:
        return Wr[j], float(vr[j])
    return W[order[0]], float(c[order[0]])


def _certify1(q: BoundQuery, Bf: PointFunction, x: FloatArray, rmax: float, rtol: float, dps: int,
              rng: np.random.Generator) -> BoundViolation | None:
    Bx = Bf.one(x)
    if not (math.isfinite(Bx) and Bx > 0):
        return None  # reported as a failure of B
    w, c_float = _chord_witness(q, x, rmax, rng)
    try:
        L_core = float(np.asarray(q.lipschitz(x[None, :]), dtype=float)[0])
    except ValueError:  # the generic engine could not certify L here; the mpmath chord still stands
        L_core = math.nan
    with mpmath.workdps(dps):
        xm = [mpmath.mpf(float(v)) for v in x]
        wm = [mpmath.mpf(float(v)) for v in w]
        r = mpmath.sqrt(sum((a - b) ** 2 for a, b in zip(xm, wm, strict=True)))
        if r == 0 or (math.isfinite(q.Lambda) and r > mpmath.mpf(q.Lambda)):
            return None
        chord = abs(q.f_mp(*wm) - q.f_mp(*xm)) / r
        ratio = chord / mpmath.mpf(Bx)
        certified = bool(ratio > 1 + mpmath.mpf(rtol))
        ev = {"B_x": Bx, "chord_mp": mpmath.nstr(chord, 25), "dist_mp": mpmath.nstr(r, 25),
              "L_core_float": L_core, "chord_float": c_float, "dps": dps}
        return BoundViolation(1, tuple(map(float, x)), tuple(map(float, w)), float(ratio),
                              mpmath.nstr(ratio, 25), certified, ev)


def _certify2(q: BoundQuery, Bf: PointFunction, a: FloatArray, b: FloatArray, rtol: float,
              dps: int) -> BoundViolation | None:
    vals = Bf(np.stack([a, b]))  # "as given": one call of B on the two points
    Ba, Bb = float(vals[0]), float(vals[1])
    if not (math.isfinite(Ba) and math.isfinite(Bb) and Ba > 0 and Bb > 0):
        return None
    with mpmath.workdps(dps):
        dist = mpmath.sqrt(sum((mpmath.mpf(float(s)) - mpmath.mpf(float(t))) ** 2 for s, t in zip(a, b, strict=True)))
        if math.isfinite(q.Lambda) and dist > mpmath.mpf(q.Lambda):
            return None
        gam = mpmath.mpf(q.growth.gamma)
        g = mpmath.exp(gam * dist) if q.growth.kind == "exp" else 1 + gam * dist  # 004 Sec. 3.1.2
        ratio = mpmath.mpf(Ba) / (g * mpmath.mpf(Bb))
        certified = bool(ratio > 1 + mpmath.mpf(rtol))
        ev = {"B_x": Ba, "B_x_prime": Bb, "dist_mp": mpmath.nstr(dist, 25), "g_mp": mpmath.nstr(g, 25),
              "growth": f"{q.growth.name}(gamma={q.growth.gamma!r})", "dps": dps}
        return BoundViolation(2, tuple(map(float, a)), tuple(map(float, b)), float(ratio),
                              mpmath.nstr(ratio, 25), certified, ev)


def _check_window(window: Any) -> float:
    """``window`` as a float in (0, inf); ValueError naming it otherwise."""
    if isinstance(window, bool) or not isinstance(window, (int, float, np.integer, np.floating)) \
            or not (math.isfinite(float(window)) and float(window) > 0):
        raise ValueError(f"window must be a finite number > 0 (the engine's search half-width); got window={window!r}")
    return float(window)


def _with_window(q: BoundQuery, window: Any) -> BoundQuery:
    """``q`` with the generic engine's search window set to half-width ``window`` (expressions only:
    the built-in queries use closed forms, which have no window)."""
    from derivations.engine import SmoothSensitivityEngine  # noqa: PLC0415 - SymPy only for expressions

    window = _check_window(window)
    eng = getattr(q.lipschitz, "__self__", None)
    if not isinstance(eng, SmoothSensitivityEngine):
        raise ValueError(f"window applies to a SymPy expression (the generic engine); the query {q.name} "
                         "uses closed forms without a search window")
    eng = dataclasses.replace(eng, radius=float(window))
    return dataclasses.replace(q, lipschitz=eng.lipschitz, smooth_sensitivity=eng.smooth_sensitivity,
                               params={**dict(q.params), "window": float(window)})


# ---------------------------------------------------------------------------------------------
# public entry point
# ---------------------------------------------------------------------------------------------
def audit_smooth_bound(
    f: Any,
    B: Callable[..., Any],
    growth: GrowthFunction,
    Lambda: float = math.inf,
    *,
    params: Mapping[str, Any] | None = None,
    domain: tuple[Any, Any] | None = None,
    budget: int = DEFAULT_BOUND_BUDGET,
    rng: np.random.Generator | int = 0,
    rtol: float = 1e-9,
    dps: int = 50,
    progress: Callable[[str], None] | None = None,
    sweep_spacing: float | None = None,
    window: float | None = None,
) -> BoundAuditReport:
    """Audit a black-box B as a g-smooth upper bound on L_{f,Lambda} (004 Def. 8; module docstring).

    ``f``: a built-in query name (``"threshold"``, ``"two-way"``, ``"bounded-range"``, ``"kde"``)
    with its ``params`` (e.g. ``{"T": 0, "tau": 0.5}``), a SymPy expression (``params`` may give
    ``variables`` and ``kinks``), or a :class:`~verify.audit.blackbox.queries.BoundQuery`.
    ``B``: the candidate, vectorised (B(points), points of shape (n,) for d = 1 or (n, d)) or
    scalar (B(x) for one point); the convention is detected.  ``growth``: g_E or g_L
    (:mod:`smoothsens_core.growth`), ``Lambda`` in (0, inf].  ``domain``: the box (lo, hi) of
    inputs to audit (default: a box around the query's band or centre; required for expressions).
    ``budget``: the number of evaluations of B (points; at most 9 more are spent re-evaluating
    witnesses), beyond the radius sweep of a radial query with a vectorised B; ``sweep_spacing``:
    the spacing of that sweep in units of the query's scale (default :data:`DEFAULT_SWEEP_SPACING`
    for a vectorised B; a per-point B gets no sweep beyond the budget unless it is given; at most
    ``max_bstar_points`` of the query minus the budget's exploration are swept, the spacing widens
    beyond that); ``rng``: a Generator or an int seed (the audit is reproducible from it).
    ``rtol``: relative margin a violation must exceed in mpmath (rounding of a correct float B stays
    below it); ``dps``: mpmath digits of the certification; ``progress``: called with a message at
    each phase.  ``window``: for a SymPy expression, the half-width of the generic engine's search
    window for L_{f,Lambda} and B* around each point (default: the engine's, 10); a point where
    L_{f,Lambda} cannot be computed is not checked for condition (1) and makes the audit INCONCLUSIVE.
    Returns a :class:`BoundAuditReport` (``verdict`` PASS, FAIL or INCONCLUSIVE).
    """
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    if not isinstance(growth, GrowthFunction):
        raise TypeError(f"growth must be a smoothsens_core.growth.GrowthFunction; got {type(growth).__name__}")
    budget = check_integer("budget", budget, minimum=500)
    rtol = check_positive("rtol", rtol)
    dps = check_integer("dps", dps, minimum=20)
    if sweep_spacing is not None:
        sweep_spacing = check_positive("sweep_spacing", sweep_spacing)
    seed = rng if isinstance(rng, (int, np.integer)) else "generator"
    gen = check_rng(rng)
    if window is not None:
        window = _check_window(window)
    q = resolve_query(f, growth, Lambda, params)
    if window is not None:
        q = _with_window(q, window)
    lo, hi = check_domain(domain if domain is not None else q.default_domain, q.d)
    d = q.d
    span = hi - lo
    probe = lo + span * gen.random((8, d))
    Bf = PointFunction(B, d, probe)
    S = _Search(q, Bf, lo, hi, gen)
    rmax_pair = min(q.Lambda, S.diam)

    # 1. exploration ----------------------------------------------------------------------------
    sp = q.special_points[np.all((q.special_points >= lo) & (q.special_points <= hi), axis=1)]
    radial = _radial_layout(q, lo, hi, budget)
    n0 = int(0.4 * budget) if radial is None else int(0.1 * budget)
    n_lhs = (n0 - sp.shape[0]) // 2
    lhs = np.stack([(gen.permutation(n_lhs) + gen.random(n_lhs)) / n_lhs for _ in range(d)], axis=1)
    parts = [sp, lo + span * lhs, lo + span * gen.random((n0 - sp.shape[0] - n_lhs, d))]
    extra: dict[str, Any] = {}
    sweep: _RadialLayout | None = None
    if radial is not None:
        parts.append(_radial_points(radial, gen))
        extra["lattices"] = {"radii": radial.n_core + radial.n_tail, "spacing": radial.s_core,
                             "r_core": radial.r_core, "tail_spacing": radial.s_tail, "r_max": radial.r_max}
        if Bf.vectorised or sweep_spacing is not None:
            # the radius sweep, on top of the budget: one lattice over [0, r_max]
            spacing = (DEFAULT_SWEEP_SPACING if sweep_spacing is None else sweep_spacing) * q.scale
            room = q.max_bstar_points - sum(p.shape[0] for p in parts) - int(0.04 * budget)
            sweep = _sweep_layout(radial, spacing, room)
            parts.append(_radial_points(sweep, gen))
            extra["sweep"] = {"radii": sweep.n_core, "spacing": sweep.s_core, "r_max": sweep.r_max,
                              "requested_spacing": spacing, "vectorised": Bf.vectorised}
    allowance = budget + (sweep.n_core if sweep is not None else 0)  # evaluations the search may spend
    X0 = np.concatenate(parts)
    say(f"exploring {X0.shape[0]} points of the domain"
        + (f" ({X0.shape[0] - n0} on lattices of radii around the centre)" if radial is not None else ""))
    B0 = Bf(X0)
    L0 = S.lipschitz(X0)
    with np.errstate(divide="ignore", invalid="ignore"):
        s1 = np.where(np.isnan(np.log(L0) - np.log(B0)), -np.inf, np.log(L0) - np.log(B0))
    S.add1(X0, s1)

    # B/B* over the exploration points (a subsample when B* is expensive)
    comparison: dict[str, Any] | None
    Bstar = None
    idx_c = np.arange(X0.shape[0])
    bstar_uncertified = 0  # compared points where B* is only a lower bound
    if q.smooth_sensitivity is None:
        comparison = {"note": "B* is not available for this query"}
    else:
        if idx_c.size > q.max_bstar_points:
            idx_c = np.sort(gen.choice(idx_c, q.max_bstar_points, replace=False))
        say(f"computing B* at {idx_c.size} points")
        from derivations.engine import UncertifiedSensitivityError  # noqa: PLC0415

        bstar_note = None
        try:
            Bstar = np.asarray(q.smooth_sensitivity(X0[idx_c]), dtype=float).reshape(-1)
            comparison = {}
        except UncertifiedSensitivityError as exc:
            # the values are lower bounds of B* at every point (certified or not): B below them still
            # proves B invalid (004 Lemma 3.2); ratios above 1 are not meaningful where uncertified
            Bstar = np.asarray(exc.result.value, dtype=float).reshape(-1)
            k = int(np.sum(exc.result.certified))
            bstar_uncertified = Bstar.size - k
            bstar_note = (f"B* certified at {k} of {Bstar.size} points; elsewhere a lower bound of B* (the "
                          "comparison can show B < B*, not accuracy)")
            comparison = {}
        except ValueError as exc:
            comparison = {"note": f"B* unavailable: {exc}"}
    if Bstar is not None:
        comparison = _compare(X0, B0, idx_c, Bstar, q, rtol)
        if bstar_note is not None:
            comparison["note"] = bstar_note

    # 1b. adaptive refinement around the worst ratios B/B* (in radius space for radial queries) ----
    if Bstar is not None and comparison and comparison.get("n"):
        XR, BR, BsR, baseR, n_unc_r = _refine_ratios(q, Bf, S, sweep or radial, X0[idx_c], B0[idx_c], Bstar, lo, hi, span,
                                           n0, min(int(0.04 * budget), q.max_bstar_points - idx_c.size), gen)
        if XR.shape[0]:
            say(f"refined {XR.shape[0]} points around the lowest ratios B/B*")
            S.add1(XR, S.score1(XR, BR))
            S.add2(XR, X0[idx_c][baseR], BR, B0[idx_c][baseR])
            X0 = np.concatenate([X0, XR])
            B0 = np.concatenate([B0, BR])
            L0 = np.concatenate([L0, S.lipschitz(XR)])
            idx_c = np.concatenate([idx_c, np.arange(X0.shape[0] - XR.shape[0], X0.shape[0])])
            Bstar = np.concatenate([Bstar, BsR])
            bstar_uncertified += n_unc_r
            comparison = _compare(X0, B0, idx_c, Bstar, q, rtol)
            comparison["refined_points"] = int(XR.shape[0])

    # 2. pairs for condition (2) ------------------------------------------------------------------
    deltas = q.scale * np.geomspace(1e-9, 0.5, 12)
    axes = np.concatenate([np.eye(d), -np.eye(d)]) if d <= 3 else _unit_vectors(6, d, gen)
    n_straddle = 2 * sp.shape[0] * deltas.size * axes.shape[0]
    n1 = max(0, int(0.25 * budget) - n_straddle)
    say(f"pairs: {n1} random partners, nearest neighbours, straddles of {sp.shape[0]} special points")
    ia = gen.integers(0, X0.shape[0], n1)
    r = rmax_pair * 10.0 ** gen.uniform(-7.0, 0.0, n1)
    XA = X0[ia]
    XB = S.clip(XA + r[:, None] * _unit_vectors(n1, d, gen))
    BB = Bf(XB)
    S.add2(XA, XB, B0[ia], BB)
    S.add1(XB, S.score1(XB, BB))
    if X0.shape[0] > 2:
        k = min(6, X0.shape[0])
        _, nb = cKDTree(X0).query(X0, k=k)
        ii = np.repeat(np.arange(X0.shape[0]), k - 1)
        jj = nb[:, 1:].reshape(-1)
        S.add2(X0[ii], X0[jj], B0[ii], B0[jj])
        perm = gen.permutation(X0.shape[0])
        S.add2(X0, X0[perm], B0, B0[perm])
    if sp.shape[0]:
        P = (sp[:, None, None, :] + deltas[None, :, None, None] * axes[None, None, :, :]).reshape(-1, d)
        Pm = (sp[:, None, None, :] - deltas[None, :, None, None] * axes[None, None, :, :]).reshape(-1, d)
        base = np.repeat(sp, deltas.size * axes.shape[0], axis=0)
        P, Pm = S.clip(P), S.clip(Pm)
        BP, BPm = Bf(P), Bf(Pm)
        Bbase = np.repeat(B0[: sp.shape[0]], deltas.size * axes.shape[0])
        S.add2(P, Pm, BP, BPm)
        S.add2(base, P, Bbase, BP)
        S.add1(P, S.score1(P, BP))
        S.add1(Pm, S.score1(Pm, BPm))

    # 3. Lemma 3.2 lift ---------------------------------------------------------------------------
    if Bstar is not None and comparison and comparison.get("below_fraction", 0) > 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = B0[idx_c] / Bstar
        ratio = np.where(np.isfinite(ratio), ratio, np.inf)
        low = idx_c[np.argsort(ratio)[:6]]
        low = low[B0[low] / Bstar[np.searchsorted(idx_c, low)] < 1 - rtol]
        say(f"Lemma 3.2 lift at {low.size} point(s) where B < B*")
        okL = np.isfinite(L0) & (L0 > 0)
        Z, Lz = X0[okL], L0[okL]
        for i in low:
            x = X0[i]
            with np.errstate(divide="ignore"):
                obj = np.log(Lz) - S.log_g(np.broadcast_to(x, Z.shape), Z)
            z0 = Z[int(np.argmax(obj))]

            def objz(Zc: FloatArray, x: FloatArray = x) -> FloatArray:
                with np.errstate(divide="ignore"):
                    return np.log(S.lipschitz(Zc)) - S.log_g(np.broadcast_to(x, Zc.shape), Zc)

            step = np.full((1, d), 0.05) * span
            Zr, _, _ = _pattern_search(objz, z0[None, :], step, S.clip, 600, gen, 1e-13 * S.diam)
            z = Zr[0]
            Bz = Bf(z[None, :])
            S.add1(z[None, :], S.score1(z[None, :], Bz))
            S.add2(z[None, :], x[None, :], Bz, B0[i:i + 1])

    # 4. refinement ---------------------------------------------------------------------------------
    remaining = max(0, allowance - Bf.evaluations)
    say(f"refining the best candidates ({remaining} evaluations left)")
    X1, s1all = S.pool1()
    order1 = np.argsort(-s1all)
    spacing = float(np.prod(span) / max(n0, 1)) ** (1.0 / d)
    starts1 = _distinct(X1, order1[:2000], 12, 2 * spacing)
    if starts1 and remaining > 0:
        Y0 = X1[starts1]
        Yr, vr, _ = _pattern_search(lambda Xc: S.score1(Xc), Y0, np.full((len(starts1), d), spacing) * 2,
                                    S.clip, remaining // 2, gen, 1e-13 * S.diam)
        S.add1(Yr, vr)
    remaining = max(0, allowance - Bf.evaluations)
    A2, P2, s2all = S.pool2()
    order2 = np.argsort(-s2all)
    starts2 = _distinct(np.concatenate([A2, P2], axis=1), order2[:4000], 12, 2 * spacing)
    if starts2 and remaining > 0:
        Y0 = np.concatenate([A2[starts2], P2[starts2]], axis=1)
        dist0 = np.linalg.norm(A2[starts2] - P2[starts2], axis=1)
        step = np.maximum(0.25 * dist0, 1e-9 * S.diam)[:, None] * np.ones((1, 2 * d))

        def obj2(Y: FloatArray) -> FloatArray:
            V = Bf(np.concatenate([Y[:, :d], Y[:, d:]]))
            n = Y.shape[0]
            return S.score2(V[:n], V[n:], Y[:, :d], Y[:, d:])

        Yr, vr, _ = _pattern_search(obj2, Y0, step, S.project_pair, remaining // 2, gen, 1e-14 * S.diam)
        S.c2_a.append(Yr[:, :d])
        S.c2_b.append(Yr[:, d:])
        S.c2_s.append(vr)

    # 5. certification ----------------------------------------------------------------------------
    say("certifying the best candidates in mpmath")
    X1, s1all = S.pool1()
    A2, P2, s2all = S.pool2()
    thr = math.log1p(rtol)
    certified: list[BoundViolation] = []
    uncertified: list[BoundViolation] = []
    rmax_chord = min(q.Lambda, 2.0 * S.diam + 10.0 * q.scale)
    for i in _distinct(X1, np.argsort(-s1all)[:2000], 3, spacing):
        if not s1all[i] > thr:
            break
        v = _certify1(q, Bf, X1[i], rmax_chord, rtol, dps, gen)
        if v is not None:
            (certified if v.certified else uncertified).append(v)
        elif math.isfinite(Bf.one(X1[i])):
            S.dropped1 += 1  # L > B in float, and no chord partner to certify or refute it
    AB = np.concatenate([A2, P2], axis=1)
    for i in _distinct(AB, np.argsort(-s2all)[:4000], 3, spacing):
        if not s2all[i] > thr:
            break
        v = _certify2(q, Bf, A2[i], P2[i], rtol, dps)
        if v is not None:
            (certified if v.certified else uncertified).append(v)
    certified.sort(key=lambda v: -v.ratio)
    max_lr = {"condition_1": float(np.max(s1all, initial=-np.inf)),
              "condition_2": float(np.max(s2all, initial=-np.inf))}
    notes = list(S.notes)
    reasons: list[str] = []
    if S.L_unavailable:
        reasons.append(f"L_{{f,Lambda}} was unavailable at {S.L_unavailable} points (condition (1) not checked "
                       "there; for an expression a larger --window / window= may help)")
    if bstar_uncertified:
        # L_{f,Lambda} of an expression is the engine's search (a lower bound); condition (1) is
        # certified at a point only through B(x) >= B*(x) >= L_{f,Lambda}(x) with B* certified
        reasons.append(f"B* could not be certified at {bstar_uncertified} of {idx_c.size} compared points, so "
                       "condition (1) is not certified there (B >= B* >= L_{f,Lambda} needs a certified B*; "
                       "the engine's L_{f,Lambda} is a search, a lower bound)")
    if S.dropped1:
        reasons.append(f"{S.dropped1} excess(es) of condition (1) found in float had no chord witness to certify")
    if Bf.evaluations > allowance:
        notes.append(f"{Bf.evaluations - allowance} evaluations of B beyond the budget were spent on "
                     "re-evaluating witnesses and isolating failures")
    report = BoundAuditReport(
        query=q.describe(), source=q.source,
        domain=(tuple(map(float, lo)), tuple(map(float, hi))), budget=budget, seed=seed,
        evaluations=Bf.evaluations, calls=Bf.calls, vectorised=Bf.vectorised,
        violations=tuple(certified), uncertified=tuple(uncertified), failures=tuple(Bf.failures),
        n_failed=Bf.n_failed, unisolated=Bf.unisolated, max_log_ratio=max_lr, comparison=comparison,
        notes=tuple(notes), elapsed=time.perf_counter() - t0, rtol=rtol, dps=dps,
        extra=extra, inconclusive_reasons=tuple(reasons),
    )
    say("done")
    return report
