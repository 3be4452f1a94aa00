"""The one-point fast paths of the ramp queries (one-way and two-way threshold, bounded range; 004
Lemmas 4.1, 4.3, App. C.3) against the bulk path on a NumPy whose ``exp`` differs from ``math.exp``.

NumPy's AVX-512 ``exp`` kernel and the C library's correctly rounded ``exp`` differ by up to 2 ulp at
some arguments; a fast path written with ``math.exp`` then disagrees with the bulk result there.  The
test runs both paths with NumPy's ``exp`` replaced by one 2 ulp above it (what such a build looks like
from ``math``): the per-point values must still equal the bulk ones bit for bit.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
import pytest

import smoothsens_core.sensitivity._ramp as ramp_mod
import smoothsens_core.sensitivity.bounded_range as bounded_range_mod
import smoothsens_core.sensitivity.threshold as threshold_mod
import smoothsens_core.sensitivity.two_way as two_way_mod
from smoothsens_core.growth import growth_exp
from smoothsens_core.sensitivity import (
    smooth_sensitivity_bounded_range,
    smooth_sensitivity_threshold,
    smooth_sensitivity_two_way_threshold,
)


def _numpy_with_exp_two_ulp_up() -> Any:
    """A stand-in for the ``numpy`` module whose ``exp`` rounds 2 ulp above NumPy's, except at the
    exact case exp(+-0) = 1 (exact in every implementation, the C library's and NumPy's SIMD kernels)."""

    def exp(x: Any, out: Any = None, **kw: Any) -> Any:
        r = np.exp(x, **kw)
        r = np.where(np.asarray(x) == 0.0, r, np.nextafter(np.nextafter(r, np.inf), np.inf))
        if out is not None:
            out[...] = r
            return out
        return r

    proxy = types.ModuleType("numpy_exp_two_ulp_up")
    proxy.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    proxy.exp = exp  # type: ignore[attr-defined]
    return proxy


@pytest.fixture
def skewed_exp(monkeypatch: pytest.MonkeyPatch) -> None:
    proxy = _numpy_with_exp_two_ulp_up()
    for mod in (ramp_mod, threshold_mod, two_way_mod, bounded_range_mod):
        monkeypatch.setattr(mod, "np", proxy)


def test_one_point_fast_paths_are_bit_identical_to_the_bulk_whatever_numpy_exp_rounds(skewed_exp: None) -> None:
    g = growth_exp(0.3)
    rng = np.random.default_rng(17)
    x = np.concatenate([rng.normal(1.0, 3.0, 500), [1.0, 1.25, 0.75, 1e300, -1e300]])
    bulk = smooth_sensitivity_threshold(x, 1.0, 0.5, g)
    one = np.array([smooth_sensitivity_threshold(float(v), 1.0, 0.5, g)[0] for v in x])
    assert np.array_equal(one, bulk)
    for shape in ("tent", "trapezoid"):
        bulk = smooth_sensitivity_bounded_range(x, 0.0, 3.0, 0.5, g, shape=shape)
        one = np.array([smooth_sensitivity_bounded_range(float(v), 0.0, 3.0, 0.5, g, shape=shape)[0] for v in x])
        assert np.array_equal(one, bulk)
    p = rng.normal(1.0, 2.0, (500, 2))
    bulk = smooth_sensitivity_two_way_threshold(p, 1.0, 1.0, 0.5, g)
    one = np.array([smooth_sensitivity_two_way_threshold(tuple(row), 1.0, 1.0, 0.5, g)[0] for row in p])
    assert np.array_equal(one, bulk)


def test_the_stand_in_exp_is_two_ulp_from_numpy() -> None:
    """The stand-in differs where the test needs it to (else the test above could not fail)."""
    v = np.array([-0.3, -1.7, -12.5])
    got = _numpy_with_exp_two_ulp_up().exp(v)
    assert np.all((got - np.exp(v)) / np.spacing(np.exp(v)) == 2.0)
