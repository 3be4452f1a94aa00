"""Worst-case search of a concrete mechanism over neighbour pairs, and finite brute force.

A concrete mechanism exposes its exact output density (or pmf) ``log_density(x, y)`` (the
:class:`smoothsens_core.mechanism.Mechanism` protocol; e.g. the core's
:class:`~smoothsens_core.mechanism.SmoothSensitivityMechanism` with a query f and a bound B).  The
slack L(y; x, x') - eps dist(x, x') of :mod:`verify.audit.exact.loss` is maximised

* over a :class:`~verify.audit.exact.neighbourhoods.EuclideanNeighbourhood` (random pairs, a grid
  over y, then joint local optimisation) or a :class:`~verify.audit.exact.neighbourhoods.HammingNeighbourhood`
  (all pairs, brute force) by :func:`audit_density_mechanism`;
* over explicit ordered pairs and a finite output set (discrete mechanisms, e.g. AGeo of 003) by
  :func:`audit_finite`;

and the best candidates are re-evaluated in mpmath (:func:`verify.audit.exact.loss.privacy_loss_mp`):
a certified excess is a violation, an excess that cannot be certified (no mpmath log-density) is
inconclusive (:mod:`verify.audit.exact.result`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from smoothsens_core.distributions import DiscreteDistribution
from verify.serialise import jsonable

from ._search import local_max
from .loss import cert_threshold, check_has_density, log_density_mp, privacy_loss, privacy_loss_mp
from .neighbourhoods import EuclideanNeighbourhood, HammingNeighbourhood
from .result import AuditResult, excess_threshold

__all__ = ["audit_density_mechanism", "audit_finite"]

FloatArray = NDArray[np.float64]


def _max_over_y(mechanism: Any, x: FloatArray, xp: FloatArray, centres: FloatArray, widths: FloatArray,
                eps_dist: FloatArray, n_grid: int = 241) -> tuple[FloatArray, FloatArray, float]:
    """max_y L(y; x_i, x'_i) per pair on a sinh grid around each pair's centre (vectorised), and the
    largest *significant* slack over the grid: max of L - eps d - excess_threshold(|ln p_x| + |ln p_x'|)
    (an excess beyond the rounding of the log-densities it is computed from)."""
    v = np.linspace(-30, 30, n_grid)
    y = centres[:, None] + widths[:, None] * np.sinh(v)[None, :]
    if _is_discrete(mechanism):
        y = np.round(y)  # a pmf lives on the integers: a real grid would see only -inf
    k = len(x)
    X = np.repeat(x, n_grid, axis=0)
    XP = np.repeat(xp, n_grid, axis=0)
    Xa = X.squeeze(-1) if X.ndim == 2 and X.shape[1] == 1 else X
    XPa = XP.squeeze(-1) if XP.ndim == 2 and XP.shape[1] == 1 else XP
    with np.errstate(all="ignore"):
        lp = np.asarray(mechanism.log_density(Xa, y.reshape(-1)), dtype=float)
        lq = np.asarray(mechanism.log_density(XPa, y.reshape(-1)), dtype=float)
        L = lp - lq
        L = np.where(np.isfinite(L), L, -np.inf).reshape(k, n_grid)
        bound = np.vectorize(excess_threshold)(np.abs(lp) + np.abs(lq)).reshape(k, n_grid)
        significant = L - eps_dist[:, None] - bound
    significant = np.where(np.isfinite(significant), significant, -np.inf)
    j = np.argmax(L, axis=1)
    return L[np.arange(k), j], y[np.arange(k), j], float(np.max(significant))


def _centre_width(mechanism: Any, x: FloatArray, xp: FloatArray) -> tuple[FloatArray, FloatArray]:
    xa = x.squeeze(-1) if x.ndim == 2 and x.shape[1] == 1 else x
    xpa = xp.squeeze(-1) if xp.ndim == 2 and xp.shape[1] == 1 else xp
    if all(hasattr(mechanism, k) for k in ("f", "B", "eta")):
        fa = np.asarray(mechanism.f(xa), dtype=float)
        fb = np.asarray(mechanism.f(xpa), dtype=float)
        sa = np.asarray(mechanism.B(xa), dtype=float) / mechanism.eta
        sb = np.asarray(mechanism.B(xpa), dtype=float) / mechanism.eta
        return 0.5 * (fa + fb), np.maximum(sa, sb)
    if all(hasattr(mechanism, k) for k in ("f", "scale")):  # curve.AdditiveNoiseMechanism: f(x) + scale Z
        fa = np.asarray(mechanism.f(xa), dtype=float)
        fb = np.asarray(mechanism.f(xpa), dtype=float)
        return 0.5 * (fa + fb), np.full(len(x), float(mechanism.scale))
    return np.zeros(len(x)), np.ones(len(x))


def _is_discrete(mechanism: Any) -> bool:
    """True for a mechanism with integer outputs: its ``discrete`` attribute, or a discrete core noise."""
    inner = getattr(mechanism, "_mech", mechanism)
    flag = getattr(inner, "discrete", None)
    if isinstance(flag, bool):
        return flag
    return isinstance(getattr(inner, "noise", None), DiscreteDistribution)


def audit_density_mechanism(
    mechanism: Any,
    neighbourhood: EuclideanNeighbourhood | HammingNeighbourhood,
    *,
    rng: np.random.Generator,
    n_pairs: int = 2000,
    n_local: int = 5,
    dps: int = 50,
) -> AuditResult:
    """Worst-case search of L(y; x, x') - eps dist(x, x') for a concrete mechanism with a density.

    Euclidean: random pairs in the box (log-uniform distances up to Lambda), a grid over y per
    pair, then local optimisation jointly over (x, x', y) inside the neighbourhood.  Hamming: all
    pairs of the finite neighbourhood (brute force), a grid over y and a local refinement in y.
    The best candidates are re-evaluated in mpmath (:func:`privacy_loss_mp`).

    A claim with ``delta > 0`` is judged as (eps, delta): the hockey-stick divergence at each pair
    against delta (:func:`verify.audit.exact.curve.audit_density_mechanism_approx`), never the pure
    loss bound (the Gaussian mechanism has unbounded loss and is still (eps, delta)-DP)."""
    check_has_density(mechanism)
    if float(getattr(mechanism, "delta", 0.0) or 0.0) > 0:
        from .curve import audit_density_mechanism_approx  # curve imports this module's siblings only
        return audit_density_mechanism_approx(mechanism, neighbourhood, rng=rng, n_pairs=n_pairs,
                                              n_local=n_local, dps=dps)
    eps = float(mechanism.eps)
    if isinstance(neighbourhood, HammingNeighbourhood):
        x, xp = neighbourhood.pairs()
        dist = np.ones(len(x))
    elif isinstance(neighbourhood, EuclideanNeighbourhood):
        x, xp = neighbourhood.sample(max(int(n_pairs), 10), rng)
        dist = EuclideanNeighbourhood.dist(x, xp)
    else:
        raise TypeError(f"neighbourhood must be Euclidean or Hamming; got {type(neighbourhood).__name__}")
    c, w = _centre_width(mechanism, x, xp)
    Lmax, ybest, significant = _max_over_y(mechanism, x, xp, c, w, eps * dist)
    slack = Lmax - eps * dist
    evals = len(x) * 241
    order = np.argsort(-slack)[: max(1, n_local)]
    cands: list[tuple[float, FloatArray, FloatArray, float]] = []
    dim = x.shape[1]
    for i in order:
        xi, xpi, yi = x[i], xp[i], float(ybest[i])
        if isinstance(neighbourhood, EuclideanNeighbourhood):
            nb = neighbourhood

            def unpack(v: FloatArray) -> tuple[FloatArray, FloatArray, float]:
                return v[:dim], v[dim:2 * dim], float(v[-1])

            def f1(v: FloatArray) -> float:
                a, b, yv = unpack(v)
                dd = float(np.linalg.norm(a - b))
                if dd > nb.Lambda or dd == 0:
                    return -1e300  # outside the neighbourhood (finite: Powell's line search needs it)
                with np.errstate(all="ignore"):
                    L = float(privacy_loss(mechanism, a if dim > 1 else a[:1], b if dim > 1 else b[:1],
                                           np.array([yv]))[0])
                return L - eps * dd if np.isfinite(L) else -1e300

            v0 = np.concatenate([xi, xpi, [yi]])
            span = 10 * float(w[i]) + abs(yi) + 1.0
            lo = np.concatenate([np.full(2 * dim, nb.low), [yi - span]])
            hi = np.concatenate([np.full(2 * dim, nb.high), [yi + span]])
            vx, fx = local_max(f1, v0, lo, hi, maxfev=400)
            evals += 400
            a, b, yv = unpack(vx)
            if fx > slack[i]:
                cands.append((fx, a, b, yv))
            else:
                cands.append((float(slack[i]), xi, xpi, yi))
        else:
            def fy(yv: float, xi: FloatArray = xi, xpi: FloatArray = xpi) -> float:
                with np.errstate(all="ignore"):
                    L = float(privacy_loss(mechanism, xi[None, :], xpi[None, :], np.array([yv]))[0])
                return -(L - eps) if np.isfinite(L) else np.inf

            span = 2 * float(w[i]) + 1e-9
            res = optimize.minimize_scalar(fy, bounds=(yi - span, yi + span), method="bounded",
                                           options={"xatol": 1e-12})
            evals += int(res.nfev)
            if -res.fun > slack[i]:
                cands.append((float(-res.fun), xi, xpi, float(res.x)))
            else:
                cands.append((float(slack[i]), xi, xpi, yi))
    cands.sort(key=lambda t: -t[0])
    fx, a, b, yv = cands[0]
    dd = float(np.linalg.norm(np.atleast_1d(a) - np.atleast_1d(b))) if isinstance(
        neighbourhood, EuclideanNeighbourhood) else 1.0
    witness: dict[str, Any] = {"x": [float(t) for t in np.atleast_1d(a)],
                               "x_prime": [float(t) for t in np.atleast_1d(b)], "y": float(yv), "dist": dd}
    certified, cert, notes = False, None, []
    name = getattr(mechanism, "name", type(mechanism).__name__)
    settled = False  # the top candidate was re-evaluated in mpmath
    for k, (fx_i, a_i, b_i, y_i) in enumerate(cands[:3]):
        if fx_i <= -1e-9:
            break
        xa = a_i if len(np.atleast_1d(a_i)) > 1 else float(np.atleast_1d(a_i)[0])
        xb = b_i if len(np.atleast_1d(b_i)) > 1 else float(np.atleast_1d(b_i)[0])
        try:
            with mpmath.workdps(dps):
                if isinstance(neighbourhood, EuclideanNeighbourhood):
                    dm = mpmath.sqrt(sum((mpmath.mpf(float(s)) - mpmath.mpf(float(t))) ** 2
                                         for s, t in zip(np.atleast_1d(a_i), np.atleast_1d(b_i))))
                else:
                    dm = mpmath.mpf(1)
                L = privacy_loss_mp(mechanism, xa, xb, mpmath.mpf(y_i), dps)
                sl = L - mpmath.mpf(eps) * dm
        except TypeError as exc:
            notes.append(f"cannot certify: {exc}")
            break
        settled = settled or k == 0
        if sl > cert_threshold(dps, eps * dm):
            certified, cert = True, mpmath.nstr(sl, 20)
            witness = {"x": [float(t) for t in np.atleast_1d(a_i)],
                       "x_prime": [float(t) for t in np.atleast_1d(b_i)], "y": float(y_i),
                       "dist_mp": mpmath.nstr(dm, 20), "loss_mp": mpmath.nstr(L, 20)}
            break
        notes.append(f"float slack {fx_i:.3g} not confirmed in mpmath")
    # An excess is significant when it exceeds the rounding of the log-densities it is computed from,
    # at the reported candidate or anywhere on the grid (the top float candidate can sit at |y| ~ 1e12,
    # where the float loss is known to ~1e-3 only, while the excess shows clearly at moderate y).
    magnitude = _magnitude(mechanism, cands[0][1], cands[0][2], cands[0][3])
    if significant > 0:
        magnitude = 0.0
    return AuditResult(mechanism=str(name), eps=eps, delta=float(getattr(mechanism, "delta", 0.0)),
                       max_slack=float(fx), witness=witness,
                       outcome=AuditResult.decide(certified, float(fx), settled, magnitude),
                       certified_slack=cert, evaluations=evals, dps=dps, mode="pure", notes=tuple(notes))


def _magnitude(mechanism: Any, a: Any, b: Any, y: float) -> float:
    """|ln p_x(y)| + |ln p_x'(y)| in float at a candidate (the scale of the loss's rounding)."""
    xa = np.atleast_1d(np.asarray(a, dtype=float))
    xb = np.atleast_1d(np.asarray(b, dtype=float))
    with np.errstate(all="ignore"):
        lp = np.asarray(mechanism.log_density(xa[None, :] if xa.size > 1 else xa, np.array([y])), dtype=float)
        lq = np.asarray(mechanism.log_density(xb[None, :] if xb.size > 1 else xb, np.array([y])), dtype=float)
    return float(np.sum(np.abs(lp)) + np.sum(np.abs(lq)))


def audit_finite(
    mechanism: Any,
    pairs: Iterable[tuple[Any, Any]],
    outputs: Iterable[Any],
    *,
    dist: Callable[[Any, Any], float] | None = None,
    dps: int = 50,
) -> AuditResult:
    """Brute force over explicit ordered pairs (X, X') and a finite set of outputs z (discrete
    mechanisms with a log-pmf in ``log_density``, e.g. AGeo of 003): maximise
    ln Pr[M(X) = z] - ln Pr[M(X') = z] - eps dist(X, X'), certify the best in mpmath (needs the
    mechanism's ``log_density_mp``).  ``dist`` defaults to 1 (DP / ADP neighbours)."""
    check_has_density(mechanism)
    eps = float(mechanism.eps)
    outs = list(outputs)
    if not outs:
        raise ValueError("outputs must be a non-empty finite set")
    best = (-math.inf, None, None, None)
    n = 0
    for X, Xp in pairs:
        dd = 1.0 if dist is None else float(dist(X, Xp))
        with np.errstate(all="ignore"):
            lp = np.asarray(mechanism.log_density(X, np.asarray(outs, dtype=float)), dtype=float)
            lq = np.asarray(mechanism.log_density(Xp, np.asarray(outs, dtype=float)), dtype=float)
            L = np.where(lp == -np.inf, -np.inf, lp - lq)
        s = L - eps * dd
        n += len(outs)
        j = int(np.argmax(s))
        if s[j] > best[0]:
            best = (float(s[j]), X, Xp, outs[j])
    if best[1] is None:
        raise ValueError("pairs must be non-empty")
    fx, X, Xp, z = best
    witness = {"X": jsonable(X), "X_prime": jsonable(Xp), "z": jsonable(z)}
    certified, cert, notes, settled = False, None, [], False
    if fx > -1e-9:
        try:
            with mpmath.workdps(dps):
                dd = 1 if dist is None else mpmath.mpf(dist(X, Xp))
                if math.isinf(fx):
                    # Pr[M(X')=z] = 0 < Pr[M(X)=z]: confirm both in mpmath.
                    lp = log_density_mp(mechanism, X, z, dps)
                    lq = log_density_mp(mechanism, Xp, z, dps)
                    sl = mpmath.inf if (lq == -mpmath.inf and lp > -mpmath.inf) else lp - lq - eps * dd
                else:
                    sl = privacy_loss_mp(mechanism, X, Xp, z, dps) - mpmath.mpf(eps) * dd
            settled = True
            if sl > cert_threshold(dps, eps):
                certified, cert = True, mpmath.nstr(sl, 20)
            else:
                notes.append(f"float slack {fx:.3g} not confirmed in mpmath")
        except TypeError as exc:
            notes.append(f"cannot certify: {exc}")
    return AuditResult(mechanism=str(getattr(mechanism, "name", type(mechanism).__name__)), eps=eps,
                       delta=float(getattr(mechanism, "delta", 0.0)), max_slack=fx, witness=witness,
                       outcome=AuditResult.decide(certified, fx, settled), certified_slack=cert, evaluations=n, dps=dps,
                       mode="pure", notes=tuple(notes))
