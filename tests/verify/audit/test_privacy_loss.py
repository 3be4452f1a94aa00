"""Unit tests of the exact auditor (verify.audit.exact): losses, abstract and concrete searches,
hockey-stick divergence, outcomes (pass / violated / inconclusive), errors."""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from smoothsens_core import calibration as cal
from smoothsens_core.distributions import GenCauchy, Laplace, PolyPlace, StudentT
from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.audit.exact import (
    AuditResult,
    EuclideanNeighbourhood,
    HammingNeighbourhood,
    OrderedNeighbourhood,
    abstract_loss,
    abstract_loss_mp,
    audit_density_mechanism,
    audit_finite,
    audit_smooth_mechanism,
    check_has_density,
    hockey_stick,
    hockey_stick_mp,
    interval_mass,
    privacy_loss,
    privacy_loss_mp,
    search_distance,
)
from verify.claims.from_audits import claim_result_from_audits
from verify.reference.distributions import reference_for


def _abstract(noise, eta, growth, eps, **kw):
    """An abstract SmoothSensitivityMechanism with the given parameters (test construction)."""
    return SmoothSensitivityMechanism(noise=noise, eta=eta, growth=growth, eps=eps, **kw)


# ---- the float side uses the core noise object, the mpmath side its reference ------------------


@pytest.mark.parametrize("noise", [Laplace(), StudentT(3.0), GenCauchy(4.0, 1.0), PolyPlace(1.0, 2.5)], ids=repr)
def test_interval_mass_float_matches_reference(noise):
    # Reference: verify.reference.distributions (mpmath, 30 digits), tails included.
    lo = np.array([-np.inf, -3.0, -0.3, 0.2, 7.0, -50.0])
    hi = np.array([-2.0, 0.1, 0.35, 0.9, np.inf, 40.0])
    got = interval_mass(noise, lo, hi)
    ref = reference_for(noise)
    with mpmath.workdps(30):
        want = [float(ref.interval_mass(mpmath.mpf(a), mpmath.mpf(b))) for a, b in zip(lo, hi)]
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-300)


# ---- abstract smooth-sensitivity mechanisms ------------------------------------------------------


def test_abstract_loss_matches_direct_density_ratio():
    # Reference: ln of the ratio of the two location-scale densities, written out with scipy.
    spec = _abstract(StudentT(4.0), 0.48, growth_exp(0.1), 1.0)
    r, shift, y = 0.07, 0.3, np.array([-3.0, 0.0, 0.4, 12.0])
    got = abstract_loss(spec, np.full(4, r), np.full((4, 1), shift), y)
    b, b2 = math.exp(r) / 0.48, 1 / 0.48
    ref = stats.t.logpdf((y - shift) / b, 4) - math.log(b) - stats.t.logpdf(y / b2, 4) + math.log(b2)
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    with mpmath.workdps(40):
        mp_val = abstract_loss_mp(spec, r, [shift], [12.0])
    assert float(mp_val) == pytest.approx(ref[-1], rel=1e-13)


def test_abstract_audit_rejects_bad_input():
    spec = _abstract(Laplace(), 1.0, growth_exp(0.1), 1.0)
    with pytest.raises(ValueError, match="mode must be"):
        audit_smooth_mechanism(spec, rng=np.random.default_rng(0), mode="fast")
    with pytest.raises(ValueError, match="needs the growth function"):
        audit_smooth_mechanism(dataclasses.replace(spec, growth=None), rng=np.random.default_rng(0))
    with pytest.raises(TypeError, match="needs a smoothsens_core.mechanism.SmoothSensitivityMechanism"):
        audit_smooth_mechanism(object(), rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="supports m = 1 output"):
        audit_smooth_mechanism(dataclasses.replace(spec, growth=growth_linear(0.1), delta=0.1, m=2),
                               rng=np.random.default_rng(0))


