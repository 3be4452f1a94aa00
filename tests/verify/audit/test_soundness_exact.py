"""Soundness of the exact auditor on anyone's mechanism: non-finite losses, disagreeing mpmath densities,
multi-output laws, and the certified hockey-stick enclosure that decides (eps, delta) claims.

Every reference number says how it was obtained; the closed forms are evaluated in mpmath at 50 digits.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core.distributions import Gaussian, GenCauchy, Laplace, StudentT
from verify.audit.exact import (
    AdditiveNoiseMechanism,
    EuclideanNeighbourhood,
    HammingNeighbourhood,
    audit_density_mechanism,
    bad_set,
    gaussian_delta_balle_wang,
    hockey_stick,
)
from verify.audit.exact.enclosure import Enclosure, ball_law, hockey_stick_enclosure
from verify.pytest_plugin import assert_private
from verify.reference.distributions import reference_for

NB = EuclideanNeighbourhood(0.0, 1.0, 1, 1.0)


def _x(x, y):
    """The input x broadcast against the outputs y (a batch of inputs, one per output, or one input)."""
    y = np.asarray(y, dtype=float)
    x = np.asarray(x, dtype=float).reshape(-1)
    return x.reshape(y.shape) if x.size == y.size else x[0]


class Uniform:
    """x + U(-1, 1): density 1/2 on [x - 1, x + 1], 0 elsewhere (support moves with x)."""

    metric, delta, eps, name = "euclidean", 0.0, 1.0, "x + U(-1, 1)"

    def log_density(self, x, y):
        y = np.asarray(y, dtype=float)
        return np.where(np.abs(y - _x(x, y)) <= 1, math.log(0.5), -np.inf)

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            inside = abs(mpmath.mpf(y) - mpmath.mpf(float(np.atleast_1d(x)[0]))) <= 1
            return -mpmath.log(2) if inside else mpmath.mpf("-inf")


class LaplaceUser:
    """x + Laplace(scale): a user's own density (no noise/f structure), with an mpmath twin."""

    metric, delta, name = "euclidean", 0.0, "x + Laplace"

    def __init__(self, scale: float, eps: float = 1.0) -> None:
        self.scale, self.eps = scale, eps

    def log_density(self, x, y):
        y = np.asarray(y, dtype=float)
        return -np.abs(y - _x(x, y)) / self.scale - math.log(2 * self.scale)

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            return -abs(mpmath.mpf(y) - mpmath.mpf(float(np.atleast_1d(x)[0]))) / b - mpmath.log(2 * b)


# -- infinite and undefined losses ------------------------------------------------------------------------
def test_support_mismatch_is_a_certified_fail_with_an_output_set():
    # At 9e3679c: "no violation in 484000 evaluations" (the +inf loss was mapped to -inf).
    res = audit_density_mechanism(Uniform(), NB, rng=np.random.default_rng(1))
    assert res.violated and res.certified_slack == "+inf"
    w = res.witness
    assert w["log_p_prime_mp"] == "-inf" and float(w["log_p_mp"]) == pytest.approx(-math.log(2), rel=1e-15)
    lo, hi = w["output_set"]
    x, xp = w["x"][0], w["x_prime"][0]
    # the output set lies in the support of x and outside the support of x'
    assert abs(lo - x) <= 1 and abs(hi - x) <= 1 and min(abs(lo - xp), abs(hi - xp)) > 1
    assert w["mass_x_float"] > 0 and w["mass_x_prime"] == 0.0
    assert "support mismatch" in res.notes[0]


class PlusInfOnASet(LaplaceUser):
    """Laplace(1) except ln p_x(y) = +inf for y - x in [0.2, 0.3] (a density with a spike on a set)."""

    def log_density(self, x, y):
        y = np.asarray(y, dtype=float)
        d = y - _x(x, y)
        return np.where((d >= 0.2) & (d <= 0.3), np.inf, super().log_density(x, y))

    def log_density_mp(self, x, y, dps):
        d = float(y) - float(np.atleast_1d(x)[0])
        return mpmath.inf if 0.2 <= d <= 0.3 else super().log_density_mp(x, y, dps)


