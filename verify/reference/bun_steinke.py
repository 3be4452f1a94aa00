"""Independent mpmath references for the Bun & Steinke (2019) noise families, from their definitions only.

With X ~ Laplace(0, 1), U ~ Uniform[-1, 1], Y ~ N(0, 1) independent and sigma > 0 (Bun & Steinke 2019,
"Average-case averages"): LLN(sigma) is X e^(sigma Y), ULN(sigma) is U e^(sigma Y), and the arsinh-normal
is sinh(sigma Y)/sigma.  Each density and tail below is the conditional law given Y = y integrated
against phi(y) by mpmath quadrature (tanh-sinh, split at the maximiser of the integrand), or the change
of variables of a monotone transform -- never the closed forms or the quadrature of the core.  The LLN integrands
are exp(G(y)) with G concave and G'' <= -1, so integrating over y* +- 40 around the maximiser y* drops
less than e^-800 times the peak (the far left tail is not sampled: exp(-z e^(-sigma y)) there has
exponents mpmath cannot evaluate in reasonable time):

* LLN:  h(z) = integral phi(y) e^(-sigma y) exp(-|z| e^(-sigma y))/2 dy,
        P(Z > z) = integral phi(y) exp(-z e^(-sigma y))/2 dy      (z >= 0);
* ULN:  h(z) = integral_{e^(sigma y) >= |z|} phi(y) e^(-sigma y)/2 dy,
        P(Z > z) = integral_{e^(sigma y) >= z} phi(y) (1 - z e^(-sigma y))/2 dy   (z >= 0);
* arsinh-normal: P(Z <= z) = P(Y <= arsinh(sigma z)/sigma), h = d/dz of it (the Jacobian written out).

Nothing here sets ``mp.dps``: wrap calls in ``mpmath.workdps(...)``.
"""

from __future__ import annotations

from typing import Any

import mpmath

__all__ = ["lln_pdf", "lln_sf", "lln_moment_integral", "lln_score", "uln_pdf", "uln_sf", "uln_score",
           "arsinh_normal_pdf", "arsinh_normal_cdf", "arsinh_normal_score", "second_moment"]


def _phi(y: Any) -> Any:
    return mpmath.exp(-y * y / 2) / mpmath.sqrt(2 * mpmath.pi)


def _quad_scaled(f: Any, pts: list[Any]) -> Any:
    """mpmath.quad of f over the pieces, relative to f's largest value at the split points (mpmath's
    tolerance is absolute: a density of 1e-46 would otherwise be 'converged' after a few nodes)."""
    scale = max(abs(f(p)) for p in pts if mpmath.isfinite(p))
    if scale == 0:
        scale = mpmath.mpf(1)
    return scale * mpmath.quad(lambda y: f(y) / scale, pts)


_SPLITS = (-40, -16, -8, -4, -2, -1, -0.5, -0.25, 0, 0.25, 0.5, 1, 2, 4, 8, 16, 40)


