"""Generic smooth-sensitivity engine: the stationary-point procedure of 004 Sec. 3.3, numerically.

Problem (004 Defs. 7, 9, Sec. 3.3).  For f : R^d -> R (Euclidean metric), Lambda in (0, inf] and
a smooth growth function g(x, z) = g0(||x - z||),

    B*(x) = sup_{w != z, ||w - z|| <= Lambda}  Phi(z, w),
    Phi(z, w) = |f(w) - f(z)| / ||w - z|| / g0(||z - x||),

where w -> z is read as the limit ||grad f(z)|| (one-sided slopes at a kink), and
L_{f,Lambda}(x) is the same sup with z = x (g0(0) = 1).

Candidate sets.  The maximiser of Phi over the stratified feasible set is a stationary point of
Phi restricted to one stratum.  A stratum fixes the mode of z (z = x, z = a kink k_i of f, or z
free) and the mode of w (w -> z, ||w - z|| = Lambda, w = a kink k_j, or w free).  With
psi = (f(w) - f(z))/||w - z||, rho = ||w - z||, D = w - z, r = ||z - x||, e = (z - x)/r and
lambda(r) = d/dr ln g0(r) (= gamma for g_E, gamma/(1 + gamma r) for g_L), the stationarity
equations (multiplied by positive factors so that no removable singularity is evaluated) are

* w free       : grad f(w) rho^2 - (f(w) - f(z)) D = 0                       (004 S2 for z = x)
* z free       : -grad f(z) rho^2 + (f(w) - f(z)) D - (f(w) - f(z)) rho^2 lambda(r) e = 0
                 (w free: 004 S1, first part; w = a kink: 004 S1, second part)
* w -> z, z free (004 S3): d = 1: f''(z) - f'(z) lambda e = 0;
                 d >= 2: H(z) grad f(z) - ||grad f(z)||^2 lambda e = 0
* ||w - z|| = Lambda, w = z + Lambda u(theta), in the free unknowns (z, theta) (004 S4, corrected):
                 z: grad f(w) - grad f(z) - (f(w) - f(z)) lambda e = 0;  theta: grad f(w) . t_j(theta) = 0
                 (u(theta): hyperspherical angles theta_0..theta_{d-2}, ``sphere_point``; t_j the
                 orthonormal tangent frame, t = u'(theta) for d = 2)
* strata of dimension 0 (004 S0 and case 4): z in {x, k_i} with w in {z (limit), z +- Lambda,
  k_j}, and z = k_j -+ Lambda with w = k_j.

ERRATUM (004 Sec. 3.3, S4).  The paper prints
S4 = {(w, z) : ||w - z|| = Lambda, dPsi/dz (z, w) = 0}, the *partial* derivative in z with w held
fixed.  On the sphere ||w - z|| = Lambda, w moves with z, and a constrained stationary point is a
zero of the derivative *along* the constraint (Lagrange condition), i.e. of
d/dz Psi(z, z + Lambda u) in (z, u) as used here.  Witness: f(x) = x^2, Lambda = 0.1, g_E with
gamma = 1, x = 0: the true B*(0) = max_z (2|z| + 0.1) e^{-|z|} = 2 e^{-0.95} = 0.77351 at z = 0.95,
while the printed S1-S4 give max(S3: 2/e = 0.73576, printed S4: e^{-0.45} = 0.63763) = 0.73576.
The printed case 2 (z = x, w in S0 u S2) also omits w on the sphere ||w - x|| = Lambda, and case 3
omits z in S0 (one-sided slopes at a kink); both are included here.

Numerics.  Strata with no free unknown are evaluated directly.  A stratum with one free unknown is
solved by bracketing: the residual is sampled on a grid of every interval between the
breakpoints (x, kinks, x +- Lambda, kinks +- Lambda, window ends; theta on [0, 2 pi]) and every
sign change is refined by vectorised bisection to a bracket of adjacent floating-point numbers;
a bracket whose residual does not shrink (a jump, not a root: an undeclared kink) raises
:class:`RootCertificationError` naming the point.  Where f is linear on a piece the S1/S2
residuals vanish identically and their float values are rounding noise of either sign (slopes
such as 0.8 or 1/3 are not exact in binary): a node whose residual is identically zero on its
piece (``CandidateSystem.null_regions``, derived symbolically) or below ``NOISE`` times the
magnitude of its terms (``CandidateSystem.residual_scale``) is itself a candidate and takes no
part in sign changes (Phi is constant there, the piece ends are candidates anyway).  A root whose
residual is at rounding level on the nodes next to it (near z = x a chord residual is O(rho^3): sin
near its inflection points 0 and pi) is bracketed by the samples of Phi instead: every discrete local
maximum of Phi on the grid (interval ends included) among a point's largest samples is refined by
golden-section search and kept if it is a root of the stratum's equation to rounding
(``_refine_sample_maxima``; a maximum that the equations do not have, as with the printed S4, is
not a candidate and is left to the guards).  Chord values
are taken with the rounding allowance of f subtracted (``_phi``), so a chord between two
breakpoints an ulp apart cannot produce a value.  Strata with several unknowns are solved by
damped Gauss-Newton (finite-difference Jacobian, backtracking on the residual norm, a trust region
that keeps w from jumping across z; the w-free equations are divided by rho^3 there so that the
trivial solutions w = z do not attract) from a grid of starts (d = 1 with g_E: the (z free, w free)
equations depend on x only through sign(z - x), so they are solved once for all points,
``_shared_roots_1d``): the window grid plus geometric
offsets around x for z, geometric offsets (down to 1e-3 of min(Lambda, window)) for w - z.  Every candidate is a feasible
(z, w), so its value is a lower bound of the sup; completeness is guarded: Phi is also evaluated at
every grid node and start, and a sample above the best candidate (relative 1e-9), or a best value
sitting on the edge of the search window, raises rather than returning a wrong number (an edge
sample is not counted where the null regions show that Phi is constant past the edge along the
unknown at the edge, or along the ray z -> w: f linear, the sup attained on whole rays).  For
d >= 3 the start grid has nz^d nodes times the offsets; Phi is evaluated at all of them (guards)
and Newton runs from the ``_KEEP_STARTS * density`` starts of largest Phi per point.

Supported here: d = 1 (point kinks allowed) and any d >= 2 with f smooth.  A piecewise f in d = 2
(kink curves) is handled by :mod:`.generic_piecewise` (strata on the curves and at their
corners); in d >= 3 (kink surfaces) derivations.engine refuses it with method='candidates'.  The sup is over
R^d; the search window (per point: [min(x, kinks) - radius, max(x, kinks) + radius] in each
coordinate, or ``domain=(lo, hi)``) is where stationary points are looked for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_points
from ..growth import GrowthFunction
from .brute import check_lambda_value, search_window

__all__ = [
    "RootCertificationError",
    "CandidateSystem",
    "GenericSpec",
    "generic_lipschitz",
    "generic_smooth_sensitivity",
    "GenericResult",
]

Residual = Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]

_Z_MODES = ("x", "kink", "free")
_KEEP_STARTS = 48  # d >= 3: Newton starts kept per point, times the density
_W_MODES = ("limit", "sphere", "kink", "free")


class RootCertificationError(ValueError):
    """A stationary-point equation could not be solved with a certificate at a named input."""


def _raise_at_first(failed: NDArray[np.bool_], message: Callable[[int], str]) -> None:
    """Raise :class:`RootCertificationError` with ``message(i)`` for the first index i where
    ``failed`` holds (nothing if it holds nowhere)."""
    if np.any(failed):
        raise RootCertificationError(message(int(np.argmax(failed))))


@dataclass(frozen=True)
class CandidateSystem:
    """One stratum of the feasible set and its stationarity equation (see the module docstring).

    ``residual(Y, X)`` maps the free unknowns Y (shape (n, m): z coordinates first if z is free,
    then w coordinates if w is free, or theta if w is on the Lambda-sphere and d = 2) and the
    points X (shape (n, d)) to the residual, shape (n, m).  ``residual`` is None when m = 0.
    ``paper_set`` names the set of 004 Sec. 3.3 the stratum belongs to (or "extra").

    Optional, for the numerics of pieces where f is linear (where a residual vanishes identically
    and its float value is rounding noise of either sign):
    ``residual_scale(Y, X)``, same shape as the residual: a magnitude of its terms (e.g.
    |f'(w)| rho^2 + (|f(w)| + |f(z)|) |D|); a residual below ``NOISE`` times it is zero to rounding.
    ``null_regions``: ((j, lo, hi), ...): on the open box lo < (Y, X) < hi (columns: unknowns,
    then the point's coordinates; +-inf allowed) equation j vanishes identically, i.e. Phi does not
    depend on unknown j there; j = -1 (w free only): the radial combination (w - z) . (w-block)
    vanishes, i.e. Phi is constant along the ray from z through w (derived symbolically by
    derivations.engine).
    """

    name: str
    z_mode: str
    w_mode: str
    residual: Residual | None = None
    z_kink: int = -1
    w_kink: int = -1
    sign: int = 0
    paper_set: str = ""
    residual_scale: Residual | None = None
    null_regions: tuple[tuple[int, tuple[float, ...], tuple[float, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.z_mode not in _Z_MODES:
            raise ValueError(f"z_mode must be one of {_Z_MODES}; got z_mode={self.z_mode!r}")
        if self.w_mode not in _W_MODES:
            raise ValueError(f"w_mode must be one of {_W_MODES}; got w_mode={self.w_mode!r}")
        regions = []
        for reg in self.null_regions:
            try:
                j, lo, hi = reg
                lo_a = np.asarray(lo, dtype=float).reshape(-1)
                hi_a = np.asarray(hi, dtype=float).reshape(-1)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"null_regions must be a sequence of (j, lo, hi); got {reg!r}") from exc
            if lo_a.shape != hi_a.shape or int(j) < -1:
                raise ValueError(f"null_regions must be a sequence of (j, lo, hi) with len(lo) == len(hi); got {reg!r}")
            regions.append((int(j), tuple(lo_a.tolist()), tuple(hi_a.tolist())))
        object.__setattr__(self, "null_regions", tuple(regions))

    def n_unknowns(self, d: int) -> int:
        m = d if self.z_mode == "free" else 0
        if self.w_mode == "free":
            m += d
        elif self.w_mode == "sphere":
            m += d - 1
        return m


@dataclass(frozen=True)
class GenericSpec:
    """Numeric specification of f for the engine (built by derivations.engine from SymPy).

    ``f(P)`` and ``grad(P)`` map points (n, d) to (n,) and (n, d).  ``kinks`` (shape (k, d), d = 1
    only) are the points where f' is undefined (004 S0); ``kink_slopes[i] = (f'(k_i-), f'(k_i+))``.
    ``f_magnitude(P)`` (optional, default |f|): a magnitude of the terms f is computed from, so
    that its rounding error is a few eps times it (e.g. |1| + |x - m|/W for the tent
    1 - |x - m|/W near its zero); chord values are lowered by that allowance (``_phi``).
    """

    d: int
    f: Callable[[NDArray[np.float64]], NDArray[np.float64]]
    grad: Callable[[NDArray[np.float64]], NDArray[np.float64]]
    growth: GrowthFunction
    Lambda: float
    systems: tuple[CandidateSystem, ...]
    kinks: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 1)))
    kink_slopes: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 2)))
    label: str = "f"
    f_magnitude: Callable[[NDArray[np.float64]], NDArray[np.float64]] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.d, bool) or not isinstance(self.d, (int, np.integer)) or self.d < 1:
            raise ValueError(f"d must be a positive integer (the dimension of the points); got d={self.d!r}")
        if not isinstance(self.growth, GrowthFunction):
            raise TypeError(f"growth must be a GrowthFunction; got {type(self.growth).__name__}")
        object.__setattr__(self, "Lambda", check_lambda_value(self.Lambda))
        k = np.asarray(self.kinks, dtype=float).reshape(-1, self.d)
        if k.shape[0] and self.d != 1:
            raise ValueError(
                f"kinks are supported for d = 1 only in the candidate engine; got {k.shape[0]} kinks "
                f"for d={self.d} (use method='brute')"
            )
        object.__setattr__(self, "kinks", k)
        object.__setattr__(self, "kink_slopes", np.asarray(self.kink_slopes, dtype=float).reshape(-1, 2))
        if self.kink_slopes.shape[0] != k.shape[0]:
            raise ValueError(
                f"kink_slopes must have one row per kink; got {self.kink_slopes.shape[0]} rows for {k.shape[0]} kinks"
            )
        if not math.isfinite(self.Lambda) and any(s.w_mode == "sphere" for s in self.systems):
            raise ValueError("systems on the Lambda-sphere need a finite Lambda; got Lambda=inf")


@dataclass(frozen=True)
class GenericResult:
    """Per point: the value, the maximiser (z, w) (w = z marks the limit) and the stratum name."""

    value: NDArray[np.float64]
    z: NDArray[np.float64]
    w: NDArray[np.float64]
    system: NDArray[np.str_]


# --------------------------------------------------------------------------------------------
# evaluation of Phi on a stratum


def _inv_g(growth: GrowthFunction, z: NDArray[np.float64], X: NDArray[np.float64]) -> NDArray[np.float64]:
    """1/g0(||z - x||): e^(-gamma r) (g_E), 1/(1 + gamma r) (g_L) (004 Sec. 3.1.2)."""
    r = np.sqrt(np.sum((z - X) ** 2, axis=1))
    if growth.kind == "exp":
        return np.exp(-growth.gamma * r)
    return 1.0 / (1.0 + growth.gamma * r)


def _zw(spec: GenericSpec, s: CandidateSystem, Y: NDArray[np.float64], X: NDArray[np.float64]):
    n, d = X.shape
    i = 0
    if s.z_mode == "free":
        z = Y[:, :d]
        i = d
    elif s.z_mode == "x":
        z = X
    else:
        z = np.broadcast_to(spec.kinks[s.z_kink], (n, d))
    if s.w_mode == "free":
        w = Y[:, i : i + d]
    elif s.w_mode == "limit":
        w = z
    elif s.w_mode == "kink":
        w = np.broadcast_to(spec.kinks[s.w_kink], (n, d))
    elif d == 1:
        w = z + s.sign * spec.Lambda
    else:
        w = z + spec.Lambda * sphere_point(Y[:, i : i + d - 1])
    return np.asarray(z, dtype=float), np.asarray(w, dtype=float)


def sphere_point(theta: NDArray[np.float64]) -> NDArray[np.float64]:
    """u(theta) on the unit sphere of R^d, theta of shape (n, d - 1) (hyperspherical angles):
    u_i = sin(theta_0) ... sin(theta_{i-1}) cos(theta_i) (i < d - 1), u_{d-1} = prod_k sin(theta_k);
    d = 2 is (cos theta, sin theta).  derivations.engine uses the same convention."""
    n, k = theta.shape
    out = np.empty((n, k + 1))
    acc = np.ones(n)
    for i in range(k):
        out[:, i] = acc * np.cos(theta[:, i])
        acc = acc * np.sin(theta[:, i])
    out[:, k] = acc
    return out


def _directions(d: int) -> NDArray[np.float64]:
    """Unit directions of R^d for start offsets: +-e_i and the 2^d diagonals (d >= 3)."""
    axes = np.concatenate([np.eye(d), -np.eye(d)])
    diag = np.array(np.meshgrid(*([[-1.0, 1.0]] * d), indexing="ij")).reshape(d, -1).T / math.sqrt(d)
    return np.concatenate([axes, diag])


def _phi(spec: GenericSpec, s: CandidateSystem, z, w, X) -> NDArray[np.float64]:
    """Phi(z, w) on the stratum, -inf where (z, w) is infeasible or not finite."""
    inv_g = _inv_g(spec.growth, z, X)
    if s.w_mode == "limit":
        if s.z_mode == "kink":
            slope = float(np.max(np.abs(spec.kink_slopes[s.z_kink])))
            val = slope * inv_g
        else:
            g = np.asarray(spec.grad(z), dtype=float).reshape(z.shape)
            val = np.sqrt(np.sum(g**2, axis=1)) * inv_g
            if spec.d == 1 and spec.kinks.shape[0]:
                # z exactly at a kink (x on a kink, z = x): the limit is the larger one-sided slope
                # one slope pair per kink (checked in GenericSpec.__post_init__)
                for k, sl in zip(spec.kinks[:, 0], spec.kink_slopes, strict=True):
                    val = np.where(z[:, 0] == k, float(np.max(np.abs(sl))) * inv_g, val)
    else:
        rho = np.sqrt(np.sum((w - z) ** 2, axis=1))
        fw = np.asarray(spec.f(w), dtype=float).reshape(-1)
        fz = np.asarray(spec.f(z), dtype=float).reshape(-1)
        if spec.f_magnitude is not None:
            mag = np.asarray(spec.f_magnitude(w), dtype=float) + np.asarray(spec.f_magnitude(z), dtype=float)
        else:
            mag = np.abs(fw) + np.abs(fz)
        # |f(w) - f(z)| less its rounding allowance: a chord far shorter than the rounding of f
        # (two breakpoints 1 ulp apart) would otherwise give any value at all
        with np.errstate(divide="ignore", invalid="ignore"):
            val = np.maximum(np.abs(fw - fz) - _F_ROUND * mag, 0.0) / rho * inv_g
        ok = (rho > 0) & (rho <= spec.Lambda * (1.0 + 1e-12))
        val = np.where(ok, val, -np.inf)
    return np.where(np.isfinite(val), val, -np.inf)


_F_ROUND = 8 * np.finfo(float).eps  # rounding allowance of a value of f, relative to its magnitude


def _residual(s: CandidateSystem, Y, X) -> NDArray[np.float64]:
    R = np.asarray(s.residual(Y, X), dtype=float)  # type: ignore[misc]
    return R.reshape(Y.shape)


#: a residual below NOISE times the magnitude of its terms is zero to rounding (a few hundred
#: roundings of terms of that size; a genuine residual that small changes Phi by < 1e-13 relative)
NOISE = 1024 * np.finfo(float).eps


def _zero_to_rounding(s: CandidateSystem, Y, X, R) -> NDArray[np.bool_]:
    """Per entry of the residual R (shape of Y): identically zero on its piece (null region) or
    below NOISE times the magnitude of its terms."""
    out = np.zeros(R.shape, dtype=bool)
    if s.residual_scale is not None:
        with np.errstate(all="ignore"):
            S = np.asarray(s.residual_scale(Y, X), dtype=float).reshape(Y.shape)
        out |= np.abs(R) <= NOISE * S
    for j in range(Y.shape[1]):
        out[:, j] |= _null_mask(s, j, Y, X)[0]
    return out


def _null_mask(s: CandidateSystem, j: int, Y, X, col: int | None = None):
    """(inside, unbounded below, unbounded above): rows of (Y, X) inside a null region of equation
    j, and among them those whose region is unbounded below / above in column ``col`` (default j)."""
    n = Y.shape[0]
    inside = np.zeros(n, dtype=bool)
    unb_lo = np.zeros(n, dtype=bool)
    unb_hi = np.zeros(n, dtype=bool)
    if not s.null_regions:
        return inside, unb_lo, unb_hi
    C = np.concatenate([Y, X], axis=1)
    c = j if col is None else col
    for jj, lo, hi in s.null_regions:
        if jj != j or len(lo) != C.shape[1]:
            continue
        m = np.all((C > np.asarray(lo)) & (C < np.asarray(hi)), axis=1)
        inside |= m
        if lo[c] == -math.inf:
            unb_lo |= m
        if hi[c] == math.inf:
            unb_hi |= m
    return inside, unb_lo, unb_hi


# --------------------------------------------------------------------------------------------
# one free unknown: bracketing and bisection


def _breakpoints(spec: GenericSpec, X, lo, hi) -> NDArray[np.float64]:
    x = X[:, 0]
    pts = [lo[:, 0], hi[:, 0], x]
    k = spec.kinks[:, 0]
    for kk in k:
        pts.append(np.full_like(x, kk))
    if math.isfinite(spec.Lambda):
        L = spec.Lambda
        pts += [x - L, x + L]
        for kk in k:
            pts += [np.full_like(x, kk - L), np.full_like(x, kk + L)]
    B = np.clip(np.stack(pts, axis=1), lo[:, :1], hi[:, :1])
    return np.sort(B, axis=1)


def _bracket_1d(spec, s, X, lo, hi, n_nodes: int):
    """Solve a one-unknown stratum for all points: returns (Y roots, X rows, point index), samples."""
    n, d = X.shape
    if d == 1:
        B = _breakpoints(spec, X, lo, hi)
        a, b = B[:, :-1], B[:, 1:]
        # uniform nodes plus geometric nodes towards both ends: a root next to a breakpoint
        # (e.g. a chord partner w close to z) must be bracketed too.  Nodes closer than 1e-5 of
        # the interval are not used: there the residual's sign can be lost to rounding.
        geo = np.array([1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2])
        t = np.unique(np.concatenate([geo, (np.arange(n_nodes) + 0.5) / n_nodes, 1 - geo]))
        nodes = a[:, :, None] + (b - a)[:, :, None] * t  # (n, n_int, N)
        valid = np.broadcast_to((b - a)[:, :, None] > 0, nodes.shape)
    else:  # theta on the circle, periodic
        t = np.linspace(0.0, 2 * np.pi, n_nodes + 1)
        nodes = np.broadcast_to(t, (n, 1, t.size)).copy()
        valid = np.ones_like(nodes, dtype=bool)
    n_int, N = nodes.shape[1], nodes.shape[2]
    Xr = np.repeat(X, n_int * N, axis=0)
    Yn = nodes.reshape(-1, 1)
    R = _residual(s, Yn, Xr).reshape(n, n_int, N)
    z, w = _zw(spec, s, Yn, Xr)
    samples = _phi(spec, s, z, w, Xr).reshape(n, n_int, N)
    samples = np.where(valid, samples, -np.inf)
    # a node where the residual is zero to rounding (identically zero on its piece, or below
    # NOISE times its terms) is a candidate itself and takes no part in sign changes: on a piece
    # where f is linear the residual is rounding noise of either sign (Phi is constant there)
    zero = _zero_to_rounding(s, Yn, Xr, R.reshape(-1, 1))[:, 0].reshape(n, n_int, N) & valid
    Rf = np.where(np.isfinite(R) & ~zero, R, np.nan)
    sc = (Rf[:, :, :-1] * Rf[:, :, 1:] < 0) & valid[:, :, :-1]
    exact = (zero | (Rf == 0)) & valid
    ip, ii, ic = np.nonzero(sc)
    lo_t = nodes[ip, ii, ic]
    hi_t = nodes[ip, ii, ic + 1]
    r_lo = Rf[ip, ii, ic]
    r_hi = Rf[ip, ii, ic + 1]
    Xb = X[ip]
    scale = np.maximum(np.abs(r_lo), np.abs(r_hi))
    for _ in range(200):
        mid = 0.5 * (lo_t + hi_t)
        active = (mid > lo_t) & (mid < hi_t)
        if not np.any(active):
            break
        rm = _residual(s, mid[:, None], Xb)[:, 0]
        left = np.sign(rm) == np.sign(r_lo)
        lo_t = np.where(active & left, mid, lo_t)
        r_lo = np.where(active & left, rm, r_lo)
        hi_t = np.where(active & ~left, mid, hi_t)
        r_hi = np.where(active & ~left, rm, r_hi)
    res = np.minimum(np.abs(r_lo), np.abs(r_hi))
    end = np.where(np.abs(r_lo) <= np.abs(r_hi), lo_t, hi_t)
    tiny = _zero_to_rounding(s, end[:, None], Xb, res[:, None])[:, 0] if end.size else np.zeros(0, dtype=bool)
    bad = ~((res <= 1e-6 * scale) | tiny)  # a jump of the residual, not a root
    _raise_at_first(bad, lambda j: (
        f"no certified root of the {s.name} equation ({s.paper_set}) for point index {int(ip[j])}, "
        f"x={X[ip[j]].tolist()}: the residual changes sign on [{lo_t[j]!r}, {hi_t[j]!r}] without "
        f"vanishing (|residual| = {res[j]:.3g}, {scale[j]:.3g} at the grid); f probably has an "
        "undeclared point of non-differentiability there (pass it in kinks)"
    ))
    roots = np.where(np.abs(r_lo) <= np.abs(r_hi), lo_t, hi_t)
    ep, ei, ec = np.nonzero(exact)
    Y = np.concatenate([roots, nodes[ep, ei, ec]])[:, None]
    idx = np.concatenate([ip, ep])
    ends = (a[:, :, None], b[:, :, None]) if d == 1 else None  # the breakpoints bounding each interval
    Ym, im = _refine_sample_maxima(spec, s, X, nodes, samples, valid, ends)
    return Y, idx, samples.reshape(n, -1), nodes.reshape(n, -1), Ym[:, None], im


#: grid maxima of Phi within this relative distance of a point's largest sample are refined
_MAX_REFINE_RTOL = 1e-2
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def _refine_sample_maxima(spec, s, X, nodes, samples, valid, d_end=None):
    """Stationary points of Phi itself on a one-unknown stratum, bracketed on the grid.

    The sign changes of the residual miss a root where the residual is at rounding level on the
    nodes next to it (near z = x a chord residual is O(rho^3): for sin near its inflection point pi the chord
    partner at rho ~ 3|x - pi| sits on a residual of 1e-11 against terms of 40).  Phi is sampled
    anyway: a node whose sample is at least both neighbours' (a discrete local maximum among the
    largest samples of its point) brackets a local maximum of Phi on [left, right] neighbour, which
    golden-section search refines to float resolution; the maximiser is kept if it is a root of the
    stratum's equation to rounding (see below).  Each result is a feasible (z, w), so its value is a
    lower bound of the sup as every candidate is; returns (Y, point index)."""
    n, n_int, N = samples.shape
    if N < 2:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    top = np.max(samples.reshape(n, -1), axis=1, initial=-np.inf)
    # the interval ends join as neighbours with sample -inf: a maximum between an end (e.g. w -> z)
    # and the first node is bracketed too
    lo_end, hi_end = 2 * nodes[:, :, :1] - nodes[:, :, 1:2], 2 * nodes[:, :, -1:] - nodes[:, :, -2:-1]
    if d_end is not None:
        lo_end, hi_end = d_end
    nodes = np.concatenate([lo_end, nodes, hi_end], axis=2)
    ninf = np.full((n, n_int, 1), -np.inf)
    samples = np.concatenate([ninf, samples, ninf], axis=2)
    valid = np.concatenate([valid[:, :, :1], valid, valid[:, :, -1:]], axis=2)
    mid = samples[:, :, 1:-1]
    ok = valid[:, :, 2:] & valid[:, :, :-2] & np.isfinite(mid)
    ok &= (mid >= samples[:, :, :-2]) & (mid >= samples[:, :, 2:])
    ok &= (mid > samples[:, :, :-2]) | (mid > samples[:, :, 2:])  # not a flat stretch (f linear there)
    ok &= mid >= (top * (1.0 - _MAX_REFINE_RTOL))[:, None, None]
    ip, ii, ic = np.nonzero(ok)
    if ip.size == 0:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    a = nodes[ip, ii, ic].copy()
    b = nodes[ip, ii, ic + 2].copy()
    Xb = X[ip]

    def phi(t: NDArray[np.float64]) -> NDArray[np.float64]:
        z, w = _zw(spec, s, t[:, None], Xb)
        return _phi(spec, s, z, w, Xb)

    c = b - _GOLDEN * (b - a)
    e = a + _GOLDEN * (b - a)
    fc, fe = phi(c), phi(e)
    for _ in range(90):  # 0.618^90 ~ 1e-19 of the bracket: float resolution
        if not np.any((c > a) & (e < b) & (c < e)):
            break
        left = fc >= fe  # the maximum lies in [a, e]
        b = np.where(left, e, b)
        a = np.where(left, a, c)
        e_new = np.where(left, c, a + _GOLDEN * (b - a))
        c_new = np.where(left, b - _GOLDEN * (b - a), e)
        fe_new = np.where(left, fc, np.nan)
        fc_new = np.where(left, np.nan, fe)
        t = np.where(left, c_new, e_new)
        ft = phi(t)
        c, e = c_new, e_new
        fc = np.where(left, ft, fc_new)
        fe = np.where(left, fe_new, ft)
    y = np.where(fc >= fe, c, e)
    # only a maximiser that is a root of the stratum's equation to rounding is a candidate (the
    # residual there is zero to rounding, or 1e-6 of its size at the bracketing nodes, or changes
    # sign across the final bracket): the candidate set stays the paper's, a maximum of Phi that
    # its equations do not have (e.g. the printed S4 of 004 Sec. 3.3) is left to the guards
    R = _residual(s, y[:, None], Xb)[:, 0]
    Ra = np.abs(_residual(s, nodes[ip, ii, ic][:, None], Xb)[:, 0])
    Rb = np.abs(_residual(s, nodes[ip, ii, ic + 2][:, None], Xb)[:, 0])
    Rc = _residual(s, c[:, None], Xb)[:, 0]
    Re = _residual(s, e[:, None], Xb)[:, 0]
    root = _zero_to_rounding(s, y[:, None], Xb, R[:, None])[:, 0]
    root |= np.abs(R) <= 1e-6 * np.maximum(Ra, Rb)
    root |= Rc * Re <= 0
    root &= np.isfinite(R)
    return y[root], ip[root]


# --------------------------------------------------------------------------------------------
# several free unknowns: damped Newton from a grid of starts


def _starts(spec: GenericSpec, s: CandidateSystem, X, lo, hi, density: int) -> NDArray[np.float64]:
    """Starting points (n, S, m) for the Newton solves of stratum s."""
    n, d = X.shape
    parts: list[NDArray[np.float64]] = []
    width = np.max(hi - lo, axis=1)  # (n,)
    if s.z_mode == "free":
        if d == 1:
            nz = 8 * density if s.w_mode == "limit" else 4 * density
        elif d == 2:
            nz = 2 * density if s.w_mode == "limit" else density
        else:  # d >= 3: nz^d nodes; Newton runs from the best starts only (see _solve)
            nz = density if s.w_mode == "limit" else max(4, density - 2)
        t = np.linspace(0.0, 1.0, nz)
        tt = np.stack(np.meshgrid(*([t] * d), indexing="ij"), axis=-1).reshape(-1, d)
        zg = lo[:, None, :] + (hi - lo)[:, None, :] * tt[None, :, :]
        # extra starts close to x, where 1/g(x, z) is largest: the window grid alone is too
        # coarse for maximisers at a small distance from x
        fr = np.array([0.002, 0.005, 0.01, 0.02, 0.04, 0.08])
        if d == 1:
            off = np.concatenate([fr, -fr])[None, :, None] * width[:, None, None]
        else:
            if d == 2:
                th = np.linspace(0, 2 * np.pi, 8, endpoint=False)
                u = np.stack([np.cos(th), np.sin(th)], axis=1)
            else:
                u = _directions(d)
            off = (fr[:, None, None] * u[None, :, :]).reshape(-1, d)[None, :, :] * width[:, None, None]
        zg = np.concatenate([zg, X[:, None, :] + off], axis=1)
        parts.append(zg)
    if s.w_mode == "free":
        rmax = np.minimum(spec.Lambda, width)
        # chord partners close to z matter as much as far ones: geometric offsets down to 1e-3
        fr = np.array([0.001, 0.003, 0.01, 0.03, 0.08, 0.2, 0.45, 0.75, 1.0])
        if d == 1:
            off = np.concatenate([fr, -fr])[None, :, None] * rmax[:, None, None]
        else:
            if d == 2:
                th = np.linspace(0, 2 * np.pi, 8 if s.z_mode == "free" else 16, endpoint=False)
                u = np.stack([np.cos(th), np.sin(th)], axis=1)
            else:
                u = _directions(d)
            frs = fr[1::2] if (s.z_mode == "free" and d == 2) else fr
            o = (frs[:, None, None] * u[None, :, :]).reshape(-1, d)
            off = o[None, :, :] * rmax[:, None, None]
        parts.append(off)  # offsets from z, converted below
    elif s.w_mode == "sphere" and d >= 2:
        if d == 2:
            ang = np.linspace(0, 2 * np.pi, 8, endpoint=False)[:, None]
        else:  # polar angles in (0, pi), the last angle on the circle
            polar = (np.arange(4) + 0.5) * np.pi / 4
            last = np.linspace(0, 2 * np.pi, 8, endpoint=False)
            ang = np.stack(np.meshgrid(*([polar] * (d - 2) + [last]), indexing="ij"), axis=-1).reshape(-1, d - 1)
        parts.append(np.broadcast_to(ang[None, :, :], (n,) + ang.shape))
    if len(parts) == 1:
        P = parts[0]
        if s.w_mode == "free" and s.z_mode != "free":
            z0 = X if s.z_mode == "x" else np.broadcast_to(spec.kinks[s.z_kink], (n, d))
            P = z0[:, None, :] + P
        return P
    A, Bp = parts
    S1, S2 = A.shape[1], Bp.shape[1]
    Aa = np.repeat(A, S2, axis=1)
    Bb = np.tile(Bp, (1, S1, 1))
    if s.w_mode == "free":
        Bb = Aa + Bb
    return np.concatenate([Aa, Bb], axis=2)


def gauss_newton_step(R: NDArray[np.float64], J: NDArray[np.float64]):
    """One regularised Gauss-Newton step per row (shared with .generic_piecewise): rows whose residual
    R (n, k) or Jacobian J (n, k, m) has a non-finite entry are marked not ``good`` and get R = 0,
    J = 0; the step solves (J^T J + mu I) dY = -J^T R with mu = 1e-13 (trace(J^T J)/m + 1e-300), and a
    non-finite or singular solve gives dY = 0.  Returns (good, R with the bad rows zeroed, dY)."""
    m = J.shape[2]
    good = np.all(np.isfinite(R), axis=1) & np.all(np.isfinite(J), axis=(1, 2))
    R = np.where(good[:, None], R, 0.0)
    J = np.where(good[:, None, None], J, 0.0)
    JT = np.swapaxes(J, 1, 2)
    A = JT @ J
    mu = 1e-13 * (np.trace(A, axis1=1, axis2=2) / m + 1e-300)
    A = A + mu[:, None, None] * np.eye(m)
    g = -(JT @ R[:, :, None])[:, :, 0]
    try:
        dY = np.linalg.solve(A, g[:, :, None])[:, :, 0]
    except np.linalg.LinAlgError:
        dY = np.zeros((R.shape[0], m))
    dY = np.where(np.isfinite(dY), dY, 0.0)
    return good, R, dY


def _newton(spec: GenericSpec, s: CandidateSystem, Y0, X, step_cap, iters: int = 40):
    """Damped Gauss-Newton (Levenberg-Marquardt with a tiny shift) with a finite-difference
    Jacobian.  For w free the residual is divided by rho^3 = ||w - z||^3: the equations of the
    module docstring are the gradient times rho^3, which vanishes identically on w = z and would
    attract the iteration to those trivial (infeasible) solutions."""

    Y = Y0.copy()
    m = Y.shape[1]
    conv = np.zeros(Y.shape[0], dtype=bool)
    active = np.ones(Y.shape[0], dtype=bool)
    for _ in range(iters):
        idx = np.nonzero(active)[0]
        if idx.size == 0:
            break
        Ya, Xa = Y[idx], X[idx]

        # Fa is called only within this iteration; Xa is bound as a default to make that explicit.
        def Fa(Yc: NDArray[np.float64], Xa: NDArray[np.float64] = Xa) -> NDArray[np.float64]:
            R = _residual(s, Yc, Xa)
            if s.w_mode == "free":
                z, w = _zw(spec, s, Yc, Xa)
                rho = np.sqrt(np.sum((w - z) ** 2, axis=1))
                R = R / rho[:, None] ** 3
            return R

        R = Fa(Ya)
        h = 1e-7 * np.maximum(1.0, np.abs(Ya))
        J = np.empty((idx.size, m, m))
        for j in range(m):
            Yp = Ya.copy()
            Ym = Ya.copy()
            Yp[:, j] += h[:, j]
            Ym[:, j] -= h[:, j]
            J[:, :, j] = (Fa(Yp) - Fa(Ym)) / (2 * h[:, j : j + 1])
        good, R, dY = gauss_newton_step(R, J)
        nrm = np.sqrt(np.sum(dY**2, axis=1))
        cap = step_cap[idx]
        if s.w_mode == "free":  # trust region: w may not jump across z (rho shrinks at most by half)
            z0, w0 = _zw(spec, s, Ya, Xa)
            cap = np.minimum(cap, 0.5 * np.sqrt(np.sum((w0 - z0) ** 2, axis=1)))
        fac = np.minimum(1.0, cap / np.maximum(nrm, 1e-300))
        dY = dY * fac[:, None]
        # backtracking: among the step lengths 1, 1/2, ..., 1/32 keep the one with the smallest
        # residual norm (a full Newton step from a poor start can run far away)
        r0 = np.sum(R**2, axis=1)
        best_a = np.zeros(idx.size)
        best_r = np.where(good, r0, np.inf)
        for alpha in (1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125):
            Rn = Fa(Ya + alpha * dY)
            rn = np.sum(Rn**2, axis=1)
            rn = np.where(np.isfinite(rn), rn, np.inf)
            better = rn < best_r
            best_a = np.where(better, alpha, best_a)
            best_r = np.where(better, rn, best_r)
        # no decrease at all: take the shortest step (the residual may be flat at rounding level)
        best_a = np.where(best_a == 0.0, 0.03125, best_a)
        dY = dY * best_a[:, None]
        nrm = nrm * fac * best_a
        Ya = Ya + np.where(good[:, None], dY, 0.0)
        Y[idx] = Ya
        done = good & (nrm <= 1e-11 * (1.0 + np.sqrt(np.sum(Ya**2, axis=1))))
        conv[idx] = done
        # stop rows that converged, failed (non-finite) or ran away from the window
        keep = good & ~done & (np.sqrt(np.sum(Ya**2, axis=1)) < 1e6 * (1.0 + step_cap[idx]))
        if s.w_mode == "free":  # collapsed onto w = z: no root there, only the limit (own stratum)
            z1, w1 = _zw(spec, s, Ya, Xa)
            keep &= np.sqrt(np.sum((w1 - z1) ** 2, axis=1)) > 1e-9 * step_cap[idx]
        active[idx] = keep
    return Y, conv


def _shared_roots_1d(spec: GenericSpec, s: CandidateSystem, X, lo, hi, density: int):
    """Roots of the (z free, w free) stratum in d = 1 for g_E, solved once for all points.

    For g_E, lambda(r) = gamma is constant, so the S1 equations depend on x only through
    e = sign(z - x): their roots are the same for every point on the same side.  They are solved
    twice (x left of the union of the windows: e = +1; right of it: e = -1) by the damped Newton of
    ``_newton`` from a shared grid at least twice as dense as one point's grid (z nodes over the union
    window; chord offsets w - z geometric from 3e-4 of the smallest window), and every root is then
    offered to every point: each is a feasible (z, w), so its Phi is a lower bound of the sup, and
    a point's own stationary points (the roots with the matching sign) are among them.  Yields
    chunks (values, z, w, point index) for ``keep_best``."""
    n = X.shape[0]
    glo, ghi = float(np.min(lo)), float(np.max(hi))
    widths = (hi - lo)[:, 0]
    wmin = float(np.min(widths))
    nz = 4 * density
    nzs = int(math.ceil(2.0 * (ghi - glo) / wmin * (nz - 1))) + 1
    zg = np.linspace(glo, ghi, nzs)
    rmax = min(spec.Lambda, wmin)
    fr = np.array([3e-4, 0.001, 0.002, 0.003, 0.006, 0.01, 0.02, 0.03, 0.05, 0.08, 0.13, 0.2, 0.3, 0.45,
                   0.6, 0.75, 0.9, 1.0])
    off = np.concatenate([fr, -fr]) * rmax
    Y0 = np.stack([np.repeat(zg, off.size), (zg[:, None] + off[None, :]).reshape(-1)], axis=1)
    roots = []
    for x_rep in (glo - 1.0, ghi + 1.0):  # e = +1 and e = -1 on the whole window
        Xr = np.full((Y0.shape[0], 1), x_rep)
        Y, conv = _newton(spec, s, Y0, Xr, np.full(Y0.shape[0], 0.25 * (ghi - glo)))
        Yc = Y[conv]
        Yc = Yc[np.all(np.isfinite(Yc), axis=1) & (Yc[:, 0] != Yc[:, 1])]
        roots.append(Yc)
    R = np.concatenate(roots)
    if R.shape[0] == 0:
        return
    # one representative of roots equal to 10 significant digits (the same stationary point)
    scale = np.maximum(np.abs(R), 1e-300)
    key = np.round(R / 10.0 ** np.floor(np.log10(scale)), 10) * 10.0 ** np.floor(np.log10(scale))
    _, first = np.unique(key, axis=0, return_index=True)
    R = R[np.sort(first)]
    per = max(1, 2_000_000 // R.shape[0])
    for a in range(0, n, per):
        idx = np.repeat(np.arange(a, min(n, a + per)), R.shape[0])
        Yr = np.tile(R, (idx.size // R.shape[0], 1))
        z, w = _zw(spec, s, Yr, X[idx])
        yield _phi(spec, s, z, w, X[idx]), z, w, idx


# --------------------------------------------------------------------------------------------
# driver


def keep_best(best, bz, bw, vals, z, w, idx):
    """Offer candidate values ``vals`` (row r belongs to point ``idx[r]``, at the pair z[r], w[r]) to the
    running per-point maxima (shared with .generic_piecewise): non-finite values count as -inf; for
    each point the largest offered value replaces ``best`` if strictly larger, and its z, w go to
    ``bz``, ``bw`` (all updated in place).  Returns (points improved, the rows that improved them)."""
    vals = np.where(np.isfinite(vals), vals, -np.inf)
    if vals.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = np.lexsort((-vals, idx))  # per point, best first
    idx_s, vals_s = idx[order], vals[order]
    first = np.ones(idx_s.size, dtype=bool)
    first[1:] = idx_s[1:] != idx_s[:-1]
    ii, vv = idx_s[first], vals_s[first]
    take = vv > best[ii]
    ii, sel = ii[take], order[first][take]
    best[ii] = vv[take]
    bz[ii] = z[sel]
    bw[ii] = w[sel]
    return ii, sel


def _solve(spec: GenericSpec, X: NDArray[np.float64], lo, hi, systems: Sequence[CandidateSystem], density: int):
    n, d = X.shape
    best = np.full(n, -np.inf)
    bz = X.copy()
    bw = X.copy()
    bname = np.array([""] * n, dtype=object)
    late: list[tuple] = []  # golden-section maxima of one-unknown strata, offered after all roots
    sample_max = np.full(n, -np.inf)
    edge_max = np.full(n, -np.inf)
    width = np.max(hi - lo, axis=1)

    def offer(vals, z, w, idx, name):
        ii, _ = keep_best(best, bz, bw, vals, z, w, idx)
        bname[ii] = name

    def on_edge(z, w, idx):
        tol = 1e-4 * width[idx][:, None]  # grid nodes stop 1e-5 of an interval short of its ends
        e = np.any((z <= lo[idx] + tol) | (z >= hi[idx] - tol), axis=1)
        if not math.isfinite(spec.Lambda):
            e |= np.any((w <= lo[idx] + tol) | (w >= hi[idx] - tol), axis=1)
        return e

    def edge_exempt(s, Y, idx):
        """Samples whose every unknown coordinate on the window edge lies in a null region of its
        equation that is unbounded past that edge: Phi is constant along that coordinate beyond the
        window (e.g. the chord of a linear piece reaching to infinity), so it signals nothing."""
        tol = 1e-4 * width[idx]
        cols = ([("z", i) for i in range(d)] if s.z_mode == "free" else []) + (
            [("w", i) for i in range(d)] if s.w_mode == "free" else [])
        if not s.null_regions or not cols:
            return np.zeros(Y.shape[0], dtype=bool)
        ok = np.ones(Y.shape[0], dtype=bool)
        ray_ok = np.zeros(Y.shape[0], dtype=bool)
        if s.w_mode == "free":  # Phi constant along the ray z -> w, and the region contains the ray
            z, w = _zw(spec, s, Y, X[idx])
            ray_ok, _, _ = _null_mask(s, -1, Y, X[idx], col=0)
            off = d if s.z_mode == "free" else 0
            for i in range(d):
                _, unb_lo, unb_hi = _null_mask(s, -1, Y, X[idx], col=off + i)
                ray_ok &= np.where(w[:, i] > z[:, i], unb_hi, np.where(w[:, i] < z[:, i], unb_lo, True))
        for j, (kind, i) in enumerate(cols):
            at_lo = Y[:, j] <= lo[idx, i] + tol
            at_hi = Y[:, j] >= hi[idx, i] - tol
            _, unb_lo, unb_hi = _null_mask(s, j, Y, X[idx])
            ok_j = ~(at_lo & ~unb_lo) & ~(at_hi & ~unb_hi)
            ok &= ok_j | ray_ok if kind == "w" else ok_j
        return ok

    for s in systems:
        m = s.n_unknowns(d)
        if m == 0:
            z, w = _zw(spec, s, np.zeros((n, 0)), X)
            offer(_phi(spec, s, z, w, X), z, w, np.arange(n), s.name)
            continue
        if s.residual is None:
            raise ValueError(f"system {s.name} has {m} unknowns but no residual")
        if m == 1:
            Y, idx, samples, nodes, Ym, im = _bracket_1d(spec, s, X, lo, hi, 12 * density)
            z, w = _zw(spec, s, Y, X[idx])
            offer(_phi(spec, s, z, w, X[idx]), z, w, idx, s.name)
            zm, wm = _zw(spec, s, Ym, X[im])
            late.append((_phi(spec, s, zm, wm, X[im]), zm, wm, im, s.name))
            sample_max = np.maximum(sample_max, np.max(samples, axis=1, initial=-np.inf))
            Yn = nodes.reshape(-1, 1)
            pidx = np.repeat(np.arange(n), nodes.shape[1])
            zn, wn = _zw(spec, s, Yn, X[pidx])
            e = on_edge(zn, wn, pidx) & ~edge_exempt(s, Yn, pidx)
            sv = samples.reshape(-1)
            np.maximum.at(edge_max, pidx[e], sv[e])
            continue
        P = _starts(spec, s, X, lo, hi, density)
        S = P.shape[1]
        Y0 = P.reshape(-1, m)
        pidx = np.repeat(np.arange(n), S)
        Xr = X[pidx]
        z0, w0 = _zw(spec, s, Y0, Xr)
        v0 = _phi(spec, s, z0, w0, Xr)
        np.maximum.at(sample_max, pidx, v0)
        e = on_edge(z0, w0, pidx) & ~edge_exempt(s, Y0, pidx)
        np.maximum.at(edge_max, pidx[e], v0[e])
        keep = _KEEP_STARTS * density
        if d >= 3 and S > keep:
            # d >= 3: the start set (dense, evaluated above for the guards) is too large to run
            # Newton from every start; the `keep` starts of largest Phi per point are refined
            vs = np.where(np.isfinite(v0), v0, -np.inf).reshape(n, S)
            sel = np.argpartition(-vs, keep - 1, axis=1)[:, :keep]
            rows = (sel + (np.arange(n) * S)[:, None]).reshape(-1)
            Y0, Xr, pidx = Y0[rows], Xr[rows], pidx[rows]
        if d == 1 and s.z_mode == "free" and s.w_mode == "free" and spec.growth.kind == "exp":
            # the starts above serve the completeness guards; the roots come from one shared solve
            for vals, z, w, idx in _shared_roots_1d(spec, s, X, lo, hi, density):
                offer(vals, z, w, idx, s.name)
            continue
        cap = 0.25 * width[pidx]
        Y, conv = _newton(spec, s, Y0, Xr, cap)
        z, w = _zw(spec, s, Y[conv], Xr[conv])
        offer(_phi(spec, s, z, w, Xr[conv]), z, w, pidx[conv], s.name)
    if d == 1 and math.isfinite(spec.Lambda) and any(s.z_mode == "free" for s in systems):
        # 0-dimensional strata w = k_j on the sphere: z = k_j -+ Lambda (S0 x S4, not printed)
        corner = CandidateSystem("z=k-+Lambda, w=k", "free", "free", paper_set="S0 x S4 (not printed)")
        for k in spec.kinks[:, 0]:
            for sg in (1.0, -1.0):
                z = np.full((n, 1), k - sg * spec.Lambda)
                w = np.full((n, 1), k)
                offer(_phi(spec, corner, z, w, X), z, w, np.arange(n), corner.name)
    for vals, z, w, idx, name in late:
        # maxima of Phi located by golden section (``_refine_sample_maxima``) count only where they
        # exceed every root by more than rounding: a root locates the same maximiser more precisely
        offer(np.where(vals > best[idx] * (1.0 + 1e-12) + 1e-300, vals, -np.inf), z, w, idx, name)
    check_complete(X, lo, hi, best, sample_max, edge_max, "candidate sets", "grid sample")
    best = np.maximum(best, 0.0)  # f constant: every candidate is 0
    return GenericResult(best, bz, bw, bname.astype(str))


def check_complete(X, lo, hi, best, sample_max, edge_max, sets: str, sample: str) -> None:
    """The completeness guards of the candidate procedure (shared with .generic_piecewise): raise
    :class:`RootCertificationError` if a best value sits on the window edge (the sup may lie
    outside; relative 1e-6) or a sampled Phi exceeds the best candidate (relative 1e-9)."""
    top = np.maximum(best, sample_max)
    edge = (edge_max >= top * (1 - 1e-6)) & (top > 0)
    _raise_at_first(edge, lambda i: (
        f"the supremum may lie outside the search window at point index {i}, x={X[i].tolist()}: the "
        f"window edge [{lo[i].tolist()}, {hi[i].tolist()}] reaches {edge_max[i]!r} >= best interior "
        f"value {top[i]!r}; enlarge domain/radius (or f is not Lambda-locally Lipschitz)"
    ))
    missed = sample_max > best + 1e-9 * np.abs(best) + 1e-300
    _raise_at_first(missed, lambda i: (
        f"the {sets} missed the supremum at point index {i}, x={X[i].tolist()}: a {sample} "
        f"gives {sample_max[i]!r} > best candidate {best[i]!r}; f may have an undeclared kink"
    ))


class _HasDim(Protocol):
    """A spec with a dimension ``d`` (GenericSpec, PiecewiseSpec): what ``engine_entry`` reads."""

    @property
    def d(self) -> int: ...


_SpecT = TypeVar("_SpecT", bound=_HasDim)


def engine_entry(
    name: str,
    doc: str,
    spec_type: type[_SpecT],
    extra_points: Callable[[_SpecT], NDArray[np.float64]],
    solve: Callable[..., GenericResult],
) -> Callable[..., NDArray[np.float64] | GenericResult]:
    """The public entry ``name`` of a candidate-search engine (shared with .generic_piecewise).

    ``entry(spec, points, *, domain=None, radius=10.0, density=8, return_details=False, **options)``
    checks that ``spec`` is a ``spec_type`` and the points (n, spec.d), forms the search window
    (``domain``, or ``radius`` around each point and ``extra_points(spec)``: kinks or corners), and
    returns ``solve(spec, X, lo, hi, density, **options)``: its value, or the whole
    :class:`GenericResult` with ``return_details``."""

    def entry(
        spec: object,
        points: ArrayLike,
        *,
        domain: tuple[ArrayLike, ArrayLike] | None = None,
        radius: float = 10.0,
        density: int = 8,
        return_details: bool = False,
        **options: int,
    ) -> NDArray[np.float64] | GenericResult:
        if not isinstance(spec, spec_type):
            raise TypeError(f"spec must be a {spec_type.__name__}; got {type(spec).__name__}")
        X = check_points("points", points, d=spec.d)
        extra = extra_points(spec)
        lo, hi = search_window(X, domain=domain, extra_points=extra if extra.size else None, radius=radius)
        res = solve(spec, X, lo, hi, density, **options)
        return res if return_details else res.value

    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = doc
    return entry


def _engine_entry(name: str, doc: str, lipschitz: bool) -> Callable[..., NDArray[np.float64] | GenericResult]:
    """The public entry ``name``: L_{f,Lambda} (the strata with z = x) or B* (all strata)."""

    def solve(spec: GenericSpec, X: NDArray[np.float64], lo, hi, density: int) -> GenericResult:
        systems = [s for s in spec.systems if s.z_mode == "x"] if lipschitz else list(spec.systems)
        return _solve(spec, X, lo, hi, systems, density)

    return engine_entry(name, doc, GenericSpec, lambda spec: spec.kinks, solve)


generic_lipschitz = _engine_entry(
    "generic_lipschitz",
    """L_{f,Lambda}(x) = max over the strata with z = x (004 Def. 7 and Sec. 3.3 cases 2 and 4).

    ``domain=(lo, hi)``: the search window (default per point, ``radius`` around x and the kinks);
    ``density``: grid density of the solves; ``return_details``: a :class:`GenericResult`.""",
    lipschitz=True,
)
generic_smooth_sensitivity = _engine_entry(
    "generic_smooth_sensitivity",
    """B*(x) = max over all candidate strata of 004 Sec. 3.3 (corrected, see module docstring).

    Arguments as for :func:`generic_lipschitz`.""",
    lipschitz=False,
)
