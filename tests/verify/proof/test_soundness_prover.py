"""Soundness of the interval prover (verify.proof.functions / prover / recheck): false
inequalities must never come out "proven", and the re-checker checks the caller's statement.

Reference values: mpmath at 50 digits (``mp.workdps(50)``) on the formula in each test."""

from __future__ import annotations

from fractions import Fraction as Q

import mpmath
import pytest
import sympy as sp

pytest.importorskip("flint")

from verify.proof.functions import Objective, Variable, restate_on_box  # noqa: E402
from verify.proof.prover import prove_le, prove_switching  # noqa: E402
from verify.proof.recheck import recheck, recheck_switching  # noqa: E402

x, y = sp.symbols("x y", real=True)
THIRD = sp.Rational(1, 3)


def _mp(expr: sp.Expr, point: dict) -> mpmath.mpf:
    with mpmath.workdps(50):
        return mpmath.mpf(sp.N(expr.subs(point), 50))


# -- x^y ln x near x = 0 ---------------------------------------------------------------------------

def test_xpow_log_monotone_rule_uses_the_smallest_exponent():
    """-x^y ln x on [0, 1/5] x [1/2, 2] has max 2/e = 0.7358 at x = e^-2, y = 1/2 (d/dx = 0 at
    x = e^(-1/y)); 0.73 is below it, so the statement is false and must not be proven."""
    F = -x**y * sp.log(x)
    with mpmath.workdps(50):
        true_max = 2 / mpmath.e
        assert _mp(F, {x: sp.exp(-2), y: sp.Rational(1, 2)}) == pytest.approx(true_max, rel=1e-40)
    res = prove_le(Objective(F, [Variable(x, Q(0), Q(1, 5)), Variable(y, Q(1, 2), Q(2))]), threshold=Q(73, 100),
                   max_boxes=20_000)
    assert res.status == "refuted"
    pt = [Q(v) for v in res.counterexample["point"]]
    assert _mp(F, {x: sp.Rational(pt[0]), y: sp.Rational(pt[1])}) > mpmath.mpf("0.73")


@pytest.mark.parametrize("b_hi, y_box", [(Q(1, 5), (Q(1, 2), Q(2))), (Q(1, 10), (Q(1, 4), Q(3))),
                                          (Q(1, 3), (Q(1, 3), Q(1)))])
def test_xpow_log_enclosure_contains_the_sampled_range(b_hi, y_box):
    """The same rule, other boxes where e^(-1/y_hi) > b > e^(-1/y_lo) for part of the y-range: the
    enclosure of x^y ln x over the box must contain every sampled value (mpmath, 30 digits)."""
    from flint import arb  # noqa: PLC0415

    from verify.proof.functions import _xpow_log, ball  # noqa: PLC0415

    f = _xpow_log(lambda a: a[0], lambda a: a[1])
    enc = f([ball(Q(0), b_hi), ball(*y_box)])
    assert enc.is_finite()
    with mpmath.workdps(30):
        for i in range(1, 41):
            for j in range(0, 11):
                xv = mpmath.mpf(b_hi.numerator) / b_hi.denominator * i / 40
                yv = mpmath.mpf(y_box[0].numerator) / y_box[0].denominator + (
                    mpmath.mpf(y_box[1].numerator) / y_box[1].denominator
                    - mpmath.mpf(y_box[0].numerator) / y_box[0].denominator) * j / 10
                v = xv**yv * mpmath.log(xv)
                assert enc.lower() <= arb(str(v)) <= enc.upper()


# -- Piecewise boundaries ----------------------------------------------------------------------------

def test_piecewise_boundary_missed_by_solving_for_one_symbol_is_not_crossed():
    """x (y - 1/3) < 0 has the boundary components x = 0 and y = 1/3; on [1/2, 1] x [0, 1] only y = 1/3
    meets the box, where the branches differ (a jump).  At (3/4, 1/3 - 1e-5),
    F = 3/4 (1/1000 - 10^6 10^-10) = 6.75e-4 > 0 (mpmath), so F <= 0 is false."""
    F = sp.Piecewise((x * (sp.Rational(1, 1000) - 10**6 * (y - THIRD) ** 2), x * (y - THIRD) < 0), (-x, True))
    with mpmath.workdps(50):
        assert _mp(F, {x: sp.Rational(3, 4), y: THIRD - sp.Rational(1, 10**5)}) > 0
    res = prove_le(Objective(F, [Variable(x, Q(1, 2), Q(1)), Variable(y, Q(0), Q(1))]), max_boxes=50_000)
    assert res.status == "refuted"


