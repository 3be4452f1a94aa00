"""Rényi DP and zCDP: divergences of worst-case pairs (closed forms and certified enclosures),
conversions to (eps, delta), composition, and a composable :class:`RdpCurve`.

Definitions (Mironov 2017, "Rényi differential privacy", Def. 3 and 4): for alpha > 1,

    D_alpha(P || Q) = 1/(alpha - 1) ln integral p^alpha q^(1 - alpha) dy,

a mechanism is (alpha, tau)-RDP when D_alpha of every neighbouring pair is <= tau, and rho-zCDP
(Bun & Steinke 2016, Def. 1.1) when D_alpha <= rho alpha for every alpha > 1.

Closed forms (a shift by the sensitivity Delta is the worst pair of a location mechanism):

* Gaussian N(0, sigma^2) vs N(Delta, sigma^2): D_alpha = alpha Delta^2/(2 sigma^2)  (Mironov 2017, Prop. 7),
  so rho = Delta^2/(2 sigma^2);
* Laplace with scale b, shift Delta, lambda = b/Delta (Mironov 2017, Prop. 6):
  D_alpha = 1/(alpha - 1) ln[ alpha/(2 alpha - 1) e^((alpha - 1)/lambda) + (alpha - 1)/(2 alpha - 1) e^(-alpha/lambda) ].
  It is eps-DP with eps = 1/lambda, so D_alpha <= eps for every alpha and rho = sup D_alpha/alpha is finite
  (<= eps^2/2, Bun & Steinke 2016, Prop. 1.4); :func:`zcdp_rho_upper` bounds it from the curve.

Certified divergence of any family with a ball-arithmetic form (:func:`renyi_pair_enclosure`): for the
standardised noise Z and the pair P = law(Z), Q = law(c Z + m) (c the scale ratio, m the shift in units
of the noise scale; by affine invariance this is every pair of a shift/scale model), the integral
I = integral p^alpha q^(1 - alpha) is enclosed as follows.

* Window [-u, u]: cells from the quantiles of P and Q; on each cell [a, b] with midpoint y0 and
  g = alpha ln p + (1 - alpha) ln q, the midpoint rule with its exact remainder
  integral_a^b e^g = (b - a) e^(g(y0)) + (b - a)^3/24 (e^g)''(xi), xi in [a, b], is enclosed in arb ball
  arithmetic: g(y0) at the point, and (e^g)'' = e^g (g'' + g'^2) over the whole cell from a Taylor series
  (python-flint ``arb_series``) of g evaluated on the cell's ball.  A cell where the series cannot be
  evaluated (a kink, a pole) falls back to (b - a) e^(g([a, b])), valid for any continuous integrand.
  Cells are bisected where the enclosure is widest until the relative width meets ``rel_tol`` or the
  cell budget is spent.  These are Riemann-type sums with certified remainder bounds, not mpmath ``quad``.
* Tails |z| > u: a certified upper bound supplied by the family's form (``renyi_tail``); the lower end
  takes 0 for them.  A form without one gives an upper end of inf (not certified, the reason stated).
  Registered forms: Gaussian (exact quadratic tail), arsinh-normal and uniform log-normal (a loss linear
  in the Gaussian variable Y), and the smooth-sensitivity families Student t, GenCauchy and PolyPlace (their
  loss is bounded on |z| >= u, so the tail is at most e^((alpha-1) sup L) P(|Z| > u)).  The Laplace log-normal
  has none (its density is itself an integral): its divergences are not certified by this module
  (:func:`rdp_of_pair` says so).

D_alpha = ln(I)/(alpha - 1) is then enclosed in [ln I_lower, ln I_upper]/(alpha - 1) with outward rounding.

Conversions (Canonne, Kamath & Steinke 2020, "The discrete Gaussian for differential privacy", Prop. 12
and Cor. 13): if D_alpha <= tau then for every eps the mechanism is (eps, delta)-DP with

    delta = exp((alpha - 1)(tau - eps))/(alpha - 1) * (1 - 1/alpha)^alpha,

and a rho-zCDP mechanism is (eps, delta)-DP with delta = inf_{alpha > 1} of the same with tau = alpha rho.
Each alpha gives a valid delta, so the infimum taken over a grid (then refined numerically) is an upper
bound on the true infimum's value; the delta returned is evaluated in 50-digit mpmath and rounded up.
The same formula solved for eps is Balle et al. 2020 ("Hypothesis testing interpretations and Rényi
differential privacy", Thm. 21): eps = tau + ln((alpha - 1)/alpha) - (ln delta + ln alpha)/(alpha - 1).

Composition: D_alpha of a product of laws is the sum of the D_alpha (Mironov 2017, Prop. 1, adaptive
composition), order by order: :meth:`RdpCurve.compose`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol

import mpmath
import numpy as np

from smoothsens_core.validation import check_greater, check_positive, check_probability

__all__ = [
    "DivergenceEnclosure",
    "RdpCurve",
    "StandardBallForm",
    "ball_form_for",
    "register_ball_form",
    "renyi_gaussian",
    "renyi_laplace",
    "renyi_pair_enclosure",
    "rdp_of_pair",
    "rdp_to_delta",
    "rdp_to_epsilon",
    "zcdp_to_delta",
    "zcdp_rho_upper",
    "DEFAULT_ORDERS",
]

#: Rényi orders of the default curves (dp_accounting's grid style: dense near 1, sparse far out).
DEFAULT_ORDERS: tuple[float, ...] = (1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0,
                                     20.0, 24.0, 32.0, 48.0, 64.0, 128.0, 256.0)

_PREC = 128  # bits of the ball arithmetic


def _check_alpha(alpha: Any) -> float:
    return check_greater("alpha", alpha, 1.0)


# ---------------------------------------------------------------------------------------------
# closed forms
# ---------------------------------------------------------------------------------------------
def renyi_gaussian(alpha: float, sensitivity: float, sigma: float) -> float:
    """D_alpha(N(0, sigma^2) || N(Delta, sigma^2)) = alpha Delta^2/(2 sigma^2) (Mironov 2017, Prop. 7)."""
    a = _check_alpha(alpha)
    d = check_positive("sensitivity", sensitivity)
    s = check_positive("sigma", sigma)
    return a * d * d / (2.0 * s * s)


def renyi_laplace(alpha: float, sensitivity: float, b: float) -> float:
    """D_alpha(Lap(0, b) || Lap(Delta, b)) = 1/(alpha-1) ln[alpha/(2alpha-1) e^((alpha-1)t) + (alpha-1)/(2alpha-1)
    e^(-alpha t)], t = Delta/b (Mironov 2017, Prop. 6 with lambda = 1/t); computed in log space."""
    a = _check_alpha(alpha)
    t = check_positive("sensitivity", sensitivity) / check_positive("b", b)
    first = math.log(a / (2 * a - 1)) + (a - 1) * t
    second = math.log((a - 1) / (2 * a - 1)) - a * t
    hi, lo = max(first, second), min(first, second)
    return (hi + math.log1p(math.exp(lo - hi))) / (a - 1)


# ---------------------------------------------------------------------------------------------
# ball forms of standardised families
# ---------------------------------------------------------------------------------------------
class StandardBallForm(Protocol):
    """A standardised family in ball arithmetic, for :func:`renyi_pair_enclosure`.

    ``logh(z)``  ln h(z) for an arb ball z, and -- wherever ln h is smooth on the ball -- for an
                 ``arb_series`` z (it may raise or return a non-finite value on a kink: the cell then
                 gets the zeroth-order bound);
    ``kinks_z``  points where ln h is not smooth (cell edges are placed there);
    ``renyi_tail(alpha, c, m, u)``  an arb upper bound on the integral over |z| > u of
                 h(z)^alpha (h((z - m)/c)/c)^(1 - alpha), or None when the family has none."""

    kinks_z: tuple[float, ...]

    def logh(self, z: Any) -> Any: ...

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any: ...


def _flint() -> Any:
    try:
        import flint  # noqa: PLC0415
    except ImportError as exc:  # pragma: no cover - the proof extra installs it
        raise TypeError("python-flint is not installed: no ball arithmetic, no certified divergence") from exc
    return flint


class GaussianBallForm:
    """h(z) = e^(-z^2/2)/sqrt(2 pi); the tail integrand is exp of a quadratic, integrated in closed form."""

    kinks_z: tuple[float, ...] = ()

    def logh(self, z: Any) -> Any:
        arb = _flint().arb
        return -z * z / 2 - (2 * arb.pi()).log() / 2

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any:
        """alpha ln h(z) + (1-alpha)(ln h((z-m)/c) - ln c) = -A z^2 + B z + C with
        A = (alpha + (1-alpha)/c^2)/2, B = (1-alpha) m/c^2, C = -(1-alpha) m^2/(2c^2) - ln sqrt(2 pi)
        - (1-alpha) ln c; the integral over z > u of e^(-Az^2 + Bz + C) is
        e^(C + B^2/(4A)) sqrt(pi/A) erfc(sqrt(A)(u - B/(2A)))/2 (and z < -u with B -> -B); inf if A <= 0."""
        arb = _flint().arb
        al, cc, mm = arb(alpha), arb(c), arb(m)
        A = (al + (1 - al) / (cc * cc)) / 2
        if not A > 0:
            return arb("inf")
        B = (1 - al) * mm / (cc * cc)
        C = -(1 - al) * mm * mm / (2 * cc * cc) - (2 * arb.pi()).log() / 2 - (1 - al) * cc.log()
        total = arb(0)
        for b in (B, -B):
            total += (C + b * b / (4 * A)).exp() * (arb.pi() / A).sqrt() * (A.sqrt() * (arb(u) - b / (2 * A))).erfc() / 2
        return total


class ArsinhNormalBallForm:
    """h(z) = phi(v)/sqrt(1 + s^2 z^2), v = arsinh(s z)/s = ln(s z + sqrt(1 + s^2 z^2))/s.

    Tail bound (derived here): for |z| >= u >= 2|m| put L = |ln c| + 2|m|/u, D = L/s.  With w = (z - m)/c
    (same sign as z), |ln(w/z)| <= L, and since v' = 1/sqrt(1 + s^2 x^2) <= 1/(s|x|), |v(w) - v(z)| <= D;
    hence the loss l = ln h(z) - ln h(w) + ln c <= D|v| + D^2/2 + L + ln c ((v(w)^2 - v(z)^2)/2 <= D|v| + D^2/2,
    and (1/2) ln((1 + s^2 w^2)/(1 + s^2 z^2)) <= max(0, ln|w/z|) <= L).  With V ~ N(0, 1) and beta = (alpha-1) D:
    integral_{|z|>u} p^alpha q^(1-alpha) = E[e^((alpha-1) l); |Z| > u]
      <= e^((alpha-1)(D^2/2 + L + ln c)) e^(beta^2/2) erfc((v(u) - beta)/sqrt 2)."""

    kinks_z: tuple[float, ...] = ()

    def __init__(self, sigma: float) -> None:
        self.sigma = float(sigma)

    def _v(self, z: Any) -> Any:
        """arsinh(s z)/s, by oddness from the positive side when the ball (the series' constant term) is
        negative: s z + sqrt(1 + s^2 z^2) cancels there, and the ball would swell to contain 0."""
        arb = _flint().arb
        const = z.coeffs()[0] if hasattr(z, "coeffs") else z
        if const < 0:
            return -self._v(-z)
        s = arb(self.sigma)
        sz = s * z
        return (sz + (1 + sz * sz).sqrt()).log() / s

    def logh(self, z: Any) -> Any:
        arb = _flint().arb
        s = arb(self.sigma)
        v = self._v(z)
        return -v * v / 2 - (2 * arb.pi()).log() / 2 - (1 + s * s * z * z).log() / 2

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any:
        arb = _flint().arb
        if not (u > 0 and u >= 2 * abs(m)):
            return arb("inf")
        al, s = arb(alpha), arb(self.sigma)
        L = abs(arb(c).log()) + 2 * abs(arb(m)) / arb(u)
        D = L / s
        beta = (al - 1) * D
        vu = self._v(arb(u))
        return ((al - 1) * (D * D / 2 + L + arb(c).log()) + beta * beta / 2).exp() \
            * ((vu - beta) / arb(2).sqrt()).erfc()


class UniformLogNormalBallForm:
    """h(z) = e^(s^2/2) erfc(x/sqrt 2)/4, x = ln|z|/s + s (the ULN density of
    :mod:`smoothsens_core.distributions.bun_steinke`); on a ball holding 0, h decreasing in |z| gives
    ln h in [ln h(max|z|), ln h(0)], ln h(0) = s^2/2 - ln 2 (series there raise: the cell gets the
    zeroth-order bound).

    Tail bound (derived here): for |z| >= u >= max(1, 2|m|), w = (z - m)/c, D = L/s with
    L = max(0, -ln c + 2|m|/u): when |w| > |z|, x_w - x_z = ln|w/z|/s <= D and, ln Phi(-x) being concave
    with slope -phi(x)/Phi(-x) >= -(x + 1) for x >= 0 (Birnbaum 1942: phi(x)/Phi(-x) < (x + sqrt(x^2 + 4))/2),
    ln h(z) - ln h(w) <= D (x_z + D + 1); when |w| <= |z| it is <= 0.  With Z = U e^(s Y), x_z <= Y + s and
    |Z| > u implies Y > ln(u)/s, so with beta = (alpha - 1) D:
    integral_{|z|>u} p^alpha q^(1-alpha) <= e^((alpha-1)(D(D+1) + ln c) + beta s + beta^2/2) Phi(-(ln(u)/s - beta))."""

    kinks_z: tuple[float, ...] = ()

    def __init__(self, sigma: float) -> None:
        self.sigma = float(sigma)

    def _logh_abs(self, az: Any) -> Any:
        arb = _flint().arb
        s = arb(self.sigma)
        x = az.log() / s + s
        return s * s / 2 + (x / arb(2).sqrt()).erfc().log() - arb(4).log()

    def logh(self, z: Any) -> Any:
        arb = _flint().arb
        if hasattr(z, "coeffs"):
            const = z.coeffs()[0]
            if const > 0:
                return self._logh_abs(z)
            if const < 0:
                return self._logh_abs(-z)
            raise ValueError("the ULN log-density has no Taylor series at 0 in this form")
        if z > 0:
            return self._logh_abs(z)
        if z < 0:
            return self._logh_abs(-z)
        s = arb(self.sigma)
        top = s * s / 2 - arb(2).log()
        far = abs(z).upper()
        return top.union(self._logh_abs(arb(far))) if far > 0 else top

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any:
        arb = _flint().arb
        if not (u >= 1 and u >= 2 * abs(m)):
            return arb("inf")
        al, s, ub = arb(alpha), arb(self.sigma), arb(u)
        L = -arb(c).log() + 2 * abs(arb(m)) / ub
        L = L if L > 0 else arb(0).union(L) if not L < 0 else arb(0)
        D = L / s
        beta = (al - 1) * D
        expo = (al - 1) * (D * (D + 1) + arb(c).log()) + beta * s + beta * beta / 2
        return expo.exp() * ((ub.log() / s - beta) / arb(2).sqrt()).erfc() / 2


def _const(z: Any) -> Any:
    """The value ball of an arb or the constant term of an arb_series."""
    return z.coeffs()[0] if hasattr(z, "coeffs") else z


def _abs_series(z: Any) -> Any:
    """|z| for an arb_series whose constant ball has one sign (ValueError across 0: |z| has no series there)."""
    c0 = _const(z)
    if c0 > 0:
        return z
    if c0 < 0:
        return -z
    raise ValueError("|z| has no Taylor series at 0")


def _bounded_loss_tail(alpha: float, c: float, lam: Any, tail: Any) -> Any:
    """e^((alpha - 1)(Lambda + ln c)) P(|Z| > u): the integral over |z| > u of p^alpha q^(1-alpha) =
    E_P[e^((alpha-1) L); |Z| > u] when the loss L = ln h(z) - ln h((z - m)/c) + ln c is <= Lambda + ln c there."""
    arb = _flint().arb
    return ((arb(alpha) - 1) * (lam + arb(c).log())).exp() * tail


class StudentTBallForm:
    """h(z) = Gamma((nu+1)/2)/(sqrt(nu pi) Gamma(nu/2)) (1 + z^2/nu)^(-(nu+1)/2) (004 Sec. 2.1).

    Tail bound (derived here): for |z| >= u >= 2|m| and w = (z - m)/c, |w| <= 1.5 |z|/c, so
    ln h(z) - ln h(w) = ((nu+1)/2) ln((nu + w^2)/(nu + z^2)) <= (nu + 1) ln max(1, 1.5/c) = Lambda, and the tail
    integral is <= e^((alpha-1)(Lambda + ln c)) P(|Z| > u), P(|Z| > u) = I_{nu/(nu+u^2)}(nu/2, 1/2)."""

    kinks_z: tuple[float, ...] = ()

    def __init__(self, nu: float) -> None:
        self.nu = float(nu)

    def logh(self, z: Any) -> Any:
        arb = _flint().arb
        n = arb(self.nu)
        logc = ((n + 1) / 2).lgamma() - (n / 2).lgamma() - (n * arb.pi()).log() / 2
        return logc - (n + 1) / 2 * (1 + z * z / n).log()

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any:
        arb = _flint().arb
        if not (u > 0 and u >= 2 * abs(m)):
            return arb("inf")
        n = arb(self.nu)
        lam = (n + 1) * _max1(arb(1.5) / arb(c)).log()
        tail = (n / (n + arb(u) * arb(u))).beta_lower(n / 2, arb(1) / 2, regularized=True)
        return _bounded_loss_tail(alpha, c, lam, tail)


class GenCauchyBallForm:
    """h(z) = C/(1 + |z|^p)^theta, C = p Gamma(theta)/(2 Gamma(1/p) Gamma(theta - 1/p)) (004 Sec. 2.1).

    Tail bound (derived here): for |z| >= u >= 2|m|, |w| <= 1.5 |z|/c, so
    ln h(z) - ln h(w) = theta ln((1 + |w|^p)/(1 + |z|^p)) <= theta p ln max(1, 1.5/c) = Lambda, and the tail
    integral is <= e^((alpha-1)(Lambda + ln c)) P(|Z| > u), P(|Z| > u) = I_{1/(1+u^p)}(theta - 1/p, 1/p)."""

    kinks_z: tuple[float, ...] = (0.0,)

    def __init__(self, p: float, theta: float) -> None:
        self.p, self.theta = float(p), float(theta)

    def logh(self, z: Any) -> Any:
        arb = _flint().arb
        p, th = arb(self.p), arb(self.theta)
        logc = p.log() + th.lgamma() - arb(2).log() - (1 / p).lgamma() - (th - 1 / p).lgamma()
        if hasattr(z, "coeffs"):
            az = _abs_series(z)
            return logc - th * (1 + (p * az.log()).exp()).log()
        az = abs(z)
        lo, hi = az.lower(), az.upper()
        f_lo = arb(0) if not lo > 0 else arb(lo) ** p
        f_hi = arb(0) if not hi > 0 else arb(hi) ** p
        return logc - th * (1 + f_lo.union(f_hi)).log()

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any:
        arb = _flint().arb
        if not (u > 0 and u >= 2 * abs(m)):
            return arb("inf")
        p, th = arb(self.p), arb(self.theta)
        lam = th * p * _max1(arb(1.5) / arb(c)).log()
        tail = (1 / (1 + arb(u) ** p)).beta_lower(th - 1 / p, 1 / p, regularized=True)
        return _bounded_loss_tail(alpha, c, lam, tail)


class PolyPlaceRenyiForm:
    """h(z) of PolyPlace(1, alpha_pp) (002 Def. 6; :class:`verify.accounting.ballforms.PolyPlaceBall`); the branch
    points 0 and +-1/alpha_pp are kinks (ln h is C^1 but not C^2 at +-1/alpha_pp); a series across one raises.

    Tail bound (derived here): for |z| >= u >= max(2|m|, 2c/alpha_pp, 1/alpha_pp), |w| >= |z|/(2c) >= 1/alpha_pp, so both
    points are on the outer branch and ln h(z) - ln h(w) = (alpha_pp + 1) ln((1 + |w|)/(1 + |z|)) <=
    (alpha_pp + 1) ln max(1, 1.5/c) = Lambda; P(|Z| > u) = 2 C (1 + u)^(-alpha_pp) (u >= 1/alpha_pp)."""

    def __init__(self, alpha_pp: float) -> None:
        from .ballforms import PolyPlaceBall  # noqa: PLC0415 - ballforms imports verify.audit (heavier)

        self.a = float(alpha_pp)
        self.ball = PolyPlaceBall(self.a)
        self.kinks_z = (-1.0 / self.a, 0.0, 1.0 / self.a)

    def logh(self, z: Any) -> Any:
        if not hasattr(z, "coeffs"):
            return self.ball.logh(z)
        az = _abs_series(z)
        c0 = _const(az)
        b = self.ball
        if c0.upper() <= b.inv.lower():
            return b.log_inner + (b.alpha - 1) * (1 - az).log()
        if c0.lower() >= b.inv.upper():
            return b.log_outer - (b.alpha + 1) * (1 + az).log()
        raise ValueError("the PolyPlace log-density has no Taylor series across |z| = 1/alpha")

    def renyi_tail(self, alpha: float, c: float, m: float, u: float) -> Any:
        arb = _flint().arb
        if not (u > 0 and u >= 2 * abs(m) and u >= 2 * c / self.a and u >= 1 / self.a):
            return arb("inf")
        b = self.ball
        lam = (b.alpha + 1) * _max1(arb(1.5) / arb(c)).log()
        tail = 2 * b.tail_c * (1 + arb(u)) ** (-b.alpha)
        return _bounded_loss_tail(alpha, c, lam, tail)


def _max1(x: Any) -> Any:
    """max(1, x) for a ball x (both ends)."""
    arb = _flint().arb
    lo = x.lower() if x.lower() >= 1 else arb(1)
    hi = x.upper() if x.upper() >= 1 else arb(1)
    return arb(lo).union(arb(hi))


_BALL_FORMS: dict[type, Callable[[Any], Any]] = {}


def register_ball_form(cls: type, factory: Callable[[Any], Any]) -> None:
    """Register ``factory(noise) -> StandardBallForm`` for the exact class ``cls`` (a subclass of the
    core's :class:`~smoothsens_core.distributions.ContinuousDistribution`).  ValueError if ``cls`` is not
    such a class or ``factory`` is not callable."""
    from smoothsens_core.distributions import ContinuousDistribution  # noqa: PLC0415

    if not (isinstance(cls, type) and issubclass(cls, ContinuousDistribution)):
        raise ValueError(f"cls must be a subclass of ContinuousDistribution; got {cls!r}")
    if not callable(factory):
        raise ValueError(f"ball_law must be callable (noise -> ball form); got {factory!r}")
    _BALL_FORMS[cls] = factory


def ball_form_for(noise: Any) -> Any:
    """The registered ball form of ``noise``'s exact class; TypeError naming the class if none."""
    factory = _BALL_FORMS.get(type(noise))
    if factory is None:
        raise TypeError(f"no ball-arithmetic form is registered for {type(noise).__name__} "
                        f"(registered: {sorted(k.__name__ for k in _BALL_FORMS)}): the divergence cannot be certified")
    return factory(noise)


def _register_builtins() -> None:
    from smoothsens_core.distributions import (  # noqa: PLC0415
        ArsinhNormal,
        Gaussian,
        GenCauchy,
        PolyPlace,
        StudentT,
        UniformLogNormal,
    )

    register_ball_form(Gaussian, lambda noise: GaussianBallForm())
    register_ball_form(StudentT, lambda noise: StudentTBallForm(noise.nu))
    register_ball_form(GenCauchy, lambda noise: GenCauchyBallForm(noise.p, noise.theta))
    register_ball_form(PolyPlace, lambda noise: PolyPlaceRenyiForm(noise.alpha))
    register_ball_form(ArsinhNormal, lambda noise: ArsinhNormalBallForm(noise.sigma))
    register_ball_form(UniformLogNormal, lambda noise: UniformLogNormalBallForm(noise.sigma))


_register_builtins()


# ---------------------------------------------------------------------------------------------
# certified enclosure of D_alpha(Z || cZ + m)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DivergenceEnclosure:
    """D_alpha(P || Q) in [lower, upper] (binary64 rounded outwards); ``certified`` when both ends are
    rigorous (``reason`` otherwise).  ``integral_lower``/``integral_upper`` enclose integral p^alpha q^(1-alpha)."""

    alpha: float
    lower: float
    upper: float
    certified: bool
    reason: str = ""
    integral_lower: float = 0.0
    integral_upper: float = math.inf
    tail_bound: float = math.inf
    cells: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        c = "certified" if self.certified else f"NOT certified ({self.reason})"
        return f"D_{self.alpha:g} in [{self.lower:.12g}, {self.upper:.12g}] ({c})"


def _down(x: Any) -> float:
    """A binary64 <= every point of the arb ball x."""
    v = float(x.lower())
    return v if v <= x.lower() else math.nextafter(v, -math.inf)


def _up(x: Any) -> float:
    v = float(x.upper())
    return v if v >= x.upper() else math.nextafter(v, math.inf)


def _initial_edges(noise: Any, c: float, m: float, n: int) -> tuple[np.ndarray, float]:
    """Cell edges from the Gaussian-scored quantiles of P = law(Z) and Q = law(cZ + m) (float:
    placement only), and the window half-width u."""
    from scipy import special as sc  # noqa: PLC0415

    std = _standardised(noise)
    v = np.linspace(-9.0, 9.0, n)
    zq = np.asarray(std.ppf(sc.ndtr(v)), dtype=float)
    zq = zq[np.isfinite(zq)]
    edges = np.concatenate([zq, c * zq + m])
    u = float(np.max(np.abs(edges)))
    u = max(u, 2.0 * abs(m), 1.0)
    edges = np.concatenate([edges, [-u, u]])
    edges = np.unique(edges[(edges >= -u) & (edges <= u)])
    return edges, u


def _standardised(noise: Any) -> Any:
    import copy  # noqa: PLC0415

    std = copy.copy(noise)
    std.loc, std.scale = 0.0, 1.0
    return std


def renyi_pair_enclosure(noise: Any, alpha: float, *, shift: float, scale_ratio: float = 1.0,
                         rel_tol: float = 1e-9, max_cells: int = 6000, initial_cells: int = 400) -> DivergenceEnclosure:
    """A certified enclosure of D_alpha(law(Z) || law(c Z + m)), Z the standardised ``noise``
    (its loc and scale are ignored), c = ``scale_ratio`` > 0, m = ``shift`` (module docstring).

    For a mechanism f(x) + s Z with sensitivity Delta, shift = Delta/s; for a smooth-sensitivity mechanism
    f(x) + (B(x)/eta) Z with B e^gamma-smooth, the pairs are c in [e^-gamma, e^gamma], |m| <= eta.
    Not certified (upper = inf, reason given) when the family has no ball form or no tail bound, or python-flint
    is missing."""
    a = _check_alpha(alpha)
    m = float(shift)
    if not math.isfinite(m):
        raise ValueError(f"shift must be a finite real number; got shift={shift!r}")
    c = check_positive("scale_ratio", scale_ratio)
    check_positive("rel_tol", rel_tol)
    try:
        form = ball_form_for(noise)
        flint = _flint()
    except TypeError as exc:
        return DivergenceEnclosure(a, 0.0, math.inf, False, str(exc))
    arb, arb_series = flint.arb, flint.arb_series
    old_prec = flint.ctx.prec
    flint.ctx.prec = _PREC
    try:
        al = arb(a)
        cb, mb = arb(c), arb(m)
        logc = cb.log()

        def g_point(y: Any) -> Any:
            return al * form.logh(y) + (1 - al) * (form.logh((y - mb) / cb) - logc)

        def cell(lo: float, hi: float) -> Any:
            width = arb(hi) - arb(lo)
            mid_exact = (arb(lo) + arb(hi)) / 2  # exact: binary64 ends, 128-bit balls
            mid = (lo + hi) / 2
            # a radius rounded up so that the ball holds [lo, hi] whatever the rounding of mid and hi - lo
            rad = max(hi - mid, mid - lo)
            rad = math.nextafter(math.nextafter(rad, math.inf), math.inf)
            ball = arb(mid, rad)
            try:
                # centred forms against the dependency problem (alpha ln p and (1 - alpha) ln q nearly
                # cancel): g'(I) in g'(y0) + g''(I)(I - y0), g(I) in g(y0) + g'(I)(I - y0)
                g_pt = (al * form.logh(arb_series([mid_exact, 1], prec=3))
                        + (1 - al) * (form.logh((arb_series([mid_exact, 1], prec=3) - mb) / cb) - logc)).coeffs()
                ys = arb_series([ball, 1], prec=3)
                g_ball = (al * form.logh(ys) + (1 - al) * (form.logh((ys - mb) / cb) - logc)).coeffs()
                g_pt += [arb(0)] * (3 - len(g_pt))
                g_ball += [arb(0)] * (3 - len(g_ball))
                dev = arb(0, rad)
                g1 = g_pt[1] + 2 * g_ball[2] * dev
                g0 = g_pt[0] + g1 * dev
                second = g0.exp() * (2 * g_ball[2] + g1 * g1)
                val = width * g_pt[0].exp() + width ** 3 / 24 * second
                if val.is_finite():
                    return val
            except (ValueError, ZeroDivisionError, ArithmeticError):
                pass
            val = width * g_point(ball).exp()
            return val

        edges, u = _initial_edges(noise, c, m, initial_cells)
        kinks = [k for k in form.kinks_z] + [c * k + m for k in form.kinks_z]
        edges = np.unique(np.concatenate([edges, [k for k in kinks if -u < k < u]]))
        cells = [(float(lo), float(hi)) for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
        vals = [cell(lo, hi) for lo, hi in cells]
        state: dict[str, Any] = {"cells": cells, "vals": vals, "n": len(vals)}

        def refine(budget: int) -> None:
            """Bisect the cells with the widest enclosures until the window sum is within rel_tol or
            ``budget`` cell evaluations are spent."""
            used = 0
            while used < budget:
                cl, vl = state["cells"], state["vals"]
                total = sum(vl, arb(0))
                # compared as balls: a radius of 1e600 is inf in binary64, and inf <= inf would stop here
                if total.is_finite() and total.lower() > 0 and 2 * arb(total.rad()) <= arb(rel_tol) * total.lower():
                    return
                # a cell whose ball is not finite (the integrand overflowed on a wide cell) is split first
                rad = np.array([float(v.rad()) if v.is_finite() else math.inf for v in vl])
                order = np.argsort(rad)[::-1]
                n_split = max(1, min(len(order) // 4, (budget - used) // 2))
                split = {int(i) for i in order[:n_split] if rad[int(i)] > 0}
                if not split:
                    return
                new_cells, new_vals = [], []
                for i, (lo, hi) in enumerate(cl):
                    mid = (lo + hi) / 2
                    if i in split and lo < mid < hi:
                        for piece in ((lo, mid), (mid, hi)):
                            new_cells.append(piece)
                            new_vals.append(cell(*piece))
                            used += 1
                    else:
                        new_cells.append((lo, hi))
                        new_vals.append(vl[i])
                state["cells"], state["vals"] = new_cells, new_vals
                state["n"] += used

        refine(max_cells // 3)
        tail = form.renyi_tail(a, c, m, u)
        # grow the window while the tail bound is not small against the window integral (the integrand
        # p^alpha q^(1-alpha) may sit far from both laws' bulk, near (1 - alpha) m for a Gaussian shift)
        for _ in range(8):
            window = sum(state["vals"], arb(0))
            if tail is not None and tail.is_finite() and window.is_finite() \
                    and window.lower() > 0 and tail.upper() <= rel_tol * window.lower() / 4:
                break
            new_u = 2.0 * u
            ext = np.linspace(u, new_u, 41)
            extra = [(float(lo), float(hi)) for lo, hi in zip(ext[:-1], ext[1:], strict=True)]
            extra += [(-hi, -lo) for lo, hi in extra]
            state["cells"] = state["cells"] + extra
            state["vals"] = state["vals"] + [cell(lo, hi) for lo, hi in extra]
            u = new_u
            refine(max_cells // 12)
            tail = form.renyi_tail(a, c, m, u)
        refine(max_cells // 3)
        cells, vals = state["cells"], state["vals"]
        tail_ok = tail is not None and tail.is_finite()
        total = sum(vals, arb(0))
        if not total.is_finite():
            return DivergenceEnclosure(a, 0.0, math.inf, False, "the window integral could not be enclosed "
                                       "(non-finite ball)", cells=len(cells))
        lo_int = total.lower()
        if not lo_int > 0:
            return DivergenceEnclosure(a, 0.0, math.inf, False, "the window integral's lower end is not > 0",
                                       cells=len(cells))
        d_lo = lo_int.log() / (al - 1)
        if not tail_ok:
            return DivergenceEnclosure(a, _down(d_lo), math.inf, False,
                                       f"no certified tail bound for {type(noise).__name__} beyond |z| = {u:g}",
                                       integral_lower=_down(lo_int), cells=len(cells))
        hi_int = total.upper() + tail.upper()
        d_hi = arb(hi_int).log() / (al - 1)
        return DivergenceEnclosure(a, _down(d_lo), _up(d_hi), True, "", _down(lo_int), _up(arb(hi_int)),
                                   _up(tail), len(cells),
                                   (f"window |z| <= {u:.6g}; midpoint rule with arb remainder bounds, "
                                    f"{len(cells)} cells",))
    finally:
        flint.ctx.prec = old_prec


def rdp_of_pair(noise: Any, *, shift: float, scale_ratio: float = 1.0,
                orders: Iterable[float] = (2.0, 4.0, 8.0, 16.0), label: str = "", **kwargs: Any) -> RdpCurve:
    """The RDP curve of a declared pair of the standardised ``noise`` in both orientations: at each order the
    larger certified upper end of D_alpha(Z || c Z + m) and D_alpha(c Z + m || Z) = D_alpha(Z || (Z - m)/c)
    (affine invariance; symmetric families, so -m/c is taken as |m|/c), c = ``scale_ratio``, m = ``shift``
    (:func:`renyi_pair_enclosure`, ``kwargs`` passed on).  For a smooth-sensitivity mechanism f(x) + (B(x)/eta) Z
    the pair is m = eta d, c = e^(gamma d) (the declared worst pair, as for the privacy curves).  A family without
    a certified route (no ball form, no tail bound) gives a curve with ``certified`` False and taus inf."""
    encs: list[DivergenceEnclosure] = []
    taus: list[float] = []
    for a in orders:
        pair = (renyi_pair_enclosure(noise, a, shift=shift, scale_ratio=scale_ratio, **kwargs),
                renyi_pair_enclosure(noise, a, shift=abs(shift) / scale_ratio, scale_ratio=1.0 / scale_ratio,
                                     **kwargs))
        encs.extend(pair)
        taus.append(max(e.upper for e in pair) if all(e.certified for e in pair) else math.inf)
    certified = all(e.certified for e in encs)
    why = "; ".join(sorted({e.reason for e in encs if not e.certified}))
    return RdpCurve(tuple(orders), tuple(taus), certified,
                    label or f"{type(noise).__name__} pair m={shift:g}, c={scale_ratio:g}" + (f" ({why})" if why else ""))


# ---------------------------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------------------------
def _cks_log_delta(alpha: Any, tau: Any, eps: Any) -> Any:
    """ln delta of CKS 2020 Prop. 12: (alpha-1)(tau-eps) - ln(alpha-1) + alpha ln(1 - 1/alpha) (mpmath)."""
    return (alpha - 1) * (tau - eps) - mpmath.log(alpha - 1) + alpha * mpmath.log(1 - 1 / alpha)


def _round_up(x: Any) -> float:
    v = float(x)
    return v if mpmath.mpf(v) >= x else math.nextafter(v, math.inf)


def _round_down(x: Any) -> float:
    v = float(x)
    return v if mpmath.mpf(v) <= x else math.nextafter(v, -math.inf)


def rdp_to_delta(orders: Iterable[float], taus: Iterable[float], eps: float) -> tuple[float, float]:
    """(delta, alpha): the smallest CKS 2020 Prop. 12 delta over the given orders, for a mechanism with
    D_alpha <= tau at each (alpha, tau); delta is evaluated in 50-digit mpmath and rounded up, capped at 1."""
    eps = check_greater("eps", eps, 0.0, strict=False)
    best, best_a = mpmath.mpf(1), math.nan
    with mpmath.workdps(50):
        for a, t in zip(orders, taus, strict=True):
            a = _check_alpha(a)
            if not math.isfinite(t):
                continue
            ld = _cks_log_delta(mpmath.mpf(a), mpmath.mpf(t), mpmath.mpf(eps))
            d = mpmath.exp(ld)
            if d < best:
                best, best_a = d, a
        return min(1.0, _round_up(best)), best_a


def rdp_to_epsilon(orders: Iterable[float], taus: Iterable[float], delta: float) -> tuple[float, float]:
    """(eps, alpha): the smallest eps = tau + ln((alpha-1)/alpha) - (ln delta + ln alpha)/(alpha - 1) over the
    orders (Balle et al. 2020, Thm. 21; the CKS 2020 Prop. 12 bound solved for eps), rounded up, floored at 0."""
    delta = check_probability("delta", delta)
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1); got delta={delta!r}")
    best, best_a = mpmath.inf, math.nan
    with mpmath.workdps(50):
        for a, t in zip(orders, taus, strict=True):
            a = _check_alpha(a)
            if not math.isfinite(t):
                continue
            A = mpmath.mpf(a)
            e = mpmath.mpf(t) + mpmath.log((A - 1) / A) - (mpmath.log(delta) + mpmath.log(A)) / (A - 1)
            if e < best:
                best, best_a = e, a
        if best == mpmath.inf:
            return math.inf, best_a
        return max(0.0, _round_up(best)), best_a


def zcdp_to_delta(rho: float, eps: float) -> tuple[float, float]:
    """(delta, alpha): rho-zCDP gives (eps, delta)-DP with delta = inf_{alpha > 1} exp((alpha-1)(alpha rho - eps))
    /(alpha - 1) (1 - 1/alpha)^alpha (Canonne, Kamath & Steinke 2020, Cor. 13).  The infimum is searched in
    binary64 (a grid, then golden-section); the value at the chosen alpha is recomputed in 50-digit mpmath and
    rounded up, so it is a valid delta whatever the search's accuracy."""
    rho = check_positive("rho", rho)
    eps = check_greater("eps", eps, 0.0, strict=False)

    def f(a: float) -> float:
        return (a - 1) * (a * rho - eps) - math.log(a - 1) + a * math.log1p(-1 / a)

    grid = 1.0 + np.logspace(-6, 6, 600)
    vals = np.array([f(a) for a in grid])
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    gr = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - gr * (hi - lo), lo + gr * (hi - lo)
    for _ in range(200):
        if f(x1) < f(x2):
            hi = x2
        else:
            lo = x1
        x1, x2 = hi - gr * (hi - lo), lo + gr * (hi - lo)
    a = 0.5 * (lo + hi)
    with mpmath.workdps(50):
        ld = _cks_log_delta(mpmath.mpf(a), mpmath.mpf(a) * mpmath.mpf(rho), mpmath.mpf(eps))
        return min(1.0, _round_up(mpmath.exp(ld))), a


def zcdp_rho_upper(orders: Iterable[float], taus: Iterable[float], *, pure_eps: float | None = None,
                   ) -> tuple[float, float]:
    """(rho, alpha_max): an upper bound on sup D_alpha/alpha from upper bounds tau_i >= D_{alpha_i} at increasing
    orders, by the monotonicity of D_alpha in alpha (van Erven & Harremoës 2014, "Rényi divergence and
    Kullback-Leibler divergence", Thm. 3): on (1, alpha_0], D_alpha/alpha <= tau_0; on [alpha_i, alpha_{i+1}],
    D_alpha/alpha <= tau_{i+1}/alpha_i.  That covers (1, alpha_max]; beyond, only a pure-DP bound eps
    (D_alpha <= eps for all alpha) gives D_alpha/alpha <= eps/alpha_max: with ``pure_eps`` the bound holds for
    every alpha > 1 (alpha_max returned as inf), without it only on (1, alpha_max]."""
    pairs = sorted(zip(orders, taus, strict=True))
    if not pairs:
        raise ValueError("orders must not be empty")
    for a, _ in pairs:
        _check_alpha(a)
    rho = pairs[0][1]
    for (a0, _), (_, t1) in zip(pairs[:-1], pairs[1:], strict=True):
        rho = max(rho, t1 / a0)
    a_max = pairs[-1][0]
    if pure_eps is not None:
        rho = max(rho, check_positive("pure_eps", pure_eps) / a_max)
        return _round_up(mpmath.mpf(rho) * (1 + mpmath.mpf(2) ** -50)), math.inf
    return _round_up(mpmath.mpf(rho) * (1 + mpmath.mpf(2) ** -50)), a_max


# ---------------------------------------------------------------------------------------------
# the curve object
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RdpCurve:
    """Upper bounds tau(alpha) >= D_alpha at a set of orders: a frozen, composable RDP guarantee.

    ``certified`` is True when every tau is a certified upper end (closed form or ball-arithmetic
    enclosure); a composition is certified when all its parts are.  ``label`` says what it bounds."""

    orders: tuple[float, ...]
    taus: tuple[float, ...]
    certified: bool = True
    label: str = ""

    def __post_init__(self) -> None:
        if len(self.orders) != len(self.taus) or not self.orders:
            raise ValueError(f"orders and taus must be non-empty and of equal length; got {len(self.orders)} "
                             f"and {len(self.taus)}")
        for a in self.orders:
            _check_alpha(a)
        for t in self.taus:
            if not (t >= 0):
                raise ValueError(f"taus must be >= 0 (or inf); got tau={t!r}")

    @classmethod
    def gaussian(cls, sigma: float, sensitivity: float = 1.0,
                 orders: tuple[float, ...] = DEFAULT_ORDERS) -> RdpCurve:
        """alpha Delta^2/(2 sigma^2) at each order (Mironov 2017, Prop. 7)."""
        return cls(tuple(orders), tuple(renyi_gaussian(a, sensitivity, sigma) for a in orders), True,
                   f"Gaussian sigma={sigma:g}, Delta={sensitivity:g}")

    @classmethod
    def laplace(cls, b: float, sensitivity: float = 1.0, orders: tuple[float, ...] = DEFAULT_ORDERS) -> RdpCurve:
        """Mironov 2017, Prop. 6 at each order (binary64 rounding: each tau is nudged up by 4 ulp)."""
        taus = tuple(_nudge_up(renyi_laplace(a, sensitivity, b)) for a in orders)
        return cls(tuple(orders), taus, True, f"Laplace b={b:g}, Delta={sensitivity:g}")

    @classmethod
    def from_enclosures(cls, encs: Iterable[DivergenceEnclosure], label: str = "") -> RdpCurve:
        """The upper ends of certified enclosures (a not-certified one makes the curve not certified)."""
        encs = list(encs)
        return cls(tuple(e.alpha for e in encs), tuple(e.upper for e in encs), all(e.certified for e in encs), label)

    def compose(self, other: RdpCurve) -> RdpCurve:
        """Adaptive composition, order by order on the common orders (Mironov 2017, Prop. 1)."""
        common = sorted(set(self.orders) & set(other.orders))
        if not common:
            raise ValueError("the curves share no order: they cannot be composed")
        mine, theirs = dict(zip(self.orders, self.taus, strict=True)), dict(zip(other.orders, other.taus, strict=True))
        return RdpCurve(tuple(common), tuple(_nudge_up(mine[a] + theirs[a]) for a in common),
                        self.certified and other.certified, f"({self.label}) + ({other.label})")

    def __add__(self, other: RdpCurve) -> RdpCurve:
        return self.compose(other)

    def times(self, k: int) -> RdpCurve:
        """k-fold composition: k tau(alpha) (Mironov 2017, Prop. 1)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be an integer >= 1; got k={k!r}")
        return RdpCurve(self.orders, tuple(_nudge_up(k * t) for t in self.taus), self.certified,
                        f"{k} x ({self.label})")

    def delta(self, eps: float) -> float:
        """The CKS 2020 Prop. 12 delta(eps), minimised over the orders (rounded up)."""
        return rdp_to_delta(self.orders, self.taus, eps)[0]

    def epsilon(self, delta: float) -> float:
        """The smallest eps at delta over the orders (Balle et al. 2020, Thm. 21; rounded up)."""
        return rdp_to_epsilon(self.orders, self.taus, delta)[0]

    def rho(self, pure_eps: float | None = None) -> tuple[float, float]:
        """:func:`zcdp_rho_upper` of the curve: (rho, alpha_max of its validity)."""
        return zcdp_rho_upper(self.orders, self.taus, pure_eps=pure_eps)


def _nudge_up(x: float) -> float:
    for _ in range(4):
        x = math.nextafter(x, math.inf)
    return x
