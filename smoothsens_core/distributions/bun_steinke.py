"""The noise families of Bun & Steinke (2019, "Average-case averages: private algorithms for smooth
sensitivity and mean estimation", NeurIPS), built from their defining random variables.

With X ~ Laplace(0, 1) (density e^(-|x|)/2), U ~ Uniform[-1, 1] and Y ~ N(0, 1) independent, and a
shape sigma > 0:

* Laplace log-normal  LLN(sigma):   Z = X e^(sigma Y);
* uniform log-normal  ULN(sigma):   Z = U e^(sigma Y);
* arsinh-normal       ArsinhNormal(sigma):   Z = sinh(sigma Y)/sigma  (so Y = arsinh(sigma Z)/sigma).

The densities below are derived here from these definitions (conditioning on Y); the paper's own
text was not available to check them against, so no equation number of the paper is cited.

LLN.  Given Y = y, Z is Laplace with scale e^(sigma y), so

    h(z) = (1/2) integral phi(y) e^(-sigma y) exp(-|z| e^(-sigma y)) dy,
    P(Z > z) = (1/2) integral phi(y) exp(-z e^(-sigma y)) dy        (z >= 0),

one-dimensional integrals evaluated by composite Gauss-Legendre quadrature around the maximiser
y* of the (strictly concave) log-integrand G(y) = -y^2/2 - sigma y - |z| e^(-sigma y):
G'' <= -1 everywhere, so the integrand is below exp(G(y*) - (y - y*)^2/2) and the window
y* +- 12 loses a relative e^-72 at most.  h(0) = e^(sigma^2/2)/2, Var Z = 2 e^(2 sigma^2).

ULN.  Given Y = y, Z is uniform on [-e^(sigma y), e^(sigma y)]; the y-integral is closed:

    h(z) = (1/2) e^(sigma^2/2) Phi(-(ln|z|/sigma + sigma)),
    P(Z > z) = (1/2) [Phi(-a) - z e^(sigma^2/2) Phi(-(a + sigma))],   a = ln z / sigma   (z > 0),

(E[e^(-sigma Y); Y > c] = e^(sigma^2/2) Phi(-(c + sigma))), Var Z = e^(2 sigma^2)/3.

ArsinhNormal.  Z = sinh(sigma Y)/sigma is a strictly increasing transform of Y:

    F(z) = Phi(v),  h(z) = phi(v) / sqrt(1 + sigma^2 z^2),   v = arsinh(sigma z)/sigma,
    Var Z = (e^(2 sigma^2) - 1)/(2 sigma^2).

All three are symmetric, with tails lighter than every power (tail exponent inf) but heavier than
every exponential for LLN and ArsinhNormal (ln h(z) ~ -(ln z)^2/(2 sigma^2)); ULN has the same
log-squared tail.  Samplers draw the defining variables with the ``numpy.random.Generator``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import special as sc

from ..validation import check_positive
from ._base import ContinuousDistribution, FloatArray

__all__ = ["LaplaceLogNormal", "UniformLogNormal", "ArsinhNormal"]

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)

# Composite Gauss-Legendre rule on t in [-12, 12] (offsets from the maximiser of the log-integrand),
# panels finer near 0, where the integrand's width 1/sqrt(-G''(y*)) may be well below 1.
_GL_X, _GL_W = np.polynomial.legendre.leggauss(24)


def _panel_nodes(width: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Nodes t (shape (n, k)) and weights for the panels w*[0, 1/2, 1, 2, 4, 8] and then 12, both
    sides, per element of ``width`` (the local width w <= 1 of the integrand at its maximiser)."""
    w = np.asarray(width, dtype=float)[:, None]
    inner = np.array([0.0, 0.5, 1.0, 2.0, 4.0, 8.0])
    edges = np.concatenate([inner[None, :] * w, np.full((w.shape[0], 1), 12.0)], axis=1)
    edges = np.minimum(edges, 12.0)
    lo, hi = edges[:, :-1], edges[:, 1:]
    half = 0.5 * (hi - lo)
    mid = 0.5 * (hi + lo)
    t_pos = (mid[:, :, None] + half[:, :, None] * _GL_X[None, None, :]).reshape(w.shape[0], -1)
    w_pos = (half[:, :, None] * _GL_W[None, None, :]).reshape(w.shape[0], -1)
    return np.concatenate([-t_pos, t_pos], axis=1), np.concatenate([w_pos, w_pos], axis=1)


