"""The interval prover and its re-checker on kinks a second derivative cannot see.

sqrt(p(x)) with p a perfect square is |x - a|: SymPy keeps it a sqrt, its second derivative cancels
to 0 wherever the formula is defined, yet it has a kink at the root.  Affinity (sup at a face) must
be a polynomial of degree <= 1, never "d2 cancels"; a Piecewise condition whose lhs - rhs is not a
polynomial (1/x < 0) changes truth where lhs - rhs is not 0, so continuity may not be assumed there.
Every statement below is false, with the value computed exactly in SymPy at the point named.
"""

from __future__ import annotations

import pytest
import sympy as sp

pytest.importorskip("flint")

from fractions import Fraction  # noqa: E402

from verify.proof import Objective, Variable, ball_eval, prove_le, recheck  # noqa: E402

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)


def _status(F: sp.Expr, box: list[tuple[sp.Symbol, str, str]], threshold: str) -> tuple[str, object]:
    obj = Objective(F, [Variable(v, Fraction(lo), Fraction(hi)) for v, lo, hi in box])
    res = prove_le(obj, threshold=Fraction(threshold), time_limit=10)
    return res.status, res


@pytest.mark.parametrize(
    ("F", "box", "threshold", "witness"),
    [
        # -1000 |x + 19/10| <= -50 on [-2, 0]: 0 at x = -19/10
        (-1000 * sp.sqrt(x**2 + sp.Rational(19, 5) * x + sp.Rational(361, 100)), [(x, "-2", "0")], "-50",
         {x: sp.Rational(-19, 10)}),
        # y - |x - 1/2| <= 3/4 on [0, 1]^2: 1 at (1/2, 1)
        (y - sp.sqrt(x**2 - x + sp.Rational(1, 4)), [(x, "0", "1"), (y, "0", "1")], "3/4",
         {x: sp.Rational(1, 2), y: 1}),
        # -3 |2x - 1| <= -1 on [0, 1]: 0 at x = 1/2
        (-3 * sp.sqrt(4 * x**2 - 4 * x + 1), [(x, "0", "1")], "-1", {x: sp.Rational(1, 2)}),
        # a Piecewise whose condition 1/x < 0 flips at x = 0 with no zero of 1/x: 1 at x = -1/4
        (sp.Piecewise((1, 1 / x < 0), (0, True)), [(x, "-1/4", "1")], "1/2", {x: sp.Rational(-1, 4)}),
    ],
)
def test_false_statement_with_a_hidden_kink_is_never_proven(F, box, threshold, witness):
    assert F.subs(witness) > sp.Rational(threshold)  # the statement is false (exact)
    status, res = _status(F, box, threshold)
    assert status != "proven", f"proved a false statement: {F} <= {threshold}"


def test_recheck_does_not_accept_faces_of_a_sqrt_of_a_square():
    """A forged record (one box, the faces' bound) of the false -1000 |x + 19/10| <= -50 is rejected."""
    F = -1000 * sp.sqrt(x**2 + sp.Rational(19, 5) * x + sp.Rational(361, 100))
    obj = Objective(F, [Variable(x, Fraction(-2), Fraction(0))])
    record = {"status": "proven", "objective": obj.to_json() if hasattr(obj, "to_json") else {},
              "domain": [["-2", "0"]], "threshold": "-50", "n_boxes": 1, "boxes": [[["-2", "0"]]],
              "bounds": ["-100"], "monotone": None, "prec": 128}
    rc = recheck(record, obj, threshold=Fraction(-50))
    assert not rc.ok, rc


def test_ball_eval_upper_bound_of_a_sqrt_of_a_square_contains_the_root_value():
    """ball_eval's bound of -|x + 1| (as sqrt(x^2 + 2x + 1)) on [-2, 0] is not below its value 0 at x = -1."""
    ub = ball_eval.upper_bound(-sp.sqrt(x**2 + 2 * x + 1), [x], [(sp.Integer(-2), sp.Integer(0))], {}, 4)
    assert not ub.is_finite() or ub.upper() >= 0
