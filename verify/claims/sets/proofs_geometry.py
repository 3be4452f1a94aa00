"""Three tested claims of 004 proven (``@proof_for``): two pair reductions and the noise-a-priori MSE.

Each is the symbolic spec of the same id in :mod:`verify.proof.symbolic` (its own definitions, SymPy steps,
arb ball checks at rational points, ``relies_on`` for the textbook facts), attached through
:func:`verify.claims.sets.proofs_composed.prove_identity`; this module supplies the witnesses (found here by
SymPy, re-checked there).

* ``004-Lemma-4.5`` (004 Sec. 4.3, App. A.4), f(y) = f0(||y - t||), x != t: with u = (x - t)/||x - t||,
  z_L = t + ||z* - t|| u and w_L = t + ||w* - t|| u (on the ray from t through x, the same side of t as x) keep
  the radii (so the f values), ||w_L - z_L|| = |r_w - r_z| <= ||w* - z*|| and ||z_L - x|| = |r_z - ||x - t||| <=
  ||z* - x||, so the 004 Def. 9 objective |f(w) - f(z)|/(||w - z|| g0(||x - z||)) does not decrease, for every d,
  f0, g0 in {g_E, g_L}.  Squared norms by Gram bilinearity with ||u|| = 1 (any d); the reverse triangle
  inequality reduced to Cauchy-Schwarz by an identity; the quotient with smaller denominators by SymPy; g0
  nondecreasing and the coordinate ray distances (d = 1, 2, 3) by re-running verify.proof.kde_def8's step (i)
  checks ``_check_growth_monotone`` and ``_check_ray_distance``.
* ``004-Lemma-4.8`` (004 Sec. 4.4, App. A.5), f(y) = f0(beta0 + <beta, y>): z_c = x + c beta/||beta||, w_a =
  z_c + a beta/||beta|| (c = <z* - x, beta>/||beta||, a = <w* - z*, beta>/||beta||) keep <beta, .> (so the f
  values), ||w_a - z_c|| = |a| <= ||w* - z*||, ||z_c - x|| = |c| <= ||z* - x|| (Cauchy-Schwarz, checked as a
  projection identity), and the same objective step.
* ``004-Sec-4.1.1-mse`` (Z ~ Lap(1/eps), y~ = 1{x + Z > T}): the flip probabilities as integrals of the
  Laplace density (antiderivatives, limits at +-oo; exact for every eps > 0, x, T), E|y~ - y|^2 = p, and
  E[(A~ - A)^2] from the per-term identities (every n) and by enumeration of all flip patterns and side
  assignments for n <= 4.

Verdicts (through ``prove_identity``): VERIFIED (proven) when the spec re-checks; REFUTED when a ball check
certifies the statement false at a rational point; else the tested result with ``proof_attempt``.  Cost
well under 1 s per claim, so the proofs run at the quick budget too.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import sympy as sp

from verify.claims import CheckContext, ClaimResult
from verify.claims.registry import proof_for
from verify.claims.sets.proofs_composed import prove_identity
from verify.claims.sets.proofs_symbolic import declare_symbolic
from verify.proof import symbolic as S

__all__ = ["CLAIMS"]

CLAIMS = ("004-Lemma-4.5", "004-Lemma-4.8", "004-Sec-4.1.1-mse")


def _quotient_gap() -> sp.Expr:
    """N/(D G) - N/((D + s1)(G + s3)), factored (the objective step: smaller distance, smaller growth)."""
    N, s1, s3, D, G = (S._GEO_Q[k] for k in ("N", "s1", "s3", "D", "G"))
    return sp.factor(sp.together(N / (D * G) - N / ((D + s1) * (G + s3))))


def _unit_r3() -> tuple[tuple[sp.Symbol, ...], dict[sp.Expr, sp.Expr]]:
    """u = (u1, u2, u3) in R^3 and the substitution u3^2 -> 1 - u1^2 - u2^2 (||u|| = 1)."""
    u = sp.symbols("u1:4", real=True)
    return u, {u[2] ** 2: 1 - u[0] ** 2 - u[1] ** 2}


def _w_l45() -> tuple[dict[str, Any], dict[str, Any]]:
    """The squared distances of the replaced pair in coordinates of R^3 (u unit), SymPy-reduced."""
    c, rz, rw = (S._L45[k] for k in ("c", "rz", "rw"))
    u, unit = _unit_r3()
    sq = lambda s: sp.factor(sp.expand(sum((s * ui) ** 2 for ui in u)).subs(unit))  # noqa: E731
    return ({"dist2_wz": sq(rw - rz), "dist2_zx": sq(rz - c), "quotient_gap": _quotient_gap()},
            {"source": "SymPy: ||(t + r_w u) - (t + r_z u)||^2 and ||(t + r_z u) - (t + c u)||^2 in coordinates of R^3 "
                       "with u3^2 = 1 - u1^2 - u2^2; factor of the difference of the two chord quotients"})


def _w_l48() -> tuple[dict[str, Any], dict[str, Any]]:
    """||a beta/||beta||||^2 and ||c beta/||beta||||^2 in coordinates of R^3, simplified."""
    b = sp.symbols("b1:4", real=True)
    nb = sp.sqrt(sum(bi**2 for bi in b))
    sq = lambda s: sp.simplify(sum((s * bi / nb) ** 2 for bi in b))  # noqa: E731
    a, c = sp.Symbol("a", real=True), sp.Symbol("c", real=True)
    return ({"dist2_wa_zc": sq(a), "dist2_zc_x": sq(c), "quotient_gap": _quotient_gap()},
            {"source": "SymPy: w_a - z_c = a beta/||beta||, z_c - x = c beta/||beta|| in coordinates of R^3, squared norms "
                       "simplified; factor of the difference of the two chord quotients"})


def _w_mse() -> tuple[dict[str, Any], dict[str, Any]]:
    """Antiderivatives of the Laplace density on each half-line (sp.integrate) and E[(sum_i s_i F_i)^2] for
    three independent Bernoulli(p_i) flips with symbolic signs (s_i^2 = 1)."""
    eps = S._MSE["eps"]
    zp, zn = S._MSE_ZP, S._MSE_ZN
    dens = lambda z: eps / 2 * sp.exp(-eps * sp.Abs(z))  # noqa: E731
    p = [sp.Symbol(f"p{i}", nonnegative=True) for i in (1, 2, 3)]
    s = [sp.Symbol(f"s{i}", real=True) for i in (1, 2, 3)]
    tot = sp.Integer(0)
    for flips in itertools.product((0, 1), repeat=3):
        prob = sp.prod([q if f else 1 - q for f, q in zip(flips, p, strict=True)])
        tot += prob * sum(si * f for si, f in zip(s, flips, strict=True)) ** 2
    tot = sp.expand(sp.expand(tot).subs({si**2: 1 for si in s}))
    return ({"G_upper": sp.integrate(dens(zp), zp), "G_lower": sp.integrate(dens(zn), zn), "mse_n3": tot},
            {"source": "SymPy: integrate (eps/2) e^{-eps|z|} on z > 0 and on z < 0; E[(sum s_i F_i)^2] over the 8 flip "
                       "patterns of three independent users, s_i^2 = 1"})


for _cid, _derive in zip(CLAIMS, (_w_l45, _w_l48, _w_mse), strict=True):
    S.witnesses_for(_cid)(_derive)  # the spec of the claim's id carries its witness function


def _prove(cid: str, ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    return prove_identity(cid, tested)


for _cid in CLAIMS:  # each claim's proof is the symbolic spec of the same id
    proof_for(_cid)(functools.partial(_prove, _cid))
    declare_symbolic(_cid)
