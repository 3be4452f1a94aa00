"""One independent mpmath reference per core noise family, written from the papers only.

Every density here is typed from the printed formula (including the printed normaliser), never from
:mod:`smoothsens_core`, so that checking the core against it (and quadrature of it) tests both the paper
and the implementation.  Densities, in x with z = (x - loc)/scale:

* Laplace Lap(a, b), 004 Sec. 2.1:         h(y) = exp(-|y - a|/b) / (2b).  Mean a, variance 2 b^2.
* Gaussian N(a, sigma^2) (Gaussian mechanism): h(y) = exp(-((y - a)/sigma)^2/2) / (sigma sqrt(2 pi)).
                                           Upper tail P[Z > u] = erfc(u/sqrt 2)/2; mean a, variance sigma^2.
* GenCauchy(a, b, p, theta), 004 Sec. 2.1:  h(y) = (1/b) c_{p,theta} / (1 + |(y-a)/b|^p)^theta,  p theta > 1,
                                           c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)).
* Student T_nu(a, tau), 004 Sec. 2.1:      h(y) = c_nu / (sqrt(nu) tau (1 + ((y-a)/tau)^2/nu)^((nu+1)/2)),
                                           c_nu = Gamma((nu+1)/2) / (sqrt(pi) Gamma(nu/2)); variance tau^2 nu/(nu-2).
* PolyPlace(s, alpha) (+ loc), 002 Def. 6:  N (alpha-1)(1 - |x|/s)^(alpha-1) if |x|/s < 1/alpha, else
                                           N (alpha+1)(1 - 1/alpha^2)^alpha (1 + |x|/s)^(-alpha-1),
                                           N = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s).
* PowerLaw(k, l), 000 Thm. 1:              h(z) = 1/(C (|z|^k + l)),  C = 2 l^(1/k - 1) (pi/k)/sin(pi/k).
* HalfPowerLaw, 000 Lemma 2:               h+(z) = 2 h(z) on z >= 0, h-(z) = 2 h(z) on z < 0.
* OneSidedExponential, 003 Def. V.3:       e^(-z) on z >= 0 (side +1) or e^(z) on z <= 0 (side -1).
* AsymmetricGeometric, 003 Def. VIII.1:    decreasing: (1 - e^-eps) e^(-(k-c) eps) for c <= k < n, e^(-(n-c) eps) at
                                           k = n (the atom case takes precedence; read additively the printed cases
                                           sum to more than 1); increasing mirrored on {0, ..., c}.
* TwoSidedGeometric, 003 App. A:           (1 - r)/(1 + r) r^|k - loc|,  r = e^(-eps/Delta).  The printed
                                           normaliser (1 - e^-eps)/(1 + e^-eps) is kept as
                                           :func:`two_sided_geometric_normaliser_printed` (right only for Delta = 1).

Tails are computed from the side where they are small (``sf`` of a symmetric family is its upper tail
P[Z > u] written directly; the lower tail is its mirror), so ``sf``/``interval_mass`` lose no digits to
1 - cdf.  Quadrature (tanh-sinh, :func:`integrate_density`) is split at the location, at +-scale and at
the kinks, where the integrands are not analytic.  Nothing here sets ``mp.dps``: every function works
at the caller's precision (wrap calls in ``mpmath.workdps(...)``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import mpmath

from smoothsens_core import distributions as _core

from . import bun_steinke as _bs

__all__ = [
    "ReferenceDistribution",
    "REFERENCES",
    "reference_for",
    "integrate_density",
    "quad_relative",
    "laplace_pdf",
    "gencauchy_normaliser",
    "gencauchy_log_normaliser",
    "gencauchy_pdf",
    "gencauchy4_cdf_printed",
    "student_t_normaliser",
    "student_t_pdf",
    "polyplace_normaliser",
    "polyplace_pdf",
    "polyplace_variance_printed",
    "powerlaw_normaliser",
    "two_sided_geometric_normaliser_printed",
]

_mpf = mpmath.mpf


# =============================================================================================
# The printed formulas
# =============================================================================================


def laplace_pdf(y: Any, loc: Any = 0, scale: Any = 1) -> mpmath.mpf:
    """004 Sec. 2.1: exp(-|y - a|/b)/(2b)."""
    y, loc, scale = _mpf(y), _mpf(loc), _mpf(scale)
    return mpmath.exp(-abs(y - loc) / scale) / (2 * scale)


def gencauchy_normaliser(p: Any, theta: Any) -> mpmath.mpf:
    """004 Sec. 2.1, as printed: c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p))."""
    p, theta = _mpf(p), _mpf(theta)
    return p * mpmath.gamma(theta) / (2 * mpmath.gamma(1 / p) * mpmath.gamma(theta - 1 / p))


def gencauchy_log_normaliser(p: Any, theta: Any) -> mpmath.mpf:
    """ln c_{p,theta} = ln p + ln Gamma(theta) - ln 2 - ln Gamma(1/p) - ln Gamma(theta - 1/p) (004 Sec. 2.1)."""
    p, t = _mpf(p), _mpf(theta)
    return mpmath.log(p) + mpmath.loggamma(t) - mpmath.log(2) - mpmath.loggamma(1 / p) - mpmath.loggamma(t - 1 / p)


def gencauchy_pdf(y: Any, p: Any, theta: Any = 1, loc: Any = 0, scale: Any = 1) -> mpmath.mpf:
    """004 Sec. 2.1: (1/b) c_{p,theta} / (1 + |(y - a)/b|^p)^theta."""
    y, p, theta = _mpf(y), _mpf(p), _mpf(theta)
    loc, scale = _mpf(loc), _mpf(scale)
    z = abs((y - loc) / scale)
    return gencauchy_normaliser(p, theta) / (scale * (1 + z**p) ** theta)


def gencauchy4_cdf_printed(q: Any) -> mpmath.mpf:
    """004 App. C.1 exactly as printed: F(q) = 1/2 -+ (sqrt2/pi) H(|q|) (q < 0 / otherwise),
    H(q) = (1/(4 sqrt2)) (ln((q^2 + sqrt2 q + 1)/(q^2 - sqrt2 q + 1)) + 2 atan(1 + sqrt2 q) - 2 atan(1 - sqrt2 q))."""
    q = _mpf(q)
    r2 = mpmath.sqrt(2)

    def big_h(u: mpmath.mpf) -> mpmath.mpf:
        return (
            mpmath.log((u**2 + r2 * u + 1) / (u**2 - r2 * u + 1)) + 2 * mpmath.atan(1 + r2 * u) - 2 * mpmath.atan(1 - r2 * u)
        ) / (4 * r2)

    if q < 0:
        return _mpf(1) / 2 - r2 / mpmath.pi * big_h(abs(q))
    return _mpf(1) / 2 + r2 / mpmath.pi * big_h(q)


def student_t_normaliser(nu: Any) -> mpmath.mpf:
    """004 Sec. 2.1, as printed: c_nu = Gamma((nu+1)/2) / (sqrt(pi) Gamma(nu/2))."""
    nu = _mpf(nu)
    return mpmath.gamma((nu + 1) / 2) / (mpmath.sqrt(mpmath.pi) * mpmath.gamma(nu / 2))


def student_t_pdf(y: Any, nu: Any, loc: Any = 0, scale: Any = 1) -> mpmath.mpf:
    """004 Sec. 2.1: c_nu / (sqrt(nu) tau (1 + ((y - a)/tau)^2/nu)^((nu + 1)/2))."""
    y, nu, loc, scale = _mpf(y), _mpf(nu), _mpf(loc), _mpf(scale)
    z = (y - loc) / scale
    return student_t_normaliser(nu) / (mpmath.sqrt(nu) * scale * (1 + z * z / nu) ** ((nu + 1) / 2))


def polyplace_normaliser(s: Any, alpha: Any) -> mpmath.mpf:
    """002 Def. 6, as printed: N_{s,alpha} = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s)."""
    s, alpha = _mpf(s), _mpf(alpha)
    return alpha / (2 * (2 * ((alpha - 1) / alpha) ** alpha + alpha - 1) * s)


def polyplace_pdf(x: Any, s: Any, alpha: Any, loc: Any = 0) -> mpmath.mpf:
    """002 Def. 6 (shifted by loc), the two branches as printed."""
    x, s, alpha, loc = _mpf(x), _mpf(s), _mpf(alpha), _mpf(loc)
    n = polyplace_normaliser(s, alpha)
    r = abs(x - loc) / s
    if r < 1 / alpha:
        return n * (alpha - 1) * (1 - r) ** (alpha - 1)
    return n * (alpha + 1) * (1 - 1 / alpha**2) ** alpha * (1 + r) ** (-alpha - 1)


def polyplace_variance_printed(s: Any, alpha: Any) -> mpmath.mpf:
    """002 Lemma 13 exactly as printed (statement):
    2 s^2 (1/a + 1)^(-a) ((19 a^2 + 5)(1 - 1/a^2)^a + (a - 2)(a - 1)^2 (1/a + 1)^a)
      / ((2 ((a - 1)/a)^a + a - 1)(a^4 - 5 a^2 + 4)).
    ERRATUM: finite (even negative) for 1 < a < 2, where the variance is infinite; see
    :meth:`PolyPlaceReference.variance`."""
    s, a = _mpf(s), _mpf(alpha)
    num = (1 / a + 1) ** (-a) * ((19 * a**2 + 5) * (1 - 1 / a**2) ** a + (a - 2) * (a - 1) ** 2 * (1 / a + 1) ** a)
    den = (2 * ((a - 1) / a) ** a + a - 1) * (a**4 - 5 * a**2 + 4)
    return 2 * s**2 * num / den


def powerlaw_normaliser(k: Any, l: Any) -> mpmath.mpf:
    """C = int_R dz/(|z|^k + l) = 2 l^(1/k - 1) (pi/k)/sin(pi/k) for the density h(z) = 1/(C(|z|^k + l)) of
    000 Thm. 1 (from int_0^inf z^(s-1)/(z^k + l) dz = l^(s/k - 1) (pi/k)/sin(pi s/k), 0 < s < k, at s = 1)."""
    k, l = _mpf(k), _mpf(l)
    return 2 * l ** (1 / k - 1) * (mpmath.pi / k) / mpmath.sin(mpmath.pi / k)


def _powerlaw_abs_moment(s: Any, k: Any, l: Any) -> mpmath.mpf:
    """E|Z|^s = 2 int_0^inf z^s dz / (C (z^k + l)) = 2 l^((s+1)/k - 1) (pi/k)/sin(pi (s+1)/k) / C  (s + 1 < k)."""
    s, k, l = _mpf(s), _mpf(k), _mpf(l)
    return 2 * l ** ((s + 1) / k - 1) * (mpmath.pi / k) / mpmath.sin(mpmath.pi * (s + 1) / k) / powerlaw_normaliser(k, l)


def two_sided_geometric_normaliser_printed(eps: Any) -> mpmath.mpf:
    """003 App. A as printed: (1 - e^-eps)/(1 + e^-eps).  ERRATUM: for the printed kernel exp(-eps|k|/Delta) the
    pmf sums to one only for Delta = 1; the correct normaliser is (1 - r)/(1 + r) with r = e^(-eps/Delta)."""
    eps = _mpf(eps)
    return -mpmath.expm1(-eps) / (1 + mpmath.exp(-eps))


# =============================================================================================
# Quadrature
# =============================================================================================


def quad_relative(fn: Callable[[Any], Any], pts: list[Any]) -> mpmath.mpf:
    """mpmath.quad of fn over the finite points ``pts``, to *relative* precision.

    mpmath.quad stops on an absolute error goal of about mp.eps, so a tail value of 1e-69 would come
    back with only a few correct digits; dividing fn by a typical magnitude S (max |fn| at the
    points and the midpoint, times the length) makes the goal relative.
    """
    probes = list(pts) + [(pts[0] + pts[-1]) / 2]
    mags = [abs(fn(t)) for t in probes]
    big = max((m for m in mags if mpmath.isfinite(m)), default=_mpf(0))
    scale = big * abs(pts[-1] - pts[0]) if big > 0 else _mpf(1)
    return scale * mpmath.quad(lambda t: fn(t) / scale, pts)


def integrate_density(density: Callable[[Any], Any], a: Any, b: Any, *, loc: Any, breaks: tuple[Any, ...],
                      weight: Callable[[Any], Any] | None = None) -> mpmath.mpf:
    """int_a^b density(y) [* weight(y)] dy by tanh-sinh quadrature split at ``breaks`` (sorted, containing
    points on both sides of ``loc``).

    An infinite piece [c, inf) (c > loc) is mapped to (0, 1] by y = loc + (c - loc)/u^2,
    dy = 2 (c - loc)/u^3 du (and (-inf, c] likewise), which turns an algebraic tail y^(-k) into the power
    u^(2k-3) (analytic for the half-integer k = 1.5 of GenCauchy(1.5, 1)); a direct [c, inf) quadrature,
    or the map y = c/w, loses 8 of 40 digits there.  Each piece is integrated to relative precision
    (see :func:`quad_relative`).
    """
    a, b = _mpf(a), _mpf(b)
    loc = _mpf(loc)

    def g(y: Any) -> Any:
        return density(y) if weight is None else density(y) * weight(y)

    inner = [_mpf(t) for t in breaks if a < t < b]
    pts = ([] if mpmath.isinf(a) else [a]) + inner + ([] if mpmath.isinf(b) else [b])
    total = _mpf(0)
    for lo, hi in zip(pts[:-1], pts[1:], strict=True):
        total += quad_relative(g, [lo, hi])
    if mpmath.isinf(a):
        d = loc - pts[0]  # > 0: breaks include a point below loc

        def lower_tail(u: Any) -> Any:
            return g(loc - d / u**2) * 2 * d / u**3 if u > 0 else _mpf(0)

        total += quad_relative(lower_tail, [_mpf(0), _mpf(1)])
    if mpmath.isinf(b):
        d = pts[-1] - loc

        def upper_tail(u: Any) -> Any:
            return g(loc + d / u**2) * 2 * d / u**3 if u > 0 else _mpf(0)

        total += quad_relative(upper_tail, [_mpf(0), _mpf(1)])
    return total


# =============================================================================================
# The reference objects
# =============================================================================================


class ReferenceDistribution:
    """mpmath reference of one core distribution instance (same loc, scale and shape).

    Continuous families implement ``_logpdf_z`` (standardised log-density), ``_pdf`` and either
    ``_sf_pos`` (symmetric: P[Z > u] for u >= 0) or ``_cdf_z``/``_sf_z``; everything is evaluated at the
    caller's working precision.  ``kinks`` are in x units.
    """

    name: str = "distribution"
    discrete: bool = False
    symmetric: bool = False

    def __init__(self, loc: Any = 0.0, scale: Any = 1.0) -> None:
        self.loc = loc
        self.scale = scale

    # -- standardisation ------------------------------------------------------------------
    def _z(self, x: Any) -> mpmath.mpf:
        return (_mpf(x) - _mpf(self.loc)) / _mpf(self.scale)

    def _kinks_z(self) -> tuple[float, ...]:
        return (0.0,)

    def kinks(self) -> tuple[float, ...]:
        """Points (x units) where ln pdf may fail to be differentiable: the centre (where |z| enters) and
        any branch point of the density."""
        return tuple(self.loc + self.scale * k for k in self._kinks_z())

    # -- density ----------------------------------------------------------------------------
    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:  # pragma: no cover - abstract
        raise NotImplementedError

    def logpdf(self, x: Any) -> mpmath.mpf:
        """ln h(x) = ln h_std((x - loc)/scale) - ln scale."""
        return self._logpdf_z(self._z(x)) - mpmath.log(_mpf(self.scale))

    def pdf(self, x: Any) -> mpmath.mpf:
        return mpmath.exp(self.logpdf(x))

    # -- probabilities ----------------------------------------------------------------------
    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:  # pragma: no cover - abstract (symmetric families)
        raise NotImplementedError

    def _sf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        if mpmath.isinf(z):
            return _mpf(0) if z > 0 else _mpf(1)
        return self._sf_pos(z) if z >= 0 else 1 - self._sf_pos(-z)

    def _cdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return self._sf_z(-z)  # symmetric: F(z) = P[Z > -z]

    def cdf(self, x: Any) -> mpmath.mpf:
        """P[X <= x]."""
        return self._cdf_z(self._z(x))

    def sf(self, x: Any) -> mpmath.mpf:
        """P[X > x], written directly in the upper tail (no 1 - cdf)."""
        return self._sf_z(self._z(x))

    def interval_mass(self, lo: Any, hi: Any) -> mpmath.mpf:
        """P[lo < X < hi] (lo may be -inf, hi +inf): a difference of upper tails right of the centre, of
        lower tails left of it, and 1 - both tails across it, so no tail is lost to 1 - cdf."""
        zl, zh = self._z(lo), self._z(hi)
        if self.symmetric:
            sp = self._sf_pos
            tail = lambda u: _mpf(0) if mpmath.isinf(u) else sp(u)  # noqa: E731
            if zl >= 0:
                return tail(zl) - tail(zh)
            if zh <= 0:
                return tail(-zh) - tail(-zl)
            return 1 - tail(-zl) - tail(zh)
        if zl >= 0:
            return self._sf_z(zl) - self._sf_z(zh)
        if zh <= 0:
            return self._cdf_z(zh) - self._cdf_z(zl)
        return 1 - self._cdf_z(zl) - self._sf_z(zh)

    # -- moments (x units) -------------------------------------------------------------------
    def _mean_z(self) -> mpmath.mpf:  # pragma: no cover - abstract
        raise NotImplementedError

    def _variance_z(self) -> mpmath.mpf:  # pragma: no cover - abstract
        raise NotImplementedError

    def mean(self) -> mpmath.mpf:
        """E[X] (mpmath.nan where the mean does not exist, +-inf where it diverges to one side)."""
        m = self._mean_z()
        return _mpf(self.loc) + _mpf(self.scale) * m if mpmath.isfinite(m) else m

    def variance(self) -> mpmath.mpf:
        """Var[X] (mpmath.inf where the variance does not exist)."""
        v = self._variance_z()
        return _mpf(self.scale) ** 2 * v if mpmath.isfinite(v) else mpmath.inf

    # -- quadrature ---------------------------------------------------------------------------
    def breaks(self) -> tuple[Any, ...]:
        """Split points of quadrature: the location, loc +- scale and the kinks (sorted, x units)."""
        pts = {float(self.loc), float(self.loc) - float(self.scale), float(self.loc) + float(self.scale), *self.kinks()}
        return tuple(sorted(pts))

    def integrate(self, a: Any, b: Any, weight: Callable[[Any], Any] | None = None) -> mpmath.mpf:
        """int_a^b pdf(y) [* weight(y)] dy by :func:`integrate_density` split at :meth:`breaks`."""
        return integrate_density(self.pdf, a, b, loc=self.loc, breaks=self.breaks(), weight=weight)

    def describe(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<reference {self.describe()}>"


class LaplaceReference(ReferenceDistribution):
    """Lap(a, b), 004 Sec. 2.1: h(y) = e^(-|y-a|/b)/(2b); P[Z > u] = e^(-u)/2 (u >= 0); mean a, variance 2 b^2."""

    name = "Laplace"
    symmetric = True

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return -mpmath.log(2) - abs(z)

    def pdf(self, x: Any) -> mpmath.mpf:
        return laplace_pdf(x, self.loc, self.scale)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        return mpmath.exp(-_mpf(u)) / 2

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0)

    def _variance_z(self) -> mpmath.mpf:
        return _mpf(2)


class GaussianReference(ReferenceDistribution):
    """N(a, sigma^2), typed from the definition: h(z) = exp(-z^2/2)/sqrt(2 pi) (z = (y - a)/sigma);
    P[Z > u] = erfc(u/sqrt(2))/2 (u >= 0, computed directly: no 1 - cdf); mean a, variance sigma^2."""

    name = "Gaussian"
    symmetric = True

    def _kinks_z(self) -> tuple[float, ...]:
        return ()  # ln h = -z^2/2 - ln sqrt(2 pi) is smooth

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return -_mpf(z) ** 2 / 2 - mpmath.log(2 * mpmath.pi) / 2

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        return mpmath.erfc(_mpf(u) / mpmath.sqrt(2)) / 2

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0)

    def _variance_z(self) -> mpmath.mpf:
        return _mpf(1)


class GenCauchyReference(ReferenceDistribution):
    """GenCauchy(a, b, p, theta) of 004 Sec. 2.1 (p theta > 1): h(z) = c_{p,theta}/(1 + |z|^p)^theta.

    Substituting w = u^p/(1 + u^p) gives P[|Z| <= u] = I_w(1/p, theta - 1/p), hence the upper tail
    P[Z > u] = I_{1/(1+u^p)}(theta - 1/p, 1/p)/2 (regularised incomplete beta).  The same substitution gives
    E|Z|^2 = Gamma(3/p) Gamma(theta - 3/p)/(Gamma(1/p) Gamma(theta - 1/p)) for p theta > 3 (= 1 at the paper's
    p = 4, theta = 1); the mean a exists for p theta > 2.
    """

    name = "GenCauchy"
    symmetric = True

    def __init__(self, p: Any, theta: Any = 1.0, loc: Any = 0.0, scale: Any = 1.0) -> None:
        super().__init__(loc, scale)
        if not p * theta > 1:
            raise ValueError(f"p*theta must be > 1; got p={p!r}, theta={theta!r}")
        self.p, self.theta = p, theta

    def describe(self) -> str:
        return f"GenCauchy(p={self.p:g}, theta={self.theta:g})"

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        p, t = _mpf(self.p), _mpf(self.theta)
        return gencauchy_log_normaliser(p, t) - t * mpmath.log1p(abs(z) ** p)

    def pdf(self, x: Any) -> mpmath.mpf:
        return gencauchy_pdf(x, self.p, self.theta, self.loc, self.scale)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        p, t = _mpf(self.p), _mpf(self.theta)
        w = 1 / (1 + _mpf(u) ** p)
        return mpmath.betainc(t - 1 / p, 1 / p, 0, w, regularized=True) / 2

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0) if self.p * self.theta > 2 else mpmath.nan

    def _variance_z(self) -> mpmath.mpf:
        if not self.p * self.theta > 3:
            return mpmath.inf
        p, t = _mpf(self.p), _mpf(self.theta)
        return mpmath.exp(mpmath.loggamma(3 / p) + mpmath.loggamma(t - 3 / p)
                          - mpmath.loggamma(1 / p) - mpmath.loggamma(t - 1 / p))


class StudentTReference(ReferenceDistribution):
    """Student's T_nu(a, tau) of 004 Sec. 2.1: h(z) = Gamma((nu+1)/2)/(sqrt(nu pi) Gamma(nu/2)) (1 + z^2/nu)^(-(nu+1)/2);
    P[Z > u] = I_{nu/(nu+u^2)}(nu/2, 1/2)/2 for u >= 0; mean a for nu > 1, variance tau^2 nu/(nu - 2) for nu > 2."""

    name = "StudentT"
    symmetric = True

    def __init__(self, nu: Any, loc: Any = 0.0, scale: Any = 1.0) -> None:
        super().__init__(loc, scale)
        self.nu = nu

    def describe(self) -> str:
        return f"StudentT(nu={self.nu:g})"

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        n = _mpf(self.nu)
        logc = mpmath.loggamma((n + 1) / 2) - mpmath.loggamma(n / 2) - mpmath.log(n * mpmath.pi) / 2
        return logc - (n + 1) / 2 * mpmath.log1p(z**2 / n)

    def pdf(self, x: Any) -> mpmath.mpf:
        return student_t_pdf(x, self.nu, self.loc, self.scale)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        n = _mpf(self.nu)
        w = n / (n + _mpf(u) ** 2)
        return mpmath.betainc(n / 2, _mpf(1) / 2, 0, w, regularized=True) / 2

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0) if self.nu > 1 else mpmath.nan

    def _variance_z(self) -> mpmath.mpf:
        n = _mpf(self.nu)
        return n / (n - 2) if n > 2 else mpmath.inf


class PolyPlaceReference(ReferenceDistribution):
    """PolyPlace(s, alpha) of 002 Def. 6 (+ loc), scale s.  Standardised (s = 1):

    h(z) = N (alpha-1) (1 - |z|)^(alpha-1)                        for |z| < 1/alpha,
    h(z) = N (alpha+1) (1 - 1/alpha^2)^alpha (1 + |z|)^(-alpha-1)   otherwise,
    N = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1)).
    Upper tail for u >= 0 (integrating h): 1/2 - N (alpha-1)(1 - (1-u)^alpha)/alpha (u < 1/alpha),
    N (alpha+1)(1 - 1/alpha^2)^alpha (1+u)^(-alpha)/alpha (u >= 1/alpha).  Mean loc; variance 002 Lemma 13
    for alpha > 2 and infinite for alpha <= 2 (ERRATUM: the printed statement omits alpha > 2).
    """

    name = "PolyPlace"
    symmetric = True

    def __init__(self, s: Any, alpha: Any, loc: Any = 0.0) -> None:
        super().__init__(loc, s)
        if not alpha > 1:
            raise ValueError(f"alpha must be in (1, inf); got alpha={alpha!r}")
        self.s, self.alpha = s, alpha

    def describe(self) -> str:
        return f"PolyPlace(alpha={self.alpha:g})"

    def _kinks_z(self) -> tuple[float, ...]:
        return (-1 / self.alpha, 0.0, 1 / self.alpha)

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        al = _mpf(self.alpha)
        a = abs(z)
        log_n = mpmath.log(al) - mpmath.log(2) - mpmath.log(2 * ((al - 1) / al) ** al + al - 1)
        if a < 1 / al:
            return log_n + mpmath.log(al - 1) + (al - 1) * mpmath.log1p(-a)
        return log_n + mpmath.log(al + 1) + al * mpmath.log1p(-1 / al**2) - (al + 1) * mpmath.log1p(a)

    def pdf(self, x: Any) -> mpmath.mpf:
        return polyplace_pdf(x, self.s, self.alpha, self.loc)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        al = _mpf(self.alpha)
        u = _mpf(u)
        n = polyplace_normaliser(1, al)
        if u < 1 / al:
            return _mpf(1) / 2 - n * (al - 1) * (1 - (1 - u) ** al) / al
        return n * (al + 1) * (1 - 1 / al**2) ** al * (1 + u) ** (-al) / al

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0)

    def _variance_z(self) -> mpmath.mpf:
        return polyplace_variance_printed(1, self.alpha) if self.alpha > 2 else mpmath.inf


class PowerLawReference(ReferenceDistribution):
    """h(z) = 1/(C (|z|^k + l)) of 000 Thm. 1 (k > 1, l > 0), C = :func:`powerlaw_normaliser`.

    With u = z^k/(z^k + l), int_0^z dt/(t^k + l) = (l^(1/k-1)/k) B(u; 1/k, 1 - 1/k), so the upper tail is
    P[Z > z] = I_{l/(z^k + l)}(1 - 1/k, 1/k)/2 for z >= 0 (the small argument l/(z^k + l) formed directly).
    Mean 0 for k > 2; variance E Z^2 = l^(2/k) sin(pi/k)/sin(3 pi/k) for k > 3.
    """

    name = "PowerLaw"
    symmetric = True

    def __init__(self, k: Any, l: Any = 1.0, loc: Any = 0.0, scale: Any = 1.0) -> None:
        super().__init__(loc, scale)
        if not (k > 1 and l > 0):
            raise ValueError(f"k must be > 1 and l > 0; got k={k!r}, l={l!r}")
        self.k, self.l = k, l

    def describe(self) -> str:
        return f"PowerLaw(k={self.k:g}, l={self.l:g})"

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        k, l = _mpf(self.k), _mpf(self.l)
        return -mpmath.log(powerlaw_normaliser(k, l)) - mpmath.log(abs(z) ** k + l)

    def _upper_half(self, u: mpmath.mpf) -> mpmath.mpf:
        """P[|Z| > u] for u >= 0."""
        k, l = _mpf(self.k), _mpf(self.l)
        return mpmath.betainc(1 - 1 / k, 1 / k, 0, l / (_mpf(u) ** k + l), regularized=True)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        return self._upper_half(u) / 2

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0) if self.k > 2 else mpmath.nan

    def _variance_z(self) -> mpmath.mpf:
        return _powerlaw_abs_moment(2, self.k, self.l) if self.k > 3 else mpmath.inf


class HalfPowerLawReference(PowerLawReference):
    """h+(z) = 2 h(z) on z >= 0 (side +1) or h-(z) = 2 h(z) on z < 0 (side -1), h of 000 Thm. 1 (000 Lemma 2).

    E|Z| = l^(1/k) sin(pi/k)/sin(2 pi/k) for k > 2 (infinite otherwise), E Z^2 as for h (k > 3)."""

    name = "HalfPowerLaw"
    symmetric = False

    def __init__(self, k: Any, l: Any = 1.0, side: int = 1, loc: Any = 0.0, scale: Any = 1.0) -> None:
        super().__init__(k, l, loc, scale)
        if side not in (1, -1):
            raise ValueError(f"side must be +1 or -1; got side={side!r}")
        self.side = side

    def describe(self) -> str:
        return f"HalfPowerLaw(k={self.k:g}, l={self.l:g}, side={self.side:+d})"

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        inside = z >= 0 if self.side == 1 else z < 0
        return mpmath.log(2) + super()._logpdf_z(z) if inside else -mpmath.inf

    def _sf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        if mpmath.isinf(z):
            return _mpf(0) if z > 0 else _mpf(1)
        if self.side == 1:
            return self._upper_half(z) if z >= 0 else _mpf(1)
        return 1 - self._upper_half(-z) if z < 0 else _mpf(0)

    def _cdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        if mpmath.isinf(z):
            return _mpf(1) if z > 0 else _mpf(0)
        if self.side == 1:
            return 1 - self._upper_half(z) if z >= 0 else _mpf(0)
        return self._upper_half(-z) if z < 0 else _mpf(1)

    def _mean_z(self) -> mpmath.mpf:
        if not self.k > 2:
            return self.side * mpmath.inf
        return self.side * _powerlaw_abs_moment(1, self.k, self.l)

    def _variance_z(self) -> mpmath.mpf:
        if not self.k > 3:
            return mpmath.inf
        return _powerlaw_abs_moment(2, self.k, self.l) - _powerlaw_abs_moment(1, self.k, self.l) ** 2


class OneSidedExponentialReference(ReferenceDistribution):
    """ALap noise of 003 Def. V.3 (monotone case): h(z) = e^(-z) on z >= 0 (side +1), e^(z) on z <= 0 (side -1);
    mean loc + side scale, variance scale^2."""

    name = "OneSidedExponential"

    def __init__(self, side: int = 1, loc: Any = 0.0, scale: Any = 1.0) -> None:
        super().__init__(loc, scale)
        if side not in (1, -1):
            raise ValueError(f"side must be +1 or -1; got side={side!r}")
        self.side = side

    def describe(self) -> str:
        return f"OneSidedExponential(side={self.side:+d})"

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return -self.side * z if self.side * z >= 0 else -mpmath.inf

    def _sf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        if self.side == 1:
            return mpmath.exp(-z) if z >= 0 else _mpf(1)
        return -mpmath.expm1(z) if z < 0 else _mpf(0)

    def _cdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        if self.side == 1:
            return -mpmath.expm1(-z) if z >= 0 else _mpf(0)
        return mpmath.exp(z) if z < 0 else _mpf(1)

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(self.side)

    def _variance_z(self) -> mpmath.mpf:
        return _mpf(1)


class _DiscreteReference(ReferenceDistribution):
    """A law on the integers: ``logpdf`` is the log-pmf at integers (-inf elsewhere), ``cdf``/``sf``/
    ``interval_mass`` are sums of the pmf (closed geometric sums), with P[X <= x] = P[X <= floor(x)]."""

    discrete = True

    def __init__(self) -> None:
        super().__init__(0, 1)

    def _logpmf(self, k: mpmath.mpf) -> mpmath.mpf:  # pragma: no cover - abstract
        raise NotImplementedError

    def _cdf_int(self, k: mpmath.mpf) -> mpmath.mpf:  # pragma: no cover - abstract
        """P[K <= k] for an integer k."""
        raise NotImplementedError

    def _sf_int(self, k: mpmath.mpf) -> mpmath.mpf:  # pragma: no cover - abstract
        """P[K > k] for an integer k."""
        raise NotImplementedError

    def _centre(self) -> mpmath.mpf:  # pragma: no cover - abstract
        raise NotImplementedError

    def kinks(self) -> tuple[float, ...]:
        return ()

    def logpdf(self, x: Any) -> mpmath.mpf:
        x = _mpf(x)
        if mpmath.isinf(x) or x != mpmath.floor(x):
            return -mpmath.inf
        return self._logpmf(x)

    def pdf(self, x: Any) -> mpmath.mpf:
        return mpmath.exp(self.logpdf(x))

    def cdf(self, x: Any) -> mpmath.mpf:
        x = _mpf(x)
        if mpmath.isinf(x):
            return _mpf(1) if x > 0 else _mpf(0)
        return self._cdf_int(mpmath.floor(x))

    def sf(self, x: Any) -> mpmath.mpf:
        x = _mpf(x)
        if mpmath.isinf(x):
            return _mpf(0) if x > 0 else _mpf(1)
        return self._sf_int(mpmath.floor(x))

    def interval_mass(self, lo: Any, hi: Any) -> mpmath.mpf:
        """P[lo < K < hi] = P[K <= ceil(hi) - 1] - P[K <= floor(lo)], as a difference of upper tails right
        of the centre and of lower tails left of it."""
        lo, hi = _mpf(lo), _mpf(hi)
        a = lo if mpmath.isinf(lo) else mpmath.floor(lo)          # K > a
        b = hi if mpmath.isinf(hi) else mpmath.ceil(hi) - 1       # K <= b
        if b <= a:
            return _mpf(0)
        if a >= self._centre():
            return self.sf(a) - self.sf(b)
        if b < self._centre():
            return self.cdf(b) - self.cdf(a)
        return 1 - self.cdf(a) - self.sf(b)

    def breaks(self) -> tuple[Any, ...]:  # pragma: no cover - no quadrature of a pmf
        raise TypeError(f"{self.name} is discrete: sum its pmf instead of integrating")


class AsymmetricGeometricReference(_DiscreteReference):
    """AGeo of 003 Def. VIII.1 for one counting query with true answer c on {0, ..., n}.

    decreasing: P(k) = (1 - e^-eps) e^(-(k - c) eps) for c <= k < n, P(n) = e^(-(n - c) eps);
    increasing: P(k) = (1 - e^-eps) e^((k - c) eps) for 0 < k <= c, P(0) = e^(-c eps).
    With the offset j = |k - c| in {0, ..., m} (atom at j = m): P(J <= j) = 1 - e^(-(j+1) eps) for j < m.
    """

    name = "AsymmetricGeometric"

    def __init__(self, eps: Any, center: int, n: int, direction: str = "decreasing") -> None:
        super().__init__()
        if direction not in ("decreasing", "increasing"):
            raise ValueError(f"direction must be 'decreasing' or 'increasing'; got direction={direction!r}")
        if not 0 <= center <= n:
            raise ValueError(f"center must be in [0, n]; got center={center}, n={n}")
        self.eps, self.center, self.n, self.direction = eps, int(center), int(n), direction
        self.m = self.n - self.center if direction == "decreasing" else self.center

    def describe(self) -> str:
        return f"AsymmetricGeometric(eps={self.eps:g}, center={self.center}, n={self.n}, {self.direction})"

    def _centre(self) -> mpmath.mpf:
        return _mpf(self.center)

    def _offset(self, k: mpmath.mpf) -> mpmath.mpf:
        return k - self.center if self.direction == "decreasing" else self.center - k

    def _logpmf(self, k: mpmath.mpf) -> mpmath.mpf:
        j, eps = self._offset(k), _mpf(self.eps)
        if j < 0 or j > self.m:
            return -mpmath.inf
        if j == self.m:  # the atom case takes precedence (003 Def. VIII.1; the only reading summing to one)
            return -self.m * eps
        return mpmath.log(-mpmath.expm1(-eps)) - j * eps

    def _offset_cdf(self, j: mpmath.mpf) -> mpmath.mpf:
        """P(J <= j) for an integer j (geometric sum of the pmf)."""
        if j < 0:
            return _mpf(0)
        if j >= self.m:
            return _mpf(1)
        return -mpmath.expm1(-(j + 1) * _mpf(self.eps))

    def _offset_sf(self, j: mpmath.mpf) -> mpmath.mpf:
        """P(J > j) = e^(-(j+1) eps) for 0 <= j < m."""
        if j < 0:
            return _mpf(1)
        if j >= self.m:
            return _mpf(0)
        return mpmath.exp(-(j + 1) * _mpf(self.eps))

    def _cdf_int(self, k: mpmath.mpf) -> mpmath.mpf:
        if self.direction == "decreasing":
            return self._offset_cdf(k - self.center)
        return self._offset_sf(self.center - k - 1)  # K <= k  <=>  J >= c - k  <=>  J > c - k - 1

    def _sf_int(self, k: mpmath.mpf) -> mpmath.mpf:
        if self.direction == "decreasing":
            return self._offset_sf(k - self.center)
        return self._offset_cdf(self.center - k - 1)  # K > k  <=>  J <= c - k - 1

    def _support(self) -> range:
        return range(self.center, self.n + 1) if self.direction == "decreasing" else range(0, self.center + 1)

    def mean(self) -> mpmath.mpf:
        """E[K] = sum_k k P(k) over the support (a finite sum)."""
        return mpmath.fsum(k * mpmath.exp(self._logpmf(_mpf(k))) for k in self._support())

    def variance(self) -> mpmath.mpf:
        mu = self.mean()
        return mpmath.fsum((k - mu) ** 2 * mpmath.exp(self._logpmf(_mpf(k))) for k in self._support())


class TwoSidedGeometricReference(_DiscreteReference):
    """The geometric mechanism's noise of 003 App. A: P(k) = (1 - r)/(1 + r) r^|k - loc|, r = e^(-eps/Delta)
    (the corrected normaliser; see :func:`two_sided_geometric_normaliser_printed`).  Tails: P(K > loc + j) =
    r^(j+1)/(1 + r) for j >= 0, and P(K <= loc - j) = r^j/(1 + r) for j >= 1.  Mean loc, variance 2 r/(1 - r)^2."""

    name = "TwoSidedGeometric"

    def __init__(self, eps: Any, sensitivity: Any = 1.0, loc: int = 0) -> None:
        super().__init__()
        self.eps, self.sensitivity, self.centre = eps, sensitivity, int(loc)

    def describe(self) -> str:
        return f"TwoSidedGeometric(eps={self.eps:g}, sensitivity={self.sensitivity:g}, loc={self.centre})"

    def _centre(self) -> mpmath.mpf:
        return _mpf(self.centre)

    def _log_r(self) -> mpmath.mpf:
        return -_mpf(self.eps) / _mpf(self.sensitivity)

    def _logpmf(self, k: mpmath.mpf) -> mpmath.mpf:
        lr = self._log_r()
        # ln((1 - r)/(1 + r)) with 1 - r = -expm1(ln r): exact for small eps/Delta
        return mpmath.log(-mpmath.expm1(lr)) - mpmath.log1p(mpmath.exp(lr)) + abs(k - self.centre) * lr

    def _sf_int(self, k: mpmath.mpf) -> mpmath.mpf:
        j = k - self.centre
        r = mpmath.exp(self._log_r())
        if j >= 0:
            return r ** (j + 1) / (1 + r)
        return 1 - r ** (-j) / (1 + r)

    def _cdf_int(self, k: mpmath.mpf) -> mpmath.mpf:
        j = k - self.centre
        r = mpmath.exp(self._log_r())
        if j < 0:
            return r ** (-j) / (1 + r)
        return 1 - r ** (j + 1) / (1 + r)

    def mean(self) -> mpmath.mpf:
        return _mpf(self.centre)

    def variance(self) -> mpmath.mpf:
        r = mpmath.exp(self._log_r())
        return 2 * r / (1 - r) ** 2


class _BunSteinkeReference(ReferenceDistribution):
    """The Bun & Steinke (2019) families through their defining variables (:mod:`.bun_steinke`: the
    conditional law given Y integrated against phi, or the monotone transform), symmetric about 0."""

    symmetric = True

    def __init__(self, sigma: Any, loc: Any = 0.0, scale: Any = 1.0) -> None:
        super().__init__(loc, scale)
        self.sigma = sigma

    def _logpdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return mpmath.log(self._pdf_z(z))

    def _pdf_z(self, z: mpmath.mpf) -> mpmath.mpf:  # pragma: no cover - abstract
        raise NotImplementedError

    def _mean_z(self) -> mpmath.mpf:
        return _mpf(0)


class LaplaceLogNormalReference(_BunSteinkeReference):
    """X e^(sigma Y), X ~ Lap(0, 1), Y ~ N(0, 1): variance E[X^2] E[e^(2 sigma Y)] = 2 e^(2 sigma^2)."""

    name = "LaplaceLogNormal"

    def _pdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return _bs.lln_pdf(z, self.sigma)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        return _bs.lln_sf(u, self.sigma)

    def _variance_z(self) -> mpmath.mpf:
        return 2 * mpmath.exp(2 * _mpf(self.sigma) ** 2)


class UniformLogNormalReference(_BunSteinkeReference):
    """U e^(sigma Y), U ~ Uniform[-1, 1]: variance E[U^2] E[e^(2 sigma Y)] = e^(2 sigma^2)/3."""

    name = "UniformLogNormal"

    def _pdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return _bs.uln_pdf(z, self.sigma)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        return _bs.uln_sf(u, self.sigma)

    def _variance_z(self) -> mpmath.mpf:
        return mpmath.exp(2 * _mpf(self.sigma) ** 2) / 3


class ArsinhNormalReference(_BunSteinkeReference):
    """sinh(sigma Y)/sigma: P[Z > u] = P[Y > arsinh(sigma u)/sigma] = erfc(v/sqrt 2)/2 written in the upper
    tail; variance E[sinh^2(sigma Y)]/sigma^2 = (e^(2 sigma^2) - 1)/(2 sigma^2)."""

    name = "ArsinhNormal"

    def _kinks_z(self) -> tuple[float, ...]:
        return ()

    def _pdf_z(self, z: mpmath.mpf) -> mpmath.mpf:
        return _bs.arsinh_normal_pdf(z, self.sigma)

    def _sf_pos(self, u: mpmath.mpf) -> mpmath.mpf:
        s = _mpf(self.sigma)
        return mpmath.erfc(mpmath.asinh(s * _mpf(u)) / s / mpmath.sqrt(2)) / 2

    def _variance_z(self) -> mpmath.mpf:
        s2 = _mpf(self.sigma) ** 2
        return mpmath.expm1(2 * s2) / (2 * s2)


# =============================================================================================
# Registry: core class -> reference factory
# =============================================================================================

REFERENCES: Mapping[type, Callable[[Any], ReferenceDistribution]] = {
    _core.Laplace: lambda d: LaplaceReference(d.loc, d.scale),
    _core.Gaussian: lambda d: GaussianReference(d.loc, d.scale),
    _core.GenCauchy: lambda d: GenCauchyReference(d.p, d.theta, d.loc, d.scale),
    _core.StudentT: lambda d: StudentTReference(d.nu, d.loc, d.scale),
    _core.PolyPlace: lambda d: PolyPlaceReference(d.scale, d.alpha, d.loc),
    _core.PowerLaw: lambda d: PowerLawReference(d.k, d.l, d.loc, d.scale),
    _core.HalfPowerLaw: lambda d: HalfPowerLawReference(d.k, d.l, d.side, d.loc, d.scale),
    _core.OneSidedExponential: lambda d: OneSidedExponentialReference(d.side, d.loc, d.scale),
    _core.AsymmetricGeometric: lambda d: AsymmetricGeometricReference(d.eps, d.center, d.n, d.direction),
    _core.TwoSidedGeometric: lambda d: TwoSidedGeometricReference(d.eps, d.sensitivity, d.loc),
    _core.LaplaceLogNormal: lambda d: LaplaceLogNormalReference(d.sigma, d.loc, d.scale),
    _core.UniformLogNormal: lambda d: UniformLogNormalReference(d.sigma, d.loc, d.scale),
    _core.ArsinhNormal: lambda d: ArsinhNormalReference(d.sigma, d.loc, d.scale),
}


def reference_for(dist: Any) -> ReferenceDistribution:
    """The mpmath reference of a core distribution instance (same loc, scale and shape).

    Raises TypeError naming the class if no reference is registered for it (exact class match: a
    subclass may change the density, so it must register its own reference)."""
    factory = REFERENCES.get(type(dist))
    if factory is None:
        known = ", ".join(sorted(c.__name__ for c in REFERENCES))
        raise TypeError(f"no mpmath reference is registered for {type(dist).__name__}; known: {known}")
    return factory(dist)
