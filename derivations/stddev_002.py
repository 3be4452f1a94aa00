"""002 App. B, Claims 16-18: standard deviations of the older smooth-sensitivity mechanisms.

Derivation functions only (the numerical claims 002-Claim-16..18 belong to another module).  Each
returns the derived standard deviation (SS = 1; it scales linearly with the smooth sensitivity)
and a :class:`~derivations.comparison.Comparison` with the printed form.

* Claim 16 (GenCauchy of [NRS07], density proportional to 1/(1 + |y|^c), c > 3, 0 < gamma <
  eps/(c+1)): privacy loss <= (|l_r| + |l_s|)(c + 1) with |l_r| <= gamma, so the shift budget is
  nu = (eps - gamma (c+1))/(c+1) and the noise is Z/nu; Var Z derived from the density
  (Gamma-function form, = sin(pi/c)/sin(3 pi/c)).  Printed:
  (c+1) / ((eps - gamma (c+1)) sqrt(2 cos(2 pi/c) + 1)); printed density constant
  c / (2 pi csc(pi/c)) and variance 1/(2 cos(2 pi/c) + 1).
* Claim 17 (Student's t of [BS19], d > 2, 0 < gamma < eps/(d+1)): loss <= |l_r|(d+1) +
  |l_s|(d+1)/(2 sqrt d), nu = 2 sqrt(d)(eps - gamma(d+1))/(d+1).  Printed:
  sqrt(d/(d-2)) (d+1) / (2 sqrt(d) (eps - gamma (d+1))).
* Claim 18 (Laplace of [NRS07]): loss <= |l_r| log(2/delta) + |l_s|, nu = eps - gamma log(2/delta),
  Var Lap(0,1) = 2.  Printed: sqrt(2)/(eps - gamma log(2 delta^-1)), valid for
  0 < gamma < eps/log(delta^-1) as printed; the scale is positive only for
  gamma < eps/log(2/delta) (the printed range admits eps/log(2/delta) <= gamma < eps/log(1/delta),
  where the formula is negative or infinite).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import sympy as sp

from derivations import gencauchy as gc
from derivations import student_t as st
from derivations.comparison import Comparison, compare_forms

__all__ = ["CC", "D", "GAMMA", "EPS", "DELTA", "derive_claim16", "derive_claim17", "derive_claim18"]

CC, D, GAMMA, EPS, DELTA = sp.symbols("c d gamma epsilon delta", positive=True)


@lru_cache(maxsize=None)
def derive_claim16() -> tuple[sp.Expr, list[Comparison]]:
    """Std of the [NRS07] GenCauchy mechanism (c > 3): sqrt(Var Z) (c+1)/(eps - gamma(c+1))."""
    cnorm, _ = gc.derive_normaliser()
    var, _ = gc.derive_variance()
    c_c = sp.gammasimp(cnorm.subs({gc.P: CC, gc.THETA: 1}))
    var_c = sp.gammasimp(var.subs({gc.P: CC, gc.THETA: 1}))
    nu = (EPS - GAMMA * (CC + 1)) / (CC + 1)
    std = sp.sqrt(var_c) / nu
    dom = {CC: (3.05, 20.0)}
    cmps = [
        compare_forms("002 Claim 16 density constant c/(2 pi csc(pi/c))", CC / (2 * sp.pi * sp.csc(sp.pi / CC)), c_c, dom),
        compare_forms("002 Claim 16 variance 1/(2 cos(2 pi/c) + 1)", 1 / (2 * sp.cos(2 * sp.pi / CC) + 1), var_c, dom, try_symbolic=False),
    ]
    printed = (CC + 1) / ((EPS - GAMMA * (CC + 1)) * sp.sqrt(2 * sp.cos(2 * sp.pi / CC) + 1))
    # domain 0 < gamma < eps/(c+1): gamma = eps * g / (c + 1) with g in (0, 1)
    g = sp.Symbol("g", positive=True)
    cmps.append(compare_forms("002 Claim 16 standard deviation", printed.subs(GAMMA, EPS * g / (CC + 1)),
                              std.subs(GAMMA, EPS * g / (CC + 1)), {CC: (3.05, 20.0), EPS: (0.1, 5.0), g: (0.01, 0.99)},
                              try_symbolic=False))
    return std, cmps


@lru_cache(maxsize=None)
def derive_claim17() -> tuple[sp.Expr, list[Comparison]]:
    """Std of the [BS19] Student's t mechanism (d > 2): sqrt(d/(d-2)) / nu, nu = 2 sqrt(d)(eps - gamma(d+1))/(d+1)."""
    var, _ = st.derive_variance()
    lip, _ = st.derive_lipschitz()  # (d+1)/(2 sqrt d): the loss per unit shift
    var_d = var.subs(st.NU, D)
    nu = (EPS - GAMMA * (D + 1)) / lip.subs(st.NU, D)
    std = sp.sqrt(var_d) / nu
    printed = sp.sqrt(D / (D - 2)) * (D + 1) / (2 * sp.sqrt(D) * (EPS - GAMMA * (D + 1)))
    g = sp.Symbol("g", positive=True)
    cmp = compare_forms("002 Claim 17 standard deviation", printed.subs(GAMMA, EPS * g / (D + 1)),
                        std.subs(GAMMA, EPS * g / (D + 1)), {D: (2.05, 30.0), EPS: (0.1, 5.0), g: (0.01, 0.99)})
    return std, [cmp]


@lru_cache(maxsize=None)
def derive_claim18() -> tuple[sp.Expr, list[Comparison]]:
    """Std of the [NRS07] Laplace mechanism: sqrt(Var Lap(0,1)) / (eps - gamma log(2/delta)), Var = 2 by
    integration of e^{-|z|}/2."""
    z = sp.Symbol("z", positive=True)
    var_lap = 2 * sp.integrate(z**2 * sp.exp(-z) / 2, (z, 0, sp.oo))
    std = sp.sqrt(var_lap) / (EPS - GAMMA * sp.log(2 / DELTA))
    printed = sp.sqrt(2) / (EPS - GAMMA * sp.log(2 / DELTA))
    cmp = compare_forms("002 Claim 18 standard deviation", printed, std, {EPS: (0.1, 5.0), GAMMA: (1e-3, 0.01), DELTA: (1e-9, 0.1)})
    # where the formula is positive: gamma < eps / log(2/delta) (stricter than the printed eps / log(1/delta))
    positive_range = sp.solve(EPS - GAMMA * sp.log(2 / DELTA) > 0, GAMMA)
    return std, [_with_note(cmp, f"scale positive iff {positive_range}; printed range 0 < gamma < eps/log(1/delta)")]


def _with_note(cmp: Comparison, note: str) -> Comparison:
    return dataclasses.replace(cmp, note=note)
