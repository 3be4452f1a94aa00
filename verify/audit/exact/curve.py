"""(eps, delta) of concrete mechanisms: the exact privacy curve delta(eps), certified in mpmath.

For neighbouring inputs x, x' at distance d the tightest delta at eps is the hockey-stick divergence

    H_{e^(eps d)}(P_x || P_x') = sup_S P_x(S) - e^(eps d) P_x'(S) = int (p_x - e^(eps d) p_x')_+   (004 Def. 5),

attained at S = {y : L(y; x, x') > eps d}, L the privacy loss of :mod:`verify.audit.exact.loss`.  The
privacy curve of a mechanism is delta(eps) = sup over neighbour pairs of it.

Computation (float): for a *location-scale* law P_x = a(x) + s(x) Z (``SmoothSensitivityMechanism``:
a = f(x), s = B(x)/eta; :class:`AdditiveNoiseMechanism`: a = f(x), s = scale) the set {L > eps d} is a
finite union of intervals (:func:`verify.audit.exact.approx.bad_set`: roots of L - eps d) and its masses
come from the exact tail functions of the noise (:func:`~verify.audit.exact.approx.interval_mass`); for a
discrete noise (a law on the integers, e.g. the two-sided geometric of 003 App. A) the set is found by
scanning the support point by point on a window holding all but 1e-18 of the mass (each run of
consecutive points an interval with half-integer end points; a run reaching the window's edge while
the loss there is still above eps d is extended to infinity).

Certificate (mpmath): P_x(S) - e^(eps d) P_x'(S) over that explicit S, recomputed from the noise's
independent reference (:func:`verify.reference.distributions.reference_for`,
:func:`~verify.audit.exact.approx.hockey_stick_mp`).  Any S gives a lower bound on the divergence, so a
value above the claimed delta (by more than :func:`~verify.audit.exact.loss.cert_threshold`) certifies
a violation of (eps, delta).

Check of the machinery: for the Gaussian mechanism f(x) + sigma Z with sensitivity Delta the curve is
the closed form of Balle & Wang, "Improving the Gaussian mechanism for differential privacy: analytical
calibration and optimal denoising", ICML 2018, Thm. 8:

    delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)

(:func:`gaussian_delta_balle_wang`, mpmath); for Laplace it is 004 Lemma 3.6's g_L computation.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.distributions import DiscreteDistribution
from smoothsens_core.validation import check_positive, check_probability, check_rng
from verify.reference.distributions import reference_for
from verify.serialise import jsonable

from ._search import local_max
from .approx import bad_set, hockey_stick_mp, interval_mass
from .enclosure import (
    Enclosure,
    ball_law,
    discrete_ball_law,
    discrete_hockey_stick_enclosure,
    hockey_stick_enclosure,
    not_certified,
)
from .loss import cert_threshold, check_has_density
from .neighbourhoods import EuclideanNeighbourhood, HammingNeighbourhood
from .result import AuditResult

__all__ = ["AdditiveNoiseMechanism", "LocationScaleLaw", "location_scale_law", "pair_hockey_stick",
           "pair_hockey_stick_mp", "pair_hockey_stick_enclosure", "audit_density_mechanism_approx", "PrivacyCurve", "privacy_curve",
           "gaussian_delta_balle_wang"]

FloatArray = NDArray[np.float64]
_WINDOW_TAIL = 1e-18          # mass left outside the scanned window of a discrete law (each side)
_MAX_WINDOW = 4_000_000       # support points scanned at most


@dataclass(frozen=True)
class AdditiveNoiseMechanism:
    """M(x) = f(x) + scale * Z with Z any core noise (continuous or discrete), e.g. the Gaussian
    mechanism (Z ~ Gaussian(), scale = sigma) or the geometric mechanism (Z ~ TwoSidedGeometric,
    scale 1, f integer-valued: 003 App. A).  ``eps``/``delta``/``metric`` are the claim.

    ln p_x(y) = ln h((y - f(x))/scale) - ln scale (``log_density``; a log-pmf for a discrete Z, with
    scale 1); ``log_density_mp`` from the noise's mpmath reference; ``release(x, rng)`` vectorised."""

    noise: Any
    f: Callable[[Any], ArrayLike]
    eps: float
    delta: float = 0.0
    scale: float = 1.0
    metric: str = "hamming"
    name: str = ""

    def __post_init__(self) -> None:
        check_positive("eps", self.eps)
        if self.delta != 0.0:
            check_probability("delta", self.delta)
        check_positive("scale", self.scale)
        if self.discrete and self.scale != 1.0:
            raise ValueError(f"scale must be 1 for a discrete noise (a law on the integers); got scale={self.scale!r}")
        if self.metric not in ("hamming", "euclidean"):
            raise ValueError(f"metric must be 'hamming' or 'euclidean'; got metric={self.metric!r}")

    @property
    def discrete(self) -> bool:
        return isinstance(self.noise, DiscreteDistribution)

    def _f(self, x: Any) -> FloatArray:
        return np.asarray(self.f(x), dtype=float)

    def log_density(self, x: Any, y: ArrayLike) -> FloatArray:
        z = (np.asarray(y, dtype=float) - self._f(x)) / self.scale
        if self.discrete:
            return np.asarray(self.noise.logpmf(z), dtype=float)
        return np.asarray(self.noise.logpdf(z), dtype=float) - math.log(self.scale)

    def log_density_mp(self, x: Any, y: Any, dps: int) -> Any:
        """ln p_x(y) in mpmath; for m > 1 outputs y is the whole output vector and the log-density of the
        product law is the sum over the coordinates (ValueError when y's length is not m)."""
        xa = np.asarray([x]) if np.ndim(x) == 0 else np.asarray(x)[None, ...]
        fa = self._f(xa).reshape(-1)
        ys = list(y) if np.ndim(y) else [y]
        if len(ys) != fa.size:
            raise ValueError(f"y must have one value per output (m = {fa.size}); got {len(ys)} value(s)")
        ref = reference_for(self.noise)
        with mpmath.workdps(dps):
            s = mpmath.mpf(self.scale)
            return mpmath.fsum(ref.logpdf((mpmath.mpf(float(yi)) - mpmath.mpf(float(ai))) / s) - mpmath.log(s)
                               for yi, ai in zip(ys, fa, strict=True))

    def release(self, x: Any, rng: Any) -> FloatArray:
        gen = check_rng(rng)
        fx = self._f(x)
        return fx + self.scale * np.asarray(self.noise.sample(np.shape(fx), gen), dtype=float)


