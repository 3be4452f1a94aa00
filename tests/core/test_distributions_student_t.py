"""Student's T_nu(a, tau) of 004 Sec. 2.1 against scipy.stats.t and mpmath.

References: scipy.stats.t (independent implementation: Boost/cephes stdtr, stdtrit) in the body,
mpmath.betainc at 40 digits in the far tails (where scipy's values are themselves the thing to check).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from smoothsens_core.distributions import StudentT
# The core's StudentT uses these generated evaluators (derivations/student_t.py); no hand-typed copy.
from smoothsens_core._generated.noise import student_t_log_normaliser as _student_t_log_normaliser
from smoothsens_core._generated.noise import student_t_variance as _student_t_variance
from verify.reference.distributions import reference_for, student_t_normaliser, student_t_pdf

NUS = [0.5, 1.0, 3.0, 30.0, 1e4]


@pytest.mark.parametrize("nu", [1e4, 1155444.2, 1e9, 1e15])
def test_student_t_density_at_large_nu_is_full_precision(nu):
    """pdf(0) = c_nu / sqrt(nu): the generated normaliser evaluates lnGamma((nu+1)/2) - lnGamma(nu/2)
    by Stirling's formula with Binet's series, so no digits are lost for large nu (the typed
    gammaln difference it replaced was off by ~1e-9 relative at nu = 1155444.2).
    Reference: mpmath (50 digits) of the printed density (verify.reference.distributions.student_t_pdf)."""
    with mpmath.workdps(50):
        ref = student_t_pdf(0.0, nu)
    assert abs(float(StudentT(nu).pdf(0.0)) - ref) <= 1e-15 * ref
X = np.concatenate([-np.logspace(-3, 3, 25), [0.0], np.logspace(-3, 3, 25)])


@pytest.mark.parametrize("nu", NUS)
def test_student_t_matches_scipy(nu):
    loc, scale = 0.3, 1.7
    d, ref = StudentT(nu, loc=loc, scale=scale), stats.t(nu, loc=loc, scale=scale)
    x = loc + scale * X
    # density against mpmath (40 digits) of the printed density (verify.reference): scipy.stats.t.pdf itself loses
    # ~log10(nu ln nu) digits in its lnGamma difference (2e-12 relative at nu = 1e4)
    # (at the same float z = (x - loc)/scale the core forms: the density's condition number in z is
    # (nu + 1) z^2/(nu + z^2), up to 1e4 here, so the rounding of z alone would cost ~2e-12)
    z = (x - loc) / scale
    with mpmath.workdps(40):
        pdf_mp = [student_t_pdf(zi, nu) / mpmath.mpf(scale) for zi in z]
    np.testing.assert_allclose(d.pdf(x), [float(v) for v in pdf_mp], rtol=1e-12)
    np.testing.assert_allclose(d.logpdf(x), [float(mpmath.log(v)) for v in pdf_mp], rtol=1e-12)
    if nu <= 30:
        np.testing.assert_allclose(d.pdf(x), ref.pdf(x), rtol=1e-12)
    for mine, theirs in ((d.cdf(x), ref.cdf(x)), (d.sf(x), ref.sf(x))):
        ok = theirs > 1e-290
        np.testing.assert_allclose(mine[ok], theirs[ok], rtol=1e-11)
    q = np.array([1e-12, 1e-6, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-6])
    np.testing.assert_allclose(d.ppf(q), ref.ppf(q), rtol=1e-10)
    np.testing.assert_allclose(d.isf(q), ref.isf(q), rtol=1e-10)
    assert d.variance() == pytest.approx(ref.var(), rel=1e-14) if nu > 2 else d.variance() == math.inf
    if nu > 1:
        assert d.mean() == loc
    else:
        assert math.isnan(d.mean())


@pytest.mark.parametrize("nu", [1.0, 3.0, 30.0])
def test_student_t_far_tail_matches_mpmath(nu):
    # P(T < -t) = I_{nu/(nu+t^2)}(nu/2, 1/2)/2 (40-digit mpmath.betainc, StudentTReference.cdf)
    d = StudentT(nu)
    ref_t = reference_for(d)
    for t in (1e3, 1e8, 1e100):
        with mpmath.workdps(40):
            ref = float(ref_t.cdf(-t))
        if ref < 1e-300:
            continue
        assert math.isclose(d.cdf(-t), ref, rel_tol=1e-13) and math.isclose(d.sf(t), ref, rel_tol=1e-13)
        assert math.isclose(d.ppf(ref), -t, rel_tol=1e-11)


def test_student_t_contract_functions():
    nu = np.array([0.5, 1.0, 2.0, 2.5, 3.0, 30.0])
    with mpmath.workdps(30):  # ln(c_nu/sqrt nu), c_nu as printed in 004 Sec. 2.1 (verify.reference)
        ref = [float(mpmath.log(student_t_normaliser(n) / mpmath.sqrt(n))) for n in map(mpmath.mpf, nu)]
    np.testing.assert_allclose(_student_t_log_normaliser(nu), ref, rtol=1e-14)  # ln(c_nu/sqrt nu) < -0.9: never 0
    v = _student_t_variance(nu)
    assert np.all(np.isinf(v[:3]))
    np.testing.assert_allclose(v[3:], nu[3:] / (nu[3:] - 2))  # 004 Sec. 2.1: nu/(nu - 2)


def test_student_t_sampler_is_exact_transform_with_right_scale():
    d = StudentT(3, loc=2.0, scale=0.5)
    x = d.sample((300, 400), rng=np.random.default_rng(11))
    assert x.shape == (300, 400)
    assert stats.kstest(x.ravel(), d.cdf).pvalue > 1e-3
