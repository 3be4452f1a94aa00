"""The mpmath references of verify.reference.distributions: self-consistency and agreement with the core.

Self-consistency (40 digits): each continuous reference integrates to 1 by tanh-sinh quadrature split at
its breakpoints (location, +-scale, kinks), and its closed-form cdf / sf / interval_mass equal the
quadrature of its own pdf to 1e-25 relative; the discrete references' pmf sums (finite sums, or
mpmath.nsum over the integers) equal their closed-form cdf / sf / interval_mass to 1e-30.
Core vs reference: the core's float logpdf agrees to 1e-12 absolute + 1e-12 relative (ln pdf is O(1)
to O(100) on the grid), pdf / cdf / sf to 1e-12 relative (tails included: both sides compute tails
directly), mean and variance to 1e-12 relative.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core import distributions as D
from verify.reference.distributions import (
    REFERENCES,
    GenCauchyReference,
    PolyPlaceReference,
    reference_for,
    two_sided_geometric_normaliser_printed,
)

DPS = 40

CONTINUOUS = [
    D.Laplace(),
    D.Laplace(1.5, 0.3),
    D.GenCauchy(4.0, 1.0),
    D.GenCauchy(1.5, 1.0, loc=-2.0, scale=3.0),
    D.GenCauchy(2.0, 2.0),
    D.StudentT(3.0),
    D.StudentT(1.0, loc=1.0, scale=2.0),
    D.PolyPlace(1.0, 2.5),
    D.PolyPlace(0.5, 1.2, loc=1.0),
    D.PowerLaw(4.0, 2.0),
    D.PowerLaw(1.5, 0.5, loc=-1.0, scale=2.0),
    D.HalfPowerLaw(4.0, 2.0, side=1),
    D.HalfPowerLaw(3.5, 1.0, side=-1, loc=0.5, scale=2.0),
    D.OneSidedExponential(1),
    D.OneSidedExponential(-1, loc=2.0, scale=0.5),
]
DISCRETE = [
    D.AsymmetricGeometric(0.7, 2, 9, "decreasing"),
    D.AsymmetricGeometric(0.05, 6, 8, "increasing"),
    D.TwoSidedGeometric(0.5, 2.0, loc=3),
    D.TwoSidedGeometric(1.0),
]


def _id(d) -> str:
    return repr(d)


def _grid(d) -> list[float]:
    """x = loc + scale z for z in +-{0.01, 0.3, 1, 3, 30, 1e3} and 0 (Laplace-type tails capped at z = 30)."""
    zs = [0.01, 0.3, 1.0, 3.0, 30.0] + ([] if isinstance(d, (D.Laplace, D.OneSidedExponential)) else [1e3])
    return [d.loc] + [d.loc + s * d.scale * z for z in zs for s in (-1.0, 1.0)]


def _rel(a, b) -> mpmath.mpf:
    return abs(a - b) / max(abs(b), mpmath.mpf(10) ** -300)


@pytest.mark.parametrize("dist", CONTINUOUS, ids=_id)
def test_reference_density_integrates_to_one(dist):
    ref = reference_for(dist)
    with mpmath.workdps(DPS):
        total = ref.integrate(-mpmath.inf, mpmath.inf)
        assert abs(total - 1) < mpmath.mpf(10) ** -30, (ref.describe(), total)
        for x in _grid(dist)[:5]:
            assert _rel(ref.pdf(x), mpmath.exp(ref.logpdf(x))) < mpmath.mpf(10) ** -35 or ref.pdf(x) == 0


@pytest.mark.parametrize("dist", CONTINUOUS, ids=_id)
def test_reference_cdf_sf_interval_mass_match_quadrature_of_pdf(dist):
    ref = reference_for(dist)
    tol = mpmath.mpf(10) ** -25
    with mpmath.workdps(DPS):
        xs = _grid(dist)[::2]
        for x in xs:
            q_cdf = ref.integrate(-mpmath.inf, x)
            q_sf = ref.integrate(x, mpmath.inf)
            assert _rel(ref.cdf(x), q_cdf) < tol or abs(ref.cdf(x) - q_cdf) < mpmath.mpf(10) ** -35, (x, ref.cdf(x), q_cdf)
            assert _rel(ref.sf(x), q_sf) < tol or abs(ref.sf(x) - q_sf) < mpmath.mpf(10) ** -35, (x, ref.sf(x), q_sf)
        for lo, hi in [(xs[1], xs[2]), (xs[0], xs[-1]), (-mpmath.inf, xs[1]), (xs[-1], mpmath.inf)]:
            lo, hi = min(lo, hi), max(lo, hi)
            q = ref.integrate(lo, hi)
            got = ref.interval_mass(lo, hi)
            assert _rel(got, q) < tol or abs(got - q) < mpmath.mpf(10) ** -35, (lo, hi, got, q)


@pytest.mark.parametrize("dist", CONTINUOUS, ids=_id)
def test_core_float_agrees_with_reference(dist):
    ref = reference_for(dist)
    xs = _grid(dist)
    lp, pdf = dist.logpdf(np.array(xs)), dist.pdf(np.array(xs))
    cdf, sf = dist.cdf(np.array(xs)), dist.sf(np.array(xs))
    with mpmath.workdps(DPS):
        for i, x in enumerate(xs):
            r_lp = ref.logpdf(x)
            # (x = loc is on the grid: the boundary point of h- and h+, where both follow 000 Lemma 2:
            # h-(0) = 0, h+(0) = 2 h(0); see also test_half_powerlaw_boundary_point_follows_000_lemma_2)
            if mpmath.isinf(r_lp):
                assert lp[i] == -math.inf and pdf[i] == 0.0, x
            else:
                assert abs(lp[i] - float(r_lp)) <= 1e-12 * (1 + abs(float(r_lp))), (x, lp[i], r_lp)
                assert math.isclose(pdf[i], float(ref.pdf(x)), rel_tol=1e-12), (x, pdf[i])
            assert math.isclose(cdf[i], float(ref.cdf(x)), rel_tol=1e-12, abs_tol=1e-300), (x, cdf[i], ref.cdf(x))
            assert math.isclose(sf[i], float(ref.sf(x)), rel_tol=1e-12, abs_tol=1e-300), (x, sf[i], ref.sf(x))


@pytest.mark.parametrize("dist", CONTINUOUS, ids=_id)
def test_reference_moments_match_quadrature_and_core(dist):
    ref = reference_for(dist)
    with mpmath.workdps(DPS):
        m, v = ref.mean(), ref.variance()
        if mpmath.isfinite(m):
            q = ref.integrate(-mpmath.inf, mpmath.inf, weight=lambda y: y)
            assert abs(q - m) < mpmath.mpf(10) ** -25 * (1 + abs(m)), (m, q)
            assert math.isclose(dist.mean(), float(m), rel_tol=1e-12, abs_tol=1e-15)
        if mpmath.isfinite(v):
            q = ref.integrate(-mpmath.inf, mpmath.inf, weight=lambda y: (y - m) ** 2)
            assert _rel(v, q) < mpmath.mpf(10) ** -25, (v, q)
            assert math.isclose(dist.variance(), float(v), rel_tol=1e-12)
        else:
            assert dist.variance() == math.inf


@pytest.mark.parametrize("dist", DISCRETE, ids=_id)
def test_discrete_reference_sums(dist):
    ref = reference_for(dist)
    tol = mpmath.mpf(10) ** -30
    with mpmath.workdps(DPS):
        if isinstance(dist, D.AsymmetricGeometric):
            lo_k, hi_k = 0, dist.n
            total = mpmath.fsum(ref.pdf(k) for k in range(lo_k, hi_k + 1))

            def mass(a, b):  # P[a <= K <= b] by the finite sum
                return mpmath.fsum(ref.pdf(k) for k in range(max(a, lo_k), min(b, hi_k) + 1))
        else:
            lo_k, hi_k = dist.loc - 60, dist.loc + 60
            total = mpmath.nsum(ref.pdf, [-mpmath.inf, mpmath.inf])

            def mass(a, b):
                left = mpmath.nsum(ref.pdf, [-mpmath.inf, b]) if a == -math.inf else mpmath.fsum(ref.pdf(k) for k in range(a, b + 1))
                return left

        assert abs(total - 1) < tol, total
        assert ref.pdf(lo_k + 0.5) == 0 and ref.logpdf(lo_k + 0.5) == -mpmath.inf
        c = int(dist.center if isinstance(dist, D.AsymmetricGeometric) else dist.loc)
        for k in range(c - 4, c + 5):
            below = mass(-math.inf, k) if not isinstance(dist, D.AsymmetricGeometric) else mass(lo_k, k)
            assert abs(ref.cdf(k) - below) < tol, (k, ref.cdf(k), below)
            assert abs(ref.cdf(k + 0.5) - below) < tol
            assert abs(ref.sf(k) - (1 - below)) < tol
            assert float(ref.cdf(k)) == pytest.approx(float(dist.cdf(k)), rel=1e-12, abs=1e-300)
            assert float(ref.sf(k)) == pytest.approx(float(dist.sf(k)), rel=1e-12, abs=1e-300)
            if ref.pdf(k) > 0:
                assert float(ref.logpdf(k)) == pytest.approx(float(dist.logpmf(k)), rel=1e-12, abs=1e-12)
            # P[k - 1.5 < K < k + 2] = P[k - 1 <= K <= k + 1]
            assert abs(ref.interval_mass(k - 1.5, k + 2) - mass(k - 1, k + 1)) < tol
        assert float(ref.mean()) == pytest.approx(dist.mean(), rel=1e-12)
        assert float(ref.variance()) == pytest.approx(dist.variance(), rel=1e-12)


def test_two_sided_geometric_printed_normaliser_sums_to_one_only_for_unit_sensitivity():
    # ERRATUM 003 App. A: (1 - e^-eps)/(1 + e^-eps) exp(-eps |k|/Delta) sums to one only for Delta = 1
    with mpmath.workdps(DPS):
        for delta, ok in ((1, True), (2, False)):
            kern = mpmath.nsum(lambda k, delta=delta: mpmath.exp(-abs(k) / mpmath.mpf(delta)), [-mpmath.inf, mpmath.inf])
            total = two_sided_geometric_normaliser_printed(1) * kern
            assert (abs(total - 1) < mpmath.mpf(10) ** -30) is ok, total


def test_every_core_distribution_class_has_a_reference():
    core_classes = {getattr(D, n) for n in D.__all__} - {D.ContinuousDistribution, D.DiscreteDistribution}
    assert core_classes == set(REFERENCES)


def test_reference_for_rejects_unknown_class():
    class NotRegistered(D.Laplace):  # a subclass may change the density: it must register its own reference
        pass

    with pytest.raises(TypeError, match="no mpmath reference is registered for NotRegistered"):
        reference_for(NotRegistered())
    with pytest.raises(TypeError, match="no mpmath reference is registered for float"):
        reference_for(1.0)


def test_reference_rejects_invalid_parameters():
    with pytest.raises(ValueError, match=r"p\*theta must be > 1"):
        GenCauchyReference(1.0, 0.5)
    with pytest.raises(ValueError, match=r"alpha must be in \(1, inf\)"):
        PolyPlaceReference(1.0, 1.0)