def _peak(a: Any, s: Any, k: int) -> Any:
    """The maximiser y* of the concave G(y) = -y^2/2 - k s y - a e^(-s y) (a >= 0): the root of the
    increasing G'(y) = -(y + k s - a s e^(-s y)), by bisection (a split point for the quadrature)."""
    def d(y: Any) -> Any:
        return y + k * s - a * s * mpmath.exp(-s * y)

    lo, hi = -k * s - 1, abs(mpmath.log(a * s + 1)) / s + 1
    while d(hi) < 0:
        hi = 2 * hi + 1
    for _ in range(80):
        mid = (lo + hi) / 2
        if d(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def lln_pdf(z: Any, sigma: Any) -> mpmath.mpf:
    """Density of X e^(sigma Y) at z: E_Y[e^(-sigma Y) exp(-|z| e^(-sigma Y))/2]."""
    z, s = abs(mpmath.mpf(z)), mpmath.mpf(sigma)

    def f(y: Any) -> Any:
        return _phi(y) * mpmath.exp(-s * y - z * mpmath.exp(-s * y)) / 2

    m = _peak(z, s, 1)
    return _quad_scaled(f, [m + d for d in _SPLITS])


def lln_moment_integral(z: Any, sigma: Any, k: int) -> mpmath.mpf:
    """I_k(z) = E_Y[e^(-k sigma Y) exp(-|z| e^(-sigma Y))] (k = 1: 2 h(z); h^(j)(z) = (-1)^j I_(j+1)(z)/2 for z > 0,
    differentiating under the integral sign)."""
    z, s = abs(mpmath.mpf(z)), mpmath.mpf(sigma)

    def f(y: Any) -> Any:
        return _phi(y) * mpmath.exp(-k * s * y - z * mpmath.exp(-s * y))

    m = _peak(z, s, k)
    return _quad_scaled(f, [m + d for d in _SPLITS])


def lln_score(z: Any, sigma: Any) -> mpmath.mpf:
    """d/dz ln h(z) of LLN for z != 0: -sgn(z) I_2(|z|)/I_1(|z|) (the right limit at z = 0)."""
    z = mpmath.mpf(z)
    r = lln_moment_integral(z, sigma, 2) / lln_moment_integral(z, sigma, 1)
    return r if z < 0 else -r


def lln_sf(z: Any, sigma: Any) -> mpmath.mpf:
    """P(X e^(sigma Y) > z) for z >= 0: E_Y[P(X > z e^(-sigma Y))] = E_Y[exp(-z e^(-sigma Y))/2]."""
    z, s = mpmath.mpf(z), mpmath.mpf(sigma)
    if z < 0:
        raise ValueError(f"z must be >= 0; got z={z}")

    def f(y: Any) -> Any:
        return _phi(y) * mpmath.exp(-z * mpmath.exp(-s * y)) / 2

    m = _peak(z, s, 0)
    return _quad_scaled(f, [m + d for d in _SPLITS])


def uln_pdf(z: Any, sigma: Any) -> mpmath.mpf:
    """Density of U e^(sigma Y) at z: given Y = y the law is uniform on [-e^(sigma y), e^(sigma y)] (density
    e^(-sigma y)/2), so h(z) = integral over {y : e^(sigma y) >= |z|} of phi(y) e^(-sigma y)/2."""
    z, s = abs(mpmath.mpf(z)), mpmath.mpf(sigma)

    def f(y: Any) -> Any:
        return _phi(y) * mpmath.exp(-s * y) / 2

    if z == 0:
        return mpmath.quad(f, [-mpmath.inf, -s, mpmath.inf])
    c = mpmath.log(z) / s
    return _quad_scaled(f, [c, max(c, -s) + 1, mpmath.inf])


def uln_sf(z: Any, sigma: Any) -> mpmath.mpf:
    """P(U e^(sigma Y) > z) for z >= 0: E_Y[(1 - z e^(-sigma Y))_+ / 2]."""
    z, s = mpmath.mpf(z), mpmath.mpf(sigma)
    if z < 0:
        raise ValueError(f"z must be >= 0; got z={z}")
    if z == 0:
        return mpmath.mpf(1) / 2

    def f(y: Any) -> Any:
        return _phi(y) * (1 - z * mpmath.exp(-s * y)) / 2

    c = mpmath.log(z) / s
    return _quad_scaled(f, [c, max(c, 0) + 1, c + 2, mpmath.inf])


def arsinh_normal_cdf(z: Any, sigma: Any) -> mpmath.mpf:
    """P(sinh(sigma Y)/sigma <= z) = P(Y <= arsinh(sigma z)/sigma) (sinh is increasing)."""
    s = mpmath.mpf(sigma)
    v = mpmath.asinh(s * mpmath.mpf(z)) / s
    return mpmath.ncdf(v)


def arsinh_normal_pdf(z: Any, sigma: Any) -> mpmath.mpf:
    """d/dz P(Y <= v(z)) = phi(v(z)) v'(z), v(z) = arsinh(sigma z)/sigma, v'(z) = 1/sqrt(1 + sigma^2 z^2)."""
    s, z = mpmath.mpf(sigma), mpmath.mpf(z)
    v = mpmath.asinh(s * z) / s
    return _phi(v) / mpmath.sqrt(1 + s * s * z * z)


def uln_score(z: Any, sigma: Any) -> mpmath.mpf:
    """d/dz ln h(z) of ULN for z != 0, from h(z) = integral over {e^(sigma y) >= |z|} of phi(y) e^(-sigma y)/2:
    h'(z) = -sgn(z) phi(y_z) e^(-sigma y_z)/2 * dy_z/d|z| with y_z = ln|z|/sigma, dy_z/d|z| = 1/(sigma |z|)
    (Leibniz rule at the lower limit), divided by h(z)."""
    z, s = mpmath.mpf(z), mpmath.mpf(sigma)
    az = abs(z)
    y = mpmath.log(az) / s
    dh = -_phi(y) * mpmath.exp(-s * y) / 2 / (s * az)
    out = dh / uln_pdf(az, s)
    return out if z > 0 else -out


def arsinh_normal_score(z: Any, sigma: Any) -> mpmath.mpf:
    """d/dz ln h(z) of the arsinh-normal, by mpmath's numerical differentiation of ln arsinh_normal_pdf."""
    return mpmath.diff(lambda x: mpmath.log(arsinh_normal_pdf(x, sigma)), mpmath.mpf(z))


def second_moment(pdf: Any, sigma: Any) -> mpmath.mpf:
    """E[Z^2] = 2 integral_0^inf z^2 h(z) dz for a symmetric reference density ``pdf(z, sigma)`` (mpmath quad,
    split on a geometric grid: the tails are log-normal-like)."""
    pts = [mpmath.mpf(0)] + [mpmath.mpf(2) ** k for k in range(-4, 40)] + [mpmath.inf]
    return 2 * mpmath.quad(lambda z: z * z * pdf(z, sigma), pts)
