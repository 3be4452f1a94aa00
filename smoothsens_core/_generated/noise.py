# ================================================================================================
# GENERATED FILE - DO NOT EDIT.
# Written by derivations/codegen.py (`smoothsens regenerate`) with SymPy 1.14.0.
# Derivations:
#   derivations.gencauchy (004 Sec. 2.1, App. C.1)
#   derivations.polyplace (002 Def. 6, Lemma 7, Lemma 13)
#   derivations.student_t (004 Sec. 2.1)
# Check with `smoothsens regenerate --check`; update with `smoothsens regenerate`.
# ================================================================================================
"""Generated evaluators: noise (do not edit; see the banner).

GenCauchy(0, 1, p, theta) of 004 Sec. 2.1: log normaliser, CDF, variance (derivations.gencauchy).

PolyPlace(s, alpha) of 002 Def. 6: log normaliser and variance (derivations.polyplace).

Student's t T_nu(0, 1) of 004 Sec. 2.1: log normaliser and variance (derivations.student_t).

Functions: gencauchy4_cdf, gencauchy_cdf, gencauchy_log_normaliser, gencauchy_variance, polyplace_log_normaliser, polyplace_variance, student_t_log_normaliser, student_t_variance.
"""

import numpy
import scipy.special

__all__ = ['gencauchy4_cdf', 'gencauchy_cdf', 'gencauchy_log_normaliser', 'gencauchy_variance', 'polyplace_log_normaliser', 'polyplace_variance', 'student_t_log_normaliser', 'student_t_variance']


def _finish(result, *args):
    """Broadcast ``result`` to the common shape of ``args``; a NumPy scalar for scalar input."""
    shape = numpy.broadcast_shapes(*(numpy.shape(a) for a in args))
    out = numpy.array(numpy.broadcast_to(numpy.asarray(result, dtype=numpy.float64), shape))
    return out[()]


