"""Provenance of the generated evaluators: every numerically rewritten form handed to the code
generator is proven equal to the expression its derivation derived (derivations.codegen.prove_rewrite),
and a wrong rewritten form stops the generator.

References: the derivations themselves (SymPy) and mpmath at >= 50 digits inside prove_rewrite; the
perturbed forms below are hand-made mistakes of the kind a rewrite can introduce (a sign, a swapped
branch, a wrong Stirling coefficient, a 1e-15 offset).
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p

from derivations import codegen
from derivations import gencauchy as gc
from derivations import polyplace as pp
from derivations import stationary_004 as st004
from derivations import student_t as stt
from derivations.codegen import ProvenanceError, loggamma_difference, prove_rewrite

#: Every generated function whose expression is a rewriting of the derived one (the others hand
#: the derived expression itself, or a quoted/printed constant, to the generator).
REWRITTEN = {
    "gencauchy_log_normaliser", "gencauchy_variance", "gencauchy_cdf", "gencauchy4_cdf",
    "student_t_log_normaliser",
    "polyplace_log_normaliser", "polyplace_variance", "polyplace_log_tail_constant", "polyplace_inner_constant",
    "kde_psi", "kde_chi", "kde_log_slope",
}


def test_provenance_checks_run_for_every_rewritten_evaluator():
    codegen.discover_targets()
    missing = REWRITTEN - set(codegen.PROVENANCE)
    assert not missing, missing
    for name in REWRITTEN:
        rec = codegen.PROVENANCE[name]
        assert rec.method.startswith(("symbolic", "mpmath (dps=")), rec
        if rec.method.startswith("mpmath"):
            assert rec.n_points >= 20
            assert int(rec.method.split("dps=")[1].split(",")[0]) >= 50


# ---- a wrong rewritten form raises --------------------------------------------------------------
def _perturbed(monkeypatch, module, name, make):
    original = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: make(original(*a, **k)))


def test_provenance_rejects_offset_student_t_normaliser(monkeypatch):
    # a 1e-15 absolute offset: below float64 resolution of most values, but above the 3.6e-18 truncation bound
    _perturbed(monkeypatch, stt, "numeric_log_normaliser", lambda eb: (eb[0] + sp.Float("1e-15"), eb[1]))
    with pytest.raises(ProvenanceError, match="student_t_log_normaliser"):
        stt.codegen_targets()


def test_provenance_rejects_wrong_stirling_coefficient(monkeypatch):
    # B_2/2 = 1/12 replaced by 1/11 in Binet's series: wrong only in the large-theta branch
    _perturbed(monkeypatch, gc, "numeric_log_normaliser",
               lambda eb: (eb[0].subs(sp.Rational(1, 12), sp.Rational(1, 11)), eb[1]))
    with pytest.raises(ProvenanceError, match="gencauchy_log_normaliser"):
        gc.codegen_targets()


def test_provenance_rejects_swapped_cdf_branch(monkeypatch):
    # the complement branch with the Beta shapes swapped (I_t(theta - 1/p, 1/p) instead of I_t(1/p, theta - 1/p))
    def swap(expr):
        return expr.replace(lambda e: isinstance(e, sp.betainc_regularized) and e.args[3] == 1,
                            lambda e: sp.betainc_regularized(e.args[1], e.args[0], e.args[2], 1))

    _perturbed(monkeypatch, gc, "numeric_cdf", swap)
    with pytest.raises(ProvenanceError, match="gencauchy_cdf"):
        gc.codegen_targets()


def test_provenance_rejects_c1_tail_with_sign_error(monkeypatch):
    # atan2(sqrt2 q, 1 - q^2) - atanh(...) instead of + atanh: the printed H with a sign typo
    _perturbed(monkeypatch, gc, "numeric_cdf_p4", lambda e: e.replace(sp.atanh, lambda x: -sp.atanh(x)))
    with pytest.raises(ProvenanceError, match="gencauchy4_cdf"):
        gc.codegen_targets()


def test_provenance_rejects_wrong_w_branch(monkeypatch):
    # ln W = ln(alpha - 1) - ln(alpha + 1) on alpha < 2: a plausible typo in the alpha -> 1+ branch
    a = pp.ALPHA
    bad_log_w = sp.Piecewise((sp.log(a - 1) - sp.log(a + 1), a < 2), (log1p(-1 / a), True))
    monkeypatch.setattr(pp, "w_numeric", sp.exp(a * bad_log_w))
    monkeypatch.setattr(pp, "_LOG_W", bad_log_w)
    with pytest.raises(ProvenanceError, match="polyplace_log_normaliser"):
        pp.codegen_targets()


def test_provenance_rejects_chi_with_sign_error(monkeypatch):
    a, b = st004._A, st004._B
    monkeypatch.setattr(st004, "numeric_chi", lambda: a * (a - b) + expm1((a - b) * (a + b) / 2))
    with pytest.raises(ProvenanceError, match="kde_chi"):
        st004.codegen_targets()


def test_provenance_rejects_psi_series_with_a_wrong_term(monkeypatch):
    # the u^3/3 term of the log1p series as u^3/4: only visible in the series branch (|u| < 1/10)
    _perturbed(monkeypatch, st004, "numeric_psi", lambda eb: (eb[0].subs(sp.Rational(1, 3), sp.Rational(1, 4)), eb[1]))
    with pytest.raises(ProvenanceError, match="kde_psi"):
        st004.codegen_targets()


def test_provenance_rejects_log_slope_with_wrong_sign(monkeypatch):
    a, b = st004._A, st004._B
    monkeypatch.setattr(st004, "numeric_log_slope",
                        lambda: -expm1((a - b) * (a + b) / 2 - sp.log(b / a)) / (a - b))
    with pytest.raises(ProvenanceError, match="kde_log_slope"):
        st004.codegen_targets()


# ---- the checker itself ---------------------------------------------------------------------------
def test_prove_rewrite_accepts_exact_symbolic_rewrite_and_rejects_wrong_one():
    x = sp.Symbol("x", positive=True)
    ok = prove_rewrite("unit_log1p", log1p(x), sp.log(1 + x), {"x": (1e-9, 10.0)}, log_args=("x",))
    assert ok == log1p(x)
    assert codegen.PROVENANCE["unit_log1p"].method.startswith("symbolic")
    with pytest.raises(ProvenanceError, match="unit_bad"):
        prove_rewrite("unit_bad", log1p(x) + x**7 * sp.Rational(1, 10**20), sp.log(1 + x), {"x": (1e-9, 10.0)},
                      log_args=("x",), symbolic=False)


def test_prove_rewrite_holds_truncated_series_to_the_stated_bound():
    # exp(x) - 1 - x by its series to x^6 on |x| < 1/10: remainder <= |x|^7/7! e^(1/10) < 2.2e-11;
    # accepted with that bound, rejected with a bound 1000 times smaller
    x = sp.Symbol("x", real=True)
    series = sum(x**k / sp.factorial(k) for k in range(2, 7))
    bound = sp.Abs(x) ** 7 / sp.factorial(7) * sp.exp(sp.Rational(1, 10))
    prove_rewrite("unit_series", series, sp.exp(x) - 1 - x, {"x": (-0.1, 0.1)}, abs_bound=bound, symbolic=False)
    with pytest.raises(ProvenanceError):
        prove_rewrite("unit_series_tight", series, sp.exp(x) - 1 - x, {"x": (-0.1, 0.1)}, abs_bound=bound / 1000,
                      symbolic=False, edges=[{"x": -0.0999}, {"x": 0.0999}])


def test_prove_rewrite_refuses_too_little_evidence():
    x = sp.Symbol("x", positive=True)
    with pytest.raises(ValueError, match="dps >= 50"):
        prove_rewrite("unit_lowdps", x, x, {"x": (1.0, 2.0)}, dps=30)
    with pytest.raises(ValueError, match="no domain"):
        prove_rewrite("unit_nodomain", x, x, {})


def test_stirling_truncation_bound_is_honest_at_the_switch_point():
    """loggamma_difference switches to Stirling at y = 10, where the truncation is largest: the
    measured error there (mpmath, 60 digits) is below the stated bound, and the bound is the
    first omitted term of Binet's series (k = 9) doubled (two series)."""
    x, y, a = sp.symbols("x y a", positive=True)
    for av in ("0.02", "0.5", "2"):
        A = mpmath.mpf(av)
        exact, numeric, bound = loggamma_difference(y + A, y, A)
        f_num = sp.lambdify(y, numeric, modules=[{"log1p": mpmath.log1p}, "mpmath"])
        with mpmath.workdps(60):
            Y = mpmath.mpf(10)
            err = abs(f_num(Y) - (mpmath.loggamma(Y + A) - mpmath.loggamma(Y)))
            first_omitted = abs(mpmath.bernoulli(18)) / (18 * 17 * Y**17)
        assert err <= bound
        assert bound == pytest.approx(2 * float(first_omitted), rel=1e-12)
