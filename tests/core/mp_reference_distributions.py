"""mpmath reference densities of the continuous noise families, written from the papers only.

Every density here is typed from the printed formula (including the printed normaliser), so that
quadrature of it tests both the paper and the implementation:

* Laplace Lap(a, b), 004 Sec. 2.1:        h(y) = exp(-|y - a|/b) / (2b).
* GenCauchy(a, b, p, theta), 004 Sec. 2.1: h(y) = (1/b) c_{p,theta} / (1 + |(y-a)/b|^p)^theta,
                                          c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)).
* Student T_nu(a, tau), 004 Sec. 2.1:     h(y) = c_nu / (sqrt(nu) tau (1 + ((y-a)/tau)^2/nu)^((nu+1)/2)),
                                          c_nu = Gamma((nu+1)/2) / (sqrt(pi) Gamma(nu/2)).
* PolyPlace(s, alpha) (+ loc), 002 Def. 6: N (alpha-1)(1 - |x|/s)^(alpha-1) if |x|/s < 1/alpha, else
                                          N (alpha+1)(1 - 1/alpha^2)^alpha (1 + |x|/s)^(-alpha-1),
                                          N = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s).

Quadrature (tanh-sinh, mpmath.quad) is split at the location, at +-scale and at the PolyPlace kink
+-s/alpha, where the integrands are not analytic.  All evaluation happens inside
``mpmath.workdps(DPS)`` (never a global mp.dps).

``CASES`` is the table of valid parameter sets that drives the generic identity tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import mpmath

DPS = 40


def laplace_pdf(y: Any, loc: Any = 0, scale: Any = 1) -> mpmath.mpf:
    """004 Sec. 2.1: exp(-|y - a|/b)/(2b)."""
    y, loc, scale = mpmath.mpf(y), mpmath.mpf(loc), mpmath.mpf(scale)
    return mpmath.exp(-abs(y - loc) / scale) / (2 * scale)


def gencauchy_normaliser(p: Any, theta: Any) -> mpmath.mpf:
    """004 Sec. 2.1, as printed: c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p))."""
    p, theta = mpmath.mpf(p), mpmath.mpf(theta)
    return p * mpmath.gamma(theta) / (2 * mpmath.gamma(1 / p) * mpmath.gamma(theta - 1 / p))


def gencauchy_pdf(y: Any, p: Any, theta: Any = 1, loc: Any = 0, scale: Any = 1) -> mpmath.mpf:
    """004 Sec. 2.1: (1/b) c_{p,theta} / (1 + |(y - a)/b|^p)^theta."""
    y, p, theta = mpmath.mpf(y), mpmath.mpf(p), mpmath.mpf(theta)
    loc, scale = mpmath.mpf(loc), mpmath.mpf(scale)
    z = abs((y - loc) / scale)
    return gencauchy_normaliser(p, theta) / (scale * (1 + z**p) ** theta)


def student_t_pdf(y: Any, nu: Any, loc: Any = 0, scale: Any = 1) -> mpmath.mpf:
    """004 Sec. 2.1: c_nu / (sqrt(nu) tau (1 + ((y - a)/tau)^2/nu)^((nu + 1)/2))."""
    y, nu, loc, scale = mpmath.mpf(y), mpmath.mpf(nu), mpmath.mpf(loc), mpmath.mpf(scale)
    c_nu = mpmath.gamma((nu + 1) / 2) / (mpmath.sqrt(mpmath.pi) * mpmath.gamma(nu / 2))
    z = (y - loc) / scale
    return c_nu / (mpmath.sqrt(nu) * scale * (1 + z * z / nu) ** ((nu + 1) / 2))


def polyplace_normaliser(s: Any, alpha: Any) -> mpmath.mpf:
    """002 Def. 6, as printed: N_{s,alpha} = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s)."""
    s, alpha = mpmath.mpf(s), mpmath.mpf(alpha)
    return alpha / (2 * (2 * ((alpha - 1) / alpha) ** alpha + alpha - 1) * s)


def polyplace_pdf(x: Any, s: Any, alpha: Any, loc: Any = 0) -> mpmath.mpf:
    """002 Def. 6 (shifted by loc), the two branches as printed."""
    x, s, alpha, loc = mpmath.mpf(x), mpmath.mpf(s), mpmath.mpf(alpha), mpmath.mpf(loc)
    n = polyplace_normaliser(s, alpha)
    r = abs(x - loc) / s
    if r < 1 / alpha:
        return n * (alpha - 1) * (1 - r) ** (alpha - 1)
    return n * (alpha + 1) * (1 - 1 / alpha**2) ** alpha * (1 + r) ** (-alpha - 1)


def polyplace_variance_printed(s: Any, alpha: Any) -> mpmath.mpf:
    """002 Lemma 13 exactly as printed (statement):
    2 s^2 (1/a + 1)^(-a) ((19 a^2 + 5)(1 - 1/a^2)^a + (a - 2)(a - 1)^2 (1/a + 1)^a)
      / ((2 ((a - 1)/a)^a + a - 1)(a^4 - 5 a^2 + 4))."""
    s, a = mpmath.mpf(s), mpmath.mpf(alpha)
    num = (1 / a + 1) ** (-a) * ((19 * a**2 + 5) * (1 - 1 / a**2) ** a + (a - 2) * (a - 1) ** 2 * (1 / a + 1) ** a)
    den = (2 * ((a - 1) / a) ** a + a - 1) * (a**4 - 5 * a**2 + 4)
    return 2 * s**2 * num / den


def gencauchy4_cdf_printed(q: Any) -> mpmath.mpf:
    """004 App. C.1 exactly as printed: F(q) = 1/2 -+ (sqrt2/pi) H(|q|) (q < 0 / otherwise),
    H(q) = (1/(4 sqrt2)) (ln((q^2 + sqrt2 q + 1)/(q^2 - sqrt2 q + 1)) + 2 atan(1 + sqrt2 q) - 2 atan(1 - sqrt2 q))."""
    q = mpmath.mpf(q)
    r2 = mpmath.sqrt(2)

    def big_h(u: mpmath.mpf) -> mpmath.mpf:
        return (
            mpmath.log((u**2 + r2 * u + 1) / (u**2 - r2 * u + 1)) + 2 * mpmath.atan(1 + r2 * u) - 2 * mpmath.atan(1 - r2 * u)
        ) / (4 * r2)

    if q < 0:
        return mpmath.mpf(1) / 2 - r2 / mpmath.pi * big_h(abs(q))
    return mpmath.mpf(1) / 2 + r2 / mpmath.pi * big_h(q)


@dataclass(frozen=True)
class Case:
    """One valid parameter set: the family's class name, constructor kwargs, mpmath density, breakpoints."""

    family: str
    kwargs: dict[str, float]
    density: Callable[[Any], mpmath.mpf]
    loc: float
    scale: float
    breaks: tuple[float, ...] = field(default=())
    # largest |z| = |x - loc|/scale used in grid tests (Laplace: exp(-z) must not underflow)
    z_max: float = 1e6

    @property
    def id(self) -> str:
        return self.family + "(" + ",".join(f"{k}={v:g}" for k, v in self.kwargs.items()) + ")"


