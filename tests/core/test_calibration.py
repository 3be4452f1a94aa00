"""smoothsens_core.calibration: printed eps formulas, inverses, validation, shape optimiser."""

import dataclasses
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothsens_core import calibration as cal
from smoothsens_core._generated import calibration as gen
from smoothsens_core._generated.noise import gencauchy_variance
from smoothsens_core.calibration import calibration_table
from smoothsens_core.distributions import PolyPlace
from verify.reference.distributions import reference_for


# ---- 004 Remark after Lemma 3.5: gamma = 0.1, eta = 0.5, p = nu = 4 ----------------------------
def test_calibration_remark_example_numbers():
    # Reference values by hand from the printed formulas:
    #   Lemma 3.3: max(0.1, 3*0.1) + 3^(3/4)*0.5 = 0.3 + 0.5*2.2795070... = 1.43975...  (printed "~1.44")
    #   NRS07:     5*0.1 + 5*0.5 = 3;  Lemma 3.5: 4*0.1 + 5/4*0.5 = 1.025;  BS19: 5*0.1 + 0.625 = 1.125
    e33 = float(cal._eps_gencauchy_gp(0.1, 0.5, 4.0, 1.0, 1))
    assert e33 == pytest.approx(0.3 + 0.5 * 3.0**0.75, rel=1e-15)
    assert round(e33, 2) == 1.44
    assert float(cal._eps_gencauchy_nrs07(0.1, 0.5, 4.0)) == pytest.approx(3.0, rel=1e-15)
    assert float(cal._eps_student_t_gp(0.1, 0.5, 4.0)) == pytest.approx(1.025, rel=1e-15)
    assert float(cal._eps_student_t_bs19(0.1, 0.5, 4.0)) == pytest.approx(1.125, rel=1e-15)


def test_calibration_remark_example_inverse_gives_eta_half():
    c = cal.calibrate_gencauchy(0.3 + 0.5 * 3.0**0.75, gamma=0.1, p=4, theta=1)
    assert c.eta == pytest.approx(0.5, rel=1e-13)
    t = cal.calibrate_student_t(1.025, gamma=0.1, nu=4)
    assert t.eta == pytest.approx(0.5, rel=1e-13)
    assert cal.calibrate_gencauchy_nrs07(3.0, gamma=0.1, p=4).eta == pytest.approx(0.5, rel=1e-13)
    assert cal.calibrate_student_t_bs19(1.125, gamma=0.1, nu=4).eta == pytest.approx(0.5, rel=1e-13)


# ---- the printed formulas, typed independently in mpmath (50 digits) from the papers -------------
# 004 Lemma 3.3 (m = 1) / Cor. 3.2:  eps = max(m gamma, m (p theta - 1) gamma) + theta (p-1)^((p-1)/p) eta
# 004 Lemma 3.5:                     eps = nu gamma + (nu + 1)/(2 sqrt(nu)) eta
# 004 Lemma 3.6:                     eps = eta + gamma ln(1/delta)   (so delta = exp(-(eps - eta)/gamma))
# 002 Thm. 8 / Lemma 12:             eps = alpha / s = alpha gamma  (s = 1/gamma)
# NRS07 (004 Remark 3.5, 002 Cl. 16): eps = (p + 1) gamma + (p + 1) eta
# BS19 (004 Remark 3.5, 002 Cl. 17):  eps = (nu + 1) gamma + (nu + 1)/(2 sqrt(nu)) eta
# NRS07 Laplace (002 Cl. 18):         eps = eta + gamma ln(2/delta)
MP = mpmath.mpf


def _mp_eps_gencauchy(g, e, p, th, m):
    return max(m * g, m * (p * th - 1) * g) + th * (p - 1) ** ((p - 1) / p) * e


def _mp_eps_student_t(g, e, nu):
    return nu * g + (nu + 1) / (2 * mpmath.sqrt(nu)) * e


def _mp_eps_laplace_gl(g, e, d):
    return e + g * mpmath.log(1 / d)


def _mp_eps_gencauchy_nrs07(g, e, p):
    return (p + 1) * g + (p + 1) * e


def _mp_eps_student_t_bs19(g, e, nu):
    return (nu + 1) * g + (nu + 1) / (2 * mpmath.sqrt(nu)) * e


