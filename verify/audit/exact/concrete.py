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
from .curve import audit_density_mechanism_approx
from .loss import cert_threshold, check_has_density, log_density_mp, privacy_loss, privacy_loss_mp
from .neighbourhoods import EuclideanNeighbourhood, HammingNeighbourhood
from .result import AuditResult, excess_threshold

__all__ = ["audit_density_mechanism", "audit_finite"]

FloatArray = NDArray[np.float64]


def _call_log_density(mechanism: Any, x: Any, y: Any, shape: tuple[int, ...] | None = None) -> FloatArray:
    """The mechanism's own ``log_density(x, y)`` as a float array of ``shape`` (default y's shape: one value
    per scalar output); an exception raised by it, or a result of another shape (e.g. one value per
    coordinate of an m-output density), is a ValueError that names the mechanism's function."""
    try:
        out = np.asarray(mechanism.log_density(x, y), dtype=float)
    except Exception as exc:  # a third-party density may raise anything
        raise ValueError(f"the mechanism's log_density(x, y) raised {type(exc).__name__}: {exc}") from exc
    if out.shape != (np.shape(y) if shape is None else shape):
        raise ValueError(f"the mechanism's log_density(x, y) returned shape {out.shape} for outputs y of shape "
                         f"{np.shape(y)}: one log-density per output expected (an m-output density is not "
                         "audited by its first output)")
    return out


