"""kde.py's series branches (step (v)): the Taylor-model proof of verify.proof.kde_series, its
re-check (and rejection of edited records), planted series refuted at certified points (checked again by
mpmath from phi_0), kde.py's floats against the exact functions solved by mpmath at 50 digits, and the claim
004-KDE-series-proof."""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

pytest.importorskip("flint")

from smoothsens_core.sensitivity import kde  # noqa: E402
from verify.claims import CheckContext, Verdict, load_registry  # noqa: E402
from verify.claims.sets.proofs import recheck_evidence  # noqa: E402
from verify.proof import kde_series as K  # noqa: E402
from verify.proof.record import method_named, registered_methods  # noqa: E402


@pytest.fixture(scope="module")
def record():
    rec = K.prove()
    assert rec["status"] == "proven", rec["problems"]
    return json.loads(json.dumps(rec))


# ------------------------------------------------------------------------------------------------
# exact functions from the definitions, by mpmath (independent of the curve parametrisation)
# ------------------------------------------------------------------------------------------------
def _mp_alpha(b, guess):
    """The root a != b of phi_0(a, b) = 0 (psi = ln(1 + a(a - b)) + (b^2 - a^2)/2 divided by its double zero
    (a - b)^2 at a = b), from a guess; at the current mpmath precision."""
    def f(a):
        return (mpmath.log1p(a * (a - b)) + (b - a) * (b + a) / 2) / (a - b) ** 2
    x0, w = mpmath.mpf(guess), abs(b - 1) / 4  # the trivial root a = b is 1.5 |b - 1| away
    a = mpmath.findroot(f, (x0 - w, x0 + w), solver="anderson")
    assert abs(a - b) > abs(b - 1) / 4 and abs(f(a)) < mpmath.mpf(10) ** (-30)
    return a


def _mp_D(b, a):
    def kp(u):
        return -u * mpmath.exp(-u * u / 2)
    return (kp(a) - kp(b)) / ((a - b) * kp(a))


def _mp_exact(e):
    """(alpha, ell, D) at b = 1 + e (e an exact double) at 50 digits."""
    with mpmath.workdps(50):
        b = 1 + mpmath.mpf(e)
        a = _mp_alpha(b, 1 - e / 2 + 3 * e**2 / 32)
        return a, a * mpmath.exp(-a * a / 2), _mp_D(b, a)


def _mp_root(g, sign):
    """b1 (sign +1: D(b) = g, b < 1) or b2 (sign -1: D(b) = -g, b > 1) at 50 digits."""
    with mpmath.workdps(50):
        g = mpmath.mpf(g)

        def F(b):
            e = b - 1
            return _mp_D(b, _mp_alpha(b, 1 - e / 2 + 3 * e**2 / 32)) - sign * g
        b = mpmath.findroot(F, 1 - sign * 2 * g)
        assert (b < 1) if sign > 0 else (b > 1)
        return b


# ------------------------------------------------------------------------------------------------
# the proof
# ------------------------------------------------------------------------------------------------
def test_the_proof_closes_with_the_stated_bounds(record):
    assert all(record["window"].values())
    assert all(record["curve_identities"].values())
    for name, (m, Kst) in K.STATED.items():
        br = record["branches"][name]
        assert br["ok"] and br["order"] == m
        assert Fraction(br["K"]) <= Kst
        assert all(Fraction(c) == 0 for c in br["coefficients"][:m])
    for key, (m, Kst) in K.STATED_DERIVED.items():
        assert record["derived"][key]["ok"] and Fraction(record["derived"][key]["K"]) <= Kst
    # the numbers the report states: ell below 1 ulp, alpha about 10 ulp, roots ~ g^3
    assert K.STATED["ell"][1] * K.E_MAX**5 < Fraction(1, 2**53)
    assert K.STATED["alpha"][1] * K.E_MAX**4 < 11 * Fraction(1, 2**52)
    assert K.STATED["b1"][1] * K.G_MAX**3 <= Fraction(2, 10**18)