def _mp_eps_laplace_nrs07(g, e, d):
    return e + g * mpmath.log(2 / d)


def _mp_eps_polyplace(g, alpha):
    return alpha / (1 / g)  # alpha / s with s = 1/gamma (002 Thm. 8)


def _lemma_eps(c, **kw):
    """The printed eps of calibration ``c`` at its returned (gamma, eta, shape), in mpmath at 50 digits."""
    with mpmath.workdps(50):
        g, e = MP(c.gamma), MP(c.eta)
        sh = {k: MP(v) for k, v in c.shape.items()}
        d = MP(c.delta) if c.delta else None
        value = {
            "gencauchy": lambda: _mp_eps_gencauchy(g, e, sh.get("p"), sh.get("theta"), sh.get("m")),
            "student_t": lambda: _mp_eps_student_t(g, e, sh.get("nu")),
            "laplace_gl": lambda: _mp_eps_laplace_gl(g, e, d),
            "polyplace": lambda: _mp_eps_polyplace(g, sh.get("alpha")),
            "gencauchy_nrs07": lambda: _mp_eps_gencauchy_nrs07(g, e, sh.get("p")),
            "student_t_bs19": lambda: _mp_eps_student_t_bs19(g, e, sh.get("nu")),
            "laplace_nrs07": lambda: _mp_eps_laplace_nrs07(g, e, d),
        }[c.family]()
        return float(value)


def _mp_vec(fn, *arrays):
    with mpmath.workdps(50):
        return np.array([float(fn(*(MP(float(a)) for a in row))) for row in zip(*arrays, strict=True)])


def test_calibration_generated_eps_formulas_match_the_printed_lemmas():
    """Every forward eps formula of the calibrations (generated from derivations/privacy_loss.py and
    derivations/polyplace.py) against the lemma typed above in mpmath: a wrong derivation fails here."""
    rng = np.random.default_rng(3)
    n = 60
    g, e = rng.uniform(0.001, 2.0, n), rng.uniform(0.001, 5.0, n)
    p, th, nu = rng.uniform(1.01, 10, n), rng.uniform(1.0, 5.0, n), rng.uniform(1.01, 30, n)
    d = np.exp(rng.uniform(math.log(1e-12), math.log(0.9), n))
    alpha = rng.uniform(1.01, 50.0, n)
    for m in (1, 3):
        np.testing.assert_allclose(cal._eps_gencauchy_gp(g, e, p, th, m),
                                   _mp_vec(lambda *a, m=m: _mp_eps_gencauchy(*a, m), g, e, p, th), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_student_t_gp(g, e, nu), _mp_vec(_mp_eps_student_t, g, e, nu), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_laplace_gl(g, e, d), _mp_vec(_mp_eps_laplace_gl, g, e, d), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_gencauchy_nrs07(g, e, p), _mp_vec(_mp_eps_gencauchy_nrs07, g, e, p), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_student_t_bs19(g, e, nu), _mp_vec(_mp_eps_student_t_bs19, g, e, nu), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_laplace_nrs07(g, e, d), _mp_vec(_mp_eps_laplace_nrs07, g, e, d), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_polyplace(g, alpha), _mp_vec(_mp_eps_polyplace, g, alpha), rtol=1e-13)
    # 004 Lemma 3.6 solved for delta: delta = exp(-(eps - eta)/gamma), eps > eta
    eps = e + rng.uniform(0.01, 3.0, n)
    with mpmath.workdps(50):
        ref = [float(mpmath.exp(-(MP(a) - MP(b)) / MP(c))) for a, b, c in zip(eps, e, g, strict=True)]
    np.testing.assert_allclose(gen.delta_laplace_gl(g, e, eps), ref, rtol=1e-12, atol=1e-300)


