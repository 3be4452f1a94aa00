"""The abstract smooth-sensitivity mechanism: worst case over every (f, B) allowed by 004 Def. 8.

Abstract smooth-sensitivity mechanisms (004 Def. 8, Lemmas 3.3, 3.5, 3.6, Cor. 3.2; 002 Thm. 8)
------------------------------------------------------------------------------------------------
M(x) = f(x) + (B(x)/eta) Z.  For a g-smooth upper bound B on the pointwise Lipschitz constant
L_{f,Lambda} (004 Def. 8), the only facts the mechanism may rely on for a pair x ~_Lambda x' at
distance d are

    ln B(x) - ln B(x')  in  [-ln g0(d), ln g0(d)]      (condition (2), both orders)
    ||f(x) - f(x')||_1  <=  min(B(x), B(x')) * d        (condition (1) at x and at x')

and every pair of values satisfying these is realised by some (f, B) on the two-point domain
U = {x, x'} (with B(x) >= |f(x) - f(x')|/d = L_{f,Lambda}(x) and B(x) <= g(x, x') B(x')).  The
output law is location-scale, so B(x') = 1, f(x') = 0 loses no generality; the search runs over
(d, r = ln B(x) - ln B(x'), shift = f(x) - f(x'), y) (random starts + bounded local optimisation).
A counterexample is therefore a concrete two-point instance of f and B that satisfies 004 Def. 8
and breaks the claimed guarantee.

The mechanism audited is the core's :class:`smoothsens_core.mechanism.SmoothSensitivityMechanism`
as a calibration returns it (``calibrate_*(...).mechanism()``): its noise, eta, growth, eps, delta,
metric, Lambda and m; f and B, if given, are not used.  The float loss comes from the core noise
object (``noise.logpdf``), the mpmath loss from its independent reference
(:func:`verify.reference.distributions.reference_for`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.reference.distributions import reference_for

from ._search import AbstractBox, best_local_max, project_def8_mp, require_abstract_search
from .approx import audit_smooth_mechanism_approx
from .loss import cert_threshold
from .result import AuditResult

__all__ = ["abstract_loss", "abstract_loss_mp", "audit_smooth_mechanism"]

FloatArray = NDArray[np.float64]


def abstract_loss(mech: SmoothSensitivityMechanism, r: ArrayLike, shift: ArrayLike, y: ArrayLike) -> FloatArray:
    """Privacy loss of the abstract instance B(x') = 1, B(x) = e^r, f(x') = 0, f(x) = shift:

        L = sum_j [ln h((y_j - shift_j) eta e^-r) + ln(eta e^-r)] - [ln h(y_j eta) + ln eta].

    ``r`` has shape (n,), ``shift`` and ``y`` shape (n, m) (or (n,) for m = 1); h is the density of
    ``mech.noise`` (the core distribution object)."""
    r = np.asarray(r, dtype=float)
    shift = np.asarray(shift, dtype=float).reshape(r.shape[0], -1)
    y = np.asarray(y, dtype=float).reshape(r.shape[0], -1)
    eta = mech.eta
    inv_b = eta * np.exp(-r)[:, None]
    lp = np.asarray(mech.noise.logpdf((y - shift) * inv_b)) + np.log(inv_b)
    lq = np.asarray(mech.noise.logpdf(y * eta)) + math.log(eta)
    return np.sum(lp - lq, axis=1)


def abstract_loss_mp(mech: SmoothSensitivityMechanism, r: Any, shift: Sequence[Any], y: Sequence[Any]) -> Any:
    """:func:`abstract_loss` for one instance in mpmath (current working precision), with the
    noise's independent reference density."""
    ref = reference_for(mech.noise)
    eta = mpmath.mpf(mech.eta)
    inv_b = eta * mpmath.exp(-mpmath.mpf(r))
    tot = mpmath.mpf(0)
    for sj, yj in zip(shift, y, strict=True):
        sj, yj = mpmath.mpf(sj), mpmath.mpf(yj)
        tot += ref.logpdf((yj - sj) * inv_b) + mpmath.log(inv_b)
        tot -= ref.logpdf(yj * eta) + mpmath.log(eta)
    return tot


def _certify_pure(mech: SmoothSensitivityMechanism, d: float, r: float, shift: FloatArray, y: FloatArray,
                  dps: int) -> tuple[bool, Any, dict[str, Any]]:
    """Re-evaluate an abstract candidate in mpmath: project (r, shift) onto the exact constraint
    set (004 Def. 8) in mpmath, then compute L - eps d.  Returns (violated, slack_mp, instance)."""
    with mpmath.workdps(dps):
        dm = mpmath.mpf(d)
        rm, sh = project_def8_mp(mech, dm, r, shift)
        loss = abstract_loss_mp(mech, rm, sh, [mpmath.mpf(t) for t in y])
        slack = loss - mpmath.mpf(mech.eps) * dm
        inst = {
            "dist": mpmath.nstr(dm, 17),
            "B(x)": mpmath.nstr(mpmath.exp(rm), 17),
            "B(x')": "1",
            "f(x)": [mpmath.nstr(s, 17) for s in sh],
            "f(x')": [0] * len(sh),
            "y": [mpmath.nstr(mpmath.mpf(t), 17) for t in y],
            "loss_mp": mpmath.nstr(loss, 20),
            "eps_times_dist_mp": mpmath.nstr(mpmath.mpf(mech.eps) * dm, 20),
        }
        return bool(slack > cert_threshold(dps, mech.eps * dm)), slack, inst