def test_piecewise_continuity_is_not_assumed_from_one_solved_symbol():
    from verify.proof.functions import _continuous  # noqa: PLC0415

    jump = sp.Piecewise((x * (sp.Rational(1, 1000) - 10**6 * (y - THIRD) ** 2), x * (y - THIRD) < 0), (-x, True))
    assert not _continuous(jump)
    # a genuinely continuous one: e1 - e2 = (y - 1/3) x
    cont = sp.Piecewise((x * y, y - THIRD < 0), (x * THIRD, True))
    assert _continuous(cont)
    # e1 - e2 = (y - 1/3) exp(1/(y - 1/3)^2) is a multiple of the condition but blows up on it
    blow = sp.Piecewise(((y - THIRD) * sp.exp(1 / (y - THIRD) ** 2), y - THIRD < 0), (0, True))
    assert not _continuous(blow)


def test_discontinuous_piecewise_with_closed_guards_is_not_evaluated_on_one_branch():
    """A jump at y = 1/3 where the box's edge touches the boundary: F = 1 at y = 1/3 exactly
    (second branch), 0 left of it; F <= 1/2 is false at y = 1/3."""
    F = sp.Piecewise((x - x, y - THIRD < 0), (1 + 0 * x, True))
    res = prove_le(Objective(F, [Variable(x, Q(0), Q(1)), Variable(y, Q(0), Q(1, 3))]), threshold=Q(1, 2),
                   max_boxes=5_000)
    assert res.status != "proven"


def test_or_condition_falls_back_to_plain_ball_arithmetic():
    """Or conditions are outside the sign split: the objective still builds (plain arithmetic) and
    a false statement is refuted, a true one proven."""
    F = sp.Piecewise((x + y, sp.Or(x > sp.Rational(1, 2), y > sp.Rational(1, 2))), (x * y, True))
    box = [Variable(x, Q(0), Q(1)), Variable(y, Q(0), Q(1))]
    assert prove_le(Objective(F, box), threshold=Q(201, 100), max_boxes=20_000).status == "proven"
    assert prove_le(Objective(F, box), threshold=Q(19, 10), max_boxes=20_000).status == "refuted"


# -- symbols' assumptions and the box ----------------------------------------------------------------

def test_symbol_assumptions_must_hold_on_the_box():
    """SymPy reduces |xp| - xp - 1/2 to -1/2 for xp > 0; on [-1, 1] the statement is false at
    xp = -1 (value 3/2), so the objective must be refused, naming the symbol."""
    xp = sp.Symbol("xp", positive=True)
    F = sp.Abs(xp) - xp - sp.Rational(1, 2)
    assert F == -sp.Rational(1, 2)  # what the prover would see
    with pytest.raises(ValueError, match="variable xp"):
        Objective(F, [Variable(xp, Q(-1), Q(1))])


@pytest.mark.parametrize("kw, lo, hi", [({"positive": True}, Q(0), Q(1)), ({"nonnegative": True}, Q(-1), Q(1)),
                                        ({"negative": True}, Q(-1), Q(0)), ({"integer": True}, Q(0), Q(2)),
                                        ({"nonzero": True}, Q(-1), Q(1)), ({"positive": False}, Q(-1), Q(1))])
def test_every_assumption_is_checked_against_the_box(kw, lo, hi):
    s = sp.Symbol("s", **kw)
    with pytest.raises(ValueError, match="variable s"):
        Objective(s + 1, [Variable(s, lo, hi)])


@pytest.mark.parametrize("kw, lo, hi", [({"positive": True}, Q(1, 10), Q(1)), ({"nonnegative": True}, Q(0), Q(1)),
                                        ({"real": True}, Q(-1), Q(1)), ({"integer": True}, Q(3), Q(3)),
                                        ({"negative": True}, Q(-2), Q(-1)), ({}, Q(-1), Q(1))])
def test_assumptions_implied_by_the_box_are_accepted(kw, lo, hi):
    s = sp.Symbol("s", **kw)
    assert Objective(s - 5, [Variable(s, lo, hi)]).domain() == [(lo, hi)]


def test_restate_on_box_keeps_the_expression_and_weakens_the_symbols():
    z = sp.Symbol("z", positive=True)
    F, vs = restate_on_box(z / (1 + z) - 1, [Variable(z, Q(0), float("inf"))])
    (v,) = vs
    assert v.symbol.name == "z" and v.symbol.is_nonnegative and v.symbol.is_positive is None
    assert prove_le(Objective(F, vs)).status == "proven"


# -- domains ----------------------------------------------------------------------------------------

def test_inverted_domain_is_rejected():
    with pytest.raises(ValueError, match="variable x"):
        Variable(x, Q(1), Q(0))


