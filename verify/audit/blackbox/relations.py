"""Neighbourhood relations of a black-box audit: which pairs of inputs a claim speaks about, and in what unit.

A claim "M is eps-private" is a statement about the pairs (x, x') of one relation: for every such pair
and every event S, P[M(x) in S] <= e^(eps d(x, x')) P[M(x') in S] + delta, where d is the relation's
unit count (1 for every pair of a DP relation; the distance itself for Geo-Privacy, 004 Def. 5).
The audit states the relation and refuses a pair that is not related (a ValueError showing the
distance): a claim is never silently rescaled by a distance the user did not declare.

* :class:`SubstituteOne` -- datasets of the same size differing in exactly one record (bounded DP,
  Dwork & Roth 2014, Def. 2.4 with the Hamming metric; 004 Sec. 2.3);
* :class:`AddRemoveOne` -- datasets differing by the addition or removal of one record (unbounded DP,
  Dwork & Roth 2014, Sec. 2.3; the multiset symmetric difference has size 1);
* :class:`QueryAnswers` -- vectors of query answers with ||a - a'||_inf <= Delta (``norm="linf"``, the
  relation of StatDP, Ding et al. CCS 2018, Sec. 5, and DP-Sniper, Bichsel et al. S&P 2021, Sec. 6)
  or ||a - a'||_1 <= Delta (``norm="l1"``, the sensitivity of the Laplace mechanism, Dwork & Roth
  2014, Def. 3.1);
* :class:`Euclidean` -- Geo-Privacy: eps per unit of Euclidean distance, pairs within Lambda
  (004 Def. 5);
* :class:`Hamming` -- records compared position by position, eps per differing record (group privacy
  of the substitute-one relation, Dwork & Roth 2014, Thm. 2.2); the reading of ``metric="hamming"``;
* :class:`PNeighbouring` -- 003 Def. IV.1 (corrected, as :class:`verify.audit.exact.OrderedNeighbourhood`):
  an ordered relation, only P[M(X) in S] <= e^eps P[M(X') in S] is claimed (003 Def. IV.2).

Each relation also proposes candidate pairs around a base input (:meth:`candidates`), used by the
input search of :mod:`verify.audit.blackbox.input_search`.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from smoothsens_core.validation import check_positive

from ..exact.neighbourhoods import OrderedNeighbourhood

__all__ = ["Relation", "SubstituteOne", "AddRemoveOne", "QueryAnswers", "Euclidean", "Hamming", "PNeighbouring",
           "relation_from_metric"]


def _as_array(x: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(x, dtype=float))


def _records(x: Any) -> list[Any]:
    """The records of a dataset: rows of a 2-D array, elements of a 1-D array or sequence."""
    a = np.asarray(x, dtype=float)
    if a.ndim == 0:
        return [float(a)]
    if a.ndim == 1:
        return [float(v) for v in a]
    return [tuple(float(v) for v in row.reshape(-1)) for row in a]


class Relation:
    """Base class: ``distance`` (the relation's own distance, shown in reports and refusals),
    ``unit_count`` (d in e^(eps d): the number of relation steps the claim charges for a related pair),
    ``symmetric`` (False for an ordered relation: only the direction x -> x' is claimed)."""

    name: str = "relation"
    symmetric: bool = True

    def distance(self, x: Any, xp: Any) -> float:
        raise NotImplementedError

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        raise NotImplementedError

    def unit_count(self, x: Any, xp: Any) -> float:
        return 1.0

    def describe(self) -> str:
        raise NotImplementedError

    def unit(self) -> str:
        return "per pair of neighbours"

    def check_pair(self, x: Any, xp: Any, what: str = "pair") -> float:
        """d(x, x') of a related pair; ValueError naming the pair and showing its distance otherwise."""
        try:
            ok = self.is_neighbour(x, xp)
            dist = self.distance(x, xp)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{what} (x={x!r}, x'={xp!r}) cannot be compared under {self.describe()}: {exc}") from None
        if not ok:
            raise ValueError(f"{what} is not neighbouring under {self.describe()}: distance {dist:.6g} "
                             f"({self._why(x, xp)}); the claim is not rescaled -- pass a related pair or "
                             "declare the relation the claim is about")
        return self.unit_count(x, xp)

    def _why(self, x: Any, xp: Any) -> str:
        return "not related"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        """Candidate related pairs around ``base`` for the input search (at most ``count``)."""
        raise NotImplementedError


@dataclass(frozen=True)
class SubstituteOne(Relation):
    """Datasets of the same size n differing in exactly one record (Hamming distance 1; bounded DP,
    Dwork & Roth 2014, Def. 2.4)."""

    name = "substitute-one"

    def distance(self, x: Any, xp: Any) -> float:
        a, b = _records(x), _records(xp)
        if len(a) != len(b):
            return math.inf
        return float(sum(u != v for u, v in zip(a, b, strict=True)))

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        return self.distance(x, xp) == 1.0

    def _why(self, x: Any, xp: Any) -> str:
        a, b = _records(x), _records(xp)
        if len(a) != len(b):
            return f"sizes {len(a)} and {len(b)} differ: substitute-one relates datasets of one size"
        return "Hamming distance must be 1"

    def describe(self) -> str:
        return "substitute-one (same size, one record replaced; Hamming distance 1)"

    def unit(self) -> str:
        return "per pair of datasets differing in one record"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        recs = np.asarray(base, dtype=float).reshape(-1)
        vals = np.asarray(universe if universe is not None else np.unique(np.concatenate([recs, recs + 1, recs - 1])),
                          dtype=float)
        out: list[tuple[Any, Any]] = []
        seen: set[tuple[int, float]] = set()
        for _ in range(20 * count):
            if len(out) >= count:
                break
            i = int(rng.integers(recs.size))
            v = float(vals[int(rng.integers(vals.size))])
            if v == recs[i] or (i, v) in seen:
                continue
            seen.add((i, v))
            xp = recs.copy()
            xp[i] = v
            out.append((recs.tolist(), xp.tolist()))
        return out


@dataclass(frozen=True)
class AddRemoveOne(Relation):
    """Datasets (multisets of records) differing by one added or removed record: sizes n and n +- 1 and
    the smaller contained in the larger (unbounded DP, Dwork & Roth 2014, Sec. 2.3)."""

    name = "add/remove-one"

    def distance(self, x: Any, xp: Any) -> float:
        a, b = Counter(_records(x)), Counter(_records(xp))
        return float(sum(((a - b) + (b - a)).values()))

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        return self.distance(x, xp) == 1.0

    def _why(self, x: Any, xp: Any) -> str:
        na, nb = len(_records(x)), len(_records(xp))
        if na == nb:
            return f"both have {na} records: add/remove-one relates datasets of sizes n and n +- 1"
        return "symmetric difference of the multisets of records must be 1"

    def describe(self) -> str:
        return "add/remove-one (one record added or removed; multiset symmetric difference 1)"

    def unit(self) -> str:
        return "per pair of datasets differing by one record added or removed"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        recs = np.asarray(base, dtype=float).reshape(-1)
        vals = np.asarray(universe if universe is not None else np.unique(np.concatenate([recs, recs + 1])),
                          dtype=float)
        out: list[tuple[Any, Any]] = []
        for i in rng.permutation(recs.size)[: max(count // 2, 1)]:
            out.append((recs.tolist(), np.delete(recs, int(i)).tolist()))
        for v in rng.permutation(vals)[: max(count - len(out), 0)]:
            out.append((recs.tolist(), np.append(recs, float(v)).tolist()))
        return out[:count]


@dataclass(frozen=True)
class QueryAnswers(Relation):
    """Vectors of query answers that move by at most ``sensitivity`` = Delta: ||a - a'||_inf <= Delta
    (``norm="linf"``: every answer moves by at most Delta, StatDP / DP-Sniper) or ||a - a'||_1 <= Delta
    (``norm="l1"``).  Every related pair counts as one unit: the claim is eps per pair, never rescaled."""

    norm: str = "linf"
    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        if self.norm not in ("linf", "l1"):
            raise ValueError(f"norm must be 'linf' or 'l1'; got norm={self.norm!r}")
        check_positive("sensitivity", self.sensitivity)

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"query-answers-{self.norm}"

    def distance(self, x: Any, xp: Any) -> float:
        a, b = _as_array(x), _as_array(xp)
        if a.shape != b.shape:
            raise ValueError(f"query-answer vectors must have the same shape; got {a.shape} and {b.shape}")
        d = np.abs(a - b)
        return float(d.max() if self.norm == "linf" else d.sum())

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        d = self.distance(x, xp)
        return 0.0 < d <= self.sensitivity

    def _why(self, x: Any, xp: Any) -> str:
        sym = "||a - a'||_inf" if self.norm == "linf" else "||a - a'||_1"
        return f"{sym} must be in (0, {self.sensitivity:g}]"

    def describe(self) -> str:
        sym = "||a - a'||_inf" if self.norm == "linf" else "||a - a'||_1"
        return f"query answers with {sym} <= {self.sensitivity:g}"

    def unit(self) -> str:
        return "per pair of answer vectors within the sensitivity"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        """StatDP's patterns (Ding et al. CCS 2018, Sec. 5.1; ``generate_databases``): from a = base,
        a' = one above, one below, one above rest below, one below rest above, half-half, all above,
        all below, x-shape, with the moves scaled so that the pair is related (l1: the move is split
        over the coordinates that move); then random sign patterns."""
        a = _as_array(base)
        m = a.size
        D = self.sensitivity
        pats: list[np.ndarray] = []
        one = np.zeros(m)
        one[0] = 1.0
        pats += [one, -one]
        if m > 1:
            pats += [np.where(np.arange(m) == 0, 1.0, -1.0), np.where(np.arange(m) == 0, -1.0, 1.0),
                     np.where(np.arange(m) < m // 2, 1.0, -1.0), np.ones(m), -np.ones(m),
                     np.where(np.arange(m) % 2 == 0, 1.0, -1.0)]
        while len(pats) < count:
            pats.append(rng.choice([-1.0, 0.0, 1.0], size=m))
        out: list[tuple[Any, Any]] = []
        for p in pats:
            nz = np.count_nonzero(p)
            if nz == 0:
                continue
            step = D if self.norm == "linf" else D / nz
            out.append((a.tolist(), (a + step * p).tolist()))
        return out[:count]


@dataclass(frozen=True)
class Euclidean(Relation):
    """Geo-Privacy (004 Def. 5): every pair within ``Lambda``, the claim eps per unit of ||x - x'||_2
    (d = the distance itself)."""

    Lambda: float = math.inf

    name = "euclidean"

    def __post_init__(self) -> None:
        check_positive("Lambda", self.Lambda, allow_inf=True)

    def distance(self, x: Any, xp: Any) -> float:
        a, b = _as_array(x), _as_array(xp)
        if a.shape != b.shape:
            raise ValueError(f"points must have the same shape; got {a.shape} and {b.shape}")
        return float(np.linalg.norm(a - b))

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        d = self.distance(x, xp)
        return 0.0 < d <= self.Lambda

    def unit_count(self, x: Any, xp: Any) -> float:
        return self.distance(x, xp)

    def _why(self, x: Any, xp: Any) -> str:
        return f"||x - x'||_2 must be in (0, Lambda = {self.Lambda:g}]"

    def describe(self) -> str:
        lam = "" if math.isinf(self.Lambda) else f" <= Lambda = {self.Lambda:g}"
        return f"euclidean (Geo-Privacy, ||x - x'||_2{lam})"

    def unit(self) -> str:
        return "per unit of euclidean distance"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        """Pairs from ``base`` at distances spread log-uniformly up to min(Lambda, 10), random directions."""
        a = _as_array(base)
        rmax = min(self.Lambda, 10.0)
        out: list[tuple[Any, Any]] = []
        for r in np.geomspace(rmax / 100.0, rmax, count):
            u = rng.normal(size=a.size)
            u /= np.linalg.norm(u)
            xp = a + r * u
            out.append((a.tolist() if a.size > 1 else float(a[0]), xp.tolist() if a.size > 1 else float(xp[0])))
        return out


@dataclass(frozen=True)
class Hamming(Relation):
    """Inputs of one shape compared position by position; eps per differing position (group privacy of
    the substitute-one relation, Dwork & Roth 2014, Thm. 2.2: d = the Hamming distance)."""

    name = "hamming"

    def distance(self, x: Any, xp: Any) -> float:
        a, b = _as_array(x), _as_array(xp)
        if a.shape != b.shape:
            raise ValueError(f"inputs must have the same shape; got {a.shape} and {b.shape}")
        return float(np.sum(a != b))

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        return self.distance(x, xp) > 0

    def unit_count(self, x: Any, xp: Any) -> float:
        return self.distance(x, xp)

    def _why(self, x: Any, xp: Any) -> str:
        return "the inputs must differ"

    def describe(self) -> str:
        return "hamming (records compared by position; group privacy: eps per differing record)"

    def unit(self) -> str:
        return "per differing record"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        return SubstituteOne().candidates(base, rng, count, universe)


@dataclass(frozen=True)
class PNeighbouring(Relation):
    """003 Def. IV.1 (corrected; :meth:`verify.audit.exact.OrderedNeighbourhood.p_neighbouring`): X ~^p X'
    iff they differ in one record x -> x' with not p(x) or p(x').  Ordered: the audit tests only
    P[M(X) in S] <= e^eps P[M(X') in S] (003 Def. IV.2)."""

    policy: Callable[[Any], bool]

    name = "p-neighbouring"
    symmetric = False

    def distance(self, x: Any, xp: Any) -> float:
        return SubstituteOne().distance(x, xp)

    def is_neighbour(self, x: Any, xp: Any) -> bool:
        return bool(OrderedNeighbourhood.p_neighbouring(self.policy)(_records(x), _records(xp)))

    def _why(self, x: Any, xp: Any) -> str:
        if self.distance(x, xp) != 1.0:
            return "X and X' must differ in exactly one record"
        return "the changed record is sensitive under the policy and its replacement is not"

    def describe(self) -> str:
        return "p-neighbouring (003 Def. IV.1, ordered: X -> X')"

    def unit(self) -> str:
        return "per ordered pair of p-neighbours"

    def candidates(self, base: Any, rng: np.random.Generator, count: int,
                   universe: Sequence[float] | None = None) -> list[tuple[Any, Any]]:
        cands = SubstituteOne().candidates(base, rng, 4 * count, universe)
        return [pr for pr in cands if self.is_neighbour(*pr)][:count]


def relation_from_metric(metric: str, Lambda: float = math.inf) -> Relation:
    """The relation named by the legacy ``metric`` string: "euclidean" -> :class:`Euclidean` (Lambda),
    "hamming" -> :class:`Hamming`."""
    if metric == "euclidean":
        return Euclidean(Lambda)
    if metric == "hamming":
        return Hamming()
    raise ValueError(f"metric must be one of ('euclidean', 'hamming'); got metric={metric!r}")
