"""Two-way soft threshold on R^2 and its smooth sensitivity (004 Sec. 4.2, Claim 4.2, Lemma 4.3).

Geometry (004 Sec. 4.2): R1 = tau/sqrt(2), R2 = R1 + tau, c0 = (T1 + tau/2 + R1, T2 + tau/2 + R1).
With Q0 = {p : p >= c0} (componentwise) and D(p) = dist(p, Q0) = ||max(c0 - p, 0)||_2, the regions
of 004 Sec. 4.2 are  S_1 = {D < R1} (value 1), S_tau = {R1 <= D <= R2} (the transition band) and
S_0 = {D > R2} (value 0), and the printed piecewise definition of f_tau is exactly

    f_tau(p) = clip((R2 - D(p)) / tau, 0, 1)

(S_{tau,alpha}: D = ||p - c0||; S_{tau,1}: D = c0_1 - p_1, giving (p_1 - (T1 - tau/2))/tau; etc.).
D is 1-Lipschitz, so f_tau is 1/tau-Lipschitz (Claim 4.2).  The distance of p to the band is

    d(p) = D(p) - R2                                  on S_0,
    d(p) = R1 - D(p) + max(min(p_1 - c0_1, p_2 - c0_2), 0)   on S_1 (inner distance to {D >= R1}),

and, as in ``_ramp``, L_{f,Lambda}(p) = ell(d(p)) and B*(p) = max_{0<=e<=d} ell(e)/g0(d - e)
(moving toward the band lowers d at unit rate; d is 1-Lipschitz).  For g_E and Lambda = inf this is
004 Lemma 4.3 case by case: e.g. on S_{0,alpha}, d + tau = ||p - c0|| - R1; on S_{1,3} the printed
max of two one-way terms equals the term of the nearer edge, min(d_1, d_2) = d.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_positive, check_real, shape_points
from ..growth import GrowthFunction
from ._chunking import DEFAULT_CHUNK, map_chunks
from ._common import SensitivityValues, _check_finite, as_float_array, fast_pair, points_nd, scalar_real
from ._ramp import check_growth, check_lambda, ramp_lipschitz, ramp_one_point, ramp_smooth_sensitivity

__all__ = [
    "soft_two_way_threshold",
    "lipschitz_two_way_threshold",
    "smooth_sensitivity_two_way_threshold",
    "sensitivity_two_way_threshold",
    "two_way_regions",
]


def _params(T1: float, T2: float, tau: float) -> tuple[float, float, float]:
    return check_real("T1", T1), check_real("T2", T2), check_positive("tau", tau)


def _geometry(T1: float, T2: float, tau: float) -> tuple[float, float, float, float]:
    R1 = tau / math.sqrt(2.0)
    R2 = R1 + tau
    return R1, R2, T1 + tau / 2.0 + R1, T2 + tau / 2.0 + R1


_np_hypot = np.hypot
_SAFE_LO, _SAFE_HI = 1e-150, 1e150  # sqrt(a^2 + b^2) neither under- nor overflows when the result is in here


def _norm2(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """sqrt(a^2 + b^2) elementwise (a, b >= 0): four IEEE operations, within 2 ulp of the exact value,
    and np.hypot only where that form could under- or overflow (result outside [1e-150, 1e150]).
    np.hypot everywhere costs about six np.exp passes; this about two."""
    return _hypot_where_unsafe(_sqrt_sum_sq(a, b), a, b)


def _sqrt_sum_sq(a: NDArray[np.float64], b: NDArray[np.float64], inplace: bool = False) -> NDArray[np.float64]:
    """sqrt(a*a + b*b) in four IEEE operations (written into ``a``, ``b`` overwritten, when ``inplace``)."""
    with np.errstate(over="ignore", under="ignore"):
        h = np.multiply(a, a, out=a if inplace else None)
        h += np.multiply(b, b, out=b if inplace else None)
        return np.sqrt(h, out=h)


def _hypot_where_unsafe(
    h: NDArray[np.float64], a: NDArray[np.float64], b: NDArray[np.float64], idx: NDArray[np.intp] | None = None
) -> NDArray[np.float64]:
    """h = sqrt(a^2 + b^2) of :func:`_norm2`, with np.hypot where h is outside [1e-150, 1e150]; the
    arguments are a[idx], b[idx] when ``idx`` is given (read at those points only)."""
    if h.size and not (_SAFE_LO <= h.min() and h.max() <= _SAFE_HI):  # two reductions; masks only when needed
        bad = np.flatnonzero((h < _SAFE_LO) | (h > _SAFE_HI))
        src = bad if idx is None else idx[bad]
        h[bad] = np.hypot(a[src], b[src])
    return h


def _norm2_one(a: float, b: float) -> float:
    """:func:`_norm2` for two Python floats (the same IEEE operations, so the same bits)."""
    h = math.sqrt(a * a + b * b)  # a float product overflows to inf in Python, as in NumPy
    return h if _SAFE_LO <= h <= _SAFE_HI else float(_np_hypot(a, b))


def _dist_q0(p: NDArray[np.float64], c01: float, c02: float) -> tuple[NDArray[np.float64], ...]:
    u1 = c01 - p[:, 0]
    u2 = c02 - p[:, 1]
    D = _norm2(np.maximum(u1, 0.0), np.maximum(u2, 0.0))
    return D, u1, u2


def _band_distance(p: NDArray[np.float64], T1: float, T2: float, tau: float) -> NDArray[np.float64]:
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    D, u1, u2 = _dist_q0(p, c01, c02)
    inner = R1 - D + np.maximum(np.minimum(-u1, -u2), 0.0)
    return np.where(D > R2, D - R2, np.where(D < R1, inner, 0.0))


def _corner_terms(
    c: NDArray[np.float64], c01: float, c02: float, work: tuple[NDArray[Any], ...] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(v, m) = (max(u1, u2), min(u1, u2)) with u = c0 - p, for one chunk (new arrays, or the first
    buffers of ``work`` from :func:`_workspace`).  A NaN or infinite coordinate shows as NaN or
    +inf in v or as -inf in m, so two reductions of these detect a non-finite input (the converse
    needs the full check: c0 - p may overflow)."""
    k = c.shape[0]
    if work is None:
        v_out = m_out = u_out = None
    else:
        u_out, v_out, m_out = work[0][:k], work[1][:k], work[2][:k]
    if c.strides == (16, 8):  # rows of two adjacent doubles: one complex subtraction computes both
        u = np.subtract(complex(c01, c02), c.view(np.complex128).reshape(-1), out=u_out)  # componentwise:
        u1, u2 = u.real, u.imag  # the same two real subtractions, bit for bit, in one contiguous pass
        return np.maximum(u1, u2, out=v_out), np.minimum(u1, u2, out=m_out)
    u1 = np.subtract(c01, c[:, 0], out=m_out)
    u2 = c02 - c[:, 1]
    v = np.maximum(u1, u2, out=v_out)
    np.minimum(u1, u2, out=u1)
    return v, u1


