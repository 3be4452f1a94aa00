"""The privacy-loss rate of a user's noise density, as an objective for the prover.

For the mechanism M(x) = f(x) + (B(x)/eta) Z with Z of density h (symmetric), B an upper bound on the
local sensitivity with ln B gamma-Lipschitz (004 Def. 8 with g_E), the FTC argument of 004 Lemma 3.3's
proof (App. A.1) bounds the privacy loss between neighbours at distance d by

    d * sup_z ( eta |psi(z)| + gamma |1 + z psi(z)| ),    psi = (ln h)',

so M is (eps, 0)-GP / eps-DP once this *rate* is <= eps.  :func:`density_rate_objective` states
F(z; g) = (eta/eps) |psi(z)| + g |1 + z psi(z)| - 1 <= 0 (eps = 1 by homogeneity, g = gamma/eps) over
z in [0, inf) (h symmetric) and a box of g, with eta/eps given as an expression in g (the user's
calibration), for :func:`verify.proof.prove_le`.  The package's own families have
:func:`verify.proof.obligations.loss_rate_objective` (the printed calibrations).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from .functions import Objective, Variable

__all__ = ["density_rate_objective"]


def density_rate_objective(log_density: sp.Expr, z: sp.Symbol, g: sp.Symbol, eta_over_eps: sp.Expr,
                           g_box: tuple[Any, Any], *, name: str = "") -> Objective:
    """F(z, g) = eta_over_eps(g) |psi(z)| + g |1 + z psi(z)| - 1 on z in [0, inf), g in ``g_box``, with
    psi = d/dz ``log_density`` (004 Lemma 3.3's proof, App. A.1: F <= 0 is the rate bound eps-GP needs).

    ``log_density`` is ln h(z) (up to a constant) of a symmetric density, in the nonnegative symbol ``z``;
    ``eta_over_eps`` the calibration eta/eps as an expression in ``g`` = gamma/eps (or a number).  ValueError
    when ``z`` is not declared nonnegative, when ``g_box`` is not 0 < lo <= hi, or when the expressions have
    other free symbols."""
    if not (z.is_nonnegative or z.is_positive):
        raise ValueError(f"z must be a nonnegative SymPy symbol (h symmetric: z in [0, inf)); got z={z!r}")
    lo, hi = (Fraction(str(b)) for b in g_box)
    if not 0 < lo <= hi:
        raise ValueError(f"g_box must satisfy 0 < lo <= hi (g = gamma/eps); got g_box=({lo}, {hi})")
    psi = sp.diff(sp.sympify(log_density), z)
    F = sp.sympify(eta_over_eps) * sp.Abs(psi) + g * sp.Abs(sp.simplify(1 + z * psi)) - 1
    extra = F.free_symbols - {z, g}
    if extra:
        raise ValueError(f"log_density and eta_over_eps may use only {z} and {g}; got also {sorted(map(str, extra))}")
    return Objective(F, [Variable(z, Fraction(0), float("inf")), Variable(g, lo, hi)],
                     name=name or "eta |psi(z)| + gamma |1 + z psi(z)| <= eps (eps = 1)",
                     meta={"log_density": str(log_density), "eta_over_eps": str(eta_over_eps),
                           "g_box": [str(lo), str(hi)]})
