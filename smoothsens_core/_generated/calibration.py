# ================================================================================================
# GENERATED FILE - DO NOT EDIT.
# Written by derivations/codegen.py (`smoothsens regenerate`) with SymPy 1.14.0.
# Derivations:
#   derivations.polyplace (002 Thm. 8, Lemma 12)
#   derivations.privacy_loss (004 Lemmas 3.3, 3.5, 3.6, Cor. 3.2; 000 Thm. 1)
# Check with `smoothsens regenerate --check`; update with `smoothsens regenerate`.
# ================================================================================================
"""Generated evaluators: calibration (do not edit; see the banner).

PolyPlace mechanism of 002 Thm. 8: eps = alpha/s at s = 1/gamma (derivations.polyplace).

Privacy parameters of the smooth-sensitivity mechanisms, derived from the noise
densities: eps = gamma * sup|D_scale| + eta * sup|D_shift| (derivations.privacy_loss).

Functions: admissible_alpha_000, admissible_beta_000, admissible_beta_000_printed, alpha_polyplace, delta_laplace_gl, eps_gencauchy_gp, eps_gencauchy_nrs07, eps_laplace_gl, eps_laplace_nrs07, eps_polyplace, eps_student_t_bs19, eps_student_t_gp, eta_gencauchy_gp, eta_gencauchy_nrs07, eta_laplace_gl, eta_laplace_nrs07, eta_student_t_bs19, eta_student_t_gp, gamma_max_gencauchy_gp, gamma_max_gencauchy_nrs07, gamma_max_laplace_gl, gamma_max_laplace_nrs07, gamma_max_student_t_bs19, gamma_max_student_t_gp.
"""

import numpy

from smoothsens_core._elementwise import elementwise as _elementwise

__all__ = ['admissible_alpha_000', 'admissible_beta_000', 'admissible_beta_000_printed', 'alpha_polyplace', 'delta_laplace_gl', 'eps_gencauchy_gp', 'eps_gencauchy_nrs07', 'eps_laplace_gl', 'eps_laplace_nrs07', 'eps_polyplace', 'eps_student_t_bs19', 'eps_student_t_gp', 'eta_gencauchy_gp', 'eta_gencauchy_nrs07', 'eta_laplace_gl', 'eta_laplace_nrs07', 'eta_student_t_bs19', 'eta_student_t_gp', 'gamma_max_gencauchy_gp', 'gamma_max_gencauchy_nrs07', 'gamma_max_laplace_gl', 'gamma_max_laplace_nrs07', 'gamma_max_student_t_bs19', 'gamma_max_student_t_gp']


@_elementwise
def admissible_alpha_000(eps, k, l):
    """000 Thm. 1 sliding parameter of h(z) ~ 1/(|z|^k + l), derived (= printed):
    alpha = eps l^(1/k) / (2 (k-1)^((k-1)/k));  k > 1, l > 0."""
    _x0 = k - 1
    return (1/2)*eps*l*(_x0*l)**(-_x0/k)


@_elementwise
def admissible_beta_000(eps, k):
    """000 Thm. 1 dilation parameter of h(z) ~ 1/(|z|^k + l), derived:
    beta = eps / (2 max(1, k - 1))  (printed eps/(2(k-1)) is wrong for 1 < k < 2)."""
    return (1/2)*eps/numpy.maximum(1, k - 1)


@_elementwise
def admissible_beta_000_printed(eps, k):
    """000 Thm. 1 dilation parameter AS PRINTED: beta = eps / (2 (k - 1)); wrong for 1 < k < 2
    (erratum; use admissible_beta_000), kept to exhibit the erratum."""
    return eps/(2*k - 2)


@_elementwise
def alpha_polyplace(eps, gamma):
    """alpha of PolyPlace(SS/gamma, alpha) for a target eps, 002 Thm. 8 (eps_polyplace solved):
    alpha = eps / gamma;  0 < gamma < eps."""
    return eps/gamma