def _workspace(k: int) -> tuple[NDArray[Any], ...]:
    """Scratch for chunks of up to k points, allocated once per call: (complex offsets, v, m, two
    gather buffers).  A fresh temporary of chunk size is mapped and faulted in again on every chunk
    (glibc returns it to the system on free): about a tenth of an np.exp pass each."""
    return (np.empty(k, dtype=np.complex128), *(np.empty(k) for _ in range(4)))


def _signed_from_corner(
    v: NDArray[np.float64], m: NDArray[np.float64], R1: float, R2: float, work: tuple[NDArray[Any], ...] | None = None
) -> NDArray[np.float64]:
    """t = max(D' - R2, R1 - D') from the corner terms of :func:`_corner_terms` (both overwritten;
    t is returned in ``m``): D' = ``_norm2(v, m)`` where m > 0, v elsewhere.  d+ = max(t, 0); t <= 0
    on the band.  The norm runs on the gathered points with m > 0 only (a dense norm costs more at
    any share of them: sqrt is four simple passes, and a masked select mispredicts), in the gather
    buffers of ``work`` when given."""
    idx = np.flatnonzero(m > 0.0)
    if idx.size:
        if work is None:
            v[idx] = _norm2(v.take(idx), m.take(idx))
        else:  # _norm2 in the gather buffers (the same operations; v, m keep the arguments)
            h = _sqrt_sum_sq(v.take(idx, out=work[3][: idx.size]), m.take(idx, out=work[4][: idx.size]), inplace=True)
            v[idx] = _hypot_where_unsafe(h, v, m, idx)
    np.subtract(v, R2, out=m)
    np.subtract(R1, v, out=v)
    np.maximum(m, v, out=m)
    return m


