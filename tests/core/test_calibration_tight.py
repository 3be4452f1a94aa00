"""smoothsens_core.calibration.tight: exact worst-case privacy-loss rate."""

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core import calibration as cal
from smoothsens_core.distributions import (
    GenCauchy, HalfPowerLaw, Laplace, OneSidedExponential, PolyPlace, PowerLaw, StudentT,
)
from verify.reference.distributions import reference_for


def _student_t_rate_closed_form(nu, gamma, eta):
    """sup_z F for T_nu, F = eta (nu+1) z/(nu+z^2) + gamma nu |1-z^2|/(nu+z^2) (tight.py docstring).

    Derived by hand: with a = eta (nu+1), b = gamma nu, the stationary points solve
    -a z^2 + 2 b (nu+1) z + a nu = 0 on z > 1 and -a z^2 - 2 b (nu+1) z + a nu = 0 on z < 1;
    candidates are these roots, z = 0, z = 1 and the limit z -> inf (value b)."""
    a, b = eta * (nu + 1), gamma * nu
    disc = math.sqrt(4 * b * b * (nu + 1) ** 2 + 4 * a * a * nu)
    cands = [0.0, 1.0, (2 * b * (nu + 1) + disc) / (2 * a), (-2 * b * (nu + 1) + disc) / (2 * a)]
    vals = [eta * (nu + 1) * z / (nu + z * z) + gamma * nu * abs(1 - z * z) / (nu + z * z) for z in cands if z >= 0]
    return max(vals + [b])


@pytest.mark.parametrize("nu, gamma, eta", [(4, 0.1, 0.5), (3, 1 / 9, 0.577), (1.5, 0.05, 1.0), (20, 0.01, 0.2)])
def test_tight_student_t_matches_closed_form(nu, gamma, eta):
    r = cal.tight_epsilon(StudentT(nu), gamma, eta)
    exact = _student_t_rate_closed_form(nu, gamma, eta)
    assert r.lower <= exact * (1 + 1e-14) and exact <= r.upper
    assert r.upper - r.lower <= 2e-9 * exact


def test_tight_is_below_printed_on_grids():
    ratios = []
    for gamma in (0.01, 0.05, 0.2):
        for eta in (0.1, 0.5, 2.0):
            for nu in (1.5, 3.0, 8.0):
                t = cal.tight_epsilon(StudentT(nu), gamma, eta).upper
                printed = float(cal._eps_student_t_gp(gamma, eta, nu))
                assert t <= printed
                ratios.append(t / printed)
            for p in (1.5, 2.0, 4.0, 8.0):
                t = cal.tight_epsilon(GenCauchy(p, 1.0), gamma, eta).upper
                printed = float(cal._eps_gencauchy_gp(gamma, eta, p, 1.0, 1))
                assert t <= printed
                ratios.append(t / printed)
    # the slack is real somewhere on the grid, and never negative
    assert min(ratios) < 0.9 and max(ratios) <= 1.0


def test_tight_upper_bound_is_never_below_brute_force():
    rng = np.random.default_rng(11)
    z = np.concatenate([rng.uniform(0, 10, 200_000), np.exp(rng.uniform(-20, 20, 100_000))])
    # PowerLaw (000 Thm. 1) and GenCauchy with p = 1 (bounded score, a kink at 0) are certified by the same
    # generic code: nothing in tight.py names a family
    for noise, gamma, eta in [(StudentT(4.0), 0.1, 0.5), (GenCauchy(4.0, 1.0), 0.1, 0.5),
                              (GenCauchy(1.5, 2.0), 0.05, 0.3), (PolyPlace(10.0, 10.0), 0.1, 1.0),
                              (PowerLaw(3.0, 2.0), 0.1, 0.5), (PowerLaw(1.5, 0.5, scale=2.0), 0.05, 0.4),
                              (GenCauchy(1.0, 2.0), 0.05, 0.3)]:
        r = cal.tight_epsilon(noise, gamma, eta)
        # F(z) from the distribution's own logpdf by central differences (independent of tight.py's psi)
        sc = noise.scale if not isinstance(noise, PolyPlace) else noise.s
        x = z * sc
        h = 1e-6 * np.maximum(x, 1e-3)
        dlog = (noise.logpdf(x + h) - noise.logpdf(x - h)) / (2 * h) * sc  # psi(z) of the standardised density
        F = (eta / sc) * np.abs(dlog) + gamma * np.abs(1 + z * dlog)
        ok = np.isfinite(F)
        assert F[ok].max() <= r.upper * (1 + 1e-5)
        assert F[ok].max() >= r.lower * (1 - 1e-3)  # the grid finds the maximum the bound certifies


