"""Generic identity tests of the continuous noise families, driven by one table of parameter sets.

Every reference number comes from mpmath quadrature (tanh-sinh, 40 digits) of the density typed from
the paper in ``mp_reference_distributions.py`` (004 Sec. 2.1 for Laplace, GenCauchy, Student's t;
002 Def. 6 for PolyPlace), including the printed normalisers.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from mp_reference_distributions import CASES, DPS, Case, make, ref_cdf, ref_second_central_moment

IDS = [c.id for c in CASES]
# standardised grid z = (x - loc)/scale, both signs; capped at the case's z_max
Z_GRID = (1e-2, 0.05, 0.3, 1.0, 3.0, 30.0, 1e3, 1e6)
TINY = 1e-290  # below this the double result is allowed to underflow


def _xs(case: Case, zs=Z_GRID, signs=(-1.0, 1.0)) -> list[float]:
    """Grid points loc + sign * scale * z (z capped at the case's z_max, which is then added itself)."""
    z_used = sorted({min(z, case.z_max) for z in zs})
    return [case.loc + sg * case.scale * z for z in z_used for sg in signs]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_density_integrates_to_one(case: Case) -> None:
    # Tests the printed normaliser (c_{p,theta}, c_nu, N_{s,alpha}) at 40 digits: 1 to >= 30 digits.
    with mpmath.workdps(DPS):
        total = ref_cdf(case, mpmath.inf)
        assert abs(total - 1) < mpmath.mpf(10) ** -30, (case.id, total)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_pdf_matches_reference(case: Case) -> None:
    dist = make(case)
    xs = _xs(case) + [case.loc]
    got = np.asarray(dist.pdf(xs))
    with mpmath.workdps(DPS):
        ref = np.array([float(case.density(x)) for x in xs])
    ok = ref > TINY
    np.testing.assert_allclose(got[ok], ref[ok], rtol=1e-13)
    assert np.all(got[~ok] <= TINY)
    # logpdf keeps relative accuracy where the density itself underflows (x = loc + 1e300 scale)
    far = case.loc + 1e300 * case.scale
    with mpmath.workdps(DPS):
        ref_log = float(mpmath.log(case.density(far)))
    assert math.isclose(dist.logpdf(far), ref_log, rel_tol=1e-13)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_cdf_and_sf_match_quadrature(case: Case) -> None:
    # Reference: T(z) = int_{-inf}^{loc - z scale} h by 20-digit quadrature (relative goal).  All four printed
    # densities depend on |y - loc| only, so T(z) is both P(X <= loc - z scale) and P(X > loc + z scale).
    # cdf below loc and sf above loc are tails: relative accuracy is required there (no 1 - cdf).
    dist = make(case)
    for z in sorted({min(z, case.z_max) for z in (0.05, 1.0, 30.0, 1e6)}):
        with mpmath.workdps(20):
            tail = ref_cdf(case, case.loc - z * case.scale)
        tail_f, body_f = float(tail), float(1 - tail)
        lo, hi = case.loc - z * case.scale, case.loc + z * case.scale
        for got, ref, what in ((dist.cdf(lo), tail_f, "cdf"), (dist.sf(hi), tail_f, "sf"),
                               (dist.sf(lo), body_f, "sf"), (dist.cdf(hi), body_f, "cdf")):
            if ref < TINY:
                assert got < TINY, (case.id, what, z, got, ref)
            else:
                assert math.isclose(got, ref, rel_tol=5e-13), (case.id, what, z, got, ref)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_ppf_inverts_cdf_and_isf_inverts_sf(case: Case) -> None:
    dist = make(case)
    lower = np.array([x for x in _xs(case, signs=(-1.0,))])
    upper = np.array([x for x in _xs(case, signs=(1.0,))])
    # lower side through ppf(cdf(x)), upper side through isf(sf(x)), down to the far tails (1e6 scale)
    for xs, back in ((lower, dist.ppf(dist.cdf(lower))), (upper, dist.isf(dist.sf(upper)))):
        finite = np.asarray(dist.cdf(xs)) > TINY if xs is lower else np.asarray(dist.sf(xs)) > TINY
        np.testing.assert_allclose(np.asarray(back)[finite], xs[finite], rtol=1e-10)
    # ppf also on the upper side, where 1 - cdf is still resolved (sf > 1e-3)
    mid = upper[np.asarray(dist.sf(upper)) > 1e-3]
    np.testing.assert_allclose(dist.ppf(dist.cdf(mid)), mid, rtol=1e-10)
    # and the probability side: cdf(ppf(q)) = q in both tails
    q = np.array([1e-300, 1e-100, 1e-20, 1e-5, 0.01, 0.2, 0.5 - 1e-9, 0.5])
    x = np.asarray(dist.ppf(q))
    ok = np.isfinite(x)
    np.testing.assert_allclose(np.asarray(dist.cdf(x[ok])), q[ok], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(dist.sf(dist.isf(q)))[ok], q[ok], rtol=1e-12)
    assert dist.ppf(0.0) == -math.inf and dist.ppf(1.0) == math.inf


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_pdf_is_derivative_of_cdf(case: Case) -> None:
    dist = make(case)
    for z in (0.05, 0.3, 0.7, 3.0, 30.0):
        for sg in (-1.0, 1.0):
            x = case.loc + sg * case.scale * z
            h = 1e-5 * case.scale * z
            # differentiate the tail function on each side (cdf below loc, -sf above) to keep digits
            if sg < 0:
                d = (dist.cdf(x + h) - dist.cdf(x - h)) / (2 * h)
            else:
                d = (dist.sf(x - h) - dist.sf(x + h)) / (2 * h)
            assert math.isclose(d, dist.pdf(x), rel_tol=1e-6), (case.id, x, d, dist.pdf(x))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_samples_pass_ks_test(case: Case) -> None:
    # One fixed, independent stream per case (SeedSequence(20261122).spawn); under a correct sampler the
    # p-values are uniform, so the 16 cases together raise a false alarm with probability 1.6%.
    dist = make(case)
    seed = np.random.SeedSequence(20261122).spawn(len(CASES))[CASES.index(case)]
    sample = dist.sample(100_000, rng=np.random.default_rng(seed))
    assert sample.shape == (100_000,) and np.all(np.isfinite(sample))
    result = stats.kstest(sample, dist.cdf)
    assert result.pvalue > 1e-3, (case.id, result)
    # the sign is balanced and both tails are populated (the KS statistic is insensitive to tails)
    n_low = np.count_nonzero(sample < dist.ppf(0.01))
    n_high = np.count_nonzero(sample > dist.isf(0.01))
    assert abs(n_low - 1000) < 5 * math.sqrt(1000) and abs(n_high - 1000) < 5 * math.sqrt(1000)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_variance_matches_quadrature(case: Case) -> None:
    # Reference: 2 int_loc^inf (y - loc)^2 h(y) dy (h symmetric about loc), 25-digit quadrature.
    dist = make(case)
    var = dist.variance()
    with mpmath.workdps(25):
        if math.isfinite(var):
            ref = float(2 * ref_second_central_moment(case, lo=case.loc))
            assert math.isclose(var, ref, rel_tol=1e-12), (case.id, var, ref)
            assert math.isclose(dist.std(), math.sqrt(ref), rel_tol=1e-12)
        else:
            # inf claimed: the second moment over loc + [1e6, 1e12] scale alone exceeds scale^2 (the
            # variance of every finite-variance case here is < 3 scale^2 and its tail there is < 1e-3)
            piece = ref_second_central_moment(case, case.loc + 1e6 * case.scale, case.loc + 1e12 * case.scale)
            assert piece > case.scale**2, (case.id, piece)
            assert dist.std() == math.inf


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_mean_is_location_where_it_exists(case: Case) -> None:
    dist = make(case)
    kw = case.kwargs
    exists = {
        "Laplace": True,
        "GenCauchy": kw.get("p", 0) * kw.get("theta", 0) > 2,  # tail |z|^(1 - p theta)
        "StudentT": kw.get("nu", 0) > 1,
        "PolyPlace": True,  # tail |x|^(-alpha) with alpha > 1 (002 Lemma 13)
    }[case.family]
    if exists:
        assert dist.mean() == case.loc
    else:
        assert math.isnan(dist.mean())