def test_search_distance_of_the_abstract_mechanism():
    # 1 for DP; min(Lambda, 8/eps) for pure GP; min(Lambda, 256/eps) for (eps, delta) GP.
    m = _abstract(Laplace(), 1.0, growth_exp(0.1), 2.0)
    assert search_distance(m) == 4.0
    assert search_distance(dataclasses.replace(m, Lambda=1.5)) == 1.5
    assert search_distance(dataclasses.replace(m, metric="hamming")) == 1.0
    assert search_distance(dataclasses.replace(m, growth=growth_linear(0.1), delta=1e-3)) == 128.0


def test_student_t_bound_is_approached_but_not_exceeded():
    # 004 Lemma 3.5 with nu=4, gamma=0.1, eps=1: eta = 0.6 * 4/5 = 0.48.  The supremum of the loss
    # per unit distance is approached as d -> 0, so the slack found is slightly negative.
    spec = _abstract(StudentT(4.0), 0.48, growth_exp(0.1), 1.0)
    res = audit_smooth_mechanism(spec, rng=np.random.default_rng(3), n_random=3000, n_local=3)
    assert not res.certified and res.outcome == "pass" and res.passed
    assert -1e-2 < res.max_slack <= 1e-12


def test_float_noise_is_not_certified_polyplace_tight_bound():
    # 002 Lemma 9 is attained: the float search finds slack ~ +1e-14 (rounding of alpha = eps/gamma
    # and gamma = 0.2 in binary64).  mpmath re-evaluation must not report it as a violation.
    spec = _abstract(PolyPlace(1.0, 1.0 / 0.2), 0.2, growth_exp(0.2), 1.0, metric="hamming")
    res = audit_smooth_mechanism(spec, rng=np.random.default_rng(5), n_random=3000, n_local=4)
    assert not res.certified and res.outcome == "pass"
    assert abs(res.max_slack) < 1e-9


def test_certified_witness_is_a_valid_two_point_instance():
    # Overspent Student t (eta = 0.8 instead of 0.48): the witness must satisfy 004 Def. 8 exactly
    # and its mpmath loss must exceed eps * d.
    spec = _abstract(StudentT(4.0), 0.8, growth_exp(0.1), 1.0)
    res = audit_smooth_mechanism(spec, rng=np.random.default_rng(1), n_random=3000, n_local=3)
    assert res.certified and res.violated and res.outcome == "violated" and not res.passed
    w = res.witness
    with mpmath.workdps(50):
        d = mpmath.mpf(w["dist"])
        B = mpmath.mpf(w["B(x)"])
        shift = mpmath.mpf(w["f(x)"][0])
        assert abs(mpmath.log(B)) <= mpmath.mpf(0.1) * d * (1 + mpmath.mpf(10) ** -15)
        assert abs(shift) <= min(B, 1) * d * (1 + mpmath.mpf(10) ** -15)
        assert mpmath.mpf(w["loss_mp"]) > d  # eps = 1
    assert float(res.certified_slack) > 0.05


# ---- (eps, delta): hockey-stick divergence ----------------------------------------------------


def _positive_part_integral(g, kinks):
    """Reference integral of max(g, 0) over R in mpmath: sign changes of g located on a dense grid
    (independent of the auditor's grid) and refined by bisection (mpmath.findroot, anderson), then
    quadrature of g over the pieces where it is positive (break points: kinks and roots)."""
    grid = sorted(set(mpmath.linspace(-60, 60, 1201)) | {mpmath.mpf(k) for k in kinks})
    vals = [g(y) for y in grid]
    pts = [mpmath.mpf(k) for k in kinks]
    for (y0, v0), (y1, v1) in zip(zip(grid, vals), zip(grid[1:], vals[1:])):
        if (v0 > 0) != (v1 > 0):
            pts.append(mpmath.findroot(g, (y0, y1), solver="anderson"))
    pts = sorted(set(pts))
    edges = [-mpmath.inf] + pts + [mpmath.inf]
    total = mpmath.mpf(0)
    for lo, hi in zip(edges, edges[1:]):
        mid = (lo + hi) / 2 if mpmath.isfinite(lo) and mpmath.isfinite(hi) else (
            hi - 1 if mpmath.isfinite(hi) else (lo + 1 if mpmath.isfinite(lo) else 0))
        if g(mid) > 0:
            total += mpmath.quad(g, [lo, hi])
    return total


