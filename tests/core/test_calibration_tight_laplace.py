"""smoothsens_core.calibration.tight: the exact delta of Laplace with g_L (004 Lemma 3.6)."""

import math

import mpmath
import numpy as np
import pytest

from smoothsens_core.calibration import calibrate_laplace_approx
from smoothsens_core.calibration.tight import (
    format_tight_table_laplace,
    hockey_stick_laplace,
    tight_calibration_laplace,
    tight_delta_laplace,
    tight_eta_laplace,
    tight_table_laplace,
)
from smoothsens_core.distributions import Laplace
from smoothsens_core.growth import growth_linear
from smoothsens_core.mechanism import SmoothSensitivityMechanism
from verify.audit.exact import audit_smooth_mechanism
from verify.reference.distributions import LaplaceReference


# ---------------------------------------------------------------------------------------------
# mpmath reference, from 004 Def. 5 and the Laplace density only
# ---------------------------------------------------------------------------------------------
def _hockey_stick_mp(r, s, t, dps=40):
    """integral (p - e^t q)_+ dy, p = Lap(s, e^r), q = Lap(0, 1) densities e^(-|y-m|/b)/(2b) (004 Sec. 2.1,
    :class:`verify.reference.distributions.LaplaceReference`), by mpmath quadrature at ``dps`` digits.  The
    integrand has kinks at 0, s and where p = e^t q; the latter are located by bisection of
    ln p - ln q - t = -r - |y - s|/e^r + |y| - t (mpmath) on each interval between 0 and s and on the two
    half-lines (the log-ratio is monotone on each of them), and every kink is a quadrature break point."""
    with mpmath.workdps(dps):
        r, s, t = mpmath.mpf(r), mpmath.mpf(s), mpmath.mpf(t)
        c, a = mpmath.exp(r), mpmath.exp(t)

        p_ref, q_ref = LaplaceReference(s, c), LaplaceReference(0, 1)

        def integrand(y):
            v = p_ref.pdf(y) - a * q_ref.pdf(y)
            return v if v > 0 else mpmath.mpf(0)

        def g(y):
            return p_ref.logpdf(y) - q_ref.logpdf(y) - t

        far = 10 * (abs(s) + abs(t) + abs(r) + 10) * max(c, 1 / c)
        lo_, hi_ = min(mpmath.mpf(0), s), max(mpmath.mpf(0), s)
        pts = [lo_, hi_]
        for a0, b0 in ((-far, lo_), (lo_, hi_), (hi_, far)):
            ga, gb = g(a0), g(b0)
            if ga * gb < 0:
                x0, x1 = a0, b0
                for _ in range(4 * dps):  # bisection: robust on the piecewise-linear g
                    xm = (x0 + x1) / 2
                    if (g(xm) > 0) == (ga > 0):
                        x0 = xm
                    else:
                        x1 = xm
                pts.append((x0 + x1) / 2)
        pts = sorted(set(pts))
        return mpmath.quad(integrand, [-mpmath.inf] + pts + [mpmath.inf])


@pytest.mark.parametrize(
    "r, s, t",
    [(0.1, 0.5, 1.0), (-0.1, 0.5, 0.3), (0.05, 2.0, 0.5), (0.5, 1.0, 3.0), (-0.7, 3.0, 1.0), (1e-3, 0.1, 0.05),
     (-0.2, 0.0, 0.1), (0.0, 1.0, 0.5), (0.0, 0.3, 0.5), (0.2, -1.5, 0.7), (0.693, 8.49, 20.0), (-1.5, 0.2, -0.3),
     (2.0, 0.0, 0.0)],
)
def test_hockey_stick_laplace_matches_mpmath_quadrature(r, s, t):
    ref = _hockey_stick_mp(r, s, t, dps=35)
    got = float(hockey_stick_laplace(r, s, t))
    assert got == pytest.approx(float(ref), rel=1e-11, abs=1e-300)


