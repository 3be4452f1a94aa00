"""Black-box goodness-of-fit audit of samplers (verify.audit.blackbox.audit_sampler)."""

from __future__ import annotations

import numpy as np
import planted_impls as P  # tests/verify is on sys.path (rootdir-less test folder)
import pytest
from scipy import integrate

from smoothsens_core.distributions import GenCauchy, Laplace, PolyPlace, StudentT
from verify.audit.blackbox import anderson_darling_cdf, audit_sampler
from verify.audit.blackbox.sampler import anderson_darling_sf

SEEDS = (0, 1, 2)
N = 100_000


def _ad_sf_imhof(z: float, J: int = 4000) -> float:
    """Reference P(A^2_inf > z) by Imhof's inversion formula for the quadratic form
    A^2_inf = sum_j Y_j^2 / (j (j + 1)), Y_j iid N(0, 1) (Anderson & Darling 1952, the limiting
    law of the statistic with a fully specified F), truncated after J terms; the neglected tail
    sum_{j > J} lambda_j Y_j^2 is replaced by its mean 1/(J + 1) (its sd is O(J^-1.5)).
    Imhof: P(Q > x) = 1/2 + (1/pi) int_0^inf sin(theta(u)) / (u rho(u)) du,
    theta(u) = (1/2) sum_j arctan(lambda_j u) - x u / 2,  rho(u) = prod_j (1 + lambda_j^2 u^2)^(1/4)."""
    lam = 1.0 / (np.arange(1, J + 1) * np.arange(2, J + 2))
    x = z - 1.0 / (J + 1)

    def integrand(u: float) -> float:
        th = 0.5 * np.sum(np.arctan(lam * u)) - 0.5 * x * u
        rho = np.exp(0.25 * np.sum(np.log1p((lam * u) ** 2)))
        return np.sin(th) / (u * rho)

    val, _ = integrate.quad(integrand, 0, np.inf, limit=2000)
    return 0.5 + val / np.pi


@pytest.mark.parametrize("z", [0.5, 1.0, 1.933, 2.492, 3.0, 3.878])
def test_anderson_darling_p_value_matches_an_imhof_reference(z):
    # n = 10^6 makes errfix negligible (< 1e-7): compares ADinf with the exact limiting law
    ref = _ad_sf_imhof(z)
    assert 1.0 - anderson_darling_cdf(z, 10**6) == pytest.approx(ref, abs=3e-5)
    assert anderson_darling_sf(z, 10**6) == pytest.approx(ref, abs=3e-5)


def test_anderson_darling_p_values_are_calibrated_for_small_n():
    """Under H0 (uniforms, n = 50) the p-value ADinf + errfix is uniform: the fractions below 0.01,
    0.05 and 0.2 over 4000 replications lie within 4.5 binomial sds (probability of failing ~ 1e-5)."""
    rng = np.random.default_rng(2024)
    n, reps = 50, 4000
    u = np.sort(rng.random((reps, n)), axis=1)
    i = np.arange(1, n + 1)
    a2 = -n - np.sum((2 * i - 1) * (np.log(u) + np.log1p(-u[:, ::-1])), axis=1) / n
    p = 1.0 - np.array([anderson_darling_cdf(a, n) for a in a2])
    for level in (0.01, 0.05, 0.2):
        frac = float(np.mean(p <= level))
        sd = np.sqrt(level * (1 - level) / reps)
        assert abs(frac - level) <= 4.5 * sd, (level, frac)


# ---- planted faults: a 5% scale error --------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("sampler, dist", [(P.laplace_sampler_scale_5pct, Laplace()),
                                           (P.student_t_sampler_scale_5pct, StudentT(3.0))],
                         ids=["laplace", "student-t"])
def test_audit_sampler_catches_a_5pct_scale_error(sampler, dist, seed):
    rep = audit_sampler(sampler, dist, budget=N, rng=seed)
    assert not rep.passed
    rejected = {t.name for t in rep.tests if t.rejected}
    assert {"Kolmogorov-Smirnov", "Anderson-Darling"} <= rejected, rep.summary()
    ad = next(t for t in rep.tests if t.name == "Anderson-Darling")
    assert ad.p_value < 1e-8 and ad.p_value <= ad.holm_threshold
    assert "REJECTED" in rep.summary() and "FAIL" in rep.summary()