def _case(family: str, kwargs: dict[str, float], density: Callable[[Any], mpmath.mpf], loc: float, scale: float,
          kinks: tuple[float, ...] = (), z_max: float = 1e6) -> Case:
    zs = {0.0, 1.0, -1.0, *kinks, *(-k for k in kinks)}
    return Case(family, kwargs, density, loc, scale, tuple(sorted(loc + scale * z for z in zs)), z_max)


def _laplace(loc: float = 0.0, scale: float = 1.0) -> Case:
    return _case("Laplace", {"loc": loc, "scale": scale}, lambda y: laplace_pdf(y, loc, scale), loc, scale, z_max=700.0)


def _gencauchy(p: float, theta: float, loc: float = 0.0, scale: float = 1.0) -> Case:
    return _case("GenCauchy", {"p": p, "theta": theta, "loc": loc, "scale": scale},
                 lambda y: gencauchy_pdf(y, p, theta, loc, scale), loc, scale)


def _student_t(nu: float, loc: float = 0.0, scale: float = 1.0) -> Case:
    return _case("StudentT", {"nu": nu, "loc": loc, "scale": scale}, lambda y: student_t_pdf(y, nu, loc, scale), loc, scale)


def _polyplace(s: float, alpha: float, loc: float = 0.0) -> Case:
    return _case("PolyPlace", {"s": s, "alpha": alpha, "loc": loc}, lambda x: polyplace_pdf(x, s, alpha, loc), loc, s,
                 kinks=(1.0 / alpha,))


