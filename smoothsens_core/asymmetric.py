"""Asymmetric differential privacy on finite record domains (seed 003, Takagi et al.).

Records are the integers 0..m-1 of a finite domain; a dataset is a tuple of n records (an integer
array of shape (n,), or (N, n) for N datasets).  A *policy* p is a predicate on records (a boolean
array of length m).

p-neighbouring (003 Def. IV.1, an ordered relation).  X ~p X' iff X' is X with one record x replaced
by x' != x and  p(x) -> p(x')  is True, i.e.  (not p(x)) or (p(x) and p(x')).
  ERRATUM: the extraction prints "... = False (i.e. (p(x) -> p(x')) = False)".  Props. IV.3-IV.5 and
  Sec. IV-B ("X is not p-neighbouring to X' if p(x) = True and p(x') = False") all use the relation
  with "= True"; the printed form would make exactly those pairs the only neighbours.
ADP (003 Def. IV.2): Pr[M(X) = z] <= e^eps Pr[M(X') = z] for all z and all X ~p X'.

A :class:`NeighbourRelation` holds the allowed record transitions x -> x' (an m x m boolean
matrix).  ``from_policy`` builds the p-neighbouring relation; ``intersection`` builds the relation of
the composition theorem (003 Thm. VIII.6), under which the k mechanisms' relations all hold.

Counting queries f_C(X)_i = #{j : c_i(x^j)} (003 Sec. II-B1) with conditions C (d x m booleans):
  p-sensitivity  Delta_p(f) = max over allowed (x, x') of sum_i |c_i(x') - c_i(x)|  (003 Def. V.1),
  monotonicity   Sign_p(f_i) = +1 if c_i(x') >= c_i(x) for all allowed (x, x') (increasing),
                 -1 if c_i(x') <= c_i(x) for all allowed pairs (decreasing), 0 otherwise (003 Def. V.2);
  (with n >= 1 every allowed record transition occurs in some dataset, so these closed forms equal the
  suprema over datasets; :func:`p_sensitivity_bruteforce` checks that.)

Mechanisms with exact densities: :class:`ALap` (003 Def. V.3, Thm. V.4), :class:`AGeo`
(003 Def. VIII.1, Thm. VIII.2), :class:`SALap` (003 Alg. 1, Thm. V.7).

ERRATUM (003 Def. V.3, sign of the one-sided noise).  With Sign_p as in Def. V.2 the printed density
(eps/Delta) exp(-Sign_p lambda eps/Delta) on Sign_p lambda >= 0 puts the noise on the *negative*
half-line for a decreasing sensitivity (f(X) >= f(X') when X ~p X').  Then M(X) has density on
[f(X') , f(X)) where M(X') has none: the privacy loss is infinite for a p-neighbouring pair, and
p_<=^t(z) answers "safe" for unsafe counts.  The corrected ALap uses noise with sign -Sign_p:
non-negative noise for a decreasing sensitivity (as AGeo's printed pmf and SALap's proof do),
non-positive for an increasing one.  Also the printed non-monotone case exp(+|lambda| eps/Delta)
lacks its minus sign (it is not integrable); the Laplace density (eps/(2 Delta)) exp(-|lambda| eps/Delta)
is meant.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .validation import check_in_interval, check_integer, check_positive, check_rng

__all__ = [
    "BOTTOM",
    "NeighbourRelation",
    "CountingQuery",
    "all_datasets",
    "is_neighbouring",
    "neighbouring_pairs",
    "min_path",
    "min_path_bruteforce",
    "p_sensitivity",
    "p_sensitivity_bruteforce",
    "sign_p",
    "ALap",
    "AGeo",
    "SALap",
    "salap_release_from_answers",
    "risk",
    "is_one_sided",
    "dp_epsilon_lower_bound",
    "approx_dp_delta_lower_bound",
    "adp_epsilon_lower_bound",
    "alap_one_sided_epsilon",
    "alap_one_sided_beta",
    "one_sided_k",
    "compose_adp",
    "optimal_adp_mechanism_lp",
    "mechanism_error",
]

#: The ⊥ ("below threshold") answer of SALap, encoded in float output arrays (003 Alg. 1 line 9).
BOTTOM = -math.inf

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


# ------------------------------------------------------------------------------------------------
# policies and neighbouring relations
# ------------------------------------------------------------------------------------------------
def _check_policy(name: str, policy: ArrayLike, m: int | None = None) -> NDArray[np.bool_]:
    arr = np.asarray(policy)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D boolean array over the record domain; got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must be defined on a non-empty record domain; got an empty domain")
    if arr.dtype != bool:
        if not np.all(np.isin(arr, (0, 1))):
            raise ValueError(f"{name} must contain only True/False (or 0/1); got values {np.unique(arr)[:5]}")
        arr = arr.astype(bool)
    if m is not None and arr.size != m:
        raise ValueError(f"{name} must have one entry per record (m={m}); got length {arr.size}")
    return arr


@dataclass(frozen=True)
class NeighbourRelation:
    """Allowed record transitions x -> x' (``allowed[x, x']``) of an ordered neighbouring relation.

    X ~ X' iff X' is X with one record x replaced by x' and ``allowed[x, x']``.  The diagonal is
    always False (replacing a record by itself does not make a neighbour).
    """

    allowed: NDArray[np.bool_]
    name: str = "relation"

    def __post_init__(self) -> None:
        a = np.asarray(self.allowed, dtype=bool)
        if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] == 0:
            raise ValueError(f"allowed must be a non-empty square boolean matrix; got shape {a.shape}")
        a = a.copy()
        np.fill_diagonal(a, False)
        object.__setattr__(self, "allowed", a)

    @property
    def m(self) -> int:
        """Size of the record domain."""
        return int(self.allowed.shape[0])

    @classmethod
    def from_policy(cls, policy: ArrayLike) -> "NeighbourRelation":
        """p-neighbouring (003 Def. IV.1, corrected reading): allowed[x, x'] = (x != x') and (p(x) -> p(x'))."""
        p = _check_policy("policy", policy)
        allowed = (~p)[:, None] | p[None, :]
        return cls(allowed, name="p-neighbouring")

    @classmethod
    def unbounded_dp(cls, m: int) -> "NeighbourRelation":
        """The symmetric relation of DP (003 Def. II.1): every x -> x' with x != x'."""
        m = check_integer("m", m, minimum=1)
        return cls(np.ones((m, m), dtype=bool), name="dp")

    @classmethod
    def intersection(cls, relations: Sequence["NeighbourRelation"]) -> "NeighbourRelation":
        """The relation under which all given relations hold (the composed policy of 003 Thm. VIII.6)."""
        if len(relations) == 0:
            raise ValueError("relations must contain at least one relation; got none")
        ms = {r.m for r in relations}
        if len(ms) != 1:
            raise ValueError(f"relations must share one record domain; got domain sizes {sorted(ms)}")
        a = np.logical_and.reduce([r.allowed for r in relations])
        return cls(a, name="intersection")

    def reverse(self) -> "NeighbourRelation":
        return NeighbourRelation(self.allowed.T, name=f"reverse {self.name}")

    def check_nonempty(self) -> None:
        """ValueError if the relation makes no pair of datasets neighbouring."""
        if not self.allowed.any():
            raise ValueError(
                f"the policy makes no pair of datasets neighbouring (record domain of size {self.m} with "
                "no allowed transition x -> x'); ADP would constrain nothing"
            )

    def graph_distances(self) -> FloatArray:
        """Shortest directed path lengths between records (inf where unreachable), by BFS."""
        m = self.m
        dist = np.full((m, m), np.inf)
        for s in range(m):
            dist[s, s] = 0.0
            frontier = [s]
            d = 0
            while frontier:
                d += 1
                nxt = np.flatnonzero(self.allowed[frontier].any(axis=0) & ~np.isfinite(dist[s]))
                dist[s, nxt] = d
                frontier = list(nxt)
        return dist


def all_datasets(m: int, n: int) -> IntArray:
    """All m^n datasets of n records over {0..m-1}, shape (m^n, n) (small domains only)."""
    m = check_integer("m", m, minimum=1)
    n = check_integer("n", n, minimum=1)
    if m**n > 2_000_000:
        raise ValueError(f"m**n must be <= 2e6 for exhaustive enumeration; got m={m}, n={n}")
    return np.array(list(itertools.product(range(m), repeat=n)), dtype=np.int64).reshape(-1, n)


def _as_dataset(name: str, X: ArrayLike, m: int) -> IntArray:
    arr = np.asarray(X)
    if arr.size == 0:
        raise ValueError(f"{name} must contain at least one record; got an empty dataset")
    if not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.asarray(arr, dtype=float) == np.round(np.asarray(arr, dtype=float))):
            raise ValueError(f"{name} must hold integer record ids in [0, {m - 1}]")
        arr = arr.astype(np.int64)
    if arr.min() < 0 or arr.max() >= m:
        raise ValueError(f"{name} must hold record ids in [0, {m - 1}]; got min={arr.min()}, max={arr.max()}")
    return arr.astype(np.int64)


def is_neighbouring(X: ArrayLike, Xp: ArrayLike, relation: NeighbourRelation) -> bool:
    """X ~ X' under ``relation``: exactly one position differs and its transition is allowed."""
    a = _as_dataset("X", X, relation.m)
    b = _as_dataset("Xp", Xp, relation.m)
    if a.shape != b.shape:
        raise ValueError(f"X and Xp must have the same number of records; got {a.shape} and {b.shape}")
    diff = np.flatnonzero(a != b)
    return diff.size == 1 and bool(relation.allowed[a[diff[0]], b[diff[0]]])


def neighbouring_pairs(m: int, n: int, relation: NeighbourRelation) -> tuple[IntArray, IntArray]:
    """All ordered pairs (X, X') with X ~ X', as two arrays of shape (P, n) (exhaustive)."""
    relation.check_nonempty()
    if relation.m != m:
        raise ValueError(f"relation is on a domain of size {relation.m}; got m={m}")
    D = all_datasets(m, n)
    xs, xps = np.nonzero(relation.allowed)
    A, B = [], []
    for pos in range(n):
        for x, xp in zip(xs, xps, strict=True):
            sel = D[D[:, pos] == x]
            if sel.size:
                sel2 = sel.copy()
                sel2[:, pos] = xp
                A.append(sel)
                B.append(sel2)
    return np.concatenate(A), np.concatenate(B)


def min_path(X: ArrayLike, Xp: ArrayLike, relation: NeighbourRelation) -> float:
    """d^p_min(X, X') of 003 Def. IV.6: fewest ~-steps from X to X' (inf if none).

    Each step changes one position and positions change independently, so the minimum is the sum
    over positions of the shortest directed path x^j -> x'^j in the record transition graph.
    """
    a = _as_dataset("X", X, relation.m)
    b = _as_dataset("Xp", Xp, relation.m)
    if a.shape != b.shape:
        raise ValueError(f"X and Xp must have the same number of records; got {a.shape} and {b.shape}")
    return float(relation.graph_distances()[a, b].sum())


def min_path_bruteforce(X: ArrayLike, Xp: ArrayLike, relation: NeighbourRelation) -> float:
    """d^p_min by breadth-first search over datasets (reference for :func:`min_path`)."""
    a = tuple(_as_dataset("X", X, relation.m).tolist())
    b = tuple(_as_dataset("Xp", Xp, relation.m).tolist())
    seen = {a}
    frontier = [a]
    d = 0
    while frontier:
        if b in frontier:
            return float(d)
        nxt = []
        for ds in frontier:
            for pos, x in enumerate(ds):
                for xp in np.flatnonzero(relation.allowed[x]):
                    c = ds[:pos] + (int(xp),) + ds[pos + 1:]
                    if c not in seen:
                        seen.add(c)
                        nxt.append(c)
        frontier = nxt
        d += 1
    return math.inf


# ------------------------------------------------------------------------------------------------
# counting queries, p-sensitivity, monotonicity
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CountingQuery:
    """f_C(X)_i = #{records x in X with c_i(x)} (003 Sec. II-B1); ``conditions`` is d x m boolean."""

    conditions: NDArray[np.bool_]

    def __post_init__(self) -> None:
        c = np.asarray(self.conditions)
        if c.ndim == 1:
            c = c[None, :]
        if c.ndim != 2 or c.shape[0] == 0 or c.shape[1] == 0:
            raise ValueError(f"conditions must be a non-empty (d, m) boolean array; got shape {c.shape}")
        object.__setattr__(self, "conditions", c.astype(bool))

    @property
    def d(self) -> int:
        return int(self.conditions.shape[0])

    @property
    def m(self) -> int:
        return int(self.conditions.shape[1])

    def __call__(self, X: ArrayLike) -> IntArray:
        """Counts, shape (..., d) for datasets of shape (..., n)."""
        a = _as_dataset("X", X, self.m)
        counts = self.conditions[:, a].sum(axis=-1, dtype=np.int64)  # shape (d, ...)
        return np.moveaxis(counts, 0, -1)


def _transition_diffs(query: CountingQuery, relation: NeighbourRelation) -> IntArray:
    if query.m != relation.m:
        raise ValueError(f"query and relation must share the record domain; got m={query.m} and m={relation.m}")
    relation.check_nonempty()
    xs, xps = np.nonzero(relation.allowed)
    c = query.conditions.astype(np.int64)
    return (c[:, xps] - c[:, xs]).T  # (pairs, d): f(X') - f(X)


def p_sensitivity(query: CountingQuery, relation: NeighbourRelation) -> int:
    """Delta_p(f_C) = max over allowed (x, x') of ||c(x') - c(x)||_1 (003 Def. V.1, closed form)."""
    return int(np.abs(_transition_diffs(query, relation)).sum(axis=1).max())


def sign_p(query: CountingQuery, relation: NeighbourRelation) -> IntArray:
    """Sign_p(f_i) of 003 Def. V.2 per coordinate: +1 increasing, -1 decreasing, 0 not monotone.

    A coordinate unchanged by every allowed transition counts as decreasing (-1).
    """
    diffs = _transition_diffs(query, relation)
    dec = np.all(diffs <= 0, axis=0)
    inc = np.all(diffs >= 0, axis=0)
    return np.where(dec, -1, np.where(inc, 1, 0)).astype(np.int64)


def p_sensitivity_bruteforce(f: Callable[[IntArray], ArrayLike], m: int, n: int,
                             relation: NeighbourRelation) -> tuple[float, IntArray]:
    """(Delta_p(f), Sign_p per coordinate) by enumerating every p-neighbouring pair of datasets."""
    A, B = neighbouring_pairs(m, n, relation)
    fa = np.asarray(f(A), dtype=float).reshape(len(A), -1)
    fb = np.asarray(f(B), dtype=float).reshape(len(B), -1)
    diff = fb - fa
    sens = float(np.abs(diff).sum(axis=1).max())
    sign = np.where(np.all(diff <= 0, axis=0), -1, np.where(np.all(diff >= 0, axis=0), 1, 0))
    return sens, sign.astype(np.int64)


# ------------------------------------------------------------------------------------------------
# mechanisms
# ------------------------------------------------------------------------------------------------
def _check_eps(eps: float) -> float:
    return check_positive("eps", eps)


@dataclass(frozen=True)
class ALap:
    """Asymmetric Laplace mechanism ALap_{p,eps,f}(X) = f(X) + lambda (003 Def. V.3, Thm. V.4).

    Per coordinate i with scale b = Delta_p(f)/eps:
      Sign_p(f_i) = -1 (decreasing): lambda_i >= 0 with density (1/b) e^{-lambda/b};
      Sign_p(f_i) = +1 (increasing): lambda_i <= 0 with density (1/b) e^{lambda/b};
      not monotone: Laplace (1/(2b)) e^{-|lambda|/b}.
    (Corrected sign; ``convention="printed"`` reproduces the printed Def. V.3 sign, which is not ADP.)
    For X ~p X' the exact privacy loss is sum_i L_i with L_i = s_i (a_i - b_i)/b if s_i (a_i - b_i) >= 0
    and +inf otherwise (one-sided coordinate with noise sign s_i), |a_i - b_i|/b (Laplace coordinate),
    where a = f(X), b = f(X').
    """

    query: CountingQuery
    relation: NeighbourRelation
    eps: float
    convention: str = "corrected"
    delta: float = 0.0
    metric: str = "p-neighbouring"
    sensitivity: int = field(init=False)
    signs: IntArray = field(init=False)
    noise_sides: IntArray = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_eps(self.eps))
        if self.convention not in ("corrected", "printed"):
            raise ValueError(f"convention must be 'corrected' or 'printed'; got {self.convention!r}")
        sens = p_sensitivity(self.query, self.relation)
        if sens == 0:
            raise ValueError("the p-sensitivity of the query is 0 under this policy: no p-neighbouring pair "
                             "changes the answer, so ALap is undefined (release f(X) itself)")
        signs = sign_p(self.query, self.relation)
        sides = -signs if self.convention == "corrected" else signs
        object.__setattr__(self, "sensitivity", sens)
        object.__setattr__(self, "signs", signs)
        object.__setattr__(self, "noise_sides", sides.astype(np.int64))

    @property
    def scale(self) -> float:
        return self.sensitivity / self.eps

    def _coord_logpdf(self, lam: FloatArray) -> FloatArray:
        b = self.scale
        s = self.noise_sides
        one_sided = np.where(s * lam >= 0, -s * lam / b - math.log(b), -np.inf)
        two_sided = -np.abs(lam) / b - math.log(2.0 * b)
        return np.where(s == 0, two_sided, one_sided)

    def log_density(self, X: ArrayLike, z: ArrayLike) -> FloatArray:
        """ln of the output density at z (shape (..., d)) for dataset X."""
        fx = self.query(X).astype(float)
        lam = np.asarray(z, dtype=float) - fx
        with np.errstate(invalid="ignore"):
            return self._coord_logpdf(lam).sum(axis=-1)

    def release(self, X: ArrayLike, rng: Any) -> FloatArray:
        gen = check_rng(rng)
        fx = self.query(X).astype(float)
        e = gen.standard_exponential(fx.shape)
        lap = gen.laplace(0.0, 1.0, fx.shape)
        noise = np.where(self.noise_sides == 0, lap, self.noise_sides * e) * self.scale
        return fx + noise

    def max_privacy_loss(self, X: ArrayLike, Xp: ArrayLike) -> FloatArray:
        """sup_z ln(p_X(z)/p_X'(z)), exact (sum of per-coordinate suprema; +inf if unbounded)."""
        a = self.query(X).astype(float)
        b = self.query(Xp).astype(float)
        s = self.noise_sides
        diff = a - b
        one = np.where(s * diff >= 0, s * diff / self.scale, np.inf)
        two = np.abs(diff) / self.scale
        return np.where(s == 0, two, one).sum(axis=-1)


