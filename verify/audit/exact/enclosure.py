"""A certified enclosure of the hockey-stick divergence delta(eps) of two output laws.

For output densities p, q and a threshold t (t = eps * dist for a pair at distance dist),

    H_t(P || Q) = sup_S P(S) - e^t Q(S) = integral (p(y) - e^t q(y))_+ dy               (004 Def. 5),

attained at the excess set E = {y : g(y) > 0}, g(y) = ln p(y) - ln q(y) - t (the privacy loss minus t).
:func:`hockey_stick_enclosure` returns an :class:`Enclosure` [lower, upper] of H_t with rigorous ends:

* **Excess set by certified root isolation.**  A window W holding all but ``tail_tol`` of both laws is
  cut into cells (a sinh grid around the two laws, their kinks, and the roots the binary64 fast path
  proposes: candidates only, never a decision).  On each cell I the loss is enclosed in ball arithmetic
  (python-flint ``arb``) twice -- directly, g(I), and in the centred (mean-value) form
  g(m) + g'(I)(I - m), g' = d/dy ln p - d/dy ln q the difference of the scores -- and the two are
  intersected.  A cell whose enclosure is > 0 belongs to E, one whose enclosure is <= 0 does not; an
  undecided cell is bisected until its width is <= ``tol`` times the laws' scale (a root is isolated
  there) or the loss on it is enclosed in [-flat_tol, flat_tol].  Undecided cells are kept as
  uncertainty, never assigned to a side.
* **Flat regions.**  Where ln p - ln q - t == 0 on a whole interval (Laplace outside its two centres at
  eps d = shift/b) the integrand p - e^t q = p (1 - e^(-g)) vanishes; the centred form encloses g there
  in a ball of radius ~2^-prec (the score difference is exactly 0 away from the kinks), and the cell's
  contribution is bounded by P(I) (1 - e^(-sup g(I))) -- proven ~0, not assumed.
* **Masses.**  P(I) and Q(I) of each cell come from the family's tail function in ball arithmetic
  (Gaussian: erfc; Laplace: exp; GenCauchy and Student t: the regularised incomplete beta, as in
  :mod:`verify.reference.distributions`), never from quadrature.

The ends:  lower = P(E+) - e^t Q(E+) over the union E+ of the certified cells (any set S gives
P(S) - e^t Q(S) <= H_t, so this is a lower bound whatever else is wrong), clipped at 0;
upper = [P(E+) - e^t Q(E+)] + sum over undecided cells U of P(U) (1 - e^(-max(0, sup g(U))))
+ P(outside W)  (on U, (p - e^t q)_+ = p (1 - e^(-g))_+ <= p (1 - e^(-sup g)); outside W,
(p - e^t q)_+ <= p).  Both are read off the balls with outward rounding.

A law without a ball-arithmetic form (a user's density known only through point evaluations, a family
without a registered ball form, python-flint missing) has no certified enclosure: :func:`ball_law`
raises TypeError and the callers say so (the result is then never a PASS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

import mpmath
import numpy as np

from smoothsens_core.distributions import Gaussian, GenCauchy, Laplace, StudentT, TwoSidedGeometric

__all__ = ["Enclosure", "BallLaw", "ball_law", "hockey_stick_enclosure", "not_certified", "ball_law_available",
           "discrete_ball_law", "discrete_hockey_stick_enclosure", "FLINT_PREC"]

#: Working precision (bits) of the ball arithmetic.
FLINT_PREC = 256
_N_GRID = 401            # initial sinh grid points over the window
_MAX_CELLS = 40_000      # cell evaluations at most; beyond, the remaining cells are kept as uncertainty


@dataclass(frozen=True)
class Enclosure:
    """H_t(P || Q) in [lower, upper] (binary64, rounded outwards from the balls).

    ``certified``  True when both ends are rigorous (ball arithmetic throughout); False when the
                   enclosure could not be computed rigorously (``reason`` says why; then lower = 0 and
                   upper = inf unless stated otherwise).
    ``excess``     the certified excess set E+ as merged intervals (y units; a lower-bound witness).
    ``uncertain``  the undecided cells (root isolation intervals, flat regions), and their bound.
    ``lower_str``/``upper_str``  the ends to 20 digits (decimal strings of the outward-rounded balls).
    """

    lower: float
    upper: float
    certified: bool
    reason: str = ""
    excess: tuple[tuple[float, float], ...] = ()
    uncertain: tuple[tuple[float, float], ...] = ()
    uncertain_bound: float = 0.0
    tail_bound: float = 0.0
    cells: int = 0
    lower_str: str = ""
    upper_str: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def relative_width(self) -> float:
        """(upper - lower)/upper (0 when both are 0)."""
        return 0.0 if self.upper == 0 else (self.upper - self.lower) / self.upper

    def decide(self, delta: float, margin: float = 0.0) -> str:
        """"pass" iff the certified upper end <= delta; "violated" iff the lower end > delta + ``margin``
        (``margin`` >= 0: an excess within the rounding of the mechanism's binary64 parameters is no
        refutation, :data:`verify.audit.exact.loss.PARAM_ROUNDING_TOL`); "inconclusive" otherwise, and
        always when the upper end is not certified, unless the lower end alone refutes."""
        if self.lower > delta + margin:
            return "violated"
        if self.certified and self.upper <= delta:
            return "pass"
        return "inconclusive"

    def to_json(self) -> dict[str, Any]:
        return {"lower": self.lower, "upper": self.upper, "lower_str": self.lower_str, "upper_str": self.upper_str,
                "certified": self.certified, "reason": self.reason,
                "excess_set": [[a, b] for a, b in self.excess], "uncertain_cells": len(self.uncertain),
                "uncertain_bound": self.uncertain_bound, "tail_bound": self.tail_bound, "cells": self.cells,
                "notes": list(self.notes)}

    def describe(self) -> str:
        """One line: the enclosure and whether it is certified (and why not)."""
        c = "certified" if self.certified else f"NOT certified ({self.reason})"
        lo = self.lower_str or f"{self.lower:.6g}"
        hi = self.upper_str or f"{self.upper:.6g}"
        return f"delta_hs in [{lo}, {hi}] ({c})"


class BallLaw(Protocol):
    """A continuous output law with ball-arithmetic forms (arb in, arb out, rigorous enclosures)."""

    def logpdf(self, y: Any) -> Any: ...
    def score(self, y: Any) -> Any: ...
    def sf(self, y: float) -> Any: ...
    def mass(self, lo: float, hi: float) -> Any: ...
    def kinks(self) -> tuple[float, ...]: ...
    def tail_point(self, tail: Any) -> tuple[float, float]: ...
    @property
    def loc(self) -> float: ...
    @property
    def scale(self) -> float: ...


def ball_law_available() -> bool:
    """True when python-flint (arb ball arithmetic) is importable."""
    try:
        import flint  # noqa: F401, PLC0415 - optional dependency (python-flint, the proof extra): only its presence
    except ImportError:
        return False
    return True


def _arb() -> Any:
    try:
        from flint import arb  # noqa: PLC0415 - optional dependency (python-flint, the proof extra)
    except ImportError as exc:  # pragma: no cover - the proof extra installs it
        raise TypeError("python-flint is not installed (pip install 'smoothsens[proof]'): no ball arithmetic, "
                        "so no certified enclosure") from exc
    return arb


def _pow_nonneg(x: Any, p: Any) -> Any:
    """x^p for a ball x >= 0 (clipped at 0) and p > 0, by monotonicity: [lo^p, hi^p] (arb's pow gives
    nan for a base ball that touches 0)."""
    arb = _arb()
    lo, hi = x.lower(), x.upper()
    lo = arb(0) if lo < 0 else lo
    f_lo = arb(0) if lo == 0 else lo ** p
    f_hi = arb(0) if hi == 0 else hi ** p
    return f_lo.union(f_hi)


def _sgn(x: Any) -> Any:
    arb = _arb()
    if x > 0:
        return arb(1)
    if x < 0:
        return arb(-1)
    return arb(0, 1)


class _StandardBall:
    """A standardised symmetric family: ln h(z), its score d/dz ln h(z), P[Z > u] for u >= 0 (balls)."""

    kinks_z: tuple[float, ...] = ()

    def logh(self, z: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def score(self, z: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def sf_pos(self, u: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def sf_point(self, u: Any) -> Any:
        """P[Z > u] for an exact (zero-radius) ball u, by symmetry P[Z > -u] = 1 - P[Z > u]."""
        return self.sf_pos(u) if u >= 0 else 1 - self.sf_pos(-u)


class _GaussianBall(_StandardBall):
    """h(z) = e^(-z^2/2)/sqrt(2 pi); score -z; P[Z > u] = erfc(u/sqrt 2)/2."""

    def logh(self, z: Any) -> Any:
        arb = _arb()
        return -z * z / 2 - (2 * arb.pi()).log() / 2

    def score(self, z: Any) -> Any:
        return -z

    def sf_pos(self, u: Any) -> Any:
        arb = _arb()
        return (u / arb(2).sqrt()).erfc() / 2


class _LaplaceBall(_StandardBall):
    """h(z) = e^(-|z|)/2 (004 Sec. 2.1); score -sgn(z) (any value in [-1, 1] at 0); P[Z > u] = e^(-u)/2."""

    kinks_z = (0.0,)

    def logh(self, z: Any) -> Any:
        arb = _arb()
        return -abs(z) - arb(2).log()

    def score(self, z: Any) -> Any:
        return -_sgn(z)

    def sf_pos(self, u: Any) -> Any:
        return (-u).exp() / 2


class _GenCauchyBall(_StandardBall):
    """h(z) = c/(1 + |z|^p)^theta, c = p Gamma(theta)/(2 Gamma(1/p) Gamma(theta - 1/p)) (004 Sec. 2.1);
    score -theta p sgn(z) |z|^(p-1)/(1 + |z|^p); P[Z > u] = I_{1/(1+u^p)}(theta - 1/p, 1/p)/2."""

    kinks_z = (0.0,)

    def __init__(self, p: float, theta: float) -> None:
        arb = _arb()
        self.p, self.theta = arb(p), arb(theta)
        self.logc = self.p.log() + self.theta.lgamma() - arb(2).log() - (1 / self.p).lgamma() \
            - (self.theta - 1 / self.p).lgamma()

    def logh(self, z: Any) -> Any:
        return self.logc - self.theta * (_pow_nonneg(abs(z), self.p)).log1p()

    def score(self, z: Any) -> Any:
        az = abs(z)
        if self.p < 1 and az.lower() <= 0:
            arb = _arb()
            return arb("nan")  # unbounded score at 0 for p < 1
        return -self.theta * self.p * _sgn(z) * _pow_nonneg(az, self.p - 1) / (1 + _pow_nonneg(az, self.p))

    def sf_pos(self, u: Any) -> Any:
        w = 1 / (1 + _pow_nonneg(u, self.p))
        return w.beta_lower(self.theta - 1 / self.p, 1 / self.p, regularized=True) / 2  # z = self: I_w(a, b)


class _StudentTBall(_StandardBall):
    """h(z) = Gamma((nu+1)/2)/(sqrt(nu pi) Gamma(nu/2)) (1 + z^2/nu)^(-(nu+1)/2) (004 Sec. 2.1);
    score -(nu+1) z/(nu + z^2); P[Z > u] = I_{nu/(nu+u^2)}(nu/2, 1/2)/2."""

    def __init__(self, nu: float) -> None:
        arb = _arb()
        self.nu = arb(nu)
        n = self.nu
        self.logc = ((n + 1) / 2).lgamma() - (n / 2).lgamma() - (n * arb.pi()).log() / 2

    def logh(self, z: Any) -> Any:
        n = self.nu
        return self.logc - (n + 1) / 2 * (z * z / n).log1p()

    def score(self, z: Any) -> Any:
        n = self.nu
        return -(n + 1) * z / (n + z * z)

    def sf_pos(self, u: Any) -> Any:
        arb = _arb()
        n = self.nu
        return (n / (n + u * u)).beta_lower(n / 2, arb(1) / 2, regularized=True) / 2  # I_w(nu/2, 1/2)


def _standard_ball(noise: Any) -> _StandardBall:
    """The ball form of a core noise's standardised family (exact class match, as
    :func:`verify.reference.distributions.reference_for`); TypeError for a family without one."""
    kind = type(noise)
    if kind is Gaussian:
        return _GaussianBall()
    if kind is Laplace:
        return _LaplaceBall()
    if kind is GenCauchy:
        return _GenCauchyBall(float(noise.p), float(noise.theta))
    if kind is StudentT:
        return _StudentTBall(float(noise.nu))
    raise TypeError(f"no ball-arithmetic form is registered for {kind.__name__} (Gaussian, Laplace, GenCauchy, "
                    "StudentT have one): the enclosure cannot be certified")


@dataclass(frozen=True)
class _LocationScaleBall:
    """The law A + S Z (A, S binary64, exact in arb) of a standardised family with a ball form."""

    std: _StandardBall
    A: float
    S: float

    @property
    def loc(self) -> float:
        return self.A

    @property
    def scale(self) -> float:
        return self.S

    def _z(self, y: Any) -> Any:
        arb = _arb()
        return (y - arb(self.A)) / arb(self.S)

    def logpdf(self, y: Any) -> Any:
        arb = _arb()
        return self.std.logh(self._z(y)) - arb(self.S).log()

    def score(self, y: Any) -> Any:
        arb = _arb()
        return self.std.score(self._z(y)) / arb(self.S)

    def sf(self, y: float) -> Any:
        """P[Y > y] (y a binary64 number or +-inf): the family's tail at both ends of the ball
        (y - A)/S, whose union encloses it (the tail is decreasing)."""
        arb = _arb()
        if y == math.inf:
            return arb(0)
        if y == -math.inf:
            return arb(1)
        z = self._z(arb(y))
        return self.std.sf_point(z.lower()).union(self.std.sf_point(z.upper()))

    def mass(self, lo: float, hi: float) -> Any:
        """P[lo < Y < hi] from the tail on the side away from the centre (cdf(hi) - cdf(lo) left of it,
        sf(lo) - sf(hi) right of it): no 1 - tail cancellation, so the mass keeps its relative accuracy far
        out, where e^t multiplies it."""
        arb = _arb()
        if lo >= self.A:
            return self.sf(lo) - self.sf(hi)
        if hi <= self.A:
            return self._cdf(hi) - self._cdf(lo)
        return 1 - self._cdf(lo) - self.sf(hi) if math.isfinite(lo) or math.isfinite(hi) else arb(1)

    def _cdf(self, y: float) -> Any:
        """P[Y < y] for y <= A (or -inf): the standardised upper tail at -z, by symmetry."""
        arb = _arb()
        if y == -math.inf:
            return arb(0)
        z = self._z(arb(y))
        return self.std.sf_point(-z.upper()).union(self.std.sf_point(-z.lower()))

    def kinks(self) -> tuple[float, ...]:
        return tuple(self.A + self.S * k for k in self.std.kinks_z)

    def tail_point(self, tail: Any) -> tuple[float, float]:
        """(lo, hi) binary64 with P[Y < lo] <= tail and P[Y > hi] <= tail (certified upper ends)."""
        u = 1.0
        for _ in range(2100):
            hi, lo = self.A + self.S * u, self.A - self.S * u
            if math.isinf(hi) or math.isinf(lo):
                break
            if (self.sf(hi)).upper() <= tail and (1 - self.sf(lo)).upper() <= tail:
                return lo, hi
            u *= 2.0
        raise ValueError(f"cannot find a window holding all but {tail} of the law {self!r}")


def ball_law(noise: Any, a: float, s: float) -> BallLaw:
    """The law a + s X, X ~ ``noise`` (a core continuous noise with its own loc and scale), in ball form:
    A + S Z with A = a + s loc, S = s scale.  TypeError for a noise without a ball form or a discrete one."""
    std = _standard_ball(noise)
    A = float(a) + float(s) * float(getattr(noise, "loc", 0.0))
    S = float(s) * float(getattr(noise, "scale", 1.0))
    if not (math.isfinite(A) and math.isfinite(S) and S > 0):
        raise ValueError(f"the law needs a finite location and a scale > 0; got loc={A!r}, scale={S!r}")
    return _LocationScaleBall(std, A, S)


@dataclass(frozen=True)
class _TwoSidedGeometricBall:
    """The law A + K on the integers, K two-sided geometric (003 App. A): P(K = j) = (1 - r)/(1 + r) r^|j - loc|,
    r = e^(-eps/sensitivity); P(K <= loc + j) = r^(-j)/(1 + r) for j < 0 and 1 - r^(j+1)/(1 + r) for j >= 0."""

    eps: float
    sensitivity: float
    loc: int
    A: float

    def _log_r(self) -> Any:
        arb = _arb()
        return -arb(self.eps) / arb(self.sensitivity)

    def logpmf(self, k: int) -> Any:
        arb = _arb()
        lr = self._log_r()
        j = int(k) - int(round(self.A)) - self.loc
        return (-(lr.expm1())).log() - lr.exp().log1p() + abs(arb(j)) * lr

    def cdf(self, k: float) -> Any:
        """P[A + K <= k] for an integer k (or +-inf)."""
        arb = _arb()
        if k == math.inf:
            return arb(1)
        if k == -math.inf:
            return arb(0)
        lr = self._log_r()
        j = int(math.floor(k)) - int(round(self.A)) - self.loc
        r = lr.exp()
        if j < 0:
            return (arb(-j) * lr).exp() / (1 + r)
        return 1 - (arb(j + 1) * lr).exp() / (1 + r)

    def window(self, tail: Any) -> tuple[int, int]:
        """Integers (lo, hi) with P[A + K < lo] <= tail and P[A + K > hi] <= tail."""
        u = 1
        for _ in range(80):
            c = int(round(self.A)) + self.loc
            if self.cdf(c - u - 1).upper() <= tail and (1 - self.cdf(c + u)).upper() <= tail:
                return c - u, c + u
            u *= 2
        raise ValueError("cannot bound the support of the two-sided geometric law")


def discrete_ball_law(noise: Any, a: float) -> _TwoSidedGeometricBall:
    """The law a + K (a an integer-valued binary64) of a discrete core noise in ball form; TypeError for a
    family without one (only the two-sided geometric of 003 App. A has one)."""
    if type(noise) is not TwoSidedGeometric:
        raise TypeError(f"no ball-arithmetic form is registered for the discrete {type(noise).__name__}")
    if float(a) != round(float(a)):
        raise TypeError(f"a law on the integers needs an integer location; got f(x) = {a!r}")
    return _TwoSidedGeometricBall(float(noise.eps), float(noise.sensitivity), int(noise.loc), float(a))


_MAX_POINTS = 200_000


def discrete_hockey_stick_enclosure(P: _TwoSidedGeometricBall, Q: _TwoSidedGeometricBall, t: Any, *,
                                    tail_tol: float = 1e-30) -> Enclosure:
    """[lower, upper] enclosing sum_k (P(k) - e^t Q(k))_+ for two laws on the integers (004 Def. 5 with
    counting measure): every integer of a window holding all but ``tail_tol`` of P is classified by a
    ball enclosure of g(k) = ln P(k) - ln Q(k) - t (> 0: in the excess set; <= 0: out; else undecided, with
    the bound P(k)(1 - e^(-sup g))); the tails outside the window add P(tail) to the upper end."""
    from flint import ctx  # noqa: PLC0415 - optional dependency (python-flint, the proof extra)

    arb = _arb()
    old = ctx.prec
    ctx.prec = FLINT_PREC
    try:
        tb = t if isinstance(t, arb) else arb(float(t))
        et = tb.exp()
        tail = arb(tail_tol)
        lo_p, hi_p = P.window(tail)
        lo_q, hi_q = Q.window(tail)
        lo, hi = min(lo_p, lo_q), max(hi_p, hi_q)
        if hi - lo > _MAX_POINTS:
            return not_certified(f"the discrete window has {hi - lo} points > {_MAX_POINTS}")
        certain, unc = arb(0), arb(0)
        runs: list[list[float]] = []
        n_unc = 0
        for k in range(lo, hi + 1):
            lp, lq = P.logpmf(k), Q.logpmf(k)
            g = lp - lq - tb
            if g > 0:
                certain += lp.exp() - et * lq.exp()
                if runs and runs[-1][1] == k - 0.5:
                    runs[-1][1] = k + 0.5
                else:
                    runs.append([k - 0.5, k + 0.5])
            elif not g <= 0:
                n_unc += 1
                unc += lp.exp().upper() * (1 - (-g.upper()).exp()).upper()
        tails = P.cdf(lo - 1).upper() + (1 - P.cdf(hi)).upper()
        upper_ball = certain + unc + tails
        lower = max(0.0, _round_down(certain))
        return Enclosure(lower=lower, upper=max(0.0, _round_up(upper_ball)), certified=True,
                         excess=tuple((a, b) for a, b in runs), uncertain=tuple((0.0, 0.0) for _ in range(n_unc)),
                         uncertain_bound=_round_up(unc) if n_unc else 0.0, tail_bound=_round_up(tails),
                         cells=hi - lo + 1, lower_str="0" if lower == 0 else _bstr(certain, False),
                         upper_str=_bstr(upper_ball, True))
    finally:
        ctx.prec = old


def _round_down(x: Any) -> float:
    v = float(x.lower())
    return math.nextafter(v, -math.inf) if math.isfinite(v) else v


def _round_up(x: Any) -> float:
    v = float(x.upper())
    return math.nextafter(v, math.inf) if math.isfinite(v) else v


def _bstr(x: Any, up: bool) -> str:
    """The ball's upper (``up``) or lower end as a 20-digit decimal string rounded outwards: the exact end
    point moved out by 10^-19 of its size, so the decimal rounding (< 10^-19 relative) cannot cross it."""
    e = x.upper() if up else x.lower()
    if not e.is_finite():
        return "inf" if up else "-inf"
    man, exp = e.man_exp()
    with mpmath.workprec(max(64, int(man).bit_length() + 16)):
        v = mpmath.ldexp(mpmath.mpf(int(man)), int(exp))
        if v == 0:
            return "0"
        v = v + (1 if up else -1) * abs(v) * mpmath.mpf(10) ** -19
        return mpmath.nstr(v, 20, strip_zeros=False)


def hockey_stick_enclosure(
    P: BallLaw,
    Q: BallLaw,
    t: Any,
    *,
    candidates: Sequence[float] = (),
    tol: float = 1e-12,
    tail_tol: float = 1e-30,
    flat_tol: float = 1e-40,
    max_cells: int = _MAX_CELLS,
) -> Enclosure:
    """[lower, upper] enclosing H_t(P || Q) = integral (p - e^t q)_+ (004 Def. 5), rigorously (module
    docstring: root isolation of ln p - ln q - t in ball arithmetic, masses from the families' tails).

    ``P``, ``Q``: laws in ball form (:func:`ball_law`); ``t``: the threshold eps * dist, a float or an arb
    ball (e.g. the exact product of eps and a distance); ``candidates``: proposed roots of the loss
    minus t (binary64, e.g. from :func:`verify.audit.exact.approx.bad_set`): inserted as cell
    boundaries to speed the isolation, never trusted; ``tol``: root isolation width in units of
    min(scale); ``tail_tol``: mass of each law left outside the window (added to the upper end);
    ``flat_tol``: a cell where the loss minus t is enclosed in [-flat_tol, flat_tol] is not split further;
    ``max_cells``: evaluation budget (cells left undecided when it is spent only widen the enclosure).
    """
    from flint import ctx  # noqa: PLC0415 - optional dependency (python-flint, the proof extra)

    arb = _arb()
    old = ctx.prec
    # e^t multiplies the masses of Q: 2^-prec of them must stay 2^-FLINT_PREC after the product
    t_size = abs(float(t.mid())) + float(t.rad()) if isinstance(t, arb) else abs(float(t))
    if not math.isfinite(t_size):
        raise ValueError(f"t must be finite; got t={t!r}")
    ctx.prec = FLINT_PREC + int(math.ceil(t_size / math.log(2))) + 16
    try:
        return _enclosure(P, Q, t, candidates, tol, tail_tol, flat_tol, max_cells, arb)
    finally:
        ctx.prec = old


def _enclosure(P: BallLaw, Q: BallLaw, t: Any, candidates: Sequence[float], tol: float, tail_tol: float,
               flat_tol: float, max_cells: int, arb: Any) -> Enclosure:
    tb = t if isinstance(t, arb) else arb(float(t))
    if not tb.is_finite():
        raise ValueError(f"t must be finite; got t={t!r}")
    et = tb.exp()
    tail = arb(tail_tol)
    lo_p, hi_p = P.tail_point(tail)
    lo_q, hi_q = Q.tail_point(tail)
    y_lo, y_hi = min(lo_p, lo_q), max(hi_p, hi_q)
    c = 0.5 * (P.loc + Q.loc)
    w = min(P.scale, Q.scale)
    width_tol = tol * w
    vmax = math.asinh(max(abs(y_hi - c), abs(y_lo - c)) / w)
    v = np.linspace(-vmax, vmax, _N_GRID)
    pts = c + w * np.sinh(v)
    extra = [k for k in (*P.kinks(), *Q.kinks(), *candidates) if math.isfinite(k)]
    pts = np.unique(np.concatenate([pts, np.asarray(extra, dtype=float), [y_lo, y_hi]]))
    pts = pts[(pts >= y_lo) & (pts <= y_hi)]

    def g_enclosure(a: float, b: float) -> Any:
        ball = arb(a).union(arb(b))
        naive = P.logpdf(ball) - Q.logpdf(ball) - tb
        m = arb(0.5 * a + 0.5 * b) if math.isfinite(0.5 * a + 0.5 * b) else ball.mid()
        centred = (P.logpdf(m) - Q.logpdf(m) - tb) + (P.score(ball) - Q.score(ball)) * (ball - m)
        if not centred.is_finite():
            return naive
        if not naive.is_finite():
            return centred
        return naive.intersection(centred)

    positive: list[tuple[float, float]] = []
    uncertain: list[tuple[float, float, Any]] = []
    stack = [(float(pts[i]), float(pts[i + 1])) for i in range(len(pts) - 1)][::-1]
    n_cells = 0
    budget_spent = False
    while stack:
        a, b = stack.pop()
        if not b > a:
            continue
        n_cells += 1
        g = g_enclosure(a, b)
        if g.is_finite() and g > 0:
            positive.append((a, b))
            continue
        if g.is_finite() and g <= 0:
            continue
        mid = 0.5 * a + 0.5 * b
        split_ok = a < mid < b
        flat = g.is_finite() and g.upper() <= flat_tol and g.lower() >= -flat_tol
        if flat or b - a <= width_tol or not split_ok or n_cells >= max_cells:
            if n_cells >= max_cells and not (flat or b - a <= width_tol):
                budget_spent = True
            uncertain.append((a, b, g))
            continue
        stack.append((mid, b))
        stack.append((a, mid))

    merged: list[list[float]] = []
    for a, b in sorted(positive):
        if merged and merged[-1][1] == a:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    certain = arb(0)
    for a, b in merged:
        certain += P.mass(a, b) - et * Q.mass(a, b)
    unc = arb(0)
    for a, b, g in uncertain:
        gup = g.upper() if g.is_finite() else arb("inf")
        if gup <= 0:
            continue
        factor = arb(1) if not gup.is_finite() else 1 - (-gup).exp()
        unc += P.mass(a, b).upper() * factor.upper()
    tails = P.mass(-math.inf, y_lo).upper() + P.mass(y_hi, math.inf).upper()
    lower_ball = certain
    upper_ball = certain + unc.upper() + tails
    lower = max(0.0, _round_down(lower_ball))
    upper = max(0.0, _round_up(upper_ball))
    notes = []
    if budget_spent:
        notes.append(f"cell budget ({max_cells}) spent: the undecided cells left widen the enclosure")
    return Enclosure(lower=lower, upper=upper, certified=True,
                     excess=tuple((a, b) for a, b in merged), uncertain=tuple((a, b) for a, b, _ in uncertain),
                     uncertain_bound=_round_up(unc.upper()) if unc != 0 else 0.0, tail_bound=_round_up(tails),
                     cells=n_cells, lower_str="0" if lower == 0 else _bstr(lower_ball, False),
                     upper_str=_bstr(upper_ball, True), notes=tuple(notes))


def not_certified(reason: str, lower: float = 0.0, lower_str: str = "") -> Enclosure:
    """An enclosure with no rigorous upper end: [lower, inf], ``certified`` False, and why."""
    return Enclosure(lower=lower, upper=math.inf, certified=False, reason=reason, lower_str=lower_str,
                     upper_str="inf")