def test_tight_dp_bounded_by_gp_and_by_brute_force():
    noise, gamma, eta = StudentT(4.0), 0.1, 0.5
    gp = cal.tight_epsilon(noise, gamma, eta, "euclidean")
    dp = cal.tight_epsilon(noise, gamma, eta, "hamming")
    assert gp.metric == "euclidean" and dp.metric == "hamming"
    assert dp.upper <= gp.upper and dp.lower <= dp.upper
    assert dp.upper - dp.lower <= 1e-4 * dp.lower
    # brute force over concrete pairs at Hamming distance 1: B(x') = 1, B(x) = e^r, f(x') = 0, f(x) = s
    rng = np.random.default_rng(5)
    n = 400_000
    r = rng.uniform(-gamma, gamma, n)
    s = rng.uniform(-1, 1, n) * np.minimum(np.exp(r), 1.0)
    y = rng.normal(0, 8, n)
    loss = (np.log(eta) - r + noise.logpdf((y - s) * eta * np.exp(-r))) - (np.log(eta) + noise.logpdf(y * eta))
    assert loss.max() <= dp.upper
    assert loss.max() >= dp.lower - 0.02


def test_tight_polyplace_is_already_tight():
    # 002 Lemma 12: eta |psi| + gamma |1 + z psi| = alpha/s = eps at every z != 0
    for eps, gamma in [(2.0, 0.5), (1.0, 0.9)]:
        c = cal.calibrate_polyplace(eps, gamma)
        tc = cal.tight_calibration(c)
        assert tc.eps_tight_lower == pytest.approx(eps, rel=1e-12)
        assert eps <= tc.eps_tight_at_printed_eta <= eps * (1 + 2e-4)
        assert tc.already_tight and tc.eta_tight == c.eta and "already tight" in tc.note


def test_tight_laplace_has_no_pure_rate():
    assert cal.tight_epsilon(Laplace(), 0.1, 1.0).upper == math.inf


def test_tight_eta_inverse_is_largest_admissible():
    for noise, gamma in [(StudentT(3.0), 1 / 9), (GenCauchy(4.0, 1.0), 0.1)]:
        eta = cal.tight_eta(noise, gamma, 1.0)
        assert cal.tight_epsilon(noise, gamma, eta).upper <= 1.0
        assert cal.tight_epsilon(noise, gamma, eta * (1 + 1e-6)).lower > 1.0
        printed = cal.calibrate_student_t(1.0, gamma, 3.0) if isinstance(noise, StudentT) else \
            cal.calibrate_gencauchy(1.0, gamma, 4.0, 1.0)
        assert eta > printed.eta


def _logpdf_mp(noise, z):
    """ln of the standardised density at z (mpmath), from the independent reference of the family
    (:mod:`verify.reference.distributions`, typed from 004 Sec. 2.1): T_nu: ln c_nu/sqrt(nu) - (nu+1)/2
    ln(1 + z^2/nu); GenCauchy: ln c_{p,theta} - theta ln(1 + |z|^p).  The normaliser cancels in every
    privacy loss below (the same number on both sides)."""
    assert noise.loc == 0.0 and noise.scale == 1.0  # standardised: logpdf(z) is ln h(z)
    return reference_for(noise).logpdf(z)


@pytest.mark.parametrize("noise, gamma", [(StudentT(4.0), 0.1), (GenCauchy(4.0, 1.0), 0.1), (StudentT(3.0), 0.02)])
def test_tight_shaved_one_percent_has_certified_counterexample(noise, gamma):
    eps = 1.0
    eta = cal.tight_eta(noise, gamma, eps)  # tight calibration for eps
    r = cal.tight_epsilon(noise, gamma, eta)
    z_star = r.witness["z"]
    # two concrete inputs at distance d: x' with B = 1, f = 0; x with B = e^(rho), f = d (allowed:
    # |ln B - ln B'| = gamma d, |f - f'| = d <= min(B, B') d when rho >= 0, else scaled by e^rho)
    with mpmath.workdps(50):
        d = mpmath.mpf("1e-7")
        E, Z = mpmath.mpf(eta), mpmath.mpf(z_star)
        h = lambda u: _logpdf_mp(noise, u)  # noqa: E731
        psi = mpmath.diff(h, Z)
        rho = gamma * d * (1 if -(1 + Z * psi) > 0 else -1)
        shift = d * min(mpmath.mpf(1), mpmath.exp(rho))
        y = Z / E  # output where the standardised value under x' is z*
        loss = (mpmath.log(E) - rho + h((y - shift) * E * mpmath.exp(-rho))) - (mpmath.log(E) + h(y * E))
        rate = loss / d
    assert rate > 0.99 * eps  # shaved 1% below the tight value: refuted by this pair
    assert rate <= eps  # and the tight calibration itself holds there