def _plus_from_corner(
    v: NDArray[np.float64], m: NDArray[np.float64], R1: float, R2: float, work: tuple[NDArray[Any], ...] | None = None
) -> NDArray[np.float64]:
    """d+ = max(D' - R2, R1 - D', 0) (see :func:`_signed_from_corner`).  R1 < R2, so at most one of
    D' - R2 and R1 - D' is positive: this is the sum of the two clipped terms, bit for bit (one of
    them is +0)."""
    t = _signed_from_corner(v, m, R1, R2, work)
    np.maximum(t, 0.0, out=t)
    return t


def _band_distance_plus(c: NDArray[np.float64], R1: float, R2: float, c01: float, c02: float) -> NDArray[np.float64]:
    """max(d(p), 0) for one chunk, fused and in place (the Lambda = inf path needs only d+):

        d+ = max(D' - R2, 0) + max(R1 - D', 0),   u = c0 - p,
        D' = hypot(u1, u2) where min(u1, u2) > 0, max(u1, u2) elsewhere,

    which is ``max(_band_distance, 0)`` bit for bit.  Where both u > 0, D' = D (hypot is symmetric,
    so hypot(max, min) = hypot(u1, u2)).  Where exactly one u > 0, D = max(u, 0) + 0 = that u = D'.
    Where both u <= 0, D = 0 and d = R1 - 0 + m with m = max(min(-u1, -u2), 0) = -max(u1, u2) =
    -D' >= 0, i.e. d+ = (0 + R1) + m = R1 - D' (one rounding either way), which is what the formula
    gives with D' (the first term is 0, the second R1 - D' >= R1 > 0).  On the band (R1 <= D <= R2)
    both terms are 0.  Two temporaries fewer than computing D, m and the three terms separately;
    the norm (:func:`_norm2`, symmetric in its arguments) is evaluated only where both u are positive."""
    v, m = _corner_terms(c, c01, c02)
    return _plus_from_corner(v, m, R1, R2)


def _one_point_band_distance(x: float, y: float, R1: float, R2: float, c01: float, c02: float) -> float:
    """d(p) of ``_band_distance`` for one point in Python floats (same operations, same order)."""
    u1, u2 = c01 - x, c02 - y
    D = _norm2_one(u1 if u1 > 0.0 else 0.0, u2 if u2 > 0.0 else 0.0)  # the bulk's operations, the same bits
    if D > R2:
        return D - R2
    if D < R1:
        m = min(-u1, -u2)
        return R1 - D + (m if m > 0.0 else 0.0)
    return 0.0