@dataclass(frozen=True)
class LocationScaleLaw:
    """The output law a + s Z of a mechanism at one input (Z ~ ``noise``)."""

    noise: Any
    a: float
    s: float
    #: the m output locations f(x) (the law is the product of a_i + s Z_i, i = 1..m); (a,) for m = 1
    a_vec: tuple[float, ...] = ()

    @property
    def discrete(self) -> bool:
        return isinstance(self.noise, DiscreteDistribution)

    @property
    def m(self) -> int:
        return max(1, len(self.a_vec))


def location_scale_law(mech: Any, x: Any) -> LocationScaleLaw:
    """The law of M(x) as a + s Z: a = f(x) and s = B(x)/eta for a smooth-sensitivity mechanism
    (004 Lemma 3.3 proof), s = ``scale`` for an :class:`AdditiveNoiseMechanism`; for m > 1 outputs the
    product of a_i + s Z_i (all m locations in ``a_vec``, never the first alone).  TypeError for a
    mechanism without that structure (only its density is known)."""
    inner = getattr(mech, "_mech", mech)  # the black-box auditor's claimed-eps wrapper
    noise, f = getattr(inner, "noise", None), getattr(inner, "f", None)
    if noise is None or f is None:
        raise TypeError(f"the (eps, delta) audit needs a location-scale mechanism f(x) + s(x) Z (noise, f and "
                        f"B/eta or scale); {type(inner).__name__} exposes only a density, known pointwise, so no "
                        "certified enclosure of delta(eps) exists for it")
    xa = np.asarray([x], dtype=float) if np.ndim(x) == 0 else np.asarray(x, dtype=float)[None, ...]
    fa = np.asarray(f(xa), dtype=float).reshape(-1)
    m = int(getattr(inner, "m", 1) or 1)
    if fa.size != m and m != 1:
        raise TypeError(f"f(x) has {fa.size} values for m = {m} outputs")
    if fa.size == 0 or not np.all(np.isfinite(fa)):
        raise ValueError(f"f(x) must be finite; got f(x)={fa.tolist()} at x={x!r}")
    if hasattr(inner, "B") and hasattr(inner, "eta"):
        sv = np.asarray(inner.B(xa), dtype=float).reshape(-1)
        if sv.size != 1:
            raise TypeError(f"B(x) must be one number per input; got {sv.size}")
        s = float(sv[0]) / float(inner.eta)
    else:
        s = float(getattr(inner, "scale", 1.0))
    return LocationScaleLaw(noise, float(fa[0]), s, tuple(float(v) for v in fa))


