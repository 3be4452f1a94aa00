"""Engine tests for verify.proof: translator, prover outcomes, compactification, re-checker."""

from __future__ import annotations

import copy
from fractions import Fraction as Q

import mpmath
import pytest
import sympy as sp

flint = pytest.importorskip("flint")

from verify.proof.functions import Objective, Variable, ball, compile_arb, pow_ball, workprec  # noqa: E402
from verify.proof.prover import CallableObjective, enclose_sup, prove_le  # noqa: E402
from verify.proof.recheck import covers, recheck  # noqa: E402

x, y = sp.symbols("x y", nonnegative=True)  # the boxes below start at 0: nonnegative, not positive


def test_compile_arb_encloses_the_mpmath_value_at_points():
    # reference: SymPy evalf at 40 digits of the same expression
    expr = sp.log(1 + x**y) * sp.exp(-x) / (1 + sp.Abs(x - y)) + sp.Max(x, y) ** sp.Rational(3, 2) + sp.gamma(y)
    f = compile_arb(expr, [x, y])
    for xv, yv in [(Q(1, 3), Q(5, 2)), (Q(7, 2), Q(1, 7)), (Q(2), Q(2))]:
        with workprec(80):
            b = f([ball(xv, xv), ball(yv, yv)])
        ref = sp.N(expr.subs({x: sp.Rational(xv.numerator, xv.denominator), y: sp.Rational(yv.numerator, yv.denominator)}), 40)
        # the 40-digit decimal is within 1e-39 of the value: the ball must meet it and be narrow
        assert b.overlaps(flint.arb(str(ref))) and float(b.rad()) < 1e-15


def test_compile_arb_rejects_unsupported_nodes():
    with pytest.raises(TypeError, match="unsupported node"):
        compile_arb(sp.besselj(0, x), [x])


def test_pow_ball_of_a_base_touching_zero_is_finite_and_nonnegative():
    r = pow_ball(ball(Q(0), Q(1)), ball(Q(3, 2), Q(5, 2)))
    assert r.is_finite() and r.lower() >= 0 and r.upper() >= 1


def test_prove_le_proves_a_true_inequality_and_the_recheck_accepts_it():
    F = lambda a: a[0] * a[0] + a[1] - 3  # noqa: E731  x^2 + y - 3 <= 0 on [-1, 1] x [0, 1]
    res = prove_le(F, [(-1, 1)], params_box=[(0, 1)])
    assert res.status == "proven" and res.n_boxes >= 1
    obj = CallableObjective(F, [(-1, 1), (0, 1)])
    assert recheck(res.to_json(), obj).ok


def test_prove_le_refutes_a_false_inequality_with_a_certified_point():
    F = lambda a: a[0] * a[0] - flint.arb(0.5)  # noqa: E731  false near x = 1
    res = prove_le(F, [(0, 1)])
    assert res.status == "refuted"
    pt = Q(res.counterexample["point"][0])
    assert pt * pt > Q(1, 2) and Q(res.counterexample["lower"]) > 0


def test_prove_le_is_undecided_when_the_budget_runs_out():
    F = lambda a: a[0] * (1 - a[0]) - flint.arb(0.25)  # noqa: E731  touches 0 at x = 1/2: never proven by boxes
    res = prove_le(F, [(0, 1)], max_boxes=50)
    assert res.status == "undecided" and not res.boxes


def test_halfline_compactification_proves_a_bound_attained_at_infinity():
    z = sp.Symbol("z", nonnegative=True)  # a box from 0: its symbol may not be declared positive
    obj = Objective(z / (1 + z) - 1, [Variable(z, Q(0), float("inf"))], name="z/(1+z) <= 1")
    res = prove_le(obj)
    assert res.status == "proven"
    assert obj.tail_lemma["variant_limits"] == ["0"]
    assert recheck(res, obj).ok


def test_halfline_refutation_at_infinity_is_certified():
    z = sp.Symbol("z", nonnegative=True)  # a box from 0: its symbol may not be declared positive
    obj = Objective(z / (1 + z) - 1 + sp.Rational(1, 1000), [Variable(z, Q(0), float("inf"))])
    res = prove_le(obj)
    assert res.status == "refuted"
    assert sp.Float(res.counterexample["mp50"]) > 0 and res.counterexample["mp50_confirms"]


def test_enclose_sup_width_and_attained_lower_end():
    z = sp.Symbol("z", nonnegative=True)  # a box from 0: its symbol may not be declared positive
    obj = Objective(z * sp.exp(-z), [Variable(z, Q(0), Q(4))])  # sup = 1/e at z = 1
    en = enclose_sup(obj, width=1e-9)
    e1 = 1 / mpmath.e
    assert en.lower <= Q(str(e1 + mpmath.mpf(10) ** -15)) and en.upper >= Q(str(e1 - mpmath.mpf(10) ** -15))
    assert en.width <= Q(1, 10**9)
    assert recheck(en.proof, obj, threshold=en.upper).ok  # the statement F <= upper is the caller's


def test_recheck_rejects_a_removed_box_an_edited_bound_and_another_domain():
    z = sp.Symbol("z", nonnegative=True)  # a box from 0: its symbol may not be declared positive
    obj = Objective(z * sp.exp(-z) - sp.Rational(1, 2), [Variable(z, Q(0), Q(8))])
    res = prove_le(obj)
    assert res.status == "proven" and len(res.boxes) >= 2
    good = res.to_json()
    assert recheck(good, obj).ok
    removed = copy.deepcopy(good)
    del removed["boxes"][1], removed["bounds"][1]
    assert not recheck(removed, obj).ok
    edited = copy.deepcopy(good)
    edited["bounds"][0] = str(Q(edited["bounds"][0]) - 1)
    bad = recheck(edited, obj)
    assert not bad.ok and "edited" in bad.problems[0]
    positive = copy.deepcopy(good)
    positive["bounds"][0] = "1/10"
    assert not recheck(positive, obj).ok
    other = Objective(z * sp.exp(-z) - sp.Rational(1, 2), [Variable(z, Q(0), Q(9))])
    assert not recheck(good, other).ok


def test_covers_needs_every_box():
    boxes = [((Q(0), Q(1, 2)), (Q(0), Q(1))), ((Q(1, 2), Q(1)), (Q(0), Q(1, 2))), ((Q(1, 2), Q(1)), (Q(1, 2), Q(1)))]
    dom = ((Q(0), Q(1)), (Q(0), Q(1)))
    assert covers(dom, boxes)
    assert not covers(dom, boxes[:2])
    assert not covers(dom, boxes + [boxes[0]])


def test_monotone_hint_is_recorded_and_used_by_the_recheck():
    F = lambda a: a[0] - a[1] - 2  # noqa: E731  increasing in x, decreasing in y: sup at (1, -1) = -2 < 0
    res = prove_le(F, [(-1, 1), (-1, 1)], monotone={0: 1, 1: -1})
    assert res.status == "proven" and res.n_boxes == 1 and res.to_json()["monotone"] == {"0": 1, "1": -1}
    # the hints are the caller's lemma: the re-checker takes them from the caller, not the record
    assert recheck(res.to_json(), CallableObjective(F, [(-1, 1), (-1, 1)]), monotone={0: 1, 1: -1}).ok
    assert not recheck(res.to_json(), CallableObjective(F, [(-1, 1), (-1, 1)])).ok