def test_calibration_generated_inverses_solve_the_printed_lemmas():
    """eta_* and gamma_max_* against the lemmas solved by hand: eta is the root of eps(gamma, eta) = eps
    (checked by substitution into the mpmath lemma), gamma_max the gamma where eta reaches 0."""
    rng = np.random.default_rng(4)
    for _ in range(40):
        eps = float(rng.uniform(0.01, 10.0))
        p, th, nu, m = float(rng.uniform(1.01, 10)), float(rng.uniform(1.0, 5.0)), float(rng.uniform(1.01, 30)), 2
        d = float(np.exp(rng.uniform(math.log(1e-12), math.log(0.9))))
        cases = [
            (gen.gamma_max_gencauchy_gp(eps, p, th, m), lambda gg, eps=eps, p=p, th=th, m=m: gen.eta_gencauchy_gp(eps, gg, p, th, m),
             lambda gg, ee, p=p, th=th, m=m: _mp_eps_gencauchy(gg, ee, MP(p), MP(th), m), eps / (m * max(1.0, p * th - 1.0))),
            (gen.gamma_max_student_t_gp(eps, nu), lambda gg, eps=eps, nu=nu: gen.eta_student_t_gp(eps, gg, nu),
             lambda gg, ee, nu=nu: _mp_eps_student_t(gg, ee, MP(nu)), eps / nu),
            (gen.gamma_max_laplace_gl(eps, d), lambda gg, eps=eps, d=d: gen.eta_laplace_gl(eps, gg, d),
             lambda gg, ee, d=d: _mp_eps_laplace_gl(gg, ee, MP(d)), eps / math.log(1 / d)),
            (gen.gamma_max_gencauchy_nrs07(eps, p), lambda gg, eps=eps, p=p: gen.eta_gencauchy_nrs07(eps, gg, p),
             lambda gg, ee, p=p: _mp_eps_gencauchy_nrs07(gg, ee, MP(p)), eps / (p + 1)),
            (gen.gamma_max_student_t_bs19(eps, nu), lambda gg, eps=eps, nu=nu: gen.eta_student_t_bs19(eps, gg, nu),
             lambda gg, ee, nu=nu: _mp_eps_student_t_bs19(gg, ee, MP(nu)), eps / (nu + 1)),
            (gen.gamma_max_laplace_nrs07(eps, d), lambda gg, eps=eps, d=d: gen.eta_laplace_nrs07(eps, gg, d),
             lambda gg, ee, d=d: _mp_eps_laplace_nrs07(gg, ee, MP(d)), eps / math.log(2 / d)),
        ]
        for gmax, eta_of, lemma, gmax_ref in cases:
            assert float(gmax) == pytest.approx(gmax_ref, rel=1e-13)
            gg = float(rng.uniform(0.01, 0.99)) * gmax_ref
            eta = float(eta_of(gg))
            assert eta > 0
            with mpmath.workdps(50):
                assert float(lemma(MP(gg), MP(eta))) == pytest.approx(eps, rel=1e-13)
    # 002 Thm. 8: alpha = eps / gamma
    assert float(gen.alpha_polyplace(1.5, 0.3)) == pytest.approx(5.0, rel=1e-15)


# ---- round trips --------------------------------------------------------------------------------
@settings(max_examples=60)
@given(
    eps=st.floats(1e-3, 20.0),
    frac=st.floats(1e-4, 0.999),
    p=st.floats(1.05, 12.0),
    theta=st.floats(1.0, 4.0),
    m=st.integers(1, 5),
    nu=st.floats(1.05, 40.0),
    delta=st.floats(1e-12, 0.5),
)
def test_calibration_roundtrip_certified_eps_equals_target(eps, frac, p, theta, m, nu, delta):
    cs = [
        cal.calibrate_gencauchy(eps, frac * eps / (m * max(1.0, p * theta - 1.0)), p, theta, m),
        cal.calibrate_student_t(eps, frac * eps / nu, nu),
        cal.calibrate_laplace_approx(eps, delta, frac * eps / -math.log(delta)),
        cal.calibrate_polyplace(eps, frac * eps),
        cal.calibrate_gencauchy_nrs07(eps, frac * eps / (p + 1), p),
        cal.calibrate_student_t_bs19(eps, frac * eps / (nu + 1), nu),
        cal.calibrate_laplace_nrs07(eps, delta, frac * eps / (math.log(2 / delta))),
    ]
    for c in cs:
        assert c.eps == pytest.approx(eps, rel=1e-12), c.family
        assert c.eta > 0 and c.gamma > 0
        # the printed lemma (typed in mpmath above, not the generated evaluator) at the returned parameters
        assert _lemma_eps(c) == pytest.approx(eps, rel=1e-12), c.family
        assert c.shape.get("p", p) == p and c.shape.get("nu", nu) == nu


