"""The compiled evaluator (verify.proof.ball_compile) returns the interpreter's balls (verify.proof.ball_eval).

The interpreter walks the SymPy tree on every box; the compiled path runs the same arb operations
from closures built once per expression and keeps the box-independent SymPy results.  These tests
compare the two bit for bit (midpoint and radius of every ball), on a table of expressions with
every supported node (Piecewise with And / Or / Not guards, |.|, Max / Min, x^y ln x, sign,
Heaviside, log1p, gamma, loggamma, sqrt, negative powers, pi, E, Float), on seeded random
expressions, at two precisions, and on real proof records re-checked both ways.  The values at
sampled points are exact SymPy values evaluated by mpmath at 50 digits (``sp.N``); every ball on a
box must contain them.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as Q

import numpy as np
import pytest
import sympy as sp

pytest.importorskip("flint")

from flint import arb
from sympy.codegen.cfunctions import log1p

from verify.proof import ball_compile, ball_eval
from verify.proof.functions import Objective, Variable, workprec
from verify.proof.prover import box_from_json, prove_le
from verify.proof.recheck import recheck

x, y = sp.symbols("x y", real=True)
SYMS = [x, y]

EXPRS = [
    x**y * sp.log(x) + sp.Abs(x - y),                                     # the fused x^y ln x factor
    sp.Piecewise((x**2, x < Q(1, 2)), (1 - y, True)),
    sp.Piecewise((sp.Abs(x - y), sp.And(x > y, y > Q(1, 4))), (sp.Max(x, y) - 1, sp.Or(x < Q(1, 5), sp.Not(y > x))),
                 (x * y, True)),
    sp.Max(x, y**2, 1 - x) - sp.Min(x, y),
    sp.sign(x - y) * sp.exp(-x) + sp.Heaviside(x - Q(1, 3)),
    log1p(x * y) + sp.gamma(x + 1) - sp.loggamma(y + 1),
    sp.sqrt(x + y) - x ** sp.Rational(3, 2) + y ** sp.Rational(1, 3),
    1 / (1 + x) - (y + Q(1, 10)) ** -2 + sp.pi * x - sp.E * y + sp.Float("0.1") * x,
    -sp.sqrt(x**2 - x + Q(1, 4)) + y,                                      # |x - 1/2| written as a sqrt
    sp.Piecewise((y * (x - 1), x * y - x > 0), (0, True)),                 # a guard decided on its factored form
    (x - y) ** 3 - x * y * (x - y) + sp.log(1 + x) * sp.Min(y, Q(1, 2)),
]
BOXES = [
    [(Q(1, 10), Q(1, 2)), (Q(1, 5), Q(3, 4))],
    [(Q(0), Q(1)), (Q(1, 2), Q(1))],
    [(Q(1, 3), Q(1, 3)), (Q(1, 4), Q(1, 2))],
    [(Q(1, 2), Q(9, 10)), (Q(0), Q(1, 10))],
]


def _env(box):
    return {s: ball_eval.interval_ball(lo, hi) for s, (lo, hi) in zip(SYMS, box, strict=True)}


def _same(a, b) -> bool:
    """Bit-identical balls (both NaN counts as identical; None for "does not apply" too)."""
    if a is None or b is None:
        return a is None and b is None
    if a.is_nan() or b.is_nan():
        return a.is_nan() and b.is_nan()
    return a.mid() == b.mid() and a.rad() == b.rad()


def _all_results(e, box):
    """Every public result of the evaluator on (e, box); a TypeError is a result too."""
    out = []
    env = _env(box)
    for f in (lambda: ball_eval.enclose(e, env),
              lambda: ball_eval.upper_bound(e, SYMS, box, {}),
              lambda: ball_eval.enclose_decided(e, SYMS, box, {}),
              lambda: ball_eval.mean_value(e, SYMS, box, {}),
              lambda: ball_eval.decide(e, env),
              lambda: ball_eval.decide(e, env, (SYMS, list(box), {}))):
        try:
            out.append(f())
        except TypeError as exc:
            out.append(("TypeError", str(exc)))
    return out


def _identical(slow, fast) -> bool:
    for a, b in zip(slow, fast, strict=True):
        if isinstance(a, arb) or isinstance(b, arb) or a is None or b is None:
            if not _same(a, b):
                return False
        elif a != b:  # SymPy forms (decide) or the TypeError message
            return False
    return True


def _both(e, box, fresh: bool = True):
    """(interpreter, compiled, compiled again); ``fresh``: the compiled path starts from nothing."""
    if fresh:
        ball_compile.clear_caches()
    with ball_eval.interpreted():
        slow = _all_results(e, box)
    fast = _all_results(e, box)
    fast_again = _all_results(e, box)  # from the kept compiled forms and memoised SymPy results
    return slow, fast, fast_again


@pytest.mark.parametrize("k", range(len(EXPRS)))
def test_compiled_balls_are_the_interpreters_bit_for_bit(k):
    e = EXPRS[k]
    for i, box in enumerate(BOXES):  # compiled from nothing on the first box, then kept
        slow, fast, again = _both(e, box, fresh=i == 0)
        assert _identical(slow, fast), (e, box, slow, fast)
        assert _identical(slow, again), (e, box, slow, again)


@pytest.mark.parametrize("k", range(len(EXPRS)))
def test_compiled_enclosure_contains_the_values_at_sampled_points(k):
    """At interior points (1/4 or 3/4 of each side, and the centre) the exact value (SymPy, evaluated
    by mpmath at 50 digits) lies in the compiled ball on the box."""
    e = EXPRS[k]
    checked = 0
    for box in BOXES:
        env = _env(box)
        ball = ball_eval.enclose(e, env)
        for fr in [*itertools.product((Q(1, 4), Q(3, 4)), repeat=2), (Q(1, 2), Q(1, 2))]:
            pt = {s: sp.Rational(lo + f * (hi - lo)) for s, (lo, hi), f in zip(SYMS, box, fr, strict=True)}
            val = e.subs(pt)
            if val.has(sp.nan, sp.zoo) or not val.is_real:
                continue
            v = arb(str(sp.N(val, 50)))
            if ball.is_finite():
                assert ball.lower() <= v + arb("1e-45") and v - arb("1e-45") <= ball.upper(), (e, box, pt)
                checked += 1
    assert checked >= 5, (e, checked)


def _random_expr(rng: np.random.Generator, depth: int) -> sp.Expr:
    """A random expression over x, y from the evaluator's nodes (seeded)."""
    if depth == 0 or rng.random() < 0.2:
        return [x, y, x + y, x - y, sp.Rational(int(rng.integers(-3, 4)), int(rng.integers(1, 4)))][int(rng.integers(0, 5))]
    a = _random_expr(rng, depth - 1)
    b = _random_expr(rng, depth - 1)
    k = int(rng.integers(0, 12))
    return [
        a + b, a * b, a - b * sp.Rational(1, 3), sp.Abs(a) + b, sp.Max(a, b), sp.Min(a, b - 1),
        sp.exp(-sp.Abs(a)) * b, sp.Piecewise((a, b > 0), (b, True)),
        sp.Piecewise((a, sp.And(a > b, x > Q(1, 3))), (a * b, sp.Or(y < Q(1, 2), a < 0)), (b, True)),
        sp.sqrt(sp.Abs(a) + 1) - b, sp.log(1 + a**2) * b, a**2 - b**3,
    ][k]


