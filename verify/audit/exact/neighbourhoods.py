"""Neighbourhoods: which pairs of inputs a guarantee speaks about, and at what distance.

* Euclidean Geo-Privacy (004 Def. 5): pairs with ||x - x'||_2 <= Lambda, loss bound eps * dist
  (:class:`EuclideanNeighbourhood`, sampled).
* Hamming DP on small finite datasets: every dataset over a finite universe and every neighbour
  (one record replaced), brute force (:class:`HammingNeighbourhood`).
* Ordered neighbour relations such as 003 Def. IV.1 (p-neighbouring, not symmetric): a callable
  ``related(X, X')`` on a finite candidate set; only the ordered pairs it accepts are checked
  (:class:`OrderedNeighbourhood`), in the direction Pr[M(X) = z] <= e^eps Pr[M(X') = z]
  (003 Def. IV.2).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from smoothsens_core.validation import check_integer, check_positive

__all__ = ["EuclideanNeighbourhood", "HammingNeighbourhood", "OrderedNeighbourhood"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class EuclideanNeighbourhood:
    """Pairs x, x' in the box [low, high]^dim with ||x - x'||_2 <= Lambda (004 Def. 5)."""

    low: float
    high: float
    dim: int = 1
    Lambda: float = math.inf

    def __post_init__(self) -> None:
        if not self.high > self.low:
            raise ValueError(f"high must be > low; got low={self.low!r}, high={self.high!r}")
        check_integer("dim", self.dim, minimum=1)
        check_positive("Lambda", self.Lambda, allow_inf=True)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
        x = rng.uniform(self.low, self.high, (n, self.dim))
        direction = rng.normal(size=(n, self.dim))
        direction /= np.linalg.norm(direction, axis=1, keepdims=True)
        rmax = min(self.Lambda, self.high - self.low)
        rad = rmax * 10 ** rng.uniform(-4, 0, n)
        xp = np.clip(x + rad[:, None] * direction, self.low, self.high)
        return x, xp

    @staticmethod
    def dist(x: FloatArray, xp: FloatArray) -> FloatArray:
        return np.linalg.norm(np.atleast_2d(x) - np.atleast_2d(xp), axis=1)


@dataclass(frozen=True)
class HammingNeighbourhood:
    """All datasets of ``n`` records over a finite ``universe`` and every neighbour obtained by
    replacing one record (dist_H = 1): brute force for DP (004 Sec. 2.3, 002 eq. (1))."""

    universe: tuple[float, ...]
    n: int

    def __post_init__(self) -> None:
        check_integer("n", self.n, minimum=1)
        if len(self.universe) < 2:
            raise ValueError(f"universe must have at least 2 values; got {self.universe!r}")
        if len(self.universe) ** self.n > 20000:
            raise ValueError(f"|universe|^n must be <= 20000 for brute force; got {len(self.universe)}^{self.n}")

    def pairs(self) -> tuple[FloatArray, FloatArray]:
        data = np.array(list(itertools.product(self.universe, repeat=self.n)), dtype=float)
        xs, xps = [], []
        for ds in data:
            for i in range(self.n):
                for v in self.universe:
                    if v != ds[i]:
                        nb = ds.copy()
                        nb[i] = v
                        xs.append(ds)
                        xps.append(nb)
        return np.array(xs), np.array(xps)


@dataclass(frozen=True)
class OrderedNeighbourhood:
    """An ordered (not necessarily symmetric) neighbour relation on a finite candidate set, e.g.
    p-neighbouring of 003 Def. IV.1 (corrected reading, claim 003-Def-IV.1): X ~^p X' iff X, X'
    differ in one record x -> x' and (p(x) -> p(x')) holds, i.e. not p(x) or p(x'): a record that
    is not sensitive may become anything, a sensitive one only another sensitive one (the printed
    "= False" would make only sensitive -> non-sensitive changes neighbours, contradicting
    Props. IV.3-IV.5).  Same relation as :meth:`smoothsens_core.asymmetric.NeighbourRelation.from_policy`.
    ``related(X, X')`` decides it."""

    candidates: tuple[Any, ...]
    related: Callable[[Any, Any], bool]

    def pairs(self) -> list[tuple[Any, Any]]:
        return [(X, Xp) for X in self.candidates for Xp in self.candidates
                if X is not Xp and self.related(X, Xp)]

    @staticmethod
    def p_neighbouring(policy: Callable[[Any], bool]) -> Callable[[Sequence[Any], Sequence[Any]], bool]:
        """The relation of 003 Def. IV.1 (corrected) for tuples of records differing in exactly one place."""

        def related(X: Sequence[Any], Xp: Sequence[Any]) -> bool:
            if len(X) != len(Xp):
                return False
            diff = [i for i in range(len(X)) if X[i] != Xp[i]]
            if len(diff) != 1:
                return False
            x, xp = X[diff[0]], Xp[diff[0]]
            return (not bool(policy(x))) or bool(policy(xp))

        return related
