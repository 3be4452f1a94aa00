"""Derivations of the 004 Sec. 4 stationary-point sets (derivations/stationary_004.py) and the
generated evaluators they produce (smoothsens_core/_generated/stationary_004.py).

References: SymPy (exact) for the derivatives, mpmath at 50 digits (findroot / bisection of the
defining equation phi_0 = 0) for the series and the generated evaluators."""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import stationary_004 as S
from smoothsens_core._generated import stationary_004 as G
from verify.reference.search import bisect_sign_change


def test_stationary_lemma_4_1_v0_is_a_minimum_and_proof_typos_found():
    r = S.derive_lemma_4_1()
    assert sp.simplify(r["v0"] - 1 / S.gamma) == 0 and r["v0_is_minimum"]
    verdicts = {c.name: c.agree for c in r["comparisons"]}
    assert verdicts["Lemma 4.1 proof: d phi/dv"] and verdicts["Lemma 4.1 proof: stationary point v0"]
    assert verdicts["Lemma 4.1 statement: (1/tau) e^{-gamma(|x-T| - tau/2)}"]
    assert not verdicts["Lemma 4.1 proof: phi(tau)"] and not verdicts["Lemma 4.1 Note: S_3 candidate"]


def test_stationary_bounded_range_c3_matches_derived_candidates():
    r = S.derive_bounded_range_c3()
    assert all(c.agree for c in r["comparisons"])
    assert sp.simplify(r["critical"][0] - (1 / S.gamma - S.W)) == 0
    # the denominator (e + W) e^{gamma(d - e)} has a maximum there: the objective has a minimum
    assert sp.simplify(r["second_derivative_at_critical"]).is_negative


def test_stationary_a4_partial_derivatives_equal_printed():
    r = S.derive_kde_partials()
    assert [c.agree for c in r["comparisons"]] == [True, True, True, True]


def test_stationary_kde_sets_errata_detected():
    r = S.derive_kde_sets(n_points=3)
    v = {c.name: c.agree for c in r["comparisons"]}
    assert not v["Lemma 4.6 statement: phi_0 (E1)"]
    assert v["Lemma 4.6: phi_1(-gamma) (root of eq. (4), c_z > 1)"]
    assert not v["Lemma 4.6 statement: S_2 objective (E2)"]
    assert not v["Lemma 4.7 statement: S_1 objective (E3)"]
    # Lemma 4.7 S_2 (Lambert W) is right: residual and objective derivative vanish at 50 digits
    assert abs(float(r["lambert_w"]["residual_mpmath"])) < 1e-45
    assert abs(float(r["lambert_w"]["objective_derivative_at_l_w"])) < 1e-40
    # E4: at the printed S_1 pairs the true partial derivative in c_z is far from 0
    assert not r["e4"]["printed_pairs_are_stationary"]
    assert r["e4"]["min_abs_true_derivative_at_printed_pairs"] > 1e-3


def _alpha_mp(b):
    """Non-trivial root a of e^{-b^2/2} = (1 + a(a - b)) e^{-a^2/2} by 200-step bisection (mpmath)."""
    f = lambda a: mpmath.exp(-(b - a) * (b + a) / 2) - (1 + a * (a - b))  # noqa: E731
    lo, hi = (mpmath.mpf(1), mpmath.mpf(2)) if b < 1 else (mpmath.mpf("1e-30"), mpmath.mpf(1))
    flo = f(lo)
    assert flo * f(hi) < 0
    return bisect_sign_change(f, lo, hi, flo, halvings=200)


@pytest.mark.parametrize("e", [-1e-3, -3e-4, 1e-4, 1e-3])
def test_stationary_series_at_triple_root_matches_mpmath(e):
    ser = S.derive_kde_series()
    with mpmath.workdps(50):
        b = 1 + mpmath.mpf(e)
        a = _alpha_mp(b)
        ell = (mpmath.exp(-a**2 / 2) - mpmath.exp(-b**2 / 2)) / (b - a)
        D = (-a * mpmath.exp(-a**2 / 2) + b * mpmath.exp(-b**2 / 2)) / ((a - b) * (-a * mpmath.exp(-a**2 / 2)))
    assert float(ser["alpha"].subs(S.e_, e)) == pytest.approx(float(a), rel=1e-15)
    assert float(G.kde_ell_series(e)) == pytest.approx(float(ell), rel=1e-15)
    assert float(G.kde_log_slope_series(e)) == pytest.approx(float(D), rel=1e-9)  # O(e^4)/e relative


@settings(max_examples=25)
@given(a=st.floats(0.05, 1.55), b=st.floats(0.05, 1.9))
def test_stationary_generated_psi_matches_mpmath(a, b):
    with mpmath.workdps(30):
        A, B = mpmath.mpf(a), mpmath.mpf(b)
        ref = mpmath.log1p(A * (A - B)) - A * (A - B) + (A - B) ** 2 / 2
    assert float(G.kde_psi(a, b)) == pytest.approx(float(ref), rel=1e-12)


@settings(max_examples=25)
@given(a=st.floats(0.01, 1.0), b=st.floats(2.0, 40.0))
def test_stationary_generated_chi_matches_mpmath(a, b):
    with mpmath.workdps(30):
        A, B = mpmath.mpf(a), mpmath.mpf(b)
        ref = 1 + A * (A - B) - mpmath.exp((A - B) * (A + B) / 2)
    assert float(G.kde_chi(a, b)) == pytest.approx(float(ref), rel=1e-12)


@settings(max_examples=25)
@given(b=st.floats(0.05, 0.9))
def test_stationary_generated_log_slope_at_partner_matches_mpmath(b):
    with mpmath.workdps(50):
        a = _alpha_mp(mpmath.mpf(b))
        k = lambda u: mpmath.exp(-u**2 / 2)  # noqa: E731
        ref = (-a * k(a) + b * k(b)) / ((a - b) * (-a * k(a)))
    assert float(G.kde_log_slope(float(a), b)) == pytest.approx(float(ref), rel=1e-12)


def test_stationary_codegen_targets_declare_domains():
    (mod,) = S.codegen_targets()
    assert mod.module == "stationary_004"
    names = sorted(f.name for f in mod.functions)
    assert names == ["kde_chi", "kde_ell_series", "kde_log_slope", "kde_log_slope_series", "kde_psi"]
    for f in mod.functions:
        assert set(f.domain) == {a.name for a in f.args}
        assert "004" in f.doc or "phi_0" in f.doc or "ell" in f.doc
    assert math.isclose(float(G.kde_ell_series(0.0)), math.exp(-0.5), rel_tol=1e-16)
