"""The Gaussian family N(a, sigma^2) against scipy.stats.norm and its mpmath reference.

References: scipy.stats.norm (cephes ndtr/ndtri) in the body; the mpmath reference of
verify.reference.distributions (typed from the definition exp(-z^2/2)/sqrt(2 pi), erfc tails) at 40 digits
in the far tails.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from smoothsens_core.distributions import Gaussian
from verify.reference.distributions import reference_for

Z = np.concatenate([-np.logspace(-3, np.log10(37.0), 21), [0.0], np.logspace(-3, np.log10(37.0), 21)])


def test_gaussian_matches_scipy_in_the_body():
    d, ref = Gaussian(0.3, 1.7), stats.norm(0.3, 1.7)
    x = 0.3 + 1.7 * Z
    np.testing.assert_allclose(d.logpdf(x), ref.logpdf(x), rtol=1e-13)
    for mine, theirs in ((d.cdf(x), ref.cdf(x)), (d.sf(x), ref.sf(x))):
        ok = theirs > 1e-290
        np.testing.assert_allclose(np.asarray(mine)[ok], theirs[ok], rtol=1e-12)
    q = np.array([1e-300, 1e-20, 1e-5, 0.2, 0.5, 0.8, 1 - 1e-9])
    np.testing.assert_allclose(d.ppf(q), ref.ppf(q), rtol=1e-12)
    np.testing.assert_allclose(d.isf(q), ref.isf(q), rtol=1e-12)
    assert d.mean() == 0.3 and math.isclose(d.variance(), 1.7**2)


def test_gaussian_tails_against_mpmath_reference():
    """sf(x) = erfc(z/sqrt 2)/2 to 1e-13 relative up to z = 30 (sf ~ 5e-198) and 1e-12 at z = 37
    (sf ~ 6e-300, where cephes' erfc itself is good to ~1e-13): no 1 - cdf cancellation; logcdf finite
    where the cdf underflows (log_ndtr)."""
    d = Gaussian(-1.0, 2.0)
    ref = reference_for(d)
    zs = [(0.5, 1e-13), (3.0, 1e-13), (10.0, 1e-13), (30.0, 1e-13), (37.0, 1e-12)]
    with mpmath.workdps(40):
        for z, tol in zs:
            x = -1.0 + 2.0 * z
            want = ref.sf(x)
            assert abs(float(d.sf(x)) - want) <= tol * want, z
            assert abs(float(d.cdf(-1.0 - 2.0 * z)) - want) <= tol * want, z
            assert abs(float(d.logpdf(x)) - ref.logpdf(x)) <= 1e-13 * abs(ref.logpdf(x))
    # ln Phi(-50) = -1254.8... (mpmath erfc), where Phi itself underflows to 0
    with mpmath.workdps(40):
        want = mpmath.log(mpmath.erfc(50 / mpmath.sqrt(2)) / 2)
    assert d.cdf(-1.0 - 100.0) == 0.0
    assert abs(float(d.logcdf(-1.0 - 100.0)) - float(want)) <= 1e-12 * abs(float(want))
    assert abs(float(d.logsf(-1.0 + 100.0)) - float(want)) <= 1e-12 * abs(float(want))


def test_gaussian_reference_integrates_to_one_and_is_registered():
    ref = reference_for(Gaussian(0.5, 0.7))
    with mpmath.workdps(40):
        assert abs(ref.integrate(-mpmath.inf, mpmath.inf) - 1) < mpmath.mpf(10) ** -30
        # variance by quadrature of the reference density = sigma^2
        var = ref.integrate(-mpmath.inf, mpmath.inf, weight=lambda y: (y - mpmath.mpf(0.5)) ** 2)
        assert abs(var - mpmath.mpf(0.7) ** 2) < mpmath.mpf(10) ** -28


def test_gaussian_score_and_shape():
    d = Gaussian(2.0, 0.5)
    x = np.array([-3.0, 2.0, 2.25, 7.0])
    np.testing.assert_allclose(d.score(x), -(x - 2.0) / 0.25, rtol=1e-15)
    # the score is the derivative of logpdf (central difference)
    h = 1e-6
    fd = (np.asarray(d.logpdf(x + h)) - np.asarray(d.logpdf(x - h))) / (2 * h)
    np.testing.assert_allclose(d.score(x), fd, rtol=1e-7)
    assert d.kinks() == ()
    assert d.score_breakpoints() == (1.0,)
    assert d.tail_exponent == math.inf and d.score_scale_limit == math.inf


def test_gaussian_sampler_moments_and_rng_required():
    d = Gaussian(1.0, 3.0)
    s = d.sample(200_000, rng=np.random.default_rng(5))
    # mean within 5 standard errors (sd 3/sqrt(2e5) = 0.0067), variance within 5 s.e. (sqrt(2) 9/sqrt(2e5) = 0.028)
    assert abs(s.mean() - 1.0) < 5 * 3.0 / math.sqrt(2e5)
    assert abs(s.var() - 9.0) < 5 * math.sqrt(2.0) * 9.0 / math.sqrt(2e5)
    with pytest.raises(TypeError, match="rng is required"):
        d.sample(3)


def test_gaussian_rejects_bad_scale():
    with pytest.raises(ValueError, match="scale"):
        Gaussian(0.0, 0.0)
    with pytest.raises(ValueError, match="scale"):
        Gaussian(0.0, -1.0)