def test_hockey_stick_matches_mpmath_quadrature():
    # Reference: mpmath quadrature (30 digits) of (p - e^t p')_+ with the kinks as break points.
    noise = Laplace()
    fam = reference_for(noise)
    a, b, a2, b2, t = 0.3, 1.2, 0.0, 1.0, 0.25
    hs, bad = hockey_stick(noise, a, b, a2, b2, t)
    with mpmath.workdps(30):
        def p(y):
            return mpmath.exp(fam.logpdf((y - a) / b)) / b

        def q(y):
            return mpmath.exp(fam.logpdf((y - a2) / b2)) / b2

        ref = _positive_part_integral(lambda y: p(y) - mpmath.exp(t) * q(y), [a2, a])
    assert hs == pytest.approx(float(ref), rel=1e-9)
    assert bad >= hs


@pytest.mark.parametrize("noise", [StudentT(3.0), GenCauchy(4.0, 1.0), PolyPlace(1.0, 2.5)], ids=repr)
def test_hockey_stick_other_families_match_quadrature(noise):
    # Reference: quadrature of the noise's mpmath reference density (verify.reference.distributions).
    fam = reference_for(noise)
    a, b, a2, b2, t = -0.4, 0.8, 0.0, 1.0, 0.1
    hs, _ = hockey_stick(noise, a, b, a2, b2, t)
    with mpmath.workdps(30):
        def g(y):
            return (mpmath.exp(fam.logpdf((y - a) / b)) / b
                    - mpmath.exp(t) * mpmath.exp(fam.logpdf((y - a2) / b2)) / b2)

        kinks = sorted({a + b * k for k in (0.0, *fam.kinks())} | {a2 + b2 * k for k in (0.0, *fam.kinks())})
        ref = _positive_part_integral(g, kinks)
    assert hs == pytest.approx(float(ref), rel=1e-9, abs=1e-14)


def test_hockey_stick_mp_of_explicit_set():
    # P[a+bZ in S] - e^t P[a2+b2 Z in S] for S = (0, inf) with Laplace: closed form
    # (1 - F((0-a)/b)) - e^t (1 - F(0)) with F the Laplace CDF.
    v = hockey_stick_mp(Laplace(), 0.5, 1.0, 0.0, 1.0, 0.1, [(0.0, math.inf)], dps=30)
    ref = (1 - 0.5 * math.exp(-0.5)) - math.exp(0.1) * 0.5
    assert float(v) == pytest.approx(ref, rel=1e-14)


def test_laplace_approx_calibrated_is_not_refuted_but_overspent_is():
    # 004 Lemma 3.6: eta = eps - gamma ln(1/delta).
    eps, delta, gamma = 1.0, 1e-3, 0.05
    ok = _abstract(Laplace(), eps - gamma * math.log(1 / delta), growth_linear(gamma), eps, delta=delta)
    bad = _abstract(Laplace(), eps, growth_linear(gamma), eps, delta=delta)
    r_ok = audit_smooth_mechanism(ok, rng=np.random.default_rng(0), n_random=1500, n_local=2)
    r_bad = audit_smooth_mechanism(bad, rng=np.random.default_rng(0), n_random=1500, n_local=2)
    assert r_ok.mode == "approx" and not r_ok.certified and r_ok.max_slack < 0
    assert r_bad.certified and float(r_bad.certified_slack) > 0.01
    # The certifying set S is part of the evidence and reproduces the violation in mpmath.
    w = r_bad.witness
    v = hockey_stick_mp(Laplace(), w["shift"], math.exp(w["log_B_ratio"]) / eps, 0.0, 1 / eps,
                        eps * w["dist"], [tuple(s) for s in w["S"]], dps=40)
    assert v > delta


# ---- concrete mechanisms ----------------------------------------------------------------------


