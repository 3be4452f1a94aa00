"""Tight calibration: the exact privacy-loss rate of smooth-sensitivity noise.

Setting (004 Def. 8, Lemmas 3.3, 3.5; 002 Thm. 8).  M(x) = f(x) + (B(x)/eta) Z with Z = sigma Z1,
Z1 a standardised symmetric density h (sigma = ``noise.scale``; write eta1 = eta/sigma so that
M(x) = f(x) + (B(x)/eta1) Z1).  The adversary may pick any pair x, x' at distance d with

    |ln B(x) - ln B(x')| <= gamma d     and     |f(x) - f(x')| <= min(B(x), B(x')) d.

Privacy loss at the output y:  L = ln p_x(y) - ln p_x'(y),  p_x(y) = (eta1/B(x)) h((y - f(x)) eta1/B(x)).

Infinitesimal rate (Geo-Privacy, any distance).  Write l(y; f, b) = ln eta1 - b + ln h(z) with
b = ln B and z = (y - f) eta1 e^(-b), psi = (ln h)'.  Then

    dl/df = -eta1 e^(-b) psi(z),        dl/db = -(1 + z psi(z)),

and along any path with |db/dt| <= gamma, |df/dt| <= B(t):

    |dl/dt| <= eta1 |psi(z)| + gamma |1 + z psi(z)| =: F(z).

Every allowed pair is joined by such a path (b linear from ln B(x') to ln B(x), f moving at speed
min(B) <= B(t)), so L <= d sup_z F(z) at every distance d, and the bound is approached as d -> 0 at
the maximiser z* with the signs of the shift and of the scale change aligned.  Hence

    eps_tight(GP) = sup_{z >= 0} F(z) = sup_z [eta1 |psi(z)| + gamma |1 + z psi(z)|]

exactly (h symmetric: z >= 0 suffices).  The printed lemmas bound the two terms separately,
eta1 sup|psi| + gamma sup|1 + z psi|, whose maximisers differ; that is the slack.

Finite distance d = 1 (Hamming metric, DP).  Normalising B(x') = 1, B(x) = e^r (|r| <= gamma),
f(x') = 0, f(x) = Delta (|Delta| <= min(e^r, 1)), and maximising over Delta in closed form (ln h is
symmetric and decreasing in |z|, so the best Delta moves y - Delta towards 0):

    eps_tight(DP) = sup_{|r| <= gamma, y >= 0}  G(r, y),
    G(r, y) = -r + ln h(eta1 e^(-r) max(y - min(e^r, 1), 0)) - ln h(eta1 y)     (<= eps_tight(GP)).

Certification (no derivative bounds needed).  The families here have t1 = |psi| and
t2 = |1 + z psi| piecewise monotone with known breakpoints; on a grid containing the breakpoints
each term is monotone on every cell, so sup_cell F <= eta1 max(t1(a), t1(b)) + gamma max(t2(a), t2(b)).
Beyond the last breakpoint t1 decreases and t2 increases to its limit t2(inf).  For G, every part is
monotone in each variable: on [r_a, r_b] x [y_a, y_b],
G <= -r_a + ln h(eta1 e^(-r_b) max(y_a - min(e^(r_b), 1), 0)) - ln h(eta1 y_b); for y >= Y the
polynomial tail h ~ |z|^(-k) gives G <= -r_a + k max(0, r_b - ln(1 - 1/Y)).  Cells whose bound exceeds
the best attained value are bisected until the gap is below ``rtol``.  The returned ``upper`` is
a certified upper bound (up to a relative 1e-12 margin for floating-point rounding, added), and
``lower`` a value attained by a concrete (z) or (r, Delta, y) witness.

Families.  Nothing here names a family: the shape of ln h comes from the noise object itself
(:class:`~smoothsens_core.distributions.ContinuousDistribution`: ``_logpdf``, the score ``_score``,
``score_breakpoints()``, ``score_scale_limit`` = t2(inf), ``tail_exponent`` k and ``tail_from``, with
the formulas and sources in each family's module).  Any centred symmetric family with a bounded score
whose density decreases in |z| is certified: Student's t T_nu (any nu > 0), GenCauchy(p >= 1, theta),
PolyPlace(s, alpha), PowerLaw(k, l) (000 Thm. 1).  A family with unbounded |1 + z psi| (exponential
tails: Laplace, |1 + z psi| = |1 - z|) has an infinite rate, so no pure guarantee; the approximate
Lemma 3.6 case of Laplace is the next section.

Laplace with g_L, approximate GP (004 Lemma 3.6, 004 Def. 5)
-----------------------------------------------------------
M(x) = f(x) + (B(x)/eta) Z, Z ~ Lap(0, 1), B a g_L-smooth upper bound: at distance d the adversary
has B(x)/B(x') in [1/(1 + gamma d), 1 + gamma d] and |f(x) - f(x')| <= min(B(x), B(x')) d.  The
printed guarantee is (eps, delta, Lambda)-GP with eps = eta + gamma ln(1/delta).  The exact delta of
a pair is the hockey-stick divergence; (eps, delta, Lambda)-GP holds iff

    delta >= delta_tight := sup_{0 < d <= Lambda, allowed pairs}  H_{e^(eps d)}(P_x || P_x'),
    H_a(P || Q) = integral (p - a q)_+ = sup_S P(S) - a Q(S).

Normalise B(x') = 1, f(x') = 0, B(x) = c = e^r, f(x) = Delta and multiply the outputs by eta:
P = Lap(s, c), Q = Lap(0, 1) with s = eta Delta (s >= 0 by the symmetry y -> -y), and t = eps d:

    |r| <= ln(1 + gamma d),   0 <= s <= eta d min(c, 1).

(L1) Closed form.  l(y) = ln p(y) - ln q(y) = -r - |y - s|/c + |y| is linear on (-inf, 0), [0, s]
and (s, inf), so {l > t} meets each piece in one interval whose P- and Q-masses are differences of
Laplace tails (taken on the side away from s, resp. 0: no 1 - cdf cancellation).  For c > 1 and
s - r <= t this sums to

    H = (1 - 1/c) exp(-(t + r)/(c - 1)) cosh(s/(c - 1)).

(L2) Monotone in the shift and the threshold.  H is nonincreasing in t (the integrand is).  For
s >= 0 the reflection y -> 2s - y keeps p and does not increase |y| for y <= s (|2s - y| >= |y|), so
it maps A ∩ {y < s} into A ∩ {y > s}, A = {l > t}, preserving P-mass (dp/ds = p sign(y - s)/c); so
the right derivative of H in s is at least (1/c) [P(A ∩ {y > s}) - P(A ∩ {y < s})] >= 0, and H is
Lipschitz in s (|H(s1) - H(s2)| <= TV <= |s1 - s2|/(2c)), hence nondecreasing in s.  The worst
shift is therefore |Delta| = min(c, 1) d.

(L3) r >= 0 (B(x) >= B(x')) with eta <= eps: s = eta d, s - r <= t, and by (L1)
d/dc ln H = [t + r - s tanh(s/(c - 1))]/(c - 1)^2 > 0 (s tanh < s <= t + r), so the worst scale
ratio is the extreme c = 1 + gamma d.  There s/(c - 1) = eta/gamma, t/(c - 1) = eps/gamma and

    H = cosh(eta/gamma) e^(-eps/gamma) phi(gamma d),   phi(u) = u/(1 + u) (1 + u)^(-1/u),

with d ln phi/du = ln(1 + u)/u^2 > 0 and phi(u) -> 1 (u -> inf): H increases with d, and the sup
over r >= 0, d <= Lambda is cosh(eta/gamma) e^(-eps/gamma) phi(gamma Lambda) (d = Lambda; for
Lambda = inf approached as d -> inf, not attained; DP, d = 1: phi(gamma)).

(L4) r < 0: for c < 1, l increases up to y = s and decreases after, so H = 0 unless
l(s) = s - r > t; and s - r - t <= eta d + ln(1 + gamma d) - eps d <= (eta + gamma - eps) d.  Hence
the r < 0 branch contributes nothing when eta + gamma <= eps.

So for eta + gamma <= eps (always at the printed eta when delta <= 1/e) the exact answer is

    delta_tight = cosh(eta/gamma) e^(-eps/gamma) phi(gamma Lambda),

and at the printed eta (e^(-(eps - eta)/gamma) = delta) the ratio delta_tight/delta is
(1 + e^(-2 eta/gamma))/2 phi(gamma Lambda) < 1: Lemma 3.6 is valid and, for Lambda = inf, tight to
within a factor 2 (for DP, phi(gamma) ~ gamma/e makes it far from tight).  Solving for eta at
Lambda = inf gives eta_tight = gamma arccosh(delta e^(eps/gamma))
= eta_printed + gamma ln(1 + sqrt(1 - e^(-2 eta_printed/gamma))) <= eta_printed + gamma ln 2.

(L5) Lambda = inf and eta > eps: r = 0, Delta = d gives H = 1 - e^(-(eta - eps) d/2) -> 1: delta_tight = 1.
Tail for Lambda = inf, eta <= eps: the r < 0 value s - r - t is convex in c, so it is at most
max((eta - eps) d, eta/gamma + ln(1 + gamma d) - eps d), which is <= 0 for all d >= D once
D >= (1/eps - 1/gamma)_+ and eta/gamma + ln(1 + gamma D) - eps D <= 0; with (L3) the sup over
d >= D is at most cosh(eta/gamma) e^(-eps/gamma).

(L6) Certified cells (the cases (L3)-(L4) do not cover: eta + gamma > eps, or eta > eps with
Lambda < inf or DP).  Parametrise r = u ln(1 + gamma d), u in [-1, 1].  On a cell where
c in [c_a, c_b], s in [s_a, s_b], t >= t_a, the pointwise bound
p_{c,s}(y) = e^(-|y-s|/c)/(2c) <= (c_b/c_a) e^(-|y-s|/c_b)/(2 c_b) and (L2) give

    H <= kappa H_{e^(t_a - ln kappa)}(Lap(s_b, c_b) || Q),   kappa = c_b/c_a,

in closed form by (L1) (valid for any real threshold).  A second bound trades shift for threshold:
q(y) >= e^(-|D|) q(y - D) for Q = Lap(0, 1), so
H_{e^t}(Lap(s + D, c) || Q) <= H_{e^(t - |D|)}(Lap(s, c) || Q), whence
H <= kappa H_{e^(t* - ln kappa)}(Lap(s_a, c_b) || Q) with t* = s_a + min over the cell of
t - s = d (eps - eta min(c, 1)) (at d_a or d_b, c = c_b).  This one stays sharp at large d, where s
and t grow together; the cell bound is the smaller of the two.  Cells whose bound exceeds the best
value attained at cell corners (concrete pairs) are bisected (u in halves, d geometrically) until the gap
is below ``rtol``; the tail d >= D (Lambda = inf) is bounded by (L5).  ``upper`` carries a relative
rounding margin (1e-11 of the P- and Q-masses summed, plus 1e-300 for underflow).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .. import distributions as D
from ..distributions import ContinuousDistribution
from ..validation import check_finite_array, check_metric, check_positive, check_probability
from .families import calibrate_gencauchy, calibrate_laplace_approx, calibrate_polyplace, calibrate_student_t
from .record import DEFAULT_GAMMA_FRACTION

__all__ = ["TightResult", "tight_epsilon", "tight_eta", "tight_calibration", "TightCalibration", "tight_table",
           "format_tight_table", "optimise_tight", "hockey_stick_laplace", "TightDeltaResult", "tight_delta_laplace",
           "tight_eta_laplace", "TightLaplaceCalibration", "tight_calibration_laplace", "tight_table_laplace",
           "format_tight_table_laplace"]

_MARGIN = 1e-12  # relative margin added to certified upper bounds (floating-point rounding)
#: The metrics of the certifier (smoothsens_core.validation.METRICS): "euclidean" = GP per unit distance
#: (004 Def. 5), "hamming" = DP at distance 1 (004 Remark after Lemma 3.5).
_METRICS = ("euclidean", "hamming")


@dataclass(frozen=True)
class _Shape:
    """The standardised density in the form the certifier needs (z >= 0), read off the noise object."""

    name: str
    logh: Callable[[np.ndarray], np.ndarray]  # ln h (standardised), z >= 0
    t1: Callable[[np.ndarray], np.ndarray]  # |psi(z)|
    t2: Callable[[np.ndarray], np.ndarray]  # |1 + z psi(z)|
    breaks: tuple[float, ...]  # t1, t2 monotone between these; beyond the last t1 decr., t2 incr.
    t2_limit: float  # lim_{z -> inf} t2 (= sup of t2 beyond the last breakpoint)
    k_tail: float  # h(z) ~ z^(-k) as z -> inf
    tail_from: float  # the tail form (and the DP tail bound) holds for z >= tail_from


def _shape_of(noise: Any) -> tuple[_Shape, float]:
    """(_Shape of the standardised noise, its scale sigma) for a smoothsens continuous distribution.

    Everything comes from the family itself (:class:`~smoothsens_core.distributions.ContinuousDistribution`):
    ln h = ``_logpdf``, psi = ``_score``, the breakpoints ``score_breakpoints()``, ``score_scale_limit``,
    ``tail_exponent`` and ``tail_from``.  The certifier needs a centred, symmetric density that is
    nonincreasing in |z| with a bounded score (module docstring)."""

    if not isinstance(noise, ContinuousDistribution):
        raise TypeError(f"noise must be a smoothsens_core.distributions.ContinuousDistribution; "
                        f"got {type(noise).__name__}")
    if noise.loc != 0.0:
        raise ValueError(f"noise must be centred (loc=0); got loc={noise.loc!r}")
    if not noise.symmetric:
        raise ValueError(f"noise must be symmetric (Z and -Z equal in law: the certifier works on z >= 0); "
                         f"got {noise!r}")
    breaks = noise.score_breakpoints()
    t1_at = np.abs(noise._score(np.array([0.0, *breaks])))
    if not np.all(np.isfinite(t1_at)):
        raise ValueError(f"tight calibration needs a bounded score psi = (ln h)' (the shift term eta |psi| is "
                         f"unbounded otherwise); psi is unbounded at z = 0 for {noise!r}")

    probe = np.concatenate([np.geomspace(1e-6, 1e6, 121), np.array(breaks)])
    if np.any(noise._score(probe) > 0.0):
        raise ValueError(f"noise density must be nonincreasing in |z| (psi <= 0 on z > 0; the worst shift of "
                         f"the module docstring needs it); got {noise!r}")

    def t1(z: np.ndarray) -> np.ndarray:
        return np.abs(noise._score(z))

    def t2(z: np.ndarray) -> np.ndarray:
        return np.abs(noise._score_scale(z))

    def logh(z: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return noise._logpdf(z)

    shape = _Shape(name=repr(noise), logh=logh, t1=t1, t2=t2, breaks=breaks,
                   t2_limit=float(noise.score_scale_limit), k_tail=float(noise.tail_exponent),
                   tail_from=float(noise.tail_from))
    return shape, float(noise.scale)


@dataclass(frozen=True)
class TightResult:
    """Outcome of :func:`tight_epsilon`.

    ``upper``    certified upper bound on sup (privacy loss)/dist (never below the truth).
    ``lower``    a value attained by ``witness`` (so the truth is in [lower, upper]).
    ``witness``  GP: {"z": standardised output}; DP: {"r": ln B(x)/B(x'), "shift": Delta, "y": output}
                 for B(x') = 1, f(x') = 0 (with eta1 = eta / noise scale, see the module docstring).
    ``metric``   "euclidean" (GP, 004 Def. 5: the infinitesimal rate, valid at every distance) or
                 "hamming" (DP: the worst case at d = 1).
    """

    upper: float
    lower: float
    witness: dict[str, float]
    metric: str
    noise: str
    gamma: float
    eta: float
    cells: int

    @property
    def eps(self) -> float:
        return self.upper


def _gp_rate(shape: _Shape, gamma: float, eta1: float, rtol: float, max_rounds: int = 40,
             max_cells: int = 400_000) -> TightResult:
    F = lambda z: eta1 * shape.t1(z) + gamma * shape.t2(z)  # noqa: E731
    zmax = 1e8 * (1.0 + max(shape.breaks))
    pts = np.unique(np.concatenate([[0.0], np.geomspace(1e-9, zmax, 4000), np.array(shape.breaks)]))
    # tail z >= zmax: t1 decreasing, t2 increasing to its limit
    tail_up = eta1 * float(shape.t1(np.array([zmax]))[0]) + gamma * shape.t2_limit
    tail_lo = gamma * shape.t2_limit  # approached as z -> inf
    a, b = pts[:-1], pts[1:]
    best_val, best_z = tail_lo, math.inf
    up_global = tail_up  # max of the bounds of the settled cells (and of the tail)
    cells = a.size
    t = np.linspace(0.0, 1.0, 9)
    for rnd in range(max_rounds):
        fa, fb = F(a), F(b)
        i = int(np.argmax(np.maximum(fa, fb)))
        v = float(max(fa[i], fb[i]))
        if v > best_val:
            best_val, best_z = v, float(a[i] if fa[i] >= fb[i] else b[i])
        ub = eta1 * np.maximum(shape.t1(a), shape.t1(b)) + gamma * np.maximum(shape.t2(a), shape.t2(b))
        if np.isnan(ub).any() or np.isnan(fa).any() or np.isnan(fb).any():
            raise RuntimeError(f"tight rate of {shape.name}: NaN in the cell bounds (gamma={gamma!r}, eta={eta1!r})")
        settled = ub <= best_val * (1.0 + rtol)
        if np.any(settled):
            up_global = max(up_global, float(ub[settled].max()))
        a, b, ub = a[~settled], b[~settled], ub[~settled]
        if a.size == 0:
            break
        # flat maxima (PolyPlace: F is constant, 002 Lemma 12) never settle: stop at the round or cell
        # budget; the bound stays certified, the gap upper - lower is reported
        if rnd == max_rounds - 1 or a.size > max_cells:
            up_global = max(up_global, float(ub.max()))
            break
        # split in 8 only the cells in the top half of the remaining gap; keep the others as they are
        split = ub > best_val + 0.5 * (float(ub.max()) - best_val)
        sa, sb = a[split], b[split]
        sub = sa[:, None] + (sb - sa)[:, None] * t[None, :]
        a = np.concatenate([a[~split], sub[:, :-1].ravel()])
        b = np.concatenate([b[~split], sub[:, 1:].ravel()])
        cells += 8 * sa.size
    upper = max(up_global, best_val) * (1.0 + _MARGIN)
    return TightResult(upper, best_val, {"z": best_z}, "euclidean", shape.name, gamma, eta1, cells)


def _dp_G(shape: _Shape, eta1: float, r: np.ndarray, y: np.ndarray) -> np.ndarray:
    w = np.maximum(y - np.minimum(np.exp(r), 1.0), 0.0)
    return -r + shape.logh(eta1 * np.exp(-r) * w) - shape.logh(eta1 * y)


def _dp_rate(shape: _Shape, gamma: float, eta1: float, rtol: float, max_rounds: int = 40,
             max_cells: int = 150_000) -> TightResult:
    if not math.isfinite(shape.k_tail):
        return TightResult(math.inf, math.inf, {}, "hamming", shape.name, gamma, eta1, 0)
    # y range: the polynomial tail form holds once eta1 e^-gamma (y - 1) >= tail_from; Y far beyond
    Y = max(1e7, 1e7 * (1.0 + shape.tail_from / (eta1 * math.exp(-gamma)) + 1.0 / eta1))
    k = shape.k_tail
    r_edges = np.linspace(-gamma, gamma, 17)
    y_edges = np.unique(np.concatenate([[0.0], np.geomspace(1e-6, Y, 240), [1.0], np.exp(r_edges)]))
    y_edges = y_edges[y_edges <= Y]
    RA, YA = np.meshgrid(r_edges[:-1], y_edges[:-1], indexing="ij")
    RB, YB = np.meshgrid(r_edges[1:], y_edges[1:], indexing="ij")
    ra, rb, ya, yb = RA.ravel(), RB.ravel(), YA.ravel(), YB.ravel()
    # tail y >= Y for each r cell: G <= -r_a + k max(0, r_b - ln(1 - 1/Y)) (module docstring)
    tail_up = float(np.max(-r_edges[:-1] + k * np.maximum(0.0, r_edges[1:] - math.log1p(-1.0 / Y))))
    # its attained counterpart: G(gamma, y) -> (k - 1) gamma as y -> inf (a supremum approached in
    # the limit, hence a valid lower bound of the sup); witness y = inf
    best_val = (k - 1.0) * gamma
    best_w = {"r": gamma, "y": math.inf}
    up_global = tail_up
    cells = ra.size
    for rnd in range(max_rounds):
        # attained values at the cell corners
        for rr, yy in ((ra, ya), (rb, yb), (ra, yb), (rb, ya)):
            g = _dp_G(shape, eta1, rr, yy)
            j = int(np.argmax(g))
            if g[j] > best_val:
                best_val, best_w = float(g[j]), {"r": float(rr[j]), "y": float(yy[j])}
        w = np.maximum(ya - np.minimum(np.exp(rb), 1.0), 0.0)
        ub = -ra + shape.logh(eta1 * np.exp(-rb) * w) - shape.logh(eta1 * yb)
        if np.isnan(ub).any():
            raise RuntimeError(f"tight d=1 loss of {shape.name}: NaN in the cell bounds (gamma={gamma!r}, eta={eta1!r})")
        settled = ub <= best_val + rtol * abs(best_val)
        if np.any(settled):
            up_global = max(up_global, float(ub[settled].max()))
        ra, rb, ya, yb, ub = ra[~settled], rb[~settled], ya[~settled], yb[~settled], ub[~settled]
        if ra.size == 0:
            break
        # stop at the round / cell budget (flat maxima, e.g. PolyPlace): the bound is then still
        # certified, only looser (upper - lower reported)
        if rnd == max_rounds - 1 or ra.size > max_cells:
            up_global = max(up_global, float(ub.max()))
            break
        split = ub > best_val + 0.5 * (float(ub.max()) - best_val)
        keep = ~split
        sra, srb, sya, syb = ra[split], rb[split], ya[split], yb[split]
        rm, ym = (sra + srb) / 2.0, (sya + syb) / 2.0
        ra = np.concatenate([ra[keep], sra, rm, sra, rm])
        rb = np.concatenate([rb[keep], rm, srb, rm, srb])
        ya = np.concatenate([ya[keep], sya, sya, ym, ym])
        yb = np.concatenate([yb[keep], ym, ym, syb, syb])
        cells += 4 * sra.size
    r = best_w["r"]
    shift = min(math.exp(r), 1.0, best_w["y"])
    witness = {"r": r, "shift": shift, "y": best_w["y"]}
    upper = max(up_global, best_val) * (1.0 + _MARGIN) + 1e-15
    return TightResult(upper, best_val, witness, "hamming", shape.name, gamma, eta1, cells)


def tight_epsilon(noise: Any, gamma: float, eta: float, metric: str = "euclidean", *, rtol: float | None = None) -> TightResult:
    """The exact worst case of (privacy loss)/dist of M(x) = f(x) + (B(x)/eta) Z (module docstring).

    ``noise`` is a centred symmetric smoothsens continuous distribution (StudentT, GenCauchy,
    PolyPlace, PowerLaw, Laplace, ...: its shape is read from the object, see :func:`_shape_of`; its
    scale is folded into eta), ``gamma`` the g_E growth parameter of B, ``eta`` the noise divisor.
    ``metric="euclidean"`` (GP, 004 Def. 5): the infinitesimal rate
    sup_z [eta1 |psi(z)| + gamma |1 + z psi(z)|], valid at every distance; ``metric="hamming"`` (DP):
    the d = 1 worst case sup_{r, y} G(r, y).  Returns a :class:`TightResult` whose ``upper`` is
    certified (never below the truth) and ``lower`` attained, with upper - lower <= rtol |lower| (up
    to the rounding margin) when the refinement settles (default rtol 1e-9 for "euclidean", 1e-5 for
    "hamming"; for "hamming" the refinement stops at a cell budget and the gap can then be larger: it
    is what ``upper - lower`` says).
    """
    gamma = check_positive("gamma", gamma)
    eta = check_positive("eta", eta)
    metric = check_metric(metric, _METRICS)
    rtol = (1e-9 if metric == "euclidean" else 1e-5) if rtol is None else check_positive("rtol", rtol)
    shape, sigma = _shape_of(noise)
    eta1 = eta / sigma
    if not math.isfinite(shape.t2_limit):
        # |1 + z psi| unbounded (exponential tails, e.g. Laplace): the scale term alone has no finite sup
        return TightResult(math.inf, math.inf, {"z": math.inf}, metric, shape.name, gamma, eta1, 0)
    gp = _gp_rate(shape, gamma, eta1, rtol if metric == "euclidean" else min(rtol, 1e-9))
    if metric == "euclidean":
        return gp
    dp = _dp_rate(shape, gamma, eta1, rtol)
    # the GP rate bounds the loss at every distance (path argument), so also at d = 1
    if gp.upper < dp.upper:
        return TightResult(gp.upper, dp.lower, dp.witness, "hamming", dp.noise, gamma, eta1, dp.cells + gp.cells)
    return dp


def tight_eta(noise_shape: Any, gamma: float, eps: float, metric: str = "euclidean", *, rtol: float | None = None,
              xtol: float | None = None) -> float:
    """The largest eta (least noise) with certified tight_epsilon(noise, gamma, eta).upper <= eps.

    The rate is a supremum of functions nondecreasing in eta, so it is nondecreasing in eta: bisection.
    Raises ValueError when even eta -> 0 exceeds eps (gamma too large: the scale term alone,
    gamma sup|1 + z psi|, is the eta -> 0 limit of the GP rate)."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    metric = check_metric(metric, _METRICS)
    xtol = (1e-12 if metric == "euclidean" else 1e-6) if xtol is None else check_positive("xtol", xtol)
    f = lambda e: tight_epsilon(noise_shape, gamma, e, metric, rtol=rtol).upper  # noqa: E731
    lo = 1e-12 * eps
    if not f(lo) < eps:
        shape, _ = _shape_of(noise_shape)
        raise ValueError(
            f"gamma must be < eps / sup|1 + z psi| = eps/{shape.t2_limit if shape.t2_limit > 1 else 1.0:g} "
            f"for {shape.name} (the scale term alone exceeds eps); got gamma={gamma!r}, eps={eps!r}"
        )
    hi = max(1.0, eps)
    while f(hi) <= eps:
        lo, hi = hi, 2.0 * hi
    from scipy.optimize import brentq  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    # Brent on the certified rate, then make sure the returned eta satisfies the certified bound
    root = brentq(lambda e: f(e) - eps, lo, hi, xtol=xtol * hi * 1e-3, rtol=xtol)
    eta = root
    for _ in range(60):
        if f(eta) <= eps:
            return eta
        eta *= 1.0 - xtol
    return lo


@dataclass(frozen=True)
class TightCalibration:
    """Printed vs tight calibration of one mechanism at (eps, gamma).

    ``printed``     the :class:`~smoothsens_core.calibration.Calibration` of the printed lemma.
    ``eps_tight_at_printed_eta``  certified tight eps at the printed eta (``lower`` attained).
    ``eta_tight``   the largest eta whose certified tight rate is <= eps (= the printed eta when the
                    printed calibration is already tight, ``already_tight``).
    ``std_tight``   noise std per unit B at eta_tight;  ``std_saved`` = 1 - std_tight / printed std
                    (None when the noise has no finite variance).
    """

    printed: Any
    metric: str
    eps_tight_at_printed_eta: float
    eps_tight_lower: float
    eta_tight: float
    std_tight: float
    std_saved: float | None
    already_tight: bool
    note: str = ""


def tight_calibration(printed: Any, metric: str = "euclidean", *, rtol: float | None = None) -> TightCalibration:
    """The tight counterpart of a printed calibration (same noise shape, eps and gamma).

    If the attained rate at the printed eta already equals the printed eps (to 1e-9 relative; the
    PolyPlace case, where 002 Lemma 12 makes the rate constant), the printed calibration is tight:
    no larger eta is admissible and ``eta_tight`` is the printed eta."""
    metric = check_metric(metric, _METRICS)
    at = tight_epsilon(printed.noise, printed.gamma, printed.eta, metric, rtol=rtol)
    sd = float(printed.noise.std())
    if at.lower >= printed.eps * (1.0 - 1e-9):
        return TightCalibration(
            printed, metric, at.upper, at.lower, printed.eta, printed.noise_std, 0.0 if math.isfinite(sd) else None,
            True, f"already tight: attained rate {at.lower:.12g} = printed eps (certified upper {at.upper:.12g})",
        )
    eta_t = tight_eta(printed.noise, printed.gamma, printed.eps, metric, rtol=rtol)
    std_t = sd / eta_t if math.isfinite(sd) else math.inf
    # the saving is undefined (None) when the noise has no finite variance
    saved = 1.0 - std_t / printed.noise_std if math.isfinite(std_t) and math.isfinite(printed.noise_std) else None
    return TightCalibration(printed, metric, at.upper, at.lower, eta_t, std_t, saved, False)


def tight_table(eps: float, gamma: float | None = None, metric: str = "euclidean") -> list[dict[str, Any]]:
    """Printed vs tight calibrations at a common gamma (default eps/9, 004 Sec. 5), as dicts.

    Rows: Student's t nu = 3 (004 Sec. 5) and nu = 4 (004 Remark), GenCauchy(4, 1) (004 Lemma 3.3),
    PolyPlace (002 Thm. 8).  Keys: family, source, gamma, eps_printed, eps_tight (certified, at the
    printed eta), eta_printed, eta_tight, std_printed, std_tight, std_saved, note / error."""

    eps = check_positive("eps", eps)
    metric = check_metric(metric, _METRICS)
    g = DEFAULT_GAMMA_FRACTION * eps if gamma is None else check_positive("gamma", gamma)
    makers = [
        ("Student t(nu=3)", lambda: calibrate_student_t(eps, g, 3.0, metric=metric)),
        ("Student t(nu=4)", lambda: calibrate_student_t(eps, g, 4.0, metric=metric)),
        ("GenCauchy(p=4, theta=1)", lambda: calibrate_gencauchy(eps, g, 4.0, 1.0, metric=metric)),
        ("PolyPlace", lambda: calibrate_polyplace(eps, g, metric=metric)),
    ]
    rows = []
    for label, mk in makers:
        row: dict[str, Any] = {"family": label, "gamma": g, "metric": metric}
        try:
            cal = mk()
            tc = tight_calibration(cal, metric)
        except ValueError as exc:
            row.update(source="", eps_printed=None, eps_tight=None, eta_printed=None, eta_tight=None,
                       std_printed=None, std_tight=None, std_saved=None, note="", error=str(exc))
            rows.append(row)
            continue
        row.update(source=cal.source, eps_printed=cal.eps, eps_tight=tc.eps_tight_at_printed_eta,
                   eta_printed=cal.eta, eta_tight=tc.eta_tight, std_printed=cal.noise_std, std_tight=tc.std_tight,
                   std_saved=tc.std_saved, note=tc.note, error="")
        rows.append(row)
    return rows


def _format_rows(rows: list[dict[str, Any]], cols: list[tuple[str, str]],
                 missing: Callable[[dict[str, Any], str], str] = lambda r, k: "-") -> str:
    """Aligned text columns (two left-aligned label columns, the rest right-aligned) and the rows'
    notes/errors after the table; shared by the pure and the Laplace tables."""

    def cell(r: dict[str, Any], k: str) -> str:
        v = r.get(k)
        if r.get("error") and k == "source":
            return "infeasible (see note)"
        if v is None:
            return missing(r, k)
        if k == "std_saved":
            return f"{100.0 * v:.2f}%"
        if isinstance(v, float):
            return "inf" if math.isinf(v) else f"{v:.6g}"
        return str(v)

    table = [[cell(r, k) for k, _ in cols] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, (_, h) in enumerate(cols)]
    out = ["  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, ((_, h), w) in enumerate(zip(cols, widths, strict=True)))]
    out.append("  ".join("-" * w for w in widths))
    for line in table:
        out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))))
    notes = [f"  {r['family']}: {r['error'] or r['note']}" for r in rows if r.get("error") or r.get("note")]
    if notes:
        out += ["", "notes:", *notes]
    return "\n".join(out)