def test_exact_coefficients_agree_with_sympy_series_and_the_derivation():
    """The Fraction arithmetic of the prover = SymPy series of the closed forms (the re-checker's route), and
    the proven series are the truncations of derivations.stationary_004.derive_kde_series."""
    import sympy as sp

    from derivations.stationary_004 import derive_kde_series

    ex = K.exact_errors()
    sym = K._sympy_coefficients(K.SERIES)
    for name in ("alpha", "ell", "D", "b1", "b2"):
        assert list(ex[name]) == sym[name], name
    der = derive_kde_series()
    e = sp.Symbol("e")
    es = [s for s in der["alpha"].free_symbols][0]
    for name, key, scale in (("alpha", "alpha", 1), ("ell", "ell", sp.exp(sp.Rational(1, 2))), ("D", "D", 1)):
        poly = sp.Poly(sp.expand(der[key] * scale).subs(es, e), e)
        coeffs = [Fraction(str(poly.coeff_monomial(e**k))) for k in range(len(K.SERIES[name]))]
        assert coeffs == list(K.SERIES[name]), name
    # alpha's first dropped term is the e^4 term of the derivation: -93/40960, and the proven K is within 1%
    a4 = Fraction(str(sp.Poly(der["alpha"].subs(es, e), e).coeff_monomial(e**4)))
    assert a4 == Fraction(-93, 40960)
    assert abs(a4) <= Fraction(K.prove()["branches"]["alpha"]["K"]) <= abs(a4) * Fraction(101, 100)


def test_core_domain_is_inside_the_proven_one():
    dom = K.core_domain()
    assert dom["ok"] and dom["e_ok"] and dom["g_ok"]
    # the g < 1e-6 literal is the one kde.py uses: just below the cut-off is the series, at it brentq
    g = float(np.nextafter(K.CORE_G_CUTOFF, 0.0))
    b1, b2 = kde._stationary_radii(g)
    assert b1 == 1.0 - 2 * g + 5 * g * g / 4 and b2 == 1.0 + 2 * g + 5 * g * g / 4


# ------------------------------------------------------------------------------------------------
# re-check
# ------------------------------------------------------------------------------------------------
def test_recheck_accepts_the_record_and_rejects_edits(record):
    rc = K.recheck(record, claim_id=K.CLAIM)
    assert rc.ok, rc.problems
    edits = []
    r = copy.deepcopy(record)
    r["branches"]["ell"]["stated_K"] = "1/1000"
    edits.append(r)
    r = copy.deepcopy(record)
    r["branches"]["alpha"]["coefficients"][4] = "1/69120"
    edits.append(r)
    r = copy.deepcopy(record)
    r["branches"]["b1"]["K"] = "1/10"
    r["series"]["b1"][2] = "0"
    edits.append(r)
    for r in edits:
        rc = K.recheck(r, claim_id=K.CLAIM)
        assert not rc.ok and rc.problems


def test_recheck_rejects_a_record_with_another_domain_or_method(record):
    r = copy.deepcopy(record)
    r["domain"] = r["domain"].replace("1/1000", "1/100")
    r["method"] = "interval"
    rc = K.recheck(r, claim_id=K.CLAIM)
    assert not rc.ok and any("domain" in p for p in rc.problems) and any("method" in p for p in rc.problems)


# ------------------------------------------------------------------------------------------------
# planted series: not proven, refuted at a certified point, the point confirmed by mpmath from phi_0
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,branch", [("ell-e4+1e-3", "ell"), ("ell-drop-e4", "ell"),
                                         ("alpha-drop-e3", "alpha"), ("b1-drop-g2", "b1")])
def test_planted_series_fail_and_are_refuted(kind, branch):
    planted = K.planted(kind)
    rec = K.prove(planted)
    assert rec["status"] == "open" and any(p.startswith(branch) for p in rec["problems"])
    pt = K.refute(planted)
    assert pt is not None and pt["branch"] == branch and pt["error_lower"] > pt["bound_upper"]
    m, Kst = K.STATED[branch]
    if branch in ("ell", "alpha"):
        e = pt["e"]  # an upper end of the certified |e| ball (close to e(s_j))
        assert abs(e) <= 1e-3
        with mpmath.workdps(50):
            a, ell, _ = _mp_exact(e)
            x = mpmath.mpf(e)
            poly = sum(mpmath.mpf(c.numerator) / c.denominator * x**k for k, c in enumerate(planted[branch]))
            err = abs(poly * mpmath.exp(-0.5) / ell - 1) if branch == "ell" else abs(poly - a)
            assert err > float(Kst) * abs(e) ** m * 2
    else:
        g = pt["g"]
        assert 0 < g <= 1e-6
        b1 = _mp_root(g, +1)
        with mpmath.workdps(50):
            x = mpmath.mpf(g)
            poly = sum(mpmath.mpf(c.numerator) / c.denominator * x**k for k, c in enumerate(planted["b1"]))
            assert abs(poly - b1) > float(Kst) * g**m * 2


def test_the_unplanted_series_has_no_refutation():
    assert K.refute(K.SERIES) is None


