"""The fused Lambda = inf path of the two-way threshold (a speed path) against the plain
formula of 004 Sec. 4.2 / Lemma 4.3: d(p) from ``_band_distance`` (np.where over the regions, D from
np.hypot of the clipped offsets) through ``ramp_smooth_sensitivity`` -- bit for bit on 10^5 random
points per case, including points on the lines through c0, far points and signed zeros."""

import math
import re

import numpy as np
import pytest

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import smooth_sensitivity_two_way_threshold
from smoothsens_core.sensitivity._ramp import ramp_smooth_sensitivity
from smoothsens_core.sensitivity.two_way import _band_distance, _band_distance_plus, _geometry, _norm2, _norm2_one


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
    rng = np.random.default_rng(3)
    a = np.abs(rng.normal(0.0, 1.0, 200_000)) * 10.0 ** rng.integers(-300, 300, 200_000)
    b = np.abs(rng.normal(0.0, 1.0, 200_000)) * 10.0 ** rng.integers(-300, 300, 200_000)
    a[:4], b[:4] = [0.0, 1e-320, 1e308, 0.0], [0.0, 3e-320, 1e308, 5e-324]
    got, want = _norm2(a, b), np.hypot(a, b)
    assert np.all(np.isfinite(got)) and np.all(np.abs(got - want) <= 2 * np.spacing(want))
    one = np.array([_norm2_one(float(x), float(y)) for x, y in zip(a[:3000], b[:3000], strict=True)])
    assert np.array_equal(one, got[:3000])  # the one-point path: the same IEEE operations, the same bits


def test_two_way_with_a_tiny_tau_keeps_its_geometry():
    tau = 1e-200  # sqrt(a^2 + b^2) would underflow to 0 here; the hypot fallback keeps D
    _, _, c01, c02 = _geometry(0.0, 0.0, tau)
    p = np.array([[c01 - 3e-200, c02 - 4e-200]])
    assert _band_distance(p, 0.0, 0.0, tau)[0] > 0.0
    R1, R2, _, _ = _geometry(0.0, 0.0, tau)
    assert _band_distance_plus(p, R1, R2, c01, c02)[0] == pytest.approx(5e-200 - R2, rel=1e-12)


@pytest.mark.parametrize("growth", [growth_exp(0.1), growth_exp(3.0), growth_exp(5e3), growth_linear(0.5)])
@pytest.mark.parametrize("layout", ["c", "fortran", "strided", "reversed"])
@pytest.mark.parametrize("tau", [0.5, 1e-140])
def test_two_way_bulk_path_layouts_chunks_and_band_points(growth, layout, tau):
    """The bulk path (complex corner offsets for C-ordered rows, workspace buffers, finiteness from
    the corner terms, min(max(1/(t + tau), e^{-gamma t}/tau), 1/tau) with the signed band distance t,
    whose exponential overflows on the band for gamma = 5e3) is the ramp formula bit for bit, for
    every memory layout and chunk size, with a third of the points on the band (where d+ = 0)."""
    T1, T2 = 1.0, -2.0
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    rng = np.random.default_rng(21)
    p = _points(5, 3.0 * tau, T1, T2, tau)[:30_001]
    ang = rng.uniform(0.0, np.pi / 2, 10_000)
    r = rng.uniform(R1, R2, 10_000)  # on the band: D between R1 and R2 (and its rounding edges)
    r[:3] = [R1, R2, np.nextafter(R2, 0.0)]
    p[:10_000] = np.column_stack([c01 - r * np.cos(ang), c02 - r * np.sin(ang)])
    q = {"c": p, "fortran": np.asfortranarray(p), "strided": np.repeat(p, 2, axis=0)[::2],
         "reversed": p[:, ::-1][:, ::-1]}[layout]
    want = ramp_smooth_sensitivity(_band_distance(p, T1, T2, tau), tau, math.inf, growth)
    for chunk in (1 << 16, 4_099):
        assert np.array_equal(smooth_sensitivity_two_way_threshold(q, T1, T2, tau, growth, chunk=chunk), want)


def test_two_way_bulk_path_reports_a_non_finite_point_in_a_later_chunk_and_shape_errors_in_order():
    g = growth_exp(0.1)
    p = np.ones((10_000, 2))
    for bad, where in ((np.inf, "points[9000, 1]"), (-np.inf, "points[9000, 1]"), (np.nan, "points[9000, 1]")):
        q = p.copy()
        q[9000, 1] = bad
        with pytest.raises(ValueError, match=rf"finite numbers; got {re.escape(where)}="):
            smooth_sensitivity_two_way_threshold(q, 1.0, 1.0, 0.5, g, chunk=1000)
    with pytest.raises(ValueError, match="finite"):  # a non-finite entry is named before a wrong shape
        smooth_sensitivity_two_way_threshold(np.array([[1.0, 2.0, np.nan]]), 1.0, 1.0, 0.5, g)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        smooth_sensitivity_two_way_threshold(np.ones((3, 3)), 1.0, 1.0, 0.5, g)
    # finite points whose offsets c0 - p overflow are not reported: the same values as the formula
    q = np.array([[-1.7e308, 0.0], [1.7e308, -1.7e308], [0.0, 0.0]])
    with np.errstate(over="ignore"):
        want = ramp_smooth_sensitivity(_band_distance(q, 1e308, -1e308, 0.5), 0.5, math.inf, g)
        assert np.array_equal(smooth_sensitivity_two_way_threshold(q, 1e308, -1e308, 0.5, g), want)