def two_way_regions(points: ArrayLike, T1: float, T2: float, tau: float) -> NDArray[np.str_]:
    """The region label of 004 Sec. 4.2 of each point: '1,alpha', '1,1', '1,2', '1,3', '0,alpha',
    '0,1', '0,2', 'tau,alpha', 'tau,1', 'tau,2' (the printed sets, boundaries as printed)."""
    T1, T2, tau = _params(T1, T2, tau)
    p = points_nd("points", points, 2)
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    x, y = p[:, 0], p[:, 1]
    a1, a2 = T1 + tau / 2.0, T2 + tau / 2.0
    r = np.hypot(x - c01, y - c02)
    le = (x <= c01) & (y <= c02)
    lab = np.full(p.shape[0], "", dtype="<U9")
    conds = [
        ((a1 < x) & (x < c01) & (a2 < y) & (y < c02) & (r < R1), "1,alpha"),
        ((a1 < x) & (x < c01) & (y > c02), "1,1"),
        ((a2 < y) & (y < c02) & (x > c01), "1,2"),
        ((x > c01) & (y > c02), "1,3"),
        (le & (r > R2), "0,alpha"),
        ((x <= T1 - tau / 2.0) & (y > c02), "0,1"),
        ((y <= T2 - tau / 2.0) & (x > c01), "0,2"),
        (le & (R1 <= r) & (r <= R2), "tau,alpha"),
        ((T1 - tau / 2.0 <= x) & (x <= a1) & (y > c02), "tau,1"),
        ((T2 - tau / 2.0 <= y) & (y <= a2) & (x > c01), "tau,2"),
    ]
    for cond, name in conds:
        lab = np.where((lab == "") & cond, name, lab)
    return lab


def soft_two_way_threshold(points: ArrayLike, T1: float, T2: float, tau: float) -> NDArray[np.float64]:
    """f_tau(p) = clip((R2 - dist(p, Q0))/tau, 0, 1), the printed f_tau of 004 Sec. 4.2."""
    T1, T2, tau = _params(T1, T2, tau)
    p = points_nd("points", points, 2)
    R1, R2, c01, c02 = _geometry(T1, T2, tau)

    def block(c: NDArray[np.float64]) -> tuple[NDArray[np.float64]]:
        D, _, _ = _dist_q0(c, c01, c02)
        return (np.clip((R2 - D) / tau, 0.0, 1.0),)

    (out,) = map_chunks(block, p, 1)
    return out


def lipschitz_two_way_threshold(
    points: ArrayLike, T1: float, T2: float, tau: float, Lambda: float = math.inf
) -> NDArray[np.float64]:
    """L_{f_tau,Lambda}(p) (004 Def. 7) = ell(d(p)) of the ``_ramp`` profile with width tau."""
    T1, T2, tau = _params(T1, T2, tau)
    Lam = check_lambda(Lambda)
    p = points_nd("points", points, 2)
    (out,) = map_chunks(lambda c: (ramp_lipschitz(_band_distance(c, T1, T2, tau), tau, Lam),), p, 1)
    return out


def smooth_sensitivity_two_way_threshold(
    points: ArrayLike,
    T1: float,
    T2: float,
    tau: float,
    growth: GrowthFunction,
    Lambda: float = math.inf,
    *,
    chunk: int = DEFAULT_CHUNK,
) -> NDArray[np.float64]:
    """B*(p) of the two-way f_tau (004 Lemma 4.3 for g_E, Lambda = inf; g_L and finite Lambda
    by the ramp-profile derivation of ``_ramp``).  ``points`` has shape (n, 2).

    Lambda = inf: B*(p) = max(1/(d+ + tau), 1/(tau g0(d+))), d+ = max(d(p), 0), fused in place per
    chunk.  One point given as a pair of floats (tuple, list or array of shape (2,)/(1, 2)) takes a
    fast path with the same operations (bit-identical to the bulk result: the distance uses only
    correctly rounded operations, and exp is NumPy's, see ``_ramp.ramp_one_point``)."""
    if (Lambda is math.inf or Lambda == math.inf) and type(growth) is GrowthFunction:
        pt = fast_pair(points)
        if pt is not None:
            a1, a2, tv = scalar_real(T1), scalar_real(T2), scalar_real(tau)
            if a1 is not None and a2 is not None and tv is not None and tv > 0.0:
                R1, R2, c01, c02 = _geometry(a1, a2, tv)
                return np.array([ramp_one_point(_one_point_band_distance(pt[0], pt[1], R1, R2, c01, c02), tv, growth)])
    T1, T2, tau = _params(T1, T2, tau)
    g = check_growth(growth)
    Lam = check_lambda(Lambda)
    if math.isinf(Lam):
        return _smooth_sensitivity_inf(points, T1, T2, tau, g, chunk)
    p = points_nd("points", points, 2)
    (out,) = map_chunks(
        lambda c: (ramp_smooth_sensitivity(_band_distance(c, T1, T2, tau), tau, Lam, g),), p, 1, chunk
    )
    return out