def format_tight_table(rows: list[dict[str, Any]]) -> str:
    """The rows of :func:`tight_table` as aligned text columns."""
    cols = [("family", "family"), ("source", "source"), ("eps_printed", "eps printed"),
            ("eps_tight", "eps tight (same eta)"), ("eta_printed", "eta printed"), ("eta_tight", "eta tight"),
            ("std_printed", "std printed"), ("std_tight", "std tight"), ("std_saved", "std saved")]
    return _format_rows(rows, cols)


def optimise_tight(family: str, eps: float, gamma: float, metric: str = "euclidean", *, theta: float = 1.0) -> TightCalibration:
    """The shape parameter minimising the noise std under the *tight* calibration at (eps, gamma).

    ``family`` "student_t" (free nu > 2) or "gencauchy" (free p, with p theta > 3; ``theta`` fixed).
    For each shape the largest admissible eta is :func:`tight_eta`; the std per unit B is
    std(Z)/eta_tight.  Search: a coarse log-spaced grid of the shape, then bounded Brent in the best
    bracket (never worse than the grid's best point).  Returns the :class:`TightCalibration` of the
    printed calibration at the optimal shape (so ``std_saved`` compares at the same shape)."""
    from scipy.optimize import minimize_scalar  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize


    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    metric = check_metric(metric, _METRICS)
    make: Callable[[float], D.ContinuousDistribution]
    if family == "student_t":
        lo, hi = 2.0, eps / gamma  # nu > 2 (finite std), nu gamma < eps (the eta -> 0 limit is nu gamma)
        make = lambda v: D.StudentT(v)  # noqa: E731
    elif family == "gencauchy":
        lo = max(1.0, 3.0 / theta)  # p > 1 and p theta > 3
        hi = (eps / gamma + 1.0) / theta  # max(1, p theta - 1) gamma < eps
        make = lambda v: D.GenCauchy(v, theta)  # noqa: E731
    else:
        raise ValueError(f"family must be 'student_t' or 'gencauchy'; got family={family!r}")
    if not hi > lo:
        raise ValueError(f"gamma must be < eps/{lo + (0 if family == 'student_t' else -1):g} for a finite noise std "
                         f"of family={family!r}; got gamma={gamma!r}, eps={eps!r}")

    def std(v: float) -> float:
        noise = make(v)
        try:
            e = tight_eta(noise, gamma, eps, metric, xtol=1e-8)  # the optimum is flat: 1e-8 is plenty
        except ValueError:
            return math.inf
        sd = float(noise.std())
        return sd / e if math.isfinite(sd) else math.inf

    us = np.linspace(math.log((hi - lo) * 1e-4), math.log((hi - lo) * (1 - 1e-6)), 12)
    vals = [std(lo + math.exp(u)) for u in us]
    i = int(np.argmin(vals))
    best_u, best_v = us[i], vals[i]
    a, b = us[max(i - 1, 0)], us[min(i + 1, len(us) - 1)]
    res = minimize_scalar(lambda u: std(lo + math.exp(u)), bounds=(a, b), method="bounded", options={"xatol": 1e-3})
    if float(res.fun) <= best_v:
        best_u = float(res.x)
    v = lo + math.exp(best_u)
    printed = calibrate_student_t(eps, gamma, v) if family == "student_t" else calibrate_gencauchy(eps, gamma, v, theta)
    return tight_calibration(printed, metric)