def test_hockey_stick_laplace_regime_closed_form():
    """(L1): for c = e^r > 1 and s - r <= t, H = (1 - 1/c) exp(-(t + r)/(c - 1)) cosh(s/(c - 1))."""
    rng = np.random.default_rng(3)
    r = rng.uniform(1e-3, 2.0, 2000)
    t = rng.uniform(0.0, 10.0, 2000)
    s = rng.uniform(0.0, 1.0, 2000) * (t + r)
    # e^(-(t+r)/(c-1)) cosh(s/(c-1)) as two exponentials (cosh alone overflows for c near 1)
    k = np.expm1(r)  # c - 1
    ref = -np.expm1(-r) * 0.5 * (np.exp(-(t + r - s) / k) + np.exp(-(t + r + s) / k))
    np.testing.assert_allclose(hockey_stick_laplace(r, s, t), ref, rtol=1e-10, atol=1e-300)


def test_hockey_stick_laplace_monotone_in_shift_and_threshold():
    """(L2): H nondecreasing in |shift| (reflection argument) and nonincreasing in t, at any scale ratio."""
    r = np.linspace(-1.5, 1.5, 61)[:, None, None]
    s = np.linspace(0.0, 6.0, 241)[None, :, None]
    t = np.linspace(-0.5, 4.0, 19)[None, None, :]
    H = hockey_stick_laplace(r, s, t)
    tol = 1e-14 * (1 + H)
    assert np.all(np.diff(H, axis=1) >= -tol[:, 1:, :])
    assert np.all(np.diff(H, axis=2) <= tol[:, :, 1:])
    np.testing.assert_array_equal(hockey_stick_laplace(r, -s, t), H)


