"""mpmath versions of the queries of 004 Sec. 4, typed from the paper (independently of the core).

* soft threshold (004 Sec. 4.1.2):            f_tau(x) = clip((x - T)/tau + 1/2, 0, 1).
* bounded range, tent (004 App. C.3):         f(x) = clip(1 - |x - m|/W, 0, 1),  m = (l + r)/2,  W = (r - l)/2 + tau/2;
  trapezoid (Remark of Sec. 4.1.3):           f(x) = clip(min(x - (l - tau/2), (r + tau/2) - x)/tau, 0, 1).
* two-way threshold (004 Sec. 4.2):           f(p) = clip((R1 + tau - dist(p, Q0))/tau, 0, 1), R1 = tau/sqrt2,
                                              Q0 the quadrant {x1 <= c1, x2 <= c2} with c_i = T_i + tau/2 + R1.
* Gaussian kernel (004 Sec. 4.3):             kappa_t(x) = exp(-||x - t||^2/(2 h^2)).

Parameters are converted to mpmath numbers before any arithmetic (a float m = (l + r)/2 would be rounded
to 53 bits first).  ``*_query_mp`` return the callables ``f_mp(x1, ..., xd)`` that the brute-force search
(:func:`smoothsens_core.sensitivity.brute.brute_smooth_sensitivity`) and the black-box bound auditor use.
Evaluate inside ``mpmath.workdps(...)``.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import mpmath

__all__ = [
    "clip01",
    "soft_threshold_mp",
    "bounded_range_mp",
    "two_way_threshold_mp",
    "gaussian_kernel_mp",
    "threshold_query_mp",
    "bounded_range_query_mp",
    "two_way_query_mp",
    "kde_query_mp",
]

_mpf = mpmath.mpf


def clip01(v: Any) -> mpmath.mpf:
    """min(max(v, 0), 1)."""
    return min(max(v, _mpf(0)), _mpf(1))


def soft_threshold_mp(x: Any, T: Any, tau: Any) -> mpmath.mpf:
    """004 Sec. 4.1.2: clip((x - T)/tau + 1/2, 0, 1)."""
    return clip01((_mpf(x) - _mpf(T)) / _mpf(tau) + _mpf(1) / 2)


def bounded_range_mp(x: Any, l: Any, r: Any, tau: Any, shape: str = "tent") -> mpmath.mpf:
    """004 App. C.3 (tent) / Remark of Sec. 4.1.3 (trapezoid); see the module docstring."""
    x, l, r, tau = _mpf(x), _mpf(l), _mpf(r), _mpf(tau)
    if shape == "tent":
        m = (l + r) / 2
        w = (r - l) / 2 + tau / 2
        return clip01(1 - abs(x - m) / w)
    if shape == "trapezoid":
        t2 = tau / 2
        return clip01(min(x - (l - t2), (r + t2) - x) / tau)
    raise ValueError(f"shape must be 'tent' or 'trapezoid'; got shape={shape!r}")


def two_way_threshold_mp(x1: Any, x2: Any, T1: Any, T2: Any, tau: Any) -> mpmath.mpf:
    """004 Sec. 4.2: clip((R1 + tau - dist(p, Q0))/tau, 0, 1), R1 = tau/sqrt2, c_i = T_i + tau/2 + R1."""
    t = _mpf(tau)
    r1 = t / mpmath.sqrt(2)
    c1 = _mpf(T1) + t / 2 + r1
    c2 = _mpf(T2) + t / 2 + r1
    dist = mpmath.sqrt(max(c1 - _mpf(x1), 0) ** 2 + max(c2 - _mpf(x2), 0) ** 2)
    return clip01((r1 + t - dist) / t)


def gaussian_kernel_mp(x: Sequence[Any] | Any, t: Sequence[Any] | Any, h: Any) -> mpmath.mpf:
    """004 Sec. 4.3: exp(-||x - t||^2/(2 h^2)) (x, t points of R^d, or scalars for d = 1)."""
    xs = list(x) if isinstance(x, (list, tuple)) else [x]
    ts = list(t) if isinstance(t, (list, tuple)) else [t]
    s = sum((_mpf(a) - _mpf(b)) ** 2 for a, b in zip(xs, ts, strict=True))
    return mpmath.exp(-s / (2 * _mpf(h) ** 2))


def threshold_query_mp(T: Any, tau: Any) -> Callable[[Any], mpmath.mpf]:
    """x -> :func:`soft_threshold_mp` (x, T, tau)."""
    return lambda x: soft_threshold_mp(x, T, tau)


def bounded_range_query_mp(l: Any, r: Any, tau: Any, shape: str = "tent") -> Callable[[Any], mpmath.mpf]:
    """x -> :func:`bounded_range_mp` (x, l, r, tau, shape)."""
    bounded_range_mp(0, l, r, tau, shape)  # validates the shape now, not at the first evaluation
    return lambda x: bounded_range_mp(x, l, r, tau, shape)


def two_way_query_mp(T1: Any, T2: Any, tau: Any) -> Callable[[Any, Any], mpmath.mpf]:
    """(x1, x2) -> :func:`two_way_threshold_mp` (x1, x2, T1, T2, tau)."""
    return lambda x1, x2: two_way_threshold_mp(x1, x2, T1, T2, tau)


def kde_query_mp(t: Sequence[Any] | Any, h: Any) -> Callable[..., mpmath.mpf]:
    """(x1, ..., xd) -> :func:`gaussian_kernel_mp` ((x1, ..., xd), t, h)."""
    ts = tuple(t) if isinstance(t, (list, tuple)) else (t,)
    return lambda *x: gaussian_kernel_mp(list(x), list(ts), h)