def test_calibration_noise_std_is_std_of_noise_over_eta():
    c = cal.calibrate_student_t(1.0, 0.05, 5.0)
    assert c.noise_std == pytest.approx(math.sqrt(5.0 / 3.0) / c.eta, rel=1e-12)  # Var T_5 = 5/3
    g = cal.calibrate_gencauchy(1.0, 0.05, 4.0, 1.0)
    assert g.noise_std == pytest.approx(1.0 / g.eta, rel=1e-10)  # Var GenCauchy(4,1) = 1 (004 Sec. 2.1)
    lap = cal.calibrate_laplace_approx(1.0, 1e-5, 0.01)
    assert lap.noise_std == pytest.approx(math.sqrt(2.0) / lap.eta, rel=1e-12)
    pp = cal.calibrate_polyplace(1.0, 0.2)
    assert pp.eta == 0.2 and pp.shape == {"s": 5.0, "alpha": 5.0}
    # 002 Thm. 8: the released noise is PolyPlace(s = 1/gamma, alpha) per unit B
    assert pp.noise.s == 1.0 and pp.noise_std == pytest.approx(pp.noise.std() / 0.2, rel=1e-15)
    assert pp.noise_std == pytest.approx(PolyPlace(5.0, 5.0).std(), rel=1e-12)
    # heavy tails: infinite std, reported as inf, not NaN
    assert cal.calibrate_student_t(1.0, 0.1, 1.5).noise_std == math.inf
    assert cal.calibrate_polyplace(1.0, 0.6).noise_std == math.inf


def test_calibration_older_calibrations_match_printed_claims_16_17():
    # 002 Claims 16, 17 printed closed forms vs noise.std()/eta of the calibration objects
    for eps, gamma, c in [(1.0, 0.05, 4.0), (2.0, 0.1, 6.5), (0.5, 0.01, 3.5)]:
        ours = cal.calibrate_gencauchy_nrs07(eps, gamma, c).noise_std
        assert ours == pytest.approx(cal.std_gencauchy_nrs07_printed(eps, gamma, c), rel=1e-10)
        ours_t = cal.calibrate_student_t_bs19(eps, gamma, c).noise_std
        assert ours_t == pytest.approx(cal.std_student_t_bs19_printed(eps, gamma, c), rel=1e-12)
    lap = cal.calibrate_laplace_nrs07(1.0, 1e-5, 0.02)
    assert lap.noise_std == pytest.approx(cal.std_laplace_nrs07_printed(1.0, 0.02, 1e-5), rel=1e-12)


def test_calibration_default_gamma_uses_budget_split():
    t = cal.calibrate_student_t(1.5, nu=3)
    assert 3 * t.gamma == pytest.approx(1.5 / 3)  # 004 Sec. 5: nu gamma = eps/3
    g = cal.calibrate_gencauchy(1.0, p=4, theta=1, split=0.5)
    assert 3 * g.gamma == pytest.approx(0.5)
    assert cal.calibrate_polyplace(1.0, split=0.25).gamma == pytest.approx(0.25)
    lap = cal.calibrate_laplace_approx(1.0, 1e-6)
    assert lap.gamma * math.log(1e6) == pytest.approx(1.0 / 3)


def test_calibration_dataclass_is_frozen_and_serialisable():
    c = cal.calibrate_student_t(1.0, 0.1, 4.0)
    with pytest.raises(AttributeError):
        c.eps = 2.0  # type: ignore[misc]
    d = c.to_dict()
    assert d["source"] == "004 Lemma 3.5" and d["shape"] == {"nu": 4.0}
    assert cal.calibrate_student_t(1.0, 0.1, 1.5).to_dict()["noise_std"] == "inf"


