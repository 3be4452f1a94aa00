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

from mp_reference_distributions import CASES, DPS, Case, make, ref_cdf, ref_second_central_moment, ref_sf

IDS = [c.id for c in CASES]
# standardised grid z = (x - loc)/scale, both signs; capped at the case's z_max
Z_GRID = (1e-2, 0.05, 0.3, 0.7, 1.0, 3.0, 30.0, 1e3, 1e6)
TINY = 1e-290  # below this the double result is allowed to underflow


def _xs(case: Case, zs=Z_GRID, signs=(-1.0, 1.0)) -> list[float]:
    return [case.loc + sg * case.scale * z for z in zs if z <= case.z_max for sg in signs] + (
        [case.loc - case.scale * case.z_max, case.loc + case.scale * case.z_max] if case.z_max < max(zs) else []
    )


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
    # cdf below loc and sf above loc are tails: relative accuracy is required there (no 1 - cdf).
    dist = make(case)
    for x in _xs(case):
        with mpmath.workdps(DPS):
            c_ref = ref_cdf(case, x) if x < case.loc else 1 - ref_sf(case, x)
            s_ref = ref_sf(case, x) if x > case.loc else 1 - ref_cdf(case, x)
        for got, ref, what in ((dist.cdf(x), c_ref, "cdf"), (dist.sf(x), s_ref, "sf")):
            ref_f = float(ref)
            if ref_f < TINY:
                assert got < TINY, (case.id, what, x, got, ref_f)
            else:
                assert math.isclose(got, ref_f, rel_tol=5e-13), (case.id, what, x, got, ref_f)


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
    dist = make(case)
    sample = dist.sample(100_000, rng=np.random.default_rng(20261122))
    assert sample.shape == (100_000,) and np.all(np.isfinite(sample))
    result = stats.kstest(sample, dist.cdf)
    assert result.pvalue > 1e-3, (case.id, result)
    # the sign is balanced and both tails are populated (the KS statistic is insensitive to tails)
    n_low = np.count_nonzero(sample < dist.ppf(0.01))
    n_high = np.count_nonzero(sample > dist.isf(0.01))
    assert abs(n_low - 1000) < 5 * math.sqrt(1000) and abs(n_high - 1000) < 5 * math.sqrt(1000)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_distribution_variance_matches_quadrature(case: Case) -> None:
    dist = make(case)
    var = dist.variance()
    with mpmath.workdps(30):
        if math.isfinite(var):
            ref = float(ref_second_central_moment(case))
            assert math.isclose(var, ref, rel_tol=1e-12), (case.id, var, ref)
            assert math.isclose(dist.std(), math.sqrt(ref), rel_tol=1e-12)
        else:
            # inf claimed: the truncated second moment keeps growing (at least logarithmically)
            loc, sc = case.loc, case.scale
            m6 = ref_second_central_moment(case, loc - 1e6 * sc, loc + 1e6 * sc)
            m12 = ref_second_central_moment(case, loc - 1e12 * sc, loc + 1e12 * sc)
            assert m12 - m6 > 1 * sc**2, (case.id, m6, m12)
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
