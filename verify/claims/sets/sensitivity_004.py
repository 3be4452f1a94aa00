"""Claims of 004 Sec. 3-4 on pointwise Lipschitz constants and smooth sensitivities, checked
against brute force of the definitions (004 Defs. 7-9).

Brute force: :func:`smoothsens_core.sensitivity.brute.brute_smooth_sensitivity` (dense search in
(z, r, u) + Nelder-Mead refinement, maximiser re-evaluated in mpmath at ``ctx.dps`` digits), which
uses nothing of the closed forms or of the candidate sets of 004 Sec. 3.3.  The closed forms are
those of :mod:`smoothsens_core.sensitivity`; the printed formulas are typed here from the paper.
Derivations and errata E1-E5: :mod:`derivations.stationary_004`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from smoothsens_core.growth import GrowthFunction, growth_exp, growth_linear
from smoothsens_core.sensitivity import (
    kde_chord_slope,
    lipschitz_kde,
    lipschitz_threshold,
    smooth_sensitivity_bounded_range,
    smooth_sensitivity_kde,
    smooth_sensitivity_threshold,
    smooth_sensitivity_two_way_threshold,
    soft_bounded_range,
    soft_two_way_threshold,
    two_way_regions,
)
from smoothsens_core.sensitivity.brute import brute_smooth_sensitivity
from smoothsens_core.sensitivity.linear_form import smooth_sensitivity_linear_threshold
from scipy.optimize import minimize_scalar

from verify.claims import CheckContext, ClaimResult, Verdict, claim, omitted
from verify.audit.blackbox.queries import builtin_query
from verify.claims.evidence import agreement_verdict, maximise, rel_dev
from verify.reference.queries import bounded_range_query_mp, kde_query_mp, threshold_query_mp
from verify.reference.search import bisect_sign_change, golden_section_max

_REL = 1e-9


def _prec(ctx: CheckContext) -> str:
    return f"brute force re-evaluated in mpmath at {ctx.dps} digits; agreement to {_REL:g} relative"


def _brute_1d(f: Callable[..., Any], f_mp: Callable[..., Any], x: float, growth: GrowthFunction, extra: Any, radius: float,
              ctx: CheckContext) -> float:
    r = brute_smooth_sensitivity(f, [x], growth, extra_points=extra, radius=radius, f_mp=f_mp, mp=mpmath,
                                 dps=ctx.dps)
    return float(r.value[0])


def _compare_1d(name: str, closed: Callable[..., Any], f: Callable[..., Any], f_mp: Callable[..., Any], xs: Any,
                growth: GrowthFunction, extra: Any, radius: float, ctx: CheckContext) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for x in xs:
        bf = _brute_1d(f, f_mp, float(x), growth, extra, radius, ctx)
        cf = float(closed(np.array([x]))[0])
        rows.append({"query": name, "x": float(x), "closed_form": cf, "brute_force": bf, "rel_dev": rel_dev(cf, bf)})
    return rows


def _verdict(rows: list[dict[str, Any]], what: str, ctx: CheckContext, extra_ev: dict[str, Any] | None = None) -> ClaimResult:
    return agreement_verdict(rows, what, tol=_REL, precision=_prec(ctx), extra_ev=extra_ev)


# ---------------------------------------------------------------------------------------------
# 004 Lemma 4.1 (one-way threshold)
# ---------------------------------------------------------------------------------------------
@claim("004-Lemma-4.1")
def check_lemma_4_1(ctx: CheckContext) -> ClaimResult:
    from derivations.stationary_004 import derive_lemma_4_1  # noqa: PLC0415 - the SymPy derivations load when this check runs, not with the registry

    der = derive_lemma_4_1()
    rng = ctx.rng("004-Lemma-4.1")
    rows: list[dict[str, Any]] = []
    for _ in range(ctx.scaled(8, 1)):
        T, tau, gamma = rng.uniform(-2, 2), rng.uniform(0.2, 2), rng.uniform(0.1, 3)
        x = T + rng.uniform(-5, 5)
        g = growth_exp(gamma)
        s = abs(x - T)
        printed = max(1 / (s + tau / 2), math.exp(-gamma * (s - tau / 2)) / tau) if s > tau / 2 else 1 / tau
        f = lambda u, T=T, tau=tau: np.clip((np.asarray(u)[..., 0] - T) / tau + 0.5, 0, 1)  # noqa: E731
        bf = _brute_1d(f, threshold_query_mp(T, tau), x, g, [T - tau / 2, T + tau / 2], 8.0, ctx)
        cf = float(smooth_sensitivity_threshold([x], T, tau, g)[0])
        rows.append({"T": T, "tau": tau, "gamma": gamma, "x": x, "printed": printed, "closed_form": cf,
                     "brute_force": bf, "rel_dev": max(rel_dev(printed, bf), rel_dev(cf, bf))})
    sym = {"v0": str(der["v0"]), "phi''(v0)": str(der["phi_second_at_v0"]), "v0_is_minimum": der["v0_is_minimum"]}
    res = _verdict(rows, "Lemma 4.1 (printed statement)", ctx, {"symbolic": sym})
    if res.verdict == Verdict.VERIFIED and not der["v0_is_minimum"]:
        return ClaimResult(Verdict.INCONCLUSIVE, "v0 = 1/gamma not shown to be a minimum", res.evidence, res.precision)
    return res


@claim("004-Lemma-4.1-proof")
def check_lemma_4_1_proof(ctx: CheckContext) -> ClaimResult:
    from derivations.stationary_004 import derive_lemma_4_1  # noqa: PLC0415 - the SymPy derivations load when this check runs, not with the registry

    comps = {c.name: c for c in derive_lemma_4_1()["comparisons"]}
    bad = [comps["Lemma 4.1 proof: phi(tau)"], comps["Lemma 4.1 Note: S_3 candidate"]]
    good = comps["Lemma 4.1 statement: (1/tau) e^{-gamma(|x-T| - tau/2)}"]
    ev: dict[str, Any] = {
        "printed": ["phi(tau) = (1/tau) e^(-gamma v_x - tau)", "S_3 candidate (1/tau) e^(-gamma|x-T| + tau/2)"],
        "corrected": ["phi(tau) = (1/tau) e^(-gamma (v_x - tau)) = (1/tau) e^(-gamma(|x-T| - tau/2))",
                      "S_3 candidate (1/tau) e^(-gamma(|x-T| - tau/2))"],
        "comparisons": [c.evidence() for c in bad + [good]],
    }
    if all(not c.agree for c in bad) and good.agree:
        return ClaimResult(Verdict.ERRATUM, "proof's phi(tau) and the Note's S_3 value lose a parenthesis; "
                           "the statement of Lemma 4.1 is right", ev, "SymPy + mpmath 50 digits at 20 points",
                           rule="R-SLIP: a lost parenthesis in a proof line and a Note (e^(-gamma v_x - tau) for "
                                "e^(-gamma (v_x - tau))); Lemma 4.1 as stated holds (checked)")
    return ClaimResult(Verdict.INCONCLUSIVE, "unexpected comparison outcome", ev, "")


# ---------------------------------------------------------------------------------------------
# 004 App. C.3 (bounded range)
# ---------------------------------------------------------------------------------------------
@claim("004-App-C.3")
def check_app_c3(ctx: CheckContext) -> ClaimResult:
    rng = ctx.rng("004-App-C.3")
    rows: list[dict[str, Any]] = []
    for _ in range(ctx.scaled(8, 1)):
        l = rng.uniform(-2, 1)
        r, tau, gamma = l + rng.uniform(0.2, 3), rng.uniform(0.1, 1.5), rng.uniform(0.1, 3)
        m, W = (l + r) / 2, (r - l) / 2 + tau / 2
        x = m + rng.uniform(-3 * W - 3, 3 * W + 3)
        if x < l - tau / 2:
            printed = max(1 / abs(m - x), math.exp(-gamma * abs(l - tau / 2 - x)) / W)
        elif x > r + tau / 2:
            printed = max(1 / abs(m - x), math.exp(-gamma * abs(r + tau / 2 - x)) / W)
        else:
            printed = 1 / W
        g = growth_exp(gamma)
        f = lambda u, l=l, r=r, tau=tau: soft_bounded_range(np.asarray(u).reshape(-1), l, r, tau).reshape(np.shape(u)[:-1])  # noqa: E731
        bf = _brute_1d(f, bounded_range_query_mp(l, r, tau, "tent"), x, g, [l - tau / 2, m, r + tau / 2], 8.0, ctx)
        cf = float(smooth_sensitivity_bounded_range([x], l, r, tau, g)[0])
        rows.append({"l": l, "r": r, "tau": tau, "gamma": gamma, "x": x, "printed": printed, "closed_form": cf,
                     "brute_force": bf, "rel_dev": max(rel_dev(printed, bf), rel_dev(cf, bf))})
    note = ("The printed f_tau is a tent equal to 1 only at m (slope 1/W), not a plateau surrogate of "
            "1{l <= x <= r}; printed B* is right for the printed f_tau.  The plateau surrogate of the Remark in "
            "Sec. 4.1.3 is available as shape='trapezoid' (ramp width tau).")
    return _verdict(rows, "App. C.3 (printed function and formula)", ctx, {"note": note})


# ---------------------------------------------------------------------------------------------
# 004 Sec. 4.2 (two-way threshold)
# ---------------------------------------------------------------------------------------------
@claim("004-Claim-4.2")
def check_claim_4_2(ctx: CheckContext) -> ClaimResult:
    rng = ctx.rng("004-Claim-4.2")
    T1, T2, tau = 1.0, 2.0, 0.8
    f = lambda p: soft_two_way_threshold(p, T1, T2, tau)  # noqa: E731
    n = ctx.scaled(200000, 20000)
    # adversarial pairs: one point in the band region, the other a short random step away
    p = rng.uniform([T1 - 2, T2 - 2], [T1 + 3, T2 + 3], size=(n, 2))
    step = rng.normal(size=(n, 2)) * rng.choice([1e-3, 0.05, 0.3, 1.0], size=(n, 1))
    q = p + step
    slopes = np.abs(f(p) - f(q)) / np.linalg.norm(step, axis=1)
    i = int(np.argmax(slopes))
    # local refinement of the worst pair (coordinate ascent on the step)
    best = float(slopes[i])
    with mpmath.workdps(ctx.dps):
        R1 = mpmath.mpf(tau) / mpmath.sqrt(2)
        R2 = R1 + tau
        c0 = (T1 + mpmath.mpf(tau) / 2 + R1, T2 + mpmath.mpf(tau) / 2 + R1)

        def fmp(x: Any, y: Any) -> Any:
            D = mpmath.sqrt(max(c0[0] - x, 0) ** 2 + max(c0[1] - y, 0) ** 2)
            return min(max((R2 - D) / tau, 0), 1)

        pm = [mpmath.mpf(float(v)) for v in p[i]]
        qm = [mpmath.mpf(float(v)) for v in q[i]]
        mp_slope = abs(fmp(*pm) - fmp(*qm)) / mpmath.sqrt((pm[0] - qm[0]) ** 2 + (pm[1] - qm[1]) ** 2)
    ev: dict[str, Any] = {"pairs": n, "max_slope": best, "max_slope_mpmath": float(mp_slope), "bound_1_over_tau": 1 / tau,
          "worst_pair": [p[i].tolist(), q[i].tolist()], "regions_of_worst": two_way_regions(np.array([p[i], q[i]]), T1, T2, tau).tolist()}
    if float(mp_slope) <= (1 / tau) * (1 + 1e-12) and best >= (1 / tau) * (1 - 1e-6):
        return ClaimResult(Verdict.VERIFIED, f"max chord slope over {n} adversarial pairs = {best:.12g} "
                           f"<= 1/tau = {1 / tau} (attained)", ev, f"float64 search, worst pair in mpmath {ctx.dps} digits")
    if float(mp_slope) > (1 / tau) * (1 + 1e-12):
        return ClaimResult(Verdict.REFUTED, "chord slope above 1/tau", ev, ctx.mp_precision)
    return ClaimResult(Verdict.INCONCLUSIVE, "bound not attained by the search", ev, "")


def _two_way_generic(points: np.ndarray, T1: float, T2: float, tau: float, g) -> tuple[np.ndarray, np.ndarray]:
    """B* of the two-way f_tau from the generic engine (derivations.engine, 004 Sec. 3.3 stratified
    by its kink curves), f written from its definition: clip((R2 - dist(p, Q0)) / tau, 0, 1); the
    values and, per point, whether the engine certified them (an uncertified value is a lower bound)."""
    from derivations.engine import smooth_sensitivity_engine  # noqa: PLC0415 - the SymPy derivations load when this check runs, not with the registry

    p1, p2 = sp.symbols("p1 p2", real=True)
    R1 = tau / math.sqrt(2.0)
    R2 = R1 + tau
    c1, c2 = T1 + tau / 2 + R1, T2 + tau / 2 + R1
    f = sp.Min(1, sp.Max(0, (R2 - sp.sqrt(sp.Max(c1 - p1, 0) ** 2 + sp.Max(c2 - p2, 0) ** 2)) / tau))
    # f_tau is 1/tau-Lipschitz with values in [0, 1]: the bounds that certify the engine's window
    eng = smooth_sensitivity_engine(f, (p1, p2), g, radius=4.0, lipschitz_bound=1 / tau, oscillation_bound=1.0)
    res = eng.smooth_sensitivity_certified(points)
    return np.asarray(res.value, dtype=float), np.asarray(res.certified, dtype=bool)


def lemma_4_3_printed(z: np.ndarray, T1: float, T2: float, tau: float, gamma: float) -> np.ndarray:
    """004 Lemma 4.3 typed case by case from the paper (g_E, Lambda = inf) at the points ``z`` (n, 2):
    the one-way formula with the distance to the band in each region of :func:`two_way_regions`,
    1/tau on the band (the printed reference of claim 004-Lemma-4.3 and of the core's tests)."""
    R1 = tau / math.sqrt(2)
    R2 = R1 + tau
    c0 = np.array([T1 + tau / 2 + R1, T2 + tau / 2 + R1])
    lab = two_way_regions(z, T1, T2, tau)
    z1, z2 = z[:, 0], z[:, 1]
    r = np.hypot(z1 - c0[0], z2 - c0[1])
    e = lambda a: np.exp(-gamma * a) / tau  # noqa: E731
    cases = {
        "0,1": np.maximum(1 / (T1 + tau / 2 - z1), e(T1 - tau / 2 - z1)),
        "0,2": np.maximum(1 / (T2 + tau / 2 - z2), e(T2 - tau / 2 - z2)),
        "0,alpha": np.maximum(1 / (r - R1), e(r - R2)),
        "1,1": np.maximum(1 / (z1 - (T1 - tau / 2)), e(z1 - (T1 + tau / 2))),
        "1,2": np.maximum(1 / (z2 - (T2 - tau / 2)), e(z2 - (T2 + tau / 2))),
        "1,3": np.maximum.reduce([1 / (z1 - (T1 - tau / 2)), e(z1 - (T1 + tau / 2)),
                                  1 / (z2 - (T2 - tau / 2)), e(z2 - (T2 + tau / 2))]),
        "1,alpha": np.maximum(1 / (R2 - r), e(R1 - r)),
    }
    out = np.where(np.char.startswith(lab, "tau"), 1 / tau, np.nan)
    with np.errstate(all="ignore"):
        for k, v in cases.items():
            out = np.where(lab == k, v, out)
    return out


@claim("004-Lemma-4.3")
def check_lemma_4_3(ctx: CheckContext) -> ClaimResult:
    rng = ctx.rng("004-Lemma-4.3")
    T1, T2, tau, gamma = 1.0, 2.0, 0.8, 0.7
    g = growth_exp(gamma)
    z = rng.uniform([-3, -2], [5, 6], size=(ctx.scaled(20000, 2000), 2))
    printed = lemma_4_3_printed(z, T1, T2, tau, gamma)
    engine = smooth_sensitivity_two_way_threshold(z, T1, T2, tau, g)
    dev_pe = float(np.max(np.abs(printed - engine) / engine))
    f = lambda p: soft_two_way_threshold(np.asarray(p).reshape(-1, 2), T1, T2, tau).reshape(np.shape(p)[:-1])  # noqa: E731
    labs = two_way_regions(z, T1, T2, tau)
    picks = []
    for lab in ["0,alpha", "1,3", "0,1", "1,alpha", "tau,alpha", "1,1"][: ctx.scaled(6, 1)]:
        idx = np.nonzero(labs == lab)[0]
        if idx.size:
            picks.append(int(idx[0]))
    rows: list[dict[str, Any]] = []
    for i in picks:
        brute = brute_smooth_sensitivity(f, z[i:i + 1], g, d=2, radius=4.0,
                                         n_grid=31 if ctx.budget >= 0.5 else 15, n_radii=30 if ctx.budget >= 0.5 else 15)
        rows.append({"region": str(labs[i]), "x": float(z[i, 0]), "z": z[i].tolist(), "printed": float(printed[i]),
                     "closed_form": float(engine[i]), "brute_force": float(brute.value[0]),
                     "rel_dev": rel_dev(float(printed[i]), float(brute.value[0]))})
    # the 2-D brute force returns feasible values (lower bounds, accurate to 1e-9 since its nested
    # polish): the printed/closed form must not be below them and agree within 1e-9
    for r in rows:
        r["not_below_brute"] = bool(r["printed"] >= r["brute_force"] * (1 - _REL))
    # the generic engine (004 Sec. 3.3, stratified by the kink curves) on f written from its
    # definition with Min/Max, at the same points (default audit only: ~30 s)
    generic_dev = None
    if ctx.budget >= 0.5 and picks:
        gen, gen_certified = _two_way_generic(z[picks], T1, T2, tau, g)
        for r, v, c in zip(rows, gen, gen_certified, strict=True):
            r["generic_engine"] = float(v)
            r["generic_engine_certified"] = bool(c)
        generic_dev = max(rel_dev(r["closed_form"], r["generic_engine"]) for r in rows)
    res = _verdict(rows, "Lemma 4.3", ctx, {"printed_vs_engine_max_rel_dev": dev_pe,
                                               "n_points_printed_vs_engine": int(len(z)),
                                               "closed_form_vs_generic_engine_max_rel_dev": generic_dev})
    if res.verdict != Verdict.VERIFIED and all(r["not_below_brute"] and r["rel_dev"] <= _REL for r in rows):
        res = ClaimResult(Verdict.VERIFIED, f"Lemma 4.3: printed = brute force within "
                          f"{max(r['rel_dev'] for r in rows):.1e} (never below it) at {len(rows)} points",
                          res.evidence, res.precision)
    if res.verdict == Verdict.VERIFIED and dev_pe > 1e-12:
        return ClaimResult(Verdict.INCONCLUSIVE, f"printed vs engine deviate by {dev_pe:.2e}", res.evidence, res.precision)
    if res.verdict == Verdict.VERIFIED and generic_dev is not None and generic_dev > _REL:
        return ClaimResult(Verdict.INCONCLUSIVE, f"closed form vs generic engine deviate by {generic_dev:.2e}",
                           res.evidence, res.precision)
    gen_txt = "" if generic_dev is None else f"; closed form = generic engine (Sec. 3.3) within {generic_dev:.1e}"
    return ClaimResult(res.verdict, res.summary + f"; printed = engine on {len(z)} points of all 10 regions "
                       f"(max rel. dev. {dev_pe:.1e})" + gen_txt, res.evidence,
                       "2-D brute force (float64 search, 1e-9 rel.); printed vs engine 1e-12")


# ---------------------------------------------------------------------------------------------
# 004 Sec. 4.3 (Gaussian KDE)
# ---------------------------------------------------------------------------------------------
@claim("004-Claim-4.4")
def check_claim_4_4(ctx: CheckContext) -> ClaimResult:

    c = sp.symbols("c", positive=True)
    crit = sp.solve(sp.diff(c * sp.exp(-c**2 / 2), c), c)
    val = sp.simplify((c * sp.exp(-c**2 / 2)).subs(c, crit[0]))
    second = sp.simplify(sp.diff(c * sp.exp(-c**2 / 2), c, 2).subs(c, crit[0]))
    b = np.linspace(0, 30, ctx.scaled(200001, 20001))
    ell = kde_chord_slope(b)  # chord-slope sup (L_{kappa,inf} h): never above e^{-1/2}
    ev: dict[str, Any] = {"critical_points": [str(v) for v in crit], "max_value": str(val), "second_derivative": str(second),
          "max_chord_slope_grid": float(ell.max()), "e^-1/2": math.exp(-0.5)}
    if crit == [1] and sp.simplify(val - sp.exp(-sp.Rational(1, 2))) == 0 and ell.max() <= math.exp(-0.5) * (1 + 1e-15):
        return ClaimResult(Verdict.VERIFIED, "sup_c c e^{-c^2/2} = e^{-1/2} at c = 1 (SymPy); chord slopes never exceed it",
                           ev, "SymPy exact; grid of the chord-slope closed form")
    return ClaimResult(Verdict.INCONCLUSIVE, "unexpected symbolic result", ev, "")


@claim("004-Lemma-4.5")
def check_lemma_4_5(ctx: CheckContext) -> ClaimResult:
    rng, n = ctx.sample("004-Lemma-4.5", 100000, 10000)
    worst = -np.inf
    for d in (2, 3, 5):
        t = rng.normal(size=d)
        x = t + rng.normal(size=(n, d))
        w = t + 2 * rng.normal(size=(n, d))
        z = t + 2 * rng.normal(size=(n, d))
        nx = np.linalg.norm(x - t, axis=1)
        cz = np.linalg.norm(z - t, axis=1) / nx
        cw = np.linalg.norm(w - t, axis=1) / nx
        zL = cz[:, None] * x + (1 - cz)[:, None] * t
        wL = cw[:, None] * x + (1 - cw)[:, None] * t
        gamma, h = 0.7, 0.9
        k = lambda p, t=t, h=h: np.exp(-np.sum((p - t) ** 2, axis=1) / (2 * h * h))  # noqa: E731
        obj = lambda a, bb, k=k, gamma=gamma, x=x: np.abs(k(a) - k(bb)) / np.linalg.norm(a - bb, axis=1) / np.exp(gamma * np.linalg.norm(x - bb, axis=1))  # noqa: E731
        ratio = obj(w, z) / obj(wL, zL)
        worst = max(worst, float(np.max(ratio)))
    ev: dict[str, Any] = {"pairs_per_dimension": n, "dimensions": [2, 3, 5], "max_ratio_original_over_projected": worst}
    if worst <= 1 + 1e-12:
        return ClaimResult(Verdict.VERIFIED, f"projected pairs never worse (max ratio {worst:.15f}) over {3 * n} random pairs",
                           ev, "float64, 1e-12 relative")
    return ClaimResult(Verdict.REFUTED, f"projected pair worse: ratio {worst}", ev, "float64")


def _printed_lemma_4_6(c: Any, gamma: Any, h: Any) -> tuple[Any, dict[str, Any]]:
    """004 Lemma 4.6 as printed, with only the typos E1 (phi_0's first exponent c_z) and E2
    (e^{-c^2/2} in S_2) fixed, evaluated in mpmath; S_1, S_3 as printed (phi_1)."""
    c, g, h = mpmath.mpf(c), mpmath.mpf(gamma), mpmath.mpf(h)
    gh = g * h
    k = lambda u: mpmath.exp(-u**2 / 2)  # noqa: E731

    def tangent_other_end(A: Any, lo: Any, hi: Any) -> Any:
        f = lambda B: mpmath.exp(-(B - A) * (B + A) / 2) - (1 + A * (A - B))  # noqa: E731
        flo, fhi = f(lo), f(hi)
        if not flo * fhi < 0:
            return None
        return bisect_sign_change(f, lo, hi, flo)

    cands: dict[str, Any] = {}
    A = (-gh + mpmath.sqrt(gh**2 + 4)) / 2  # c c_w for c_w = phi_1(-gamma)
    B = tangent_other_end(A, mpmath.mpf(1), A + 1 / A)
    if B is not None and B > c:
        cands["S1 (c_z > 1)"] = A * k(A) * mpmath.exp(-gh * abs(B - c)) / h
    A = (gh + mpmath.sqrt(gh**2 + 4)) / 2  # c_w = phi_1(gamma)
    B = tangent_other_end(A, mpmath.mpf(10) ** -40, mpmath.mpf(1))
    if B is not None and B < c:
        cands["S1 (c_z < 1)"] = A * k(A) * mpmath.exp(-gh * abs(B - c)) / h
    if c > 0:
        if c < 1:
            lo, hi = mpmath.mpf(1), mpmath.mpf("1.58520106524451318700876867459")
        else:
            lo = mpmath.mpf(10) ** -40
            hi = mpmath.mpf(1) if c <= 2 else 2 / (c + mpmath.sqrt(c**2 - 4)) * (1 + mpmath.mpf(10) ** -30)
        f = lambda a: mpmath.exp(-(c - a) * (c + a) / 2) - (1 + a * (a - c))  # noqa: E731
        flo = f(lo)
        if flo * f(hi) < 0:
            A = bisect_sign_change(f, lo, hi, flo)
            cands["S2 phi_0(c_w, 1) = 0"] = abs(k(A) - k(c)) / (abs(A - c) * h)
        cands["S2 c_w = 0"] = (1 - k(c)) / (c * h)
    b = (-gh + mpmath.sqrt(gh**2 + 4)) / 2
    if b > c:
        cands["S3 (c_z > 1)"] = b * k(b) * mpmath.exp(-gh * abs(b - c)) / h
    b = (gh + mpmath.sqrt(gh**2 + 4)) / 2
    if b < c:
        cands["S3 (c_z < 1)"] = b * k(b) * mpmath.exp(-gh * abs(b - c)) / h
    cands["w = z = x"] = c * k(c) / h
    return max(cands.values()), cands


def _lemma_4_6_worst() -> dict[str, Any]:
    """The largest relative deficit (B* - printed)/B* of 004 Lemma 4.6 as printed (typos E1, E2 fixed)
    over c in [0.01, 20], gamma h in [0.01, 20] (h = 1; B* from the closed form, = brute force), by
    :func:`verify.claims.evidence.maximise` (cached per process)."""
    g = {}

    def deficit(c: float, gh: float) -> float:
        with mpmath.workdps(20):
            pr = float(_printed_lemma_4_6(c, gh, 1.0)[0])
        cf = float(smooth_sensitivity_kde([c], [0.0], 1.0, growth_exp(gh))[0])
        return (cf - pr) / cf

    g = maximise("004-Lemma-4.6 printed deficit", deficit, [(0.01, 20.0), (0.01, 20.0)], grid=14, starts=2,
                 maxiter=60)
    return g


def _lemma_4_7_rows(gh: float) -> tuple[float, float]:
    """(printed B*(t), printed with the E3 typo fixed) of 004 Lemma 4.7 relative to the closed form:
    (printed - B*)/B*, (B* - fixed)/B* at gamma h (h = 1), memoised."""
    if gh not in _L47_MEMO:
        with mpmath.workdps(20):
            printed, cands = _printed_lemma_4_7(gh, 1.0)
        fixed = max(float(v) for k, v in cands.items() if k != "S1 (printed objective)" and v is not None)
        cf = float(smooth_sensitivity_kde([0.0], [0.0], 1.0, growth_exp(gh))[0])
        _L47_MEMO[gh] = ((float(printed) - cf) / cf, (cf - fixed) / cf)
    return _L47_MEMO[gh]


_L47_MEMO: dict[float, tuple[float, float]] = {}


def _kde_brute(c: float, gamma: float, h: float, ctx: CheckContext) -> float:
    f = lambda u: np.exp(-0.5 * (np.asarray(u)[..., 0] / h) ** 2)  # noqa: E731
    return _brute_1d(f, kde_query_mp(0.0, h), c * h, growth_exp(gamma), [0.0, h, -h], 8.0 * h, ctx)


@claim("004-Lemma-4.6")
def check_lemma_4_6(ctx: CheckContext) -> ClaimResult:
    from derivations.stationary_004 import derive_kde_sets  # noqa: PLC0415 - the SymPy derivations load when this check runs, not with the registry

    # the symbolic comparisons (E1-E4) take seconds: run in the full audit, not in --quick
    sets = derive_kde_sets(n_points=ctx.scaled(20, 2)) if ctx.budget >= 0.5 else None
    pts = [(0.05, 0.3), (3.0, 0.3), (0.5, 1.0), (1.3, 0.3), (2.0, 0.1), (0.2, 0.1)][: ctx.scaled(6, 1)]
    h = 1.0
    rows: list[dict[str, Any]] = []
    with mpmath.workdps(ctx.dps):
        for c, gh in pts:
            printed, cands = _printed_lemma_4_6(c, gh / h, h)
            bf = _kde_brute(c, gh / h, h, ctx)
            cf = float(smooth_sensitivity_kde([c * h], [0.0], h, growth_exp(gh / h))[0])
            rows.append({"c": c, "gamma_h": gh, "printed_typos_fixed": float(printed),
                         "printed_argmax": max(cands, key=lambda k: cands[k]), "brute_force": bf, "closed_form": cf,
                         "printed_rel_deficit": (bf - float(printed)) / bf, "engine_rel_dev": rel_dev(cf, bf)})
    engine_ok = all(r["engine_rel_dev"] <= _REL for r in rows)
    worst = max(rows, key=lambda r: r["printed_rel_deficit"])
    ev: dict[str, Any] = {
        "printed": ["phi_0 = e^{-c_w^2 c^2/2} - (1 + c^2(c_w - c_z)c_w) e^{-c_w^2 c^2/2}",
                    "S_2 objective |e^{-c_w^2c^2/2} - e^{-c^2}|/(|c_w - 1| c h)",
                    "S_1: c_w = phi_1(-+gamma) (from eq. (3), differentiating after substitution)"],
        "corrected": ["phi_0 = e^{-c_z^2 c^2/2} - (1 + c^2(c_w - c_z)c_w) e^{-c_w^2 c^2/2}",
                      "S_2 objective |e^{-c_w^2c^2/2} - e^{-c^2/2}|/(|c_w - 1| c h)",
                      "S_1: radii b of z with D(b) = +-gamma h, D(b) = (k'(a) - k'(b))/((a - b)k'(a)), a the tangent "
                      "partner of b (phi_0 = 0); B* = (1/h) max(ell(c), ell(b1)e^{-gh(b1-c)}[c<b1], ell(b2)e^{-gh(c-b2)}[b2<c])"],
        "rows": rows,
        "symbolic_comparisons": ([cmp.evidence() for cmp in sets["comparisons"]] if sets
                                 else "run with budget >= 0.5 (full audit)"),
        "printed_S1_pairs_not_stationary": sets["e4"] if sets else "run with budget >= 0.5 (full audit)",
    }
    if engine_ok and worst["printed_rel_deficit"] > 1e-6:
        opt = _lemma_4_6_worst()
        c_m, gh_m = opt["maximiser"]
        with mpmath.workdps(ctx.dps):  # the maximiser re-evaluated: printed in mpmath, B* by brute force
            printed_m, cands_m = _printed_lemma_4_6(c_m, gh_m / h, h)
            bf_m = _kde_brute(c_m, gh_m / h, h, ctx)
        cert = {"c": c_m, "gamma_h": gh_m, "printed_typos_fixed_mp": mpmath.nstr(printed_m, 20),
                "printed_argmax": max(cands_m, key=lambda k: cands_m[k]), "brute_force_B*": bf_m,
                "rel_deficit": (bf_m - float(printed_m)) / bf_m}
        ev["worst_case_search"] = opt
        ev["certificate"] = cert
        return ClaimResult(Verdict.REFUTED, f"printed B* (typos fixed) is below the brute-force B* by up to "
                           f"{100 * cert['rel_deficit']:.2f}% (optimiser over c in [0.01, 20], gamma h in [0.01, 20]: "
                           f"maximiser c={c_m:.4g}, gamma h={gh_m:.4g}"
                           + ("; at the box edge c = 0.01: the deficit grows as c -> 0" if opt["at_box_edge"][0] else "")
                           + "); not a smooth upper bound; phi_0 and S_2 have "
                           "typos; S_1 is not the stationary set; corrected form = engine", ev, _prec(ctx),
                           rule="R-INVALID: the printed B* is below the true smooth sensitivity (certified by brute "
                                "force at the optimiser's maximiser): not a valid bound, and the S_1 system is wrong "
                                "(not a slip)")
    return ClaimResult(Verdict.INCONCLUSIVE, f"engine_ok={engine_ok}, printed deficit {worst['printed_rel_deficit']:.2e}", ev,
                       _prec(ctx))


def _printed_lemma_4_7(gamma: Any, h: Any) -> tuple[Any, dict[str, Any]]:
    """004 Lemma 4.7 as printed (objective of S_1 with its extra l_z, E3), in mpmath.  S_1 pairs
    (c_w, l_z = phi_1(c_w)) with phi_0(c_w, phi_1(c_w)) = 0 are found by a scan + bisection in c_w."""
    g, h = mpmath.mpf(gamma), mpmath.mpf(h)
    phi1 = lambda cw: h / (2 * cw**2) * (-g + mpmath.sqrt(g**2 + 4 * cw**2 / h**2))  # noqa: E731
    phi0 = lambda cw, lz: mpmath.exp(-lz**2 / 2) - (1 + lz**2 * (cw - 1) * cw) * mpmath.exp(-cw**2 * lz**2 / 2)  # noqa: E731
    F = lambda cw: phi0(cw, phi1(cw))  # noqa: E731
    cands: dict[str, Any] = {}
    grid = [mpmath.mpf(i) / 100 for i in range(1, 400) if i != 100]
    vals = [F(v) for v in grid]
    s1_printed, s1_value = [], []
    for (a0, f0), (a1, f1) in itertools.pairwise(zip(grid, vals, strict=True)):
        if f0 * f1 < 0 and not (a0 < 1 < a1):
            cw = bisect_sign_change(F, a0, a1, f0)
            lz = phi1(cw)
            s1_printed.append(lz / h * cw * lz * mpmath.exp(-cw**2 * lz**2 / 2) / mpmath.exp(g * lz * h))
            s1_value.append(cw * lz * mpmath.exp(-cw**2 * lz**2 / 2) / mpmath.exp(g * lz * h) / h)
    if s1_printed:
        cands["S1 (printed objective)"] = max(s1_printed)
    lw = mpmath.sqrt(-2 * mpmath.lambertw(-mpmath.exp(-0.5) / 2, -1).real - 1)
    cands["S2"] = (1 - mpmath.exp(-lw**2 / 2)) / (lw * h)
    lz = phi1(mpmath.mpf(1))
    cands["S3"] = lz / h * mpmath.exp(-lz**2 / 2) / mpmath.exp(g * lz * h)
    return max(cands.values()), {**cands, "S1 (value of the proof)": max(s1_value) if s1_value else None}


@claim("004-Lemma-4.7")
def check_lemma_4_7(ctx: CheckContext) -> ClaimResult:
    h = 1.0
    rows: list[dict[str, Any]] = []
    with mpmath.workdps(min(ctx.dps, 30)):
        for gh in [0.3, 0.05, 1.0, 3.0][: ctx.scaled(4, 1)]:
            printed, cands = _printed_lemma_4_7(gh / h, h)
            bf = _kde_brute(0.0, gh / h, h, ctx)
            cf = float(smooth_sensitivity_kde([0.0], [0.0], h, growth_exp(gh / h))[0])
            fixed = max(float(v) for k, v in cands.items() if k != "S1 (printed objective)" and v is not None)
            rows.append({"gamma_h": gh, "printed": float(printed), "printed_E3_fixed": fixed, "brute_force": bf,
                         "closed_form": cf,
                         "candidates": {k: (None if v is None else float(v)) for k, v in cands.items()},
                         "printed_rel_dev": rel_dev(float(printed), bf), "E3_fixed_rel_deficit": (bf - fixed) / bf,
                         "engine_rel_dev": rel_dev(cf, bf)})
    engine_ok = all(r["engine_rel_dev"] <= _REL for r in rows)
    worst = max(rows, key=lambda r: r["printed_rel_dev"])
    ev: dict[str, Any] = {
        "printed": ["S_1 objective (l_z/h) c_w l_z e^{-c_w^2 l_z^2/2}/e^{gamma l_z h}",
                    "S_1 = {phi_0(c_w, phi_1(c_w)) = 0} (l_z condition from differentiating after substitution)"],
        "corrected": ["S_1 objective c_w l_z e^{-c_w^2 l_z^2/2}/e^{gamma l_z h} / h",
                      "B*(t) = (1/h) max(ell(0), ell(b1) e^{-gamma h b1}), D(b1) = gamma h (see 004-Lemma-4.6)"],
        "S_2_lambert_w": "sqrt(-2 W_{-1}(-e^{-1/2}/2) - 1) = 1.5852010652445131870... (correct)",
        "rows": rows,
    }
    if engine_ok and worst["printed_rel_dev"] > 1e-6:
        box = [(0.01, 20.0)]
        over = maximise("004-Lemma-4.7 printed excess", lambda gh: _lemma_4_7_rows(gh)[0], box, grid=12, starts=1,
                        maxiter=20)
        under = maximise("004-Lemma-4.7 E3-fixed deficit", lambda gh: _lemma_4_7_rows(gh)[1], box, grid=12, starts=1,
                         maxiter=20)
        gh_u = under["maximiser"][0]
        with mpmath.workdps(min(ctx.dps, 30)):
            _, cands_u = _printed_lemma_4_7(gh_u, h)
            bf_u = _kde_brute(0.0, gh_u, h, ctx)
        fixed_u = max(float(v) for k, v in cands_u.items() if k != "S1 (printed objective)" and v is not None)
        ev["worst_case_search"] = {"printed_excess": over, "E3_fixed_deficit": under}
        ev["certificate"] = {"gamma_h": gh_u, "printed_E3_fixed_mp": fixed_u, "brute_force_B*": bf_u,
                             "rel_deficit": (bf_u - fixed_u) / bf_u,
                             "meaning": "with the S_1 typo fixed, the printed B*(t) is below the brute-force B*(t): "
                                        "not a valid bound"}
        return ClaimResult(Verdict.REFUTED, f"printed B*(t) deviates from brute force by up to "
                           f"{100 * over['maximum']:.2f}% (optimiser over gamma h in [0.01, 20]: maximiser gamma h="
                           f"{over['maximiser'][0]:.4g}; the extra factor l_z in the S_1 objective overestimates); with "
                           f"that typo fixed it is up to {100 * ev['certificate']['rel_deficit']:.2f}% too small (maximiser "
                           f"gamma h={gh_u:.4g}; S_1 is not the stationary set); S_2 (Lambert W) is right", ev, _prec(ctx),
                           rule="R-INVALID: the S_1 stationary system is wrong (not a slip): with the typo in its "
                                "objective fixed the printed B*(t) is below the true smooth sensitivity (certified by "
                                "brute force at the optimiser's maximiser)")
    if engine_ok:
        return ClaimResult(Verdict.VERIFIED, "printed B*(t) equals brute force at the tested gamma h", ev, _prec(ctx))
    return ClaimResult(Verdict.INCONCLUSIVE, "engine and brute force disagree", ev, _prec(ctx))


@claim("004-App-A.4-derivatives")
def check_a4_derivatives(ctx: CheckContext) -> ClaimResult:
    from derivations.stationary_004 import derive_kde_partials  # noqa: PLC0415 - the SymPy derivations load when this check runs, not with the registry

    comps = derive_kde_partials()["comparisons"]
    ev: dict[str, Any] = {"comparisons": [c.evidence() for c in comps],
          "note": "eq. (3) is the correct derivative of the reduced objective at fixed a, but that derivative is not "
                  "the stationarity condition of Psi (erratum E4, claim 004-Lemma-4.6)"}
    if all(c.agree for c in comps):
        return ClaimResult(Verdict.VERIFIED, "eqs. (2)-(5) re-derived with SymPy: all equal the printed ones", ev, "SymPy")
    ev["certificate"] = [c.evidence() for c in comps if not c.agree]
    return ClaimResult(Verdict.REFUTED, "some printed derivative differs: " + ", ".join(c.name for c in comps if not c.agree),
                       ev, "SymPy / mpmath 50 digits",
                       rule="R-FALSE: a printed derivative is not the derivative of its objective (mpmath values at "
                            "the certified points)")


# ---------------------------------------------------------------------------------------------
# 004 Lemma 4.8 (linear forms)
# ---------------------------------------------------------------------------------------------
@claim("004-Lemma-4.8")
def check_lemma_4_8(ctx: CheckContext) -> ClaimResult:
    rng, n = ctx.sample("004-Lemma-4.8", 100000, 10000)
    worst = same = 0.0
    for d in (2, 4):
        beta0, beta = rng.normal(), rng.normal(size=d)
        nb = np.linalg.norm(beta)
        f0 = lambda u: np.tanh(u) + 0.3 * np.sin(3 * u)  # noqa: E731  any f0
        f = lambda p, f0=f0, beta0=beta0, beta=beta: f0(beta0 + p @ beta)  # noqa: E731
        x, w, z = (rng.normal(size=(n, d)) * 2 for _ in range(3))
        a = ((w - z) @ beta) / nb
        c = ((z - x) @ beta) / nb
        zc = x + c[:, None] * beta / nb
        wa = zc + a[:, None] * beta / nb
        gamma = 0.5
        obj = lambda ww, zz, f=f, gamma=gamma, x=x: np.abs(f(ww) - f(zz)) / np.linalg.norm(ww - zz, axis=1) / np.exp(gamma * np.linalg.norm(zz - x, axis=1))  # noqa: E731
        ratio = obj(w, z) / obj(wa, zc)
        worst = max(worst, float(np.nanmax(ratio)))
        same = max(same, float(np.max(np.abs(f(wa) - f(w)) + np.abs(f(zc) - f(z)))))  # every d, not the last
    ev: dict[str, Any] = {"pairs_per_dimension": n, "max_ratio_original_over_reduced": worst, "max_value_mismatch": same}
    impl_ok = True
    if ctx.budget >= 0.5:  # the reduction as implemented (linear_form.py) against a 2-D brute force of Def. 9
        beta0, beta, tau, g = 0.3, np.array([0.6, -1.2]), 0.5, growth_exp(0.9)
        f2 = lambda p: np.clip((beta0 + np.asarray(p).reshape(-1, 2) @ beta) / tau + 0.5, 0, 1).reshape(np.shape(p)[:-1])  # noqa: E731
        xq = np.array([[1.1, -0.4]])
        bf = float(brute_smooth_sensitivity(f2, xq, g, d=2, radius=3.0, n_grid=21, n_radii=20).value[0])
        cf = float(smooth_sensitivity_linear_threshold(xq, beta0, beta, tau, g)[0])
        ev["linear_threshold_vs_2d_brute"] = {"x": xq[0].tolist(), "closed_form": cf, "brute_force": bf,
                                              "rel_dev": rel_dev(cf, bf)}
        impl_ok = rel_dev(cf, bf) <= _REL
    if worst <= 1 + 1e-9 and same < 1e-9 and impl_ok:
        return ClaimResult(Verdict.VERIFIED, f"reduced pairs never worse (max ratio {worst:.12f})", ev, "float64")
    return ClaimResult(Verdict.REFUTED if worst > 1 + 1e-6 else Verdict.INCONCLUSIVE, f"max ratio {worst}", ev, "float64")


# ---------------------------------------------------------------------------------------------
# 004 Lemmas 3.1, 3.2 and Def. 8 on the closed forms
# ---------------------------------------------------------------------------------------------
def _queries(gkind: str, gamma: float, Lam: float) -> list[tuple[str, Any, Any, int]]:
    """(name, B*, L_{f,Lambda}, d) of the built-in queries of the black-box auditor
    (:func:`verify.audit.blackbox.queries.builtin_query`, the one owner of the query definitions)."""
    g = growth_exp(gamma) if gkind == "exp" else growth_linear(gamma)
    cases = [
        ("threshold", builtin_query("threshold", g, Lam, T=0.5, tau=0.7)),
        ("bounded range (tent)", builtin_query("bounded-range", g, Lam, l=-1, r=1.5, tau=0.6)),
        ("bounded range (trapezoid)", builtin_query("bounded-range", g, Lam, l=-1, r=1.5, tau=0.6, shape="trapezoid")),
        ("two-way threshold", builtin_query("two-way", g, Lam, T1=1.0, T2=2.0, tau=0.8)),
    ]
    if math.isinf(Lam):  # KDE closed form: g_E (Lemmas 4.6-4.7) and g_L (extension), Lambda = inf
        cases.append(("KDE d=3", builtin_query("kde", g, Lam, t=[0.1, 0.2, 0.3], h=0.8)))
    return [(name, q.smooth_sensitivity, q.lipschitz, q.d) for name, q in cases]


def _def8_search(ctx: CheckContext, settings: list[tuple[str, float, float]], salt: str) -> dict[str, Any]:
    rng, n = ctx.sample(salt, 20000, 2000)
    worst1, worst2 = 0.0, 0.0
    where1: dict[str, Any] = {}
    where2: dict[str, Any] = {}
    for gkind, gamma, Lam in settings:
        g = growth_exp(gamma) if gkind == "exp" else growth_linear(gamma)
        for name, B, L, d in _queries(gkind, gamma, Lam):
            x = rng.uniform(-4, 5, size=(n, d))
            # adversarial partners: near (steps down to 1e-6) and far
            step = rng.normal(size=(n, d)) * 10.0 ** rng.uniform(-6, 0.5, size=(n, 1))
            xp = x + step
            Bx, Bxp, Lx = B(x), B(xp), L(x)
            r1 = float(np.max(Lx / Bx))  # condition (1): <= 1
            gx = g.g0(np.linalg.norm(step, axis=1))
            r2 = float(np.max(Bx / (gx * Bxp)))  # condition (2): <= 1
            if r1 > worst1:
                worst1, where1 = r1, {"query": name, "growth": gkind, "gamma": gamma, "Lambda": Lam}
            if r2 > worst2:
                worst2, where2 = r2, {"query": name, "growth": gkind, "gamma": gamma, "Lambda": Lam}
    return {"cond1_max_L_over_B": worst1, "at1": where1, "cond2_max_B_over_gB": worst2, "at2": where2,
            "pairs_per_case": n}


@claim("004-Lemma-3.1")
def check_lemma_3_1(ctx: CheckContext) -> ClaimResult:
    ev = _def8_search(ctx, [("exp", 0.3, math.inf), ("exp", 2.0, math.inf)], "004-Lemma-3.1")
    ok = ev["cond1_max_L_over_B"] <= 1 + 1e-12 and ev["cond2_max_B_over_gB"] <= 1 + 1e-9
    return ClaimResult(Verdict.VERIFIED if ok else Verdict.REFUTED,
                       f"max L/B* = {ev['cond1_max_L_over_B']:.15f}, max B*(x)/(g B*(x')) = "
                       f"{ev['cond2_max_B_over_gB']:.15f}", ev, "float64 adversarial search, 1e-9")


@claim("004-Def-8-smoothness")
def check_def_8(ctx: CheckContext) -> ClaimResult:
    ev = _def8_search(ctx, [("linear", 0.5, math.inf), ("linear", 3.0, 1.5), ("exp", 1.5, 0.4), ("exp", 0.2, 3.0)],
                      "004-Def-8")
    ok = ev["cond1_max_L_over_B"] <= 1 + 1e-12 and ev["cond2_max_B_over_gB"] <= 1 + 1e-9
    # exactness for finite Lambda / g_L against brute force of Def. 9 at a few points
    rows: list[dict[str, Any]] = []
    rng = ctx.rng("004-Def-8-brute")
    for gkind, gamma, Lam in [("linear", 0.8, math.inf), ("exp", 1.5, 0.5), ("linear", 2.0, 1.2)][: ctx.scaled(3, 1)]:
        g = growth_exp(gamma) if gkind == "exp" else growth_linear(gamma)
        x = float(rng.uniform(-3, 3))
        f = lambda u: np.clip((np.asarray(u)[..., 0] - 0.5) / 0.7 + 0.5, 0, 1)  # noqa: E731
        r = brute_smooth_sensitivity(f, [x], g, Lam, extra_points=[0.15, 0.85], radius=8.0,
                                     f_mp=threshold_query_mp(0.5, 0.7), mp=mpmath, dps=ctx.dps)
        cf = float(smooth_sensitivity_threshold([x], 0.5, 0.7, g, Lam)[0])
        rows.append({"growth": gkind, "gamma": gamma, "Lambda": Lam, "x": x, "closed_form": cf,
                     "brute_force": float(r.value[0]), "rel_dev": rel_dev(cf, float(r.value[0]))})
    if ctx.budget >= 0.5:  # the two-way reduction with g_L and finite Lambda against a 2-D brute force
        g = growth_linear(1.3)
        f2 = lambda p: soft_two_way_threshold(np.asarray(p).reshape(-1, 2), 1.0, 2.0, 0.8).reshape(np.shape(p)[:-1])  # noqa: E731
        for z in ([0.2, 0.9], [2.9, 3.6]):
            r = brute_smooth_sensitivity(f2, [z], g, 1.2, d=2, radius=4.0)
            cf = float(smooth_sensitivity_two_way_threshold([z], 1.0, 2.0, 0.8, g, 1.2)[0])
            rows.append({"query": "two-way", "growth": "linear", "gamma": 1.3, "Lambda": 1.2, "x": z[0], "z": z,
                         "closed_form": cf, "brute_force": float(r.value[0]), "rel_dev": rel_dev(cf, float(r.value[0]))})
    ev["brute_force_rows"] = rows
    # 1-D rows: 1e-9 relative.  2-D rows: the brute force is a feasible value (a lower bound), so the
    # closed form must not be below it and within 1e-9.
    exact = all(
        (r["rel_dev"] <= _REL) if "z" not in r
        else (r["closed_form"] >= r["brute_force"] * (1 - _REL) and r["rel_dev"] <= _REL)
        for r in rows
    )
    if ok and exact:
        return ClaimResult(Verdict.VERIFIED, "Def. 8 holds for g_L / finite Lambda closed forms; B* = brute force "
                           f"at {len(rows)} points", ev, "float64 adversarial search; brute force mpmath")
    return ClaimResult(Verdict.REFUTED if not ok else Verdict.INCONCLUSIVE, f"cond ok={ok}, exact={exact}", ev, "")


@claim("004-Lemma-3.2")
def check_lemma_3_2(ctx: CheckContext) -> ClaimResult:
    rng = ctx.rng("004-Lemma-3.2")
    rows: list[dict[str, Any]] = []
    for _ in range(ctx.scaled(40, 6)):
        kind = rng.choice(["threshold", "kde"])
        gamma = float(rng.uniform(0.1, 3))
        g = growth_exp(gamma)
        x = float(rng.uniform(-4, 4))
        zs = np.unique(np.concatenate([np.linspace(x - 30, x + 30, 20001), [x]]))
        if kind == "threshold":
            Lf = lambda z: lipschitz_threshold(z, 0.0, 1.0)  # noqa: E731
            Bx = float(smooth_sensitivity_threshold([x], 0.0, 1.0, g)[0])
            Bf = lambda z, g=g: smooth_sensitivity_threshold(z, 0.0, 1.0, g)  # noqa: E731
        else:
            Lf = lambda z: lipschitz_kde(z, [0.0], 1.0)  # noqa: E731
            Bx = float(smooth_sensitivity_kde([x], [0.0], 1.0, g)[0])
            Bf = lambda z, g=g: smooth_sensitivity_kde(z, [0.0], 1.0, g)  # noqa: E731
        ratio = Lf(zs) / np.exp(gamma * np.abs(zs - x))
        i = int(np.argmax(ratio))
        lo, hi = zs[max(i - 1, 0)], zs[min(i + 1, len(zs) - 1)]
        res = minimize_scalar(lambda z, Lf=Lf, gamma=gamma, x=x: -float(Lf(np.array([z]))[0]) * math.exp(-gamma * abs(z - x)),
                              bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
        zstar = float(res.x) if -res.fun > ratio[i] else float(zs[i])
        L = Lf(np.array([zstar]))
        Bz = Bf(np.array([zstar]))
        ratio = np.array([float(L[0]) * math.exp(-gamma * abs(zstar - x))])
        zs = np.array([zstar])
        i = 0
        # a competitor B' = (1 - 1e-6) B* at x: violates (1) at x if z* = x, else (2) with z*
        Bp = (1 - 1e-6) * Bx
        violated = bool(Bp < L[i] / math.exp(gamma * abs(zs[i] - x)) <= Bz[i] / math.exp(gamma * abs(zs[i] - x)))
        rows.append({"query": str(kind), "gamma": gamma, "x": x, "B*(x)": Bx, "z*": float(zs[i]),
                     "L(z*)/g": float(ratio[i]), "attained_rel_gap": (Bx - float(ratio[i])) / Bx,
                     "lowered_bound_violates_def8": violated})
    ok = all(r["lowered_bound_violates_def8"] for r in rows)
    gap = max(r["attained_rel_gap"] for r in rows)
    ev: dict[str, Any] = {"rows": rows, "max_rel_gap_sup_vs_search_max": gap}
    if ok and gap < 1e-6:
        return ClaimResult(Verdict.VERIFIED, f"B*(x) attained (grid + Brent) to {gap:.1e} at {len(rows)} points; "
                           "(1 - 1e-6) B* breaks Def. 8 each time", ev, "float64 grid of 20001 points + bounded Brent")
    return ClaimResult(Verdict.INCONCLUSIVE, f"ok={ok}, gap={gap}", ev, "float64")


@claim("004-Sec-3.3-S4")
def check_s4(ctx: CheckContext) -> ClaimResult:
    """Definition (004 Defs. 7, 9) in mpmath: B*(0) = sup_z L(z) e^{-|z|}, L(z) = sup_{0<|w-z|<=Lambda}
    |w^2 - z^2|/|w - z| by a grid over w (endpoints included) and a golden-section search in z.
    Printed procedure: S1 and S2 are empty (psi_z(w) = |w + z| has no stationary point), S0 is empty,
    S3 = {z : d/dz (|2z| e^{-|z|}) = 0} = {+-1}, value 2/e; printed S4: w = z + Lambda and
    d/dz [(w + z) e^{-z}] = 0 at fixed w, i.e. w + z = 1, value e^{-(1 - Lambda)/2}.  Corrected S4:
    stationarity along the Lambda-sphere, d/dz [(2z + Lambda) e^{-z}] = 0 (what the engine solves)."""
    lam, gamma = mpmath.mpf("0.1"), mpmath.mpf(1)
    with mpmath.workdps(ctx.dps):
        def L(z: Any) -> Any:
            ws = [z - lam + 2 * lam * mpmath.mpf(k) / 200 for k in range(201) if k != 100]
            return max(abs(w**2 - z**2) / abs(w - z) for w in ws)

        def objective(z: Any) -> Any:
            return L(z) * mpmath.exp(-gamma * abs(z))

        grid = [mpmath.mpf(k) / 100 for k in range(0, 301)]
        z0 = max(grid, key=objective)
        a, b = max(z0 - mpmath.mpf("0.01"), 0), z0 + mpmath.mpf("0.01")
        z_star, b_def = golden_section_max(objective, a, b, 120)  # on the unimodal bracket
        printed_s3 = 2 / mpmath.e
        printed_s4 = mpmath.exp(-(1 - lam) / 2)
        printed = max(printed_s3, printed_s4)
    from derivations.engine import smooth_sensitivity_engine  # noqa: PLC0415 - the SymPy derivations load when this check runs, not with the registry

    xs = sp.Symbol("x", real=True)
    eng = smooth_sensitivity_engine(xs**2, xs, growth_exp(1.0), 0.1, radius=5.0)
    b_engine = float(eng.smooth_sensitivity([0.0])[0])
    ev: dict[str, Any] = {
        "definition_mpmath": mpmath.nstr(b_def, 20), "argmax_z": mpmath.nstr(z_star, 15),
        "printed_candidates": {"S3 (z = 1)": mpmath.nstr(printed_s3, 15), "printed S4 (w + z = 1)": mpmath.nstr(printed_s4, 15)},
        "engine_corrected_S4": b_engine,
        "printed": "S4 = {(w, z) : ||w - z|| = Lambda, dPsi/dz(z, w) = 0 with w held fixed}",
        "corrected": "S4 = {(w, z) : w = z + Lambda u, u a unit vector, d/d(z, u) Psi(z, z + Lambda u) = 0} "
                     "(stationary on the constraint ||w - z|| = Lambda, w moving with z)",
        "erratum_points": [{"f": "x^2", "Lambda": 0.1, "gamma": 1, "x": 0, "printed_max": mpmath.nstr(printed, 15),
                            "B*_definition": mpmath.nstr(b_def, 15)}],
    }
    engine_ok = abs(b_engine - float(b_def)) <= 1e-12 * float(b_def)
    if printed < b_def * (1 - mpmath.mpf(10) ** -6) and engine_ok:
        short = float((b_def - printed) / b_def)
        ev["certificate"] = ev["erratum_points"][0]
        return ClaimResult(Verdict.REFUTED, f"printed S0-S4 give {float(printed):.6f} < B*(0) = {float(b_def):.6f} "
                           f"({short:.1%} too small: not a smooth upper bound); corrected S4 = engine = definition", ev,
                           f"mpmath {ctx.dps} digits (definition); engine in float",
                           rule="R-INVALID: the printed stationarity system S4 is wrong (w held fixed on the constraint) "
                                "and the bound it gives is below B* (certified in mpmath): not a valid bound")
    if not engine_ok:
        return ClaimResult(Verdict.INCONCLUSIVE, f"engine {b_engine} disagrees with the definition {float(b_def)} (code defect?)", ev)
    return ClaimResult(Verdict.VERIFIED, "printed procedure attains B*(0)", ev, ctx.mp_precision)


omitted("004", "Lemma 2.1 (Laplace mechanism, [DMNS06])", "cited prior result; its GP form, Lemma 2.3, is audited "
        "(004-Lemma-2.3) and so is every Laplace-based mechanism of the core")
omitted("004", "Lemma 3.7 (smooth upper bounds from a family G_r)", "a construction lemma with no formula of its own; "
        "its instance, B* of Def. 9 (Lemma 3.1), is checked by 004-Lemma-3.1 and 004-Def-8-smoothness")
omitted("004", "Lemma C.1 (B >= B* under the relaxed condition (2), g_E)", "used by the black-box bound auditor "
        "(verify.audit_smooth_bound) to turn B < B* into a violation; no separate claim")
omitted("004", "Lemmas A.4, A.6 (reduction of the KDE sup to the line through t)", "proof steps of Lemmas 4.5-4.7; "
        "the reduction is tested as 004-Lemma-4.5 and by brute force in 004-Lemma-4.6/4.7, and proven as step (i) "
        "of 004-Def-8-KDE-proof")
omitted("004", "Sec. 4.1.1 (MSE of noise a priori) and Sec. 5 (experiments on the IPUMS and NYC data)",
        "the data sets are not available here; the analytic MSE is checked against simulation in "
        "tests/verify/experiments/test_experiments_core.py and `smoothsens experiment noise-mse`, the experiments are "
        "reproduced on synthetic stand-ins by `smoothsens experiment` and notebooks 02-04")