# ---------------------------------------------------------------------------------------------
# The certified sup over pairs
# ---------------------------------------------------------------------------------------------
def _brute(eps, eta, gamma, metric, Lam, n=200_000, seed=0):
    """Dense random search over concrete pairs (u, d): r = u ln(1 + gamma d), shift = d min(e^r, 1)."""
    rng = np.random.default_rng(seed)
    # random scale ratios, plus the extremes u = +-1 and equal scales u = 0 (c = 1: with eta > eps the
    # pure shift can be the worst pair)
    u = np.concatenate([rng.uniform(-1, 1, n), rng.choice([-1.0, 0.0, 1.0], n // 5)])
    if metric == "hamming":
        d = np.ones(u.size)
    else:
        dmax = Lam if math.isfinite(Lam) else 1e4
        d = np.exp(rng.uniform(math.log(1e-4), math.log(dmax), u.size))
        d[rng.random(u.size) < 0.2] = dmax
    r = u * np.log1p(gamma * d)
    # any shift in [-d min(c, 1), d min(c, 1)]: also random ones (the worst is the extreme, (L2))
    frac = np.where(rng.random(u.size) < 0.5, 1.0, rng.uniform(-1, 1, u.size))
    shift = frac * d * np.minimum(np.exp(r), 1.0)
    return float(np.max(hockey_stick_laplace(r, eta * shift, eps * d)))


CASES = [  # (eps, eta, gamma, metric, Lambda): closed-form and cell cases, eta above and below eps
    (1.0, 0.4243537267514885, 0.05, "euclidean", math.inf),
    (1.0, 0.4243537267514885, 0.05, "hamming", math.inf),
    (1.0, 0.6534, 0.5, "euclidean", math.inf),  # eta + gamma > eps: cells for r < 0
    (1.0, 0.6534, 0.5, "hamming", math.inf),
    (1.0, 1.01, 0.05, "hamming", math.inf),  # eta > eps: cells everywhere
    (1.0, 0.5, 0.05, "euclidean", 20.0),
    (1.0, 1.2, 0.3, "euclidean", 3.0),  # eta > eps, finite Lambda
    (0.5, 0.3, 1.5, "euclidean", math.inf),  # gamma > eps
    (0.5, 0.3, 1.5, "hamming", math.inf),
]


@pytest.mark.parametrize("eps, eta, gamma, metric, Lam", CASES)
def test_tight_delta_certified_above_attained_and_brute_force(eps, eta, gamma, metric, Lam):
    res = tight_delta_laplace(eps, eta, gamma, metric, Lam)
    assert 0.0 <= res.lower <= res.upper <= 1.0
    assert res.upper - res.lower <= 2e-7 * res.lower + 1e-299
    brute = _brute(eps, eta, gamma, metric, Lam)
    assert brute <= res.upper
    # the brute force gets close to the bound (for Lambda = inf only up to phi(gamma 1e4) < 1)
    phi_cap = 1.0 if (metric == "hamming" or math.isfinite(Lam)) else (1 - 2e-3 / gamma)
    assert brute >= res.lower * phi_cap * (1 - 1e-6)
    # a finite witness is a concrete pair whose value is the attained lower bound
    w = res.witness
    if math.isfinite(w["d"]):
        assert abs(w["r"]) <= math.log1p(gamma * w["d"]) * (1 + 1e-15)
        assert abs(w["shift"]) <= w["d"] * min(math.exp(w["r"]), 1.0) * (1 + 1e-15)
        val = float(hockey_stick_laplace(w["r"], eta * w["shift"], eps * w["d"]))
        assert val == pytest.approx(res.lower, rel=1e-12)


@pytest.mark.parametrize("eps, eta, gamma, metric, Lam", CASES)
def test_tight_delta_cells_agree_with_closed_form(eps, eta, gamma, metric, Lam):
    auto = tight_delta_laplace(eps, eta, gamma, metric, Lam)
    cells = tight_delta_laplace(eps, eta, gamma, metric, Lam, method="cells")
    assert cells.lower <= auto.upper and auto.lower <= cells.upper
    assert cells.upper == pytest.approx(auto.upper, rel=2e-7)


def test_tight_delta_closed_form_values():
    """(L3): cosh(eta/gamma) e^(-eps/gamma) phi(gamma Lambda), phi(u) = u/(1+u) (1+u)^(-1/u); mpmath, 30 digits."""
    for eps, eta, gamma, metric, Lam in [(1.0, 0.42, 0.05, "euclidean", math.inf), (1.0, 0.42, 0.05, "hamming", math.inf),
                                         (2.0, 0.3, 0.2, "euclidean", 7.5), (1.0, 0.1, 0.01, "euclidean", math.inf)]:
        D = 1.0 if metric == "hamming" else Lam
        with mpmath.workdps(30):
            E, H, G = mpmath.mpf(eps), mpmath.mpf(eta), mpmath.mpf(gamma)
            ref = mpmath.cosh(H / G) * mpmath.exp(-E / G)
            if math.isfinite(D):
                u = G * mpmath.mpf(D)
                ref *= u / (1 + u) * (1 + u) ** (-1 / u)
        res = tight_delta_laplace(eps, eta, gamma, metric, Lam)
        assert res.upper >= float(ref) and res.upper == pytest.approx(float(ref), rel=1e-10)
        assert "closed form" in res.method


def test_tight_delta_lambda_inf_eta_above_eps_is_one():
    """(L5): r = 0, Delta = d gives 1 - exp(-(eta - eps) d/2) -> 1."""
    res = tight_delta_laplace(1.0, 1.001, 0.05)
    assert res.upper == res.lower == 1.0
    d = 1e5
    assert float(hockey_stick_laplace(0.0, 1.001 * d, d)) == pytest.approx(-math.expm1(-0.001 * d / 2), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Printed (004 Lemma 3.6) vs tight
# ---------------------------------------------------------------------------------------------
def test_tight_delta_below_printed_on_grid():
    ratios = {"euclidean": [], "hamming": []}
    for eps in (0.5, 1.0, 3.0):
        for gamma in (0.005, 0.02, 0.1, 0.3):
            for delta in (1e-9, 1e-6, 1e-3, 0.1, 0.5, 0.9):
                L = math.log(1 / delta)
                if not gamma * L < eps:
                    continue
                eta = calibrate_laplace_approx(eps, delta, gamma).eta
                for metric in ("euclidean", "hamming"):
                    res = tight_delta_laplace(eps, eta, gamma, metric)
                    assert res.delta_printed == pytest.approx(delta, rel=1e-9)
                    assert res.upper <= delta, (eps, gamma, delta, metric, res)
                    ratios[metric].append(res.upper / delta)
                    if metric == "euclidean" and eta + gamma <= eps:
                        # (L3)/(L4) at the printed eta: ratio (1 + e^(-2 eta/gamma))/2
                        assert res.upper / delta == pytest.approx((1 + math.exp(-2 * eta / gamma)) / 2, rel=1e-9)
    print(f"tight/printed delta: GP in [{min(ratios['euclidean']):.4f}, {max(ratios['euclidean']):.4f}], "
          f"DP in [{min(ratios['hamming']):.3g}, {max(ratios['hamming']):.3g}]")
    assert 0.5 <= min(ratios["euclidean"]) and max(ratios["euclidean"]) < 1.0
    assert max(ratios["hamming"]) < 0.2  # DP: phi(gamma) ~ gamma/e makes the printed delta very loose


def test_tight_eta_matches_closed_form_and_is_certified():
    eps, delta, gamma = 1.0, 1e-5, 0.05
    eta = tight_eta_laplace(eps, delta, gamma)
    eta_p = eps - gamma * math.log(1 / delta)
    # (L4): eta_tight = eta_p + gamma ln(1 + sqrt(1 - e^(-2 eta_p/gamma))); mpmath, 30 digits
    with mpmath.workdps(30):
        G, ep = mpmath.mpf(gamma), mpmath.mpf(eta_p)
        ref = float(ep + G * mpmath.log(1 + mpmath.sqrt(1 - mpmath.exp(-2 * ep / G))))
    assert eta <= ref and eta == pytest.approx(ref, rel=1e-10)
    assert tight_delta_laplace(eps, eta, gamma).upper <= delta
    assert tight_delta_laplace(eps, eta * (1 + 1e-6), gamma).lower > delta
    for metric, Lam in (("hamming", math.inf), ("euclidean", 20.0), ("hamming", math.inf)):
        e = tight_eta_laplace(eps, delta, gamma, metric, Lam)
        assert e > eta_p
        assert tight_delta_laplace(eps, e, gamma, metric, Lam).upper <= delta
        assert tight_delta_laplace(eps, e * (1 + 1e-6), gamma, metric, Lam).lower > delta


def test_tight_eta_dp_can_exceed_eps_for_large_delta():
    # DP, delta = 0.5: the r = 0 pair binds, 1 - exp(-(eta - eps)/2) = delta -> eta = eps + 2 ln 2
    e = tight_eta_laplace(1.0, 0.5, 0.5, "hamming")
    assert e == pytest.approx(1.0 + 2 * math.log(2.0), rel=1e-6)


def test_tight_calibration_laplace_reports_printed_and_tight():
    tc = tight_calibration_laplace(1.0, 1e-5, 0.05)
    assert tc.eta_printed == pytest.approx(1 - 0.05 * math.log(1e5), rel=1e-14)
    assert tc.delta_ratio == pytest.approx(0.5, rel=1e-6) and tc.delta_tight_at_printed_eta <= 1e-5
    assert tc.eta_tight > tc.eta_printed and 0.07 < tc.std_saved < 0.08
    assert tc.std_tight == pytest.approx(math.sqrt(2) / tc.eta_tight, rel=1e-14)


def test_tight_feasible_where_printed_is_not_dp():
    # gamma = eps/9 at delta = 1e-5: gamma ln(1/delta) = 1.28 > eps, printed infeasible; DP tight is feasible
    tc = tight_calibration_laplace(1.0, 1e-5, 1 / 9, "hamming")
    assert tc.eta_printed is None and tc.std_saved is None and "infeasible" in tc.note
    assert tc.eta_tight > 0 and tight_delta_laplace(1.0, tc.eta_tight, 1 / 9, "hamming").upper <= 1e-5
    # GP with Lambda = inf has the same feasibility boundary as the printed lemma (eta -> 0: e^(-eps/gamma))
    with pytest.raises(ValueError, match=r"gamma is too large for delta"):
        tight_calibration_laplace(1.0, 1e-5, 1 / 9, "euclidean")
    rows = tight_table_laplace(1.0, 1e-5, None, "euclidean")
    assert rows[0]["error"] and "infeasible (see note)" in format_tight_table_laplace(rows)
    rows = tight_table_laplace(1.0, 1e-5, None, "hamming")
    out = format_tight_table_laplace(rows)
    assert not rows[0]["error"] and "infeasible" in out and "tight calibration is feasible" in out


def test_tight_eta_is_not_refuted_and_shaved_delta_is():
    """The approximate-mode auditor (verify.audit.exact) finds no violation at eta_tight, and a
    certified counterexample when delta is shaved by 1% (tightness)."""
    eps, delta, gamma = 1.0, 1e-5, 0.05
    for metric, Lam in (("hamming", math.inf), ("euclidean", 20.0)):
        eta = tight_eta_laplace(eps, delta, gamma, metric, Lam)
        for dl, expect in ((delta, False), (0.99 * delta, True)):
            spec = SmoothSensitivityMechanism(name="t", noise=Laplace(), eta=eta, growth=growth_linear(gamma), eps=eps,
                                              delta=dl, metric="hamming" if metric == "hamming" else "euclidean",
                                              Lambda=Lam)
            res = audit_smooth_mechanism(spec, rng=np.random.default_rng(7), n_random=1000, n_local=2, dps=50,
                                         maxfev=200)
            assert res.certified is expect, (metric, dl, res.summary())


# ---------------------------------------------------------------------------------------------
# Parameter validation
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: tight_delta_laplace(0.0, 0.5, 0.1), r"eps must be in \(0, inf\)"),
        (lambda: tight_delta_laplace(-1.0, 0.5, 0.1), r"eps must be in \(0, inf\)"),
        (lambda: tight_delta_laplace(1.0, 0.0, 0.1), r"eta must be in \(0, inf\)"),
        (lambda: tight_delta_laplace(1.0, 0.5, 0.0), r"gamma must be in \(0, inf\)"),
        (lambda: tight_delta_laplace(float("nan"), 0.5, 0.1), r"eps must be a finite real number"),
        (lambda: tight_delta_laplace(1.0, 0.5, float("nan")), r"gamma must be a finite real number"),
        (lambda: tight_delta_laplace(1.0, 0.5, 0.1, "dp"),
         r"metric must be one of 'euclidean', 'hamming'; got metric='dp' \(the papers' DP is metric='hamming'\)"),
        (lambda: tight_eta_laplace(1.0, 1e-5, 0.01, "gp"), r"metric must be one of 'euclidean', 'hamming'"),
        (lambda: tight_table_laplace(1.0, 1e-5, 0.01, "p-neighbouring"), r"metric must be one of 'euclidean', 'hamming'"),
        (lambda: tight_delta_laplace(1.0, 0.5, 0.1, "euclidean", 0.0), r"Lambda must be in \(0, inf\]"),
        (lambda: tight_delta_laplace(1.0, 0.5, 0.1, "hamming", 0.5), r"Lambda must be >= 1 for metric='hamming'"),
        (lambda: tight_delta_laplace(1.0, 0.5, 0.1, method="grid"), r"method must be 'auto' or 'cells'"),
        (lambda: tight_eta_laplace(0.0, 1e-5, 0.1), r"eps must be in \(0, inf\)"),
        (lambda: tight_eta_laplace(1.0, 0.0, 0.1), r"delta must be in \(0.0, 1.0\)"),
        (lambda: tight_eta_laplace(1.0, 1.0, 0.1), r"delta must be in \(0.0, 1.0\)"),
        (lambda: tight_eta_laplace(1.0, float("nan"), 0.1), r"delta must be a finite real number"),
        (lambda: tight_eta_laplace(1.0, 1e-5, -0.1), r"gamma must be in \(0, inf\)"),
        (lambda: tight_eta_laplace(1.0, 1e-5, 0.2), r"gamma is too large for delta"),
        (lambda: tight_calibration_laplace(1.0, 1.5, 0.1), r"delta must be in \(0.0, 1.0\)"),
        (lambda: tight_table_laplace(float("nan"), 1e-5), r"eps must be a finite real number"),
        (lambda: hockey_stick_laplace(0.1, float("nan"), 1.0), r"shift must contain only finite numbers"),
    ],
)
def test_tight_laplace_rejects_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