def _joint_to_scalar(P: LocationScaleLaw, Q: LocationScaleLaw) -> tuple[LocationScaleLaw, LocationScaleLaw, Any]:
    """m > 1 outputs, product laws: the Gaussian product N(a, s^2 I) vs N(a', s^2 I) is, by rotation
    invariance, the one-output pair N(||a - a'||, s^2) vs N(0, s^2) (its privacy loss is the sum of the
    coordinates' losses, a function of the projection on a - a' only; Balle & Wang 2018, Thm. 8 with
    Delta = ||a - a'||).  Returns the scalar pair and the exact norm as an arb ball (the float shift of the
    scalar pair is its nearest binary64).  TypeError for any other family, or unequal scales: a joint
    audit of those is not implemented, and truncating to one output would audit a different mechanism."""
    from smoothsens_core.distributions import Gaussian  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    if len(P.a_vec) != len(Q.a_vec):
        raise TypeError(f"the two laws have {len(P.a_vec)} and {len(Q.a_vec)} outputs")
    if type(P.noise) is not Gaussian or type(Q.noise) is not Gaussian or P.s != Q.s:
        raise TypeError(f"the (eps, delta) audit of m = {P.m} outputs is joint: implemented for Gaussian noise with "
                        f"one scale at both inputs (rotation invariance); got {type(P.noise).__name__} with scales "
                        f"{P.s:g}, {Q.s:g}: refused, not truncated to one output")
    from flint import arb, ctx  # noqa: PLC0415 - python-flint is the optional 'proof' extra
    old = ctx.prec
    ctx.prec = 256
    try:
        norm = sum(((arb(u) - arb(v)) ** 2 for u, v in zip(P.a_vec, Q.a_vec, strict=True)), arb(0)).sqrt()
        shift = float(norm.mid())
    finally:
        ctx.prec = old
    return LocationScaleLaw(P.noise, shift, P.s, (shift,)), LocationScaleLaw(Q.noise, 0.0, Q.s, (0.0,)), norm


def _upper_tail_point(noise: Any, tail: float) -> float:
    """The smallest integer k with P(K > k) <= tail, from ``sf`` (ppf(1 - tail) rounds 1 - tail to 1)."""
    lo = float(noise.ppf(0.5))
    if not math.isfinite(lo):
        return lo
    step = 1.0
    while float(noise.sf(lo + step)) > tail:
        step *= 2.0
        if step > 2.0 * _MAX_WINDOW:
            return math.inf
    a, b = lo + step / 2.0, lo + step
    while b - a > 1.0:
        mid = math.floor((a + b) / 2.0)
        a, b = (mid, b) if float(noise.sf(mid)) > tail else (a, mid)
    return b


def _discrete_bad_set(P: LocationScaleLaw, Q: LocationScaleLaw, t: float) -> list[tuple[float, float]]:
    """Runs of integers k with ln p(k) - ln q(k) > t (p, q the pmfs of a + K, a2 + K), as intervals
    (k_lo - 1/2, k_hi + 1/2); a run touching the scanned window's edge is extended to +-inf."""
    lo = min(P.a, Q.a) + float(P.noise.ppf(_WINDOW_TAIL))
    hi = max(P.a, Q.a) + _upper_tail_point(P.noise, _WINDOW_TAIL)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"cannot bound the support of {P.noise!r} (ppf not finite)")
    lo, hi = math.floor(lo), math.ceil(hi)
    if hi - lo > _MAX_WINDOW:
        raise ValueError(f"the discrete law is too wide to scan ({hi - lo} support points > {_MAX_WINDOW})")
    k = np.arange(lo, hi + 1, dtype=float)
    with np.errstate(all="ignore"):
        lp = np.asarray(P.noise.logpmf(k - P.a), dtype=float)
        lq = np.asarray(Q.noise.logpmf(k - Q.a), dtype=float)
        L = np.where(lp == -np.inf, -np.inf, lp - lq)
    pos = L > t
    if not np.any(pos):
        return []
    d = np.diff(np.concatenate([[0], pos.astype(np.int8), [0]]))
    starts, ends = np.nonzero(d == 1)[0], np.nonzero(d == -1)[0] - 1
    out = []
    for s_, e_ in zip(starts, ends, strict=True):
        a_ = -math.inf if s_ == 0 else k[s_] - 0.5
        b_ = math.inf if e_ == k.size - 1 else k[e_] + 0.5
        out.append((a_, b_))
    return out


def _law_bad_set(P: LocationScaleLaw, Q: LocationScaleLaw, t: float) -> list[tuple[float, float]]:
    if P.discrete:
        return _discrete_bad_set(P, Q, t)
    return bad_set(P.noise, P.a, P.s, Q.a, Q.s, t)


