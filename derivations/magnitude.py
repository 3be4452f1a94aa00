"""The rounding magnitude of a SymPy expression: how large its terms are, for judging a computed zero.

The smooth-sensitivity engine (:mod:`derivations.engine`) and its piecewise side
(:mod:`derivations.engine_piecewise`) compile both an expression and this magnitude of its terms; a
computed value below a few machine epsilons times the magnitude is rounding noise, not a sign change
(the stationarity equations of 004 Sec. 3.3 vanish identically where f is linear or constant).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["term_magnitude"]


def term_magnitude(expr: sp.Expr) -> sp.Expr:
    """A magnitude of the terms of ``expr`` for judging its rounding error: sums and products are
    taken of the magnitudes of their arguments, a Piecewise of the magnitudes of its branches, any
    other term is its absolute value.  E.g. for f'(w) rho^2 - (f(w) - f(z)) D on a linear piece
    a w + b this is |a| rho_m^2 + (|a w + b| + |a z + b|) D_m with D_m = |w| + |z|: the residual
    itself is 0 up to rounding, i.e. a few eps times this magnitude."""
    if isinstance(expr, sp.Add):
        return sp.Add(*[term_magnitude(a) for a in expr.args])
    if isinstance(expr, sp.Mul):
        return sp.Mul(*[term_magnitude(a) for a in expr.args])
    if isinstance(expr, sp.Pow) and expr.exp.is_Integer and expr.exp > 0:
        return term_magnitude(expr.base) ** expr.exp
    if isinstance(expr, sp.Piecewise):
        return sp.Piecewise(*[(term_magnitude(e), c) for e, c in expr.args])
    if expr.is_number:
        return sp.Abs(expr)
    return sp.Abs(expr)
