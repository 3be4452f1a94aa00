"""Invalid parameters of the continuous noise families: ValueError naming the parameter and its range."""

from __future__ import annotations

import math

import pytest

from smoothsens_core.distributions import GenCauchy, Laplace, PolyPlace, StudentT

INVALID = [
    # (constructor, kwargs, message regex)
    (Laplace, {"scale": 0.0}, r"scale must be in \(0, inf\); got scale=0\.0"),
    (Laplace, {"scale": -1.0}, r"scale must be in \(0, inf\)"),
    (Laplace, {"scale": math.inf}, r"scale must be a finite real number"),
    (Laplace, {"loc": math.nan}, r"loc must be a finite real number"),
    (GenCauchy, {"p": 0.0}, r"p must be in \(0, inf\); got p=0\.0"),
    (GenCauchy, {"p": -2.0}, r"p must be in \(0, inf\)"),
    (GenCauchy, {"p": math.nan}, r"p must be a finite real number"),
    (GenCauchy, {"p": 4.0, "theta": 0.0}, r"theta must be in \(0, inf\); got theta=0\.0"),
    (GenCauchy, {"p": 4.0, "theta": math.inf}, r"theta must be a finite real number"),
    (GenCauchy, {"p": 1.0, "theta": 1.0}, r"p\*theta must be > 1; got p\*theta=1\.0"),
    (GenCauchy, {"p": 0.5, "theta": 1.5}, r"p\*theta must be > 1"),
    (GenCauchy, {"p": 4.0, "scale": 0.0}, r"scale must be in \(0, inf\)"),
    (GenCauchy, {"p": 4.0, "loc": math.inf}, r"loc must be a finite real number"),
    (StudentT, {"nu": 0.0}, r"nu must be in \(0, inf\); got nu=0\.0"),
    (StudentT, {"nu": -3.0}, r"nu must be in \(0, inf\)"),
    (StudentT, {"nu": math.nan}, r"nu must be a finite real number"),
    (StudentT, {"nu": 3.0, "scale": -0.5}, r"scale must be in \(0, inf\)"),
    (PolyPlace, {"s": 1.0, "alpha": 1.0}, r"alpha must be > 1\.0; got alpha=1\.0"),
    (PolyPlace, {"s": 1.0, "alpha": 0.5}, r"alpha must be > 1"),
    (PolyPlace, {"s": 1.0, "alpha": math.inf}, r"alpha must be a finite real number"),
    (PolyPlace, {"s": 0.0, "alpha": 3.0}, r"s must be in \(0, inf\); got s=0\.0"),
    (PolyPlace, {"s": -1.0, "alpha": 3.0}, r"s must be in \(0, inf\)"),
    (PolyPlace, {"s": math.nan, "alpha": 3.0}, r"s must be a finite real number"),
    (PolyPlace, {"s": 1.0, "alpha": 3.0, "loc": math.nan}, r"loc must be a finite real number"),
]


@pytest.mark.parametrize("cls,kwargs,match", INVALID, ids=[f"{c.__name__}-{k}" for c, k, _ in INVALID])
def test_distribution_rejects_invalid_parameter(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)


@pytest.mark.parametrize("cls,kwargs", [(GenCauchy, {"p": "4"}), (StudentT, {"nu": None}), (PolyPlace, {"s": 1.0, "alpha": True})])
def test_distribution_rejects_non_real_parameter(cls, kwargs):
    with pytest.raises(TypeError, match="must be a real number"):
        cls(**kwargs)


@pytest.mark.parametrize("dist", [Laplace(), GenCauchy(4, 1), StudentT(3), PolyPlace(1, 2.5)], ids=repr)
def test_distribution_rejects_invalid_arguments(dist):
    with pytest.raises(ValueError, match=r"q must be in \[0, 1\]"):
        dist.ppf(1.5)
    with pytest.raises(ValueError, match=r"q must be in \[0, 1\]"):
        dist.isf(-0.1)
    with pytest.raises(ValueError, match="x must not contain NaN"):
        dist.cdf([0.0, math.nan])
    with pytest.raises(TypeError, match="rng is required"):
        dist.sample(3)