def _pair_laws(mech: Any, x: Any, xp: Any) -> tuple[LocationScaleLaw, LocationScaleLaw]:
    """The two output laws of a pair, reduced to one output when m > 1 (:func:`_joint_to_scalar`)."""
    P, Q = location_scale_law(mech, x), location_scale_law(mech, xp)
    if P.m > 1 or Q.m > 1:
        P, Q, _ = _joint_to_scalar(P, Q)
    return P, Q


def pair_hockey_stick(mech: Any, x: Any, xp: Any, t: float) -> tuple[float, float, list[tuple[float, float]]]:
    """(delta_hs, bad_mass, S) in float for the pair (x, x') at threshold t = eps d:
    delta_hs = P_x(S) - e^t P_x'(S) over S = {L > t} (module docstring), bad_mass = P_x(S).  The binary64
    fast path: it proposes the worst pairs and the excess set; :func:`pair_hockey_stick_enclosure`
    decides.  For m > 1 outputs S lives on the line through f(x) - f(x') (:func:`_joint_to_scalar`)."""
    P, Q = _pair_laws(mech, x, xp)
    ivs = _law_bad_set(P, Q, t)
    if not ivs:
        return 0.0, 0.0, []
    lo = np.array([s for s, _ in ivs])
    hi = np.array([e for _, e in ivs])
    p = interval_mass(P.noise, (lo - P.a) / P.s, (hi - P.a) / P.s)
    q = interval_mass(Q.noise, (lo - Q.a) / Q.s, (hi - Q.a) / Q.s)
    return float(np.sum(p) - math.exp(t) * np.sum(q)), float(np.sum(p)), ivs


def pair_hockey_stick_mp(mech: Any, x: Any, xp: Any, t: Any, intervals: Iterable[tuple[float, float]],
                         dps: int = 50) -> Any:
    """P_x(S) - e^t P_x'(S) in mpmath over the explicit S = union of ``intervals`` (binary64 end points),
    with the noise's independent reference: a lower bound on the hockey-stick divergence."""
    P, Q = _pair_laws(mech, x, xp)
    if P.noise is not Q.noise and repr(P.noise) != repr(Q.noise):
        raise TypeError("the two output laws must share the noise")
    return hockey_stick_mp(P.noise, P.a, P.s, Q.a, Q.s, t, list(intervals), dps)


def _t_ball(eps: float, metric: str, x: Any, xp: Any) -> Any:
    """t = eps * dist(x, x') as an arb ball from the binary64 inputs (no rounding of the product)."""
    from flint import arb  # noqa: PLC0415 - python-flint is the optional 'proof' extra
    a = np.atleast_1d(np.asarray(x, dtype=float))
    b = np.atleast_1d(np.asarray(xp, dtype=float))
    if metric == "euclidean":
        d = sum(((arb(float(u)) - arb(float(v))) ** 2 for u, v in zip(a, b, strict=True)), arb(0)).sqrt()
    else:
        d = arb(int(np.sum(a != b)))
    return arb(float(eps)) * d


