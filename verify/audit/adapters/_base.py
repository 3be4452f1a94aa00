"""The common shape of a library mechanism under audit, and the exact densities for the exact side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

__all__ = ["LibraryMechanism", "additive_density", "scalar_loop", "seeds_from"]


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


def additive_density(noise: Any, scale: float, eps: float, delta: float = 0.0, name: str = "") -> Any:
    """The exact density of the mathematical mechanism x + scale * Z (Z a standardised core noise:
    ``Laplace()`` for the Laplace mechanisms, ``Gaussian()`` for the Gaussian ones) for the exact
    side of :func:`verify.audit.blackbox.audit_blackbox_mechanism`; its mpmath log-density comes from
    the noise's independent reference (``verify.reference``), so no density is typed here.
    ``eps``/``delta`` are replaced there by the claim under audit."""
    from ..exact.curve import AdditiveNoiseMechanism  # noqa: PLC0415 - keep the adapters' import light

    return AdditiveNoiseMechanism(noise=noise, f=_identity, eps=eps, delta=delta, scale=float(scale),
                                  metric="euclidean", name=name)


def _identity(x: Any) -> Any:
    return np.asarray(x, dtype=float)


def scalar_loop(one: Callable[[float], float], x: Any) -> Any:
    """Apply a scalar-only library call to a float or to every entry of an array."""
    xa = np.asarray(x, dtype=float)
    if xa.ndim == 0:
        return float(one(float(xa)))
    return np.array([float(one(float(v))) for v in xa.reshape(-1)]).reshape(xa.shape)


def seeds_from(rng: np.random.Generator) -> int:
    """A 32-bit seed drawn from the audit's generator (for libraries that take a random_state)."""
    return int(rng.integers(0, 2**32 - 1))
