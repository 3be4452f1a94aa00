"""The fused Lambda = inf path of the two-way threshold (issue 17 speed work) against the plain
formula of 004 Sec. 4.2 / Lemma 4.3: d(p) from ``_band_distance`` (np.where over the regions, D from
np.hypot of the clipped offsets) through ``ramp_smooth_sensitivity`` -- bit for bit on 10^5 random
points per case, including points on the lines through c0, far points and signed zeros."""

import math

import numpy as np
import pytest

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import smooth_sensitivity_two_way_threshold
from smoothsens_core.sensitivity._ramp import ramp_smooth_sensitivity
from smoothsens_core.sensitivity.two_way import _band_distance, _band_distance_plus, _geometry


def _points(seed: int, scale: float, T1: float, T2: float, tau: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    p = rng.normal(0.0, scale, (100_000, 2)) + np.array([T1, T2])
    _, _, c01, c02 = _geometry(T1, T2, tau)
    p[:200, 0] = c01  # on the lines through the corner c0: u1 = 0 or u2 = 0 exactly
    p[200:400, 1] = c02
    p[400:410] = [c01, c02]
    p[410:420] = [[-0.0, 0.0], [0.0, -0.0], [1e300, -1e300], [-1e300, 1e300], [1e-310, -1e-310],
                  [c01 + 1e-12, c02 - 1e-12], [c01 - tau, c02 - tau], [c01 + 5.0, c02 + 5.0], [T1, T2], [0.0, 0.0]]
    return p


@pytest.mark.parametrize("T1, T2, tau", [(1.0, 1.0, 0.5), (-3.0, 2.0, 1e-3), (0.0, 0.0, 7.0)])
@pytest.mark.parametrize("scale", [0.3, 2.0, 1e3])
def test_two_way_fused_band_distance_is_the_plain_formula_bit_for_bit(T1, T2, tau, scale):
    p = _points(int(scale * 10) + int(tau * 1000), scale, T1, T2, tau)
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    want = np.maximum(_band_distance(p, T1, T2, tau), 0.0)
    assert np.array_equal(_band_distance_plus(p, R1, R2, c01, c02), want)


@pytest.mark.parametrize("growth", [growth_exp(0.1), growth_exp(2.0), growth_linear(0.5)])
@pytest.mark.parametrize("scale", [2.0, 50.0])
def test_two_way_smooth_sensitivity_fused_equals_the_ramp_formula(growth, scale):
    T1, T2, tau = 1.0, 1.0, 0.5
    p = _points(7, scale, T1, T2, tau)
    got = smooth_sensitivity_two_way_threshold(p, T1, T2, tau, growth)
    want = ramp_smooth_sensitivity(_band_distance(p, T1, T2, tau), tau, math.inf, growth)
    assert np.array_equal(got, want)
    # one point per call (the math fast path) agrees within 1 ulp (math and NumPy may round exp apart)
    one = np.array([smooth_sensitivity_two_way_threshold((float(a), float(b)), T1, T2, tau, growth)[0]
                    for a, b in p[:2000]])
    assert np.all(np.abs(one - got[:2000]) <= np.spacing(got[:2000]))


def test_norm2_is_within_2_ulp_of_hypot_and_safe_at_the_extremes():
    from smoothsens_core.sensitivity.two_way import _norm2, _norm2_one

    rng = np.random.default_rng(3)
    a = np.abs(rng.normal(0.0, 1.0, 200_000)) * 10.0 ** rng.integers(-300, 300, 200_000)
    b = np.abs(rng.normal(0.0, 1.0, 200_000)) * 10.0 ** rng.integers(-300, 300, 200_000)
    a[:4], b[:4] = [0.0, 1e-320, 1e308, 0.0], [0.0, 3e-320, 1e308, 5e-324]
    got, want = _norm2(a, b), np.hypot(a, b)
    assert np.all(np.isfinite(got)) and np.all(np.abs(got - want) <= 2 * np.spacing(want))
    one = np.array([_norm2_one(float(x), float(y)) for x, y in zip(a[:3000], b[:3000])])
    assert np.array_equal(one, got[:3000])  # the one-point path: the same IEEE operations, the same bits


def test_two_way_with_a_tiny_tau_keeps_its_geometry():
    tau = 1e-200  # sqrt(a^2 + b^2) would underflow to 0 here; the hypot fallback keeps D
    _, _, c01, c02 = _geometry(0.0, 0.0, tau)
    p = np.array([[c01 - 3e-200, c02 - 4e-200]])
    assert _band_distance(p, 0.0, 0.0, tau)[0] > 0.0
    R1, R2, _, _ = _geometry(0.0, 0.0, tau)
    assert _band_distance_plus(p, R1, R2, c01, c02)[0] == pytest.approx(5e-200 - R2, rel=1e-12)