def _max_over_y(mechanism: Any, x: FloatArray, xp: FloatArray, centres: FloatArray, widths: FloatArray,
                eps_dist: FloatArray, n_grid: int = 241) -> tuple[FloatArray, FloatArray, float, dict[str, Any]]:
    """max_y L(y; x_i, x'_i) per pair on a sinh grid around each pair's centre (vectorised), the largest
    *significant* slack over the grid: max of L - eps d - excess_threshold(|ln p_x| + |ln p_x'|) (an
    excess beyond the rounding of the log-densities it is computed from), and the first non-finite
    findings: ``"support"`` (pair index, y) where p_x(y) > 0 = p_x'(y) or p_x(y) = +inf > p_x'(y)
    (an infinite loss), ``"nan"`` (pair index, y, ln p_x, ln p_x') where a log-density is NaN or both
    are +inf (the loss is undefined)."""
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
        lp = _call_log_density(mechanism, Xa, y.reshape(-1))
        lq = _call_log_density(mechanism, XPa, y.reshape(-1))
        finite = np.isfinite(lp) & np.isfinite(lq)
        L = np.where(finite, lp - lq, -np.inf).reshape(k, n_grid)
        bound = np.vectorize(excess_threshold)(np.abs(lp) + np.abs(lq)).reshape(k, n_grid)
        significant = L - eps_dist[:, None] - bound
    significant = np.where(np.isfinite(significant), significant, -np.inf)
    found: dict[str, Any] = {}
    nan_lp, nan_lq = np.isnan(lp), np.isnan(lq)
    support = ((lq == -np.inf) & (lp > -np.inf) & ~nan_lp) | ((lp == np.inf) & (lq < np.inf) & ~nan_lq)
    undefined = nan_lp | nan_lq | ((lp == np.inf) & (lq == np.inf))
    if np.any(support):
        j = int(np.argmax(support))
        found["support"] = (j // n_grid, float(y.reshape(-1)[j]))
    if np.any(undefined):
        j = int(np.argmax(undefined))
        found["nan"] = (j // n_grid, float(y.reshape(-1)[j]), float(lp[j]), float(lq[j]))
    j = np.argmax(L, axis=1)
    return L[np.arange(k), j], y[np.arange(k), j], float(np.max(significant)), found


def _output_count(mechanism: Any, x: FloatArray) -> int:
    """Outputs per input: the mechanism's ``m``, or the number of values f(x) gives per input (1 when
    the mechanism exposes no query)."""
    inner = getattr(mechanism, "_mech", mechanism)
    m = getattr(inner, "m", None)
    if isinstance(m, (int, np.integer)) and m > 1:
        return int(m)
    f = getattr(inner, "f", None)
    if callable(f):
        xa = x[:1].squeeze(-1) if x.ndim == 2 and x.shape[1] == 1 else x[:1]
        try:
            return max(1, int(np.asarray(f(xa), dtype=float).size))
        except Exception:  # noqa: BLE001 - the pure search below calls f again and reports its failure
            return 1
    return 1


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
    name = getattr(mechanism, "name", type(mechanism).__name__)
    m_out = _output_count(mechanism, x)
    if m_out > 1:
        return _refused(str(name), eps, dps, f"the mechanism has m = {m_out} outputs per input; the pure loss of a "
                        "multi-output density is the sum over its outputs and is not audited here (never by its "
                        "first output alone): refused")
    c, w = _centre_width(mechanism, x, xp)
    Lmax, ybest, significant, found = _max_over_y(mechanism, x, xp, c, w, eps * dist)
    if "support" in found:
        i, ys = found["support"]
        return _support_mismatch(mechanism, str(name), eps, x[i], xp[i], ys, dps, neighbourhood)
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

            def f1(v: FloatArray, nb: EuclideanNeighbourhood = nb) -> float:
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
    settled = False  # the top candidate was re-evaluated in mpmath
    disagreement = False  # the mpmath loss differs from the float one beyond rounding
    for k, (fx_i, a_i, b_i, y_i) in enumerate(cands[:3]):
        if fx_i <= -1e-9:
            break
        xa = a_i if len(np.atleast_1d(a_i)) > 1 else float(np.atleast_1d(a_i)[0])
        xb = b_i if len(np.atleast_1d(b_i)) > 1 else float(np.atleast_1d(b_i)[0])
        try:
            with mpmath.workdps(dps):
                if isinstance(neighbourhood, EuclideanNeighbourhood):
                    dm = mpmath.sqrt(sum((mpmath.mpf(float(s)) - mpmath.mpf(float(t))) ** 2
                                         for s, t in zip(np.atleast_1d(a_i), np.atleast_1d(b_i), strict=True)))
                else:
                    dm = mpmath.mpf(1)
                L = privacy_loss_mp(mechanism, xa, xb, mpmath.mpf(y_i), dps)
                sl = L - mpmath.mpf(eps) * dm
        except TypeError as exc:
            notes.append(f"cannot certify: {exc}")
            break
        settled = settled or k == 0
        fl = float(fx_i) + eps * float(dm)  # the float loss at this candidate
        mag = _magnitude(mechanism, a_i, b_i, y_i)
        if AuditResult.disagree(fl, L, mag) and fx_i > excess_threshold(mag):
            disagreement = True
            notes.append(f"log_density and log_density_mp disagree at x={_fmt(a_i)}, x'={_fmt(b_i)}, y={y_i:.6g}: "
                         f"float loss {fl!r} vs mpmath loss {mpmath.nstr(L, 17)} (beyond the float's rounding "
                         f"{excess_threshold(mag):.3g}): the mpmath re-evaluation settles nothing")
            continue
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
    outcome = AuditResult.decide(certified, float(fx), settled, magnitude, disagreement)
    if "nan" in found and outcome != "violated":
        i, ys, lp, lq = found["nan"]
        outcome = "inconclusive"
        notes.append(f"the loss is undefined at x={_fmt(x[i])}, x'={_fmt(xp[i])}, y={ys:.6g}: log_density gave "
                     f"ln p_x(y) = {lp!r}, ln p_x'(y) = {lq!r} (NaN, or +inf at both): never a pass")
        witness = {**witness, "undefined_at": {"x": [float(t) for t in np.atleast_1d(x[i])],
                                               "x_prime": [float(t) for t in np.atleast_1d(xp[i])], "y": ys,
                                               "log_p": repr(lp), "log_p_prime": repr(lq)}}
    return AuditResult(mechanism=str(name), eps=eps, delta=float(getattr(mechanism, "delta", 0.0)),
                       max_slack=float(fx), witness=witness, outcome=outcome,
                       certified_slack=cert, evaluations=evals, dps=dps, mode="pure", notes=tuple(notes))


def _fmt(v: Any) -> str:
    a = np.atleast_1d(np.asarray(v, dtype=float))
    return f"{a[0]:.6g}" if a.size == 1 else "[" + ", ".join(f"{t:.4g}" for t in a) + "]"


def _refused(name: str, eps: float, dps: int, why: str) -> AuditResult:
    """Nothing audited (the mechanism is outside what the auditor can judge soundly): inconclusive."""
    return AuditResult(mechanism=name, eps=eps, delta=0.0, max_slack=math.inf, witness={}, outcome="inconclusive",
                       certified_slack=None, evaluations=0, dps=dps, mode="pure", notes=(why,))


def _support_mismatch(mechanism: Any, name: str, eps: float, x: FloatArray, xp: FloatArray, y: float, dps: int,
                      neighbourhood: Any) -> AuditResult:
    """p_x(y) > 0 = p_x'(y) (or p_x(y) = +inf > p_x'(y)): the privacy loss is +inf, beyond every eps d.
    Certified when the mpmath log-densities agree (ln p_x(y) > -inf, ln p_x'(y) = -inf, or +inf vs finite);
    the witness also gives an output interval around y on which the float densities show the same at 201
    points, with its P_x mass (trapezoid, float): an output of positive probability under x and none under
    x'.  Inconclusive when mpmath cannot confirm (no mpmath density, or it disagrees: both numbers shown)."""
    xa = x if len(np.atleast_1d(x)) > 1 else float(np.atleast_1d(x)[0])
    xb = xp if len(np.atleast_1d(xp)) > 1 else float(np.atleast_1d(xp)[0])
    dd = float(np.linalg.norm(np.atleast_1d(x) - np.atleast_1d(xp))) if isinstance(
        neighbourhood, EuclideanNeighbourhood) else 1.0
    with np.errstate(all="ignore"):
        lp_f = float(_call_log_density(mechanism, np.atleast_1d(x)[None, :] if np.size(x) > 1 else np.atleast_1d(x),
                                       np.array([y]))[0])
        lq_f = float(_call_log_density(mechanism, np.atleast_1d(xp)[None, :] if np.size(xp) > 1 else np.atleast_1d(xp),
                                       np.array([y]))[0])
    witness: dict[str, Any] = {"x": [float(t) for t in np.atleast_1d(x)], "x_prime": [float(t) for t in np.atleast_1d(xp)],
                               "y": y, "dist": dd, "log_p": repr(lp_f), "log_p_prime": repr(lq_f)}
    # An output interval around y where the float densities show the same mismatch at every checked point.
    for h in (1e-2, 1e-4, 1e-6, 1e-8):
        hw = h * (1.0 + abs(y))
        ys = np.linspace(y - hw, y + hw, 201)
        with np.errstate(all="ignore"):
            a = _call_log_density(mechanism, np.repeat(np.atleast_1d(x)[None, :], 201, axis=0).squeeze(-1)
                                  if np.size(x) == 1 else np.repeat(np.atleast_1d(x)[None, :], 201, axis=0), ys)
            b = _call_log_density(mechanism, np.repeat(np.atleast_1d(xp)[None, :], 201, axis=0).squeeze(-1)
                                  if np.size(xp) == 1 else np.repeat(np.atleast_1d(xp)[None, :], 201, axis=0), ys)
        if np.all(np.isfinite(a)) and np.all(b == -np.inf):
            witness["output_set"] = [float(ys[0]), float(ys[-1])]
            witness["mass_x_float"] = float(np.trapezoid(np.exp(a), ys))
            witness["mass_x_prime"] = 0.0
            break
    notes: list[str] = []
    try:
        with mpmath.workdps(dps):
            lp = log_density_mp(mechanism, xa, mpmath.mpf(y), dps)
            lq = log_density_mp(mechanism, xb, mpmath.mpf(y), dps)
    except TypeError as exc:
        notes.append(f"float: p_x(y) > 0 = p_x'(y) (ln p_x = {lp_f!r}, ln p_x' = {lq_f!r}), an infinite loss, not "
                     f"certified: {exc}")
        return AuditResult(mechanism=name, eps=eps, delta=0.0, max_slack=math.inf, witness=witness,
                           outcome="inconclusive", certified_slack=None, evaluations=0, dps=dps, mode="pure",
                           notes=tuple(notes))
    witness["log_p_mp"] = mpmath.nstr(lp, 20)
    witness["log_p_prime_mp"] = mpmath.nstr(lq, 20)
    confirmed = (lq == -mpmath.inf and lp > -mpmath.inf and not mpmath.isnan(lp)) or (
        lp == mpmath.inf and mpmath.isfinite(lq))
    if confirmed:
        witness["support_mismatch"] = ("P_x has positive density at y, P_x' has density 0 there: the privacy loss "
                                       "is +inf (an output set of positive probability under x and zero under x')")
        return AuditResult(mechanism=name, eps=eps, delta=0.0, max_slack=math.inf, witness=witness, outcome="violated",
                           certified_slack="+inf", evaluations=0, dps=dps, mode="pure",
                           notes=("support mismatch: infinite privacy loss",))
    notes.append(f"float says p_x(y) > 0 = p_x'(y) at y={y:.6g} (ln p_x = {lp_f!r}, ln p_x' = {lq_f!r}) but mpmath gives "
                 f"ln p_x = {mpmath.nstr(lp, 17)}, ln p_x' = {mpmath.nstr(lq, 17)}: log_density and log_density_mp "
                 "disagree")
    return AuditResult(mechanism=name, eps=eps, delta=0.0, max_slack=math.inf, witness=witness, outcome="inconclusive",
                       certified_slack=None, evaluations=0, dps=dps, mode="pure", notes=tuple(notes))


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
    undefined: tuple[Any, Any, Any, float, float] | None = None
    for X, Xp in pairs:
        dd = 1.0 if dist is None else float(dist(X, Xp))
        with np.errstate(all="ignore"):
            # one value per output z (an output may be a vector: the pmf of the whole release)
            lp = _call_log_density(mechanism, X, np.asarray(outs, dtype=float), (len(outs),))
            lq = _call_log_density(mechanism, Xp, np.asarray(outs, dtype=float), (len(outs),))
            L = np.where(lp == -np.inf, -np.inf, lp - lq)
        bad = np.isnan(lp) | np.isnan(lq) | ((lp == np.inf) & (lq == np.inf))
        if undefined is None and np.any(bad):
            k = int(np.argmax(bad))
            undefined = (X, Xp, outs[k], float(lp[k]), float(lq[k]))
        L = np.where(bad, -np.inf, L)
        s = L - eps * dd
        n += len(outs)
        j = int(np.argmax(s))
        if s[j] > best[0]:
            best = (float(s[j]), X, Xp, outs[j])
    if best[1] is None:
        raise ValueError("pairs must be non-empty")
    fx, X, Xp, z = best
    witness = {"X": jsonable(X), "X_prime": jsonable(Xp), "z": jsonable(z)}
    certified, cert, notes, settled, disagreement = False, None, [], False, False
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
            elif AuditResult.disagree(fx, sl):
                disagreement = True
                notes.append(f"log_density and log_density_mp disagree at z={z!r}: float slack {fx!r} vs mpmath slack "
                             f"{mpmath.nstr(sl, 17)}: the mpmath re-evaluation settles nothing")
            else:
                notes.append(f"float slack {fx:.3g} not confirmed in mpmath")
        except TypeError as exc:
            notes.append(f"cannot certify: {exc}")
    outcome = AuditResult.decide(certified, fx, settled, disagreement=disagreement)
    if undefined is not None and outcome != "violated":
        outcome = "inconclusive"
        notes.append(f"the loss is undefined at X={undefined[0]!r}, X'={undefined[1]!r}, z={undefined[2]!r}: log_density "
                     f"gave {undefined[3]!r}, {undefined[4]!r} (NaN, or +inf at both): never a pass")
    return AuditResult(mechanism=str(getattr(mechanism, "name", type(mechanism).__name__)), eps=eps,
                       delta=float(getattr(mechanism, "delta", 0.0)), max_slack=fx, witness=witness,
                       outcome=outcome, certified_slack=cert, evaluations=n, dps=dps,
                       mode="pure", notes=tuple(notes))
