"""Mechanism objects with an exact log-density, the common currency of calibration and auditing.

A smooth-sensitivity mechanism (004 Lemmas 3.3, 3.5, 3.6; 002 Thm. 8) releases

    M(x) = f(x) + (B(x) / eta) * Z,     Z ~ a standardised noise distribution,

so its output density at y is  p_x(y) = (eta / B(x)) * h((y - f(x)) * eta / B(x)),  with h the
density of Z.  Every mechanism exposes ``log_density(x, y)`` (exact, vectorised) and
``release(x, rng)``; the privacy-loss auditor of ``verify`` needs nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .validation import check_positive, check_rng
from .distributions._base import ContinuousDistribution

__all__ = ["Mechanism", "SmoothSensitivityMechanism"]


@runtime_checkable
class Mechanism(Protocol):
    """What the auditor needs: an exact log-density (or log-pmf) of the output given the input.

    ``eps`` is the claimed privacy parameter (per unit distance for Geo-Privacy, plain for DP),
    ``delta`` the claimed additive slack (0 for pure), and ``metric`` names the input metric
    (``"euclidean"``, ``"hamming"``, ``"p-neighbouring"``).
    """

    eps: float
    delta: float
    metric: str

    def log_density(self, x: Any, y: ArrayLike) -> NDArray[np.float64]: ...

    def release(self, x: Any, rng: np.random.Generator) -> Any: ...


@dataclass(frozen=True)
class SmoothSensitivityMechanism:
    """M(x) = f(x) + (B(x)/eta) Z with Z drawn from ``noise`` (standardised, loc 0, scale 1).

    ``f`` and ``B`` are vectorised callables on arrays of inputs (B > 0).  ``eps``/``delta`` are the
    claimed guarantee, recorded so an auditor can check it; this class does not certify anything
    itself: a calibration from :mod:`smoothsens_core.calibration` does.
    Output density (004 Lemma 3.3 proof): p_x(y) = (eta/B(x)) h((y - f(x)) eta / B(x)).
    """

    f: Callable[[Any], ArrayLike]
    B: Callable[[Any], ArrayLike]
    noise: ContinuousDistribution
    eta: float
    eps: float
    delta: float = 0.0
    metric: str = "euclidean"

    def __post_init__(self) -> None:
        object.__setattr__(self, "eta", check_positive("eta", self.eta))
        object.__setattr__(self, "eps", check_positive("eps", self.eps))
        if self.noise.loc != 0.0 or self.noise.scale != 1.0:
            raise ValueError(
                f"noise must be standardised (loc=0, scale=1); got loc={self.noise.loc}, "
                f"scale={self.noise.scale}"
            )

    def _scale(self, x: Any) -> NDArray[np.float64]:
        b = np.asarray(self.B(x), dtype=float)
        if b.size and not np.all(b > 0):
            raise ValueError("B(x) must be > 0 for the smooth-sensitivity mechanism")
        return b / self.eta

    def log_density(self, x: Any, y: ArrayLike) -> NDArray[np.float64]:
        """ln p_x(y) = ln h((y - f(x))/s(x)) - ln s(x), with s(x) = B(x)/eta."""
        s = self._scale(x)
        fx = np.asarray(self.f(x), dtype=float)
        z = (np.asarray(y, dtype=float) - fx) / s
        return np.asarray(self.noise.logpdf(z)) - np.log(s)

    def release(self, x: Any, rng: Any) -> NDArray[np.float64]:
        """One draw of M(x) per input (vectorised over an array of inputs)."""
        gen = check_rng(rng)
        s = self._scale(x)
        fx = np.asarray(self.f(x), dtype=float)
        return fx + s * self.noise.sample(np.shape(fx), gen)