# =============================================================================================
# Laplace with g_L, approximate GP: the exact delta (004 Lemma 3.6; module docstring (L1)-(L6)).
# =============================================================================================
_HS_ROUND = 1e-11  # relative rounding margin on the summed P- and Q-masses of the closed form (L1)
_HS_TINY = 1e-300  # absolute margin: hockey-stick values that underflow the float range
_ULP4 = 4.0 * np.finfo(float).eps  # outward rounding of the cell parameters (L6)


def _hs_laplace(r: Any, s: Any, t: Any) -> tuple[np.ndarray, np.ndarray]:
    """(H, scale) with H = H_{e^t}(Lap(s, e^r) || Lap(0, 1)) by (L1), s >= 0, any real r and t.

    ``scale`` is the sum of the P- and e^t Q-masses of the three pieces: H is their difference, so
    its rounding error is a few ulp of ``scale`` (not of H).  Vectorised (broadcast arrays)."""
    r, s, t = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (r, s, t)))
    ic = np.exp(-r)  # 1/c
    em = np.expm1(-r)  # 1/c - 1 without cancellation for c near 1
    # l(y) = a_mid + em y on (-inf, 0), a_mid + (ic + 1) y on [0, s], a_right - em y on (s, inf)
    a_mid = -r - s * ic
    a_right = -r + s * ic
    H = np.zeros(r.shape)
    scale = np.zeros(r.shape)
    with np.errstate(all="ignore"):  # empty pieces produce inf/nan, masked out by ``ok``
        # piece (-inf, 0): increasing (em > 0, c < 1) -> (ys, 0); decreasing -> (-inf, min(ys, 0))
        ys = (t - a_mid) / em
        lo = np.where(em > 0, ys, -np.inf)
        hi = np.where(em < 0, np.minimum(ys, 0.0), 0.0)
        lo = np.where(em == 0, np.where(a_mid > t, -np.inf, 0.0), lo)
        hi = np.where(em == 0, 0.0, hi)
        ok = lo < hi
        # both tails on the left: P from s, Q from 0 (the exponents are <= 0 on the piece)
        p = 0.5 * (np.exp(-(s - hi) * ic) - np.exp(-(s - lo) * ic))
        q = 0.5 * (np.exp(t + hi) - np.exp(t + lo))
        H += np.where(ok, p - q, 0.0)
        scale += np.where(ok, p + q, 0.0)
        # piece [0, s]: increasing -> (max(ys, 0), s); P left of s, Q right of 0
        lo = np.maximum((t - a_mid) / (ic + 1.0), 0.0)
        ok = lo < s
        p = -0.5 * np.expm1(-(s - lo) * ic)
        q = 0.5 * (np.exp(t - lo) - np.exp(t - s))
        H += np.where(ok, p - q, 0.0)
        scale += np.where(ok, p + q, 0.0)
        # piece (s, inf): slope -em; increasing (c > 1) -> (max(ys, s), inf); decreasing -> (s, ys)
        ys = (t - a_right) / (-em)
        lo = np.where(em < 0, np.maximum(ys, s), s)
        hi = np.where(em > 0, ys, np.inf)
        lo = np.where(em == 0, np.where(a_right > t, s, np.inf), lo)
        hi = np.where(em == 0, np.inf, hi)
        ok = lo < hi
        p = 0.5 * (np.exp(-(lo - s) * ic) - np.exp(-(hi - s) * ic))
        q = 0.5 * (np.exp(t - lo) - np.exp(t - hi))
        H += np.where(ok, p - q, 0.0)
        scale += np.where(ok, p + q, 0.0)
    return H, scale


