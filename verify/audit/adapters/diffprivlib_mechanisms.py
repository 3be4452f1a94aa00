"""IBM diffprivlib 0.6 (``diffprivlib.mechanisms``): Laplace, Geometric, GaussianAnalytic.

The claimed (eps, delta) is the one the mechanism is constructed with (sensitivity 1, or
``unit`` for the geometric).  diffprivlib's mechanisms take a ``random_state``: each call of
``release`` builds the mechanism with a RandomState seeded from the audit's rng, so the audit is
reproducible from its seed.  ``randomise`` is scalar-only: arrays are looped in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smoothsens_core.distributions import Gaussian, Laplace as LaplaceNoise

from ._base import LibraryMechanism, additive_density, scalar_loop, seeds_from

__all__ = ["subjects"]


def _release(make: Any, integer: bool = False) -> Any:
    def release(x: Any, rng: np.random.Generator) -> Any:
        mech = make(np.random.RandomState(seeds_from(rng)))
        return scalar_loop(lambda v: mech.randomise(int(v) if integer else v), x)

    return release


def subjects() -> list[LibraryMechanism]:
    from diffprivlib.mechanisms import (  # type: ignore[import-untyped]  # noqa: PLC0415 - optional dependency (libraries extra); no type information
        GaussianAnalytic,
        Geometric,
        Laplace,
    )

    lap = Laplace(epsilon=1.0, sensitivity=1.0)
    gau = GaussianAnalytic(epsilon=1.0, delta=1e-5, sensitivity=1.0)  # its sigma, for the exact side
    return [
        LibraryMechanism("diffprivlib", "Laplace", _release(lambda rs: Laplace(epsilon=1.0, sensitivity=1.0,
                                                                                 random_state=rs)),
                         1.0, 0.0, 1.0, additive_density(LaplaceNoise(), float(lap.sensitivity) / (float(lap.epsilon) - float(np.log1p(-lap.delta))), 1.0), parameters="epsilon=1, sensitivity=1"),
        LibraryMechanism("diffprivlib", "Geometric", _release(lambda rs: Geometric(epsilon=0.05, sensitivity=1,
                                                                                     random_state=rs), True),
                         0.05 * 20, 0.0, 20.0, None, True, parameters="epsilon=0.05, sensitivity=1"),
        LibraryMechanism("diffprivlib", "GaussianAnalytic",
                         _release(lambda rs: GaussianAnalytic(epsilon=1.0, delta=1e-5, sensitivity=1.0, random_state=rs)),
                         1.0, 1e-5, 1.0, additive_density(Gaussian(), gau._scale, 1.0, 1e-5),
                         parameters=f"epsilon=1, delta=1e-5, sensitivity=1 (sigma={gau._scale:.6g})"),
    ]
