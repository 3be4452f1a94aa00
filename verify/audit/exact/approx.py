"""(eps, delta): the hockey-stick divergence by exact CDFs over the set where the loss exceeds eps*d.

Approximate guarantees (004 Def. 5 with delta > 0) demand, for every allowed pair,

    delta_hs(x, x') = sup_S  P[M(x) in S] - e^(eps dist) P[M(x') in S]
                    = integral of (p_x(y) - e^(eps dist) p_{x'}(y))_+ dy   <= delta

(the hockey-stick divergence); it is computed from the exact CDFs of the noise over the intervals
where L > eps * dist (roots of L - eps*dist located on a grid and refined), never by sampling.  The
probability mass P_x[L > eps * dist] (the sufficient condition used in 004 Lemma 3.6's proof) is
reported too.

A violation is certified when the mass difference over the explicit set S, whose end points are
binary64 numbers, recomputed with mpmath CDFs (the noise's independent reference,
:func:`verify.reference.distributions.reference_for`), exceeds delta: any set S with
P[M(x) in S] - e^(eps d) P[M(x') in S] > delta refutes the guarantee.

The float side uses the core noise object itself (``logpdf``, ``cdf``, ``sf``, ``kinks``).
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.reference.distributions import reference_for

from ._search import AbstractBox, best_local_max, project_def8_mp
from .enclosure import ball_law, hockey_stick_enclosure
from .loss import cert_threshold
from .result import AuditResult

__all__ = ["interval_mass", "bad_set", "hockey_stick", "hockey_stick_mp", "audit_smooth_mechanism_approx"]

FloatArray = NDArray[np.float64]


def interval_mass(noise: Any, lo: Any, hi: Any) -> FloatArray:
    """P[lo < Z < hi] for the core noise object ``noise``, from the upper tail on the side away from
    0 (sf for lo >= 0, cdf for hi <= 0): no 1 - cdf cancellation in the tails (vectorised)."""
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        sf_lo, sf_hi = np.asarray(noise.sf(lo)), np.asarray(noise.sf(hi))
        cdf_lo, cdf_hi = np.asarray(noise.cdf(lo)), np.asarray(noise.cdf(hi))
        out = np.where(lo >= 0, sf_lo - sf_hi,
                       np.where(hi <= 0, cdf_hi - cdf_lo, 1.0 - cdf_lo - sf_hi))
    return np.maximum(out, 0.0)


def bad_set(noise: Any, a: float, b: float, a2: float, b2: float, t: float,
            n_grid: int = 2001) -> list[tuple[float, float]]:
    """Intervals of y where ln p(y) - ln p'(y) > t, p = (1/b) h((y-a)/b), p' = (1/b2) h((y-a2)/b2), in
    binary64: the fast path that proposes the excess set, never a decision (the decision is the certified
    enclosure of :func:`verify.audit.exact.enclosure.hockey_stick_enclosure`).

    Located on a grid y = c + w sinh(v), v in [-60, 60], with the kinks of both densities
    (``noise.kinks()``) inserted and every local maximum of the loss on the grid refined (bounded Brent):
    an excess region narrower than the grid step around the loss's peak is found; each sign change is
    refined by brentq to full float precision.  Where the loss equals t up to its float rounding (a flat
    region: Laplace outside its two centres at t = shift/b) the integrand p - e^t p' is 0 whichever side
    the point is put on, so those points count as inside (no fragments from rounding noise)."""
    c = 0.5 * (a + a2)
    w = max(b, b2)
    v = np.linspace(-60.0, 60.0, n_grid)
    ys = c + w * np.sinh(v)
    knots = [float(k) for k in noise.kinks()]
    kinks = [a + b * k for k in knots] + [a2 + b2 * k for k in knots]
    ys = np.unique(np.concatenate([ys, np.asarray(kinks, dtype=float)]))
    ys = ys[np.isfinite(ys)]
    lb, lb2 = math.log(b), math.log(b2)

    def loss(yv: Any) -> Any:
        with np.errstate(all="ignore"):
            yv = np.asarray(yv, dtype=float)
            return (np.asarray(noise.logpdf((yv - a) / b)) - lb) - (np.asarray(noise.logpdf((yv - a2) / b2)) - lb2)

    def rounding(yv: Any) -> Any:
        # 16 ulps of the log-densities the loss is a difference of (verify.audit.exact.result.excess_threshold)
        with np.errstate(all="ignore"):
            yv = np.asarray(yv, dtype=float)
            m = np.abs(np.asarray(noise.logpdf((yv - a) / b)) - lb) + np.abs(np.asarray(noise.logpdf((yv - a2) / b2)) - lb2)
        return 16 * np.finfo(float).eps * (np.where(np.isfinite(m), m, 0.0) + abs(t))

    lv = loss(ys)
    # Local maxima of the loss on the grid: refine the highest few, so a narrow excess region around a peak
    # between two grid points is not missed (GenCauchy just below its largest loss).  A maximum must stand
    # out of the float rounding (tails of a linear loss are full of rounding 'peaks').  This is the fast
    # path: the certified enclosure classifies every cell itself.
    inner = np.arange(1, len(ys) - 1)
    rnd = rounding(ys[inner])
    strict = inner[np.isfinite(lv[inner]) & (lv[inner] > lv[inner - 1] + rnd) & (lv[inner] > lv[inner + 1] + rnd)
                   & (lv[inner] <= t)]
    peaks = [int(i) for i in strict]
    peaks.sort(key=lambda i: -lv[i])
    extra = []
    for i in peaks[:3]:
        res = optimize.minimize_scalar(lambda s: -float(loss(s)), bounds=(ys[i - 1], ys[i + 1]), method="bounded",
                                       options={"xatol": 1e-10 * (abs(ys[i]) + w)})
        if np.isfinite(res.fun) and -res.fun > t:
            extra.append(float(res.x))
    if extra:
        ys = np.unique(np.concatenate([ys, np.asarray(extra)]))

    def g(yv: Any) -> Any:
        return loss(yv) - t + rounding(yv)

    gv = g(ys)
    pos = gv > 0
    change = np.nonzero(pos[1:] != pos[:-1])[0]
    roots = []
    for i in change.tolist():  # only the few sign changes are refined (vectorised detection)
        # The root of the plain loss - t when it changes sign on the bracket (the band only classifies the
        # points of a flat region); rtol = 4 machine epsilons is the smallest brentq accepts.
        plain = lambda s: float(loss(s)) - t  # noqa: E731
        fa, fb = plain(ys[i]), plain(ys[i + 1])
        fun = plain if np.isfinite(fa) and np.isfinite(fb) and (fa > 0) != (fb > 0) else (lambda s: float(g(s)))
        roots.append(optimize.brentq(fun, ys[i], ys[i + 1], xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=200))
    # Intervals where g > 0: between consecutive boundaries, starting inside if pos[0].
    bounds = ([-math.inf] if pos[0] else []) + roots + ([math.inf] if pos[-1] else [])
    intervals = [(bounds[k], bounds[k + 1]) for k in range(0, len(bounds) - 1, 2)]
    return intervals


def hockey_stick(noise: Any, a: float, b: float, a2: float, b2: float, t: float) -> tuple[float, float]:
    """(delta_hs, bad_mass) for M(x) ~ a + b Z and M(x') ~ a2 + b2 Z at threshold t = eps d:

    delta_hs = sum over intervals S_i of {L > t} of P[a + bZ in S_i] - e^t P[a2 + b2 Z in S_i]
             = integral (p - e^t p')_+  (the exact sup over sets S of 004 Def. 5),
    bad_mass = P[a + bZ in {L > t}]  (004 Lemma 3.6's sufficient condition: <= delta).
    Interval probabilities come from the exact tail functions of the core noise object."""
    ivs = bad_set(noise, a, b, a2, b2, t)
    if not ivs:
        return 0.0, 0.0
    lo = np.array([s for s, _ in ivs])
    hi = np.array([e for _, e in ivs])
    p = interval_mass(noise, (lo - a) / b, (hi - a) / b)
    q = interval_mass(noise, (lo - a2) / b2, (hi - a2) / b2)
    return float(np.sum(p - math.exp(t) * q)), float(np.sum(p))


def hockey_stick_mp(noise: Any, a: Any, b: Any, a2: Any, b2: Any, t: Any,
                    intervals: Iterable[tuple[float, float]], dps: int = 50) -> Any:
    """P[a + bZ in S] - e^t P[a2 + b2 Z in S] in mpmath for the explicit set S = union of
    ``intervals`` (end points taken as exact binary64 numbers), with the interval masses of the
    noise's independent reference.  Any S gives a lower bound on the hockey-stick divergence, so a
    value > delta certifies a violation of (eps, delta)."""
    ref = reference_for(noise)
    with mpmath.workdps(dps):
        a, b, a2, b2, t = (mpmath.mpf(v) for v in (a, b, a2, b2, t))
        tot = mpmath.mpf(0)
        et = mpmath.exp(t)
        for lo, hi in intervals:
            lo = mpmath.mpf(lo) if math.isfinite(lo) else mpmath.mpf("-inf")
            hi = mpmath.mpf(hi) if math.isfinite(hi) else mpmath.mpf("inf")
            tot += ref.interval_mass((lo - a) / b, (hi - a) / b)
            tot -= et * ref.interval_mass((lo - a2) / b2, (hi - a2) / b2)
        return tot


def _certify_approx(mech: SmoothSensitivityMechanism, d: float, r: float, shift: float,
                    intervals: list[tuple[float, float]], dps: int) -> tuple[bool, Any]:
    """mpmath hockey-stick mass over ``intervals`` at the instance projected onto 004 Def. 8;
    (violated, value)."""
    with mpmath.workdps(dps):
        dm = mpmath.mpf(d)
        rm, (sm,) = project_def8_mp(mech, dm, r, [shift])
        eta = mpmath.mpf(mech.eta)
        val = hockey_stick_mp(mech.noise, sm, mpmath.exp(rm) / eta, 0, 1 / eta,
                              mpmath.mpf(mech.eps) * dm, intervals, dps)
        return bool(val - mpmath.mpf(mech.delta) > cert_threshold(dps, 1)), val


def audit_smooth_mechanism_approx(mech: SmoothSensitivityMechanism, *, rng: np.random.Generator, n_random: int,
                                  n_local: int, dps: int, maxfev: int = 150) -> AuditResult:
    """The (eps, delta) audit of an abstract smooth-sensitivity mechanism (m = 1): maximise
    delta_hs(eps d) - delta over the instances (d, r, shift) of 004 Def. 8
    (:mod:`verify.audit.exact.smooth`), certify the best with :func:`hockey_stick_mp`."""
    if mech.m != 1:
        raise ValueError(f"the (eps, delta) audit supports m = 1 output; got m={mech.m}")
    par = AbstractBox(mech, with_y=False)
    n = max(int(n_random) // 8, 40)

    def excess(v: FloatArray) -> tuple[float, float, float]:
        d, r, shift, _ = par.decode(v)
        dd, rr, sh = float(d[0]), float(r[0]), float(shift[0, 0])
        hs, bad = hockey_stick(mech.noise, sh, math.exp(rr) / mech.eta, 0.0, 1.0 / mech.eta, mech.eps * dd)
        return hs - mech.delta, hs, bad

    v0 = par.random(n, rng)
    # Boundary-heavy starts: the loss is largest with |r| and |shift| maximal.
    vals = np.array([excess(v)[0] for v in v0])
    evals = n
    order = np.argsort(-vals)
    best, n_local_evals = best_local_max(lambda v: excess(v)[0], v0[order[: max(1, min(n_local, 4))]],
                                         par.lo, par.hi, maxfev)
    evals += n_local_evals
    fx, vx = best[0]
    d, r, shift, _ = par.decode(vx)
    dd, rr, sh = float(d[0]), float(r[0]), float(shift[0, 0])
    _, hs, bad = excess(vx)
    a, b, a2, b2 = sh, math.exp(rr) / mech.eta, 0.0, 1.0 / mech.eta
    witness: dict[str, Any] = {"dist": dd, "log_B_ratio": rr, "shift": sh, "delta_hs": hs,
                               "bad_mass": bad}
    certified = False
    cert = None
    val = None
    notes: list[str] = []
    if fx > -1e-12:
        ivs = bad_set(mech.noise, a, b, a2, b2, mech.eps * dd)
        try:
            ok, val = _certify_approx(mech, dd, rr, sh, ivs, dps)
        except TypeError as exc:
            ok, val = False, None
            notes.append(f"cannot certify: {exc}")
        if ok:
            certified = True
            cert = mpmath.nstr(val - mpmath.mpf(mech.delta), 20)
            witness |= {"S": [[lo, hi] for lo, hi in ivs], "delta_hs_mp": mpmath.nstr(val, 20),
                        "construction": "two-point domain U={x, x'}; B(x')=1, f(x')=0"}
        elif val is not None:
            notes.append(f"float excess {fx:.3g} not confirmed in mpmath")
    outcome = "violated" if certified else _decide_by_enclosure(mech, a, b, a2, b2, dd, witness, notes)
    return AuditResult(mechanism=mech.name or mech.describe(), eps=mech.eps, delta=mech.delta,
                       max_slack=float(fx), witness=witness, outcome=outcome,
                       certified_slack=cert, evaluations=evals, dps=dps, mode="approx", notes=tuple(notes))


def _decide_by_enclosure(mech: SmoothSensitivityMechanism, a: float, b: float, a2: float, b2: float, dd: float,
                         witness: dict[str, Any], notes: list[str]) -> str:
    """PASS only when the certified upper end of delta_hs at the worst instance found is <= delta
    (:func:`verify.audit.exact.enclosure.hockey_stick_enclosure`, t = eps d in ball arithmetic); otherwise
    INCONCLUSIVE with the enclosure and the reason (a violation is certified above, at the instance
    projected onto 004 Def. 8)."""
    from flint import arb, ctx  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    try:
        old = ctx.prec
        ctx.prec = 256
        try:
            t = arb(float(mech.eps)) * arb(float(dd))
        finally:
            ctx.prec = old
        enc = hockey_stick_enclosure(ball_law(mech.noise, a, b), ball_law(mech.noise, a2, b2), t,
                                     candidates=[v for iv in bad_set(mech.noise, a, b, a2, b2, mech.eps * dd)
                                                 for v in iv if math.isfinite(v)])
    except (TypeError, ValueError) as exc:
        notes.append(f"delta_hs at the worst instance not certified: {exc}")
        return "inconclusive"
    witness["delta_hs_enclosure"] = [enc.lower_str or repr(enc.lower), enc.upper_str or repr(enc.upper)]
    witness["enclosure_certified"] = enc.certified
    if enc.certified and enc.upper <= mech.delta:
        return "pass"
    notes.append(f"delta_hs in [{enc.lower:.6g}, {enc.upper:.6g}] at the worst instance: the certified upper end "
                 f"exceeds the claimed delta = {mech.delta:g}" if enc.certified else
                 f"delta_hs at the worst instance not certified: {enc.reason}")
    return "inconclusive"
