"""An independent ball-arithmetic evaluator of SymPy expressions, for the re-checker.

:mod:`verify.proof.recheck` must not trust the enclosures it re-checks (:mod:`verify.proof.functions`:
sign-split variants, monotone faces, affine faces, the fused x^y ln x node, continuity of a
Piecewise).  This module is written separately from that one and uses none of it: a direct
recursive walk of the SymPy tree in arb (python-flint) ball arithmetic, where every node returns
a ball containing the exact range of the node over its argument balls (arb's inclusion principle),
and a node it cannot enclose returns NaN (never proven):

* ``+``, ``*``; ``a^n`` (integer n), ``sqrt``, ``a^b`` for a > 0 (arb), and for a >= 0 with b > 0
  the range [0, max(a_hi^b_lo, a_hi^b_hi)] (a^b increases in a for b > 0, and is monotone in b);
* ``exp``, ``log`` (argument > 0), ``log1p`` (argument > -1), ``Abs``, ``Min``, ``Max``, ``sign``,
  ``Heaviside``, ``gamma``, ``loggamma``, ``pi``, ``E``;
* ``Piecewise``: each condition (relations, And, Or, Not) is evaluated in ball arithmetic to
  True / False / undecided on the box; the enclosure is the union of every branch that may be the
  active one (its condition not certainly false, every earlier condition not certainly true);
* a product with x^b and ln x (b > 0, x >= 0) is enclosed as a whole by
  [min(-1/(e b_lo), 0), max(0, x_hi^b ln x_hi)] -- the minimum of t^b ln t over t > 0 is
  -1/(e b) (at t = e^(-1/b)), t^b ln t <= 0 on [0, 1], and on [1, x_hi] it increases in t and b;
  the value at x = 0 is the limit 0.

:func:`enclose` is the plain enclosure.  :func:`enclose_decided` first replaces every |u|, Max,
Min and Piecewise whose choice is *certain on the box* (decided by :func:`enclose` of the argument
or condition) by the chosen argument, and lets SymPy cancel the result (an exact identity of
rational functions in the remaining atoms): on the box that is the same function, and a
cancellation (|shift| + |scale| = alpha/s of 002 Lemma 12) is then exact, not approached.
:func:`upper_bound` adds monotone faces from the same derivatives (an upper end only); in it a
Piecewise condition the plain enclosure leaves undecided is retried on sp.factor(lhs - rhs) and by
upper bounds of lhs - rhs and rhs - lhs (:func:`_cond_strong`), and an undecided Piecewise's
branch is bounded only on the closed sub-box its guard (and the negated earlier guards) leave when
a guard is a relation a*v + b rel 0 in one variable (:func:`_restrict`).
:func:`mean_value` is the mean-value form F(c) + sum_i dF/dv_i(B)(B_i - c_i) with the derivative
from ``sp.diff`` of the decided expression, used only when that expression has no Piecewise,
sign, Heaviside, Abs, Max or Min left (then it is smooth wherever its ball is finite).

This module is the definition (an interpreter of the SymPy tree, run when the environment variable
``SMOOTHSENS_BALL_EVAL`` is ``interpret`` or inside :func:`interpreted`); by default the public
functions run :mod:`verify.proof.ball_compile`, which performs the same arb operations on each box
from closures compiled once per expression and keeps the box-independent SymPy results, and
returns the same balls.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence

import sympy as sp
from flint import arb, fmpq
from sympy.codegen.cfunctions import log1p as _sp_log1p

__all__ = ["enclose", "enclose_decided", "upper_bound", "decide", "mean_value", "point_ball", "interval_ball",
           "interpreted"]

_NAN = arb("nan")

# the compiled evaluator (default) or this module's interpreter (SMOOTHSENS_BALL_EVAL=interpret)
_INTERPRET = os.environ.get("SMOOTHSENS_BALL_EVAL", "compiled").strip().lower() == "interpret"
_COMPILED_MODULE: Any = None


def _compiled() -> Any:
    """:mod:`verify.proof.ball_compile`, or None while the interpreter is selected."""
    global _COMPILED_MODULE
    if _INTERPRET:
        return None
    if _COMPILED_MODULE is None:
        from . import ball_compile  # noqa: PLC0415 - it imports this module's arb primitives (an import cycle)

        _COMPILED_MODULE = ball_compile
    return _COMPILED_MODULE


@contextmanager
def interpreted(flag: bool = True) -> Iterator[None]:
    """Within the block, evaluate by this module's interpreter (``flag`` True) or by the compiled
    evaluator (``flag`` False); the previous choice is restored on exit."""
    global _INTERPRET
    before = _INTERPRET
    _INTERPRET = flag
    try:
        yield
    finally:
        _INTERPRET = before


def point_ball(q: Fraction) -> arb:
    """A ball containing the rational q."""
    return arb(fmpq(q.numerator, q.denominator))


def interval_ball(lo: Fraction, hi: Fraction) -> arb:
    """A ball containing [lo, hi]; for lo >= 0 its part below 0 is cut off (it contains no point)."""
    b = point_ball(lo).union(point_ball(hi))
    return b.nonnegative_part() if lo >= 0 else b


def _finite(*xs: arb) -> bool:
    return all(x.is_finite() for x in xs)


def _nonneg(v: arb) -> arb:
    """v without its part below 0, for a v that holds only values >= 0 (a power of a base >= 0, an
    exponential, a square root, an absolute value): the part is a rounding artefact of the
    midpoint-radius form, and keeping it would spoil the sign of every product with v."""
    return v.nonnegative_part() if v.is_finite() else v


def _span(lo: arb, hi: arb) -> arb:
    """The ball containing [lo, hi] (exact arb endpoints)."""
    return lo.union(hi)


def _power(a: arb, b: arb) -> arb:
    """{s^t : s in a, t in b} for a real exponent ball b."""
    if not _finite(a, b):
        return _NAN
    if a.lower() > 0:
        return _nonneg(a ** b)
    if a.lower() < 0 or not (b.lower() > 0):
        return _NAN
    top = a.upper()
    if top == 0:
        return arb(0)
    return _nonneg(_span(arb(0), arb.max(top ** b.lower(), top ** b.upper())))


def _xpowlog(x: arb, b: arb) -> arb:
    """{s^t ln s : s in x, t in b} for x >= 0 (value 0 at s = 0), b > 0 (module docstring)."""
    if not _finite(x, b):
        return _NAN
    if x.lower() > 0:
        return (x ** b) * x.log()
    if x.lower() < 0 or not (b.lower() > 0):
        return _NAN
    top = x.upper()
    if top == 0:
        return arb(0)
    lo = -1 / (arb.const_e() * b.lower())
    hi = arb(0) if top <= 1 else arb.max(top ** b.lower(), top ** b.upper()) * top.log()
    return _span(lo.lower(), hi.upper()) if hi.is_finite() and lo.is_finite() else _NAN


def _sign_of(v: arb) -> int | None:
    """+1 if every point of v is >= 0, -1 if every point is <= 0, None otherwise (or not finite)."""
    if not v.is_finite():
        return None
    if v.lower() >= 0:
        return 1
    if v.upper() <= 0:
        return -1
    return None


def _clip(result: arb, parts: Sequence[arb], *, product: bool) -> arb:
    """A sum of terms of one certain sign, or a product of factors of certain signs, has a certain
    sign; a midpoint-radius ball of it may reach past 0 by rounding: cut that part off (it holds no
    value of the sum / product)."""
    if not result.is_finite():
        return result
    signs = [_sign_of(v) for v in parts]
    if None in signs:
        return result
    if product:
        negative = signs.count(-1) % 2 == 1
    elif all(x == 1 for x in signs):
        negative = False
    elif all(x == -1 for x in signs):
        negative = True
    else:
        return result
    return -(-result).nonnegative_part() if negative else result.nonnegative_part()


def _cond(c: Any, env: Mapping[sp.Symbol, arb], memo: dict) -> bool | None:
    """True / False when the condition holds / fails at every point of the box, None otherwise."""
    if c is sp.true or c == True:  # noqa: E712
        return True
    if c is sp.false or c == False:  # noqa: E712
        return False
    if isinstance(c, sp.And):
        s = [_cond(a, env, memo) for a in c.args]
        return False if False in s else (True if all(x is True for x in s) else None)
    if isinstance(c, sp.Or):
        s = [_cond(a, env, memo) for a in c.args]
        return True if True in s else (False if all(x is False for x in s) else None)
    if isinstance(c, sp.Not):
        s1 = _cond(c.args[0], env, memo)
        return None if s1 is None else not s1
    if not isinstance(c, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
        return None  # Eq, Ne, anything else: undecided (both branches possible)
    d = _enc(sp.sympify(c.lhs - c.rhs), env, memo)
    if not d.is_finite():
        return None
    lo, hi = d.lower(), d.upper()
    if isinstance(c, sp.StrictLessThan):
        return True if hi < 0 else (False if lo >= 0 else None)
    if isinstance(c, sp.LessThan):
        return True if hi <= 0 else (False if lo > 0 else None)
    if isinstance(c, sp.StrictGreaterThan):
        return True if lo > 0 else (False if hi <= 0 else None)
    return True if lo >= 0 else (False if hi < 0 else None)


def _number(e: sp.Expr) -> arb:
    if e.is_Rational or e.is_Integer:
        q = sp.Rational(e)
        return arb(fmpq(int(q.p), int(q.q)))
    if e.is_Float:
        q = sp.Rational(e)  # the exact binary value of the Float
        return arb(fmpq(int(q.p), int(q.q)))
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb.const_e()
    return _NAN


def _enc(e: sp.Expr, env: Mapping[sp.Symbol, arb], memo: dict) -> arb:
    if e in memo:
        return memo[e]
    v = _enc_node(e, env, memo)
    memo[e] = v
    return v


def _enc_node(e: sp.Expr, env: Mapping[sp.Symbol, arb], memo: dict) -> arb:
    if e.is_Symbol:
        if e not in env:
            raise TypeError(f"free symbol {e} has no ball")
        return env[e]
    if e.is_Number or e is sp.pi or e is sp.E:
        return _number(e)
    if e.is_NumberSymbol or e in (sp.oo, -sp.oo, sp.zoo, sp.nan):
        return _NAN
    if isinstance(e, sp.Add):
        terms = [_enc(t, env, memo) for t in e.args]
        acc = arb(0)
        for v in terms:
            acc = acc + v
        return _clip(acc, terms, product=False)
    if isinstance(e, sp.Mul):
        args = list(e.args)
        factors = []
        # x^b ln x (b not a number) as one factor: finite at x = 0
        for lg in [a for a in args if isinstance(a, sp.log)]:
            pw = next((a for a in args if isinstance(a, sp.Pow) and a.base == lg.args[0] and not a.exp.is_Number), None)
            if pw is not None and lg in args:
                args.remove(lg)
                args.remove(pw)
                factors.append(_xpowlog(_enc(pw.base, env, memo), _enc(pw.exp, env, memo)))
        factors += [_enc(t, env, memo) for t in args]
        acc = arb(1)
        for v in factors:
            acc = acc * v
        return _clip(acc, factors, product=True)
    if isinstance(e, sp.Pow):
        base, ex = e.args
        a = _enc(base, env, memo)
        if ex.is_Integer:
            n = int(ex)
            if n >= 0:
                r = a ** n
                return r.nonnegative_part() if n % 2 == 0 and r.is_finite() else _clip(r, [a] * n, product=True)
            if not a.is_finite() or a.contains(0):
                return _NAN
            return _clip(1 / (a ** (-n)), [a] * (-n), product=True)
        if ex == sp.Rational(1, 2):
            return _nonneg(a.sqrt()) if a.is_finite() and a.lower() >= 0 else _NAN
        return _power(a, _enc(ex, env, memo))
    if isinstance(e, sp.exp):
        return _nonneg(_enc(e.args[0], env, memo).exp())
    if isinstance(e, sp.log):
        if len(e.args) != 1:
            raise TypeError(f"log with a base is not supported: {e}")
        a = _enc(e.args[0], env, memo)
        return a.log() if a.is_finite() and a.lower() > 0 else _NAN
    if isinstance(e, _sp_log1p):
        a = _enc(e.args[0], env, memo)
        return a.log1p() if a.is_finite() and a.lower() > -1 else _NAN
    if isinstance(e, sp.Abs):
        return _nonneg(abs(_enc(e.args[0], env, memo)))
    if isinstance(e, (sp.Max, sp.Min)):
        vals = [_enc(t, env, memo) for t in e.args]
        if not _finite(*vals):
            return _NAN
        op = arb.max if isinstance(e, sp.Max) else arb.min
        acc = vals[0]
        for v in vals[1:]:
            acc = op(acc, v)
        return acc
    if isinstance(e, sp.sign):
        a = _enc(e.args[0], env, memo)
        if a.is_finite() and a.lower() > 0:
            return arb(1)
        if a.is_finite() and a.upper() < 0:
            return arb(-1)
        return _span(arb(-1), arb(1))
    if isinstance(e, sp.Heaviside):
        a = _enc(e.args[0], env, memo)
        if a.is_finite() and a.lower() > 0:
            return arb(1)
        if a.is_finite() and a.upper() < 0:
            return arb(0)
        return _span(arb(0), arb(1))
    if isinstance(e, sp.gamma):
        return _enc(e.args[0], env, memo).gamma()
    if isinstance(e, sp.loggamma):
        return _enc(e.args[0], env, memo).lgamma()
    if isinstance(e, sp.Piecewise):
        out = None
        for ex, c in e.args:
            st = _cond(c, env, memo)
            if st is False:
                continue
            v = _enc(ex, env, memo)
            out = v if out is None else out.union(v)
            if st is True:
                break
        return _NAN if out is None else out
    raise TypeError(f"ball_eval: unsupported node {type(e).__name__}: {e}")


def enclose(expr: sp.Expr, env: Mapping[sp.Symbol, arb]) -> arb:
    """A ball containing expr over the box given by ``env`` (symbol -> ball); NaN if not enclosed."""
    if (fast := _compiled()) is not None:
        return fast.enclose(expr, env)
    return _enc(sp.sympify(expr), env, {})


def _cond_strong(c: Any, env: Mapping[sp.Symbol, arb], memo: dict, ctx: tuple) -> bool | None:
    """:func:`_cond`, and where that leaves a relation lhs - rhs (= d) rel 0 undecided, d's range
    bounded more tightly: the plain enclosure of sp.factor(d) (an exact identity: b*gamma - b =
    b*(gamma - 1) has a certain sign where the expanded sum's ball straddles 0) and the upper ends
    of :func:`upper_bound` of d and of -d (monotone faces, mean-value form; sound for any d)."""
    plain = _cond(c, env, memo)
    if plain is not None:
        return plain
    if isinstance(c, (sp.And, sp.Or)):
        s = [_cond_strong(a, env, memo, ctx) for a in c.args]
        if isinstance(c, sp.And):
            return False if False in s else (True if all(x is True for x in s) else None)
        return True if True in s else (False if all(x is False for x in s) else None)
    if isinstance(c, sp.Not):
        s1 = _cond_strong(c.args[0], env, memo, ctx)
        return None if s1 is None else not s1
    if not isinstance(c, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
        return None
    symbols, box, cache = ctx
    d = sp.sympify(c.lhs - c.rhs)
    los: list[arb] = []
    his: list[arb] = []
    fkey = ("factor", d)
    if fkey not in cache:
        try:
            cache[fkey] = sp.factor(d) if not d.has(*_ROUGH) else None
        except Exception:  # noqa: BLE001 - no factored form
            cache[fkey] = None
    if cache[fkey] is not None:
        try:
            v = enclose(cache[fkey], env)
        except TypeError:
            v = _NAN
        if v.is_finite():
            los.append(v.lower())
            his.append(v.upper())
    try:
        up = upper_bound(d, symbols, box, cache, splits=2, strong=False)
        dn = upper_bound(-d, symbols, box, cache, splits=2, strong=False)
    except Exception:  # noqa: BLE001 - not bounded: the plain / factored answer stands
        up = dn = _NAN
    if up.is_finite():
        his.append(up.upper())
    if dn.is_finite():
        los.append(-dn.upper())
    if not los and not his:
        return None
    # only the best end of each side is used: each is a valid bound of d on the box
    lo = max(los) if los else None
    hi = min(his) if his else None
    if isinstance(c, sp.StrictLessThan):
        return True if hi is not None and hi < 0 else (False if lo is not None and lo >= 0 else None)
    if isinstance(c, sp.LessThan):
        return True if hi is not None and hi <= 0 else (False if lo is not None and lo > 0 else None)
    if isinstance(c, sp.StrictGreaterThan):
        return True if lo is not None and lo > 0 else (False if hi is not None and hi <= 0 else None)
    return True if lo is not None and lo >= 0 else (False if hi is not None and hi < 0 else None)


def decide(expr: sp.Expr, env: Mapping[sp.Symbol, arb], ctx: tuple | None = None) -> sp.Expr:
    """``expr`` with every |u|, Max, Min and Piecewise whose choice is certain on the box replaced by
    the chosen argument (innermost first); an undecided one is kept.  With ``ctx`` = (symbols, box,
    cache) a Piecewise condition the plain enclosure leaves undecided is retried by
    :func:`_cond_strong`."""
    if (fast := _compiled()) is not None:
        return fast.decide(expr, env, ctx)
    memo: dict = {}

    def rec(e: sp.Expr) -> sp.Expr:
        if not e.args or e.is_Atom:
            return e
        if isinstance(e, sp.Piecewise):
            kept: list[tuple[Any, Any]] = []
            for ex, c in e.args:
                st = _cond(c, env, memo) if ctx is None else _cond_strong(c, env, memo, ctx)
                if st is False:
                    continue
                if st is True and not kept:
                    return rec(ex)
                kept.append((rec(ex), c))
                if st is True:
                    break
            return sp.Piecewise(*kept) if kept else sp.nan
        args = [rec(a) for a in e.args]
        if isinstance(e, sp.Abs):
            a = _enc(args[0], env, memo)
            if a.is_finite() and a.lower() >= 0:
                return args[0]
            if a.is_finite() and a.upper() <= 0:
                return -args[0]
            return sp.Abs(args[0])
        if isinstance(e, (sp.Max, sp.Min)):
            vals = [_enc(a, env, memo) for a in args]
            if _finite(*vals):
                for i, vi in enumerate(vals):
                    wins = all((vi.lower() >= vj.upper()) if isinstance(e, sp.Max) else (vi.upper() <= vj.lower())
                               for j, vj in enumerate(vals) if j != i)
                    if wins:
                        return args[i]
            return e.func(*args)
        return e.func(*args)

    return rec(sp.sympify(expr))


_ROUGH = (sp.Piecewise, sp.sign, sp.Heaviside, sp.Abs, sp.Max, sp.Min)


def _simplified(e: sp.Expr) -> sp.Expr:
    """sp.cancel of e when it is not more complex (an exact identity of rational functions)."""
    try:
        s = sp.cancel(sp.together(e))
    except Exception:  # noqa: BLE001 - keep e
        return e
    return s if sp.count_ops(s) <= sp.count_ops(e) else e


def mean_value(expr: sp.Expr, symbols: Sequence[sp.Symbol], box: Sequence[tuple[Fraction, Fraction]],
               derivative_cache: dict | None = None) -> arb | None:
    """F(c) + sum_i dF/dv_i(B)(B_i - c_i) (c the box's centre) for an expression smooth on the box
    (no Piecewise, sign, Heaviside, Abs, Max, Min: then F is C^1 wherever its derivative's ball is
    finite); None when it does not apply."""
    if (fast := _compiled()) is not None:
        return fast.mean_value(expr, symbols, box, derivative_cache)
    if expr.has(*_ROUGH) or all(lo == hi for lo, hi in box):
        return None
    cache = derivative_cache if derivative_cache is not None else {}
    mids = [(lo + hi) / 2 for lo, hi in box]
    env_c = {s: point_ball(m) for s, m in zip(symbols, mids, strict=False)}
    env_b = {s: interval_ball(lo, hi) for s, (lo, hi) in zip(symbols, box, strict=False)}
    v = enclose(expr, env_c)
    for s, (lo, hi), m in zip(symbols, box, mids, strict=False):
        if lo == hi:
            continue
        key = (expr, s)
        if key not in cache:
            cache[key] = sp.diff(expr, s)
        try:
            g = enclose(cache[key], env_b)
        except TypeError:  # a derivative outside the supported nodes (polygamma, ...)
            return None
        if not g.is_finite():
            return None
        v = v + g * point_ball(lo - m).union(point_ball(hi - m))
    return v if v.is_finite() else None


def enclose_decided(expr: sp.Expr, symbols: Sequence[sp.Symbol], box: Sequence[tuple[Fraction, Fraction]],
                    cache: dict | None = None) -> arb:
    """Of three valid enclosures of ``expr`` on the box -- the plain one, the plain enclosure of its
    decided and cancelled form (:func:`decide`), and that form's mean-value form -- the one with
    the least upper end (used for its upper end)."""
    if (fast := _compiled()) is not None:
        return fast.enclose_decided(expr, symbols, box, cache)
    cache = cache if cache is not None else {}
    env = {s: interval_ball(lo, hi) for s, (lo, hi) in zip(symbols, box, strict=False)}
    best = enclose(expr, env)
    dec = decide(expr, env)
    key = ("simplified", dec)
    if key not in cache:
        cache[key] = _simplified(dec)
    form = cache[key]
    for cand in (enclose(form, env), mean_value(form, symbols, box, cache)):
        if cand is None or not cand.is_finite():
            continue
        # the one with the least upper end (not the intersection: a midpoint-radius intersection
        # rounds its upper end up, past 0 when one enclosure ends exactly at 0)
        if not best.is_finite() or cand.upper() < best.upper():
            best = cand
    return best


def _factored_derivative(e: sp.Expr, s: sp.Symbol) -> sp.Expr:
    """d e / d s as a product of factors (sp.factor of the cancelled derivative, an exact identity):
    the sign of a product of single-sign factors is decided on a box where the expanded sum's
    enclosure straddles 0."""
    d = sp.diff(e, s)
    if d.is_number:
        return d
    try:
        c = sp.cancel(sp.together(d))
        num, _den = sp.fraction(c)
        return sp.factor(c) if sp.count_ops(num) < 80 else c
    except Exception:  # noqa: BLE001 - the plain derivative is as valid
        return d


def _undecided_atom(e: sp.Expr) -> sp.Expr | None:
    """An |u|, Max, Min or Piecewise of e (the smallest first), or None."""
    atoms = sorted(e.atoms(sp.Abs, sp.Max, sp.Min, sp.Piecewise), key=lambda t: (sp.count_ops(t), sp.default_sort_key(t)))
    return atoms[0] if atoms else None


def _cases(atom: sp.Expr) -> list[sp.Expr]:
    """The values the atom may take at a point: |u| in {u, -u}, Max / Min one of their arguments,
    a Piecewise one of its branches."""
    if isinstance(atom, sp.Abs):
        return [atom.args[0], -atom.args[0]]
    if isinstance(atom, (sp.Max, sp.Min)):
        return list(atom.args)
    return [ex for ex, _c in atom.args]


def _atom_bound_side(e: sp.Expr, atom: sp.Expr, env: Mapping[sp.Symbol, arb], cache: dict) -> str:
    """"min" when e is affine in the atom A = |u| (Max, Min) with a coefficient of certain sign
    such that e(A) <= e(c) for every case c: |u| >= u, -u and Max >= each argument, so e
    nonincreasing in A gives e(A) <= min_c e(c); Min <= each argument, so e nondecreasing in A
    does.  Otherwise "max" (e(A) equals one of the e(c) at every point)."""
    key = ("coef", e, atom)
    if key not in cache:
        d = sp.Dummy("atom")
        ed = e.xreplace({atom: d})
        # SymPy differentiates a Piecewise branchwise, ignoring its conditions: an atom inside a
        # condition (or a jump) makes e non-monotone in it whatever the branchwise coefficient
        rough = any(t.has(d) for t in ed.atoms(sp.Piecewise, sp.sign, sp.Heaviside))
        coef = sp.diff(ed, d)
        cache[key] = None if rough or coef.has(d) else coef
    coef = cache[key]
    if coef is None:
        return "max"
    try:
        sign = _sign_of(enclose(coef, env))
    except TypeError:
        return "max"
    if sign is None:
        return "max"
    increasing = sign > 0
    if isinstance(atom, sp.Min):
        return "min" if increasing else "max"
    return "max" if increasing else "min"


_RELATIONS = (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)


def _restrict(c: Any, symbols: Sequence[sp.Symbol], box: list, negate: bool = False) -> list | None:
    """A sub-box containing every point of ``box`` where the condition ``c`` holds (where it fails,
    for ``negate``); None when no point can.  Only a relation a*v + b rel 0 with rational numbers
    a != 0, b in a single variable v (or an And of relations, not negated) narrows v's interval to
    the closed half-line it states (a closure: a superset of the points); anything else keeps the
    box."""
    if isinstance(c, sp.And) and not negate:
        out: list | None = box
        for a in c.args:
            out = _restrict(a, symbols, out) if out is not None else None
            if out is None:
                return None
        return out
    if isinstance(c, sp.Or) and negate:  # not (A or B) = not A and not B
        out = box
        for a in c.args:
            out = _restrict(a, symbols, out, negate=True) if out is not None else None
            if out is None:
                return None
        return out
    if isinstance(c, sp.Not):
        return _restrict(c.args[0], symbols, box, not negate)
    if not isinstance(c, _RELATIONS):
        return box
    d = sp.sympify(c.lhs - c.rhs)
    free = [t for t in d.free_symbols if t in symbols]
    if len(free) != 1 or len(d.free_symbols) != 1:
        return box
    v = free[0]
    try:
        poly = sp.Poly(d, v)
    except Exception:  # noqa: BLE001 - not a polynomial: keep the box
        return box
    if poly.degree() != 1:
        return box
    a, b = poly.all_coeffs()
    if not (a.is_Rational and b.is_Rational) or a == 0:
        return box
    root = Fraction(int(sp.Rational(-b).p), int(sp.Rational(-b).q)) / Fraction(int(sp.Rational(a).p), int(sp.Rational(a).q))
    # d >= 0 (or > 0) <=> v >= root when a > 0, v <= root when a < 0; d <= 0 (< 0) the reverse
    upper_side = isinstance(c, (sp.StrictGreaterThan, sp.GreaterThan))
    if negate:
        upper_side = not upper_side
    v_at_least = upper_side == (a > 0)
    i = list(symbols).index(v)
    lo, hi = box[i]
    lo, hi = (max(lo, root), hi) if v_at_least else (lo, min(hi, root))
    if lo > hi:
        return None
    out = list(box)
    out[i] = (lo, hi)
    return out


def upper_bound(expr: sp.Expr, symbols: Sequence[sp.Symbol], box: Sequence[tuple[Fraction, Fraction]],
                cache: dict | None = None, splits: int = 6, strong: bool = True) -> arb:
    """A ball whose upper end is >= sup of ``expr`` over the box (its lower end means nothing).

    1. :func:`decide` (equal to expr on the box).  If an |u|, Max, Min or Piecewise is left
       undecided, at every point of the box it equals one of its cases (u or -u; an argument; a
       branch), so sup expr <= max over the cases c of sup over the *whole box* of expr with the
       atom replaced by c (each case is a function on the box that agrees with expr where it is
       the active case): recurse on each case, at most ``splits`` levels deep.
    2. On a smooth decided form: where its derivative in a variable (``sp.diff``, enclosed on the
       box) has a certain sign, the sup lies on the face where it is largest: the box shrinks to
       that face (repeated).  Then :func:`enclose_decided` on what is left."""
    if (fast := _compiled()) is not None:
        return fast.upper_bound(expr, symbols, box, cache, splits, strong)
    cache = cache if cache is not None else {}
    box = list(box)
    env = {s: interval_ball(lo, hi) for s, (lo, hi) in zip(symbols, box, strict=False)}
    dec = decide(expr, env, (symbols, box, cache) if strong else None)
    atom = _undecided_atom(dec) if splits > 0 else None
    if atom is not None:
        vals = []
        if isinstance(atom, sp.Piecewise):
            # branch i is active only where its condition holds and every earlier one fails: its
            # case is bounded on the sub-box those conditions leave (:func:`_restrict`)
            subs = []
            for k, (ex, c) in enumerate(atom.args):
                sub: list | None = list(box)
                for _ex, c_prev in atom.args[:k]:
                    sub = _restrict(c_prev, symbols, sub, negate=True) if sub is not None else None
                sub = _restrict(c, symbols, sub) if sub is not None else None
                if sub is not None:
                    subs.append((ex, sub))
        else:
            subs = [(c, box) for c in _cases(atom)]
        for c, sub in subs:
            v = upper_bound(dec.xreplace({atom: c}), symbols, sub, cache, splits - 1, strong)
            if not v.is_finite():
                return _NAN
            vals.append(v)
        if not vals:
            return _NAN
        least = not isinstance(atom, sp.Piecewise) and _atom_bound_side(dec, atom, env, cache) == "min"
        # one of the balls, chosen by its upper end (arb.max / arb.min would round that end up)
        return (min if least else max)(vals, key=lambda v: v.upper())
    key = ("simplified", dec)
    if key not in cache:
        cache[key] = _simplified(dec)
    form = cache[key]
    if not form.has(*_ROUGH):
        # a variable in which the form is affine (second derivative identically 0): on each line
        # in that variable the sup is at an end, so sup over the box = max over its two faces
        for i, (s, (lo, hi)) in enumerate(zip(symbols, box, strict=False)):
            if lo == hi or not form.has(s):
                continue
            akey = ("affine", form, s)
            if akey not in cache:
                # affine means a polynomial of degree <= 1 in s: a second derivative that cancels
                # to 0 is not enough (sqrt((x - a)^2) = |x - a| has one, and a kink at a)
                try:
                    poly = sp.Poly(form, s)
                    cache[akey] = poly.degree() <= 1 and not any(c.has(s) for c in poly.all_coeffs())
                except Exception:  # noqa: BLE001 - not shown affine
                    cache[akey] = False
            if cache[akey]:
                faces = [box[:i] + [(e, e)] + box[i + 1:] for e in (lo, hi)]
                vals = [upper_bound(form, symbols, f, cache, splits, strong) for f in faces]
                if not all(v.is_finite() for v in vals):
                    return _NAN
                return max(vals, key=lambda v: v.upper())
    for _ in range(len(box) + 1):
        env = {s: interval_ball(lo, hi) for s, (lo, hi) in zip(symbols, box, strict=False)}
        dec = decide(dec, env, (symbols, box, cache) if strong else None)
        key = ("simplified", dec)
        if key not in cache:
            cache[key] = _simplified(dec)
        form = cache[key]
        if form.has(*_ROUGH):
            break
        moved = False
        for i, (s, (lo, hi)) in enumerate(zip(symbols, box, strict=False)):
            if lo == hi or not form.has(s):
                continue
            dkey = ("factored", form, s)
            if dkey not in cache:
                cache[dkey] = _factored_derivative(form, s)
            try:
                g = enclose(cache[dkey], env)
            except TypeError:
                continue
            if g.is_finite() and g.lower() >= 0:
                box[i], moved = (hi, hi), True
            elif g.is_finite() and g.upper() <= 0:
                box[i], moved = (lo, lo), True
        if not moved:
            break
    return enclose_decided(dec, symbols, box, cache)