def test_audit_sampler_catches_a_shape_error():
    """T_3 draws passed off as GenCauchy(p=2, theta=2) (same p = 2 family, wrong theta)."""
    rep = audit_sampler(P.student_t_sampler, GenCauchy(2.0, 2.0), budget=N, rng=0)
    assert not rep.passed


# ---- correct samplers pass ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("sampler, dist", [(P.laplace_sampler, Laplace()), (P.student_t_sampler, StudentT(3.0)),
                                           (P.gencauchy_sampler, GenCauchy(4.0, 1.0)),
                                           (lambda n, rng: PolyPlace(1.0, 5.0).sample(n, rng), PolyPlace(1.0, 5.0))],
                         ids=["laplace", "student-t", "gencauchy4", "polyplace"])
def test_audit_sampler_passes_the_cores_samplers(sampler, dist, seed):
    rep = audit_sampler(sampler, dist, budget=N, rng=seed)
    assert rep.passed, rep.summary()
    names = {t.name for t in rep.tests}
    assert {"Kolmogorov-Smirnov", "Anderson-Darling", "quantile q=0.001", "quantile q=0.999"} <= names


def test_audit_sampler_runs_moment_tests_only_where_they_exist():
    lap = audit_sampler(P.laplace_sampler, Laplace(), budget=20_000, rng=0)
    assert {"mean", "variance"} <= {t.name for t in lap.tests}
    t3 = audit_sampler(P.student_t_sampler, StudentT(3.0), budget=20_000, rng=0)
    names = {t.name for t in t3.tests}
    assert "variance" not in names and "mean" not in names  # E|T_3|^3 = inf
    assert any("variance test skipped" in n for n in t3.notes)


def test_audit_sampler_false_alarm_rate_holds_over_many_seeds():
    """Holm at alpha = 0.05 over 200 independent audits of a correct sampler: the number of false
    alarms is Binomial(200, <= 0.05); more than 21 has probability < 0.002 under that law."""
    fails = sum(not audit_sampler(P.laplace_sampler, Laplace(), budget=2000, rng=s, false_alarm=0.05).passed
                for s in range(200))
    assert fails <= 21


def test_audit_sampler_holm_decisions_follow_the_step_down_rule():
    rep = audit_sampler(P.laplace_sampler_scale_5pct, Laplace(), budget=20_000, rng=3, false_alarm=1e-3)
    ps = sorted((t.p_value, t.rejected, t.holm_threshold) for t in rep.tests)
    m = len(ps)
    still = True
    for rank, (p, rej, thr) in enumerate(ps):
        assert thr == pytest.approx(1e-3 / (m - rank))
        still = still and p <= thr
        assert rej == still


# ---- conventions, reproducibility, errors ----------------------------------------------------------


def test_audit_sampler_accepts_the_other_calling_conventions_and_is_reproducible():
    a = audit_sampler(lambda rng, n: Laplace().sample(n, rng), Laplace(), budget=5000, rng=7)
    assert a.calling_convention == "sampler(rng, n)" and a.passed
    b = audit_sampler(lambda rng: float(rng.laplace()), Laplace(), budget=2000, rng=7)
    assert b.calling_convention == "sampler(rng)" and b.passed
    c = audit_sampler(P.laplace_sampler, Laplace(), budget=5000, rng=7)
    d = audit_sampler(P.laplace_sampler, Laplace(), budget=5000, rng=7)
    e = audit_sampler(P.laplace_sampler, Laplace(), budget=5000, rng=8)
    assert [t.statistic for t in c.tests] == [t.statistic for t in d.tests]
    assert [t.statistic for t in c.tests] != [t.statistic for t in e.tests]


def test_audit_sampler_reports_non_finite_draws():
    def leaky(n, rng):
        x = Laplace().sample(n, rng)
        x[::1000] = np.nan
        return x

    rep = audit_sampler(leaky, Laplace(), budget=10_000, rng=0)
    assert rep.non_finite == 10 and not rep.passed