@dataclass(frozen=True)
class AGeo:
    """Asymmetric geometric mechanism AGeo_{p,eps,f} (003 Def. VIII.1, Thm. VIII.2).

    For a counting query with Delta_p(f) = 1, coordinate i's output K_i in {0..n} follows
    :class:`~smoothsens_core.distributions.onesided.AsymmetricGeometric` (decreasing or increasing
    by Sign_p), and for a non-monotone coordinate the two-sided geometric f_i + G on the integers
    (P(G = g) = (1 - e^{-eps})/(1 + e^{-eps}) e^{-eps |g|}, 003 App. A).
    """

    query: CountingQuery
    relation: NeighbourRelation
    eps: float
    n: int
    delta: float = 0.0
    metric: str = "p-neighbouring"
    signs: IntArray = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_eps(self.eps))
        object.__setattr__(self, "n", check_integer("n", self.n, minimum=1))
        sens = p_sensitivity(self.query, self.relation)
        if sens != 1:
            raise ValueError(f"AGeo needs a counting query with p-sensitivity 1 (003 Def. VIII.1); got {sens}")
        object.__setattr__(self, "signs", sign_p(self.query, self.relation))

    def log_pmf(self, X: ArrayLike, k: ArrayLike) -> FloatArray:
        """ln P(AGeo(X) = k) for integer output vectors k (shape (..., d))."""
        fx = self.query(X).astype(float)
        k = np.asarray(k, dtype=float)
        eps = self.eps
        log1m = math.log(-math.expm1(-eps))
        out = np.zeros(np.broadcast(fx, k).shape)
        s = np.broadcast_to(self.signs, out.shape)
        fxb = np.broadcast_to(fx, out.shape)
        kb = np.broadcast_to(k, out.shape)
        valid_int = kb == np.round(kb)
        # decreasing: offset j = k - f on {0..n-f}; atom at k = n
        dec = np.where(kb == self.n, -(self.n - fxb) * eps, log1m - (kb - fxb) * eps)
        dec = np.where((kb >= fxb) & (kb <= self.n), dec, -np.inf)
        inc = np.where(kb == 0, -fxb * eps, log1m - (fxb - kb) * eps)
        inc = np.where((kb <= fxb) & (kb >= 0), inc, -np.inf)
        two = math.log(-math.expm1(-eps)) - math.log1p(math.exp(-eps)) - np.abs(kb - fxb) * eps
        res = np.where(s == -1, dec, np.where(s == 1, inc, two))
        res = np.where(valid_int, res, -np.inf)
        return res.sum(axis=-1)

    def log_density(self, X: ArrayLike, k: ArrayLike) -> FloatArray:
        return self.log_pmf(X, k)

    def release(self, X: ArrayLike, rng: Any) -> FloatArray:
        gen = check_rng(rng)
        fx = self.query(X)
        p = -math.expm1(-self.eps)
        j = gen.geometric(p, fx.shape) - 1
        dec = np.minimum(fx + j, self.n)
        inc = np.maximum(fx - j, 0)
        two = fx + gen.geometric(p, fx.shape) - gen.geometric(p, fx.shape)
        return np.where(self.signs == -1, dec, np.where(self.signs == 1, inc, two)).astype(float)

    def max_privacy_loss(self, X: ArrayLike, Xp: ArrayLike) -> float:
        """max_k ln(P(AGeo(X)=k)/P(AGeo(X')=k)), exact by enumerating each coordinate's outputs."""
        a = self.query(X)
        b = self.query(Xp)
        total = 0.0
        for i in range(self.query.d):
            lo = min(a[i], b[i]) - 60 if self.signs[i] == 0 else 0
            hi = max(a[i], b[i]) + 60 if self.signs[i] == 0 else self.n
            ks = np.arange(lo, hi + 1, dtype=float)
            la = self._coord_log_pmf(i, a[i], ks)
            lb = self._coord_log_pmf(i, b[i], ks)
            with np.errstate(invalid="ignore"):
                diff = np.where(np.isfinite(la), np.where(np.isfinite(lb), la - lb, np.inf), -np.inf)
            total += float(diff.max())
        return total

    def _coord_log_pmf(self, i: int, f: int, ks: FloatArray) -> FloatArray:
        eps = self.eps
        log1m = math.log(-math.expm1(-eps))
        s = self.signs[i]
        if s == -1:
            v = np.where(ks == self.n, -(self.n - f) * eps, log1m - (ks - f) * eps)
            return np.where((ks >= f) & (ks <= self.n), v, -np.inf)
        if s == 1:
            v = np.where(ks == 0, -f * eps, log1m - (f - ks) * eps)
            return np.where((ks <= f) & (ks >= 0), v, -np.inf)
        return log1m - math.log1p(math.exp(-eps)) - np.abs(ks - f) * eps


