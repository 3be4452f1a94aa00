"""The independent re-checker (verify.proof.recheck, verify.proof.ball_eval) re-proves genuine
proofs whose bounds touch the threshold (tangency) or whose half-line tail is a Piecewise / Max,
and still rejects records of false statements that are false only by a hair near a tangency.

Reference values are exact: each false statement is shown false at a rational point by SymPy."""

from __future__ import annotations

import math
from fractions import Fraction as Q

import pytest
import sympy as sp

pytest.importorskip("flint")

from verify.proof.functions import Objective, Variable  # noqa: E402
from verify.proof.recheck import recheck, tail_rewrite  # noqa: E402

x, z, w, g = sp.symbols("x z w g", real=True)
TINY = sp.Rational(1, 10**30)


def _record(domain, boxes, threshold="0"):
    """A forged proof record: every box claims the bound 0 (the threshold)."""
    js = lambda b: [[str(lo), str(hi)] for lo, hi in b]  # noqa: E731
    return {"status": "proven", "threshold": str(threshold), "domain": js(domain), "monotone": {},
            "boxes": [js(b) for b in boxes], "bounds": [str(threshold)] * len(boxes)}


def _grid(lo, hi, n):
    """[lo, hi] cut into 2^n equal boxes (a tiling by midpoint bisection)."""
    k = 2**n
    return [[(lo + (hi - lo) * i / k, lo + (hi - lo) * (i + 1) / k)] for i in range(k)]


@pytest.mark.parametrize("n", [0, 1, 3])
def test_tangent_parabola_lifted_by_1e30_is_rejected(n):
    """-(x - 1/2)^2 + 1e-30 <= 0 on [0, 1] is false at x = 1/2 (value 1e-30)."""
    F = -(x - sp.Rational(1, 2)) ** 2 + TINY
    assert F.subs(x, sp.Rational(1, 2)) > 0
    obj = Objective(F, [Variable(x, Q(0), Q(1))])
    rc = recheck(_record(obj.domain(), _grid(Q(0), Q(1), n)), obj)
    assert not rc.ok


@pytest.mark.parametrize("n", [0, 1, 4])
def test_sqrt_of_a_square_is_not_affine(n):
    """-sqrt(x^2 + 19x/5 + 361/100) = -|x + 19/10| <= -1/20 on [-2, 0] is false at x = -19/10 (0)."""
    F = -sp.sqrt(x**2 + sp.Rational(19, 5) * x + sp.Rational(361, 100))
    assert F.subs(x, sp.Rational(-19, 10)) == 0 > -sp.Rational(1, 20)
    obj = Objective(F, [Variable(x, Q(-2), Q(0))])
    rc = recheck(_record(obj.domain(), _grid(Q(-2), Q(0), n), threshold=Q(-1, 20)), obj, threshold=Q(-1, 20))
    assert not rc.ok


def test_piecewise_condition_true_on_a_tiny_set_is_not_decided_false():
    """Piecewise((1, (x - 1/2)^2 < 1e-30), (-1, True)) <= 0 on [0, 1] is false at x = 1/2: the
    condition holds only within 1e-15 of 1/2, and the strengthened condition test (monotone faces,
    mean-value form, factored form) must not decide it false."""
    F = sp.Piecewise((1, (x - sp.Rational(1, 2)) ** 2 - TINY < 0), (-1, True))
    assert F.subs(x, sp.Rational(1, 2)) == 1
    obj = Objective(F, [Variable(x, Q(0), Q(1))])
    for n in (0, 1, 3):
        assert not recheck(_record(obj.domain(), _grid(Q(0), Q(1), n)), obj).ok


def test_factored_condition_is_still_two_sided():
    """Piecewise((1 - g, x g - x > 0), (0, True)) <= 0 on x in [0, 1], g in [0, 2] is true (the
    branch is active only where g > 1, decided from the factored form x (g - 1)); with the branch
    2 - g it is false at (x, g) = (1, 3/2), where the condition holds and 2 - g = 1/2."""
    good = sp.Piecewise((1 - g, x * g - x > 0), (0, True))
    bad = sp.Piecewise((2 - g, x * g - x > 0), (0, True))
    assert bad.subs({x: 1, g: sp.Rational(3, 2)}) > 0
    dom = [Variable(x, Q(0), Q(1)), Variable(g, Q(0), Q(2))]
    boxes = [[(Q(0), Q(1)), (Q(0), Q(1))], [(Q(0), Q(1)), (Q(1), Q(2))]]
    og, ob = Objective(good, dom), Objective(bad, dom)
    assert recheck(_record(og.domain(), boxes), og).ok
    assert not recheck(_record(ob.domain(), boxes), ob).ok


