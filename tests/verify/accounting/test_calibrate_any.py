"""Calibration for any family: the returned scale is certified and 0.99 x it is not.

References: the Gaussian zCDP closed form rho = Delta^2/(2 s^2) (Mironov 2017, Prop. 7), so the smallest
scale for rho is Delta/sqrt(2 rho); the Laplace pure-DP scale Delta/eps; a user's family (a Gaussian written
as a new subclass with its own ball form) calibrated for (alpha, eps)-RDP against the closed form
s = Delta sqrt(alpha/(2 eps)).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from smoothsens_core.distributions import ArsinhNormal, ContinuousDistribution, Gaussian, Laplace, LaplaceLogNormal
from verify.accounting.calibrate import (
    ApproxDpTarget,
    PureDpTarget,
    RdpTarget,
    ShiftModel,
    SmoothModel,
    ZcdpTarget,
    calibrate_scale,
    certify_scale,
    register_family,
)
from verify.accounting.renyi import GaussianBallForm


class UserNormal(ContinuousDistribution):
    """A user's family: the standard normal density typed anew (not the core's Gaussian class)."""

    name = "user_normal"
    symmetric = True

    def _logpdf(self, z):
        return -0.5 * z * z - 0.5 * math.log(2 * math.pi)

    def _cdf(self, z):
        return special.ndtr(z)

    def _ppf(self, q):
        return special.ndtri(q)


register_family(UserNormal, ball_law=lambda noise: GaussianBallForm())


def test_gaussian_zcdp_scale_is_closed_form_and_tight():
    res = calibrate_scale(Gaussian(), ShiftModel(2.0), ZcdpTarget(0.5), rtol=1e-4)
    assert res.certified and res.value <= 0.5
    assert res.scale == pytest.approx(2.0, rel=2e-4)  # Delta/sqrt(2 rho)
    assert not certify_scale(Gaussian(), ShiftModel(2.0), ZcdpTarget(0.5), 0.99 * res.scale)[0]


def test_gaussian_approx_dp_scale_certified_and_tight():
    res = calibrate_scale(Gaussian(), ShiftModel(1.0), ApproxDpTarget(1.0, 1e-5))
    assert res.certified and res.value <= 1e-5
    ok, delta, _, _ = certify_scale(Gaussian(), ShiftModel(1.0), ApproxDpTarget(1.0, 1e-5), 0.99 * res.scale)
    assert not ok and delta > 1e-5


def test_laplace_pure_dp_scale():
    res = calibrate_scale(Laplace(), ShiftModel(1.0), PureDpTarget(0.5))
    assert res.certified and res.scale == pytest.approx(2.0, rel=2e-3)
    assert not certify_scale(Laplace(), ShiftModel(1.0), PureDpTarget(0.5), 0.99 * res.scale)[0]


def test_user_family_registered_and_calibrated_for_rdp():
    alpha, eps = 4.0, 0.5
    res = calibrate_scale(UserNormal(), ShiftModel(1.0), RdpTarget(alpha, eps), scale_hint=1.9, rtol=1e-3,
                          growth=1.1)
    assert res.certified_at_pairs and res.status == "CONDITIONAL", res.reason
    assert not res.certified  # the worst-pair assumption is unproven for a user's family: no guarantee
    assert "CONDITIONAL" in res.describe() and "not a guarantee" in res.describe()
    assert res.value <= eps
    assert res.scale == pytest.approx(math.sqrt(alpha / (2 * eps)), rel=2e-3)
    assert not certify_scale(UserNormal(), ShiftModel(1.0), RdpTarget(alpha, eps), 0.99 * res.scale)[0]
    assert res.assumptions  # the worst-pair assumption is stated for a family without a closed form


def test_arsinh_normal_rdp_shift_model_certified_and_tight():
    res = calibrate_scale(ArsinhNormal(0.5), ShiftModel(1.0), RdpTarget(4.0, 0.5), scale_hint=1.55,
                          rtol=5e-3, growth=1.1)
    assert res.certified_at_pairs and not res.certified and res.value <= 0.5
    ok, value, _, _ = certify_scale(ArsinhNormal(0.5), ShiftModel(1.0), RdpTarget(4.0, 0.5), 0.99 * res.scale)
    assert not ok and value > 0.5


def test_arsinh_normal_pure_dp_under_smooth_model_is_inconclusive():
    res = calibrate_scale(ArsinhNormal(0.5), SmoothModel(0.1), PureDpTarget(1.0))
    assert not res.certified and res.scale is None
    assert "sup of the privacy loss" in res.reason


def test_unregistered_family_is_inconclusive():
    res = calibrate_scale(LaplaceLogNormal(0.5), ShiftModel(1.0), RdpTarget(2.0, 1.0))
    assert not res.certified and "LaplaceLogNormal" in res.reason


def test_smooth_model_pairs_cover_both_scale_directions():
    pairs = SmoothModel(0.2).pairs(4.0)
    cs = sorted({c for c, _ in pairs})
    assert cs == pytest.approx([math.exp(-0.2), 1.0, math.exp(0.2)])
    assert max(m for _, m in pairs) == pytest.approx(0.25)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: register_family(int, ball_law=lambda n: None), "cls"),
    (lambda: register_family(UserNormal, ball_law=3), "ball_law"),
    (lambda: ZcdpTarget(0.0), "rho"),
    (lambda: ApproxDpTarget(1.0, 1.0), "delta"),
    (lambda: RdpTarget(1.0, 1.0), "alpha"),
    (lambda: PureDpTarget(-1.0), "eps"),
    (lambda: SmoothModel(0.0), "gamma"),
    (lambda: ShiftModel(-2.0), "sensitivity"),
    (lambda: certify_scale(Gaussian(), ShiftModel(), ZcdpTarget(1.0), 0.0), "scale"),
    (lambda: calibrate_scale(Gaussian(), ShiftModel(), ZcdpTarget(1.0), rtol=2.0), "rtol"),
    (lambda: calibrate_scale(np.zeros(3), ShiftModel(), ZcdpTarget(1.0)), "noise"),
])
def test_invalid_input_raises_naming_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
