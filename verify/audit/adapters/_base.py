"""The common shape of a library mechanism under audit, and the Laplace density for the exact side."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import mpmath
import numpy as np

__all__ = ["LibraryMechanism", "LaplaceDensity", "scalar_loop", "seeds_from"]


@dataclass(frozen=True)
class LibraryMechanism:
    """A library's mechanism as an audit subject.

    ``release(x, rng)``: x a float or an array of floats (one independent draw per entry).
    ``eps``, ``delta``: what the library claims for inputs at distance ``unit`` (per unit distance
    after dividing by ``unit``: the audit's eps is ``eps / unit``).  ``pair``: the neighbouring
    inputs the audit uses (distance ``unit``).  ``density``: the exact density of the mathematical
    mechanism (None when not exposed or not continuous).  ``discrete``: integer outputs."""

    library: str
    mechanism: str
    release: Callable[..., Any]
    eps: float
    delta: float
    unit: float = 1.0
    density: Any = None
    discrete: bool = False
    parameters: str = ""

    @property
    def pair(self) -> tuple[float, float]:
        return (0.0, float(self.unit))

    @property
    def eps_per_unit(self) -> float:
        return self.eps / self.unit


@dataclass(frozen=True)
class LaplaceDensity:
    """ln p_x(y) = -|y - x| / b - ln(2 b): the Laplace mechanism with the library's scale b, for the
    exact side of :func:`verify.audit.blackbox.audit_blackbox_mechanism` (``eps``/``delta`` are
    replaced there by the claim under audit)."""

    scale: float
    eps: float
    delta: float = 0.0
    metric: str = "euclidean"
    name: str = "laplace"

    def log_density(self, x: Any, y: Any) -> np.ndarray:
        return -np.abs(np.asarray(y, dtype=float) - np.asarray(x, dtype=float)) / self.scale - math.log(2 * self.scale)

    def log_density_mp(self, x: Any, y: Any, dps: int) -> Any:
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            xx = mpmath.mpf(float(np.asarray(x, dtype=float).reshape(-1)[0]))
            return -abs(mpmath.mpf(y) - xx) / b - mpmath.log(2 * b)


def scalar_loop(one: Callable[[float], float], x: Any) -> Any:
    """Apply a scalar-only library call to a float or to every entry of an array."""
    xa = np.asarray(x, dtype=float)
    if xa.ndim == 0:
        return float(one(float(xa)))
    return np.array([float(one(float(v))) for v in xa.reshape(-1)]).reshape(xa.shape)


def seeds_from(rng: np.random.Generator) -> int:
    """A 32-bit seed drawn from the audit's generator (for libraries that take a random_state)."""
    return int(rng.integers(0, 2**32 - 1))
