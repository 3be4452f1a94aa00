"""Exact composition of Gaussian mechanisms, certified in ball arithmetic.

The privacy loss of the Gaussian pair (N(0, sigma^2), N(Delta, sigma^2)) is L = mu Z' + mu^2/2 with Z' standard
normal and mu = Delta/sigma; under the neighbour it is -mu Z' + mu^2/2 with the same law.  Losses of independent
mechanisms add, and a sum of independent normals is normal, so the adaptive composition of Gaussian mechanisms
with mu_1, ..., mu_m, each repeated k times, has exactly the privacy curve of one Gaussian mechanism with

    mu = sqrt(k (mu_1^2 + ... + mu_m^2))

(Dong, Roth & Su 2019, "Gaussian differential privacy", Cor. 3.3: mu_i-GDP mechanisms compose to
sqrt(sum mu_i^2)-GDP, and mu-GDP is the Gaussian pair's curve), whose delta(eps) is Balle & Wang 2018, Thm. 8:

    delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu).

Here mu is computed in arb from the binary64 inputs (sigma_i, Delta_i and k are exact there), so the curve's
ball contains the exact delta of the stated mechanisms: no grid, no discretisation error, and the time of one
closed form per eps.  :func:`compose_exact` returns this curve when every mechanism given is Gaussian and None
otherwise (then :func:`verify.accounting.compose` builds grid PLDs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.validation import check_integer

from .curve import (EpsilonInterval, PrivacyCurve, _arb, _check_eps, _with_prec, enclosure_from_ball,
                    invert_delta)
from verify.audit.exact.enclosure import Enclosure

__all__ = ["ComposedGaussianCurve", "compose_exact"]


@dataclass(frozen=True)
class ComposedGaussianCurve:
    """The privacy curve of ``k`` rounds of the Gaussian mechanisms ``terms`` ((sigma, Delta) pairs), exact
    (module docstring).  ``delta(eps)`` is an enclosure from one arb ball, ``epsilon(delta)`` a certified
    bisection on it."""

    terms: tuple[tuple[float, float], ...]
    k: int = 1

    def __post_init__(self) -> None:
        if not self.terms:
            raise ValueError("terms must hold at least one (sigma, sensitivity) pair")
        object.__setattr__(self, "k", check_integer("k", self.k, minimum=1))

    def mu_ball(self) -> Any:
        """mu = sqrt(k sum (Delta_i/sigma_i)^2) as an arb ball (at the current precision)."""
        arb = _arb()
        s = arb(0)
        for sigma, sens in self.terms:
            s += (arb(sens) / arb(sigma)) ** 2
        return (arb(self.k) * s).sqrt()

    @property
    def mu(self) -> float:
        """mu as a float (display only; :meth:`delta` uses the ball)."""
        return float(self.mu_ball().mid())

    def label(self) -> str:
        inner = " + ".join(f"gaussian:scale={s!r},sensitivity={d!r}" for s, d in self.terms)
        return inner if self.k == 1 else f"{self.k} x ({inner})"

    def delta(self, eps: float) -> Enclosure:
        """The enclosure of delta(eps) of the composition, eps >= 0."""
        e0 = _check_eps(eps)
        arb = _arb()

        def f() -> Any:
            mu = self.mu_ball()
            e = arb(e0)
            s2 = arb(2).sqrt()
            u1 = mu / 2 - e / mu
            u2 = -mu / 2 - e / mu
            return (-u1 / s2).erfc() / 2 - e.exp() * (-u2 / s2).erfc() / 2

        return enclosure_from_ball(_with_prec(f), f"exact composition: one Gaussian pair with mu = {self.mu:.17g} "
                                                  "(Dong, Roth & Su 2019 Cor. 3.3; Balle & Wang 2018 Thm. 8)")

    def deltas(self, eps_grid: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower ends, upper ends) of delta at each eps of ``eps_grid``."""
        encs = [self.delta(float(e)) for e in np.asarray(eps_grid, dtype=float).ravel()]
        return np.array([x.lower for x in encs]), np.array([x.upper for x in encs])

    def epsilon(self, delta: float, *, rtol: float = 1e-9) -> EpsilonInterval:
        """[lower, upper] around eps(delta) (:func:`verify.accounting.curve.invert_delta`)."""
        return invert_delta(self.delta, delta, rtol=rtol)


def compose_exact(items: PrivacyCurve | Sequence[PrivacyCurve], k: int = 1) -> ComposedGaussianCurve | None:
    """The exact composed curve of ``items`` repeated ``k`` times when every item is a Gaussian
    :class:`PrivacyCurve`; None otherwise (no closed form: use :func:`verify.accounting.compose`)."""
    k = check_integer("k", k, minimum=1)
    seq = [items] if isinstance(items, PrivacyCurve) else list(items)
    if not seq or not all(isinstance(c, PrivacyCurve) and c.family == "gaussian" for c in seq):
        return None
    return ComposedGaussianCurve(tuple((float(c.scale), float(c.sensitivity)) for c in seq), k)
