"""Experiment layer (004 Sec. 5): stand-in data, mechanisms M0/M1/M2/M_LDP, MSE/ASE, analytic MSE."""

import math

import numpy as np
import pytest
from scipy import special, stats

from verify.experiments import data, estimators as est, mechanisms as mech


# ---- data stand-ins ------------------------------------------------------------------------------
def test_fit_lognormal_recovers_exact_lognormal_percentiles():
    # Percentiles generated from a known log-normal: q_p = exp(mu + sigma Phi^-1(p)).
    mu, sigma = 11.0, 0.8
    pct = {p: math.exp(mu + sigma * special.ndtri(p)) for p in (0.1, 0.3, 0.5, 0.8, 0.95)}
    m, s = data.fit_lognormal_to_percentiles(pct)
    assert m == pytest.approx(mu, rel=1e-12) and s == pytest.approx(sigma, rel=1e-12)


@pytest.mark.parametrize(
    "pct, match",
    [
        ({0.5: 1.0}, "at least 2"),
        ({0.5: 10.0, 0.9: 5.0}, "increase"),
        ({0.5: 10.0, 1.5: 50.0}, "percentile level must be in"),
        ({0.5: -1.0, 0.9: 5.0}, "percentile value at p=0.5 must be in"),
    ],
)
def test_fit_lognormal_rejects_bad_percentiles(pct, match):
    with pytest.raises(ValueError, match=match):
        data.fit_lognormal_to_percentiles(pct)


def test_household_incomes_seeded_and_lognormal():
    a = data.household_incomes(50_000, 3)
    b = data.household_incomes(50_000, np.random.default_rng(3))
    assert np.array_equal(a, b)
    mu, sigma = data.fit_lognormal_to_percentiles()
    # ln X ~ N(mu, sigma): KS test against the fitted normal.
    assert stats.kstest(np.log(a), "norm", args=(mu, sigma)).pvalue > 1e-3
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        data.household_incomes(0, 1)
    with pytest.raises(ValueError, match="sigma must be in"):
        data.household_incomes(5, 1, sigma=0.0)


def test_income_debt_has_stated_correlation_and_ratio():
    xy = data.income_debt(200_000, 5)
    logs = np.log(xy)
    # rho = 0.4 on the log scale; se of a correlation at n=2e5 is about 0.002.
    assert np.corrcoef(logs.T)[0, 1] == pytest.approx(0.4, abs=0.01)
    # mu2 - mu1 = ln 1.791 (004 Sec. 5); se of the mean difference about 0.003.
    assert np.mean(logs[:, 1] - logs[:, 0]) == pytest.approx(math.log(1.791), abs=0.01)
    assert np.std(logs[:, 1]) == pytest.approx(np.std(logs[:, 0]), rel=0.02)
    with pytest.raises(ValueError, match="rho must be in"):
        data.income_debt(10, 1, rho=1.5)
    with pytest.raises(ValueError, match="debt_to_income must be in"):
        data.income_debt(10, 1, debt_to_income=0.0)


def test_collision_locations_inside_box_and_seeded():
    pts = data.collision_locations(20_000, 7)
    w, h = data.COLLISION_BOX_M
    assert pts.shape == (20_000, 2)
    assert np.all((pts >= 0) & (pts <= (w, h)))
    assert np.array_equal(pts, data.collision_locations(20_000, 7))
    lay = data.collision_layout()
    assert lay.weights.sum() + lay.background == pytest.approx(1.0)
    # Clustered, not uniform: a uniform sample would fill ~all 10 km cells; clusters leave many empty.
    hist, _, _ = np.histogram2d(pts[:, 0], pts[:, 1], bins=(11, 9), range=((0, w), (0, h)))
    assert hist.max() > 5 * hist.mean()
    with pytest.raises(ValueError, match="n_clusters must be an integer >= 5"):
        data.collision_layout(n_clusters=3)


# ---- planar / d-dimensional Laplace --------------------------------------------------------------
@pytest.mark.parametrize("d", [1, 2, 3])
def test_multivariate_laplace_radius_is_gamma_d(d):
    eps = 0.5
    z = mech.sample_multivariate_laplace((40_000,), d, eps, 11)
    assert z.shape == (40_000, d)
    r = np.linalg.norm(z, axis=1)
    # density prop. to exp(-eps||z||) in R^d  <=>  ||Z|| ~ Gamma(d, 1/eps)
    assert stats.kstest(r, stats.gamma(d, scale=1 / eps).cdf).pvalue > 1e-3
    if d == 2:
        ang = np.arctan2(z[:, 1], z[:, 0])
        assert stats.kstest(ang, stats.uniform(-math.pi, 2 * math.pi).cdf).pvalue > 1e-3
    if d == 1:
        assert stats.kstest(z[:, 0], stats.laplace(scale=1 / eps).cdf).pvalue > 1e-3