class NaNOnASet(LaplaceUser):
    """Laplace(1) except ln p_x(y) = NaN for y - x in [0.2, 0.3] (a broken density)."""

    def log_density(self, x, y):
        y = np.asarray(y, dtype=float)
        d = y - _x(x, y)
        return np.where((d >= 0.2) & (d <= 0.3), np.nan, super().log_density(x, y))


def test_plus_inf_log_density_on_a_set_is_not_a_pass():
    # At 9e3679c: pass (non-finite losses were mapped to -inf).
    res = audit_density_mechanism(PlusInfOnASet(1.0), NB, rng=np.random.default_rng(2))
    assert res.violated and res.certified_slack == "+inf"
    assert res.witness["log_p_mp"] == "+inf"


def test_nan_log_density_is_inconclusive_with_the_point():
    # At 9e3679c: pass.
    res = audit_density_mechanism(NaNOnASet(1.0), NB, rng=np.random.default_rng(3))
    assert res.inconclusive
    where = res.witness["undefined_at"]
    assert "nan" in where["log_p"] + where["log_p_prime"]
    assert any("undefined" in n and "never a pass" in n for n in res.notes)


def test_a_log_density_that_raises_is_a_value_error_naming_it():
    class Raises(LaplaceUser):
        def log_density(self, x, y):
            raise ZeroDivisionError("boom")

    with pytest.raises(ValueError, match=r"the mechanism's log_density\(x, y\) raised ZeroDivisionError: boom"):
        audit_density_mechanism(Raises(1.0), NB, rng=np.random.default_rng(0))


# -- float and mpmath must be the same function ---------------------------------------------------------
class ZeroMP(LaplaceUser):
    """Laplace(0.5) claimed eps = 1 (true eps 2), whose log_density_mp returns 0 everywhere."""

    def log_density_mp(self, x, y, dps):
        return mpmath.mpf(0)


def test_disagreeing_log_density_mp_is_inconclusive_with_both_numbers():
    # At 9e3679c: pass with "sup(loss - eps*d) found = 1" (the mpmath loss 0 "settled" the float excess).
    res = audit_density_mechanism(ZeroMP(0.5), NB, rng=np.random.default_rng(1))
    assert res.inconclusive
    note = next(n for n in res.notes if "disagree" in n)
    assert "float loss" in note and "mpmath loss 0.0" in note


def test_agreeing_user_density_controls_still_decide():
    right = audit_density_mechanism(LaplaceUser(1.0), NB, rng=np.random.default_rng(1))
    assert right.passed  # eps = 1/scale exactly: the tight bound is attained, no excess
    wrong = audit_density_mechanism(LaplaceUser(0.5), NB, rng=np.random.default_rng(1))
    assert wrong.violated and float(wrong.certified_slack) > 0.5


# -- multi-output laws are audited jointly or refused, never truncated ------------------------------------
def _ten(x):
    x = np.atleast_1d(np.asarray(x, dtype=float)).reshape(-1)
    return np.repeat(x[:1], 10)


def test_ten_output_gaussian_is_audited_jointly():
    # 10 copies of x plus N(0, sigma^2 I): ||f(x) - f(x')|| = sqrt(10) |x - x'|, so delta is Balle & Wang's
    # at sensitivity sqrt(10) (mpmath, 50 digits).  sigma is calibrated for ONE output: the claim is false.
    sigma = 3.730631634815942  # Balle & Wang Thm. 8: delta(1) = 1e-5 at sensitivity 1 (mpmath findroot)
    nb = HammingNeighbourhood((0.0, 1.0), 1)
    one = float(gaussian_delta_balle_wang(1.0, sigma, 1))
    joint = float(gaussian_delta_balle_wang(1.0, sigma, math.sqrt(10)))
    assert one == pytest.approx(1e-5, rel=1e-6) and joint > 0.05
    m = AdditiveNoiseMechanism(Gaussian(), _ten, eps=1.0, delta=1e-5, scale=sigma)
    # At 9e3679c: pass (only the first output was audited).
    res = audit_density_mechanism(m, nb, rng=np.random.default_rng(0))
    assert res.violated
    lo, hi = (float(v) for v in res.witness["delta_hs_enclosure"])
    assert lo <= joint <= hi
    ok = audit_density_mechanism(AdditiveNoiseMechanism(Gaussian(), _ten, eps=1.0, delta=joint * 1.001, scale=sigma),
                                 nb, rng=np.random.default_rng(0))
    assert ok.passed


