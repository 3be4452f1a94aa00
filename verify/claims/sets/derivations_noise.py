"""Claims of the SymPy derivations (noise distributions and privacy constants).

Each claim compares the paper's printed closed form with the SymPy derivation of
:mod:`derivations` (symbolically, else mpmath at 50 digits at >= 20 random points) AND checks the
derivation against the definition computed independently (mpmath quadrature of the density,
numerical differentiation, brute-force suprema).  Verdicts:

VERIFIED      printed == derived, and derived agrees with the definition;
ERRATUM       printed != derived, derived agrees with the definition (evidence: printed,
              corrected, points and values);
INCONCLUSIVE  the derivation disagrees with the definition (a bug to fix, never hidden).

The generated evaluators (``smoothsens_core/_generated``) evaluate the derived forms; the claim
``code`` fields point at them.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import mpmath

from derivations import gencauchy as gc
from derivations import polyplace as pp
from derivations import privacy_loss as pl
from derivations import student_t as st
from derivations.comparison import Comparison
from verify.claims import CheckContext, ClaimResult, Verdict, claim
from smoothsens_core.distributions import GenCauchy, StudentT
from verify.claims.evidence import derivation_verdict, reference_check
from verify.reference.search import grid_golden_max
from verify.reference.distributions import (
    gencauchy_pdf,
    laplace_pdf,
    polyplace_pdf,
    polyplace_variance_printed,
    reference_for,
    student_t_pdf,
)
from derivations.comparison import to_mpmath


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def _uniform(rng, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _sampled_rows(ctx: CheckContext, salt: str, n: int, row: Callable[[Any], dict[str, Any]], *, dps: int = 30,
                  minimum: int = 3) -> list[dict[str, Any]]:
    """The rows of a reference check at random points: ``row(rng)`` (one row {point..., 'derived': v,
    'definition': w}, drawing its point from ``rng``) called ``ctx.scaled(n, minimum)`` times inside
    ``mpmath.workdps(dps)``, with ``rng = ctx.rng(salt)``."""
    rng, k = ctx.sample(salt, n, minimum)
    with mpmath.workdps(dps):
        return [row(rng) for _ in range(k)]


def _sampled_verdict(ctx: CheckContext, cmps: Sequence[Comparison], salt: str, n: int,
                     row: Callable[[Any], dict[str, Any]], check: str, tol: float, *, dps: int = 30, minimum: int = 3,
                     **verdict: Any) -> ClaimResult:
    """:func:`derivation_verdict` of the comparisons ``cmps`` and one reference check named ``check``
    (tolerance ``tol``) on the rows of :func:`_sampled_rows` (``salt``, ``n``, ``row``, ``dps``,
    ``minimum``); ``verdict`` goes to :func:`derivation_verdict` (what, precision, extra)."""
    rows = _sampled_rows(ctx, salt, n, row, dps=dps, minimum=minimum)
    return derivation_verdict(cmps, [reference_check(check, rows, tol)], **verdict)


def _gencauchy_cdf_quad(z: Any, p: Any, theta: Any) -> Any:
    """CDF of GenCauchy(0,1,p,theta) by quadrature of the reference density (the definition):
    F(z) = 1/2 + sgn(z) int_0^|z| h, by symmetry (verify.reference.distributions)."""
    ref = reference_for(GenCauchy(float(p), float(theta)))
    z = mpmath.mpf(z)
    return mpmath.mpf(1) / 2 + (ref.integrate(0, z) if z >= 0 else -ref.integrate(z, 0))


# ---------------------------------------------------------------------------------------------
# 002: PolyPlace
# ---------------------------------------------------------------------------------------------
@claim("002-Def-6-normalisation")
def check_def6(ctx: CheckContext) -> ClaimResult:
    _, cmp = pp.derive_normaliser()

    def row(rng: Any) -> dict[str, Any]:
        s, a = _uniform(rng, 0.2, 5.0), _uniform(rng, 1.05, 30.0)
        mass = mpmath.quad(lambda x: polyplace_pdf(x, s, a), [-mpmath.inf, -s / a, 0, s / a, mpmath.inf])
        return {"s": s, "alpha": a, "derived": 1.0, "definition": mass}

    return _sampled_verdict(ctx, [cmp], "002-def6", 10, row, "quadrature of the density with the derived N", 1e-20,
                            what="002 Def. 6 normaliser", precision="symbolic; quadrature at 30 digits")


@claim("002-Lemma-7")
def check_lemma7(ctx: CheckContext) -> ClaimResult:
    forms, cmps = pp.derive_antiderivatives()
    rng, n = ctx.sample("002-lemma7", 10, 3)
    i1 = to_mpmath(forms["I1"], (pp.ALPHA, pp.X))
    i2 = to_mpmath(forms["I2"], (pp.ALPHA, pp.X))
    rows1, rows2 = [], []
    with mpmath.workdps(30):
        for _ in range(n):
            a = _uniform(rng, 1.05, 30.0)
            lo, hi = 0, 1 / mpmath.mpf(a)
            q1 = mpmath.quad(lambda x, a=a: polyplace_pdf(x, 1, a), [lo, hi])
            rows1.append({"alpha": a, "derived": i1(a, hi) - i1(a, lo), "definition": q1})
            q2 = mpmath.quad(lambda x, a=a: polyplace_pdf(x, 1, a), [hi, mpmath.inf])
            rows2.append({"alpha": a, "derived": -i2(a, hi), "definition": (q2)})
    return derivation_verdict(cmps, [reference_check("I1 increments vs quadrature of branch 1", rows1, 1e-20),
                           reference_check("I2 increments vs quadrature of branch 2", rows2, 1e-20)],
                    what="002 Lemma 7 / App. A antiderivatives", precision="symbolic; quadrature at 30 digits")


def _numdiff_logs(x: float, s: float, a: float) -> tuple[Any, Any]:
    """Numerical shift and scale log-derivatives of the PolyPlace density (mpmath.diff)."""
    shift = mpmath.diff(lambda t: mpmath.log(polyplace_pdf(x + t, s, a)), 0)
    scale = mpmath.diff(lambda t: mpmath.log(polyplace_pdf(x, mpmath.exp(t / s) * s, a)), 0)
    return shift, scale


@claim("002-Lemma-10")
def check_lemma10(ctx: CheckContext) -> ClaimResult:
    forms, cmps = pp.derive_log_derivatives()
    fs = {k: to_mpmath(v, (pp.S, pp.ALPHA, pp.X)) for k, v in forms.items()}
    rng, n = ctx.sample("002-lemma10", 12, 4)
    rows_shift, rows_scale = [], []
    with mpmath.workdps(30):
        for i in range(n):
            s, a = _uniform(rng, 0.3, 4.0), _uniform(rng, 1.1, 20.0)
            t = _uniform(rng, 0.05, 0.95) if i % 2 == 0 else _uniform(rng, 1.05, 20.0)
            x = s * t / a
            br = "1" if t < 1 else "2"
            sh, sc = _numdiff_logs(x, s, a)
            rows_shift.append({"s": s, "alpha": a, "x": x, "derived": fs["shift" + br](s, a, x), "definition": (sh)})
            rows_scale.append({"s": s, "alpha": a, "x": x, "derived": fs["scale" + br](s, a, x), "definition": (sc)})
    # the erratum sits in App. A eq. (11); the main-text Lemma 10 agrees with the derivation
    return derivation_verdict(
        cmps, [reference_check("numerical d/dl log f (shift)", rows_shift, 1e-15),
               reference_check("numerical d/dl log f (scale)", rows_scale, 1e-15)],
        what="002 Lemma 10", precision="symbolic; mpmath.diff at 30 digits",
        extra={"note": "Lemma 10 as stated in the main text holds; the proof's eq. (11) in App. A misprints "
                       "the second shift branch (-(alpha-1) for -(alpha+1))."},
        slip="App. A eq. (11) prints -(alpha-1) for -(alpha+1) in one branch (a sign slip in a proof "
             "line); Lemma 10 as stated in the main text, which the proof of Thm. 8 uses, holds")


@claim("002-Lemma-12")
def check_lemma12(ctx: CheckContext) -> ClaimResult:
    res, cmps = pp.derive_lemma12()
    rng, n = ctx.sample("002-lemma12", 12, 4)
    rows = []
    with mpmath.workdps(30):
        for i in range(n):
            eps = _uniform(rng, 0.2, 3.0)
            gamma = eps * _uniform(rng, 0.02, 0.9)
            s, a = 1 / mpmath.mpf(gamma), mpmath.mpf(eps) / gamma
            t = _uniform(rng, 0.05, 0.95) if i % 2 == 0 else _uniform(rng, 1.05, 20.0)
            x = s * t / a * (1 if i % 4 < 2 else -1)
            sh, sc = _numdiff_logs(x, s, a)
            rows.append({"eps": eps, "gamma": gamma, "x": float(x), "derived": eps, "definition": abs(sh) + abs(sc)})
    signs = {br: {"sign_shift": str(v["sign_shift"]), "sign_scale": str(v["sign_scale"]), "shift": str(v["shift"]), "scale": str(v["scale"])} for br, v in res.items()}
    return derivation_verdict(cmps, [reference_check("numerical |shift| + |scale| at s = 1/gamma, alpha = eps/gamma", rows, 1e-15)],
                    what="002 Lemma 12", precision="symbolic per branch and sign; mpmath.diff at 30 digits",
                    extra={"branches_x_equals_s_t_over_alpha": signs})


@claim("002-Lemma-13")
def check_lemma13(ctx: CheckContext) -> ClaimResult:
    """Three parts, each against the definition (quadrature of x^2 f at 30 digits):

    (a) alpha > 2: the derived variance equals the printed formula (symbolic) and the quadrature;
    (b) 1 < alpha <= 2: the variance is infinite (x^2 f ~ x^(1 - alpha) is not integrable), while the
        printed formula is finite (negative for 1 < alpha < 2), so the hypothesis alpha > 2 is missing;
    (c) the proof's last equality: the bracketed I1/I2 differences equal int_0^inf x^2 f = sigma^2/2,
        not sigma^2 (the factor 2 of the statement is dropped in App. A)."""
    var, cmp = pp.derive_variance()
    fv = to_mpmath(var.subs({pp.W: ((pp.ALPHA - 1) / pp.ALPHA) ** pp.ALPHA, pp.V: ((pp.ALPHA + 1) / pp.ALPHA) ** pp.ALPHA}), (pp.S, pp.ALPHA))
    rng, n = ctx.sample("002-lemma13", 10, 3)
    rows, rows_printed = [], []
    with mpmath.workdps(30):
        for _ in range(n):
            s, a = _uniform(rng, 0.2, 5.0), _uniform(rng, 2.1, 40.0)
            q = 2 * mpmath.quad(lambda x, s=s, a=a: x**2 * polyplace_pdf(x, s, a), [0, s / a, mpmath.inf])
            rows.append({"s": s, "alpha": a, "derived": fv(s, a), "definition": (q)})
            rows_printed.append({"s": s, "alpha": a, "printed": float(polyplace_variance_printed(s, a)), "quadrature": float(q)})
        # (b) 1 < alpha <= 2: partial integrals 2 int_0^X x^2 f grow without bound (rate X^(3 - alpha)), the
        # printed formula stays finite.
        small = []
        for a in (1.2, 1.5, 1.9, 2.0):
            parts = [2 * mpmath.quad(lambda x, a=a: x**2 * polyplace_pdf(x, 1, a), [0, 1 / mpmath.mpf(a), 10**k])
                     for k in (2, 4, 6)]
            pv = polyplace_variance_printed(1, a) if a != 2.0 else mpmath.inf  # the formula has a pole at 2
            # tail: x^(alpha+1) f(x) tends to a positive constant C, so x^2 f >= (C/2) x^(1-alpha) for large x,
            # which is not integrable for alpha <= 2 (comparison test); the partial integrals show the growth.
            tail = [x ** (mpmath.mpf(a) + 1) * polyplace_pdf(x, 1, a) for x in (mpmath.mpf(10) ** 8, mpmath.mpf(10) ** 12)]
            small.append({"alpha": a, "printed_at_s=1": mpmath.nstr(pv, 12),
                          "2 int_0^X x^2 f, X=1e2,1e4,1e6": [mpmath.nstr(v, 8) for v in parts],
                          "x^(alpha+1) f(x) at x=1e8,1e12": [mpmath.nstr(v, 10) for v in tail],
                          "_tail_ok": bool(tail[1] > 0 and abs(tail[0] / tail[1] - 1) < mpmath.mpf(10) ** -3
                                           and parts[2] > parts[1] > parts[0])})
        diverges = all(r.pop("_tail_ok") for r in small)
        printed_finite_wrong = any(mpmath.mpf(r["printed_at_s=1"]) < 0 for r in small if r["alpha"] < 2)
        # (c) the proof's bracket: I1, I2 are the antiderivatives of x^2 f_{1,alpha} printed in App. A.
        proof = []
        for a in (2.5, 3.3, 7.0):
            a = mpmath.mpf(a)
            Dn = 2 * ((a - 1) / a) ** a + a - 1
            I1 = lambda x, a=a, Dn=Dn: -(a - 1) * (1 - x) ** a * (a * (a + 1) * x**2 + 2 * a * x + 2) / (2 * (a + 1) * (a + 2) * Dn)  # noqa: E731
            I2 = lambda x, a=a, Dn=Dn: ((1 - 1 / a**2) ** a * (a + 1) * (x + 1) ** (-a) * (-(a - 1) * a * x**2 - 2 * a * x - 2)  # noqa: E731
                            / (2 * (a - 2) * (a - 1) * Dn))
            bracket = I1(1 / a) - I1(0) + (0 - I2(1 / a))  # lim_{x->inf} I2 = 0 for alpha > 2
            half = mpmath.quad(lambda x, a=a: x**2 * polyplace_pdf(x, 1, a), [0, 1 / a, mpmath.inf])
            proof.append({"alpha": float(a), "bracket": mpmath.nstr(bracket, 15), "int_0^inf x^2 f": mpmath.nstr(half, 15),
                          "sigma^2 (statement)": mpmath.nstr(polyplace_variance_printed(1, a), 15)})
        proof_halves = all(abs(mpmath.mpf(r["bracket"]) - mpmath.mpf(r["int_0^inf x^2 f"])) < mpmath.mpf(10) ** -12
                           * abs(mpmath.mpf(r["bracket"])) for r in proof)
    base = derivation_verdict([cmp], [reference_check("quadrature 2 int_0^inf x^2 f", rows, 1e-20)], what="002 Lemma 13 variance",
                    precision="symbolic; quadrature at 30 digits", extra={"printed_vs_quadrature": rows_printed})
    if base.verdict != Verdict.VERIFIED:
        return base  # the formula itself disagrees: report that, not the hypothesis
    ev = dict(base.evidence)
    ev.update({"alpha_le_2": small, "proof_last_line": proof})
    found = []
    if diverges and printed_finite_wrong:
        found.append("for 1 < alpha <= 2 the variance is infinite but the printed formula is finite (negative for "
                     "1 < alpha < 2, e.g. -15.3 s^2 at alpha = 1.2): the hypothesis alpha > 2 is missing")
    if proof_halves:
        found.append("App. A's last equality drops the factor 2: the I1/I2 bracket equals int_0^inf x^2 f = sigma^2/2")
    if not found:
        return ClaimResult(Verdict.VERIFIED, base.summary + "; alpha <= 2 and the proof's bracket also consistent", ev,
                           base.precision)
    ev["erratum_points"] = ([{"point": {"s": 1, "alpha": r["alpha"]}, "printed": r["printed_at_s=1"], "true": "inf"}
                             for r in small] if diverges and printed_finite_wrong else []) + (
        [{"point": {"s": 1, "alpha": r["alpha"]}, "proof_bracket": r["bracket"], "sigma^2": r["sigma^2 (statement)"]}
         for r in proof] if proof_halves else [])
    ev["printed"] = "Var = 2 s^2 (...)/(...) for every alpha > 1 (Def. 6); App. A: sigma_{1,alpha}^2 = I1(1/alpha) - I1(0) + lim I2 - I2(1/alpha)"
    ev["corrected"] = ("Var = 2 s^2 (...)/(...) for alpha > 2, Var = inf for 1 < alpha <= 2; App. A: "
                       "sigma_{1,alpha}^2 = 2 [I1(1/alpha) - I1(0) + lim I2 - I2(1/alpha)]")
    prec = base.precision + "; mpmath quadrature for alpha <= 2 and the proof's bracket"
    text = "formula right for alpha > 2 (symbolic + quadrature); " + "; ".join(found)
    if diverges and printed_finite_wrong:
        ev["certificate"] = {"kind": "printed variance at s = 1 (mpmath) vs the diverging second moment "
                                     "(partial integrals growing, x^(alpha+1) f(x) -> const > 0)",
                             "points": [r for r in small if r["alpha"] < 2]}
        return ClaimResult(Verdict.REFUTED, text, ev, prec,
                           rule="R-FALSE: the printed formula fails on part of the stated range (1 < alpha <= 2, "
                                "hypothesis alpha > 2 missing): it is finite, even negative, where the variance is "
                                "infinite")
    return ClaimResult(Verdict.ERRATUM, text, ev, prec,
                       rule="R-SLIP: only App. A's last line drops a factor 2 (a proof line); the statement holds")


@claim("002-Cor-14")
def check_cor14(ctx: CheckContext) -> ClaimResult:
    ser, cmp = pp.derive_cor14()

    def row(rng: Any) -> dict[str, Any]:
        ss, eps = _uniform(rng, 0.3, 3.0), _uniform(rng, 0.3, 3.0)
        # exact variance (quadrature-free: the verified Lemma 13 value is itself checked by quadrature)
        # first-order coefficient by Richardson extrapolation of (Var(gamma) - Var0)/gamma
        var0 = 2 * mpmath.mpf(ss) ** 2 / mpmath.mpf(eps) ** 2

        def slope(g):
            g = mpmath.mpf(g)
            return (polyplace_variance_printed(mpmath.mpf(ss) / g, mpmath.mpf(eps) / g) - var0) / g

        h = mpmath.mpf(eps) * mpmath.mpf("1e-8")
        c1 = 2 * slope(h / 2) - slope(h)  # removes the O(gamma) term of the slope
        coef = -2 * (3 * mpmath.e - 17) * mpmath.mpf(ss) ** 2 / (mpmath.e * mpmath.mpf(eps) ** 3)
        return {"SS": ss, "eps": eps, "derived": coef, "definition": (c1)}

    return _sampled_verdict(ctx, [cmp], "002-cor14", 6, row,
                            "Richardson estimate of dVar/dgamma at 0 from the exact variance", 1e-10, dps=50, minimum=2,
                            what="002 Cor. 14 expansion", precision="symbolic series; mpmath 50 digits extrapolation")


@claim("002-Lemma-15")
def check_lemma15(ctx: CheckContext) -> ClaimResult:
    lims, cmps = pp.derive_lemma15()

    def row(rng: Any) -> dict[str, Any]:
        a, eps, x = _uniform(rng, 0.2, 3.0), _uniform(rng, 0.2, 3.0), _uniform(rng, -4.0, 4.0)
        lap = eps / (2 * mpmath.mpf(a)) * mpmath.exp(-eps * abs(mpmath.mpf(x)) / a)
        g1, g2 = mpmath.mpf("1e-8"), mpmath.mpf("1e-9")
        f1 = polyplace_pdf(x, a / g1, eps / g1)
        f2 = polyplace_pdf(x, a / g2, eps / g2)
        # f(gamma) = lap (1 + O(gamma)): Richardson-extrapolate to gamma = 0
        extrap = f2 + (f2 - f1) * g2 / (g1 - g2)
        return {"a": a, "eps": eps, "x": x, "derived": lap, "definition": (extrap)}

    return _sampled_verdict(ctx, cmps, "002-lemma15", 8, row, "density at gamma = 1e-8, 1e-9 extrapolated to 0", 1e-12,
                            dps=40, what="002 Lemma 15 Laplace limit", precision="symbolic limit; mpmath 40 digits")


# ---------------------------------------------------------------------------------------------
# 004: GenCauchy, Student's t
# ---------------------------------------------------------------------------------------------
@claim("004-Sec-2.1-gencauchy-normaliser")
def check_gc_normaliser(ctx: CheckContext) -> ClaimResult:
    _, cmp = gc.derive_normaliser()

    def row(rng: Any) -> dict[str, Any]:
        p = _uniform(rng, 0.8, 8.0)
        theta = _uniform(rng, max(1.0, 1.2 / p), 4.0)
        mass = 2 * mpmath.quad(lambda z: gencauchy_pdf(z, p, theta), [0, 1, mpmath.inf])
        return {"p": p, "theta": theta, "derived": 1.0, "definition": mass}

    res = _sampled_verdict(ctx, [cmp], "004-gc-norm", 10, row, "quadrature of the density", 1e-18,
                           what="004 Sec. 2.1 c_{p,theta}", precision="symbolic; quadrature at 30 digits",
                    extra={"extraction_note": "the density prints c_{beta,theta}; read c_{p,theta}"})
    # 004 Sec. 2.1 prints the constant of the density as c_{beta,theta}: a subscript naming the wrong
    # parameter (the normaliser depends on p and theta).  The formula holds; the notation is a slip.
    if res.verdict is Verdict.VERIFIED:
        ev = dict(res.evidence)
        ev["printed"] = "density constant written c_{beta,theta}"
        ev["corrected"] = "c_{p,theta} (the normaliser is a function of p and theta; the value is verified)"
        ev["erratum_points"] = [{"where": "004 Sec. 2.1, density of GenCauchy(a, b, p, theta)",
                                 "printed": "c_{beta,theta}", "corrected": "c_{p,theta}",
                                 "check": "quadrature of the density with c_{p,theta} = 1 (rows above)"}]
        return ClaimResult(Verdict.ERRATUM, res.summary + "; the density's constant is printed c_{beta,theta} "
                           "(read c_{p,theta})", ev, res.precision,
                           rule="R-SLIP: a subscript names the wrong parameter (c_{beta,theta} for c_{p,theta}); "
                                "the normaliser's value holds")
    return res


@claim("004-Sec-2.1-gencauchy-variance")
def check_gc_variance(ctx: CheckContext) -> ClaimResult:
    var, cmps = gc.derive_variance()
    fv = to_mpmath(var, (gc.P, gc.THETA))

    def row(rng: Any) -> dict[str, Any]:
        p = _uniform(rng, 1.5, 8.0)
        theta = _uniform(rng, max(1.0, 3.3 / p), 4.0)
        q = 2 * mpmath.quad(lambda z: z**2 * gencauchy_pdf(z, p, theta), [0, 1, mpmath.inf])
        return {"p": p, "theta": theta, "derived": fv(p, theta), "definition": (q)}

    rows = _sampled_rows(ctx, "004-gc-var", 10, row)
    with mpmath.workdps(30):
        # divergence at p theta = 3 (theta = 1, p = 3): the partial second moment grows like log(R)
        part = [float(2 * mpmath.quad(lambda z: z**2 * gencauchy_pdf(z, 3, 1), [0, 1, R])) for R in (1e2, 1e4, 1e6)]
    return derivation_verdict(cmps, [reference_check("quadrature 2 int_0^inf z^2 h", rows, 1e-18)], what="004 Sec. 2.1 GenCauchy variance",
                    precision="symbolic; quadrature at 30 digits",
                    extra={"partial_second_moment_p3_theta1_R=1e2,1e4,1e6": part})


@claim("004-App-C.1")
def check_c1(ctx: CheckContext) -> ClaimResult:
    cdf, cmps = gc.derive_cdf_p4()
    return _gencauchy_cdf_verdict(ctx, cdf, cmps, 4, "004-c1", 5, what="004 App. C.1 GenCauchy(4) CDF",
                                  precision="symbolic; quadrature at 30 digits")


def _gencauchy_cdf_verdict(ctx: CheckContext, cdf: Any, cmps: Sequence[Comparison], p: int, salt: str, spread: float,
                           **verdict: Any) -> ClaimResult:
    """Verdict of a derived GenCauchy(0, 1, p, 1) CDF ``cdf`` (a SymPy expression in gc.Z): the
    comparisons ``cmps`` and the derived CDF against the quadrature of the density
    (:func:`_gencauchy_cdf_quad`, tolerance 1e-18) at z = ``spread`` N(0, 1) draws, 30 digits;
    ``verdict`` goes to :func:`derivation_verdict` (what, precision, extra)."""
    f = to_mpmath(cdf, (gc.Z,))

    def row(rng: Any) -> dict[str, Any]:
        z = float(rng.normal() * spread)
        return {"z": z, "derived": f(z), "definition": (_gencauchy_cdf_quad(z, p, 1))}

    return _sampled_verdict(ctx, cmps, salt, 10, row, "quadrature of the density", 1e-18, **verdict)


@claim("004-Sec-2.1-gencauchy-cdf-p6")
def check_cdf_p6(ctx: CheckContext) -> ClaimResult:
    cdf, cmps = gc.derive_cdf_p6()
    return _gencauchy_cdf_verdict(ctx, cdf, cmps, 6, "004-cdf6", 4, what="GenCauchy(6) closed-form CDF",
                                  precision="symbolic derivative; quadrature at 30 digits", extra={"closed_form": str(cdf)})


def _brute_sup(f: Callable[[Any], Any], lo: float, hi: float, n: int = 400) -> Any:
    """sup of f on [lo, hi] by a log-spaced grid then golden-section refinement around the best."""
    return grid_golden_max(f, [mpmath.mpf(lo * (hi / lo) ** (i / (n - 1))) for i in range(n)], 120)


@claim("004-Claim-3.4")
def check_claim34(ctx: CheckContext) -> ClaimResult:
    sup, cmps = gc.derive_claim34()
    fs = to_mpmath(sup, (gc.C,))

    def row(rng: Any) -> dict[str, Any]:
        c = _uniform(rng, 1.05, 12.0)
        b = _brute_sup(lambda z: c * z ** (c - 1) / (1 + z**c), 1e-6, 1e6)
        return {"c": c, "derived": fs(c), "definition": (b)}

    return _sampled_verdict(ctx, cmps, "004-claim34", 10, row, "brute-force sup of phi_c' (grid + golden section)", 1e-15,
                            what="004 Claim 3.4", precision="symbolic stationary points; brute force at 30 digits")


@claim("004-Sec-2.1-student-t")
def check_student_t(ctx: CheckContext) -> ClaimResult:
    _, c1 = st.derive_normaliser()
    var, c2 = st.derive_variance()
    rng, n = ctx.sample("004-t", 10, 3)
    rows_m, rows_v = [], []
    with mpmath.workdps(30):
        for _ in range(n):
            nu = _uniform(rng, 0.5, 30.0)
            mass = 2 * mpmath.quad(lambda z, nu=nu: student_t_pdf(z, nu), [0, 1, mpmath.inf])
            rows_m.append({"nu": nu, "derived": 1.0, "definition": mass})
            nu2 = _uniform(rng, 2.2, 30.0)
            v = 2 * mpmath.quad(lambda z, nu2=nu2: z**2 * student_t_pdf(z, nu2), [0, 1, mpmath.inf])
            rows_v.append({"nu": nu2, "derived": mpmath.mpf(nu2) / (nu2 - 2), "definition": v})
    return derivation_verdict([c1, c2], [reference_check("quadrature: mass", rows_m, 1e-18), reference_check("quadrature: variance", rows_v, 1e-15)],
                    what="004 Sec. 2.1 Student's t", precision="symbolic; quadrature at 30 digits")


@claim("004-App-A.1-student-t-lipschitz")
def check_t_lipschitz(ctx: CheckContext) -> ClaimResult:
    sup, cmps = st.derive_lipschitz()
    first = {"nu": "-", "derived": 1.0, "definition": (_brute_sup(lambda z: 2 * z / (1 + z**2), 1e-6, 1e6))}

    def row(rng: Any) -> dict[str, Any]:
        nu = _uniform(rng, 0.3, 40.0)
        b = _brute_sup(lambda z: (nu + 1) * z / (nu + z**2), 1e-6, 1e6)
        return {"nu": nu, "derived": (nu + 1) / (2 * mpmath.sqrt(nu)), "definition": b}

    rows = [first, *_sampled_rows(ctx, "004-a1", 10, row)]
    return derivation_verdict(cmps, [reference_check("brute-force sup of |d/dz ln h|", rows, 1e-15)], what="004 App. A.1 Lipschitz constant",
                    precision="symbolic stationary points; brute force at 30 digits")


# ---------------------------------------------------------------------------------------------
# 004: privacy constants (brute-force privacy loss of worst-case neighbouring pairs)
# ---------------------------------------------------------------------------------------------
def _loss_sup(logpdf: Callable[[Any], Any], a: Any, b: Any, a2: Any, b2: Any) -> Any:
    """sup_y |ln m(x)(y) - ln m(x')(y)| for location-scale releases (a, b) vs (a2, b2), by a
    dense grid in the standardised variable plus golden refinement (mpmath)."""

    def loss(y):
        return abs((logpdf((y - a) / b) - mpmath.log(b)) - (logpdf((y - a2) / b2) - mpmath.log(b2)))

    grid = [a + b * mpmath.sinh(mpmath.mpf(u) / 8) for u in range(-160, 161)]  # |z| up to ~2.4e8
    return grid_golden_max(loss, grid, 60)


def _worst_pairs(rng, gamma: float, eta: float, d: float) -> list[tuple[Any, Any, Any, Any]]:
    """Neighbouring releases allowed by a g_E(.;gamma)-smooth bound at distance d:
    b = B(x)/eta, b' = b e^{+-gamma d}, |a - a'| <= min(B(x), B(x')) d (both sides Lipschitz)."""
    out = []
    for sgn_b in (1, -1):
        for sgn_a in (1, -1):
            B = mpmath.mpf(float(rng.uniform(0.5, 2.0)))
            B2 = B * mpmath.exp(sgn_b * gamma * d)
            a = mpmath.mpf(0)
            a2 = sgn_a * min(B, B2) * d
            out.append((a, B / eta, a2, B2 / eta))
    return out


def _privacy_rows(ctx, salt, n, draw, logpdf_factory, eps_fn, dists=(0.05, 0.5)):
    rng = ctx.rng(salt)
    rows = []
    with mpmath.workdps(20):  # a sup to compare at 1e-12 relative: 20 digits suffice
        for _ in range(n):
            params = draw(rng)
            eps = eps_fn(**params)
            lp = logpdf_factory(**params)
            worst = mpmath.mpf(0)
            for d in dists:
                for a, b, a2, b2 in _worst_pairs(rng, params["gamma"], params["eta"], d):
                    worst = max(worst, _loss_sup(lp, a, b, a2, b2) / d)
            rows.append({**params, "eps_derived": float(eps), "max_loss_per_unit_dist": float(worst),
                         "tightness": float(worst / eps)})
    return rows


def _privacy_ref(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    bad = [r for r in rows if r["max_loss_per_unit_dist"] > r["eps_derived"] * (1 + 1e-12)]
    return {"name": name, "ok": not bad, "n": len(rows), "violations": bad, "rows": rows,
            "max_tightness": max((r["tightness"] for r in rows), default=0.0)}


def _gc_logpdf(p, theta, **_):
    """ln h of GenCauchy(0,1,p,theta) (the reference; its normaliser cancels in the loss)."""
    return reference_for(GenCauchy(p, theta)).logpdf


@claim("004-Lemma-3.3-epsilon")
def check_lemma33(ctx: CheckContext) -> ClaimResult:
    eps, parts, cmps = pl.derive_gencauchy_gp()

    def draw(rng):
        return {"gamma": float(rng.uniform(0.01, 0.5)), "eta": float(rng.uniform(0.05, 2.0)),
                "p": float(rng.uniform(1.1, 6.0)), "theta": float(rng.uniform(1.0, 3.0))}

    rows = _privacy_rows(ctx, "004-l33", ctx.scaled(6, 2), draw, _gc_logpdf,
                         lambda gamma, eta, p, theta: eps.subs({pl.M: 1, pl.GAMMA: gamma, pl.ETA: eta, pl.P: p, pl.THETA: theta}))
    res = derivation_verdict(cmps[:1], [_privacy_ref("brute-force privacy loss of worst-case pairs <= eps dist", rows)],
                   what="004 Lemma 3.3 eps", precision="symbolic sup of log-derivatives; mpmath brute force at 20 digits",
                   extra={"derivation": {k: str(v) for k, v in parts.items()},
                          "remark_note": "the Remark after Lemma 3.5 simplifies theta = 1 to (p-1) gamma + ...; the derivation "
                                         "gives max(1, p-1) gamma, which differs for 1 < p < 2 (checked in 004-Remark-3.5-calibration-form)"})
    return res


@claim("004-Cor-3.2-epsilon")
def check_cor32(ctx: CheckContext) -> ClaimResult:
    eps, parts, cmps = pl.derive_gencauchy_gp()
    rng = ctx.rng("004-c32")
    rows = []
    with mpmath.workdps(20):
        for _ in range(ctx.scaled(5, 2)):
            gamma, eta = float(rng.uniform(0.01, 0.5)), float(rng.uniform(0.05, 2.0))
            p, theta, m = float(rng.uniform(1.1, 6.0)), float(rng.uniform(1.0, 3.0)), int(rng.integers(2, 5))
            e = float(eps.subs({pl.GAMMA: gamma, pl.ETA: eta, pl.P: p, pl.THETA: theta, pl.M: m}))
            lp = _gc_logpdf(p, theta)
            d = 0.2
            # the log-loss is a sum over coordinates: all scales change by e^{+-gamma d}; the l1 budget of the
            # shift |a - a'|_1 <= min(B, B') d is spread over the coordinates (all on one, or evenly)
            worst = mpmath.mpf(0)
            for sgn in (1, -1):
                B = mpmath.mpf(1)
                B2 = B * mpmath.exp(sgn * gamma * d)
                for split in ("one", "even"):
                    shifts = [min(B, B2) * d] + [0] * (m - 1) if split == "one" else [min(B, B2) * d / m] * m
                    tot = sum(_loss_sup(lp, 0, B / eta, s_, B2 / eta) for s_ in shifts)
                    worst = max(worst, tot / d)
            rows.append({"gamma": gamma, "eta": eta, "p": p, "theta": theta, "m": m, "eps_derived": e,
                         "max_loss_per_unit_dist": float(worst), "tightness": float(worst / e)})
    return derivation_verdict(cmps[1:], [_privacy_ref("brute-force summed per-coordinate loss <= eps dist", rows)],
                    what="004 Cor. 3.2 eps", precision="symbolic; mpmath brute force at 20 digits",
                    extra={"derivation": {k: str(v) for k, v in parts.items()}})


@claim("004-Lemma-3.5-epsilon")
def check_lemma35(ctx: CheckContext) -> ClaimResult:
    eps, parts, cmps = pl.derive_student_t_gp()

    def draw(rng):
        return {"gamma": float(rng.uniform(0.01, 0.5)), "eta": float(rng.uniform(0.05, 2.0)), "nu": float(rng.uniform(1.1, 20.0))}

    def lpf(nu, **_):  # ln h of T_nu(0,1) (the reference; its normaliser cancels in the loss)
        return reference_for(StudentT(nu)).logpdf

    rows = _privacy_rows(ctx, "004-l35", ctx.scaled(6, 2), draw, lpf,
                         lambda gamma, eta, nu: eps.subs({pl.GAMMA: gamma, pl.ETA: eta, pl.NU: nu}))
    return derivation_verdict(cmps, [_privacy_ref("brute-force privacy loss of worst-case pairs <= eps dist", rows)],
                    what="004 Lemma 3.5 eps", precision="symbolic; mpmath brute force at 20 digits",
                    extra={"derivation": {k: str(v) for k, v in parts.items()}})


@claim("004-Lemma-3.6-epsilon")
def check_lemma36(ctx: CheckContext) -> ClaimResult:
    eps, delta, parts, cmps = pl.derive_laplace_gl()
    rng = ctx.rng("004-l36")
    rows = []
    with mpmath.workdps(30):
        for _ in range(ctx.scaled(8, 3)):
            gamma, eta = float(rng.uniform(0.05, 1.0)), float(rng.uniform(0.1, 2.0))
            dlt = float(10 ** rng.uniform(-8, -1))
            e = eta + gamma * math.log(1 / dlt)
            for d in (0.3, 1.0):
                for sgn in (1, -1):
                    B = mpmath.mpf(1)
                    B2 = B * (1 + gamma * d) ** sgn  # g_L: B(x) <= (1 + gamma d) B(x') both ways
                    for sa in (1, -1):
                        a2 = sa * min(B, B2) * d
                        b, b2 = B / eta, B2 / eta
                        # hockey-stick divergence sup_S P[M(x) in S] - e^{eps d} P[M(x') in S]
                        f = lambda y, b=b, e=e, d=d, a2=a2, b2=b2: max(mpmath.mpf(0), laplace_pdf(y, 0, b) - mpmath.exp(e * d) * laplace_pdf(y, a2, b2))  # noqa: E731
                        hs = mpmath.quad(f, sorted({-mpmath.inf, min(0, a2), max(0, a2), mpmath.inf}))
                        rows.append({"gamma": gamma, "eta": eta, "delta": dlt, "d": d, "b_ratio": float(B2 / B),
                                     "shift": float(a2), "hockey_stick": float(hs), "ok": bool(hs <= dlt * (1 + 1e-10))})
    ref = {"name": "hockey-stick divergence of worst-case pairs <= delta (quadrature)", "ok": all(r["ok"] for r in rows),
           "n": len(rows), "rows": rows, "max_ratio_to_delta": max(r["hockey_stick"] / r["delta"] for r in rows)}
    return derivation_verdict(cmps, [ref], what="004 Lemma 3.6 eps", precision="symbolic; quadrature at 30 digits",
                    extra={"derivation": {k: str(v) for k, v in parts.items()}, "delta_of_eps": str(delta)})


# ---------------------------------------------------------------------------------------------
# 000 Thm. 1
# ---------------------------------------------------------------------------------------------
@claim("000-Thm-1-constants")
def check_thm1_000(ctx: CheckContext) -> ClaimResult:
    alpha, beta, parts, cmps = pl.derive_thm1_000()
    fa = to_mpmath(alpha, (pl.EPS, pl.K, pl.L))
    fb = to_mpmath(beta, (pl.EPS, pl.K))
    rng, n = ctx.sample("000-thm1", 8, 3)
    rows_a, rows_b, cex = [], [], []
    with mpmath.workdps(30):
        for i in range(n):
            eps = _uniform(rng, 0.2, 3.0)
            k = _uniform(rng, 1.1, 1.9) if i % 2 == 0 else _uniform(rng, 2.0, 8.0)
            l_ = _uniform(rng, 0.1, 5.0)

            def phi(z: Any, k: float = k, l_: float = l_) -> Any:
                return k * z ** (k - 1) / (z**k + l_)

            sup_phi = _brute_sup(phi, 1e-6, 1e6)
            rows_a.append({"eps": eps, "k": k, "l": l_, "derived": fa(eps, k, l_), "definition": (eps / 2 / sup_phi)})
            # dilation: sup over z and lambda = +-beta of ln(h(z)/(e^lam h(e^lam z))) must be eps/2 at the derived beta
            b = fb(eps, k)

            def dil(z, lam, k=k, l_=l_):
                return mpmath.log((mpmath.exp(lam * k) * z**k + l_) / (z**k + l_)) - lam

            worst = max(max(dil(mpmath.mpf(z), lam) for z in [0, 1e-3, 1, 1e3, 1e6, 1e9]) for lam in (b, -b))
            rows_b.append({"eps": eps, "k": k, "derived": eps / 2, "definition": (worst)})
            # certified counterexample for the printed beta when 1 < k < 2: z = 0, lambda = -eps/(2(k-1))
            if k < 2:
                bp = mpmath.mpf(eps) / (2 * (k - 1))
                val = dil(mpmath.mpf(0), -bp)
                cex.append({"eps": eps, "k": k, "l": l_, "z": 0.0, "lambda": float(-bp), "log_ratio": float(val),
                            "eps_over_2": eps / 2, "violates": bool(val > eps / 2)})
    # rows_b: the sup approaches eps/2 from below as z -> inf for lambda = +beta (k >= 2) or equals it at z = 0
    refs = [reference_check("brute-force sup of phi' gives alpha", rows_a, 1e-12),
            {"name": "dilation loss at |lambda| = derived beta is <= eps/2 (and reaches it)", "n": len(rows_b),
             "ok": all(r["definition"] <= r["derived"] * (1 + 1e-12) and r["definition"] >= r["derived"] * (1 - 1e-3) for r in rows_b),
             "rows": rows_b}]
    return derivation_verdict(cmps, refs, what="000 Thm. 1 (alpha, beta)", precision="symbolic; brute force at 30 digits",
                    extra={"counterexamples_printed_beta_1<k<2": cex,
                           "derivation": {k_: str(v) for k_, v in parts.items()}},
                    false_reason="the printed beta = eps/(2(k-1)) fails on part of the stated range (1 < k < 2): "
                                 "the dilation loss at z = 0 exceeds eps/2 (certified in mpmath); corrected "
                                 "beta = eps/(2 max(k-1, 1))")