def test_multivariate_laplace_rejects_bad_eps():
    with pytest.raises(ValueError, match="eps must be in"):
        mech.sample_multivariate_laplace((3,), 2, -1.0, 1)


# ---- analytic MSE of the noise-a-priori threshold (004 Sec. 4.1.1) ------------------------------
def test_noise_a_priori_mse_closed_form_equals_printed_double_sum():
    x = np.random.default_rng(0).normal(5.0, 2.0, 700)
    for T, eps in [(5.0, 1.0), (3.0, 0.3), (9.0, 2.0)]:
        a = est.analytic_mse_noise_a_priori_threshold(x, T, eps)
        b = est.analytic_mse_noise_a_priori_threshold_double_sum(x, T, eps)
        assert a == pytest.approx(b, rel=1e-12)


def test_noise_a_priori_mse_matches_simulation():
    rng = np.random.default_rng(1)
    x = data.household_incomes(3000, rng)
    T, eps = 100_000.0, 1 / 20_000
    m0 = mech.NoiseAPriori(lambda p: (p[:, 0] > T).astype(float), eps)
    e = m0.mean_estimates(x, rng, reps=20_000)
    truth = float(np.mean(x > T))
    sim, se = est.mse(e, truth), est.mse_standard_error(e, truth)
    ana = est.analytic_mse_noise_a_priori_threshold(x, T, eps)
    assert abs(sim - ana) < 4 * se, (sim, ana, se)
    # bias: mean estimate - truth = (1/n) sum s_i p_i (se of the mean ~ sqrt(MSE/reps))
    bias = est.noise_a_priori_threshold_bias(x, T, eps)
    assert abs((e.mean() - truth) - bias) < 4 * math.sqrt(ana / e.size)


def test_noise_a_priori_mse_does_not_vanish_with_n():
    # 004 Sec. 4.1.1: with O(n) users within O(1/eps) of T the error is Omega(1): bias^2 stays.
    T, eps = 100_000.0, 1 / 20_000
    vals = [
        est.analytic_mse_noise_a_priori_threshold(data.household_incomes(n, 2), T, eps)
        for n in (10**3, 10**5, 10**6)
    ]
    bias2 = est.noise_a_priori_threshold_bias(data.household_incomes(10**6, 2), T, eps) ** 2
    assert bias2 > 1e-5 and vals[-1] >= bias2
    assert vals[-1] > 0.5 * vals[0]


def test_pair_counts_printed_are_unordered_halves():
    x = np.array([1.0, 2.0, 3.0, 7.0, 8.0])
    c = est.pair_counts_noise_a_priori(x, 5.0)
    # brute force over ordered pairs i != j
    s = x <= 5.0
    same = sum(1 for i in range(5) for j in range(5) if i != j and s[i] == s[j])
    cross = sum(1 for i in range(5) for j in range(5) if s[i] != s[j])
    assert (c["same_ordered"], c["cross_ordered"]) == (same, cross) == (8, 12)
    assert (c["same_printed"], c["cross_printed"]) == (4, 6)


def test_noise_a_priori_mse_rejects_bad_input():
    with pytest.raises(ValueError, match="eps must be in"):
        est.analytic_mse_noise_a_priori_threshold([1.0], 0.0, 0.0)
    with pytest.raises(ValueError, match="at least one user"):
        est.analytic_mse_noise_a_priori_threshold([], 0.0, 1.0)
    with pytest.raises(ValueError, match="at most 5000"):
        est.analytic_mse_noise_a_priori_threshold_double_sum(np.zeros(5001), 0.0, 1.0)


# ---- M1, M2, M_LDP -------------------------------------------------------------------------------
def test_global_lipschitz_mse_matches_analytic():
    rng = np.random.default_rng(4)
    x = rng.normal(0.0, 1.0, 5000)
    def f(p):  # 1-Lipschitz
        return np.clip(p[:, 0], -1.0, 1.0)

    m2 = mech.global_lipschitz_mechanism(f, 1.0, 2.0)
    e = m2.mean_estimates(x, rng, reps=4000, chunk_elements=10**5)
    truth = float(np.mean(f(x.reshape(-1, 1))))
    # Var(Lap(0, K/eps)) = 2 (K/eps)^2 per user -> MSE = 2 (K/eps)^2 / n
    assert m2.analytic_mse(x) == pytest.approx(2 * 0.25 / 5000)
    assert abs(est.mse(e, truth) - m2.analytic_mse(x)) < 4 * est.mse_standard_error(e, truth)