# ---- validation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: cal.calibrate_student_t(0.0, 0.1), r"eps must be in \(0, inf\)"),
        (lambda: cal.calibrate_student_t(-1.0, 0.1), r"eps must be in \(0, inf\)"),
        (lambda: cal.calibrate_student_t(float("nan"), 0.1), r"eps must be a finite real number"),
        (lambda: cal.calibrate_student_t(float("inf"), 0.1), r"eps must be a finite real number"),
        (lambda: cal.calibrate_student_t(1.0, 0.0), r"gamma must be in \(0, inf\)"),
        (lambda: cal.calibrate_student_t(1.0, -0.1), r"gamma must be in \(0, inf\)"),
        (lambda: cal.calibrate_student_t(1.0, float("nan")), r"gamma must be a finite"),
        (lambda: cal.calibrate_student_t(1.0, 0.3, nu=4), r"gamma must be in \(0, 0.25\).*nu gamma < eps"),
        (lambda: cal.calibrate_student_t(1.0, 0.1, nu=1.0), r"nu must be in \(1.0, inf\)"),
        (lambda: cal.calibrate_student_t(1.0, 0.1, nu=float("inf")), r"nu must be a finite"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.1, p=1.0), r"p must be in \(1.0, inf\)"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.1, p=0.5), r"p must be in \(1.0, inf\)"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.1, p=4, theta=0.9), r"theta must be in \[1, inf\)"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.1, p=4, theta=float("nan")), r"theta must be a finite"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.4, p=4), r"gamma must be in \(0, 0.333.*m max\(1, p theta - 1\) gamma < eps"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.2, p=4, m=2), r"gamma must be in \(0, 0.1666"),
        (lambda: cal.calibrate_gencauchy(1.0, 0.01, p=4, m=0), r"m must be an integer >= 1"),
        (lambda: cal.calibrate_polyplace(1.0, 1.0), r"gamma must be in \(0, eps\) \(002 Thm. 8\); got gamma=1.0, eps=1.0"),
        (lambda: cal.calibrate_polyplace(1.0, 1.5), r"gamma must be in \(0, eps\)"),
        (lambda: cal.calibrate_polyplace(1.0, 0.0), r"gamma must be in \(0, inf\)"),
        (lambda: cal.calibrate_laplace_approx(1.0, 0.0, 0.01), r"delta must be in \(0.0, 1.0\)"),
        (lambda: cal.calibrate_laplace_approx(1.0, 1.0, 0.01), r"delta must be in \(0.0, 1.0\)"),
        (lambda: cal.calibrate_laplace_approx(1.0, float("nan"), 0.01), r"delta must be a finite"),
        (lambda: cal.calibrate_laplace_approx(1.0, 1e-5, 0.1), r"gamma must be in \(0, 0.0868.*gamma ln\(1/delta\) < eps"),
        (lambda: cal.calibrate_laplace_nrs07(1.0, 1e-5, 0.085), r"gamma ln\(2/delta\) < eps"),
        (lambda: cal.calibrate_gencauchy_nrs07(1.0, 0.2, p=4), r"\(p \+ 1\) gamma < eps"),
        (lambda: cal.calibrate_student_t_bs19(1.0, 0.2, nu=4), r"\(nu \+ 1\) gamma < eps"),
        (lambda: cal.calibrate_student_t(1.0, 0.1, metric="gp"),
         r"metric must be one of 'euclidean', 'hamming'; got metric='gp' \(the papers' GP is metric='euclidean'\)"),
        (lambda: cal.calibrate_polyplace(1.0, 0.1, metric="dp"), r"metric must be one of 'euclidean', 'hamming'"),
        (lambda: cal.calibrate_laplace_approx(1.0, 1e-5, 0.01, metric="p-neighbouring"),
         r"metric must be one of 'euclidean', 'hamming'; got metric='p-neighbouring'"),
        (lambda: cal.calibration_table(1.0, metric="gp"), r"metric must be one of 'euclidean', 'hamming'"),
        (lambda: cal.calibrate_student_t(1.0, split=1.0), r"split must be in \(0.0, 1.0\)"),
        (lambda: cal.calibrate("cauchy", 1.0), r"family must be one of"),
        (lambda: cal.calibrate("laplace_gl", 1.0), r"delta must be given"),
        (lambda: cal.calibrate("student_t", 1.0, delta=0.1), r"delta must be None"),
        (lambda: cal.optimise_calibration("student_t", 1.0, gamma=0.1, split=0.3), r"at most one of gamma and split"),
        (lambda: cal.optimise_calibration("student_t", 1.0, gamma=0.5), r"gamma must be < eps/2"),
        (lambda: cal.optimise_calibration("student_t_bs19", 1.0, gamma=0.34), r"gamma must be < eps/3"),
        (lambda: cal.optimise_calibration("gencauchy", 1.0, gamma=0.5), r"gamma must be < eps/\(2 m\)"),
        (lambda: cal.optimise_calibration("gencauchy_nrs07", 1.0, gamma=0.25), r"gamma must be < eps/4"),
        (lambda: cal.std_gencauchy_nrs07_printed(1.0, 0.0, 4.0), r"gamma must be in \(0, inf\)"),
        (lambda: cal.calibration_table(1.0, delta=2.0), r"delta must be in \(0.0, 1.0\)"),
        (lambda: cal.calibration_table(-1.0), r"eps must be in \(0, inf\)"),
    ],
)
def test_calibration_rejects_bad_parameters(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_calibration_rejects_bad_types():
    with pytest.raises(TypeError, match="eps must be a real number"):
        cal.calibrate_student_t("1", 0.1)
    with pytest.raises(TypeError, match="m must be an integer"):
        cal.calibrate_gencauchy(1.0, 0.1, m=1.5)


# ---- the optimiser ------------------------------------------------------------------------------
@settings(max_examples=25)
@given(frac=st.floats(0.002, 0.49), eps=st.floats(0.1, 10.0))
def test_calibration_optimiser_student_t_not_worse_than_fine_grid(frac, eps):
    gamma = frac * eps
    best = cal.optimise_calibration("student_t", eps, gamma=gamma)
    assert best.eps == pytest.approx(eps, rel=1e-12) and best.gamma == gamma
    # fine grid on nu in (2, eps/gamma), std formula = sqrt(nu/(nu-2)) (nu+1) / (2 sqrt(nu) (eps - nu gamma))
    nu = 2.0 + (eps / gamma - 2.0) * np.linspace(1e-5, 1 - 1e-5, 20001)
    grid = np.sqrt(nu / (nu - 2)) * (nu + 1) / (2 * np.sqrt(nu) * (eps - nu * gamma))
    assert best.noise_std <= grid.min() * (1 + 1e-9)
    bs = cal.optimise_calibration("student_t_bs19", eps, gamma=gamma / 1.6)
    nu = 2.0 + (eps / (gamma / 1.6) - 3.0) * np.linspace(1e-5, 1 - 1e-5, 20001)
    grid_bs = [cal.std_student_t_bs19_printed(eps, gamma / 1.6, v) for v in nu[::20]]
    assert bs.noise_std <= min(grid_bs) * (1 + 1e-9)


@settings(max_examples=12)
@given(frac=st.floats(0.005, 0.45))
def test_calibration_optimiser_gencauchy_not_worse_than_fine_grid(frac):
    eps, gamma = 1.0, frac
    best = cal.optimise_calibration("gencauchy", eps, gamma=gamma)
    assert best.eps == pytest.approx(eps, rel=1e-12)
    # independent fine grid in (p, theta): std = sqrt(Var(p, theta)) theta (p-1)^((p-1)/p) / (eps - max(1, p theta-1) gamma)
    P, T = np.meshgrid(np.linspace(1.01, 12.0, 400), np.linspace(1.0, 12.0, 300), indexing="ij")
    rest = eps - np.maximum(1.0, P * T - 1.0) * gamma
    var = gencauchy_variance(P, T)
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.where((rest > 0) & np.isfinite(var), np.sqrt(var) * T * (P - 1) ** ((P - 1) / P) / rest, np.inf)
    assert best.noise_std <= std.min() * (1 + 1e-9)
    p1 = cal.optimise_calibration("gencauchy_nrs07", eps, gamma=frac / 2.0)
    ps = np.linspace(3.0005, eps / (frac / 2.0) - 1.0005, 4000)
    grid = [cal.std_gencauchy_nrs07_printed(eps, frac / 2.0, c) for c in ps]
    assert p1.noise_std <= min(grid) * (1 + 1e-9)


def test_calibration_optimiser_at_split_student_t_is_nu_5():
    # at a split, std = (nu+1)/(2 sqrt(nu-2) (1-split) eps), minimised at nu = 5 (d/dnu = 0 <=> nu - 5 = 0)
    c = cal.optimise_calibration("student_t", 2.0)
    assert c.shape["nu"] == pytest.approx(5.0, rel=1e-6)
    assert c.gamma * c.shape["nu"] == pytest.approx(2.0 / 3.0, rel=1e-12)
    assert c.noise_std == pytest.approx(math.sqrt(3.0) / (2.0 * 2.0 / 3.0), rel=1e-9)


def test_calibration_std_increases_with_gamma_and_limit_is_infimum():
    eps = 1.0
    gammas = np.geomspace(1e-5, 0.3, 7)
    for fam in ("student_t", "gencauchy", "student_t_bs19"):
        stds = [cal.optimise_calibration(fam, eps, gamma=g / (2 if fam == "student_t_bs19" else 1)).noise_std for g in gammas]
        assert np.all(np.diff(stds) > 0), fam
        lim = cal.std_limit_small_gamma(fam, eps)
        assert lim <= stds[0] * (1 + 1e-9)
        assert stds[0] == pytest.approx(lim, rel=2e-2)
    pp = [cal.calibrate_polyplace(eps, g).noise_std for g in gammas]
    assert np.all(np.diff(pp) > 0)
    assert pp[0] == pytest.approx(cal.std_limit_small_gamma("polyplace", eps), rel=1e-4)  # 002 Thm. 8: -> sqrt(2)/eps


# ---- the comparison table -----------------------------------------------------------------------
def test_calibration_table_rows_and_infeasible_rows():
    rows = cal.calibration_table(1.0, delta=1e-5, gamma=1.0 / 9.0)
    by = {r["family"]: r for r in rows}
    assert by["Student t(nu=4)"]["gamma"] == pytest.approx(1.0 / 9.0)
    for r in rows:
        if r["error"]:
            assert r["eta"] is None and r["noise_std"] is None
        else:
            assert r["eps"] == pytest.approx(1.0, rel=1e-12)
    # an explicit gamma = 1/9 > 1/ln(1e5): the Laplace g_L row is infeasible and says why
    assert "gamma ln(1/delta) < eps" in by["Laplace g_L (approx.)"]["error"]
    # the older constant certifies a larger eps at the same (gamma, eta)
    assert by["Student t(nu=4)"]["eps_older"] > 1.0 and by["GenCauchy(p=4, theta=1)"]["eps_older"] > 1.0
    rows2 = cal.calibration_table(1.0, delta=1e-5, gamma=0.01)
    lap = [r for r in rows2 if r["mechanism"] == "laplace_gl"][0]
    assert not lap["error"] and lap["eps_older"] > 1.0
    text = cal.format_calibration_table(rows)
    lines = text.splitlines()
    assert lines[0].startswith("family") and "notes:" in text
    # aligned columns: header and body rows have the same length
    body = lines[: 2 + len(rows)]
    assert len({len(line.rstrip()) for line in body[:2]}) == 1


# ---- Calibration.mechanism(): the calibrated mechanism as one object ----------------------------
def _calibrations():
    """One calibration of every calibrate_* function, under both metrics."""
    for metric in ("euclidean", "hamming"):
        yield cal.calibrate_gencauchy(1.0, 0.05, p=3.0, theta=2.0, m=2, metric=metric)
        yield cal.calibrate_gencauchy(1.0, 0.1, p=4.0, metric=metric)
        yield cal.calibrate_student_t(1.0, 0.1, nu=3.0, metric=metric)
        yield cal.calibrate_laplace_approx(1.0, 1e-3, 0.05, metric=metric)
        yield cal.calibrate_polyplace(1.0, 0.3, metric=metric)
        yield cal.calibrate_gencauchy_nrs07(1.0, 0.05, p=4.0, metric=metric)
        yield cal.calibrate_student_t_bs19(1.0, 0.05, nu=4.0, metric=metric)
        yield cal.calibrate_laplace_nrs07(1.0, 1e-3, 0.05, metric=metric)


def test_calibration_every_function_is_in_the_mechanism_test_list():
    fams = {c.family for c in _calibrations()}
    assert fams == set(cal.FAMILIES)


@pytest.mark.parametrize("c", list(_calibrations()), ids=lambda c: f"{c.family}-{c.metric}")
def test_calibration_mechanism_carries_the_calibrated_parameters(c):
    mech = c.mechanism()
    assert mech.is_abstract and mech.f is None and mech.B is None
    assert mech.eta == c.eta and mech.eps == c.eps and mech.delta == c.delta
    assert mech.noise is c.noise and mech.metric == c.metric and c.metric in ("euclidean", "hamming")
    # growth: g_L for 004 Lemma 3.6, g_E otherwise (004 Sec. 3.1.2), with the calibration's gamma
    assert mech.growth.name == c.growth and mech.growth.gamma == c.gamma
    assert mech.growth.kind == ("linear" if c.family == "laplace_gl" else "exp")
    assert mech.m == int(c.shape.get("m", 1)) and mech.Lambda == math.inf
    assert mech.name == c.family and mech.source == c.source
    assert cal.calibrate_student_t(1.0, 0.1).mechanism(name="x", Lambda=2.0).Lambda == 2.0
    # with a query: the same parameters, and the density is the location-scale formula
    f = lambda x: 2.0 * np.asarray(x, float) - 1.0  # noqa: E731
    B = lambda x: 0.5 + np.asarray(x, float) ** 2  # noqa: E731
    conc = c.mechanism(f, B)
    assert not conc.is_abstract
    via = mech.with_query(f, B)
    for m in (conc, via):
        assert (m.eta, m.eps, m.delta, m.metric, m.m, m.growth) == (mech.eta, mech.eps, mech.delta, mech.metric,
                                                                   mech.m, mech.growth)
    # p_x(y) = (eta/B(x)) h((y - f(x)) eta/B(x)) (004 Lemma 3.3 proof), h the independent mpmath density
    ref = reference_for(c.noise)
    x = np.array([0.0, 0.7, -1.3])
    y = np.array([0.2, -3.0, 11.0])
    got = conc.log_density(x, y)
    with mpmath.workdps(40):
        expected = []
        for xi, yi in zip(x, y, strict=True):
            s = (MP(0.5) + MP(xi) ** 2) / MP(c.eta)
            expected.append(float(ref.logpdf((MP(yi) - (2 * MP(xi) - 1)) / s) - mpmath.log(s)))
    np.testing.assert_allclose(got, expected, rtol=1e-13)
    np.testing.assert_allclose(via.log_density(x, y), got, rtol=0)


def test_calibration_mechanism_rejects_a_paper_word_metric():
    # Calibration.metric is a metric name; a record built by hand with the papers' "gp" is refused
    bad = dataclasses.replace(cal.calibrate_student_t(1.0, 0.1), metric="gp")
    with pytest.raises(ValueError, match=r"metric must be one of 'euclidean', 'hamming'; got metric='gp'"):
        bad.mechanism()


def test_default_table_gives_a_usable_row_for_every_mechanism():
    """`smoothsens calibrate --eps 1 --delta 1e-5`: with the common default gamma = eps/9 the Laplace
    mechanisms are infeasible ((eps/9) ln(1e5) > eps); they get their own default gamma
    (gamma ln(1/delta) = eps/3 for g_L, 004 Lemma 3.6; gamma ln(2/delta) = eps/3 for 002 Claim 18),
    and the row says so."""

    rows = calibration_table(1.0, 1e-5)
    assert all(not r["error"] for r in rows), [r["error"] for r in rows if r["error"]]
    lap = {r["mechanism"]: r for r in rows if r["mechanism"].startswith("laplace")}
    assert set(lap) == {"laplace_gl", "laplace_nrs07"}
    assert lap["laplace_gl"]["gamma"] == pytest.approx(1 / (3 * math.log(1e5)), rel=1e-12)
    assert lap["laplace_nrs07"]["gamma"] == pytest.approx(1 / (3 * math.log(2e5)), rel=1e-12)
    assert all("gamma chosen for this mechanism" in r["note"] for r in lap.values())
    # an explicit infeasible gamma is still reported as infeasible, never silently changed
    rows = calibration_table(1.0, 1e-5, gamma=1 / 9)
    assert {r["mechanism"] for r in rows if r["error"]} == {"laplace_gl", "laplace_nrs07"}
