"""Smooth growth functions g(x, x') = g0(dist(x, x')) (004 Sec. 3.1.2).

004 Sec. 3.1.2 calls g a *smooth growth function* when g0 : [0, inf) -> [1, inf) satisfies

* g0(0) = 1,
* g0 is monotonically non-decreasing,
* g0(r1 + r2) <= g0(r1) * g0(r2) for all r1, r2 >= 0 (submultiplicativity),

and gives two examples, the exponential growth g_E(r) = e^(gamma r) and the linear growth
g_L(r) = 1 + gamma r, for any gamma > 0.  Both are provided here as small frozen objects with a
vectorised ``g0`` and ``log_g0``; :func:`check_growth_axioms` tests the three axioms numerically
on any user-supplied g0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .validation import check_finite_array, check_positive

__all__ = [
    "GrowthFunction",
    "growth_exp",
    "growth_linear",
    "GrowthAxiomReport",
    "check_growth_axioms",
]


def _distances(r: ArrayLike) -> NDArray[np.float64]:
    arr = check_finite_array("r", r)
    if arr.size and np.any(arr < 0):
        raise ValueError(f"r must be a distance in [0, inf); got min(r)={arr.min()!r}")
    return arr


@dataclass(frozen=True)
class GrowthFunction:
    """A smooth growth function g0 of a distance, with parameter ``gamma`` (004 Sec. 3.1.2).

    ``kind`` is ``"exp"`` for g_E(r) = e^(gamma r) or ``"linear"`` for g_L(r) = 1 + gamma r.
    """

    kind: str
    gamma: float

    def __post_init__(self) -> None:
        if self.kind not in ("exp", "linear"):
            raise ValueError(f"kind must be 'exp' or 'linear'; got kind={self.kind!r}")
        object.__setattr__(self, "gamma", check_positive("gamma", self.gamma))

    @property
    def name(self) -> str:
        return "g_E" if self.kind == "exp" else "g_L"

    def g0(self, r: ArrayLike) -> NDArray[np.float64]:
        """g0(r): e^(gamma r) for g_E, 1 + gamma r for g_L (004 Sec. 3.1.2); r >= 0."""
        r = _distances(r)
        if self.kind == "exp":
            return np.exp(self.gamma * r)
        return 1.0 + self.gamma * r

    def log_g0(self, r: ArrayLike) -> NDArray[np.float64]:
        """ln g0(r): gamma r for g_E, log1p(gamma r) for g_L (exact for tiny gamma r)."""
        r = _distances(r)
        if self.kind == "exp":
            return self.gamma * r
        return np.log1p(self.gamma * r)

    def __call__(self, r: ArrayLike) -> NDArray[np.float64]:
        return self.g0(r)

    def between(self, x: ArrayLike, x_prime: ArrayLike) -> NDArray[np.float64]:
        """g(x, x') = g0(||x - x'||_2) for points of R^d; the last axis holds the coordinates."""
        x = check_finite_array("x", x)
        xp = check_finite_array("x_prime", x_prime)
        diff = x - xp
        # Points are rows: the last axis holds the d coordinates (a 0-d input is a point of R^1).
        dist = np.abs(diff) if diff.ndim == 0 else np.sqrt(np.sum(diff**2, axis=-1))
        return self.g0(dist)


def growth_exp(gamma: float) -> GrowthFunction:
    """The exponential growth g_E(r) = e^(gamma r), gamma > 0 (004 Sec. 3.1.2)."""
    return GrowthFunction("exp", gamma)


def growth_linear(gamma: float) -> GrowthFunction:
    """The linear growth g_L(r) = 1 + gamma r, gamma > 0 (004 Sec. 3.1.2)."""
    return GrowthFunction("linear", gamma)


@dataclass(frozen=True)
class GrowthAxiomReport:
    """Outcome of :func:`check_growth_axioms`: which axiom failed first, and where."""

    ok: bool
    failures: tuple[str, ...] = field(default_factory=tuple)

    def __bool__(self) -> bool:
        return self.ok


def check_growth_axioms(
    g0: Callable[[NDArray[np.float64]], ArrayLike],
    *,
    r_max: float = 50.0,
    n: int = 401,
    rtol: float = 1e-12,
) -> GrowthAxiomReport:
    """Check the smooth-growth axioms of 004 Sec. 3.1.2 for a vectorised g0 on a grid of [0, r_max].

    Checks g0(0) = 1, g0(r) >= 1, g0 non-decreasing on the grid, and
    g0(r1 + r2) <= g0(r1) g0(r2) on all grid pairs (relative tolerance ``rtol`` for rounding).
    A numerical check on a grid: it can refute an axiom with a witness, it cannot prove one.
    """
    check_positive("r_max", r_max)
    r = np.linspace(0.0, float(r_max), int(n))
    failures: list[str] = []
    v0 = float(np.asarray(g0(np.array([0.0])), dtype=float).reshape(-1)[0])
    if not np.isclose(v0, 1.0, rtol=rtol, atol=0.0):
        failures.append(f"g0(0) = {v0!r}, must be 1")
    vals = np.asarray(g0(r), dtype=float)
    if vals.shape != r.shape:
        raise ValueError(f"g0 must be vectorised: g0(r) has shape {vals.shape}, expected {r.shape}")
    if not np.all(np.isfinite(vals)):
        i = int(np.argmax(~np.isfinite(vals)))
        failures.append(f"g0({float(r[i])!r}) = {float(vals[i])!r} is not finite")
        return GrowthAxiomReport(False, tuple(failures))
    if np.any(vals < 1.0 - rtol):
        i = int(np.argmax(vals < 1.0 - rtol))
        failures.append(f"g0({float(r[i])!r}) = {float(vals[i])!r} < 1")
    dec = np.diff(vals) < -rtol * np.abs(vals[:-1])
    if np.any(dec):
        i = int(np.argmax(dec))
        failures.append(f"g0 decreases between r={float(r[i])!r} and r={float(r[i + 1])!r}")
    half = r[: n // 2 + 1]
    r1, r2 = np.meshgrid(half, half, indexing="ij")
    lhs = np.asarray(g0((r1 + r2).ravel()), dtype=float)
    g_half = np.asarray(g0(half), dtype=float)
    rhs = np.outer(g_half, g_half).ravel()
    bad = lhs > rhs * (1.0 + rtol)
    if np.any(bad):
        i = int(np.argmax(bad))
        failures.append(
            f"g0(r1 + r2) > g0(r1) g0(r2) at r1={float(r1.ravel()[i])!r}, "
            f"r2={float(r2.ravel()[i])!r}: {float(lhs[i])!r} > {float(rhs[i])!r}"
        )
    return GrowthAxiomReport(not failures, tuple(failures))