def hockey_stick_laplace(r: Any, shift: Any, t: Any) -> np.ndarray:
    """H_{e^t}(Lap(shift, e^r) || Lap(0, 1)) = integral (p - e^t q)_+ dy, in closed form (vectorised).

    The exact delta of 004 Def. 5 for one pair of the Laplace mechanism of 004 Lemma 3.6 after the
    normalisation of the module docstring: r = ln(B(x)/B(x')), shift = eta (f(x) - f(x'))/B(x'),
    t = eps dist(x, x').  The set {ln p - ln q > t} is a union of at most three intervals, one per
    linear piece of the log-ratio (module docstring (L1)); their masses are differences of Laplace
    tails.  Accurate to a few ulp of the P- and Q-masses involved."""
    r = check_finite_array("r", r)
    shift = check_finite_array("shift", shift)
    t = check_finite_array("t", t)
    H, _ = _hs_laplace(r, np.abs(shift), t)  # H is even in the shift (y -> -y)
    return np.maximum(H, 0.0)[()]


def _phi(u: float) -> float:
    """phi(u) = u/(1 + u) (1 + u)^(-1/u) of (L3), increasing from 0 to phi(inf) = 1."""
    if math.isinf(u):
        return 1.0
    lu = math.log1p(u)
    return math.exp(math.log(u) - lu - lu / u)


