"""Certified privacy curves delta(eps) of single additive-noise mechanisms, and eps(delta) by inversion.

A :class:`PrivacyCurve` is a small frozen object (the design of dp-accounting's mechanism events): a noise
family, its scale, and the sensitivity Delta (the distance between the two neighbouring outputs).  Its
privacy curve is the hockey-stick divergence of the worst-case pair

    delta(eps) = max(H_eps(P || Q), H_eps(Q || P)),   H_eps(P || Q) = integral (p - e^eps q)_+   (004 Def. 5),

P = scale * Z, Q = Delta + (scale * ratio) * Z, returned as an :class:`~verify.audit.exact.enclosure.Enclosure`
[lower, upper] whose ends are rigorous (python-flint ``arb`` ball arithmetic, rounded outwards).

Why this pair is the worst one:

* Gaussian, Laplace, discrete Laplace (two-sided geometric): the noise density is symmetric and
  log-concave, so the privacy loss of a pure shift is monotone in the output and the hockey-stick divergence
  of two shifted copies increases with the shift; over all neighbours with |f(x) - f(x')| <= Delta the
  largest is the shift by Delta (for the Gaussian the curve of Balle & Wang 2018, Thm. 8, is stated for it;
  dp-accounting's Laplace and discrete Laplace PLDs use the same pair).  By the reflection y -> Delta - y the
  two directions are equal, so H_eps(P || Q) is computed once.
* GenCauchy, Student t (004 Sec. 2.1) and PolyPlace (002 Def. 6): the noise families of the smooth-sensitivity
  mechanisms.
  The pair a smooth-sensitivity mechanism meets is a shift by the distance d together with a dilation of the
  scale (B(x) != B(x')); it is taken here as the *declared* pair (shift ``sensitivity``, scale ratio
  ``ratio``), not derived: whether it is the worst pair of a given mechanism is that mechanism's claim.  Both
  directions are computed (the pair is not symmetric when ratio != 1) and the maximum taken.

Closed forms (evaluated in arb, so the ends are rigorous):

* Gaussian, mu = Delta/sigma (Balle & Wang 2018, Thm. 8):
  delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu).
* Laplace with scale b, a = Delta/b: the loss ln p(y) - ln q(y) = (|y - Delta| - |y|)/b equals a for y <= 0,
  (Delta - 2y)/b on (0, Delta) and -a for y >= Delta; for 0 <= eps < a the excess set is y < y* = (Delta - eps b)/2
  and P(Y < y*) - e^eps Q(Y < y*) = 1 - e^(-(a - eps)/2)/2 - e^eps e^(-(a + eps)/2)/2, so
  delta(eps) = (1 - e^((eps - a)/2))_+ for every eps >= 0 (0 from eps = a on).
* Discrete Laplace P(K = k) = (1 - r)/(1 + r) r^|k|, r = e^(-1/b), integer Delta >= 1: the loss
  (|k - Delta| - |k|)/b is non-increasing in k, so the excess set is {k <= m*}, m* the largest integer with
  k < x = (Delta - eps b)/2, and for 0 <= m <= Delta - 1
  f(m) = P(K <= m) - e^eps Q(K <= m) = 1 - r^(m+1)/(1 + r) - e^eps r^(Delta - m)/(1 + r);
  delta(eps) = max(0, f(m*)).  Every f(m) is a lower bound (any set is), so the candidates m around the ball
  of x give max(0, max f) as an enclosure without deciding m* exactly.

GenCauchy, Student t and PolyPlace use :func:`verify.audit.exact.enclosure.hockey_stick_enclosure` (certified root
isolation of the loss in ball arithmetic, masses from the families' regularised incomplete beta tails).

The Bun & Steinke families (2019, "Average-case averages"): uniform log-normal Z = U e^(sigma Y) and arsinh-normal
Z = sinh(sigma Y)/sigma use the same route with the ball laws of :mod:`verify.accounting.bs19_curves` (closed-form
densities and tails in erfc), over the declared pair P = scale Z, Q = Delta + (scale ratio) Z, both directions.  The
Laplace log-normal Z = X e^(sigma Y) has no certified ball form: its curve is "not certified" ([0, inf], with
the reason), never a number.

:meth:`PrivacyCurve.epsilon` inverts the curve: eps(delta) = inf{eps >= 0 : delta(eps) <= delta} lies in
[eps_lo, eps_hi] with delta_upper(eps_hi) <= delta (so the mechanism is (eps_hi, delta)-DP, certified) and
delta_lower(eps) > delta for every eps <= eps_lo (certified by delta_lower(eps_lo) > delta and the monotonicity
of delta(eps)), found by bisection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.validation import check_integer, check_positive, check_real
from verify.audit.exact.enclosure import Enclosure, hockey_stick_enclosure

from .ballforms import output_law

__all__ = ["PrivacyCurve", "EpsilonInterval", "FAMILIES", "invert_delta", "enclosure_from_ball", "fmt_bound",
           "gaussian_delta_ball", "laplace_delta_ball", "discrete_laplace_delta_ball"]

#: Family names accepted by :class:`PrivacyCurve` (and ``smoothsens account --mechanism``).
FAMILIES = ("gaussian", "laplace", "discrete_laplace", "gencauchy", "student_t", "polyplace", "uniform_lognormal",
            "arsinh_normal", "laplace_lognormal")
_CLOSED = ("gaussian", "laplace", "discrete_laplace")
_SHAPES = {"gaussian": (), "laplace": (), "discrete_laplace": (), "gencauchy": ("p", "theta"), "student_t": ("nu",),
           "polyplace": ("alpha",), "uniform_lognormal": ("sigma",), "arsinh_normal": ("sigma",),
           "laplace_lognormal": ("sigma",)}
_BS19 = ("uniform_lognormal", "arsinh_normal", "laplace_lognormal")
_START_PREC = 128        # bits; doubled while the ball is wider than 1e-24 of its value
_MAX_PREC = 4096


def _arb() -> Any:
    from flint import arb  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    return arb


def fmt_bound(x: float, up: bool, digits: int = 12) -> str:
    """``x`` in decimal with ``digits`` significant digits, rounded up (``up``) or down, so that a printed
    upper end is never below the binary64 bound and a printed lower end never above it."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal  # noqa: PLC0415 - only for printing

    if not math.isfinite(x) or x == 0:
        return repr(x) if not math.isfinite(x) else "0"
    d = Decimal(x)
    q = Decimal(1).scaleb(d.adjusted() - digits + 1)
    r = d.quantize(q, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return f"{r:E}" if abs(d.adjusted()) > 4 else f"{r:f}"


def _round_down(x: Any) -> float:
    """The lower end of a ball as binary64, rounded down (unchanged when it is exactly representable)."""
    e = x.lower()
    v = float(e)
    if not math.isfinite(v) or _arb()(v) == e:
        return v
    return math.nextafter(v, -math.inf)


def _round_up(x: Any) -> float:
    """The upper end of a ball as binary64, rounded up (unchanged when it is exactly representable)."""
    e = x.upper()
    v = float(e)
    if not math.isfinite(v) or _arb()(v) == e:
        return v
    return math.nextafter(v, math.inf)


def enclosure_from_ball(ball: Any, note: str = "") -> Enclosure:
    """An :class:`Enclosure` [max(0, lower), max(0, upper)] of max(0, x) for an arb ball x, rounded outwards."""
    lo = max(0.0, _round_down(ball))
    hi = max(0.0, _round_up(ball))
    return Enclosure(lower=lo, upper=hi, certified=True, lower_str=f"{lo:.17g}", upper_str=f"{hi:.17g}",
                     notes=(note,) if note else ())


def _with_prec(fn: Callable[[], Any], rel: float = 1e-24) -> Any:
    """Evaluate ``fn`` (an arb expression) at increasing precision until the ball's radius is <= ``rel`` times
    its magnitude (or the ball is exactly 0, or the precision cap is reached); the last ball is returned
    (always a valid enclosure, only its width depends on the precision)."""
    from flint import ctx  # noqa: PLC0415 - optional 'proof' extra

    old = ctx.prec
    prec = _START_PREC
    try:
        while True:
            ctx.prec = prec
            x = fn()
            if x.is_finite() and (x.rad() == 0 or float(x.rad()) <= rel * abs(float(x.mid()))):
                return x
            if prec >= _MAX_PREC:
                return x
            prec *= 2
    finally:
        ctx.prec = old


def gaussian_delta_ball(eps: float, sigma: float, sensitivity: float) -> Any:
    """Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = Delta/sigma (Balle & Wang 2018, Thm. 8), as an arb
    ball; Phi(u) = erfc(-u/sqrt 2)/2."""
    arb = _arb()

    def f() -> Any:
        mu = arb(sensitivity) / arb(sigma)
        e = arb(eps)
        s2 = arb(2).sqrt()
        u1 = mu / 2 - e / mu
        u2 = -mu / 2 - e / mu
        return (-u1 / s2).erfc() / 2 - e.exp() * (-u2 / s2).erfc() / 2

    return _with_prec(f)


def laplace_delta_ball(eps: float, b: float, sensitivity: float) -> Any:
    """1 - e^((eps - a)/2), a = Delta/b (module docstring; delta = its positive part), as an arb ball."""
    arb = _arb()
    return _with_prec(lambda: -((arb(eps) - arb(sensitivity) / arb(b)) / 2).expm1())


def discrete_laplace_delta_ball(eps: float, b: float, sensitivity: int) -> Any:
    """max over the candidate excess sets {k <= m} of 1 - r^(m+1)/(1 + r) - e^eps r^(Delta - m)/(1 + r),
    r = e^(-1/b) (module docstring), as an arb ball (its positive part is delta(eps)); the candidates m are the
    integers within one of the ball x = (Delta - eps b)/2, clipped to [0, Delta - 1]; no candidate: exactly 0."""
    arb = _arb()
    D = int(sensitivity)

    def f() -> Any:
        x = (arb(D) - arb(eps) * arb(b)) / 2
        m_lo = max(0, math.floor(float(x.lower())) - 1)
        m_hi = min(D - 1, math.ceil(float(x.upper())))
        lr = -1 / arb(b)
        r = lr.exp()
        et = arb(eps).exp()
        best = arb(0)
        for m in range(m_lo, m_hi + 1):
            val = 1 - (arb(m + 1) * lr).exp() / (1 + r) - et * (arb(D - m) * lr).exp() / (1 + r)
            best = _ball_max(best, val)
        return best

    return _with_prec(f)


def _outward(end: Any, direction: float) -> float:
    """The arb number ``end`` (a ball end) as binary64 moved one step towards ``direction``: an outward rounding
    valid whether or not the conversion was exact; an end that is exactly 0 stays 0, a nonzero end that
    converts to 0 becomes the smallest subnormal on its side; infinities are unchanged."""
    v = float(end)
    if not math.isfinite(v):
        return v
    if v == 0.0 and end == 0:
        return 0.0
    return math.nextafter(v, direction)


def _discrete_laplace_ball(eps: float, b: float, sensitivity: float) -> Any:
    return discrete_laplace_delta_ball(eps, b, int(sensitivity))


#: family -> its closed-form delta ball (eps, scale, sensitivity) (used by PrivacyCurve.deltas)
_CLOSED_BALLS: dict[str, Callable[[float, float, float], Any]] = {
    "gaussian": lambda e, s, d: gaussian_delta_ball(e, s, d),
    "laplace": lambda e, s, d: laplace_delta_ball(e, s, d),
    "discrete_laplace": _discrete_laplace_ball,
}


def _ball_max(x: Any, y: Any) -> Any:
    """An arb ball enclosing max(x, y) for all values of the two balls: [max(lo), max(hi)]."""
    arb = _arb()
    lo = x.lower() if x.lower() >= y.lower() else y.lower()
    hi = x.upper() if x.upper() >= y.upper() else y.upper()
    return arb(lo).union(arb(hi))


@dataclass(frozen=True)
class EpsilonInterval:
    """eps(delta) = inf{eps >= 0 : delta(eps) <= delta} in [lower, upper].

    ``upper``: delta_upper(upper) <= delta, so the mechanism is (upper, delta)-DP (certified); inf when no
    such eps was found (``certified`` False, ``reason`` says why).  ``lower``: delta_lower(eps) > delta for
    every eps <= lower (0 when nothing above 0 is certified)."""

    lower: float
    upper: float
    delta: float
    certified: bool = True
    reason: str = ""
    evaluations: int = 0

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def describe(self) -> str:
        c = "certified" if self.certified else f"NOT certified ({self.reason})"
        return f"eps({self.delta:g}) in [{fmt_bound(self.lower, False)}, {fmt_bound(self.upper, True)}] ({c})"


def invert_delta(delta_fn: Callable[[float], Enclosure], delta: float, *, rtol: float = 1e-9,
                 eps_max: float = 1e4, max_iter: int = 200) -> EpsilonInterval:
    """[eps_lo, eps_hi] around eps(delta) for a non-increasing curve given by enclosures ``delta_fn(eps)``
    (module docstring): a point with certified upper end <= ``delta`` is found by doubling from 1 (up to
    ``eps_max``), then both ends are bisected until their bracket is <= ``rtol`` * max(1, eps)."""
    delta = float(check_real("delta", delta))
    if not 0.0 <= delta < 1.0:
        raise ValueError(f"delta must be in [0, 1); got delta={delta!r}")
    n = 0

    def up(e: float) -> float:
        nonlocal n
        n += 1
        enc = delta_fn(e)
        return enc.upper if enc.certified else math.inf

    def low(e: float) -> float:
        nonlocal n
        n += 1
        return delta_fn(e).lower

    # eps_hi: bracket [bad, good] with up(bad) > delta >= up(good)
    if up(0.0) <= delta:
        good, bad = 0.0, None
    else:
        bad, good_opt = 0.0, None
        e = 1.0
        while e <= eps_max:
            if up(e) <= delta:
                good_opt = e
                break
            bad = e
            e *= 2.0
        if good_opt is None:
            return EpsilonInterval(lower=0.0, upper=math.inf, delta=delta, certified=False,
                                   reason=f"no eps <= {eps_max:g} has a certified delta_upper <= {delta:g}",
                                   evaluations=n)
        good = good_opt
    if bad is not None:
        for _ in range(max_iter):
            if good - bad <= rtol * max(1.0, good):
                break
            mid = 0.5 * (bad + good)
            if up(mid) <= delta:
                good = mid
            else:
                bad = mid
    eps_hi = good
    # eps_lo: bracket [ok, no] with low(ok) > delta >= low(no); low(eps_hi) <= up(eps_hi) <= delta
    if low(0.0) <= delta:
        eps_lo = 0.0
    else:
        ok, no = 0.0, eps_hi
        for _ in range(max_iter):
            if no - ok <= rtol * max(1.0, no):
                break
            mid = 0.5 * (ok + no)
            if low(mid) > delta:
                ok = mid
            else:
                no = mid
        eps_lo = ok
    return EpsilonInterval(lower=eps_lo, upper=eps_hi, delta=delta, evaluations=n)


def _check_eps(eps: Any) -> float:
    e = check_real("eps", eps)
    if not e >= 0:
        raise ValueError(f"eps must be in [0, inf); got eps={e!r}")
    return e


@dataclass(frozen=True)
class PrivacyCurve:
    """The privacy curve of one additive-noise mechanism over its worst-case (or declared) pair (module
    docstring).  Build with :meth:`gaussian`, :meth:`laplace`, :meth:`discrete_laplace`, :meth:`gencauchy`,
    :meth:`student_t`, :meth:`polyplace`, :meth:`uniform_lognormal`, :meth:`arsinh_normal`, :meth:`laplace_lognormal`,
    :meth:`from_calibration` or :meth:`parse`; ``delta(eps)`` returns an Enclosure, ``epsilon(delta)`` an
    :class:`EpsilonInterval`; :func:`verify.accounting.pld.compose` composes curves.

    ``family``  one of :data:`FAMILIES`; ``scale``  sigma (Gaussian), b (Laplace; discrete Laplace with
    P(k) proportional to e^(-|k|/b)) or the scale of GenCauchy/Student t; ``sensitivity``  the shift Delta
    (an integer >= 1 for the discrete Laplace); ``shape``  (name, value) pairs: p, theta (GenCauchy), nu
    (Student t), alpha (PolyPlace); ``ratio``  the scale of the second law over the first (GenCauchy, Student t,
    PolyPlace and the Bun & Steinke families only); ``sigma`` is the Bun & Steinke shape."""

    family: str
    scale: float
    sensitivity: float = 1.0
    shape: tuple[tuple[str, float], ...] = field(default_factory=tuple)
    ratio: float = 1.0

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"family must be one of {', '.join(FAMILIES)}; got family={self.family!r}")
        object.__setattr__(self, "scale", check_positive("scale", self.scale))
        if self.family == "discrete_laplace":
            object.__setattr__(self, "sensitivity", float(check_integer("sensitivity", self.sensitivity,
                                                                        minimum=1)))
        else:
            object.__setattr__(self, "sensitivity", check_positive("sensitivity", self.sensitivity))
        object.__setattr__(self, "ratio", check_positive("ratio", self.ratio))
        if self.ratio != 1.0 and self.family in _CLOSED:
            raise ValueError(f"ratio must be 1 for the {self.family} family (a pure shift); got ratio={self.ratio!r}")
        want = _SHAPES[self.family]
        got = dict(self.shape)
        if set(got) != set(want):
            raise ValueError(f"the {self.family} family needs the shape parameters {list(want)}; got {sorted(got)}")
        shape = tuple((k, check_positive(k, got[k])) for k in want)
        object.__setattr__(self, "shape", shape)
        self.noise()  # the core's own checks (p*theta > 1, ...)

    # constructors -------------------------------------------------------------------------------------
    @classmethod
    def gaussian(cls, sigma: float, sensitivity: float = 1.0) -> PrivacyCurve:
        """The Gaussian mechanism f(x) + sigma Z, |f(x) - f(x')| <= sensitivity."""
        return cls("gaussian", sigma, sensitivity)

    @classmethod
    def laplace(cls, b: float, sensitivity: float = 1.0) -> PrivacyCurve:
        """The Laplace mechanism f(x) + b Z, Z with density e^(-|z|)/2."""
        return cls("laplace", b, sensitivity)

    @classmethod
    def discrete_laplace(cls, b: float, sensitivity: int = 1) -> PrivacyCurve:
        """The discrete Laplace (two-sided geometric) mechanism, P(K = k) proportional to e^(-|k|/b)."""
        return cls("discrete_laplace", b, sensitivity)

    @classmethod
    def gencauchy(cls, p: float, theta: float, scale: float, sensitivity: float = 1.0,
                  ratio: float = 1.0) -> PrivacyCurve:
        """GenCauchy(p, theta) noise of scale ``scale`` (004 Sec. 2.1), the declared pair shift/ratio."""
        return cls("gencauchy", scale, sensitivity, (("p", p), ("theta", theta)), ratio)

    @classmethod
    def student_t(cls, nu: float, scale: float, sensitivity: float = 1.0, ratio: float = 1.0) -> PrivacyCurve:
        """Student's t(nu) noise of scale ``scale`` (004 Sec. 2.1), the declared pair shift/ratio."""
        return cls("student_t", scale, sensitivity, (("nu", nu),), ratio)

    @classmethod
    def polyplace(cls, alpha: float, scale: float, sensitivity: float = 1.0, ratio: float = 1.0) -> PrivacyCurve:
        """PolyPlace(scale, alpha) noise (002 Def. 6), the declared pair shift/ratio.  The mechanism of 002 Thm. 8,
        q(x) + PolyPlace(SS(x)/gamma, eps/gamma), meets the pair scale = SS(x)/gamma, alpha = eps/gamma, shift
        |q(x) - q(x')| <= SS(x) and ratio SS(x')/SS(x) in [e^-gamma, e^gamma] (that this pair is the worst one is
        the mechanism's claim, not derived here)."""
        return cls("polyplace", scale, sensitivity, (("alpha", alpha),), ratio)

    @classmethod
    def from_calibration(cls, calibration: Any, distance: float = 1.0) -> PrivacyCurve:
        """The declared pair of a calibrated smooth-sensitivity mechanism M(x) = f(x) + (B(x)/eta) Z
        (:class:`smoothsens_core.calibration.Calibration` of the Student t, GenCauchy or PolyPlace family) for
        neighbours at distance ``distance``, in units of B(x) = 1: P = (1/eta) Z, Q = d + (e^(gamma d)/eta) Z, i.e.
        the shift |f(x) - f(x')| = d B(x) and the largest scale ratio B(x')/B(x) = e^(gamma d) that g_E allows
        (004 Def. 8).  Both orientations are covered (:meth:`delta` takes the larger; the PLD dominates both).
        That this pair is the worst one of the mechanism is an assumption stated here, not derived."""
        d = check_positive("distance", distance)
        fam = getattr(calibration, "family", None)
        if fam not in ("student_t", "gencauchy", "polyplace") or getattr(calibration, "growth", "") != "g_E":
            raise ValueError("calibration must be a g_E Student t, GenCauchy or PolyPlace calibration "
                             f"(smoothsens_core.calibration); got family={fam!r}")
        noise = calibration.noise
        eta = float(calibration.eta)
        scale = float(noise.scale) / eta
        ratio = math.exp(float(calibration.gamma) * d)
        if fam == "student_t":
            return cls.student_t(float(noise.nu), scale, d, ratio)
        if fam == "gencauchy":
            return cls.gencauchy(float(noise.p), float(noise.theta), scale, d, ratio)
        return cls.polyplace(float(noise.alpha), scale, d, ratio)

    @classmethod
    def uniform_lognormal(cls, sigma: float, scale: float, sensitivity: float = 1.0,
                          ratio: float = 1.0) -> PrivacyCurve:
        """Uniform log-normal noise scale * U e^(sigma Y) (Bun & Steinke 2019), the declared pair shift/ratio
        (that the pair is the worst one of a mechanism is that mechanism's claim, not derived here)."""
        return cls("uniform_lognormal", scale, sensitivity, (("sigma", sigma),), ratio)

    @classmethod
    def arsinh_normal(cls, sigma: float, scale: float, sensitivity: float = 1.0, ratio: float = 1.0) -> PrivacyCurve:
        """Arsinh-normal noise scale * sinh(sigma Y)/sigma (Bun & Steinke 2019), the declared pair shift/ratio."""
        return cls("arsinh_normal", scale, sensitivity, (("sigma", sigma),), ratio)

    @classmethod
    def laplace_lognormal(cls, sigma: float, scale: float, sensitivity: float = 1.0,
                          ratio: float = 1.0) -> PrivacyCurve:
        """Laplace log-normal noise scale * X e^(sigma Y) (Bun & Steinke 2019), the declared pair; its
        :meth:`delta` is "not certified" (module docstring)."""
        return cls("laplace_lognormal", scale, sensitivity, (("sigma", sigma),), ratio)

    @classmethod
    def parse(cls, spec: str) -> PrivacyCurve:
        """From ``family:key=value,...``, e.g. ``gaussian:sigma=2,sensitivity=1``, ``laplace:b=1``,
        ``discrete_laplace:b=2,sensitivity=3``, ``gencauchy:p=4,theta=1,scale=1``, ``student_t:nu=3,scale=1``,
        ``polyplace:alpha=3,scale=1``, ``uniform_lognormal:sigma=1,scale=2``, ``arsinh_normal:sigma=1,scale=2``
        (``scale`` may be written sigma or b, except for the Bun & Steinke families uniform_lognormal,
        arsinh_normal and laplace_lognormal, whose shape is sigma; ``sensitivity`` defaults to 1, ``ratio`` to 1)."""
        if not isinstance(spec, str) or not spec.strip():
            raise ValueError(f"mechanism must be 'family:key=value,...'; got {spec!r}")
        fam, _, rest = spec.strip().partition(":")
        fam = fam.strip().lower().replace("-", "_")
        aliases = {"gauss": "gaussian", "normal": "gaussian", "lap": "laplace", "geometric": "discrete_laplace",
                   "dlaplace": "discrete_laplace", "t": "student_t", "studentt": "student_t",
                   "uln": "uniform_lognormal", "lln": "laplace_lognormal", "arsinh": "arsinh_normal"}
        fam = aliases.get(fam, fam)
        if fam not in FAMILIES:
            raise ValueError(f"mechanism family must be one of {', '.join(FAMILIES)}; got {fam!r}")
        kv: dict[str, float] = {}
        for item in filter(None, (s.strip() for s in rest.split(","))):
            k, eq, v = item.partition("=")
            if not eq:
                raise ValueError(f"mechanism parameter must be key=value; got {item!r} in {spec!r}")
            k = k.strip().lower()
            names = {"b": "scale", "delta_f": "sensitivity", "sens": "sensitivity"}
            if fam not in _BS19:
                names["sigma"] = "scale"
            k = names.get(k, k)
            try:
                kv[k] = float(v)
            except ValueError:
                raise ValueError(f"mechanism parameter {k} must be a number; got {v.strip()!r}") from None
        allowed = {"scale", "sensitivity", "ratio", *_SHAPES[fam]}
        extra = set(kv) - allowed
        if extra:
            raise ValueError(f"unknown parameter(s) {sorted(extra)} for {fam} (allowed: {sorted(allowed)})")
        if "scale" not in kv:
            names_ = "b= or scale=" if fam in _BS19 else "sigma=, b= or scale="
            raise ValueError(f"mechanism {fam} needs its scale ({names_}) in {spec!r}")
        sens: float = kv.get("sensitivity", 1.0)
        if fam == "discrete_laplace":
            sens = check_integer("sensitivity", sens, minimum=1)
        shape = tuple((k, kv[k]) for k in _SHAPES[fam] if k in kv)
        return cls(fam, kv["scale"], sens, shape, kv.get("ratio", 1.0))

    # the laws -----------------------------------------------------------------------------------------
    def noise(self) -> Any:
        """The core noise object of scale ``scale`` (smoothsens_core.distributions)."""
        from smoothsens_core.distributions import (  # noqa: PLC0415 - light, kept local to the factory
            Gaussian,
            GenCauchy,
            Laplace,
            PolyPlace,
            StudentT,
            TwoSidedGeometric,
        )

        sh = dict(self.shape)
        if self.family == "gaussian":
            return Gaussian(scale=self.scale)
        if self.family == "laplace":
            return Laplace(scale=self.scale)
        if self.family == "discrete_laplace":
            return TwoSidedGeometric(eps=1.0, sensitivity=self.scale)
        if self.family == "gencauchy":
            return GenCauchy(sh["p"], sh["theta"], scale=self.scale)
        if self.family == "polyplace":
            return PolyPlace(self.scale, sh["alpha"])
        if self.family in _BS19:
            from smoothsens_core.distributions import (  # noqa: PLC0415 - light, kept local to the factory
                ArsinhNormal,
                LaplaceLogNormal,
                UniformLogNormal,
            )

            kinds = {"uniform_lognormal": UniformLogNormal, "arsinh_normal": ArsinhNormal,
                     "laplace_lognormal": LaplaceLogNormal}
            return kinds[self.family](sh["sigma"], scale=self.scale)
        return StudentT(sh["nu"], scale=self.scale)

    @property
    def max_loss(self) -> float:
        """sup of the privacy loss: Delta/b (Laplace, discrete Laplace; delta(eps) = 0 beyond), inf (Gaussian),
        nan for the generic families (not computed)."""
        if self.family in ("laplace", "discrete_laplace"):
            return self.sensitivity / self.scale
        if self.family == "gaussian":
            return math.inf
        return math.nan

    def label(self) -> str:
        """``family:scale=...,sensitivity=...`` (round-trips through :meth:`parse`)."""
        parts = [f"scale={self.scale!r}", f"sensitivity={self.sensitivity!r}"]
        parts += [f"{k}={v!r}" for k, v in self.shape]
        if self.ratio != 1.0:
            parts.append(f"ratio={self.ratio!r}")
        return f"{self.family}:{','.join(parts)}"

    # the curve ----------------------------------------------------------------------------------------
    def delta(self, eps: float) -> Enclosure:
        """The enclosure [lower, upper] of delta(eps) (module docstring), eps >= 0."""
        e = _check_eps(eps)
        if self.family == "gaussian":
            return enclosure_from_ball(gaussian_delta_ball(e, self.scale, self.sensitivity),
                                       "closed form, Balle & Wang 2018 Thm. 8")
        if self.family == "laplace":
            return enclosure_from_ball(laplace_delta_ball(e, self.scale, self.sensitivity),
                                       "closed form (1 - e^((eps - Delta/b)/2))_+")
        if self.family == "discrete_laplace":
            return enclosure_from_ball(discrete_laplace_delta_ball(e, self.scale, int(self.sensitivity)),
                                       "closed form over the excess sets {k <= m}")
        return self._generic_delta(e)

    def _generic_delta(self, eps: float) -> Enclosure:
        if self.family == "laplace_lognormal":
            from .bs19_curves import laplace_lognormal_not_certified  # noqa: PLC0415

            return laplace_lognormal_not_certified()
        noise = self.noise()
        P = output_law(noise, 0.0, 1.0)
        Q = output_law(noise, self.sensitivity, self.ratio)
        encs = [hockey_stick_enclosure(P, Q, eps), hockey_stick_enclosure(Q, P, eps)]
        if not all(e.certified for e in encs):
            why = "; ".join(e.reason for e in encs if not e.certified)
            return Enclosure(lower=max(e.lower for e in encs), upper=math.inf, certified=False, reason=why,
                             upper_str="inf")
        lo = max(e.lower for e in encs)
        hi = max(e.upper for e in encs)
        return Enclosure(lower=lo, upper=hi, certified=True, lower_str=f"{lo:.17g}", upper_str=f"{hi:.17g}",
                         cells=sum(e.cells for e in encs),
                         notes=("max of both directions, hockey_stick_enclosure",))

    def deltas(self, eps_grid: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper) arrays of the enclosures over an eps grid (a certified-upper failure gives upper inf)."""
        grid = np.atleast_1d(np.asarray(eps_grid, dtype=float))
        lo = np.empty(grid.shape)
        hi = np.empty(grid.shape)
        ball = _CLOSED_BALLS.get(self.family)
        if ball is not None:
            # the closed forms: the same balls as delta(), their ends rounded outwards by one binary64 step
            # (no exactness test per point; an end that is exactly 0 stays 0)
            for i, e in enumerate(grid):
                b = ball(_check_eps(float(e)), self.scale, self.sensitivity)
                lo[i] = max(0.0, _outward(b.lower(), -math.inf))
                hi[i] = max(0.0, _outward(b.upper(), math.inf))
            return lo, hi
        for i, e in enumerate(grid):
            enc = self.delta(float(e))
            lo[i] = enc.lower
            hi[i] = enc.upper if enc.certified else math.inf
        return lo, hi

    def plot(self, ax: Any = None, claim: tuple[float, float] | None = None, **kwargs: Any) -> Any:
        """The curve (both ends) with the claimed point (eps, delta) on a matplotlib Axes
        (:func:`verify.accounting.plot.plot_curve`); returns the Axes."""
        from .plot import plot_curve  # noqa: PLC0415 - matplotlib only when plotting

        return plot_curve(self, ax, claim, title=kwargs.pop("title", self.label()), **kwargs)

    def epsilon(self, delta: float, *, rtol: float = 1e-9) -> EpsilonInterval:
        """eps(delta) bracketed by certified bisection (:func:`invert_delta`); for Laplace and discrete Laplace
        the search stops at the largest loss Delta/b (delta = 0 beyond it)."""
        cap = self.max_loss
        eps_max = 1e4 if not math.isfinite(cap) else max(1.0, 2.0 * cap)
        return invert_delta(self.delta, delta, rtol=rtol, eps_max=eps_max)


def delta_grid(curves: Sequence[PrivacyCurve], eps: float) -> list[Enclosure]:
    """The enclosures of several curves at one eps (a convenience for tables)."""
    return [c.delta(eps) for c in curves]
