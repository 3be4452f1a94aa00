"""Black-box privacy audit of release(x, rng) (verify.audit.blackbox.audit_blackbox_mechanism).

Reference values: the planted Laplace mechanisms (tests/verify/planted_impls.py) release
x + b Z, Z ~ Lap(0, 1), for the 1-Lipschitz f(x) = x; their exact privacy loss at any pair is
sup_y |ln p_x(y) - ln p_x'(y)| = |x - x'|/b (004 Lemma 2.3), i.e. 1/b per unit distance: 1 for
the correct one (b = 1), 2 for the half-scale one (b = 1/2), both claiming eps = 1.
"""

from __future__ import annotations

import mpmath
import numpy as np
import planted_impls as P  # tests/verify is on sys.path (rootdir-less test folder)
import pytest
from scipy import stats

from verify.audit.blackbox import audit_blackbox_mechanism, clopper_pearson
from verify.audit.exact import HammingNeighbourhood

SEEDS = (0, 1, 2)
PAIRS = [(0.0, 0.5), (1.0, 2.0)]


def test_clopper_pearson_matches_scipy_exact_intervals_and_closed_forms():
    # one-sided bounds at level a are the ends of the two-sided exact interval at confidence 1 - 2a
    for k, n in ((0, 10), (3, 10), (10, 10), (517, 2000)):
        lo, hi = clopper_pearson(k, n, 0.025)
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert float(lo) == pytest.approx(ci.low, abs=1e-12)
        assert float(hi) == pytest.approx(ci.high, abs=1e-12)
    # closed forms at the ends: k = 0 -> upper 1 - a^(1/n); k = n -> lower a^(1/n)
    assert float(clopper_pearson(0, 20, 0.01)[1]) == pytest.approx(1 - 0.01 ** (1 / 20), rel=1e-12)
    assert float(clopper_pearson(20, 20, 0.01)[0]) == pytest.approx(0.01 ** (1 / 20), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_audit_mechanism_catches_half_noise_scale_with_both_bounds(seed):
    rep = audit_blackbox_mechanism(P.laplace_gp_half_scale.release, 1.0, pairs=PAIRS, rng=seed, budget=60_000)
    assert rep.violated and not rep.passed
    assert rep.eps_lower > 1.0  # certified at confidence 1 - 1e-3
    assert rep.eps_lower <= 2.0  # ... and below the true eps = 1/b = 2
    # exact side, from the density: 2 per unit distance at every pair (mpmath), and the exact auditor
    assert rep.exact["pairs_max"] == pytest.approx(2.0, rel=1e-9)
    for p in rep.pairs:
        assert float(p.eps_exact_mp) == pytest.approx(2.0, rel=1e-15)
        assert p.eps_lower <= p.eps_exact * (1 + 1e-12)
    assert rep.exact["audit"]["certified_violation"] is True
    assert "FAIL: claimed eps=1 refuted" in rep.summary()


@pytest.mark.parametrize("seed", SEEDS)
def test_audit_mechanism_catches_a_pure_black_box_without_density(seed):
    rep = audit_blackbox_mechanism(P.release_half_scale_blackbox, 1.0, pairs=[(0.0, 1.0)], rng=seed, budget=20_000)
    assert not rep.vectorised  # a scalar function: one draw per call
    assert rep.exact is None
    assert rep.violated and 1.0 < rep.eps_lower <= 2.0


@pytest.mark.parametrize("seed", SEEDS)
def test_audit_mechanism_passes_the_correct_laplace_mechanism(seed):
    rep = audit_blackbox_mechanism(P.laplace_gp.release, 1.0, pairs=PAIRS, rng=seed, budget=60_000)
    assert rep.passed and rep.eps_lower <= 1.0
    assert rep.exact["pairs_max"] == pytest.approx(1.0, rel=1e-9)
    assert rep.exact["audit"]["certified_violation"] is False
    # a useful lower bound, not a trivial one: within 0.2 of the truth at 60 000 draws per input
    assert rep.eps_lower > 0.8


@pytest.mark.parametrize("seed", SEEDS)
def test_audit_mechanism_passes_the_cores_smooth_sensitivity_mechanism(seed):
    mech = P.student_t_threshold_mechanism
    rep = audit_blackbox_mechanism(mech.release, mech.eps, pairs=[(0.0, 0.3), (0.2, 0.35)], rng=seed, budget=40_000)
    assert rep.vectorised and rep.passed, rep.summary()
    for p in rep.pairs:
        assert p.eps_exact is not None and p.eps_exact <= mech.eps * (1 + 1e-12)
        assert p.eps_lower <= p.eps_exact  # the statistical bound stays below the exact loss
    assert rep.exact["audit"]["certified_violation"] is False


def test_audit_mechanism_detects_shared_noise_and_falls_back_to_single_draws():
    """release adds ONE scalar noise to a whole array of inputs: the probe sees identical outputs,
    so the auditor draws one output per call (correct sampling), and the mechanism passes."""
    rep = audit_blackbox_mechanism(lambda x, rng: np.asarray(x, dtype=float) + rng.laplace(), 1.0, pairs=[(0.0, 1.0)],
                          rng=0, budget=10_000)
    assert not rep.vectorised and rep.passed


class Counting:
    """Counting query over datasets in {0,1}^k with Laplace(scale) noise: sensitivity 1 under the
    Hamming metric, so (1/scale)-DP; exact density p_D(y) = e^{-|y - sum D|/scale}/(2 scale)."""

    def __init__(self, eps: float, scale: float) -> None:
        self.eps, self.scale, self.delta, self.metric = eps, scale, 0.0, "hamming"

    def release(self, x, rng):
        s = np.sum(np.asarray(x, dtype=float), axis=-1)
        return s + self.scale * rng.laplace(size=np.shape(s))

    def log_density(self, x, y):
        s = np.sum(np.asarray(x, dtype=float), axis=-1)
        return -np.abs(np.asarray(y, dtype=float) - s) / self.scale - np.log(2 * self.scale)

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            s = mpmath.mpf(float(np.sum(np.asarray(x, dtype=float))))
            return -abs(mpmath.mpf(y) - s) / b - mpmath.log(2 * b)


def test_audit_mechanism_hamming_dp_with_the_exact_side():
    """eps = 1 claimed; scale 1 is 1-DP, scale 1/2 is 2-DP (exact loss 2 at every neighbouring pair)."""
    pairs = [((0, 1, 1), (1, 1, 1))]
    nb = HammingNeighbourhood((0.0, 1.0), 3)
    ok = audit_blackbox_mechanism(Counting(1.0, 1.0).release, 1.0, "hamming", pairs=pairs, rng=0, budget=40_000,
                         neighbourhood=nb)
    bad = audit_blackbox_mechanism(Counting(1.0, 0.5).release, 1.0, "hamming", pairs=pairs, rng=0, budget=40_000,
                          neighbourhood=nb)
    assert ok.passed and ok.pairs[0].dist == 1.0
    assert ok.exact["pairs_max"] == pytest.approx(1.0, rel=1e-9)
    assert ok.exact["audit"]["certified_violation"] is False
    assert bad.violated and 1.0 < bad.eps_lower <= 2.0
    assert float(bad.pairs[0].eps_exact_mp) == pytest.approx(2.0, rel=1e-15)
    assert bad.exact["audit"]["certified_violation"] is True


def test_audit_mechanism_exact_side_accepts_an_explicit_density():
    rep = audit_blackbox_mechanism(P.release_half_scale_blackbox, 1.0, pairs=[(0.0, 1.0)], rng=1, budget=4000,
                          density=P.laplace_gp_half_scale)
    assert rep.exact["pairs_max"] == pytest.approx(2.0, rel=1e-9)


def test_audit_mechanism_is_reproducible_from_the_seed():
    kw = dict(pairs=PAIRS, budget=10_000, density=False)
    a = audit_blackbox_mechanism(P.laplace_gp.release, 1.0, rng=5, **kw).to_json()
    b = audit_blackbox_mechanism(P.laplace_gp.release, 1.0, rng=5, **kw).to_json()
    c = audit_blackbox_mechanism(P.laplace_gp.release, 1.0, rng=6, **kw).to_json()
    for d in (a, b, c):
        d.pop("elapsed_s")
    assert a == b and a != c


@pytest.mark.parametrize(
    "kwargs, exc, msg",
    [(dict(pairs=[]), ValueError, "pairs must list at least one pair"),
     (dict(pairs=[(0.0, 0.0)]), ValueError, r"pairs\[0\] is not neighbouring under euclidean .*: distance 0 "),
     (dict(pairs=[(0.0, 3.0)], Lambda=1.0), ValueError,
      r"pairs\[0\] is not neighbouring under euclidean .*: distance 3 .*Lambda = 1\]"),
     (dict(pairs=[(0.0,)]), ValueError, r"pairs\[0\] must be a pair"),
     (dict(pairs=[(0.0, 1.0)], claimed_delta=1.0), ValueError, r"claimed_delta must be in \[0, 1\)"),
     (dict(pairs=[(0.0, 1.0)], false_alarm=0.0), ValueError, "false_alarm must be in"),
     (dict(pairs=[(0.0, 1.0)], density=3.0), TypeError, "density must expose log_density")],
)
def test_audit_mechanism_rejects_bad_input(kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        audit_blackbox_mechanism(P.laplace_gp.release, 1.0, budget=1000, **kwargs)


def test_audit_mechanism_rejects_bad_claims_and_signatures():
    with pytest.raises(ValueError, match="claimed_eps must be in"):
        audit_blackbox_mechanism(P.laplace_gp.release, -1.0, pairs=PAIRS)
    with pytest.raises(ValueError, match="metric must be one of"):
        audit_blackbox_mechanism(P.laplace_gp.release, 1.0, "chebyshev", pairs=PAIRS)
    with pytest.raises(TypeError, match=r"release must be callable as release\(x, rng\)"):
        audit_blackbox_mechanism(lambda x: x, 1.0, pairs=PAIRS)
    # a list output is no longer cut to one number: it is audited jointly (verify.audit.blackbox.shaped)
    rep = audit_blackbox_mechanism(lambda x, rng: [rng.random(), rng.random()], 1.0, pairs=[(0.0, 1.0)], budget=1000)
    assert rep.output_shape == "vector" and rep.passed


def test_audit_mechanism_reports_a_release_that_fails_during_sampling():
    def flaky(x, rng):
        x = np.asarray(x, dtype=float)
        if x.size > 64:
            raise MemoryError("too many inputs at once")
        return x + rng.laplace(size=x.shape)

    with pytest.raises(ValueError, match="release raised MemoryError at x=0.0: too many inputs at once"):
        audit_blackbox_mechanism(flaky, 1.0, pairs=[(0.0, 1.0)], budget=1000)

    def nan_release(x, rng):
        x = np.asarray(x, dtype=float)
        return np.where(x > 0.5, np.nan, x + rng.laplace(size=x.shape))

    with pytest.raises(ValueError, match=r"release returned a non-finite value at pair 0"):
        audit_blackbox_mechanism(nan_release, 1.0, pairs=[(0.0, 1.0)], budget=1000)


def test_exact_certificate_fails_the_audit_even_when_sampling_passes():
    # Laplace scale 0.97 claimed 1-GP: at 20000 draws the sampling bound stays below 1, the exact side
    # certifies loss - eps d = 2 (1/0.97 - 1) in mpmath at d = 2: the report must be violated, not passed.
    rep = audit_blackbox_mechanism(P.laplace_gp_scale_97pct.release, 1.0, pairs=[(0.0, 2.0)], rng=0, budget=20_000)
    assert not rep.sampling_violated
    assert rep.exact_outcome == "violated" and rep.violated and not rep.passed and rep.outcome == "violated"
    assert "certified violation" in rep.exact_certificate
    assert rep.verdict_text().startswith("FAIL") and "exact side" in rep.verdict_text()
    # without an mpmath density the same excess is inconclusive: neither passed nor violated
    rep = audit_blackbox_mechanism(P.laplace_gp_scale_97pct_float_only.release, 1.0, pairs=[(0.0, 2.0)], rng=0,
                                   budget=20_000)
    assert rep.outcome == "inconclusive" and rep.inconclusive and not rep.passed and not rep.violated
    assert rep.verdict_text().startswith("INCONCLUSIVE")


# ---- power of the pure-eps lower bound (>= 0.95 x the true eps at the default budget) --------
# Reference: x + Lap(0, 1) at the pair (0, 1) has true eps = 1 (004 Lemma 2.3); the discrete Laplace of
# scale 20 (P(k) ~ exp(-|k - x|/20), 003 App. A) at the pair (0, 20) has true eps = 20/20 = 1, i.e.
# 1/20 per unit distance.  A claim of eps/2 is wrong; the bound must reach 0.95 x the true eps.

def _laplace_vec(x, rng):
    x = np.asarray(x, dtype=float)
    return x + rng.laplace(0.0, 1.0, size=x.shape)


def _discrete_laplace_vec(x, rng):
    from smoothsens_core.distributions import TwoSidedGeometric
    x = np.asarray(x, dtype=float)
    return np.round(x) + TwoSidedGeometric(1.0, sensitivity=20.0).sample(x.size, rng).reshape(x.shape)


@pytest.mark.parametrize("release, pair", [(_laplace_vec, (0.0, 1.0)), (_discrete_laplace_vec, (0.0, 20.0))],
                         ids=["laplace", "discrete-laplace"])
def test_audit_mechanism_pure_eps_bound_reaches_095_of_the_true_eps_at_the_default_budget(release, pair):
    from verify.cli.commands.audit_libraries import DEFAULT_BUDGET
    d = pair[1] - pair[0]
    true_eps = 1.0 / d  # per unit distance
    for budget in (DEFAULT_BUDGET, None):  # the table's budget and the function's own default (200 000)
        kw = {} if budget is None else {"budget": budget}
        wrong = audit_blackbox_mechanism(release, true_eps / 2, pairs=[pair], rng=0, density=False, Lambda=d, **kw)
        assert wrong.violated and wrong.eps_lower > true_eps / 2
        assert 0.95 * true_eps <= wrong.eps_lower <= true_eps, wrong.summary()
        # integer outputs are drawn in batches and counted as histograms: the vectorised path
        assert wrong.vectorised and wrong.discrete == (release is _discrete_laplace_vec)
    right = audit_blackbox_mechanism(release, true_eps, pairs=[pair], rng=0, density=False, Lambda=d,
                                     budget=DEFAULT_BUDGET)
    assert right.passed and right.eps_lower <= true_eps, right.summary()


def test_audit_mechanism_pure_eps_bound_at_40000_draws_reaches_095_for_laplace():
    """The joint exact test inverted in eps adds the two relative errors in quadrature (two
    Clopper-Pearson bounds add them): at 40 000 draws per input the bound reaches 0.95 on seeds 0-2."""
    for seed in (0, 1, 2):
        rep = audit_blackbox_mechanism(_laplace_vec, 0.5, pairs=[(0.0, 1.0)], rng=seed, density=False, budget=40_000)
        assert 0.95 <= rep.eps_lower <= 1.0, rep.summary()


def test_audit_mechanism_discrete_events_are_true_tails_and_not_overfitted_ratio_sets():
    # the chosen eps event of the discrete Laplace is a tail {y <= t} or {y > t} of all integers (values
    # unseen in the selection draws included), not a set of points chosen for their empirical ratio
    for seed in (1, 4):
        rep = audit_blackbox_mechanism(_discrete_laplace_vec, 0.5 / 20, pairs=[(0.0, 20.0)], rng=seed,
                                       density=False, Lambda=20.0, budget=40_000)
        ev = rep.pairs[0].event
        assert ev.startswith("y <= ") or ev.startswith("y > "), ev
        assert rep.eps_lower * 20 >= 0.9


def test_audit_mechanism_eps_bound_holds_its_false_alarm_rate():
    """A correct claim (eps = true eps) is refuted by the sampling bound at most ~false_alarm of the
    time: false_alarm = 0.1 over 40 seeds, Binomial(40, 0.1): P(>= 10) < 0.003; and the bound never
    exceeds the true eps at the default false-alarm 1e-3."""
    fails = 0
    for seed in range(40):
        rep = audit_blackbox_mechanism(_laplace_vec, 1.0, pairs=[(0.0, 1.0)], rng=seed, density=False,
                                       budget=4000, false_alarm=0.1)
        fails += rep.eps_lower > 1.0
    assert fails <= 9
    for seed in range(5):
        rep = audit_blackbox_mechanism(_discrete_laplace_vec, 1.0 / 20, pairs=[(0.0, 20.0)], rng=seed,
                                       density=False, Lambda=20.0, budget=20_000)
        assert rep.passed and rep.eps_lower <= 1.0 / 20
