"""Black-box privacy audit of ``release(x, rng)``: a statistically valid lower bound on eps.

Claim audited (pure or approximate, 004 Def. 5 for GP with the Euclidean metric; DP with the
Hamming metric, 004 Sec. 2.3 / 002 eq. (1)): for the chosen neighbouring inputs x, x' at distance
dist(x, x') and every measurable S,

    P[M(x) in S] <= e^{eps dist(x, x')} P[M(x') in S] + delta.

Hence for any fixed event S with P[M(x') in S] > 0,

    eps >= ln((P[M(x) in S] - delta) / P[M(x') in S]) / dist(x, x'),

and a lower confidence bound p_lo on P[M(x) in S] and an upper confidence bound p_hi on
P[M(x') in S] give the lower bound eps_lo = ln((p_lo - delta) / p_hi) / dist on the mechanism's
true eps at the claimed delta, and delta_lo = p_lo - e^{eps dist} p_hi on its delta at the claimed eps
(the hockey-stick divergence, seen through S).  The procedure (in the spirit of StatDP, DP-Sniper
(Bichsel et al., IEEE S&P 2021) and DP-Auditorium (Kong et al., 2024)):

1. selection: min(n/10, chunk) draws of M(x) and of M(x') (one chunk, in this process); a histogram on the pooled quantiles (``n_bins`` bins,
   refined in both tails down to the 1e-4 quantile) -- or, for integer outputs, one bin (e_(i-1), e_i] per
   observed support point e_i (the point and the unseen integers just below it, so that a union of bins
   from one end is a true tail of the integers) -- proposes the events S: every bin, every left tail
   (-inf, e_k] and right tail (e_k, inf), and for integer outputs the likelihood-ratio sets (support
   points sorted by their empirical ratio on the first half of the selection draws, every prefix; scored
   on the second half, since a set ordered and scored on the same draws looks far better than it is).
   Over both directions (x vs x' and x' vs x) two events are chosen: the eps event, with the largest
   *predicted* lower bound at the estimation size, ln((p - delta)/q) - z_beta sd(n_est) - sqrt(2 ln N)
   sd(n_sel) (the most statistical power, not the largest empirical ratio; the last term, about the
   largest of N standard normals for N candidates, guards against the winner's curse), and the tail
   with the largest predicted lower bound on p - e^{eps d} q (the delta event; delta-scale mass lives
   in the tails, where interval events cannot see it);
2. estimation: the remaining fresh draws of each, in chunks of at most ``chunk`` draws, each chunk from
   its own child seed of the master seed and reduced to counts (the histogram over the selection bins
   and the fixed tail events) in its own task -- serially or on a Dask cluster
   (:mod:`verify.parallel`), with the same counts either way.  The eps event: the joint exact test of
   H0(e): p - e^{e d} q <= delta (below) at level beta / K, K = 2 x (number of pairs), inverted in e
   for the bound eps_lo (the two relative errors add in quadrature, where two Clopper-Pearson bounds
   would add them: the same bound at about half the draws); the Clopper-Pearson bounds at beta / (2 K)
   each are reported beside it (and drawn in the privacy-curve plot).  The delta events: the chosen one and the tails of its
   side at 8 fixed pooled-quantile levels (1e-3 ... 0.2, thresholds from the selection draws), each by
   the joint exact test of H0: p - e^{eps d} q <= m0 (the statistic K1 - e^{eps d} K2 of the two
   binomial counts; Berger & Boos' unconditional test with the nuisance q in its Clopper-Pearson
   interval) at level beta / (9 K), inverted in m0 for the bound delta_lo.  By the union bound every
   bound reported holds simultaneously with probability >= 1 - beta (beta = ``false_alarm``): the
   selection uses other draws, so the events are fixed given them.

A violation is *certified at confidence 1 - beta* when eps_lo exceeds the claimed eps or delta_lo the
claimed delta (for a Gaussian claimed (0.5, 1e-5) whose true delta(0.5) is ~3e-3 the delta bound
refutes it at the default budget; tests/verify/audit/test_approx_dp_blackbox.py).

Integer-valued releases (the geometric mechanism) are detected on a probe and drawn in batches like
continuous ones (one call per input array), counted with ``np.bincount`` over the support bins: a
geometric audit costs what a Laplace one does.

When the mechanism also exposes an exact density (``log_density(x, y)``; e.g. the ``release``
bound method of :class:`smoothsens_core.mechanism.SmoothSensitivityMechanism`), the report adds
the exact privacy loss at each audited pair, sup_y [ln p_x(y) - ln p_x'(y)] / dist (grid around the
pooled selection draws plus local search, re-evaluated in mpmath by :func:`verify.audit.exact.privacy_loss_mp`): no valid
sampling bound at that pair can exceed it; and the worst case over the neighbourhood found by
the exact auditor :func:`verify.audit.exact.audit_density_mechanism`, with its mpmath certificate.

Verdict: FAIL when either side certifies a violation -- a sampling bound at confidence 1 - beta, or
the exact side in mpmath (pure claims: the loss at an audited pair or anywhere in the neighbourhood;
(eps, delta) claims: the hockey-stick divergence of the worst-case search,
:func:`verify.audit.exact.curve.audit_density_mechanism_approx`, never the pure loss); INCONCLUSIVE when the exact side finds a
float excess it cannot certify (no mpmath density); PASS otherwise.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy import optimize, special, stats

from smoothsens_core.validation import check_integer, check_nonnegative, check_positive, check_probability, check_rng

from ..exact import (
    AuditResult,
    EuclideanNeighbourhood,
    HammingNeighbourhood,
    audit_density_mechanism,
    cert_threshold,
    log_density_mp,
    privacy_loss,
    privacy_loss_mp,
)
from ._callables import RngUse, check_arity, check_rng_use
from .input_search import InputSearch, search_pairs
from .relations import Euclidean, Hamming, Relation, relation_from_metric
from verify.parallel import Executor, SerialExecutor, iter_chunks, spawn_seeds
from verify.serialise import jsonable

from ..outcome import OrderedPair, OutcomePredicates

__all__ = ["PairEstimate", "MechanismAuditReport", "audit_blackbox_mechanism", "clopper_pearson",
           "DEFAULT_MECHANISM_BUDGET", "DEFAULT_CHUNK", "MAX_MECHANISM_BUDGET"]

FloatArray = NDArray[np.float64]
DEFAULT_MECHANISM_BUDGET = 200_000
#: Draws per task of the estimation (and the most selection draws per input): a task holds one chunk.
DEFAULT_CHUNK = 1_000_000
#: Most draws per input of one mechanism audit.  Memory does not grow with it (a task holds one chunk
#: of at most ``chunk`` draws and returns counts); time does, linearly: about 2 x budget x pairs draws
#: (1e10 per input: hours for a vectorised release), which the progress messages estimate after the
#: selection draws.
MAX_MECHANISM_BUDGET = 10_000_000_000
_METRICS = ("euclidean", "hamming")
#: Most support points of an integer release given their own bin (and likelihood-ratio sets).
_MAX_SUPPORT_BINS = 2048
#: Pooled-quantile levels of the tail events tested for the delta bound (1e-3 ... 0.2, log-spaced).
_TAIL_LEVELS = tuple(float(v) for v in np.geomspace(1e-3, 0.2, 8))


def clopper_pearson(k: NDArray[np.int64] | int, n: int, level: float) -> tuple[FloatArray, FloatArray]:
    """One-sided Clopper-Pearson bounds for a binomial proportion: (lower, upper), each holding
    with probability >= 1 - level:  lower = Beta^{-1}(level; k, n - k + 1) (0 if k = 0),
    upper = Beta^{-1}(1 - level; k + 1, n - k) (1 if k = n)."""
    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, stats.beta.ppf(level, np.maximum(k, 1), n - k + 1), 0.0)
        hi = np.where(k < n, stats.beta.ppf(1 - level, k + 1, np.maximum(n - k, 1)), 1.0)
    return lo, hi


@dataclass(frozen=True)
class PairEstimate(OrderedPair):
    """The audit of one ordered pair (x, x'): chosen event, counts, bounds and (if known) exact loss."""

    dist: float
    event: str
    selection_counts: tuple[int, int]
    estimation_counts: tuple[int, int]
    n_estimation: int
    p_x_lower: float
    p_x_prime_upper: float
    eps_lower: float
    eps_hat: float
    level: float
    eps_exact: float | None = None
    eps_exact_mp: str | None = None
    exact_y: float | None = None
    criterion: str = "eps"
    delta_lower: float = -math.inf
    claimed_eps: float = math.nan
    event_family: str = ""

    def delta_lower_at(self, eps: float) -> float:
        """Lower confidence bound on delta at ``eps`` from this event's bounds: p_x_lower - e^(eps d) p_x'_upper
        (valid for every eps at once: the same two Clopper-Pearson bounds)."""
        c = _exp_ratio(eps * self.dist)
        return -math.inf if math.isinf(c) else self.p_x_lower - c * self.p_x_prime_upper

    def describe(self) -> str:
        ex = ""
        if self.eps_exact is not None:
            ex = f"; exact loss/dist at this pair {self.eps_exact:.6g}"
            if self.eps_exact_mp:
                ex += f" (mpmath {self.eps_exact_mp[:12]})"
        bound = (f"eps >= {self.eps_lower:.6g} (estimate {self.eps_hat:.6g})" if self.criterion == "eps" else
                 f"delta >= {self.delta_lower:.3g} at eps = {self.claimed_eps:g} (joint exact test)")
        fam = f" [{self.event_family}]" if self.event_family else ""
        return (f"{self.pair_text(_fmt)} (dist {self.dist:.6g}), S = {self.event}{fam}: "
                f"{self.estimation_counts[0]}/{self.n_estimation} vs {self.estimation_counts[1]}/{self.n_estimation}; "
                f"{bound}{ex}")

    def to_json(self) -> dict[str, Any]:
        return {**self.pair_json(jsonable), "dist": self.dist, "event": self.event,
                "selection_counts": list(self.selection_counts), "estimation_counts": list(self.estimation_counts),
                "n_estimation": self.n_estimation, "p_x_lower": self.p_x_lower,
                "p_x_prime_upper": self.p_x_prime_upper, "eps_lower": jsonable(self.eps_lower),
                "eps_hat": jsonable(self.eps_hat), "level_per_bound": self.level,
                "eps_exact": jsonable(self.eps_exact), "eps_exact_mp": self.eps_exact_mp,
                "exact_y": self.exact_y, "criterion": self.criterion, "delta_lower": jsonable(self.delta_lower),
                "event_family": self.event_family}


@dataclass(frozen=True)
class MechanismAuditReport(OutcomePredicates):
    """Outcome of :func:`audit_blackbox_mechanism`: the statistical lower bound on eps at the
    chosen pairs and, when the density is exposed, the exact loss beside it.

    ``exact_outcome`` is the exact side's own outcome for a pure claim ("pass", "violated" =
    certified in mpmath, "inconclusive" = float excess not certified), None when the exact side did
    not run or the claim has delta > 0; ``exact_certificate`` names the certified violation."""

    claimed_eps: float
    claimed_delta: float
    metric: str
    n: int
    seed: Any
    false_alarm: float
    pairs: tuple[PairEstimate, ...]
    eps_lower: float
    vectorised: bool
    exact: Mapping[str, Any] | None = None
    notes: tuple[str, ...] = ()
    elapsed: float = 0.0
    exact_outcome: str | None = None
    exact_certificate: str | None = None
    rng_use: RngUse | None = None  # verify.audit.blackbox._callables.check_rng_use
    delta_lower: float = -math.inf
    discrete: bool = False
    relation_unit: str = ""
    pairs_tried: tuple[str, ...] = ()
    output_shape: str = "scalar"

    @property
    def sampling_violated(self) -> bool:
        """The claimed (eps, delta) is refuted by the sampling bounds at confidence 1 - false_alarm:
        eps >= eps_lower > claimed eps at the claimed delta, or delta >= delta_lower > claimed delta at
        the claimed eps."""
        return self.eps_lower > self.claimed_eps or self.delta_lower > self.claimed_delta

    @property
    def outcome(self) -> str:  # type: ignore[override]  # OutcomePredicates declares the attribute; reports derive it
        """"violated" if either side certifies a violation, "inconclusive" if the exact side found an
        excess it could not certify, "pass" otherwise."""
        if self.sampling_violated or self.exact_outcome == "violated":
            return "violated"
        if self.exact_outcome == "inconclusive":
            return "inconclusive"
        return "pass"




    def summary(self) -> str:
        dl = f", delta={self.claimed_delta:g}" if self.claimed_delta else ""
        unit = f", eps {self.relation_unit}" if self.relation_unit else ""
        lines = [f"mechanism audit (black box): claimed eps={self.claimed_eps:g}{dl} ({self.metric}{unit}); "
                 f"{self.n} draws per input ({'vectorised' if self.vectorised else 'one per call'}), "
                 f"confidence {1 - self.false_alarm:g}, {self.elapsed:.1f} s"]
        if self.pairs_tried:
            lines.append(f"  input search: {len(self.pairs_tried)} candidate pair(s) screened on separate draws: "
                         + "; ".join(self.pairs_tried[:12]) + (" ..." if len(self.pairs_tried) > 12 else ""))
        for p in self.pairs:
            lines.append("  " + p.describe())
        lines.append(f"  statistical lower bound: eps >= {self.eps_lower:.6g} (per unit distance) at delta = "
                     f"{self.claimed_delta:g}; delta >= {max(self.delta_lower, 0.0):.3g} at eps = {self.claimed_eps:g}; "
                     f"valid with probability >= {1 - self.false_alarm:g}")
        if self.exact is not None:
            if "pairs_max" in self.exact:
                lines.append(f"  exact loss at the audited pairs (density): max {self.exact['pairs_max']:.6g} "
                             "per unit distance")
            if "audit" in self.exact:
                lines.append(f"  exact auditor (verify.audit.exact.audit_density_mechanism): {self.exact['audit_summary']}")
        for n in self.notes:
            lines.append(f"  note: {n}")
        lines.append("  verdict: " + self.verdict_text())
        return "\n".join(lines)

    def verdict_text(self) -> str:
        """FAIL naming each certificate, INCONCLUSIVE naming the uncertified excess, or PASS."""
        if self.outcome == "violated":
            why = []
            if self.eps_lower > self.claimed_eps:
                why.append(f"sampling bound eps >= {self.eps_lower:.6g} at confidence {1 - self.false_alarm:g}")
            if self.delta_lower > self.claimed_delta:
                why.append(f"sampling bound delta >= {self.delta_lower:.3g} at eps = {self.claimed_eps:g}, "
                           f"confidence {1 - self.false_alarm:g}")
            if self.exact_outcome == "violated":
                why.append(f"exact side: {self.exact_certificate}")
            dl = f", delta={self.claimed_delta:g}" if self.claimed_delta else ""
            return f"FAIL: claimed eps={self.claimed_eps:g}{dl} refuted ({'; '.join(why)})"
        if self.outcome == "inconclusive":
            reasons = list(self.notes)
            audit = (self.exact or {}).get("audit") or {}
            reasons += [str(t) for t in audit.get("notes", []) if str(t) not in reasons]
            if not reasons:
                reasons = ["the exact side found an excess over the claimed eps in float that it could not "
                           "certify in mpmath (log_density_mp(x, y, dps) gives certificates)"]
            return "INCONCLUSIVE (not a pass): " + "; ".join(reasons[:4])
        return "PASS (no violation detected)" + (f"; warning: {self.rng_use.warning}" if self.rng_use is not None and self.rng_use.ignores_rng else "")

    def to_json(self) -> dict[str, Any]:
        return jsonable({"kind": "mechanism", "claimed_eps": self.claimed_eps, "claimed_delta": self.claimed_delta,
                "metric": self.metric, "n": self.n,
                "seed": self.seed if isinstance(self.seed, int) else str(self.seed),
                "false_alarm": self.false_alarm, "confidence": 1 - self.false_alarm,
                "eps_lower": jsonable(self.eps_lower), "delta_lower": jsonable(self.delta_lower),
                "discrete": self.discrete, "outcome": self.outcome, "violated": self.violated,
                "passed": self.passed, "sampling_violated": self.sampling_violated,
                "exact_outcome": self.exact_outcome, "exact_certificate": self.exact_certificate,
                "verdict": self.verdict_text(),
                "vectorised": self.vectorised, "pairs": [p.to_json() for p in self.pairs],
                "exact": self.exact, "notes": list(self.notes), "elapsed_s": self.elapsed,
                "rng_use": self.rng_use.to_json() if self.rng_use is not None else None,
                "relation_unit": self.relation_unit, "pairs_tried": list(self.pairs_tried),
                "output_shape": self.output_shape})


def _fmt(x: Any) -> str:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    return f"{a[0]:.6g}" if a.size == 1 else "(" + ", ".join(f"{t:.6g}" for t in a) + ")"


class _Release:
    """Draws of a black-box ``release(x, rng)``: vectorised over repeated inputs when the release
    returns one independent draw per input row (detected on a probe of 64 rows: the right shape
    and at least 32 distinct values), otherwise one draw per call.

    Integer-valued releases (the geometric mechanism, 003 App. A) repeat values by nature: when the
    64-row probe returns integers, a second probe of 1024 rows decides, and the batch counts as
    independent draws when it is not one shared value (a release adding one noise draw to every row
    returns a single value).  ``discrete`` records that the outputs are integers (``draw`` checks it
    on every batch)."""

    def __init__(self, release: Callable[..., Any], x0: Any, probe: np.random.Generator,
                 others: Sequence[Any] = ()) -> None:
        check_arity(release, 2, "release", "release(x, rng)")
        self.release = release
        self.discrete = False
        self.scalar = True
        # the shape of one output: a vector, a tuple or a boolean array is audited by
        # verify.audit.blackbox.shaped (events on the joint output), never cut to one number
        try:
            first = release(x0, probe)
            if isinstance(first, (tuple, list, set, frozenset)) or np.asarray(first).size != 1:
                self.scalar = False
                self.vectorised = False
                self.first_shape = np.shape(first) if not isinstance(first, (set, frozenset)) else (len(first),)
                return
        except Exception:  # noqa: BLE001 - a release that needs an array of inputs is probed below
            pass
        k = 64
        vec_err = ""
        # a release that is deterministic at one input (a clamp, a constant answer) returns one value for
        # all 64 rows there without sharing noise: every input of the audit is probed before concluding
        # "shared noise" (one call per draw)
        inputs = [x0, *[v for v in others if v is not x0]]
        try:
            for xi in inputs:
                out = np.asarray(release(self._repeat(xi, k), probe), dtype=float)
                if out.shape in ((k,), (k, 1)) and np.all(np.isfinite(out)) and np.all(out == np.round(out)):
                    big = np.asarray(release(self._repeat(xi, 1024), probe), dtype=float)
                    if big.shape in ((1024,), (1024, 1)) and np.all(big == np.round(big)):
                        self.discrete = True
                        if np.unique(big).size > 1:
                            self.vectorised = True
                            return
                        vec_err = vec_err or "returned one shared value for 1024 inputs (shared noise)"
                        continue
                    vec_err = f"returned shape {big.shape} for 1024 inputs"
                    break
                if out.shape in ((k,), (k, 1)) and np.unique(out).size >= k // 2:
                    self.discrete = False
                    self.vectorised = True
                    return
                if out.size != k:
                    vec_err = f"returned shape {out.shape}"
                    break
                vec_err = vec_err or (f"returned only {np.unique(out).size} distinct values for {k} inputs "
                                      "at every input of the audit (shared noise)")
        except Exception as exc:  # noqa: BLE001 - a release that rejects arrays is used one call at a time
            vec_err = f"{type(exc).__name__}: {exc}"
        self.discrete = False
        self.vectorised = False
        try:
            one = np.asarray(release(x0, probe), dtype=float)
        except Exception as exc:
            raise TypeError(f"release(x, rng) could not be called at x={x0!r}: {type(exc).__name__}: {exc} "
                            f"(with an array of inputs: {vec_err})") from exc
        if one.size != 1:
            self.scalar = False
            self.first_shape = one.shape
            return
        if not self.discrete:
            few = np.array([float(np.asarray(release(x0, probe), dtype=float).reshape(-1)[0]) for _ in range(16)])
            self.discrete = bool(np.all(few == np.round(few)) and float(one.reshape(-1)[0]) == round(float(one.reshape(-1)[0])))

    @staticmethod
    def _repeat(x: Any, k: int) -> Any:
        a = np.asarray(x, dtype=float)
        return np.repeat(a[None, ...], k, axis=0) if a.ndim else np.full(k, float(a))

    def draw(self, x: Any, n: int, gen: np.random.Generator) -> FloatArray:
        return _draw_release(self.release, self.vectorised, x, n, gen)


def _draw_release(release: Callable[..., Any], vectorised: bool, x: Any, n: int,
                  gen: np.random.Generator) -> FloatArray:
    """n draws of ``release`` at x: one call on n repeated inputs when ``vectorised``, else n calls."""
    try:
        if vectorised:
            out = np.asarray(release(_Release._repeat(x, n), gen), dtype=float).reshape(-1)
        else:
            out = np.array([float(np.asarray(release(x, gen), dtype=float).reshape(-1)[0]) for _ in range(n)])
    except Exception as exc:
        raise ValueError(f"release raised {type(exc).__name__} at x={x!r}: {exc}") from exc
    if out.size != n:
        raise TypeError(f"release returned {out.size} draws for {n} inputs")
    return out


def _count_chunk(release: Callable[..., Any], vectorised: bool, x: Any, size: int, seed: np.random.SeedSequence,
                 edges: FloatArray, thresholds: tuple[float, ...],
                 side: str) -> tuple[NDArray[np.int64], NDArray[np.int64], int, bool]:
    """One task of the estimation: ``size`` draws of ``release`` at x from the child seed ``seed``,
    returned as counts only -- the histogram over the selection bins ``edges`` (every candidate event is
    a union of bins) and the counts of the tail events y <= t (``side="left"``) or y > t (``"right"``) at
    the fixed ``thresholds`` -- plus the number of non-finite draws and whether every draw is an integer.
    Depends only on its arguments: the same counts on any worker."""
    arr = _draw_release(release, vectorised, x, size, np.random.default_rng(seed))
    n_bad = size - int(np.count_nonzero(np.isfinite(arr)))
    nb = edges.size + 1
    if n_bad:
        return np.zeros(nb, dtype=np.int64), np.zeros(len(thresholds), dtype=np.int64), n_bad, False
    integer = bool(np.all(arr == np.round(arr)))
    bins = _bin_counts(edges, arr).astype(np.int64)
    if side == "left":
        tails = [np.count_nonzero(arr <= t) for t in thresholds]
    else:
        tails = [np.count_nonzero(arr > t) for t in thresholds]
    return bins, np.asarray(tails, dtype=np.int64), 0, integer


def _bin_edges(pooled: FloatArray, n_bins: int) -> FloatArray:
    """Edges of the selection histogram (continuous outputs): ``n_bins`` quantile bins of the pooled
    selection draws, refined in both tails by the quantiles at 1e-4 ... 0.05 (log-spaced), where the
    events that see delta-scale mass live (the hockey-stick set of a Gaussian pair is a tail)."""
    tails = np.geomspace(1e-4, 0.05, 16)
    qs = np.unique(np.concatenate([np.linspace(0.0, 1.0, n_bins + 1)[1:-1], tails, 1.0 - tails]))
    qs = qs[(qs * pooled.size >= 5) & ((1.0 - qs) * pooled.size >= 5)]
    return np.unique(np.quantile(pooled, qs))


def _bin_index(edges: FloatArray, draws: FloatArray) -> NDArray[np.int64]:
    """Bin of each draw: bin i = (e_(i-1), e_i] (e_(-1) = -inf, e_n = inf).  For integer outputs the
    edges are the observed support points: bin i holds the point e_i and the unobserved values just below."""
    return np.searchsorted(edges, draws, side="left")


def _bin_counts(edges: FloatArray, draws: FloatArray) -> NDArray[np.int64]:
    return np.bincount(_bin_index(edges, draws), minlength=edges.size + 1)


def _event_masks(a: NDArray[np.int64], b: NDArray[np.int64], ratio_sets: bool) -> tuple[NDArray[np.bool_], list[str]]:
    """Candidate events as masks over the bins: every bin, every left and right tail (unions of
    consecutive bins from one end), and (``ratio_sets``: integer outputs, one bin per support point)
    the likelihood-ratio sets of DP-Sniper (Bichsel et al., IEEE S&P 2021) / DP-Auditorium
    (Kong et al., 2024): the bins sorted by the empirical ratio (a_i + 1/2)/(b_i + 1/2) of the counts
    a, b given (the caller passes the first half of the selection draws and scores the sets on the
    second), every prefix in either direction.  (On histogram bins of a continuous output the
    ratio order of many small bins is mostly selection noise; the tails carry the monotone-ratio sets.)"""
    nb = a.size
    eye = np.eye(nb, dtype=bool)
    tri = np.tril(np.ones((nb, nb), dtype=bool))       # row k: bins 0..k (left tails)
    masks = [eye, tri[:-1], tri[::-1, ::-1][:-1]]      # bins, left tails, right tails (k..nb-1)
    kinds = ["bin"] * nb + ["left"] * (nb - 1) + ["right"] * (nb - 1)
    if not ratio_sets or nb < 2:
        return np.concatenate(masks, axis=0), kinds
    ratio = np.log(a + 0.5) - np.log(b + 0.5)
    for order in (np.argsort(-ratio, kind="stable"), np.argsort(ratio, kind="stable")):
        pref = np.zeros((nb - 1, nb), dtype=bool)
        for k in range(nb - 1):
            pref[k, order[: k + 1]] = True
        masks.append(pref)
        kinds += ["ratio"] * (nb - 1)
    return np.concatenate(masks, axis=0), kinds


def _mask_str(mask: NDArray[np.bool_], edges: FloatArray, integer: bool) -> str:
    """Human-readable event: an interval when the bins are consecutive, else the union of bins (for
    integer outputs named by their support points e_i; each bin also holds the unobserved values
    between e_(i-1) and e_i)."""
    idx = np.nonzero(mask)[0]
    e = np.concatenate([[-np.inf], edges, [np.inf]])
    if idx.size and np.all(np.diff(idx) == 1):
        if integer and idx[0] > 0 and idx[-1] < edges.size and idx[-1] == idx[0]:
            return f"y = {e[idx[0] + 1]:.6g}" + ("" if e[idx[0] + 1] - e[idx[0]] == 1 else
                                                 f" (and the values in ({e[idx[0]]:.6g}, {e[idx[0] + 1]:.6g}))")
        return _event_str(float(e[idx[0]]), float(e[idx[-1] + 1]))
    if integer:
        pts = e[idx + 1]
        shown = ", ".join(f"{t:.6g}" for t in pts[:8])
        return (f"y in {{{shown}{', ...' if pts.size > 8 else ''}}} ({pts.size} bins (e_(i-1), e_i] of the support "
                "points with the largest ratio)")
    return f"union of {idx.size} histogram bins with the largest ratio ({_event_str(float(e[idx[0]]), float(e[idx[0] + 1]))}, ...)"


def _event_str(lo: float, hi: float) -> str:
    if math.isinf(lo):
        return f"y <= {hi:.6g}"
    if math.isinf(hi):
        return f"y > {lo:.6g}"
    return f"{lo:.6g} < y <= {hi:.6g}"


def _joint_tail_prob(k1: int, k2: int, n: int, c: float, m0: float, q: float) -> float:
    """P_{p,q}(K1 - c K2 >= k1 - c k2) for independent K1 ~ Bin(n, p), K2 ~ Bin(n, q), p = m0 + c q
    (the sum over K2 within 9 standard deviations, the rest bounded by its mass)."""
    p = m0 + c * q
    if p <= 0.0:
        return 0.0
    p = min(p, 1.0)
    t_obs = k1 - c * k2
    sd = math.sqrt(max(n * q * (1.0 - q), 1.0))
    lo, hi = max(0, int(n * q - 9 * sd) - 1), min(n, int(n * q + 9 * sd) + 2)
    j = np.arange(lo, hi + 1, dtype=float)
    # K1 >= t_obs + c j; the 1e-9 guards the rounding of t_obs + c k2 = k1 at j = k2 (conservative side)
    need = np.ceil(t_obs + c * j - 1e-9)
    tail = np.where(need <= 0, 1.0, np.where(need > n, 0.0, special.bdtrc(np.clip(need - 1, 0, n), n, p)))
    with np.errstate(divide="ignore", invalid="ignore"):
        logw = (special.gammaln(n + 1.0) - special.gammaln(j + 1.0) - special.gammaln(n - j + 1.0)
                + special.xlogy(j, q) + special.xlog1py(n - j, -q))
    w = np.exp(logw)
    outside = (float(special.bdtr(lo - 1, n, q)) if lo > 0 else 0.0) + (float(special.bdtrc(hi, n, q)) if hi < n else 0.0)
    return float(np.dot(w, tail)) + outside


def _joint_pvalue(k1: int, k2: int, n: int, c: float, m0: float, alpha: float) -> float:
    """p-value of H0: p - c q <= m0 against p - c q > m0 from counts k1 ~ Bin(n, p), k2 ~ Bin(n, q):
    the unconditional exact test of the statistic K1 - c K2 with the nuisance q restricted to its
    two-sided Clopper-Pearson interval at level gamma = alpha/10 (Berger & Boos, JASA 89(427), 1994):
    p = gamma + sup_{q in CI} P_{m0 + c q, q}(K1 - c K2 >= k1 - c k2), valid at every n (the sup over the
    CI on a grid of 9 points refined by 8 more around the largest: the tail probability is smooth and
    unimodal in q)."""
    gamma = alpha / 10.0
    q_lo_cp, q_hi_cp = clopper_pearson(k2, n, gamma / 2.0)
    q_lo = max(float(q_lo_cp), max(-m0, 0.0) / c)
    q_hi = min(float(q_hi_cp), (1.0 - m0) / c)
    if q_hi < q_lo:
        return gamma
    grid = np.linspace(q_lo, q_hi, 9)
    vals = [_joint_tail_prob(k1, k2, n, c, m0, q) for q in grid]
    j = int(np.argmax(vals))
    a, b = grid[max(j - 1, 0)], grid[min(j + 1, grid.size - 1)]
    fine = np.linspace(a, b, 10)[1:-1]
    best = max(max(vals), max(_joint_tail_prob(k1, k2, n, c, m0, q) for q in fine))
    return min(1.0, gamma + best)


#: Largest eps*d whose e^(eps d) is formed: e^700 ~ 1e304 is the last power of e safely below the double
#: range; beyond it the delta bound at the claimed eps is reported as -inf (valid, and uninformative).
_MAX_LOG_C = 700.0
#: At most this many bracket doublings and bisection halvings per inverted test (each one p-value):
#: every search of the auditor ends after a bounded number of steps, whatever eps*d and the counts.
_MAX_SEARCH_STEPS = 400


def _exp_ratio(log_c: float) -> float:
    """e^(log_c) for the ratio c = e^(eps d) of the hockey-stick divergence; ``math.inf`` above
    :data:`_MAX_LOG_C` (every use of c treats inf as "no finite bound")."""
    return math.exp(log_c) if log_c <= _MAX_LOG_C else math.inf


#: Largest |m0| at which :func:`_joint_pvalue` is evaluated for the delta bound: its null p = m0 + c q is
#: formed in binary64, with an absolute error of about |m0| 2^-52 (2e-10 at 1e6, a shift of under 1e-4
#: expected counts at n = 1e5); at |m0| ~ 1e16 the sum cancels to nothing and the test is meaningless.
_MAX_ABS_M0 = 1e6


def _delta_lower_joint(k1: int, k2: int, n: int, c: float, alpha: float) -> float:
    """Lower confidence bound (level alpha) on p - c q by inverting :func:`_joint_pvalue` in m0
    (bisection: the p-value increases with m0); -inf when c is not finite.

    The search is bounded and stays where the test is computed reliably.  Every m0 < floor = -c q_hi,
    with q_hi the upper end of the nuisance interval of :func:`_joint_pvalue` (Clopper-Pearson at
    level alpha/20), is rejected with p-value alpha/10 (H0 is empty on the interval: p = m0 + c q < 0;
    Berger & Boos 1994), so the infimum of the accepted m0 -- the bound -- is at least the floor, and
    the floor (lowered by 1e-12 of itself for the rounding of c q_hi) is returned whenever the test
    cannot decide above it.  The test is evaluated only at |m0| <= :data:`_MAX_ABS_M0` (below that
    the floor is returned).  The lower end of the bracket moves from the normal approximation
    hat - (z + 2) sd towards the floor by doubling steps (at most log2(c / sd) of them: a linear
    widening by a few sd would take of order c / sd steps, about 1e13 at eps d = 20), then bisection
    halves the bracket until it is below sd/1000 (at most :data:`_MAX_SEARCH_STEPS` steps); the end
    returned is always one the test rejected or the floor, so a coarse bracket gives a smaller, still
    valid, bound."""
    if not math.isfinite(c):
        return -math.inf

    def rejects(m0: float) -> bool:
        return _joint_pvalue(k1, k2, n, c, m0, alpha) <= alpha

    hat = (k1 - c * k2) / n
    p, q = k1 / n, k2 / n
    sd = math.sqrt((p * (1 - p) + c * c * q * (1 - q) + 1.0 / n) / n)
    z = float(stats.norm.isf(alpha))
    _, q_hi = clopper_pearson(k2, n, alpha / 20.0)
    floor = max(-c * float(q_hi), -c) * (1.0 + 1e-12)
    bottom = max(floor, -_MAX_ABS_M0)  # the lowest m0 at which the test is evaluated
    if hat <= bottom:
        return floor
    # bracket around the normal approximation hat - z sd, its lower end moved geometrically to the bottom
    width = (z + 2.0) * sd
    lo, hi = max(hat - width, bottom), min(hat, hat - (z - 2.0) * sd)
    steps = 0
    while lo > bottom and not rejects(lo):
        hi = lo
        width *= 2.0
        steps += 1
        lo = max(hat - width, bottom) if steps < _MAX_SEARCH_STEPS else bottom
    if not rejects(lo):
        return floor  # not rejected at the bottom: the bound is the floor (every m0 below it is rejected)
    hi = max(hi, lo)
    if rejects(hi):
        lo, hi = hi, hat
    tol = 1e-3 * sd
    for _ in range(_MAX_SEARCH_STEPS):
        if not hi - lo > tol:
            break
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:  # the bracket is one double wide
            break
        if rejects(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _eps_lower_joint(k1: int, k2: int, n: int, d: float, delta: float, alpha: float, claimed: float) -> float:
    """Lower confidence bound (level alpha) on eps at ``delta`` from the counts k1 ~ Bin(n, p) of M(x)
    and k2 ~ Bin(n, q) of M(x') in one fixed event S, by inverting the joint exact test of
    :func:`_joint_pvalue` in eps: eps_lo = inf{e : H0(e): p - e^(e d) q <= delta is not rejected at level
    alpha}.  For the mechanism's true eps at delta, eps*, H0(eps*) holds, so eps_lo > eps* only if the
    test at eps* rejected: probability <= alpha.  (Two Clopper-Pearson bounds at alpha/2 each, the older
    bound, add their two relative errors; the joint test adds them in quadrature: the same confidence
    at about half the draws for a tail event of a Laplace pair.)

    The infimum is found by bisection on e, which presumes the p-value increases with e (larger e,
    weaker H0; checked numerically on the counts of the audits); the verdict does not presume it: an
    eps_lo above the claimed eps is kept only when the test at the claimed eps itself rejects.
    -inf when even H0: p <= delta (e -> -inf) is not rejected; for k2 = 0 the bound of the two
    Clopper-Pearson bounds at alpha/2 each (the joint test needs q > 0 to be informative)."""
    if k1 <= delta * n:
        return -math.inf
    if k2 == 0:
        p_lo, _ = clopper_pearson(k1, n, alpha / 2)
        _, q_hi = clopper_pearson(k2, n, alpha / 2)
        return math.log(float(p_lo) - delta) / d - math.log(float(q_hi)) / d if float(p_lo) > delta else -math.inf

    def rejects(e: float) -> bool:
        # above e d = _MAX_LOG_C, "not rejected": the conservative answer (a smaller bound, no certificate)
        return e * d <= _MAX_LOG_C and _joint_pvalue(k1, k2, n, math.exp(e * d), delta, alpha) <= alpha

    hat = (math.log(k1 / n - delta) - math.log(k2 / n)) / d
    # the delta-method sd of the estimate (brackets the bisection; the bracket is widened until it holds)
    sd = math.sqrt((1.0 - k1 / n) * (k1 / n) / ((k1 / n - delta) ** 2 * n) + (1.0 - k2 / n) / k2) / d
    z = float(stats.norm.isf(alpha))
    width = max((z + 1.0) * sd, 0.01 / d)  # sd is 0 when every draw of both falls in S
    lo, hi = hat - width, hat
    steps = 0
    while not rejects(lo):
        lo, hi = lo - width * 2.0 ** steps, lo
        steps += 1
        if lo * d < -50.0 or steps > _MAX_SEARCH_STEPS:  # e^(e d) < 2e-22: H0 is p <= delta, not rejected
            return -math.inf
    if rejects(hi):  # never at the point estimate; kept for safety
        return hi
    tol = max(1e-4 * abs(hat), 1e-6 / d)
    for _ in range(_MAX_SEARCH_STEPS):
        if not hi - lo > tol:
            break
        mid = 0.5 * (lo + hi)
        if rejects(mid):
            lo = mid
        else:
            hi = mid
    if lo > claimed and not rejects(claimed):
        return claimed  # the p-value was not monotone between: no violation certified
    return lo


class _ClaimedMechanism:
    """The mechanism with the claimed eps/delta of the audit (for the exact auditor); every other
    attribute (log_density, f, B, eta, noise) is the mechanism's own, and its mpmath log-density is
    the mechanism's (its own ``log_density_mp`` or its class's reference, TypeError if none)."""

    def __init__(self, mech: Any, eps: float, delta: float) -> None:
        self._mech = mech
        self.eps = eps
        self.delta = delta
        self.name = getattr(mech, "name", type(mech).__name__)

    def log_density_mp(self, x: Any, y: Any, dps: int) -> Any:
        return log_density_mp(self._mech, x, y, dps)

    def __getattr__(self, item: str) -> Any:
        return getattr(self._mech, item)


def _exact_pair_loss(mech: Any, x: Any, xp: Any, draws: FloatArray,
                     dps: int) -> tuple[float, str | None, float, str, bool]:
    """sup_y ln p_x(y) - ln p_x'(y) on a sinh grid around the draws plus a bounded local search;
    (float value, mpmath value or None, maximiser y, note, whether the log-density was NaN somewhere).
    A +inf loss (support mismatch) stays +inf."""
    med = float(np.median(draws))
    iqr = float(np.subtract(*np.percentile(draws, [75, 25]))) or 1.0
    y = np.unique(np.concatenate([med + iqr * np.sinh(np.linspace(-25.0, 25.0, 4001)),
                                  np.quantile(draws, np.linspace(0, 1, 501))]))
    xa = np.asarray(x, dtype=float)
    xpa = np.asarray(xp, dtype=float)
    X = np.repeat(xa[None, ...], y.size, axis=0) if xa.ndim else np.full(y.size, float(xa))
    XP = np.repeat(xpa[None, ...], y.size, axis=0) if xpa.ndim else np.full(y.size, float(xpa))
    with np.errstate(all="ignore"):
        lp = np.asarray(mech.log_density(X, y), dtype=float)
        lq = np.asarray(mech.log_density(XP, y), dtype=float)
        L = lp - lq
    # +inf is an output of positive density under x and zero under x' (a support mismatch: an
    # infinite loss, never dropped); an output of density 0 under both (-inf - -inf) carries no
    # mass and is no loss; any other NaN (a NaN log-density, +inf - +inf) is reported, not a pass
    outside = (lp == -np.inf) & (lq == -np.inf)
    n_nan = int(np.count_nonzero(np.isnan(L) & ~outside))
    L = np.where(np.isnan(L), -np.inf, L)
    j = int(np.argmax(L))
    best, yb = float(L[j]), float(y[j])
    lo, hi = float(y[max(j - 1, 0)]), float(y[min(j + 1, y.size - 1)])
    if hi > lo and math.isfinite(best):
        def neg(v: float) -> float:
            with np.errstate(all="ignore"):
                val = float(np.asarray(privacy_loss(mech, X[:1], XP[:1], np.array([v])), dtype=float)[0])
            return -val if math.isfinite(val) else math.inf

        res = optimize.minimize_scalar(neg, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
        if -res.fun > best:
            best, yb = float(-res.fun), float(res.x)
    note = (f"the log-density is NaN at {n_nan} of {y.size} outputs of pair x={_fmt(x)}, x'={_fmt(xp)} "
            "(no loss there: not a pass)") if n_nan else ""
    try:
        xs = float(xa) if xa.ndim == 0 else xa
        xps = float(xpa) if xpa.ndim == 0 else xpa
        with mpmath.workdps(dps):
            Lm = privacy_loss_mp(mech, xs, xps, mpmath.mpf(yb), dps)
            mp_str = mpmath.nstr(Lm, 20)
    except TypeError as exc:
        mp_str, note = None, "; ".join(t for t in (note, f"exact loss not re-evaluated in mpmath: {exc}") if t)
    return best, mp_str, yb, note, n_nan > 0


def audit_blackbox_mechanism(
    release: Callable[..., Any],
    claimed_eps: float,
    metric: str | None = None,
    *,
    pairs: Sequence[tuple[Any, Any]] | None = None,
    relation: Relation | None = None,
    search: InputSearch | None = None,
    vectorised: bool | None = None,
    events: Sequence[str] = ("support", "projection", "classifier"),
    claimed_delta: float = 0.0,
    budget: int = DEFAULT_MECHANISM_BUDGET,
    n_bins: int = 40,
    false_alarm: float = 1e-3,
    rng: np.random.Generator | int = 0,
    density: Any = None,
    Lambda: float = math.inf,
    neighbourhood: EuclideanNeighbourhood | HammingNeighbourhood | None = None,
    dps: int = 50,
    progress: Callable[[str], None] | None = None,
    chunk: int = DEFAULT_CHUNK,
    executor: Executor | None = None,
) -> MechanismAuditReport:
    """Empirical lower bound on the privacy loss of a black-box ``release(x, rng)`` (module docstring).

    ``claimed_eps`` (per unit distance for ``metric="euclidean"``, GP of 004 Def. 5; per differing
    record for ``"hamming"``, DP) and ``claimed_delta`` are the claim; ``pairs`` the neighbouring
    inputs (x, x') to test (distance in (0, Lambda]); ``budget`` the number of draws per input
    (half for choosing the event, half for the estimate); ``false_alarm`` the probability beta
    that the reported lower bound exceeds the true eps.  ``density``: a mechanism object with
    ``log_density(x, y)`` for the exact side (default: ``release.__self__`` when it has one;
    ``False`` to skip).  ``neighbourhood``: for the exact worst-case search (default, Euclidean:
    the box spanned by the pairs with radius ``Lambda``).

    ``chunk``: draws per task.  The selection draws of each input are one chunk in this process
    (min(n/10, chunk) of them); the estimation draws are split into chunks of at most ``chunk``, each
    drawn from its own child seed of the master seed (:func:`verify.parallel.spawn_seeds`) and returned
    as counts over the chosen events only, so no task holds more than one chunk of draws.  ``executor``
    (a :class:`verify.parallel.Executor`; default serial) runs the chunks: the counts, hence every
    number of the report, are the same serially and on a cluster for the same seed.

    ``relation`` (:mod:`verify.audit.blackbox.relations`): the neighbourhood relation the claim is
    about (substitute-one, add/remove-one, query answers within Delta in l_inf or l_1, euclidean
    Geo-Privacy, p-neighbouring); the claim is eps per the relation's unit and a pair that is not related
    is refused (ValueError showing its distance).  Without it, ``metric`` names it ("euclidean" ->
    :class:`~verify.audit.blackbox.relations.Euclidean` (Lambda), "hamming" ->
    :class:`~verify.audit.blackbox.relations.Hamming`); with neither, scalar inputs are euclidean and
    vector inputs are refused (query answers, datasets and points differ in what a unit is).

    Outputs of any shape (a vector, a tuple of mixed kinds, booleans) are audited jointly by
    :func:`verify.audit.blackbox.shaped.audit_shaped_pairs` (the event ``events`` families of
    :mod:`verify.audit.blackbox.events`); scalar outputs of a symmetric relation by the histogram events
    above.  ``vectorised``: for vector outputs, True declares that ``release`` maps a stack of k inputs to
    k outputs (never guessed); for scalar outputs it is detected.

    ``pairs=None``: input search (:mod:`verify.audit.blackbox.input_search`) from ``search`` (an
    :class:`~verify.audit.blackbox.input_search.InputSearch`: the base input and the share of the budget
    spent screening candidate pairs on separate draws); the final bounds are for the pair it names.
    """
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    eps = check_positive("claimed_eps", claimed_eps)
    delta = check_nonnegative("claimed_delta", claimed_delta)
    if delta >= 1:
        raise ValueError(f"claimed_delta must be in [0, 1); got claimed_delta={delta!r}")
    if metric is not None and metric not in _METRICS:
        raise ValueError(f"metric must be one of {_METRICS}; got metric={metric!r}")
    if relation is not None and not isinstance(relation, Relation):
        raise TypeError(f"relation must be a verify.audit.blackbox.relations.Relation; got {type(relation).__name__}")
    if relation is not None and metric is not None:
        raise ValueError(f"pass either relation or metric, not both; got metric={metric!r}, relation={relation!r}")
    n = check_integer("budget", budget, minimum=200)
    if n > MAX_MECHANISM_BUDGET:
        raise ValueError(f"budget must be in [200, {MAX_MECHANISM_BUDGET}] draws per input; got budget={n}")
    n_bins = check_integer("n_bins", n_bins, minimum=2)
    beta = check_probability("false_alarm", false_alarm)
    Lam = math.inf if Lambda == math.inf else check_positive("Lambda", Lambda)
    dps = check_integer("dps", dps, minimum=20)
    chunk = check_integer("chunk", chunk, minimum=1000)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor must be a verify.parallel.Executor; got {type(executor).__name__}")
    if relation is None:
        if metric is None:
            some = list(pairs or []) or ([(search.base, search.base)] if search is not None else [])
            if any(np.asarray(v, dtype=float).size != 1 for pr in some for v in pr):
                raise ValueError("vector inputs need a declared neighbourhood relation: pass relation=QueryAnswers(...) "
                                 "(query answers), SubstituteOne() / AddRemoveOne() (datasets), Euclidean(Lambda) "
                                 "(Geo-Privacy) or metric='euclidean' / 'hamming'; eps is per the relation's unit")
            metric = "euclidean"
        relation = relation_from_metric(metric, Lam)
    elif isinstance(relation, Euclidean) and math.isfinite(Lam) and Lam != relation.Lambda:
        raise ValueError(f"Lambda={Lam!r} differs from relation.Lambda={relation.Lambda!r}")
    metric = "euclidean" if isinstance(relation, Euclidean) else "hamming" if isinstance(relation, Hamming) else relation.name
    seed = rng if isinstance(rng, (int, np.integer)) else "generator"
    gen = check_rng(rng)
    pairs_tried: tuple[str, ...] = ()
    screen_draws: list[tuple[FloatArray, FloatArray]] = []  # the kept pairs' screening draws (shaped outputs)
    pre_notes: list[str] = []
    if pairs is None:
        if search is None:
            raise ValueError("pairs=None needs search=InputSearch(base=...) (the input search) or a list of pairs")
        search_gen, gen = gen.spawn(2)
        pair_list, pairs_tried, n = search_pairs(release, relation, search, eps, delta, n, beta, search_gen,
                                                 vectorised, events, say, kept_draws=screen_draws)
        pre_notes.append(f"input search: {len(pairs_tried)} candidate pairs screened with {search.share:.0%} of the "
                         f"budget on separate draws; the bounds are for the pair(s) it kept, on fresh draws "
                         f"({n} per input)")
    else:
        pair_list = list(pairs)
    if not pair_list:
        raise ValueError("pairs must list at least one pair (x, x') of neighbouring inputs")
    dists = []
    for i, pr in enumerate(pair_list):
        try:
            x, xp = pr
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{i}] must be a pair (x, x'); got {pr!r}") from None
        dists.append(relation.check_pair(x, xp, f"pairs[{i}]"))
    mech = density if density is not None else getattr(release, "__self__", None)
    if density not in (None, False) and not callable(getattr(density, "log_density", None)):
        raise TypeError(f"density must expose log_density(x, y); got {type(density).__name__}")
    if neighbourhood is not None and not isinstance(neighbourhood, (EuclideanNeighbourhood, HammingNeighbourhood)):
        raise TypeError(f"neighbourhood must be a EuclideanNeighbourhood or HammingNeighbourhood of "
                        f"verify.audit.exact; got {type(neighbourhood).__name__}")
    probe_gen, sample_gen, exact_gen = gen.spawn(3)
    rel = _Release(release, pair_list[0][0], probe_gen, [v for pr in pair_list for v in pr])
    rng_use = check_rng_use(release, pair_list[0][0], seed=int(seed) if isinstance(seed, (int, np.integer)) else 0)
    if not rel.scalar or not relation.symmetric:
        from .shaped import audit_shaped_pairs  # noqa: PLC0415 - shaped imports this module

        vec = bool(vectorised) if not rel.scalar else rel.vectorised
        say(f"outputs of shape {getattr(rel, 'first_shape', ())} audited jointly ({relation.describe()}; "
            f"{'vectorised' if vec else 'one draw per call'})")
        rep_ = audit_shaped_pairs(release, eps, delta, relation, pair_list, dists, n=n, beta=beta, gen=sample_gen,
                                  vectorised=vec, families=events, seed=seed, progress=say,
                                  notes=pre_notes + ([str(rng_use.warning)] if rng_use.ignores_rng else []), t0=t0,
                                  extra={"pairs_tried": pairs_tried, "selection_draws": screen_draws})
        return dataclasses.replace(rep_, rng_use=rng_use,
                                   output_shape="scalar" if rel.scalar else "vector")
    n_sel = min(max(n // 10, 100), chunk)  # the events need few draws to be chosen; the bounds need many
    n_est = n - n_sel
    # Per pair, 2 events, each chosen over both directions on the selection draws (the one for the eps
    # bound, the one for the delta bound): each holds beta / K (K = 2 x pairs) -- the joint exact test
    # inverted in eps at beta/K for the eps event, the family of joint exact tests at beta/K (split over
    # its events) for the delta event: a union bound over all of them.
    K = 2 * len(pair_list)
    level = beta / (2 * K)
    estimates: list[PairEstimate] = []
    notes: list[str] = pre_notes + ([str(rng_use.warning)] if rng_use.ignores_rng else [])
    draws_by_pair: list[FloatArray] = []
    discrete = rel.discrete
    # Random streams: per pair, one child seed for the selection draws of x and of x', and one per
    # chunk of estimation draws of x and of x' (spawn_seeds of a master drawn from sample_gen): chunk j
    # draws the same numbers wherever and whenever it runs, so the counts do not depend on the executor.
    chunks = list(iter_chunks(n_est, chunk))
    per_pair = 2 + 2 * len(chunks)
    master = [int(v) for v in sample_gen.integers(0, 2**32, size=4, dtype=np.uint64)]
    seeds = spawn_seeds(master, len(pair_list) * per_pair)
    plans: list[dict[str, Any]] = []
    tasks: list[tuple[Any, ...]] = []
    # 1. selection (in this process): the events and the tail thresholds of each pair
    for i, ((x, xp), dd) in enumerate(zip(pair_list, dists, strict=True)):
        say(f"pair {i + 1}/{len(pair_list)}: {n_sel} selection draws per input")
        ps = seeds[i * per_pair:(i + 1) * per_pair]
        t_sel = time.perf_counter()
        sx = rel.draw(x, n_sel, np.random.default_rng(ps[0]))
        sxp = rel.draw(xp, n_sel, np.random.default_rng(ps[1]))
        if i == 0:
            # what the budget will cost: the estimation draws at the rate of the selection draws
            rate = 2 * n_sel / max(time.perf_counter() - t_sel, 1e-9)
            est_s = 2 * n_est * len(pair_list) / rate
            msg = (f"estimate: {2 * n_est * len(pair_list)} estimation draws ({n_est} per input and pair, "
                   f"chunks of <= {chunk}) at ~{rate:.3g} draws/s: about {est_s:.3g} s serially")
            say(msg)
            if est_s > 600:
                notes.append(msg)
        for arr in (sx, sxp):
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"release returned a non-finite value at pair {i} (x={x!r} or x'={xp!r})")
        if discrete and not all(np.all(arr == np.round(arr)) for arr in (sx, sxp)):
            discrete = False
            notes.append("the release returned integers on the probe but not on every draw: continuous events used")
        pooled = np.concatenate([sx, sxp])
        draws_by_pair.append(pooled)
        # integer outputs: one bin (e_(i-1), e_i] per observed support point e_i (the point and the unobserved
        # integers just below it), so a tail of bins is a true tail {y <= e_k} / {y > e_k} of the integers;
        # with many support points, quantile bins instead (and no ratio sets)
        edges = np.unique(pooled) if discrete else _bin_edges(pooled, n_bins)
        ratio_sets = discrete
        if discrete and edges.size > _MAX_SUPPORT_BINS:
            # the candidate masks are (5 x bins) x bins booleans: beyond _MAX_SUPPORT_BINS support points
            # the bins are quantile bins of the integers and the ratio sets are left out -- said in the report
            notes.append(f"pair {i}: {edges.size} distinct integer outputs in the selection draws (> {_MAX_SUPPORT_BINS}): "
                         f"quantile bins of the integers and their tails used, no likelihood-ratio sets "
                         f"(verify.audit.blackbox.events counts the exact support without a cap: pass the "
                         f"output as a 1-element tuple to use it)")
            edges = np.unique(np.quantile(pooled, np.linspace(0, 1, _MAX_SUPPORT_BINS + 1)))
            ratio_sets = False
        a = _bin_counts(edges, sx)
        b = _bin_counts(edges, sxp)
        # the likelihood-ratio sets (integer outputs) are ordered by the counts of the first half of the
        # selection draws and scored by the second half: scored on the draws that ordered them, a prefix
        # of the points with the largest empirical ratio looks far better than it is (selection bias)
        h = n_sel // 2
        a1 = _bin_counts(edges, sx[:h])
        b1 = _bin_counts(edges, sxp[:h])
        masks, kinds = _event_masks(a1, b1, ratio_sets)
        tail_or_set = np.array([k != "bin" for k in kinds])
        is_ratio = np.array([k == "ratio" for k in kinds])
        A_all, B_all = masks @ a, masks @ b
        A_sc = np.where(is_ratio, A_all - masks @ a1, A_all)  # the scoring counts of each candidate
        B_sc = np.where(is_ratio, B_all - masks @ b1, B_all)
        n_sc = np.where(is_ratio, n_sel - h, n_sel).astype(float)
        c = _exp_ratio(eps * dd)
        if math.isinf(c):
            note = (f"eps * dist = {eps * dd:g} > {_MAX_LOG_C:g} at pair {i}: e^(eps d) is not formed and the delta "
                    "bound at the claimed eps is -inf there (no delta event can be certified)")
            notes.append(note)
        sel_dirs = ((A_sc, B_sc), (B_sc, A_sc))
        best_eps: tuple[float, int, int] = (-math.inf, 0, 0)
        best_delta: tuple[float, int, int] = (-math.inf, 0, 0)
        best_side: tuple[float, int, str] = (-math.inf, 0, "left")
        is_side = {side: np.array([k == side for k in kinds]) for side in ("left", "right")}
        z_lev = float(stats.norm.isf(2 * level))
        z_eps = z_lev  # the eps event is tested at level beta / K = 2 level
        z_sel = math.sqrt(2.0 * math.log(2.0 * len(kinds)))
        for di, (A, Bc) in enumerate(sel_dirs):
            # eps event: over both directions, the largest *predicted* lower bound on the estimation draws,
            # ln((p - delta)/q) - z_est sd_est(n_est) - z_sel sd_sel(n_sel) from the scoring counts: the
            # event with the most statistical power at the estimation size (not the largest empirical
            # ratio, and not the best bound at the selection size, which prefers events of large mass
            # and small ratio); z_sel = sqrt(2 ln N) standard deviations of the selection estimate (about the
            # largest of N standard normals, N = the candidates of both directions) guard against the
            # winner's curse among many candidates (single bins of a few draws look best by chance)
            pa, pb = (A + 0.5) / (n_sc + 1.0), (Bc + 0.5) / (n_sc + 1.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                rel_var = (1.0 - pa) / pa + (1.0 - pb) / pb if delta == 0 else (
                    pa * (1.0 - pa) / np.maximum(pa - delta, 0.0) ** 2 + (1.0 - pb) / pb)
                score = (np.log(np.maximum(pa - delta, 0.0)) - np.log(pb)
                         - z_eps * np.sqrt(rel_var / n_est) - z_sel * np.sqrt(rel_var / n_sc))
            score = np.where(np.isnan(score), -np.inf, score)
            j = int(np.argmax(score))
            if di == 0 or score[j] > best_eps[0]:
                best_eps = (float(score[j]), di, j)
            # delta event: among the tails (and ratio sets), the largest predicted lower bound on the
            # estimation draws, p - e^(eps d) q - z_level sd_est from the selection counts (the hockey-stick
            # set S = {L > eps d} is where p - e^(eps d) q peaks)
            pa, pb = A / n_sc, Bc / n_sc
            with np.errstate(divide="ignore", invalid="ignore"):
                pred = pa - c * pb - z_lev * np.sqrt((pa * (1 - pa) + c * c * pb * (1 - pb) + 1.0 / n_sc) / n_est)
            pred = np.where(np.isnan(pred) | ~tail_or_set, -np.inf, pred)
            jd = int(np.argmax(pred))
            if di == 0 or pred[jd] > best_delta[0]:
                best_delta = (float(pred[jd]), di, jd)
            for side in ("left", "right"):
                psd = np.where(is_side[side], pred, -np.inf)
                if psd.size and float(np.max(psd)) > best_side[0]:
                    best_side = (float(np.max(psd)), di, side)
        # the tails of the selected side at the fixed pooled-quantile levels _TAIL_LEVELS (thresholds from
        # the selection draws), counted on the estimation draws
        side = best_side[2]
        thresholds = tuple(float(np.quantile(pooled, lv if side == "left" else 1.0 - lv)) for lv in _TAIL_LEVELS)
        plans.append(dict(x=x, xp=xp, dd=dd, c=c, sx=sx, sxp=sxp, edges=edges, integer=discrete,
                          masks=masks, A_all=A_all, B_all=B_all, best_eps=best_eps, best_delta=best_delta,
                          best_side=best_side, thresholds=thresholds))
        for k, inp in enumerate((x, xp)):
            for jc, (_start, size) in enumerate(chunks):
                tasks.append((i, k, (release, rel.vectorised, inp, size, ps[2 + k * len(chunks) + jc], edges,
                                     thresholds, side)))
    # 2. estimation: every chunk of fresh draws one task (counts only), merged in task order
    ex_ = executor if executor is not None else SerialExecutor()
    say(f"estimation: {len(tasks)} chunk(s) of <= {chunk} draws ({n_est} per input and pair) on {ex_.describe()}")
    results = ex_.map(_count_chunk, [t[2] for t in tasks], label="blackbox-chunk")
    merged: dict[tuple[int, int], list[Any]] = {}
    for (i, k, _), (bins, tails, n_bad, integer) in zip(tasks, results, strict=True):
        if n_bad:
            x, xp = pair_list[i]
            raise ValueError(f"release returned a non-finite value at pair {i} (x={x!r} or x'={xp!r})")
        acc = merged.setdefault((i, k), [0, 0, True])
        acc[0] = acc[0] + np.asarray(bins, dtype=np.int64)
        acc[1] = acc[1] + np.asarray(tails, dtype=np.int64)
        acc[2] = acc[2] and bool(integer)
    for i, pl in enumerate(plans):
        x, xp, dd, c = pl["x"], pl["xp"], pl["dd"], pl["c"]
        sx, sxp, edges, integer, masks = pl["sx"], pl["sxp"], pl["edges"], pl["integer"], pl["masks"]
        ea, tails_x, int_x = merged[(i, 0)]
        eb, tails_xp, int_xp = merged[(i, 1)]
        if discrete and not (int_x and int_xp):
            discrete = False
            notes.append("the release returned integers on the probe and the selection draws but not on every "
                         "estimation draw: the events stay unions of the bins (e_(i-1), e_i] of the observed "
                         "support points (their counts are still exact binomial counts)")
        EA_all, EB_all = masks @ ea, masks @ eb
        A_all, B_all = pl["A_all"], pl["B_all"]
        directions = ((A_all, B_all, EA_all, EB_all, x, xp), (B_all, A_all, EB_all, EA_all, xp, x))
        # estimation, eps event: two Clopper-Pearson bounds on fresh draws
        _, di, j = pl["best_eps"]
        A, Bc, EA, EB, xa, xb = directions[di]
        k1, k2 = int(EA[j]), int(EB[j])
        p1_cp, _ = clopper_pearson(k1, n_est, level)
        _, p2_cp = clopper_pearson(k2, n_est, level)
        p1_lo, p2_hi = float(p1_cp), float(p2_cp)
        eps_lo = _eps_lower_joint(k1, k2, n_est, dd, delta, 2 * level, eps)
        with np.errstate(divide="ignore", invalid="ignore"):
            eps_hat = (math.log(k1 / n_est) - math.log(k2 / n_est)) / dd if k1 > 0 and k2 > 0 else (
                math.inf if k1 > 0 else -math.inf)
        estimates.append(PairEstimate(xa, xb, dd, _mask_str(masks[j], edges, integer), (int(A[j]), int(Bc[j])),
                                      (k1, k2), n_est, p1_lo, p2_hi, eps_lo, eps_hat, 2 * level, criterion="eps",
                                      delta_lower=p1_lo - c * p2_hi, claimed_eps=eps))
        # estimation, delta events: the selected event and the tails of the selected side and direction at
        # the fixed pooled-quantile levels _TAIL_LEVELS (their thresholds come from the selection draws;
        # testing a few fixed levels beats choosing one on noisy selection counts), each by the joint exact
        # test of p - e^(eps d) q at level 2 level / (1 + len(_TAIL_LEVELS)) on fresh draws
        _, di, jd = pl["best_delta"]
        A, Bc, EA, EB, xa, xb = directions[di]
        fam = [(int(EA[jd]), int(EB[jd]), di, _mask_str(masks[jd], edges, integer), (int(A[jd]), int(Bc[jd])))]
        _, dsi, side = pl["best_side"]
        s_own, s_other = (sx, sxp) if dsi == 0 else (sxp, sx)
        t_own, t_other = (tails_x, tails_xp) if dsi == 0 else (tails_xp, tails_x)
        for li, t in enumerate(pl["thresholds"]):
            if side == "left":
                cnt = lambda arr, t=t: int(np.count_nonzero(arr <= t))  # noqa: E731
                ev = _event_str(-math.inf, t)
            else:
                cnt = lambda arr, t=t: int(np.count_nonzero(arr > t))  # noqa: E731
                ev = _event_str(t, math.inf)
            fam.append((int(t_own[li]), int(t_other[li]), dsi, ev, (cnt(s_own), cnt(s_other))))
        a_d = 2 * level / len(fam)
        z_d = float(stats.norm.isf(a_d))

        def plug(k1v: int, k2v: int, c: float = c, z_d: float = z_d) -> float:
            pv, qv = k1v / n_est, k2v / n_est
            return pv - c * qv - z_d * math.sqrt((pv * (1 - pv) + c * c * qv * (1 - qv) + 1.0 / n_est) / n_est)

        # invert the event with the best normal-approximation bound; if its exact bound does not reach the
        # claimed delta, the verdict is the test at the claimed delta of each event in turn (and the first
        # that rejects is inverted too): every event's bound is valid, so the largest may be reported
        order = sorted(range(len(fam)), key=lambda i: -plug(fam[i][0], fam[i][1]))
        lbs = {order[0]: _delta_lower_joint(fam[order[0]][0], fam[order[0]][1], n_est, c, a_d)}
        if lbs[order[0]] <= delta:
            for i in order[1:]:
                if (fam[i][0] - c * fam[i][1] > delta * n_est
                        and _joint_pvalue(fam[i][0], fam[i][1], n_est, c, delta, a_d) <= a_d):
                    lbs[i] = _delta_lower_joint(fam[i][0], fam[i][1], n_est, c, a_d)
                    break
        ib = max(lbs, key=lambda i: lbs[i])
        k1d, k2d, ddi, ev, selc = fam[ib]
        xa, xb = (x, xp) if ddi == 0 else (xp, x)
        p1d, _ = clopper_pearson(k1d, n_est, a_d / 2)
        _, p2d = clopper_pearson(k2d, n_est, a_d / 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            eps_hat_d = (math.log(k1d / n_est) - math.log(k2d / n_est)) / dd if k1d > 0 and k2d > 0 else (
                math.inf if k1d > 0 else -math.inf)
        estimates.append(PairEstimate(xa, xb, dd, ev, selc, (k1d, k2d), n_est, float(p1d), float(p2d),
                                      -math.inf, eps_hat_d, a_d, criterion="delta", delta_lower=lbs[ib],
                                      claimed_eps=eps))
    eps_lower = max(e.eps_lower for e in estimates)
    delta_lower = max(e.delta_lower for e in estimates)

    # exact side ------------------------------------------------------------------------------------
    exact: dict[str, Any] | None = None
    exact_outcome: str | None = None
    certificate: str | None = None
    if density is not False and mech is not None and callable(getattr(mech, "log_density", None)):
        say("exact side: privacy loss from the density")
        claimed = _ClaimedMechanism(mech, eps, delta)
        exact = {"source": "verify.audit.exact (exact density, mpmath re-evaluation)"}
        pair_vals = []
        pair_outcomes: list[str] = []
        upd: list[PairEstimate] = []
        loss_cache: dict[tuple[str, str], tuple[float, str | None, float, str, bool]] = {}
        for k, est in enumerate(estimates):
            draws = draws_by_pair[k // 2]
            if delta > 0:
                upd.append(est)  # the pure loss bounds nothing for an (eps, delta) claim
                continue
            key = (repr(est.x), repr(est.x_prime))
            try:
                if key not in loss_cache:  # one exact loss per direction, shared by its events
                    loss_cache[key] = _exact_pair_loss(claimed, est.x, est.x_prime, draws, dps)
                val, mp_str, yb, note, had_nan = loss_cache[key]
            except Exception as exc:  # noqa: BLE001 - the density of a third-party object may fail
                msg = f"exact loss at pair {k // 2} failed: {type(exc).__name__}: {exc}"
                if msg not in notes:
                    notes.append(msg)
                upd.append(est)
                continue
            if note and note not in notes:
                notes.append(note)
            eps_ex = val / est.dist
            pair_vals.append(eps_ex)
            mp_per = None
            certified = False
            if mp_str is not None:
                with mpmath.workdps(dps):
                    mp_per = mpmath.nstr(mpmath.mpf(mp_str) / mpmath.mpf(est.dist), 20)
                    slack_mp = mpmath.mpf(mp_str) - mpmath.mpf(eps) * mpmath.mpf(est.dist)
                    certified = bool(slack_mp > cert_threshold(dps, eps * est.dist))
                if certified and certificate is None:
                    certificate = (f"certified violation at an audited pair: loss - eps*d = {mpmath.nstr(slack_mp, 20)} "
                                   f"(mpmath {dps} digits) at x={_fmt(est.x)}, x'={_fmt(est.x_prime)}, y={yb:.6g}")
            # a float loss and its mpmath re-evaluation that disagree settle nothing (two different
            # functions); a NaN log-density leaves outputs unjudged: both INCONCLUSIVE, never a pass
            disagreement = mp_str is not None and AuditResult.disagree(val, mp_str)
            outcome = AuditResult.decide(certified, val - eps * est.dist, mp_str is not None,
                                         disagreement=disagreement)
            if outcome == "pass" and had_nan:
                outcome = "inconclusive"
            if disagreement and not certified:
                msg = (f"float loss {val:.6g} and mpmath loss {mp_str} disagree at x={_fmt(est.x)}, "
                       f"x'={_fmt(est.x_prime)}, y={yb:.6g}: log_density and log_density_mp are not the same function")
                if msg not in notes:
                    notes.append(msg)
            pair_outcomes.append(outcome)
            upd.append(dataclasses.replace(est, eps_exact=eps_ex, eps_exact_mp=mp_per, exact_y=yb))
        estimates = upd
        if pair_vals:
            exact["pairs_max"] = max(pair_vals)
        nb = neighbourhood
        if nb is None and isinstance(relation, Euclidean):
            pts = np.array([np.atleast_1d(np.asarray(p, dtype=float)) for pr in pair_list for p in pr])
            lo_b, hi_b = float(pts.min()), float(pts.max())
            if not hi_b > lo_b:
                hi_b = lo_b + 1.0
            nb = EuclideanNeighbourhood(lo_b, hi_b, pts.shape[1], Lam)
        if nb is not None:
            say("exact side: worst-case search of verify.audit.exact.audit_density_mechanism")
            try:
                res = audit_density_mechanism(claimed, nb, rng=exact_gen)
                exact["audit"] = res.to_json()
                exact["audit_summary"] = res.summary()
                exact["neighbourhood"] = repr(nb)
                pair_outcomes.append(res.outcome)
                if res.mode == "approx":
                    exact["delta_hs"] = res.witness.get("delta_hs_mp", res.witness.get("delta_hs"))
                if res.violated:
                    certificate = f"worst-case search: {res.summary()}"
            except (TypeError, ValueError) as exc:
                notes.append(f"exact worst-case audit not run: {exc}")
        else:
            notes.append("exact worst-case search not run: pass neighbourhood=HammingNeighbourhood(...) "
                         "for the Hamming metric")
        # pure claims: the loss at the audited pairs and the worst-case search; (eps, delta) claims: the
        # hockey-stick divergence of the worst-case search (verify.audit.exact.curve), never the pure loss
        if pair_outcomes:
            exact_outcome = ("violated" if "violated" in pair_outcomes else
                             "inconclusive" if "inconclusive" in pair_outcomes else "pass")
    say("done")
    return MechanismAuditReport(eps, delta, relation.describe(), n, seed, beta, tuple(estimates), eps_lower, rel.vectorised,
                                exact, tuple(notes), time.perf_counter() - t0,
                                exact_outcome=exact_outcome,
                                exact_certificate=certificate if exact_outcome == "violated" else None,
                                rng_use=rng_use, delta_lower=delta_lower, discrete=discrete,
                                relation_unit=relation.unit(), pairs_tried=pairs_tried)
