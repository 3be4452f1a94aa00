"""Property tests: every smooth-sensitivity mechanism of the core keeps its privacy-loss bound.

For each calibration of smoothsens_core.calibration (004 Lemmas 3.3, 3.5, 3.6, Cor. 3.2 noise
families, 002 Thm. 8 PolyPlace) the core's SmoothSensitivityMechanism with the calibrated noise
and eta is built on (a) the two-point domain {x, x'} realising any pair allowed by 004 Def. 8
(drawn by verify.strategies.smooth_pairs) and (b) the square query f(x) = x^2 on R with its
closed-form smooth sensitivity, on random Euclidean neighbour pairs (verify.strategies).  The
property: ln p_x(y) - ln p_x'(y) <= eps * dist(x, x') for every output y (pure mechanisms); for
the (eps, delta) Laplace mechanism the hockey-stick divergence is <= delta.
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothsens_core import calibration as cal
from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.audit.exact import hockey_stick, privacy_loss
from verify.reference.distributions import reference_for
from verify.strategies import euclidean_pairs, smooth_pairs

CALIBRATIONS = {
    "gencauchy-p4": lambda: cal.calibrate_gencauchy(1.0, 0.1, p=4.0),
    "gencauchy-p3-theta2": lambda: cal.calibrate_gencauchy(1.0, 0.05, p=3.0, theta=2.0),
    "gencauchy-m2": lambda: cal.calibrate_gencauchy(1.0, 0.1, p=4.0, m=2),
    "student-t-nu3": lambda: cal.calibrate_student_t(1.0, 0.1, nu=3.0),
    "student-t-nu1.5": lambda: cal.calibrate_student_t(0.5, 0.1, nu=1.5),
    "polyplace": lambda: cal.calibrate_polyplace(1.0, 0.3),
    "laplace-approx": lambda: cal.calibrate_laplace_approx(1.0, 1e-3, 0.05),
}
PURE = [k for k in CALIBRATIONS if k != "laplace-approx"]


def _spec(c):
    """The abstract mechanism of a core calibration (growth g_E, or g_L for the Laplace lemma); the
    PolyPlace mechanism of 002 Thm. 8 is a DP mechanism (Hamming metric)."""
    mech = c.mechanism()
    return dataclasses.replace(mech, metric="hamming") if "polyplace" in c.family.lower() else mech


def _two_point_mechanism(c, r, shift):
    """The core mechanism on U = {0, 1}: f(0) = shift, f(1) = 0, B(0) = e^r, B(1) = 1."""
    f = lambda x: np.where(np.asarray(x) == 0, shift, 0.0)  # noqa: E731
    B = lambda x: np.where(np.asarray(x) == 0, math.exp(r), 1.0)  # noqa: E731
    return SmoothSensitivityMechanism(f=f, B=B, noise=c.noise, eta=c.eta, eps=c.eps, delta=c.delta)


@pytest.mark.parametrize("key", PURE)
@settings(max_examples=40)
@given(data=st.data())
def test_core_mechanism_loss_bounded_on_def8_pairs(key, data):
    c = CALIBRATIONS[key]()
    spec = _spec(c)
    d, r, shift, y = data.draw(smooth_pairs(spec))
    total = 0.0
    for j in range(spec.m):  # iid coordinates (004 Cor. 3.2): the log-densities add up
        mech = _two_point_mechanism(c, r, shift[j])
        total += float(privacy_loss(mech, np.array([0]), np.array([1]), np.array([y[j]]))[0])
    assert total <= c.eps * d + 1e-9 * (1 + c.eps * d)


def _square_bound(x, growth, gamma, Lam):
    """Smooth sensitivity of f(x) = x^2 with L(z) = 2|z| + Lam (004 Def. 9, by hand):
    g_E: (2/gamma) e^(-gamma t*) with t* = 1/gamma - (2|x| + Lam)/2 if t* > 0, else 2|x| + Lam;
    g_L: sup_t (2|x| + 2t + Lam)/(1 + gamma t) = max(2/gamma, 2|x| + Lam) (monotone in t)."""
    ax = np.abs(np.asarray(x, dtype=float))
    if growth == "g_L":
        return np.maximum(2 / gamma, 2 * ax + Lam)
    t = 1 / gamma - (2 * ax + Lam) / 2
    return np.where(t > 0, (2 / gamma) * np.exp(-gamma * np.maximum(t, 0)), 2 * ax + Lam)


@pytest.mark.parametrize("key", ["gencauchy-p4", "student-t-nu3"])
@settings(max_examples=40)
@given(pair=euclidean_pairs(dim=1, Lambda=1.0, bound=30.0), v=st.floats(-25, 25))
def test_core_mechanism_square_query_on_euclidean_pairs(key, pair, v):
    c = CALIBRATIONS[key]()
    x, xp, d = pair
    B = lambda z: _square_bound(z, c.growth, c.gamma, 1.0)  # noqa: E731
    mech = SmoothSensitivityMechanism(f=lambda z: np.asarray(z) ** 2, B=B, noise=c.noise, eta=c.eta, eps=c.eps)
    y = float(x[0] ** 2) + float(B(x)[0]) / c.eta * math.sinh(v)
    L = float(privacy_loss(mech, x, xp, np.array([y]))[0])
    assert L <= c.eps * d + 1e-9


@settings(max_examples=25)
@given(data=st.data())
def test_core_laplace_approx_hockey_stick_at_most_delta(data):
    c = CALIBRATIONS["laplace-approx"]()
    spec = _spec(c)
    d, r, shift, _ = data.draw(smooth_pairs(spec))
    hs, _bad = hockey_stick(spec.noise, shift[0], math.exp(r) / c.eta, 0.0, 1.0 / c.eta, c.eps * d)
    assert hs <= c.delta + 1e-12


@pytest.mark.parametrize("key", list(CALIBRATIONS))
def test_core_noise_logpdf_matches_auditor_mp_density(key):
    # The auditor's mpmath densities are written from the papers independently of the core.
    c = CALIBRATIONS[key]()
    fam = reference_for(c.noise)
    z = np.array([0.0, 0.05, 0.3, 1.7, 25.0, -4.0, 1e5])
    with mpmath.workdps(30):
        ref = np.array([float(fam.logpdf(mpmath.mpf(float(t)))) for t in z])
    np.testing.assert_allclose(np.asarray(c.noise.logpdf(z)), ref, rtol=1e-11, atol=1e-11)