def _log_lln_integral(a: FloatArray, sigma: float, k: float) -> FloatArray:
    """ln integral exp(G(y)) dy with G(y) = -y^2/2 - k sigma y - a e^(-sigma y) (a >= 0, k in {0, 1, 2}):
    the density (k = 1) and the tail (k = 0) of LLN without the factor 1/(2 sqrt(2 pi)).

    G is strictly concave (G'' = -1 - a sigma^2 e^(-sigma y) <= -1); its maximiser y* solves
    y + k sigma = a sigma e^(-sigma y), found by a safeguarded Newton iteration; a = 0 is exact:
    the integral is sqrt(2 pi) e^(k^2 sigma^2/2)."""
    a = np.asarray(a, dtype=float).ravel()
    out = np.empty_like(a)
    zero = a == 0.0
    out[zero] = _LOG_SQRT_2PI + 0.5 * (k * sigma) ** 2
    ap = a[~zero]
    if ap.size:
        # y* in [lo, hi]: the root of F(y) = y + k sigma - a sigma e^(-sigma y) (increasing in y)
        lo = np.full_like(ap, -k * sigma)           # F(lo) = -a sigma e^(..) < 0
        hi = np.maximum(np.log(ap * sigma + 1.0) / sigma, 0.0) + 1.0 - k * sigma  # F(hi) > 0
        while True:
            f_hi = hi + k * sigma - ap * sigma * np.exp(-sigma * hi)
            bad = f_hi <= 0
            if not bad.any():
                break
            hi = np.where(bad, hi + 2.0 * (np.abs(hi) + 1.0), hi)
        y = 0.5 * (lo + hi)
        for _ in range(200):
            e = ap * sigma * np.exp(-sigma * y)
            f = y + k * sigma - e
            lo = np.where(f < 0, y, lo)
            hi = np.where(f >= 0, y, hi)
            y_new = y - f / (1.0 + sigma * e)
            outside = (y_new <= lo) | (y_new >= hi)
            y_new = np.where(outside, 0.5 * (lo + hi), y_new)
            if np.all(np.abs(y_new - y) <= 1e-15 * (1.0 + np.abs(y))):
                y = y_new
                break
            y = y_new
        curv = 1.0 + sigma * sigma * ap * np.exp(-sigma * y)
        width = np.minimum(1.0, 1.0 / np.sqrt(curv))
        t, wts = _panel_nodes(width)
        yy = y[:, None] + t
        g = -0.5 * yy * yy - k * sigma * yy - ap[:, None] * np.exp(-sigma * yy)
        g_star = -0.5 * y * y - k * sigma * y - ap * np.exp(-sigma * y)
        with np.errstate(under="ignore"):
            s = np.sum(wts * np.exp(g - g_star[:, None]), axis=1)
        out[~zero] = g_star + np.log(s)
    return out


def _bisect_ppf(q: FloatArray, sf: object, upper: float) -> FloatArray:
    """The z >= 0 with sf(z) = q for q in (0, 1/2] (``sf`` decreasing), by bisection on ln z
    over [1e-300, 2^k upper] (``upper`` a first guess of the bracket, doubled as needed)."""
    q = np.asarray(q, dtype=float)
    hi = np.full_like(q, upper)
    for _ in range(2000):
        s = np.asarray(sf(hi))  # type: ignore[operator]
        bad = s > q
        if not bad.any():
            break
        hi = np.where(bad, 2.0 * hi, hi)
    lo = np.zeros_like(q)
    for _ in range(120):
        mid = 0.5 * (lo + hi)
        s = np.asarray(sf(mid))  # type: ignore[operator]
        lo = np.where(s > q, mid, lo)
        hi = np.where(s > q, hi, mid)
    return 0.5 * (lo + hi)