def _square_smooth_bound(x, gamma, Lam):
    """g_E smooth sensitivity of f(x) = x^2 with Lambda-local Lipschitz constant L(z) = 2|z| + Lam
    (004 Def. 9, derived by hand): B*(x) = sup_z (2|z| + Lam) e^(-gamma |x - z|); the sup is at
    |z| = |x| + t*, t* = 1/gamma - (2|x| + Lam)/2, when t* > 0 (value (2/gamma) e^(-gamma t*)),
    else at z = x (value 2|x| + Lam)."""
    ax = np.abs(np.asarray(x, dtype=float))
    t = 1 / gamma - (2 * ax + Lam) / 2
    return np.where(t > 0, (2 / gamma) * np.exp(-gamma * np.maximum(t, 0)), 2 * ax + Lam)


def test_square_smooth_bound_matches_brute_force():
    # Reference: the sup of 004 Def. 9 over a fine grid of z.
    z = np.linspace(-60, 60, 600001)
    for x in (-3.0, 0.0, 0.7, 12.0):
        brute = np.max((2 * np.abs(z) + 1.0) * np.exp(-0.1 * np.abs(x - z)))
        assert float(_square_smooth_bound(x, 0.1, 1.0)) == pytest.approx(brute, rel=1e-8)


def test_concrete_student_t_square_query_not_refuted_and_pointwise_bound_refuted():
    gamma, nu, eps, Lam = 0.1, 4.0, 1.0, 1.0
    eta = (eps - nu * gamma) * 2 * math.sqrt(nu) / (nu + 1)  # 004 Lemma 3.5
    good = SmoothSensitivityMechanism(f=lambda x: np.asarray(x) ** 2,
                                      B=lambda x: _square_smooth_bound(x, gamma, Lam),
                                      noise=StudentT(nu), eta=eta, eps=eps)
    nb = EuclideanNeighbourhood(-20.0, 20.0, 1, Lambda=Lam)
    res = audit_density_mechanism(good, nb, rng=np.random.default_rng(2), n_pairs=1500, n_local=3)
    assert res.passed and res.max_slack <= 1e-9
    # Planted: the pointwise Lipschitz constant L(x) = 2|x| + Lambda used as B (not smooth).
    bad = SmoothSensitivityMechanism(f=lambda x: np.asarray(x) ** 2, B=lambda x: 2 * np.abs(x) + Lam,
                                     noise=StudentT(nu), eta=eta, eps=eps)
    res = audit_density_mechanism(bad, nb, rng=np.random.default_rng(2), n_pairs=1500, n_local=3)
    assert res.certified
    x, xp, y = res.witness["x"][0], res.witness["x_prime"][0], res.witness["y"]
    assert abs(x - xp) <= Lam
    L = privacy_loss_mp(bad, x, xp, y, dps=40)
    assert L > abs(mpmath.mpf(x) - mpmath.mpf(xp)) * eps


def test_hamming_brute_force_counting_query():
    # Sum of n = 4 bits, B = 1 (global sensitivity, a valid smooth bound for any gamma), Laplace
    # noise of scale 1/eta: eps-DP iff eta <= eps.
    nb = HammingNeighbourhood((0.0, 1.0), 4)
    f = lambda X: np.sum(np.atleast_2d(X), axis=-1)  # noqa: E731
    B = lambda X: np.ones(np.atleast_2d(X).shape[0])  # noqa: E731
    good = SmoothSensitivityMechanism(f=f, B=B, noise=Laplace(), eta=0.7, eps=0.7, metric="hamming")
    res = audit_density_mechanism(good, nb, rng=np.random.default_rng(0))
    # The bound is attained (slack 0).  The float search reaches |y| ~ 5e12 where the core's
    # ln p_x(y) = -|y - f(x)| eta - ln(2/eta) cancels ~12 digits (float slack ~2e-4 there); the
    # witness re-evaluated in mpmath (40 digits, reference density) has no excess: a pass.
    assert res.passed and res.certified_slack is None
    w = res.witness
    with mpmath.workdps(40):
        slack_mp = privacy_loss_mp(good, np.array(w["x"]), np.array(w["x_prime"]), w["y"], dps=40) - mpmath.mpf(0.7)
    assert slack_mp <= 1e-12
    bad = SmoothSensitivityMechanism(f=f, B=B, noise=Laplace(), eta=1.4, eps=0.7, metric="hamming")
    res = audit_density_mechanism(bad, nb, rng=np.random.default_rng(0))
    assert res.certified and float(res.certified_slack) == pytest.approx(0.7, rel=1e-6)