def gencauchy4_cdf(z):
    """Closed-form CDF of GenCauchy(0,1,4,1), 004 App. C.1 (verified):
    F(q) = 1/2 + sgn(q) (sqrt2/pi) H(|q|),
    H(q) = (ln((q^2+sqrt2 q+1)/(q^2-sqrt2 q+1)) + 2 atan(1+sqrt2 q) - 2 atan(1-sqrt2 q))/(4 sqrt2).
    Accurate to ~1e-16 absolute; for relative accuracy deep in the lower tail use gencauchy_cdf.

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    z = numpy.asarray(z, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _x0 = numpy.sqrt(2)*abs(z)
        _x1 = _x0 + 1
        _x2 = z**2
        _x3 = (1/4)*(numpy.log(_x1 + _x2) + numpy.log((-_x0 + _x2 + 1)**(-1.0)) + 2*numpy.arctan(_x1) + 2*numpy.arctan(_x0 - 1))/numpy.pi
        _result = numpy.where(numpy.less(z, 0), 1/2 - _x3, _x3 + 1/2)
    return _finish(_result, z)


def gencauchy_cdf(z, p, theta):
    """CDF of GenCauchy(0,1,p,theta) (derived; regularised incomplete beta I):
    x = 1/(1+|z|^p) (computed as |z|^-p/(1+|z|^-p) for |z| > 1),
    F(z) = I_x(theta - 1/p, 1/p)/2 for z < 0, 1 - I_x(theta - 1/p, 1/p)/2 for z >= 0.

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    z = numpy.asarray(z, dtype=numpy.float64)
    p = numpy.asarray(p, dtype=numpy.float64)
    theta = numpy.asarray(theta, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _x0 = p**(-1.0)
        _x1 = abs(z)
        _x2 = (_x1**p + 1)**(-1.0)
        _x3 = numpy.less_equal(_x1, 1)
        _x4 = p*numpy.log(_x1)
        _x5 = numpy.exp(-_x4)
        _result = numpy.where(numpy.less(z, 0), (1/2)*scipy.special.betainc(_x0*(p*theta - 1), _x0, numpy.where(_x3, _x2, _x5/(_x5 + 1))), 1 - 1/2*scipy.special.betainc(-_x0 + theta, _x0, numpy.where(_x3, _x2, (numpy.exp(_x4) + 1)**(-1.0))))
    return _finish(_result, z, p, theta)


def gencauchy_log_normaliser(p, theta):
    """ln c_{p,theta} of 004 Sec. 2.1 (derived = printed):
    ln c = ln p - ln 2 + lnGamma(theta) - lnGamma(1/p) - lnGamma(theta - 1/p);
    p > 0, p theta > 1.  (For theta >> 1 the lnGamma difference loses ~log10(theta) digits.)

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    p = numpy.asarray(p, dtype=numpy.float64)
    theta = numpy.asarray(theta, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _x0 = p**(-1.0)
        _result = numpy.log(p) - scipy.special.gammaln(_x0) + scipy.special.gammaln(theta) - scipy.special.gammaln(_x0*(p*theta - 1)) - numpy.log(2)
    return _finish(_result, p, theta)


def gencauchy_variance(p, theta):
    """Var of GenCauchy(0,1,p,theta) (derived from the density):
    Var = Gamma(3/p) Gamma(theta - 3/p) / (Gamma(1/p) Gamma(theta - 1/p)) if p theta > 3,
    +inf otherwise (004 Sec. 2.1: Var = 1 at p = 4, theta = 1).

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    p = numpy.asarray(p, dtype=numpy.float64)
    theta = numpy.asarray(theta, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _x0 = p**(-1.0)
        _x1 = p*theta
        _result = numpy.where(numpy.greater(_x1, 3), numpy.exp(-scipy.special.gammaln(_x0) + scipy.special.gammaln(3*_x0) + scipy.special.gammaln(_x0*(_x1 - 3)) - scipy.special.gammaln(_x0*(_x1 - 1))), numpy.inf)
    return _finish(_result, p, theta)


def polyplace_log_normaliser(s, alpha):
    """ln N_{s,alpha} of 002 Def. 6 (Lemma 7), derived from the density:
    ln N = ln(alpha) - ln(2) - ln(s) - ln(2 W + alpha - 1),  W = ((alpha-1)/alpha)^alpha
    (W evaluated as exp(alpha log1p(-1/alpha))).  Domain: s > 0, alpha > 1.

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    s = numpy.asarray(s, dtype=numpy.float64)
    alpha = numpy.asarray(alpha, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _x0 = numpy.log(alpha)
        _x1 = alpha - 1
        _result = _x0 - numpy.log(s) - numpy.log(_x1 + 2*numpy.exp(alpha*numpy.where(numpy.less(alpha, 2), -_x0 + numpy.log(_x1), numpy.log1p(-1/alpha)))) - numpy.log(2)
    return _finish(_result, s, alpha)


def polyplace_variance(s, alpha):
    """Variance of PolyPlace(s, alpha), 002 Lemma 13 (derived; equals the printed form):
    Var = 2 s^2 ((19 alpha^2 + 5) W + (alpha - 2)(alpha - 1)^2)
          / ((2 W + alpha - 1)(alpha^2 - 1)(alpha^2 - 4))   for alpha > 2,
    W = ((alpha-1)/alpha)^alpha; +inf for 1 < alpha <= 2 (tail ~ |x|^(-alpha-1)).

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    s = numpy.asarray(s, dtype=numpy.float64)
    alpha = numpy.asarray(alpha, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _x0 = alpha - 1
        _x1 = numpy.exp(alpha*numpy.where(numpy.less(alpha, 2), numpy.log(_x0) - numpy.log(alpha), numpy.log1p(-1/alpha)))
        _x2 = alpha**2
        _result = numpy.where(numpy.greater(alpha, 2), 2*s**2*(19*_x1*_x2 + 5*_x1 - 4*_x2 + alpha**3 + 5*alpha - 2)/(_x0*(_x0 + 2*_x1)*(alpha - 2)*(alpha + 1)*(alpha + 2)), numpy.inf)
    return _finish(_result, s, alpha)


def student_t_log_normaliser(nu):
    """ln(c_nu / sqrt(nu)), the constant of the T_nu(0,1) density (004 Sec. 2.1):
    lnGamma((nu+1)/2) - lnGamma(nu/2) - ln(pi)/2 - ln(nu)/2;  nu > 0
    (the lnGamma difference evaluated as ln poch(nu/2, 1/2); relative accuracy ~1e-12 for
    nu <= ~1e3 and nu >= ~1e6, a few e-12 in between, limited by scipy's poch/gammaln).

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    nu = numpy.asarray(nu, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _result = -1/2*numpy.log(nu) + numpy.log(scipy.special.poch((1/2)*nu, 1/2)) - 1/2*numpy.log(numpy.pi)
    return _finish(_result, nu)


def student_t_variance(nu):
    """Var of T_nu(0,1): nu/(nu-2) for nu > 2, +inf otherwise (004 Sec. 2.1, derived).

    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy
    scalar for scalar input)."""
    nu = numpy.asarray(nu, dtype=numpy.float64)
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        # Branches of numpy.where are all evaluated; the unused ones may overflow.
        _result = numpy.where(numpy.greater(nu, 2), nu/(nu - 2), numpy.inf)
    return _finish(_result, nu)
