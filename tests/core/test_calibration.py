"""smoothsens_core.calibration: printed eps formulas, inverses, validation, shape optimiser."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothsens_core import calibration as cal
from smoothsens_core._generated import calibration as gen


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


def test_calibration_private_formulas_match_generated():
    rng = np.random.default_rng(3)
    g, e = rng.uniform(0.001, 2.0, 50), rng.uniform(0.001, 5.0, 50)
    p, th, nu = rng.uniform(1.01, 10, 50), rng.uniform(1.0, 5.0, 50), rng.uniform(1.01, 30, 50)
    d = rng.uniform(1e-12, 0.9, 50)
    np.testing.assert_allclose(cal._eps_gencauchy_gp(g, e, p, th, 3), gen.eps_gencauchy_gp(g, e, p, th, 3), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_student_t_gp(g, e, nu), gen.eps_student_t_gp(g, e, nu), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_gencauchy_nrs07(g, e, p), gen.eps_gencauchy_nrs07(g, e, p), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_student_t_bs19(g, e, nu), gen.eps_student_t_bs19(g, e, nu), rtol=1e-13)
    np.testing.assert_allclose(cal._eps_laplace_gl(g, e, d), gen.eps_laplace_gl(g, e, d), rtol=1e-13)
    eps = e + 1.0
    np.testing.assert_allclose(cal._delta_laplace_gl(g, e, eps), gen.delta_laplace_gl(g, e, eps), rtol=1e-12)


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
        # the certified eps is the formula re-evaluated at the returned parameters
        if c.family == "gencauchy":
            again = cal._eps_gencauchy_gp(c.gamma, c.eta, p, theta, m)
        elif c.family == "student_t":
            again = cal._eps_student_t_gp(c.gamma, c.eta, nu)
        elif c.family == "laplace_gl":
            again = cal._eps_laplace_gl(c.gamma, c.eta, delta)
        elif c.family == "polyplace":
            again = c.shape["alpha"] / c.shape["s"]
        elif c.family == "gencauchy_nrs07":
            again = cal._eps_gencauchy_nrs07(c.gamma, c.eta, p)
        elif c.family == "student_t_bs19":
            again = cal._eps_student_t_bs19(c.gamma, c.eta, nu)
        else:
            again = cal._eps_laplace_nrs07(c.gamma, c.eta, delta)
        assert float(again) == pytest.approx(eps, rel=1e-12)


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
    from smoothsens_core.distributions import PolyPlace

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
        (lambda: cal.calibrate_student_t(1.0, 0.1, metric="hamming"), r"metric must be 'gp' or 'dp'"),
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
    from smoothsens_core._generated.noise import gencauchy_variance

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
    rows = cal.calibration_table(1.0, delta=1e-5)
    by = {r["family"]: r for r in rows}
    assert by["Student t(nu=4)"]["gamma"] == pytest.approx(1.0 / 9.0)
    for r in rows:
        if r["error"]:
            assert r["eta"] is None and r["noise_std"] is None
        else:
            assert r["eps"] == pytest.approx(1.0, rel=1e-12)
    # gamma = 1/9 > 1/ln(1e5): the Laplace g_L row is infeasible and says why
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