CASES: tuple[Case, ...] = (
    _laplace(),
    _laplace(1.5, 0.3),
    _gencauchy(1.5, 1.0),  # p*theta = 1.5: no mean, no variance
    _gencauchy(4.0, 1.0),  # the App. C.1 case, variance 1
    _gencauchy(2.0, 2.0),
    _gencauchy(6.0, 0.5),  # p*theta = 3: mean, but variance diverges logarithmically
    _gencauchy(4.0, 1.0, loc=-2.0, scale=3.0),
    _student_t(1.0),  # Cauchy
    _student_t(3.0),
    _student_t(30.0),
    _student_t(3.0, loc=1.0, scale=2.0),
    _polyplace(1.0, 1.2),  # infinite variance
    _polyplace(1.0, 2.5),
    _polyplace(1.0, 10.0),
    _polyplace(1.0, 100.0),
    _polyplace(0.5, 2.5, loc=1.0),
)


def make(case: Case) -> Any:
    """Instantiate the smoothsens distribution of ``case``."""
    from smoothsens_core import distributions

    return getattr(distributions, case.family)(**case.kwargs)


def _quad_relative(fn: Callable[[Any], Any], pts: list[Any]) -> mpmath.mpf:
    """mpmath.quad of fn over the finite points ``pts``, to *relative* precision.

    mpmath.quad stops on an absolute error goal of about mp.eps, so a tail value of 1e-69 would come
    back with only a few correct digits; dividing fn by a typical magnitude S (max |fn| at the
    points and the midpoint, times the length) makes the goal relative.
    """
    probes = list(pts) + [(pts[0] + pts[-1]) / 2]
    mags = [abs(fn(t)) for t in probes]
    big = max((m for m in mags if mpmath.isfinite(m)), default=mpmath.mpf(0))
    scale = big * abs(pts[-1] - pts[0]) if big > 0 else mpmath.mpf(1)
    return scale * mpmath.quad(lambda t: fn(t) / scale, pts)


def integrate(case: Case, a: Any, b: Any, weight: Callable[[Any], Any] | None = None) -> mpmath.mpf:
    """int_a^b density(y) [* weight(y)] dy by tanh-sinh quadrature split at the case's breakpoints.

    An infinite piece [c, inf) (c > loc) is mapped to (0, 1] by y = loc + (c - loc)/u^2,
    dy = 2 (c - loc)/u^3 du (and (-inf, c] likewise), which turns an algebraic tail y^(-k) into the power
    u^(2k-3) (analytic for the half-integer k = 1.5 of GenCauchy(1.5, 1)); a direct [c, inf) quadrature,
    or the map y = c/w, loses 8 of 40 digits there.  Each piece is integrated to relative precision
    (see :func:`_quad_relative`).
    """
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    loc = mpmath.mpf(case.loc)

    def g(y: Any) -> Any:
        return case.density(y) if weight is None else case.density(y) * weight(y)

    inner = [mpmath.mpf(t) for t in case.breaks if a < t < b]
    pts = ([] if mpmath.isinf(a) else [a]) + inner + ([] if mpmath.isinf(b) else [b])
    total = mpmath.mpf(0)
    for lo, hi in zip(pts[:-1], pts[1:]):
        total += _quad_relative(g, [lo, hi])
    if mpmath.isinf(a):
        d = loc - pts[0]  # > 0: breaks include loc - scale

        def lower_tail(u: Any) -> Any:
            return g(loc - d / u**2) * 2 * d / u**3 if u > 0 else mpmath.mpf(0)

        total += _quad_relative(lower_tail, [mpmath.mpf(0), mpmath.mpf(1)])
    if mpmath.isinf(b):
        d = pts[-1] - loc

        def upper_tail(u: Any) -> Any:
            return g(loc + d / u**2) * 2 * d / u**3 if u > 0 else mpmath.mpf(0)

        total += _quad_relative(upper_tail, [mpmath.mpf(0), mpmath.mpf(1)])
    return total


def ref_cdf(case: Case, x: float) -> mpmath.mpf:
    """P(X <= x) by quadrature of the printed density."""
    return integrate(case, -mpmath.inf, x)


def ref_sf(case: Case, x: float) -> mpmath.mpf:
    """P(X > x) by quadrature of the printed density (directly, no 1 - cdf)."""
    return integrate(case, x, mpmath.inf)


def ref_second_central_moment(case: Case, lo: Any = None, hi: Any = None) -> mpmath.mpf:
    """int (y - loc)^2 density(y) dy over (lo, hi) (default the whole line)."""
    lo = -mpmath.inf if lo is None else lo
    hi = mpmath.inf if hi is None else hi
    loc = mpmath.mpf(case.loc)
    return integrate(case, lo, hi, weight=lambda y: (y - loc) ** 2)


def polyplace_case(s: float, alpha: float, loc: float = 0.0) -> Case:
    """A :class:`Case` for PolyPlace(s, alpha) outside the CASES table (e.g. for variance checks)."""
    return _polyplace(s, alpha, loc)
