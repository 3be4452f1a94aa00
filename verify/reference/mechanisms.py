"""mpmath log-densities of the core's mechanisms, keyed by the core class (for certificates).

The core imports no mpmath, so the high-precision densities of its mechanisms live here.  Each is
written from the paper's formula (stated below in plain math), evaluated at the binary64 values the
implementation computes (its query answers f(X), its smooth bound B(x)), at the caller's precision.

* :class:`smoothsens_core.mechanism.SmoothSensitivityMechanism` (004 Lemma 3.3 proof):
  ln p_x(y) = ln h((y - a)/s) - ln s with a = f(x), s = B(x)/eta and h the density of the noise,
  from the independent noise reference :func:`verify.reference.distributions.reference_for`.
* ALap (003 Def. V.3, corrected sign), per coordinate with b = Delta_p/eps and noise side s:
  lambda = y - f(X); -s lambda/b - ln b if s lambda >= 0 (else -inf); -|lambda|/b - ln(2b) if s = 0.
* AGeo (003 Def. VIII.1, App. A), per coordinate: decreasing: ln(1 - e^-eps) - (k - f) eps on
  f <= k < n, -(n - f) eps at the atom k = n; increasing mirrored with the atom at 0; two-sided
  ln((1 - e^-eps)/(1 + e^-eps)) - |k - f| eps.
* SALap (003 Alg. 1): sum over the leading bottoms of ln(1 - e^{-eps (t_i - f_i)}) (-inf if
  t_i <= f_i), plus ln eps - eps (z - f_j) for the released value z (needs z > t_j, z >= f_j).

:data:`LOG_DENSITY_MP` maps each class to its function ``(mechanism, x, y, dps) -> mpf``;
:func:`log_density_mp` looks a mechanism up by its class (and the classes it derives from).
"""

from __future__ import annotations

from typing import Any, Callable

import mpmath
import numpy as np

from smoothsens_core import asymmetric as A
from smoothsens_core.mechanism import SmoothSensitivityMechanism

from .distributions import reference_for

__all__ = ["LOG_DENSITY_MP", "log_density_mp", "has_reference"]


def _smooth_sensitivity(mech: SmoothSensitivityMechanism, x: Any, y: Any, dps: int) -> Any:
    """ln p_x(y) = ln h((y - f(x)) eta / B(x)) - ln(B(x)/eta), h from the noise reference."""
    if mech.is_abstract:
        raise TypeError("the abstract mechanism has no density at an input: give f and B (with_query)")
    xa = np.asarray([x]) if np.ndim(x) == 0 else np.asarray(x)[None, ...]
    a = float(np.asarray(mech.f(xa), dtype=float).reshape(-1)[0])  # type: ignore[misc]
    B = float(np.asarray(mech.B(xa), dtype=float).reshape(-1)[0])  # type: ignore[misc]
    ref = reference_for(mech.noise)
    with mpmath.workdps(dps):
        s = mpmath.mpf(B) / mpmath.mpf(mech.eta)
        return ref.logpdf((mpmath.mpf(y) - mpmath.mpf(a)) / s) - mpmath.log(s)


def _alap(mech: A.ALap, X: Any, y: Any, dps: int) -> Any:
    """003 Def. V.3 (corrected sign), coordinates independent (module docstring)."""
    fx = [int(v) for v in np.asarray(mech.query(X)).reshape(-1)]
    with mpmath.workdps(dps):
        eps = mpmath.mpf(mech.eps)
        ys = [mpmath.mpf(float(v)) for v in np.asarray(y, dtype=float).reshape(-1)]
        b = mpmath.mpf(int(mech.sensitivity)) / eps
        total = mpmath.mpf(0)
        for f, side, yy in zip(fx, mech.noise_sides, ys, strict=True):
            lam = yy - f
            if side == 0:
                total += -abs(lam) / b - mpmath.log(2 * b)
            elif side * lam >= 0:
                total += -side * lam / b - mpmath.log(b)
            else:
                return mpmath.ninf
        return total


def _ageo(mech: A.AGeo, X: Any, y: Any, dps: int) -> Any:
    """003 Def. VIII.1 / App. A, coordinates independent (module docstring)."""
    fx = [int(v) for v in np.asarray(mech.query(X)).reshape(-1)]
    with mpmath.workdps(dps):
        eps = mpmath.mpf(mech.eps)
        ys = [mpmath.mpf(float(v)) for v in np.asarray(y, dtype=float).reshape(-1)]
        n = int(mech.n)
        log1m = mpmath.log(-mpmath.expm1(-eps))
        total = mpmath.mpf(0)
        for f, sign, k in zip(fx, mech.signs, ys, strict=True):
            if k != mpmath.floor(k):
                return mpmath.ninf
            k = int(k)
            if sign == -1:
                if not f <= k <= n:
                    return mpmath.ninf
                total += -(n - f) * eps if k == n else log1m - (k - f) * eps
            elif sign == 1:
                if not 0 <= k <= f:
                    return mpmath.ninf
                total += -f * eps if k == 0 else log1m - (f - k) * eps
            else:
                total += log1m - mpmath.log1p(mpmath.exp(-eps)) - abs(k - f) * eps
        return total


def _salap(mech: A.SALap, X: Any, y: Any, dps: int) -> Any:
    """003 Alg. 1: the leading bottoms, then the released value (module docstring)."""
    fx = [int(v) for v in np.asarray(mech.query(X)).reshape(-1)]
    out = np.asarray(y, dtype=float).reshape(-1)
    with mpmath.workdps(dps):
        eps = mpmath.mpf(mech.eps)
        total = mpmath.mpf(0)
        for i, (f, t) in enumerate(zip(fx, mech.thresholds, strict=True)):
            if out[i] == A.BOTTOM:
                u = mpmath.mpf(float(t)) - f
                if u <= 0:
                    return mpmath.ninf
                total += mpmath.log(-mpmath.expm1(-eps * u))
                continue
            z = mpmath.mpf(float(out[i]))
            if not (z > mpmath.mpf(float(t))) or z < f:
                return mpmath.ninf
            return total + mpmath.log(eps) - eps * (z - f)
        return total


#: The mpmath log-density of each core mechanism class: ``fn(mechanism, x, y, dps)``.
LOG_DENSITY_MP: dict[type, Callable[[Any, Any, Any, int], Any]] = {
    SmoothSensitivityMechanism: _smooth_sensitivity,
    A.ALap: _alap,
    A.AGeo: _ageo,
    A.SALap: _salap,
}


def _lookup(mechanism: Any) -> Callable[[Any, Any, Any, int], Any] | None:
    for cls in type(mechanism).__mro__:
        fn = LOG_DENSITY_MP.get(cls)
        if fn is not None:
            return fn
    return None


def has_reference(mechanism: Any) -> bool:
    """True when :data:`LOG_DENSITY_MP` holds a reference for the mechanism's class."""
    return _lookup(mechanism) is not None


def log_density_mp(mechanism: Any, x: Any, y: Any, dps: int) -> Any:
    """ln Pr[M(x) = y] (or ln p_x(y)) in mpmath at ``dps`` digits from the reference of the
    mechanism's class; TypeError when there is none."""
    fn = _lookup(mechanism)
    if fn is None:
        raise TypeError(f"no mpmath reference for mechanism {type(mechanism).__name__} in "
                        "verify.reference.mechanisms: add `log_density_mp(x, y, dps)` to it")
    return fn(mechanism, x, y, dps)
