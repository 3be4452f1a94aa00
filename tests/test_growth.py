"""Unit tests of smoothsens_core.growth (004 Sec. 3.1.2)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothsens_core.growth import check_growth_axioms, growth_exp, growth_linear


def test_growth_exp_values_and_log():
    g = growth_exp(0.3)
    r = np.array([0.0, 1.0, 10.0])
    np.testing.assert_allclose(g.g0(r), np.exp(0.3 * r), rtol=1e-15)
    np.testing.assert_allclose(g.log_g0(r), 0.3 * r, rtol=1e-15)
    assert g.name == "g_E" and g.gamma == 0.3


def test_growth_linear_log_is_accurate_for_tiny_gamma_r():
    g = growth_linear(1e-20)
    # log1p keeps full relative precision where log(1 + x) would round to 0.
    assert g.log_g0(np.array([1.0]))[0] == pytest.approx(1e-20, rel=1e-15)
    assert g.g0(np.array([2.0]))[0] == 1.0 + 2e-20


def test_growth_between_uses_euclidean_distance():
    g = growth_exp(1.0)
    out = g.between(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0], [1.0, 1.0]]))
    np.testing.assert_allclose(out, [math.exp(5.0), 1.0])


@pytest.mark.parametrize("factory", [growth_exp, growth_linear])
@given(gamma=st.floats(1e-6, 1e3))
def test_growth_builtin_satisfy_axioms(factory, gamma):
    g = factory(gamma)
    assert check_growth_axioms(g.g0, r_max=min(50.0, 500.0 / gamma))


@pytest.mark.parametrize("factory", [growth_exp, growth_linear])
@given(r1=st.floats(0, 100), r2=st.floats(0, 100), gamma=st.floats(1e-4, 10))
def test_growth_submultiplicative_property(factory, r1, r2, gamma):
    g = factory(gamma)
    lhs = g.log_g0(np.array([r1 + r2]))[0]
    rhs = g.log_g0(np.array([r1]))[0] + g.log_g0(np.array([r2]))[0]
    assert lhs <= rhs + 1e-12 * max(1.0, abs(rhs))


def test_check_growth_axioms_refutes_bad_g0():
    # 1 + r^2 is not submultiplicative near 0; 2 - e^-r has g0(0) = 1 but ... is fine; e^-r decreases.
    assert not check_growth_axioms(lambda r: 1.0 + r**2)
    rep = check_growth_axioms(lambda r: np.exp(-r))
    assert not rep and any("decreases" in f or "< 1" in f for f in rep.failures)
    assert not check_growth_axioms(lambda r: 2.0 + r)  # g0(0) != 1


@pytest.mark.parametrize("factory", [growth_exp, growth_linear])
@pytest.mark.parametrize("gamma", [0.0, -1.0, float("nan"), float("inf")])
def test_growth_rejects_bad_gamma(factory, gamma):
    with pytest.raises(ValueError, match="gamma"):
        factory(gamma)


def test_growth_rejects_negative_or_nan_distance():
    g = growth_exp(1.0)
    with pytest.raises(ValueError, match=r"r must be a distance"):
        g.g0(np.array([-1.0]))
    with pytest.raises(ValueError, match="finite"):
        g.g0(np.array([np.nan]))