class _TwoSidedGeometricCount:
    """Count of records with p True plus two-sided geometric noise: Pr[K = k] ∝ e^(-rate |k|)
    (pmf (1 - e^-rate)/(1 + e^-rate) e^(-rate |k|)); eps-DP for rate <= eps (sensitivity 1)."""

    metric = "p-neighbouring"
    delta = 0.0

    def __init__(self, rate, eps, policy):
        self.rate, self.eps, self.policy = rate, eps, policy

    def _count(self, X):
        return sum(1 for v in X if self.policy(v))

    def log_density(self, X, z):
        c = self._count(X)
        a = self.rate
        return math.log((1 - math.exp(-a)) / (1 + math.exp(-a))) - a * np.abs(np.asarray(z, dtype=float) - c)

    def log_density_mp(self, X, z, dps):
        with mpmath.workdps(dps):
            a = mpmath.mpf(self.rate)
            return mpmath.log((1 - mpmath.exp(-a)) / (1 + mpmath.exp(-a))) - a * abs(mpmath.mpf(z) - self._count(X))

    def release(self, X, rng):  # pragma: no cover - not needed by the auditor
        raise NotImplementedError


def test_ordered_p_neighbouring_pairs_and_finite_audit():
    policy = lambda v: v >= 2  # noqa: E731 - p(x): "x is sensitive"
    rel = OrderedNeighbourhood.p_neighbouring(policy)
    assert rel((0, 1), (0, 3)) and not rel((0, 3), (0, 1))  # asymmetric (003 Def. IV.1, corrected)
    assert not rel((0, 3), (1, 1))  # two records differ
    import itertools

    cands = tuple(itertools.product((0, 1, 2, 3), repeat=2))
    pairs = OrderedNeighbourhood(cands, rel).pairs()
    assert pairs and all(rel(a, b) for a, b in pairs)
    good = _TwoSidedGeometricCount(0.5, 0.5, policy)
    res = audit_finite(good, pairs, range(-10, 13))
    assert not res.certified and res.max_slack == pytest.approx(0.0, abs=1e-12)
    bad = _TwoSidedGeometricCount(0.9, 0.5, policy)
    res = audit_finite(bad, pairs, range(-10, 13))
    assert res.certified and float(res.certified_slack) == pytest.approx(0.4, rel=1e-9)


def test_auditor_rejects_bad_input():
    with pytest.raises(TypeError, match="has no log_density"):
        check_has_density(object())

    class NoEps:
        def log_density(self, x, y):
            return 0.0

    with pytest.raises(TypeError, match="has no claimed eps"):
        check_has_density(NoEps())
    m = _TwoSidedGeometricCount(0.5, 0.5, lambda v: v > 0)
    m.eps = 0.0
    with pytest.raises(ValueError, match=r"eps must be in \(0, inf\)"):
        privacy_loss(m, (1,), (0,), [0])
    m.eps = 0.5
    with pytest.raises(ValueError, match="outputs must be a non-empty"):
        audit_finite(m, [((1,), (0,))], [])
    with pytest.raises(ValueError, match="universe must have at least 2"):
        HammingNeighbourhood((0.0,), 3)
    with pytest.raises(ValueError, match="must be <= 20000"):
        HammingNeighbourhood(tuple(range(10)), 6)
    with pytest.raises(ValueError, match="high must be > low"):
        EuclideanNeighbourhood(1.0, 0.0)
    with pytest.raises(TypeError, match="neighbourhood must be Euclidean or Hamming"):
        audit_density_mechanism(m, object(), rng=np.random.default_rng(0))

    class NoMp:
        eps, delta, metric = 0.5, 0.0, "hamming"

        def log_density(self, X, z):
            return -2.0 * np.abs(np.asarray(z, dtype=float) - sum(X))

    res = audit_finite(NoMp(), [((1,), (0,))], range(-3, 4))
    assert not res.certified and any("cannot certify" in n for n in res.notes)
    # eps-DP with rate 2 > eps = 0.5: an excess found in float, not certifiable without log_density_mp
    assert res.outcome == "inconclusive" and not res.passed and not res.violated


