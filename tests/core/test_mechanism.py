"""The one mechanism type: SmoothSensitivityMechanism validation, abstract vs concrete, density."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from smoothsens_core.calibration import calibrate_gencauchy, calibrate_student_t
from smoothsens_core.distributions import GenCauchy, Laplace
from smoothsens_core.growth import growth_exp
from smoothsens_core.mechanism import Mechanism, SmoothSensitivityMechanism


def _identity(x):
    return np.asarray(x, dtype=float)


def _ones(x):
    return np.ones(np.shape(x))


def test_mechanism_rejects_unknown_metric_naming_the_vocabulary():
    with pytest.raises(ValueError, match=r"metric must be one of 'euclidean', 'hamming'; got metric='foo'"):
        SmoothSensitivityMechanism(noise=Laplace(), eta=1.0, eps=1.0, metric="foo")


def test_mechanism_rejects_paper_word_with_a_hint():
    with pytest.raises(ValueError, match=r"GP is metric='euclidean'"):
        SmoothSensitivityMechanism(noise=Laplace(), eta=1.0, eps=1.0, metric="gp")


@pytest.mark.parametrize("delta", [-1.0, 1.0, 2.0, math.nan])
def test_mechanism_rejects_delta_outside_unit_interval(delta):
    with pytest.raises(ValueError, match="delta must be (in|a finite)"):
        SmoothSensitivityMechanism(noise=Laplace(), eta=1.0, eps=1.0, delta=delta)


def test_mechanism_rejects_nonstandard_noise_and_half_a_query():
    with pytest.raises(ValueError, match="standardised"):
        SmoothSensitivityMechanism(noise=Laplace(scale=2.0), eta=1.0, eps=1.0)
    with pytest.raises(ValueError, match="f and B must be given together"):
        SmoothSensitivityMechanism(noise=Laplace(), eta=1.0, eps=1.0, f=_identity)


def test_log_density_blames_y_for_nan_outputs():
    m = calibrate_student_t(1.0, 0.1).mechanism(_identity, _ones)
    with pytest.raises(ValueError, match=r"^y must not contain NaN"):
        m.log_density(np.array([0.0]), np.array([np.nan]))


def test_abstract_mechanism_refuses_densities_with_a_clear_message():
    m = calibrate_gencauchy(1.0, 0.1).mechanism()
    assert m.is_abstract
    with pytest.raises(ValueError, match="has no query"):
        m.log_density(np.array([0.0]), np.array([0.0]))


def test_log_density_is_the_location_scale_formula():
    """p_x(y) = (eta/B(x)) h((y - f(x)) eta/B(x)) with h the GenCauchy(4) density (004 Lemma 3.3
    proof); h typed here from 004 Sec. 2.1: h(z) = sqrt(2)/pi / (1 + z^4) (c_{4,1} = sqrt 2/pi)."""
    m = SmoothSensitivityMechanism(noise=GenCauchy(4.0), eta=0.5, eps=1.0, growth=growth_exp(0.1),
                                   f=lambda x: 2 * np.asarray(x, float), B=lambda x: 1 + np.asarray(x, float) ** 2)
    x = np.array([0.0, 1.0, -2.0])
    y = np.array([0.3, -1.0, 7.0])
    s = (1 + x**2) / 0.5
    z = (y - 2 * x) / s
    expected = np.log(math.sqrt(2) / math.pi / (1 + z**4) / s)
    np.testing.assert_allclose(m.log_density(x, y), expected, rtol=1e-14)


def test_with_query_keeps_every_calibrated_parameter():
    cal = calibrate_gencauchy(1.0, 0.05, p=3.0, theta=2.0, m=2)
    a = cal.mechanism()
    c = a.with_query(_identity, _ones, name="identity")
    for f in dataclasses.fields(SmoothSensitivityMechanism):
        if f.name not in ("f", "B", "name"):
            assert getattr(c, f.name) == getattr(a, f.name), f.name
    assert not c.is_abstract and c.name == "identity"
    assert isinstance(c, Mechanism)
