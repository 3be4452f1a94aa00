"""Proven truncation bounds of kde.py's series branches (step (v); 004 Sec. 4.3).

* claim ``004-KDE-series-proof``: the truncated series that ``smoothsens_core/sensitivity/kde.py`` uses near
  the triple root b = 1 (alpha, ell, D for |b - 1| < 1e-3) and for g = gamma h < 1e-6 (the roots b1, b2 of
  D = +-g) are within the stated bounds of the exact functions on their whole branch domains, proven by
  Taylor models along the chord-partner curve (:mod:`verify.proof.kde_series`: exact rational Taylor
  coefficients, arb Lagrange remainder on the s-window, window coverage by point balls); the error that the
  b1, b2 series cause in B* (g_E) follows.  Re-checkable (method "kde-series").

The tested part (cheap, every run): kde.py's float evaluation of each branch equals the proven polynomial
(exact rational arithmetic, ball for e^{-1/2}) to a few ulps at random points of the branch, so
|float - exact| <= proven bound + rounding; and a planted series (ell's e^4 coefficient + 1e-3) must fail the
proof and be refuted at a certified point.  (tests/verify/proof/test_proofs_kde_series.py compares the floats with
the exact functions solved by mpmath at 50 digits.)

Verdicts: VERIFIED (proven) when the proof closes, the branch domains cover kde.py's, the floats agree and the
control is caught; REFUTED with the certified point when a stated bound fails for kde.py's series (or when
kde.py's float is certified farther from the proven polynomial than its bound allows); else INCONCLUSIVE.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any, Mapping

from verify.claims import CheckContext, ClaimResult, Verdict, claim
from verify.claims.registry import ExpectedObligation, method_expectation, obligation_for

__all__ = ["CLAIM_ID", "ULPS", "core_floats"]

CLAIM_ID = "004-KDE-series-proof"
#: float rounding allowed between kde.py's evaluation of a series and its exact value at the same double
ULPS = 4


def _ulp(x: float) -> Fraction:
    return Fraction(math.ulp(abs(x)))


def core_floats(n: int = 200, seed: int = 0) -> dict[str, Any]:
    """kde.py's floats on the branches against the proven polynomials at the same doubles (exact rationals;
    e^{-1/2} as an arb ball): max distance in ulps per branch, the worst point, and ok (<= ULPS ulps)."""
    import numpy as np  # noqa: PLC0415
    from flint import arb  # noqa: PLC0415 - needs python-flint (the proof extra)

    from smoothsens_core.sensitivity import kde  # noqa: PLC0415 - cost: about 0.9 s at import, paid only when used
    from verify.proof import kde_series as K  # noqa: PLC0415
    from verify.proof.functions import lower_fraction, upper_fraction, workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    rng = np.random.default_rng(seed)
    b = 1.0 + rng.uniform(-1e-3, 1e-3, n)
    b = b[np.abs(b - 1.0) < kde._SERIES]
    e = b - 1.0  # exact (Sterbenz)
    alpha = kde.kde_chord_partner(b)
    ell = kde.kde_chord_slope(b)
    D = kde._log_slope(b)
    g = 10.0 ** rng.uniform(-12, math.log10(K.CORE_G_CUTOFF), max(8, n // 8))
    g = g[g < K.CORE_G_CUTOFF]
    roots = [kde._stationary_radii(float(x)) for x in g]

    def P(name: str, x: float) -> Fraction:
        xq = Fraction(x)
        return sum((c * xq**k for k, c in enumerate(K.SERIES[name])), Fraction(0))

    with workprec(128):
        h = arb(-1) / 2
        ex = h.exp()
        ex_lo, ex_hi = Fraction(lower_fraction(ex)), Fraction(upper_fraction(ex))
    rows: dict[str, Any] = {}

    def add(name: str, x: float, val: float, lo: Fraction, hi: Fraction) -> None:
        v = Fraction(val)
        dist = max(Fraction(0), lo - v, v - hi)
        ulps = float(dist / _ulp(val)) if val != 0 else float(dist > 0) * math.inf
        r = rows.setdefault(name, {"n": 0, "max_ulps": 0.0, "worst": None, "max_distance": 0.0})
        r["n"] += 1
        if ulps > r["max_ulps"] or r["worst"] is None:
            r["max_ulps"], r["worst"], r["max_distance"] = max(ulps, r["max_ulps"]), float(x), float(dist)

    for ei, ai, li, di in zip(e, alpha, ell, D, strict=True):
        pa, pl, pd = P("alpha", ei), P("ell", ei), P("D", ei)
        add("alpha", ei, float(ai), pa, pa)
        add("ell", ei, float(li), min(pl * ex_lo, pl * ex_hi), max(pl * ex_lo, pl * ex_hi))
        add("D", ei, float(di), pd, pd)
    for gi, (b1, b2) in zip(g, roots, strict=True):
        p1, p2 = P("b1", gi), P("b2", gi)
        add("b1", gi, b1, p1, p1)
        add("b2", gi, b2, p2, p2)
    ok = all(r["max_ulps"] <= ULPS for r in rows.values()) and set(rows) == set(K.SERIES)
    return {"ok": ok, "ulps_allowed": ULPS, "rows": rows}


@claim(CLAIM_ID)
def check_kde_series(ctx: CheckContext) -> ClaimResult:
    from verify.proof import kde_series as K  # noqa: PLC0415

    t0 = time.perf_counter()
    prec = "exact rationals (Taylor coefficients), arb 128 bits (remainders, windows), arb 256 bits (refutations)"
    record = K.prove()
    dom = K.core_domain()
    floats = core_floats(n=ctx.scaled(200, 40), seed=ctx.seed % (2**32))
    planted = K.planted("ell-e4+1e-3")
    ctl_record = K.prove(planted)
    ctl_point = K.refute(planted)
    control = {"kind": "ell-e4+1e-3", "proof_status": ctl_record["status"], "refuted_at": ctl_point,
               "caught": ctl_record["status"] != "proven" and ctl_point is not None}
    ev: dict[str, Any] = {"statement": record["statement"], "domain": record["domain"], "proof": record,
                          "core_domain": dom, "core_floats": floats, "planted_control": control,
                          "relies_on": record["relies_on"]}
    if record["status"] != "proven":
        point = K.refute(K.SERIES)
        if point is not None:
            return ClaimResult(Verdict.REFUTED,
                               f"kde.py's {point['branch']} series breaks its stated bound {point['statement']} at the "
                               f"certified point s = {point['s']} (error >= {point['error_lower']:.3g} > "
                               f"{point['bound_upper']:.3g})", {**ev, "counterexample": point}, prec,
                               time.perf_counter() - t0,
                               rule=f"R-FALSE: the {point['branch']} series is outside its stated bound at a certified point")
        return ClaimResult(Verdict.INCONCLUSIVE, "the series bounds are not proven: " + "; ".join(record["problems"][:4]),
                           ev, prec, time.perf_counter() - t0, rule="R-UNDEC: a step of the proof is not proven")
    if not dom["ok"]:
        return ClaimResult(Verdict.INCONCLUSIVE,
                           f"the proven domains do not cover kde.py's branches (|e| < {dom['series_cutoff']}, "
                           f"g < {dom['g_cutoff']})", ev, prec, time.perf_counter() - t0,
                           rule="R-UNDEC: the proven domain does not cover the code's branch")
    if not floats["ok"]:
        bad = {k: v for k, v in floats["rows"].items() if v["max_ulps"] > ULPS}
        return ClaimResult(Verdict.INCONCLUSIVE,
                           "kde.py's float branches differ from the proven polynomials by more than rounding: " +
                           "; ".join(f"{k}: {v['max_ulps']:.3g} ulps at {v['worst']!r}" for k, v in bad.items()),
                           ev, prec, time.perf_counter() - t0,
                           rule="R-UNDEC: the code does not evaluate the proven series")
    if not control["caught"]:
        return ClaimResult(Verdict.INCONCLUSIVE, "the planted series (ell's e^4 coefficient + 1e-3) was not refuted",
                           ev, prec, time.perf_counter() - t0, rule="R-UNDEC: the planted control was not caught")
    br, der = record["branches"], record["derived"]

    def k(name: str) -> str:
        return f"{float(br[name]['proven_K_float']):.4g}"
    summary = (
        f"proven on |e| <= 1e-3 (b = 1 + e) and g in (0, 1e-6]: |alpha_ser - alpha| <= {k('alpha')} e^4 <= "
        f"{float(br['alpha']['proven_K_float']) * 1e-12:.3g}; |ell_ser/ell - 1| <= {k('ell')} |e|^5 <= "
        f"{float(br['ell']['proven_K_float']) * 1e-15:.3g}; |D_ser - D| <= {k('D')} e^4 (relative "
        f"{der['D_relative']['proven_K_float']:.3g} |e|^3); |b1,2_ser - b1,2| <= {k('b1')} g^3, so "
        f"|ln B*| error from the roots <= {der['Bstar_log']['proven_K_float']:.3g} g^6; Taylor models on the "
        f"chord-partner curve (order {K.N}); kde.py's floats = the polynomials to <= "
        f"{max(r['max_ulps'] for r in floats['rows'].values()):.2g} ulp; planted series refuted")
    return ClaimResult(Verdict.VERIFIED, summary, ev, prec, time.perf_counter() - t0, strength="proven")


@obligation_for(CLAIM_ID)
def expectation(scale: str = "test") -> ExpectedObligation:
    """What a proof of 004-KDE-series-proof must prove: the kde-series record on its domain (kde.py's branches
    covered: :func:`verify.proof.kde_series.core_domain`, recomputed), from the code."""
    from verify.proof import kde_series as K  # noqa: PLC0415

    ex = method_expectation(CLAIM_ID, K.METHOD, {"statement": K.STATEMENT, "domain": K.DOMAIN,
                                                 "relies_on": list(K.RELIES_ON), "proof.domain": K.DOMAIN,
                                                 "proof.statement": K.STATEMENT}, K.DOMAIN)

    def rc(evidence: Mapping[str, Any]) -> Any:
        out = ex.recheck(evidence)
        if K.core_domain()["ok"]:
            return out
        from verify.proof import RecheckResult  # noqa: PLC0415

        return RecheckResult(False, [*out.problems, "the proven domains do not cover kde.py's branches"], out.n_boxes,
                             out.prec, out.seconds)

    return ExpectedObligation(CLAIM_ID, ex.method, ex.fields, rc, ex.covers)