class _BunSteinke(ContinuousDistribution):
    """Shared parts: the shape sigma > 0, symmetry, ppf by symmetric bisection on the tail."""

    symmetric = True

    def __init__(self, sigma: float, loc: float = 0.0, scale: float = 1.0) -> None:
        super().__init__(loc=loc, scale=scale)
        self.sigma = check_positive("sigma", sigma)

    def _shape_repr(self) -> str:
        return f"sigma={self.sigma!r}"

    def _cdf(self, z: FloatArray) -> FloatArray:
        z = np.asarray(z, dtype=float)
        s = self._sf_pos(np.abs(z))
        return np.where(z > 0, 1.0 - s, s)

    def _sf(self, z: FloatArray) -> FloatArray:
        return self._cdf(-np.asarray(z, dtype=float))

    def _sf_pos(self, u: FloatArray) -> FloatArray:  # pragma: no cover - abstract
        """P(Z > u) for u >= 0."""
        raise NotImplementedError

    def _ppf(self, q: FloatArray) -> FloatArray:
        q = np.asarray(q, dtype=float)
        lower = np.minimum(q, 1.0 - q)
        z = _bisect_ppf(lower, self._sf_pos, 1.0 + math.exp(self.sigma))
        return np.where(q < 0.5, -z, z)

    def _mean(self) -> float:
        return 0.0

    #: math.inf: every family here decays faster than every power of |z| (module docstring).
    tail_exponent = math.inf