def _delta_rpos_closed(eps: float, eta: float, gamma: float, D: float) -> float:
    """(L3): sup over r >= 0, d <= D of H = cosh(eta/gamma) e^(-eps/gamma) phi(gamma D), eta <= eps
    (cosh times exp written as two exponentials: no overflow for small gamma)."""
    return 0.5 * (math.exp((eta - eps) / gamma) + math.exp(-(eta + eps) / gamma)) * _phi(gamma * D)


def _gl_value(eps: float, eta: float, gamma: float, u: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """H at the concrete pairs r = u ln(1 + gamma d), Delta = d min(e^r, 1) (worst shift, (L2)); returns (H, r)."""
    r = u * np.log1p(gamma * d)
    with np.errstate(invalid="ignore"):
        s = eta * d * np.minimum(np.exp(r), 1.0)
    H, _ = _hs_laplace(r, s, eps * d)
    return np.maximum(H, 0.0), r


def _gl_cell_upper(eps: float, eta: float, gamma: float, ua: np.ndarray, ub: np.ndarray, da: np.ndarray,
                   db: np.ndarray) -> np.ndarray:
    """(L6): certified upper bound of H over each cell [ua, ub] x [da, db] (cells never straddle u = 0)."""
    La, Lb = np.log1p(gamma * da), np.log1p(gamma * db)
    pos = ua >= 0.0
    # r = u ln(1 + gamma d): increasing in u; in d increasing for u >= 0, decreasing for u <= 0
    r_lo = np.where(pos, ua * La, ua * Lb)
    r_hi = np.where(pos, ub * Lb, ub * La)
    r_lo = r_lo - _ULP4 * (1.0 + np.abs(r_lo))
    r_hi = r_hi + _ULP4 * (1.0 + np.abs(r_hi))
    lk = r_hi - r_lo  # ln kappa
    # bound 1: largest shift, smallest threshold
    s_hi = eta * db * np.minimum(np.exp(r_hi), 1.0) * (1.0 + _ULP4)
    t_lo = eps * da * (1.0 - _ULP4) - lk
    H1, sc1 = _hs_laplace(r_hi, s_hi, t_lo)
    # bound 2: smallest shift, the excess shift traded for threshold; t - s = d (eps - eta min(c, 1)) is
    # smallest at d_a or d_b (linear in d) and at c = c_b
    s_lo = eta * da * np.minimum(np.exp(r_lo), 1.0) * (1.0 - _ULP4)
    k = eps - eta * np.minimum(np.exp(r_hi), 1.0) * (1.0 + _ULP4)
    t_eff = np.minimum(da * k, db * k) - _ULP4 * (np.abs(da * k) + np.abs(db * k)) + s_lo - lk
    H2, sc2 = _hs_laplace(r_hi, s_lo, t_eff)
    ub1 = np.maximum(H1, 0.0) + _HS_ROUND * sc1
    ub2 = np.maximum(H2, 0.0) + _HS_ROUND * sc2
    return np.exp(lk) * np.minimum(ub1, ub2) + _HS_TINY


def _gl_cells(eps: float, eta: float, gamma: float, u_edges: np.ndarray, d_edges: np.ndarray | None, rtol: float,
              best: float, witness: dict[str, float], max_rounds: int = 80,
              max_cells: int = 200_000) -> tuple[float, float, dict[str, float], int]:
    """Certified cell bisection (L6) of sup H over u in [u_edges[0], u_edges[-1]] and d in the range of
    ``d_edges`` (None: DP, d = 1).  ``best``/``witness``: a value already attained elsewhere (cells
    below it settle).  Returns (upper over the cells, best attained, its witness, cells evaluated)."""
    split_d = d_edges is not None
    de = np.array([1.0, 1.0]) if d_edges is None else d_edges
    UA, DA = np.meshgrid(u_edges[:-1], de[:-1], indexing="ij")
    UB, DB = np.meshgrid(u_edges[1:], de[1:], indexing="ij")
    ua, ub, da, db = UA.ravel(), UB.ravel(), DA.ravel(), DB.ravel()
    up_global = 0.0
    cells = ua.size
    for rnd in range(max_rounds):
        # attained values at the cell corners (concrete pairs of 004 Def. 8 on a two-point domain)
        for uu, dd in ((ua, da), (ub, da), (ua, db), (ub, db)):
            h, r = _gl_value(eps, eta, gamma, uu, dd)
            j = int(np.argmax(h))
            if h[j] > best:
                best = float(h[j])
                witness = {"r": float(r[j]), "shift": float(dd[j] * min(math.exp(r[j]), 1.0)), "d": float(dd[j])}
        ubd = _gl_cell_upper(eps, eta, gamma, ua, ub, da, db)
        if np.isnan(ubd).any():
            raise RuntimeError(f"tight delta of Laplace g_L: NaN in the cell bounds (eps={eps!r}, eta={eta!r}, "
                               f"gamma={gamma!r})")
        settled = ubd <= best * (1.0 + rtol) + _HS_TINY
        if np.any(settled):
            up_global = max(up_global, float(ubd[settled].max()))
        ua, ub, da, db, ubd = ua[~settled], ub[~settled], da[~settled], db[~settled], ubd[~settled]
        if ua.size == 0:
            break
        if rnd == max_rounds - 1 or ua.size > max_cells:
            # budget exhausted: the bound stays certified, only looser (upper - lower reported)
            up_global = max(up_global, float(ubd.max()))
            break
        split = ubd > best + 0.5 * (float(ubd.max()) - best)
        keep = ~split
        sa, sb, sda, sdb = ua[split], ub[split], da[split], db[split]
        um = 0.5 * (sa + sb)
        if split_d:
            # d halves in log scale; the first cell [0, d1] is cut at d1/64
            dm = np.where(sda > 0, np.sqrt(sda * sdb), sdb / 64.0)
            ua = np.concatenate([ua[keep], sa, um, sa, um])
            ub = np.concatenate([ub[keep], um, sb, um, sb])
            da = np.concatenate([da[keep], sda, sda, dm, dm])
            db = np.concatenate([db[keep], dm, dm, sdb, sdb])
            cells += 4 * sa.size
        else:
            ua = np.concatenate([ua[keep], sa, um])
            ub = np.concatenate([ub[keep], um, sb])
            da = np.concatenate([da[keep], sda, sda])
            db = np.concatenate([db[keep], sdb, sdb])
            cells += 2 * sa.size
    return up_global, best, witness, cells


def _tail_start(eps: float, eta: float, gamma: float) -> float:
    """(L5): a D with D >= (1/eps - 1/gamma)_+ and eta/gamma + ln(1 + gamma D) - eps D <= 0 (eta <= eps)."""
    D = max(1.0 / eps - 1.0 / gamma, (1.0 + eta / gamma) / eps, 1e-12)
    for _ in range(200):
        if eta / gamma + math.log1p(gamma * D) - eps * D <= 0.0:
            return D
        D *= 2.0
    raise RuntimeError(f"no tail start found (eps={eps!r}, eta={eta!r}, gamma={gamma!r})")  # pragma: no cover


@dataclass(frozen=True)
class TightDeltaResult:
    """Outcome of :func:`tight_delta_laplace` (004 Lemma 3.6, Laplace with g_L).

    ``upper``    certified upper bound on delta_tight = sup over allowed pairs of the hockey-stick
                 divergence H_{e^(eps d)}(P_x || P_x') (never below the truth).
    ``lower``    a value attained by ``witness`` (or approached along it as d -> inf: entries inf).
    ``witness``  {"r": ln(B(x)/B(x')), "shift": f(x) - f(x') for B(x') = 1, "d": dist(x, x')}.
    ``delta_printed``  the delta Lemma 3.6 certifies at (eps, eta, gamma): exp(-(eps - eta)/gamma)
                 (None when eta >= eps: the lemma gives no delta < 1 then).
    ``method``   which argument of the module docstring certified ``upper``.
    """

    upper: float
    lower: float
    witness: dict[str, float]
    metric: str
    eps: float
    eta: float
    gamma: float
    Lambda: float
    delta_printed: float | None
    method: str
    cells: int

    @property
    def delta(self) -> float:
        return self.upper


def _check_lambda(metric: str, Lambda: Any) -> float:
    Lambda = check_positive("Lambda", Lambda, allow_inf=True)
    if metric == "hamming" and Lambda < 1.0:
        raise ValueError(f"Lambda must be >= 1 for metric='hamming' (Hamming neighbours are at distance 1); "
                         f"got Lambda={Lambda!r}")
    return Lambda


def tight_delta_laplace(eps: float, eta: float, gamma: float, metric: str = "euclidean", Lambda: float = math.inf, *,
                        rtol: float | None = None, method: str = "auto") -> TightDeltaResult:
    """The exact delta of M(x) = f(x) + (B(x)/eta) Z, Z ~ Lap(0,1), B g_L-smooth (004 Lemma 3.6).

    delta_tight = sup over pairs allowed by 004 Def. 8 with g_L (and 0 < d <= Lambda for "euclidean",
    d = 1 for "hamming") of H_{e^(eps d)}(P_x || P_x') (004 Def. 5); see the module docstring (L1)-(L6).
    ``eps`` the per-unit-distance eps, ``eta`` the noise divisor, ``gamma`` the g_L parameter,
    ``Lambda`` the neighbourhood radius of 004 Def. 5 (for "hamming" only d = 1 matters; Lambda >= 1).
    ``method="auto"`` uses the exact closed form where (L3)-(L5) prove it (eta <= eps for the
    r >= 0 branch, eta + gamma <= eps for r < 0) and certified cells (L6) for the rest;
    ``"cells"`` runs the cells everywhere (a cross-check; the Lambda = inf tail still uses (L5)).
    ``rtol`` (default 1e-7): relative gap upper - lower at which the cells stop.
    """
    eps = check_positive("eps", eps)
    eta = check_positive("eta", eta)
    gamma = check_positive("gamma", gamma)
    metric = check_metric(metric, _METRICS)
    Lambda = _check_lambda(metric, Lambda)
    rtol = 1e-7 if rtol is None else check_positive("rtol", rtol)
    if method not in ("auto", "cells"):
        raise ValueError(f"method must be 'auto' or 'cells'; got method={method!r}")
    D = 1.0 if metric == "hamming" else Lambda
    printed = math.exp(-(eps - eta) / gamma) if eta < eps else None

    def result(upper: float, lower: float, wit: dict[str, float], how: str, cells: int = 0) -> TightDeltaResult:
        return TightDeltaResult(min(upper, 1.0), lower, wit, metric, eps, eta, gamma, Lambda, printed, how, cells)

    inf_wit = {"r": math.inf, "shift": math.inf, "d": math.inf}
    if math.isinf(D) and eta > eps:
        # (L5): r = 0, Delta = d, H = 1 - exp(-(eta - eps) d/2) -> 1 as d -> inf
        return result(1.0, 1.0, {"r": 0.0, "shift": math.inf, "d": math.inf}, "limit d -> inf at r = 0 (L5)")

    # r >= 0 branch: exact by (L3) when eta <= eps; start from the trivial pair (equal laws, H = 0)
    best, wit = 0.0, {"r": 0.0, "shift": 0.0, "d": min(D, 1.0)}
    pos_upper = None
    if eta <= eps:
        closed = _delta_rpos_closed(eps, eta, gamma, D)
        if math.isinf(D):
            best, wit = closed, dict(inf_wit)  # approached as d -> inf along r = ln(1 + gamma d), Delta = d
        else:
            h, r = _gl_value(eps, eta, gamma, np.array([1.0]), np.array([D]))
            best, wit = float(h[0]), {"r": float(r[0]), "shift": D, "d": D}
        pos_upper = max(closed, best) * (1.0 + _HS_ROUND) + _HS_TINY
    if method == "auto" and pos_upper is not None and eta + gamma <= eps:
        # (L3) + (L4): the r < 0 branch is zero
        return result(pos_upper, best, wit, "closed form (L3); r < 0 branch zero (L4)")

    # cells (L6): over r < 0 only when (L3) covers r >= 0, else over both signs
    both = method == "cells" or pos_upper is None
    tail_up = 0.0
    if metric == "hamming":
        d_edges = None
        n_u = 64
    else:
        Dc = D
        if math.isinf(D):
            Dc = _tail_start(eps, eta, gamma)  # eta <= eps here
            # (L5): beyond Dc the r < 0 branch is zero and r >= 0 is at most the limit
            tail_up = _delta_rpos_closed(eps, eta, gamma, math.inf) * (1.0 + _HS_ROUND) + _HS_TINY
        d_edges = np.concatenate([[0.0], np.geomspace(Dc * 1e-9, Dc, 49)])
        d_edges[-1] = Dc
        n_u = 16
    u_edges = np.concatenate([np.linspace(-1.0, 0.0, n_u + 1), np.linspace(0.0, 1.0, n_u + 1)[1:]]) if both \
        else np.linspace(-1.0, 0.0, n_u + 1)
    up, best2, wit2, cells = _gl_cells(eps, eta, gamma, u_edges, d_edges, rtol, best, wit)
    upper = max(up, tail_up, best2 * (1.0 + _HS_ROUND) + _HS_TINY)
    if not both and pos_upper is not None:  # not both: the closed form (L3) ran and set pos_upper
        upper = max(upper, pos_upper)
        how = "closed form (L3) for r >= 0; certified cells (L6) for r < 0"
    else:
        how = "certified cells (L6)" + ("; tail d >= D by (L5)" if tail_up > 0 else "")
    return result(upper, best2, wit2, how, cells)


def tight_eta_laplace(eps: float, delta: float, gamma: float, metric: str = "euclidean", Lambda: float = math.inf, *,
                      rtol: float | None = None, xtol: float | None = None) -> float:
    """The largest eta (least noise) whose certified tight delta (:func:`tight_delta_laplace`) is <= delta.

    delta_tight is nondecreasing in eta (the worst shift eta d min(c, 1) grows with eta and H is
    nondecreasing in the shift, module docstring (L2)), so the admissible etas form an interval
    (0, eta_tight]: Brent's method on the certified upper bound, then the returned eta is checked
    to satisfy upper <= delta.  Compare with the printed eta = eps - gamma ln(1/delta) of 004
    Lemma 3.6 (which needs gamma ln(1/delta) < eps).  For "euclidean" with Lambda = inf every eta > eps
    has delta_tight = 1 (L5), so eta_tight <= eps.  Raises ValueError when even eta -> 0 exceeds
    delta (gamma too large for this delta)."""
    eps = check_positive("eps", eps)
    delta = check_probability("delta", delta)
    gamma = check_positive("gamma", gamma)
    metric = check_metric(metric, _METRICS)
    Lambda = _check_lambda(metric, Lambda)
    xtol = 1e-12 if xtol is None else check_positive("xtol", xtol)
    f = lambda e: tight_delta_laplace(eps, e, gamma, metric, Lambda, rtol=rtol).upper - delta  # noqa: E731
    lo = 1e-12 * eps
    f_lo = f(lo)
    if not f_lo <= 0.0:
        raise ValueError(
            f"gamma is too large for delta: even eta -> 0 has tight delta {f_lo + delta:.6g} > delta "
            f"(printed Lemma 3.6 needs gamma ln(1/delta) < eps, here {gamma * math.log(1.0 / delta):.6g} vs eps); "
            f"got gamma={gamma!r}, eps={eps!r}, delta={delta!r}, metric={metric!r}, Lambda={Lambda!r}"
        )
    if metric == "euclidean" and math.isinf(Lambda):
        hi = eps
        if f(hi) <= 0.0:
            return eps  # every eta > eps has delta_tight = 1 (L5)
    else:
        hi = max(1.0, eps)
        for _ in range(200):
            if f(hi) > 0.0:
                break
            lo, hi = hi, 2.0 * hi
        else:  # pragma: no cover - H -> 1 as eta -> inf at r = 0
            raise RuntimeError(f"no eta with tight delta > delta found (eps={eps!r}, delta={delta!r})")
    from scipy.optimize import brentq  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    eta = brentq(f, lo, hi, xtol=xtol * hi * 1e-3, rtol=xtol)
    for _ in range(60):
        if f(eta) <= 0.0:
            return eta
        eta *= 1.0 - xtol
    return lo


@dataclass(frozen=True)
class TightLaplaceCalibration:
    """Printed (004 Lemma 3.6) vs tight calibration of the Laplace g_L mechanism at (eps, delta, gamma).

    ``eta_printed``  eps - gamma ln(1/delta) (None when gamma ln(1/delta) >= eps: infeasible).
    ``delta_tight_at_printed_eta``  certified tight delta at the printed eta (``..._lower`` attained);
                     ``delta_ratio`` = that / delta (<= 1: the printed lemma holds).
    ``eta_tight``    the largest eta with certified tight delta <= delta (:func:`tight_eta_laplace`).
    ``std_printed``, ``std_tight``  noise std per unit B, sqrt(2)/eta (Var Lap(0,1) = 2);
    ``std_saved`` = 1 - std_tight/std_printed (None when the printed calibration is infeasible).
    """

    eps: float
    delta: float
    gamma: float
    metric: str
    Lambda: float
    eta_printed: float | None
    delta_tight_at_printed_eta: float | None
    delta_tight_lower: float | None
    delta_ratio: float | None
    eta_tight: float
    std_printed: float
    std_tight: float
    std_saved: float | None
    note: str = ""


def tight_calibration_laplace(eps: float, delta: float, gamma: float, metric: str = "euclidean",
                              Lambda: float = math.inf) -> TightLaplaceCalibration:
    """Printed vs tight calibration of Laplace with g_L (004 Lemma 3.6) for a target (eps, delta).

    Raises ValueError when the tight calibration is infeasible too (then so is the printed one)."""

    eps = check_positive("eps", eps)
    delta = check_probability("delta", delta)
    gamma = check_positive("gamma", gamma)
    metric = check_metric(metric, _METRICS)
    Lambda = _check_lambda(metric, Lambda)
    sd = math.sqrt(2.0)
    try:
        printed = calibrate_laplace_approx(eps, delta, gamma, metric=metric)
        why = ""
    except ValueError as exc:
        printed, why = None, str(exc)
    eta_t = tight_eta_laplace(eps, delta, gamma, metric, Lambda)
    if printed is None:
        return TightLaplaceCalibration(
            eps, delta, gamma, metric, Lambda, None, None, None, None, eta_t, math.inf, sd / eta_t, None,
            f"printed Lemma 3.6 infeasible ({why}); the tight calibration is feasible: eta = {eta_t:.6g}")
    at = tight_delta_laplace(eps, printed.eta, gamma, metric, Lambda)
    std_p, std_t = sd / printed.eta, sd / eta_t
    return TightLaplaceCalibration(eps, delta, gamma, metric, Lambda, printed.eta, at.upper, at.lower,
                                   at.upper / delta, eta_t, std_p, std_t, 1.0 - std_t / std_p,
                                   f"tight delta at the printed eta: {at.method}")


def tight_table_laplace(eps: float, delta: float, gamma: float | None = None, metric: str = "euclidean",
                        Lambda: float = math.inf) -> list[dict[str, Any]]:
    """The Laplace g_L row (004 Lemma 3.6) of the printed-vs-tight comparison, as a list of one dict.

    gamma defaults to eps/9 (004 Sec. 5).  Keys: family, source, gamma, metric, eps, delta,
    eta_printed, delta_tight (certified, at the printed eta), delta_ratio, eta_tight, std_printed,
    std_tight, std_saved, note / error (the reason, when infeasible)."""

    eps = check_positive("eps", eps)
    delta = check_probability("delta", delta)
    metric = check_metric(metric, _METRICS)
    g = DEFAULT_GAMMA_FRACTION * eps if gamma is None else check_positive("gamma", gamma)
    row: dict[str, Any] = {"family": "Laplace g_L (approx.)", "source": "004 Lemma 3.6", "gamma": g,
                           "metric": metric, "eps": eps, "delta": delta}
    try:
        tc = tight_calibration_laplace(eps, delta, g, metric, Lambda)
    except ValueError as exc:
        row.update(eta_printed=None, delta_tight=None, delta_ratio=None, eta_tight=None, std_printed=None,
                   std_tight=None, std_saved=None, note="", error=f"tight and printed both infeasible: {exc}")
        return [row]
    row.update(eta_printed=tc.eta_printed, delta_tight=tc.delta_tight_at_printed_eta, delta_ratio=tc.delta_ratio,
               eta_tight=tc.eta_tight, std_printed=tc.std_printed, std_tight=tc.std_tight, std_saved=tc.std_saved,
               note=tc.note, error="")
    return [row]


def format_tight_table_laplace(rows: list[dict[str, Any]]) -> str:
    """The rows of :func:`tight_table_laplace` as aligned text columns (notes after the table)."""
    cols = [("family", "family"), ("source", "source"), ("delta", "delta printed"),
            ("delta_tight", "delta tight (same eta)"), ("delta_ratio", "tight/printed"),
            ("eta_printed", "eta printed"), ("eta_tight", "eta tight"), ("std_printed", "std printed"),
            ("std_tight", "std tight"), ("std_saved", "std saved")]
    return _format_rows(rows, cols, lambda r, k: "infeasible" if k == "eta_printed" and r.get("eta_tight") is not None
                        else "-")