def pair_hockey_stick_enclosure(mech: Any, x: Any, xp: Any, eps: float, metric: str) -> Enclosure:
    """The certified enclosure [lower, upper] of delta_hs(x, x') = H_{e^(eps d)}(P_x || P_x')
    (:func:`verify.audit.exact.enclosure.hockey_stick_enclosure`) of a location-scale mechanism at one
    pair, t = eps * dist in ball arithmetic.  Not certified (``certified`` False, upper = inf, and why)
    for a law without a ball form (discrete laws, a family without one, a density known only pointwise);
    then ``lower`` is the mpmath value over the float excess set (a lower bound: any set S gives one).
    For m > 1 Gaussian outputs the exact norm ||f(x) - f(x')|| is bracketed by its two neighbouring
    binary64 numbers (delta_hs increases with the shift): lower end at the smaller, upper at the larger."""
    from flint import ctx  # noqa: PLC0415 - python-flint is the optional 'proof' extra
    try:
        P, Q = location_scale_law(mech, x), location_scale_law(mech, xp)
        norm = None
        if P.m > 1 or Q.m > 1:
            P, Q, norm = _joint_to_scalar(P, Q)
        old = ctx.prec
        ctx.prec = 256
        try:
            t = _t_ball(eps, metric, x, xp)
        finally:
            ctx.prec = old
        if P.discrete or Q.discrete:
            if P.s != 1.0 or Q.s != 1.0:
                raise TypeError(f"a law on the integers must have scale 1; got {P.s:g}, {Q.s:g}")
            return discrete_hockey_stick_enclosure(discrete_ball_law(P.noise, P.a), discrete_ball_law(Q.noise, Q.a), t)
        try:
            cands = [v for iv in _law_bad_set(P, Q, float(t.mid())) for v in iv if math.isfinite(v)]
        except (ValueError, ArithmeticError):
            cands = []
        if norm is None:
            return hockey_stick_enclosure(ball_law(P.noise, P.a, P.s), ball_law(Q.noise, Q.a, Q.s), t,
                                          candidates=cands)
        lo_shift = math.nextafter(float(norm.lower()), -math.inf)
        hi_shift = math.nextafter(float(norm.upper()), math.inf)
        e_lo = hockey_stick_enclosure(ball_law(P.noise, max(lo_shift, 0.0), P.s), ball_law(Q.noise, 0.0, Q.s), t,
                                      candidates=cands)
        e_hi = hockey_stick_enclosure(ball_law(P.noise, hi_shift, P.s), ball_law(Q.noise, 0.0, Q.s), t,
                                      candidates=cands)
        return dataclasses.replace(e_hi, lower=e_lo.lower, lower_str=e_lo.lower_str, excess=e_lo.excess,
                                   notes=e_hi.notes + (f"m = {len(location_scale_law(mech, x).a_vec)} Gaussian "
                                                       "outputs audited jointly (rotation to the line through "
                                                       "f(x) - f(x'))",))
    except TypeError as exc:
        reason = str(exc)
    lower, lower_str = 0.0, ""
    try:
        hs, _, ivs = pair_hockey_stick(mech, x, xp, eps * _dist(metric, x, xp))
        if ivs:
            with mpmath.workdps(50):
                v = pair_hockey_stick_mp(mech, x, xp, mpmath.mpf(eps) * _dist_mp(metric, x, xp), ivs, 50)
                lower_str = mpmath.nstr(v, 20)
                lower = max(0.0, float(v) * (1 - 1e-15) - 1e-300)
    except (TypeError, ValueError):
        pass
    return not_certified(reason, lower, lower_str)


def _dist(metric: str, x: Any, xp: Any) -> float:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    b = np.atleast_1d(np.asarray(xp, dtype=float))
    if metric == "euclidean":
        return float(np.linalg.norm(a - b))
    return float(np.sum(a != b))


def _dist_mp(metric: str, x: Any, xp: Any) -> Any:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    b = np.atleast_1d(np.asarray(xp, dtype=float))
    if metric == "euclidean":
        return mpmath.sqrt(mpmath.fsum((mpmath.mpf(float(s)) - mpmath.mpf(float(u))) ** 2 for s, u in zip(a, b, strict=True)))
    return mpmath.mpf(int(np.sum(a != b)))


def _scalar(v: Any) -> Any:
    a = np.atleast_1d(np.asarray(v, dtype=float))
    return float(a[0]) if a.size == 1 else a