def test_audit_sampler_rejects_bad_input():
    with pytest.raises(TypeError, match=r"must be callable as sampler\(n, rng\)"):
        audit_sampler(lambda a, b, c: 0.0, Laplace(), budget=1000)
    with pytest.raises(TypeError, match="sampler must be callable; got int"):
        audit_sampler(3, Laplace())
    with pytest.raises(TypeError, match=r"distribution must have an exact cdf\(\)"):
        audit_sampler(P.laplace_sampler, "laplace")
    with pytest.raises(ValueError, match="false_alarm must be in"):
        audit_sampler(P.laplace_sampler, Laplace(), false_alarm=1.5)
    with pytest.raises(ValueError, match="budget must be an integer >= 100"):
        audit_sampler(P.laplace_sampler, Laplace(), budget=10)
    with pytest.raises(TypeError, match="the sampler returned 999 draws for n=1000"):
        audit_sampler(lambda n, rng: rng.laplace(size=16 if n == 16 else n - 1), Laplace(), budget=1000)


def test_audit_sampler_reports_a_sampler_that_fails_on_the_full_draw():
    def small_only(n, rng):
        if n > 1000:
            raise OverflowError("buffer too small")
        return rng.laplace(size=n)

    with pytest.raises(ValueError, match=r"the sampler raised OverflowError when asked for 5000 draws as "
                                         r"sampler\(n, rng\): buffer too small"):
        audit_sampler(small_only, Laplace(), budget=5000)


# ---- discrete laws (the two-sided geometric of 003 App. A) and the Gaussian ------------------------

def test_audit_sampler_discrete_passes_the_cores_geometric_and_catches_wrong_ones():
    from smoothsens_core.distributions import TwoSidedGeometric
    g = TwoSidedGeometric(0.7, loc=2)
    good = audit_sampler(lambda n, rng: g.sample(n, rng), g, budget=N, rng=0)
    assert good.passed, good.summary()
    names = [t.name for t in good.tests]
    assert "chi-square" in names and "support" in names
    assert "Kolmogorov-Smirnov" not in names  # KS/AD assume a continuous CDF
    # eps 0.75 instead of 0.7 (a 7% scale error of the geometric tail)
    wrong = audit_sampler(lambda n, rng: TwoSidedGeometric(0.75, loc=2).sample(n, rng), g, budget=N, rng=0)
    assert not wrong.passed and any(t.rejected and t.name == "chi-square" for t in wrong.tests)
    # rounded Laplace of the same scale is not the geometric law
    rounded = audit_sampler(lambda n, rng: np.round(2 + rng.laplace(0, 1 / 0.7, n)), g, budget=N, rng=0)
    assert not rounded.passed
    # one non-integer draw in 10^4 is off the support: rejected with p = 0
    off = audit_sampler(lambda n, rng: g.sample(n, rng) + 0.5 * (rng.random(n) < 1e-4), g, budget=N, rng=0)
    assert not off.passed and [t.name for t in off.tests if t.rejected] == ["support"]


def test_audit_sampler_discrete_false_alarm_rate_holds():
    """At family-wise level 0.05, a correct geometric sampler fails at most ~5% of 60 seeds
    (Binomial(60, 0.05): P(>= 9) < 0.01)."""
    from smoothsens_core.distributions import TwoSidedGeometric
    g = TwoSidedGeometric(1.3)
    fails = sum(not audit_sampler(lambda n, rng: g.sample(n, rng), g, budget=20_000, rng=s, false_alarm=0.05).passed
                for s in range(60))
    assert fails <= 8


def test_discrete_cells_hold_all_the_mass_and_at_least_five_expected():
    from smoothsens_core.distributions import TwoSidedGeometric
    from verify.audit.blackbox.sampler import _discrete_cells
    for g, m in ((TwoSidedGeometric(0.7, loc=2), 100_000), (TwoSidedGeometric(3.0), 1000)):
        rights, p = _discrete_cells(g, m)
        assert abs(float(np.sum(p)) - 1.0) < 1e-12
        assert np.all(p * m >= 5.0) and np.all(np.diff(rights) > 0)


def test_audit_sampler_gaussian_family():
    from smoothsens_core.distributions import Gaussian
    G = Gaussian(1.0, 2.0)
    assert audit_sampler(lambda n, rng: G.sample(n, rng), G, budget=N, rng=0).passed
    assert not audit_sampler(lambda n, rng: 1.0 + 2.1 * rng.standard_normal(n), G, budget=N, rng=0).passed