def test_local_dp_uses_eps_times_c():
    m = mech.local_dp_mechanism(lambda p: p[:, 0], 1 / 12_000, 12_000.0)
    assert m.info["eps_prime"] == pytest.approx(1.0)
    assert np.allclose(m.scales(np.zeros(3)), 1.0)
    with pytest.raises(ValueError, match="c must be in"):
        mech.local_dp_mechanism(lambda p: p[:, 0], 1.0, 0.0)


def test_noise_on_distance_tends_to_kernel_for_large_eps():
    x = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 0.0]])
    t, h = np.array([1.0, 0.0]), 1.5
    m1 = mech.NoiseOnDistance(t, h, 1e9)
    y = m1.release(x, 1, reps=2)
    kern = np.exp(-np.sum((x - t) ** 2, axis=1) / (2 * h * h))
    assert np.allclose(y, kern[None], atol=1e-7)
    with pytest.raises(ValueError, match="t must have 2 coordinates"):
        mech.NoiseOnDistance([0.0, 0.0, 0.0], h, 1.0).release(x, 1)
    with pytest.raises(ValueError, match="h must be in"):
        mech.NoiseOnDistance(t, 0.0, 1.0)


def test_additive_mechanism_rejects_nonpositive_scale():
    m = mech.AdditiveNoiseMechanism(
        f=lambda p: p[:, 0], scale=lambda p: p[:, 0], noise=lambda s, r: r.laplace(size=s),
        noise_variance=2.0, eps=1.0, name="bad",
    )
    with pytest.raises(ValueError, match="noise scale must be finite and > 0"):
        m.mean_estimates(np.array([1.0, 0.0]), 1)


def test_release_shape_and_chunking_consistency():
    x = np.linspace(-2, 2, 101)
    m0 = mech.NoiseAPriori(lambda p: np.tanh(p[:, 0]), 1.0)
    assert m0.release(x, 1, reps=3).shape == (3, 101)
    assert m0.noisy_points(x, 1, reps=2).shape == (2, 101, 1)
    # Different chunk sizes give estimates with the same distribution: compare means (4 se).
    a = m0.mean_estimates(x, 2, reps=3000, chunk_elements=500)
    b = m0.mean_estimates(x, 3, reps=3000, chunk_elements=10**6)
    se = math.sqrt(a.var() / a.size + b.var() / b.size)
    assert abs(a.mean() - b.mean()) < 4 * se
    with pytest.raises(ValueError, match="reps must be an integer >= 1"):
        m0.mean_estimates(x, 1, reps=0)


# ---- MSE / ASE -----------------------------------------------------------------------------------
def test_ase_is_grid_mean_then_repetition_mean():
    truth = np.arange(6.0).reshape(2, 3)
    e = np.stack([truth + 1.0, truth - 2.0])
    assert est.ase(e, truth) == pytest.approx((1.0 + 4.0) / 2)
    assert est.ase(truth + 3.0, truth) == pytest.approx(9.0)
    with pytest.raises(ValueError, match="estimates must have shape"):
        est.ase(np.zeros((2, 2, 2)), truth)


def test_mse_rejects_empty_and_nan():
    with pytest.raises(ValueError, match="at least one repetition"):
        est.mse([], 0.0)
    with pytest.raises(ValueError, match="estimates must contain only finite"):
        est.mse([np.nan], 0.0)
    with pytest.raises(ValueError, match="at least 2 repetitions"):
        est.mse_standard_error([1.0], 0.0)


def test_laplace_sum_shortcut_has_the_law_of_the_per_user_sum():
    # Sum of n iid Lap(0,1) = Gamma(n,1) - Gamma(n,1) exactly; compare with summing per-user draws.
    rng = np.random.default_rng(12)
    n = 7
    fast = mech._laplace_sum(n, 20_000, rng)
    slow = rng.laplace(size=(20_000, n)).sum(axis=1)
    assert stats.ks_2samp(fast, slow).pvalue > 1e-3
    assert np.var(fast) == pytest.approx(2 * n, rel=0.05)
    m2 = mech.global_lipschitz_mechanism(lambda p: p[:, 0] * 0.0, 1.0, 1.0)
    e = m2.mean_estimates(np.zeros(n), rng, reps=20_000)
    assert stats.ks_2samp(e, slow / n).pvalue > 1e-3