def _halfline(F, n):
    obj = Objective(F, [Variable(z, Q(0), math.inf)])
    dom = obj.domain()
    (lo, hi), = dom
    return obj, _record(dom, _grid(Q(lo), Q(hi), n))


def test_tail_rewrite_is_an_identity_on_w_positive():
    F = sp.Piecewise((sp.Max(-z, 1 - g), z * g - z > 0), (sp.Abs(1 - z) / (z + 1), True))
    T = tail_rewrite(F, z, w)
    for zv in (sp.Rational(1, 3), sp.Integer(1), sp.Rational(7, 2), sp.Integer(40)):
        for gv in (sp.Rational(1, 2), 1, 3):
            assert sp.simplify(T.subs({w: 1 / zv, g: gv}) - F.subs({z: zv, g: gv})) == 0


@pytest.mark.parametrize("n", [0, 2, 5])
def test_false_tail_statements_are_rejected(n):
    """On z in [0, inf): Max(-z, 1e-30 - 1/(z + 1)) <= 0 is false for z > 1e30 - 1 (its second
    argument is > 0 there), and Piecewise((0, z <= 1), (1e-30 - (z - 1)/(z + 1), True)) <= 0 is false
    just right of z = 1."""
    F1 = sp.Max(-z, TINY - 1 / (z + 1))
    assert F1.subs(z, 10**31) > 0
    F2 = sp.Piecewise((0, z <= 1), (TINY - (z - 1) / (z + 1), True))
    assert F2.subs(z, 1 + sp.Rational(1, 10**40)) > 0
    for F in (F1, F2):
        obj, rec = _halfline(F, n)
        assert not recheck(rec, obj).ok


def test_true_tail_statements_with_tangency_are_re_proven():
    """The genuine counterparts: Piecewise((0, z <= 1), ((1 - z)/(z + 1), True)) <= 0 (max 0 on [0, 1]
    and at z = 1) and Max(-z, -1/(z + 1)) <= 0 on [0, inf)."""
    for F in (sp.Piecewise((0, z <= 1), ((1 - z) / (z + 1), True)), sp.Max(-z, -1 / (z + 1))):
        obj, rec = _halfline(F, 2)
        rc = recheck(rec, obj)
        assert rc.ok, rc.problems


@pytest.mark.parametrize("ob_id", ["004-ramp-Def-8-(2)-g_L", "004-Lemma-4.1-Def-8-(2)-gamma[1/20,15/16]",
                                   "004-ramp-Def-8-(1)-quotient-outside",
                                   "004-ramp-Def-8-(1)-quotient-band"])
def test_genuine_registry_proofs_re_check(ob_id):
    """The proofs behind 004-Def-8-ramp-g_L-proof, 004-Lemma-4.1-def8-proof-gamma-low and the
    quotient-band and quotient-outside parts of 004-Def-8-threshold-proof: proven and re-checked (VERIFIED proven)."""
    from verify.claims import Verdict  # noqa: PLC0415
    from verify.claims.sets.proofs import check_obligation  # noqa: PLC0415

    res = check_obligation(ob_id, "test")
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary


@pytest.mark.parametrize("F", [
    sp.Piecewise((-1, x < sp.Rational(1, 2)), (TINY - (x - sp.Rational(1, 2)), True)),
    sp.Piecewise((TINY - (x - sp.Rational(1, 2)), x > sp.Rational(1, 2)), (-1, True)),
    sp.Piecewise((-1, sp.Not(x >= sp.Rational(1, 2))), (TINY + (sp.Rational(1, 2) - x) ** 3, True)),
])
def test_branch_bounded_on_its_guard_closure_keeps_the_boundary(F):
    """A branch is bounded on the sub-box its guard leaves (the closed half-line of a relation
    a*x + b rel 0): the boundary point stays in it, so a branch positive by 1e-30 just at (or just
    past) the boundary x = 1/2 is still seen."""
    pt = sp.Rational(1, 2) + sp.Rational(1, 10**40)
    assert F.subs(x, pt) > 0
    obj = Objective(F, [Variable(x, Q(0), Q(1))])
    for n in (0, 1, 2, 5):
        assert not recheck(_record(obj.domain(), _grid(Q(0), Q(1), n)), obj).ok


def test_jump_at_a_piecewise_boundary_is_not_smoothed():
    """Piecewise((-x, x < 1/2), (1 - x, True)) jumps from -1/2 to 1/2 at x = 1/2: F <= 0 is false there."""
    F = sp.Piecewise((-x, x < sp.Rational(1, 2)), (1 - x, True))
    obj = Objective(F, [Variable(x, Q(0), Q(1))])
    for n in (0, 1, 3):
        assert not recheck(_record(obj.domain(), _grid(Q(0), Q(1), n)), obj).ok