def _random_cases(seed: int, n: int, depth: int):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        e = _random_expr(rng, depth)
        lo1, lo2 = (Q(int(v), 8) for v in rng.integers(-8, 8, size=2))
        yield e, [(lo1, lo1 + Q(int(rng.integers(0, 5)), 8)), (lo2, lo2 + Q(int(rng.integers(1, 5)), 8))]


def test_compiled_enclosure_and_decision_match_on_random_expressions():
    """Plain enclosure and decided form of 30 seeded random expressions, bit for bit."""
    for e, box in _random_cases(20261128, 30, 2):
        env = _env(box)
        ball_compile.clear_caches()
        with ball_eval.interpreted():
            slow = (ball_eval.enclose(e, env), ball_eval.decide(e, env))
        fast = (ball_eval.enclose(e, env), ball_eval.decide(e, env))
        assert _same(slow[0], fast[0]) and slow[1] == fast[1], (e, box, slow, fast)


def test_compiled_bounds_match_on_random_expressions():
    """Every public result (upper bound with its case splits, decided enclosure, mean-value form)
    on 8 seeded random expressions, bit for bit."""
    for e, box in _random_cases(20261129, 8, 2):
        slow, fast, again = _both(e, box)
        assert _identical(slow, fast), (e, box, slow, fast)
        assert _identical(slow, again), (e, box)