def test_audit_finite_certifies_asymmetric_mechanisms_in_mpmath():
    # 003 Def. IV.2: ALap, AGeo and SALap are eps-ADP on p-neighbouring pairs (exact max loss = eps,
    # slack 0 up to rounding, nothing certified), while the reversed, non-p-neighbouring pairs have
    # infinite loss, which audit_finite now certifies with the mpmath log-densities of
    # verify.reference.mechanisms (the core imports no mpmath).
    import itertools

    from smoothsens_core.asymmetric import BOTTOM, AGeo, ALap, CountingQuery, NeighbourRelation, SALap

    c = np.array([[False, True, False], [False, False, True]])  # two counting queries over 3 records
    q = CountingQuery(c)
    # the composed relation of the per-location policies p_i = not c_i (003 Thm. VIII.6): a record may
    # only be replaced by one visiting a subset of its locations, so both counts decrease, Delta_p = 1
    R = NeighbourRelation.intersection([NeighbourRelation.from_policy(~ci) for ci in c])
    datasets = [np.array(t) for t in itertools.product(range(3), repeat=2)]
    nb = [(X, Xp) for X, Xp in itertools.product(datasets, repeat=2)
          if R.allowed[X, Xp].sum() == 1 and (X != Xp).sum() == 1]
    rev = [(Xp, X) for X, Xp in nb if not (R.allowed[Xp, X].sum() == 1)]
    assert nb and rev
    grid = [np.array(z) for z in itertools.product(np.arange(-0.75, 3.0, 0.5), repeat=2)]
    ints = [np.array(z, dtype=float) for z in itertools.product(range(3), repeat=2)]
    sal_out = [np.array([BOTTOM, BOTTOM]), *[np.array([BOTTOM, z]) for z in (1.5, 2.25)],
               *[np.array([z, np.nan]) for z in (1.5, 2.25)]]
    mechs = [(ALap(q, R, 0.7), grid), (AGeo(q, R, 0.7, n=2), ints), (SALap(q, R, 0.7, thresholds=[1.0, 1.0]), sal_out)]
    for mech, outs in mechs:
        good = audit_finite(mech, nb, outs)
        assert not good.certified and good.max_slack <= 1e-9, (type(mech).__name__, good.summary())
        bad = audit_finite(mech, rev, outs)
        assert bad.certified and bad.certified_slack is not None, (type(mech).__name__, bad.summary())
        # the certificate is an mpmath evaluation, not the float one: the loss is +inf (p_X' = 0)
        assert float(bad.certified_slack) == math.inf or float(bad.certified_slack) > 0


# ---- outcomes: an excess that cannot be certified is inconclusive, never a pass ------------------


class _LaplaceShift:
    """M(x) = x + b Z, Z ~ Lap(0, 1), claimed eps-GP; float log-density only (no log_density_mp and
    no reference in verify.reference.mechanisms).  With b = 0.97 and eps = 1 the loss at distance d
    reaches d/0.97 > eps d (004 Lemma 2.3 with K = 1 needs b >= 1/eps)."""

    delta, metric, name = 0.0, "euclidean", "Laplace-shift-float-only"

    def __init__(self, scale, eps):
        self.scale, self.eps = scale, eps

    def log_density(self, x, y):
        x = np.asarray(x, dtype=float).reshape(-1)
        return -np.abs(np.asarray(y, dtype=float) - x) / self.scale - math.log(2 * self.scale)


class _LaplaceShiftWithReference(_LaplaceShift):
    """The same with its mpmath log-density (a MechanismWithReference): -|y - x|/b - ln(2b)."""

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            return -abs(mpmath.mpf(y) - mpmath.mpf(float(np.asarray(x).reshape(-1)[0]))) / b - mpmath.log(2 * b)