def _smooth_sensitivity_inf(
    points: ArrayLike, T1: float, T2: float, tau: float, g: GrowthFunction, chunk: int
) -> NDArray[np.float64]:
    """The bulk Lambda = inf path: B*(p) = max(1/(d+ + tau), (1/tau) growth(d+)) per chunk, in place,
    written straight into the output.  The finiteness of the points is checked inside the loop on
    the chunk's corner terms (two reductions; the full check with its message only when they are
    not finite), instead of a separate pass over the input; the shape is checked first, as
    ``points_nd`` does (a non-finite entry is still reported before a wrong shape)."""
    arr = as_float_array("points", points)
    try:
        p = shape_points("points", arr, 2)
    except ValueError:
        _check_finite("points", arr)
        raise
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    gamma = float(g.gamma)
    inv_tau = 1.0 / tau
    is_exp = g.kind == "exp"
    n = p.shape[0]
    out = np.empty(n, dtype=np.float64)
    work = _workspace(min(n, chunk))
    for start in range(0, n, chunk):
        c = p[start : start + chunk]
        v, m = _corner_terms(c, c01, c02, work)
        if not (math.isfinite(v.max()) and math.isfinite(m.min())):
            _check_finite("points", p)  # raises naming the first non-finite entry (else c0 - p overflowed)
        if is_exp:
            # B* = min(max(1/(t + tau), e^{-gamma t} (1/tau)), 1/tau) with t = max(D' - R2, R1 - D'):
            # where t > 0 (d+ = t) both terms are the ones of d+ and <= 1/tau, so the min changes
            # nothing; where t <= 0 (the band, d+ = 0, B* = 1/tau) t + tau lies in [tau/2, tau], so
            # 1/(t + tau) >= 1/tau (rounding is monotone) and the min gives 1/tau, the same bits as
            # 1/(0 + tau).  One pass fewer than clipping t, and np.exp never sees the exact zeros of
            # -gamma d+ on the band, which take libm's tiny-argument branch and mispredict among the
            # other points (15% of the call with a tenth of the points on the band).
            t = _signed_from_corner(v, m, R1, R2, work)
            near = np.add(t, tau, out=v)
            np.divide(1.0, near, out=near)  # = np.reciprocal, the same IEEE division (and twice as fast)
            t *= -gamma
            with np.errstate(over="ignore"):  # e^{gamma |t|} on the band may overflow: min gives 1/tau
                np.exp(t, out=t)
                t *= inv_tau
            np.maximum(near, t, out=near)
            np.minimum(near, inv_tau, out=out[start : start + chunk])
            continue
        else:  # (1/tau) / (1 + gamma d+), as in _ramp.ramp_smooth_sensitivity
            dp = _plus_from_corner(v, m, R1, R2, work)
            near = np.add(dp, tau, out=v)
            np.divide(1.0, near, out=near)
            dp *= gamma
            dp += 1.0
            np.divide(inv_tau, dp, out=dp)
        np.maximum(near, dp, out=out[start : start + chunk])
    return out


def sensitivity_two_way_threshold(
    points: ArrayLike, T1: float, T2: float, tau: float, growth: GrowthFunction, Lambda: float = math.inf
) -> SensitivityValues:
    """(f_tau, L_{f,Lambda}, B*) of the two-way soft threshold (004 Sec. 4.2)."""
    return SensitivityValues(
        soft_two_way_threshold(points, T1, T2, tau),
        lipschitz_two_way_threshold(points, T1, T2, tau, Lambda),
        smooth_sensitivity_two_way_threshold(points, T1, T2, tau, growth, Lambda),
    )
