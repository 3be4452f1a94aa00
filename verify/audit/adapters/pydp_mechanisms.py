"""OpenMined python-dp 1.1 (``pydp.algorithms.numerical_mechanisms``, Google's C++ DP library):
LaplaceMechanism and GaussianMechanism (python-dp has no geometric / discrete Laplace mechanism).

The claimed (eps, delta) is the one the mechanism is constructed with (sensitivity 1).  The
library samples from its own secure randomness: the rng is ignored (flagged by the audit).
``add_noise`` is scalar-only: arrays are looped in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smoothsens_core.distributions import Gaussian, Laplace

from ._base import LibraryMechanism, additive_density, scalar_loop

__all__ = ["subjects"]


def _release(mech: Any) -> Any:
    def release(x: Any, rng: np.random.Generator) -> Any:  # rng unused: the library's own randomness
        return scalar_loop(mech.add_noise, x)

    return release


def subjects() -> list[LibraryMechanism]:
    from pydp.algorithms.numerical_mechanisms import (  # type: ignore[import-untyped]  # noqa: PLC0415 - optional dependency (libraries extra); no type information
        GaussianMechanism,
        LaplaceMechanism,
    )

    lap = LaplaceMechanism(1.0, 1.0)
    gau = GaussianMechanism(1.0, 1e-5, 1.0)
    return [
        LibraryMechanism("python-dp", "LaplaceMechanism", _release(lap), 1.0, 0.0, 1.0,
                         additive_density(Laplace(), float(lap.diversity), 1.0), parameters="epsilon=1, sensitivity=1"),
        LibraryMechanism("python-dp", "GaussianMechanism", _release(gau), 1.0, 1e-5, 1.0,
                         additive_density(Gaussian(), float(gau.std), 1.0, 1e-5),
                         parameters=f"epsilon=1, delta=1e-5, l2_sensitivity=1 (std={float(gau.std):.6g})"),
    ]
