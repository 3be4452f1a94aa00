# ================================================================================================
# GENERATED FILE - DO NOT EDIT.
# Written by derivations/codegen.py (`smoothsens regenerate`) with SymPy 1.14.0.
# Derivations:
#   derivations.stationary_004 (004 Sec. 4.3, Lemmas 4.6-4.7, App. A.4)
# Check with `smoothsens regenerate --check`; update with `smoothsens regenerate`.
# ================================================================================================
"""Generated evaluators: stationary_004 (do not edit; see the banner).

Gaussian-KDE stationary-point objectives of 004 Lemmas 4.6-4.7 (derivations.stationary_004).

Functions: kde_chi, kde_ell_series, kde_log_slope, kde_log_slope_series, kde_psi.
"""

import numpy

from smoothsens_core._elementwise import elementwise as _elementwise

__all__ = ['kde_chi', 'kde_ell_series', 'kde_log_slope', 'kde_log_slope_series', 'kde_psi']


@_elementwise
def kde_chi(a, b):
    """chi(a, b) = 1 + a(a - b) - e^{(a^2 - b^2)/2} = -e^{a^2/2} phi_0(a, b) (004 App. A.4 eq. (2)),
    used for b >= 2 where the partner a is near the root of 1 + a(a - b)."""
    _x0 = a - b
    return _x0*a - numpy.expm1((1/2)*_x0*(a + b))


@_elementwise
def kde_ell_series(e):
    """ell(1 + e) = e^{-1/2}(1 - e^2/4 + 5e^3/96 + 191e^4/5120) + O(e^5): the steepest chord
    slope of k near its inflection point (triple root of phi_0 at a = b = 1)."""
    _x0 = numpy.exp(-1/2)
    return (191/5120)*_x0*e**4 + (5/96)*_x0*e**3 - 1/4*_x0*e**2 + _x0


@_elementwise
def kde_log_slope(a, b):
    """D(a, b) = (k'(a) - k'(b))/((a - b) k'(a)), k(u) = e^{-u^2/2}: d ln ell/db at the chord
    partner a = alpha(b) (envelope theorem; corrected S_1 condition of 004 Lemma 4.6);
    evaluated as -expm1((a - b)(a + b)/2 + ln(b/a))/(a - b)."""
    _x0 = a - b
    return -numpy.expm1((1/2)*_x0*(a + b) + numpy.log1p(-_x0/a))/_x0


@_elementwise
def kde_log_slope_series(e):
    """D(1 + e) = -e/2 + 5e^2/32 + 31e^3/1280 + O(e^4): d ln ell/db near b = 1."""
    return (31/1280)*e**3 + (5/32)*e**2 - 1/2*e


@_elementwise
def kde_psi(a, b):
    """psi(a, b) = log(1 + a(a - b)) - a(a - b) + (a - b)^2/2: the log form of
    phi_0(a, b) = e^{-b^2/2} - (1 + a(a - b)) e^{-a^2/2} = 0 (004 App. A.4 eq. (2)),
    evaluated as log1p(u) + (b - a)(b + a)/2 (u = a(a - b)), or for |u| < 1/10 as
    (a - b)^2 (1 - a^2)/2 + the series of log1p(u) - u + u^2/2 (no cancellation near a = b)."""
    _x0 = a - b
    _x1 = _x0*a
    return numpy.where(numpy.less(abs(_x1), 1/10), _x0**3*a**3*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(_x1*(1/19 - 1/20*_x1) - 1/18) + 1/17) - 1/16) + 1/15) - 1/14) + 1/13) - 1/12) + 1/11) - 1/10) + 1/9) - 1/8) + 1/7) - 1/6) + 1/5) - 1/4) + 1/3) + (1/2)*_x0**2*(1 - a)*(a + 1), -1/2*_x0*(a + b) + numpy.log1p(_x1))