@_elementwise
def delta_laplace_gl(gamma, eta, eps):
    """delta of the Laplace mechanism with g_L for a target eps > eta, 004 Lemma 3.6 inverted:
    delta = exp(-(eps - eta)/gamma)."""
    return numpy.exp((-eps + eta)/gamma)


@_elementwise
def eps_gencauchy_gp(gamma, eta, p, theta, m):
    """eps of the GenCauchy(0,1,p,theta) smooth-sensitivity mechanism with g_E(.; gamma),
    004 Lemma 3.3 (m = 1) / Cor. 3.2 (m coordinates, l1 metric), derived:
    eps = m gamma max(1, p theta - 1) + eta theta (p - 1)^((p-1)/p);  p > 1, theta >= 1."""
    _x0 = p - 1
    return _x0**(_x0/p)*eta*theta + gamma*m*numpy.maximum(1, p*theta - 1)


@_elementwise
def eps_gencauchy_nrs07(gamma, eta, p):
    """[NRS07] eps of GenCauchy(0,1,p,1) as quoted in 004 (Remark after Lemma 3.5):
    eps = (p + 1) gamma + (p + 1) eta."""
    _x0 = p + 1
    return _x0*eta + _x0*gamma


@_elementwise
def eps_laplace_gl(gamma, eta, delta):
    """eps of the Laplace mechanism with g_L(x,x') = 1 + gamma dist, 004 Lemma 3.6, derived:
    eps = eta + gamma ln(1/delta);  gamma, eta > 0, 0 < delta < 1."""
    return eta - gamma*numpy.log(delta)


@_elementwise
def eps_laplace_nrs07(gamma, eta, delta):
    """eps of the Laplace mechanism with g_E as scaled in 002 Claim 18 (after [NRS07]), quoted:
    eps = eta + gamma ln(2/delta);  0 < delta < 1."""
    return eta + gamma*(-numpy.log(delta) + numpy.log(2))


@_elementwise
def eps_polyplace(gamma, alpha):
    """eps certified by PolyPlace(SS/gamma, alpha), 002 Thm. 8: the two log-derivatives of
    002 Lemma 12 sum to alpha/s, with s = 1/gamma per unit of the smooth sensitivity:
    eps = alpha gamma;  gamma > 0, alpha > 1."""
    return alpha*gamma


@_elementwise
def eps_student_t_bs19(gamma, eta, nu):
    """[BS19] eps of T_nu(0,1) as quoted in 004 (Remark after Lemma 3.5):
    eps = (nu + 1) gamma + (nu + 1)/(2 sqrt nu) eta."""
    _x0 = nu + 1
    return (1/2)*_x0*eta/numpy.sqrt(nu) + _x0*gamma


@_elementwise
def eps_student_t_gp(gamma, eta, nu):
    """eps of the Student's t T_nu(0,1) mechanism with g_E(.; gamma), 004 Lemma 3.5, derived:
    eps = nu gamma + eta (nu + 1)/(2 sqrt nu);  nu > 1 (sup|D_scale| = max(1, nu) = nu)."""
    return (1/2)*eta*(nu + 1)/numpy.sqrt(nu) + gamma*nu


@_elementwise
def eta_gencauchy_gp(eps, gamma, p, theta, m):
    """eta of eps_gencauchy_gp solved for a target eps (004 Lemma 3.3 / Cor. 3.2), derived by sp.solve:
    eta = (eps - gamma*m*Max(1, p*theta - 1))*(p - 1)**((1 - p)/p)/theta;  eta > 0 iff gamma < gamma_max_gencauchy_gp."""
    _x0 = p - 1
    return _x0**(-_x0/p)*(eps - gamma*m*numpy.maximum(1, p*theta - 1))/theta


@_elementwise
def eta_gencauchy_nrs07(eps, gamma, p):
    """eta of eps_gencauchy_nrs07 solved for a target eps ([NRS07] as quoted in 004 (Remark after Lemma 3.5)), derived by sp.solve:
    eta = (eps - gamma*p - gamma)/(p + 1);  eta > 0 iff gamma < gamma_max_gencauchy_nrs07."""
    return (eps - gamma*p - gamma)/(p + 1)