def audit_density_mechanism_approx(mechanism: Any, neighbourhood: EuclideanNeighbourhood | HammingNeighbourhood,
                                   *, rng: np.random.Generator, n_pairs: int = 2000, n_local: int = 5,
                                   dps: int = 50) -> AuditResult:
    """The (eps, delta) audit of a concrete mechanism: maximise delta_hs(x, x') - delta over the
    neighbourhood (Hamming: every pair; Euclidean: random pairs, then local search over (x, x')), and
    certify the best pair's explicit set S in mpmath (module docstring).  Outcome "violated" only when
    the mpmath divergence over S exceeds delta; the witness and a note state delta_hs found vs claimed."""
    check_has_density(mechanism)
    eps, delta = float(mechanism.eps), float(getattr(mechanism, "delta", 0.0))
    metric = "hamming" if isinstance(neighbourhood, HammingNeighbourhood) else "euclidean"
    if isinstance(neighbourhood, HammingNeighbourhood):
        x, xp = neighbourhood.pairs()
    elif isinstance(neighbourhood, EuclideanNeighbourhood):
        n = max(int(n_pairs) // 8, 20)
        x, xp = neighbourhood.sample(n, rng)
    else:
        raise TypeError(f"neighbourhood must be Euclidean or Hamming; got {type(neighbourhood).__name__}")
    name = str(getattr(mechanism, "name", "") or type(mechanism).__name__)
    notes: list[str] = []
    try:
        _pair_laws(mechanism, _scalar(x[0]), _scalar(xp[0]))
        _check_declared_law(mechanism, _scalar(x[0]))
    except TypeError as exc:
        return _not_audited(name, eps, delta, dps, exc)
    except _Disagreement as exc:
        return _not_audited(name, eps, delta, dps, exc)
    cache: dict[tuple[Any, ...], tuple[float, float]] = {}

    def value(a: Any, b: Any) -> tuple[float, float]:
        dd = _dist(metric, a, b)
        if dd == 0:
            return -math.inf, 0.0
        P, Q = location_scale_law(mechanism, _scalar(a)), location_scale_law(mechanism, _scalar(b))
        key = (P.a_vec, P.s, Q.a_vec, Q.s, dd)
        if key not in cache:
            hs, bad, _ = pair_hockey_stick(mechanism, _scalar(a), _scalar(b), eps * dd)
            cache[key] = (hs, bad)
        return cache[key]

    vals = np.array([value(a, b)[0] for a, b in zip(x, xp, strict=True)])
    evals = len(vals)
    order = np.argsort(-vals)
    cands: list[tuple[float, Any, Any]] = [(float(vals[i]), x[i], xp[i]) for i in order[: max(1, n_local)]]
    if isinstance(neighbourhood, EuclideanNeighbourhood):
        nb, dim = neighbourhood, x.shape[1]
        refined = []
        for v0, a0, b0 in cands:
            def f1(v: FloatArray) -> float:
                a, b = v[:dim], v[dim:]
                dd = float(np.linalg.norm(a - b))
                if dd > nb.Lambda or dd == 0:
                    return -1e300
                return value(a, b)[0]

            vx, fx = local_max(f1, np.concatenate([a0, b0]), np.full(2 * dim, nb.low), np.full(2 * dim, nb.high),
                               maxfev=120)
            evals += 120
            refined.append((fx, vx[:dim], vx[dim:]) if fx > v0 else (v0, a0, b0))
        cands = refined
    cands.sort(key=lambda c: -c[0])
    best, a_best, b_best = cands[0]
    hs_best, bad_best = value(a_best, b_best)
    dd_best = _dist(metric, a_best, b_best)
    witness: dict[str, Any] = {"x": [float(t) for t in np.atleast_1d(a_best)],
                               "x_prime": [float(t) for t in np.atleast_1d(b_best)], "dist": dd_best,
                               "delta_hs": hs_best, "bad_mass": bad_best, "claimed_delta": delta}
    # The decision: the certified enclosure [lower, upper] of delta_hs at the best pairs the float search
    # found (the float values only rank the pairs).  FAIL iff a lower end > delta; PASS iff the upper end
    # at every re-evaluated pair is <= delta; INCONCLUSIVE otherwise (module docstring).
    outcome, cert = "pass", None
    for k, (fx, a_i, b_i) in enumerate(cands[:3]):
        if fx - delta <= -1e-12 and k > 0:
            break
        xa, xb = _scalar(a_i), _scalar(b_i)
        enc = pair_hockey_stick_enclosure(mechanism, xa, xb, eps, metric)
        if k == 0:
            witness["delta_hs_enclosure"] = [enc.lower_str or repr(enc.lower), enc.upper_str or repr(enc.upper)]
            witness["delta_hs_mp"] = enc.lower_str or repr(enc.lower)
            witness["enclosure_certified"] = enc.certified
        verdict = enc.decide(delta, float(cert_threshold(dps, 1)))
        if verdict == "violated":
            with mpmath.workdps(dps):
                cert = mpmath.nstr(mpmath.mpf(enc.lower_str or enc.lower) - mpmath.mpf(delta), 20)
            outcome = "violated"
            witness = {"x": [float(t) for t in np.atleast_1d(a_i)], "x_prime": [float(t) for t in np.atleast_1d(b_i)],
                       "dist": _dist(metric, a_i, b_i), "delta_hs": fx,
                       "delta_hs_enclosure": [enc.lower_str or repr(enc.lower), enc.upper_str or repr(enc.upper)],
                       "delta_hs_mp": enc.lower_str or repr(enc.lower), "enclosure_certified": enc.certified,
                       "claimed_delta": delta, "S": [[lo, hi] for lo, hi in enc.excess]}
            if not enc.certified:
                notes.append(f"lower end from mpmath at {dps} digits over an explicit set S ({enc.reason})")
            break
        if verdict == "inconclusive":
            outcome = "inconclusive"
            why = (f"delta_hs in [{enc.lower:.6g}, {enc.upper:.6g}] at x={_fmt_point(a_i)}, x'={_fmt_point(b_i)}: "
                   + (f"not certified ({enc.reason})" if not enc.certified else
                      f"the certified upper end exceeds the claimed delta = {delta:g}, the lower end does not "
                      "exceed it by more than the parameters' rounding"))
            notes.append(why)
    found = witness.get("delta_hs_enclosure")
    shown = f"[{found[0]}, {found[1]}]" if found else f"{hs_best:.6g}"
    notes.insert(0, f"delta_hs found = {shown} vs claimed delta = {delta:g} at eps = {eps:g}")
    return AuditResult(mechanism=name, eps=eps, delta=delta, max_slack=float(best - delta), witness=witness,
                       outcome=outcome, certified_slack=cert, evaluations=evals, dps=dps, mode="approx",
                       notes=tuple(notes))


class _Disagreement(Exception):
    """The mechanism's own log_density differs from the law it declares (noise, f, scale)."""


def _fmt_point(v: Any) -> str:
    a = np.atleast_1d(np.asarray(v, dtype=float))
    return f"{a[0]:.6g}" if a.size == 1 else "[" + ", ".join(f"{t:.4g}" for t in a) + "]"


def _check_declared_law(mechanism: Any, x: Any) -> None:
    """The audit judges the declared law a + s Z (noise, f, B/eta or scale); a mechanism whose own
    ``log_density`` is a different function would be audited as something it is not.  Compare at 9 outputs
    around f(x) (one output: m = 1 only; the core's own classes are built from the same law) and raise
    _Disagreement naming both numbers beyond 1e-9 (1 + |value|)."""
    inner = getattr(mechanism, "_mech", mechanism)
    if isinstance(inner, AdditiveNoiseMechanism) or type(inner).__name__ == "SmoothSensitivityMechanism":
        return
    P = location_scale_law(mechanism, x)
    if P.m != 1 or P.discrete:
        return
    ys = P.a + P.s * np.array([-8.0, -3.0, -1.0, -0.3, 0.0, 0.4, 1.2, 3.5, 9.0])
    with np.errstate(all="ignore"):
        own = np.asarray(inner.log_density(x, ys), dtype=float).reshape(-1)
        law = np.asarray(P.noise.logpdf((ys - P.a) / P.s), dtype=float) - math.log(P.s)
    if own.shape != law.shape:
        raise _Disagreement(f"log_density(x, y) returned {own.size} values for {ys.size} outputs y")
    bad = ~(np.abs(own - law) <= 1e-9 * (1 + np.abs(law)))
    if np.any(bad):
        i = int(np.argmax(bad))
        raise _Disagreement(f"the mechanism's log_density({x!r}, {ys[i]:.6g}) = {own[i]!r} differs from its declared "
                            f"law f(x) + s Z ({type(P.noise).__name__}, s = {P.s:g}): {law[i]!r}; the audit "
                            "would judge a different mechanism")


def _not_audited(name: str, eps: float, delta: float, dps: int, exc: Exception) -> AuditResult:
    """An (eps, delta) claim on a mechanism whose law has no location-scale form: nothing was searched,
    so the outcome is inconclusive (never a pass)."""
    return AuditResult(mechanism=name, eps=eps, delta=delta, max_slack=math.inf, witness={},
                       outcome="inconclusive", certified_slack=None, evaluations=0, dps=dps, mode="approx",
                       notes=(f"(eps, delta) not audited: {exc}",))


@dataclass(frozen=True)
class PrivacyCurve:
    """delta(eps) = max over the given pairs of the hockey-stick divergence at eps * dist (float, exact
    tail functions), the worst pair per eps, and the mpmath value at the claimed eps.

    ``certified_violation``: the mpmath divergence over the worst pair's explicit set at the claimed eps
    exceeds the claimed delta (a certificate); ``delta_at_claimed_mp`` that value (20 digits)."""

    eps: tuple[float, ...]
    delta: tuple[float, ...]
    worst_pairs: tuple[tuple[Any, Any], ...]
    claimed_eps: float
    claimed_delta: float
    delta_at_claimed: float
    delta_at_claimed_mp: str | None
    worst_pair_at_claimed: tuple[Any, Any]
    certified_violation: bool
    dps: int
    source: str = "exact"
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: the certified enclosure [lower, upper] of delta(claimed eps) at the worst pair (decimal strings), and
    #: whether it is certified (ball arithmetic); the verdict reads it (pass iff upper <= claimed delta)
    enclosure_at_claimed: tuple[str, str] | None = None
    enclosure_certified: bool = False

    def to_json(self) -> dict[str, Any]:
        return jsonable({"eps": list(self.eps), "delta": list(self.delta),
                         "worst_pairs": [list(p) for p in self.worst_pairs], "claimed_eps": self.claimed_eps,
                         "claimed_delta": self.claimed_delta, "delta_at_claimed": self.delta_at_claimed,
                         "delta_at_claimed_mp": self.delta_at_claimed_mp,
                         "worst_pair_at_claimed": list(self.worst_pair_at_claimed),
                         "certified_violation": self.certified_violation, "dps": self.dps, "source": self.source,
                         "enclosure_at_claimed": list(self.enclosure_at_claimed or ()),
                         "enclosure_certified": self.enclosure_certified, "notes": list(self.notes)})

    def summary(self) -> str:
        if self.enclosure_at_claimed:
            lo, hi = self.enclosure_at_claimed
            mp = f" (enclosure [{lo[:12]}, {hi[:12]}]{'' if self.enclosure_certified else ', not certified'})"
        else:
            mp = f" (mpmath {self.delta_at_claimed_mp[:12]})" if self.delta_at_claimed_mp else ""
        within = (self.enclosure_certified and self.enclosure_at_claimed is not None
                  and float(self.enclosure_at_claimed[1]) <= self.claimed_delta)
        verdict = "certified violation" if self.certified_violation else (
            "within the claim (certified upper end)" if within else "INCONCLUSIVE: not certified within the claim")
        return (f"privacy curve over {len(self.eps)} eps values: delta({self.claimed_eps:g}) = "
                f"{self.delta_at_claimed:.6g}{mp} vs claimed delta = {self.claimed_delta:g}: {verdict}")


def privacy_curve(mech: Any, pairs: Sequence[tuple[Any, Any]], eps_grid: Sequence[float], *,
                  dps: int = 50, metric: str | None = None) -> PrivacyCurve:
    """The exact privacy curve of ``mech`` over the neighbour ``pairs``: for each eps of ``eps_grid``,
    max over pairs of H_{e^(eps d)}(P_x || P_x') (module docstring), with the worst pair; at the
    claimed eps (``mech.eps``) the worst pair's divergence is recomputed in mpmath over its explicit set
    (a certificate when it exceeds ``mech.delta``).  ``metric`` defaults to ``mech.metric``."""
    check_has_density(mech)
    pair_list = [tuple(p) for p in pairs]
    if not pair_list:
        raise ValueError("pairs must list at least one pair (x, x')")
    grid = sorted(float(check_positive("eps_grid", e)) for e in eps_grid)
    if not grid:
        raise ValueError("eps_grid must be non-empty")
    met: str = metric or str(getattr(mech, "metric", "hamming"))
    dists = [_dist(met, a, b) for a, b in pair_list]
    if min(dists) <= 0:
        raise ValueError("every pair must have dist(x, x') > 0")
    deltas, worst = [], []
    for e in grid:
        vals = [pair_hockey_stick(mech, a, b, e * d)[0] for (a, b), d in zip(pair_list, dists, strict=True)]
        j = int(np.argmax(vals))
        deltas.append(max(float(vals[j]), 0.0))
        worst.append(pair_list[j])
    eps0, delta0 = float(mech.eps), float(getattr(mech, "delta", 0.0))
    vals0 = [pair_hockey_stick(mech, a, b, eps0 * d) for (a, b), d in zip(pair_list, dists, strict=True)]
    j0 = int(np.argmax([v[0] for v in vals0]))
    a0, b0 = pair_list[j0]
    notes: list[str] = []
    enc = pair_hockey_stick_enclosure(mech, a0, b0, eps0, met)
    mp_str = enc.lower_str or (mpmath.nstr(mpmath.mpf(enc.lower), 20) if enc.lower else None)
    certified = enc.decide(delta0, float(cert_threshold(dps, 1))) == "violated"
    if not enc.certified:
        notes.append(f"delta at the claimed eps not certified: {enc.reason}")
    return PrivacyCurve(tuple(grid), tuple(deltas), tuple(worst), eps0, delta0, max(vals0[j0][0], 0.0), mp_str,
                        (a0, b0), certified, dps, notes=tuple(notes),
                        enclosure_at_claimed=(enc.lower_str or repr(enc.lower), enc.upper_str or repr(enc.upper)),
                        enclosure_certified=enc.certified)


def gaussian_delta_balle_wang(eps: Any, sigma: Any, sensitivity: Any = 1, dps: int = 50) -> Any:
    """delta(eps) of the Gaussian mechanism f(x) + sigma Z, l2 sensitivity Delta (Balle & Wang 2018,
    Thm. 8): Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta),
    Phi(u) = erfc(-u/sqrt 2)/2, in mpmath at ``dps`` digits."""
    with mpmath.workdps(dps):
        e, s, D = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(sensitivity)
        Phi = lambda u: mpmath.erfc(-u / mpmath.sqrt(2)) / 2  # noqa: E731
        return Phi(D / (2 * s) - e * s / D) - mpmath.exp(e) * Phi(-D / (2 * s) - e * s / D)