def audit_smooth_mechanism(
    mech: SmoothSensitivityMechanism,
    *,
    rng: np.random.Generator,
    n_random: int = 20000,
    n_local: int = 8,
    dps: int = 50,
    mode: str | None = None,
    maxfev: int = 600,
) -> AuditResult:
    """Worst-case search for an abstract smooth-sensitivity mechanism (module docstring).

    ``mode="pure"``: maximise L(y) - eps d over (d, r, shift, y); ``mode="approx"``: maximise
    delta_hs(eps d) - delta over (d, r, shift) (m = 1 only, :mod:`verify.audit.exact.approx`).
    Defaults to "approx" when ``mech.delta > 0``.  Every candidate with a float slack above -1e-9
    is re-evaluated in mpmath; only a positive mpmath slack (beyond :func:`cert_threshold`) makes
    the outcome "violated"; an uncertified float excess is "inconclusive".
    """
    mech = require_abstract_search(mech)
    mode = mode or ("approx" if mech.delta > 0 else "pure")
    if mode not in ("pure", "approx"):
        raise ValueError(f"mode must be 'pure' or 'approx'; got mode={mode!r}")
    if mode == "approx":
        return audit_smooth_mechanism_approx(mech, rng=rng, n_random=n_random, n_local=n_local, dps=dps,
                                             maxfev=max(40, maxfev // 4))
    par = AbstractBox(mech)
    n_random = max(int(n_random), 10)

    def slack_batch(v: FloatArray) -> FloatArray:
        d, r, shift, y = par.decode_with_y(v)
        with np.errstate(all="ignore"):
            s = abstract_loss(mech, r, shift, y) - mech.eps * d
        return np.where(np.isfinite(s), s, -np.inf)

    v0 = par.random(n_random, rng)
    s0 = slack_batch(v0)
    evals = n_random
    order = np.argsort(-s0)
    # Local refinement from the best distinct starts.
    starts = v0[order[: max(n_local, 1)]]
    best, n_local_evals = best_local_max(lambda v: float(slack_batch(v[None, :])[0]), starts, par.lo, par.hi, maxfev)
    evals += n_local_evals
    top_s, top_v = best[0]
    d, r, shift, y = par.decode_with_y(top_v)
    witness_f: dict[str, Any] = {"dist": float(d[0]), "log_B_ratio": float(r[0]),
                                 "shift": [float(t) for t in shift[0]], "y": [float(t) for t in y[0]]}
    certified = False
    settled = False  # the top candidate was re-evaluated in mpmath
    cert_slack = None
    notes: list[str] = []
    for k, (fx, vx) in enumerate(best[:3]):
        if fx <= -1e-9:
            break
        d, r, shift, y = par.decode_with_y(vx)
        try:
            ok, sl, inst = _certify_pure(mech, float(d[0]), float(r[0]), shift[0], y[0], dps)
        except TypeError as exc:
            notes.append(f"cannot certify: {exc}")
            break
        settled = settled or k == 0
        if ok:
            certified = True
            cert_slack = mpmath.nstr(sl, 20)
            witness_f = inst | {"construction": "two-point domain U={x, x'} with dist(x,x')=dist; "
                                "f, B as given satisfy 004 Def. 8"}
            break
        notes.append(f"float slack {fx:.3g} not confirmed in mpmath (slack_mp={mpmath.nstr(sl, 5)})")
    d, r, shift, y = par.decode_with_y(top_v)
    with np.errstate(all="ignore"):
        inv_b = mech.eta * math.exp(-float(r[0]))
        magnitude = float(np.sum(np.abs(np.asarray(mech.noise.logpdf((y[0] - shift[0]) * inv_b)) + math.log(inv_b)))
                          + np.sum(np.abs(np.asarray(mech.noise.logpdf(y[0] * mech.eta)) + math.log(mech.eta))))
    return AuditResult(mechanism=mech.name or mech.describe(), eps=mech.eps, delta=mech.delta,
                       max_slack=float(top_s), witness=witness_f,
                       outcome=AuditResult.decide(certified, float(top_s), settled, magnitude),
                       certified_slack=cert_slack,
                       evaluations=evals, dps=dps, mode="pure", notes=tuple(notes))
