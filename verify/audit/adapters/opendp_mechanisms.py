"""OpenDP 0.16 (``opendp.prelude``): Laplace on floats, discrete Laplace on integers, Gaussian.

The claimed eps / (eps, delta) is OpenDP's own privacy map at input distance ``unit``
(``measurement.map(unit)``; the Gaussian's zCDP rho converted with ``make_zCDP_to_approxDP`` and
fixed at delta = 1e-5).  OpenDP samples from OS randomness: the rng is ignored (flagged by the audit).
Measurements are built on vector domains, so an array of inputs is one library call.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smoothsens_core.distributions import Gaussian, Laplace

from ._base import LibraryMechanism, additive_density

__all__ = ["subjects"]


def _vector_release(meas: Any, integer: bool) -> Any:
    def release(x: Any, rng: np.random.Generator) -> Any:  # rng unused: OpenDP's own randomness
        xa = np.asarray(x, dtype=float)
        vals = [int(v) for v in xa.reshape(-1)] if integer else [float(v) for v in xa.reshape(-1)]
        out = np.asarray(meas(vals), dtype=float)
        return float(out[0]) if xa.ndim == 0 else out.reshape(xa.shape)

    return release


def subjects() -> list[LibraryMechanism]:
    import opendp.prelude as dp  # noqa: PLC0415 - optional dependency (opendp, the libraries extra)

    dp.enable_features("contrib")
    out = []
    lap = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float), scale=1.0)
    out.append(LibraryMechanism("opendp", "make_laplace (float)", _vector_release(lap, False), float(lap.map(1.0)), 0.0,
                                1.0, additive_density(Laplace(), 1.0, float(lap.map(1.0))), parameters="scale=1"))
    dl = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=20.0)
    out.append(LibraryMechanism("opendp", "make_laplace (int: discrete Laplace)", _vector_release(dl, True),
                                float(dl.map(20)), 0.0, 20.0, None, True, parameters="scale=20"))
    g = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float), scale=4.0)
    ga = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(g), 1e-5)
    eps, delta = ga.map(1.0)
    out.append(LibraryMechanism("opendp", "make_gaussian (zCDP -> approx DP)", _vector_release(g, False), float(eps),
                                float(delta), 1.0, additive_density(Gaussian(), 4.0, float(eps), float(delta)),
                                parameters="scale=4"))
    return out
