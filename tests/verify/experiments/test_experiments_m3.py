"""M3 (smooth sensitivity, 004 Sec. 5) and its PolyPlace / GenCauchy variants in the experiment layer."""

import math

import numpy as np
import pytest

from smoothsens_core.calibration.tight import tight_epsilon
from smoothsens_core.distributions import StudentT
from verify.experiments import data, estimators, queries, runner


def _one_way(T, eps):
    tau = min(0.2 * T, 2 / eps)
    return queries.one_way_threshold_query(T, tau), tau


def test_m3_student_t_calibration_is_004_sec5():
    eps = 1 / 10_000
    q, _ = _one_way(100_000.0, eps)
    m3 = runner.build_mechanism("M3", q, eps)
    gamma = m3.info["gamma"]
    # 004 Sec. 5: nu = 3, nu gamma = eps/3, eps = nu gamma + (nu+1)/(2 sqrt(nu)) eta
    assert 3 * gamma == pytest.approx(eps / 3, rel=1e-12)
    assert 3 * gamma + 4 / (2 * math.sqrt(3)) * m3.info["eta"] == pytest.approx(eps, rel=1e-12)
    assert m3.noise_variance == pytest.approx(3.0)  # Var(T_3) = nu/(nu-2)


def test_m3_simulated_mse_matches_analytic():
    eps = 1 / 10_000
    q, _ = _one_way(100_000.0, eps)
    rng = np.random.default_rng(8)
    x = data.household_incomes(4000, rng)
    truth = float(np.mean(q.f(x)))
    for name in ("M3", "M3-GenCauchy"):
        m = runner.build_mechanism(name, q, eps)
        est = m.mean_estimates(x, rng, reps=3000)
        # unbiased additive noise: MSE = Var(Z) (1/n^2) sum_i (B*(x_i)/eta)^2
        assert abs(estimators.mse(est, truth) - m.analytic_mse(x)) < 5 * estimators.mse_standard_error(est, truth)


@pytest.mark.parametrize("T", [10_000.0, 500_000.0, 1_000_000.0])
def test_m3_beats_m2_when_users_far_from_threshold(T):
    # 004 Sec. 5 (Fig. 3a-f, Fig. 8d-f): most incomes are far from these thresholds (far relative
    # to 1/gamma = 9/eps = $22,500 at eps = 1/2,500 per USD).
    eps = 1 / 2_500
    q, _ = _one_way(T, eps)
    x = data.household_incomes(20_000, 9)
    m2 = runner.build_mechanism("M2", q, eps)
    m3 = runner.build_mechanism("M3", q, eps)
    assert m3.analytic_mse(x) < 0.5 * m2.analytic_mse(x)


def test_m3_noise_scale_never_exceeds_global_lipschitz_over_eta():
    # B*(x) <= K_f for all x (004 Sec. 1.1), so the M3 scale is at most K_f/eta.
    eps = 1 / 10_000
    q, tau = _one_way(100_000.0, eps)
    m3 = runner.build_mechanism("M3", q, eps)
    x = data.household_incomes(5000, 1)
    s = m3.scales(x)
    assert np.all(s <= (1 / tau) / m3.info["eta"] * (1 + 1e-12))


def test_m3_polyplace_has_smaller_noise_than_student_t():
    # 002 Figure 1: PolyPlace has the smaller std at the same (eps, gamma); same B*, so the MSE
    # ratio is the variance ratio.
    eps = 1 / 10_000
    q, _ = _one_way(100_000.0, eps)
    x = data.household_incomes(5000, 2)
    m3 = runner.build_mechanism("M3", q, eps)
    mpp = runner.build_mechanism("M3-PolyPlace", q, eps)
    assert mpp.info["gamma"] == pytest.approx(m3.info["gamma"])
    assert mpp.analytic_mse(x) < m3.analytic_mse(x)


def test_m3_tight_uses_certified_larger_eta():
    eps = 1 / 10_000
    q, _ = _one_way(100_000.0, eps)
    m3 = runner.build_mechanism("M3", q, eps)
    mt = runner.build_mechanism("M3-tight", q, eps)
    assert mt.info["gamma"] == pytest.approx(m3.info["gamma"])
    assert mt.info["eta_printed"] == pytest.approx(m3.info["eta"])
    # less noise than the printed Lemma 3.5 calibration, and still certified at eps
    assert mt.info["eta"] > m3.info["eta"]
    assert tight_epsilon(StudentT(3.0), mt.info["gamma"], mt.info["eta"], "euclidean").upper <= eps * (1 + 1e-9)
    x = data.household_incomes(3000, 4)
    assert mt.analytic_mse(x) < m3.analytic_mse(x)