class LaplaceLogNormal(_BunSteinke):
    """LLN(sigma): Z = X e^(sigma Y), X ~ Laplace(0, 1), Y ~ N(0, 1) (Bun & Steinke 2019); density
    and tail by quadrature of the conditional Laplace law (module docstring)."""

    name = "laplace_log_normal"

    def _logpdf(self, z: FloatArray) -> FloatArray:
        z = np.asarray(z, dtype=float)
        flat = _log_lln_integral(np.abs(z).ravel(), self.sigma, 1.0)
        return (flat - math.log(2.0) - _LOG_SQRT_2PI).reshape(z.shape)

    def _sf_pos(self, u: FloatArray) -> FloatArray:
        u = np.asarray(u, dtype=float)
        flat = _log_lln_integral(u.ravel(), self.sigma, 0.0)
        return np.exp(flat - math.log(2.0) - _LOG_SQRT_2PI).reshape(u.shape)

    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = h'(z)/h(z) = -sgn(z) I_2(|z|)/I_1(|z|), I_k the integral with weight e^(-k sigma y)
        (differentiation under the integral sign); the right limit -I_2(0)/I_1(0) = -e^(3 sigma^2/2) at 0."""
        z = np.asarray(z, dtype=float)
        a = np.abs(z).ravel()
        ratio = np.exp(_log_lln_integral(a, self.sigma, 2.0) - _log_lln_integral(a, self.sigma, 1.0))
        sign = np.where(z.ravel() < 0, 1.0, -1.0)
        return (sign * ratio).reshape(z.shape)

    def _kinks_z(self) -> tuple[float, ...]:
        return (0.0,)  # h'(0+) = -h'(0-) = -E[e^(-2 sigma Y)]/2 != 0

    @property
    def score_sup(self) -> float:
        """sup_z |psi(z)| = e^(3 sigma^2/2) = I_2(0)/I_1(0) = E[e^(-2 sigma Y)]/E[e^(-sigma Y)], the limit at 0
        (|psi| is nonincreasing on (0, inf), :meth:`_score_breakpoints`): the Lipschitz constant of ln h."""
        return math.exp(1.5 * self.sigma**2)

    def _scale_ratio(self, z: FloatArray) -> FloatArray:
        """r(z) = z I_2(z)/I_1(z) = -z psi(z) for z >= 0 (so 1 + z psi = 1 - r)."""
        a = np.abs(np.asarray(z, dtype=float)).ravel()
        log_r = _log_lln_integral(a, self.sigma, 2.0) - _log_lln_integral(a, self.sigma, 1.0)
        with np.errstate(divide="ignore"):
            return np.exp(np.log(a) + log_r)

    def _score_breakpoints(self) -> tuple[float, ...]:
        """(z*,): the z > 0 where 1 + z psi(z) = 0, i.e. z I_2(z) = I_1(z), found by brentq.

        Derived here.  |psi| = I_2/I_1 is nonincreasing on (0, inf): d/dz (I_2/I_1) = (I_2^2 - I_1 I_3)/I_1^2
        <= 0 by Cauchy-Schwarz (I_2 = integral of w^(1/2) w^(3/2), w = e^(-sigma y), against the same
        positive weight), so sup |psi| = e^(3 sigma^2/2), its limit at 0.  r(z) = z I_2/I_1 is increasing:
        with v = ln z - sigma y, r = E[e^V] under the density proportional to phi((v - ln z)/sigma) e^v e^(-e^v),
        a Gaussian location family in ln z (monotone likelihood ratio), and e^v increases; r runs from 0
        to inf, so |1 + z psi| = |1 - r| decreases to 0 at z* and increases after."""
        from scipy.optimize import brentq  # noqa: PLC0415

        def f(log_z: float) -> float:
            return float(self._scale_ratio(np.array([math.exp(log_z)]))[0]) - 1.0

        lo, hi = -1.0, 1.0
        while f(lo) > 0:
            lo -= 2.0
        while f(hi) < 0:
            hi += 2.0
        return (math.exp(brentq(f, lo, hi, xtol=1e-13)),)

    @property
    def score_scale_limit(self) -> float:
        """math.inf: |1 + z psi(z)| grows like ln z / sigma^2."""
        return math.inf

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return rng.laplace(0.0, 1.0, size) * np.exp(self.sigma * rng.standard_normal(size))

    def _variance(self) -> float:
        """E[X^2] E[e^(2 sigma Y)] = 2 e^(2 sigma^2)."""
        return 2.0 * math.exp(2.0 * self.sigma**2)


class UniformLogNormal(_BunSteinke):
    """ULN(sigma): Z = U e^(sigma Y), U ~ Uniform[-1, 1], Y ~ N(0, 1) (Bun & Steinke 2019); closed-form
    density and tail (module docstring)."""

    name = "uniform_log_normal"

    def _logpdf(self, z: FloatArray) -> FloatArray:
        z = np.asarray(z, dtype=float)
        s = self.sigma
        with np.errstate(divide="ignore"):
            c = np.log(np.abs(z)) / s + s
        return -math.log(2.0) + 0.5 * s * s + sc.log_ndtr(-c)

    def _sf_pos(self, u: FloatArray) -> FloatArray:
        u = np.asarray(u, dtype=float)
        s = self.sigma
        with np.errstate(divide="ignore"):
            a = np.log(u) / s
            # u e^(s^2/2) Phi(-(a + s)) in log space: ln u + s^2/2 + log_ndtr(-(a + s))
            second = np.exp(np.log(u) + 0.5 * s * s + sc.log_ndtr(-(a + s)))
        out = 0.5 * (sc.ndtr(-a) - second)
        return np.where(u == 0.0, 0.5, np.maximum(out, 0.0))

    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -sgn(z) phi(c)/(Phi(-c) sigma |z|), c = ln|z|/sigma + sigma (0 at z = 0, the limit)."""
        z = np.asarray(z, dtype=float)
        s = self.sigma
        az = np.abs(z)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            c = np.log(az) / s + s
            log_ratio = -0.5 * c * c - _LOG_SQRT_2PI - sc.log_ndtr(-c) - np.log(s * az)
            out = -np.sign(z) * np.exp(log_ratio)
        return np.where(az == 0.0, 0.0, out)

    def _breakpoint_c(self) -> tuple[float, float]:
        """(c1, c2) on the scale c = ln z/sigma + sigma: lambda(c1) - c1 = sigma and lambda(c2) = sigma, with
        lambda(c) = phi(c)/Phi(-c) the Gaussian hazard (increasing; lambda - c decreasing from inf to 0)."""
        from scipy.optimize import brentq  # noqa: PLC0415

        s = self.sigma

        def hazard(c: float) -> float:
            return math.exp(-0.5 * c * c - _LOG_SQRT_2PI - float(sc.log_ndtr(-c)))

        def bracket(g: Any, lo: float, hi: float) -> float:
            while g(lo) > 0:
                lo -= 2.0 * (abs(lo) + 1.0)
            while g(hi) < 0:
                hi += 2.0 * (abs(hi) + 1.0)
            return float(brentq(g, lo, hi, xtol=1e-14))

        c1 = bracket(lambda c: s - (hazard(c) - c), -1.0, 1.0)  # lambda - c decreasing: s - (lambda - c) increasing
        c2 = bracket(lambda c: hazard(c) - s, -1.0, 1.0)
        return c1, c2

    def _score_breakpoints(self) -> tuple[float, ...]:
        """(z1, z2) = e^(sigma (c - sigma)) at c1, c2 of :meth:`_breakpoint_c`.

        Derived here.  For z > 0, |psi(z)| = lambda(c) e^(sigma^2 - sigma c)/sigma with c = ln z/sigma + sigma;
        d/dc ln|psi| = lambda'(c)/lambda(c) - sigma = lambda(c) - c - sigma (lambda' = lambda (lambda - c)),
        and lambda - c decreases from inf to 0, so |psi| increases up to c1 and decreases after.
        1 + z psi(z) = 1 - lambda(c)/sigma decreases (lambda increasing) through 0 at c2: |1 + z psi|
        decreases on [0, z2] and increases after.  No kink: psi -> 0 as z -> 0."""
        c1, c2 = self._breakpoint_c()
        s = self.sigma
        return tuple(sorted((math.exp(s * (c1 - s)), math.exp(s * (c2 - s)))))

    @property
    def score_sup(self) -> float:
        """sup_z |psi(z)| = lambda(c1) e^(sigma^2 - sigma c1)/sigma = (c1 + sigma) e^(sigma^2 - sigma c1)/sigma
        (:meth:`_score_breakpoints`; lambda(c1) = c1 + sigma), the Lipschitz constant of ln h (derived here)."""
        c1, _ = self._breakpoint_c()
        s = self.sigma
        return (c1 + s) * math.exp(s * s - s * c1) / s

    @property
    def score_scale_limit(self) -> float:
        """math.inf: |1 + z psi(z)| grows like ln z / sigma^2."""
        return math.inf

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return rng.uniform(-1.0, 1.0, size) * np.exp(self.sigma * rng.standard_normal(size))

    def _variance(self) -> float:
        """E[U^2] E[e^(2 sigma Y)] = e^(2 sigma^2)/3."""
        return math.exp(2.0 * self.sigma**2) / 3.0


