"""The privacy loss of a concrete mechanism, in float and in mpmath, and the certification threshold.

For a mechanism with an output density (or pmf) p_x, the privacy loss of the output y between
inputs x and x' is

    L(y; x, x') = ln p_x(y) - ln p_{x'}(y).

Pure guarantees (004 Def. 5 with delta = 0; 002 eq. (1); 003 Def. IV.2) demand
L(y; x, x') <= eps * dist(x, x') for every allowed pair and every y; the auditors maximise the
*slack*  L(y; x, x') - eps * dist(x, x')  over inputs and outputs and report the largest slack and
where it was found.

A violation is reported (outcome ``"violated"``) only after the candidate has been re-evaluated in
mpmath at ``dps`` digits and the slack stays above :func:`cert_threshold` there.  Float noise never
produces a certified violation; a float excess that cannot be certified is ``"inconclusive"``
(:mod:`verify.audit.exact.result`).

The float loss comes from the mechanism's own ``log_density(x, y)`` (the :class:`Mechanism`
protocol of :mod:`smoothsens_core.mechanism`); the mpmath loss from its ``log_density_mp(x, y, dps)``
(:class:`MechanismWithReference`) when it has one, otherwise from the independent reference of its
class in :mod:`verify.reference.mechanisms` (for :class:`SmoothSensitivityMechanism`: the noise
family's reference of :mod:`verify.reference.distributions`).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.validation import check_positive
from verify.reference import mechanisms as _references

__all__ = [
    "PARAM_ROUNDING_TOL",
    "cert_threshold",
    "check_has_density",
    "privacy_loss",
    "log_density_mp",
    "privacy_loss_mp",
]

FloatArray = NDArray[np.float64]

# A certified slack must exceed half the working digits AND the rounding of the binary64
# parameters: a mechanism built with gamma = 0.2 (binary64: 0.2000000000000000111...) and
# alpha = eps/gamma rounded to 5.0 really has eps = alpha*gamma = 1 + 5.6e-17 -- a "violation" of
# parameter rounding, not of the mathematics.  Violations must exceed PARAM_ROUNDING_TOL*(1+|eps d|).
_CERT_MARGIN_DIGITS = 2
PARAM_ROUNDING_TOL = 1e-12


def cert_threshold(dps: int, scale: Any = 1) -> mpmath.mpf:
    """The smallest mpmath slack that certifies a violation at ``dps`` digits:
    max(10^-(dps/2), PARAM_ROUNDING_TOL (1 + |scale|)), scale = eps * dist for a pure guarantee."""
    return max(mpmath.mpf(10) ** (-(dps // _CERT_MARGIN_DIGITS)),
               mpmath.mpf(PARAM_ROUNDING_TOL) * (1 + abs(mpmath.mpf(scale))))


def check_has_density(mechanism: Any) -> None:
    """Raise TypeError unless ``mechanism`` exposes an exact ``log_density(x, y)`` and a claimed
    ``eps`` > 0 (the auditor needs nothing else)."""
    if not callable(getattr(mechanism, "log_density", None)):
        raise TypeError(
            f"mechanism {type(mechanism).__name__} has no log_density(x, y): the auditor needs an "
            "exact output density (or pmf); a sampler alone cannot be audited"
        )
    eps = getattr(mechanism, "eps", None)
    if eps is None:
        raise TypeError(f"mechanism {type(mechanism).__name__} has no claimed eps attribute")
    check_positive("eps", eps)


def privacy_loss(mechanism: Any, x: Any, x_prime: Any, y: ArrayLike) -> FloatArray:
    """L(y; x, x') = ln p_x(y) - ln p_{x'}(y) in float (vectorised over matching batches)."""
    check_has_density(mechanism)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(mechanism.log_density(x, y), dtype=float) - np.asarray(
            mechanism.log_density(x_prime, y), dtype=float
        )


def log_density_mp(mechanism: Any, x: Any, y: Any, dps: int) -> Any:
    """ln p_x(y) in mpmath at ``dps`` digits: the mechanism's own ``log_density_mp`` if it has one
    (:class:`smoothsens_core.mechanism.MechanismWithReference`), otherwise the reference of its
    class (:func:`verify.reference.mechanisms.log_density_mp`).  TypeError when neither exists."""
    own = getattr(mechanism, "log_density_mp", None)
    if callable(own):
        return own(x, y, dps)
    return _references.log_density_mp(mechanism, x, y, dps)


def privacy_loss_mp(mechanism: Any, x: Any, x_prime: Any, y: Any, dps: int = 50) -> Any:
    """L(y; x, x') in mpmath at ``dps`` digits (for one candidate)."""
    with mpmath.workdps(dps):
        return log_density_mp(mechanism, x, y, dps) - log_density_mp(mechanism, x_prime, y, dps)