# ------------------------------------------------------------------------------------------------
# kde.py's floats against the exact functions (mpmath, 50 digits): proven bound + float rounding
# ------------------------------------------------------------------------------------------------
def test_core_floats_agree_with_the_exact_functions_to_the_proven_bound():
    rng = np.random.default_rng(7)
    b = 1.0 + np.concatenate([rng.uniform(-1e-3, 1e-3, 300), [1 - 2**-40, 1 + 2**-40]])
    b = np.concatenate([b, [1.0 + 0.000999999, 1.0 - 0.000999999]])
    b = b[np.abs(b - 1.0) < kde._SERIES]
    alpha, ell, D = kde.kde_chord_partner(b), kde.kde_chord_slope(b), kde._log_slope(b)
    ulps = 4
    worst = {"alpha": 0.0, "ell": 0.0, "D": 0.0}
    for bi, ai, li, di in zip(b, alpha, ell, D):
        e = float(bi - 1.0)
        a, l, d = _mp_exact(e)
        ka, kl, kd = (float(K.STATED[n][1]) for n in ("alpha", "ell", "D"))
        tol_a = ka * e**4 + ulps * math.ulp(float(ai))
        tol_l = kl * abs(e) ** 5 * float(l) + ulps * math.ulp(float(li))
        tol_d = kd * e**4 + ulps * math.ulp(float(di))
        assert abs(float(ai) - a) <= tol_a, (e, float(ai - a))
        assert abs(float(li) - l) <= tol_l, (e, float(li - l))
        assert abs(float(di) - d) <= tol_d, (e, float(di - d))
        worst["alpha"] = max(worst["alpha"], float(abs(ai - a)) / (ka * 1e-12))
        worst["ell"] = max(worst["ell"], float(abs(li - l)) / math.ulp(float(li)))
        worst["D"] = max(worst["D"], float(abs(di - d)) / (kd * 1e-12))
    # the alpha error is the truncation (~93/40960 e^4 at the edge), not rounding: the bound is nearly attained
    assert worst["alpha"] > 0.5
    assert worst["ell"] <= ulps


def test_core_small_g_roots_agree_with_the_exact_roots():
    rng = np.random.default_rng(11)
    gs = np.concatenate([10.0 ** rng.uniform(-12, -6, 30), [float(np.nextafter(1e-6, 0.0))]])
    for g in gs:
        b1, b2 = kde._stationary_radii(float(g))
        for sign, bc in ((+1, b1), (-1, b2)):
            ex = _mp_root(float(g), sign)
            tol = float(K.STATED["b1"][1]) * g**3 + 2 * math.ulp(1.0)
            assert abs(bc - ex) <= tol, (g, sign, float(bc - ex))


def test_the_series_exact_error_is_below_the_bound_at_the_branch_edges():
    """At e = +-1e-3 (mpmath, exact polynomial, no float rounding) the truncation errors are below the proven
    bounds and of their size (the bounds are not loose by orders of magnitude)."""
    for e in (1e-3, -1e-3):
        a, l, d = _mp_exact(e)
        with mpmath.workdps(50):
            x = mpmath.mpf(e)

            def P(name):
                return sum(mpmath.mpf(c.numerator) / c.denominator * x**k for k, c in enumerate(K.SERIES[name]))
            ea, el, ed = abs(P("alpha") - a), abs(P("ell") * mpmath.exp(-0.5) / l - 1), abs(P("D") - d)
            for err, name in ((ea, "alpha"), (el, "ell"), (ed, "D")):
                m, Kst = K.STATED[name]
                bound = float(Kst) * abs(e) ** m
                assert bound / 10 < err <= bound, (name, float(err), bound)


# ------------------------------------------------------------------------------------------------
# the claim
# ------------------------------------------------------------------------------------------------
def test_the_claim_is_verified_proven_and_rechecks_through_the_method_registry():
    assert K.METHOD == "kde-series" and "kde-series" in registered_methods()
    assert type(method_named("kde-series")) is K.KdeSeriesMethod
    c = load_registry().get("004-KDE-series-proof")
    assert "proof" in c.tags
    res = c.check(CheckContext(seed=1, budget=0.1, dps=30))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    assert res.evidence["planted_control"]["caught"] and res.evidence["core_floats"]["ok"]
    rc = recheck_evidence(res.evidence, claim_id="004-KDE-series-proof")
    assert rc.ok, rc.problems


def test_the_claim_is_refuted_when_a_series_is_wrong(monkeypatch):
    monkeypatch.setattr(K, "SERIES", K.planted("ell-e4+1e-3"))
    c = load_registry().get("004-KDE-series-proof")
    res = c.check(CheckContext(seed=1, budget=0.1, dps=30))
    assert res.verdict is Verdict.REFUTED, res.summary
    assert res.evidence["counterexample"]["branch"] == "ell"
