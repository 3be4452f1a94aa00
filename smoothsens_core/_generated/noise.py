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

PolyPlace(s, alpha) of 002 Def. 6: log normaliser, variance, survival-function constants (derivations.polyplace).

Student's t T_nu(0, 1) of 004 Sec. 2.1: log normaliser and variance (derivations.student_t).

Functions: gencauchy4_cdf, gencauchy_cdf, gencauchy_log_normaliser, gencauchy_variance, polyplace_inner_constant, polyplace_log_normaliser, polyplace_log_tail_constant, polyplace_variance, student_t_log_normaliser, student_t_variance.
"""

import numpy
import scipy.special

from smoothsens_core._elementwise import elementwise as _elementwise

__all__ = ['gencauchy4_cdf', 'gencauchy_cdf', 'gencauchy_log_normaliser', 'gencauchy_variance', 'polyplace_inner_constant', 'polyplace_log_normaliser', 'polyplace_log_tail_constant', 'polyplace_variance', 'student_t_log_normaliser', 'student_t_variance']


@_elementwise
def gencauchy4_cdf(z):
    """CDF of GenCauchy(0,1,4,1), 004 App. C.1, in a cancellation-free form (c = sqrt2/pi, q = |z|):
    F(z) = lower(q) for z < 0, 1 - lower(q) for z >= 0;  lower(q) = 1/2 - c H(q) for q <= 1,
    c A(1/q) for q > 1, H(q) = (atanh(sqrt2 q/(1+q^2)) + atan2(sqrt2 q, 1-q^2))/(2 sqrt2) (the printed H),
    A(w) = int_0^w u^2/(1+u^4) du = (w^3/3) 2F1(1, 3/4; 7/4; -w^4) (the tail, no 1/2 - ... cancellation)."""
    _x0 = numpy.sqrt(2)
    _x1 = numpy.pi**(-1.0)
    _x2 = (1/3)*_x0*_x1*scipy.special.hyp2f1(3/4, 1, 7/4, -1/numpy.square(numpy.square(z)))/(numpy.square(z)*z)
    _x3 = _x0*z
    _x4 = z**2
    _x5 = 1 - _x4
    _x6 = numpy.arctanh(_x3/(_x4 + 1))
    _x7 = (1/2)*_x1
    return numpy.where(numpy.less(z, 0), numpy.where(numpy.less(z, -1), -_x2, -_x7*(-_x6 + numpy.arctan2(-_x3, _x5)) + 1/2), 1 - numpy.where(numpy.greater(z, 1), _x2, -_x7*(_x6 + numpy.arctan2(_x3, _x5)) + 1/2))


@_elementwise
def gencauchy_cdf(z, p, theta):
    """CDF of GenCauchy(0,1,p,theta) (derived; regularised incomplete beta I):
    F(z) = T/2 for z < 0, 1 - T/2 for z >= 0, T = P(|Z| > |z|) =
    I_s(theta - 1/p, 1/p), s = 1/(1+|z|^p) (as |z|^-p/(1+|z|^-p)) for |z| >= 1;
    1 - I_t(1/p, theta - 1/p) (betaincc), t = |z|^p/(1+|z|^p) for |z| < 1."""
    _x0 = p**(-1.0)
    _x1 = p*theta - 1
    _x2 = _x0*_x1
    _x3 = abs(z)
    _x4 = p*numpy.log(_x3)
    _x5 = numpy.exp(_x4)
    _x6 = numpy.exp(-_x4)
    _x7 = -_x4 - numpy.log1p(_x6)
    _x8 = theta**(-1.0)
    _x9 = theta**(-2.0)
    _x10 = p**2/_x1**2
    _x11 = p/_x1
    _x12 = (1/2)*numpy.where(numpy.less(_x3, 1), scipy.special.betaincc(_x0, _x2, _x5/(_x5 + 1)), numpy.where(numpy.greater(_x4, 644), _x11*numpy.exp(_x2*_x7 + numpy.where(numpy.less(_x2, 10), -scipy.special.gammaln(_x2) + scipy.special.gammaln(theta), _x0*numpy.log(theta) - _x0 - _x11*(_x10*(_x10*(_x10*(_x10*(_x10*(_x10*(1/156 - 3617/122400*_x10) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12) + _x8*(_x9*(_x9*(_x9*(_x9*(_x9*(_x9*(1/156 - 3617/122400*_x9) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12) - (_x0*_x1 - 1/2)*numpy.log1p(-_x0*_x8)) - scipy.special.gammaln(_x0))*scipy.special.hyp2f1(_x2, 1 - _x0, _x2 + 1, numpy.exp(_x7)), scipy.special.betainc(_x2, _x0, _x6/(_x6 + 1))))
    return numpy.where(numpy.less(z, 0), _x12, 1 - _x12)


@_elementwise
def gencauchy_log_normaliser(p, theta):
    """ln c_{p,theta} of 004 Sec. 2.1 (derived = printed):
    ln c = ln p - ln 2 - lnGamma(1/p) + [lnGamma(theta) - lnGamma(theta - 1/p)];  p > 0, p theta > 1.
    The bracket is the lnGamma difference for theta - 1/p < 10 and Stirling's formula with
    Binet's series (8 terms, |error| < 4e-18) beyond, so large theta loses no digits."""
    _x0 = p**(-1.0)
    _x1 = p*theta - 1
    _x2 = _x0*_x1
    _x3 = theta**(-1.0)
    _x4 = theta**(-2.0)
    _x5 = p**2/_x1**2
    return numpy.where(numpy.less(_x2, 10), -scipy.special.gammaln(_x2) + scipy.special.gammaln(theta), _x0*numpy.log(theta) - _x0 + _x3*(_x4*(_x4*(_x4*(_x4*(_x4*(_x4*(1/156 - 3617/122400*_x4) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12) - (_x0*_x1 - 1/2)*numpy.log1p(-_x0*_x3) - p*(_x5*(_x5*(_x5*(_x5*(_x5*(_x5*(1/156 - 3617/122400*_x5) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12)/_x1) + numpy.log(p) - scipy.special.gammaln(_x0) - numpy.log(2)


@_elementwise
def gencauchy_variance(p, theta):
    """Var of GenCauchy(0,1,p,theta) (derived from the density):
    Var = Gamma(3/p) Gamma(theta - 3/p) / (Gamma(1/p) Gamma(theta - 1/p)) if p theta > 3,
    +inf otherwise (004 Sec. 2.1: Var = 1 at p = 4, theta = 1); the ratio
    Gamma(theta - 3/p)/Gamma(theta - 1/p) as exp(-[lnGamma difference]) (Stirling for large theta)."""
    _x0 = p**(-1.0)
    _x1 = p*theta
    _x2 = _x1 - 3
    _x3 = _x0*_x2
    _x4 = _x1 - 1
    _x5 = _x4**(-1.0)
    _x6 = p**2
    _x7 = _x6/_x2**2
    _x8 = _x6/_x4**2
    return numpy.where(numpy.greater(_x1, 3), numpy.exp(-numpy.where(numpy.less(_x3, 10), -scipy.special.gammaln(_x3) + scipy.special.gammaln(_x0*_x4), 2*_x0*(numpy.log(_x4) - numpy.log(p)) - 2*_x0 + _x5*p*(_x8*(_x8*(_x8*(_x8*(_x8*(_x8*(1/156 - 3617/122400*_x8) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12) - (_x0*_x2 - 1/2)*numpy.log1p(-2*_x5) - p*(_x7*(_x7*(_x7*(_x7*(_x7*(_x7*(1/156 - 3617/122400*_x7) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12)/_x2) - scipy.special.gammaln(_x0) + scipy.special.gammaln(3*_x0)), numpy.inf)


@_elementwise
def polyplace_inner_constant(alpha):
    """K of the PolyPlace(1, alpha) survival function near 0: P(Z > z) = 1/2 - K (1 - (1 - z)^alpha)
    for 0 <= z < 1/alpha (integrated from 002 Def. 6; K (1 - (1-z)^alpha) = I1(alpha, z) - I1(alpha, 0)
    of 002 App. A):  K = (alpha - 1) / (2 (2 W + alpha - 1))."""
    _x0 = alpha - 1
    return (1/2)*_x0/(_x0 + 2*numpy.exp(alpha*numpy.where(numpy.less(alpha, 2), numpy.log(_x0) - numpy.log(alpha), numpy.log1p(-1/alpha))))


@_elementwise
def polyplace_log_normaliser(s, alpha):
    """ln N_{s,alpha} of 002 Def. 6 (Lemma 7), derived from the density:
    ln N = ln(alpha) - ln(2) - ln(s) - ln(2 W + alpha - 1),  W = ((alpha-1)/alpha)^alpha
    (W = exp(alpha ln W), ln W = ln(alpha-1) - ln(alpha) for alpha < 2, alpha log1p(-1/alpha) otherwise).
    Domain: s > 0, alpha > 1."""
    _x0 = numpy.log(alpha)
    _x1 = alpha - 1
    return _x0 - numpy.log(s) - numpy.log(_x1 + 2*numpy.exp(alpha*numpy.where(numpy.less(alpha, 2), -_x0 + numpy.log(_x1), numpy.log1p(-1/alpha)))) - numpy.log(2)


@_elementwise
def polyplace_log_tail_constant(alpha):
    """ln C of the PolyPlace(1, alpha) tail P(Z > z) = C (1 + z)^(-alpha), z >= 1/alpha (integrated
    from 002 Def. 6; C = -I2(alpha, z)(1+z)^alpha of 002 App. A):
    C = (alpha + 1) W V / (2 (2 W + alpha - 1)),  W = (1 - 1/alpha)^alpha, V = (1 + 1/alpha)^alpha
    (W V = (1 - 1/alpha^2)^alpha; ln W as in polyplace_log_normaliser, ln V = alpha log1p(1/alpha))."""
    _x0 = alpha**(-1.0)
    _x1 = alpha - 1
    _x2 = alpha*numpy.where(numpy.less(alpha, 2), numpy.log(_x1) - numpy.log(alpha), numpy.log1p(-_x0))
    return _x2 + alpha*numpy.log1p(_x0) - numpy.log(_x1 + 2*numpy.exp(_x2)) + numpy.log1p(alpha) - numpy.log(2)


@_elementwise
def polyplace_variance(s, alpha):
    """Variance of PolyPlace(s, alpha), 002 Lemma 13 (derived; equals the printed form):
    Var = 2 s^2 ((19 alpha^2 + 5) W + (alpha - 2)(alpha - 1)^2)
          / ((2 W + alpha - 1)(alpha^2 - 1)(alpha^2 - 4))   for alpha > 2,
    W = ((alpha-1)/alpha)^alpha; +inf for 1 < alpha <= 2 (tail ~ |x|^(-alpha-1))."""
    _x0 = alpha - 1
    _x1 = numpy.exp(alpha*numpy.where(numpy.less(alpha, 2), numpy.log(_x0) - numpy.log(alpha), numpy.log1p(-1/alpha)))
    _x2 = alpha**2
    return numpy.where(numpy.greater(alpha, 2), 2*s**2*(19*_x1*_x2 + 5*_x1 - 4*_x2 + alpha**3 + 5*alpha - 2)/(_x0*(_x0 + 2*_x1)*(alpha - 2)*(alpha + 1)*(alpha + 2)), numpy.inf)


@_elementwise
def student_t_log_normaliser(nu):
    """ln(c_nu / sqrt(nu)), the constant of the T_nu(0,1) density (004 Sec. 2.1):
    [lnGamma((nu+1)/2) - lnGamma(nu/2)] - ln(pi)/2 - ln(nu)/2;  nu > 0.
    The bracket is the lnGamma difference for nu < 20 and Stirling's formula with Binet's
    series (8 terms, |error| < 4e-18) beyond, so large nu loses no digits."""
    _x0 = -1/2*numpy.log(2)
    _x1 = nu**(-1.0)
    _x2 = (1/2)*nu
    _x3 = _x2 + 1/2
    _x4 = _x3**(-1.0)
    _x5 = nu**(-2.0)
    _x6 = 4*_x5
    _x7 = _x3**(-2.0)
    return _x0 + numpy.where(numpy.less(nu, 20), -_x0 - 1/2*numpy.log1p(nu) - scipy.special.gammaln(_x2) + scipy.special.gammaln(_x3), -2*_x1*(_x6*(4*_x5*(_x6*(4*_x5*(_x6*(4*_x5*(1/156 - 3617/30600*_x5) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12) + _x4*(_x7*(_x7*(_x7*(_x7*(_x7*(_x7*(1/156 - 3617/122400*_x7) - 691/360360) + 1/1188) - 1/1680) + 1/1260) - 1/360) + 1/12) - (_x2 - 1/2)*numpy.log1p(-1/2*_x4) - 1/2) + (1/2)*numpy.log1p(_x1) - 1/2*numpy.log(numpy.pi)


@_elementwise
def student_t_variance(nu):
    """Var of T_nu(0,1): nu/(nu-2) for nu > 2, +inf otherwise (004 Sec. 2.1, derived)."""
    return numpy.where(numpy.greater(nu, 2), nu/(nu - 2), numpy.inf)
