"""Unit and property tests of the 003 noise families (smoothsens_core/distributions/onesided.py)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import stats

from smoothsens_core.distributions.onesided import AsymmetricGeometric, OneSidedExponential, TwoSidedGeometric


@pytest.mark.parametrize("side", [1, -1])
def test_onesided_exponential_density_integrates_to_one_mpmath(side: int) -> None:
    d = OneSidedExponential(side, loc=0.3, scale=1.7)
    # reference: mpmath quadrature of the printed density (1/b) e^{-side (x - loc)/b} on its half-line, 40 digits
    with mpmath.workdps(40):
        ref = mpmath.quad(lambda x: mpmath.exp(-side * (x - mpmath.mpf("0.3")) / mpmath.mpf("1.7")) / mpmath.mpf("1.7"),
                          [mpmath.mpf("0.3"), side * mpmath.inf])
        assert abs(abs(ref) - 1) < mpmath.mpf(10) ** -35
    x = np.array([0.3 + side * 0.5, 0.3 + side * 3.0])
    expected = np.exp(-np.abs(x - 0.3) / 1.7) / 1.7
    np.testing.assert_allclose(d.pdf(x), expected, rtol=1e-15)
    assert d.pdf(0.3 - side * 0.1) == 0.0


@pytest.mark.parametrize("side", [1, -1])
def test_onesided_exponential_cdf_ppf_roundtrip(side: int) -> None:
    d = OneSidedExponential(side, loc=-1.0, scale=0.4)
    q = np.linspace(1e-12, 1 - 1e-12, 101)
    np.testing.assert_allclose(d.cdf(d.ppf(q)), q, rtol=1e-10, atol=1e-15)
    np.testing.assert_allclose(d.sf(d.isf(q)), q, rtol=1e-10, atol=1e-15)
    assert d.mean() == pytest.approx(-1.0 + side * 0.4) and d.variance() == pytest.approx(0.16)


def test_onesided_exponential_sampler_ks() -> None:
    d = OneSidedExponential(-1, scale=2.0)
    s = d.sample(100_000, rng=np.random.default_rng(1))
    assert np.all(s <= 0)
    assert stats.kstest(s, lambda x: np.asarray(d.cdf(x))).pvalue > 1e-3


def test_onesided_exponential_rejects_bad_side_and_scale() -> None:
    with pytest.raises(ValueError, match="side must be"):
        OneSidedExponential(0)
    with pytest.raises(ValueError, match="scale must be in"):
        OneSidedExponential(1, scale=-1.0)


@pytest.mark.parametrize("direction", ["decreasing", "increasing"])
@pytest.mark.parametrize("eps,center,n", [(0.7, 3, 8), (2.0, 0, 4), (0.05, 5, 5), (1.3, 0, 0)])
def test_asymmetric_geometric_pmf_sums_to_one_mpmath(direction: str, eps: float, center: int, n: int) -> None:
    g = AsymmetricGeometric(eps, center, n, direction)
    k = np.arange(-2, n + 3)
    pmf = np.asarray(g.pmf(k))
    # reference: the printed cases of 003 Def. VIII.1 with the atom case taking precedence, summed in mpmath (40 digits)
    with mpmath.workdps(40):
        r = mpmath.exp(-mpmath.mpf(eps))
        m = n - center if direction == "decreasing" else center
        ref = [(1 - r) * r**j for j in range(m)] + [r**m]
        assert abs(sum(ref) - 1) < mpmath.mpf(10) ** -35
    offs = (k - center) if direction == "decreasing" else (center - k)
    expect = np.array([float(ref[int(j)]) if 0 <= j <= m else 0.0 for j in offs])
    np.testing.assert_allclose(pmf, expect, rtol=1e-13, atol=1e-300)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-13)


@given(eps=st.floats(0.01, 5.0), n=st.integers(0, 30), data=st.data(),
       direction=st.sampled_from(["decreasing", "increasing"]))
def test_asymmetric_geometric_ppf_is_generalised_inverse_property(eps: float, n: int, data: st.DataObject, direction: str) -> None:
    c = data.draw(st.integers(0, n))
    g = AsymmetricGeometric(eps, c, n, direction)
    q = np.array(data.draw(st.lists(st.floats(1e-9, 1 - 1e-9), min_size=1, max_size=20)))
    k = np.asarray(g.ppf(q))
    assert np.all(np.asarray(g.cdf(k)) >= q - 1e-12)
    assert np.all(np.asarray(g.cdf(k - 1)) < q + 1e-12)
    assert np.all((k >= g.support[0]) & (k <= g.support[1]))


def test_asymmetric_geometric_sampler_matches_pmf() -> None:
    g = AsymmetricGeometric(0.6, 2, 7, "decreasing")
    s = g.sample(200_000, rng=3)
    freq = np.bincount(s, minlength=8) / s.size
    np.testing.assert_allclose(freq, g.pmf(np.arange(8)), atol=5e-3)
    assert g.mean() == pytest.approx(float(np.dot(np.arange(8), g.pmf(np.arange(8)))))


def test_asymmetric_geometric_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="eps must be in"):
        AsymmetricGeometric(0.0, 1, 3)
    with pytest.raises(ValueError, match="center must be in"):
        AsymmetricGeometric(1.0, 4, 3)
    with pytest.raises(ValueError, match="direction must be"):
        AsymmetricGeometric(1.0, 1, 3, "sideways")


@pytest.mark.parametrize("eps,sens", [(1.0, 1.0), (1.0, 2.0), (0.3, 3.0)])
def test_two_sided_geometric_normalisation_corrected(eps: float, sens: float) -> None:
    g = TwoSidedGeometric(eps, sens, loc=2)
    k = np.arange(-3000, 3001)
    assert float(np.sum(g.pmf(k))) == pytest.approx(1.0, abs=1e-12)
    # reference: (1-r)/(1+r) r^{|k-2|}, r = e^{-eps/Delta} (003 App. A with the corrected normaliser)
    r = math.exp(-eps / sens)
    assert g.pmf(5) == pytest.approx((1 - r) / (1 + r) * r**3, rel=1e-14)
    q = np.linspace(0.001, 0.999, 57)
    kk = np.asarray(g.ppf(q))
    assert np.all(np.asarray(g.cdf(kk)) >= q) and np.all(np.asarray(g.cdf(kk - 1)) < q)
    assert g.variance() == pytest.approx(2 * r / (1 - r) ** 2)


def test_two_sided_geometric_sampler_variance() -> None:
    g = TwoSidedGeometric(0.8, 2.0)
    s = g.sample(200_000, rng=4)
    assert np.var(s) == pytest.approx(g.variance(), rel=0.03)
    with pytest.raises(ValueError, match="sensitivity must be in"):
        TwoSidedGeometric(1.0, 0.0)