class ArsinhNormal(_BunSteinke):
    """Z = sinh(sigma Y)/sigma, Y ~ N(0, 1) (Bun & Steinke 2019's arsinh-normal); F(z) = Phi(v),
    h(z) = phi(v)/sqrt(1 + sigma^2 z^2), v = arsinh(sigma z)/sigma."""

    name = "arsinh_normal"

    def _v(self, z: FloatArray) -> FloatArray:
        return np.arcsinh(self.sigma * np.asarray(z, dtype=float)) / self.sigma

    def _logpdf(self, z: FloatArray) -> FloatArray:
        z = np.asarray(z, dtype=float)
        v = self._v(z)
        sz = self.sigma * np.abs(z)
        # ln sqrt(1 + s^2 z^2) = ln(s|z|) + log1p((s z)^-2)/2 for s|z| > 1 (no overflow of z^2)
        with np.errstate(divide="ignore", over="ignore"):
            half_log = np.where(sz > 1.0, np.log(sz) + 0.5 * np.log1p(1.0 / np.maximum(sz, 1.0) ** 2),
                                0.5 * np.log1p(np.minimum(sz, 1.0) ** 2))
        return -0.5 * v * v - _LOG_SQRT_2PI - half_log

    def _sf_pos(self, u: FloatArray) -> FloatArray:
        return sc.ndtr(-self._v(u))

    def _ppf(self, q: FloatArray) -> FloatArray:
        return np.sinh(self.sigma * sc.ndtri(q)) / self.sigma

    def _isf(self, q: FloatArray) -> FloatArray:
        return -self._ppf(q)

    def _score(self, z: FloatArray) -> FloatArray:
        """psi(z) = -(v w + sigma^2 z w^2), w = 1/sqrt(1 + sigma^2 z^2)."""
        z = np.asarray(z, dtype=float)
        s = self.sigma
        with np.errstate(over="ignore"):
            w = 1.0 / np.hypot(1.0, s * z)
            return -(self._v(z) * w + s * s * z * w * w)

    def _score_derivative(self, z: FloatArray) -> FloatArray:
        """psi'(z) = -w^2 + sigma^2 z v w^3 - sigma^2 w^2 + 2 sigma^4 z^2 w^4 (w' = -sigma^2 z w^3, v' = w)."""
        s = self.sigma
        w = 1.0 / np.hypot(1.0, s * z)
        return -w * w + s * s * z * self._v(z) * w**3 - s * s * w * w + 2.0 * s**4 * z * z * w**4

    def _score_breakpoints(self) -> tuple[float, ...]:
        """The z > 0 where psi' = 0 (the peak of |psi|) and where 1 + z psi = 0 (|1 + z psi| has its
        zero there and increases after), each bracketed and solved by brentq."""
        from scipy.optimize import brentq  # noqa: PLC0415

        def scale_term(z: float) -> float:
            return float(1.0 + z * self._score(np.array(z)))

        def dpsi(z: float) -> float:
            return float(self._score_derivative(np.array(z)))

        pts = []
        hi = 1.0
        while dpsi(hi) < 0:
            hi *= 2.0
        pts.append(brentq(dpsi, 0.0, hi, xtol=1e-14))
        hi = 1.0
        while scale_term(hi) > 0:
            hi *= 2.0
        pts.append(brentq(scale_term, 0.0, hi, xtol=1e-14))
        return tuple(sorted(pts))

    @property
    def score_scale_limit(self) -> float:
        """math.inf: |1 + z psi(z)| ~ ln(2 sigma z)/sigma^2."""
        return math.inf

    @property
    def score_sup(self) -> float:
        """sup_z |psi(z)|, attained at the breakpoint where psi' = 0; <= 2/(3 sigma) + sigma/2 =
        (4 + 3 sigma^2)/(6 sigma): with x = sigma v, |psi| = (x/cosh x)/sigma + sigma tanh(x)/cosh(x), and
        x/cosh x <= 2/3, tanh x/cosh x = sinh x/cosh^2 x <= 1/2 (derived here)."""
        # |psi| is monotone between the breakpoints, 0 at z = 0 and decreasing beyond the last one
        pts = np.array(self._score_breakpoints())
        return float(np.max(np.abs(self._score(pts))))

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return np.sinh(self.sigma * rng.standard_normal(size)) / self.sigma

    def _variance(self) -> float:
        """E[sinh^2(sigma Y)]/sigma^2 = (e^(2 sigma^2) - 1)/(2 sigma^2) (E cosh(2 sigma Y) = e^(2 sigma^2))."""
        s2 = self.sigma**2
        return math.expm1(2.0 * s2) / (2.0 * s2)
