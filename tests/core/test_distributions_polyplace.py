"""PolyPlace(s, alpha) of 002 Def. 6: normaliser, closed-form CDF branches, and the variance of Lemma 13.

References: 40-digit mpmath quadrature of the density typed from 002 Def. 6, and 002 Lemma 13 as printed
(evaluated in mpmath).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from mp_reference_distributions import polyplace_case, ref_second_central_moment

import smoothsens_core.distributions.polyplace as core
from smoothsens_core._generated import noise

# The core's PolyPlace uses these generated evaluators (derivations/polyplace.py); no hand-typed copy.
from smoothsens_core._generated.noise import polyplace_log_normaliser as _polyplace_log_normaliser
from smoothsens_core._generated.noise import polyplace_variance as _polyplace_variance
from smoothsens_core.distributions import Laplace, PolyPlace
from verify.reference.distributions import (
    polyplace_normaliser,
    polyplace_pdf,
    polyplace_variance_printed,
    reference_for,
)

ALPHAS = [1.2, 1.5, 2.5, 3.0, 10.0, 100.0, 1e4]


def _second_moment(s, alpha):
    """2 int_0^inf x^2 f(x) dx by quadrature split at the kink s/alpha, tail mapped to (0, 1] and integrated
    to relative precision (mp_reference_distributions.integrate); call inside mpmath.workdps."""
    return 2 * ref_second_central_moment(polyplace_case(s, alpha), lo=0)


@pytest.mark.parametrize("alpha", [2.5, 3.0, 10.0, 100.0])
def test_polyplace_lemma13_printed_variance_matches_quadrature_for_alpha_above_2(alpha):
    for s in (1.0, 0.3):
        with mpmath.workdps(40):
            ref = _second_moment(s, alpha)
            printed = polyplace_variance_printed(s, alpha)
            assert abs(printed / ref - 1) < mpmath.mpf(10) ** -30
        assert math.isclose(_polyplace_variance(s, alpha), float(ref), rel_tol=1e-13)
        assert math.isclose(PolyPlace(s, alpha).variance(), float(ref), rel_tol=1e-13)


def test_polyplace_lemma13_erratum_variance_infinite_for_alpha_at_most_2():
    # ERRATUM 002 Lemma 13: the printed variance is finite (even negative) for 1 < alpha < 2, but the tail
    # x^2 f(x) ~ x^(1 - alpha) is not integrable for alpha <= 2: the second moment over [1e4, 1e8] alone
    # is already larger than any value the formula could mean.
    with mpmath.workdps(30):
        printed = polyplace_variance_printed(1, mpmath.mpf("1.2"))
        assert printed < 0  # -15.326...
        for alpha in ("1.2", "1.5", "2"):
            a = mpmath.mpf(alpha)
            piece = 2 * mpmath.quad(lambda x, a=a: x**2 * polyplace_pdf(x, 1, a), [1e4, 1e5, 1e6, 1e7, 1e8])
            assert piece > 1  # and it grows without bound as the upper limit grows
    for alpha in (1.2, 1.5, 2.0):
        assert _polyplace_variance(1.0, alpha) == math.inf
        assert PolyPlace(1.0, alpha).variance() == math.inf
    # near the pole the finite side follows the printed statement (40-digit mpmath; the statement is
    # checked against quadrature above) without cancellation in alpha^4 - 5 alpha^2 + 4
    for alpha in (2.0 + 1e-6, 2.0 + 1e-12):
        with mpmath.workdps(40):
            ref = float(polyplace_variance_printed(1, mpmath.mpf(alpha)))
        assert math.isclose(_polyplace_variance(1.0, alpha), ref, rel_tol=1e-12)


def test_polyplace_lemma13_proof_last_line_is_half_the_statement():
    # ERRATUM (proof of 002 Lemma 13): the final expression for sigma^2_{1,alpha} omits the factor 2 of
    # the statement; only the statement's form matches quadrature.
    with mpmath.workdps(40):
        for alpha in (mpmath.mpf("2.5"), mpmath.mpf(10)):
            ref = _second_moment(1, alpha)
            proof_form = polyplace_variance_printed(1, alpha) / 2  # the statement without its "2 s^2"
            assert abs(proof_form / ref - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -30


@pytest.mark.parametrize("alpha", ALPHAS)
def test_polyplace_normaliser_integrates_to_one_and_log_normaliser(alpha):
    with mpmath.workdps(40):
        a = mpmath.mpf(alpha)
        total = 2 * (mpmath.quad(lambda x: polyplace_pdf(x, 1, a), [0, 1 / a])
                     + mpmath.quad(lambda x: polyplace_pdf(x, 1, a), [1 / a, 1, mpmath.inf]))
        assert abs(total - 1) < mpmath.mpf(10) ** -30  # 002 Lemma 7
        ref = float(mpmath.log(polyplace_normaliser(mpmath.mpf(2.5), a)))
    assert math.isclose(_polyplace_log_normaliser(2.5, alpha), ref, rel_tol=1e-14, abs_tol=1e-15)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_polyplace_density_continuous_at_kink_and_cdf_branches(alpha):
    d = PolyPlace(1.0, alpha)
    k = 1.0 / alpha
    eps = 1e-12 * k
    assert math.isclose(d.pdf(k - eps), d.pdf(k + eps), rel_tol=1e-9)
    assert math.isclose(d.sf(k - eps), d.sf(k + eps), rel_tol=1e-9)
    # branch-wise closed-form sf vs quadrature just inside and just outside the kink
    for x in (0.5 * k, 0.999 * k, 1.001 * k, 2 * k):
        with mpmath.workdps(30):
            a = mpmath.mpf(alpha)
            pts = sorted({mpmath.mpf(x), 1 / a, mpmath.mpf(1)} | {mpmath.mpf(2 * x)})
            pts = [t for t in pts if t >= x]
            ref = mpmath.quad(lambda y, a=a: polyplace_pdf(y, 1, a), pts + [mpmath.inf])
        assert math.isclose(d.sf(x), float(ref), rel_tol=1e-13), (alpha, x)
        assert math.isclose(d.isf(d.sf(x)), x, rel_tol=1e-11)


def test_polyplace_attributes_and_scaling():
    d = PolyPlace(2.0, 3.0, loc=-1.0)
    assert d.s == 2.0 and d.scale == 2.0 and d.alpha == 3.0 and d.loc == -1.0 and d.mean() == -1.0
    base = PolyPlace(1.0, 3.0)
    x = np.array([-50.0, -1.2, -1.0, 0.3, 7.0])
    np.testing.assert_allclose(d.pdf(x), base.pdf((x + 1.0) / 2.0) / 2.0, rtol=1e-14)
    np.testing.assert_allclose(d.cdf(x), base.cdf((x + 1.0) / 2.0), rtol=1e-14)
    assert "alpha=3.0" in repr(d)


def test_polyplace_large_alpha_approaches_laplace():
    # 002 Thm. 8 / Cor. 14 limit: PolyPlace(a/gamma, eps/gamma) -> Lap(a/eps) as gamma -> 0 (a = eps = 1)
    lap = Laplace(0.0, 1.0)
    x = np.array([-5.0, -1.0, 0.2, 3.0])
    errs = []
    for gamma in (1e-2, 1e-3, 1e-4):
        d = PolyPlace(1.0 / gamma, 1.0 / gamma)
        errs.append(np.max(np.abs(np.asarray(d.cdf(x)) / lap.cdf(x) - 1)))
        # Cor. 14: Var = (1 + O(gamma/eps)) 2 SS^2/eps^2
        assert abs(d.variance() / 2.0 - 1) < 5 * gamma
    assert errs[2] < 2e-3 and errs[2] < errs[1] / 5 < errs[0] / 25


@pytest.mark.parametrize("alpha", [1.0 + 1e-12, 1.0 + 2.83e-9, 1.0 + 1e-6, 1.5, 2.0, 1e8])
def test_polyplace_density_and_tail_full_precision_near_alpha_one(alpha):
    """The density and survival function keep full precision as alpha -> 1+ (and for huge alpha):
    the generated constants evaluate ((alpha-1)/alpha)^alpha as exp(alpha (ln(alpha-1) - ln alpha))
    for alpha < 2.  The hand-typed exp(alpha log1p(-1/alpha)) they replaced lost ~1e-16/(alpha-1):
    pdf(0) was off by -1.3e-8 relative at alpha = 1 + 2.83e-9.
    Reference: the 002 Def. 6 density and its branch integrals in mpmath (50 digits)."""
    d = PolyPlace(1.0, alpha)
    with mpmath.workdps(50):
        a = mpmath.mpf(alpha)
        for x in (0.0, 0.5 / alpha, 2.0 / alpha, 3.0, 1e6):
            xm = mpmath.mpf(x)
            ref_pdf = polyplace_pdf(xm, 1, a)
            # P(Z > x) = 1/2 - N (alpha-1)/alpha (1 - (1 - x)^alpha) (x < 1/alpha),
            # N (alpha+1)(1 - 1/alpha^2)^alpha (1 + x)^(-alpha) / alpha (otherwise): PolyPlaceReference.sf
            ref_sf = reference_for(d).sf(xm)
            if ref_pdf > 1e-300:  # below, the float64 value underflows (alpha = 1e8: (1 + x)^-1e8)
                assert abs(float(d.pdf(x)) - ref_pdf) <= 1e-14 * ref_pdf, x
            if ref_sf > 1e-300:
                assert abs(float(d.sf(x)) - ref_sf) <= 1e-14 * ref_sf, x


def test_polyplace_core_uses_the_generated_evaluators():
    for name in ("polyplace_log_normaliser", "polyplace_variance", "polyplace_log_tail_constant", "polyplace_inner_constant"):
        assert getattr(core, name) is getattr(noise, name)
    assert not any(n.startswith("_polyplace_") for n in vars(core))  # no hand-typed copies left