def test_inverted_box_override_is_rejected():
    obj = Objective(x - 2, [Variable(x, Q(0), Q(1))])
    with pytest.raises(ValueError, match="variable 0"):
        prove_le(obj, box=[(Q(1), Q(0))])
    with pytest.raises(ValueError, match="inside the objective's domain"):
        prove_le(obj, box=[(Q(0), Q(3))])  # x - 2 > 0 at x = 3: outside the stated domain


def test_callable_objective_rejects_an_inverted_box():
    with pytest.raises(ValueError, match="lo <= hi"):
        prove_le(lambda a: a[0] - 2, box=[(1, 0)])


# -- the re-checker: the caller's threshold -----------------------------------------------------------

def test_recheck_uses_the_callers_threshold_not_the_records():
    """A proof of x^2 <= 1 on [0, 1] re-checks as that statement, and not as x^2 <= 0 (false)."""
    obj = Objective(x**2, [Variable(x, Q(0), Q(1))])
    res = prove_le(obj, threshold=1)
    assert res.status == "proven"
    assert recheck(res.to_json(), obj, threshold=1).ok
    rc = recheck(res.to_json(), obj)  # the caller states F <= 0
    assert not rc.ok and any("threshold" in p for p in rc.problems)
    forged = dict(res.to_json(), threshold="0")  # a record claiming F <= 0 with the bounds of F <= 1
    assert not recheck(forged, obj).ok


def test_recheck_switching_rejects_a_part_proving_a_weaker_bound():
    """The convex switching lemma needs each part <= 0.  Here F <= 0 is false (F2 = b - 3/4 > 0 at
    b = g = 1, where c = b^2 - g b = 0 selects F2); the honest proof is refuted in its regular part.
    A record whose regular part is a genuine proof of F <= 1 there must still be rejected."""
    from verify.proof.prover import switching_parts  # noqa: PLC0415

    b, g = sp.symbols("b g", real=True)
    c = b**2 - g * b
    F = sp.Piecewise((-sp.diff(c, b), c > 0), (b - sp.Rational(3, 4), True))
    obj = Objective(F, [Variable(b, Q(0), Q(1)), Variable(g, Q(1, 2), Q(1))])
    honest = prove_switching(obj, Q(1, 2), max_boxes=20_000)
    assert honest.status == "refuted"
    proof = honest.to_json()
    weak = prove_le(switching_parts(obj, Q(1, 2))["regular"], threshold=1)
    assert weak.status == "proven"
    forged = dict(proof, status="proven", parts=dict(proof["parts"], regular=weak.to_json()))
    assert all(p["status"] == "proven" for p in forged["parts"].values())
    rc = recheck_switching(forged, obj)
    assert not rc.ok
    assert any("part regular" in p and "threshold" in p for p in rc.problems)


def test_recheck_switching_takes_the_threshold_as_a_keyword():
    b, g = sp.symbols("b g", real=True)
    F = sp.Piecewise((b - 5, b - 1 > 0), (-1 + 0 * b, True))
    obj = Objective(F, [Variable(b, Q(0), Q(2)), Variable(g, Q(0), Q(1))])
    rc = recheck_switching({"status": "proven", "threshold": "1", "domain": [["0", "2"], ["0", "1"]], "split": "1",
                            "parts": {}}, obj, threshold=1)
    assert not rc.ok and any("proves F <= 0" in p for p in rc.problems)


def test_recheck_does_not_share_the_provers_enclosure():
    """The re-checker evaluates with verify.proof.ball_eval: a proof made with a deliberately wrong
    enclosure (an objective that under-reports F) is rejected."""
    obj = Objective(x**2, [Variable(x, Q(0), Q(1))])
    good = prove_le(obj, threshold=1)

    class Lying(Objective):
        def evaluate(self, box, **kw):  # noqa: ANN001, ANN003, ANN202
            from flint import arb  # noqa: PLC0415
            return arb(0)

    liar = Lying(x**2, [Variable(x, Q(0), Q(1))])
    bad = prove_le(liar, threshold=Q(1, 2), max_boxes=10)
    assert bad.status == "proven"  # the lie fooled the prover
    assert not recheck(bad.to_json(), obj, threshold=Q(1, 2)).ok
    assert not recheck(bad.to_json(), liar, threshold=Q(1, 2)).ok  # not even with the liar as objective
    assert recheck(good.to_json(), obj, threshold=1).ok


def test_recheck_rejects_a_hint_the_caller_does_not_state():
    obj = Objective(x - 2, [Variable(x, Q(0), Q(1))])
    res = prove_le(obj, monotone={0: 1})
    assert not recheck(res.to_json(), obj).ok
    assert recheck(res.to_json(), obj, monotone={0: 1}).ok
