"""The smooth-growth axioms of 004 Sec. 3.1.2 for g_E and g_L, symbolically and numerically.

004 Sec. 3.1.2: g(x, x') = g0(dist(x, x')) is a smooth growth function when g0: [0, inf) -> [1, inf)
satisfies g0(0) = 1, g0 non-decreasing, and g0(r1 + r2) <= g0(r1) g0(r2).  Examples:
g_E(r) = e^(gamma r) and g_L(r) = 1 + gamma r for any gamma > 0.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from smoothsens_core.growth import check_growth_axioms, growth_exp, growth_linear
from verify.claims import CheckContext, ClaimResult, Verdict, claim


@claim("004-Sec-3.1.2-growth-axioms")
def check_growth_axioms_claim(ctx: CheckContext) -> ClaimResult:
    g, r, r1, r2 = sp.symbols("gamma r r1 r2", positive=True)
    gE = sp.Lambda(r, sp.exp(g * r))
    gL = sp.Lambda(r, 1 + g * r)
    sym = {
        "g_E(0)": str(sp.simplify(gE(0))),
        "g_L(0)": str(sp.simplify(gL(0))),
        "g_E(r1)g_E(r2) - g_E(r1+r2)": str(sp.simplify(gE(r1) * gE(r2) - gE(r1 + r2))),
        "g_L(r1)g_L(r2) - g_L(r1+r2)": str(sp.factor(sp.expand(gL(r1) * gL(r2) - gL(r1 + r2)))),
        "d g_E/dr": str(sp.diff(gE(r), r)),
        "d g_L/dr": str(sp.diff(gL(r), r)),
    }
    sym_ok = (sym["g_E(0)"] == "1" and sym["g_L(0)"] == "1"
              and sym["g_E(r1)g_E(r2) - g_E(r1+r2)"] == "0"
              and sp.simplify(sp.sympify(sym["g_L(r1)g_L(r2) - g_L(r1+r2)"], locals={"gamma": g, "r1": r1, "r2": r2})
                              - g**2 * r1 * r2) == 0)
    # Numeric: the core's objects on a grid (check_growth_axioms) and at random points in mpmath.
    rng = ctx.rng("growth-axioms")
    numeric = []
    for gamma in (1e-3, 0.1, 1.0, 7.5):
        for make in (growth_exp, growth_linear):
            gf = make(gamma)
            rep = check_growth_axioms(gf.g0, r_max=50.0 / max(gamma, 1.0), n=ctx.scaled(401, 81))
            worst = mpmath.mpf(-1)
            with mpmath.workdps(ctx.dps):
                for a, b in rng.exponential(3.0 / gamma, (ctx.scaled(200, 20), 2)):
                    a, b = mpmath.mpf(float(a)), mpmath.mpf(float(b))
                    gm = mpmath.mpf(gamma)
                    f = (lambda t, gm=gm: mpmath.exp(gm * t)) if gf.kind == "exp" else (lambda t, gm=gm: 1 + gm * t)
                    worst = max(worst, (f(a + b) - f(a) * f(b)) / (f(a) * f(b)))
            # float g0 agrees with the mpmath definition
            pts = rng.exponential(3.0 / gamma, 16)
            dev = max(abs(float(gf.g0(np.array([p]))[0]) / float(mpmath.exp(gamma * p) if gf.kind == "exp"
                                                                else 1 + mpmath.mpf(gamma) * p) - 1)
                      for p in pts)
            numeric.append({"g": gf.name, "gamma": gamma, "grid_ok": bool(rep.ok),
                            "grid_failures": list(rep.failures),
                            "max_rel_submult_excess_mp": mpmath.nstr(worst, 5), "max_rel_dev_g0": dev})
    num_ok = all(n["grid_ok"] and mpmath.mpf(n["max_rel_submult_excess_mp"]) <= 1e-30
                 and n["max_rel_dev_g0"] < 1e-13 for n in numeric)
    control = check_growth_axioms(lambda t: 1 + 0.5 * np.asarray(t) ** 2, r_max=10.0, n=ctx.scaled(401, 81))
    ev = {"symbolic": sym, "numeric": numeric,
          "negative_control": {"g0": "1 + 0.5 r^2", "rejected": not control.ok,
                               "failures": list(control.failures)}}
    if sym_ok and num_ok and not control.ok:
        return ClaimResult(Verdict.VERIFIED,
                           "g_E: g(r1)g(r2) = g(r1+r2); g_L: g(r1)g(r2) - g(r1+r2) = gamma^2 r1 r2 >= 0; "
                           f"grid+mpmath checks pass for {len(numeric)} cases; control 1+0.5r^2 rejected",
                           ev, f"SymPy exact; mpmath {ctx.dps} digits")
    return ClaimResult(Verdict.INCONCLUSIVE if sym_ok else Verdict.REFUTED,
                       f"symbolic_ok={sym_ok}, numeric_ok={num_ok}, control_rejected={not control.ok}", ev, "")
