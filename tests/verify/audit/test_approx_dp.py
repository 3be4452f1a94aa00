"""(eps, delta) of concrete mechanisms, exactly: verify.audit.exact.curve.

References, each typed independently of the code under test:
* Gaussian mechanism f(x) + sigma Z, l2 sensitivity Delta: Balle & Wang (ICML 2018), Thm. 8,
  delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta), typed
  below in mpmath (erfc) at 50 digits;
* Laplace mechanism f(x) + b Z, Z ~ Lap(0, 1), sensitivity Delta: for eps <= Delta/b the set {L > eps} is a
  half-line and delta(eps) = 1 - e^((eps - Delta/b)/2) (integrate the two densities over it);
* geometric mechanism x + K, P(K = k) = (1 - r)/(1 + r) r^|k|, r = e^(-e0) (003 App. A), pair (0, 1):
  S = {k <= 0}, delta(eps) = P_0(K <= 0) - e^eps P_1(K <= 0) = (1 - e^eps r)/(1 + r) for eps < e0.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core import distributions as D
from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.audit.exact import (
    AdditiveNoiseMechanism,
    EuclideanNeighbourhood,
    HammingNeighbourhood,
    audit_density_mechanism,
    pair_hockey_stick,
    pair_hockey_stick_mp,
    privacy_curve,
)


def _bw(eps, sigma, Delta=1.0, dps=50):
    """Balle & Wang 2018 Thm. 8, typed here from the paper (not from the module under test)."""
    with mpmath.workdps(dps):
        e, s, d = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(Delta)
        phi = lambda u: mpmath.erfc(-u / mpmath.sqrt(2)) / 2  # noqa: E731
        return phi(d / (2 * s) - e * s / d) - mpmath.exp(e) * phi(-d / (2 * s) - e * s / d)


def _sum(x):
    a = np.asarray(x, dtype=float)
    return a.sum(axis=-1) if a.ndim > 1 else a


def _gauss(sigma, eps, delta):
    return AdditiveNoiseMechanism(D.Gaussian(), _sum, eps=eps, delta=delta, scale=sigma, name=f"Gaussian({sigma})")


@pytest.mark.parametrize("eps,sigma", [(0.5, 4.0), (1.0, 1.0), (0.1, 10.0), (3.0, 0.8), (0.5, 0.3)])
def test_gaussian_hockey_stick_matches_balle_wang(eps, sigma):
    m = _gauss(sigma, eps, 1e-5)
    hs, bad, S = pair_hockey_stick(m, 0.0, 1.0, eps)
    ref = _bw(eps, sigma)
    assert hs == pytest.approx(float(ref), rel=1e-12, abs=1e-300)
    with mpmath.workdps(50):
        v = pair_hockey_stick_mp(m, 0.0, 1.0, mpmath.mpf(eps), S, 50)
        # S's end points are binary64 roots of L = eps: the value over S is the supremum to second order
        assert abs(v - ref) <= mpmath.mpf(10) ** -25 * max(ref, mpmath.mpf(10) ** -300)
    assert bad >= hs


def test_exact_audit_judges_gaussian_eps_delta_claims():
    """The Gaussian mechanism has unbounded privacy loss: a correct (eps, delta) claim must pass (never a
    'certified violation' of pure eps), a wrong one must be certified with delta_hs found vs claimed."""
    nb = HammingNeighbourhood((0.0, 1.0), 2)
    true = float(_bw(0.5, 4.0))  # 2.7089e-3
    wrong = audit_density_mechanism(_gauss(4.0, 0.5, 1e-5), nb, rng=np.random.default_rng(0))
    assert wrong.violated and wrong.mode == "approx"
    assert float(wrong.witness["delta_hs_mp"]) == pytest.approx(true, rel=1e-15)
    # the note shows the certified enclosure [lower, upper] of delta_hs (verify.audit.exact.enclosure)
    assert "delta_hs found = [0.0027088802183" in wrong.notes[0] and "claimed delta = 1e-05" in wrong.notes[0]
    ok = audit_density_mechanism(_gauss(4.0, 0.5, 1.01 * true), nb, rng=np.random.default_rng(0))
    assert ok.passed and ok.mode == "approx"
    assert "certified violation" not in ok.summary()
    assert "delta_hs in [0.00270888, 0.00270888]" in ok.summary() and "<= claimed delta" in ok.summary()
    # just below the truth: still certified (the divergence over S is computed in mpmath)
    tight = audit_density_mechanism(_gauss(4.0, 0.5, 0.999 * true), nb, rng=np.random.default_rng(0))
    assert tight.violated


def test_smooth_sensitivity_mechanism_with_gaussian_noise_uses_its_scale():
    """f(x) + (B/eta) Z with B = 2, eta = 0.5: sigma = 4, the same curve as the additive mechanism."""
    mech = SmoothSensitivityMechanism(noise=D.Gaussian(), eta=0.5, eps=0.5, delta=1e-5, metric="euclidean",
                                      f=lambda x: np.asarray(x, dtype=float).reshape(len(np.atleast_1d(x)), -1)[:, 0]
                                      if np.ndim(x) > 1 else np.asarray(x, dtype=float),
                                      B=lambda x: np.full(np.shape(np.atleast_1d(x))[0], 2.0))
    hs, _, _ = pair_hockey_stick(mech, 0.0, 1.0, 0.5)
    assert hs == pytest.approx(float(_bw(0.5, 4.0)), rel=1e-12)
    res = audit_density_mechanism(mech, EuclideanNeighbourhood(0.0, 1.0, 1, 1.0), rng=np.random.default_rng(1),
                                  n_pairs=400, n_local=2)
    assert res.violated and res.mode == "approx"


@pytest.mark.parametrize("b,eps", [(1.0, 0.5), (2.0, 0.1), (0.5, 1.5)])
def test_laplace_hockey_stick_closed_form(b, eps):
    m = AdditiveNoiseMechanism(D.Laplace(), _sum, eps=eps, delta=1e-3, scale=b)
    hs, _, S = pair_hockey_stick(m, 0.0, 1.0, eps)
    with mpmath.workdps(50):
        ref = 1 - mpmath.exp((mpmath.mpf(eps) - 1 / mpmath.mpf(b)) / 2)
        assert hs == pytest.approx(float(ref), rel=1e-12)
        v = pair_hockey_stick_mp(m, 0.0, 1.0, mpmath.mpf(eps), S, 50)
        assert abs(v - ref) < mpmath.mpf(10) ** -25


def test_geometric_mechanism_curve_and_certificate():
    e0 = 0.5
    r = math.exp(-e0)
    m = AdditiveNoiseMechanism(D.TwoSidedGeometric(e0), _sum, eps=0.4, delta=0.05)
    grid = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    c = privacy_curve(m, [(0.0, 1.0), (1.0, 0.0)], grid)
    for e, d in zip(c.eps, c.delta):
        want = max((1 - math.exp(e) * r) / (1 + r), 0.0)
        assert d == pytest.approx(want, rel=1e-12, abs=1e-15), e
    assert c.certified_violation  # delta(0.4) = 0.0592 > 0.05
    with mpmath.workdps(50):
        want = (1 - mpmath.exp(mpmath.mpf(0.4)) * mpmath.exp(-mpmath.mpf(e0))) / (1 + mpmath.exp(-mpmath.mpf(e0)))
        assert abs(mpmath.mpf(c.delta_at_claimed_mp) - want) < mpmath.mpf(10) ** -18
    # pure eps = e0 holds, eps = 0.4 fails: the exact auditor on the log-pmf (integer outputs)
    nb = HammingNeighbourhood((0.0, 1.0), 2)
    assert audit_density_mechanism(AdditiveNoiseMechanism(D.TwoSidedGeometric(e0), _sum, eps=e0), nb,
                                   rng=np.random.default_rng(0)).passed
    bad = audit_density_mechanism(AdditiveNoiseMechanism(D.TwoSidedGeometric(e0), _sum, eps=0.4), nb,
                                  rng=np.random.default_rng(0))
    assert bad.violated and float(bad.witness["loss_mp"]) == pytest.approx(e0, rel=1e-15)
    ok = audit_density_mechanism(AdditiveNoiseMechanism(D.TwoSidedGeometric(e0), _sum, eps=0.4, delta=0.06), nb,
                                 rng=np.random.default_rng(0))
    assert ok.passed


def test_privacy_curve_gaussian_against_balle_wang_and_json():
    m = _gauss(2.0, 1.0, 0.13)
    grid = np.linspace(0.1, 3.0, 12)
    c = privacy_curve(m, [(0.0, 1.0), (0.0, 0.5)], grid)
    for e, d, wp in zip(c.eps, c.delta, c.worst_pairs):
        assert d == pytest.approx(float(_bw(e, 2.0)), rel=1e-11)
        assert wp == (0.0, 1.0)  # the larger shift is worse at every eps (Hamming distance 1 for both)
    assert not c.certified_violation and c.delta_at_claimed == pytest.approx(float(_bw(1.0, 2.0)), rel=1e-12)
    assert c.to_json()["claimed_delta"] == 0.13
    assert "within the claim" in c.summary()


@pytest.mark.parametrize("noise", [D.StudentT(3.0), D.GenCauchy(4.0, 1.0), D.PolyPlace(1.0, 2.5),
                                   D.PowerLaw(4.0, 2.0), D.Gaussian(), D.Laplace()], ids=repr)
def test_every_core_family_float_divergence_agrees_with_its_mpmath_reference(noise):
    """Shift 1 at scale 1.3 plus a scale change (B ratio 1.2): the float divergence over {L > t} (core
    tails) equals the mpmath one over the same set (reference tails) to 1e-9."""
    mech = SmoothSensitivityMechanism(noise=noise, eta=1.0, eps=0.3, delta=1e-3, metric="euclidean",
                                      f=lambda x: np.asarray(x, dtype=float),
                                      B=lambda x: 1.3 * (1.0 + 0.2 * (np.asarray(x, dtype=float) > 0.5)))
    hs, _, S = pair_hockey_stick(mech, 1.0, 0.0, 0.3)
    assert hs > 0 and S
    with mpmath.workdps(40):
        v = pair_hockey_stick_mp(mech, 1.0, 0.0, mpmath.mpf(0.3), S, 40)
    assert hs == pytest.approx(float(v), rel=1e-9)


def test_additive_mechanism_rejects_bad_parameters_and_density_only_is_inconclusive():
    with pytest.raises(ValueError, match="scale must be 1 for a discrete noise"):
        AdditiveNoiseMechanism(D.TwoSidedGeometric(1.0), _sum, eps=1.0, scale=2.0)
    with pytest.raises(ValueError, match="metric must be"):
        AdditiveNoiseMechanism(D.Gaussian(), _sum, eps=1.0, metric="gp")
    with pytest.raises(ValueError, match="eps"):
        AdditiveNoiseMechanism(D.Gaussian(), _sum, eps=0.0)

    class DensityOnly:
        eps, delta, name = 0.5, 1e-5, "density-only"

        def log_density(self, x, y):
            return D.Gaussian().logpdf(np.asarray(y, dtype=float) - np.asarray(x, dtype=float))

    res = audit_density_mechanism(DensityOnly(), HammingNeighbourhood((0.0, 1.0), 1), rng=np.random.default_rng(0))
    assert res.inconclusive and "not audited" in res.notes[0]
    with pytest.raises(ValueError, match="pairs must"):
        privacy_curve(_gauss(1.0, 1.0, 0.1), [], [0.5])