def test_multi_output_without_a_joint_audit_is_refused_not_truncated():
    nb = HammingNeighbourhood((0.0, 1.0), 1)
    lap = AdditiveNoiseMechanism(Laplace(), _ten, eps=1.0, delta=1e-5, scale=20.0)
    res = audit_density_mechanism(lap, nb, rng=np.random.default_rng(0))
    assert res.inconclusive and "refused, not truncated" in res.notes[0]
    pure = AdditiveNoiseMechanism(Laplace(), _ten, eps=1.0, scale=1.0)
    res = audit_density_mechanism(pure, nb, rng=np.random.default_rng(0))
    assert res.inconclusive and "m = 10 outputs" in res.notes[0]
    with pytest.raises(ValueError, match="one value per output"):
        pure.log_density_mp(0.0, 1.0, 30)


# -- the certified enclosure ------------------------------------------------------------------------------
def _gauss_truth(eps, mu):
    """Balle & Wang Thm. 8, mu = shift/sigma: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (mpmath 50 digits)."""
    return gaussian_delta_balle_wang(eps, 1.0, mu, dps=50)


def _laplace_truth(eps, mu):
    """Laplace, shift mu in units of the scale, eps <= mu: 1 - e^((eps - mu)/2) (the excess set is y > (mu + eps)/2
    between the centres: P = 1 - e^(-(mu - eps)/2)/2, e^eps Q = e^eps e^(-(mu + eps)/2)/2)."""
    with mpmath.workdps(50):
        return max(mpmath.mpf(0), 1 - mpmath.exp((mpmath.mpf(eps) - mpmath.mpf(mu)) / 2))


@pytest.mark.parametrize("mu,eps", [(1.0, 0.1), (1.0, 1.0), (0.5, 2.0), (4.0, 3.0), (2.0, 8.0)])
def test_enclosure_contains_the_gaussian_closed_form(mu, eps):
    E = hockey_stick_enclosure(ball_law(Gaussian(), mu, 1.0), ball_law(Gaussian(), 0.0, 1.0), eps)
    truth = _gauss_truth(eps, mu)
    with mpmath.workdps(50):  # the 20-digit ends, parsed exactly
        assert E.certified and mpmath.mpf(E.lower_str) <= truth <= mpmath.mpf(E.upper_str)
    assert E.lower <= float(truth) <= E.upper
    assert E.upper - E.lower <= 1e-12 * max(float(truth), 1e-300) + 1e-28


@pytest.mark.parametrize("mu,frac", [(1.0, 0.5), (2.0, 0.999999), (0.3, 1.0 - 1e-9), (5.0, 0.1)])
def test_enclosure_contains_the_laplace_closed_form(mu, frac):
    eps = mu * frac
    E = hockey_stick_enclosure(ball_law(Laplace(), mu, 1.0), ball_law(Laplace(), 0.0, 1.0), eps)
    truth = _laplace_truth(eps, mu)
    with mpmath.workdps(50):
        assert E.certified and mpmath.mpf(E.lower_str or 0) <= truth <= mpmath.mpf(E.upper_str)


def test_laplace_flat_region_is_proven_to_contribute_nothing():
    # eps = shift/b: the loss equals eps on the whole half-line y >= shift (flat); truth delta = 0.
    E = hockey_stick_enclosure(ball_law(Laplace(), 1.0, 1.0), ball_law(Laplace(), 0.0, 1.0), 1.0)
    assert E.certified and E.lower == 0.0 and E.upper < 1e-24
    assert E.uncertain  # the flat cells are kept as uncertainty, bounded by P(U)(1 - e^(-sup g)), not assigned
    # the float fast path no longer splits the flat region into rounding fragments (at 9e3679c: 4-8 pieces)
    for mu in (0.3, 5.0):
        assert len(bad_set(Laplace(), mu, 1.0, 0.0, 1.0, mu - 1e-9)) <= 2