def test_float_only_excess_is_inconclusive_not_a_pass():
    nb = EuclideanNeighbourhood(0.0, 2.0, 1)
    res = audit_density_mechanism(_LaplaceShift(0.97, 1.0), nb, rng=np.random.default_rng(0), n_pairs=300, n_local=2)
    assert res.max_slack > 0.05  # 2 (1/0.97 - 1) = 0.0619 at d = 2
    assert res.outcome == "inconclusive" and res.inconclusive
    assert not res.violated and not res.passed and res.certified_slack is None
    assert res.summary().startswith("INCONCLUSIVE") and "cannot certify" in res.summary()
    assert res.to_json()["outcome"] == "inconclusive"
    # With an mpmath log-density the same excess is a certified violation (2 (1/0.97 - 1), 50 digits).
    res = audit_density_mechanism(_LaplaceShiftWithReference(0.97, 1.0), nb, rng=np.random.default_rng(0),
                                  n_pairs=300, n_local=2)
    assert res.violated and not res.passed
    # sup over pairs in [0, 2] of d/0.97 - d is 2 (1/0.97 - 1) = 0.06186, at d = 2
    assert 0.05 < float(res.certified_slack) <= 2 * (1 / 0.97 - 1) + 1e-12
    # A correct float-only mechanism passes: no excess to certify.
    res = audit_density_mechanism(_LaplaceShift(1.0, 1.0), nb, rng=np.random.default_rng(0), n_pairs=300, n_local=2)
    assert res.passed and res.outcome == "pass"


def test_audit_result_outcome_is_checked():
    kw = dict(mechanism="m", eps=1.0, delta=0.0, max_slack=0.1, witness={}, evaluations=1, dps=50)
    with pytest.raises(ValueError, match="outcome must be one of"):
        AuditResult(outcome="unsure", certified_slack=None, **kw)
    with pytest.raises(ValueError, match="certified_slack must be given exactly when outcome='violated'"):
        AuditResult(outcome="violated", certified_slack=None, **kw)
    with pytest.raises(ValueError, match="certified_slack must be given exactly when outcome='violated'"):
        AuditResult(outcome="pass", certified_slack="0.1", **kw)
    assert AuditResult.decide(True, -1.0, True) == "violated"
    assert AuditResult.decide(False, 1e-3, False) == "inconclusive"  # excess, never re-evaluated in mpmath
    assert AuditResult.decide(False, 1e-3, True) == "pass"  # excess re-evaluated: rounding, not confirmed
    assert AuditResult.decide(False, 1e-12, False) == "pass"  # below FLOAT_EXCESS_TOL


class _LaplaceWithoutReference(Laplace):
    """The core's Laplace under another class: verify.reference has no reference for it (exact class
    match), so nothing it produces can be certified."""


def test_claim_bridge_reads_an_uncertifiable_excess_as_inconclusive():
    from verify.claims import CheckContext, Verdict

    # Fault: Student-t-style overspend on Laplace noise with g_E: eta = eps spends nothing on gamma.
    mech = _abstract(_LaplaceWithoutReference(), 1.0, growth_exp(0.3), 1.0, name="no reference")
    res = claim_result_from_audits([mech], CheckContext(seed=1, budget=0.1), "bridge")
    assert res.verdict is Verdict.INCONCLUSIVE, res.summary
    assert "INCONCLUSIVE" in res.summary and "no mpmath reference" in res.summary
    good = cal.calibrate_laplace_approx(1.0, 1e-3, 0.05).mechanism()
    assert claim_result_from_audits([good], CheckContext(seed=1, budget=0.1), "bridge").verdict is Verdict.VERIFIED
    bad = dataclasses.replace(good, eta=1.0)  # fault: eta = eps (004 Lemma 3.6 needs eps - gamma ln(1/delta))
    assert claim_result_from_audits([bad], CheckContext(seed=1, budget=0.1), "bridge").verdict is Verdict.REFUTED
