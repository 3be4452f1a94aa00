"""Black-box (eps, delta) lower bounds (verify.audit.blackbox.mechanism) and the privacy-curve plot.

References: the Gaussian mechanism x + sigma Z has delta(eps) = Phi(1/(2 sigma) - eps sigma)
- e^eps Phi(-1/(2 sigma) - eps sigma) at sensitivity 1 (Balle & Wang, ICML 2018, Thm. 8; mpmath,
verify.audit.exact.gaussian_delta_balle_wang, itself checked against an independent typing in
test_approx_dp.py): sigma = 3.9 gives delta(0.5) = 3.1725e-3, the size of the wrong library claims
(0.5, 1e-5) of the black-box library audits.  The geometric mechanism x + K, P(K = k) ∝ e^(-e0 |k|) (003 App. A), is
e0-DP exactly (the loss at a shift of one is e0 on a half-line).
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from smoothsens_core.distributions import Gaussian, Laplace, TwoSidedGeometric
from verify.audit.blackbox import audit_blackbox_mechanism, lower_bound_curve, plot_privacy_curve
from verify.audit.blackbox.mechanism import _delta_lower_joint, _joint_pvalue
from verify.audit.exact import AdditiveNoiseMechanism, HammingNeighbourhood, gaussian_delta_balle_wang

SIGMA = 3.9
TRUE_DELTA = float(gaussian_delta_balle_wang(0.5, SIGMA))  # 3.1725e-3


def _gauss_release(x, rng):
    x = np.asarray(x, dtype=float)
    return x + SIGMA * rng.standard_normal(x.shape)


def _ident(x):
    a = np.asarray(x, dtype=float)
    return a.sum(axis=-1) if a.ndim > 1 else a


@pytest.mark.parametrize("seed", (0, 1, 2))
def test_wrong_gaussian_claim_fails_at_the_default_budget(seed):
    rep = audit_blackbox_mechanism(_gauss_release, 0.5, "hamming", pairs=[(0.0, 1.0)], claimed_delta=1e-5,
                                   rng=seed)
    assert rep.n == 200_000 and rep.vectorised
    assert rep.violated and rep.delta_lower > 1e-5
    assert rep.delta_lower < TRUE_DELTA  # a lower bound: below the truth
    assert "FAIL: claimed eps=0.5, delta=1e-05 refuted" in rep.verdict_text()


@pytest.mark.parametrize("seed", (0, 1, 2))
def test_correct_gaussian_claim_passes(seed):
    rep = audit_blackbox_mechanism(_gauss_release, 0.5, "hamming", pairs=[(0.0, 1.0)], claimed_delta=TRUE_DELTA,
                                   rng=seed)
    assert rep.passed, rep.summary()
    assert rep.delta_lower <= TRUE_DELTA and rep.eps_lower <= 0.5


def test_gaussian_with_density_exact_side_judges_delta():
    wrong = AdditiveNoiseMechanism(Gaussian(), _ident, eps=0.5, delta=1e-5, scale=SIGMA)
    rep = audit_blackbox_mechanism(wrong.release, 0.5, "hamming", pairs=[(0.0, 1.0)], claimed_delta=1e-5, rng=0,
                                   budget=20_000, neighbourhood=HammingNeighbourhood((0.0, 1.0), 1))
    assert rep.exact_outcome == "violated" and rep.violated
    assert float(rep.exact["delta_hs"]) == pytest.approx(TRUE_DELTA, rel=1e-12)
    right = AdditiveNoiseMechanism(Gaussian(), _ident, eps=0.5, delta=1.01 * TRUE_DELTA, scale=SIGMA)
    rep = audit_blackbox_mechanism(right.release, 0.5, "hamming", pairs=[(0.0, 1.0)],
                                   claimed_delta=1.01 * TRUE_DELTA, rng=0, budget=20_000,
                                   neighbourhood=HammingNeighbourhood((0.0, 1.0), 1))
    assert rep.passed and rep.exact_outcome == "pass"
    assert "certified violation" not in rep.summary()


def test_pure_laplace_power_is_kept():
    """Laplace with b = 1 (eps = 1) claimed 0.5: the lower bound reaches >= 0.95 of the true eps."""
    lap = Laplace()
    rep = audit_blackbox_mechanism(lambda x, rng: np.asarray(x, float) + lap.sample(np.shape(x), rng), 0.5,
                                   "hamming", pairs=[(0.0, 1.0)], rng=0)
    assert rep.violated and rep.eps_lower >= 0.95


def test_geometric_mechanism_is_vectorised_and_judged():
    geo = TwoSidedGeometric(1.0)

    def right(x, rng):
        x = np.asarray(x, dtype=float)
        return x + geo.sample(x.shape, rng)

    def wrong(x, rng):  # noise of eps = 2 claimed as 1
        x = np.asarray(x, dtype=float)
        return x + TwoSidedGeometric(2.0).sample(x.shape, rng)

    t0 = time.perf_counter()
    ok = audit_blackbox_mechanism(right, 1.0, "hamming", pairs=[(0.0, 1.0)], rng=0, budget=50_000)
    assert ok.vectorised and ok.discrete and ok.passed
    assert time.perf_counter() - t0 < 30  # ~1 s vectorised; one call per draw took minutes
    bad = audit_blackbox_mechanism(wrong, 1.0, "hamming", pairs=[(0.0, 1.0)], rng=0, budget=50_000)
    # the event is a true tail of the integers ({y <= 0}: every integer below, seen or not) and the bound
    # reaches 0.95 x the true eps = 2
    assert bad.violated and 0.95 * 2.0 <= bad.eps_lower <= 2.0 and bad.pairs[0].event.startswith(("y <= ", "y > "))


def test_integer_release_with_shared_noise_is_not_vectorised():
    def shared(x, rng):
        x = np.asarray(x, dtype=float)
        return x + TwoSidedGeometric(1.0).sample(1, rng)[0]  # one draw added to every row

    rep = audit_blackbox_mechanism(shared, 1.0, "hamming", pairs=[(0.0, 1.0)], rng=0, budget=2_000, density=False)
    assert not rep.vectorised and rep.discrete


def test_joint_test_is_valid_and_matches_the_normal_approximation():
    c = math.exp(0.5)
    # at the truth p - c q = m0 the test rejects at level 0.05 in at most ~5% of draws (40 seeds)
    p, q, n = 0.02, 0.01, 5_000
    m0 = p - c * q
    rng = np.random.default_rng(0)
    rej = sum(_joint_pvalue(int(rng.binomial(n, p)), int(rng.binomial(n, q)), n, c, m0, 0.05) <= 0.05
              for _ in range(40))
    assert rej <= 6
    # the lower bound sits near the normal one (hat - z sd) and below the estimate
    lb = _delta_lower_joint(2440, 1250, 180_000, c, 6e-5)
    hat = (2440 - c * 1250) / 180_000
    assert 0.0 < lb < hat and lb == pytest.approx(hat - 3.85 * math.sqrt((2440 / 180_000 + c * c * 1250 / 180_000)
                                                                            / 180_000), rel=0.15)


def test_plot_privacy_curve(tmp_path):
    rep = audit_blackbox_mechanism(_gauss_release, 0.5, "hamming", pairs=[(0.0, 1.0)], claimed_delta=1e-5, rng=0,
                                   budget=40_000)
    grid = np.linspace(0.05, 1.0, 20)
    lb = lower_bound_curve(rep, grid)
    exact = np.array([float(gaussian_delta_balle_wang(e, SIGMA)) for e in grid])
    assert np.all(lb <= exact)  # lower confidence bounds under the exact curve at every eps
    mech = AdditiveNoiseMechanism(Gaussian(), _ident, eps=0.5, delta=1e-5, scale=SIGMA)
    out = plot_privacy_curve(rep, tmp_path / "curve.png", eps_grid=grid, mechanism=mech, pairs=[(0.0, 1.0)])
    assert out.exists() and out.stat().st_size > 5_000
    with pytest.raises(TypeError, match="MechanismAuditReport or a PrivacyCurve"):
        plot_privacy_curve("nope", tmp_path / "x.png")