def _gencauchy_truth(eps, noise):
    """GenCauchy(4, 1), shift 1: the excess set by sign changes of the mpmath loss on a grid of step 1/400 over
    [0, 4] (the loss peaks near y = 1.96; outside [0, 4] it is below eps here), roots by findroot, and
    mpmath.quad of p - e^eps q over it (50 digits)."""
    ref = reference_for(noise)
    with mpmath.workdps(50):
        t = mpmath.mpf(eps)
        L = lambda y: ref.logpdf(y - 1) - ref.logpdf(y) - t  # noqa: E731
        ys = [mpmath.mpf(k) / 400 for k in range(1601)]
        vals = [L(y) for y in ys]
        roots = [mpmath.findroot(L, (ys[i], ys[i + 1]), solver="anderson")
                 for i in range(len(ys) - 1) if (vals[i] > 0) != (vals[i + 1] > 0)]
        assert len(roots) == 2
        return mpmath.quad(lambda y: ref.pdf(y - 1) - mpmath.exp(t) * ref.pdf(y), roots)


def test_gencauchy_just_below_the_largest_loss():
    # At 9e3679c: bad_set found no excess set, delta = 0 in float and mpmath; truth 4.318e-5.
    noise = GenCauchy(4.0, 1.0)
    ref = reference_for(noise)
    with mpmath.workdps(40):
        ym = mpmath.findroot(lambda y: mpmath.diff(lambda u: ref.logpdf(u - 1) - ref.logpdf(u), y), 1.96)
        lmax = float(ref.logpdf(ym - 1) - ref.logpdf(ym))
    eps = lmax - 0.003
    truth = _gencauchy_truth(eps, noise)
    assert float(truth) == pytest.approx(4.318e-5, rel=1e-3)
    hs, _ = hockey_stick(noise, 1.0, 1.0, 0.0, 1.0, eps)
    assert hs == pytest.approx(float(truth), rel=1e-9)
    E = hockey_stick_enclosure(ball_law(noise, 1.0, 1.0), ball_law(noise, 0.0, 1.0), eps)
    with mpmath.workdps(50):
        assert E.certified and mpmath.mpf(E.lower_str) <= truth <= mpmath.mpf(E.upper_str)


def test_student_t_enclosure_against_quadrature():
    noise = StudentT(3.0)
    ref = reference_for(noise)
    E = hockey_stick_enclosure(ball_law(noise, 0.7, 1.0), ball_law(noise, 0.0, 1.0), 0.2)
    with mpmath.workdps(30):
        f = lambda y: max(mpmath.mpf(0), ref.pdf(y - mpmath.mpf(0.7)) - mpmath.exp(mpmath.mpf(0.2)) * ref.pdf(y))  # noqa: E731
        (a, b), = E.excess
        q = mpmath.quad(lambda y: ref.pdf(y - mpmath.mpf(0.7)) - mpmath.exp(mpmath.mpf(0.2)) * ref.pdf(y), [a, b])
        assert f(a - 1e-3) == 0 and f(b + 1e-3) == 0 and f((a + b) / 2) > 0
    assert E.lower <= float(q) * (1 + 1e-12) and float(q) * (1 - 1e-12) <= E.upper


def test_enclosure_decides_and_reports_not_certified():
    E = Enclosure(lower=1e-6, upper=2e-6, certified=True)
    assert E.decide(3e-6) == "pass" and E.decide(5e-7) == "violated" and E.decide(1.5e-6) == "inconclusive"
    assert Enclosure(lower=0.0, upper=math.inf, certified=False, reason="x").decide(1.0) == "inconclusive"


# -- a calibrated Gaussian passes, a 2 % too small one fails ----------------------------------------------
SIGMA_1_1E5 = 3.730631634815942  # Balle & Wang Thm. 8: delta(eps = 1) = 1e-5 at sensitivity 1 (mpmath findroot)