@dataclass(frozen=True)
class SALap:
    """Sanitized asymmetric Laplace mechanism (003 Alg. 1, Thm. V.7).

    For i = 1..d (until abort): z_i = f_i(X) + lambda_i, lambda_i >= 0 with density eps e^{-eps lambda}
    (corrected ALap for a decreasing p-sensitivity <= 1); output ⊥ (:data:`BOTTOM`) if z_i <= t_i,
    else output z_i and abort (later entries nan).  The probability of an output with j ⊥'s then the
    value z is  prod_{i<j} P(lambda <= t_i - f_i(X)) * eps e^{-eps (z - f_j(X))} [z >= f_j(X), z > t_j],
    with P(lambda <= u) = 1 - e^{-eps u} for u > 0 and 0 otherwise.
    """

    query: CountingQuery
    relation: NeighbourRelation
    eps: float
    thresholds: FloatArray
    delta: float = 0.0
    metric: str = "p-neighbouring"

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_eps(self.eps))
        t = np.asarray(self.thresholds, dtype=float).reshape(-1)
        if t.size == 1 and self.query.d > 1:
            t = np.full(self.query.d, float(t[0]))
        if t.size != self.query.d:
            raise ValueError(f"thresholds must have one entry per query (d={self.query.d}); got {t.size}")
        if not np.all(np.isfinite(t)):
            raise ValueError("thresholds must be finite")
        object.__setattr__(self, "thresholds", t)
        signs = sign_p(self.query, self.relation)
        if np.any(signs != -1):
            bad = int(np.flatnonzero(signs != -1)[0])
            raise ValueError("SALap needs every query's p-sensitivity monotonically decreasing (003 Alg. 1); "
                             f"query {bad} has Sign_p={int(signs[bad])}")
        c = self.query.conditions.astype(np.int64)
        xs, xps = np.nonzero(self.relation.allowed)
        per = np.abs(c[:, xps] - c[:, xs]).max(axis=1)
        if np.any(per > 1):
            raise ValueError(f"SALap needs each query's p-sensitivity <= 1 (003 Alg. 1); got max {int(per.max())}")

    def release(self, X: ArrayLike, rng: Any) -> FloatArray:
        return salap_release_from_answers(self.query(X), self.thresholds, self.eps, rng)

    def _log_cdf_noise(self, u: FloatArray) -> FloatArray:
        with np.errstate(divide="ignore"):
            return np.where(u > 0, np.log(-np.expm1(-self.eps * np.maximum(u, 0.0))), -np.inf)

    def log_density(self, X: ArrayLike, output: ArrayLike) -> FloatArray:
        """ln of the probability (density in the released value) of output sequences, shape (..., d).

        With j the number of leading ⊥'s: sum_{i<j} ln P(lambda <= t_i - f_i(X)), plus, if j < d,
        ln eps - eps (z - f_j(X)) for the released z = output[j] (-inf unless z > t_j and z >= f_j(X)).
        Vectorised over the leading axes of ``output``; a single sequence gives a 0-d array."""
        fx = self.query(X).astype(float)
        out = np.asarray(output, dtype=float)
        d = self.query.d
        if out.shape[-1:] != (d,):
            raise ValueError(f"output must have shape (..., {d}); got {out.shape}")
        bott = out == BOTTOM
        # j = index of the first non-⊥ entry (d if all are ⊥)
        j = np.where(bott.all(axis=-1), d, np.argmin(bott, axis=-1))
        lcdf = self._log_cdf_noise(self.thresholds - fx)  # (d,)
        cum = np.concatenate([[0.0], np.cumsum(lcdf)])  # cum[j] = sum_{i<j} ln P(lambda <= t_i - f_i)
        lp = cum[j]
        jj = np.minimum(j, d - 1)
        z = np.take_along_axis(out, jj[..., None], axis=-1)[..., 0]
        t, f = self.thresholds[jj], fx[jj]
        with np.errstate(invalid="ignore"):
            val = np.where((z > t) & (z >= f), math.log(self.eps) - self.eps * (z - f), -np.inf)
        return np.where(j < d, lp + val, lp)

    def max_privacy_loss(self, X: ArrayLike, Xp: ArrayLike) -> float:
        """sup over outputs of ln(P_X / P_X'), exact (each output type: ⊥^j then a value, or ⊥^d)."""
        a = self.query(X).astype(float)
        b = self.query(Xp).astype(float)
        la = self._log_cdf_noise(self.thresholds - a)
        lb = self._log_cdf_noise(self.thresholds - b)
        best = -math.inf
        d = self.query.d
        for j in range(d + 1):
            A = float(la[:j].sum())
            B = float(lb[:j].sum())
            if A == -math.inf:
                continue
            if j == d:
                cand = math.inf if B == -math.inf else A - B
            else:
                t = self.thresholds[j]
                # a value z > t with z >= a_j and z < b_j exists iff b_j > max(a_j, t): then p_X' = 0 < p_X
                if b[j] > max(a[j], t) or B == -math.inf:
                    cand = math.inf
                else:
                    cand = A - B + self.eps * (a[j] - b[j])
            best = max(best, cand)
        return best