def test_tight_shaved_one_percent_dp_counterexample():
    noise, gamma, eps = StudentT(4.0), 0.1, 1.0
    eta = cal.tight_eta(noise, gamma, eps, "hamming")
    assert eta > cal.calibrate_student_t(eps, gamma, 4.0).eta
    r = cal.tight_epsilon(noise, gamma, eta, "hamming")
    w = r.witness
    assert math.isfinite(w["y"])
    with mpmath.workdps(50):
        E, rho, s, y = (mpmath.mpf(v) for v in (eta, w["r"], w["shift"], w["y"]))
        assert abs(rho) <= gamma and abs(s) <= min(1, mpmath.exp(rho))  # an allowed pair at Hamming distance 1
        loss = (mpmath.log(E) - rho + _logpdf_mp(noise, (y - s) * E * mpmath.exp(-rho))) - (
            mpmath.log(E) + _logpdf_mp(noise, y * E))
    assert 0.99 * eps < loss <= eps


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: cal.tight_epsilon(StudentT(3.0), 0.0, 1.0), r"gamma must be in \(0, inf\)"),
        (lambda: cal.tight_epsilon(StudentT(3.0), 0.1, -1.0), r"eta must be in \(0, inf\)"),
        (lambda: cal.tight_epsilon(StudentT(3.0), 0.1, 1.0, metric="gp"),
         r"metric must be one of 'euclidean', 'hamming'; got metric='gp' \(the papers' GP is metric='euclidean'\)"),
        (lambda: cal.tight_eta(StudentT(3.0), 0.1, 1.0, metric="dp"), r"metric must be one of 'euclidean', 'hamming'"),
        (lambda: cal.tight_table(1.0, metric="gp"), r"metric must be one of 'euclidean', 'hamming'"),
        (lambda: cal.tight_epsilon(StudentT(3.0, loc=1.0), 0.1, 1.0), r"noise must be centred"),
        (lambda: cal.tight_epsilon(GenCauchy(0.8, 2.0), 0.1, 1.0), r"bounded score psi.*unbounded at z = 0"),
        (lambda: cal.tight_epsilon(HalfPowerLaw(3.0), 0.1, 1.0), r"noise must be symmetric"),
        (lambda: cal.tight_epsilon(OneSidedExponential(-1), 0.1, 1.0, "hamming"), r"noise must be symmetric"),
        (lambda: cal.tight_eta(StudentT(4.0), 0.3, 1.0), r"gamma must be < eps"),
        (lambda: cal.tight_eta(StudentT(4.0), 0.1, 0.0), r"eps must be in \(0, inf\)"),
    ],
)
def test_tight_rejects_bad_parameters(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_tight_rejects_unknown_noise_type():
    with pytest.raises(TypeError, match="noise must be a smoothsens_core.distributions.ContinuousDistribution; got object"):
        cal.tight_epsilon(object(), 0.1, 1.0)


def test_tight_optimised_shape_beats_printed_optimum():
    eps, gamma = 1.0, 0.05
    tc = cal.optimise_tight("gencauchy", eps, gamma)
    po = cal.optimise_calibration("gencauchy", eps, gamma=gamma, optimise_theta=False)  # printed optimum, theta = 1
    assert tc.std_tight < po.noise_std
    # not worse than the tight calibration at the printed-optimal p
    at_po = cal.tight_eta(GenCauchy(po.shape["p"], 1.0), gamma, eps)
    assert tc.std_tight <= po.noise.std() / at_po * (1 + 1e-6)
    with pytest.raises(ValueError, match="family must be 'student_t' or 'gencauchy'"):
        cal.optimise_tight("polyplace", eps, gamma)