@_elementwise
def eta_laplace_gl(eps, gamma, delta):
    """eta of eps_laplace_gl solved for a target eps (004 Lemma 3.6), derived by sp.solve:
    eta = eps + gamma*log(delta);  eta > 0 iff gamma < gamma_max_laplace_gl."""
    return eps + gamma*numpy.log(delta)


@_elementwise
def eta_laplace_nrs07(eps, gamma, delta):
    """eta of eps_laplace_nrs07 solved for a target eps (002 Claim 18 (after [NRS07])), derived by sp.solve:
    eta = eps + gamma*log(delta) - gamma*log(2);  eta > 0 iff gamma < gamma_max_laplace_nrs07."""
    return eps + gamma*numpy.log(delta) - gamma*numpy.log(2)


@_elementwise
def eta_student_t_bs19(eps, gamma, nu):
    """eta of eps_student_t_bs19 solved for a target eps ([BS19] as quoted in 004 (Remark after Lemma 3.5)), derived by sp.solve:
    eta = 2*sqrt(nu)*(eps - gamma*nu - gamma)/(nu + 1);  eta > 0 iff gamma < gamma_max_student_t_bs19."""
    return 2*numpy.sqrt(nu)*(eps - gamma*nu - gamma)/(nu + 1)


@_elementwise
def eta_student_t_gp(eps, gamma, nu):
    """eta of eps_student_t_gp solved for a target eps (004 Lemma 3.5), derived by sp.solve:
    eta = 2*sqrt(nu)*(eps - gamma*nu)/(nu + 1);  eta > 0 iff gamma < gamma_max_student_t_gp."""
    return 2*numpy.sqrt(nu)*(eps - gamma*nu)/(nu + 1)


@_elementwise
def gamma_max_gencauchy_gp(eps, p, theta, m):
    """The largest gamma of eps_gencauchy_gp at a target eps (004 Lemma 3.3 / Cor. 3.2): eps(gamma, eta = 0) = eps solved,
    gamma_max = eps/(m*Max(1, p*theta - 1))."""
    return eps/(m*numpy.maximum(1, p*theta - 1))


@_elementwise
def gamma_max_gencauchy_nrs07(eps, p):
    """The largest gamma of eps_gencauchy_nrs07 at a target eps ([NRS07] as quoted in 004 (Remark after Lemma 3.5)): eps(gamma, eta = 0) = eps solved,
    gamma_max = eps/(p + 1)."""
    return eps/(p + 1)


@_elementwise
def gamma_max_laplace_gl(eps, delta):
    """The largest gamma of eps_laplace_gl at a target eps (004 Lemma 3.6): eps(gamma, eta = 0) = eps solved,
    gamma_max = -eps/log(delta)."""
    return -eps/numpy.log(delta)


@_elementwise
def gamma_max_laplace_nrs07(eps, delta):
    """The largest gamma of eps_laplace_nrs07 at a target eps (002 Claim 18 (after [NRS07])): eps(gamma, eta = 0) = eps solved,
    gamma_max = eps/(-log(delta) + log(2))."""
    return eps/(-numpy.log(delta) + numpy.log(2))


@_elementwise
def gamma_max_student_t_bs19(eps, nu):
    """The largest gamma of eps_student_t_bs19 at a target eps ([BS19] as quoted in 004 (Remark after Lemma 3.5)): eps(gamma, eta = 0) = eps solved,
    gamma_max = eps/(nu + 1).
    (The formula of gamma_max_gencauchy_nrs07.)"""
    return gamma_max_gencauchy_nrs07(eps, nu)


@_elementwise
def gamma_max_student_t_gp(eps, nu):
    """The largest gamma of eps_student_t_gp at a target eps (004 Lemma 3.5): eps(gamma, eta = 0) = eps solved,
    gamma_max = eps/nu."""
    return eps/nu