class DeclaredGaussian:
    """A user's Gaussian mechanism x + sigma Z with log_density, log_density_mp and its declared law
    (noise, f, scale): the law the (eps, delta) audit certifies, checked against log_density."""

    metric, name = "euclidean", "user Gaussian"

    def __init__(self, sigma: float) -> None:
        self.scale, self.noise = sigma, Gaussian()

    def f(self, x):
        return np.asarray(x, dtype=float).reshape(-1)

    def log_density(self, x, y):
        y = np.asarray(y, dtype=float)
        return -0.5 * ((y - _x(x, y)) / self.scale) ** 2 - math.log(self.scale * math.sqrt(2 * math.pi))

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            s = mpmath.mpf(self.scale)
            z = (mpmath.mpf(y) - mpmath.mpf(float(np.atleast_1d(x)[0]))) / s
            return -z * z / 2 - mpmath.log(s * mpmath.sqrt(2 * mpmath.pi))


@pytest.mark.long
@pytest.mark.slow  # two full Euclidean (eps, delta) searches, ~20 s on one free core
def test_calibrated_gaussian_passes_and_two_percent_too_small_fails():
    assert float(gaussian_delta_balle_wang(1.0, SIGMA_1_1E5)) == pytest.approx(1e-5, rel=1e-9)
    res = assert_private(DeclaredGaussian(SIGMA_1_1E5 * 1.001), eps=1.0, delta=1e-5, pairs=[(0.0, 1.0)])
    assert res.passed and res.witness["enclosure_certified"]
    lo, hi = (float(v) for v in res.witness["delta_hs_enclosure"])
    assert hi <= 1e-5
    with pytest.raises(AssertionError, match=r"VIOLATED.*certified lower end of delta_hs, ball arithmetic"):
        assert_private(DeclaredGaussian(SIGMA_1_1E5 * 0.98), eps=1.0, delta=1e-5, pairs=[(0.0, 1.0)])


def test_declared_law_must_match_the_log_density():
    class Lies(DeclaredGaussian):
        def log_density(self, x, y):
            return super().log_density(x, y) + 0.1 * np.asarray(y, dtype=float)

    with pytest.raises(AssertionError, match="differs from its declared law"):
        assert_private(Lies(SIGMA_1_1E5 * 1.001), eps=1.0, delta=1e-5, pairs=[(0.0, 1.0)])


def test_pointwise_user_density_is_inconclusive_and_says_why():
    class PointwiseGaussian:
        metric, name = "euclidean", "pointwise Gaussian"
        log_density = DeclaredGaussian.log_density
        log_density_mp = DeclaredGaussian.log_density_mp

        def __init__(self, sigma):
            self.scale = sigma

    with pytest.raises(AssertionError, match=r"INCONCLUSIVE.*known pointwise, so no certified enclosure"):
        assert_private(PointwiseGaussian(SIGMA_1_1E5 * 1.001), eps=1.0, delta=1e-5, pairs=[(0.0, 1.0)])


# -- the finite brute force (discrete mechanisms) -----------------------------------------------------------
class GeometricLoss:
    """ln P(z | X) = -|z - X| - ln 3 on the integers (loss at most 1 per unit of |X - X'|), claimed eps = 1."""

    eps, name = 1.0, "geometric"

    def log_density(self, X, z):
        z = np.asarray(z, dtype=float)
        return -np.abs(z - X) - math.log(3)

    def log_density_mp(self, X, z, dps):
        with mpmath.workdps(dps):
            return -mpmath.mpf(abs(z - X)) - mpmath.log(3)


def test_finite_audit_nan_is_inconclusive_and_mp_must_agree():
    from verify.audit.exact import audit_finite

    assert audit_finite(GeometricLoss(), [(0, 1), (1, 0)], range(-5, 6)).passed  # control

    class NaNAt2(GeometricLoss):
        def log_density(self, X, z):
            z = np.asarray(z, dtype=float)
            return np.where(z == 2, np.nan, super().log_density(X, z))

    # At 9e3679c: pass (NaN never wins argmax of the slack).
    res = audit_finite(NaNAt2(), [(0, 1), (1, 0)], range(-5, 6))
    assert res.inconclusive and "undefined" in res.notes[-1]

    class Claims05ZeroMP(GeometricLoss):
        eps = 0.5

        def log_density_mp(self, X, z, dps):
            return mpmath.mpf(0)

    # At 9e3679c: pass (the mpmath slack -0.5 "settled" the float excess 0.5).
    res = audit_finite(Claims05ZeroMP(), [(0, 1), (1, 0)], range(-5, 6))
    assert res.inconclusive and "disagree" in res.notes[0]