@pytest.mark.long
def test_compiled_bounds_match_on_many_random_expressions():
    """The same on 40 deeper random expressions (about a minute)."""
    for e, box in _random_cases(20261128, 40, 3):
        slow, fast, again = _both(e, box)
        assert _identical(slow, fast), (e, box, slow, fast)
        assert _identical(slow, again), (e, box)


def test_constants_follow_the_working_precision():
    """pi, E and 1/3 are balls at the precision of each evaluation (a compiled form per precision)."""
    e = x / 3 + sp.pi - sp.E * y
    box = [(Q(1, 7), Q(2, 7)), (Q(1, 3), Q(1, 2))]
    for prec in (64, 256, 64):
        with workprec(prec):
            env = _env(box)
            with ball_eval.interpreted():
                slow = ball_eval.enclose(e, env)
            fast = ball_eval.enclose(e, env)
        assert _same(slow, fast), (prec, slow, fast)
    with workprec(64):
        wide = ball_eval.enclose(sp.pi + 0 * x, _env(box))
    with workprec(256):
        narrow = ball_eval.enclose(sp.pi + 0 * x, _env(box))
    assert narrow.rad() < wide.rad()


def test_unsupported_node_raises_only_where_reached():
    """besselj is no node of the evaluator: a TypeError when its branch may be active, none when its
    guard is certainly false on the box -- in both evaluators."""
    e = sp.Piecewise((sp.besselj(0, x), x < -1), (x, True))
    inside = [(Q(0), Q(1)), (Q(0), Q(1))]
    reached = [(Q(-2), Q(0)), (Q(0), Q(1))]
    for flag in (True, False):
        with ball_eval.interpreted(flag):
            assert _same(ball_eval.enclose(e, _env(inside)), ball_eval.interval_ball(Q(0), Q(1)))
            with pytest.raises(TypeError, match="unsupported node besselj"):
                ball_eval.enclose(e, _env(reached))
    with pytest.raises(TypeError, match="free symbol y has no ball"):
        ball_eval.enclose(x + y, {x: arb(1)})


def test_interpreted_block_restores_the_choice():
    with ball_eval.interpreted():
        assert ball_eval._compiled() is None
        with ball_eval.interpreted(False):
            assert ball_eval._compiled() is ball_compile
        assert ball_eval._compiled() is None
    assert ball_eval._compiled() is ball_compile


def _record(obj, boxes, threshold):
    js = lambda b: [[str(lo), str(hi)] for lo, hi in b]  # noqa: E731
    return {"status": "proven", "threshold": str(threshold), "domain": js(obj.domain()), "monotone": {},
            "boxes": [js(b) for b in boxes], "bounds": [str(threshold)] * len(boxes)}


def test_proof_records_recheck_the_same_both_ways():
    """A genuine branch-and-bound proof of F <= 1 (a Piecewise with |.| and a half-line z) re-checks
    in both evaluators with the same outcome and box count; its boxes claimed for F <= 2/5 are
    rejected by both with the same problems (F(0, z) = 1/2 - 1/(1 + z) > 2/5 for z > 9, exact)."""
    z = sp.Symbol("z", nonnegative=True)
    F = sp.Piecewise((sp.Abs(x - Q(1, 2)) - 1 / (1 + z), x < Q(3, 4)), (x / 2 - Q(3, 8) - z / (1 + z), True))
    obj = Objective(F, [Variable(x, Q(0), Q(1)), Variable(z, Q(0), math.inf)])
    assert F.subs({x: 0, z: 10}) > Q(2, 5)
    res = prove_le(obj, threshold=Q(1), time_limit=20)
    assert res.status == "proven", res
    outcomes = []
    for flag in (True, False):
        ball_compile.clear_caches()
        with ball_eval.interpreted(flag):
            good = recheck(res.to_json(), obj, threshold=Q(1))
            bad = recheck(_record(obj, [box_from_json(b) for b in res.to_json()["boxes"]], Q(2, 5)), obj,
                          threshold=Q(2, 5))
        outcomes.append((good.ok, good.n_boxes, tuple(good.problems), bad.ok, tuple(bad.problems)))
    assert outcomes[0] == outcomes[1], outcomes
    assert outcomes[0][0] and not outcomes[0][3]
