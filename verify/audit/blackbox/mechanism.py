"""Black-box privacy audit of ``release(x, rng)``: a statistically valid lower bound on eps.

Claim audited (pure or approximate, 004 Def. 5 for GP with the Euclidean metric; DP with the
Hamming metric, 004 Sec. 2.3 / 002 eq. (1)): for the chosen neighbouring inputs x, x' at distance
dist(x, x') and every measurable S,

    P[M(x) in S] <= e^{eps dist(x, x')} P[M(x') in S] + delta.

Hence for any fixed event S with P[M(x') in S] > 0,

    eps >= ln((P[M(x) in S] - delta) / P[M(x') in S]) / dist(x, x'),

and a lower confidence bound p_lo on P[M(x) in S] and an upper confidence bound p_hi on
P[M(x') in S] give the lower bound eps_lo = ln((p_lo - delta) / p_hi) / dist on the mechanism's
true eps.  The procedure (in the spirit of sampling auditors such as StatDP / DP-Sniper):

1. selection: n/2 draws of M(x) and of M(x'); a histogram on the pooled quantiles (``n_bins``
   bins) proposes the events S: every bin, every left tail (-inf, e_k] and right tail (e_k, inf);
   for each direction (x vs x' and x' vs x) the event with the largest Clopper-Pearson lower
   bound of the log ratio on the selection draws is chosen;
2. estimation: n/2 fresh draws of each; one-sided Clopper-Pearson bounds at level
   beta / (2 M) each, M = 2 x (number of pairs) directions, so by the union bound every eps_lo
   reported holds simultaneously with probability >= 1 - beta (beta = ``false_alarm``): the
   selection uses other draws, so the chosen S is fixed given them.

A violation is *certified at confidence 1 - beta* when the largest eps_lo exceeds the claimed eps.

When the mechanism also exposes an exact density (``log_density(x, y)``; e.g. the ``release``
bound method of :class:`smoothsens_core.mechanism.SmoothSensitivityMechanism`), the report adds
the exact privacy loss at each audited pair, sup_y [ln p_x(y) - ln p_x'(y)] / dist (grid plus
local search, re-evaluated in mpmath by :func:`verify.audit.exact.privacy_loss_mp`): no valid
sampling bound at that pair can exceed it; and the worst case over the neighbourhood found by
the exact auditor :func:`verify.audit.exact.audit_density_mechanism`, with its mpmath certificate.

Verdict (pure claims; for delta > 0 the exact loss is reported, not judged): FAIL when either side
certifies a violation -- the sampling bound at confidence 1 - beta, or the exact side in mpmath
(at an audited pair or anywhere in the neighbourhood); INCONCLUSIVE when the exact side finds a
float excess it cannot certify (no mpmath density); PASS otherwise.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy import optimize, stats

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
from ._callables import check_arity
from verify.serialise import jsonable

__all__ = ["PairEstimate", "MechanismAuditReport", "audit_blackbox_mechanism", "clopper_pearson",
           "DEFAULT_MECHANISM_BUDGET"]

FloatArray = NDArray[np.float64]
DEFAULT_MECHANISM_BUDGET = 200_000
_METRICS = ("euclidean", "hamming")


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
class PairEstimate:
    """The audit of one ordered pair (x, x'): chosen event, counts, bounds and (if known) exact loss."""

    x: Any
    x_prime: Any
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

    def describe(self) -> str:
        ex = ""
        if self.eps_exact is not None:
            ex = f"; exact loss/dist at this pair {self.eps_exact:.6g}"
            if self.eps_exact_mp:
                ex += f" (mpmath {self.eps_exact_mp[:12]})"
        return (f"x={_fmt(self.x)} vs x'={_fmt(self.x_prime)} (dist {self.dist:.6g}), S = {self.event}: "
                f"{self.estimation_counts[0]}/{self.n_estimation} vs {self.estimation_counts[1]}/{self.n_estimation}; "
                f"eps >= {self.eps_lower:.6g} (estimate {self.eps_hat:.6g}){ex}")

    def to_json(self) -> dict[str, Any]:
        return {"x": jsonable(self.x), "x_prime": jsonable(self.x_prime), "dist": self.dist, "event": self.event,
                "selection_counts": list(self.selection_counts), "estimation_counts": list(self.estimation_counts),
                "n_estimation": self.n_estimation, "p_x_lower": self.p_x_lower,
                "p_x_prime_upper": self.p_x_prime_upper, "eps_lower": jsonable(self.eps_lower),
                "eps_hat": jsonable(self.eps_hat), "level_per_bound": self.level,
                "eps_exact": jsonable(self.eps_exact), "eps_exact_mp": self.eps_exact_mp,
                "exact_y": self.exact_y}


@dataclass(frozen=True)
class MechanismAuditReport:
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

    @property
    def sampling_violated(self) -> bool:
        """The claimed eps is refuted by the sampling bound at confidence 1 - false_alarm."""
        return self.eps_lower > self.claimed_eps

    @property
    def outcome(self) -> str:
        """"violated" if either side certifies a violation, "inconclusive" if the exact side found an
        excess it could not certify, "pass" otherwise."""
        if self.sampling_violated or self.exact_outcome == "violated":
            return "violated"
        if self.exact_outcome == "inconclusive":
            return "inconclusive"
        return "pass"

    @property
    def violated(self) -> bool:
        """The claim is refuted: by the sampling bound (confidence 1 - false_alarm) or in mpmath."""
        return self.outcome == "violated"

    @property
    def inconclusive(self) -> bool:
        return self.outcome == "inconclusive"

    @property
    def passed(self) -> bool:
        return self.outcome == "pass"

    def summary(self) -> str:
        dl = f", delta={self.claimed_delta:g}" if self.claimed_delta else ""
        lines = [f"mechanism audit (black box): claimed eps={self.claimed_eps:g}{dl} ({self.metric}); "
                 f"{self.n} draws per input ({'vectorised' if self.vectorised else 'one per call'}), "
                 f"confidence {1 - self.false_alarm:g}, {self.elapsed:.1f} s"]
        for p in self.pairs:
            lines.append("  " + p.describe())
        lines.append(f"  statistical lower bound: eps >= {self.eps_lower:.6g} (per unit distance), valid with "
                     f"probability >= {1 - self.false_alarm:g}")
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
            if self.sampling_violated:
                why.append(f"sampling bound eps >= {self.eps_lower:.6g} at confidence {1 - self.false_alarm:g}")
            if self.exact_outcome == "violated":
                why.append(f"exact side: {self.exact_certificate}")
            return f"FAIL: claimed eps={self.claimed_eps:g} refuted ({'; '.join(why)})"
        if self.outcome == "inconclusive":
            return ("INCONCLUSIVE: the exact side found an excess over the claimed eps in float that it could "
                    "not certify in mpmath (give the mechanism log_density_mp(x, y, dps)); not a pass")
        return "PASS (no violation detected)"

    def to_json(self) -> dict[str, Any]:
        return jsonable({"kind": "mechanism", "claimed_eps": self.claimed_eps, "claimed_delta": self.claimed_delta,
                "metric": self.metric, "n": self.n,
                "seed": self.seed if isinstance(self.seed, int) else str(self.seed),
                "false_alarm": self.false_alarm, "confidence": 1 - self.false_alarm,
                "eps_lower": jsonable(self.eps_lower), "outcome": self.outcome, "violated": self.violated,
                "passed": self.passed, "sampling_violated": self.sampling_violated,
                "exact_outcome": self.exact_outcome, "exact_certificate": self.exact_certificate,
                "verdict": self.verdict_text(),
                "vectorised": self.vectorised, "pairs": [p.to_json() for p in self.pairs],
                "exact": self.exact, "notes": list(self.notes), "elapsed_s": self.elapsed})


def _fmt(x: Any) -> str:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    return f"{a[0]:.6g}" if a.size == 1 else "(" + ", ".join(f"{t:.6g}" for t in a) + ")"


class _Release:
    """Draws of a black-box ``release(x, rng)``: vectorised over repeated inputs when the release
    returns one independent draw per input row (detected on a probe of 64 rows: the right shape
    and at least 32 distinct values), otherwise one draw per call."""

    def __init__(self, release: Callable[..., Any], x0: Any, probe: np.random.Generator) -> None:
        check_arity(release, 2, "release", "release(x, rng)")
        self.release = release
        k = 64
        vec_err = ""
        try:
            out = np.asarray(release(self._repeat(x0, k), probe), dtype=float)
            if out.shape in ((k,), (k, 1)) and np.unique(out).size >= k // 2:
                self.vectorised = True
                return
            vec_err = (f"returned shape {out.shape}" if out.size != k else
                       f"returned only {np.unique(out).size} distinct values for {k} inputs (shared noise)")
        except Exception as exc:  # noqa: BLE001 - a release that rejects arrays is used one call at a time
            vec_err = f"{type(exc).__name__}: {exc}"
        self.vectorised = False
        try:
            one = np.asarray(release(x0, probe), dtype=float)
        except Exception as exc:  # noqa: BLE001
            raise TypeError(f"release(x, rng) could not be called at x={x0!r}: {type(exc).__name__}: {exc} "
                            f"(with an array of inputs: {vec_err})") from exc
        if one.size != 1:
            raise TypeError(f"release(x, rng) must return one real number per input; got shape {one.shape}")

    @staticmethod
    def _repeat(x: Any, k: int) -> Any:
        a = np.asarray(x, dtype=float)
        return np.repeat(a[None, ...], k, axis=0) if a.ndim else np.full(k, float(a))

    def draw(self, x: Any, n: int, gen: np.random.Generator) -> FloatArray:
        try:
            if self.vectorised:
                out = np.asarray(self.release(self._repeat(x, n), gen), dtype=float).reshape(-1)
            else:
                out = np.array([float(np.asarray(self.release(x, gen), dtype=float).reshape(-1)[0])
                                for _ in range(n)])
        except Exception as exc:  # noqa: BLE001 - reported as bad input, with the release's own message
            raise ValueError(f"release raised {type(exc).__name__} at x={x!r}: {exc}") from exc
        if out.size != n:
            raise TypeError(f"release returned {out.size} draws for {n} inputs")
        return out


def _distance(x: Any, xp: Any, metric: str) -> float:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    b = np.atleast_1d(np.asarray(xp, dtype=float))
    if a.shape != b.shape:
        raise ValueError(f"neighbouring inputs must have the same shape; got {a.shape} and {b.shape}")
    if metric == "euclidean":
        return float(np.linalg.norm(a - b))
    return float(np.sum(a != b))


def _events(edges: FloatArray) -> list[tuple[str, float, float]]:
    """Candidate events as half-open intervals (lo, hi]: bins, left tails and right tails."""
    ev: list[tuple[str, float, float]] = []
    e = np.concatenate([[-np.inf], edges, [np.inf]])
    for i in range(e.size - 1):
        ev.append(("bin", float(e[i]), float(e[i + 1])))
    for t in edges:
        ev.append(("left", -math.inf, float(t)))
        ev.append(("right", float(t), math.inf))
    return ev


def _count(sorted_draws: FloatArray, lo: float, hi: float) -> int:
    return int(np.searchsorted(sorted_draws, hi, side="right") - np.searchsorted(sorted_draws, lo, side="right"))


def _event_str(lo: float, hi: float) -> str:
    if math.isinf(lo):
        return f"y <= {hi:.6g}"
    if math.isinf(hi):
        return f"y > {lo:.6g}"
    return f"{lo:.6g} < y <= {hi:.6g}"


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


def _exact_pair_loss(mech: Any, x: Any, xp: Any, draws: FloatArray, dps: int) -> tuple[float, str | None, float, str]:
    """sup_y ln p_x(y) - ln p_x'(y) on a sinh grid around the draws plus a bounded local search;
    (float value, mpmath value or None, maximiser y, note)."""
    med = float(np.median(draws))
    iqr = float(np.subtract(*np.percentile(draws, [75, 25]))) or 1.0
    y = np.unique(np.concatenate([med + iqr * np.sinh(np.linspace(-25.0, 25.0, 4001)),
                                  np.quantile(draws, np.linspace(0, 1, 501))]))
    xa = np.asarray(x, dtype=float)
    xpa = np.asarray(xp, dtype=float)
    X = np.repeat(xa[None, ...], y.size, axis=0) if xa.ndim else np.full(y.size, float(xa))
    XP = np.repeat(xpa[None, ...], y.size, axis=0) if xpa.ndim else np.full(y.size, float(xpa))
    with np.errstate(all="ignore"):
        L = np.asarray(privacy_loss(mech, X, XP, y), dtype=float)
    L = np.where(np.isfinite(L), L, -np.inf)
    j = int(np.argmax(L))
    best, yb = float(L[j]), float(y[j])
    lo, hi = float(y[max(j - 1, 0)]), float(y[min(j + 1, y.size - 1)])
    if hi > lo:
        def neg(v: float) -> float:
            with np.errstate(all="ignore"):
                val = float(np.asarray(privacy_loss(mech, X[:1], XP[:1], np.array([v])), dtype=float)[0])
            return -val if math.isfinite(val) else math.inf

        res = optimize.minimize_scalar(neg, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
        if -res.fun > best:
            best, yb = float(-res.fun), float(res.x)
    note = ""
    try:
        xs = float(xa) if xa.ndim == 0 else xa
        xps = float(xpa) if xpa.ndim == 0 else xpa
        with mpmath.workdps(dps):
            Lm = privacy_loss_mp(mech, xs, xps, mpmath.mpf(yb), dps)
            mp_str = mpmath.nstr(Lm, 20)
    except TypeError as exc:
        mp_str, note = None, f"exact loss not re-evaluated in mpmath: {exc}"
    return best, mp_str, yb, note


def audit_blackbox_mechanism(
    release: Callable[..., Any],
    claimed_eps: float,
    metric: str = "euclidean",
    *,
    pairs: Sequence[tuple[Any, Any]],
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
    """
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    eps = check_positive("claimed_eps", claimed_eps)
    delta = check_nonnegative("claimed_delta", claimed_delta)
    if delta >= 1:
        raise ValueError(f"claimed_delta must be in [0, 1); got claimed_delta={delta!r}")
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {_METRICS}; got metric={metric!r}")
    n = check_integer("budget", budget, minimum=200)
    n_bins = check_integer("n_bins", n_bins, minimum=2)
    beta = check_probability("false_alarm", false_alarm)
    Lam = math.inf if Lambda == math.inf else check_positive("Lambda", Lambda)
    dps = check_integer("dps", dps, minimum=20)
    pair_list = list(pairs) if pairs is not None else []
    if not pair_list:
        raise ValueError("pairs must list at least one pair (x, x') of neighbouring inputs")
    dists = []
    for i, pr in enumerate(pair_list):
        try:
            x, xp = pr
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{i}] must be a pair (x, x'); got {pr!r}") from None
        dd = _distance(x, xp, metric)
        if not dd > 0:
            raise ValueError(f"pairs[{i}] has dist(x, x') = 0: the inputs must differ")
        if dd > Lam:
            raise ValueError(f"pairs[{i}] has dist(x, x') = {dd!r} > Lambda = {Lam!r}: not neighbours")
        dists.append(dd)
    mech = density if density is not None else getattr(release, "__self__", None)
    if density not in (None, False) and not callable(getattr(density, "log_density", None)):
        raise TypeError(f"density must expose log_density(x, y); got {type(density).__name__}")
    if neighbourhood is not None and not isinstance(neighbourhood, (EuclideanNeighbourhood, HammingNeighbourhood)):
        raise TypeError(f"neighbourhood must be a EuclideanNeighbourhood or HammingNeighbourhood of "
                        f"verify.audit.exact; got {type(neighbourhood).__name__}")
    seed = rng if isinstance(rng, (int, np.integer)) else "generator"
    gen = check_rng(rng)
    probe_gen, sample_gen, exact_gen = gen.spawn(3)
    rel = _Release(release, pair_list[0][0], probe_gen)
    n_sel = n // 2
    n_est = n - n_sel
    M = 2 * len(pair_list)
    level = beta / (2 * M)
    estimates: list[PairEstimate] = []
    notes: list[str] = []
    draws_by_pair: list[FloatArray] = []
    for i, ((x, xp), dd) in enumerate(zip(pair_list, dists)):
        say(f"pair {i + 1}/{len(pair_list)}: {2 * n} draws per input")
        sx = np.sort(rel.draw(x, n_sel, sample_gen))
        sxp = np.sort(rel.draw(xp, n_sel, sample_gen))
        ex = np.sort(rel.draw(x, n_est, sample_gen))
        exp_ = np.sort(rel.draw(xp, n_est, sample_gen))
        for arr in (sx, sxp, ex, exp_):
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"release returned a non-finite value at pair {i} (x={x!r} or x'={xp!r})")
        draws_by_pair.append(np.concatenate([ex, exp_]))
        pooled = np.sort(np.concatenate([sx, sxp]))
        edges = np.unique(np.quantile(pooled, np.linspace(0.0, 1.0, n_bins + 1)[1:-1]))
        events = _events(edges)
        a = np.array([_count(sx, lo, hi) for _, lo, hi in events])
        b = np.array([_count(sxp, lo, hi) for _, lo, hi in events])
        for (A, Bc, xa, xb, sa, sb) in ((a, b, x, xp, ex, exp_), (b, a, xp, x, exp_, ex)):
            lo_a, _ = clopper_pearson(A, n_sel, level)
            _, hi_b = clopper_pearson(Bc, n_sel, level)
            with np.errstate(divide="ignore", invalid="ignore"):
                score = np.log(np.maximum(lo_a - delta, 0.0)) - np.log(hi_b)
            score = np.where(np.isnan(score), -np.inf, score)
            j = int(np.argmax(score))
            _, elo, ehi = events[j]
            k1, k2 = _count(sa, elo, ehi), _count(sb, elo, ehi)
            p1_lo, _ = clopper_pearson(k1, n_est, level)
            _, p2_hi = clopper_pearson(k2, n_est, level)
            p1_lo, p2_hi = float(p1_lo), float(p2_hi)
            with np.errstate(divide="ignore", invalid="ignore"):
                eps_lo = math.log(p1_lo - delta) / dd - math.log(p2_hi) / dd if p1_lo > delta else -math.inf
                eps_hat = (math.log(k1 / n_est) - math.log(k2 / n_est)) / dd if k1 > 0 and k2 > 0 else (
                    math.inf if k1 > 0 else -math.inf)
            estimates.append(PairEstimate(xa, xb, dd, _event_str(elo, ehi), (int(A[j]), int(Bc[j])), (k1, k2),
                                          n_est, p1_lo, p2_hi, eps_lo, eps_hat, level))
    eps_lower = max(e.eps_lower for e in estimates)

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
        for k, est in enumerate(estimates):
            draws = draws_by_pair[k // 2]
            try:
                val, mp_str, yb, note = _exact_pair_loss(claimed, est.x, est.x_prime, draws, dps)
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
            pair_outcomes.append(AuditResult.decide(certified, val - eps * est.dist, mp_str is not None))
            upd.append(PairEstimate(est.x, est.x_prime, est.dist, est.event, est.selection_counts,
                                    est.estimation_counts, est.n_estimation, est.p_x_lower, est.p_x_prime_upper,
                                    est.eps_lower, est.eps_hat, est.level, eps_ex, mp_per, yb))
        estimates = upd
        if pair_vals:
            exact["pairs_max"] = max(pair_vals)
            if delta > 0:
                notes.append("claimed delta > 0: the exact sup of the loss is an upper bound on eps only for "
                             "pure claims")
        nb = neighbourhood
        if nb is None and metric == "euclidean":
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
                if res.violated:
                    certificate = f"worst-case search: {res.summary()}"
            except (TypeError, ValueError) as exc:
                notes.append(f"exact worst-case audit not run: {exc}")
        else:
            notes.append("exact worst-case search not run: pass neighbourhood=HammingNeighbourhood(...) "
                         "for the Hamming metric")
        if delta == 0 and pair_outcomes:
            exact_outcome = ("violated" if "violated" in pair_outcomes else
                             "inconclusive" if "inconclusive" in pair_outcomes else "pass")
    say("done")
    return MechanismAuditReport(eps, delta, metric, n, seed, beta, tuple(estimates), eps_lower, rel.vectorised,
                                exact, tuple(notes), time.perf_counter() - t0,
                                exact_outcome=exact_outcome,
                                exact_certificate=certificate if exact_outcome == "violated" else None)