def salap_release_from_answers(answers: ArrayLike, thresholds: ArrayLike, eps: float, rng: Any) -> FloatArray:
    """SALap's output (003 Alg. 1) given the true answers f_i(X) (shape (..., d), vectorised over leading axes).

    z_i = f_i + E_i/eps (E_i standard exponential); entries before the first z_i > t_i are ⊥ (:data:`BOTTOM`),
    that entry is z_i, later entries nan.  Valid for queries whose p-sensitivity is decreasing and <= 1
    (checked by :class:`SALap`).
    """
    eps = _check_eps(eps)
    gen = check_rng(rng)
    fx = np.asarray(answers, dtype=float)
    t = np.broadcast_to(np.asarray(thresholds, dtype=float), fx.shape)
    z = fx + gen.standard_exponential(fx.shape) / eps
    above = z > t
    d = fx.shape[-1]
    first = np.where(above.any(axis=-1), np.argmax(above, axis=-1), d)[..., None]
    col = np.arange(d)
    return np.where(col < first, BOTTOM, np.where(col == first, z, np.nan))


# ------------------------------------------------------------------------------------------------
# risk, one-sidedness calculators, composition
# ------------------------------------------------------------------------------------------------
def risk(likelihood: ArrayLike, prior: ArrayLike, predicate: ArrayLike) -> float:
    """Risk_pi(M, p) of 003 Sec. III-C for a finite output space.

    ``likelihood[x, z]`` = Pr[M(X) = z] when the first record x^1 = x (others fixed), ``prior[x]`` =
    pi(x), ``predicate[x]`` = p(x).  Risk = max_z (Pr[p=T | z]/Pr[p=F | z]) / (Pr[p=T]/Pr[p=F])
    = max_z Pr[z | p=T]/Pr[z | p=F]; 0 when Pr[p=F] = 0 (the paper's convention) or Pr[p=T] = 0
    (nothing to learn, our extension); a/0 = inf for a > 0; outputs impossible under both are skipped.
    """
    L = np.asarray(likelihood, dtype=float)
    pi = np.asarray(prior, dtype=float)
    p = _check_policy("predicate", predicate, L.shape[0] if L.ndim == 2 else None)
    if L.ndim != 2:
        raise ValueError(f"likelihood must be a (m, outputs) matrix; got shape {L.shape}")
    if pi.shape != (L.shape[0],) or np.any(pi < 0) or not math.isclose(pi.sum(), 1.0, rel_tol=1e-9):
        raise ValueError(f"prior must be a probability vector of length {L.shape[0]}")
    if np.any(L < 0) or not np.allclose(L.sum(axis=1), 1.0, atol=1e-9):
        raise ValueError("likelihood rows must be probability vectors over the outputs")
    pt, pf = pi[p].sum(), pi[~p].sum()
    if pf == 0 or pt == 0:
        return 0.0
    zt = (pi[p] @ L[p]) / pt
    zf = (pi[~p] @ L[~p]) / pf
    possible = (zt > 0) | (zf > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(zf > 0, zt / np.where(zf > 0, zf, 1.0), np.inf)
    return float(ratio[possible].max())


def _check_alpha_beta(alpha: float, beta: float) -> tuple[float, float]:
    a = check_in_interval("alpha", alpha, 0.0, 1.0, closed_low=True)
    b = check_in_interval("beta", beta, 0.0, 1.0)
    return a, b


def is_one_sided(pmf_X: ArrayLike, pmfs_unsafe: ArrayLike, alpha: float, beta: float) -> bool:
    """(q, alpha, beta)-one-sidedness of 003 Def. II.6 for a mechanism with finitely many outputs.

    ``pmf_X`` is the output pmf at X (q(X) True), ``pmfs_unsafe`` the pmfs at every X' with q(X') False
    (shape (N', K)).  True iff for every X' some sanitizer S (a set of outputs answered "True") has
    Pr[M(X') in S] < alpha and Pr[M(X) in S] >= beta (the sanitizer may depend on X', as printed).
    alpha = 0 is read as Pr[M(X') in S] = 0 (the strict "< 0" of the printed definition is unsatisfiable).
    Exhaustive over the 2^K sanitizers (K <= 16).
    """
    px = np.asarray(pmf_X, dtype=float).reshape(-1)
    pu = np.asarray(pmfs_unsafe, dtype=float).reshape(-1, px.size)
    a = check_in_interval("alpha", alpha, 0.0, 1.0, closed_low=True, closed_high=True)
    b = check_in_interval("beta", beta, 0.0, 1.0, closed_low=True, closed_high=True)
    K = px.size
    if K > 16:
        raise ValueError(f"is_one_sided enumerates 2^K sanitizers; K must be <= 16, got K={K}")
    masks = ((np.arange(2**K)[:, None] >> np.arange(K)[None, :]) & 1).astype(bool)   # (2^K, K)
    px_S = masks @ px
    pu_S = pu @ masks.T                                                                 # (N', 2^K)
    small = (pu_S == 0.0) if a == 0.0 else (pu_S < a)
    return bool(np.all(np.any(small & (px_S >= b)[None, :], axis=1)))


def dp_epsilon_lower_bound(alpha: float, beta: float, k: int) -> float:
    """003 ineq. (5): an eps-DP mechanism (q, alpha, beta)-one-sided at distance k needs eps > ln(beta/alpha)/k
    (inf for alpha = 0)."""
    a, b = _check_alpha_beta(alpha, beta)
    k = check_integer("k", k, minimum=1)
    return math.inf if a == 0 else math.log(b / a) / k


def approx_dp_delta_lower_bound(alpha: float, beta: float, eps: float, k: int) -> float:
    """003 ineq. (7): delta > (beta - alpha e^{eps k}) / sum_{i=1}^k e^{(i-1) eps}."""
    a, b = _check_alpha_beta(alpha, beta)
    eps = _check_eps(eps)
    k = check_integer("k", k, minimum=1)
    # sum_{i=1}^k e^{(i-1) eps} = expm1(k eps)/expm1(eps)
    return (b - a * math.exp(eps * k)) / (math.expm1(k * eps) / math.expm1(eps))


def adp_epsilon_lower_bound(alpha: float, beta: float, k: float) -> float:
    """003 Prop. IV.7 (corrected orientation): eps >= ln((1 - alpha)/(1 - beta))/k, with
    k = min over X' with q(X') = False of d^p_min(X', X) (paths *from* X' to X); 0 if k = inf."""
    a, b = _check_alpha_beta(alpha, beta)
    if not (k >= 1):
        raise ValueError(f"k must be >= 1 (or inf); got k={k}")
    return 0.0 if math.isinf(k) else math.log((1 - a) / (1 - b)) / k


def alap_one_sided_epsilon(beta: float, k: int, sensitivity: float = 1.0) -> float:
    """003 Cor. V.6: eps >= Delta_p ln(1/(1 - beta))/k makes ALap (q_<=, alpha, beta)-one-sided
    (with the sanitizer z < t + 1 for integer counts; see :func:`alap_one_sided_beta`)."""
    b = check_in_interval("beta", beta, 0.0, 1.0)
    k = check_integer("k", k, minimum=1)
    s = check_positive("sensitivity", sensitivity)
    return s * -math.log1p(-b) / k


def alap_one_sided_beta(eps: float, count: int, threshold: int, sensitivity: float = 1.0,
                        sanitizer: str = "strict") -> float:
    """Pr[sanitizer(ALap(X)) = True] for a safe count f(X) <= t (corrected, non-negative noise):

    ``sanitizer="strict"`` (z < t + 1): 1 - e^{-eps (t + 1 - f)/Delta} = 1 - e^{-eps k/Delta}, k = t+1-f;
    ``sanitizer="printed"`` (p_<=^t(z) = z <= t): 1 - e^{-eps (t - f)/Delta} (0 at f = t).
    """
    eps = _check_eps(eps)
    count = check_integer("count", count, minimum=0)
    threshold = check_integer("threshold", threshold, minimum=0)
    if count > threshold:
        raise ValueError(f"count must be <= threshold (a safe location); got count={count}, threshold={threshold}")
    s = check_positive("sensitivity", sensitivity)
    gap = threshold + 1 - count if sanitizer == "strict" else threshold - count
    if sanitizer not in ("strict", "printed"):
        raise ValueError(f"sanitizer must be 'strict' or 'printed'; got {sanitizer!r}")
    return -math.expm1(-eps * gap / s)


def one_sided_k(X: ArrayLike, q: Callable[[IntArray], ArrayLike], m: int, n: int,
                relation: NeighbourRelation, orientation: str = "to") -> float:
    """k(X) of 003 Prop. IV.7 by exhaustive search: min over X' with q(X') False of the minimum path.

    ``orientation="to"`` (corrected): d^p_min(X', X); ``"from"`` (printed): d^p_min(X, X').
    """
    D = all_datasets(m, n)
    qs = np.asarray(q(D), dtype=bool)
    bad = D[~qs]
    if bad.size == 0:
        return math.inf
    dist = relation.graph_distances()
    x = _as_dataset("X", X, m)
    if orientation == "to":
        ds = dist[bad, x[None, :]].sum(axis=1)
    elif orientation == "from":
        ds = dist[x[None, :], bad].sum(axis=1)
    else:
        raise ValueError(f"orientation must be 'to' or 'from'; got {orientation!r}")
    return float(ds.min())


def compose_adp(eps_values: Sequence[float], relations: Sequence[NeighbourRelation]) -> tuple[float, NeighbourRelation]:
    """003 Thm. VIII.6: (eps_i, p_i)-ADP mechanisms run in sequence are (sum eps_i, ∩ p_i)-ADP, where the
    composed relation ("sum of policies") is the intersection of the p_i-neighbouring relations."""
    if len(eps_values) != len(relations) or not eps_values:
        raise ValueError("eps_values and relations must be non-empty and of equal length")
    total = sum(_check_eps(e) for e in eps_values)
    return total, NeighbourRelation.intersection(relations)


# ------------------------------------------------------------------------------------------------
# optimality (003 Thm. VIII.3) by linear programming
# ------------------------------------------------------------------------------------------------
def mechanism_error(matrix: ArrayLike, prior: ArrayLike, loss: Callable[[FloatArray], FloatArray] | None = None) -> float:
    """E_{c ~ prior} E_{z ~ M[c, :]} loss(|z - c|) for a count-to-count mechanism matrix (rows = true count)."""
    M = np.asarray(matrix, dtype=float)
    pi = np.asarray(prior, dtype=float)
    idx = np.arange(M.shape[0], dtype=float)
    dist = np.abs(idx[None, :] - idx[:, None])
    Lm = dist if loss is None else np.asarray(loss(dist), dtype=float)
    return float(pi @ (M * Lm).sum(axis=1))


def optimal_adp_mechanism_lp(n: int, eps: float, prior: ArrayLike,
                             loss: Callable[[FloatArray], FloatArray] | None = None,
                             direction: str = "decreasing") -> tuple[float, FloatArray]:
    """Minimum error over all (eps, p)-ADP mechanisms {0..n} -> {0..n} for a counting query with p-sensitivity
    1 (003 Thm. VIII.3 set-up), by ``scipy.optimize.linprog``.

    Variables M[i, j] >= 0 (row i = true count), rows sum to one; ADP constraints for the decreasing case
    (X ~p X' means f(X') in {f(X) - 1, f(X)}):  M[i, j] <= e^eps M[i-1, j]; increasing: M[i, j] <= e^eps M[i+1, j].
    Objective sum_i prior_i sum_j M[i, j] loss(|i - j|).  Returns (optimal error, matrix).
    """
    from scipy.optimize import linprog  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    n = check_integer("n", n, minimum=1)
    eps = _check_eps(eps)
    pi = np.asarray(prior, dtype=float)
    if pi.shape != (n + 1,) or np.any(pi < 0) or not math.isclose(pi.sum(), 1.0, rel_tol=1e-9):
        raise ValueError(f"prior must be a probability vector of length n+1={n + 1}")
    if direction not in ("decreasing", "increasing"):
        raise ValueError(f"direction must be 'decreasing' or 'increasing'; got {direction!r}")
    N = n + 1
    idx = np.arange(N, dtype=float)
    dist = np.abs(idx[None, :] - idx[:, None])
    Lm = dist if loss is None else np.asarray(loss(dist), dtype=float)
    c = (pi[:, None] * Lm).ravel()
    rows = []
    e = math.exp(eps)
    for i in range(1, N):
        for j in range(N):
            r = np.zeros(N * N)
            if direction == "decreasing":
                r[i * N + j] = 1.0
                r[(i - 1) * N + j] = -e
            else:
                r[(i - 1) * N + j] = 1.0
                r[i * N + j] = -e
            rows.append(r)
    A_ub = np.array(rows)
    b_ub = np.zeros(len(rows))
    A_eq = np.zeros((N, N * N))
    for i in range(N):
        A_eq[i, i * N:(i + 1) * N] = 1.0
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(N), bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"linprog failed for n={n}, eps={eps}: {res.message}")
    return float(res.fun), res.x.reshape(N, N)
