"""verify.reference.queries (mpmath queries of 004 Sec. 4) and verify.reference.search (golden section).

The mpmath queries are compared with the core's float queries at random points: both evaluate a
piecewise-linear clip or one exp of O(1) arguments, so they agree to 4 ulp (rtol 1e-15, atol 1e-15 near
the clip edges).  The searches are checked on maxima known in closed form (hand-computed, exact).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from smoothsens_core.sensitivity import gaussian_kernel, soft_bounded_range, soft_threshold, soft_two_way_threshold
from verify.reference.queries import (
    bounded_range_query_mp,
    kde_query_mp,
    threshold_query_mp,
    two_way_query_mp,
)
from verify.reference.search import golden_section_max, grid_golden_max


def _close(a: float, b) -> bool:
    return abs(a - float(b)) <= 1e-15 + 1e-15 * abs(float(b))


def test_reference_queries_agree_with_core_float_queries():
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 5, 200)
    p = rng.uniform(-3, 5, (200, 2))
    with mpmath.workdps(30):
        f = threshold_query_mp(0.7, 1.3)
        assert all(_close(a, f(v)) for a, v in zip(soft_threshold(x, 0.7, 1.3), x, strict=True))
        for shape in ("tent", "trapezoid"):
            f = bounded_range_query_mp(-0.5, 2.0, 0.4, shape)
            assert all(_close(a, f(v)) for a, v in zip(soft_bounded_range(x, -0.5, 2.0, 0.4, shape), x, strict=True))
        f2 = two_way_query_mp(0.2, 1.1, 0.8)
        assert all(_close(a, f2(*v)) for a, v in zip(soft_two_way_threshold(p, 0.2, 1.1, 0.8), p, strict=True))
        fk = kde_query_mp([0.5, -0.2], 0.7)
        assert all(_close(a, fk(*v)) for a, v in zip(gaussian_kernel(p, [0.5, -0.2], 0.7), p, strict=True))
        fk1 = kde_query_mp(0.5, 0.7)
        assert all(_close(a, fk1(v)) for a, v in zip(gaussian_kernel(x, [0.5], 0.7), x, strict=True))


def test_reference_bounded_range_rejects_unknown_shape():
    with pytest.raises(ValueError, match="shape must be 'tent' or 'trapezoid'; got shape='box'"):
        bounded_range_query_mp(0.0, 1.0, 0.5, "box")


def test_golden_section_max_finds_known_maximum():
    with mpmath.workdps(40):
        # -(x - 0.3)^2 on [0, 1]: maximum 0 at x = 3/10; 120 steps shrink the bracket to ~1e-25
        x, fx = golden_section_max(lambda t: -(t - mpmath.mpf(3) / 10) ** 2, mpmath.mpf(0), mpmath.mpf(1), 120)
        assert abs(x - mpmath.mpf(3) / 10) < mpmath.mpf(10) ** -24 and fx <= 0


def test_grid_golden_max_brackets_and_refines():
    with mpmath.workdps(40):
        # z e^{-z} on a log grid of [1e-3, 1e3]: sup 1/e at z = 1, between grid points
        grid = [mpmath.mpf(10) ** (mpmath.mpf(k) / 7 - 3) for k in range(43)]
        best = grid_golden_max(lambda z: z * mpmath.exp(-z), grid, 120)
        assert abs(best - 1 / mpmath.e) < mpmath.mpf(10) ** -35
        # the refinement never lowers the grid maximum (a grid point is the maximiser here)
        assert grid_golden_max(lambda z: -abs(z - grid[21]), grid, 5) == 0
